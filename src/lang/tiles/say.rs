//! Saying statements back in canonical English, for every statement: the umpire
//! shows the opponent this English and counts its words against the seed's limit.
//!
//! A statement is said in the plain English a player writes where its tree has that
//! shape (`there are at least two red tiles`, `no two adjacent tiles are the same
//! colour`, `every row has a red tile`); `above` is said `in a higher row than` and
//! `directly above` so, so that the read-back tells the two apart. Any other tree is
//! said in the English of a logician, which the reader reads too (`for every tile x,
//! x is red or there is a tile y such that y is adjacent to x`), joined to plain
//! English where the tree's parts allow. Whatever is said reads back to the same
//! meaning (the tests check it on random trees).

use super::ast::{
    BinOp, CmpOp, Domain, Formula, FormulaKind, Parity, Relation, Term, TermKind, Var,
};
use super::cells::Colour;
use super::print::Names;
use crate::lang::words::say_number;

/// Canonical English for the statement: plain English where the tree has that shape,
/// the named-tile English otherwise; always English, never symbols.
pub fn english(f: &Formula) -> String {
    let f = simplify(f);
    say(&f)
}

/// How many words the canonical English has: what the seed's 15-word limit counts.
pub fn english_words(f: &Formula) -> usize {
    crate::lang::word_count(&english(f))
}

/// Plain English if the whole has it; else the connectives in words with each part
/// said as best it can be; else the named-tile English.
fn say(f: &Formula) -> String {
    if let Some(s) = sentence(f) {
        return s;
    }
    if let FormulaKind::Bin(op, a, b) = &f.kind {
        let part = |g: &Formula| {
            let s = say(g);
            if is_plain_clause(g, &s) {
                s
            } else {
                format!("({s})")
            }
        };
        return connect(*op, &part(a), &part(b));
    }
    logic(f, &mut Names::default())
}

/// Whether a part of a connective can go without parentheses: a plain sentence that
/// is not itself joined, negated to the end, or quantified to the end.
fn is_plain_clause(g: &Formula, said: &str) -> bool {
    !matches!(g.kind, FormulaKind::Bin(..))
        && !said.starts_with("it is not the case")
        && !said.starts_with("for ")
        && !said.contains(" such that ")
        && !said.starts_with('(')
}

fn connect(op: BinOp, a: &str, b: &str) -> String {
    match op {
        BinOp::And => format!("{a} and {b}"),
        BinOp::Or => format!("{a} or {b}"),
        BinOp::Xor => format!("either {a} or {b} but not both"),
        BinOp::Implies => format!("if {a} then {b}"),
        BinOp::Iff => format!("{a} if and only if {b}"),
    }
}

// ---------------------------------------------------------------------------------
// The named-tile English, for any tree.

/// Whether the node is said in one clause that nothing can attach to.
fn atomic(f: &Formula) -> bool {
    match &f.kind {
        FormulaKind::Colour(..)
        | FormulaKind::Place(..)
        | FormulaKind::Rel(..)
        | FormulaKind::Same(..)
        | FormulaKind::Cmp(..)
        | FormulaKind::Parity(..)
        | FormulaKind::Bool(_) => true,
        FormulaKind::Not(a) => matches!(a.kind, FormulaKind::Same(..)),
        _ => false,
    }
}

fn logic(f: &Formula, names: &mut Names) -> String {
    let part = |g: &Formula, names: &mut Names| {
        let s = logic(g, names);
        if atomic(g) { s } else { format!("({s})") }
    };
    match &f.kind {
        FormulaKind::Bool(true) => "there are at least zero tiles".into(),
        FormulaKind::Bool(false) => "there are fewer than zero tiles".into(),
        FormulaKind::Not(a) => match &a.kind {
            FormulaKind::Same(x, y) => format!("{} is not {}", names.name(*x), names.name(*y)),
            _ => format!("it is not the case that {}", logic(a, names)),
        },
        FormulaKind::Bin(op, a, b) => {
            let (a, b) = (part(a, names), part(b, names));
            connect(*op, &a, &b)
        }
        FormulaKind::Forall(x, d, body) | FormulaKind::Exists(x, d, body) => {
            let name = names.bind_tile(*x);
            let of = match d {
                Domain::Subset => String::new(),
                Domain::In(s) => format!(" of {}", names.name(*s)),
            };
            let body = logic(body, names);
            names.tiles.pop();
            if matches!(f.kind, FormulaKind::Forall(..)) {
                format!("for every tile {name}{of}, {body}")
            } else {
                format!("there is a tile {name}{of} such that {body}")
            }
        }
        FormulaKind::ForallRegion(s, k, body) | FormulaKind::ExistsRegion(s, k, body) => {
            let name = names.bind_region(*s);
            let body = logic(body, names);
            names.regions.pop();
            if matches!(f.kind, FormulaKind::ForallRegion(..)) {
                format!("for every {} {name}, {body}", k.noun())
            } else {
                format!("there is a {} {name} such that {body}", k.noun())
            }
        }
        FormulaKind::Colour(c, x) => format!("{} is {}", names.name(*x), c.name()),
        FormulaKind::Place(p, x) => format!("{} is {}", names.name(*x), p.name()),
        FormulaKind::Rel(r, x, y) => format!(
            "{} is {} {}",
            names.name(*x),
            relation_words(*r),
            names.name(*y)
        ),
        FormulaKind::Same(x, y) => format!("{} is {}", names.name(*x), names.name(*y)),
        FormulaKind::Cmp(op, a, b) => {
            let (a, b) = (logic_term(a, names), logic_term(b, names));
            format!("{a} {} {b}", comparison_words(*op))
        }
        FormulaKind::Parity(p, t) => format!(
            "{} is {}",
            logic_term(t, names),
            if *p == Parity::Odd { "odd" } else { "even" }
        ),
    }
}

/// `is`, `is not`, `is at least`...: the comparison after a number term.
fn comparison_words(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "is",
        CmpOp::Ne => "is not",
        CmpOp::Lt => "is fewer than",
        CmpOp::Le => "is at most",
        CmpOp::Gt => "is more than",
        CmpOp::Ge => "is at least",
    }
}

fn logic_term(t: &Term, names: &mut Names) -> String {
    let grouped = |t: &Term, names: &mut Names| {
        let s = logic_term(t, names);
        if matches!(t.kind, TermKind::Add(..) | TermKind::Sub(..)) {
            format!("({s})")
        } else {
            s
        }
    };
    match &t.kind {
        TermKind::Int(n) if *n < 0 => format!("(zero minus {})", say_number(-n)),
        TermKind::Int(n) => say_number(*n),
        TermKind::Tiles => "the number of tiles".into(),
        TermKind::Colours => "the number of different colours".into(),
        TermKind::ColoursIn(s) => format!("the number of different colours of {}", names.name(*s)),
        TermKind::Count(x, d, body) => {
            let name = names.bind_tile(*x);
            let of = match d {
                Domain::Subset => String::new(),
                Domain::In(s) => format!(" of {}", names.name(*s)),
            };
            let said = logic(body, names);
            names.tiles.pop();
            // The body ends where the count does: in parentheses unless one clause.
            let said = if atomic(body) {
                said
            } else {
                format!("({said})")
            };
            format!("the number of tiles {name}{of} such that {said}")
        }
        TermKind::Add(a, b) => format!("{} plus {}", logic_term(a, names), grouped(b, names)),
        TermKind::Sub(a, b) => format!("{} minus {}", logic_term(a, names), grouped(b, names)),
        TermKind::Mul(k, a) if *k < 0 => {
            format!(
                "(zero minus {} times {})",
                say_number(-k),
                grouped(a, names)
            )
        }
        TermKind::Mul(2, a) => format!("twice {}", grouped(a, names)),
        TermKind::Mul(k, a) => format!("{} times {}", say_number(*k), grouped(a, names)),
    }
}

// ---------------------------------------------------------------------------------
// Plain English for the shapes players write.

/// The same meaning with what English leaves unsaid taken out: `x != y` next to a
/// relation that never holds of a tile and itself (`adjacent`, `above`).
fn simplify(f: &Formula) -> Formula {
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

fn simplify_term(t: &Term) -> Term {
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
fn sentence(f: &Formula) -> Option<String> {
    match &f.kind {
        FormulaKind::Bin(op, a, b) => {
            if let Some(s) = any_other_colour(f) {
                return Some(s);
            }
            if let Some(s) = colour_conjunction(*op, a, b) {
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
            let (restriction, vp) = match &body.kind {
                FormulaKind::Bin(BinOp::Implies, r, g) => (Some(&**r), &**g),
                _ => (None, &**body),
            };
            Some(format!(
                "every {} is {}",
                np(*x, restriction, false, &[])?,
                complement(*x, vp, &[])?
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
fn subject_said(x: Var, body: &Formula, det: &str, plural: bool) -> Option<String> {
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
fn item_list(f: &Formula, op: BinOp) -> Option<String> {
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
    let adjectives: Option<Vec<&'static str>> = parts
        .iter()
        .map(|p| match &p.kind {
            FormulaKind::Exists(x, Domain::Subset, b) => match b.kind {
                FormulaKind::Colour(c, v) if v == *x => Some(c.name()),
                FormulaKind::Place(pl, v) if v == *x => Some(pl.name()),
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
        let adjs: Vec<String> = adjs.iter().map(|a| a.to_string()).collect();
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
            // An item with a clause of its own would take in the next one.
            (!s.contains(" and ") && !s.contains(" or ") && !s.contains(" that ")).then_some(s)
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

/// `not ...`: `there is no red tile`, `no row has a blue tile`, `not every tile is
/// red`, a comparison turned round, `neither ... nor ...`.
fn negation(a: &Formula) -> Option<String> {
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
fn flip(op: CmpOp) -> CmpOp {
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
fn comparison(op: CmpOp, a: &Term, b: &Term) -> Option<String> {
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
        let (na, nb) = (np(x, Some(ba), true, &[])?, np(y, Some(bb), true, &[])?);
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
        let (na, nb) = (np(x, Some(ba), true, &[])?, np(y, Some(bb), true, &[])?);
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
        let (na, nb) = (np(x, Some(ba), true, &[])?, np(y, Some(bb), true, &[])?);
        return Some(format!("there are {det}{times} as many {na} as {nb}"));
    }
    let words = crate::lang::print::comparison_words(op);
    Some(format!("{} {words} {}", term_words(a)?, term_words(b)?))
}

fn term_words(t: &Term) -> Option<String> {
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

// ---------------------------------------------------------------------------------
// Colours as things: `some colour appears three times`, `every colour appears at
// most twice` (the tiles of the same colour as some tile, counted).

/// `count(y: same_colour(x, y)) op n` (y may be guarded `y != x`): the condition on
/// how many tiles share x's colour, as (op, n) counting x itself.
fn colour_count(x: Var, body: &Formula) -> Option<(CmpOp, i64)> {
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
fn frequency(op: CmpOp, n: i64) -> Option<String> {
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
fn some_colour(x: Var, body: &Formula) -> Option<String> {
    let (op, n) = colour_count(x, body)?;
    if op.holds(0, n) {
        return None;
    }
    Some(format!("some colour appears {}", frequency(op, n)?))
}

/// `forall x. count(y: same_colour(x, y)) op n` where zero is enough: `every colour
/// appears ...` (a colour that does not appear meets it).
fn every_colour(x: Var, body: &Formula) -> Option<String> {
    let (op, n) = colour_count(x, body)?;
    if !op.holds(0, n) {
        return None;
    }
    Some(format!("every colour appears {}", frequency(op, n)?))
}

/// `colours = 4 & forall x. ...` (every colour, each enough times) and `colours < 4 |
/// exists x. ...` (some colour, where zero times is enough).
fn colour_conjunction(op: BinOp, a: &Formula, b: &Formula) -> Option<String> {
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
fn pair(x: Var, body: &Formula, det: &str) -> Option<String> {
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
                FormulaKind::Place(p, w) if *w == v => Some(p.name().to_string()),
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
fn group(x: Var, body: &Formula, dom: Domain) -> Option<String> {
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
fn the_line(s: Var, k: super::ast::RegionKind, body: &Formula) -> Option<String> {
    use super::ast::{Place, RegionKind};
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
        _ => return None,
    };
    Some(format!("{line} has {}", holds(s, g)?))
}

/// What a region holds: `two red tiles`, `no blue tile`, `only red tiles`, `at least
/// two colours`.
fn holds(s: Var, body: &Formula) -> Option<String> {
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
fn any_other_colour(f: &Formula) -> Option<String> {
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

fn conjuncts(f: &Formula) -> Vec<&Formula> {
    match &f.kind {
        FormulaKind::Bin(BinOp::And, a, b) => {
            let mut v = conjuncts(a);
            v.extend(conjuncts(b));
            v
        }
        _ => vec![f],
    }
}

fn mentions(f: &Formula, v: Var) -> bool {
    let mut found = false;
    super::ast::visit(f, &mut |g| {
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
fn push_inward(body: &Formula) -> Option<Formula> {
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
fn join_and(parts: Vec<&Formula>) -> Option<Formula> {
    parts.into_iter().cloned().reduce(|a, b| {
        let span = a.span.start..b.span.end;
        Formula::new(span, FormulaKind::Bin(BinOp::And, Box::new(a), Box::new(b)))
    })
}

/// Whether the conjuncts say or imply `x != y`: the guard itself, or a relation
/// between the two that never holds of a tile and itself (`adjacent`, `above`).
fn guarded(parts: &[&Formula], x: Var, y: Var) -> bool {
    parts.iter().any(|c| {
        is_distinct(c, x, y)
            || matches!(c.kind, FormulaKind::Rel(r, a, b) if !r.reflexive() && ((a, b) == (x, y) || (a, b) == (y, x)))
    })
}

/// Whether `f` has the conjunct `y != x` (the object differs from the subject).
fn excludes(f: &Formula, y: Var, x: Var) -> bool {
    conjuncts(f).into_iter().any(|c| is_distinct(c, y, x))
}

/// `x != y` (either order).
fn is_distinct(c: &Formula, x: Var, y: Var) -> bool {
    matches!(&c.kind, FormulaKind::Not(n) if matches!(n.kind, FormulaKind::Same(a, b) if (a, b) == (x, y) || (a, b) == (y, x)))
}

fn with_article(np: &str) -> String {
    let vowel = np.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {np}", if vowel { "an" } else { "a" })
}

/// `at least two`, `exactly one`... (`!=` has none).
fn det_words(op: CmpOp, n: i64) -> Option<String> {
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
fn np(x: Var, restriction: Option<&Formula>, plural: bool, outer: &[Var]) -> Option<String> {
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
            FormulaKind::Place(p, v) if *v == x => adjectives.push(p.name().to_string()),
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
    // Colours before places reads oddly (`red leftmost`): places first.
    adjectives.sort_by_key(|a| super::ast::Place::from_name(a).is_none());
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
const PLACES: &[&str] = &[
    "adjacent to ",
    "orthogonally adjacent to ",
    "diagonally adjacent to ",
    "in a higher row than ",
    "in a lower row than ",
    "in the same row as ",
    "in the same column as ",
    "directly above ",
    "directly below ",
    "directly left of ",
    "directly right of ",
];

/// `outer` and then x: the tiles in scope for x's object.
fn within(outer: &[Var], x: Var) -> Vec<Var> {
    let mut v = outer.to_vec();
    v.push(x);
    v
}

/// `REL(x, z)` as `REL it` when z is the one tile in scope besides x (as the reader
/// takes `it`), and the tree has `x != z` where the relation holds of a tile and
/// itself (the reader adds it). `parts` are the conjuncts `c` is one of.
fn it_clause(x: Var, c: &Formula, outer: &[Var], parts: &[&Formula]) -> Option<String> {
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
fn about_it(c: &Formula, y: Var, x: Var) -> bool {
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
fn hue(c: &Formula, x: Var, s: Var) -> Option<&'static str> {
    let same = |g: &Formula| matches!(g.kind, FormulaKind::Rel(Relation::SameColour, a, b) if (a, b) == (x, s) || (a, b) == (s, x));
    match &c.kind {
        _ if same(c) => Some("of the same colour"),
        FormulaKind::Not(n) if same(n) => Some("of a different colour"),
        _ => None,
    }
}

fn relation_words(r: Relation) -> &'static str {
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
fn complement(x: Var, f: &Formula, outer: &[Var]) -> Option<String> {
    match &f.kind {
        FormulaKind::Colour(c, v) if *v == x => Some(c.name().into()),
        FormulaKind::Place(p, v) if *v == x => Some(p.name().into()),
        FormulaKind::Not(a) if !matches!(a.kind, FormulaKind::Bin(..)) => {
            no_object(x, a, outer).or_else(|| Some(format!("not {}", complement(x, a, outer)?)))
        }
        FormulaKind::Bin(op @ (BinOp::And | BinOp::Or), a, b) => {
            let side = |g: &Formula| match &g.kind {
                FormulaKind::Bin(o, ..) if o != op => None,
                _ => complement(x, g, outer),
            };
            let word = if *op == BinOp::And { "and" } else { "or" };
            Some(format!(
                "{} {word} {}",
                side(a.as_ref())?,
                side(b.as_ref())?
            ))
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
fn no_object(x: Var, a: &Formula, outer: &[Var]) -> Option<String> {
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
fn needs_guard(body: &Formula, x: Var, y: Var) -> bool {
    conjuncts(body).into_iter().any(|c| match &c.kind {
        FormulaKind::Rel(r, a, b) => ((*a, *b) == (x, y) || (*a, *b) == (y, x)) && r.reflexive(),
        _ => false,
    })
}

fn has_guard(r: &Formula, y: Var, x: Var) -> bool {
    guarded(&conjuncts(r), y, x)
}

/// Whether every conjunct of `r` that mentions x is the guard `y != x`, but for one
/// colour comparison (`of the same colour`).
fn is_object_guard(r: &Formula, y: Var, x: Var) -> bool {
    let parts = conjuncts(r);
    parts.iter().filter(|c| hue(c, y, x).is_some()).count() <= 1
        && parts.into_iter().all(|c| {
            !mentions(c, x) || is_distinct(c, y, x) || hue(c, y, x).is_some() || about_it(c, y, x)
        })
}

/// Splits `REL(x, y) & rest(y)` into the relation's words and the rest (which must
/// not mention x beyond `y != x`).
fn relation_part(x: Var, y: Var, body: &Formula) -> Option<(String, Option<Formula>)> {
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
