//! A lease as read, the database's clock as SQL and the words of a refused append:
//! what the lease calls ([`super::leases`]) and the writer's fenced appends share.

use super::db::Backend;
use super::types::MatchId;

/// A lease held: the match, its owner, until when (database clock, milliseconds since
/// 1970) and the fencing token its appends carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    pub id: MatchId,
    pub owner: String,
    /// Negative once let go: minus when (see [`Lease::released_at`]); 0: let go at a
    /// time not known.
    pub expires_ms: i64,
    pub token: i64,
}

impl Lease {
    /// When the lease was let go (database clock), if it was let go at a known time
    /// (`Store::release_lease`), rather than running out or let go at once by a lone
    /// process (`Store::expire_all_leases`).
    pub fn released_at(&self) -> Option<i64> {
        (self.expires_ms < 0).then_some(-self.expires_ms)
    }
}

/// The database's clock, in milliseconds since 1970, as SQL.
pub(super) fn now_ms(backend: Backend) -> &'static str {
    match backend {
        Backend::Sqlite => "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)",
        Backend::Postgres => "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
    }
}

/// Words for a refusal: the token an append carried against the lease as it is.
pub(super) fn fenced_why(token: Option<i64>, lease: Option<&Lease>) -> String {
    match (token, lease) {
        (Some(t), Some(l)) if l.token != t => format!(
            "this process's lease (token {t}) ran out and was taken over by {} (token {}), \
             which runs the match now",
            l.owner, l.token
        ),
        (Some(t), Some(_)) => format!("the lease with token {t} is no longer held"),
        (Some(t), None) => format!("it has no lease, and token {t} is not one of its"),
        (None, Some(l)) => format!(
            "it is run by {} (lease token {}), and this process holds no lease on it",
            l.owner, l.token
        ),
        (None, None) => "it has no lease".into(),
    }
}
