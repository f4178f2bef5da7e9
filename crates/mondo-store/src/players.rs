//! Names of the players at a terminal. Discord players are known by their user ids;
//! a terminal has only names, so each name gets a local id once (`local_players`), and
//! a match resumed later still says who is who.

use super::Store;
use super::types::{StoreError, to_i64, to_u64};
use sqlx::Row;
use std::collections::HashMap;

impl Store {
    /// The local id of a player's name, given the first time it is asked for. Names
    /// are matched without regard to case; the first spelling is kept.
    ///
    /// A person never takes an AI seat's reserved name (`ai-expert`:
    /// docs/ratings.md, "Fair play"): it is refused, and nothing is written;
    /// [`Store::local_ai_player`] gives the AI its own.
    pub async fn local_player(&self, name: &str) -> Result<u64, StoreError> {
        mondo_rules::rules::fair::refuse_reserved(name).map_err(StoreError::ReservedName)?;
        self.local_id(name).await
    }

    /// The local id of the AI seat named `name`, one of the reserved names
    /// ([`mondo_rules::rules::fair::ai_name`]); any other name is refused.
    pub async fn local_ai_player(&self, name: &str) -> Result<u64, StoreError> {
        if mondo_rules::rules::fair::reserved_ai_name(name).is_none() {
            return Err(StoreError::ReservedName(format!(
                "`{name}` is not an AI seat's name: the AI plays as {}",
                mondo_rules::rules::fair::reserved_list()
            )));
        }
        self.local_id(name).await
    }

    /// The local ids of the AI seats that have played here (their reserved names):
    /// rated like anyone, never listed on a leaderboard, as on Discord.
    pub async fn local_ai_players(&self) -> Result<Vec<u64>, StoreError> {
        let rows = sqlx::query("SELECT id, name FROM local_players WHERE name LIKE 'ai-%'")
            .fetch_all(&self.read().await?)
            .await?;
        let mut ids = Vec::new();
        for r in rows {
            let name: String = r.try_get("name")?;
            if mondo_rules::rules::fair::reserved_ai_name(&name).is_some() {
                ids.push(to_u64(r.try_get("id")?));
            }
        }
        Ok(ids)
    }

    async fn local_id(&self, name: &str) -> Result<u64, StoreError> {
        sqlx::query("INSERT INTO local_players (name) VALUES ($1) ON CONFLICT (name) DO NOTHING")
            .bind(name)
            .execute(&self.write().await?)
            .await?;
        // Read on the writer: the row was just written there.
        let id: i64 = sqlx::query_scalar("SELECT id FROM local_players WHERE name = $1")
            .bind(name)
            .fetch_one(&self.write().await?)
            .await?;
        Ok(to_u64(id))
    }

    /// The names of these local ids (ids without a name are left out).
    pub async fn local_names(&self, ids: &[u64]) -> Result<HashMap<u64, String>, StoreError> {
        let mut names = HashMap::new();
        for &id in ids {
            let row = sqlx::query("SELECT name FROM local_players WHERE id = $1")
                .bind(to_i64("player id", id)?)
                .fetch_optional(&self.read().await?)
                .await?;
            if let Some(r) = row {
                names.insert(id, r.try_get("name")?);
            }
        }
        Ok(names)
    }
}

impl Store {
    /// The local id of a name already known (any case), without giving one.
    pub async fn find_local_player(&self, name: &str) -> Result<Option<u64>, StoreError> {
        let id: Option<i64> = sqlx::query_scalar("SELECT id FROM local_players WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.read().await?)
            .await?;
        Ok(id.map(to_u64))
    }
}
