//! The Discord front: slash commands (poise), buttons, modals and DMs over the same
//! match runtime and store as the terminal.
//!
//! The shape follows poise's own examples: one [`Bot`] shared by every command
//! (`type Context<'a>`), one command file per area under `commands/`, doc comments as
//! the help, one [`on_error`]. The bot never reads a match's state: it renders
//! `view(viewer)` and the events a spectator may see, so the hidden pattern goes
//! nowhere before the end. Buttons carry their match and version ([`ids`]) and are
//! handled statelessly, so they keep working after a restart. Each live match has a
//! desk ([`desk`]) that says it in its channel, in order, exactly once.

pub mod commands;
pub mod desk;
pub mod ids;
pub mod post;
pub mod say;

use crate::config::Config;
use crate::finder::Limits;
use crate::finder::Style;
use crate::koan::{Koan, PieceSet};
use crate::lang::Pattern;
use crate::pool::Pool;
use crate::rules::zendo::opening::Source;
use crate::rules::zendo::{Action, Initial, Timing, opening};
use crate::rules::{Actor, PlayerId, RuleError};
use crate::runtime::zendo::{DUEL, PRACTICE};
use crate::runtime::{self, ActError, Runtime, SystemTime, ZendoMatch, ZendoView};
use crate::store::{MatchFilter, MatchId, MatchRecord, ServerSettings, Status, Store};
use desk::Desks;
use ids::{ButtonId, KOAN_FIELD, KoanModal, Press};
use poise::serenity_prelude as serenity;
use post::Post;
use std::sync::Arc;

/// Everything the commands share.
pub struct Bot {
    pub runtime: Runtime<ZendoMatch>,
    pub store: Store,
    pub http: Arc<serenity::Http>,
    pub config: Arc<Config>,
    desks: Desks,
    /// Matches being set up (between their checks and their creation): a duel by its
    /// channel, a practice by its channel and player.
    setting_up: Holds,
}

/// Keys held by one task at a time (no waiting: a second asker is told no).
#[derive(Default)]
pub struct Holds(std::sync::Mutex<std::collections::HashSet<(u64, u64)>>);

/// A held key, let go when dropped.
pub struct SettingUp<'a> {
    holds: &'a Holds,
    key: (u64, u64),
}

impl Holds {
    pub fn hold(&self, key: (u64, u64)) -> Option<SettingUp<'_>> {
        // Not `then_some`: that builds the guard even when the key is taken, and its
        // drop would let go of the other holder's key (and lock the held mutex again).
        let free = self.lock().insert(key);
        free.then(|| SettingUp { holds: self, key })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashSet<(u64, u64)>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for SettingUp<'_> {
    fn drop(&mut self) {
        self.holds.lock().remove(&self.key);
    }
}

/// Where an interaction was made, and when: its reply must be on its way within
/// Discord's 3 seconds of that.
#[derive(Clone, Copy, Debug)]
pub struct Asked {
    pub channel: u64,
    /// The interaction's id: a snowflake, whose top bits are when Discord made it.
    pub interaction: u64,
}

impl Asked {
    /// When Discord made the interaction (Unix milliseconds), read from its id.
    pub fn created_ms(&self) -> u64 {
        let made = serenity::InteractionId::new(self.interaction.max(1)).created_at();
        made.timestamp_millis().max(0) as u64
    }

    /// The moment to stop waiting for the desk's batch and answer "done" instead:
    /// [`desk::REPLY_BUDGET`] after the interaction was made (never later than the
    /// budget from now; a quarter of it when the clocks plainly disagree).
    pub fn reply_by(&self) -> tokio::time::Instant {
        tokio::time::Instant::now() + wait_from(wall_ms(), self.created_ms())
    }
}

/// The wall clock now, in Unix milliseconds.
fn wall_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// How long to wait now for a batch, at `now_ms`, for an interaction made at
/// `created_ms` (see [`Asked::reply_by`]).
fn wait_from(now_ms: u64, created_ms: u64) -> std::time::Duration {
    let budget = desk::REPLY_BUDGET.as_millis() as u64;
    let elapsed = now_ms as i64 - created_ms as i64;
    let wait = if elapsed.unsigned_abs() > CLOCK_SKEW_MS {
        // The two clocks disagree by more than any real delay: trust neither, and wait
        // a quarter of the budget.
        budget / 4
    } else {
        budget.saturating_sub(elapsed.max(0) as u64)
    };
    std::time::Duration::from_millis(wait)
}

/// A difference between the interaction's time and ours beyond this is the clocks
/// disagreeing, not the interaction being old (Discord drops it after 3 s anyway).
const CLOCK_SKEW_MS: u64 = 10_000;

/// An interaction's reply. A batch the desk handed over (it will not post it itself)
/// names the match's channel: if the reply cannot be sent (Discord's 3 s are gone),
/// the batch is posted there instead, so nothing said is lost.
#[derive(Debug)]
pub struct Handed {
    pub post: Post,
    pub fallback: Option<serenity::ChannelId>,
}

impl Handed {
    /// A reply of the interaction's own (a refusal, a note): nothing to rescue.
    pub fn own(post: Post) -> Handed {
        Handed {
            post,
            fallback: None,
        }
    }
}

/// What poise hands every command.
pub type Data = Arc<Bot>;
pub type Error = Box<dyn std::error::Error + Send + Sync>;
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// Why `mondo serve` stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(
        "DISCORD_TOKEN is not set: create a bot at https://discord.com/developers/applications \
         and set DISCORD_TOKEN to its token (see the README)"
    )]
    NoToken,
    #[error("DISCORD_TOKEN is not a Discord bot token ({0}); copy it again from the Bot page")]
    BadToken(String),
    #[error(
        "Discord refused the token (401 Unauthorized): reset it on the Bot page and set DISCORD_TOKEN again"
    )]
    Unauthorized,
    #[error("could not open the database {path}: {error}")]
    Store { path: String, error: String },
    #[error("the matches could not be resumed: {0}")]
    Runtime(String),
    #[error("Discord: {0}")]
    Discord(String),
}

/// The gateway events the bot needs: interactions come regardless; guilds fill the
/// cache poise reads channels from.
pub fn intents() -> serenity::GatewayIntents {
    serenity::GatewayIntents::GUILDS
}

/// An Http client: to Discord, or (tests) to `config.discord.api_proxy`.
pub fn http_client(token: &str, config: &Config) -> serenity::Http {
    let mut builder = serenity::HttpBuilder::new(token);
    if let Some(proxy) = &config.discord.api_proxy {
        builder = builder.proxy(proxy.clone()).ratelimiter_disabled(true);
    }
    builder.build()
}

/// The same, shared (the desks post with it).
pub fn http(token: &str, config: &Config) -> Arc<serenity::Http> {
    Arc::new(http_client(token, config))
}

impl Bot {
    /// Opens the store, resumes every unfinished match (their clocks re-armed, the
    /// time the bot was down not counted) and opens their desks.
    pub async fn start(
        config: Arc<Config>,
        http: Arc<serenity::Http>,
    ) -> Result<Arc<Bot>, ServeError> {
        let path = config.database.path.display().to_string();
        let store = Store::open(&config.database.path)
            .await
            .map_err(|e| ServeError::Store {
                path: path.clone(),
                error: e.to_string(),
            })?;
        let runtime_config = runtime::Config {
            work_limit_ms: config.umpire.work_limit_secs * 1000,
            ..runtime::Config::default()
        };
        let (runtime, recovery) = Runtime::start(store.clone(), SystemTime::new(), runtime_config)
            .await
            .map_err(|e| ServeError::Runtime(e.to_string()))?;
        for (id, e) in &recovery.failed {
            tracing::error!(%id, error = %e, "a match could not be resumed");
        }
        let bot = Arc::new(Bot {
            runtime,
            store,
            http,
            config,
            desks: Desks::default(),
            setting_up: Default::default(),
        });
        for id in &recovery.resumed {
            if let Ok(Some(record)) = bot.store.record(*id).await
                && let Some(channel) = record.channel
            {
                bot.open_desk(*id, channel);
            }
        }
        tracing::info!(resumed = recovery.resumed.len(), "matches resumed");
        Ok(bot)
    }

    /// Sends an interaction's reply with `send`; if that fails, a handed batch goes to
    /// its channel instead (and the failure is returned, for the log).
    pub async fn deliver<E, F>(&self, handed: Handed, send: impl FnOnce(Post) -> F) -> Result<(), E>
    where
        F: std::future::Future<Output = Result<(), E>>,
        E: std::fmt::Display,
    {
        let rescue = handed.fallback.map(|c| (c, handed.post.clone()));
        let result = send(handed.post).await;
        if let (Err(e), Some((channel, post))) = (&result, rescue) {
            tracing::warn!(error = %e, "a reply could not be sent: its batch goes to the channel");
            self.post(channel, &post).await;
        }
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
            wall_ms: wall_ms(),
        }
    }

    /// Applies an action for someone and returns the batch it caused, as the reply
    /// to their interaction (the desk hands it over instead of posting it). `None`
    /// when the desk did not hand it over in time (it then posts it itself). Asked from
    /// another channel than the match's (a host's override), the match's channel says
    /// the batch and the asker hears only that it was done, and where.
    pub async fn act(
        self: &Arc<Self>,
        game: MatchId,
        actor: Actor,
        action: Action,
        shown: Option<u64>,
        asked: Asked,
    ) -> Result<Option<Handed>, ActError<RuleError>> {
        let desk = match self.desks.get(game) {
            Some(d) => d,
            None => {
                let record = self
                    .store
                    .record(game)
                    .await
                    .map_err(|e| ActError::Runtime(e.into()))?
                    .ok_or(ActError::Runtime(runtime::RuntimeError::NoSuchMatch(game)))?;
                self.open_desk(game, record.channel.unwrap_or_default())
            }
        };
        let runtime = &self.runtime;
        if desk.channel.get() != asked.channel {
            runtime.act(game, actor, action, shown).await?;
            return Ok(Some(Handed::own(Post::private(format!(
                "done: match #{game} says it in <#{}>",
                desk.channel.get()
            )))));
        }
        let ((), rx) = desk
            .claim(async {
                runtime
                    .act(game, actor, action, shown)
                    .await
                    .map(|ack| ((), ack.seq))
            })
            .await?;
        Ok(tokio::time::timeout_at(asked.reply_by(), rx)
            .await
            .ok()
            .and_then(|r| r.ok())
            .map(|post| Handed {
                post,
                fallback: Some(desk.channel),
            }))
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
            .find(|r| r.kind == DUEL || r.kind == PRACTICE))
    }

    /// The live duels in `channel`.
    pub async fn duels_in(&self, channel: u64) -> Result<Vec<MatchRecord>, Error> {
        Ok(self
            .store
            .matches(&MatchFilter {
                kind: Some(DUEL),
                status: Some(Status::Live),
                channel: Some(channel),
                ..MatchFilter::default()
            })
            .await?)
    }

    /// A server's settings with the configured defaults filled in.
    pub async fn settings(&self, guild: Option<u64>) -> Result<Effective, Error> {
        let s = match guild {
            Some(g) => self.store.server_settings(g).await?,
            None => ServerSettings::default(),
        };
        let z = &self.config.zendo;
        Ok(Effective {
            timing: Timing {
                turn_ms: s.turn_ms.unwrap_or(z.turn_secs * 1000),
                challenge_ms: s.challenge_ms.unwrap_or(z.challenge_secs * 1000),
                guess_bonus_ms: s.guess_bonus_ms.unwrap_or(z.guess_bonus_secs * 1000),
            },
            style: s.style.unwrap_or(z.style),
            pool: s.pool.clone().unwrap_or_else(|| z.pool.clone()),
            host_role: s.host_role.or(self.config.host_role()),
            stored: s,
        })
    }

    /// Draws the hidden pattern and the two initial structures from a pool: a
    /// built-in one (`pyramids`, `arrows`), `generated` (the finder's work, off the
    /// async threads), or a server's. `pattern_id` picks an entry; otherwise the seed
    /// does.
    pub async fn draw(
        &self,
        guild: Option<u64>,
        pool: &str,
        pattern_id: Option<&str>,
        set: PieceSet,
        seed: u64,
    ) -> Result<(Pattern, Initial), String> {
        let name = pool.trim();
        let pool = match name.to_ascii_lowercase().as_str() {
            "generated" => {
                if pattern_id.is_some() {
                    return Err("a generated pattern has no id: leave `pattern-id` out".into());
                }
                let job = tokio::task::spawn_blocking(move || {
                    opening(Source::Generated, set, seed, &Limits::default())
                });
                let o = job
                    .await
                    .map_err(|e| format!("pattern generation failed: {e}"))?
                    .map_err(|e| e.to_string())?;
                return Ok((o.hidden, o.initial));
            }
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
                Pool::from_toml(&record.toml).map_err(|e| {
                    tracing::warn!(pool = name, error = %e, "a stored pool no longer reads");
                    format!(
                        "the pool `{name}` no longer reads (this Mondo is newer than the \
                         pool); a host can see why with `/pool check` and add it again"
                    )
                })?
            }
        };
        match pattern_id {
            Some(id) => {
                let entry = pool.get(id).filter(|e| e.set == set).ok_or_else(|| {
                    format!("the pool `{name}` has no {set} pattern with id `{id}`")
                })?;
                Ok((
                    entry.pattern.clone(),
                    Initial {
                        obeys: entry.obeys.clone(),
                        does_not: entry.does_not_obey.clone(),
                    },
                ))
            }
            // A pool entry brings its own structures: no finder work.
            None => opening(Source::Pool(&pool), set, seed, &Limits::default())
                .map(|o| (o.hidden, o.initial))
                .map_err(|e| format!("the pool `{name}`: {e}")),
        }
    }
}

/// Settings as they apply in a server: stored ones, else the configured defaults.
#[derive(Clone, Debug)]
pub struct Effective {
    pub timing: Timing,
    pub style: Style,
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

/// A refusal in words, with people as mentions.
pub fn refusal(e: &ActError<RuleError>) -> String {
    match e {
        ActError::Refused(RuleError::NotYourTurn { waiting_for }) => {
            format!(
                "it is not your turn: waiting for {}",
                say::mention(*waiting_for)
            )
        }
        ActError::Refused(RuleError::NotInMatch(p)) => {
            format!("{} is not playing in this match", say::mention(*p))
        }
        ActError::Refused(RuleError::StaleVersion { .. }) => {
            "that button is from an earlier moment of the match, which has moved on; use \
             the latest message, or `/zendo status`"
                .into()
        }
        ActError::Refused(e) => e.to_string(),
        ActError::Runtime(runtime::RuntimeError::Over(id)) => {
            format!("match #{id} is over")
        }
        ActError::Runtime(e) => format!("Mondo could not do that: {e}"),
    }
}

/// The opening post of a match (the initial structures; in a duel, who starts).
pub fn opening_post(game: MatchId, view: &ZendoView, clocks: say::Clocks) -> Post {
    match view {
        ZendoView::Duel(v) => say::duel_opening(game, v, clocks),
        ZendoView::Practice(v) => say::practice_opening(game, v),
    }
}

/// The one error handler: a command that failed says so to the one who asked (and
/// the log gets the details); poise's own handling for the rest.
pub async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            tracing::error!(command = %ctx.command().qualified_name, error = %error, "a command failed");
            let _ = ctx
                .send(
                    Post::private(format!(
                        "Mondo could not finish that: {error}. Nothing was lost; try again."
                    ))
                    .reply(),
                )
                .await;
        }
        poise::FrameworkError::ArgumentParse {
            error, input, ctx, ..
        } => {
            let what = input.map_or(String::new(), |i| format!(" `{i}`"));
            let _ = ctx
                .send(Post::private(format!("could not read{what}: {error}")).reply())
                .await;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::error!(error = %e, "error while handling an error");
            }
        }
    }
}

/// Buttons and modals (poise handles the slash commands).
pub async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    bot: &Data,
) -> Result<(), Error> {
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(press),
        } => on_button(ctx, bot, press).await,
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Modal(submit),
        } => on_modal(ctx, bot, submit).await,
        serenity::FullEvent::Ready { data_about_bot } => {
            tracing::info!(user = %data_about_bot.user.name, "connected to Discord");
            Ok(())
        }
        _ => Ok(()),
    }
}

async fn respond_button(
    ctx: &serenity::Context,
    bot: &Bot,
    press: &serenity::ComponentInteraction,
    handed: Handed,
) -> Result<(), Error> {
    bot.deliver(handed, |post| async move {
        press
            .create_response(
                ctx,
                serenity::CreateInteractionResponse::Message(post.response()),
            )
            .await
    })
    .await?;
    Ok(())
}

async fn on_button(
    ctx: &serenity::Context,
    bot: &Data,
    press: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    let id: ButtonId = match press.data.custom_id.parse() {
        Ok(id) => id,
        Err(e) => {
            return respond_button(ctx, bot, press, Handed::own(Post::private(format!("{e}"))))
                .await;
        }
    };
    let user = PlayerId(press.user.id.get());
    let actor = Actor::Player(user);
    let game = id.game;
    let shown = Some(id.version);
    let asked = Asked {
        channel: press.channel_id.get(),
        interaction: press.id.get(),
    };
    let handed = match id.press {
        Press::Start(starter) => claimed(
            bot.act(game, actor, Action::ChooseStarter { starter }, shown, asked)
                .await,
        ),
        Press::Confirm => claimed(bot.act(game, actor, Action::Confirm, shown, asked).await),
        Press::TakeBack => claimed(bot.act(game, actor, Action::TakeBack, shown, asked).await),
        Press::Answer(answer) => Handed::own(
            match bot
                .runtime
                .act(game, actor, Action::Answer { answer }, shown)
                .await
            {
                Ok(_) => Post::private(format!(
                    "Your answer to the challenge in match #{game} is in: **{answer}**. It stays \
                     private until both answers are in or time is up; you may change it until then."
                )),
                Err(e) => Post::private(refusal(&e)),
            },
        ),
        Press::AskHere => Handed::own(
            match bot
                .runtime
                .view(game, &crate::rules::Viewer::Player(user))
                .await
            {
                Ok(ZendoView::Duel(v)) if v.you.is_some() => {
                    match say::answer_post(game, &v, bot.clocks()) {
                        Some(mut p) => {
                            p.ephemeral = true;
                            p
                        }
                        None => Post::private("no challenge is waiting for answers now"),
                    }
                }
                Ok(_) => Post::private("only the two players of this duel answer its challenges"),
                Err(e) => Post::private(format!("Mondo could not find that match: {e}")),
            },
        ),
    };
    respond_button(ctx, bot, press, handed).await
}

/// An action's reply: its batch, or a refusal only the presser sees.
pub fn claimed(result: Result<Option<Handed>, ActError<RuleError>>) -> Handed {
    match result {
        Ok(Some(handed)) => handed,
        Ok(None) => Handed::own(Post::private("done: see the channel")),
        Err(e) => Handed::own(Post::private(refusal(&e))),
    }
}

async fn on_modal(
    ctx: &serenity::Context,
    bot: &Data,
    submit: &serenity::ModalInteraction,
) -> Result<(), Error> {
    let respond = |post: Post| async move {
        submit
            .create_response(
                ctx,
                serenity::CreateInteractionResponse::Message(post.response()),
            )
            .await
    };
    let modal: KoanModal = match submit.data.custom_id.parse() {
        Ok(m) => m,
        Err(e) => {
            respond(Post::private(e.to_string())).await?;
            return Ok(());
        }
    };
    let text = modal_text(&submit.data, KOAN_FIELD).unwrap_or_default();
    let user = submit.user.id.get();
    let asked = Asked {
        channel: submit.channel_id.get(),
        interaction: submit.id.get(),
    };
    let handed = match bot.store.record(modal.game).await? {
        None => Handed::own(Post::private(NO_MATCH)),
        Some(record) => match koan_action(&text, modal.mode, &record) {
            Err(e) => Handed::own(Post::private(e)),
            Ok(action) => claimed(
                bot.act(
                    record.id,
                    Actor::Player(PlayerId(user)),
                    action,
                    Some(modal.version),
                    asked,
                )
                .await,
            ),
        },
    };
    bot.deliver(handed, respond).await?;
    Ok(())
}

/// The text typed into a modal's box.
fn modal_text(data: &serenity::ModalInteractionData, field: &str) -> Option<String> {
    data.components
        .iter()
        .flat_map(|row| &row.components)
        .find_map(|c| match c {
            serenity::ActionRowComponent::InputText(t) if t.custom_id == field => t.value.clone(),
            _ => None,
        })
}

pub const NO_MATCH: &str = "you are not playing a match in this channel: start one with \
                            `/zendo duel` or `/zendo practice`";

/// A structure as typed, read for the match's piece set, as the action that builds it.
pub fn koan_action(
    text: &str,
    mode: crate::rules::zendo::Mode,
    record: &MatchRecord,
) -> Result<Action, String> {
    let set = match serde_json::from_str::<crate::rules::zendo::Settings>(&record.settings) {
        Ok(s) => s.set,
        Err(_) => PieceSet::Pyramids,
    };
    if text.trim().is_empty() {
        return Err("give a structure, e.g. `3> .. 2^ / .. 1< 1<` (rows split by ` / `)".into());
    }
    let koan =
        Koan::parse_as(text, set).map_err(|e| format!("that structure does not read: {e}"))?;
    Ok(Action::Build { koan, mode })
}

/// Connects to Discord and runs until Ctrl-C (or the connection fails for good).
pub async fn serve(config: Config) -> Result<(), ServeError> {
    let token = std::env::var("DISCORD_TOKEN")
        .ok()
        .filter(|t| !t.trim().is_empty())
        .ok_or(ServeError::NoToken)?;
    let token = token.trim().to_string();
    serenity::utils::validate_token(&token).map_err(|e| ServeError::BadToken(e.to_string()))?;
    let config = Arc::new(config);
    let http = http(&token, &config);
    // Ask Discord who we are before anything else: a token it refuses is one line now,
    // not a gateway that retries forever (serenity falls back to the default gateway
    // URL when it cannot ask for one).
    match http.get_current_user().await {
        Ok(me) => tracing::info!(bot = %me.name, "Discord accepts the token"),
        Err(serenity::Error::Http(e))
            if e.status_code() == Some(serenity::StatusCode::UNAUTHORIZED) =>
        {
            return Err(ServeError::Unauthorized);
        }
        Err(e) => return Err(ServeError::Discord(format!("could not reach Discord: {e}"))),
    }
    // The commands are registered before connecting, so a refusal (a wrong
    // MONDO_DISCORD_GUILD, a bot not in that server) stops here in one line instead of
    // leaving a connected bot that answers nothing.
    let app = http
        .get_current_application_info()
        .await
        .map_err(|e| ServeError::Discord(format!("could not read the application: {e}")))?;
    http.set_application_id(app.id);
    register(&http, config.discord.guild).await?;
    let bot = Bot::start(config.clone(), http).await?;
    let mut client = client(bot.clone(), http_client(&token, &config)).await?;
    let shards = client.shard_manager.clone();
    let result = tokio::select! {
        r = client.start() => r.map_err(|e| match e {
            serenity::Error::Http(h) if h.status_code() == Some(serenity::StatusCode::UNAUTHORIZED) => {
                ServeError::Unauthorized
            }
            other => ServeError::Discord(other.to_string()),
        }),
        _ = tokio::signal::ctrl_c() => {
            tracing::info!("stopping");
            shards.shutdown_all().await;
            Ok(())
        }
    };
    drop(client);
    // Every match task finishes the command in hand and the game clock is saved.
    if let Err(e) = bot.runtime.clone().shutdown().await {
        tracing::warn!(error = %e, "the matches did not stop cleanly (nothing is lost)");
    }
    result
}

/// Registers every slash command: in one server (`discord.guild`, at once) or
/// globally (Discord may take up to an hour to show them).
pub async fn register(http: &serenity::Http, guild: Option<u64>) -> Result<(), ServeError> {
    let commands = poise::builtins::create_application_commands(&commands::all());
    let result = match guild {
        Some(g) => serenity::GuildId::new(g.max(1))
            .set_commands(http, commands)
            .await
            .map(drop),
        None => serenity::Command::set_global_commands(http, commands)
            .await
            .map(drop),
    };
    result.map_err(|e| {
        ServeError::Discord(match guild {
            Some(g) => format!(
                "could not register the commands in server {g} ({e}): is the bot in that \
                 server, and is MONDO_DISCORD_GUILD (discord.guild) its id?"
            ),
            None => format!("could not register the commands ({e})"),
        })
    })
}

/// The poise framework and the serenity client around a started [`Bot`]. The client
/// gets its own `Http` (serenity owns it) with the same token and base URL as the
/// bot's, which the desks post with.
pub async fn client(bot: Arc<Bot>, http: serenity::Http) -> Result<serenity::Client, ServeError> {
    let options = poise::FrameworkOptions {
        commands: commands::all(),
        on_error: |error| Box::pin(on_error(error)),
        event_handler: |framework, event| {
            Box::pin(on_event(
                framework.serenity_context,
                event,
                framework.user_data,
            ))
        },
        ..Default::default()
    };
    let framework = poise::Framework::builder()
        .options(options)
        // The commands are registered already (see `serve`).
        .setup(move |_ctx, _ready, _framework| Box::pin(async move { Ok(bot) }))
        .build();
    serenity::ClientBuilder::new_with_http(http, intents())
        .framework(framework)
        .await
        .map_err(|e| ServeError::Discord(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_reply_waits_for_its_batch_only_within_discords_three_seconds() {
        let budget = desk::REPLY_BUDGET;
        let made = 1_700_000_000_000;
        // Just made: the whole budget.
        assert_eq!(wait_from(made, made), budget);
        // 1.5 s spent already (a slow commit): what is left of the budget.
        assert_eq!(
            wait_from(made + 1_500, made),
            budget - Duration::from_millis(1_500)
        );
        // The budget spent: no waiting at all (the desk posts the batch itself).
        assert_eq!(wait_from(made + 2_900, made), Duration::ZERO);
        // Our clock a little behind Discord's: the whole budget, never more.
        assert_eq!(wait_from(made - 800, made), budget);
        // Clocks that disagree by more than any real delay: a quarter of the budget.
        assert_eq!(wait_from(made - 60_000, made), budget / 4);
        assert_eq!(wait_from(made + 60_000, made), budget / 4);
        assert!(budget < Duration::from_secs(3));
    }

    #[test]
    fn one_set_up_at_a_time_per_channel_and_player() {
        let holds = Holds::default();
        let duel = holds.hold((7, 0)).expect("free");
        assert!(
            holds.hold((7, 0)).is_none(),
            "a second duel here waits its turn"
        );
        assert!(holds.hold((8, 0)).is_some(), "another channel is free");
        assert!(
            holds.hold((7, 42)).is_some(),
            "a practice here is another key"
        );
        drop(duel);
        assert!(holds.hold((7, 0)).is_some(), "let go when dropped");
    }

    #[test]
    fn an_interactions_time_is_read_from_its_snowflake() {
        // Discord's documented example: 175928847299117063 was made 2016-04-30 11:18:25.796 UTC.
        let asked = Asked {
            channel: 1,
            interaction: 175_928_847_299_117_063,
        };
        assert_eq!(asked.created_ms(), 1_462_015_105_796);
    }
}
