//! The pieces of a plain sentence: conjuncts and what they mention, determiners, noun
//! phrases with their relative clauses, complements and relations, and how two
//! clauses join.

use crate::lang::tiles::ast::{
    BinOp, CmpOp, Domain, Formula, FormulaKind, Relation, TermKind, Var,
};
use crate::lang::words::say_number;

pub(super) fn connect(op: BinOp, a: &str, b: &str) -> String {
    match op {
        BinOp::And => format!("{a} and {b}"),
        BinOp::Or => format!("{a} or {b}"),
        BinOp::Xor => format!("either {a} or {b} but not both"),
        BinOp::Implies => format!("if {a} then {b}"),
        BinOp::Iff => format!("{a} if and only if {b}"),
    }
}

pub(super) fn conjuncts(f: &Formula) -> Vec<&Formula> {
    match &f.kind {
        FormulaKind::Bin(BinOp::And, a, b) => {
            let mut v = conjuncts(a);
            v.extend(conjuncts(b));
            v
        }
        _ => vec![f],
    }
}

pub(super) fn mentions(f: &Formula, v: Var) -> bool {
    let mut found = false;
    crate::lang::tiles::ast::visit(f, &mut |g| {
        found |= match &g.kind {
            FormulaKind::Colour(_, x) | FormulaKind::Place(_, x) => *x == v,
            FormulaKind::Rel(_, x, y) | FormulaKind::Same(x, y) => *x == v || *y == v,
            FormulaKind::Exists(_, Domain::In(s), _) | FormulaKind::Forall(_, Domain::In(s), _) => {
                *s == v
            }
            _ => false,
        }
    });
    found
}

/// `exists y. A(x) & B(x, y)` as `A(x) & exists y. B(x, y)`: conjuncts that do not
/// mention y leave its scope, so English can say them of x (`exists x y. blue(x) &
/// green(y) & orth_adjacent(x, y)` is "a blue tile that is orthogonally adjacent to
/// a green tile").
pub(super) fn push_inward(body: &Formula) -> Option<Formula> {
    let FormulaKind::Exists(y, Domain::Subset, inner) = &body.kind else {
        return None;
    };
    let (outer, rest): (Vec<&Formula>, Vec<&Formula>) =
        conjuncts(inner).into_iter().partition(|c| !mentions(c, *y));
    let moved = Formula::new(
        body.span.clone(),
        FormulaKind::Exists(*y, Domain::Subset, Box::new(join_and(rest)?)),
    );
    Some(Formula::new(
        body.span.clone(),
        FormulaKind::Bin(BinOp::And, Box::new(join_and(outer)?), Box::new(moved)),
    ))
}

/// The conjunction of the formulas (`None` for none).
pub(super) fn join_and(parts: Vec<&Formula>) -> Option<Formula> {
    parts.into_iter().cloned().reduce(|a, b| {
        let span = a.span.start..b.span.end;
        Formula::new(span, FormulaKind::Bin(BinOp::And, Box::new(a), Box::new(b)))
    })
}

/// Whether the conjuncts say or imply `x != y`: the guard itself, or a relation
/// between the two that never holds of a tile and itself (`adjacent`, `above`).
pub(super) fn guarded(parts: &[&Formula], x: Var, y: Var) -> bool {
    parts.iter().any(|c| {
        is_distinct(c, x, y)
            || matches!(c.kind, FormulaKind::Rel(r, a, b) if !r.reflexive() && ((a, b) == (x, y) || (a, b) == (y, x)))
    })
}

/// Whether `f` has the conjunct `y != x` (the object differs from the subject).
pub(super) fn excludes(f: &Formula, y: Var, x: Var) -> bool {
    conjuncts(f).into_iter().any(|c| is_distinct(c, y, x))
}

/// `x != y` (either order).
pub(super) fn is_distinct(c: &Formula, x: Var, y: Var) -> bool {
    matches!(&c.kind, FormulaKind::Not(n) if matches!(n.kind, FormulaKind::Same(a, b) if (a, b) == (x, y) || (a, b) == (y, x)))
}

/// Whether a word of the umpire's English is a tile's name (`C4`).
pub(super) fn is_tile_name(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() == 2 && (b'A'..=b'D').contains(&b[0]) && (b'1'..=b'4').contains(&b[1])
}

pub(super) fn with_article(np: &str) -> String {
    let vowel = np.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {np}", if vowel { "an" } else { "a" })
}

/// `at least two`, `exactly one`... (`!=` has none).
pub(super) fn det_words(op: CmpOp, n: i64) -> Option<String> {
    let n = say_number(n);
    Some(match op {
        CmpOp::Ge => format!("at least {n}"),
        CmpOp::Gt => format!("more than {n}"),
        CmpOp::Le => format!("at most {n}"),
        CmpOp::Lt => format!("fewer than {n}"),
        CmpOp::Eq => format!("exactly {n}"),
        CmpOp::Ne => return None,
    })
}

/// The noun phrase for the tiles x such that `restriction`: adjectives, the noun,
/// then relative clauses. `subject` is the tile an object must differ from (its
/// `x != subject` conjunct is implied by the relation and not said).
pub(super) fn np(
    x: Var,
    restriction: Option<&Formula>,
    plural: bool,
    outer: &[Var],
) -> Option<String> {
    let subject = outer.last().copied();
    let mut adjectives = Vec::new();
    let mut clauses = Vec::new();
    let mut of = None;
    let parts = restriction.map(conjuncts).unwrap_or_default();
    for c in &parts {
        let c = *c;
        match &c.kind {
            FormulaKind::Bool(true) => {}
            FormulaKind::Colour(k, v) if *v == x => adjectives.push(k.name().to_string()),
            FormulaKind::Place(p, v) if *v == x && p.adjective() => {
                adjectives.push(p.name().to_string())
            }
            FormulaKind::Place(p, v) if *v == x => clauses.push(p.words().into_owned()),
            _ if subject.is_some_and(|s| is_distinct(c, x, s)) => {}
            // The reader refuses `two tiles of the same colour` after a relation
            // (whose colour?): plural, it is `tiles that are the same colour as it`.
            _ if let Some(h) = subject.and_then(|s| hue(c, x, s)) => {
                if !plural {
                    of = Some(h);
                } else {
                    clauses.push(it_clause(x, c, outer, &parts)?);
                }
            }
            _ if let Some(s) = it_clause(x, c, outer, &parts) => clauses.push(s),
            _ => clauses.push(complement(x, c, outer)?),
        }
    }
    // Colours before places reads oddly (`red leftmost`): places first; a tile's
    // name last (`a red C4 tile`, said `C4` when alone).
    adjectives.sort_by_key(|a| {
        use crate::lang::tiles::ast::Place;
        match Place::from_name(a) {
            Some(Place::At(_) | Place::End) => 2,
            Some(_) => 0,
            None => 1,
        }
    });
    let noun = if plural { "tiles" } else { "tile" };
    let verb = if plural { "are" } else { "is" };
    let mut out = adjectives.join(" ");
    if !out.is_empty() {
        out.push(' ');
    }
    out.push_str(noun);
    if let Some(h) = of {
        out.push(' ');
        out.push_str(h);
    }
    // One relative clause, its complements joined by `and`; the one with a clause of
    // its own goes last, so that `and` cannot be read as joining that inner clause.
    if !clauses.is_empty() {
        let nested = |c: &String| c.contains(" that ");
        if clauses.iter().filter(|c| nested(c)).count() > 1 {
            return None;
        }
        clauses.sort_by_key(|c| nested(c));
        // `a tile adjacent to a blue tile`: a place reads right after the noun.
        let place = clauses.len() == 1 && PLACES.iter().any(|p| clauses[0].starts_with(p));
        if !place {
            out.push_str(" that ");
            out.push_str(verb);
        }
        out.push(' ');
        out.push_str(&clauses.join(" and "));
    }
    Some(out)
}

/// Relation words that can follow a noun directly (the reader reads them as a place).
pub(super) const PLACES: &[&str] = &[
    "adjacent to ",
    "orthogonally adjacent to ",
    "diagonally adjacent to ",
    "in a higher row than ",
    "in a lower row than ",
    "in the same row as ",
    "in the same column as ",
    "in row ",
    "in column ",
    "directly above ",
    "directly below ",
    "directly left of ",
    "directly right of ",
];

/// `outer` and then x: the tiles in scope for x's object.
pub(super) fn within(outer: &[Var], x: Var) -> Vec<Var> {
    let mut v = outer.to_vec();
    v.push(x);
    v
}

/// `REL(x, z)` as `REL it` when z is the one tile in scope besides x (as the reader
/// takes `it`), and the tree has `x != z` where the relation holds of a tile and
/// itself (the reader adds it). `parts` are the conjuncts `c` is one of.
pub(super) fn it_clause(x: Var, c: &Formula, outer: &[Var], parts: &[&Formula]) -> Option<String> {
    let [z] = outer else {
        return None;
    };
    let guarded = guarded(parts, x, *z);
    match &c.kind {
        FormulaKind::Rel(r, a, b)
            if ((*a, *b) == (x, *z) || r.symmetric() && (*a, *b) == (*z, x))
                && (!r.reflexive() || guarded)
                || *r == Relation::SameColour && (*a, *b) == (*z, x) && guarded =>
        {
            Some(format!("{} it", relation_words(*r)))
        }
        FormulaKind::Not(n) => match n.kind {
            FormulaKind::Rel(Relation::SameColour, a, b)
                if (a, b) == (x, *z) || (a, b) == (*z, x) =>
            {
                Some("a different colour from it".into())
            }
            _ => None,
        },
        _ => None,
    }
}

/// Whether `c` relates y to x in a way [`it_clause`] may say of y (`adjacent(y, x)`).
pub(super) fn about_it(c: &Formula, y: Var, x: Var) -> bool {
    match &c.kind {
        FormulaKind::Rel(r, a, b) => (*a, *b) == (y, x) || r.symmetric() && (*a, *b) == (x, y),
        FormulaKind::Not(n) => {
            matches!(n.kind, FormulaKind::Rel(Relation::SameColour, a, b) if (a, b) == (y, x))
        }
        _ => false,
    }
}

/// `same_colour(x, s)` (either order) as `of the same colour`, its negation as `of a
/// different colour`: said of x, compared with the subject s.
pub(super) fn hue(c: &Formula, x: Var, s: Var) -> Option<&'static str> {
    let same = |g: &Formula| matches!(g.kind, FormulaKind::Rel(Relation::SameColour, a, b) if (a, b) == (x, s) || (a, b) == (s, x));
    match &c.kind {
        _ if same(c) => Some("of the same colour"),
        FormulaKind::Not(n) if same(n) => Some("of a different colour"),
        _ => None,
    }
}

pub(super) fn relation_words(r: Relation) -> &'static str {
    match r {
        Relation::Adjacent => "adjacent to",
        Relation::OrthAdjacent => "orthogonally adjacent to",
        Relation::DiagAdjacent => "diagonally adjacent to",
        Relation::SameRow => "in the same row as",
        Relation::SameColumn => "in the same column as",
        Relation::SameColour => "the same colour as",
        Relation::Above => "in a higher row than",
        Relation::Below => "in a lower row than",
        Relation::LeftOf => "further left than",
        Relation::RightOf => "further right than",
        Relation::DirectlyAbove => "directly above",
        Relation::DirectlyBelow => "directly below",
        Relation::DirectlyLeftOf => "directly left of",
        Relation::DirectlyRightOf => "directly right of",
    }
}

/// What follows `is` for tile x: `red`, `not red`, `adjacent to a green tile`.
pub(super) fn complement(x: Var, f: &Formula, outer: &[Var]) -> Option<String> {
    match &f.kind {
        FormulaKind::Colour(c, v) if *v == x => Some(c.name().into()),
        FormulaKind::Place(p, v) if *v == x => Some(p.words().into()),
        FormulaKind::Not(a) if !matches!(a.kind, FormulaKind::Bin(..)) => {
            no_object(x, a, outer).or_else(|| Some(format!("not {}", complement(x, a, outer)?)))
        }
        FormulaKind::Bin(op @ (BinOp::And | BinOp::Or), a, b) => {
            let side = |g: &Formula| match &g.kind {
                FormulaKind::Bin(o, ..) if o != op => None,
                _ => complement(x, g, outer),
            };
            let word = if *op == BinOp::And { "and" } else { "or" };
            let (first, second) = (side(a.as_ref())?, side(b.as_ref())?);
            // `not red and in a higher row`: the reader cannot tell whether `not`
            // covers one word or both, and refuses it; another wording says it
            // (`not red and not blue` is clear).
            if first.starts_with("not ") && !second.starts_with("not ") {
                return None;
            }
            Some(format!("{first} {word} {second}"))
        }
        FormulaKind::Exists(y, Domain::Subset, body) => {
            let (rel, rest) = relation_part(x, *y, body)?;
            let np = np(*y, rest.as_ref(), false, &within(outer, x))?;
            // `another`: the object is not the subject, and the words say so.
            Some(if excludes(body, *y, x) {
                format!("{rel} another {np}")
            } else {
                format!("{rel} {}", with_article(&np))
            })
        }
        FormulaKind::Forall(y, Domain::Subset, body) => {
            let FormulaKind::Bin(BinOp::Implies, r, g) = &body.kind else {
                return None;
            };
            let (rel, none) = relation_part(x, *y, g)?;
            // `of the same colour` means another tile: the tree must say so.
            let same_hue = conjuncts(r)
                .into_iter()
                .any(|c| hue(c, *y, x) == Some("of the same colour"));
            // `every tile` as an object is never the subject: the tree must say so.
            let _ = same_hue;
            if none.is_some() || !is_object_guard(r, *y, x) || !has_guard(r, *y, x) {
                return None;
            }
            let other = if excludes(r, *y, x) { "other " } else { "" };
            Some(format!(
                "{rel} every {other}{}",
                np(*y, Some(&**r), false, &within(outer, x))?
            ))
        }
        FormulaKind::Cmp(op, a, b) => {
            let (TermKind::Count(y, Domain::Subset, body), TermKind::Int(n)) = (&a.kind, &b.kind)
            else {
                return None;
            };
            let (rel, rest) = relation_part(x, *y, body)?;
            let plural = *n != 1 || *op == CmpOp::Gt || *op == CmpOp::Lt;
            Some(format!(
                "{rel} {} {}",
                det_words(*op, *n)?,
                np(*y, rest.as_ref(), plural, &within(outer, x))?
            ))
        }
        _ => None,
    }
}

/// `adjacent to no red tile` for `!exists y. red(y) & adjacent(x, y)`: `not adjacent
/// to a red tile` could be heard as "not adjacent to some red tile".
pub(super) fn no_object(x: Var, a: &Formula, outer: &[Var]) -> Option<String> {
    let FormulaKind::Exists(y, Domain::Subset, body) = &a.kind else {
        return None;
    };
    let (rel, rest) = relation_part(x, *y, body)?;
    let other = if excludes(body, *y, x) { "other " } else { "" };
    Some(format!(
        "{rel} no {other}{}",
        np(*y, rest.as_ref(), false, &within(outer, x))?
    ))
}

/// Whether the relation between x and y in `body` holds of a tile and itself.
pub(super) fn needs_guard(body: &Formula, x: Var, y: Var) -> bool {
    conjuncts(body).into_iter().any(|c| match &c.kind {
        FormulaKind::Rel(r, a, b) => ((*a, *b) == (x, y) || (*a, *b) == (y, x)) && r.reflexive(),
        _ => false,
    })
}

pub(super) fn has_guard(r: &Formula, y: Var, x: Var) -> bool {
    guarded(&conjuncts(r), y, x)
}

/// Whether every conjunct of `r` that mentions x is the guard `y != x`, but for one
/// colour comparison (`of the same colour`).
pub(super) fn is_object_guard(r: &Formula, y: Var, x: Var) -> bool {
    let parts = conjuncts(r);
    parts.iter().filter(|c| hue(c, y, x).is_some()).count() <= 1
        && parts.into_iter().all(|c| {
            !mentions(c, x) || is_distinct(c, y, x) || hue(c, y, x).is_some() || about_it(c, y, x)
        })
}

/// Splits `REL(x, y) & rest(y)` into the relation's words and the rest (which must
/// not mention x beyond `y != x`).
pub(super) fn relation_part(x: Var, y: Var, body: &Formula) -> Option<(String, Option<Formula>)> {
    let parts = conjuncts(body);
    // `REL(y, x)` is said from x's side with the converse (`below` for `above`).
    let phrase = |c: &Formula| match &c.kind {
        FormulaKind::Rel(r, a, b) if (*a, *b) == (x, y) => Some(relation_words(*r)),
        FormulaKind::Rel(r, a, b) if (*a, *b) == (y, x) => Some(relation_words(r.converse())),
        FormulaKind::Not(n) => match n.kind {
            FormulaKind::Rel(Relation::SameColour, a, b)
                if (a, b) == (x, y) || (a, b) == (y, x) =>
            {
                Some("a different colour from")
            }
            _ => None,
        },
        _ => None,
    };
    // A positional relation is the words, and a colour comparison beside it is said
    // of the object: `adjacent to a tile of the same colour`.
    let positional = |reversed: bool| {
        parts.iter().position(|c| {
            matches!(c.kind, FormulaKind::Rel(r, a, b) if r != Relation::SameColour && (a, b) == if reversed { (y, x) } else { (x, y) })
        })
    };
    let at = positional(false)
        .or_else(|| positional(true))
        .or_else(|| parts.iter().position(|c| phrase(c).is_some()))?;
    let words = phrase(parts[at])?.to_string();
    let rest: Vec<&Formula> = parts
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != at)
        .map(|(_, c)| *c)
        .collect();
    let hues = rest.iter().filter(|c| hue(c, y, x).is_some()).count();
    if hues > 1
        || rest.iter().any(|c| {
            mentions(c, x) && !is_distinct(c, y, x) && hue(c, y, x).is_none() && !about_it(c, y, x)
        })
    {
        return None;
    }
    // The English object of a reflexive relation is never its subject: the tree
    // must say so too, or English would change its meaning.
    if needs_guard(body, x, y) && !guarded(&conjuncts(body), y, x) {
        return None;
    }
    Some((words, join_and(rest)))
}
