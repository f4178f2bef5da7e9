//! Tournaments as their events (docs/tournaments.md): created with the first, appended
//! after the last one the writer knows (another writer's append in between is a
//! refusal, nothing written), read back in order. The JSON is the rules'.

use super::Store;
use super::fence::now_ms;
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

    /// Tournament `id`'s row, if there is one.
    pub async fn tournament(&self, id: i64) -> Result<Option<TournamentRecord>, StoreError> {
        let row = sqlx::query(
            "SELECT id, guild_id, name, created_at, last_seq FROM tournaments WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.read().await?)
        .await?;
        row.as_ref().map(record).transpose()
    }

    /// Every tournament of every server and the terminal, the oldest first: what a
    /// process that runs their deadlines looks through.
    pub async fn all_tournaments(&self) -> Result<Vec<TournamentRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, guild_id, name, created_at, last_seq FROM tournaments ORDER BY id",
        )
        .fetch_all(&self.read().await?)
        .await?;
        rows.iter().map(record).collect()
    }

    /// Takes (or keeps) tournament `id`'s lease for `owner` for `ttl` from now, on the
    /// database's clock: whether `owner` holds it now (false: another process's lease
    /// is live). The holder fires the tournament's deadlines.
    pub async fn take_tournament_lease(
        &self,
        id: i64,
        owner: &str,
        ttl: std::time::Duration,
    ) -> Result<bool, StoreError> {
        let ttl = to_i64(
            "lease time",
            u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX),
        )?;
        let text = "INSERT INTO tournament_leases (tournament_id, owner, expires_ms) \
             VALUES ($1, $2, {NOW} + $3) \
             ON CONFLICT (tournament_id) DO UPDATE SET \
             owner = excluded.owner, expires_ms = excluded.expires_ms \
             WHERE tournament_leases.owner = excluded.owner \
             OR tournament_leases.expires_ms <= {NOW} \
             RETURNING owner"
            .replace("{NOW}", now_ms(self.backend()));
        let taken: Option<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(text))
            .bind(id)
            .bind(owner)
            .bind(ttl)
            .fetch_optional(&self.write().await?)
            .await?;
        Ok(taken.is_some())
    }

    /// Lets go of `owner`'s lease on tournament `id` (another process may take it at
    /// once); a lease another holds is left alone.
    pub async fn release_tournament_lease(&self, id: i64, owner: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE tournament_leases SET expires_ms = 0 WHERE tournament_id = $1 AND owner = $2",
        )
        .bind(id)
        .bind(owner)
        .execute(&self.write().await?)
        .await?;
        Ok(())
    }

    /// Who holds tournament `id`'s lease, and until when (database clock), if anyone
    /// ever did.
    pub async fn tournament_lease(&self, id: i64) -> Result<Option<(String, i64)>, StoreError> {
        let row =
            sqlx::query("SELECT owner, expires_ms FROM tournament_leases WHERE tournament_id = $1")
                .bind(id)
                .fetch_optional(&self.read().await?)
                .await?;
        row.map(|r| Ok((r.try_get("owner")?, r.try_get("expires_ms")?)))
            .transpose()
    }
}
