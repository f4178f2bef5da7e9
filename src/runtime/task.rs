//! One live match: its task orders everything that happens to it (commands, time-outs,
//! the umpire's answers), so the engine sees one request at a time, and every event
//! is committed before it is announced.

use super::{Ack, ActError, Announcement, Command, Config, Engine, GameClock, Query, RuntimeError};
use crate::store::{MatchId, NewEvent, Store};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::{broadcast, mpsc};
use tokio::task::JoinError;

/// How long to wait before trying the runtime's own action again after the store
/// failed (the player's own requests just get the error).
const STORE_RETRY_MS: u64 = 1_000;

/// The umpire's work, by key: its answer, or how it failed.
type WorkResult<G> = (u64, Result<<G as Engine>::Action, JoinError>);

pub(super) struct Live<G: Engine> {
    id: MatchId,
    /// The stored kind (how its events read).
    kind: String,
    state: Arc<G>,
    /// The number of the last event in the store.
    seq: u64,
    store: Store,
    clock: GameClock,
    config: Config,
    commands: mpsc::Receiver<Command<G>>,
    announce: broadcast::Sender<Arc<Announcement<G>>>,
    /// Umpire work under way: its key, and the flag that tells it to stop.
    working: Option<(u64, Arc<AtomicBool>)>,
    /// Work abandoned in this state: not started again until the state moves on.
    abandoned: Option<(u64, u64)>,
    /// A time-out the engine refused in this state: not armed again until it moves on.
    refused_timeout: Option<(u64, u64)>,
    results: (
        mpsc::UnboundedSender<WorkResult<G>>,
        mpsc::UnboundedReceiver<WorkResult<G>>,
    ),
}

impl<G: Engine> Live<G> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        id: MatchId,
        kind: String,
        state: G,
        seq: u64,
        store: Store,
        clock: GameClock,
        config: Config,
        commands: mpsc::Receiver<Command<G>>,
    ) -> Live<G> {
        Live {
            id,
            kind,
            state: Arc::new(state),
            seq,
            store,
            clock,
            config,
            commands,
            announce: broadcast::channel(config.backlog.max(1)).0,
            working: None,
            abandoned: None,
            refused_timeout: None,
            results: mpsc::unbounded_channel(),
        }
    }

    /// Applies one request: decide, commit, then announce.
    async fn apply(
        &mut self,
        actor: &G::Actor,
        action: &G::Action,
        shown: Option<u64>,
    ) -> Result<Ack, ActError<G::Error>> {
        let now = self.clock.now();
        let (events, next) = self
            .state
            .decide(actor, action, shown, now)
            .map_err(ActError::Refused)?;
        if events.is_empty() {
            return Ok(self.ack());
        }
        let rows = events
            .iter()
            .map(|e| {
                Ok(NewEvent {
                    at: G::event_at(e),
                    body: serde_json::to_string(e)
                        .map_err(|e| RuntimeError::Encode(e.to_string()))?,
                })
            })
            .collect::<Result<Vec<_>, RuntimeError>>()?;
        let first_seq = self.seq + 1;
        match self
            .store
            .append(self.id, self.seq, rows, next.is_over())
            .await
        {
            Ok(seq) => self.seq = seq,
            Err(e) => {
                // Whether or not the events made it (the answer may be what was lost),
                // the log is the truth: go on from it.
                self.reload().await;
                return Err(RuntimeError::from(e).into());
            }
        }
        // Committed: now the match has moved on, and may say so.
        self.state = Arc::new(next);
        let _ = self.announce.send(Arc::new(Announcement {
            first_seq,
            events,
            state: self.state.clone(),
        }));
        Ok(self.ack())
    }

    /// Rebuilds the state from the store after a failed append.
    async fn reload(&mut self) {
        let Ok(stored) = self.store.events(self.id).await else {
            return;
        };
        let events = super::decode_all::<G>(self.id, &self.kind, &stored);
        match events.map(|events| G::replay(&self.kind, &events)) {
            Ok(Ok(state)) => {
                self.seq = stored.last().map_or(0, |e| e.seq);
                self.state = Arc::new(state);
            }
            Ok(Err(reason)) => tracing::error!(id = %self.id, %reason, "the log does not replay"),
            Err(e) => tracing::error!(id = %self.id, error = %e, "the log does not read"),
        }
    }

    fn ack(&self) -> Ack {
        Ack {
            version: self.state.version(),
            seq: self.seq,
        }
    }

    /// The runtime's own request (a time-out, the umpire's answer). Returns whether
    /// the engine accepted it.
    async fn apply_umpire(&mut self, action: G::Action, what: &str) -> bool {
        match self.apply(&G::umpire(), &action, None).await {
            Ok(_) => true,
            Err(ActError::Refused(e)) => {
                tracing::warn!(id = %self.id, error = %e, "the engine refused {what}");
                false
            }
            Err(ActError::Runtime(e)) => {
                tracing::error!(id = %self.id, error = %e, "{what} could not be stored; retrying");
                self.clock.sleep_for(STORE_RETRY_MS).await;
                false
            }
        }
    }

    /// Starts the umpire's slow work if the match waits for some that is not under way.
    fn start_work(&mut self) {
        let Some((key, work)) = self.state.work() else {
            return;
        };
        let version = self.state.version();
        if self.working.as_ref().is_some_and(|(k, _)| *k == key)
            || self.abandoned == Some((version, key))
        {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        self.working = Some((key, stop.clone()));
        let flag = stop.clone();
        let mut job = tokio::task::spawn_blocking(move || G::perform(work, flag));
        let limit = self.clock.sleep_for(self.config.work_limit_ms);
        let results = self.results.0.clone();
        tokio::spawn(async move {
            let result = tokio::select! {
                r = &mut job => r,
                () = limit => {
                    // Past the limit: ask the work to stop and take what it says then.
                    stop.store(true, Ordering::Relaxed);
                    job.await
                }
            };
            let _ = results.send((key, result));
        });
    }

    /// The umpire's work came back.
    async fn finish_work(&mut self, key: u64, result: Result<G::Action, JoinError>) {
        if self.working.as_ref().is_some_and(|(k, _)| *k == key) {
            self.working = None;
        }
        let failure = match result {
            Ok(action) => {
                if self.apply_umpire(action, "the umpire's answer").await {
                    return;
                }
                "the umpire's answer was refused"
            }
            Err(_) => "the umpire failed while working",
        };
        // Still waiting for it: report it as failed, once, so the match goes on.
        if self.state.work().map(|(k, _)| k) == Some(key) {
            self.abandoned = Some((self.state.version(), key));
            if let Some(action) = self.state.abandon(key, failure) {
                self.apply_umpire(action, "abandoning the umpire's work")
                    .await;
            }
        }
    }

    /// Answers a command that changes nothing.
    fn answer(&self, query: Query<G>) {
        match query {
            Query::Subscribe { reply } => {
                let _ = reply.send((
                    self.announce.subscribe(),
                    self.state.clone(),
                    self.seq,
                    self.kind.clone(),
                ));
            }
            Query::State { reply } => {
                let _ = reply.send(self.state.clone());
            }
        }
    }

    /// Tells work under way to stop once the match no longer waits for it (the host
    /// ended the match or disallowed the guess, the match is shutting down): a
    /// judgement nobody will read must not keep a core and its memory until the limit.
    fn stop_unwanted_work(&mut self) {
        let wanted = if self.state.is_over() {
            None
        } else {
            self.state.work().map(|(k, _)| k)
        };
        if let Some((key, stop)) = &self.working {
            if wanted != Some(*key) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    }

    fn armed_timeout(&self) -> Option<(u64, G::Action)> {
        let (at, action) = self.state.timeout()?;
        if self.refused_timeout == Some((self.state.version(), at)) {
            return None;
        }
        Some((at, action))
    }
}

pub(super) async fn run<G: Engine>(mut live: Live<G>) {
    loop {
        live.stop_unwanted_work();
        if live.state.is_over() {
            break;
        }
        live.start_work();
        let (deadline, timeout) = match live.armed_timeout() {
            Some((at, action)) => (Some(at), Some(action)),
            None => (None, None),
        };
        let sleep = live.clock.sleep_until(deadline.unwrap_or(u64::MAX));
        tokio::select! {
            // The umpire's answers first: they unblock a match that waits for them.
            biased;
            Some((key, result)) = live.results.1.recv() => live.finish_work(key, result).await,
            command = live.commands.recv() => match command {
                None => break,
                Some(Command::Act { actor, action, shown, reply }) => {
                    let result = live.apply(&actor, &action, shown).await;
                    let _ = reply.send(result);
                }
                Some(Command::Query(query)) => live.answer(query),
            },
            () = sleep, if deadline.is_some() => {
                if let (Some(at), Some(action)) = (deadline, timeout) {
                    let version = live.state.version();
                    if !live.apply_umpire(action, "a time-out").await
                        && live.state.version() == version
                        && live.clock.now() >= at
                    {
                        live.refused_timeout = Some((version, at));
                    }
                }
            }
        }
    }
    if let Some((_, stop)) = &live.working {
        stop.store(true, Ordering::Relaxed);
    }
    // Over (or stopped). Commands already queued get their answer from the final
    // state; a subscriber sees the feed close after the last event.
    live.commands.close();
    while let Some(command) = live.commands.recv().await {
        match command {
            Command::Act { reply, .. } => {
                let _ = reply.send(Err(RuntimeError::Over(live.id).into()));
            }
            Command::Query(query) => live.answer(query),
        }
    }
}
