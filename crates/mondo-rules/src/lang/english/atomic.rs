//! Atomic sentences: `there is`, `Det NP VP`, `the ...`, `it ...`, lists of
//! adjectives and coordinated noun phrases after `there is`, and fragments (`no large
//! pieces`).

use super::{
    BinOp, CmpOp, Det, DetS, F, FormulaKind, Logic, Mode, Np, Parser, R, Spanned, Subject, Sym,
    Tok, Var, Vocabulary, Vp, and_opt, bin, cmp, f, not, splice,
};
use crate::lang::ast::Span;
use crate::lang::error::ParsePatternError;

/// Where the reader was, to read again from when what was tried is not there: the
/// position and the subject a following `it` would name.
pub(crate) struct Mark<V: Vocabulary> {
    pos: usize,
    subject: Option<Subject<V>>,
}

impl<V: Vocabulary> Parser<'_, V> {
    /// Where the reader is now ([`Parser::back_to`] returns there).
    pub(crate) fn mark(&self) -> Mark<V> {
        Mark {
            pos: self.c.pos,
            subject: self.subject.clone(),
        }
    }

    /// Back to `mark`, as if nothing after it was read.
    pub(crate) fn back_to(&mut self, mark: &Mark<V>) {
        self.c.pos = mark.pos;
        self.subject = mark.subject.clone();
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
                    Ok(Some(g)) if !self.verb_ahead() => {
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
        let mark = self.mark();
        let restore = |p: &mut Self| p.back_to(&mark);
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
        let mark = self.mark();
        let restore = |p: &mut Self| {
            p.back_to(&mark);
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
        let mut floating = None;
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
            floating = Some(self.c.bump());
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
            let the = self
                .src
                .get(det.span.clone())
                .is_some_and(|w| w.eq_ignore_ascii_case("the"));
            if the && np.plural == Some(true) && self.c.is_word("outnumber") {
                // `the red tiles outnumber the blue tiles`: the kinds, counted.
                return self.outnumber(&np, start);
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
        let wide = if universal && never.is_none() {
            let floating_all = floating.as_ref().is_some_and(|f| {
                self.src
                    .get(f.clone())
                    .is_some_and(|w| !w.eq_ignore_ascii_case("both"))
            });
            self.wide_negation(&det.span, floating_all)
        } else {
            None
        };
        let saved = std::mem::replace(&mut self.universal_subject, universal);
        let two = matches!(det.det, Det::Num(super::Num::Cmp(CmpOp::Eq | CmpOp::Ge, 2)));
        let saved_two = std::mem::replace(&mut self.two_subject, two);
        let vp = self.licensing(no, |p| p.vp(Mode::Finite));
        self.universal_subject = saved;
        self.two_subject = saved_two;
        let vp = vp?;
        if let Some((neg, left)) = wide {
            let det = match &floating {
                Some(f) => det.span.start..f.end,
                None => det.span.clone(),
            };
            return Err(self.scope_refusal(&det, &neg, &left));
        }
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
                return self.outnumber(&a, start);
            }
            // `small pieces always point up`, `small pieces never touch large pieces`,
            // `pieces pointing down are all large`: a rule about all of them.
            let plural = a.plural == Some(true);
            let det = if plural && self.c.eat_word("always") {
                Some(Det::Every)
            } else if plural && self.c.is_word("never") && self.vp_start(1, Mode::Finite) {
                self.c.bump();
                Some(Det::No)
            } else if plural && self.c.is_words(&["are", "never"]) {
                // `green tiles are never adjacent to each other`: no green tiles are.
                self.c.toks.remove(self.c.pos + 1);
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

    /// After `A`, at `outnumber`: `A outnumber B` (`the B`), or `A outnumber the other
    /// pieces` (`all the other pieces combined`): the rest of them.
    fn outnumber(&mut self, a: &Np<V>, start: usize) -> R<F<V>> {
        self.c.bump();
        let ca = self.count_np(a)?;
        let others = [
            &["all", "the", "other"][..],
            &["all", "other"],
            &["the", "other"],
            &["the", "rest", "of", "the"],
        ];
        if let Some(ws) = others
            .iter()
            .find(|ws| self.c.is_words(ws) && self.c.word_at(ws.len()).is_some_and(V::is_noun))
        {
            self.c.pos += ws.len() + 1;
            let _ = self.c.eat_word("combined") || self.c.eat_word("together");
            let x = Var(self.base);
            let Some(what) = self.lower_np(a, x, self.base + 1, &self.discourse)? else {
                return Err(ParsePatternError::new(
                    a.span.clone(),
                    V::say(
                        "say which pieces outnumber the other pieces: a kind of piece, not all of them",
                    ),
                ));
            };
            let span = self.span_from(start);
            let rest = super::count(x, self.dom(), not(a.span.clone(), what), span.clone());
            return Ok(cmp(CmpOp::Gt, ca, rest, span));
        }
        self.c.eat_word("the");
        let saved = std::mem::replace(&mut self.counting_kinds, true);
        let b = self.noun_phrase();
        self.counting_kinds = saved;
        let b = b?;
        let cb = self.count_np(&b)?;
        Ok(cmp(CmpOp::Gt, ca, cb, self.span_from(start)))
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
}
