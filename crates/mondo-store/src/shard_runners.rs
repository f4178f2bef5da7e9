//! Which Discord shards each `mondo serve` process on the database runs, so that the
//! processes can see together whether their ranges cover every shard once: each
//! process writes its range (and the total it was given) under its owner name, renews
//! the row with a liveness mark (an expiry on the database's clock, as its leases),
//! and deletes it when it stops cleanly. A process that died leaves a row that runs
//! out. The check itself (which shards are uncovered or run twice) is the caller's.

use super::Store;
use super::fence::now_ms;
use super::types::{StoreError, to_i64};
use sqlx::Row;
use std::time::Duration;

/// One live process's shards: `first..=last` of `total`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardRunner {
    /// Its owner name (as in its leases).
    pub owner: String,
    pub first: u32,
    pub last: u32,
    pub total: u32,
}

/// A shard column read back (written from a `u32`, and checked non-negative).
fn shard_number(value: i64) -> u32 {
    u32::try_from(value.max(0)).unwrap_or(u32::MAX)
}

impl Store {
    /// Records (or renews) that `runner` runs its shards, live for `ttl` from now on
    /// the database's clock.
    pub async fn announce_shards(
        &self,
        runner: &ShardRunner,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        let ttl = to_i64(
            "liveness time",
            u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX),
        )?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO shard_runners (owner, shard_first, shard_last, shard_total, expires_ms) \
             VALUES ($1, $2, $3, $4, {now} + $5) \
             ON CONFLICT (owner) DO UPDATE SET shard_first = excluded.shard_first, \
             shard_last = excluded.shard_last, shard_total = excluded.shard_total, \
             expires_ms = excluded.expires_ms",
            now = now_ms(self.backend())
        )))
        .bind(runner.owner.as_str())
        .bind(i64::from(runner.first))
        .bind(i64::from(runner.last))
        .bind(i64::from(runner.total))
        .bind(ttl)
        .execute(&self.write().await?)
        .await?;
        Ok(())
    }

    /// The processes whose mark is live (database clock), by first shard then owner.
    pub async fn live_shard_runners(&self) -> Result<Vec<ShardRunner>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT owner, shard_first, shard_last, shard_total FROM shard_runners \
             WHERE expires_ms > {} ORDER BY shard_first, owner",
            now_ms(self.backend())
        )))
        .fetch_all(&self.read().await?)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ShardRunner {
                    owner: r.try_get("owner")?,
                    first: shard_number(r.try_get("shard_first")?),
                    last: shard_number(r.try_get("shard_last")?),
                    total: shard_number(r.try_get("shard_total")?),
                })
            })
            .collect()
    }

    /// Forgets `owner`'s shards (a process that stops cleanly: its shards are run by
    /// nobody from now).
    pub async fn withdraw_shards(&self, owner: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM shard_runners WHERE owner = $1")
            .bind(owner)
            .execute(&self.write().await?)
            .await?;
        Ok(())
    }
}
