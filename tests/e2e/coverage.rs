//! The shard coverage check with real processes: two `mondo serve` on one PostgreSQL
//! database given overlapping ranges that leave a gap (0-1 and 1-2 of 4) say both in
//! their logs; when one dies its shards are said to be nobody's once its mark runs
//! out; a process started on the missing range makes the coverage exact, and that is
//! said too.
//!
//! Skipped (with a note) under `MONDO_SKIP_POSTGRES`, as the store's PostgreSQL tests.

use super::Served;
use super::owners::{log_ends, log_says, log_says_after};
use super::stores::TestDb;
use crate::support::discord::FakeDiscord;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn processes_whose_shards_overlap_or_leave_a_gap_say_so_in_their_logs() {
    let Some(db) = TestDb::postgres() else {
        eprintln!("note: MONDO_SKIP_POSTGRES is set: the shard coverage test is skipped");
        return;
    };
    let fake = FakeDiscord::start().await;
    fake.set_shards(4, 4);
    let dir = tempfile::tempdir().unwrap();
    let p = |f: &str| dir.path().join(f);
    let url = db.location.to_string();
    // Short leases: a dead process's mark runs out with them.
    let env = [
        ("MONDO_DATABASE_URL", url.as_str()),
        ("MONDO_DATABASE_LEASE_MS", "1500"),
        ("MONDO_DATABASE_LEASE_RENEW_MS", "300"),
        ("MONDO_DATABASE_IDLE_IN_TRANSACTION_MS", "1000"),
    ];
    let (a_log, b_log, c_log) = (p("a.log"), p("b.log"), p("c.log"));
    let start = |log: &std::path::Path, range: &str| {
        Served::on_shards(&fake, dir.path(), log, &env, range, 4)
    };
    let mut a = start(&a_log, "0-1");
    let mut b = start(&b_log, "1-2");
    let both = [a_log.as_path(), b_log.as_path()];
    log_says(&both, "shard 1 of 4 run in 2 processes").await;
    log_says(&both, "shard 3 of 4 run in no live process").await;

    // b dies: a sees its shards 2-3 nobody's once b's mark has run out.
    b.kill();
    let from = log_ends(&[&a_log]);
    log_says_after(&[&a_log], &from, "shards 2-3 of 4 run in no live process").await;

    // c takes the missing range: every shard once, said by a and by c.
    let mut c = start(&c_log, "2-3");
    let from = log_ends(&[&a_log]);
    let exact = "every shard of 4 runs in exactly one live process (2 in all)";
    log_says_after(&[&a_log], &from, exact).await;
    log_says(&[&c_log], exact).await;
    a.alive();
    c.alive();
    assert_eq!(fake.problems(), Vec::<String>::new());
}
