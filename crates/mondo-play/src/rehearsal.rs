//! Every game played at random, for the tests that try every game the same way (the
//! secrecy test): each game's terminal `Front` says how many play a test match, how it
//! is set up from a seed (with short clocks, so every phase comes), and what its
//! players type, most of it legal and much of it not. The registry's list makes the
//! dispatch ([`super::games::rehearsal`]), so such a test names no game and a new game
//! is in it by its registry line.

use super::Cast;
use crate::rules::{PlayerId, Secret};
use crate::runtime::{AnySetup, AnyView};
use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

/// What a test playing a game at random needs of it.
pub trait Rehearse {
    /// How many play a test match: 1 is one player alone at the terminal (no names).
    const PLAYERS: usize;
    /// A new test match from `seed`, played by `cast`: short clocks, so every phase
    /// comes (or why this seed draws no match).
    fn setup(seed: u64, cast: &Cast) -> Result<AnySetup, String>;
    /// The match's random player, from its first moment.
    fn player(first: &Moment<'_>) -> Box<dyn RandomPlayer>;
}

/// A match's random player: the lines its players type.
pub trait RandomPlayer {
    /// The next line, typed by `who` (`"alice: "`, or `""` alone at the terminal).
    fn line(&mut self, now: &Moment<'_>, rng: &mut Xoshiro256PlusPlus, who: &str) -> String;
    /// How often the clock jumps to the next deadline: often enough for every kind of
    /// time-out, not so often that a match is lost on time before it has begun.
    fn jump_chance(&self, _spectator: &AnyView) -> f64 {
        0.08
    }
}

/// A match as its random player sees it: what a spectator sees, what each player
/// sees, who plays, and what nobody may know yet (a player who types a secret knows
/// it: the tests take care with those).
pub struct Moment<'a> {
    pub spectator: &'a AnyView,
    pub cast: &'a Cast,
    /// The secrets as the spectator may not know them.
    pub secrets: &'a [Secret],
    /// Player `id`'s view.
    pub view_of: &'a dyn Fn(PlayerId) -> AnyView,
}

impl Moment<'_> {
    /// A player's name, at random.
    pub fn name(&self, rng: &mut Xoshiro256PlusPlus) -> String {
        let players = self.cast.players();
        players[rng.random_range(0..players.len())].1.clone()
    }
}

/// How one game is played at random (see [`Rehearse`]), as the registry's dispatch
/// gives it.
#[derive(Clone, Copy)]
pub struct Rehearsal {
    pub players: usize,
    pub setup: fn(u64, &Cast) -> Result<AnySetup, String>,
    pub player: fn(&Moment<'_>) -> Box<dyn RandomPlayer>,
}
