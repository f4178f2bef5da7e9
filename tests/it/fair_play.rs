//! Fair play at the terminal (docs/ratings.md, "Fair play"): a setup chosen by the
//! players makes the match unrated, one chosen by a host who does not play leaves it
//! rated; every match's start says which; an unrated result moves no rating.

use crate::play_support::{Table, errors, of, stats};
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
        let seeded = Table::new(game, "alice,bob").seed(7);
        let out = seeded.play(&dir.path().join("fair.db"), "bob: resign\n");
        let line = rated_line(&out);
        assert_eq!(line["rated"], false, "{game}: {line}");
        assert_eq!(line["why"], "setup_chosen", "{game}: {line}");
        assert_eq!(
            line["why_text"], "the setup was chosen by alice",
            "{game}: {line}"
        );
        // A host named with --host who does not play may choose it: rated.
        let out = seeded
            .clone()
            .host("carol")
            .play(&dir.path().join("hosted.db"), "bob: resign\n");
        assert_eq!(rated_line(&out)["rated"], true, "{game}");
        // No setup chosen: rated.
        let out = Table::new(game, "alice,bob").play(&dir.path().join("drawn.db"), "bob: resign\n");
        assert_eq!(rated_line(&out)["rated"], true, "{game}");
    }
}

/// Both act (bob chooses, alice skips step 1), then bob resigns: a result.
const PLAYED_THEN_RESIGNED: &str = "bob: start alice\nalice: skip\nbob: resign\n";

#[test]
fn a_seeded_duel_played_out_rates_nobody_and_a_hosted_one_does() {
    let dir = tempfile::tempdir().unwrap();
    let seeded = dir.path().join("seeded.db");
    Table::duel().seed(3).play(&seeded, PLAYED_THEN_RESIGNED);
    let hosted = dir.path().join("hosted.db");
    Table::duel()
        .seed(3)
        .host("carol")
        .play(&hosted, PLAYED_THEN_RESIGNED);
    let unrated = stats(&seeded, "alice");
    assert_eq!(
        unrated["ratings"],
        serde_json::json!([]),
        "no rating: {unrated}"
    );
    let rated = stats(&hosted, "alice");
    assert_eq!(rated["ratings"][0]["games"], 1, "{rated}");
    assert_eq!(rated["ratings"][0]["wins"], 1, "{rated}");
}

/// Seats are identities: a line typed at the keyboard never moves the AI's seat, named
/// or not; it is refused with what to type instead, and nothing is recorded.
#[test]
fn a_typed_line_never_plays_the_ais_seat() {
    let dir = tempfile::tempdir().unwrap();
    let out = Table::against_ai("duel", "beginner")
        .pattern("some piece points up")
        .play(
            &dir.path().join("ai.db"),
            "ai-beginner: resign\nai-beginner: guess some piece points down\nme: resign\n",
        );
    let refused: Vec<String> = errors(&out)
        .into_iter()
        .filter(|e| e.contains("is the AI's seat: only the AI plays its moves"))
        .collect();
    assert_eq!(refused.len(), 2, "{out:#?}");
    assert!(refused[0].contains("`me: ...`"), "{}", refused[0]);
    // The AI did not resign: I did, and it won.
    let over = of(&out, "over");
    assert_eq!(over.len(), 1, "{out:#?}");
    assert_eq!(over[0]["winner"], "ai-beginner", "{out:#?}");
}

/// A table started without --host has no host: a `host:` line (and a host's command
/// said without a name) is refused, saying how to name one, and nothing is recorded;
/// with --host, the host's lines are taken.
#[test]
fn host_lines_are_taken_only_from_the_host_named_with_host() {
    let dir = tempfile::tempdir().unwrap();
    let lines = "host: pause\npause\nhost: end\nstatus\n";
    let out = Table::duel().play(&dir.path().join("none.db"), lines);
    let refused = errors(&out);
    assert_eq!(refused.len(), 3, "{out:#?}");
    for e in &refused {
        assert!(e.contains("this table has no host"), "{e}");
        assert!(e.contains("--host NAME"), "{e}");
        assert!(e.contains("nothing was recorded"), "{e}");
    }
    assert!(
        of(&out, "paused").is_empty() && of(&out, "over").is_empty(),
        "{out:#?}"
    );
    let started = of(&out, "started");
    assert_eq!(started[0]["host"], Value::Null);
    // Named: `carol:` pauses and ends; `host:` is not anyone here.
    let out = Table::duel().host("carol").play(
        &dir.path().join("carol.db"),
        "host: pause\ncarol: pause\ncarol: end\n",
    );
    let refused = errors(&out);
    assert_eq!(refused.len(), 1, "{out:#?}");
    assert!(
        refused[0].contains("`host` is not at this table"),
        "{}",
        refused[0]
    );
    assert_eq!(of(&out, "paused").len(), 1, "{out:#?}");
    assert_eq!(of(&out, "over").len(), 1, "{out:#?}");
}

/// The exact fields of a match in a player's `history` (docs/ratings.md, "JSON").
const HISTORY_FIELDS: [&str; 11] = [
    "match",
    "game",
    "opponents",
    "result",
    "rated",
    "why",
    "why_text",
    "rating_before",
    "rating_after",
    "rating_change",
    "finished_at",
];

/// A player's stats carry their recent matches: rated with the rating before and after,
/// or unrated with why, in the JSON, the text and on the replay page alike.
#[test]
fn history_and_the_replay_page_say_rated_or_unrated_and_why() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.db");
    Table::duel().seed(3).play(&db, PLAYED_THEN_RESIGNED);
    Table::duel()
        .seed(3)
        .host("carol")
        .play(&db, PLAYED_THEN_RESIGNED);
    let alice = stats(&db, "alice");
    let history = alice["history"].as_array().unwrap();
    assert_eq!(history.len(), 2, "{alice}");
    for row in history {
        let mut keys: Vec<&str> = row
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        keys.sort_unstable();
        let mut want = HISTORY_FIELDS.to_vec();
        want.sort_unstable();
        assert_eq!(keys, want, "{row}");
        assert_eq!(row["game"], "zendo-duel");
        assert_eq!(row["opponents"], serde_json::json!(["bob"]));
        assert!(
            row["finished_at"].as_str().unwrap().starts_with("20"),
            "{row}"
        );
    }
    // The last first: the hosted match, rated.
    let (rated, unrated) = (&history[0], &history[1]);
    assert_eq!(rated["match"], 2);
    assert_eq!(rated["rated"], true);
    assert_eq!(rated["result"], "win");
    assert_eq!(
        (&rated["why"], &rated["why_text"]),
        (&Value::Null, &Value::Null)
    );
    assert_eq!(rated["rating_before"], 1500.0);
    let (before, after) = (
        rated["rating_before"].as_f64().unwrap(),
        rated["rating_after"].as_f64().unwrap(),
    );
    assert!(after > before, "{rated}");
    let change = rated["rating_change"].as_f64().unwrap();
    assert!((change - (after - before)).abs() < 0.011, "{rated}");
    assert_eq!(unrated["match"], 1);
    assert_eq!(unrated["rated"], false);
    assert_eq!(unrated["why"], "setup_chosen");
    assert_eq!(unrated["why_text"], "the setup was chosen by alice");
    for field in ["result", "rating_before", "rating_after", "rating_change"] {
        assert_eq!(unrated[field], Value::Null, "{field}: {unrated}");
    }
    // bob's history names alice; his rated loss moved his rating down.
    let bob = stats(&db, "bob");
    assert_eq!(bob["history"][0]["opponents"], serde_json::json!(["alice"]));
    assert_eq!(bob["history"][0]["result"], "loss");
    assert!(bob["history"][0]["rating_change"].as_f64().unwrap() < 0.0);
    // As a person reads it.
    let text = mondo(&["stats", "alice", "--db", db.to_str().unwrap()]);
    assert!(text.contains("recent matches:"), "{text}");
    assert!(text.contains("#2 zendo-duel with bob"), "{text}");
    assert!(text.contains(": won, 1500 -> "), "{text}");
    assert!(
        text.contains("#1 zendo-duel with bob")
            && text.contains("unrated (the setup was chosen by alice)"),
        "{text}"
    );
    // The replay page of each says it.
    for (id, said) in [
        ("1", "unrated (the setup was chosen by alice)"),
        ("2", "<p class=\"counted\">rated</p>"),
    ] {
        let page = dir.path().join(format!("{id}.html"));
        let db = db.to_str().unwrap();
        mondo(&["replay", id, "--html", page.to_str().unwrap(), "--db", db]);
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(html.contains(said), "match {id}: {html}");
    }
}

/// `mondo ARGS`, which must succeed: what it printed.
fn mondo(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// A match against the AI left and resumed: the AI's seat is the AI's again, so a typed
/// line still cannot play it.
#[test]
fn a_resumed_match_gives_the_ai_its_seat_again() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("resumed.db");
    Table::against_ai("duel", "beginner")
        .pattern("some piece points up")
        .seed(4)
        .play(&db, "quit\n");
    let out = crate::play_support::play(&db, &["--resume"], "ai-beginner: resign\nme: resign\n");
    let refused = errors(&out);
    assert!(
        refused
            .iter()
            .any(|e| e.contains("ai-beginner is the AI's seat")),
        "{out:#?}"
    );
    assert_eq!(of(&out, "over")[0]["winner"], "ai-beginner", "{out:#?}");
}

/// `--pattern` and `--pool` are setups too: typed by the players they make the match
/// unrated, chosen by a host who does not play they leave it rated.
#[test]
fn a_pattern_or_pool_typed_by_the_players_makes_the_match_unrated() {
    let pool = concat!(env!("CARGO_MANIFEST_DIR"), "/config/pools/pyramids.toml");
    let arrows = concat!(env!("CARGO_MANIFEST_DIR"), "/config/pools/arrows.toml");
    let dir = tempfile::tempdir().unwrap();
    let tables = [
        (
            "duel --pattern",
            Table::duel().pattern("some piece points up"),
        ),
        ("duel --pool", Table::duel().with("--pool", pool)),
        (
            "triple --pool",
            Table::new("triple", "alice,bob").with("--pool", arrows),
        ),
    ];
    for (i, (what, table)) in tables.into_iter().enumerate() {
        let out = table.play(&dir.path().join(format!("{i}.db")), "bob: resign\n");
        assert_eq!(errors(&out), Vec::<String>::new(), "{what}");
        let line = rated_line(&out);
        assert_eq!(line["rated"], false, "{what}: {line}");
        assert_eq!(line["why"], "setup_chosen", "{what}: {line}");
        let hosted = table.host("carol");
        let out = hosted.play(&dir.path().join(format!("{i}-hosted.db")), "bob: resign\n");
        assert_eq!(rated_line(&out)["rated"], true, "{what}");
    }
}
