//! Shared by the pattern-language tests: structures that tell readings apart, and
//! golden files.
#![allow(dead_code)]

use mondo::koan::enumerate::koans;
use mondo::koan::{Koan, PieceSet};
use mondo::lang::{CompiledPattern, random};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// Every structure of one and two pieces, blocks of one piece (so that "every piece
/// touches two small pieces" can hold), and `random` random ones of 3 to 36 pieces
/// (seeded).
pub fn structures(random_ones: usize) -> Vec<Koan> {
    let set = PieceSet::Pyramids;
    let mut out: Vec<Koan> = (1..=2).flat_map(|n| koans(set, n)).collect();
    for &p in set.pieces() {
        for (h, w) in [(1, 3), (3, 1), (2, 2), (2, 3), (3, 3), (6, 6)] {
            let cells = (0..h).flat_map(|r| (0..w).map(move |c| (r, c, p)));
            out.push(Koan::new(set, cells).expect("a block"));
        }
    }
    let mut rng = StdRng::seed_from_u64(2024);
    out.extend((0..random_ones).map(|i| random::koan(&mut rng, set, 3 + i % 34)));
    out
}

/// Whether the pattern holds of some structures and not of others.
pub fn says_something(pattern: &CompiledPattern, on: &[Koan]) -> bool {
    let first = pattern.evaluate(&on[0]);
    on.iter().any(|k| pattern.evaluate(k) != first)
}

/// The first structure on which the two disagree.
pub fn disagreement<'a>(
    a: &CompiledPattern,
    b: &CompiledPattern,
    on: &'a [Koan],
) -> Option<&'a Koan> {
    on.iter().find(|k| a.evaluate(k) != b.evaluate(k))
}

/// A golden file of patterns, one per line (with `#` header lines and indented
/// results): its patterns, and whether `fresh` (the header plus `render` of each)
/// matches it. With `MONDO_BLESS` set, writes `fresh` instead.
pub fn golden(path: &str, render: impl Fn(&str) -> String) -> Vec<String> {
    let golden = std::fs::read_to_string(path).expect("golden file");
    let patterns: Vec<String> = golden
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(' ') && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    let header: String = golden
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let fresh = header
        + &patterns
            .iter()
            .map(|p| render(p) + "\n")
            .collect::<String>();
    if std::env::var_os("MONDO_BLESS").is_some() {
        std::fs::write(path, &fresh).expect("write golden file");
        return patterns;
    }
    let (g, f): (Vec<_>, Vec<_>) = (golden.lines().collect(), fresh.lines().collect());
    for (a, b) in g.iter().zip(&f) {
        assert_eq!(a, b, "golden file {path} changed (MONDO_BLESS=1 to accept)");
    }
    assert_eq!(g.len(), f.len());
    patterns
}

/// Whether a rewording offered for `text`, refused at `span`, keeps every word
/// written outside the refused phrase (so it changes only what was refused: a
/// misspelt word put right, an ambiguous phrase replaced by one of its readings),
/// but for a verb `is` / `are` or an article that the new words stand in for.
pub fn keeps_the_rest(text: &str, span: &std::ops::Range<usize>, rewording: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let mut left = words(rewording);
    let outside = [
        words(text.get(..span.start).unwrap_or("")),
        words(text.get(span.end..).unwrap_or("")),
    ]
    .concat();
    let mut missing = 0;
    for w in outside {
        match left.iter().position(|x| *x == w) {
            Some(i) => {
                left.remove(i);
            }
            None if matches!(w.as_str(), "is" | "are" | "a" | "an" | "the") => missing += 1,
            None => return false,
        }
    }
    missing <= 1
}
