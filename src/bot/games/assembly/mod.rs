//! Pattern Assembly on Discord: its commands and posts. The words are
//! `narrate::assembly`'s; this adds the grid's picture.

pub mod commands;
mod reveal;
pub use commands::assembly;

use crate::bot::post::Post;
use crate::bot::say::Clocks;
use crate::narrate::{Front, Names, assembly};
use crate::rules::assembly::{AssemblyEvent, AssemblyView};
use crate::rules::{Event, EventKind};
use crate::runtime::{AnyEvent, AnyView, events_of};
use crate::store::MatchId;

/// What the channel's narration remembers of an Assembly match.
pub struct Voice {
    names: Names,
}

impl Voice {
    pub fn new(view: &AssemblyView) -> Voice {
        let names = if view.players.len() > 1 {
            Names::mentions(&view.players)
        } else {
            Names::solo(Front::Discord)
        };
        Voice { names }
    }
}

fn own(events: &[AnyEvent]) -> Vec<AssemblyEvent> {
    let events: Vec<Event<AssemblyEvent>> = events_of(events);
    events
        .into_iter()
        .filter_map(|e| match e.kind {
            EventKind::Game(g) => Some(g),
            _ => None,
        })
        .collect()
}

/// A batch of events as one post.
pub fn batch(voice: &mut Voice, events: &[AnyEvent], view: &AssemblyView) -> Post {
    let mut post = Post::default();
    for e in own(events) {
        // The grid itself goes out as a picture that is deleted when it is hidden
        // (`reveal.rs`); a text copy here would stay in the channel.
        if let AssemblyEvent::Revealed { ms, .. } = e {
            post.line(format!(
                "The grid is shown for {} s: memorise it.",
                ms.div_ceil(1000)
            ));
            continue;
        }
        for line in assembly::event(&voice.names, &e, view.plus) {
            post.line(line.text.replace(assembly::CLEAR, ""));
        }
    }
    post
}

/// The opening post of a match.
pub fn opening(game: MatchId, view: &AssemblyView, clocks: Clocks) -> Post {
    let mut post = Post::text(format!(
        "**Pattern Assembly{} #{game}**: {} x {} grid, {} rounds.",
        if view.plus { " Plus" } else { "" },
        view.dims.rows,
        view.dims.cols,
        view.rounds
    ));
    post.line(status(game, view, clocks).lines.concat());
    post
}

/// A viewer's status of a match.
pub fn status(game: MatchId, view: &AssemblyView, clocks: Clocks) -> Post {
    let voice = Voice::new(view);
    let line = assembly::status(&voice.names, view, clocks.game);
    Post::text(format!("**Pattern Assembly #{game}**: {}", line.text))
}

/// The grid, only while it is shown.
pub fn board(game: MatchId, view: &AssemblyView) -> Post {
    match &view.grid {
        // Only the asker sees it: a public copy would outlive the reveal.
        Some(rows) => Post::private(format!(
            "**Pattern Assembly #{game}**: {}",
            rows.join(" / ")
        )),
        None => Post::private(
            "the grid is hidden: it is shown before round 1 and after rounds 5, 10 and 15",
        ),
    }
}

/// The Assembly view inside any view.
pub fn view_of(view: &AnyView) -> Option<&AssemblyView> {
    match view {
        AnyView::Assembly(v) => Some(v),
        _ => None,
    }
}
