//! What several processes on one database need beyond leases: which live matches no
//! process runs (no lease, or one that ran out), so that one of them takes each over.
//! (The leases themselves are in `leases.rs`.)

use super::leases::{Lease, now_ms};
use super::{MatchId, Store, StoreError};
use sqlx::Row;

/// A live match that no process runs now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unowned {
    pub id: MatchId,
    pub kind: String,
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
            "SELECT m.id, m.kind, l.owner, l.expires_ms, l.token, {now} AS db_now \
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
