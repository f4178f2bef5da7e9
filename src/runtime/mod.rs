//! The match runtime: one task per live match that orders its commands, applies them to
//! the pure engine with `now` from the game clock, commits the events, then announces
//! them, and arms the next deadline (feeding the engine a time-out when it passes).
//! Slow umpire work (the finder) runs on a blocking thread with a limit; its answer
//! comes back as an action. On start-up every unfinished match is reloaded from the
//! store and its clocks re-armed; the game clock resumes where it was, so the time the
//! process was down is not counted (see [`clock`]).
//!
//! The runtime knows games only through [`Engine`]. Fronts talk to it with
//! [`Runtime::act`], [`Runtime::view`] and [`Runtime::subscribe`], and never see a
//! match's state: only views and the events a viewer may see.

mod any;
pub mod clock;
mod game;
mod owner;
mod ratings;
mod subscription;
mod task;

pub use any::{
    AnyAction, AnyEvent, AnyMatch, AnySetup, AnyView, AnyWork, Common, Of, events_of,
    game_events_of,
};
pub use clock::{GameClock, ManualTime, SystemTime, TimeSource};
pub use ratings::{Unreadable, rebuild_ratings};
pub use subscription::{Subscription, Update};

use crate::store::{Backend, Lease, Store, StoreError};
use crate::store::{MatchFilter, MatchId, MatchRecord, Millis, NewEvent, NewMatch, Status};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::task::JoinHandle;

/// What the runtime needs of a game: a pure state machine in the shape of
/// `rules::Game` (decide, fold, views, deadlines as data), plus how to store it and
/// what slow work its umpire does. Every `rules::Game` is one (`game.rs`); the
/// runtime of `mondo serve` and `mondo play` runs them all at once as [`AnyMatch`].
pub trait Engine: Sized + Send + Sync + 'static {
    /// The `kind`s of stored match this engine folds (loaded on start-up).
    fn kinds() -> Vec<&'static str>;
    type Setup: Send;
    type SetupError: fmt::Display + Send;
    type Actor: Send + Sync + 'static;
    type Action: Send + Sync + 'static;
    type Event: Serialize + Clone + Send + Sync + 'static;
    type Viewer: Send + Sync + 'static;
    type View: Send + 'static;
    type Error: fmt::Display + Send + 'static;
    /// What the umpire's slow work needs, owned (it moves to another thread).
    type Work: Send + 'static;

    /// A new match and the event that creates it (the first of its log).
    fn start(setup: Self::Setup, now: Millis) -> Result<(Self, Self::Event), Self::SetupError>;

    /// Reads a stored event of a match of `kind`.
    fn decode(kind: &str, body: &str) -> Result<Self::Event, String>;

    /// The match of `kind` as its log says.
    fn replay(kind: &str, events: &[Self::Event]) -> Result<Self, String>;

    /// What the store lists about the match.
    fn listing(&self) -> Listing;

    /// Checks a request and decides what happens: the events and the state they lead
    /// to, or why it is refused. `shown` is the version a button was drawn at.
    fn decide(
        &self,
        actor: &Self::Actor,
        action: &Self::Action,
        shown: Option<u64>,
        now: Millis,
    ) -> Result<(Vec<Self::Event>, Self), Self::Error>;

    /// When an event happened (game clock).
    fn event_at(event: &Self::Event) -> Millis;

    fn version(&self) -> u64;

    fn is_over(&self) -> bool;

    /// What the match counts for once over (ratings, records), stored with its last
    /// events; an engine that does not say counts for nothing.
    fn finish(&self) -> Option<crate::rules::Finish> {
        None
    }

    /// The next deadline and the time-out action to feed when it passes.
    fn timeout(&self) -> Option<(Millis, Self::Action)>;

    /// Who the runtime acts as (time-outs, umpire work).
    fn umpire() -> Self::Actor;

    /// The slow work the match is waiting for, with a key naming it (the same work
    /// keeps its key, so it is started once).
    fn work(&self) -> Option<(u64, Self::Work)>;

    /// Does the work on a blocking thread and says the result as an action. Should
    /// answer soon after `stop` is raised (the runtime's limit).
    fn perform(work: Self::Work, stop: Arc<AtomicBool>) -> Self::Action;

    /// The action that reports work `key` as failed (it panicked, or its answer was
    /// refused), so the match does not wait forever.
    fn abandon(&self, key: u64, reason: &str) -> Option<Self::Action>;

    /// The action that gives a match back the game time since `since` (its clocks as
    /// if paused meanwhile): what a process that takes a match over feeds it, for the
    /// time nobody ran it. An engine without clocks has none.
    fn downtime(_since: Millis) -> Option<Self::Action> {
        None
    }

    /// What `viewer` may see of the match.
    fn view(&self, viewer: &Self::Viewer) -> Self::View;

    /// `event` as `viewer` may hear it: whole, with its secret taken out, or not at all.
    fn redact(&self, event: &Self::Event, viewer: &Self::Viewer) -> Option<Self::Event>;
}

/// What the store keeps beside a match's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    pub kind: &'static str,
    pub seed: u64,
    /// In seat order.
    pub players: Vec<u64>,
    /// JSON.
    pub settings: String,
}

/// Where a match is played (Discord guild and channel; none in the terminal).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub guild: Option<u64>,
    pub channel: Option<u64>,
}

/// The runtime's knobs.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// How often the game clock's reading is saved: at most this much of a player's
    /// time is given back when the process is killed.
    pub heartbeat_ms: Millis,
    /// How long the umpire's slow work may take (real time) before it is told to stop.
    pub work_limit_ms: Millis,
    /// Commands a match queues before callers wait.
    pub queue: usize,
    /// Announcements a subscriber may fall behind before it reads the store instead.
    pub backlog: usize,
    /// How long a match's lease lasts unless renewed (database clock): how long a match
    /// whose process died or stalled waits before another process takes it over.
    pub lease_ttl_ms: Millis,
    /// How often the leases held are renewed (well under `lease_ttl_ms`).
    pub lease_renew_ms: Millis,
    /// How often the process looks for live matches nobody runs (a lease that ran
    /// out, or none) to take over.
    pub lease_scan_ms: Millis,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            heartbeat_ms: 1_000,
            work_limit_ms: 20_000,
            queue: 64,
            backlog: 64,
            lease_ttl_ms: 10_000,
            lease_renew_ms: 3_000,
            lease_scan_ms: 3_000,
        }
    }
}

/// Why the runtime could not do something (rule refusals are [`ActError::Refused`]).
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    #[error("there is no match {0}")]
    NoSuchMatch(MatchId),
    #[error("match {0} is over")]
    Over(MatchId),
    #[error("match {0} is unfinished but not running here (its log could not be rebuilt)")]
    NotRunning(MatchId),
    #[error("match {0} is not one of this runtime's games")]
    WrongKind(MatchId),
    #[error("match {id} cannot be rebuilt from its log: {reason}")]
    Corrupt { id: MatchId, reason: String },
    #[error("the match could not be set up: {0}")]
    Setup(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("an event could not be written down: {0}")]
    Encode(String),
    #[error("the runtime has stopped")]
    Stopped,
    /// The match's lease was taken over: another process runs it now.
    #[error("match {0} is run by another process now")]
    Moved(MatchId),
}

/// Why an action was not applied.
#[derive(Debug, thiserror::Error)]
pub enum ActError<E> {
    /// The rules refused it.
    #[error("{0}")]
    Refused(E),
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
}

/// An applied action: its events are committed and announced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ack {
    /// The match's version after it.
    pub version: u64,
    /// The number of its last event in the log (what to catch a subscription up to).
    pub seq: u64,
}

/// What happened at start-up.
#[derive(Debug, Default)]
pub struct Recovery {
    /// The unfinished matches now running again.
    pub resumed: Vec<MatchId>,
    /// Those that could not be rebuilt (left as they are in the store).
    pub failed: Vec<(MatchId, RuntimeError)>,
    /// Those another process runs (it holds their leases).
    pub elsewhere: Vec<MatchId>,
    /// The game clock's reading on resuming.
    pub clock: Millis,
}

/// Events committed by one action, with the state they led to; or (no events) a
/// notice about the match.
pub(crate) struct Announcement<G: Engine> {
    pub first_seq: u64,
    pub events: Vec<G::Event>,
    pub state: Arc<G>,
    pub notice: Option<Notice>,
}

/// What the players hear that is no event of the match: the store did not take the
/// umpire's own request (a time-out, a verdict), so the match waits while it is tried
/// again. Said on the first failure and when the reason changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// `time-out` or `verdict`.
    pub what: &'static str,
    /// Why, as the store said it.
    pub error: String,
    /// The wait before the next try (real time).
    pub retry_ms: Millis,
    /// Failures so far.
    pub attempt: u32,
}

impl Notice {
    /// The notice as a line of text.
    pub fn text(&self) -> String {
        format!(
            "the umpire could not record the {} ({}); the clock waits while it tries again \
             (next in {} s)",
            self.what,
            self.error,
            self.retry_ms.div_ceil(1000)
        )
    }

    /// The notice as a JSON object: `{"event":"store_trouble",...}`.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "event": "store_trouble",
            "what": self.what,
            "error": self.error,
            "retry_ms": self.retry_ms,
            "attempt": self.attempt,
        })
    }
}

/// A new subscriber's feed, the state it starts from, the last event number and the
/// match's stored kind.
pub(crate) type Feed<G> = (
    broadcast::Receiver<Arc<Announcement<G>>>,
    Arc<G>,
    u64,
    String,
);

pub(crate) enum Command<G: Engine> {
    Act {
        actor: G::Actor,
        action: G::Action,
        shown: Option<u64>,
        reply: oneshot::Sender<Result<Ack, ActError<G::Error>>>,
    },
    Query(Query<G>),
}

/// A command that changes nothing.
pub(crate) enum Query<G: Engine> {
    Subscribe { reply: oneshot::Sender<Feed<G>> },
    State { reply: oneshot::Sender<Arc<G>> },
}

struct Handle<G: Engine> {
    commands: mpsc::Sender<Command<G>>,
    task: JoinHandle<()>,
    /// The lease this process runs the match under.
    lease: Lease,
    /// Tells the task its lease was taken over (it stops at once).
    lost: Option<oneshot::Sender<String>>,
}

/// The live matches of one process. Cheap to clone.
pub struct Runtime<G: Engine> {
    inner: Arc<Inner<G>>,
}

impl<G: Engine> Clone for Runtime<G> {
    fn clone(&self) -> Self {
        Runtime {
            inner: self.inner.clone(),
        }
    }
}

struct Inner<G: Engine> {
    store: Store,
    clock: GameClock,
    config: Config,
    matches: Mutex<HashMap<MatchId, Handle<G>>>,
    heartbeat: JoinHandle<()>,
    /// This process's name in the leases it holds (unique to it).
    owner: String,
    /// The game clock's reading on start, if no process ran it just before (the time
    /// before is skipped by the clock already: never given back again).
    cold: Option<Millis>,
    /// The matches taken over from another process, as they are.
    taken: broadcast::Sender<MatchId>,
    /// The lease loops (renewing, looking for matches to take over).
    loops: Mutex<Vec<JoinHandle<()>>>,
}

impl<G: Engine> Drop for Inner<G> {
    fn drop(&mut self) {
        self.heartbeat.abort();
        for l in self.loops.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            l.abort();
        }
    }
}

impl<G: Engine> Runtime<G> {
    /// Resumes the game clock from the store, then every unfinished match of this
    /// engine's kinds, each with its deadlines re-armed.
    pub async fn start(
        store: Store,
        source: Arc<dyn TimeSource>,
        config: Config,
    ) -> Result<(Runtime<G>, Recovery), RuntimeError> {
        // One game clock per database: on PostgreSQL, a process that starts while
        // others run it joins it where it is now; after a silence, where it stopped.
        let (resume_at, cold) = match store.backend() {
            Backend::Sqlite => (store.game_clock().await?, true),
            Backend::Postgres => {
                let alive = config.heartbeat_ms.saturating_mul(3).max(3_000);
                let (at, running) = store.shared_game_clock(alive).await?;
                (at, !running)
            }
        };
        let clock = GameClock::new(source, resume_at);
        let heartbeat = tokio::spawn(heartbeat(store.clone(), clock.clone(), config));
        let runtime = Runtime {
            inner: Arc::new(Inner {
                store,
                clock,
                config,
                matches: Mutex::new(HashMap::new()),
                heartbeat,
                owner: Self::new_owner_name(),
                cold: cold.then_some(resume_at),
                taken: broadcast::channel(1024).0,
                loops: Mutex::new(Vec::new()),
            }),
        };
        // On SQLite one process runs the file (its run lock): leases an earlier one
        // left are this one's to take at once.
        if runtime.inner.store.backend() == Backend::Sqlite {
            runtime.inner.store.expire_all_leases().await?;
        }
        let mut recovery = Recovery {
            clock: resume_at,
            ..Recovery::default()
        };
        for kind in G::kinds() {
            let live = runtime
                .inner
                .store
                .matches(&MatchFilter {
                    kind: Some(kind),
                    status: Some(Status::Live),
                    ..MatchFilter::default()
                })
                .await?;
            for record in live {
                match runtime.resume(&record).await {
                    Ok(true) => recovery.resumed.push(record.id),
                    Ok(false) => recovery.elsewhere.push(record.id),
                    Err(e) => {
                        tracing::error!(id = %record.id, error = %e, "a match could not be resumed");
                        recovery.failed.push((record.id, e));
                    }
                }
            }
        }
        recovery.resumed.sort();
        runtime.start_loops();
        Ok((runtime, recovery))
    }

    /// The game clock's reading now.
    pub fn now(&self) -> Millis {
        self.inner.clock.now()
    }

    /// Resolves once the game clock reads `at` (a fake clock in tests): for a front's
    /// own pacing, such as a seat the umpire plays waiting as a person would.
    pub fn sleep_until(&self, at: Millis) -> clock::Sleep {
        self.inner.clock.sleep_until(at)
    }

    /// Time given back to the matches because the umpire's own work stalled
    /// (a store that another program held, a disk that stalled), in ms.
    pub fn given_back(&self) -> Millis {
        self.inner.clock.given_back()
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// Sets up a match, stores it, and starts running it.
    pub async fn create(&self, place: Place, setup: G::Setup) -> Result<MatchId, RuntimeError> {
        let now = self.now();
        let (state, first) =
            G::start(setup, now).map_err(|e| RuntimeError::Setup(e.to_string()))?;
        let listing = state.listing();
        let body =
            serde_json::to_string(&first).map_err(|e| RuntimeError::Encode(e.to_string()))?;
        let _hold = self.inner.clock.hold();
        let id = self
            .inner
            .store
            .create_match(
                &NewMatch {
                    kind: listing.kind,
                    guild: place.guild,
                    channel: place.channel,
                    seed: listing.seed,
                    settings: &listing.settings,
                    players: &listing.players,
                },
                &NewEvent {
                    at: G::event_at(&first),
                    body,
                },
            )
            .await?;
        match self.take_lease(id).await {
            Ok(lease) => self.spawn(id, listing.kind.to_string(), state, 1, lease),
            // Taken meanwhile by another process looking for matches nobody runs (or the
            // database failed): it runs there, or is taken over soon.
            Err(e) => tracing::warn!(%id, error = %e, "a new match's lease could not be taken"),
        }
        Ok(id)
    }

    /// Applies an action to a live match: the events are committed and announced
    /// before this returns.
    pub async fn act(
        &self,
        id: MatchId,
        actor: G::Actor,
        action: G::Action,
        shown: Option<u64>,
    ) -> Result<Ack, ActError<G::Error>> {
        let (reply, answer) = oneshot::channel();
        self.send(
            id,
            Command::Act {
                actor,
                action,
                shown,
                reply,
            },
        )
        .await?;
        answer.await.map_err(|_| RuntimeError::Stopped)?
    }

    /// What `viewer` may see of a match, live or over.
    pub async fn view(&self, id: MatchId, viewer: &G::Viewer) -> Result<G::View, RuntimeError> {
        Ok(self.state(id).await?.view(viewer))
    }

    /// Whether a match is over (false while it runs).
    pub async fn is_over(&self, id: MatchId) -> Result<bool, RuntimeError> {
        Ok(self.state(id).await?.is_over())
    }

    /// The next deadline of a live match (game clock), if one is running.
    pub async fn deadline(&self, id: MatchId) -> Result<Option<Millis>, RuntimeError> {
        Ok(self.state(id).await?.timeout().map(|(at, _)| at))
    }

    /// Follows a live match as `viewer`: every event it may see from now on, each
    /// batch with the view after it.
    pub async fn subscribe(
        &self,
        id: MatchId,
        viewer: G::Viewer,
    ) -> Result<Subscription<G>, RuntimeError> {
        let (reply, answer) = oneshot::channel();
        self.send(id, Command::Query(Query::Subscribe { reply }))
            .await?;
        let (rx, state, seq, kind) = answer.await.map_err(|_| RuntimeError::Stopped)?;
        Ok(Subscription::new(
            id,
            kind,
            viewer,
            rx,
            state,
            seq,
            self.inner.store.clone(),
        ))
    }

    /// The matches running in this process.
    pub fn live(&self) -> Vec<MatchId> {
        let mut ids: Vec<MatchId> = self
            .lock()
            .iter()
            .filter(|(_, h)| !h.commands.is_closed())
            .map(|(id, _)| *id)
            .collect();
        ids.sort();
        ids
    }

    /// Stops every match task (each finishes the command in hand; nothing is lost:
    /// their logs are in the store), saves the game clock and closes the store (see
    /// [`Store::close`]): what a process does on every clean exit.
    pub async fn shutdown(self) -> Result<(), RuntimeError> {
        for l in self
            .inner
            .loops
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .drain(..)
        {
            l.abort();
        }
        let handles: Vec<Handle<G>> = self.lock().drain().map(|(_, h)| h).collect();
        for h in handles {
            drop(h.commands);
            let _ = h.task.await;
            // Another process may take it over at once (a deploy moves no clock).
            if let Err(e) = self.inner.store.release_lease(&h.lease).await {
                tracing::warn!(id = %h.lease.id, error = %e, "a lease could not be let go");
            }
        }
        self.inner.heartbeat.abort();
        let saved = self
            .inner
            .store
            .stop_shared_game_clock(self.inner.clock.now())
            .await;
        self.inner.store.clone().close().await;
        Ok(saved?)
    }

    /// The state of a match, live or over (for redacting stored events; fronts see
    /// only views).
    pub(crate) async fn state_of(&self, id: MatchId) -> Result<Arc<G>, RuntimeError> {
        self.state(id).await
    }

    async fn state(&self, id: MatchId) -> Result<Arc<G>, RuntimeError> {
        let (reply, answer) = oneshot::channel();
        match self.send(id, Command::Query(Query::State { reply })).await {
            Ok(()) => answer.await.map_err(|_| RuntimeError::Stopped),
            // Over (or never run here): rebuild it from its log.
            Err(RuntimeError::Over(_)) => {
                let record = self.record(id).await?;
                Ok(Arc::new(self.rebuild(&record).await?))
            }
            Err(e) => Err(e),
        }
    }

    async fn send(&self, id: MatchId, command: Command<G>) -> Result<(), RuntimeError> {
        let commands = {
            let mut matches = self.lock();
            match matches.get(&id) {
                Some(h) if !h.commands.is_closed() => Some(h.commands.clone()),
                Some(_) => {
                    matches.remove(&id);
                    None
                }
                None => None,
            }
        };
        match commands {
            Some(c) => c.send(command).await.map_err(|_| RuntimeError::Over(id)),
            None => {
                // Not running here: say why.
                let record = self.record(id).await?;
                Err(match record.status {
                    Status::Over => RuntimeError::Over(id),
                    // Another process's (its lease), or none's (its log does not
                    // rebuild, or it waits to be taken over).
                    Status::Live => match self.inner.store.lease(id).await {
                        Ok(Some(l)) if l.owner != self.inner.owner => RuntimeError::Moved(id),
                        _ => RuntimeError::NotRunning(id),
                    },
                })
            }
        }
    }

    async fn record(&self, id: MatchId) -> Result<MatchRecord, RuntimeError> {
        let record = self
            .inner
            .store
            .record(id)
            .await?
            .ok_or(RuntimeError::NoSuchMatch(id))?;
        if !G::kinds().contains(&record.kind.as_str()) {
            return Err(RuntimeError::WrongKind(id));
        }
        Ok(record)
    }

    async fn rebuild(&self, record: &MatchRecord) -> Result<G, RuntimeError> {
        let id = record.id;
        let stored = self.inner.store.events(id).await?;
        let events = decode_all::<G>(id, &record.kind, &stored)?;
        G::replay(&record.kind, &events).map_err(|reason| RuntimeError::Corrupt { id, reason })
    }

    /// Takes a match's lease and runs it from its log: whether it runs here now (false:
    /// another process holds its lease).
    async fn resume(&self, record: &MatchRecord) -> Result<bool, RuntimeError> {
        let lease = match self.take_lease(record.id).await {
            Ok(lease) => lease,
            Err(StoreError::Leased { .. }) => return Ok(false),
            Err(e) => return Err(e.into()),
        };
        let ready = async {
            let state = self.rebuild(record).await?;
            // Its players as the log says (a lobby's, should the listing have missed
            // one).
            let seated = state.listing().players;
            if !state.is_over() && seated != record.players {
                self.inner.store.set_players(record.id, &seated).await?;
            }
            Ok::<_, RuntimeError>(state)
        };
        let state = match ready.await {
            // The log ends the match but the row missed it: nothing to run.
            Ok(state) if state.is_over() => {
                let _ = self.inner.store.release_lease(&lease).await;
                return Ok(true);
            }
            Ok(state) => state,
            Err(e) => {
                let _ = self.inner.store.release_lease(&lease).await;
                return Err(e);
            }
        };
        self.spawn(
            record.id,
            record.kind.clone(),
            state,
            record.last_seq,
            lease,
        );
        Ok(true)
    }

    async fn take_lease(&self, id: MatchId) -> Result<Lease, StoreError> {
        let ttl = std::time::Duration::from_millis(self.inner.config.lease_ttl_ms);
        self.inner
            .store
            .take_lease(id, &self.inner.owner, ttl)
            .await
    }

    /// This process's name in the leases it holds.
    pub fn owner(&self) -> &str {
        &self.inner.owner
    }

    /// The matches this process takes over from another (whose lease ran out), each
    /// once it runs here.
    pub fn taken_over(&self) -> broadcast::Receiver<MatchId> {
        self.inner.taken.subscribe()
    }

    fn spawn(&self, id: MatchId, kind: String, state: G, seq: u64, lease: Lease) {
        let (commands, rx) = mpsc::channel(self.inner.config.queue);
        let (lost, lost_rx) = oneshot::channel();
        let task = tokio::spawn(task::run(task::Live::new(
            id,
            kind,
            state,
            seq,
            self.inner.store.clone(),
            self.inner.clock.clone(),
            self.inner.config,
            rx,
            (lease.token, lost_rx),
        )));
        self.lock().insert(
            id,
            Handle {
                commands,
                task,
                lease,
                lost: Some(lost),
            },
        );
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<MatchId, Handle<G>>> {
        // A panic while holding this lock leaves the map itself consistent.
        self.inner
            .matches
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Reads stored events of a match of `kind`.
pub(crate) fn decode_all<G: Engine>(
    id: MatchId,
    kind: &str,
    stored: &[crate::store::StoredEvent],
) -> Result<Vec<G::Event>, RuntimeError> {
    stored
        .iter()
        .map(|e| {
            G::decode(kind, &e.body).map_err(|reason| {
                RuntimeError::Store(StoreError::Corrupt {
                    id,
                    seq: e.seq,
                    reason,
                })
            })
        })
        .collect()
}

/// Waits for the process to be asked to stop: Ctrl-C (SIGINT), SIGTERM, or SIGHUP
/// (the terminal was closed). Create it once and keep it (a signal is caught from its
/// first poll on).
pub async fn stop_requested() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let recv = |kind| async move {
            match signal(kind) {
                Ok(mut s) => {
                    s.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            () = recv(SignalKind::terminate()) => {}
            () = recv(SignalKind::hangup()) => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Saves the game clock's reading every `heartbeat_ms`.
async fn heartbeat(store: Store, clock: GameClock, config: Config) {
    loop {
        clock.sleep_for(config.heartbeat_ms.max(1)).await;
        if let Err(e) = store.save_shared_game_clock(clock.now()).await {
            tracing::warn!(error = %e, "the game clock could not be saved");
        }
    }
}
