//! The grounding means what the evaluator means: every atom, term and structure-wide
//! quantity, grounded over the 6 x 6 window, is forced to the evaluator's value on every
//! structure of up to two pieces and on random larger ones (both sets).

use crate::finder_support;

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
    use TermKind::{Directions, Groups, Height, Pieces, Sizes, Width};
    let kinds = [Pieces, Width, Height, Groups, Sizes, Directions];
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

/// A random formula that only looks at what the pieces are (sizes, directions,
/// relations between pieces that ignore cells, pips, equality), with `vars` nested
/// quantifiers of random kinds: the blocks the finder decides by class counts.
fn piecewise_formula(rng: &mut Xoshiro256PlusPlus, set: PieceSet, vars: u8) -> Formula {
    use rand::RngExt;
    // Sizes or directions, not both: with both, every piece is its own class and the
    // block is grounded over cells (as its 36^k bindings are then no worse).
    let sized = set == PieceSet::Pyramids && rng.random_bool(0.5);
    let relations: Vec<BinaryPred> = BinaryPred::ALL
        .iter()
        .copied()
        .filter(|p| {
            if sized {
                matches!(
                    p,
                    BinaryPred::SameSize | BinaryPred::Larger | BinaryPred::Smaller
                )
            } else {
                matches!(p, BinaryPred::SameDirection | BinaryPred::OppositeDirection)
            }
        })
        .collect();
    let unary: Vec<UnaryPred> = UnaryPred::ALL
        .iter()
        .copied()
        .filter(|p| p.is_local() && p.mentions_size() == sized)
        .collect();
    let atom = |rng: &mut Xoshiro256PlusPlus, bound: u8| {
        let a = rng.random_range(0..bound);
        let b = rng.random_range(0..bound);
        match rng.random_range(0..if sized { 5 } else { 4 }) {
            0 => not(same(a, b)),
            1 => un(*unary.choose(rng).unwrap(), a),
            2 | 3 => rel(*relations.choose(rng).unwrap(), a, b),
            _ => cmp(
                CmpOp::Ge,
                add(
                    t(TermKind::PipsOf(mondo::lang::Var(a))),
                    t(TermKind::PipsOf(mondo::lang::Var(b))),
                ),
                int(rng.random_range(2..=6)),
            ),
        }
    };
    // The innermost body over all variables, then the quantifiers, each level's body
    // mixing an atom about the variables bound so far.
    let mut body = atom(rng, vars);
    for _ in 0..rng.random_range(1..4) {
        let part = atom(rng, vars);
        body = if rng.random_bool(0.7) {
            and(body, part)
        } else {
            or(body, part)
        };
    }
    for v in (0..vars).rev() {
        body = if rng.random_bool(0.5) {
            exists(v, body)
        } else {
            forall(v, body)
        };
        if v > 0 && rng.random_bool(0.5) {
            let part = atom(rng, v);
            body = if rng.random_bool(0.5) {
                and(part, body)
            } else {
                or(part, body)
            };
        }
    }
    body
}

/// Blocks that only look at the pieces are decided from class counts, not cells: on
/// structures with many pieces of one class, random such blocks of 2 to 4 variables
/// (an outer variable included) mean what the evaluator says.
#[test]
fn blocks_decided_by_counts_match_the_evaluator() {
    use rand::RngExt;
    for set in PieceSet::ALL {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut koans = structures(set, 60);
        koans.extend((0..60).map(|_| mondo::lang::random::koan(&mut rng, set, 14)));
        // Many pieces of one kind: 4 to 6 pieces drawn from only two pieces of the set.
        for _ in 0..40 {
            let two: Vec<_> = set.pieces().sample(&mut rng, 2).copied().collect();
            let n = rng.random_range(4..=6);
            let placed: Vec<_> = (0..n)
                .map(|i| (i / 3, i % 3, two[rng.random_range(0..2)]))
                .collect();
            koans.push(Koan::new(set, placed).unwrap());
        }
        let mut formulas = vec![(
            "three of one size or direction".to_string(),
            exists(
                0,
                exists(
                    1,
                    exists(
                        2,
                        and(
                            and(not(same(0, 1)), and(not(same(1, 2)), not(same(0, 2)))),
                            and(
                                rel(BinaryPred::SameDirection, 0, 1),
                                rel(BinaryPred::SameDirection, 1, 2),
                            ),
                        ),
                    ),
                ),
            ),
        )];
        // An inner block about an outer piece (bound by a quantifier that looks at
        // cells): two other pieces of its direction, which needs counts told apart up
        // to three.
        let two_others = exists(
            1,
            exists(
                2,
                and(
                    and(not(same(1, 0)), and(not(same(2, 0)), not(same(1, 2)))),
                    and(
                        rel(BinaryPred::SameDirection, 1, 0),
                        rel(BinaryPred::SameDirection, 2, 0),
                    ),
                ),
            ),
        );
        formulas.push((
            "every topmost piece has two others of its direction".to_string(),
            forall(0, or(not(un(UnaryPred::Topmost, 0)), two_others)),
        ));
        for i in 0..40 {
            let vars = rng.random_range(2..=4);
            formulas.push((
                format!("random block {i}"),
                piecewise_formula(&mut rng, set, vars),
            ));
        }
        check_many(set, &koans, &formulas);
    }
}

/// "Another piece" far from where it is named (`w != x` where x is not in the rest of
/// w's conditions) is grounded by counting (more pieces satisfy the rest than the
/// excluded pieces that do): in both quantifiers, with one or several exclusions,
/// on the same cell or not, and with conditions that hold or fail at the excluded
/// pieces themselves.
#[test]
fn exclusions_counted_match_the_evaluator() {
    let read = |text: &str| mondo::lang::parse_symbolic(text).unwrap().formula;
    for set in PieceSet::ALL {
        let koans = structures(set, 60);
        let texts = [
            "exists x y z w. points_at(x,y) & points_at(y,z) & points_at(z,w) & x != z & y != w & x != w",
            "forall x. exists y. touches(x, y) & exists z. z != x & z != y & up(z)",
            "exists x y. x != y & (forall z. z = x | z = y | right(z))",
            "forall x y. exists z. z != x & z != y & (up(z) | touches(z, x))",
            "count(x: exists y z. same_row(x, y) & z != x & z != y & vertical(z)) >= 2",
            "exists x. forall y. y = x | !(exists z. z != x & z != y & same_column(y, z))",
            "exists x y. x = y & exists z. z != x & z != y & left(z)",
        ];
        let formulas: Vec<(String, Formula)> =
            texts.iter().map(|t| (t.to_string(), read(t))).collect();
        check_many(set, &koans, &formulas);
    }
}
