//! Every command piped into a reader that goes away (`| head -1`)
//! ends quietly, status 0 and no complaint on standard error, instead of panicking with
//! "failed printing to stdout: Broken pipe" (status 101).

use crate::stores::{ev, race_match};
use mondo::store::Store;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// Runs `mondo ARGS`, reads `lines` lines of its output (0: none), closes the pipe,
/// and checks the command ends quietly.
fn ends_quietly_when_the_reader_goes(args: &[&str], lines: usize) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mondo runs");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..lines {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        assert!(
            !line.is_empty(),
            "{args:?} printed fewer than {lines} lines"
        );
    }
    drop(out);
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(
        done.status.success(),
        "{args:?}: {:?} {stderr}",
        done.status
    );
    // Only what the command says anyway (`generate`'s summary), no panic.
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{args:?} said: {stderr}"
    );
}

#[test]
fn listing_structures_into_a_closed_pipe_ends_quietly() {
    // Millions of lines: the reader is gone long before the end.
    ends_quietly_when_the_reader_goes(&["koan", "list", "--pieces", "3"], 1);
    ends_quietly_when_the_reader_goes(&["koan", "count", "--pieces", "3"], 0);
}

#[test]
fn generating_into_a_closed_pipe_ends_quietly() {
    ends_quietly_when_the_reader_goes(&["generate", "--count", "3", "--seed", "1"], 0);
    ends_quietly_when_the_reader_goes(&["generate", "--count", "3", "--json"], 1);
}

#[tokio::test]
async fn replaying_a_long_match_into_a_closed_pipe_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let store = Store::open(&db).await.unwrap();
    let id = race_match(&store, 1, &[1], ev(0, r#"{"event":"created"}"#)).await;
    // Far more than a pipe holds (64 KiB), so the replay is still printing when the
    // reader leaves.
    let events = (0..5_000)
        .map(|i| {
            ev(
                i,
                r#"{"event":"added","n":2,"pad":"................................"}"#,
            )
        })
        .collect();
    store.append(id, 1, events, true).await.unwrap();
    store.close().await;
    let db = db.to_str().unwrap();
    let id = id.to_string();
    ends_quietly_when_the_reader_goes(&["replay", &id, "--db", db], 1);
    ends_quietly_when_the_reader_goes(&["replay", &id, "--db", db, "--json"], 1);
}
