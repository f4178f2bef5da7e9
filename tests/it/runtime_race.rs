//! The runtime with a hand-driven clock, on a tiny test game (tests/race_game): orders
//! commands, commits before announcing, arms deadlines, runs slow umpire work off the
//! match's task under a limit, and resumes matches after a restart without counting
//! the downtime.

use crate::race_game;

use crate::stores;
use mondo::runtime::{
    ActError, Config, Engine, ManualTime, Place, Runtime, RuntimeError, Subscription, Update,
};
use mondo::store::{MatchId, Store};
use race_game::{Action, Actor, Kind, Race, RaceError, Setup, View, Viewer, Work};
use std::sync::Arc;
use std::time::Duration;

const A: u64 = 11;
const B: u64 = 22;
const TURN: u64 = 10_000;

struct World {
    db: stores::TestDb,
    time: Arc<ManualTime>,
    runtime: Runtime<Race>,
}

fn config() -> Config {
    Config {
        heartbeat_ms: 1_000,
        work_limit_ms: 5_000,
        // A killed runtime's lease runs out soon (PostgreSQL keeps it till then).
        lease_ttl_ms: 1_000,
        lease_renew_ms: 300,
        ..Config::default()
    }
}

/// A runtime on a fresh SQLite store (the tests of SQLite's own locks).
async fn world() -> World {
    world_on(stores::TestDb::sqlite()).await
}

/// A runtime on a fresh store on `db`.
async fn world_on(db: stores::TestDb) -> World {
    let time = ManualTime::new(0);
    let store = db.open().await;
    let (runtime, recovery) = Runtime::<Race>::start(store, time.clone(), config())
        .await
        .unwrap();
    assert!(recovery.resumed.is_empty());
    World { db, time, runtime }
}

async fn race(w: &World, work: Work) -> MatchId {
    let setup = Setup {
        work,
        ..Setup::new([A, B])
    };
    w.runtime.create(Place::default(), setup).await.unwrap()
}

async fn act(w: &World, id: MatchId, who: u64, action: Action) -> mondo::runtime::Ack {
    match w.runtime.act(id, Actor::Player(who), action, None).await {
        Ok(ack) => ack,
        Err(e) => panic!("refused: {e}"),
    }
}

/// The next update, failing the test instead of hanging.
async fn next(sub: &mut Subscription<Race>) -> Update<Race> {
    tokio::time::timeout(Duration::from_secs(10), sub.next())
        .await
        .expect("an update within 10 s")
        .expect("the feed is open")
        .expect("the update reads")
}

fn kinds(u: &Update<Race>) -> Vec<Kind> {
    u.events.iter().map(|(_, e)| e.kind.clone()).collect()
}

async fn view(w: &World, id: MatchId) -> View {
    w.runtime.view(id, &Viewer::Spectator).await.unwrap()
}

fn remaining(v: &View, now: u64) -> u64 {
    match v.running_since {
        Some(since) => v.left_ms.saturating_sub(now - since),
        None => v.left_ms,
    }
}

#[tokio::test]
async fn a_match_plays_to_the_end_with_every_event_committed_before_it_is_announced() {
    for db in stores::each() {
        let w = world_on(db).await;
        let id = race(&w, Work::Quick).await;
        let mut sub = w.runtime.subscribe(id, Viewer::Player(B)).await.unwrap();
        let store = w.runtime.store().clone();
        let mut player = A;
        let mut seen = Vec::new();
        loop {
            let ack = act(&w, id, player, Action::Add(3)).await;
            // By the time the player hears back, the events are in the store...
            assert_eq!(store.events(id).await.unwrap().len() as u64, ack.seq);
            // ...and announced, in order, exactly once.
            for u in sub.until(ack.seq).await.unwrap() {
                assert!(u.view.secret.is_none() || u.over, "the secret leaked");
                seen.extend(u.events.iter().map(|(seq, _)| *seq));
            }
            if w.runtime.is_over(id).await.unwrap() {
                break;
            }
            player = if player == A { B } else { A };
        }
        let last = store.events(id).await.unwrap().len() as u64;
        assert_eq!(seen, (2..=last).collect::<Vec<_>>());
        // The feed closes after the end.
        assert!(sub.next().await.is_none());
        // The state is the fold of the stored events.
        let events: Vec<race_game::Event> = store
            .events(id)
            .await
            .unwrap()
            .iter()
            .map(|e| e.decode(id).unwrap())
            .collect();
        let replayed = Race::replay("race", &events).unwrap();
        assert_eq!(replayed.total, 21);
        assert_eq!(view(&w, id).await, replayed.view(&Viewer::Spectator));
        assert_eq!(view(&w, id).await.secret, Some(4242), "revealed at the end");
        let record = store.record(id).await.unwrap().unwrap();
        assert_eq!(record.status, mondo::store::Status::Over);
        // Nothing more can happen to it.
        let err = w
            .runtime
            .act(id, Actor::Player(A), Action::Add(1), None)
            .await
            .unwrap_err();
        assert!(
            matches!(err, ActError::Runtime(RuntimeError::Over(_))),
            "{err}"
        );
        assert!(w.runtime.live().is_empty());
    }
}

#[tokio::test]
async fn a_refused_action_commits_nothing_and_says_why() {
    for db in stores::each() {
        let w = world_on(db).await;
        let id = race(&w, Work::Quick).await;
        act(&w, id, A, Action::Add(1)).await;
        let before = w.runtime.store().events(id).await.unwrap();
        for (who, action, expected) in [
            (A, Action::Add(1), RaceError::NotYourTurn),
            (B, Action::Add(4), RaceError::BadNumber),
        ] {
            match w.runtime.act(id, Actor::Player(who), action, None).await {
                Err(ActError::Refused(e)) => assert_eq!(e, expected),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(w.runtime.store().events(id).await.unwrap(), before);
        let err = w
            .runtime
            .act(MatchId(4040), Actor::Player(A), Action::Add(1), None)
            .await
            .unwrap_err();
        assert!(matches!(
            err,
            ActError::Runtime(RuntimeError::NoSuchMatch(_))
        ));
    }
}

#[tokio::test]
async fn a_deadline_passes_only_when_the_clock_reaches_it() {
    for db in stores::each() {
        let w = world_on(db).await;
        let id = race(&w, Work::Quick).await;
        let mut sub = w.runtime.subscribe(id, Viewer::Spectator).await.unwrap();
        let ack = act(&w, id, A, Action::Add(1)).await;
        sub.until(ack.seq).await.unwrap();
        assert_eq!(w.runtime.deadline(id).await.unwrap(), Some(TURN));
        w.time.advance(TURN - 1);
        assert_eq!(
            view(&w, id).await.turn,
            2,
            "one millisecond early: still B's turn"
        );
        w.time.advance(1);
        let u = next(&mut sub).await;
        assert_eq!(
            kinds(&u),
            [
                Kind::TimedOut { turn: 2 },
                Kind::TurnStarted { turn: 3, seat: 0 }
            ]
        );
        assert!(u.events.iter().all(|(_, e)| e.at == TURN));
        assert_eq!(w.runtime.deadline(id).await.unwrap(), Some(2 * TURN));
    }
}

#[tokio::test]
async fn umpire_work_runs_off_the_task_with_the_clock_stopped_and_answers_as_an_action() {
    for db in stores::each() {
        let w = world_on(db).await;
        let id = race(&w, Work::Quick).await;
        let mut sub = w.runtime.subscribe(id, Viewer::Spectator).await.unwrap();
        act(&w, id, A, Action::Add(2)).await;
        w.time.advance(3_000);
        let ack = act(&w, id, B, Action::Check).await;
        let mut events = Vec::new();
        while !events.iter().any(|k| matches!(k, Kind::Checked { .. })) {
            events.extend(kinds(&next(&mut sub).await));
        }
        assert!(events.contains(&Kind::Checked {
            check: 1,
            prime: true
        }));
        assert!(ack.seq >= 4);
        let v = view(&w, id).await;
        assert_eq!(v.checking, None);
        assert_eq!(remaining(&v, w.runtime.now()), TURN - 3_000);
    }
}

#[tokio::test]
async fn slow_umpire_work_is_stopped_at_the_limit_and_the_match_goes_on() {
    for db in stores::each() {
        let w = world_on(db).await;
        let id = race(&w, Work::Hang).await;
        let mut sub = w.runtime.subscribe(id, Viewer::Spectator).await.unwrap();
        act(&w, id, A, Action::Add(1)).await;
        let ack = act(&w, id, B, Action::Check).await;
        sub.until(ack.seq).await.unwrap();
        // The work hangs, but the match's task is free: it answers, and refuses politely.
        let v = view(&w, id).await;
        assert_eq!(v.checking, Some(1));
        match w
            .runtime
            .act(id, Actor::Player(B), Action::Add(1), None)
            .await
        {
            Err(ActError::Refused(RaceError::Busy)) => {}
            other => panic!("{other:?}"),
        }
        // The game clock is stopped meanwhile: no time-out, however long it takes.
        assert_eq!(w.runtime.deadline(id).await.unwrap(), None);
        w.time.advance(5_000);
        let u = next(&mut sub).await;
        assert_eq!(
            kinds(&u),
            [Kind::CheckFailed {
                check: 1,
                reason: "stopped at the limit".into()
            }]
        );
        assert_eq!(remaining(&view(&w, id).await, w.runtime.now()), TURN);
        act(&w, id, B, Action::Add(1)).await;
    }
}

#[tokio::test]
async fn umpire_work_that_fails_is_abandoned_rather_than_left_waiting() {
    for db in stores::each() {
        let w = world_on(db).await;
        let id = race(&w, Work::Panic).await;
        let mut sub = w.runtime.subscribe(id, Viewer::Spectator).await.unwrap();
        act(&w, id, A, Action::Check).await;
        let mut events = Vec::new();
        while !events.iter().any(|k| matches!(k, Kind::CheckFailed { .. })) {
            events.extend(kinds(&next(&mut sub).await));
        }
        assert!(events.contains(&Kind::CheckFailed {
            check: 1,
            reason: "the umpire failed while working".into()
        }));
        act(&w, id, A, Action::Add(1)).await;
    }
}

#[tokio::test]
async fn a_restart_resumes_every_live_match_without_counting_the_downtime() {
    for db in stores::each() {
        let w = world_on(db).await;
        let id = race(&w, Work::Quick).await;
        let finished = race(&w, Work::Quick).await;
        for _ in 0..7 {
            act(&w, finished, A, Action::Add(3)).await;
            if w.runtime.is_over(finished).await.unwrap() {
                break;
            }
            act(&w, finished, B, Action::Add(3)).await;
        }
        act(&w, id, A, Action::Add(1)).await;
        w.time.advance(4_000);
        let before = view(&w, id).await;
        assert_eq!(remaining(&before, w.runtime.now()), 6_000);
        w.runtime.clone().shutdown().await.unwrap();
        drop(w.runtime);

        // A new process, an hour later, on the same database.
        let time = ManualTime::new(3_600_000);
        let store = w.db.open().await;
        let (runtime, recovery) = Runtime::<Race>::start(store, time.clone(), config())
            .await
            .unwrap();
        assert_eq!(
            recovery.resumed,
            [id],
            "only the unfinished match runs again"
        );
        assert!(recovery.failed.is_empty());
        let after = runtime.view(id, &Viewer::Spectator).await.unwrap();
        assert_eq!(after, before);
        assert_eq!(
            remaining(&after, runtime.now()),
            6_000,
            "the hour down is not counted"
        );
        let mut sub = runtime.subscribe(id, Viewer::Spectator).await.unwrap();
        time.advance(5_999);
        assert_eq!(runtime.view(id, &Viewer::Spectator).await.unwrap().turn, 2);
        time.advance(1);
        let u = next(&mut sub).await;
        assert_eq!(kinds(&u)[0], Kind::TimedOut { turn: 2 });
    }
}

#[tokio::test]
async fn a_killed_process_gives_back_at_most_one_heartbeat() {
    for db in stores::each() {
        let w = world_on(db).await;
        let id = race(&w, Work::Quick).await;
        act(&w, id, A, Action::Add(1)).await;
        w.time.advance(3_000);
        // The heartbeat saves the game clock's reading.
        let store = w.runtime.store().clone();
        let mut saved = w.runtime.heartbeats();
        tokio::time::timeout(Duration::from_secs(60), saved.wait_for(|&at| at >= 3_000))
            .await
            .expect("no heartbeat")
            .unwrap();
        assert!(store.game_clock().await.unwrap() >= 3_000);
        w.time.advance(700);
        // Killed: no shutdown, nothing saved after the last heartbeat; its connections
        // go with it (a lease renewal the advance woke ends first).
        drop(w.runtime);
        store.close().await;
        let store = w.db.open().await;
        if w.db.is_postgres() {
            // Its lease lives on until it runs out (several processes may share a
            // PostgreSQL database: only the lease says the match is free): it runs
            // out now, as if its time had passed.
            store.expire_all_leases().await.unwrap();
        }

        let time = ManualTime::new(0);
        let (runtime, recovery) = Runtime::<Race>::start(store, time, config()).await.unwrap();
        assert_eq!(recovery.resumed, [id]);
        let v = runtime.view(id, &Viewer::Spectator).await.unwrap();
        let left = remaining(&v, runtime.now());
        assert!(
            (TURN - 3_700..=TURN - 3_000).contains(&left),
            "{left} ms left"
        );
        assert!(TURN - 3_700 + config().heartbeat_ms >= left);
    }
}

#[tokio::test]
async fn a_subscriber_that_falls_behind_is_caught_up_from_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let time = ManualTime::new(0);
    let store = Store::open(dir.path().join("m.db")).await.unwrap();
    let tiny = Config {
        backlog: 1,
        ..config()
    };
    let (runtime, _) = Runtime::<Race>::start(store, time, tiny).await.unwrap();
    let id = runtime
        .create(Place::default(), Setup::new([A, B]))
        .await
        .unwrap();
    let mut sub = runtime.subscribe(id, Viewer::Player(A)).await.unwrap();
    let mut last = 0;
    for i in 0..6 {
        let who = if i % 2 == 0 { A } else { B };
        last = runtime
            .act(id, Actor::Player(who), Action::Add(1), None)
            .await
            .unwrap()
            .seq;
    }
    let mut seqs = Vec::new();
    for u in sub.until(last).await.unwrap() {
        seqs.extend(u.events.iter().map(|(s, _)| *s));
    }
    assert_eq!(seqs, (2..=last).collect::<Vec<_>>(), "no event missed");
    assert_eq!(sub.view().total, 6);
}

#[tokio::test]
async fn concurrent_commands_are_applied_one_at_a_time_in_a_single_order() {
    for db in stores::each() {
        let w = world_on(db).await;
        let id = race(&w, Work::Quick).await;
        let mut tasks = Vec::new();
        for i in 0..40u64 {
            let runtime = w.runtime.clone();
            tasks.push(tokio::spawn(async move {
                let who = if i % 2 == 0 { A } else { B };
                runtime
                    .act(id, Actor::Player(who), Action::Add(1), None)
                    .await
            }));
        }
        let mut accepted = Vec::new();
        for t in tasks {
            match t.await.unwrap() {
                Ok(ack) => accepted.push(ack.seq),
                Err(ActError::Refused(RaceError::NotYourTurn | RaceError::Over))
                | Err(ActError::Runtime(RuntimeError::Over(_))) => {}
                Err(e) => panic!("{e}"),
            }
        }
        accepted.sort();
        accepted.dedup();
        let v = view(&w, id).await;
        assert_eq!(
            v.total as usize,
            accepted.len(),
            "every accepted add counted once"
        );
        let events = w.runtime.store().events(id).await.unwrap();
        let adds = events
            .iter()
            .filter(|e| e.body.contains("\"added\""))
            .count();
        assert_eq!(adds, accepted.len());
    }
}

#[tokio::test]
async fn after_a_failed_append_the_match_goes_on_from_its_log() {
    for db in stores::each() {
        let w = world_on(db).await;
        let id = race(&w, Work::Quick).await;
        act(&w, id, A, Action::Add(1)).await;
        // Someone else appends B's move behind the runtime's back (with the runtime's
        // own fencing token: without it, the database refuses the write, the match
        // being leased).
        let store = w.runtime.store().clone();
        let last = store.record(id).await.unwrap().unwrap().last_seq;
        let token = store.lease(id).await.unwrap().expect("leased").token;
        let moved = race_game::Event {
            at: w.runtime.now(),
            kind: Kind::Added { seat: 1, n: 3 },
        };
        store
            .append_fenced(
                id,
                Some(token),
                last,
                vec![mondo::store::NewEvent {
                    at: moved.at,
                    body: serde_json::to_string(&moved).unwrap(),
                }],
                false,
                None,
            )
            .await
            .unwrap();
        // The runtime's next append conflicts; it says so and rereads the log...
        let err = w
            .runtime
            .act(id, Actor::Player(B), Action::Add(1), None)
            .await
            .unwrap_err();
        assert!(err.to_string().contains("moved on"), "{err}");
        // ...so the match goes on from what the log says.
        assert_eq!(view(&w, id).await.total, 4);
        act(&w, id, B, Action::Add(1)).await;
        assert_eq!(view(&w, id).await.total, 5);
    }
}

/// The state the store's log folds to, as a spectator sees it: what the runtime
/// holds must never be ahead of (or behind) it.
async fn stored_view(w: &World, id: MatchId) -> View {
    let events: Vec<race_game::Event> = w
        .runtime
        .store()
        .events(id)
        .await
        .unwrap()
        .iter()
        .map(|e| e.decode(id).unwrap())
        .collect();
    Race::replay("race", &events)
        .unwrap()
        .view(&Viewer::Spectator)
}

/// Nothing comes on the feed for a moment (of real time: the runtime works on its
/// own threads).
async fn quiet(sub: &mut Subscription<Race>) {
    if let Ok(u) = tokio::time::timeout(Duration::from_millis(200), sub.next()).await {
        panic!("unexpected update: {:?}", u.map(|u| u.map(|u| kinds(&u))));
    }
}

/// A time-out whose event the store cannot take (a full disk) is not dropped: the
/// match waits, the players hear why once, the log and the engine agree all along,
/// and it is tried again after 1 s, 2 s, 4 s... until the store takes it; the next
/// turn then starts from when it was recorded. (Such a time-out used to be marked
/// refused and never armed again: the match stood still for good.)
#[tokio::test]
async fn a_time_out_the_store_cannot_take_is_retried_with_back_off_and_said() {
    use mondo::store::Fault;
    for db in stores::each() {
        let w = world_on(db).await;
        let id = race(&w, Work::Quick).await;
        let mut sub = w.runtime.subscribe(id, Viewer::Spectator).await.unwrap();
        let ack = act(&w, id, A, Action::Add(1)).await;
        sub.until(ack.seq).await.unwrap();
        let store = w.runtime.store().clone();
        store.inject([Fault::Full, Fault::Full, Fault::Full]);
        w.time.advance(TURN);
        let u = next(&mut sub).await;
        assert!(u.events.is_empty());
        let notice = u.notice.expect("the players hear why the match waits");
        assert_eq!(
            (notice.what, notice.retry_ms, notice.attempt),
            ("time-out", 1_000, 1)
        );
        assert!(notice.error.contains("the disk is full"), "{notice:?}");
        assert!(
            notice.text().contains("the clock waits"),
            "{}",
            notice.text()
        );
        assert_eq!(notice.json()["event"], "store_trouble");
        // The engine did not move ahead of the store.
        assert_eq!(view(&w, id).await, stored_view(&w, id).await);
        assert_eq!(view(&w, id).await.turn, 2);
        // The same trouble is not said again; the retries come after 1 s, then 2 s...
        w.time.advance(999);
        quiet(&mut sub).await;
        w.time.advance(1);
        quiet(&mut sub).await;
        assert_eq!(view(&w, id).await.turn, 2, "second try failed too");
        w.time.advance(2_000);
        quiet(&mut sub).await;
        // ...and the fourth goes through.
        w.time.advance(4_000);
        let u = next(&mut sub).await;
        assert_eq!(
            kinds(&u),
            [
                Kind::TimedOut { turn: 2 },
                Kind::TurnStarted { turn: 3, seat: 0 }
            ]
        );
        let recorded = TURN + 7_000;
        assert!(u.events.iter().all(|(_, e)| e.at == recorded));
        assert_eq!(view(&w, id).await, stored_view(&w, id).await);
        assert_eq!(
            w.runtime.deadline(id).await.unwrap(),
            Some(recorded + TURN),
            "A's turn is whole"
        );
    }
}

/// The umpire's own answer (here: its work stopped at the limit) that the store
/// cannot take is tried again too, rather than lost with the match left waiting.
#[tokio::test]
async fn an_umpire_answer_the_store_cannot_take_is_retried() {
    use mondo::store::Fault;
    for db in stores::each() {
        let w = world_on(db).await;
        let id = race(&w, Work::Hang).await;
        let mut sub = w.runtime.subscribe(id, Viewer::Spectator).await.unwrap();
        act(&w, id, A, Action::Add(2)).await;
        let ack = act(&w, id, B, Action::Check).await;
        sub.until(ack.seq).await.unwrap();
        w.runtime.store().inject([Fault::Full]);
        w.time.advance(5_000);
        let u = next(&mut sub).await;
        assert_eq!(u.notice.expect("said").what, "verdict");
        assert_eq!(view(&w, id).await.checking, Some(1), "still waiting");
        w.time.advance(1_000);
        let u = next(&mut sub).await;
        assert_eq!(
            kinds(&u),
            [Kind::CheckFailed {
                check: 1,
                reason: "stopped at the limit".into()
            }]
        );
    }
}

/// Another connection to the database (another program), holding its write lock.
async fn write_lock_held(w: &World) -> sqlx::SqliteConnection {
    use sqlx::Connection;
    let mut other = sqlx::SqliteConnection::connect(&format!(
        "sqlite://{}",
        w.db.location
            .sqlite_path()
            .expect("a SQLite store")
            .display()
    ))
    .await
    .unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut other)
        .await
        .unwrap();
    other
}

/// `who` adds 1, on a task of its own (it may wait for the store).
fn add_in_background(
    w: &World,
    id: MatchId,
    who: u64,
) -> tokio::task::JoinHandle<Result<mondo::runtime::Ack, ActError<RaceError>>> {
    let runtime = w.runtime.clone();
    tokio::spawn(async move {
        runtime
            .act(id, Actor::Player(who), Action::Add(1), None)
            .await
    })
}

/// A commit that stalls (another program holds the database's write lock for 6 s)
/// stops the game clock after a second: B's turn, which starts with A's move, is
/// not eaten by it. (B's turn used to be stamped before the stall, and the stall counted.)
#[tokio::test]
async fn a_stalled_store_gives_the_time_it_held_back_to_the_clock() {
    use mondo::runtime::clock::HOLD_GRACE_MS;
    // SQLite's write lock, held by another connection.
    {
        let w = world().await;
        let id = race(&w, Work::Quick).await;
        act(&w, id, A, Action::Add(1)).await;
        w.time.advance(2_000);
        let mut other = write_lock_held(&w).await;
        let moved = add_in_background(&w, id, B);
        tokio::time::timeout(Duration::from_secs(60), w.runtime.committing())
            .await
            .expect("the move is committed");
        w.time.advance(6_000);
        tokio::task::yield_now().await;
        assert!(!moved.is_finished(), "the write waits for the lock");
        sqlx::query("COMMIT").execute(&mut other).await.unwrap();
        moved
            .await
            .unwrap()
            .expect("written once the lock is let go");
        let v = view(&w, id).await;
        assert_eq!(v.seat, 0, "A's turn");
        let left = remaining(&v, w.runtime.now());
        assert!(left >= TURN - HOLD_GRACE_MS, "{left} ms left of {TURN}");
        assert!(w.runtime.given_back() >= 6_000 - HOLD_GRACE_MS);
        // No time-out before A's whole turn has run.
        let mut sub = w.runtime.subscribe(id, Viewer::Spectator).await.unwrap();
        w.time.advance(left - 1);
        quiet(&mut sub).await;
        w.time.advance(1);
        assert_eq!(kinds(&next(&mut sub).await)[0], Kind::TimedOut { turn: 3 });
    }
}

/// A stall longer than the busy timeout (35 s here against 1 s): the move fails
/// saying the database is busy and that nothing was recorded, and the player's own
/// clock did not run meanwhile; once the lock is let go the same move goes through.
#[tokio::test]
async fn a_store_locked_past_the_busy_timeout_fails_the_move_without_eating_the_clock() {
    use mondo::runtime::clock::HOLD_GRACE_MS;
    // SQLite's write lock, held by another connection.
    {
        let w = world().await;
        let id = race(&w, Work::Quick).await;
        act(&w, id, A, Action::Add(1)).await;
        let store = w.runtime.store().clone();
        store
            .set_busy_timeout(Duration::from_millis(1_000))
            .await
            .unwrap();
        let mut other = write_lock_held(&w).await;
        let moved = add_in_background(&w, id, B);
        tokio::time::timeout(Duration::from_secs(60), w.runtime.committing())
            .await
            .expect("the move is committed");
        w.time.advance(35_000);
        let e = moved.await.unwrap().unwrap_err();
        assert!(
            e.to_string().contains("busy") && e.to_string().contains("nothing was recorded"),
            "{e}"
        );
        sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
        let v = view(&w, id).await;
        assert_eq!(v, stored_view(&w, id).await);
        assert_eq!(v.seat, 1, "still B's turn");
        assert!(remaining(&v, w.runtime.now()) >= TURN - HOLD_GRACE_MS);
        act(&w, id, B, Action::Add(1)).await;
    }
}

/// An I/O error at a commit that did reach the log (an fsync failing after the
/// write): the database is reopened, its log read, and the move is answered as
/// recorded and announced: nobody is told "nothing was recorded" for a move that was.
#[tokio::test]
async fn an_io_error_after_the_write_is_answered_from_the_log() {
    use mondo::store::Fault;
    for db in stores::each() {
        let w = world_on(db).await;
        let id = race(&w, Work::Quick).await;
        let mut sub = w.runtime.subscribe(id, Viewer::Spectator).await.unwrap();
        w.runtime.store().inject([Fault::Io { written: true }]);
        let ack = act(&w, id, A, Action::Add(2)).await;
        let u = sub.until(ack.seq).await.unwrap();
        assert!(
            u.iter()
                .flat_map(kinds)
                .any(|k| k == Kind::Added { seat: 0, n: 2 })
        );
        // One that did not reach it: said so, for sure, and the move can be made again.
        w.runtime.store().inject([Fault::Io { written: false }]);
        let e = w
            .runtime
            .act(id, Actor::Player(B), Action::Add(1), None)
            .await
            .unwrap_err();
        assert!(
            e.to_string().contains("was reopened; nothing was recorded"),
            "{e}"
        );
        assert_eq!(view(&w, id).await, stored_view(&w, id).await);
        act(&w, id, B, Action::Add(1)).await;
    }
}

/// An I/O error whose outcome cannot be read back: the player hears "may not have
/// been recorded" (never "nothing was recorded"); the match decides nothing until
/// the log reads again, then says what it holds (the move was recorded) before
/// anything else.
#[tokio::test]
async fn an_io_error_with_the_log_unreadable_says_may_not_and_the_log_is_said_later() {
    use mondo::store::Fault;
    for db in stores::each() {
        let w = world_on(db).await;
        let id = race(&w, Work::Quick).await;
        let mut sub = w.runtime.subscribe(id, Viewer::Spectator).await.unwrap();
        w.runtime.store().inject([
            Fault::Io { written: true },
            Fault::Unreadable,
            Fault::Unreadable,
        ]);
        let e = w
            .runtime
            .act(id, Actor::Player(A), Action::Add(2), None)
            .await
            .unwrap_err();
        let said = e.to_string();
        assert!(said.contains("may not have been recorded"), "{said}");
        assert!(!said.contains("nothing was recorded"), "{said}");
        // The log reads again: A's move is in it, so it is said, and A may not move twice.
        match w
            .runtime
            .act(id, Actor::Player(A), Action::Add(2), None)
            .await
        {
            Err(ActError::Refused(RaceError::NotYourTurn)) => {}
            other => panic!("{other:?}"),
        }
        let u = next(&mut sub).await;
        assert!(kinds(&u).contains(&Kind::Added { seat: 0, n: 2 }));
        assert_eq!(view(&w, id).await, stored_view(&w, id).await);
        act(&w, id, B, Action::Add(1)).await;
    }
}
