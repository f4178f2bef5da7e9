//! Sentences: connectives (`if ... then`, `if S, S`, `S if S`, `S only if S`, `S
//! unless S`, `iff`, `or`, `and`, `either ... but not both`, `not`, `it is not the
//! case that`), anaphora across them (`... and it is large`, `if a piece ..., it
//! ...`), and the atomic sentences: `there is`, `Det NP VP`, fragments (`no large
//! pieces`), the pieces at once (`all pieces point the same direction`, `no two
//! pieces touch`), and the structure (`the structure is taller than it is wide`).

use super::{
    BinOp, CmpOp, Det, F, FormulaKind, Logic, Mode, Parser, R, Spanned, Subject, Sym, Var,
    Vocabulary, Vp, and_opt, bin, cmp, count, f, int, not, or_true, splice,
};
use crate::lang::error::ParsePatternError;

/// The negations of a whole clause.
const WIDE: [&[&str]; 8] = [
    &["it", "is", "not", "the", "case", "that"],
    &["it", "isn't", "the", "case", "that"],
    &["it's", "not", "the", "case", "that"],
    &["it", "is", "not", "true", "that"],
    &["it", "isn't", "true", "that"],
    &["it's", "not", "true", "that"],
    &["it", "is", "false", "that"],
    &["it's", "false", "that"],
];

impl<V: Vocabulary> Parser<'_, V> {
    /// The loosest level: `S iff S`, `S if S`, `S only if S`, `S unless S`.
    pub(crate) fn sentence(&mut self) -> R<F<V>> {
        self.enter()?;
        self.subject = None;
        let mut a = self.if_then()?;
        loop {
            let save = self.c.pos;
            self.c.eat_sym(Sym::Comma);
            let conn = if self.c.eat_word("iff") || self.c.eat_words(&["if", "and", "only", "if"]) {
                BinOp::Iff
            } else if self.c.eat_words(&["only", "if"]) {
                BinOp::Implies
            } else if self.c.eat_word("if") || self.c.eat_word("whenever") {
                BinOp::Or
            } else if self.c.eat_word("unless") {
                BinOp::Xor
            } else {
                self.c.pos = save;
                break;
            };
            // `every piece points up unless it is small`: `it` in the second part is
            // the piece the first is about.
            let subject = self.subject.take().filter(|s| {
                s.span == a.span() && (matches!(s.det.det, Det::Every) || s.is_singular())
            });
            let second = self.c.pos;
            let condition = conn != BinOp::Iff;
            let read_b = |p: &mut Self| {
                if condition {
                    p.conditioned(Self::if_then)
                } else {
                    p.if_then()
                }
            };
            let (mut b, used) = match &subject {
                Some(s) => self.with_referent(s.has_rivals(), read_b)?,
                None => (read_b(self)?, false),
            };
            if let (Some(s), true) = (&subject, used) {
                a = self.postfix_condition(s, conn, b)?;
                continue;
            }
            if subject.is_some() {
                self.c.pos = second;
                b = read_b(self)?;
            }
            a = match conn {
                BinOp::Iff => bin(BinOp::Iff, a, b),
                BinOp::Implies => bin(BinOp::Implies, a, b),
                BinOp::Or => bin(BinOp::Implies, b, a),
                _ => bin(BinOp::Implies, not(b.span(), b), a),
            };
        }
        self.leave();
        Ok(a)
    }

    /// `neither a small piece nor a large piece is present`: two subjects, one verb
    /// phrase, neither does it. `None` (nothing read) when the words are otherwise.
    fn neither_subjects(&mut self) -> Option<R<F<V>>> {
        let save = self.c.pos;
        self.c.bump();
        let start = self.start();
        let a = match self.det(true) {
            Ok(Some(det)) => self.np_after(&det).ok().map(|np| (det, np)),
            _ => None,
        };
        if a.is_none() || !self.c.eat_word("nor") {
            self.c.pos = save;
            return None;
        }
        let b = match self.det(true) {
            Ok(Some(det)) => self.np_after(&det).ok().map(|np| (det, np)),
            _ => None,
        };
        let (Some((da, na)), Some((db, nb))) = (a, b) else {
            self.c.pos = save;
            return None;
        };
        if !self.vp_start(0, Mode::Finite) {
            self.c.pos = save;
            return None;
        }
        Some(self.vp(Mode::Finite).and_then(|vp| {
            let span = self.span_from(start);
            let outer = self.discourse.clone();
            let does = |d, n| {
                let dom = self.dom();
                self.quantify(d, n, self.base, None, Some(&vp), span.clone(), &outer, dom)
            };
            let (fa, fb) = (does(&da, &na)?, does(&db, &nb)?);
            let (sa, sb) = (fa.span(), fb.span());
            Ok(bin(BinOp::And, not(sa, fa), not(sb, fb)).respan(span))
        }))
    }

    /// `every piece points up unless it is small`, `a piece is small if it points
    /// up`: for every such piece (`conn` stands for the connective: `Or` for `if`,
    /// `Xor` for `unless`, `Implies` for `only if`, `Iff`).
    fn postfix_condition(&self, s: &Subject<V>, conn: BinOp, b: F<V>) -> R<F<V>> {
        let x = Var(self.base);
        let (d, outer) = (x.0 + 1, self.discourse.clone());
        let r = self.lower_np(&s.np, x, d, &outer)?;
        let v = match &s.vp {
            Some(vp) => self.lower_vp(vp, x, d, &outer)?,
            None => {
                return Err(ParsePatternError::new(
                    s.span.clone(),
                    V::say("say what the piece does"),
                ));
            }
        };
        let span = s.span.start..b.span().end;
        let then = match conn {
            BinOp::Iff => bin(BinOp::Iff, v, b),
            BinOp::Implies => bin(BinOp::Implies, v, b),
            BinOp::Or => bin(BinOp::Implies, b, v),
            _ => bin(BinOp::Implies, not(b.span(), b), v),
        };
        let body = match r {
            Some(r) => bin(BinOp::Implies, r, then),
            None => then,
        };
        Ok(f(span, FormulaKind::Forall(x, self.dom(), body)))
    }

    /// Reads a condition (of `if` / `unless`, or under `it is not the case that`),
    /// where `any` means `a`.
    fn conditioned<T>(&mut self, read: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        self.condition += 1;
        let r = read(self);
        self.condition -= 1;
        r
    }

    /// Reads with the subject of the sentence before (`var`) as what `it` names; says
    /// whether `it` named it.
    fn with_referent<T>(
        &mut self,
        ambiguous: bool,
        read: impl FnOnce(&mut Self) -> R<T>,
    ) -> R<(T, bool)> {
        let x = Var(self.base);
        let (base, len, amb) = (self.base, self.discourse.len(), self.ambiguous.len());
        let was_used = self.it_used.replace(false);
        self.discourse.push(x);
        if ambiguous {
            self.ambiguous.push(x);
        }
        self.base += 1;
        let r = read(self);
        let used = self.it_used.replace(was_used);
        self.base = base;
        self.discourse.truncate(len);
        self.ambiguous.truncate(amb);
        Ok((r?, used))
    }

    /// `if S then S`, `if S, S`; `it` in the second names the piece the first is
    /// about (`if a piece points up, it touches a large piece` is every piece pointing
    /// up touches a large piece).
    pub(crate) fn if_then(&mut self) -> R<F<V>> {
        if !(self.c.is_word("if") || self.c.is_word("whenever")) {
            return self.or_sentence();
        }
        self.enter()?;
        let start = self.c.bump().start;
        self.subject = None;
        let cond = self.conditioned(Self::if_then)?;
        let subject = self
            .subject
            .take()
            .filter(|s| s.span == cond.span() && s.is_singular());
        self.c.eat_sym(Sym::Comma);
        let then_word = self.c.eat_word("then");
        if !then_word && self.c.at_end() {
            return Err(self
                .c
                .expected("`then` and what follows (write `if S then S`)"));
        }
        let consequent = self.c.pos;
        let rivals = subject.as_ref().is_some_and(Subject::has_rivals);
        let (mut then, used) = if subject.is_some() {
            // `if it has a big piece it has a small piece`: `it` may be the structure
            // after all; the reading without the referent is tried before refusing.
            match self.with_referent(rivals, Self::if_then) {
                Ok(r) => r,
                Err(e) => {
                    self.c.pos = consequent;
                    (self.if_then().map_err(|_| e)?, false)
                }
            }
        } else {
            (self.if_then()?, false)
        };
        if subject.is_some() && !used {
            // Read again without the referent, so that its variables are numbered as
            // in any other sentence.
            self.c.pos = consequent;
            then = self.if_then()?;
        }
        self.leave();
        let span = self.span_from(start);
        let Some(s) = subject.filter(|_| used) else {
            return Ok(f(span, FormulaKind::Bin(BinOp::Implies, cond, then)));
        };
        // Every such piece: `forall x. R(x) & V(x) -> then(x)`.
        let x = Var(self.base);
        let body = self.subject_body(&s, x)?;
        let each = f(
            span.clone(),
            FormulaKind::Forall(x, self.dom(), bin(BinOp::Implies, body, then)),
        );
        Ok(match s.det.det {
            Det::Some => each,
            // `if there is exactly one large piece, it points up`.
            _ => f(span, FormulaKind::Bin(BinOp::Implies, cond, each)),
        })
    }

    /// The restriction and verb phrase of a recorded subject, about `x`.
    fn subject_body(&self, s: &Subject<V>, x: Var) -> R<F<V>> {
        let d = x.0 + 1;
        let outer = self.discourse.clone();
        let r = self.lower_np(&s.np, x, d, &outer)?;
        let v = match &s.vp {
            Some(vp) => Some(self.lower_vp(vp, x, d, &outer)?),
            None => None,
        };
        Ok(or_true(and_opt(r, v), &s.span))
    }

    fn or_sentence(&mut self) -> R<F<V>> {
        let mut a = self.or_operand()?;
        let mut ors = false;
        loop {
            let save = self.c.pos;
            let comma = self.c.eat_sym(Sym::Comma);
            if self.c.eat_word("or") {
                if let Some(s) = self.every_subject_of(&a) {
                    a = self.every_it(s, BinOp::Or)?;
                    continue;
                }
                ors = true;
                let saved = std::mem::replace(&mut self.comma_ends_and, true);
                let b = self.or_operand();
                self.comma_ends_and = saved;
                a = bin(BinOp::Or, a, b?);
            } else if comma && ors && self.c.eat_word("and") {
                // `S or S, and S or S`: the comma closes the first choice.
                let saved = std::mem::replace(&mut self.comma_ends_and, false);
                let b = self.or_sentence();
                self.comma_ends_and = saved;
                a = bin(BinOp::And, a, b?);
            } else {
                self.c.pos = save;
                break;
            }
        }
        Ok(a)
    }

    fn or_operand(&mut self) -> R<F<V>> {
        if self.c.is_word("neither")
            && let Some(f) = self.neither_subjects()
        {
            return f;
        }
        if self.c.is_word("neither") {
            // `neither S nor S`: both are false.
            let start = self.c.bump().start;
            let a = self.and_sentence()?;
            self.c.eat_sym(Sym::Comma);
            if !self.c.eat_word("nor") {
                return Err(self.c.expected("`nor` (write `neither S nor S`)"));
            }
            let b = self.and_sentence()?;
            let (sa, sb) = (a.span(), b.span());
            return Ok(bin(BinOp::And, not(sa, a), not(sb, b)).respan(self.span_from(start)));
        }
        if !self.c.is_word("either") {
            return self.and_sentence();
        }
        let either = self.c.bump();
        let a = self.and_sentence()?;
        self.c.eat_sym(Sym::Comma);
        if !self.c.eat_word("or") {
            return Err(self.c.expected("`or` (write `either S or S but not both`)"));
        }
        let b = self.and_sentence()?;
        let before_comma = self.c.pos;
        self.c.eat_sym(Sym::Comma);
        if self.c.eat_words(&["but", "not", "both"]) {
            let span = either.start..self.c.prev().end;
            return Ok(f(span, FormulaKind::Bin(BinOp::Xor, a, b)));
        }
        self.c.pos = before_comma;
        let end = b.span().end;
        let mut drop_either = either.clone();
        drop_either.end = self.src[either.end..]
            .find(|c: char| !c.is_whitespace())
            .map_or(self.src.len(), |i| either.end + i);
        Err(ParsePatternError::new(
            either,
            "`either ... or ...` could be inclusive or exclusive: add `but not both`, or drop `either`",
        )
        .with_example(splice(self.src, &(end..end), " but not both"))
        .with_example(splice(self.src, &drop_either, ""))
        .with_readings())
    }

    fn and_sentence(&mut self) -> R<F<V>> {
        let mut a = self.and_operand()?;
        loop {
            let save = self.c.pos;
            let comma = self.c.eat_sym(Sym::Comma);
            // `exactly two pieces are large and they touch`, `exactly three pieces,
            // all of them small`: the things just counted.
            if !(comma && self.comma_ends_and) {
                let at = self.c.pos;
                let and = self.c.eat_word("and");
                if (and || comma)
                    && let Some((s, n)) = self.they_antecedent(&a, !and)
                {
                    a = self.and_they(s, n, a, !and)?;
                    continue;
                }
                self.c.pos = at;
            }
            // `S, but S`: both hold (`but` says a contrast, not another connective).
            let joined = self.c.eat_word("and")
                || !self.c.is_words(&["but", "not", "both"]) && self.c.eat_word("but");
            if (comma && self.comma_ends_and) || !joined {
                self.c.pos = save;
                break;
            }
            if let Some(s) = self.every_subject_of(&a) {
                a = self.every_it(s, BinOp::And)?;
                continue;
            }
            if matches!(self.c.word(), Some("it" | "it's"))
                && !self.wide_negation_ahead()
                && let Some(s) = self
                    .subject
                    .take()
                    .filter(|s| s.span == a.span() && s.is_singular())
            {
                a = self.and_it(s, a)?;
                continue;
            }
            let b = self.and_operand()?;
            a = bin(BinOp::And, a, b);
        }
        Ok(a)
    }

    /// When `it` follows and `a` was `every NP VP`: that subject.
    fn every_subject_of(&mut self, a: &F<V>) -> Option<Subject<V>> {
        if !matches!(self.c.word(), Some("it" | "it's")) || self.wide_negation_ahead() {
            return None;
        }
        self.subject
            .take_if(|s| s.span == a.span() && matches!(s.det.det, Det::Every) && s.vp.is_some())
    }

    /// `it` (or `it's`) and what it does, naming the one thing subject `s` speaks of:
    /// one piece's verb phrase (`example` shows one when none follows).
    fn it_does(&mut self, s: &Subject<V>, example: &str) -> R<Vp<V>> {
        let it = self.c.here();
        if s.has_rivals() {
            return Err(ambiguous_it::<V>(it));
        }
        let contracted = self.c.is_word("it's");
        self.c.bump();
        let vp = if contracted {
            self.copula_rest(false, it.start)?
        } else {
            if !self.vp_start(0, Mode::Finite) {
                return Err(self.c.expected(example));
            }
            self.vp(Mode::Finite)?
        };
        if vp.is_group() {
            return Err(ParsePatternError::new(
                vp.span(),
                V::say("`it` is one piece: this speaks of several at once"),
            ));
        }
        Ok(vp)
    }

    /// `every tile is red or it is adjacent to a red tile`: each such thing does one
    /// (or, with `and`, both).
    fn every_it(&mut self, s: Subject<V>, op: BinOp) -> R<F<V>> {
        let vp = self.it_does(&s, "what `it` does, e.g. `it is red`")?;
        let x = Var(self.base);
        let d = x.0 + 1;
        let outer = self.discourse.clone();
        let first = match &s.vp {
            Some(v) => self.lower_vp(v, x, d, &outer)?,
            None => {
                return Err(ParsePatternError::new(
                    s.span.clone(),
                    V::say("say what the piece does"),
                ));
            }
        };
        let second = self.lower_vp(&vp, x, d, &outer)?;
        let both = bin(op, first, second);
        let body = match self.lower_np(&s.np, x, d, &outer)? {
            Some(r) => bin(BinOp::Implies, r, both),
            None => both,
        };
        let span = s.span.start..self.c.prev().end;
        Ok(f(span, FormulaKind::Forall(x, self.dom(), body)))
    }

    /// `there is exactly one topmost piece and it is large`: the one piece does both.
    fn and_it(&mut self, s: Subject<V>, first: F<V>) -> R<F<V>> {
        let x = Var(self.base);
        let outer = self.discourse.clone();
        let vp = self.it_does(&s, "what `it` does, e.g. `it points up`")?;
        let span = first.span().start..self.c.prev().end;
        let second = self.lower_vp(&vp, x, x.0 + 1, &outer)?;
        let both = bin(BinOp::And, self.subject_body(&s, x)?, second);
        let some = f(span.clone(), FormulaKind::Exists(x, self.dom(), both));
        Ok(match s.det.det {
            Det::Some => some,
            // Exactly one such piece, and it does the second thing too.
            Det::TheUnique => {
                let r = or_true(self.lower_np(&s.np, x, x.0 + 1, &outer)?, &s.span);
                let one = cmp(
                    CmpOp::Eq,
                    count(x, self.dom(), r, s.det.span.clone()),
                    int(1, s.det.span.clone()),
                    s.det.span.clone(),
                );
                bin(BinOp::And, one, some)
            }
            _ => {
                let one = cmp(
                    CmpOp::Eq,
                    count(x, self.dom(), self.subject_body(&s, x)?, s.det.span.clone()),
                    int(1, s.det.span.clone()),
                    s.det.span.clone(),
                );
                bin(BinOp::And, one, some)
            }
        })
    }

    fn and_operand(&mut self) -> R<F<V>> {
        if !self.c.is_word("both") || self.c.word_at(1) == Some("of") {
            return self.not_sentence();
        }
        self.c.bump();
        let a = self.not_sentence()?;
        if !self.c.eat_word("and") {
            return Err(self.c.expected("`and` (write `both S and S`)"));
        }
        let b = self.not_sentence()?;
        Ok(bin(BinOp::And, a, b))
    }

    /// Whether `it is not the case that` (or the like) starts here.
    fn wide_negation_ahead(&self) -> bool {
        WIDE.iter().any(|w| self.c.is_words(w))
    }

    fn not_sentence(&mut self) -> R<F<V>> {
        self.enter()?;
        let start = self.start();
        let r = if let Some(r) = self.for_sentence() {
            // `for every tile x, S`: S is the rest of the clause.
            r?
        } else if let Some(w) = WIDE.iter().find(|w| self.c.is_words(w)) {
            // The whole rest of the clause, where `any` means `a`.
            self.c.pos += w.len();
            let a = self.conditioned(Self::sentence)?;
            not(start..a.span().end, a)
        } else if self.c.is_word("not")
            && !self.c.is_words(&["not", "a", "single"])
            && !self.c.is_words(&["not", "one"])
        {
            self.c.bump();
            let a = self.not_sentence()?;
            not(start..a.span().end, a)
        } else {
            self.atomic()?
        };
        self.leave();
        Ok(r)
    }
}

type Span = crate::lang::ast::Span;

/// `it` after a sentence that named more than one thing.
pub(super) fn ambiguous_it<V: Vocabulary>(it: Span) -> ParsePatternError {
    ParsePatternError::new(
        it,
        format!(
            "`it` could name any of the {} said before it: name the {} again",
            V::NOUNS,
            V::NOUN
        ),
    )
    .with_help(format!("e.g. `{}`", V::RELATIVE_EXAMPLE))
}
