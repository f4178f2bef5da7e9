//! Verb phrases: `points up`, `touches each other`, `is pointed at by ...`, `has two pips`,
//! `are in different rows`, and the complements of `is`.

use super::{
    BinaryPred, CmpOp, Coll, Det, DetS, Dp, FINITE_VERBS, Mode, Np, Num, Obj, PARTICIPLES, Parser,
    R, Sym, UnaryPred, VP_EXPECTED, Vp, splice,
};
use crate::lang::error::ParsePatternError;
use crate::lang::words::{adjective, direction, direction_adjective, is_noun};

impl Parser<'_> {
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

    pub(super) fn vp_and(&mut self, mode: Mode) -> R<(Vp, bool)> {
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
    pub(super) fn check_negation_scope(&self, after_do_not: bool) -> R<()> {
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
    pub(super) fn vp_atom(&mut self, mode: Mode) -> R<(Vp, bool)> {
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
    pub(super) fn each_other(&mut self) -> bool {
        self.c.eat_words(&["each", "other"]) || self.c.eat_words(&["one", "another"])
    }

    /// After `touch(es)`: an object, `each other`, or nothing (`no two pieces touch`).
    pub(super) fn touch_rest(&mut self, start: usize) -> R<Vp> {
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
    pub(super) fn passive_rest(&mut self, start: usize) -> R<Vp> {
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
    pub(super) fn have_rest(&mut self, start: usize) -> R<Vp> {
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
    pub(super) fn pips_ahead(&self, k: usize) -> bool {
        (k..k + 5).any(|i| matches!(self.c.word_at(i), Some("pip" | "pips")))
            && !matches!(self.c.word_at(k), Some("the" | "a"))
    }

    /// `(exactly|at least|...) N pip(s)`: a piece's size, said with the sizes that
    /// have that many pips.
    pub(super) fn pips_rest_vp(&mut self) -> R<Vp> {
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
    pub(super) fn pips_det(&mut self) -> R<Num> {
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
    pub(super) fn form_rest(&mut self, start: usize) -> R<Vp> {
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
    pub(super) fn point_rest(&mut self) -> R<Vp> {
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

    pub(super) fn comp_start(&self, k: usize) -> bool {
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
    pub(super) fn adjacent_refusal(&self, start: usize) -> ParsePatternError {
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
pub(super) fn isolated(span: super::Span) -> Vp {
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
