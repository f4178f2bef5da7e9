//! Logical Bluffs' section of the configuration file, `[bluffs]`: every duration and
//! cost the rules take as [`Settings`]; the shipped values are the game's own.

use crate::rules::bluffs::Settings;
use crate::rules::section::{Checks, Limit, Section, ms};
use serde::{Deserialize, Serialize};

/// `[bluffs]`: Logical Bluffs on Discord.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BluffsConfig {
    pub bluff_secs: u64,
    pub claim_secs: u64,
    pub reveal_secs: u64,
    pub guess_secs: u64,
    pub reserve_secs: u64,
    pub known_tiles: u64,
    pub reveal_cost: u64,
    pub max_words: u64,
    pub rp_per_true: u64,
    pub rp_per_right_mark: u64,
}

impl Default for BluffsConfig {
    fn default() -> BluffsConfig {
        let s = Settings::default();
        BluffsConfig {
            bluff_secs: s.bluffing_ms / 1000,
            claim_secs: s.claiming_ms / 1000,
            reveal_secs: s.reveal_ms / 1000,
            guess_secs: s.guess_extra_ms / 1000,
            reserve_secs: s.reserve_ms / 1000,
            known_tiles: s.known_tiles as u64,
            reveal_cost: u64::from(s.reveal_cost),
            max_words: s.max_words as u64,
            rp_per_true: u64::from(s.rp_per_true),
            rp_per_right_mark: u64::from(s.rp_per_right_mark),
        }
    }
}

impl BluffsConfig {
    /// The rules' settings these values give (each is in range once validated).
    pub fn settings(&self) -> Settings {
        let narrow = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        Settings {
            known_tiles: self.known_tiles as usize,
            bluffing_ms: ms(self.bluff_secs),
            claiming_ms: ms(self.claim_secs),
            reveal_ms: ms(self.reveal_secs),
            guess_extra_ms: ms(self.guess_secs),
            reserve_ms: ms(self.reserve_secs),
            rp_per_true: narrow(self.rp_per_true),
            rp_per_right_mark: narrow(self.rp_per_right_mark),
            reveal_cost: narrow(self.reveal_cost),
            max_words: self.max_words as usize,
        }
    }
}

impl Section for BluffsConfig {
    const NAME: &'static str = "bluffs";
    // Every phase needs some time and a reveal a price (the rules refuse 0); each
    // player knows at most 8 tiles (they are disjoint on 16); a statement's box holds
    // 300 characters, so 40 words.
    const LIMITS: &'static [Limit] = &[
        Limit::secs("bluffs.bluff_secs", 10..=3600),
        Limit::secs("bluffs.claim_secs", 5..=3600),
        Limit::secs("bluffs.reveal_secs", 5..=600),
        Limit::secs("bluffs.guess_secs", 0..=3600),
        Limit::secs("bluffs.reserve_secs", 0..=3600),
        Limit::new("bluffs.known_tiles", 0..=8, "tiles"),
        Limit::new("bluffs.reveal_cost", 1..=100, "RP"),
        Limit::new("bluffs.max_words", 1..=40, "words"),
        Limit::new("bluffs.rp_per_true", 0..=100, "RP"),
        Limit::new("bluffs.rp_per_right_mark", 0..=100, "RP"),
    ];
    fn absent() -> Option<BluffsConfig> {
        Some(BluffsConfig::default())
    }
}

impl Checks for BluffsConfig {}
