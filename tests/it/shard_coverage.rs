//! The shard coverage check across processes on one database: each process announces
//! its range with a liveness mark, and what the live ones say is checked. Two
//! processes whose ranges overlap and leave a gap are both seen by either; a process
//! that stops cleanly withdraws at once, one whose mark runs out (it died) no longer
//! counts. On both databases (the check runs only on PostgreSQL, where several
//! processes share one; SQLite has the same table).

use crate::stores::{self, TestDb};
use mondo::shards::ShardRange;
use mondo::shards::coverage::coverage;
use mondo::store::{ShardRunner, Store};
use std::time::Duration;

const LIVE: Duration = Duration::from_secs(60);

fn runner(owner: &str, first: u32, last: u32, total: u32) -> ShardRunner {
    ShardRunner {
        owner: owner.into(),
        first,
        last,
        total,
    }
}

fn r(first: u32, last: u32) -> ShardRange {
    ShardRange { first, last }
}

/// What process `store` sees of 4 shards.
async fn seen(store: &Store) -> mondo::shards::coverage::Coverage {
    coverage(4, &store.live_shard_runners().await.unwrap())
}

async fn two_processes(db: &TestDb) -> (Store, Store) {
    // Two stores on one database: two processes.
    let (a, b) = (db.open().await, db.open().await);
    a.announce_shards(&runner("host:1:a", 0, 1, 4), LIVE)
        .await
        .unwrap();
    b.announce_shards(&runner("host:2:b", 1, 2, 4), LIVE)
        .await
        .unwrap();
    (a, b)
}

#[tokio::test]
async fn an_overlap_and_a_gap_between_two_processes_are_seen_by_each() {
    for db in stores::each() {
        let (a, b) = two_processes(&db).await;
        for store in [&a, &b] {
            let c = seen(store).await;
            assert_eq!(c.uncovered, [r(3, 3)], "{}: {c:?}", db.name);
            assert_eq!(
                c.overlapping,
                [(r(1, 1), vec!["host:1:a".into(), "host:2:b".into()])],
                "{}",
                db.name
            );
            assert_eq!(c.processes, 2);
        }
        // b is restarted on 2-3: a new announcement replaces its row; now exact.
        b.announce_shards(&runner("host:2:b", 2, 3, 4), LIVE)
            .await
            .unwrap();
        let c = seen(&a).await;
        assert!(c.is_exact(), "{}: {c:?}", db.name);
        assert_eq!(
            db.count("SELECT COUNT(*) FROM shard_runners").await,
            2,
            "{}: one row per process",
            db.name
        );
    }
}

#[tokio::test]
async fn a_stopped_process_withdraws_and_a_dead_one_runs_out() {
    for db in stores::each() {
        let (a, b) = two_processes(&db).await;
        // b stops cleanly: its shards are nobody's at once.
        b.withdraw_shards("host:2:b").await.unwrap();
        assert_eq!(seen(&a).await.uncovered, [r(2, 3)], "{}", db.name);
        // c runs 2-3 and dies: its mark runs out (moved to the past here).
        let c = db.open().await;
        c.announce_shards(&runner("host:3:c", 2, 3, 4), LIVE)
            .await
            .unwrap();
        assert!(seen(&a).await.is_exact(), "{}", db.name);
        db.execute("UPDATE shard_runners SET expires_ms = 0 WHERE owner = 'host:3:c'")
            .await;
        assert_eq!(seen(&a).await.uncovered, [r(2, 3)], "{}", db.name);
        // A mark that lives no time is never live.
        c.announce_shards(&runner("host:3:c", 2, 3, 4), Duration::ZERO)
            .await
            .unwrap();
        assert_eq!(seen(&a).await.uncovered, [r(2, 3)], "{}", db.name);
    }
}

#[tokio::test]
async fn a_range_beyond_its_total_is_refused_by_the_database() {
    for db in stores::each() {
        let store = db.open().await;
        let err = store
            .announce_shards(&runner("host:1:a", 2, 4, 4), LIVE)
            .await
            .unwrap_err();
        assert!(err.to_string().contains("shard"), "{}: {err}", db.name);
        assert!(store.live_shard_runners().await.unwrap().is_empty());
    }
}

/// The value of gauge `name` in the process's `/metrics` text.
fn gauge(name: &str) -> Option<f64> {
    let text = mondo::metrics::recorder().render();
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

#[tokio::test]
async fn the_check_of_each_process_sets_the_gauges_operators_read() {
    use mondo::bot::coverage::{CoverageCheck, SHARDS_OVERLAPPING, SHARDS_UNCOVERED};
    // Recording from here on (this binary's one recorder; no other test sets these).
    mondo::metrics::recorder();
    let Some(db) = TestDb::postgres() else {
        eprintln!("note: MONDO_SKIP_POSTGRES is set: the coverage gauges test is skipped");
        return;
    };
    let check = |store: Store, owner: &str, first, last| {
        CoverageCheck::new(store, owner, (r(first, last), 8), LIVE, LIVE)
    };
    // A process on 0-3 of 8 alone: 4 shards nobody's.
    let mut a = check(db.open().await, "host:1:a", 0, 3);
    a.announce().await;
    assert_eq!(gauge(SHARDS_UNCOVERED), Some(4.0));
    assert_eq!(gauge(SHARDS_OVERLAPPING), Some(0.0));
    // Another on 2-6: 2-3 twice, 7 nobody's.
    let mut b = check(db.open().await, "host:2:b", 2, 6);
    b.announce().await;
    assert_eq!(gauge(SHARDS_UNCOVERED), Some(1.0));
    assert_eq!(gauge(SHARDS_OVERLAPPING), Some(2.0));
    // b restarted on 4-7: exact.
    let mut b = check(db.open().await, "host:2:b", 4, 7);
    b.announce().await;
    assert_eq!(gauge(SHARDS_UNCOVERED), Some(0.0));
    assert_eq!(gauge(SHARDS_OVERLAPPING), Some(0.0));
    // It stops cleanly: its shards are nobody's at a's next look.
    mondo::bot::coverage::withdraw(&db.open().await, "host:2:b").await;
    a.announce().await;
    assert_eq!(gauge(SHARDS_UNCOVERED), Some(4.0));
}
