//! What each viewer may see of a Pattern Assembly match: the grid only while it is
//! shown (and after the end), never a target's example solution, another player's
//! showdown only once scored.

use super::state::{Ask, Assembly, Outcome, Phase, ShowdownScore};
use crate::grid::{Dims, Group, Region};
use crate::rules::{BySeat, Game, Millis, PlayerId, Seat, Viewer};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TargetView {
    #[serde(flatten)]
    pub ask: Ask,
    pub found: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum PhaseView {
    Starting,
    Reveal {
        next_round: u8,
    },
    Round {
        number: u8,
    },
    Showdown {
        region: Region,
    },
    Over {
        outcome: Outcome,
        winner: Option<Seat>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AssemblyView {
    pub plus: bool,
    pub dims: Dims,
    pub rounds: u8,
    pub players: Vec<PlayerId>,
    pub you: Option<Seat>,
    pub phase: PhaseView,
    pub paused: bool,
    /// The grid's rows, only while it is shown or after the end.
    pub grid: Option<Vec<String>>,
    pub targets: Vec<TargetView>,
    pub scores: BySeat<i32>,
    /// When the current reveal, round or showdown ends (None while paused).
    pub ends_at: Option<Millis>,
    /// Who has an answer waiting, and until when.
    pub waiting: Vec<(Seat, Option<Millis>)>,
    /// Your own pending answer.
    pub your_answer: Option<Group>,
    /// Who has sent a showdown grid.
    pub showdown_in: Vec<Seat>,
    pub showdown: Option<BySeat<ShowdownScore>>,
    pub version: u64,
}

pub fn view(game: &Assembly, viewer: &Viewer) -> AssemblyView {
    let you = game.viewer_seat(viewer);
    let shown = matches!(game.phase, Phase::Reveal { .. } | Phase::Over(_));
    let phase = match &game.phase {
        Phase::Between { next: 1 } => PhaseView::Starting,
        Phase::Reveal { next } | Phase::Between { next } => PhaseView::Reveal { next_round: *next },
        Phase::Round { number, .. } => PhaseView::Round { number: *number },
        Phase::Showdown => PhaseView::Showdown {
            region: game.region,
        },
        Phase::Over(outcome) => PhaseView::Over {
            outcome: *outcome,
            winner: game.winner(),
        },
    };
    let targets = match game.phase {
        Phase::Round { number, .. } => game
            .asks(number)
            .into_iter()
            .zip(&game.found)
            .map(|(ask, found)| TargetView { ask, found: *found })
            .collect(),
        _ => Vec::new(),
    };
    AssemblyView {
        plus: game.settings().plus,
        dims: game.settings().dims,
        rounds: game.settings().rounds,
        players: game.players().to_vec(),
        you,
        phase,
        paused: game.is_paused(),
        grid: shown.then(|| game.grid.rows()),
        targets,
        scores: game.scores.clone(),
        ends_at: game.clock.expires_at(),
        waiting: game
            .pending
            .iter()
            .filter_map(|(seat, p)| p.as_ref().map(|p| (seat, p.wait.expires_at())))
            .collect(),
        your_answer: you.and_then(|s| game.pending(s)).map(|p| p.cells.clone()),
        showdown_in: game
            .showdown
            .iter()
            .filter(|(_, g)| g.is_some())
            .map(|(s, _)| s)
            .collect(),
        showdown: game.results.clone(),
        version: game.seating.ledger.version,
    }
}
