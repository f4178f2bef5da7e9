//! Relations between counts that hold in every structure, stated as clauses between
//! totalizer outputs: a partition of the pieces (by size, by direction, by row)
//! adds up to the piece count, the pips of each size add up to the total pips, and
//! one count is bounded by a multiple of another. Redundant, hence sound; they give
//! the solver at once what resolution would need a pigeonhole argument for.

use super::values::{G, Lin, Link};
use super::{EncodeError, Encoder, SIDE};
use crate::koan::{MAX_CELLS, Size};
use rustsat::instances::ManageVars;
use rustsat::types::Lit;

impl Encoder {
    /// The size classes or the direction classes of the set, as masks (those that
    /// exist in the set).
    pub(super) fn classes(&self, sizes: bool) -> Vec<u16> {
        let masks: Vec<u16> = if sizes {
            Size::ALL.iter().map(|&s| self.size_mask(s)).collect()
        } else {
            crate::koan::Direction::ALL
                .iter()
                .map(|&d| self.mask_of(|p| p.dir == d))
                .collect()
        };
        masks.into_iter().filter(|&m| m != 0).collect()
    }

    pub(super) fn partition_of(&mut self, sizes: bool) -> Result<(), EncodeError> {
        let classes = self.classes(sizes);
        self.partition(&classes)
    }

    /// Ties the counts of a partition of the pieces into classes (by size, or by
    /// direction) to the piece count: "pieces >= k" holds exactly when the class
    /// counts sum to k or more. Each class count is a (shared) totalizer; their sum is
    /// built from those outputs with the totalizer's own merge clauses (a sum of two
    /// unary numbers), and its outputs are made equivalent to the piece count's.
    /// True of every structure, hence sound; it spares the solver pigeonhole
    /// arguments such as "four pieces of pairwise different sizes cannot exist".
    pub(super) fn partition(&mut self, classes: &[u16]) -> Result<(), EncodeError> {
        if classes.len() < 2 || self.partitioned.iter().any(|p| p == classes) {
            return Ok(());
        }
        self.partitioned.push(classes.to_vec());
        let parts: Vec<(Vec<Lit>, usize)> = classes
            .iter()
            .map(|&mask| (self.class_lits(mask), 1))
            .collect();
        let total = self.occ.clone();
        self.tie(&parts, &total)
    }

    /// The literals "cell i holds one of `mask`", over the cells where that can be.
    pub(super) fn class_lits(&mut self, mask: u16) -> Vec<Lit> {
        (0..MAX_CELLS)
            .filter_map(|i| match self.cell_has(i, mask) {
                G::Lit(l) => Some(l),
                G::Const(_) => None,
            })
            .collect()
    }

    /// Says that the counts of `parts` (each weighted) add up to the count of
    /// `total`: each part's count as a unary number (its own shared totalizer's
    /// outputs, repeated `weight` times), summed with the totalizer's merge clauses,
    /// and the sum's outputs made equivalent to the total's. True of every structure
    /// by construction of the callers (the parts split what the total counts), hence
    /// sound; it gives the solver at once what it would otherwise need a pigeonhole
    /// argument for.
    pub(super) fn tie(
        &mut self,
        parts: &[(Vec<Lit>, usize)],
        total: &[Lit],
    ) -> Result<(), EncodeError> {
        let cap = total.len();
        let mut sum: Vec<G> = Vec::new();
        for (c, (lits, weight)) in parts.iter().enumerate() {
            let mut unary = Vec::with_capacity(lits.len() * weight);
            for k in 1..=lits.len() as i128 {
                let g = self.at_least(lits.clone(), k)?;
                unary.extend(std::iter::repeat_n(g, *weight));
            }
            sum = if c == 0 {
                unary
            } else {
                self.merge(&sum, &unary, cap)
            };
        }
        for (k, &s) in sum.iter().enumerate() {
            let p = self.at_least(total.to_vec(), k as i128 + 1)?;
            self.imply(s, p);
            self.imply(p, s);
        }
        self.check_size()
    }

    /// Ties added once the formulas are grounded, when the counts they relate are in
    /// use: the pieces per row (and per column) add up to the pieces, and the pips of
    /// the small, medium and large pieces (1, 2 and 3 each) to the total pips.
    pub(super) fn finish_links(&mut self) -> Result<(), EncodeError> {
        for rows in [true, false] {
            let r = usize::from(rows);
            if self.lines_used[r] && !self.lines_tied[r] {
                self.lines_tied[r] = true;
                let parts: Vec<(Vec<Lit>, usize)> = (0..SIDE)
                    .map(|k| {
                        let cells =
                            (0..SIDE).map(|j| if rows { k * SIDE + j } else { j * SIDE + k });
                        (cells.map(|i| self.occ[i]).collect(), 1)
                    })
                    .collect();
                let total = self.occ.clone();
                self.tie(&parts, &total)?;
            }
        }
        let sizes = self.classes(true);
        let sized = sizes.len() > 1
            && self
                .partitioned
                .iter()
                .any(|p| p.len() == sizes.len() && p.iter().all(|m| sizes.contains(m)));
        if self.pips_total_used && sized && !self.pips_tied {
            self.pips_tied = true;
            let weighted: Vec<(u16, usize)> = Size::ALL
                .iter()
                .map(|&s| (self.size_mask(s), s.pips() as usize))
                .filter(|(m, _)| *m != 0)
                .collect();
            let parts: Vec<(Vec<Lit>, usize)> = weighted
                .into_iter()
                .map(|(m, w)| (self.class_lits(m), w))
                .collect();
            let total = self.pips_total_lits();
            self.tie(&parts, &total)?;
        }
        Ok(())
    }

    /// The literals the total pips counts: per cell, "a piece", "2 pips or more", "3
    /// pips" (the same as a `pips(x: true)` term's, so that its totalizer is shared).
    pub(super) fn pips_total_lits(&mut self) -> Vec<Lit> {
        let m2 = self.mask_of(|p| p.pips() >= 2);
        let m3 = self.mask_of(|p| p.pips() >= 3);
        let full = self.full;
        let mut lits = Vec::new();
        for i in 0..MAX_CELLS {
            for m in [full, m2, m3] {
                if let G::Lit(l) = self.cell_has(i, m) {
                    lits.push(l);
                }
            }
        }
        lits.sort_unstable();
        lits
    }

    /// The unary sum of two unary numbers (`a[j]` means "a >= j + 1"), at most `cap`:
    /// the totalizer's merge clauses in both directions. Sums beyond `cap` are
    /// excluded (callers only merge counts of disjoint sets of cells' pieces).
    pub(super) fn merge(&mut self, a: &[G], b: &[G], cap: usize) -> Vec<G> {
        let n = (a.len() + b.len()).min(cap);
        let s: Vec<G> = (0..n).map(|_| G::Lit(self.vm.new_lit())).collect();
        let at = |v: &[G], i: usize| {
            if i == 0 {
                G::Const(true)
            } else {
                v.get(i - 1).copied().unwrap_or(G::Const(false))
            }
        };
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                // a >= i and b >= j imply s >= i + j.
                if i + j >= 1 {
                    let both = [at(a, i), at(b, j)];
                    let target = at(&s, i + j);
                    let target = if i + j > n { G::Const(false) } else { target };
                    self.clause_g(&[!both[0], !both[1], target]);
                }
                // a < i + 1 and b < j + 1 imply s < i + j + 1.
                if i + j < n {
                    let (na, nb) = (at(a, i + 1), at(b, j + 1));
                    self.clause_g(&[na, nb, !at(&s, i + j + 1)]);
                }
            }
        }
        s
    }

    /// Says what the registered links imply about the output `g` ("`lits` >= k").
    pub(super) fn apply_links(&mut self, lits: &[Lit], k: i128, g: G) -> Result<(), EncodeError> {
        let links: Vec<Link> = self
            .links
            .iter()
            .filter(|l| l.small == lits || l.big == lits)
            .cloned()
            .collect();
        for link in links {
            if link.small == lits {
                // small >= k  implies  big >= ceil(k / ratio)
                let big = self.at_least(link.big.clone(), (k + link.ratio - 1) / link.ratio)?;
                self.imply(g, big);
            } else {
                // small >= ratio * (k - 1) + 1  implies  big >= k
                let small = self.at_least(link.small.clone(), link.ratio * (k - 1) + 1)?;
                self.imply(small, g);
            }
        }
        Ok(())
    }

    /// Registers `count(small) <= ratio * count(big)` for sums over these literals.
    pub(super) fn link(&mut self, small: &Lin, big: &Lin, ratio: i128) {
        let plain = |l: &Lin| {
            (l.konst == 0 && l.terms.iter().all(|t| t.1 == 1)).then(|| {
                let mut v: Vec<Lit> = l.terms.iter().map(|t| t.0).collect();
                v.sort_unstable();
                v
            })
        };
        if let (Some(small), Some(big)) = (plain(small), plain(big))
            && small != big
        {
            let link = Link { small, big, ratio };
            if !self.links.contains(&link) {
                self.links.push(link);
            }
        }
    }
}
