//! `mondo replay` prints a match from its log, as a person or a program reads it.

use crate::stores::{ev, race_match};
use mondo::store::Store;
use std::process::{Command, Output};

fn mondo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(args)
        .output()
        .expect("the mondo binary runs")
}

async fn a_logged_match(path: &std::path::Path) -> mondo::store::MatchId {
    let store = Store::open(path).await.unwrap();
    let id = race_match(&store, 99, &[1, 2], ev(60_000, r#"{"event":"created"}"#)).await;
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

/// Replay opens the database read-only: a zero-length file is
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

use crate::play_support;

/// `mondo replay ID --db DB [--json]`: its standard output.
fn replayed(db: &std::path::Path, id: &serde_json::Value, json: bool) -> String {
    let mut args = vec![
        "replay".to_string(),
        id.to_string(),
        "--db".into(),
        db.display().to_string(),
    ];
    if json {
        args.push("--json".into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = mondo(&args);
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// A Logical Bluffs match still being played replays as a spectator sees it: no seed,
/// no layout, no line only one player heard, no raw JSON; once over, in full.
#[test]
fn a_live_match_replays_as_a_spectator_sees_it_and_a_finished_one_in_full() {
    use mondo::lang::tiles::Colour;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.db");
    let seed = 8_642_097_531_u64;
    let colours: Vec<String> = Colour::ALL
        .iter()
        .map(|c| format!("There is a {} tile.", c.name()))
        .collect();
    let (layout, [known_a, _]) = mondo::rules::bluffs::deal(seed, 4);
    let input = format!(
        "alice: bluff A1-A2-B1-B2; {0}\nbob: bluff C1-C2-D1-D2; {0}\nalice: claim T T T T\nquit\n",
        colours.join("; ")
    );
    let out = play_support::play(
        &db,
        &[
            "bluffs",
            "--players",
            "alice,bob",
            "--seed",
            &seed.to_string(),
        ],
        &input,
    );
    let id = &out[0]["match"];
    let text = replayed(&db, id, false);
    assert!(text.contains("still being played"), "{text}");
    assert!(text.contains("alice has submitted"), "{text}");
    assert!(text.contains("alice's bluff on A1-A2-B1-B2"), "{text}");
    let tile = format!("{} {}", known_a[0], layout.colour(known_a[0]).name());
    for secret in [
        seed.to_string(),
        "seed".into(),
        layout.to_string(),
        tile,
        "only)".into(),
        "{\"".into(),
    ] {
        assert!(
            !text.contains(&secret),
            "`{secret}` in a live replay:\n{text}"
        );
    }
    let json = replayed(&db, id, true);
    let lines: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.iter().any(|l| l["event"] == "shown"), "{json}");
    assert!(
        lines.iter().all(|l| l["to"].is_null() && l["at"].is_u64()),
        "{json}"
    );
    assert!(!json.contains(&seed.to_string()) && !json.contains(&layout.to_string()));

    // Ended by a host: replayed in full, the seed and each player's lines included.
    play_support::play(&db, &["--resume", "--host", "host"], "host: end\n");
    let text = replayed(&db, id, false);
    assert!(text.contains(&format!("seed {seed}")), "{text}");
    assert!(text.contains("(to alice only)"), "{text}");
    assert!(text.contains(&layout.to_string()), "{text}");
}

/// A Pattern Assembly match left after its first reveal: the replay does not show the
/// grid (the reveal is over), though it says the grid was hidden.
#[test]
fn a_live_assembly_replay_does_not_show_the_grid() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("a.db");
    let mut m = play_support::Mondo::start(
        &db,
        &[
            "assembly",
            "--players",
            "alice,bob",
            "--seed",
            "3",
            "--reveal-secs",
            "0.3",
        ],
    );
    let (reveal, before) = m.until("reveal");
    let id = before
        .iter()
        .find(|l| l["event"] == "started")
        .map(|l| l["match"].clone())
        .unwrap();
    let rows: Vec<String> = reveal["grid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    m.until("round");
    m.send("quit");
    assert!(m.wait());
    let text = replayed(&db, &id, false);
    assert!(text.contains("The grid is hidden"), "{text}");
    assert!(text.contains("Round 1"), "{text}");
    for row in &rows {
        let spaced: Vec<String> = row.chars().map(String::from).collect();
        assert!(
            !text.contains(row.as_str()) && !text.contains(&spaced.join(" ")),
            "row {row} in a live replay:\n{text}"
        );
    }
    assert!(!text.contains('\u{1b}'), "no terminal control in a replay");
}
