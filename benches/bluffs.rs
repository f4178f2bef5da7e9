//! Checking a Logical Bluffs statement on an 8-tile subset, involvement included
//! (4^8 colourings): the target is <= 5 ms per statement on the project machine.

use criterion::{Criterion, criterion_group, criterion_main};
use mondo::lang::tiles::{self, Subset};
use std::hint::black_box;

fn check(c: &mut Criterion) {
    let subset: Subset = "B1-B2-B3-B4-C1-C2-C3-C4".parse().expect("subset");
    let mut group = c.benchmark_group("bluffs check (8 tiles)");
    for text in tiles::BENCH_STATEMENTS {
        let statement = tiles::parse(text).expect("reads");
        group.bench_function(text, |b| {
            b.iter(|| tiles::check(black_box(&statement), &subset, tiles::MAX_WORDS))
        });
    }
    group.finish();
}

criterion_group!(benches, check);
criterion_main!(benches);
