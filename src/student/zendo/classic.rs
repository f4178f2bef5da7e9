//! The student in a Zendo Classic seat: from its student's view alone (a
//! [`ClassicView`], which never holds the rule before the end) it chooses its move as a
//! person would. And whole Classic games between students on the real rules with a
//! fake clock, for tests.
//!
//! How it plays (docs/ai.md): each turn it builds the structure that splits its rules
//! best and calls `master`; once one rule leads and it has no stone, it calls `mondo`
//! on the structure it is surest of (a right answer earns a stone); with a stone and a
//! leading rule it guesses, otherwise it ends its turn. It answers every mondo by the
//! surviving weight (passing only when that weight is split evenly), and says `back`
//! if it was skipped.

use super::duel::PASS_BELOW;
use super::{Budget, Decision, Student};
use crate::rules::zendo::classic::{
    Call, Classic, ClassicMove, ClassicSetup, ClassicView, PhaseView,
};
use crate::rules::zendo::{Answer, StepView};
use crate::rules::{Action, Actor, Game, Millis, PlayerId, Seat, Viewer};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The student's move now, if it has one, from what its student sees.
pub fn classic_move(
    student: &mut Student,
    view: &ClassicView,
    budget: Budget,
    now: &mut dyn FnMut() -> u64,
) -> Option<ClassicMove> {
    student.observe_table(&view.table);
    let me = view.you?;
    if view.outcome.is_some() || view.paused || view.left.get(me).copied().unwrap_or(true) {
        return None;
    }
    if view.away.get(me).copied().unwrap_or(false) {
        return Some(ClassicMove::Back);
    }
    let PhaseView::Turn { seat, step } = &view.phase else {
        return None;
    };
    let stones = view.stones.get(me).copied().unwrap_or(0);
    match step {
        StepView::Challenge { koan, yours, .. } => {
            if yours.is_some() {
                return None;
            }
            let answer = match student.answer(koan, PASS_BELOW) {
                Some(true) => Answer::Obeys,
                Some(false) => Answer::Not,
                None => Answer::Pass,
            };
            Some(ClassicMove::Answer { answer })
        }
        _ if *seat != me => None,
        StepView::Build => {
            let leads = student.summary().leader_share >= student.level().guess_threshold();
            if stones == 0 && leads {
                let (koan, _) = student.surest();
                Some(ClassicMove::Build {
                    koan,
                    call: Call::Mondo,
                })
            } else {
                let e = student.best_experiment(budget, now);
                Some(ClassicMove::Build {
                    koan: e.koan,
                    call: Call::Master,
                })
            }
        }
        StepView::Guess => {
            if stones == 0 {
                return Some(ClassicMove::EndTurn);
            }
            match student.decide(budget, now, false) {
                Decision::Guess { text, .. } => {
                    student.guessed(&text);
                    match crate::lang::read_for(&text, view.settings.set) {
                        Ok(pattern) => Some(ClassicMove::Guess { pattern }),
                        Err(_) => Some(ClassicMove::EndTurn),
                    }
                }
                Decision::Build(_) => Some(ClassicMove::EndTurn),
            }
        }
        StepView::Pending { .. } => Some(ClassicMove::Confirm),
        StepView::Verdict { .. } => None,
    }
}

/// How a Classic game between students went.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassicResult {
    pub winner: Option<Seat>,
    /// The game ended (a winner, or the rules ended it) before `max_moves`.
    pub ended: bool,
    pub turns: u32,
    pub moves: usize,
    /// The rule, once revealed (to check it was never seen before the end).
    pub revealed: Option<String>,
}

/// Students play `setup` (its students in order, no lobby) on the real rules with a
/// fake clock: each move takes `think_ms` of it, the umpire judges at once, deadlines
/// are run out when nobody can move. `students[i]` plays seat i.
pub fn classic(
    setup: ClassicSetup,
    mut students: Vec<Student>,
    think_ms: Millis,
    max_moves: usize,
) -> Result<ClassicResult, String> {
    let players: Vec<PlayerId> = setup.students.clone();
    if players.len() != students.len() {
        return Err(format!(
            "{} students for {} seats",
            students.len(),
            players.len()
        ));
    }
    let (mut game, _) = Classic::start(setup, 0).map_err(|e| e.to_string())?;
    let mut clock: Millis = 0;
    let mut moves = 0;
    let mut steps = 0u64;
    while !game.is_over() && moves < max_moves {
        let mut acted = false;
        for (i, student) in students.iter_mut().enumerate() {
            let view = game.view(&Viewer::Player(players[i]));
            if view.revealed.is_some() && !game.is_over() {
                return Err("a student's view held the rule before the end".into());
            }
            let mut tick = || {
                steps += 1;
                steps
            };
            let budget = Budget {
                evaluations: 2_000_000,
                deadline: u64::MAX,
            };
            let Some(m) = classic_move(student, &view, budget, &mut tick) else {
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
            let answer = Classic::perform(job, Arc::new(AtomicBool::new(false)));
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
    Ok(ClassicResult {
        winner: view.winner,
        ended: game.is_over(),
        turns: view.turn,
        moves,
        revealed: view.revealed,
    })
}
