//! Whole matches between two seats (AI levels, or a random legal player), played
//! through the umpire on a virtual clock: every move the AI makes is one the umpire
//! accepts or the match reports the refusal. The umpire holds the game; each seat
//! gets its [`PlayerView`](crate::rules::bluffs::PlayerView) and nothing else. The
//! tests and the figures driver use it (`mondo bench ai --game bluffs` plays the same
//! seats through `student::arena`, on the game's own deadlines).

use super::BluffsAi;
use crate::lang::tiles::Subset;
use crate::rules::bluffs::{Bluffs, Ending, Move, PhaseName, PlayerView, Settings, Setup, Who};
use crate::rules::{Millis, PlayerId, Seat};
use crate::student::Level;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Ai(Level),
    /// Legal moves drawn at random: any legal subset, statements of the AI's
    /// catalogue the umpire accepts on it, random marks and reveals, and now and then
    /// a random layout guess.
    Random,
}

/// Rounds after which a match is called off (no result).
pub const MAX_ROUNDS: u32 = 60;

/// How a match went.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The winning seat's index; `None` for no winner.
    pub winner: Option<usize>,
    pub ending: Option<Ending>,
    pub rounds: u32,
    /// Moves the umpire refused, and any other failure.
    pub errors: Vec<String>,
    /// Each AI move's thinking time on the caller's clock, with the seat.
    pub think: Vec<(usize, u64)>,
    /// Facts an AI found contradicting what it believed (a wrong inference).
    pub contradictions: usize,
    /// Every move the umpire took, with the seat that made it, in order.
    pub moves: Vec<(usize, Move)>,
}

enum Sitter {
    Ai(Box<BluffsAi>),
    Random(Xoshiro256PlusPlus),
}

/// Plays one match to its end (or [`MAX_ROUNDS`]); `clock` says the time in the
/// caller's units, read around each AI move.
pub fn play(
    players: [Player; 2],
    seed: u64,
    settings: &Settings,
    clock: &mut dyn FnMut() -> u64,
) -> Outcome {
    play_restarting(players, seed, settings, clock, None)
}

/// [`play`], each AI seat made anew when round `restart` begins (a restart of the
/// program) and given every view its player had so far ([`BluffsAi::recall`]).
pub fn play_restarting(
    players: [Player; 2],
    seed: u64,
    settings: &Settings,
    clock: &mut dyn FnMut() -> u64,
    restart: Option<u32>,
) -> Outcome {
    let mut out = Outcome::default();
    let setup = Setup {
        players: [PlayerId(1), PlayerId(2)],
        seed,
        settings: settings.clone(),
    };
    let mut game = match Bluffs::start(setup, 0) {
        Ok((g, _)) => g,
        Err(e) => {
            out.errors.push(e.to_string());
            return out;
        }
    };
    let seat_seed = |i: usize| {
        seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(i as u64 + 1)
    };
    let mut sitters = [0usize, 1].map(|i| match players[i] {
        Player::Ai(level) => Sitter::Ai(Box::new(BluffsAi::new(level, settings, seat_seed(i)))),
        Player::Random => Sitter::Random(Xoshiro256PlusPlus::seed_from_u64(seat_seed(i))),
    });
    // The views each seat had, while a restart is to come.
    let mut seen: [Vec<PlayerView>; 2] = Default::default();
    let mut now: Millis = 0;
    let mut refused: [Option<(u32, PhaseName)>; 2] = [None, None];
    let mut previous: [Option<Subset>; 2] = [None, None];
    while !game.is_over() && game.round() <= MAX_ROUNDS {
        let mut moved = false;
        for (s, sitter) in sitters.iter_mut().enumerate() {
            let seat = Seat(s as u8);
            let view = game.view(seat);
            if let (Some(r), Sitter::Ai(ai)) = (restart, &mut *sitter) {
                if r == view.round && !seen[s].is_empty() {
                    let mut fresh = BluffsAi::new(ai.level(), settings, seat_seed(s));
                    for v in std::mem::take(&mut seen[s]) {
                        fresh.recall(&v);
                    }
                    **ai = fresh;
                } else if r > view.round && seen[s].last() != Some(&view) {
                    seen[s].push(view.clone());
                }
            }
            if refused[s] == Some((view.round, view.phase)) {
                continue;
            }
            let mv = match sitter {
                Sitter::Ai(ai) => {
                    let t0 = clock();
                    let mv = ai.act(&view);
                    if mv.is_some() {
                        out.think.push((s, clock().saturating_sub(t0)));
                    }
                    mv
                }
                Sitter::Random(rng) => {
                    super::random::random_move(rng, &view, &mut previous[s], settings)
                }
            };
            let Some(mv) = mv else { continue };
            match game.play(Who::Player(seat), &mv, now) {
                Ok(_) => {
                    moved = true;
                    out.moves.push((s, mv.clone()));
                    if let Sitter::Ai(ai) = sitter {
                        ai.made(&mv);
                    }
                }
                Err(e) => {
                    out.errors
                        .push(format!("seat {s}, round {}: {mv:?}: {e}", view.round));
                    refused[s] = Some((view.round, view.phase));
                }
            }
            now += 1;
        }
        if !moved {
            let Some(at) = game.next_deadline() else {
                break;
            };
            now = now.max(at);
            if let Err(e) = game.play(Who::Umpire, &Move::Tick, now) {
                out.errors.push(format!("tick: {e}"));
                break;
            }
        }
    }
    out.rounds = game.round();
    if let Some((winner, ending)) = game.outcome() {
        out.winner = winner.map(|s| s.index());
        out.ending = Some(ending);
    }
    for s in &sitters {
        if let Sitter::Ai(ai) = s {
            out.contradictions += ai.contradictions;
        }
    }
    out
}
