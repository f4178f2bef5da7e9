//! The exact umpire: decide whether two patterns agree on every valid structure, and
//! otherwise build a counterexample (the simplest one, or a seeded varied one).
//!
//! The outcome types live here so that the rules engine can speak of verdicts without
//! depending on how they are found.
//!
//! # How it decides
//!
//! The space is finite: every structure fits the 6 x 6 window. [`compare`] grounds both
//! patterns over that window into one propositional formula (see `encode/` for the
//! encoding and why it is exact), asserts that they differ, excludes the structures
//! already on the table, and asks a SAT solver. "No model" is a proof that the
//! patterns agree on every valid structure; a model is a counterexample, which is then
//! minimised (fewest pieces, then smallest box, each bound proved by a final "no"
//! from the solver) and checked once more with the evaluator before it is returned.
//! The solver works under a conflict budget (never a clock: this module is pure) and
//! an optional interrupt flag; when either stops it the answer is
//! [`Verdict::Undecided`], never "equivalent".
//!
//! # The solver
//!
//! CaDiCaL (the `cadical` crate, C++ built by `cc`), fed the clauses built with
//! rustsat's types and totalizer. See `solver.rs` for the measurements behind the
//! choice.

mod cost;
mod encode;
pub(crate) mod generate;
mod initial;
mod limits;
mod reasonable;
pub mod sample;
mod search;
mod simplify;
mod small;
mod solver;
pub mod suite;
mod symmetry;

pub use cost::{
    Cost, MAX_CLAUSES, MAX_EVALUATION_STEPS, MAX_GROUNDING_STEPS, TooHard, Why, estimate, judgeable,
};
pub use generate::{GenerateOptions, Generated, Generation, generate};
pub use initial::{Initial, InitialError, example, initial};
pub use limits::{DEFAULT_CONFLICTS, DEFAULT_MAX_CLAUSES, Limits, SolverKind, Stats};
pub use reasonable::{Logic, ReasonableOptions, Report, reasonable};

use crate::koan::{Koan, PieceSet};
use crate::lang::eval::Facts;
use crate::lang::{self, CompiledPattern, Formula};
use serde::{Deserialize, Serialize};

/// How the umpire picks among counterexamples; fixed per match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// Fewest pieces, then smallest bounding-box area (guaranteed minimal).
    #[default]
    Simple,
    /// A seeded random choice among small counterexamples.
    Varied,
}

impl Style {
    pub const fn name(self) -> &'static str {
        match self {
            Style::Simple => "simple",
            Style::Varied => "varied",
        }
    }
}

impl std::fmt::Display for Style {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Style {
    type Err = String;
    fn from_str(s: &str) -> Result<Style, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "simple" | "simplest" => Ok(Style::Simple),
            "varied" | "random" => Ok(Style::Varied),
            other => Err(format!(
                "unknown counterexample style `{other}`: expected `simple` or `varied`"
            )),
        }
    }
}

/// A structure on which the hidden pattern and the guess disagree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counterexample {
    pub koan: Koan,
    /// Whether the structure obeys the hidden pattern.
    pub hidden: bool,
    /// Whether it obeys the guess (always `!hidden`).
    pub guess: bool,
}

/// The finder's answer to "is this guess the hidden pattern?".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Verdict {
    /// Proved: the two patterns agree on every valid structure.
    Equivalent,
    /// They disagree on this structure.
    Counterexample(Counterexample),
    /// The solver hit its limit before deciding; the umpire says so rather than guess.
    Undecided { reason: String },
}

impl Counterexample {
    /// Where this structure is on the table, if it is. The finder returns a tabled
    /// structure only when no structure off the table separates the two patterns.
    pub fn on_table(&self, table: &[Koan]) -> Option<usize> {
        table.iter().position(|k| *k == self.koan)
    }
}

/// [`compare`]'s verdict with the details behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    pub verdict: Verdict,
    /// For a counterexample in the simple style: whether its minimality (fewest pieces,
    /// then smallest box) was proved. False only when the budget ran out while
    /// minimising; the counterexample itself is always checked.
    pub minimal: bool,
    pub stats: Stats,
}

/// Is `guess` the `hidden` pattern? [`Verdict::Equivalent`] is a proof over every valid
/// structure of `set`; otherwise a counterexample not in `table` (unless every
/// counterexample is in the table: then the simplest tabled one, see
/// [`Counterexample::on_table`]), chosen by `style` (`seed` only matters for
/// [`Style::Varied`]); or [`Verdict::Undecided`] when `limits` stop the search.
pub fn compare(
    hidden: &Formula,
    guess: &Formula,
    set: PieceSet,
    table: &[Koan],
    style: Style,
    seed: u64,
    limits: &Limits,
) -> Verdict {
    compare_detailed(hidden, guess, set, table, style, seed, limits).verdict
}

/// [`compare`], with whether minimality was proved and what the search cost.
///
/// The cheap exact steps come first: every structure of one and two pieces, then a
/// seeded sample of three-piece ones, with the compiled evaluator (`small.rs`); the
/// patterns are grounded only when those find nothing (for the proof of equivalence)
/// or to prove minimal a counterexample of three pieces or more.
pub fn compare_detailed(
    hidden: &Formula,
    guess: &Formula,
    set: PieceSet,
    table: &[Koan],
    style: Style,
    seed: u64,
    limits: &Limits,
) -> Comparison {
    let (h, g) = (CompiledPattern::new(hidden), CompiledPattern::new(guess));
    let differ = |f: &Facts| h.evaluate_facts(f) != g.evaluate_facts(f);
    let walked = small::first(set, small::EXHAUSTIVE_PIECES, table, differ);
    let accept = |k: &Koan| !table.contains(k) && separates(hidden, guess, k).is_some();
    if let Some(simplest) = walked.found {
        // Minimal: every structure of fewer pieces, and every one of as many pieces in
        // a smaller box, was tried before it.
        let mut stats = Stats::default();
        let koan = match style {
            Style::Simple => Ok(simplest),
            Style::Varied => match search::varied_by_sampling(set, &simplest, seed, &accept) {
                Ok(koan) => Ok(koan),
                Err(draw) => {
                    let mut search = search::Search::new(set, limits);
                    let koan =
                        ground_difference(&mut search, hidden, guess, table).and_then(|base| {
                            search.varied_by_solver(&base.unwrap_or_default(), &simplest, draw)
                        });
                    stats = search.stats();
                    koan
                }
            },
        };
        return match koan.map(|k| separates(hidden, guess, &k).ok_or(k)) {
            Ok(Ok(c)) => Comparison {
                verdict: Verdict::Counterexample(c),
                minimal: true,
                stats,
            },
            Ok(Err(k)) => undecided(&search::Stop::disagree(&k), limits, stats),
            Err(stop) => undecided(&stop, limits, stats),
        };
    }
    let sampled = small::sample(set, 3, small::SAMPLE_THREE, 0, table, differ);
    let mut search = search::Search::new(set, limits);
    // Far beyond what can be grounded in time: do not start (the grounding would stop
    // at its budget anyway, after seconds and hundreds of megabytes).
    let cost = judgeable(hidden, guess, set);
    let hopeless = cost.as_ref().err().filter(|t| {
        t.why == Why::Grounding
            && (t.cost.clauses > 10 * MAX_CLAUSES
                || t.cost.grounding_steps > 10 * MAX_GROUNDING_STEPS)
    });
    let outcome = if let Some(too_hard) = hopeless {
        Err(search::Stop::Encode(encode::EncodeError::Other(
            too_hard.to_string(),
        )))
    } else {
        decide(
            &mut search,
            hidden,
            guess,
            table,
            style,
            seed,
            walked.exhausted + 1,
            sampled.clone(),
        )
    };
    let stats = search.stats();
    match outcome {
        Ok((verdict, minimal)) => Comparison {
            verdict,
            minimal,
            stats,
        },
        // A structure that separates them is a right answer even unproved minimal: the
        // guess is wrong, and the umpire can show why.
        Err(search::Stop::Encode(ref e)) if e.is_internal() => {
            undecided(&search::Stop::Encode(e.clone()), limits, stats)
        }
        Err(stop) => match sampled.or_else(|| small::fallback(set, table, differ)) {
            Some(koan) => match separates(hidden, guess, &koan) {
                Some(c) => Comparison {
                    verdict: Verdict::Counterexample(c),
                    minimal: false,
                    stats,
                },
                None => undecided(&search::Stop::disagree(&koan), limits, stats),
            },
            None => undecided(&stop, limits, stats),
        },
    }
}

fn undecided(stop: &search::Stop, limits: &Limits, stats: Stats) -> Comparison {
    Comparison {
        verdict: Verdict::Undecided {
            reason: undecided_reason(stop, limits),
        },
        minimal: false,
        stats,
    }
}

/// What to tell the player when a search stopped without an answer.
fn undecided_reason(stop: &search::Stop, limits: &Limits) -> String {
    match stop {
        search::Stop::Encode(e) => e.message(),
        search::Stop::Budget => {
            if limits
                .interrupt
                .as_ref()
                .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
            {
                "the search was stopped before it could decide".to_string()
            } else {
                match limits.conflicts {
                    Some(n) => {
                        format!("could not decide within the budget of {n} solver conflicts")
                    }
                    None => "could not decide".to_string(),
                }
            }
        }
    }
}

/// Separates the two patterns?
fn separates(hidden: &Formula, guess: &Formula, koan: &Koan) -> Option<Counterexample> {
    let h = lang::evaluate(hidden, koan);
    let g = lang::evaluate(guess, koan);
    (h != g).then(|| Counterexample {
        koan: koan.clone(),
        hidden: h,
        guess: g,
    })
}

/// Grounds "the two patterns differ" with the tabled structures excluded: the
/// assumptions under which a model is a counterexample off the table, or `None` when
/// the grounding alone shows that there is none.
fn ground_difference(
    search: &mut search::Search,
    hidden: &Formula,
    guess: &Formula,
    table: &[Koan],
) -> Result<Option<Vec<rustsat::types::Lit>>, search::Stop> {
    let h = search.enc.formula(hidden)?;
    let g = search.enc.formula(guess)?;
    let differ = search.enc.xor(h, g);
    for k in table {
        search.enc.block(k);
    }
    let mut base = Vec::new();
    Ok(search::push(&mut base, differ).then_some(base))
}

/// The grounded search: a proof, or the simplest (or varied) counterexample, knowing
/// that none has fewer than `fewer` pieces and, when the sample found one, starting
/// from it.
#[allow(clippy::too_many_arguments)]
fn decide(
    search: &mut search::Search,
    hidden: &Formula,
    guess: &Formula,
    table: &[Koan],
    style: Style,
    seed: u64,
    fewer: usize,
    sampled: Option<Koan>,
) -> Result<(Verdict, bool), search::Stop> {
    let set = search.enc.set();
    let base = ground_difference(search, hidden, guess, table)?;
    let first = match (&base, sampled) {
        (None, Some(k)) => return Err(search::Stop::disagree(&k)),
        (None, None) => None,
        (Some(_), Some(k)) => Some(k),
        (Some(base), None) => search.find(base)?,
    };
    let (Some(base), Some(first)) = (base, first) else {
        // No counterexample off the table: the simplest tabled one, or a proof.
        let tabled = table
            .iter()
            .filter(|k| k.set() == set)
            .filter_map(|k| separates(hidden, guess, k))
            .min_by_key(|c| (c.koan.len(), c.koan.area()));
        return Ok(match tabled {
            Some(c) => (Verdict::Counterexample(c), true),
            None => (Verdict::Equivalent, true),
        });
    };
    let (h, g) = (CompiledPattern::new(hidden), CompiledPattern::new(guess));
    let accept = |k: &Koan| !table.contains(k) && h.evaluate(k) != g.evaluate(k);
    let first = search::shrink(&first, &accept);
    let found = search.simplest(&base, first, fewer)?;
    let (koan, minimal) = match style {
        Style::Simple => (search::tidy(&found.koan, &accept), found.proved),
        Style::Varied => (
            search.varied(&base, &found.koan, seed, &accept)?,
            found.proved,
        ),
    };
    match separates(hidden, guess, &koan) {
        Some(c) => Ok((Verdict::Counterexample(c), minimal)),
        None => Err(search::Stop::disagree(&koan)),
    }
}

/// For cross-checks against the evaluator: the truth of each formula on each structure
/// as its grounding defines it, with every cell fixed by assumptions
/// (`result[koan][formula]`). `None` where a grounded literal is not forced either way
/// (which would be an encoding bug). Two solver calls per structure: one for the values,
/// one proving that no other values are possible.
#[doc(hidden)]
pub fn grounded_truths(
    formulas: &[Formula],
    set: PieceSet,
    koans: &[Koan],
) -> Result<Vec<Vec<Option<bool>>>, String> {
    let mut search = search::Search::new(
        set,
        &Limits {
            conflicts: None,
            solver: SolverKind::Batsat,
            ..Limits::default()
        },
    );
    let mut lits = Vec::new();
    for f in formulas {
        lits.push(search.enc.formula(f).map_err(|e| e.message())?);
    }
    let mut out = Vec::with_capacity(koans.len());
    for koan in koans {
        let mut cells: Vec<_> = (0..crate::koan::MAX_CELLS)
            .map(|i| search.enc.cell_value_lit(i, koan.window()[i]))
            .collect();
        if search
            .find(&cells)
            .map_err(|_| "budget".to_string())?
            .is_none()
        {
            return Err(format!("no model has the cells of {koan:?}"));
        }
        let values: Vec<bool> = lits
            .iter()
            .map(|g| match *g {
                encode::G::Const(b) => b,
                encode::G::Lit(l) => search.value(l),
            })
            .collect();
        // Could any grounded value differ with the same cells?
        let act = search.enc.new_lit();
        let mut differ = vec![!act];
        for (g, &v) in lits.iter().zip(&values) {
            if let encode::G::Lit(l) = *g {
                differ.push(if v { !l } else { l });
            }
        }
        search.enc.clause(&differ);
        cells.push(act);
        let mut row: Vec<Option<bool>> = values.iter().map(|&v| Some(v)).collect();
        if search
            .find(&cells)
            .map_err(|_| "budget".to_string())?
            .is_some()
        {
            for (k, g) in lits.iter().enumerate() {
                if let encode::G::Lit(l) = *g
                    && search.value(l) != values[k]
                {
                    row[k] = None;
                }
            }
        }
        search.enc.clause(&[!act]);
        out.push(row);
    }
    Ok(out)
}
