//! Logical Bluffs played at random by tests ([`Rehearse`]): its test match and the
//! lines its players type, mostly what the phase asks for (bluffs of four statements,
//! claims marked as the player's view allows, reveals, guesses of the layout).

use super::{Front, bluffs_setup};
use crate::Cast;
use crate::lang::tiles::{Cell, Colour, Layout};
use crate::rehearsal::{Moment, RandomPlayer, Rehearse};
use crate::rules::bluffs::PhaseName;
use crate::rules::{Actor, Secret};
use crate::runtime::{AnySetup, AnyView};
use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

impl Rehearse for Front {
    const PLAYERS: usize = 2;

    fn setup(seed: u64, cast: &Cast) -> Result<AnySetup, String> {
        bluffs_setup(cast, seed, Default::default()).map(AnySetup::Bluffs)
    }

    fn player(_first: &Moment<'_>) -> Box<dyn RandomPlayer> {
        Box::new(Player)
    }
}

struct Player;

const SUBSETS: [&str; 8] = [
    "A1-A2-B1-B2",
    "C3-C4-D3-D4",
    "A1-A2-A3-A4",
    "B1-B2-B3-B4-C1",
    "D1-D2-D3-D4",
    "A3-A4-B3-B4",
    "C1-C2-D1-D2-D3",
    "B2-B3-C2-C3",
];

const STATEMENTS: [&str; 10] = [
    "There is a red tile.",
    "There is a blue tile.",
    "There is a green tile.",
    "There is a yellow tile.",
    "There are two red tiles.",
    "No two adjacent tiles are the same colour.",
    "There is a blue tile orthogonally adjacent to a green tile.",
    "exists x. red(x)",
    "The leftmost tile is red.",
    "count(x: red(x)) >= 2 & count(x: blue(x)) >= 1 & count(x: green(x)) >= 1",
];

impl RandomPlayer for Player {
    fn line(&mut self, now: &Moment<'_>, rng: &mut Xoshiro256PlusPlus, who: &str) -> String {
        // Mostly what the phase asks for.
        let r = match now.spectator {
            AnyView::Bluffs(v) if rng.random_bool(0.7) => match v.phase {
                PhaseName::Bluffing => 0,
                PhaseName::Claiming => rng.random_range(30..55),
                _ => rng.random_range(55..100),
            },
            _ => rng.random_range(0..100),
        };
        match r {
            0..=29 => {
                let subset = if rng.random_bool(0.05) {
                    "A1-B2-C3-D4-A4-D1-B3-C2-A2".to_string()
                } else {
                    SUBSETS[rng.random_range(0..SUBSETS.len())].to_string()
                };
                let statements: Vec<&str> = (0..4)
                    .map(|_| {
                        if rng.random_bool(0.6) {
                            STATEMENTS[rng.random_range(0..4)]
                        } else {
                            STATEMENTS[rng.random_range(0..STATEMENTS.len())]
                        }
                    })
                    .collect();
                let mut line = format!("{who}bluff {subset}; {}", statements.join("; "));
                if rng.random_bool(0.1) {
                    line.push_str("; nolimit");
                }
                if rng.random_bool(0.15) {
                    line.push_str(&format!("; smoke {}", rng.random_range(1..=4)));
                }
                line
            }
            30..=49 => {
                // Marks as the player's view allows (`-` where it must), or at random.
                let name = who.trim_end_matches(": ");
                let view = match now.cast.actor(name) {
                    Some(Actor::Player(p)) => match (now.view_of)(p) {
                        AnyView::Bluffs(v) => v.mine,
                        _ => None,
                    },
                    _ => None,
                };
                let skip: Vec<bool> = (0..4)
                    .map(|k| {
                        view.as_ref().is_some_and(|m| {
                            m.opponent
                                .as_ref()
                                .is_some_and(|o| o.statements.get(k).is_some_and(Option::is_none))
                                || m.detected.is_some_and(|(n, _)| n == k + 1)
                        })
                    })
                    .collect();
                let random = rng.random_bool(0.2);
                let marks: Vec<&str> = skip
                    .iter()
                    .map(|s| match (random, s) {
                        (true, _) => ["T", "F", "-"][rng.random_range(0..3)],
                        (false, true) => "-",
                        (false, false) => ["T", "F"][rng.random_range(0..2)],
                    })
                    .collect();
                format!("{who}claim {}", marks.join(" "))
            }
            50..=54 => format!("{who}detective {}", rng.random_range(1..=4)),
            55..=69 => {
                let n = rng.random_range(1..=2);
                let cells: Vec<String> = (0..n)
                    .filter_map(|_| Cell::from_index(rng.random_range(0..16)))
                    .map(|c| c.to_string())
                    .collect();
                format!("{who}reveal {}", cells.join(","))
            }
            70..=74 => format!("{who}declare"),
            75..=84 => {
                let layout = if rng.random_bool(0.2) {
                    // The layout (the umpire's secret; a player who types it knows it).
                    now.secrets
                        .iter()
                        .find_map(|s| match s {
                            Secret::Layout(l) => Some(*l),
                            _ => None,
                        })
                        .unwrap_or(Layout([Colour::Red; 16]))
                } else {
                    Layout(std::array::from_fn(|_| {
                        Colour::from_index(rng.random_range(0..4))
                    }))
                };
                format!("{who}guess {layout}")
            }
            _ => format!("{who}pass"),
        }
    }

    fn jump_chance(&self, spectator: &AnyView) -> f64 {
        // Bluffing and Claiming run into the reserve, which lost is the match.
        match spectator {
            AnyView::Bluffs(v) if matches!(v.phase, PhaseName::Reveal) => 0.3,
            AnyView::Bluffs(_) => 0.01,
            _ => 0.08,
        }
    }
}
