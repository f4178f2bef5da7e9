//! The symbolic reader both statement languages share: one engine, two vocabularies.
//!
//! The pattern language (docs/patterns.md, "The symbolic form") and the tiles'
//! statement language (docs/tiles.md, "The symbolic form") write connectives,
//! quantifier bodies, parentheses, comparisons, parity and number terms alike.
//! [`Reader`] reads all of that once; a language supplies only what is its own
//! through [`Vocabulary`]: its AST's node constructors, its quantifiers (pieces;
//! tiles and regions), the words that open an atom or a term, and which names it
//! reserves.
//!
//! Precedence, loosest first: `<->` (left associative), `->` (right associative),
//! `|`, `^`, `&` (left associative), `!`. A quantifier takes everything to its right
//! as its body. Comparisons `= != < <= > >=` join number terms.

use super::ast::{BinOp, CmpOp, Parity, Span, Var};
use super::error::ParsePatternError;
use super::lexer::{Cursor, Sym, Tok, deeper, lex};
use super::words::did_you_mean;

pub(crate) type R<T> = Result<T, ParsePatternError>;

/// What one statement language adds to the shared reader. The reader is generic
/// over it, so each language gets its own monomorphised parser (no dynamic calls).
pub(crate) trait Vocabulary: Sized {
    type Formula;
    type Term;
    /// What a variable stands for (pieces only; tiles or regions).
    type Sort: Copy + PartialEq;

    /// Deepest nesting accepted; keeps recursion (and variable indices) bounded.
    const MAX_NESTING: u32;
    /// Most variables in scope at once (indices are `u8`).
    const MAX_VARIABLES: usize;
    /// The help after "expected a number term".
    const TERM_HELP: &'static str;
    /// Example names for a name that cannot be a variable: "`x` or `y`".
    const VARIABLE_EXAMPLES: &'static str;

    // The AST's nodes: both ASTs share these shapes, not their types.
    fn formula_span(f: &Self::Formula) -> Span;
    /// The same node with another span (a parenthesised formula spans its parentheses).
    fn respan(f: Self::Formula, span: Span) -> Self::Formula;
    fn respan_term(t: Self::Term, span: Span) -> Self::Term;
    fn boolean(span: Span, value: bool) -> Self::Formula;
    fn not(span: Span, a: Self::Formula) -> Self::Formula;
    /// `a op b`, spanning both.
    fn bin(op: BinOp, a: Self::Formula, b: Self::Formula) -> Self::Formula;
    /// `a op b`, spanning both.
    fn cmp(op: CmpOp, a: Self::Term, b: Self::Term) -> Self::Formula;
    fn parity(span: Span, p: Parity, t: Self::Term) -> Self::Formula;
    /// `a = b`: the two variables denote the same thing.
    fn same(span: Span, a: Var, b: Var) -> Self::Formula;
    fn int(span: Span, n: i64) -> Self::Term;
    /// `a + b` or `a - b`, spanning both.
    fn sum(plus: bool, a: Self::Term, b: Self::Term) -> Self::Term;

    // The vocabulary.
    /// Names that cannot be variables (keywords, predicates, global terms).
    fn reserved(name: &str) -> bool;
    /// `forall ...` / `exists ...`, with the cursor at the keyword.
    fn quantifier(p: &mut Reader<Self>) -> R<Self::Formula>;
    /// An atom opened by the word `w` at `span` (not `true`, `false`, `odd(`,
    /// `even(`); `call` when `(` follows it. Nothing is consumed yet.
    fn word_atom(p: &mut Reader<Self>, w: &str, span: Span, call: bool) -> R<Self::Formula>;
    /// A term opened by the word `w`, or `None` when no term starts with it.
    fn word_term(p: &mut Reader<Self>, w: &str, span: Span) -> Option<R<Self::Term>>;
    /// How to bind an unbound variable `name`.
    fn unbound_help(name: &str) -> String;
    /// Factors of a sum; the pattern language's `*` and `%` are its own.
    fn product(p: &mut Reader<Self>) -> R<Self::Term> {
        p.term_primary()
    }
}

/// The node constructors of [`Vocabulary`] for an AST with the shared shapes: each
/// language's `Formula` / `Term` (with `new(span, kind)`) and its `FormulaKind` /
/// `TermKind` with `Bool`, `Not`, `Bin`, `Cmp`, `Parity`, `Int`, `Add` and `Sub`, all
/// in scope where it is used. A macro, not generic code: the two ASTs are distinct
/// types, and their evaluators match on them.
macro_rules! shared_nodes {
    () => {
        fn formula_span(f: &Formula) -> Span {
            f.span.clone()
        }
        fn respan(f: Formula, span: Span) -> Formula {
            Formula::new(span, f.kind)
        }
        fn respan_term(t: Term, span: Span) -> Term {
            Term::new(span, t.kind)
        }
        fn boolean(span: Span, value: bool) -> Formula {
            Formula::new(span, FormulaKind::Bool(value))
        }
        fn not(span: Span, a: Formula) -> Formula {
            Formula::new(span, FormulaKind::Not(Box::new(a)))
        }
        fn bin(op: BinOp, a: Formula, b: Formula) -> Formula {
            Formula::new(
                a.span.start..b.span.end,
                FormulaKind::Bin(op, Box::new(a), Box::new(b)),
            )
        }
        fn cmp(op: CmpOp, a: Term, b: Term) -> Formula {
            Formula::new(a.span.start..b.span.end, FormulaKind::Cmp(op, a, b))
        }
        fn parity(span: Span, p: Parity, t: Term) -> Formula {
            Formula::new(span, FormulaKind::Parity(p, t))
        }
        fn same(span: Span, a: $crate::lang::ast::Var, b: $crate::lang::ast::Var) -> Formula {
            Formula::new(span, FormulaKind::Same(a, b))
        }
        fn int(span: Span, n: i64) -> Term {
            Term::new(span, TermKind::Int(n))
        }
        fn sum(plus: bool, a: Term, b: Term) -> Term {
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
    };
}
pub(crate) use shared_nodes;

/// A call of a predicate the vocabulary lacks, with the nearest known name.
pub(crate) fn unknown_predicate<'a>(
    span: Span,
    name: &str,
    known: impl IntoIterator<Item = &'a str>,
    help: String,
) -> ParsePatternError {
    let hint = did_you_mean(name, known)
        .map(|n| format!(" (did you mean `{n}`?)"))
        .unwrap_or_default();
    ParsePatternError::new(span, format!("unknown predicate `{name}`{hint}")).with_help(help)
}

/// Reads the whole text as one formula of the vocabulary `V`.
pub(crate) fn read<V: Vocabulary>(text: &str) -> R<V::Formula> {
    let lexed = lex(text)?;
    let mut p = Reader::<V> {
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
    Ok(formula)
}

/// The symbolic reader over one vocabulary.
pub(crate) struct Reader<V: Vocabulary> {
    pub c: Cursor,
    /// Bound variables, innermost last: the name, its index and what it stands for.
    pub scope: Vec<(String, Var, V::Sort)>,
    nesting: u32,
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

impl<V: Vocabulary> Reader<V> {
    fn enter(&mut self) -> R<()> {
        deeper(&mut self.nesting, V::MAX_NESTING, self.c.here())
    }

    /// A whole formula: `<->` is the loosest connective.
    pub(crate) fn formula(&mut self) -> R<V::Formula> {
        self.enter()?;
        let mut a = self.implication()?;
        while self.c.eat_sym(Sym::DoubleArrow) {
            let b = self.implication()?;
            a = V::bin(BinOp::Iff, a, b);
        }
        self.nesting -= 1;
        Ok(a)
    }

    fn implication(&mut self) -> R<V::Formula> {
        let a = self.left_assoc(0)?;
        if !self.c.eat_sym(Sym::Arrow) {
            return Ok(a);
        }
        self.enter()?;
        let b = self.implication()?;
        self.nesting -= 1;
        Ok(V::bin(BinOp::Implies, a, b))
    }

    /// `|` (level 0), `^` (level 1), `&` (level 2): left associative, tighter as
    /// the level rises.
    fn left_assoc(&mut self, level: usize) -> R<V::Formula> {
        const OPS: [(Sym, BinOp); 3] = [
            (Sym::Pipe, BinOp::Or),
            (Sym::Caret, BinOp::Xor),
            (Sym::Amp, BinOp::And),
        ];
        let operand = |p: &mut Self| {
            if level + 1 < OPS.len() {
                p.left_assoc(level + 1)
            } else {
                p.unary()
            }
        };
        let mut a = operand(self)?;
        while self.c.eat_sym(OPS[level].0) {
            let b = operand(self)?;
            a = V::bin(OPS[level].1, a, b);
        }
        Ok(a)
    }

    fn unary(&mut self) -> R<V::Formula> {
        self.enter()?;
        let start = self.c.here().start;
        let f = if self.c.eat_sym(Sym::Bang) {
            let a = self.unary()?;
            let end = V::formula_span(&a).end;
            V::not(start..end, a)
        } else if self.c.is_word("forall") || self.c.is_word("exists") {
            V::quantifier(self)?
        } else {
            self.atom()?
        };
        self.nesting -= 1;
        Ok(f)
    }

    fn atom(&mut self) -> R<V::Formula> {
        let span = self.c.here();
        if self.c.is_sym(Sym::LParen) {
            return self.parenthesised();
        }
        let Some(w) = self.c.word().map(str::to_string) else {
            return self.comparison();
        };
        let call = self.c.sym_at(1) == Some(Sym::LParen);
        match w.as_str() {
            "true" | "false" => {
                self.c.bump();
                Ok(V::boolean(span, w == "true"))
            }
            "odd" | "even" if call => {
                self.c.bump();
                self.c.bump();
                let t = self.term()?;
                let end = self.expect_sym(Sym::RParen)?.end;
                let p = if w == "odd" {
                    Parity::Odd
                } else {
                    Parity::Even
                };
                Ok(V::parity(span.start..end, p, t))
            }
            _ => V::word_atom(self, &w, span, call),
        }
    }

    /// `( F )`, or a comparison that starts with a parenthesised term. When both
    /// readings fail, the error that got further says more.
    fn parenthesised(&mut self) -> R<V::Formula> {
        let (pos, scope, nesting) = (self.c.pos, self.scope.len(), self.nesting);
        let start = self.c.bump().start;
        let as_formula = self.formula().and_then(|f| {
            let end = self.expect_sym(Sym::RParen)?.end;
            Ok(V::respan(f, start..end))
        });
        let term_follows = self.c.sym_at(0).is_some_and(Sym::continues_term);
        match as_formula {
            Ok(f) if !term_follows => Ok(f),
            first => {
                self.c.pos = pos;
                self.scope.truncate(scope);
                // A failed reading leaves its depth behind; the second starts afresh.
                self.nesting = nesting;
                match (self.comparison(), first) {
                    (Ok(f), _) => Ok(f),
                    (Err(e2), Err(e1)) if e1.span.start > e2.span.start => Err(e1),
                    (Err(e2), _) => Err(e2),
                }
            }
        }
    }

    pub(crate) fn comparison(&mut self) -> R<V::Formula> {
        let a = self.term()?;
        let Some(op) = self.c.sym_at(0).and_then(cmp_op) else {
            return Err(self
                .c
                .expected("a comparison (`=`, `!=`, `<`, `<=`, `>`, `>=`)"));
        };
        self.c.bump();
        let b = self.term()?;
        Ok(V::cmp(op, a, b))
    }

    /// Factors joined by `+` and `-`, left to right.
    pub(crate) fn term(&mut self) -> R<V::Term> {
        self.enter()?;
        let mut a = V::product(self)?;
        loop {
            let plus = self.c.is_sym(Sym::Plus);
            if !plus && !self.c.is_sym(Sym::Minus) {
                break;
            }
            self.c.bump();
            let b = V::product(self)?;
            a = V::sum(plus, a, b);
        }
        self.nesting -= 1;
        Ok(a)
    }

    /// An integer (`-3` too), `( t )`, or a term the vocabulary opens with a word.
    pub(crate) fn term_primary(&mut self) -> R<V::Term> {
        let span = self.c.here();
        match self.c.peek_at(0).map(|t| &t.tok) {
            Some(Tok::Int(n)) => {
                let n = *n;
                self.c.bump();
                Ok(V::int(span, n))
            }
            Some(Tok::Sym(Sym::Minus)) => {
                let Some(Tok::Int(n)) = self.c.peek_at(1).map(|t| &t.tok) else {
                    return Err(self.c.expected("a number term").with_help(V::TERM_HELP));
                };
                let n = *n;
                self.c.bump();
                let end = self.c.bump().end;
                Ok(V::int(span.start..end, -n))
            }
            Some(Tok::Sym(Sym::LParen)) => {
                self.c.bump();
                let t = self.term()?;
                let end = self.expect_sym(Sym::RParen)?.end;
                Ok(V::respan_term(t, span.start..end))
            }
            Some(Tok::Word(w)) => {
                let w = w.clone();
                match V::word_term(self, &w, span) {
                    Some(t) => t,
                    None => Err(self.c.expected("a number term").with_help(V::TERM_HELP)),
                }
            }
            _ => Err(self.c.expected("a number term").with_help(V::TERM_HELP)),
        }
    }

    /// `x = y` / `x != y` at `span`, each side read by `var`.
    pub(crate) fn identity(&mut self, span: Span, var: fn(&mut Self) -> R<Var>) -> R<V::Formula> {
        let a = var(self)?;
        let eq = self.c.is_sym(Sym::Eq);
        self.c.bump();
        let b = var(self)?;
        let end = self.c.prev().end;
        let same = V::same(span.start..end, a, b);
        Ok(if eq {
            same
        } else {
            V::not(span.start..end, same)
        })
    }

    /// The `)` closing a predicate's arguments; `takes` says what it takes
    /// ("one piece", "two tiles").
    pub(crate) fn close_call(&mut self, name: &str, takes: &str) -> R<Span> {
        if !self.c.is_sym(Sym::RParen) {
            return Err(self
                .c
                .expected("`)`")
                .with_help(format!("`{name}` takes {takes}")));
        }
        Ok(self.c.bump())
    }

    /// The symbol `s`, or an error that expected it.
    pub(crate) fn expect_sym(&mut self, s: Sym) -> R<Span> {
        if self.c.is_sym(s) {
            Ok(self.c.bump())
        } else {
            Err(self.c.expected(&format!("`{}`", s.text())))
        }
    }

    fn check_variable_name(name: &str, span: &Span) -> R<()> {
        if V::reserved(name) || name.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(ParsePatternError::new(
                span.clone(),
                format!(
                    "`{name}` cannot be a variable name; use a name such as {}",
                    V::VARIABLE_EXAMPLES
                ),
            ));
        }
        Ok(())
    }

    /// Reads a new variable name and puts it in scope (the caller takes it out).
    pub(crate) fn bind(&mut self, sort: V::Sort) -> R<(Var, Span)> {
        let span = self.c.here();
        let Some(name) = self.c.word().map(str::to_string) else {
            return Err(self.c.expected("a variable name such as `x`"));
        };
        Self::check_variable_name(&name, &span)?;
        if self.scope.len() >= V::MAX_VARIABLES {
            return Err(ParsePatternError::new(span, "too many variables"));
        }
        self.c.bump();
        let var = Var(self.scope.len() as u8);
        self.scope.push((name, var, sort));
        Ok((var, span))
    }

    /// A variable already in scope, and what it stands for.
    pub(crate) fn var(&mut self) -> R<(Var, V::Sort)> {
        let span = self.c.here();
        let Some(name) = self.c.word().map(str::to_string) else {
            return Err(self.c.expected("a variable such as `x`"));
        };
        match self.bound(&name) {
            Some(found) => {
                self.c.bump();
                Ok(found)
            }
            None => {
                Self::check_variable_name(&name, &span)?;
                Err(
                    ParsePatternError::new(span, format!("unbound variable `{name}`"))
                        .with_help(V::unbound_help(&name)),
                )
            }
        }
    }

    /// The innermost variable called `name`, if any.
    pub(crate) fn bound(&self, name: &str) -> Option<(Var, V::Sort)> {
        self.scope
            .iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|(_, v, s)| (*v, *s))
    }
}

#[cfg(test)]
mod tests {
    use crate::lang::{parse_symbolic, symbolic, tiles};

    /// The same text in both languages: the pattern reading, printed back.
    fn both(text: &str) -> String {
        let p = parse_symbolic(text).unwrap_or_else(|e| panic!("{text}: {}", e.render(text)));
        let t =
            tiles::parse_symbolic(text).unwrap_or_else(|e| panic!("{text}: {}", e.render(text)));
        let (p, t) = (symbolic(&p.formula), tiles::symbolic(&t.formula));
        assert_eq!(p, t, "{text}: the languages group it differently");
        p
    }

    #[test]
    fn both_languages_group_connectives_and_terms_alike() {
        for (text, printed) in [
            ("true | false & true", "true | false & true"),
            ("(true | false) & true", "(true | false) & true"),
            ("true -> false -> true", "true -> false -> true"),
            ("(true -> false) -> true", "(true -> false) -> true"),
            ("true <-> false <-> true", "true <-> false <-> true"),
            (
                "true ^ false | true & !false",
                "true ^ false | true & !false",
            ),
            ("!(true & false)", "!(true & false)"),
            ("(1 + 2) - (3 + 4) >= -1", "1 + 2 - (3 + 4) >= -1"),
            ("odd((1 + 2)) <-> even(3 - 1)", "odd(1 + 2) <-> even(3 - 1)"),
        ] {
            assert_eq!(both(text), printed, "{text}");
        }
    }

    /// A reading of `( ... )` as a formula that fails used to leave its depth behind,
    /// so the comparison tried next ran out of depth long before the limit.
    #[test]
    fn a_failed_parenthesised_reading_leaves_no_depth_behind() {
        let nested = |n: usize, t: &str| format!("{}{t} + 1{} = 2", "(".repeat(n), ")".repeat(n));
        let text = nested(40, "pieces");
        parse_symbolic(&text).unwrap_or_else(|e| panic!("{}", e.render(&text)));
        let text = nested(25, "tiles");
        tiles::parse_symbolic(&text).unwrap_or_else(|e| panic!("{}", e.render(&text)));
    }

    #[test]
    fn deep_parentheses_in_a_term_are_refused_not_a_stack_overflow() {
        let text = format!("{}1{} = 1", "(".repeat(20_000), ")".repeat(20_000));
        let e = tiles::parse_symbolic(&text).expect_err("too deep");
        assert!(e.message.contains("nested too deeply"), "{e}");
        let e = parse_symbolic(&text).expect_err("too deep");
        assert!(e.message.contains("nested too deeply"), "{e}");
    }

    /// `(t) >= x` fails both as `( formula )` (at `)`) and as a comparison (at `x`):
    /// the error that got further is the one that helps.
    #[test]
    fn when_both_readings_fail_the_further_error_is_shown() {
        for (text, e) in [
            (
                "(tiles + 1) >= x",
                tiles::parse_symbolic("(tiles + 1) >= x").err(),
            ),
            (
                "(pieces + 1) >= x",
                parse_symbolic("(pieces + 1) >= x").err(),
            ),
        ] {
            let e = e.unwrap_or_else(|| panic!("{text} read"));
            assert_eq!(&text[e.span.clone()], "x", "{text}: {e}");
            assert!(e.message.contains("a number term"), "{text}: {e}");
        }
    }

    #[test]
    fn tiles_read_negative_integers_and_refuse_reserved_variables_as_patterns_do() {
        let s = tiles::parse_symbolic("count(x: red(x)) > -1").expect("reads");
        assert_eq!(tiles::symbolic(&s.formula), "count(x: red(x)) > -1");
        let e = tiles::parse_symbolic("exists x. red(red)").expect_err("refused");
        assert!(e.message.contains("`red` cannot be a variable name"), "{e}");
        let e = parse_symbolic("exists x. up(up)").expect_err("refused");
        assert!(e.message.contains("`up` cannot be a variable name"), "{e}");
    }
}
