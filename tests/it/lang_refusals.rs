//! Golden refusals (`tests/data/lang_refusals.txt`): each pattern is refused with its
//! reason and the corrected patterns offered (at least one); every offered pattern is read and must
//! be neither always true nor always false (it says something a player could mean),
//! which is checked here on structures, independently of the reader's own check.
//! Regenerate with `MONDO_BLESS=1 cargo test --test it lang_refusals`.

use crate::lang_support;

use mondo::lang::{CompiledPattern, parse, symbolic};

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/lang_refusals.txt");

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
    let patterns = lang_support::golden(PATH, refusal);
    let on = lang_support::structures(600);
    let mut checked = 0;
    for p in &patterns {
        let e = parse(p).expect_err(&format!("{p:?} is refused"));
        assert!(
            !e.examples.is_empty(),
            "{p:?}: the refusal offers no rewording ({e})"
        );
        for x in &e.examples {
            let back = parse(x)
                .unwrap_or_else(|err| panic!("{p:?} offers {x:?}, which does not read: {err}"));
            let c = CompiledPattern::new(&back.formula);
            assert!(
                lang_support::says_something(&c, &on),
                "{p:?} offers {x:?}, which is always {}",
                c.evaluate(&on[0])
            );
            checked += 1;
        }
    }
    println!(
        "{} refusals, {checked} suggestions checked to read and say something",
        patterns.len()
    );
}
