//! Golden refusals (`tests/data/lang_refusals.txt`): each pattern is refused with its
//! reason and the corrected patterns offered; every offered pattern is read and must
//! be neither always true nor always false (it says something a player could mean),
//! which is checked here on structures, independently of the reader's own check.
//! Regenerate with `MONDO_BLESS=1 cargo test --test lang_refusals`.

use mondo::koan::enumerate::koans;
use mondo::koan::{Koan, PieceSet};
use mondo::lang::{CompiledPattern, parse, random, symbolic};
use rand::SeedableRng;
use rand::rngs::StdRng;

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/lang_refusals.txt");

fn structures() -> Vec<Koan> {
    let set = PieceSet::Pyramids;
    let mut out: Vec<Koan> = (1..=2).flat_map(|n| koans(set, n)).collect();
    for &p in set.pieces() {
        for (h, w) in [(2, 2), (3, 3), (6, 6)] {
            let cells = (0..h).flat_map(|r| (0..w).map(move |c| (r, c, p)));
            out.push(Koan::new(set, cells).expect("a block"));
        }
    }
    let mut rng = StdRng::seed_from_u64(99);
    out.extend((0..600).map(|i| random::koan(&mut rng, set, 3 + i % 34)));
    out
}

fn refusal(pattern: &str) -> String {
    match parse(pattern) {
        Ok(p) => format!(
            "{pattern}\n  NOT REFUSED: read as {}\n",
            symbolic(&p.formula)
        ),
        Err(e) => {
            let mut s = format!("{pattern}\n  error:    {e}\n");
            if let Some(h) = &e.help {
                s.push_str(&format!("  help:     {h}\n"));
            }
            for x in &e.examples {
                s.push_str(&format!("  try:      {x}\n"));
            }
            s
        }
    }
}

#[test]
fn refusals_match_the_golden_file_and_every_suggestion_reads() {
    let golden = std::fs::read_to_string(PATH).expect("golden refusals");
    let header: String = golden
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let patterns: Vec<&str> = golden
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(' ') && !l.starts_with('#'))
        .collect();
    let fresh = header
        + &patterns
            .iter()
            .map(|p| refusal(p) + "\n")
            .collect::<String>();
    if std::env::var_os("MONDO_BLESS").is_some() {
        std::fs::write(PATH, &fresh).expect("write golden file");
    } else {
        let (g, f): (Vec<_>, Vec<_>) = (golden.lines().collect(), fresh.lines().collect());
        for (a, b) in g.iter().zip(&f) {
            assert_eq!(a, b, "golden refusal changed (MONDO_BLESS=1 to accept)");
        }
        assert_eq!(g.len(), f.len());
    }
    let on = structures();
    let mut checked = 0;
    for p in &patterns {
        let e = parse(p).expect_err(&format!("{p:?} is refused"));
        for x in &e.examples {
            let back = parse(x)
                .unwrap_or_else(|err| panic!("{p:?} offers {x:?}, which does not read: {err}"));
            let c = CompiledPattern::new(&back.formula);
            let first = c.evaluate(&on[0]);
            assert!(
                on.iter().any(|k| c.evaluate(k) != first),
                "{p:?} offers {x:?}, which is always {first}"
            );
            checked += 1;
        }
    }
    println!(
        "{} refusals, {checked} suggestions checked to read and say something",
        patterns.len()
    );
}
