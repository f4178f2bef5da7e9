//! Phrasings that mean the same must read the same (docs/patterns.md, "Counts"), in
//! both games: each pair is read and compared by evaluation, on structures that tell
//! readings apart (pieces) or on every colouring of subsets (tiles), never by
//! comparing strings. And the one rule for the scope of `not` under `all`: each such
//! sentence is refused, offering "not every ..." and "no ...", which the evaluator
//! checks here too (the first is the negation of the sentence without its `not`, the
//! second differs from it).

use crate::lang_support;
use mondo::lang::tiles::{self, Subset, eval::Geometry};
use mondo::lang::{CompiledPattern, parse};

/// The counts players write for one number, in the frames they write them in.
const BOUNDS: &[(&str, &str)] = &[
    ("more than one", "at least two"),
    ("more than two", "at least three"),
    ("more than 2", "at least 3"),
    ("more than three", "at least four"),
    ("more than 5", "at least 6"),
    ("fewer than three", "at most two"),
    ("fewer than 4", "at most 3"),
    ("less than three", "at most two"),
    ("less than 5", "at most 4"),
];

const PIECE_FRAMES: &[&str] = &[
    "{} pieces point up",
    "there are {} small pieces",
    "{} large pieces touch a small piece",
    "every piece touches {} pieces",
    "a large piece points at {} pieces",
    "{} pieces are medium",
    "{} pieces point down or left",
];

const TILE_FRAMES: &[&str] = &[
    "there are {} red tiles",
    "{} tiles are blue",
    "{} green tiles are adjacent to a red tile",
    "every red tile is adjacent to {} blue tiles",
    "there are {} tiles that are red or yellow",
];

/// Pairs the issue names, said word for word.
const PIECE_PAIRS: &[(&str, &str)] = &[
    ("at least three pieces touch", "more than two pieces touch"),
    ("at least two pieces touch", "more than one piece touches"),
    ("fewer than 3 pieces point up", "at most 2 pieces point up"),
    (
        "there are more than 2 pieces",
        "there are at least 3 pieces",
    ),
];

const TILE_PAIRS: &[(&str, &str)] = &[
    (
        "at least two red tiles are adjacent",
        "more than one red tile is adjacent",
    ),
    (
        "there are fewer than 3 red tiles",
        "there are at most two red tiles",
    ),
    ("more than one tile is red", "at least two tiles are red"),
];

fn pairs(frames: &[&str], fixed: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = fixed
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    for f in frames {
        for (a, b) in BOUNDS {
            out.push((f.replacen("{}", a, 1), f.replacen("{}", b, 1)));
        }
    }
    out
}

#[test]
fn counts_said_two_ways_read_the_same() {
    let on = lang_support::structures(400);
    let piece_pairs = pairs(PIECE_FRAMES, PIECE_PAIRS);
    let mut failures = Vec::new();
    for (a, b) in &piece_pairs {
        match (parse(a), parse(b)) {
            (Ok(x), Ok(y)) => {
                let (x, y) = (
                    CompiledPattern::new(&x.formula),
                    CompiledPattern::new(&y.formula),
                );
                if let Some(k) = lang_support::disagreement(&x, &y, &on) {
                    failures.push(format!("{a:?} and {b:?} differ on {k:?}"));
                }
            }
            (x, y) => failures.push(format!(
                "{a:?} / {b:?}: {:?} / {:?}",
                x.err().map(|e| e.message),
                y.err().map(|e| e.message)
            )),
        }
    }
    let subsets: Vec<Subset> = ["A1-A2-B1-B2", "B1-B2-B3-C1-C2-C3", "A1-A2-A3-A4-B4"]
        .iter()
        .map(|s| s.parse().expect("subset"))
        .collect();
    let tile_pairs = pairs(TILE_FRAMES, TILE_PAIRS);
    for (a, b) in &tile_pairs {
        match (tiles::parse(a), tiles::parse(b)) {
            (Ok(x), Ok(y)) => {
                for s in &subsets {
                    let g = Geometry::new(s);
                    if g.truth_table(&x.formula) != g.truth_table(&y.formula) {
                        failures.push(format!("{a:?} and {b:?} differ on {s}"));
                    }
                }
            }
            (x, y) => failures.push(format!(
                "{a:?} / {b:?}: {:?} / {:?}",
                x.err().map(|e| e.message),
                y.err().map(|e| e.message)
            )),
        }
    }
    let n = piece_pairs.len() + tile_pairs.len();
    println!("{n} pairs read and compared");
    assert!(n >= 100, "only {n} pairs");
    assert!(
        failures.is_empty(),
        "{} of {n} pairs:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `all` with a negated verb, in the forms players write.
const SCOPE_SUBJECTS: &[&str] = &[
    "all pieces",
    "all small pieces",
    "all large pieces",
    "all the pieces",
    "all medium pieces",
    "all the small pieces",
];
const SCOPE_VERBS: &[&str] = &[
    "don't point up",
    "do not point down",
    "don't touch a large piece",
    "are not pointing down",
    "aren't pointing left",
    "do not point at a small piece",
    "don't point right",
];

#[test]
fn all_with_not_is_refused_with_both_readings() {
    let on = lang_support::structures(400);
    let verdicts = |text: &str| -> Vec<bool> {
        let p = parse(text).unwrap_or_else(|e| panic!("{text:?}: {}", e.render(text)));
        let c = CompiledPattern::new(&p.formula);
        on.iter().map(|k| c.evaluate(k)).collect()
    };
    let mut n = 0;
    let mut failures = Vec::new();
    for s in SCOPE_SUBJECTS {
        for v in SCOPE_VERBS {
            let text = format!("{s} {v}");
            n += 1;
            let e = match parse(&text) {
                Ok(_) => {
                    failures.push(format!("{text:?} reads"));
                    continue;
                }
                Err(e) => e,
            };
            if !e.message.contains("ambiguous") {
                failures.push(format!("{text:?}: {}", e.message));
                continue;
            }
            let [not_every, none] = &e.examples[..] else {
                failures.push(format!("{text:?} offers {:?}", e.examples));
                continue;
            };
            if !not_every.starts_with("not ") || !none.starts_with("no ") {
                failures.push(format!("{text:?} offers {:?}", e.examples));
                continue;
            }
            // "not every" is the negation of the sentence without its `not`.
            let positive = not_every.trim_start_matches("not ");
            let (a, b, p) = (verdicts(not_every), verdicts(none), verdicts(positive));
            if a.iter().zip(&p).any(|(x, y)| x == y) {
                failures.push(format!("{not_every:?} is not the negation of {positive:?}"));
            }
            if a == b {
                failures.push(format!("{none:?} means {not_every:?}"));
            }
        }
    }
    println!("{n} ambiguous sentences refused with both readings");
    assert!(n >= 40, "only {n}");
    assert!(
        failures.is_empty(),
        "{}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
