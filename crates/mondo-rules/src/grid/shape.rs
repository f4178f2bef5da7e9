//! Shapes (free polyominoes: compared up to translation, rotation and reflection),
//! contents (circles, then crosses, then pluses) and the matcher.

use super::{Cell, Dims, Grid, Group, Symbol};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// A shape in its canonical form: of its 8 symmetric images, translated to the
/// origin, the one whose sorted cell list is least. Two groups have the same shape
/// exactly when their canonical forms are equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "Vec<String>", try_from = "Vec<String>")]
pub struct Shape(Vec<(u8, u8)>);

/// A map of (row, col).
type Symmetry = fn(i16, i16) -> (i16, i16);

/// The 8 symmetries of the square.
const SYMMETRIES: [Symmetry; 8] = [
    |r, c| (r, c),
    |r, c| (c, -r),
    |r, c| (-r, -c),
    |r, c| (-c, r),
    |r, c| (r, -c),
    |r, c| (-r, c),
    |r, c| (c, r),
    |r, c| (-c, -r),
];

/// Translated so the least row and column are 0, sorted.
fn normalise(points: &mut [(i16, i16)]) -> Vec<(u8, u8)> {
    let r0 = points.iter().map(|p| p.0).min().unwrap_or(0);
    let c0 = points.iter().map(|p| p.1).min().unwrap_or(0);
    let mut out: Vec<(u8, u8)> = points
        .iter()
        .map(|&(r, c)| ((r - r0) as u8, (c - c0) as u8))
        .collect();
    out.sort_unstable();
    out
}

impl Shape {
    /// The shape of a group; None if its cells are not one connected piece.
    pub fn of(group: &Group) -> Option<Shape> {
        group
            .is_connected()
            .then(|| Shape::canonical(group.cells().iter().map(|c| (c.row as i16, c.col as i16))))
    }

    /// The canonical form of any set of points (connected or not).
    fn canonical(points: impl Iterator<Item = (i16, i16)> + Clone) -> Shape {
        let mut best: Option<Vec<(u8, u8)>> = None;
        let mut buf: Vec<(i16, i16)> = Vec::new();
        for f in SYMMETRIES {
            buf.clear();
            buf.extend(points.clone().map(|(r, c)| f(r, c)));
            let image = normalise(&mut buf);
            if best.as_ref().is_none_or(|b| image < *b) {
                best = Some(image);
            }
        }
        Shape(best.unwrap_or_default())
    }

    /// Its 8 images (some may coincide), each translated to the origin.
    pub fn images(&self) -> Vec<Vec<(u8, u8)>> {
        let mut out: Vec<Vec<(u8, u8)>> = SYMMETRIES
            .iter()
            .map(|f| {
                let mut pts: Vec<(i16, i16)> =
                    self.0.iter().map(|&(r, c)| f(r as i16, c as i16)).collect();
                normalise(&mut pts)
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Every group of this shape on a `dims` grid: each image at each offset that fits
    /// (the brute force the matcher is checked against, and a solver's search).
    pub fn placements(&self, dims: Dims) -> Vec<Group> {
        let mut out = Vec::new();
        for image in self.images() {
            for at in dims.cells() {
                let cells: Vec<Cell> = image
                    .iter()
                    .map(|&(r, c)| Cell::new(r + at.row, c + at.col))
                    .collect();
                if cells.iter().all(|c| dims.contains(*c)) {
                    out.push(Group::new(cells));
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Number of cells.
    pub fn size(&self) -> usize {
        self.0.len()
    }

    /// Its cells (canonical orientation).
    pub fn points(&self) -> &[(u8, u8)] {
        &self.0
    }

    /// (rows, columns) of its bounding box.
    pub fn bounds(&self) -> (u8, u8) {
        let r = self.0.iter().map(|p| p.0).max().map_or(0, |m| m + 1);
        let c = self.0.iter().map(|p| p.1).max().map_or(0, |m| m + 1);
        (r, c)
    }

    /// As text rows, `#` a cell and `.` a gap: `["##.", ".##"]`.
    pub fn rows(&self) -> Vec<String> {
        let (h, w) = self.bounds();
        (0..h)
            .map(|r| {
                (0..w)
                    .map(|c| if self.0.contains(&(r, c)) { '#' } else { '.' })
                    .collect()
            })
            .collect()
    }
}

/// `##. / .##`.
impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rows().join(" / "))
    }
}

/// What is wrong with a shape's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    #[error("`{0}` is not a shape character: use # for a cell and . for a gap")]
    BadChar(char),
    #[error("a shape is one connected piece of cells")]
    NotConnected,
}

/// Rows of `#` and `.` separated by ` / ` or newlines; any orientation.
impl FromStr for Shape {
    type Err = ShapeError;
    fn from_str(s: &str) -> Result<Shape, ShapeError> {
        let mut cells = Vec::new();
        for (r, row) in super::rows_of(s).iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                match ch {
                    '#' => cells.push(Cell::new(r as u8, c as u8)),
                    '.' => {}
                    other => return Err(ShapeError::BadChar(other)),
                }
            }
        }
        Shape::of(&Group::new(cells)).ok_or(ShapeError::NotConnected)
    }
}

impl From<Shape> for Vec<String> {
    fn from(s: Shape) -> Vec<String> {
        s.rows()
    }
}

impl TryFrom<Vec<String>> for Shape {
    type Error = ShapeError;
    fn try_from(rows: Vec<String>) -> Result<Shape, ShapeError> {
        rows.join("\n").parse()
    }
}

/// Every free polyomino of `n` cells, grown cell by cell from the smaller ones.
pub fn polyominoes(n: usize) -> Vec<Shape> {
    if n == 0 {
        return Vec::new();
    }
    let mut level: BTreeSet<Shape> = BTreeSet::from([Shape(vec![(0, 0)])]);
    for _ in 1..n {
        let mut next = BTreeSet::new();
        for shape in &level {
            let pts: Vec<(i16, i16)> = shape.0.iter().map(|&(r, c)| (r as i16, c as i16)).collect();
            for &(r, c) in &pts {
                for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    let p = (r + dr, c + dc);
                    if pts.contains(&p) {
                        continue;
                    }
                    let grown = pts.iter().copied().chain(std::iter::once(p));
                    next.insert(Shape::canonical(grown));
                }
            }
        }
        level = next;
    }
    level.into_iter().collect()
}

/// How many circles, crosses and pluses, listed in that order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Contents {
    pub circles: u8,
    pub crosses: u8,
    pub pluses: u8,
}

impl Contents {
    /// The contents of `group`'s cells in `grid` (cells off the grid are not counted).
    pub fn of(grid: &Grid, group: &Group) -> Contents {
        let mut out = Contents::default();
        for &cell in group.cells() {
            match grid.get(cell) {
                Some(Symbol::Circle) => out.circles += 1,
                Some(Symbol::Cross) => out.crosses += 1,
                Some(Symbol::Plus) => out.pluses += 1,
                None => {}
            }
        }
        out
    }

    pub fn size(self) -> usize {
        self.circles as usize + self.crosses as usize + self.pluses as usize
    }

    /// `OOX+` (the JSON events' form).
    pub fn compact(self) -> String {
        let mut s = String::with_capacity(self.size());
        for (sym, n) in [
            (Symbol::Circle, self.circles),
            (Symbol::Cross, self.crosses),
            (Symbol::Plus, self.pluses),
        ] {
            s.extend(std::iter::repeat_n(sym.char(), n as usize));
        }
        s
    }

    /// In words: `2 circles, 1 cross, 1 plus`.
    pub fn words(self) -> String {
        let parts: Vec<String> = [
            (self.circles, "circle", "circles"),
            (self.crosses, "cross", "crosses"),
            (self.pluses, "plus", "pluses"),
        ]
        .iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|&(n, one, many)| format!("{n} {}", if n == 1 { one } else { many }))
        .collect();
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.join(", ")
        }
    }
}

/// `O O X +`.
impl fmt::Display for Contents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let spaced: Vec<String> = self.compact().chars().map(String::from).collect();
        f.write_str(&spaced.join(" "))
    }
}

/// Symbols in any order, spaces or none: `x o O +`.
impl FromStr for Contents {
    type Err = super::NotationError;
    fn from_str(s: &str) -> Result<Contents, Self::Err> {
        let mut out = Contents::default();
        for ch in s.chars().filter(|c| !c.is_whitespace()) {
            match Symbol::from_char(ch) {
                Some(Symbol::Circle) => out.circles += 1,
                Some(Symbol::Cross) => out.crosses += 1,
                Some(Symbol::Plus) => out.pluses += 1,
                None => return Err(super::NotationError::NotASymbol(ch.to_string(), false)),
            }
        }
        Ok(out)
    }
}

impl From<Contents> for String {
    fn from(c: Contents) -> String {
        c.compact()
    }
}

impl TryFrom<String> for Contents {
    type Error = super::NotationError;
    fn try_from(s: String) -> Result<Contents, Self::Error> {
        s.parse()
    }
}

/// What the umpire says of an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The shape and the contents match.
    Right,
    /// Not connected, wrong size or wrong shape: the contents stay hidden.
    WrongShape,
    /// The right shape with these (other) contents.
    WrongContents(Contents),
    /// Pattern Assembly Plus: the answer matches none of the round's groups still to
    /// find; nothing more is said (neither its shape nor its contents).
    NoMatch,
}

impl Verdict {
    /// `right`, `wrong_shape`, `wrong_contents`, `no_match` (the JSON events' names).
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Right => "right",
            Verdict::WrongShape => "wrong_shape",
            Verdict::WrongContents(_) => "wrong_contents",
            Verdict::NoMatch => "no_match",
        }
    }
}

/// Judges `answer` on `grid` against a target shape and contents.
pub fn judge(grid: &Grid, shape: &Shape, contents: Contents, answer: &Group) -> Verdict {
    if answer.len() != shape.size() || Shape::of(answer).as_ref() != Some(shape) {
        return Verdict::WrongShape;
    }
    let found = Contents::of(grid, answer);
    if found == contents {
        Verdict::Right
    } else {
        Verdict::WrongContents(found)
    }
}
