//! Noun phrases: adjectives, `small or large`, `an upward piece`, `a small one`, elided
//! nouns, and relative clauses (`that ...`, participles, places).

use super::{Det, DetS, Mode, Np, Obj, Parser, Place, R, Sym, Vocabulary, Vp, splice};

/// What says that kinds of things joined by `and` are counted together.
const COMBINED: &[&[&str]] = &[
    &["combined"],
    &["together"],
    &["put", "together"],
    &["taken", "together"],
    &["in", "total"],
    &["altogether"],
];
use crate::lang::error::ParsePatternError;

impl<V: Vocabulary> Parser<'_, V> {
    /// Whether a noun phrase (without determiner) starts here.
    pub(crate) fn np_start(&self) -> bool {
        self.np_start_at(0)
    }

    /// Whether a noun phrase starts `k` words ahead.
    pub(crate) fn np_start_at(&self, k: usize) -> bool {
        self.c
            .word_at(k)
            .is_some_and(|w| V::is_modifier(w) || V::is_noun(w) || matches!(w, "other" | "non"))
    }

    /// The noun phrase after a determiner: nothing more after `of them` or
    /// `everything` (but a relative clause), and the noun may be left out after a
    /// number or `some` (`at least one pointing up`, `some that are small`).
    pub(crate) fn np_after(&mut self, det: &DetS) -> R<Np<V>> {
        if det.np_done {
            let start = self.start();
            // `something small`, `nothing large`: adjectives after the word.
            let mut mods = Vec::new();
            while let Some(p) = self.c.word().and_then(V::adjective) {
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
        // `touching another one`: `one` stands for the noun after `another`.
        if det.other.is_some()
            && matches!(self.c.word(), Some("one"))
            && !self.c.word_at(1).is_some_and(V::is_noun)
        {
            let at = self.c.bump();
            let mut np = Np::all(at);
            np.plural = Some(false);
            np.rel = self.relative_clause()?.map(Box::new);
            return Ok(np);
        }
        self.noun_phrase_with(elidable)
    }

    pub(crate) fn noun_phrase(&mut self) -> R<Np<V>> {
        self.noun_phrase_with(false)
    }

    /// Adjectives (and what stands for them), the noun, an optional relative clause.
    /// `elide`: the noun may be left out before a verb, a relative clause or the end.
    pub(crate) fn noun_phrase_with(&mut self, elide: bool) -> R<Np<V>> {
        self.enter()?;
        let start = self.start();
        let mut mods = Vec::new();
        let mut other = None;
        let mut pair = Vec::new();
        loop {
            if self.c.is_word("other") {
                other = Some(self.c.bump());
                continue;
            }
            if let Some((rel, n)) = V::pair_adjective(self) {
                let here = self.c.here().start;
                self.c.pos += n;
                pair.push((rel, self.span_from(here)));
                continue;
            }
            let Some(m) = self.modifier()? else {
                break;
            };
            let m = self.modifier_alternatives(m)?;
            mods.push(m);
        }
        let plural = match self.c.word() {
            Some(w) if V::is_noun(w) => {
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
            _ => {
                return Err(
                    V::noun_refusal(self).unwrap_or_else(|| self.c.expected(V::NOUN_EXPECTED))
                );
            }
        };
        if std::mem::take(&mut self.combined)
            && let Some(ws) = COMBINED.iter().find(|ws| self.c.is_words(ws))
        {
            self.c.pos += ws.len();
        }
        if let Some(p) = V::pair_after_noun(self) {
            pair.push(p);
        }
        let mut rel = self.relative_clause()?;
        // `a red tile left of a blue tile in the same row`: one thing named as an
        // object shares the row with the thing the relation is said of (`... in the
        // same row as it`); it has no other to share it with.
        if self.reading_object && plural == Some(false) && rel.is_none() {
            for (line, place) in [("row", Place::SameRow), ("column", Place::SameColumn)] {
                if self.c.is_words(&["in", "the", "same", line])
                    && self.c.word_at(4) != Some("as")
                    && let Some(r) = V::place(place)
                {
                    let here = self.start();
                    self.c.pos += 4;
                    let span = self.span_from(here);
                    let it = Obj::It(span.end..span.end);
                    rel = Some(Vp::Rel(r, span, Box::new(it), false));
                    break;
                }
            }
        }
        self.leave();
        Ok(Np {
            mods,
            other,
            rel: rel.map(Box::new),
            span: self.span_from(start),
            plural,
            pair,
        })
    }

    /// One adjective (or what stands for one) before the noun, as a verb phrase.
    pub(crate) fn modifier(&mut self) -> R<Option<Vp<V>>> {
        let Some(w) = self.c.word().map(str::to_string) else {
            return Ok(None);
        };
        if let Some(p) = V::adjective(&w) {
            return Ok(Some(Vp::Unary(p, self.c.bump())));
        }
        if let Some(m) = V::modifier(self)? {
            return Ok(Some(m));
        }
        if w == "non" {
            let start = self.c.bump().start;
            self.c.eat_sym(Sym::Minus);
            let Some(p) = self.c.word().and_then(V::adjective) else {
                return Err(self
                    .c
                    .expected(&V::say("an adjective after `non-`, e.g. `non-small`")));
            };
            self.c.bump();
            let span = self.span_from(start);
            return Ok(Some(Vp::Not(Box::new(Vp::Unary(p, span.clone())), span)));
        }
        Ok(None)
    }

    /// Whether a noun (or `one(s)`) follows within the adjectives from `k`.
    pub(crate) fn noun_follows(&self, k: usize) -> bool {
        let mut i = k;
        loop {
            if matches!(self.c.sym_at(i), Some(Sym::Comma | Sym::Minus)) {
                i += 1;
                continue;
            }
            let Some(w) = self.c.word_at(i) else {
                return false;
            };
            if V::is_noun(w) || matches!(w, "one" | "ones") {
                return true;
            }
            let modifier = V::is_modifier(w) || matches!(w, "or" | "non" | "other");
            if !modifier {
                return false;
            }
            i += 1;
        }
    }

    /// `small or large`, `small, medium or large` before a noun: either property.
    /// `and` between adjectives is refused (both at once, or either kind?).
    pub(crate) fn modifier_alternatives(&mut self, first: Vp<V>) -> R<Vp<V>> {
        let mut alts = first;
        loop {
            let save = self.c.pos;
            let comma = self.c.eat_sym(Sym::Comma);
            let or = self.c.eat_word("or");
            if !(comma || or) {
                // `red and yellow tiles combined`: tiles of either kind, counted together.
                if self.c.is_word("and")
                    && self.c.word_at(1).is_some_and(|w| V::adjective(w).is_some())
                    && (self.combined_after(1) || self.counting_kinds)
                {
                    self.c.bump();
                    let Some(next) = self.modifier()? else {
                        self.c.pos = save;
                        break;
                    };
                    alts = Vp::Or(Box::new(alts), Box::new(next));
                    self.combined = true;
                    break;
                }
                if self.c.is_word("and")
                    && !self.comparing
                    && self.c.word_at(1).is_some_and(|w| V::adjective(w).is_some())
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

    /// Whether the adjectives from `k` end in a plural noun and then `combined` /
    /// `together` / `in total`.
    fn combined_after(&self, k: usize) -> bool {
        let mut i = k;
        while self.c.word_at(i).is_some_and(|w| V::adjective(w).is_some()) {
            i += 1;
        }
        self.c
            .word_at(i)
            .is_some_and(|w| V::is_noun(w) && w.ends_with('s'))
            && COMBINED.iter().any(|ws| {
                ws.iter()
                    .enumerate()
                    .all(|(j, w)| self.c.word_at(i + 1 + j) == Some(*w))
            })
    }

    /// After `small, medium`: whether an `or` and another adjective follow.
    pub(crate) fn continues_alternatives(&self) -> bool {
        self.continues_alternatives_from(0) && !self.list_ends_with_and(0)
    }

    /// Whether adjectives and commas from `k` end in `or` / `and` and one more.
    pub(crate) fn continues_alternatives_from(&self, k: usize) -> bool {
        let end = self.list_end(k);
        matches!(self.c.word_at(end), Some("or" | "and"))
            && self
                .c
                .word_at(end + 1)
                .is_some_and(|w| V::adjective(w).is_some())
    }

    pub(crate) fn list_ends_with_and(&self, k: usize) -> bool {
        self.c.word_at(self.list_end(k)) == Some("and")
    }

    /// The first token from `k` that is neither a comma nor an adjective.
    pub(crate) fn list_end(&self, k: usize) -> usize {
        let mut k = k;
        while matches!(self.c.sym_at(k), Some(Sym::Comma))
            || self.c.word_at(k).is_some_and(|w| V::adjective(w).is_some())
        {
            k += 1;
        }
        k
    }

    /// `that/which VP`, a participle, or a place (`pieces above a large piece`),
    /// with more clauses joined by `and that`.
    pub(crate) fn relative_clause(&mut self) -> R<Option<Vp<V>>> {
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
        } else if let Some(vp) = V::postmodifier(self)? {
            // `a tile of the same colour that is adjacent to it`: a clause may follow.
            return Ok(Some(match self.relative_clause()? {
                Some(more) => Vp::And(Box::new(vp), Box::new(more)),
                None => vp,
            }));
        } else {
            return Ok(None);
        };
        Ok(Some(self.joined_relatives(first)?))
    }

    /// Whether a complement that speaks of the pieces at once follows (`in the same
    /// row`, `the same size`, `of different sizes`), with no `as` and a piece after it.
    pub(crate) fn group_complement_ahead(&self) -> bool {
        let w = |i: usize| self.c.word_at(i).unwrap_or("");
        let k = usize::from(w(0) == "all");
        let line = |w: &str| matches!(w, "row" | "column");
        let same = |i: usize| {
            (matches!(w(i), "in" | "on")
                && w(i + 1) == "the"
                && w(i + 2) == "same"
                && line(w(i + 3))
                && w(i + 4) != "as")
                || (w(i) == "the"
                    && w(i + 1) == "same"
                    && V::same_complement(w(i + 2))
                    && w(i + 3) != "as")
                || (w(i) == "of"
                    && w(i + 1) == "the"
                    && w(i + 2) == "same"
                    && V::same_complement(w(i + 3))
                    && w(i + 4) != "as")
        };
        let different = |i: usize| {
            (matches!(w(i), "in" | "on" | "of") && w(i + 1) == "different")
                || (w(i) == "different"
                    && (matches!(w(i + 1), "rows" | "columns")
                        || V::sameness(w(i + 1)).is_some() && w(i + 1).ends_with('s')))
        };
        same(k) || different(k)
    }

    /// A place or comparison that can follow a noun directly: `above ...`,
    /// `larger than ...`, `in the same row as ...`.
    pub(crate) fn place_start(&self, k: usize) -> bool {
        let w = |i: usize| self.c.word_at(k + i).unwrap_or("");
        match w(0) {
            "above" | "below" | "directly" | "beneath" | "under" => {
                w(0) != "under" || w(1) != "half"
            }
            "higher" | "lower" => w(1) == "than",
            "left" | "right" => w(1) == "of",
            "to" => w(1) == "the" && matches!(w(2), "left" | "right") && w(3) == "of",
            "in" if w(1) == "the" && w(2) == "same" => {
                matches!(w(3), "row" | "column") && w(4) == "as"
            }
            _ => V::place_start(self, k),
        }
    }

    /// The verb phrase of one relative clause (after `that`, or a participle).
    pub(crate) fn relative(&mut self, mode: Mode) -> R<Vp<V>> {
        if !self.vp_start(0, mode) {
            return Err(self.c.expected(V::VP_EXPECTED));
        }
        self.in_relative += 1;
        let r = self.vp(mode);
        self.in_relative -= 1;
        let r = r?;
        if r.is_group() && !(self.group_relative && self.in_relative == 0) {
            return Err(ParsePatternError::new(
                r.span(),
                V::say(
                    "this speaks of several pieces at once, so it cannot describe one piece: make it a sentence of its own",
                ),
            ));
        }
        Ok(r)
    }

    /// More relative clauses after the first, each with its own `that` / `which`:
    /// `a piece which is not small and which points left`. A `not` or an `or` inside one
    /// clause stays there. Refused when both `and` and `or` join, and when the phrase
    /// is itself inside a relative clause (`every piece that touches a piece that
    /// points up and that is small ...`: which piece is small?).
    pub(crate) fn joined_relatives(&mut self, first: Vp<V>) -> R<Vp<V>> {
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
}
