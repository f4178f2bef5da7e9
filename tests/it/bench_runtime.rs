//! `mondo bench runtime --processes N`: its workers each create and drive a share of
//! the matches on one PostgreSQL database, and the parent gathers their figures and
//! checks the store holds every acknowledged event. Tiny numbers, so the code path
//! cannot rot; the figures themselves are docs/scale.md's.

use super::stores::TestDb;
use mondo::store::{Location, MatchFilter};
use std::process::Command;

fn bench(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(["bench", "runtime"])
        .args(args)
        .output()
        .expect("the mondo binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn two_processes_share_six_matches_on_one_postgres_database() {
    let Some(db) = TestDb::postgres() else {
        return;
    };
    let Location::Postgres(url) = &db.location else {
        unreachable!("a PostgreSQL database");
    };
    let args = [
        "--processes",
        "2",
        "--matches",
        "6",
        "--seconds",
        "1",
        "--database",
        url,
    ];
    let (ok, out, err) = bench(&args);
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains("6 live practice matches in 2 processes"),
        "{out}"
    );
    for process in ["process 1: ", "process 2: "] {
        let line = out
            .lines()
            .find(|l| l.starts_with(process))
            .unwrap_or_else(|| panic!("no `{process}` line:\n{out}"));
        let events: u64 = line[process.len()..]
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!(events > 0, "each process drove its matches: {line}");
        assert!(line.contains("p99") && line.contains("peak RSS"), "{line}");
    }
    let all = out.lines().find(|l| l.starts_with("all: ")).expect(&out);
    assert!(
        all.contains("events/s") && all.contains("in the store"),
        "{all}"
    );
    // Three matches each, seeds apart: six matches in the store.
    let store = db.open().await;
    let matches = store.matches(&MatchFilter::default()).await.unwrap();
    assert_eq!(matches.len(), 6, "{out}");
    let mut seeds: Vec<u64> = matches.iter().map(|m| m.seed).collect();
    seeds.sort_unstable();
    seeds.dedup();
    assert_eq!(seeds.len(), 6, "each match its own: {seeds:?}");
}

#[test]
fn several_processes_on_one_sqlite_file_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bench.db");
    let (ok, out, err) = bench(&[
        "--processes",
        "3",
        "--matches",
        "6",
        "--database",
        file.to_str().unwrap(),
    ]);
    assert!(!ok, "{out}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("PostgreSQL") && err.contains("--processes 1"),
        "{err}"
    );
    assert!(!file.exists(), "nothing was created");
}
