//! The English form (docs/patterns.md), read by recursive descent.
//!
//! Reading happens in three steps. [`frame`] first drops what carries no meaning
//! (quotes and end punctuation, hedges such as `I think`, modals such as `there has
//! to be` or `must`, `in the koan`), keeping every other word's span. Noun phrases and
//! verb phrases are then read into a small syntax tree ([`Np`], [`Vp`], [`Obj`]) and
//! lowered to the AST ([`lower`]) once the variable the phrase speaks of is known.
//! Sentences are closed, so they lower at once. Every way of saying it that
//! docs/patterns.md lists ("How people say it" and the tables before it) reads into the
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

//!
//! The reader is generic over a [`Vocabulary`] (the one sentence frame, two sets of
//! words): the pattern language's pieces ([`pieces`]) and the Logical Bluffs tiles
//! (`crate::lang::tiles::english`). The frame (connectives, determiners, numbers,
//! comparatives, relative clauses, coordination, `it`, the refusals of what is
//! ambiguous) is written once, here and in the modules below; a vocabulary brings its
//! nouns, adjectives, verbs, relations, counted things and its AST's nodes ([`Logic`]).

mod det;
mod frame;
mod lower;
mod named;
mod noun;
mod numbers;
mod object;
pub(crate) mod pieces;
mod refuse;
mod sentence;
mod verb;
mod vocab;

pub(crate) use named::{Named, is_name};
pub(crate) use refuse::{polish, polish_with};
pub(crate) use vocab::{
    Dom, FormulaKind, Logic, Place, Policy, Spanned, TermKind, TermLogic, Vocabulary,
};

use super::ast::{BinOp, CmpOp, Parity, Pattern, Span, Var};
use super::error::ParsePatternError;
use super::lexer::{Cursor, Sym, Tok, lex};
use std::cell::Cell;

pub(crate) type R<T> = Result<T, ParsePatternError>;

/// A vocabulary's formula and term types.
pub(crate) type F<V> = <V as Vocabulary>::F;
pub(crate) type T<V> = <<V as Vocabulary>::F as Logic>::Term;

/// Parses the English form of a pattern. A refusal's suggestions are each read before
/// they are offered (see [`refuse`]).
pub fn parse_english(text: &str) -> R<Pattern> {
    read(text).map_err(|e| refuse::polish(e, text))
}

/// Reads the English form of a pattern, with the refusal exactly as the reader made it.
pub(crate) fn read(text: &str) -> R<Pattern> {
    let formula = read_with::<pieces::Pieces>(text)?;
    Ok(Pattern {
        source: text.to_string(),
        formula,
    })
}

/// Reads a whole text in the vocabulary `V`.
pub(crate) fn read_with<V: Vocabulary>(text: &str) -> R<F<V>> {
    let lexed = lex(text)?;
    let toks = frame::normalise::<V>(lexed.tokens)?;
    V::check_words(&toks)?;
    if toks.is_empty() {
        return Err(
            ParsePatternError::new(0..text.len(), format!("the {} is empty", V::WHAT))
                .with_example(V::EXAMPLE),
        );
    }
    let mut p = Parser::<V>::new(text, Cursor::new(toks, text.len()));
    p.rule().and_then(|f| {
        if p.c.at_end() {
            Ok(f)
        } else {
            Err(p.c.expected(&format!(
                "the end of the {} (or `and`, `or` and another sentence)",
                V::WHAT
            )))
        }
    })
}

// ---------------------------------------------------------------------------------
// The syntax tree of phrases, before lowering.

/// A number condition: `exactly 3`, `3 or 4`, `at least 2 and at most 4`.
#[derive(Clone, Debug)]
pub(crate) enum Num {
    Cmp(CmpOp, i64),
    OneOf(Vec<i64>),
    Range(i64, i64),
}

#[derive(Clone, Debug)]
pub(crate) enum Det {
    Some,
    Every,
    No,
    Num(Num),
    Parity(Parity),
    TheUnique,
    Only,
    /// `half of` compared with `op`: `2 * count(R & V) op count(R)`.
    Half(CmpOp),
    /// `no two`, `no three`: with a verb phrase about one thing, fewer than N do it;
    /// with `each other` or `the same ...`, no N of them relate.
    NoN(i64),
    /// `all pieces but one`: exactly N of them do not.
    AllBut(i64),
}

#[derive(Clone, Debug)]
pub(crate) struct DetS {
    pub det: Det,
    pub span: Span,
    /// `another`: the thing differs from the relation's subject.
    pub other: Option<Span>,
    /// `of them`, `they`, `everything`...: the noun phrase is already read (all
    /// things), or was folded into the word.
    pub np_done: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct Np<V: Vocabulary> {
    /// Adjectives and what stands for them (`isolated`, `small or large`), each a
    /// verb phrase about the thing.
    pub mods: Vec<Vp<V>>,
    /// The adjective `other`.
    pub other: Option<Span>,
    pub rel: Option<Box<Vp<V>>>,
    pub span: Span,
    /// Whether the noun was plural; `None` where there was no noun (`at least one
    /// pointing up`, `something`).
    pub plural: Option<bool>,
    /// `adjacent tiles`: the noun phrase speaks of pairs so related.
    pub pair: Vec<(V::Binary, Span)>,
}

impl<V: Vocabulary> Np<V> {
    /// Whether `it` occurs in the noun phrase's modifiers or relative clause.
    pub(crate) fn mentions_it(&self) -> bool {
        self.mods
            .iter()
            .chain(self.rel.as_deref())
            .any(Vp::mentions_it)
    }

    /// Whether the noun phrase compares with the thing it is said of.
    pub(crate) fn has_anchor(&self) -> bool {
        self.mods
            .iter()
            .chain(self.rel.as_deref())
            .any(Vp::has_anchor)
    }

    pub(crate) fn is_plain(&self) -> bool {
        self.mods.is_empty() && self.rel.is_none() && self.other.is_none() && self.pair.is_empty()
    }

    /// All things (`they`, `of them`, `everything`).
    pub(crate) fn all(span: Span) -> Np<V> {
        Np {
            mods: Vec::new(),
            other: None,
            rel: None,
            span,
            plural: None,
            pair: Vec::new(),
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Dp<V: Vocabulary> {
    pub det: DetS,
    pub np: Np<V>,
}

/// The object of a relation.
#[derive(Clone, Debug)]
pub(crate) enum Obj<V: Vocabulary> {
    Dp(Dp<V>),
    /// `it`: a thing named earlier in the sentence.
    It(Span),
    /// The thing whose relation this phrase is the object of (`a tile of the same
    /// colour` is one of the colour of the tile it is said of).
    Anchor(Span),
    /// A thing named by a letter (`y` in `x is adjacent to y`).
    Named(Var),
    /// `a large piece or a medium piece`: the relation holds of either.
    Or(Box<Obj<V>>, Box<Obj<V>>),
    And(Box<Obj<V>>, Box<Obj<V>>),
}

#[derive(Clone, Debug)]
pub(crate) enum Vp<V: Vocabulary> {
    Unary(V::Unary, Span),
    /// `is present`, `exists`: true of any thing.
    True(Span),
    /// A predicate nominal (`is a large piece`): its modifiers and relative clause.
    Adjs(Vec<Vp<V>>, Span),
    /// A relation and its object; `true` for the passive (`is pointed at by Q`).
    Rel(V::Binary, Span, Box<Obj<V>>, bool),
    /// `point the same direction` with no `as` (the things at once); the relation is
    /// the sameness (`same_direction`).
    Collective(V::Binary, Span),
    /// `point in different directions`, `are different sizes`.
    Different(V::Binary, Span),
    /// `touch each other`, `point at each other`, `some pieces touch`.
    Recip(V::Binary, Span),
    /// `are connected`, `form one group`: the number of groups.
    Groups(Num, Span),
    /// `point in exactly two directions`: how many of a counted thing the things
    /// show at once.
    CountOf(V::Counted, Num, Span),
    /// `is y`: the thing named `y`.
    Is(Var, Span),
    /// `has a small piece above it`: there is such a thing (the object speaks of the
    /// subject with `it`).
    Has(Box<Obj<V>>, Span),
    /// `are not all small`, `neither all red nor all blue`: a floating `all` under a
    /// negation, which negates the subject's `every`, not the verb phrase.
    NotAll(Box<Vp<V>>, Span),
    Not(Box<Vp<V>>, Span),
    And(Box<Vp<V>>, Box<Vp<V>>),
    Or(Box<Vp<V>>, Box<Vp<V>>),
}

impl<V: Vocabulary> Vp<V> {
    /// Whether an object names a thing (a determiner phrase, not `it`).
    pub(crate) fn names_things(&self) -> bool {
        fn obj<V: Vocabulary>(o: &Obj<V>) -> bool {
            match o {
                // Not one folded into a word (`isolated`, `touches nothing`).
                Obj::Dp(dp) => !dp.det.np_done,
                Obj::It(_) | Obj::Anchor(_) | Obj::Named(_) => false,
                Obj::Or(a, b) | Obj::And(a, b) => obj(a) || obj(b),
            }
        }
        match self {
            Vp::Rel(_, _, o, _) => obj(o),
            Vp::Adjs(mods, _) => mods.iter().any(Vp::names_things),
            Vp::Has(o, _) => obj(o),
            Vp::Not(a, _) | Vp::NotAll(a, _) => a.names_things(),
            Vp::And(a, b) | Vp::Or(a, b) => a.names_things() || b.names_things(),
            _ => false,
        }
    }

    /// Whether the verb phrase speaks of the things at once (`the same direction`,
    /// `each other`...), so that only a sentence's subject can have it.
    pub(crate) fn is_group(&self) -> bool {
        match self {
            Vp::Collective(..)
            | Vp::Different(..)
            | Vp::Recip(..)
            | Vp::Groups(..)
            | Vp::CountOf(..) => true,
            Vp::NotAll(a, _) => a.is_group(),
            _ => false,
        }
    }

    /// Whether a floating `not all` occurs among the conjuncts (see [`Vp::NotAll`]).
    pub(crate) fn has_not_all(&self) -> bool {
        match self {
            Vp::NotAll(..) => true,
            Vp::And(a, b) | Vp::Or(a, b) => a.has_not_all() || b.has_not_all(),
            _ => false,
        }
    }

    /// Whether `it` occurs in the phrase (an object that speaks of the subject).
    pub(crate) fn mentions_it(&self) -> bool {
        fn obj<V: Vocabulary>(o: &Obj<V>) -> bool {
            match o {
                Obj::It(_) | Obj::Anchor(_) => true,
                Obj::Named(..) => false,
                Obj::Dp(dp) => dp.np.mentions_it(),
                Obj::Or(a, b) | Obj::And(a, b) => obj(a) || obj(b),
            }
        }
        match self {
            Vp::Rel(_, _, o, _) | Vp::Has(o, _) => obj(o),
            Vp::Adjs(mods, _) => mods.iter().any(Vp::mentions_it),
            Vp::Not(a, _) | Vp::NotAll(a, _) => a.mentions_it(),
            Vp::And(a, b) | Vp::Or(a, b) => a.mentions_it() || b.mentions_it(),
            _ => false,
        }
    }

    /// Whether the phrase compares with the thing it is said of (`of the same
    /// colour`).
    pub(crate) fn has_anchor(&self) -> bool {
        match self {
            Vp::Rel(_, _, o, _) => matches!(**o, Obj::Anchor(_)),
            Vp::Adjs(mods, _) => mods.iter().any(Vp::has_anchor),
            Vp::Not(a, _) => a.has_anchor(),
            Vp::And(a, b) | Vp::Or(a, b) => a.has_anchor() || b.has_anchor(),
            _ => false,
        }
    }

    pub(crate) fn span(&self) -> Span {
        match self {
            Vp::Unary(_, s)
            | Vp::True(s)
            | Vp::Adjs(_, s)
            | Vp::Rel(_, s, _, _)
            | Vp::Collective(_, s)
            | Vp::Different(_, s)
            | Vp::Recip(_, s)
            | Vp::Groups(_, s)
            | Vp::CountOf(_, _, s)
            | Vp::Has(_, s)
            | Vp::Is(_, s)
            | Vp::NotAll(_, s)
            | Vp::Not(_, s) => s.clone(),
            Vp::And(a, b) | Vp::Or(a, b) => a.span().start..b.span().end,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Finite,
    Participle,
}

/// The subject of the last atomic sentence read, kept so that a following `it`
/// (`there is exactly one topmost piece and it is large`, `if a piece points up, it
/// touches a large piece`) can speak of the same thing.
#[derive(Clone, Debug)]
pub(crate) struct Subject<V: Vocabulary> {
    pub det: DetS,
    pub np: Np<V>,
    pub vp: Option<Vp<V>>,
    /// The span of the whole sentence, to check that nothing else was joined to it.
    pub span: Span,
}

impl<V: Vocabulary> Subject<V> {
    /// Whether the sentence also names other things (`a piece touching a large
    /// piece`), so that a later `it` could name either.
    pub(crate) fn has_rivals(&self) -> bool {
        self.np
            .mods
            .iter()
            .chain(self.np.rel.as_deref())
            .chain(self.vp.as_ref())
            .any(Vp::names_things)
    }

    /// `a`, `some`, `exactly one`, `a single`, `the unique`: one thing that `it` can
    /// name.
    pub(crate) fn is_singular(&self) -> bool {
        matches!(
            self.det.det,
            Det::Some | Det::TheUnique | Det::Num(Num::Cmp(CmpOp::Eq, 1))
        ) && self.np.plural != Some(true)
    }
}

// ---------------------------------------------------------------------------------
// Building formulas.

pub(crate) fn f<L: Logic>(span: Span, kind: FormulaKind<L>) -> L {
    L::node(span, kind)
}

pub(crate) fn bin<L: Logic>(op: BinOp, a: L, b: L) -> L {
    let (sa, sb) = (a.span(), b.span());
    let span = sa.start.min(sb.start)..sa.end.max(sb.end);
    f(span, FormulaKind::Bin(op, a, b))
}

pub(crate) fn not<L: Logic>(span: Span, a: L) -> L {
    f(span, FormulaKind::Not(a))
}

pub(crate) fn and_opt<L: Logic>(a: Option<L>, b: Option<L>) -> Option<L> {
    match (a, b) {
        (Some(a), Some(b)) => Some(bin(BinOp::And, a, b)),
        (a, b) => a.or(b),
    }
}

pub(crate) fn or_true<L: Logic>(a: Option<L>, span: &Span) -> L {
    a.unwrap_or_else(|| f(span.clone(), FormulaKind::Bool(true)))
}

pub(crate) fn count<L: Logic>(x: Var, dom: Dom, body: L, span: Span) -> L::Term {
    L::term(span, TermKind::Count(x, dom, body))
}

pub(crate) fn int<T: TermLogic>(n: i64, span: Span) -> T {
    T::F::term(span, TermKind::Int(n))
}

pub(crate) fn cmp<T: TermLogic>(op: CmpOp, a: T, b: T, span: Span) -> T::F {
    f(span, FormulaKind::Cmp(op, a, b))
}

pub(crate) fn scaled<T: TermLogic>(k: i64, t: T) -> T {
    T::F::term(t.span(), TermKind::Mul(k, t))
}

pub(crate) fn splice(src: &str, span: &Span, with: &str) -> String {
    format!("{}{}{}", &src[..span.start], with, &src[span.end..])
}

impl Num {
    /// The condition on a number term.
    pub(crate) fn holds_of<T: TermLogic>(&self, t: T, span: Span) -> T::F {
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

    /// Whether the number `n` meets the condition.
    pub(crate) fn admits(&self, n: i64) -> bool {
        match self {
            Num::Cmp(op, k) => op.holds(n, *k),
            Num::OneOf(ks) => ks.contains(&n),
            Num::Range(lo, hi) => (*lo..=*hi).contains(&n),
        }
    }
}

/// `at least n`: `at least one` is plain existence.
pub(crate) fn at_least(n: i64) -> Det {
    if n == 1 {
        Det::Some
    } else {
        Det::Num(Num::Cmp(CmpOp::Ge, n))
    }
}

/// The verbs every vocabulary has (the copula, `do not`, existence).
const COMMON_FINITE: &[&str] = &[
    "is", "are", "isn't", "aren't", "does", "do", "doesn't", "don't", "exist", "exists", "appear",
    "appears", "occur", "occurs", "share", "shares",
];

pub(crate) struct Parser<'a, V: Vocabulary> {
    pub src: &'a str,
    pub c: Cursor,
    nesting: u32,
    /// Whether a negation directly governs the determiner read next, so that `any`
    /// means `a` under it. See [`Parser::licensing`].
    pub any_licensed: bool,
    /// Inside the condition of `if` / `unless`, `any` means `a` throughout.
    pub condition: u32,
    /// How many relative clauses enclose the phrase being read.
    pub in_relative: u32,
    /// The variable index a sentence's own quantifier takes (above the things that
    /// `it` can name from an enclosing sentence).
    pub base: u8,
    /// The things an `it` at the sentence level can name (the subject of `if a piece
    /// points up, ...`).
    pub discourse: Vec<Var>,
    /// Set when an `it` was resolved to a thing of `discourse`.
    pub it_used: Cell<bool>,
    /// Things of `discourse` named in a sentence that also named others (`if a piece
    /// touches a large piece, it ...`): an `it` for them is refused.
    pub ambiguous: Vec<Var>,
    /// The subject of the last atomic sentence, for a following `it`.
    pub subject: Option<Subject<V>>,
    /// The subject being read is all the things, so a floating `all` (`the pieces are
    /// all small`) adds nothing.
    pub universal_subject: bool,
    /// Reading the first kind of a comparative, where `and` may separate the two
    /// (`the same number of small and large pieces`).
    pub comparing: bool,
    /// After `there is`, a relative clause may speak of the things at once (`there
    /// are no pieces touching each other`).
    pub group_relative: bool,
    /// The region the things of a sentence's own quantifiers range over (`every row
    /// has a red tile`: the tiles of the row), if any.
    pub within: Option<Var>,
    /// Reading the noun phrase of a relation's object.
    pub reading_object: bool,
    /// `red and yellow tiles combined`: the noun phrase ends with `combined`.
    pub combined: bool,
    /// Whether a verb is still to come after the noun phrase being read (a subject,
    /// a number term), so that a verb after an object in its relative clause is that
    /// verb, not a new sentence's; not after `there is`.
    pub awaits_verb: bool,
    /// Things named by a letter in scope (`for every tile x, ...`), innermost last.
    pub names: Vec<(String, Var, Named)>,
}

impl<'a, V: Vocabulary> Parser<'a, V> {
    pub(crate) fn new(src: &'a str, c: Cursor) -> Parser<'a, V> {
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
            within: None,
            reading_object: false,
            combined: false,
            names: Vec::new(),
            awaits_verb: true,
        }
    }

    /// Reads with the tokens from `stop` on hidden, so that a phrase that closes a
    /// clause (`... in every row`) is read apart from it; the tokens come back after.
    pub(crate) fn with_stop<X>(
        &mut self,
        stop: usize,
        read: impl FnOnce(&mut Self) -> R<X>,
    ) -> R<X> {
        let tail = self.c.toks.split_off(stop.min(self.c.toks.len()));
        let r = read(self);
        self.c.toks.extend(tail);
        r
    }

    /// Reads with the sentence's own quantifiers over the tiles of the region `s`.
    pub(crate) fn within_region<X>(
        &mut self,
        s: Var,
        read: impl FnOnce(&mut Self) -> R<X>,
    ) -> R<X> {
        let saved = self.within.replace(s);
        let r = read(self);
        self.within = saved;
        r
    }

    pub(crate) fn enter(&mut self) -> R<()> {
        crate::lang::lexer::deeper(&mut self.nesting, V::MAX_NESTING, self.c.here())
    }

    pub(crate) fn leave(&mut self) {
        self.nesting -= 1;
    }

    /// The domain of a sentence's own quantifiers.
    pub(crate) fn dom(&self) -> Dom {
        match self.within {
            Some(s) => Dom::In(s),
            None => Dom::All,
        }
    }

    /// Runs `read` with `any` licensed (read as `a`) or not, then restores the
    /// previous state. A negation licenses the objects of the verb it negates; `no`
    /// licenses those in its noun phrase and verb phrase; an object's own noun phrase
    /// is licensed only by its determiner being `no`, so `any` is never read deeper
    /// than one step from the negation that makes it mean "no".
    pub(crate) fn licensing<X>(&mut self, on: bool, read: impl FnOnce(&mut Self) -> R<X>) -> R<X> {
        let saved = std::mem::replace(&mut self.any_licensed, on);
        let r = read(self);
        self.any_licensed = saved;
        r
    }

    pub(crate) fn start(&self) -> usize {
        self.c.here().start
    }

    pub(crate) fn span_from(&self, start: usize) -> Span {
        start..self.c.prev().end.max(start)
    }

    pub(crate) fn expect_word(&mut self, w: &str, what: &str) -> R<Span> {
        if self.c.is_word(w) {
            Ok(self.c.bump())
        } else {
            Err(self.c.expected(what))
        }
    }

    /// Whether the word is a finite verb of the frame or the vocabulary.
    pub(crate) fn is_finite_verb(w: &str) -> bool {
        COMMON_FINITE.contains(&w) || V::FINITE_VERBS.contains(&w)
    }

    /// Whether the next token ends a clause: the end, `)`, `then`, a comma, or a
    /// connective that starts another sentence.
    pub(crate) fn at_clause_end(&self, k: usize) -> bool {
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
