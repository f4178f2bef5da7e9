//! Saying statements back: the exact symbolic form, and canonical English (where the
//! tree has an English shape; otherwise the symbolic form, as the pattern language
//! does). Both read back to the same meaning (see the tests).

use super::ast::{
    BinOp, CmpOp, Domain, Formula, FormulaKind, Parity, Relation, Term, TermKind, Var,
};
use crate::lang::words::say_number;

const TILE_NAMES: [&str; 6] = ["x", "y", "z", "w", "u", "v"];
const REGION_NAMES: [&str; 4] = ["s", "t", "r", "q"];

/// Variable names in scope while printing, innermost last.
#[derive(Clone, Default)]
struct Names {
    tiles: Vec<(Var, String)>,
    regions: Vec<(Var, String)>,
}

impl Names {
    fn bind_tile(&mut self, v: Var) -> String {
        let i = self.tiles.len();
        let name = TILE_NAMES
            .get(i)
            .map_or_else(|| format!("x{i}"), |n| n.to_string());
        self.tiles.push((v, name.clone()));
        name
    }

    fn bind_region(&mut self, v: Var) -> String {
        let i = self.regions.len();
        let name = REGION_NAMES
            .get(i)
            .map_or_else(|| format!("s{i}"), |n| n.to_string());
        self.regions.push((v, name.clone()));
        name
    }

    fn name(&self, v: Var) -> String {
        self.tiles
            .iter()
            .chain(&self.regions)
            .rev()
            .find(|(w, _)| *w == v)
            .map_or_else(|| format!("v{}", v.0), |(_, n)| n.clone())
    }
}

fn prec(f: &Formula) -> u8 {
    match &f.kind {
        FormulaKind::Bin(op, ..) => op.level(),
        FormulaKind::Forall(..)
        | FormulaKind::Exists(..)
        | FormulaKind::ForallRegion(..)
        | FormulaKind::ExistsRegion(..) => 0,
        _ => 6,
    }
}

/// The exact symbolic form (`grids.md` 3.2).
pub fn symbolic(f: &Formula) -> String {
    let mut out = String::new();
    sym(f, &mut Names::default(), true, &mut out);
    out
}

/// Prints `f`; `tail` says whether nothing follows it in its context (a quantifier
/// anywhere else needs parentheses, its body reaching to the right).
fn sym(f: &Formula, names: &mut Names, tail: bool, out: &mut String) {
    match &f.kind {
        FormulaKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        FormulaKind::Not(a) => match &a.kind {
            FormulaKind::Same(x, y) => {
                out.push_str(&format!("{} != {}", names.name(*x), names.name(*y)))
            }
            FormulaKind::Cmp(..) => {
                out.push_str("!(");
                sym(a, names, true, out);
                out.push(')');
            }
            _ => {
                out.push('!');
                child(a, 6, names, tail, out);
            }
        },
        FormulaKind::Bin(op, a, b) => {
            let (lp, rp) = op.operand_levels();
            child(a, lp, names, false, out);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            child(b, rp, names, tail, out);
        }
        FormulaKind::Forall(..) | FormulaKind::Exists(..) => {
            let forall = matches!(f.kind, FormulaKind::Forall(..));
            out.push_str(if forall { "forall" } else { "exists" });
            let mark = names.tiles.len();
            let mut g = f;
            let mut dom = None;
            // Merge `exists x. exists y.` over one domain into `exists x y.`.
            while let FormulaKind::Forall(v, d, body) | FormulaKind::Exists(v, d, body) = &g.kind {
                if matches!(g.kind, FormulaKind::Forall(..)) != forall
                    || dom.is_some_and(|e| e != *d)
                {
                    break;
                }
                dom = Some(*d);
                out.push(' ');
                out.push_str(&names.bind_tile(*v));
                g = body.as_ref();
            }
            if let Some(Domain::In(s)) = dom {
                out.push_str(" in ");
                out.push_str(&names.name(s));
            }
            out.push_str(". ");
            sym(g, names, true, out);
            names.tiles.truncate(mark);
        }
        FormulaKind::ForallRegion(s, k, body) | FormulaKind::ExistsRegion(s, k, body) => {
            let q = if matches!(f.kind, FormulaKind::ForallRegion(..)) {
                "forall"
            } else {
                "exists"
            };
            let name = names.bind_region(*s);
            out.push_str(&format!("{q} {name}: {}. ", k.name()));
            sym(body, names, true, out);
            names.regions.pop();
        }
        FormulaKind::Colour(c, x) => out.push_str(&format!("{}({})", c.name(), names.name(*x))),
        FormulaKind::Place(p, x) => out.push_str(&format!("{}({})", p.name(), names.name(*x))),
        FormulaKind::Rel(r, x, y) => out.push_str(&format!(
            "{}({}, {})",
            r.name(),
            names.name(*x),
            names.name(*y)
        )),
        FormulaKind::Same(x, y) => {
            out.push_str(&format!("{} = {}", names.name(*x), names.name(*y)))
        }
        FormulaKind::Cmp(op, a, b) => {
            term(a, names, out);
            out.push_str(&format!(" {} ", op.symbol()));
            term(b, names, out);
        }
        FormulaKind::Parity(p, t) => {
            out.push_str(if *p == Parity::Odd { "odd(" } else { "even(" });
            term(t, names, out);
            out.push(')');
        }
    }
}

fn child(f: &Formula, min: u8, names: &mut Names, tail: bool, out: &mut String) {
    let p = prec(f);
    let paren = if p == 0 { !tail } else { p < min };
    if paren {
        out.push('(');
    }
    sym(f, names, paren || tail, out);
    if paren {
        out.push(')');
    }
}

fn term(t: &Term, names: &mut Names, out: &mut String) {
    match &t.kind {
        TermKind::Int(n) => out.push_str(&n.to_string()),
        TermKind::Tiles => out.push_str("tiles"),
        TermKind::Colours => out.push_str("colours"),
        TermKind::ColoursIn(s) => {
            out.push_str("colours(");
            out.push_str(&names.name(*s));
            out.push(')');
        }
        TermKind::Mul(k, a) => {
            out.push_str(&format!("{k} * "));
            let paren = matches!(a.kind, TermKind::Add(..) | TermKind::Sub(..));
            if paren {
                out.push('(');
            }
            term(a, names, out);
            if paren {
                out.push(')');
            }
        }
        TermKind::Count(v, d, body) => {
            let name = names.bind_tile(*v);
            out.push_str("count(");
            out.push_str(&name);
            if let Domain::In(s) = d {
                out.push_str(" in ");
                out.push_str(&names.name(*s));
            }
            out.push_str(": ");
            sym(body, names, true, out);
            out.push(')');
            names.tiles.pop();
        }
        TermKind::Add(a, b) | TermKind::Sub(a, b) => {
            term(a, names, out);
            out.push_str(if matches!(t.kind, TermKind::Add(..)) {
                " + "
            } else {
                " - "
            });
            // `a - (b + c)` keeps its parentheses.
            let paren = matches!(b.kind, TermKind::Add(..) | TermKind::Sub(..));
            if paren {
                out.push('(');
            }
            term(b, names, out);
            if paren {
                out.push(')');
            }
        }
    }
}

/// Canonical English, or the symbolic form where English has no words for the tree.
pub fn english(f: &Formula) -> String {
    sentence(f).unwrap_or_else(|| symbolic(f))
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

fn sentence(f: &Formula) -> Option<String> {
    match &f.kind {
        FormulaKind::Bin(op, a, b) => {
            // Same-operator chains of `and` / `or` read without brackets; any other
            // nesting would be ambiguous in English.
            let side = |g: &Formula| match &g.kind {
                FormulaKind::Bin(o, ..) if o == op && matches!(op, BinOp::And | BinOp::Or) => {
                    sentence(g)
                }
                FormulaKind::Bin(..) => None,
                _ => sentence(g),
            };
            let (a, b) = (side(a.as_ref())?, side(b.as_ref())?);
            Some(match op {
                BinOp::And => format!("{a} and {b}"),
                BinOp::Or => format!("{a} or {b}"),
                BinOp::Xor => format!("either {a} or {b} but not both"),
                BinOp::Implies => format!("if {a} then {b}"),
                BinOp::Iff => format!("{a} if and only if {b}"),
            })
        }
        FormulaKind::Not(a) => match &a.kind {
            FormulaKind::Exists(x, Domain::Subset, body) => {
                if let Some(s) = pair(*x, body, "no two") {
                    return Some(s);
                }
                if let Some(g) = group(*x, body, Domain::Subset) {
                    return Some(format!("there are no {g}"));
                }
                Some(format!(
                    "there is no {}",
                    np(*x, Some(&**body), false, &[])?
                ))
            }
            FormulaKind::ExistsRegion(s, k, body) => {
                Some(format!("no {} has {}", k.noun(), holds(*s, body)?))
            }
            FormulaKind::Bin(..) => None,
            _ => {
                let s = sentence(a)?;
                // `not every tile is red` reads as a clause; `it is not the case
                // that` would take in whatever follows.
                Some(match s.strip_prefix("every ") {
                    Some(_) => format!("not {s}"),
                    None => format!("(it is not the case that {s})"),
                })
            }
        },
        FormulaKind::Exists(x, Domain::Subset, body) => {
            if let Some(s) = pair(*x, body, "two") {
                return Some(s);
            }
            if let Some(g) = group(*x, body, Domain::Subset) {
                return Some(format!("there are {g}"));
            }
            if let Some(pushed) = push_inward(body) {
                return Some(format!(
                    "there is {}",
                    with_article(&np(*x, Some(&pushed), false, &[])?)
                ));
            }
            Some(format!(
                "there is {}",
                with_article(&np(*x, Some(&**body), false, &[])?)
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
            Some(format!("every {} has {}", k.noun(), holds(*s, body)?))
        }
        FormulaKind::Cmp(op, a, b) => {
            if let (TermKind::Count(x, Domain::Subset, body), TermKind::Int(n)) = (&a.kind, &b.kind)
                && let Some(det) = det_words(*op, *n)
            {
                let plural = *n != 1 || *op == CmpOp::Gt || *op == CmpOp::Lt;
                let verb = if plural { "are" } else { "is" };
                return Some(format!(
                    "there {verb} {det} {}",
                    np(*x, Some(&**body), plural, &[])?
                ));
            }
            if let (
                TermKind::Count(x, Domain::Subset, ba),
                TermKind::Count(y, Domain::Subset, bb),
            ) = (&a.kind, &b.kind)
            {
                let (na, nb) = (
                    np(*x, Some(&**ba), true, &[])?,
                    np(*y, Some(&**bb), true, &[])?,
                );
                match op {
                    CmpOp::Gt => return Some(format!("there are more {na} than {nb}")),
                    CmpOp::Lt => return Some(format!("there are fewer {na} than {nb}")),
                    CmpOp::Eq => return Some(format!("there are as many {na} as {nb}")),
                    _ => {}
                }
            }
            let words = crate::lang::print::comparison_words(*op);
            Some(format!("{} {words} {}", term_words(a)?, term_words(b)?))
        }
        FormulaKind::Parity(p, t) => Some(format!(
            "{} is {}",
            term_words(t)?,
            if *p == Parity::Odd { "odd" } else { "even" }
        )),
        _ => None,
    }
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

/// `x != y` (either order).
fn is_distinct(c: &Formula, x: Var, y: Var) -> bool {
    matches!(&c.kind, FormulaKind::Not(n) if matches!(n.kind, FormulaKind::Same(a, b) if (a, b) == (x, y) || (a, b) == (y, x)))
}

/// `exists x. exists y. [REL(x, y) | x != y] & [!]same_colour(x, y)`: the pair
/// sentences.
fn pair(x: Var, body: &Formula, det: &str) -> Option<String> {
    let FormulaKind::Exists(y, Domain::Subset, inner) = &body.kind else {
        return None;
    };
    let parts = conjuncts(inner);
    let [cond, colour] = parts.as_slice() else {
        return None;
    };
    let adjective = match &cond.kind {
        FormulaKind::Rel(
            r @ (Relation::Adjacent | Relation::OrthAdjacent | Relation::DiagAdjacent),
            a,
            b,
        ) if (*a, *b) == (x, *y) => match r {
            Relation::Adjacent => "adjacent ",
            Relation::OrthAdjacent => "orthogonally adjacent ",
            _ => "diagonally adjacent ",
        },
        _ if is_distinct(cond, x, *y) => "",
        _ => return None,
    };
    let same = |g: &Formula| matches!(g.kind, FormulaKind::Rel(Relation::SameColour, a, b) if (a, b) == (x, *y));
    let what = match &colour.kind {
        _ if same(colour) => "the same colour",
        FormulaKind::Not(n) if same(n.as_ref()) => "different colours",
        _ => return None,
    };
    Some(format!("{det} {adjective}tiles are {what}"))
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
        FormulaKind::Cmp(CmpOp::Ge, t, n) => match (&t.kind, &n.kind) {
            (TermKind::Count(y, d, g), TermKind::Int(n)) if *d == dom && *n >= 2 && same(g, *y) => {
                Some(format!("{} tiles of the same colour", say_number(*n)))
            }
            _ => None,
        },
        _ => None,
    }
}

/// What a region holds: `two red tiles`, `no blue tile`, `only red tiles`.
fn holds(s: Var, body: &Formula) -> Option<String> {
    match &body.kind {
        FormulaKind::Cmp(op, a, b) => {
            let (TermKind::Count(x, Domain::In(t), r), TermKind::Int(n)) = (&a.kind, &b.kind)
            else {
                return None;
            };
            if *t != s {
                return None;
            }
            let det = det_words(*op, *n)?;
            let plural = *n != 1 || *op == CmpOp::Gt || *op == CmpOp::Lt;
            Some(format!("{det} {}", np(*x, Some(&**r), plural, &[])?))
        }
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

fn term_words(t: &Term) -> Option<String> {
    Some(match &t.kind {
        TermKind::Int(n) => say_number(*n),
        TermKind::Tiles => "the number of tiles".into(),
        TermKind::Colours => "the number of different colours".into(),
        TermKind::Count(x, Domain::Subset, body) => {
            format!("the number of {}", np(*x, Some(&**body), true, &[])?)
        }
        TermKind::Count(..) | TermKind::ColoursIn(_) | TermKind::Mul(..) => return None,
        TermKind::Add(a, b) => format!("{} plus {}", term_words(a)?, term_words(b)?),
        TermKind::Sub(a, b) => format!("{} minus {}", term_words(a)?, term_words(b)?),
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
        out.push_str(" that ");
        out.push_str(verb);
        out.push(' ');
        out.push_str(&clauses.join(" and "));
    }
    Some(out)
}

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
    let guarded = parts.iter().any(|p| is_distinct(p, x, *z));
    match &c.kind {
        FormulaKind::Rel(r, a, b)
            if (*a, *b) == (x, *z) && (!r.reflexive() || guarded)
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
        FormulaKind::Rel(_, a, b) => (*a, *b) == (y, x),
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
        Relation::LeftOf => "in a column further left than",
        Relation::RightOf => "in a column further right than",
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
            Some(format!("not {}", complement(x, a, outer)?))
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
            Some(format!(
                "{rel} {}",
                with_article(&np(*y, rest.as_ref(), false, &within(outer, x))?)
            ))
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
            Some(format!(
                "{rel} every {}",
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

/// Whether the relation between x and y in `body` holds of a tile and itself.
fn needs_guard(body: &Formula, x: Var, y: Var) -> bool {
    conjuncts(body).into_iter().any(|c| match &c.kind {
        FormulaKind::Rel(r, a, b) => (*a, *b) == (x, y) && r.reflexive(),
        _ => false,
    })
}

fn has_guard(r: &Formula, y: Var, x: Var) -> bool {
    conjuncts(r).into_iter().any(|c| is_distinct(c, y, x))
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
    let phrase = |c: &Formula| match &c.kind {
        FormulaKind::Rel(r, a, b) if (*a, *b) == (x, y) => Some(relation_words(*r)),
        FormulaKind::Not(n) => match n.kind {
            FormulaKind::Rel(Relation::SameColour, a, b) if (a, b) == (x, y) => {
                Some("a different colour from")
            }
            _ => None,
        },
        _ => None,
    };
    // A positional relation is the words, and a colour comparison beside it is said
    // of the object: `adjacent to a tile of the same colour`.
    let positional = parts.iter().position(|c| {
        matches!(c.kind, FormulaKind::Rel(r, a, b) if (a, b) == (x, y) && r != Relation::SameColour)
    });
    let at = positional.or_else(|| parts.iter().position(|c| phrase(c).is_some()))?;
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
    if needs_guard(body, x, y) && !rest.iter().any(|c| is_distinct(c, y, x)) {
        return None;
    }
    Some((words, join_and(rest)))
}
