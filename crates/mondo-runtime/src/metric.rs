//! The runtime's metrics, recorded through the `metrics` facade (nothing is kept
//! unless the process installs a recorder: `mondo serve` installs Prometheus's, see
//! docs/operators.md, "Monitoring"). The names are a contract.

use mondo_store::StoreError;
use std::time::Instant;

/// Events committed to the store (every match, setups included).
pub const EVENTS_COMMITTED: &str = "mondo_events_committed_total";
/// How long each commit of a match's events took, in seconds (a summary: its
/// quantiles, p50 and p99 among them).
pub const COMMIT_SECONDS: &str = "mondo_commit_seconds";
/// Leases renewed (each match's lease counts once per round).
pub const LEASE_RENEWALS: &str = "mondo_lease_renewals_total";
/// Matches that stopped here because another process took their lease over.
pub const LEASES_LOST: &str = "mondo_leases_lost_total";
/// Requests the store did not take (an unreachable server, a full disk, a failed
/// commit or renewal); a refusal by the rules is none.
pub const STORE_ERRORS: &str = "mondo_store_errors_total";
/// The live matches this process runs.
pub const LIVE_MATCHES: &str = "mondo_live_matches";

/// Records one commit of `events` that started at `started`: its latency, and its
/// events if it went in, or a store error if it did not.
pub(crate) fn committed<T>(started: Instant, result: &Result<T, StoreError>, events: usize) {
    metrics::histogram!(COMMIT_SECONDS).record(started.elapsed().as_secs_f64());
    match result {
        Ok(_) => metrics::counter!(EVENTS_COMMITTED).increment(events as u64),
        // Another process runs the match: not the store's failure.
        Err(StoreError::Fenced { .. } | StoreError::Conflict { .. }) => {}
        Err(_) => metrics::counter!(STORE_ERRORS).increment(1),
    }
}
