//! `mondo bench ai --game assembly|bluffs --json`: one object per pairing of levels
//! with exactly the fields docs/ai.md lists, every match ending with a result. Tiny
//! numbers, so the code path cannot rot; the figures themselves are docs/ai.md's.

use serde_json::Value;
use std::process::Command;

const FIELDS: [&str; 11] = [
    "draws",
    "errors",
    "game",
    "level",
    "losses",
    "matches",
    "peak_mb",
    "think_ms_max",
    "think_ms_median",
    "vs",
    "wins",
];

/// The bench's exit status, its JSON rows and its standard error.
fn bench(args: &[&str]) -> (Option<i32>, Vec<Value>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(["bench", "ai"])
        .args(args)
        .output()
        .expect("the mondo binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let rows = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    (
        out.status.code(),
        rows,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the bench of `args` on 2 matches per pairing and checks every row says `game`;
/// the pairings' (level, vs) ranks in order.
fn pairings_of(game: &str, args: &[&str]) -> Vec<(u64, u64)> {
    let mut args = args.to_vec();
    args.extend(["--matches", "2", "--seed", "7", "--json"]);
    let (code, rows, err) = bench(&args);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("error"), "{err}");
    rows.iter()
        .map(|row| {
            let object = row.as_object().expect("an object per line");
            let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(keys, FIELDS, "{row}");
            assert_eq!(row["game"], game, "{row}");
            assert_eq!(row["matches"], 2, "{row}");
            assert_eq!(row["errors"], 0, "{row}");
            let n = |k: &str| row[k].as_u64().unwrap_or_else(|| panic!("{k}: {row}"));
            assert_eq!(n("wins") + n("draws") + n("losses"), 2, "{row}");
            let think = |k: &str| row[k].as_f64().unwrap_or_else(|| panic!("{k}: {row}"));
            assert!(think("think_ms_median") <= think("think_ms_max"), "{row}");
            assert!(n("peak_mb") > 0, "{row}");
            (n("level"), n("vs"))
        })
        .collect()
}

#[test]
fn the_bluffs_bench_plays_every_pairing_and_the_beginner_against_random_to_a_result() {
    let rows = pairings_of("bluffs", &["--game", "bluffs"]);
    assert_eq!(rows, [(2, 1), (3, 2), (3, 1), (1, 0)]);
}

#[test]
fn the_assembly_bench_plays_every_pairing_to_a_result_and_plus_too() {
    let levels = [(2, 1), (3, 2), (3, 1)];
    assert_eq!(pairings_of("assembly", &["--game", "assembly"]), levels);
    let plus = pairings_of("assembly-plus", &["--game", "assembly", "--plus"]);
    assert_eq!(plus, levels);
}

#[test]
fn an_unknown_game_is_refused_with_the_games_it_knows() {
    let (code, rows, err) = bench(&["--game", "chess", "--json"]);
    assert_eq!(code, Some(2));
    assert!(rows.is_empty());
    assert!(err.contains("`--game chess`"), "{err}");
    assert!(err.contains("assembly, bluffs"), "{err}");
    let (code, _, err) = bench(&["--game", "bluffs", "--plus"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("`--plus` is Pattern Assembly's"), "{err}");
}

/// Each game's own areas come from its terminal front, among the shared ones, in the
/// order they always had: `mondo bench --help` lists them, and one runs.
#[test]
fn each_games_own_bench_areas_are_listed_among_the_shared_ones() {
    let out = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(["bench", "--help"])
        .output()
        .expect("the mondo binary runs");
    let help = String::from_utf8_lossy(&out.stdout);
    let at = |area: &str| {
        help.lines()
            .position(|l| l.trim_start().starts_with(&format!("{area} ")))
            .unwrap_or_else(|| panic!("no `{area}` area in:\n{help}"))
    };
    let order = ["pool", "assembly", "bluffs", "leaderboard", "ai"].map(at);
    assert!(order.is_sorted(), "{order:?} in:\n{help}");
    assert!(help.contains("Logical Bluffs: read statements"), "{help}");
    let out = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(["bench", "bluffs", "--runs", "1"])
        .output()
        .expect("the mondo binary runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("worst: ") && said.contains("to check on 8 tiles"),
        "{said}"
    );
}
