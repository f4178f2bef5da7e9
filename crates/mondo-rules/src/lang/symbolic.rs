//! The symbolic form (docs/patterns.md, "The symbolic form"): first-order logic with
//! counting.
//!
//! The connectives, quantifier bodies, parentheses, comparisons and number terms are
//! the shared reader's ([`crate::lang::connectives`]); this file is the pattern
//! language's vocabulary: pieces, their predicates, `count` / `pips`, the global
//! terms, and `*` / `%`. `x = y` / `x != y` compare pieces. `#` starts a comment.

use super::ast::{
    BinOp, BinaryPred, CmpOp, Formula, FormulaKind, Parity, Pattern, Span, Term, TermKind,
    UnaryPred,
};
use super::connectives::{R, Reader, Vocabulary, read, shared_nodes, unknown_predicate};
use super::error::ParsePatternError;
use super::lexer::{Sym, Tok};

/// Deepest nesting accepted; keeps recursion (and variable indices) bounded.
pub(crate) const MAX_NESTING: u32 = 100;

const TERM_HELP: &str = "number terms: integers, count(x: F), pips(x: F), pips(x), pieces, width, height, groups, sizes, directions, joined by + and -; `2 * t` multiplies, `t % 3` is the remainder";

/// Names that cannot be variables.
const RESERVED: &[&str] = &[
    "forall",
    "exists",
    "count",
    "pips",
    "odd",
    "even",
    "true",
    "false",
    "pieces",
    "width",
    "height",
    "groups",
    "sizes",
    "directions",
];

/// Parses the symbolic form.
pub fn parse_symbolic(text: &str) -> Result<Pattern, ParsePatternError> {
    Ok(Pattern {
        source: text.to_string(),
        formula: read::<Pieces>(text)?,
    })
}

pub(crate) fn unary_names() -> String {
    UnaryPred::ALL.map(|p| p.name()).join(" ")
}

pub(crate) fn binary_names() -> String {
    BinaryPred::ALL.map(|p| p.name()).join(" ")
}

/// `a * b` where one side is an integer literal (the multiplier), spanning both.
pub(crate) fn times(a: Term, b: Term) -> Option<Term> {
    let span = a.span.start.min(b.span.start)..a.span.end.max(b.span.end);
    let kind = match (&a.kind, &b.kind) {
        (TermKind::Int(k), _) => TermKind::Mul(*k, Box::new(b)),
        (_, TermKind::Int(k)) => TermKind::Mul(*k, Box::new(a)),
        _ => return None,
    };
    Some(Term::new(span, kind))
}

/// The pattern language's vocabulary: variables stand for pieces.
struct Pieces;

type P = Reader<Pieces>;

impl Vocabulary for Pieces {
    type Formula = Formula;
    type Term = Term;
    type Sort = ();

    const MAX_NESTING: u32 = MAX_NESTING;
    const MAX_VARIABLES: usize = u8::MAX as usize;
    const TERM_HELP: &'static str = TERM_HELP;
    const VARIABLE_EXAMPLES: &'static str = "`x` or `y`";

    shared_nodes!();

    fn reserved(name: &str) -> bool {
        RESERVED.contains(&name)
            || UnaryPred::ALL.iter().any(|p| p.name() == name)
            || BinaryPred::ALL.iter().any(|p| p.name() == name)
    }

    fn quantifier(p: &mut P) -> R<Formula> {
        let forall = p.c.is_word("forall");
        let start = p.c.bump().start;
        let mark = p.scope.len();
        let mut vars = Vec::new();
        loop {
            vars.push(p.bind(())?);
            p.c.eat_sym(Sym::Comma);
            if p.c.eat_sym(Sym::Period) {
                break;
            }
            if !matches!(p.c.peek_at(0).map(|t| &t.tok), Some(Tok::Word(_))) {
                let q = if forall { "forall" } else { "exists" };
                return Err(p.c.expected("a variable or `.`").with_help(format!(
                    "write it like `{q} x. up(x)` or `{q} x y. touches(x, y)`"
                )));
            }
        }
        let mut f = p.formula()?;
        let end = f.span.end;
        p.scope.truncate(mark);
        for (var, span) in vars.into_iter().rev() {
            let kind = if forall {
                FormulaKind::Forall(var, Box::new(f))
            } else {
                FormulaKind::Exists(var, Box::new(f))
            };
            f = Formula::new(span.start.min(start)..end, kind);
        }
        Ok(f)
    }

    fn word_atom(p: &mut P, w: &str, span: Span, call: bool) -> R<Formula> {
        if w == "count" || w == "pips" || RESERVED.contains(&w) {
            return p.comparison();
        }
        if call {
            return predicate(p, w, span);
        }
        if matches!(p.c.sym_at(1), Some(Sym::Eq | Sym::Ne)) {
            return p.identity(span, |p| Ok(p.var()?.0));
        }
        if p.bound(w).is_some() {
            p.c.bump();
            return Err(p.c.expected("`=` or `!=` after a variable").with_help(
                "variables stand for pieces: compare them with `=` / `!=` or pass them to a predicate such as `up(x)`",
            ));
        }
        Err(ParsePatternError::new(span, format!("unknown word `{w}`")).with_help(format!(
            "a formula is `true`, `false`, a predicate such as `up(x)` or `touches(x, y)`, a comparison such as `count(x: up(x)) = 3`, or a quantifier such as `forall x. ...`; unary predicates: {}; binary predicates: {}",
            unary_names(),
            binary_names()
        )))
    }

    fn word_term(p: &mut P, w: &str, span: Span) -> Option<R<Term>> {
        let global = match w {
            "pieces" => TermKind::Pieces,
            "width" => TermKind::Width,
            "height" => TermKind::Height,
            "groups" => TermKind::Groups,
            "sizes" => TermKind::Sizes,
            "directions" => TermKind::Directions,
            "count" | "pips" if p.c.sym_at(1) == Some(Sym::LParen) => {
                p.c.bump();
                p.c.bump();
                return Some(aggregate(p, w == "count", span.start));
            }
            _ => return None,
        };
        p.c.bump();
        Some(Ok(Term::new(span, global)))
    }

    fn unbound_help(name: &str) -> String {
        format!(
            "bind it first with `forall {name}.`, `exists {name}.`, `count({name}: ...)` or `pips({name}: ...)`"
        )
    }

    /// Factors joined by `*` (one side an integer) and `%` (by a positive integer),
    /// binding tighter than `+` and `-`, left to right.
    fn product(p: &mut P) -> R<Term> {
        let mut a = p.term_primary()?;
        loop {
            if p.c.is_sym(Sym::Star) {
                let star = p.c.bump();
                let b = p.term_primary()?;
                a = times(a, b).ok_or_else(|| {
                    ParsePatternError::new(
                        star,
                        "`*` multiplies by a number: one side must be an integer",
                    )
                    .with_help("e.g. `2 * count(x: small(x)) = count(x: large(x))`")
                })?;
            } else if p.c.is_sym(Sym::Percent) {
                p.c.bump();
                let k = match p.c.peek_at(0).map(|t| &t.tok) {
                    Some(Tok::Int(k)) if *k > 0 => *k,
                    _ => {
                        return Err(p.c.expected("a positive whole number after `%`").with_help(
                            "e.g. `pips(x: true) % 3 = 0`: the total pips is a multiple of three",
                        ));
                    }
                };
                let end = p.c.bump().end;
                a = Term::new(a.span.start..end, TermKind::Mod(Box::new(a), k));
            } else {
                return Ok(a);
            }
        }
    }
}

/// `up(x)`, `touches(x, y)`: `name` is followed by `(`.
fn predicate(p: &mut P, name: &str, span: Span) -> R<Formula> {
    let unary = UnaryPred::ALL.into_iter().find(|u| u.name() == name);
    let binary = BinaryPred::ALL.into_iter().find(|b| b.name() == name);
    if unary.is_none() && binary.is_none() {
        let names = UnaryPred::ALL
            .map(|u| u.name())
            .into_iter()
            .chain(BinaryPred::ALL.map(|b| b.name()));
        return Err(unknown_predicate(
            span,
            name,
            names,
            format!(
                "unary predicates: {}; binary predicates: {}; also count(x: F), pips(x: F), pips(x), odd(t), even(t)",
                unary_names(),
                binary_names()
            ),
        ));
    }
    p.c.bump();
    p.c.bump();
    let (a, ()) = p.var()?;
    let kind = if let Some(u) = unary {
        if p.c.is_sym(Sym::Comma) {
            return Err(ParsePatternError::new(
                p.c.here(),
                format!("`{name}` takes one piece: write `{name}(x)`"),
            ));
        }
        FormulaKind::Unary(u, a)
    } else {
        if !p.c.eat_sym(Sym::Comma) {
            return Err(ParsePatternError::new(
                p.c.here(),
                format!("`{name}` takes two pieces: write `{name}(x, y)`"),
            ));
        }
        let (b, ()) = p.var()?;
        FormulaKind::Binary(binary.expect("checked above"), a, b)
    };
    let takes = if unary.is_some() {
        "one piece"
    } else {
        "two pieces"
    };
    let end = p.close_call(name, takes)?.end;
    Ok(Formula::new(span.start..end, kind))
}

/// After `count(` or `pips(`.
fn aggregate(p: &mut P, count: bool, start: usize) -> R<Term> {
    if !count && p.c.sym_at(1) == Some(Sym::RParen) {
        let (v, ()) = p.var()?;
        let end = p.c.bump().end;
        return Ok(Term::new(start..end, TermKind::PipsOf(v)));
    }
    let (v, _) = p.bind(())?;
    if !p.c.eat_sym(Sym::Colon) {
        p.scope.pop();
        let name = if count { "count" } else { "pips" };
        return Err(p
            .c
            .expected("`:`")
            .with_help(format!("write `{name}(x: F)`, e.g. `{name}(x: small(x))`")));
    }
    let f = p.formula()?;
    p.scope.pop();
    let end = p.expect_sym(Sym::RParen)?.end;
    let f = Box::new(f);
    Ok(Term::new(
        start..end,
        if count {
            TermKind::Count(v, f)
        } else {
            TermKind::PipsSum(v, f)
        },
    ))
}
