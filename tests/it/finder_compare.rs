//! `finder::compare`: proofs, minimal counterexamples (golden near misses), the table,
//! the budget and the varied style.

use crate::finder_support;

use finder_support::*;
use mondo::finder::{self, Limits, Style, Verdict};
use mondo::koan::{Direction, Koan, Piece, PieceSet, Size};
use mondo::lang::ast::{BinaryPred, CmpOp, Formula, TermKind, UnaryPred};

fn simple(hidden: &Formula, guess: &Formula, set: PieceSet, table: &[Koan]) -> finder::Comparison {
    finder::compare_detailed(
        hidden,
        guess,
        set,
        table,
        Style::Simple,
        0,
        &Limits::default(),
    )
}

/// The counterexample's (pieces, area), asserting it is proved minimal and separates.
fn shape_of(c: &finder::Comparison, hidden: &Formula, guess: &Formula) -> (usize, u32) {
    match &c.verdict {
        Verdict::Counterexample(cx) => {
            assert!(c.minimal, "minimality proved");
            assert_eq!(mondo::lang::evaluate(hidden, &cx.koan), cx.hidden);
            assert_eq!(mondo::lang::evaluate(guess, &cx.koan), cx.guess);
            assert_ne!(cx.hidden, cx.guess);
            (cx.koan.len(), cx.koan.area())
        }
        other => panic!("expected a counterexample, got {other:?}"),
    }
}

fn some(p: UnaryPred) -> Formula {
    exists(0, un(p, 0))
}

fn total_pips_at_most(n: i64) -> Formula {
    cmp(CmpOp::Le, pips(0, tru()), int(n))
}

#[test]
fn identical_and_rephrased_patterns_are_proved_equivalent() {
    let a = some(UnaryPred::Small);
    let c = simple(&a, &a, PieceSet::Pyramids, &[]);
    assert_eq!(c.verdict, Verdict::Equivalent);
    // "there is a small piece" = "not every piece is medium or large"
    // = "the number of small pieces is at least 1" = "the largest... ": three readings.
    let b = not(forall(
        0,
        or(un(UnaryPred::Medium, 0), un(UnaryPred::Large, 0)),
    ));
    let d = cmp(CmpOp::Ge, count(0, un(UnaryPred::Small, 0)), int(1));
    let e = exists(0, un(UnaryPred::Smallest, 0));
    let e = and(
        e,
        forall(
            0,
            or(not(un(UnaryPred::Smallest, 0)), un(UnaryPred::Small, 0)),
        ),
    );
    for other in [&b, &d, &e] {
        assert_eq!(
            simple(&a, other, PieceSet::Pyramids, &[]).verdict,
            Verdict::Equivalent
        );
    }
    // Structure-wide: every structure has a topmost piece and at least one group.
    let t1 = exists(0, un(UnaryPred::Topmost, 0));
    let t2 = global(TermKind::Groups, CmpOp::Ge, 1);
    assert_eq!(
        simple(&t1, &tru(), PieceSet::Pyramids, &[]).verdict,
        Verdict::Equivalent
    );
    assert_eq!(
        simple(&t2, &tru(), PieceSet::Arrows, &[]).verdict,
        Verdict::Equivalent
    );
    // Pieces pointing at each other come in pairs... counted two ways.
    let points = count(0, exists(1, rel(BinaryPred::PointsAt, 0, 1)));
    let pointed = count(0, exists(1, rel(BinaryPred::PointsAt, 1, 0)));
    let x = cmp(CmpOp::Ge, points, int(1));
    let y = cmp(CmpOp::Ge, pointed, int(1));
    assert_eq!(
        simple(&x, &y, PieceSet::Arrows, &[]).verdict,
        Verdict::Equivalent
    );
}

#[test]
fn a_one_piece_difference_is_found_with_one_piece() {
    let h = some(UnaryPred::Small);
    let g = some(UnaryPred::Large);
    let c = simple(&h, &g, PieceSet::Pyramids, &[]);
    assert_eq!(shape_of(&c, &h, &g), (1, 1));
}

#[test]
fn golden_near_misses_have_their_exact_minimal_counterexamples() {
    // Only large pieces push the total over the bound fastest: 4 x 3 = 12 > 10.
    let cases = [
        (total_pips_at_most(10), tru(), (4, 4)),
        // 10 x 3 = 30 > 28; ten cells need a 2 x 5 box.
        (total_pips_at_most(28), tru(), (10, 10)),
        // 14 x 3 = 42 > 40; fourteen cells need 3 x 5 (2 x 7 is too wide).
        (total_pips_at_most(40), tru(), (14, 15)),
        // No small piece and at least 20 pieces: 4 x 5.
        (
            or(
                some(UnaryPred::Small),
                global(TermKind::Pieces, CmpOp::Ge, 20),
            ),
            some(UnaryPred::Small),
            (20, 20),
        ),
    ];
    for (h, g, want) in &cases {
        let c = simple(h, g, PieceSet::Pyramids, &[]);
        assert_eq!(shape_of(&c, h, g), *want, "{h:?}");
    }
}

#[test]
fn tabled_structures_are_avoided_unless_they_are_all_there_is() {
    let h = some(UnaryPred::Small);
    let g = some(UnaryPred::Large);
    // Every one-piece counterexample is on the table: the next simplest has two.
    let table: Vec<Koan> = Direction::ALL
        .iter()
        .flat_map(|&d| [Size::Small, Size::Large].map(|s| Piece::new(s, d)))
        .map(|p| Koan::new(PieceSet::Pyramids, [(0, 0, p)]).unwrap())
        .collect();
    let c = simple(&h, &g, PieceSet::Pyramids, &table);
    assert_eq!(shape_of(&c, &h, &g), (2, 2));

    // Exactly one piece, pointing up: the only counterexamples are three 1-piece ones.
    let h = and(global(TermKind::Pieces, CmpOp::Eq, 1), some(UnaryPred::Up));
    let g = f(mondo::lang::FormulaKind::Bool(false));
    let ups: Vec<Koan> = Size::ALL
        .iter()
        .map(|&s| Koan::new(PieceSet::Pyramids, [(0, 0, Piece::new(s, Direction::Up))]).unwrap())
        .collect();
    let c = simple(&h, &g, PieceSet::Pyramids, &ups);
    match c.verdict {
        Verdict::Counterexample(cx) => assert!(cx.on_table(&ups).is_some()),
        other => panic!("expected a tabled counterexample, got {other:?}"),
    }
    let c = simple(&h, &g, PieceSet::Pyramids, &ups[..2]);
    match c.verdict {
        Verdict::Counterexample(cx) => assert_eq!(cx.koan, ups[2]),
        other => panic!("expected the untabled one, got {other:?}"),
    }
}

#[test]
fn an_exhausted_budget_is_undecided_never_equivalent() {
    // Equivalent, but only a proof can tell: with no budget there is no proof. (No
    // structure separates them, so enumeration cannot answer, and the grounding
    // alone does not see that a piece pointing at another makes a piece pointed at.)
    let points = count(0, exists(1, rel(BinaryPred::PointsAt, 0, 1)));
    let pointed = count(0, exists(1, rel(BinaryPred::PointsAt, 1, 0)));
    let a = cmp(CmpOp::Ge, points, int(1));
    let b = cmp(CmpOp::Ge, pointed, int(1));
    let limits = Limits {
        conflicts: Some(0),
        ..Limits::default()
    };
    let v = finder::compare(&a, &b, PieceSet::Pyramids, &[], Style::Simple, 0, &limits);
    assert!(matches!(v, Verdict::Undecided { .. }), "{v:?}");
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let limits = Limits {
        interrupt: Some(flag),
        ..Limits::default()
    };
    match finder::compare(&a, &b, PieceSet::Pyramids, &[], Style::Simple, 0, &limits) {
        Verdict::Undecided { reason } => assert!(reason.contains("stopped"), "{reason}"),
        other => panic!("expected undecided, got {other:?}"),
    }
    // With the default budget it is proved.
    assert_eq!(
        simple(&a, &b, PieceSet::Pyramids, &[]).verdict,
        Verdict::Equivalent
    );
}

#[test]
fn varied_counterexamples_are_seeded_small_and_separate() {
    let h = some(UnaryPred::Small);
    let g = and(
        some(UnaryPred::Small),
        global(TermKind::Pieces, CmpOp::Le, 2),
    );
    let simplest = simple(&h, &g, PieceSet::Pyramids, &[]);
    assert_eq!(shape_of(&simplest, &h, &g), (3, 3));
    let mut seen = std::collections::HashSet::new();
    for seed in 0..8 {
        let run = || {
            finder::compare(
                &h,
                &g,
                PieceSet::Pyramids,
                &[],
                Style::Varied,
                seed,
                &Limits::default(),
            )
        };
        let v = run();
        assert_eq!(v, run(), "deterministic for a seed");
        let Verdict::Counterexample(cx) = v else {
            panic!("expected a counterexample")
        };
        assert_ne!(
            mondo::lang::evaluate(&h, &cx.koan),
            mondo::lang::evaluate(&g, &cx.koan)
        );
        assert!(cx.koan.len() <= 4 && cx.koan.area() <= 6, "{:?}", cx.koan);
        seen.insert(cx.koan);
    }
    assert!(seen.len() >= 4, "varied: {} distinct of 8", seen.len());
}
