//! Golden refusals (`tests/data/lang_refusals.txt`): each pattern is refused with its
//! reason and the corrected patterns offered (none where no rewording means what was
//! typed); every offered pattern is read and must be neither always true nor always
//! false (it says something a player could mean), which is checked here on
//! structures, independently of the reader's own check, and keeps every word outside
//! the refused phrase (it means what was typed, with the refused words made plain).
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

/// Rewordings that change more than the refused word and still mean what was typed
/// (one of its readings), each checked by hand.
const REWORDED_BY_HAND: &[(&str, &str)] = &[
    (
        "the majority of the pieces point left",
        "more than half of the pieces point left",
    ),
    (
        "between 2 and 4 pieces point up",
        "at least 2 and at most 4 pieces point up",
    ),
];

#[test]
fn refusals_match_the_golden_file_and_every_suggestion_reads() {
    let patterns = lang_support::golden(PATH, refusal);
    let on = lang_support::structures(600);
    let mut checked = 0;
    let mut changed = Vec::new();
    for p in &patterns {
        let e = parse(p).expect_err(&format!("{p:?} is refused"));
        for x in &e.examples {
            if !lang_support::keeps_the_rest(p, &e.span, x)
                && !REWORDED_BY_HAND.contains(&(p.as_str(), x.as_str()))
            {
                changed.push(format!(
                    "{p:?} offers {x:?}, which changes more than the refused `{}`",
                    &p[e.span.clone()]
                ));
            }
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
    assert!(changed.is_empty(), "{}", changed.join("\n"));
    println!(
        "{} refusals, {checked} suggestions checked to read and say something",
        patterns.len()
    );
}
