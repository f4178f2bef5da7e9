//! The statement language of Logical Bluffs (docs/tiles.md): the pattern
//! language's engine with a second vocabulary. Tiles of a 4 x 4 board, their colours,
//! places and relations, and regions (rows, columns, 2x2 squares) stand where Zendo
//! has pieces; the lexer, cursor, number words, connectives, comparisons, spans and
//! error rendering (with "did you mean" and corrected examples) are the pattern
//! language's own (`crate::lang`). One difference the seed states: a bare number
//! means "at least".
//!
//! - Board notation: [`cells`] ([`Cell`], [`Colour`], [`Layout`], [`Subset`]).
//! - Reading: [`parse`] (either form), [`parse_english`], [`parse_symbolic`] into
//!   one AST ([`ast`]); errors are the pattern language's [`ParsePatternError`].
//! - Saying back: [`english`] (canonical), [`symbolic`].
//! - Meaning: [`eval::Geometry`] evaluates under a colouring of a subset.
//! - The umpire's checks: [`check`] (words, regions, always true/false,
//!   involvement by enumeration) and [`truth`].

pub mod ast;
pub mod cells;
mod check;
mod english;
pub mod eval;
mod geometry;
mod print;
mod say;
mod symbolic;
pub mod table;
#[cfg(test)]
mod tests;
mod words;

pub use ast::Statement;
pub use cells::{Cell, Colour, Layout, NotationError, Subset};
pub use check::{MAX_WORDS, TooLarge, Verdict, check, form_reasons, truth};
pub use english::parse_english;
pub use print::symbolic;
pub use say::{english, english_words};
pub use symbolic::parse_symbolic;
pub use words::vocabulary_text;

use crate::lang::ParsePatternError;

/// The statements the speed figures check on an 8-tile subset (`mondo bench
/// bluffs`, `benches/bluffs.rs`): the seed's, two about neighbours' colours, and
/// two nested three deep (every assignment of three tile variables).
pub const BENCH_STATEMENTS: [&str; 7] = [
    "There are two red tiles.",
    "There is a blue tile orthogonally adjacent to a green tile.",
    "There is a 2x2 square with one red tile.",
    "no two adjacent tiles are the same colour",
    "every red tile is adjacent to two tiles that are blue or green",
    "there is a red tile adjacent to a blue tile that is adjacent to a green tile",
    "forall x y. count(z: same_colour(x, z) & same_colour(y, z)) >= 2",
];

/// Reads a statement in either form. The English reading is tried first; text that
/// looks symbolic (a call `name(`, a quantifier, an operator) gets the symbolic
/// reader's error when neither reads.
pub fn parse(text: &str) -> Result<Statement, ParsePatternError> {
    or_symbolic(text, parse_english(text))
}

/// The English reading, or else the symbolic one.
fn or_symbolic(
    text: &str,
    english: Result<Statement, ParsePatternError>,
) -> Result<Statement, ParsePatternError> {
    let english = match english {
        Ok(s) => return Ok(s),
        Err(e) => e,
    };
    match parse_symbolic(text) {
        Ok(s) => Ok(s),
        Err(symbolic) if looks_symbolic(text) => Err(symbolic),
        Err(_) => Err(english),
    }
}

/// Reads the English form as said of `subset` (what the umpire reads): an ambiguous
/// phrase whose readings all mean the same on the subset (`next to` on a subset in one
/// row) reads, as the reading said in the fewest words.
pub fn parse_english_on(text: &str, subset: &Subset) -> Result<Statement, ParsePatternError> {
    let readings = english::readings_on(text, subset)?;
    let formula = readings
        .into_iter()
        .min_by_key(say::english_words)
        .ok_or_else(|| ParsePatternError::new(0..0, "no reading"))?;
    Ok(Statement {
        source: text.to_string(),
        formula,
    })
}

/// Reads a statement in either form, as said of `subset` (what the umpire reads):
/// an ambiguous phrase whose readings all mean the same on the subset reads
/// ([`parse_english_on`]).
pub fn parse_on(text: &str, subset: &Subset) -> Result<Statement, ParsePatternError> {
    or_symbolic(text, parse_english_on(text, subset))
}

fn looks_symbolic(text: &str) -> bool {
    let t = text.trim_start().to_lowercase();
    t.starts_with("exists")
        || t.starts_with("forall")
        || t.starts_with('!')
        || text.contains('(')
        || text.contains('&')
        || text.contains('|')
        || text.contains("->")
}
