//! The symbolic form of statements (docs/tiles.md, "The symbolic form"): the pattern
//! language's symbolic reader ([`crate::lang::connectives`]: lexer, connectives and
//! precedence `<->`, `->`, `|`, `^`, `&`, `!`, parentheses, comparisons, number terms,
//! errors) over the tiles' vocabulary, with region quantifiers: `exists s: square.
//! count(x in s: red(x)) >= 1`.

use super::ast::{
    BinOp, CmpOp, Domain, Formula, FormulaKind, Parity, Place, RegionKind, Relation, Span,
    Statement, Term, TermKind, Var,
};
use super::cells::Colour;
use crate::lang::ParsePatternError;
use crate::lang::connectives::{R, Reader, Vocabulary, read, shared_nodes, unknown_predicate};
use crate::lang::lexer::{Sym, Tok};
use crate::lang::words::did_you_mean;

const TERMS: &str = "number terms: integers, count(x: F), count(x in s: F), tiles, colours, colours(s), k * t, joined by + and -";

fn predicate_names() -> String {
    let colours = Colour::ALL.map(Colour::name).join(" ");
    let places = Place::ALL.map(Place::name).join(" ");
    let rels = Relation::ALL.map(Relation::name).join(" ");
    format!("unary: {colours} {places}; binary: {rels}")
}

/// Whether a variable stands for a tile or a region.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sort {
    Tile,
    Region,
}

/// Parses the symbolic form.
pub fn parse_symbolic(text: &str) -> R<Statement> {
    Ok(Statement {
        source: text.to_string(),
        formula: read::<Tiles>(text)?,
    })
}

/// The tiles' vocabulary: variables stand for tiles or regions of the subset.
struct Tiles;

type P = Reader<Tiles>;

impl Vocabulary for Tiles {
    type Formula = Formula;
    type Term = Term;
    type Sort = Sort;

    const MAX_NESTING: u32 = 60;
    const MAX_VARIABLES: usize = 200;
    const TERM_HELP: &'static str = TERMS;
    const VARIABLE_EXAMPLES: &'static str = "`x` or `s`";

    shared_nodes!();

    fn reserved(w: &str) -> bool {
        matches!(
            w,
            "forall"
                | "exists"
                | "count"
                | "odd"
                | "even"
                | "true"
                | "false"
                | "tiles"
                | "colours"
                | "colors"
                | "in"
                | "row"
                | "column"
                | "square"
        ) || Colour::from_name(w).is_some()
            || Place::from_name(w).is_some()
            || Relation::from_name(w).is_some()
    }

    /// `forall x y. F`, `exists x in s. F`, `exists s: row. F`.
    fn quantifier(p: &mut P) -> R<Formula> {
        let forall = p.c.is_word("forall");
        let q = if forall { "forall" } else { "exists" };
        let start = p.c.bump().start;
        let mark = p.scope.len();
        let mut binders = Vec::new();
        if p.c.sym_at(1) == Some(Sym::Colon) {
            let (var, _) = p.bind(Sort::Region)?;
            p.c.bump();
            binders.push((var, Err(region_kind(p)?)));
        } else {
            loop {
                let (var, _) = p.bind(Sort::Tile)?;
                binders.push((var, Ok(Domain::Subset)));
                p.c.eat_sym(Sym::Comma);
                if p.c.is_word("in") {
                    let d = region_domain(p)?;
                    for b in binders.iter_mut() {
                        b.1 = Ok(d);
                    }
                }
                if p.c.is_sym(Sym::Period) {
                    break;
                }
                if !matches!(p.c.peek_at(0).map(|t| &t.tok), Some(Tok::Word(_))) {
                    return Err(p.c.expected("a variable, `in s` or `.`").with_help(format!(
                        "write it like `{q} x. red(x)`, `{q} x y. adjacent(x, y)`, `{q} x in s. red(x)` or `{q} s: row. ...`"
                    )));
                }
            }
        }
        if !p.c.eat_sym(Sym::Period) {
            return Err(p
                .c
                .expected("`.` before the body")
                .with_help(format!("write it like `{q} s: row. exists x in s. red(x)`")));
        }
        let mut f = p.formula()?;
        let end = f.span.end;
        // Each binder ranges over tiles of a domain (`Ok`) or over regions (`Err`).
        for (var, over) in binders.into_iter().rev() {
            let body = Box::new(f);
            let k = match (over, forall) {
                (Ok(d), true) => FormulaKind::Forall(var, d, body),
                (Ok(d), false) => FormulaKind::Exists(var, d, body),
                (Err(k), true) => FormulaKind::ForallRegion(var, k, body),
                (Err(k), false) => FormulaKind::ExistsRegion(var, k, body),
            };
            f = Formula::new(start..end, k);
        }
        p.scope.truncate(mark);
        Ok(f)
    }

    fn word_atom(p: &mut P, w: &str, span: Span, call: bool) -> R<Formula> {
        if matches!(w, "count" | "tiles" | "colours" | "colors") {
            return p.comparison();
        }
        if call {
            return predicate(p, w, span);
        }
        if matches!(p.c.sym_at(1), Some(Sym::Eq | Sym::Ne)) && p.bound(w).is_some() {
            return p.identity(span, tile);
        }
        Err(ParsePatternError::new(span, format!("unknown word `{w}`")).with_help(format!(
            "a formula is a predicate such as `red(x)` or `adjacent(x, y)`, a comparison such as `count(x: red(x)) >= 2`, or a quantifier such as `exists x. ...`; {}",
            predicate_names()
        )))
    }

    fn word_term(p: &mut P, w: &str, span: Span) -> Option<R<Term>> {
        if matches!(w, "colours" | "colors") && p.c.sym_at(1) == Some(Sym::LParen) {
            return Some(colours_in(p, span));
        }
        let kind = match w {
            "tiles" => TermKind::Tiles,
            "colours" | "colors" => TermKind::Colours,
            "count" => return Some(count(p, span)),
            _ => return None,
        };
        p.c.bump();
        Some(Ok(Term::new(span, kind)))
    }

    fn unbound_help(name: &str) -> String {
        format!("bind it first with `forall {name}.`, `exists {name}.` or `count({name}: ...)`")
    }

    /// `k * t` (one side an integer): half of the tiles, twice as many.
    fn product(p: &mut P) -> R<Term> {
        let mut a = p.term_primary()?;
        while p.c.is_sym(Sym::Star) {
            let star = p.c.bump();
            let b = p.term_primary()?;
            let span = a.span.start..b.span.end;
            let kind = match (&a.kind, &b.kind) {
                (TermKind::Int(k), _) => TermKind::Mul(*k, Box::new(b)),
                (_, TermKind::Int(k)) => TermKind::Mul(*k, Box::new(a)),
                _ => {
                    return Err(ParsePatternError::new(
                        star,
                        "`*` multiplies by a number: one side must be an integer",
                    )
                    .with_help("e.g. `2 * count(x: red(x)) > tiles`"));
                }
            };
            a = Term::new(span, kind);
        }
        Ok(a)
    }
}

/// `colours(s)`: the colours the tiles of the region s show, at `colours`.
fn colours_in(p: &mut P, span: Span) -> R<Term> {
    p.c.bump();
    p.c.bump();
    let at = p.c.here();
    let (v, sort) = p.var()?;
    if sort != Sort::Region {
        return Err(ParsePatternError::new(
            at,
            "`colours(s)` takes a region variable, bound by `forall s: row.` (or column, square)",
        ));
    }
    let end = p.close_call("colours", "one region")?.end;
    Ok(Term::new(span.start..end, TermKind::ColoursIn(v)))
}

/// `count(x: F)` / `count(x in s: F)`, at `count`.
fn count(p: &mut P, span: Span) -> R<Term> {
    p.c.bump();
    p.expect_sym(Sym::LParen)?;
    let mark = p.scope.len();
    let (var, _) = p.bind(Sort::Tile)?;
    let dom = if p.c.is_word("in") {
        region_domain(p)?
    } else {
        Domain::Subset
    };
    if !p.c.eat_sym(Sym::Colon) {
        return Err(p
            .c
            .expected("`:`")
            .with_help("write it like `count(x: red(x))` or `count(x in s: red(x))`"));
    }
    let body = p.formula()?;
    let end = p.expect_sym(Sym::RParen)?.end;
    p.scope.truncate(mark);
    Ok(Term::new(
        span.start..end,
        TermKind::Count(var, dom, Box::new(body)),
    ))
}

fn region_kind(p: &mut P) -> R<RegionKind> {
    let span = p.c.here();
    let w = p.c.word().unwrap_or("").to_string();
    let kind = match w.as_str() {
        "row" => RegionKind::Row,
        "column" => RegionKind::Column,
        "square" | "2x2" => RegionKind::Square,
        _ => {
            let hint = did_you_mean(&w, ["row", "column", "square"])
                .map(|n| format!(" (did you mean `{n}`?)"))
                .unwrap_or_default();
            return Err(ParsePatternError::new(
                span,
                format!(
                    "expected a region `row`, `column` or `square`, found {}{hint}",
                    p.c.found()
                ),
            ));
        }
    };
    p.c.bump();
    Ok(kind)
}

/// `in s`, where s is a region variable in scope.
fn region_domain(p: &mut P) -> R<Domain> {
    p.c.bump();
    let span = p.c.here();
    let (v, sort) = p.var()?;
    if sort != Sort::Region {
        return Err(ParsePatternError::new(
            span,
            "after `in` comes a region variable, bound by `exists s: row.` (or column, square)",
        ));
    }
    Ok(Domain::In(v))
}

/// A tile variable in scope.
fn tile(p: &mut P) -> R<Var> {
    let span = p.c.here();
    let (v, sort) = p.var()?;
    if sort == Sort::Region {
        return Err(ParsePatternError::new(
            span,
            "this is a region variable; predicates take tiles (use `exists x in s. ...`)",
        ));
    }
    Ok(v)
}

/// `red(x)`, `leftmost(x)`, `adjacent(x, y)`: `name` is followed by `(`.
fn predicate(p: &mut P, name: &str, span: Span) -> R<Formula> {
    let name = match name {
        "orthogonally_adjacent" => "orth_adjacent",
        "diagonally_adjacent" => "diag_adjacent",
        n => n,
    };
    let colour = Colour::from_name(name);
    let place = Place::from_name(name);
    let rel = Relation::from_name(name);
    if colour.is_none() && place.is_none() && rel.is_none() {
        let places = Place::ALL.map(Place::name);
        let known = Colour::ALL
            .map(Colour::name)
            .into_iter()
            .chain(places.iter().map(|p| p.as_ref()))
            .chain(Relation::ALL.map(Relation::name));
        return Err(unknown_predicate(
            span,
            name,
            known,
            format!("{}; also count(x: F), odd(t), even(t)", predicate_names()),
        ));
    }
    p.c.bump();
    p.c.bump();
    let a = tile(p)?;
    let kind = if let Some(r) = rel {
        if !p.c.eat_sym(Sym::Comma) {
            return Err(ParsePatternError::new(
                p.c.here(),
                format!("`{name}` takes two tiles: write `{name}(x, y)`"),
            ));
        }
        FormulaKind::Rel(r, a, tile(p)?)
    } else if let Some(c) = colour {
        FormulaKind::Colour(c, a)
    } else {
        FormulaKind::Place(place.unwrap_or(Place::Topmost), a)
    };
    let takes = if rel.is_some() {
        "two tiles"
    } else {
        "one tile"
    };
    let end = p.close_call(name, takes)?.end;
    Ok(Formula::new(span.start..end, kind))
}
