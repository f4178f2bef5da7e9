//! One module per game family: its slash commands, its button verbs and its posts.
//! The rest of the bot routes to them by the match's [`GameKind`]; adding a game is a
//! module here and one arm in each function below. [`Games`] is what the kit asks of
//! them ([`Fronts`]): the desk says every match through it.

pub mod assembly;
pub mod bluffs;
pub mod zendo;

use super::kit::{Bot, Dms, Fronts};
use super::post::Post;
use super::say::Clocks;
use crate::rules::zendo::DuelEvent;
use crate::rules::{EventKind, GameKind, PlayerId};
use crate::runtime::{AnyEvent, AnyView};
use crate::store::MatchId;
use poise::serenity_prelude as serenity;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

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

/// Every game's Discord side, as the kit asks for it (see [`Fronts`]).
pub struct Games;

impl Fronts for Games {
    fn voice(&self, view: &AnyView) -> super::kit::Voice {
        Box::new(Voice::new(view))
    }

    fn batch(
        &self,
        voice: &mut super::kit::Voice,
        events: &[AnyEvent],
        view: &AnyView,
        clocks: Clocks,
        game: MatchId,
        no_dm: &[PlayerId],
    ) -> Post {
        if voice.downcast_ref::<Voice>().is_none() {
            *voice = self.voice(view);
        }
        match voice.downcast_mut::<Voice>() {
            Some(voice) => batch(voice, events, view, clocks, game, no_dm),
            None => Post::default(),
        }
    }

    fn opening(&self, game: MatchId, view: &AnyView, clocks: Clocks) -> Post {
        opening(game, view, clocks)
    }

    fn status(&self, game: MatchId, view: &AnyView, clocks: Clocks) -> Post {
        status(game, view, clocks)
    }

    fn board(&self, game: MatchId, view: &AnyView) -> Post {
        board(game, view)
    }

    fn dms(
        &self,
        game: MatchId,
        events: &[AnyEvent],
        view: &AnyView,
        clocks: Clocks,
    ) -> Option<Dms> {
        match view {
            // A duel's challenge opened: each player's answer buttons.
            AnyView::ZendoDuel(v) if challenge_opened(events) => Some(Dms {
                post: zendo::answer_post(game, v, clocks)?,
                to: v.players.values().to_vec(),
                version: v.version,
            }),
            // A Triple's question to its players.
            AnyView::ZendoTriple(v) => Some(Dms {
                post: zendo::triple::dm_post(game, events, v, clocks)?,
                to: v.players.values().to_vec(),
                version: v.version,
            }),
            // A Zendo Classic mondo opened: every student's answer buttons, as a duel's.
            AnyView::ZendoClassic(v) if zendo::classic::mondo_opened(events) => Some(Dms {
                post: zendo::classic::answer_post(game, v, clocks)?,
                to: v.players.values().to_vec(),
                version: v.version,
            }),
            _ => None,
        }
    }

    fn on_open(&self, bot: &Arc<Bot>, game: MatchId, view: &AnyView) {
        if let AnyView::Bluffs(_) = view {
            // Each player's own goes to them alone (their DMs).
            bluffs::follow(bot.clone(), game);
        }
    }

    fn after<'a>(
        &'a self,
        bot: &'a Bot,
        channel: serenity::ChannelId,
        game: MatchId,
        view: &'a AnyView,
        events: Option<&'a [AnyEvent]>,
    ) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
        Box::pin(async move {
            if let AnyView::Assembly(v) = view {
                // The picture of the grid, kept up to date (a reveal that ended or
                // began while the bot was away, when the desk opens).
                bot.assembly_grid(channel, game, v, events).await;
            }
        })
    }
}

/// Whether a batch opened a duel's challenge (its answer DMs go out).
fn challenge_opened(events: &[AnyEvent]) -> bool {
    events.iter().any(|e| {
        matches!(
            e,
            AnyEvent::ZendoDuel(e)
                if matches!(e.kind, EventKind::Game(DuelEvent::ChallengeOpened { .. }))
        )
    })
}
