//! The game's own part of what the runtime hands every game: its view inside any
//! view, its events inside a batch. A leaf: the game's commands, controls and posts
//! all read it.

use crate::rules::assembly::{AssemblyEvent, AssemblyView};
use crate::rules::{Event, EventKind};
use crate::runtime::{AnyEvent, AnyView, events_of};

/// The Assembly view inside any view.
pub fn view_of(view: &AnyView) -> Option<&AssemblyView> {
    match view {
        AnyView::Assembly(v) => Some(v),
        _ => None,
    }
}

/// The game's own events of a batch.
pub(super) fn own(events: &[AnyEvent]) -> Vec<AssemblyEvent> {
    let events: Vec<Event<AssemblyEvent>> = events_of(events);
    events
        .into_iter()
        .filter_map(|e| match e.kind {
            EventKind::Game(g) => Some(g),
            _ => None,
        })
        .collect()
}
