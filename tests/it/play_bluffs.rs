//! `mondo play bluffs --json`: a whole match piped to a win, with each player's secrets
//! only in lines addressed to them; and a match lost on time with short clocks.

use crate::play_support;

use mondo::lang::tiles::Colour;
use mondo::rules::bluffs::deal;
use play_support::{Mondo, Table, of, play, play_text};
use serde_json::Value;

const SEED: u64 = 4242;

fn colours() -> String {
    Colour::ALL
        .iter()
        .map(|c| format!("There is a {} tile.", c.name()))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Whether a line is addressed to one player.
fn to(line: &Value) -> Option<&str> {
    line["to"].as_str()
}

#[test]
fn a_whole_match_piped_is_won_by_a_right_layout_guess() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bluffs.db");
    let (layout, [known_a, known_b]) = deal(SEED, 4);
    let input = [
        // A statement that does not involve every tile is refused, and says which.
        format!(
            "alice: bluff A1-A2-B1-B2; The A1 tile is red.; {}",
            colours().split("; ").skip(1).collect::<Vec<_>>().join("; ")
        ),
        format!("alice: bluff A1-A2-B1-B2; {}", colours()),
        "alice: status".into(),
        "host: pause".into(),
        format!("bob: bluff C1-C2-D1-D2; {}; smoke 2", colours()),
        "host: resume".into(),
        "bob: bluff C1-C2-D1-D2; There is a red tile.".into(),
        format!("bob: bluff C1-C2-D1-D2; {}; smoke 2", colours()),
        // Bob's statement 2 is smokescreened: Alice leaves it unmarked.
        "alice: claim T T T T".into(),
        "alice: claim T - F T".into(),
        "bob: detective 1".into(),
        "bob: claim - T T F".into(),
        "bob: pass".into(),
        "alice: declare".into(),
        format!("alice: guess {layout}"),
        "bob: status".into(),
    ]
    .join("\n");
    let out = play(
        &db,
        &[
            "bluffs",
            "--players",
            "alice,bob",
            "--seed",
            &SEED.to_string(),
            "--host",
            "host",
        ],
        &format!("{input}\n"),
    );
    assert_eq!(of(&out, "started")[0]["game"], "bluffs");
    // Each player's tiles at the start, to them alone.
    let mine = of(&out, "mine");
    let first_a = mine.iter().find(|m| to(m) == Some("alice")).unwrap();
    let first_b = mine.iter().find(|m| to(m) == Some("bob")).unwrap();
    for (line, known) in [(first_a, &known_a), (first_b, &known_b)] {
        let tiles = line["tiles"].as_object().unwrap();
        assert_eq!(tiles.len(), 4);
        for c in known {
            assert_eq!(tiles[&c.to_string()], layout.colour(*c).name());
        }
    }
    let errors = of(&out, "error");
    assert!(
        errors[0]["message"]
            .as_str()
            .unwrap()
            .contains("statement 1"),
        "{errors:?}"
    );
    assert!(errors[1]["message"].as_str().unwrap().contains("paused"));
    assert!(
        errors[2]["message"]
            .as_str()
            .unwrap()
            .contains("four statements")
    );
    assert!(
        errors[3]["message"]
            .as_str()
            .unwrap()
            .contains("smokescreened")
    );
    assert_eq!(errors.len(), 4, "{errors:?}");
    // Each refusal is said to the one who acted, like every private line.
    let to_whom: Vec<&str> = errors.iter().map(|e| to(e).unwrap_or("everyone")).collect();
    assert_eq!(to_whom, ["alice", "bob", "bob", "alice"]);
    // Claiming shows both bluffs, Bob's statement 2 hidden.
    let shown = of(&out, "shown");
    assert_eq!(shown.len(), 2);
    let bob = shown.iter().find(|s| s["player"] == "bob").unwrap();
    assert_eq!(bob["statements"][1], Value::Null);
    assert_eq!(bob["subset"], "C1-C2-D1-D2");
    // Truths, scores, the detective's answer and the guess: private.
    for name in [
        "truth_told",
        "claim_scored",
        "detected",
        "guessed",
        "marked",
        "passed",
    ] {
        let lines = of(&out, name);
        assert!(!lines.is_empty(), "no {name}");
        assert!(lines.iter().all(|l| to(l).is_some()), "{lines:?}");
    }
    assert_eq!(of(&out, "detected")[0]["to"], "bob");
    let counted = of(&out, "reveals_counted");
    assert_eq!(counted[0]["counts"]["alice"], 0);
    let ended = of(&out, "ended");
    assert_eq!(ended[0]["winner"], "alice");
    assert_eq!(ended[0]["ending"], "guessed");
    assert_eq!(ended[0]["layout"], layout.to_string());
    // Before the end, no line for all names the layout, a colour of a tile, RP or
    // truths; every line that does is addressed to its player.
    let end = out.iter().position(|l| l["event"] == "ended").unwrap();
    let layout_text = layout.to_string();
    for line in &out[..end] {
        let text = line.to_string();
        assert!(!text.contains(&layout_text), "{text}");
        if to(line).is_none() {
            for word in [
                "\"tiles\"",
                "\"rp\"",
                "\"truths\"",
                "\"truth\"",
                "\"gained\"",
            ] {
                assert!(!text.contains(word), "a public line with {word}: {text}");
            }
        }
    }
    // `NAME: status` adds NAME's own state, to them.
    assert!(
        mine.iter()
            .any(|m| to(m) == Some("alice") && m["rp"].is_u64())
    );
}

/// Short clocks: bob never bluffs, so his reserve runs out in the first round without
/// his ever having played: the match is aborted (docs/ratings.md, "Fair play"), and
/// the end says so rather than naming a winner.
#[test]
fn short_clocks_a_player_who_never_bluffs_aborts_the_match() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bluffs.db");
    let table = Table::new("bluffs", "alice,bob")
        .seed(3)
        .with("--bluff-secs", "2")
        .with("--reserve-secs", "0.5");
    let mut m = Mondo::start(&db, &table.args());
    let (status, _) = m.until("status");
    assert_eq!(status["phase"], "bluffing");
    assert!(status["left_ms"].as_u64().unwrap() <= 2_000);
    let (mine, _) = m.until("mine");
    assert_eq!(mine["reserve_ms"], 500);
    m.send(&format!("alice: bluff A1-A2-B1-B2; {}", colours()));
    let (submitted, _) = m.until("submitted");
    assert_eq!(submitted["player"], "alice");
    let (ended, _) = m.until("ended");
    assert_eq!(ended["winner"], Value::Null, "{ended}");
    assert_eq!(ended["ending"], "opponent_out_of_time");
    assert_eq!(ended["verdict"], "aborted");
    assert!(m.wait());
}

#[test]
fn a_match_left_mid_round_resumes_from_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bluffs.db");
    let mut m = Mondo::start(&db, &Table::new("bluffs", "alice,bob").seed(SEED).args());
    m.until("status");
    m.send(&format!("alice: bluff A1-A2-B1-B2; {}", colours()));
    m.until("submitted");
    // Killed: nothing more is saved than what the store already has.
    m.kill();
    let out = play(
        &db,
        &["--resume"],
        &format!("bob: bluff C1-C2-D1-D2; {}\nalice: status\n", colours()),
    );
    assert_eq!(of(&out, "resumed")[0]["game"], "bluffs");
    // Alice's bluff survived: Bob's completes Bluffing and both are shown.
    let shown = of(&out, "shown");
    assert_eq!(shown.len(), 2, "{out:?}");
    assert!(of(&out, "truth_told").iter().all(|l| to(l).is_some()));
    let (_, [known_a, _]) = deal(SEED, 4);
    let mine = of(&out, "mine");
    let alice = mine.iter().rev().find(|l| to(l) == Some("alice")).unwrap();
    assert_eq!(alice["tiles"].as_object().unwrap().len(), known_a.len());
    assert_eq!(
        alice["rp"],
        of(&out, "truth_told")
            .iter()
            .find(|l| to(l) == Some("alice"))
            .unwrap()["gained"]
    );
}

/// Refusals that name what only the player who acted knows (a tile they know, their
/// RP, their failed layout guess, part of their subset before Claiming) are said only
/// to them: `(to NAME only) error: ...` in text, `"to": NAME` in JSON.
#[test]
fn refusals_naming_private_facts_go_only_to_the_player_who_acted() {
    let dir = tempfile::tempdir().unwrap();
    let (layout, [known_a, known_b]) = deal(SEED, 4);
    let unknown_a: Vec<String> = mondo::lang::tiles::Cell::all()
        .filter(|c| !known_a.contains(c))
        .map(|c| c.to_string())
        .collect();
    let mut wrong = layout;
    wrong.0[0] = Colour::from_index((wrong.0[0].index() + 1) % 4);
    let input = [
        format!(
            "alice: bluff A1-A2-B1-B2; The leftmost tile is red.; {}",
            colours().split("; ").skip(1).collect::<Vec<_>>().join("; ")
        ),
        format!("alice: bluff A1-A2-B1-B2; {}", colours()),
        format!("bob: bluff C1-C2-D1-D2; {}", colours()),
        "alice: claim T T T T".into(),
        "bob: claim T T T T".into(),
        format!("bob: reveal {}", known_b[0]),
        format!("alice: reveal {}", unknown_a[..3].join(",")),
        "alice: declare".into(),
        format!("alice: guess {wrong}"),
        "bob: pass".into(),
        format!("alice: bluff C3-C4-D3-D4; {}", colours()),
        format!("bob: bluff A3-A4-B3-B4; {}", colours()),
        "alice: claim T T T T".into(),
        "bob: claim T T T T".into(),
        format!("alice: reveal {}", unknown_a[0]),
        "quit".into(),
    ]
    .join("\n");
    let args = ["bluffs", "--players", "alice,bob", "--seed", "4242"];
    let text = play_text(&dir.path().join("t.db"), &args, &format!("{input}\n"));
    let refusals: Vec<&str> = text.lines().filter(|l| l.contains("error:")).collect();
    let private = [
        ("alice", "does not involve"),
        ("bob", &format!("you already know {}", known_b[0])),
        ("alice", "3 reveals cost 24 RP (8 each); you have"),
        ("alice", "a wrong layout guess last round bars you"),
    ];
    for (who, fact) in private {
        let line = refusals
            .iter()
            .find(|l| l.contains(fact))
            .unwrap_or_else(|| panic!("no refusal saying {fact}: {refusals:?}"));
        assert!(
            line.starts_with(&format!("(to {who} only) error: ")),
            "said to all: {line}"
        );
    }
    assert_eq!(refusals.len(), private.len(), "{refusals:?}");
    // The same in JSON: each addressed.
    let out = play(&dir.path().join("j.db"), &args, &format!("{input}\n"));
    let errors = of(&out, "error");
    let to_whom: Vec<&str> = errors.iter().map(|e| to(e).unwrap_or("everyone")).collect();
    assert_eq!(to_whom, ["alice", "bob", "alice", "alice"], "{errors:?}");
}

#[test]
fn help_words_in_a_bluffs_match_lists_the_words_of_statements_about_tiles() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bluffs.db");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args([
            "play",
            "bluffs",
            "--players",
            "alice,bob",
            "--seed",
            "3",
            "--db",
        ])
        .arg(&db)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"help\nhelp words\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("`help words` lists the words you may use"),
        "{text}"
    );
    assert!(
        text.contains("Statements say what colours the tiles"),
        "{text}"
    );
    assert!(
        text.contains("`adjacent to` is any of the 8 neighbours"),
        "{text}"
    );
    // Not the pattern language's pieces.
    assert!(
        !text.contains("Patterns say what a structure must be"),
        "{text}"
    );
}
