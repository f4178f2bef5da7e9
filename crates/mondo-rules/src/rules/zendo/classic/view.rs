//! What a viewer may see of a Classic game: everything public, their own mondo answer,
//! nothing else. Fronts render only this.
//!
//! Hidden until the end: the rule (not its text, nor its length, nor its AST; guesses
//! appear as text and reading only). Hidden until the reveal: each mondo answer, from
//! everyone but the student who gave it.

use super::state::{Classic, ClassicTiming, LobbySetup, Phase};
use crate::rules::zendo::{GuessView, Outcome, Settings, StepView, TableEntry, Zendo};
use crate::rules::{BySeat, Clock, Game, Millis, PlayerId, Seat, Viewer};
use serde::{Deserialize, Serialize};

/// Where the game is, as a viewer sees it. A turn's steps are the duel's: its
/// `challenge` step is the mondo.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum PhaseView {
    /// Gathering students (in `players`, in join order) until `closes_at`.
    Lobby {
        opener: PlayerId,
        closes_at: Millis,
        lifetime_ms: Millis,
    },
    Turn {
        seat: Seat,
        #[serde(flatten)]
        step: StepView,
    },
    Over,
}

/// A Classic game as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassicView {
    /// The viewer's seat, if they are a student.
    pub you: Option<Seat>,
    /// Buttons carry it back so stale presses are refused.
    pub version: u64,
    /// The students, in join (turn) order.
    pub players: BySeat<PlayerId>,
    /// The host who chose the rule, if one did.
    pub master: Option<PlayerId>,
    pub settings: Settings,
    pub timing: ClassicTiming,
    pub turn: u32,
    pub phase: PhaseView,
    pub stones: BySeat<u32>,
    /// Skipped for time-outs until they act.
    pub away: BySeat<bool>,
    pub left: BySeat<bool>,
    pub table: Vec<TableEntry>,
    pub guesses: Vec<GuessView>,
    /// The turn clock.
    pub clock: Clock,
    pub paused: bool,
    pub outcome: Option<Outcome>,
    pub winner: Option<Seat>,
    /// The rule as written, once the game is over.
    pub revealed: Option<String>,
    /// The lobby it began as, if it did (who opened it, when it closed or closes).
    pub lobby: Option<LobbySetup>,
    /// A lobby that closed unstarted (its time was up, or a host ended it).
    pub closed: bool,
}

impl ClassicView {
    pub fn turn_seat(&self) -> Option<Seat> {
        match self.phase {
            PhaseView::Turn { seat, .. } => Some(seat),
            PhaseView::Lobby { .. } | PhaseView::Over => None,
        }
    }

    pub fn step(&self) -> Option<&StepView> {
        match &self.phase {
            PhaseView::Turn { step, .. } => Some(step),
            PhaseView::Lobby { .. } | PhaseView::Over => None,
        }
    }
}

pub(super) fn classic(g: &Classic, viewer: &Viewer) -> ClassicView {
    let you = g.viewer_seat(viewer);
    let phase = match &g.phase {
        Phase::Over => PhaseView::Over,
        Phase::Lobby { closes_at } => PhaseView::Lobby {
            opener: g.lobby.map_or(PlayerId(0), |l| l.opener),
            closes_at: *closes_at,
            lifetime_ms: g.lobby.map_or(0, |l| l.lifetime_ms),
        },
        Phase::Turn { seat, step } => PhaseView::Turn {
            seat: *seat,
            step: StepView::of(step, you),
        },
    };
    ClassicView {
        you,
        version: g.version(),
        players: g.seating.players.clone(),
        master: g.master,
        settings: g.core.settings,
        timing: g.timing,
        turn: g.turn,
        phase,
        stones: g.stones.clone(),
        away: g.away.clone(),
        left: g.left.clone(),
        table: g.table().entries().to_vec(),
        guesses: GuessView::all(g.guesses()),
        clock: g.clock,
        paused: g.is_paused(),
        outcome: g.outcome(),
        winner: g.winner(),
        revealed: g.outcome().map(|_| g.hidden().source.clone()),
        lobby: g.lobby,
        closed: g.closed,
    }
}
