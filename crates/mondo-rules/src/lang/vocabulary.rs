//! The words and forms of the English pattern language, each with one example that
//! reads, for the fronts' help (`help words` in the terminal, `/help patterns` on
//! Discord) and the docs. A test reads every example, and checks that
//! `docs/patterns.md` shows it.

/// One word or form of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// What it is for (`how many`, `directions`...).
    pub topic: &'static str,
    /// The words, as a player types them.
    pub words: &'static str,
    /// A whole pattern that uses them and reads.
    pub example: &'static str,
}

const fn e(topic: &'static str, words: &'static str, example: &'static str) -> Entry {
    Entry {
        topic,
        words,
        example,
    }
}

/// The vocabulary, in the order a newcomer needs it.
pub const VOCABULARY: &[Entry] = &[
    e(
        "how many",
        "every, all, some, a, no, exactly 2, at least 2, at most 2, more/fewer than 2, only 2, a single, 3 or 4",
        "exactly two pieces point up",
    ),
    e(
        "odd / even",
        "an odd number of, an even number of",
        "there is an odd number of small pieces",
    ),
    e(
        "halves",
        "half of, more than half of, at least half of",
        "more than half of the pieces are small",
    ),
    e(
        "pieces",
        "piece, pyramid, arrow, a small one, something, nothing, everything",
        "nothing points left",
    ),
    e(
        "sizes",
        "small (little), medium, large (big), 1-pip, largest, smallest",
        "every big piece points up",
    ),
    e(
        "directions",
        "points up / down / left / right, vertically, horizontally, sideways; an upward piece",
        "every piece points up or down",
    ),
    e(
        "extremes",
        "topmost, bottommost, leftmost, rightmost",
        "the unique topmost piece is large",
    ),
    e(
        "touching",
        "touches, isolated",
        "every small piece touches a large piece",
    ),
    e(
        "pointing",
        "points at, is pointed at by",
        "some piece is pointed at by a large piece",
    ),
    e(
        "places",
        "above, below, left of, right of, directly above, higher / lower than",
        "every small piece is above a large piece",
    ),
    e(
        "comparing pieces",
        "larger / smaller than, the same size as, the same way as, the opposite way to, in the same row / column as",
        "some piece is the same size as another piece",
    ),
    e(
        "pips",
        "has 2 pips, the total pips, the pip count",
        "the pip count is even",
    ),
    e(
        "each other",
        "touch each other, point at each other, no two",
        "no two pieces touch",
    ),
    e(
        "all at once",
        "point the same direction, are the same size, in different rows",
        "all pieces point in different directions",
    ),
    e(
        "groups",
        "connected, one group, exactly 2 groups",
        "there are exactly two groups",
    ),
    e(
        "kinds present",
        "sizes, directions: all three sizes, at least 2 different directions",
        "all three sizes are present",
    ),
    e(
        "shape",
        "taller than it is wide, square, a single row, 3 wide",
        "the structure is taller than it is wide",
    ),
    e(
        "numbers",
        "the number of ..., the width, the height, is odd, is at least 3, =, >",
        "the number of small pieces is odd",
    ),
    e(
        "comparing counts",
        "more ... than, as many ... as, twice as many, outnumber",
        "more pieces point up than down",
    ),
    e(
        "multiples",
        "a multiple of 3, divisible by 3, twice",
        "the total pips is a multiple of three",
    ),
    e(
        "and / or",
        "and, or, either ... or ... but not both, a large or medium piece",
        "some piece touches a large piece or a medium piece",
    ),
    e(
        "if",
        "if ... then, if S, S; S if S; only if; unless; iff",
        "if there is a small piece, every piece points up",
    ),
    e(
        "not",
        "not, does not, is not, it is not true that",
        "it is not true that every piece points up",
    ),
    e(
        "it",
        "it, back at it: a piece named before",
        "there is exactly one topmost piece and it is large",
    ),
    e(
        "the only",
        "the unique, the only",
        "the only small piece points up",
    ),
    e(
        "framing",
        "there has to be, must, a koan has the Buddha-nature if",
        "all pieces must be the same size",
    ),
    e(
        "symbolic",
        "forall, exists, count(x: ...), & | ! -> <->",
        "forall x. small(x) -> up(x)",
    ),
];

/// The vocabulary as plain text, one line per entry (`topic: words - e.g. example`),
/// with a last line on what is refused. About 3,000 characters: one Discord embed
/// (4,096), or two plain messages split at a line end.
pub fn vocabulary_text() -> String {
    let mut out =
        String::from("Patterns say what a structure must be. Words, each with an example:\n");
    for v in VOCABULARY {
        out.push_str(&format!("{}: {} - e.g. {}\n", v.topic, v.words, v.example));
    }
    out.push_str(
        "Refused as ambiguous: bare numbers (`two pieces`), `the` before one piece, `next to`, `most`.\n",
    );
    out
}
