//! `mondo play triple`: two players, three hidden arrows patterns, driven through
//! standard input with one JSON object per line: a game piped to its win, a game
//! killed during a challenge and resumed with nothing lost, the advantage's choice of
//! who starts, the quiz reached with `--play-secs`, and the words (stones, never
//! tickets).

use crate::play_support;

use play_support::{Mondo, of, play, play_text};
use serde_json::json;

/// A: some arrow up, B: some arrow right, C: some arrow left.
const TRIPLE: [&str; 11] = [
    "triple",
    "--players",
    "alice,bob",
    "--pattern",
    "some piece points up",
    "--pattern",
    "some piece points right",
    "--pattern",
    "some piece points left",
    "--seed",
    "3",
];

#[test]
fn a_piped_triple_is_won_by_solving_two_patterns() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("triple.db");
    let out = play(
        &db,
        &TRIPLE,
        "bob: start alice\n\
         koan UD grade A,C\n\
         bob: end turn\n\
         koan UUD challenge\n\
         alice: answer A obeys B not C not\n\
         bob: answer A not B obeys C obeys\n\
         guess A some arrow points up\n\
         confirm\n\
         koan RR\n\
         board\n\
         guess A an arrow points up\n\
         guess B some arrow points right\n\
         confirm\n",
    );
    assert_eq!(out[0]["event"], "started");
    // The opening board: #1 obeys all three, #2 none.
    let board = of(&out, "board");
    assert_eq!(
        board[0]["table"][0]["patterns"],
        json!({"A": true, "B": true, "C": true})
    );
    assert_eq!(
        board[0]["table"][1]["patterns"],
        json!({"A": false, "B": false, "C": false})
    );
    // A grade on A and C only: B unknown.
    let verdict = of(&out, "verdict");
    assert_eq!(verdict[0]["number"], 3);
    assert_eq!(verdict[0]["koan"], "U D");
    assert_eq!(
        verdict[0]["patterns"],
        json!({"A": true, "B": null, "C": false})
    );
    // The challenge pays alice three stones.
    let revealed = of(&out, "revealed");
    assert_eq!(
        revealed[0]["patterns"],
        json!({"A": true, "B": false, "C": false})
    );
    let solved = of(&out, "solved");
    assert_eq!(solved[0]["pattern"], "A");
    assert_eq!(solved[0]["player"], "alice");
    // Step 1 is over; A has left the game.
    let errors: Vec<&str> = of(&out, "error")
        .iter()
        .map(|e| e["message"].as_str().unwrap_or_default())
        .collect();
    assert!(errors[0].contains("step 1 is done"), "{errors:?}");
    assert!(errors[1].contains("pattern A is solved"), "{errors:?}");
    // The last board shows A solved and the table so far.
    assert_eq!(board.last().unwrap()["table"].as_array().unwrap().len(), 4);
    let won = of(&out, "won");
    assert_eq!(won[0]["player"], "alice");
    assert_eq!(won[0]["patterns"]["C"], "some piece points left");
    // Pattern C was never said before the end.
    let end = out.iter().position(|e| e["event"] == "won").unwrap();
    for e in &out[..end] {
        assert!(!e.to_string().contains("points left"), "{e}");
    }
}

#[test]
fn a_triple_killed_during_a_challenge_resumes_with_nothing_lost() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("restart.db");
    let mut args = TRIPLE.to_vec();
    args.extend(["--turn-secs", "900", "--challenge-secs", "600"]);
    let mut first = Mondo::start(&db, &args);
    first.until("started");
    first.send("bob: start alice");
    first.until("turn");
    first.send("alice: koan UUD challenge A,B");
    first.until("challenge");
    first.send("alice: answer A obeys B not");
    first.until("answered");
    let before = first.status();
    assert_eq!(
        before["challenge"]["answered"],
        json!({"alice": true, "bob": false})
    );
    first.kill();

    let mut second = Mondo::start(&db, &["--resume"]);
    second.until("resumed");
    let after = second.status();
    assert_eq!(after["challenge"]["koan"], "U U D");
    assert_eq!(after["challenge"]["patterns"], json!(["A", "B"]));
    assert_eq!(
        after["challenge"]["answered"],
        json!({"alice": true, "bob": false})
    );
    second.send("bob: answer A not B not");
    let (revealed, _) = second.until("revealed");
    assert_eq!(
        revealed["answers"],
        json!({"alice": ["obeys", "not"], "bob": ["not", "not"]})
    );
    let stones = second.status();
    assert_eq!(stones["stones"], json!({"alice": 2, "bob": 1}));
    second.guess("alice", "A some arrow points up");
    second.until("solved");
    second.guess("alice", "C some arrow points left");
    second.won_by("alice");
}

/// Bob, the one challenged, chooses who starts; nobody else may, and nothing is played
/// before. With `--play-secs 1` the time of play runs out and the quiz opens. The
/// status says how long is left to answer a challenge.
#[test]
fn the_advantage_chooses_who_starts_and_play_secs_reaches_the_quiz() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("quiz.db");
    let mut args = TRIPLE.to_vec();
    args.extend(["--play-secs", "1", "--challenge-secs", "600"]);
    let out = play(
        &db,
        &TRIPLE,
        "alice: start alice\nkoan UD\nstatus\nbob: start bob\nkoan UD challenge A\n\
         status\n",
    );
    let errors: Vec<&str> = of(&out, "error")
        .iter()
        .map(|e| e["message"].as_str().unwrap_or_default())
        .collect();
    assert!(errors[0].contains("waiting for bob"), "{errors:?}");
    assert!(
        errors[1].contains("bob, who has the advantage, chooses who starts"),
        "{errors:?}"
    );
    let status = of(&out, "status");
    // The opening's status, then the one asked for: bob is still to choose.
    assert_eq!(status[1]["phase"], "choosing_starter");
    assert_eq!(of(&out, "starter")[0]["player"], "bob");
    assert_eq!(of(&out, "turn")[0]["player"], "bob");
    assert_eq!(of(&out, "challenge")[0]["player"], "bob");
    let last = status.last().unwrap();
    assert!(last["challenge"]["left_ms"].as_u64().unwrap() > 0, "{last}");

    let db = dir.path().join("quiz2.db");
    let mut m = Mondo::start(&db, &args);
    m.until("started");
    m.send("bob: start alice");
    m.until("play_stopped");
    let (quiz, _) = m.until("quiz");
    assert_eq!(quiz["round"], 1);
    assert!(!quiz["questions"].as_array().unwrap().is_empty());
}

/// Triple's guessing tokens are stones in every line a player reads: the refusal of a
/// guess without one, the status, the help.
#[test]
fn a_triple_speaks_of_stones_never_tickets() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("words.db");
    let mut args = TRIPLE.to_vec();
    args.extend(["--challenge-secs", "600"]);
    let out = play_text(
        &db,
        &args,
        "help\nbob: start alice\nguess A some arrow points up\nkoan UUD challenge A\n\
         status\nalice: answer A obeys\nbob: answer A obeys\nstatus\n",
    );
    assert!(out.contains("you have no guessing stone"), "{out}");
    assert!(out.contains("left to answer"), "{out}");
    assert!(!out.to_lowercase().contains("ticket"), "{out}");
}
