//! The arithmetic terms `k * t` and `t % k` (docs/patterns.md, "The symbolic form"): how the
//! symbolic form reads and prints them, what they mean, and that the finder's
//! grounding means the same as the evaluator.

use mondo::finder::{self, Limits, Style, Verdict};
use mondo::koan::enumerate::koans;
use mondo::koan::{Koan, PieceSet};
use mondo::lang::ast::TermKind;
use mondo::lang::random;
use mondo::lang::{FormulaKind, evaluate, parse, parse_symbolic, same_tree, symbolic};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn read(text: &str) -> mondo::lang::Formula {
    parse_symbolic(text)
        .unwrap_or_else(|e| panic!("{}", e.render(text)))
        .formula
}

#[test]
fn products_and_remainders_read_bind_and_print() {
    // `*` and `%` bind tighter than `+` / `-`, left to right; either side of `*` may
    // be the integer, and the print puts it first.
    let cases = [
        (
            "2 * count(x: small(x)) = pieces",
            "2 * count(x: small(x)) = pieces",
        ),
        (
            "count(x: small(x)) * 2 = pieces",
            "2 * count(x: small(x)) = pieces",
        ),
        ("pips(x: true) % 3 = 0", "pips(x: true) % 3 = 0"),
        ("1 + 2 * width % 4 = 3", "1 + 2 * width % 4 = 3"),
        ("2 * (width + 1) = 6", "2 * (width + 1) = 6"),
        ("(width + height) % 2 = 1", "(width + height) % 2 = 1"),
        ("3 * (2 * pieces) = 6", "3 * (2 * pieces) = 6"),
        ("2 * (pieces % 3) = 2", "2 * (pieces % 3) = 2"),
        ("width - 2 * height = 0", "width - 2 * height = 0"),
        ("-1 * width < 0", "-1 * width < 0"),
    ];
    for (text, printed) in cases {
        let f = read(text);
        assert_eq!(symbolic(&f), printed, "{text}");
        assert!(same_tree(&f, &read(printed)), "{text}");
    }
    let FormulaKind::Cmp(_, t, _) = read("1 + 2 * width % 4 = 3").kind else {
        panic!("a comparison")
    };
    let TermKind::Add(_, rest) = t.kind else {
        panic!("a sum")
    };
    assert!(matches!(rest.kind, TermKind::Mod(..)), "{rest:?}");
}

#[test]
fn products_and_remainders_are_refused_where_they_mean_nothing() {
    for (text, at) in [
        ("width * height = 4", "*"),
        ("pieces % 0 = 0", "0"),
        ("pieces % width = 0", "width"),
        ("pieces % -2 = 0", "-"),
    ] {
        let e = parse_symbolic(text).expect_err(text);
        assert_eq!(&text[e.span.clone()], at, "{}", e.render(text));
    }
}

#[test]
fn products_and_remainders_mean_what_they_say() {
    let k = |s: &str| -> Koan { s.parse().expect("structure") };
    let holds = |p: &str, s: &str| evaluate(&read(p), &k(s));
    assert!(holds("2 * count(x: small(x)) = pieces", "1^ 3^"));
    assert!(!holds("2 * count(x: small(x)) = pieces", "1^ 3^ 3^"));
    assert!(holds("pips(x: true) % 3 = 0", "1^ 2^"));
    assert!(holds("pips(x: true) % 3 = 1", "1^ 3^"));
    assert!(holds("(width - 3) % 2 = 0", "1^"));
    // The remainder is Euclidean: 1 - 4 = -3 is a multiple of three.
    assert!(holds("(pieces - 4) % 3 = 0", "1^"));
    assert!(holds("-1 * pieces = 0 - 2", "1^ 1^"));
}

/// The grounding is forced to the evaluator's value on every one-piece structure, on
/// one two-piece structure in 25 and on random ones, for terms whose values straddle
/// the quotient's steps.
#[test]
fn the_finder_grounds_them_as_the_evaluator_reads_them() {
    let formulas: Vec<_> = [
        "pips(x: true) % 3 = 0",
        "pips(x: true) % 3 = 2",
        "pieces % 2 = 1",
        "(width - height) % 3 = 1",
        "(pieces - 4) % 3 = 0",
        "exists x. count(y: y != x & touches(x, y)) % 2 = 1",
        "exists x. (pips(x) + 1) % 2 = 0",
        "2 * count(x: small(x)) = pieces",
        "2 * count(x: up(x)) > count(x: true)",
        "3 * count(x: large(x)) - pips(x: true) >= 0",
        "-1 * width + height < 0",
        "2 * (pieces % 2) = 2",
        "(2 * pieces) % 4 = 2",
    ]
    .iter()
    .map(|s| read(s))
    .collect();
    let mut structures: Vec<Koan> = koans(PieceSet::Pyramids, 1).collect();
    structures.extend(koans(PieceSet::Pyramids, 2).step_by(25));
    let mut rng = StdRng::seed_from_u64(11);
    structures.extend((0..120).map(|_| random::koan(&mut rng, PieceSet::Pyramids, 9)));
    let truths =
        finder::grounded_truths(&formulas, PieceSet::Pyramids, &structures).expect("grounds");
    for (koan, row) in structures.iter().zip(truths) {
        for (f, got) in formulas.iter().zip(row) {
            assert_eq!(got, Some(evaluate(f, koan)), "{} on {koan:?}", symbolic(f));
        }
    }
}

#[test]
fn the_finder_proves_and_refutes_them() {
    let limits = Limits::default();
    let compare = |a: &str, b: &str| {
        finder::compare(
            &read(a),
            &read(b),
            PieceSet::Pyramids,
            &[],
            Style::Simple,
            0,
            &limits,
        )
    };
    for (a, b) in [
        ("pieces % 2 = 0", "even(pieces)"),
        (
            "2 * count(x: up(x)) = pieces",
            "count(x: up(x)) = count(x: !up(x))",
        ),
        ("pips(x: true) % 1 = 0", "true"),
    ] {
        assert_eq!(compare(a, b), Verdict::Equivalent, "{a} vs {b}");
    }
    for (a, b) in [
        ("pieces % 3 = 0", "even(pieces)"),
        (
            "2 * count(x: up(x)) >= pieces",
            "count(x: up(x)) > count(x: !up(x))",
        ),
    ] {
        match compare(a, b) {
            Verdict::Counterexample(c) => {
                assert_ne!(evaluate(&read(a), &c.koan), evaluate(&read(b), &c.koan))
            }
            other => panic!("{a} vs {b}: {other:?}"),
        }
    }
    // A multiplier too large to count with is undecided, never wrong.
    let huge = "1000000 * count(x: up(x)) > 5";
    assert!(matches!(
        compare(huge, "exists x. up(x)"),
        Verdict::Undecided { .. }
    ));
    assert!(parse(huge).is_ok());
}
