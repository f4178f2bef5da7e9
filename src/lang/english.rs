//! The English form (`koan-language.md` section 3), read by recursive descent.
//!
//! Reading happens in two steps: noun phrases and verb phrases are first read into a
//! small syntax tree ([`Np`], [`Vp`], [`Dp`]), then lowered to the AST once the
//! variable that the phrase speaks of is known. Sentences are closed, so they lower at
//! once. Choices the contract leaves open, made as a careful umpire would:
//!
//! - The object of a relation never is its subject: every object's restriction gets
//!   `y != x`. `the unique NP` as an object still counts the NPs of the whole
//!   structure (the one large piece is not the subject); `the unique other NP` counts
//!   those besides the subject.
//! - `only NP VP` (no number) reads "every piece that VP is NP", so `only small pieces
//!   point up` is `forall x. up(x) -> small(x)`; `there are only NP` reads "every
//!   piece is NP".
//! - `not`, `does not`, `is not` negate the one verb phrase (or adjective) that
//!   follows; a direction list (`does not point up or down`) is one verb phrase.
//!   Where a following `and`/`or` could fall under the same `not`
//!   (`does not point up or touch ...`, `is not small or large`) the reading is refused.
//! - Relative clauses join with their own `that` / `which`: `a piece which is not small
//!   and which points left`; each clause keeps its own `not` and `or`. Clauses joined by
//!   both `and` and `or`, and `and that` after a clause that is itself inside a
//!   relative clause (which of the two does it join?), are refused.
//! - `either S or S` without `but not both` is refused (inclusive or exclusive?).
//! - `any` means "every" or "some" depending on the sentence, so it is refused, except
//!   where a negation directly governs it and `not ... any` plainly means `no`: as the
//!   object of a negated verb (`does not touch any large piece`, `is not above any
//!   piece`, `not pointing at any piece`), after `there is not` (`there aren't any
//!   large pieces`), and in the noun phrase and verb phrase of `no` (`no piece touches
//!   any large piece`, `there are no pieces touching any large piece`). There `any` is
//!   `a` inside the negation. One step deeper (`does not touch a piece that touches
//!   any piece`), or under `every`, `if` or `it is not the case that`, it is refused.
//! - A bare plural object (`pieces pointing at other pieces`) reads as "some".
//! - `A koan has the Buddha-nature if S` (Kory Heath's form) reads as S, and
//!   `A koan does not have the Buddha-nature if S` as not S; `it contains` and
//!   `the structure contains|has` read as `there is|are`.

use super::ast::{
    BinOp, BinaryPred, CmpOp, Formula, FormulaKind, Parity, Pattern, Span, Term, TermKind,
    UnaryPred, Var,
};
use super::error::ParsePatternError;
use super::lexer::{Cursor, Sym, Tok, Token, lex};
use super::symbolic::{MAX_NESTING, sum};
use super::words::{adjective, direction, english_typo, is_colour, is_noun, number_word};

type R<T> = Result<T, ParsePatternError>;

/// Parses the English form.
pub fn parse_english(text: &str) -> R<Pattern> {
    let lexed = lex(text)?;
    let mut toks = ignore_koan_mentions(lexed.tokens);
    if toks.last().is_some_and(|t| t.tok == Tok::Sym(Sym::Period)) {
        toks.pop();
    }
    if let Some(t) = toks.iter().find(|t| t.word().is_some_and(is_colour)) {
        return Err(ParsePatternError::new(
            t.span.clone(),
            format!(
                "pieces here have no colour (`{}`): they differ only in size and direction",
                t.word().unwrap_or_default()
            ),
        ));
    }
    if toks.is_empty() {
        return Err(
            ParsePatternError::new(0..text.len(), "the pattern is empty")
                .with_example("every piece points up"),
        );
    }
    let mut p = Parser {
        src: text,
        c: Cursor::new(toks, text.len()),
        nesting: 0,
        any_licensed: false,
        in_relative: 0,
    };
    let formula = p
        .rule()
        .and_then(|f| {
            if p.c.at_end() {
                Ok(f)
            } else {
                Err(p
                    .c
                    .expected("the end of the pattern (or `and`, `or` and another sentence)"))
            }
        })
        .map_err(|e| with_typo_hint(e, text, &p.c.toks))?;
    Ok(Pattern {
        source: text.to_string(),
        formula,
    })
}

/// When reading stopped at a word that looks like a misspelt known word, say which.
fn with_typo_hint(mut e: ParsePatternError, text: &str, toks: &[Token]) -> ParsePatternError {
    let Some(word) = toks.iter().find(|t| t.span == e.span).and_then(Token::word) else {
        return e;
    };
    if let Some(fix) = english_typo(word) {
        e.message = format!("{} (did you mean `{fix}`?)", e.message);
        if e.examples.is_empty() {
            e.examples.push(splice(text, &e.span, fix));
        }
    }
    e
}

/// Drops `in the koan` / `in the structure` (and `this`): it adds nothing.
fn ignore_koan_mentions(toks: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let w = |k: usize| toks.get(i + k).and_then(Token::word);
        if w(0) == Some("in")
            && matches!(w(1), Some("the" | "this"))
            && matches!(w(2), Some("koan" | "structure"))
        {
            i += 3;
            continue;
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

// ---------------------------------------------------------------------------------
// The syntax tree of phrases, before lowering.

#[derive(Clone, Debug)]
enum Det {
    Some,
    Every,
    No,
    Count(CmpOp, i64),
    Parity(Parity),
    TheUnique,
    Only,
}

#[derive(Clone, Debug)]
struct DetS {
    det: Det,
    span: Span,
    /// `another`: the piece differs from the relation's subject.
    other: Option<Span>,
}

#[derive(Clone, Debug)]
struct Np {
    adjs: Vec<(UnaryPred, Span)>,
    /// The adjective `other`.
    other: Option<Span>,
    rel: Option<Box<Vp>>,
    span: Span,
}

impl Np {
    fn is_plain(&self) -> bool {
        self.adjs.is_empty() && self.rel.is_none() && self.other.is_none()
    }
}

#[derive(Clone, Debug)]
struct Dp {
    det: DetS,
    np: Np,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Coll {
    Direction,
    Size,
    Row,
    Column,
}

#[derive(Clone, Debug)]
enum Vp {
    Unary(UnaryPred, Span),
    /// A predicate nominal (`is a large piece`): its adjectives.
    Adjs(Vec<(UnaryPred, Span)>, Span),
    Rel(BinaryPred, Span, Box<Dp>),
    /// `point the same direction` with no `as`: only for `all NP`.
    Collective(Coll, Span),
    Not(Box<Vp>, Span),
    And(Box<Vp>, Box<Vp>),
    Or(Box<Vp>, Box<Vp>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Finite,
    Participle,
}

// ---------------------------------------------------------------------------------
// Building formulas.

fn f(span: Span, kind: FormulaKind) -> Formula {
    Formula::new(span, kind)
}

fn bin(op: BinOp, a: Formula, b: Formula) -> Formula {
    let span = a.span.start.min(b.span.start)..a.span.end.max(b.span.end);
    f(span, FormulaKind::Bin(op, Box::new(a), Box::new(b)))
}

fn not(span: Span, a: Formula) -> Formula {
    f(span, FormulaKind::Not(Box::new(a)))
}

fn and_opt(a: Option<Formula>, b: Option<Formula>) -> Option<Formula> {
    match (a, b) {
        (Some(a), Some(b)) => Some(bin(BinOp::And, a, b)),
        (a, b) => a.or(b),
    }
}

fn or_true(a: Option<Formula>, span: &Span) -> Formula {
    a.unwrap_or_else(|| f(span.clone(), FormulaKind::Bool(true)))
}

fn count(x: Var, body: Formula, span: Span) -> Term {
    Term::new(span, TermKind::Count(x, Box::new(body)))
}

fn int(n: i64, span: Span) -> Term {
    Term::new(span, TermKind::Int(n))
}

fn cmp(op: CmpOp, a: Term, b: Term, span: Span) -> Formula {
    f(span, FormulaKind::Cmp(op, a, b))
}

fn splice(src: &str, span: &Span, with: &str) -> String {
    format!("{}{}{}", &src[..span.start], with, &src[span.end..])
}

const FINITE_VERBS: &[&str] = &[
    "point", "points", "face", "faces", "touch", "touches", "is", "are", "isn't", "aren't", "does",
    "do", "doesn't", "don't",
];
const PARTICIPLES: &[&str] = &["pointing", "facing", "touching"];

struct Parser<'a> {
    src: &'a str,
    c: Cursor,
    nesting: u32,
    /// Whether a negation directly governs the determiner read next, so that `any`
    /// means `a` under it (`does not touch any piece`: touches no piece). See
    /// [`Parser::licensing`].
    any_licensed: bool,
    /// How many relative clauses enclose the phrase being read (see
    /// [`Parser::joined_relatives`]).
    in_relative: u32,
}

impl Parser<'_> {
    fn enter(&mut self) -> R<()> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(ParsePatternError::new(
                self.c.here(),
                "the pattern is nested too deeply",
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.nesting -= 1;
    }

    /// Runs `read` with `any` licensed (read as `a`) or not, then restores the
    /// previous state. A negation licenses the objects of the verb it negates; `no`
    /// licenses those in its noun phrase and verb phrase; an object's own noun phrase
    /// is licensed only by its determiner being `no`, so `any` is never read deeper
    /// than one step from the negation that makes it mean "no".
    fn licensing<T>(&mut self, on: bool, read: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        let saved = std::mem::replace(&mut self.any_licensed, on);
        let r = read(self);
        self.any_licensed = saved;
        r
    }

    fn start(&self) -> usize {
        self.c.here().start
    }

    fn span_from(&self, start: usize) -> Span {
        start..self.c.prev().end.max(start)
    }

    fn expect_word(&mut self, w: &str, what: &str) -> R<Span> {
        if self.c.is_word(w) {
            Ok(self.c.bump())
        } else {
            Err(self.c.expected(what))
        }
    }

    // -----------------------------------------------------------------------------
    // Sentences.

    /// A whole pattern: a sentence, or Kory Heath's "A koan has the Buddha-nature if S".
    fn rule(&mut self) -> R<Formula> {
        let start = self.start();
        let positive = [
            &["a", "koan", "has", "the"][..],
            &["a", "koan", "contains", "the"],
        ];
        let negative = [
            &["a", "koan", "does", "not", "have", "the"][..],
            &["a", "koan", "doesn't", "have", "the"],
        ];
        let mut negated = None;
        for (words, neg) in positive
            .iter()
            .map(|w| (w, false))
            .chain(negative.iter().map(|w| (w, true)))
        {
            if self.c.is_words(words) {
                self.c.pos += words.len();
                negated = Some(neg);
                break;
            }
        }
        let Some(negated) = negated else {
            return self.sentence();
        };
        if !self.c.eat_word("buddha-nature") && !self.c.eat_words(&["buddha", "nature"]) {
            return Err(self.c.expected("`Buddha-nature`"));
        }
        if !(self.c.eat_word("iff")
            || self.c.eat_words(&["if", "and", "only", "if"])
            || self.c.eat_word("if"))
        {
            return Err(self.c.expected("`if` and the pattern"));
        }
        let s = self.sentence()?;
        let save = self.c.pos;
        let _ = self.c.eat_sym(Sym::Comma) || self.c.eat_sym(Sym::Semicolon);
        if self.c.eat_words(&["otherwise", "it"]) {
            let rest: &[&[&str]] = if negated {
                &[&["does"]]
            } else {
                &[&["does", "not"], &["doesn't"]]
            };
            if !rest.iter().any(|w| self.c.eat_words(w)) {
                return Err(self
                    .c
                    .expected(if negated { "`does`" } else { "`does not`" }));
            }
        } else {
            self.c.pos = save;
        }
        let span = self.span_from(start);
        Ok(if negated { not(span, s) } else { s })
    }

    fn sentence(&mut self) -> R<Formula> {
        self.enter()?;
        let mut a = self.if_then()?;
        loop {
            let save = self.c.pos;
            self.c.eat_sym(Sym::Comma);
            if self.c.eat_word("iff") || self.c.eat_words(&["if", "and", "only", "if"]) {
                let b = self.if_then()?;
                a = bin(BinOp::Iff, a, b);
            } else {
                self.c.pos = save;
                break;
            }
        }
        self.leave();
        Ok(a)
    }

    fn if_then(&mut self) -> R<Formula> {
        if !self.c.is_word("if") {
            return self.or_sentence();
        }
        self.enter()?;
        let start = self.c.bump().start;
        let cond = self.if_then()?;
        self.c.eat_sym(Sym::Comma);
        if !self.c.eat_word("then") {
            return Err(self.c.expected("`then` (write `if S then S`)"));
        }
        let then = self.if_then()?;
        self.leave();
        let span = self.span_from(start);
        Ok(f(
            span,
            FormulaKind::Bin(BinOp::Implies, Box::new(cond), Box::new(then)),
        ))
    }

    fn or_sentence(&mut self) -> R<Formula> {
        let mut a = self.or_operand()?;
        loop {
            let save = self.c.pos;
            self.c.eat_sym(Sym::Comma);
            if self.c.eat_word("or") {
                let b = self.or_operand()?;
                a = bin(BinOp::Or, a, b);
            } else {
                self.c.pos = save;
                break;
            }
        }
        Ok(a)
    }

    fn or_operand(&mut self) -> R<Formula> {
        if !self.c.is_word("either") {
            return self.and_sentence();
        }
        let either = self.c.bump();
        let a = self.and_sentence()?;
        self.c.eat_sym(Sym::Comma);
        if !self.c.eat_word("or") {
            return Err(self.c.expected("`or` (write `either S or S but not both`)"));
        }
        let b = self.and_sentence()?;
        if self.c.eat_words(&["but", "not", "both"]) {
            let span = either.start..self.c.prev().end;
            return Ok(f(
                span,
                FormulaKind::Bin(BinOp::Xor, Box::new(a), Box::new(b)),
            ));
        }
        let end = b.span.end;
        let mut drop_either = either.clone();
        drop_either.end = self.src[either.end..]
            .find(|c: char| !c.is_whitespace())
            .map_or(self.src.len(), |i| either.end + i);
        Err(ParsePatternError::new(
            either,
            "`either ... or ...` could be inclusive or exclusive: add `but not both`, or drop `either`",
        )
        .with_example(splice(self.src, &(end..end), " but not both"))
        .with_example(splice(self.src, &drop_either, "")))
    }

    fn and_sentence(&mut self) -> R<Formula> {
        let mut a = self.and_operand()?;
        loop {
            let save = self.c.pos;
            self.c.eat_sym(Sym::Comma);
            if self.c.eat_word("and") {
                let b = self.and_operand()?;
                a = bin(BinOp::And, a, b);
            } else {
                self.c.pos = save;
                break;
            }
        }
        Ok(a)
    }

    fn and_operand(&mut self) -> R<Formula> {
        if !self.c.is_word("both") {
            return self.not_sentence();
        }
        self.c.bump();
        let a = self.not_sentence()?;
        if !self.c.eat_word("and") {
            return Err(self.c.expected("`and` (write `both S and S`)"));
        }
        let b = self.not_sentence()?;
        Ok(bin(BinOp::And, a, b))
    }

    fn not_sentence(&mut self) -> R<Formula> {
        self.enter()?;
        let start = self.start();
        let r = if self
            .c
            .eat_words(&["it", "is", "not", "the", "case", "that"])
            || self.c.eat_words(&["it", "isn't", "the", "case", "that"])
            || self.c.eat_words(&["it's", "not", "the", "case", "that"])
            || self.c.eat_word("not")
        {
            let a = self.not_sentence()?;
            not(start..a.span.end, a)
        } else {
            self.atomic()?
        };
        self.leave();
        Ok(r)
    }

    fn atomic(&mut self) -> R<Formula> {
        let start = self.start();
        if self.c.is_sym(Sym::LParen) {
            self.c.bump();
            let s = self.sentence()?;
            if !self.c.eat_sym(Sym::RParen) {
                return Err(self.c.expected("`)`"));
            }
            return Ok(f(self.span_from(start), s.kind));
        }
        let w = self.c.word().unwrap_or("").to_string();
        match w.as_str() {
            "there" | "there's" => self.there(),
            "the" => self.the_sentence(),
            "it" if matches!(self.c.word_at(1), Some("contains" | "has")) => {
                self.c.pos += 2;
                self.existential(start, false)
            }
            _ if self.number_at(0).is_some() => self.number_start(),
            _ => {
                if self.c.peek_at(0).is_none() {
                    return Err(self.c.expected("a sentence"));
                }
                let save = self.c.pos;
                match self.det()? {
                    Some(_) => {
                        self.c.pos = save;
                        self.det_sentence()
                    }
                    None => Err(self.not_a_sentence()),
                }
            }
        }
    }

    fn not_a_sentence(&self) -> ParsePatternError {
        let mut e = self.c.expected(
            "a sentence such as `every piece points up`, `there are exactly three pieces` or `the number of small pieces is odd`",
        );
        if self.c.is_word("it") {
            return e.with_help(
                "a pattern cannot point back with `it`: name the piece again, e.g. `the unique topmost piece points up`",
            );
        }
        if let Some(w) = self.c.word()
            && (adjective(w).is_some() || is_noun(w))
        {
            let here = self.c.here();
            e.message =
                format!("a sentence needs a determiner before `{w}`: which pieces, and how many?");
            let every = if self.noun_ahead_is_plural() {
                "all "
            } else {
                "every "
            };
            e = e
                .with_example(splice(self.src, &(here.start..here.start), every))
                .with_example(splice(self.src, &(here.start..here.start), "some "));
        }
        e
    }

    /// `there is/are ...`.
    fn there(&mut self) -> R<Formula> {
        let contracted = self.c.is_word("there's");
        let start = self.c.bump().start;
        if contracted {
            let neg = self.c.eat_word("not");
            return self.existential(start, neg);
        }
        let neg = match self.c.word() {
            Some("is" | "are" | "exists" | "exist") => {
                self.c.bump();
                self.c.eat_word("not")
            }
            Some("isn't" | "aren't") => {
                self.c.bump();
                true
            }
            _ => return Err(self.c.expected("`is` or `are` after `there`")),
        };
        self.existential(start, neg)
    }

    /// What follows `there is`: a determiner and a noun phrase, a comparative, or
    /// `only` and a noun phrase.
    fn existential(&mut self, start: usize, neg: bool) -> R<Formula> {
        let comparative: Option<(CmpOp, usize, &str)> = match self.c.word() {
            Some("more") if self.c.word_at(1) != Some("than") => Some((CmpOp::Gt, 1, "than")),
            Some("fewer" | "less") if self.c.word_at(1) != Some("than") => {
                Some((CmpOp::Lt, 1, "than"))
            }
            _ if self.c.is_words(&["as", "many"]) => Some((CmpOp::Eq, 2, "as")),
            _ if self.c.is_words(&["at", "least", "as", "many"]) => Some((CmpOp::Ge, 4, "as")),
            _ if self.c.is_words(&["at", "most", "as", "many"]) => Some((CmpOp::Le, 4, "as")),
            _ if self.c.is_words(&["the", "same", "number", "of"]) => Some((CmpOp::Eq, 4, "as")),
            _ => None,
        };
        let f = if let Some((op, skip, sep)) = comparative {
            self.c.pos += skip;
            let a = self.noun_phrase()?;
            if !self.c.eat_word(sep) {
                return Err(self
                    .c
                    .expected(&format!("`{sep}` and a second kind of piece")));
            }
            let b = self.noun_phrase()?;
            let (ca, cb) = (self.count_np(&a)?, self.count_np(&b)?);
            cmp(op, ca, cb, self.span_from(start))
        } else {
            let Some(mut f) = self.there_item(start, neg)? else {
                return Err(self.c.expected(
                    "a determiner such as `a`, `no`, `exactly two`, `at least one` or `only`",
                ));
            };
            // `there is a small piece and a large piece`: a list of items, unless what
            // follows the `and` is a sentence of its own.
            let mut list_op = None;
            while let Some(op) = match self.c.word() {
                Some("and") => Some(BinOp::And),
                Some("or") => Some(BinOp::Or),
                _ => None,
            } {
                let save = self.c.pos;
                let conj = self.c.bump();
                let item_start = self.start();
                match self.there_item(item_start, neg) {
                    Ok(Some(g)) if !self.vp_start(0, Mode::Finite) => {
                        if list_op.is_some_and(|o| o != op) {
                            return Err(ParsePatternError::new(
                                conj,
                                "a list with both `and` and `or` is ambiguous: write separate sentences in parentheses",
                            ));
                        }
                        list_op = Some(op);
                        f = bin(op, f, g);
                    }
                    _ => {
                        self.c.pos = save;
                        break;
                    }
                }
            }
            f
        };
        Ok(if neg {
            not(self.span_from(start), f)
        } else {
            f
        })
    }

    /// One item after `there is` (`there is not` when `neg`): a determiner and a noun
    /// phrase.
    fn there_item(&mut self, start: usize, neg: bool) -> R<Option<Formula>> {
        let Some(det) = self.licensing(neg, Self::det)? else {
            return Ok(None);
        };
        if matches!(det.det, Det::Every | Det::TheUnique) {
            return Err(ParsePatternError::new(
                det.span,
                "`there is` needs a number of pieces here, such as `a`, `no`, `exactly one` or `at least two`",
            ));
        }
        let no = neg || matches!(det.det, Det::No);
        let np = self.licensing(no, Self::noun_phrase)?;
        Ok(Some(self.quantify(
            &det,
            &np,
            0,
            None,
            None,
            self.span_from(start),
        )?))
    }

    /// Sentences that start with `the`.
    fn the_sentence(&mut self) -> R<Formula> {
        let start = self.start();
        if matches!(self.c.word_at(1), Some("structure" | "koan")) {
            self.c.pos += 2;
            if matches!(self.c.word(), Some("contains" | "has")) {
                self.c.bump();
                return self.existential(start, false);
            }
            let neg = if self.c.eat_word("is") {
                self.c.eat_word("not")
            } else if self.c.eat_word("isn't") {
                true
            } else {
                return Err(self
                    .c
                    .expected("`is connected`, `contains ...` or `has ...`"));
            };
            let w = self.expect_word("connected", "`connected`")?;
            let groups = Term::new(start..w.end, TermKind::Groups);
            let conn = cmp(CmpOp::Eq, groups, int(1, w.clone()), self.span_from(start));
            return Ok(if neg {
                not(self.span_from(start), conn)
            } else {
                conn
            });
        }
        if matches!(
            self.c.word_at(1),
            Some("number" | "total" | "width" | "height" | "sum")
        ) {
            return self.number_sentence();
        }
        self.det_sentence()
    }

    /// A sentence that starts with a number: a determiner (`one and only one`,
    /// `two or more`, or a refused bare number) or a number comparison.
    fn number_start(&mut self) -> R<Formula> {
        let next = self.c.word_at(1).unwrap_or("");
        let det_like = self.c.is_words(&["one", "and", "only", "one"])
            || (next == "or" && matches!(self.c.word_at(2), Some("more" | "fewer" | "less")))
            || next == "other"
            || adjective(next).is_some()
            || is_noun(next);
        if det_like {
            self.det_sentence()
        } else {
            self.number_sentence()
        }
    }

    /// `Det NP VP`.
    fn det_sentence(&mut self) -> R<Formula> {
        let start = self.start();
        let Some(det) = self.det()? else {
            return Err(self.not_a_sentence());
        };
        let no = matches!(det.det, Det::No);
        let np = self.licensing(no, Self::noun_phrase)?;
        if !self.vp_start(0, Mode::Finite) {
            let mut e = self.c.expected(
                "a verb phrase such as `points up`, `touches a small piece` or `is large`",
            );
            if matches!(
                det.det,
                Det::Count(..) | Det::Some | Det::No | Det::Parity(_)
            ) && self.c.at_end()
            {
                // `a piece which ...` -> `there is a piece which ...`; plural nouns take `are`.
                let words = self.src[start..].to_lowercase();
                let plural = words
                    .split(|c: char| !c.is_alphanumeric())
                    .any(|w| matches!(w, "pieces" | "pyramids" | "arrows"));
                let lead = if plural { "there are " } else { "there is " };
                e = e.with_example(splice(self.src, &(start..start), lead));
            }
            return Err(e);
        }
        let vp = self.licensing(no, |p| p.vp(Mode::Finite))?;
        let span = self.span_from(start);
        if let Vp::Collective(kind, cspan) = &vp {
            if !matches!(det.det, Det::Every) {
                return Err(ParsePatternError::new(
                    cspan.clone(),
                    "`the same ...` without `as ...` speaks of all the pieces at once: start the sentence with `all`",
                ));
            }
            return self.collective(*kind, &np, cspan.clone(), span);
        }
        if let Some(o) = &np.other {
            return Err(ParsePatternError::new(
                o.clone(),
                "`other` needs a piece to differ from; the subject of a sentence has none",
            ));
        }
        self.quantify(&det, &np, 0, None, Some(&vp), span)
    }

    /// `all NP point the same direction` and kin.
    fn collective(&self, kind: Coll, np: &Np, cspan: Span, span: Span) -> R<Formula> {
        let (term, pred) = match kind {
            Coll::Direction => (TermKind::Directions, BinaryPred::SameDirection),
            Coll::Size => (TermKind::Sizes, BinaryPred::SameSize),
            Coll::Row => (TermKind::Height, BinaryPred::SameRow),
            Coll::Column => (TermKind::Width, BinaryPred::SameColumn),
        };
        if np.is_plain() {
            return Ok(cmp(
                CmpOp::Eq,
                Term::new(cspan.clone(), term),
                int(1, cspan),
                span,
            ));
        }
        let (x, y) = (Var(0), Var(1));
        let rx = self.lower_np(np, x, 1)?;
        let ry = self.lower_np(np, y, 2)?;
        let p = f(cspan.clone(), FormulaKind::Binary(pred, x, y));
        let inner = match ry {
            Some(ry) => bin(BinOp::Implies, ry, p),
            None => p,
        };
        let inner = f(span.clone(), FormulaKind::Forall(y, Box::new(inner)));
        let outer = match rx {
            Some(rx) => bin(BinOp::Implies, rx, inner),
            None => inner,
        };
        Ok(f(span, FormulaKind::Forall(x, Box::new(outer))))
    }

    // -----------------------------------------------------------------------------
    // Numbers.

    fn number_at(&self, k: usize) -> Option<i64> {
        match self.c.peek_at(k).map(|t| &t.tok) {
            Some(Tok::Int(n)) => Some(*n),
            Some(Tok::Word(w)) => number_word(w),
            _ => None,
        }
    }

    fn number(&mut self, after: &str) -> R<i64> {
        match self.number_at(0) {
            Some(n) => {
                self.c.bump();
                Ok(n)
            }
            None => Err(self.c.expected(&format!(
                "a number after `{after}` (digits, or `zero` to `twenty`)"
            ))),
        }
    }

    fn number_sentence(&mut self) -> R<Formula> {
        let start = self.start();
        let a = self.term()?;
        let sym_op = match self.c.sym_at(0) {
            Some(Sym::Eq) => Some(CmpOp::Eq),
            Some(Sym::Ne) => Some(CmpOp::Ne),
            Some(Sym::Lt) => Some(CmpOp::Lt),
            Some(Sym::Le) => Some(CmpOp::Le),
            Some(Sym::Gt) => Some(CmpOp::Gt),
            Some(Sym::Ge) => Some(CmpOp::Ge),
            _ => None,
        };
        if let Some(op) = sym_op {
            self.c.bump();
            let b = self.term()?;
            return Ok(cmp(op, a, b, self.span_from(start)));
        }
        if self.c.eat_word("equals") {
            let b = self.term()?;
            return Ok(cmp(CmpOp::Eq, a, b, self.span_from(start)));
        }
        let neg = if self.c.eat_word("is") || self.c.eat_word("are") {
            self.c.eat_word("not")
        } else if self.c.eat_word("isn't") || self.c.eat_word("aren't") {
            true
        } else {
            return Err(self.c.expected(
                "`is`, `is at least`, `is at most`, `is more than`, `is fewer than`, `is odd`, `is even` or a sign such as `=` or `>=`",
            ));
        };
        self.c.eat_words(&["an", "odd", "number"]);
        let parity = if self.c.eat_word("odd") || self.c.eat_words(&["an", "odd", "number"]) {
            Some(Parity::Odd)
        } else if self.c.eat_word("even") || self.c.eat_words(&["an", "even", "number"]) {
            Some(Parity::Even)
        } else {
            None
        };
        if let Some(p) = parity {
            let par = f(self.span_from(start), FormulaKind::Parity(p, a));
            return Ok(if neg {
                not(self.span_from(start), par)
            } else {
                par
            });
        }
        let phrases: &[(&[&str], CmpOp)] = &[
            (&["exactly"], CmpOp::Eq),
            (&["equal", "to"], CmpOp::Eq),
            (&["at", "least"], CmpOp::Ge),
            (&["at", "most"], CmpOp::Le),
            (&["no", "more", "than"], CmpOp::Le),
            (&["no", "fewer", "than"], CmpOp::Ge),
            (&["no", "less", "than"], CmpOp::Ge),
            (&["more", "than"], CmpOp::Gt),
            (&["greater", "than"], CmpOp::Gt),
            (&["larger", "than"], CmpOp::Gt),
            (&["fewer", "than"], CmpOp::Lt),
            (&["less", "than"], CmpOp::Lt),
            (&["smaller", "than"], CmpOp::Lt),
        ];
        let op = phrases
            .iter()
            .find(|(ws, _)| self.c.is_words(ws))
            .map(|(ws, op)| {
                self.c.pos += ws.len();
                *op
            });
        let b = self.term()?;
        let span = self.span_from(start);
        Ok(match (op, neg) {
            (None, false) => cmp(CmpOp::Eq, a, b, span),
            (None, true) => cmp(CmpOp::Ne, a, b, span),
            (Some(op), false) => cmp(op, a, b, span),
            (Some(op), true) => not(span.clone(), cmp(op, a, b, span)),
        })
    }

    fn term(&mut self) -> R<Term> {
        let mut a = self.term_primary()?;
        loop {
            let plus = self.c.is_sym(Sym::Plus) || self.c.is_word("plus");
            if !(plus || self.c.is_sym(Sym::Minus) || self.c.is_word("minus")) {
                break;
            }
            self.c.bump();
            a = sum(plus, a, self.term_primary()?);
        }
        Ok(a)
    }

    fn term_primary(&mut self) -> R<Term> {
        let start = self.start();
        if let Some(n) = self.number_at(0) {
            let span = self.c.bump();
            return Ok(int(n, span));
        }
        let expected = "a number, or a number term such as `the number of small pieces`, `the total pips`, `the width` or `the number of groups`";
        if !self.c.is_word("the") {
            return Err(self.c.expected(expected));
        }
        if self.c.eat_words(&["the", "number", "of"]) {
            self.c.eat_word("different");
            let global = match self.c.word() {
                Some("sizes") => Some(TermKind::Sizes),
                Some("directions") => Some(TermKind::Directions),
                Some("groups") => Some(TermKind::Groups),
                _ => None,
            };
            if let Some(kind) = global {
                self.c.bump();
                return Ok(Term::new(self.span_from(start), kind));
            }
            if self.c.eat_word("pips") {
                return self.pips_rest(start);
            }
            let np = self.noun_phrase()?;
            if np.is_plain() {
                return Ok(Term::new(self.span_from(start), TermKind::Pieces));
            }
            return self.count_np(&np);
        }
        if self.c.eat_words(&["the", "total"]) {
            self.c.eat_words(&["number", "of"]);
            self.expect_word("pips", "`pips`")?;
            return self.pips_rest(start);
        }
        if self.c.eat_words(&["the", "sum", "of"]) {
            self.c.eat_word("the");
            self.expect_word("pips", "`pips`")?;
            return self.pips_rest(start);
        }
        for (word, kind) in [("width", TermKind::Width), ("height", TermKind::Height)] {
            if self.c.eat_words(&["the", word]) {
                if self.c.is_words(&["of", "the"])
                    && matches!(self.c.word_at(2), Some("structure" | "koan" | "bounding"))
                {
                    self.c.pos += 3;
                    self.c.eat_word("box");
                }
                return Ok(Term::new(self.span_from(start), kind));
            }
        }
        Err(self.c.expected(expected))
    }

    /// After `the total pips`: optionally `of NP`.
    fn pips_rest(&mut self, start: usize) -> R<Term> {
        let x = Var(0);
        let body = if self.c.eat_word("of") {
            self.c.eat_word("the");
            let np = self.noun_phrase()?;
            self.lower_np(&np, x, 1)?
        } else {
            None
        };
        let span = self.span_from(start);
        let body = or_true(body, &span);
        Ok(Term::new(span, TermKind::PipsSum(x, Box::new(body))))
    }

    fn count_np(&self, np: &Np) -> R<Term> {
        let x = Var(0);
        let body = or_true(self.lower_np(np, x, 1)?, &np.span);
        Ok(count(x, body, np.span.clone()))
    }

    // -----------------------------------------------------------------------------
    // Determiners and noun phrases.

    /// A determiner, or `None` when the next words are not one. Refuses the
    /// ambiguous ones (a bare number, `the`, `any`).
    fn det(&mut self) -> R<Option<DetS>> {
        let start = self.start();
        let c = &self.c;
        let w = c.word().unwrap_or("").to_string();
        let w1 = c.word_at(1).unwrap_or("").to_string();
        let mut other = None;
        let det = match w.as_str() {
            "a" | "an" if w1 == "unique" => {
                self.c.pos += 2;
                Det::Count(CmpOp::Eq, 1)
            }
            "a" | "an"
                if matches!(w1.as_str(), "odd" | "even")
                    && self.c.word_at(2) == Some("number")
                    && self.c.word_at(3) == Some("of") =>
            {
                self.c.pos += 4;
                Det::Parity(if w1 == "odd" {
                    Parity::Odd
                } else {
                    Parity::Even
                })
            }
            "a" | "an" | "some" => {
                self.c.bump();
                Det::Some
            }
            "another" => {
                other = Some(self.c.bump());
                Det::Some
            }
            "every" | "each" => {
                self.c.bump();
                Det::Every
            }
            "all" => {
                self.c.bump();
                self.c.eat_word("of");
                self.c.eat_word("the");
                Det::Every
            }
            "no" if matches!(w1.as_str(), "more" | "fewer" | "less")
                && self.c.word_at(2) == Some("than") =>
            {
                self.c.pos += 3;
                let n = self.number("than")?;
                Det::Count(if w1 == "more" { CmpOp::Le } else { CmpOp::Ge }, n)
            }
            "no" if self.number_at(1).is_some() => {
                let span = self.c.here().start..self.c.peek_at(1).map_or(0, |t| t.span.end);
                return Err(ParsePatternError::new(
                    span,
                    format!("`no {w1}` is not understood: say it of one piece and another"),
                )
                .with_help("e.g. `no piece points the same direction as another piece`"));
            }
            "no" => {
                self.c.bump();
                Det::No
            }
            "exactly" => {
                self.c.bump();
                Det::Count(CmpOp::Eq, self.number("exactly")?)
            }
            "at" if w1 == "least" || w1 == "most" => {
                self.c.pos += 2;
                let n = self.number(&format!("at {w1}"))?;
                if w1 == "least" {
                    at_least(n)
                } else {
                    Det::Count(CmpOp::Le, n)
                }
            }
            "more" if w1 == "than" => {
                self.c.pos += 2;
                Det::Count(CmpOp::Gt, self.number("more than")?)
            }
            "fewer" | "less" if w1 == "than" => {
                self.c.pos += 2;
                Det::Count(CmpOp::Lt, self.number(&format!("{w} than"))?)
            }
            "only" => {
                self.c.bump();
                if self.number_at(0).is_some() {
                    Det::Count(CmpOp::Eq, self.number("only")?)
                } else {
                    Det::Only
                }
            }
            "the" if w1 == "unique" => {
                self.c.pos += 2;
                Det::TheUnique
            }
            "the" => return Err(self.the_refusal()),
            // Under a negation `not ... any` is `no`: `any` is `a` inside the negation.
            "any" if self.any_licensed => {
                self.c.bump();
                Det::Some
            }
            "any" => {
                let span = self.c.here();
                return Err(ParsePatternError::new(
                    span.clone(),
                    "`any` can mean `every` or `some`: say which",
                )
                .with_example(splice(self.src, &span, "every"))
                .with_example(splice(self.src, &span, "some"))
                .with_help(
                    "`any` is read only right after a negation, where it means `no`: `does not touch any large piece`, `no piece touches any large piece`",
                ));
            }
            _ if self.c.is_words(&["one", "and", "only", "one"]) => {
                self.c.pos += 4;
                Det::Count(CmpOp::Eq, 1)
            }
            _ => {
                let Some(n) = self.number_at(0) else {
                    return Ok(None);
                };
                if w1 == "or" && self.c.word_at(2) == Some("more") {
                    self.c.pos += 3;
                    at_least(n)
                } else if w1 == "or" && matches!(self.c.word_at(2), Some("fewer" | "less")) {
                    self.c.pos += 3;
                    Det::Count(CmpOp::Le, n)
                } else {
                    return Err(self.bare_number_refusal());
                }
            }
        };
        Ok(Some(DetS {
            det,
            span: self.span_from(start),
            other,
        }))
    }

    /// Whether the next noun (within a few words) is plural.
    fn noun_ahead_is_plural(&self) -> bool {
        (0..8)
            .filter_map(|k| self.c.word_at(k))
            .find(|w| is_noun(w))
            .is_some_and(|n| n.ends_with('s'))
    }

    fn bare_number_refusal(&self) -> ParsePatternError {
        let span = self.c.here();
        let n = &self.src[span.clone()];
        ParsePatternError::new(
            span.clone(),
            format!("a bare number is ambiguous: say `exactly {n}` or `at least {n}`"),
        )
        .with_example(splice(self.src, &(span.start..span.start), "exactly "))
        .with_example(splice(self.src, &(span.start..span.start), "at least "))
    }

    fn the_refusal(&self) -> ParsePatternError {
        let span = self.c.here();
        let next = self.c.word_at(1).unwrap_or("");
        if adjective(next).is_some() || is_noun(next) || next == "only" || next == "other" {
            let mut with_only = span.clone();
            if next == "only" {
                with_only.end = self.c.peek_at(1).map_or(span.end, |t| t.span.end);
            }
            if self.noun_ahead_is_plural() {
                return ParsePatternError::new(
                    span.clone(),
                    "`the ... pieces` could mean all of them or some of them: say `all` or `some`",
                )
                .with_example(splice(self.src, &with_only, "all"))
                .with_example(splice(self.src, &with_only, "some"));
            }
            return ParsePatternError::new(
                span.clone(),
                "`the` before a piece is ambiguous (there may be several, or none): say `every`, `some` or `the unique`",
            )
            .with_example(splice(self.src, &with_only, "every"))
            .with_example(splice(self.src, &with_only, "some"))
            .with_example(splice(self.src, &with_only, "the unique"));
        }
        let thing = self
            .c
            .peek_at(1)
            .map_or(span.clone(), |t| span.start..t.span.end);
        ParsePatternError::new(
            thing.clone(),
            format!(
                "`{}` is not something a pattern can speak of: patterns speak only of the pieces of the structure",
                &self.src[thing]
            ),
        )
    }

    fn noun_phrase(&mut self) -> R<Np> {
        self.enter()?;
        let start = self.start();
        let mut adjs = Vec::new();
        let mut other = None;
        loop {
            match self.c.word() {
                Some("other") => other = Some(self.c.bump()),
                Some(w) => match adjective(w) {
                    Some(p) => adjs.push((p, self.c.bump())),
                    None => break,
                },
                None => break,
            }
        }
        match self.c.word() {
            Some(w) if is_noun(w) => {
                self.c.bump();
            }
            Some(w) if direction(w).is_some() => {
                return Err(self
                    .c
                    .expected("a noun (`piece`, `pyramid` or `arrow`)")
                    .with_help(format!("directions follow the noun: `pieces pointing {w}`")));
            }
            _ => return Err(self.c.expected("a noun (`piece`, `pyramid` or `arrow`)")),
        }
        let rel = if matches!(self.c.word(), Some("that" | "which" | "who")) {
            self.c.bump();
            let first = self.relative(Mode::Finite)?;
            Some(Box::new(self.joined_relatives(first)?))
        } else if self.vp_start(0, Mode::Participle) {
            let first = self.relative(Mode::Participle)?;
            Some(Box::new(self.joined_relatives(first)?))
        } else {
            None
        };
        self.leave();
        Ok(Np {
            adjs,
            other,
            rel,
            span: self.span_from(start),
        })
    }

    /// The verb phrase of one relative clause (after `that`, or a participle).
    fn relative(&mut self, mode: Mode) -> R<Vp> {
        if !self.vp_start(0, mode) {
            return Err(self.c.expected(
                "a verb phrase such as `points up`, `touches a small piece` or `is large`",
            ));
        }
        self.in_relative += 1;
        let r = self.vp(mode);
        self.in_relative -= 1;
        r
    }

    /// More relative clauses after the first, each with its own `that` / `which`:
    /// `a piece which is not small and which points left`. A `not` or an `or` inside one
    /// clause stays there. Refused when both `and` and `or` join, and when the phrase
    /// is itself inside a relative clause (`every piece that touches a piece that
    /// points up and that is small ...`: which piece is small?).
    fn joined_relatives(&mut self, first: Vp) -> R<Vp> {
        let mut vp = first;
        let mut joined_by: Option<String> = None;
        while let Some(conj) = self.c.word().filter(|w| matches!(*w, "and" | "or"))
            && matches!(self.c.word_at(1), Some("that" | "which" | "who"))
        {
            let conj = conj.to_string();
            let here = self.c.here();
            if self.in_relative > 0 {
                return Err(ParsePatternError::new(
                    here,
                    format!(
                        "`{conj} {}` could join this relative clause or the one around it: reword it (an adjective such as `small` goes before the noun) or use the symbolic form",
                        self.c.word_at(1).unwrap_or("that")
                    ),
                ));
            }
            if joined_by.as_ref().is_some_and(|j| *j != conj) {
                return Err(ParsePatternError::new(
                    here,
                    "relative clauses joined by both `and` and `or` are ambiguous: put the `or` inside one clause (`that points up or is large`), or use the symbolic form",
                ));
            }
            self.c.pos += 2;
            let b = self.relative(Mode::Finite)?;
            vp = if conj == "and" {
                Vp::And(Box::new(vp), Box::new(b))
            } else {
                Vp::Or(Box::new(vp), Box::new(b))
            };
            joined_by = Some(conj);
        }
        Ok(vp)
    }

    /// The object of a relation: a determiner phrase, or a bare plural (`other pieces`,
    /// read as "some").
    fn object(&mut self) -> R<Dp> {
        let start = self.start();
        if let Some(det) = self.det()? {
            let no = matches!(det.det, Det::No);
            let np = self.licensing(no, Self::noun_phrase)?;
            return Ok(Dp { det, np });
        }
        let np = self.licensing(false, Self::noun_phrase)?;
        let noun = self.src[np.span.clone()]
            .split_whitespace()
            .find(|w| is_noun(&w.to_lowercase()))
            .unwrap_or("")
            .to_lowercase();
        if !noun.ends_with('s') {
            return Err(ParsePatternError::new(
                start..np.span.end,
                format!(
                    "`{noun}` needs a determiner here, such as `a`, `every`, `no` or `exactly two`"
                ),
            )
            .with_example(splice(self.src, &(start..start), "a ")));
        }
        Ok(Dp {
            det: DetS {
                det: Det::Some,
                span: start..start,
                other: None,
            },
            np,
        })
    }

    // -----------------------------------------------------------------------------
    // Verb phrases.

    fn vp_start(&self, k: usize, mode: Mode) -> bool {
        let Some(w) = self.c.word_at(k) else {
            return false;
        };
        match mode {
            Mode::Finite => FINITE_VERBS.contains(&w),
            Mode::Participle => {
                PARTICIPLES.contains(&w)
                    || (w == "not"
                        && self
                            .c
                            .word_at(k + 1)
                            .is_some_and(|n| PARTICIPLES.contains(&n)))
            }
        }
    }

    fn vp(&mut self, mode: Mode) -> R<Vp> {
        self.enter()?;
        let (mut a, mut neg) = self.vp_and(mode)?;
        while self.c.is_word("or") && self.vp_start(1, mode) {
            self.check_negation_scope(neg)?;
            self.c.bump();
            let (b, nb) = self.vp_and(mode)?;
            neg = nb;
            a = Vp::Or(Box::new(a), Box::new(b));
        }
        self.leave();
        Ok(a)
    }

    fn vp_and(&mut self, mode: Mode) -> R<(Vp, bool)> {
        let (mut a, mut neg) = self.vp_atom(mode)?;
        while self.c.is_word("and") && self.vp_start(1, mode) {
            self.check_negation_scope(neg)?;
            self.c.bump();
            let (b, nb) = self.vp_atom(mode)?;
            neg = nb;
            a = Vp::And(Box::new(a), Box::new(b));
        }
        Ok((a, neg))
    }

    /// After `does not point up`, a following `and touch ...` / `or touch ...` could be
    /// under the same `not`: refuse rather than guess.
    fn check_negation_scope(&self, after_do_not: bool) -> R<()> {
        if after_do_not && matches!(self.c.word_at(1), Some("point" | "face" | "touch")) {
            return Err(ParsePatternError::new(
                self.c.here(),
                format!(
                    "`not` could cover one verb or both here: repeat it (`{} do not {} ...`) or put the negated verb last",
                    self.c.word().unwrap_or("and"),
                    self.c.word_at(1).unwrap_or("touch")
                ),
            ));
        }
        Ok(())
    }

    /// One verb and its complement. The flag says it was negated with `do not` (see
    /// [`Parser::check_negation_scope`]).
    fn vp_atom(&mut self, mode: Mode) -> R<(Vp, bool)> {
        self.enter()?;
        let start = self.start();
        let w = self.c.word().unwrap_or("").to_string();
        let r = match (mode, w.as_str()) {
            (Mode::Finite, "point" | "points" | "face" | "faces")
            | (Mode::Participle, "pointing" | "facing") => {
                self.c.bump();
                (self.point_rest()?, false)
            }
            (Mode::Finite, "touch" | "touches") | (Mode::Participle, "touching") => {
                let span = self.c.bump();
                (
                    Vp::Rel(BinaryPred::Touches, span, Box::new(self.object()?)),
                    false,
                )
            }
            (Mode::Finite, "is" | "are") => {
                self.c.bump();
                let neg = self.c.eat_word("not");
                (self.copula_rest(neg, start)?, false)
            }
            (Mode::Finite, "isn't" | "aren't") => {
                self.c.bump();
                (self.copula_rest(true, start)?, false)
            }
            (Mode::Finite, "does" | "do" | "doesn't" | "don't") => {
                self.c.bump();
                if matches!(w.as_str(), "does" | "do") && !self.c.eat_word("not") {
                    return Err(self.c.expected("`not`"));
                }
                if !matches!(
                    self.c.word(),
                    Some("point" | "points" | "face" | "faces" | "touch" | "touches")
                ) {
                    return Err(self
                        .c
                        .expected("`point`, `face` or `touch`")
                        .with_help("to negate `is`, write `is not`"));
                }
                let (v, _) = self.licensing(true, |p| p.vp_atom(Mode::Finite))?;
                (Vp::Not(Box::new(v), self.span_from(start)), true)
            }
            (Mode::Participle, "not") => {
                self.c.bump();
                let (v, _) = self.licensing(true, |p| p.vp_atom(Mode::Participle))?;
                (Vp::Not(Box::new(v), self.span_from(start)), false)
            }
            _ => {
                return Err(self.c.expected(
                    "a verb phrase such as `points up`, `touches a small piece` or `is large`",
                ));
            }
        };
        self.leave();
        Ok(r)
    }

    /// After `point(s)`.
    fn point_rest(&mut self) -> R<Vp> {
        let start = self.c.prev().start;
        // `points to the left` is a direction (`is to the left of` is a place).
        for (side, d) in [("left", UnaryPred::Left), ("right", UnaryPred::Right)] {
            if self.c.is_words(&["to", "the", side]) && self.c.word_at(3) != Some("of") {
                self.c.pos += 3;
                return Ok(Vp::Unary(d, self.span_from(start)));
            }
        }
        if matches!(self.c.word(), Some("at" | "to" | "toward" | "towards")) {
            self.c.bump();
            let span = self.span_from(start);
            return Ok(Vp::Rel(
                BinaryPred::PointsAt,
                span,
                Box::new(self.object()?),
            ));
        }
        let had_in = self.c.eat_word("in");
        if self.c.eat_words(&["the", "same", "direction"]) {
            let span = self.span_from(start);
            if self.c.eat_word("as") {
                let o = self.object()?;
                return Ok(Vp::Rel(BinaryPred::SameDirection, span, Box::new(o)));
            }
            return Ok(Vp::Collective(Coll::Direction, span));
        }
        if self.c.eat_words(&["the", "opposite", "direction"]) {
            let span = self.span_from(start);
            if !matches!(self.c.word(), Some("to" | "from" | "as" | "of")) {
                return Err(self
                    .c
                    .expected("`to` and a piece (`the opposite direction to ...`)"));
            }
            self.c.bump();
            let o = self.object()?;
            return Ok(Vp::Rel(BinaryPred::OppositeDirection, span, Box::new(o)));
        }
        let expected = "a direction (`up`, `down`, `left`, `right`, `vertically`, `horizontally`), `at ...` or `the same direction as ...`";
        if had_in {
            return Err(self.c.expected(expected));
        }
        let Some(d) = self.c.word().and_then(direction) else {
            return Err(self.c.expected(expected));
        };
        let mut list = Vp::Unary(d, self.c.bump());
        loop {
            let step = if (self.c.is_sym(Sym::Comma) || self.c.is_word("or"))
                && self.dir_at(1).is_some()
            {
                1
            } else if self.c.is_sym(Sym::Comma)
                && self.c.word_at(1) == Some("or")
                && self.dir_at(2).is_some()
            {
                2
            } else if self.c.is_word("and") && self.dir_at(1).is_some() {
                return Err(ParsePatternError::new(
                    self.c.here(),
                    "a piece points one way: join directions with `or`",
                )
                .with_example(splice(self.src, &self.c.here(), "or")));
            } else {
                break;
            };
            self.c.pos += step;
            let d = self.dir_at(0).expect("checked above");
            let span = self.c.bump();
            list = Vp::Or(Box::new(list), Box::new(Vp::Unary(d, span)));
        }
        Ok(list)
    }

    fn dir_at(&self, k: usize) -> Option<UnaryPred> {
        self.c.word_at(k).and_then(direction)
    }

    fn comp_start(&self, k: usize) -> bool {
        let w = |i: usize| self.c.word_at(k + i).unwrap_or("");
        match w(0) {
            "not" => self.comp_start(k + 1),
            "above" | "below" | "directly" | "larger" | "bigger" | "smaller" => true,
            "pointing" | "facing" | "touching" => true,
            "left" | "right" => w(1) == "of",
            "to" => w(1) == "the" && matches!(w(2), "left" | "right"),
            "in" => w(1) == "the" && w(2) == "same",
            "the" => w(1) == "same" && w(2) == "size",
            other => adjective(other).is_some(),
        }
    }

    /// After `is` / `are` (and `not`): adjectives and relations joined by `and`/`or`
    /// (`and` binding tighter).
    fn copula_rest(&mut self, neg: bool, start: usize) -> R<Vp> {
        let first = if neg {
            self.licensing(true, Self::comp_atom)?
        } else {
            self.comp_atom()?
        };
        let first = if neg {
            Vp::Not(Box::new(first), self.span_from(start))
        } else {
            first
        };
        let mut ors = vec![first];
        while matches!(self.c.word(), Some("and" | "or")) && self.comp_start(1) {
            let is_and = self.c.is_word("and");
            if neg && self.c.word_at(1) != Some("not") {
                let here = self.c.here();
                let conj = self.c.word().unwrap_or("and").to_string();
                return Err(ParsePatternError::new(
                    here.clone(),
                    format!(
                        "`not` could cover one word or both here: write `{conj} is not ...` or `{conj} is ...`"
                    ),
                )
                .with_example(splice(self.src, &here, &format!("{conj} is not")))
                .with_example(splice(self.src, &here, &format!("{conj} is"))));
            }
            self.c.bump();
            let b = self.comp_atom()?;
            if is_and {
                let a = ors.pop().expect("never empty");
                ors.push(Vp::And(Box::new(a), Box::new(b)));
            } else {
                ors.push(b);
            }
        }
        let mut it = ors.into_iter();
        let mut vp = it.next().expect("never empty");
        for b in it {
            vp = Vp::Or(Box::new(vp), Box::new(b));
        }
        Ok(vp)
    }

    fn comp_atom(&mut self) -> R<Vp> {
        self.enter()?;
        let start = self.start();
        let w = self.c.word().unwrap_or("").to_string();
        let rel = |p: &mut Parser, pred: BinaryPred, n: usize| -> R<Vp> {
            p.c.pos += n;
            let span = p.span_from(start);
            Ok(Vp::Rel(pred, span, Box::new(p.object()?)))
        };
        let is = |p: &Parser, ws: &[&str]| p.c.is_words(ws);
        let r = if w == "not" {
            self.c.bump();
            let a = self.licensing(true, Self::comp_atom)?;
            Vp::Not(Box::new(a), self.span_from(start))
        } else if let Some(p) = adjective(&w) {
            Vp::Unary(p, self.c.bump())
        } else if (w == "a" || w == "an")
            && self
                .c
                .word_at(1)
                .is_some_and(|n| adjective(n).is_some() || is_noun(n))
        {
            self.c.bump();
            let mut adjs = Vec::new();
            while let Some(p) = self.c.word().and_then(adjective) {
                adjs.push((p, self.c.bump()));
            }
            if !self.c.word().is_some_and(is_noun) {
                return Err(self.c.expected("a noun (`piece`, `pyramid` or `arrow`)"));
            }
            self.c.bump();
            Vp::Adjs(adjs, self.span_from(start))
        } else if w == "above" {
            rel(self, BinaryPred::Above, 1)?
        } else if w == "below" {
            rel(self, BinaryPred::Below, 1)?
        } else if is(self, &["directly", "above"]) {
            rel(self, BinaryPred::DirectlyAbove, 2)?
        } else if is(self, &["directly", "below"]) {
            rel(self, BinaryPred::DirectlyBelow, 2)?
        } else if is(self, &["directly", "left", "of"]) {
            rel(self, BinaryPred::DirectlyLeftOf, 3)?
        } else if is(self, &["directly", "right", "of"]) {
            rel(self, BinaryPred::DirectlyRightOf, 3)?
        } else if is(self, &["directly", "to", "the", "left", "of"]) {
            rel(self, BinaryPred::DirectlyLeftOf, 5)?
        } else if is(self, &["directly", "to", "the", "right", "of"]) {
            rel(self, BinaryPred::DirectlyRightOf, 5)?
        } else if is(self, &["left", "of"]) {
            rel(self, BinaryPred::LeftOf, 2)?
        } else if is(self, &["right", "of"]) {
            rel(self, BinaryPred::RightOf, 2)?
        } else if is(self, &["to", "the", "left", "of"]) {
            rel(self, BinaryPred::LeftOf, 4)?
        } else if is(self, &["to", "the", "right", "of"]) {
            rel(self, BinaryPred::RightOf, 4)?
        } else if w == "larger" || w == "bigger" {
            self.c.bump();
            self.expect_word("than", "`than`")?;
            rel(self, BinaryPred::Larger, 0)?
        } else if w == "smaller" {
            self.c.bump();
            self.expect_word("than", "`than`")?;
            rel(self, BinaryPred::Smaller, 0)?
        } else if is(self, &["in", "the", "same", "row"])
            || is(self, &["in", "the", "same", "column"])
        {
            let row = self.c.word_at(3) == Some("row");
            self.c.pos += 4;
            let (pred, coll) = if row {
                (BinaryPred::SameRow, Coll::Row)
            } else {
                (BinaryPred::SameColumn, Coll::Column)
            };
            if self.c.is_word("as") {
                rel(self, pred, 1)?
            } else {
                Vp::Collective(coll, self.span_from(start))
            }
        } else if is(self, &["the", "same", "size"]) {
            self.c.pos += 3;
            if self.c.is_word("as") {
                rel(self, BinaryPred::SameSize, 1)?
            } else {
                Vp::Collective(Coll::Size, self.span_from(start))
            }
        } else if PARTICIPLES.contains(&w.as_str()) {
            self.vp_atom(Mode::Participle)?.0
        } else if (w == "left" || w == "right") && self.c.word_at(1) != Some("of") {
            return Err(self
                .c
                .expected("an adjective or a relation")
                .with_help(format!(
                    "for a direction write `points {w}`; for a place write `is {w} of ...`"
                )));
        } else {
            let mut e = self.c.expected(
                "an adjective (`small`, `vertical`, `topmost`...) or a relation (`above ...`, `larger than ...`, `in the same row as ...`, `the same size as ...`)",
            );
            if direction(&w).is_some() {
                e = e.with_help(format!("for a direction write `points {w}`"));
            } else if w.ends_with("ed") {
                e = e.with_help(
                    "there is no passive (`is pointed at`): say it from the other piece's side (`some piece points at a large piece`) or in the symbolic form (`exists x y. points_at(y, x)`)",
                );
            } else if matches!(w.as_str(), "next" | "adjacent" | "beside" | "near") {
                e = e.with_help("for pieces that share an edge write `touches ...`");
            } else if w == "either" {
                e = e.with_help("write `is small or large`; `either ... or ... but not both` joins whole sentences");
            }
            return Err(e);
        };
        self.leave();
        Ok(r)
    }

    // -----------------------------------------------------------------------------
    // Lowering phrases to formulas.

    /// The restriction of a noun phrase about `x`; `d` is the next free variable.
    fn lower_np(&self, np: &Np, x: Var, d: u8) -> R<Option<Formula>> {
        let mut r = None;
        for (p, span) in &np.adjs {
            r = and_opt(r, Some(f(span.clone(), FormulaKind::Unary(*p, x))));
        }
        if let Some(rel) = &np.rel {
            r = and_opt(r, Some(self.lower_vp(rel, x, d)?));
        }
        Ok(r)
    }

    fn lower_vp(&self, vp: &Vp, x: Var, d: u8) -> R<Formula> {
        Ok(match vp {
            Vp::Unary(p, span) => f(span.clone(), FormulaKind::Unary(*p, x)),
            Vp::Adjs(adjs, span) => {
                let mut r = None;
                for (p, s) in adjs {
                    r = and_opt(r, Some(f(s.clone(), FormulaKind::Unary(*p, x))));
                }
                or_true(r, span)
            }
            Vp::Rel(pred, span, dp) => {
                let y = Var(d);
                // The object never is its own subject: `y != x` joins every object's
                // restriction, whatever the relation and the determiner (without it
                // `every piece touches every piece` could never hold). `other` and
                // `another` only say so aloud.
                let ex_span = dp
                    .np
                    .other
                    .clone()
                    .or_else(|| dp.det.other.clone())
                    .unwrap_or_else(|| span.clone());
                let exclusion = Some(not(
                    ex_span.clone(),
                    f(ex_span.clone(), FormulaKind::Same(y, x)),
                ));
                let v = f(span.clone(), FormulaKind::Binary(*pred, x, y));
                let whole = span.start..dp.np.span.end;
                self.quantify_lowered(&dp.det, &dp.np, d, exclusion, Some(v), whole)?
            }
            Vp::Collective(_, span) => {
                return Err(ParsePatternError::new(
                    span.clone(),
                    "`the same ...` needs `as` and a piece here, e.g. `points the same direction as a large piece`",
                )
                .with_help("`all pieces point the same direction` speaks of all the pieces at once"));
            }
            Vp::Not(a, span) => not(span.clone(), self.lower_vp(a, x, d)?),
            Vp::And(a, b) => bin(BinOp::And, self.lower_vp(a, x, d)?, self.lower_vp(b, x, d)?),
            Vp::Or(a, b) => bin(BinOp::Or, self.lower_vp(a, x, d)?, self.lower_vp(b, x, d)?),
        })
    }

    /// `Det NP (VP)` about the variable `Var(d)`. `exclusion` is the object's
    /// `y != x`; `v` the verb phrase (or relation), absent after `there is`.
    fn quantify(
        &self,
        det: &DetS,
        np: &Np,
        d: u8,
        exclusion: Option<Formula>,
        v: Option<&Vp>,
        span: Span,
    ) -> R<Formula> {
        let x = Var(d);
        let v = match v {
            Some(vp) => Some(self.lower_vp(vp, x, d + 1)?),
            None => None,
        };
        self.quantify_lowered(det, np, d, exclusion, v, span)
    }

    fn quantify_lowered(
        &self,
        det: &DetS,
        np: &Np,
        d: u8,
        exclusion: Option<Formula>,
        v: Option<Formula>,
        span: Span,
    ) -> R<Formula> {
        let x = Var(d);
        let r = self.lower_np(np, x, d + 1)?;
        if let Det::Only = det.det {
            return match (r, v) {
                (None, _) => Err(ParsePatternError::new(
                    det.span.clone(),
                    "`only` needs a kind of piece after it, e.g. `only small pieces point up`",
                )),
                (Some(r), None) => Ok(f(span, FormulaKind::Forall(x, Box::new(r)))),
                (Some(r), Some(v)) => {
                    let cond = and_opt(exclusion, Some(v)).expect("v is present");
                    let body = bin(BinOp::Implies, cond, r);
                    Ok(f(span, FormulaKind::Forall(x, Box::new(body))))
                }
            };
        }
        // `the unique NP` counts the NPs of the whole structure (the object is never
        // the subject, but the subject may be the one NP that makes it not unique),
        // unless it says `the unique other NP`.
        let unique_among = if np.other.is_some() {
            and_opt(exclusion.clone(), r.clone())
        } else {
            r.clone()
        };
        let r = and_opt(exclusion, r);
        let body = |r: Option<Formula>, v: Option<Formula>| or_true(and_opt(r, v), &span);
        let counted = |r, v| count(x, body(r, v), span.clone());
        Ok(match &det.det {
            Det::Some => f(span.clone(), FormulaKind::Exists(x, Box::new(body(r, v)))),
            Det::No => not(
                span.clone(),
                f(span.clone(), FormulaKind::Exists(x, Box::new(body(r, v)))),
            ),
            Det::Every => {
                let Some(v) = v else {
                    return Err(ParsePatternError::new(
                        det.span.clone(),
                        "`every` needs a verb phrase after the noun",
                    ));
                };
                let inner = match r {
                    Some(r) => bin(BinOp::Implies, r, v),
                    None => v,
                };
                f(span, FormulaKind::Forall(x, Box::new(inner)))
            }
            Det::Count(op, n) => cmp(*op, counted(r, v), int(*n, det.span.clone()), span.clone()),
            Det::Parity(p) => f(span.clone(), FormulaKind::Parity(*p, counted(r, v))),
            Det::TheUnique => {
                let one = cmp(
                    CmpOp::Eq,
                    count(x, or_true(unique_among, &span), det.span.clone()),
                    int(1, det.span.clone()),
                    det.span.clone(),
                );
                let some = f(span.clone(), FormulaKind::Exists(x, Box::new(body(r, v))));
                f(
                    span,
                    FormulaKind::Bin(BinOp::And, Box::new(one), Box::new(some)),
                )
            }
            Det::Only => unreachable!("handled above"),
        })
    }
}

/// `at least n`: `at least one` is plain existence.
fn at_least(n: i64) -> Det {
    if n == 1 {
        Det::Some
    } else {
        Det::Count(CmpOp::Ge, n)
    }
}
