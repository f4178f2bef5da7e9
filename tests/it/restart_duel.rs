//! The restart test with a real process: `mondo play --duel` on a database is driven
//! into a pending challenge (one answer in), killed with SIGKILL, started again with
//! `--resume`, and the match is finished, won by a guess the umpire proves right.
//! Nothing is lost (structures, answers, tickets) and the time left on the clocks is
//! what it was (read from `status`).

use crate::play_support;

use play_support::{Mondo, Table};
use serde_json::{Value, json};
use std::process::Command;

const HIDDEN: &str = "some piece points up";

#[test]
fn a_duel_killed_during_a_challenge_resumes_with_nothing_lost_and_its_time_kept() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("restart.db");
    let table = Table::new("--duel", "alice,bob")
        .pattern(HIDDEN)
        .seed(9)
        // Long clocks: nothing runs out while the test works, however slow.
        .with("--turn-secs", "900")
        .with("--challenge-secs", "600");
    let mut first = Mondo::start(&db, &table.args());
    let (started, _) = first.until("started");
    let id = started["match"].as_i64().unwrap();
    first.send("bob: start alice");
    first.send("alice: koan 2v 3> observe");
    first.until("verdict");
    // alice has no ticket to guess with: the turn passes to bob by itself.
    let (turn, _) = first.until("turn");
    assert_eq!(turn["player"], "bob");
    first.send("bob: koan 1^ 1< challenge");
    first.until("challenge");
    first.send("bob: answer obeys");
    first.until("answered");
    let before = first.status();
    assert_eq!(before["turn"], 2);
    assert_eq!(before["player"], "bob");
    assert_eq!(
        before["challenge"]["answered"],
        json!({"alice": false, "bob": true})
    );
    let challenge_left = before["challenge"]["left_ms"].as_u64().unwrap();
    let turn_left = before["turn_left_ms"].as_u64().unwrap();
    assert_eq!(before["turn_clock_running"], false);

    first.kill();

    let mut second = Mondo::start(&db, &["--resume"]);
    let (resumed, _) = second.until("resumed");
    assert_eq!(resumed["match"], id);
    assert_eq!(resumed["players"], json!(["alice", "bob"]));
    let (board, _) = second.until("board");
    let koans: Vec<&str> = board["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["koan"].as_str().unwrap())
        .collect();
    assert_eq!(koans, ["1^", "1>", "2v 3>"]);
    let after = second.status();
    // bob's answer is still in (and still secret), alice's still awaited.
    assert_eq!(
        after["challenge"],
        json!({"koan": "1^ 1<", "answered": {"alice": false, "bob": true},
               "left_ms": after["challenge"]["left_ms"]})
    );
    // The challenge clock kept its time: the process's downtime is not counted. It
    // may give back up to one heartbeat (1 s) of the time that ran before the kill, and
    // runs on a little while the test reads it.
    let resumed_left = after["challenge"]["left_ms"].as_u64().unwrap();
    assert!(
        resumed_left <= challenge_left + 1_100 && resumed_left + 30_000 >= challenge_left,
        "challenge: {challenge_left} ms left before, {resumed_left} ms after"
    );
    // The turn clock is stopped during a challenge: exactly the same.
    assert_eq!(after["turn_left_ms"].as_u64(), Some(turn_left));
    assert_eq!(after["tickets"], json!({"alice": 0, "bob": 0}));

    // Finish the match: alice answers, the reveal pays both (it does obey).
    second.send("alice: answer yes");
    let (revealed, _) = second.until("revealed");
    assert_eq!(revealed["koan"], "1^ 1<");
    assert_eq!(
        revealed["answers"],
        json!({"alice": "obeys", "bob": "obeys"})
    );
    assert_eq!(revealed["time_up"], false);
    second.guess("bob", "every piece points up");
    let (ce, _) = second.until("counterexample");
    assert_eq!((&ce["hidden"], &ce["guess"]), (&json!(true), &json!(false)));
    let status = second.status();
    assert_eq!(status["tickets"], json!({"alice": 1, "bob": 0}));
    // bob spent his ticket: the turn passed to alice, who skips step 1 and guesses
    // right; the umpire (the SAT finder) proves it and she wins.
    second.send("alice: skip");
    second.guess("alice", "there is a piece pointing up");
    let won = second.won_by("alice");
    assert_eq!(won["pattern"], HIDDEN);

    // The log holds everything, both processes' events in one sequence.
    let replay = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(["replay", &id.to_string(), "--json", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(replay.status.success(), "{replay:?}");
    let events: Vec<Value> = String::from_utf8(replay.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let seqs: Vec<u64> = events.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, (1..=seqs.len() as u64).collect::<Vec<_>>());
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["event"]["event"].as_str().unwrap())
        .collect();
    let answers: Vec<&Value> = events
        .iter()
        .filter(|e| e["event"]["event"] == "challenge_answered")
        .map(|e| &e["event"])
        .collect();
    assert_eq!(
        answers,
        [
            // Seats are stored as numbers (logs that say "first"/"second" still read).
            &json!({"at": answers[0]["at"], "event": "challenge_answered", "seat": 1,
                    "answer": "obeys"}),
            &json!({"at": answers[1]["at"], "event": "challenge_answered", "seat": 0,
                    "answer": "obeys"}),
        ]
    );
    for kind in [
        "duel_created",
        "observed",
        "challenge_opened",
        "challenge_revealed",
        "guess_read",
        "refuted",
        "match_ended",
    ] {
        assert!(kinds.contains(&kind), "{kind} missing from {kinds:?}");
    }
    // Game-clock times never go back, across the restart too.
    let ats: Vec<u64> = events.iter().map(|e| e["at"].as_u64().unwrap()).collect();
    assert!(ats.windows(2).all(|w| w[0] <= w[1]), "{ats:?}");
}
