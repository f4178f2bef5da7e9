//! The pieces' verbs and what follows them: pips and counted things, `pointed at by`,
//! `has`, `forms`, `points`, directions, and the refusal of `next to`.

use super::{Counted, Pieces};
use crate::lang::ast::{
    BinaryPred, CmpOp, Formula, FormulaKind as K, Span, Term, TermKind, UnaryPred, Var,
};
use crate::lang::english::{Det, DetS, Num, Parser, R, Vp, or_true, splice};
use crate::lang::error::ParsePatternError;
use crate::lang::lexer::Sym;
use crate::lang::words::direction;

impl Parser<'_, Pieces> {
    /// After `the total pips`: optionally `of NP`.
    pub(super) fn pips_rest(&mut self, start: usize) -> R<Term> {
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
    pub(super) fn counted_pieces(&mut self) -> Option<Counted> {
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

    pub(super) fn counted_pieces_term(&self, counted: Counted, span: Span) -> Term {
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
    pub(super) fn passive_rest(&mut self, start: usize) -> R<Vp<Pieces>> {
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
    pub(super) fn have_rest(&mut self, start: usize) -> R<Vp<Pieces>> {
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
    pub(super) fn pips_ahead(&self, k: usize) -> bool {
        (k..k + 5).any(|i| matches!(self.c.word_at(i), Some("pip" | "pips")))
            && !matches!(self.c.word_at(k), Some("the" | "a"))
    }

    /// `(exactly|at least|...) N pip(s)`: a piece's size, said with the sizes that
    /// have that many pips.
    pub(super) fn pips_rest_vp(&mut self) -> R<Vp<Pieces>> {
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
    pub(super) fn form_rest(&mut self, start: usize) -> R<Vp<Pieces>> {
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
        // `exactly two separate groups`: groups are separate by what they are.
        let _ = self.c.eat_word("connected") || self.c.eat_word("separate");
        if !(self.c.eat_word("group") || self.c.eat_word("groups") || self.c.eat_word("shape")) {
            return Err(self.c.expected("`group`"));
        }
        Ok(Vp::Groups(num, self.span_from(start)))
    }

    /// After `point(s)`.
    pub(super) fn point_rest(&mut self) -> R<Vp<Pieces>> {
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
            // `in exactly two different directions`: the directions counted are
            // different ones anyway.
            let _ = self.c.eat_word("different") || self.c.eat_word("distinct");
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
    pub(super) fn direction_list(&mut self, expected: &str) -> R<Vp<Pieces>> {
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

    pub(super) fn dir_at(&self, k: usize) -> Option<UnaryPred> {
        self.c.word_at(k).and_then(direction)
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
