//! Numbers: number sentences (`the number of small pieces is 3 or 4`, `the total pips
//! is a multiple of three`, `... is twice the number of ...`), number terms,
//! comparatives (`more pieces point up than down`, `twice as many small pieces as
//! large ones`, `small pieces outnumber large pieces`), structure nouns (`exactly two
//! groups`, `all three sizes are present`, `at least ten pips`) and the structure as
//! a subject (`the structure is taller than it is wide`).

use super::{
    CmpOp, Det, DetS, F, FormulaKind, Logic, Mode, Np, Parity, Parser, R, Spanned, Sym, T,
    TermKind, Tok, Var, Vocabulary, Vp, and_opt, cmp, count, f, int, not, or_true, scaled,
};
use crate::lang::error::ParsePatternError;
use crate::lang::words::number_word;

type Span = crate::lang::ast::Span;

/// How a comparative scales its second count: `as many`, `twice as many`, `half as
/// many`.
#[derive(Clone, Copy)]
enum Factor {
    Times(i64),
    Half,
    /// `three more ... than ...` (`true`), `two fewer ... than ...` (`false`).
    Diff(i64, bool),
}

impl<V: Vocabulary> Parser<'_, V> {
    pub(crate) fn number_at(&self, k: usize) -> Option<i64> {
        match self.c.peek_at(k).map(|t| &t.tok) {
            Some(Tok::Int(n)) => Some(*n),
            Some(Tok::Word(w)) => number_word(w),
            _ => None,
        }
    }

    pub(crate) fn number(&mut self, after: &str) -> R<i64> {
        match self.number_at(0) {
            Some(n) => {
                self.c.bump();
                Ok(n)
            }
            None => Err(self.c.expected(&format!(
                "a number after `{after}` (digits, or `zero` to `twenty`)"
            ))),
        }
    }

    /// A sentence that starts with a number: a determiner (`3 or 4 pieces`, `one and
    /// only one`, or a refused bare number) or a number comparison (`3 = the width`).
    pub(crate) fn number_start(&mut self) -> R<F<V>> {
        let comparison = self.c.sym_at(1).is_some_and(Sym::continues_term)
            || matches!(
                self.c.word_at(1),
                Some("is" | "are" | "equals" | "plus" | "minus" | "times" | "isn't")
            );
        if comparison {
            self.number_sentence()
        } else {
            self.det_sentence()
        }
    }

    /// `TERM is ...`, `TERM = TERM`, `TERM equals TERM`.
    pub(crate) fn number_sentence(&mut self) -> R<F<V>> {
        let start = self.start();
        let a = self.term()?;
        let sym_op = match self.c.sym_at(0) {
            Some(Sym::Eq) => Some(CmpOp::Eq),
            Some(Sym::Ne) => Some(CmpOp::Ne),
            Some(Sym::Lt) => Some(CmpOp::Lt),
            Some(Sym::Le) => Some(CmpOp::Le),
            Some(Sym::Gt) => Some(CmpOp::Gt),
            Some(Sym::Ge) => Some(CmpOp::Ge),
            _ => None,
        };
        if let Some(op) = sym_op {
            self.c.bump();
            return self.compared(a, op, false, start);
        }
        if self.c.eat_word("equals") || self.c.eat_word("equal") {
            return self.compared(a, CmpOp::Eq, false, start);
        }
        // `the pips add up to at least ten`: is.
        let sums = [
            &["add", "up", "to"][..],
            &["adds", "up", "to"],
            &["sum", "to"],
            &["sums", "to"],
            &["come", "to"],
            &["comes", "to"],
        ];
        if let Some(ws) = sums.iter().find(|ws| self.c.is_words(ws)) {
            self.c.pos += ws.len();
            let parity = if self.c.eat_words(&["an", "odd", "number"]) || self.c.eat_word("odd") {
                Some(Parity::Odd)
            } else if self.c.eat_words(&["an", "even", "number"]) || self.c.eat_word("even") {
                Some(Parity::Even)
            } else {
                None
            };
            if let Some(p) = parity {
                return Ok(f(self.span_from(start), FormulaKind::Parity(p, a)));
            }
            let phrases: &[(&[&str], CmpOp)] = &[
                (&["exactly"], CmpOp::Eq),
                (&["at", "least"], CmpOp::Ge),
                (&["at", "most"], CmpOp::Le),
                (&["more", "than"], CmpOp::Gt),
                (&["fewer", "than"], CmpOp::Lt),
                (&["less", "than"], CmpOp::Lt),
            ];
            let op = phrases
                .iter()
                .find(|(ws, _)| self.c.is_words(ws))
                .map(|(ws, op)| {
                    self.c.pos += ws.len();
                    *op
                });
            return self.compared(a, op.unwrap_or(CmpOp::Eq), op.is_none(), start);
        }
        if self.c.eat_word("exceeds") {
            return self.compared(a, CmpOp::Gt, false, start);
        }
        let neg = if self.c.eat_word("is") || self.c.eat_word("are") {
            self.c.eat_word("not")
        } else if self.c.eat_word("isn't") || self.c.eat_word("aren't") {
            true
        } else {
            return Err(self.c.expected(
                "`is`, `is at least`, `is at most`, `is more than`, `is fewer than`, `is odd`, `is even` or a sign such as `=` or `>=`",
            ));
        };
        let negate = |p: &Parser<V>, g: F<V>| {
            if neg { not(p.span_from(start), g) } else { g }
        };
        let parity = if self.c.eat_word("odd") || self.c.eat_words(&["an", "odd", "number"]) {
            Some(Parity::Odd)
        } else if self.c.eat_word("even") || self.c.eat_words(&["an", "even", "number"]) {
            Some(Parity::Even)
        } else {
            None
        };
        if let Some(p) = parity {
            let par = f(self.span_from(start), FormulaKind::Parity(p, a));
            return Ok(negate(self, par));
        }
        // `a multiple of 3`, `divisible by 3`: the remainder is zero.
        if self.c.eat_words(&["a", "multiple", "of"])
            || self.c.eat_words(&["divisible", "by"])
            || self.c.eat_words(&["evenly", "divisible", "by"])
        {
            let k_span = self.c.here();
            let k = self.number("a multiple of")?;
            if !<F<V> as Logic>::MODULO {
                return Err(ParsePatternError::new(
                    k_span,
                    format!(
                        "{}s do not speak of multiples: say `is odd`, `is even` or give the numbers",
                        V::WHAT
                    ),
                ));
            }
            if k <= 0 {
                return Err(ParsePatternError::new(
                    k_span,
                    "a multiple of what? the number must be one or more",
                ));
            }
            let rem = <F<V> as Logic>::term(a.span().start..k_span.end, TermKind::Mod(a, k));
            let op = if neg { CmpOp::Ne } else { CmpOp::Eq };
            return Ok(cmp(op, rem, int(0, k_span.clone()), self.span_from(start)));
        }
        let phrases: &[(&[&str], CmpOp)] = &[
            (&["greater", "than", "or", "equal", "to"], CmpOp::Ge),
            (&["more", "than", "or", "equal", "to"], CmpOp::Ge),
            (&["less", "than", "or", "equal", "to"], CmpOp::Le),
            (&["fewer", "than", "or", "equal", "to"], CmpOp::Le),
            (&["exactly"], CmpOp::Eq),
            (&["equal", "to"], CmpOp::Eq),
            (&["the", "same", "as"], CmpOp::Eq),
            (&["at", "least"], CmpOp::Ge),
            (&["at", "most"], CmpOp::Le),
            (&["no", "more", "than"], CmpOp::Le),
            (&["no", "fewer", "than"], CmpOp::Ge),
            (&["no", "less", "than"], CmpOp::Ge),
            (&["more", "than"], CmpOp::Gt),
            (&["greater", "than"], CmpOp::Gt),
            (&["larger", "than"], CmpOp::Gt),
            (&["bigger", "than"], CmpOp::Gt),
            (&["fewer", "than"], CmpOp::Lt),
            (&["less", "than"], CmpOp::Lt),
            (&["smaller", "than"], CmpOp::Lt),
        ];
        if self.c.is_word("between") {
            return Err(self.between_refusal());
        }
        let op = phrases
            .iter()
            .find(|(ws, _)| self.c.is_words(ws))
            .map(|(ws, op)| {
                self.c.pos += ws.len();
                *op
            });
        let g = self.compared(a, op.unwrap_or(CmpOp::Eq), op.is_none(), start)?;
        Ok(negate(self, g))
    }

    /// `a op` what follows: a term, `twice TERM`, `half (of) TERM`, `3 or 4`, or `2
    /// and at most 4` after `at least`. `plain`: no comparison word was said (so a
    /// list of numbers is allowed).
    fn compared(&mut self, a: T<V>, op: CmpOp, plain: bool, start: usize) -> R<F<V>> {
        if self.c.eat_word("half") {
            self.c.eat_word("of");
            let b = self.term()?;
            return Ok(cmp(op, scaled(2, a), b, self.span_from(start)));
        }
        if plain
            && self.number_at(0).is_some()
            && (self.c.word_at(1) == Some("or") || self.c.sym_at(1) == Some(Sym::Comma))
            && (self.number_at(2).is_some() || self.number_at(3).is_some())
        {
            let n = self.number("is")?;
            let Det::Num(num) = self.alternatives(n)? else {
                unreachable!("numbers make a number condition")
            };
            return Ok(num.holds_of(a, self.span_from(start)));
        }
        if plain
            && let Some(n) = self.number_at(0)
            && self.c.word_at(1) == Some("or")
            && matches!(self.c.word_at(2), Some("more" | "fewer" | "less"))
        {
            // `3 or more`, `3 or fewer`.
            let at = self.c.bump();
            let op = if self.c.word_at(1) == Some("more") {
                CmpOp::Ge
            } else {
                CmpOp::Le
            };
            self.c.pos += 2;
            return Ok(cmp(op, a, int(n, at), self.span_from(start)));
        }
        let b = self.term()?;
        if op == CmpOp::Ge
            && let Some(lo) = <F<V> as Logic>::int_value(&b)
            && let Some(Det::Num(num)) = self.range(lo)?
        {
            return Ok(num.holds_of(a, self.span_from(start)));
        }
        Ok(cmp(op, a, b, self.span_from(start)))
    }

    /// Terms joined by `+` / `plus`, `-` / `minus`.
    pub(crate) fn term(&mut self) -> R<T<V>> {
        let mut a = self.product()?;
        loop {
            let plus = self.c.is_sym(Sym::Plus) || self.c.is_word("plus");
            if !(plus || self.c.is_sym(Sym::Minus) || self.c.is_word("minus")) {
                break;
            }
            self.c.bump();
            let b = self.product()?;
            let span = a.span().start..b.span().end;
            a = <F<V> as Logic>::term(
                span,
                if plus {
                    TermKind::Add(a, b)
                } else {
                    TermKind::Sub(a, b)
                },
            );
        }
        Ok(a)
    }

    /// `twice T`, `3 times T`, `T times 3`, `2 * T`.
    fn product(&mut self) -> R<T<V>> {
        let start = self.start();
        if self.c.eat_word("twice") || self.c.eat_word("double") {
            let t = self.product()?;
            return Ok(<F<V> as Logic>::term(
                self.span_from(start),
                TermKind::Mul(2, t),
            ));
        }
        let a = self.term_primary()?;
        if self.c.is_sym(Sym::Star) || self.c.is_word("times") {
            let star = self.c.bump();
            let b = self.product()?;
            let span = a.span().start.min(b.span().start)..a.span().end.max(b.span().end);
            let (ka, kb) = (
                <F<V> as Logic>::int_value(&a),
                <F<V> as Logic>::int_value(&b),
            );
            return match (ka, kb) {
                (Some(k), _) => Ok(<F<V> as Logic>::term(span, TermKind::Mul(k, b))),
                (_, Some(k)) => Ok(<F<V> as Logic>::term(span, TermKind::Mul(k, a))),
                _ => Err(ParsePatternError::new(
                    star,
                    "only a number can multiply: `twice ...`, `3 times ...`",
                )),
            };
        }
        Ok(a)
    }

    fn term_primary(&mut self) -> R<T<V>> {
        let start = self.start();
        if let Some(n) = self.number_at(0) {
            let span = self.c.bump();
            return Ok(int(n, span));
        }
        let expected = V::say(
            "a number, or a number term such as `the number of small pieces`, `the total pips`, `the width` or `the number of groups`",
        );
        if self.c.is_sym(Sym::LParen) {
            self.c.bump();
            let t = self.term()?;
            if !self.c.eat_sym(Sym::RParen) {
                return Err(self.c.expected("`)`"));
            }
            return Ok(<F<V> as Logic>::respan_term(t, self.span_from(start)));
        }
        if let Some(t) = V::term_primary(self, start) {
            return t;
        }
        if !self.c.is_word("the") {
            return Err(self.c.expected(&expected));
        }
        if self.c.eat_words(&["the", "number", "of"]) || self.c.eat_words(&["the", "amount", "of"])
        {
            if let Some(t) = self.number_such_that(start) {
                return t;
            }
            let save = self.c.pos;
            if let Some(counted) = V::counted_noun(self) {
                return Ok(V::counted_term(self, counted, self.span_from(start)));
            }
            self.c.pos = save;
            let np = self.noun_phrase()?;
            if np.is_plain() && self.within.is_none() {
                return Ok(V::all_count(self.span_from(start)));
            }
            return self.count_np(&np);
        }
        Err(self.c.expected(&expected))
    }

    pub(crate) fn count_np(&self, np: &Np<V>) -> R<T<V>> {
        if let Some((rel, at)) = np.pair.first() {
            return Err(V::pair_count_refusal(*rel, at.clone()));
        }
        let x = Var(self.base);
        let body = or_true(
            self.lower_np(np, x, self.base + 1, &self.discourse)?,
            &np.span,
        );
        Ok(count(x, self.dom(), body, np.span.clone()))
    }

    // -----------------------------------------------------------------------------
    // Structure nouns: groups, sizes, directions, pips.

    /// A determiner's condition on a structure count: `exactly two groups`, `at least
    /// ten pips`, `an even number of pips`, `all three sizes`.
    fn counted_formula(&mut self, det: &DetS, counted: V::Counted, t: T<V>, span: Span) -> R<F<V>> {
        let full = V::counted_full(counted);
        let refuse = |what: &str| Err(ParsePatternError::new(det.span.clone(), what.to_string()));
        Ok(match &det.det {
            Det::Some => cmp(CmpOp::Ge, t, int(1, det.span.clone()), span),
            Det::No => cmp(
                CmpOp::Eq,
                t,
                int(V::none_means(counted), det.span.clone()),
                span,
            ),
            Det::Num(num) => num.holds_of(t, span),
            Det::Parity(p) => f(span, FormulaKind::Parity(*p, t)),
            Det::Every => match full {
                Some(n) => cmp(CmpOp::Eq, t, int(n, det.span.clone()), span),
                None => {
                    return refuse(&V::say(
                        "say how many: `exactly two groups`, `at least ten pips`",
                    ));
                }
            },
            _ => {
                return refuse(&V::say(
                    "say how many: `exactly two groups`, `at least two different sizes`",
                ));
            }
        })
    }

    /// After `there is` and a determiner: a structure noun, if that is what follows.
    pub(crate) fn structure_noun_item(&mut self, det: &DetS, start: usize) -> R<Option<F<V>>> {
        let Some(counted) = self.counted_after_det(det)? else {
            return Ok(None);
        };
        let span = self.span_from(start);
        let t = V::counted_term(self, counted, span.clone());
        Ok(Some(self.counted_formula(det, counted, t, span)?))
    }

    /// `pieces of all three sizes`, `pieces of at least two different directions`.
    pub(crate) fn pieces_of(&mut self, start: usize) -> R<Option<F<V>>> {
        if !(self.c.is_words(&[V::NOUNS, "of"]) || self.c.is_words(&[V::NOUNS, "in"])) {
            return Ok(None);
        }
        let save = self.c.pos;
        self.c.pos += 2;
        let det = match self.det(false) {
            Ok(Some(det)) => det,
            _ => {
                self.c.pos = save;
                return Ok(None);
            }
        };
        match self.counted_after_det(&det)? {
            Some(counted) if V::counted_is_kind(counted) => {
                let span = self.span_from(start);
                let t = V::counted_term(self, counted, span.clone());
                Ok(Some(self.counted_formula(&det, counted, t, span)?))
            }
            _ => {
                self.c.pos = save;
                Ok(None)
            }
        }
    }

    /// A structure noun as a subject: `exactly two sizes are present`, `all four
    /// directions appear`, or alone (`at least two different sizes`).
    pub(crate) fn structure_noun_sentence(&mut self, det: &DetS, start: usize) -> R<Option<F<V>>> {
        let Some(counted) = self.counted_after_det(det)? else {
            return Ok(None);
        };
        let t = V::counted_term(self, counted, self.span_from(start));
        let present = [
            &["are", "present"][..],
            &["is", "present"],
            &["appear"],
            &["appears"],
            &["exist"],
            &["exists"],
            &["occur"],
            &["occurs"],
            &["are", "used"],
            &["is", "used"],
            &["are", "represented"],
            &["is", "represented"],
            &["are", "there"],
            &["is", "there"],
            &["show", "up"],
            &["shows", "up"],
        ];
        if let Some(p) = present.iter().find(|p| self.c.is_words(p)) {
            self.c.pos += p.len();
        } else if !self.at_clause_end(0) {
            return Err(self.c.expected("`are present` (or nothing more)").with_help(V::say(
                "groups, sizes, directions and pips are counted, not described: `there are exactly two groups`, `all three sizes are present`",
            )));
        }
        let span = self.span_from(start);
        Ok(Some(self.counted_formula(det, counted, t, span)?))
    }

    /// A structure noun after a determiner (with `all three`: the number must be the
    /// whole count).
    fn counted_after_det(&mut self, det: &DetS) -> R<Option<V::Counted>> {
        if det.np_done {
            return Ok(None);
        }
        let save = self.c.pos;
        let all_n = if matches!(det.det, Det::Every) {
            self.number_at(0).map(|n| (n, self.c.bump()))
        } else {
            None
        };
        let Some(counted) = V::counted_noun(self) else {
            self.c.pos = save;
            return Ok(None);
        };
        if let Some((n, span)) = all_n {
            let full = V::counted_full(counted).unwrap_or(n);
            if n != full {
                return Err(ParsePatternError::new(
                    span,
                    format!("there are only {full} of them, so `all {n}` cannot be"),
                ));
            }
        }
        Ok(Some(counted))
    }

    // -----------------------------------------------------------------------------
    // Comparatives.

    /// Whether a comparative starts here (`more small pieces than ...`, `as many`,
    /// `twice as many`, `the same number of`), as opposed to a determiner such as
    /// `more than two`.
    pub(crate) fn comparative_ahead(&self) -> bool {
        self.comparative_head().is_some()
    }

    /// The comparison, the factor, how many words, and the word before the second
    /// kind (`than`, `as`, `and`).
    fn comparative_head(&self) -> Option<(CmpOp, Factor, usize, &'static [&'static str])> {
        let w = |k| self.c.word_at(k).unwrap_or("");
        let one = Factor::Times(1);
        match w(0) {
            "more" | "fewer" | "less" if w(1) != "than" && w(1) != "or" => {
                let op = if w(0) == "more" { CmpOp::Gt } else { CmpOp::Lt };
                return Some((op, one, 1, &["than"]));
            }
            "as" if w(1) == "many" => return Some((CmpOp::Eq, one, 2, &["as"])),
            "the" | "an" if w(1) == "same" && w(2) == "number" && w(3) == "of" => {
                return Some((CmpOp::Eq, one, 4, &["and", "as"]));
            }
            "an" if w(1) == "equal" && w(2) == "number" && w(3) == "of" => {
                return Some((CmpOp::Eq, one, 4, &["and", "as"]));
            }
            "half" if w(1) == "as" && w(2) == "many" => {
                return Some((CmpOp::Eq, Factor::Half, 3, &["as"]));
            }
            // `no more large pieces than small pieces`: at most as many.
            "no" if matches!(w(1), "more" | "fewer" | "less") && w(2) != "than" => {
                let op = if w(1) == "more" { CmpOp::Le } else { CmpOp::Ge };
                return Some((op, one, 2, &["than"]));
            }
            _ => {}
        }
        // `three more blue tiles than red tiles`, `exactly two fewer ... than ...`: the
        // difference (a bare number only where bare numbers read).
        let (op, k) = match (w(0), w(1)) {
            ("at", "least") => (Some(CmpOp::Ge), 2),
            ("at", "most") => (Some(CmpOp::Le), 2),
            ("exactly", _) => (Some(CmpOp::Eq), 1),
            _ => (None, 0),
        };
        if let Some(n) = self.number_at(k)
            && matches!(w(k + 1), "more" | "fewer" | "less")
            && w(k + 2) != "than"
            && (op.is_some() || V::POLICY.bare_number_at_least)
        {
            let op = op.unwrap_or(CmpOp::Ge);
            return Some((op, Factor::Diff(n, w(k + 1) == "more"), k + 2, &["than"]));
        }
        // [at least | at most | exactly | more than | fewer than] (twice | N times)?
        // as many
        let (op, k) = match (w(0), w(1)) {
            ("at", "least") => (CmpOp::Ge, 2),
            ("at", "most") => (CmpOp::Le, 2),
            ("exactly", _) => (CmpOp::Eq, 1),
            ("more", "than") => (CmpOp::Gt, 2),
            ("fewer" | "less", "than") => (CmpOp::Lt, 2),
            _ => (CmpOp::Eq, 0),
        };
        let (factor, n) = if w(k) == "twice" {
            (Factor::Times(2), 1)
        } else if w(k + 1) == "times" {
            let n = self.number_at(k)?;
            (Factor::Times(n), 2)
        } else if w(k) == "half" {
            (Factor::Half, 1)
        } else if k > 0 {
            (one, 0)
        } else {
            return None;
        };
        (w(k + n) == "as" && w(k + n + 1) == "many").then_some((op, factor, k + n + 2, &["as"]))
    }

    /// `more A (VP) than B`, `as many A as B`, `twice as many A as B`, `the same
    /// number of A and B`. The second kind may leave out what the first said:
    /// `more pieces point up than down`, `more vertical than horizontal pieces`,
    /// `as many small pieces as large ones`.
    pub(crate) fn comparative(&mut self, start: usize) -> R<F<V>> {
        let (op, factor, skip, seps) = self
            .comparative_head()
            .expect("called where a comparative starts");
        self.c.pos += skip;
        let saved = std::mem::replace(&mut self.comparing, true);
        let a = self.noun_phrase_with(true);
        self.comparing = saved;
        let mut a = a?;
        let vp_a = if self.vp_start(0, Mode::Finite) {
            Some(self.vp(Mode::Finite)?)
        } else {
            None
        };
        let Some(sep) = seps.iter().find(|s| self.c.is_word(s)) else {
            return Err(self
                .c
                .expected(&format!("`{}` and a second kind of piece", seps[0])));
        };
        let _ = sep;
        self.c.bump();
        // `than there are large pieces`: the second kind on its own.
        let own = self.c.is_word("there") && matches!(self.c.word_at(1), Some("are" | "is"));
        if own {
            self.c.pos += 2;
        }
        let (b, vp_b) = if vp_a.is_some() && !own && self.verb_ellipsis_ahead() {
            let (np, vp) = (a.clone(), self.elided_vp()?);
            (np, Some(vp))
        } else if vp_a.is_none()
            && a.rel.is_some()
            && !own
            && V::ellipsis_start(self)
            && !self.noun_follows(0)
            && let Some(vp) = self.elided_to_clause_end()
        {
            // `more pieces pointing up than down`: the clause says the second kind.
            let mut b = a.clone();
            b.rel = Some(Box::new(vp));
            (b, None)
        } else {
            let b = self.noun_phrase_with(true)?;
            if own {
                (b, None)
            } else if let (Some(Vp::Unary(..) | Vp::Adjs(..)), None, true) =
                (&vp_a, b.plural, b.rel.is_none())
            {
                // `more pieces are small than large`: `than (are) large`.
                let span = b.span.clone();
                (a.clone(), Some(Vp::Adjs(b.mods, span)))
            } else {
                // `more small pieces point up than large pieces (do)`.
                self.c.eat_word("do");
                self.c.eat_word("does");
                (b, vp_a.clone())
            }
        };
        if a.plural.is_none() && a.rel.is_none() {
            // `more vertical than horizontal pieces`: the noun and its clause are said
            // once, at the end.
            a.rel = b.rel.clone();
        }
        let ca = self.count_with(&a, vp_a.as_ref())?;
        let cb = self.count_with(&b, vp_b.as_ref())?;
        let span = self.span_from(start);
        Ok(match factor {
            Factor::Times(1) => cmp(op, ca, cb, span),
            Factor::Times(k) => cmp(op, ca, scaled(k, cb), span),
            Factor::Half => cmp(op, scaled(2, ca), cb, span),
            Factor::Diff(n, more) => {
                // The difference is at least (exactly...) n.
                let (big, small) = if more { (ca, cb) } else { (cb, ca) };
                let at = small.span();
                let plus = <F<V> as Logic>::term(at.clone(), TermKind::Add(small, int(n, at)));
                cmp(op, big, plus, span)
            }
        })
    }

    /// After `than` with a verb phrase before it: whether the second kind is said
    /// by its verb phrase only (`than down`, `than point down`, `than pointing down`).
    fn verb_ellipsis_ahead(&self) -> bool {
        V::ellipsis_start(self)
            || self.vp_start(0, Mode::Finite)
            || self.vp_start(0, Mode::Participle)
    }

    /// A verb phrase said alone up to the end of the clause (`than down`), or nothing
    /// read.
    fn elided_to_clause_end(&mut self) -> Option<Vp<V>> {
        let save = self.c.pos;
        match self.elided_vp() {
            Ok(vp) if self.at_clause_end(0) => Some(vp),
            _ => {
                self.c.pos = save;
                None
            }
        }
    }

    /// The second verb phrase of `more pieces point up than (point) down`.
    fn elided_vp(&mut self) -> R<Vp<V>> {
        if self.vp_start(0, Mode::Finite) {
            return self.vp(Mode::Finite);
        }
        if self.vp_start(0, Mode::Participle) {
            return self.vp(Mode::Participle);
        }
        V::elided_vp(self)
    }

    /// The number of pieces of `np` that also do `vp`.
    fn count_with(&self, np: &Np<V>, vp: Option<&Vp<V>>) -> R<T<V>> {
        if let Some((rel, at)) = np.pair.first() {
            return Err(V::pair_count_refusal(*rel, at.clone()));
        }
        let x = Var(self.base);
        let d = self.base + 1;
        let r = self.lower_np(np, x, d, &self.discourse)?;
        let v = match vp {
            Some(vp) => Some(self.lower_vp(vp, x, d, &self.discourse)?),
            None => None,
        };
        let span = np.span.clone();
        Ok(count(x, self.dom(), or_true(and_opt(r, v), &span), span))
    }
}
