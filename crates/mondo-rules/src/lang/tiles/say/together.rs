//! What the tiles of one kind do together, said as players say it: `red or blue
//! tiles` for the tiles counted, `all red tiles are in the same row`, `exactly two
//! tiles are yellow and they are adjacent`. Each is shorter than the general form
//! (`tiles that are red or blue`, `for every tile x, if x is red then ...`), and the
//! reader reads each back to the same tree (docs/tiles.md, "The words").

use super::phrase::{conjuncts, is_distinct, np};
use crate::lang::tiles::ast::{
    BinOp, CmpOp, Domain, Formula, FormulaKind, Relation, TermKind, Var,
};

/// `red or blue tiles`: the tiles x whose restriction is two or more colours joined
/// by `or`.
pub(super) fn colours_or(x: Var, body: &Formula) -> Option<String> {
    fn walk(f: &Formula, x: Var, names: &mut Vec<&'static str>) -> bool {
        match &f.kind {
            FormulaKind::Bin(BinOp::Or, a, b) => walk(a, x, names) && walk(b, x, names),
            FormulaKind::Colour(k, v) if *v == x => {
                names.push(k.name());
                true
            }
            _ => false,
        }
    }
    let mut names = Vec::new();
    (walk(body, x, &mut names) && names.len() > 1).then(|| format!("{} tiles", names.join(" or ")))
}

/// The tiles counted, plural: `red or blue tiles`, else the noun phrase.
pub(super) fn counted(x: Var, body: &Formula) -> Option<String> {
    colours_or(x, body).or_else(|| np(x, Some(body), true, &[]))
}

/// The kind of tile a restriction names with adjectives only (`red`, `leftmost red`,
/// `red or blue`), plural: `None` for a restriction with a relation in it.
fn kind(x: Var, r: &Formula) -> Option<String> {
    if let Some(s) = colours_or(x, r) {
        return Some(s);
    }
    conjuncts(r)
        .iter()
        .all(|c| matches!(c.kind, FormulaKind::Colour(_, v) | FormulaKind::Place(_, v) if v == x))
        .then(|| np(x, Some(r), true, &[]))?
}

/// `all red tiles are in the same row`: `forall x. R(x) -> forall y. R(y) ->
/// same_row(x, y)` (or `same_column`), for a kind R said by adjectives.
pub(super) fn all_in_one_line(x: Var, body: &Formula) -> Option<String> {
    let FormulaKind::Bin(BinOp::Implies, r, inner) = &body.kind else {
        return None;
    };
    let FormulaKind::Forall(y, Domain::Subset, inner) = &inner.kind else {
        return None;
    };
    let FormulaKind::Bin(BinOp::Implies, r2, line) = &inner.kind else {
        return None;
    };
    let FormulaKind::Rel(rel @ (Relation::SameRow | Relation::SameColumn), a, b) = line.kind else {
        return None;
    };
    if (a, b) != (x, *y) && (a, b) != (*y, x) {
        return None;
    }
    let said = kind(x, r)?;
    // The same kind for y: its words are the same words (adjectives say no variable).
    if kind(*y, r2)? != said {
        return None;
    }
    let line = if rel == Relation::SameRow {
        "row"
    } else {
        "column"
    };
    Some(format!("all {said} are in the same {line}"))
}

/// `exactly two tiles are yellow and they are adjacent`: `count(x: C(x)) = 2 &
/// exists x. C(x) & exists y. y != x & C(y) & adjacent(x, y)` for a colour C and a
/// kind of adjacency (either conjunct first).
pub(super) fn exact_pair(a: &Formula, b: &Formula) -> Option<String> {
    pair_of(a, b).or_else(|| pair_of(b, a))
}

fn pair_of(count: &Formula, touch: &Formula) -> Option<String> {
    let FormulaKind::Cmp(CmpOp::Eq, t, n) = &count.kind else {
        return None;
    };
    let (TermKind::Count(x, Domain::Subset, body), TermKind::Int(2)) = (&t.kind, &n.kind) else {
        return None;
    };
    let FormulaKind::Colour(colour, v) = body.kind else {
        return None;
    };
    if v != *x {
        return None;
    }
    let FormulaKind::Exists(x, Domain::Subset, outer) = &touch.kind else {
        return None;
    };
    let (mut inner, mut own) = (None, false);
    for c in conjuncts(outer) {
        match &c.kind {
            FormulaKind::Colour(k, v) if *k == colour && v == x => own = true,
            FormulaKind::Exists(y, Domain::Subset, i) if inner.is_none() => inner = Some((*y, i)),
            _ => return None,
        }
    }
    let (y, inner) = inner?;
    let (mut rel, mut other) = (None, false);
    for c in conjuncts(inner) {
        match &c.kind {
            FormulaKind::Colour(k, v) if *k == colour && *v == y => other = true,
            FormulaKind::Rel(r, p, q)
                if rel.is_none() && ((*p, *q) == (*x, y) || (*p, *q) == (y, *x)) =>
            {
                rel = Some(*r)
            }
            _ if is_distinct(c, *x, y) => {}
            _ => return None,
        }
    }
    let words = match rel? {
        Relation::Adjacent => "adjacent",
        Relation::OrthAdjacent => "orthogonally adjacent",
        Relation::DiagAdjacent => "diagonally adjacent",
        _ => return None,
    };
    (own && other).then(|| {
        format!(
            "exactly two tiles are {} and they are {words}",
            colour.name()
        )
    })
}
