//! `mondo bench assembly`: medians for generating a Pattern Assembly match (the grid and
//! 20 rounds, each with a solution) and judging an answer, against the targets (10 ms,
//! 50 us). The same figures with statistics: `cargo bench --bench assembly`.

use super::bench_render::timed;
use mondo::grid::{Dims, judge};
use mondo::rules::assembly::{Assembly, AssemblySetup, Settings};
use mondo::rules::{Game, PlayerId};
use std::process::ExitCode;

fn setup(seed: u64, settings: Settings) -> AssemblySetup {
    AssemblySetup {
        players: vec![PlayerId(1), PlayerId(2)],
        seed,
        settings,
    }
}

pub fn run(runs: usize) -> ExitCode {
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
                    == mondo::grid::Verdict::Right
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
