//! A Pattern Assembly match as it is kept: its setup, the state the events fold into,
//! and the parts of it the view reads. Its rules are in the parent module.

use super::settings::Settings;
use crate::grid::{Contents, Grid, Group, Reconstruction, Region, Shape, Target};
use crate::rules::{BySeat, Clock, Millis, PlayerId, Seat, Seating};
use serde::{Deserialize, Serialize};

/// Everything a match starts from: it travels in the created event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssemblySetup {
    /// One player (solo practice) or two.
    pub players: Vec<PlayerId>,
    pub seed: u64,
    pub settings: Settings,
}

/// What a round asks, as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ask {
    pub shape: Shape,
    pub contents: Contents,
    pub points: i32,
}

/// One player's showdown, as scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShowdownScore {
    pub filled: u32,
    pub right: u32,
    pub wrong: u32,
    pub points: i32,
}

/// How a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum Outcome {
    /// After the showdown; no winner is a draw (or solo practice).
    Finished {
        winner: Option<Seat>,
    },
    Resigned {
        by: Seat,
    },
    /// A host ended it.
    Ended {
        by: PlayerId,
    },
}

/// A pending answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub cells: Group,
    pub sent: Millis,
    pub wait: Clock,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Phase {
    /// The grid is shown; `next` is the round after it.
    Reveal {
        next: u8,
    },
    /// Between two stages, within one instant.
    Between {
        next: u8,
    },
    Round {
        number: u8,
        started: Millis,
    },
    Showdown,
    Over(Outcome),
}

/// A Pattern Assembly match in progress (or over).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Assembly {
    pub(super) seating: Seating,
    pub(super) setup: AssemblySetup,
    pub(super) grid: Grid,
    /// Targets by round (index 0 is round 1).
    pub(super) rounds: Vec<Vec<Target>>,
    pub(super) phase: Phase,
    /// Counts stages, for deadlines.
    pub(super) stage: u32,
    /// The phase's clock (reveal, round or showdown).
    pub(super) clock: Clock,
    /// Targets of the current round found so far.
    pub(super) found: Vec<bool>,
    pub(super) pending: BySeat<Option<Pending>>,
    pub(super) scores: BySeat<i32>,
    /// Host requests for after the current round.
    pub(super) rereveal: bool,
    pub(super) change: bool,
    /// Grids drawn so far (each change draws the next from the seed).
    pub(super) grids: u32,
    pub(super) region: Region,
    pub(super) showdown: BySeat<Option<Reconstruction>>,
    pub(super) results: Option<BySeat<ShowdownScore>>,
}
