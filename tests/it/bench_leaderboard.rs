//! `mondo bench leaderboard --json` on SQLite and PostgreSQL, small (the 200,000-player
//! figure is docs/ratings.md's): the JSON the docs promise, and the server it seeds
//! read back. That server then checks the leaderboard's two ways of reading a board
//! (docs/ratings.md, "Speed"), by the index on deviation when few rows are under the
//! rule and by walking the board otherwise: each lists what sorting every rating by
//! hand lists.

use super::store_ratings::mondo;
use super::stores::{TestDb, each};
use mondo::ratings::BoardSettings;
use mondo::store::{Location, RatingRow, Store};
use serde_json::Value;

const GUILD: u64 = 4242;

fn url(db: &TestDb) -> String {
    match &db.location {
        Location::Sqlite(path) => path.display().to_string(),
        Location::Postgres(url) => url.clone(),
    }
}

/// Every rating of the bench's server as a read shows it, player by player (the
/// leaderboard's own query never runs here).
async fn every_rating(store: &Store, players: u64) -> Vec<RatingRow> {
    let mut all = Vec::new();
    for player in 1..=players {
        all.extend(store.ratings_of(GUILD, player, None).await.unwrap());
    }
    all
}

/// The board `settings` list, by sorting every rating by hand.
fn by_hand(all: &[RatingRow], settings: &BoardSettings, limit: usize) -> Vec<(u64, u32)> {
    let since = mondo::ratings::wall_text(
        mondo::ratings::wall_ms(&now_text()).unwrap()
            - u64::from(settings.recent_days) * mondo::ratings::DAY_MS,
    );
    let mut listed: Vec<&RatingRow> = all
        .iter()
        .filter(|r| {
            r.games >= settings.min_games
                && r.deviation < settings.max_deviation
                && r.last_played >= since
        })
        .collect();
    listed.sort_by(|a, b| b.rating.total_cmp(&a.rating).then(a.player.cmp(&b.player)));
    listed
        .iter()
        .take(limit)
        .map(|r| (r.player, r.games))
        .collect()
}

fn now_text() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    mondo::ratings::wall_text(ms)
}

#[tokio::test]
async fn the_bench_seeds_a_server_and_times_its_pages_on_both_databases() {
    for db in each() {
        let (players, matches) = (1500u64, 12_000u64);
        let out = mondo(&[
            "bench",
            "leaderboard",
            "--players",
            &players.to_string(),
            "--matches",
            &matches.to_string(),
            "--runs",
            "3",
            "--json",
            "--db",
            &url(&db),
        ]);
        assert!(out.status.success(), "{}: {out:?}", db.name);
        let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        let keys = super::store_ratings::keys(&v);
        assert_eq!(keys, super::records_contracts::BENCH_LEADERBOARD, "{v}");
        assert_eq!(v["players"], players, "{}: {v}", db.name);
        assert_eq!(v["matches"], matches, "{}: {v}", db.name);
        assert_eq!(v["backend"], db.name, "{v}");
        let (median, p99) = (v["median_ms"].as_f64(), v["p99_ms"].as_f64());
        assert!(
            matches!((median, p99), (Some(m), Some(p)) if 0.0 < m && m <= p),
            "{}: {v}",
            db.name
        );
        assert_eq!(v["listed"], 20, "a full page: {v}");

        // The server it left: every match and rating, read back by the store.
        let store = db.open().await;
        let all = every_rating(&store, players).await;
        assert_eq!(all.len() as u64, players, "{}", db.name);
        let games: u64 = all.iter().map(|r| u64::from(r.games)).sum();
        assert_eq!(games, 2 * matches, "two players a match");
        let settled = |under: f64| all.iter().filter(|r| r.deviation < under).count();
        // Both ways of reading a board are taken below: under 1,000 rows under the
        // rule, and 1,000 or more.
        for max_deviation in [60.0, 110.0, 200.0, 350.0] {
            for min_games in [1, 5, 30] {
                let settings = BoardSettings {
                    min_games,
                    recent_days: 30,
                    max_deviation,
                };
                let board = store.leaderboard(GUILD, None, &settings, 20).await.unwrap();
                let got: Vec<(u64, u32)> = board.iter().map(|r| (r.player, r.games)).collect();
                assert_eq!(
                    got,
                    by_hand(&all, &settings, 20),
                    "{}: {settings:?}, {} rows under the deviation",
                    db.name,
                    settled(max_deviation)
                );
            }
        }
        assert!(
            settled(60.0) < 1000 && settled(350.0) >= 1000,
            "{}",
            db.name
        );
        store.close().await;

        // A database that holds matches is refused, and left as it was.
        let again = mondo(&["bench", "leaderboard", "--players", "4", "--db", &url(&db)]);
        assert!(!again.status.success());
        let err = String::from_utf8_lossy(&again.stderr);
        assert!(err.contains("already holds matches"), "{err}");
    }
}

#[test]
fn numbers_out_of_range_are_refused_with_the_range() {
    for args in [
        &["--players", "1"][..],
        &["--players", "10", "--matches", "4"],
        &["--runs", "0"],
    ] {
        let out = mondo(&[&["bench", "leaderboard"][..], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("allowed are 2 players or more"), "{err}");
    }
}
