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
