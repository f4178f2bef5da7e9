//! Discord's identify limit across processes: three `mondo serve` processes on one
//! PostgreSQL database, started together, run shards 0-1, 2 and 3 of 4 with
//! `max_concurrency` 2 (rate-limit keys 0 and 1). Uncoordinated, shard 2 would identify
//! with shard 0 and shard 3 with shard 1; through the database's identify turns no two
//! shards of one key identify within 5 s, and every shard connects.
//!
//! Skipped (with a note) under `MONDO_SKIP_POSTGRES`, as the store's PostgreSQL tests.

use super::stores::TestDb;
use super::{Served, identified_once, shards_live};
use crate::support::discord::FakeDiscord;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn processes_on_one_database_take_turns_to_identify_each_rate_limit_key() {
    let Some(db) = TestDb::postgres() else {
        eprintln!("note: MONDO_SKIP_POSTGRES is set: the identify-turn test is skipped");
        return;
    };
    let fake = FakeDiscord::start().await;
    fake.set_shards(4, 2);
    let dir = tempfile::tempdir().unwrap();
    let p = |f: &str| dir.path().join(f);
    let url = db.location.to_string();
    let env = [("MONDO_DATABASE_URL", url.as_str())];
    let logs = [p("a.log"), p("b.log"), p("c.log")];
    let start = |log: &std::path::Path, range: &str| {
        Served::on_shards(&fake, dir.path(), log, &env, range, 4)
    };
    let mut a = start(&logs[0], "0-1");
    let mut b = start(&logs[1], "2");
    let mut c = start(&logs[2], "3");
    shards_live(&fake, &mut [&mut a, &mut b, &mut c], &[0, 1, 2, 3]).await;

    assert_eq!(
        identified_once(&fake),
        [(0, 4), (1, 4), (2, 4), (3, 4)],
        "each shard once"
    );
    assert_eq!(fake.pacing_violations(), Vec::<String>::new());
    let logs: Vec<String> = logs
        .iter()
        .map(|l| std::fs::read_to_string(l).unwrap_or_default())
        .collect();
    assert!(
        logs.iter()
            .any(|l| l.contains("waiting for another process's shards to identify")),
        "some process waited its turn:\n{}",
        logs.join("\n-----\n")
    );
    assert!(
        !logs.iter().any(|l| l.contains("without an identify turn")),
        "{}",
        logs.join("\n-----\n")
    );
    for bot in [&mut a, &mut b, &mut c] {
        bot.alive();
    }
    assert_eq!(fake.problems(), Vec::<String>::new());
}
