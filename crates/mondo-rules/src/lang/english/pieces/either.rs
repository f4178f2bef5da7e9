//! `either A or B` whose parts cannot both hold: the exclusive and the inclusive
//! readings are then one, and the reader reads it (docs/patterns.md, "Connectives").
//! Whether two parts can hold together is decided only where it is certain from their
//! form; elsewhere the refusal stands, offering both readings.

use crate::lang::ast::{BinOp, CmpOp, Formula, FormulaKind, Term, TermKind, UnaryPred};
use crate::lang::error::ParsePatternError;
use crate::lang::symbolic;

/// Whether two kinds of piece never hold of one piece together (two sizes).
pub(super) type Exclusive = fn(UnaryPred, UnaryPred) -> bool;

/// The inclusive reading of a refused `either A or B` (its examples: with `but not
/// both`, and without `either`, each read by `read`), when A and B cannot both hold.
pub(super) fn inclusive(
    e: &ParsePatternError,
    read: impl Fn(&str) -> Option<Formula>,
    exclusive: Exclusive,
) -> Option<Formula> {
    let [xor, or] = &e.examples[..] else {
        return None;
    };
    if !e.readings {
        return None;
    }
    let (x, o) = (read(xor)?, read(or)?);
    let (a, b) = parts(&x, &o)?;
    never_both(a, b, exclusive).then_some(o)
}

/// The two parts where the readings differ: `A xor B` in one, `A or B` in the other
/// (the rest the same).
fn parts<'a>(x: &Formula, o: &'a Formula) -> Option<(&'a Formula, &'a Formula)> {
    use FormulaKind as K;
    match (&x.kind, &o.kind) {
        (K::Bin(BinOp::Xor, a, b), K::Bin(BinOp::Or, c, d))
            if symbolic(a) == symbolic(c) && symbolic(b) == symbolic(d) =>
        {
            Some((c, d))
        }
        (K::Not(a), K::Not(c))
        | (K::Forall(_, a), K::Forall(_, c))
        | (K::Exists(_, a), K::Exists(_, c)) => parts(a, c),
        (K::Bin(p, a, b), K::Bin(q, c, d)) if p == q => {
            if symbolic(a) == symbolic(c) {
                parts(b, d)
            } else if symbolic(b) == symbolic(d) {
                parts(a, c)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Whether A and B can never hold together, as their form shows: one the negation of
/// the other (or of a part of it joined by `and`); every piece one kind and every piece another that excludes it (a
/// structure has a piece); one number compared with constants no number meets both.
fn never_both(a: &Formula, b: &Formula, exclusive: Exclusive) -> bool {
    use FormulaKind as K;
    // A part of a conjunction that cannot hold with the other side.
    if let K::Bin(BinOp::And, c, d) = &b.kind {
        return never_both(a, c, exclusive) || never_both(a, d, exclusive);
    }
    if let K::Bin(BinOp::And, c, d) = &a.kind {
        return never_both(c, b, exclusive) || never_both(d, b, exclusive);
    }
    let negates =
        |p: &Formula, q: &Formula| matches!(&p.kind, K::Not(n) if symbolic(n) == symbolic(q));
    if negates(a, b) || negates(b, a) {
        return true;
    }
    if let (K::Forall(x, p), K::Forall(y, q)) = (&a.kind, &b.kind)
        && x == y
        && let (Some(ps), Some(qs)) = (kinds(p), kinds(q))
    {
        return ps.iter().all(|p| qs.iter().all(|q| exclusive(*p, *q)));
    }
    if let (K::Cmp(m, s, c), K::Cmp(n, t, d)) = (&a.kind, &b.kind)
        && let (TermKind::Int(c), TermKind::Int(d)) = (&c.kind, &d.kind)
        && key(s) == key(t)
    {
        // Beyond the constants each comparison is constant: trying one past each end
        // decides it for every number.
        let (lo, hi) = (
            (*c).min(*d).saturating_sub(1),
            (*c).max(*d).saturating_add(1),
        );
        return !(lo..=hi).any(|v| m.holds(v, *c) && n.holds(v, *d));
    }
    false
}

/// The kinds a formula of one piece is one of: `up(x)`, `up(x) | down(x)`.
fn kinds(f: &Formula) -> Option<Vec<UnaryPred>> {
    match &f.kind {
        FormulaKind::Unary(p, _) => Some(vec![*p]),
        FormulaKind::Bin(BinOp::Or, a, b) => {
            let mut v = kinds(a)?;
            v.extend(kinds(b)?);
            Some(v)
        }
        _ => None,
    }
}

/// A term as its symbolic form, to tell two terms are the same.
fn key(t: &Term) -> String {
    let zero = Term {
        span: t.span.clone(),
        kind: TermKind::Int(0),
    };
    symbolic(&Formula {
        span: t.span.clone(),
        kind: FormulaKind::Cmp(CmpOp::Eq, t.clone(), zero),
    })
}
