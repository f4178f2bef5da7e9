//! The duel as it is kept: the state the events fold into, and the parts of it the
//! view reads. Its rules are in the parent module.

use crate::rules::zendo::Core;
use crate::rules::zendo::turn::Step;
use crate::rules::{BySeat, Clock, Millis, Seat, Seating};
use serde::{Deserialize, Serialize};

/// The Duel's durations, in milliseconds. Hosts may change them per server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Timing {
    /// The whole turn: 3 minutes.
    pub turn_ms: Millis,
    /// To answer a challenge: 30 seconds.
    pub challenge_ms: Millis,
    /// Added to the turn per official guess: 30 seconds.
    pub guess_bonus_ms: Millis,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The player with the advantage chooses who starts.
    ChoosingStarter,
    Turn {
        seat: Seat,
        #[serde(flatten)]
        step: Step,
    },
    Over,
}

/// A Zendo Duel in progress (or over). Build one from its setup with
/// [`Game::start`], or from its events with [`Game::replay`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Duel {
    pub(super) seating: Seating,
    pub(super) core: Core,
    pub(super) advantage: Seat,
    pub(super) timing: Timing,
    pub(super) phase: Phase,
    /// The current turn, counting from 1 (0 before the first).
    pub(super) turn: u32,
    pub(super) tickets: BySeat<u32>,
    /// The turn clock.
    pub(super) clock: Clock,
    /// Turns in a row whose step 1 ran out with nothing done (see `IDLE_TURNS`).
    pub(super) idle_turns: u32,
    /// Each side's own turns in a row whose step 1 ran out with nothing done by that
    /// side in between (see `IDLE_OWN_TURNS`).
    #[serde(default)]
    pub(super) missed: [u32; 2],
}
