//! `mondo play classic`: three students and the umpire as the Master, driven through
//! standard input with one JSON object per line: a game piped through a mondo to a
//! winning guess (the rule never said before), and a game killed during a mondo and
//! resumed with nothing lost.

use crate::play_support;

use play_support::{Mondo, of, play, play_text};
use serde_json::json;

const RULE: &str = "some piece points up";

fn args(extra: &[&'static str]) -> Vec<&'static str> {
    let mut a = vec![
        "classic",
        "--players",
        "alice,bob,carol",
        "--pattern",
        RULE,
        "--seed",
        "3",
    ];
    a.extend(extra);
    a
}

#[test]
fn a_piped_classic_is_won_through_a_mondo_and_a_guess() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("classic.db");
    let out = play(
        &db,
        &args(&[]),
        "guess every piece points up\n\
         koan 2^ mondo\n\
         alice: answer obeys\n\
         bob: answer not\n\
         carol: answer obeys\n\
         guess every piece points up\n\
         confirm\n\
         bob: koan 1v master\n\
         board\n\
         carol: koan 3^\n\
         guess a piece points up\n\
         confirm\n",
    );
    assert_eq!(out[0]["event"], "started");
    assert_eq!(out[0]["game"], "classic");
    // The opening board: #1 obeys, #2 does not.
    let board = of(&out, "board");
    assert_eq!(board[0]["table"][0]["obeys"], true);
    assert_eq!(board[0]["table"][1]["obeys"], false);
    // A turn starts with a structure.
    let errors = of(&out, "error");
    assert!(
        errors[0]["message"]
            .as_str()
            .unwrap()
            .contains("starts with a structure"),
        "{errors:?}"
    );
    // The mondo: answers are said to be in, then revealed together.
    assert_eq!(of(&out, "mondo")[0]["koan"], "2^");
    for a in of(&out, "answered") {
        assert!(a.get("answer").is_none(), "{a}");
    }
    let revealed = of(&out, "revealed");
    assert_eq!(
        revealed[0]["answers"],
        json!({"alice": "obeys", "bob": "not", "carol": "obeys"})
    );
    assert_eq!(revealed[0]["obeys"], true);
    // Alice's guess is wrong: a counterexample joins the table; her stone is spent.
    let ce = of(&out, "counterexample");
    assert_eq!(
        (ce[0]["hidden"].clone(), ce[0]["guess"].clone()),
        (json!(true), json!(false))
    );
    assert_eq!(ce[0]["number"], 4);
    let turns: Vec<&str> = of(&out, "turn")
        .iter()
        .map(|t| t["player"].as_str().unwrap())
        .collect();
    assert_eq!(turns, ["bob", "carol"]);
    assert_eq!(of(&out, "verdict")[0]["obeys"], false);
    assert_eq!(board[1]["table"].as_array().unwrap().len(), 5);
    // Carol's guess cannot be disproved: she wins, and the rule is revealed.
    let won = of(&out, "won");
    assert_eq!(won[0]["player"], "carol");
    assert_eq!(won[0]["pattern"], RULE);
    let end = out.iter().position(|e| e["event"] == "won").unwrap();
    for e in &out[..end] {
        assert!(!e.to_string().contains(RULE), "{e}");
    }
}

#[test]
fn a_classic_killed_during_a_mondo_resumes_with_nothing_lost() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("restart.db");
    let mut first = Mondo::start(&db, &args(&["--turn-secs", "900", "--answer-secs", "600"]));
    first.until("started");
    first.send("alice: koan 2^ 1> mondo");
    first.until("mondo");
    first.send("alice: answer obeys");
    first.until("answered");
    first.send("carol: answer not");
    first.until("answered");
    let before = first.status();
    assert_eq!(before["step"], "mondo");
    assert_eq!(before["mondo"]["waiting_for"], json!(["bob"]));
    first.kill();

    let mut second = Mondo::start(&db, &["--resume"]);
    second.until("resumed");
    let after = second.status();
    assert_eq!(after["game"], "classic");
    assert_eq!(after["mondo"]["koan"], "2^ 1>");
    assert_eq!(after["mondo"]["waiting_for"], json!(["bob"]));
    assert!(after["mondo"]["left_ms"].as_u64().unwrap() > 500_000);
    second.send("bob: answer obeys");
    let (revealed, _) = second.until("revealed");
    assert_eq!(
        revealed["answers"],
        json!({"alice": "obeys", "bob": "obeys", "carol": "not"})
    );
    let stones = second.status();
    assert_eq!(stones["stones"], json!({"alice": 1, "bob": 1, "carol": 0}));
    second.guess("alice", "a piece points up");
    second.won_by("alice");
}

/// Classic's guessing tokens are stones in every line a student reads (help, reveal,
/// counts, status, the turn passing for want of one), never tickets.
#[test]
fn a_classic_speaks_of_stones_never_tickets() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("words.db");
    let out = play_text(
        &db,
        &args(&["--answer-secs", "600"]),
        "help\nkoan 2^ mondo\nalice: answer obeys\nbob: answer not\ncarol: answer obeys\n\
         status\nguess every piece points up\ntake back\nend turn\nbob: koan 1v master\n\
         status\n",
    );
    assert!(out.contains("+1 stone"), "{out}");
    assert!(out.contains("its stone is back"), "{out}");
    assert!(out.contains("has no stone to guess with"), "{out}");
    assert!(!out.to_lowercase().contains("ticket"), "{out}");
}
