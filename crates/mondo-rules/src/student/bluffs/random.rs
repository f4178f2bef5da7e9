//! The random legal player: legal moves drawn at random (any legal subset, statements
//! of the AI's catalogue the umpire accepts on it, random marks and reveals, and now and
//! then a random layout guess), as the baseline the beginner is measured against, in
//! [`duel`](super::duel) matches and as an [`Ai`](crate::student::Ai) seat.

use super::says::{Candidate, catalogue};
use super::{Asked, subset_of};
use crate::lang::tiles::eval::Geometry;
use crate::lang::tiles::{Cell, Colour, Layout, Subset};
use crate::rules::Millis;
use crate::rules::bluffs::{
    BluffsView, Move, PhaseName, PlayerView, RevealState, STATEMENTS, Settings,
};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// A random legal move for the view, if the seat owes one.
pub(super) fn random_move(
    rng: &mut Xoshiro256PlusPlus,
    v: &PlayerView,
    previous: &mut Option<Subset>,
    settings: &Settings,
) -> Option<Move> {
    match v.phase {
        PhaseName::Bluffing if v.own.is_none() => {
            let shapes = super::shapes();
            for _ in 0..1000 {
                let mask = shapes[rng.random_range(0..shapes.len())];
                let Some(subset) = subset_of(mask) else {
                    continue;
                };
                if previous
                    .as_ref()
                    .is_some_and(|p| subset.shared(p) >= subset.len() / 2)
                {
                    continue;
                }
                let g = Geometry::new(&subset);
                let mut texts: Vec<String> = Vec::new();
                for _ in 0..200 {
                    let i = rng.random_range(0..catalogue().len());
                    let said = &catalogue()[i];
                    if !texts.contains(&said.text)
                        && Candidate::on(i, said, &g, settings.max_words).is_some()
                    {
                        texts.push(said.text.clone());
                    }
                    if texts.len() == STATEMENTS {
                        *previous = Some(subset.clone());
                        return Some(Move::Bluff {
                            subset: subset.to_string(),
                            statements: texts,
                            no_limit: false,
                            smokescreen: None,
                        });
                    }
                }
            }
            None
        }
        PhaseName::Claiming if v.marks.is_none() => v.opponent.as_ref().map(|o| Move::Claim {
            marks: o
                .statements
                .iter()
                .map(|s| s.as_ref().map(|_| rng.random_bool(0.5)))
                .collect(),
        }),
        PhaseName::Reveal => match v.reveal {
            RevealState::Pending if rng.random_bool(0.1) => {
                let mut colours = [Colour::Red; 16];
                for c in colours.iter_mut() {
                    *c = Colour::from_index(rng.random_range(0..4));
                }
                for (cell, colour) in &v.known {
                    colours[cell.index()] = *colour;
                }
                Some(Move::Guess {
                    layout: Layout(colours),
                })
            }
            RevealState::Pending if !v.barred && v.rp >= settings.reveal_cost => {
                let open: Vec<Cell> = Cell::all()
                    .filter(|c| v.known.iter().all(|(k, _)| k != c))
                    .collect();
                (!open.is_empty()).then(|| Move::Reveal {
                    tiles: vec![open[rng.random_range(0..open.len())]],
                })
            }
            RevealState::Pending | RevealState::Revealing => Some(Move::Pass),
            _ => None,
        },
        _ => None,
    }
}

/// The random legal player as an [`Ai`](crate::student::Ai), so that `student::arena` (and `mondo bench ai --game bluffs`) can seat it: its move is
/// drawn once per step of a phase (asked again on the same step, it says the same
/// move) and made a second after it first saw that step.
pub struct RandomPlayer {
    rng: Xoshiro256PlusPlus,
    previous: Option<Subset>,
    /// The step it last drew a move for, and the move and when it is due.
    drawn: Option<(Asked, Option<Move>, Millis)>,
}

/// How long the random player takes over a move, game-clock milliseconds.
const RANDOM_DELAY: Millis = 1_000;

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            previous: None,
            drawn: None,
        }
    }
}

impl crate::student::Ai for RandomPlayer {
    type View = BluffsView;
    type Move = Move;

    fn next(&mut self, view: &BluffsView, now: Millis) -> Option<crate::student::Plan<Move>> {
        if view.paused {
            return None;
        }
        let v = view.mine.as_ref()?;
        let step = Asked::of(v);
        let (m, due) = match &self.drawn {
            Some((s, m, due)) if *s == step => (m.clone(), *due),
            _ => {
                let m = random_move(&mut self.rng, v, &mut self.previous, &view.settings);
                let due = now + RANDOM_DELAY;
                self.drawn = Some((step, m.clone(), due));
                (m, due)
            }
        };
        m.map(|m| crate::student::Plan::at(m, due, now))
    }
}
