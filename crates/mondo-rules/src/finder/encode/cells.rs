//! What a cell holds and where: "cell i holds one of these pieces" (one literal per
//! cell and piece mask, shared by every formula that asks), "some piece among these
//! anywhere", the monotone "some piece in a line >= k" chains behind the box, and
//! the atoms: a unary or binary predicate at given cells, grounded from the AST's own
//! definitions (see the module doc of `encode`).

use super::{EncodeError, Encoder, G, SIDE};
use crate::koan::{MAX_CELLS, Piece, Pos, Size};
use crate::lang::ast::{BinaryPred, UnaryPred};
use rustsat::types::Lit;

impl Encoder {
    /// The pieces of the set (as a mask) for which `f` holds.
    pub(super) fn mask_of(&self, f: impl Fn(Piece) -> bool) -> u16 {
        self.pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| f(**p))
            .fold(0, |m, (k, _)| m | (1 << k))
    }

    /// "Cell i holds one of the pieces in `mask`" (exact: the full mask is `occ[i]`).
    pub(super) fn cell_has(&mut self, i: usize, mask: u16) -> G {
        if mask == 0 {
            return G::Const(false);
        }
        if mask == self.full {
            return G::Lit(self.occ[i]);
        }
        if mask.count_ones() == 1 {
            return G::Lit(self.cell[i][mask.trailing_zeros() as usize]);
        }
        if let Some(&g) = self.masks.get(&(i, mask)) {
            return g;
        }
        let parts: Vec<G> = (0..self.pieces.len())
            .filter(|k| mask & (1 << k) != 0)
            .map(|k| G::Lit(self.cell[i][k]))
            .collect();
        let g = self.or(&parts);
        if let G::Lit(l) = g {
            self.note_cell(l, i, mask);
        }
        self.masks.insert((i, mask), g);
        g
    }

    /// Records that `l` means "cell i holds one of `mask`".
    pub(super) fn note_cell(&mut self, l: Lit, i: usize, mask: u16) {
        self.exact.insert(l, (i, mask));
        self.within.insert(l, (i, mask));
    }

    /// Like [`Self::cell_has`] for a cell known to be occupied (a bound variable's).
    /// There a mask and the negation of its complement mean the same, so one canonical
    /// literal serves both (the smaller mask; on a tie, the one holding piece 0): "not
    /// small" and "medium or large" then share atoms, counts and totalizers.
    pub(super) fn bound_has(&mut self, i: usize, mask: u16) -> G {
        let rest = self.full & !mask;
        let (m, r) = (mask.count_ones(), rest.count_ones());
        if m < r || (m == r && mask & 1 != 0) {
            self.cell_has(i, mask)
        } else {
            !self.cell_has(i, rest)
        }
    }

    /// Some piece anywhere among `mask`.
    pub(super) fn any(&mut self, mask: u16) -> G {
        if mask == self.full {
            // The symmetry clauses make every model non-empty.
            return G::Const(true);
        }
        if let Some(&g) = self.any.get(&mask) {
            return g;
        }
        let parts: Vec<G> = (0..MAX_CELLS).map(|i| self.cell_has(i, mask)).collect();
        let g = self.or(&parts);
        self.any.insert(mask, g);
        g
    }

    pub(super) fn size_mask(&self, s: Size) -> u16 {
        self.mask_of(|p| p.size == s)
    }

    /// `lines[k]`: some piece in a line (row or column) with index >= k, for k in 0..=6,
    /// built as a chain so that the literals are monotone.
    pub(super) fn line_ge(&mut self, rows: bool) -> Vec<G> {
        let cached = if rows { &self.row_ge } else { &self.col_ge };
        if let Some(v) = cached {
            return v.clone();
        }
        let mut v = vec![G::Const(false); SIDE + 1];
        for k in (0..SIDE).rev() {
            let mut parts: Vec<G> = (0..SIDE)
                .map(|j| {
                    let i = if rows { k * SIDE + j } else { j * SIDE + k };
                    G::Lit(self.occ[i])
                })
                .collect();
            parts.push(v[k + 1]);
            v[k] = self.or(&parts);
        }
        if rows {
            self.row_ge = Some(v.clone());
        } else {
            self.col_ge = Some(v.clone());
        }
        v
    }

    /// "The bounding box fits in w columns and h rows".
    pub fn fits(&mut self, w: usize, h: usize) -> G {
        let cols = self.line_ge(false);
        let rows = self.line_ge(true);
        let (cw, rh) = (cols[w.min(SIDE)], rows[h.min(SIDE)]);
        self.and(&[!cw, !rh])
    }

    /// "At least k pieces" (exact in both directions).
    pub fn pieces_at_least(&mut self, k: usize) -> Result<G, EncodeError> {
        let occ = self.occ.clone();
        self.at_least(occ, k as i128)
    }

    pub(super) fn unary(&mut self, p: UnaryPred, i: usize) -> G {
        let (row, col) = (i / SIDE, i % SIDE);
        if p.is_local() {
            let mask = self.mask_of(|q| p.holds_on_piece(q) == Some(true));
            return self.bound_has(i, mask);
        }
        match p {
            // A piece is in row 0 (symmetry clause), so topmost means row 0.
            UnaryPred::Topmost => G::Const(row == 0),
            UnaryPred::Leftmost => G::Const(col == 0),
            UnaryPred::Bottommost => !self.line_ge(true)[row + 1],
            UnaryPred::Rightmost => !self.line_ge(false)[col + 1],
            UnaryPred::Largest | UnaryPred::Smallest => {
                // Its size is s and no piece of a size beyond s (in the predicate's
                // direction) exists anywhere.
                let largest = p == UnaryPred::Largest;
                let mut options = Vec::new();
                for s in Size::ALL {
                    let mine = self.size_mask(s);
                    let here = self.bound_has(i, mine);
                    let mut parts = vec![here];
                    for t in Size::ALL {
                        if (largest && t > s) || (!largest && t < s) {
                            let m = self.size_mask(t);
                            let a = self.any(m);
                            parts.push(!a);
                        }
                    }
                    let g = self.and(&parts);
                    options.push(g);
                }
                self.or(&options)
            }
            _ => unreachable!("local predicates are handled above"),
        }
    }

    /// `p(piece at i, piece at j)`, remembered per (relation, cells): a player's
    /// four-variable pattern asks the same atom for many bindings.
    pub(super) fn binary(&mut self, p: BinaryPred, i: usize, j: usize) -> G {
        let key = (p as usize * MAX_CELLS + i) * MAX_CELLS + j;
        if self.atoms.is_empty() {
            self.atoms = vec![None; BinaryPred::ALL.len() * MAX_CELLS * MAX_CELLS];
        }
        if let Some(g) = self.atoms[key] {
            return g;
        }
        let g = self.binary_uncached(p, i, j);
        self.atoms[key] = Some(g);
        g
    }

    pub(super) fn binary_uncached(&mut self, p: BinaryPred, i: usize, j: usize) -> G {
        let at = |i: usize| Pos::new((i / SIDE) as u8, (i % SIDE) as u8);
        let (a, b) = (at(i), at(j));
        if i == j {
            // One piece related to itself.
            let mask = self.mask_of(|q| p.holds((a, q), (a, q)));
            return self.bound_has(i, mask);
        }
        let rows = self.rows(|x, y| p.holds((a, self.pieces[x]), (b, self.pieces[y])));
        let mut options = Vec::with_capacity(rows.len());
        for (objects, subjects) in rows {
            let s = self.bound_has(i, subjects);
            let o = self.bound_has(j, objects);
            let g = self.and(&[s, o]);
            options.push(g);
        }
        self.or(&options)
    }

    /// A relation between pieces (by index in the set), grouped by rows: for each
    /// non-empty set of objects (mask), the subjects related to exactly those.
    pub(super) fn rows(&self, holds: impl Fn(usize, usize) -> bool) -> Vec<(u16, u16)> {
        let n = self.pieces.len();
        let mut rows: Vec<(u16, u16)> = Vec::new();
        for x in 0..n {
            let row = (0..n)
                .filter(|&y| holds(x, y))
                .fold(0u16, |m, y| m | (1 << y));
            if row == 0 {
                continue;
            }
            match rows.iter_mut().find(|r| r.0 == row) {
                Some(r) => r.1 |= 1 << x,
                None => rows.push((row, 1 << x)),
            }
        }
        rows
    }
}
