//! Pattern Assembly played at random by tests ([`Rehearse`]): its test match (the
//! original and Plus by turns, six rounds, a reveal after the third) and the lines its
//! players type (groups as random walks, showdowns from memory, the host's Plus
//! overrides).

use super::{Front, assembly_setup};
use crate::Cast;
use crate::rehearsal::{Moment, RandomPlayer, Rehearse};
use crate::rules::assembly::Settings;
use crate::runtime::{AnySetup, AnyView};
use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

impl Rehearse for Front {
    const PLAYERS: usize = 2;

    fn setup(seed: u64, cast: &Cast) -> Result<AnySetup, String> {
        let mut settings = if seed.is_multiple_of(2) {
            Settings::original()
        } else {
            Settings::plus(crate::grid::Dims { rows: 7, cols: 8 })
        };
        settings.rounds = 6;
        settings.reveal_after = vec![3];
        Ok(AnySetup::Assembly(assembly_setup(cast, seed, settings)))
    }

    fn player(_first: &Moment<'_>) -> Box<dyn RandomPlayer> {
        Box::new(Player)
    }
}

struct Player;

impl RandomPlayer for Player {
    fn line(&mut self, now: &Moment<'_>, rng: &mut Xoshiro256PlusPlus, who: &str) -> String {
        let (rows, cols, plus) = match now.spectator {
            AnyView::Assembly(v) => (v.dims.rows, v.dims.cols, v.plus),
            _ => (6, 6, false),
        };
        let r = rng.random_range(0..100);
        if r < 8 {
            // A showdown from memory: never wholly right (a blank in every row).
            let grid: Vec<String> = (0..rows)
                .map(|_| {
                    let mut cells: Vec<&str> = (0..cols)
                        .map(|_| ["O", "X", "+", "."][rng.random_range(0..4)])
                        .collect();
                    let blank = rng.random_range(0..cols as usize);
                    cells[blank] = ".";
                    cells.join(" ")
                })
                .collect();
            return format!("{who}showdown {}", grid.join(" / "));
        }
        if plus && r < 12 {
            return ["host: reveal", "host: change", "host: region B-D 2-5"]
                [rng.random_range(0..3)]
            .into();
        }
        // A group: a random walk of 3 to 6 connected cells.
        let size = rng.random_range(3..=6);
        let mut cells = vec![(rng.random_range(0..rows), rng.random_range(0..cols))];
        while cells.len() < size {
            let (r, c) = cells[rng.random_range(0..cells.len())];
            let (dr, dc) = [(0i8, 1i8), (1, 0), (0, -1), (-1, 0)][rng.random_range(0..4)];
            let (nr, nc) = (r as i8 + dr, c as i8 + dc);
            if nr >= 0 && nc >= 0 && (nr as u8) < rows && (nc as u8) < cols {
                let cell = (nr as u8, nc as u8);
                if !cells.contains(&cell) {
                    cells.push(cell);
                }
            }
        }
        let names: Vec<String> = cells
            .iter()
            .map(|(r, c)| format!("{}{}", (b'A' + r) as char, c + 1))
            .collect();
        format!("{who}answer {}", names.join("-"))
    }
}
