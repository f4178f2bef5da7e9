//! How a Triple opens: three hidden arrows patterns, each reasonable, no two
//! equivalent, that can hold together, and the two opening structures (one that obeys
//! all three, one that obeys as few as any structure can). Pure, like the rest of the
//! engine, but it runs the exact finder: an async front calls it on a blocking thread.
//!
//! - Patterns given as text (`--pattern` three times, in order A, B, C) are read and
//!   checked; otherwise three are drawn with the whole seed (a seeded generator, never
//!   `seed mod N`): the pool's arrows entries in a seeded order, and, when the pool is
//!   a built-in (public) one, as many freshly generated reasonable patterns mixed in
//!   ([`finder::generate`]), so the hidden three are not among a short public list.
//!   A candidate is skipped when it is not reasonable, when it is equivalent to one
//!   already drawn, or when no structure obeys it together with those (the three must
//!   hold together: a Triple always opens). `[drawn_patterns_are_reasonable_and_pairwise_different]`,
//!   `[every_seed_opens_a_triple]`, `[the_draw_uses_the_whole_seed]`
//! - Reasonable: [`finder::reasonable`] (neither always nor never true, obeyed by a
//!   fair share of random structures, not needlessly long).
//! - No two equivalent: the finder compares each pair; its counterexample is the
//!   separating structure the engine checks again at setup.
//! - #1: a structure obeying all three (refused when none does); #2: one obeying none,
//!   or when no structure obeys none, exactly one, then exactly two. Both are drawn by
//!   the seed among small structures (not the simplest), so the same three patterns
//!   open differently from match to match and no table "opening -> patterns" built
//!   from a public pool names them. `[the_opening_is_varied_by_the_seed]`

use super::{Letter, TripleOpening};
use crate::finder::{
    self, GenerateOptions, InitialError, Limits, ReasonableOptions, Style, Verdict,
};
use crate::koan::{Koan, PieceSet};
use crate::lang::{self, BinOp, Formula, FormulaKind, Pattern};
use crate::pool::Pool;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

const SET: PieceSet = PieceSet::Arrows;

/// How many generated patterns join a public pool's entries in a draw.
const GENERATED: usize = 16;

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
    // The structures are drawn by their own streams of the seed, not the draw's.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x7472_6970_6c65_3031);
    let all = obeying(
        &and(&[f[0].clone(), f[1].clone(), f[2].clone()]),
        rng.next_u64(),
        limits,
    )?
    .ok_or("no structure obeys all three patterns: choose patterns that can hold together")?;
    let fewest = fewest(&f, rng.next_u64(), limits)?;
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

/// Three pairwise different, reasonable patterns that some structure obeys together,
/// drawn by the whole seed: the pool's arrows entries (and, for a public pool, as many
/// generated ones) in a seeded order, each taken unless it is not reasonable, is
/// equivalent to one already taken, or cannot hold together with them. A pool file is
/// read with its entries' own structures checked, not their reasonableness, so an
/// entry that is not reasonable (too rare, too common, too long) is skipped here.
fn drawn(pool: &Pool, seed: u64, limits: &Limits) -> Result<Vec<Pattern>, String> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut candidates: Vec<(Pattern, bool)> = pool
        .for_set(SET)
        .map(|e| (e.pattern.clone(), true))
        .collect();
    let n = candidates.len();
    if pool.is_public() {
        let mut options = GenerateOptions::new(GENERATED, rng.next_u64());
        options.limits = limits.clone();
        candidates.extend(
            finder::generate(SET, &options)
                .patterns
                .into_iter()
                .map(|g| {
                    let pattern = Pattern {
                        source: g.text,
                        formula: g.formula,
                    };
                    // Generated patterns are reasonable by construction.
                    (pattern, false)
                }),
        );
    }
    candidates.shuffle(&mut rng);
    let mut out: Vec<Pattern> = Vec::new();
    let mut unreasonable = 0;
    for (p, check) in candidates {
        if out.len() == 3 {
            break;
        }
        if check && !finder::reasonable(&p, SET, &ReasonableOptions::default()).accepted() {
            unreasonable += 1;
            continue;
        }
        if !out.iter().all(|q| separator(q, &p, limits).is_ok()) {
            continue;
        }
        let mut together: Vec<Formula> = out.iter().map(|q| q.formula.clone()).collect();
        together.push(p.formula.clone());
        if !matches!(
            finder::example(&and(&together), SET, None, limits),
            Ok(Some(_))
        ) {
            continue;
        }
        out.push(p);
    }
    if out.len() < 3 {
        let skipped = if unreasonable > 0 {
            format!(", {unreasonable} of them not reasonable")
        } else {
            String::new()
        };
        return Err(format!(
            "the pool has no three different reasonable arrows patterns that some structure \
             obeys together ({n} entries{skipped}); add some"
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

/// A structure obeying `f`, drawn by `seed` among small ones, or None when no
/// structure does.
fn obeying(f: &Formula, seed: u64, limits: &Limits) -> Result<Option<Koan>, String> {
    finder::example(f, SET, Some(seed), limits).map_err(|e| match e {
        InitialError::Undecided(r) => format!("the umpire could not build the opening: {r}"),
        other => other.to_string(),
    })
}

/// #2: obeying none, else exactly one, else exactly two of the patterns; drawn by
/// `seed` among the small structures of the first of these that exists.
fn fewest(f: &[&Formula], seed: u64, limits: &Limits) -> Result<Koan, String> {
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
            if let Some(k) = obeying(&and(&parts), seed, limits)? {
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
        let k = fewest(&refs, 7, &Limits::default()).unwrap();
        let obeyed = f.iter().filter(|p| lang::evaluate(p, &k)).count();
        assert_eq!(obeyed, 1, "{}", k.to_line());
    }

    /// A pool file's arrows entry.
    fn entry(id: &str, pattern: &str, obeys: &str, not: &str) -> String {
        format!(
            "[[entry]]\nid = \"{id}\"\npattern = \"{pattern}\"\nset = \"arrows\"\n\
             obeys = \"{obeys}\"\ndoes_not_obey = \"{not}\"\ndifficulty = \"easy\"\n"
        )
    }

    fn parse(t: &str) -> Formula {
        lang::parse(t).unwrap().formula
    }

    /// A host's pool: `up` twice in other words, one too rare to be reasonable, and
    /// two more. Whatever the seed, the three drawn are reasonable and pairwise
    /// different; without enough of those, the draw says so.
    #[test]
    fn drawn_patterns_are_reasonable_and_pairwise_different() {
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
            e.contains("no three different reasonable") && e.contains("1 of them not"),
            "{e}"
        );
    }

    fn parse_pattern(t: &str) -> Pattern {
        lang::parse(t).unwrap()
    }

    /// A host's pool where two entries cannot both hold (`up` and `no up`): whatever
    /// the seed, the draw takes three that some structure obeys together, so the
    /// Triple opens; a pool with no such three says so.
    #[test]
    fn every_seed_opens_a_triple() {
        let text = [
            entry("up", "some arrow points up", "U", "D"),
            entry("no-up", "no arrow points up", "D", "U"),
            entry("right", "some arrow points right", "R", "L"),
            entry("left", "some arrow points left", "L", "R"),
        ]
        .concat();
        let pool = Pool::from_toml(&text).expect("the pool reads");
        for seed in 0..12 {
            let (hidden, o) = triple_opening(&[], &pool, seed, &Limits::default())
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            for p in &hidden {
                assert!(lang::evaluate(&p.formula, &o.all), "seed {seed}");
            }
        }
        let text = [
            entry("up", "some arrow points up", "U", "D"),
            entry("no-up", "no arrow points up", "D", "U"),
            entry("right", "some arrow points right", "R", "L"),
        ]
        .concat();
        let pool = Pool::from_toml(&text).expect("the pool reads");
        let e = triple_opening(&[], &pool, 0, &Limits::default()).unwrap_err();
        assert!(e.contains("obeys together"), "{e}");
        // The shipped pool: seed 9 once drew three that cannot hold together.
        let shipped = Pool::shipped(SET);
        for seed in [9, 28, 47] {
            triple_opening(&[], &shipped, seed, &Limits::default())
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
    }

    /// Seeds that agree modulo the pool's size draw different patterns, and a public
    /// pool's draw mixes in generated patterns, so the hidden three are not a pick
    /// from a short public list.
    #[test]
    fn the_draw_uses_the_whole_seed() {
        let pool = Pool::shipped(SET);
        let n = pool.len() as u64;
        let ids = |seed: u64| -> Vec<String> {
            let mut v: Vec<String> = drawn(&pool, seed, &Limits::default())
                .unwrap()
                .into_iter()
                .map(|p| p.source)
                .collect();
            v.sort();
            v
        };
        let mut triples = std::collections::HashSet::new();
        let mut generated = 0;
        for k in 0..6 {
            let t = ids(3 + k * n);
            generated += t
                .iter()
                .filter(|s| pool.entries().iter().all(|e| e.pattern.source != **s))
                .count();
            triples.insert(t);
        }
        assert!(triples.len() >= 5, "{triples:#?}");
        assert!(generated > 0, "no generated pattern in {triples:#?}");
        // The same seed draws the same three.
        assert_eq!(ids(11), ids(11));
    }

    /// The same three patterns open differently from seed to seed (#1 and #2 drawn
    /// among small structures), each opening still right: #1 obeys all three, #2
    /// none of them.
    #[test]
    fn the_opening_is_varied_by_the_seed() {
        let pool = Pool::shipped(SET);
        let given = texts([
            "some arrow points up",
            "some arrow points right",
            "there are at most three arrows",
        ]);
        let mut openings = std::collections::HashSet::new();
        for seed in 0..8 {
            let (hidden, o) = triple_opening(&given, &pool, seed, &Limits::default()).unwrap();
            for p in &hidden {
                assert!(lang::evaluate(&p.formula, &o.all));
                assert!(!lang::evaluate(&p.formula, &o.fewest));
            }
            openings.insert((o.all.to_line(), o.fewest.to_line()));
        }
        assert!(openings.len() >= 6, "{openings:#?}");
    }

    #[test]
    fn the_pool_gives_three_different_patterns() {
        let pool = Pool::shipped(SET);
        let (hidden, _) = triple_opening(&[], &pool, 5, &Limits::default()).unwrap();
        assert_ne!(hidden[0].source, hidden[1].source);
        assert_ne!(hidden[1].source, hidden[2].source);
    }
}
