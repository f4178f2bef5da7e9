//! Cheap exact simplification before grounding: every number term gets the range of
//! values it can take on any structure of the set, and a comparison that those ranges
//! decide becomes `true` or `false`; the constants then fold through the connectives
//! and quantifiers.
//!
//! So `there are at least 2000000000000 pieces` is `false` before the grounding sees
//! it (a structure has at most 36 pieces), where it used to stop the grounding as "a
//! number too large to reason about exactly", and `the width is at most 6` costs
//! nothing. The ranges follow the evaluator's arithmetic exactly: it adds and
//! subtracts with saturation at the 64-bit limits, and saturating addition and
//! subtraction are monotone in each argument, so the bounds of a sum are the
//! (saturated) sums of the bounds.

use crate::koan::{Direction, MAX_CELLS, MAX_SIDE, PieceSet, Size};
use crate::lang::ast::{BinOp, CmpOp, Formula, FormulaKind, Parity, Term, TermKind};

/// The formula with every comparison that no structure of the set can make true (or
/// false) replaced by the constant, and constants folded.
pub(crate) fn simplify(f: &Formula, set: PieceSet) -> Formula {
    Simplifier { set }.formula(f)
}

/// Smallest and largest value a term can take (on the evaluator's saturating
/// arithmetic), inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Range {
    pub lo: i64,
    pub hi: i64,
}

impl Range {
    fn point(n: i64) -> Range {
        Range { lo: n, hi: n }
    }
}

struct Simplifier {
    set: PieceSet,
}

/// The most groups a 6 x 6 window holds: one cell of each group, taken together, touch
/// no other, and the largest such set of cells is a checkerboard's 18.
const MAX_GROUPS: i64 = (MAX_CELLS / 2) as i64;

impl Simplifier {
    fn pips_range(&self) -> Range {
        let pips = self.set.pieces().iter().map(|p| p.pips() as i64);
        Range {
            lo: pips.clone().min().unwrap_or(1),
            hi: pips.max().unwrap_or(1),
        }
    }

    /// How many different sizes and directions the set's pieces have.
    fn kinds(&self, sizes: bool) -> i64 {
        let pieces = self.set.pieces();
        if sizes {
            Size::ALL
                .iter()
                .filter(|s| pieces.iter().any(|p| p.size == **s))
                .count() as i64
        } else {
            Direction::ALL
                .iter()
                .filter(|d| pieces.iter().any(|p| p.dir == **d))
                .count() as i64
        }
    }

    fn formula(&self, f: &Formula) -> Formula {
        let mk = |kind| Formula::new(f.span.clone(), kind);
        let constant = |b| Formula::new(f.span.clone(), FormulaKind::Bool(b));
        match &f.kind {
            FormulaKind::Bool(_)
            | FormulaKind::Unary(..)
            | FormulaKind::Binary(..)
            | FormulaKind::Same(..) => f.clone(),
            FormulaKind::Not(a) => match self.formula(a) {
                Formula {
                    kind: FormulaKind::Bool(b),
                    ..
                } => constant(!b),
                a => mk(FormulaKind::Not(Box::new(a))),
            },
            FormulaKind::Bin(op, a, b) => {
                let (a, b) = (self.formula(a), self.formula(b));
                match (op, as_bool(&a), as_bool(&b)) {
                    (BinOp::And, Some(false), _) | (BinOp::And, _, Some(false)) => constant(false),
                    (BinOp::Or, Some(true), _) | (BinOp::Or, _, Some(true)) => constant(true),
                    (BinOp::Implies, Some(false), _) | (BinOp::Implies, _, Some(true)) => {
                        constant(true)
                    }
                    (BinOp::And | BinOp::Or, Some(_), _) => b,
                    (BinOp::And | BinOp::Or, _, Some(_)) => a,
                    (BinOp::Implies, Some(true), _) => b,
                    (BinOp::Implies, _, Some(false)) => negate(a),
                    (BinOp::Xor, Some(x), Some(y)) => constant(x != y),
                    (BinOp::Iff, Some(x), Some(y)) => constant(x == y),
                    (BinOp::Xor, Some(x), None) | (BinOp::Iff, Some(x), None) => {
                        if x == (*op == BinOp::Xor) {
                            negate(b)
                        } else {
                            b
                        }
                    }
                    (BinOp::Xor, None, Some(y)) | (BinOp::Iff, None, Some(y)) => {
                        if y == (*op == BinOp::Xor) {
                            negate(a)
                        } else {
                            a
                        }
                    }
                    _ => mk(FormulaKind::Bin(*op, Box::new(a), Box::new(b))),
                }
            }
            // A structure always has a piece, so a quantifier over a constant is it.
            FormulaKind::Forall(v, body) => match self.formula(body) {
                Formula {
                    kind: FormulaKind::Bool(b),
                    ..
                } => constant(b),
                body => mk(FormulaKind::Forall(*v, Box::new(body))),
            },
            FormulaKind::Exists(v, body) => match self.formula(body) {
                Formula {
                    kind: FormulaKind::Bool(b),
                    ..
                } => constant(b),
                body => mk(FormulaKind::Exists(*v, Box::new(body))),
            },
            FormulaKind::Cmp(op, a, b) => {
                let (a, ra) = self.term(a);
                let (b, rb) = self.term(b);
                match decide(*op, ra, rb) {
                    Some(truth) => constant(truth),
                    None => mk(FormulaKind::Cmp(*op, a, b)),
                }
            }
            FormulaKind::Parity(p, t) => {
                let (t, r) = self.term(t);
                if r.lo == r.hi {
                    constant((r.lo.rem_euclid(2) == 0) == (*p == Parity::Even))
                } else {
                    mk(FormulaKind::Parity(*p, t))
                }
            }
        }
    }

    /// The simplified term and its range; a term with one possible value becomes it.
    fn term(&self, t: &Term) -> (Term, Range) {
        let pieces = Range {
            lo: 1,
            hi: MAX_CELLS as i64,
        };
        let (term, range) = match &t.kind {
            TermKind::Int(n) => (t.clone(), Range::point(*n)),
            TermKind::Count(v, body) | TermKind::PipsSum(v, body) => {
                let pips = matches!(t.kind, TermKind::PipsSum(..));
                let body = self.formula(body);
                let most = if pips {
                    MAX_CELLS as i64 * self.pips_range().hi
                } else {
                    MAX_CELLS as i64
                };
                let range = match as_bool(&body) {
                    Some(false) => Range::point(0),
                    // Every piece counts: at least one piece (of at least the least pips).
                    Some(true) if pips => Range {
                        lo: self.pips_range().lo,
                        hi: most,
                    },
                    Some(true) => pieces,
                    None => Range { lo: 0, hi: most },
                };
                let kind = if pips {
                    TermKind::PipsSum(*v, Box::new(body))
                } else {
                    TermKind::Count(*v, Box::new(body))
                };
                (Term::new(t.span.clone(), kind), range)
            }
            TermKind::PipsOf(_) => (t.clone(), self.pips_range()),
            TermKind::Pieces => (t.clone(), pieces),
            TermKind::Width | TermKind::Height => (
                t.clone(),
                Range {
                    lo: 1,
                    hi: MAX_SIDE as i64,
                },
            ),
            TermKind::Groups => (
                t.clone(),
                Range {
                    lo: 1,
                    hi: MAX_GROUPS,
                },
            ),
            TermKind::Sizes | TermKind::Directions => {
                let kinds = self.kinds(matches!(t.kind, TermKind::Sizes));
                (t.clone(), Range { lo: 1, hi: kinds })
            }
            TermKind::Add(a, b) | TermKind::Sub(a, b) => {
                let add = matches!(t.kind, TermKind::Add(..));
                let (a, ra) = self.term(a);
                let (b, rb) = self.term(b);
                let range = if add {
                    Range {
                        lo: ra.lo.saturating_add(rb.lo),
                        hi: ra.hi.saturating_add(rb.hi),
                    }
                } else {
                    Range {
                        lo: ra.lo.saturating_sub(rb.hi),
                        hi: ra.hi.saturating_sub(rb.lo),
                    }
                };
                let kind = if add {
                    TermKind::Add(Box::new(a), Box::new(b))
                } else {
                    TermKind::Sub(Box::new(a), Box::new(b))
                };
                (Term::new(t.span.clone(), kind), range)
            }
            TermKind::Mul(k, a) => {
                let (a, ra) = self.term(a);
                let (x, y) = (ra.lo.saturating_mul(*k), ra.hi.saturating_mul(*k));
                let range = Range {
                    lo: x.min(y),
                    hi: x.max(y),
                };
                (
                    Term::new(t.span.clone(), TermKind::Mul(*k, Box::new(a))),
                    range,
                )
            }
            TermKind::Mod(a, k) => {
                let (a, ra) = self.term(a);
                let range = if ra.lo == ra.hi {
                    Range::point(crate::lang::ast::remainder(ra.lo, *k))
                } else if *k == 0 {
                    // Every number is its own remainder by zero.
                    ra
                } else {
                    // The remainder by k: 0 to |k| - 1 (the language's own, `remainder`).
                    Range {
                        lo: 0,
                        hi: k.unsigned_abs().saturating_sub(1).min(i64::MAX as u64) as i64,
                    }
                };
                (
                    Term::new(t.span.clone(), TermKind::Mod(Box::new(a), *k)),
                    range,
                )
            }
        };
        if range.lo == range.hi && !matches!(term.kind, TermKind::Int(_)) {
            (Term::new(t.span.clone(), TermKind::Int(range.lo)), range)
        } else {
            (term, range)
        }
    }
}

/// The truth of `a op b` when the ranges decide it whatever the values.
pub(crate) fn decide(op: CmpOp, a: Range, b: Range) -> Option<bool> {
    let always_lt = a.hi < b.lo;
    let always_gt = a.lo > b.hi;
    let always_eq = a.lo == a.hi && b.lo == b.hi && a.lo == b.lo;
    match op {
        CmpOp::Eq | CmpOp::Ne => {
            let eq = if always_lt || always_gt {
                Some(false)
            } else if always_eq {
                Some(true)
            } else {
                None
            };
            eq.map(|e| e == (op == CmpOp::Eq))
        }
        CmpOp::Lt => decide(CmpOp::Ge, a, b).map(|t| !t),
        CmpOp::Gt => decide(CmpOp::Le, a, b).map(|t| !t),
        CmpOp::Le => {
            if a.hi <= b.lo {
                Some(true)
            } else if always_gt {
                Some(false)
            } else {
                None
            }
        }
        CmpOp::Ge => decide(CmpOp::Le, b, a),
    }
}

fn as_bool(f: &Formula) -> Option<bool> {
    match f.kind {
        FormulaKind::Bool(b) => Some(b),
        _ => None,
    }
}

fn negate(f: Formula) -> Formula {
    match f.kind {
        FormulaKind::Not(inner) => *inner,
        _ => Formula::new(f.span.clone(), FormulaKind::Not(Box::new(f))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::{self, reference};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn read(text: &str) -> Formula {
        lang::parse(text).unwrap().formula
    }

    #[test]
    fn numbers_no_structure_reaches_fold_to_constants() {
        let cases = [
            ("there are at least 2000000000000 pieces", Some(false)),
            ("there are at most 2000000000000 pieces", Some(true)),
            ("count(x: up(x)) > 36", Some(false)),
            ("count(x: up(x)) >= 0", Some(true)),
            ("pips(x: true) > 108", Some(false)),
            ("width <= 6 & height >= 1", Some(true)),
            ("groups > 18", Some(false)),
            ("sizes = 4", Some(false)),
            ("directions < 5", Some(true)),
            (
                "pieces + 9223372036854775807 > 9223372036854775806",
                Some(true),
            ),
            (
                "count(x: up(x)) - 9223372036854775807 < -9223372036854775000",
                Some(true),
            ),
            ("odd(count(x: false) + 3)", Some(true)),
            // Not decided by ranges: left alone.
            ("there are at least 20 pieces", None),
            ("groups = 18", None),
        ];
        for (text, want) in cases {
            let s = simplify(&read(text), PieceSet::Pyramids);
            assert_eq!(as_bool(&s), want, "{text}: {s:?}");
        }
        // One size in the arrows set: "one size" is always so.
        let s = simplify(&read("sizes = 1"), PieceSet::Arrows);
        assert_eq!(as_bool(&s), Some(true));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

        /// Folding keeps the meaning of random patterns whose numbers often exceed what
        /// a structure can reach.
        #[test]
        fn folding_keeps_the_meaning(seed: u64, arrows: bool) {
            let set = if arrows { PieceSet::Arrows } else { PieceSet::Pyramids };
            let mut rng = StdRng::seed_from_u64(seed);
            let cfg = crate::lang::random::GenConfig { set, max_depth: 4, max_vars: 3, max_int: 120 };
            let f = crate::lang::random::formula(&mut rng, &cfg);
            let s = simplify(&f, set);
            for _ in 0..10 {
                let k = crate::lang::random::koan(&mut rng, set, 12);
                proptest::prop_assert_eq!(reference::evaluate(&s, &k), reference::evaluate(&f, &k), "{:?} on {:?}", f, k);
            }
        }
    }

    /// Folding keeps the evaluator's meaning, saturating arithmetic included.
    #[test]
    fn simplified_patterns_mean_what_they_meant() {
        let mut rng = StdRng::seed_from_u64(5);
        let texts = [
            "count(x: up(x)) + 9223372036854775800 > pieces + 9223372036854775800",
            "pips(x: small(x)) - 100 > -90 | width = 7",
            "exists x. pips(x) > 3 | up(x)",
            "forall x. count(y: touches(x, y)) <= 4",
        ];
        for text in texts {
            let f = read(text);
            let s = simplify(&f, PieceSet::Pyramids);
            for _ in 0..300 {
                let k = crate::lang::random::koan(&mut rng, PieceSet::Pyramids, 12);
                assert_eq!(
                    reference::evaluate(&s, &k),
                    reference::evaluate(&f, &k),
                    "{text} on {k:?}"
                );
            }
        }
    }
}
