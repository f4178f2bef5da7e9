//! Golden readings: each pattern in `tests/data/lang_readings.txt` with its canonical
//! English, symbolic form and word count (or its error). A change in how any of them
//! reads shows up as a diff. Regenerate with `MONDO_BLESS=1 cargo test --test lang_golden`.

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
    let golden = std::fs::read_to_string(PATH).expect("golden file");
    let patterns: Vec<&str> = golden
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(' ') && !l.starts_with('#'))
        .collect();
    let header: String = golden
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let fresh = header
        + &patterns
            .iter()
            .map(|p| reading(p) + "\n")
            .collect::<String>();
    if std::env::var_os("MONDO_BLESS").is_some() {
        std::fs::write(PATH, &fresh).expect("write golden file");
        return;
    }
    let (g, f): (Vec<_>, Vec<_>) = (golden.lines().collect(), fresh.lines().collect());
    for (a, b) in g.iter().zip(&f) {
        assert_eq!(a, b, "golden reading changed (MONDO_BLESS=1 to accept)");
    }
    assert_eq!(g.len(), f.len());
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
    let start = std::time::Instant::now();
    for _ in 0..rounds {
        for p in &patterns {
            let _ = std::hint::black_box(parse(p));
        }
    }
    let per_parse = start.elapsed() / (rounds * patterns.len()) as u32;
    let parsed: Vec<_> = patterns.iter().filter_map(|p| parse(p).ok()).collect();
    let start = std::time::Instant::now();
    for _ in 0..rounds {
        for p in &parsed {
            let _ = std::hint::black_box(english(&p.formula));
        }
    }
    let per_english = start.elapsed() / (rounds * parsed.len()) as u32;
    println!("parse: {per_parse:?} per pattern; english (with read-back): {per_english:?}");
}
