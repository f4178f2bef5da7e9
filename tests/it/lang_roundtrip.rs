//! Property tests: printing then reading gives the same pattern, the English and the
//! symbolic forms agree, and no input makes the reader panic.

use mondo::koan::{Koan, PieceSet};
use mondo::lang::random::{self, GenConfig};
use mondo::lang::{
    Formula, english, evaluate, natural_english, parse, parse_english, parse_symbolic, same_tree,
    symbolic,
};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;

fn koans(seed: u64, set: PieceSet, n: usize) -> Vec<Koan> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n).map(|_| random::koan(&mut rng, set, 8)).collect()
}

fn agree(a: &Formula, b: &Formula, koans: &[Koan]) -> Result<(), TestCaseError> {
    for k in koans {
        prop_assert_eq!(evaluate(a, k), evaluate(b, k), "disagree on {:?}", k);
    }
    Ok(())
}

fn random_formula(seed: u64, set: PieceSet) -> Formula {
    let mut rng = StdRng::seed_from_u64(seed);
    let cfg = GenConfig {
        set,
        ..GenConfig::default()
    };
    random::formula_with_arithmetic(&mut rng, &cfg)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn symbolic_round_trip_is_exact(seed in any::<u64>()) {
        let f = random_formula(seed, PieceSet::Pyramids);
        let text = symbolic(&f);
        let back = parse_symbolic(&text).map_err(|e| TestCaseError::fail(format!("{text}\n{}", e.render(&text))))?;
        prop_assert!(same_tree(&f, &back.formula), "{} read back as {}", text, symbolic(&back.formula));
    }

    #[test]
    fn english_reads_back_equivalent(seed in any::<u64>()) {
        let f = random_formula(seed, PieceSet::Pyramids);
        let text = english(&f);
        let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{text}\n{}", e.render(&text))))?;
        agree(&f, &back.formula, &koans(seed, PieceSet::Pyramids, 30))?;
    }

    #[test]
    fn english_and_symbolic_forms_agree(seed in any::<u64>()) {
        let f = random_formula(seed, PieceSet::Arrows);
        let e = parse(&english(&f)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let s = parse(&symbolic(&f)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        agree(&e.formula, &s.formula, &koans(seed, PieceSet::Arrows, 30))?;
    }

    #[test]
    fn reading_never_panics(text in "\\PC{0,60}") {
        let _ = parse(&text);
    }

    /// Word salad from the vocabulary reaches deep into both grammars; whatever
    /// reads must say itself back.
    #[test]
    fn word_salad_never_panics_and_reads_back(words in prop::collection::vec(prop::sample::select(VOCABULARY), 0..14)) {
        let text = words.join(" ");
        if let Ok(p) = parse(&text) {
            let e = english(&p.formula);
            let back = parse(&e).map_err(|err| TestCaseError::fail(format!("{text} -> {e}: {err}")))?;
            prop_assert!(mondo::lang::same_reading(&p.formula, &back.formula), "{} -> {}", text, e);
            let s = parse_symbolic(&symbolic(&p.formula)).map_err(|err| TestCaseError::fail(err.to_string()))?;
            prop_assert!(same_tree(&p.formula, &s.formula));
        }
    }
}

const VOCABULARY: &[&str] = &[
    "every",
    "some",
    "a",
    "no",
    "exactly",
    "at",
    "least",
    "most",
    "two",
    "one",
    "only",
    "the",
    "unique",
    "there",
    "is",
    "are",
    "piece",
    "pieces",
    "small",
    "large",
    "topmost",
    "other",
    "another",
    "points",
    "point",
    "pointing",
    "up",
    "down",
    "or",
    "and",
    "not",
    "does",
    "touches",
    "touching",
    "that",
    "above",
    "in",
    "same",
    "row",
    "as",
    "size",
    "direction",
    "number",
    "of",
    "total",
    "pips",
    "odd",
    "if",
    "then",
    "either",
    "but",
    "both",
    "(",
    ")",
    "forall",
    "exists",
    "x",
    "y",
    ".",
    "up(x)",
    "touches(x, y)",
    "&",
    "|",
    "->",
    "count(x:",
    "=",
    "3",
    "more",
    "than",
    "it",
    "case",
    "all",
    "width",
    "+",
    "connected",
    "structure",
    // The forms people use (docs/patterns.md, "How people say it").
    "each",
    "other",
    "they",
    "unless",
    "half",
    "twice",
    "never",
    "groups",
    "sizes",
    "as",
    "many",
    "none",
    "nothing",
    "everything",
    "something",
    "any",
    "must",
    "has",
    "pips",
    "zero",
    "isolated",
    "sideways",
    "big",
    "pointed",
    "by",
    "back",
    "multiple",
    "single",
    "group",
    "form",
    "different",
    "wide",
    "taller",
    "square",
    "koan",
    "I",
    "think",
    "\"",
    "?",
    "!",
    ",",
    "&",
    "if",
];

#[test]
fn some_random_formulas_have_natural_english() {
    let n = (0..2000)
        .filter(|&s| natural_english(&random_formula(s, PieceSet::Pyramids)).is_some())
        .count();
    println!("{n} of 2000 random formulas print as natural English");
    assert!(n > 50, "only {n} of 2000");
    let _ = parse_english;
}
