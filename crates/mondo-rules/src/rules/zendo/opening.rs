//! How a Zendo match opens: the umpire picks a hidden pattern (from the server's pool,
//! or generated) and shows two initial structures, one that obeys and one that does
//! not (the pool entry's, or constructed); see docs/games/zendo.md, "How a game opens".
//!
//! [`opening`] is what every front calls (the terminal's `mondo play`, the Discord
//! bot): an entry of a host's (private) pool keeps the two structures its host wrote;
//! a pattern given as text, or a generated one, gets the exact finder's
//! ([`finder::initial`]): a simplest structure that obeys and a simplest that does not,
//! whatever number of pieces it takes to tell them apart. A pattern that no structure
//! obeys, or that every structure obeys, is refused with a proof, not a failed search.
//!
//! The built-in pools are public (anyone can read them in the repository), so an
//! entry's own pair would tell a player which entry is hidden: a pattern drawn from a
//! public pool opens with a pair constructed afresh for the match, seeded and varied
//! among small structures. `[a_public_pool_entry_opens_with_fresh_structures]`
//!
//! Pure, like the rest of the engine (no clock, no I/O), but a finder call may take a
//! while on a hard pattern: an async front runs it on a blocking thread.

use super::Initial;
use crate::finder::{self, GenerateOptions, InitialError, Limits};
use crate::koan::PieceSet;
use crate::lang::{self, Pattern};
use crate::pool::Pool;

/// Where the hidden pattern comes from.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// An entry of the pool for the match's piece set, chosen by the seed; the entry's
    /// own initial structures.
    Pool(&'a Pool),
    /// A pattern as a host wrote it (English or symbolic); the initial structures are
    /// the finder's.
    Pattern(&'a str),
    /// A random reasonable pattern ([`finder::generate`], seeded), none needlessly
    /// long, with the finder's initial structures.
    Generated,
}

/// Where an opening's pattern came from, to tell the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HiddenFrom {
    /// The pool entry with this id.
    Pool { id: String },
    /// Given as text.
    Given,
    /// Generated from the seed.
    Generated,
}

/// A match's hidden pattern and the two structures it opens with.
#[derive(Clone, Debug)]
pub struct Opening {
    pub hidden: Pattern,
    pub initial: Initial,
    pub origin: HiddenFrom,
}

/// Why a match cannot open.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    #[error("the pool has no {set} patterns to play; add an entry with set = \"{set}\"")]
    EmptyPool { set: PieceSet },
    /// The parser's message (where reading stopped, what was expected).
    #[error("the pattern does not read: {0}")]
    Unreadable(String),
    #[error("the pattern does not fit the {set} set: {reason}")]
    WrongSet { set: PieceSet, reason: String },
    #[error(
        "this pattern cannot be played: {0}; give a pattern that some structures obey and others do not"
    )]
    Unplayable(String),
    #[error("the umpire could not find the initial structures: {0}")]
    Undecided(String),
    #[error("no reasonable {set} pattern came out of seed {seed}; try another seed")]
    NothingGenerated { set: PieceSet, seed: u64 },
}

/// The hidden pattern and the two initial structures of a new match of `set` (the
/// Duel plays with [`PieceSet::Pyramids`]; practice with either set). The `seed`
/// picks the pool entry or the generated pattern, so the same seed opens the same
/// match; `limits` bound each finder call.
pub fn opening(
    source: Source<'_>,
    set: PieceSet,
    seed: u64,
    limits: &Limits,
) -> Result<Opening, OpeningError> {
    match source {
        Source::Pool(pool) => {
            let entries: Vec<_> = pool.for_set(set).collect();
            if entries.is_empty() {
                return Err(OpeningError::EmptyPool { set });
            }
            let e = entries[(seed % entries.len() as u64) as usize];
            let initial = if pool.is_public() {
                fresh(&e.pattern, set, seed, limits)?
            } else {
                Initial {
                    obeys: e.obeys.clone(),
                    does_not: e.does_not_obey.clone(),
                }
            };
            Ok(Opening {
                hidden: e.pattern.clone(),
                initial,
                origin: HiddenFrom::Pool { id: e.id.clone() },
            })
        }
        Source::Pattern(text) => {
            let hidden = lang::parse(text).map_err(|e| OpeningError::Unreadable(e.to_string()))?;
            lang::check_set(&hidden, set).map_err(|e| OpeningError::WrongSet {
                set,
                reason: e.to_string(),
            })?;
            let initial = initial(&hidden, set, limits)?;
            Ok(Opening {
                hidden,
                initial,
                origin: HiddenFrom::Given,
            })
        }
        Source::Generated => {
            let mut options = GenerateOptions::new(1, seed);
            options.limits = limits.clone();
            let generated = finder::generate(set, &options)
                .patterns
                .into_iter()
                .next()
                .ok_or(OpeningError::NothingGenerated { set, seed })?;
            Ok(Opening {
                hidden: Pattern {
                    source: generated.text,
                    formula: generated.formula,
                },
                initial: Initial {
                    obeys: generated.initial.obeys,
                    does_not: generated.initial.does_not_obey,
                },
                origin: HiddenFrom::Generated,
            })
        }
    }
}

/// The finder's simplest obeying and simplest non-obeying structures.
fn initial(hidden: &Pattern, set: PieceSet, limits: &Limits) -> Result<Initial, OpeningError> {
    found(finder::initial(&hidden.formula, set, None, limits))
}

/// A pair made for this match: seeded and varied among small structures, so that the
/// same pattern opens differently from match to match.
fn fresh(
    hidden: &Pattern,
    set: PieceSet,
    seed: u64,
    limits: &Limits,
) -> Result<Initial, OpeningError> {
    found(finder::initial(&hidden.formula, set, Some(seed), limits))
}

fn found(result: Result<finder::Initial, InitialError>) -> Result<Initial, OpeningError> {
    match result {
        Ok(i) => Ok(Initial {
            obeys: i.obeys,
            does_not: i.does_not_obey,
        }),
        Err(InitialError::Undecided(reason)) => Err(OpeningError::Undecided(reason)),
        Err(e @ (InitialError::Tautology | InitialError::Contradiction)) => {
            Err(OpeningError::Unplayable(e.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::koan::Koan;

    fn given(text: &str, set: PieceSet) -> Result<Opening, OpeningError> {
        opening(Source::Pattern(text), set, 0, &Limits::default())
    }

    #[test]
    fn a_given_pattern_opens_with_the_finders_simplest_structures() {
        let o = given("every piece points up", PieceSet::Pyramids).unwrap();
        assert_eq!(o.origin, HiddenFrom::Given);
        assert!(lang::evaluate(&o.hidden.formula, &o.initial.obeys));
        assert!(!lang::evaluate(&o.hidden.formula, &o.initial.does_not));
        // One piece tells them apart: both initial structures have one piece.
        assert_eq!((o.initial.obeys.len(), o.initial.does_not.len()), (1, 1));
    }

    #[test]
    fn a_pattern_needing_many_pieces_still_opens() {
        // Nothing of 1 or 2 pieces obeys: the enumeration of small structures the
        // terminal once used refused this pattern; the finder builds 4 pieces.
        let o = given("there are at least 4 pieces", PieceSet::Pyramids).unwrap();
        assert_eq!(o.initial.obeys.len(), 4);
        assert_eq!(o.initial.does_not.len(), 1);
        let o = given("the total pips is at least 10", PieceSet::Pyramids).unwrap();
        assert_eq!(o.initial.obeys.len(), 4, "{}", o.initial.obeys);
        assert!(lang::evaluate(&o.hidden.formula, &o.initial.obeys));
    }

    #[test]
    fn arrows_patterns_open_with_arrows() {
        let o = given("some arrow points at another arrow", PieceSet::Arrows).unwrap();
        assert_eq!(o.initial.obeys.set(), PieceSet::Arrows);
        assert_eq!(o.initial.does_not.set(), PieceSet::Arrows);
        assert_eq!(o.initial.obeys.len(), 2);
        let pool = Pool::shipped(PieceSet::Arrows);
        let o = opening(Source::Pool(&pool), PieceSet::Arrows, 3, &Limits::default()).unwrap();
        assert_eq!(o.initial.obeys.set(), PieceSet::Arrows);
        assert!(matches!(o.origin, HiddenFrom::Pool { .. }));
    }

    #[test]
    fn unplayable_patterns_are_refused_with_the_reason() {
        let e = given("there is a piece or there is no piece", PieceSet::Pyramids).unwrap_err();
        assert!(matches!(e, OpeningError::Unplayable(_)), "{e}");
        assert!(e.to_string().contains("always true"), "{e}");
        let e = given("there are at least 37 pieces", PieceSet::Pyramids).unwrap_err();
        assert!(e.to_string().contains("never be true"), "{e}");
        let e = given("some piece is large", PieceSet::Arrows).unwrap_err();
        assert!(matches!(e, OpeningError::WrongSet { .. }), "{e}");
        let e = given("two pieces point up", PieceSet::Pyramids).unwrap_err();
        assert!(e.to_string().contains("exactly two"), "{e}");
    }

    #[test]
    fn the_seed_picks_the_pool_entry_of_the_set() {
        let pool = Pool::shipped(PieceSet::Pyramids);
        let n = pool.for_set(PieceSet::Pyramids).count() as u64;
        let ids: std::collections::HashSet<String> = (0..n)
            .map(|seed| {
                let o = opening(
                    Source::Pool(&pool),
                    PieceSet::Pyramids,
                    seed,
                    &Limits::default(),
                )
                .unwrap();
                let HiddenFrom::Pool { id } = o.origin else {
                    panic!("from the pool")
                };
                let e = pool.get(&id).unwrap();
                assert!(lang::evaluate(&e.pattern.formula, &o.initial.obeys));
                assert!(!lang::evaluate(&e.pattern.formula, &o.initial.does_not));
                id
            })
            .collect();
        assert_eq!(ids.len() as u64, n, "every entry can be drawn");
        let e = opening(Source::Pool(&pool), PieceSet::Arrows, 0, &Limits::default()).unwrap_err();
        assert_eq!(
            e,
            OpeningError::EmptyPool {
                set: PieceSet::Arrows
            }
        );
    }

    #[test]
    fn a_public_pool_entry_opens_with_fresh_structures() {
        let pool = Pool::shipped(PieceSet::Pyramids);
        assert!(pool.is_public());
        let n = pool.for_set(PieceSet::Pyramids).count() as u64;
        let open = |seed: u64| {
            opening(
                Source::Pool(&pool),
                PieceSet::Pyramids,
                seed,
                &Limits::default(),
            )
            .unwrap()
        };
        // Every entry of the public pool: its own pair is not what the match shows
        // (for most entries: a small pattern can have only one small pair), and the
        // same entry drawn by another seed may open differently.
        let mut own = 0;
        let mut differ = 0;
        for seed in 0..n {
            let (a, b) = (open(seed), open(seed + n));
            let HiddenFrom::Pool { id } = &a.origin else {
                panic!("from the pool")
            };
            let e = pool.get(id).unwrap();
            if a.initial.obeys == e.obeys && a.initial.does_not == e.does_not_obey {
                own += 1;
            }
            if a.initial != b.initial {
                differ += 1;
            }
            // Small: a few pieces more than the entry's own pair at most.
            assert!(a.initial.obeys.len() <= e.obeys.len().max(4) + 3, "{id}");
        }
        assert!(
            own * 4 < n,
            "{own} of {n} entries opened with their own pair"
        );
        assert!(
            differ * 2 > n,
            "only {differ} of {n} entries opened differently"
        );
        // A host's (private) pool keeps the pairs its host wrote.
        let private = Pool::from_toml(
            "[[entry]]\nid = \"up\"\nset = \"pyramids\"\ndifficulty = \"easy\"\n\
             pattern = \"some piece points up\"\nobeys = \"1^ 1^\"\ndoes_not_obey = \"2>\"\n",
        )
        .unwrap();
        assert!(!private.is_public());
        let o = opening(
            Source::Pool(&private),
            PieceSet::Pyramids,
            3,
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(o.initial.obeys.to_line(), "1^ 1^");
    }

    #[test]
    fn a_generated_opening_is_reasonable_and_repeatable() {
        let o = opening(Source::Generated, PieceSet::Pyramids, 5, &Limits::default()).unwrap();
        assert_eq!(o.origin, HiddenFrom::Generated);
        assert!(lang::evaluate(&o.hidden.formula, &o.initial.obeys));
        assert!(!lang::evaluate(&o.hidden.formula, &o.initial.does_not));
        assert!(lang::parse(&o.hidden.source).is_ok());
        let again = opening(Source::Generated, PieceSet::Pyramids, 5, &Limits::default()).unwrap();
        assert_eq!(again.hidden.source, o.hidden.source);
        let k: &Koan = &again.initial.obeys;
        assert_eq!(*k, o.initial.obeys);
    }
}
