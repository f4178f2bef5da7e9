//! The JSON the records commands print is a contract (docs/ratings.md, "JSON" and
//! "Speed"; docs/operators.md, the `ratings` event): each shape's field names are
//! pinned here once. The tests that run the commands compare what they print with
//! these lists, and the one test below compares these lists with what the docs say,
//! so renaming a field in the code or in the docs alone breaks a test.

/// `mondo stats --json`: the object.
pub(crate) const STATS: &[&str] = &["history", "player", "ratings", "solo"];

/// A row of `mondo stats --json`'s `ratings` and of `mondo leaderboard --json`.
pub(crate) const RATING_ROW: &[&str] = &[
    "deviation",
    "draws",
    "game",
    "games",
    "losses",
    "player",
    "provisional",
    "rating",
    "wins",
];

/// A solo record in `mondo stats --json`'s `solo`.
pub(crate) const SOLO: &[&str] = &[
    "best_ms",
    "game",
    "last_played",
    "played",
    "score_total",
    "solved",
    "total_ms",
];

/// A row of `mondo history --json` and of `mondo stats --json`'s `history`.
pub(crate) const HISTORY_ROW: &[&str] = &[
    "finished_at",
    "game",
    "match",
    "opponents",
    "rated",
    "rating_after",
    "rating_before",
    "rating_change",
    "result",
    "why",
    "why_text",
];

/// The terminal's `ratings` event after a rated match's `over`.
pub(crate) const RATINGS_EVENT: &[&str] = &["changes", "event", "match"];

/// One of the `ratings` event's `changes`.
pub(crate) const RATING_CHANGE: &[&str] = &[
    "player",
    "provisional",
    "rating_after",
    "rating_before",
    "rating_change",
    "result",
];

/// `mondo bench leaderboard --json`.
pub(crate) const BENCH_LEADERBOARD: &[&str] = &[
    "backend",
    "listed",
    "matches",
    "median_ms",
    "p99_ms",
    "players",
    "seed_s",
];

fn doc(name: &str) -> String {
    std::fs::read_to_string(format!("{}/docs/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The text from `from` (included) to the next `to` after it, with its whitespace
/// made single spaces (a doc's line breaks fall anywhere).
fn between(doc: &str, from: &str, to: &str) -> String {
    let doc = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    let start = doc
        .find(from)
        .unwrap_or_else(|| panic!("{from:?} not in the doc"));
    let rest = &doc[start + from.len()..];
    let end = rest
        .find(to)
        .unwrap_or_else(|| panic!("{to:?} after {from:?}"));
    rest[..end].to_string()
}

/// The field names a stretch of doc names: each `` `name` `` and each JSON key
/// `"name":`, sorted, once each.
fn names(text: &str) -> Vec<String> {
    let field = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c == '_');
    let quoted = text.split('`').skip(1).step_by(2).filter(|s| field(s));
    let keys = text
        .split('"')
        .skip(1)
        .step_by(2)
        .zip(text.split('"').skip(2).step_by(2))
        .filter(|(k, after)| field(k) && after.starts_with(':'))
        .map(|(k, _)| k);
    let mut all: Vec<String> = quoted.chain(keys).map(str::to_string).collect();
    all.sort_unstable();
    all.dedup();
    all
}

/// The names in the first column of the table that follows `after`.
fn table(doc: &str, after: &str) -> Vec<String> {
    let start = doc
        .find(after)
        .unwrap_or_else(|| panic!("{after:?} not in the doc"));
    let rows = doc[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2);
    let first: Vec<&str> = rows.filter_map(|l| l.split('|').nth(1)).collect();
    names(&first.join(" "))
}

fn sorted(pinned: &[&str]) -> Vec<String> {
    let mut all: Vec<String> = pinned.iter().map(|s| s.to_string()).collect();
    all.sort_unstable();
    all
}

/// Every pinned shape is the one its doc spells out, field for field.
#[test]
fn each_records_json_contract_is_the_one_the_docs_spell_out() {
    let ratings = doc("ratings.md");
    let operators = doc("operators.md");
    let bench = between(&ratings, "```json {\"players\"", "```");
    let bench: serde_json::Value = serde_json::from_str(&format!("{{\"players\"{bench}")).unwrap();
    let bench: Vec<&str> = bench
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    let ratings_event = between(&operators, "`{\"event\":\"ratings\"", "`:");
    let mut ratings_event = names(&format!("{{\"event\":\"ratings\"{ratings_event}"));
    ratings_event.retain(|k| !RATING_CHANGE.contains(&k.as_str()));
    let cases: [(&str, Vec<String>, &[&str]); 7] = [
        (
            "stats",
            names(&between(
                &ratings,
                "`mondo stats --json` prints one JSON object:",
                "`mondo leaderboard --json`",
            )),
            STATS,
        ),
        (
            "rating row",
            table(&ratings, "A row of either has exactly these fields:"),
            RATING_ROW,
        ),
        (
            "solo record",
            names(&between(
                &ratings,
                "(one per game practised, of `--game` only if given) has exactly these fields:",
                ".",
            )),
            SOLO,
        ),
        (
            "history row",
            table(&ratings, "Each row has exactly these fields:"),
            HISTORY_ROW,
        ),
        ("ratings event", ratings_event, RATINGS_EVENT),
        (
            "rating change",
            names(&between(&operators, "\"changes\":[{", "}]}")),
            RATING_CHANGE,
        ),
        ("bench leaderboard", sorted(&bench), BENCH_LEADERBOARD),
    ];
    for (what, documented, pinned) in cases {
        assert_eq!(documented, sorted(pinned), "{what}");
        // Sorted, as the tests that run the commands compare them.
        assert!(pinned.is_sorted(), "{what}");
    }
}
