//! Tournaments as their events (docs/tournaments.md): created with the first, appended
//! after the last one the writer knows (another writer's append in between is a
//! refusal, nothing written), read back in order. The JSON is the rules'.

use super::Store;
use super::types::{StoreError, to_i64, to_u64};
use sqlx::Row;

/// A stored tournament's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRecord {
    pub id: i64,
    /// None: the terminal's.
    pub guild: Option<u64>,
    pub name: String,
    pub created_at: u64,
    /// Its events so far.
    pub last_seq: u64,
}

fn record(r: &sqlx::any::AnyRow) -> Result<TournamentRecord, StoreError> {
    Ok(TournamentRecord {
        id: r.try_get("id")?,
        guild: r.try_get::<Option<i64>, _>("guild_id")?.map(to_u64),
        name: r.try_get("name")?,
        created_at: to_u64(r.try_get("created_at")?),
        last_seq: to_u64(r.try_get("last_seq")?),
    })
}

impl Store {
    /// Creates a tournament with its first event (seq 1); its id.
    pub async fn create_tournament(
        &self,
        guild: Option<u64>,
        name: &str,
        at: u64,
        first: &str,
    ) -> Result<i64, StoreError> {
        let guild = guild.map(|g| to_i64("guild id", g)).transpose()?;
        let mut tx = self.begin_write().await?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO tournaments (guild_id, name, created_at, last_seq) \
             VALUES ($1, $2, $3, 1) RETURNING id",
        )
        .bind(guild)
        .bind(name)
        .bind(to_i64("time", at)?)
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query("INSERT INTO tournament_events (tournament_id, seq, body) VALUES ($1, 1, $2)")
            .bind(id)
            .bind(first)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(id)
    }

    /// Appends `events` after event `after` (the last the caller read); all or
    /// nothing. Refused if the tournament moved on meanwhile.
    pub async fn append_tournament(
        &self,
        id: i64,
        after: u64,
        events: &[String],
    ) -> Result<(), StoreError> {
        if events.is_empty() {
            return Ok(());
        }
        let mut tx = self.begin_write().await?;
        let found: Option<i64> =
            sqlx::query_scalar("SELECT last_seq FROM tournaments WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        let found = found.map(to_u64).ok_or(StoreError::NoTournament(id))?;
        if found != after {
            return Err(StoreError::TournamentMoved {
                id,
                expected: after,
                found,
            });
        }
        for (k, body) in events.iter().enumerate() {
            sqlx::query(
                "INSERT INTO tournament_events (tournament_id, seq, body) VALUES ($1, $2, $3)",
            )
            .bind(id)
            .bind(to_i64("event number", after + k as u64 + 1)?)
            .bind(body)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query("UPDATE tournaments SET last_seq = $2 WHERE id = $1")
            .bind(id)
            .bind(to_i64("event number", after + events.len() as u64)?)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// A tournament's events in order (JSON).
    pub async fn tournament_events(&self, id: i64) -> Result<Vec<String>, StoreError> {
        let rows =
            sqlx::query("SELECT body FROM tournament_events WHERE tournament_id = $1 ORDER BY seq")
                .bind(id)
                .fetch_all(&self.read().await?)
                .await?;
        if rows.is_empty() {
            return Err(StoreError::NoTournament(id));
        }
        rows.iter()
            .map(|r| r.try_get::<String, _>("body").map_err(StoreError::from))
            .collect()
    }

    /// A server's tournaments (None: the terminal's), the newest first.
    pub async fn tournaments(
        &self,
        guild: Option<u64>,
    ) -> Result<Vec<TournamentRecord>, StoreError> {
        let guild = guild.map(|g| to_i64("guild id", g)).transpose()?;
        let rows = sqlx::query(
            "SELECT id, guild_id, name, created_at, last_seq FROM tournaments \
             WHERE guild_id IS NOT DISTINCT FROM $1 ORDER BY id DESC",
        )
        .bind(guild)
        .fetch_all(&self.read().await?)
        .await?;
        rows.iter().map(record).collect()
    }
}
