//! Quantifiers decided by counting pieces rather than tried cell by cell: a block
//! that only looks at what the pieces are (decided by class counts), "some other
//! piece related to this one by what they are" (a count of the pieces it may be), and
//! "another piece than these" (more pieces satisfy the body than the excluded ones
//! that do). Each turns hundreds of cell pairs into a few cardinality outputs that
//! the ties between counts can reason about.

use super::{EncodeError, Encoder, Env, G, bound};
use crate::koan::{MAX_CELLS, Piece, Pos};
use crate::lang::ast::{BinOp, BinaryPred, Formula, FormulaKind};
use crate::lang::eval::{Block, free, piecewise};
use rustsat::types::Lit;

impl Encoder {
    /// `exists y. body` where the body only relates y to one bound piece x by what the
    /// two pieces are (not where they are: `same_size`, `larger`...), says what y is
    /// (local predicates), possibly requires `x != y`, and otherwise speaks of x
    /// alone. Then it holds exactly when x's piece p is such that some other piece
    /// (or any piece, without `x != y`) is among the pieces B(p) it may relate to: a
    /// count of B-pieces, at least 2 when p is itself in B and y must differ. Grounded
    /// so, "some piece is the same size as another piece" becomes "some size has at
    /// least two pieces", which counts (and the partition of the pieces by size) can
    /// reason about, instead of 630 pairs of cells. `None` when the body has another
    /// shape.
    pub(super) fn exists_by_class(
        &mut self,
        y: u8,
        body: &Formula,
        env: &mut Env,
    ) -> Result<Option<G>, EncodeError> {
        let mut conjuncts = Vec::new();
        flatten_and(body, &mut conjuncts);
        let mut x = None;
        let mut distinct = false;
        let mut relation: Option<(BinaryPred, bool)> = None;
        let mut y_mask = self.full;
        let mut others = Vec::new();
        for c in conjuncts {
            let vars = free(c);
            if !vars.contains(&y) {
                others.push(c);
                continue;
            }
            if let Some(m) = self.local_mask_in(c, y) {
                y_mask &= m;
                continue;
            }
            let pair = |a: u8, b: u8| {
                if a == y && b != y {
                    Some((b, true))
                } else if b == y && a != y {
                    Some((a, false))
                } else {
                    None
                }
            };
            match &c.kind {
                FormulaKind::Not(inner) => match &inner.kind {
                    FormulaKind::Same(a, b) => match pair(a.0, b.0) {
                        Some((o, _)) if x.is_none_or(|x| x == o) => {
                            x = Some(o);
                            distinct = true;
                        }
                        _ => return Ok(None),
                    },
                    _ => return Ok(None),
                },
                FormulaKind::Binary(p, a, b) if relation.is_none() && piecewise(*p) => {
                    match pair(a.0, b.0) {
                        // y_first: the relation reads R(y, x).
                        Some((o, y_first)) if x.is_none_or(|x| x == o) => {
                            x = Some(o);
                            relation = Some((*p, y_first));
                        }
                        _ => return Ok(None),
                    }
                }
                _ => return Ok(None),
            }
        }
        let (Some(x), Some((p, y_first))) = (x, relation) else {
            return Ok(None);
        };
        let Some(i) = env[x as usize].map(usize::from) else {
            return Ok(None);
        };
        let origin = Pos::new(0, 0);
        let holds = |px: Piece, py: Piece| {
            if y_first {
                p.holds((origin, py), (origin, px))
            } else {
                p.holds((origin, px), (origin, py))
            }
        };
        // For each piece x may be: the pieces y may be.
        let rows =
            self.rows(|a, b| y_mask & (1 << b) != 0 && holds(self.pieces[a], self.pieces[b]));
        let mut options = Vec::new();
        for (b, a) in rows {
            let lits: Vec<Lit> = (0..MAX_CELLS)
                .filter_map(|j| match self.cell_has(j, b) {
                    G::Lit(l) => Some(l),
                    G::Const(_) => None,
                })
                .collect();
            let one = self.at_least(lits.clone(), 1)?;
            if distinct {
                // x itself is one of the B pieces when its piece is in B.
                let two = self.at_least(lits, 2)?;
                let inside = self.bound_has(i, a & b);
                let outside = self.bound_has(i, a & !b);
                let g1 = self.and(&[inside, two]);
                let g2 = self.and(&[outside, one]);
                options.push(self.or(&[g1, g2]));
            } else {
                let here = self.bound_has(i, a);
                options.push(self.and(&[here, one]));
            }
        }
        let mut parts = vec![self.or(&options)];
        for c in others {
            parts.push(self.ground(c, env)?);
        }
        Ok(Some(self.and(&parts)))
    }

    /// `exists w. w != u1 & ... & w != uk & psi(w)` where some of the `u` are not in
    /// `psi` (the "another piece" of a chain: `exists w. points_at(z, w) & w != y & w
    /// != x`), and its dual `forall w. w = u1 | ... | psi(w)`. Grounded cell by cell,
    /// it would be one disjunction per binding of all of z, y, x; but it holds exactly
    /// when more pieces satisfy `psi` than the (distinct) `u` pieces that do: `P >= 1
    /// + E`, where `P` counts the cells of psi (one shared count per binding of psi's
    /// own variables) and `E` is the sum of the few literals of psi at the u's cells.
    /// `None` for other shapes.
    pub(super) fn excluding(
        &mut self,
        f: &Formula,
        universal: bool,
        w: u8,
        body: &Formula,
        env: &mut Env,
    ) -> Result<Option<G>, EncodeError> {
        let (others, rest) = exclusions(universal, w, body);
        if others.is_empty() {
            return Ok(None);
        }
        let mut psi_free: Vec<u8> = Vec::new();
        for &(p, _) in &rest {
            let addr = p as *const Formula as usize;
            let fv = self.free.entry(addr).or_insert_with(|| free(p));
            psi_free.extend(fv.iter().copied().filter(|&x| x != w));
        }
        psi_free.sort_unstable();
        psi_free.dedup();
        if others.iter().all(|u| psi_free.contains(u)) {
            return Ok(None);
        }
        // psi at every cell, once per binding of its own variables.
        let key = (
            f as *const Formula as usize,
            psi_free
                .iter()
                .map(|&x| env[x as usize].unwrap_or(u8::MAX))
                .collect::<Vec<u8>>(),
        );
        let (cells, psi) = match self.memo_cells.get(&key) {
            Some(c) => c.clone(),
            None => {
                let saved = env[w as usize];
                let mut cells = Vec::with_capacity(MAX_CELLS);
                let mut psi = Vec::with_capacity(MAX_CELLS);
                for i in 0..MAX_CELLS {
                    env[w as usize] = Some(i as u8);
                    let mut conj = Vec::with_capacity(rest.len() + 1);
                    for &(p, positive) in &rest {
                        let g = match self.ground(p, env) {
                            Ok(g) => g,
                            Err(e) => {
                                env[w as usize] = saved;
                                return Err(e);
                            }
                        };
                        let g = if positive { g } else { !g };
                        conj.push(g);
                        if g == G::Const(false) {
                            break;
                        }
                    }
                    let here = self.and(&conj);
                    psi.push(here);
                    cells.push(self.and(&[G::Lit(self.occ[i]), here]));
                }
                env[w as usize] = saved;
                self.check_size()?;
                self.memo_cells.insert(key, (cells.clone(), psi.clone()));
                (cells, psi)
            }
        };
        let p: Vec<Lit> = cells
            .iter()
            .filter_map(|g| match g {
                G::Lit(l) => Some(*l),
                G::Const(_) => None,
            })
            .collect();
        // psi at the excluded pieces' cells (each cell once).
        let mut at: Vec<usize> = others
            .iter()
            .map(|&u| bound(env, u))
            .collect::<Result<_, _>>()?;
        at.sort_unstable();
        at.dedup();
        // Their cells are occupied (they are bound), so psi alone says whether they
        // count: often a constant.
        let mut sure = 0;
        let mut e = Vec::new();
        for &c in &at {
            match psi[c] {
                G::Const(true) => sure += 1,
                G::Const(false) => {}
                G::Lit(l) => e.push(l),
            }
        }
        // P >= 1 + sure + E: for every k, E >= k implies P >= k + 1 + sure.
        let mut all = Vec::with_capacity(e.len() + 1);
        for k in 0..=e.len() as i128 {
            let e_k = self.at_least(e.clone(), k)?;
            let p_k = self.at_least(p.clone(), k + 1 + sure)?;
            all.push(self.or(&[!e_k, p_k]));
        }
        let exists = self.and(&all);
        Ok(Some(if universal { !exists } else { exists }))
    }

    /// A block of quantifiers that only looks at what the pieces are (see
    /// `piecewise.rs`), decided by the counts of each class of pieces: for each class
    /// its outer variables' pieces may be in, the capped count vectors that make it
    /// true, as a decision diagram over the classes' count outputs. `None` for other
    /// formulas.
    pub(super) fn by_counts(&mut self, f: &Formula, env: &Env) -> Result<Option<G>, EncodeError> {
        let addr = f as *const Formula as usize;
        let set = self.set;
        let block = self
            .blocks
            .entry(addr)
            .or_insert_with(|| Block::analyse(f, set))
            .clone();
        let Some(block) = block else {
            return Ok(None);
        };
        self.partition(&block.classes)?;
        // The outer variables' pieces, one element per distinct cell.
        let mut cells: Vec<usize> = Vec::new();
        let mut element_of = Vec::with_capacity(block.free.len());
        for &v in &block.free {
            let c = bound(env, v)?;
            let e = match cells.iter().position(|&x| x == c) {
                Some(e) => e,
                None => {
                    cells.push(c);
                    cells.len() - 1
                }
            };
            element_of.push(e);
        }
        let t = block.classes.len();
        let mut options = Vec::new();
        for code in 0..t.pow(cells.len() as u32) {
            let classes: Vec<usize> = (0..cells.len())
                .map(|e| code / t.pow(e as u32) % t)
                .collect();
            let mut parts: Vec<G> = cells
                .iter()
                .zip(&classes)
                .map(|(&c, &k)| self.bound_has(c, block.classes[k]))
                .collect();
            let outer: Vec<(usize, usize)> = element_of.iter().map(|&e| (e, classes[e])).collect();
            let key = (addr, classes);
            let decided = match self.decided.get(&key) {
                Some(&g) => g,
                None => {
                    let g = self.by_count_vectors(f, &block, &outer, &mut Vec::new())?;
                    self.decided.insert(key, g);
                    g
                }
            };
            parts.push(decided);
            options.push(self.and(&parts));
        }
        self.check_size()?;
        Ok(Some(self.or(&options)))
    }

    /// The block's truth over the count vectors extending `prefix` (counts of the
    /// first classes), split on the next class's count.
    pub(super) fn by_count_vectors(
        &mut self,
        f: &Formula,
        block: &Block,
        outer: &[(usize, usize)],
        prefix: &mut Vec<usize>,
    ) -> Result<G, EncodeError> {
        let class = prefix.len();
        if class == block.classes.len() {
            // An impossible vector (fewer pieces than the outer ones) never occurs.
            let truth = block.truth(f, self.set, outer, prefix).unwrap_or(false);
            return Ok(G::Const(truth));
        }
        let mut children = Vec::with_capacity(block.cap + 1);
        for n in 0..=block.cap {
            prefix.push(n);
            children.push(self.by_count_vectors(f, block, outer, prefix)?);
            prefix.pop();
        }
        if children.iter().all(|g| *g == children[0]) {
            return Ok(children[0]);
        }
        let lits: Vec<Lit> = (0..MAX_CELLS)
            .filter_map(|i| match self.cell_has(i, block.classes[class]) {
                G::Lit(l) => Some(l),
                G::Const(_) => None,
            })
            .collect();
        let mut parts = Vec::new();
        for (n, &child) in children.iter().enumerate() {
            if child == G::Const(false) {
                continue;
            }
            let at_least = self.at_least(lits.clone(), n as i128)?;
            let below = if n < block.cap {
                !self.at_least(lits.clone(), n as i128 + 1)?
            } else {
                G::Const(true)
            };
            parts.push(self.and(&[at_least, below, child]));
        }
        Ok(self.or(&parts))
    }
}

/// The body of `exists w. body` (`forall` when `universal`) split into the pieces `w`
/// must differ from (conjuncts `w != u`; disjuncts `w = u` under `forall`) and the
/// other parts, each with the polarity in which it is to hold (under `forall`, the
/// negation of the disjunct: the body is read as `!exists w. w != u & ...`).
pub(crate) fn exclusions(
    universal: bool,
    w: u8,
    body: &Formula,
) -> (Vec<u8>, Vec<(&Formula, bool)>) {
    let parts = body.split(!universal);
    let mut others = Vec::new();
    let mut rest = Vec::new();
    for (p, positive) in parts {
        let excluded = match &p.kind {
            FormulaKind::Same(a, b) if positive == universal && (a.0 == w) != (b.0 == w) => {
                Some(if a.0 == w { b.0 } else { a.0 })
            }
            _ => None,
        };
        match excluded {
            Some(u) => others.push(u),
            None => rest.push((p, positive != universal)),
        }
    }
    (others, rest)
}

/// The conjuncts of a formula (through nested `and`s).
fn flatten_and<'a>(f: &'a Formula, out: &mut Vec<&'a Formula>) {
    match &f.kind {
        FormulaKind::Bin(BinOp::And, a, b) => {
            flatten_and(a, out);
            flatten_and(b, out);
        }
        _ => out.push(f),
    }
}
