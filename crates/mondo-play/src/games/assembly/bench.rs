//! Pattern Assembly's bench areas. `mondo bench assembly`: medians for generating a
//! match (the grid and 20 rounds, each with a solution) and judging an answer, against
//! the targets (10 ms, 50 us); the same figures with statistics: `cargo bench --bench
//! assembly`. And its AI in `mondo bench ai --game assembly [--plus]` ([`AiArena`]).

use crate::bench::ai::ArenaGame;
use crate::bench::timed;
use crate::commands::Commands;
use crate::grid::{Dims, judge};
use crate::rules::assembly::{Assembly, AssemblySetup, Settings};
use crate::rules::{Game, PlayerId};
use crate::student::Level;
use crate::student::arena::Mind;
use crate::student::assembly::{AssemblyAi, Skill};
use std::process::ExitCode;

/// Pattern Assembly's `mondo bench` areas.
#[derive(Debug, clap::Subcommand)]
pub enum AssemblyBench {
    /// Pattern Assembly: generating a match (grid + 20 rounds with solutions) and
    /// judging an answer (targets: 10 ms and 50 us).
    Assembly {
        /// How many times to time each.
        #[arg(long, default_value_t = 200)]
        runs: usize,
    },
}

impl Commands for AssemblyBench {
    fn run(self) -> ExitCode {
        match self {
            AssemblyBench::Assembly { runs } => run(runs.max(1)),
        }
    }
}

/// Its AI's matches in `mondo bench ai --game assembly`: Plus ones with `--plus`.
pub fn arena(plus: bool) -> fn(usize, u64, bool) -> ExitCode {
    if plus {
        crate::bench::ai::run::<AiArena<true>>
    } else {
        crate::bench::ai::run::<AiArena<false>>
    }
}

fn setup(seed: u64, settings: Settings) -> AssemblySetup {
    AssemblySetup {
        players: vec![PlayerId(1), PlayerId(2)],
        seed,
        settings,
    }
}

fn run(runs: usize) -> ExitCode {
    let mut seed = 0;
    let mut generate = |settings: &Settings| {
        seed += 1;
        Assembly::start(setup(seed, settings.clone()), 0).map(|(g, _)| g)
    };
    let original = Settings::original();
    let (t, _) = timed(runs, || generate(&original));
    println!("generate a match (6 x 6, 20 rounds): {t}");
    println!("  {}", t.verdict(10.0));
    let plus = Settings::plus(Dims { rows: 20, cols: 20 });
    let (t, last) = timed(runs, || generate(&plus));
    println!("generate a Plus match (20 x 20, 20 rounds of 3 targets): {t}");
    println!("  {}", t.verdict(10.0));
    let game = match last {
        Ok(game) => game,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    // A size-6 target of the last round: the largest shape of a default match.
    let Some(target) = game.rounds().last().and_then(|r| r.first()) else {
        eprintln!("error: the match has no rounds");
        return ExitCode::FAILURE;
    };
    let many = 1000;
    let (t, _) = timed(runs, || {
        (0..many)
            .filter(|_| {
                judge(game.grid(), &target.shape, target.contents, &target.example)
                    == crate::grid::Verdict::Right
            })
            .count()
    });
    println!("judge {many} answers (size 6, on 20 x 20): {t}");
    println!("  per answer: target <= 0.05 ms: {}", {
        let per_ms = t.cpu_ms() / many as f64;
        format!(
            "{per_ms:.5} ms CPU, {}",
            if per_ms <= 0.05 { "met" } else { "NOT met" }
        )
    });
    ExitCode::SUCCESS
}

/// Pattern Assembly in `mondo bench ai --game assembly`: original matches (6 x 6, 20
/// rounds, the default clocks), or with `--plus` Plus matches (10 x 10 as the fronts
/// default to, 3 targets a round); its reference is a player with a perfect memory.
pub struct AiArena<const PLUS: bool>;

impl<const PLUS: bool> AiArena<PLUS> {
    fn settings() -> Settings {
        if PLUS {
            Settings::plus(Dims { rows: 10, cols: 10 })
        } else {
            Settings::original()
        }
    }
}

impl<const PLUS: bool> ArenaGame for AiArena<PLUS> {
    type G = Assembly;
    const NAME: &'static str = if PLUS { "assembly-plus" } else { "assembly" };

    fn start(players: Vec<PlayerId>, seed: u64) -> Result<Assembly, String> {
        let setup = AssemblySetup {
            players,
            seed,
            settings: Self::settings(),
        };
        Assembly::start(setup, 0)
            .map(|(g, _)| g)
            .map_err(|e| e.to_string())
    }

    fn mind(level: Level, seed: u64) -> Mind<'static, Assembly> {
        Box::new(AssemblyAi::new(level, seed))
    }

    /// The strongest level's points against those of a perfect memory (the expert's
    /// pace, every cell of every reveal kept right), each alone on the same matches
    /// (solo: no opponent takes a round from either).
    fn reference(matches: usize, seed: u64, tick: &mut dyn FnMut() -> u64) -> Option<String> {
        let mut points = [0i64; 2];
        for i in 0..matches as u64 {
            let s = seed.wrapping_add(i);
            let skills = [Skill::of(Level::Expert), Skill::PERFECT];
            for (k, skill) in skills.into_iter().enumerate() {
                let game = Self::start(vec![PlayerId(1)], s).ok()?;
                let mind: Mind<'static, Assembly> =
                    Box::new(AssemblyAi::with_skill(skill, s.wrapping_mul(2)));
                let played =
                    crate::student::arena::play(game, vec![mind], 0, 100_000, tick).ok()?;
                points[k] += played
                    .game
                    .scores()
                    .values()
                    .iter()
                    .map(|&p| p as i64)
                    .sum::<i64>();
            }
        }
        let share = 100.0 * points[0] as f64 / points[1].max(1) as f64;
        Some(format!(
            "{} reference: the expert scores {share:.1} % of the points of a perfect \
             memory ({} against {} over {matches} solo matches; target: 70 %: {})",
            Self::NAME,
            points[0],
            points[1],
            if share >= 70.0 { "met" } else { "NOT met" }
        ))
    }
}
