//! The pattern language's vocabulary (docs/patterns.md): pieces, their
//! sizes and directions, touching and pointing, the structure and its groups, sizes,
//! directions and pips. The frame around it is the English reader's.

mod either;
mod phrases;
mod structure;
mod verbs;

use super::{
    Det, DetS, Dp, FormulaKind, Logic, Mode, Np, Obj, Parser, Place, Policy, R, Spanned,
    TermKind as Tk, TermLogic, Vocabulary, Vp, polish_with, read_with,
};
use crate::koan::{Koan, PieceSet};
use crate::lang::ast::{
    BinaryPred, Formula, FormulaKind as K, Pattern, Span, Term, TermKind, UnaryPred,
};
use crate::lang::error::ParsePatternError;
use crate::lang::eval::CompiledPattern;
use crate::lang::lexer::{Tok, Token};
use crate::lang::words::{self, adjective, direction_adjective, is_noun};
use std::sync::OnceLock;

impl Spanned for Formula {
    fn span(&self) -> Span {
        self.span.clone()
    }
}

impl Spanned for Term {
    fn span(&self) -> Span {
        self.span.clone()
    }
}

impl TermLogic for Term {
    type F = Formula;
}

impl Logic for Formula {
    type Term = Term;
    type Unary = UnaryPred;
    type Binary = BinaryPred;
    const MODULO: bool = true;

    fn node(span: Span, kind: FormulaKind<Formula>) -> Formula {
        let kind = match kind {
            FormulaKind::Bool(b) => K::Bool(b),
            FormulaKind::Not(a) => K::Not(Box::new(a)),
            FormulaKind::Bin(op, a, b) => K::Bin(op, Box::new(a), Box::new(b)),
            // Pieces have no regions: every quantifier ranges over the structure.
            FormulaKind::Forall(x, _, a) => K::Forall(x, Box::new(a)),
            FormulaKind::Exists(x, _, a) => K::Exists(x, Box::new(a)),
            FormulaKind::Unary(p, x) => K::Unary(p, x),
            FormulaKind::Binary(p, x, y) => K::Binary(p, x, y),
            FormulaKind::Same(x, y) => K::Same(x, y),
            FormulaKind::Cmp(op, a, b) => K::Cmp(op, a, b),
            FormulaKind::Parity(p, t) => K::Parity(p, t),
        };
        Formula::new(span, kind)
    }

    fn term(span: Span, kind: Tk<Formula>) -> Term {
        let kind = match kind {
            Tk::Int(n) => TermKind::Int(n),
            Tk::Count(x, _, body) => TermKind::Count(x, Box::new(body)),
            Tk::Add(a, b) => TermKind::Add(Box::new(a), Box::new(b)),
            Tk::Sub(a, b) => TermKind::Sub(Box::new(a), Box::new(b)),
            Tk::Mul(k, t) => TermKind::Mul(k, Box::new(t)),
            Tk::Mod(t, k) => TermKind::Mod(Box::new(t), k),
        };
        Term::new(span, kind)
    }

    fn int_value(t: &Term) -> Option<i64> {
        match t.kind {
            TermKind::Int(n) => Some(n),
            _ => None,
        }
    }

    fn respan(self, span: Span) -> Formula {
        Formula::new(span, self.kind)
    }

    fn respan_term(t: Term, span: Span) -> Term {
        Term::new(span, t.kind)
    }
}

/// The pattern language's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pieces;

/// Things of the structure counted rather than a kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Counted {
    Sizes,
    Directions,
    Groups,
    /// `separate groups`: with `no`, the pieces are one group.
    SeparateGroups,
    Pips,
}

impl Vocabulary for Pieces {
    type Unary = UnaryPred;
    type Binary = BinaryPred;
    type F = Formula;
    type Counted = Counted;

    const WHAT: &'static str = "pattern";
    const NOUN: &'static str = "piece";
    const NOUNS: &'static str = "pieces";
    const EXAMPLE: &'static str = "every piece points up";
    const VP_EXPECTED: &'static str =
        "a verb phrase such as `points up`, `touches a small piece` or `is large`";
    const NOUN_EXPECTED: &'static str = "a noun (`piece`, `pyramid` or `arrow`)";
    const SAME_AS_EXAMPLE: &'static str = "points the same direction as a large piece";
    const SAME_EXAMPLE: &'static str = "all pieces point the same direction";
    const NO_TWO_EXAMPLE: &'static str = "no two pieces touch";
    const IT_EXAMPLE: &'static str = "there is exactly one topmost piece and it is large";
    const ONLY_EXAMPLE: &'static str = "only small pieces point up";
    const HALF_EXAMPLE: &'static str = "half of the pieces point up";
    const RELATIVE_EXAMPLE: &'static str = "every piece that touches a large piece points up";
    const MAX_NESTING: u32 = crate::lang::symbolic::MAX_NESTING;
    const FINITE_VERBS: &'static [&'static str] = &[
        "point", "points", "face", "faces", "touch", "touches", "has", "have", "form", "forms",
    ];
    const PARTICIPLES: &'static [&'static str] = &["pointing", "facing", "touching", "pointed"];
    const BASE_VERBS: &'static [&'static str] = &[
        "point",
        "face",
        "touch",
        "have",
        "exist",
        "appear",
        "occur",
        "form",
        "outnumber",
        "contain",
        "equal",
        "add",
        "include",
        "need",
        "require",
    ];
    const DO_VERBS: &'static [&'static str] = &["point", "face", "touch"];
    const DO_NOT_EXPECTED: &'static str = "`point`, `face` or `touch`";
    const POLICY: Policy = Policy {
        bare_number_at_least: false,
        the_is_every: false,
        most_is_more_than_half: false,
        between_inclusive: false,
    };
    const THE_TERMS: &'static [&'static str] = &["total", "width", "height", "sum", "pip", "pips"];

    fn say(text: &str) -> String {
        text.to_string()
    }

    fn check_words(toks: &[Token]) -> R<()> {
        match toks.iter().find(|t| t.word().is_some_and(words::is_colour)) {
            Some(t) => Err(ParsePatternError::new(
                t.span.clone(),
                format!(
                    "pieces here have no colour (`{}`): they differ only in size (`small`, `medium`, `large`) and direction",
                    t.word().unwrap_or_default()
                ),
            )),
            None => Ok(()),
        }
    }

    /// `at least two pieces of each size`: that many of every size, said as the list
    /// the frame reads with its count for each (`at least two small and two medium
    /// and two large pieces`). Only after a number (`a piece of each size` is read
    /// as all three sizes present).
    ///
    /// A piece's neighbour is a piece it touches: `has a neighbour` is `touches a
    /// piece`, `has no neighbours` is `touches no piece`.
    ///
    /// What is said of a piece named as an object, relative to the piece before it, is
    /// said with `it` (which then names that piece, or is refused where two could be
    /// meant): `points at a smaller piece` is `points at a piece smaller than it`,
    /// `touches a piece pointing the same direction` is `... the same direction as
    /// it`, and `a piece it touches` is `a piece touching it` (`a piece it points at`
    /// is `a piece pointed at by it`).
    fn reworded_at(toks: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
        let w = |k: usize| toks.get(i + k).and_then(Token::word).unwrap_or("");
        if let Some(r) = relative_to_subject(toks, i).or_else(|| pairs_and_bare_plurals(toks, i)) {
            return Some(r);
        }
        if let ("has" | "have", det @ ("a" | "no" | "some"), n) = (w(0), w(1), w(2))
            && matches!(n, "neighbour" | "neighbours" | "neighbor" | "neighbors")
            && !matches!(w(3), "that" | "which" | "of" | "with" | "in")
        {
            let verb = if w(0) == "has" { "touches" } else { "touch" };
            return Some((3, vec![verb.into(), det.into(), "piece".into()]));
        }
        let noun = w(0);
        if !(matches!(noun, "piece" | "pieces" | "pyramid" | "pyramids")
            && w(1) == "of"
            && matches!(w(2), "each" | "every")
            && w(3) == "size")
        {
            return None;
        }
        let count = match &toks.get(i.checked_sub(1)?)?.tok {
            Tok::Int(n) => n.to_string(),
            Tok::Word(n) if words::number_word(n).is_some() => n.clone(),
            _ => return None,
        };
        let mut out = vec!["small".to_string()];
        for size in ["medium", "large"] {
            out.extend(["and".to_string(), count.clone(), size.to_string()]);
        }
        out.push(noun.to_string());
        Some((4, out))
    }

    fn ignored_at(toks: &[Token], i: usize) -> usize {
        let w = |k: usize| toks.get(i + k).and_then(Token::word);
        // `in the koan` / `in the structure` (and `this`) adds nothing.
        if w(0) == Some("in")
            && matches!(w(1), Some("the" | "this" | "a" | "each" | "every"))
            && matches!(w(2), Some("koan" | "structure"))
        {
            3
        } else {
            0
        }
    }

    fn is_noun(w: &str) -> bool {
        is_noun(w)
    }

    fn adjective(w: &str) -> Option<UnaryPred> {
        adjective(w)
    }

    fn is_modifier(w: &str) -> bool {
        adjective(w).is_some()
            || direction_adjective(w).is_some()
            || matches!(w, "isolated" | "lone")
    }

    fn sameness(w: &str) -> Option<BinaryPred> {
        match w {
            "size" | "sizes" => Some(BinaryPred::SameSize),
            "direction" | "directions" => Some(BinaryPred::SameDirection),
            _ => None,
        }
    }

    fn same_complement(w: &str) -> bool {
        w == "size"
    }

    fn place(p: Place) -> Option<BinaryPred> {
        Some(match p {
            Place::Above => BinaryPred::Above,
            Place::Below => BinaryPred::Below,
            Place::LeftOf => BinaryPred::LeftOf,
            Place::RightOf => BinaryPred::RightOf,
            Place::DirectlyAbove => BinaryPred::DirectlyAbove,
            Place::DirectlyBelow => BinaryPred::DirectlyBelow,
            Place::DirectlyLeftOf => BinaryPred::DirectlyLeftOf,
            Place::DirectlyRightOf => BinaryPred::DirectlyRightOf,
            Place::SameRow => BinaryPred::SameRow,
            Place::SameColumn => BinaryPred::SameColumn,
        })
    }

    fn symmetric(b: BinaryPred) -> bool {
        crate::lang::normal::converse(b) == Some(b)
    }

    fn exclusive(a: UnaryPred, b: UnaryPred) -> bool {
        use UnaryPred::*;
        let sizes = [Small, Medium, Large];
        let directions = [Up, Down, Left, Right];
        a != b
            && (sizes.contains(&a) && sizes.contains(&b)
                || directions.contains(&a) && directions.contains(&b))
    }

    fn cluster(b: BinaryPred, n: i64) -> bool {
        n <= 2 || n == 3 && b == BinaryPred::Touches
    }

    fn framed(p: &mut Parser<'_, Pieces>) -> R<Formula> {
        p.framed_pieces()
    }

    fn atomic(p: &mut Parser<'_, Pieces>, start: usize) -> Option<R<Formula>> {
        if start == 0
            && matches!(
                p.c.word(),
                Some("has" | "contains" | "needs" | "requires" | "includes")
            )
        {
            return Some(p.structure_rest(start));
        }
        // `one of each size is present`.
        let save = p.c.pos;
        if let Some(f) = p.of_each(start) {
            let present = [
                &["is", "present"][..],
                &["are", "present"],
                &["appears"],
                &["appear"],
            ];
            if let Some(ws) = present.iter().find(|ws| p.c.is_words(ws)) {
                p.c.pos += ws.len();
            }
            if p.at_clause_end(0) {
                return Some(Ok(f));
            }
            p.c.pos = save;
        }
        let n = p.koan_subject()?;
        p.c.pos += n;
        Some(p.structure_rest(start))
    }

    fn it_subject(p: &mut Parser<'_, Pieces>, start: usize) -> R<Formula> {
        p.it_structure(start)
    }

    fn modifier(p: &mut Parser<'_, Pieces>) -> R<Option<Vp<Pieces>>> {
        let Some(w) = p.c.word().map(str::to_string) else {
            return Ok(None);
        };
        if let Some(d) = direction_adjective(&w)
            && (p.noun_follows(1)
                || p.comparing && matches!(p.c.word_at(1), Some("than" | "as" | "and")))
        {
            return Ok(Some(Vp::Unary(d, p.c.bump())));
        }
        if w == "isolated" || w == "lone" {
            let span = p.c.bump();
            return Ok(Some(isolated(span)));
        }
        Ok(None)
    }

    fn noun_refusal(p: &Parser<'_, Pieces>) -> Option<ParsePatternError> {
        p.noun_refusal_pieces()
    }

    fn there_item(p: &mut Parser<'_, Pieces>, start: usize, _neg: bool) -> Option<R<Formula>> {
        p.of_each(start).map(Ok)
    }

    fn postmodifier(p: &mut Parser<'_, Pieces>) -> R<Option<Vp<Pieces>>> {
        if let Some(vp) = p.at_the_edge() {
            return Ok(Some(vp));
        }
        if let Some(vp) = p.of_the_same() {
            return Ok(Some(vp));
        }
        if p.c.is_word("with") && p.pips_ahead(1) {
            p.c.bump();
            return Ok(Some(p.pips_rest_vp()?));
        }
        if matches!(p.c.word(), Some("next" | "adjacent" | "beside"))
            && (p.c.word_at(1) == Some("to") || p.c.is_word("beside"))
        {
            // `a piece next to a large piece`: diagonals or not? Refused with the
            // `touching` it most likely means (kept only if it reads).
            let start = p.start();
            return Err(p.adjacent_refusal(start));
        }
        if p.c.is_words(&["on", "top", "of"]) {
            // `a medium piece on top of a large piece`: refused as after `is`.
            let start = p.start();
            return Err(p.on_top_of_refusal(start));
        }
        Ok(None)
    }

    fn place_start(p: &Parser<'_, Pieces>, k: usize) -> bool {
        matches!(p.c.word_at(k), Some("larger" | "bigger" | "smaller"))
            && p.c.word_at(k + 1) == Some("than")
    }

    fn verb(p: &mut Parser<'_, Pieces>, mode: Mode, w: &str) -> Option<R<Vp<Pieces>>> {
        let start = p.start();
        Some(match (mode, w) {
            (Mode::Finite, "point" | "points" | "face" | "faces")
            | (Mode::Participle, "pointing" | "facing") => {
                p.c.bump();
                p.point_rest()
            }
            (Mode::Finite, "touch" | "touches") | (Mode::Participle, "touching") => {
                p.c.bump();
                p.touch_rest(BinaryPred::Touches, start)
            }
            (Mode::Participle, "pointed") => {
                p.c.bump();
                p.passive_rest(start)
            }
            (Mode::Finite, "has" | "have") => {
                p.c.bump();
                p.have_rest(start)
            }
            (Mode::Finite, "form" | "forms") => {
                p.c.bump();
                p.form_rest(start)
            }
            _ => return None,
        })
    }

    fn complement(p: &mut Parser<'_, Pieces>, start: usize) -> Option<R<Vp<Pieces>>> {
        p.complement_pieces(start)
    }

    fn complement_start(p: &Parser<'_, Pieces>, k: usize) -> bool {
        matches!(p.c.word_at(k), Some("isolated" | "alone" | "connected"))
    }

    fn complement_refusal(p: &Parser<'_, Pieces>, _start: usize) -> ParsePatternError {
        p.complement_refusal_pieces()
    }

    fn ellipsis_start(p: &Parser<'_, Pieces>) -> bool {
        p.dir_at(0).is_some() || p.c.is_word("straight")
    }

    fn elided_vp(p: &mut Parser<'_, Pieces>) -> R<Vp<Pieces>> {
        p.direction_list("a direction")
    }

    fn counted_noun(p: &mut Parser<'_, Pieces>) -> Option<Counted> {
        p.counted_pieces()
    }

    fn counted_term(p: &Parser<'_, Pieces>, c: Counted, span: Span) -> Term {
        p.counted_pieces_term(c, span)
    }

    fn counted_full(c: Counted) -> Option<i64> {
        match c {
            Counted::Sizes => Some(3),
            Counted::Directions => Some(4),
            _ => None,
        }
    }

    fn none_means(c: Counted) -> i64 {
        i64::from(c == Counted::SeparateGroups)
    }

    fn counted_is_kind(c: Counted) -> bool {
        matches!(c, Counted::Sizes | Counted::Directions)
    }

    fn one_is_exact(w: &str) -> bool {
        matches!(w, "group" | "size" | "direction" | "island")
    }

    fn all_count(span: Span) -> Term {
        Term::new(span, TermKind::Pieces)
    }

    fn term_primary(p: &mut Parser<'_, Pieces>, start: usize) -> Option<R<Term>> {
        p.term_pieces(start)
    }

    fn groups(span: Span) -> Option<Term> {
        Some(Term::new(span, TermKind::Groups))
    }

    fn collective_term(b: BinaryPred, span: Span) -> Option<Term> {
        let kind = match b {
            BinaryPred::SameDirection => TermKind::Directions,
            BinaryPred::SameSize => TermKind::Sizes,
            BinaryPred::SameRow => TermKind::Height,
            BinaryPred::SameColumn => TermKind::Width,
            _ => return None,
        };
        Some(Term::new(span, kind))
    }

    fn anchor_refusal(span: Span) -> ParsePatternError {
        ParsePatternError::new(
            span,
            "this compares with a piece the sentence has not named",
        )
    }

    fn says_something(text: &str) -> bool {
        pattern_says_something(text)
    }

    fn verdicts(text: &str) -> Option<Vec<bool>> {
        let p = read(text).ok()?;
        let compiled = CompiledPattern::new(&p.formula);
        Some(samples().iter().map(|k| compiled.evaluate(k)).collect())
    }

    fn close_words(w: &str) -> Vec<&'static str> {
        words::close_words(w)
    }
}

/// The word `k` tokens before token `i`, if any.
fn word_before(toks: &[Token], i: usize, k: usize) -> &str {
    i.checked_sub(k)
        .and_then(|j| toks.get(j))
        .and_then(Token::word)
        .unwrap_or("")
}

/// Whether a noun phrase of one piece named as an object ends at token `end` (its
/// noun): `a`, `an` or `another`, adjectives, a singular noun, after a word of the
/// sentence that is not what starts one (so that there is a piece before it that
/// `it` can name).
fn object_piece_ends(toks: &[Token], end: usize, plural: bool) -> bool {
    let noun = word_before(toks, end, 0);
    if !(words::is_noun(noun) && (plural || !noun.ends_with('s'))) {
        return false;
    }
    let mut k = 1;
    while adjective(word_before(toks, end, k)).is_some()
        || direction_adjective(word_before(toks, end, k)).is_some()
    {
        k += 1;
    }
    let det = word_before(toks, end, k);
    let singular = matches!(det, "a" | "an" | "another");
    (singular || plural && matches!(det, "any" | "no" | "every")) && after_verb(toks, end - k)
}

/// Whether the word before token `det` is one after which a noun phrase is an object
/// (a verb or a preposition), not one that starts a sentence or a clause.
fn after_verb(toks: &[Token], det: usize) -> bool {
    det >= 1
        && !matches!(
            word_before(toks, det, 1),
            "" | "there"
                | "there's"
                | "is"
                | "are"
                | "and"
                | "or"
                | "but"
                | "if"
                | "then"
                | "unless"
                | "iff"
                | "whenever"
                | "that"
                | "which"
        )
}

/// `a pair of pieces` (or `at least one`, `some`) is at least two of them, `no pair of
/// pieces` no two; a count of pairs (`exactly one pair`) is left to be refused. And
/// `pieces point in all four directions` (or `the same direction`), said of the
/// pieces together at the start, is `the pieces ...`.
fn pairs_and_bare_plurals(toks: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = |k: usize| toks.get(i + k).and_then(Token::word).unwrap_or("");
    let words = |ws: &[&str]| ws.iter().map(|w| w.to_string()).collect::<Vec<_>>();
    let plural_noun = |k: usize| {
        let n = w(k);
        words::is_noun(n) && n.ends_with('s')
            || adjective(n).is_some() && words::is_noun(w(k + 1)) && w(k + 1).ends_with('s')
    };
    let before = word_before(toks, i, 1);
    let counted = matches!(before, "exactly" | "most" | "only" | "than" | "just");
    let pair = |k: usize| w(k) == "pair" && w(k + 1) == "of" && plural_noun(k + 2);
    if !counted && matches!(w(0), "a" | "one" | "some") && pair(1) {
        // `at least one pair of` is `at least two`, as is `a pair of`.
        let with: &[&str] = if before == "least" {
            &["two"]
        } else {
            &["at", "least", "two"]
        };
        return Some((3, words(with)));
    }
    if w(0) == "no" && pair(1) {
        return Some((3, words(&["no", "two"])));
    }
    if let Some(r) = one_pair(toks, i).or_else(|| pips_compared(toks, i)) {
        return Some(r);
    }
    if i == 0
        && matches!(w(0), "pieces" | "pyramids" | "arrows")
        && matches!(w(1), "point" | "face")
        && (w(2) == "in" && w(3) == "all" || w(2) == "the" && w(3) == "same")
    {
        return Some((1, words(&["the", w(0)])));
    }
    None
}

/// `exactly one pair of (large) pieces touch (each other)`: one pair, of all pairs, so
/// related. For a relation that goes both ways (`touch`, `point at each other`, `are
/// the same size`) that is exactly two pieces related to another such piece (those
/// two are the pair; a second pair would add a piece), so it reads `exactly two large
/// pieces touch a large piece`. `at most one pair` is at most two, as that count is
/// never one. Other relations and other counts of pairs stay refused.
fn one_pair(toks: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = |k: usize| toks.get(i + k).and_then(Token::word).unwrap_or("");
    let bound: &[&str] = match (w(0), w(1), w(2)) {
        ("exactly" | "only", "one", _) => &["exactly", "two"],
        ("just", "one", _) => &["exactly", "two"],
        ("at", "most", "one") => &["at", "most", "two"],
        _ => return None,
    };
    let at = if bound[0] == "at" { 3 } else { 2 };
    if w(at) != "pair" || w(at + 1) != "of" {
        return None;
    }
    let np_at = at + 2;
    let adjectives = usize::from(adjective(w(np_at)).is_some());
    let noun = w(np_at + adjectives);
    if !(words::is_noun(noun) && noun.ends_with('s')) {
        return None;
    }
    let one = &noun[..noun.len() - 1];
    let kind: Vec<&str> = (np_at..np_at + adjectives).map(w).chain([one]).collect();
    let verb_at = np_at + adjectives + 1;
    let verb: &[&[&str]] = &[
        &["touch", "each", "other"],
        &["touch"],
        &["point", "at", "each", "other"],
        &["are", "the", "same", "size"],
    ];
    let said = verb.iter().find(|v| {
        v.iter().enumerate().all(|(k, x)| w(verb_at + k) == *x)
            && matches!(w(verb_at + v.len()), "" | "and" | "or" | "but")
    })?;
    let mut out: Vec<String> = bound.iter().map(|s| s.to_string()).collect();
    out.extend((np_at..=np_at + adjectives).map(|k| w(k).to_string()));
    let object = |out: &mut Vec<String>| {
        out.push("a".into());
        out.extend(kind.iter().map(|s| s.to_string()));
    };
    match said[0] {
        "touch" => {
            out.push("touch".into());
            object(&mut out);
        }
        "point" => {
            out.extend(["point", "at"].map(String::from));
            object(&mut out);
            out.extend(["that", "points", "at", "it"].map(String::from));
        }
        _ => {
            out.extend(["are", "the", "same", "size", "as"].map(String::from));
            object(&mut out);
        }
    }
    Some((verb_at + said.len(), out))
}

/// `(the) large pieces have more pips in total than (the) small pieces` (`together`,
/// `combined`, `altogether`, `between them`; `fewer`, `less`): the totals compared,
/// `the total pips of large pieces is greater than the total pips of small pieces`.
/// Without a word for the total (`large pieces have more pips than small pieces`) it
/// could say each piece, and it is not read.
fn pips_compared(toks: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = |k: usize| toks.get(i + k).and_then(Token::word).unwrap_or("");
    let starts = i == 0
        || matches!(
            word_before(toks, i, 1),
            "and" | "or" | "then" | "if" | "iff"
        )
        || matches!(toks[i - 1].tok, Tok::Sym(_));
    if !starts || !matches!(w(0), "the") && adjective(w(0)).is_none() && !words::is_noun(w(0)) {
        return None;
    }
    const TOTAL: &[&[&str]] = &[
        &["in", "total"],
        &["altogether"],
        &["combined"],
        &["together"],
        &["in", "all"],
        &["between", "them"],
    ];
    let total_at = |k: usize| {
        TOTAL
            .iter()
            .find(|t| t.iter().enumerate().all(|(j, x)| w(k + j) == *x))
            .map_or(0, |t| t.len())
    };
    let have = (1..=3).find(|k| matches!(w(*k), "have" | "has"))?;
    let np: Vec<&str> = (0..have).map(w).collect();
    if np
        .iter()
        .any(|x| !(*x == "the" || adjective(x).is_some() || words::is_noun(x)))
    {
        return None;
    }
    let than = match w(have + 1) {
        "more" => "greater",
        "fewer" | "less" => "less",
        _ => return None,
    };
    if w(have + 2) != "pips" {
        return None;
    }
    let after = total_at(have + 3);
    if after == 0 || w(have + 3 + after) != "than" {
        return None;
    }
    let mut out: Vec<String> = ["the", "total", "pips", "of"].map(String::from).to_vec();
    out.extend(np.iter().map(|x| x.to_string()));
    out.extend(["is", than, "than", "the", "total", "pips", "of"].map(String::from));
    Some((have + 4 + after, out))
}

/// The rewordings of [`Vocabulary::reworded_at`] that make `it` explicit.
fn relative_to_subject(toks: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = |k: usize| toks.get(i + k).and_then(Token::word).unwrap_or("");
    let words = |ws: &[&str]| ws.iter().map(|w| w.to_string()).collect::<Vec<_>>();
    // `a smaller piece`: a piece smaller than it.
    let comparative = match w(0) {
        "smaller" => Some("smaller"),
        "larger" | "bigger" => Some("larger"),
        _ => None,
    };
    if let Some(c) = comparative
        && words::is_noun(w(1))
        && !w(1).ends_with('s')
        && w(2) != "than"
        && matches!(word_before(toks, i, 1), "a" | "an" | "another")
        && after_verb(toks, i - 1)
    {
        return Some((2, words(&[w(1), c, "than", "it"])));
    }
    // `an arrow pointing the same direction`: the same as it.
    if w(0) == "same"
        && matches!(w(1), "direction" | "way" | "size")
        && w(2) != "as"
        && word_before(toks, i, 1) == "the"
    {
        let verb = word_before(toks, i, 2);
        let noun_at = match verb {
            "pointing" | "facing" => i.checked_sub(3)?,
            "points" | "faces" | "is" if matches!(word_before(toks, i, 3), "that" | "which") => {
                i.checked_sub(4)?
            }
            _ => return None,
        };
        let fits = (w(1) == "size") == (verb == "is");
        if fits && object_piece_ends(toks, noun_at, false) {
            return Some((2, words(&["same", w(1), "as", "it"])));
        }
    }
    // `a piece (that) it touches`: a piece touching it.
    let that = usize::from(matches!(w(0), "that" | "which"));
    if w(that) == "it" && i >= 1 && object_piece_ends(toks, i - 1, true) {
        let (n, with) = match (w(that + 1), w(that + 2)) {
            ("touches", _) => (that + 2, &["touching", "it"][..]),
            ("points", "at") => (that + 3, &["pointed", "at", "by", "it"][..]),
            _ => return None,
        };
        // Not where a sentence goes on with an object (`if there is a small piece
        // it touches a large piece`).
        let next = w(n);
        let object_follows = matches!(
            next,
            "a" | "an" | "the" | "another" | "every" | "some" | "no" | "any" | "each" | "all"
        ) || words::is_noun(next)
            || adjective(next).is_some()
            || words::number_word(next).is_some()
            || matches!(toks.get(i + n).map(|t| &t.tok), Some(Tok::Int(_)));
        if !object_follows {
            return Some((n, words(with)));
        }
    }
    None
}

/// `isolated`: touches no piece.
fn isolated(span: Span) -> Vp<Pieces> {
    let any = Obj::Dp(Dp {
        det: DetS {
            det: Det::Some,
            span: span.clone(),
            other: None,
            np_done: true,
        },
        np: Np::all(span.clone()),
    });
    Vp::Not(
        Box::new(Vp::Rel(
            BinaryPred::Touches,
            span.clone(),
            Box::new(any),
            false,
        )),
        span,
    )
}

/// Parses the English form of a pattern. A refusal's suggestions are each read before
/// they are offered (see [`refuse`]).
pub fn parse_english(text: &str) -> R<Pattern> {
    read(text).map_err(|e| polish(e, text))
}

/// Reads the English form of a pattern, with the refusal exactly as the reader made it.
/// `either A or B` whose parts cannot both hold reads as `A or B` ([`either`]).
pub(crate) fn read(text: &str) -> R<Pattern> {
    let formula = match read_with::<Pieces>(text) {
        Ok(f) => f,
        Err(e) => either::inclusive(
            &e,
            |t| read_with::<Pieces>(t).ok(),
            <Pieces as Vocabulary>::exclusive,
        )
        .ok_or(e)?,
    };
    Ok(Pattern {
        source: text.to_string(),
        formula,
    })
}

/// Keeps the suggestions that read, and adds a close word where one reads (patterns).
pub(crate) fn polish(e: ParsePatternError, text: &str) -> ParsePatternError {
    polish_with::<Pieces>(e, text)
}

/// Whether a suggested pattern reads as English and can be told apart from `true`
/// and `false` on some structure (so it says something a player could mean).
fn pattern_says_something(text: &str) -> bool {
    let Ok(p) = read(text) else {
        return false;
    };
    let compiled = CompiledPattern::new(&p.formula);
    let mut verdicts = samples().iter().map(|k| compiled.evaluate(k));
    let first = verdicts.next();
    verdicts.any(|v| Some(v) != first)
}

/// Structures that tell a pattern from a constant: every piece alone, every ordered
/// pair side by side and one above the other, blocks of one piece (so that "every
/// piece touches at least two small pieces" can hold), and random ones of every size
/// up to the full 6 x 6 box (seeded, so always the same).
fn samples() -> &'static [Koan] {
    static SAMPLES: OnceLock<Vec<Koan>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        use rand::SeedableRng;
        let set = PieceSet::Pyramids;
        let pieces = set.pieces();
        let mut out: Vec<Koan> = Vec::new();
        for &p in pieces {
            out.extend(Koan::new(set, [(0, 0, p)]));
            for q in pieces {
                out.extend(Koan::new(set, [(0, 0, p), (0, 1, *q)]));
                out.extend(Koan::new(set, [(0, 0, p), (1, 0, *q)]));
            }
            for (h, w) in [(1, 3), (3, 1), (2, 2), (3, 3), (2, 6), (6, 6)] {
                let cells = (0..h).flat_map(|r| (0..w).map(move |c| (r, c, p)));
                out.extend(Koan::new(set, cells));
            }
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(15);
        for max in [3, 4, 6, 8, 12, 20, 36] {
            for _ in 0..24 {
                out.push(crate::lang::random::koan(&mut rng, set, max));
            }
        }
        out
    })
}
