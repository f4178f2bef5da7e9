//! The game's own part of what the runtime hands every game: its view inside any
//! view, its events inside a batch. A leaf: the game's commands, controls and posts
//! all read it.

use crate::rules::assembly::{AssemblyEvent, AssemblyView};
use crate::runtime::{AnyEvent, AnyView, game_events_of};

/// The Assembly view inside any view.
pub fn view_of(view: &AnyView) -> Option<&AssemblyView> {
    match view {
        AnyView::Assembly(v) => Some(v),
        _ => None,
    }
}

/// The game's own events of a batch.
pub(super) fn own(events: &[AnyEvent]) -> Vec<AssemblyEvent> {
    game_events_of(events)
}
