//! What each player sees: events by their audience, and a player's view, built only
//! from what that player may know.

use super::*;

impl Bluffs {
    /// An event as `viewer` (a seat, or `None` for a spectator) may hear it.
    pub fn visible(event: &Event, viewer: Option<Seat>) -> Option<Event> {
        match event.kind.audience() {
            Audience::Everyone => Some(event.clone()),
            Audience::Only(seat) if viewer == Some(seat) => Some(event.clone()),
            _ => None,
        }
    }

    /// What a player sees. Built only from what they may know: never the opponent's
    /// RP, the layout (but the tiles they know), or the opponent's private tiles.
    pub fn view(&self, seat: Seat) -> PlayerView {
        let i = seat.index();
        let o = seat.other().index();
        let shown_phase =
            matches!(self.phase, PhaseName::Claiming | PhaseName::Reveal) || self.is_over();
        let truths_told = self.phase != PhaseName::Bluffing || self.is_over();
        PlayerView {
            round: self.round,
            phase: self.phase,
            deadline: match self.phase {
                PhaseName::Reveal => self.reveal_until(seat),
                PhaseName::Over => None,
                _ => Some(self.deadline),
            },
            reserve: self.reserve[i],
            rp: self.rp[i],
            known: self.known[i]
                .iter()
                .map(|c| (*c, self.layout.colour(*c)))
                .collect(),
            items_used: self.items[i],
            own: self.bluffs[i].as_ref().map(|b| OwnBluff {
                subset: b.subset.clone(),
                statements: b.statements.clone(),
                smokescreen: b.smokescreen,
                truths: truths_told.then(|| b.truths.clone()),
            }),
            opponent: self.bluffs[o].as_ref().filter(|_| shown_phase).map(shown),
            opponent_submitted: matches!(self.phase, PhaseName::Bluffing | PhaseName::Claiming)
                && !self.owes(seat.other()),
            detected: self.detected[i].and_then(|n| {
                self.bluffs[o]
                    .as_ref()
                    .and_then(|b| b.truths.get(n - 1).map(|t| (n, *t)))
            }),
            marks: self.marks[i].clone(),
            reveal: self.reveal[i].clone(),
            opponent_bought: self.counted.map(|c| c[o]),
            barred: self.barred[i] && self.phase == PhaseName::Reveal || self.barring[i],
            outcome: self.outcome,
            layout: self.is_over().then_some(self.layout),
        }
    }
}

pub(super) fn shown(b: &Bluff) -> ShownBluff {
    ShownBluff {
        subset: b.subset.clone(),
        statements: b
            .statements
            .iter()
            .enumerate()
            .map(|(k, s)| (b.smokescreen != Some(k + 1)).then(|| s.clone()))
            .collect(),
    }
}

/// A player's own bluff; its truths once Bluffing is over.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OwnBluff {
    pub subset: Subset,
    pub statements: Vec<String>,
    pub smokescreen: Option<usize>,
    pub truths: Option<Vec<bool>>,
}

/// The opponent's bluff as shown in Claiming (smokescreened statements `None`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShownBluff {
    pub subset: Subset,
    pub statements: Vec<Option<String>>,
}

/// What one player sees of a match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerView {
    pub round: u32,
    pub phase: PhaseName,
    /// Your own deadline in this phase (reserve not counted).
    pub deadline: Option<Millis>,
    pub reserve: Millis,
    pub rp: u32,
    pub known: Vec<(Cell, Colour)>,
    pub items_used: Items,
    pub own: Option<OwnBluff>,
    pub opponent: Option<ShownBluff>,
    /// In Bluffing and Claiming: whether the opponent has submitted.
    pub opponent_submitted: bool,
    /// Detective: (statement, truth).
    pub detected: Option<(usize, bool)>,
    pub marks: Option<Vec<Option<bool>>>,
    pub reveal: RevealState,
    /// How many tiles the opponent bought in the last Reveal.
    pub opponent_bought: Option<u32>,
    /// You may not buy reveals (this Reveal, or the next after a wrong guess).
    pub barred: bool,
    pub outcome: Option<(Option<Seat>, Ending)>,
    /// Only once the match is over.
    pub layout: Option<Layout>,
}
