//! The values a grounding is built of: a truth value ([`G`]), a linear sum of literals
//! ([`Lin`]) and a bound between two counts ([`Link`]).

use rustsat::types::Lit;

/// A grounded truth value: a constant or a literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum G {
    Const(bool),
    Lit(Lit),
}

impl std::ops::Not for G {
    type Output = G;
    fn not(self) -> G {
        match self {
            G::Const(b) => G::Const(!b),
            G::Lit(l) => G::Lit(!l),
        }
    }
}

/// A linear sum `konst + sum(weight * literal)`, with the range of values it can take
/// (to prove that the evaluator's saturating arithmetic never saturates).
#[derive(Clone, Debug, Default)]
pub(super) struct Lin {
    pub(super) konst: i128,
    pub(super) terms: Vec<(Lit, i128)>,
}

impl Lin {
    pub(super) fn constant(k: i128) -> Lin {
        Lin {
            konst: k,
            terms: Vec::new(),
        }
    }

    pub(super) fn add_g(&mut self, g: G, w: i128) {
        match g {
            G::Const(true) => self.konst += w,
            G::Const(false) => {}
            G::Lit(l) => self.terms.push((l, w)),
        }
    }

    pub(super) fn scaled_add(mut self, other: &Lin, sign: i128) -> Lin {
        self.konst += sign * other.konst;
        self.terms
            .extend(other.terms.iter().map(|&(l, w)| (l, sign * w)));
        self
    }

    /// Smallest and largest values over all assignments.
    pub(super) fn range(&self) -> (i128, i128) {
        let lo = self.konst + self.terms.iter().map(|t| t.1.min(0)).sum::<i128>();
        let hi = self.konst + self.terms.iter().map(|t| t.1.max(0)).sum::<i128>();
        (lo, hi)
    }

    /// The same sum with one term per literal, sorted, without zero weights. Literals
    /// keep the polarity they were built with (a count's per-cell literals stay the
    /// literals its totalizer counts); a literal and its negation merge
    /// (`a*l + b*!l = b + (a-b)*l`).
    pub(super) fn canonical(&self) -> Lin {
        let mut konst = self.konst;
        let mut by_lit: std::collections::BTreeMap<Lit, i128> = Default::default();
        for &(l, w) in &self.terms {
            *by_lit.entry(l).or_default() += w;
        }
        let mut terms: Vec<(Lit, i128)> = Vec::with_capacity(by_lit.len());
        for (&l, &w) in &by_lit {
            if l.is_neg() && by_lit.contains_key(&!l) {
                // Folded into the positive literal's term.
                continue;
            }
            let w = if l.is_pos() {
                match by_lit.get(&!l) {
                    Some(&wn) => {
                        konst += wn;
                        w - wn
                    }
                    None => w,
                }
            } else {
                w
            };
            if w != 0 {
                terms.push((l, w));
            }
        }
        Lin { konst, terms }
    }

    pub(super) fn negated(&self) -> Lin {
        Lin {
            konst: -self.konst,
            terms: self.terms.iter().map(|&(l, w)| (l, -w)).collect(),
        }
    }
}

/// `count(small) <= ratio * count(big)`, true of every structure (a pips total and its
/// pieces, the different sizes present and the pieces...). The solver could derive
/// each from the definitions, but only by a counting argument that resolution finds
/// hard (13 pieces cannot make 41 pips; 3 pieces cannot point 4 ways); stated as
/// clauses between the two totalizers' outputs they propagate at once. Redundant,
/// hence sound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Link {
    pub(super) small: Vec<Lit>,
    pub(super) big: Vec<Lit>,
    pub(super) ratio: i128,
}
