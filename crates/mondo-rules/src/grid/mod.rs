//! Symbol grids, cells and groups, polyomino shapes and contents: the model of Pattern
//! Assembly (docs/games/assembly.md, "The grid, groups and shapes"). Pure and fast: no
//! clock, no I/O.
//!
//! Notation follows shakmaty's habit: lenient in (`FromStr` / `parse` accept any case,
//! `-`, `,` or spaces between cells), canonical out (`Display`: `C3-D3-D4`, rows
//! `XXO+`). Errors name the bad cell and say what is allowed.

mod generate;
mod shape;

pub use generate::{Target, generate_grid, generate_targets, random_group};
pub use shape::{Contents, Shape, Verdict, judge, polyominoes};

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Rows are letters, so at most 26; columns at most 20 (the Plus variant's limit).
pub const MAX_ROWS: u8 = 26;
pub const MAX_COLS: u8 = 20;

/// A cell: row and column counted from 0 (row 0 is `A`, column 0 is `1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    pub row: u8,
    pub col: u8,
}

impl Cell {
    pub const fn new(row: u8, col: u8) -> Cell {
        Cell { row, col }
    }

    /// The (up to four) orthogonal neighbours inside `dims`.
    pub fn neighbours(self, dims: Dims) -> impl Iterator<Item = Cell> {
        let (r, c) = (self.row as i16, self.col as i16);
        [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
            .into_iter()
            .filter(move |&(r, c)| r >= 0 && c >= 0 && r < dims.rows as i16 && c < dims.cols as i16)
            .map(|(r, c)| Cell::new(r as u8, c as u8))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.row) as char, self.col as u32 + 1)
    }
}

/// What is wrong with a cell, a group, a grid or a dimension, as a player reads it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("`{0}` is not a cell: write a row letter then a column number, like C4")]
    NotACell(String),
    #[error("`{cell}` is off the grid: rows are A-{}, columns 1-{}", (b'A' + dims.rows - 1) as char, dims.cols)]
    OffGrid { cell: String, dims: Dims },
    #[error("`{0}` is given twice: name each cell once")]
    Repeated(Cell),
    #[error("no cells given: write a group like C3-D3-D4")]
    Empty,
    #[error("`{0}` is not a symbol: use O (circle), X (cross) or + (plus){blank}", blank = if *.1 { ", or . for a blank" } else { "" })]
    NotASymbol(String, bool),
    #[error("row {row} has {found} cells; the grid has {cols} columns")]
    RowLength { row: char, found: usize, cols: u8 },
    #[error("{found} rows given; the grid has {rows} rows (A-{last})", last = (b'A' + rows - 1) as char)]
    RowCount { found: usize, rows: u8 },
    #[error("a grid is 1-{MAX_ROWS} rows by 1-{MAX_COLS} columns, not {rows} x {cols}")]
    BadDims { rows: usize, cols: usize },
    #[error("`{0}` is not a region: write rows then columns, like B-D 2-7")]
    NotARegion(String),
}

/// A grid's size: rows (letters) by columns (numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Dims {
    pub rows: u8,
    pub cols: u8,
}

impl Dims {
    /// The original game's 6 x 6.
    pub const CLASSIC: Dims = Dims { rows: 6, cols: 6 };

    /// Checked: 1-26 rows, 1-20 columns.
    pub fn new(rows: usize, cols: usize) -> Result<Dims, NotationError> {
        if (1..=MAX_ROWS as usize).contains(&rows) && (1..=MAX_COLS as usize).contains(&cols) {
            Ok(Dims {
                rows: rows as u8,
                cols: cols as u8,
            })
        } else {
            Err(NotationError::BadDims { rows, cols })
        }
    }

    pub fn area(self) -> usize {
        self.rows as usize * self.cols as usize
    }

    pub fn contains(self, cell: Cell) -> bool {
        cell.row < self.rows && cell.col < self.cols
    }

    /// Every cell, row-major.
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        (0..self.rows).flat_map(move |r| (0..self.cols).map(move |c| Cell::new(r, c)))
    }

    fn index(self, cell: Cell) -> usize {
        cell.row as usize * self.cols as usize + cell.col as usize
    }

    /// One cell, lenient: `c4`, ` C4 `, `C04`.
    pub fn cell(self, text: &str) -> Result<Cell, NotationError> {
        let t = text.trim();
        let bad = || NotationError::NotACell(t.to_string());
        let mut chars = t.chars();
        let letter = chars
            .next()
            .filter(char::is_ascii_alphabetic)
            .ok_or_else(bad)?;
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let row = letter.to_ascii_uppercase() as u8 - b'A';
        let col: usize = digits.parse().map_err(|_| bad())?;
        let off = || NotationError::OffGrid {
            cell: t.to_ascii_uppercase(),
            dims: self,
        };
        if col == 0 || col > self.cols as usize || row >= self.rows {
            return Err(off());
        }
        Ok(Cell::new(row, col as u8 - 1))
    }

    /// A group: cells joined by `-`, `,` or spaces, in any order (sorted on the way in).
    pub fn group(self, text: &str) -> Result<Group, NotationError> {
        let mut cells = Vec::new();
        for token in text.split(|c: char| c == '-' || c == ',' || c.is_whitespace()) {
            if token.is_empty() {
                continue;
            }
            let cell = self.cell(token)?;
            if cells.contains(&cell) {
                return Err(NotationError::Repeated(cell));
            }
            cells.push(cell);
        }
        if cells.is_empty() {
            return Err(NotationError::Empty);
        }
        Ok(Group::new(cells))
    }
}

impl fmt::Display for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} x {}", self.rows, self.cols)
    }
}

/// A set of distinct cells, kept sorted row-major (its canonical order).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Group(Vec<Cell>);

impl Group {
    /// Sorts and removes repeats.
    pub fn new(mut cells: Vec<Cell>) -> Group {
        cells.sort_unstable();
        cells.dedup();
        Group(cells)
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

    /// Whether its cells are orthogonally connected (an empty group is not).
    pub fn is_connected(&self) -> bool {
        let Some(&first) = self.0.first() else {
            return false;
        };
        let mut seen = vec![false; self.0.len()];
        seen[0] = true;
        let mut stack = vec![first];
        let mut reached = 1;
        while let Some(c) = stack.pop() {
            for (i, d) in self.0.iter().enumerate() {
                if !seen[i] && c.row.abs_diff(d.row) + c.col.abs_diff(d.col) == 1 {
                    seen[i] = true;
                    reached += 1;
                    stack.push(*d);
                }
            }
        }
        reached == self.0.len()
    }
}

impl fmt::Display for Group {
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

impl From<Group> for String {
    fn from(g: Group) -> String {
        g.to_string()
    }
}

/// Stored groups are read back on the largest grid (the match checks its own size).
impl TryFrom<String> for Group {
    type Error = NotationError;
    fn try_from(s: String) -> Result<Group, NotationError> {
        Dims {
            rows: MAX_ROWS,
            cols: MAX_COLS,
        }
        .group(&s)
    }
}

/// A picture in a cell. Ordered as contents are listed: circles, crosses, pluses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Symbol {
    #[serde(rename = "O")]
    Circle,
    #[serde(rename = "X")]
    Cross,
    #[serde(rename = "+")]
    Plus,
}

impl Symbol {
    pub const ALL: [Symbol; 3] = [Symbol::Circle, Symbol::Cross, Symbol::Plus];

    pub const fn char(self) -> char {
        match self {
            Symbol::Circle => 'O',
            Symbol::Cross => 'X',
            Symbol::Plus => '+',
        }
    }

    /// `O o 0`, `X x`, `+`.
    pub fn from_char(c: char) -> Option<Symbol> {
        match c {
            'O' | 'o' | '0' => Some(Symbol::Circle),
            'X' | 'x' => Some(Symbol::Cross),
            '+' => Some(Symbol::Plus),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Symbol::Circle => "circle",
            Symbol::Cross => "cross",
            Symbol::Plus => "plus",
        }
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// Splits grid text into rows of cell characters: rows by newlines or ` / `, cells by
/// spaces or nothing. Blank lines are ignored.
fn rows_of(text: &str) -> Vec<Vec<char>> {
    text.split(['\n', '/'])
        .map(|row| {
            row.chars()
                .filter(|c| !c.is_whitespace())
                .collect::<Vec<_>>()
        })
        .filter(|row| !row.is_empty())
        .collect()
}

/// A full grid of symbols.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "Vec<String>", try_from = "Vec<String>")]
pub struct Grid {
    dims: Dims,
    cells: Vec<Symbol>,
}

impl Grid {
    /// A grid from its symbols, row-major; None unless there are `dims.area()`.
    pub fn from_cells(dims: Dims, cells: Vec<Symbol>) -> Option<Grid> {
        (cells.len() == dims.area()).then_some(Grid { dims, cells })
    }

    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// The symbol at a cell of the grid (None off it).
    pub fn get(&self, cell: Cell) -> Option<Symbol> {
        self.dims
            .contains(cell)
            .then(|| self.cells[self.dims.index(cell)])
    }

    pub fn symbols(&self) -> &[Symbol] {
        &self.cells
    }

    /// Each row as text, `XXO+OX` (the JSON events' form).
    pub fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.dims.cols as usize)
            .map(|row| row.iter().map(|s| s.char()).collect())
            .collect()
    }

    /// Reads a grid of any size (rows of equal length).
    pub fn parse(text: &str) -> Result<Grid, NotationError> {
        let rows = rows_of(text);
        let cols = rows.first().map_or(0, Vec::len);
        let dims = Dims::new(rows.len(), cols)?;
        let partial = Reconstruction::parse(text, dims, false)?;
        let cells = partial.cells.into_iter().flatten().collect();
        Ok(Grid { dims, cells })
    }
}

/// Rows joined by ` / `, cells by spaces: `X X O / O + X`.
impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<String> = self
            .rows()
            .iter()
            .map(|r| r.chars().map(String::from).collect::<Vec<_>>().join(" "))
            .collect();
        f.write_str(&rows.join(" / "))
    }
}

impl FromStr for Grid {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Grid, NotationError> {
        Grid::parse(s)
    }
}

impl From<Grid> for Vec<String> {
    fn from(g: Grid) -> Vec<String> {
        g.rows()
    }
}

impl TryFrom<Vec<String>> for Grid {
    type Error = NotationError;
    fn try_from(rows: Vec<String>) -> Result<Grid, NotationError> {
        Grid::parse(&rows.join("\n"))
    }
}

/// A player's reconstruction of (part of) a grid: a symbol or a blank per cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reconstruction {
    pub dims: Dims,
    /// Row-major; None is a blank.
    pub cells: Vec<Option<Symbol>>,
}

impl Reconstruction {
    /// Reads `dims.rows` rows of `dims.cols` cells; with `blanks`, `.` and `-` are blanks.
    pub fn parse(text: &str, dims: Dims, blanks: bool) -> Result<Reconstruction, NotationError> {
        let rows = rows_of(text);
        if rows.len() != dims.rows as usize {
            return Err(NotationError::RowCount {
                found: rows.len(),
                rows: dims.rows,
            });
        }
        let mut cells = Vec::with_capacity(dims.area());
        for (r, row) in rows.iter().enumerate() {
            if row.len() != dims.cols as usize {
                return Err(NotationError::RowLength {
                    row: (b'A' + r as u8) as char,
                    found: row.len(),
                    cols: dims.cols,
                });
            }
            for (c, &ch) in row.iter().enumerate() {
                match Symbol::from_char(ch) {
                    Some(s) => cells.push(Some(s)),
                    None if blanks && (ch == '.' || ch == '-') => cells.push(None),
                    None => {
                        let at = Cell::new(r as u8, c as u8);
                        return Err(NotationError::NotASymbol(format!("{ch}` at `{at}"), blanks));
                    }
                }
            }
        }
        Ok(Reconstruction { dims, cells })
    }

    /// Filled cells.
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|c| c.is_some()).count()
    }

    /// (right, wrong) filled cells against `truth`, read at `region`'s cells in order.
    pub fn mark(&self, truth: &Grid, region: Region) -> (u32, u32) {
        let mut right = 0;
        let mut wrong = 0;
        for (given, cell) in self.cells.iter().zip(region.cells()) {
            match (given, truth.get(cell)) {
                (Some(g), Some(t)) if *g == t => right += 1,
                (Some(_), _) => wrong += 1,
                (None, _) => {}
            }
        }
        (right, wrong)
    }

    /// Rows as text, `.` for blanks.
    pub fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.dims.cols.max(1) as usize)
            .map(|row| row.iter().map(|s| s.map_or('.', Symbol::char)).collect())
            .collect()
    }
}

/// A rectangle of a grid (the Plus showdown's part): rows `first_row..=last_row`,
/// columns `first_col..=last_col`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Region {
    pub top_left: Cell,
    pub bottom_right: Cell,
}

impl Region {
    /// The whole of a grid.
    pub fn all(dims: Dims) -> Region {
        Region {
            top_left: Cell::new(0, 0),
            bottom_right: Cell::new(dims.rows - 1, dims.cols - 1),
        }
    }

    pub fn dims(self) -> Dims {
        Dims {
            rows: self.bottom_right.row - self.top_left.row + 1,
            cols: self.bottom_right.col - self.top_left.col + 1,
        }
    }

    /// Its cells, row-major.
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        let Region {
            top_left: a,
            bottom_right: b,
        } = self;
        (a.row..=b.row).flat_map(move |r| (a.col..=b.col).map(move |c| Cell::new(r, c)))
    }

    /// `B-D 2-7` (rows then columns; a single `C` or `4` is one row or column), or
    /// `all`, inside `dims`.
    pub fn parse(text: &str, dims: Dims) -> Result<Region, NotationError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("all") {
            return Ok(Region::all(dims));
        }
        let bad = || NotationError::NotARegion(t.to_string());
        let mut parts = t.split_whitespace();
        let (Some(rows), Some(cols), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad());
        };
        let range = |s: &str| -> Option<(String, String)> {
            let mut ends = s.split('-');
            let a = ends.next()?.to_string();
            let b = ends.next().map_or(a.clone(), str::to_string);
            ends.next().is_none().then_some((a, b))
        };
        let (r1, r2) = range(rows).ok_or_else(bad)?;
        let (c1, c2) = range(cols).ok_or_else(bad)?;
        let a = dims.cell(&format!("{r1}{c1}"))?;
        let b = dims.cell(&format!("{r2}{c2}"))?;
        if a.row > b.row || a.col > b.col {
            return Err(bad());
        }
        Ok(Region {
            top_left: a,
            bottom_right: b,
        })
    }
}

/// `B-D 2-7`.
impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = (self.top_left, self.bottom_right);
        write!(
            f,
            "{}-{} {}-{}",
            (b'A' + a.row) as char,
            (b'A' + b.row) as char,
            a.col + 1,
            b.col + 1
        )
    }
}

#[cfg(test)]
mod tests;
