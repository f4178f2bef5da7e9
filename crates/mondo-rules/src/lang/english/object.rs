//! Objects of relations: `it`, a determiner phrase, a bare plural, and two of them
//! joined by `or` / `and` (`a large piece or a medium piece`).

use super::{CmpOp, Det, DetS, Dp, Np, Num, Obj, Parser, R, Vocabulary, splice};
use crate::lang::error::ParsePatternError;

impl<V: Vocabulary> Parser<'_, V> {
    /// The object of a relation: a determiner phrase, a bare plural (`other pieces`,
    /// read as "some"), `it`, or two of them joined by `or` / `and` (`a large piece or
    /// a medium piece`: the relation holds of either).
    pub(crate) fn object(&mut self) -> R<Obj<V>> {
        let first = self.object_one()?;
        let Some(conj) = self
            .c
            .word()
            .filter(|w| matches!(*w, "or" | "and"))
            .map(str::to_string)
        else {
            return Ok(first);
        };
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
            // relative clause of a subject the verb is the sentence's own (`every
            // piece that touches a large piece or a small piece points up`); after
            // `there is` there is no verb to come (`there is a piece touching a large
            // piece and every piece points up`). Otherwise both are objects: `there is
            // a small piece touching a large piece and a medium piece` touches both.
            Ok(_) if self.verb_ahead() && (self.in_relative == 0 || !self.awaits_verb) => {
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
    pub(crate) fn det_ahead(&self) -> bool {
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

    pub(crate) fn object_one(&mut self) -> R<Obj<V>> {
        let start = self.start();
        if let Some((v, super::Named::Thing)) = self.named_at(0) {
            self.c.bump();
            return Ok(Obj::Named(v));
        }
        if matches!(self.c.word(), Some("it" | "itself")) {
            if self.c.is_word("itself") {
                return Err(ParsePatternError::new(
                    self.c.here(),
                    V::say(
                        "a piece never relates to itself here: the object of a relation is always another piece",
                    ),
                ));
            }
            return Ok(Obj::It(self.c.bump()));
        }
        if matches!(self.c.word(), Some("them" | "they")) {
            return Err(ParsePatternError::new(
                self.c.here(),
                V::say(
                    "`them` could be any pieces named before: name them again (`every other piece`, `a large piece`)",
                ),
            ));
        }
        if let Some(det) = self.det(false)? {
            let no = matches!(det.det, Det::No);
            if matches!(det.det, Det::Half(_) | Det::NoN(_)) {
                return Err(ParsePatternError::new(
                    det.span,
                    V::say(
                        "this counts the pieces of a sentence's subject; as an object say `exactly two`, `at least two`...",
                    ),
                ));
            }
            let saved = std::mem::replace(&mut self.reading_object, true);
            let np = self.licensing(no, |p| p.np_after(&det));
            self.reading_object = saved;
            let np = np?;
            self.check_object(&det, &np)?;
            return Ok(Obj::Dp(Dp { det, np }));
        }
        let saved = std::mem::replace(&mut self.reading_object, true);
        let np = self.licensing(false, Self::noun_phrase);
        self.reading_object = saved;
        let np = np?;
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
        let det = DetS {
            det: Det::Some,
            span: start..start,
            other: None,
            np_done: false,
        };
        self.check_object(&det, &np)?;
        Ok(Obj::Dp(Dp { det, np }))
    }

    /// Refuses objects that cannot be read: pairs (`adjacent tiles` as an object), and
    /// several things compared with the subject (`two tiles of the same colour`: as
    /// the subject, or as each other?).
    fn check_object(&self, det: &DetS, np: &Np<V>) -> R<()> {
        if let Some((_, at)) = np.pair.first() {
            return Err(ParsePatternError::new(
                at.clone(),
                V::say(
                    "this speaks of pairs of pieces, which a relation's object cannot be: say what the one piece is",
                ),
            ));
        }
        let several = match &det.det {
            Det::Num(Num::Cmp(op, n)) => {
                !(*op == CmpOp::Eq && *n == 1) && (*n >= 2 || matches!(op, CmpOp::Gt))
            }
            Det::Num(_) => true,
            _ => false,
        };
        if several && np.has_anchor() {
            return Err(V::anchor_plural_refusal(det.span.start..np.span.end));
        }
        Ok(())
    }
}
