//! What a vocabulary brings to the English frame: its AST's nodes ([`Logic`]) and its
//! words ([`Vocabulary`]): nouns, adjectives, verbs and their complements, relations,
//! counted things, number terms, and what it reads differently (a bare number, `the`,
//! `most`, `between`). The frame calls these hooks where the pattern reader used to
//! read pieces, so that each vocabulary's parser is monomorphised (no dynamic calls).

use super::{Mode, Parser, R, T, Vp};
use crate::lang::ast::{BinOp, CmpOp, Parity, Span, Var};
use crate::lang::lexer::Token;

/// Something with the span of the words it came from.
pub(crate) trait Spanned {
    fn span(&self) -> Span;
}

/// What a quantifier or count ranges over: everything of the vocabulary, or the
/// things of a region bound to a variable (`the tiles of the row s`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dom {
    All,
    In(Var),
}

/// A formula node whose children are already built: the shapes both ASTs share.
#[derive(Clone, Debug)]
pub(crate) enum FormulaKind<L: Logic> {
    Bool(bool),
    Not(L),
    Bin(BinOp, L, L),
    Forall(Var, Dom, L),
    Exists(Var, Dom, L),
    Unary(L::Unary, Var),
    Binary(L::Binary, Var, Var),
    Same(Var, Var),
    Cmp(CmpOp, L::Term, L::Term),
    Parity(Parity, L::Term),
}

/// A term node whose children are already built.
#[derive(Clone, Debug)]
pub(crate) enum TermKind<L: Logic> {
    Int(i64),
    Count(Var, Dom, L),
    Add(L::Term, L::Term),
    Sub(L::Term, L::Term),
    Mul(i64, L::Term),
    Mod(L::Term, i64),
}

/// A vocabulary's term type, tied to its formula type.
pub(crate) trait TermLogic: Clone + std::fmt::Debug + Spanned + Sized {
    type F: Logic<Term = Self>;
}

/// A vocabulary's formula type: builds its nodes from the shared shapes.
pub(crate) trait Logic: Clone + std::fmt::Debug + Spanned + Sized {
    type Term: TermLogic<F = Self>;
    /// A property of one thing (`small`, `red`).
    type Unary: Copy + std::fmt::Debug + PartialEq;
    /// A relation between two things (`touches`, `adjacent`).
    type Binary: Copy + std::fmt::Debug + PartialEq;

    /// Whether the AST has the remainder `t % k` (`a multiple of 3`).
    const MODULO: bool;

    fn node(span: Span, kind: FormulaKind<Self>) -> Self;
    /// A term node (never `Mod` where [`Logic::MODULO`] is false).
    fn term(span: Span, kind: TermKind<Self>) -> Self::Term;
    /// The integer a term is, if it is one.
    fn int_value(t: &Self::Term) -> Option<i64>;
    /// The same node with another span.
    fn respan(self, span: Span) -> Self;
    fn respan_term(t: Self::Term, span: Span) -> Self::Term;
}

/// Places and lines both vocabularies share (pieces and tiles lie on a grid).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// In a higher row (any column).
    Above,
    Below,
    LeftOf,
    RightOf,
    /// In the same column, higher (any distance).
    DirectlyAbove,
    DirectlyBelow,
    /// In the same row, further left (any distance).
    DirectlyLeftOf,
    DirectlyRightOf,
    SameRow,
    SameColumn,
}

/// What reads differently from one vocabulary to the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Policy {
    /// A bare number means "at least" (Logical Bluffs, by its seed); otherwise it is
    /// refused as ambiguous.
    pub bare_number_at_least: bool,
    /// `the` before one thing means every such thing; otherwise it is refused.
    pub the_is_every: bool,
    /// `most` means more than half; otherwise it is refused.
    pub most_is_more_than_half: bool,
    /// `between 1 and 3` includes its ends; otherwise it is refused.
    pub between_inclusive: bool,
}

/// One vocabulary of the English frame.
pub(crate) trait Vocabulary: Sized + Clone + std::fmt::Debug + 'static {
    type Unary: Copy + std::fmt::Debug + PartialEq;
    type Binary: Copy + std::fmt::Debug + PartialEq;
    type F: Logic<Unary = Self::Unary, Binary = Self::Binary>;
    /// Things counted that are not the nouns (`sizes`, `groups`, `colours`).
    type Counted: Copy + std::fmt::Debug + PartialEq;

    /// `pattern` / `statement`: what a text is called in messages.
    const WHAT: &'static str;
    /// The noun, singular and plural (`piece`, `pieces`).
    const NOUN: &'static str;
    const NOUNS: &'static str;
    /// A text that reads, for examples.
    const EXAMPLE: &'static str;
    /// "a verb phrase such as ...".
    const VP_EXPECTED: &'static str;
    /// "a noun (...)".
    const NOUN_EXPECTED: &'static str;
    /// Examples for refusals: a relation with `the same ... as`, the things at once,
    /// `no two`, `it`, `only`, `half of`, a relative clause.
    const SAME_AS_EXAMPLE: &'static str;
    const SAME_EXAMPLE: &'static str;
    const NO_TWO_EXAMPLE: &'static str;
    const IT_EXAMPLE: &'static str;
    const ONLY_EXAMPLE: &'static str;
    const HALF_EXAMPLE: &'static str;
    const RELATIVE_EXAMPLE: &'static str;
    /// Deepest nesting accepted.
    const MAX_NESTING: u32;
    /// The vocabulary's own finite verbs and participles (beyond `is`, `does`,
    /// `exists`...).
    const FINITE_VERBS: &'static [&'static str];
    const PARTICIPLES: &'static [&'static str];
    /// Base forms that may follow a modal (`must point`).
    const BASE_VERBS: &'static [&'static str];
    /// Verbs whose `do not` could also cover a following `and VERB` (refused).
    const DO_VERBS: &'static [&'static str];
    /// What may follow `does not`.
    const DO_NOT_EXPECTED: &'static str;
    const POLICY: Policy;

    /// A message written for pieces, in the vocabulary's words.
    fn say(text: &str) -> String;

    /// Refuses words that cannot belong to the vocabulary, before reading.
    fn check_words(_toks: &[Token]) -> R<()> {
        Ok(())
    }
    /// The spelling the vocabulary reads a word in (`color` is `colour`), if another.
    fn spelling(_w: &str) -> Option<&'static str> {
        None
    }
    /// Drops phrases that add nothing (`in the koan`, `in my subset`) at token `i`:
    /// how many tokens, if any.
    fn ignored_at(_toks: &[Token], _i: usize) -> usize {
        0
    }

    // Words.
    fn is_noun(w: &str) -> bool;
    /// The property an adjective names.
    fn adjective(w: &str) -> Option<Self::Unary>;
    /// Whether the word can stand among a noun's adjectives (beyond `adjective`).
    fn is_modifier(w: &str) -> bool {
        Self::adjective(w).is_some()
    }
    /// The sameness a noun names after `the same` / `different` (`size`, `colour`).
    fn sameness(w: &str) -> Option<Self::Binary>;
    /// Whether two properties never hold of one thing together (two colours, two
    /// sizes), so that `either A or B` needs no `but not both`.
    fn exclusive(_a: Self::Unary, _b: Self::Unary) -> bool {
        false
    }
    /// Whether `is the same W` (no `as`) speaks of the things at once.
    fn same_complement(w: &str) -> bool;
    /// The vocabulary's relation for a shared place.
    fn place(p: Place) -> Option<Self::Binary>;
    /// A word (or two) before the noun that makes the noun phrase speak of pairs so
    /// related (`adjacent tiles`), and how many words.
    fn pair_adjective(_p: &Parser<'_, Self>) -> Option<(Self::Binary, usize)> {
        None
    }
    /// A phrase after the noun that makes it speak of pairs (`side by side`, `of the
    /// same colour` when nothing is compared with), read.
    fn pair_after_noun(_p: &mut Parser<'_, Self>) -> Option<(Self::Binary, Span)> {
        None
    }
    /// After `for every` / `for some` / `for no`: a named region of the vocabulary's
    /// (`row s, S`), read whole; `None` when there is none.
    fn named_region(
        _p: &mut Parser<'_, Self>,
        _det: super::Det,
        _start: usize,
    ) -> Option<R<Self::F>> {
        None
    }
    /// An item after `there is` of the vocabulary's own (`a row with two red tiles`).
    fn there_item(_p: &mut Parser<'_, Self>, _start: usize, _neg: bool) -> Option<R<Self::F>> {
        None
    }
    /// Whether the relation is symmetric (`each other` needs it one way only).
    fn symmetric(b: Self::Binary) -> bool;
    /// Whether `n` things so related to each other read as one cluster: any number
    /// for an equivalence (`four tiles of the same colour`), three for adjacency (one
    /// of them touches the other two), no more for others.
    fn cluster(_b: Self::Binary, n: i64) -> bool {
        n <= 2
    }
    /// The refusal of a number of pairs (`the number of tiles of the same colour`).
    fn pair_count_refusal(_b: Self::Binary, at: Span) -> crate::lang::ParsePatternError {
        crate::lang::ParsePatternError::new(
            at,
            "this speaks of pairs, which are not counted: count one kind at a time",
        )
    }
    /// The refusal of a count of pairs that leaves the reading open (`exactly two
    /// adjacent tiles are red`).
    fn pair_refusal(_b: Self::Binary, at: Span) -> crate::lang::ParsePatternError {
        crate::lang::ParsePatternError::new(
            at,
            "things counted in pairs take `two`, `at least two`, `no two` or `every two`: `exactly` and `at most` leave open whether one pair or every pair is meant",
        )
    }

    // Hooks: each reads what is the vocabulary's own, or returns `None` without
    // consuming anything.
    /// A whole sentence the vocabulary frames (`a koan has the Buddha-nature if S`).
    fn framed(p: &mut Parser<'_, Self>) -> R<Self::F> {
        p.sentence()
    }
    /// An atomic sentence of the vocabulary's own (`the structure is connected`,
    /// `every row has a red tile`).
    fn atomic(_p: &mut Parser<'_, Self>, _start: usize) -> Option<R<Self::F>> {
        None
    }
    /// A sentence whose subject is `it` with nothing named before it.
    fn it_subject(p: &mut Parser<'_, Self>, start: usize) -> R<Self::F>;
    /// A modifier before the noun, other than a plain adjective (`upward`, `isolated`).
    fn modifier(_p: &mut Parser<'_, Self>) -> R<Option<Vp<Self>>> {
        Ok(None)
    }
    /// A refusal at a word where a noun was expected (`left pieces`), if it is one.
    fn noun_refusal(_p: &Parser<'_, Self>) -> Option<crate::lang::ParsePatternError> {
        None
    }
    /// A phrase after the noun other than a relative clause or a shared place (`with
    /// two pips`, `of the same colour`).
    fn postmodifier(_p: &mut Parser<'_, Self>) -> R<Option<Vp<Self>>> {
        Ok(None)
    }
    /// Whether a place or comparison of the vocabulary's own starts `k` words ahead
    /// (`larger than`), so it can follow a noun.
    fn place_start(_p: &Parser<'_, Self>, _k: usize) -> bool {
        false
    }
    /// A verb of the vocabulary's own (`points up`, `touches ...`); the flag says it
    /// was negated with `do not`.
    fn verb(p: &mut Parser<'_, Self>, mode: Mode, w: &str) -> Option<R<Vp<Self>>>;
    /// A complement of `is` of the vocabulary's own (`larger than ...`, `isolated`).
    fn complement(_p: &mut Parser<'_, Self>, _start: usize) -> Option<R<Vp<Self>>> {
        None
    }
    /// Whether a complement of the vocabulary's own starts `k` words ahead.
    fn complement_start(_p: &Parser<'_, Self>, _k: usize) -> bool {
        false
    }
    /// The error for a complement that does not read.
    fn complement_refusal(p: &Parser<'_, Self>, start: usize) -> crate::lang::ParsePatternError;
    /// After `more pieces point up than`: whether only a verb phrase follows, and
    /// reads it.
    fn ellipsis_start(_p: &Parser<'_, Self>) -> bool {
        false
    }
    fn elided_vp(p: &mut Parser<'_, Self>) -> R<Vp<Self>> {
        Err(p.c.expected(Self::VP_EXPECTED))
    }

    // Numbers.
    /// A counted thing after a determiner (`sizes`, `groups`, `colours`), read.
    fn counted_noun(p: &mut Parser<'_, Self>) -> Option<Self::Counted>;
    /// The number of the counted thing.
    fn counted_term(p: &Parser<'_, Self>, c: Self::Counted, span: Span) -> T<Self>;
    /// How many there can be at most (`all three sizes`), if that is fixed.
    fn counted_full(c: Self::Counted) -> Option<i64>;
    /// What `no` such things means, where it is not zero (`no separate groups`: one).
    fn none_means(_c: Self::Counted) -> i64 {
        0
    }
    /// Whether the counted thing is a kind things are of (`pieces of two sizes`).
    fn counted_is_kind(c: Self::Counted) -> bool;
    /// Whether `one` before this word can only mean exactly one (`one group`).
    fn one_is_exact(_w: &str) -> bool {
        false
    }
    /// The number of all the things (`the number of pieces`).
    fn all_count(span: Span) -> T<Self>;
    /// Words after `the` that open a number term (`total`, `width`).
    const THE_TERMS: &'static [&'static str] = &[];
    /// A number term of the vocabulary's own (`the total pips`, `the width`).
    fn term_primary(_p: &mut Parser<'_, Self>, _start: usize) -> Option<R<T<Self>>> {
        None
    }
    /// The number of groups, if the vocabulary counts them.
    fn groups(span: Span) -> Option<T<Self>>;
    /// `all NP VP-the-same` as one number (`directions = 1`), where the vocabulary
    /// has that number.
    fn collective_term(_b: Self::Binary, _span: Span) -> Option<T<Self>> {
        None
    }

    /// The refusal of a comparison with the thing a phrase is said of, where there is
    /// none (`a tile of the same colour is red`).
    fn anchor_refusal(span: Span) -> crate::lang::ParsePatternError;
    /// The refusal of several things compared with the thing a phrase is said of
    /// (`adjacent to two tiles of the same colour`: as it, or as each other?).
    fn anchor_plural_refusal(span: Span) -> crate::lang::ParsePatternError {
        Self::anchor_refusal(span)
    }

    /// Whether a suggested text reads and can be both true and false (it says
    /// something a player could mean).
    fn says_something(text: &str) -> bool;
    /// Known words, for "did you mean".
    fn close_words(w: &str) -> Vec<&'static str>;
    /// Statements that read, built from the words of a refused text (its colours,
    /// sizes, relations), to offer the closest of where a refusal offers nothing else.
    fn rewordings(_words: &[String]) -> Vec<String> {
        Vec::new()
    }
}
