//! How a Triple opens: three hidden arrows patterns, each reasonable, no two
//! equivalent, and the two opening structures (one that obeys all three, one that
//! obeys as few as any structure can). Pure, like the rest of the engine, but it runs
//! the exact finder: an async front calls it on a blocking thread.
//!
//! - Patterns given as text (`--pattern` three times, in order A, B, C) are read and
//!   checked; otherwise three entries of the arrows pool are drawn by the seed, skipping
//!   any that is not reasonable or is equivalent to one already drawn.
//! - Reasonable: [`finder::reasonable`] (neither always nor never true, obeyed by a
//!   fair share of random structures, not needlessly long).
//! - No two equivalent: the finder compares each pair; its counterexample is the
//!   separating structure the engine checks again at setup.
//! - #1: the simplest structure obeying all three (refused when none does).
//!   #2: the simplest obeying none; when no structure obeys none, the simplest
//!   obeying exactly one, then exactly two.

use super::{Letter, TripleOpening};
use crate::finder::{self, Limits, ReasonableOptions, Style, Verdict};
use crate::koan::{Koan, PieceSet};
use crate::lang::{self, BinOp, Formula, FormulaKind, Pattern};
use crate::pool::Pool;

const SET: PieceSet = PieceSet::Arrows;

/// The three patterns and the opening of a new Triple.
pub fn triple_opening(
    given: &[String],
    pool: &Pool,
    seed: u64,
    limits: &Limits,
) -> Result<([Pattern; 3], TripleOpening), String> {
    let hidden: Vec<Pattern> = match given.len() {
        0 => drawn(pool, seed, limits)?,
        3 => {
            let mut out = Vec::new();
            for (text, l) in given.iter().zip(Letter::ALL) {
                let p = lang::parse(text).map_err(|e| format!("pattern {l} does not read: {e}"))?;
                reasonable(&p, l)?;
                out.push(p);
            }
            out
        }
        n => {
            return Err(format!(
                "a Triple hides three patterns: give --pattern three times (A, B, C), or none \
                 to draw them (got {n})"
            ));
        }
    };
    let mut separators = Vec::new();
    for (x, y) in [(0, 1), (0, 2), (1, 2)] {
        match separator(&hidden[x], &hidden[y], limits) {
            Ok(k) => separators.push(k),
            Err(e) => {
                return Err(format!(
                    "patterns {} and {}: {e}",
                    Letter::ALL[x],
                    Letter::ALL[y]
                ));
            }
        }
    }
    let f: Vec<&Formula> = hidden.iter().map(|p| &p.formula).collect();
    let all = simplest(&and(&[f[0].clone(), f[1].clone(), f[2].clone()]), limits)?
        .ok_or("no structure obeys all three patterns: choose patterns that can hold together")?;
    let fewest = fewest(&f, limits)?;
    let hidden: [Pattern; 3] = hidden
        .try_into()
        .map_err(|_| "three patterns are needed".to_string())?;
    let separators: [Koan; 3] = separators
        .try_into()
        .map_err(|_| "three separating structures are needed".to_string())?;
    Ok((
        hidden,
        TripleOpening {
            all,
            fewest,
            separators,
        },
    ))
}

fn reasonable(p: &Pattern, l: Letter) -> Result<(), String> {
    let report = finder::reasonable(p, SET, &ReasonableOptions::default());
    if report.accepted() {
        Ok(())
    } else {
        Err(format!(
            "pattern {l} is not reasonable: {}",
            report.refusals.join("; ")
        ))
    }
}

/// Three pairwise different, reasonable entries of the pool's arrows patterns, from
/// the seed. A pool file is read with its entries' own structures checked, not their
/// reasonableness, so an entry that is not reasonable (too rare, too common, too long)
/// is skipped here, as is one equivalent to a pattern already drawn.
fn drawn(pool: &Pool, seed: u64, limits: &Limits) -> Result<Vec<Pattern>, String> {
    let entries: Vec<_> = pool.for_set(SET).collect();
    let n = entries.len();
    let mut out: Vec<Pattern> = Vec::new();
    let mut unreasonable = 0;
    for i in 0..n {
        if out.len() == 3 {
            break;
        }
        let e = entries[(seed as usize).wrapping_add(i * 7) % n];
        if !finder::reasonable(&e.pattern, SET, &ReasonableOptions::default()).accepted() {
            unreasonable += 1;
            continue;
        }
        if out.iter().all(|p| separator(p, &e.pattern, limits).is_ok()) {
            out.push(e.pattern.clone());
        }
    }
    if out.len() < 3 {
        let skipped = if unreasonable > 0 {
            format!(", {unreasonable} of them not reasonable")
        } else {
            String::new()
        };
        return Err(format!(
            "the pool has fewer than three different reasonable arrows patterns ({n} \
             entries{skipped}); add some"
        ));
    }
    Ok(out)
}

/// A structure on which the two patterns disagree, or why there is none.
fn separator(a: &Pattern, b: &Pattern, limits: &Limits) -> Result<Koan, String> {
    match finder::compare(&a.formula, &b.formula, SET, &[], Style::Simple, 0, limits) {
        Verdict::Counterexample(ce) => Ok(ce.koan),
        Verdict::Equivalent => Err("they are the same pattern; give three different ones".into()),
        Verdict::Undecided { reason } => {
            Err(format!("the umpire could not compare them: {reason}"))
        }
    }
}

/// The simplest structure obeying `f`, or None when no structure does.
fn simplest(f: &Formula, limits: &Limits) -> Result<Option<Koan>, String> {
    match finder::initial(f, SET, None, limits) {
        Ok(i) => Ok(Some(i.obeys)),
        Err(finder::InitialError::Contradiction) => Ok(None),
        // Every structure obeys it: any simple one does.
        Err(finder::InitialError::Tautology) => Ok(crate::koan::enumerate::koans(SET, 1).next()),
        Err(finder::InitialError::Undecided(r)) => {
            Err(format!("the umpire could not build the opening: {r}"))
        }
    }
}

/// #2: obeying none, else exactly one, else exactly two of the patterns.
fn fewest(f: &[&Formula], limits: &Limits) -> Result<Koan, String> {
    for obeyed in 0..3 {
        for mask in 0u8..8 {
            if mask.count_ones() != obeyed {
                continue;
            }
            let parts: Vec<Formula> = (0..3)
                .map(|i| {
                    if mask & (1 << i) != 0 {
                        f[i].clone()
                    } else {
                        not(f[i])
                    }
                })
                .collect();
            if let Some(k) = simplest(&and(&parts), limits)? {
                return Ok(k);
            }
        }
    }
    Err("every structure obeys all three patterns: they cannot be told apart".into())
}

fn not(f: &Formula) -> Formula {
    Formula::new(f.span.clone(), FormulaKind::Not(Box::new(f.clone())))
}

fn and(parts: &[Formula]) -> Formula {
    let mut it = parts.iter().cloned();
    let first = it
        .next()
        .unwrap_or_else(|| Formula::new(Default::default(), FormulaKind::Bool(true)));
    it.fold(first, |acc, f| {
        Formula::new(
            acc.span.clone(),
            FormulaKind::Bin(BinOp::And, Box::new(acc), Box::new(f)),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(t: [&str; 3]) -> Vec<String> {
        t.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn given_patterns_open_with_all_and_none() {
        let pool = Pool::shipped(SET);
        let given = texts([
            "some arrow points up",
            "some arrow points right",
            "some arrow points left",
        ]);
        let (hidden, o) = triple_opening(&given, &pool, 1, &Limits::default()).unwrap();
        for p in &hidden {
            assert!(lang::evaluate(&p.formula, &o.all));
            assert!(!lang::evaluate(&p.formula, &o.fewest));
        }
        // Two the same are refused, saying which.
        let same = texts([
            "some arrow points up",
            "an arrow points up",
            "some arrow points left",
        ]);
        let e = triple_opening(&same, &pool, 1, &Limits::default()).unwrap_err();
        assert!(
            e.contains("patterns A and B") && e.contains("same pattern"),
            "{e}"
        );
        // Two instead of three.
        let e = triple_opening(&given[..2], &pool, 1, &Limits::default()).unwrap_err();
        assert!(e.contains("three"), "{e}");
    }

    #[test]
    fn when_nothing_obeys_none_the_fewest_is_chosen() {
        // Every structure obeys "up" or "not up": #2 obeys exactly one of them.
        let pool = Pool::shipped(SET);
        let given = texts([
            "some arrow points up",
            "no arrow points up",
            "some arrow points left",
        ]);
        let e = triple_opening(&given, &pool, 1, &Limits::default());
        // A and B cannot both hold: no structure obeys all three.
        assert!(e.unwrap_err().contains("no structure obeys all three"));
        let f = [
            parse("some arrow points up"),
            parse("some arrow points right or some arrow points up"),
            parse(
                "some arrow points up or some arrow points down or some arrow points left or some arrow points right",
            ),
        ];
        let refs: Vec<&Formula> = f.iter().collect();
        let k = fewest(&refs, &Limits::default()).unwrap();
        let obeyed = f.iter().filter(|p| lang::evaluate(p, &k)).count();
        assert_eq!(obeyed, 1, "{}", k.to_line());
    }

    fn parse(t: &str) -> Formula {
        lang::parse(t).unwrap().formula
    }

    /// A host's pool: `up` twice in other words, one too rare to be reasonable, and
    /// two more. Whatever the seed, the three drawn are reasonable and pairwise
    /// different; without enough of those, the draw says so.
    #[test]
    fn drawn_patterns_are_reasonable_and_pairwise_different() {
        let entry = |id: &str, pattern: &str, obeys: &str, not: &str| {
            format!(
                "[[entry]]\nid = \"{id}\"\npattern = \"{pattern}\"\nset = \"arrows\"\n\
                 obeys = \"{obeys}\"\ndoes_not_obey = \"{not}\"\ndifficulty = \"easy\"\n"
            )
        };
        let rare = entry(
            "rare",
            "there are at least 9 pieces",
            "UUU / UUU / UUU",
            "U",
        );
        let text = [
            entry("up", "some arrow points up", "U", "D"),
            entry("up2", "an arrow points up", "UD", "D"),
            rare.clone(),
            entry("right", "some arrow points right", "R", "L"),
            entry("left", "some arrow points left", "L", "R"),
        ]
        .concat();
        let pool = Pool::from_toml(&text).expect("the pool reads");
        assert!(
            !finder::reasonable(
                &parse_pattern("there are at least 9 pieces"),
                SET,
                &Default::default()
            )
            .accepted(),
            "the rare entry is one to skip"
        );
        for seed in 0..5 {
            let hidden = drawn(&pool, seed, &Limits::default()).unwrap();
            for (i, p) in hidden.iter().enumerate() {
                let report = finder::reasonable(p, SET, &ReasonableOptions::default());
                assert!(report.accepted(), "seed {seed}: {}", p.source);
                for q in &hidden[i + 1..] {
                    assert!(
                        separator(p, q, &Limits::default()).is_ok(),
                        "seed {seed}: {} and {} are the same pattern",
                        p.source,
                        q.source
                    );
                }
            }
        }
        // Two different reasonable patterns are not enough.
        let few = [
            entry("up", "some arrow points up", "U", "D"),
            entry("up2", "an arrow points up", "UD", "D"),
            rare,
            entry("right", "some arrow points right", "R", "L"),
        ]
        .concat();
        let pool = Pool::from_toml(&few).expect("the pool reads");
        let e = drawn(&pool, 0, &Limits::default()).unwrap_err();
        assert!(
            e.contains("fewer than three different reasonable") && e.contains("1 of them not"),
            "{e}"
        );
    }

    fn parse_pattern(t: &str) -> Pattern {
        lang::parse(t).unwrap()
    }

    #[test]
    fn the_pool_gives_three_different_patterns() {
        let pool = Pool::shipped(SET);
        let (hidden, _) = triple_opening(&[], &pool, 5, &Limits::default()).unwrap();
        assert_ne!(hidden[0].source, hidden[1].source);
        assert_ne!(hidden[1].source, hidden[2].source);
    }
}
