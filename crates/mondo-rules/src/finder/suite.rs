//! The finder's benchmark workload: every pattern of the shipped pools against
//! plausible guesses, right ones (rephrasings, some far from the original's words) and
//! wrong ones (near misses a player would try), plus constructed near misses whose
//! smallest counterexample is large. Used by `benches/finder.rs`, `mondo bench
//! finder` and the tests; each case says what the right answer is, so a run also
//! checks the finder.
//!
//! The cases are data, in `suite.toml` beside this file (compiled in: the engine
//! reads no files), so a new case is a few lines there; this module reads and checks
//! them, and a bad entry is refused with its name and what is wrong with it.

use crate::koan::PieceSet;
use crate::lang::{self, Pattern};
use crate::pool::Pool;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// The cases (see the comments in the file for its format).
const SUITE: &str = include_str!("suite.toml");

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

    /// The finder's answer to the pair as the benchmarks ask for it: the simplest
    /// counterexample, with nothing on the table.
    pub fn compare(&self, limits: &super::Limits) -> super::Comparison {
        super::compare_detailed(
            &self.hidden.formula,
            &self.guess.formula,
            self.set,
            &[],
            super::Style::Simple,
            0,
            limits,
        )
    }
}

/// Every pool and near-miss case, parsed. Fails naming every entry that does not read.
pub fn cases() -> Result<Vec<Case>, String> {
    let suite = Suite::read(SUITE)?;
    Ok(suite.pool.into_iter().chain(suite.near_miss).collect())
}

/// The hard set, parsed: one case per guess of each `[[hard]]` entry, named
/// `hard/set/id/n`. Fails naming every entry that does not read.
pub fn hard_cases() -> Result<Vec<Case>, String> {
    Ok(Suite::read(SUITE)?.hard)
}

/// The forms beyond the umpire's limit (`[[beyond-limit]]`), parsed (right
/// guesses), named `beyond/set/id`.
pub fn beyond_limit_cases() -> Result<Vec<Case>, String> {
    Ok(Suite::read(SUITE)?.beyond)
}

/// The sections of the suite, each in the file's order.
#[derive(Default)]
struct Suite {
    pool: Vec<Case>,
    near_miss: Vec<Case>,
    hard: Vec<Case>,
    beyond: Vec<Case>,
}

const SECTIONS: [&str; 4] = ["pool", "near-miss", "hard", "beyond-limit"];

/// The 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

impl Suite {
    /// Reads the whole file, collecting every problem (each naming its entry).
    fn read(text: &str) -> Result<Suite, String> {
        let doc = DeTable::parse(text).map_err(|e| {
            let line = e.span().map_or(1, |s| line_of(text, s.start));
            format!("finder suite, line {line}: not valid TOML: {}", e.message())
        })?;
        let doc = doc.get_ref();
        let mut problems = Vec::new();
        for (key, _) in doc.iter() {
            if !SECTIONS.contains(&key.get_ref().as_ref()) {
                problems.push(format!(
                    "finder suite, line {}: unknown section `{}`: allowed are `[[pool]]`, \
                     `[[near-miss]]`, `[[hard]]` and `[[beyond-limit]]`",
                    line_of(text, key.span().start),
                    key.get_ref()
                ));
            }
        }
        let mut suite = Suite::default();
        let mut pools: Vec<(PieceSet, Pool)> = Vec::new();
        for (n, table, line) in entries(text, doc, "pool", &mut problems) {
            let mut e = Entry::new(text, "pool", n, line, table, &mut problems);
            e.only(&["set", "id", "guesses"]);
            let (set, id) = e.name();
            let hidden = match (set, &id) {
                (Some(set), Some(id)) => {
                    if !pools.iter().any(|(s, _)| *s == set) {
                        pools.push((set, Pool::shipped(set)));
                    }
                    let pool = pools.iter().find(|(s, _)| *s == set).map(|(_, p)| p);
                    match pool.and_then(|p| p.get(id)) {
                        Some(entry) => Some(entry.pattern.clone()),
                        None => {
                            e.problem(format!("no entry `{id}` in the shipped {set} pool"));
                            None
                        }
                    }
                }
                _ => None,
            };
            let guesses = e.guesses();
            if let (Some(set), Some(id), Some(hidden)) = (set, id, hidden) {
                for (guess, wrong) in guesses {
                    suite.pool.push(Case {
                        name: format!("{set}/{id}"),
                        set,
                        hidden: hidden.clone(),
                        guess,
                        wrong,
                    });
                }
            }
        }
        for (n, table, line) in entries(text, doc, "near-miss", &mut problems) {
            let mut e = Entry::new(text, "near miss", n, line, table, &mut problems);
            e.only(&["set", "hidden", "wrong", "pieces"]);
            let set = e.set();
            let hidden = e.pattern("hidden");
            let guess = e.pattern("wrong");
            let pieces = e.pieces(e.get("pieces"), true);
            if let (Some(set), Some(hidden), Some(guess), Some(pieces)) =
                (set, hidden, guess, pieces)
            {
                suite.near_miss.push(Case {
                    name: format!("near-miss/{n}-{pieces}-pieces"),
                    set,
                    hidden,
                    guess,
                    wrong: Some(pieces),
                });
            }
        }
        for (n, table, line) in entries(text, doc, "hard", &mut problems) {
            let mut e = Entry::new(text, "hard", n, line, table, &mut problems);
            e.only(&["set", "id", "hidden", "guesses"]);
            let (set, id) = e.name();
            let hidden = e.pattern("hidden");
            let guesses = e.guesses();
            if let (Some(set), Some(id), Some(hidden)) = (set, id, hidden) {
                for (k, (guess, wrong)) in guesses.into_iter().enumerate() {
                    suite.hard.push(Case {
                        name: format!("hard/{set}/{id}/{}", k + 1),
                        set,
                        hidden: hidden.clone(),
                        guess,
                        wrong,
                    });
                }
            }
        }
        for (n, table, line) in entries(text, doc, "beyond-limit", &mut problems) {
            let mut e = Entry::new(text, "beyond-limit", n, line, table, &mut problems);
            e.only(&["set", "id", "hidden", "right"]);
            let (set, id) = e.name();
            let hidden = e.pattern("hidden");
            let guess = e.pattern("right");
            if let (Some(set), Some(id), Some(hidden), Some(guess)) = (set, id, hidden, guess) {
                suite.beyond.push(Case {
                    name: format!("beyond/{set}/{id}"),
                    set,
                    hidden,
                    guess,
                    wrong: None,
                });
            }
        }
        if problems.is_empty() {
            Ok(suite)
        } else {
            Err(problems.join("\n"))
        }
    }
}

/// The tables of a `[[section]]`, numbered from 1, with their lines (a section left
/// out has none).
fn entries<'a, 'i>(
    text: &str,
    doc: &'a DeTable<'i>,
    section: &str,
    problems: &mut Vec<String>,
) -> Vec<(usize, &'a DeTable<'i>, usize)> {
    let Some(value) = find(doc, section) else {
        return Vec::new();
    };
    let shape = |span: std::ops::Range<usize>| {
        format!(
            "finder suite, line {}: `{section}` must be a list of tables, written `[[{section}]]`",
            line_of(text, span.start)
        )
    };
    let DeValue::Array(items) = value.get_ref() else {
        problems.push(shape(value.span()));
        return Vec::new();
    };
    let mut out = Vec::new();
    for (n, item) in items.iter().enumerate() {
        match item.get_ref() {
            DeValue::Table(t) => out.push((n + 1, t, line_of(text, item.span().start))),
            _ => problems.push(shape(item.span())),
        }
    }
    out
}

const GUESS_FORMS: &str = "`{ right = \"...\" }` or `{ wrong = \"...\", pieces = n }`";

/// Reads one entry's fields, reporting each problem with the entry's line and label
/// (its section and number, then `set/id` once those read).
struct Entry<'a, 'i, 'p> {
    text: &'a str,
    section: &'static str,
    label: String,
    line: usize,
    table: &'a DeTable<'i>,
    problems: &'p mut Vec<String>,
}

impl<'a, 'i, 'p> Entry<'a, 'i, 'p> {
    /// The `n`th entry of `section`, at `line`.
    fn new(
        text: &'a str,
        section: &'static str,
        n: usize,
        line: usize,
        table: &'a DeTable<'i>,
        problems: &'p mut Vec<String>,
    ) -> Entry<'a, 'i, 'p> {
        Entry {
            text,
            section,
            label: format!("{section} entry {n}"),
            line,
            table,
            problems,
        }
    }

    fn problem(&mut self, what: impl std::fmt::Display) {
        let line = self.line;
        self.problem_at(line, what);
    }

    fn problem_at(&mut self, line: usize, what: impl std::fmt::Display) {
        self.problems
            .push(format!("finder suite, line {line}, {}: {what}", self.label));
    }

    fn line_of(&self, span: std::ops::Range<usize>) -> usize {
        line_of(self.text, span.start)
    }

    fn get(&self, key: &str) -> Option<&'a Spanned<DeValue<'i>>> {
        find(self.table, key)
    }

    /// Refuses the keys that are not `allowed`.
    fn only(&mut self, allowed: &[&str]) {
        let table = self.table;
        unknown_keys(table, allowed, |key, span| {
            let line = self.line_of(span);
            self.problem_at(
                line,
                format!("unknown key `{key}` (allowed: {})", list(allowed)),
            );
        });
    }

    /// A required string.
    fn string(&mut self, key: &str) -> Option<String> {
        match self.get(key) {
            Some(v) => match v.get_ref() {
                DeValue::String(s) => Some(s.to_string()),
                _ => {
                    let line = self.line_of(v.span());
                    self.problem_at(line, format!("`{key}` must be a string"));
                    None
                }
            },
            None => {
                self.problem(format!("`{key}` is missing"));
                None
            }
        }
    }

    fn set(&mut self) -> Option<PieceSet> {
        let text = self.string("set")?;
        match text.parse::<PieceSet>() {
            Ok(set) => Some(set),
            Err(reason) => {
                let line = self
                    .get("set")
                    .map_or(self.line, |v| self.line_of(v.span()));
                self.problem_at(line, format!("`set`: {reason}"));
                None
            }
        }
    }

    /// The set and id; once both read, the label becomes "section `set/id`".
    fn name(&mut self) -> (Option<PieceSet>, Option<String>) {
        let set = self.set();
        let id = self.string("id");
        if let (Some(set), Some(id)) = (set, &id) {
            self.label = format!("{} `{set}/{id}`", self.section);
        }
        (set, id)
    }

    /// A required pattern.
    fn pattern(&mut self, key: &str) -> Option<Pattern> {
        let text = self.string(key)?;
        let line = self.get(key).map_or(self.line, |v| self.line_of(v.span()));
        self.parse(line, key, &text)
    }

    fn parse(&mut self, line: usize, key: &str, text: &str) -> Option<Pattern> {
        match lang::parse(text) {
            Ok(p) => Some(p),
            Err(e) => {
                self.problem_at(line, format!("`{key}` does not read: `{text}`: {e}"));
                None
            }
        }
    }

    /// `pieces`: the smallest counterexample's piece count; `None` when it is left
    /// out (a problem when `required`) or wrong.
    fn pieces(&mut self, value: Option<&Spanned<DeValue<'_>>>, required: bool) -> Option<usize> {
        let Some(value) = value else {
            if required {
                self.problem("`pieces` is missing");
            }
            return None;
        };
        let n = match value.get_ref() {
            DeValue::Integer(n) => usize::from_str_radix(n.as_str(), n.radix()).ok(),
            _ => None,
        };
        match n {
            Some(n) if n >= 1 => Some(n),
            _ => {
                let line = self.line_of(value.span());
                self.problem_at(
                    line,
                    "`pieces` must be a whole number from 1 up (leave it out when not stated)",
                );
                None
            }
        }
    }

    /// `guesses`: a non-empty list of right and wrong guesses, each with what the
    /// finder must answer (`None`: right; `Some(0)`: wrong, count not stated). Only
    /// the guesses that read.
    fn guesses(&mut self) -> Vec<(Pattern, Option<usize>)> {
        let Some(value) = self.get("guesses") else {
            self.problem("`guesses` is missing");
            return Vec::new();
        };
        let items = match value.get_ref() {
            DeValue::Array(items) if !items.is_empty() => items,
            _ => {
                let line = self.line_of(value.span());
                self.problem_at(
                    line,
                    format!("`guesses` must be a non-empty list of {GUESS_FORMS}"),
                );
                return Vec::new();
            }
        };
        let mut out = Vec::new();
        for (k, item) in items.iter().enumerate() {
            let entry = std::mem::take(&mut self.label);
            self.label = format!("{entry}, guess {}", k + 1);
            let line = self.line;
            self.line = self.line_of(item.span());
            if let Some(guess) = self.guess(item.get_ref()) {
                out.push(guess);
            }
            self.line = line;
            self.label = entry;
        }
        out
    }

    fn guess(&mut self, item: &DeValue<'_>) -> Option<(Pattern, Option<usize>)> {
        let DeValue::Table(table) = item else {
            self.problem(format!("must be {GUESS_FORMS}"));
            return None;
        };
        let allowed = ["right", "wrong", "pieces"];
        unknown_keys(table, &allowed, |key, _| {
            self.problem(format!("unknown key `{key}` (allowed: {})", list(&allowed)));
        });
        let text = |key| find(table, key).map(|v| v.get_ref().as_str());
        let pieces = find(table, "pieces");
        match (text("right"), text("wrong")) {
            (Some(Some(text)), None) => {
                if pieces.is_some() {
                    self.problem("a right guess has no counterexample: leave out `pieces`");
                    return None;
                }
                let line = self.line;
                Some((self.parse(line, "right", text)?, None))
            }
            (None, Some(Some(text))) => {
                let n = self.pieces(pieces, false);
                if pieces.is_some() && n.is_none() {
                    return None;
                }
                let line = self.line;
                Some((self.parse(line, "wrong", text)?, Some(n.unwrap_or(0))))
            }
            (Some(_), Some(_)) => {
                self.problem("say `right` or `wrong`, not both");
                None
            }
            (None, None) => {
                self.problem(format!("must be {GUESS_FORMS}"));
                None
            }
            _ => {
                self.problem("the guess must be a string");
                None
            }
        }
    }
}

/// A key's value in a table.
fn find<'a, 'i>(table: &'a DeTable<'i>, key: &str) -> Option<&'a Spanned<DeValue<'i>>> {
    table
        .iter()
        .find(|(k, _)| k.get_ref().as_ref() == key)
        .map(|(_, v)| v)
}

/// Calls `report` with each key of `table` that is not `allowed`, and its span.
fn unknown_keys(
    table: &DeTable<'_>,
    allowed: &[&str],
    mut report: impl FnMut(&str, std::ops::Range<usize>),
) {
    for (key, _) in table.iter() {
        if !allowed.contains(&key.get_ref().as_ref()) {
            report(key.get_ref().as_ref(), key.span());
        }
    }
}

/// `a`, `b`, `c`.
fn list(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> String {
        match Suite::read(text) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(e) => e,
        }
    }

    #[test]
    fn the_shipped_suite_reads_in_every_section() {
        let suite = Suite::read(SUITE).unwrap_or_else(|e| panic!("{e}"));
        for (name, cases) in [
            ("pool", &suite.pool),
            ("near-miss", &suite.near_miss),
            ("hard", &suite.hard),
            ("beyond-limit", &suite.beyond),
        ] {
            assert!(!cases.is_empty(), "no {name} cases");
        }
        let mut names: Vec<&str> = suite.hard.iter().map(|c| c.name.as_str()).collect();
        names.extend(suite.beyond.iter().map(|c| c.name.as_str()));
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names.len(),
            count,
            "two hard or beyond-limit cases share a name"
        );
    }

    #[test]
    fn a_case_keeps_its_file_order_and_expectations() {
        let text = r#"
[[pool]]
set = "pyramids"
id = "three-pieces"
guesses = [
    { wrong = "There are at least three pieces.", pieces = 4 },
    { right = "The number of pieces is 3." },
    { wrong = "true" },
]

[[near-miss]]
set = "arrows"
hidden = "There are at most 30 pieces."
wrong = "true"
pieces = 31
"#;
        let suite = Suite::read(text).unwrap_or_else(|e| panic!("{e}"));
        let got: Vec<(&str, &str, Option<usize>)> = suite
            .pool
            .iter()
            .chain(&suite.near_miss)
            .map(|c| (c.name.as_str(), c.guess.source.as_str(), c.wrong))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "pyramids/three-pieces",
                    "There are at least three pieces.",
                    Some(4)
                ),
                ("pyramids/three-pieces", "The number of pieces is 3.", None),
                ("pyramids/three-pieces", "true", Some(0)),
                ("near-miss/1-31-pieces", "true", Some(31)),
            ]
        );
        assert_eq!(
            suite.pool[0].hidden.source,
            "There are exactly three pieces."
        );
        assert_eq!(suite.near_miss[0].set, PieceSet::Arrows);
    }

    #[test]
    fn a_bad_entry_is_refused_with_its_name_line_and_fault() {
        let text = r#"[[pool]]
set = "pyramids"
id = "no-such-entry"
guesses = [{ right = "true" }]

[[hard]]
set = "pyramids"
id = "chain"
hidden = "exists x. small(x)"
guesses = [
    { right = "exists x. small(x)" },
    { wrong = "exists x. frobnicates(x)", pieces = 2 },
    { right = "true", wrong = "false" },
    { right = "true", pieces = 1 },
    { wrong = "false", pieces = 0 },
    { rigth = "true" },
]

[[near-miss]]
set = "cubes"
wrong = "true"
pieces = 3
colour = "red"
"#;
        let e = refused(text);
        let expected = [
            "line 1, pool `pyramids/no-such-entry`: no entry `no-such-entry` in the shipped \
             pyramids pool",
            "line 12, hard `pyramids/chain`, guess 2: `wrong` does not read: \
             `exists x. frobnicates(x)`",
            "line 13, hard `pyramids/chain`, guess 3: say `right` or `wrong`, not both",
            "line 14, hard `pyramids/chain`, guess 4: a right guess has no counterexample",
            "line 15, hard `pyramids/chain`, guess 5: `pieces` must be a whole number from 1 up",
            "line 16, hard `pyramids/chain`, guess 6: unknown key `rigth`",
            "line 16, hard `pyramids/chain`, guess 6: must be `{ right = \"...\" }` or",
            "line 20, near miss entry 1: `set`: unknown piece set `cubes`",
            "line 19, near miss entry 1: `hidden` is missing",
            "line 23, near miss entry 1: unknown key `colour` (allowed: `set`, `hidden`, `wrong`, \
             `pieces`)",
        ];
        for want in expected {
            assert!(
                e.lines().any(|l| l.contains(want)),
                "missing {want:?} in:\n{e}"
            );
        }
        assert_eq!(e.lines().count(), expected.len(), "{e}");
        assert!(
            e.lines().all(|l| l.starts_with("finder suite, line ")),
            "{e}"
        );
    }

    #[test]
    fn a_bad_file_shape_is_refused() {
        let e = refused("[[pool]\nset = 1\n");
        assert!(e.starts_with("finder suite, line 1: not valid TOML"), "{e}");
        let e = refused("[[guesses]]\nset = \"pyramids\"\n");
        assert!(e.contains("unknown section `guesses`"), "{e}");
        let e = refused("hard = \"points-up\"\n");
        assert!(
            e.contains("`hard` must be a list of tables, written `[[hard]]`"),
            "{e}"
        );
        let e = refused(
            "[[beyond-limit]]\nset = \"arrows\"\nid = 7\nhidden = \"true\"\nright = \"true\"\n",
        );
        assert!(
            e.contains("line 3, beyond-limit entry 1: `id` must be a string"),
            "{e}"
        );
        let e =
            refused("[[hard]]\nset = \"arrows\"\nid = \"x\"\nhidden = \"true\"\nguesses = []\n");
        assert!(
            e.contains("hard `arrows/x`: `guesses` must be a non-empty list"),
            "{e}"
        );
    }
}
