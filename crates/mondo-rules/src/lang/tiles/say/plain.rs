//! Plain English for the shapes players write: `there are at least two red tiles`,
//! `no two adjacent tiles are the same colour`, with what English leaves unsaid taken
//! out first.

use super::groups::*;
use super::phrase::*;
use super::together::{all_in_one_line, counted, exact_pair};
use crate::lang::tiles::ast::{
    BinOp, CmpOp, Domain, Formula, FormulaKind, Parity, Relation, Term, TermKind, Var,
};
use crate::lang::words::say_number;

/// The same meaning with what English leaves unsaid taken out: `x != y` next to a
/// relation that never holds of a tile and itself (`adjacent`, `above`).
pub(super) fn simplify(f: &Formula) -> Formula {
    let kind = match &f.kind {
        FormulaKind::Bin(BinOp::And, _, _) => {
            let parts: Vec<Formula> = conjuncts(f).into_iter().map(simplify).collect();
            let implied = |c: &Formula| {
                match &c.kind {
                FormulaKind::Not(n) => match n.kind {
                    FormulaKind::Same(a, b) => parts.iter().any(|p| {
                        matches!(p.kind, FormulaKind::Rel(r, x, y) if !r.reflexive() && (x, y) == (a, b) || !r.reflexive() && (x, y) == (b, a))
                    }),
                    _ => false,
                },
                _ => false,
            }
            };
            let kept: Vec<&Formula> = parts.iter().filter(|c| !implied(c)).collect();
            return join_and(kept).unwrap_or_else(|| f.clone());
        }
        FormulaKind::Bin(op, a, b) => {
            FormulaKind::Bin(*op, Box::new(simplify(a)), Box::new(simplify(b)))
        }
        FormulaKind::Not(a) => FormulaKind::Not(Box::new(simplify(a))),
        FormulaKind::Forall(x, d, a) => FormulaKind::Forall(*x, *d, Box::new(simplify(a))),
        FormulaKind::Exists(x, d, a) => FormulaKind::Exists(*x, *d, Box::new(simplify(a))),
        FormulaKind::ForallRegion(s, k, a) => {
            FormulaKind::ForallRegion(*s, *k, Box::new(simplify(a)))
        }
        FormulaKind::ExistsRegion(s, k, a) => {
            FormulaKind::ExistsRegion(*s, *k, Box::new(simplify(a)))
        }
        FormulaKind::Cmp(op, a, b) => FormulaKind::Cmp(*op, simplify_term(a), simplify_term(b)),
        FormulaKind::Parity(p, t) => FormulaKind::Parity(*p, simplify_term(t)),
        other => other.clone(),
    };
    Formula::new(f.span.clone(), kind)
}

pub(super) fn simplify_term(t: &Term) -> Term {
    let kind = match &t.kind {
        TermKind::Count(x, d, body) => TermKind::Count(*x, *d, Box::new(simplify(body))),
        TermKind::Add(a, b) => {
            TermKind::Add(Box::new(simplify_term(a)), Box::new(simplify_term(b)))
        }
        TermKind::Sub(a, b) => {
            TermKind::Sub(Box::new(simplify_term(a)), Box::new(simplify_term(b)))
        }
        TermKind::Mul(k, a) => TermKind::Mul(*k, Box::new(simplify_term(a))),
        other => other.clone(),
    };
    Term::new(t.span.clone(), kind)
}

/// Plain English for a closed statement, or `None` when its shape has none.
pub(super) fn sentence(f: &Formula) -> Option<String> {
    match &f.kind {
        FormulaKind::Bin(op, a, b) => {
            if let Some(s) = any_other_colour(f) {
                return Some(s);
            }
            if let Some(s) = colour_conjunction(*op, a, b) {
                return Some(s);
            }
            if *op == BinOp::And
                && let Some(s) = exact_pair(a, b)
            {
                return Some(s);
            }
            if let Some(s) = item_list(f, *op) {
                return Some(s);
            }
            // Same-operator chains of `and` / `or` read without brackets; any other
            // nesting would be ambiguous in English.
            let side = |g: &Formula| match &g.kind {
                FormulaKind::Bin(o, ..) if o == op && matches!(op, BinOp::And | BinOp::Or) => {
                    sentence(g)
                }
                FormulaKind::Bin(..) => None,
                _ => sentence(g).filter(|s| !s.starts_with('(')),
            };
            let (a, b) = (side(a.as_ref())?, side(b.as_ref())?);
            Some(connect(*op, &a, &b))
        }
        FormulaKind::Not(a) => negation(a),
        FormulaKind::Exists(x, Domain::Subset, body) => {
            if let Some(s) = pair(*x, body, "two") {
                return Some(format!("there are {s}"));
            }
            if let Some(g) = group(*x, body, Domain::Subset) {
                return Some(format!("there are {g}"));
            }
            if let Some(s) = some_colour(*x, body) {
                return Some(s);
            }
            let body = push_inward(body).unwrap_or_else(|| (**body).clone());
            if let Some(s) = subject_said(*x, &body, "a", false) {
                return Some(s);
            }
            Some(format!(
                "there is {}",
                with_article(&np(*x, Some(&body), false, &[])?)
            ))
        }
        FormulaKind::Forall(x, Domain::Subset, body) => {
            if let FormulaKind::Forall(y, Domain::Subset, inner) = &body.kind
                && let FormulaKind::Bin(BinOp::Implies, c, g) = &inner.kind
                && is_distinct(c, *x, *y)
            {
                return match &g.kind {
                    FormulaKind::Rel(Relation::SameColour, a, b) if (*a, *b) == (*x, *y) => {
                        Some("all tiles are the same colour".into())
                    }
                    FormulaKind::Not(n) if matches!(n.kind, FormulaKind::Rel(Relation::SameColour, a, b) if (a, b) == (*x, *y)) => {
                        Some("all tiles are different colours".into())
                    }
                    _ => None,
                };
            }
            if let Some(s) = every_colour(*x, body) {
                return Some(s);
            }
            if let Some(s) = all_in_one_line(*x, body) {
                return Some(s);
            }
            let (restriction, vp) = match &body.kind {
                FormulaKind::Bin(BinOp::Implies, r, g) => (Some(&**r), &**g),
                _ => (None, &**body),
            };
            // `every tile is not red` is ambiguous (docs/tiles.md): a negated
            // complement is said as `no tile is red`.
            if let Some(p) = negated(vp) {
                let some = match restriction {
                    Some(r) => Formula::new(
                        body.span.clone(),
                        FormulaKind::Bin(BinOp::And, Box::new(r.clone()), Box::new(p)),
                    ),
                    None => p,
                };
                let exists = Formula::new(
                    body.span.clone(),
                    FormulaKind::Exists(*x, Domain::Subset, Box::new(some)),
                );
                return negation(&exists);
            }
            // A complement that starts with `not` (`not red or not adjacent to ...`)
            // would be the ambiguous `every tile is not ...` again: the reader refuses
            // it, so it is said otherwise.
            let said = complement(*x, vp, &[])?;
            if said.starts_with("not ") {
                return None;
            }
            Some(format!(
                "every {} is {said}",
                np(*x, restriction, false, &[])?
            ))
        }
        FormulaKind::ExistsRegion(s, k, body) => {
            Some(format!("there is a {} with {}", k.noun(), holds(*s, body)?))
        }
        FormulaKind::ForallRegion(s, k, body) => {
            if let Some(s) = the_line(*s, *k, body) {
                return Some(s);
            }
            Some(format!("every {} has {}", k.noun(), holds(*s, body)?))
        }
        FormulaKind::Cmp(op, a, b) => comparison(*op, a, b),
        FormulaKind::Parity(p, t) => {
            let odd = if *p == Parity::Odd { "odd" } else { "even" };
            if let TermKind::Count(x, Domain::Subset, body) = &t.kind {
                return Some(format!(
                    "there is an {odd} number of {}",
                    np(*x, Some(body), true, &[])?
                ));
            }
            Some(format!("{} is {odd}", term_words(t)?))
        }
        _ => None,
    }
}

/// `DET NP is VP` for the tiles x with `body`: what is not an adjective of x is the
/// verb phrase (`at least two red tiles are adjacent to a blue tile`, shorter than
/// `there are at least two red tiles that are ...`; `a tile is green`).
pub(super) fn subject_said(x: Var, body: &Formula, det: &str, plural: bool) -> Option<String> {
    let parts = conjuncts(body);
    let adjective = |c: &Formula| matches!(c.kind, FormulaKind::Colour(_, v) | FormulaKind::Place(_, v) if v == x);
    let (mut noun, mut verb): (Vec<&Formula>, Vec<&Formula>) =
        parts.iter().partition(|c| adjective(c));
    // Only adjectives: `a tile is green` is a word shorter than `there is a green
    // tile`, `at least two tiles are red` than `there are at least two red tiles`.
    if verb.is_empty() {
        let at = noun
            .iter()
            .position(|c| matches!(c.kind, FormulaKind::Colour(..)))
            .unwrap_or(noun.len().checked_sub(1)?);
        verb.push(noun.remove(at));
    }
    let noun = join_and(noun);
    let vp = complement(x, &join_and(verb)?, &[])?;
    let np = np(x, noun.as_ref(), plural, &[])?;
    let is = if plural { "are" } else { "is" };
    Some(format!("{det} {np} {is} {vp}"))
}

/// A chain of `and` (or `or`) whose every part is a kind of tile there is: one
/// `there is` with the kinds listed.
pub(super) fn item_list(f: &Formula, op: BinOp) -> Option<String> {
    if !matches!(op, BinOp::And | BinOp::Or) {
        return None;
    }
    fn chain(f: &Formula, op: BinOp, out: &mut Vec<Formula>) {
        match &f.kind {
            FormulaKind::Bin(o, a, b) if *o == op => {
                chain(a, op, out);
                chain(b, op, out);
            }
            _ => out.push(f.clone()),
        }
    }
    let mut parts = Vec::new();
    chain(f, op, &mut parts);
    // `there are red, blue and green tiles`: each a single adjective that there is.
    let adjectives: Option<Vec<String>> = parts
        .iter()
        .map(|p| match &p.kind {
            FormulaKind::Exists(x, Domain::Subset, b) => match b.kind {
                FormulaKind::Colour(c, v) if v == *x => Some(c.name().to_string()),
                FormulaKind::Place(pl, v) if v == *x && pl.adjective() => {
                    Some(pl.name().into_owned())
                }
                _ => None,
            },
            _ => None,
        })
        .collect();
    let word = if op == BinOp::And { "and" } else { "or" };
    let list = |items: &[String]| match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {word} {last}", init.join(", ")),
    };
    if op == BinOp::And
        && let Some(adjs) = adjectives
    {
        return Some(format!("there are {} tiles", list(&adjs)));
    }
    let items: Option<Vec<String>> = parts
        .iter()
        .map(|p| {
            let s = match &p.kind {
                FormulaKind::Exists(x, Domain::Subset, b) => {
                    with_article(&np(*x, Some(b), false, &[])?)
                }
                FormulaKind::Not(n) => match &n.kind {
                    FormulaKind::Exists(x, Domain::Subset, b) => {
                        format!("no {}", np(*x, Some(b), false, &[])?)
                    }
                    _ => return None,
                },
                FormulaKind::Cmp(op, t, n) => match (&t.kind, &n.kind) {
                    (TermKind::Count(x, Domain::Subset, b), TermKind::Int(n)) => {
                        let plural = *n != 1 || *op == CmpOp::Gt || *op == CmpOp::Lt;
                        format!("{} {}", det_words(*op, *n)?, np(*x, Some(b), plural, &[])?)
                    }
                    _ => return None,
                },
                _ => return None,
            };
            // An item with a clause of its own would take in the next one; a named
            // tile is said alone (`A1 is red or A2 is red`), not as a kind listed.
            let named = s.split(' ').any(super::phrase::is_tile_name);
            (!named && !s.contains(" and ") && !s.contains(" or ") && !s.contains(" that "))
                .then_some(s)
        })
        .collect();
    let items = items?;
    let verb = if items[0].starts_with("a ")
        || items[0].starts_with("an ")
        || items[0].starts_with("no ")
        || items[0].contains(" one ")
    {
        "is"
    } else {
        "are"
    };
    Some(format!("there {verb} {}", list(&items)))
}

/// What a negated complement denies (`!red(x)`: `red(x)`; `!a & !b`: `a | b`), if it
/// is one.
fn negated(v: &Formula) -> Option<Formula> {
    match &v.kind {
        FormulaKind::Not(p) => Some((**p).clone()),
        FormulaKind::Bin(BinOp::And, a, b) => Some(Formula::new(
            v.span.clone(),
            FormulaKind::Bin(BinOp::Or, Box::new(negated(a)?), Box::new(negated(b)?)),
        )),
        _ => None,
    }
}

/// `not ...`: `there is no red tile`, `no row has a blue tile`, `not every tile is
/// red`, a comparison turned round, `neither ... nor ...`.
pub(super) fn negation(a: &Formula) -> Option<String> {
    match &a.kind {
        FormulaKind::Exists(x, Domain::Subset, body) => {
            if let Some(s) = pair(*x, body, "no two") {
                return Some(format!("there are {s}"));
            }
            if let Some(g) = group(*x, body, Domain::Subset) {
                return Some(format!("there are no {g}"));
            }
            if let Some(s) = some_colour(*x, body) {
                return s
                    .strip_prefix("some colour")
                    .map(|r| format!("no colour{r}"));
            }
            if let Some(s) = subject_said(*x, body, "no", false) {
                return Some(s);
            }
            Some(format!(
                "there is no {}",
                np(*x, Some(&**body), false, &[])?
            ))
        }
        FormulaKind::ExistsRegion(s, k, body) => {
            Some(format!("no {} has {}", k.noun(), holds(*s, body)?))
        }
        FormulaKind::Cmp(op, x, y) => comparison(flip(*op), x, y),
        FormulaKind::Parity(p, t) => {
            let q = if *p == Parity::Odd {
                Parity::Even
            } else {
                Parity::Odd
            };
            sentence(&Formula::new(
                a.span.clone(),
                FormulaKind::Parity(q, t.clone()),
            ))
        }
        FormulaKind::Bin(BinOp::Or, l, r)
            if !matches!(l.kind, FormulaKind::Bin(..))
                && !matches!(r.kind, FormulaKind::Bin(..)) =>
        {
            let (l, r) = (sentence(l)?, sentence(r)?);
            (!l.starts_with('(') && !r.starts_with('(')).then(|| format!("neither {l} nor {r}"))
        }
        FormulaKind::Bin(..) => None,
        _ => {
            let s = sentence(a)?;
            // `not every tile is red` reads as a clause; `it is not the case that`
            // takes in whatever follows, so it goes in parentheses.
            Some(match s.strip_prefix("every ") {
                Some(_) => format!("not {s}"),
                None => format!("(it is not the case that {s})"),
            })
        }
    }
}

/// The comparison that holds exactly when `op` does not.
pub(super) fn flip(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Ge => CmpOp::Lt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Le => CmpOp::Gt,
    }
}

/// `there are at least two red tiles`, `there are more red tiles than blue tiles`,
/// `there are three more ... than ...`, `half of the tiles are red`, `there are at
/// least three colours`, and number sentences.
pub(super) fn comparison(op: CmpOp, a: &Term, b: &Term) -> Option<String> {
    fn count(t: &Term) -> Option<(Var, &Formula)> {
        match &t.kind {
            TermKind::Count(x, Domain::Subset, body) => Some((*x, &**body)),
            _ => None,
        }
    }
    let all = |t: &Term| match &t.kind {
        TermKind::Tiles => true,
        TermKind::Count(_, Domain::Subset, body) => matches!(body.kind, FormulaKind::Bool(true)),
        _ => false,
    };
    match (&a.kind, &b.kind) {
        (TermKind::Count(x, Domain::Subset, body), TermKind::Int(n)) => {
            if let Some(det) = det_words(op, *n) {
                let plural = *n != 1 || op == CmpOp::Gt || op == CmpOp::Lt;
                if let Some(s) = subject_said(*x, body, &det, plural) {
                    return Some(s);
                }
                let verb = if plural { "are" } else { "is" };
                return Some(format!(
                    "there {verb} {det} {}",
                    np(*x, Some(&**body), plural, &[])?
                ));
            }
        }
        (TermKind::Colours, TermKind::Int(n)) => {
            if let Some(det) = det_words(op, *n) {
                let plural = *n != 1 || op == CmpOp::Gt || op == CmpOp::Lt;
                let (verb, noun) = if plural {
                    ("are", "colours")
                } else {
                    ("is", "colour")
                };
                return Some(format!("there {verb} {det} {noun}"));
            }
        }
        // `half of the tiles are red`.
        (TermKind::Mul(2, part), _) if all(b) => {
            if let Some((x, body)) = count(part) {
                let det = match op {
                    CmpOp::Eq => "half of",
                    CmpOp::Gt => "more than half of",
                    CmpOp::Lt => "fewer than half of",
                    CmpOp::Ge => "at least half of",
                    CmpOp::Le => "at most half of",
                    CmpOp::Ne => return None,
                };
                return Some(format!("{det} the tiles are {}", complement(x, body, &[])?));
            }
        }
        _ => {}
    }
    if let (Some((x, ba)), Some((y, bb))) = (count(a), count(b)) {
        let (na, nb) = (counted(x, ba)?, counted(y, bb)?);
        return match op {
            CmpOp::Gt => Some(format!("there are more {na} than {nb}")),
            CmpOp::Lt => Some(format!("there are fewer {na} than {nb}")),
            CmpOp::Eq => Some(format!("there are as many {na} as {nb}")),
            CmpOp::Ge => Some(format!("there are at least as many {na} as {nb}")),
            CmpOp::Le => Some(format!("there are at most as many {na} as {nb}")),
            CmpOp::Ne => None,
        };
    }
    // `there are at least three more blue tiles than red tiles`.
    if let (Some((x, ba)), TermKind::Add(c, k)) = (count(a), &b.kind)
        && let (Some((y, bb)), TermKind::Int(n)) = (count(c), &k.kind)
        && *n > 0
        && matches!(op, CmpOp::Ge | CmpOp::Eq | CmpOp::Le)
    {
        let det = det_words(op, *n)?;
        let (na, nb) = (counted(x, ba)?, counted(y, bb)?);
        return Some(format!("there are {det} more {na} than {nb}"));
    }
    // `there are twice as many red tiles as blue tiles`.
    if let (Some((x, ba)), TermKind::Mul(k, c)) = (count(a), &b.kind)
        && let Some((y, bb)) = count(c)
        && *k > 1
    {
        let times = if *k == 2 {
            "twice".to_string()
        } else {
            format!("{} times", say_number(*k))
        };
        let det = match op {
            CmpOp::Eq => String::new(),
            CmpOp::Ge => "at least ".into(),
            CmpOp::Le => "at most ".into(),
            CmpOp::Gt => "more than ".into(),
            CmpOp::Lt => "fewer than ".into(),
            CmpOp::Ne => return None,
        };
        let (na, nb) = (counted(x, ba)?, counted(y, bb)?);
        return Some(format!("there are {det}{times} as many {na} as {nb}"));
    }
    let words = crate::lang::print::comparison_words(op);
    Some(format!("{} {words} {}", term_words(a)?, term_words(b)?))
}

pub(super) fn term_words(t: &Term) -> Option<String> {
    Some(match &t.kind {
        TermKind::Int(n) if *n >= 0 => say_number(*n),
        TermKind::Tiles => "the number of tiles".into(),
        TermKind::Colours => "the number of different colours".into(),
        TermKind::Count(x, Domain::Subset, body) => {
            format!("the number of {}", np(*x, Some(&**body), true, &[])?)
        }
        TermKind::Add(a, b) if !matches!(b.kind, TermKind::Add(..) | TermKind::Sub(..)) => {
            format!("{} plus {}", term_words(a)?, term_words(b)?)
        }
        TermKind::Sub(a, b) if !matches!(b.kind, TermKind::Add(..) | TermKind::Sub(..)) => {
            format!("{} minus {}", term_words(a)?, term_words(b)?)
        }
        TermKind::Mul(2, a) if !matches!(a.kind, TermKind::Add(..) | TermKind::Sub(..)) => {
            format!("twice {}", term_words(a)?)
        }
        _ => return None,
    })
}
