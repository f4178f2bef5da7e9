//! What every command shares: the runtime, the store, Discord's HTTP client, the
//! configuration and the desks; and the services the commands call (acting for
//! someone, finding a player's match, a server's settings, drawing a pattern).

use super::base::{Error, Handed, Handling, Holds, SettingUp};
use super::desk::Desks;
use super::ids::Header;
use super::post::{Button, Post};
use super::say;
use crate::config::Config;
use crate::koan::PieceSet;
use crate::pool::Pool;
use crate::rules::{GameKind, PlayerId};
use crate::runtime::{AnyAction, AnyEvent, AnyMatch, AnyView, Runtime, Tournaments};
use crate::store::{MatchFilter, MatchId, MatchRecord, ServerSettings, Status, Store};
use poise::serenity_prelude as serenity;
use std::sync::Arc;

/// Everything the commands share.
pub struct Bot {
    pub runtime: Runtime<AnyMatch>,
    /// The tournaments, their round deadlines armed on the runtime's clock.
    pub tournaments: Tournaments<AnyMatch>,
    pub store: Store,
    pub http: Arc<serenity::Http>,
    pub config: Arc<Config>,
    pub(crate) desks: Desks,
    /// The games' side of each match (its posts, its DMs), so the kit names none.
    pub fronts: &'static dyn Fronts,
    /// Matches being set up (between their checks and their creation): a duel by its
    /// channel, a practice by its channel and player.
    pub(super) setting_up: Holds,
}

/// What poise hands every command.
pub type Data = Arc<Bot>;
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// What a match's desk remembers of what its channel was told, between batches (each
/// game's own kind of memory).
pub type Voice = Box<dyn std::any::Any + Send + Sync>;

/// Direct messages a batch calls for: one post to each of `to`; the channel offers
/// `fallback` (a button that shows the post privately) to those the bot failed to DM.
pub struct Dms {
    pub post: Post,
    pub to: Vec<PlayerId>,
    pub fallback: Button,
}

/// Where and when a batch is said.
#[derive(Clone, Copy, Debug)]
pub struct Said<'a> {
    pub game: MatchId,
    pub clocks: say::Clocks,
    /// Players the bot cannot DM (they answer in the channel).
    pub no_dm: &'a [PlayerId],
}

/// A press on a button (or a select) as the kit hands it on: the connection, the bot,
/// the press and its header, read.
#[derive(Clone, Copy)]
pub struct Pressed<'a> {
    pub ctx: &'a serenity::Context,
    pub bot: &'a Data,
    pub press: &'a serenity::ComponentInteraction,
    pub header: &'a Header,
}

/// A box (a modal) sent back, as the kit hands it on: the connection, the bot and what
/// was submitted.
#[derive(Clone, Copy)]
pub struct Submitted<'a> {
    pub ctx: &'a serenity::Context,
    pub bot: &'a Data,
    pub submit: &'a serenity::ModalInteraction,
}

/// What the kit asks of the games, by a match's view or record, without naming any:
/// the list of games (`bot::games::Games`) answers for each.
pub trait Fronts: Send + Sync {
    /// Every game's slash commands, in the registry's order.
    fn commands(&self) -> Vec<poise::Command<Data, Error>>;
    /// Whether some game takes a press before its match is looked up.
    fn claims(&self, header: &Header) -> bool;
    /// A press on a button, handed to the game that owns its match (`record`), or
    /// that [claims](Fronts::claims) it (`None`).
    fn on_button<'a>(&'a self, pressed: Pressed<'a>, record: Option<MatchRecord>) -> Handling<'a>;
    /// A box sent back, handled by the game whose box it is (`None`: no game's).
    fn on_modal<'a>(&'a self, submitted: Submitted<'a>) -> Option<Handling<'a>>;
    /// A host's disallow on `record`, by its game.
    fn disallow(&self, record: &MatchRecord) -> Result<AnyAction, String>;
    /// Every game's ways to be played in a tournament (see
    /// `GameControls::tournament_ways`), in the registry's order: each a label and the
    /// game as a tournament's settings name it (its stored name, then its options).
    fn tournament_games(&self) -> Vec<(&'static str, String)>;
    /// A tournament's match of game `kind` (see `GameControls::tournament_setup`).
    fn tournament_setup<'a>(
        &self,
        kind: GameKind,
        bot: &'a Data,
        guild: Option<u64>,
        players: Vec<PlayerId>,
        options: &'a str,
    ) -> Option<super::base::SetupFuture<'a>>;
    /// Every game's work when the bot starts, before it connects.
    fn on_serve<'a>(&'a self, bot: &'a Data) -> Handling<'a>;
    /// A new memory for a match's channel.
    fn voice(&self, view: &AnyView) -> Voice;
    /// A batch of events as one post in the match's channel.
    fn batch(&self, voice: &mut Voice, events: &[AnyEvent], view: &AnyView, said: Said) -> Post;
    /// The opening post of a match.
    fn opening(&self, game: MatchId, view: &AnyView, clocks: say::Clocks) -> Post;
    /// A viewer's status of a match.
    fn status(&self, game: MatchId, view: &AnyView, clocks: say::Clocks) -> Post;
    /// The board of a match.
    fn board(&self, game: MatchId, view: &AnyView) -> Post;
    /// What a batch sends by DM (a challenge's answer buttons), if anything.
    fn dms(
        &self,
        game: MatchId,
        events: &[AnyEvent],
        view: &AnyView,
        clocks: say::Clocks,
    ) -> Option<Dms>;
    /// What a player alone is told of a batch besides the channel and the DMs, from the
    /// events as they hear them and their own view: its words.
    fn private_feed(&self, game: MatchId, heard: &[AnyEvent], view: &AnyView) -> Vec<String>;
    /// What a player alone may see of the match at any time, by their own view: its
    /// words.
    fn private_status(&self, game: MatchId, view: &AnyView) -> Vec<String>;
    /// Started when a match's desk opens: what the game follows besides the channel.
    fn on_open(&self, bot: &Arc<Bot>, game: MatchId, view: &AnyView);
    /// After a batch is said (`None`: when the desk opens): the game's own upkeep of
    /// its channel, such as a picture kept up to date.
    fn after<'a>(
        &'a self,
        bot: &'a Bot,
        channel: serenity::ChannelId,
        game: MatchId,
        view: &'a AnyView,
        events: Option<&'a [AnyEvent]>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'a>>;
}

impl Bot {
    /// Sends an interaction's reply with `send`; if that fails, a handed batch goes to
    /// its channel instead (and the failure is returned, for the log).
    pub async fn deliver<E, F>(&self, handed: Handed, send: impl FnOnce(Post) -> F) -> Result<(), E>
    where
        F: std::future::Future<Output = Result<(), E>>,
        E: std::fmt::Display,
    {
        self.deliver_as(handed, None, send).await
    }

    /// [`Bot::deliver`] as the first reply to the interaction with `token`: a handed
    /// batch is recorded as going out that way before it is sent, so a process that
    /// takes the match over before it is recorded as said asks Discord for that reply
    /// instead of saying the batch again (a reply carries no nonce).
    pub async fn deliver_as<E, F>(
        &self,
        handed: Handed,
        token: Option<&str>,
        send: impl FnOnce(Post) -> F,
    ) -> Result<(), E>
    where
        F: std::future::Future<Output = Result<(), E>>,
        E: std::fmt::Display,
    {
        if let (Some((game, seq)), Some(token)) = (handed.batch, token)
            && let Err(e) = self.store.set_posting_reply(game, seq, token).await
        {
            tracing::warn!(%game, error = %e, "could not record a reply's batch");
        }
        let rescue = handed.fallback.map(|c| (c, handed.post.clone()));
        let result = send(handed.post).await;
        if result.is_err() {
            crate::metrics::discord_failed();
        }
        if let (Err(e), Some((channel, post))) = (&result, rescue) {
            tracing::warn!(error = %e, "a reply could not be sent: its batch goes to the channel");
            self.post(channel, &post).await;
        }
        // Done: the desk may record the batch as said.
        drop(handed.delivered);
        result
    }

    /// Holds `channel` for setting up a duel (`player` 0) or `player`'s practice there;
    /// `None` while the same is already being set up.
    pub fn setting_up(&self, channel: u64, player: u64) -> Option<SettingUp<'_>> {
        self.setting_up.hold((channel, player))
    }

    /// The two clocks now (game and wall), for countdowns.
    pub fn clocks(&self) -> say::Clocks {
        say::Clocks {
            game: self.runtime.now(),
            wall_ms: super::base::wall_ms(),
        }
    }

    /// The live match `user` plays in `channel`, if any.
    pub async fn match_of(&self, channel: u64, user: u64) -> Result<Option<MatchRecord>, Error> {
        Ok(self
            .store
            .matches(&MatchFilter {
                status: Some(Status::Live),
                player: Some(user),
                channel: Some(channel),
                ..MatchFilter::default()
            })
            .await?
            .into_iter()
            .find(|r| r.game().is_ok()))
    }

    /// Every live match in `channel`, of every game this bot runs (a match whose kind
    /// it does not know is left out), newest first.
    pub async fn live_in(&self, channel: u64) -> Result<Vec<MatchRecord>, Error> {
        Ok(self
            .store
            .matches(&MatchFilter {
                status: Some(Status::Live),
                channel: Some(channel),
                ..MatchFilter::default()
            })
            .await?
            .into_iter()
            .filter(|r| r.game().is_ok())
            .collect())
    }

    /// Every live match in `channel` of the game stored as `kind` (its registry name).
    pub async fn live_of(&self, channel: u64, kind: &str) -> Result<Vec<MatchRecord>, Error> {
        Ok(self
            .store
            .matches(&MatchFilter {
                kind: Some(kind),
                status: Some(Status::Live),
                channel: Some(channel),
                ..MatchFilter::default()
            })
            .await?)
    }

    /// A server's own settings with the configured defaults filled in (each game's
    /// own are kept by the store under the game's name: `Bot::game_settings`).
    pub async fn settings(&self, guild: Option<u64>) -> Result<Effective, Error> {
        let s = match guild {
            Some(g) => self.store.server_settings(g).await?,
            None => ServerSettings::default(),
        };
        Ok(Effective {
            pool: s
                .pool
                .clone()
                .unwrap_or_else(|| self.config.default_pool().to_owned()),
            host_role: s.host_role.or(self.config.host_role()),
            stored: s,
        })
    }

    /// A game's own settings in a server, stored under its registry name `kind` (the
    /// game's type `T` says what they are); the default where none are stored, or where
    /// the stored ones no longer read (said in the log).
    pub async fn game_settings<T>(&self, guild: Option<u64>, kind: &str) -> Result<T, Error>
    where
        T: Default + serde::de::DeserializeOwned,
    {
        let Some(g) = guild else {
            return Ok(T::default());
        };
        let json = self.store.game_settings(g, kind).await?;
        Ok(serde_json::from_str(&json).unwrap_or_else(|e| {
            tracing::warn!(guild = g, kind, error = %e, "stored game settings do not read");
            T::default()
        }))
    }

    /// Stores a game's own settings in a server (see [`Bot::game_settings`]).
    pub async fn set_game_settings<T: serde::Serialize>(
        &self,
        guild: u64,
        kind: &str,
        settings: &T,
    ) -> Result<(), Error> {
        let json = serde_json::to_string(settings)?;
        self.store.set_game_settings(guild, kind, &json).await?;
        Ok(())
    }

    /// A pool by name: a built-in one (`pyramids`, `arrows`) or a server's.
    pub async fn load_pool(&self, guild: Option<u64>, name: &str) -> Result<Pool, String> {
        Ok(match name.to_ascii_lowercase().as_str() {
            "pyramids" => Pool::shipped(PieceSet::Pyramids),
            "arrows" => Pool::shipped(PieceSet::Arrows),
            _ => {
                let Some(g) = guild else {
                    return Err(format!(
                        "there is no built-in pool `{name}`: use pyramids, arrows or generated"
                    ));
                };
                let record = self
                    .store
                    .pool(g, name)
                    .await
                    .map_err(|e| e.to_string())?
                    .ok_or_else(|| {
                        format!(
                            "this server has no pool `{name}`: `/pool list` shows the pools \
                             (built in: pyramids, arrows, generated)"
                        )
                    })?;
                // Not the reasons: they quote the pool's lines, patterns included,
                // and this is said in the channel.
                let text = record.toml;
                off_runtime(move || Pool::from_toml(&text))
                    .await
                    .map_err(|e| format!("reading the pool failed: {e}"))?
                    .map_err(|e| {
                        tracing::warn!(pool = name, error = %e, "a stored pool no longer reads");
                        format!(
                            "the pool `{name}` no longer reads (this Mondo is newer than the \
                         pool); a host can see why with `/pool check` and add it again"
                        )
                    })?
            }
        })
    }
}

/// The built-in pools' names, which a server's pools cannot take.
pub const BUILT_IN_POOLS: [&str; 3] = ["pyramids", "arrows", "generated"];

/// A server's own settings as they apply: stored ones, else the configured defaults.
#[derive(Clone, Debug)]
pub struct Effective {
    /// The pool new matches draw from.
    pub pool: String,
    pub host_role: Option<u64>,
    /// What the server itself set (None: default).
    pub stored: ServerSettings,
}

/// Whether a member may host: Manage Server (or Administrator), or the host role.
pub fn is_host(member: Option<&serenity::Member>, host_role: Option<u64>) -> bool {
    let Some(m) = member else {
        return false;
    };
    let by_permission = m
        .permissions
        .is_some_and(|p| p.manage_guild() || p.administrator());
    let by_role = host_role.is_some_and(|r| m.roles.iter().any(|id| id.get() == r));
    by_permission || by_role
}

/// Pool work (reading, checking, editing a host's file, up to the upload limit and
/// thousands of entries) on a blocking thread, off the async threads that answer every
/// other interaction and run the matches' clocks.
pub async fn off_runtime<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, tokio::task::JoinError> {
    tokio::task::spawn_blocking(work).await
}
