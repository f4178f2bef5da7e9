//! Pattern Assembly: generating a match (a 6 x 6 grid and 20 rounds, each with a
//! solution; target <= 10 ms) and judging an answer (target <= 50 us); and the same
//! for a Plus match on 20 x 20 with 3 targets a round.
//! `cargo bench --bench assembly`.

use criterion::{Criterion, criterion_group, criterion_main};
use mondo::grid::{Dims, judge};
use mondo::rules::Game;
use mondo::rules::PlayerId;
use mondo::rules::assembly::{Assembly, AssemblySetup, Settings};
use std::hint::black_box;

fn setup(seed: u64, settings: Settings) -> AssemblySetup {
    AssemblySetup {
        players: vec![PlayerId(1), PlayerId(2)],
        seed,
        settings,
    }
}

fn assembly(c: &mut Criterion) {
    let mut seed = 0u64;
    c.bench_function("assembly/generate a match (6x6, 20 rounds)", |b| {
        b.iter(|| {
            seed += 1;
            Assembly::start(black_box(setup(seed, Settings::original())), 0)
        })
    });
    let plus = Settings::plus(Dims::new(20, 20).unwrap());
    c.bench_function(
        "assembly/generate a Plus match (20x20, 20 rounds x 3)",
        |b| {
            b.iter(|| {
                seed += 1;
                Assembly::start(black_box(setup(seed, plus.clone())), 0)
            })
        },
    );
    let (game, _) = Assembly::start(setup(7, Settings::original()), 0).unwrap();
    let grid = game.grid().clone();
    let target = game.rounds()[19][0].clone();
    c.bench_function("assembly/judge an answer (size 6)", |b| {
        b.iter(|| {
            judge(
                &grid,
                &target.shape,
                target.contents,
                black_box(&target.example),
            )
        })
    });
}

criterion_group!(benches, assembly);
criterion_main!(benches);
