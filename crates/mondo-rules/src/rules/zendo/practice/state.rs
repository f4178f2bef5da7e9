//! A practice match as it is kept: the state the events fold into, and the parts of
//! it the view reads. Its rules are in the parent module.

use crate::rules::Seating;
use crate::rules::zendo::Core;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum PracticeStep {
    /// Build a structure or state a guess.
    Play,
    /// Guess `guess` is read back, waiting for confirm or take back.
    Pending {
        guess: u32,
    },
    /// Guess `guess` is official; the umpire builds a counterexample.
    Verdict {
        guess: u32,
    },
    Over,
}

/// What a practice match cost: lower is better.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// Structures built (not the initial ones, not counterexamples).
    pub koans: u32,
    /// Guesses made official and judged (not withdrawn, not void).
    pub guesses: u32,
}

/// A practice match in progress (or over).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Practice {
    pub(super) seating: Seating,
    pub(super) core: Core,
    pub(super) step: PracticeStep,
}
