//! A Classic game as it is kept: the state the events fold into, and the parts of it
//! the view reads. Its rules are in the parent module.

use crate::rules::zendo::Core;
use crate::rules::zendo::turn::Step;
use crate::rules::{BySeat, Clock, Millis, PlayerId, Seat, Seating};
use serde::{Deserialize, Serialize};

/// The durations, in milliseconds. Hosts may change them per server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClassicTiming {
    /// The whole turn: 3 minutes.
    pub turn_ms: Millis,
    /// To answer a mondo: 30 seconds.
    pub answer_ms: Millis,
    /// Added to the turn per official guess (taken back if it comes to nothing): 30
    /// seconds, as in the duel.
    pub guess_bonus_ms: Millis,
}

/// A lobby's part of a setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbySetup {
    /// Who opened it: they (or a host) start it.
    pub opener: PlayerId,
    /// When it closes if nobody starts it, and how long it was to stay open (it may
    /// have opened before this match's clock began: a lobby an older version kept).
    pub closes_at: Millis,
    pub lifetime_ms: Millis,
}

/// Where the game is. A turn's steps are the duel's ([`Step`]): its `Challenge` is
/// the mondo (every student's answers, private until the reveal).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Gathering students until `closes_at`.
    Lobby {
        closes_at: Millis,
    },
    Turn {
        seat: Seat,
        #[serde(flatten)]
        step: Step,
    },
    Over,
}

/// A Zendo Classic game in progress (or over).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Classic {
    pub(super) seating: Seating,
    pub(super) core: Core,
    pub(super) master: Option<PlayerId>,
    pub(super) timing: ClassicTiming,
    pub(super) phase: Phase,
    pub(super) turn: u32,
    pub(super) stones: BySeat<u32>,
    /// The turn clock.
    pub(super) clock: Clock,
    /// Turn time-outs in a row with no act in between.
    pub(super) timeouts: BySeat<u32>,
    /// Skipped for time-outs until they act.
    pub(super) away: BySeat<bool>,
    /// Gone for good.
    pub(super) left: BySeat<bool>,
    /// The lobby it began as, if it did.
    #[serde(default)]
    pub(super) lobby: Option<LobbySetup>,
    /// A lobby that closed unstarted.
    #[serde(default)]
    pub(super) closed: bool,
}
