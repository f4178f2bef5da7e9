//! The English form of statements (docs/tiles.md): the English frame the pattern
//! language reads with (`crate::lang::english`: connectives, determiners, numbers,
//! comparatives and proportions, relative clauses, `it`, refusals) over the tiles'
//! vocabulary, which this module brings: tiles and their colours and places, the
//! relations between tiles, the regions of the board (rows, columns, 2x2 squares),
//! and the colours as things that appear.
//!
//! Choices, made as a careful host would and written down here (`docs/tiles.md`
//! says the same to players):
//!
//! - A bare number is "at least" (the seed's rule): `there are two red tiles`, `two
//!   tiles are blue`, `red appears twice`. `exactly`, `at most`, `more than`, `fewer
//!   than`, `only` say otherwise; in `the number of ... is two`, `is` means equals.
//!   `most` is more than half; `between 1 and 3` includes both ends.
//! - `the NP` reads "every NP" (`the leftmost tile is red`).
//! - `touches` is sharing an edge (`orthogonally adjacent`); `touches at a corner`
//!   is `diagonally adjacent`; `adjacent` alone is any of the 8 neighbours (the seed);
//!   `next to`, `beside` and `near` are refused (diagonals or not?).
//! - `above` / `below` are any higher / lower row, `left of` / `right of` any column
//!   further left / right (said back as `in a higher row than` ...); `directly
//!   above` is the same column, any distance.
//! - The object of a relation is never its subject. `of the same colour` after an
//!   object compares it with the tile the relation is said of (`every tile is adjacent
//!   to a tile of the same colour`); after counted tiles with nothing to compare with
//!   (`there are two tiles of the same colour`) the tiles share a colour among
//!   themselves, as `adjacent tiles` and `tiles side by side` are pairs.
//! - Rows, columns and 2x2 squares are cut down to the subset (a 2x2 square counts
//!   only when all four of its tiles are in it). `every row has ...`, `there is a row
//!   with ...`, `in every column, S`, `S in every row`, `some row is all red`; `the
//!   top row` is the row of the subset's topmost tiles. Regions are not counted (`two
//!   rows ...` is refused).
//! - Colours are things too: `each of the four colours is present`, `only two
//!   colours are used`, `red appears twice`, `no colour appears more than twice`.
//! - Three tiles `adjacent to each other` are three that hang together: one of them
//!   is adjacent to the other two. More than three is refused (a line, a ring?).

use super::ast::{
    Domain, Formula, FormulaKind as K, Place, RegionKind, Relation, Span, Statement, Term, TermKind,
};
use super::cells::{Colour, Subset};
use super::eval::Geometry;
use crate::lang::ParsePatternError;
use crate::lang::ast::{BinOp, CmpOp, Var};
use crate::lang::english::is_name;
use crate::lang::english::{
    Det, Dom, FormulaKind, Logic, Mode, Named, Num, Obj, Parser, Place as At, Policy, R, Spanned,
    TermKind as Tk, TermLogic, Vocabulary, Vp, and_opt, bin, cmp, count, int, not, polish_with,
    read_with, splice,
};
use crate::lang::lexer::{Sym, Tok, Token, lex};
use crate::lang::words::{did_you_mean, number_word};

/// Parses the English form. A refusal names the word where reading stopped; its
/// suggestions are each read before they are offered.
pub fn parse_english(text: &str) -> R<Statement> {
    match read_with::<Tiles>(text) {
        Ok(formula) => Ok(Statement {
            source: text.to_string(),
            formula,
        }),
        Err(e) => Err(polish_with::<Tiles>(outside(e, text), text)),
    }
}

/// Reads without polishing the refusal (for checking suggestions).
fn read_plain(text: &str) -> R<Formula> {
    read_with::<Tiles>(text)
}

// ---------------------------------------------------------------------------------
// The AST's nodes.

impl Spanned for Formula {
    fn span(&self) -> Span {
        self.span.clone()
    }
}

impl Spanned for Term {
    fn span(&self) -> Span {
        self.span.clone()
    }
}

impl TermLogic for Term {
    type F = Formula;
}

fn domain(d: Dom) -> Domain {
    match d {
        Dom::All => Domain::Subset,
        Dom::In(s) => Domain::In(s),
    }
}

/// A property of one tile: its colour or its place in the subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TileUnary {
    Colour(Colour),
    Place(Place),
}

/// A relation between two tiles, or its negation (`a different colour from`).
pub(crate) type TileBinary = (Relation, bool);

impl Logic for Formula {
    type Term = Term;
    type Unary = TileUnary;
    type Binary = TileBinary;
    const MODULO: bool = false;

    fn node(span: Span, kind: FormulaKind<Formula>) -> Formula {
        let kind = match kind {
            FormulaKind::Bool(b) => K::Bool(b),
            FormulaKind::Not(a) => K::Not(Box::new(a)),
            FormulaKind::Bin(op, a, b) => K::Bin(op, Box::new(a), Box::new(b)),
            FormulaKind::Forall(x, d, a) => K::Forall(x, domain(d), Box::new(a)),
            FormulaKind::Exists(x, d, a) => K::Exists(x, domain(d), Box::new(a)),
            FormulaKind::Unary(TileUnary::Colour(c), x) => K::Colour(c, x),
            FormulaKind::Unary(TileUnary::Place(p), x) => K::Place(p, x),
            FormulaKind::Binary((r, false), x, y) => K::Rel(r, x, y),
            FormulaKind::Binary((r, true), x, y) => {
                K::Not(Box::new(Formula::new(span.clone(), K::Rel(r, x, y))))
            }
            FormulaKind::Same(x, y) => K::Same(x, y),
            FormulaKind::Cmp(op, a, b) => K::Cmp(op, a, b),
            FormulaKind::Parity(p, t) => K::Parity(p, t),
        };
        Formula::new(span, kind)
    }

    fn term(span: Span, kind: Tk<Formula>) -> Term {
        let kind = match kind {
            Tk::Int(n) => TermKind::Int(n),
            Tk::Count(x, d, body) => TermKind::Count(x, domain(d), Box::new(body)),
            Tk::Add(a, b) => TermKind::Add(Box::new(a), Box::new(b)),
            Tk::Sub(a, b) => TermKind::Sub(Box::new(a), Box::new(b)),
            Tk::Mul(k, t) => TermKind::Mul(k, Box::new(t)),
            // Never asked for (`MODULO` is false): the frame refuses `a multiple of`.
            Tk::Mod(t, _) => t.kind,
        };
        Term::new(span, kind)
    }

    fn int_value(t: &Term) -> Option<i64> {
        match t.kind {
            TermKind::Int(n) => Some(n),
            _ => None,
        }
    }

    fn respan(self, span: Span) -> Formula {
        Formula::new(span, self.kind)
    }

    fn respan_term(t: Term, span: Span) -> Term {
        Term::new(span, t.kind)
    }
}

// ---------------------------------------------------------------------------------
// The words.

/// The tiles' words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tiles;

/// Things counted that are not tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Counted {
    Colours,
    /// The colours of a named region (`the number of different colours of s`).
    ColoursOf(Var),
}

fn colour(w: &str) -> Option<Colour> {
    Colour::from_name(w)
}

fn place(w: &str) -> Option<Place> {
    Some(match w {
        "topmost" | "highest" | "uppermost" => Place::Topmost,
        "bottommost" | "lowest" => Place::Bottommost,
        "leftmost" => Place::Leftmost,
        "rightmost" => Place::Rightmost,
        _ => return None,
    })
}

fn region_noun(w: &str) -> Option<RegionKind> {
    match w {
        "row" | "rows" => Some(RegionKind::Row),
        "column" | "columns" => Some(RegionKind::Column),
        "square" | "squares" => Some(RegionKind::Square),
        _ => None,
    }
}

/// `same_colour` (or its negation).
const SAME: TileBinary = (Relation::SameColour, false);
const DIFFERENT: TileBinary = (Relation::SameColour, true);

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

    fn rewordings(words: &[String]) -> Vec<String> {
        rewordings(words)
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
            "adjacent" => (Relation::Adjacent, 1),
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
                .with_help("say `two tiles of different colours`, or for one tile `a tile of a different colour`")
                .with_example("every row has two tiles of different colours"));
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
            || w(0) == "in" && matches!(w(1), "a" | "the")
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
            .with_example("every tile is adjacent to a tile of the same colour")
    }

    fn pair_count_refusal((r, _): TileBinary, at: Span) -> ParsePatternError {
        if r == Relation::SameColour {
            return Self::anchor_refusal(at);
        }
        ParsePatternError::new(
            at,
            "adjacent tiles come in pairs, which are not counted: count the tiles themselves",
        )
        .with_example("the number of red tiles adjacent to a blue tile is odd")
    }

    fn anchor_plural_refusal(at: Span) -> ParsePatternError {
        ParsePatternError::new(
            at,
            "ambiguous: tiles of the same colour as the subject, or as each other?",
        )
        .with_help("for the subject's colour, say `two tiles that are the same colour as it`")
        .with_example("every tile is adjacent to two tiles that are the same colour as it")
    }

    fn says_something(text: &str) -> bool {
        says_something(text)
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

// ---------------------------------------------------------------------------------
// Regions, colours and the tiles' own phrases.

impl Parser<'_, Tiles> {
    /// A determiner and a region noun `k` words ahead: the determiner's words, the
    /// region and its words (`every row`, `some 2x2 square`, `no columns`).
    fn region_det_at(&self, k: usize) -> Option<(usize, RegionKind, usize)> {
        let w = |i: usize| self.c.word_at(k + i);
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

    /// A region noun at `k`: `row(s)`, `column(s)`, `(2x2) square(s)`, and its words.
    fn region_at(&self, k: usize) -> Option<(RegionKind, usize)> {
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
        let det = match first.as_str() {
            "every" | "each" | "all" | "any" => RegionDet::Every,
            "some" | "a" | "an" | "one" => RegionDet::Some,
            "no" => RegionDet::No,
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
                .with_example(format!("there is a {noun} with two red tiles")));
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
    fn region_sentence(&mut self, start: usize) -> R<Formula> {
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
    fn there_region(&mut self, start: usize) -> R<Formula> {
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
            .with_example(format!("every {} has a red tile", kind.noun())));
        }
        self.in_region(kind, det, span, |p, _| {
            let at = p.start();
            p.existential(at, false)
        })
        .map(|f| f.respan(self.span_from(start)))
    }

    /// `in every row, S` / `in each column S`: S of the tiles of every region.
    fn region_first(&mut self, start: usize) -> R<Formula> {
        self.c.bump();
        let (det, kind, span) = self.region_det()?;
        self.c.eat_sym(Sym::Comma);
        self.in_region(kind, det, span, |p, _| p.if_then())
            .map(|f| f.respan(self.span_from(start)))
    }

    /// `S in every row` (S an atomic sentence, the region phrase ending its clause):
    /// S of the tiles of every region. `None` when the clause ends otherwise.
    fn closing_region(&mut self, start: usize) -> Option<R<Formula>> {
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
    fn touches(&mut self, start: usize) -> R<Vp<Tiles>> {
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
    fn have_rest(&mut self, start: usize) -> R<Vp<Tiles>> {
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
    fn place_phrase(&mut self) -> R<Option<Vp<Tiles>>> {
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
        let Some((ws, p)) = phrases.iter().find(|(ws, _)| self.c.is_words(ws)) else {
            return Ok(None);
        };
        self.c.pos += ws.len();
        Ok(Some(Vp::Unary(TileUnary::Place(*p), self.span_from(start))))
    }

    /// The tiles' own complements of `is`.
    fn complement_tiles(&mut self, start: usize) -> Option<R<Vp<Tiles>>> {
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
    fn next_to_refusal(&self, start: usize) -> ParsePatternError {
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
    }

    // -----------------------------------------------------------------------------
    // Colours as things.

    /// `red appears twice`, `red and blue both appear`, `blue does not appear`,
    /// `red appears more often than blue`, `every colour appears at most twice`,
    /// `some colour appears three times`. `None` when the words are no such sentence.
    fn colour_sentence(&mut self, start: usize) -> Option<R<Formula>> {
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
    fn every_colour(&mut self, start: usize) -> Option<Formula> {
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

/// How the regions of a region phrase are taken.
#[derive(Clone, Copy, Debug)]
enum RegionDet {
    Every,
    Some,
    No,
    /// `the top row`: the region whose tiles have this place.
    The(Place),
}

/// How often a colour appears.
enum Freq {
    Count(Num),
    /// `more often than blue`.
    Than(CmpOp, Colour, Span),
    /// `more often than any other colour`.
    AnyOther(CmpOp, Span),
}

// ---------------------------------------------------------------------------------
// Refusals: what reaches outside the subset, suggestions checked on subsets, the
// frame's messages in the tiles' words.

/// A refusal at words that reach outside the subset (`on the grid`, a tile named by
/// its coordinates) says so: statements speak of their subset's tiles only, and
/// coordinates are not part of the grid (the seed's rules 1 and 3).
fn outside(e: ParsePatternError, text: &str) -> ParsePatternError {
    let Ok(lexed) = lex(text) else {
        return e;
    };
    let toks = &lexed.tokens;
    let words: Vec<Option<&str>> = toks.iter().map(Token::word).collect();
    for (at, w) in words.iter().enumerate() {
        let word = |k: usize| words.get(at + k).copied().flatten();
        let place = matches!(w, Some("on" | "in" | "of" | "across"))
            && matches!(word(1), Some("the" | "this" | "whole"))
            && matches!(word(2), Some("grid" | "board"));
        if place {
            let span = toks[at].span.start..toks[at + 2].span.end;
            let kept: Vec<String> = toks
                .iter()
                .enumerate()
                .filter(|(i, _)| !(at..at + 3).contains(i))
                .filter_map(|(_, t)| match &t.tok {
                    Tok::Word(w) => Some(w.clone()),
                    Tok::Int(n) => Some(n.to_string()),
                    Tok::Sym(_) => None,
                })
                .collect();
            return ParsePatternError::new(
                span,
                "a statement speaks only of the tiles of its own subset, not of the whole grid",
            )
            .with_example(kept.join(" "));
        }
        if w.is_some_and(|w| w.parse::<super::cells::Cell>().is_ok())
            && toks[at].span.start <= e.span.start
        {
            let span = toks[at].span.clone();
            return ParsePatternError::new(span.clone(), "tiles are not named by their coordinates: a statement speaks of its subset's tiles by colour, place and relation")
                .with_help("for one tile, use its place: `the leftmost tile is red`, but every tile of the subset must count")
                .with_example(splice(text, &span, "the leftmost tile in the top row"))
                .with_example(splice(text, &span, "every tile in the top row"));
        }
        // `red is the most common colour`, `more red tiles than any other colour`.
        let most = matches!(w, Some("most"))
            && matches!(word(1), Some("common" | "frequent" | "usual" | "popular"));
        let than_any = matches!(w, Some("than"))
            && matches!(word(1), Some("any" | "every" | "each" | "all"))
            && matches!(word(2), Some("other"))
            && !words[..at].contains(&Some("often"));
        if most || than_any {
            let hue = words
                .iter()
                .flatten()
                .find_map(|w| colour(w))
                .unwrap_or(Colour::Red)
                .name();
            let span = toks[at].span.start..toks[at + 1].span.end;
            let message = if most {
                "`the most common` leaves a tie open: say `appears more often than any other colour` (no tie) or `at least as often as`"
            } else {
                "a colour is compared with every other colour as `appears more often than any other colour`"
            };
            return ParsePatternError::new(span, message)
                .with_example(format!("{hue} appears more often than any other colour"))
                .with_example(format!("no colour appears more often than {hue}"));
        }
    }
    e
}

/// Subsets that tell a statement from a constant: a 2x2 square, a line, an L, a 2x4
/// block (with 2x2 squares, rows and columns of every length).
fn sample_subsets() -> &'static [Subset] {
    static SAMPLES: std::sync::OnceLock<Vec<Subset>> = std::sync::OnceLock::new();
    SAMPLES.get_or_init(|| {
        [
            "A1-A2-B1-B2",
            "A1-A2-A3-A4",
            "A1-B1-C1-C2",
            "B1-B2-B3-B4-C1-C2-C3-C4",
            "A1-A2-A3-B2-B3-C3",
        ]
        .iter()
        .filter_map(|s| s.parse().ok())
        .collect()
    })
}

/// Whether a suggested statement reads and can be both true and false on some
/// subset (it says something a player could mean).
fn says_something(text: &str) -> bool {
    let Ok(f) = read_plain(text) else {
        return false;
    };
    sample_subsets().iter().any(|s| {
        Geometry::new(s)
            .truth_table(&f)
            .is_some_and(|t| !t.always() && !t.never())
    })
}

/// Statements in the colours and relations a refused text names (red and blue when it
/// names none), for the refusal to offer the closest of.
fn rewordings(words: &[String]) -> Vec<String> {
    let mut hues: Vec<&str> = Vec::new();
    for w in words {
        if let Some(c) = colour(w).map(Colour::name)
            && !hues.contains(&c)
        {
            hues.push(c);
        }
    }
    for c in ["red", "blue"] {
        if !hues.contains(&c) {
            hues.push(c);
        }
    }
    let (a, b) = (hues[0], hues[1]);
    let has = |ws: &[&str]| ws.iter().any(|w| words.iter().any(|x| x == w));
    let mut relations: Vec<&str> = Vec::new();
    if has(&["above", "top", "over", "on", "up", "higher"]) {
        relations.extend(["directly above", "in a higher row than"]);
    }
    if has(&["below", "under", "beneath", "bottom", "down", "lower"]) {
        relations.extend(["directly below", "in a lower row than"]);
    }
    if has(&["left"]) {
        relations.extend(["directly left of", "further left than"]);
    }
    if has(&["right"]) {
        relations.extend(["directly right of", "further right than"]);
    }
    if has(&["row", "rows", "line"]) {
        relations.push("in the same row as");
    }
    if has(&["column", "columns"]) {
        relations.push("in the same column as");
    }
    if has(&["diagonal", "diagonally", "corner"]) {
        relations.push("diagonally adjacent to");
    }
    relations.push("adjacent to");
    let mut out = Vec::new();
    for r in &relations {
        out.push(format!("every {a} tile is {r} another {a} tile"));
        out.push(format!("there is a {a} tile {r} a {b} tile"));
        out.push(format!("every {a} tile is {r} a {b} tile"));
    }
    out.extend([
        format!("there is a {a} tile"),
        format!("every tile is {a}"),
        format!("there are exactly two {a} tiles"),
        format!("there are more {a} tiles than {b} tiles"),
        format!("{a} appears more often than any other colour"),
        format!("the number of {a} tiles is odd"),
        format!("there is a row with two {a} tiles"),
        format!("every row has a {a} tile"),
        format!("the top row is all {a}"),
        format!("the leftmost tile in the top row is {a}"),
        "no two adjacent tiles are the same colour".into(),
        "there are two adjacent tiles of the same colour".into(),
        "there are exactly three colours".into(),
    ]);
    out
}

/// The frame's messages (written for pieces) in the tiles' words.
fn say(text: &str) -> String {
    const PHRASES: &[(&str, &str)] = &[
        (
            "e.g. `every piece touches another piece`, `no two pieces touch`, `the pieces are connected`",
            "e.g. `every red tile is adjacent to another red tile`, `no two red tiles are adjacent`",
        ),
        ("`every piece points up`", "`every tile is red`"),
        (
            "`there are exactly three pieces`",
            "`there are exactly three tiles`",
        ),
        (
            "`the number of small pieces is odd`",
            "`the number of red tiles is odd`",
        ),
        ("`points up`", "`is red`"),
        ("`touches a small piece`", "`is adjacent to a blue tile`"),
        ("`is large`", "`is red`"),
        (
            "`a small piece touches a large piece`",
            "`a red tile touches a blue tile`",
        ),
        (
            "`there is a small piece and every large piece points up`",
            "`there is a red tile and every blue tile is adjacent to a green tile`",
        ),
        (
            "`two small pieces never touch`",
            "`two red tiles never touch`",
        ),
        (
            "`small pieces outnumber large pieces`",
            "`red tiles outnumber blue tiles`",
        ),
        (
            "`does not touch any large piece`",
            "`is not adjacent to any red tile`",
        ),
        (
            "`every piece touches another piece`",
            "`every tile touches another tile`",
        ),
        (
            "`the pieces are connected`",
            "`no two adjacent tiles are the same colour`",
        ),
        (
            "`exactly two groups`, `at least ten pips`",
            "`exactly two colours`, `at least three colours`",
        ),
        (
            "`exactly two groups`, `at least two different sizes`",
            "`exactly two colours`, `at least three colours`",
        ),
        (
            "`the number of small pieces`, `the total pips`, `the width` or `the number of groups`",
            "`the number of red tiles` or `the number of different colours`",
        ),
        ("`has a small piece above it`", "`has a blue tile above it`"),
        ("`a large piece`", "`a red tile`"),
        ("`non-small`", "`non-red`"),
        ("groups, sizes, directions and pips", "colours"),
        (
            "`there are exactly two groups`, `all three sizes are present`",
            "`there are exactly two colours`, `all four colours are present`",
        ),
        (
            "(`if a piece points up, it ...`), or the structure (`it has two groups`)",
            "(`if a tile is red, it ...`)",
        ),
    ];
    let mut out = text.to_string();
    for (from, to) in PHRASES {
        out = out.replace(from, to);
    }
    const WORDS_SAID: &[(&str, &str)] = &[
        ("pieces", "tiles"),
        ("piece", "tile"),
        ("pattern", "statement"),
        ("structure", "subset"),
    ];
    for (from, to) in WORDS_SAID {
        out = out.replace(from, to);
    }
    out
}

/// Every word the tiles' vocabulary knows, for "did you mean".
const WORDS: &[&str] = &[
    "a",
    "above",
    "adjacent",
    "all",
    "alone",
    "an",
    "and",
    "another",
    "any",
    "appear",
    "appears",
    "are",
    "as",
    "at",
    "be",
    "below",
    "between",
    "blue",
    "both",
    "bottom",
    "bottommost",
    "but",
    "by",
    "case",
    "colour",
    "colours",
    "column",
    "columns",
    "combined",
    "contain",
    "contains",
    "corner",
    "count",
    "diagonally",
    "different",
    "directly",
    "do",
    "does",
    "each",
    "either",
    "equal",
    "equals",
    "even",
    "every",
    "exactly",
    "exist",
    "exists",
    "fewer",
    "for",
    "from",
    "green",
    "half",
    "has",
    "have",
    "higher",
    "if",
    "iff",
    "in",
    "is",
    "it",
    "itself",
    "least",
    "left",
    "leftmost",
    "less",
    "lower",
    "many",
    "more",
    "most",
    "neither",
    "no",
    "none",
    "nor",
    "not",
    "number",
    "odd",
    "of",
    "often",
    "once",
    "one",
    "only",
    "or",
    "orthogonally",
    "other",
    "outnumber",
    "outnumbers",
    "plus",
    "present",
    "red",
    "right",
    "rightmost",
    "row",
    "rows",
    "same",
    "side",
    "some",
    "square",
    "squares",
    "such",
    "than",
    "that",
    "the",
    "them",
    "then",
    "there",
    "these",
    "they",
    "those",
    "thrice",
    "tile",
    "tiles",
    "times",
    "to",
    "together",
    "top",
    "topmost",
    "touch",
    "touches",
    "twice",
    "unless",
    "used",
    "which",
    "whole",
    "with",
    "yellow",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frames_messages_are_said_in_tiles() {
        assert_eq!(say("`every piece points up`"), "`every tile is red`");
        assert_eq!(
            say("which pieces, and how many?"),
            "which tiles, and how many?"
        );
    }
}
