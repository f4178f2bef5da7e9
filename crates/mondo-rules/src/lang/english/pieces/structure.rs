//! The structure as a subject (`the structure contains ...`, `it is square`) and Kory
//! Heath's frame (`A koan has the Buddha-nature if S`).

use super::Pieces;
use crate::lang::ast::{CmpOp, Formula, Term, TermKind};
use crate::lang::english::{Det, DetS, Logic, Num, Parser, R, cmp, int, not};
use crate::lang::lexer::Sym;

impl Parser<'_, Pieces> {
    // -----------------------------------------------------------------------------
    // The structure as a subject.

    /// After `the structure` / `a koan` / `koans` / `it` (the structure): `contains
    /// ...`, `is connected`, `is taller than it is wide`, `is square`, `is a single
    /// row`, `is at least 3 wide`.
    pub(super) fn structure_rest(&mut self, start: usize) -> R<Formula> {
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

    pub(super) fn structure_complement(&mut self, start: usize) -> R<Formula> {
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
        // `split into at least three groups`, `divided into exactly two separate groups`.
        let into = [
            &["split", "into"][..],
            &["divided", "into"],
            &["broken", "into"],
        ];
        if let Some(ws) = into.iter().find(|ws| self.c.is_words(ws)) {
            self.c.pos += ws.len();
            let Some(DetS {
                det: Det::Num(num), ..
            }) = self.det(false)?
            else {
                return Err(self.c.expected("how many groups (`exactly two groups`)"));
            };
            let _ = self.c.eat_word("separate") || self.c.eat_word("connected");
            if !(self.c.eat_word("groups") || self.c.eat_word("group")) {
                return Err(self.c.expected("`groups`"));
            }
            let groups = Term::new(self.span_from(here), TermKind::Groups);
            return Ok(num.holds_of(groups, self.span_from(start)));
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
    /// `whenever`, `only if`; `unless S` is not S; `koans`, `koan`, `it`), `... does
    /// not have ... if S` (not S),
    /// and a following `otherwise it does (not)`.
    pub(super) fn framed_pieces(&mut self) -> R<Formula> {
        let start = self.start();
        let save = self.c.pos;
        let subject = [
            &["a", "koan"][..],
            &["the", "koan"],
            &["koans"],
            &["koan"],
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
        // `... has the Buddha-nature unless S`: exactly when S does not hold, as `if`
        // is exactly when it does.
        let unless = self.c.eat_word("unless");
        let negated = negated != unless;
        if !unless {
            let Some(conn) = connectives.iter().find(|w| self.c.is_words(w)) else {
                return Err(self.c.expected("`if`, `unless` and the pattern"));
            };
            self.c.pos += conn.len();
        }
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
}
