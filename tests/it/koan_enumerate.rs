//! Enumeration of structures: golden counts, completeness against brute force, the
//! documented order (which also rules out duplicates), and the exact count formula.

use mondo::koan::enumerate::{self, Shape};
use mondo::{Koan, Piece, PieceSet, Pos};
use num_bigint::BigUint;
use std::collections::HashSet;
use std::ops::ControlFlow;

/// Pyramids 12, 8,640, 2,280,960 and arrows 4, 960, 84,480: the structures of 1, 2
/// and 3 pieces, a structure moved being the same structure.
const GOLDEN: [(PieceSet, usize, u64); 6] = [
    (PieceSet::Pyramids, 1, 12),
    (PieceSet::Pyramids, 2, 8_640),
    (PieceSet::Pyramids, 3, 2_280_960),
    (PieceSet::Arrows, 1, 4),
    (PieceSet::Arrows, 2, 960),
    (PieceSet::Arrows, 3, 84_480),
];

/// The documented order's key: area, height, cells, pieces. It determines the structure,
/// so a strictly increasing key also means no structure comes twice.
type Key = (u32, u8, Vec<Pos>, Vec<Piece>);

fn key(k: &Koan) -> Key {
    let (cells, pieces) = k.pieces().iter().copied().unzip();
    (k.area(), k.height(), cells, pieces)
}

/// Checks everything a walked structure must be, returning its key.
fn check(set: PieceSet, n: usize, k: &Koan) -> Key {
    assert_eq!(k.set(), set);
    assert_eq!(k.len(), n);
    // Valid and normalised: building it afresh from its own pieces gives it back.
    let rebuilt = Koan::new(
        set,
        k.pieces()
            .iter()
            .map(|&(p, x)| (p.row as i32, p.col as i32, x)),
    )
    .unwrap();
    assert_eq!(&rebuilt, k);
    assert_eq!(rebuilt.window(), k.window(), "window out of step for {k:?}");
    assert_eq!((rebuilt.width(), rebuilt.height()), (k.width(), k.height()));
    key(k)
}

#[test]
fn golden_counts_order_and_validity() {
    for (set, n, expected) in GOLDEN {
        let mut seen = 0u64;
        let mut last: Option<Key> = None;
        let flow: ControlFlow<()> = enumerate::for_each(set, n, |k| {
            let key = check(set, n, k);
            if let Some(last) = &last {
                assert!(*last < key, "{set} k={n}: {last:?} then {key:?}");
            }
            last = Some(key);
            seen += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(flow, ControlFlow::Continue(()));
        assert_eq!(seen, expected, "{set} with {n} pieces");
        assert_eq!(enumerate::count(set, n), BigUint::from(expected));
    }
}

#[test]
fn the_iterator_and_the_walk_agree() {
    for set in PieceSet::ALL {
        let from_iter: Vec<Koan> = enumerate::koans(set, 2).collect();
        let mut walk = enumerate::walk(set, 2);
        let mut from_walk = Vec::new();
        while let Some(k) = walk.advance() {
            from_walk.push(k.clone());
        }
        // A finished walk stays finished.
        assert!(walk.advance().is_none());
        assert_eq!(from_iter, from_walk);
        // Split by shape, the walk gives the same sequence again.
        let by_shape: Vec<Koan> = enumerate::shapes(2)
            .flat_map(|shape| {
                let mut walk = enumerate::walk_shape(set, shape);
                let mut out = Vec::new();
                while let Some(k) = walk.advance() {
                    out.push(k.clone());
                }
                out
            })
            .collect();
        assert_eq!(by_shape, from_iter);
    }
}

/// Every way of putting `n` pieces on the 6 x 6 window, normalised: an independent
/// route to the set of all structures.
fn brute_force(set: PieceSet, n: usize) -> HashSet<Koan> {
    let pieces = set.pieces();
    let mut out = HashSet::new();
    let cells: Vec<(i32, i32)> = (0..6).flat_map(|r| (0..6).map(move |c| (r, c))).collect();
    // Partial placements: the next cell index to consider, and the pieces so far.
    type Partial = (usize, Vec<(i32, i32, Piece)>);
    let mut stack: Vec<Partial> = vec![(0, Vec::new())];
    while let Some((from, placed)) = stack.pop() {
        if placed.len() == n {
            out.insert(Koan::new(set, placed).unwrap());
            continue;
        }
        for (i, &(r, c)) in cells.iter().enumerate().skip(from) {
            for &p in pieces {
                let mut next = placed.clone();
                next.push((r, c, p));
                stack.push((i + 1, next));
            }
        }
    }
    out
}

#[test]
fn enumeration_is_complete_and_has_no_duplicates() {
    for set in PieceSet::ALL {
        for n in 1..=2 {
            let listed: Vec<Koan> = enumerate::koans(set, n).collect();
            let distinct: HashSet<Koan> = listed.iter().cloned().collect();
            assert_eq!(distinct.len(), listed.len(), "{set} k={n} has duplicates");
            assert_eq!(distinct, brute_force(set, n), "{set} k={n}");
        }
    }
    let arrows3: HashSet<Koan> = enumerate::koans(PieceSet::Arrows, 3).collect();
    assert_eq!(arrows3.len(), 84_480);
}

#[test]
fn shapes_are_distinct_normalised_and_ordered() {
    for n in 1..=4 {
        let shapes: Vec<Shape> = enumerate::shapes(n).collect();
        assert_eq!(shapes.len() as u64, enumerate::count_shapes(n), "k={n}");
        let distinct: HashSet<&Shape> = shapes.iter().collect();
        assert_eq!(distinct.len(), shapes.len());
        for s in &shapes {
            assert_eq!(s.cells().len(), n);
            assert_eq!(s.cells().iter().map(|p| p.row).min(), Some(0));
            assert_eq!(s.cells().iter().map(|p| p.col).min(), Some(0));
            assert_eq!(s.cells().iter().map(|p| p.row).max(), Some(s.height() - 1));
            assert_eq!(s.cells().iter().map(|p| p.col).max(), Some(s.width() - 1));
        }
        let keys: Vec<(u32, u8, &[Pos])> = shapes
            .iter()
            .map(|s| (s.width() as u32 * s.height() as u32, s.height(), s.cells()))
            .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "k={n} out of order");
    }
    assert_eq!(enumerate::shapes(0).count(), 0);
    assert_eq!(enumerate::shapes(37).count(), 0);
    // The first shapes with two cells: by area, then flatter first, then by cells.
    let first: Vec<String> = enumerate::shapes(2)
        .take(8)
        .map(|s| {
            let k = s.koan(PieceSet::Arrows, &[PieceSet::Arrows.pieces()[0]; 2]);
            k.unwrap().to_line()
        })
        .collect();
    assert_eq!(
        first,
        [
            "U U",
            "U / U",
            "U . U",
            "U / . / U",
            "U . . U",
            "U . / . U",
            ". U / U .",
            "U / . / . / U",
        ]
    );
    assert_eq!(
        enumerate::koans(PieceSet::Pyramids, 1)
            .map(|k| k.to_line())
            .collect::<Vec<_>>(),
        [
            "1^", "1>", "1v", "1<", "2^", "2>", "2v", "2<", "3^", "3>", "3v", "3<"
        ]
    );
}

/// Shapes counted by dynamic programming over the 36 cells (does each cell hold one, and
/// has row 0 / column 0 been touched), independent of the binomial formula.
fn shapes_by_dp() -> Vec<u64> {
    // dp[n][touched_row0][touched_col0]
    let mut dp = vec![[[0u64; 2]; 2]; 37];
    dp[0][0][0] = 1;
    for cell in 0..36 {
        let (r, c) = (cell / 6, cell % 6);
        let mut next = vec![[[0u64; 2]; 2]; 37];
        for n in 0..=36 {
            for a in 0..2 {
                for b in 0..2 {
                    let ways = dp[n][a][b];
                    next[n][a][b] += ways;
                    if n < 36 {
                        let a2 = a | usize::from(r == 0);
                        let b2 = b | usize::from(c == 0);
                        next[n + 1][a2][b2] += ways;
                    }
                }
            }
        }
        dp = next;
    }
    dp.iter().map(|d| d[1][1]).collect()
}

#[test]
fn count_is_exact_for_every_k() {
    let dp = shapes_by_dp();
    for (n, &expected) in dp.iter().enumerate() {
        assert_eq!(
            enumerate::count_shapes(n),
            expected,
            "shapes with {n} cells"
        );
        for set in PieceSet::ALL {
            let per_cell = BigUint::from(set.pieces().len());
            assert_eq!(
                enumerate::count(set, n),
                BigUint::from(expected) * per_cell.pow(n as u32)
            );
        }
    }
    assert_eq!(enumerate::count(PieceSet::Pyramids, 0), BigUint::ZERO);
    assert_eq!(enumerate::count(PieceSet::Pyramids, 37), BigUint::ZERO);
    // A full 6 x 6 box: one shape, 12^36 structures.
    assert_eq!(
        enumerate::count(PieceSet::Pyramids, 36).to_string(),
        "708801874985091845381344307009569161216"
    );
    // Summed over every k: all non-empty subsets of the window touching row 0 and
    // column 0, 2^36 - 2 * 2^30 + 2^25.
    let total: u64 = (1..=36).map(enumerate::count_shapes).sum();
    assert_eq!(total, (1 << 36) - (1 << 31) + (1 << 25));
    assert_eq!(enumerate::count_shapes(35), 36);
}
