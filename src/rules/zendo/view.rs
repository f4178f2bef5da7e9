//! What a viewer may see of a match: everything public, their own secrets, nothing
//! else. Fronts render only these.
//!
//! Hidden until the end: the hidden pattern (not even its text's length or its AST
//! reaches a view; guesses appear as text and reading only). Hidden until the reveal:
//! each challenge answer, from everyone but the player who gave it; the others see
//! only that an answer is in.

use super::duel::{Phase, Step};
use super::practice::PracticeStep;
use super::{
    Answer, Duel, Guess, GuessStatus, Outcome, Practice, Score, Seat, Settings, TableEntry, Timing,
    Zendo,
};
use crate::koan::Koan;
use crate::rules::{Clock, PlayerId, Viewer};
use serde::{Deserialize, Serialize};

/// A guess as everyone hears it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuessView {
    pub number: u32,
    pub by: Seat,
    /// As the guesser wrote it.
    pub text: String,
    /// How the umpire read it.
    pub reading: String,
    /// Table structures that contradicted it when it was read.
    pub contradictions: Vec<u32>,
    #[serde(flatten)]
    pub status: GuessStatus,
}

impl From<&Guess> for GuessView {
    fn from(g: &Guess) -> GuessView {
        GuessView {
            number: g.number,
            by: g.by,
            text: g.pattern.source.clone(),
            reading: g.reading.clone(),
            contradictions: g.contradictions.clone(),
            status: g.status.clone(),
        }
    }
}

/// A turn's step as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum StepView {
    Build,
    Challenge {
        koan: Koan,
        /// Who has answered (not what).
        answered: [bool; 2],
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
    pub players: [PlayerId; 2],
    pub advantage: Seat,
    pub settings: Settings,
    pub timing: Timing,
    pub turn: u32,
    pub phase: PhaseView,
    pub tickets: [u32; 2],
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

/// A practice match as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PracticeView {
    pub you: bool,
    pub version: u64,
    pub player: PlayerId,
    pub settings: Settings,
    pub step: PracticeStep,
    pub table: Vec<TableEntry>,
    pub guesses: Vec<GuessView>,
    pub score: Score,
    pub outcome: Option<Outcome>,
    /// The hidden pattern as written, once the match is over.
    pub revealed: Option<String>,
}

fn revealed(game: &impl Zendo) -> Option<String> {
    game.outcome().map(|_| game.hidden().source.clone())
}

pub(super) fn duel(d: &Duel, viewer: &Viewer) -> DuelView {
    let you = match viewer {
        Viewer::Player(id) => d.seat_of(*id),
        Viewer::Spectator => None,
    };
    let phase = match &d.phase {
        Phase::ChoosingStarter => PhaseView::ChoosingStarter,
        Phase::Over => PhaseView::Over,
        Phase::Turn { seat, step } => PhaseView::Turn {
            seat: *seat,
            step: match step {
                Step::Build => StepView::Build,
                Step::Challenge {
                    koan,
                    answers,
                    clock,
                } => StepView::Challenge {
                    koan: koan.clone(),
                    answered: answers.map(|a| a.is_some()),
                    yours: you.and_then(|s| answers[s.index()]),
                    clock: *clock,
                },
                Step::Guess => StepView::Guess,
                Step::Pending { guess } => StepView::Pending { guess: *guess },
                Step::Verdict { guess } => StepView::Verdict { guess: *guess },
            },
        },
    };
    DuelView {
        you,
        version: d.core.version,
        players: d.players,
        advantage: d.advantage,
        settings: d.core.settings,
        timing: d.timing,
        turn: d.turn,
        phase,
        tickets: d.tickets,
        table: d.table().entries().to_vec(),
        guesses: d.guesses().iter().map(GuessView::from).collect(),
        clock: d.clock,
        paused: d.paused,
        outcome: d.outcome(),
        winner: d.winner(),
        revealed: revealed(d),
    }
}

pub(super) fn practice(p: &Practice, viewer: &Viewer) -> PracticeView {
    PracticeView {
        you: *viewer == Viewer::Player(p.player),
        version: p.core.version,
        player: p.player,
        settings: p.core.settings,
        step: p.step,
        table: p.table().entries().to_vec(),
        guesses: p.guesses().iter().map(GuessView::from).collect(),
        score: p.score(),
        outcome: p.outcome(),
        revealed: revealed(p),
    }
}
