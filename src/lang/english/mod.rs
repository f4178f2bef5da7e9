//! The English form (`koan-language.md` sections 3 and 3.1), read by recursive descent.
//!
//! Reading happens in three steps. [`frame`] first drops what carries no meaning
//! (quotes and end punctuation, hedges such as `I think`, modals such as `there has
//! to be` or `must`, `in the koan`), keeping every other word's span. Noun phrases and
//! verb phrases are then read into a small syntax tree ([`Np`], [`Vp`], [`Obj`]) and
//! lowered to the AST ([`lower`]) once the variable the phrase speaks of is known.
//! Sentences are closed, so they lower at once. Every family of 3.1 reads into the
//! same AST as the symbolic form; a word that cannot be given a meaning refuses the
//! sentence (never skipped).
//!
//! Choices the contract leaves open, made as a careful umpire would:
//!
//! - The object of a relation never is its subject: every object's restriction gets
//!   `y != x`. `the unique NP` as an object still counts the NPs of the whole
//!   structure; `the unique other NP` counts those besides the subject.
//! - `only NP VP` (no number) reads "every piece that VP is NP"; `there are only NP`
//!   reads "every piece is NP".
//! - `not`, `does not`, `is not` negate the one verb phrase (or adjective) that
//!   follows; where a following `and`/`or` could fall under the same `not` the reading
//!   is refused. `it is not the case that` / `it is not true that` negate the rest of
//!   their clause (up to a closing parenthesis, `then`, or the end).
//! - Relative clauses join with their own `that` / `which`; joined by both `and` and
//!   `or`, or `and that` inside another relative clause, they are refused.
//! - `either S or S` without `but not both` is refused (inclusive or exclusive?).
//! - `any`: under a negation or in the condition of `if` / `unless` it is `a` (`does
//!   not touch any large piece`, `if any piece points up ...`); as the subject
//!   elsewhere it is `every` (`any piece pointing up touches a large piece`); as an
//!   object elsewhere (`touches any large piece`) it could be either and is refused.
//! - A bare plural object (`pieces pointing at other pieces`) reads as "some".
//! - `it` (and `back at it`) is the one piece named earlier in the sentence that the
//!   clause is not about; if there are two, it is refused. `they` / `them` are the
//!   pieces of the structure when no piece was named before them.
//! - Bare numbers stay ambiguous (`two pieces point up`), except where `at least`
//!   says nothing: `one group`, `3 or 4 pieces`, `the structure is 3 wide`.

mod det;
mod frame;
mod lower;
mod noun;
mod numbers;
mod object;
mod refuse;
mod sentence;
mod verb;

pub(crate) use refuse::polish;

use super::ast::{
    BinOp, BinaryPred, CmpOp, Formula, FormulaKind, Parity, Pattern, Span, Term, TermKind,
    UnaryPred, Var,
};
use super::error::ParsePatternError;
use super::lexer::{Cursor, Sym, Tok, lex};
use super::symbolic::MAX_NESTING;
use super::words::is_colour;
use std::cell::Cell;

type R<T> = Result<T, ParsePatternError>;

/// Parses the English form. A refusal's suggestions are each read before they are
/// offered (see [`refuse`]).
pub fn parse_english(text: &str) -> R<Pattern> {
    read(text).map_err(|e| refuse::polish(e, text))
}

/// Reads the English form, with the refusal exactly as the reader made it.
pub(crate) fn read(text: &str) -> R<Pattern> {
    let lexed = lex(text)?;
    let toks = frame::normalise(lexed.tokens)?;
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
    let mut p = Parser::new(text, Cursor::new(toks, text.len()));
    let formula = p.rule().and_then(|f| {
        if p.c.at_end() {
            Ok(f)
        } else {
            Err(p
                .c
                .expected("the end of the pattern (or `and`, `or` and another sentence)"))
        }
    })?;
    Ok(Pattern {
        source: text.to_string(),
        formula,
    })
}

// ---------------------------------------------------------------------------------
// The syntax tree of phrases, before lowering.

/// A number condition: `exactly 3`, `3 or 4`, `at least 2 and at most 4`.
#[derive(Clone, Debug)]
enum Num {
    Cmp(CmpOp, i64),
    OneOf(Vec<i64>),
    Range(i64, i64),
}

#[derive(Clone, Debug)]
enum Det {
    Some,
    Every,
    No,
    Num(Num),
    Parity(Parity),
    TheUnique,
    Only,
    /// `half of` compared with `op`: `2 * count(R & V) op count(R)`.
    Half(CmpOp),
    /// `no two`, `no three`: with a verb phrase about one piece, fewer than N do it;
    /// with `each other` or `the same ...`, no N of them relate.
    NoN(i64),
}

#[derive(Clone, Debug)]
struct DetS {
    det: Det,
    span: Span,
    /// `another`: the piece differs from the relation's subject.
    other: Option<Span>,
    /// `of them`, `they`, `everything`...: the noun phrase is already read (all
    /// pieces), or was folded into the word.
    np_done: bool,
}

#[derive(Clone, Debug)]
struct Np {
    /// Adjectives and what stands for them (`isolated`, `small or large`), each a
    /// verb phrase about the piece.
    mods: Vec<Vp>,
    /// The adjective `other`.
    other: Option<Span>,
    rel: Option<Box<Vp>>,
    span: Span,
    /// Whether the noun was plural; `None` where there was no noun (`at least one
    /// pointing up`, `something`).
    plural: Option<bool>,
}

impl Np {
    fn is_plain(&self) -> bool {
        self.mods.is_empty() && self.rel.is_none() && self.other.is_none()
    }

    /// All pieces (`they`, `of them`, `everything`).
    fn all(span: Span) -> Np {
        Np {
            mods: Vec::new(),
            other: None,
            rel: None,
            span,
            plural: None,
        }
    }
}

#[derive(Clone, Debug)]
struct Dp {
    det: DetS,
    np: Np,
}

/// The object of a relation.
#[derive(Clone, Debug)]
enum Obj {
    Dp(Dp),
    /// `it`: a piece named earlier in the sentence.
    It(Span),
    /// `a large piece or a medium piece`: the relation holds of either.
    Or(Box<Obj>, Box<Obj>),
    And(Box<Obj>, Box<Obj>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Coll {
    Direction,
    Size,
    Row,
    Column,
}

impl Coll {
    fn pred(self) -> BinaryPred {
        match self {
            Coll::Direction => BinaryPred::SameDirection,
            Coll::Size => BinaryPred::SameSize,
            Coll::Row => BinaryPred::SameRow,
            Coll::Column => BinaryPred::SameColumn,
        }
    }
}

#[derive(Clone, Debug)]
enum Vp {
    Unary(UnaryPred, Span),
    /// `is present`, `exists`: true of any piece.
    True(Span),
    /// A predicate nominal (`is a large piece`): its modifiers and relative clause.
    Adjs(Vec<Vp>, Span),
    /// A relation and its object; `true` for the passive (`is pointed at by Q`).
    Rel(BinaryPred, Span, Box<Obj>, bool),
    /// `point the same direction` with no `as` (the pieces at once).
    Collective(Coll, Span),
    /// `point in different directions`, `are different sizes`.
    Different(Coll, Span),
    /// `touch each other`, `point at each other`, `some pieces touch`.
    Recip(BinaryPred, Span),
    /// `are connected`, `form one group`: the number of groups.
    Groups(Num, Span),
    Not(Box<Vp>, Span),
    And(Box<Vp>, Box<Vp>),
    Or(Box<Vp>, Box<Vp>),
}

impl Vp {
    /// Whether an object names a piece (a determiner phrase, not `it`).
    fn names_pieces(&self) -> bool {
        fn obj(o: &Obj) -> bool {
            match o {
                // Not one folded into a word (`isolated`, `touches nothing`).
                Obj::Dp(dp) => !dp.det.np_done,
                Obj::It(_) => false,
                Obj::Or(a, b) | Obj::And(a, b) => obj(a) || obj(b),
            }
        }
        match self {
            Vp::Rel(_, _, o, _) => obj(o),
            Vp::Adjs(mods, _) => mods.iter().any(Vp::names_pieces),
            Vp::Not(a, _) => a.names_pieces(),
            Vp::And(a, b) | Vp::Or(a, b) => a.names_pieces() || b.names_pieces(),
            _ => false,
        }
    }

    /// Whether the verb phrase speaks of the pieces at once (`the same direction`,
    /// `each other`...), so that only a sentence's subject can have it.
    fn is_group(&self) -> bool {
        matches!(
            self,
            Vp::Collective(..) | Vp::Different(..) | Vp::Recip(..) | Vp::Groups(..)
        )
    }

    fn span(&self) -> Span {
        match self {
            Vp::Unary(_, s)
            | Vp::True(s)
            | Vp::Adjs(_, s)
            | Vp::Rel(_, s, _, _)
            | Vp::Collective(_, s)
            | Vp::Different(_, s)
            | Vp::Recip(_, s)
            | Vp::Groups(_, s)
            | Vp::Not(_, s) => s.clone(),
            Vp::And(a, b) | Vp::Or(a, b) => a.span().start..b.span().end,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Finite,
    Participle,
}

/// The subject of the last atomic sentence read, kept so that a following `it`
/// (`there is exactly one topmost piece and it is large`, `if a piece points up, it
/// touches a large piece`) can speak of the same piece.
#[derive(Clone, Debug)]
struct Subject {
    det: DetS,
    np: Np,
    vp: Option<Vp>,
    /// The span of the whole sentence, to check that nothing else was joined to it.
    span: Span,
}

impl Subject {
    /// Whether the sentence also names other pieces (`a piece touching a large
    /// piece`), so that a later `it` could name either.
    fn has_rivals(&self) -> bool {
        self.np
            .mods
            .iter()
            .chain(self.np.rel.as_deref())
            .chain(self.vp.as_ref())
            .any(Vp::names_pieces)
    }

    /// `a`, `some`, `exactly one`, `a single`, `the unique`: one piece that `it` can
    /// name.
    fn is_singular(&self) -> bool {
        matches!(
            self.det.det,
            Det::Some | Det::TheUnique | Det::Num(Num::Cmp(CmpOp::Eq, 1))
        ) && self.np.plural != Some(true)
    }
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

fn scaled(k: i64, t: Term) -> Term {
    Term::new(t.span.clone(), TermKind::Mul(k, Box::new(t)))
}

fn splice(src: &str, span: &Span, with: &str) -> String {
    format!("{}{}{}", &src[..span.start], with, &src[span.end..])
}

impl Num {
    /// The condition on a number term.
    fn holds_of(&self, t: Term, span: Span) -> Formula {
        let at = |op, n: i64| cmp(op, t.clone(), int(n, span.clone()), span.clone());
        match self {
            Num::Cmp(op, n) => at(*op, *n),
            Num::OneOf(ns) => ns
                .iter()
                .map(|n| at(CmpOp::Eq, *n))
                .reduce(|a, b| bin(BinOp::Or, a, b))
                .unwrap_or_else(|| f(span.clone(), FormulaKind::Bool(false))),
            Num::Range(lo, hi) => bin(BinOp::And, at(CmpOp::Ge, *lo), at(CmpOp::Le, *hi)),
        }
    }
}

/// `at least n`: `at least one` is plain existence.
fn at_least(n: i64) -> Det {
    if n == 1 {
        Det::Some
    } else {
        Det::Num(Num::Cmp(CmpOp::Ge, n))
    }
}

const FINITE_VERBS: &[&str] = &[
    "point", "points", "face", "faces", "touch", "touches", "is", "are", "isn't", "aren't", "does",
    "do", "doesn't", "don't", "has", "have", "exist", "exists", "appear", "appears", "occur",
    "occurs", "form", "forms",
];
const VP_EXPECTED: &str =
    "a verb phrase such as `points up`, `touches a small piece` or `is large`";
const PARTICIPLES: &[&str] = &["pointing", "facing", "touching", "pointed"];

struct Parser<'a> {
    src: &'a str,
    c: Cursor,
    nesting: u32,
    /// Whether a negation directly governs the determiner read next, so that `any`
    /// means `a` under it. See [`Parser::licensing`].
    any_licensed: bool,
    /// Inside the condition of `if` / `unless`, `any` means `a` throughout.
    condition: u32,
    /// How many relative clauses enclose the phrase being read.
    in_relative: u32,
    /// The variable index a sentence's own quantifier takes (above the pieces that
    /// `it` can name from an enclosing sentence).
    base: u8,
    /// The pieces an `it` at the sentence level can name (the subject of `if a piece
    /// points up, ...`).
    discourse: Vec<Var>,
    /// Set when an `it` was resolved to a piece of `discourse`.
    it_used: Cell<bool>,
    /// Pieces of `discourse` named in a sentence that also named others (`if a piece
    /// touches a large piece, it ...`): an `it` for them is refused.
    ambiguous: Vec<Var>,
    /// The subject of the last atomic sentence, for a following `it`.
    subject: Option<Subject>,
    /// The subject being read is all the pieces, so a floating `all` (`the pieces are
    /// all small`) adds nothing.
    universal_subject: bool,
    /// Reading the first kind of a comparative, where `and` may separate the two
    /// (`the same number of small and large pieces`).
    comparing: bool,
    /// After `there is`, a relative clause may speak of the pieces at once (`there
    /// are no pieces touching each other`).
    group_relative: bool,
}

impl<'a> Parser<'a> {
    fn new(src: &'a str, c: Cursor) -> Parser<'a> {
        Parser {
            src,
            c,
            nesting: 0,
            any_licensed: false,
            condition: 0,
            in_relative: 0,
            base: 0,
            discourse: Vec::new(),
            it_used: Cell::new(false),
            ambiguous: Vec::new(),
            subject: None,
            universal_subject: false,
            comparing: false,
            group_relative: false,
        }
    }

    fn enter(&mut self) -> R<()> {
        crate::lang::lexer::deeper(&mut self.nesting, MAX_NESTING, self.c.here())
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

    /// Whether the next token ends a clause: the end, `)`, `then`, a comma, or a
    /// connective that starts another sentence.
    fn at_clause_end(&self, k: usize) -> bool {
        match self.c.peek_at(k).map(|t| &t.tok) {
            None => true,
            Some(Tok::Sym(s)) => matches!(s, Sym::RParen | Sym::Comma | Sym::Semicolon),
            Some(Tok::Word(w)) => {
                matches!(
                    w.as_str(),
                    "and" | "or" | "then" | "iff" | "if" | "unless" | "but" | "otherwise"
                ) || (w == "only" && self.c.word_at(k + 1) == Some("if"))
            }
            Some(Tok::Int(_)) => false,
        }
    }
}
