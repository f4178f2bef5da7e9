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
//! - `all`, `every` or `each` with a negated verb (`all pieces don't point up`,
//!   `every piece isn't large`, `all pieces cannot point up`, `they all don't point
//!   up`) is refused, offering "not every" and "no" ([`scope`]); `must not` forbids
//!   (`every piece must not point up` is "no piece").
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
//!   pieces of the structure when no piece was named before them, and the pieces just
//!   counted after an exact count (`exactly two pieces are large and they touch`,
//!   [`they`]); otherwise they are refused.
//! - Bare numbers stay ambiguous (`two pieces point up`), except where `at least`
//!   says nothing: `one group`, `3 or 4 pieces`, `the structure is 3 wide`.

//!
//! The reader is generic over a [`Vocabulary`] (the one sentence frame, two sets of
//! words): the pattern language's pieces ([`pieces`]) and the Logical Bluffs tiles
//! (`crate::lang::tiles::english`). The frame (connectives, determiners, numbers,
//! comparatives, relative clauses, coordination, `it`, the refusals of what is
//! ambiguous) is written once, in the modules below ([`syntax`] holds its tree and
//! state; [`read`] reads a whole text); a vocabulary brings its
//! nouns, adjectives, verbs, relations, counted things and its AST's nodes ([`Logic`]).

mod atomic;
mod det;
mod frame;
mod group;
mod lower;
mod named;
mod noun;
mod numbers;
mod object;
pub(crate) mod pieces;
mod read;
mod refuse;
mod scope;
mod sentence;
mod syntax;
mod they;
mod verb;

pub use pieces::parse_english;
pub(crate) use pieces::{polish, read};
pub(crate) use read::read_with;
pub(crate) use refuse::polish_with;
pub(crate) use syntax::*;

// What the modules below take from the language around the frame.
use super::ast::{BinOp, CmpOp, Parity, Span, Var};
use super::lexer::{Sym, Tok};
