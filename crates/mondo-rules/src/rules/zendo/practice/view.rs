//! What a viewer may see of a practice match: everything but the hidden pattern,
//! until the end.

use super::state::{Practice, PracticeStep, Score};
use crate::rules::zendo::{GuessView, Outcome, Settings, TableEntry, Zendo};
use crate::rules::{Game, PlayerId, Viewer};
use serde::{Deserialize, Serialize};

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

pub(super) fn practice(p: &Practice, viewer: &Viewer) -> PracticeView {
    PracticeView {
        you: *viewer == Viewer::Player(p.player()),
        version: p.version(),
        player: p.player(),
        settings: p.core.settings,
        step: p.step,
        table: p.table().entries().to_vec(),
        guesses: GuessView::all(p.guesses()),
        score: p.score(),
        outcome: p.outcome(),
        revealed: p.outcome().map(|_| p.hidden().source.clone()),
    }
}
