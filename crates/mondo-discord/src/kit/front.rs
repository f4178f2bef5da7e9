//! What a game gives the Discord front ([`GameBot`], [`GameControls`]), over its own
//! view: its slash commands, its posts for each batch, its opening, status and board,
//! what it sends by DM, what it follows besides the channel; its button verbs and
//! boxes, a host's disallow. Each game implements it in its own folder (`bot/games/<path>`, as a
//! `Front`); the registry's list makes the dispatch over every game
//! (`bot::games::Games`, the [`super::Fronts`] the kit asks).
//!
//! Seams for what a game may grow: its help (from its docs page), a sketch board, an
//! embed card for its status.

use super::base::{Error, Handed, Handling, SetupFuture};
use super::data::{Bot, Data, Dms, Pressed, Said, Submitted};
use super::ids::{Header, UnknownButton};
use super::post::Post;
use super::reply::answer_press;
use super::say::Clocks;
use crate::rules::PlayerId;
use crate::runtime::{AnyAction, AnyEvent, AnyView};
use crate::store::{MatchId, MatchRecord};
use poise::serenity_prelude as serenity;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// Work a game does on its channel after a batch (or when its desk opens).
pub type Upkeep<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// The answer to a press that no game takes: its button is not known.
pub fn unknown_button(at: Pressed<'_>) -> Handling<'_> {
    let (ctx, bot, press) = (at.ctx, at.bot, at.press);
    let id: String = press.data.custom_id.chars().take(100).collect();
    let post = Post::private(UnknownButton(id).to_string());
    Box::pin(async move { answer_press(ctx, bot, press, Handed::own(post)).await })
}

/// What players and hosts do with a game's controls on Discord: its buttons (under the
/// header every button carries), its boxes, a host's disallow. A sibling of
/// [`GameBot`], so a game may keep its controls apart from its posts (the dispatch
/// asks both).
pub trait GameControls {
    /// Whether a press is the game's before its match is looked up: a header whose
    /// `MATCH` may be no match's (an older Zendo Classic lobby's buttons).
    fn claims(_header: &Header) -> bool {
        false
    }

    /// A press on one of the game's buttons (or a select), its header read: `record`
    /// is its match (`None` for a press the game [claims](GameControls::claims)). The game
    /// reads its own verbs and hands the header's version to the engine with the move
    /// it makes; the answer is sent inside.
    fn on_button<'a>(pressed: Pressed<'a>, _record: Option<MatchRecord>) -> Handling<'a> {
        unknown_button(pressed)
    }

    /// A box (a modal) sent back, if its custom id is one of the game's: its handling
    /// (`None`: another game's box).
    fn on_modal(_submitted: Submitted<'_>) -> Option<Handling<'_>> {
        None
    }

    /// A host's `/host disallow` on a match of the game: the move that disallows the
    /// guess being made, or why the game has none.
    fn disallow(_record: &MatchRecord) -> Result<AnyAction, String> {
        Err("this game has no guesses to disallow".into())
    }

    /// How the game is played in a tournament on Discord: each way a choice of
    /// `/tournament create` (its label) and the options [`GameControls::tournament_setup`]
    /// takes for it after the game's name (`("Pattern Assembly Plus", "--plus")`). None:
    /// the game is not played in tournaments.
    fn tournament_ways() -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// A tournament's match of the game for `players` (the higher seed first), with
    /// `options` as the tournament's settings give them after the game's name
    /// (`--plus`): the server's and the config's settings, a seed drawn at random.
    /// `None`: the game is not played in tournaments on Discord.
    fn tournament_setup<'a>(
        _bot: &'a Data,
        _guild: Option<u64>,
        _players: Vec<crate::rules::PlayerId>,
        _options: &'a str,
    ) -> Option<SetupFuture<'a>> {
        None
    }
}

/// A tournament's two players (the higher seed first) for a game that takes no
/// options in a tournament: refused (saying so) when `options` names any.
pub fn tournament_pair(
    players: &[PlayerId],
    options: &str,
    title: &str,
) -> Result<[PlayerId; 2], Error> {
    if !options.trim().is_empty() {
        return Err(format!(
            "unknown {title} option `{}`: in a tournament it takes none",
            options.trim()
        )
        .into());
    }
    match players {
        [a, b] => Ok([*a, *b]),
        _ => Err(format!("a {title} match is for two players, not {}", players.len()).into()),
    }
}

/// A game's Discord side. `view` is the whole view (for code a game family shares),
/// `v` the game's own part of it.
pub trait GameBot {
    /// The game's own view.
    type View;
    /// What the channel's narration remembers between batches.
    type Voice: Send + Sync + 'static;

    /// The game's slash commands. A family's shared commands (Zendo's `/zendo`,
    /// `/koan`, ...) come with its first game in the registry.
    fn commands() -> Vec<poise::Command<Data, Error>> {
        Vec::new()
    }

    /// Once when the bot starts, before it connects (the game's own upkeep of what an
    /// older version stored).
    fn on_serve(_bot: &Data) -> Upkeep<'_> {
        Box::pin(async {})
    }

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
    /// What a player alone is told of a batch besides the channel and [`GameBot::dms`]
    /// (a private feed by DM), from the events as they hear them and their own view:
    /// its words.
    fn private_feed(_game: MatchId, _heard: &[AnyEvent], _v: &Self::View) -> Vec<String> {
        Vec::new()
    }
    /// What a player alone may see of the match at any time (their own part of a
    /// status): its words.
    fn private_status(_game: MatchId, _v: &Self::View) -> Vec<String> {
        Vec::new()
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
