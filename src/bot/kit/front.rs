//! What a game gives the Discord front ([`GameBot`]), over its own view: its posts for
//! each batch, its opening, status and board, what it sends by DM, what it follows
//! besides the channel. Each game implements it in its own folder (`bot/games/<path>`,
//! as a `Front`); the registry's list makes the dispatch over every game
//! (`bot::games::Games`, the [`super::Fronts`] the kit asks).
//!
//! Seams for what a game may grow: its help (from its docs page), a sketch board, an
//! embed card for its status.

use super::data::{Bot, Dms};
use super::post::Post;
use super::say::Clocks;
use crate::rules::PlayerId;
use crate::runtime::{AnyEvent, AnyView};
use crate::store::MatchId;
use poise::serenity_prelude as serenity;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// Where and when a batch is said.
#[derive(Clone, Copy, Debug)]
pub struct Said<'a> {
    pub game: MatchId,
    pub clocks: Clocks,
    /// Players the bot cannot DM (they answer in the channel).
    pub no_dm: &'a [PlayerId],
}

/// Work a game does on its channel after a batch (or when its desk opens).
pub type Upkeep<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// A game's Discord side. `view` is the whole view (for code a game family shares),
/// `v` the game's own part of it.
pub trait GameBot {
    /// The game's own view.
    type View;
    /// What the channel's narration remembers between batches.
    type Voice: Send + Sync + 'static;

    fn voice(view: &AnyView, v: &Self::View) -> Self::Voice;
    /// A batch of events as one post in the match's channel.
    fn batch(
        voice: &mut Self::Voice,
        events: &[AnyEvent],
        view: &AnyView,
        v: &Self::View,
        said: Said<'_>,
    ) -> Post;
    /// The opening post of a match.
    fn opening(game: MatchId, view: &AnyView, v: &Self::View, clocks: Clocks) -> Post;
    /// A viewer's status of a match.
    fn status(game: MatchId, view: &AnyView, v: &Self::View, clocks: Clocks) -> Post;
    /// The board of a match.
    fn board(game: MatchId, view: &AnyView, v: &Self::View) -> Post;
    /// What a batch sends by DM (a challenge's answer buttons), if anything.
    fn dms(_game: MatchId, _events: &[AnyEvent], _v: &Self::View, _clocks: Clocks) -> Option<Dms> {
        None
    }
    /// Started when a match's desk opens: what the game follows besides the channel.
    fn on_open(_bot: &Arc<Bot>, _game: MatchId) {}
    /// After a batch is said (`None`: when the desk opens).
    fn after<'a>(
        _bot: &'a Bot,
        _channel: serenity::ChannelId,
        _game: MatchId,
        _v: &'a Self::View,
        _events: Option<&'a [AnyEvent]>,
    ) -> Upkeep<'a> {
        Box::pin(async {})
    }
}
