//! Golden readings: each pattern in `tests/data/lang_readings.txt` with its canonical
//! English, symbolic form and word count (or its error). A change in how any of them
//! reads shows up as a diff. Regenerate with `MONDO_BLESS=1 cargo test --test it lang_golden`.

use crate::lang_support;

use mondo::lang::{english, parse, symbolic, word_count};

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/lang_readings.txt");

fn reading(pattern: &str) -> String {
    match parse(pattern) {
        Ok(p) => format!(
            "{pattern}\n  english:  {}\n  symbolic: {}\n  words:    {}\n",
            english(&p.formula),
            symbolic(&p.formula),
            word_count(pattern)
        ),
        Err(e) => {
            let mut s = format!("{pattern}\n  error:    {e}\n");
            for x in &e.examples {
                s.push_str(&format!("  try:      {x}\n"));
            }
            s
        }
    }
}

#[test]
fn readings_match_the_golden_file() {
    lang_support::golden(PATH, reading);
}

/// Rough speed of reading and saying back (run with `--ignored --nocapture`; the
/// figures depend on the build profile).
#[test]
#[ignore]
fn reading_speed() {
    let golden = std::fs::read_to_string(PATH).expect("golden file");
    let patterns: Vec<&str> = golden
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(' ') && !l.starts_with('#'))
        .collect();
    let rounds = 2000;
    // Reading what reads, and refusing (which reads each suggestion it offers, and
    // each close word it might).
    let (read, refused): (Vec<&str>, Vec<&str>) = patterns.iter().partition(|p| parse(p).is_ok());
    let time = |ps: &[&str], rounds: usize| {
        let start = std::time::Instant::now();
        for _ in 0..rounds {
            for p in ps {
                let _ = std::hint::black_box(parse(p));
            }
        }
        start.elapsed() / (rounds * ps.len()) as u32
    };
    let (per_parse, per_refusal) = (time(&read, rounds), time(&refused, rounds / 10));
    let parsed: Vec<_> = patterns.iter().filter_map(|p| parse(p).ok()).collect();
    let start = std::time::Instant::now();
    for _ in 0..rounds {
        for p in &parsed {
            let _ = std::hint::black_box(english(&p.formula));
        }
    }
    let per_english = start.elapsed() / (rounds * parsed.len()) as u32;
    println!(
        "parse: {per_parse:?} per pattern read, {per_refusal:?} per refusal; english (with read-back): {per_english:?}"
    );
}
