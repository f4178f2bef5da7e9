//! Ownership of matches across processes: each live match runs in the process that
//! holds its lease (`store::leases`). This process renews the leases it holds; a lease
//! found taken over stops its match here at once (the new owner runs it). It also looks
//! for live matches nobody runs (their owner died or stalled past its lease, or they
//! were never leased) and takes them over with a new fencing token, resuming each as on
//! a restart and giving its clocks back the time nobody ran it.
//!
//! On SQLite one process runs the file, so it simply holds every lease.

use super::{Engine, Handle, Inner, Runtime, metric};
use mondo_store::{Backend, MatchId, StoreError, Unowned};
use std::collections::HashSet;
use std::sync::{Arc, Weak};
use std::time::Duration;

/// Starts the loops that renew this process's leases and take over the matches nobody
/// runs (they stop with the runtime).
impl<G: Engine> Runtime<G> {
    pub(super) fn start_loops(&self) {
        start_loops(self);
    }

    /// A name for this process in the leases it holds: the machine, the process id and
    /// a random part (a restarted process with a reused id is another owner).
    pub(super) fn new_owner_name() -> String {
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .ok()
            .or_else(|| std::env::var("HOSTNAME").ok())
            .map(|h| h.trim().to_string())
            .filter(|h| !h.is_empty())
            .unwrap_or_else(|| "host".into());
        format!(
            "{host}:{}:{:08x}",
            std::process::id(),
            rand::random::<u32>()
        )
    }
}

fn start_loops<G: Engine>(runtime: &Runtime<G>) {
    let weak = Arc::downgrade(&runtime.inner);
    let clock = runtime.inner.clock.clone();
    let config = runtime.inner.config;
    let renew = {
        let (weak, clock) = (weak.clone(), clock.clone());
        tokio::spawn(async move {
            let mut ticker = clock.ticker(config.lease_renew_ms);
            loop {
                ticker.tick().await;
                let Some(runtime) = upgrade(&weak) else {
                    return;
                };
                runtime.renew().await;
            }
        })
    };
    let mut loops = runtime
        .inner
        .loops
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    loops.push(renew);
    // A process that runs only what it is asked for (a terminal on a shared database)
    // takes no other process's matches over.
    if config.adopt || runtime.inner.store.backend() == Backend::Sqlite {
        loops.push(tokio::spawn(async move {
            let mut leaseless = HashSet::new();
            let mut failed = HashSet::new();
            let mut ticker = clock.ticker(config.lease_scan_ms);
            loop {
                ticker.tick().await;
                let Some(runtime) = upgrade(&weak) else {
                    return;
                };
                runtime.scan(&mut leaseless, &mut failed).await;
            }
        }));
    }
}

fn upgrade<G: Engine>(weak: &Weak<Inner<G>>) -> Option<Runtime<G>> {
    weak.upgrade().map(|inner| Runtime { inner })
}

impl<G: Engine> Runtime<G> {
    fn ttl(&self) -> Duration {
        Duration::from_millis(self.inner.config.lease_ttl_ms)
    }

    /// Renews every lease held, in one statement; a match whose lease was taken over
    /// stops here, and a match that ended lets its lease go.
    async fn renew(&self) {
        let held: Vec<(MatchId, mondo_store::Lease, bool)> = self
            .lock()
            .iter()
            .map(|(id, h)| (*id, h.lease.clone(), h.commands.is_closed()))
            .collect();
        let mut live = Vec::with_capacity(held.len());
        for (id, lease, ended) in held {
            if ended {
                // Over (or stopped): nothing to run; the next owner, if any, starts
                // from its log.
                self.forget(id, lease.token);
                if let Err(e) = self.inner.store.release_lease(&lease).await {
                    tracing::warn!(%id, error = %e, "a lease could not be let go");
                }
            } else {
                live.push(lease);
            }
        }
        let ids: Vec<MatchId> = live.iter().map(|l| l.id).collect();
        let renewed = match self
            .inner
            .store
            .renew_leases(self.owner(), &ids, self.ttl())
            .await
        {
            Ok(renewed) => renewed,
            Err(e) => {
                // Tried again at the next round; should it fail past the leases' end
                // (a database down longer than `lease_ttl_ms`), other processes take
                // the matches over and the fence stops this one's appends.
                metrics::counter!(metric::STORE_ERRORS).increment(1);
                tracing::warn!(matches = ids.len(), error = %e, "the leases could not be renewed");
                return;
            }
        };
        *self.inner.renewed.lock().unwrap_or_else(|p| p.into_inner()) = std::time::Instant::now();
        metrics::counter!(metric::LEASE_RENEWALS).increment(renewed.len() as u64);
        metrics::gauge!(metric::LIVE_MATCHES).set(live.len() as f64);
        let renewed: HashSet<(MatchId, i64)> = renewed.into_iter().collect();
        for lease in live {
            if renewed.contains(&(lease.id, lease.token)) {
                continue;
            }
            // Not this process's any more (or it never was under this token): asked
            // alone, which says why.
            match self.inner.store.renew_lease(&lease, self.ttl()).await {
                Ok(_) => {}
                Err(StoreError::Fenced { why, .. }) => self.lose(lease.id, lease.token, why),
                Err(e) => {
                    tracing::warn!(id = %lease.id, error = %e, "a lease could not be renewed");
                }
            }
        }
    }

    /// Removes the match from this process if it still runs under lease `token`.
    fn forget(&self, id: MatchId, token: i64) -> Option<Handle<G>> {
        let mut matches = self.lock();
        if matches.get(&id).is_some_and(|h| h.lease.token == token) {
            return matches.remove(&id);
        }
        None
    }

    /// The match's lease was taken over: it stops here at once, saying why in the log.
    fn lose(&self, id: MatchId, token: i64, why: String) {
        if let Some(mut handle) = self.forget(id, token) {
            match handle.lost.take() {
                Some(lost) => {
                    // The task logs the loss as it stops.
                    let _ = lost.send(why);
                }
                None => handle.task.abort(),
            }
        }
    }

    /// Takes over the live matches nobody runs. A match seen with no lease at all is
    /// taken only at the next look (its creator takes its lease a moment after creating
    /// it); one that cannot be rebuilt is tried once.
    async fn scan(&self, leaseless: &mut HashSet<MatchId>, failed: &mut HashSet<MatchId>) {
        let (unowned, db_now) = match self.inner.store.unowned().await {
            Ok(found) => found,
            Err(e) => {
                tracing::warn!(error = %e, "could not look for matches nobody runs");
                return;
            }
        };
        let kinds = G::kinds();
        let mut seen = HashSet::new();
        for u in unowned {
            let unplaced = !u.placed && !self.inner.config.adopt_unplaced;
            if !kinds.contains(&u.kind.as_str()) || failed.contains(&u.id) || unplaced {
                continue;
            }
            // Ours, renewed late (the renewal goes on); or ended and letting go.
            if self.lock().contains_key(&u.id) {
                continue;
            }
            if u.lease.is_none() && !leaseless.contains(&u.id) {
                seen.insert(u.id);
                continue;
            }
            match self.take_over(&u, db_now).await {
                Ok(()) => {}
                // The store did not answer in time: the next look tries again.
                Err(super::RuntimeError::Store(e)) => {
                    tracing::warn!(id = %u.id, error = %e, "a match nobody runs could not be taken over yet");
                }
                Err(e) => {
                    tracing::error!(id = %u.id, error = %e, "a match nobody runs could not be taken over");
                    failed.insert(u.id);
                }
            }
        }
        *leaseless = seen;
    }

    /// Takes match `u`'s lease with a new token and runs it from its log; gives its
    /// clocks back the time since its last owner last renewed.
    async fn take_over(&self, u: &Unowned, db_now: i64) -> Result<(), super::RuntimeError> {
        let record = self.record(u.id).await?;
        if !self.resume(&record).await? {
            // Another process was quicker.
            return Ok(());
        }
        let token = self.lock().get(&u.id).map(|h| h.lease.token);
        let Some(token) = token else {
            return Ok(()); // Over already.
        };
        let idle = match &u.lease {
            Some(prev) => self.idle_ms(prev, db_now).await,
            None => 0,
        };
        tracing::warn!(
            id = %u.id,
            token,
            from = u.lease.as_ref().map_or("nobody", |l| l.owner.as_str()),
            idle_ms = idle,
            "took over match {}: its lease had run out; it runs here now",
            u.id
        );
        // Not before this process's own start after a silence (the clock skipped it).
        let now = self.now();
        let since = now.saturating_sub(idle);
        let since = self.inner.cold.map_or(since, |cold| since.max(cold));
        if since < now
            && let Some(action) = G::downtime(since)
            && let Err(e) = self.act(u.id, G::umpire(), action, None).await
        {
            tracing::debug!(id = %u.id, error = %e, "no downtime given");
        }
        let _ = self.inner.taken.send(u.id);
        Ok(())
    }

    /// The game time a match went unrun: from when its last owner let it go, or from
    /// its last renewal (its lease's end less the lease time) if it ran out, to now,
    /// on the database's clock, less any time no process ran at all (the game clock
    /// skipped that already). A lease let go at a time not known gives back nothing
    /// (counting from 0 gave back the whole game: +22 s on a player's clock).
    async fn idle_ms(&self, prev: &mondo_store::Lease, db_now: i64) -> u64 {
        let ttl = self.inner.config.lease_ttl_ms as i64;
        let since = match (self.inner.store.backend(), prev.released_at()) {
            // One process: it was down, and the game clock skipped it.
            (Backend::Sqlite, _) => return 0,
            (Backend::Postgres, Some(released)) => released,
            (Backend::Postgres, None) if prev.expires_ms == 0 => return 0,
            (Backend::Postgres, None) => prev.expires_ms.saturating_sub(ttl),
        };
        db_now.saturating_sub(since).max(0) as u64
    }
}
