//! Number terms as linear sums of literals: `count` adds `occ & body` per cell, pips
//! add one literal per pip threshold, `width` and `height` count the lines the box
//! reaches, `groups` counts roots; products and remainders stay exact within bounds
//! that keep the evaluator's saturating arithmetic from ever saturating.

use super::values::{G, Lin};
use super::{EncodeError, Encoder, Env, SIDE, bound};
use crate::koan::{MAX_CELLS, Size};
use crate::lang::ast::{CmpOp, Term, TermKind};
use crate::lang::eval::free_in_term;
use rustsat::instances::ManageVars;
use rustsat::types::Lit;

/// Largest total weight of a multiplied term (or quotient steps of a remainder): a
/// comparison counts a literal of weight w as w literals.
const MAX_WEIGHT: i128 = 4096;

/// Largest integer magnitude we accept anywhere in a term (far beyond any real count,
/// far below i64 limits even multiplied, so the evaluator's saturating arithmetic and
/// the exact sums grounded here agree). Comparisons that no structure can make true or
/// false, whatever their numbers, were folded away before grounding (`simplify.rs`).
const MAX_MAGNITUDE: i128 = 1 << 40;

impl Encoder {
    pub(super) fn term(&mut self, t: &Term, env: &mut Env) -> Result<Lin, EncodeError> {
        let lin = match &t.kind {
            TermKind::Int(n) => Lin::constant(*n as i128),
            TermKind::Count(v, body) | TermKind::PipsSum(v, body) => {
                let pips = matches!(t.kind, TermKind::PipsSum(..));
                if let Some(mask) = self.local_mask_in(body, v.0) {
                    for sizes in [true, false] {
                        if self.classes(sizes).contains(&mask) {
                            self.partition_of(sizes)?;
                        }
                    }
                    self.pips_total_used |= pips && mask == self.full;
                    // Per cell: holds one of these pieces (with 2+ / 3+ pips).
                    let m2 = self.mask_of(|p| p.pips() >= 2);
                    let m3 = self.mask_of(|p| p.pips() >= 3);
                    let here: Vec<(G, [G; 2])> = (0..MAX_CELLS)
                        .map(|i| {
                            let g = self.cell_has(i, mask);
                            (
                                g,
                                [self.cell_has(i, mask & m2), self.cell_has(i, mask & m3)],
                            )
                        })
                        .collect();
                    return Ok(self.sum_cells(&here, pips));
                }
                let key = self.memo_key(t as *const Term as usize, env, || free_in_term(t));
                if let Some(l) = self.memo_term.get(&key) {
                    return Ok(l.clone());
                }
                let saved = env[v.0 as usize];
                let mut here = Vec::with_capacity(MAX_CELLS);
                for i in 0..MAX_CELLS {
                    env[v.0 as usize] = Some(i as u8);
                    let b = match self.ground(body, env) {
                        Ok(b) => b,
                        Err(e) => {
                            env[v.0 as usize] = saved;
                            return Err(e);
                        }
                    };
                    let occ = G::Lit(self.occ[i]);
                    let g = self.and(&[occ, b]);
                    let extra = if !pips {
                        [G::Const(false); 2]
                    } else if b == G::Const(true) {
                        // The same literals as a local body's (canonical).
                        let m2 = self.mask_of(|p| p.pips() >= 2);
                        let m3 = self.mask_of(|p| p.pips() >= 3);
                        [self.cell_has(i, m2), self.cell_has(i, m3)]
                    } else {
                        let [p2, p3] = self.extra_pips(i);
                        [self.and(&[g, p2]), self.and(&[g, p3])]
                    };
                    here.push((g, extra));
                }
                env[v.0 as usize] = saved;
                self.check_size()?;
                let lin = self.sum_cells(&here, pips);
                self.memo_term.insert(key, lin.clone());
                lin
            }
            TermKind::PipsOf(v) => {
                let i = bound(env, v.0)?;
                let mut lin = Lin::constant(1);
                for g in self.extra_pips(i) {
                    lin.add_g(g, 1);
                }
                lin
            }
            TermKind::Pieces => self.pieces_lin(),
            TermKind::Width | TermKind::Height => {
                // The box starts at line 0, so its extent is 1 + #{k >= 1: a piece in line >= k}.
                let lines = self.line_ge(matches!(t.kind, TermKind::Height));
                let mut lin = Lin::constant(1);
                for &g in &lines[1..SIDE] {
                    lin.add_g(g, 1);
                }
                lin
            }
            TermKind::Groups => {
                let roots = self.roots();
                let mut lin = Lin::default();
                for r in roots {
                    lin.add_g(G::Lit(r), 1);
                }
                // Each group has a piece.
                self.link(&lin, &self.pieces_lin(), 1);
                lin
            }
            TermKind::Sizes => {
                let mut lin = Lin::default();
                for s in Size::ALL {
                    let m = self.size_mask(s);
                    let g = if m == 0 { G::Const(false) } else { self.any(m) };
                    lin.add_g(g, 1);
                }
                // Each size present takes a piece.
                self.link(&lin, &self.pieces_lin(), 1);
                self.partition_of(true)?;
                lin
            }
            TermKind::Directions => {
                let mut lin = Lin::default();
                for d in crate::koan::Direction::ALL {
                    let m = self.mask_of(|p| p.dir == d);
                    let g = if m == 0 { G::Const(false) } else { self.any(m) };
                    lin.add_g(g, 1);
                }
                self.link(&lin, &self.pieces_lin(), 1);
                self.partition_of(false)?;
                lin
            }
            TermKind::Add(a, b) | TermKind::Sub(a, b) => {
                let sign = if matches!(t.kind, TermKind::Add(..)) {
                    1
                } else {
                    -1
                };
                let a = self.term(a, env)?;
                let b = self.term(b, env)?;
                a.scaled_add(&b, sign)
            }
            TermKind::Mul(k, a) => {
                let a = self.term(a, env)?;
                let scaled = Lin::default().scaled_add(&a, *k as i128);
                // Comparisons count a weight-w literal w times: keep that bounded.
                let weight: i128 = scaled.terms.iter().map(|t| t.1.abs()).sum();
                if weight > MAX_WEIGHT {
                    return Err(EncodeError::Other(
                        "a multiplier in the pattern is too large to reason about exactly".into(),
                    ));
                }
                scaled
            }
            TermKind::Mod(a, k) => {
                let a = self.term(a, env)?;
                self.remainder(a, *k)?
            }
        };
        let (lo, hi) = lin.range();
        if lo < -MAX_MAGNITUDE || hi > MAX_MAGNITUDE {
            return Err(EncodeError::Other(
                "a number in the pattern is too close to the 64-bit limit to reason about \
                 exactly"
                    .into(),
            ));
        }
        Ok(lin)
    }

    /// `a % k` (see [`crate::lang::ast::remainder`]): `a - |k| * q` for a quotient `q`
    /// in unary over fresh literals (`q = q_lo + b_1 + ... + b_n`, `b_{j+1} -> b_j`),
    /// with `0 <= a - |k| * q < |k|` required outright. That pins `q` to `a`'s
    /// quotient on every assignment, so the fresh literals are a definition (one
    /// extension per structure) and the clauses can stay for good.
    pub(super) fn remainder(&mut self, a: Lin, k: i64) -> Result<Lin, EncodeError> {
        let k = k.unsigned_abs() as i128;
        if k == 0 {
            return Ok(a);
        }
        if a.terms.is_empty() {
            return Ok(Lin::constant(a.konst.rem_euclid(k)));
        }
        let (lo, hi) = a.range();
        let (q_lo, q_hi) = (lo.div_euclid(k), hi.div_euclid(k));
        if q_hi - q_lo > MAX_WEIGHT / k.max(1) {
            return Err(EncodeError::Other(
                "a remainder in the pattern is too large to reason about exactly".into(),
            ));
        }
        let steps: Vec<Lit> = (q_lo..q_hi).map(|_| self.vm.new_lit()).collect();
        for pair in steps.windows(2) {
            self.clause(&[!pair[1], pair[0]]);
        }
        let mut r = a;
        r.konst -= k * q_lo;
        for &b in &steps {
            r.add_g(G::Lit(b), -k);
        }
        let below = Lin {
            konst: r.konst - (k - 1),
            terms: r.terms.clone(),
        };
        for g in [
            self.compare(CmpOp::Ge, &r)?,
            self.compare(CmpOp::Le, &below)?,
        ] {
            if !self.require(g) {
                return Err(EncodeError::Other(
                    "internal error: a remainder has no quotient".into(),
                ));
            }
        }
        Ok(r)
    }

    /// The number of pieces: the sum of the occupancy literals.
    pub(super) fn pieces_lin(&self) -> Lin {
        Lin {
            konst: 0,
            terms: self.occ.iter().map(|&l| (l, 1)).collect(),
        }
    }

    /// The count of the cells' first literals, or with `pips` their total pips (the
    /// cell's literal plus its "2+" and "3+" literals). A pips total is remembered with
    /// its count so that their bounds can be linked (see [`Self::at_least`]).
    pub(super) fn sum_cells(&mut self, here: &[(G, [G; 2])], pips: bool) -> Lin {
        let mut count = Lin::default();
        for &(g, _) in here {
            count.add_g(g, 1);
        }
        if !pips {
            return count;
        }
        let mut total = count.clone();
        for &(_, extra) in here {
            for g in extra {
                total.add_g(g, 1);
            }
        }
        // Pips are between the count and three times the count.
        self.link(&total, &count, 3);
        self.link(&count, &total, 1);
        total
    }

    /// The literals "the piece at i has at least 2 pips" and "at least 3 pips" (for a
    /// bound, hence occupied, cell): its pips are 1 plus how many of them hold.
    pub(super) fn extra_pips(&mut self, i: usize) -> [G; 2] {
        let m2 = self.mask_of(|p| p.pips() >= 2);
        let m3 = self.mask_of(|p| p.pips() >= 3);
        [self.bound_has(i, m2), self.bound_has(i, m3)]
    }
}
