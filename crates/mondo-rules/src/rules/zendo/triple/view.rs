//! What a viewer may see of a Triple: everything public, their own answers, nothing
//! else. An unsolved pattern reaches no view before the end (guesses appear as text
//! and reading only); answers stay with the one who gave them until the reveal.

use super::events::{Question, TripleEvent, TripleOutcome};
use super::letter::Letter;
use super::setup::TripleTiming;
use super::state::{Phase, Step, Triple, TripleEntry};
use crate::koan::Koan;
use crate::rules::zendo::{Answer, GuessView, Settings};
use crate::rules::{BySeat, Clock, Game, PlayerId, Seat, Viewer};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum StepView {
    Build,
    Challenge {
        koan: Koan,
        patterns: Vec<Letter>,
        /// Who has answered (not what).
        answered: BySeat<bool>,
        /// The viewer's own answers, if they gave them.
        yours: Option<Vec<Answer>>,
        clock: Clock,
    },
    Guess,
    Pending {
        pattern: Letter,
        guess: u32,
    },
    Verdict {
        pattern: Letter,
        guess: u32,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum PhaseView {
    /// The player with the advantage chooses who starts.
    ChoosingStarter {
        advantage: Seat,
    },
    Turn {
        seat: Seat,
        #[serde(flatten)]
        step: StepView,
    },
    Quiz {
        round: u32,
        questions: Vec<Question>,
        answered: BySeat<bool>,
        yours: Option<Vec<Answer>>,
        clock: Clock,
    },
    Over,
}

/// A Triple as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TripleView {
    pub you: Option<Seat>,
    pub version: u64,
    pub players: BySeat<PlayerId>,
    pub settings: Settings,
    pub timing: TripleTiming,
    pub turn: u32,
    pub phase: PhaseView,
    pub stones: BySeat<u32>,
    pub table: Vec<TripleEntry>,
    /// Each pattern's guesses (A, B, C), numbered per pattern.
    pub guesses: [Vec<GuessView>; 3],
    /// Who solved each pattern by guessing.
    pub solved: [Option<Seat>; 3],
    /// Who won each pattern in the quiz (`Some(None)`: nobody).
    pub quiz_won: [Option<Option<Seat>>; 3],
    /// Each pattern as written, once solved or at the end.
    pub revealed: [Option<String>; 3],
    pub clock: Clock,
    pub game_clock: Clock,
    pub paused: bool,
    pub outcome: Option<TripleOutcome>,
    pub winner: Option<Seat>,
}

impl TripleView {
    /// Whose turn it is, during play.
    pub fn turn_seat(&self) -> Option<Seat> {
        match self.phase {
            PhaseView::Turn { seat, .. } => Some(seat),
            _ => None,
        }
    }
}

pub(super) fn triple(t: &Triple, viewer: &Viewer) -> TripleView {
    let you = t.viewer_seat(viewer);
    let mine =
        |answers: &BySeat<Option<Vec<Answer>>>| you.and_then(|s| answers.get(s).cloned().flatten());
    let phase = match &t.phase {
        Phase::Over => PhaseView::Over,
        Phase::ChoosingStarter { advantage } => PhaseView::ChoosingStarter {
            advantage: *advantage,
        },
        Phase::Quiz {
            round,
            questions,
            answers,
            clock,
        } => PhaseView::Quiz {
            round: *round,
            questions: questions.clone(),
            answered: answers.map(|a| a.is_some()),
            yours: mine(answers),
            clock: *clock,
        },
        Phase::Turn { seat, step } => PhaseView::Turn {
            seat: *seat,
            step: match step {
                Step::Build => StepView::Build,
                Step::Challenge {
                    koan,
                    patterns,
                    answers,
                    clock,
                } => StepView::Challenge {
                    koan: koan.clone(),
                    patterns: patterns.clone(),
                    answered: answers.map(|a| a.is_some()),
                    yours: mine(answers),
                    clock: *clock,
                },
                Step::Guess => StepView::Guess,
                Step::Pending { pattern, guess } => StepView::Pending {
                    pattern: *pattern,
                    guess: *guess,
                },
                Step::Verdict { pattern, guess } => StepView::Verdict {
                    pattern: *pattern,
                    guess: *guess,
                },
            },
        },
    };
    let over = t.is_over();
    TripleView {
        you,
        version: t.version(),
        players: t.seating.players.clone(),
        settings: t.settings(),
        timing: t.timing,
        turn: t.turn,
        phase,
        stones: t.stones.clone(),
        table: t.table.clone(),
        guesses: [0, 1, 2].map(|i| GuessView::all(&t.cores[i].guesses)),
        solved: t.solved,
        quiz_won: t.quiz_won,
        revealed: [0, 1, 2]
            .map(|i| (over || t.solved[i].is_some()).then(|| t.cores[i].hidden.source.clone())),
        clock: t.clock,
        game_clock: t.game_clock,
        paused: t.is_paused(),
        outcome: t.outcome,
        winner: t.winner(),
    }
}

impl Triple {
    /// The created event holds the patterns; answers are heard whole only by the one
    /// who gave them.
    pub(super) fn redacted(&self, event: &TripleEvent, viewer: &Viewer) -> Option<TripleEvent> {
        let mine = |seat: &Seat| self.viewer_seat(viewer) == Some(*seat);
        match event {
            TripleEvent::TripleCreated { .. } => None,
            TripleEvent::ChallengeAnswered { seat, .. } if !mine(seat) => {
                Some(TripleEvent::ChallengeAnswered {
                    seat: *seat,
                    answers: None,
                })
            }
            TripleEvent::QuizAnswered { seat, .. } if !mine(seat) => {
                Some(TripleEvent::QuizAnswered {
                    seat: *seat,
                    answers: None,
                })
            }
            _ => Some(event.clone()),
        }
    }
}
