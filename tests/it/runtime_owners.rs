//! Matches owned by leases in the runtime: a runtime holds the lease of each match it
//! runs and lets it go on shutdown; on one PostgreSQL database, a second runtime leaves
//! the first one's matches alone while their leases live, takes them over once a lease
//! runs out (its owner stalled), and the stalled owner's next move is refused by the
//! fencing token: the match stops there, and the log holds each event once.

use crate::runtime_zendo::{duel_on, setup};
use crate::stores::TestDb;
use mondo::rules::zendo::{DuelMove, ZendoMove};
use mondo::rules::{Actor, PlayerId, Viewer};
use mondo::runtime::{
    ActError, AnyMatch, AnyView, Config, ManualTime, Place, Runtime, RuntimeError, SystemTime,
};
use mondo::store::{Durability, Store, Timeouts};
use std::time::Duration;

const ALICE: PlayerId = PlayerId(101);

/// Short leases, renewed and looked for often.
fn quick() -> Config {
    Config {
        lease_ttl_ms: 600,
        lease_renew_ms: 100,
        lease_scan_ms: 100,
        ..Config::default()
    }
}

#[tokio::test]
async fn a_runtime_holds_the_leases_of_its_matches_and_lets_them_go_on_shutdown() {
    let db = TestDb::sqlite();
    let (runtime, id) = duel_on(&db, ManualTime::new(0), quick()).await;
    let lease = runtime.store().lease(id).await.unwrap().expect("leased");
    assert_eq!(lease.owner, runtime.owner());
    let store = runtime.store().clone();
    runtime.shutdown().await.unwrap();
    // Killed instead, the next process on the same SQLite file (alone on it by its run
    // lock) takes it at once with the next token.
    let (runtime, recovery) =
        Runtime::<AnyMatch>::start(db.open().await, ManualTime::new(0), quick())
            .await
            .unwrap();
    assert_eq!(recovery.resumed, [id]);
    let again = runtime.store().lease(id).await.unwrap().expect("leased");
    assert_eq!(again.owner, runtime.owner());
    assert_eq!(again.token, lease.token + 1);
    drop(store);
    drop(runtime);
    let (runtime, recovery) =
        Runtime::<AnyMatch>::start(db.open().await, ManualTime::new(0), quick())
            .await
            .unwrap();
    assert_eq!(
        recovery.resumed,
        [id],
        "a dropped runtime's lease is taken too"
    );
    runtime.shutdown().await.unwrap();
}

/// With the shipped leases (40 s, renewed every 3 s, looked for every 3 s): a dead
/// process's match stays where it is while its lease lives, even 30 s of database
/// outage after a renewal that came late, and another process takes it over within 5 s
/// of the lease's end. The runtimes run on fake clocks; the database's clock is moved
/// by moving the lease's expiry back, as time passing would.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_default_leases_a_dead_owner_s_match_moves_within_the_lease_and_5_s() {
    let Some(db) = TestDb::postgres() else {
        return;
    };
    let config = Config::default();
    let (first, id) = duel_on(&db, ManualTime::new(0), config).await;
    let lease = first.store().lease(id).await.unwrap().unwrap();
    // Killed: its lease is not let go, nor renewed again.
    drop(first);
    let time = ManualTime::new(0);
    let (second, recovery) = Runtime::<AnyMatch>::start(db.open().await, time.clone(), config)
        .await
        .unwrap();
    assert_eq!(recovery.elsewhere, [id], "the first one's lease is live");
    let mut taken = second.taken_over();
    let back =
        |ms: u64| format!("UPDATE leases SET expires_ms = expires_ms - {ms} WHERE match_id = {id}");
    db.execute(&back(30_000 + config.lease_renew_ms)).await;
    let (unowned, _) = second.store().unowned().await.unwrap();
    assert!(
        unowned.iter().all(|u| u.id != id),
        "a 30 s outage after a late renewal outlived the lease"
    );
    // The lease runs out now. The second's clock moves a second at a time, each once
    // its heartbeat has seen the last (so its loops keep up); its next look for
    // matches nobody runs takes it (the looks are 3 s apart: within 5 s of the end).
    db.execute(&format!(
        "UPDATE leases SET expires_ms = CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 \
         AS BIGINT) WHERE match_id = {id}"
    ))
    .await;
    let mut beats = second.heartbeats();
    let driven = async {
        loop {
            time.advance(1_000);
            tokio::select! {
                took = taken.recv() => return took.unwrap(),
                seen = beats.changed() => seen.unwrap(),
            }
        }
    };
    let took = tokio::time::timeout(Duration::from_secs(60), driven)
        .await
        .expect("never taken over");
    assert_eq!(took, id);
    let now = second.store().lease(id).await.unwrap().unwrap();
    assert_eq!(
        (now.owner.as_str(), now.token),
        (second.owner(), lease.token + 1)
    );
    if let Err(e) = second.shutdown().await {
        panic!("the second process's shutdown failed: {e}");
    }
}

/// Another process saves the one game clock as this one stops, and holds its row past
/// the lock timeout (a loaded server): the stop waits it out and saves, instead of
/// failing for another process's moment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_waits_out_another_process_saving_the_game_clock() {
    let Some(db) = TestDb::postgres() else {
        return;
    };
    let timeouts = Timeouts {
        lock_ms: 100,
        ..Timeouts::default()
    };
    let store = Store::connect_tuned(&db.location, Durability::default(), timeouts)
        .await
        .unwrap();
    // Only the stop saves the clock here.
    let config = Config {
        heartbeat_ms: 3_600_000,
        ..quick()
    };
    let time = ManualTime::new(0);
    let (runtime, _) = Runtime::<AnyMatch>::start(store, time.clone(), config)
        .await
        .unwrap();
    time.advance(5_000);
    let at = runtime.now();
    assert_eq!(at, 5_000);
    sqlx::any::install_default_drivers();
    let mut other = <sqlx::AnyConnection as sqlx::Connection>::connect(&db.url())
        .await
        .unwrap();
    for sql in [
        "BEGIN",
        "UPDATE game_clock SET saved_ms = saved_ms WHERE id = 1",
    ] {
        sqlx::query(sql).execute(&mut other).await.unwrap();
    }
    let stopping = tokio::spawn(runtime.shutdown());
    // The stop's save waits for the row (when it began, µs), runs out of lock time,
    // and waits again: only then does the other save commit.
    let waiting = "SELECT COALESCE(MAX(CAST(EXTRACT(EPOCH FROM query_start) * 1000000 \
         AS BIGINT)), 0) FROM pg_stat_activity WHERE datname = current_database() \
         AND wait_event_type = 'Lock' AND query LIKE 'UPDATE game_clock%'";
    let mut first = 0;
    while !stopping.is_finished() {
        let began = db.count(waiting).await;
        if first == 0 {
            first = began;
        } else if began > first {
            break;
        }
    }
    sqlx::query("COMMIT").execute(&mut other).await.unwrap();
    if let Err(e) = stopping.await.unwrap() {
        panic!("the stop failed for another process's save: {e}");
    }
    let store = db.open().await;
    assert_eq!(
        store.shared_game_clock(60_000).await.unwrap(),
        (at, false),
        "saved as stopped"
    );
}

/// A bot's processes adopt the matches nobody runs, but not a terminal's (no server, no
/// channel: `mondo play` on the shared database): neither on start nor when looking
/// later. The terminal takes it back with `--resume`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_s_process_leaves_a_terminal_s_match_to_the_terminal() {
    let Some(db) = TestDb::postgres() else {
        return;
    };
    let bot = Config {
        adopt_unplaced: false,
        ..quick()
    };
    let terminal_only = Config {
        adopt: false,
        ..quick()
    };
    let discord = Place {
        guild: Some(7),
        channel: Some(8),
    };
    // A terminal's match and a Discord one; their process dies, their leases run out.
    let (first, terminal) = duel_on(&db, ManualTime::new(0), terminal_only).await;
    let placed = first.create(discord, setup().into()).await.unwrap();
    drop(first);
    db.execute("UPDATE leases SET expires_ms = 1").await;
    let (bot, recovery) = Runtime::<AnyMatch>::start(db.open().await, SystemTime::new(), bot)
        .await
        .unwrap();
    assert_eq!(recovery.resumed, [placed], "the Discord match only");
    // Another Discord match left the same way later is taken over by its looks; the
    // terminal's (older, looked at first in each look) is passed by.
    let mut taken = bot.taken_over();
    let (other, later) = duel_on(&db, ManualTime::new(0), terminal_only).await;
    drop(other);
    db.execute(&format!(
        "UPDATE matches SET channel_id = 9 WHERE id = {later}"
    ))
    .await;
    db.execute(&format!(
        "UPDATE leases SET expires_ms = 1 WHERE match_id = {later}"
    ))
    .await;
    let took = async {
        let id = taken.recv().await.unwrap();
        assert_eq!(id, later, "only the Discord match is taken over");
    };
    tokio::time::timeout(Duration::from_secs(60), took)
        .await
        .expect("the later Discord match is taken over");
    assert!(!bot.live().contains(&terminal));
    // The terminal resumes it.
    let (terminal_again, _) =
        Runtime::<AnyMatch>::start(db.open().await, SystemTime::new(), terminal_only)
            .await
            .unwrap();
    terminal_again.run_match(terminal).await.unwrap();
    let lease = bot.store().lease(terminal).await.unwrap().unwrap();
    assert_eq!(lease.owner, terminal_again.owner());
    terminal_again.shutdown().await.unwrap();
    bot.shutdown().await.unwrap();
}

/// A process that starts while another creates a match (its row written, its lease
/// not yet taken) leaves it to its creator instead of running it too; should the
/// creator never take it, the looks for matches nobody runs do.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_starting_process_leaves_a_match_being_created_to_its_creator() {
    let Some(db) = TestDb::postgres() else {
        return;
    };
    let (creator, id) = duel_on(&db, ManualTime::new(0), quick()).await;
    drop(creator);
    db.execute(&format!("DELETE FROM leases WHERE match_id = {id}"))
        .await;
    let (second, recovery) =
        Runtime::<AnyMatch>::start(db.open().await, SystemTime::new(), quick())
            .await
            .unwrap();
    assert_eq!(recovery.elsewhere, [id], "being created elsewhere");
    assert!(recovery.resumed.is_empty() && second.live().is_empty());
    let mut taken = second.taken_over();
    let took = tokio::time::timeout(Duration::from_secs(60), taken.recv())
        .await
        .expect("never taken by the looks");
    assert_eq!(took.unwrap(), id);
    let lease = second.store().lease(id).await.unwrap().unwrap();
    assert_eq!(lease.owner, second.owner());
    second.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_owner_is_taken_over_and_its_next_move_is_fenced() {
    let Some(db) = TestDb::postgres() else {
        return;
    };
    // The first process's time stands still: its renewals never come (a stall).
    let stalled = ManualTime::new(0);
    let (first, id) = duel_on(&db, stalled.clone(), quick()).await;
    let (second, recovery) =
        Runtime::<AnyMatch>::start(db.open().await, SystemTime::new(), quick())
            .await
            .unwrap();
    assert_eq!(recovery.elsewhere, [id], "the first one's lease is live");
    assert!(second.live().is_empty());
    let mut taken = second.taken_over();
    // Its lease runs out (600 ms on the database's clock): the second takes it over,
    // and says so once the match runs there.
    let took = tokio::time::timeout(Duration::from_secs(60), taken.recv())
        .await
        .expect("never taken over");
    assert_eq!(took.unwrap(), id);
    assert!(second.live().contains(&id));
    let lease = second.store().lease(id).await.unwrap().unwrap();
    assert_eq!(lease.owner, second.owner());
    assert_eq!(lease.token, 2);
    // The stalled one wakes and moves: the database refuses it, and the match stops
    // running there.
    let starter = DuelMove::Zendo(ZendoMove::ChooseStarter { starter: ALICE });
    // Its feed closes once the match stops running there.
    let mut feed = first.subscribe(id, Viewer::Spectator).await.unwrap();
    match first
        .act(id, Actor::Player(ALICE), starter.clone().into(), None)
        .await
    {
        Err(ActError::Runtime(RuntimeError::Moved(m))) => assert_eq!(m, id),
        other => panic!("not fenced: {other:?}"),
    }
    let closed = async { while feed.next().await.is_some() {} };
    tokio::time::timeout(Duration::from_secs(60), closed)
        .await
        .expect("it stops running there");
    assert!(first.live().is_empty(), "it stopped running there");
    match first
        .act(id, Actor::Player(ALICE), starter.clone().into(), None)
        .await
    {
        Err(ActError::Runtime(RuntimeError::Moved(_))) => {}
        other => panic!("a moved match says so: {other:?}"),
    }
    // The new owner takes the same move once.
    second
        .act(id, Actor::Player(ALICE), starter.into(), None)
        .await
        .unwrap();
    let events = second.store().events(id).await.unwrap();
    let starters = events
        .iter()
        .filter(|e| e.body.contains("StarterChosen") || e.body.contains("starter"))
        .count();
    assert_eq!(starters, 1, "{events:#?}");
    second.shutdown().await.unwrap();
    drop(first);
}

/// One game clock per database: a process that starts while another (holding a match)
/// saved the clock a moment ago joins it where it is now (the saved reading plus the time since, on the
/// database's clock); after a longer silence (no process ran) it resumes where it
/// stopped.
#[tokio::test]
async fn processes_on_one_database_share_one_game_clock() {
    for db in crate::stores::each() {
        let store = db.open().await;
        // Another process runs a match.
        let id = crate::store_leases::a_match(&store).await;
        let lease = store
            .take_lease(id, "another", Duration::from_secs(60))
            .await
            .unwrap();
        store.save_shared_game_clock(50_000).await.unwrap();
        // 200 ms pass on the database's clock: it was saved that long ago.
        db.execute("UPDATE game_clock SET saved_ms = saved_ms - 200 WHERE id = 1")
            .await;
        let (at, running) = store.shared_game_clock(10_000).await.unwrap();
        assert!(running, "{}", db.name);
        assert!((50_200..55_000).contains(&at), "{}: {at}", db.name);
        let (at, running) = store.shared_game_clock(100).await.unwrap();
        assert!(!running, "{}", db.name);
        assert_eq!(at, 50_000, "{}: the silence is not counted", db.name);
        // It never goes back.
        // Nobody holds a match (the one that saved was killed, its leases ran out):
        // nobody ran the clock since.
        store.save_shared_game_clock(50_000).await.unwrap();
        store.release_lease(&lease).await.unwrap();
        assert_eq!(
            store.shared_game_clock(10_000).await.unwrap(),
            (50_000, false)
        );
        // A clean stop: the next process resumes at it exactly.
        store.stop_shared_game_clock(10).await.unwrap();
        assert_eq!(
            store.shared_game_clock(10_000).await.unwrap(),
            (50_000, false)
        );
    }
}

/// A clean handover keeps the clocks exact: the first process lets its duel go on
/// stopping (a deploy), another that runs beside it takes the duel over, and alice's
/// turn has the time it had, give or take the real time the handover took (the time
/// nobody ran it is given back; the second's clock is real). The new owner counted from the lease's old expiry
/// of 0 and gave back the whole game instead (+20 s here).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_handed_over_cleanly_keeps_its_players_time() {
    let Some(db) = TestDb::postgres() else {
        return;
    };
    // Leases that do not run out while the fake clocks stand still.
    let config = Config {
        lease_ttl_ms: 60_000,
        lease_renew_ms: 100,
        lease_scan_ms: 100,
        ..Config::default()
    };
    let time = ManualTime::new(0);
    let (first, id) = duel_on(&db, time.clone(), config).await;
    let starter = DuelMove::Zendo(ZendoMove::ChooseStarter { starter: ALICE });
    first
        .act(id, Actor::Player(ALICE), starter.into(), None)
        .await
        .unwrap();
    // 20 s of alice's turn pass; the game clock is saved (the second joins it).
    let mut saved = first.heartbeats();
    time.advance(20_000);
    saved.wait_for(|at| *at >= 20_000).await.unwrap();
    let turn_left = |view: AnyView, now| match view {
        AnyView::ZendoDuel(d) => d.clock.remaining(now),
        other => panic!("{other:?}"),
    };
    let left = turn_left(
        first.view(id, &Viewer::Spectator).await.unwrap(),
        first.now(),
    );
    // The second on real time (its look for matches nobody runs must come).
    let (second, _) = Runtime::<AnyMatch>::start(db.open().await, SystemTime::new(), config)
        .await
        .unwrap();
    let mut taken = second.taken_over();
    let handover = std::time::Instant::now();
    first.shutdown().await.unwrap();
    let took = tokio::time::timeout(Duration::from_secs(60), taken.recv())
        .await
        .expect("never taken over");
    assert_eq!(took.unwrap(), id);
    let real = handover.elapsed().as_millis() as u64;
    let after = turn_left(
        second.view(id, &Viewer::Spectator).await.unwrap(),
        second.now(),
    );
    assert!(
        left.saturating_sub(3_000) <= after && after <= left + real,
        "alice had {left} ms left; after a handover of {real} ms she has {after} ms"
    );
    second.shutdown().await.unwrap();
}
