use super::*;
use crate::koan::{Direction, Piece, PieceSet, Size};
use crate::lang::ast::groups;
use crate::lang::random::{self, GenConfig};
use crate::lang::reference;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn f(kind: FormulaKind) -> Formula {
    Formula::new(0..0, kind)
}
fn t(kind: TermKind) -> Term {
    Term::new(0..0, kind)
}

/// Renames every variable `v` (binders and uses alike) to `v % m`. The formula stays
/// closed, but quantifiers now rebind variables that outer ones bound: shadowing,
/// which the random generator never produces on its own.
fn fold_vars(formula: &mut Formula, m: u8) {
    let fold = |v: &mut Var| v.0 %= m;
    match &mut formula.kind {
        FormulaKind::Bool(_) => {}
        FormulaKind::Not(a) => fold_vars(a, m),
        FormulaKind::Bin(_, a, b) => {
            fold_vars(a, m);
            fold_vars(b, m);
        }
        FormulaKind::Forall(v, a) | FormulaKind::Exists(v, a) => {
            fold(v);
            fold_vars(a, m);
        }
        FormulaKind::Unary(_, v) => fold(v),
        FormulaKind::Binary(_, a, b) | FormulaKind::Same(a, b) => {
            fold(a);
            fold(b);
        }
        FormulaKind::Cmp(_, a, b) => {
            fold_term_vars(a, m);
            fold_term_vars(b, m);
        }
        FormulaKind::Parity(_, a) => fold_term_vars(a, m),
    }
}

fn fold_term_vars(term: &mut Term, m: u8) {
    match &mut term.kind {
        TermKind::Count(v, a) | TermKind::PipsSum(v, a) => {
            v.0 %= m;
            fold_vars(a, m);
        }
        TermKind::PipsOf(v) => v.0 %= m,
        TermKind::Add(a, b) | TermKind::Sub(a, b) => {
            fold_term_vars(a, m);
            fold_term_vars(b, m);
        }
        TermKind::Mul(_, a) | TermKind::Mod(a, _) => fold_term_vars(a, m),
        _ => {}
    }
}

fn set(pyramids: bool) -> PieceSet {
    if pyramids {
        PieceSet::Pyramids
    } else {
        PieceSet::Arrows
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The heart of it: the fast evaluator and the reference agree, on random closed
    /// formulas (every node kind, nested quantifiers, count and pips terms; with
    /// `shadow`, rebound variables too) and random structures of 1 to 10 pieces of
    /// either set.
    #[test]
    fn agrees_with_the_reference(
        seed: u64,
        max_depth in 1u32..=5,
        max_vars in 1u8..=4,
        pyramid_formula: bool,
        shadow: bool,
    ) {
        let mut rng = StdRng::seed_from_u64(seed);
        let cfg = GenConfig { set: set(pyramid_formula), max_depth, max_vars, max_int: 12 };
        // Every node kind includes `*` and `%`.
        let mut formula = random::formula_with_arithmetic(&mut rng, &cfg);
        if shadow {
            fold_vars(&mut formula, 2);
        }
        let compiled = CompiledPattern::new(&formula);
        for _ in 0..10 {
            let koan_set = set(rng.random_bool(0.5));
            let k = random::koan(&mut rng, koan_set, 10);
            prop_assert_eq!(
                compiled.evaluate(&k),
                reference::evaluate(&formula, &k),
                "on {:?}\nformula {:?}", k, formula
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// `Q x. Q y. (C op A)` where C is a random closed formula whose every quantifier
    /// binds x again, and A reads the outer x and y: after C has run, x must be the
    /// outer piece again. (Random formulas rarely nest this way by themselves.)
    #[test]
    fn a_rebound_variable_is_restored(
        seed: u64,
        outer in any::<[bool; 2]>(),
        c_first: bool,
        op in proptest::sample::select(vec![BinOp::And, BinOp::Or, BinOp::Xor, BinOp::Implies, BinOp::Iff]),
        atom in 0usize..4,
    ) {
        let mut rng = StdRng::seed_from_u64(seed);
        let cfg = GenConfig { max_depth: 4, max_vars: 2, ..GenConfig::default() };
        let mut inner = random::formula(&mut rng, &cfg);
        fold_vars(&mut inner, 1);
        let (x, y) = (Var(0), Var(1));
        let reads_x = f(match atom {
            0 => FormulaKind::Unary(UnaryPred::ALL[seed as usize % UnaryPred::ALL.len()], x),
            1 => FormulaKind::Binary(BinaryPred::ALL[seed as usize % BinaryPred::ALL.len()], x, y),
            2 => FormulaKind::Same(x, y),
            _ => FormulaKind::Cmp(CmpOp::Lt, t(TermKind::PipsOf(x)), t(TermKind::PipsOf(y))),
        });
        let (a, b) = if c_first { (inner, reads_x) } else { (reads_x, inner) };
        let body = f(FormulaKind::Bin(op, Box::new(a), Box::new(b)));
        let quantify = |universal: bool, v, body| {
            f(if universal { FormulaKind::Forall(v, Box::new(body)) } else { FormulaKind::Exists(v, Box::new(body)) })
        };
        let formula = quantify(outer[0], x, quantify(outer[1], y, body));
        let compiled = CompiledPattern::new(&formula);
        for _ in 0..10 {
            let k = random::koan(&mut rng, PieceSet::Pyramids, 8);
            prop_assert_eq!(
                compiled.evaluate(&k),
                reference::evaluate(&formula, &k),
                "on {:?}\nformula {:?}", k, formula
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Every precomputed mask against the one definition of each atom in `ast`.
    #[test]
    fn facts_match_the_definitions(seed: u64, pyramids: bool) {
        let k = random::koan(&mut StdRng::seed_from_u64(seed), set(pyramids), 14);
        let facts = Facts::new(&k);
        let pieces = k.pieces();
        let n = k.len();
        prop_assert_eq!(facts.all().count_ones() as usize, n);
        for p in UnaryPred::ALL {
            for i in 0..n {
                prop_assert_eq!(facts.unary(p) >> i & 1 == 1, p.holds(&k, i), "{:?} piece {}", p, i);
            }
            prop_assert_eq!(facts.unary(p) & !facts.all(), 0);
        }
        for p in BinaryPred::ALL {
            for i in 0..n {
                for j in 0..n {
                    let truth = p.holds(pieces[i], pieces[j]);
                    prop_assert_eq!(facts.row(p, i) >> j & 1 == 1, truth, "{:?}({}, {}) row", p, i, j);
                    prop_assert_eq!(facts.column(p, j) >> i & 1 == 1, truth, "{:?}({}, {}) column", p, i, j);
                }
            }
        }
        for kind in [
            TermKind::Pieces,
            TermKind::Width,
            TermKind::Height,
            TermKind::Groups,
            TermKind::Sizes,
            TermKind::Directions,
        ] {
            prop_assert_eq!(facts.global_value(&kind), kind.global_value(&k), "{:?}", kind);
        }
        prop_assert_eq!(facts.global_value(&TermKind::Groups), Some(groups(&k) as i64));
        let everything = facts.all();
        prop_assert_eq!(facts.pips(everything), k.total_pips() as i64);
    }
}

fn pyramids(cells: &[(i32, i32, Size, Direction)]) -> Koan {
    Koan::new(
        PieceSet::Pyramids,
        cells.iter().map(|&(r, c, s, d)| (r, c, Piece::new(s, d))),
    )
    .unwrap()
}

#[test]
fn a_quantifier_may_shadow_an_outer_variable() {
    use Direction::*;
    use Size::*;
    // exists x. exists y. ((exists x. even(pips(x))) & up(x)): after the inner
    // quantifier, x must be the outer piece again. (The `exists y` makes the outer
    // body a quantifier, so x is bound piece by piece rather than set-wise.)
    let (x, y) = (Var(0), Var(1));
    let inner = f(FormulaKind::Exists(
        x,
        Box::new(f(FormulaKind::Parity(Parity::Even, t(TermKind::PipsOf(x))))),
    ));
    let body = f(FormulaKind::Bin(
        BinOp::And,
        Box::new(inner),
        Box::new(f(FormulaKind::Unary(UnaryPred::Up, x))),
    ));
    let formula = f(FormulaKind::Exists(
        x,
        Box::new(f(FormulaKind::Exists(y, Box::new(body)))),
    ));
    // Only piece 1 points up, and only piece 0 has even pips: an inner binding that
    // leaked (to piece 0, where the inner search stops) would make the answer false.
    let k = pyramids(&[(0, 0, Medium, Down), (0, 1, Small, Up)]);
    assert!(reference::evaluate(&formula, &k));
    assert!(CompiledPattern::new(&formula).evaluate(&k));
}

#[test]
fn counts_and_pips_of_pieces_touching_a_large_one() {
    use Direction::*;
    use Size::*;
    // 3^ 1>
    // 2v ..
    let k = pyramids(&[
        (0, 0, Large, Up),
        (0, 1, Small, Right),
        (1, 0, Medium, Down),
    ]);
    let (x, y) = (Var(0), Var(1));
    let touches_large = f(FormulaKind::Exists(
        y,
        Box::new(f(FormulaKind::Bin(
            BinOp::And,
            Box::new(f(FormulaKind::Binary(BinaryPred::Touches, x, y))),
            Box::new(f(FormulaKind::Unary(UnaryPred::Large, y))),
        ))),
    ));
    let count = |body: &Formula, n: i64| {
        f(FormulaKind::Cmp(
            CmpOp::Eq,
            t(TermKind::Count(x, Box::new(body.clone()))),
            t(TermKind::Int(n)),
        ))
    };
    let pips = |body: &Formula, n: i64| {
        f(FormulaKind::Cmp(
            CmpOp::Eq,
            t(TermKind::PipsSum(x, Box::new(body.clone()))),
            t(TermKind::Int(n)),
        ))
    };
    assert!(CompiledPattern::new(&count(&touches_large, 2)).evaluate(&k));
    assert!(!CompiledPattern::new(&count(&touches_large, 3)).evaluate(&k));
    assert!(CompiledPattern::new(&pips(&touches_large, 3)).evaluate(&k));
    assert!(evaluate_via_entry_point(&pips(&touches_large, 3), &k));
}

fn evaluate_via_entry_point(formula: &Formula, k: &Koan) -> bool {
    crate::lang::evaluate(formula, k)
}

#[test]
#[should_panic(expected = "outside its quantifier")]
fn an_open_formula_is_a_bug() {
    CompiledPattern::new(&f(FormulaKind::Unary(UnaryPred::Small, Var(3))));
}

/// A block of `k` quantifiers of one kind over a random mix of parts: atoms between the
/// block's variables (and an outer one), random closed subformulas, and random
/// subformulas over one of the variables; so that mini-scoping has groups to split,
/// parts to move out, and `|` / `->` to see through.
fn block(rng: &mut StdRng, k: u8, universal: bool) -> Formula {
    let vars: Vec<Var> = (1..=k).map(Var).collect();
    let atom = |rng: &mut StdRng| {
        let a = vars[rng.random_range(0..vars.len())];
        let b = if rng.random_bool(0.2) {
            Var(0)
        } else {
            vars[rng.random_range(0..vars.len())]
        };
        match rng.random_range(0..5) {
            0 => f(FormulaKind::Same(a, b)),
            1 => f(FormulaKind::Unary(
                UnaryPred::ALL[rng.random_range(0..UnaryPred::ALL.len())],
                a,
            )),
            2 => {
                let inner = random::formula(
                    rng,
                    &GenConfig {
                        max_depth: 2,
                        max_vars: 2,
                        ..GenConfig::default()
                    },
                );
                f(FormulaKind::Bin(
                    BinOp::And,
                    Box::new(inner),
                    Box::new(f(FormulaKind::Unary(UnaryPred::Up, a))),
                ))
            }
            _ => f(FormulaKind::Binary(
                BinaryPred::ALL[rng.random_range(0..BinaryPred::ALL.len())],
                a,
                b,
            )),
        }
    };
    let mut body = atom(rng);
    for _ in 0..rng.random_range(1..6) {
        let part = atom(rng);
        let part = if rng.random_bool(0.2) {
            f(FormulaKind::Not(Box::new(part)))
        } else {
            part
        };
        let op = [
            BinOp::And,
            BinOp::And,
            BinOp::Or,
            BinOp::Implies,
            BinOp::Iff,
        ][rng.random_range(0..5)];
        body = if rng.random_bool(0.5) {
            f(FormulaKind::Bin(op, Box::new(body), Box::new(part)))
        } else {
            f(FormulaKind::Bin(op, Box::new(part), Box::new(body)))
        };
    }
    for &v in vars.iter().rev() {
        body = f(if universal {
            FormulaKind::Forall(v, Box::new(body))
        } else {
            FormulaKind::Exists(v, Box::new(body))
        });
    }
    // The outer variable, bound by the other kind of quantifier.
    f(if universal {
        FormulaKind::Exists(Var(0), Box::new(body))
    } else {
        FormulaKind::Forall(Var(0), Box::new(body))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(800))]

    /// Mini-scoping keeps the meaning: the pushed-in formula has the reference truth of
    /// the original, on blocks of up to four quantifiers built to have parts to move.
    #[test]
    fn miniscoping_keeps_the_meaning(seed: u64, k in 1u8..=4, universal: bool, shadow: bool) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut formula = block(&mut rng, k, universal);
        if shadow {
            fold_vars(&mut formula, 3);
        }
        let pushed = miniscope(&formula);
        let compiled = CompiledPattern::new(&formula);
        for _ in 0..8 {
            let k = random::koan(&mut rng, PieceSet::Pyramids, 6);
            let want = reference::evaluate(&formula, &k);
            prop_assert_eq!(reference::evaluate(&pushed, &k), want, "pushed {:?}\nfrom {:?}\non {:?}", pushed, formula, k);
            prop_assert_eq!(compiled.evaluate(&k), want, "on {:?}\nformula {:?}", k, formula);
        }
    }
}

/// Every cell of the 6 x 6 window, pieces cycling through the set.
fn full_board() -> Koan {
    let pieces = PieceSet::Pyramids.pieces();
    Koan::new(
        PieceSet::Pyramids,
        (0..36).map(|i| (i / 6, i % 6, pieces[(i as usize * 5) % pieces.len()])),
    )
    .unwrap()
}

/// `every piece touches a piece that touches a piece ... that points up`, as the
/// English reading builds it: `forall x0. exists x1. x1 != x0 & (...) & touches(x0, x1)`.
fn touch_chain(depth: u8) -> Formula {
    let mut inner = f(FormulaKind::Unary(UnaryPred::Up, Var(depth)));
    for level in (1..=depth).rev() {
        let (prev, here) = (Var(level - 1), Var(level));
        let other = f(FormulaKind::Not(Box::new(f(FormulaKind::Same(here, prev)))));
        let touch = f(FormulaKind::Binary(BinaryPred::Touches, prev, here));
        let body = f(FormulaKind::Bin(
            BinOp::And,
            Box::new(f(FormulaKind::Bin(
                BinOp::And,
                Box::new(other),
                Box::new(inner),
            ))),
            Box::new(touch),
        ));
        inner = f(FormulaKind::Exists(here, Box::new(body)));
    }
    f(FormulaKind::Forall(Var(0), Box::new(inner)))
}

/// The work of a nested chain on a full board grows with its depth, not 36^depth: each
/// level is decided once per piece (a machine-independent step count, so the test
/// cannot be fooled by a fast machine; the timing is in `benches/eval.rs`).
#[test]
fn a_deep_chain_costs_its_length_on_a_full_board() {
    let board = full_board();
    let facts = Facts::new(&board);
    let steps = |depth: u8| {
        let formula = touch_chain(depth);
        let (truth, steps) = CompiledPattern::new(&formula).evaluate_counting(&facts);
        assert_eq!(truth, reference_if_small(&formula, &board, depth));
        steps
    };
    let (s4, s8, s40) = (steps(4), steps(8), steps(40));
    // Linear: ten times deeper costs about ten times more (36 pieces per level).
    assert!(s40 <= 12 * s4, "{s4} steps at depth 4, {s40} at depth 40");
    assert!(s8 <= 3 * s4, "{s4} steps at depth 4, {s8} at depth 8");
    assert!(s40 <= 40 * 36 * 60, "{s40} steps at depth 40");
}

/// The chain's truth computed another way: the pieces with a walk of exactly `depth`
/// steps to an up-pointing piece, level by level (a walk may step back, as the
/// pattern allows: only consecutive pieces must differ, and touching ones do).
fn reference_if_small(_formula: &Formula, koan: &Koan, depth: u8) -> bool {
    let pieces = koan.pieces();
    let mut reach: Vec<bool> = pieces.iter().map(|(_, p)| p.dir == Direction::Up).collect();
    for _ in 0..depth {
        reach = (0..pieces.len())
            .map(|i| {
                (0..pieces.len())
                    .any(|j| reach[j] && BinaryPred::Touches.holds(pieces[i], pieces[j]))
            })
            .collect();
    }
    reach.iter().all(|r| *r)
}

/// A prenex block as a player types it (`exists x y z w. points_at(x, y) & ...`) is
/// mini-scoped into a chain, and so costs far less than its 36^4 bindings.
#[test]
fn a_prenex_block_is_decided_without_trying_every_binding() {
    let board = full_board();
    let facts = Facts::new(&board);
    let s = crate::lang::parse_symbolic(
        "exists x y z w u. touches(x, y) & touches(y, z) & touches(z, w) & touches(w, u) & touches(u, x) & x != z",
    )
    .unwrap();
    let (truth, steps) = CompiledPattern::new(&s.formula).evaluate_counting(&facts);
    // A closed walk of odd length is impossible on a grid: never true.
    assert!(!truth);
    assert!(steps < 36 * 36 * 36 * 10, "{steps} steps");
}

/// A random block of `vars` nested quantifiers that only looks at what the pieces are
/// (sizes or directions, relations that ignore cells, pips, equality).
fn piecewise_block(rng: &mut StdRng, vars: u8) -> Formula {
    let sized = rng.random_bool(0.5);
    let relations: &[BinaryPred] = if sized {
        &[
            BinaryPred::SameSize,
            BinaryPred::Larger,
            BinaryPred::Smaller,
        ]
    } else {
        &[BinaryPred::SameDirection, BinaryPred::OppositeDirection]
    };
    let unary: Vec<UnaryPred> = UnaryPred::ALL
        .iter()
        .copied()
        .filter(|p| p.is_local() && p.mentions_size() == sized)
        .collect();
    let atom = |rng: &mut StdRng, bound: u8| {
        let (a, b) = (
            Var(rng.random_range(0..bound)),
            Var(rng.random_range(0..bound)),
        );
        match rng.random_range(0..5) {
            0 => f(FormulaKind::Not(Box::new(f(FormulaKind::Same(a, b))))),
            1 => f(FormulaKind::Unary(
                unary[rng.random_range(0..unary.len())],
                a,
            )),
            2 if sized => f(FormulaKind::Cmp(
                CmpOp::Ge,
                t(TermKind::Add(
                    Box::new(t(TermKind::PipsOf(a))),
                    Box::new(t(TermKind::PipsOf(b))),
                )),
                t(TermKind::Int(rng.random_range(2..=6))),
            )),
            _ => f(FormulaKind::Binary(
                relations[rng.random_range(0..relations.len())],
                a,
                b,
            )),
        }
    };
    let mut body = atom(rng, vars);
    for _ in 0..rng.random_range(1..5) {
        let op = if rng.random_bool(0.7) {
            BinOp::And
        } else {
            BinOp::Or
        };
        body = f(FormulaKind::Bin(
            op,
            Box::new(body),
            Box::new(atom(rng, vars)),
        ));
    }
    for v in (0..vars).rev() {
        body = f(if rng.random_bool(0.5) {
            FormulaKind::Exists(Var(v), Box::new(body))
        } else {
            FormulaKind::Forall(Var(v), Box::new(body))
        });
    }
    body
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Blocks decided from class counts agree with the reference, on structures with
    /// many pieces of few kinds (where counts matter) and on random ones.
    #[test]
    fn blocks_decided_by_counts_agree_with_the_reference(seed: u64, vars in 2u8..=4, arrows: bool) {
        let mut rng = StdRng::seed_from_u64(seed);
        let formula = piecewise_block(&mut rng, vars);
        let compiled = CompiledPattern::new(&formula);
        let koan_set = if arrows { PieceSet::Arrows } else { PieceSet::Pyramids };
        for round in 0..6 {
            let k = if round % 2 == 0 {
                random::koan(&mut rng, koan_set, 9)
            } else {
                let pieces = koan_set.pieces();
                let two = [pieces[rng.random_range(0..pieces.len())], pieces[rng.random_range(0..pieces.len())]];
                let n = rng.random_range(1..=7);
                Koan::new(koan_set, (0..n).map(|i| (i / 4, i % 4, two[rng.random_range(0..2)]))).unwrap()
            };
            prop_assert_eq!(
                compiled.evaluate(&k),
                reference::evaluate(&formula, &k),
                "on {:?}\nformula {:?}", k, formula
            );
        }
    }
}
