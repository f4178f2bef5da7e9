//! Is a pattern a reasonable hidden pattern? The host's check before a pattern enters a
//! pool or a game, with the seed's generator rule (5-95 % of random structures obey)
//! and the word limit, and with tautologies and contradictions proved rather than
//! guessed.

use super::search::{Search, push};
use super::{Limits, undecided_reason};
use crate::koan::PieceSet;
use crate::lang::{self, CompiledPattern, Pattern};
use crate::pool;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use serde::Serialize;

/// Whether the pattern can be true and can be false.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Logic {
    /// Some structure obeys it and some does not (witnessed).
    Contingent,
    /// Proved: every structure obeys it.
    Tautology,
    /// Proved: no structure obeys it.
    Contradiction,
    /// The solver's limits stopped the proof.
    Undecided { reason: String },
}

/// The knobs of [`reasonable`]; the defaults are the seed's.
#[derive(Clone, Debug)]
pub struct ReasonableOptions {
    /// Random structures for the obey share.
    pub samples: usize,
    /// Their largest number of pieces (from 1).
    pub max_pieces: usize,
    /// The share of them that must obey, inclusive bounds.
    pub min_share: f64,
    pub max_share: f64,
    /// The most words the pattern may have as written.
    pub max_words: usize,
    pub seed: u64,
    pub limits: Limits,
}

impl Default for ReasonableOptions {
    fn default() -> ReasonableOptions {
        ReasonableOptions {
            samples: 1000,
            max_pieces: 8,
            min_share: 0.05,
            max_share: 0.95,
            max_words: pool::MAX_WORDS,
            seed: 0,
            limits: Limits::default(),
        }
    }
}

/// What [`reasonable`] found; the pattern is acceptable when `refusals` is empty.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub logic: Logic,
    /// Share (0 to 1) of the random structures that obey.
    pub share: f64,
    pub samples: usize,
    /// Words as written.
    pub words: usize,
    /// Every reason to refuse, each saying why.
    pub refusals: Vec<String>,
}

impl Report {
    pub fn accepted(&self) -> bool {
        self.refusals.is_empty()
    }
}

/// Checks a pattern for `set`: it must speak only of what the set has, be neither a
/// tautology nor a contradiction, be obeyed by `min_share`..=`max_share` of
/// `samples` random structures of 1 to `max_pieces` pieces (drawn by
/// [`lang::random::koan`] from a generator seeded with `seed`), and have at most
/// `max_words` words as written. The sample witnesses contingency when it holds both
/// obeying and failing structures; otherwise the solver decides the missing side.
pub fn reasonable(pattern: &Pattern, set: PieceSet, options: &ReasonableOptions) -> Report {
    let mut refusals = Vec::new();
    if let Err(e) = lang::check_set(pattern, set) {
        refusals.push(format!("it does not fit the {set} set: {e}"));
    }
    let compiled = CompiledPattern::new(&pattern.formula);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(options.seed);
    let samples = options.samples.max(1);
    let share = pool::obey_share(&mut rng, &compiled, set, options.max_pieces, samples);
    let logic = if share > 0.0 && share < 1.0 {
        Logic::Contingent
    } else {
        prove(pattern, set, share == 0.0, &options.limits)
    };
    match &logic {
        Logic::Tautology => refusals
            .push("every structure obeys it (a tautology), so there is nothing to find".into()),
        Logic::Contradiction => {
            refusals.push("no structure obeys it (a contradiction), so it can never hold".into())
        }
        Logic::Undecided { reason } => refusals.push(format!(
            "could not prove that it can be both true and false: {reason}"
        )),
        Logic::Contingent => {}
    }
    let percent = |x: f64| format!("{:.1} %", 100.0 * x);
    let about = format!(
        "of {samples} random structures of 1 to {} pieces",
        options.max_pieces
    );
    if matches!(logic, Logic::Contingent) {
        if share < options.min_share {
            refusals.push(format!(
                "only {} {about} obey it (at least {} wanted): too rarely true to find",
                percent(share),
                percent(options.min_share)
            ));
        } else if share > options.max_share {
            refusals.push(format!(
                "{} {about} obey it (at most {} wanted): too rarely false to find",
                percent(share),
                percent(options.max_share)
            ));
        }
    }
    let words = lang::word_count(&pattern.source);
    if words > options.max_words {
        refusals.push(format!(
            "it has {words} words as written (at most {}); say it shorter",
            options.max_words
        ));
    }
    Report {
        logic,
        share,
        samples,
        words,
        refusals,
    }
}

/// Decides by SAT whether the pattern can be true (`want_true`) or false, the side the
/// sample did not witness.
fn prove(pattern: &Pattern, set: PieceSet, want_true: bool, limits: &Limits) -> Logic {
    let mut search = Search::new(set, limits);
    let g = match search.enc.formula(&pattern.formula) {
        Ok(g) => g,
        Err(e) => {
            return Logic::Undecided {
                reason: e.message(),
            };
        }
    };
    let goal = if want_true { g } else { !g };
    let mut assumptions = Vec::new();
    let found = if push(&mut assumptions, goal) {
        search.find(&assumptions)
    } else {
        Ok(None)
    };
    match found {
        Ok(Some(k)) if lang::evaluate(&pattern.formula, &k) == want_true => Logic::Contingent,
        Ok(Some(k)) => Logic::Undecided {
            reason: undecided_reason(&super::search::Stop::disagree(&k), limits),
        },
        Ok(None) if want_true => Logic::Contradiction,
        Ok(None) => Logic::Tautology,
        Err(stop) => Logic::Undecided {
            reason: undecided_reason(&stop, limits),
        },
    }
}
