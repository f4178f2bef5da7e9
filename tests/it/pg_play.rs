//! `mondo play` on a PostgreSQL database other processes share: the terminal runs only
//! the match it starts or is asked for, never another process's; one another process
//! runs is refused saying whose it is and what to do; and a terminal whose lease is
//! taken over says so and ends with status 1.

use crate::play_support::{self, Mondo};
use crate::stores::TestDb;
use std::ffi::OsStr;
use std::path::Path;

const HIDDEN: &str = "some piece points up";

/// Short leases, renewed often: a lease taken over is seen within a tenth of a second.
const SHORT_LEASES: &[(&str, &str)] = &[
    ("MONDO_DATABASE_LEASE_MS", "2000"),
    ("MONDO_DATABASE_LEASE_RENEW_MS", "100"),
    ("MONDO_DATABASE_IDLE_IN_TRANSACTION_MS", "1000"),
];

fn env(vars: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static OsStr)> {
    vars.iter().map(|(k, v)| (*k, OsStr::new(*v))).collect()
}

/// A practice game started at a terminal on `url`: the process, and its match.
fn started(url: &str, vars: &[(&'static str, &'static str)]) -> (Mondo, i64) {
    let mut mondo = Mondo::start_env(
        Path::new(url),
        &["--pattern", HIDDEN, "--seed", "1"],
        &env(vars),
    );
    let (started, _) = mondo.until("started");
    (mondo, started["match"].as_i64().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terminal_takes_no_other_process_s_match() {
    let Some(db) = TestDb::postgres() else { return };
    let url = db.url();
    // A bot's match nobody runs this moment (its process let it go, restarting).
    let (first, bots) = started(&url, &[]);
    assert!(first.wait());
    db.execute(&format!(
        "UPDATE matches SET guild_id = 7, channel_id = 77 WHERE id = {bots}"
    ))
    .await;
    let released =
        format!("SELECT COUNT(*) FROM leases WHERE match_id = {bots} AND expires_ms < 0");
    assert_eq!(db.count(&released).await, 1);

    // A new game at a terminal leaves it where it is.
    let (mut second, own) = started(&url, &[]);
    assert_ne!(own, bots);
    second.status();
    assert_eq!(db.count(&released).await, 1, "the bot's match was taken");

    // Its own match, run by that terminal, is refused to a third, saying whose it is
    // and what to do.
    let refused = play_support::output(
        Path::new(&url),
        &["--resume", &own.to_string()],
        &["--json"],
        &[],
        "",
    );
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let said = String::from_utf8(refused.stderr).unwrap();
    assert!(
        said.contains(&format!("match {own} is run by another process (")),
        "{said}"
    );
    assert!(said.contains("lease runs"), "{said}");
    assert!(
        said.contains(&format!("then `mondo play --resume {own} --db {url}`")),
        "{said}"
    );
    let ours = format!("SELECT COUNT(*) FROM leases WHERE match_id = {own} AND expires_ms > 0");
    assert_eq!(db.count(&ours).await, 1);
    assert!(second.wait());
    // Once that terminal let it go, it goes on at another.
    let (mut third, resumed) = {
        let mut m = Mondo::start_env(Path::new(&url), &["--resume", &own.to_string()], &[]);
        let (r, _) = m.until("resumed");
        (m, r["match"].as_i64().unwrap())
    };
    assert_eq!(resumed, own);
    third.status();
    assert_eq!(db.count(&released).await, 1, "the bot's match was taken");
    assert!(third.wait());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terminal_whose_lease_is_taken_over_says_so_and_fails() {
    let Some(db) = TestDb::postgres() else { return };
    let (mut mondo, id) = started(&db.url(), SHORT_LEASES);
    let events = format!("SELECT COUNT(*) FROM events WHERE match_id = {id}");
    let before = db.count(&events).await;
    mondo.send("koan 1^ 2>");
    mondo.until("verdict");
    let answered = db.count(&events).await;
    assert!(answered > before);
    // Another process takes the match over (this one stalled past its lease, say).
    db.execute(&format!(
        "UPDATE leases SET token = token + 1, owner = 'elsewhere:1:0', \
         expires_ms = expires_ms + 600000 WHERE match_id = {id}"
    ))
    .await;
    let (lost, _) = mondo.until("lost");
    assert_eq!(lost["match"], id);
    assert!(
        lost["why"].as_str().unwrap().contains("elsewhere:1:0"),
        "{lost}"
    );
    let code = {
        let mut child = mondo.child;
        child.wait().unwrap().code()
    };
    assert_eq!(code, Some(1));
    // The move answered here stays in its log, and nothing more was written.
    assert_eq!(db.count(&events).await, answered);
}

/// `mondo play` and `mondo bench runtime` run with `mondo serve`'s database settings
/// (the `MONDO_DATABASE_*` variables), checked as it checks them: an idle limit not
/// under the lease stops each with the setting's name before anything runs.
#[test]
fn the_terminal_and_the_bench_take_the_database_settings() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("m.db");
    let bad = env(&[
        ("MONDO_DATABASE_LEASE_MS", "8000"),
        ("MONDO_DATABASE_IDLE_IN_TRANSACTION_MS", "9000"),
    ]);
    let play = play_support::output(&db, &["--pattern", HIDDEN], &["--json"], &bad, "quit\n");
    let bench = std::process::Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args([
            "bench",
            "runtime",
            "--matches",
            "1",
            "--seconds",
            "1",
            "--database",
        ])
        .arg(&db)
        .envs(bad.iter().copied())
        .output()
        .unwrap();
    for out in [play, bench] {
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!out.status.success(), "{out:?}");
        assert!(
            said.contains("`database.idle_in_transaction_ms` is 9000 ms with leases of 8000 ms"),
            "{said}"
        );
    }
    assert!(!db.exists(), "nothing ran");
}
