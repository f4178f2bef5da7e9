//! What the umpire checks about a statement and says back (docs/tiles.md, "What the
//! umpire checks"): its length, the regions it speaks of, whether it can be both true
//! and false, and whether it involves every tile of its subset, decided exactly by
//! enumerating the subset's colourings.

use super::ast::{Formula, FormulaKind, Place, RegionKind, Statement, mentions_region};
use super::cells::{Cell, Layout, Subset};
use super::eval::{Geometry, MAX_CHECKED};
use super::print::symbolic;
use super::say::english;
use super::table::Table;
use super::table::Untabled;
use crate::lang::word_count;

pub use super::ast::MAX_WORDS;

/// The umpire's verdict on one statement about one subset.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Verdict {
    /// Canonical English (or the symbolic form where English has no words).
    pub statement: String,
    pub symbolic: String,
    /// Words as written.
    pub words: usize,
    pub valid: bool,
    /// Tiles whose colour can never change the statement's truth.
    pub uninvolved: Vec<Cell>,
    /// Why it is refused (every reason, joined by `; `); `None` when valid.
    pub reason: Option<String>,
    /// Whether the exact checks ran: false for a statement too complex to check
    /// (then it is refused, and `uninvolved` is empty).
    #[serde(skip)]
    pub checked: bool,
}

/// A subset too large to check exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLarge(pub usize);

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a statement is checked on at most {MAX_CHECKED} tiles (4^{MAX_CHECKED} colourings); this subset has {}",
            self.0
        )
    }
}

impl std::error::Error for TooLarge {}

/// Checks a statement about a subset under a word limit.
pub fn check(
    statement: &Statement,
    subset: &Subset,
    max_words: usize,
) -> Result<Verdict, TooLarge> {
    let geometry = Geometry::new(subset);
    let f = &statement.formula;
    let table = match geometry.tabulate(f) {
        Ok(t) => Some(t),
        Err(Untabled::TooLarge(n)) => return Err(TooLarge(n)),
        Err(Untabled::TooComplex) => None,
    };
    // The tiles whose colour can change the truth (none known without a table).
    let uninvolved: Vec<Cell> = table.as_ref().map_or_else(Vec::new, |t| {
        let mask = t.involved(geometry.len());
        geometry
            .cells()
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) == 0)
            .map(|(_, c)| *c)
            .collect()
    });
    let (words, mut reasons) = form_reasons(statement, &geometry, subset, max_words);
    match &table {
        None => reasons.push(
            "it is too complex to check: it nests so many tiles inside each other that the umpire cannot try every colouring in time; say it with fewer tiles nested in each other"
                .into(),
        ),
        Some(t) => reasons.extend(truth_reason(t, &geometry, f, &uninvolved)),
    }
    Ok(Verdict {
        statement: english(f),
        symbolic: symbolic(f),
        words,
        valid: reasons.is_empty(),
        uninvolved,
        reason: (!reasons.is_empty()).then(|| reasons.join("; ")),
        checked: table.is_some(),
    })
}

/// What the statement's form says against it, with no colouring tried: more words than
/// `max_words` (its words as written come first), or a region the subset lacks.
pub fn form_reasons(
    statement: &Statement,
    geometry: &Geometry,
    subset: &Subset,
    max_words: usize,
) -> (usize, Vec<String>) {
    let f = &statement.formula;
    let words = word_count(&statement.source);
    let mut reasons = Vec::new();
    if words > max_words {
        reasons.push(format!(
            "it has {words} words; at most {max_words} are allowed"
        ));
    }
    // `the four tiles`, `the square`: what it says of the subset must hold.
    reasons.extend(super::english::mismatches(&statement.source, subset));
    // A tile named by its coordinates that is not in the subset.
    let mut named = Vec::new();
    super::ast::visit(f, &mut |g| {
        if let FormulaKind::Place(Place::At(c), _) = g.kind
            && !subset.contains(c)
            && !named.contains(&c)
        {
            named.push(c);
        }
    });
    if !named.is_empty() {
        reasons.push(format!(
            "it names {}, not in the subset {subset}: a statement speaks only of its subset's tiles",
            list(&named)
        ));
    }
    // A row or column named by its letter or number that the subset has no tile in.
    let cells = subset.cells();
    let mut lines: Vec<String> = Vec::new();
    super::ast::visit(f, &mut |g| {
        if let FormulaKind::Place(p, _) = g.kind
            && let Some(line) = p.missing_line(cells)
            && !lines.contains(&line)
        {
            lines.push(line);
        }
    });
    // The ends of a row: the subset must be one row (or one column).
    let mut ends = false;
    super::ast::visit(f, &mut |g| {
        ends |= matches!(g.kind, FormulaKind::Place(Place::End, _));
    });
    let in_one = |line: fn(&Cell) -> u8| {
        cells
            .iter()
            .all(|c| Some(line(c)) == cells.first().map(line))
    };
    if ends && !(in_one(|c| c.row) || in_one(|c| c.col)) {
        reasons.push(format!(
            "it speaks of the ends of a row, but the subset {subset} is not one row or column: say `leftmost`, `rightmost`, `topmost` or `bottommost`"
        ));
    }
    if !lines.is_empty() {
        reasons.push(format!(
            "it names {}, not in the subset {subset} (it has no tile there): a statement speaks only of its subset's tiles",
            lines.join(" and ")
        ));
    }
    for kind in RegionKind::ALL {
        if mentions_region(f, kind) && geometry.region_count(kind) == 0 {
            reasons.push(match kind {
                RegionKind::Square => format!(
                    "it speaks of 2x2 squares, but {subset} has none (a 2x2 square counts only when all four of its tiles are in the subset)"
                ),
                _ => format!("it speaks of {}s, but the subset has none", kind.noun()),
            });
        }
    }
    (words, reasons)
}

/// What the truth table says against the statement: always true, always false, or
/// tiles it does not involve.
fn truth_reason(
    table: &Table,
    geometry: &Geometry,
    f: &Formula,
    uninvolved: &[Cell],
) -> Option<String> {
    if table.always() {
        return Some(
            "it is always true (no colouring of the subset makes it false), so it involves no tile"
                .into(),
        );
    }
    if table.never() {
        return Some(
            "it is always false (no colouring of the subset makes it true), so it involves no tile"
                .into(),
        );
    }
    if uninvolved.is_empty() {
        return None;
    }
    let list = list(uninvolved);
    let mut r = format!(
        "it does not involve {list}: no colouring of the other tiles lets {} colour change whether it is true",
        if uninvolved.len() == 1 {
            "its"
        } else {
            "their"
        }
    );
    if mentions_region(f, RegionKind::Square) {
        let outside: Vec<Cell> = geometry
            .outside(RegionKind::Square)
            .into_iter()
            .filter(|c| uninvolved.contains(c))
            .collect();
        if !outside.is_empty() {
            r.push_str(&format!(
                " ({} in no 2x2 square of the subset)",
                list_verb(&outside)
            ));
        }
    }
    Some(r)
}

/// Whether the statement is true of a layout (its subset's tiles).
pub fn truth(statement: &Statement, subset: &Subset, layout: &Layout) -> bool {
    Geometry::new(subset).evaluate_layout(&statement.formula, layout)
}

fn list(cells: &[Cell]) -> String {
    cells
        .iter()
        .map(Cell::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn list_verb(cells: &[Cell]) -> String {
    let verb = if cells.len() == 1 { "lies" } else { "lie" };
    format!("{} {verb}", list(cells))
}
