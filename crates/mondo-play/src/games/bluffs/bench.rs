//! Logical Bluffs' bench areas. `mondo bench bluffs`: the statements of
//! `benches/bluffs.rs`, each read, and checked on an 8-tile subset. And its AI in
//! `mondo bench ai --game bluffs`: matches with the default settings, level against
//! level, and the beginner against a random legal player (the "beats a random legal
//! player" figure, a row with `vs` 0).

use crate::bench::ai::ArenaGame;
use crate::bench::median_ms;
use crate::commands::Commands;
use crate::lang::tiles;
use crate::rules::Game;
use crate::rules::PlayerId;
use crate::rules::bluffs::{BluffsMatch, Settings, Setup};
use crate::student::Level;
use crate::student::arena::Mind;
use crate::student::bluffs::{BluffsAi, RandomPlayer};
use std::hint::black_box;
use std::process::ExitCode;

/// Logical Bluffs' `mondo bench` areas.
#[derive(Debug, clap::Subcommand)]
pub enum BluffsBench {
    /// Logical Bluffs: read statements, and check them on an 8-tile subset, involvement
    /// included (targets: 1 ms to read, 5 ms to check).
    Bluffs {
        /// How many times to check each statement; the figure is the median.
        #[arg(long, default_value_t = 21)]
        runs: usize,
    },
}

impl Commands for BluffsBench {
    fn run(self) -> ExitCode {
        match self {
            BluffsBench::Bluffs { runs } => statements(runs.max(1)),
        }
    }
}

/// The statements of `benches/bluffs.rs`, each read, and checked on B1-B4, C1-C4.
fn statements(runs: usize) -> ExitCode {
    let Ok(subset) = "B1-B2-B3-B4-C1-C2-C3-C4".parse::<tiles::Subset>() else {
        return ExitCode::FAILURE;
    };
    let (mut worst, mut worst_read): (f64, f64) = (0.0, 0.0);
    println!("    read     check  statement");
    for text in tiles::BENCH_STATEMENTS {
        let read = median_ms(runs, || {
            let _ = black_box(tiles::parse(black_box(text)));
        });
        worst_read = worst_read.max(read);
        let Ok(statement) = tiles::parse(text) else {
            eprintln!("`{text}` does not read");
            return ExitCode::FAILURE;
        };
        let ms = median_ms(runs, || {
            let _ = black_box(tiles::check(
                black_box(&statement),
                &subset,
                tiles::MAX_WORDS,
            ));
        });
        worst = worst.max(ms);
        println!("{read:6.3} ms {ms:6.3} ms  {text}");
    }
    println!(
        "worst: {worst_read:.3} ms to read (target 1 ms), {worst:.3} ms to check on 8 tiles \
         (target 5 ms)"
    );
    ExitCode::SUCCESS
}

/// Its AI's matches in `mondo bench ai --game bluffs`.
pub fn arena() -> fn(usize, u64, bool) -> ExitCode {
    crate::bench::ai::run::<AiArena>
}

/// Logical Bluffs in the AI arena: two players, the default settings.
pub struct AiArena;

impl ArenaGame for AiArena {
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
