//! Leases: which process runs a live match. A process takes a match's lease for a
//! while (its expiry is read on the DATABASE's clock, so processes on machines whose
//! clocks differ agree), renews it while it runs the match, and releases it when it
//! stops. A lease that runs out may be taken by another process, and every takeover
//! gives the match a new fencing token (one more than the last: a released or expired
//! lease keeps its row, so tokens are never reused). Appends carry their owner's token
//! and the database writes them only while it is the current one (see
//! `writer::claim`): an owner that stalled past its lease and wakes up is refused
//! instead of writing beside the new owner.

use super::Store;
use super::db::Backend;
use super::fence::{Lease, fenced_why, now_ms};
use super::types::{MatchId, StoreError, to_i64};
use sqlx::Row;
use std::time::Duration;

/// `text` with `{NOW}` replaced by the database's clock (the only text built into a
/// query: every value is bound).
fn with_now(backend: Backend, text: &str) -> sqlx::AssertSqlSafe<String> {
    sqlx::AssertSqlSafe(text.replace("{NOW}", now_ms(backend)))
}

fn ttl_ms(ttl: Duration) -> Result<i64, StoreError> {
    to_i64(
        "lease time",
        u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX),
    )
}

impl Store {
    /// Takes match `id`'s lease for `owner` (a name unique to this process) for `ttl`:
    /// a match nobody holds, or whose lease ran out, gets a new token; the owner's own
    /// live lease is extended with its token unchanged. Another owner's live lease is
    /// refused ([`StoreError::Leased`]).
    pub async fn take_lease(
        &self,
        id: MatchId,
        owner: &str,
        ttl: Duration,
    ) -> Result<Lease, StoreError> {
        let taken = match self.backend() {
            Backend::Sqlite => self.take_sqlite(id, owner, ttl).await,
            Backend::Postgres => self.take_skipping_locked(id, owner, ttl).await,
        };
        let taken = match taken {
            Ok(row) => row,
            // A lease on no match (the key to matches refuses it).
            Err(e) if self.record(id).await?.is_none() => {
                tracing::debug!(error = %e, %id, "a lease on no match");
                return Err(StoreError::NoSuchMatch(id));
            }
            Err(e) => return Err(e),
        };
        if let Some(row) = taken {
            return Ok(Lease {
                id,
                owner: owner.to_string(),
                token: row.try_get("token")?,
                expires_ms: row.try_get("expires_ms")?,
            });
        }
        let row = sqlx::query(with_now(
            self.backend(),
            "SELECT owner, expires_ms - {NOW} AS left_ms FROM leases WHERE match_id = $1",
        ))
        .bind(id.0)
        .fetch_one(&self.write().await?)
        .await?;
        Err(StoreError::Leased {
            id,
            owner: row.try_get("owner")?,
            left_ms: row.try_get::<i64, _>("left_ms")?.max(0),
        })
    }

    /// SQLite's take: one statement (its one writer is alone; nothing waits on a lock).
    async fn take_sqlite(
        &self,
        id: MatchId,
        owner: &str,
        ttl: Duration,
    ) -> Result<Option<sqlx::any::AnyRow>, StoreError> {
        Ok(sqlx::query(with_now(
            Backend::Sqlite,
            "INSERT INTO leases (match_id, owner, expires_ms, token) \
             VALUES ($1, $2, {NOW} + $3, 1) \
             ON CONFLICT (match_id) DO UPDATE SET \
             token = CASE WHEN leases.owner = excluded.owner AND leases.expires_ms > {NOW} \
                     THEN leases.token ELSE leases.token + 1 END, \
             owner = excluded.owner, expires_ms = excluded.expires_ms \
             WHERE leases.owner = excluded.owner OR leases.expires_ms <= {NOW} \
             RETURNING token, expires_ms",
        ))
        .bind(id.0)
        .bind(owner)
        .bind(ttl_ms(ttl)?)
        .fetch_optional(&self.write().await?)
        .await?)
    }

    /// PostgreSQL's take, which never waits for another transaction: a lease row
    /// locked by one (its owner appending, or paused inside a transaction) is skipped
    /// (`FOR UPDATE SKIP LOCKED`) and the lease refused as held; the next look tries
    /// again, once the server has ended a paused session
    /// (`idle_in_transaction_session_timeout`). A match with no lease row yet gets one
    /// with token 1; whether it has one is read without a lock (an INSERT that met a
    /// locked row would wait for its transaction).
    async fn take_skipping_locked(
        &self,
        id: MatchId,
        owner: &str,
        ttl: Duration,
    ) -> Result<Option<sqlx::any::AnyRow>, StoreError> {
        let write = self.write().await?;
        let taken = sqlx::query(with_now(
            Backend::Postgres,
            "UPDATE leases SET \
             token = CASE WHEN owner = $2 AND expires_ms > {NOW} THEN token ELSE token + 1 END, \
             owner = $2, expires_ms = {NOW} + $3 \
             WHERE match_id = (SELECT match_id FROM leases WHERE match_id = $1 \
               AND (owner = $2 OR expires_ms <= {NOW}) FOR UPDATE SKIP LOCKED) \
             RETURNING token, expires_ms",
        ))
        .bind(id.0)
        .bind(owner)
        .bind(ttl_ms(ttl)?)
        .fetch_optional(&write)
        .await?;
        if taken.is_some() {
            return Ok(taken);
        }
        let leased: Option<i64> =
            sqlx::query_scalar("SELECT token FROM leases WHERE match_id = $1")
                .bind(id.0)
                .fetch_optional(&write)
                .await?;
        if leased.is_some() {
            return Ok(None);
        }
        Ok(sqlx::query(with_now(
            Backend::Postgres,
            "INSERT INTO leases (match_id, owner, expires_ms, token) \
             VALUES ($1, $2, {NOW} + $3, 1) ON CONFLICT (match_id) DO NOTHING \
             RETURNING token, expires_ms",
        ))
        .bind(id.0)
        .bind(owner)
        .bind(ttl_ms(ttl)?)
        .fetch_optional(&write)
        .await?)
    }

    /// Extends a lease held for `ttl` from now (database clock). A lease taken over
    /// meanwhile is refused ([`StoreError::Fenced`]): the match is another process's.
    /// A lease that ran out and that nobody took is still this owner's, and renewing
    /// it is allowed (its token is still the current one).
    pub async fn renew_lease(&self, lease: &Lease, ttl: Duration) -> Result<Lease, StoreError> {
        let row = sqlx::query(with_now(
            self.backend(),
            "UPDATE leases SET expires_ms = {NOW} + $3 \
             WHERE match_id = $1 AND token = $2 RETURNING expires_ms",
        ))
        .bind(lease.id.0)
        .bind(lease.token)
        .bind(ttl_ms(ttl)?)
        .fetch_optional(&self.write().await?)
        .await?;
        match row {
            Some(row) => Ok(Lease {
                expires_ms: row.try_get("expires_ms")?,
                ..lease.clone()
            }),
            None => Err(self.fenced(lease.id, Some(lease.token)).await),
        }
    }

    /// Extends, in one statement, every lease of `held` that `owner` still holds, for
    /// `ttl` from now (database clock): what a process does each renewal round for all
    /// its matches at once. Returns the leases renewed (match and token); a lease of
    /// `held` missing from them, or with another token, is no longer this owner's
    /// (ask [`Store::renew_lease`] why).
    pub async fn renew_leases(
        &self,
        owner: &str,
        held: &[MatchId],
        ttl: Duration,
    ) -> Result<Vec<(MatchId, i64)>, StoreError> {
        if held.is_empty() {
            return Ok(Vec::new());
        }
        // The matches as one JSON array, bound as text: one statement whatever their
        // number (binding each would meet the drivers' limits on parameters).
        let ids: Vec<String> = held.iter().map(|m| m.0.to_string()).collect();
        let ids = format!("[{}]", ids.join(","));
        let listed = match self.backend() {
            Backend::Sqlite => "SELECT value FROM json_each($3)",
            Backend::Postgres => {
                "SELECT CAST(value AS BIGINT) FROM json_array_elements_text(CAST($3 AS json))"
            }
        };
        let rows = sqlx::query(with_now(
            self.backend(),
            &format!(
                "UPDATE leases SET expires_ms = {{NOW}} + $2 \
                 WHERE owner = $1 AND expires_ms > 0 AND match_id IN ({listed}) \
                 RETURNING match_id, token"
            ),
        ))
        .bind(owner)
        .bind(ttl_ms(ttl)?)
        .bind(ids)
        .fetch_all(&self.write().await?)
        .await?;
        rows.iter()
            .map(|r| Ok((MatchId(r.try_get("match_id")?), r.try_get("token")?)))
            .collect()
    }

    /// Lets go of a lease (it expires now; its token stays the match's last, so the
    /// next owner's is higher). A lease already taken over is left alone.
    pub async fn release_lease(&self, lease: &Lease) -> Result<(), StoreError> {
        sqlx::query("UPDATE leases SET expires_ms = 0 WHERE match_id = $1 AND token = $2")
            .bind(lease.id.0)
            .bind(lease.token)
            .execute(&self.write().await?)
            .await?;
        Ok(())
    }

    /// A match's lease as it is, live or not (`None`: never leased).
    pub async fn lease(&self, id: MatchId) -> Result<Option<Lease>, StoreError> {
        let row = sqlx::query("SELECT owner, expires_ms, token FROM leases WHERE match_id = $1")
            .bind(id.0)
            .fetch_optional(&self.read().await?)
            .await?;
        row.map(|r| {
            Ok(Lease {
                id,
                owner: r.try_get("owner")?,
                expires_ms: r.try_get("expires_ms")?,
                token: r.try_get("token")?,
            })
        })
        .transpose()
    }

    /// The database's clock, in milliseconds since 1970 (what lease expiries are on).
    pub async fn database_now_ms(&self) -> Result<i64, StoreError> {
        let now: i64 = sqlx::query_scalar(with_now(self.backend(), "SELECT {NOW}"))
            .fetch_one(&self.read().await?)
            .await?;
        Ok(now)
    }

    /// Why an append or renewal with `token` is refused: said for [`StoreError::Fenced`].
    pub(super) async fn fenced(&self, id: MatchId, token: Option<i64>) -> StoreError {
        let why = match self.lease(id).await {
            Ok(lease) => fenced_why(token, lease.as_ref()),
            Err(e) => format!("its lease could not be read ({})", e.reason()),
        };
        StoreError::Fenced { id, why }
    }
}
