//! Each live match's desk: the one task that says the match in its channel, in order.
//!
//! The desk follows the match as a spectator (so it can only say what anyone may
//! know) and posts every batch of events, with its pictures and buttons. A batch
//! caused by an interaction in the channel (a `/koan`, a button) is *claimed* by that
//! interaction and handed back to it, so it becomes the interaction's reply instead of
//! a second message; if the interaction is gone, the desk posts it itself. Nothing is
//! said twice and nothing is lost: the last event said is stored, and a restarted bot
//! says what was committed but not yet said.
//!
//! When a challenge opens, the desk also sends each player the answer buttons by DM;
//! a player the bot cannot DM answers through a button in the channel.

use super::Bot;
use super::games::{self, Voice};
use super::post::Post;
use super::say;
use crate::rules::zendo::DuelEvent;
use crate::rules::{EventKind, PlayerId, Viewer};
use crate::runtime::{AnyEvent, AnyMatch, AnyView, Engine};
use crate::store::MatchId;
use poise::serenity_prelude as serenity;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;

/// How long after an interaction was made its reply may still wait for the desk to
/// hand back its batch (Discord allows 3 s for the first response; the rest is the
/// response's own way there).
pub const REPLY_BUDGET: Duration = Duration::from_millis(2_300);

/// The longest a DM may take (serenity's client sets no timeout of its own): a DM that
/// hangs counts as failed, and the player answers in the channel.
pub const DM_WAIT: Duration = Duration::from_secs(5);

/// One live match's desk.
pub struct Desk {
    pub game: MatchId,
    pub channel: serenity::ChannelId,
    /// Held while an interaction acts and claims its batch, and while the desk looks
    /// for a claim: the desk never looks before the claim is made.
    gate: tokio::sync::Mutex<()>,
    /// Batches (by their last event) that interactions wait for.
    claims: Mutex<HashMap<u64, oneshot::Sender<Post>>>,
    /// Opened for a match resumed at start-up: what it says first was missed while the
    /// bot was away (a new match's first events, such as an Assembly's first reveal,
    /// committed before its desk listened, were not).
    resumed: bool,
}

/// The desks of the live matches, by match.
#[derive(Default)]
pub struct Desks {
    map: Mutex<HashMap<MatchId, Arc<Desk>>>,
}

impl Desks {
    pub fn get(&self, game: MatchId) -> Option<Arc<Desk>> {
        self.lock().get(&game).cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<MatchId, Arc<Desk>>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Desk {
    fn claims(&self) -> std::sync::MutexGuard<'_, HashMap<u64, oneshot::Sender<Post>>> {
        self.claims.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `act` (an action on the match) and claims the batch it commits, whose last
    /// event is the `u64` it returns.
    pub async fn claim<T, E>(
        &self,
        act: impl std::future::Future<Output = Result<(T, u64), E>>,
    ) -> Result<(T, oneshot::Receiver<Post>), E> {
        let _gate = self.gate.lock().await;
        let (value, seq) = act.await?;
        let (tx, rx) = oneshot::channel();
        self.claims().insert(seq, tx);
        Ok((value, rx))
    }

    /// The claim for the batch ending at `seq`, if an interaction waits for it; older
    /// claims (their batches were merged into another) are dropped.
    async fn take(&self, seq: u64) -> Option<oneshot::Sender<Post>> {
        let _gate = self.gate.lock().await;
        let mut claims = self.claims();
        let claim = claims.remove(&seq);
        claims.retain(|s, _| *s > seq);
        claim
    }
}

impl Bot {
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
        if let AnyView::Bluffs(_) = &view {
            // Each player's own goes to them alone (their DMs).
            games::bluffs::follow(self.clone(), game);
        }
        let mut voice = Voice::new(&view);
        self.catch_up(desk, feed.seq(), &view, &mut voice).await;
        if let AnyView::Assembly(v) = &view {
            // A reveal that ended (or began) while the bot was away.
            self.assembly_grid(desk.channel, game, v, None).await;
        }
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
            let post = games::batch(&mut voice, &events, &view, self.clocks(), game, &no_dm);
            if !post.is_empty() {
                match claim {
                    Some(tx) => {
                        if let Err(post) = tx.send(post) {
                            self.post(desk.channel, &post).await;
                        }
                    }
                    None => self.post(desk.channel, &post).await,
                }
            }
            if challenge_opened(&events)
                && let AnyView::ZendoDuel(v) = &view
            {
                self.send_answer_dms(desk, v).await;
            }
            if let Some((post, players, version)) = self.triple_dm(game, &events, &view) {
                self.send_dms(desk, &players, version, &post).await;
            }
            self.send_mondo_dms(desk, &events, &view).await;
            if let AnyView::Assembly(v) = &view {
                self.assembly_grid(desk.channel, game, v, Some(&events))
                    .await;
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
    /// opening if even that was never said.
    async fn catch_up(self: &Arc<Self>, desk: &Desk, upto: u64, view: &AnyView, voice: &mut Voice) {
        let game = desk.game;
        let said = match self.store.announced(game).await {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!(%game, error = %e, "could not read what was said");
                return;
            }
        };
        if said >= upto {
            return;
        }
        let mut post = Post::default();
        if said == 0 {
            post.append(games::opening(game, view, self.clocks()));
        }
        let kind = view.kind().name();
        let state = self.runtime.state_of(game).await;
        let events: Vec<AnyEvent> = match (self.store.events_after(game, said).await, state) {
            (Ok(stored), Ok(state)) => stored
                .iter()
                .filter(|s| s.seq <= upto)
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
            post.append(games::batch(
                voice,
                &events,
                view,
                self.clocks(),
                game,
                &no_dm,
            ));
        }
        if !post.is_empty() {
            self.post(desk.channel, &post).await;
        }
        // A challenge opened while the bot was away (or just before it stopped) and
        // still waiting: its DMs may never have gone out.
        if challenge_opened(&events)
            && let AnyView::ZendoDuel(v) = view
        {
            self.send_answer_dms(desk, v).await;
        }
        if let Some((post, players, version)) = self.triple_dm(game, &events, view) {
            self.send_dms(desk, &players, version, &post).await;
        }
        self.send_mondo_dms(desk, &events, view).await;
        if let Err(e) = self.store.set_announced(game, upto).await {
            tracing::warn!(%game, error = %e, "could not record what was said");
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

    /// A challenge opened: each player with a DM channel gets the answer buttons there;
    /// if a DM fails now, the channel offers that player the private button instead.
    async fn send_answer_dms(&self, desk: &Desk, view: &crate::rules::zendo::DuelView) {
        let Some(post) = games::zendo::answer_post(desk.game, view, self.clocks()) else {
            return;
        };
        self.send_dms(desk, view.players.values(), view.version, &post)
            .await;
    }

    /// A Zendo Classic mondo opened: every student's answer buttons, as a duel's.
    async fn send_mondo_dms(&self, desk: &Desk, events: &[AnyEvent], view: &AnyView) {
        let AnyView::ZendoClassic(v) = view else {
            return;
        };
        if !games::zendo::classic::mondo_opened(events) {
            return;
        }
        if let Some(post) = games::zendo::classic::answer_post(desk.game, v, self.clocks()) {
            self.send_dms(desk, v.players.values(), v.version, &post)
                .await;
        }
    }

    /// `post` to each of `players` by DM (each at most [`DM_WAIT`], both at once); the
    /// channel offers those it failed for the private button (drawn at `version`).
    async fn send_dms(&self, desk: &Desk, players: &[PlayerId], version: u64, post: &Post) {
        let dms = self.store.dm_channels(desk.game).await.unwrap_or_default();
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
            let message = post.message();
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
            tracing::info!(game = %desk.game, user = player.0, %error, "a challenge DM failed");
            failed.push(player);
        }
        failed.sort();
        if !failed.is_empty() {
            let mut fallback = Post::text(format!(
                "{}: I could not DM you the answer buttons, so answer with the button below \
                 (only you see your answer)",
                failed
                    .iter()
                    .map(|p| say::mention(*p))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            fallback.buttons(vec![super::post::Button::new(
                super::ids::ButtonId {
                    game: desk.game,
                    version,
                    press: super::ids::Press::AskHere,
                },
                "Answer privately",
            )]);
            self.post(desk.channel, &fallback).await;
        }
    }

    /// Posts in a channel; a failure is logged (the match goes on regardless).
    pub async fn post(&self, channel: serenity::ChannelId, post: &Post) {
        if let Err(e) = channel.send_message(&self.http, post.message()).await {
            tracing::warn!(channel = channel.get(), error = %e, "could not post in the channel");
        }
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
