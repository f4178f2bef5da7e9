//! Fair play at the terminal (docs/ratings.md, "Fair play"): a setup chosen by the
//! players makes the match unrated, one chosen by a host who does not play leaves it
//! rated; every match's start says which; an unrated result moves no rating.

use crate::play_support::{of, play};
use serde_json::Value;

/// The `rated` line a match's start printed.
fn rated_line(out: &[Value]) -> &Value {
    of(out, "rated")
        .first()
        .copied()
        .unwrap_or_else(|| panic!("no `rated` line: {out:?}"))
}

#[test]
fn a_seed_typed_by_the_players_makes_every_two_player_game_unrated() {
    for game in ["duel", "triple", "assembly", "bluffs"] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("fair.db");
        let out = play(
            &db,
            &[game, "--players", "alice,bob", "--seed", "7"],
            "bob: resign\n",
        );
        let line = rated_line(&out);
        assert_eq!(line["rated"], false, "{game}: {line}");
        assert_eq!(line["why"], "setup_chosen", "{game}: {line}");
        assert_eq!(
            line["why_text"], "the setup was chosen by alice",
            "{game}: {line}"
        );
        // A host named with --host who does not play may choose it: rated.
        let db = dir.path().join("hosted.db");
        let out = play(
            &db,
            &[
                game,
                "--players",
                "alice,bob",
                "--seed",
                "7",
                "--host",
                "carol",
            ],
            "bob: resign\n",
        );
        assert_eq!(rated_line(&out)["rated"], true, "{game}");
        // No setup chosen: rated.
        let db = dir.path().join("drawn.db");
        let out = play(&db, &[game, "--players", "alice,bob"], "bob: resign\n");
        assert_eq!(rated_line(&out)["rated"], true, "{game}");
    }
}

#[test]
fn a_seeded_duel_played_out_rates_nobody_and_a_hosted_one_does() {
    let stats = |db: &std::path::Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_mondo"))
            .args(["stats", "alice", "--json", "--db"])
            .arg(db)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    // Both act (bob chooses, alice skips step 1), then bob resigns: a result.
    let input = "bob: start alice\nalice: skip\nbob: resign\n";
    let dir = tempfile::tempdir().unwrap();
    let seeded = dir.path().join("seeded.db");
    play(
        &seeded,
        &["duel", "--players", "alice,bob", "--seed", "3"],
        input,
    );
    let hosted = dir.path().join("hosted.db");
    play(
        &hosted,
        &[
            "duel",
            "--players",
            "alice,bob",
            "--seed",
            "3",
            "--host",
            "carol",
        ],
        input,
    );
    assert_eq!(stats(&seeded), serde_json::json!([]), "unrated: no rating");
    let rated = stats(&hosted);
    assert_eq!(rated[0]["games"], 1, "{rated}");
    assert_eq!(rated[0]["wins"], 1, "{rated}");
}

/// Seats are identities: a line typed at the keyboard never moves the AI's seat, named
/// or not; it is refused with what to type instead, and nothing is recorded.
#[test]
fn a_typed_line_never_plays_the_ais_seat() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ai.db");
    let out = play(
        &db,
        &[
            "duel",
            "--players",
            "me,ai",
            "--ai-level",
            "beginner",
            "--pattern",
            "some piece points up",
        ],
        "ai: resign\nai: guess some piece points down\nme: resign\n",
    );
    let refused: Vec<&Value> = out
        .iter()
        .filter(|e| {
            e.to_string()
                .contains("is the AI's seat: only the AI plays its moves")
        })
        .collect();
    assert_eq!(refused.len(), 2, "{out:#?}");
    assert!(
        refused[0].to_string().contains("`me: ...`"),
        "{}",
        refused[0]
    );
    // The AI did not resign: I did, and it won.
    let over = of(&out, "over");
    assert_eq!(over.len(), 1, "{out:#?}");
    assert_eq!(over[0]["winner"], "ai", "{out:#?}");
}
