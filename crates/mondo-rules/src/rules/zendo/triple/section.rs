//! The Triple's section of the configuration file, `[triple]`: its clocks for every
//! server (a host changes them for their server with `/zendo triple-settings`).

use crate::rules::section::{Checks, Limit, Section};
use crate::rules::zendo::duel::section::{CHALLENGE_SECS, GUESS_BONUS_SECS, TURN_SECS};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// A Triple's play before its quiz: ten minutes to a day.
pub const PLAY_SECS: RangeInclusive<u64> = 600..=86_400;
/// A round of the Triple's quiz.
pub const QUIZ_SECS: RangeInclusive<u64> = 30..=3600;

/// `[triple]`: Zendo Triple on Discord, for every server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TripleConfig {
    /// The whole turn.
    pub turn_secs: u64,
    /// To answer a challenge.
    pub challenge_secs: u64,
    /// Added to the turn per counterexample.
    pub counterexample_bonus_secs: u64,
    /// Play before the quiz decides the patterns left.
    pub play_secs: u64,
    /// To answer one round of the quiz.
    pub quiz_secs: u64,
}

impl Section for TripleConfig {
    const NAME: &'static str = "triple";
    const LIMITS: &'static [Limit] = &[
        Limit::secs("triple.turn_secs", TURN_SECS),
        Limit::secs("triple.challenge_secs", CHALLENGE_SECS),
        Limit::secs("triple.counterexample_bonus_secs", GUESS_BONUS_SECS),
        Limit::secs("triple.play_secs", PLAY_SECS),
        Limit::secs("triple.quiz_secs", QUIZ_SECS),
    ];
}

impl Checks for TripleConfig {}
