//! Lobbies waiting for their players as versions before a lobby was a match's phase
//! stored them: each as its game's JSON with where and when it opened. A newer bot
//! makes each a match once, at start-up, and notes which (`match_id`), so the old
//! message's buttons, which carry the lobby's number, lead there. Reading the JSON is
//! the game's front's.

use super::Store;
use super::types::{MatchId, StoreError, to_i64, to_u64};
use sqlx::Row;

/// A stored lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyRecord {
    /// Its number (its buttons carry it).
    pub id: i64,
    /// The game's stored kind ("zendo-classic").
    pub game: String,
    pub guild: Option<u64>,
    pub channel: u64,
    /// Wall time it opened, milliseconds since 1970.
    pub opened_ms: u64,
    /// JSON, the game's own.
    pub body: String,
}

/// A row of `lobbies` read.
fn record(r: &sqlx::any::AnyRow) -> Result<LobbyRecord, StoreError> {
    Ok(LobbyRecord {
        id: r.try_get("id")?,
        game: r.try_get("game")?,
        guild: r.try_get::<Option<i64>, _>("guild_id")?.map(to_u64),
        channel: to_u64(r.try_get("channel_id")?),
        opened_ms: to_u64(r.try_get("opened_ms")?),
        body: r.try_get("body")?,
    })
}

impl Store {
    /// Stores a lobby, or replaces the one with its number.
    pub async fn put_lobby(&self, lobby: &LobbyRecord) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO lobbies (id, game, guild_id, channel_id, opened_ms, body) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO UPDATE SET game = $2, \
             guild_id = $3, channel_id = $4, opened_ms = $5, body = $6",
        )
        .bind(lobby.id)
        .bind(&lobby.game)
        .bind(lobby.guild.map(|g| to_i64("guild id", g)).transpose()?)
        .bind(to_i64("channel id", lobby.channel)?)
        .bind(to_i64("time", lobby.opened_ms)?)
        .bind(&lobby.body)
        .execute(&self.write().await?)
        .await?;
        Ok(())
    }

    /// A game's stored lobbies, oldest first.
    pub async fn lobbies(&self, game: &str) -> Result<Vec<LobbyRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, game, guild_id, channel_id, opened_ms, body FROM lobbies \
             WHERE game = $1 ORDER BY opened_ms, id",
        )
        .bind(game)
        .fetch_all(&self.read().await?)
        .await?;
        rows.iter().map(record).collect()
    }

    /// A game's stored lobbies not yet made matches (stored by versions before a
    /// lobby was a match's phase), oldest first.
    pub async fn unconverted_lobbies(&self, game: &str) -> Result<Vec<LobbyRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, game, guild_id, channel_id, opened_ms, body FROM lobbies \
             WHERE game = $1 AND match_id IS NULL ORDER BY opened_ms, id",
        )
        .bind(game)
        .fetch_all(&self.read().await?)
        .await?;
        rows.iter().map(record).collect()
    }

    /// Notes the match a stored lobby became.
    pub async fn set_lobby_match(&self, id: i64, game: MatchId) -> Result<(), StoreError> {
        sqlx::query("UPDATE lobbies SET match_id = $2 WHERE id = $1")
            .bind(id)
            .bind(game.0)
            .execute(&self.write().await?)
            .await?;
        Ok(())
    }

    /// The match a stored lobby became, if it did.
    pub async fn lobby_match(&self, id: i64) -> Result<Option<MatchId>, StoreError> {
        let row = sqlx::query("SELECT match_id FROM lobbies WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.read().await?)
            .await?;
        Ok(match row {
            Some(r) => r.try_get::<Option<i64>, _>("match_id")?.map(MatchId),
            None => None,
        })
    }

    /// Removes a lobby (started or expired); whether it was there.
    pub async fn delete_lobby(&self, id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM lobbies WHERE id = $1")
            .bind(id)
            .execute(&self.write().await?)
            .await?;
        Ok(done.rows_affected() > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_lobby_reads_back_after_reopening_and_is_gone_once_deleted() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("m.db");
        let lobby = LobbyRecord {
            id: i64::MAX - 1,
            game: "zendo-classic".into(),
            guild: Some(u64::MAX >> 1),
            channel: 42,
            opened_ms: 1_700_000_000_000,
            body: r#"{"students":[1,2]}"#.into(),
        };
        let store = Store::open(&path).await.expect("store");
        store.put_lobby(&lobby).await.expect("stored");
        let joined = LobbyRecord {
            body: r#"{"students":[1,2,3]}"#.into(),
            ..lobby.clone()
        };
        store.put_lobby(&joined).await.expect("replaced");
        store.close().await;

        let store = Store::open(&path).await.expect("reopened");
        assert_eq!(store.lobbies("zendo-classic").await.unwrap(), vec![joined]);
        assert!(store.lobbies("other-game").await.unwrap().is_empty());
        assert!(store.delete_lobby(lobby.id).await.unwrap());
        assert!(!store.delete_lobby(lobby.id).await.unwrap(), "only once");
        assert!(store.lobbies("zendo-classic").await.unwrap().is_empty());
        let bad = LobbyRecord {
            body: "not json".into(),
            ..lobby
        };
        assert!(
            store.put_lobby(&bad).await.is_err(),
            "the body must be JSON"
        );
        store.close().await;
    }
}
