//! Colours as things (`some colour appears three times`, `every colour appears at
//! most twice`: the tiles of the same colour as some tile, counted), and pairs, groups
//! and regions.

use super::phrase::*;
use crate::lang::tiles::ast::{
    BinOp, CmpOp, Domain, Formula, FormulaKind, Parity, RegionKind, Relation, Term, TermKind, Var,
};
use crate::lang::tiles::cells::Colour;
use crate::lang::words::say_number;

/// `count(y: same_colour(x, y)) op n` (y may be guarded `y != x`): the condition on
/// how many tiles share x's colour, as (op, n) counting x itself.
pub(super) fn colour_count(x: Var, body: &Formula) -> Option<(CmpOp, i64)> {
    let FormulaKind::Cmp(op, t, n) = &body.kind else {
        return None;
    };
    let (TermKind::Count(y, Domain::Subset, inner), TermKind::Int(n)) = (&t.kind, &n.kind) else {
        return None;
    };
    let parts = conjuncts(inner);
    let same = |g: &Formula| matches!(g.kind, FormulaKind::Rel(Relation::SameColour, a, b) if (a, b) == (x, *y) || (a, b) == (*y, x));
    match parts.as_slice() {
        [g] if same(g) => Some((*op, *n)),
        // Without x itself: one more with it.
        [d, g] | [g, d] if same(g) && is_distinct(d, x, *y) => Some((*op, n + 1)),
        _ => None,
    }
}

/// How often, in words: `at least twice`, `exactly three times`, `more than once`.
pub(super) fn frequency(op: CmpOp, n: i64) -> Option<String> {
    let times = match n {
        1 => "once".to_string(),
        2 => "twice".to_string(),
        _ if n >= 0 => format!("{} times", say_number(n)),
        _ => return None,
    };
    let det = match op {
        CmpOp::Ge => "at least",
        CmpOp::Gt => "more than",
        CmpOp::Le => "at most",
        CmpOp::Lt => "fewer than",
        CmpOp::Eq => "exactly",
        CmpOp::Ne => return None,
    };
    Some(format!("{det} {times}"))
}

/// `exists x. count(y: same_colour(x, y)) op n` where zero is not enough: `some
/// colour appears ...` (a colour that does not appear has no tile x).
pub(super) fn some_colour(x: Var, body: &Formula) -> Option<String> {
    let (op, n) = colour_count(x, body)?;
    if op.holds(0, n) {
        return None;
    }
    Some(format!("some colour appears {}", frequency(op, n)?))
}

/// `forall x. count(y: same_colour(x, y)) op n` where zero is enough: `every colour
/// appears ...` (a colour that does not appear meets it).
pub(super) fn every_colour(x: Var, body: &Formula) -> Option<String> {
    let (op, n) = colour_count(x, body)?;
    if !op.holds(0, n) {
        return None;
    }
    Some(format!("every colour appears {}", frequency(op, n)?))
}

/// `colours = 4 & forall x. ...` (every colour, each enough times) and `colours < 4 |
/// exists x. ...` (some colour, where zero times is enough).
pub(super) fn colour_conjunction(op: BinOp, a: &Formula, b: &Formula) -> Option<String> {
    let shown = |g: &Formula, want: CmpOp| matches!(&g.kind, FormulaKind::Cmp(o, t, n) if *o == want && matches!(t.kind, TermKind::Colours) && matches!(n.kind, TermKind::Int(4)));
    match (op, &b.kind) {
        (BinOp::And, FormulaKind::Forall(x, Domain::Subset, body)) if shown(a, CmpOp::Eq) => {
            let (o, n) = colour_count(*x, body)?;
            (!o.holds(0, n))
                .then(|| frequency(o, n).map(|f| format!("every colour appears {f}")))?
        }
        (BinOp::Or, FormulaKind::Exists(x, Domain::Subset, body)) if shown(a, CmpOp::Lt) => {
            let (o, n) = colour_count(*x, body)?;
            o.holds(0, n)
                .then(|| frequency(o, n).map(|f| format!("some colour appears {f}")))?
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------------
// Pairs, groups and regions.

/// `exists y. [y != x &] REL(x, y) & P(x) & P(y)` (REL adjacency, `same_colour` or its
/// negation): `two adjacent red tiles`, `two red tiles of the same colour`, `two
/// adjacent tiles are the same colour`, after `det`.
pub(super) fn pair(x: Var, body: &Formula, det: &str) -> Option<String> {
    let FormulaKind::Exists(y, Domain::Subset, inner) = &body.kind else {
        return None;
    };
    let mut rel = None;
    let mut colour = None;
    let mut of_x = Vec::new();
    let mut of_y = Vec::new();
    let mut distinct = false;
    for c in conjuncts(inner) {
        match &c.kind {
            _ if is_distinct(c, x, *y) => distinct = true,
            FormulaKind::Rel(
                r @ (Relation::Adjacent | Relation::OrthAdjacent | Relation::DiagAdjacent),
                a,
                b,
            ) if (*a, *b) == (x, *y) || (*a, *b) == (*y, x) => {
                if rel.replace(*r).is_some() {
                    return None;
                }
            }
            FormulaKind::Rel(Relation::SameColour, a, b)
                if (*a, *b) == (x, *y) || (*a, *b) == (*y, x) =>
            {
                if colour.replace(true).is_some() {
                    return None;
                }
            }
            FormulaKind::Not(n) if matches!(n.kind, FormulaKind::Rel(Relation::SameColour, a, b) if (a, b) == (x, *y) || (a, b) == (*y, x)) => {
                if colour.replace(false).is_some() {
                    return None;
                }
            }
            _ if !mentions(c, *y) => of_x.push(c),
            _ if !mentions(c, x) => of_y.push(c),
            _ => return None,
        }
    }
    if rel.is_none() && !distinct {
        return None;
    }
    // What is said of one tile of the pair is said of the other.
    let said = |parts: &[&Formula], v: Var| -> Option<Vec<String>> {
        let mut out: Vec<String> = parts
            .iter()
            .map(|c| match &c.kind {
                FormulaKind::Colour(k, w) if *w == v => Some(k.name().to_string()),
                FormulaKind::Place(p, w) if *w == v && p.adjective() => Some(p.name().to_string()),
                _ => None,
            })
            .collect::<Option<_>>()?;
        out.sort();
        Some(out)
    };
    let (ax, ay) = (said(&of_x, x)?, said(&of_y, *y)?);
    if ax != ay {
        return None;
    }
    let adjective = match rel {
        Some(Relation::Adjacent) => "adjacent ",
        Some(Relation::OrthAdjacent) => "orthogonally adjacent ",
        Some(Relation::DiagAdjacent) => "diagonally adjacent ",
        _ => "",
    };
    let kind = if ax.is_empty() {
        String::new()
    } else {
        format!("{} ", ax.join(" "))
    };
    Some(match (colour, rel.is_some()) {
        (Some(true), _) => format!("{det} {adjective}{kind}tiles of the same colour"),
        (Some(false), _) => format!("{det} {adjective}{kind}tiles of different colours"),
        (None, true) => format!("{det} {adjective}{kind}tiles"),
        (None, false) => return None,
    })
}

/// `exists x. BODY` (over `dom`) as tiles of one colour or of two among themselves:
/// `two tiles of the same colour` (`exists y. x != y & same_colour(x, y)`), `three
/// tiles of the same colour` (`count(y: same_colour(x, y)) >= 3`), `two tiles of
/// different colours`.
pub(super) fn group(x: Var, body: &Formula, dom: Domain) -> Option<String> {
    let same = |g: &Formula, y: Var| matches!(g.kind, FormulaKind::Rel(Relation::SameColour, a, b) if (a, b) == (x, y) || (a, b) == (y, x));
    match &body.kind {
        FormulaKind::Exists(y, d, inner) if *d == dom => {
            let [cond, colour] = conjuncts(inner)[..] else {
                return None;
            };
            if !is_distinct(cond, x, *y) {
                return None;
            }
            match &colour.kind {
                _ if same(colour, *y) => Some("two tiles of the same colour".into()),
                FormulaKind::Not(n) if same(n, *y) => Some("two tiles of different colours".into()),
                _ => None,
            }
        }
        FormulaKind::Cmp(..) => {
            let (op, n) = match dom {
                Domain::Subset => colour_count(x, body)?,
                Domain::In(_) => {
                    let FormulaKind::Cmp(op, t, n) = &body.kind else {
                        return None;
                    };
                    let (TermKind::Count(y, d, g), TermKind::Int(n)) = (&t.kind, &n.kind) else {
                        return None;
                    };
                    if *d != dom {
                        return None;
                    }
                    match conjuncts(g).as_slice() {
                        [c] if same(c, *y) => (*op, *n),
                        [a, c] | [c, a] if same(c, *y) && is_distinct(a, x, *y) => (*op, n + 1),
                        _ => return None,
                    }
                }
            };
            let n = match op {
                CmpOp::Ge => n,
                CmpOp::Gt => n + 1,
                _ => return None,
            };
            (n >= 2).then(|| format!("{} tiles of the same colour", say_number(n)))
        }
        _ => None,
    }
}

/// `forall s: row. (exists y in s. topmost(y)) -> BODY`: `the top row has ...`.
pub(super) fn the_line(s: Var, k: RegionKind, body: &Formula) -> Option<String> {
    use crate::lang::tiles::ast::{Place, RegionKind};
    let FormulaKind::Bin(BinOp::Implies, c, g) = &body.kind else {
        return None;
    };
    let FormulaKind::Exists(y, Domain::In(t), p) = &c.kind else {
        return None;
    };
    let FormulaKind::Place(place, w) = p.kind else {
        return None;
    };
    if *t != s || w != *y {
        return None;
    }
    let line = match (k, place) {
        (RegionKind::Row, Place::Topmost) => "the top row",
        (RegionKind::Row, Place::Bottommost) => "the bottom row",
        (RegionKind::Column, Place::Leftmost) => "the left column",
        (RegionKind::Column, Place::Rightmost) => "the right column",
        (RegionKind::Row, Place::Row(_)) | (RegionKind::Column, Place::Column(_)) => {
            return Some(format!("{} has {}", place.line()?, holds(s, g)?));
        }
        _ => return None,
    };
    Some(format!("{line} has {}", holds(s, g)?))
}

/// What a region holds: `two red tiles`, `no blue tile`, `only red tiles`, `at least
/// two colours`.
pub(super) fn holds(s: Var, body: &Formula) -> Option<String> {
    fn count_in(t: &Term, s: Var) -> Option<(Var, &Formula)> {
        match &t.kind {
            TermKind::Count(x, Domain::In(r), g) if *r == s => Some((*x, &**g)),
            _ => None,
        }
    }
    match &body.kind {
        FormulaKind::Bin(op @ (BinOp::And | BinOp::Or), a, b)
            if !matches!(a.kind, FormulaKind::Bin(..))
                && !matches!(b.kind, FormulaKind::Bin(..)) =>
        {
            let (a, b) = (holds(s, a)?, holds(s, b)?);
            let word = if *op == BinOp::And { "and" } else { "or" };
            (!a.contains(" that ") && !b.contains(" that ")).then(|| format!("{a} {word} {b}"))
        }
        FormulaKind::Parity(p, t) => {
            let (x, g) = count_in(t, s)?;
            let odd = if *p == Parity::Odd { "odd" } else { "even" };
            Some(format!("an {odd} number of {}", np(x, Some(g), true, &[])?))
        }
        FormulaKind::Cmp(op, a, b) if count_in(a, s).is_some() && count_in(b, s).is_some() => {
            let ((x, ga), (y, gb)) = (count_in(a, s)?, count_in(b, s)?);
            let (na, nb) = (np(x, Some(ga), true, &[])?, np(y, Some(gb), true, &[])?);
            match op {
                CmpOp::Gt => Some(format!("more {na} than {nb}")),
                CmpOp::Lt => Some(format!("fewer {na} than {nb}")),
                CmpOp::Eq => Some(format!("as many {na} as {nb}")),
                _ => None,
            }
        }
        FormulaKind::Cmp(op, a, b) => match (&a.kind, &b.kind) {
            (TermKind::Count(x, Domain::In(t), r), TermKind::Int(n)) if *t == s => {
                let det = det_words(*op, *n)?;
                let plural = *n != 1 || *op == CmpOp::Gt || *op == CmpOp::Lt;
                Some(format!("{det} {}", np(*x, Some(&**r), plural, &[])?))
            }
            (TermKind::ColoursIn(t), TermKind::Int(n)) if *t == s => {
                let det = det_words(*op, *n)?;
                let plural = *n != 1 || *op == CmpOp::Gt || *op == CmpOp::Lt;
                Some(format!(
                    "{det} {}",
                    if plural { "colours" } else { "colour" }
                ))
            }
            _ => None,
        },
        FormulaKind::Exists(x, Domain::In(t), r) if *t == s => group(*x, r, Domain::In(s))
            .or_else(|| Some(with_article(&np(*x, Some(&**r), false, &[])?))),
        FormulaKind::Not(n) => match &n.kind {
            FormulaKind::Exists(x, Domain::In(t), r) if *t == s => {
                if let Some(g) = group(*x, r, Domain::In(s)) {
                    return Some(format!("no {g}"));
                }
                Some(format!("no {}", np(*x, Some(&**r), false, &[])?))
            }
            _ => None,
        },
        FormulaKind::Forall(x, Domain::In(t), r) if *t == s => {
            Some(format!("only {}", np(*x, Some(&**r), true, &[])?))
        }
        _ => None,
    }
}

/// `red appears more often than any other colour`: one colour's count compared alike
/// with each of the three others.
pub(super) fn any_other_colour(f: &Formula) -> Option<String> {
    fn colour_count(t: &Term) -> Option<Colour> {
        match &t.kind {
            TermKind::Count(x, Domain::Subset, body) => match body.kind {
                FormulaKind::Colour(c, y) if y == *x => Some(c),
                _ => None,
            },
            _ => None,
        }
    }
    let parts = conjuncts(f);
    if parts.len() != 3 {
        return None;
    }
    let mut first: Option<(CmpOp, Colour)> = None;
    let mut others: Vec<Colour> = Vec::new();
    for p in parts {
        let FormulaKind::Cmp(op, a, b) = &p.kind else {
            return None;
        };
        let (c, d) = (colour_count(a)?, colour_count(b)?);
        if first.is_some_and(|f| f != (*op, c)) {
            return None;
        }
        first = Some((*op, c));
        others.push(d);
    }
    let (op, c) = first?;
    let all_others =
        Colour::ALL.iter().all(|k| *k == c || others.contains(k)) && !others.contains(&c);
    let how = match op {
        CmpOp::Gt => "more often than",
        CmpOp::Lt => "less often than",
        CmpOp::Eq => "as often as",
        _ => return None,
    };
    all_others.then(|| format!("{} appears {how} any other colour", c.name()))
}
