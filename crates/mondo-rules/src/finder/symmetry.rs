//! Symmetry breaking for blocks of quantifiers, so that the finder's worst cases
//! (docs/developers.md, "The finder's worst cases") ground fewer clauses.
//!
//! `exists a b c. same_row(a, b) & same_row(b, c) & same_row(a, c) & a != b & ...`
//! says the same thing whichever piece is called `a`: its body is unchanged when the
//! block's variables are permuted. The grounding need not try every assignment of
//! cells to such variables, only one per orbit, the lexicographically least (the
//! "lex-leader"). From each swap `pi` of two variables of a block `v1 .. vk` that
//! leaves the body reading the same, we keep the first
//! consequence of the lex-leader condition `t <= t o pi`: at the first position `m`
//! that `pi` moves, `cell(v_m) <= cell(v_pi(m))`. The grounding of `exists v_n`
//! (`forall v_n`) then skips the cells below every such bound on `v_n` (above, for the
//! other side) among the variables already bound around it.
//!
//! Why this is sound even after mini-scoping moved the block's quantifiers apart (see
//! `lang::eval::miniscope`): for an `exists` block, mini-scoping only distributes,
//! splits and moves quantifiers over `&` and `|`, so if the body holds for cells `t`,
//! the mini-scoped formula holds with every quantifier of the block witnessed by the
//! same `t`. Take `t` the lex-least of its orbit (the body holds there too, by
//! symmetry): it meets every bound, so the restricted grounding is true as well; and a
//! restricted quantifier is never truer than the plain one. Hence restricted = plain,
//! whichever bounds are applied where; a `forall` block is the dual. Bounds are applied
//! only where the other variable is bound in scope *and* free in the quantified
//! subformula, so the encoder's memo (keyed by the free variables' cells) stays right.
//!
//! Variables are made unique first ([`unique_binders`]): the AST lets a quantifier
//! rebind an index elsewhere in the tree, and the bounds are keyed by index.

use crate::lang::ast::{Formula, FormulaKind, Term, TermKind, Var};
use crate::lang::canonical;
use std::collections::HashMap;

/// Largest block whose permutations are tried (5! = 120 renamings of the body).
const MAX_BLOCK: usize = 5;

/// For each variable `v`, the variables whose cell bounds `v`'s: `(u, true)` means
/// `cell(u) <= cell(v)`, `(w, false)` means `cell(v) <= cell(w)`.
pub(crate) type Orders = HashMap<u8, Vec<(u8, bool)>>;

/// The formula with every binder given its own index (0, 1, 2 ... in tree order) and
/// the number of binders, or `None` when it has more binders than indices (then no
/// symmetry is broken).
pub(crate) fn unique_binders(f: &Formula) -> Option<Unique> {
    let mut next = 0u16;
    let mut map = HashMap::new();
    let formula = formula_renamed(f, &mut map, &mut next)?;
    Some(Unique {
        formula,
        binders: next,
    })
}

/// A formula whose binders are `0 .. binders`, each once.
pub(crate) struct Unique {
    pub formula: Formula,
    pub binders: u16,
}

fn fresh(next: &mut u16) -> Option<Var> {
    let v = u8::try_from(*next).ok()?;
    *next += 1;
    Some(Var(v))
}

fn formula_renamed(f: &Formula, map: &mut HashMap<u8, Var>, next: &mut u16) -> Option<Formula> {
    let v = |x: &Var, map: &HashMap<u8, Var>| map.get(&x.0).copied().unwrap_or(*x);
    let kind = match &f.kind {
        FormulaKind::Bool(b) => FormulaKind::Bool(*b),
        FormulaKind::Not(a) => FormulaKind::Not(Box::new(formula_renamed(a, map, next)?)),
        FormulaKind::Bin(op, a, b) => FormulaKind::Bin(
            *op,
            Box::new(formula_renamed(a, map, next)?),
            Box::new(formula_renamed(b, map, next)?),
        ),
        FormulaKind::Forall(x, body) | FormulaKind::Exists(x, body) => {
            let (y, body) = bind(*x, body, map, next, formula_renamed)?;
            if matches!(f.kind, FormulaKind::Forall(..)) {
                FormulaKind::Forall(y, Box::new(body))
            } else {
                FormulaKind::Exists(y, Box::new(body))
            }
        }
        FormulaKind::Unary(p, x) => FormulaKind::Unary(*p, v(x, map)),
        FormulaKind::Binary(p, x, y) => FormulaKind::Binary(*p, v(x, map), v(y, map)),
        FormulaKind::Same(x, y) => FormulaKind::Same(v(x, map), v(y, map)),
        FormulaKind::Cmp(op, a, b) => FormulaKind::Cmp(
            *op,
            term_renamed(a, map, next)?,
            term_renamed(b, map, next)?,
        ),
        FormulaKind::Parity(p, t) => FormulaKind::Parity(*p, term_renamed(t, map, next)?),
    };
    Some(Formula::new(f.span.clone(), kind))
}

/// Binds `x` to a fresh index for the extent of `body`, restoring the outer binding.
fn bind(
    x: Var,
    body: &Formula,
    map: &mut HashMap<u8, Var>,
    next: &mut u16,
    rename: fn(&Formula, &mut HashMap<u8, Var>, &mut u16) -> Option<Formula>,
) -> Option<(Var, Formula)> {
    let y = fresh(next)?;
    let outer = map.insert(x.0, y);
    let body = rename(body, map, next);
    match outer {
        Some(o) => map.insert(x.0, o),
        None => map.remove(&x.0),
    };
    Some((y, body?))
}

fn term_renamed(t: &Term, map: &mut HashMap<u8, Var>, next: &mut u16) -> Option<Term> {
    let kind = match &t.kind {
        TermKind::Count(x, body) => {
            let (y, body) = bind(*x, body, map, next, formula_renamed)?;
            TermKind::Count(y, Box::new(body))
        }
        TermKind::PipsSum(x, body) => {
            let (y, body) = bind(*x, body, map, next, formula_renamed)?;
            TermKind::PipsSum(y, Box::new(body))
        }
        TermKind::PipsOf(x) => TermKind::PipsOf(map.get(&x.0).copied().unwrap_or(*x)),
        TermKind::Add(a, b) => TermKind::Add(
            Box::new(term_renamed(a, map, next)?),
            Box::new(term_renamed(b, map, next)?),
        ),
        TermKind::Sub(a, b) => TermKind::Sub(
            Box::new(term_renamed(a, map, next)?),
            Box::new(term_renamed(b, map, next)?),
        ),
        TermKind::Mul(k, a) => TermKind::Mul(*k, Box::new(term_renamed(a, map, next)?)),
        TermKind::Mod(a, k) => TermKind::Mod(Box::new(term_renamed(a, map, next)?), *k),
        other => other.clone(),
    };
    Some(Term::new(t.span.clone(), kind))
}

/// The bounds of every symmetric block in `f`.
pub(crate) fn orders(f: &Unique) -> Orders {
    let mut out = Orders::new();
    walk(&f.formula, f.binders, &mut out);
    out
}

fn walk(f: &Formula, binders: u16, out: &mut Orders) {
    match &f.kind {
        FormulaKind::Forall(..) | FormulaKind::Exists(..) => {
            let universal = matches!(f.kind, FormulaKind::Forall(..));
            let mut vars = Vec::new();
            let mut body = f;
            // The block of binders of one kind, as `lang::eval::miniscope` takes it.
            while let FormulaKind::Forall(v, b) | FormulaKind::Exists(v, b) = &body.kind {
                if matches!(body.kind, FormulaKind::Forall(..)) != universal {
                    break;
                }
                vars.push(v.0);
                body = b;
            }
            if (2..=MAX_BLOCK).contains(&vars.len()) {
                block(&vars, body, binders, out);
            }
            walk(body, binders, out);
        }
        FormulaKind::Not(a) => walk(a, binders, out),
        FormulaKind::Bin(_, a, b) => {
            walk(a, binders, out);
            walk(b, binders, out);
        }
        FormulaKind::Cmp(_, a, b) => {
            walk_term(a, binders, out);
            walk_term(b, binders, out);
        }
        FormulaKind::Parity(_, t) => walk_term(t, binders, out),
        FormulaKind::Bool(_)
        | FormulaKind::Unary(..)
        | FormulaKind::Binary(..)
        | FormulaKind::Same(..) => {}
    }
}

fn walk_term(t: &Term, binders: u16, out: &mut Orders) {
    match &t.kind {
        TermKind::Count(_, body) | TermKind::PipsSum(_, body) => walk(body, binders, out),
        TermKind::Add(a, b) | TermKind::Sub(a, b) => {
            walk_term(a, binders, out);
            walk_term(b, binders, out);
        }
        TermKind::Mul(_, a) | TermKind::Mod(a, _) => walk_term(a, binders, out),
        _ => {}
    }
}

/// Every permutation of `vars` that leaves `body` reading the same
/// ([`canonical`]: up to the order of `&` / `|` operands, converses, symmetric
/// relations...) contributes its first lex-leader bound. Renaming the block's
/// variables gives inner binders fresh indices from `binders` on, so none captures.
fn block(vars: &[u8], body: &Formula, binders: u16, out: &mut Orders) {
    let plain = canonical(body);
    let mut perm: Vec<usize> = (0..vars.len()).collect();
    let mut bounds: Vec<(u8, u8)> = Vec::new();
    while next_permutation(&mut perm) {
        let mut map: HashMap<u8, Var> = (0..vars.len())
            .map(|i| (vars[i], Var(vars[perm[i]])))
            .collect();
        let mut next = binders;
        let Some(renamed) = formula_renamed(body, &mut map, &mut next) else {
            return;
        };
        // Only a swap of two variables: the bound of a compound symmetry (`(a b)(c d)`)
        // shrank the grounding as well, but it left a proof of equivalence between two
        // such blocks (the beyond-limit set's crossed likeness) undecided at 20 s where the
        // plain grounding took 2 s; a swap's bound is the plain "the two are
        // interchangeable, take them in order".
        if (0..vars.len()).filter(|&i| perm[i] != i).count() != 2 || canonical(&renamed) != plain {
            continue;
        }
        // First moved position m: cell(v_m) <= cell(v_perm(m)).
        if let Some(m) = (0..vars.len()).find(|&i| perm[i] != i) {
            let pair = (vars[m], vars[perm[m]]);
            if !bounds.contains(&pair) {
                bounds.push(pair);
            }
        }
    }
    for (small, big) in bounds {
        out.entry(big).or_default().push((small, true));
        out.entry(small).or_default().push((big, false));
    }
}

/// The next permutation in lexicographic order; false after the last.
fn next_permutation(p: &mut [usize]) -> bool {
    let Some(i) = (1..p.len()).rev().find(|&i| p[i - 1] < p[i]) else {
        return false;
    };
    let j = (i..p.len())
        .rev()
        .find(|&j| p[j] > p[i - 1])
        .expect("p[i] itself is larger");
    p.swap(i - 1, j);
    p[i..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang;

    fn orders_of(text: &str) -> Orders {
        let f = lang::parse(text).expect("reads").formula;
        orders(&unique_binders(&f).expect("few binders"))
    }

    #[test]
    fn a_fully_symmetric_block_orders_its_variables() {
        // Three distinct pieces in one row: any order of a, b, c says the same.
        let o =
            orders_of("exists a b c. a != b & b != c & a != c & same_row(a, b) & same_row(b, c)");
        // Not every permutation leaves `same_row(a,b) & same_row(b,c)` unchanged, but
        // swapping a and c does: cell(a) <= cell(c).
        assert_eq!(o.get(&0), Some(&vec![(2, false)]));
        assert_eq!(o.get(&2), Some(&vec![(0, true)]));
        let o = orders_of(
            "exists a b c. a != b & b != c & a != c & same_row(a, b) & same_row(b, c) & same_row(c, a)",
        );
        // The whole group: a <= b, a <= c, b <= c.
        let mut of_c = o.get(&2).cloned().unwrap_or_default();
        of_c.sort();
        assert_eq!(of_c, vec![(0, true), (1, true)]);
    }

    #[test]
    fn an_asymmetric_block_is_left_alone() {
        assert!(orders_of("exists a b. left_of(a, b) & small(a)").is_empty());
        assert!(orders_of("exists a b. points_at(a, b) & points_at(b, a) & small(a)").is_empty());
        // Mixed kinds are two blocks of one variable each.
        assert!(orders_of("forall a. exists b. touches(a, b)").is_empty());
    }

    #[test]
    fn converses_and_commutations_are_seen_through() {
        // left_of(a,b) & right_of(b... : swapping a, b turns left_of(a,b) into
        // left_of(b,a) = right_of(a,b), which the body also says.
        let o = orders_of("exists a b. left_of(a, b) | right_of(a, b)");
        assert_eq!(o.get(&1), Some(&vec![(0, true)]));
        // The crossed likeness of the beyond-limit set: (a b)(c d) is a symmetry, but not a
        // swap of two, so it is left alone (see `block`).
        let o = orders_of(
            "exists a b c d. a!=b & a!=c & a!=d & b!=c & b!=d & c!=d & same_direction(a,b) & same_direction(c,d) & same_size(a,c) & same_size(b,d) & !same_size(a,b)",
        );
        assert!(o.is_empty(), "{o:?}");
    }

    #[test]
    fn the_hard_sets_symmetric_pairs_are_bounded() {
        // The brute-force check of the hard set covers the bounds only if they apply.
        let cases = crate::finder::suite::hard_cases().expect("the hard set reads");
        let symmetric: Vec<_> = cases
            .iter()
            .filter(|c| c.name.contains("/symmetric-"))
            .collect();
        assert_eq!(symmetric.len(), 11);
        for c in symmetric {
            let f = unique_binders(&c.hidden.formula).expect("few binders");
            assert!(!orders(&f).is_empty(), "{}: no bound", c.name);
        }
    }

    #[test]
    fn rebound_indices_become_unique() {
        // Both quantifiers bind index 0 in the source; the block below is symmetric
        // only in its own variables.
        let f = lang::parse("(exists x. small(x)) & exists x y. touches(x, y)")
            .expect("reads")
            .formula;
        let g = unique_binders(&f).expect("few binders");
        assert_eq!(g.binders, 3);
        let o = orders(&g);
        assert_eq!(o.get(&2), Some(&vec![(1, true)]));
        assert!(!o.contains_key(&0));
    }
}
