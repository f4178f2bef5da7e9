//! The tiles' words, as the English frame asks for them: nouns, adjectives, verbs,
//! relations, counted things and number terms, and what the tiles read differently.

use super::*;

impl Vocabulary for Tiles {
    type Unary = TileUnary;
    type Binary = TileBinary;
    type F = Formula;
    type Counted = Counted;

    const WHAT: &'static str = "statement";
    const NOUN: &'static str = "tile";
    const NOUNS: &'static str = "tiles";
    const EXAMPLE: &'static str = "there are two red tiles";
    const VP_EXPECTED: &'static str =
        "a verb phrase such as `is red`, `is adjacent to a blue tile` or `touches a green tile`";
    const NOUN_EXPECTED: &'static str = "`tile` or `tiles`";
    const SAME_AS_EXAMPLE: &'static str = "is the same colour as a blue tile";
    const SAME_EXAMPLE: &'static str = "all tiles are the same colour";
    const NO_TWO_EXAMPLE: &'static str = "no two adjacent tiles are the same colour";
    const IT_EXAMPLE: &'static str = "if a tile is red, it is adjacent to a blue tile";
    const ONLY_EXAMPLE: &'static str = "only red tiles are adjacent to blue tiles";
    const HALF_EXAMPLE: &'static str = "half of the tiles are red";
    const RELATIVE_EXAMPLE: &'static str = "every tile that is adjacent to a red tile is blue";
    const MAX_NESTING: u32 = 60;
    const FINITE_VERBS: &'static [&'static str] = &["touch", "touches", "has", "have"];
    const PARTICIPLES: &'static [&'static str] = &["touching"];
    const BASE_VERBS: &'static [&'static str] = &[
        "touch",
        "have",
        "contain",
        "appear",
        "exist",
        "occur",
        "outnumber",
        "equal",
        "add",
    ];
    const DO_VERBS: &'static [&'static str] = &["touch"];
    const DO_NOT_EXPECTED: &'static str = "`touch`, `have` or `appear`";
    const POLICY: Policy = Policy {
        bare_number_at_least: true,
        the_is_every: true,
        most_is_more_than_half: true,
        between_inclusive: true,
    };

    fn say(text: &str) -> String {
        say(text)
    }

    fn spelling(w: &str) -> Option<&'static str> {
        Some(match w {
            "color" => "colour",
            "colors" => "colours",
            "colored" => "coloured",
            "2×2" => "2x2",
            "neighbor" => "neighbour",
            "neighbors" => "neighbours",
            "neighboring" => "neighbouring",
            "gray" => "grey",
            _ => return None,
        })
    }

    fn kind_plural(w: &str) -> Option<&'static str> {
        Some(match w {
            "reds" => "red",
            "blues" => "blue",
            "greens" => "green",
            "yellows" => "yellow",
            _ => return None,
        })
    }

    /// A tile with a neighbour, or next to some tile: in a connected subset every
    /// tile has one sharing an edge, so the readings with and without diagonals agree
    /// (`adjacent`, the seed's word). With a kind or a number (`next to a red tile`)
    /// they differ, and `next to` stays refused. A tile's neighbours are the 8 tiles
    /// around it, as `adjacent to` says (an `orthogonal` neighbour shares an edge, a
    /// `diagonal` one a corner): `has a red neighbour` is `is adjacent to a red tile`,
    /// `a tile with no red neighbour` is `a tile that is adjacent to no red tile`.
    fn reworded_at(toks: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
        let w = |k: usize| toks.get(i + k).and_then(Token::word).unwrap_or("");
        let end = |n: usize| {
            // The object ends there (no relative clause or kind after it).
            !matches!(w(n), "that" | "which" | "of" | "with" | "in")
        };
        let say = |ws: &[&str]| ws.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        if let Some(r) = unique_colour(&w).or_else(|| ends(&w)) {
            return Some(r);
        }
        // A tile named by its coordinates is the one tile there: `C4`, `the tile C4`,
        // `tile C4`, `the tile at C4` are `a c4 tile` (`c4` an adjective, as
        // `leftmost` is; there is one such tile, so `a` says it, under a negation too).
        // Two named tiles with one verb: `A1 and D1 are (both) red` says it of each;
        // `A1 and D1 are the same colour` (or another relation of the two) is `there
        // is a A1 tile and a D1 tile that are ...`, which the reader reads as the two
        // so related.
        if let (Some(a), "and", Some(b), "are") = (cell_name(w(0)), w(1), cell_name(w(2)), w(3)) {
            let tile = |c: crate::lang::tiles::cells::Cell| {
                ["a".to_string(), c.to_string(), "tile".into()]
            };
            let both = usize::from(w(4) == "both");
            let kind = w(4 + both);
            let clause_end = |k: usize| {
                toks.get(i + k)
                    .is_none_or(|t| t.word().is_none_or(|x| matches!(x, "and" | "or" | "but")))
            };
            if colour(kind).is_some() && clause_end(5 + both) {
                let mut out: Vec<String> = tile(a).into();
                out.extend(["is".to_string(), kind.to_string(), "and".into()]);
                out.extend(tile(b));
                out.extend(["is".to_string(), kind.to_string()]);
                return Some((5 + both, out));
            }
            let related = super::RELATED.iter().any(|r| words_at(&w, 4, r));
            if related {
                let mut out = say(&["there", "is"]);
                out.extend(tile(a));
                out.push("and".into());
                out.extend(tile(b));
                out.extend(say(&["that", "are"]));
                return Some((4, out));
            }
        }
        // `the top row has more red tiles than the bottom row`, `the two columns`.
        if let Some((n, words, again)) = super::lines::reworded(toks, i) {
            if again {
                let toks = crate::lang::lexer::lex(&words.join(" ")).ok()?.tokens;
                let (k, mut out) = Self::reworded_at(&toks, 0)?;
                out.extend(toks[k..].iter().filter_map(|t| t.word().map(String::from)));
                return Some((n, out));
            }
            return Some((n, words));
        }
        // `the four tiles`, `the subset contains`: the whole subset.
        if let Some(r) = super::whole::reworded(toks, i) {
            return Some(r);
        }
        if let Some(r) = super::colours::reworded(toks, i) {
            return Some(r);
        }
        // `a red tile is A1 or B2`: after the verb, the tiles named are the places
        // it has (adjectives, as `leftmost or topmost` are), not tiles of their own
        // (`a red tile is A1, or a tile is B2` is another statement).
        if matches!(w(0), "is" | "are")
            && let Some(a) = cell_name(w(1))
        {
            let mut out = say(&[w(0), &a.to_string()]);
            let mut n = 2;
            while w(n) == "or"
                && let Some(b) = cell_name(w(n + 1))
            {
                out.extend(["or".to_string(), b.to_string()]);
                n += 2;
            }
            return Some((n, out));
        }
        // `one of A1 and B2` (after `at least`, `exactly`, ...): one tile of the two,
        // which is `one A1 or B2 tile` (the two places as adjectives, as `small or
        // large` is); the count before it stays the player's.
        if w(0) == "one"
            && w(1) == "of"
            && let (Some(a), "and" | "or", Some(b)) = (cell_name(w(2)), w(3), cell_name(w(4)))
        {
            return Some((
                5,
                say(&["one", &a.to_string(), "or", &b.to_string(), "tile"]),
            ));
        }
        // After an adjective (`a red C4 tile`, as the umpire says it back) it is one
        // more adjective.
        let before = i
            .checked_sub(1)
            .and_then(|k| toks.get(k))
            .and_then(Token::word);
        let after_adjective = before.is_some_and(|a| colour(a).is_some() || place(a).is_some());
        if after_adjective && let Some(cell) = cell_name(w(0)) {
            return Some((1, vec![cell.to_string()]));
        }
        for (skip, n) in [
            (&["the", "tile", "at"][..], 3),
            (&["the", "tile", "in"][..], 3),
            (&["the", "tile"][..], 2),
            (&["tile"][..], 1),
            (&["the"][..], 1),
            (&["a"][..], 1),
            (&["an"][..], 1),
            (&[][..], 0),
        ] {
            if words_at(&w, 0, skip)
                && let Some(cell) = cell_name(w(n))
            {
                let tile = if w(n + 1) == "tile" { 1 } else { 0 };
                return Some((n + 1 + tile, say(&["a", &cell.to_string(), "tile"])));
            }
        }
        if matches!(w(0), "has" | "have") {
            let (n, mut words) = neighbour_object(&w, 1)?;
            let verb = if w(0) == "has" { "is" } else { "are" };
            words.insert(0, verb.to_string());
            return Some((1 + n, words));
        }
        // `a tile with no red neighbour`: after the noun, a relative clause.
        if w(0) == "with"
            && let Some(noun @ ("tile" | "tiles")) = before
            && let Some((n, mut words)) = neighbour_object(&w, 1)
        {
            let verb = if noun == "tile" { "is" } else { "are" };
            words.splice(0..0, ["that".to_string(), verb.to_string()]);
            return Some((1 + n, words));
        }
        let next = match (w(0), w(1)) {
            ("next", "to") => 2,
            ("beside", _) => 1,
            _ => return None,
        };
        const ANY: &[&[&str]] = &[
            &["a", "tile"],
            &["another", "tile"],
            &["some", "tile"],
            &["other", "tiles"],
            &["something"],
            &["anything"],
            &["some", "other", "tile"],
        ];
        let n = ANY
            .iter()
            .find(|ws| words_at(&w, next, ws))
            .map(|ws| ws.len())?;
        if !end(next + n) {
            return None;
        }
        Some((next + n, say(&["adjacent", "to", "a", "tile"])))
    }

    fn check_words(toks: &[Token]) -> R<()> {
        for t in toks {
            if let Some(w @ ("piece" | "pieces" | "pyramid" | "pyramids" | "arrow" | "arrows")) =
                t.word()
            {
                return Err(ParsePatternError::new(
                    t.span.clone(),
                    format!("statements speak of tiles, not {w}: `a red tile`, `two blue tiles`"),
                ));
            }
        }
        Ok(())
    }

    fn ignored_at(toks: &[Token], i: usize) -> usize {
        let w = |k: usize| toks.get(i + k).and_then(Token::word);
        // `in my subset`, `of the subset`: a statement speaks of its subset anyway.
        if matches!(w(0), Some("in" | "of" | "within"))
            && matches!(
                w(1),
                Some("the" | "my" | "this" | "your" | "our" | "his" | "her")
            )
            && w(2) == Some("subset")
        {
            3
        } else if w(0) == Some("both")
            && matches!(w(1), Some("a" | "an"))
            && (2..6).any(|k| w(k) == Some("and"))
        {
            // `has both a red and a blue tile`: `both` stresses the `and` that follows.
            1
        } else {
            0
        }
    }

    fn is_noun(w: &str) -> bool {
        matches!(w, "tile" | "tiles" | "cell" | "cells")
    }

    fn adjective(w: &str) -> Option<TileUnary> {
        colour(w)
            .map(TileUnary::Colour)
            .or_else(|| place(w).map(TileUnary::Place))
    }

    fn is_modifier(w: &str) -> bool {
        Self::adjective(w).is_some() || matches!(w, "adjacent" | "orthogonally" | "diagonally")
    }

    fn sameness(w: &str) -> Option<TileBinary> {
        matches!(w, "colour" | "colours").then_some(SAME)
    }

    fn same_complement(w: &str) -> bool {
        w == "colour"
    }

    fn place(p: At) -> Option<TileBinary> {
        let r = match p {
            At::Above => Relation::Above,
            At::Below => Relation::Below,
            At::LeftOf => Relation::LeftOf,
            At::RightOf => Relation::RightOf,
            At::DirectlyAbove => Relation::DirectlyAbove,
            At::DirectlyBelow => Relation::DirectlyBelow,
            At::DirectlyLeftOf => Relation::DirectlyLeftOf,
            At::DirectlyRightOf => Relation::DirectlyRightOf,
            At::SameRow => Relation::SameRow,
            At::SameColumn => Relation::SameColumn,
        };
        Some((r, false))
    }

    fn modifier(p: &mut Parser<'_, Tiles>) -> R<Option<Vp<Tiles>>> {
        // `a tile adjacent to ...` is read after the noun; before it, in an object,
        // `an adjacent tile` is adjacent to the tile the relation is said of.
        if !p.reading_object {
            return Ok(None);
        }
        let (r, n) = match p.c.word() {
            Some("adjacent" | "neighbouring") => (Relation::Adjacent, 1),
            Some("orthogonally") if p.c.word_at(1) == Some("adjacent") => {
                (Relation::OrthAdjacent, 2)
            }
            Some("diagonally") if p.c.word_at(1) == Some("adjacent") => (Relation::DiagAdjacent, 2),
            _ => return Ok(None),
        };
        if p.c.word_at(n) == Some("to") {
            return Ok(None);
        }
        let start = p.start();
        p.c.pos += n;
        let span = p.span_from(start);
        Ok(Some(Vp::Rel(
            (r, false),
            span.clone(),
            Box::new(Obj::Anchor(span)),
            false,
        )))
    }

    fn pair_adjective(p: &Parser<'_, Tiles>) -> Option<(TileBinary, usize)> {
        let (r, n) = match p.c.word()? {
            // `neighbouring tiles` are adjacent ones; `touching tiles` share an edge,
            // as `touches` does.
            "adjacent" | "neighbouring" => (Relation::Adjacent, 1),
            "touching" => (Relation::OrthAdjacent, 1),
            "orthogonally" if p.c.word_at(1) == Some("adjacent") => (Relation::OrthAdjacent, 2),
            "diagonally" if p.c.word_at(1) == Some("adjacent") => (Relation::DiagAdjacent, 2),
            _ => return None,
        };
        // `adjacent tiles` (pairs), not `adjacent to ...` nor an object's `adjacent tile`.
        (!p.reading_object && p.c.word_at(n) != Some("to") && p.plural_np_ahead(n))
            .then_some(((r, false), n))
    }

    fn pair_after_noun(p: &mut Parser<'_, Tiles>) -> Option<(TileBinary, Span)> {
        // After plural tiles only: `two tiles of the same colour`, `tiles side by side`.
        if !p.c.toks[..p.c.pos]
            .last()
            .and_then(Token::word)
            .is_some_and(|w| Tiles::is_noun(w) && w.ends_with('s'))
        {
            return None;
        }
        let start = p.start();
        if p.c.eat_words(&["side", "by", "side"]) {
            return Some(((Relation::OrthAdjacent, false), p.span_from(start)));
        }
        if p.reading_object {
            return None;
        }
        // `two tiles in the same column`, `no two tiles in the same row` (not `... in
        // the same row as ...`, a relation to another tile; nor an object's, which could
        // share the row with the subject instead).
        for (line, rel) in [("row", Relation::SameRow), ("column", Relation::SameColumn)] {
            if p.c.is_words(&["in", "the", "same", line]) && p.c.word_at(4) != Some("as") {
                p.c.pos += 4;
                return Some(((rel, false), p.span_from(start)));
            }
        }
        let (rel, n) = hue_at(p, 0)?;
        p.c.pos += n;
        Some((rel, p.span_from(start)))
    }

    fn exclusive(a: TileUnary, b: TileUnary) -> bool {
        matches!((a, b), (TileUnary::Colour(c), TileUnary::Colour(d)) if c != d)
    }

    fn symmetric((r, _): TileBinary) -> bool {
        r.symmetric()
    }

    fn cluster((r, neg): TileBinary, n: i64) -> bool {
        n <= 2
            || !neg && r == Relation::SameColour
            || !neg
                && n == 3
                && matches!(
                    r,
                    Relation::Adjacent | Relation::OrthAdjacent | Relation::DiagAdjacent
                )
    }

    fn pair_refusal((r, neg): TileBinary, at: Span) -> ParsePatternError {
        if r == Relation::SameColour && neg {
            return ParsePatternError::new(
                at,
                "`of different colours` reads only for two tiles among themselves",
            )
            .with_help("say `two tiles of different colours`, or for one tile `a tile of a different colour`: e.g. `every row has two tiles of different colours`");
        }
        let (what, example) = if r == Relation::SameColour {
            (
                "tiles of the same colour",
                "every row has two tiles of the same colour",
            )
        } else {
            (
                "tiles counted in adjacent pairs",
                "there are two adjacent red tiles",
            )
        };
        ParsePatternError::new(
            at,
            format!("{what} are counted with a bare number, `at least`, `more than` or `no`: `exactly`, `at most` and `fewer than` leave open whether one colour or every colour is meant (and three tiles at most hang together as one)"),
        )
        .with_help(format!("e.g. `{example}`"))
    }

    fn framed(p: &mut Parser<'_, Tiles>) -> R<Formula> {
        p.sentence()
    }

    fn atomic(p: &mut Parser<'_, Tiles>, start: usize) -> Option<R<Formula>> {
        if let Some(f) = p.closing_region(start) {
            return Some(f);
        }
        if p.c.is_word("in") && p.region_det_at(1).is_some() {
            return Some(p.region_first(start));
        }
        if p.region_det_at(0).is_some() {
            return Some(p.region_sentence(start));
        }
        if let Some(f) = p.colour_sentence(start) {
            return Some(f);
        }
        None
    }

    fn named_region(p: &mut Parser<'_, Tiles>, det: Det, start: usize) -> Option<R<Formula>> {
        let (kind, n) = p.region_at(0)?;
        let name = p.c.word_at(n).filter(|w| is_name(w))?.to_string();
        p.c.pos += n + 1;
        Some(p.binding(&name, Named::Region, |p, s| {
            p.c.eat_sym(Sym::Comma);
            let body = p.sentence()?;
            let span = p.span_from(start);
            Ok(match det {
                Det::Every => Formula::new(span, K::ForallRegion(s, kind, Box::new(body))),
                Det::No => not(
                    span.clone(),
                    Formula::new(span, K::ExistsRegion(s, kind, Box::new(body))),
                ),
                _ => Formula::new(span, K::ExistsRegion(s, kind, Box::new(body))),
            })
        }))
    }

    fn there_item(p: &mut Parser<'_, Tiles>, start: usize, _neg: bool) -> Option<R<Formula>> {
        if let Some(f) = p.every_colour(start) {
            return Some(Ok(f));
        }
        // `there is a row s such that S`.
        if matches!(p.c.word(), Some("a" | "an" | "no"))
            && let Some((kind, n)) = p.region_at(1)
            && p.c.word_at(1 + n).is_some_and(is_name)
            && p.c.word_at(2 + n) == Some("such")
        {
            let no = p.c.is_word("no");
            let name = p.c.word_at(1 + n).unwrap_or_default().to_string();
            p.c.pos += 2 + n;
            return Some(p.binding(&name, Named::Region, |p, s| {
                if !p.c.eat_words(&["such", "that"]) {
                    return Err(p.c.expected("`such that`"));
                }
                let body = p.sentence()?;
                let span = p.span_from(start);
                let some = Formula::new(span.clone(), K::ExistsRegion(s, kind, Box::new(body)));
                Ok(if no { not(span, some) } else { some })
            }));
        }
        p.region_det_at(0)?;
        Some(p.there_region(start))
    }

    fn it_subject(p: &mut Parser<'_, Tiles>, _start: usize) -> R<Formula> {
        Err(ParsePatternError::new(
            p.c.here(),
            "`it` has no tile to name here: it names a tile said before it in the statement",
        )
        .with_help("e.g. `if a tile is red, it is adjacent to a blue tile`"))
    }

    fn noun_refusal(p: &Parser<'_, Tiles>) -> Option<ParsePatternError> {
        let w = p.c.word()?;
        if region_noun(w).is_some() || w == "2x2" {
            return Some(
                p.c.expected("`tile` or `tiles`")
                    .with_help("rows, columns and 2x2 squares are places of tiles: `there is a row with two red tiles`, `every 2x2 square has a red tile`"),
            );
        }
        let mut e = p.c.expected("`tile` or `tiles`");
        if e.help.is_none() {
            e = e.with_help("statements speak of tiles: `a red tile`, `two blue tiles`");
        }
        Some(e)
    }

    fn postmodifier(p: &mut Parser<'_, Tiles>) -> R<Option<Vp<Tiles>>> {
        let start = p.start();
        // `a tile of the same colour` (as the tile the relation is said of).
        if let Some((rel, n)) = hue_at(p, 0) {
            if rel == DIFFERENT && p.c.is_words(&["of", "different"]) {
                return Err(ParsePatternError::new(
                    p.c.here().start..p.c.peek_at(2).map_or(start, |t| t.span.end),
                    "`of different colours` reads only for two tiles among themselves",
                )
                .with_help("say `two tiles of different colours`, or for one tile `a tile of a different colour`"));
            }
            p.c.pos += n;
            let span = p.span_from(start);
            return Ok(Some(Vp::Rel(
                rel,
                span.clone(),
                Box::new(Obj::Anchor(span)),
                false,
            )));
        }
        if let Some(vp) = p.place_phrase()? {
            return Ok(Some(vp));
        }
        if matches!(p.c.word(), Some("next" | "beside" | "near" | "by"))
            && (p.c.word_at(1) == Some("to") || p.c.word() != Some("next"))
            && !p.c.is_words(&["by", "side"])
        {
            return Err(p.next_to_refusal(start));
        }
        Ok(None)
    }

    fn place_start(p: &Parser<'_, Tiles>, k: usize) -> bool {
        let w = |i: usize| p.c.word_at(k + i).unwrap_or("");
        match w(0) {
            "adjacent" => w(1) == "to",
            "orthogonally" | "diagonally" => w(1) == "adjacent" && w(2) == "to",
            "in" => {
                w(1) == "a"
                    && (matches!(w(2), "higher" | "lower") && w(3) == "row"
                        || w(2) == "column" && w(3) == "further")
                    || p.named_line_at(k + 1).is_some()
            }
            "of" => w(1) == "the" && w(2) == "same" && w(3) == "colour" && w(4) == "as",
            "further" => matches!(w(1), "left" | "right") && w(2) == "than",
            _ => false,
        }
    }

    fn verb(p: &mut Parser<'_, Tiles>, mode: Mode, w: &str) -> Option<R<Vp<Tiles>>> {
        let start = p.start();
        Some(match (mode, w) {
            (Mode::Finite, "touch" | "touches") | (Mode::Participle, "touching") => {
                p.c.bump();
                p.touches(start)
            }
            (Mode::Finite, "has" | "have") => {
                p.c.bump();
                p.have_rest(start)
            }
            _ => return None,
        })
    }

    fn complement(p: &mut Parser<'_, Tiles>, start: usize) -> Option<R<Vp<Tiles>>> {
        p.complement_tiles(start)
    }

    fn complement_start(p: &Parser<'_, Tiles>, k: usize) -> bool {
        let w = |i: usize| p.c.word_at(k + i).unwrap_or("");
        matches!(
            w(0),
            "adjacent" | "orthogonally" | "diagonally" | "next" | "beside" | "near" | "neither"
        ) || w(0) == "side" && w(1) == "by"
            || w(0) == "a" && matches!(w(1), "different" | "single")
            || w(0) == "one" && w(1) == "colour"
            || w(0) == "in" && (matches!(w(1), "a" | "the") || p.named_line_at(k + 1).is_some())
            || w(0) == "at" && w(1) == "the"
    }

    fn complement_refusal(p: &Parser<'_, Tiles>, _start: usize) -> ParsePatternError {
        let w = p.c.word().unwrap_or("").to_string();
        let mut e = p.c.expected(
            "a colour (`red`, `blue`, `green`, `yellow`) or a relation (`adjacent to`, `orthogonally adjacent to`, `in the same row as`, `the same colour as`, `above`, `directly above`, `left of` ...)",
        );
        if let Some(k) = did_you_mean(&w, WORDS.iter().copied()) {
            e = e.with_help(format!("did you mean `{k}`?"));
        }
        e
    }

    fn counted_noun(p: &mut Parser<'_, Tiles>) -> Option<Counted> {
        let save = p.c.pos;
        while matches!(p.c.word(), Some("different" | "distinct" | "separate")) {
            p.c.bump();
        }
        if matches!(p.c.word(), Some("colour" | "colours")) && p.c.word_at(1) != Some("as") {
            p.c.bump();
            // `the number of different colours of s`: of a named region.
            if p.c.is_word("of")
                && let Some((s, Named::Region)) = p.named_at(1)
            {
                p.c.pos += 2;
                return Some(Counted::ColoursOf(s));
            }
            p.c.eat_word("present");
            return Some(Counted::Colours);
        }
        p.c.pos = save;
        None
    }

    fn counted_term(p: &Parser<'_, Tiles>, c: Counted, span: Span) -> Term {
        let kind = match (c, p.within) {
            (Counted::ColoursOf(s), _) | (Counted::Colours, Some(s)) => TermKind::ColoursIn(s),
            (Counted::Colours, None) => TermKind::Colours,
        };
        Term::new(span, kind)
    }

    fn counted_full(_c: Counted) -> Option<i64> {
        Some(4)
    }

    fn counted_is_kind(_c: Counted) -> bool {
        true
    }

    fn one_is_exact(w: &str) -> bool {
        w == "colour"
    }

    fn all_count(span: Span) -> Term {
        Term::new(span, TermKind::Tiles)
    }

    fn groups(_span: Span) -> Option<Term> {
        None
    }

    fn collective_term((r, neg): TileBinary, span: Span) -> Option<Term> {
        (r == Relation::SameColour && !neg).then(|| Term::new(span, TermKind::Colours))
    }

    fn anchor_refusal(at: Span) -> ParsePatternError {
        ParsePatternError::new(at, "`of the same colour` / `of a different colour` here has no tile to compare with")
            .with_help("say it of a relation's object (`every tile is adjacent to a tile of the same colour`), or count the tiles among themselves (`every row has two tiles of the same colour`, `two adjacent tiles are the same colour`)")
    }

    fn pair_count_refusal((r, _): TileBinary, at: Span) -> ParsePatternError {
        if r == Relation::SameColour {
            return Self::anchor_refusal(at);
        }
        ParsePatternError::new(
            at,
            "adjacent tiles come in pairs, which are not counted: count the tiles themselves",
        )
        .with_help("e.g. `the number of red tiles adjacent to a blue tile is odd`")
    }

    fn anchor_plural_refusal(at: Span) -> ParsePatternError {
        ParsePatternError::new(
            at,
            "ambiguous: tiles of the same colour as the subject, or as each other?",
        )
        .with_help("for the subject's colour, say `two tiles that are the same colour as it`")
    }

    fn says_something(text: &str) -> bool {
        says_something(text)
    }

    fn verdicts(text: &str) -> Option<Vec<bool>> {
        verdicts(text)
    }

    fn close_words(w: &str) -> Vec<&'static str> {
        if WORDS.contains(&w) || number_word(w).is_some() {
            return Vec::new();
        }
        did_you_mean(w, WORDS.iter().copied()).into_iter().collect()
    }
}

/// `of the same colour` / `of a different colour` / `of another colour` / `of
/// different colours` at `k` (not `... as`, `... from`): the relation and how many
/// words.
fn hue_at(p: &Parser<'_, Tiles>, k: usize) -> Option<(TileBinary, usize)> {
    let w = |i: usize| p.c.word_at(k + i);
    if w(0) != Some("of") {
        return None;
    }
    let (rel, len) = match (w(1), w(2), w(3)) {
        (Some("the"), Some("same"), Some("colour")) => (SAME, 4),
        (Some("a"), Some("different"), Some("colour")) => (DIFFERENT, 4),
        (Some("another"), Some("colour"), _) => (DIFFERENT, 3),
        (Some("different"), Some("colours"), _) => (DIFFERENT, 3),
        _ => return None,
    };
    let compared = matches!(w(len), Some("as" | "from" | "than" | "to"));
    (!compared).then_some((rel, len))
}

/// `[a | one | some | any | at least one | no] [colours] [orthogonal | diagonal]
/// neighbour(s) [of its own colour]` at token `k` (words read by `w`): how many tokens,
/// and the same object said with `adjacent to` (`orthogonally adjacent to no red tile`).
/// A number (`two neighbours`) is not read: it would be a bare count.
fn neighbour_object<'a>(w: &impl Fn(usize) -> &'a str, k: usize) -> Option<(usize, Vec<String>)> {
    let mut j = k;
    let det = match (w(j), w(j + 1), w(j + 2)) {
        ("at", "least", "one") => {
            j += 3;
            "a"
        }
        ("a" | "an" | "one" | "some" | "any", _, _) => {
            j += 1;
            "a"
        }
        ("no", _, _) => {
            j += 1;
            "no"
        }
        _ => "a",
    };
    let mut kinds = Vec::new();
    while colour(w(j)).is_some() {
        kinds.push(w(j).to_string());
        j += 1;
    }
    let relation: &[&str] = match w(j) {
        "orthogonal" => {
            j += 1;
            &["orthogonally", "adjacent", "to"]
        }
        "diagonal" => {
            j += 1;
            &["diagonally", "adjacent", "to"]
        }
        _ => &["adjacent", "to"],
    };
    let noun = match w(j) {
        "neighbour" => "tile",
        "neighbours" => "tiles",
        _ => return None,
    };
    j += 1;
    // A plural after `a` (`a red neighbours`) or a singular without a determiner is
    // not this phrase.
    let bare = j - k == kinds.len() + 1 + usize::from(relation.len() == 3);
    if bare && noun == "tile" {
        return None;
    }
    let mut out: Vec<String> = relation.iter().map(|s| s.to_string()).collect();
    out.push(det.to_string());
    out.extend(kinds);
    out.push("tile".to_string());
    let own = ["of", "its", "own", "colour"];
    let same = ["of", "the", "same", "colour"];
    if words_at(w, j, &own) || words_at(w, j, &same) {
        j += 4;
        out.extend(same.iter().map(|s| s.to_string()));
    } else if matches!(w(j), "that" | "which" | "of" | "with" | "in") {
        return None;
    }
    Some((j - k, out))
}

/// Whether the words from token `k` on (read by `w`) are `words`.
/// The two ends of the subset's one row (or column) as tiles: `the tiles at both ends
/// (of the row)`, `both ends`, `the ends`, `the two end tiles` are `the end tiles`.
fn ends<'a>(w: &impl Fn(usize) -> &'a str) -> Option<(usize, Vec<String>)> {
    let n = if words_at(w, 0, &["tiles", "at", "both", "ends"]) {
        4
    } else if words_at(w, 0, &["both", "ends"]) || words_at(w, 0, &["the", "ends"]) {
        2
    } else if words_at(w, 0, &["the", "two", "ends"]) || words_at(w, 0, &["both", "end", "tiles"]) {
        3
    } else if words_at(w, 0, &["the", "two", "end", "tiles"]) {
        4
    } else {
        return None;
    };
    let of = ["row", "column", "line", "subset"]
        .iter()
        .any(|l| words_at(w, n, &["of", "the", l]));
    let n = if of { n + 3 } else { n };
    let said: &[&str] = if w(0) == "tiles" {
        &["end", "tiles"]
    } else {
        &["the", "end", "tiles"]
    };
    Some((n, said.iter().map(|s| s.to_string()).collect()))
}

/// A colour no other tile has: `has a colour that no other tile has`, `is a colour no
/// other tile is`, `has a unique colour`, `is the only tile of its colour` are `is a
/// different colour from every other tile` (of one tile: `has`, `is`).
fn unique_colour<'a>(w: &impl Fn(usize) -> &'a str) -> Option<(usize, Vec<String>)> {
    if !matches!(w(0), "has" | "is") {
        return None;
    }
    let colour = |k: usize| matches!(w(k), "colour" | "color");
    let n = if w(1) == "a" && colour(2) {
        // `a colour (that) no other tile has (is)`.
        let that = usize::from(matches!(w(3), "that" | "which"));
        let rest = 3 + that;
        (words_at(w, rest, &["no", "other", "tile"]) && matches!(w(rest + 3), "has" | "is"))
            .then_some(rest + 4)
            .or_else(|| {
                words_at(w, rest, &["shared", "by", "no", "other", "tile"]).then_some(rest + 5)
            })?
    } else if w(1) == "a" && matches!(w(2), "unique") && colour(3) {
        4
    } else if words_at(w, 1, &["the", "only", "tile", "of", "its"]) && colour(6) {
        7
    } else {
        return None;
    };
    let said = [
        "is",
        "a",
        "different",
        "colour",
        "from",
        "every",
        "other",
        "tile",
    ];
    Some((n, said.map(String::from).to_vec()))
}

fn words_at<'a>(w: &impl Fn(usize) -> &'a str, k: usize, words: &[&str]) -> bool {
    words.iter().enumerate().all(|(j, x)| w(k + j) == *x)
}
