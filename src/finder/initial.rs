//! The two structures a game opens with: a simplest one that obeys the hidden pattern
//! and a simplest one that does not.

use super::search::{self, Search, Stop, push};
use super::{Limits, undecided_reason};
use crate::koan::{Koan, PieceSet};
use crate::lang::{self, Formula};

/// A structure that obeys the pattern and one that does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Initial {
    pub obeys: Koan,
    pub does_not_obey: Koan,
}

/// Why a pattern has no initial structures.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InitialError {
    #[error("every structure obeys this pattern (it is always true), so nothing can fail it")]
    Tautology,
    #[error("no structure obeys this pattern (it can never be true)")]
    Contradiction,
    #[error("{0}")]
    Undecided(String),
}

/// The simplest structure that obeys `pattern` and the simplest that does not (fewest
/// pieces, then smallest box, both proved minimal), or with a seed, a seeded varied
/// choice among small ones (as [`super::Style::Varied`]). Errors when the pattern is
/// a tautology or a contradiction (proved), or when the limits stop the search.
pub fn initial(
    pattern: &Formula,
    set: PieceSet,
    seed: Option<u64>,
    limits: &Limits,
) -> Result<Initial, InitialError> {
    let mut search = Search::new(set, limits);
    let mut both = || -> Result<(Option<Koan>, Option<Koan>), Stop> {
        let p = search.enc.formula(pattern)?;
        let obeys = one(&mut search, pattern, p, true, seed)?;
        let does_not = one(&mut search, pattern, !p, false, seed)?;
        Ok((obeys, does_not))
    };
    match both() {
        Ok((Some(obeys), Some(does_not_obey))) => Ok(Initial {
            obeys,
            does_not_obey,
        }),
        Ok((None, _)) => Err(InitialError::Contradiction),
        Ok((_, None)) => Err(InitialError::Tautology),
        Err(stop) => Err(InitialError::Undecided(undecided_reason(&stop, limits))),
    }
}

/// The simplest (or varied) model of `g`, whose truth the evaluator must confirm.
fn one(
    search: &mut Search,
    pattern: &Formula,
    g: super::encode::G,
    wanted: bool,
    seed: Option<u64>,
) -> Result<Option<Koan>, Stop> {
    let mut base = Vec::new();
    if !push(&mut base, g) {
        return Ok(None);
    }
    let Some(first) = search.find(&base)? else {
        return Ok(None);
    };
    let found = search.simplest(&base, first)?;
    let accept = |k: &Koan| lang::evaluate(pattern, k) == wanted;
    let koan = match seed {
        None => search::tidy(&found.koan, &accept),
        Some(seed) => search.varied(&base, &found.koan, seed, &accept)?,
    };
    if lang::evaluate(pattern, &koan) != wanted {
        return Err(Stop::disagree(&koan));
    }
    Ok(Some(koan))
}
