//! A Triple as it is kept: the state the events fold into, and the parts of it the
//! view reads. Its rules are in the parent module and its siblings.

use super::events::{Question, TripleOutcome};
use super::letter::{Letter, Marks};
use super::setup::TripleTiming;
use crate::koan::Koan;
use crate::rules::zendo::{Answer, Core};
use crate::rules::{BySeat, Clock, Seat, Seating};
use serde::{Deserialize, Serialize};

/// One structure on the Triple's table with its public marks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TripleEntry {
    pub number: u32,
    pub koan: Koan,
    pub marks: Marks,
    pub origin: TripleOrigin,
}

/// How a structure came to the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum TripleOrigin {
    Opening,
    Graded {
        by: Seat,
    },
    Challenged {
        by: Seat,
        patterns: Vec<Letter>,
        answers: BySeat<Vec<Answer>>,
    },
    Counterexample {
        pattern: Letter,
        guess: u32,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// Step 1: a structure, or straight to guesses, or end the turn.
    Build,
    Challenge {
        koan: Koan,
        patterns: Vec<Letter>,
        answers: BySeat<Option<Vec<Answer>>>,
        clock: Clock,
    },
    Guess,
    Pending {
        pattern: Letter,
        guess: u32,
    },
    Verdict {
        pattern: Letter,
        guess: u32,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The player with the advantage chooses who starts.
    ChoosingStarter {
        advantage: Seat,
    },
    Turn {
        seat: Seat,
        #[serde(flatten)]
        step: Step,
    },
    Quiz {
        round: u32,
        questions: Vec<Question>,
        answers: BySeat<Option<Vec<Answer>>>,
        clock: Clock,
    },
    Over,
}

/// A Zendo Triple in progress (or over).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Triple {
    pub(super) seating: Seating,
    /// One umpire per pattern: its secret, its table (the structures graded on it,
    /// numbered as on the shared table) and its guesses.
    pub(super) cores: [Core; 3],
    pub(super) table: Vec<TripleEntry>,
    pub(super) timing: TripleTiming,
    pub(super) phase: Phase,
    pub(super) turn: u32,
    pub(super) stones: BySeat<u32>,
    /// The turn clock.
    pub(super) clock: Clock,
    /// The 2 hours of play.
    pub(super) game_clock: Clock,
    /// Who solved each pattern by guessing.
    pub(super) solved: [Option<Seat>; 3],
    /// Who won each pattern in the quiz (`Some(None)`: nobody).
    pub(super) quiz_won: [Option<Option<Seat>>; 3],
    pub(super) outcome: Option<TripleOutcome>,
    /// Who sent quiz answers (a quiz its players leave unanswered is abandoned).
    #[serde(default)]
    pub(super) quiz_answered: [bool; 2],
    /// Turns in a row whose step 1 ran out with nothing done (see `IDLE_TURNS`).
    #[serde(default)]
    pub(super) idle_turns: u32,
    /// Each side's own such turns in a row, with nothing done by it in between (see
    /// `IDLE_OWN_TURNS`).
    #[serde(default)]
    pub(super) missed: [u32; 2],
}
