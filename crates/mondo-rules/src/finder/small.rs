//! The cheap exact step before any grounding: every structure of one and two pieces
//! (8,652 for pyramids, 964 for arrows), walked in the enumeration order of
//! [`crate::koan::enumerate`] (fewest pieces, then smallest box) with the compiled
//! evaluator; then a bounded seeded sample of three-piece structures.
//!
//! Most wrong guesses are told apart by a structure of one or two pieces, and finding
//! it this way takes microseconds whatever the patterns look like, where grounding a
//! four-variable pattern could take seconds. The minimality guarantee stays exact: the
//! first structure found at k pieces is the simplest (fewest pieces, then smallest
//! box) only because every structure of fewer pieces was tried before it, which
//! [`Walked::exhausted`] records.

use crate::koan::{Koan, MAX_SIDE, PieceSet, enumerate};
use crate::lang::eval::Facts;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Pieces up to which every structure is tried.
pub(crate) const EXHAUSTIVE_PIECES: usize = 2;

/// Three-piece structures drawn at random after the exhaustive walk.
pub(crate) const SAMPLE_THREE: usize = 2048;

/// What the walk found.
#[derive(Clone, Debug, Default)]
pub(crate) struct Walked {
    /// The first structure (in enumeration order) that passes the test, if any.
    pub found: Option<Koan>,
    /// Every structure of at most this many pieces was tried and failed the test
    /// (tabled ones aside): one less than the found structure's pieces, or the whole
    /// walk.
    pub exhausted: usize,
}

/// The first structure with at most `max_pieces` pieces, in enumeration order (pieces,
/// then box area, then box height, cells and pieces), not in `skip`, that passes
/// `test`.
pub(crate) fn first(
    set: PieceSet,
    max_pieces: usize,
    skip: &[Koan],
    mut test: impl FnMut(&Facts) -> bool,
) -> Walked {
    for k in 1..=max_pieces {
        let mut walk = enumerate::walk(set, k);
        while let Some(koan) = walk.advance() {
            if test(&Facts::new(koan)) && !skip.contains(koan) {
                return Walked {
                    found: Some(koan.clone()),
                    exhausted: k - 1,
                };
            }
        }
    }
    Walked {
        found: None,
        exhausted: max_pieces,
    }
}

/// Among `draws` seeded random structures of `pieces` pieces (each in a box drawn
/// uniformly among those that hold it), the one with the smallest box that passes
/// `test` and is not in `skip`. Deterministic for a seed.
pub(crate) fn sample(
    set: PieceSet,
    pieces: usize,
    draws: usize,
    seed: u64,
    skip: &[Koan],
    mut test: impl FnMut(&Facts) -> bool,
) -> Option<Koan> {
    let side = MAX_SIDE as usize;
    let boxes: Vec<(usize, usize)> = (1..=side)
        .flat_map(|w| (1..=side).map(move |h| (w, h)))
        .filter(|&(w, h)| w * h >= pieces)
        .collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut best: Option<Koan> = None;
    for _ in 0..draws {
        let (w, h) = boxes[rng.random_range(0..boxes.len())];
        if best.as_ref().is_some_and(|b| b.area() as usize <= w * h) {
            continue;
        }
        let koan = super::sample::in_box(set, pieces, w, h, &mut rng);
        if test(&Facts::new(&koan)) && !skip.contains(&koan) {
            best = Some(koan);
        }
    }
    best
}

/// Random structures of 3 to 12 pieces drawn when the grounded search could not
/// finish: the one with the fewest pieces (then smallest box) that passes `test`. A
/// counterexample so found is a right answer, only not proved the simplest.
pub(crate) fn fallback(
    set: PieceSet,
    skip: &[Koan],
    mut test: impl FnMut(&Facts) -> bool,
) -> Option<Koan> {
    let side = MAX_SIDE as usize;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut best: Option<Koan> = None;
    for _ in 0..FALLBACK_DRAWS {
        let n = rng.random_range(3..=12usize);
        let (w, h) = (rng.random_range(1..=side), rng.random_range(1..=side));
        if w * h < n
            || best
                .as_ref()
                .is_some_and(|b| (b.len(), b.area() as usize) <= (n, w * h))
        {
            continue;
        }
        let koan = super::sample::in_box(set, n, w, h, &mut rng);
        if test(&Facts::new(&koan)) && !skip.contains(&koan) {
            best = Some(koan);
        }
    }
    best
}

/// Draws of [`fallback`].
const FALLBACK_DRAWS: usize = 4000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::{self, CompiledPattern};

    #[test]
    fn the_walk_covers_every_structure_of_one_and_two_pieces() {
        for (set, want) in [(PieceSet::Pyramids, 8_652), (PieceSet::Arrows, 964)] {
            let mut seen = 0;
            let walked = first(set, 2, &[], |_| {
                seen += 1;
                false
            });
            assert_eq!((seen, walked.exhausted), (want, 2));
            assert!(walked.found.is_none());
        }
    }

    #[test]
    fn the_first_found_is_the_simplest_and_tabled_ones_are_skipped() {
        let p = CompiledPattern::new(
            &lang::parse("exists x y. x != y & same_row(x, y)")
                .unwrap()
                .formula,
        );
        let walked = first(PieceSet::Pyramids, 2, &[], |f| p.evaluate_facts(f));
        let k = walked.found.expect("two pieces side by side");
        assert_eq!((k.len(), k.area(), walked.exhausted), (2, 2, 1));
        assert_eq!(k.to_string(), "1^ 1^");
        let walked = first(PieceSet::Pyramids, 2, std::slice::from_ref(&k), |f| {
            p.evaluate_facts(f)
        });
        assert_eq!(
            walked.found.map(|k| k.to_string()),
            Some("1^ 1>".to_string())
        );
    }
}
