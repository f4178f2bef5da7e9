//! Per-structure facts as bitmasks over piece indices, for the fast evaluator.
//!
//! Bit `i` of a mask stands for piece `i` of [`Koan::pieces`]; a structure has at most
//! 36 pieces, so one `u64` holds any set of them. Everything cheap is computed up
//! front without allocating; adjacency (and the groups built from it) only when a
//! pattern first asks.

use crate::koan::{Direction, Koan, MAX_CELLS, MAX_SIDE, Size};
use crate::lang::ast::{BinaryPred, TermKind, UnaryPred};
use std::cell::OnceCell;

/// What the evaluator knows about one structure. Build it once and evaluate any
/// number of compiled patterns against it.
pub struct Facts<'k> {
    koan: &'k Koan,
    all: u64,
    row: [u8; MAX_CELLS],
    col: [u8; MAX_CELLS],
    /// Pieces in row r / column c.
    row_mask: [u64; MAX_SIDE as usize],
    col_mask: [u64; MAX_SIDE as usize],
    /// `rows_before[r]`: the pieces in rows strictly less than r (so index 0 is empty);
    /// `cols_before` likewise for columns.
    rows_before: [u64; MAX_SIDE as usize + 1],
    cols_before: [u64; MAX_SIDE as usize + 1],
    /// By pips - 1.
    size_mask: [u64; 3],
    /// By `Direction as usize`.
    dir_mask: [u64; 4],
    touch: OnceCell<[u64; MAX_CELLS]>,
    groups: OnceCell<u32>,
}

fn bits_below(k: usize) -> u64 {
    if k >= 64 { u64::MAX } else { (1u64 << k) - 1 }
}

/// Iterates over the set bits of a mask, lowest first.
pub(crate) fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}

impl<'k> Facts<'k> {
    pub fn new(koan: &'k Koan) -> Facts<'k> {
        let pieces = koan.pieces();
        let mut f = Facts {
            koan,
            all: bits_below(pieces.len()),
            row: [0; MAX_CELLS],
            col: [0; MAX_CELLS],
            row_mask: [0; MAX_SIDE as usize],
            col_mask: [0; MAX_SIDE as usize],
            rows_before: [0; MAX_SIDE as usize + 1],
            cols_before: [0; MAX_SIDE as usize + 1],
            size_mask: [0; 3],
            dir_mask: [0; 4],
            touch: OnceCell::new(),
            groups: OnceCell::new(),
        };
        for (i, (pos, piece)) in pieces.iter().enumerate() {
            let bit = 1u64 << i;
            f.row[i] = pos.row;
            f.col[i] = pos.col;
            f.row_mask[pos.row as usize] |= bit;
            f.col_mask[pos.col as usize] |= bit;
            f.size_mask[piece.pips() as usize - 1] |= bit;
            f.dir_mask[piece.dir as usize] |= bit;
        }
        for r in 0..MAX_SIDE as usize {
            f.rows_before[r + 1] = f.rows_before[r] | f.row_mask[r];
            f.cols_before[r + 1] = f.cols_before[r] | f.col_mask[r];
        }
        f
    }

    pub fn koan(&self) -> &'k Koan {
        self.koan
    }

    /// Every piece.
    pub fn all(&self) -> u64 {
        self.all
    }

    pub fn len(&self) -> usize {
        self.koan.len()
    }

    pub fn is_empty(&self) -> bool {
        self.koan.is_empty()
    }

    fn dir(&self, d: Direction) -> u64 {
        self.dir_mask[d as usize]
    }

    fn size(&self, s: Size) -> u64 {
        self.size_mask[s.pips() as usize - 1]
    }

    /// Pieces in rows strictly above / below row r; columns strictly left / right of c.
    fn rows_lt(&self, r: u8) -> u64 {
        self.rows_before[r as usize]
    }
    fn rows_gt(&self, r: u8) -> u64 {
        self.all & !self.rows_before[r as usize + 1]
    }
    fn cols_lt(&self, c: u8) -> u64 {
        self.cols_before[c as usize]
    }
    fn cols_gt(&self, c: u8) -> u64 {
        self.all & !self.cols_before[c as usize + 1]
    }

    /// Pieces of size strictly smaller / larger than `s`.
    fn sizes_lt(&self, s: Size) -> u64 {
        self.size_mask[..s.pips() as usize - 1]
            .iter()
            .fold(0, |m, x| m | x)
    }
    fn sizes_gt(&self, s: Size) -> u64 {
        self.size_mask[s.pips() as usize..]
            .iter()
            .fold(0, |m, x| m | x)
    }

    /// The pieces of which a unary predicate holds.
    pub fn unary(&self, p: UnaryPred) -> u64 {
        match p {
            UnaryPred::Small => self.size(Size::Small),
            UnaryPred::Medium => self.size(Size::Medium),
            UnaryPred::Large => self.size(Size::Large),
            UnaryPred::Up => self.dir(Direction::Up),
            UnaryPred::Right => self.dir(Direction::Right),
            UnaryPred::Down => self.dir(Direction::Down),
            UnaryPred::Left => self.dir(Direction::Left),
            UnaryPred::Vertical => self.dir(Direction::Up) | self.dir(Direction::Down),
            UnaryPred::Horizontal => self.dir(Direction::Left) | self.dir(Direction::Right),
            // The structure is normalised: its bounding box starts at row and column 0.
            UnaryPred::Topmost => self.row_mask[0],
            UnaryPred::Bottommost => self.row_mask[self.koan.height() as usize - 1],
            UnaryPred::Leftmost => self.col_mask[0],
            UnaryPred::Rightmost => self.col_mask[self.koan.width() as usize - 1],
            // A structure is never empty, so some size is present.
            UnaryPred::Largest => self
                .size_mask
                .iter()
                .rev()
                .fold(0, |m, s| if m == 0 { *s } else { m }),
            UnaryPred::Smallest => self
                .size_mask
                .iter()
                .fold(0, |m, s| if m == 0 { *s } else { m }),
        }
    }

    /// The pieces `j` with `p(i, j)`.
    pub fn row(&self, p: BinaryPred, i: usize) -> u64 {
        let (r, c) = (self.row[i], self.col[i]);
        let piece = self.koan.pieces()[i].1;
        match p {
            BinaryPred::PointsAt => match piece.dir {
                Direction::Up => self.col_mask[c as usize] & self.rows_lt(r),
                Direction::Down => self.col_mask[c as usize] & self.rows_gt(r),
                Direction::Left => self.row_mask[r as usize] & self.cols_lt(c),
                Direction::Right => self.row_mask[r as usize] & self.cols_gt(c),
            },
            BinaryPred::Touches => self.touch()[i],
            BinaryPred::Above => self.rows_gt(r),
            BinaryPred::Below => self.rows_lt(r),
            BinaryPred::LeftOf => self.cols_gt(c),
            BinaryPred::RightOf => self.cols_lt(c),
            BinaryPred::DirectlyAbove => self.col_mask[c as usize] & self.rows_gt(r),
            BinaryPred::DirectlyBelow => self.col_mask[c as usize] & self.rows_lt(r),
            BinaryPred::DirectlyLeftOf => self.row_mask[r as usize] & self.cols_gt(c),
            BinaryPred::DirectlyRightOf => self.row_mask[r as usize] & self.cols_lt(c),
            BinaryPred::SameRow => self.row_mask[r as usize],
            BinaryPred::SameColumn => self.col_mask[c as usize],
            BinaryPred::SameSize => self.size(piece.size),
            BinaryPred::SameDirection => self.dir(piece.dir),
            BinaryPred::OppositeDirection => self.dir(piece.dir.opposite()),
            BinaryPred::Larger => self.sizes_lt(piece.size),
            BinaryPred::Smaller => self.sizes_gt(piece.size),
        }
    }

    /// The pieces `i` with `p(i, j)`.
    pub fn column(&self, p: BinaryPred, j: usize) -> u64 {
        let converse = match p {
            BinaryPred::PointsAt => return self.pointing_at(j),
            BinaryPred::Above => BinaryPred::Below,
            BinaryPred::Below => BinaryPred::Above,
            BinaryPred::LeftOf => BinaryPred::RightOf,
            BinaryPred::RightOf => BinaryPred::LeftOf,
            BinaryPred::DirectlyAbove => BinaryPred::DirectlyBelow,
            BinaryPred::DirectlyBelow => BinaryPred::DirectlyAbove,
            BinaryPred::DirectlyLeftOf => BinaryPred::DirectlyRightOf,
            BinaryPred::DirectlyRightOf => BinaryPred::DirectlyLeftOf,
            BinaryPred::Larger => BinaryPred::Smaller,
            BinaryPred::Smaller => BinaryPred::Larger,
            BinaryPred::Touches
            | BinaryPred::SameRow
            | BinaryPred::SameColumn
            | BinaryPred::SameSize
            | BinaryPred::SameDirection
            | BinaryPred::OppositeDirection => p,
        };
        self.row(converse, j)
    }

    /// The pieces whose ray passes through piece j.
    fn pointing_at(&self, j: usize) -> u64 {
        let (r, c) = (self.row[j], self.col[j]);
        let (in_row, in_col) = (self.row_mask[r as usize], self.col_mask[c as usize]);
        (self.dir(Direction::Up) & in_col & self.rows_gt(r))
            | (self.dir(Direction::Down) & in_col & self.rows_lt(r))
            | (self.dir(Direction::Left) & in_row & self.cols_gt(c))
            | (self.dir(Direction::Right) & in_row & self.cols_lt(c))
    }

    /// For each piece, the pieces sharing an edge with it.
    fn touch(&self) -> &[u64; MAX_CELLS] {
        self.touch.get_or_init(|| {
            let side = MAX_SIDE as usize;
            let mut at = [u8::MAX; MAX_CELLS];
            for i in 0..self.len() {
                at[self.row[i] as usize * side + self.col[i] as usize] = i as u8;
            }
            let piece_at = |r: usize, c: usize| -> u64 {
                match at[r * side + c] {
                    u8::MAX => 0,
                    j => 1 << j,
                }
            };
            let mut touch = [0; MAX_CELLS];
            for (i, t) in touch.iter_mut().enumerate().take(self.len()) {
                let (r, c) = (self.row[i] as usize, self.col[i] as usize);
                if r > 0 {
                    *t |= piece_at(r - 1, c);
                }
                if r + 1 < side {
                    *t |= piece_at(r + 1, c);
                }
                if c > 0 {
                    *t |= piece_at(r, c - 1);
                }
                if c + 1 < side {
                    *t |= piece_at(r, c + 1);
                }
            }
            touch
        })
    }

    /// Total pips of a set of pieces.
    pub fn pips(&self, m: u64) -> i64 {
        (1..=3)
            .map(|p| p * (m & self.size_mask[p as usize - 1]).count_ones() as i64)
            .sum()
    }

    /// Pips of one piece.
    pub fn pips_of(&self, i: usize) -> i64 {
        self.koan.pieces()[i].1.pips() as i64
    }

    /// The structure-wide terms, as [`TermKind::global_value`]; `None` for the others.
    pub fn global_value(&self, kind: &TermKind) -> Option<i64> {
        let present = |masks: &[u64]| masks.iter().filter(|m| **m != 0).count() as i64;
        Some(match kind {
            TermKind::Pieces => self.len() as i64,
            TermKind::Width => self.koan.width() as i64,
            TermKind::Height => self.koan.height() as i64,
            TermKind::Groups => *self.groups.get_or_init(|| self.count_groups()) as i64,
            TermKind::Sizes => present(&self.size_mask),
            TermKind::Directions => present(&self.dir_mask),
            _ => return None,
        })
    }

    /// Connected components by flooding the adjacency masks.
    fn count_groups(&self) -> u32 {
        let touch = self.touch();
        let mut rest = self.all;
        let mut groups = 0;
        while rest != 0 {
            groups += 1;
            let mut frontier = rest & rest.wrapping_neg();
            let mut group = frontier;
            while frontier != 0 {
                let reached = bits(frontier).fold(0, |m, i| m | touch[i]);
                frontier = reached & !group;
                group |= reached;
            }
            rest &= !group;
        }
        groups
    }
}
