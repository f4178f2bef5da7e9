//! Pattern pools: the hidden patterns a host offers, each with a structure that obeys
//! it and one that does not.
//!
//! A pool is a TOML file (the shipped ones are in `config/pools/`):
//!
//! ```toml
//! set = "pyramids"          # optional: the piece set of entries that name none
//!
//! [[entry]]
//! id = "three-pieces"       # unique in the file: letters, digits, - and _
//! pattern = "There are exactly three pieces."   # as the host writes it, <= 10 words
//! set = "pyramids"          # pyramids or arrows; may be left to the file's `set`
//! obeys = "1^ 2> 3v"        # koan notation; rows split by newlines or " / "
//! does_not_obey = "1^ 2>"
//! difficulty = "easy"       # easy, medium or hard
//! note = "a first pattern"  # optional: for hosts
//! ```
//!
//! Loading is pure ([`Pool::from_toml`]): reading the file is the caller's business.
//! It checks everything and reports every problem with its entry, not just the first.

pub mod edit;
pub mod sample;
#[cfg(test)]
mod tests;

pub use edit::{EditError, Edited, NewEntry, add_entry, file_set, remove_entry};
pub use sample::{EvalWorkload, obey_share};

use crate::koan::{Koan, PieceSet};
use crate::lang::{self, CompiledPattern, Pattern};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use toml::de::{DeTable, DeValue};

/// The most words a pool pattern may have, as written (the seeds' promise).
pub const MAX_WORDS: usize = 10;

/// The shipped pools, embedded so the binary works from any directory:
/// (file name, contents).
pub const SHIPPED: [(&str, &str); 2] = [
    (
        "pyramids.toml",
        include_str!("../../../../config/pools/pyramids.toml"),
    ),
    (
        "arrows.toml",
        include_str!("../../../../config/pools/arrows.toml"),
    ),
];

/// How hard a pattern is to find, as the host judges it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
}

impl Difficulty {
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    pub const fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Difficulty {
    type Err = PoolProblem;
    fn from_str(s: &str) -> Result<Difficulty, PoolProblem> {
        let wanted = s.trim().to_ascii_lowercase();
        Difficulty::ALL
            .into_iter()
            .find(|d| d.name() == wanted)
            .ok_or_else(|| PoolProblem::UnknownDifficulty(s.to_string()))
    }
}

/// One pattern of a pool, validated.
#[derive(Clone, Debug)]
pub struct PoolEntry {
    pub id: String,
    /// The pattern, with the text as the host wrote it in `pattern.source`.
    pub pattern: Pattern,
    pub set: PieceSet,
    /// A structure that obeys the pattern and one that does not, to open a game with.
    pub obeys: Koan,
    pub does_not_obey: Koan,
    pub difficulty: Difficulty,
    pub note: String,
    /// Where the entry starts in its file (1-based).
    pub line: usize,
}

impl PoolEntry {
    /// The pattern compiled for evaluation.
    pub fn compile(&self) -> CompiledPattern {
        CompiledPattern::new(&self.pattern.formula)
    }
}

/// A validated pool: ids are unique, every pattern parses, fits its piece set and
/// its word limit, and its two structures are right.
#[derive(Clone, Debug)]
pub struct Pool {
    entries: Vec<PoolEntry>,
    /// Shipped with Mondo, so anyone can read it: its entries' own opening structures
    /// would identify the entry, so a match drawn from it opens with fresh ones.
    public: bool,
}

/// What is wrong with one part of a pool file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoolProblem {
    #[error("the file is not valid TOML: {0}")]
    Toml(String),
    #[error("the pool has no entries: add `[[entry]]` tables")]
    NoEntries,
    #[error("unknown key `{key}`: {allowed}")]
    UnknownKey { key: String, allowed: &'static str },
    #[error("missing `{0}`")]
    Missing(&'static str),
    #[error("`{key}` should be {expected}")]
    WrongType {
        key: &'static str,
        expected: &'static str,
    },
    #[error("bad id `{0}`: an id is 1 to 40 letters, digits, `-` or `_` (like `three-pieces`)")]
    BadId(String),
    #[error("id `{id}` is already used at line {first_line}; ids must be unique")]
    DuplicateId { id: String, first_line: usize },
    #[error("{0}")]
    BadSet(String),
    #[error("the pattern does not read:\n{0}")]
    Pattern(String),
    /// `reason` is the refusal drawn under the pattern.
    #[error("the pattern does not fit the {set} set:\n{reason}")]
    PatternSet { set: PieceSet, reason: String },
    #[error("the pattern has {0} words as written; a pool pattern has at most {MAX_WORDS}")]
    TooManyWords(usize),
    #[error("`{key}` is not a valid structure: {reason}")]
    Koan { key: &'static str, reason: String },
    #[error("the `obeys` structure does not obey the pattern")]
    ObeysFails,
    #[error("the `does_not_obey` structure obeys the pattern")]
    DoesNotObeyHolds,
    #[error("unknown difficulty `{0}`: expected easy, medium or hard")]
    UnknownDifficulty(String),
}

/// One problem, located.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolError {
    /// 1-based line of the offending key (or of the entry, or of the file's start).
    pub line: usize,
    /// The entry's id when it has a readable one, else `entry N` (1-based); `None`
    /// for problems with the file as a whole.
    pub entry: Option<String>,
    pub problem: PoolProblem,
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.entry {
            Some(entry) => write!(f, "line {}, {entry}: {}", self.line, self.problem),
            None => write!(f, "line {}: {}", self.line, self.problem),
        }
    }
}

/// Every problem found in a pool file, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolErrors(pub Vec<PoolError>);

impl fmt::Display for PoolErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in &self.0 {
            writeln!(f, "{e}")?;
        }
        let n = self.0.len();
        write!(f, "{n} problem{}", if n == 1 { "" } else { "s" })
    }
}

impl std::error::Error for PoolErrors {}

const TOP_KEYS: &str = "allowed at the top are `set` and `[[entry]]`";
const ENTRY_KEYS: &str = "allowed in an entry are `id`, `pattern`, `set`, `obeys`, \
                          `does_not_obey`, `difficulty` and `note`";

impl Pool {
    /// Reads and validates a pool, reporting every problem found.
    pub fn from_toml(text: &str) -> Result<Pool, PoolErrors> {
        let lines = LineStarts::new(text);
        let line_of = |offset: usize| lines.line_of(offset);
        let mut errors = Vec::new();
        let doc = match DeTable::parse(text) {
            Ok(doc) => doc,
            Err(e) => {
                let line = e.span().map_or(1, |s| line_of(s.start));
                return Err(PoolErrors(vec![PoolError {
                    line,
                    entry: None,
                    problem: PoolProblem::Toml(e.message().to_string()),
                }]));
            }
        };
        let file_error = |line, problem| PoolError {
            line,
            entry: None,
            problem,
        };
        let mut default_set = None;
        let mut tables = Vec::new();
        for (key, value) in doc.get_ref().iter() {
            let line = line_of(key.span().start);
            match (key.get_ref().as_ref(), value.get_ref()) {
                ("set", DeValue::String(s)) => match s.parse::<PieceSet>() {
                    Ok(set) => default_set = Some(set),
                    Err(reason) => errors.push(file_error(line, PoolProblem::BadSet(reason))),
                },
                ("set", _) => errors.push(file_error(
                    line,
                    PoolProblem::WrongType {
                        key: "set",
                        expected: "a string: \"pyramids\" or \"arrows\"",
                    },
                )),
                ("entry", DeValue::Array(items)) => {
                    for item in items.iter() {
                        match item.get_ref() {
                            DeValue::Table(t) => tables.push((line_of(item.span().start), t)),
                            _ => errors.push(file_error(
                                line_of(item.span().start),
                                PoolProblem::WrongType {
                                    key: "entry",
                                    expected: "a list of tables, written `[[entry]]`",
                                },
                            )),
                        }
                    }
                }
                ("entry", _) => errors.push(file_error(
                    line,
                    PoolProblem::WrongType {
                        key: "entry",
                        expected: "a list of tables, written `[[entry]]`",
                    },
                )),
                (other, _) => errors.push(file_error(
                    line,
                    PoolProblem::UnknownKey {
                        key: other.to_string(),
                        allowed: TOP_KEYS,
                    },
                )),
            }
        }
        if tables.is_empty() && errors.is_empty() {
            errors.push(file_error(1, PoolProblem::NoEntries));
        }

        let mut entries: Vec<PoolEntry> = Vec::new();
        // (lower-cased id, line) of every readable id so far.
        let mut ids: HashMap<String, usize> = HashMap::new();
        for (index, (line, table)) in tables.into_iter().enumerate() {
            let mut reader = EntryReader {
                table,
                line_of: &line_of,
                entry_line: line,
                problems: Vec::new(),
            };
            let id = reader.id();
            let label = match &id {
                Some((id, _)) => format!("entry `{id}`"),
                None => format!("entry {}", index + 1),
            };
            if let Some((id, id_line)) = &id {
                let folded = id.to_ascii_lowercase();
                if let Some(first_line) = ids.get(&folded) {
                    reader.problems.push((
                        *id_line,
                        PoolProblem::DuplicateId {
                            id: id.clone(),
                            first_line: *first_line,
                        },
                    ));
                } else {
                    ids.insert(folded, *id_line);
                }
            }
            let entry = reader.entry(id.map(|(id, _)| id), default_set);
            errors.extend(
                reader
                    .problems
                    .into_iter()
                    .map(|(line, problem)| PoolError {
                        line,
                        entry: Some(label.clone()),
                        problem,
                    }),
            );
            entries.extend(entry);
        }
        errors.sort_by_key(|e| e.line);
        if errors.is_empty() {
            Ok(Pool {
                entries,
                public: false,
            })
        } else {
            Err(PoolErrors(errors))
        }
    }

    /// The shipped pool for a piece set.
    pub fn shipped(set: PieceSet) -> Pool {
        let (name, text) = match set {
            PieceSet::Pyramids => SHIPPED[0],
            PieceSet::Arrows => SHIPPED[1],
        };
        // A test loads every shipped pool, so this cannot fail in a released binary.
        let pool = Pool::from_toml(text)
            .unwrap_or_else(|e| panic!("shipped pool {name} is invalid:\n{e}"));
        Pool {
            public: true,
            ..pool
        }
    }

    /// Whether anyone can read this pool (the shipped ones).
    pub fn is_public(&self) -> bool {
        self.public
    }

    pub fn entries(&self) -> &[PoolEntry] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry with this id (ids compare without regard to case).
    pub fn get(&self, id: &str) -> Option<&PoolEntry> {
        self.entries.iter().find(|e| e.id.eq_ignore_ascii_case(id))
    }

    /// The entries for one piece set.
    pub fn for_set(&self, set: PieceSet) -> impl Iterator<Item = &PoolEntry> {
        self.entries.iter().filter(move |e| e.set == set)
    }

    /// How many entries each piece set has, by difficulty, the sets it has none of
    /// left out: `pyramids 30 (easy 10, medium 16, hard 4); arrows 4 (...)`.
    pub fn breakdown(&self) -> String {
        let mut parts = Vec::new();
        for set in PieceSet::ALL {
            let entries: Vec<_> = self.for_set(set).collect();
            if entries.is_empty() {
                continue;
            }
            let by_difficulty: Vec<String> = Difficulty::ALL
                .iter()
                .map(|d| {
                    let n = entries.iter().filter(|e| e.difficulty == *d).count();
                    format!("{d} {n}")
                })
                .collect();
            parts.push(format!(
                "{set} {} ({})",
                entries.len(),
                by_difficulty.join(", ")
            ));
        }
        parts.join("; ")
    }
}

/// Where each line of a text starts, found once: a line number is then a binary search.
/// (Counting newlines from the start for every key made checking a pool of thousands
/// of entries quadratic: 8,000 entries took half a minute.)
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn new(text: &str) -> LineStarts {
        let after_newlines = text.match_indices('\n').map(|(at, _)| at + 1);
        LineStarts(std::iter::once(0).chain(after_newlines).collect())
    }

    /// The 1-based line of a byte offset (past the end: the last line).
    fn line_of(&self, offset: usize) -> usize {
        self.0.partition_point(|&start| start <= offset)
    }
}

/// Reads one `[[entry]]` table, collecting its problems with their lines.
struct EntryReader<'a, 'i, F> {
    table: &'a DeTable<'i>,
    line_of: &'a F,
    entry_line: usize,
    problems: Vec<(usize, PoolProblem)>,
}

const ENTRY_FIELDS: [&str; 7] = [
    "id",
    "pattern",
    "set",
    "obeys",
    "does_not_obey",
    "difficulty",
    "note",
];

impl<F: Fn(usize) -> usize> EntryReader<'_, '_, F> {
    /// The string value of a key with its line; reports a wrong type, and a missing
    /// key when `required`.
    fn string(&mut self, key: &'static str, required: bool) -> Option<(String, usize)> {
        let found = self.table.iter().find(|(k, _)| k.get_ref().as_ref() == key);
        match found {
            Some((k, v)) => {
                let line = (self.line_of)(k.span().start);
                match v.get_ref() {
                    DeValue::String(s) => Some((s.to_string(), line)),
                    _ => {
                        self.problems.push((
                            line,
                            PoolProblem::WrongType {
                                key,
                                expected: "a string",
                            },
                        ));
                        None
                    }
                }
            }
            None => {
                if required {
                    self.problems
                        .push((self.entry_line, PoolProblem::Missing(key)));
                }
                None
            }
        }
    }

    /// The id and its line, when it is a good one.
    fn id(&mut self) -> Option<(String, usize)> {
        let (id, line) = self.string("id", true)?;
        let ok = (1..=40).contains(&id.len())
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if ok {
            Some((id, line))
        } else {
            self.problems.push((line, PoolProblem::BadId(id)));
            None
        }
    }

    /// Checks every field; the entry, when all of it is right.
    fn entry(&mut self, id: Option<String>, default_set: Option<PieceSet>) -> Option<PoolEntry> {
        for (k, _) in self.table.iter() {
            if !ENTRY_FIELDS.contains(&k.get_ref().as_ref()) {
                self.problems.push((
                    (self.line_of)(k.span().start),
                    PoolProblem::UnknownKey {
                        key: k.get_ref().to_string(),
                        allowed: ENTRY_KEYS,
                    },
                ));
            }
        }
        let set = match self.string("set", default_set.is_none()) {
            Some((text, line)) => match text.parse::<PieceSet>() {
                Ok(set) => Some(set),
                Err(reason) => {
                    self.problems.push((line, PoolProblem::BadSet(reason)));
                    None
                }
            },
            None => default_set,
        };
        let pattern = self.pattern(set);
        let obeys = self.koan("obeys", set);
        let does_not_obey = self.koan("does_not_obey", set);
        let difficulty = self
            .string("difficulty", true)
            .and_then(|(text, line)| match text.parse::<Difficulty>() {
                Ok(d) => Some(d),
                Err(problem) => {
                    self.problems.push((line, problem));
                    None
                }
            });
        let note = self.string("note", false).map(|(n, _)| n);

        let (pattern, obeys, does_not_obey) = (pattern?, obeys?, does_not_obey?);
        let compiled = CompiledPattern::new(&pattern.formula);
        if !compiled.evaluate(&obeys.0) {
            self.problems.push((obeys.1, PoolProblem::ObeysFails));
        }
        if compiled.evaluate(&does_not_obey.0) {
            self.problems
                .push((does_not_obey.1, PoolProblem::DoesNotObeyHolds));
        }
        if !self.problems.is_empty() {
            return None;
        }
        Some(PoolEntry {
            id: id?,
            pattern,
            set: set?,
            obeys: obeys.0,
            does_not_obey: does_not_obey.0,
            difficulty: difficulty?,
            note: note.unwrap_or_default(),
            line: self.entry_line,
        })
    }

    /// The pattern, parsed and checked against the set (when the set is known).
    fn pattern(&mut self, set: Option<PieceSet>) -> Option<Pattern> {
        let (text, line) = self.string("pattern", true)?;
        let words = lang::word_count(&text);
        if words > MAX_WORDS {
            self.problems.push((line, PoolProblem::TooManyWords(words)));
        }
        let pattern = match lang::parse(&text) {
            Ok(p) => p,
            Err(e) => {
                self.problems
                    .push((line, PoolProblem::Pattern(e.render(&text))));
                return None;
            }
        };
        let set = set?;
        if let Err(reason) = lang::check_set(&pattern, set) {
            self.problems.push((
                line,
                PoolProblem::PatternSet {
                    set,
                    reason: reason.render(&text),
                },
            ));
            return None;
        }
        Some(pattern)
    }

    /// A structure of the set, with the line it is on.
    fn koan(&mut self, key: &'static str, set: Option<PieceSet>) -> Option<(Koan, usize)> {
        let (text, line) = self.string(key, true)?;
        match Koan::parse_as(&text, set?) {
            Ok(k) => Some((k, line)),
            Err(e) => {
                self.problems.push((
                    line,
                    PoolProblem::Koan {
                        key,
                        reason: e.to_string(),
                    },
                ));
                None
            }
        }
    }
}
