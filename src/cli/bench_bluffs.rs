//! Logical Bluffs in `mondo bench ai --game bluffs`: matches with the default settings,
//! level against level, and the beginner against a random legal player (the issue's
//! "beats a random legal player" figure, a row with `vs` 0).

use mondo::rules::Game;
use mondo::rules::PlayerId;
use mondo::rules::bluffs::{BluffsMatch, Settings, Setup};
use mondo::student::Level;
use mondo::student::arena::Mind;
use mondo::student::bluffs::{BluffsAi, RandomPlayer};

pub struct AiArena;

impl super::bench_games_ai::ArenaGame for AiArena {
    type G = BluffsMatch;
    const NAME: &'static str = "bluffs";

    fn start(players: Vec<PlayerId>, seed: u64) -> Result<BluffsMatch, String> {
        let players: [PlayerId; 2] = players
            .try_into()
            .map_err(|p: Vec<PlayerId>| format!("a match of two players, not {}", p.len()))?;
        let setup = Setup {
            players,
            seed,
            settings: Settings::default(),
        };
        BluffsMatch::from_setup(&setup, 0).map_err(|e| e.to_string())
    }

    fn mind(level: Level, seed: u64) -> Mind<'static, BluffsMatch> {
        Box::new(BluffsAi::new(level, &Settings::default(), seed))
    }

    /// The random row is the reference: nothing more to say.
    fn reference(_matches: usize, _seed: u64, _tick: &mut dyn FnMut() -> u64) -> Option<String> {
        None
    }

    fn random(seed: u64) -> Option<Mind<'static, BluffsMatch>> {
        Some(Box::new(RandomPlayer::new(seed)))
    }
}
