//! One live match: its task orders everything that happens to it (commands, time-outs,
//! the umpire's answers), so the engine sees one request at a time, and every event
//! is committed before it is announced.
//!
//! The match in memory never moves ahead of the store: a state is kept only once its
//! events are committed, and after a failed commit whose outcome is unknown the state
//! is read back from the log (and whatever it holds that was never said, is said).
//! The runtime's own requests (a time-out, the umpire's answer) that the store cannot
//! take are tried again with back-off, the match waiting meanwhile, and the players
//! are told why ([`Notice`]); a player's own request just gets the error.

use super::clock::Sleep;
use super::metric;
use super::{
    Ack, ActError, Announcement, Command, Config, Engine, GameClock, Notice, Query, RuntimeError,
};
use mondo_store::{MatchId, Millis, NewEvent, Store, StoreError, StoredEvent};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::task::JoinError;

/// The first wait before the runtime's own request is tried again after the store
/// failed; it doubles with each failure up to [`RETRY_MAX_MS`].
const RETRY_FIRST_MS: Millis = 1_000;
const RETRY_MAX_MS: Millis = 30_000;

/// The wait before attempt `attempt + 1` (real time).
fn retry_delay(attempt: u32) -> Millis {
    RETRY_FIRST_MS
        .saturating_mul(1 << attempt.saturating_sub(1).min(16))
        .min(RETRY_MAX_MS)
}

/// The runtime's own request, waiting to be tried again.
enum Pending<A> {
    /// The time-out due now (worked out again from the state when tried).
    Timeout,
    /// The umpire's answer to work `key`.
    Work { key: u64, action: A },
}

struct Retry<A> {
    pending: Pending<A>,
    /// Failures so far.
    attempt: u32,
    due: Sleep,
    /// The error last told to the players.
    said: String,
}

/// How the runtime's own request went.
enum Umpired<A> {
    Applied,
    Refused(A),
    /// The store did not take it.
    Failed(A, RuntimeError),
}

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
    /// The runtime's own request the store did not take, to try again.
    retry: Option<Retry<G::Action>>,
    /// A commit's outcome is unknown and the log could not be read since: read it
    /// before anything else is decided.
    unsure: bool,
    results: (
        mpsc::UnboundedSender<WorkResult<G>>,
        mpsc::UnboundedReceiver<WorkResult<G>>,
    ),
    /// The fencing token of this process's lease on the match: every append carries it.
    token: i64,
    /// Raised by the runtime when renewing the lease found it taken over.
    taken: Option<oneshot::Receiver<String>>,
    /// Why the match is no longer this process's (its lease was taken over): the task
    /// stops at once and says nothing more.
    lost: Option<String>,
    /// Where the runtime hears of a match lost here (see [`crate::Runtime::lost`]).
    said_lost: broadcast::Sender<(MatchId, String)>,
}

/// What fences a match's task: its lease's token, the runtime telling it the lease was
/// taken over, and where it says it stopped for that.
pub(super) struct Fencing {
    pub token: i64,
    pub taken: oneshot::Receiver<String>,
    pub lost: broadcast::Sender<(MatchId, String)>,
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
        fencing: Fencing,
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
            retry: None,
            unsure: false,
            results: mpsc::unbounded_channel(),
            token: fencing.token,
            taken: Some(fencing.taken),
            lost: None,
            said_lost: fencing.lost,
        }
    }

    /// Applies one request: decide, commit, then announce.
    async fn apply(
        &mut self,
        actor: &G::Actor,
        action: &G::Action,
        shown: Option<u64>,
    ) -> Result<Ack, ActError<G::Error>> {
        if self.unsure && self.resync().await.is_none() {
            // What the log holds is not known: deciding on a state that may be behind
            // it would be deciding blind.
            return Err(RuntimeError::Store(StoreError::MaybeRecorded {
                reason: "the database cannot be read".into(),
            })
            .into());
        }
        let now = self.clock.now();
        let (events, next) = self
            .state
            .decide(actor, action, shown, now)
            .map_err(ActError::Refused)?;
        if events.is_empty() {
            return Ok(self.ack());
        }
        let rows = rows_of::<G>(&events)?;
        let first_seq = self.seq + 1;
        // A commit that stalls stops the game clock (the umpire cannot work).
        let hold = self.clock.hold();
        let started = std::time::Instant::now();
        let appended = self
            .store
            .append_fenced(
                self.id,
                Some(self.token),
                self.seq,
                rows.clone(),
                next.is_over(),
                next.finish(),
            )
            .await;
        drop(hold);
        metric::committed(started, &appended, rows.len());
        match appended {
            Ok(seq) => self.seq = seq,
            // Another process runs the match now: nothing was written, and nothing
            // more is said or decided here (reading the log back would say the new
            // owner's events a second time).
            Err(StoreError::Fenced { why, .. }) => {
                self.lost = Some(why);
                return Err(RuntimeError::Moved(self.id).into());
            }
            // The log moved on without this process: the new owner's events (the claim
            // meets them before the fence).
            Err(StoreError::Conflict { .. }) if let Some(why) = self.taken_over().await => {
                self.lost = Some(why);
                return Err(RuntimeError::Moved(self.id).into());
            }
            // The database cannot be reached, and nothing was committed: the state
            // stays as it is, and the player may send the move again.
            Err(e @ StoreError::Unreachable { .. }) => return Err(RuntimeError::from(e).into()),
            Err(e) => {
                // Whether or not the events made it (the answer may be what was lost),
                // the log is the truth: go on from it, and say what it holds that was
                // never said.
                let said = self.seq;
                let found = self.resync().await;
                let ours = found.is_some_and(|stored| {
                    stored.len() == rows.len()
                        && stored.iter().zip(&rows).all(|(s, r)| s.body == r.body)
                });
                if ours && self.seq == said + rows.len() as u64 {
                    // Recorded after all (and announced by the resync).
                    return Ok(self.ack());
                }
                return Err(RuntimeError::from(e).into());
            }
        }
        // Committed: now the match has moved on, and may say so. Seated players changed
        // (a lobby): the store's listing follows, so lookups by player find them.
        let seated = next.listing().players;
        if seated != self.state.listing().players
            && let Err(e) = self.store.set_players(self.id, &seated).await
        {
            tracing::warn!(id = %self.id, error = %e, "a match's players could not be listed");
        }
        self.state = Arc::new(next);
        let _ = self.announce.send(Arc::new(Announcement {
            first_seq,
            events,
            state: self.state.clone(),
            notice: None,
        }));
        // The store takes writes again: a request waiting to be tried again goes now.
        if let Some(retry) = &mut self.retry {
            retry.due = self.clock.sleep_for(0);
        }
        Ok(self.ack())
    }

    /// Rebuilds the state from the store (after a failed append), and announces the
    /// events it holds beyond what was said (committed, though the commit reported an
    /// error). Those events, if the log could be read.
    async fn resync(&mut self) -> Option<Vec<StoredEvent>> {
        let mut stored = match self.store.events(self.id).await {
            Ok(stored) => stored,
            Err(e) => {
                tracing::error!(id = %self.id, error = %e, "the log cannot be read; the match waits for it");
                self.unsure = true;
                return None;
            }
        };
        let events = match super::decode_all::<G>(self.id, &self.kind, &stored) {
            Ok(events) => events,
            Err(e) => {
                tracing::error!(id = %self.id, error = %e, "the log does not read");
                return None;
            }
        };
        let state = match G::replay(&self.kind, &events) {
            Ok(state) => state,
            Err(reason) => {
                tracing::error!(id = %self.id, %reason, "the log does not replay");
                return None;
            }
        };
        self.unsure = false;
        let said = self.seq;
        self.seq = stored.last().map_or(0, |e| e.seq);
        self.state = Arc::new(state);
        let unsaid = stored.split_off((said as usize).min(stored.len()));
        if self.seq > said {
            tracing::warn!(id = %self.id, from = said + 1, to = self.seq, "events recorded despite an error are said now");
            let _ = self.announce.send(Arc::new(Announcement {
                first_seq: said + 1,
                events: events.into_iter().skip(said as usize).collect(),
                state: self.state.clone(),
                notice: None,
            }));
        }
        Some(unsaid)
    }

    /// Why the match's lease is no longer this process's, if it was taken over.
    async fn taken_over(&mut self) -> Option<String> {
        let (store, id) = (self.store.clone(), self.id);
        match store.lease(id).await {
            Ok(Some(lease)) if lease.token != self.token => Some(format!(
                "this process's lease (token {}) was taken over by {} (token {})",
                self.token, lease.owner, lease.token
            )),
            _ => None,
        }
    }

    fn ack(&self) -> Ack {
        Ack {
            version: self.state.version(),
            seq: self.seq,
        }
    }

    /// The runtime's own request (a time-out, the umpire's answer).
    async fn apply_umpire(&mut self, action: G::Action, what: &str) -> Umpired<G::Action> {
        match self.apply(&G::umpire(), &action, None).await {
            Ok(_) => Umpired::Applied,
            Err(ActError::Refused(e)) => {
                tracing::warn!(id = %self.id, error = %e, "the engine refused {what}");
                Umpired::Refused(action)
            }
            Err(ActError::Runtime(e)) => Umpired::Failed(action, e),
        }
    }

    /// The store did not take the runtime's own request: it is tried again after a
    /// wait that doubles each time, the match waiting meanwhile; the players hear why
    /// (on the first failure, and when the reason changes), the log every time.
    fn retry_later(
        &mut self,
        pending: Pending<G::Action>,
        attempt: u32,
        error: &RuntimeError,
        said: &str,
    ) {
        if self.lost.is_some() {
            return;
        }
        let what = match pending {
            Pending::Timeout => "time-out",
            Pending::Work { .. } => "verdict",
        };
        let delay = retry_delay(attempt);
        let text = match error {
            RuntimeError::Store(e) => e.reason(),
            other => other.to_string(),
        };
        tracing::error!(id = %self.id, what, attempt, retry_ms = delay, error = %text,
            "the store did not take the umpire's {what}; the match waits and it is tried again");
        if said != text {
            let _ = self.announce.send(Arc::new(Announcement {
                first_seq: self.seq + 1,
                events: Vec::new(),
                state: self.state.clone(),
                notice: Some(Notice {
                    what,
                    error: text.clone(),
                    retry_ms: delay,
                    attempt,
                }),
            }));
        }
        self.retry = Some(Retry {
            pending,
            attempt,
            due: self.clock.sleep_for(delay),
            said: text,
        });
    }

    /// A request waiting to be tried again is due.
    async fn try_again(&mut self) {
        let Some(retry) = self.retry.take() else {
            return;
        };
        // Keep what was said, so the same trouble is not said twice.
        let said = retry.said;
        let attempt = retry.attempt + 1;
        match retry.pending {
            Pending::Timeout => {
                if self.unsure {
                    self.resync().await;
                }
                let Some((at, action)) = self.armed_timeout() else {
                    return;
                };
                if self.clock.now() < at {
                    return;
                }
                self.timeout(at, action, attempt, said).await;
            }
            Pending::Work { key, action } => {
                self.umpire_answer(key, action, attempt, said).await;
            }
        }
    }

    /// A deadline passed: feeds the engine its time-out.
    async fn timeout(&mut self, at: Millis, action: G::Action, attempt: u32, said: String) {
        let version = self.state.version();
        match self.apply_umpire(action, "a time-out").await {
            Umpired::Applied => {}
            Umpired::Refused(_) => {
                if self.state.version() == version && self.clock.now() >= at {
                    self.refused_timeout = Some((version, at));
                }
            }
            Umpired::Failed(_, e) => self.retry_later(Pending::Timeout, attempt, &e, &said),
        }
    }

    /// The umpire's answer to work `key`: applied, tried again if the store did not
    /// take it, or (refused) reported as failed so the match does not wait forever.
    async fn umpire_answer(&mut self, key: u64, action: G::Action, attempt: u32, said: String) {
        let failure = match self.apply_umpire(action, "the umpire's answer").await {
            Umpired::Applied => return,
            Umpired::Failed(action, e) => {
                self.retry_later(Pending::Work { key, action }, attempt, &e, &said);
                return;
            }
            Umpired::Refused(_) => "the umpire's answer was refused",
        };
        self.abandon(key, failure).await;
    }

    /// Work `key` failed: if the match still waits for it, it is reported as failed,
    /// once, so the match goes on.
    async fn abandon(&mut self, key: u64, failure: &str) {
        if self.state.work().map(|(k, _)| k) == Some(key) {
            self.abandoned = Some((self.state.version(), key));
            if let Some(action) = self.state.abandon(key, failure) {
                match self
                    .apply_umpire(action, "abandoning the umpire's work")
                    .await
                {
                    Umpired::Failed(action, e) => {
                        self.retry_later(Pending::Work { key, action }, 1, &e, "");
                    }
                    Umpired::Applied | Umpired::Refused(_) => {}
                }
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
        match result {
            Ok(action) => self.umpire_answer(key, action, 1, String::new()).await,
            Err(_) => self.abandon(key, "the umpire failed while working").await,
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
        // While a request waits to be tried again, its wait replaces the deadline.
        let (deadline, timeout) = match live.armed_timeout() {
            Some((at, action)) if live.retry.is_none() => (Some(at), Some(action)),
            _ => (None, None),
        };
        let sleep = live.clock.sleep_until(deadline.unwrap_or(u64::MAX));
        let retry = async {
            match live.retry.as_mut() {
                Some(r) => (&mut r.due).await,
                None => std::future::pending().await,
            }
        };
        let taken = async {
            match live.taken.as_mut() {
                Some(rx) => rx.await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            // A lease taken over first: nothing more is decided here, and the runtime
            // drops the match's command channel as it says so (taken after the
            // closed channel, the loss went unsaid). Then the umpire's answers: they
            // unblock a match that waits for them.
            biased;
            why = taken => match why {
                Ok(why) => live.lost = Some(why),
                // The runtime is gone (its commands end the task).
                Err(_) => live.taken = None,
            },
            Some((key, result)) = live.results.1.recv() => live.finish_work(key, result).await,
            () = retry => live.try_again().await,
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
                    // Woken early (the clock stood still meanwhile): armed again.
                    if live.clock.now() >= at {
                        live.timeout(at, action, 1, String::new()).await;
                    }
                }
            }
        }
        if let Some(why) = &live.lost {
            tracing::error!(
                id = %live.id,
                token = live.token,
                "lost the lease of match {}: another process owns it ({why}); it stops here",
                live.id
            );
            metrics::counter!(metric::LEASES_LOST).increment(1);
            let _ = live.said_lost.send((live.id, why.clone()));
            break;
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
                let e = match live.lost {
                    Some(_) => RuntimeError::Moved(live.id),
                    None => RuntimeError::Over(live.id),
                };
                let _ = reply.send(Err(e.into()));
            }
            Command::Query(query) => live.answer(query),
        }
    }
}

/// Events as the store keeps them: their game-clock time and their JSON.
pub(super) fn rows_of<G: Engine>(events: &[G::Event]) -> Result<Vec<NewEvent>, RuntimeError> {
    events
        .iter()
        .map(|e| {
            Ok(NewEvent {
                at: G::event_at(e),
                body: serde_json::to_string(e).map_err(|e| RuntimeError::Encode(e.to_string()))?,
            })
        })
        .collect()
}
