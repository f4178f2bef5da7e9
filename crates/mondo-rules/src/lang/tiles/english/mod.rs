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
//!   rows ...` is refused). Two edges compared (`the top row has more red tiles than
//!   the bottom row`), `at least one of the two columns`, `a column whose two tiles`
//!   and `both tiles in some row` are read as words above (`lines.rs`).
//! - Colours are things too: `each of the four colours is present`, `only two
//!   colours are used`, `red appears twice`, `no colour appears more than twice`.
//! - Three tiles `adjacent to each other` are three that hang together: one of them
//!   is adjacent to the other two. More than three is refused (a line, a ring?).

mod colours;
mod lines;
mod regions;
mod vocab;
mod whole;

/// What the statement says of its subset that the subset is not (`the four tiles` of
/// six, `the two columns` of three), one reason each.
pub(crate) fn mismatches(source: &str, subset: &super::cells::Subset) -> Vec<String> {
    let mut out = whole::mismatches(source, subset);
    out.extend(lines::mismatches(source, subset));
    out
}

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

/// What two tiles named together may be, as a pair (`A1 and D1 are the same colour`,
/// `a red tile and a blue tile are adjacent`).
pub(super) const RELATED: &[&[&str]] = &[
    &["the", "same", "colour"],
    &["different", "colours"],
    &["in", "the", "same", "row"],
    &["in", "the", "same", "column"],
    &["adjacent"],
    &["orthogonally", "adjacent"],
    &["diagonally", "adjacent"],
];
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

/// Reads the English form as said of `subset`: a refusal for words with several
/// readings (`next to`: diagonals or not?, `either ... or`: inclusive or exclusive?)
/// stands only where the readings differ on the subset. Where they all mean the same
/// (checked on every colouring), the words are clear: `next to` on a subset in one
/// row, `either ... or` whose parts cannot both hold there. Every reading then, or the
/// refusal.
pub(super) fn readings_on(text: &str, subset: &Subset) -> R<Vec<Formula>> {
    let e = match read_with::<Tiles>(text) {
        Ok(formula) => return Ok(vec![formula]),
        Err(e) => e,
    };
    agreed(&e, subset).ok_or_else(|| polish_with::<Tiles>(outside(e, text), text))
}

/// The readings of a refusal, if they all mean the same on `subset`.
fn agreed(e: &ParsePatternError, subset: &Subset) -> Option<Vec<Formula>> {
    if !e.readings || e.examples.len() < 2 || subset.len() > super::eval::MAX_CHECKED {
        return None;
    }
    let g = Geometry::new(subset);
    let readings: Vec<Formula> = e
        .examples
        .iter()
        .map(|x| read_plain(x).ok())
        .collect::<Option<_>>()?;
    let table = g.truth_table(&readings[0])?;
    for r in &readings[1..] {
        if g.truth_table(r)? != table {
            return None;
        }
    }
    Some(readings)
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
        // `the end tiles`: the two ends of a subset in one row (or column).
        "end" => Place::End,
        // A tile named by its coordinates (`the c4 tile`, as the frame says `C4`).
        _ => Place::At(cell_name(w)?),
    })
}

/// The tile a word names by its coordinates (`C4`, `c4`), if it is one.
fn cell_name(w: &str) -> Option<super::cells::Cell> {
    let b = w.as_bytes();
    (b.len() == 2 && b[0].is_ascii_alphabetic() && b[1].is_ascii_digit())
        .then(|| w.parse().ok())
        .flatten()
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

/// The truth of a statement under every colouring of each sample subset, one after
/// the other; `None` when it does not read (or is too large to tabulate).
fn verdicts(text: &str) -> Option<Vec<bool>> {
    let f = read_plain(text).ok()?;
    let mut out = Vec::new();
    for s in sample_subsets() {
        let t = Geometry::new(s).truth_table(&f)?;
        out.extend((0..t.len()).map(|k| t.get(k)));
    }
    Some(out)
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
