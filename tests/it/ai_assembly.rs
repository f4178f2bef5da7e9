//! The Pattern Assembly AI at the terminal, through the real binary: `mondo play
//! assembly --players me,ai --ai-level expert` seats it as `ai-expert`, it answers on
//! its own (never a typed line for it), the match ends with a rated result under its
//! own name, and after the process is killed, `--resume` has it play on.

use crate::play_support::{Mondo, stats};
use serde_json::Value;

/// Short clocks, one round: a whole match in some seconds (the AI takes a person's
/// time to answer: seconds, not milliseconds).
const QUICK: [&str; 10] = [
    "--reveal-secs",
    "1",
    "--wait-secs",
    "1",
    "--round-secs",
    "40",
    "--showdown-secs",
    "6",
    "--rounds",
    "1",
];

fn start(db: &std::path::Path, level: &str, plus: bool) -> Mondo {
    let mut args = vec![
        "assembly",
        "--players",
        "me,ai",
        "--ai-level",
        level,
        "--seed",
        "5",
        "--host",
        "carol",
    ];
    if plus {
        args.push("--plus");
    }
    args.extend(QUICK);
    Mondo::start(db, &args)
}

/// The end of the match: `won` (with its player) or `over` (no winner), and every
/// line before it (errors allowed).
fn until_end(m: &mut Mondo) -> (Value, Vec<Value>) {
    m.until_one_of(&["won", "over"], true)
}

#[test]
fn a_match_against_the_ai_at_the_terminal_ends_rated_under_its_name() {
    for plus in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("ai.db");
        let mut m = start(&db, "expert", plus);
        let (started, _) = m.until("started");
        assert_eq!(started["players"], serde_json::json!(["me", "ai-expert"]));
        m.until("round");
        // A typed line for the AI's seat is refused; my own wrong answer is taken.
        m.send("ai-expert: answer A1-A2-A3");
        let (error, _) = m.until_any("error");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("is the AI's seat"),
            "{error}"
        );
        m.send("me: answer A1-A3-A5");
        let (end, seen) = until_end(&mut m);
        let answered = seen
            .iter()
            .any(|v| v["event"] == "answer" && v["player"] == "ai-expert");
        assert!(answered, "the AI answered: {seen:#?}");
        assert!(
            seen.iter()
                .any(|v| v["event"] == "showdown_in" && v["player"] == "ai-expert"),
            "the AI sent its showdown grid: {seen:#?}"
        );
        assert!(m.wait());
        let ai = stats(&db, "ai-expert");
        let rating = &ai["ratings"][0];
        let games = ["wins", "draws", "losses"].map(|k| rating[k].as_u64().unwrap_or(0));
        assert_eq!(
            games.iter().sum::<u64>(),
            1,
            "rated once: {ai} (end: {end})"
        );
        // Rated, but never listed: the leaderboard (every rating admitted) has me
        // alone, as Discord's leaves the AI's seats out.
        let board = std::process::Command::new(env!("CARGO_BIN_EXE_mondo"))
            .args([
                "leaderboard",
                "--json",
                "--min-games",
                "1",
                "--max-deviation",
                "350",
            ])
            .arg("--db")
            .arg(&db)
            .output()
            .unwrap();
        assert!(board.status.success(), "{board:?}");
        let rows: Vec<Value> = serde_json::from_slice(&board.stdout).unwrap();
        let listed: Vec<&Value> = rows.iter().map(|r| &r["player"]).collect();
        assert_eq!(listed, ["me"], "{rows:?}");
    }
}

#[test]
fn after_resume_the_ai_seat_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("resume.db");
    let mut m = start(&db, "beginner", false);
    m.until("round");
    m.send("me: answer A1-A3-A5");
    m.until("waiting");
    m.kill();
    let mut again = Mondo::start(&db, &["--resume"]);
    let (end, seen) = until_end(&mut again);
    assert!(
        seen.iter()
            .any(|v| v["event"] == "waiting" && v["player"] == "ai-beginner"),
        "the AI answered after the restart: {seen:#?} (end: {end})"
    );
    assert!(
        seen.iter()
            .any(|v| v["event"] == "showdown_in" && v["player"] == "ai-beginner"),
        "{seen:#?}"
    );
    assert!(again.wait());
}
