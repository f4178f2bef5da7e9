//! The Logical Bluffs board in text (docs/games/bluffs.md, "The board"): cells
//! `A1`..`D4`, colours `R B G Y`, layouts `RBGY / YYGR / BRRG / GBYB` and subsets
//! `A1-B1-A2-B2`. Input is lenient (any case, `-`, `,` or spaces between cells);
//! output is canonical (upper case, row-major, joined by `-`).
//!
//! Kept here, apart from Pattern Assembly's grids, because this board is fixed at
//! 4 x 4; the lead may unify the two notations later.

use std::fmt;
use std::str::FromStr;

/// Rows and columns of the board.
pub const SIDE: u8 = 4;
/// Tiles on the board.
pub const TILES: usize = 16;

/// One tile's place: row `0..4` from the top (`A`..`D`), column `0..4` from the left.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Cell {
    pub row: u8,
    pub col: u8,
}

impl Cell {
    /// The cell at a row-major index `0..16`.
    pub fn from_index(i: usize) -> Option<Cell> {
        (i < TILES).then(|| Cell {
            row: (i / SIDE as usize) as u8,
            col: (i % SIDE as usize) as u8,
        })
    }

    /// Row-major index `0..16`.
    pub fn index(self) -> usize {
        self.row as usize * SIDE as usize + self.col as usize
    }

    /// Every cell, row-major.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..TILES).filter_map(Cell::from_index)
    }

    /// Shares an edge.
    pub fn orth_adjacent(self, other: Cell) -> bool {
        self.row.abs_diff(other.row) + self.col.abs_diff(other.col) == 1
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.row) as char, self.col + 1)
    }
}

/// Why board text was refused; the message says what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError(pub String);

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotationError {}

fn err<T>(message: impl Into<String>) -> Result<T, NotationError> {
    Err(NotationError(message.into()))
}

impl FromStr for Cell {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Cell, NotationError> {
        let t = s.trim();
        let mut chars = t.chars();
        let (Some(r), Some(c), None) = (chars.next(), chars.next(), chars.next()) else {
            return err(format!(
                "`{t}` is not a tile: write a row A-D and a column 1-4, like B3"
            ));
        };
        let row = match r.to_ascii_uppercase() {
            ch @ 'A'..='D' => ch as u8 - b'A',
            _ => {
                return err(format!(
                    "`{t}`: the row must be a letter A-D (then a column 1-4)"
                ));
            }
        };
        let col = match c {
            '1'..='4' => c as u8 - b'1',
            _ => {
                return err(format!(
                    "`{t}`: the column must be a number 1-4 (after the row A-D)"
                ));
            }
        };
        Ok(Cell { row, col })
    }
}

/// A tile's colour.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Colour {
    Red,
    Blue,
    Green,
    Yellow,
}

impl Colour {
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Blue, Colour::Green, Colour::Yellow];

    /// The colour with index `i % 4` in [`Colour::ALL`] order.
    pub fn from_index(i: usize) -> Colour {
        Colour::ALL[i % 4]
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Blue => 'B',
            Colour::Green => 'G',
            Colour::Yellow => 'Y',
        }
    }

    /// The English word (also the symbolic predicate's name).
    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Green => "green",
            Colour::Yellow => "yellow",
        }
    }

    pub fn from_letter(c: char) -> Option<Colour> {
        Colour::ALL
            .into_iter()
            .find(|k| k.letter() == c.to_ascii_uppercase())
    }

    pub fn from_name(w: &str) -> Option<Colour> {
        Colour::ALL.into_iter().find(|k| k.name() == w)
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The colours of all sixteen tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Layout(pub [Colour; TILES]);

impl Layout {
    pub fn colour(&self, cell: Cell) -> Colour {
        self.0[cell.index()]
    }
}

impl FromStr for Layout {
    type Err = NotationError;
    /// Four rows of four letters `R B G Y`, rows split by `/` or newlines; spaces
    /// between letters are allowed, case does not matter.
    fn from_str(s: &str) -> Result<Layout, NotationError> {
        let rows: Vec<Vec<char>> = s
            .split(['/', '\n'])
            .map(|r| r.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        if rows.len() != SIDE as usize {
            return err(format!(
                "a layout has 4 rows split by `/` (like RBGY/YYGR/BRRG/GBYB); found {}",
                rows.len()
            ));
        }
        let mut out = [Colour::Red; TILES];
        for (r, row) in rows.iter().enumerate() {
            if row.len() != SIDE as usize {
                let name = (b'A' + r as u8) as char;
                return err(format!(
                    "row {name} of the layout has {} tiles; each row has 4 (R, B, G or Y)",
                    row.len()
                ));
            }
            for (c, &ch) in row.iter().enumerate() {
                let Some(colour) = Colour::from_letter(ch) else {
                    let cell = Cell {
                        row: r as u8,
                        col: c as u8,
                    };
                    return err(format!(
                        "`{ch}` at {cell} is not a colour: use R (red), B (blue), G (green) or Y (yellow)"
                    ));
                };
                out[r * SIDE as usize + c] = colour;
            }
        }
        Ok(Layout(out))
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.0.iter().enumerate() {
            if i > 0 && i % SIDE as usize == 0 {
                f.write_str("/")?;
            }
            write!(f, "{}", c.letter())?;
        }
        Ok(())
    }
}

/// A set of distinct tiles, kept row-major. Which sets a round allows (4-8 connected
/// tiles, overlap with the previous subset) is a rule of the game, checked by
/// [`Subset::check_shape`]; any non-empty set parses.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Subset(Vec<Cell>);

impl Subset {
    /// The set of these cells (order does not matter; repeats are an error).
    pub fn new(mut cells: Vec<Cell>) -> Result<Subset, NotationError> {
        cells.sort();
        if let Some(w) = cells.windows(2).find(|w| w[0] == w[1]) {
            return err(format!("{} is listed twice; list each tile once", w[0]));
        }
        if cells.is_empty() {
            return err("a subset needs at least one tile (like A1-B1-A2-B2)");
        }
        Ok(Subset(cells))
    }

    pub fn cells(&self) -> &[Cell] {
        &self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn contains(&self, cell: Cell) -> bool {
        self.0.binary_search(&cell).is_ok()
    }

    /// How many tiles the two subsets share.
    pub fn shared(&self, other: &Subset) -> usize {
        self.0.iter().filter(|c| other.contains(**c)).count()
    }

    /// Whether every tile can be reached from every other by steps up, down, left
    /// or right inside the subset.
    pub fn is_connected(&self) -> bool {
        let mut seen = vec![false; self.0.len()];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for (j, c) in self.0.iter().enumerate() {
                if !seen[j] && self.0[i].orth_adjacent(*c) {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen.into_iter().all(|s| s)
    }

    /// The shape rule (docs/games/bluffs.md, "Bluffing"): 4-8 orthogonally connected
    /// tiles.
    pub fn check_shape(&self) -> Result<(), NotationError> {
        if !(4..=8).contains(&self.len()) {
            return err(format!(
                "a subset has 4 to 8 tiles; this one has {}",
                self.len()
            ));
        }
        if !self.is_connected() {
            return err(format!(
                "the tiles of {self} are not connected: each must reach the others by steps up, down, left or right"
            ));
        }
        Ok(())
    }
}

impl FromStr for Subset {
    type Err = NotationError;
    /// Cells joined by `-`, `,` or spaces: `A1-B1-A2-B2`, `a1 b1, a2`.
    fn from_str(s: &str) -> Result<Subset, NotationError> {
        let cells = s
            .split(['-', ',', ' ', '\t'])
            .filter(|p| !p.is_empty())
            .map(str::parse)
            .collect::<Result<Vec<Cell>, _>>()?;
        Subset::new(cells)
    }
}

impl fmt::Display for Subset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("-")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_is_lenient_in_and_canonical_out() {
        let s: Subset = "b2, a1 a2-B1".parse().unwrap();
        assert_eq!(s.to_string(), "A1-A2-B1-B2");
        let l: Layout = "rbgy / YYGR/ B R R G /gbyb".parse().unwrap();
        assert_eq!(l.to_string(), "RBGY/YYGR/BRRG/GBYB");
        assert_eq!(l.colour("C4".parse().unwrap()), Colour::Green);
    }

    #[test]
    fn bad_notation_says_what_is_allowed() {
        assert!("A1-A1".parse::<Subset>().unwrap_err().0.contains("twice"));
        assert!("E1".parse::<Cell>().unwrap_err().0.contains("A-D"));
        assert!("A5".parse::<Cell>().unwrap_err().0.contains("1-4"));
        assert!(
            "RBGY/YYGR/BRRG"
                .parse::<Layout>()
                .unwrap_err()
                .0
                .contains("4 rows")
        );
        assert!(
            "RBGX/YYGR/BRRG/GBYB"
                .parse::<Layout>()
                .unwrap_err()
                .0
                .contains("A4")
        );
    }

    #[test]
    fn shape_rule_needs_four_to_eight_connected_tiles() {
        let ok: Subset = "A1-B1-A2-B2".parse().unwrap();
        assert!(ok.check_shape().is_ok());
        let small: Subset = "A1-B1-A2".parse().unwrap();
        assert!(small.check_shape().is_err());
        let apart: Subset = "A1-A2-C1-C2".parse().unwrap();
        assert!(apart.check_shape().unwrap_err().0.contains("not connected"));
        let seed: Subset = "A1-B1-C1-D1".parse().unwrap();
        assert_eq!(seed.shared(&ok), 2);
    }
}
