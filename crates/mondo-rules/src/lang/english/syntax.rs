//! The English frame's syntax: the tree of phrases read before lowering ([`Np`],
//! [`Vp`], [`Obj`]), the parser's state ([`Parser`]), the builders of formulas, and
//! what a vocabulary brings to the frame.
//!
//! What a vocabulary brings to the English frame: its AST's nodes ([`Logic`]) and its
//! words ([`Vocabulary`]): nouns, adjectives, verbs and their complements, relations,
//! counted things, number terms, and what it reads differently (a bare number, `the`,
//! `most`, `between`). The frame calls these hooks where the pattern reader used to
//! read pieces, so that each vocabulary's parser is monomorphised (no dynamic calls).

use crate::lang::ast::{BinOp, CmpOp, Parity, Span, Var};
use crate::lang::error::ParsePatternError;
use crate::lang::lexer::{Cursor, Sym, Tok, Token};
use std::cell::Cell;

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
    /// The adjective a plural of kinds stands for (`reds` is `red tiles`), if the word
    /// is one.
    fn kind_plural(_w: &str) -> Option<&'static str> {
        None
    }
    /// A phrase at token `i` said in other words of the vocabulary with the same
    /// meaning (`has a neighbour` is `is adjacent to a tile`): how many tokens it
    /// takes and the words that stand for them.
    fn reworded_at(_toks: &[Token], _i: usize) -> Option<(usize, Vec<String>)> {
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
    /// The truth of a text on the vocabulary's sample structures (or layouts), the
    /// same samples every time; `None` when it does not read.
    fn verdicts(text: &str) -> Option<Vec<bool>>;
    /// Whether both read and `a` holds exactly where `b` does not (checked by the
    /// evaluator on the samples).
    fn negates(a: &str, b: &str) -> bool {
        match (Self::verdicts(a), Self::verdicts(b)) {
            (Some(a), Some(b)) => a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| x != y),
            _ => false,
        }
    }
    /// Known words, for "did you mean".
    fn close_words(w: &str) -> Vec<&'static str>;
}

/// What a name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Named {
    /// One thing of the vocabulary (a piece, a tile).
    Thing,
    /// A region of things (a row of tiles).
    Region,
}

/// Whether the word can be a name: a letter other than `a` and `i`, with digits after
/// it if any (`x`, `y`, `s`, `x1`).
pub(crate) fn is_name(w: &str) -> bool {
    let mut chars = w.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    first.is_ascii_lowercase() && !matches!(first, 'a' | 'i') && chars.all(|c| c.is_ascii_digit())
}

pub(crate) type R<T> = Result<T, ParsePatternError>;

/// A vocabulary's formula and term types.
pub(crate) type F<V> = <V as Vocabulary>::F;
pub(crate) type T<V> = <<V as Vocabulary>::F as Logic>::Term;

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
    /// The sentence's subject counts two things (`two tiles`, `exactly two pieces`), so
    /// a floating `both` (`are both green`) speaks of them and adds nothing.
    pub two_subject: bool,
    /// Reading the operand after an `or`: a comma before `and` ends it, so that `S or
    /// S, and S` is "(S or S) and S", as the comma says.
    pub comma_ends_and: bool,
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
    /// Reading what a count is compared with (`... outnumber green and yellow ones`):
    /// kinds joined by `and` are counted together.
    pub counting_kinds: bool,
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
            two_subject: false,
            comma_ends_and: false,
            comparing: false,
            group_relative: false,
            within: None,
            reading_object: false,
            combined: false,
            counting_kinds: false,
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
