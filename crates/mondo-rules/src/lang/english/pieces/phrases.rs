//! The pieces' own phrases: the structure as a noun (`a koan`), pieces at an edge,
//! `of the same size`, `of each size`, `it` as the structure, the number terms, and
//! the refusals and complements of `is` only pieces have.

use super::{Pieces, isolated};
use crate::lang::ast::{BinaryPred, CmpOp, Formula, Term, TermKind, UnaryPred};
use crate::lang::english::{Mode, Num, Obj, Parser, R, Vp, cmp, int, splice};
use crate::lang::error::ParsePatternError;
use crate::lang::words::{direction, direction_adjective, is_noun};

impl Parser<'_, Pieces> {
    /// `a koan`, `koans`, `each koan`, `the structure`, `the bounding box`: the
    /// structure as a subject; how many words.
    pub(super) fn koan_subject(&self) -> Option<usize> {
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
    pub(super) fn at_the_edge(&mut self) -> Option<Vp<Pieces>> {
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
    pub(super) fn of_the_same(&mut self) -> Option<Vp<Pieces>> {
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
    pub(super) fn of_each(&mut self, start: usize) -> Option<Formula> {
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
    pub(super) fn it_structure(&mut self, start: usize) -> R<Formula> {
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
    pub(super) fn term_pieces(&mut self, start: usize) -> Option<R<Term>> {
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
    pub(super) fn noun_refusal_pieces(&self) -> Option<ParsePatternError> {
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
    pub(super) fn complement_pieces(&mut self, start: usize) -> Option<R<Vp<Pieces>>> {
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
            // `the pieces are connected together`.
            self.c.eat_word("together");
            Ok(Vp::Groups(
                Num::Cmp(CmpOp::Eq, 1),
                self.span_from(span.start),
            ))
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
            Err(self.on_top_of_refusal(start))
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

    /// `on top of` (after `is`, or after a noun) could mean directly above at any
    /// distance, or directly above and touching: refused, with both readings offered
    /// (`directly above X`, `directly above X touching it`), each kept only if it reads.
    pub(super) fn on_top_of_refusal(&mut self, start: usize) -> ParsePatternError {
        let on = self.c.here().start;
        let span = start..self.c.peek_at(2).map_or(on, |t| t.span.end);
        let e = ParsePatternError::new(
            span.clone(),
            "`on top of` could mean directly above, or directly above and touching: say `directly above ...` (any distance) or `directly above ... touching it`",
        )
        .with_example(splice(self.src, &span, "directly above"));
        // The object as written, for the touching reading.
        let save = self.c.pos;
        self.c.pos += 3;
        let object = self.object().ok().map(|_| self.c.prev().end);
        self.c.pos = save;
        match object.and_then(|end| self.src.get(span.end..end).map(|o| (end, o))) {
            Some((end, o)) => e.with_example(splice(
                self.src,
                &(start..end),
                &format!("directly above{o} touching it"),
            )),
            None => e,
        }
    }

    /// A complement that does not read, with a hint where the word says what was meant.
    pub(super) fn complement_refusal_pieces(&self) -> ParsePatternError {
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
}
