//! Determiners: `exactly two`, `half of the`, `no two`, `any`, `they`, `nothing`, and the
//! refusals of the ambiguous ones (a bare number, `the` before one piece, `most`,
//! `between`).

use super::{CmpOp, Det, DetS, Num, Parity, Parser, R, Sym, Vocabulary, at_least, splice};
use crate::lang::ast::Span;
use crate::lang::error::ParsePatternError;

/// Words before a direction that only stress it (`the tile immediately below it`).
const NEIGHBOUR_ADVERBS: [&str; 4] = ["immediately", "directly", "right", "just"];

impl<V: Vocabulary> Parser<'_, V> {
    /// `the tile below it`, `the tile to the left of it`: the one tile next to it that
    /// way, as an object (where `the` otherwise means every such tile).
    fn the_neighbour_ahead(&self) -> bool {
        self.neighbour_words().is_some()
    }

    /// From `the`: the position of `it` in `the tile [immediately] below it`, and the
    /// direction said with `directly` (`directly left of`).
    fn neighbour_words(&self) -> Option<(usize, &'static [&'static str])> {
        let w = |i: usize| self.c.word_at(i).unwrap_or("");
        let noun = w(1);
        if !V::is_noun(noun) || noun.ends_with('s') {
            return None;
        }
        let mut k = 2;
        while NEIGHBOUR_ADVERBS.contains(&w(k)) && w(k + 1) != "of" {
            k += 1;
        }
        let dirs: &[(&[&str], &'static [&'static str])] = &[
            (&["below"], &["below"]),
            (&["under"], &["below"]),
            (&["beneath"], &["below"]),
            (&["above"], &["above"]),
            (&["left", "of"], &["left", "of"]),
            (&["right", "of"], &["right", "of"]),
            (&["to", "the", "left", "of"], &["left", "of"]),
            (&["to", "the", "right", "of"], &["right", "of"]),
        ];
        let (said, canonical) = dirs
            .iter()
            .find(|(ws, _)| ws.iter().enumerate().all(|(i, x)| w(k + i) == *x))?;
        k += said.len();
        (w(k) == "it").then_some((k, *canonical))
    }

    /// Reads `the tile below it` as `a tile that is directly below it and
    /// orthogonally adjacent to it` (the tiles' relations: `directly below` is the same
    /// column at any distance, so the adjacency makes it the next one down). Refused
    /// under `every`, which leaves open whether tiles with no tile there count.
    fn the_neighbour(&mut self) -> R<()> {
        let (it, dir) = self.neighbour_words().expect("checked");
        let from = self.c.pos;
        let whole = self.c.here().start..self.c.peek_at(it).map_or(self.c.end, |t| t.span.end);
        if self.universal_subject {
            return Err(ParsePatternError::new(
                whole.clone(),
                V::say(&format!(
                    "said of every piece, `{}` leaves open whether the pieces with no piece there count: say it of some piece or of no piece",
                    &self.src[whole]
                )),
            ));
        }
        let at = self.c.toks[from + it].span.clone();
        let word = |w: &str| crate::lang::lexer::Token {
            tok: crate::lang::lexer::Tok::Word(w.to_string()),
            span: at.clone(),
            spaced: true,
        };
        let after = from + it + 1;
        self.c.toks.splice(
            after..after,
            ["and", "orthogonally", "adjacent", "to", "it"].map(word),
        );
        // The direction as the tiles' relation says it; stressing adverbs
        // (`immediately`) add nothing once the tile is the next one.
        let said: Vec<_> = ["that", "is", "directly"]
            .iter()
            .chain(dir)
            .map(|w| word(w))
            .collect();
        self.c.toks.splice(from + 2..from + it, said);
        self.c.bump();
        Ok(())
    }

    /// A determiner, or `None` when the next words are not one. `subject`: it starts
    /// a sentence (where `any` means `every`). Refuses the ambiguous ones (a bare
    /// number, `the` before one piece, `any` as an object, `most`).
    pub(crate) fn det(&mut self, subject: bool) -> R<Option<DetS>> {
        let start = self.start();
        let w = self.c.word().unwrap_or("").to_string();
        let w1 = self.c.word_at(1).unwrap_or("").to_string();
        let mut other = None;
        let mut np_done = false;
        let det = match w.as_str() {
            "a" | "an" if w1 == "unique" => {
                self.c.pos += 2;
                Det::Num(Num::Cmp(CmpOp::Eq, 1))
            }
            "a" | "an" if w1 == "single" => {
                self.c.pos += 2;
                Det::Num(Num::Cmp(CmpOp::Eq, 1))
            }
            // `a pair of pieces point at each other`: two of them.
            "a" if w1 == "pair" && self.c.word_at(2) == Some("of") => {
                self.c.pos += 3;
                Det::Num(Num::Cmp(CmpOp::Ge, 2))
            }
            "a" | "an" | "odd" | "even" if self.parity_at().is_some() => {
                let (p, n) = self.parity_at().expect("checked");
                self.c.pos += n;
                Det::Parity(p)
            }
            "a" | "an" | "some" => {
                self.c.bump();
                Det::Some
            }
            "multiple" => {
                self.c.bump();
                Det::Num(Num::Cmp(CmpOp::Ge, 2))
            }
            "another" => {
                other = Some(self.c.bump());
                Det::Some
            }
            "every" | "each" => {
                self.c.bump();
                // `every piece except one is medium`.
                if let Some(n) = self.all_but() {
                    return Ok(Some(self.all_but_det(n, start)));
                }
                // `every two adjacent tiles`: every such pair.
                let _ = self.c.eat_word("one")
                    || self.c.eat_word("single")
                    || self
                        .c
                        .word_at(1)
                        .is_some_and(|w| V::is_modifier(w) || V::is_noun(w))
                        && self.c.eat_word("two");
                Det::Every
            }
            "all" => {
                self.c.bump();
                // `all pieces but one point up`, `all but two of the tiles`.
                if let Some(n) = self.all_but() {
                    return Ok(Some(self.all_but_det(n, start)));
                }
                Det::Every
            }
            "everything" | "everybody" | "everyone" => {
                self.c.bump();
                np_done = true;
                Det::Every
            }
            "something" | "somebody" | "someone" => {
                self.c.bump();
                np_done = true;
                Det::Some
            }
            "nothing" | "nobody" | "none" => {
                self.c.bump();
                // `none of the pieces` reads its noun phrase; `none points up` has none.
                np_done = w != "none" || !(self.c.is_word("of") || self.np_start());
                Det::No
            }
            "anything" | "anybody" | "anyone" => {
                let det = self.any_det(subject)?;
                np_done = true;
                det
            }
            "they" | "they're" => {
                if self.noun_before() {
                    return Err(ParsePatternError::new(
                        self.c.here(),
                        V::say(
                            "`they` could be all the pieces or the ones named before it: name them again",
                        ),
                    ));
                }
                self.c.bump();
                np_done = true;
                Det::Every
            }
            "not" if w1 == "a" && self.c.word_at(2) == Some("single") => {
                self.c.pos += 3;
                Det::No
            }
            "not" if w1 == "one" => {
                self.c.pos += 2;
                Det::No
            }
            "no" if matches!(w1.as_str(), "more" | "fewer" | "less")
                && self.c.word_at(2) == Some("than") =>
            {
                self.c.pos += 3;
                let n = self.number("than")?;
                Det::Num(Num::Cmp(
                    if w1 == "more" { CmpOp::Le } else { CmpOp::Ge },
                    n,
                ))
            }
            "no" if self.number_at(1).is_some_and(|n| n >= 2) => {
                self.c.bump();
                let n = self.number("no")?;
                Det::NoN(n)
            }
            "no" => {
                self.c.bump();
                Det::No
            }
            "zero" => {
                self.c.bump();
                Det::No
            }
            "exactly" | "precisely" if matches!(w1.as_str(), "half") => {
                self.c.pos += 2;
                Det::Half(CmpOp::Eq)
            }
            "exactly" | "precisely" => {
                self.c.bump();
                let n = self.number(&w)?;
                self.alternatives(n)?
            }
            "at" if (w1 == "least" || w1 == "most") && self.c.word_at(2) == Some("half") => {
                self.c.pos += 3;
                Det::Half(if w1 == "least" { CmpOp::Ge } else { CmpOp::Le })
            }
            "at" if w1 == "least" || w1 == "most" => {
                self.c.pos += 2;
                let n = self.number(&format!("at {w1}"))?;
                if w1 == "least" {
                    self.range(n)?.unwrap_or_else(|| at_least(n))
                } else {
                    Det::Num(Num::Cmp(CmpOp::Le, n))
                }
            }
            "more" | "over"
                if w1 == "than" && self.c.word_at(2) == Some("half")
                    || w == "over" && w1 == "half" =>
            {
                self.c.pos += if w1 == "than" { 3 } else { 2 };
                Det::Half(CmpOp::Gt)
            }
            "fewer" | "less" | "under" if w1 == "than" && self.c.word_at(2) == Some("half") => {
                self.c.pos += 3;
                Det::Half(CmpOp::Lt)
            }
            "half" => {
                self.c.bump();
                Det::Half(CmpOp::Eq)
            }
            "more" if w1 == "than" => {
                self.c.pos += 2;
                Det::Num(Num::Cmp(CmpOp::Gt, self.number("more than")?))
            }
            "fewer" | "less" if w1 == "than" => {
                self.c.pos += 2;
                Det::Num(Num::Cmp(CmpOp::Lt, self.number(&format!("{w} than"))?))
            }
            "up" if w1 == "to" && self.number_at(2).is_some() => {
                self.c.pos += 2;
                Det::Num(Num::Cmp(CmpOp::Le, self.number("up to")?))
            }
            "between" if self.number_at(1).is_some() => {
                if !V::POLICY.between_inclusive {
                    return Err(self.between_refusal());
                }
                // `between 1 and 3`: both ends included.
                self.c.bump();
                let lo = self.number("between")?;
                if !self.c.eat_word("and") {
                    return Err(self.c.expected("`and` and a second number"));
                }
                let hi = self.number("between ... and")?;
                Det::Num(Num::Range(lo.min(hi), lo.max(hi)))
            }
            "most" | "majority" if V::POLICY.most_is_more_than_half => {
                // `most of the tiles`, `the majority of`: more than half.
                self.c.bump();
                Det::Half(CmpOp::Gt)
            }
            "most" | "majority" => return Err(self.most_refusal()),
            "only" | "just" if w1 == "one" || self.number_at(1).is_some() => {
                self.c.bump();
                let n = self.number("only")?;
                self.alternatives(n)?
            }
            "only" => {
                self.c.bump();
                Det::Only
            }
            "the"
                if w1 == "unique"
                    || w1 == "only"
                    || w1 == "single"
                    || w1 == "one" && self.c.word_at(2) == Some("and") =>
            {
                self.c.pos += 2;
                Det::TheUnique
            }
            "the" if w1 == "majority" && V::POLICY.most_is_more_than_half => {
                self.c.pos += 2;
                Det::Half(CmpOp::Gt)
            }
            "the" if w1 == "majority" => return Err(self.most_refusal()),
            "the" if self.plural_np_ahead(1) => {
                self.c.bump();
                Det::Every
            }
            "the" if V::POLICY.the_is_every && !subject && self.the_neighbour_ahead() => {
                self.the_neighbour()?;
                Det::Some
            }
            "the" if V::POLICY.the_is_every && self.np_start_at(1) => {
                // `the leftmost tile is red`: every such tile.
                self.c.bump();
                Det::Every
            }
            "the" => return Err(self.the_refusal()),
            "any" => self.any_det(subject)?,
            _ if self.c.is_words(&["one", "and", "only", "one"]) => {
                self.c.pos += 4;
                Det::Num(Num::Cmp(CmpOp::Eq, 1))
            }
            _ => {
                let Some(n) = self.number_at(0) else {
                    return Ok(None);
                };
                let next = self.c.word_at(1).unwrap_or("");
                if n == 0 {
                    self.c.bump();
                    Det::No
                } else if next == "or" && self.c.word_at(2) == Some("more") {
                    self.c.pos += 3;
                    at_least(n)
                } else if next == "or" && matches!(self.c.word_at(2), Some("fewer" | "less")) {
                    self.c.pos += 3;
                    Det::Num(Num::Cmp(CmpOp::Le, n))
                } else if (next == "or" || self.c.sym_at(1) == Some(Sym::Comma))
                    && self.number_at(2).is_some()
                {
                    self.c.bump();
                    self.alternatives(n)?
                } else if n >= 2 && self.never_follows() {
                    // `two small pieces never touch`: no two do.
                    self.c.bump();
                    Det::NoN(n)
                } else if n == 1 && self.one_is_exact(1) {
                    // `one group`: `at least one` would say nothing.
                    self.c.bump();
                    Det::Num(Num::Cmp(CmpOp::Eq, 1))
                } else if self.kinds_counted_at(1) {
                    // `there are two colours`, `pieces of two sizes`: a number of
                    // kinds is that many (`at least` would leave the rest open).
                    self.c.bump();
                    Det::Num(Num::Cmp(CmpOp::Eq, n))
                } else if V::POLICY.bare_number_at_least {
                    // The seed's rule: `two red tiles` is at least two.
                    self.c.bump();
                    at_least(n)
                } else {
                    return Err(self.bare_number_refusal());
                }
            }
        };
        // `all of the pieces`, `exactly two of them`, `half the pieces`.
        if !np_done && !matches!(w.as_str(), "a" | "an" | "another") {
            if self.c.is_word("of")
                && matches!(self.c.word_at(1), Some("them" | "these" | "those"))
                && !self.c.word_at(2).is_some_and(V::is_noun)
            {
                self.c.pos += 2;
                np_done = true;
            } else if self.c.is_words(&["of", "the"]) || self.c.is_words(&["of", "these"]) {
                self.c.pos += 2;
            } else if (self.c.is_word("of") && self.c.word_at(1).is_some_and(V::is_noun))
                || (self.c.is_word("the") && matches!(det, Det::Every | Det::Half(_)))
            {
                self.c.bump();
            }
        }
        Ok(Some(DetS {
            det,
            span: self.span_from(start),
            other,
            np_done,
        }))
    }

    /// Whether kinds are counted at token `k` (`colours`, `different sizes`).
    fn kinds_counted_at(&mut self, k: usize) -> bool {
        let save = self.c.pos;
        self.c.pos += k;
        let counted = V::counted_noun(self);
        self.c.pos = save;
        counted.is_some_and(V::counted_is_kind)
    }

    /// The determiner `all but n` read from `start`.
    fn all_but_det(&self, n: i64, start: usize) -> DetS {
        DetS {
            det: Det::AllBut(n),
            span: self.span_from(start),
            other: None,
            np_done: false,
        }
    }

    /// After `all`, `every` or `each`: `but one` / `except two` before or after the
    /// noun phrase (`all pieces but one`), read when it is there: the number.
    fn all_but(&mut self) -> Option<i64> {
        let mut k = 0;
        while self
            .c
            .word_at(k)
            .is_some_and(|w| V::is_modifier(w) || V::is_noun(w) || matches!(w, "the" | "of"))
        {
            k += 1;
        }
        if !matches!(self.c.word_at(k), Some("but" | "except")) {
            return None;
        }
        let n = self.number_at(k + 1)?;
        // The words `but one` leave the noun phrase whole for the reader; right after
        // `all`, so does `of the` (`all but two of the pieces`).
        let mut end = self.c.pos + k + 2;
        if k == 0 && self.c.word_at(2) == Some("of") {
            end += 1 + usize::from(self.c.word_at(3) == Some("the"));
        }
        self.c.toks.drain(self.c.pos + k..end);
        Some(n)
    }

    /// `an odd number of` / `odd number of`: the parity and how many words.
    pub(crate) fn parity_at(&self) -> Option<(Parity, usize)> {
        let article = usize::from(matches!(self.c.word(), Some("a" | "an")));
        let p = match self.c.word_at(article)? {
            "odd" => Parity::Odd,
            "even" => Parity::Even,
            _ => return None,
        };
        (self.c.word_at(article + 1) == Some("number") && self.c.word_at(article + 2) == Some("of"))
            .then_some((p, article + 3))
    }

    /// `any`: `a` under a negation or in a condition; `every` as a subject; refused
    /// elsewhere.
    pub(crate) fn any_det(&mut self, subject: bool) -> R<Det> {
        if self.any_licensed || self.condition > 0 {
            self.c.bump();
            return Ok(Det::Some);
        }
        if subject {
            self.c.bump();
            return Ok(Det::Every);
        }
        let span = self.c.here();
        let any = &self.src[span.clone()];
        let (every, some) = if any.len() > 3 {
            (format!("every {}", V::NOUN), format!("some {}", V::NOUN))
        } else {
            ("every".to_string(), "some".to_string())
        };
        Err(
            ParsePatternError::new(span.clone(), "`any` can mean `every` or `some`: say which")
                .with_example(splice(self.src, &span, &every))
                .with_example(splice(self.src, &span, &some))
                .with_help(
                    V::say("`any` reads as `every` at the start of a sentence, and as `a` after a negation or `if`: `does not touch any large piece`"),
                ),
        )
    }

    /// After a number: `3 or 4`, `2, 3 or 4`.
    pub(crate) fn alternatives(&mut self, first: i64) -> R<Det> {
        let mut ns = vec![first];
        loop {
            let step = if (self.c.is_word("or") || self.c.is_sym(Sym::Comma))
                && self.number_at(1).is_some()
            {
                1
            } else if self.c.is_sym(Sym::Comma)
                && self.c.word_at(1) == Some("or")
                && self.number_at(2).is_some()
            {
                2
            } else {
                break;
            };
            self.c.pos += step;
            ns.push(self.number("or")?);
        }
        Ok(if ns.len() == 1 {
            Det::Num(Num::Cmp(CmpOp::Eq, first))
        } else {
            Det::Num(Num::OneOf(ns))
        })
    }

    /// After `at least N`: `and at most M` (`but no more than M`) makes a range.
    pub(crate) fn range(&mut self, lo: i64) -> R<Option<Det>> {
        let conj = matches!(self.c.word(), Some("and" | "but"));
        let upper = [
            &["at", "most"][..],
            &["no", "more", "than"],
            &["not", "more", "than"],
        ];
        let Some(u) = upper.iter().find(|u| {
            conj && u
                .iter()
                .enumerate()
                .all(|(k, w)| self.c.word_at(1 + k) == Some(*w))
        }) else {
            return Ok(None);
        };
        if self.number_at(1 + u.len()).is_none() {
            return Ok(None);
        }
        self.c.pos += 1 + u.len();
        let hi = self.number("at most")?;
        Ok(Some(Det::Num(Num::Range(lo, hi))))
    }

    /// Whether `one` before the word at `k` can only mean exactly one: the pieces
    /// always form at least one group, show at least one size and one direction.
    pub(crate) fn one_is_exact(&self, k: usize) -> bool {
        let mut k = k;
        while matches!(
            self.c.word_at(k),
            Some("connected" | "single" | "separate" | "different" | "distinct")
        ) {
            k += 1;
        }
        self.c.word_at(k).is_some_and(V::one_is_exact)
    }

    /// Whether `never` follows the noun phrase after the number here.
    pub(crate) fn never_follows(&self) -> bool {
        let mut k = 1;
        while self
            .c
            .word_at(k)
            .is_some_and(|w| V::is_modifier(w) || w == "other")
        {
            k += 1;
        }
        self.c.word_at(k).is_some_and(V::is_noun) && self.c.word_at(k + 1) == Some("never")
    }

    /// Whether a noun (a piece word) occurs before the current position.
    pub(crate) fn noun_before(&self) -> bool {
        self.c.toks[..self.c.pos].iter().any(|t| {
            t.word()
                .is_some_and(|w| V::is_noun(w) || matches!(w, "it" | "one" | "ones"))
        })
    }

    /// Whether the noun phrase starting `k` tokens ahead has a plural noun.
    pub(crate) fn plural_np_ahead(&self, k: usize) -> bool {
        let mut i = k;
        while let Some(w) = self.c.word_at(i) {
            if V::is_noun(w) {
                return w.ends_with('s');
            }
            if w == "ones" {
                return true;
            }
            if !V::is_modifier(w)
                && !matches!(w, "other" | "or" | "non")
                && !matches!(self.c.sym_at(i), Some(Sym::Comma | Sym::Minus))
            {
                return false;
            }
            i += 1;
        }
        false
    }

    /// Whether the next noun (within a few words) is plural.
    pub(crate) fn noun_ahead_is_plural(&self) -> bool {
        (0..8)
            .filter_map(|k| self.c.word_at(k))
            .find(|w| V::is_noun(w))
            .is_some_and(|n| n.ends_with('s'))
    }

    pub(crate) fn bare_number_refusal(&self) -> ParsePatternError {
        let span = self.c.here();
        let n = &self.src[span.clone()];
        ParsePatternError::new(
            span.clone(),
            format!("a bare number is ambiguous: say `exactly {n}` or `at least {n}`"),
        )
        .with_example(splice(self.src, &(span.start..span.start), "exactly "))
        .with_example(splice(self.src, &(span.start..span.start), "at least "))
    }

    pub(crate) fn between_refusal(&self) -> ParsePatternError {
        let here = self.c.here();
        let (lo, hi) = (self.c.peek_at(1), self.c.peek_at(3));
        let mut e = ParsePatternError::new(
            here.clone(),
            "`between` may or may not include its ends: say `at least ... and at most ...`",
        );
        if let (Some(lo), Some(hi)) = (lo, hi)
            && self.c.word_at(2) == Some("and")
        {
            let (lo, hi) = (&self.src[lo.span.clone()], &self.src[hi.span.clone()]);
            let whole = here.start..self.c.peek_at(3).map_or(here.end, |t| t.span.end);
            e = e.with_example(splice(
                self.src,
                &whole,
                &format!("at least {lo} and at most {hi}"),
            ));
        }
        e
    }

    pub(crate) fn most_refusal(&self) -> ParsePatternError {
        let here = self.c.here();
        let words: &[&[&str]] = &[
            &["the", "majority", "of", "the"],
            &["the", "majority", "of"],
            &["most", "of", "the"],
            &["most"],
        ];
        let n = words
            .iter()
            .find(|ws| self.c.is_words(ws))
            .map_or(1, |ws| ws.len());
        let end = self.c.peek_at(n - 1).map_or(here.end, |t| t.span.end);
        ParsePatternError::new(
            here.clone(),
            "`most` could mean more than half, or more than any other kind: say `more than half of the`",
        )
        .with_example(splice(self.src, &(here.start..end), "more than half of the"))
    }

    pub(crate) fn the_refusal(&self) -> ParsePatternError {
        let span = self.c.here();
        let next = self.c.word_at(1).unwrap_or("");
        if V::is_modifier(next) || V::is_noun(next) || next == "other" {
            return ParsePatternError::new(
                span.clone(),
                V::say("`the` before a piece is ambiguous (there may be several, or none): say `every`, `some` or `the unique`"),
            )
            .with_example(splice(self.src, &span, "every"))
            .with_example(splice(self.src, &span, "some"))
            .with_example(splice(self.src, &span, "the unique"));
        }
        // `the middle piece`: no place has a middle (the places are the edges); the
        // piece is there, so the refusal must not say the phrase reaches outside.
        if let Some(at) = self.c.peek_at(1)
            && matches!(
                self.c.word_at(1),
                Some("middle" | "centre" | "center" | "central" | "centremost" | "centermost")
            )
        {
            let thing = self
                .c
                .peek_at(2)
                .filter(|t| t.word().is_some_and(V::is_noun))
                .map_or(span.start..at.span.end, |t| span.start..t.span.end);
            return ParsePatternError::new(
                thing.clone(),
                V::say(&format!(
                    "`{}` is not a place a piece can have: the places are the edges (`topmost`, `bottommost`, `leftmost`, `rightmost`)",
                    &self.src[thing]
                )),
            );
        }
        // `the top piece`: the word to blame is `top`, a place said as a plain
        // adjective (the pieces' places are `topmost`, `bottommost`, ...).
        if let (Some(at), Some(noun)) = (self.c.peek_at(1), self.c.word_at(2))
            && V::is_noun(noun)
            && let Some(most) = ["top", "bottom", "left", "right", "upper", "lower"]
                .iter()
                .find(|w| Some(**w) == self.c.word_at(1))
        {
            let most = match *most {
                "upper" => "topmost",
                "lower" => "bottommost",
                w => return self.place_refusal(at.span.clone(), w),
            };
            return self.place_refusal(at.span.clone(), most);
        }
        let thing = self
            .c
            .peek_at(1)
            .map_or(span.clone(), |t| span.start..t.span.end);
        // Nothing is offered: without the phrase (`touching the table`) the pattern
        // would say something else.
        ParsePatternError::new(
            thing.clone(),
            V::say(&format!(
                "`{}` is not something a pattern can speak of: patterns speak only of the pieces of the structure",
                &self.src[thing]
            )),
        )
    }

    /// `the top piece`: `top` names no place a piece can have; the places are the
    /// `-most` words (`the topmost piece`), and `the` before them is refused as
    /// ambiguous in its turn, so nothing is offered.
    fn place_refusal(&self, at: Span, word: &str) -> ParsePatternError {
        let most = if word.ends_with("most") {
            word.to_string()
        } else {
            format!("{word}most")
        };
        let message = V::say(&format!(
            "`{}` is not a place a piece can have: say `{most}` (`every {most} piece`, `the unique {most} piece`)",
            &self.src[at.clone()]
        ));
        ParsePatternError::new(at, message)
    }
}
