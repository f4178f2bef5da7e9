//! The text notation of structures (docs/notation.md): lenient parsing,
//! canonical printing.
//!
//! Two notations, one per piece set:
//!
//! - pyramids: two characters per cell, a size `1 2 3` then a direction `^ > v <` (or
//!   `U R D L`, any case), `..` for an empty cell, cells separated by whitespace:
//!   `3> .. .. 2^ .. 3v / .. 1< 1<`;
//! - arrows: one character per cell, `U R D L` (any case) or `^ > v <`, `.` for an empty
//!   cell; whitespace inside a row is ignored: `.U. / L.R / .D.`.
//!
//! Rows are separated by newlines, `/` or `|`. Blank rows are ignored everywhere (an
//! empty row inside a structure is written `..` or `.`), rows may be ragged, and empty
//! margins vanish because structures are translation-invariant. One surrounding code
//! fence (```` ``` ````, with or without a language tag such as ```` ```text ````) or
//! inline-code backticks are stripped.
//!
//! [`Koan`]'s `FromStr` detects the notation: text with a digit anywhere in it is
//! pyramids notation (sizes are digits), text with an arrow and no digit is arrows
//! notation. Text that mixes the two is refused, naming a cell of each.
//! [`Koan::parse_as`] reads for a known piece set and refuses the other set's notation.
//!
//! # How errors count rows and cells
//!
//! Errors name the row and cell as the player typed them, both counted from 1. Row 1 is
//! the first row that is not blank (code fences aside); from there on every row counts,
//! blank ones included: each newline, `/` or `|` starts the next row. In pyramids
//! notation the cells of a row are its whitespace-separated words; in arrows notation
//! they are its non-blank characters. The message also quotes what was found, so the
//! place is unambiguous.

use super::piece::{Direction, Piece, PieceSet, Size};
use super::structure::{Koan, KoanError, Pos};
use std::fmt;
use std::str::FromStr;

/// A place in the typed text: row and cell counted from 1 as typed (see the module
/// docs), and the cell's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellRef {
    pub row: usize,
    pub cell: usize,
    pub text: String,
}

impl CellRef {
    fn new(row: &Row<'_>, cell: usize, text: impl Into<String>) -> CellRef {
        CellRef {
            row: row.number,
            cell: cell + 1,
            text: text.into(),
        }
    }
}

impl fmt::Display for CellRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, cell {}", self.row, self.cell)
    }
}

/// Why a text is not a structure. Syntax errors name the place; structural ones (empty,
/// too large) come from [`KoanError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseKoanError {
    /// A pyramids cell that is not two characters (`3>>`, `3`, `3>1<`).
    #[error(
        "{at}: `{}` is not a cell; a cell is a size 1, 2 or 3 then a direction ^ > v < \
         (or U R D L), or .. when empty, and cells are separated by spaces",
        .at.text
    )]
    NotACell { at: CellRef },
    /// A pyramids cell whose first character is not a size.
    #[error("{at}: `{}` has size `{size}`; sizes are 1, 2 or 3", .at.text)]
    BadSize { at: CellRef, size: char },
    /// A pyramids cell whose second character is not a direction.
    #[error("{at}: `{}` has direction `{direction}`; directions are ^ > v < (or U R D L)", .at.text)]
    BadDirection { at: CellRef, direction: char },
    /// A pyramids cell written direction first (`^3`).
    #[error("{at}: `{}` puts the direction first; write the size first, as in `{fixed}`", .at.text)]
    DirectionFirst { at: CellRef, fixed: String },
    /// An arrows cell that is not an arrow or `.`.
    #[error(
        "{at}: `{}` is not an arrow; arrows are U R D L (or ^ > v <), and . is an empty cell",
        .at.text
    )]
    BadArrow { at: CellRef },
    /// Pyramids cells and arrows cells in one text.
    #[error(
        "mixed notations: `{}` ({pyramid}) is pyramids notation but `{}` ({arrow}) is \
         arrows notation; write every cell in one notation",
        .pyramid.text, .arrow.text
    )]
    MixedNotations { pyramid: CellRef, arrow: CellRef },
    /// The text is written in the notation of the other piece set.
    #[error("`{}` ({at}) is {} notation, but this game plays with {set}; {}",
        .at.text, other_set(.set), how_to_write(.set))]
    WrongSet { set: PieceSet, at: CellRef },
    /// The cells read fine but do not make a valid structure (empty, too large).
    #[error(transparent)]
    Structure(#[from] KoanError),
}

/// One line of advice on writing a cell of the set.
fn how_to_write(set: &PieceSet) -> &'static str {
    match set {
        PieceSet::Pyramids => {
            "write each cell as a size 1, 2 or 3 then a direction, such as `3^` or `1U`, \
             and .. for an empty cell"
        }
        PieceSet::Arrows => {
            "write one character per cell, U R D L (or ^ > v <), and . for an empty cell"
        }
    }
}

fn other_set(set: &PieceSet) -> PieceSet {
    match set {
        PieceSet::Pyramids => PieceSet::Arrows,
        PieceSet::Arrows => PieceSet::Pyramids,
    }
}

impl FromStr for Koan {
    type Err = ParseKoanError;

    /// Reads either notation, detected from the text (see the module docs).
    fn from_str(text: &str) -> Result<Koan, ParseKoanError> {
        let text = strip_fences(text);
        match detect(text) {
            Some((set, evidence)) => read(text, set, Some(&evidence)),
            // Only dots: empty in arrows notation, so say that rather than "not a cell".
            None if text
                .chars()
                .all(|c| c == '.' || is_row_separator(c) || c.is_whitespace()) =>
            {
                read(text, PieceSet::Arrows, None)
            }
            None => read(text, PieceSet::Pyramids, None),
        }
    }
}

impl Koan {
    /// Reads a structure for a game played with `set`, refusing the other set's notation.
    pub fn parse_as(text: &str, set: PieceSet) -> Result<Koan, ParseKoanError> {
        let text = strip_fences(text);
        match detect(text) {
            Some((found, at)) if found != set => Err(ParseKoanError::WrongSet { set, at }),
            evidence => read(text, set, evidence.as_ref().map(|(_, at)| at)),
        }
    }

    /// The canonical form on one line, rows separated by ` / ` (for slash-command
    /// options and one-line logs). It parses back to the same structure.
    pub fn to_line(&self) -> String {
        let mut out = String::new();
        self.write_rows(&mut out, " / ")
            .expect("writing to a String cannot fail");
        out
    }

    fn write_rows(&self, out: &mut impl fmt::Write, row_separator: &str) -> fmt::Result {
        for row in 0..self.height() {
            if row > 0 {
                out.write_str(row_separator)?;
            }
            for col in 0..self.width() {
                if col > 0 {
                    out.write_char(' ')?;
                }
                let piece = self.get(Pos::new(row, col));
                match (self.set(), piece) {
                    (PieceSet::Pyramids, Some(p)) => {
                        out.write_char(char::from(b'0' + p.pips()))?;
                        out.write_char(p.dir.symbol())?;
                    }
                    (PieceSet::Pyramids, None) => out.write_str("..")?,
                    (PieceSet::Arrows, Some(p)) => out.write_char(p.dir.letter())?,
                    (PieceSet::Arrows, None) => out.write_char('.')?,
                }
            }
        }
        Ok(())
    }
}

/// Canonical form: normalised, every row padded to the bounding-box width, single spaces
/// between cells, rows separated by newlines (no trailing newline).
impl fmt::Display for Koan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_rows(f, "\n")
    }
}

/// One row as typed; `number` counts from 1 (see the module docs).
struct Row<'a> {
    number: usize,
    text: &'a str,
}

impl Row<'_> {
    fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }

    /// The cells of a pyramids row: its whitespace-separated words.
    fn words(&self) -> impl Iterator<Item = (usize, &str)> {
        self.text.split_whitespace().enumerate()
    }

    /// The cells of an arrows row: its non-blank characters.
    fn chars(&self) -> impl Iterator<Item = (usize, char)> {
        self.text.chars().filter(|c| !c.is_whitespace()).enumerate()
    }
}

fn is_row_separator(c: char) -> bool {
    matches!(c, '\n' | '/' | '|')
}

fn rows(text: &str) -> impl Iterator<Item = Row<'_>> {
    text.split(is_row_separator)
        .skip_while(|row| row.trim().is_empty())
        .enumerate()
        .map(|(i, text)| Row {
            number: i + 1,
            text,
        })
}

/// Removes one surrounding code fence or pair of inline-code backticks.
///
/// The opening fence may carry a language tag (```` ```text ````): the rest of the
/// fence's line is dropped when it is one word with a character that no cell uses;
/// otherwise it is read as the first row, so nothing that could be cells is dropped.
fn strip_fences(text: &str) -> &str {
    let mut body = text.trim_start();
    if body.starts_with("```") {
        body = body.trim_start_matches('`');
        if let Some((first, rest)) = body.split_once('\n') {
            let first = first.trim();
            let is_tag = !first.contains(char::is_whitespace)
                && first.chars().any(|c| !is_cell_char(c) && c != '`');
            if first.is_empty() || is_tag {
                body = rest;
            }
        }
    } else {
        body = body.trim_start_matches('`');
    }
    body.trim_end().trim_end_matches('`').trim_end()
}

/// Characters that may appear in a cell of either notation (digits included, so a bad
/// size is reported rather than taken for a language tag).
fn is_cell_char(c: char) -> bool {
    c.is_ascii_digit() || c == '.' || direction(c).is_some()
}

fn direction(c: char) -> Option<Direction> {
    match c {
        '^' | 'U' | 'u' => Some(Direction::Up),
        '>' | 'R' | 'r' => Some(Direction::Right),
        'v' | 'V' | 'D' | 'd' => Some(Direction::Down),
        '<' | 'L' | 'l' => Some(Direction::Left),
        _ => None,
    }
}

/// The notation the text is written in and the first cell showing it: pyramids when any
/// cell holds a digit, else arrows when any cell holds a direction, else unknown.
fn detect(text: &str) -> Option<(PieceSet, CellRef)> {
    let pyramid = rows(text).find_map(|row| {
        row.words()
            .find(|(_, word)| word.chars().any(|c| c.is_ascii_digit()))
            .map(|(i, word)| CellRef::new(&row, i, word))
    });
    if let Some(at) = pyramid {
        return Some((PieceSet::Pyramids, at));
    }
    rows(text).find_map(|row| {
        row.chars()
            .find(|&(_, c)| direction(c).is_some())
            .map(|(i, c)| (PieceSet::Arrows, CellRef::new(&row, i, c)))
    })
}

/// Reads the (fence-stripped) text in the notation of `set`. `pyramid_evidence` is the
/// first cell holding a digit, for the mixed-notations message.
fn read(
    text: &str,
    set: PieceSet,
    pyramid_evidence: Option<&CellRef>,
) -> Result<Koan, ParseKoanError> {
    let mut placed = Vec::new();
    // The structure's row: blank rows do not advance it.
    let mut y: i32 = 0;
    for row in rows(text).filter(|r| !r.is_blank()) {
        match set {
            PieceSet::Pyramids => {
                for (i, word) in row.words() {
                    let at = || CellRef::new(&row, i, word);
                    if let Some(piece) = pyramid_cell(word, at, pyramid_evidence)? {
                        placed.push((y, coordinate(i), piece));
                    }
                }
            }
            PieceSet::Arrows => {
                for (i, c) in row.chars() {
                    match direction(c) {
                        Some(dir) => placed.push((y, coordinate(i), Piece::arrow(dir))),
                        None if c == '.' => {}
                        None => {
                            let at = CellRef::new(&row, i, c);
                            return Err(ParseKoanError::BadArrow { at });
                        }
                    }
                }
            }
        }
        y = y.saturating_add(1);
    }
    Ok(Koan::new(set, placed)?)
}

/// A column index as a coordinate. Only absurdly long rows saturate, and those are far
/// wider than 6 cells anyway, so the bounding-box check still refuses them.
fn coordinate(i: usize) -> i32 {
    i32::try_from(i).unwrap_or(i32::MAX)
}

/// Reads one pyramids cell: `Ok(None)` for an empty cell.
fn pyramid_cell(
    word: &str,
    at: impl Fn() -> CellRef,
    pyramid_evidence: Option<&CellRef>,
) -> Result<Option<Piece>, ParseKoanError> {
    if word == ".." {
        return Ok(None);
    }
    let looks_like_arrows = word.chars().all(|c| c == '.' || direction(c).is_some())
        && word.chars().any(|c| direction(c).is_some());
    if let (true, Some(pyramid)) = (looks_like_arrows, pyramid_evidence) {
        return Err(ParseKoanError::MixedNotations {
            pyramid: pyramid.clone(),
            arrow: at(),
        });
    }
    let mut chars = word.chars();
    let (Some(first), Some(second), None) = (chars.next(), chars.next(), chars.next()) else {
        return Err(ParseKoanError::NotACell { at: at() });
    };
    let size = first.to_digit(10).and_then(|d| Size::from_pips(d as u8));
    match (size, direction(second)) {
        (Some(size), Some(dir)) => Ok(Some(Piece::new(size, dir))),
        (Some(_), None) => Err(ParseKoanError::BadDirection {
            at: at(),
            direction: second,
        }),
        (None, _) if direction(first).is_some() && matches!(second, '1'..='3') => {
            Err(ParseKoanError::DirectionFirst {
                at: at(),
                fixed: format!("{second}{first}"),
            })
        }
        (None, _) => Err(ParseKoanError::BadSize {
            at: at(),
            size: first,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_and_tags_are_stripped_but_cells_are_kept() {
        assert_eq!(strip_fences("```\n3>\n```"), "3>");
        assert_eq!(strip_fences("  ```text\n3>\n```  \n"), "3>");
        assert_eq!(strip_fences("```3> 1<```"), "3> 1<");
        assert_eq!(strip_fences("`3> / 1<`"), "3> / 1<");
        // A "tag" made of cell characters is a row, not a tag.
        assert_eq!(strip_fences("```UDL\n.U.\n```"), "UDL\n.U.");
        assert_eq!(strip_fences("```4^\n1<\n```"), "4^\n1<");
    }

    #[test]
    fn detection_names_the_first_evidence() {
        let (set, at) = detect(".U.\nL.R\n.D1").unwrap();
        assert_eq!(set, PieceSet::Pyramids);
        assert_eq!((at.row, at.cell, at.text.as_str()), (3, 1, ".D1"));
        let (set, at) = detect(". . / . .U").unwrap();
        assert_eq!(set, PieceSet::Arrows);
        assert_eq!((at.row, at.cell, at.text.as_str()), (2, 3, "U"));
        assert_eq!(detect(".. .. / ."), None);
    }
}
