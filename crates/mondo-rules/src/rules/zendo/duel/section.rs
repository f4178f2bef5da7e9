//! The duel's section of the configuration file, `[zendo]`: the duel's clocks, the
//! umpire's style, and the server-wide defaults every server starts from (the pool
//! hidden patterns come from, the host role). Practice takes it too.

use crate::finder::Style;
use crate::rules::section::{Checks, Invalid, Limit, Section};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// The allowed range of each Zendo clock setting, in seconds (also for /settings).
pub const TURN_SECS: RangeInclusive<u64> = 10..=3600;
pub const CHALLENGE_SECS: RangeInclusive<u64> = 5..=600;
pub const GUESS_BONUS_SECS: RangeInclusive<u64> = 0..=600;

/// `[zendo]`: defaults for every server; a host changes them for their server with
/// `/settings`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZendoConfig {
    pub turn_secs: u64,
    pub challenge_secs: u64,
    pub guess_bonus_secs: u64,
    pub style: Style,
    pub pool: String,
    /// 0: no host role.
    pub host_role: u64,
    /// How long the AI student waits before each move on Discord (game clock), so it
    /// plays at a person's pace: 2.5 s.
    #[serde(default = "default_ai_delay_ms")]
    pub ai_delay_ms: u64,
    /// The AI student's strength when the command does not say: `beginner`, `player`
    /// or `expert`.
    #[serde(default = "default_ai_level")]
    pub ai_level: String,
}

fn default_ai_delay_ms() -> u64 {
    2_500
}

fn default_ai_level() -> String {
    "player".into()
}

impl Section for ZendoConfig {
    const NAME: &'static str = "zendo";
    const LIMITS: &'static [Limit] = &[
        Limit::secs("zendo.turn_secs", TURN_SECS),
        Limit::secs("zendo.challenge_secs", CHALLENGE_SECS),
        Limit::secs("zendo.guess_bonus_secs", GUESS_BONUS_SECS),
        Limit::new("zendo.ai_delay_ms", 0..=60_000, "milliseconds"),
    ];
}

impl Checks for ZendoConfig {
    fn check(&self) -> Result<(), Invalid> {
        let level = &self.ai_level;
        if !["beginner", "player", "expert"].contains(&level.trim().to_ascii_lowercase().as_str()) {
            return Err(Invalid {
                key: "zendo.ai_level",
                value: format!("`{level}`"),
                allowed: "name a level: beginner, player or expert".into(),
            });
        }
        if self.pool.trim().is_empty() {
            return Err(Invalid {
                key: "zendo.pool",
                value: "empty".into(),
                allowed: "name a pool: pyramids, arrows, generated, or a server pool's name".into(),
            });
        }
        if !is_pool_name(&self.pool) {
            return Err(Invalid {
                key: "zendo.pool",
                value: format!("`{}`", self.pool),
                allowed: "name a pool: pyramids, generated, or a server pool's name (1-40 \
                          letters, digits, `-` or `_`)"
                    .into(),
            });
        }
        if self.pool.trim().eq_ignore_ascii_case("arrows") {
            return Err(Invalid {
                key: "zendo.pool",
                value: "`arrows`".into(),
                allowed: "duels are played with the pyramids: name pyramids, generated, or a \
                          server pool's name (practice with arrows draws from arrows itself)"
                    .into(),
            });
        }
        Ok(())
    }

    /// A default pool that is not built in must be some server's pool.
    fn check_pools(&self, names: &[String]) -> Result<(), Invalid> {
        let pool = self.pool.trim();
        let built_in = ["pyramids", "generated"]
            .iter()
            .any(|b| b.eq_ignore_ascii_case(pool));
        if built_in || names.iter().any(|n| n == pool) {
            return Ok(());
        }
        Err(Invalid {
            key: "zendo.pool",
            value: format!("`{pool}`"),
            allowed: "no server has a pool by that name: name pyramids, generated, or a \
                      pool a host uploaded with /pool add"
                .into(),
        })
    }

    fn host_role(&self) -> Option<u64> {
        (self.host_role != 0).then_some(self.host_role)
    }

    fn default_pool(&self) -> Option<&str> {
        Some(&self.pool)
    }
}

/// A pool's name: 1-40 letters, digits, `-` or `_` (as `/pool add` takes them).
fn is_pool_name(name: &str) -> bool {
    let name = name.trim();
    (1..=40).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}
