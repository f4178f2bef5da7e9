//! What a host may set for Pattern Assembly: durations, the wrong-shape rule, the Plus
//! variant's grid and region, and the checks that keep them within the game's rules.

use crate::grid::{Dims, Region, Target};
use crate::rules::{Millis, SetupError};
use serde::{Deserialize, Serialize};

/// Durations, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    pub reveal: Millis,
    pub wait: Millis,
    pub round: Millis,
    pub showdown: Millis,
}

impl Timing {
    /// The original game: 30 s reveals and waits, 3-minute rounds, a 5-minute showdown.
    pub const ORIGINAL: Timing = Timing {
        reveal: 30_000,
        wait: 30_000,
        round: 180_000,
        showdown: 300_000,
    };
    /// Plus: 5-minute rounds, a 2-minute showdown.
    pub const PLUS: Timing = Timing {
        reveal: 30_000,
        wait: 30_000,
        round: 300_000,
        showdown: 120_000,
    };
}

/// What a wrong shape does in the original game, as a host chooses it (Plus: every
/// answer waits). Written `waits` or `at_once` in the config, `at-once` too at the
/// terminal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WrongShape {
    /// The seed's rule change (the default): every answer waits, then a wrong shape is
    /// announced without its contents.
    #[default]
    Waits,
    /// The first rule: a wrong shape is announced at once, and its player may answer
    /// again at once.
    AtOnce,
}

impl WrongShape {
    pub fn waits(self) -> bool {
        self == WrongShape::Waits
    }

    /// In words, for a host.
    pub fn words(self) -> &'static str {
        match self {
            WrongShape::Waits => {
                "every answer waits, a wrong shape too (then it is announced without its \
                 contents)"
            }
            WrongShape::AtOnce => "a wrong shape is announced at once, without a waiting period",
        }
    }
}

impl std::str::FromStr for WrongShape {
    type Err = String;
    fn from_str(s: &str) -> Result<WrongShape, String> {
        match s
            .trim()
            .to_ascii_lowercase()
            .replace(['-', ' '], "_")
            .as_str()
        {
            "waits" | "wait" => Ok(WrongShape::Waits),
            "at_once" => Ok(WrongShape::AtOnce),
            _ => Err(format!(
                "`{s}` is not a wrong-shape rule: `waits` (every answer waits; the default) \
                 or `at-once` (a wrong shape is said at once)"
            )),
        }
    }
}

/// Everything a host may set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Pattern Assembly Plus (several targets, 1 point each, region showdown at +1/-1).
    pub plus: bool,
    pub dims: Dims,
    pub rounds: u8,
    /// Shape sizes, spread evenly over the rounds (`[3,4,5,6]`: 3 for rounds 1-5, ...).
    pub sizes: Vec<u8>,
    /// Targets per round (1 in the original).
    pub targets: u8,
    /// The grid is shown again after these rounds.
    pub reveal_after: Vec<u8>,
    /// Whether a wrong shape waits like any answer (the seed's rule change, the
    /// default; Plus always) or is announced at once (the first rule).
    pub wrong_shape_waits: bool,
    /// The part of the grid the showdown covers (None: all of it).
    pub region: Option<Region>,
    pub timing: Timing,
}

impl Settings {
    /// The original game, 6 x 6.
    pub fn original() -> Settings {
        Settings {
            plus: false,
            dims: Dims::CLASSIC,
            rounds: 20,
            sizes: vec![3, 4, 5, 6],
            targets: 1,
            reveal_after: vec![5, 10, 15],
            wrong_shape_waits: true,
            region: None,
            timing: Timing::ORIGINAL,
        }
    }

    /// Plus, on a `dims` grid with 3 targets a round.
    pub fn plus(dims: Dims) -> Settings {
        Settings {
            plus: true,
            dims,
            targets: 3,
            wrong_shape_waits: true,
            timing: Timing::PLUS,
            ..Settings::original()
        }
    }

    /// The shape size of round `number` (from 1).
    pub fn size_of(&self, number: u8) -> u8 {
        let n = self.sizes.len().max(1);
        let i = (number.saturating_sub(1) as usize * n) / self.rounds.max(1) as usize;
        self.sizes.get(i.min(n - 1)).copied().unwrap_or(3)
    }

    /// Points for a found target.
    pub(super) fn points(&self, target: &Target) -> i32 {
        if self.plus {
            1
        } else {
            target.shape.size() as i32
        }
    }

    pub(super) fn check(&self) -> Result<(), SetupError> {
        let bad = |why: &'static str| Err(SetupError::BadSettings(why));
        if self.rounds == 0 || self.rounds > 100 {
            return bad("a match has 1-100 rounds");
        }
        if self.sizes.is_empty() || self.sizes.iter().any(|&s| s == 0 || s > 12) {
            return bad("shape sizes are 1-12 cells");
        }
        if self.sizes.iter().any(|&s| s as usize > self.dims.area()) {
            return bad("a shape is larger than the grid");
        }
        if self.targets == 0 || self.targets > 10 {
            return bad("a round has 1-10 targets");
        }
        if !self.plus && self.targets != 1 {
            return bad("several targets a round is the Plus variant");
        }
        if self.plus && !self.wrong_shape_waits {
            return bad("in Pattern Assembly Plus every answer waits, a wrong shape included");
        }
        if let Some(r) = self.region
            && !(self.dims.contains(r.top_left) && self.dims.contains(r.bottom_right))
        {
            return bad("the showdown region is off the grid");
        }
        Ok(())
    }
}
