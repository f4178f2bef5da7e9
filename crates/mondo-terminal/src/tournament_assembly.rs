//! Pattern Assembly in `mondo tournament run --ai-fill`: original matches (6 x 6, 20
//! rounds), or Plus with `--plus` (10 x 10, as at the terminal); its AI at each level.

use super::tournament_run::{AiTournamentGame, Started};
use mondo_rules::grid::Dims;
use mondo_rules::rules::assembly::{Assembly, AssemblySetup, Settings};
use mondo_rules::rules::{Game, PlayerId};
use mondo_rules::student::Level;
use mondo_rules::student::arena::Mind;
use mondo_rules::student::assembly::AssemblyAi;

pub struct Runner;

impl AiTournamentGame for Runner {
    type G = Assembly;

    fn start(players: Vec<PlayerId>, seed: u64, options: &str, now: u64) -> Started<Assembly> {
        let settings = match options {
            "" => Settings::original(),
            "--plus" => Settings::plus(Dims { rows: 10, cols: 10 }),
            other => {
                return Err(format!(
                    "`pattern-assembly {other}`: its one option here is --plus"
                ));
            }
        };
        let setup = AssemblySetup {
            players,
            seed,
            settings,
        };
        Assembly::start(setup, now)
            .map(|(g, created)| (g, vec![created]))
            .map_err(|e| e.to_string())
    }

    fn mind(level: Level, seed: u64) -> Mind<'static, Assembly> {
        Box::new(AssemblyAi::new(level, seed))
    }

    fn score(game: &Assembly) -> Option<[i64; 2]> {
        let s = game.scores().values();
        Some([i64::from(*s.first()?), i64::from(*s.get(1)?)])
    }
}
