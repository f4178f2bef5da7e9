//! Seeded generation: a random grid, and targets drawn from groups that really exist
//! in it, so that every round has a solution.

use super::{Cell, Contents, Dims, Grid, Group, Shape, Symbol};
use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

/// What a round asks for, with one group of the grid that answers it (the witness
/// that a solution exists).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    pub shape: Shape,
    pub contents: Contents,
    pub example: Group,
}

/// A grid whose every cell is drawn uniformly from the three symbols.
pub fn generate_grid(dims: Dims, rng: &mut Xoshiro256PlusPlus) -> Grid {
    let cells = (0..dims.area())
        .map(|_| Symbol::ALL[rng.random_range(0..3)])
        .collect();
    Grid::from_cells(dims, cells).expect("one symbol per cell")
}

/// A random connected group of `size` cells (fewer if the grid is smaller): a random
/// start, grown by a random neighbour of the cells so far.
pub fn random_group(dims: Dims, size: usize, rng: &mut Xoshiro256PlusPlus) -> Group {
    let size = size.min(dims.area());
    if size == 0 {
        return Group::new(Vec::new());
    }
    let start = Cell::new(
        rng.random_range(0..dims.rows),
        rng.random_range(0..dims.cols),
    );
    let mut cells = vec![start];
    let mut frontier: Vec<Cell> = Vec::new();
    while cells.len() < size {
        frontier.clear();
        for c in &cells {
            for n in c.neighbours(dims) {
                if !cells.contains(&n) && !frontier.contains(&n) {
                    frontier.push(n);
                }
            }
        }
        // A connected group smaller than the grid always has a neighbour outside it.
        let Some(&next) = frontier.get(rng.random_range(0..frontier.len().max(1))) else {
            break;
        };
        cells.push(next);
    }
    Group::new(cells)
}

/// For each round (its shape size given), `per_round` targets drawn from random groups
/// of `grid`, different from each other within the round as far as the grid allows.
pub fn generate_targets(
    grid: &Grid,
    sizes: &[u8],
    per_round: usize,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Vec<Target>> {
    sizes
        .iter()
        .map(|&size| {
            let mut round: Vec<Target> = Vec::with_capacity(per_round);
            // Distinct targets; a small grid may not have enough, so tries are bounded.
            for _ in 0..per_round.max(1) * 50 {
                if round.len() == per_round.max(1) {
                    break;
                }
                let example = random_group(grid.dims(), size as usize, rng);
                let Some(shape) = Shape::of(&example) else {
                    continue;
                };
                let contents = Contents::of(grid, &example);
                if round
                    .iter()
                    .all(|t| t.shape != shape || t.contents != contents)
                {
                    round.push(Target {
                        shape,
                        contents,
                        example,
                    });
                }
            }
            round
        })
        .collect()
}
