//! The symbolic form of statements (`grids.md` 3.2): the pattern language's symbolic
//! syntax (same lexer, connectives and precedence: `<->`, `->`, `|`, `^`, `&`, `!`)
//! over the tiles' vocabulary and with region quantifiers:
//! `exists s: square. count(x in s: red(x)) >= 1`.

use super::ast::{
    BinOp, CmpOp, Domain, Formula, FormulaKind, Parity, Place, RegionKind, Relation, Span,
    Statement, Term, TermKind, Var,
};
use super::cells::Colour;
use crate::lang::ParsePatternError;
use crate::lang::lexer::{Cursor, Sym, Tok, deeper, lex};
use crate::lang::words::did_you_mean;

type R<T> = Result<T, ParsePatternError>;

const MAX_NESTING: u32 = 60;

const TERMS: &str =
    "number terms: integers, count(x: F), count(x in s: F), tiles, colours, joined by + and -";

fn predicate_names() -> String {
    let colours = Colour::ALL.map(Colour::name).join(" ");
    let places = Place::ALL.map(Place::name).join(" ");
    let rels = Relation::ALL.map(Relation::name).join(" ");
    format!("unary: {colours} {places}; binary: {rels}")
}

/// Names that cannot be variables.
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

/// Whether a variable stands for a tile or a region.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sort {
    Tile,
    Region,
}

/// Parses the symbolic form.
pub fn parse_symbolic(text: &str) -> R<Statement> {
    let lexed = lex(text)?;
    let mut p = Parser {
        c: Cursor::new(lexed.tokens, text.len()),
        scope: Vec::new(),
        nesting: 0,
    };
    let formula = p.formula()?;
    if !p.c.at_end() {
        return Err(p
            .c
            .expected("a connective (`&`, `|`, `^`, `->`, `<->`) or the end"));
    }
    Ok(Statement {
        source: text.to_string(),
        formula,
    })
}

struct Parser {
    c: Cursor,
    scope: Vec<(String, Var, Sort)>,
    nesting: u32,
}

fn join(op: BinOp, a: Formula, b: Formula) -> Formula {
    Formula::new(
        a.span.start..b.span.end,
        FormulaKind::Bin(op, Box::new(a), Box::new(b)),
    )
}

impl Parser {
    fn formula(&mut self) -> R<Formula> {
        deeper(&mut self.nesting, MAX_NESTING, self.c.here())?;
        let mut a = self.implies()?;
        while self.c.eat_sym(Sym::DoubleArrow) {
            let b = self.implies()?;
            a = join(BinOp::Iff, a, b);
        }
        self.nesting -= 1;
        Ok(a)
    }

    fn implies(&mut self) -> R<Formula> {
        let a = self.level(0)?;
        if !self.c.eat_sym(Sym::Arrow) {
            return Ok(a);
        }
        deeper(&mut self.nesting, MAX_NESTING, self.c.here())?;
        let b = self.implies()?;
        self.nesting -= 1;
        Ok(join(BinOp::Implies, a, b))
    }

    /// `|`, then `^`, then `&`: left associative, tighter as the level rises.
    fn level(&mut self, level: usize) -> R<Formula> {
        const OPS: [(Sym, BinOp); 3] = [
            (Sym::Pipe, BinOp::Or),
            (Sym::Caret, BinOp::Xor),
            (Sym::Amp, BinOp::And),
        ];
        let next = |p: &mut Parser| {
            if level + 1 < OPS.len() {
                p.level(level + 1)
            } else {
                p.unary()
            }
        };
        let mut a = next(self)?;
        while self.c.eat_sym(OPS[level].0) {
            let b = next(self)?;
            a = join(OPS[level].1, a, b);
        }
        Ok(a)
    }

    fn unary(&mut self) -> R<Formula> {
        deeper(&mut self.nesting, MAX_NESTING, self.c.here())?;
        let start = self.c.here().start;
        let f = if self.c.eat_sym(Sym::Bang) {
            let a = self.unary()?;
            Formula::new(start..a.span.end, FormulaKind::Not(Box::new(a)))
        } else if self.c.is_word("forall") || self.c.is_word("exists") {
            self.quantifier()?
        } else {
            self.atom()?
        };
        self.nesting -= 1;
        Ok(f)
    }

    /// `forall x y. F`, `exists x in s. F`, `exists s: row. F`.
    fn quantifier(&mut self) -> R<Formula> {
        let forall = self.c.is_word("forall");
        let q = if forall { "forall" } else { "exists" };
        let start = self.c.bump().start;
        let mark = self.scope.len();
        let mut binders = Vec::new();
        if self.c.sym_at(1) == Some(Sym::Colon) {
            let (var, _) = self.bind(Sort::Region)?;
            self.c.bump();
            let kind = self.region_kind()?;
            binders.push((var, None, Some(kind)));
        } else {
            loop {
                let (var, _) = self.bind(Sort::Tile)?;
                binders.push((var, Some(Domain::Subset), None));
                self.c.eat_sym(Sym::Comma);
                if self.c.is_word("in") {
                    let d = self.region_domain()?;
                    for b in binders.iter_mut() {
                        b.1 = Some(d);
                    }
                }
                if self.c.is_sym(Sym::Period) {
                    break;
                }
                if !matches!(self.c.peek_at(0).map(|t| &t.tok), Some(Tok::Word(_))) {
                    return Err(self.c.expected("a variable, `in s` or `.`").with_help(format!(
                        "write it like `{q} x. red(x)`, `{q} x y. adjacent(x, y)`, `{q} x in s. red(x)` or `{q} s: row. ...`"
                    )));
                }
            }
        }
        if !self.c.eat_sym(Sym::Period) {
            return Err(self
                .c
                .expected("`.` before the body")
                .with_help(format!("write it like `{q} s: row. exists x in s. red(x)`")));
        }
        let mut f = self.formula()?;
        let end = f.span.end;
        for (var, dom, kind) in binders.into_iter().rev() {
            let body = Box::new(f);
            let k = match (dom, kind, forall) {
                (Some(d), _, true) => FormulaKind::Forall(var, d, body),
                (Some(d), _, false) => FormulaKind::Exists(var, d, body),
                (None, Some(k), true) => FormulaKind::ForallRegion(var, k, body),
                (None, Some(k), false) => FormulaKind::ExistsRegion(var, k, body),
                (None, None, _) => FormulaKind::Bool(false),
            };
            f = Formula::new(start..end, k);
        }
        self.scope.truncate(mark);
        Ok(f)
    }

    fn region_kind(&mut self) -> R<RegionKind> {
        let span = self.c.here();
        let w = self.c.word().unwrap_or("").to_string();
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
                        self.c.found()
                    ),
                ));
            }
        };
        self.c.bump();
        Ok(kind)
    }

    /// `in s`, where s is a region variable in scope.
    fn region_domain(&mut self) -> R<Domain> {
        self.c.bump();
        let span = self.c.here();
        let v = self.var()?;
        if self.sort_of(v) != Sort::Region {
            return Err(ParsePatternError::new(
                span,
                "after `in` comes a region variable, bound by `exists s: row.` (or column, square)",
            ));
        }
        Ok(Domain::In(v))
    }

    fn sort_of(&self, v: Var) -> Sort {
        self.scope
            .iter()
            .rev()
            .find(|(_, w, _)| *w == v)
            .map_or(Sort::Tile, |s| s.2)
    }

    fn bind(&mut self, sort: Sort) -> R<(Var, Span)> {
        let span = self.c.here();
        let Some(name) = self.c.word().map(str::to_string) else {
            return Err(self.c.expected("a variable name such as `x`"));
        };
        if reserved(&name) || name.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(ParsePatternError::new(
                span,
                format!("`{name}` cannot be a variable name; use a name such as `x` or `s`"),
            ));
        }
        if self.scope.len() >= 200 {
            return Err(ParsePatternError::new(span, "too many variables"));
        }
        self.c.bump();
        let var = Var(self.scope.len() as u8);
        self.scope.push((name, var, sort));
        Ok((var, span))
    }

    fn var(&mut self) -> R<Var> {
        let span = self.c.here();
        let Some(name) = self.c.word().map(str::to_string) else {
            return Err(self.c.expected("a variable such as `x`"));
        };
        match self.scope.iter().rev().find(|(n, _, _)| *n == name) {
            Some((_, v, _)) => {
                self.c.bump();
                Ok(*v)
            }
            None => Err(ParsePatternError::new(span, format!("unbound variable `{name}`")).with_help(format!(
                "bind it first with `forall {name}.`, `exists {name}.` or `count({name}: ...)`"
            ))),
        }
    }

    /// A tile variable in scope.
    fn tile(&mut self) -> R<Var> {
        let span = self.c.here();
        let v = self.var()?;
        if self.sort_of(v) == Sort::Region {
            return Err(ParsePatternError::new(
                span,
                "this is a region variable; predicates take tiles (use `exists x in s. ...`)",
            ));
        }
        Ok(v)
    }

    fn expect(&mut self, s: Sym) -> R<Span> {
        if self.c.is_sym(s) {
            Ok(self.c.bump())
        } else {
            Err(self.c.expected(&format!("`{}`", s.text())))
        }
    }

    fn atom(&mut self) -> R<Formula> {
        let span = self.c.here();
        if self.c.is_sym(Sym::LParen) {
            let (pos, mark) = (self.c.pos, self.scope.len());
            self.c.bump();
            let inner = self
                .formula()
                .and_then(|f| Ok((f, self.expect(Sym::RParen)?)));
            match inner {
                Ok((f, close)) if !self.c.sym_at(0).is_some_and(Sym::continues_term) => {
                    return Ok(Formula::new(span.start..close.end, f.kind));
                }
                first => {
                    self.c.pos = pos;
                    self.scope.truncate(mark);
                    return self
                        .comparison()
                        .or_else(|e| first.map(|(f, _)| f).and(Err(e)));
                }
            }
        }
        let Some(w) = self.c.word().map(str::to_string) else {
            return self.comparison();
        };
        let call = self.c.sym_at(1) == Some(Sym::LParen);
        match w.as_str() {
            "true" | "false" => {
                self.c.bump();
                return Ok(Formula::new(span, FormulaKind::Bool(w == "true")));
            }
            "odd" | "even" if call => {
                self.c.bump();
                self.c.bump();
                let t = self.term()?;
                let end = self.expect(Sym::RParen)?.end;
                let p = if w == "odd" {
                    Parity::Odd
                } else {
                    Parity::Even
                };
                return Ok(Formula::new(span.start..end, FormulaKind::Parity(p, t)));
            }
            "count" | "tiles" | "colours" | "colors" => return self.comparison(),
            _ => {}
        }
        if call {
            return self.predicate(&w, span);
        }
        if matches!(self.c.sym_at(1), Some(Sym::Eq | Sym::Ne))
            && self.scope.iter().any(|(n, _, _)| *n == w)
        {
            let a = self.tile()?;
            let eq = self.c.is_sym(Sym::Eq);
            self.c.bump();
            let b = self.tile()?;
            let end = self.c.prev().end;
            let same = Formula::new(span.start..end, FormulaKind::Same(a, b));
            return Ok(if eq {
                same
            } else {
                Formula::new(span.start..end, FormulaKind::Not(Box::new(same)))
            });
        }
        Err(ParsePatternError::new(span, format!("unknown word `{w}`")).with_help(format!(
            "a formula is a predicate such as `red(x)` or `adjacent(x, y)`, a comparison such as `count(x: red(x)) >= 2`, or a quantifier such as `exists x. ...`; {}",
            predicate_names()
        )))
    }

    fn predicate(&mut self, name: &str, span: Span) -> R<Formula> {
        let name = match name {
            "orthogonally_adjacent" => "orth_adjacent",
            "diagonally_adjacent" => "diag_adjacent",
            n => n,
        };
        let colour = Colour::from_name(name);
        let place = Place::from_name(name);
        let rel = Relation::from_name(name);
        if colour.is_none() && place.is_none() && rel.is_none() {
            let known = Colour::ALL
                .map(Colour::name)
                .into_iter()
                .chain(Place::ALL.map(Place::name))
                .chain(Relation::ALL.map(Relation::name));
            let hint = did_you_mean(name, known)
                .map(|n| format!(" (did you mean `{n}`?)"))
                .unwrap_or_default();
            return Err(
                ParsePatternError::new(span, format!("unknown predicate `{name}`{hint}"))
                    .with_help(format!(
                        "{}; also count(x: F), odd(t), even(t)",
                        predicate_names()
                    )),
            );
        }
        self.c.bump();
        self.c.bump();
        let a = self.tile()?;
        let kind = if let Some(r) = rel {
            if !self.c.eat_sym(Sym::Comma) {
                return Err(ParsePatternError::new(
                    self.c.here(),
                    format!("`{name}` takes two tiles: write `{name}(x, y)`"),
                ));
            }
            FormulaKind::Rel(r, a, self.tile()?)
        } else if let Some(c) = colour {
            FormulaKind::Colour(c, a)
        } else {
            FormulaKind::Place(place.unwrap_or(Place::Topmost), a)
        };
        if !self.c.is_sym(Sym::RParen) {
            let n = if rel.is_some() {
                "two tiles"
            } else {
                "one tile"
            };
            return Err(self
                .c
                .expected("`)`")
                .with_help(format!("`{name}` takes {n}")));
        }
        let end = self.c.bump().end;
        Ok(Formula::new(span.start..end, kind))
    }

    fn comparison(&mut self) -> R<Formula> {
        let a = self.term()?;
        let op = match self.c.sym_at(0) {
            Some(Sym::Eq) => CmpOp::Eq,
            Some(Sym::Ne) => CmpOp::Ne,
            Some(Sym::Lt) => CmpOp::Lt,
            Some(Sym::Le) => CmpOp::Le,
            Some(Sym::Gt) => CmpOp::Gt,
            Some(Sym::Ge) => CmpOp::Ge,
            _ => {
                return Err(self
                    .c
                    .expected("a comparison (`=`, `!=`, `<`, `<=`, `>`, `>=`)"));
            }
        };
        self.c.bump();
        let b = self.term()?;
        Ok(Formula::new(
            a.span.start..b.span.end,
            FormulaKind::Cmp(op, a, b),
        ))
    }

    fn term(&mut self) -> R<Term> {
        let mut a = self.term_atom()?;
        loop {
            let plus = if self.c.eat_sym(Sym::Plus) {
                true
            } else if self.c.eat_sym(Sym::Minus) {
                false
            } else {
                return Ok(a);
            };
            let b = self.term_atom()?;
            a = super::ast::sum(plus, a, b);
        }
    }

    fn term_atom(&mut self) -> R<Term> {
        let span = self.c.here();
        match self.c.peek_at(0).map(|t| t.tok.clone()) {
            Some(Tok::Int(n)) => {
                self.c.bump();
                Ok(Term::new(span, TermKind::Int(n)))
            }
            Some(Tok::Sym(Sym::LParen)) => {
                self.c.bump();
                let t = self.term()?;
                let end = self.expect(Sym::RParen)?.end;
                Ok(Term::new(span.start..end, t.kind))
            }
            Some(Tok::Word(w)) if w == "tiles" => {
                self.c.bump();
                Ok(Term::new(span, TermKind::Tiles))
            }
            Some(Tok::Word(w)) if w == "colours" || w == "colors" => {
                self.c.bump();
                Ok(Term::new(span, TermKind::Colours))
            }
            Some(Tok::Word(w)) if w == "count" => {
                self.c.bump();
                self.expect(Sym::LParen)?;
                let mark = self.scope.len();
                let (var, _) = self.bind(Sort::Tile)?;
                let dom = if self.c.is_word("in") {
                    self.region_domain()?
                } else {
                    Domain::Subset
                };
                if !self.c.eat_sym(Sym::Colon) {
                    return Err(self
                        .c
                        .expected("`:`")
                        .with_help("write it like `count(x: red(x))` or `count(x in s: red(x))`"));
                }
                let body = self.formula()?;
                let end = self.expect(Sym::RParen)?.end;
                self.scope.truncate(mark);
                Ok(Term::new(
                    span.start..end,
                    TermKind::Count(var, dom, Box::new(body)),
                ))
            }
            _ => Err(self.c.expected("a number term").with_help(TERMS)),
        }
    }
}
