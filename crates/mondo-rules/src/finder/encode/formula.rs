//! Grounding a formula: simplified and mini-scoped first, then connectives as gates
//! and quantifiers expanded over the cells (guarded by occupancy), remembered per
//! binding of the variables a part mentions, and bounded by the symmetric blocks'
//! orders. Subformulas about one piece only become one mask literal; the quantifier
//! shapes that counting decides better are handed to `quantifiers.rs`.

use super::{EncodeError, Encoder, Env, G, bound};
use crate::finder::simplify::simplify;
use crate::finder::symmetry::{orders, unique_binders};
use crate::koan::{MAX_CELLS, Piece};
use crate::lang::ast::{BinOp, Formula, FormulaKind, Parity, Term, TermKind};
use crate::lang::eval::{free, miniscope};

impl Encoder {
    /// Grounds a closed formula: first simplified (comparisons that no structure of
    /// the set can make true or false become constants) and mini-scoped (quantifiers
    /// pushed inward, so that each part is grounded once per binding of the few
    /// variables it mentions; see `lang::eval::miniscope`).
    pub fn formula(&mut self, f: &Formula) -> Result<G, EncodeError> {
        let f = simplify(f, self.set);
        // Unique binders, so that symmetric blocks can be bounded by variable index.
        let f = match unique_binders(&f).filter(|_| self.symmetry) {
            Some(unique) => {
                self.orders = orders(&unique);
                unique.formula
            }
            None => f,
        };
        let f = miniscope(&f);
        let mut env: Env = [None; 256];
        let g = self
            .ground(&f, &mut env)
            .and_then(|g| self.finish_links().map(|()| g));
        // Keys are addresses: they must not outlive the formula.
        self.memo_formula.clear();
        self.memo_term.clear();
        self.memo_cells.clear();
        self.blocks.clear();
        self.decided.clear();
        self.free.clear();
        self.local.clear();
        self.orders.clear();
        g
    }

    pub(super) fn ground(&mut self, f: &Formula, env: &mut Env) -> Result<G, EncodeError> {
        self.steps += 1;
        if let Some((v, mask)) = self.local_mask(f) {
            let i = bound(env, v)?;
            return Ok(self.bound_has(i, mask));
        }
        Ok(match &f.kind {
            FormulaKind::Bool(b) => G::Const(*b),
            FormulaKind::Not(a) => !self.ground(a, env)?,
            FormulaKind::Bin(op, a, b) => {
                let a = self.ground(a, env)?;
                // Left to right, as the evaluator: a first part that decides the whole
                // spares grounding the second (mini-scoping puts atoms first, so a
                // relation between cells it cannot hold at cuts the branch).
                match (op, a) {
                    (BinOp::And, G::Const(false)) => return Ok(a),
                    (BinOp::Or, G::Const(true)) => return Ok(a),
                    (BinOp::Implies, G::Const(false)) => return Ok(G::Const(true)),
                    _ => {}
                }
                let b = self.ground(b, env)?;
                match op {
                    BinOp::And => self.and(&[a, b]),
                    BinOp::Or => self.or(&[a, b]),
                    BinOp::Xor => self.xor(a, b),
                    BinOp::Implies => self.or(&[!a, b]),
                    BinOp::Iff => !self.xor(a, b),
                }
            }
            FormulaKind::Forall(v, body) | FormulaKind::Exists(v, body) => {
                let universal = matches!(f.kind, FormulaKind::Forall(..));
                if let Some(mask) = self.local_mask_in(body, v.0) {
                    return Ok(if universal {
                        !self.any(self.full & !mask)
                    } else {
                        self.any(mask)
                    });
                }
                let key = self.memo_key(f as *const Formula as usize, env, || free(f));
                if let Some(g) = self.memo_formula.get(&key) {
                    return Ok(*g);
                }
                if let Some(g) = self.by_counts(f, env)? {
                    self.memo_formula.insert(key, g);
                    return Ok(g);
                }
                if !universal && let Some(g) = self.exists_by_class(v.0, body, env)? {
                    self.memo_formula.insert(key, g);
                    return Ok(g);
                }
                if let Some(g) = self.excluding(f, universal, v.0, body, env)? {
                    self.memo_formula.insert(key, g);
                    return Ok(g);
                }
                let saved = env[v.0 as usize];
                let mut parts = Vec::with_capacity(MAX_CELLS);
                for i in self.cells_for(v.0, f, env) {
                    env[v.0 as usize] = Some(i as u8);
                    let b = self.ground(body, env);
                    let b = match b {
                        Ok(b) => b,
                        Err(e) => {
                            env[v.0 as usize] = saved;
                            return Err(e);
                        }
                    };
                    let occ = G::Lit(self.occ[i]);
                    parts.push(if universal {
                        self.or(&[!occ, b])
                    } else {
                        self.and(&[occ, b])
                    });
                }
                env[v.0 as usize] = saved;
                self.check_size()?;
                let g = if universal {
                    self.and(&parts)
                } else {
                    self.or(&parts)
                };
                self.memo_formula.insert(key, g);
                g
            }
            FormulaKind::Unary(p, v) => {
                let i = bound(env, v.0)?;
                self.unary(*p, i)
            }
            FormulaKind::Binary(p, a, b) => {
                let (i, j) = (bound(env, a.0)?, bound(env, b.0)?);
                self.binary(*p, i, j)
            }
            FormulaKind::Same(a, b) => G::Const(bound(env, a.0)? == bound(env, b.0)?),
            FormulaKind::Cmp(op, a, b) => {
                let a = self.term(a, env)?;
                let b = self.term(b, env)?;
                let diff = a.scaled_add(&b, -1);
                self.compare(*op, &diff)?
            }
            FormulaKind::Parity(p, t) => {
                let t = self.term(t, env)?;
                let odd = self.odd(&t);
                if *p == Parity::Odd { odd } else { !odd }
            }
        })
    }

    /// When `f` speaks of one piece only (one variable, through local predicates and
    /// its pips), the variable and the mask of pieces for which it holds, computed with
    /// the evaluator's own definitions. Such a subformula grounds to one canonical
    /// "the cell holds one of these pieces" literal however it is phrased.
    pub(super) fn local_mask(&mut self, f: &Formula) -> Option<(u8, u16)> {
        let addr = f as *const Formula as usize;
        let vars = self.free.entry(addr).or_insert_with(|| free(f));
        match vars.as_slice() {
            &[v] => self.local_mask_in(f, v).map(|m| (v, m)),
            _ => None,
        }
    }

    /// The pieces for which `f` holds when `v` is that piece, if `f` depends on nothing
    /// else (`true`, say, or `small(v) | pips(v) = 2`).
    pub(super) fn local_mask_in(&mut self, f: &Formula, v: u8) -> Option<u16> {
        let key = (f as *const Formula as usize, v);
        if let Some(&m) = self.local.get(&key) {
            return m;
        }
        let mut mask = Some(0u16);
        for (k, &p) in self.pieces.iter().enumerate() {
            match local_truth(f, v, p) {
                Some(true) => mask = mask.map(|m| m | (1 << k)),
                Some(false) => {}
                None => {
                    mask = None;
                    break;
                }
            }
        }
        self.local.insert(key, mask);
        mask
    }

    /// The cells a quantifier over `v` (the node `f`) tries: all of them, or those
    /// within the bounds of its symmetric block given the block's variables already
    /// bound and free in `f` (free, so that the memo key covers what the bounds read).
    pub(super) fn cells_for(&mut self, v: u8, f: &Formula, env: &Env) -> std::ops::Range<usize> {
        let Some(bounds) = self.orders.get(&v) else {
            return 0..MAX_CELLS;
        };
        let vars = self
            .free
            .entry(f as *const Formula as usize)
            .or_insert_with(|| free(f));
        let (mut lo, mut hi) = (0, MAX_CELLS);
        for &(u, below) in bounds {
            let Some(c) = env[u as usize].filter(|_| vars.contains(&u)) else {
                continue;
            };
            if below {
                lo = lo.max(c as usize);
            } else {
                hi = hi.min(c as usize + 1);
            }
        }
        lo..hi.max(lo)
    }

    pub(super) fn memo_key(
        &mut self,
        addr: usize,
        env: &Env,
        free: impl FnOnce() -> Vec<u8>,
    ) -> (usize, Vec<u8>) {
        // `lang::eval::free` and `free_in_term` give each variable once, sorted.
        let vars = self.free.entry(addr).or_insert_with(free);
        debug_assert!(vars.windows(2).all(|w| w[0] < w[1]));
        let cells = vars
            .iter()
            .map(|&v| env[v as usize].unwrap_or(u8::MAX))
            .collect();
        (addr, cells)
    }
}

/// The truth of `f` when its only variable `v` is a piece `p`, if `f` depends on
/// nothing else (no quantifier, relation or structure-wide term).
fn local_truth(f: &Formula, v: u8, p: Piece) -> Option<bool> {
    Some(match &f.kind {
        FormulaKind::Bool(b) => *b,
        FormulaKind::Not(a) => !local_truth(a, v, p)?,
        FormulaKind::Bin(op, a, b) => {
            let (a, b) = (local_truth(a, v, p)?, local_truth(b, v, p)?);
            op.holds(a, b)
        }
        FormulaKind::Unary(q, w) if w.0 == v => q.holds_on_piece(p)?,
        FormulaKind::Same(a, b) if a.0 == v && b.0 == v => true,
        FormulaKind::Cmp(op, a, b) => op.holds(local_value(a, v, p)?, local_value(b, v, p)?),
        FormulaKind::Parity(q, t) => {
            let even = local_value(t, v, p)?.rem_euclid(2) == 0;
            even == (*q == Parity::Even)
        }
        _ => return None,
    })
}

/// The value of a term built from integers and the pips of piece `v` alone.
fn local_value(t: &Term, v: u8, p: Piece) -> Option<i64> {
    Some(match &t.kind {
        TermKind::Int(n) => *n,
        TermKind::PipsOf(w) if w.0 == v => p.pips() as i64,
        TermKind::Add(a, b) => local_value(a, v, p)?.saturating_add(local_value(b, v, p)?),
        TermKind::Sub(a, b) => local_value(a, v, p)?.saturating_sub(local_value(b, v, p)?),
        TermKind::Mul(k, a) => crate::lang::ast::times(*k, local_value(a, v, p)?),
        TermKind::Mod(a, k) => crate::lang::ast::remainder(local_value(a, v, p)?, *k),
        _ => return None,
    })
}
