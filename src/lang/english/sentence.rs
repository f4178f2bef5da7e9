//! Sentences: connectives (`if ... then`, `if S, S`, `S if S`, `S only if S`, `S
//! unless S`, `iff`, `or`, `and`, `either ... but not both`, `not`, `it is not the
//! case that`), anaphora across them (`... and it is large`, `if a piece ..., it
//! ...`), and the atomic sentences: `there is`, `Det NP VP`, fragments (`no large
//! pieces`), the pieces at once (`all pieces point the same direction`, `no two
//! pieces touch`), and the structure (`the structure is taller than it is wide`).

use super::{
    BinOp, CmpOp, Det, DetS, F, FormulaKind, Logic, Mode, Np, Num, Parser, R, Spanned, Subject,
    Sym, Tok, Var, Vocabulary, Vp, and_opt, bin, cmp, count, f, int, not, or_true, splice,
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
            let fa = self.quantify(
                &da,
                &na,
                self.base,
                None,
                Some(&vp),
                span.clone(),
                &outer,
                self.dom(),
            )?;
            let fb = self.quantify(
                &db,
                &nb,
                self.base,
                None,
                Some(&vp),
                span.clone(),
                &outer,
                self.dom(),
            )?;
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
        loop {
            let save = self.c.pos;
            self.c.eat_sym(Sym::Comma);
            if self.c.eat_word("or") {
                if let Some(s) = self.every_subject_of(&a) {
                    a = self.every_it(s, BinOp::Or)?;
                    continue;
                }
                let b = self.or_operand()?;
                a = bin(BinOp::Or, a, b);
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
        if self.c.eat_words(&["but", "not", "both"]) {
            let span = either.start..self.c.prev().end;
            return Ok(f(span, FormulaKind::Bin(BinOp::Xor, a, b)));
        }
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
        .with_example(splice(self.src, &drop_either, "")))
    }

    fn and_sentence(&mut self) -> R<F<V>> {
        let mut a = self.and_operand()?;
        loop {
            let save = self.c.pos;
            self.c.eat_sym(Sym::Comma);
            if !self.c.eat_word("and") {
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

    /// `every tile is red or it is adjacent to a red tile`: each such thing does one
    /// (or, with `and`, both).
    fn every_it(&mut self, s: Subject<V>, op: BinOp) -> R<F<V>> {
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
                return Err(self.c.expected("what `it` does, e.g. `it is red`"));
            }
            self.vp(Mode::Finite)?
        };
        if vp.is_group() {
            return Err(ParsePatternError::new(
                vp.span(),
                V::say("`it` is one piece: this speaks of several at once"),
            ));
        }
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
        let it = self.c.here();
        if s.has_rivals() {
            return Err(ambiguous_it::<V>(it));
        }
        let contracted = self.c.is_word("it's");
        self.c.bump();
        let x = Var(self.base);
        let outer = self.discourse.clone();
        let vp = if contracted {
            self.copula_rest(false, it.start)?
        } else {
            if !self.vp_start(0, Mode::Finite) {
                return Err(self.c.expected("what `it` does, e.g. `it points up`"));
            }
            self.vp(Mode::Finite)?
        };
        if vp.is_group() {
            return Err(ParsePatternError::new(
                vp.span(),
                V::say("`it` is one piece: this speaks of several at once"),
            ));
        }
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

    pub(crate) fn atomic(&mut self) -> R<F<V>> {
        let start = self.start();
        if self.c.is_sym(Sym::LParen) {
            self.c.bump();
            let s = self.sentence()?;
            if !self.c.eat_sym(Sym::RParen) {
                return Err(self.c.expected("`)`"));
            }
            return Ok(s.respan(self.span_from(start)));
        }
        if self.c.peek_at(0).is_none() {
            return Err(self.c.expected("a sentence"));
        }
        let w = self.c.word().unwrap_or("").to_string();
        if let Some(f) = self.named_sentence() {
            return f;
        }
        if let Some(f) = V::atomic(self, start) {
            return f;
        }
        if self.comparative_ahead() {
            return self.comparative(start);
        }
        match w.as_str() {
            "there" | "there's" => self.there(),
            "twice" | "double" => self.number_sentence(),
            "the" => self.the_sentence(),
            "it" | "it's" => self.it_sentence(),
            _ if self.number_at(0).is_some() => self.number_start(),
            _ => self.det_sentence(),
        }
    }

    /// `there is/are ...`.
    pub(crate) fn there(&mut self) -> R<F<V>> {
        let contracted = self.c.is_word("there's");
        let start = self.c.bump().start;
        if contracted {
            let neg = self.c.eat_word("not");
            return self.existential(start, neg);
        }
        let neg = match self.c.word() {
            Some("is" | "are" | "exists" | "exist" | "remain" | "remains") => {
                self.c.bump();
                self.c.eat_word("not")
            }
            Some("isn't" | "aren't") => {
                self.c.bump();
                true
            }
            _ => return Err(self.c.expected("`is` or `are` after `there`")),
        };
        self.existential(start, neg)
    }

    /// What follows `there is`: a determiner and a noun phrase (or a list of them),
    /// a comparative, or `only` and a noun phrase.
    pub(crate) fn existential(&mut self, start: usize, neg: bool) -> R<F<V>> {
        let f = if self.comparative_ahead() {
            self.comparative(start)?
        } else if self.c.is_word("neither")
            && let Some(p) = self.c.word_at(1).and_then(V::adjective)
            && self.c.word_at(2) == Some("nor")
            && let Some(q) = self.c.word_at(3).and_then(V::adjective)
            && self
                .c
                .word_at(4)
                .is_some_and(|w| V::is_noun(w) && w.ends_with('s'))
        {
            // `there are neither small nor large pieces`: none of either kind.
            self.c.pos += 5;
            let span = self.span_from(start);
            let x = Var(self.base);
            let dom = self.dom();
            let kind = |k| f(span.clone(), FormulaKind::Unary(k, x));
            let either = bin(BinOp::Or, kind(p), kind(q));
            not(span.clone(), f(span, FormulaKind::Exists(x, dom, either)))
        } else if self.c.is_word("neither") {
            // `there are neither red tiles nor blue tiles`.
            self.c.bump();
            let a_start = self.start();
            let Some(a) = self.there_item(a_start, neg)? else {
                return Err(self.c.expected("a kind of piece after `neither`"));
            };
            if !self.c.eat_word("nor") {
                return Err(self.c.expected("`nor` (write `there are neither A nor B`)"));
            }
            let b_start = self.start();
            let Some(b) = self.there_item(b_start, neg)? else {
                return Err(self.c.expected("a kind of piece after `nor`"));
            };
            let (sa, sb) = (a.span(), b.span());
            bin(BinOp::And, not(sa, a), not(sb, b))
        } else if let Some(f) = self.adjective_list_items(start)? {
            f
        } else if let Some(f) = self.coordinated_there(start, neg)? {
            f
        } else {
            let Some(mut f) = self.there_item(start, neg)? else {
                return Err(self.c.expected(
                    "a determiner such as `a`, `no`, `exactly two`, `at least one` or `only`",
                ));
            };
            // `there is a small piece and a large piece`: a list of items, unless what
            // follows the `and` is a sentence of its own.
            let mut list_op = None;
            let mut items = vec![f.clone()];
            loop {
                let save = self.c.pos;
                // `, and` / `, or` / `,` between items; `but` is `and` (`a yellow tile
                // but no green tile`).
                let comma = self.c.eat_sym(Sym::Comma);
                let op = match self.c.word() {
                    Some("and") => BinOp::And,
                    Some("or") => BinOp::Or,
                    Some("but") if !self.c.is_words(&["but", "not", "both"]) => BinOp::And,
                    // A comma alone continues a list that ends in `and` / `or`.
                    _ if comma && self.list_ends_ahead() => list_op.unwrap_or(BinOp::And),
                    _ => {
                        self.c.pos = save;
                        break;
                    }
                };
                let conj = if comma && !matches!(self.c.word(), Some("and" | "or" | "but")) {
                    self.c.prev()
                } else {
                    self.c.bump()
                };
                let item_start = self.start();
                let subject = self.subject.clone();
                match self.there_item(item_start, neg) {
                    Ok(Some(g)) if !self.vp_start(0, Mode::Finite) => {
                        if list_op.is_some_and(|o| o != op) {
                            return Err(ParsePatternError::new(
                                conj,
                                "a list with both `and` and `or` is ambiguous: write separate sentences in parentheses",
                            ));
                        }
                        list_op = Some(op);
                        items.push(g.clone());
                        f = bin(op, f, g);
                    }
                    _ => {
                        self.c.pos = save;
                        self.subject = subject;
                        break;
                    }
                }
            }
            // `there is a small piece or a large piece but not both`.
            if list_op == Some(BinOp::Or)
                && items.len() == 2
                && self.c.eat_words(&["but", "not", "both"])
            {
                let b = items.pop().expect("two items");
                let a = items.pop().expect("two items");
                f = bin(BinOp::Xor, a, b);
            }
            f
        };
        Ok(if neg {
            not(self.span_from(start), f)
        } else {
            f
        })
    }

    /// `there is a small piece and a large piece in the same row`: one of each, so
    /// related with each other (never the second alone with another of its kind).
    fn coordinated_there(&mut self, start: usize, neg: bool) -> R<Option<F<V>>> {
        if neg {
            return Ok(None);
        }
        let save = self.c.pos;
        let subject = self.subject.clone();
        let restore = |p: &mut Self| {
            p.c.pos = save;
            p.subject = subject.clone();
        };
        let det = match self.det(false) {
            Ok(Some(d)) if matches!(d.det, Det::Some) && !d.np_done => d,
            _ => {
                restore(self);
                return Ok(None);
            }
        };
        let awaits = std::mem::replace(&mut self.awaits_verb, false);
        let a = self.np_after(&det);
        self.awaits_verb = awaits;
        let Ok(a) = a else {
            restore(self);
            return Ok(None);
        };
        match self.coordinated_partner(&det, &a, start)? {
            Some(f) => Ok(Some(f)),
            None => {
                restore(self);
                Ok(None)
            }
        }
    }

    /// After `Det A` (one piece, `a` / `some`): `and a B` and a phrase that speaks of
    /// two pieces at once (`in the same row`, `adjacent to each other`): some A and
    /// some other piece that is a B, so related. `None`, with nothing read, where
    /// this is not such a phrase. (`a small piece and a large piece touch`, two
    /// subjects of one verb, stays refused: see `fragment`.)
    fn coordinated_partner(&mut self, det: &DetS, a: &Np<V>, start: usize) -> R<Option<F<V>>> {
        let one = |np: &Np<V>| {
            np.plural == Some(false)
                && np.pair.is_empty()
                && np.other.is_none()
                && !np.rel.as_deref().is_some_and(Vp::is_group)
        };
        if !matches!(det.det, Det::Some) || !one(a) || !self.c.is_word("and") {
            return Ok(None);
        }
        let save = self.c.pos;
        let subject = self.subject.clone();
        let restore = |p: &mut Self| {
            p.c.pos = save;
            p.subject = subject.clone();
            Ok(None)
        };
        self.c.bump();
        let b_det = match self.det(false) {
            Ok(Some(d)) if matches!(d.det, Det::Some) && !d.np_done => d,
            _ => return restore(self),
        };
        let group = std::mem::replace(&mut self.group_relative, true);
        let awaits = std::mem::replace(&mut self.awaits_verb, false);
        let b = self.np_after(&b_det);
        self.group_relative = group;
        self.awaits_verb = awaits;
        let Ok(mut b) = b else {
            return restore(self);
        };
        if b.plural != Some(false) || !b.pair.is_empty() || b.other.is_some() {
            return restore(self);
        }
        let vp = if b.rel.as_deref().is_some_and(Vp::is_group) {
            *b.rel.take().expect("checked")
        } else if self.group_complement_ahead() {
            match self.comp_atom() {
                Ok(v) if v.is_group() => v,
                _ => return restore(self),
            }
        } else {
            return restore(self);
        };
        let span = self.span_from(start);
        Ok(Some(self.coordinated_group(det, a, &b, &vp, span)?))
    }

    /// Whether an `and` / `or` comes before the sentence ends (at `then`, `if`, `)`,
    /// `;` or the end), so that a comma here separates items of a list.
    fn list_ends_ahead(&self) -> bool {
        let mut k = 0;
        while let Some(t) = self.c.peek_at(k) {
            match &t.tok {
                Tok::Word(w) if matches!(w.as_str(), "and" | "or") => return true,
                Tok::Word(w) if matches!(w.as_str(), "then" | "if" | "iff" | "unless") => {
                    return false;
                }
                Tok::Sym(Sym::RParen | Sym::Semicolon) => return false,
                _ => k += 1,
            }
        }
        false
    }

    /// `there are red, blue and green tiles`, `there are both small and large pieces`:
    /// adjectives joined by `and` before one plural noun, each kind there.
    fn adjective_list_items(&mut self, start: usize) -> R<Option<F<V>>> {
        let save = self.c.pos;
        let both = self.c.eat_word("both");
        let mut adjs = Vec::new();
        let mut saw_and = false;
        while let Some(p) = self.c.word().and_then(V::adjective) {
            adjs.push((p, self.c.here()));
            self.c.bump();
            if self.c.eat_sym(Sym::Comma) {
                saw_and |= self.c.eat_word("and");
                continue;
            }
            if self.c.eat_word("and") {
                saw_and = true;
                continue;
            }
            break;
        }
        let noun_plural = self
            .c
            .word()
            .is_some_and(|w| V::is_noun(w) && w.ends_with('s'));
        if adjs.len() < 2 || !saw_and || !noun_plural || (both && adjs.len() != 2) {
            self.c.pos = save;
            return Ok(None);
        }
        let noun = self.c.bump();
        if !self.at_clause_end(0) {
            self.c.pos = save;
            return Ok(None);
        }
        let x = Var(self.base);
        let dom = self.dom();
        let mut out: Option<F<V>> = None;
        for (p, at) in adjs {
            let span = at.start..noun.end;
            let one = f(
                span.clone(),
                FormulaKind::Exists(x, dom, f(at, FormulaKind::Unary(p, x))),
            );
            out = and_opt(out, Some(one));
        }
        Ok(out.map(|g| g.respan(self.span_from(start))))
    }

    /// One item after `there is` (`there is not` when `neg`): a determiner and a noun
    /// phrase, or a structure noun (`exactly two groups`, `at least ten pips`).
    fn there_item(&mut self, start: usize, neg: bool) -> R<Option<F<V>>> {
        if let Some(f) = V::there_item(self, start, neg) {
            return f.map(Some);
        }
        if let Some(f) = self.pieces_of(start)? {
            return Ok(Some(f));
        }
        let det = match self.licensing(neg, |p| p.det(false))? {
            Some(det) => det,
            // `there are big pieces`: some.
            None if self.np_start() && self.plural_np_ahead(0) => DetS {
                det: Det::Some,
                span: start..start,
                other: None,
                np_done: false,
            },
            None => return Ok(None),
        };
        if let Some(f) = self.structure_noun_item(&det, start)? {
            return Ok(Some(f));
        }
        if let Some(f) = self.such_that(&det.det, start) {
            return f.map(Some);
        }
        let refusal = ParsePatternError::new(
            det.span.clone(),
            V::say(
                "`there is` needs a number of pieces here, such as `a`, `no`, `exactly one` or `at least two`",
            ),
        );
        if matches!(det.det, Det::Every | Det::TheUnique | Det::Half(_)) {
            return Err(refusal);
        }
        let no = neg || matches!(det.det, Det::No | Det::NoN(_));
        // `there are no two pieces in the same row`, `there are some pieces touching
        // each other`: the pieces at once, as after a subject.
        let saved = std::mem::replace(&mut self.group_relative, true);
        let awaits = std::mem::replace(&mut self.awaits_verb, false);
        let np = self.licensing(no, |p| p.np_after(&det));
        self.group_relative = saved;
        self.awaits_verb = awaits;
        let mut np = np?;
        let group = if np.rel.as_deref().is_some_and(Vp::is_group) {
            np.rel.take().map(|v| *v)
        } else if self.group_complement_ahead() {
            Some(self.comp_atom()?).filter(Vp::is_group)
        } else {
            None
        };
        let span = self.span_from(start);
        if let Some(vp) = group {
            return Ok(Some(self.group_sentence(&det, &np, &vp, span)?));
        }
        if !np.pair.is_empty() {
            return Ok(Some(self.pair_sentence(&det, &np, None, span)?));
        }
        // `there are no two red tiles`: fewer than two, where bare numbers read.
        if matches!(det.det, Det::NoN(_)) && !V::POLICY.bare_number_at_least {
            return Err(refusal);
        }
        Ok(Some(self.quantified(det, np, None, span)?))
    }

    /// `Det NP VP`, or (without a verb phrase) there are such pieces; the subject
    /// is kept for a following `it`.
    pub(crate) fn quantified(
        &mut self,
        det: DetS,
        np: Np<V>,
        vp: Option<Vp<V>>,
        span: Span,
    ) -> R<F<V>> {
        let outer = self.discourse.clone();
        let formula = self.quantify(
            &det,
            &np,
            self.base,
            None,
            vp.as_ref(),
            span,
            &outer,
            self.dom(),
        )?;
        self.subject = Some(Subject {
            det,
            np,
            vp,
            span: formula.span(),
        });
        Ok(formula)
    }

    /// Sentences that start with `the`.
    pub(crate) fn the_sentence(&mut self) -> R<F<V>> {
        let w1 = self.c.word_at(1).unwrap_or("");
        if matches!(w1, "number" | "count" | "amount") || V::THE_TERMS.contains(&w1) {
            return self.number_sentence();
        }
        self.det_sentence()
    }

    /// Sentences whose subject is `it`: the piece named before (`if a piece points up,
    /// it ...`), or else the structure (`it is connected`, `it has two groups`).
    pub(crate) fn it_sentence(&mut self) -> R<F<V>> {
        let start = self.start();
        if self.discourse.is_empty() {
            return V::it_subject(self, start);
        }
        let it = self.c.here();
        let contracted = self.c.is_word("it's");
        self.c.bump();
        let x = self.resolve_it(&it, &self.discourse)?;
        let vp = if contracted {
            self.copula_rest(false, start)?
        } else {
            if !self.vp_start(0, Mode::Finite) {
                return Err(self.c.expected("what `it` does, e.g. `it points up`"));
            }
            self.vp(Mode::Finite)?
        };
        let outer: Vec<Var> = self.discourse.iter().copied().filter(|v| *v != x).collect();
        let body = self.lower_vp(&vp, x, self.base, &outer)?;
        Ok(body.respan(self.span_from(start)))
    }

    /// `Det NP VP`, or a determiner phrase alone (`no large pieces`), which says that
    /// there are such pieces.
    pub(crate) fn det_sentence(&mut self) -> R<F<V>> {
        let start = self.start();
        let Some(det) = self.det(true)? else {
            return self.bare_noun_sentence(start);
        };
        if let Some(f) = self.structure_noun_sentence(&det, start)? {
            return Ok(f);
        }
        let no = matches!(det.det, Det::No | Det::NoN(_));
        let saved = std::mem::replace(&mut self.awaits_verb, true);
        let np = self.licensing(no, |p| p.np_after(&det));
        self.awaits_verb = saved;
        let np = np?;
        let generic = matches!(det.det, Det::Some)
            && (self.c.is_word("always")
                || matches!(self.c.word(), Some("is" | "are"))
                    && self.c.word_at(1) == Some("always"));
        let det = if generic {
            // `a large piece always points up` says it of every large piece.
            if self.c.is_word("always") {
                self.c.bump();
            } else {
                self.c.toks.remove(self.c.pos + 1);
            }
            DetS {
                det: Det::Every,
                ..det
            }
        } else {
            det
        };
        if matches!(self.c.word(), Some("allowed" | "permitted")) && self.at_clause_end(1) {
            self.c.bump();
        }
        let universal = matches!(det.det, Det::Every);
        // A floating `all` (`the pieces all point up`) adds nothing to `all`.
        if matches!(self.c.word(), Some("all" | "each" | "both")) && self.vp_start(1, Mode::Finite)
        {
            if !universal {
                return Err(ParsePatternError::new(
                    self.c.here(),
                    V::say(
                        "`all` here speaks of every piece, but the sentence starts with another number: say `all` once",
                    ),
                ));
            }
            self.c.bump();
        }
        // `two small pieces never touch`, `every piece never points left`.
        let never = self.c.is_word("never").then(|| self.c.bump());
        if let Some(n) = &never
            && !matches!(det.det, Det::NoN(_) | Det::Every)
        {
            return Err(ParsePatternError::new(
                n.clone(),
                V::say(
                    "`never` is read after `every` or a number (`two small pieces never touch`): say `no piece ...`",
                ),
            ));
        }
        if !self.vp_start(0, Mode::Finite) {
            if self.at_clause_end(0) && never.is_none() {
                return self.fragment(det, np, start);
            }
            if self.c.is_words(&["outnumber"]) || self.c.is_word("outnumbers") {
                return Err(ParsePatternError::new(
                    det.span.clone(),
                    V::say(
                        "`outnumber` compares kinds of pieces: write `small pieces outnumber large pieces`",
                    ),
                ));
            }
            return Err(self.c.expected(V::VP_EXPECTED));
        }
        let saved = std::mem::replace(&mut self.universal_subject, universal);
        let vp = self.licensing(no, |p| p.vp(Mode::Finite));
        self.universal_subject = saved;
        let vp = vp?;
        let span = self.span_from(start);
        let vp = match never {
            Some(n) if matches!(det.det, Det::Every) => {
                if vp.is_group() {
                    return Err(ParsePatternError::new(
                        n,
                        V::say(
                            "`never` with `each other` or `the same ...`: say `no two pieces ...`",
                        ),
                    ));
                }
                Vp::Not(Box::new(vp), n.start..span.end)
            }
            _ => vp,
        };
        if !np.pair.is_empty() {
            return self.pair_sentence(&det, &np, Some(&vp), span);
        }
        if vp.is_group() {
            return self.group_sentence(&det, &np, &vp, span);
        }
        if let Some(o) = &np.other {
            return Err(ParsePatternError::new(
                o.clone(),
                V::say("`other` needs a piece to differ from; the subject of a sentence has none"),
            ));
        }
        self.quantified(det, np, Some(vp), span)
    }

    /// A determiner phrase alone: `at least one small piece`, `no large pieces`,
    /// `exactly two pieces`, `only small pieces` mean `there is/are ...`.
    pub(crate) fn fragment(&mut self, det: DetS, np: Np<V>, start: usize) -> R<F<V>> {
        if !matches!(
            det.det,
            Det::Some | Det::No | Det::Num(_) | Det::Parity(_) | Det::Only
        ) {
            return Err(self.c.expected(V::VP_EXPECTED));
        }
        // `a small piece and a large piece touch`: two subjects of one verb, which
        // is not read (each? together?); a list of phrases alone is.
        if matches!(self.c.word(), Some("and" | "or")) && self.verb_before_clause_ends(1) {
            let e = ParsePatternError::new(
                self.c.here(),
                V::say(
                    "a list of kinds of pieces before one verb is not read: say it of one piece at a time",
                ),
            );
            return Err(match self.there_is_both(start) {
                Some(x) => e.with_example(x),
                None => e.with_help(V::say("e.g. `a small piece touches a large piece`, `there is a small piece and every large piece points up`")),
            });
        }
        let span = self.span_from(start);
        if !np.pair.is_empty() {
            return self.pair_sentence(&det, &np, None, span);
        }
        self.quantified(det, np, None, span)
    }

    /// `a red tile and a blue tile are adjacent` said as `there is a red tile and a
    /// blue tile adjacent to each other`, which reads as one of each so related (offered only if it
    /// reads): the statement's own words, where the stock examples would change them.
    fn there_is_both(&self, start: usize) -> Option<String> {
        // Only a whole statement: inside a larger one the rest would not be its own.
        if !matches!(self.c.word(), Some("and")) || !self.src.get(..start)?.trim().is_empty() {
            return None;
        }
        let k = (1..12)
            .take_while(|k| !matches!(self.c.word_at(*k), Some("then" | "if" | "or")))
            .find(|k| self.c.word_at(*k) == Some("are"))?;
        let are = self.c.peek_at(k)?.span.clone();
        let rest = self.src.get(are.end..)?.trim_start();
        let first = self.src.get(start..are.start)?.trim_end();
        let lower = first.get(..1)?.to_lowercase() + first.get(1..)?;
        // Only a relation of the two with each other, which `there is A and B ...`
        // reads alike (`are adjacent to a green tile` would not say the same).
        let bare = rest.trim_end_matches(['.', '!', ' ']);
        let together = [
            "in the same row",
            "in the same column",
            "in different rows",
            "in different columns",
            "the same colour",
            "different colours",
            "the same size",
        ];
        if !(bare.ends_with("each other") || bare.ends_with("adjacent") || together.contains(&bare))
        {
            return None;
        }
        // `adjacent` alone after a noun is not read: `adjacent to each other` is.
        let rest = if bare.ends_with("adjacent") {
            format!("{bare} to each other{}", &rest[bare.len()..])
        } else {
            rest.to_string()
        };
        Some(format!("there is {lower} {rest}"))
    }

    /// Whether a finite verb comes from `k` tokens on before the clause ends (at a
    /// connective, `then`, `)` or the end).
    fn verb_before_clause_ends(&self, k: usize) -> bool {
        let mut i = k;
        while self.c.peek_at(i).is_some() {
            if self.vp_start(i, Mode::Finite) {
                return true;
            }
            if i > k && self.at_clause_end(i) && !self.c.sym_at(i).is_some_and(|s| s == Sym::Comma)
            {
                return false;
            }
            i += 1;
        }
        false
    }

    /// A sentence without a determiner: `small pieces outnumber large pieces`, or a
    /// refusal with the determiners it could have meant.
    fn bare_noun_sentence(&mut self, start: usize) -> R<F<V>> {
        let save = self.c.pos;
        if self.np_start()
            && let Ok(a) = self.noun_phrase()
        {
            if self.c.is_word("outnumber") || self.c.is_word("outnumbers") {
                self.c.bump();
                let b = self.noun_phrase()?;
                let (ca, cb) = (self.count_np(&a)?, self.count_np(&b)?);
                return Ok(cmp(CmpOp::Gt, ca, cb, self.span_from(start)));
            }
            // `small pieces always point up`, `small pieces never touch large pieces`,
            // `pieces pointing down are all large`: a rule about all of them.
            let plural = a.plural == Some(true);
            let det = if plural && self.c.eat_word("always") {
                Some(Det::Every)
            } else if plural && self.c.is_word("never") && self.vp_start(1, Mode::Finite) {
                self.c.bump();
                Some(Det::No)
            } else if plural
                && matches!(self.c.word(), Some("are" | "all"))
                && (self.c.word_at(1) == Some("all")
                    || self.c.is_word("all") && self.vp_start(1, Mode::Finite))
            {
                if self.c.is_word("all") {
                    self.c.bump();
                }
                Some(Det::Every)
            } else {
                None
            };
            if let Some(det) = det
                && self.vp_start(0, Mode::Finite)
            {
                let det = DetS {
                    det,
                    span: start..start,
                    other: None,
                    np_done: false,
                };
                let saved = std::mem::replace(&mut self.universal_subject, true);
                let vp = self.vp(Mode::Finite);
                self.universal_subject = saved;
                let vp = vp?;
                let span = self.span_from(start);
                if vp.is_group() {
                    return self.group_sentence(&det, &a, &vp, span);
                }
                return self.quantified(det, a, Some(vp), span);
            }
        }
        self.c.pos = save;
        Err(self.not_a_sentence())
    }

    fn not_a_sentence(&self) -> ParsePatternError {
        let mut e = self.c.expected(
            &V::say("a sentence such as `every piece points up`, `there are exactly three pieces` or `the number of small pieces is odd`"),
        );
        if self.c.is_word("it") {
            return e.with_help(
                V::say("`it` names a piece said before it in the sentence (`if a piece points up, it ...`), or the structure (`it has two groups`)"),
            );
        }
        if self.np_start() {
            let here = self.c.here();
            let w = self.c.word().unwrap_or("");
            e.message = V::say(&format!(
                "a sentence needs a determiner before `{w}`: which pieces, and how many?"
            ));
            let every = if self.noun_ahead_is_plural() {
                "all "
            } else {
                "every "
            };
            e = e
                .with_example(splice(self.src, &(here.start..here.start), every))
                .with_example(splice(self.src, &(here.start..here.start), "some "));
        }
        e
    }

    // -----------------------------------------------------------------------------
    // The pieces at once.

    /// `all pieces point the same direction`, `no two pieces touch`, `some pieces
    /// touch each other`, `the pieces are connected`: a verb phrase that speaks of
    /// several pieces at once, with its subject's determiner.
    pub(crate) fn group_sentence(&self, det: &DetS, np: &Np<V>, vp: &Vp<V>, span: Span) -> R<F<V>> {
        // `there is a green tile in the same row`: one piece cannot share a row on its
        // own, and the other piece is not named (another green tile? any tile?).
        if matches!(det.det, Det::Some) && np.plural == Some(false) && np.pair.is_empty() {
            let what = &self.src[vp.span()];
            return Err(ParsePatternError::new(
                det.span.start..vp.span().end,
                V::say(&format!(
                    "`{what}` speaks of two pieces at once, but `{}` names one: name the other piece (another one like it, or any piece?)",
                    &self.src[det.span.start..np.span.end]
                )),
            )
            .with_example(splice(
                self.src,
                &(np.span.end..np.span.end),
                &format!(" and a {}", V::NOUN),
            )));
        }
        self.group_sentence_of(det, np, None, vp, span)
    }

    /// `an A and a B <in the same row / adjacent to each other / ...>`: some A and
    /// some other piece that is a B, so related with each other.
    pub(crate) fn coordinated_group(
        &self,
        det: &DetS,
        a: &Np<V>,
        b: &Np<V>,
        vp: &Vp<V>,
        span: Span,
    ) -> R<F<V>> {
        self.group_sentence_of(det, a, Some(b), vp, span)
    }

    /// The group sentence; `np_y`, if given, is what the partner of each piece is
    /// (otherwise the same noun phrase).
    fn group_sentence_of(
        &self,
        det: &DetS,
        np: &Np<V>,
        np_y: Option<&Np<V>>,
        vp: &Vp<V>,
        span: Span,
    ) -> R<F<V>> {
        let refuse = |what: &str| {
            Err(ParsePatternError::new(
                det.span.clone(),
                format!("`{}` here: {what}", &self.src[det.span.clone()]),
            ))
        };
        let (x, y) = (Var(self.base), Var(self.base + 1));
        let dom = self.dom();
        let outer = self.discourse.clone();
        let rx = self.lower_np(np, x, self.base + 2, &outer)?;
        let ry = self.lower_np(np_y.unwrap_or(np), y, self.base + 2, &outer)?;
        if np_y.is_some()
            && !(matches!(det.det, Det::Some)
                && matches!(vp, Vp::Collective(..) | Vp::Different(..) | Vp::Recip(..)))
        {
            return refuse(&V::say(
                "two kinds of pieces joined by `and` are read only as one of each (`a small piece and a large piece touch`)",
            ));
        }
        let distinct: F<V> = not(span.clone(), f(span.clone(), FormulaKind::Same(y, x)));
        // `adjacent tiles`: the two are so related.
        let pairc: Option<F<V>> = np
            .pair
            .iter()
            .map(|(r, at)| f(at.clone(), FormulaKind::Binary(*r, x, y)))
            .reduce(|a, b| bin(BinOp::And, a, b));
        let ry = and_opt(ry, pairc.clone());
        // Some other piece of the phrase relates to x.
        let partner = |rel: F<V>| {
            let body =
                and_opt(Some(distinct.clone()), and_opt(ry.clone(), Some(rel))).expect("present");
            f(span.clone(), FormulaKind::Exists(y, dom, body))
        };
        let each_x = |body: F<V>| and_opt(rx.clone(), Some(body)).expect("present");
        let exists_x = |body: F<V>| f(span.clone(), FormulaKind::Exists(x, dom, each_x(body)));
        let no_pair = |rel: F<V>| not(span.clone(), exists_x(partner(rel)));
        let relation = |pred: V::Binary, vspan: &Span| {
            let there = f(vspan.clone(), FormulaKind::Binary(pred, x, y));
            if V::symmetric(pred) {
                there
            } else {
                let back = f(vspan.clone(), FormulaKind::Binary(pred, y, x));
                bin(BinOp::And, there, back)
            }
        };
        match vp {
            Vp::NotAll(inner, nspan) => {
                if !matches!(det.det, Det::Every) {
                    return refuse(&V::say("`not all` is said of all the pieces"));
                }
                let all = self.group_sentence_of(det, np, np_y, inner, span.clone())?;
                Ok(not(nspan.start.min(span.start)..span.end, all))
            }
            Vp::Collective(kind, cspan) => {
                let same = f(cspan.clone(), FormulaKind::Binary(*kind, x, y));
                match &det.det {
                    Det::Every if pairc.is_some() => {
                        // `all adjacent tiles are the same colour`: every such pair.
                        Ok(not(
                            span.clone(),
                            exists_x(partner(not(span.clone(), same))),
                        ))
                    }
                    Det::Every => self.collective(*kind, np, cspan.clone(), span),
                    Det::No | Det::NoN(2) => Ok(no_pair(same)),
                    Det::NoN(n) => {
                        // Every piece shares it with fewer than n - 1 others.
                        let others = count(
                            y,
                            dom,
                            and_opt(Some(distinct.clone()), and_opt(ry.clone(), Some(same)))
                                .expect("present"),
                            cspan.clone(),
                        );
                        let few = cmp(
                            CmpOp::Lt,
                            others,
                            int(n - 1, det.span.clone()),
                            span.clone(),
                        );
                        let inner = match rx.clone() {
                            Some(r) => bin(BinOp::Implies, r, few),
                            None => few,
                        };
                        Ok(f(span.clone(), FormulaKind::Forall(x, dom, inner)))
                    }
                    Det::Some | Det::Num(Num::Cmp(CmpOp::Ge, 2)) => Ok(exists_x(partner(same))),
                    Det::Num(Num::Cmp(CmpOp::Ge, n)) if *n > 2 => {
                        let others = count(
                            y,
                            dom,
                            and_opt(Some(distinct.clone()), and_opt(ry.clone(), Some(same)))
                                .expect("present"),
                            cspan.clone(),
                        );
                        Ok(exists_x(cmp(
                            CmpOp::Ge,
                            others,
                            int(n - 1, det.span.clone()),
                            span.clone(),
                        )))
                    }
                    _ => refuse(&V::say(
                        "`the same ...` without `as` says how many pieces share it; say `at least two`, `all` or `no two`",
                    )),
                }
            }
            Vp::Different(kind, dspan) => {
                let same = f(dspan.clone(), FormulaKind::Binary(*kind, x, y));
                let differ = not(dspan.clone(), same);
                match &det.det {
                    Det::Every => Ok(no_pair(f(dspan.clone(), FormulaKind::Binary(*kind, x, y)))),
                    Det::No | Det::NoN(2) => Ok(no_pair(differ)),
                    Det::Some | Det::Num(Num::Cmp(CmpOp::Ge, 2)) => Ok(exists_x(partner(differ))),
                    _ => refuse(&V::say(
                        "`different ...` is said of all the pieces or of two of them; say `all` or `at least two`",
                    )),
                }
            }
            Vp::Recip(pred, rspan) => {
                let rel = relation(*pred, rspan);
                match &det.det {
                    // Every two of them (three pieces can never all touch), each
                    // with another, or all in one group? A person could mean any.
                    Det::Every => Err(ParsePatternError::new(
                        rspan.clone(),
                        V::say("this could mean every two of them, each with some other one, or all of them in one group: say which"),
                    )
                    .with_help(
                        V::say("e.g. `every piece touches another piece`, `no two pieces touch`, `the pieces are connected`"),
                    )),
                    Det::No | Det::NoN(2) => Ok(no_pair(rel)),
                    // Two that touch each other: some pair does.
                    Det::Some | Det::Num(Num::Cmp(CmpOp::Ge, 2)) => Ok(exists_x(partner(rel))),
                    Det::NoN(_) | Det::Only | Det::Half(_) | Det::TheUnique => refuse(
                        &V::say("`each other` is said of two pieces at a time; say `no two`, `some` or a number"),
                    ),
                    Det::Num(Num::Cmp(CmpOp::Ge, n)) if *n >= 3 => {
                        if !V::cluster(*pred, *n) {
                            let fewer = (2..*n).rev().find(|k| V::cluster(*pred, *k)).unwrap_or(2);
                            return refuse(&V::say(
                                "more than three pieces relating to each other could form a line, a ring or a cluster: say it of two or three at a time",
                            ))
                            .map_err(|e| {
                                e.with_example(splice(
                                    self.src,
                                    &det.span,
                                    &crate::lang::words::say_number(fewer),
                                ))
                            });
                        }
                        // Three that touch each other: one of them touches the other two.
                        let others = count(
                            y,
                            dom,
                            and_opt(Some(distinct.clone()), and_opt(ry.clone(), Some(rel)))
                                .expect("present"),
                            rspan.clone(),
                        );
                        Ok(exists_x(cmp(
                            CmpOp::Ge,
                            others,
                            int(n - 1, det.span.clone()),
                            span.clone(),
                        )))
                    }
                    _ => {
                        // `exactly two tiles of the same colour are adjacent`: two
                        // tiles, or two pairs?
                        if let Some((r, _)) = np.pair.first() {
                            return Err(V::pair_refusal(*r, det.span.start..np.span.end));
                        }
                        // Count the pieces that have such a partner.
                        let plain = Np::all(np.span.clone());
                        let body = each_x(partner(rel));
                        let counted = body.respan(span.clone());
                        self.quantify_lowered(
                            det,
                            &plain,
                            x.0,
                            None,
                            Some(counted),
                            span,
                            &outer,
                            dom,
                        )
                    }
                }
            }
            Vp::CountOf(c, num, cspan) => {
                if !matches!(det.det, Det::Every | Det::Some) || !np.is_plain() {
                    return refuse(&V::say(
                        "this is said of all the pieces at once (`the pieces point in two directions`)",
                    ));
                }
                Ok(num.holds_of(V::counted_term(self, *c, cspan.clone()), span))
            }
            Vp::Groups(num, gspan) => {
                if !matches!(det.det, Det::Every) || !np.is_plain() {
                    return refuse(&V::say(
                        "how many groups there are is said of all the pieces (`the pieces are connected`)",
                    ));
                }
                let Some(groups) = V::groups(gspan.clone()) else {
                    return refuse(&V::say("groups are not counted here"));
                };
                Ok(num.holds_of(groups, span))
            }
            _ => unreachable!("only group verb phrases come here"),
        }
    }

    /// `two adjacent tiles are red`, `there are two tiles of the same colour`, `no two
    /// tiles side by side are red`: a noun phrase that speaks of pairs so related, each
    /// of them doing the verb phrase (or, for one that speaks of them at once, the
    /// pair doing it).
    pub(crate) fn pair_sentence(
        &self,
        det: &DetS,
        np: &Np<V>,
        vp: Option<&Vp<V>>,
        span: Span,
    ) -> R<F<V>> {
        if let Some(vp) = vp.filter(|v| v.is_group()) {
            return self.group_sentence(det, np, vp, span);
        }
        let (rel, at) = np.pair.first().cloned().expect("a noun phrase of pairs");
        // The relation that fails to hang together as a cluster, if one does.
        let cluster = |n: i64| np.pair.iter().all(|(r, _)| V::cluster(*r, n));
        let failing = |n: i64| {
            np.pair
                .iter()
                .find(|(r, _)| !V::cluster(*r, n))
                .map_or(rel, |(r, _)| *r)
        };
        let (x, y) = (Var(self.base), Var(self.base + 1));
        let d = self.base + 2;
        let dom = self.dom();
        let outer = self.discourse.clone();
        let mut one = np.clone();
        one.pair = Vec::new();
        let body = |z: Var| -> R<Option<F<V>>> {
            let r = self.lower_np(&one, z, d, &outer)?;
            let v = match vp {
                Some(v) => Some(self.lower_vp(v, z, d, &outer)?),
                None => None,
            };
            Ok(and_opt(r, v))
        };
        let (bx, by) = (body(x)?, body(y)?);
        let rels: F<V> = np
            .pair
            .iter()
            .map(|(r, at)| f(at.clone(), FormulaKind::Binary(*r, x, y)))
            .reduce(|a, b| bin(BinOp::And, a, b))
            .expect("a noun phrase of pairs");
        let related: F<V> = bin(
            BinOp::And,
            not(at.clone(), f(at.clone(), FormulaKind::Same(y, x))),
            rels.clone(),
        );
        let exists_pair = |bx: Option<F<V>>, by: Option<F<V>>| {
            let inner = and_opt(and_opt(Some(related.clone()), bx), by).expect("present");
            let inner = f(span.clone(), FormulaKind::Exists(y, dom, inner));
            f(span.clone(), FormulaKind::Exists(x, dom, inner))
        };
        // `n` of them, related: one of them related to at least n - 1 others.
        let one_related_to_others = |n: i64, bx: Option<F<V>>, by: Option<F<V>>| {
            let others = count(
                y,
                dom,
                and_opt(Some(related.clone()), by).expect("present"),
                at.clone(),
            );
            let enough = cmp(
                CmpOp::Ge,
                others,
                int(n - 1, det.span.clone()),
                span.clone(),
            );
            let inner = and_opt(bx, Some(enough)).expect("present");
            f(span.clone(), FormulaKind::Exists(x, dom, inner))
        };
        Ok(match &det.det {
            Det::Some | Det::Num(Num::Cmp(CmpOp::Ge, 2)) => exists_pair(bx, by),
            Det::No | Det::NoN(2) => not(span.clone(), exists_pair(bx, by)),
            Det::NoN(n) if cluster(*n) => not(span.clone(), one_related_to_others(*n, bx, by)),
            Det::Only if vp.is_none() && cluster(i64::MAX) => {
                // `only tiles of the same colour`: every two of them are so related.
                let (rx, ry) = (
                    bx.unwrap_or_else(|| f(span.clone(), FormulaKind::Bool(true))),
                    by,
                );
                let inner = match ry {
                    Some(ry) => bin(BinOp::Implies, ry, rels.clone()),
                    None => rels.clone(),
                };
                let inner = f(span.clone(), FormulaKind::Forall(y, dom, inner));
                let inner = bin(BinOp::Implies, rx, inner);
                f(span.clone(), FormulaKind::Forall(x, dom, inner))
            }
            Det::Every => {
                // Every such pair: both do it.
                let both =
                    and_opt(bx, by).unwrap_or_else(|| f(span.clone(), FormulaKind::Bool(true)));
                let inner = bin(BinOp::Implies, related.clone(), both);
                let inner = f(span.clone(), FormulaKind::Forall(y, dom, inner));
                f(span.clone(), FormulaKind::Forall(x, dom, inner))
            }
            Det::Num(Num::Cmp(CmpOp::Ge, n)) if *n >= 3 => {
                if !cluster(*n) {
                    return Err(V::pair_refusal(failing(*n), det.span.start..np.span.end));
                }
                one_related_to_others(*n, bx, by)
            }
            _ => return Err(V::pair_refusal(failing(2), det.span.start..np.span.end)),
        })
    }

    /// `all NP point the same direction` and kin.
    pub(crate) fn collective(
        &self,
        kind: V::Binary,
        np: &Np<V>,
        cspan: Span,
        span: Span,
    ) -> R<F<V>> {
        if np.is_plain()
            && self.within.is_none()
            && let Some(term) = V::collective_term(kind, cspan.clone())
        {
            return Ok(cmp(CmpOp::Eq, term, int(1, cspan), span));
        }
        let (x, y) = (Var(self.base), Var(self.base + 1));
        let dom = self.dom();
        let outer = self.discourse.clone();
        let rx = self.lower_np(np, x, self.base + 1, &outer)?;
        let ry = self.lower_np(np, y, self.base + 2, &outer)?;
        let p = f(cspan.clone(), FormulaKind::Binary(kind, x, y));
        let inner = match ry {
            Some(ry) => bin(BinOp::Implies, ry, p),
            None => p,
        };
        let inner = f(span.clone(), FormulaKind::Forall(y, dom, inner));
        let outer = match rx {
            Some(rx) => bin(BinOp::Implies, rx, inner),
            None => inner,
        };
        Ok(f(span, FormulaKind::Forall(x, dom, outer)))
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
    .with_example(V::RELATIVE_EXAMPLE)
}
