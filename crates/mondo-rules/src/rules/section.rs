//! A game's section of `mondo serve`'s configuration file: what the game's settings
//! are called there, the allowed values of each number, and the checks beyond them.
//! Each game declares its own (`rules::<game>::Section`, in its folder); the
//! configuration assembles the file's sections from the games' registry and checks
//! every one at start-up, one line per problem (see docs/operators.md).

use crate::rules::Millis;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::ops::RangeInclusive;

/// A game's section of the configuration file.
pub trait Section:
    Checks + Clone + std::fmt::Debug + PartialEq + Eq + Serialize + DeserializeOwned
{
    /// The section's name in the file (`[NAME]`, `MONDO_NAME_KEY`); "" for a game that
    /// has no section of its own (Zendo practice takes the duel's).
    const NAME: &'static str;
    /// Every numeric key of the section and what it allows (`NAME.key`).
    const LIMITS: &'static [Limit];
    /// The value of a section the file does not have; `None`: it is required (the
    /// shipped defaults have every section).
    fn absent() -> Option<Self> {
        None
    }
}

/// What the configuration asks of every section, whatever its game: checks beyond the
/// numeric limits, and the server-wide defaults a section may hold.
pub trait Checks {
    /// Checks made at start-up, after the numeric limits.
    fn check(&self) -> Result<(), Invalid> {
        Ok(())
    }
    /// Checks that need the servers' pools (`names`: every server pool's name).
    fn check_pools(&self, _names: &[String]) -> Result<(), Invalid> {
        Ok(())
    }
    /// The role whose members may host, if this section sets it.
    fn host_role(&self) -> Option<u64> {
        None
    }
    /// The pool hidden patterns come from unless a server or a command says, if this
    /// section sets it.
    fn default_pool(&self) -> Option<&str> {
        None
    }
}

/// A game with no section of its own.
impl Checks for () {}

impl Section for () {
    const NAME: &'static str = "";
    const LIMITS: &'static [Limit] = &[];
    fn absent() -> Option<()> {
        Some(())
    }
}

/// A configured value that is not allowed: the key, the value, what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    pub key: &'static str,
    pub value: String,
    pub allowed: String,
}

/// Seconds as game-clock milliseconds, saturating (never `v * 1000`, which wraps in a
/// release build for a value that was not range-checked).
pub const fn ms(secs: u64) -> Millis {
    secs.saturating_mul(1000)
}

/// A numeric setting's allowed values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// `section.key`, as in the file (`MONDO_SECTION_KEY` in the environment).
    pub key: &'static str,
    pub min: u64,
    pub max: u64,
    pub unit: &'static str,
    /// 0 keeps the game's own value (besides `min..=max`).
    pub zero_is_default: bool,
}

impl Limit {
    pub const fn new(key: &'static str, range: RangeInclusive<u64>, unit: &'static str) -> Limit {
        Limit {
            key,
            min: *range.start(),
            max: *range.end(),
            unit,
            zero_is_default: false,
        }
    }

    pub const fn secs(key: &'static str, range: RangeInclusive<u64>) -> Limit {
        Limit::new(key, range, "seconds")
    }

    pub const fn or_zero(self) -> Limit {
        Limit {
            zero_is_default: true,
            ..self
        }
    }

    /// Checks a configured value.
    pub fn check(&self, value: u64) -> Result<(), Invalid> {
        if (self.zero_is_default && value == 0) || (self.min..=self.max).contains(&value) {
            return Ok(());
        }
        let zero = if self.zero_is_default {
            " (0 keeps the game's own)"
        } else {
            ""
        };
        Err(Invalid {
            key: self.key,
            value: value.to_string(),
            allowed: format!("allowed: {} to {} {}{zero}", self.min, self.max, self.unit),
        })
    }

    /// Checks a duration given to `mondo play` as `option` (in ms, fractions of a
    /// second allowed): the same upper limit as the setting's, and any time above 0
    /// (or 0 where the setting allows it), so a game can be tried with quick clocks.
    pub fn check_terminal_ms(&self, option: &str, ms: Millis) -> Result<(), String> {
        let least = if self.min == 0 { 0 } else { 1 };
        if ms >= least && ms <= self::ms(self.max) {
            return Ok(());
        }
        let secs = ms as f64 / 1000.0;
        let from = if least == 0 { "0" } else { "more than 0" };
        Err(format!(
            "{option} {secs} is out of range: allowed {from} up to {} {} (as the bot's `{}`)",
            self.max, self.unit, self.key
        ))
    }
}
