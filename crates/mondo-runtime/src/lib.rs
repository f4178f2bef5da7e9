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
pub mod metric;
mod owner;
mod ratings;
mod subscription;
mod task;
mod tournament;
mod types;

pub use any::{
    AnyAction, AnyEvent, AnyMatch, AnySetup, AnyView, AnyWork, Common, Of, events_of,
    game_events_of,
};
pub use clock::{GameClock, ManualTime, SystemTime, TimeSource};
pub use ratings::{Unreadable, rebuild_ratings};
pub use subscription::{Subscription, Update};
pub use tournament::{Change, Loaded, TournamentError, Tournaments};
pub use types::{Ack, ActError, Config, Engine, Listing, Notice, Place, Recovery, RuntimeError};
pub(crate) use types::{Announcement, Command, Query, decode_all};

use mondo_store::{Backend, Lease, Store, StoreError};
use mondo_store::{MatchFilter, MatchId, MatchRecord, Millis, NewMatch, Status};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio::task::JoinHandle;

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
    heartbeat: Mutex<Option<JoinHandle<()>>>,
    /// Tells the heartbeat to stop once its save in hand (if any) is done.
    stop_heartbeat: watch::Sender<bool>,
    /// The game clock's reading the heartbeat last saved.
    saved: watch::Sender<Millis>,
    /// This process's name in the leases it holds (unique to it).
    owner: String,
    /// The game clock's reading on start, if no process ran it just before (the time
    /// before is skipped by the clock already: never given back again).
    cold: Option<Millis>,
    /// The matches taken over from another process, as they are.
    taken: broadcast::Sender<MatchId>,
    /// The lease loops (renewing, looking for matches to take over).
    loops: Mutex<Vec<JoinHandle<()>>>,
    /// The matches whose lease was taken over by another process, each with why, as
    /// they stop here.
    lost: broadcast::Sender<(MatchId, String)>,
    /// When the leases were last renewed (or the runtime started), wall time: what
    /// [`Runtime::health`] reads.
    renewed: Mutex<std::time::Instant>,
}

impl<G: Engine> Drop for Inner<G> {
    fn drop(&mut self) {
        if let Some(h) = self
            .heartbeat
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            h.abort();
        }
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
        let saved = watch::Sender::new(0);
        let stop_heartbeat = watch::Sender::new(false);
        let heartbeat = tokio::spawn(heartbeat(
            store.clone(),
            clock.clone(),
            config,
            saved.clone(),
            stop_heartbeat.subscribe(),
        ));
        let runtime = Runtime {
            inner: Arc::new(Inner {
                store,
                clock,
                config,
                matches: Mutex::new(HashMap::new()),
                heartbeat: Mutex::new(Some(heartbeat)),
                stop_heartbeat,
                saved,
                owner: Self::new_owner_name(),
                cold: cold.then_some(resume_at),
                taken: broadcast::channel(1024).0,
                loops: Mutex::new(Vec::new()),
                lost: broadcast::channel(1024).0,
                renewed: Mutex::new(std::time::Instant::now()),
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
        // A process that runs only what it is asked for (a terminal on a shared
        // database) leaves the others' matches where they are.
        let adopts = runtime.inner.config.adopt || runtime.inner.store.backend() == Backend::Sqlite;
        for kind in G::kinds().iter().filter(|_| adopts) {
            let live = runtime
                .inner
                .store
                .matches(&MatchFilter {
                    kind: Some(kind),
                    status: Some(Status::Live),
                    ..MatchFilter::default()
                })
                .await?;
            let unplaced = !runtime.inner.config.adopt_unplaced;
            let shared = runtime.inner.store.backend() == Backend::Postgres;
            for record in live {
                if unplaced && record.guild.is_none() && record.channel.is_none() {
                    continue;
                }
                // On a shared database a live match with no lease at all is being
                // created by another process, which takes its lease a moment later:
                // left to it (the looks for matches nobody runs take it should it not).
                if shared && runtime.inner.store.lease(record.id).await?.is_none() {
                    recovery.elsewhere.push(record.id);
                    continue;
                }
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

    /// The game clock's reading the heartbeat last saved (0 before the first): where
    /// a process killed now resumes. Tests wait on it instead of polling the store.
    pub fn heartbeats(&self) -> watch::Receiver<Millis> {
        self.inner.saved.subscribe()
    }

    /// Resolves once a commit of this process is under way and not yet done (see
    /// [`GameClock::held`]): a test that stalls the store waits for it before moving
    /// time on.
    pub async fn committing(&self) {
        self.inner.clock.held().await;
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
        self.create_by(place, setup, None).await
    }

    /// [`Runtime::create`], with the setup chosen by player `by` (recorded in the log:
    /// a player who chose it makes the match unrated).
    pub async fn create_by(
        &self,
        place: Place,
        setup: G::Setup,
        by: Option<u64>,
    ) -> Result<MatchId, RuntimeError> {
        let now = self.now();
        let (state, events) =
            G::start_by(setup, now, by).map_err(|e| RuntimeError::Setup(e.to_string()))?;
        let listing = state.listing();
        let rows = task::rows_of::<G>(&events)?;
        let _hold = self.inner.clock.hold();
        let started = std::time::Instant::now();
        let created = self
            .inner
            .store
            .create_match_with(
                &NewMatch {
                    kind: listing.kind,
                    guild: place.guild,
                    channel: place.channel,
                    seed: listing.seed,
                    settings: &listing.settings,
                    players: &listing.players,
                },
                &rows,
            )
            .await;
        metric::committed(started, &created, rows.len());
        let id = created?;
        match self.take_lease(id).await {
            Ok(lease) => self.spawn(
                id,
                listing.kind.to_string(),
                state,
                rows.len() as u64,
                lease,
            ),
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
        let store = self.inner.store.clone();
        Ok(Subscription {
            id,
            kind,
            viewer,
            rx,
            state,
            seq,
            store,
        })
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
    ///
    /// Nothing of this process is left writing when it saves the clock: the lease loops
    /// are stopped and waited for (a statement they had under way is dropped, and sqlx
    /// rolls back what it began), and the heartbeat finishes the save it has in hand
    /// rather than being cut off mid-statement. The save itself waits out another
    /// process saving the same clock at that moment (see
    /// [`Store::stop_shared_game_clock`]).
    pub async fn shutdown(self) -> Result<(), RuntimeError> {
        let loops: Vec<JoinHandle<()>> = self
            .inner
            .loops
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .drain(..)
            .collect();
        for l in loops {
            l.abort();
            let _ = l.await;
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
        self.inner.stop_heartbeat.send_replace(true);
        let heartbeat = self
            .inner
            .heartbeat
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(h) = heartbeat {
            let _ = h.await;
        }
        let saved = self
            .inner
            .store
            .stop_shared_game_clock(self.inner.clock.now())
            .await;
        self.inner.store.clone().close().await;
        Ok(saved?)
    }

    /// The state of a match, live or over (for redacting stored events; what fronts
    /// show players are only views).
    pub async fn state_of(&self, id: MatchId) -> Result<Arc<G>, RuntimeError> {
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

    /// Runs live match `id` here, from its log, if no other process does: what a
    /// process that runs only what it is asked for (a terminal, see [`Config::adopt`])
    /// does with the match it is asked to go on with. Another process's live lease is
    /// refused ([`StoreError::Leased`], saying whose and for how long); a match over is
    /// [`RuntimeError::Over`].
    pub async fn run_match(&self, id: MatchId) -> Result<(), RuntimeError> {
        if self.live().contains(&id) {
            return Ok(());
        }
        let record = self.record(id).await?;
        if record.status == Status::Over {
            return Err(RuntimeError::Over(id));
        }
        let lease = self.take_lease(id).await?;
        self.run_leased(&record, lease).await?;
        Ok(())
    }

    /// Takes a match's lease and runs it from its log: whether it runs here now (false:
    /// another process holds its lease).
    async fn resume(&self, record: &MatchRecord) -> Result<bool, RuntimeError> {
        let lease = match self.take_lease(record.id).await {
            Ok(lease) => lease,
            Err(StoreError::Leased { .. }) => return Ok(false),
            Err(e) => return Err(e.into()),
        };
        self.run_leased(record, lease).await
    }

    /// Runs a match from its log under `lease` (let go if it cannot run).
    async fn run_leased(&self, record: &MatchRecord, lease: Lease) -> Result<bool, RuntimeError> {
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

    /// Whether this process is well, as a health check asks: its store answers, and
    /// its leases were renewed within their time (a process whose renewals fail
    /// loses its matches once that is past). `Err` says why not.
    pub async fn health(&self) -> Result<(), String> {
        self.inner
            .store
            .database_now_ms()
            .await
            .map_err(|e| format!("the store does not answer: {}", e.reason()))?;
        let since = self
            .inner
            .renewed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .elapsed();
        let ttl = std::time::Duration::from_millis(self.inner.config.lease_ttl_ms);
        if since > ttl {
            return Err(format!(
                "the leases were last renewed {:.1} s ago, and last {:.1} s",
                since.as_secs_f64(),
                ttl.as_secs_f64()
            ));
        }
        Ok(())
    }

    /// The matches that stop here because another process took their lease over, each
    /// with why, as they stop (a front that shows one match says so and ends).
    pub fn lost(&self) -> broadcast::Receiver<(MatchId, String)> {
        self.inner.lost.subscribe()
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
            task::Fencing {
                token: lease.token,
                taken: lost_rx,
                lost: self.inner.lost.clone(),
            },
        )));
        let mut matches = self.lock();
        matches.insert(
            id,
            Handle {
                commands,
                task,
                lease,
                lost: Some(lost),
            },
        );
        metrics::gauge!(metric::LIVE_MATCHES).set(matches.len() as f64);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<MatchId, Handle<G>>> {
        // A panic while holding this lock leaves the map itself consistent.
        self.inner
            .matches
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Waits for the process to be asked to stop: Ctrl-C (SIGINT), SIGTERM, or SIGHUP
/// (the terminal was closed). The signals are caught from the call on, not from the
/// first poll: a loop that polls it only when nothing else is ready (a line read,
/// its answer printed) must not leave a window in which SIGHUP still kills the
/// process outright. Call it once (inside the runtime) and keep the future.
pub fn stop_requested() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{Signal, SignalKind, signal};
        let caught = |kind| signal(kind).ok();
        let (int, term, hup) = (
            caught(SignalKind::interrupt()),
            caught(SignalKind::terminate()),
            caught(SignalKind::hangup()),
        );
        let wait = |s: Option<Signal>| async move {
            match s {
                Some(mut s) => {
                    s.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        async move {
            tokio::select! {
                () = wait(int) => {}
                () = wait(term) => {}
                () = wait(hup) => {}
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// Saves the game clock's reading every `heartbeat_ms` (and says so on `saved`), until
/// `stop` says so; a save under way then is finished first (cut off, its statement
/// would still hold the clock's row in the server while the shutdown saves it).
async fn heartbeat(
    store: Store,
    clock: GameClock,
    config: Config,
    saved: watch::Sender<Millis>,
    mut stop: watch::Receiver<bool>,
) {
    let mut ticker = clock.ticker(config.heartbeat_ms);
    loop {
        tokio::select! {
            () = ticker.tick() => {}
            _ = stop.wait_for(|s| *s) => return,
        }
        let now = clock.now();
        match store.save_shared_game_clock(now).await {
            Ok(()) => {
                saved.send_replace(now);
            }
            Err(e) => tracing::warn!(error = %e, "the game clock could not be saved"),
        }
    }
}
