//! The student in a Zendo Duel seat: from the player's view alone (a [`DuelView`],
//! which never holds the hidden pattern) it chooses its move as a person would type
//! it. And whole duels between two students on the real rules with a fake clock,
//! for tests and `mondo bench ai`.
//!
//! How it plays (docs/ai.md): with a ticket and a leading rule it guesses; without a
//! ticket, once one rule leads, it challenges with the structure it is surest of (a
//! right answer earns a ticket); otherwise it observes the structure that splits its
//! rules best. It answers every challenge by the surviving weight, passing only when
//! that weight is split evenly.

use super::{Budget, Decision, Space, Student};
use crate::koan::{Koan, PieceSet};
use crate::lang::Pattern;
use crate::rules::zendo::{
    Answer, Duel, DuelMove, DuelSetup, DuelView, Mode, PhaseView, StepView, ZendoMove,
};
use crate::rules::{Action, Actor, Game, Millis, PlayerId, Seat, Viewer};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Below this distance from an even split, a challenge answer is a bad bet: pass.
pub const PASS_BELOW: f64 = 0.02;

/// The student's move now, if it has one, from what its player sees. `now` says the
/// caller's time; `budget` bounds the thinking.
pub fn duel_move(
    student: &mut Student,
    view: &DuelView,
    budget: Budget,
    now: &mut dyn FnMut() -> u64,
) -> Option<DuelMove> {
    student.observe_table(&view.table);
    let me = view.you?;
    if view.outcome.is_some() || view.paused {
        return None;
    }
    let my_id = *view.players.get(me)?;
    match &view.phase {
        PhaseView::ChoosingStarter => (view.advantage == me)
            .then_some(DuelMove::Zendo(ZendoMove::ChooseStarter { starter: my_id })),
        PhaseView::Over => None,
        PhaseView::Turn { seat, step } => match step {
            StepView::Challenge { koan, yours, .. } => {
                if yours.is_some() {
                    return None;
                }
                Some(DuelMove::Answer {
                    answer: answer_to(student, koan),
                })
            }
            _ if *seat != me => None,
            // Lost (no rule it knows fits the table): it builds no more and lets its
            // turns run out, so the duel's own limits end the match.
            StepView::Build if student.stuck() => None,
            StepView::Build => {
                let tickets = view.tickets.get(me).copied().unwrap_or(0);
                let (koan, for_ticket) = structure(student, tickets, budget, now);
                let mode = if for_ticket {
                    Mode::Challenge
                } else {
                    Mode::Observe
                };
                Some(DuelMove::Build { koan, mode })
            }
            StepView::Guess => {
                let tickets = view.tickets.get(me).copied().unwrap_or(0);
                match guess(student, tickets, view.settings.set, budget, now) {
                    Some(pattern) => Some(DuelMove::Guess { pattern }),
                    None => Some(DuelMove::Zendo(ZendoMove::EndTurn)),
                }
            }
            StepView::Pending { .. } => Some(DuelMove::Zendo(ZendoMove::Confirm)),
            StepView::Verdict { .. } => None,
        },
    }
}

/// The student's private answer to a challenge (or a mondo): by the surviving weight,
/// a pass when that weight is split evenly.
pub(super) fn answer_to(student: &mut Student, koan: &Koan) -> Answer {
    match student.answer(koan, PASS_BELOW) {
        Some(true) => Answer::Obeys,
        Some(false) => Answer::Not,
        None => Answer::Pass,
    }
}

/// What the student builds with `tokens` (tickets, stones) in hand: with none and a
/// rule in the lead, the structure it is surest of, to be answered for a token
/// (`true`); otherwise the structure that splits its rules best (`false`).
pub(super) fn structure(
    student: &mut Student,
    tokens: u32,
    budget: Budget,
    now: &mut dyn FnMut() -> u64,
) -> (Koan, bool) {
    let leads = student.summary().leader_share >= student.level().guess_threshold();
    if tokens == 0 && leads {
        (student.surest().0, true)
    } else {
        (student.best_experiment(budget, now).koan, false)
    }
}

/// The student's guess with `tokens` in hand, if it makes one (else it ends its turn).
pub(super) fn guess(
    student: &mut Student,
    tokens: u32,
    set: PieceSet,
    budget: Budget,
    now: &mut dyn FnMut() -> u64,
) -> Option<Pattern> {
    if tokens == 0 {
        return None;
    }
    match student.decide(budget, now, false) {
        Decision::Guess { text, .. } => {
            student.guessed(&text);
            crate::lang::read_for(&text, set).ok()
        }
        Decision::Build(_) => None,
    }
}

/// How a duel between two students went.
#[derive(Clone, Debug, PartialEq)]
pub struct DuelResult {
    pub winner: Option<Seat>,
    /// The match ended (a winner, or the rules ended it) before `max_moves`.
    pub ended: bool,
    pub turns: u32,
    pub moves: usize,
    /// Structures the students built, and those on which every rule the builder
    /// still believed agreed (its belief could not change, whatever the verdict).
    pub built: usize,
    pub useless: usize,
}

/// Two students play `setup` on the real rules with a fake clock: each move takes
/// `think_ms` of it, the umpire judges at once, deadlines are run out when nobody can
/// move. `students[i]` plays seat i.
pub fn duel(
    setup: DuelSetup,
    students: [Student; 2],
    think_ms: Millis,
    max_moves: usize,
) -> Result<DuelResult, String> {
    let players: [PlayerId; 2] = setup.players;
    let (game, _) = Duel::start(setup, 0).map_err(|e| e.to_string())?;
    let mut students = students;
    let (mut built, mut useless) = (0, 0);
    let (game, moves) = play_out(
        game,
        &players,
        think_ms,
        max_moves,
        |i, view, budget, now| {
            let m = duel_move(&mut students[i], view, budget, now);
            if let Some(DuelMove::Build { koan, .. }) = &m {
                let (yes, no) = students[i].splits(koan);
                built += 1;
                useless += usize::from(yes == 0 || no == 0);
            }
            m
        },
    )?;
    let view = game.view(&Viewer::Spectator);
    Ok(DuelResult {
        winner: view.winner,
        ended: game.is_over(),
        turns: view.turn,
        moves,
        built,
        useless,
    })
}

/// Plays a game on its real rules with a fake clock until it is over or `max_moves`
/// were made: each seat's mover is asked in turn for its move from its player's view
/// (each move takes `think_ms`); when nobody moves, the umpire's work is done at once,
/// else the clock runs out to the next deadline. The game as it ended, and the moves.
pub fn play_out<G: Game>(
    mut game: G,
    players: &[PlayerId],
    think_ms: Millis,
    max_moves: usize,
    mut mover: impl FnMut(usize, &G::View, Budget, &mut dyn FnMut() -> u64) -> Option<G::Move>,
) -> Result<(G, usize), String> {
    let mut clock: Millis = 0;
    let mut moves = 0;
    let mut steps = 0u64;
    while !game.is_over() && moves < max_moves {
        let mut acted = false;
        for (i, player) in players.iter().enumerate() {
            let view = game.view(&Viewer::Player(*player));
            // The step counter stands in for a clock inside the student.
            let mut tick = || {
                steps += 1;
                steps
            };
            let budget = Budget {
                evaluations: 2_000_000,
                deadline: u64::MAX,
            };
            let Some(m) = mover(i, &view, budget, &mut tick) else {
                continue;
            };
            clock += think_ms;
            match game.play(&Actor::Player(*player), &Action::Move(m), clock) {
                Ok(_) => {
                    acted = true;
                    moves += 1;
                }
                Err(e) => return Err(format!("the rules refused the student's move: {e}")),
            }
            if game.is_over() {
                break;
            }
        }
        if game.is_over() || acted {
            continue;
        }
        if let Some((_, job)) = game.work() {
            let answer = G::perform(job, Arc::new(AtomicBool::new(false)));
            game.play(&Actor::Umpire, &Action::Move(answer), clock)
                .map_err(|e| format!("the rules refused the umpire: {e}"))?;
            continue;
        }
        let Some(deadline) = game.next_deadline() else {
            break;
        };
        clock = clock.max(crate::rules::Deadline::at(&deadline));
        game.play(&Actor::Umpire, &Action::Timeout { deadline }, clock)
            .map_err(|e| format!("the rules refused a time-out: {e}"))?;
    }
    Ok((game, moves))
}

/// A student for each seat over shared spaces.
pub fn pair(space: &Arc<Space>, levels: [super::Level; 2], seed: u64) -> [Student; 2] {
    [
        Student::new(space.clone(), levels[0], seed),
        Student::new(space.clone(), levels[1], seed.wrapping_add(1)),
    ]
}
