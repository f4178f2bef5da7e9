//! What an AI student believed, structure by structure: the answer of `why` at the
//! terminal and `/why` on Discord once a match is over (docs/ai.md, "Why").
//!
//! Its belief is what the table did to its rules, and the table is public: so it is
//! told again from the finished match's table, not from the memory of the process
//! that played (which a restart would have lost). A fresh student of the same level
//! sees the table's structures in order, as the seat did (a Triple's belief about
//! each pattern only the marks on that pattern); after each it says how many rules it
//! still held, in how many groups of equal meaning, and the likeliest few.

use super::{Level, Space, Student};
use crate::koan::Koan;
use crate::rules::zendo::TableEntry;
use crate::rules::zendo::triple::{Letter, TripleEntry};
use serde::Serialize;
use std::sync::Arc;

/// The likeliest rules named after each structure (the list stays short).
pub const SHOWN: usize = 3;

/// A rule still held, with its group's share of the surviving weight.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Held {
    pub rule: String,
    pub share: f64,
}

/// What the student believed after one structure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Belief {
    /// The structure's number on the table (`#3`).
    pub number: u32,
    /// The structure, one line (rows split by ` / `).
    pub koan: String,
    /// Its verdict (on this belief's pattern).
    pub obeys: bool,
    /// Rules it still held, and their groups of equal meaning.
    pub rules: usize,
    pub groups: usize,
    /// Above 0 when no rule it knows fits the table: those held miss this many.
    pub misses: u32,
    /// The likeliest of them, at most [`SHOWN`], heaviest first.
    pub hypotheses: Vec<Held>,
}

/// One belief's story: about the match's pattern, or one of a Triple's (`pattern`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Trail {
    pub pattern: Option<Letter>,
    pub steps: Vec<Belief>,
}

/// The belief after each of `table`'s structures, given in order with their verdicts.
pub fn trail<'a>(
    space: Arc<Space>,
    level: Level,
    table: impl IntoIterator<Item = (u32, &'a Koan, bool)>,
) -> Vec<Belief> {
    let mut student = Student::new(space, level, 0);
    table
        .into_iter()
        .map(|(number, koan, obeys)| {
            student.observe(koan, obeys);
            let summary = student.summary();
            Belief {
                number,
                koan: koan.to_line(),
                obeys,
                rules: summary.rules,
                groups: summary.groups,
                misses: summary.misses,
                hypotheses: student
                    .leading(SHOWN)
                    .into_iter()
                    .map(|(rule, share)| Held { rule, share })
                    .collect(),
            }
        })
        .collect()
}

/// A one-pattern game's table (the Duel, Classic): one trail.
pub fn of_table(space: Arc<Space>, level: Level, table: &[TableEntry]) -> Vec<Trail> {
    let steps = trail(
        space,
        level,
        table.iter().map(|e| (e.number, &e.koan, e.obeys)),
    );
    vec![Trail {
        pattern: None,
        steps,
    }]
}

/// A Triple's table: a trail per pattern, each through the structures marked on it.
pub fn of_triple(space: Arc<Space>, level: Level, table: &[TripleEntry]) -> Vec<Trail> {
    Letter::ALL
        .into_iter()
        .map(|letter| Trail {
            pattern: Some(letter),
            steps: trail(
                space.clone(),
                level,
                table.iter().filter_map(|e| {
                    e.marks[letter.index()].map(|obeys| (e.number, &e.koan, obeys))
                }),
            ),
        })
        .collect()
}

fn percent(share: f64) -> String {
    let p = 100.0 * share;
    if p > 0.0 && p < 1.0 {
        "<1 %".into()
    } else {
        format!("{p:.0} %")
    }
}

impl Belief {
    /// `#3 1^ 3v  obeys: 12 rules in 5 groups; "a piece points up" 61 %, ...`
    pub fn line(&self) -> String {
        let verdict = if self.obeys { "obeys" } else { "does not obey" };
        let held = if self.misses > 0 {
            format!(
                "no rule it knows fits; {} rules in {} groups miss fewest ({} wrong)",
                self.rules, self.groups, self.misses
            )
        } else {
            format!("{} rules in {} groups", self.rules, self.groups)
        };
        let likeliest: Vec<String> = self
            .hypotheses
            .iter()
            .map(|h| format!("\"{}\" {}", h.rule, percent(h.share)))
            .collect();
        let more = if self.groups > self.hypotheses.len() {
            ", ..."
        } else {
            ""
        };
        format!(
            "#{} {}  {verdict}: {held}; {}{more}",
            self.number,
            self.koan,
            likeliest.join(", ")
        )
    }
}

/// The first line of the answer: whose belief it is.
pub fn heading(name: &str, level: Level) -> String {
    format!(
        "what {name} ({level}) believed after each structure: the rules it still held, in \
         groups of equal meaning, and the likeliest of them"
    )
}

/// Said of a Triple's pattern no structure was marked on.
pub const NONE_MARKED: &str = "(no structure was marked on it)";

impl Trail {
    /// The pattern's heading (a Triple's), if it has one.
    pub fn heading(&self) -> Option<String> {
        self.pattern.map(|letter| format!("pattern {letter}:"))
    }
}

/// The answer in words: [`heading`], then a line per structure (a Triple's under each
/// pattern's heading).
pub fn text(name: &str, level: Level, trails: &[Trail]) -> Vec<String> {
    let mut out = vec![heading(name, level)];
    for trail in trails {
        out.extend(trail.heading());
        if trail.steps.is_empty() {
            out.push(NONE_MARKED.into());
        }
        out.extend(trail.steps.iter().map(Belief::line));
    }
    out
}
