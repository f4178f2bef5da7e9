use super::strategy::{closed_formula, koan};
use super::*;
use crate::koan::{Direction, Piece, PieceSet, Size};
use crate::lang::ast::groups;
use crate::lang::reference;
use proptest::prelude::*;

fn f(kind: FormulaKind) -> Formula {
    Formula::new(0..0, kind)
}
fn t(kind: TermKind) -> Term {
    Term::new(0..0, kind)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The heart of it: the fast evaluator and the reference agree on every formula.
    #[test]
    fn agrees_with_the_reference(
        formula in closed_formula(),
        koans in proptest::collection::vec(koan(10), 1..12),
    ) {
        let compiled = CompiledPattern::new(&formula);
        for k in &koans {
            prop_assert_eq!(
                compiled.evaluate(k),
                reference::evaluate(&formula, k),
                "on {:?}\nformula {:?}", k, formula
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Every precomputed mask against the one definition of each atom in `ast`.
    #[test]
    fn facts_match_the_definitions(k in koan(12)) {
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
