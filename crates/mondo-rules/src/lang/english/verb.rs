//! Verb phrases: `points up`, `touches each other`, `is pointed at by ...`, `has two pips`,
//! `are in different rows`, and the complements of `is`.

use super::{Mode, Obj, Parser, Place, R, Sym, Vocabulary, Vp, splice};
use crate::lang::error::ParsePatternError;

impl<V: Vocabulary> Parser<'_, V> {
    pub(crate) fn vp_start(&self, k: usize, mode: Mode) -> bool {
        let Some(w) = self.c.word_at(k) else {
            return false;
        };
        match mode {
            Mode::Finite => Self::is_finite_verb(w),
            Mode::Participle => {
                (V::PARTICIPLES.contains(&w)
                    && (w != "pointed" || self.c.word_at(k + 1) == Some("at")))
                    || (w == "not"
                        && self
                            .c
                            .word_at(k + 1)
                            .is_some_and(|n| V::PARTICIPLES.contains(&n)))
            }
        }
    }

    pub(crate) fn vp(&mut self, mode: Mode) -> R<Vp<V>> {
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

    pub(crate) fn vp_and(&mut self, mode: Mode) -> R<(Vp<V>, bool)> {
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
    pub(crate) fn check_negation_scope(&self, after_do_not: bool) -> R<()> {
        if after_do_not && self.c.word_at(1).is_some_and(|w| V::DO_VERBS.contains(&w)) {
            // The `not` repeated before the second verb, as the first was said.
            let does = if self.src.contains("does not") || self.src.contains("doesn't") {
                "does not "
            } else {
                "do not "
            };
            let verb = self
                .c
                .peek_at(1)
                .map_or(0..0, |t| t.span.start..t.span.start);
            return Err(ParsePatternError::new(
                self.c.here(),
                format!(
                    "`not` could cover one verb or both here: repeat it (`{} do not {} ...`) or put the negated verb last",
                    self.c.word().unwrap_or("and"),
                    self.c.word_at(1).unwrap_or("touch")
                ),
            )
            .with_example(splice(self.src, &verb, does)));
        }
        Ok(())
    }

    /// One verb and its complement. The flag says it was negated with `do not` (see
    /// [`Parser::check_negation_scope`]).
    pub(crate) fn vp_atom(&mut self, mode: Mode) -> R<(Vp<V>, bool)> {
        self.enter()?;
        let start = self.start();
        let w = self.c.word().unwrap_or("").to_string();
        if let Some(vp) = V::verb(self, mode, &w) {
            let vp = vp?;
            self.leave();
            return Ok((vp, false));
        }
        // `no two pieces share a row`, `shares a colour with a red tile`.
        if matches!(w.as_str(), "share" | "shares" | "sharing") {
            self.c.bump();
            let _ = self.c.eat_word("a") || self.c.eat_words(&["the", "same"]);
            let what = self
                .line_at(0)
                .or_else(|| self.c.word().and_then(V::sameness));
            let Some(same) = what else {
                return Err(self
                    .c
                    .expected("what they share: `a row`, `a column`, `the same ...`"));
            };
            self.c.bump();
            let span = self.span_from(start);
            let vp = if self.c.eat_word("with") {
                Vp::Rel(same, span, Box::new(self.object()?), false)
            } else {
                Vp::Collective(same, span)
            };
            self.leave();
            return Ok((vp, false));
        }
        let r = match (mode, w.as_str()) {
            (Mode::Finite, "is" | "are") => {
                self.c.bump();
                let neg = self.c.eat_word("not");
                (self.copula_rest(neg, start)?, false)
            }
            (Mode::Finite, "isn't" | "aren't") => {
                self.c.bump();
                (self.copula_rest(true, start)?, false)
            }
            (Mode::Finite, "exist" | "exists" | "appear" | "appears" | "occur" | "occurs") => {
                (Vp::True(self.c.bump()), false)
            }
            (Mode::Finite, "does" | "do" | "doesn't" | "don't") => {
                self.c.bump();
                if matches!(w.as_str(), "does" | "do") && !self.c.eat_word("not") {
                    return Err(self.c.expected("`not`"));
                }
                // `they do not all point the same way`: not every one of them.
                if self.c.is_word("all") && self.universal_subject && self.vp_start(1, Mode::Finite)
                {
                    self.c.bump();
                    let (v, _) = self.licensing(true, |p| p.vp_atom(Mode::Finite))?;
                    self.leave();
                    return Ok((Vp::NotAll(Box::new(v), self.span_from(start)), true));
                }
                let verb = self.c.word().unwrap_or("");
                if !(V::FINITE_VERBS.contains(&verb)
                    || matches!(verb, "exist" | "appear" | "occur"))
                {
                    return Err(self
                        .c
                        .expected(V::DO_NOT_EXPECTED)
                        .with_help("to negate `is`, write `is not`"));
                }
                let (v, _) = self.licensing(true, |p| p.vp_atom(Mode::Finite))?;
                if v.is_group() {
                    return Err(ParsePatternError::new(
                        self.span_from(start),
                        V::say(
                            "a negated `each other` or `the same ...` is ambiguous (not all of them, or none?): say `no two pieces ...` or `not all pieces ...`",
                        ),
                    ));
                }
                (Vp::Not(Box::new(v), self.span_from(start)), true)
            }
            (Mode::Participle, "not") => {
                self.c.bump();
                let (v, _) = self.licensing(true, |p| p.vp_atom(Mode::Participle))?;
                (Vp::Not(Box::new(v), self.span_from(start)), false)
            }
            _ => return Err(self.c.expected(V::VP_EXPECTED)),
        };
        self.leave();
        Ok(r)
    }

    /// `each other` / `one another`, if next.
    pub(crate) fn each_other(&mut self) -> bool {
        self.c.eat_words(&["each", "other"]) || self.c.eat_words(&["one", "another"])
    }

    /// After `has` / `have`: a thing that relates to the subject through `it` (`has a
    /// small piece above it`, `has a blue tile adjacent to it`).
    pub(crate) fn has_object(&mut self, start: usize) -> R<Vp<V>> {
        let obj = self.object()?;
        if !matches!(&obj, Obj::Dp(dp) if dp.np.mentions_it()) {
            return Err(ParsePatternError::new(
                self.span_from(start),
                V::say("say how the other piece relates to it: `has a small piece above it`"),
            ));
        }
        Ok(Vp::Has(Box::new(obj), self.span_from(start)))
    }

    /// After `touch(es)` (the vocabulary's `rel`): an object, `each other`, or nothing
    /// (`no two pieces touch`).
    pub(crate) fn touch_rest(&mut self, rel: V::Binary, start: usize) -> R<Vp<V>> {
        if self.each_other() {
            // `touching each other in one group`: connected.
            let one = [
                &["in", "one", "group"][..],
                &["in", "a", "single", "group"],
                &["as", "one", "group"],
            ];
            if let Some(ws) = one.iter().find(|ws| self.c.is_words(ws)) {
                self.c.pos += ws.len();
                return Ok(Vp::Groups(
                    super::Num::Cmp(super::CmpOp::Eq, 1),
                    self.span_from(start),
                ));
            }
            return Ok(Vp::Recip(rel, self.span_from(start)));
        }
        if self.at_clause_end(0) || self.c.is_word("than") {
            return Ok(Vp::Recip(rel, self.span_from(start)));
        }
        let span = self.span_from(start);
        Ok(Vp::Rel(rel, span, Box::new(self.object()?), false))
    }

    /// Whether a finite verb comes next, perhaps after `never` / `always` (what
    /// follows a subject, so a list of things ends there).
    pub(crate) fn verb_ahead(&self) -> bool {
        self.vp_start(0, Mode::Finite)
            || matches!(self.c.word(), Some("never" | "always")) && self.vp_start(1, Mode::Finite)
    }

    /// Whether a sentence with a bare plural subject starts `k` words ahead
    /// (`... and adjacent tiles never match`, `... and red tiles are never adjacent`):
    /// a few words, a plural noun, then its verb.
    fn plural_sentence_ahead(&self, k: usize) -> bool {
        for j in k..k + 3 {
            match self.c.word_at(j) {
                Some(w) if V::is_noun(w) && w.ends_with('s') => {
                    return matches!(self.c.word_at(j + 1), Some("never" | "always"))
                        || self.vp_start(j + 1, Mode::Finite);
                }
                None | Some("to" | "as" | "than" | "of" | "the" | "a" | "an" | "and" | "or") => {
                    return false;
                }
                Some(_) => {}
            }
        }
        false
    }

    pub(crate) fn comp_start(&self, k: usize) -> bool {
        let w = |i: usize| self.c.word_at(k + i).unwrap_or("");
        match w(0) {
            "not" => self.comp_start(k + 1),
            "present" => true,
            "different" | "of" => true,
            p if V::PARTICIPLES.contains(&p) => true,
            _ => {
                self.place_start(k)
                    || V::adjective(w(0)).is_some()
                    || w(0) == "the" && w(1) == "same"
                    || V::complement_start(self, k)
            }
        }
    }

    /// After `is` / `are` (and `not`): adjectives and relations joined by `and`/`or`
    /// (`and` binding tighter).
    pub(crate) fn copula_rest(&mut self, neg: bool, start: usize) -> R<Vp<V>> {
        // `two tiles in the same column are both green`: the two.
        if self.two_subject && !neg && self.c.is_word("both") && self.c.word_at(1) != Some("of") {
            self.c.bump();
        }
        // `the pieces are all small`: a floating `all` adds nothing to `all`.
        if matches!(self.c.word(), Some("all" | "each" | "both"))
            && !self.c.is_words(&["all", "of"])
        {
            if !self.universal_subject {
                return Err(ParsePatternError::new(
                    self.c.here(),
                    V::say(
                        "`all` here speaks of every piece, but the sentence starts with another number: say `all` once",
                    ),
                ));
            }
            self.c.bump();
            if neg {
                // `the pieces are not all small`: not every piece is.
                let first = self.licensing(true, Self::comp_atom)?;
                return Ok(Vp::NotAll(Box::new(first), self.span_from(start)));
            }
        }
        if self.c.is_word("neither") {
            return self.neither_nor(start);
        }
        if self.c.is_word("either") && !neg {
            return self.either_or();
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
                    V::say(
                        "a negated `the same ...` is ambiguous (not all of them, or none?): say `no two pieces ...` or `not all pieces ...`",
                    ),
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
                && self.c.word_at(1).is_some_and(|w| V::adjective(w).is_some())
                && self.continues_alternatives_from(1);
            if !(comma
                || matches!(self.c.word(), Some("and" | "or"))
                    && self.comp_start(1)
                    && !self.plural_sentence_ahead(1))
            {
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

    /// `either red or yellow` (colours, or kinds, that cannot both hold: inclusive and
    /// exclusive alike), `either small or vertical but not both`.
    fn either_or(&mut self) -> R<Vp<V>> {
        let either = self.c.bump();
        let a = self.comp_atom()?;
        self.c.eat_sym(Sym::Comma);
        if !self.c.eat_word("or") {
            return Err(self.c.expected("`or` (write `either red or blue`)"));
        }
        let b = self.comp_atom()?;
        if self.c.eat_words(&["but", "not", "both"]) {
            let (na, nb) = (a.span(), b.span());
            let left = Vp::And(
                Box::new(a.clone()),
                Box::new(Vp::Not(Box::new(b.clone()), nb)),
            );
            let right = Vp::And(Box::new(Vp::Not(Box::new(a), na)), Box::new(b));
            return Ok(Vp::Or(Box::new(left), Box::new(right)));
        }
        let exclusive =
            matches!((&a, &b), (Vp::Unary(p, _), Vp::Unary(q, _)) if V::exclusive(*p, *q));
        if !exclusive {
            let end = b.span().end;
            return Err(ParsePatternError::new(
                either.clone(),
                "`either ... or ...` could be inclusive or exclusive: add `but not both`, or drop `either`",
            )
            .with_example(splice(self.src, &(end..end), " but not both"))
            .with_example(splice(self.src, &(either.start..b.span().start.min(either.end + 1)), "")));
        }
        Ok(Vp::Or(Box::new(a), Box::new(b)))
    }

    /// `neither small nor large`, `neither all red nor all blue` (each side with a
    /// floating `all` negates the subject's `every`).
    fn neither_nor(&mut self, start: usize) -> R<Vp<V>> {
        self.c.bump();
        let side = |p: &mut Self| -> R<Vp<V>> {
            let at = p.start();
            let all = p.c.is_word("all") && p.universal_subject && p.c.word_at(1) != Some("of");
            if all {
                p.c.bump();
            }
            let a = p.licensing(true, Self::comp_atom)?;
            let span = p.span_from(at);
            if all {
                Ok(Vp::NotAll(Box::new(a), span))
            } else if a.is_group() {
                Err(ParsePatternError::new(
                    span,
                    V::say(
                        "a negated `the same ...` is ambiguous (not all of them, or none?): say `no two pieces ...` or `not all pieces ...`",
                    ),
                ))
            } else {
                Ok(Vp::Not(Box::new(a), span))
            }
        };
        let a = side(self)?;
        self.c.eat_sym(Sym::Comma);
        if !self.c.eat_word("nor") {
            return Err(self.c.expected("`nor` (write `neither small nor large`)"));
        }
        let b = side(self)?;
        let _ = start;
        Ok(Vp::And(Box::new(a), Box::new(b)))
    }

    /// One complement of `is`: an adjective, a predicate nominal, a place or
    /// comparison with its object, or what speaks of the things at once (`the same
    /// size`, `in different rows`, `connected`).
    pub(crate) fn comp_atom(&mut self) -> R<Vp<V>> {
        self.enter()?;
        let start = self.start();
        let w = self.c.word().unwrap_or("").to_string();
        let r = if w == "not" {
            self.c.bump();
            let a = self.licensing(true, Self::comp_atom)?;
            Vp::Not(Box::new(a), self.span_from(start))
        } else if let Some(p) = V::adjective(&w) {
            Vp::Unary(p, self.c.bump())
        } else if let Some((y, super::Named::Thing)) = self.named_at(0) {
            // `x is y`: the same thing.
            Vp::Is(y, self.c.bump())
        } else if let Some(vp) = V::complement(self, start) {
            vp?
        } else if w == "present" || w == "there" && self.at_clause_end(1) {
            Vp::True(self.c.bump())
        } else if (w == "a" || w == "an")
            && self
                .c
                .word_at(1)
                .is_some_and(|n| V::is_modifier(n) || V::is_noun(n))
        {
            self.c.bump();
            let np = self.noun_phrase()?;
            let mut mods = np.mods;
            if let Some(rel) = np.rel {
                mods.push(*rel);
            }
            Vp::Adjs(mods, self.span_from(start))
        } else if let Some((place, n)) = self.place_words() {
            let Some(pred) = V::place(place) else {
                return Err(ParsePatternError::new(
                    self.span_from(start),
                    format!("{}s here do not have this place", V::NOUN),
                ));
            };
            self.c.pos += n;
            let span = self.span_from(start);
            Vp::Rel(pred, span, Box::new(self.object()?), false)
        } else if let Some(n) = [
            &["in", "one"][..],
            &["in", "a", "single"],
            &["in", "just", "one"],
            &["on", "one"],
        ]
        .iter()
        .find(|ws| self.c.is_words(ws))
        .map(|ws| ws.len())
        .and_then(|n| self.line_at(n).map(|l| (n, l)))
        {
            // `in one row`: all in the same row.
            let (n, line) = n;
            self.c.pos += n + 1;
            Vp::Collective(line, self.span_from(start))
        } else if (self.c.is_words(&["in", "the", "same"])
            || self.c.is_words(&["on", "the", "same"]))
            && self.line_at(3).is_some()
        {
            let line = self.line_at(3).expect("checked");
            self.c.pos += 4;
            if self.c.is_word("as") {
                self.c.bump();
                let span = self.span_from(start);
                Vp::Rel(line, span, Box::new(self.object()?), false)
            } else {
                Vp::Collective(line, self.span_from(start))
            }
        } else if let Some((same, n)) = self.same_words() {
            self.c.pos += n;
            if self.c.is_word("as") {
                self.c.bump();
                let span = self.span_from(start);
                Vp::Rel(same, span, Box::new(self.object()?), false)
            } else {
                Vp::Collective(same, self.span_from(start))
            }
        } else if (self.c.is_words(&["in", "different"]) || self.c.is_words(&["on", "different"]))
            && self.difference_at(2).is_some()
        {
            let d = self.difference_at(2).expect("checked");
            self.c.pos += 3;
            Vp::Different(d, self.span_from(start))
        } else if self.c.is_words(&["a", "different"])
            && self.c.word_at(2).and_then(V::sameness).is_some()
            && !matches!(self.c.word_at(3), Some("from" | "than" | "to"))
        {
            // `every piece is a different size`: no two the same.
            let d = self.c.word_at(2).and_then(V::sameness).expect("checked");
            self.c.pos += 3;
            Vp::Different(d, self.span_from(start))
        } else if (w == "different" || self.c.is_words(&["of", "different"]))
            && self.difference_at(if w == "of" { 2 } else { 1 }).is_some()
        {
            let k = if w == "of" { 2 } else { 1 };
            let d = self.difference_at(k).expect("checked");
            self.c.pos += k + 1;
            Vp::Different(d, self.span_from(start))
        } else if V::PARTICIPLES.contains(&w.as_str()) {
            self.vp_atom(Mode::Participle)?.0
        } else {
            return Err(V::complement_refusal(self, start));
        };
        self.leave();
        Ok(r)
    }

    /// A shared place here (`above`, `directly left of`, `in a higher row than`), and
    /// how many words it has (its object follows).
    pub(crate) fn place_words(&self) -> Option<(Place, usize)> {
        const PLACES: &[(&[&str], Place)] = &[
            (&["directly", "above"], Place::DirectlyAbove),
            (&["directly", "over"], Place::DirectlyAbove),
            (&["directly", "below"], Place::DirectlyBelow),
            (&["directly", "beneath"], Place::DirectlyBelow),
            (&["directly", "under"], Place::DirectlyBelow),
            (&["directly", "left", "of"], Place::DirectlyLeftOf),
            (&["directly", "right", "of"], Place::DirectlyRightOf),
            (
                &["directly", "to", "the", "left", "of"],
                Place::DirectlyLeftOf,
            ),
            (
                &["directly", "to", "the", "right", "of"],
                Place::DirectlyRightOf,
            ),
            (&["higher", "than"], Place::Above),
            (&["lower", "than"], Place::Below),
            (&["left", "of"], Place::LeftOf),
            (&["right", "of"], Place::RightOf),
            (&["to", "the", "left", "of"], Place::LeftOf),
            (&["to", "the", "right", "of"], Place::RightOf),
            (&["above"], Place::Above),
            (&["below"], Place::Below),
            (&["beneath"], Place::Below),
            (&["under"], Place::Below),
        ];
        if self.c.is_words(&["over", "half"]) || self.c.is_words(&["under", "half"]) {
            return None;
        }
        if self.c.is_word("over") {
            return Some((Place::Above, 1));
        }
        PLACES
            .iter()
            .find(|(ws, _)| self.c.is_words(ws))
            .map(|(ws, p)| (*p, ws.len()))
    }

    /// `row` / `column` `k` words ahead: the vocabulary's sameness of that line.
    pub(crate) fn line_at(&self, k: usize) -> Option<V::Binary> {
        match self.c.word_at(k)? {
            "row" => V::place(Place::SameRow),
            "column" => V::place(Place::SameColumn),
            _ => None,
        }
    }

    /// `the same size` / `of the same size` here: the sameness and how many words.
    fn same_words(&self) -> Option<(V::Binary, usize)> {
        let k = if self.c.is_words(&["of", "the", "same"]) {
            3
        } else if self.c.is_words(&["the", "same"]) {
            2
        } else {
            return None;
        };
        let w = self.c.word_at(k)?;
        if !V::same_complement(w) {
            return None;
        }
        Some((V::sameness(w)?, k + 1))
    }

    /// What differs in `different rows` / `different sizes`, `k` words ahead.
    fn difference_at(&self, k: usize) -> Option<V::Binary> {
        match self.c.word_at(k)? {
            "rows" | "row" => V::place(Place::SameRow),
            "columns" | "column" => V::place(Place::SameColumn),
            w => V::sameness(w),
        }
    }
}
