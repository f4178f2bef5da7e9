//! `mondo replay` prints a match from its log, as a person or a program reads it.

use mondo::store::{NewEvent, NewMatch, Store};
use std::process::{Command, Output};

fn mondo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(args)
        .output()
        .expect("the mondo binary runs")
}

async fn a_logged_match(path: &std::path::Path) -> mondo::store::MatchId {
    let store = Store::open(path).await.unwrap();
    let ev = |at, body: &str| NewEvent {
        at,
        body: body.into(),
    };
    let id = store
        .create_match(
            &NewMatch {
                kind: "race",
                guild: None,
                channel: None,
                seed: 99,
                settings: "{}",
                players: &[1, 2],
            },
            &ev(60_000, r#"{"event":"created"}"#),
        )
        .await
        .unwrap();
    store
        .append(
            id,
            1,
            vec![
                ev(61_500, r#"{"event":"added","n":2}"#),
                ev(185_250, r#"{"event":"won","seat":0}"#),
            ],
            true,
        )
        .await
        .unwrap();
    store.close().await;
    id
}

#[tokio::test]
async fn replay_prints_every_event_with_its_time_since_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("m.db");
    let id = a_logged_match(&db).await;
    let out = mondo(&["replay", &id.to_string(), "--db", db.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with(&format!("match {id} (race), over")),
        "{text}"
    );
    assert!(lines[0].contains("players 1, 2") && lines[0].contains("3 events"));
    assert_eq!(lines[1], r#"#1    +0:00.000  {"event":"created"}"#);
    assert_eq!(lines[2], r#"#2    +0:01.500  {"event":"added","n":2}"#);
    assert_eq!(lines[3], r#"#3    +2:05.250  {"event":"won","seat":0}"#);

    let out = mondo(&[
        "replay",
        &id.to_string(),
        "--db",
        db.to_str().unwrap(),
        "--json",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    let objects: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 3);
    assert_eq!(objects[1]["seq"], 2);
    assert_eq!(objects[1]["at"], 61_500);
    assert_eq!(objects[1]["event"]["n"], 2);
}

#[tokio::test]
async fn replay_says_clearly_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("m.db");
    a_logged_match(&db).await;
    let out = mondo(&["replay", "77", "--db", db.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("there is no match 77"), "{err}");

    let nowhere = dir.path().join("nothing.db");
    let out = mondo(&["replay", "1", "--db", nowhere.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("no database")
    );
    assert!(!nowhere.exists(), "replay never creates a database");

    let out = mondo(&["replay", "first", "--db", db.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("not a match number")
    );
}

/// Issue 13, item 8: replay opens the database read-only: a zero-length file is
/// refused as not a Mondo database and stays zero-length (no schema is written into
/// it), and replaying a real one leaves its bytes as they were.
#[tokio::test]
async fn replay_reads_the_database_without_writing_it() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    let out = mondo(&["replay", "1", "--db", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("is not a Mondo database"), "{err}");
    assert_eq!(
        std::fs::metadata(&empty).unwrap().len(),
        0,
        "replay wrote to it"
    );

    let db = dir.path().join("m.db");
    let id = a_logged_match(&db).await;
    let before = std::fs::read(&db).unwrap();
    let out = mondo(&["replay", &id.to_string(), "--db", db.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "replay changed the file"
    );
    // (A reader of a WAL database may leave an empty -wal and the -shm index: SQLite's
    // own bookkeeping, not data.)
    let wal = dir.path().join("m.db-wal");
    assert!(!wal.exists() || std::fs::metadata(&wal).unwrap().len() == 0);
}
