//! How the umpire reads one statement of a bluff: the statement language's own checks
//! (`tiles::check`), and what the rules add to them.
//!
//! - The opponent reads every statement in its canonical English reading, never as
//!   it was typed: a statement whose reading is not plain English (the printer falls
//!   back to notation where English has no words) is refused, with the reading shown.
//! - The word limit counts words: as written for a statement written in English, and
//!   in its English reading for one typed in notation (which has no words of its
//!   own), so notation does not slip past the limit.
//! - With No Limit a subset may have up to all 16 tiles, more than the exact check
//!   enumerates (4^8 colourings): then each tile's involvement is shown by a witness,
//!   a colouring of the other tiles in which that tile's colour changes the truth,
//!   searched for in a fixed order of colourings (the same statement always gets the
//!   same verdict). A tile with no witness found is not accepted as involved: the
//!   statement is refused, naming it.

use crate::lang::ParsePatternError;
use crate::lang::tiles::ast::{Formula, FormulaKind, Term, TermKind};
use crate::lang::tiles::eval::{Geometry, MAX_CHECKED};
use crate::lang::tiles::{self, Cell, Statement, Subset, Verdict};
use crate::lang::word_count;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Work allowed for the witness search of one statement (evaluation steps, roughly:
/// the exact check's own bound).
const MAX_STEPS: u64 = 1 << 25;
/// The most colourings the witness search tries.
const MAX_COLOURINGS: u64 = 4096;
/// Fewer colourings than this in the budget: too complex to check.
const MIN_COLOURINGS: u64 = 64;

/// Reads `text` and checks it as a statement about `subset` under a limit of
/// `max_words`: the statement and the umpire's verdict (with every reason it is
/// refused); an error only when it does not read.
pub fn judge(
    text: &str,
    subset: &Subset,
    max_words: usize,
) -> Result<(Statement, Verdict), ParsePatternError> {
    let statement = tiles::parse_on(text, subset)?;
    // Notation reads only where English does not.
    let typed_english = tiles::parse_english_on(text, subset).is_ok();
    // Notation is counted on its reading, below.
    let limit = if typed_english { max_words } else { usize::MAX };
    let mut verdict = if subset.len() <= MAX_CHECKED {
        match tiles::check(&statement, subset, limit) {
            Ok(v) => v,
            Err(_) => large(&statement, subset, limit),
        }
    } else {
        large(&statement, subset, limit)
    };
    let mut first = Vec::new();
    if !typed_english {
        verdict.words = word_count(&verdict.statement);
        if verdict.words > max_words {
            first.push(format!(
                "its English reading “{}” has {} words; at most {max_words} are allowed \
                 (a statement in notation is counted by its reading)",
                verdict.statement, verdict.words
            ));
        }
    }
    if tiles::parse_english(&verdict.statement).is_err() {
        first.push(format!(
            "it reads as “{}”, which is not plain English (your opponent reads every \
             statement in English): say it in words",
            verdict.statement
        ));
    }
    if !first.is_empty() {
        first.extend(verdict.reason.take());
        verdict.reason = Some(first.join("; "));
        verdict.valid = false;
    }
    Ok((statement, verdict))
}

/// The checks on a subset larger than the exact check takes: words, regions, and
/// each tile's involvement by a witness.
fn large(statement: &Statement, subset: &Subset, max_words: usize) -> Verdict {
    let f = &statement.formula;
    let g = Geometry::new(subset);
    let (words, mut reasons) = tiles::form_reasons(statement, &g, subset, max_words);
    let n = g.len();
    let per_colouring = cost(f, n as u64).saturating_mul(1 + 3 * n as u64);
    let colourings = (MAX_STEPS / per_colouring.max(1)).min(MAX_COLOURINGS);
    let mut uninvolved = Vec::new();
    let checked = colourings >= MIN_COLOURINGS;
    if checked {
        uninvolved = unwitnessed(&g, f, statement, subset, colourings);
        if !uninvolved.is_empty() {
            let list: Vec<String> = uninvolved.iter().map(Cell::to_string).collect();
            reasons.push(format!(
                "the umpire found no colouring of the other tiles in which the colour of {} \
                 changes whether it is true (a subset of more than {MAX_CHECKED} tiles is \
                 checked on {colourings} colourings, not all of them): a statement must \
                 involve every tile",
                list.join(", ")
            ));
        }
    } else {
        reasons.push(format!(
            "it is too complex to check on {n} tiles: it nests so many tiles inside each \
             other that the umpire cannot try enough colourings in time; say it with fewer \
             tiles nested in each other"
        ));
    }
    Verdict {
        statement: tiles::english(f),
        symbolic: tiles::symbolic(f),
        words,
        valid: reasons.is_empty(),
        uninvolved,
        reason: (!reasons.is_empty()).then(|| reasons.join("; ")),
        checked,
    }
}

/// The tiles for which no witness was found among `colourings` colourings, drawn in
/// an order fixed by the statement and the subset.
fn unwitnessed(
    g: &Geometry,
    f: &Formula,
    statement: &Statement,
    subset: &Subset,
    colourings: u64,
) -> Vec<Cell> {
    let n = g.len();
    let mut open: Vec<usize> = (0..n).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(fingerprint(statement, subset));
    let mut colours = vec![0u8; n];
    for _ in 0..colourings {
        if open.is_empty() {
            break;
        }
        for c in colours.iter_mut() {
            *c = rng.random_range(0..4u8);
        }
        let truth = g.evaluate(f, &colours);
        open.retain(|&i| {
            let own = colours[i];
            let changes = (0..4u8).filter(|k| *k != own).any(|k| {
                colours[i] = k;
                g.evaluate(f, &colours) != truth
            });
            colours[i] = own;
            !changes
        });
    }
    open.into_iter().map(|i| g.cells()[i]).collect()
}

/// A seed from the statement's notation and the subset (FNV-1a): the same statement
/// on the same subset is always searched the same way.
fn fingerprint(statement: &Statement, subset: &Subset) -> u64 {
    let text = format!("{} on {subset}", tiles::symbolic(&statement.formula));
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Roughly how many steps one evaluation takes on `n` tiles: each bound tile variable
/// multiplies its body's cost by `n`, each region variable by the regions there can be.
fn cost(f: &Formula, n: u64) -> u64 {
    let under = |body: &Formula, times: u64| times.saturating_mul(cost(body, n)).saturating_add(1);
    match &f.kind {
        FormulaKind::Bool(_)
        | FormulaKind::Colour(..)
        | FormulaKind::Place(..)
        | FormulaKind::Rel(..)
        | FormulaKind::Same(..) => 1,
        FormulaKind::Not(a) => cost(a, n).saturating_add(1),
        FormulaKind::Bin(_, a, b) => cost(a, n).saturating_add(cost(b, n)).saturating_add(1),
        FormulaKind::Forall(_, _, a) | FormulaKind::Exists(_, _, a) => under(a, n),
        FormulaKind::ForallRegion(_, _, a) | FormulaKind::ExistsRegion(_, _, a) => under(a, 9),
        FormulaKind::Cmp(_, s, t) => term_cost(s, n)
            .saturating_add(term_cost(t, n))
            .saturating_add(1),
        FormulaKind::Parity(_, t) => term_cost(t, n).saturating_add(1),
    }
}

fn term_cost(t: &Term, n: u64) -> u64 {
    match &t.kind {
        TermKind::Count(_, _, f) => n.saturating_mul(cost(f, n)).saturating_add(1),
        TermKind::Add(a, b) | TermKind::Sub(a, b) => term_cost(a, n)
            .saturating_add(term_cost(b, n))
            .saturating_add(1),
        TermKind::Mul(_, a) => term_cost(a, n).saturating_add(1),
        // How many colours a region shows: one look at each of its at most n tiles.
        TermKind::ColoursIn(_) => n.saturating_add(1),
        TermKind::Int(_) | TermKind::Tiles | TermKind::Colours => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subset(s: &str) -> Subset {
        s.parse().expect("a subset")
    }

    fn judged(text: &str, on: &str) -> Verdict {
        judge(text, &subset(on), tiles::MAX_WORDS)
            .expect("it reads")
            .1
    }

    #[test]
    fn notation_is_counted_and_shown_by_its_english_reading() {
        // Its reading is what the opponent reads, and what is counted.
        let v = judged(
            "count(x: red(x)) >= 2 & count(x: blue(x)) >= 1",
            "A1-A2-B1-B2",
        );
        assert_eq!(
            v.statement,
            "there are at least two red tiles and at least one blue tile"
        );
        assert_eq!(v.words, 13);
        assert!(v.valid, "{v:?}");
        // The same reading over the limit: refused, the reading shown.
        let v = judge(
            "count(x: red(x)) >= 2 & count(x: blue(x)) >= 1",
            &subset("A1-A2-B1-B2"),
            10,
        )
        .expect("it reads")
        .1;
        assert!(!v.valid);
        let reason = v.reason.unwrap_or_default();
        assert!(reason.contains("has 13 words; at most 10"), "{reason}");
        assert!(
            reason.contains("“there are at least two red tiles"),
            "{reason}"
        );
    }

    #[test]
    fn logic_whose_reading_is_long_is_refused_with_its_reading() {
        // Short in notation (12 tokens), long as the opponent would read it.
        let v = judged(
            "forall x y. count(z: same_colour(x, z) & same_colour(y, z)) >= 2",
            "A1-A2-B1-B2",
        );
        assert!(!v.valid, "{v:?}");
        assert!(v.words > tiles::MAX_WORDS, "{v:?}");
        let reason = v.reason.unwrap_or_default();
        assert!(reason.contains("words; at most 15"), "{reason}");
        assert!(reason.contains(&format!("“{}”", v.statement)), "{reason}");
    }

    #[test]
    fn english_is_counted_as_written() {
        let v = judged("There is a red tile.", "A1-A2-B1-B2");
        assert!(v.valid, "{v:?}");
        assert_eq!(v.words, 5);
    }

    #[test]
    fn a_large_subset_is_checked_by_witnesses() {
        let all = "A1-A2-A3-A4-B1-B2-B3-B4-C1-C2-C3-C4-D1-D2-D3-D4";
        let v = judged("There are at least two red tiles.", all);
        assert!(v.valid, "{v:?}");
        // A statement about the top-left tile only involves no other tile.
        let v = judged("The leftmost tile is red.", "A1-A2-A3-A4-B1-B2-B3-B4-C1");
        assert!(!v.valid, "{v:?}");
        assert!(!v.uninvolved.is_empty());
        assert!(
            v.reason.unwrap_or_default().contains("found no colouring"),
            "{:?}",
            v.uninvolved
        );
        // Always true: nothing changes its truth.
        let v = judged("There are at most sixteen red tiles.", all);
        assert!(!v.valid, "{v:?}");
        // The same verdict every time.
        assert_eq!(
            judged("no two adjacent tiles are the same colour", all),
            judged("no two adjacent tiles are the same colour", all)
        );
    }
}
