//! `mondo ai solve PATTERN --no-guesses --predict --json`: the published protocol of
//! machine Zendo players (7 structures, no guesses, then the 8 test structures
//! predicted), in the JSON lines docs/ai.md lists.

use serde_json::Value;
use std::process::Command;

/// The JSON lines of `mondo ai solve` with `args`, after checking it exited 0.
fn solve(args: &[&str]) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(["ai", "solve"])
        .args(args)
        .arg("--json")
        .output()
        .expect("the mondo binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

fn events<'a>(lines: &'a [Value], event: &str) -> Vec<&'a Value> {
    lines.iter().filter(|l| l["event"] == event).collect()
}

#[test]
fn the_protocol_builds_seven_guesses_nothing_and_predicts_eight() {
    let lines = solve(&["a piece points up", "--no-guesses", "--predict"]);
    assert_eq!(events(&lines, "koan").len(), 7, "{lines:#?}");
    assert!(events(&lines, "guess").is_empty(), "{lines:#?}");
    let end = events(&lines, "end");
    assert_eq!(end.len(), 1);
    assert_eq!(end[0]["koans"], 7);
    assert_eq!(end[0]["guesses"], 0);
    assert_eq!(end[0]["solved"], false);
    // The predictions come after the end, each saying whether it was right.
    let at_end = lines.iter().position(|l| l["event"] == "end").unwrap();
    let predicts = events(&lines[at_end..], "predict");
    assert_eq!(predicts.len(), 8, "{lines:#?}");
    let right = predicts.iter().filter(|p| p["right"] == true).count();
    let score = events(&lines, "score");
    assert_eq!(score.len(), 1, "{lines:#?}");
    assert_eq!(score[0]["predicted"], 8);
    assert_eq!(score[0]["right"], right as u64);
    // After seven structures a one-rule pattern this simple is known.
    assert!(right >= 7, "{predicts:#?}");
}

#[test]
fn the_structures_allowed_without_guesses_are_built_all() {
    let lines = solve(&[
        "--pattern",
        "there are exactly two pieces",
        "--no-guesses",
        "--koans",
        "3",
    ]);
    assert_eq!(events(&lines, "koan").len(), 3, "{lines:#?}");
    assert!(events(&lines, "guess").is_empty());
    // No --predict: no predictions and no score.
    assert!(events(&lines, "predict").is_empty());
    assert!(events(&lines, "score").is_empty());
}
