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

/// How many random groups a round draws before it settles for a question an earlier
/// round asked (only a grid too small to hold enough different questions gets there).
const TRIES: usize = 200;

/// For each round (its shape size given), `per_round` targets drawn from random groups
/// of `grid`. No round asks what an earlier round of the match asked, or what `asked`
/// holds (the questions of rounds before these, on this or an earlier grid): the same
/// shape (up to rotation and reflection) with the same contents would let an earlier
/// public answer be given again. Targets within a round differ too. Only when a grid
/// is too small to hold a new question within [`TRIES`] draws may a round repeat an
/// earlier one (never one of its own); a round is never left without a target.
pub fn generate_targets(
    grid: &Grid,
    sizes: &[u8],
    per_round: usize,
    asked: &[(Shape, Contents)],
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Vec<Target>> {
    let mut seen: Vec<(Shape, Contents)> = asked.to_vec();
    let per_round = per_round.max(1);
    sizes
        .iter()
        .map(|&size| {
            let mut round: Vec<Target> = Vec::with_capacity(per_round);
            let mut tries = 0;
            while round.len() < per_round && tries < TRIES * per_round * 2 {
                tries += 1;
                let example = random_group(grid.dims(), size as usize, rng);
                let Some(shape) = Shape::of(&example) else {
                    continue;
                };
                let contents = Contents::of(grid, &example);
                let this_round = round
                    .iter()
                    .any(|t| t.shape == shape && t.contents == contents);
                let before = seen.iter().any(|(s, c)| *s == shape && *c == contents);
                // The second half of the tries settles for an earlier round's question.
                if this_round || (before && tries <= TRIES * per_round) {
                    continue;
                }
                round.push(Target {
                    shape,
                    contents,
                    example,
                });
            }
            seen.extend(round.iter().map(|t| (t.shape.clone(), t.contents)));
            round
        })
        .collect()
}
