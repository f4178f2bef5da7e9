//! The whole subset named as a thing: `the four tiles`, `all six tiles`, `the subset`,
//! `the square`. A statement speaks of its subset's tiles anyway, so such a phrase
//! adds nothing to what the statement means (`exactly two of the four tiles are red`
//! is `exactly two tiles are red`, `the subset contains a blue tile` is `there is a
//! blue tile`), but it does say something about the subset: how many tiles it has, or
//! that it is a 2x2 square. The reader drops the phrase ([`reworded`]); the umpire's
//! check refuses the statement when the subset is not what it says
//! ([`mismatches`]), so `all six tiles are red` is never read of four.

use super::super::cells::Subset;
use crate::lang::lexer::{Tok, Token, lex};
use crate::lang::words::{number_word, say_number};

/// What a phrase says the subset is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Whole {
    /// `the four tiles`: that many tiles.
    Tiles(i64),
    /// `the square`: a 2x2 square.
    Square,
    /// `the subset`, `the selection`: nothing more.
    Subset,
    /// `the row`: one row of the grid (`the column`: one column).
    Row,
    Column,
}

/// Verbs that say the whole has something: `the subset contains a red tile` is
/// `there is a red tile`.
const HAS: [&str; 8] = [
    "has", "have", "contains", "contain", "includes", "include", "shows", "show",
];

/// What may follow `the four tiles` for it to be the whole subset (a verb, or the end
/// of a clause), not a part of it (`the two tiles in row A`, `the two tiles on each
/// diagonal`).
fn ends_phrase(t: Option<&Token>) -> bool {
    match t.map(|t| &t.tok) {
        None | Some(Tok::Sym(_)) => true,
        Some(Tok::Word(w)) => {
            HAS.contains(&w.as_str()) || matches!(w.as_str(), "is" | "are" | "all" | "both")
        }
        Some(Tok::Int(_)) => false,
    }
}

fn word(t: Option<&Token>) -> &str {
    t.and_then(Token::word).unwrap_or("")
}

pub(super) fn number(t: Option<&Token>) -> Option<i64> {
    match &t?.tok {
        Tok::Int(n) => Some(*n),
        Tok::Word(w) => number_word(w),
        Tok::Sym(_) => None,
    }
}

/// The phrase at `i` that names the whole subset: its length, the words it keeps
/// (`the tiles`, `all tiles`), and what it says of the subset.
fn whole_at(toks: &[Token], i: usize) -> Option<(usize, Vec<&'static str>, Whole)> {
    let w = |k: usize| word(toks.get(i + k));
    // `the subset`, `the selection`, `the square` (only as what has something).
    if matches!(w(0), "the" | "this" | "my" | "our")
        && let Some(whole) = match w(1) {
            "subset" | "selection" => Some(Whole::Subset),
            "square" => Some(Whole::Square),
            "row" => Some(Whole::Row),
            "column" => Some(Whole::Column),
            _ => None,
        }
        && HAS.contains(&w(2))
    {
        return Some((2, vec![], whole));
    }
    // `the four tiles`, `these four tiles`, `all six tiles`, `all the four tiles`.
    let (det, n_at): (&[&'static str], usize) = match (w(0), w(1)) {
        ("all", "the") => (&["all", "the"], 2),
        ("all", _) => (&["all"], 1),
        ("the" | "these" | "those", _) => (&["the"], 1),
        _ => return None,
    };
    let n = number(toks.get(i + n_at)).filter(|n| *n >= 2)?;
    if w(n_at + 1) != "tiles" || !ends_phrase(toks.get(i + n_at + 2)) {
        return None;
    }
    let mut keep = det.to_vec();
    keep.push("tiles");
    Some((n_at + 2, keep, Whole::Tiles(n)))
}

/// The words the reader reads for a phrase at `i` that names the whole subset (and
/// how many it stands for): `the tiles` for `the four tiles`, `there is` for `the
/// subset contains` (the verb taken with it).
pub(super) fn reworded(toks: &[Token], i: usize) -> Option<(usize, Vec<String>)> {
    // `the four tiles are four different colours`, `the tiles are three different
    // colours`: the tiles show that many colours.
    let w = |k: usize| word(toks.get(i + k));
    let subject = match whole_at(toks, i) {
        Some((n, _, _)) => Some(n),
        None => match (w(0), w(1), w(2)) {
            ("the" | "all", "tiles", _) => Some(2),
            ("all", "the", "tiles") => Some(3),
            _ => None,
        },
    };
    if let Some(n) = subject
        && w(n) == "are"
        && let Some(m) = number(toks.get(i + n + 1))
        && matches!(w(n + 2), "different" | "distinct")
        && matches!(w(n + 3), "colours" | "colors")
    {
        let m = say_number(m);
        return Some((
            n + 4,
            ["there", "are", "exactly", &m, "colours"]
                .map(String::from)
                .to_vec(),
        ));
    }
    let (n, keep, _) = whole_at(toks, i)?;
    if HAS.contains(&word(toks.get(i + n))) {
        return Some((n + 1, vec!["there".into(), "is".into()]));
    }
    (!keep.is_empty()).then(|| (n, keep.into_iter().map(String::from).collect()))
}

/// What the statement says of its subset that `subset` is not, one reason each
/// (`it speaks of six tiles, but the subset has four`).
pub(crate) fn mismatches(source: &str, subset: &Subset) -> Vec<String> {
    reasons(source, |toks, i| {
        let (_, _, whole) = whole_at(toks, i)?;
        match whole {
            Whole::Tiles(n) if n != subset.len() as i64 => format!(
                "it speaks of {} tiles, but the subset {subset} has {}",
                say_number(n),
                say_number(subset.len() as i64)
            ),
            Whole::Square if !is_square(subset) => format!(
                "it speaks of the square, but the subset {subset} is not a 2x2 square: say `the subset`"
            ),
            Whole::Row if !in_one(subset, |c| c.row) => format!(
                "it speaks of the row, but the subset {subset} is not one row: say `the subset`"
            ),
            Whole::Column if !in_one(subset, |c| c.col) => format!(
                "it speaks of the column, but the subset {subset} is not one column: say `the subset`"
            ),
            _ => return None,
        }
        .into()
    })
}

/// The reasons `reason` gives at each word of `source` (a phrase there says what the
/// subset is not), each once, in order.
pub(super) fn reasons(
    source: &str,
    reason: impl Fn(&[Token], usize) -> Option<String>,
) -> Vec<String> {
    let Ok(lexed) = lex(source) else {
        return Vec::new();
    };
    let toks = &lexed.tokens;
    let mut out: Vec<String> = Vec::new();
    for r in (0..toks.len()).filter_map(|i| reason(toks, i)) {
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out
}

/// Whether every tile of the subset has the same `line` (its row, or its column).
fn in_one<T: PartialEq>(
    subset: &Subset,
    line: impl Fn(&crate::lang::tiles::cells::Cell) -> T,
) -> bool {
    let cells = subset.cells();
    cells
        .first()
        .is_some_and(|a| cells.iter().all(|c| line(c) == line(a)))
}

/// Whether the subset is exactly one 2x2 square.
fn is_square(subset: &Subset) -> bool {
    let cells = subset.cells();
    let (Some(rows), Some(cols)) = (
        cells
            .iter()
            .map(|c| c.row)
            .min()
            .zip(cells.iter().map(|c| c.row).max()),
        cells
            .iter()
            .map(|c| c.col)
            .min()
            .zip(cells.iter().map(|c| c.col).max()),
    ) else {
        return false;
    };
    cells.len() == 4 && rows.1 - rows.0 == 1 && cols.1 - cols.0 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(s: &str) -> Subset {
        s.parse().expect("a subset")
    }

    #[test]
    fn a_phrase_for_the_whole_subset_must_fit_it() {
        let four = sub("A1-A2-B1-B2");
        let line = sub("A1-A2-A3-A4");
        assert!(mismatches("exactly two of the four tiles are red", &four).is_empty());
        assert!(mismatches("the square has a blue tile", &four).is_empty());
        assert_eq!(
            mismatches("all six tiles are the same colour", &four),
            ["it speaks of six tiles, but the subset A1-A2-B1-B2 has four"]
        );
        assert_eq!(mismatches("the square has a blue tile", &line).len(), 1);
        // A part of the subset is no claim about it.
        assert!(mismatches("the two tiles in row A are red", &four).is_empty());
        assert!(mismatches("the subset contains a red tile", &line).is_empty());
        // `the row` / `the column`: the subset is one.
        assert!(mismatches("the row has a blue tile", &line).is_empty());
        assert_eq!(
            mismatches("the column has a blue tile", &line),
            [
                "it speaks of the column, but the subset A1-A2-A3-A4 is not one column: say `the subset`"
            ]
        );
        assert_eq!(mismatches("the row has a blue tile", &four).len(), 1);
        assert!(mismatches("the column has a blue tile", &sub("A1-B1-C1-D1")).is_empty());
    }
}
