//! The pattern language's vocabulary (docs/patterns.md): pieces, their
//! sizes and directions, touching and pointing, the structure and its groups, sizes,
//! directions and pips. The frame around it is the English reader's.

use super::{
    Det, DetS, Dp, FormulaKind, Logic, Mode, Np, Num, Obj, Parser, Place, Policy, R, Spanned,
    TermKind as Tk, TermLogic, Vocabulary, Vp, cmp, int, not, or_true, splice,
};
use crate::lang::ast::{
    BinaryPred, CmpOp, Formula, FormulaKind as K, Span, Term, TermKind, UnaryPred, Var,
};
use crate::lang::error::ParsePatternError;
use crate::lang::lexer::{Sym, Token};
use crate::lang::words::{self, adjective, direction, direction_adjective, is_noun};

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
        super::refuse::pattern_says_something(text)
    }

    fn close_words(w: &str) -> Vec<&'static str> {
        words::close_words(w)
    }

    fn rewordings(words: &[String]) -> Vec<String> {
        rewordings(words)
    }
}

/// Patterns in the sizes, directions and relations a refused text names (small and
/// large pieces pointing up when it names none), for the refusal to offer the
/// closest of.
fn rewordings(words: &[String]) -> Vec<String> {
    let pick = |known: &[&'static str], fill: &[&'static str]| {
        let mut out: Vec<&'static str> = known
            .iter()
            .copied()
            .filter(|k| words.iter().any(|w| w == k))
            .collect();
        for f in fill {
            if !out.contains(f) {
                out.push(f);
            }
        }
        out
    };
    let sizes = pick(&["small", "medium", "large"], &["small", "large"]);
    let dirs = pick(&["up", "down", "left", "right"], &["up"]);
    let (a, b, d) = (sizes[0], sizes[1], dirs[0]);
    let mut out = vec![
        "all pieces are the same size".into(),
        format!("a {a} piece touches a {b} piece"),
        format!("every {a} piece touches a {b} piece"),
        format!("a {a} piece points at a {b} piece"),
        format!("every {a} piece points {d}"),
        format!("there is a {a} piece pointing {d}"),
        format!("a {a} piece is above a {b} piece"),
        format!("a {a} piece is directly above a {b} piece"),
        format!("a {a} piece is left of a {b} piece"),
        format!("a {a} piece is in the same row as a {b} piece"),
        format!("some piece is {a}"),
        "some piece is larger than another piece".into(),
        format!("no piece is pointed at by a {b} piece"),
        format!("every piece is {a}"),
        format!("there are exactly two {a} pieces"),
        format!("there are more {a} pieces than {b} pieces"),
        format!("the number of {a} pieces is odd"),
        format!("no two {a} pieces touch"),
    ];
    out.extend(
        [
            "there are exactly two groups",
            "all three sizes are present",
            "the pieces are connected",
            "the structure is square",
            "there are at least ten pips",
        ]
        .map(String::from),
    );
    out
}

impl Parser<'_, Pieces> {
    /// `a koan`, `koans`, `each koan`, `the structure`, `the bounding box`: the
    /// structure as a subject; how many words.
    fn koan_subject(&self) -> Option<usize> {
        let w = |k| self.c.word_at(k).unwrap_or("");
        let noun = |k| {
            matches!(
                w(k),
                "koan" | "koans" | "structure" | "structures" | "shape" | "arrangement"
            )
        };
        match w(0) {
            "koans" | "structures" => Some(1),
            "a" | "each" | "every" | "any" | "the" | "this" if noun(1) => Some(2),
            "the" if w(1) == "bounding" && w(2) == "box" => Some(3),
            "the" if w(1) == "box" => Some(2),
            "the" if noun(1) && w(2) == "'s" => None,
            _ => None,
        }
    }

    /// `at the top`, `on the left`: the extreme pieces.
    fn at_the_edge(&mut self) -> Option<Vp<Pieces>> {
        let phrases: &[(&[&str], UnaryPred)] = &[
            (&["at", "the", "top"], UnaryPred::Topmost),
            (&["at", "the", "bottom"], UnaryPred::Bottommost),
            (&["on", "the", "left"], UnaryPred::Leftmost),
            (&["on", "the", "right"], UnaryPred::Rightmost),
            (&["at", "the", "left"], UnaryPred::Leftmost),
            (&["at", "the", "right"], UnaryPred::Rightmost),
        ];
        let start = self.start();
        let (ws, p) = phrases.iter().find(|(ws, _)| self.c.is_words(ws))?;
        if self.c.word_at(ws.len()) == Some("of") {
            return None;
        }
        self.c.pos += ws.len();
        Some(Vp::Unary(*p, self.span_from(start)))
    }

    /// `of the same size`, `of a different direction` after an object: compared with
    /// the piece the relation is said of.
    fn of_the_same(&mut self) -> Option<Vp<Pieces>> {
        let start = self.start();
        let (neg, n) = if self.c.is_words(&["of", "the", "same"]) {
            (false, 3)
        } else if self.c.is_words(&["of", "a", "different"]) {
            (true, 3)
        } else {
            return None;
        };
        let pred = match self.c.word_at(n)? {
            "size" => BinaryPred::SameSize,
            "direction" | "orientation" => BinaryPred::SameDirection,
            _ => return None,
        };
        if matches!(self.c.word_at(n + 1), Some("as" | "from" | "than" | "to")) {
            return None;
        }
        self.c.pos += n + 1;
        let span = self.span_from(start);
        let rel = Vp::Rel(
            pred,
            span.clone(),
            Box::new(Obj::Anchor(span.clone())),
            false,
        );
        Some(if neg {
            Vp::Not(Box::new(rel), span)
        } else {
            rel
        })
    }

    /// `a piece of each size`, `one of each size`, `pieces of every direction`: all
    /// three sizes (all four directions) there.
    fn of_each(&mut self, start: usize) -> Option<Formula> {
        let save = self.c.pos;
        let _ = self.c.eat_words(&["a", "piece"])
            || self.c.eat_words(&["one", "piece"])
            || self.c.eat_word("pieces")
            || self.c.eat_word("one");
        if !self.c.eat_word("of") || !(self.c.eat_word("each") || self.c.eat_word("every")) {
            self.c.pos = save;
            return None;
        }
        let (term, n) = match self.c.word() {
            Some("size") => (TermKind::Sizes, 3),
            Some("direction") => (TermKind::Directions, 4),
            _ => {
                self.c.pos = save;
                return None;
            }
        };
        self.c.bump();
        let span = self.span_from(start);
        Some(cmp(
            CmpOp::Eq,
            Term::new(span.clone(), term),
            int(n, span.clone()),
            span,
        ))
    }

    /// `it` as the structure (`it has two groups`), which does not point.
    fn it_structure(&mut self, start: usize) -> R<Formula> {
        let lacks = matches!(self.c.word_at(1), Some("does" | "do" | "doesn't" | "don't"))
            && matches!(self.c.word_at(2), Some("have" | "contain" | "not"));
        if self.vp_start(1, Mode::Finite)
            && !lacks
            && !matches!(
                self.c.word_at(1),
                Some("is" | "isn't" | "has" | "have" | "needs" | "contains")
            )
        {
            return Err(ParsePatternError::new(
                self.c.here(),
                "`it` has no piece to name here: name the piece (`every piece points up`)",
            )
            .with_help("`it` names a piece said before it in the same sentence: `there is exactly one topmost piece and it is large`"));
        }
        self.c.bump();
        self.structure_rest(start)
    }

    /// The pieces' own number terms: `the total pips (of ...)`, `the width`, `the
    /// height`.
    fn term_pieces(&mut self, start: usize) -> Option<R<Term>> {
        for words in [
            &["the", "total", "number", "of", "pips"][..],
            &["the", "total", "pip", "count"],
            &["the", "total", "pips"],
            &["the", "pip", "count"],
            &["the", "pip", "total"],
            &["the", "count", "of", "pips"],
            &["the", "sum", "of", "the", "pips"],
            &["the", "sum", "of", "pips"],
            &["the", "pips"],
        ] {
            if self.c.eat_words(words) {
                return Some(self.pips_rest(start));
            }
        }
        for (word, kind) in [("width", TermKind::Width), ("height", TermKind::Height)] {
            if self.c.eat_words(&["the", word]) {
                if self.c.is_words(&["of", "the"])
                    && matches!(self.c.word_at(2), Some("structure" | "koan" | "bounding"))
                {
                    self.c.pos += 3;
                    self.c.eat_word("box");
                }
                return Some(Ok(Term::new(self.span_from(start), kind)));
            }
        }
        None
    }

    /// Where a noun was expected: `left pieces` (pointing left, or on the left?) and
    /// structure nouns (counted, not described).
    fn noun_refusal_pieces(&self) -> Option<ParsePatternError> {
        let w = self.c.word()?;
        if matches!(w, "left" | "right") && self.c.word_at(1).is_some_and(is_noun) {
            let here = self.c.here();
            let noun_end = self.c.peek_at(1).map_or(here.end, |t| t.span.end);
            let noun = self.c.word_at(1).unwrap_or("pieces").to_string();
            return Some(
                ParsePatternError::new(
                    here.clone(),
                    format!(
                        "`{w} {noun}` could be pieces pointing {w} or pieces on the {w}: say which"
                    ),
                )
                .with_example(splice(
                    self.src,
                    &(here.start..noun_end),
                    &format!("{noun} pointing {w}"),
                ))
                .with_example(splice(self.src, &here, &format!("{w}most"))),
            );
        }
        if matches!(
            w,
            "group" | "groups" | "size" | "sizes" | "direction" | "directions" | "pip" | "pips"
        ) {
            return Some(self.c.expected("a kind of piece (`piece`, `pyramid` or `arrow`)").with_help(
                "groups, sizes, directions and pips are counted with a number: `there are exactly two groups`, `the number of different sizes is 3`",
            ));
        }
        None
    }

    /// The pieces' own complements of `is`: `isolated`, `upward`, `connected`, `larger
    /// than ...`, and the refusals of `next to`, `on top of` and a bare `left`.
    fn complement_pieces(&mut self, start: usize) -> Option<R<Vp<Pieces>>> {
        let w = self.c.word()?.to_string();
        let rel = |p: &mut Self, pred: BinaryPred| -> R<Vp<Pieces>> {
            p.c.bump();
            p.expect_word("than", "`than`")?;
            let span = p.span_from(start);
            Ok(Vp::Rel(pred, span, Box::new(p.object()?), false))
        };
        let own = [
            &["on", "its", "own"][..],
            &["by", "itself"],
            &["on", "their", "own"],
        ];
        if let Some(ws) = own.iter().find(|ws| self.c.is_words(ws)) {
            self.c.pos += ws.len();
            return Some(Ok(isolated(self.span_from(start))));
        }
        if let Some(p) = self.at_the_edge() {
            return Some(Ok(p));
        }
        Some(if w == "isolated" || w == "alone" {
            Ok(isolated(self.c.bump()))
        } else if let Some(p) = direction_adjective(&w) {
            // `is upward`, `is up-pointing`.
            Ok(Vp::Unary(p, self.c.bump()))
        } else if w == "connected" {
            let span = self.c.bump();
            // `the pieces are all connected to each other`: one group.
            if self.c.is_words(&["to", "each", "other"])
                || self.c.is_words(&["to", "one", "another"])
            {
                self.c.pos += 3;
                return Some(Ok(Vp::Groups(
                    Num::Cmp(CmpOp::Eq, 1),
                    self.span_from(span.start),
                )));
            }
            if self.c.is_word("to") {
                let to = span.start..self.c.here().end;
                return Some(Err(ParsePatternError::new(
                    to.clone(),
                    "`connected to` could mean touching or joined through other pieces: say `touches ...`",
                )
                .with_example(splice(self.src, &to, "touching"))));
            }
            Ok(Vp::Groups(Num::Cmp(CmpOp::Eq, 1), span))
        } else if w == "larger" || w == "bigger" {
            rel(self, BinaryPred::Larger)
        } else if w == "smaller" {
            rel(self, BinaryPred::Smaller)
        } else if matches!(
            w.as_str(),
            "next" | "adjacent" | "beside" | "neighbouring" | "neighboring" | "near"
        ) {
            Err(self.adjacent_refusal(start))
        } else if self.c.is_words(&["on", "top", "of"]) {
            let span = start..self.c.peek_at(2).map_or(start, |t| t.span.end);
            Err(ParsePatternError::new(
                span.clone(),
                "`on top of` could mean directly above, or directly above and touching: say `is directly above ...` (any distance) or add `and touches ...`",
            )
            .with_example(splice(self.src, &span, "directly above"))
            .with_example(splice(self.src, &span, "directly above and touching")))
        } else if (w == "left" || w == "right") && self.c.word_at(1) != Some("of") {
            Err(self
                .c
                .expected("an adjective or a relation")
                .with_help(format!(
                    "for a direction write `points {w}`; for a place write `is {w} of ...`"
                )))
        } else {
            return None;
        })
    }

    /// A complement that does not read, with a hint where the word says what was meant.
    fn complement_refusal_pieces(&self) -> ParsePatternError {
        let w = self.c.word().unwrap_or("").to_string();
        let mut e = self.c.expected(
            "an adjective (`small`, `vertical`, `topmost`...) or a relation (`above ...`, `larger than ...`, `in the same row as ...`, `the same size as ...`)",
        );
        if direction(&w).is_some() || direction_adjective(&w).is_some() {
            e = e.with_help(format!("for a direction write `points {w}`"));
        } else if w.ends_with("ed") {
            e = e.with_help(
                "the only passive is `pointed at by`: say it from the other piece's side (`some piece points at a large piece`)",
            );
        } else if w == "either" {
            e = e.with_help(
                "write `is small or large`; `either ... or ... but not both` joins whole sentences",
            );
        } else if w == "the" && self.c.word_at(1) == Some("same") {
            e = e.with_help("say what is the same: `the same size`, `in the same row`, `points the same direction`");
        }
        e
    }

    // -----------------------------------------------------------------------------
    // The structure as a subject.

    /// After `the structure` / `a koan` / `koans` / `it` (the structure): `contains
    /// ...`, `is connected`, `is taller than it is wide`, `is square`, `is a single
    /// row`, `is at least 3 wide`.
    fn structure_rest(&mut self, start: usize) -> R<Formula> {
        if self.c.eat_word("'s") {
            return Err(self.c.expected("`is`, `has` or `contains`"));
        }
        let lacks = [
            &["does", "not", "have"][..],
            &["do", "not", "have"],
            &["doesn't", "have"],
            &["don't", "have"],
            &["does", "not", "contain"],
            &["do", "not", "contain"],
            &["doesn't", "contain"],
            &["don't", "contain"],
            &["lacks"],
        ];
        if let Some(h) = lacks.iter().find(|h| self.c.is_words(h)) {
            self.c.pos += h.len();
            // Under the negation `any` is `a`: `it cannot contain any large piece`.
            return self.existential(start, true);
        }
        let has = [
            &["contains"][..],
            &["contain"],
            &["has"],
            &["have"],
            &["needs"],
            &["need"],
            &["requires"],
            &["require"],
            &["consists", "of"],
            &["consist", "of"],
            &["is", "made", "of"],
            &["is", "made", "up", "of"],
            &["includes"],
            &["include"],
        ];
        if let Some(h) = has.iter().find(|h| self.c.is_words(h)) {
            self.c.pos += h.len();
            return self.existential(start, false);
        }
        let neg = if self.c.eat_word("is") || self.c.eat_word("are") {
            self.c.eat_word("not")
        } else if self.c.eat_word("isn't") || self.c.eat_word("aren't") {
            true
        } else if self.c.eat_word("forms") || self.c.eat_word("form") {
            false
        } else {
            return Err(self.c.expected(
                "`is connected`, `contains ...`, `has ...` or `is taller than it is wide`",
            ));
        };
        let g = self.structure_complement(start)?;
        Ok(if neg {
            not(self.span_from(start), g)
        } else {
            g
        })
    }

    fn structure_complement(&mut self, start: usize) -> R<Formula> {
        let here = self.start();
        let width = |p: &Parser<Pieces>| Term::new(p.span_from(here), TermKind::Width);
        let height = |p: &Parser<Pieces>| Term::new(p.span_from(here), TermKind::Height);
        let w = |p: &Parser<Pieces>, k| p.c.word_at(k).unwrap_or("").to_string();
        let tall = |s: &str| matches!(s, "tall" | "high");
        let wide = |s: &str| matches!(s, "wide" | "broad");
        self.c.eat_word("all");
        if self.c.eat_word("connected")
            || self.c.eat_words(&["one", "group"])
            || self.c.eat_words(&["one", "connected", "group"])
            || self.c.eat_words(&["a", "single", "group"])
            || self.c.eat_words(&["a", "single", "connected", "group"])
        {
            let groups = Term::new(self.span_from(here), TermKind::Groups);
            return Ok(cmp(
                CmpOp::Eq,
                groups,
                int(1, here..here),
                self.span_from(start),
            ));
        }
        // `taller than it is wide`, `wider than tall`, `as wide as it is tall`.
        let (w0, w1) = (w(self, 0), w(self, 1));
        let taller = matches!(w0.as_str(), "taller" | "higher");
        let wider = matches!(w0.as_str(), "wider" | "broader");
        if (taller || wider) && w1 == "than" {
            self.c.pos += 2;
            self.c.eat_words(&["it", "is"]);
            self.c.eat_word("it's");
            let other = w(self, 0);
            if (taller && !wide(&other)) || (wider && !tall(&other)) {
                return Err(self.c.expected(if taller { "`wide`" } else { "`tall`" }));
            }
            self.c.bump();
            let (a, b) = if taller {
                (height(self), width(self))
            } else {
                (width(self), height(self))
            };
            return Ok(cmp(CmpOp::Gt, a, b, self.span_from(start)));
        }
        if w0 == "as" && (tall(&w1) || wide(&w1)) && w(self, 2) == "as" {
            self.c.pos += 3;
            self.c.eat_words(&["it", "is"]);
            self.c.eat_word("it's");
            if !(tall(&w(self, 0)) || wide(&w(self, 0))) {
                return Err(self.c.expected("`tall` or `wide`"));
            }
            self.c.bump();
            return Ok(cmp(
                CmpOp::Eq,
                width(self),
                height(self),
                self.span_from(start),
            ));
        }
        if self.c.eat_word("square") || self.c.eat_words(&["a", "square"]) {
            return Ok(cmp(
                CmpOp::Eq,
                width(self),
                height(self),
                self.span_from(start),
            ));
        }
        // `a single row`, `one column`, `in a single row`.
        let save = self.c.pos;
        self.c.eat_word("in");
        self.c.eat_word("on");
        if self.c.eat_words(&["a", "single"])
            || self.c.eat_word("one")
            || self.c.eat_words(&["just", "one"])
            || self.c.eat_words(&["only", "one"])
        {
            let line = if self.c.eat_word("row") || self.c.eat_words(&["horizontal", "line"]) {
                Some(TermKind::Height)
            } else if self.c.eat_word("column") || self.c.eat_words(&["vertical", "line"]) {
                Some(TermKind::Width)
            } else {
                None
            };
            if let Some(kind) = line {
                let t = Term::new(self.span_from(here), kind);
                return Ok(cmp(CmpOp::Eq, t, int(1, here..here), self.span_from(start)));
            }
        }
        // `3 wide`, `at least 3 tall`, `exactly two high`: from where we started.
        self.c.pos = save;
        let num = if let Some(n) = self.number_at(0) {
            self.c.bump();
            Some(Num::Cmp(CmpOp::Eq, n))
        } else {
            match self.det(false) {
                Ok(Some(DetS {
                    det: Det::Num(num), ..
                })) => Some(num),
                _ => None,
            }
        };
        // `three pieces wide`.
        if num.is_some()
            && matches!(
                self.c.word(),
                Some("pieces" | "piece" | "cells" | "squares")
            )
        {
            self.c.bump();
        }
        if let Some(num) = num {
            let kind = if wide(&w(self, 0)) {
                Some(TermKind::Width)
            } else if tall(&w(self, 0)) {
                Some(TermKind::Height)
            } else {
                None
            };
            if let Some(kind) = kind {
                self.c.bump();
                let t = Term::new(self.span_from(here), kind);
                return Ok(num.holds_of(t, self.span_from(start)));
            }
        }
        self.c.pos = save;
        Err(self.c.expected(
            "`connected`, `square`, `a single row`, `taller than it is wide` or a size such as `3 wide`",
        ))
    }

    /// Kory Heath's `A koan has the Buddha-nature if S` (also `iff`, `when`,
    /// `whenever`, `only if`; `koans`, `it`), `... does not have ... if S` (not S),
    /// and a following `otherwise it does (not)`.
    fn framed_pieces(&mut self) -> R<Formula> {
        let start = self.start();
        let save = self.c.pos;
        let subject = [
            &["a", "koan"][..],
            &["the", "koan"],
            &["koans"],
            &["any", "koan"],
            &["every", "koan"],
            &["a", "structure"],
            &["the", "structure"],
            &["it"],
        ];
        let Some(s) = subject.iter().find(|s| self.c.is_words(s)) else {
            return self.sentence();
        };
        self.c.pos += s.len();
        // `a koan with the Buddha-nature has a small piece`.
        if self.c.is_word("with") {
            self.c.bump();
            let the = self.c.eat_word("the");
            if self.c.eat_word("buddha-nature") || self.c.eat_words(&["buddha", "nature"]) {
                return self.structure_rest(start);
            }
            if the {
                self.c.pos -= 1;
            }
            // `koans with a big piece have the Buddha-nature`: those koans.
            let at = self.start();
            if let Ok(f) = self.existential(at, false)
                && (self.c.eat_words(&["have", "the"]) || self.c.eat_words(&["has", "the"]))
                && (self.c.eat_word("buddha-nature") || self.c.eat_words(&["buddha", "nature"]))
            {
                return Ok(f.respan(self.span_from(start)));
            }
            self.c.pos = save;
            return self.sentence();
        }
        let negated = if self.c.eat_word("has")
            || self.c.eat_word("have")
            || self.c.eat_word("contains")
            || self.c.eat_word("gets")
        {
            false
        } else if self.c.eat_words(&["does", "not", "have"])
            || self.c.eat_words(&["doesn't", "have"])
            || self.c.eat_words(&["do", "not", "have"])
            || self.c.eat_words(&["don't", "have"])
            || self.c.eat_word("lacks")
        {
            true
        } else {
            self.c.pos = save;
            return self.sentence();
        };
        self.c.eat_word("the");
        if !(self.c.eat_word("buddha-nature") || self.c.eat_words(&["buddha", "nature"])) {
            self.c.pos = save;
            return self.sentence();
        }
        let connectives: &[&[&str]] = &[
            &["if", "and", "only", "if"],
            &["exactly", "when"],
            &["only", "if"],
            &["only", "when"],
            &["as", "long", "as"],
            &["provided", "that"],
            &["iff"],
            &["if"],
            &["when"],
            &["whenever"],
            &["provided"],
        ];
        self.c.eat_sym(Sym::Comma);
        let Some(conn) = connectives.iter().find(|w| self.c.is_words(w)) else {
            return Err(self.c.expected("`if` and the pattern"));
        };
        self.c.pos += conn.len();
        self.c.eat_sym(Sym::Colon);
        let s = self.sentence()?;
        let save = self.c.pos;
        let _ = self.c.eat_sym(Sym::Comma) || self.c.eat_sym(Sym::Semicolon);
        if self.c.eat_word("otherwise") {
            self.c.eat_word("it");
            let rest: &[&[&str]] = if negated {
                &[&["does"], &["has", "it"], &["has"]]
            } else {
                &[&["does", "not"], &["doesn't"], &["not"]]
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

    /// After `the total pips`: optionally `of NP`.
    fn pips_rest(&mut self, start: usize) -> R<Term> {
        let x = Var(self.base);
        let body = if self.c.eat_word("of") {
            self.c.eat_word("the");
            let np = self.noun_phrase()?;
            self.lower_np(&np, x, self.base + 1, &self.discourse.clone())?
        } else {
            None
        };
        let span = self.span_from(start);
        let body = or_true(body, &span);
        Ok(Term::new(span, TermKind::PipsSum(x, Box::new(body))))
    }

    /// `(different) sizes`, `(connected) groups (of pieces)`, `pips`: reads it.
    fn counted_pieces(&mut self) -> Option<Counted> {
        let save = self.c.pos;
        while matches!(
            self.c.word(),
            Some("different" | "distinct" | "separate" | "connected" | "disconnected" | "single")
        ) {
            self.c.bump();
        }
        let separate = self.c.toks[save..self.c.pos]
            .iter()
            .any(|t| matches!(t.word(), Some("separate" | "disconnected")));
        let counted = match self.c.word() {
            Some("group" | "groups" | "island" | "islands") if separate => Counted::SeparateGroups,
            Some("size" | "sizes") => Counted::Sizes,
            Some("direction" | "directions" | "orientation" | "orientations") => {
                Counted::Directions
            }
            Some("group" | "groups" | "island" | "islands") => Counted::Groups,
            Some("pip" | "pips") => Counted::Pips,
            _ => {
                self.c.pos = save;
                return None;
            }
        };
        self.c.bump();
        if counted == Counted::Groups
            && self.c.is_word("of")
            && matches!(self.c.word_at(1), Some("pieces" | "touching" | "connected"))
        {
            self.c.bump();
            self.c.eat_word("touching");
            self.c.eat_word("connected");
            self.c.eat_word("pieces");
        }
        self.c.eat_word("present");
        Some(counted)
    }

    fn counted_pieces_term(&self, counted: Counted, span: Span) -> Term {
        let kind = match counted {
            Counted::Sizes => TermKind::Sizes,
            Counted::Directions => TermKind::Directions,
            Counted::Groups | Counted::SeparateGroups => TermKind::Groups,
            Counted::Pips => {
                let body = Formula::new(span.clone(), K::Bool(true));
                TermKind::PipsSum(Var(self.base), Box::new(body))
            }
        };
        Term::new(span, kind)
    }

    /// After `pointed`: `at by Q` (Q points at the piece).
    fn passive_rest(&mut self, start: usize) -> R<Vp<Pieces>> {
        if !self.c.eat_words(&["at", "by"]) && !self.c.eat_words(&["to", "by"]) {
            return Err(self
                .c
                .expected("`at by` and a piece")
                .with_help("say which piece points: `is pointed at by a large piece`"));
        }
        let span = self.span_from(start);
        Ok(Vp::Rel(
            BinaryPred::PointsAt,
            span,
            Box::new(self.object()?),
            true,
        ))
    }

    /// After `has` / `have`: `two pips`, `the same size as ...`, `different sizes`.
    fn have_rest(&mut self, start: usize) -> R<Vp<Pieces>> {
        if self.pips_ahead(0) {
            return self.pips_rest_vp();
        }
        for (words, coll) in [
            (&["the", "same", "size"][..], BinaryPred::SameSize),
            (
                &["the", "same", "number", "of", "pips"],
                BinaryPred::SameSize,
            ),
            (&["the", "same", "direction"], BinaryPred::SameDirection),
            (&["the", "same", "orientation"], BinaryPred::SameDirection),
        ] {
            if self.c.eat_words(words) {
                let span = self.span_from(start);
                if self.c.eat_word("as") {
                    let o = self.object()?;
                    return Ok(Vp::Rel(coll, span, Box::new(o), false));
                }
                return Ok(Vp::Collective(coll, span));
            }
        }
        for (words, coll) in [
            (&["different", "sizes"][..], BinaryPred::SameSize),
            (&["different", "directions"], BinaryPred::SameDirection),
        ] {
            if self.c.eat_words(words) {
                return Ok(Vp::Different(coll, self.span_from(start)));
            }
        }
        if self.det_ahead() {
            return self.has_object(start);
        }
        Err(self
            .c
            .expected("a number of pips (`has two pips`) or `the same size as ...`"))
    }

    /// Whether `N pip(s)` (with a number condition) starts `k` tokens ahead.
    fn pips_ahead(&self, k: usize) -> bool {
        (k..k + 5).any(|i| matches!(self.c.word_at(i), Some("pip" | "pips")))
            && !matches!(self.c.word_at(k), Some("the" | "a"))
    }

    /// `(exactly|at least|...) N pip(s)`: a piece's size, said with the sizes that
    /// have that many pips.
    fn pips_rest_vp(&mut self) -> R<Vp<Pieces>> {
        let start = self.start();
        // A piece has one number of pips, so a bare number says exactly that many.
        let bare = self
            .number_at(0)
            .filter(|_| matches!(self.c.word_at(1), Some("pip" | "pips")));
        let num = match bare {
            Some(n) => {
                self.c.bump();
                Num::Cmp(CmpOp::Eq, n)
            }
            None => self.pips_det()?,
        };
        if !(self.c.eat_word("pips") || self.c.eat_word("pip")) {
            return Err(self.c.expected("`pips`"));
        }
        self.c.eat_word("each");
        let span = self.span_from(start);
        let sizes = [
            (1, UnaryPred::Small),
            (2, UnaryPred::Medium),
            (3, UnaryPred::Large),
        ];
        let holds = |n: i64| match &num {
            Num::Cmp(op, k) => op.holds(n, *k),
            Num::OneOf(ks) => ks.contains(&n),
            Num::Range(lo, hi) => (*lo..=*hi).contains(&n),
        };
        let vp = sizes
            .iter()
            .filter(|(n, _)| holds(*n))
            .map(|(_, p)| Vp::Unary(*p, span.clone()))
            .reduce(|a, b| Vp::Or(Box::new(a), Box::new(b)));
        Ok(vp.unwrap_or_else(|| Vp::Not(Box::new(Vp::True(span.clone())), span)))
    }

    /// `exactly two` (pips), `at least 2`...
    fn pips_det(&mut self) -> R<Num> {
        Ok(match self.det(false)? {
            Some(DetS {
                det: Det::Num(num), ..
            }) => num,
            Some(DetS { det: Det::No, .. }) => Num::Cmp(CmpOp::Eq, 0),
            Some(d) => {
                return Err(ParsePatternError::new(
                    d.span,
                    "say how many pips: `exactly two pips`, `at least two pips`",
                ));
            }
            None => return Err(self.c.expected("a number of pips")),
        })
    }

    /// After `form(s)`: `one group`, `a single connected group`, `exactly two groups`.
    fn form_rest(&mut self, start: usize) -> R<Vp<Pieces>> {
        let num =
            if self.c.eat_word("one") || self.c.eat_words(&["a", "single"]) || self.c.eat_word("a")
            {
                Num::Cmp(CmpOp::Eq, 1)
            } else {
                match self.det(false)? {
                    Some(DetS {
                        det: Det::Num(n), ..
                    }) => n,
                    _ => {
                        return Err(self.c.expected(
                            "how many groups (`one connected group`, `exactly two groups`)",
                        ));
                    }
                }
            };
        self.c.eat_word("single");
        self.c.eat_word("connected");
        if !(self.c.eat_word("group") || self.c.eat_word("groups") || self.c.eat_word("shape")) {
            return Err(self.c.expected("`group`"));
        }
        Ok(Vp::Groups(num, self.span_from(start)))
    }

    /// After `point(s)`.
    fn point_rest(&mut self) -> R<Vp<Pieces>> {
        let start = self.c.prev().start;
        // `points to the left` is a direction (`is to the left of` is a place).
        for (side, d) in [("left", UnaryPred::Left), ("right", UnaryPred::Right)] {
            if self.c.is_words(&["to", "the", side]) && self.c.word_at(3) != Some("of") {
                self.c.pos += 3;
                return Ok(Vp::Unary(d, self.span_from(start)));
            }
        }
        let back = self.c.is_word("back")
            && matches!(self.c.word_at(1), Some("at" | "to" | "toward" | "towards"));
        if back {
            self.c.bump();
        }
        if matches!(self.c.word(), Some("at" | "to" | "toward" | "towards")) {
            self.c.bump();
            if self.each_other() {
                return Ok(Vp::Recip(BinaryPred::PointsAt, self.span_from(start)));
            }
            let span = self.span_from(start);
            return Ok(Vp::Rel(
                BinaryPred::PointsAt,
                span,
                Box::new(self.object()?),
                false,
            ));
        }
        // `points a different way`: no two the same way.
        if self.c.eat_words(&["a", "different", "way"])
            || self.c.eat_words(&["a", "different", "direction"])
        {
            return Ok(Vp::Different(
                BinaryPred::SameDirection,
                self.span_from(start),
            ));
        }
        let had_in = self.c.eat_word("in");
        // `point in exactly two directions`, `in all four directions`.
        if had_in {
            let save = self.c.pos;
            let det = self.det(false);
            // `in all four directions`.
            if let Ok(Some(DetS {
                det: Det::Every, ..
            })) = det
                && self.number_at(0) == Some(4)
            {
                self.c.bump();
            }
            if let Ok(Some(det)) = det
                && matches!(self.c.word(), Some("directions" | "direction"))
            {
                self.c.bump();
                let num = match det.det {
                    Det::Num(num) => Some(num),
                    Det::Every => Some(Num::Cmp(CmpOp::Eq, 4)),
                    _ => None,
                };
                if let Some(num) = num {
                    return Ok(Vp::CountOf(Counted::Directions, num, self.span_from(start)));
                }
            }
            self.c.pos = save;
        }
        if self.c.eat_words(&["the", "same", "direction"])
            || self.c.eat_words(&["the", "same", "way"])
        {
            let span = self.span_from(start);
            if self.c.eat_word("as") {
                let o = self.object()?;
                return Ok(Vp::Rel(BinaryPred::SameDirection, span, Box::new(o), false));
            }
            return Ok(Vp::Collective(BinaryPred::SameDirection, span));
        }
        if self.c.eat_words(&["the", "opposite", "direction"])
            || self.c.eat_words(&["the", "opposite", "way"])
        {
            let span = self.span_from(start);
            if self.c.is_word("from")
                || self.c.is_word("to")
                || self.c.is_word("as")
                || self.c.is_word("of")
            {
                self.c.bump();
                let o = self.object()?;
                return Ok(Vp::Rel(
                    BinaryPred::OppositeDirection,
                    span,
                    Box::new(o),
                    false,
                ));
            }
            return Err(self
                .c
                .expected("`to` and a piece (`the opposite direction to ...`)"));
        }
        if self.c.eat_words(&["opposite", "directions"]) || self.c.eat_words(&["opposite", "ways"])
        {
            return Ok(Vp::Recip(
                BinaryPred::OppositeDirection,
                self.span_from(start),
            ));
        }
        if self.c.eat_words(&["different", "directions"])
            || self.c.eat_words(&["different", "ways"])
        {
            return Ok(Vp::Different(
                BinaryPred::SameDirection,
                self.span_from(start),
            ));
        }
        let expected = "a direction (`up`, `down`, `left`, `right`, `vertically`, `horizontally`, `sideways`), `at ...` or `the same direction as ...`";
        if had_in {
            return Err(self.c.expected(expected));
        }
        self.direction_list(expected)
    }

    /// `up`, `up or down`, `up, right or down` (with `straight` before a direction).
    fn direction_list(&mut self, expected: &str) -> R<Vp<Pieces>> {
        self.c.eat_word("straight");
        // `either left or right`: a piece points one way, so `either` adds nothing.
        if self.c.is_word("either") && self.dir_at(1).is_some() && self.c.word_at(2) == Some("or") {
            self.c.bump();
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

    /// `is next to` / `adjacent to`: diagonals or not? Suggests `touches` (sharing an
    /// edge), which the caller's check keeps only if it reads.
    fn adjacent_refusal(&self, start: usize) -> ParsePatternError {
        let mut k = 1;
        if self.c.word_at(k) == Some("to") {
            k += 1;
        }
        let end = self.c.peek_at(k - 1).map_or(start, |t| t.span.end);
        // From the copula (`is next to`) when there is one.
        let verb = self
            .c
            .pos
            .checked_sub(1)
            .and_then(|i| self.c.toks.get(i))
            .filter(|t| matches!(t.word(), Some("is" | "are" | "be")));
        let mut e = ParsePatternError::new(
            start..end,
            "`next to` could include diagonal neighbours: say `touches` for pieces that share an edge",
        )
        .with_help("for pieces that share an edge write `touches ...`");
        if let Some(v) = verb {
            let plural = v.word() == Some("are");
            let each_other =
                self.c.word_at(k) == Some("each") && self.c.word_at(k + 1) == Some("other");
            let touch = if plural || each_other {
                "touch"
            } else {
                "touches"
            };
            e = e.with_example(splice(self.src, &(v.span.start..end), touch));
        } else {
            e = e.with_example(splice(self.src, &(start..end), "touching"));
        }
        e
    }
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
