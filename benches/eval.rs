//! Evaluating the shipped pool patterns on random structures of 1 to 8 pieces.
//! Target: median <= 1 us per (pattern, structure). One iteration evaluates every
//! pattern on every structure of its set; criterion's throughput figure gives the
//! time per (pattern, structure) pair.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mondo::lang::eval::Facts;
use mondo::pool::EvalWorkload;
use std::hint::black_box;

const STRUCTURES: usize = 500;

fn pool_patterns(c: &mut Criterion) {
    let work = EvalWorkload::new(1, STRUCTURES);
    let pairs: usize = work
        .patterns
        .iter()
        .map(|(e, _)| work.structures(e.set).len())
        .sum();
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(pairs as u64));
    group.bench_function("pool patterns x random structures", |b| {
        b.iter(|| {
            for (entry, pattern) in &work.patterns {
                for k in work.structures(entry.set) {
                    black_box(pattern.evaluate(black_box(k)));
                }
            }
        })
    });
    // The same with each structure's facts built once and shared by all patterns,
    // as a caller evaluating many patterns on one structure would.
    group.bench_function("pool patterns, shared facts", |b| {
        b.iter(|| {
            for set in mondo::PieceSet::ALL {
                for k in work.structures(set) {
                    let facts = Facts::new(black_box(k));
                    for (entry, pattern) in &work.patterns {
                        if entry.set == set {
                            black_box(pattern.evaluate_facts(&facts));
                        }
                    }
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, pool_patterns);
criterion_main!(benches);
