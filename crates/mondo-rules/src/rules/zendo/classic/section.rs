//! Zendo Classic's section of the configuration file, `[classic]`: its lobby and
//! clocks for every server (a host changes them for their server with
//! `/zendo classic-settings`).

use crate::rules::section::{Checks, Limit, Section};
use crate::rules::zendo::duel::section::{CHALLENGE_SECS, GUESS_BONUS_SECS, TURN_SECS};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// A Zendo Classic lobby's lifetime: a minute to a day.
pub const LOBBY_SECS: RangeInclusive<u64> = 60..=86_400;

/// `[classic]`: Zendo Classic on Discord, for every server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassicConfig {
    /// How long a lobby nobody starts stays open (the game clock's time, as every
    /// clock of a match: the time the bot is down is not counted).
    pub lobby_secs: u64,
    /// A student's whole turn.
    pub turn_secs: u64,
    /// To answer a mondo.
    pub answer_secs: u64,
    /// Added to the turn per official guess.
    pub guess_bonus_secs: u64,
}

impl Section for ClassicConfig {
    const NAME: &'static str = "classic";
    const LIMITS: &'static [Limit] = &[
        Limit::secs("classic.lobby_secs", LOBBY_SECS),
        Limit::secs("classic.turn_secs", TURN_SECS),
        Limit::secs("classic.answer_secs", CHALLENGE_SECS),
        Limit::secs("classic.guess_bonus_secs", GUESS_BONUS_SECS),
    ];
}

impl Checks for ClassicConfig {}
