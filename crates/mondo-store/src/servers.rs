//! Per server (Discord guild): pattern pools as the host's TOML text, settings for
//! all games (the host role, the default pool) and each game's own (JSON). The store
//! keeps text and numbers; checking a pool's TOML is the pool loader's job, and
//! reading a game's settings the game's front's.

use super::Store;
use super::types::{StoreError, to_i64, to_u64};
use sqlx::Row;

/// What a server sets for all its games; `None` means "the default"
/// (config/default.toml). Each game's own settings are [`Store::game_settings`].
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ServerSettings {
    /// Members with this role may host (besides those with Manage Server).
    pub host_role: Option<u64>,
    /// The pool new matches draw from.
    pub pool: Option<String>,
}

/// A stored pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolRecord {
    pub guild: u64,
    pub name: String,
    pub toml: String,
    pub updated_by: Option<u64>,
    /// Wall time, ISO 8601 UTC.
    pub updated: String,
}

impl Store {
    /// A server's settings (all defaults if it never set any).
    pub async fn server_settings(&self, guild: u64) -> Result<ServerSettings, StoreError> {
        let row = sqlx::query("SELECT host_role, pool FROM server_settings WHERE guild_id = $1")
            .bind(to_i64("guild id", guild)?)
            .fetch_optional(&self.read().await?)
            .await?;
        let Some(r) = row else {
            return Ok(ServerSettings::default());
        };
        Ok(ServerSettings {
            host_role: r.try_get::<Option<i64>, _>("host_role")?.map(to_u64),
            pool: r.try_get("pool")?,
        })
    }

    /// Replaces a server's settings.
    pub async fn set_server_settings(
        &self,
        guild: u64,
        settings: &ServerSettings,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO server_settings (guild_id, host_role, pool) VALUES ($1, $2, $3) \
             ON CONFLICT (guild_id) DO UPDATE SET host_role = $2, pool = $3, \
             updated = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        )
        .bind(to_i64("guild id", guild)?)
        .bind(
            settings
                .host_role
                .map(|r| to_i64("role id", r))
                .transpose()?,
        )
        .bind(settings.pool.as_deref())
        .execute(&self.write().await?)
        .await?;
        Ok(())
    }

    /// A server's settings for one game (JSON, the game's own; `{}` if it never set
    /// any). The store does not read them: the game's front does.
    pub async fn game_settings(&self, guild: u64, game: &str) -> Result<String, StoreError> {
        let found: Option<String> = sqlx::query_scalar(
            "SELECT settings FROM game_settings WHERE guild_id = $1 AND game = $2",
        )
        .bind(to_i64("guild id", guild)?)
        .bind(game)
        .fetch_optional(&self.read().await?)
        .await?;
        Ok(found.unwrap_or_else(|| "{}".into()))
    }

    /// Replaces a server's settings for one game (JSON).
    pub async fn set_game_settings(
        &self,
        guild: u64,
        game: &str,
        settings: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO game_settings (guild_id, game, settings) VALUES ($1, $2, $3) \
             ON CONFLICT (guild_id, game) DO UPDATE SET settings = $3, \
             updated = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        )
        .bind(to_i64("guild id", guild)?)
        .bind(game)
        .bind(settings)
        .execute(&self.write().await?)
        .await?;
        Ok(())
    }

    /// Stores (or replaces) a server's pool under `name`.
    pub async fn put_pool(
        &self,
        guild: u64,
        name: &str,
        toml: &str,
        by: Option<u64>,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO pools (guild_id, name, toml, updated_by) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (guild_id, name) DO UPDATE SET toml = $3, updated_by = $4, \
             updated = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        )
        .bind(to_i64("guild id", guild)?)
        .bind(name)
        .bind(toml)
        .bind(by.map(|b| to_i64("user id", b)).transpose()?)
        .execute(&self.write().await?)
        .await?;
        Ok(())
    }

    /// Stores a server's pool under `name` only if it is still `before` (`None`: there
    /// is none yet): whether it was. An edit read from a pool that another process (or
    /// host) changed meanwhile is refused here instead of overwriting theirs: the
    /// caller reads the pool again and makes its edit on that.
    pub async fn replace_pool(
        &self,
        guild: u64,
        name: &str,
        before: Option<&str>,
        toml: &str,
        by: Option<u64>,
    ) -> Result<bool, StoreError> {
        let query = match before {
            None => sqlx::query(
                "INSERT INTO pools (guild_id, name, toml, updated_by) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (guild_id, name) DO NOTHING",
            ),
            Some(_) => sqlx::query(
                "UPDATE pools SET toml = $3, updated_by = $4, \
                 updated = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') \
                 WHERE guild_id = $1 AND name = $2 AND toml = $5",
            ),
        };
        let mut query = query
            .bind(to_i64("guild id", guild)?)
            .bind(name)
            .bind(toml)
            .bind(by.map(|b| to_i64("user id", b)).transpose()?);
        if let Some(before) = before {
            query = query.bind(before);
        }
        let done = query.execute(&self.write().await?).await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn pool(&self, guild: u64, name: &str) -> Result<Option<PoolRecord>, StoreError> {
        let rows = self.pool_rows(guild, Some(name)).await?;
        Ok(rows.into_iter().next())
    }

    /// The names of every server's pools (for checking the configured default pool).
    pub async fn pool_names(&self) -> Result<Vec<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT DISTINCT name FROM pools ORDER BY name")
                .fetch_all(&self.read().await?)
                .await?,
        )
    }

    /// A server's pools, by name.
    pub async fn pools(&self, guild: u64) -> Result<Vec<PoolRecord>, StoreError> {
        self.pool_rows(guild, None).await
    }

    /// Removes a pool; whether there was one.
    pub async fn delete_pool(&self, guild: u64, name: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM pools WHERE guild_id = $1 AND name = $2")
            .bind(to_i64("guild id", guild)?)
            .bind(name)
            .execute(&self.write().await?)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    async fn pool_rows(
        &self,
        guild: u64,
        name: Option<&str>,
    ) -> Result<Vec<PoolRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT name, toml, updated_by, updated FROM pools \
             WHERE guild_id = $1 AND ($2 IS NULL OR name = $2) ORDER BY name",
        )
        .bind(to_i64("guild id", guild)?)
        .bind(name)
        .fetch_all(&self.read().await?)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(PoolRecord {
                    guild,
                    name: r.try_get("name")?,
                    toml: r.try_get("toml")?,
                    updated_by: r.try_get::<Option<i64>, _>("updated_by")?.map(to_u64),
                    updated: r.try_get("updated")?,
                })
            })
            .collect()
    }
}
