//! The grounding means what the evaluator means: every atom, term and structure-wide
//! quantity, grounded over the 6 x 6 window, is forced to the evaluator's value on every
//! structure of up to two pieces and on random larger ones (both sets).

mod finder_support;

use finder_support::*;
use mondo::finder::grounded_truths;
use mondo::koan::{Koan, PieceSet};
use mondo::lang::ast::{BinaryPred, CmpOp, Formula, Parity, TermKind, UnaryPred};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::IndexedRandom;

/// Every 1-piece structure; for every 2-cell shape, every piece pair (arrows) or 8
/// random pairs (pyramids; every pair on the 6 smallest shapes: side by side, one
/// above the other, one apart, diagonal); random structures of 1-8 pieces.
fn structures(set: PieceSet, random: usize) -> Vec<Koan> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut koans = Vec::new();
    for (rank, (cells, _)) in shapes(2).into_iter().enumerate() {
        let mut all = Vec::new();
        each_structure(set, &cells, &mut |k| {
            all.push(k.clone());
            false
        });
        if cells.len() == 2 && set == PieceSet::Pyramids && rank > 6 {
            all = all.sample(&mut rng, 8).cloned().collect();
        }
        koans.extend(all);
    }
    koans.extend((0..random).map(|_| mondo::lang::random::koan(&mut rng, set, 8)));
    koans
}

fn check_many(set: PieceSet, koans: &[Koan], formulas: &[(String, Formula)]) {
    let only: Vec<Formula> = formulas.iter().map(|(_, f)| f.clone()).collect();
    let truths = grounded_truths(&only, set, koans).expect("grounds");
    for (koan, row) in koans.iter().zip(truths) {
        for ((what, formula), got) in formulas.iter().zip(row) {
            let want = mondo::lang::evaluate(formula, koan);
            assert_eq!(got, Some(want), "{what} on {koan:?}");
        }
    }
}

#[test]
fn unary_predicates_match_the_evaluator() {
    for set in PieceSet::ALL {
        let koans = structures(set, 150);
        let formulas: Vec<(String, Formula)> = UnaryPred::ALL
            .iter()
            .map(|&p| {
                // Count them, so every cell's grounding matters; odd catches off-by-one.
                let c = count(0, un(p, 0));
                (
                    format!("count {p:?}"),
                    and(cmp(CmpOp::Ge, c.clone(), int(1)), parity(Parity::Odd, c)),
                )
            })
            .collect();
        let every: Vec<(String, Formula)> = UnaryPred::ALL
            .iter()
            .map(|&p| (format!("every {p:?}"), forall(0, un(p, 0))))
            .collect();
        check_many(set, &koans, &[formulas, every].concat());
    }
}

#[test]
fn binary_predicates_match_the_evaluator() {
    for set in PieceSet::ALL {
        let koans = structures(set, 150);
        let mut formulas = Vec::new();
        for &p in &BinaryPred::ALL {
            // Between distinct pieces, counted per subject, and of a piece with itself.
            let some_other = exists(1, and(not(same(0, 1)), rel(p, 0, 1)));
            formulas.push((
                format!("{p:?} other"),
                cmp(CmpOp::Ge, count(0, some_other), int(1)),
            ));
            let all_pairs = forall(0, forall(1, rel(p, 0, 1)));
            formulas.push((format!("{p:?} all pairs"), all_pairs));
            formulas.push((format!("{p:?} self"), exists(0, rel(p, 0, 0))));
            // Shapes the finder grounds through counts when the relation ignores
            // cells: reversed, without `x != y`, with conditions on both pieces.
            let reversed = exists(0, exists(1, and(un(UnaryPred::Small, 1), rel(p, 1, 0))));
            formulas.push((format!("{p:?} reversed"), reversed));
            let inner = exists(
                1,
                and(
                    and(not(same(1, 0)), rel(p, 0, 1)),
                    and(un(UnaryPred::Large, 1), un(UnaryPred::Vertical, 0)),
                ),
            );
            let counted = count(0, and(un(UnaryPred::Up, 0), inner));
            formulas.push((format!("{p:?} counted"), parity(Parity::Odd, counted)));
        }
        check_many(set, &koans, &formulas);
    }
}

#[test]
fn global_terms_match_the_evaluator() {
    let kinds = [
        TermKind::Pieces,
        TermKind::Width,
        TermKind::Height,
        TermKind::Groups,
        TermKind::Sizes,
        TermKind::Directions,
    ];
    for set in PieceSet::ALL {
        let koans = structures(set, 200);
        let mut formulas = Vec::new();
        for kind in &kinds {
            for n in 1..=4 {
                formulas.push((
                    format!("{kind:?} = {n}"),
                    global(kind.clone(), CmpOp::Eq, n),
                ));
            }
            formulas.push((format!("{kind:?} >= 5"), global(kind.clone(), CmpOp::Ge, 5)));
            formulas.push((
                format!("{kind:?} odd"),
                parity(Parity::Odd, t(kind.clone())),
            ));
        }
        // Pips: total, of a subset, of one piece, and arithmetic.
        formulas.push(("pips = 4".into(), cmp(CmpOp::Eq, pips(0, tru()), int(4))));
        formulas.push((
            "pips of vertical > 2".into(),
            cmp(CmpOp::Gt, pips(0, un(UnaryPred::Vertical, 0)), int(2)),
        ));
        formulas.push((
            "some piece has 2 pips".into(),
            exists(
                0,
                cmp(CmpOp::Eq, t(TermKind::PipsOf(mondo::lang::Var(0))), int(2)),
            ),
        ));
        formulas.push((
            "width - height + pieces even".into(),
            parity(
                Parity::Even,
                add(
                    sub(t(TermKind::Width), t(TermKind::Height)),
                    t(TermKind::Pieces),
                ),
            ),
        ));
        formulas.push((
            "pips < 2 * pieces".into(),
            cmp(
                CmpOp::Lt,
                pips(0, tru()),
                add(t(TermKind::Pieces), t(TermKind::Pieces)),
            ),
        ));
        // Differences of counts (cancelled cell by cell, or linked between counts).
        let (groups, pieces) = (t(TermKind::Groups), t(TermKind::Pieces));
        let vertical = count(0, un(UnaryPred::Vertical, 0));
        for (name, a, b) in [
            ("groups", groups.clone(), pieces.clone()),
            ("vertical", vertical.clone(), pieces.clone()),
            ("sizes", t(TermKind::Sizes), pieces.clone()),
            ("directions", t(TermKind::Directions), groups.clone()),
            (
                "pips",
                pips(0, tru()),
                add(vertical.clone(), pieces.clone()),
            ),
        ] {
            for op in [CmpOp::Eq, CmpOp::Lt, CmpOp::Ge] {
                formulas.push((format!("{name} {op:?}"), cmp(op, a.clone(), b.clone())));
            }
        }
        check_many(set, &koans, &formulas);
    }
}

#[test]
fn groups_match_on_every_three_piece_arrows_structure() {
    // Groups need room to be interesting: every 3-piece shape, one piece assignment.
    let koans: Vec<Koan> = shapes(3)
        .into_iter()
        .filter(|(c, _)| c.len() == 3)
        .map(|(cells, _)| {
            let mut out = None;
            each_structure(PieceSet::Arrows, &cells, &mut |k| {
                out = Some(k.clone());
                true
            });
            out.unwrap()
        })
        .collect();
    let formulas: Vec<(String, Formula)> = (1..=3)
        .map(|n| {
            (
                format!("groups = {n}"),
                global(TermKind::Groups, CmpOp::Eq, n),
            )
        })
        .collect();
    check_many(PieceSet::Arrows, &koans, &formulas);
}
