//! Seeded random structures: the varied counterexample style, and the random method
//! the exact finder replaces (for the benchmark's comparison).

use crate::koan::{Koan, MAX_CELLS, MAX_SIDE, PieceSet};
use crate::lang::CompiledPattern;
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

/// How many random structures the random method tries.
pub const RANDOM_METHOD_TRIES: usize = 10_000;

/// The usual method of Zendo programs, for comparison: about 10,000
/// random structures of gradually increasing size (here 1 to 10 pieces, 1,000 of each,
/// each in a box drawn uniformly among those that can hold it); the first that
/// separates the two patterns, or `None`, which that method takes for "equivalent".
pub fn random_method<R: Rng + ?Sized>(
    hidden: &CompiledPattern,
    guess: &CompiledPattern,
    set: PieceSet,
    rng: &mut R,
) -> Option<Koan> {
    let side = MAX_SIDE as usize;
    (0..RANDOM_METHOD_TRIES).find_map(|i| {
        let n = 1 + i * 10 / RANDOM_METHOD_TRIES;
        let (w, h) = loop {
            let (w, h) = (rng.random_range(1..=side), rng.random_range(1..=side));
            if w * h >= n {
                break (w, h);
            }
        };
        let koan = in_box(set, n, w, h, rng);
        (hidden.evaluate(&koan) != guess.evaluate(&koan)).then_some(koan)
    })
}
