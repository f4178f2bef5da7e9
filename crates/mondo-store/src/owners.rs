//! What several processes on one database need beyond leases: which live matches no
//! process runs (no lease, or one that ran out), so that one of them takes each over.
//! (The leases themselves are in `leases.rs`.)

use super::Store;
use super::fence::{Lease, now_ms};
use super::types::{MatchId, StoreError};
use sqlx::Row;

/// A live match that no process runs now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unowned {
    pub id: MatchId,
    pub kind: String,
    /// Whether it has a place (a server or a channel: a Discord front's match), rather
    /// than none (a terminal's, `mondo play`).
    pub placed: bool,
    /// Its last lease (run out), or none: never leased (created a moment ago by a
    /// process that has not taken it yet, or before leases existed).
    pub lease: Option<Lease>,
}

impl Store {
    /// The live matches whose lease is missing or ran out (database clock), oldest
    /// first, with the database's clock when it was asked (milliseconds since 1970).
    pub async fn unowned(&self) -> Result<(Vec<Unowned>, i64), StoreError> {
        let now = now_ms(self.backend());
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT m.id, m.kind, l.owner, l.expires_ms, l.token, {now} AS db_now, \
             CASE WHEN m.guild_id IS NULL AND m.channel_id IS NULL THEN 0 ELSE 1 END \
             AS placed \
             FROM matches m LEFT JOIN leases l ON l.match_id = m.id \
             WHERE m.status = 'live' AND (l.match_id IS NULL OR l.expires_ms <= {now}) \
             ORDER BY m.id"
        )))
        .fetch_all(&self.read().await?)
        .await?;
        let mut db_now = None;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            db_now = Some(r.try_get::<i64, _>("db_now")?);
            let id = MatchId(r.try_get("id")?);
            let token: Option<i64> = r.try_get("token")?;
            let lease = match token {
                Some(token) => Some(Lease {
                    id,
                    owner: r.try_get("owner")?,
                    expires_ms: r.try_get("expires_ms")?,
                    token,
                }),
                None => None,
            };
            out.push(Unowned {
                id,
                kind: r.try_get("kind")?,
                placed: r.try_get::<i32, _>("placed")? != 0,
                lease,
            });
        }
        let db_now = match db_now {
            Some(n) => n,
            None => self.database_now_ms().await?,
        };
        Ok((out, db_now))
    }

    /// Lets go of every lease (they run out now; their tokens stay, so the next owner's
    /// are higher). Only for a process that is alone on its database by construction
    /// (SQLite's run lock): whatever leases an earlier process left are its own.
    pub async fn expire_all_leases(&self) -> Result<(), StoreError> {
        sqlx::query("UPDATE leases SET expires_ms = 0 WHERE expires_ms > 0")
            .execute(&self.write().await?)
            .await?;
        Ok(())
    }
}

/// How many times a stopping process tries to save the game clock.
const STOP_TRIES: u32 = 5;

impl Store {
    /// The game clock to resume from when several processes share the database: the
    /// last reading saved (or the latest event's time, if later), plus the time since
    /// it was saved (database clock) if that is under `alive_ms` and some process holds
    /// a live lease (another process is running it), else plus nothing (no process ran
    /// meanwhile). Also whether it was running.
    pub async fn shared_game_clock(&self, alive_ms: u64) -> Result<(u64, bool), StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT MAX((SELECT now_ms FROM game_clock WHERE id = 1), \
             COALESCE((SELECT MAX(last_at) FROM matches), 0)) AS reading, \
             (SELECT saved_ms FROM game_clock WHERE id = 1) AS saved_ms, {now} AS db_now, \
             (SELECT COUNT(*) FROM leases WHERE expires_ms > {now}) AS held",
            now = now_ms(self.backend())
        )))
        .fetch_one(&self.read().await?)
        .await?;
        let reading: i64 = row.try_get("reading")?;
        let saved: i64 = row.try_get("saved_ms")?;
        let db_now: i64 = row.try_get("db_now")?;
        let since = db_now.saturating_sub(saved);
        // Saved a moment ago, by a process that still holds a match: running. (A lone
        // process killed a moment ago holds none once its leases ran out.)
        let held: i64 = row.try_get("held")?;
        let running = held > 0 && saved > 0 && since >= 0 && (since as u64) < alive_ms;
        let reading = reading.max(0) as u64;
        Ok(if running {
            (reading + since as u64, true)
        } else {
            (reading, false)
        })
    }

    /// Saves the game clock's reading (it never goes back) and when (database clock).
    pub async fn save_shared_game_clock(&self, now: u64) -> Result<(), StoreError> {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE game_clock SET now_ms = MAX(now_ms, $1), saved_ms = {} WHERE id = 1",
            now_ms(self.backend())
        )))
        .bind(super::to_i64("time", now)?)
        .execute(&self.write().await?)
        .await?;
        Ok(())
    }

    /// The game clock's last reading from a process that stops cleanly: saved, and
    /// marked as not running (a process started next resumes at it exactly, unless
    /// another process saves meanwhile: it runs the clock on).
    ///
    /// Every process saves this one row, so the save can meet another process's save
    /// holding it past `lock_timeout` (a loaded server), or a pool with no connection
    /// free at once: a stop is not refused for another process's moment, the save is
    /// tried again, five times in all.
    pub async fn stop_shared_game_clock(&self, now: u64) -> Result<(), StoreError> {
        let now = super::to_i64("time", now)?;
        let mut tries = 1;
        loop {
            let saved = async {
                sqlx::query(
                    "UPDATE game_clock SET now_ms = MAX(now_ms, $1), saved_ms = 0 WHERE id = 1",
                )
                .bind(now)
                .execute(&self.write().await?)
                .await?;
                Ok(())
            };
            match saved.await {
                Err(e @ (StoreError::Busy | StoreError::Unreachable { .. }))
                    if tries < STOP_TRIES =>
                {
                    tracing::warn!(error = %e, tries, "the game clock's last save waits: tried again");
                    tries += 1;
                }
                done => return done,
            }
        }
    }
}
