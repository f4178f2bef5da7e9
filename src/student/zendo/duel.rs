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
use crate::rules::zendo::{Answer, Duel, DuelMove, DuelSetup, DuelView, Mode, PhaseView, StepView};
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
        PhaseView::ChoosingStarter => {
            (view.advantage == me).then_some(DuelMove::ChooseStarter { starter: my_id })
        }
        PhaseView::Over => None,
        PhaseView::Turn { seat, step } => match step {
            StepView::Challenge { koan, yours, .. } => {
                if yours.is_some() {
                    return None;
                }
                let answer = match student.answer(koan, PASS_BELOW) {
                    Some(true) => Answer::Obeys,
                    Some(false) => Answer::Not,
                    None => Answer::Pass,
                };
                Some(DuelMove::Answer { answer })
            }
            _ if *seat != me => None,
            StepView::Build => {
                let tickets = view.tickets.get(me).copied().unwrap_or(0);
                let leads = student.summary().leader_share >= student.level().guess_threshold();
                if tickets == 0 && leads {
                    let (koan, _) = student.surest();
                    Some(DuelMove::Build {
                        koan,
                        mode: Mode::Challenge,
                    })
                } else {
                    let e = student.best_experiment(budget, now);
                    Some(DuelMove::Build {
                        koan: e.koan,
                        mode: Mode::Observe,
                    })
                }
            }
            StepView::Guess => {
                let tickets = view.tickets.get(me).copied().unwrap_or(0);
                if tickets == 0 {
                    return Some(DuelMove::EndTurn);
                }
                match student.decide(budget, now, false) {
                    Decision::Guess { text, .. } => {
                        student.guessed(&text);
                        match crate::lang::read_for(&text, view.settings.set) {
                            Ok(pattern) => Some(DuelMove::Guess { pattern }),
                            Err(_) => Some(DuelMove::EndTurn),
                        }
                    }
                    Decision::Build(_) => Some(DuelMove::EndTurn),
                }
            }
            StepView::Pending { .. } => Some(DuelMove::Confirm),
            StepView::Verdict { .. } => None,
        },
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
    let (mut game, _) = Duel::start(setup, 0).map_err(|e| e.to_string())?;
    let mut students = students;
    let mut clock: Millis = 0;
    let mut moves = 0;
    let mut steps = 0u64;
    while !game.is_over() && moves < max_moves {
        let mut acted = false;
        for (i, student) in students.iter_mut().enumerate() {
            let view = game.view(&Viewer::Player(players[i]));
            // The step counter stands in for a clock inside the student.
            let mut tick = || {
                steps += 1;
                steps
            };
            let budget = Budget {
                evaluations: 2_000_000,
                deadline: u64::MAX,
            };
            let Some(m) = duel_move(student, &view, budget, &mut tick) else {
                continue;
            };
            clock += think_ms;
            match game.play(&Actor::Player(players[i]), &Action::Move(m), clock) {
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
            let answer = Duel::perform(job, Arc::new(AtomicBool::new(false)));
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
    let view = game.view(&Viewer::Spectator);
    Ok(DuelResult {
        winner: view.winner,
        ended: game.is_over(),
        turns: view.turn,
        moves,
    })
}

/// A student for each seat over shared spaces.
pub fn pair(space: &Arc<Space>, levels: [super::Level; 2], seed: u64) -> [Student; 2] {
    [
        Student::new(space.clone(), levels[0], seed),
        Student::new(space.clone(), levels[1], seed.wrapping_add(1)),
    ]
}
