//! Seeded random structures: the distribution behind `reasonable`'s obey share and
//! the varied counterexample style.

use crate::koan::{Koan, MAX_CELLS, MAX_SIDE, PieceSet};
use rand::seq::{IndexedRandom, index};
use rand::{Rng, RngExt};

/// n pieces (1 <= n <= w * h) on distinct cells of a w x h box, cells and pieces
/// uniform. The structure's true box may be smaller than w x h.
pub fn in_box<R: Rng + ?Sized>(set: PieceSet, n: usize, w: usize, h: usize, rng: &mut R) -> Koan {
    let side = MAX_SIDE as usize;
    let (w, h) = (w.clamp(1, side), h.clamp(1, side));
    let n = n.clamp(1, w * h);
    let mut window = [None; MAX_CELLS];
    for c in index::sample(rng, w * h, n) {
        let (r, col) = (c / w, c % w);
        window[r * side + col] = set.pieces().choose(rng).copied();
    }
    Koan::from_window(set, &window).expect("a non-empty window of the set's pieces")
}

/// A random structure of 1 to 8 pieces, the distribution of `reasonable`'s obey
/// share: the number of pieces uniform in 1..=8, then a box uniform among the
/// w x h (1..=6 each) that can hold them, then [`in_box`].
pub fn structure<R: Rng + ?Sized>(set: PieceSet, rng: &mut R) -> Koan {
    let n = rng.random_range(1..=8usize);
    let side = MAX_SIDE as usize;
    loop {
        let w = rng.random_range(1..=side);
        let h = rng.random_range(1..=side);
        if w * h >= n {
            return in_box(set, n, w, h, rng);
        }
    }
}
