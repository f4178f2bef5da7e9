//! A tournament's events and settings: what the store keeps, as JSON (the names are
//! a contract, docs/tournaments.md).

use crate::rules::PlayerId;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Game-clock milliseconds, as a match's.
pub type Millis = u64;

/// How players meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Format {
    /// Everyone meets everyone once.
    RoundRobin,
    /// Groups of at most `size` players (3 to 6), each a round robin; then the top
    /// `advance` of each group play a single-elimination bracket.
    Groups { size: u8, advance: u8 },
    /// `rounds` rounds, each pairing players with equal points, no two meeting twice.
    Swiss { rounds: u32 },
    /// One bracket: who loses is out.
    Single,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Format::RoundRobin => write!(f, "round robin"),
            Format::Groups { size, advance } => {
                write!(
                    f,
                    "groups of up to {size}, the top {advance} of each to the playoffs"
                )
            }
            Format::Swiss { rounds } => write!(f, "Swiss, {rounds} rounds"),
            Format::Single => write!(f, "single elimination"),
        }
    }
}

/// A tournament's settings, fixed when it is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub format: Format,
    /// The game (its stored name) and options of the first stage, as typed after
    /// `--game` (`pattern-assembly`).
    pub game: String,
    /// The playoffs' game and options (`pattern-assembly --plus`); none: `game`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playoff_game: Option<String>,
    /// Games in a bracket match: 1 or 3.
    pub best_of: u8,
    /// How long a round lasts before its unplayed matches are forfeited.
    pub round_ms: Millis,
    /// The end of the sign-up window (none: until the host starts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signup_until: Option<Millis>,
    /// The Discord channel its matches are played and announced in (none: the
    /// terminal's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<u64>,
    /// How long before a round's deadline the players who have not come to their
    /// match are reminded, once (none: when a quarter of the round is left; 0: never).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remind_ms: Option<Millis>,
    /// The host allows AI players: at the start, the seats left empty up to this
    /// many players are taken by AI players (none: only people play).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai_fill: Option<u32>,
}

impl Settings {
    /// How long before a round's deadline its reminder comes (0: none).
    pub fn remind_before(&self) -> Millis {
        self.remind_ms.unwrap_or(self.round_ms / 4)
    }
}

/// A stage's rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    RoundRobin,
    Groups,
    Swiss,
    Playoffs,
    SingleElimination,
}

impl Stage {
    /// Whether losing a match of this stage puts a player out.
    pub fn is_bracket(self) -> bool {
        matches!(self, Stage::Playoffs | Stage::SingleElimination)
    }

    /// As the JSON says it.
    pub fn name(self) -> &'static str {
        match self {
            Stage::RoundRobin => "round-robin",
            Stage::Groups => "groups",
            Stage::Swiss => "swiss",
            Stage::Playoffs => "playoffs",
            Stage::SingleElimination => "single-elimination",
        }
    }
}

/// A seed at the start: the player and the rating they were seeded by.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seed {
    pub player: PlayerId,
    pub rating: Option<f64>,
}

/// A table as its round opens: its players (the higher seed, holding the DM
/// Advantage, first; one alone has a bye), its group or bracket place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opened {
    pub players: Vec<PlayerId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<usize>,
}

/// A match's result, or a host's ruling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    Win {
        winner: PlayerId,
    },
    Draw,
    /// Only by a host's settling: these did not show.
    Forfeit {
        absent: Vec<PlayerId>,
    },
}

/// What happens to a tournament. Tables are numbered from 0 in their round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    Created {
        name: String,
        host: PlayerId,
        settings: Settings,
        at: Millis,
    },
    Joined {
        player: PlayerId,
        name: String,
        at: Millis,
    },
    Left {
        player: PlayerId,
        at: Millis,
    },
    /// Sign-up closed: the seats in seed order, and the groups drawn (seat numbers).
    Started {
        seeds: Vec<Seed>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        groups: Vec<Vec<usize>>,
        at: Millis,
    },
    RoundOpened {
        round: u32,
        stage: Stage,
        tables: Vec<Opened>,
        deadline: Millis,
        at: Millis,
    },
    /// A match was opened for a table (a best of three, or a replay after a draw,
    /// opens another): the deadline asks it who showed.
    MatchOpened {
        round: u32,
        table: usize,
        #[serde(rename = "match")]
        match_id: i64,
        at: Millis,
    },
    /// A game of a table ended (a bracket's best of three has up to three).
    MatchResult {
        round: u32,
        table: usize,
        result: Outcome,
        /// Each side's points in the game (the table's order), when it keeps score.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        score: Option<[i64; 2]>,
        #[serde(rename = "match", default, skip_serializing_if = "Option::is_none")]
        match_id: Option<i64>,
        at: Millis,
    },
    /// The round's deadline passed with the table unplayed, or a player withdrew.
    Forfeit {
        round: u32,
        table: usize,
        absent: Vec<PlayerId>,
        at: Millis,
    },
    /// The open round's reminder: `players` had not come to their match (they are
    /// told so; the round is reminded once).
    Reminded {
        round: u32,
        players: Vec<PlayerId>,
        at: Millis,
    },
    Withdrawn {
        player: PlayerId,
        at: Millis,
    },
    Replaced {
        old: PlayerId,
        new: PlayerId,
        name: String,
        at: Millis,
    },
    /// A host decided a table (a disputed match).
    Settled {
        round: u32,
        table: usize,
        result: Outcome,
        at: Millis,
    },
    Paused {
        at: Millis,
    },
    Resumed {
        at: Millis,
    },
    Finished {
        champion: Option<PlayerId>,
        at: Millis,
    },
}

impl Event {
    /// When it happened.
    pub fn at(&self) -> Millis {
        match self {
            Event::Created { at, .. }
            | Event::Joined { at, .. }
            | Event::Left { at, .. }
            | Event::Started { at, .. }
            | Event::RoundOpened { at, .. }
            | Event::MatchOpened { at, .. }
            | Event::MatchResult { at, .. }
            | Event::Forfeit { at, .. }
            | Event::Reminded { at, .. }
            | Event::Withdrawn { at, .. }
            | Event::Replaced { at, .. }
            | Event::Settled { at, .. }
            | Event::Paused { at }
            | Event::Resumed { at }
            | Event::Finished { at, .. } => *at,
        }
    }
}
