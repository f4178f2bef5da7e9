//! What the AI can say: a catalogue of statements, each meant as a symbolic formula
//! and said in the umpire's own English, kept only when the umpire's reader reads
//! that English back to the same words and the same meaning. Which of them may be
//! said about a subset is the umpire's check, redone on the statement's truth table
//! ([`Candidate::on`]).

use crate::lang::tiles::ast::{RegionKind, mentions_region};
use crate::lang::tiles::eval::Geometry;
use crate::lang::tiles::table::Table;
use crate::lang::tiles::{self, Statement, Subset};
use crate::lang::word_count;
use std::sync::OnceLock;

/// One statement of the catalogue.
#[derive(Clone, Debug)]
pub struct Said {
    /// The formula meant, in the symbolic form.
    pub meant: String,
    /// The umpire's English for it: what the AI types.
    pub text: String,
    /// The reader's reading of `text` (the meaning the umpire judges).
    pub statement: Statement,
    pub words: usize,
}

const COLOURS: [&str; 4] = ["red", "blue", "green", "yellow"];

/// The formulas the AI means, before they are said.
pub fn meanings() -> Vec<String> {
    let mut out = Vec::new();
    let count = |c: &str| format!("count(x: {c}(x))");
    for c in COLOURS {
        for n in 1..=5 {
            out.push(format!("{} >= {n}", count(c)));
        }
        for n in 0..=3 {
            out.push(format!("{} = {n}", count(c)));
        }
        for n in 1..=3 {
            out.push(format!("{} <= {n}", count(c)));
        }
        out.push(format!("odd({})", count(c)));
        out.push(format!("2 * {} > count(x: true)", count(c)));
        out.push(format!("forall s: row. exists x in s. {c}(x)"));
        out.push(format!("forall s: column. exists x in s. {c}(x)"));
        out.push(format!("exists x y. {c}(x) & {c}(y) & orth_adjacent(x, y)"));
    }
    for (i, c) in COLOURS.iter().enumerate() {
        for d in &COLOURS[i + 1..] {
            out.push(format!("forall x. {c}(x) | {d}(x)"));
            for n in 2..=5 {
                out.push(format!("count(x: {c}(x) | {d}(x)) >= {n}"));
            }
            out.push(format!("{} = {}", count(c), count(d)));
            out.push(format!("exists x y. {c}(x) & {d}(y) & orth_adjacent(x, y)"));
            out.push(format!("exists x y. {c}(x) & {d}(y) & diag_adjacent(x, y)"));
        }
        for d in COLOURS {
            if d != *c {
                out.push(format!("{} > {}", count(c), count(d)));
            }
        }
    }
    for n in 2..=4 {
        out.push(format!("colours = {n}"));
    }
    out.push("colours <= 2".into());
    out.push("!exists x y. y != x & orth_adjacent(x, y) & same_colour(x, y)".into());
    out.push("!exists x y. y != x & adjacent(x, y) & same_colour(x, y)".into());
    out
}

/// A subset with rows, columns and a 2x2 square, where meanings are compared.
const PROOF_SUBSET: &str = "A1-A2-A3-B1-B2-B3-C1-C2";

/// Says a meaning in the umpire's English and reads it back: `None` unless the
/// reading gives the same words and, on a subset with every kind of region, the same
/// truth under every colouring.
pub fn say(meant: &str) -> Option<Said> {
    let intended = tiles::parse_symbolic(meant).ok()?;
    let text = tiles::english(&intended.formula);
    let statement = tiles::parse_english(&text).ok()?;
    if tiles::english(&statement.formula) != text {
        return None;
    }
    let subset: Subset = PROOF_SUBSET.parse().ok()?;
    let g = Geometry::new(&subset);
    let (a, b) = (
        g.truth_table(&intended.formula)?,
        g.truth_table(&statement.formula)?,
    );
    (a == b).then(|| Said {
        meant: meant.to_string(),
        words: word_count(&text),
        text,
        statement,
    })
}

/// Every meaning that is said and read back faithfully (built once).
pub fn catalogue() -> &'static [Said] {
    static CATALOGUE: OnceLock<Vec<Said>> = OnceLock::new();
    CATALOGUE.get_or_init(|| meanings().iter().filter_map(|m| say(m)).collect())
}

/// A statement of the catalogue that passes the umpire's check on one subset, with
/// its truth under every colouring of it.
pub struct Candidate {
    /// Its index in the catalogue.
    pub index: usize,
    pub table: Table,
    /// The share of colourings that make it true: how well a player who knows none
    /// of the tiles can mark it.
    pub prior: f64,
}

impl Candidate {
    /// The umpire's check ([`tiles::check`]) on the table: words, regions the subset
    /// has, neither always true nor always false, every tile involved.
    pub fn on(index: usize, said: &Said, g: &Geometry, max_words: usize) -> Option<Candidate> {
        if said.words > max_words {
            return None;
        }
        let f = &said.statement.formula;
        if RegionKind::ALL
            .into_iter()
            .any(|k| mentions_region(f, k) && g.region_count(k) == 0)
        {
            return None;
        }
        let table = g.tabulate(f).ok()?;
        let all = ((1u32 << g.len()) - 1) as u16;
        if table.always() || table.never() || table.involved(g.len()) != all {
            return None;
        }
        let prior = table.count_true() as f64 / table.len() as f64;
        Some(Candidate {
            index,
            table,
            prior,
        })
    }
}
