//! Rows and columns named as things the statement compares or counts, read as words
//! the reader already knows (docs/tiles.md, "Regions"):
//!
//! - `the top row has more red tiles than the bottom row` (`fewer`, `the same number
//!   of ... as`; `the left column`, `the right column`; `there are more red tiles in
//!   the top row than in the bottom row`) counts the tiles of two edges of the subset:
//!   `there are more topmost red tiles than bottommost red tiles`;
//! - `at least one of the two columns is entirely green` is `some column is entirely
//!   green`;
//! - `there is a column whose two tiles are the same colour` is `some column is the
//!   same colour`;
//! - `both tiles in some row are red` is `some row is all red`; `both rows contain a
//!   blue tile` is `every row contains a blue tile`;
//! - `no more than one tile in each row is blue` is `in every row no more than one
//!   tile is blue`; `the same colour as all of its orthogonal neighbours` is
//!   `orthogonally adjacent to no tile of a different colour`; `A1 and D1 are the same
//!   colour, and so are B1 and C1` says it again of B1 and C1.
//!
//! The number said (`the two columns`, `whose two tiles`, `both tiles`) says something
//! of the subset, as `the four tiles` does: the umpire refuses the statement when the
//! subset is not so ([`mismatches`]).

use super::super::cells::{Colour, Subset};
use super::whole::{number, reasons};
use crate::lang::lexer::Token;
use crate::lang::words::say_number;

fn word(toks: &[Token], i: usize) -> &str {
    toks.get(i).and_then(Token::word).unwrap_or("")
}

fn colour(w: &str) -> bool {
    Colour::from_name(w).is_some()
}

fn say(ws: &[&str]) -> Vec<String> {
    ws.iter().map(|w| w.to_string()).collect()
}

/// A line of the grid: a row or a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    Row,
    Column,
}

impl Line {
    fn of(w: &str) -> Option<Line> {
        match w {
            "row" | "rows" => Some(Line::Row),
            "column" | "columns" => Some(Line::Column),
            _ => None,
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Line::Row => "row",
            Line::Column => "column",
        }
    }

    fn plural(self) -> &'static str {
        match self {
            Line::Row => "rows",
            Line::Column => "columns",
        }
    }

    /// The subset's tiles in each of its lines of this kind, line by line.
    fn sizes(self, subset: &Subset) -> Vec<usize> {
        let mut lines = std::collections::BTreeMap::new();
        for c in subset.cells() {
            let at = match self {
                Line::Row => c.row,
                Line::Column => c.col,
            };
            *lines.entry(at).or_insert(0) += 1;
        }
        lines.into_values().collect()
    }
}

/// `the top row` (`the bottom row`, `the left column`, ...) at `i`: the place the
/// tiles of that edge have.
fn edge_at(toks: &[Token], i: usize) -> Option<&'static str> {
    if word(toks, i) != "the" {
        return None;
    }
    match (word(toks, i + 1), Line::of(word(toks, i + 2))?) {
        ("top" | "first" | "upper", Line::Row) => Some("topmost"),
        ("bottom" | "last" | "lower", Line::Row) => Some("bottommost"),
        ("left" | "leftmost" | "first", Line::Column) => Some("leftmost"),
        ("right" | "rightmost" | "last", Line::Column) => Some("rightmost"),
        _ => None,
    }
}

/// What a phrase at `i` says the subset's lines are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Claim {
    /// `the two columns`: the subset has this many lines of the kind.
    Lines(Line, i64),
    /// `whose two tiles`, `both tiles in some row`: each of its lines has this many
    /// tiles.
    Tiles(Line, i64),
}

/// The phrase at `i`, its length, the words read for it, and what it says of the
/// subset (if anything).
fn line_phrase(toks: &[Token], i: usize) -> Option<(usize, Vec<String>, Option<Claim>)> {
    let w = |k: usize| word(toks, i + k);
    // Two edges compared: `the top row has more red tiles than the bottom row`.
    if let Some(a) = edge_at(toks, i)
        && matches!(w(3), "has" | "contains" | "have" | "contain")
    {
        let (how, c, rest) = match (w(4), w(5), w(6), w(7), w(8)) {
            (m @ ("more" | "fewer"), c, "tiles", "than", _) if colour(c) => (m, c, 8),
            ("the", "same", "number", "of", c) if colour(c) && w(9) == "tiles" && w(10) == "as" => {
                ("same", c, 11)
            }
            _ => return None,
        };
        let b = edge_at(toks, i + rest)?;
        let mut n = rest + 3;
        if matches!(w(n), "does" | "do" | "has") {
            n += 1;
        }
        return Some((n, compared(how, c, a, b), None));
    }
    // `there are more red tiles in the top row than in the bottom row`.
    if let ("there", "are", how @ ("more" | "fewer"), c, "tiles", "in") =
        (w(0), w(1), w(2), w(3), w(4), w(5))
        && colour(c)
        && let Some(a) = edge_at(toks, i + 6)
        && w(9) == "than"
        && w(10) == "in"
        && let Some(b) = edge_at(toks, i + 11)
    {
        return Some((14, compared(how, c, a, b), None));
    }
    // `at least one of the two columns is ...`: some column is.
    if (w(0), w(1), w(2), w(3), w(4)) == ("at", "least", "one", "of", "the")
        && let Some(n) = number(toks.get(i + 5))
        && let Some(line) = Line::of(w(6))
        && matches!(w(7), "is" | "has" | "contains")
    {
        return Some((7, say(&["some", line.noun()]), Some(Claim::Lines(line, n))));
    }
    // `(there is) a column whose two tiles are ...`: some column is (all) ...
    let there = if w(0) == "there" && w(1) == "is" {
        2
    } else {
        0
    };
    if matches!(w(there), "a" | "one" | "some")
        && let Some(line) = Line::of(w(there + 1))
        && w(there + 2) == "whose"
    {
        let k = there + 3;
        let (n, claim) = match number(toks.get(i + k)) {
            Some(n) if w(k + 1) == "tiles" => (k + 2, Some(Claim::Tiles(line, n))),
            _ if w(k) == "tiles" => (k + 1, None),
            _ => return None,
        };
        if w(n) != "are" {
            return None;
        }
        let mut out = say(&["some", line.noun(), "is"]);
        if !matches!(w(n + 1), "all" | "both" | "the" | "different" | "of") {
            out.push("all".into());
        }
        return Some((n + 1, out, claim));
    }
    // `both rows contain a blue tile`: every row does, of a subset with two rows.
    // `both rows have the same number of ...` (of each other) and `both rows are the
    // same colour` (each, or as each other?) are not read so.
    if w(0) == "both"
        && let Some(line) = Line::of(w(1)).filter(|_| w(1).ends_with('s'))
        && let Some(verb) = match w(2) {
            "contain" => Some("contains"),
            "have" => Some("has"),
            "are" => Some("is"),
            _ => None,
        }
        && !(w(3) == "the" && w(4) == "same")
        && !matches!(w(3), "different" | "equal" | "alike")
    {
        return Some((
            3,
            say(&["every", line.noun(), verb]),
            Some(Claim::Lines(line, 2)),
        ));
    }
    // `both tiles in some row are red`: some row is all red.
    if (w(0), w(1), w(2)) == ("both", "tiles", "in")
        && matches!(w(3), "some" | "a" | "one" | "every" | "each")
        && let Some(line) = Line::of(w(4))
        && w(5) == "are"
    {
        let det = if matches!(w(3), "every" | "each") {
            "every"
        } else {
            "some"
        };
        let mut out = say(&[det, line.noun(), "is"]);
        if !matches!(w(6), "all" | "the" | "different" | "of") {
            out.push("all".into());
        }
        return Some((6, out, Some(Claim::Tiles(line, 2))));
    }
    None
}

/// Rewordings that move or copy words: `no more than one tile in each row is blue` is
/// `in every row no more than one tile is blue` (the region said first, as the reader
/// knows it); `is the same colour as all of its orthogonal neighbours` is `is
/// orthogonally adjacent to no tile of a different colour`; `..., and so are B1 and
/// C1` says again what was said of the two tiles named before.
fn moved(toks: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    let w = |k: usize| word(toks, i + k);
    let starts = i == 0 || toks.get(i - 1).is_some_and(|t| t.word().is_none());
    if starts {
        for k in 1..=5 {
            if matches!(w(k), "tile" | "tiles")
                && w(k + 1) == "in"
                && matches!(w(k + 2), "each" | "every")
                && let Some(line) = Line::of(w(k + 3))
                && matches!(w(k + 4), "is" | "are")
            {
                let mut out = say(&["in", "every", line.noun()]);
                out.extend((0..=k).map(|j| w(j).to_string()));
                return Some((k + 4, out));
            }
        }
    }
    if (w(0), w(1), w(2), w(3)) == ("the", "same", "colour", "as") {
        let all = if w(4) == "all" { 5 } else { 4 };
        let of = if w(all) == "of" { all + 1 } else { all };
        if all == 5 && matches!(w(of), "its" | "their") {
            let (how, n): (&[&str], usize) = match (w(of + 1), w(of + 2)) {
                ("orthogonal", "neighbours") => (&["orthogonally", "adjacent"], of + 3),
                ("diagonal", "neighbours") => (&["diagonally", "adjacent"], of + 3),
                ("neighbours", _) => (&["adjacent"], of + 2),
                _ => return None,
            };
            let mut out = say(how);
            out.extend(say(&["to", "no", "tile", "of", "a", "different", "colour"]));
            return Some((n, out));
        }
    }
    // `a 2x2 square with all four tiles the same colour` (`all its tiles`, `all the
    // tiles`): a square with exactly one colour; `... all four tiles red`: a square
    // with only red tiles.
    if (w(0), w(1)) == ("with", "all") {
        // `four` is said of a 2x2 square's tiles only.
        let square = i > 0 && word(toks, i - 1) == "square";
        let k = match (w(2), w(3)) {
            ("four", "tiles") if square => 4,
            ("its" | "the", "tiles") => 4,
            ("of", "its" | "the") if w(4) == "tiles" => 5,
            ("tiles", _) => 3,
            _ => return None,
        };
        let k = if w(k) == "being" { k + 1 } else { k };
        if (w(k), w(k + 1), w(k + 2)) == ("the", "same", "colour") {
            return Some((k + 3, say(&["with", "exactly", "one", "colour"])));
        }
        if colour(w(k)) {
            return Some((k + 1, say(&["with", "only", w(k), "tiles"])));
        }
    }
    // `A1 and D1 are the same colour, and so are B1 and C1`.
    if (w(0), w(1), w(3)) == ("so", "are", "and") && cell(w(2)) && cell(w(4)) && i > 0 {
        let before = &toks[..i];
        let are = (0..before.len()).rev().find(|&j| {
            word(before, j) == "are"
                && j >= 3
                && word(before, j - 2) == "and"
                && cell(word(before, j - 1))
                && cell(word(before, j - 3))
        })?;
        let mut end = before.len();
        while end > are + 1 && (word(before, end - 1) == "and" || before[end - 1].word().is_none())
        {
            end -= 1;
        }
        if end <= are + 1 {
            return None;
        }
        let mut out = say(&[w(2), "and", w(4), "are"]);
        out.extend((are + 1..end).map(|j| word(before, j).to_string()));
        return Some((5, out));
    }
    None
}

fn cell(w: &str) -> bool {
    w.parse::<super::super::cells::Cell>().is_ok()
}

/// `there are more topmost red tiles than bottommost red tiles`.
fn compared(how: &str, c: &str, a: &str, b: &str) -> Vec<String> {
    if how == "same" {
        return say(&[
            "there", "are", "as", "many", a, c, "tiles", "as", b, c, "tiles",
        ]);
    }
    say(&["there", "are", how, a, c, "tiles", "than", b, c, "tiles"])
}

/// The words the reader reads for a phrase at `i` that names rows or columns as
/// things (see the module's comment), and how many words it stands for; and whether
/// the words are to be reworded again as they stand (`so are B1 and C1` gives `B1
/// and C1 are ...`, two named tiles with one verb, which the vocabulary rewords).
pub(super) fn reworded(toks: &[Token], i: usize) -> Option<(usize, Vec<String>, bool)> {
    line_phrase(toks, i)
        .map(|(n, words, _)| (n, words, false))
        .or_else(|| moved(toks, i).map(|(n, words)| (n, words, word(toks, i) == "so")))
}

/// What the statement says of its subset's rows and columns that `subset` is not,
/// one reason each (`it speaks of the two columns, but the subset A1-A2-A3 has
/// three`).
pub(crate) fn mismatches(source: &str, subset: &Subset) -> Vec<String> {
    reasons(source, |toks, i| {
        let (_, _, claim) = line_phrase(toks, i)?;
        match claim? {
            Claim::Lines(line, n) => {
                let has = line.sizes(subset).len() as i64;
                (has != n).then(|| {
                    format!(
                        "it speaks of the {} {}, but the subset {subset} has {}",
                        say_number(n),
                        line.plural(),
                        say_number(has)
                    )
                })
            }
            Claim::Tiles(line, n) => line.sizes(subset).iter().any(|s| *s as i64 != n).then(|| {
                format!(
                    "it speaks of {} tiles in a {}, but not every {} of the subset {subset} has {}",
                    say_number(n),
                    line.noun(),
                    line.noun(),
                    say_number(n)
                )
            }),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_of_lines_or_of_their_tiles_must_fit_the_subset() {
        let [square, three]: [Subset; 2] =
            ["A1-A2-B1-B2", "A1-A2-A3-B1"].map(|s| s.parse().expect("a subset"));
        for fits in [
            "at least one of the two columns is entirely green",
            "there is a column whose two tiles are the same colour",
            "both tiles in some row are red",
            "the top row has more red tiles than the bottom row",
            "both rows contain a blue tile",
        ] {
            assert!(mismatches(fits, &square).is_empty(), "{fits}");
        }
        assert_eq!(
            mismatches("at least one of the two columns is entirely green", &three),
            ["it speaks of the two columns, but the subset A1-A2-A3-B1 has three"]
        );
        assert_eq!(
            mismatches("both tiles in some row are red", &three),
            [
                "it speaks of two tiles in a row, but not every row of the subset A1-A2-A3-B1 has two"
            ]
        );
        assert_eq!(
            mismatches("there is a column whose two tiles are red", &three).len(),
            1
        );
        assert_eq!(
            mismatches("both columns contain a blue tile", &three),
            ["it speaks of the two columns, but the subset A1-A2-A3-B1 has three"]
        );
    }
}
