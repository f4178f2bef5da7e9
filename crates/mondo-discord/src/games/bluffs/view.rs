//! The game's own part of what the runtime hands every game: its view inside any
//! view, its events inside a batch. A leaf: the game's commands, controls and posts
//! all read it.

use crate::rules::bluffs::{BluffsView, EventKind as BluffsEvent};
use crate::runtime::{AnyEvent, AnyView, game_events_of};

/// The Bluffs view inside any view.
pub fn view_of(view: &AnyView) -> Option<&BluffsView> {
    match view {
        AnyView::Bluffs(v) => Some(v),
        _ => None,
    }
}

/// The game's own events of a batch.
pub fn own(events: &[AnyEvent]) -> Vec<BluffsEvent> {
    game_events_of(events)
}
