//! Challenges waiting for their answer (docs/ratings.md, "Fair play"): a two-player
//! challenge becomes a match only when the one challenged accepts it. Each is kept
//! until it is answered or expires, so a restart forgets none; then it is taken (one
//! process only, on a shared database) and deleted, leaving nothing behind. What it
//! holds (the match to create) is the front's JSON.

use super::Store;
use super::types::{StoreError, to_i64, to_u64};
use sqlx::Row;

/// A stored challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRecord {
    /// Its number (its buttons carry it); 0 before it is stored.
    pub id: i64,
    /// The game's stored kind ("zendo-duel").
    pub game: String,
    pub guild: Option<u64>,
    pub channel: u64,
    pub challenger: u64,
    pub challenged: u64,
    /// Game-clock times, milliseconds.
    pub created_at: u64,
    pub expires_at: u64,
    /// Its message, once posted.
    pub message: Option<u64>,
    /// JSON, the front's own.
    pub body: String,
}

/// The columns read back, for `concat!`.
macro_rules! columns {
    () => {
        "id, game, guild_id, channel_id, challenger, challenged, created_at, expires_at, \
         message_id, body"
    };
}

/// A row of `challenges` read.
fn record(r: &sqlx::any::AnyRow) -> Result<ChallengeRecord, StoreError> {
    Ok(ChallengeRecord {
        id: r.try_get("id")?,
        game: r.try_get("game")?,
        guild: r.try_get::<Option<i64>, _>("guild_id")?.map(to_u64),
        channel: to_u64(r.try_get("channel_id")?),
        challenger: to_u64(r.try_get("challenger")?),
        challenged: to_u64(r.try_get("challenged")?),
        created_at: to_u64(r.try_get("created_at")?),
        expires_at: to_u64(r.try_get("expires_at")?),
        message: r.try_get::<Option<i64>, _>("message_id")?.map(to_u64),
        body: r.try_get("body")?,
    })
}

impl Store {
    /// Stores a new challenge; its number.
    pub async fn add_challenge(&self, c: &ChallengeRecord) -> Result<i64, StoreError> {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO challenges (game, guild_id, channel_id, challenger, challenged, \
             created_at, expires_at, message_id, body) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
        )
        .bind(&c.game)
        .bind(c.guild.map(|g| to_i64("guild id", g)).transpose()?)
        .bind(to_i64("channel id", c.channel)?)
        .bind(to_i64("user id", c.challenger)?)
        .bind(to_i64("user id", c.challenged)?)
        .bind(to_i64("time", c.created_at)?)
        .bind(to_i64("time", c.expires_at)?)
        .bind(c.message.map(|m| to_i64("message id", m)).transpose()?)
        .bind(&c.body)
        .fetch_one(&self.write().await?)
        .await?;
        Ok(id)
    }

    /// Notes the message a challenge was posted as.
    pub async fn set_challenge_message(&self, id: i64, message: u64) -> Result<(), StoreError> {
        sqlx::query("UPDATE challenges SET message_id = $2 WHERE id = $1")
            .bind(id)
            .bind(to_i64("message id", message)?)
            .execute(&self.write().await?)
            .await?;
        Ok(())
    }

    /// A challenge still waiting, by its number.
    pub async fn challenge(&self, id: i64) -> Result<Option<ChallengeRecord>, StoreError> {
        let row = sqlx::query(concat!(
            "SELECT ",
            columns!(),
            " FROM challenges WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.read().await?)
        .await?;
        row.as_ref().map(record).transpose()
    }

    /// Every challenge waiting, the first to expire first.
    pub async fn challenges(&self) -> Result<Vec<ChallengeRecord>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            columns!(),
            " FROM challenges ORDER BY expires_at, id"
        ))
        .fetch_all(&self.read().await?)
        .await?;
        rows.iter().map(record).collect()
    }

    /// Takes a challenge away (answered or expired): it, if it was still there. Only
    /// one caller ever gets it, whichever process asks.
    pub async fn take_challenge(&self, id: i64) -> Result<Option<ChallengeRecord>, StoreError> {
        let row = sqlx::query(concat!(
            "DELETE FROM challenges WHERE id = $1 RETURNING ",
            columns!()
        ))
        .bind(id)
        .fetch_optional(&self.write().await?)
        .await?;
        row.as_ref().map(record).transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_challenge_reads_back_after_reopening_and_is_taken_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("m.db");
        let mut c = ChallengeRecord {
            id: 0,
            game: "logical-bluffs".into(),
            guild: Some(u64::MAX >> 1),
            channel: 42,
            challenger: 7,
            challenged: 8,
            created_at: 1_000,
            expires_at: 601_000,
            message: None,
            body: r#"{"setup":1}"#.into(),
        };
        let store = Store::open(&path).await.expect("store");
        c.id = store.add_challenge(&c).await.expect("stored");
        store.set_challenge_message(c.id, 99).await.expect("noted");
        c.message = Some(99);
        store.close().await;

        let store = Store::open(&path).await.expect("reopened");
        assert_eq!(store.challenges().await.unwrap(), vec![c.clone()]);
        assert_eq!(store.challenge(c.id).await.unwrap(), Some(c.clone()));
        assert_eq!(store.take_challenge(c.id).await.unwrap(), Some(c.clone()));
        assert_eq!(store.take_challenge(c.id).await.unwrap(), None, "only once");
        assert!(store.challenges().await.unwrap().is_empty());
        let bad = ChallengeRecord {
            body: "not json".into(),
            ..c
        };
        assert!(store.add_challenge(&bad).await.is_err(), "the body is JSON");
        store.close().await;
    }
}
