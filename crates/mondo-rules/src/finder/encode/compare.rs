//! Comparisons and cardinality: every comparison of sums is reduced to a canonical
//! `e >= 0` (so opposite phrasings share one literal), differences that count the
//! same cell cancel, and what remains is an output of a shared totalizer, defined in
//! both directions around its bound. Parity is an exclusive or.

use super::values::Lin;
use super::{EncodeError, Encoder, G, SIDE};
use crate::lang::ast::CmpOp;
use rustsat::encodings::card::{
    BoundLower, BoundLowerIncremental, BoundUpper, BoundUpperIncremental, Totalizer,
};
use rustsat::types::Lit;

impl Encoder {
    /// `diff op 0`. Every comparison is first reduced to `e >= 0` forms, so that
    /// `a > b`, `b < a` and `not (a <= b)` all become one literal.
    pub(super) fn compare(&mut self, op: CmpOp, diff: &Lin) -> Result<G, EncodeError> {
        let e = self.paired(diff.canonical());
        let neg = e.negated();
        let minus_one = |l: &Lin| Lin {
            konst: l.konst - 1,
            terms: l.terms.clone(),
        };
        Ok(match op {
            CmpOp::Ge => self.ge0(&e)?,
            CmpOp::Gt => self.ge0(&minus_one(&e))?,
            CmpOp::Le => self.ge0(&neg)?,
            CmpOp::Lt => self.ge0(&minus_one(&neg))?,
            CmpOp::Eq | CmpOp::Ne => {
                let a = self.ge0(&e)?;
                let b = self.ge0(&neg)?;
                let eq = self.and(&[a, b]);
                if op == CmpOp::Eq { eq } else { !eq }
            }
        })
    }

    /// Cancels opposite terms that count the same cell: when `l` implies `m` (both about
    /// cell i, `l`'s pieces among `m`'s, or a clause says so), `m - l` is the single
    /// literal `m & !l`. So
    /// `groups - pieces` becomes minus the number of occupied non-root cells, and
    /// `count(small) < pieces` needs no totalizer at all.
    pub(super) fn paired(&mut self, mut e: Lin) -> Lin {
        let mut extra = Vec::new();
        for a in 0..e.terms.len() {
            for b in 0..e.terms.len() {
                let ((l, x), (m, y)) = (e.terms[a], e.terms[b]);
                if a == b || x == 0 || y == 0 || (x > 0) == (y > 0) {
                    continue;
                }
                let implied = self.implies.get(&l) == Some(&m);
                let same_cell = match (self.within.get(&l), self.exact.get(&m)) {
                    (Some(&(i, inner)), Some(&(j, outer))) => i == j && inner & !outer == 0,
                    _ => false,
                };
                if !implied && !same_cell {
                    continue;
                }
                // x*l + y*m = x'*l + y'*m + sign(y)*c*(m - l), m - l = m & !l.
                let c = x.abs().min(y.abs());
                let n = self.and(&[G::Lit(m), G::Lit(!l)]);
                e.terms[a].1 -= x.signum() * c;
                e.terms[b].1 -= y.signum() * c;
                extra.push((n, y.signum() * c));
            }
        }
        if extra.is_empty() {
            return e;
        }
        for (n, w) in extra {
            e.add_g(n, w);
        }
        e.canonical()
    }

    /// `e >= 0` for a canonical `e`, in one orientation per pair of opposite
    /// constraints: when `e`'s first term is negative, `e >= 0` is `!(-e - 1 >= 0)`.
    pub(super) fn ge0(&mut self, e: &Lin) -> Result<G, EncodeError> {
        let Some(&(_, lead)) = e.terms.first() else {
            return Ok(G::Const(e.konst >= 0));
        };
        if lead < 0 {
            let mut flipped = e.negated();
            flipped.konst -= 1;
            return Ok(!self.ge0(&flipped)?);
        }
        let key = (e.terms.clone(), e.konst);
        if let Some(&g) = self.comparisons.get(&key) {
            return Ok(g);
        }
        // P - N + konst >= 0 with P, N sums of literals (weights as repetitions).
        let mut pos = Vec::new();
        let mut neg = Vec::new();
        for &(l, w) in &e.terms {
            let side = if w > 0 { &mut pos } else { &mut neg };
            side.extend(std::iter::repeat_n(l, w.unsigned_abs() as usize));
        }
        let k = -e.konst;
        let g = if neg.is_empty() {
            self.at_least(pos, k)?
        } else {
            // Two unary numbers, each its own (shared) totalizer, compared output by
            // output: P >= N + k  <=>  for every j: N >= j implies P >= j + k.
            let mut parts = Vec::with_capacity(neg.len() + 1);
            for j in 0..=neg.len() as i128 {
                let n_j = self.at_least(neg.clone(), j)?;
                let p_j = self.at_least(pos.clone(), j + k)?;
                parts.push(self.or(&[!n_j, p_j]));
            }
            self.and(&parts)
        };
        self.comparisons.insert(key, g);
        Ok(g)
    }

    /// "At least k of these literals (counted with multiplicity) are true", defined in
    /// both directions, plus the known relations between counts (see `Link` in `ties.rs`).
    pub(super) fn at_least(&mut self, mut lits: Vec<Lit>, k: i128) -> Result<G, EncodeError> {
        lits.sort_unstable();
        if lits.len() == SIDE {
            if let Some(&rows) = self.lines.get(&lits) {
                self.lines_used[usize::from(rows)] = true;
            }
        }
        let g = self.at_least_sorted(&lits, k)?;
        if let (G::Lit(_), true) = (g, k > 0) {
            self.chain(&lits, k as usize, g);
        }
        if !self.linking && k > 0 && k <= lits.len() as i128 {
            self.linking = true;
            let result = self.apply_links(&lits, k, g);
            self.linking = false;
            result?;
        }
        Ok(g)
    }

    /// Outputs of one count are monotone ("sum >= k + 1" implies "sum >= k"); the
    /// totalizer implies it but does not say it, so say it between neighbouring
    /// outputs in use.
    pub(super) fn chain(&mut self, lits: &[Lit], k: usize, g: G) {
        let outputs = self.outputs.entry(lits.to_vec()).or_default();
        if outputs.insert(k, g).is_some() {
            return;
        }
        let below = outputs.range(..k).next_back().map(|(_, &g)| g);
        let above = outputs.range(k + 1..).next().map(|(_, &g)| g);
        if let Some(b) = below {
            self.imply(g, b);
        }
        if let Some(a) = above {
            self.imply(a, g);
        }
    }

    pub(super) fn at_least_sorted(&mut self, lits: &[Lit], k: i128) -> Result<G, EncodeError> {
        let n = lits.len() as i128;
        if k <= 0 {
            return Ok(G::Const(true));
        }
        if k > n {
            return Ok(G::Const(false));
        }
        let parts: Vec<G> = lits.iter().map(|&l| G::Lit(l)).collect();
        if k == 1 {
            return Ok(self.or(&parts));
        }
        if k == n {
            return Ok(self.and(&parts));
        }
        let k = k as usize;
        let tot = self
            .totalizers
            .entry(lits.to_vec())
            .or_insert_with(|| Totalizer::from(lits.to_vec()));
        let before = self.pending.len();
        // Output k needs its "if" half (encoded for upper bound k-1) and its "only if"
        // half (lower bound k); with just one half it would not mean "sum >= k".
        let oom = |_| EncodeError::Other("out of memory while encoding a count".into());
        tot.encode_ub_change(k - 1..k, &mut self.pending, &mut self.vm)
            .map_err(oom)?;
        tot.encode_lb_change(k..k + 1, &mut self.pending, &mut self.vm)
            .map_err(oom)?;
        let ge = tot.enforce_lb(k).map_err(|e| {
            EncodeError::Other(format!("internal error: totalizer output missing ({e})"))
        })?;
        let le = tot.enforce_ub(k - 1).map_err(|e| {
            EncodeError::Other(format!("internal error: totalizer output missing ({e})"))
        })?;
        self.clauses += self.pending.len() - before;
        match (ge.as_slice(), le.as_slice()) {
            ([g], [l]) if *l == !*g => Ok(G::Lit(*g)),
            _ => Err(EncodeError::Other(
                "internal error: a count bound is not defined in both directions".into(),
            )),
        }
    }

    /// Parity of a sum: the exclusive or of the literals with odd weight.
    pub(super) fn odd(&mut self, t: &Lin) -> G {
        let mut acc = G::Const(t.konst.rem_euclid(2) == 1);
        for &(l, w) in &t.terms {
            if w.rem_euclid(2) == 1 {
                acc = self.xor(acc, G::Lit(l));
            }
        }
        acc
    }
}
