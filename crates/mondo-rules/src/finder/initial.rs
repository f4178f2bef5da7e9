//! The two structures a game opens with: a simplest one that obeys the hidden pattern
//! and a simplest one that does not.

use super::encode::G;
use super::search::{self, Search, Stop, push};
use super::{Limits, small, undecided_reason};
use crate::koan::{Koan, PieceSet};
use crate::lang::{self, CompiledPattern, Formula};

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
    // Cheap exact step first: the simplest of each kind is usually among the 1- and
    // 2-piece structures, found by enumeration without grounding anything.
    let compiled = CompiledPattern::new(pattern);
    let walk = |wanted: bool| {
        small::first(set, small::EXHAUSTIVE_PIECES, &[], |f| {
            compiled.evaluate_facts(f) == wanted
        })
    };
    let walks = [walk(true), walk(false)];
    let mut search: Option<(Search, G)> = None;
    let both = || -> Result<[Option<Koan>; 2], Stop> {
        let mut out = [None, None];
        for (slot, (wanted, walked)) in out.iter_mut().zip([true, false].into_iter().zip(walks)) {
            *slot = one(&mut search, pattern, set, limits, wanted, walked, seed)?;
        }
        Ok(out)
    };
    match both() {
        Ok([Some(obeys), Some(does_not_obey)]) => Ok(Initial {
            obeys,
            does_not_obey,
        }),
        Ok([None, _]) => Err(InitialError::Contradiction),
        Ok([_, None]) => Err(InitialError::Tautology),
        Err(stop) => Err(InitialError::Undecided(undecided_reason(&stop, limits))),
    }
}

/// A structure that obeys `pattern`: the simplest (fewest pieces, then smallest box),
/// or with a seed, a seeded varied choice among small ones (as [`initial`] makes them).
/// `Ok(None)` when no structure obeys it (proved); an error only when the limits stop
/// the search. For an opening that must obey several patterns at once (Zendo Triple),
/// where only the obeying side is wanted.
pub fn example(
    pattern: &Formula,
    set: PieceSet,
    seed: Option<u64>,
    limits: &Limits,
) -> Result<Option<Koan>, InitialError> {
    let compiled = CompiledPattern::new(pattern);
    let walked = small::first(set, small::EXHAUSTIVE_PIECES, &[], |f| {
        compiled.evaluate_facts(f)
    });
    one(&mut None, pattern, set, limits, true, walked, seed)
        .map_err(|stop| InitialError::Undecided(undecided_reason(&stop, limits)))
}

/// The simplest (or varied) structure on which the pattern is `wanted`, whose truth
/// the evaluator must confirm: the walk's when it found one (minimal: nothing smaller
/// was skipped), otherwise by the solver, grounding the pattern on first need.
fn one(
    search: &mut Option<(Search, G)>,
    pattern: &Formula,
    set: PieceSet,
    limits: &Limits,
    wanted: bool,
    walked: small::Walked,
    seed: Option<u64>,
) -> Result<Option<Koan>, Stop> {
    let compiled = CompiledPattern::new(pattern);
    let accept = |k: &Koan| compiled.evaluate(k) == wanted;
    let grounded = |search: &mut Option<(Search, G)>| -> Result<(), Stop> {
        if search.is_none() {
            let mut s = Search::new(set, limits);
            let p = s.enc.formula(pattern)?;
            *search = Some((s, p));
        }
        Ok(())
    };
    let koan = match (walked.found, seed) {
        (Some(k), None) => k,
        (Some(k), Some(seed)) => match search::varied_by_sampling(set, &k, seed, &accept) {
            Ok(v) => v,
            Err(draw) => {
                grounded(search)?;
                let (s, p) = search.as_mut().expect("grounded");
                let mut base = Vec::new();
                push(&mut base, if wanted { *p } else { !*p });
                s.varied_by_solver(&base, &k, draw)?
            }
        },
        (None, _) => {
            grounded(search)?;
            let (s, p) = search.as_mut().expect("grounded");
            let mut base = Vec::new();
            if !push(&mut base, if wanted { *p } else { !*p }) {
                return Ok(None);
            }
            let Some(first) = s.find(&base)? else {
                return Ok(None);
            };
            let first = search::shrink(&first, &accept);
            let found = s.simplest(&base, first, walked.exhausted + 1)?;
            match seed {
                None => search::tidy(&found.koan, &accept),
                Some(seed) => s.varied(&base, &found.koan, seed, &accept)?,
            }
        }
    };
    if lang::evaluate(pattern, &koan) != wanted {
        return Err(Stop::disagree(&koan));
    }
    Ok(Some(koan))
}
