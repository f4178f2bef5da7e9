//! Shared helpers for the finder tests: formula builders, a seeded random formula
//! generator, and brute-force enumeration of small structures.
#![allow(dead_code)]

use mondo::koan::{Koan, MAX_CELLS, MAX_SIDE, Piece, PieceSet};
use mondo::lang::ast::{
    BinOp, BinaryPred, CmpOp, Formula, FormulaKind, Parity, Term, TermKind, UnaryPred, Var,
};
use mondo::lang::random::{self, GenConfig};
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};

// ----- builders ----------------------------------------------------------------------

pub fn f(kind: FormulaKind) -> Formula {
    Formula::new(0..0, kind)
}
pub fn t(kind: TermKind) -> Term {
    Term::new(0..0, kind)
}
pub fn tru() -> Formula {
    f(FormulaKind::Bool(true))
}
pub fn not(a: Formula) -> Formula {
    f(FormulaKind::Not(Box::new(a)))
}
pub fn bin(op: BinOp, a: Formula, b: Formula) -> Formula {
    f(FormulaKind::Bin(op, Box::new(a), Box::new(b)))
}
pub fn and(a: Formula, b: Formula) -> Formula {
    bin(BinOp::And, a, b)
}
pub fn or(a: Formula, b: Formula) -> Formula {
    bin(BinOp::Or, a, b)
}
pub fn forall(v: u8, body: Formula) -> Formula {
    f(FormulaKind::Forall(Var(v), Box::new(body)))
}
pub fn exists(v: u8, body: Formula) -> Formula {
    f(FormulaKind::Exists(Var(v), Box::new(body)))
}
pub fn un(p: UnaryPred, v: u8) -> Formula {
    f(FormulaKind::Unary(p, Var(v)))
}
pub fn rel(p: BinaryPred, a: u8, b: u8) -> Formula {
    f(FormulaKind::Binary(p, Var(a), Var(b)))
}
pub fn same(a: u8, b: u8) -> Formula {
    f(FormulaKind::Same(Var(a), Var(b)))
}
pub fn cmp(op: CmpOp, a: Term, b: Term) -> Formula {
    f(FormulaKind::Cmp(op, a, b))
}
pub fn parity(p: Parity, a: Term) -> Formula {
    f(FormulaKind::Parity(p, a))
}
pub fn int(n: i64) -> Term {
    t(TermKind::Int(n))
}
pub fn count(v: u8, body: Formula) -> Term {
    t(TermKind::Count(Var(v), Box::new(body)))
}
pub fn pips(v: u8, body: Formula) -> Term {
    t(TermKind::PipsSum(Var(v), Box::new(body)))
}
pub fn add(a: Term, b: Term) -> Term {
    t(TermKind::Add(Box::new(a), Box::new(b)))
}
pub fn sub(a: Term, b: Term) -> Term {
    t(TermKind::Sub(Box::new(a), Box::new(b)))
}
/// `global op n` for a structure-wide term.
pub fn global(kind: TermKind, op: CmpOp, n: i64) -> Formula {
    cmp(op, t(kind), int(n))
}

// ----- random formulas -------------------------------------------------------------------

/// Random closed formulas from `lang::random`, and near relatives of them: the pairs
/// a finder meets when players guess close to the hidden pattern.
pub struct Gen {
    pub rng: Xoshiro256PlusPlus,
    cfg: GenConfig,
}

impl Gen {
    pub fn new(seed: u64, set: PieceSet) -> Gen {
        Gen {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            cfg: GenConfig {
                set,
                max_depth: 4,
                max_vars: 3,
                max_int: 6,
            },
        }
    }

    pub fn formula(&mut self) -> Formula {
        random::formula(&mut self.rng, &self.cfg)
    }

    /// `base` changed in one place: a number moved by one, a comparison changed, a
    /// subformula negated, or a subformula replaced by a fresh closed one.
    pub fn mutate(&mut self, base: &Formula) -> Formula {
        let mut out = base.clone();
        let (formulas, ints, cmps) = census(&out);
        let kind = self.rng.random_range(0..4);
        if kind == 0 && ints > 0 {
            let mut target = self.rng.random_range(0..ints);
            let delta = if self.rng.random_bool(0.5) { 1 } else { -1 };
            visit(&mut out, &mut |_| {}, &mut |t| {
                if let TermKind::Int(n) = &mut t.kind {
                    if target == 0 {
                        *n += delta;
                    }
                    target = target.wrapping_sub(1);
                }
            });
        } else if kind == 1 && cmps > 0 {
            let mut target = self.rng.random_range(0..cmps);
            let op = *CmpOp::ALL.choose(&mut self.rng).unwrap();
            visit(
                &mut out,
                &mut |f| {
                    if let FormulaKind::Cmp(o, _, _) = &mut f.kind {
                        if target == 0 {
                            *o = op;
                        }
                        target = target.wrapping_sub(1);
                    }
                },
                &mut |_| {},
            );
        } else {
            let mut target = self.rng.random_range(0..formulas);
            let negate = kind == 2;
            let small = GenConfig {
                max_depth: 2,
                ..self.cfg.clone()
            };
            let fresh = random::formula(&mut self.rng, &small);
            let mut fresh = Some(fresh);
            visit(
                &mut out,
                &mut |f| {
                    if target == 0 {
                        *f = if negate {
                            not(f.clone())
                        } else {
                            fresh.take().unwrap_or_else(tru)
                        };
                    }
                    target = target.wrapping_sub(1);
                },
                &mut |_| {},
            );
        }
        out
    }
}

/// (formula nodes, integer terms, comparisons) of a formula.
fn census(f: &Formula) -> (usize, usize, usize) {
    let mut f2 = f.clone();
    let (mut formulas, mut ints, mut cmps) = (0, 0, 0);
    visit(
        &mut f2,
        &mut |f| {
            formulas += 1;
            cmps += usize::from(matches!(f.kind, FormulaKind::Cmp(..)));
        },
        &mut |t| ints += usize::from(matches!(t.kind, TermKind::Int(_))),
    );
    (formulas, ints, cmps)
}

/// Calls the visitors on every formula node (before its children) and term node.
fn visit(f: &mut Formula, on_f: &mut dyn FnMut(&mut Formula), on_t: &mut dyn FnMut(&mut Term)) {
    on_f(f);
    match &mut f.kind {
        FormulaKind::Not(a) | FormulaKind::Forall(_, a) | FormulaKind::Exists(_, a) => {
            visit(a, on_f, on_t)
        }
        FormulaKind::Bin(_, a, b) => {
            visit(a, on_f, on_t);
            visit(b, on_f, on_t);
        }
        FormulaKind::Cmp(_, a, b) => {
            visit_term(a, on_f, on_t);
            visit_term(b, on_f, on_t);
        }
        FormulaKind::Parity(_, a) => visit_term(a, on_f, on_t),
        _ => {}
    }
}

fn visit_term(t: &mut Term, on_f: &mut dyn FnMut(&mut Formula), on_t: &mut dyn FnMut(&mut Term)) {
    on_t(t);
    match &mut t.kind {
        TermKind::Count(_, body) | TermKind::PipsSum(_, body) => visit(body, on_f, on_t),
        TermKind::Add(a, b) | TermKind::Sub(a, b) => {
            visit_term(a, on_f, on_t);
            visit_term(b, on_f, on_t);
        }
        _ => {}
    }
}

// ----- brute force -----------------------------------------------------------------------

/// Every normalised set of n cells (a cell in row 0 and one in column 0), 1 <= n <= max,
/// sorted by (n, bounding-box area).
pub fn shapes(max: usize) -> Vec<(Vec<usize>, u32)> {
    let side = MAX_SIDE as usize;
    let mut out = Vec::new();
    let mut cur = Vec::new();
    fn rec(
        start: usize,
        left: usize,
        cur: &mut Vec<usize>,
        out: &mut Vec<(Vec<usize>, u32)>,
        side: usize,
    ) {
        if left == 0 {
            let row0 = cur.iter().any(|&i| i < side);
            let col0 = cur.iter().any(|&i| i % side == 0);
            if row0 && col0 {
                let h = cur.iter().map(|&i| i / side).max().unwrap() + 1;
                let w = cur.iter().map(|&i| i % side).max().unwrap() + 1;
                out.push((cur.clone(), (w * h) as u32));
            }
            return;
        }
        for i in start..MAX_CELLS {
            cur.push(i);
            rec(i + 1, left - 1, cur, out, side);
            cur.pop();
        }
    }
    for n in 1..=max {
        rec(0, n, &mut cur, &mut out, side);
    }
    out.sort_by_key(|(c, a)| (c.len(), *a));
    out
}

/// Calls `visit` on every structure with the given cells, until it returns true.
pub fn each_structure(
    set: PieceSet,
    cells: &[usize],
    visit: &mut dyn FnMut(&Koan) -> bool,
) -> bool {
    let pieces = set.pieces();
    let n = cells.len();
    let total = pieces.len().pow(n as u32);
    for code in 0..total {
        let mut window: [Option<Piece>; MAX_CELLS] = [None; MAX_CELLS];
        let mut c = code;
        for &i in cells {
            window[i] = Some(pieces[c % pieces.len()]);
            c /= pieces.len();
        }
        let koan = Koan::from_window(set, &window).unwrap();
        if visit(&koan) {
            return true;
        }
    }
    false
}

/// All structures with at most `max` pieces, in (pieces, area) order.
pub fn all_structures(set: PieceSet, max: usize) -> Vec<Koan> {
    let mut out = Vec::new();
    for (cells, _) in shapes(max) {
        each_structure(set, &cells, &mut |k| {
            out.push(k.clone());
            false
        });
    }
    out
}

/// The first structure (in (pieces, area) order, at most `max` pieces) on which the two
/// formulas disagree.
pub fn first_separating(
    set: PieceSet,
    shapes: &[(Vec<usize>, u32)],
    a: &Formula,
    b: &Formula,
) -> Option<Koan> {
    let mut found = None;
    for (cells, _) in shapes {
        if each_structure(set, cells, &mut |k| {
            if mondo::lang::evaluate(a, k) != mondo::lang::evaluate(b, k) {
                found = Some(k.clone());
                true
            } else {
                false
            }
        }) {
            return found;
        }
    }
    None
}

/// The first structure (in (pieces, area) order among `shapes`) on which two compiled
/// patterns disagree, and how many structures were tried: the brute force of the hard
/// set, which compiles each pattern once.
pub fn first_separating_compiled(
    set: PieceSet,
    shapes: &[(Vec<usize>, u32)],
    a: &mondo::lang::CompiledPattern,
    b: &mondo::lang::CompiledPattern,
) -> (Option<Koan>, usize) {
    let mut found = None;
    let mut tried = 0;
    for (cells, _) in shapes {
        if each_structure(set, cells, &mut |k| {
            tried += 1;
            if a.evaluate(k) != b.evaluate(k) {
                found = Some(k.clone());
                true
            } else {
                false
            }
        }) {
            break;
        }
    }
    (found, tried)
}
