//! Per server (Discord guild): pattern pools as the host's TOML text, and settings.
//! The store keeps text and numbers; checking a pool's TOML is the pool loader's job,
//! done before it is stored.

use super::{Store, StoreError, to_i64, to_u64};
use crate::finder::Style;
use sqlx::Row;

/// A server's settings; `None` means "the default" (config/default.toml).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ServerSettings {
    /// The whole turn of a duel.
    pub turn_ms: Option<u64>,
    /// To answer a challenge.
    pub challenge_ms: Option<u64>,
    /// Added to the turn per official guess.
    pub guess_bonus_ms: Option<u64>,
    pub style: Option<Style>,
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

fn style_name(style: Style) -> &'static str {
    match style {
        Style::Simple => "simple",
        Style::Varied => "varied",
    }
}

impl Store {
    /// A server's settings (all defaults if it never set any).
    pub async fn server_settings(&self, guild: u64) -> Result<ServerSettings, StoreError> {
        let row = sqlx::query(
            "SELECT turn_ms, challenge_ms, guess_bonus_ms, style, host_role, pool \
             FROM server_settings WHERE guild_id = ?1",
        )
        .bind(to_i64("guild id", guild)?)
        .fetch_optional(&self.read)
        .await?;
        let Some(r) = row else {
            return Ok(ServerSettings::default());
        };
        let ms = |col: &str| -> Result<Option<u64>, StoreError> {
            Ok(r.try_get::<Option<i64>, _>(col)?.map(to_u64))
        };
        let style: Option<String> = r.try_get("style")?;
        Ok(ServerSettings {
            turn_ms: ms("turn_ms")?,
            challenge_ms: ms("challenge_ms")?,
            guess_bonus_ms: ms("guess_bonus_ms")?,
            style: match style.as_deref() {
                Some("varied") => Some(Style::Varied),
                Some(_) => Some(Style::Simple),
                None => None,
            },
            host_role: ms("host_role")?,
            pool: r.try_get("pool")?,
        })
    }

    /// Replaces a server's settings.
    pub async fn set_server_settings(
        &self,
        guild: u64,
        settings: &ServerSettings,
    ) -> Result<(), StoreError> {
        let opt = |what, v: Option<u64>| v.map(|v| to_i64(what, v)).transpose();
        sqlx::query(
            "INSERT INTO server_settings \
             (guild_id, turn_ms, challenge_ms, guess_bonus_ms, style, host_role, pool) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
             ON CONFLICT (guild_id) DO UPDATE SET turn_ms = ?2, challenge_ms = ?3, \
             guess_bonus_ms = ?4, style = ?5, host_role = ?6, pool = ?7, \
             updated = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        )
        .bind(to_i64("guild id", guild)?)
        .bind(opt("turn length", settings.turn_ms)?)
        .bind(opt("challenge length", settings.challenge_ms)?)
        .bind(opt("guess bonus", settings.guess_bonus_ms)?)
        .bind(settings.style.map(style_name))
        .bind(opt("role id", settings.host_role)?)
        .bind(settings.pool.as_deref())
        .execute(&self.write)
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
            "INSERT INTO pools (guild_id, name, toml, updated_by) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT (guild_id, name) DO UPDATE SET toml = ?3, updated_by = ?4, \
             updated = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        )
        .bind(to_i64("guild id", guild)?)
        .bind(name)
        .bind(toml)
        .bind(by.map(|b| to_i64("user id", b)).transpose()?)
        .execute(&self.write)
        .await?;
        Ok(())
    }

    pub async fn pool(&self, guild: u64, name: &str) -> Result<Option<PoolRecord>, StoreError> {
        let rows = self.pool_rows(guild, Some(name)).await?;
        Ok(rows.into_iter().next())
    }

    /// A server's pools, by name.
    pub async fn pools(&self, guild: u64) -> Result<Vec<PoolRecord>, StoreError> {
        self.pool_rows(guild, None).await
    }

    /// Removes a pool; whether there was one.
    pub async fn delete_pool(&self, guild: u64, name: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM pools WHERE guild_id = ?1 AND name = ?2")
            .bind(to_i64("guild id", guild)?)
            .bind(name)
            .execute(&self.write)
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
             WHERE guild_id = ?1 AND (?2 IS NULL OR name = ?2) ORDER BY name",
        )
        .bind(to_i64("guild id", guild)?)
        .bind(name)
        .fetch_all(&self.read)
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
