//! The Logical Bluffs AI at the terminal, through the real binary: `mondo play bluffs
//! --players me,ai --ai-level beginner` seats it as `ai-beginner`; it bluffs and marks
//! on its own (a typed line for its seat is refused), and the match ends with a rated
//! result under its own name.

use crate::play_support::{Mondo, stats};
use mondo::lang::tiles::Colour;
use mondo::rules::bluffs::deal;
use serde_json::Value;

const SEED: u64 = 4242;

/// The lines up to the start of `phase` (errors on the way fail the test).
fn until_phase(m: &mut Mondo, phase: &str) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let (began, before) = m.until("phase_began");
        seen.extend(before);
        let here = began["phase"] == phase;
        seen.push(began);
        if here {
            return seen;
        }
    }
}

fn by_ai(seen: &[Value], event: &str) -> bool {
    seen.iter()
        .any(|v| v["event"] == event && v["player"] == "ai-beginner")
}

#[test]
fn a_match_against_the_ai_at_the_terminal_ends_rated_under_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ai.db");
    let seed = SEED.to_string();
    // Phases long enough for a loaded machine; the AI takes at most a quarter of each.
    let mut m = Mondo::start(
        &db,
        &[
            "bluffs",
            "--players",
            "me,ai",
            "--ai-level",
            "beginner",
            "--seed",
            &seed,
            "--host",
            "carol",
            "--bluff-secs",
            "20",
            "--claim-secs",
            "20",
            "--reveal-secs",
            "20",
        ],
    );
    let (started, _) = m.until("started");
    assert_eq!(started["players"], serde_json::json!(["me", "ai-beginner"]));
    m.until("status");
    // A typed line for the AI's seat is refused.
    m.send("ai-beginner: resign");
    let (error, _) = m.until_any("error");
    let message = error["message"].as_str().unwrap_or_default();
    assert!(message.contains("is the AI's seat"), "{error}");
    let colours: Vec<String> = Colour::ALL
        .iter()
        .map(|c| format!("There is a {} tile.", c.name()))
        .collect();
    m.send(&format!("me: bluff A1-A2-B1-B2; {}", colours.join("; ")));
    let bluffing = until_phase(&mut m, "claiming");
    assert!(
        by_ai(&bluffing, "submitted"),
        "the AI bluffed: {bluffing:#?}"
    );
    let shown = bluffing
        .iter()
        .find(|v| v["event"] == "shown" && v["player"] == "ai-beginner")
        .expect("the AI's bluff is shown");
    assert_eq!(shown["statements"].as_array().map(Vec::len), Some(4));
    m.send("me: claim T T T T");
    let claiming = until_phase(&mut m, "reveal");
    assert!(
        by_ai(&claiming, "submitted"),
        "the AI marked: {claiming:#?}"
    );
    // I know the layout (the seed's): a right guess ends the match.
    let (layout, _) = deal(SEED, 4);
    m.send("me: declare");
    m.send(&format!("me: guess {layout}"));
    let (ended, _) = m.until("ended");
    assert_eq!(ended["winner"], "me", "{ended}");
    assert_eq!(ended["ending"], "guessed");
    assert!(m.wait());
    let ai = stats(&db, "ai-beginner");
    let rating = &ai["ratings"][0];
    let games = ["wins", "draws", "losses"].map(|k| rating[k].as_u64().unwrap_or(0));
    assert_eq!(games, [0, 0, 1], "rated once, a loss: {ai}");
}
