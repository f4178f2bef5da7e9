//! The shard coverage check of the `mondo serve` processes on one PostgreSQL database
//! (docs/scale.md, "One range each: the coverage check"): each process announces its
//! range and total in the store with a liveness mark, renewed as often as its leases
//! and as long-lived, and reads the live ones: at start-up, and again at each renewal,
//! saying in its log whenever the answer changes (a shard no process runs, one run
//! twice, a process on another total) and keeping two gauges for `/metrics`.

use crate::shards::ShardRange;
use crate::shards::coverage::{Coverage, coverage};
use crate::store::{ShardRunner, Store};
use std::time::Duration;

/// Shards of the bot no live process runs (as this process sees them).
pub const SHARDS_UNCOVERED: &str = "mondo_shards_uncovered";
/// Shards of the bot more than one live process runs.
pub const SHARDS_OVERLAPPING: &str = "mondo_shards_overlapping";

/// This process's part in the check: announced now, then renewed every `every`.
pub struct CoverageCheck {
    store: Store,
    me: ShardRunner,
    ttl: Duration,
    every: Duration,
    said: Option<Coverage>,
}

impl CoverageCheck {
    /// The check of process `owner` running `range` of `total`; the mark lives `ttl`
    /// (the leases' time) and is renewed every `every`.
    pub fn new(
        store: Store,
        owner: &str,
        (range, total): (ShardRange, u32),
        ttl: Duration,
        every: Duration,
    ) -> CoverageCheck {
        CoverageCheck {
            store,
            me: ShardRunner {
                owner: owner.to_string(),
                first: range.first,
                last: range.last,
                total,
            },
            ttl,
            every,
            said: None,
        }
    }

    /// Announces this process's shards and checks everyone's: the start-up check.
    pub async fn announce(&mut self) {
        if let Err(e) = self.store.announce_shards(&self.me, self.ttl).await {
            tracing::warn!(error = %e, "could not record this process's shards for the coverage check");
            return;
        }
        match self.store.live_shard_runners().await {
            Ok(runners) => self.say(coverage(self.me.total, &runners)),
            Err(e) => tracing::warn!(error = %e, "could not read the processes' shards"),
        }
    }

    /// Renews and checks again every `every`, until the task is stopped; then
    /// [`CoverageCheck::withdraw`].
    pub fn spawn(mut self) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(self.every).await;
                self.announce().await;
            }
        })
    }

    /// Logs the check's answer when it differs from the last one said, and sets the
    /// gauges.
    fn say(&mut self, now: Coverage) {
        metrics::gauge!(SHARDS_UNCOVERED).set(f64::from(now.uncovered_shards()));
        metrics::gauge!(SHARDS_OVERLAPPING).set(f64::from(now.overlapping_shards()));
        if self.said.as_ref() == Some(&now) {
            return;
        }
        if now.is_exact() {
            tracing::info!(
                total = now.total,
                processes = now.processes,
                "shard coverage: {now}"
            );
        } else {
            for line in now.problems() {
                tracing::warn!(total = now.total, "shard coverage: {line}");
            }
        }
        self.said = Some(now);
    }
}

/// Forgets `owner`'s shards: a process that stops cleanly, so that the others see its
/// shards uncovered at once rather than when its mark runs out.
pub async fn withdraw(store: &Store, owner: &str) {
    if let Err(e) = store.withdraw_shards(owner).await {
        tracing::warn!(error = %e, "could not withdraw this process's shards (they run out with its mark)");
    }
}
