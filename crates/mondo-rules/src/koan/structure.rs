//! Structures (koans): pieces on grid cells, normalised for translation.

use super::piece::{Piece, PieceSet};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::hash::{Hash, Hasher};

/// The largest side of a structure's bounding box.
pub const MAX_SIDE: u8 = 6;
/// Cells in the largest bounding box.
pub const MAX_CELLS: usize = (MAX_SIDE as usize) * (MAX_SIDE as usize);

/// A cell of a normalised structure: `(0, 0)` is the bounding box's top-left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    pub row: u8,
    pub col: u8,
}

impl Pos {
    pub const fn new(row: u8, col: u8) -> Pos {
        Pos { row, col }
    }

    /// Index in a 6 x 6 window, row-major.
    pub const fn index(self) -> usize {
        self.row as usize * MAX_SIDE as usize + self.col as usize
    }
}

/// Why a set of placed pieces is not a valid structure.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KoanError {
    #[error("a structure needs at least one piece")]
    Empty,
    #[error("two pieces on the same cell (row {row}, column {col}); at most one piece per cell")]
    Overlap { row: i32, col: i32 },
    #[error("bounding box {width} x {height} is too large (at most 6 x 6)")]
    TooLarge { width: u32, height: u32 },
    #[error("{piece:?} is not a piece of the {set} set")]
    WrongSet { piece: Piece, set: PieceSet },
}

/// A valid structure, normalised so its bounding box starts at `(0, 0)`.
///
/// Equality and hashing look at the piece set and the normalised pieces only, so two
/// structures that differ by a translation are equal; rotations and reflections are not.
#[derive(Clone, Serialize, Deserialize)]
#[serde(try_from = "KoanRepr", into = "KoanRepr")]
pub struct Koan {
    set: PieceSet,
    /// Sorted by (row, column); no two share a cell.
    pieces: Vec<(Pos, Piece)>,
    width: u8,
    height: u8,
    /// `grid[pos.index()]` is `Some` where a piece stands; cells outside the box are `None`.
    grid: [Option<Piece>; MAX_CELLS],
}

impl Koan {
    /// Builds a structure from pieces at arbitrary (possibly negative) coordinates,
    /// validating it and moving its bounding box to the origin.
    pub fn new(
        set: PieceSet,
        placed: impl IntoIterator<Item = (i32, i32, Piece)>,
    ) -> Result<Koan, KoanError> {
        let mut placed: Vec<(i32, i32, Piece)> = placed.into_iter().collect();
        if placed.is_empty() {
            return Err(KoanError::Empty);
        }
        if let Some(&(_, _, piece)) = placed.iter().find(|(_, _, p)| !set.contains(*p)) {
            return Err(KoanError::WrongSet { piece, set });
        }
        placed.sort_by_key(|&(r, c, _)| (r, c));
        if let Some(w) = placed
            .windows(2)
            .find(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1))
        {
            return Err(KoanError::Overlap {
                row: w[0].0,
                col: w[0].1,
            });
        }
        let (r0, r1) = (placed[0].0, placed[placed.len() - 1].0);
        let c0 = placed.iter().map(|p| p.1).min().unwrap_or(0);
        let c1 = placed.iter().map(|p| p.1).max().unwrap_or(0);
        let height = (r1 as i64 - r0 as i64 + 1) as u64;
        let width = (c1 as i64 - c0 as i64 + 1) as u64;
        if width > MAX_SIDE as u64 || height > MAX_SIDE as u64 {
            return Err(KoanError::TooLarge {
                width: width.min(u32::MAX as u64) as u32,
                height: height.min(u32::MAX as u64) as u32,
            });
        }
        let pieces = placed
            .into_iter()
            .map(|(r, c, piece)| (Pos::new((r - r0) as u8, (c - c0) as u8), piece))
            .collect();
        Ok(Koan::from_normalised(
            set,
            pieces,
            width as u8,
            height as u8,
        ))
    }

    /// Builds from pieces that are already normalised and sorted; callers guarantee it.
    fn from_normalised(set: PieceSet, pieces: Vec<(Pos, Piece)>, width: u8, height: u8) -> Koan {
        let mut grid = [None; MAX_CELLS];
        for &(pos, piece) in &pieces {
            grid[pos.index()] = Some(piece);
        }
        Koan {
            set,
            pieces,
            width,
            height,
            grid,
        }
    }

    /// Builds from cells of a 6 x 6 window (for enumeration and the SAT finder): `cells[i]`
    /// is the piece at row `i / 6`, column `i % 6`. Fails only when the window is empty
    /// or holds a piece outside the set.
    pub fn from_window(
        set: PieceSet,
        cells: &[Option<Piece>; MAX_CELLS],
    ) -> Result<Koan, KoanError> {
        let side = MAX_SIDE as i32;
        Koan::new(
            set,
            cells
                .iter()
                .enumerate()
                .filter_map(|(i, p)| p.map(|p| (i as i32 / side, i as i32 % side, p))),
        )
    }

    /// Puts `piece` on the `i`-th occupied cell (row-major), keeping the cells. For
    /// enumeration, which walks millions of structures through one buffer; the caller
    /// guarantees that `piece` belongs to the set.
    pub(super) fn replace_piece(&mut self, i: usize, piece: Piece) {
        debug_assert!(self.set.contains(piece));
        let pos = self.pieces[i].0;
        self.pieces[i].1 = piece;
        self.grid[pos.index()] = Some(piece);
    }

    pub fn set(&self) -> PieceSet {
        self.set
    }

    /// The pieces, sorted by row then column.
    pub fn pieces(&self) -> &[(Pos, Piece)] {
        &self.pieces
    }

    /// Number of pieces (at least one).
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// Always false: a structure has at least one piece. Present for clippy's sake.
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// Width of the bounding box (columns), 1..=6.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Height of the bounding box (rows), 1..=6.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Area of the bounding box.
    pub fn area(&self) -> u32 {
        self.width as u32 * self.height as u32
    }

    /// The piece at a cell, if any.
    pub fn get(&self, pos: Pos) -> Option<Piece> {
        if pos.row < self.height && pos.col < self.width {
            self.grid[pos.index()]
        } else {
            None
        }
    }

    /// The structure's cells as a 6 x 6 window (top-left aligned).
    pub fn window(&self) -> &[Option<Piece>; MAX_CELLS] {
        &self.grid
    }

    /// Total pips of all pieces.
    pub fn total_pips(&self) -> u32 {
        self.pieces.iter().map(|(_, p)| p.pips() as u32).sum()
    }
}

impl PartialEq for Koan {
    fn eq(&self, other: &Koan) -> bool {
        self.set == other.set && self.pieces == other.pieces
    }
}

impl Eq for Koan {}

impl Hash for Koan {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.set.hash(state);
        self.pieces.hash(state);
    }
}

impl fmt::Debug for Koan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Koan({:?}, {}x{}, {:?})",
            self.set, self.width, self.height, self.pieces
        )
    }
}

/// Serialized form: the piece set and the placed pieces (validated on the way in).
#[derive(Serialize, Deserialize)]
struct KoanRepr {
    set: PieceSet,
    pieces: Vec<(Pos, Piece)>,
}

impl TryFrom<KoanRepr> for Koan {
    type Error = KoanError;
    fn try_from(r: KoanRepr) -> Result<Koan, KoanError> {
        Koan::new(
            r.set,
            r.pieces
                .into_iter()
                .map(|(p, x)| (p.row as i32, p.col as i32, x)),
        )
    }
}

impl From<Koan> for KoanRepr {
    fn from(k: Koan) -> KoanRepr {
        KoanRepr {
            set: k.set,
            pieces: k.pieces,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::koan::{Direction::*, Size::*};

    fn pc(s: super::super::Size, d: super::super::Direction) -> Piece {
        Piece::new(s, d)
    }

    #[test]
    fn translation_is_invisible() {
        let a = Koan::new(
            PieceSet::Pyramids,
            [(0, 0, pc(Large, Up)), (1, 2, pc(Small, Left))],
        )
        .unwrap();
        let b = Koan::new(
            PieceSet::Pyramids,
            [(7, -3, pc(Small, Left)), (6, -5, pc(Large, Up))],
        )
        .unwrap();
        assert_eq!(a, b);
        assert_eq!((a.width(), a.height()), (3, 2));
        assert_eq!(b.pieces()[0].0, Pos::new(0, 0));
    }

    #[test]
    fn rotation_and_reflection_are_visible() {
        let a = Koan::new(
            PieceSet::Pyramids,
            [(0, 0, pc(Large, Up)), (0, 1, pc(Small, Up))],
        )
        .unwrap();
        let mirrored = Koan::new(
            PieceSet::Pyramids,
            [(0, 0, pc(Small, Up)), (0, 1, pc(Large, Up))],
        )
        .unwrap();
        assert_ne!(a, mirrored);
    }

    #[test]
    fn invalid_structures_are_refused() {
        assert_eq!(Koan::new(PieceSet::Pyramids, []), Err(KoanError::Empty));
        assert_eq!(
            Koan::new(
                PieceSet::Pyramids,
                [(1, 1, pc(Small, Up)), (1, 1, pc(Large, Up))]
            ),
            Err(KoanError::Overlap { row: 1, col: 1 })
        );
        assert_eq!(
            Koan::new(
                PieceSet::Pyramids,
                [(0, 0, pc(Small, Up)), (2, 6, pc(Large, Up))]
            ),
            Err(KoanError::TooLarge {
                width: 7,
                height: 3
            })
        );
        assert!(matches!(
            Koan::new(PieceSet::Arrows, [(0, 0, pc(Large, Up))]),
            Err(KoanError::WrongSet { .. })
        ));
        assert!(
            Koan::new(
                PieceSet::Pyramids,
                [(0, 0, pc(Small, Up)), (5, 5, pc(Large, Up))]
            )
            .is_ok()
        );
    }

    #[test]
    fn serde_round_trip_validates() {
        let a = Koan::new(
            PieceSet::Pyramids,
            [(0, 0, pc(Large, Up)), (1, 2, pc(Small, Left))],
        )
        .unwrap();
        let json = serde_json::to_string(&a).unwrap();
        let back: Koan = serde_json::from_str(&json).unwrap();
        assert_eq!(a, back);
        let bad = r#"{"set":"arrows","pieces":[]}"#;
        assert!(serde_json::from_str::<Koan>(bad).is_err());
    }
}
