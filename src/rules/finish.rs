//! How a finished match counts for ratings and records: the one thing every game says
//! about its end to the ratings (`crate::ratings`) and the store. Each game decides
//! it from its own outcome ([`super::Game::finish`]); nothing else reads outcomes.

use super::PlayerId;
use serde::{Deserialize, Serialize};

/// What a match that is over counts for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "finish", rename_all = "snake_case")]
pub enum Finish {
    /// Nothing: declined, ended by a host, abandoned before or without play, or a
    /// game with no winner by its rules (a Classic game its students deserted).
    Void,
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
}
