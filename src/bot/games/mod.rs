//! One module per game family: its slash commands, its button verbs and its posts.
//! The rest of the bot routes to them by the match's [`GameKind`]; adding a game is a
//! module here and one arm in each function below.

pub mod assembly;
pub mod bluffs;
pub mod zendo;

use super::post::Post;
use super::say::Clocks;
use crate::rules::{GameKind, PlayerId};
use crate::runtime::{AnyEvent, AnyView};
use crate::store::MatchId;

/// What a match's channel narration remembers between batches.
pub enum Voice {
    Zendo(zendo::Voice),
    Assembly(assembly::Voice),
    Classic(zendo::classic::Voice),
}

impl Voice {
    pub fn new(view: &AnyView) -> Voice {
        match view {
            AnyView::Assembly(v) => Voice::Assembly(assembly::Voice::new(v)),
            AnyView::ZendoClassic(v) => Voice::Classic(zendo::classic::Voice::new(v)),
            _ => Voice::Zendo(zendo::Voice::new(view)),
        }
    }
}

/// A batch of events as one post in the match's channel.
pub fn batch(
    voice: &mut Voice,
    events: &[AnyEvent],
    view: &AnyView,
    clocks: Clocks,
    game: MatchId,
    no_dm: &[PlayerId],
) -> Post {
    if let AnyView::ZendoTriple(v) = view {
        return zendo::triple::batch(events, v, clocks, game, no_dm);
    }
    if let AnyView::Bluffs(v) = view {
        return bluffs::batch(events, v);
    }
    match (voice, view) {
        (Voice::Assembly(v), AnyView::Assembly(view)) => assembly::batch(v, events, view),
        (Voice::Classic(v), AnyView::ZendoClassic(view)) => {
            zendo::classic::batch(v, events, view, clocks, game, no_dm)
        }
        (Voice::Zendo(v), view) if !matches!(view, AnyView::ZendoClassic(_)) => {
            zendo::batch(v, events, view, clocks, zendo::posts::Place { game, no_dm })
        }
        (voice, _) => {
            *voice = Voice::new(view);
            batch(voice, events, view, clocks, game, no_dm)
        }
    }
}

/// The opening post of a match.
pub fn opening(game: MatchId, view: &AnyView, clocks: Clocks) -> Post {
    match view.kind() {
        GameKind::ZendoDuel | GameKind::ZendoPractice => zendo::opening(game, view, clocks),
        GameKind::ZendoTriple => zendo::triple::view_of(view)
            .map_or_else(Post::default, |v| zendo::triple::opening(game, v, clocks)),
        GameKind::ZendoClassic => match view {
            AnyView::ZendoClassic(v) => zendo::classic::opening(game, v, clocks),
            _ => Post::default(),
        },
        GameKind::Assembly => assembly::view_of(view)
            .map_or_else(Post::default, |v| assembly::opening(game, v, clocks)),
        GameKind::Bluffs => {
            bluffs::view_of(view).map_or_else(Post::default, |v| bluffs::opening(game, v, clocks))
        }
    }
}

/// A viewer's status of a match.
pub fn status(game: MatchId, view: &AnyView, clocks: Clocks) -> Post {
    match view.kind() {
        GameKind::ZendoDuel | GameKind::ZendoPractice => zendo::posts::status(game, view, clocks),
        GameKind::ZendoTriple => zendo::triple::view_of(view)
            .map_or_else(Post::default, |v| zendo::triple::status(game, v, clocks)),
        GameKind::ZendoClassic => match view {
            AnyView::ZendoClassic(v) => zendo::classic::status(game, v, clocks),
            _ => Post::default(),
        },
        GameKind::Assembly => assembly::view_of(view)
            .map_or_else(Post::default, |v| assembly::status(game, v, clocks)),
        GameKind::Bluffs => {
            bluffs::view_of(view).map_or_else(Post::default, |v| bluffs::status(game, v, clocks))
        }
    }
}

/// The board of a match.
pub fn board(game: MatchId, view: &AnyView) -> Post {
    match view.kind() {
        GameKind::ZendoDuel | GameKind::ZendoPractice | GameKind::ZendoClassic => {
            zendo::posts::board(game, view)
        }
        GameKind::ZendoTriple => zendo::triple::view_of(view)
            .map_or_else(Post::default, |v| zendo::triple::board(game, v)),
        GameKind::Assembly => {
            assembly::view_of(view).map_or_else(Post::default, |v| assembly::board(game, v))
        }
        GameKind::Bluffs => {
            bluffs::view_of(view).map_or_else(Post::default, |v| bluffs::board(game, v))
        }
    }
}
