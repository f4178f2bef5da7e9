//! The exact finder's worst cases (docs/developers.md, "The finder's worst cases"),
//! as criterion measures them; per-pair
//! distributions (p50, p99, max, peak memory) come from `mondo bench finder [--hard]`.
//!
//! - the pool pairs and the hard set, one pass over each (every verdict as labelled);
//! - the two guesses that once took seconds and minutes, against `some piece points
//!   up`, each answered by a
//!   one-piece counterexample (target: <= 1 ms whatever the patterns);
//! - reading back the worst accepted pattern on the largest structure: the
//!   deepest `every piece touches a piece that touches ... points up` that reads,
//!   estimated, said back and evaluated on a full 6 x 6 board, as `Core::read` does.

use criterion::{Criterion, criterion_group, criterion_main};
use mondo::PieceSet;
use mondo::finder::{self, Limits, Style, Verdict, suite};
use mondo::koan::Koan;
use std::hint::black_box;
use std::time::Duration;

fn judge(case: &suite::Case) -> Verdict {
    case.compare(&Limits::default()).verdict
}

/// A pass over a set of pairs, checking each verdict against its label first.
fn pairs(c: &mut Criterion, name: &str, cases: &[suite::Case]) {
    for case in cases {
        match (judge(case), case.wrong) {
            (Verdict::Equivalent, None) | (Verdict::Counterexample(_), Some(_)) => {}
            (v, _) => panic!("{}: {v:?}", case.name),
        }
    }
    let mut group = c.benchmark_group("finder");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function(name, |b| {
        b.iter(|| {
            for case in cases {
                black_box(judge(black_box(case)));
            }
        })
    });
    group.finish();
}

fn pool_and_hard(c: &mut Criterion) {
    pairs(
        c,
        "pool pairs, one pass",
        &suite::cases().expect("the pool suite reads"),
    );
    pairs(
        c,
        "hard set, one pass",
        &suite::hard_cases().expect("the hard set reads"),
    );
}

fn one_piece_answers(c: &mut Criterion) {
    let hidden = mondo::lang::parse("some piece points up").expect("reads");
    let mut group = c.benchmark_group("finder one-piece counterexample");
    for (name, guess) in [
        (
            "4-variable pointing chain",
            "exists x y z w. points_at(x,y) & points_at(y,z) & points_at(z,w) & x != z & y != w & x != w",
        ),
        (
            "5-variable touching cycle",
            "exists a b c d e. touches(a,b) & touches(b,c) & touches(c,d) & touches(d,e) & touches(e,a) & a != c",
        ),
    ] {
        let guess = mondo::lang::parse(guess).expect("reads");
        let answer = |h: &mondo::lang::Pattern, g: &mondo::lang::Pattern| {
            finder::compare(
                &h.formula,
                &g.formula,
                PieceSet::Pyramids,
                &[],
                Style::Simple,
                0,
                &Limits::default(),
            )
        };
        match answer(&hidden, &guess) {
            Verdict::Counterexample(cx) if cx.koan.len() == 1 => {}
            v => panic!("{name}: {v:?}"),
        }
        group.bench_function(name, |b| b.iter(|| black_box(answer(&hidden, &guess))));
    }
    group.finish();
}

/// The deepest touching chain that reads, in English.
fn deepest_chain() -> (usize, mondo::lang::Pattern) {
    let chain = |depth: usize| {
        format!(
            "every piece touches {}a piece that points up",
            "a piece that touches ".repeat(depth.saturating_sub(1))
        )
    };
    let mut depth = 1;
    let mut best = mondo::lang::parse(&chain(1)).expect("a chain of one reads");
    while let Ok(p) = mondo::lang::parse(&chain(depth + 1)) {
        depth += 1;
        best = p;
        if depth >= 1_000 {
            break;
        }
    }
    (depth, best)
}

fn worst_read_back(c: &mut Criterion) {
    let (depth, pattern) = deepest_chain();
    // The largest structure: 36 pieces, every cell of the 6 x 6 window.
    let board: String = (0..6)
        .map(|row| {
            (0..6)
                .map(|col| if (row + col) % 2 == 0 { "1^" } else { "2>" })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("/");
    let board = Koan::parse_as(&board, PieceSet::Pyramids).expect("a full board reads");
    assert_eq!(board.len(), 36);
    let mut group = c.benchmark_group("read-back, full 6 x 6 board");
    group.bench_function(format!("touching chain of depth {depth}"), |b| {
        b.iter(|| {
            let cost = finder::estimate(&pattern.formula, PieceSet::Pyramids);
            let said = mondo::lang::english_for(&pattern.formula, PieceSet::Pyramids);
            let truth = mondo::lang::evaluate(&pattern.formula, black_box(&board));
            black_box((cost, said, truth))
        })
    });
    group.finish();
}

criterion_group!(benches, one_piece_answers, worst_read_back, pool_and_hard);
criterion_main!(benches);
