//! Mini-scoping: every quantifier pushed as far inward as it can go, so that each
//! subformula mentions as few variables as possible.
//!
//! Both the evaluator and the finder's grounding remember the value of a subformula
//! for each binding of its free variables; what they pay is the number of such
//! bindings. A player's `exists x y z w. points_at(x, y) & points_at(y, z) &
//! points_at(z, w)` has all four variables free in its body (36^4 bindings on a full
//! board); mini-scoped it reads `exists x. exists y. points_at(x, y) & exists z.
//! points_at(y, z) & exists w. points_at(z, w)`, whose innermost part depends on one
//! variable only. The rewrites are the textbook equivalences of first-order logic over
//! a non-empty domain (a structure always has a piece):
//!
//! - `exists v. A & B(v)` = `A & exists v. B(v)` when v is not free in A (and `forall`
//!   over `|` likewise); a quantifier whose variable appears nowhere is dropped;
//! - `exists v. A | B` = `(exists v. A) | (exists v. B)` (and `forall` over `&`);
//! - a block of quantifiers of one kind (`exists x y z`) may bind in any order, so the
//!   conjuncts are split into groups that share no variable of the block, each group
//!   quantified on its own, and within a group the variable bound first is the one
//!   that leaves the smallest groups behind (the middle of a chain).
//!
//! Conjunctions and disjunctions are also reordered so that plain atoms come before
//! quantified parts: evaluating (or grounding) left to right, an atom that already
//! decides the whole (`touches(x, y)` false) spares the costly rest. Nothing here
//! changes a formula's truth on any structure; the evaluator's property tests check it
//! against the reference on every shape of formula the random generator makes.

use crate::lang::ast::{BinOp, Formula, FormulaKind, Span, Term, TermKind, Var};

/// The formula with every quantifier pushed inward (see the module documentation).
pub fn miniscope(f: &Formula) -> Formula {
    match &f.kind {
        FormulaKind::Exists(..) | FormulaKind::Forall(..) => {
            let universal = matches!(f.kind, FormulaKind::Forall(..));
            // The block of binders of one kind, each variable once (a repeated one
            // shadows the outer, so the block stops there).
            let mut vars = Vec::new();
            let mut body = f;
            loop {
                match &body.kind {
                    FormulaKind::Exists(v, b) if !universal && !vars.contains(v) => {
                        vars.push(*v);
                        body = b;
                    }
                    FormulaKind::Forall(v, b) if universal && !vars.contains(v) => {
                        vars.push(*v);
                        body = b;
                    }
                    _ => break,
                }
            }
            let body = miniscope(body);
            quantify(universal, &vars, body, &f.span)
        }
        FormulaKind::Not(a) => mk(f, FormulaKind::Not(Box::new(miniscope(a)))),
        FormulaKind::Bin(op, a, b) => mk(
            f,
            FormulaKind::Bin(*op, Box::new(miniscope(a)), Box::new(miniscope(b))),
        ),
        FormulaKind::Cmp(op, a, b) => mk(f, FormulaKind::Cmp(*op, term(a), term(b))),
        FormulaKind::Parity(p, t) => mk(f, FormulaKind::Parity(*p, term(t))),
        FormulaKind::Bool(_)
        | FormulaKind::Unary(..)
        | FormulaKind::Binary(..)
        | FormulaKind::Same(..) => f.clone(),
    }
}

fn mk(like: &Formula, kind: FormulaKind) -> Formula {
    Formula::new(like.span.clone(), kind)
}

fn term(t: &Term) -> Term {
    let kind = match &t.kind {
        TermKind::Count(v, body) => TermKind::Count(*v, Box::new(miniscope(body))),
        TermKind::PipsSum(v, body) => TermKind::PipsSum(*v, Box::new(miniscope(body))),
        TermKind::Add(a, b) => TermKind::Add(Box::new(term(a)), Box::new(term(b))),
        TermKind::Sub(a, b) => TermKind::Sub(Box::new(term(a)), Box::new(term(b))),
        // Terms without a formula inside.
        _ => return t.clone(),
    };
    Term::new(t.span.clone(), kind)
}

/// `Q vars. body` (body already mini-scoped), pushed inward.
fn quantify(universal: bool, vars: &[Var], body: Formula, span: &Span) -> Formula {
    quantify_within(universal, vars, body, span, SPREADS)
}

/// How many times one block may be split over a mixed `|` (see [`quantify_within`]):
/// each split copies the rest of the body once.
const SPREADS: u32 = 3;

fn quantify_within(
    universal: bool,
    vars: &[Var],
    body: Formula,
    span: &Span,
    spreads: u32,
) -> Formula {
    let fv = free(&body);
    let vars: Vec<Var> = vars.iter().copied().filter(|v| fv.contains(&v.0)).collect();
    if vars.is_empty() {
        return body;
    }
    // `exists` distributes over `|` and `forall` over `&`.
    let spread = parts(&body, universal);
    if spread.len() > 1 {
        let spread = spread
            .into_iter()
            .map(|p| quantify_within(universal, &vars, p, span, spreads))
            .collect();
        return join(universal, spread, span);
    }
    // The conjuncts of an `exists` (disjuncts of a `forall`): those without a variable
    // of the block go outside it, the others into independent groups.
    let items = parts(&body, !universal);
    // For the last variable of a block, a conjunct `A | B(v)` whose `A` does not
    // mention it is split: `exists v. (A | B(v)) & C(v)` is `(A & exists v. C(v)) |
    // exists v. B(v) & C(v)` (and dually for `forall`), so that `A` leaves the
    // quantifier; `C` is copied, hence the budget.
    if vars.len() == 1 && spreads > 0 {
        let v = vars[0].0;
        for i in 0..items.len() {
            let alts = parts(&items[i], universal);
            let (without, with): (Vec<Formula>, Vec<Formula>) =
                alts.into_iter().partition(|a| !free(a).contains(&v));
            if without.is_empty() || with.is_empty() {
                continue;
            }
            let others: Vec<Formula> = items
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, p)| p.clone())
                .collect();
            let side = |alt: Vec<Formula>| {
                let mut conj = others.clone();
                conj.push(join(universal, alt, span));
                join(!universal, conj, span)
            };
            let split = join(universal, vec![side(without), side(with)], span);
            return quantify_within(universal, &vars, split, span, spreads - 1);
        }
    }
    let fvs: Vec<Vec<u8>> = items.iter().map(free).collect();
    let mut out = Vec::new();
    let mut slots: Vec<Option<Formula>> = items.into_iter().map(Some).collect();
    for (i, fv) in fvs.iter().enumerate() {
        if !fv.iter().any(|v| vars.iter().any(|w| w.0 == *v)) {
            out.extend(slots[i].take());
        }
    }
    for (group_vars, members) in groups(&vars, &fvs) {
        let group: Vec<(Formula, Vec<u8>)> = members
            .into_iter()
            .filter_map(|i| slots[i].take().map(|p| (p, fvs[i].clone())))
            .collect();
        out.push(bind(universal, &group_vars, group, span));
    }
    join(!universal, out, span)
}

/// One group (connected through the block's variables): the variable that splits the
/// rest best is bound outermost, and the rest is pushed inside it.
fn bind(universal: bool, vars: &[Var], items: Vec<(Formula, Vec<u8>)>, span: &Span) -> Formula {
    let fvs: Vec<Vec<u8>> = items.iter().map(|(_, fv)| fv.clone()).collect();
    // Fewest variables in the largest group left behind; then the most parts using it.
    let first = *vars
        .iter()
        .min_by_key(|v| {
            let rest: Vec<Var> = vars.iter().copied().filter(|w| w != *v).collect();
            let largest = groups(&rest, &fvs)
                .iter()
                .map(|(g, _)| g.len())
                .max()
                .unwrap_or(0);
            let uses = fvs.iter().filter(|fv| fv.contains(&v.0)).count();
            (largest, std::cmp::Reverse(uses))
        })
        .expect("a group has a variable");
    let rest: Vec<Var> = vars.iter().copied().filter(|w| *w != first).collect();
    let body = join(
        !universal,
        items.into_iter().map(|(p, _)| p).collect(),
        span,
    );
    let inner = quantify(universal, &rest, body, span);
    let kind = if universal {
        FormulaKind::Forall(first, Box::new(inner))
    } else {
        FormulaKind::Exists(first, Box::new(inner))
    };
    Formula::new(span.clone(), kind)
}

/// The parts (by index) that mention variables of `vars`, in groups that share such
/// variables (transitively), each with its variables.
fn groups(vars: &[Var], fvs: &[Vec<u8>]) -> Vec<(Vec<Var>, Vec<usize>)> {
    let mut out: Vec<(Vec<Var>, Vec<usize>)> = Vec::new();
    for (i, fv) in fvs.iter().enumerate() {
        let mut mine: Vec<Var> = vars.iter().copied().filter(|v| fv.contains(&v.0)).collect();
        if mine.is_empty() {
            continue;
        }
        let mut members = vec![i];
        let mut k = 0;
        while k < out.len() {
            if out[k].0.iter().any(|v| mine.contains(v)) {
                let (gv, gi) = out.remove(k);
                mine.extend(gv);
                members.extend(gi);
            } else {
                k += 1;
            }
        }
        mine.sort_unstable();
        mine.dedup();
        members.sort_unstable();
        out.push((mine, members));
    }
    out
}

/// The conjuncts (`conj`) or disjuncts of `f` ([`Formula::split`]), the negated ones
/// with their `!`.
fn parts(f: &Formula, conj: bool) -> Vec<Formula> {
    let part = |(p, positive): (&Formula, bool)| match positive {
        true => p.clone(),
        false => Formula::new(p.span.clone(), FormulaKind::Not(Box::new(p.clone()))),
    };
    f.split(conj).into_iter().map(part).collect()
}

/// The conjunction (`conj`) or disjunction of the parts, plain atoms first (a stable
/// order otherwise); `true` / `false` when there are none.
fn join(conj: bool, mut parts: Vec<Formula>, span: &Span) -> Formula {
    parts.sort_by_key(|p| !is_atom(p));
    let op = if conj { BinOp::And } else { BinOp::Or };
    let mut it = parts.into_iter();
    let Some(first) = it.next() else {
        return Formula::new(span.clone(), FormulaKind::Bool(conj));
    };
    it.fold(first, |acc, p| {
        let span = acc.span.start.min(p.span.start)..acc.span.end.max(p.span.end);
        Formula::new(span, FormulaKind::Bin(op, Box::new(acc), Box::new(p)))
    })
}

/// An atom or a negated atom: cheap to decide once its variables are bound.
fn is_atom(f: &Formula) -> bool {
    match &f.kind {
        FormulaKind::Not(a) => is_atom(a),
        FormulaKind::Bool(_)
        | FormulaKind::Unary(..)
        | FormulaKind::Binary(..)
        | FormulaKind::Same(..) => true,
        _ => false,
    }
}

/// The free variables of a formula, sorted, each once.
pub fn free(f: &Formula) -> Vec<u8> {
    let mut out = Vec::new();
    walk(f, &mut Vec::new(), &mut out);
    out.sort_unstable();
    out.dedup();
    out
}

/// The free variables of a term, sorted, each once.
pub fn free_in_term(t: &Term) -> Vec<u8> {
    let mut out = Vec::new();
    walk_term(t, &mut Vec::new(), &mut out);
    out.sort_unstable();
    out.dedup();
    out
}

fn note(v: u8, bound: &[u8], out: &mut Vec<u8>) {
    if !bound.contains(&v) {
        out.push(v);
    }
}

fn walk(f: &Formula, bound: &mut Vec<u8>, out: &mut Vec<u8>) {
    match &f.kind {
        FormulaKind::Bool(_) => {}
        FormulaKind::Not(a) => walk(a, bound, out),
        FormulaKind::Bin(_, a, b) => {
            walk(a, bound, out);
            walk(b, bound, out);
        }
        FormulaKind::Forall(v, body) | FormulaKind::Exists(v, body) => {
            bound.push(v.0);
            walk(body, bound, out);
            bound.pop();
        }
        FormulaKind::Unary(_, v) => note(v.0, bound, out),
        FormulaKind::Binary(_, a, b) | FormulaKind::Same(a, b) => {
            note(a.0, bound, out);
            note(b.0, bound, out);
        }
        FormulaKind::Cmp(_, a, b) => {
            walk_term(a, bound, out);
            walk_term(b, bound, out);
        }
        FormulaKind::Parity(_, t) => walk_term(t, bound, out),
    }
}

fn walk_term(t: &Term, bound: &mut Vec<u8>, out: &mut Vec<u8>) {
    match &t.kind {
        TermKind::Count(v, body) | TermKind::PipsSum(v, body) => {
            bound.push(v.0);
            walk(body, bound, out);
            bound.pop();
        }
        TermKind::PipsOf(v) => note(v.0, bound, out),
        TermKind::Add(a, b) | TermKind::Sub(a, b) => {
            walk_term(a, bound, out);
            walk_term(b, bound, out);
        }
        TermKind::Mul(_, a) | TermKind::Mod(a, _) => walk_term(a, bound, out),
        TermKind::Int(_)
        | TermKind::Pieces
        | TermKind::Width
        | TermKind::Height
        | TermKind::Groups
        | TermKind::Sizes
        | TermKind::Directions => {}
    }
}
