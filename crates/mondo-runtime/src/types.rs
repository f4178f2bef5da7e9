//! What the runtime's parts share: the [`Engine`] a game is to the runtime, the
//! commands a match's task takes and the announcements it makes, the runtime's knobs,
//! errors and answers. A leaf: the runtime's own file, the match task and the
//! subscriptions all use these, and it uses none of them.

use mondo_store::{MatchId, Millis, StoreError};
use serde::Serialize;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use tokio::sync::{broadcast, oneshot};

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

    /// [`Engine::start`] with the setup chosen by player `by`: the match and the events
    /// that create it (an engine that does not record a chooser ignores it).
    #[allow(clippy::type_complexity)]
    fn start_by(
        setup: Self::Setup,
        now: Millis,
        _by: Option<u64>,
    ) -> Result<(Self, Vec<Self::Event>), Self::SetupError> {
        Self::start(setup, now).map(|(g, e)| (g, vec![e]))
    }

    /// Reads a stored event of a match of `kind`.
    fn decode(kind: &str, body: &str) -> Result<Self::Event, String>;

    /// The match of `kind` as its log says.
    fn replay(kind: &str, events: &[Self::Event]) -> Result<Self, String>;

    /// The match after one more event of its log (what [`Engine::replay`] does for
    /// each): to follow a log event by event, as an AI seat taken up again reads what
    /// its player saw.
    fn fold(&mut self, event: &Self::Event) -> Result<(), String>;

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
    fn finish(&self) -> Option<mondo_rules::rules::Finish> {
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

    /// Who ends the match as its host would, and how: what a tournament's host who
    /// settles a table does to its match still played (none plays on for a decided
    /// table). `None` for an engine no host can end.
    fn host_end(_host: u64) -> Option<(Self::Actor, Self::Action)> {
        None
    }

    /// The players who made a move of their own in the match so far (who showed, for
    /// a tournament's deadline); an engine that does not say names nobody.
    fn showed(&self) -> Vec<u64> {
        Vec::new()
    }

    /// Each of two sides' points in the game, when it keeps score (a tournament's game
    /// score); none for an engine that does not.
    fn score(&self) -> Option<[i64; 2]> {
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
    /// Whether this process runs the live matches nobody runs: resumed at start and
    /// taken over as their leases run out (a bot's processes do). A terminal on a
    /// shared database does not: it runs only the matches it creates or is asked for
    /// ([`crate::Runtime::run_match`]), never another process's. On SQLite (one process
    /// per file) every live match is this process's either way.
    pub adopt: bool,
    /// Whether, adopting, this process also runs matches with no place (no server, no
    /// channel: a terminal's, `mondo play`). A bot's processes do not: they could say
    /// nothing of such a match to anyone, and its clocks would run out there while its
    /// players wait at a terminal; `mondo play --resume` takes it back.
    pub adopt_unplaced: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            heartbeat_ms: 1_000,
            work_limit_ms: 20_000,
            queue: 64,
            backlog: 64,
            // Rides out a 30 s database restart (renewed every 3 s); a dead process's
            // matches move after it plus at most one look (`lease_scan_ms`, 3 s).
            lease_ttl_ms: 40_000,
            lease_renew_ms: 3_000,
            lease_scan_ms: 3_000,
            adopt: true,
            adopt_unplaced: true,
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

/// Reads stored events of a match of `kind`.
pub(crate) fn decode_all<G: Engine>(
    id: MatchId,
    kind: &str,
    stored: &[mondo_store::StoredEvent],
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
