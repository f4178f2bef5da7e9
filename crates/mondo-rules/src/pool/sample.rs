//! How often a pattern holds on random small structures (a rough reasonableness
//! share), and the evaluation benchmark's workload.

use super::{Pool, PoolEntry};
use crate::koan::{Koan, PieceSet};
use crate::lang::eval::{CompiledPattern, Facts};
use crate::lang::random;
use rand::Rng;

/// The share (0 to 1) of `samples` random structures of 1 to `max_pieces` pieces
/// (drawn by [`random::koan`]) that obey the pattern.
pub fn obey_share<R: Rng + ?Sized>(
    rng: &mut R,
    pattern: &CompiledPattern,
    set: PieceSet,
    max_pieces: usize,
    samples: usize,
) -> f64 {
    let obeying = (0..samples)
        .filter(|_| pattern.evaluate_facts(&Facts::new(&random::koan(rng, set, max_pieces))))
        .count();
    obeying as f64 / samples.max(1) as f64
}

/// The evaluation benchmark's workload: every shipped pool pattern, compiled, and
/// seeded random structures of 1 to 8 pieces for each piece set.
pub struct EvalWorkload {
    /// Every entry of the shipped pools, with its compiled pattern.
    pub patterns: Vec<(PoolEntry, CompiledPattern)>,
    structures: Vec<(PieceSet, Vec<Koan>)>,
}

impl EvalWorkload {
    /// `count` structures per piece set, the same for every run with the same seed.
    pub fn new(seed: u64, count: usize) -> EvalWorkload {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let patterns = PieceSet::ALL
            .iter()
            .flat_map(|&set| Pool::shipped(set).entries().to_vec())
            .map(|e| {
                let compiled = e.compile();
                (e, compiled)
            })
            .collect();
        let structures = PieceSet::ALL
            .iter()
            .map(|&set| {
                let koans = (0..count).map(|_| random::koan(&mut rng, set, 8)).collect();
                (set, koans)
            })
            .collect();
        EvalWorkload {
            patterns,
            structures,
        }
    }

    /// The random structures of a piece set.
    pub fn structures(&self, set: PieceSet) -> &[Koan] {
        self.structures
            .iter()
            .find(|(s, _)| *s == set)
            .map_or(&[], |(_, k)| k)
    }
}

/// A pool file of `entries` valid entries cycling over the shipped pyramids pool's
/// patterns (ids `e1`, `e2`, ...), each entry 7 lines long, the first at line 3:
/// the workload of `mondo bench pool` and of the test that a big pool reads with
/// its line numbers right.
pub fn large_pool(entries: usize) -> String {
    let shipped = Pool::shipped(PieceSet::Pyramids);
    let mut text = String::from("set = \"pyramids\"\n\n");
    for (n, e) in (1..=entries).zip(shipped.entries().iter().cycle()) {
        text.push_str(&format!(
            "[[entry]]\nid = \"e{n}\"\npattern = {:?}\nobeys = \"{}\"\ndoes_not_obey = \"{}\"\n\
             difficulty = \"{}\"\n\n",
            e.pattern.source,
            e.obeys.to_line(),
            e.does_not_obey.to_line(),
            e.difficulty,
        ));
    }
    text
}
