//! Pattern Assembly's section of the configuration file, `[assembly]`.

use crate::rules::assembly::WrongShape;
use crate::rules::section::{Checks, Limit, Section};
use serde::{Deserialize, Serialize};

/// `[assembly]`: Pattern Assembly on Discord; each 0 keeps the game's own value (the
/// original's 30 s reveal and wait, 3-minute rounds, 5-minute showdown, 20 rounds; Plus
/// its own).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AssemblyConfig {
    pub reveal_secs: u64,
    pub wait_secs: u64,
    pub round_secs: u64,
    pub showdown_secs: u64,
    pub rounds: u8,
    /// The original game's wrong shapes: `waits` (the default) or `at_once`; a server's
    /// `/assembly settings` replaces it there.
    pub wrong_shape: WrongShape,
}

impl Section for AssemblyConfig {
    const NAME: &'static str = "assembly";
    // The rules take any time above 0 (a quick server, the tests).
    const LIMITS: &'static [Limit] = &[
        Limit::secs("assembly.reveal_secs", 1..=600).or_zero(),
        Limit::secs("assembly.wait_secs", 1..=600).or_zero(),
        Limit::secs("assembly.round_secs", 1..=3600).or_zero(),
        Limit::secs("assembly.showdown_secs", 1..=3600).or_zero(),
        Limit::new("assembly.rounds", 1..=100, "rounds").or_zero(),
    ];
    fn absent() -> Option<AssemblyConfig> {
        Some(AssemblyConfig::default())
    }
}

impl Checks for AssemblyConfig {}
