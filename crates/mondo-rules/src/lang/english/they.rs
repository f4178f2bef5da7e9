//! `they` after a counted subject: `exactly two pieces are large and they touch`,
//! `there are exactly three pieces, all of them small`. The pronoun names the things
//! just counted (docs/patterns.md, "How people say it"): the one plural noun phrase
//! that fits it, so it is read; a sentence that counts no things that way (or names
//! others besides) keeps its refusal.

use super::{
    BinOp, CmpOp, Det, DetS, F, Mode, Np, Num, Parser, R, Spanned, Subject, Vocabulary, Vp, bin,
    not, splice,
};
use crate::lang::ast::Span;
use crate::lang::error::ParsePatternError;

/// What names the counted things after `and`.
const AFTER_AND: [&[&str]; 7] = [
    &["they"],
    &["they're"],
    &["all", "of", "them"],
    &["both", "of", "them"],
    &["each", "of", "them"],
    &["none", "of", "them"],
    &["not", "all", "of", "them"],
];

impl<V: Vocabulary> Parser<'_, V> {
    /// When the pronoun of a counted subject starts here (after `and`, or after a comma
    /// alone when `bare`) and `a` counted exactly two or more things of one kind, with
    /// nothing else named: that subject and its number.
    pub(crate) fn they_antecedent(&mut self, a: &F<V>, bare: bool) -> Option<(Subject<V>, i64)> {
        let starts = if bare {
            // `, all of them small`, `, all in the same column`, `, both pointing up`.
            matches!(self.c.word(), Some("all" | "both" | "each"))
                && (self.c.word_at(1) == Some("of") && self.c.word_at(2) == Some("them")
                    || self
                        .c
                        .word_at(1)
                        .is_some_and(|w| !V::is_noun(w) && w != "of" && w != "the"))
        } else {
            AFTER_AND.iter().any(|w| self.c.is_words(w))
        };
        if !starts {
            return None;
        }
        let n = match self.subject.as_ref()? {
            s if s.span != a.span() || s.has_rivals() => return None,
            s if !s.np.pair.is_empty() || s.np.other.is_some() => return None,
            Subject {
                det:
                    DetS {
                        det: Det::Num(Num::Cmp(CmpOp::Eq, n)),
                        ..
                    },
                ..
            } if *n >= 2 => *n,
            _ => return None,
        };
        self.subject.take().map(|s| (s, n))
    }

    /// `... and they VP` (or `, all of them ADJ`) after `first`, which counted `n`
    /// things as `s`: each of them does VP; said of them at once (`touch each other`,
    /// `are in the same row`, `are different sizes`), every two of them do.
    pub(crate) fn and_they(&mut self, s: Subject<V>, n: i64, first: F<V>, bare: bool) -> R<F<V>> {
        let start = self.c.here().start;
        let contracted = self.c.is_word("they're");
        let none = self.c.is_words(&["none", "of", "them"]);
        let not_all = self.c.eat_word("not");
        let universal = !not_all && matches!(self.c.word(), Some("all" | "each"));
        if !(self.c.eat_word("they") || contracted && self.c.eat_word("they're")) {
            self.c.bump();
            if self.c.is_words(&["of", "them"]) {
                self.c.pos += 2;
            }
        }
        let they: Span = start..self.c.prev().end;
        // A floating `all` (`they all point up`, `they are all small`) adds nothing;
        // with a `not` after it, it could be "not all" or "none" (docs/patterns.md,
        // "Scope").
        let floating = !universal && !not_all && self.c.is_word("all");
        if universal || floating {
            let at = self.c.pos;
            if floating {
                self.c.bump();
            }
            let said = start..self.c.prev().end;
            let wide = self.wide_negation(&said, true);
            self.c.pos = at;
            if let Some((neg, left)) = wide {
                let positive = splice(self.src, &neg, &left);
                let reading = |with: &str| splice(&positive, &said, with);
                return Err(ParsePatternError::new(
                    said.start..neg.end,
                    V::say(
                        "`all` and then `not` could mean that not all of them do it, or that none of them does: say which",
                    ),
                )
                .with_example(reading("not all of them"))
                .with_example(reading("none of them")));
            }
        }
        let saved = std::mem::replace(&mut self.universal_subject, true);
        let vp = if bare || contracted {
            self.copula_rest(false, start)
        } else if self.vp_start(0, Mode::Finite) {
            self.vp(Mode::Finite)
        } else {
            Err(self
                .c
                .expected(&V::say("what they do, e.g. `they point up`")))
        };
        self.universal_subject = saved;
        let vp = vp?;
        // The counted things: the subject's noun phrase and what the sentence said
        // of them.
        let mut np: Np<V> = s.np;
        if let Some(v) = s.vp {
            np.rel = Some(Box::new(match np.rel.take() {
                Some(r) => Vp::And(r, Box::new(v)),
                None => v,
            }));
        }
        np.plural = Some(true);
        let span = they.start..self.c.prev().end;
        // Two things that touch each other: all the readings of `each other` (every
        // two, each with another, one group) are one when there are only two.
        let det = if none {
            Det::No
        } else if matches!(vp, Vp::Recip(..)) && n == 2 && !not_all {
            Det::Some
        } else {
            Det::Every
        };
        let det = DetS {
            det,
            span: they,
            other: None,
            np_done: false,
        };
        let mut second = if vp.is_group() {
            self.group_sentence(&det, &np, &vp, span.clone())?
        } else {
            self.quantified(det, np, Some(vp), span.clone())?
        };
        if not_all {
            second = not(span, second);
        }
        self.subject = None;
        Ok(bin(BinOp::And, first, second))
    }
}
