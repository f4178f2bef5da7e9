//! Regions (rows, columns, 2x2 squares), colours and the tiles' own phrases.

use super::*;

impl Parser<'_, Tiles> {
    /// A determiner and a region noun `k` words ahead: the determiner's words, the
    /// region and its words (`every row`, `some 2x2 square`, `no columns`).
    pub(super) fn region_det_at(&self, k: usize) -> Option<(usize, RegionKind, usize)> {
        let w = |i: usize| self.c.word_at(k + i);
        // `row B`, `column 2`: one line, named.
        if let Some(p) = self.named_line_at(k) {
            let kind = match p {
                Place::Row(_) => RegionKind::Row,
                _ => RegionKind::Column,
            };
            return Some((0, kind, 2));
        }
        let det = match w(0)? {
            "every" | "each" | "some" | "a" | "an" | "no" | "any" | "one" => 1,
            "all" if w(1) == Some("the") => 2,
            "all" => 1,
            "the"
                if matches!(
                    w(1),
                    Some(
                        "top"
                            | "bottom"
                            | "left"
                            | "right"
                            | "leftmost"
                            | "rightmost"
                            | "first"
                            | "last"
                    )
                ) =>
            {
                1
            }
            _ if self.number_at(k).is_some() => 1,
            "exactly" | "only" => 2,
            "at" if matches!(w(1), Some("least" | "most")) => 3,
            _ => return None,
        };
        let (kind, n) = self.region_at(k + det)?;
        Some((det, kind, n))
    }

    /// `of the row` (`column`, `line`, `subset`) after an end: the subset's one line.
    fn of_the_line(&mut self) {
        for line in ["row", "column", "line", "subset"] {
            if self.c.eat_words(&["of", "the", line]) {
                return;
            }
        }
    }

    /// A row or column named at `k` by its letter or number (grids: rows A-D from the
    /// top, columns 1-4 from the left): `row B`, `column 2`. `row a` is one only
    /// where no noun can follow the article (`row A is blue`, not `row a tile`).
    pub(super) fn named_line_at(&self, k: usize) -> Option<Place> {
        let name = match &self.c.peek_at(k + 1)?.tok {
            Tok::Int(n) => n.to_string(),
            Tok::Word(w) => w.clone(),
            Tok::Sym(_) => return None,
        };
        let place = match self.c.word_at(k)? {
            "row" => Place::row_named(&name)?,
            "column" => Place::column_named(&name)?,
            _ => return None,
        };
        let after = self.c.word_at(k + 2);
        let article = name == "a"
            && after.is_some_and(|w| {
                !matches!(
                    w,
                    "is" | "isn't"
                        | "are"
                        | "has"
                        | "have"
                        | "contains"
                        | "contain"
                        | "includes"
                        | "and"
                        | "or"
                        | "but"
                        | "only"
                        | "then"
                )
            });
        (!article).then_some(place)
    }

    /// A region noun at `k`: `row(s)`, `column(s)`, `(2x2) square(s)`, and its words.
    pub(super) fn region_at(&self, k: usize) -> Option<(RegionKind, usize)> {
        let w = |i: usize| self.c.word_at(k + i);
        match w(0)? {
            "2x2" if w(1).is_some_and(|n| region_noun(n) == Some(RegionKind::Square)) => {
                Some((RegionKind::Square, 2))
            }
            n if region_noun(n).is_some() => Some((region_noun(n)?, 1)),
            // `the top row`, `the left column`.
            "top" | "bottom" | "first" | "last"
                if w(1).is_some_and(|n| matches!(n, "row" | "rows")) =>
            {
                Some((RegionKind::Row, 2))
            }
            "left" | "right" | "leftmost" | "rightmost" | "first" | "last"
                if w(1).is_some_and(|n| matches!(n, "column" | "columns")) =>
            {
                Some((RegionKind::Column, 2))
            }
            _ if self.number_at(k) == Some(2)
                && w(1) == Some("x")
                && self.number_at(k + 2) == Some(2)
                && w(3).is_some_and(|n| region_noun(n) == Some(RegionKind::Square)) =>
            {
                Some((RegionKind::Square, 4))
            }
            _ => None,
        }
    }

    /// Reads a region's determiner and noun: how the regions are quantified, the
    /// kind, and (for `the top row`) the place whose tiles make the region.
    fn region_det(&mut self) -> R<(RegionDet, RegionKind, Span)> {
        let start = self.start();
        let Some((det_words, kind, n)) = self.region_det_at(0) else {
            return Err(self.c.expected("a row, a column or a 2x2 square"));
        };
        if let Some(place) = self.named_line_at(0) {
            self.c.pos += 2;
            return Ok((RegionDet::The(place), kind, self.span_from(start)));
        }
        let first = self.c.word().unwrap_or("").to_string();
        let second = self.c.word_at(1).unwrap_or("").to_string();
        if first == "the" {
            let place = match second.as_str() {
                "top" | "first" if kind == RegionKind::Row => Place::Topmost,
                "bottom" | "last" if kind == RegionKind::Row => Place::Bottommost,
                "left" | "leftmost" | "first" => Place::Leftmost,
                _ => Place::Rightmost,
            };
            self.c.pos += det_words + n;
            return Ok((RegionDet::The(place), kind, self.span_from(start)));
        }
        // `at least one row`: some row.
        let at_least_one = first == "at" && second == "least" && self.c.word_at(2) == Some("one");
        let det = match first.as_str() {
            "every" | "each" | "all" | "any" => RegionDet::Every,
            "some" | "a" | "an" | "one" => RegionDet::Some,
            "no" => RegionDet::No,
            _ if at_least_one => RegionDet::Some,
            _ => {
                let noun_end = self
                    .c
                    .peek_at(det_words + n - 1)
                    .map_or(start, |t| t.span.end);
                let noun = kind.noun();
                return Err(ParsePatternError::new(
                    start..noun_end,
                    format!(
                        "regions are not counted: say `a {noun}`, `every {noun}` or `no {noun}`"
                    ),
                )
                .with_help(format!("e.g. `there is a {noun} with two red tiles`")));
            }
        };
        self.c.pos += det_words + n;
        Ok((det, kind, self.span_from(start)))
    }

    /// Binds a region variable and reads `body` with the sentence's own tiles in it.
    fn in_region(
        &mut self,
        kind: RegionKind,
        det: RegionDet,
        span: Span,
        body: impl FnOnce(&mut Self, Var) -> R<Formula>,
    ) -> R<Formula> {
        let s = Var(self.base);
        self.base += 1;
        let b = self.within_region(s, |p| body(p, s));
        self.base -= 1;
        let b = b?;
        let whole = span.start.min(b.span.start)..b.span.end.max(span.end);
        Ok(match det {
            RegionDet::Every => Formula::new(whole, K::ForallRegion(s, kind, Box::new(b))),
            RegionDet::Some => Formula::new(whole, K::ExistsRegion(s, kind, Box::new(b))),
            RegionDet::No => not(
                whole.clone(),
                Formula::new(whole, K::ExistsRegion(s, kind, Box::new(b))),
            ),
            RegionDet::The(place) => {
                // The row of the subset's topmost tiles: every row that has one.
                // s is Var(base); the body's own tiles start above it.
                let y = Var(self.base + 1);
                let here = Formula::new(span.clone(), K::Place(place, y));
                let has = Formula::new(span.clone(), K::Exists(y, Domain::In(s), Box::new(here)));
                let body = bin(BinOp::Implies, has, b);
                Formula::new(whole, K::ForallRegion(s, kind, Box::new(body)))
            }
        })
    }

    /// `every row has ...`, `no column contains ...`, `some row is all red`, `the top
    /// row is red`.
    pub(super) fn region_sentence(&mut self, start: usize) -> R<Formula> {
        let (det, kind, span) = self.region_det()?;
        let has = ["has", "have", "contains", "contain", "includes", "include"];
        if has.iter().any(|w| self.c.eat_word(w)) {
            return self.in_region(kind, det, span, |p, _| {
                let at = p.start();
                p.existential(at, false)
            });
        }
        let neg = if self.c.eat_word("is") || self.c.eat_word("are") {
            self.c.eat_word("not")
        } else if self.c.eat_word("isn't") || self.c.eat_word("aren't") {
            true
        } else {
            return Err(self
                .c
                .expected("`has ...` or `is ...` after a row, column or 2x2 square")
                .with_help("e.g. `every row has a red tile`, `some column is all blue`"));
        };
        let f = self.in_region(kind, det, span, |p, s| p.region_is(s, start))?;
        Ok(if neg {
            not(self.span_from(start), f)
        } else {
            f
        })
    }

    /// After `every row is`: all of its tiles are so (`all red`, `red or blue`), or
    /// they are alike (`all one colour`, `the same colour`) or unlike (`different
    /// colours`).
    fn region_is(&mut self, s: Var, start: usize) -> R<Formula> {
        for w in ["all", "entirely", "completely", "fully", "wholly", "only"] {
            self.c.eat_word(w);
        }
        let here = self.start();
        let one = [
            &["one", "colour"][..],
            &["a", "single", "colour"],
            &["one", "single", "colour"],
            &["the", "same", "colour"],
            &["of", "one", "colour"],
            &["of", "the", "same", "colour"],
            &["a", "single", "colour"],
        ];
        if let Some(ws) = one.iter().find(|ws| self.c.is_words(ws)) {
            self.c.pos += ws.len();
            let span = self.span_from(here);
            let t = Term::new(span.clone(), TermKind::ColoursIn(s));
            return Ok(cmp(CmpOp::Eq, t, int(1, span.clone()), span));
        }
        if self.c.eat_words(&["different", "colours"])
            || self.c.eat_words(&["of", "different", "colours"])
        {
            let span = self.span_from(here);
            let (x, y) = (Var(self.base), Var(self.base + 1));
            let same = Formula::new(span.clone(), K::Rel(Relation::SameColour, x, y));
            let other = not(span.clone(), Formula::new(span.clone(), K::Same(x, y)));
            let both = bin(BinOp::And, other, same);
            let pair = Formula::new(span.clone(), K::Exists(y, Domain::In(s), Box::new(both)));
            let any = Formula::new(span.clone(), K::Exists(x, Domain::In(s), Box::new(pair)));
            return Ok(not(span, any));
        }
        let vp = self.copula_rest(false, start)?;
        let x = Var(self.base);
        let body = self.lower_vp(&vp, x, self.base + 1, &[])?;
        let span = self.span_from(here);
        Ok(Formula::new(
            span,
            K::Forall(x, Domain::In(s), Box::new(body)),
        ))
    }

    /// `there is a row with two red tiles`, `there is no column of only yellow
    /// tiles`, `there is a 2x2 square that has ...`.
    pub(super) fn there_region(&mut self, start: usize) -> R<Formula> {
        let (det, kind, span) = self.region_det()?;
        let with = [
            &["with"][..],
            &["that", "has"],
            &["that", "have"],
            &["which", "has"],
            &["that", "contains"],
            &["which", "contains"],
            &["containing"],
            &["having"],
            &["of"],
            &["where", "there", "is"],
            &["where", "there", "are"],
            &["in", "which", "there", "is"],
            &["in", "which", "there", "are"],
        ];
        let Some(ws) = with.iter().find(|ws| self.c.is_words(ws)) else {
            let noun = kind.noun();
            return Err(self.c.expected(&format!(
                "`with` and tiles, like `a {noun} with a red tile`"
            )));
        };
        self.c.pos += ws.len();
        if matches!(det, RegionDet::Every) {
            return Err(ParsePatternError::new(
                span,
                "`there is` takes `a`, `no` or a number, not `every` / `the`",
            )
            .with_help(format!("e.g. `every {} has a red tile`", kind.noun())));
        }
        self.in_region(kind, det, span, |p, _| {
            let at = p.start();
            p.existential(at, false)
        })
        .map(|f| f.respan(self.span_from(start)))
    }

    /// `in every row, S` / `in each column S`: S of the tiles of every region.
    pub(super) fn region_first(&mut self, start: usize) -> R<Formula> {
        self.c.bump();
        let (det, kind, span) = self.region_det()?;
        self.c.eat_sym(Sym::Comma);
        self.in_region(kind, det, span, |p, _| p.if_then())
            .map(|f| f.respan(self.span_from(start)))
    }

    /// `S in every row` (S an atomic sentence, the region phrase ending its clause):
    /// S of the tiles of every region. `None` when the clause ends otherwise.
    pub(super) fn closing_region(&mut self, start: usize) -> Option<R<Formula>> {
        if self.within.is_some() {
            return None;
        }
        let mut end = 0;
        while !self.at_clause_end(end) {
            end += 1;
        }
        // `in every row` / `in each 2x2 square` just before the clause ends.
        let at = (2..=end.min(6)).rev().find_map(|n| {
            let k = end - n;
            (k > 0
                && matches!(self.c.word_at(k), Some("in" | "of" | "within"))
                // `a red tile is in row B`: a place after the copula, not a region.
                && !matches!(self.c.word_at(k - 1), Some("is" | "are" | "be" | "not"))
                && self
                    .region_det_at(k + 1)
                    .is_some_and(|(d, _, m)| k + 1 + d + m == end))
            .then_some(k)
        })?;
        let stop = self.c.pos + at;
        // `three red tiles in a row`: in one row, or one after another?
        if matches!(self.c.word_at(at), Some("in"))
            && matches!(self.c.word_at(at + 1), Some("a"))
            && matches!(
                self.c.word_at(at + 2),
                Some("row" | "column" | "line" | "diagonal")
            )
        {
            let span_of = |k: usize| self.c.peek_at(k).map_or(0..0, |t| t.span.clone());
            let span = span_of(at).start..span_of(at + 2).end;
            let noun = self.c.word_at(at + 2).unwrap_or("row");
            return Some(Err(ParsePatternError::new(
                span.clone(),
                format!("`in a {noun}` could mean in one {noun} or one after another: say `in one {noun}`, or which tiles touch which"),
            )
            .with_example(splice(self.src, &span, &format!("in one {noun}")))
            .with_example(splice(self.src, &span, "side by side"))));
        }
        Some(self.closing_region_at(stop, start))
    }

    fn closing_region_at(&mut self, stop: usize, start: usize) -> R<Formula> {
        let save = self.c.pos;
        self.c.pos = stop + 1;
        let (det, kind, span) = self.region_det()?;
        let after = self.c.pos;
        self.c.pos = save;
        let f = self.in_region(kind, det, span, |p, _| {
            p.with_stop(stop, |p| {
                let f = p.atomic()?;
                if !p.c.at_end() {
                    return Err(p
                        .c
                        .expected("the region (`in every row`) to close the sentence"));
                }
                Ok(f)
            })
        })?;
        self.c.pos = after;
        Ok(f.respan(self.span_from(start)))
    }

    /// After `touch(es)`: `touches a blue tile` (sharing an edge), `touches ... at a
    /// corner` / `diagonally` (a corner only), `touch each other`.
    pub(super) fn touches(&mut self, start: usize) -> R<Vp<Tiles>> {
        let mut rel = Relation::OrthAdjacent;
        if self.c.eat_word("diagonally") {
            rel = Relation::DiagAdjacent;
        } else {
            self.c.eat_word("orthogonally");
        }
        let mut vp = self.touch_rest((rel, false), start)?;
        let corner = [
            &["at", "a", "corner"][..],
            &["at", "the", "corner"],
            &["at", "corners"],
            &["at", "the", "corners"],
            &["diagonally"],
            &["corner", "to", "corner"],
        ];
        if let Some(ws) = corner.iter().find(|ws| self.c.is_words(ws)) {
            self.c.pos += ws.len();
            vp = match vp {
                Vp::Rel(_, s, o, p) => Vp::Rel((Relation::DiagAdjacent, false), s, o, p),
                Vp::Recip(_, s) => Vp::Recip((Relation::DiagAdjacent, false), s),
                other => other,
            };
        } else if self.c.eat_words(&["along", "an", "edge"])
            || self.c.eat_words(&["along", "a", "side"])
        {
            // Sharing an edge is what `touches` already says.
        }
        Ok(vp)
    }

    /// After `has` / `have`: `the same colour (as ...)`, `different colours`, `a
    /// different colour from ...`, or a tile that relates to it (`has a blue tile
    /// above it`).
    pub(super) fn have_rest(&mut self, start: usize) -> R<Vp<Tiles>> {
        if self.c.eat_words(&["the", "same", "colour"]) {
            let span = self.span_from(start);
            if self.c.eat_word("as") {
                let o = self.object()?;
                return Ok(Vp::Rel(SAME, span, Box::new(o), false));
            }
            return Ok(Vp::Collective(SAME, span));
        }
        if self.c.eat_words(&["different", "colours"]) {
            return Ok(Vp::Different(SAME, self.span_from(start)));
        }
        if self.c.eat_words(&["a", "different", "colour"]) {
            let span = self.span_from(start);
            if matches!(self.c.word(), Some("from" | "than" | "to")) {
                self.c.bump();
                let o = self.object()?;
                return Ok(Vp::Rel(DIFFERENT, span, Box::new(o), false));
            }
            return Err(self
                .c
                .expected("`from` and a tile (`has a different colour from a red tile`)"));
        }
        self.has_object(start)
    }

    /// `in the top row`, `at the top`, `in the left column`, `on the left`: the place
    /// among the subset's tiles.
    pub(super) fn place_phrase(&mut self) -> R<Option<Vp<Tiles>>> {
        let start = self.start();
        let phrases: &[(&[&str], Place)] = &[
            (&["in", "the", "top", "row"], Place::Topmost),
            (&["in", "the", "first", "row"], Place::Topmost),
            (&["in", "the", "bottom", "row"], Place::Bottommost),
            (&["in", "the", "last", "row"], Place::Bottommost),
            (&["in", "the", "left", "column"], Place::Leftmost),
            (&["in", "the", "leftmost", "column"], Place::Leftmost),
            (&["in", "the", "first", "column"], Place::Leftmost),
            (&["in", "the", "right", "column"], Place::Rightmost),
            (&["in", "the", "rightmost", "column"], Place::Rightmost),
            (&["in", "the", "last", "column"], Place::Rightmost),
            (&["at", "the", "top"], Place::Topmost),
            (&["at", "the", "bottom"], Place::Bottommost),
        ];
        // `at one end (of the row)`; `at either end` is one end, or both?
        for ws in [&["at", "one", "end"][..], &["at", "an", "end"]] {
            if self.c.is_words(ws) {
                self.c.pos += ws.len();
                self.of_the_line();
                return Ok(Some(Vp::Unary(
                    TileUnary::Place(Place::End),
                    self.span_from(start),
                )));
            }
        }
        if self.c.is_words(&["at", "either", "end"]) {
            let end = self.c.peek_at(2).map_or(start, |t| t.span.end);
            let span = start..end;
            return Err(ParsePatternError::new(
                span.clone(),
                "`at either end` could mean at one end or at both ends: say `at one end`, or `at both ends` (each end)",
            )
            .with_example(splice(self.src, &span, "at one end"))
            .with_example(splice(self.src, &span, "at both ends")));
        }
        if self.c.is_words(&["at", "both", "ends"]) {
            return Err(ParsePatternError::new(
                self.c.here(),
                "`at both ends` reads as the tiles there: say `the tiles at both ends are red`",
            ));
        }
        if self.c.is_word("in")
            && let Some(p) = self.named_line_at(1)
        {
            self.c.pos += 3;
            return Ok(Some(Vp::Unary(TileUnary::Place(p), self.span_from(start))));
        }
        let Some((ws, p)) = phrases.iter().find(|(ws, _)| self.c.is_words(ws)) else {
            return Ok(None);
        };
        self.c.pos += ws.len();
        Ok(Some(Vp::Unary(TileUnary::Place(*p), self.span_from(start))))
    }

    /// The tiles' own complements of `is`.
    pub(super) fn complement_tiles(&mut self, start: usize) -> Option<R<Vp<Tiles>>> {
        let w = self.c.word()?.to_string();
        let rel = |p: &mut Self, r: Relation, n: usize| -> R<Vp<Tiles>> {
            p.c.pos += n;
            let span = p.span_from(start);
            if p.each_other() || p.at_clause_end(0) {
                return Ok(Vp::Recip((r, false), span));
            }
            Ok(Vp::Rel((r, false), span, Box::new(p.object()?), false))
        };
        let adjacency = [
            (&["adjacent", "to"][..], Relation::Adjacent),
            (&["orthogonally", "adjacent", "to"], Relation::OrthAdjacent),
            (&["diagonally", "adjacent", "to"], Relation::DiagAdjacent),
            (&["side", "by", "side", "with"], Relation::OrthAdjacent),
            (&["adjacent"], Relation::Adjacent),
            (&["orthogonally", "adjacent"], Relation::OrthAdjacent),
            (&["diagonally", "adjacent"], Relation::DiagAdjacent),
            (&["side", "by", "side"], Relation::OrthAdjacent),
        ];
        if let Some((ws, r)) = adjacency.iter().find(|(ws, _)| self.c.is_words(ws)) {
            return Some(rel(self, *r, ws.len()));
        }
        let places = [
            (&["in", "a", "higher", "row", "than"][..], Relation::Above),
            (&["in", "a", "lower", "row", "than"], Relation::Below),
            (
                &["in", "a", "column", "further", "left", "than"],
                Relation::LeftOf,
            ),
            (
                &["in", "a", "column", "further", "right", "than"],
                Relation::RightOf,
            ),
            (&["further", "left", "than"], Relation::LeftOf),
            (&["further", "right", "than"], Relation::RightOf),
        ];
        if let Some((ws, r)) = places.iter().find(|(ws, _)| self.c.is_words(ws)) {
            self.c.pos += ws.len();
            let span = self.span_from(start);
            return Some(
                self.object()
                    .map(|o| Vp::Rel((*r, false), span, Box::new(o), false)),
            );
        }
        let different = [
            &["a", "different", "colour", "from"][..],
            &["a", "different", "colour", "than"],
            &["a", "different", "colour", "to"],
            &["different", "colour", "from"],
            &["different", "from"],
        ];
        if let Some(ws) = different.iter().find(|ws| self.c.is_words(ws)) {
            self.c.pos += ws.len();
            let span = self.span_from(start);
            return Some(
                self.object()
                    .map(|o| Vp::Rel(DIFFERENT, span, Box::new(o), false)),
            );
        }
        for ws in [
            &["one", "colour"][..],
            &["a", "single", "colour"],
            &["of", "one", "colour"],
        ] {
            if self.c.is_words(ws) {
                self.c.pos += ws.len();
                return Some(Ok(Vp::Collective(SAME, self.span_from(start))));
            }
        }
        match self.place_phrase() {
            Ok(Some(vp)) => return Some(Ok(vp)),
            Err(e) => return Some(Err(e)),
            Ok(None) => {}
        }
        if matches!(
            w.as_str(),
            "next" | "beside" | "near" | "neighbouring" | "by"
        ) && !self.c.is_words(&["by", "side"])
        {
            return Some(Err(self.next_to_refusal(start)));
        }
        let on_top = self.c.is_words(&["on", "top", "of"])
            || matches!(w.as_str(), "immediately" | "just" | "right")
                && matches!(
                    self.c.word_at(1),
                    Some("above" | "below" | "under" | "beneath" | "left" | "right")
                );
        if on_top {
            let n = if w == "on" { 3 } else { 2 };
            let end = self.c.peek_at(n - 1).map_or(start, |t| t.span.end);
            return Some(Err(ParsePatternError::new(
                start..end,
                "this could mean directly above (any distance) or only the tile right next to it: say `directly above` (same column, any distance) and add `orthogonally adjacent to` for the next one",
            )
            .with_example(splice(self.src, &(start..end), "directly above"))));
        }
        None
    }

    /// `next to`, `beside`, `near`: diagonal neighbours too? Suggests both readings.
    pub(super) fn next_to_refusal(&self, start: usize) -> ParsePatternError {
        let n = if self.c.word_at(1) == Some("to") {
            2
        } else {
            1
        };
        let end = self.c.peek_at(n - 1).map_or(start, |t| t.span.end);
        let word = &self.src[start..end];
        ParsePatternError::new(
            start..end,
            format!("`{word}` could include diagonal neighbours or not: say `adjacent to` (any of the 8 neighbours) or `orthogonally adjacent to` (sharing an edge)"),
        )
        .with_example(splice(self.src, &(start..end), "orthogonally adjacent to"))
        .with_example(splice(self.src, &(start..end), "adjacent to"))
        .with_readings()
    }
}
