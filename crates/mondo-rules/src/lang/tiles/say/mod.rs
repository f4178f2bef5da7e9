//! Saying statements back in canonical English, for every statement: the umpire
//! shows the opponent this English and counts its words against the seed's limit.
//!
//! A statement is said in the plain English a player writes where its tree has that
//! shape (`there are at least two red tiles`, `no two adjacent tiles are the same
//! colour`, `every row has a red tile`); `above` is said `in a higher row than` and
//! `directly above` so, so that the read-back tells the two apart. Any other tree is
//! said in the English of a logician, which the reader reads too (`for every tile x,
//! x is red or there is a tile y such that y is adjacent to x`), joined to plain
//! English where the tree's parts allow. Whatever is said reads back to the same
//! meaning (the tests check it on random trees).

mod groups;
mod logic;
mod phrase;
mod plain;
mod together;

use crate::lang::tiles::ast::{Formula, FormulaKind, MAX_WORDS};
use crate::lang::tiles::cells::Colour;
use crate::lang::tiles::print::{self, Names};
use crate::lang::word_count;
use crate::lang::words::number_word;
use logic::logic;
use phrase::{connect, is_tile_name};
use plain::{sentence, simplify};

/// Canonical English for the statement: plain English where the tree has that shape,
/// the named-tile English otherwise; always English, never symbols.
pub fn english(f: &Formula) -> String {
    let f = simplify(f);
    let said = an_end(&named_tiles(&say(&f)));
    if word_count(&said) <= MAX_WORDS {
        return said;
    }
    // Over the limit, `at least two tiles` may go as `two tiles` (a bare number means
    // at least, docs/tiles.md): only when it reads back to the very same statement.
    let terse = bare_numbers(&said);
    if terse != said
        && let Ok(back) = crate::lang::tiles::english::parse_english(&terse)
        && print::symbolic(&simplify(&back.formula)) == print::symbolic(&f)
    {
        return terse;
    }
    said
}

/// `at least N` before the tiles counted (`at least two tiles are red`, `at least
/// two red tiles`) said as the bare number.
fn bare_numbers(said: &str) -> String {
    let words: Vec<&str> = said.split(' ').collect();
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let counted = words.get(i + 2).is_some_and(|w| number_word(w).is_some())
            && words
                .get(i + 3)
                .is_some_and(|w| matches!(*w, "tile" | "tiles") || Colour::from_name(w).is_some());
        if words[i] == "at" && words.get(i + 1) == Some(&"least") && counted {
            i += 2;
            continue;
        }
        out.push(words[i]);
        i += 1;
    }
    out.join(" ")
}

/// How many words the canonical English has: what the seed's 15-word limit counts.
pub fn english_words(f: &Formula) -> usize {
    crate::lang::word_count(&english(f))
}

/// `a end tile` is said `an end tile`.
fn an_end(said: &str) -> String {
    let words: Vec<&str> = said.split(' ').collect();
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let before_end = words.get(i + 1) == Some(&"end");
        out.push(match *w {
            "a" if before_end => "an",
            "(a" if before_end => "(an",
            w => w,
        });
    }
    out.join(" ")
}

/// `a C4 tile` is the tile at C4, said by its name: `C4` (the reader reads it back as
/// `a C4 tile`).
fn named_tiles(said: &str) -> String {
    let named = is_tile_name;
    let words: Vec<&str> = said.split(' ').collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let (open, article) = match words[i].strip_prefix('(') {
            Some(a) => ("(", a),
            None => ("", words[i]),
        };
        let rest = words.get(i + 2).and_then(|w| w.strip_prefix("tile"));
        if matches!(article, "a" | "an" | "another")
            && words.get(i + 1).is_some_and(|w| named(w))
            && let Some(rest) = rest.filter(|r| r.chars().all(|c| matches!(c, ')' | ',')))
        {
            out.push(format!("{open}{}{rest}", words[i + 1]));
            i += 3;
            continue;
        }
        out.push(words[i].to_string());
        i += 1;
    }
    out.join(" ")
}

/// Plain English if the whole has it; else the connectives in words with each part
/// said as best it can be; else the named-tile English.
fn say(f: &Formula) -> String {
    let plain = sentence(f);
    // The shortest of the readings it can say: the plain sentence, or its parts each
    // said as best they can be, joined by their connective (ties go to the plain).
    let joined = joined(f);
    match (plain, joined) {
        (Some(p), Some(j)) if word_count(&j) < word_count(&p) => j,
        (Some(p), _) => p,
        (None, Some(j)) => j,
        (None, None) => logic(f, &mut Names::default()),
    }
}

/// The two sides of a connective each said as best they can be, joined by it.
fn joined(f: &Formula) -> Option<String> {
    if let FormulaKind::Bin(op, a, b) = &f.kind {
        let part = |g: &Formula| {
            let s = say(g);
            if is_plain_clause(g, &s) {
                s
            } else {
                format!("({s})")
            }
        };
        return Some(connect(*op, &part(a), &part(b)));
    }
    None
}

/// Whether a part of a connective can go without parentheses: a plain sentence that
/// is not itself joined, negated to the end, or quantified to the end.
fn is_plain_clause(g: &Formula, said: &str) -> bool {
    !matches!(g.kind, FormulaKind::Bin(..))
        && !said.starts_with("it is not the case")
        && !said.starts_with("for ")
        && !said.contains(" such that ")
        && !said.starts_with('(')
}
