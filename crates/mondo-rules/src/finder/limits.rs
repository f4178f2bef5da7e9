//! What a finder call may spend and what it cost: a leaf below the searches, so they
//! and the finder's entry points read it without importing each other.

use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Which SAT solver to use (both are kept for the comparison in `mondo bench finder`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SolverKind {
    #[default]
    Cadical,
    Batsat,
}

/// How much a finder call may spend. No wall-clock time: a caller that needs a
/// deadline raises `interrupt` from its own timer.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Total solver conflicts over the whole call; `None` for no limit.
    pub conflicts: Option<u64>,
    /// Stop grounding patterns needing more clauses than this (or twenty times as
    /// many steps); the answer is then a counterexample found by sampling, if any, or
    /// undecided.
    pub max_clauses: usize,
    /// Set to true (from another thread) to stop the solver; the call then answers
    /// [`super::Verdict::Undecided`].
    pub interrupt: Option<Arc<AtomicBool>>,
    #[doc(hidden)]
    pub solver: SolverKind,
    /// Break the symmetry of blocks whose variables may be permuted (on by default;
    /// off only to measure what it saves).
    #[doc(hidden)]
    pub symmetry: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            conflicts: Some(DEFAULT_CONFLICTS),
            max_clauses: DEFAULT_MAX_CLAUSES,
            interrupt: None,
            solver: SolverKind::default(),
            symmetry: true,
        }
    }
}

/// The default conflict budget of one finder call.
pub const DEFAULT_CONFLICTS: u64 = 1_000_000;

/// The default clause budget of one finder call's grounding: a grounding that would
/// explode stops at it (after 2 to 4 s and some 400 MB on this kind of machine) rather
/// than run for minutes; building stops as well after twenty steps per clause of it.
/// Guesses estimated beyond [`super::MAX_CLAUSES`] are refused before they get here (the
/// estimate errs high, so what it lets through fits this budget).
pub const DEFAULT_MAX_CLAUSES: usize = 3_000_000;

/// What a finder call cost.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    pub variables: u32,
    pub clauses: usize,
    pub solver_calls: u32,
    pub conflicts: u64,
}
