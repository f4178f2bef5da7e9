//! Shared helpers for the finder tests: formula builders, a seeded random formula
//! generator, and brute-force enumeration of small structures.
#![allow(dead_code)]

use mondo::koan::{Koan, MAX_CELLS, MAX_SIDE, Piece, PieceSet};
use mondo::lang::ast::{
    BinOp, BinaryPred, CmpOp, Formula, FormulaKind, Parity, Term, TermKind, UnaryPred, Var,
};
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

/// A seeded generator of closed formulas over the whole AST (every atom, every term),
/// biased to small counts so that pairs often differ only on larger structures.
pub struct Gen {
    pub rng: Xoshiro256PlusPlus,
    next_var: u8,
}

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            next_var: 0,
        }
    }

    pub fn formula(&mut self, depth: u32) -> Formula {
        self.next_var = 0;
        self.f(&mut Vec::new(), depth)
    }

    fn fresh(&mut self) -> u8 {
        let v = self.next_var;
        self.next_var += 1;
        v
    }

    fn f(&mut self, vars: &mut Vec<u8>, depth: u32) -> Formula {
        let leaf = depth == 0 || self.rng.random_bool(0.25);
        if leaf {
            return self.atom(vars, depth);
        }
        match self.rng.random_range(0..10) {
            0 => not(self.f(vars, depth - 1)),
            1..=3 => {
                let op = *[
                    BinOp::And,
                    BinOp::Or,
                    BinOp::Xor,
                    BinOp::Implies,
                    BinOp::Iff,
                ]
                .choose(&mut self.rng)
                .unwrap();
                let a = self.f(vars, depth - 1);
                let b = self.f(vars, depth - 1);
                bin(op, a, b)
            }
            4..=6 if vars.len() < 3 => {
                let v = self.fresh();
                vars.push(v);
                let body = self.f(vars, depth - 1);
                vars.pop();
                if self.rng.random_bool(0.5) {
                    forall(v, body)
                } else {
                    exists(v, body)
                }
            }
            _ => self.atom(vars, depth),
        }
    }

    fn atom(&mut self, vars: &mut Vec<u8>, depth: u32) -> Formula {
        let choice = self.rng.random_range(0..10);
        if !vars.is_empty() && choice < 5 {
            let x = *vars.choose(&mut self.rng).unwrap();
            let y = *vars.choose(&mut self.rng).unwrap();
            return match choice {
                0 | 1 => un(*UnaryPred::ALL.choose(&mut self.rng).unwrap(), x),
                2 | 3 => rel(*BinaryPred::ALL.choose(&mut self.rng).unwrap(), x, y),
                _ => same(x, y),
            };
        }
        if choice == 9 {
            return f(FormulaKind::Bool(self.rng.random_bool(0.5)));
        }
        let a = self.term(vars, depth.saturating_sub(1));
        if self.rng.random_bool(0.2) {
            let p = if self.rng.random_bool(0.5) {
                Parity::Odd
            } else {
                Parity::Even
            };
            return parity(p, a);
        }
        let op = *[
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Gt,
            CmpOp::Ge,
        ]
        .choose(&mut self.rng)
        .unwrap();
        let b = if self.rng.random_bool(0.7) {
            int(self.rng.random_range(0..5))
        } else {
            self.term(vars, depth.saturating_sub(1))
        };
        cmp(op, a, b)
    }

    fn term(&mut self, vars: &mut Vec<u8>, depth: u32) -> Term {
        let kinds = 11 + usize::from(!vars.is_empty());
        match self.rng.random_range(0..kinds) {
            0..=2 if vars.len() < 3 => {
                let v = self.fresh();
                vars.push(v);
                let body = self.f(vars, depth.min(2));
                vars.pop();
                if self.rng.random_bool(0.7) {
                    count(v, body)
                } else {
                    pips(v, body)
                }
            }
            3 => t(TermKind::Pieces),
            4 => t(TermKind::Width),
            5 => t(TermKind::Height),
            6 => t(TermKind::Groups),
            7 => t(TermKind::Sizes),
            8 => t(TermKind::Directions),
            9 if depth > 0 => {
                let a = self.term(vars, depth - 1);
                let b = if self.rng.random_bool(0.5) {
                    int(self.rng.random_range(0..3))
                } else {
                    self.term(vars, depth - 1)
                };
                if self.rng.random_bool(0.5) {
                    add(a, b)
                } else {
                    sub(a, b)
                }
            }
            11 => t(TermKind::PipsOf(Var(*vars.choose(&mut self.rng).unwrap()))),
            _ => int(self.rng.random_range(0..4)),
        }
    }

    /// A near relative of `base`: one random subformula replaced by a fresh one.
    pub fn mutate(&mut self, base: &Formula, depth: u32) -> Formula {
        let mut out = base.clone();
        let n = size(&out);
        let target = self.rng.random_range(0..n);
        let mut seen = 0;
        let mut vars = Vec::new();
        self.next_var = max_var(base).map_or(0, |v| v + 1);
        self.replace(&mut out, target, &mut seen, &mut vars, depth);
        out
    }

    fn replace(
        &mut self,
        node: &mut Formula,
        target: usize,
        seen: &mut usize,
        vars: &mut Vec<u8>,
        depth: u32,
    ) -> bool {
        if *seen == target {
            *node = self.f(vars, depth);
            return true;
        }
        *seen += 1;
        match &mut node.kind {
            FormulaKind::Not(a) => self.replace(a, target, seen, vars, depth),
            FormulaKind::Bin(_, a, b) => {
                self.replace(a, target, seen, vars, depth)
                    || self.replace(b, target, seen, vars, depth)
            }
            FormulaKind::Forall(v, body) | FormulaKind::Exists(v, body) => {
                vars.push(v.0);
                let done = self.replace(body, target, seen, vars, depth);
                vars.pop();
                done
            }
            _ => false,
        }
    }
}

/// Formula nodes reachable without entering terms.
fn size(f: &Formula) -> usize {
    1 + match &f.kind {
        FormulaKind::Not(a) => size(a),
        FormulaKind::Bin(_, a, b) => size(a) + size(b),
        FormulaKind::Forall(_, b) | FormulaKind::Exists(_, b) => size(b),
        _ => 0,
    }
}

fn max_var(f: &Formula) -> Option<u8> {
    fn term(t: &Term) -> Option<u8> {
        match &t.kind {
            TermKind::Count(v, b) | TermKind::PipsSum(v, b) => Some(v.0).max(max_var(b)),
            TermKind::PipsOf(v) => Some(v.0),
            TermKind::Add(a, b) | TermKind::Sub(a, b) => term(a).max(term(b)),
            _ => None,
        }
    }
    match &f.kind {
        FormulaKind::Not(a) => max_var(a),
        FormulaKind::Bin(_, a, b) => max_var(a).max(max_var(b)),
        FormulaKind::Forall(v, b) | FormulaKind::Exists(v, b) => Some(v.0).max(max_var(b)),
        FormulaKind::Unary(_, v) => Some(v.0),
        FormulaKind::Binary(_, a, b) | FormulaKind::Same(a, b) => Some(a.0.max(b.0)),
        FormulaKind::Cmp(_, a, b) => term(a).max(term(b)),
        FormulaKind::Parity(_, a) => term(a),
        FormulaKind::Bool(_) => None,
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
