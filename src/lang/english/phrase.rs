//! Phrases: determiners (`exactly two`, `half of the`, `no two`, `any`, `they`,
//! `nothing`), noun phrases (adjectives, `small or large`, `an upward piece`, `a small
//! one`, elided nouns, relative clauses), objects (`it`, `a large piece or a medium
//! piece`) and verb phrases (`points up`, `touches each other`, `is pointed at by
//! ...`, `has two pips`, `are in different rows`).

use super::{
    BinaryPred, CmpOp, Coll, Det, DetS, Dp, FINITE_VERBS, Mode, Np, Num, Obj, PARTICIPLES, Parity,
    Parser, R, Sym, UnaryPred, Vp, at_least, splice,
};
use crate::lang::error::ParsePatternError;
use crate::lang::words::{adjective, direction, direction_adjective, is_noun};

const VP_EXPECTED: &str =
    "a verb phrase such as `points up`, `touches a small piece` or `is large`";

/// Words that name something other than a kind of piece, after a determiner.
fn is_structure_noun(w: &str) -> bool {
    matches!(
        w,
        "group" | "groups" | "size" | "sizes" | "direction" | "directions" | "pip" | "pips"
    )
}

impl Parser<'_> {
    // -----------------------------------------------------------------------------
    // Determiners.

    /// A determiner, or `None` when the next words are not one. `subject`: it starts
    /// a sentence (where `any` means `every`). Refuses the ambiguous ones (a bare
    /// number, `the` before one piece, `any` as an object, `most`).
    pub(super) fn det(&mut self, subject: bool) -> R<Option<DetS>> {
        let start = self.start();
        let w = self.c.word().unwrap_or("").to_string();
        let w1 = self.c.word_at(1).unwrap_or("").to_string();
        let mut other = None;
        let mut np_done = false;
        let det = match w.as_str() {
            "a" | "an" if w1 == "unique" => {
                self.c.pos += 2;
                Det::Num(Num::Cmp(CmpOp::Eq, 1))
            }
            "a" | "an" if w1 == "single" => {
                self.c.pos += 2;
                Det::Num(Num::Cmp(CmpOp::Eq, 1))
            }
            "a" | "an" | "odd" | "even" if self.parity_at().is_some() => {
                let (p, n) = self.parity_at().expect("checked");
                self.c.pos += n;
                Det::Parity(p)
            }
            "a" | "an" | "some" => {
                self.c.bump();
                Det::Some
            }
            "multiple" => {
                self.c.bump();
                Det::Num(Num::Cmp(CmpOp::Ge, 2))
            }
            "another" => {
                other = Some(self.c.bump());
                Det::Some
            }
            "every" | "each" => {
                self.c.bump();
                let _ = self.c.eat_word("one") || self.c.eat_word("single");
                Det::Every
            }
            "all" => {
                self.c.bump();
                Det::Every
            }
            "everything" | "everybody" | "everyone" => {
                self.c.bump();
                np_done = true;
                Det::Every
            }
            "something" | "somebody" | "someone" => {
                self.c.bump();
                np_done = true;
                Det::Some
            }
            "nothing" | "nobody" | "none" => {
                self.c.bump();
                // `none of the pieces` reads its noun phrase; `none points up` has none.
                np_done = w != "none" || !(self.c.is_word("of") || self.np_start());
                Det::No
            }
            "anything" | "anybody" | "anyone" => {
                let det = self.any_det(subject)?;
                np_done = true;
                det
            }
            "they" | "they're" => {
                if self.noun_before() {
                    return Err(ParsePatternError::new(
                        self.c.here(),
                        "`they` could be all the pieces or the ones named before it: name them again",
                    ));
                }
                self.c.bump();
                np_done = true;
                Det::Every
            }
            "not" if w1 == "a" && self.c.word_at(2) == Some("single") => {
                self.c.pos += 3;
                Det::No
            }
            "not" if w1 == "one" => {
                self.c.pos += 2;
                Det::No
            }
            "no" if matches!(w1.as_str(), "more" | "fewer" | "less")
                && self.c.word_at(2) == Some("than") =>
            {
                self.c.pos += 3;
                let n = self.number("than")?;
                Det::Num(Num::Cmp(
                    if w1 == "more" { CmpOp::Le } else { CmpOp::Ge },
                    n,
                ))
            }
            "no" if self.number_at(1).is_some_and(|n| n >= 2) => {
                self.c.bump();
                let n = self.number("no")?;
                Det::NoN(n)
            }
            "no" => {
                self.c.bump();
                Det::No
            }
            "zero" => {
                self.c.bump();
                Det::No
            }
            "exactly" | "precisely" if matches!(w1.as_str(), "half") => {
                self.c.pos += 2;
                Det::Half(CmpOp::Eq)
            }
            "exactly" | "precisely" => {
                self.c.bump();
                let n = self.number(&w)?;
                self.alternatives(n)?
            }
            "at" if (w1 == "least" || w1 == "most") && self.c.word_at(2) == Some("half") => {
                self.c.pos += 3;
                Det::Half(if w1 == "least" { CmpOp::Ge } else { CmpOp::Le })
            }
            "at" if w1 == "least" || w1 == "most" => {
                self.c.pos += 2;
                let n = self.number(&format!("at {w1}"))?;
                if w1 == "least" {
                    self.range(n)?.unwrap_or_else(|| at_least(n))
                } else {
                    Det::Num(Num::Cmp(CmpOp::Le, n))
                }
            }
            "more" | "over"
                if w1 == "than" && self.c.word_at(2) == Some("half")
                    || w == "over" && w1 == "half" =>
            {
                self.c.pos += if w1 == "than" { 3 } else { 2 };
                Det::Half(CmpOp::Gt)
            }
            "fewer" | "less" | "under" if w1 == "than" && self.c.word_at(2) == Some("half") => {
                self.c.pos += 3;
                Det::Half(CmpOp::Lt)
            }
            "half" => {
                self.c.bump();
                Det::Half(CmpOp::Eq)
            }
            "more" if w1 == "than" => {
                self.c.pos += 2;
                Det::Num(Num::Cmp(CmpOp::Gt, self.number("more than")?))
            }
            "fewer" | "less" if w1 == "than" => {
                self.c.pos += 2;
                Det::Num(Num::Cmp(CmpOp::Lt, self.number(&format!("{w} than"))?))
            }
            "up" if w1 == "to" && self.number_at(2).is_some() => {
                self.c.pos += 2;
                Det::Num(Num::Cmp(CmpOp::Le, self.number("up to")?))
            }
            "between" if self.number_at(1).is_some() => return Err(self.between_refusal()),
            "most" | "majority" => return Err(self.most_refusal()),
            "only" | "just" if w1 == "one" || self.number_at(1).is_some() => {
                self.c.bump();
                let n = self.number("only")?;
                self.alternatives(n)?
            }
            "only" => {
                self.c.bump();
                Det::Only
            }
            "the"
                if w1 == "unique"
                    || w1 == "only"
                    || w1 == "one" && self.c.word_at(2) == Some("and") =>
            {
                self.c.pos += 2;
                Det::TheUnique
            }
            "the" if w1 == "majority" => return Err(self.most_refusal()),
            "the" if self.plural_np_ahead(1) => {
                self.c.bump();
                Det::Every
            }
            "the" => return Err(self.the_refusal()),
            "any" => self.any_det(subject)?,
            _ if self.c.is_words(&["one", "and", "only", "one"]) => {
                self.c.pos += 4;
                Det::Num(Num::Cmp(CmpOp::Eq, 1))
            }
            _ => {
                let Some(n) = self.number_at(0) else {
                    return Ok(None);
                };
                let next = self.c.word_at(1).unwrap_or("");
                if n == 0 {
                    self.c.bump();
                    Det::No
                } else if next == "or" && self.c.word_at(2) == Some("more") {
                    self.c.pos += 3;
                    at_least(n)
                } else if next == "or" && matches!(self.c.word_at(2), Some("fewer" | "less")) {
                    self.c.pos += 3;
                    Det::Num(Num::Cmp(CmpOp::Le, n))
                } else if (next == "or" || self.c.sym_at(1) == Some(Sym::Comma))
                    && self.number_at(2).is_some()
                {
                    self.c.bump();
                    self.alternatives(n)?
                } else if n >= 2 && self.never_follows() {
                    // `two small pieces never touch`: no two do.
                    self.c.bump();
                    Det::NoN(n)
                } else if n == 1 && self.one_is_exact(1) {
                    // `one group`: `at least one` would say nothing.
                    self.c.bump();
                    Det::Num(Num::Cmp(CmpOp::Eq, 1))
                } else {
                    return Err(self.bare_number_refusal());
                }
            }
        };
        // `all of the pieces`, `exactly two of them`, `half the pieces`.
        if !np_done && !matches!(w.as_str(), "a" | "an" | "another") {
            if self.c.is_word("of")
                && matches!(self.c.word_at(1), Some("them" | "these" | "those"))
                && !self.c.word_at(2).is_some_and(is_noun)
            {
                self.c.pos += 2;
                np_done = true;
            } else if self.c.is_words(&["of", "the"]) || self.c.is_words(&["of", "these"]) {
                self.c.pos += 2;
            } else if (self.c.is_word("of") && self.c.word_at(1).is_some_and(is_noun))
                || (self.c.is_word("the") && matches!(det, Det::Every | Det::Half(_)))
            {
                self.c.bump();
            }
        }
        Ok(Some(DetS {
            det,
            span: self.span_from(start),
            other,
            np_done,
        }))
    }

    /// `an odd number of` / `odd number of`: the parity and how many words.
    fn parity_at(&self) -> Option<(Parity, usize)> {
        let article = usize::from(matches!(self.c.word(), Some("a" | "an")));
        let p = match self.c.word_at(article)? {
            "odd" => Parity::Odd,
            "even" => Parity::Even,
            _ => return None,
        };
        (self.c.word_at(article + 1) == Some("number") && self.c.word_at(article + 2) == Some("of"))
            .then_some((p, article + 3))
    }

    /// `any`: `a` under a negation or in a condition; `every` as a subject; refused
    /// elsewhere.
    fn any_det(&mut self, subject: bool) -> R<Det> {
        if self.any_licensed || self.condition > 0 {
            self.c.bump();
            return Ok(Det::Some);
        }
        if subject {
            self.c.bump();
            return Ok(Det::Every);
        }
        let span = self.c.here();
        let any = &self.src[span.clone()];
        let (every, some) = if any.len() > 3 {
            ("every piece", "some piece")
        } else {
            ("every", "some")
        };
        Err(
            ParsePatternError::new(span.clone(), "`any` can mean `every` or `some`: say which")
                .with_example(splice(self.src, &span, every))
                .with_example(splice(self.src, &span, some))
                .with_help(
                    "`any` reads as `every` at the start of a sentence, and as `a` after a negation or `if`: `does not touch any large piece`",
                ),
        )
    }

    /// After a number: `3 or 4`, `2, 3 or 4`.
    pub(super) fn alternatives(&mut self, first: i64) -> R<Det> {
        let mut ns = vec![first];
        loop {
            let step = if (self.c.is_word("or") || self.c.is_sym(Sym::Comma))
                && self.number_at(1).is_some()
            {
                1
            } else if self.c.is_sym(Sym::Comma)
                && self.c.word_at(1) == Some("or")
                && self.number_at(2).is_some()
            {
                2
            } else {
                break;
            };
            self.c.pos += step;
            ns.push(self.number("or")?);
        }
        Ok(if ns.len() == 1 {
            Det::Num(Num::Cmp(CmpOp::Eq, first))
        } else {
            Det::Num(Num::OneOf(ns))
        })
    }

    /// After `at least N`: `and at most M` (`but no more than M`) makes a range.
    pub(super) fn range(&mut self, lo: i64) -> R<Option<Det>> {
        let conj = matches!(self.c.word(), Some("and" | "but"));
        let upper = [
            &["at", "most"][..],
            &["no", "more", "than"],
            &["not", "more", "than"],
        ];
        let Some(u) = upper.iter().find(|u| {
            conj && u
                .iter()
                .enumerate()
                .all(|(k, w)| self.c.word_at(1 + k) == Some(*w))
        }) else {
            return Ok(None);
        };
        if self.number_at(1 + u.len()).is_none() {
            return Ok(None);
        }
        self.c.pos += 1 + u.len();
        let hi = self.number("at most")?;
        Ok(Some(Det::Num(Num::Range(lo, hi))))
    }

    /// Whether `one` before the word at `k` can only mean exactly one: the pieces
    /// always form at least one group, show at least one size and one direction.
    fn one_is_exact(&self, k: usize) -> bool {
        let mut k = k;
        while matches!(
            self.c.word_at(k),
            Some("connected" | "single" | "separate" | "different" | "distinct")
        ) {
            k += 1;
        }
        matches!(
            self.c.word_at(k),
            Some("group" | "size" | "direction" | "island")
        )
    }

    /// Whether `never` follows the noun phrase after the number here.
    fn never_follows(&self) -> bool {
        let mut k = 1;
        while self.c.word_at(k).is_some_and(|w| {
            adjective(w).is_some() || direction_adjective(w).is_some() || w == "other"
        }) {
            k += 1;
        }
        self.c.word_at(k).is_some_and(is_noun) && self.c.word_at(k + 1) == Some("never")
    }

    /// Whether a noun (a piece word) occurs before the current position.
    fn noun_before(&self) -> bool {
        self.c.toks[..self.c.pos].iter().any(|t| {
            t.word()
                .is_some_and(|w| is_noun(w) || matches!(w, "it" | "one" | "ones"))
        })
    }

    /// Whether the noun phrase starting `k` tokens ahead has a plural noun.
    pub(super) fn plural_np_ahead(&self, k: usize) -> bool {
        let mut i = k;
        while let Some(w) = self.c.word_at(i) {
            if is_noun(w) {
                return w.ends_with('s');
            }
            if w == "ones" {
                return true;
            }
            if adjective(w).is_none()
                && direction_adjective(w).is_none()
                && !matches!(w, "other" | "or" | "isolated" | "non")
                && !matches!(self.c.sym_at(i), Some(Sym::Comma | Sym::Minus))
            {
                return false;
            }
            i += 1;
        }
        false
    }

    /// Whether the next noun (within a few words) is plural.
    pub(super) fn noun_ahead_is_plural(&self) -> bool {
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

    pub(super) fn between_refusal(&self) -> ParsePatternError {
        let here = self.c.here();
        let (lo, hi) = (self.c.peek_at(1), self.c.peek_at(3));
        let mut e = ParsePatternError::new(
            here.clone(),
            "`between` may or may not include its ends: say `at least ... and at most ...`",
        );
        if let (Some(lo), Some(hi)) = (lo, hi)
            && self.c.word_at(2) == Some("and")
        {
            let (lo, hi) = (&self.src[lo.span.clone()], &self.src[hi.span.clone()]);
            let whole = here.start..self.c.peek_at(3).map_or(here.end, |t| t.span.end);
            e = e.with_example(splice(
                self.src,
                &whole,
                &format!("at least {lo} and at most {hi}"),
            ));
        }
        e
    }

    fn most_refusal(&self) -> ParsePatternError {
        let here = self.c.here();
        let words: &[&[&str]] = &[
            &["the", "majority", "of", "the"],
            &["the", "majority", "of"],
            &["most", "of", "the"],
            &["most"],
        ];
        let n = words
            .iter()
            .find(|ws| self.c.is_words(ws))
            .map_or(1, |ws| ws.len());
        let end = self.c.peek_at(n - 1).map_or(here.end, |t| t.span.end);
        ParsePatternError::new(
            here.clone(),
            "`most` could mean more than half, or more than any other kind: say `more than half of the`",
        )
        .with_example(splice(self.src, &(here.start..end), "more than half of the"))
    }

    fn the_refusal(&self) -> ParsePatternError {
        let span = self.c.here();
        let next = self.c.word_at(1).unwrap_or("");
        if adjective(next).is_some() || is_noun(next) || next == "other" {
            return ParsePatternError::new(
                span.clone(),
                "`the` before a piece is ambiguous (there may be several, or none): say `every`, `some` or `the unique`",
            )
            .with_example(splice(self.src, &span, "every"))
            .with_example(splice(self.src, &span, "some"))
            .with_example(splice(self.src, &span, "the unique"));
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

    // -----------------------------------------------------------------------------
    // Noun phrases.

    /// Whether a noun phrase (without determiner) starts here.
    pub(super) fn np_start(&self) -> bool {
        self.c.word().is_some_and(|w| {
            adjective(w).is_some()
                || is_noun(w)
                || direction_adjective(w).is_some()
                || matches!(w, "other" | "isolated" | "non")
        })
    }

    /// The noun phrase after a determiner: nothing more after `of them` or
    /// `everything` (but a relative clause), and the noun may be left out after a
    /// number or `some` (`at least one pointing up`, `some that are small`).
    pub(super) fn np_after(&mut self, det: &DetS) -> R<Np> {
        if det.np_done {
            let start = self.start();
            // `something small`, `nothing large`: adjectives after the word.
            let mut mods = Vec::new();
            while let Some(p) = self.c.word().and_then(adjective) {
                mods.push(Vp::Unary(p, self.c.bump()));
            }
            let rel = self.relative_clause()?;
            let mut np = Np::all(start..self.c.prev().end.max(start));
            np.mods = mods;
            np.rel = rel.map(Box::new);
            return Ok(np);
        }
        let elidable = matches!(
            det.det,
            Det::Num(_) | Det::Some | Det::Every | Det::Only | Det::Half(_)
        ) && !matches!(
            self.src.get(det.span.clone()),
            Some("a" | "an" | "A" | "An")
        );
        self.noun_phrase_with(elidable)
    }

    pub(super) fn noun_phrase(&mut self) -> R<Np> {
        self.noun_phrase_with(false)
    }

    /// Adjectives (and what stands for them), the noun, an optional relative clause.
    /// `elide`: the noun may be left out before a verb, a relative clause or the end.
    pub(super) fn noun_phrase_with(&mut self, elide: bool) -> R<Np> {
        self.enter()?;
        let start = self.start();
        let mut mods = Vec::new();
        let mut other = None;
        loop {
            if self.c.is_word("other") {
                other = Some(self.c.bump());
                continue;
            }
            let Some(m) = self.modifier()? else {
                break;
            };
            let m = self.modifier_alternatives(m)?;
            mods.push(m);
        }
        let plural = match self.c.word() {
            Some(w) if is_noun(w) => {
                let plural = w.ends_with('s');
                self.c.bump();
                Some(plural)
            }
            Some(w @ ("one" | "ones")) if !mods.is_empty() || other.is_some() => {
                let plural = w == "ones";
                self.c.bump();
                Some(plural)
            }
            _ if elide
                && (self.vp_start(0, Mode::Finite)
                    || self.vp_start(0, Mode::Participle)
                    || matches!(
                        self.c.word(),
                        Some("that" | "which" | "who" | "than" | "as")
                    )
                    || self.at_clause_end(0)) =>
            {
                None
            }
            Some(w) if matches!(w, "left" | "right") && self.c.word_at(1).is_some_and(is_noun) => {
                let here = self.c.here();
                let noun_end = self.c.peek_at(1).map_or(here.end, |t| t.span.end);
                let noun = self.c.word_at(1).unwrap_or("pieces").to_string();
                return Err(ParsePatternError::new(
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
                .with_example(splice(self.src, &here, &format!("{w}most"))));
            }
            Some(w) if is_structure_noun(w) => {
                return Err(self.c.expected("a kind of piece (`piece`, `pyramid` or `arrow`)").with_help(
                    "groups, sizes, directions and pips are counted with a number: `there are exactly two groups`, `the number of different sizes is 3`",
                ));
            }
            _ => return Err(self.c.expected("a noun (`piece`, `pyramid` or `arrow`)")),
        };
        let rel = self.relative_clause()?;
        self.leave();
        Ok(Np {
            mods,
            other,
            rel: rel.map(Box::new),
            span: self.span_from(start),
            plural,
        })
    }

    /// One adjective (or what stands for one) before the noun, as a verb phrase.
    fn modifier(&mut self) -> R<Option<Vp>> {
        let Some(w) = self.c.word().map(str::to_string) else {
            return Ok(None);
        };
        if let Some(p) = adjective(&w) {
            return Ok(Some(Vp::Unary(p, self.c.bump())));
        }
        if let Some(p) = direction_adjective(&w)
            && (self.noun_follows(1)
                || self.comparing && matches!(self.c.word_at(1), Some("than" | "as" | "and")))
        {
            return Ok(Some(Vp::Unary(p, self.c.bump())));
        }
        if w == "isolated" || w == "lone" {
            let span = self.c.bump();
            return Ok(Some(isolated(span)));
        }
        if w == "non" {
            let start = self.c.bump().start;
            self.c.eat_sym(Sym::Minus);
            let Some(p) = self.c.word().and_then(adjective) else {
                return Err(self
                    .c
                    .expected("an adjective after `non-`, e.g. `non-small`"));
            };
            self.c.bump();
            let span = self.span_from(start);
            return Ok(Some(Vp::Not(Box::new(Vp::Unary(p, span.clone())), span)));
        }
        Ok(None)
    }

    /// Whether a noun (or `one(s)`) follows within the adjectives from `k`.
    fn noun_follows(&self, k: usize) -> bool {
        let mut i = k;
        loop {
            if matches!(self.c.sym_at(i), Some(Sym::Comma | Sym::Minus)) {
                i += 1;
                continue;
            }
            let Some(w) = self.c.word_at(i) else {
                return false;
            };
            if is_noun(w) || matches!(w, "one" | "ones") {
                return true;
            }
            let modifier = adjective(w).is_some()
                || direction_adjective(w).is_some()
                || matches!(w, "or" | "isolated" | "lone" | "non" | "other");
            if !modifier {
                return false;
            }
            i += 1;
        }
    }

    /// `small or large`, `small, medium or large` before a noun: either property.
    /// `and` between adjectives is refused (both at once, or either kind?).
    fn modifier_alternatives(&mut self, first: Vp) -> R<Vp> {
        let mut alts = first;
        loop {
            let save = self.c.pos;
            let comma = self.c.eat_sym(Sym::Comma);
            let or = self.c.eat_word("or");
            if !(comma || or) {
                if self.c.is_word("and")
                    && !self.comparing
                    && self.c.word_at(1).is_some_and(|w| adjective(w).is_some())
                    && self.noun_follows(1)
                {
                    let here = self.c.here();
                    return Err(ParsePatternError::new(
                        here.clone(),
                        "`and` between adjectives could mean both at once or either kind: say `or` for either kind",
                    )
                    .with_example(splice(self.src, &here, "or")));
                }
                break;
            }
            let Some(next) = self.modifier()? else {
                self.c.pos = save;
                break;
            };
            if !(or || self.continues_alternatives()) {
                self.c.pos = save;
                break;
            }
            alts = Vp::Or(Box::new(alts), Box::new(next));
            if or {
                break;
            }
        }
        Ok(alts)
    }

    /// After `small, medium`: whether an `or` and another adjective follow.
    fn continues_alternatives(&self) -> bool {
        self.continues_alternatives_from(0) && !self.list_ends_with_and(0)
    }

    /// Whether adjectives and commas from `k` end in `or` / `and` and one more.
    fn continues_alternatives_from(&self, k: usize) -> bool {
        let end = self.list_end(k);
        matches!(self.c.word_at(end), Some("or" | "and"))
            && self
                .c
                .word_at(end + 1)
                .is_some_and(|w| adjective(w).is_some())
    }

    fn list_ends_with_and(&self, k: usize) -> bool {
        self.c.word_at(self.list_end(k)) == Some("and")
    }

    /// The first token from `k` that is neither a comma nor an adjective.
    fn list_end(&self, k: usize) -> usize {
        let mut k = k;
        while matches!(self.c.sym_at(k), Some(Sym::Comma))
            || self.c.word_at(k).is_some_and(|w| adjective(w).is_some())
        {
            k += 1;
        }
        k
    }

    /// `that/which VP`, a participle, or a place (`pieces above a large piece`),
    /// with more clauses joined by `and that`.
    fn relative_clause(&mut self) -> R<Option<Vp>> {
        let first = if matches!(self.c.word(), Some("that" | "which" | "who")) {
            self.c.bump();
            self.relative(Mode::Finite)?
        } else if self.vp_start(0, Mode::Participle) {
            self.relative(Mode::Participle)?
        } else if self.place_start(0) {
            self.in_relative += 1;
            let r = self.comp_atom();
            self.in_relative -= 1;
            r?
        } else if self.c.is_word("with") && self.pips_ahead(1) {
            self.c.bump();
            self.pips_rest_vp()?
        } else if matches!(self.c.word(), Some("next" | "adjacent" | "beside"))
            && (self.c.word_at(1) == Some("to") || self.c.is_word("beside"))
        {
            // `a piece next to a large piece`: diagonals or not? Refused with the
            // `touching` it most likely means (kept only if it reads).
            let start = self.start();
            return Err(self.adjacent_refusal(start));
        } else {
            return Ok(None);
        };
        Ok(Some(self.joined_relatives(first)?))
    }

    /// Whether a complement that speaks of the pieces at once follows (`in the same
    /// row`, `the same size`, `of different sizes`), with no `as` and a piece after it.
    pub(super) fn group_complement_ahead(&self) -> bool {
        let w = |i: usize| self.c.word_at(i).unwrap_or("");
        let k = usize::from(w(0) == "all");
        let same = |i: usize| {
            (matches!(w(i), "in" | "on")
                && w(i + 1) == "the"
                && w(i + 2) == "same"
                && matches!(w(i + 3), "row" | "column")
                && w(i + 4) != "as")
                || (w(i) == "the" && w(i + 1) == "same" && w(i + 2) == "size" && w(i + 3) != "as")
                || (w(i) == "of"
                    && w(i + 1) == "the"
                    && w(i + 2) == "same"
                    && w(i + 3) == "size"
                    && w(i + 4) != "as")
        };
        let different = |i: usize| {
            (matches!(w(i), "in" | "on" | "of") && w(i + 1) == "different")
                || (w(i) == "different"
                    && matches!(w(i + 1), "rows" | "columns" | "sizes" | "directions"))
        };
        same(k) || different(k)
    }

    /// A place or comparison that can follow a noun directly: `above ...`,
    /// `larger than ...`, `in the same row as ...`.
    fn place_start(&self, k: usize) -> bool {
        let w = |i: usize| self.c.word_at(k + i).unwrap_or("");
        match w(0) {
            "above" | "below" | "directly" | "beneath" | "under" => {
                w(0) != "under" || w(1) != "half"
            }
            "larger" | "bigger" | "smaller" | "higher" | "lower" => w(1) == "than",
            "left" | "right" => w(1) == "of",
            "to" => w(1) == "the" && matches!(w(2), "left" | "right") && w(3) == "of",
            "in" => {
                w(1) == "the" && w(2) == "same" && matches!(w(3), "row" | "column") && w(4) == "as"
            }
            _ => false,
        }
    }

    /// The verb phrase of one relative clause (after `that`, or a participle).
    fn relative(&mut self, mode: Mode) -> R<Vp> {
        if !self.vp_start(0, mode) {
            return Err(self.c.expected(VP_EXPECTED));
        }
        self.in_relative += 1;
        let r = self.vp(mode);
        self.in_relative -= 1;
        let r = r?;
        if r.is_group() && !(self.group_relative && self.in_relative == 0) {
            return Err(ParsePatternError::new(
                r.span(),
                "this speaks of several pieces at once, so it cannot describe one piece: make it a sentence of its own",
            ));
        }
        Ok(r)
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

    // -----------------------------------------------------------------------------
    // Objects.

    /// The object of a relation: a determiner phrase, a bare plural (`other pieces`,
    /// read as "some"), `it`, or two of them joined by `or` / `and` (`a large piece or
    /// a medium piece`: the relation holds of either).
    pub(super) fn object(&mut self) -> R<Obj> {
        let first = self.object_one()?;
        let Some(conj) = self
            .c
            .word()
            .filter(|w| matches!(*w, "or" | "and"))
            .map(str::to_string)
        else {
            return Ok(first);
        };
        // Inside a relative clause, `and` could as well join a list of things there
        // are (`there is a piece touching a large piece and a small piece`): leave it.
        if conj == "and" && self.in_relative > 0 {
            return Ok(first);
        }
        let save = self.c.pos;
        let subject = self.subject.clone();
        self.c.bump();
        let starts_object = self.c.word().is_some_and(|w| {
            matches!(w, "it" | "nothing" | "something" | "everything" | "another")
        }) || self.np_start()
            || self.det_ahead();
        if !starts_object {
            self.c.pos = save;
            return Ok(first);
        }
        match self.object() {
            // What follows is a sentence of its own (`... or some piece points up`),
            // or a verb phrase (`touches a small piece and points up`). Inside a
            // relative clause the verb is the sentence's own (`every piece that touches
            // a large piece or a small piece points up`).
            Ok(_) if self.vp_start(0, Mode::Finite) && self.in_relative == 0 => {
                self.c.pos = save;
                self.subject = subject;
                Ok(first)
            }
            Ok(second) => Ok(if conj == "or" {
                Obj::Or(Box::new(first), Box::new(second))
            } else {
                Obj::And(Box::new(first), Box::new(second))
            }),
            Err(_) => {
                self.c.pos = save;
                self.subject = subject;
                Ok(first)
            }
        }
    }

    /// Whether a determiner starts here (without reading it).
    fn det_ahead(&self) -> bool {
        self.number_at(0).is_some()
            || self.c.word().is_some_and(|w| {
                matches!(
                    w,
                    "a" | "an"
                        | "some"
                        | "every"
                        | "each"
                        | "all"
                        | "no"
                        | "exactly"
                        | "at"
                        | "more"
                        | "fewer"
                        | "less"
                        | "only"
                        | "the"
                        | "any"
                )
            })
    }

    fn object_one(&mut self) -> R<Obj> {
        let start = self.start();
        if matches!(self.c.word(), Some("it" | "itself")) {
            if self.c.is_word("itself") {
                return Err(ParsePatternError::new(
                    self.c.here(),
                    "a piece never relates to itself here: the object of a relation is always another piece",
                ));
            }
            return Ok(Obj::It(self.c.bump()));
        }
        if matches!(self.c.word(), Some("them" | "they")) {
            return Err(ParsePatternError::new(
                self.c.here(),
                "`them` could be any pieces named before: name them again (`every other piece`, `a large piece`)",
            ));
        }
        if let Some(det) = self.det(false)? {
            let no = matches!(det.det, Det::No);
            if matches!(det.det, Det::Half(_) | Det::NoN(_)) {
                return Err(ParsePatternError::new(
                    det.span,
                    "this counts the pieces of a sentence's subject; as an object say `exactly two`, `at least two`...",
                ));
            }
            let np = self.licensing(no, |p| p.np_after(&det))?;
            return Ok(Obj::Dp(Dp { det, np }));
        }
        let np = self.licensing(false, Self::noun_phrase)?;
        if np.plural != Some(true) {
            let noun = self.src[np.span.clone()].to_string();
            return Err(ParsePatternError::new(
                start..np.span.end,
                format!(
                    "`{noun}` needs a determiner here, such as `a`, `every`, `no` or `exactly two`"
                ),
            )
            .with_example(splice(self.src, &(start..start), "a ")));
        }
        Ok(Obj::Dp(Dp {
            det: DetS {
                det: Det::Some,
                span: start..start,
                other: None,
                np_done: false,
            },
            np,
        }))
    }

    // -----------------------------------------------------------------------------
    // Verb phrases.

    pub(super) fn vp_start(&self, k: usize, mode: Mode) -> bool {
        let Some(w) = self.c.word_at(k) else {
            return false;
        };
        match mode {
            Mode::Finite => FINITE_VERBS.contains(&w),
            Mode::Participle => {
                (PARTICIPLES.contains(&w)
                    && (w != "pointed" || self.c.word_at(k + 1) == Some("at")))
                    || (w == "not"
                        && self
                            .c
                            .word_at(k + 1)
                            .is_some_and(|n| PARTICIPLES.contains(&n)))
            }
        }
    }

    pub(super) fn vp(&mut self, mode: Mode) -> R<Vp> {
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
                self.c.bump();
                (self.touch_rest(start)?, false)
            }
            (Mode::Participle, "pointed") => {
                self.c.bump();
                (self.passive_rest(start)?, false)
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
            (Mode::Finite, "has" | "have") => {
                self.c.bump();
                (self.have_rest(start)?, false)
            }
            (Mode::Finite, "exist" | "exists" | "appear" | "appears" | "occur" | "occurs") => {
                (Vp::True(self.c.bump()), false)
            }
            (Mode::Finite, "form" | "forms") => {
                self.c.bump();
                (self.form_rest(start)?, false)
            }
            (Mode::Finite, "does" | "do" | "doesn't" | "don't") => {
                self.c.bump();
                if matches!(w.as_str(), "does" | "do") && !self.c.eat_word("not") {
                    return Err(self.c.expected("`not`"));
                }
                if !matches!(
                    self.c.word(),
                    Some(
                        "point"
                            | "points"
                            | "face"
                            | "faces"
                            | "touch"
                            | "touches"
                            | "have"
                            | "has"
                            | "exist"
                            | "appear"
                            | "occur"
                            | "form"
                    )
                ) {
                    return Err(self
                        .c
                        .expected("`point`, `face` or `touch`")
                        .with_help("to negate `is`, write `is not`"));
                }
                let (v, _) = self.licensing(true, |p| p.vp_atom(Mode::Finite))?;
                if v.is_group() {
                    return Err(ParsePatternError::new(
                        self.span_from(start),
                        "a negated `each other` or `the same ...` is ambiguous (not all of them, or none?): say `no two pieces ...` or `not all pieces ...`",
                    ));
                }
                (Vp::Not(Box::new(v), self.span_from(start)), true)
            }
            (Mode::Participle, "not") => {
                self.c.bump();
                let (v, _) = self.licensing(true, |p| p.vp_atom(Mode::Participle))?;
                (Vp::Not(Box::new(v), self.span_from(start)), false)
            }
            _ => return Err(self.c.expected(VP_EXPECTED)),
        };
        self.leave();
        Ok(r)
    }

    /// `each other` / `one another`, if next.
    fn each_other(&mut self) -> bool {
        self.c.eat_words(&["each", "other"]) || self.c.eat_words(&["one", "another"])
    }

    /// After `touch(es)`: an object, `each other`, or nothing (`no two pieces touch`).
    fn touch_rest(&mut self, start: usize) -> R<Vp> {
        if self.each_other() {
            return Ok(Vp::Recip(BinaryPred::Touches, self.span_from(start)));
        }
        if self.at_clause_end(0) || self.c.is_word("than") {
            return Ok(Vp::Recip(BinaryPred::Touches, self.span_from(start)));
        }
        let span = self.span_from(start);
        Ok(Vp::Rel(
            BinaryPred::Touches,
            span,
            Box::new(self.object()?),
            false,
        ))
    }

    /// After `pointed`: `at by Q` (Q points at the piece).
    fn passive_rest(&mut self, start: usize) -> R<Vp> {
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
    fn have_rest(&mut self, start: usize) -> R<Vp> {
        if self.pips_ahead(0) {
            return self.pips_rest_vp();
        }
        for (words, coll) in [
            (&["the", "same", "size"][..], Coll::Size),
            (&["the", "same", "number", "of", "pips"], Coll::Size),
            (&["the", "same", "direction"], Coll::Direction),
            (&["the", "same", "orientation"], Coll::Direction),
        ] {
            if self.c.eat_words(words) {
                let span = self.span_from(start);
                if self.c.eat_word("as") {
                    let o = self.object()?;
                    return Ok(Vp::Rel(coll.pred(), span, Box::new(o), false));
                }
                return Ok(Vp::Collective(coll, span));
            }
        }
        for (words, coll) in [
            (&["different", "sizes"][..], Coll::Size),
            (&["different", "directions"], Coll::Direction),
        ] {
            if self.c.eat_words(words) {
                return Ok(Vp::Different(coll, self.span_from(start)));
            }
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
    fn pips_rest_vp(&mut self) -> R<Vp> {
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
    fn form_rest(&mut self, start: usize) -> R<Vp> {
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
    fn point_rest(&mut self) -> R<Vp> {
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
        let had_in = self.c.eat_word("in");
        if self.c.eat_words(&["the", "same", "direction"])
            || self.c.eat_words(&["the", "same", "way"])
        {
            let span = self.span_from(start);
            if self.c.eat_word("as") {
                let o = self.object()?;
                return Ok(Vp::Rel(BinaryPred::SameDirection, span, Box::new(o), false));
            }
            return Ok(Vp::Collective(Coll::Direction, span));
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
            return Ok(Vp::Different(Coll::Direction, self.span_from(start)));
        }
        let expected = "a direction (`up`, `down`, `left`, `right`, `vertically`, `horizontally`, `sideways`), `at ...` or `the same direction as ...`";
        if had_in {
            return Err(self.c.expected(expected));
        }
        self.direction_list(expected)
    }

    /// `up`, `up or down`, `up, right or down` (with `straight` before a direction).
    pub(super) fn direction_list(&mut self, expected: &str) -> R<Vp> {
        self.c.eat_word("straight");
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

    pub(super) fn dir_at(&self, k: usize) -> Option<UnaryPred> {
        self.c.word_at(k).and_then(direction)
    }

    fn comp_start(&self, k: usize) -> bool {
        let w = |i: usize| self.c.word_at(k + i).unwrap_or("");
        match w(0) {
            "not" => self.comp_start(k + 1),
            "isolated" | "alone" | "present" | "connected" | "pointed" => true,
            "pointing" | "facing" | "touching" => true,
            "different" | "of" => true,
            _ => {
                self.place_start(k) || adjective(w(0)).is_some() || w(0) == "the" && w(1) == "same"
            }
        }
    }

    /// After `is` / `are` (and `not`): adjectives and relations joined by `and`/`or`
    /// (`and` binding tighter).
    pub(super) fn copula_rest(&mut self, neg: bool, start: usize) -> R<Vp> {
        // `the pieces are all small`: a floating `all` adds nothing to `all`.
        if matches!(self.c.word(), Some("all" | "each" | "both"))
            && !self.c.is_words(&["all", "of"])
        {
            if !self.universal_subject {
                return Err(ParsePatternError::new(
                    self.c.here(),
                    "`all` here speaks of every piece, but the sentence starts with another number: say `all` once",
                ));
            }
            self.c.bump();
        }
        let first = if neg {
            self.licensing(true, Self::comp_atom)?
        } else {
            self.comp_atom()?
        };
        let first = if neg {
            if first.is_group() {
                return Err(ParsePatternError::new(
                    self.span_from(start),
                    "a negated `the same ...` is ambiguous (not all of them, or none?): say `no two pieces ...` or `not all pieces ...`",
                ));
            }
            Vp::Not(Box::new(first), self.span_from(start))
        } else {
            first
        };
        let mut ors = vec![first];
        loop {
            // `small, medium, or large`: the comma before the last one adds nothing.
            if self.c.is_sym(Sym::Comma)
                && matches!(self.c.word_at(1), Some("and" | "or"))
                && self.comp_start(2)
            {
                self.c.bump();
            }
            // `small, medium or large`: a comma takes the conjunction that ends the list.
            let comma = self.c.is_sym(Sym::Comma)
                && self.c.word_at(1).is_some_and(|w| adjective(w).is_some())
                && self.continues_alternatives_from(1);
            if !(comma || matches!(self.c.word(), Some("and" | "or")) && self.comp_start(1)) {
                break;
            }
            let is_and = if comma {
                self.list_ends_with_and(1)
            } else {
                self.c.is_word("and")
            };
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

    /// One complement of `is`: an adjective, a predicate nominal, a place or
    /// comparison with its object, or what speaks of the pieces at once (`the same
    /// size`, `in different rows`, `connected`).
    pub(super) fn comp_atom(&mut self) -> R<Vp> {
        self.enter()?;
        let start = self.start();
        let w = self.c.word().unwrap_or("").to_string();
        let rel = |p: &mut Parser, pred: BinaryPred, n: usize| -> R<Vp> {
            p.c.pos += n;
            let span = p.span_from(start);
            Ok(Vp::Rel(pred, span, Box::new(p.object()?), false))
        };
        let is = |p: &Parser, ws: &[&str]| p.c.is_words(ws);
        let coll_word = |w: &str| match w {
            "row" | "rows" => Some(Coll::Row),
            "column" | "columns" => Some(Coll::Column),
            "size" | "sizes" => Some(Coll::Size),
            "direction" | "directions" => Some(Coll::Direction),
            _ => None,
        };
        let r = if w == "not" {
            self.c.bump();
            let a = self.licensing(true, Self::comp_atom)?;
            Vp::Not(Box::new(a), self.span_from(start))
        } else if let Some(p) = adjective(&w) {
            Vp::Unary(p, self.c.bump())
        } else if w == "isolated" || w == "alone" {
            isolated(self.c.bump())
        } else if let Some(p) = direction_adjective(&w) {
            // `is upward`, `is up-pointing`.
            Vp::Unary(p, self.c.bump())
        } else if w == "present" || w == "there" && self.at_clause_end(1) {
            Vp::True(self.c.bump())
        } else if w == "connected" {
            let span = self.c.bump();
            if self.c.is_word("to") {
                let to = span.start..self.c.here().end;
                return Err(ParsePatternError::new(
                    to.clone(),
                    "`connected to` could mean touching or joined through other pieces: say `touches ...`",
                ));
            }
            Vp::Groups(Num::Cmp(CmpOp::Eq, 1), span)
        } else if (w == "a" || w == "an")
            && self.c.word_at(1).is_some_and(|n| {
                adjective(n).is_some()
                    || is_noun(n)
                    || direction_adjective(n).is_some()
                    || n == "isolated"
            })
        {
            self.c.bump();
            let np = self.noun_phrase()?;
            let mut mods = np.mods;
            if let Some(rel) = np.rel {
                mods.push(*rel);
            }
            Vp::Adjs(mods, self.span_from(start))
        } else if w == "above" || w == "over" && !self.c.is_words(&["over", "half"]) {
            rel(self, BinaryPred::Above, 1)?
        } else if w == "below" || w == "beneath" || w == "under" {
            rel(self, BinaryPred::Below, 1)?
        } else if (w == "higher" || w == "lower") && self.c.word_at(1) == Some("than") {
            let pred = if w == "higher" {
                BinaryPred::Above
            } else {
                BinaryPred::Below
            };
            rel(self, pred, 2)?
        } else if is(self, &["directly", "above"]) || is(self, &["directly", "over"]) {
            rel(self, BinaryPred::DirectlyAbove, 2)?
        } else if is(self, &["directly", "below"])
            || is(self, &["directly", "beneath"])
            || is(self, &["directly", "under"])
        {
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
        } else if let Some(n) = [
            &["in", "one"][..],
            &["in", "a", "single"],
            &["in", "just", "one"],
            &["on", "one"],
        ]
        .iter()
        .find(|ws| self.c.is_words(ws))
        .map(|ws| ws.len())
        .filter(|n| matches!(self.c.word_at(*n), Some("row" | "column")))
        {
            // `in one row`: all in the same row.
            let coll = coll_word(self.c.word_at(n).unwrap_or("")).expect("row or column");
            self.c.pos += n + 1;
            Vp::Collective(coll, self.span_from(start))
        } else if (is(self, &["in", "the", "same"]) || is(self, &["on", "the", "same"]))
            && matches!(self.c.word_at(3), Some("row" | "column"))
        {
            let coll = coll_word(self.c.word_at(3).unwrap_or("")).expect("row or column");
            self.c.pos += 4;
            if self.c.is_word("as") {
                rel(self, coll.pred(), 1)?
            } else {
                Vp::Collective(coll, self.span_from(start))
            }
        } else if is(self, &["the", "same", "size"]) || is(self, &["of", "the", "same", "size"]) {
            self.c.pos += if w == "of" { 4 } else { 3 };
            if self.c.is_word("as") {
                rel(self, BinaryPred::SameSize, 1)?
            } else {
                Vp::Collective(Coll::Size, self.span_from(start))
            }
        } else if (is(self, &["in", "different"]) || is(self, &["on", "different"]))
            && coll_word(self.c.word_at(2).unwrap_or("")).is_some()
        {
            let coll = coll_word(self.c.word_at(2).unwrap_or("")).expect("checked");
            self.c.pos += 3;
            Vp::Different(coll, self.span_from(start))
        } else if (w == "different" || is(self, &["of", "different"]))
            && coll_word(self.c.word_at(if w == "of" { 2 } else { 1 }).unwrap_or("")).is_some()
        {
            let k = if w == "of" { 2 } else { 1 };
            let coll = coll_word(self.c.word_at(k).unwrap_or("")).expect("checked");
            self.c.pos += k + 1;
            Vp::Different(coll, self.span_from(start))
        } else if PARTICIPLES.contains(&w.as_str()) {
            self.vp_atom(Mode::Participle)?.0
        } else if matches!(
            w.as_str(),
            "next" | "adjacent" | "beside" | "neighbouring" | "neighboring" | "near"
        ) {
            return Err(self.adjacent_refusal(start));
        } else if is(self, &["on", "top", "of"]) {
            let span = start..self.c.peek_at(2).map_or(start, |t| t.span.end);
            return Err(ParsePatternError::new(
                span,
                "`on top of` could mean directly above, or directly above and touching: say `is directly above ...` (any distance) or add `and touches ...`",
            ));
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
            if direction(&w).is_some() || direction_adjective(&w).is_some() {
                e = e.with_help(format!("for a direction write `points {w}`"));
            } else if w.ends_with("ed") {
                e = e.with_help(
                    "the only passive is `pointed at by`: say it from the other piece's side (`some piece points at a large piece`)",
                );
            } else if w == "either" {
                e = e.with_help("write `is small or large`; `either ... or ... but not both` joins whole sentences");
            } else if w == "the" && self.c.word_at(1) == Some("same") {
                e = e.with_help("say what is the same: `the same size`, `in the same row`, `points the same direction`");
            }
            return Err(e);
        };
        self.leave();
        Ok(r)
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
fn isolated(span: super::Span) -> Vp {
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
