//! Commands for a match that another process runs (see `routed` in the migrations):
//! the process a Discord interaction came to writes it down for the match, and the
//! process holding the match's lease takes it and answers it. A table rather than
//! PostgreSQL's LISTEN/NOTIFY: it works on both databases, and an interaction waiting
//! when its owner dies is taken by the match's next owner instead of being lost.

use super::Store;
use super::fence::now_ms;
use super::types::{MatchId, StoreError};
use sqlx::Row;

/// An interaction waiting for the process that runs its match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Routed {
    pub id: MatchId,
    /// How long it waited (database clock).
    pub age_ms: i64,
    /// As the process that received it wrote it (the interaction's JSON).
    pub body: String,
}

impl Store {
    /// Writes down `body` for the process that runs match `id`.
    pub async fn route(&self, id: MatchId, body: &str) -> Result<(), StoreError> {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO routed (match_id, sent_ms, body) VALUES ($1, {}, $2)",
            now_ms(self.backend())
        )))
        .bind(id.0)
        .bind(body)
        .execute(&self.write().await?)
        .await?;
        Ok(())
    }

    /// Takes (and deletes) what waits for the matches whose lease `owner` holds, oldest
    /// first.
    pub async fn take_routed(&self, owner: &str) -> Result<Vec<Routed>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "DELETE FROM routed WHERE match_id IN \
             (SELECT match_id FROM leases WHERE owner = $1) \
             RETURNING id, match_id, {} - sent_ms AS age_ms, body",
            now_ms(self.backend())
        )))
        .bind(owner)
        .fetch_all(&self.write().await?)
        .await?;
        let mut taken = rows
            .iter()
            .map(|r| {
                Ok((
                    r.try_get::<i64, _>("id")?,
                    Routed {
                        id: MatchId(r.try_get("match_id")?),
                        age_ms: r.try_get("age_ms")?,
                        body: r.try_get("body")?,
                    },
                ))
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        taken.sort_by_key(|(n, _)| *n);
        Ok(taken.into_iter().map(|(_, r)| r).collect())
    }
}
