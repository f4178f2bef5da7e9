//! Numbers: number sentences (`the number of small pieces is 3 or 4`, `the total pips
//! is a multiple of three`, `... is twice the number of ...`), number terms,
//! comparatives (`more pieces point up than down`, `twice as many small pieces as
//! large ones`, `small pieces outnumber large pieces`), structure nouns (`exactly two
//! groups`, `all three sizes are present`, `at least ten pips`) and the structure as
//! a subject (`the structure is taller than it is wide`).

use super::{
    CmpOp, Det, DetS, Formula, FormulaKind, Mode, Np, Num, Parity, Parser, R, Sym, Term, TermKind,
    Tok, Var, Vp, and_opt, cmp, count, f, int, not, or_true, scaled,
};
use crate::lang::error::ParsePatternError;
use crate::lang::symbolic::{sum, times};
use crate::lang::words::number_word;

type Span = crate::lang::ast::Span;

/// A thing of the structure that is counted rather than a kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Counted {
    Sizes,
    Directions,
    Groups,
    Pips,
}

/// How a comparative scales its second count: `as many`, `twice as many`, `half as
/// many`.
#[derive(Clone, Copy)]
enum Factor {
    Times(i64),
    Half,
}

impl Parser<'_> {
    pub(super) fn number_at(&self, k: usize) -> Option<i64> {
        match self.c.peek_at(k).map(|t| &t.tok) {
            Some(Tok::Int(n)) => Some(*n),
            Some(Tok::Word(w)) => number_word(w),
            _ => None,
        }
    }

    pub(super) fn number(&mut self, after: &str) -> R<i64> {
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
    pub(super) fn number_start(&mut self) -> R<Formula> {
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
    pub(super) fn number_sentence(&mut self) -> R<Formula> {
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
        if self.c.eat_word("equals") {
            return self.compared(a, CmpOp::Eq, false, start);
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
        let negate = |p: &Parser, g: Formula| {
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
            if k <= 0 {
                return Err(ParsePatternError::new(
                    k_span,
                    "a multiple of what? the number must be one or more",
                ));
            }
            let rem = Term::new(a.span.start..k_span.end, TermKind::Mod(Box::new(a), k));
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
    fn compared(&mut self, a: Term, op: CmpOp, plain: bool, start: usize) -> R<Formula> {
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
            && let TermKind::Int(lo) = b.kind
            && let Some(Det::Num(num)) = self.range(lo)?
        {
            return Ok(num.holds_of(a, self.span_from(start)));
        }
        Ok(cmp(op, a, b, self.span_from(start)))
    }

    /// Terms joined by `+` / `plus`, `-` / `minus`.
    pub(super) fn term(&mut self) -> R<Term> {
        let mut a = self.product()?;
        loop {
            let plus = self.c.is_sym(Sym::Plus) || self.c.is_word("plus");
            if !(plus || self.c.is_sym(Sym::Minus) || self.c.is_word("minus")) {
                break;
            }
            self.c.bump();
            a = sum(plus, a, self.product()?);
        }
        Ok(a)
    }

    /// `twice T`, `3 times T`, `T times 3`, `2 * T`.
    fn product(&mut self) -> R<Term> {
        let start = self.start();
        if self.c.eat_word("twice") || self.c.eat_word("double") {
            let t = self.product()?;
            return Ok(Term::new(
                self.span_from(start),
                TermKind::Mul(2, Box::new(t)),
            ));
        }
        let a = self.term_primary()?;
        if self.c.is_sym(Sym::Star) || self.c.is_word("times") {
            let star = self.c.bump();
            let b = self.product()?;
            return times(a, b).ok_or_else(|| {
                ParsePatternError::new(
                    star,
                    "only a number can multiply: `twice ...`, `3 times ...`",
                )
            });
        }
        Ok(a)
    }

    fn term_primary(&mut self) -> R<Term> {
        let start = self.start();
        if let Some(n) = self.number_at(0) {
            let span = self.c.bump();
            return Ok(int(n, span));
        }
        let expected = "a number, or a number term such as `the number of small pieces`, `the total pips`, `the width` or `the number of groups`";
        if self.c.is_sym(Sym::LParen) {
            self.c.bump();
            let t = self.term()?;
            if !self.c.eat_sym(Sym::RParen) {
                return Err(self.c.expected("`)`"));
            }
            return Ok(Term::new(self.span_from(start), t.kind));
        }
        if !self.c.is_word("the") {
            return Err(self.c.expected(expected));
        }
        if self.c.eat_words(&["the", "number", "of"]) {
            let save = self.c.pos;
            if let Some(counted) = self.counted_noun() {
                return Ok(self.counted_term(counted, start));
            }
            self.c.pos = save;
            let np = self.noun_phrase()?;
            if np.is_plain() {
                return Ok(Term::new(self.span_from(start), TermKind::Pieces));
            }
            return self.count_np(&np);
        }
        for words in [
            &["the", "total", "number", "of", "pips"][..],
            &["the", "total", "pip", "count"],
            &["the", "total", "pips"],
            &["the", "pip", "count"],
            &["the", "pip", "total"],
            &["the", "count", "of", "pips"],
            &["the", "sum", "of", "the", "pips"],
            &["the", "sum", "of", "pips"],
        ] {
            if self.c.eat_words(words) {
                return self.pips_rest(start);
            }
        }
        for (word, kind) in [("width", TermKind::Width), ("height", TermKind::Height)] {
            if self.c.eat_words(&["the", word]) {
                if self.c.is_words(&["of", "the"])
                    && matches!(self.c.word_at(2), Some("structure" | "koan" | "bounding"))
                {
                    self.c.pos += 3;
                    self.c.eat_word("box");
                }
                return Ok(Term::new(self.span_from(start), kind));
            }
        }
        Err(self.c.expected(expected))
    }

    /// After `the total pips`: optionally `of NP`.
    fn pips_rest(&mut self, start: usize) -> R<Term> {
        let x = Var(self.base);
        let body = if self.c.eat_word("of") {
            self.c.eat_word("the");
            let np = self.noun_phrase()?;
            self.lower_np(&np, x, self.base + 1, &self.discourse.clone())?
        } else {
            None
        };
        let span = self.span_from(start);
        let body = or_true(body, &span);
        Ok(Term::new(span, TermKind::PipsSum(x, Box::new(body))))
    }

    pub(super) fn count_np(&self, np: &Np) -> R<Term> {
        let x = Var(self.base);
        let body = or_true(
            self.lower_np(np, x, self.base + 1, &self.discourse)?,
            &np.span,
        );
        Ok(count(x, body, np.span.clone()))
    }

    // -----------------------------------------------------------------------------
    // Structure nouns: groups, sizes, directions, pips.

    /// `(different) sizes`, `(connected) groups (of pieces)`, `pips`: reads it.
    fn counted_noun(&mut self) -> Option<Counted> {
        let save = self.c.pos;
        while matches!(
            self.c.word(),
            Some("different" | "distinct" | "separate" | "connected" | "disconnected" | "single")
        ) {
            self.c.bump();
        }
        let counted = match self.c.word() {
            Some("size" | "sizes") => Counted::Sizes,
            Some("direction" | "directions" | "orientation" | "orientations") => {
                Counted::Directions
            }
            Some("group" | "groups" | "island" | "islands") => Counted::Groups,
            Some("pip" | "pips") => Counted::Pips,
            _ => {
                self.c.pos = save;
                return None;
            }
        };
        self.c.bump();
        if counted == Counted::Groups
            && self.c.is_word("of")
            && matches!(self.c.word_at(1), Some("pieces" | "touching" | "connected"))
        {
            self.c.bump();
            self.c.eat_word("touching");
            self.c.eat_word("connected");
            self.c.eat_word("pieces");
        }
        self.c.eat_word("present");
        Some(counted)
    }

    fn counted_term(&self, counted: Counted, start: usize) -> Term {
        let span = self.span_from(start);
        let kind = match counted {
            Counted::Sizes => TermKind::Sizes,
            Counted::Directions => TermKind::Directions,
            Counted::Groups => TermKind::Groups,
            Counted::Pips => {
                let body = f(span.clone(), FormulaKind::Bool(true));
                TermKind::PipsSum(Var(self.base), Box::new(body))
            }
        };
        Term::new(span, kind)
    }

    /// A determiner's condition on a structure count: `exactly two groups`, `at least
    /// ten pips`, `an even number of pips`, `all three sizes`.
    fn counted_formula(&mut self, det: &DetS, counted: Counted, t: Term, span: Span) -> R<Formula> {
        let full = match counted {
            Counted::Sizes => Some(3),
            Counted::Directions => Some(4),
            _ => None,
        };
        let refuse = |what: &str| Err(ParsePatternError::new(det.span.clone(), what.to_string()));
        Ok(match &det.det {
            Det::Some => cmp(CmpOp::Ge, t, int(1, det.span.clone()), span),
            Det::No => cmp(CmpOp::Eq, t, int(0, det.span.clone()), span),
            Det::Num(num) => num.holds_of(t, span),
            Det::Parity(p) => f(span, FormulaKind::Parity(*p, t)),
            Det::Every => match full {
                Some(n) => cmp(CmpOp::Eq, t, int(n, det.span.clone()), span),
                None => return refuse("say how many: `exactly two groups`, `at least ten pips`"),
            },
            _ => {
                return refuse(
                    "say how many: `exactly two groups`, `at least two different sizes`",
                );
            }
        })
    }

    /// After `there is` and a determiner: a structure noun, if that is what follows.
    pub(super) fn structure_noun_item(&mut self, det: &DetS, start: usize) -> R<Option<Formula>> {
        let Some(counted) = self.counted_after_det(det)? else {
            return Ok(None);
        };
        let t = self.counted_term(counted, start);
        let span = self.span_from(start);
        Ok(Some(self.counted_formula(det, counted, t, span)?))
    }

    /// `pieces of all three sizes`, `pieces of at least two different directions`.
    pub(super) fn pieces_of(&mut self, start: usize) -> R<Option<Formula>> {
        if !(self.c.is_words(&["pieces", "of"]) || self.c.is_words(&["pieces", "in"])) {
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
            Some(counted @ (Counted::Sizes | Counted::Directions)) => {
                let t = self.counted_term(counted, start);
                let span = self.span_from(start);
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
    pub(super) fn structure_noun_sentence(
        &mut self,
        det: &DetS,
        start: usize,
    ) -> R<Option<Formula>> {
        let Some(counted) = self.counted_after_det(det)? else {
            return Ok(None);
        };
        let t = self.counted_term(counted, start);
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
            return Err(self.c.expected("`are present` (or nothing more)").with_help(
                "groups, sizes, directions and pips are counted, not described: `there are exactly two groups`, `all three sizes are present`",
            ));
        }
        let span = self.span_from(start);
        Ok(Some(self.counted_formula(det, counted, t, span)?))
    }

    /// A structure noun after a determiner (with `all three`: the number must be the
    /// whole count).
    fn counted_after_det(&mut self, det: &DetS) -> R<Option<Counted>> {
        if det.np_done {
            return Ok(None);
        }
        let save = self.c.pos;
        let all_n = if matches!(det.det, Det::Every) {
            self.number_at(0).map(|n| (n, self.c.bump()))
        } else {
            None
        };
        let Some(counted) = self.counted_noun() else {
            self.c.pos = save;
            return Ok(None);
        };
        if let Some((n, span)) = all_n {
            let full = match counted {
                Counted::Sizes => 3,
                Counted::Directions => 4,
                _ => n,
            };
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
    pub(super) fn comparative_ahead(&self) -> bool {
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
            _ => {}
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
    pub(super) fn comparative(&mut self, start: usize) -> R<Formula> {
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
        })
    }

    /// After `than` with a verb phrase before it: whether the second kind is said
    /// by its verb phrase only (`than down`, `than point down`, `than pointing down`).
    fn verb_ellipsis_ahead(&self) -> bool {
        self.dir_at(0).is_some()
            || self.c.is_word("straight")
            || self.vp_start(0, Mode::Finite)
            || self.vp_start(0, Mode::Participle)
    }

    /// The second verb phrase of `more pieces point up than (point) down`.
    fn elided_vp(&mut self) -> R<Vp> {
        if self.vp_start(0, Mode::Finite) {
            return self.vp(Mode::Finite);
        }
        if self.vp_start(0, Mode::Participle) {
            return self.vp(Mode::Participle);
        }
        self.direction_list("a direction")
    }

    /// The number of pieces of `np` that also do `vp`.
    fn count_with(&self, np: &Np, vp: Option<&Vp>) -> R<Term> {
        let x = Var(self.base);
        let d = self.base + 1;
        let r = self.lower_np(np, x, d, &self.discourse)?;
        let v = match vp {
            Some(vp) => Some(self.lower_vp(vp, x, d, &self.discourse)?),
            None => None,
        };
        let span = np.span.clone();
        Ok(count(x, or_true(and_opt(r, v), &span), span))
    }

    // -----------------------------------------------------------------------------
    // The structure as a subject.

    /// After `the structure` / `a koan` / `koans` / `it` (the structure): `contains
    /// ...`, `is connected`, `is taller than it is wide`, `is square`, `is a single
    /// row`, `is at least 3 wide`.
    pub(super) fn structure_rest(&mut self, start: usize) -> R<Formula> {
        if self.c.eat_word("'s") {
            return Err(self.c.expected("`is`, `has` or `contains`"));
        }
        let has = [
            &["contains"][..],
            &["contain"],
            &["has"],
            &["have"],
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

    fn structure_complement(&mut self, start: usize) -> R<Formula> {
        let here = self.start();
        let width = |p: &Parser| Term::new(p.span_from(here), TermKind::Width);
        let height = |p: &Parser| Term::new(p.span_from(here), TermKind::Height);
        let w = |p: &Parser, k| p.c.word_at(k).unwrap_or("").to_string();
        let tall = |s: &str| matches!(s, "tall" | "high");
        let wide = |s: &str| matches!(s, "wide" | "broad");
        if self.c.eat_word("connected")
            || self.c.eat_words(&["one", "group"])
            || self.c.eat_words(&["a", "single", "group"])
        {
            let groups = Term::new(self.span_from(here), TermKind::Groups);
            return Ok(cmp(
                CmpOp::Eq,
                groups,
                int(1, here..here),
                self.span_from(start),
            ));
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
}
