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
//! if it was skipped. Lost on a rule it cannot say, it builds no more and lets itself
//! be skipped.

use super::duel::{answer_to, guess, play_out, structure};
use super::{Budget, Student};
use crate::rules::zendo::classic::{
    Call, Classic, ClassicMove, ClassicSetup, ClassicView, PhaseView,
};
use crate::rules::zendo::{StepView, ZendoMove};
use crate::rules::{Game, Millis, PlayerId, Seat, Viewer};

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
    // Lost (no rule it knows fits the table): it builds no more, and once skipped it
    // does not come back, so a game nobody else plays ends by its own rules.
    let lost = student.stuck();
    if view.away.get(me).copied().unwrap_or(false) && !lost {
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
            Some(ClassicMove::Answer {
                answer: answer_to(student, koan),
            })
        }
        _ if *seat != me => None,
        StepView::Build if lost => None,
        StepView::Build => {
            let (koan, for_stone) = structure(student, stones, budget, now);
            let call = if for_stone { Call::Mondo } else { Call::Master };
            Some(ClassicMove::Build { koan, call })
        }
        StepView::Guess => match guess(student, stones, view.settings.set, budget, now) {
            Some(pattern) => Some(ClassicMove::Guess { pattern }),
            None => Some(ClassicMove::Zendo(ZendoMove::EndTurn)),
        },
        StepView::Pending { .. } => Some(ClassicMove::Zendo(ZendoMove::Confirm)),
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
    let (game, _) = Classic::start(setup, 0).map_err(|e| e.to_string())?;
    let (game, moves) = play_out(
        game,
        &players,
        think_ms,
        max_moves,
        |i, view, budget, now| classic_move(&mut students[i], view, budget, now),
    )?;
    let view = game.view(&Viewer::Spectator);
    Ok(ClassicResult {
        winner: view.winner,
        ended: game.is_over(),
        turns: view.turn,
        moves,
        revealed: view.revealed,
    })
}
