//! The number of groups (connected components by touching edges): one root literal
//! per cell, made exact by labels and a parent chain (see [`Encoder::roots`]).

use super::{Encoder, G, SIDE};
use crate::koan::MAX_CELLS;
use rustsat::instances::ManageVars;
use rustsat::types::Lit;

impl Encoder {
    /// `roots[i]`: cell i is occupied and is the first cell (row-major) of its group, so
    /// the number of groups is the number of true roots.
    ///
    /// Each occupied cell gets exactly one label `L <= i` (one-hot), touching occupied
    /// cells get equal labels, and a cell labelled L implies `lab[L] = L`. Alone that
    /// is not enough (two groups could share the label of one of them), so every
    /// occupied non-root cell must also have a touching *parent* with a strictly smaller
    /// distance value (unary, 0..=35; roots have 0).
    ///
    /// Soundness: labels are constant on a group (equal across touching cells). From
    /// any cell, following parents strictly decreases the distance, so it ends at a
    /// cell without parent, which must be a root r (lab[r] = r); the chain stays within
    /// the group, so r is in the group and the group's label is r. Two roots in one
    /// group would both equal the group's label, so there is exactly one root per
    /// group. Completeness: labelling each group by its first cell, with breadth-first
    /// distances from it (at most 35) and a breadth-first parent, satisfies every
    /// clause. Tested against `ast::groups` over all small structures.
    pub(super) fn roots(&mut self) -> Vec<Lit> {
        if let Some(r) = &self.roots {
            return r.clone();
        }
        const D: usize = MAX_CELLS - 1;
        let occ = self.occ.clone();
        let lab: Vec<Vec<Lit>> = (0..MAX_CELLS)
            .map(|i| (0..=i).map(|_| self.vm.new_lit()).collect())
            .collect();
        for i in 0..MAX_CELLS {
            // Exactly one label when occupied, none when empty.
            let mut c = vec![!occ[i]];
            c.extend(&lab[i]);
            self.clause(&c);
            for (a, &x) in lab[i].iter().enumerate() {
                self.clause(&[!x, occ[i]]);
                for &y in &lab[i][a + 1..] {
                    self.clause(&[!x, !y]);
                }
                // Label L used implies L is a root.
                if a != i {
                    self.clause(&[!x, lab[a][a]]);
                }
            }
        }
        let neighbours = |i: usize| {
            let (r, c) = (i / SIDE, i % SIDE);
            let mut v = Vec::with_capacity(4);
            if r > 0 {
                v.push(i - SIDE);
            }
            if r + 1 < SIDE {
                v.push(i + SIDE);
            }
            if c > 0 {
                v.push(i - 1);
            }
            if c + 1 < SIDE {
                v.push(i + 1);
            }
            v
        };
        // Touching occupied cells have equal labels.
        for i in 0..MAX_CELLS {
            for j in neighbours(i) {
                if j < i {
                    continue;
                }
                for (l, &theirs) in lab[j].iter().enumerate() {
                    match lab[i].get(l) {
                        Some(&mine) => {
                            self.clause(&[!mine, !occ[j], theirs]);
                            self.clause(&[!theirs, !occ[i], mine]);
                        }
                        // Labels above i are not i's to take.
                        None => self.clause(&[!theirs, !occ[i]]),
                    }
                }
            }
        }
        // dist[i][k-1]: distance of i is at least k (k = 1..=D), monotone.
        let dist: Vec<Vec<Lit>> = (0..MAX_CELLS)
            .map(|_| (0..D).map(|_| self.vm.new_lit()).collect())
            .collect();
        for i in 0..MAX_CELLS {
            for k in 1..D {
                self.clause(&[!dist[i][k], dist[i][k - 1]]);
            }
            // Roots and empty cells are at distance 0.
            self.clause(&[!lab[i][i], !dist[i][0]]);
            self.clause(&[occ[i], !dist[i][0]]);
            let mut need_parent = vec![!occ[i], lab[i][i]];
            for j in neighbours(i) {
                let par = self.vm.new_lit();
                need_parent.push(par);
                self.clause(&[!par, occ[j]]);
                // Parent's distance is strictly smaller.
                self.clause(&[!par, dist[i][0]]);
                for k in 0..D {
                    if k + 1 < D {
                        self.clause(&[!par, !dist[j][k], dist[i][k + 1]]);
                    } else {
                        self.clause(&[!par, !dist[j][k]]);
                    }
                }
            }
            self.clause(&need_parent);
        }
        let roots: Vec<Lit> = (0..MAX_CELLS).map(|i| lab[i][i]).collect();
        for (i, &r) in roots.iter().enumerate() {
            self.within.insert(r, (i, self.full));
            // A piece touching no piece is a group of its own: its cell is a root. Said
            // with the literal "pieces touching no piece" ground to (occupied, no
            // occupied neighbour), so that `groups - count(x: !exists y. touches(x,
            // y))` cancels cell by cell (see `paired`) instead of asking the solver to
            // compare two counts.
            let around: Vec<G> = neighbours(i).into_iter().map(|j| G::Lit(occ[j])).collect();
            let any = self.or(&around);
            if let G::Lit(alone) = self.and(&[G::Lit(occ[i]), !any]) {
                self.clause(&[!alone, r]);
                self.implies.insert(alone, r);
                // Conversely, a cell of a group with two pieces or more does not have
                // its root alone: for a piece labelled L with a piece beside it, L
                // touches a piece too. Redundant (the group is connected), but it
                // spares the solver a walk along the parent chain to see it.
                for (j, labels) in lab.iter().enumerate().take(MAX_CELLS) {
                    if let Some(&mine) = labels.get(i) {
                        for k in neighbours(j) {
                            self.clause(&[!mine, !occ[k], !alone]);
                        }
                    }
                }
            }
        }
        self.roots = Some(roots.clone());
        roots
    }
}
