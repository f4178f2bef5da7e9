//! Colours as things: `each of the four colours is present`, `only two colours are
//! used`, `red appears twice`, `no colour appears more than twice`.

use super::*;

impl Parser<'_, Tiles> {
    /// `red appears twice`, `red and blue both appear`, `blue does not appear`,
    /// `red appears more often than blue`, `every colour appears at most twice`,
    /// `some colour appears three times`. `None` when the words are no such sentence.
    pub(super) fn colour_sentence(&mut self, start: usize) -> Option<R<Formula>> {
        let save = self.c.pos;
        // A list of colours, or a determiner and `colour(s)`.
        let mut colours = Vec::new();
        let mut joined = None;
        while let Some(c) = self.c.word().and_then(colour) {
            colours.push((c, self.c.here()));
            self.c.bump();
            let comma = self.c.eat_sym(Sym::Comma);
            match self.c.word() {
                Some("and") | Some("or") if self.c.word_at(1).and_then(colour).is_some() => {
                    joined = self.c.word().map(str::to_string);
                    self.c.bump();
                }
                _ if comma && self.c.word().and_then(colour).is_some() => {}
                _ => break,
            }
        }
        let quantified = if colours.is_empty() {
            match self.colour_det() {
                Some(q) => Some(q),
                None => {
                    self.c.pos = save;
                    return None;
                }
            }
        } else {
            None
        };
        let _ = self.c.eat_word("both") || self.c.eat_word("all") || self.c.eat_word("each");
        let Some(negated) = self.appear_verb() else {
            self.c.pos = save;
            return None;
        };
        let freq = match self.frequency() {
            Ok(f) => f,
            Err(e) => return Some(Err(e)),
        };
        if let Some(det) = quantified {
            // Without a frequency, the frame reads it (`every colour appears`).
            let Some(freq) = freq else {
                self.c.pos = save;
                return None;
            };
            return Some(self.colour_quantified(det, negated, freq, start));
        }
        let freq = freq.unwrap_or(Freq::Count(Num::Cmp(CmpOp::Ge, 1)));
        let dom = self.dom();
        let x = Var(self.base);
        let count_of = |c: Colour, span: Span| -> Term {
            let body = Formula::new(span.clone(), K::Colour(c, x));
            count(x, dom, body, span)
        };
        let mut out: Option<Formula> = None;
        for (c, span) in &colours {
            let n = count_of(*c, span.clone());
            let one = match &freq {
                Freq::Count(num) => num.holds_of(n, self.span_from(start)),
                Freq::Than(op, other, at) => {
                    cmp(*op, n, count_of(*other, at.clone()), self.span_from(start))
                }
                Freq::AnyOther(op, at) => {
                    let mut all: Option<Formula> = None;
                    for o in Colour::ALL.into_iter().filter(|o| o != c) {
                        let g = cmp(
                            *op,
                            count_of(*c, span.clone()),
                            count_of(o, at.clone()),
                            at.clone(),
                        );
                        all = and_opt(all, Some(g));
                    }
                    all.expect("three other colours")
                }
            };
            let one = if negated {
                not(one.span.clone(), one)
            } else {
                one
            };
            out = Some(match out {
                None => one,
                Some(a) if joined.as_deref() == Some("or") => bin(BinOp::Or, a, one),
                Some(a) => bin(BinOp::And, a, one),
            });
        }
        Some(Ok(out.expect("a colour").respan(self.span_from(start))))
    }

    /// `a tile of each colour`, `one tile of every colour`: all four colours shown.
    pub(super) fn every_colour(&mut self, start: usize) -> Option<Formula> {
        let phrases: &[&[&str]] = &[
            &["a", "tile", "of", "each", "colour"],
            &["a", "tile", "of", "every", "colour"],
            &["one", "tile", "of", "each", "colour"],
            &["one", "tile", "of", "every", "colour"],
            &["tiles", "of", "every", "colour"],
            &["tiles", "of", "each", "colour"],
            &["every", "colour"],
            &["each", "colour"],
        ];
        let ws = phrases.iter().find(|ws| self.c.is_words(ws))?;
        self.c.pos += ws.len();
        let span = self.span_from(start);
        let kind = match self.within {
            Some(s) => TermKind::ColoursIn(s),
            None => TermKind::Colours,
        };
        let t = Term::new(span.clone(), kind);
        Some(cmp(CmpOp::Eq, t, int(4, span.clone()), span))
    }

    /// `every colour`, `each of the colours`, `some colour`, `no colour`, `a colour`.
    fn colour_det(&mut self) -> Option<Det> {
        let words: &[(&[&str], Det)] = &[
            (&["each", "of", "the", "four", "colours"], Det::Every),
            (&["each", "of", "the", "colours"], Det::Every),
            (&["every", "one", "of", "the", "colours"], Det::Every),
            (&["all", "four", "colours"], Det::Every),
            (&["all", "the", "colours"], Det::Every),
            (&["all", "colours"], Det::Every),
            (&["every", "colour"], Det::Every),
            (&["each", "colour"], Det::Every),
            (&["any", "colour"], Det::Some),
            (&["some", "colour"], Det::Some),
            (&["a", "colour"], Det::Some),
            (&["one", "colour"], Det::Some),
            (&["no", "colour"], Det::No),
            (&["none", "of", "the", "colours"], Det::No),
        ];
        let (ws, det) = words.iter().find(|(ws, _)| self.c.is_words(ws))?;
        self.c.pos += ws.len();
        Some(det.clone())
    }

    /// `appears`, `is used`, `is present`, `occurs` (and their negations): whether
    /// negated, or `None` when no such verb follows.
    fn appear_verb(&mut self) -> Option<bool> {
        const YES: &[&[&str]] = &[
            &["appears"],
            &["appear"],
            &["occurs"],
            &["occur"],
            &["shows", "up"],
            &["show", "up"],
            &["is", "used"],
            &["are", "used"],
            &["is", "present"],
            &["are", "present"],
            &["exists"],
            &["exist"],
        ];
        const NO: &[&[&str]] = &[
            &["does", "not", "appear"],
            &["doesn't", "appear"],
            &["do", "not", "appear"],
            &["don't", "appear"],
            &["never", "appears"],
            &["never", "appear"],
            &["does", "not", "occur"],
            &["doesn't", "occur"],
            &["is", "not", "used"],
            &["isn't", "used"],
            &["are", "not", "used"],
            &["is", "not", "present"],
            &["isn't", "present"],
            &["is", "absent"],
            &["are", "absent"],
            &["is", "missing"],
            &["are", "missing"],
        ];
        if let Some(ws) = NO.iter().find(|ws| self.c.is_words(ws)) {
            self.c.pos += ws.len();
            return Some(true);
        }
        let ws = YES.iter().find(|ws| self.c.is_words(ws))?;
        self.c.pos += ws.len();
        Some(false)
    }

    /// How often a colour appears: `twice`, `exactly 3 times`, `on at least two
    /// tiles`, `more often than blue`, `more often than any other colour`.
    fn frequency(&mut self) -> R<Option<Freq>> {
        let start = self.start();
        // `more often than blue`, `less often than any other colour`.
        let often: &[(&[&str], CmpOp)] = &[
            (&["more", "often", "than"], CmpOp::Gt),
            (&["more", "than"], CmpOp::Gt),
            (&["less", "often", "than"], CmpOp::Lt),
            (&["fewer", "times", "than"], CmpOp::Lt),
            (&["as", "often", "as"], CmpOp::Eq),
            (&["as", "many", "times", "as"], CmpOp::Eq),
        ];
        if let Some((ws, op)) = often.iter().find(|(ws, _)| {
            self.c.is_words(ws)
                && self.number_at(ws.len()).is_none()
                && !self.c.is_words(&["more", "than", "once"])
                && !self.c.is_words(&["more", "than", "twice"])
        }) {
            self.c.pos += ws.len();
            let at = self.c.here();
            if let Some(c) = self.c.word().and_then(colour) {
                self.c.bump();
                return Ok(Some(Freq::Than(*op, c, at)));
            }
            let others = [
                &["any", "other", "colour"][..],
                &["every", "other", "colour"],
                &["all", "other", "colours"],
                &["each", "other", "colour"],
                &["the", "other", "colours"],
            ];
            if let Some(ws) = others.iter().find(|ws| self.c.is_words(ws)) {
                self.c.pos += ws.len();
                return Ok(Some(Freq::AnyOther(*op, self.span_from(at.start))));
            }
            return Err(self.c.expected(
                "a colour (`more often than blue`, `more often than any other colour`)",
            ));
        }
        // A number condition, then `times` or `tiles`; `once`, `twice`, `thrice`.
        let save = self.c.pos;
        self.c.eat_word("on");
        self.c.eat_word("in");
        let times = |w: &str| match w {
            "once" => Some(1),
            "twice" => Some(2),
            "thrice" => Some(3),
            _ => None,
        };
        let prefix: &[(&[&str], CmpOp)] = &[
            (&["exactly"], CmpOp::Eq),
            (&["only"], CmpOp::Eq),
            (&["at", "least"], CmpOp::Ge),
            (&["at", "most"], CmpOp::Le),
            (&["more", "than"], CmpOp::Gt),
            (&["fewer", "than"], CmpOp::Lt),
            (&["less", "than"], CmpOp::Lt),
            (&["no", "more", "than"], CmpOp::Le),
        ];
        let (op, n) = match prefix.iter().find(|(ws, _)| self.c.is_words(ws)) {
            Some((ws, op)) => (Some(*op), ws.len()),
            None => (None, 0),
        };
        let k = self
            .c
            .word_at(n)
            .and_then(times)
            .map(|v| (v, 1))
            .or_else(|| {
                let v = self.number_at(n)?;
                matches!(
                    self.c.word_at(n + 1),
                    Some("times" | "tiles" | "tile" | "time")
                )
                .then_some((v, 2))
            });
        let Some((v, len)) = k else {
            self.c.pos = save;
            if op.is_some() {
                return Err(self
                    .c
                    .expected("how many times (`twice`, `exactly 3 times`)"));
            }
            return Ok(None);
        };
        self.c.pos += n + len;
        // `3 or more times`.
        let op = if self.c.is_words(&["or", "more"]) {
            self.c.pos += 2;
            CmpOp::Ge
        } else if self.c.is_words(&["or", "fewer"]) || self.c.is_words(&["or", "less"]) {
            self.c.pos += 2;
            CmpOp::Le
        } else {
            // The seed's rule: a bare number is at least.
            op.unwrap_or(CmpOp::Ge)
        };
        let _ = start;
        Ok(Some(Freq::Count(Num::Cmp(op, v))))
    }

    /// `every colour appears at most twice`: for each colour, its tiles; counted as
    /// the tiles of the same colour as some tile, so a colour that does not appear
    /// counts zero times.
    fn colour_quantified(
        &mut self,
        det: Det,
        negated: bool,
        freq: Freq,
        start: usize,
    ) -> R<Formula> {
        let Freq::Count(num) = freq else {
            return Err(ParsePatternError::new(
                self.span_from(start),
                "compare a named colour (`red appears more often than blue`), not every colour",
            ));
        };
        let span = self.span_from(start);
        let dom = self.dom();
        let (x, y) = (Var(self.base), Var(self.base + 1));
        let same = Formula::new(span.clone(), K::Rel(Relation::SameColour, x, y));
        let times: Formula = num.holds_of(count(y, dom, same, span.clone()), span.clone());
        let times = if negated {
            not(span.clone(), times)
        } else {
            times
        };
        // Whether a colour that does not appear (zero times) meets the condition.
        let zero = num.admits(0) != negated;
        let shown = match self.within {
            Some(s) => Term::new(span.clone(), TermKind::ColoursIn(s)),
            None => Term::new(span.clone(), TermKind::Colours),
        };
        let all_shown = cmp(CmpOp::Eq, shown.clone(), int(4, span.clone()), span.clone());
        let some_missing = cmp(CmpOp::Lt, shown, int(4, span.clone()), span.clone());
        let every = Formula::new(
            span.clone(),
            K::Forall(x, domain(dom), Box::new(times.clone())),
        );
        let some = Formula::new(span.clone(), K::Exists(x, domain(dom), Box::new(times)));
        Ok(match det {
            Det::Every if zero => every,
            Det::Every => bin(BinOp::And, all_shown, every),
            Det::Some if zero => bin(BinOp::Or, some_missing, some),
            Det::Some => some,
            Det::No if zero => not(span.clone(), bin(BinOp::Or, some_missing, some)),
            _ => not(span.clone(), some),
        })
    }
}

/// Counts of colours said another way, as the reader reads them (at token `i`: how
/// many tokens, and the words instead):
/// - `there are more red tiles than tiles of any other colour` is `red appears more
///   often than any other colour` (`fewer`: `less often`);
/// - `green tiles and yellow tiles are equal in number` (`green and yellow tiles`) is
///   `there are as many green tiles as yellow tiles`.
pub(super) fn reworded(toks: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = |k: usize| toks.get(i + k).and_then(Token::word).unwrap_or("");
    let say = |ws: &[&str]| ws.iter().map(|w| w.to_string()).collect::<Vec<_>>();
    if let ("there", "are", more @ ("more" | "fewer"), c, "tiles", "than") =
        (w(0), w(1), w(2), w(3), w(4), w(5))
        && colour(c).is_some()
    {
        // Tiles compared with tiles (`than any other colour` compares them with a
        // colour, and stays refused).
        let of = [
            &["tiles", "of"][..],
            &["the", "tiles", "of"],
            &["those", "of"],
        ];
        let k = 6 + of
            .iter()
            .find(|ws| ws.iter().enumerate().all(|(j, x)| w(6 + j) == *x))?
            .len();
        if matches!(w(k), "any" | "every" | "each") && w(k + 1) == "other" && w(k + 2) == "colour" {
            let how = if more == "more" { "more" } else { "less" };
            return Some((
                k + 3,
                say(&[c, "appears", how, "often", "than", "any", "other", "colour"]),
            ));
        }
    }
    // `adjacent tiles never match`, `no two tiles in a row match`: two tiles match when
    // they are the same colour (`A1 matches B2`: one tile is the same colour as another).
    let negated = i
        .checked_sub(1)
        .and_then(|k| toks.get(k))
        .and_then(Token::word)
        .is_some_and(|p| matches!(p, "not" | "don't" | "doesn't" | "do" | "does"));
    if !negated {
        match w(0) {
            "match" if !matches!(w(1), "a" | "an" | "the" | "any" | "every") => {
                return Some((1, say(&["are", "the", "same", "colour"])));
            }
            "matches" => return Some((1, say(&["is", "the", "same", "colour", "as"]))),
            _ => {}
        }
    }
    // `a red and a blue tile`: a red tile and a blue tile (the noun said once). And
    // `a red tile and a blue tile are adjacent` (or another relation of the two) is
    // `there is a red tile and a blue tile that are adjacent`: the two so related.
    let pair = match (w(0), w(1), w(2), w(3), w(4), w(5), w(6)) {
        ("a" | "an", a, "and", "a" | "an", b, "tile", _) => Some((a, b, 6)),
        ("a" | "an", a, "tile", "and", "a" | "an", b, "tile") => Some((a, b, 7)),
        _ => None,
    };
    if let Some((a, b, n)) = pair
        && colour(a).is_some()
        && colour(b).is_some()
    {
        let second = if n == 6 { w(3) } else { w(4) };
        let both = [w(0), a, "tile", "and", second, b, "tile"];
        let related = w(n) == "are"
            && super::RELATED
                .iter()
                .any(|r| r.iter().enumerate().all(|(j, x)| w(n + 1 + j) == *x));
        if related {
            let mut out = say(&["there", "is"]);
            out.extend(say(&both));
            out.extend(say(&["that", "are"]));
            return Some((n + 1, out));
        }
        if n == 6 {
            return Some((6, say(&both)));
        }
    }
    // `green tiles and yellow tiles are equal in number`, `green and yellow tiles are`.
    let (a, b, n) = match (w(0), w(1), w(2), w(3), w(4)) {
        (a, "tiles", "and", b, "tiles") => (a, b, 5),
        (a, "and", b, "tiles", _) => (a, b, 4),
        _ => return None,
    };
    let equal = [
        &["are", "equal", "in", "number"][..],
        &["are", "equally", "many"],
        &["are", "equally", "numerous"],
    ];
    let tail = equal
        .iter()
        .find(|ws| ws.iter().enumerate().all(|(j, x)| w(n + j) == *x))?;
    (colour(a).is_some() && colour(b).is_some()).then(|| {
        (
            n + tail.len(),
            say(&["there", "are", "as", "many", a, "tiles", "as", b, "tiles"]),
        )
    })
}
