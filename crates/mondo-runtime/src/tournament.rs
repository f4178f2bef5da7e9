//! Tournaments in a live process (docs/tournaments.md, "Deadlines, forfeits and the
//! host"): each open round's deadline is armed on the game clock, and when it comes
//! the rules' deadline act is done with who showed, read from the matches opened for
//! its tables (a player who made a move of their own in one showed). A match opened
//! for a table that ended with a rated result is reported at once. Every act a front
//! does through [`Tournaments::act`] re-arms the tournament's deadline (a pause takes
//! it away, a resume moves it); what happened is said on [`Tournaments::changes`].
//! Before the deadline, at the round's reminder time, the players who have not come to
//! their match are named once (the rules' remind act), armed the same way.
//!
//! After a restart the deadlines are armed again from the store: the game clock
//! resumes where it stopped, so a deadline missed while the process was down fires at
//! once. The process also looks through the store every `lease_scan_ms` for what
//! another program (the terminal) did to a tournament, or a tournament nobody runs.
//! On PostgreSQL only the process holding a tournament's lease fires its deadlines
//! (the lease lives `lease_ttl_ms`, renewed at each look; a process that dies leaves
//! it to another at the next look after it runs out). A tournament's events are
//! appended after the last one the writer read, so two writers never both write.

use super::{Engine, Runtime, RuntimeError};
use mondo_rules::rules::PlayerId;
use mondo_rules::tournament::{Act, Event, Refusal, Tournament, outcome_of};
use mondo_store::{Backend, MatchId, Millis, Status, StoreError};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::sync::broadcast;
use tokio::task::JoinHandle;

/// Why a tournament act could not be done.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// The rules refused it (what was wrong, and what is allowed).
    #[error("{0}")]
    Refused(#[from] Refusal),
    #[error("tournament {id}: event {seq} does not read: {reason}")]
    Corrupt { id: i64, seq: usize, reason: String },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
}

/// Events a tournament took, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub id: i64,
    /// Its server (none: the terminal's).
    pub guild: Option<u64>,
    pub events: Vec<Event>,
}

/// The tournaments of one process, their deadlines armed. Cheap to clone.
pub struct Tournaments<G: Engine> {
    inner: Arc<Inner<G>>,
}

impl<G: Engine> Clone for Tournaments<G> {
    fn clone(&self) -> Self {
        Tournaments {
            inner: self.inner.clone(),
        }
    }
}

struct Inner<G: Engine> {
    runtime: Runtime<G>,
    /// The reminder or deadline armed for each tournament, and its timer.
    armed: Mutex<HashMap<i64, (Millis, JoinHandle<()>)>>,
    /// One act at a time in this process (the store refuses a second writer anyway).
    writing: tokio::sync::Mutex<()>,
    changes: broadcast::Sender<Change>,
    /// Tournaments found over (never looked at again) and the log length each other
    /// one had at the last look.
    over: Mutex<HashSet<i64>>,
    scan: Mutex<Option<JoinHandle<()>>>,
}

impl<G: Engine> Drop for Inner<G> {
    fn drop(&mut self) {
        if let Some(s) = lock(&self.scan).take() {
            s.abort();
        }
        for (_, (_, h)) in lock(&self.armed).drain() {
            h.abort();
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A tournament as stored: its fold, its server.
pub struct Loaded {
    pub id: i64,
    pub guild: Option<u64>,
    pub t: Tournament,
}

impl<G: Engine> Tournaments<G> {
    /// Arms the deadline of every open tournament in the store (the ones this process
    /// holds the lease of, on PostgreSQL), then looks again every `lease_scan_ms`.
    pub async fn start(runtime: &Runtime<G>) -> Result<Tournaments<G>, TournamentError> {
        let this = Tournaments {
            inner: Arc::new(Inner {
                runtime: runtime.clone(),
                armed: Mutex::new(HashMap::new()),
                writing: tokio::sync::Mutex::new(()),
                changes: broadcast::channel(1024).0,
                over: Mutex::new(HashSet::new()),
                scan: Mutex::new(None),
            }),
        };
        this.look().await?;
        let weak = Arc::downgrade(&this.inner);
        let mut ticker = runtime
            .inner
            .clock
            .ticker(runtime.inner.config.lease_scan_ms);
        let scan = tokio::spawn(async move {
            loop {
                ticker.tick().await;
                let Some(this) = upgrade(&weak) else { return };
                if let Err(e) = this.look().await {
                    tracing::warn!(error = %e, "could not look through the tournaments");
                }
            }
        });
        *lock(&this.inner.scan) = Some(scan);
        Ok(this)
    }

    /// What happens to the tournaments from now on, as stored.
    pub fn changes(&self) -> broadcast::Receiver<Change> {
        self.inner.changes.subscribe()
    }

    /// The timer armed for tournament `id` here (game clock): its open round's
    /// reminder, or once it is sent (or none is due), its deadline.
    pub fn armed(&self, id: i64) -> Option<Millis> {
        lock(&self.inner.armed).get(&id).map(|(at, _)| *at)
    }

    /// The game clock's reading now.
    pub fn now(&self) -> Millis {
        self.inner.runtime.now()
    }

    /// Reads tournament `id` from the store.
    pub async fn load(&self, id: i64) -> Result<Loaded, TournamentError> {
        let store = self.inner.runtime.store();
        let rows = store.tournament_events(id).await?;
        let events = rows
            .iter()
            .enumerate()
            .map(|(k, s)| {
                mondo_store::from_json::<Event>(s).map_err(|reason| TournamentError::Corrupt {
                    id,
                    seq: k + 1,
                    reason,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let t = Tournament::from_events(&events)?;
        let guild = store.tournament(id).await?.and_then(|r| r.guild);
        Ok(Loaded { id, guild, t })
    }

    /// Creates a tournament of server `guild` (none: the terminal's) with its first
    /// event; its id.
    pub async fn create(&self, guild: Option<u64>, first: &Event) -> Result<i64, TournamentError> {
        let Event::Created { name, at, .. } = first else {
            return Err(Refusal::NotCreated.into());
        };
        let body = encode(first)?;
        let id = self
            .inner
            .runtime
            .store()
            .create_tournament(guild, name, *at, &body)
            .await?;
        let _ = self.inner.changes.send(Change {
            id,
            guild,
            events: vec![first.clone()],
        });
        Ok(id)
    }

    /// Does `act` to tournament `id` now: the events stored and said, the deadline
    /// armed again.
    pub async fn act(&self, id: i64, act: &Act) -> Result<Vec<Event>, TournamentError> {
        let _one = self.inner.writing.lock().await;
        let mut l = self.load(id).await?;
        let events = self.commit(&mut l, act).await?;
        if matches!(act, Act::Settle { .. }) {
            self.end_settled(&l).await;
        }
        if self.holds(id).await? {
            self.rearm(&l);
        } else {
            self.disarm(id);
        }
        Ok(events)
    }

    /// Reports the results of tournament `id`'s matches that ended and fires its
    /// deadline if it is due (what the timer and each look do; a front may call it
    /// when it sees one of the tournament's matches end).
    pub async fn check(&self, id: i64) -> Result<(), TournamentError> {
        let _one = self.inner.writing.lock().await;
        let mut l = self.load(id).await?;
        // Settled elsewhere (the terminal), or before this process started: even the
        // final, whose settling finished the tournament.
        self.end_settled(&l).await;
        if l.t.finished.is_some() {
            lock(&self.inner.over).insert(id);
            self.disarm(id);
            return Ok(());
        }
        if !self.holds(id).await? {
            self.disarm(id);
            return Ok(());
        }
        self.report_ended(&mut l).await?;
        // The reminder, unless the deadline is due as well (a reminder of a match
        // forfeited at once tells nothing).
        if let Some(at) = l.t.next_reminder()
            && self.now() >= at
            && l.t.next_deadline().is_some_and(|d| self.now() < d)
        {
            let showed = self.showed(&l.t).await?;
            self.commit(&mut l, &Act::Remind { showed }).await?;
        }
        if let Some(at) = l.t.next_deadline()
            && self.now() >= at
        {
            let showed = self.showed(&l.t).await?;
            self.commit(&mut l, &Act::Deadline { showed }).await?;
        }
        self.rearm(&l);
        Ok(())
    }

    /// Lets go of this process's tournament leases and stops every timer (before the
    /// runtime shuts down).
    pub async fn stop(&self) {
        if let Some(s) = lock(&self.inner.scan).take() {
            s.abort();
        }
        let ids: Vec<i64> = lock(&self.inner.armed)
            .drain()
            .map(|(id, (_, h))| {
                h.abort();
                id
            })
            .collect();
        let runtime = &self.inner.runtime;
        if runtime.store().backend() == Backend::Postgres {
            for id in ids {
                if let Err(e) = runtime
                    .store()
                    .release_tournament_lease(id, runtime.owner())
                    .await
                {
                    tracing::warn!(id, error = %e, "a tournament's lease could not be let go");
                }
            }
        }
    }

    /// Acts and stores; the events, said on `changes`.
    async fn commit(&self, l: &mut Loaded, act: &Act) -> Result<Vec<Event>, TournamentError> {
        let events = l.t.act(act, self.now())?;
        let rows = events.iter().map(encode).collect::<Result<Vec<_>, _>>()?;
        self.inner
            .runtime
            .store()
            .append_tournament(l.id, l.t.log.len() as u64, &rows)
            .await?;
        for e in &events {
            l.t.apply(e);
        }
        let _ = self.inner.changes.send(Change {
            id: l.id,
            guild: l.guild,
            events: events.clone(),
        });
        Ok(events)
    }

    /// Ends each match run here that was opened for a table a host settled, as its
    /// host would end it: none plays on for a decided table.
    async fn end_settled(&self, l: &Loaded) {
        let runtime = &self.inner.runtime;
        let live = runtime.live();
        for e in &l.t.log {
            let Event::Settled { round, table, .. } = e else {
                continue;
            };
            let opened = (l.t.rounds.iter().find(|r| r.number == *round))
                .and_then(|r| r.tables.get(*table))
                .and_then(|tb| tb.opened.last());
            let Some(id) = opened.map(|m| MatchId(*m)).filter(|id| live.contains(id)) else {
                continue;
            };
            let Some((actor, action)) = G::host_end(l.t.host.0) else {
                return;
            };
            match runtime.act(id, actor, action, None).await {
                Ok(_) => tracing::info!(tournament = l.id, %id, "a settled table's match is ended"),
                Err(e) => {
                    tracing::debug!(tournament = l.id, %id, error = %e, "a settled table's match was not ended")
                }
            }
        }
    }

    /// Reports each table of the open round whose latest match ended with a rated
    /// result (one without is left to the deadline, which asks who showed).
    async fn report_ended(&self, l: &mut Loaded) -> Result<(), TournamentError> {
        let Some(round) = l.t.open_round().cloned() else {
            return Ok(());
        };
        for (k, table) in round.tables.iter().enumerate() {
            let (Some(b), Some(&m), None) = (table.b, table.opened.last(), &table.decided) else {
                continue;
            };
            if table.games.iter().any(|g| g.match_id == Some(m)) {
                continue;
            }
            let id = MatchId(m);
            let over = self
                .inner
                .runtime
                .store()
                .record(id)
                .await?
                .is_some_and(|r| r.status == Status::Over);
            if !over {
                continue;
            }
            let state = self.match_state(id).await?;
            let players = [l.t.seats[table.a].player, l.t.seats[b].player];
            let Some(result) = outcome_of(state.finish().as_ref(), players) else {
                continue;
            };
            let act = Act::Report {
                round: round.number,
                table: k,
                result,
                score: state.score(),
                match_id: Some(m),
            };
            self.commit(l, &act).await?;
            if l.t.open_round().is_none_or(|r| r.number != round.number) {
                break;
            }
        }
        Ok(())
    }

    /// The players of the open round who made a move of their own in a match opened
    /// for their table.
    async fn showed(&self, t: &Tournament) -> Result<Vec<PlayerId>, TournamentError> {
        let mut out = Vec::new();
        let Some(round) = t.open_round() else {
            return Ok(out);
        };
        for table in round.tables.iter().filter(|t| t.decided.is_none()) {
            for &m in &table.opened {
                let state = self.match_state(MatchId(m)).await?;
                out.extend(state.showed().into_iter().map(PlayerId));
            }
        }
        out.sort_by_key(|p| p.0);
        out.dedup();
        Ok(out)
    }

    /// A match as its log says now, wherever it runs.
    async fn match_state(&self, id: MatchId) -> Result<Arc<G>, TournamentError> {
        let runtime = &self.inner.runtime;
        match runtime.state_of(id).await {
            Ok(state) => Ok(state),
            // Run by another process (or by none): its log is the truth.
            Err(RuntimeError::Moved(_) | RuntimeError::NotRunning(_)) => {
                let record = runtime.record(id).await?;
                Ok(Arc::new(runtime.rebuild(&record).await?))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Whether this process fires tournament `id`'s deadlines: always on SQLite (one
    /// process runs the file); on PostgreSQL while it holds the lease.
    async fn holds(&self, id: i64) -> Result<bool, TournamentError> {
        let runtime = &self.inner.runtime;
        if runtime.store().backend() == Backend::Sqlite {
            return Ok(true);
        }
        let ttl = Duration::from_millis(runtime.inner.config.lease_ttl_ms);
        Ok(runtime
            .store()
            .take_tournament_lease(id, runtime.owner(), ttl)
            .await?)
    }

    /// Looks through the store: each open tournament whose log moved on is checked
    /// (a result reported, a deadline due) and armed again; on PostgreSQL the leases
    /// held are renewed and a tournament nobody runs is taken.
    async fn look(&self) -> Result<(), TournamentError> {
        let records = self.inner.runtime.store().all_tournaments().await?;
        for r in records {
            if lock(&self.inner.over).contains(&r.id) {
                continue;
            }
            if let Err(e) = self.check(r.id).await {
                tracing::warn!(id = r.id, error = %e, "a tournament could not be checked");
            }
        }
        Ok(())
    }

    /// Arms the timer for the tournament's next reminder or deadline, whichever comes
    /// first (none: no timer).
    fn rearm(&self, l: &Loaded) {
        let next = [l.t.next_reminder(), l.t.next_deadline()];
        let Some(at) = next.into_iter().flatten().min() else {
            self.disarm(l.id);
            return;
        };
        let mut armed = lock(&self.inner.armed);
        if let Some((was, h)) = armed.get(&l.id)
            && *was == at
            && !h.is_finished()
        {
            return;
        }
        let weak = Arc::downgrade(&self.inner);
        let sleep = self.inner.runtime.sleep_until(at);
        let id = l.id;
        let timer = tokio::spawn(async move {
            sleep.await;
            let Some(this) = upgrade(&weak) else { return };
            if let Err(e) = this.check(id).await {
                tracing::warn!(id, error = %e, "a tournament's deadline could not be fired");
            }
        });
        if let Some((_, old)) = armed.insert(id, (at, timer)) {
            old.abort();
        }
    }

    fn disarm(&self, id: i64) {
        if let Some((_, h)) = lock(&self.inner.armed).remove(&id) {
            h.abort();
        }
    }
}

fn upgrade<G: Engine>(weak: &Weak<Inner<G>>) -> Option<Tournaments<G>> {
    weak.upgrade().map(|inner| Tournaments { inner })
}

fn encode(e: &Event) -> Result<String, TournamentError> {
    serde_json::to_string(e).map_err(|e| RuntimeError::Encode(e.to_string()).into())
}
