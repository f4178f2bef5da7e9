//! What a viewer may see of a duel: everything public, their own secrets, nothing
//! else. Fronts render only this.
//!
//! Hidden until the end: the hidden pattern (not even its text's length or its AST
//! reaches a view; guesses appear as text and reading only). Hidden until the reveal:
//! each challenge answer, from everyone but the player who gave it; the others see
//! only that an answer is in.

use super::Step;
use super::state::{Duel, Phase, Timing};
use crate::koan::Koan;
use crate::rules::zendo::{Answer, GuessView, Outcome, Settings, TableEntry, Zendo};
use crate::rules::{BySeat, Clock, Game, PlayerId, Seat, Viewer};
use serde::{Deserialize, Serialize};

/// A turn's step as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum StepView {
    Build,
    Challenge {
        koan: Koan,
        /// Who has answered (not what).
        answered: BySeat<bool>,
        /// The viewer's own answer, if they are a player and gave one.
        yours: Option<Answer>,
        clock: Clock,
    },
    Guess,
    Pending {
        guess: u32,
    },
    Verdict {
        guess: u32,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum PhaseView {
    ChoosingStarter,
    Turn {
        seat: Seat,
        #[serde(flatten)]
        step: StepView,
    },
    Over,
}

/// A duel as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuelView {
    /// The viewer's seat, if they play.
    pub you: Option<Seat>,
    /// Buttons carry it back so stale presses are refused.
    pub version: u64,
    pub players: BySeat<PlayerId>,
    pub advantage: Seat,
    pub settings: Settings,
    pub timing: Timing,
    pub turn: u32,
    pub phase: PhaseView,
    pub tickets: BySeat<u32>,
    pub table: Vec<TableEntry>,
    pub guesses: Vec<GuessView>,
    /// The turn clock (stopped or running since a moment; see [`Clock`]).
    pub clock: Clock,
    pub paused: bool,
    pub outcome: Option<Outcome>,
    pub winner: Option<Seat>,
    /// The hidden pattern as written, once the match is over.
    pub revealed: Option<String>,
}

impl DuelView {
    /// The structure under challenge, who has answered and the challenge clock.
    pub fn challenge(&self) -> Option<(&Koan, &BySeat<bool>, Clock)> {
        match &self.phase {
            PhaseView::Turn {
                step:
                    StepView::Challenge {
                        koan,
                        answered,
                        clock,
                        ..
                    },
                ..
            } => Some((koan, answered, *clock)),
            _ => None,
        }
    }
}

impl StepView {
    /// A step as the student in seat `you` (if any) sees it: who has answered a
    /// challenge (or a Classic mondo), and only their own answer.
    pub fn of(step: &Step, you: Option<Seat>) -> StepView {
        match step {
            Step::Build => StepView::Build,
            Step::Challenge {
                koan,
                answers,
                clock,
            } => StepView::Challenge {
                koan: koan.clone(),
                answered: answers.map(|a| a.is_some()),
                yours: you.and_then(|s| answers.get(s).copied().flatten()),
                clock: *clock,
            },
            Step::Guess => StepView::Guess,
            Step::Pending { guess } => StepView::Pending { guess: *guess },
            Step::Verdict { guess } => StepView::Verdict { guess: *guess },
        }
    }
}

pub(super) fn duel(d: &Duel, viewer: &Viewer) -> DuelView {
    let you = d.viewer_seat(viewer);
    let phase = match &d.phase {
        Phase::ChoosingStarter => PhaseView::ChoosingStarter,
        Phase::Over => PhaseView::Over,
        Phase::Turn { seat, step } => PhaseView::Turn {
            seat: *seat,
            step: StepView::of(step, you),
        },
    };
    DuelView {
        you,
        version: d.version(),
        players: d.seating.players.clone(),
        advantage: d.advantage,
        settings: d.core.settings,
        timing: d.timing,
        turn: d.turn,
        phase,
        tickets: d.tickets.clone(),
        table: d.table().entries().to_vec(),
        guesses: GuessView::all(d.guesses()),
        clock: d.clock,
        paused: d.is_paused(),
        outcome: d.outcome(),
        winner: d.winner(),
        revealed: d.outcome().map(|_| d.hidden().source.clone()),
    }
}
