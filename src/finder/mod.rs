//! The exact umpire: decide whether two patterns agree on every valid structure, and
//! otherwise build a counterexample (the simplest one, or a seeded varied one).
//!
//! The outcome types live here so that the rules engine can speak of verdicts without
//! depending on how they are found.

use crate::koan::Koan;
use serde::{Deserialize, Serialize};

/// How the umpire picks among counterexamples; fixed per match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// Fewest pieces, then smallest bounding-box area (guaranteed minimal).
    #[default]
    Simple,
    /// A seeded random choice among small counterexamples.
    Varied,
}

/// A structure on which the hidden pattern and the guess disagree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counterexample {
    pub koan: Koan,
    /// Whether the structure obeys the hidden pattern.
    pub hidden: bool,
    /// Whether it obeys the guess (always `!hidden`).
    pub guess: bool,
}

/// The finder's answer to "is this guess the hidden pattern?".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Verdict {
    /// Proved: the two patterns agree on every valid structure.
    Equivalent,
    /// They disagree on this structure.
    Counterexample(Counterexample),
    /// The solver hit its limit before deciding; the umpire says so rather than guess.
    Undecided { reason: String },
}
