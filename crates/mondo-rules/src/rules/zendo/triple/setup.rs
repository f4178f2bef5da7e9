//! Setting a Triple up: its durations, the opening structures, the setup that travels
//! in the first event, and the checks that start a match (the arrows set, two
//! different players, who starts or who chooses it, three patterns that differ,
//! opening #1 obeying all three are checked in `start.rs`). Rule book (`mod.rs`):
//! **Setup**.

use crate::koan::{Koan, PieceSet};
use crate::lang::Pattern;
use crate::rules::zendo::Settings;
use crate::rules::{Millis, PlayerId};
use serde::{Deserialize, Serialize};

/// The Triple's durations, in milliseconds. Hosts may change them per server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TripleTiming {
    /// The whole turn: 3 minutes.
    pub turn_ms: Millis,
    /// To answer a challenge: 60 seconds.
    pub challenge_ms: Millis,
    /// Added to the turn per counterexample: 30 seconds.
    pub counterexample_bonus_ms: Millis,
    /// Play before the quiz: 2 hours.
    pub game_ms: Millis,
    /// To answer one round of the quiz: 5 minutes.
    pub quiz_ms: Millis,
}

impl Default for TripleTiming {
    fn default() -> TripleTiming {
        TripleTiming {
            turn_ms: 180_000,
            challenge_ms: 60_000,
            counterexample_bonus_ms: 30_000,
            game_ms: 2 * 3_600_000,
            quiz_ms: 300_000,
        }
    }
}

/// The two opening structures and the proof that the three patterns differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TripleOpening {
    /// Obeys all three patterns.
    pub all: Koan,
    /// Obeys as few of them as any structure can (none, when possible).
    pub fewest: Koan,
    /// For the pairs (A, B), (A, C) and (B, C), a structure on which the two disagree
    /// (not shown to players).
    pub separators: [Koan; 3],
}

/// Everything a Triple starts from. It travels in the first event (never announced).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TripleSetup {
    pub players: [PlayerId; 2],
    /// Who plays the first turn; None: the player with the `advantage` chooses.
    #[serde(default)]
    pub starter: Option<PlayerId>,
    /// Who chooses who starts (when no `starter` is named).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advantage: Option<PlayerId>,
    /// Patterns A, B and C (boxed, with the opening, to keep every game's setup small).
    pub hidden: Box<[Pattern; 3]>,
    pub opening: Box<TripleOpening>,
    #[serde(default = "arrows")]
    pub settings: Settings,
    #[serde(default)]
    pub timing: TripleTiming,
    pub seed: u64,
}

pub(super) fn arrows() -> Settings {
    Settings {
        set: PieceSet::Arrows,
        ..Settings::default()
    }
}
