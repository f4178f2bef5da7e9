//! PostgreSQL with an owner paused inside a transaction (a stalled VM, a GC pause): a
//! process holds a transaction open on one of its matches and is stopped (SIGSTOP).
//! Another process starts, runs matches and moves in them while that transaction is
//! still open (takeovers skip locked rows, nothing waits on its locks); the server
//! ends the paused session (`idle_in_transaction_session_timeout`, shorter than the
//! lease), its uncommitted move is gone, and every match of the paused owner moves to
//! the other once its lease runs out.

use crate::race_game::{Action, Actor, Race, Setup};
use crate::stores::TestDb;
use mondo::runtime::{Config, Place, Runtime, SystemTime};
use mondo::store::{Durability, Fault, Location, MatchId, Store, Timeouts};
use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const A: u64 = 11;
const B: u64 = 22;
/// Where the paused owner (this test binary run again) finds its database.
const CHILD: &str = "MONDO_TEST_PAUSED_OWNER";
/// Bounds a failure only.
const T: Duration = Duration::from_secs(60);

/// The paused owner's lease and its session's idle-in-transaction limit (shorter).
const OWNER_LEASE_MS: u64 = 5_000;
const OWNER_IDLE_MS: u64 = 4_000;

fn setup() -> Setup {
    Setup {
        // No clock runs out while the test works.
        turn_ms: 600_000,
        ..Setup::new([A, B])
    }
}

/// The paused owner: run by the test below as a child process; does nothing in a
/// plain test run. It creates three matches, holds the transaction of a move in the
/// first open ([`Fault::Hold`]), says `HELD` with the matches, and waits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the paused owner of the test below, started by it"]
async fn paused_owner_child() {
    let Ok(url) = std::env::var(CHILD) else {
        return;
    };
    let location: Location = url.parse().unwrap();
    let timeouts = Timeouts {
        idle_in_transaction_ms: OWNER_IDLE_MS,
        ..Timeouts::default()
    };
    let store = Store::connect_tuned(&location, Durability::default(), timeouts)
        .await
        .unwrap();
    let config = Config {
        lease_ttl_ms: OWNER_LEASE_MS,
        lease_renew_ms: 500,
        lease_scan_ms: 500,
        ..Config::default()
    };
    let (runtime, _) = Runtime::<Race>::start(store.clone(), SystemTime::new(), config)
        .await
        .unwrap();
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(runtime.create(Place::default(), setup()).await.unwrap().0);
    }
    store.inject([Fault::Hold]);
    let mut holding = store.holding();
    let (mover, first) = (runtime.clone(), MatchId(ids[0]));
    tokio::spawn(async move {
        let _ = mover
            .act(first, Actor::Player(A), Action::Add(1), None)
            .await;
    });
    holding.wait_for(|h| *h).await.unwrap();
    println!("HELD {ids:?}");
    std::future::pending::<()>().await;
}

/// A child process killed (and reaped) when the test ends, however it ends.
struct Owner(Child);

impl Drop for Owner {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the paused owner on `db` and waits for its `HELD` line: its matches.
fn start_owner(db: &TestDb) -> (Owner, Vec<MatchId>) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "pg_stalls::paused_owner_child",
            "--ignored",
            "--nocapture",
        ])
        .env(CHILD, db.url())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the test binary runs again");
    let out = child.stdout.take().unwrap();
    let owner = Owner(child);
    let held = std::io::BufReader::new(out)
        .lines()
        .map_while(Result::ok)
        .find_map(|l| l.strip_prefix("HELD ").map(str::to_string))
        .expect("the owner holds a transaction open");
    let ids = serde_json::from_str::<Vec<i64>>(&held).unwrap();
    (owner, ids.into_iter().map(MatchId).collect())
}

fn signal(owner: &Owner, which: &str) {
    let ok = Command::new("kill")
        .args([which, &owner.0.id().to_string()])
        .status()
        .expect("kill runs")
        .success();
    assert!(ok, "kill {which}");
}

const IDLE_IN_TRANSACTION: &str = "SELECT COUNT(*) FROM pg_stat_activity \
     WHERE datname = current_database() AND state = 'idle in transaction'";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_owner_inside_a_transaction_blocks_nobody_and_its_matches_move_after_its_lease() {
    let Some(db) = TestDb::postgres() else {
        return;
    };
    let (owner, theirs) = tokio::task::block_in_place(|| start_owner(&db));
    signal(&owner, "-STOP");
    assert_eq!(
        db.count(IDLE_IN_TRANSACTION).await,
        1,
        "the move's transaction"
    );

    // Another process starts (it tries each live match's lease: the held one is
    // skipped, not waited for), creates a match and moves in it.
    let quick = Config {
        lease_ttl_ms: 1_000,
        lease_renew_ms: 200,
        lease_scan_ms: 100,
        ..Config::default()
    };
    let (other, recovery) = Runtime::<Race>::start(db.open().await, SystemTime::new(), quick)
        .await
        .unwrap();
    let mut taken = other.taken_over();
    let mut elsewhere = recovery.elsewhere.clone();
    elsewhere.sort();
    assert_eq!(elsewhere, theirs, "their leases are live");
    let mine = other.create(Place::default(), setup()).await.unwrap();
    other
        .act(mine, Actor::Player(A), Action::Add(2), None)
        .await
        .unwrap();
    // All of that while the paused transaction was still open: nothing waited for it.
    assert_eq!(
        db.count(IDLE_IN_TRANSACTION).await,
        1,
        "the other process went on while the paused owner's transaction was open"
    );

    // The server ends the paused session; the leases run out; every match of the
    // paused owner moves here, the one it was moving in too.
    let all_here = |live: Vec<MatchId>| theirs.iter().all(|id| live.contains(id));
    while !all_here(other.live()) {
        let _ = tokio::time::timeout(T, taken.recv())
            .await
            .unwrap_or_else(|_| panic!("not all of {theirs:?} moved: {:?}", other.live()));
    }
    for id in &theirs {
        let lease = other.store().lease(*id).await.unwrap().unwrap();
        assert_eq!((lease.owner.as_str(), lease.token), (other.owner(), 2));
    }
    // Its uncommitted move is not in the log; the new owner takes it once.
    let held = theirs[0];
    let before = other.store().events(held).await.unwrap();
    assert!(
        before.iter().all(|e| !e.body.contains("added")),
        "{before:#?}"
    );
    other
        .act(held, Actor::Player(A), Action::Add(1), None)
        .await
        .unwrap();
    let after = other.store().events(held).await.unwrap();
    assert_eq!(
        after.iter().filter(|e| e.body.contains("added")).count(),
        1,
        "{after:#?}"
    );
    assert_eq!(db.count(IDLE_IN_TRANSACTION).await, 0);
    signal(&owner, "-CONT");
    drop(owner);
    other.shutdown().await.unwrap();
}
