//! The finder's benchmark workload: every pattern of the shipped pools against
//! plausible guesses, right ones (rephrasings, some far from the original's words) and
//! wrong ones (near misses a player would try), plus constructed near misses whose
//! smallest counterexample is large. Used by `benches/finder.rs`, `mondo bench
//! finder` and the tests; each case says what the right answer is, so a run also
//! checks the finder.

use crate::koan::PieceSet;
use crate::lang::{self, Pattern};
use crate::pool::Pool;

/// One (hidden, guess) pair with its known answer.
#[derive(Clone, Debug)]
pub struct Case {
    /// `set/pool-id` or `near-miss/...`.
    pub name: String,
    pub set: PieceSet,
    pub hidden: Pattern,
    pub guess: Pattern,
    /// `None` when the guess is right; else the piece count of the smallest
    /// counterexample where known (`Some(0)`: wrong, count not stated).
    pub wrong: Option<usize>,
}

impl Case {
    pub fn equivalent(&self) -> bool {
        self.wrong.is_none()
    }
}

/// Right and wrong guesses for each shipped pool entry: (set, id, guess, right?).
const GUESSES: &[(PieceSet, &str, &str, bool)] = {
    use PieceSet::{Arrows as A, Pyramids as P};
    &[
        (P, "three-pieces", "The number of pieces is 3.", true),
        (P, "three-pieces", "There are at least three pieces.", false),
        (P, "some-small", "!forall x. medium(x) | large(x)", true),
        (
            P,
            "some-small",
            "There is a small piece pointing up.",
            false,
        ),
        (P, "no-large", "Every piece is small or medium.", true),
        (P, "no-large", "Every piece is small.", false),
        (P, "vertical-only", "Every piece is vertical.", true),
        (P, "vertical-only", "No piece points left or right.", true),
        (P, "vertical-only", "Every piece points up.", false),
        (
            P,
            "two-left",
            "The number of pieces pointing left is at least 2.",
            true,
        ),
        (P, "two-left", "Exactly two pieces point left.", false),
        (
            P,
            "exactly-one-left",
            "There is a unique piece pointing left.",
            true,
        ),
        (P, "exactly-one-left", "A piece points left.", false),
        (
            P,
            "more-small",
            "There are fewer large pieces than small pieces.",
            true,
        ),
        (
            P,
            "more-small",
            "There are at least as many small pieces as large pieces.",
            false,
        ),
        (P, "at-most-four", "There are fewer than five pieces.", true),
        (P, "at-most-four", "There are at most three pieces.", false),
        (P, "two-medium", "count(x: medium(x)) = 2", true),
        (P, "two-medium", "At least two pieces are medium.", false),
        (P, "wide", "The height is less than the width.", true),
        (P, "wide", "The width is at least the height.", false),
        (
            P,
            "same-direction",
            "The number of different directions is 1.",
            true,
        ),
        (P, "same-direction", "All pieces point up.", false),
        (
            P,
            "same-size",
            "The number of different sizes is exactly one.",
            true,
        ),
        (P, "same-size", "Every piece is small.", false),
        (P, "pips-ten", "The total pips is more than nine.", true),
        (P, "pips-ten", "There are at least four pieces.", false),
        (P, "pips-ten", "The total pips is at least eleven.", false),
        (P, "unique-topmost", "Exactly one piece is topmost.", true),
        (
            P,
            "unique-topmost",
            "There is a unique bottommost piece.",
            false,
        ),
        (
            P,
            "points-at-large",
            "exists y. large(y) & exists x. points_at(x, y)",
            true,
        ),
        (
            P,
            "points-at-large",
            "Some large piece points at a piece.",
            false,
        ),
        (P, "connected", "The number of groups is one.", true),
        (P, "connected", "The number of groups is at most one.", true),
        (P, "connected", "Every piece touches another piece.", false),
        (
            P,
            "two-groups",
            "The number of groups is more than one and the number of groups is less than three.",
            true,
        ),
        (
            P,
            "two-groups",
            "The number of groups is at least two.",
            false,
        ),
        (P, "no-loners", "forall x. exists y. touches(x, y)", true),
        (P, "no-loners", "The structure is connected.", false),
        (
            P,
            "odd-small",
            "The number of small pieces is not even.",
            true,
        ),
        (P, "odd-small", "There is a small piece.", false),
        (
            P,
            "balanced",
            "count(x: up(x) | down(x)) = count(x: left(x) | right(x))",
            true,
        ),
        (P, "balanced", "The number of pieces is even.", false),
        (
            P,
            "small-above-large",
            "A large piece is directly below a small piece.",
            true,
        ),
        (
            P,
            "small-above-large",
            "A small piece is above a large piece.",
            false,
        ),
        (
            P,
            "large-left-of-small",
            "A small piece is directly right of a large piece.",
            true,
        ),
        (
            P,
            "large-left-of-small",
            "A large piece touches a small piece.",
            false,
        ),
        (
            P,
            "leftmost-right",
            "No leftmost piece points up, down or left.",
            true,
        ),
        (
            P,
            "leftmost-right",
            "Some leftmost piece points right.",
            false,
        ),
        (P, "unique-largest", "Exactly one piece is largest.", true),
        (
            P,
            "unique-largest",
            "There is exactly one large piece.",
            false,
        ),
        (P, "two-sizes", "sizes = 2", true),
        (
            P,
            "two-sizes",
            "The number of different sizes is at least two.",
            false,
        ),
        (
            P,
            "three-directions",
            "The number of different directions is more than two.",
            true,
        ),
        (
            P,
            "three-directions",
            "The number of different directions is exactly three.",
            false,
        ),
        (
            P,
            "medium-topmost",
            "No medium piece is below another piece.",
            true,
        ),
        (P, "medium-topmost", "Some medium piece is topmost.", false),
        (P, "no-pointing", "forall x y. !points_at(x, y)", true),
        (P, "no-pointing", "No piece touches another piece.", false),
        (P, "same-size-pair", "sizes < pieces", true),
        (
            P,
            "same-size-pair",
            "Some piece points the same direction as another piece.",
            false,
        ),
        (
            P,
            "small-touches-large",
            "forall x. small(x) -> exists y. large(y) & touches(x, y)",
            true,
        ),
        (
            P,
            "small-touches-large",
            "Every large piece touches a small piece.",
            false,
        ),
        (
            P,
            "up-touches-down",
            "!exists x. up(x) & !exists y. down(y) & touches(x, y)",
            true,
        ),
        (
            P,
            "up-touches-down",
            "Every piece pointing down touches a piece pointing up.",
            false,
        ),
        (P, "rows-apart", "forall x y. same_row(x, y) -> x = y", true),
        (
            P,
            "rows-apart",
            "The height is the number of pieces.",
            false,
        ),
        (
            P,
            "two-point-at-small",
            "The number of pieces pointing at a small piece is 2.",
            true,
        ),
        (
            P,
            "two-point-at-small",
            "count(y: small(y) & exists x. points_at(x, y)) = 2",
            false,
        ),
        (P, "vertical-pips", "pips(x: up(x) | down(x)) >= 5", true),
        (
            P,
            "vertical-pips",
            "The total pips of vertical pieces is more than five.",
            false,
        ),
        (P, "odd-pips", "The total pips is not even.", true),
        (P, "odd-pips", "odd(count(x: small(x) | large(x)))", true),
        (P, "odd-pips", "The number of small pieces is odd.", false),
        (
            A,
            "up-exists",
            "Not every arrow points down, left or right.",
            true,
        ),
        (A, "up-exists", "Every arrow points up.", false),
        (
            A,
            "at-most-three",
            "There are fewer than four arrows.",
            true,
        ),
        (A, "at-most-three", "There are exactly three arrows.", false),
        (A, "no-left", "Every arrow points up, right or down.", true),
        (A, "no-left", "No arrow points right.", false),
        (A, "two-right", "count(x: right(x)) = 2", true),
        (A, "two-right", "At least two arrows point right.", false),
        (
            A,
            "same-direction",
            "The number of different directions is one.",
            true,
        ),
        (
            A,
            "same-direction",
            "No arrow points the opposite direction to another arrow.",
            false,
        ),
        (A, "tall", "The width is less than the height.", true),
        (A, "tall", "The height is at least the width.", false),
        (A, "connected", "The number of groups is at most one.", true),
        (A, "connected", "Every arrow touches another arrow.", false),
        (A, "two-groups", "groups > 1 & groups < 3", true),
        (
            A,
            "two-groups",
            "The number of groups is at least two.",
            false,
        ),
        (
            A,
            "more-up",
            "There are fewer arrows pointing down than arrows pointing up.",
            true,
        ),
        (
            A,
            "more-up",
            "There are at least as many arrows pointing up as arrows pointing down.",
            false,
        ),
        (A, "two-directions", "directions = 2", true),
        (
            A,
            "two-directions",
            "The number of different directions is at least two.",
            false,
        ),
        (
            A,
            "three-directions",
            "The number of different directions is more than two.",
            true,
        ),
        (
            A,
            "three-directions",
            "The number of different directions is exactly three.",
            false,
        ),
        (
            A,
            "topmost-down",
            "No topmost arrow points up, left or right.",
            true,
        ),
        (A, "topmost-down", "Some topmost arrow points down.", false),
        (A, "some-points-at", "exists x y. points_at(x, y)", true),
        (
            A,
            "some-points-at",
            "Some arrow touches another arrow.",
            false,
        ),
        (
            A,
            "no-touching",
            "The number of groups is the number of arrows.",
            true,
        ),
        (A, "no-touching", "No arrow points at another arrow.", false),
        (
            A,
            "leftmost-right",
            "No leftmost arrow points up, down or left.",
            true,
        ),
        (
            A,
            "leftmost-right",
            "Some leftmost arrow points right.",
            false,
        ),
        (
            A,
            "vertical-left-of-horizontal",
            "A horizontal arrow is directly right of a vertical arrow.",
            true,
        ),
        (
            A,
            "vertical-left-of-horizontal",
            "A vertical arrow touches a horizontal arrow.",
            false,
        ),
        (
            A,
            "horizontal-topmost",
            "No horizontal arrow is below another arrow.",
            true,
        ),
        (
            A,
            "horizontal-topmost",
            "Every topmost arrow is horizontal.",
            false,
        ),
        (A, "even-arrows", "The number of arrows is not odd.", true),
        (
            A,
            "even-arrows",
            "The number of arrows is at least two.",
            false,
        ),
        (
            A,
            "one-points-nowhere",
            "count(x: !exists y. points_at(x, y)) = 1",
            true,
        ),
        (
            A,
            "one-points-nowhere",
            "Some arrow points at no arrow.",
            false,
        ),
    ]
};

/// Constructed near misses: (set, hidden, guess, pieces of the smallest counterexample).
pub const NEAR_MISSES: &[(PieceSet, &str, &str, usize)] = {
    use PieceSet::{Arrows as A, Pyramids as P};
    &[
        (P, "The total pips is at most 10.", "true", 4),
        (P, "The total pips is at most 28.", "true", 10),
        (P, "The total pips is at most 40.", "true", 14),
        (
            P,
            "There is a small piece, or there are at least 20 pieces.",
            "There is a small piece.",
            20,
        ),
        (
            A,
            "Some arrow points up, or there are at least 20 arrows.",
            "Some arrow points up.",
            20,
        ),
        (P, "There are at most 30 pieces.", "true", 31),
        (A, "The number of groups is at most 6.", "true", 7),
        (
            P,
            "Every piece is small, or the total pips is at least 30.",
            "Every piece is small.",
            10,
        ),
    ]
};

/// Every case, parsed. Fails with every text that does not read.
pub fn cases() -> Result<Vec<Case>, String> {
    let problems = std::cell::RefCell::new(Vec::new());
    let read = |text: &str| {
        lang::parse(text).unwrap_or_else(|e| {
            problems.borrow_mut().push(format!("`{text}`: {e}"));
            Pattern {
                source: text.to_string(),
                formula: lang::Formula::new(0..0, lang::FormulaKind::Bool(true)),
            }
        })
    };
    let mut out = Vec::new();
    for &(set, id, guess, right) in GUESSES {
        let pool = Pool::shipped(set);
        let entry = pool
            .get(id)
            .ok_or_else(|| format!("no entry `{id}` in the shipped {set} pool"))?;
        out.push(Case {
            name: format!("{set}/{id}"),
            set,
            hidden: entry.pattern.clone(),
            guess: read(guess),
            wrong: (!right).then_some(0),
        });
    }
    for (i, &(set, hidden, guess, pieces)) in NEAR_MISSES.iter().enumerate() {
        out.push(Case {
            name: format!("near-miss/{}-{pieces}-pieces", i + 1),
            set,
            hidden: read(hidden),
            guess: read(guess),
            wrong: Some(pieces),
        });
    }
    let problems = problems.into_inner();
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems.join("\n"))
    }
}
