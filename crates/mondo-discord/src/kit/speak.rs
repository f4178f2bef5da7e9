//! The desk's task: following a live match as a spectator and saying each batch in its
//! channel (see [`super::desk`]), with the follow-ups its game asks for (answer buttons
//! by DM, a picture kept up to date); and acting for someone, whose batch becomes their
//! interaction's reply.

use super::base::{Asked, Handed, ServeError};
use super::data::{Bot, Dms, Fronts, Said, Voice};
use super::desk::{DELIVERY_WAIT, DM_WAIT, Desk, Handover};
use super::post::{Post, nonce};
use super::say;
use crate::config::Config;
use crate::rules::{Actor, PlayerId, RuleError, Viewer};
use crate::runtime::{self, ActError, AnyAction, AnyEvent, AnyMatch, AnyView, Engine, Runtime};
use crate::store::MatchId;
use crate::store::Store;
use poise::serenity_prelude as serenity;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The part of a batch said in the match's channel (see [`nonce`]).
const CHANNEL: &str = "channel";

impl Bot {
    /// Opens the store, resumes every unfinished match (their clocks re-armed, the
    /// time the bot was down not counted) and opens their desks.
    pub async fn start(
        config: Arc<Config>,
        http: Arc<serenity::Http>,
        fronts: &'static dyn Fronts,
    ) -> Result<Arc<Bot>, ServeError> {
        let location = config.database.location().map_err(|e| ServeError::Store {
            path: config.database.path.display().to_string(),
            error: e.to_string(),
        })?;
        let path = location.to_string();
        let durability = crate::store::Durability::default();
        let store = Store::connect_tuned(&location, durability, config.database.timeouts())
            .await
            .map_err(|e| ServeError::Store {
                path: path.clone(),
                error: e.to_string(),
            })?;
        store.set_rating_period_days(config.leaderboard.rating_period_days);
        let runtime_config = config.database.runtime(runtime::Config {
            work_limit_ms: crate::config::ms(config.umpire.work_limit_secs),
            // A terminal's match on the shared database stays the terminal's.
            adopt_unplaced: false,
            ..runtime::Config::default()
        });
        let (runtime, recovery) =
            Runtime::start_rated(store.clone(), runtime::clock::serve_time(), runtime_config)
                .await
                .map_err(|e| ServeError::Runtime(e.to_string()))?;
        for (id, e) in &recovery.failed {
            tracing::error!(%id, error = %e, "a match could not be resumed");
        }
        // Every open tournament's round deadline armed again (docs/tournaments.md).
        let tournaments = runtime::Tournaments::start(&runtime)
            .await
            .map_err(|e| ServeError::Runtime(e.to_string()))?;
        let bot = Arc::new(Bot {
            runtime,
            tournaments,
            store,
            http,
            config,
            desks: Default::default(),
            fronts,
            setting_up: Default::default(),
        });
        for id in &recovery.resumed {
            if let Ok(Some(record)) = bot.store.record(*id).await
                && let Some(channel) = record.channel
            {
                bot.open_desk_as(*id, channel, true);
            }
        }
        // Matches taken over from a process that died or stalled: said from where their
        // last owner left off, as on a restart.
        let mut taken = bot.runtime.taken_over();
        let weak = Arc::downgrade(&bot);
        tokio::spawn(async move {
            loop {
                let id = match taken.recv().await {
                    Ok(id) => id,
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                };
                let Some(bot) = weak.upgrade() else { return };
                if let Ok(Some(record)) = bot.store.record(id).await
                    && let Some(channel) = record.channel
                {
                    bot.open_desk_as(id, channel, true);
                }
            }
        });
        tracing::info!(
            resumed = recovery.resumed.len(),
            elsewhere = recovery.elsewhere.len(),
            owner = bot.runtime.owner(),
            "matches resumed"
        );
        Ok(bot)
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
        action: AnyAction,
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
        let (seq, rx) = desk
            .claim(async {
                runtime
                    .act(game, actor, action, shown)
                    .await
                    .map(|ack| (ack.seq, ack.seq))
            })
            .await?;
        Ok(tokio::time::timeout_at(asked.reply_by(), rx)
            .await
            .ok()
            .and_then(|r| r.ok())
            .map(|handover| Handed {
                post: handover.post,
                fallback: Some(desk.channel),
                batch: Some((game, seq)),
                delivered: Some(handover.delivered),
            }))
    }

    /// Opens the desk of a live match (once) and starts saying it in `channel`.
    pub fn open_desk(self: &Arc<Self>, game: MatchId, channel: u64) -> Arc<Desk> {
        self.open_desk_as(game, channel, false)
    }

    /// [`Bot::open_desk`], saying whether the match was resumed at start-up.
    pub fn open_desk_as(self: &Arc<Self>, game: MatchId, channel: u64, resumed: bool) -> Arc<Desk> {
        let mut desks = self.desks.lock();
        if let Some(d) = desks.get(&game) {
            return d.clone();
        }
        let desk = Arc::new(Desk {
            game,
            channel: serenity::ChannelId::new(channel.max(1)),
            gate: tokio::sync::Mutex::new(()),
            claims: Mutex::new(HashMap::new()),
            resumed,
        });
        desks.insert(game, desk.clone());
        let bot = self.clone();
        let d = desk.clone();
        tokio::spawn(async move {
            bot.announce(&d).await;
            bot.desks.lock().remove(&d.game);
        });
        desk
    }

    /// Says a match in its channel until it is over.
    async fn announce(self: &Arc<Self>, desk: &Desk) {
        let game = desk.game;
        let mut feed = match self.runtime.subscribe(game, Viewer::Spectator).await {
            Ok(f) => f,
            Err(e) => {
                tracing::warn!(%game, error = %e, "a match's desk could not follow it");
                return;
            }
        };
        let view = feed.view();
        // What the game follows besides the channel (a player's own, by DM).
        self.fronts.on_open(self, game, &view);
        let mut voice = self.fronts.voice(&view);
        self.catch_up(desk, feed.seq(), &view, &mut voice).await;
        // What changed while the bot was away (a picture kept up to date).
        self.fronts
            .after(self, desk.channel, game, &view, None)
            .await;
        loop {
            let update = match feed.next().await {
                Some(Ok(u)) => u,
                Some(Err(e)) => {
                    tracing::warn!(%game, error = %e, "a match's desk missed an update");
                    continue;
                }
                None => break,
            };
            // The store's trouble with the umpire's own request: the channel hears why
            // the match waits.
            if let Some(notice) = &update.notice {
                self.post(desk.channel, &Post::text(notice.text())).await;
                continue;
            }
            let claim = desk.take(update.seq).await;
            let events: Vec<AnyEvent> = update.events.into_iter().map(|(_, e)| e).collect();
            let no_dm = self.no_dm(game).await;
            let view = update.view;
            let said = Said {
                game,
                clocks: self.clocks(),
                no_dm: &no_dm,
            };
            let mut post = self.fronts.batch(&mut voice, &events, &view, said);
            if update.over {
                // The result as a card: players, outcome, rating changes, the table's
                // picture.
                post.append(self.result_card(game, &view).await);
            }
            let dms = self.fronts.dms(game, &events, &view, self.clocks());
            if !post.is_empty() || dms.is_some() {
                self.posting(game, update.seq).await;
            }
            let mut handed = None;
            if !post.is_empty() {
                let post = post.once(nonce(game, update.seq, CHANNEL));
                match claim {
                    Some(tx) => {
                        let (delivered, done) = tokio::sync::oneshot::channel();
                        match tx.send(Handover { post, delivered }) {
                            Ok(()) => handed = Some(done),
                            Err(back) => self.post(desk.channel, &back.post).await,
                        }
                    }
                    None => self.post(desk.channel, &post).await,
                }
            }
            if let Some(dms) = dms {
                self.send_dms(desk, update.seq, &dms).await;
            }
            self.fronts
                .after(self, desk.channel, game, &view, Some(&events))
                .await;
            if let Some(done) = handed {
                // Said once the reply is done (either way: sent, or posted instead).
                let _ = tokio::time::timeout(DELIVERY_WAIT, done).await;
            }
            if let Err(e) = self.store.set_announced(game, update.seq).await {
                tracing::warn!(%game, error = %e, "could not record what was said");
            }
            if update.over {
                break;
            }
        }
    }

    /// Says what was committed but not said (the bot stopped in between), and the
    /// opening if even that was never said. A post that may have gone out before the
    /// stop (see [`Store::set_posting`]) is posted again on its own, under its nonce:
    /// Discord keeps the first; then the rest.
    async fn catch_up(self: &Arc<Self>, desk: &Desk, upto: u64, view: &AnyView, voice: &mut Voice) {
        let game = desk.game;
        let (said, posting) = match (
            self.store.announced(game).await,
            self.store.posting(game).await,
        ) {
            (Ok(said), Ok(posting)) => (said, posting),
            (Err(e), _) | (_, Err(e)) => {
                tracing::warn!(%game, error = %e, "could not read what was said");
                return;
            }
        };
        let pending = posting.filter(|p| p.upto > said && p.upto <= upto);
        let mut from = said;
        if let Some(p) = pending {
            self.say_missed(desk, from, p.upto, p.reply.as_deref(), view, voice)
                .await;
            from = p.upto;
        }
        if from < upto {
            self.say_missed(desk, from, upto, None, view, voice).await;
        }
    }

    /// Says the events after `from` up to `to`, missed (as one post with its DMs);
    /// unless they went out as the first reply to the interaction with token `reply`
    /// (Discord still has it: the DMs go again, under their nonces).
    async fn say_missed(
        self: &Arc<Self>,
        desk: &Desk,
        from: u64,
        to: u64,
        reply: Option<&str>,
        view: &AnyView,
        voice: &mut Voice,
    ) {
        let game = desk.game;
        let mut post = Post::default();
        if from == 0 {
            post.append(self.fronts.opening(game, view, self.clocks()));
        }
        let kind = view.kind().name();
        let state = self.runtime.state_of(game).await;
        let events: Vec<AnyEvent> = match (self.store.events_after(game, from).await, state) {
            (Ok(stored), Ok(state)) => stored
                .iter()
                .filter(|s| s.seq <= to)
                .filter_map(|s| AnyMatch::decode(kind, &s.body).ok())
                .filter_map(|e| state.redact(&e, &Viewer::Spectator))
                .collect(),
            (_, Err(e)) => {
                tracing::warn!(%game, error = %e, "could not read the match to say");
                Vec::new()
            }
            (Err(e), _) => {
                tracing::warn!(%game, error = %e, "could not read the events to say");
                Vec::new()
            }
        };
        if !events.is_empty() {
            if desk.resumed {
                post.line("(while Mondo was away:)");
            }
            let no_dm = self.no_dm(game).await;
            let said = Said {
                game,
                clocks: self.clocks(),
                no_dm: &no_dm,
            };
            post.append(self.fronts.batch(voice, &events, view, said));
        }
        // A challenge opened while the bot was away (or just before it stopped) and
        // still waiting: its DMs may never have gone out.
        let dms = self.fronts.dms(game, &events, view, self.clocks());
        if reply.is_none() && (!post.is_empty() || dms.is_some()) {
            self.posting(game, to).await;
        }
        let replied = match reply {
            Some(token) => self
                .http
                .get_original_interaction_response(token)
                .await
                .is_ok(),
            None => false,
        };
        if replied {
            tracing::info!(%game, upto = to, "a batch went out as a reply already: not said again");
        } else if !post.is_empty() {
            self.post(desk.channel, &post.once(nonce(game, to, CHANNEL)))
                .await;
        }
        if let Some(dms) = dms {
            self.send_dms(desk, to, &dms).await;
        }
        if let Err(e) = self.store.set_announced(game, to).await {
            tracing::warn!(%game, error = %e, "could not record what was said");
        }
    }

    /// Records that the events of `game` up to `seq` are about to be said (see
    /// [`Store::set_posting`]); a failure is logged (the post goes out regardless).
    async fn posting(&self, game: MatchId, seq: u64) {
        if let Err(e) = self.store.set_posting(game, seq).await {
            tracing::warn!(%game, error = %e, "could not record what is being said");
        }
    }

    /// The players of `game` the bot cannot DM.
    async fn no_dm(&self, game: MatchId) -> Vec<PlayerId> {
        match self.store.dm_channels(game).await {
            Ok(map) => {
                let mut v: Vec<PlayerId> = map
                    .into_iter()
                    .filter(|(_, dm)| dm.is_none())
                    .map(|(u, _)| PlayerId(u))
                    .collect();
                v.sort();
                v
            }
            Err(_) => Vec::new(),
        }
    }

    /// A batch's DMs (the events up to `seq`) to each of their players (each at most
    /// [`DM_WAIT`], both at once), each under its nonce; the channel offers those it
    /// failed for the game's `fallback` button.
    async fn send_dms(&self, desk: &Desk, seq: u64, dms_of: &Dms) {
        let Dms {
            post,
            to: players,
            fallback,
        } = dms_of;
        let game = desk.game;
        let dms = self.store.dm_channels(game).await.unwrap_or_default();
        // Both DMs at once, each given at most DM_WAIT: one slow DM must not hold up
        // the other, nor this desk (which says the match) for long.
        let mut sends = tokio::task::JoinSet::new();
        let mut failed = Vec::new();
        for &player in players {
            let Some(Some(dm)) = dms.get(&player.0) else {
                // Never DMed (or not known to the store): the channel's button serves.
                continue;
            };
            let http = self.http.clone();
            let message = post
                .clone()
                .once(nonce(game, seq, &format!("dm {}", player.0)))
                .message();
            let dm = serenity::ChannelId::new((*dm).max(1));
            sends.spawn(async move {
                let sent = tokio::time::timeout(DM_WAIT, dm.send_message(&http, message)).await;
                (player, sent)
            });
        }
        while let Some(done) = sends.join_next().await {
            let Ok((player, sent)) = done else { continue };
            let error = match sent {
                Ok(Ok(_)) => continue,
                Ok(Err(e)) => e.to_string(),
                Err(_) => format!("no answer from Discord in {} s", DM_WAIT.as_secs()),
            };
            crate::metrics::discord_failed();
            tracing::info!(game = %desk.game, user = player.0, %error, "a challenge DM failed");
            failed.push(player);
        }
        failed.sort();
        if !failed.is_empty() {
            let mut offer = Post::text(format!(
                "{}: I could not DM you the answer buttons, so answer with the button below \
                 (only you see your answer)",
                failed
                    .iter()
                    .map(|p| say::mention(*p))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            offer.buttons(vec![fallback.clone()]);
            self.post(desk.channel, &offer.once(nonce(game, seq, "no dm")))
                .await;
        }
    }

    /// Posts in a channel; a failure is logged (the match goes on regardless).
    pub async fn post(&self, channel: serenity::ChannelId, post: &Post) {
        if let Err(e) = channel.send_message(&self.http, post.message()).await {
            crate::metrics::discord_failed();
            tracing::warn!(channel = channel.get(), error = %e, "could not post in the channel");
        }
    }
}
