//! How a finished match counts for ratings and records: the one thing every game says
//! about its end to the ratings (`crate::ratings`) and the store. Each game decides
//! it from its own outcome ([`super::Game::finish`]), and the engine lays the shared
//! fair-play rules over it ([`super::Game::result`], `fair.rs`; docs/ratings.md, "What
//! counts"); nothing else reads outcomes.

use super::PlayerId;
use serde::{Deserialize, Serialize};

/// What a match that is over counts for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "finish", rename_all = "snake_case")]
pub enum Finish {
    /// Nothing, for a reason every front can say ([`Why::text`]).
    Unrated(Why),
    /// A rated result by `method`: each player with their place (0 first; equal
    /// places tie: a draw between two, the students who did not win in Classic).
    Placed {
        method: Method,
        places: Vec<(PlayerId, u32)>,
    },
    /// Solo practice: only the player's own record. `solved`: the hidden thing was
    /// found (Zendo) or the match played to its end (Pattern Assembly); `score`: the
    /// structures built (Zendo practice) or the points (Pattern Assembly).
    Solo {
        player: PlayerId,
        solved: bool,
        score: u32,
    },
}

/// Why a match counts for no rating. Stored and shown by its snake-case name
/// (`"why": "setup_chosen"`), with the player it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Why {
    /// A player of the match chose its seed, pattern or pool.
    SetupChosen { by: PlayerId },
    /// A side never acted before its first deadline (or left before acting).
    Aborted { by: PlayerId },
    /// Every side went idle: nobody played it out.
    Abandoned,
    /// The one challenged declined, or the challenger withdrew, before the start.
    Declined { by: PlayerId },
    /// A host ended it.
    HostEnded,
    /// The rules name no winner (a Classic game whose students all left).
    NoResult,
}

impl Why {
    /// The reason's stored name.
    pub fn name(&self) -> &'static str {
        match self {
            Why::SetupChosen { .. } => "setup_chosen",
            Why::Aborted { .. } => "aborted",
            Why::Abandoned => "abandoned",
            Why::Declined { .. } => "declined",
            Why::HostEnded => "host_ended",
            Why::NoResult => "no_result",
        }
    }

    /// The reason stored as `name` ([`Why::name`]) naming `by`; `None` for a name that
    /// is not a reason, or one that names a player without one.
    pub fn from_name(name: &str, by: Option<PlayerId>) -> Option<Why> {
        Some(match (name, by) {
            ("setup_chosen", Some(by)) => Why::SetupChosen { by },
            ("aborted", Some(by)) => Why::Aborted { by },
            ("declined", Some(by)) => Why::Declined { by },
            ("abandoned", _) => Why::Abandoned,
            ("host_ended", _) => Why::HostEnded,
            ("no_result", _) => Why::NoResult,
            _ => return None,
        })
    }

    /// The player it names, if any.
    pub fn by(&self) -> Option<PlayerId> {
        match self {
            Why::SetupChosen { by } | Why::Aborted { by } | Why::Declined { by } => Some(*by),
            Why::Abandoned | Why::HostEnded | Why::NoResult => None,
        }
    }

    /// What a front says: "the setup was chosen by alice" (`name` gives a player's
    /// name as that front shows it).
    pub fn text(&self, name: impl Fn(PlayerId) -> String) -> String {
        match self {
            Why::SetupChosen { by } => format!("the setup was chosen by {}", name(*by)),
            Why::Aborted { by } => format!("aborted: {} never played", name(*by)),
            Why::Abandoned => "abandoned: every side stopped playing".into(),
            Why::Declined { by } => format!("declined by {}", name(*by)),
            Why::HostEnded => "ended by a host".into(),
            Why::NoResult => "the rules name no winner".into(),
        }
    }
}

/// How a game's results are rated (each game says which: `crate::ratings` rates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Two players, Glicko-2.
    Glicko2,
    /// Two or more players ranked by place, Weng-Lin (OpenSkill).
    WengLin,
}

impl Finish {
    /// Two players: a winner and a loser, or a draw (`None`).
    /// Glicko-2 rates it.
    pub fn two(players: &[PlayerId], winner: Option<usize>) -> Finish {
        Finish::Placed {
            method: Method::Glicko2,
            places: players
                .iter()
                .enumerate()
                .map(|(i, p)| (*p, u32::from(winner.is_some_and(|w| w != i))))
                .collect(),
        }
    }

    /// The winner first, everyone else tied behind; Weng-Lin rates it.
    pub fn winner_first(players: &[PlayerId], winner: usize) -> Finish {
        Finish::Placed {
            method: Method::WengLin,
            places: players
                .iter()
                .enumerate()
                .map(|(i, p)| (*p, u32::from(i != winner)))
                .collect(),
        }
    }

    /// Whether it moves a rating.
    pub fn is_rated(&self) -> bool {
        matches!(self, Finish::Placed { .. })
    }

    /// Why it is unrated, if it is for a reason ([`Finish::Unrated`]).
    pub fn why(&self) -> Option<Why> {
        match self {
            Finish::Unrated(why) => Some(*why),
            _ => None,
        }
    }
}
