//! The symbolic form (`koan-language.md` section 4): first-order logic with counting.
//!
//! Precedence, loosest first: `<->` (left associative), `->` (right associative), `|`,
//! `^`, `&` (left associative), `!`. A quantifier `forall x. F` / `exists x y. F` takes
//! everything to its right as its body. Comparisons `= != < <= > >=` join number
//! terms; `x = y` / `x != y` compare pieces. `#` starts a comment.

use super::ast::{
    BinOp, BinaryPred, CmpOp, Formula, FormulaKind, Parity, Pattern, Span, Term, TermKind,
    UnaryPred, Var,
};
use super::error::ParsePatternError;
use super::lexer::{Cursor, Sym, Tok, lex};
use super::words::did_you_mean;

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
    Ok(Pattern {
        source: text.to_string(),
        formula,
    })
}

pub(crate) fn unary_names() -> String {
    UnaryPred::ALL.map(|p| p.name()).join(" ")
}

pub(crate) fn binary_names() -> String {
    BinaryPred::ALL.map(|p| p.name()).join(" ")
}

struct Parser {
    c: Cursor,
    /// Bound variables, innermost last: the name and its index.
    scope: Vec<(String, Var)>,
    nesting: u32,
}

fn bin(op: BinOp, a: Formula, b: Formula) -> Formula {
    Formula::new(
        a.span.start..b.span.end,
        FormulaKind::Bin(op, Box::new(a), Box::new(b)),
    )
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

/// `a + b` or `a - b`, spanning both.
pub(crate) fn sum(plus: bool, a: Term, b: Term) -> Term {
    let span = a.span.start..b.span.end;
    let (a, b) = (Box::new(a), Box::new(b));
    Term::new(
        span,
        if plus {
            TermKind::Add(a, b)
        } else {
            TermKind::Sub(a, b)
        },
    )
}

fn cmp_op(s: Sym) -> Option<CmpOp> {
    Some(match s {
        Sym::Eq => CmpOp::Eq,
        Sym::Ne => CmpOp::Ne,
        Sym::Lt => CmpOp::Lt,
        Sym::Le => CmpOp::Le,
        Sym::Gt => CmpOp::Gt,
        Sym::Ge => CmpOp::Ge,
        _ => return None,
    })
}

impl Parser {
    fn enter(&mut self) -> Result<(), ParsePatternError> {
        super::lexer::deeper(&mut self.nesting, MAX_NESTING, self.c.here())
    }

    fn formula(&mut self) -> Result<Formula, ParsePatternError> {
        self.enter()?;
        let mut a = self.implication()?;
        while self.c.eat_sym(Sym::DoubleArrow) {
            let b = self.implication()?;
            a = bin(BinOp::Iff, a, b);
        }
        self.nesting -= 1;
        Ok(a)
    }

    fn implication(&mut self) -> Result<Formula, ParsePatternError> {
        let a = self.left_assoc(0)?;
        if self.c.eat_sym(Sym::Arrow) {
            self.enter()?;
            let b = self.implication()?;
            self.nesting -= 1;
            return Ok(bin(BinOp::Implies, a, b));
        }
        Ok(a)
    }

    /// `|` (level 0), `^` (level 1), `&` (level 2), all left associative.
    fn left_assoc(&mut self, level: u8) -> Result<Formula, ParsePatternError> {
        let (sym, op) = match level {
            0 => (Sym::Pipe, BinOp::Or),
            1 => (Sym::Caret, BinOp::Xor),
            _ => (Sym::Amp, BinOp::And),
        };
        let operand = |p: &mut Parser| {
            if level < 2 {
                p.left_assoc(level + 1)
            } else {
                p.unary()
            }
        };
        let mut a = operand(self)?;
        while self.c.eat_sym(sym) {
            let b = operand(self)?;
            a = bin(op, a, b);
        }
        Ok(a)
    }

    fn unary(&mut self) -> Result<Formula, ParsePatternError> {
        self.enter()?;
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

    fn quantifier(&mut self) -> Result<Formula, ParsePatternError> {
        let forall = self.c.is_word("forall");
        let start = self.c.bump().start;
        let mut vars = Vec::new();
        loop {
            vars.push(self.bind()?);
            self.c.eat_sym(Sym::Comma);
            if self.c.eat_sym(Sym::Period) {
                break;
            }
            if !matches!(self.c.peek_at(0).map(|t| &t.tok), Some(Tok::Word(_))) {
                let q = if forall { "forall" } else { "exists" };
                return Err(self.c.expected("a variable or `.`").with_help(format!(
                    "write it like `{q} x. up(x)` or `{q} x y. touches(x, y)`"
                )));
            }
        }
        let body = self.formula()?;
        let end = body.span.end;
        let mut f = body;
        for (var, span) in vars.into_iter().rev() {
            self.scope.pop();
            let kind = if forall {
                FormulaKind::Forall(var, Box::new(f))
            } else {
                FormulaKind::Exists(var, Box::new(f))
            };
            f = Formula::new(span.start.min(start)..end, kind);
        }
        Ok(f)
    }

    /// Reads a new variable name and puts it in scope.
    fn bind(&mut self) -> Result<(Var, Span), ParsePatternError> {
        let span = self.c.here();
        let Some(name) = self.c.word().map(str::to_string) else {
            return Err(self.c.expected("a variable name such as `x`"));
        };
        self.check_variable_name(&name, &span)?;
        if self.scope.len() >= usize::from(u8::MAX) {
            return Err(ParsePatternError::new(span, "too many variables"));
        }
        self.c.bump();
        let var = Var(self.scope.len() as u8);
        self.scope.push((name, var));
        Ok((var, span))
    }

    fn check_variable_name(&self, name: &str, span: &Span) -> Result<(), ParsePatternError> {
        let is_pred = UnaryPred::ALL.iter().any(|p| p.name() == name)
            || BinaryPred::ALL.iter().any(|p| p.name() == name);
        if RESERVED.contains(&name) || is_pred || name.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(ParsePatternError::new(
                span.clone(),
                format!("`{name}` cannot be a variable name; use a name such as `x` or `y`"),
            ));
        }
        Ok(())
    }

    /// A variable already in scope.
    fn var(&mut self) -> Result<Var, ParsePatternError> {
        let span = self.c.here();
        let Some(name) = self.c.word().map(str::to_string) else {
            return Err(self.c.expected("a variable such as `x`"));
        };
        match self.scope.iter().rev().find(|(n, _)| *n == name) {
            Some((_, v)) => {
                self.c.bump();
                Ok(*v)
            }
            None => {
                self.check_variable_name(&name, &span)?;
                Err(ParsePatternError::new(span, format!("unbound variable `{name}`"))
                    .with_help(format!(
                        "bind it first with `forall {name}.`, `exists {name}.`, `count({name}: ...)` or `pips({name}: ...)`"
                    )))
            }
        }
    }

    fn expect_sym(&mut self, s: Sym, what: &str) -> Result<Span, ParsePatternError> {
        if self.c.is_sym(s) {
            Ok(self.c.bump())
        } else {
            Err(self.c.expected(what))
        }
    }

    fn atom(&mut self) -> Result<Formula, ParsePatternError> {
        let span = self.c.here();
        if self.c.is_sym(Sym::LParen) {
            return self.parenthesised();
        }
        let word = self.c.word().map(str::to_string);
        let Some(w) = word else {
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
                let end = self.expect_sym(Sym::RParen, "`)`")?.end;
                let p = if w == "odd" {
                    Parity::Odd
                } else {
                    Parity::Even
                };
                return Ok(Formula::new(span.start..end, FormulaKind::Parity(p, t)));
            }
            "count" | "pips" => return self.comparison(),
            _ if RESERVED.contains(&w.as_str()) => return self.comparison(),
            _ => {}
        }
        if call {
            return self.predicate(&w, span);
        }
        if matches!(self.c.sym_at(1), Some(Sym::Eq | Sym::Ne)) {
            let a = self.var()?;
            let eq = self.c.sym_at(0) == Some(Sym::Eq);
            self.c.bump();
            let b = self.var()?;
            let end = self.c.prev().end;
            let same = Formula::new(span.start..end, FormulaKind::Same(a, b));
            return Ok(if eq {
                same
            } else {
                Formula::new(span.start..end, FormulaKind::Not(Box::new(same)))
            });
        }
        if self.scope.iter().any(|(n, _)| *n == w) {
            self.c.bump();
            return Err(self.c.expected("`=` or `!=` after a variable").with_help(
                "variables stand for pieces: compare them with `=` / `!=` or pass them to a predicate such as `up(x)`",
            ));
        }
        Err(ParsePatternError::new(span, format!("unknown word `{w}`")).with_help(format!(
            "a formula is `true`, `false`, a predicate such as `up(x)` or `touches(x, y)`, a comparison such as `count(x: up(x)) = 3`, or a quantifier such as `forall x. ...`; unary predicates: {}; binary predicates: {}",
            unary_names(),
            binary_names()
        )))
    }

    fn predicate(&mut self, name: &str, span: Span) -> Result<Formula, ParsePatternError> {
        let unary = UnaryPred::ALL.into_iter().find(|p| p.name() == name);
        let binary = BinaryPred::ALL.into_iter().find(|p| p.name() == name);
        if unary.is_none() && binary.is_none() {
            let names = UnaryPred::ALL
                .map(|p| p.name())
                .into_iter()
                .chain(BinaryPred::ALL.map(|p| p.name()));
            let hint = did_you_mean(name, names)
                .map(|n| format!(" (did you mean `{n}`?)"))
                .unwrap_or_default();
            return Err(
                ParsePatternError::new(span, format!("unknown predicate `{name}`{hint}")).with_help(
                    format!(
                        "unary predicates: {}; binary predicates: {}; also count(x: F), pips(x: F), pips(x), odd(t), even(t)",
                        unary_names(),
                        binary_names()
                    ),
                ),
            );
        }
        self.c.bump();
        self.c.bump();
        let a = self.var()?;
        let kind = if let Some(p) = unary {
            if self.c.is_sym(Sym::Comma) {
                return Err(ParsePatternError::new(
                    self.c.here(),
                    format!("`{name}` takes one piece: write `{name}(x)`"),
                ));
            }
            FormulaKind::Unary(p, a)
        } else {
            if !self.c.eat_sym(Sym::Comma) {
                return Err(ParsePatternError::new(
                    self.c.here(),
                    format!("`{name}` takes two pieces: write `{name}(x, y)`"),
                ));
            }
            let b = self.var()?;
            FormulaKind::Binary(binary.expect("checked above"), a, b)
        };
        if !self.c.is_sym(Sym::RParen) {
            let n = if unary.is_some() {
                "one piece"
            } else {
                "two pieces"
            };
            return Err(self
                .c
                .expected("`)`")
                .with_help(format!("`{name}` takes {n}")));
        }
        let end = self.c.bump().end;
        Ok(Formula::new(span.start..end, kind))
    }

    /// `( F )`, or a comparison that starts with a parenthesised term.
    fn parenthesised(&mut self) -> Result<Formula, ParsePatternError> {
        let (pos, scope) = (self.c.pos, self.scope.len());
        let start = self.c.bump().start;
        let as_formula = self.formula().and_then(|f| {
            let end = self.expect_sym(Sym::RParen, "`)`")?.end;
            Ok(Formula::new(start..end, f.kind))
        });
        let term_follows = self.c.sym_at(0).is_some_and(Sym::continues_term);
        match as_formula {
            Ok(f) if !term_follows => Ok(f),
            first => {
                self.c.pos = pos;
                self.scope.truncate(scope);
                match (self.comparison(), first) {
                    (Ok(f), _) => Ok(f),
                    (Err(e2), Err(e1)) if e1.span.start > e2.span.start => Err(e1),
                    (Err(e2), _) => Err(e2),
                }
            }
        }
    }

    fn comparison(&mut self) -> Result<Formula, ParsePatternError> {
        let a = self.term()?;
        let Some(op) = self.c.sym_at(0).and_then(cmp_op) else {
            return Err(self
                .c
                .expected("a comparison (`=`, `!=`, `<`, `<=`, `>`, `>=`)"));
        };
        self.c.bump();
        let b = self.term()?;
        Ok(Formula::new(
            a.span.start..b.span.end,
            FormulaKind::Cmp(op, a, b),
        ))
    }

    fn term(&mut self) -> Result<Term, ParsePatternError> {
        self.enter()?;
        let mut a = self.product()?;
        loop {
            let plus = self.c.is_sym(Sym::Plus);
            if !plus && !self.c.is_sym(Sym::Minus) {
                break;
            }
            self.c.bump();
            a = sum(plus, a, self.product()?);
        }
        self.nesting -= 1;
        Ok(a)
    }

    /// Factors joined by `*` (one side an integer) and `%` (by a positive integer),
    /// binding tighter than `+` and `-`, left to right.
    fn product(&mut self) -> Result<Term, ParsePatternError> {
        let mut a = self.term_primary()?;
        loop {
            if self.c.is_sym(Sym::Star) {
                let star = self.c.bump();
                let b = self.term_primary()?;
                a = times(a, b).ok_or_else(|| {
                    ParsePatternError::new(
                        star,
                        "`*` multiplies by a number: one side must be an integer",
                    )
                    .with_help("e.g. `2 * count(x: small(x)) = count(x: large(x))`")
                })?;
            } else if self.c.is_sym(Sym::Percent) {
                self.c.bump();
                let k = match self.c.peek_at(0).map(|t| &t.tok) {
                    Some(Tok::Int(k)) if *k > 0 => *k,
                    _ => {
                        return Err(self
                            .c
                            .expected("a positive whole number after `%`")
                            .with_help("e.g. `pips(x: true) % 3 = 0`: the total pips is a multiple of three"));
                    }
                };
                let end = self.c.bump().end;
                a = Term::new(a.span.start..end, TermKind::Mod(Box::new(a), k));
            } else {
                return Ok(a);
            }
        }
    }

    fn term_primary(&mut self) -> Result<Term, ParsePatternError> {
        let span = self.c.here();
        match self.c.peek_at(0).map(|t| t.tok.clone()) {
            Some(Tok::Int(n)) => {
                self.c.bump();
                Ok(Term::new(span, TermKind::Int(n)))
            }
            Some(Tok::Sym(Sym::Minus))
                if matches!(self.c.peek_at(1).map(|t| &t.tok), Some(Tok::Int(_))) =>
            {
                self.c.bump();
                let Some(Tok::Int(n)) = self.c.peek_at(0).map(|t| t.tok.clone()) else {
                    unreachable!("checked above")
                };
                let end = self.c.bump().end;
                Ok(Term::new(span.start..end, TermKind::Int(-n)))
            }
            Some(Tok::Sym(Sym::LParen)) => {
                self.c.bump();
                let t = self.term()?;
                let end = self.expect_sym(Sym::RParen, "`)`")?.end;
                Ok(Term::new(span.start..end, t.kind))
            }
            Some(Tok::Word(w)) => {
                let global = match w.as_str() {
                    "pieces" => Some(TermKind::Pieces),
                    "width" => Some(TermKind::Width),
                    "height" => Some(TermKind::Height),
                    "groups" => Some(TermKind::Groups),
                    "sizes" => Some(TermKind::Sizes),
                    "directions" => Some(TermKind::Directions),
                    _ => None,
                };
                if let Some(kind) = global {
                    self.c.bump();
                    return Ok(Term::new(span, kind));
                }
                if (w == "count" || w == "pips") && self.c.sym_at(1) == Some(Sym::LParen) {
                    self.c.bump();
                    self.c.bump();
                    return self.aggregate(w == "count", span.start);
                }
                Err(self.c.expected("a number term").with_help(TERM_HELP))
            }
            _ => Err(self.c.expected("a number term").with_help(TERM_HELP)),
        }
    }

    /// After `count(` or `pips(`.
    fn aggregate(&mut self, count: bool, start: usize) -> Result<Term, ParsePatternError> {
        if !count && self.c.sym_at(1) == Some(Sym::RParen) {
            let v = self.var()?;
            let end = self.c.bump().end;
            return Ok(Term::new(start..end, TermKind::PipsOf(v)));
        }
        let (v, _) = self.bind()?;
        if !self.c.eat_sym(Sym::Colon) {
            self.scope.pop();
            let name = if count { "count" } else { "pips" };
            return Err(self
                .c
                .expected("`:`")
                .with_help(format!("write `{name}(x: F)`, e.g. `{name}(x: small(x))`")));
        }
        let f = self.formula()?;
        self.scope.pop();
        let end = self.expect_sym(Sym::RParen, "`)`")?.end;
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
}
