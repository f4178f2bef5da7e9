//! Evaluating a statement over one colouring of its subset.
//!
//! [`Geometry`] ([`super::geometry`]) holds what depends only on where the subset's
//! tiles are as bit masks, so that evaluating under one colouring is a walk of the
//! tree with look-ups. The involvement check needs the truth under every one of the
//! up to 4^8 colourings: [`super::table`] computes them all at once, and this
//! evaluator is the reference it is tested against.

use super::ast::{Domain, Formula, FormulaKind, Relation, Term, TermKind};
use super::cells::{Colour, Layout};
use crate::lang::ast::{BinOp, Parity};

pub use super::geometry::{Geometry, MAX_CHECKED};

impl Geometry {
    /// The statement's truth under the layout's colours of the subset's tiles.
    pub fn evaluate_layout(&self, f: &Formula, layout: &Layout) -> bool {
        let colours: Vec<u8> = self
            .cells
            .iter()
            .map(|c| layout.colour(*c).index() as u8)
            .collect();
        self.evaluate(f, &colours)
    }

    /// The statement's truth when tile i of the subset has colour index
    /// `colours[i]` ([`Colour::ALL`] order).
    pub fn evaluate(&self, f: &Formula, colours: &[u8]) -> bool {
        let mut env = Env::new(self);
        for (i, c) in colours.iter().enumerate().take(16) {
            env.colours[i] = c & 3;
            env.by_colour[usize::from(c & 3)] |= 1 << i;
        }
        env.formula(f)
    }
}

struct Env<'a> {
    g: &'a Geometry,
    /// Each tile's colour index (only the subset's first `g.len()` count).
    colours: [u8; 16],
    /// The tiles of each colour.
    by_colour: [u16; 4],
    /// Variable values: a tile index, or a region index into `g.regions`.
    vars: [u8; 256],
}

impl<'a> Env<'a> {
    fn new(g: &'a Geometry) -> Env<'a> {
        Env {
            g,
            colours: [0; 16],
            by_colour: [0; 4],
            vars: [0; 256],
        }
    }

    fn get(&self, v: crate::lang::Var) -> usize {
        self.vars[v.0 as usize] as usize
    }

    fn domain(&self, d: Domain) -> u16 {
        match d {
            Domain::Subset => ((1u32 << self.g.cells.len()) - 1) as u16,
            Domain::In(s) => self.g.regions.get(self.get(s)).copied().unwrap_or(0),
        }
    }

    fn formula(&mut self, f: &Formula) -> bool {
        match &f.kind {
            FormulaKind::Bool(b) => *b,
            FormulaKind::Not(a) => !self.formula(a),
            FormulaKind::Bin(op, a, b) => match op {
                BinOp::And => self.formula(a) && self.formula(b),
                BinOp::Or => self.formula(a) || self.formula(b),
                BinOp::Implies => !self.formula(a) || self.formula(b),
                BinOp::Xor => self.formula(a) != self.formula(b),
                BinOp::Iff => self.formula(a) == self.formula(b),
            },
            FormulaKind::Forall(v, d, body) => {
                let dom = self.domain(*d);
                dom & !self.set(body, *v, dom) == 0
            }
            FormulaKind::Exists(v, d, body) => {
                let dom = self.domain(*d);
                self.set(body, *v, dom) != 0
            }
            FormulaKind::ForallRegion(s, k, body) => {
                for r in self.g.kinds[*k as usize].clone() {
                    self.vars[s.0 as usize] = r as u8;
                    if !self.formula(body) {
                        return false;
                    }
                }
                true
            }
            FormulaKind::ExistsRegion(s, k, body) => {
                for r in self.g.kinds[*k as usize].clone() {
                    self.vars[s.0 as usize] = r as u8;
                    if self.formula(body) {
                        return true;
                    }
                }
                false
            }
            FormulaKind::Colour(c, x) => self.colours.get(self.get(*x)) == Some(&(c.index() as u8)),
            FormulaKind::Place(p, x) => self.g.place_mask(*p) & (1 << self.get(*x)) != 0,
            FormulaKind::Rel(r, x, y) => {
                let (i, j) = (self.get(*x), self.get(*y));
                match r {
                    Relation::SameColour => self.colours.get(i) == self.colours.get(j),
                    _ => self.g.rel[*r as usize]
                        .get(i)
                        .is_some_and(|m| m & (1 << j) != 0),
                }
            }
            FormulaKind::Same(x, y) => self.get(*x) == self.get(*y),
            FormulaKind::Cmp(op, a, b) => {
                let (a, b) = (self.term(a), self.term(b));
                op.holds(a, b)
            }
            FormulaKind::Parity(p, t) => {
                let odd = self.term(t).rem_euclid(2) == 1;
                odd == (*p == Parity::Odd)
            }
        }
    }

    /// The tiles t of `within` for which `f` holds with x = t (the other variables as
    /// bound): atoms about x are read off the masks, connectives are bit operations,
    /// and anything else is evaluated tile by tile.
    fn set(&mut self, f: &Formula, x: crate::lang::Var, within: u16) -> u16 {
        match &f.kind {
            FormulaKind::Colour(c, v) if *v == x => self.by_colour[c.index()] & within,
            FormulaKind::Place(p, v) if *v == x => self.g.place_mask(*p) & within,
            FormulaKind::Rel(r, a, b) if (*a == x) != (*b == x) => {
                let (other, subject_is_x) = if *a == x { (*b, true) } else { (*a, false) };
                let j = self.get(other);
                let m = match r {
                    Relation::SameColour => self
                        .colours
                        .get(j)
                        .map_or(0, |c| self.by_colour[usize::from(c & 3)]),
                    _ if subject_is_x => self.g.rel_inv[*r as usize].get(j).copied().unwrap_or(0),
                    _ => self.g.rel[*r as usize].get(j).copied().unwrap_or(0),
                };
                m & within
            }
            FormulaKind::Not(a) => within & !self.set(a, x, within),
            FormulaKind::Bin(op, a, b) => {
                let sa = self.set(a, x, within);
                match op {
                    BinOp::And if sa == 0 => 0,
                    BinOp::And => self.set(b, x, sa),
                    BinOp::Or => sa | self.set(b, x, within & !sa),
                    BinOp::Implies => (within & !sa) | self.set(b, x, sa),
                    BinOp::Xor => sa ^ self.set(b, x, within),
                    BinOp::Iff => within & !(sa ^ self.set(b, x, within)),
                }
            }
            _ => {
                let mut out = 0;
                let mut m = within;
                while m != 0 {
                    let t = m.trailing_zeros();
                    self.vars[x.0 as usize] = t as u8;
                    if self.formula(f) {
                        out |= 1 << t;
                    }
                    m &= m - 1;
                }
                out
            }
        }
    }

    /// Numbers are exact: constants are i64 and counts small, so their sums stay far
    /// inside i128 (saturating only to rule out a panic).
    fn term(&mut self, t: &Term) -> i128 {
        match &t.kind {
            TermKind::Int(n) => i128::from(*n),
            TermKind::Count(v, d, body) => {
                let dom = self.domain(*d);
                i128::from(self.set(body, *v, dom).count_ones())
            }
            TermKind::Tiles => self.g.cells.len() as i128,
            TermKind::Colours => self.by_colour.iter().filter(|m| **m != 0).count() as i128,
            TermKind::ColoursIn(s) => {
                let region = self.domain(Domain::In(*s));
                self.by_colour.iter().filter(|m| **m & region != 0).count() as i128
            }
            TermKind::Mul(k, a) => self.term(a).saturating_mul(i128::from(*k)),
            TermKind::Add(a, b) => self.term(a).saturating_add(self.term(b)),
            TermKind::Sub(a, b) => self.term(a).saturating_sub(self.term(b)),
        }
    }
}

/// The colour of tile i in colouring `k` of a truth table.
pub fn colour_in(k: usize, i: usize) -> Colour {
    Colour::from_index(k >> (2 * i))
}
