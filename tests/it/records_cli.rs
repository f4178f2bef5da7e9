//! A player's records at the command line (docs/ratings.md, "At the command line"):
//! `mondo history` lists the finished matches, the last first, with the result, the
//! opponents, the rating change, the date and the command that replays it, in text and
//! in JSON (the fields the docs promise); `mondo stats --json` holds the solo records;
//! every numeric option of the records commands is refused out of its range, saying
//! the range.

use crate::records_contracts::{HISTORY_ROW, RATING_CHANGE, RATINGS_EVENT, SOLO, STATS};
use crate::store_ratings::{duel, keys, mondo, practice};
use mondo::rules::PlayerId;
use mondo::store::{MatchId, Store};
use serde_json::Value;

/// A terminal store where alice beats bob, loses to him, then beats him again, and
/// practises once between: the matches in the order they ended.
async fn rivals(path: &std::path::Path) -> Vec<MatchId> {
    let store = Store::open(path).await.unwrap();
    let alice = PlayerId(store.local_player("alice").await.unwrap());
    let bob = PlayerId(store.local_player("bob").await.unwrap());
    let ids = vec![
        duel(&store, None, alice, bob, Some(bob), 0).await,
        duel(&store, None, alice, bob, Some(alice), 10).await,
        practice(&store, None, alice, 20).await,
        duel(&store, None, alice, bob, Some(bob), 30).await,
    ];
    store.close().await;
    ids
}

fn json(out: &std::process::Output) -> Value {
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).expect("one JSON value")
}

/// `mondo ARGS --json --db DB`, read.
fn records(db: &str, args: &[&str]) -> Value {
    json(&mondo(&[args, &["--json", "--db", db]].concat()))
}

#[tokio::test]
async fn history_lists_the_last_first_with_results_changes_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("records.db");
    let db = path.to_str().unwrap();
    let ids = rivals(&path).await;

    let rows = records(db, &["history", "Alice"]);
    let rows = rows.as_array().expect("an array");
    let order: Vec<i64> = rows.iter().map(|r| r["match"].as_i64().unwrap()).collect();
    let mut last_first: Vec<i64> = ids.iter().map(|m| m.0).collect();
    last_first.reverse();
    assert_eq!(order, last_first);
    for row in rows {
        assert_eq!(keys(row), HISTORY_ROW);
    }
    // The last duel: won against bob, after a loss, so from below 1662 upwards.
    let won = &rows[0];
    assert_eq!(won["game"], "zendo-duel");
    assert_eq!(won["opponents"], serde_json::json!(["bob"]));
    assert_eq!(
        (won["result"].as_str(), won["rated"].as_bool()),
        (Some("win"), Some(true))
    );
    let (before, after) = (
        won["rating_before"].as_f64().unwrap(),
        won["rating_after"].as_f64().unwrap(),
    );
    assert!(after > before, "{won}");
    let change = won["rating_change"].as_f64().unwrap();
    assert!((change - (after - before)).abs() < 0.011, "{won}");
    assert!(won["finished_at"].as_str().unwrap().ends_with('Z'), "{won}");
    // The loss before the practice; the practice rated nothing.
    let practice = &rows[1];
    assert_eq!(practice["game"], "zendo-practice");
    assert_eq!(practice["opponents"], serde_json::json!([]));
    assert_eq!(
        (practice["rated"].as_bool(), practice["why"].as_str()),
        (Some(false), Some("solo"))
    );
    assert!(practice["rating_change"].is_null() && practice["result"].is_null());
    let lost = &rows[2];
    assert_eq!(lost["result"], "loss");
    assert!(lost["rating_change"].as_f64().unwrap() < 0.0, "{lost}");
    // The first: from where everyone starts.
    assert_eq!(rows[3]["rating_before"].as_f64(), Some(1500.0));
    assert_eq!(rows[3]["rating_after"], lost["rating_before"]);

    // One game, and at most so many.
    let duels = records(db, &["history", "alice", "--game", "zendo-duel"]);
    assert_eq!(duels.as_array().unwrap().len(), 3);
    assert!(
        duels
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["game"] == "zendo-duel")
    );
    let one = records(db, &["history", "alice", "--limit", "1"]);
    assert_eq!(one.as_array().unwrap().len(), 1);
    assert_eq!(one[0]["match"], rows[0]["match"]);
    // Bob's side of the same match.
    let bob = records(db, &["history", "bob", "--limit", "1"]);
    assert_eq!(
        (bob[0]["result"].as_str(), bob[0]["opponents"][0].as_str()),
        (Some("loss"), Some("alice"))
    );

    // In text: each line says the result and the change as shown, and how to replay it.
    let text = mondo(&["history", "alice", "--db", db]);
    assert!(text.status.success(), "{text:?}");
    let text = String::from_utf8(text.stdout).unwrap();
    let first = text.lines().nth(1).expect("a match line");
    assert!(
        first.contains(&format!("#{} zendo-duel with bob", ids[3])),
        "{text}"
    );
    let (from, to) = (before.round(), after.round());
    assert!(first.contains(&format!("won, {from} -> {to}")), "{text}");
    assert!(
        first.contains(&format!("(+{})", after.round() - before.round())),
        "{text}"
    );
    assert!(
        first.contains(&format!("mondo replay {} --db {db}", ids[3])),
        "{text}"
    );
    assert!(
        text.contains("unrated (solo: a record, never a rating)"),
        "{text}"
    );
    let none = mondo(&["history", "bob", "--game", "logical-bluffs", "--db", db]);
    let none = String::from_utf8(none.stdout).unwrap();
    assert_eq!(none.trim(), "bob has no finished logical-bluffs here yet.");
}

#[tokio::test]
async fn stats_json_holds_the_solo_records() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("solo.db");
    let db = path.to_str().unwrap();
    rivals(&path).await;
    let stats = records(db, &["stats", "alice"]);
    assert_eq!(keys(&stats), STATS);
    let solo = stats["solo"].as_array().unwrap();
    assert_eq!(solo.len(), 1, "{stats}");
    assert_eq!(keys(&solo[0]), SOLO);
    assert_eq!(solo[0]["game"], "zendo-practice");
    assert_eq!(
        (solo[0]["played"].as_u64(), solo[0]["solved"].as_u64()),
        (Some(1), Some(0))
    );
    assert!(solo[0]["best_ms"].is_null(), "unsolved: no fastest");
    // Another game asked for: no solo record of it.
    let duel = records(db, &["stats", "alice", "--game", "zendo-duel"]);
    assert_eq!(duel["solo"], serde_json::json!([]));
    assert_eq!(duel["ratings"][0]["game"], "zendo-duel");
}

#[tokio::test]
async fn numeric_options_out_of_range_are_refused_saying_the_range() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ranges.db");
    let db = path.to_str().unwrap();
    rivals(&path).await;
    for args in [
        &["history", "alice", "--limit", "0"][..],
        &["history", "alice", "--limit", "1001"],
        &["leaderboard", "--limit", "0"],
        &["leaderboard", "--limit=-3"],
    ] {
        let out = mondo(&[args, &["--db", db]].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains("1..=1000"), "{args:?}: {said}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    for args in [
        &["history", "alice", "--guild", "0"][..],
        &["stats", "alice", "--guild", "0"],
        &["leaderboard", "--guild", "0"],
    ] {
        let out = mondo(&[args, &["--db", db]].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("1.."),
            "{args:?}"
        );
    }
    let leaderboard = &["leaderboard", "--min-games", "0", "--db", db];
    let out = mondo(leaderboard);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("allowed 1 to 1000"));
    // The edges are taken.
    for args in [
        &["history", "alice", "--limit", "1000"][..],
        &["leaderboard", "--limit", "1"],
    ] {
        assert!(
            mondo(&[args, &["--db", db]].concat()).status.success(),
            "{args:?}"
        );
    }
}

/// Both act (bob chooses, alice skips step 1), then bob resigns: a result.
const PLAYED_THEN_RESIGNED: &str = "bob: start alice\nalice: skip\nbob: resign\n";

/// The result at the terminal says what it did to each rating, once, in text and in
/// JSON; a match that counted for nothing says nothing of ratings.
#[test]
fn a_result_at_the_terminal_says_each_rating_change() {
    use crate::play_support::{Table, of, play_text};
    let dir = tempfile::tempdir().unwrap();
    let out = Table::duel().play(&dir.path().join("json.db"), PLAYED_THEN_RESIGNED);
    let said = of(&out, "ratings");
    assert_eq!(said.len(), 1, "{out:#?}");
    assert_eq!(keys(said[0]), RATINGS_EVENT);
    let changes = said[0]["changes"].as_array().unwrap();
    assert!(
        changes.iter().all(|c| keys(c) == RATING_CHANGE),
        "{changes:?}"
    );
    let [alice, bob] = &changes[..] else {
        panic!("{changes:?}")
    };
    assert_eq!(
        (&alice["player"], &alice["result"]),
        (&"alice".into(), &"win".into())
    );
    assert_eq!(
        (&bob["player"], &bob["result"]),
        (&"bob".into(), &"loss".into())
    );
    // Two new players: Glicko-2's 1500/350 against 1500/350.
    assert_eq!(alice["rating_before"], 1500.0);
    assert_eq!(alice["rating_after"], 1662.31);
    assert_eq!(alice["rating_change"], 162.31);
    assert_eq!(bob["rating_after"], 1337.69);
    assert_eq!(alice["provisional"], true);
    // After the result, not before.
    let at = |name: &str| out.iter().position(|e| e["event"] == name).unwrap();
    assert!(at("over") < at("ratings"), "{out:#?}");

    let text = play_text(
        &dir.path().join("text.db"),
        &Table::duel().args(),
        PLAYED_THEN_RESIGNED,
    );
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("ratings:")).collect();
    assert_eq!(
        lines,
        ["ratings: alice 1500 -> 1662? (+162), bob 1500 -> 1338? (-162)"],
        "{text}"
    );
    // Seeded by the players: unrated, so no rating moved and none is said.
    let seeded = Table::duel()
        .seed(3)
        .play(&dir.path().join("seeded.db"), PLAYED_THEN_RESIGNED);
    assert!(
        of(&seeded, "over").len() == 1 && of(&seeded, "ratings").is_empty(),
        "{seeded:#?}"
    );
}

/// Inactivity (docs/ratings.md): a rating read a year after its last game has the
/// deviation Glicko-2 gives 52 idle weekly periods, a just-settled player is
/// provisional again; the period is a setting, refused out of its range.
#[tokio::test]
async fn a_rating_read_after_a_year_away_is_provisional_again() {
    use mondo::ratings::{DAY_MS, wall_ms};
    let last = "2025-12-01T12:00:00.000Z";
    let row = mondo::store::RatingRow {
        server: 0,
        game: "zendo-duel".into(),
        player: 1,
        rating: 1810.0,
        deviation: 90.0,
        volatility: 0.06,
        games: 40,
        wins: 30,
        losses: 10,
        draws: 0,
        last_match: MatchId(9),
        last_played: last.into(),
    };
    assert!(!row.is_provisional());
    let week = 7 * DAY_MS;
    let now = wall_ms(last).unwrap() + 52 * week;
    let back = row.clone().as_of(now, week);
    let phi: f64 = 90.0 / 173.7178;
    let paper = (phi * phi + 52.0 * 0.06 * 0.06).sqrt() * 173.7178;
    assert!((back.deviation - paper).abs() < 1e-9, "{back:?}");
    assert!(back.is_provisional() && back.shown() == "1810?", "{back:?}");
    assert_eq!(row.clone().as_of(wall_ms(last).unwrap() + 1000, week), row);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("period.db");
    rivals(&path).await;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(["stats", "alice", "--db", path.to_str().unwrap()])
        .env("MONDO_LEADERBOARD_RATING_PERIOD_DAYS", "0")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("rating_period_days") && said.contains("1"),
        "{said}"
    );
}

/// Zendo Classic grows idle too (docs/ratings.md, "Inactivity"): a student back after
/// four weekly periods starts their next game from sqrt(deviation^2 + 4 * 3.5^2)
/// (OpenSkill's tau, 25/300, on the Glicko scale), and `mondo ratings rebuild` gives
/// the same numbers from the logs.
#[tokio::test]
async fn a_classic_student_away_four_weeks_comes_back_less_certain_and_a_rebuild_agrees() {
    use crate::store_ratings::{classic, snapshot};
    use mondo::ratings::{DAY_MS, wall_ms, wall_text};
    use sqlx::Connection;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("classic.db");
    let store = Store::open(&path).await.unwrap();
    let alice = PlayerId(store.local_player("alice").await.unwrap());
    let bob = PlayerId(store.local_player("bob").await.unwrap());
    let first = classic(&store, None, vec![alice, bob], 1).await;
    let played = store.history(0, alice.0, 1).await.unwrap().remove(0);
    assert_eq!(played.id, first);
    let settled = played.deviation_after.unwrap();
    store.close().await;
    // The first game ended four weeks ago.
    let then = wall_text(wall_ms(&played.finished).unwrap() - 28 * DAY_MS);
    let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    for sql in [
        "UPDATE matches SET finished = $1 WHERE id = $2",
        "UPDATE ratings SET last_played = $1 WHERE last_match = $2",
    ] {
        sqlx::query(sql)
            .bind(&then)
            .bind(first.0)
            .execute(&mut c)
            .await
            .unwrap();
    }
    c.close().await.unwrap();
    let store = Store::open(&path).await.unwrap();
    let second = classic(&store, None, vec![alice, bob], 2).await;
    let back = store.history(0, alice.0, 1).await.unwrap().remove(0);
    assert_eq!(back.id, second);
    let by_hand = (settled * settled + 4.0 * 3.5 * 3.5).sqrt();
    let before = back.deviation_before.unwrap();
    assert!((before - by_hand).abs() < 1e-9, "{before} vs {by_hand}");
    assert!(before > settled);
    let incremental = snapshot(&store, &[0], &[alice.0, bob.0]).await;
    let (rebuilt, unreadable) = mondo::runtime::rebuild_ratings::<mondo::runtime::AnyMatch>(&store)
        .await
        .unwrap();
    assert!(unreadable.is_empty() && rebuilt.matches == 2, "{rebuilt:?}");
    assert_eq!(snapshot(&store, &[0], &[alice.0, bob.0]).await, incremental);
    store.close().await;
}
