//! Every distinct structure with k pieces, in a stable order; the exact counts for any k.
//!
//! The building block of the exact counterexample finder. A *shape* is a normalised set
//! of cells (its bounding box starts at `(0, 0)`); a structure is a shape with a piece of
//! the set on each cell, so every structure comes exactly once.
//!
//! # Order
//!
//! Structures (and shapes) come in this order, each key deciding only when all earlier
//! keys tie:
//!
//! 1. bounding-box area, smallest first;
//! 2. bounding-box height, smallest first (of two boxes with the same area, the wider
//!    and flatter comes first: 1 x 2 before 2 x 1);
//! 3. the cells, as their row-major sorted list of `(row, column)`, compared
//!    lexicographically;
//! 4. the pieces on those cells, in the same cell order, compared lexicographically in
//!    [`Piece`]'s order (size, then direction up, right, down, left), which is the order
//!    of [`PieceSet::pieces`]. The last cell's piece changes fastest.
//!
//! # Ways to walk
//!
//! - [`koans`]: a plain `Iterator<Item = Koan>`; each item is a fresh structure.
//! - [`walk`] / [`Walk::advance`]: one reused structure updated in place, for walking all
//!   2,280,960 three-piece pyramid structures many times: advancing changes one or a few
//!   cells and allocates nothing (read the cells through [`Koan::window`] or
//!   [`Koan::pieces`]).
//! - [`for_each`]: the same as a callback that may stop early.
//! - [`shapes`] and [`walk_shape`]: split the work by shape, e.g. across threads.

use super::piece::{Piece, PieceSet};
use super::structure::{Koan, KoanError, MAX_CELLS, MAX_SIDE, Pos};
use num_bigint::BigUint;
use std::iter::Once;
use std::ops::ControlFlow;

/// A normalised set of cells: the footprint of a structure without its pieces.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Sorted row-major; the bounding box starts at `(0, 0)`.
    cells: Vec<Pos>,
    width: u8,
    height: u8,
}

impl Shape {
    /// The cells, sorted by row then column.
    pub fn cells(&self) -> &[Pos] {
        &self.cells
    }

    pub fn width(&self) -> u8 {
        self.width
    }

    pub fn height(&self) -> u8 {
        self.height
    }

    /// The structure with `pieces[i]` on the `i`-th cell; fails when a piece is not of
    /// the set.
    ///
    /// # Panics
    /// When the number of pieces differs from the number of cells.
    pub fn koan(&self, set: PieceSet, pieces: &[Piece]) -> Result<Koan, KoanError> {
        assert_eq!(pieces.len(), self.cells.len(), "one piece per cell");
        Koan::new(
            set,
            self.cells
                .iter()
                .zip(pieces)
                .map(|(pos, &piece)| (pos.row as i32, pos.col as i32, piece)),
        )
    }
}

/// Bounding boxes `(height, width)` in enumeration order: area, then height.
const BOXES: [(u8, u8); MAX_CELLS] = {
    let side = MAX_SIDE as usize;
    let mut boxes = [(0, 0); MAX_CELLS];
    let mut n = 0;
    let mut area = 1;
    while area <= MAX_CELLS {
        let mut h = 1;
        while h <= side {
            if area % h == 0 && area / h <= side {
                boxes[n] = (h as u8, (area / h) as u8);
                n += 1;
            }
            h += 1;
        }
        area += 1;
    }
    boxes
};

/// Every normalised shape with `k` cells, in enumeration order. Empty for `k == 0` and
/// `k > 36`.
pub fn shapes(k: usize) -> Shapes {
    Shapes {
        k,
        next_box: 0,
        current: None,
    }
}

/// Iterator returned by [`shapes`].
#[derive(Clone, Debug)]
pub struct Shapes {
    k: usize,
    /// Index in [`BOXES`] of the next box to walk.
    next_box: usize,
    /// The box being walked, `(height, width)`, and the box-local row-major indices of
    /// the current k-subset of its cells.
    current: Option<(u8, u8, Vec<usize>)>,
}

impl Shapes {
    /// Starts the next box that can hold k cells; false when none is left.
    fn start_next_box(&mut self) -> bool {
        self.current = None;
        while let Some(&(h, w)) = BOXES.get(self.next_box) {
            self.next_box += 1;
            if self.k > 0 && self.k <= h as usize * w as usize {
                self.current = Some((h, w, (0..self.k).collect()));
                return true;
            }
        }
        false
    }
}

impl Iterator for Shapes {
    type Item = Shape;

    fn next(&mut self) -> Option<Shape> {
        loop {
            let stepped = match &mut self.current {
                Some((h, w, subset)) => next_subset(subset, *h as usize * *w as usize),
                None => false,
            };
            if !stepped && !self.start_next_box() {
                return None;
            }
            if let Some((h, w, subset)) = &self.current
                && let Some(shape) = shape_filling_box(subset, *h, *w)
            {
                return Some(shape);
            }
        }
    }
}

/// Steps `subset` (strictly increasing indices below `n`) to the next k-subset in
/// lexicographic order; false after the last.
fn next_subset(subset: &mut [usize], n: usize) -> bool {
    let k = subset.len();
    for i in (0..k).rev() {
        if subset[i] < n - k + i {
            subset[i] += 1;
            for j in i + 1..k {
                subset[j] = subset[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

/// The shape made by the box-local cells, if they touch all four sides of the h x w box
/// (so that it is their bounding box).
fn shape_filling_box(subset: &[usize], h: u8, w: u8) -> Option<Shape> {
    let (h, w) = (h as usize, w as usize);
    let first = *subset.first()?;
    let last = *subset.last()?;
    let touches_top = first < w;
    let touches_bottom = last >= (h - 1) * w;
    let touches_left = subset.iter().any(|&i| i % w == 0);
    let touches_right = subset.iter().any(|&i| i % w == w - 1);
    (touches_top && touches_bottom && touches_left && touches_right).then(|| Shape {
        cells: subset
            .iter()
            .map(|&i| Pos::new((i / w) as u8, (i % w) as u8))
            .collect(),
        width: w as u8,
        height: h as u8,
    })
}

/// Every structure with `k` pieces of the set, in enumeration order, as fresh values.
pub fn koans(set: PieceSet, k: usize) -> Koans {
    Koans { walk: walk(set, k) }
}

/// Iterator returned by [`koans`].
pub struct Koans {
    walk: Walk<Shapes>,
}

impl Iterator for Koans {
    type Item = Koan;

    fn next(&mut self) -> Option<Koan> {
        self.walk.advance().cloned()
    }
}

/// A walk over structures through one reused [`Koan`]: see [`Walk::advance`].
pub struct Walk<S> {
    set: PieceSet,
    shapes: S,
    /// The current structure and, per cell, the index of its piece in `set.pieces()`.
    current: Option<(Koan, Vec<usize>)>,
}

/// Walks every structure with `k` pieces of the set, in enumeration order.
pub fn walk(set: PieceSet, k: usize) -> Walk<Shapes> {
    Walk {
        set,
        shapes: shapes(k),
        current: None,
    }
}

/// Walks every structure on one shape (every way of putting pieces of the set on its
/// cells), in enumeration order.
pub fn walk_shape(set: PieceSet, shape: Shape) -> Walk<Once<Shape>> {
    Walk {
        set,
        shapes: std::iter::once(shape),
        current: None,
    }
}

impl<S: Iterator<Item = Shape>> Walk<S> {
    /// The next structure, or `None` at the end. The structure lives in a buffer that the
    /// next call overwrites, which is what makes walking cheap.
    pub fn advance(&mut self) -> Option<&Koan> {
        let pieces = self.set.pieces();
        let stepped = match &mut self.current {
            Some((koan, digits)) => step_pieces(koan, digits, pieces),
            None => false,
        };
        if !stepped {
            self.current = None;
            let shape = self.shapes.next()?;
            let first = vec![pieces[0]; shape.cells().len()];
            let koan = shape
                .koan(self.set, &first)
                .expect("a shape with one piece of the set per cell is a valid structure");
            self.current = Some((koan, vec![0; shape.cells().len()]));
        }
        self.current.as_ref().map(|(koan, _)| koan)
    }
}

/// Steps the pieces to the next assignment (the last cell fastest), updating the koan in
/// place; false, with every cell back to the first piece, after the last assignment.
fn step_pieces(koan: &mut Koan, digits: &mut [usize], pieces: &[Piece]) -> bool {
    for i in (0..digits.len()).rev() {
        digits[i] += 1;
        if digits[i] < pieces.len() {
            koan.replace_piece(i, pieces[digits[i]]);
            return true;
        }
        digits[i] = 0;
        koan.replace_piece(i, pieces[0]);
    }
    false
}

/// Calls `f` on every structure with `k` pieces of the set, in enumeration order, until
/// it breaks. The structure is a reused buffer, as with [`Walk::advance`].
pub fn for_each<B>(
    set: PieceSet,
    k: usize,
    mut f: impl FnMut(&Koan) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let mut walk = walk(set, k);
    while let Some(koan) = walk.advance() {
        f(koan)?;
    }
    ControlFlow::Continue(())
}

/// Number of normalised shapes with `k` cells: the k-subsets of the 6 x 6 window that
/// touch row 0 and column 0, C(36,k) - 2 C(30,k) + C(25,k) by inclusion-exclusion.
pub fn count_shapes(k: usize) -> u64 {
    let side = MAX_SIDE as u64;
    let all = binomial(side * side, k);
    let without_a_line = binomial(side * (side - 1), k);
    let without_both = binomial((side - 1) * (side - 1), k);
    // all + without_both >= 2 without_a_line: it counts the subsets missing row 0 or column 0.
    let shapes = all + without_both - 2 * without_a_line;
    u64::try_from(shapes).expect("C(36, k) fits in 64 bits")
}

/// Number of distinct structures with `k` pieces of the set, exactly (12^36 overflows
/// every machine integer).
pub fn count(set: PieceSet, k: usize) -> BigUint {
    let shapes = count_shapes(k);
    if shapes == 0 {
        return BigUint::ZERO;
    }
    // k <= 36 here, since larger k leaves no shapes.
    BigUint::from(shapes) * BigUint::from(set.pieces().len()).pow(k as u32)
}

/// C(n, k), exact for n <= 36 (every intermediate value is at most C(n, k) * k).
fn binomial(n: u64, k: usize) -> u128 {
    let k = k as u64;
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |c, i| c * (n - i) as u128 / (i + 1) as u128)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_come_by_area_then_height() {
        let b = BOXES;
        assert_eq!(&b[..5], &[(1, 1), (1, 2), (2, 1), (1, 3), (3, 1)]);
        assert_eq!(b[35], (6, 6));
        assert!(b.windows(2).all(|w| {
            let key = |(h, w): (u8, u8)| (h as u32 * w as u32, h);
            key(w[0]) < key(w[1])
        }));
    }

    #[test]
    fn subsets_step_in_lexicographic_order() {
        let mut s = vec![0, 1];
        let mut seen = vec![s.clone()];
        while next_subset(&mut s, 4) {
            seen.push(s.clone());
        }
        let expected = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]];
        assert_eq!(seen, expected.map(|x| x.to_vec()));
    }

    #[test]
    fn binomials_are_exact() {
        assert_eq!(binomial(36, 0), 1);
        assert_eq!(binomial(36, 3), 7140);
        assert_eq!(binomial(36, 18), 9_075_135_300);
        assert_eq!(binomial(25, 26), 0);
        assert!((0..=36).all(|k| binomial(36, k) == binomial(36, 36 - k)));
    }
}
