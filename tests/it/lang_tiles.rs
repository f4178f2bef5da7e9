//! Logical Bluffs statements as players write them (`tests/data/tiles_statements.txt`):
//! each reads, and means what its symbolic twin means on every colouring of random
//! subsets (4 to 8 connected tiles, among them ones with 2x2 squares); the canonical
//! English the umpire says back reads back to the same meaning. The refusals
//! (`tests/data/tiles_refusals.txt`) are refused for the reason they give, and every
//! suggestion a refusal makes reads and can be both true and false.
//!
//! `cargo test --test it lang_tiles -- --nocapture` prints the figures.

use crate::lang_support;
use mondo::lang::tiles::{self, Subset, eval::Geometry};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const STATEMENTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/tiles_statements.txt"
);

fn cases(path: &str, sep: &str) -> Vec<(usize, String, String)> {
    let text = std::fs::read_to_string(path).expect("data file");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let (a, b) = l
                .split_once(sep)
                .unwrap_or_else(|| panic!("{path}:{}: `a{sep}b`", i + 1));
            (i + 1, a.trim().to_string(), b.trim().to_string())
        })
        .collect()
}

/// Connected subsets of 4 to 8 tiles, grown from random tiles (seeded), and a few
/// fixed ones with 2x2 squares, full rows and full columns.
fn subsets() -> Vec<Subset> {
    let mut out: Vec<Subset> = [
        "B1-B2-B3-B4-C1-C2-C3-C4",
        "A1-A2-B1-B2",
        "A1-A2-A3-B1-B2-B3",
        "A1-B1-C1-D1-D2",
        "A2-B1-B2-B3-C2",
        "A1-A2-A3-A4-B4-C4-D4",
    ]
    .iter()
    .map(|s| s.parse().expect("subset"))
    .collect();
    let mut rng = StdRng::seed_from_u64(27);
    while out.len() < 16 {
        let size = rng.random_range(4..=8);
        let mut cells = vec![(rng.random_range(0..4u8), rng.random_range(0..4u8))];
        while cells.len() < size {
            let (r, c) = cells[rng.random_range(0..cells.len())];
            let (dr, dc) = [(0i8, 1i8), (1, 0), (0, -1), (-1, 0)][rng.random_range(0..4)];
            let (nr, nc) = (r as i8 + dr, c as i8 + dc);
            if (0..4).contains(&nr)
                && (0..4).contains(&nc)
                && !cells.contains(&(nr as u8, nc as u8))
            {
                cells.push((nr as u8, nc as u8));
            }
        }
        let text: Vec<String> = cells
            .iter()
            .map(|(r, c)| format!("{}{}", (b'A' + r) as char, c + 1))
            .collect();
        out.push(text.join("-").parse().expect("a connected subset"));
    }
    out
}

/// The first subset on which the two statements' truth tables differ.
fn differ<'a>(
    a: &tiles::ast::Formula,
    b: &tiles::ast::Formula,
    on: &'a [Subset],
) -> Option<&'a Subset> {
    on.iter().find(|s| {
        let g = Geometry::new(s);
        g.truth_table(a) != g.truth_table(b)
    })
}

#[test]
fn every_statement_reads_as_its_twin_and_is_said_back_so() {
    let cases = cases(STATEMENTS, "  =>  ");
    let on = subsets();
    let mut failures = Vec::new();
    let mut read = 0;
    let (mut longest, mut longer) = (0, Vec::new());
    for (line, text, twin) in &cases {
        let t = tiles::parse_symbolic(twin)
            .unwrap_or_else(|e| panic!("line {line}: twin: {}", e.render(twin)));
        let s = match tiles::parse(text) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("line {line}: {text:?} is refused: {e}"));
                continue;
            }
        };
        read += 1;
        if let Some(sub) = differ(&s.formula, &t.formula, &on) {
            failures.push(format!(
                "line {line}: {text:?} read as `{}`, not `{twin}`: they differ on {sub}",
                tiles::symbolic(&s.formula)
            ));
            continue;
        }
        let said = tiles::english(&s.formula);
        let (words, said_words) = (
            mondo::lang::word_count(text),
            tiles::english_words(&s.formula),
        );
        longest = longest.max(said_words);
        if said_words > words.max(tiles::MAX_WORDS) {
            longer.push(format!(
                "line {line}: {text:?} ({words} words) is said in {said_words}: {said:?}"
            ));
        }
        match tiles::parse_english(&said) {
            Ok(again) => {
                if let Some(sub) = differ(&s.formula, &again.formula, &on) {
                    failures.push(format!(
                        "line {line}: said back as {said:?}, which differs on {sub}"
                    ));
                }
            }
            Err(e) => failures.push(format!(
                "line {line}: said back as {said:?}, which is refused: {e}"
            )),
        }
    }
    println!("{read} of {} statements read", cases.len());
    println!("canonical English: at most {longest} words");
    assert!(cases.len() >= 150, "only {} statements", cases.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // What the umpire says back is what the word limit counts: a statement within
    // the limit as written stays within it as said.
    assert!(
        longer.is_empty(),
        "said back longer:\n{}",
        longer.join("\n")
    );
}

const REFUSALS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tiles_refusals.txt");

/// Whether a statement can be both true and false on the subset.
fn says_something(f: &tiles::ast::Formula, on: &Subset) -> bool {
    Geometry::new(on)
        .truth_table(f)
        .is_some_and(|t| !t.always() && !t.never())
}

/// Rewordings that change more than the refused phrase and still mean what was
/// typed (one of its readings), each checked by hand.
const REWORDED_BY_HAND: &[(&str, &str)] = &[
    (
        "either a tile is red or a tile is blue",
        "either a tile is red or a tile is blue but not both",
    ),
    (
        "red is the most common colour",
        "red appears more often than any other colour",
    ),
    (
        "there are more red tiles than any other colour",
        "red appears more often than any other colour",
    ),
];

#[test]
fn every_refusal_is_for_its_reason_and_offers_only_rewordings_that_mean_it() {
    let text = std::fs::read_to_string(REFUSALS).expect("refusals");
    let mut failures = Vec::new();
    let (mut count, mut offered) = (0, 0);
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.splitn(3, " | ").collect();
        let [kind, subset, statement] = parts[..] else {
            panic!("line {}: `kind | subset | statement`", i + 1);
        };
        count += 1;
        let on: Subset = subset.parse().expect("subset");
        let line = i + 1;
        if kind == "unreadable" {
            let e = match tiles::parse(statement) {
                Ok(s) => {
                    failures.push(format!(
                        "line {line}: {statement:?} reads as {:?}",
                        tiles::english(&s.formula)
                    ));
                    continue;
                }
                Err(e) => e,
            };
            // The refusal names a word of the statement.
            if e.span.is_empty()
                || statement
                    .get(e.span.clone())
                    .is_none_or(|w| w.trim().is_empty())
            {
                failures.push(format!(
                    "line {line}: {statement:?}: the refusal names no word ({e})"
                ));
            }
            for x in &e.examples {
                offered += 1;
                if !lang_support::keeps_the_rest(statement, &e.span, x)
                    && !REWORDED_BY_HAND.contains(&(statement, x.as_str()))
                {
                    failures.push(format!(
                        "line {line}: the rewording {x:?} changes more than the refused `{}`",
                        &statement[e.span.clone()]
                    ));
                }
                match tiles::parse_english(x) {
                    Ok(s) if says_something(&s.formula, &on) => {}
                    Ok(_) => failures.push(format!(
                        "line {line}: the rewording {x:?} says nothing on {on}"
                    )),
                    Err(e) => {
                        failures.push(format!("line {line}: the rewording {x:?} is refused: {e}"))
                    }
                }
            }
            continue;
        }
        let s = match tiles::parse(statement) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!(
                    "line {line}: {statement:?} is refused as unreadable: {e}"
                ));
                continue;
            }
        };
        let v = tiles::check(&s, &on, tiles::MAX_WORDS).expect("a subset of at most 8 tiles");
        let reason = v.reason.unwrap_or_default();
        let want = match kind {
            "uninvolved" => "does not involve",
            "always" => "always true",
            "never" => "always false",
            "long" => "words; at most",
            "region" => "has none",
            "named" => "not in the subset",
            "whole" => "it speaks of",
            other => panic!("line {line}: unknown kind {other}"),
        };
        if v.valid || !reason.contains(want) {
            failures.push(format!(
                "line {line}: {statement:?} on {on}: {reason:?}, not `{want}`"
            ));
        }
    }
    println!("{count} refusals, {offered} rewordings offered, each read and checked");
    assert!(count >= 40, "only {count} refusals");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A refusal for words with several readings (`next to`, `either ... or`) stands only
/// where the readings differ on the statement's subset: on a subset in one row `next
/// to` is sharing an edge either way, and `either A or B` whose parts cannot both hold
/// there is one meaning. Read so, it means what its twin means on every colouring;
/// elsewhere the refusal offers the readings, as without a subset.
#[test]
fn an_ambiguity_whose_readings_agree_on_the_subset_reads() {
    let cases: &[(&str, &str, Option<&str>)] = &[
        (
            "C1-C2-C3-C4",
            "there are two green tiles next to each other",
            Some("exists x y. x != y & green(x) & green(y) & orth_adjacent(x, y)"),
        ),
        (
            "A3-B3-C3-D3",
            "every red tile is beside a blue tile",
            Some("forall x. red(x) -> exists y. blue(y) & orth_adjacent(x, y)"),
        ),
        (
            "A1-A2-B1-B2",
            "there are two green tiles next to each other",
            None,
        ),
        (
            "A1-A2-B1-B2",
            "either all tiles are red or all tiles are blue",
            Some("(forall x. red(x)) | forall x. blue(x)"),
        ),
        (
            "A1-A2-B1-B2",
            "either exactly three tiles are red or exactly two tiles are blue",
            Some("count(x: red(x)) = 3 | count(x: blue(x)) = 2"),
        ),
        (
            "A1-A2-A3-B1-B2-B3",
            "either exactly three tiles are red or exactly two tiles are blue",
            None,
        ),
        (
            "A1-A2-B1-B2",
            "either exactly two tiles are red or exactly two tiles are blue",
            None,
        ),
    ];
    for (subset, text, twin) in cases {
        let on: Subset = subset.parse().expect("subset");
        assert!(tiles::parse(text).is_err(), "{text:?} reads with no subset");
        match (tiles::parse_on(text, &on), twin) {
            (Ok(s), Some(twin)) => {
                let twin = tiles::parse_symbolic(twin).expect("twin");
                let g = Geometry::new(&on);
                assert!(
                    g.truth_table(&s.formula) == g.truth_table(&twin.formula),
                    "{text:?} on {on} reads as {}",
                    tiles::symbolic(&s.formula)
                );
                assert_eq!(s.source, *text);
            }
            (Err(e), None) => assert_eq!(e.examples.len(), 2, "{text:?} on {on}: {e:?}"),
            (Ok(s), None) => panic!("{text:?} on {on} reads as {}", tiles::symbolic(&s.formula)),
            (Err(e), Some(_)) => panic!("{text:?} on {on} is refused: {e}"),
        }
    }
}
