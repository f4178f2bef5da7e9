//! Pictures: one structure (target 2 ms) and a 40-structure board (target 50 ms).
//! `cargo bench --bench render`; `mondo bench render` prints the same medians quickly.

use criterion::{Criterion, criterion_group, criterion_main};
use mondo::render::{self, BoardEntry, Mark, Picture, samples};
use std::hint::black_box;

fn pictures(c: &mut Criterion) {
    let picture = Picture {
        mark: Some(Mark::Obeys),
        caption: Some("#7".into()),
    };
    let one = samples::structure();
    c.bench_function("koan_png/seed example", |b| {
        b.iter(|| render::koan_png(black_box(&one), &picture))
    });
    let full = samples::full();
    c.bench_function("koan_png/full 6x6", |b| {
        b.iter(|| render::koan_png(black_box(&full), &picture))
    });
    let history = samples::history(40);
    let entries = BoardEntry::numbered(history.iter().map(|(k, m)| (k, *m)));
    c.bench_function("board_png/40 structures", |b| {
        b.iter(|| render::board_png(black_box(&entries)))
    });
}

criterion_group!(benches, pictures);
criterion_main!(benches);
