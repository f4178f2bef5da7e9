//! `mondo explain`, `mondo check` and `mondo pool check`, run as the built binary.

use serde_json::Value;
use std::process::{Command, Output};

fn mondo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(args)
        .output()
        .expect("the mondo binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

#[test]
fn explain_says_the_pattern_back_in_all_three_ways() {
    let o = mondo(&["explain", "There are exactly three pieces."]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with("pattern:  ") && lines[0].len() > 12,
        "{out}"
    );
    assert!(
        lines[1].starts_with("symbolic: ") && lines[1].contains("count("),
        "{out}"
    );
    assert_eq!(lines[2], "words:    5");
}

#[test]
fn explain_json_has_the_canonical_reading_which_reads_back_the_same() {
    let o = mondo(&["explain", "--json", "some piece points at a large piece"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    let obj = v.as_object().expect("an object");
    assert_eq!(obj.len(), 3, "{v}");
    let canonical = v["pattern"].as_str().expect("pattern is a string");
    let symbolic = v["symbolic"].as_str().expect("symbolic is a string");
    assert_eq!(v["words"], 7);
    // Both printed forms read back to the same canonical English.
    for form in [canonical, symbolic] {
        let again = json(&mondo(&["explain", "--json", form]));
        assert_eq!(again["pattern"], canonical, "read back from {form}");
        assert_eq!(again["symbolic"], symbolic);
    }
}

#[test]
fn explain_refuses_what_it_cannot_read_with_a_picture_and_status_2() {
    let o = mondo(&["explain", "there are exactly pieces banana"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    let err = stderr(&o);
    assert!(err.contains("there are exactly pieces banana"), "{err}");
    assert!(err.contains('^'), "a caret points at the word: {err}");

    let o = mondo(&["explain", "--json", "there are exactly pieces banana"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(json(&o)["error"].as_str().is_some_and(|e| e.contains('^')));
}

#[test]
fn explain_refuses_sizes_for_the_arrows_set() {
    let o = mondo(&["explain", "--set", "arrows", "there is a large arrow"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("arrows set"), "{}", stderr(&o));
    let o = mondo(&[
        "explain",
        "--set",
        "arrows",
        "there is an arrow pointing up",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Said back in the set's own words.
    let out = stdout(&o);
    assert!(
        out.starts_with("pattern:  there is an arrow pointing up\n"),
        "{out}"
    );
}

#[test]
fn check_says_which_structures_obey() {
    let o = mondo(&[
        "check",
        "--json",
        "--pattern",
        "there are exactly three pieces",
        "1^ 2> 3v",
        "1^ / 2>",
        "..  3v\n1^ 2> ",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert!(v["pattern"].is_string());
    let results = v["results"].as_array().expect("results");
    let got: Vec<(&str, bool)> = results
        .iter()
        .map(|r| {
            assert_eq!(r.as_object().map(|o| o.len()), Some(2), "{r}");
            (r["koan"].as_str().unwrap(), r["obeys"].as_bool().unwrap())
        })
        .collect();
    assert_eq!(
        got,
        [
            ("1^ 2> 3v", true),
            ("1^\n2>", false),
            (".. 3v\n1^ 2>", true)
        ]
    );

    let o = mondo(&[
        "check",
        "--pattern",
        "some piece points at a large piece",
        "1> .. 3^",
        "1< 3^",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("pattern: "));
    assert_eq!(lines[1], "obeys          1> .. 3^");
    assert_eq!(lines[2], "does not obey  1< 3^");
}

#[test]
fn check_refuses_bad_structures_and_patterns() {
    let o = mondo(&[
        "check",
        "--pattern",
        "there is a small piece",
        "1^",
        "1^ 4>",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    let err = stderr(&o);
    assert!(err.contains("structure 2") && err.contains("4>"), "{err}");
    assert!(!err.contains("structure 1"), "{err}");

    let o = mondo(&["check", "--pattern", "there is a small piece", "U D"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--set arrows"), "{}", stderr(&o));
    let o = mondo(&[
        "check",
        "--set",
        "arrows",
        "--json",
        "--pattern",
        "there is an arrow pointing up",
        "U D",
        "L",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["results"][0]["obeys"], true);
    assert_eq!(v["results"][1]["obeys"], false);
    assert_eq!(v["results"][0]["koan"], "U D");
    assert_eq!(v["pattern"], "there is an arrow pointing up");

    let o = mondo(&["check", "--pattern", "every piece is purple", "1^"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("purple") && err.contains("^^"), "{err}");
}

#[test]
fn pool_check_summarises_the_shipped_pools() {
    let root = env!("CARGO_MANIFEST_DIR");
    let pyramids = format!("{root}/config/pools/pyramids.toml");
    let arrows = format!("{root}/config/pools/arrows.toml");
    let o = mondo(&["pool", "check", &pyramids, &arrows]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with(&format!("{pyramids}: ")), "{out}");
    assert!(lines[0].contains(" entries: pyramids "), "{out}");
    assert!(
        lines[0].contains("easy ") && lines[0].contains("hard "),
        "{out}"
    );
    assert!(lines[1].contains(" entries: arrows "), "{out}");
}

#[test]
fn pool_check_lists_every_problem_and_exits_2() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("broken-pool.toml");
    std::fs::write(
        &path,
        r#"set = "pyramids"

[[entry]]
id = "swapped"
pattern = "there is a small piece"
obeys = "2^"
does_not_obey = "1^"
difficulty = "easy"

[[entry]]
id = "swapped"
pattern = "there is a small piece"
obeys = "1^"
does_not_obey = "2^"
difficulty = "trivial"
"#,
    )
    .expect("write a temporary pool");
    let o = mondo(&["pool", "check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 5, "{err}");
    assert!(
        lines[0].contains("line 6, entry `swapped`: the `obeys` structure does not obey"),
        "{err}"
    );
    assert!(
        lines[1].contains("line 7, entry `swapped`: the `does_not_obey` structure obeys"),
        "{err}"
    );
    assert!(
        lines[2].contains("line 11, entry `swapped`: id `swapped` is already used at line 4"),
        "{err}"
    );
    assert!(
        lines[3].contains("line 15, entry `swapped`: unknown difficulty `trivial`"),
        "{err}"
    );
    assert!(lines[4].ends_with("4 problems"), "{err}");

    let o = mondo(&[
        "pool",
        "check",
        dir.join("no-such-pool.toml").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot read the pool"),
        "{}",
        stderr(&o)
    );
    // A file that never ends is refused at the size limit, not read for ever.
    let o = mondo(&["pool", "check", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is larger than"), "{}", stderr(&o));
}

/// What `mondo explain` shows for a refusal is `lang::Refusal::render`, the one
/// rendering every front calls (reason, hints, corrected patterns that read).
#[test]
fn explain_shows_a_refusal_as_every_front_renders_it() {
    use mondo::koan::PieceSet;
    for (text, set) in [
        ("every piece is next to a large piece", "pyramids"),
        ("two pieces point up", "pyramids"),
        ("there is a large arrow", "arrows"),
    ] {
        let o = mondo(&["explain", "--set", set, text]);
        assert_eq!(o.status.code(), Some(2));
        let set: PieceSet = set.parse().expect("a set");
        let refusal = mondo::lang::read_for(text, set).expect_err("refused");
        assert_eq!(stderr(&o), format!("{}\n", refusal.render(text)));
    }
    let o = mondo(&["explain", "every piece is next to a large piece"]);
    assert!(
        stderr(&o).contains("try: every piece touches a large piece"),
        "{}",
        stderr(&o)
    );
}
