//! Editing a pool's TOML text one entry at a time (a host's `/pool pattern add` and
//! `/pool pattern remove`): the host's file keeps its comments and layout (toml_edit
//! edits the document in place), a new entry is written in the canonical form of the
//! module's example, and the result must load with [`Pool::from_toml`] or nothing
//! changes. Pure: the caller reads and stores the text.

use super::{Difficulty, Pool, PoolErrors};
use crate::koan::{Koan, PieceSet};
use crate::lang;
use toml_edit::{ArrayOfTables, DocumentMut, Item, Table, Value, value};

/// A pattern to add, already read, judged reasonable and given its opening structures
/// by the caller (the finder is not the pool's business).
#[derive(Clone, Debug)]
pub struct NewEntry {
    /// The pattern as the host wrote it.
    pub pattern: String,
    /// Obeys the pattern; its set is the entry's.
    pub obeys: Koan,
    pub does_not_obey: Koan,
    pub difficulty: Difficulty,
    /// For hosts; left out of the file when empty.
    pub note: String,
}

/// A pool after an edit.
#[derive(Clone, Debug)]
pub struct Edited {
    /// The whole pool file, to store.
    pub text: String,
    /// The id of the entry added or removed (as the file spells it).
    pub id: String,
    /// The pool as it now loads.
    pub pool: Pool,
}

/// Why an edit was refused (the text is then unchanged).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The stored text does not load (it was written by an older Mondo, say): editing
    /// it blind could hide its problems.
    #[error("the pool does not load, so it cannot be edited:\n{0}")]
    Unreadable(PoolErrors),
    #[error("the pool has no entry `{id}`: its ids are {}", known.join(", "))]
    UnknownId { id: String, known: Vec<String> },
    #[error(
        "`{id}` is the pool's only pattern and a pool has at least one: remove the whole \
         pool instead"
    )]
    LastEntry { id: String },
    /// The pattern reads as an entry the pool already has (for the same set).
    #[error("the pool already has this pattern as `{id}` (`{pattern}`)")]
    Duplicate { id: String, pattern: String },
    /// The pool's `entry` is written in a form this editor does not extend.
    #[error("the pool's entries are not a list of tables (`[[entry]]`)")]
    Shape,
    /// The edited pool would not load (a bad note or pattern that slipped past the
    /// caller): nothing is stored.
    #[error("the edited pool would not load:\n{0}")]
    Invalid(PoolErrors),
}

/// The piece set the file gives entries that name none (its top-level `set`).
pub fn file_set(text: &str) -> Option<PieceSet> {
    let doc: DocumentMut = text.parse().ok()?;
    doc.get("set")?.as_str()?.parse().ok()
}

/// Adds `entry` to the pool `text` (`None`: a new pool), under the first free id of
/// the form `p1`, `p2`... (ids say nothing of the pattern: a host may name one in a
/// channel).
pub fn add_entry(text: Option<&str>, entry: &NewEntry) -> Result<Edited, EditError> {
    let (mut doc, taken) = match text {
        Some(text) => {
            let pool = Pool::from_toml(text).map_err(EditError::Unreadable)?;
            if let Ok(new) = lang::parse(&entry.pattern) {
                let set = entry.obeys.set();
                let same = pool
                    .for_set(set)
                    .find(|e| lang::same_reading(&e.pattern.formula, &new.formula));
                if let Some(e) = same {
                    return Err(EditError::Duplicate {
                        id: e.id.clone(),
                        pattern: e.pattern.source.clone(),
                    });
                }
            }
            let ids: Vec<String> = pool.entries().iter().map(|e| e.id.clone()).collect();
            (parse(text)?, ids)
        }
        None => (DocumentMut::new(), Vec::new()),
    };
    let id = (1..)
        .map(|n| format!("p{n}"))
        .find(|id| !taken.iter().any(|t| t.eq_ignore_ascii_case(id)))
        .expect("an unbounded range has a free id");
    let mut table = Table::new();
    table["id"] = value(id.as_str());
    table["pattern"] = value(entry.pattern.as_str());
    table["set"] = value(entry.obeys.set().to_string());
    table["obeys"] = value(entry.obeys.to_line());
    table["does_not_obey"] = value(entry.does_not_obey.to_line());
    table["difficulty"] = value(entry.difficulty.name());
    if !entry.note.trim().is_empty() {
        table["note"] = value(entry.note.trim());
    }
    match doc.get_mut("entry") {
        None => {
            let mut entries = ArrayOfTables::new();
            entries.push(table);
            doc.insert("entry", Item::ArrayOfTables(entries));
        }
        Some(Item::ArrayOfTables(entries)) => entries.push(table),
        Some(Item::Value(Value::Array(entries))) => entries.push(table.into_inline_table()),
        Some(_) => return Err(EditError::Shape),
    }
    finish(doc, id)
}

/// Removes the entry `id` (any case) from the pool `text`; the last entry stays (a
/// pool without entries does not load).
pub fn remove_entry(text: &str, id: &str) -> Result<Edited, EditError> {
    let pool = Pool::from_toml(text).map_err(EditError::Unreadable)?;
    let Some(found) = pool.get(id) else {
        return Err(EditError::UnknownId {
            id: id.to_string(),
            known: pool.entries().iter().map(|e| e.id.clone()).collect(),
        });
    };
    let id = found.id.clone();
    if pool.len() == 1 {
        return Err(EditError::LastEntry { id });
    }
    let mut doc = parse(text)?;
    let is_it = |t: Option<&str>| t == Some(id.as_str());
    match doc.get_mut("entry") {
        Some(Item::ArrayOfTables(entries)) => {
            let at = entries
                .iter()
                .position(|t| is_it(t.get("id").and_then(Item::as_str)))
                .ok_or(EditError::Shape)?;
            entries.remove(at);
        }
        Some(Item::Value(Value::Array(entries))) => {
            let at = entries
                .iter()
                .position(|v| {
                    is_it(
                        v.as_inline_table()
                            .and_then(|t| t.get("id"))
                            .and_then(Value::as_str),
                    )
                })
                .ok_or(EditError::Shape)?;
            entries.remove(at);
        }
        _ => return Err(EditError::Shape),
    }
    finish(doc, id)
}

fn parse(text: &str) -> Result<DocumentMut, EditError> {
    // The loader accepted the text, so toml_edit does too; a disagreement is still an
    // error, not a panic.
    text.parse().map_err(|_| EditError::Shape)
}

/// The edited text, when it loads.
fn finish(doc: DocumentMut, id: String) -> Result<Edited, EditError> {
    let text = doc.to_string();
    let pool = Pool::from_toml(&text).map_err(EditError::Invalid)?;
    Ok(Edited { text, id, pool })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang;

    fn entry(pattern: &str, obeys: &str, does_not: &str) -> NewEntry {
        NewEntry {
            pattern: pattern.into(),
            obeys: obeys.parse().unwrap(),
            does_not_obey: does_not.parse().unwrap(),
            difficulty: Difficulty::Medium,
            note: String::new(),
        }
    }

    const HOSTS_FILE: &str = r#"# Our league's pool: keep it secret.
set = "pyramids"

[[entry]]
id = "up"   # the easy one
pattern = "some piece points up"
obeys = "1^"
does_not_obey = "1>"
difficulty = "easy"
"#;

    #[test]
    fn a_new_pool_is_made_with_one_canonical_entry() {
        let mut e = entry("some piece is large", "3^", "1^");
        e.note = "  big ones  ".into();
        e.difficulty = Difficulty::Hard;
        let added = add_entry(None, &e).unwrap();
        assert_eq!(added.id, "p1");
        assert_eq!(
            added.text,
            "[[entry]]\nid = \"p1\"\npattern = \"some piece is large\"\nset = \"pyramids\"\n\
             obeys = \"3^\"\ndoes_not_obey = \"1^\"\ndifficulty = \"hard\"\nnote = \"big ones\"\n"
        );
        let pool = Pool::from_toml(&added.text).unwrap();
        let p1 = pool.get("p1").unwrap();
        assert_eq!(p1.pattern.source, "some piece is large");
        assert_eq!(
            (p1.difficulty, p1.note.as_str()),
            (Difficulty::Hard, "big ones")
        );
        assert_eq!(p1.obeys, e.obeys);
    }

    #[test]
    fn adding_keeps_the_hosts_comments_and_takes_the_first_free_id() {
        let a = add_entry(Some(HOSTS_FILE), &entry("no piece points up", "1>", "1^")).unwrap();
        assert!(a.text.starts_with(HOSTS_FILE), "{}", a.text);
        assert_eq!((a.id.as_str(), a.pool.len()), ("p1", 2));
        let b = add_entry(Some(&a.text), &entry("some piece is small", "1^", "2^")).unwrap();
        assert_eq!((b.id.as_str(), b.pool.len()), ("p2", 3));
        // Removing p1 frees its id for the next pattern; the others keep theirs.
        let c = remove_entry(&b.text, "P1").unwrap();
        assert_eq!(c.id, "p1");
        assert!(c.text.contains("# the easy one") && !c.text.contains("no piece points up"));
        let d = add_entry(Some(&c.text), &entry("every piece is large", "3^", "1^")).unwrap();
        assert_eq!(d.id, "p1");
        let ids: Vec<&str> = d.pool.entries().iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["up", "p2", "p1"]);
    }

    #[test]
    fn text_that_needs_escaping_round_trips() {
        let mut e = entry("some piece points up", "1^ 2^ / 3v", "1>");
        e.note = "from \"Kory's\" list \\ with a\nnewline".into();
        let a = add_entry(None, &e).unwrap();
        let p1 = Pool::from_toml(&a.text).unwrap();
        let p1 = p1.get("p1").unwrap();
        assert_eq!(p1.note, e.note);
        assert_eq!(p1.obeys, e.obeys);
    }

    #[test]
    fn an_arrows_entry_says_its_set_in_a_pyramids_file() {
        let e = entry("some arrow points at another arrow", "R L", "U");
        let e = NewEntry {
            obeys: Koan::parse_as("R L", PieceSet::Arrows).unwrap(),
            does_not_obey: Koan::parse_as("U", PieceSet::Arrows).unwrap(),
            ..e
        };
        let a = add_entry(Some(HOSTS_FILE), &e).unwrap();
        assert_eq!(a.pool.get("p1").unwrap().set, PieceSet::Arrows);
        assert_eq!(file_set(&a.text), Some(PieceSet::Pyramids));
        assert_eq!(file_set("[[entry]]\nid = \"x\"\n"), None);
    }

    #[test]
    fn inline_entries_are_extended_inline() {
        let text = "entry = [{ id = \"up\", pattern = \"some piece points up\", \
                    set = \"pyramids\", obeys = \"1^\", does_not_obey = \"1>\", \
                    difficulty = \"easy\" }]\n";
        let a = add_entry(Some(text), &entry("no piece points up", "1>", "1^")).unwrap();
        assert_eq!(a.pool.len(), 2);
        let b = remove_entry(&a.text, "up").unwrap();
        assert_eq!(b.pool.entries()[0].id, "p1");
    }

    #[test]
    fn refusals_say_why_and_change_nothing() {
        assert_eq!(
            remove_entry(HOSTS_FILE, "p7").unwrap_err(),
            EditError::UnknownId {
                id: "p7".into(),
                known: vec!["up".into()]
            }
        );
        let e = remove_entry(HOSTS_FILE, "up").unwrap_err();
        assert_eq!(e, EditError::LastEntry { id: "up".into() });
        assert!(e.to_string().contains("remove the whole pool"), "{e}");
        let broken = HOSTS_FILE.replace("\"easy\"", "\"trivial\"");
        let e = add_entry(Some(&broken), &entry("no piece points up", "1>", "1^")).unwrap_err();
        assert!(matches!(e, EditError::Unreadable(_)), "{e}");
        assert!(
            e.to_string().contains("unknown difficulty `trivial`"),
            "{e}"
        );
        // The same pattern twice, however it is written, is one entry.
        let e = add_entry(
            Some(HOSTS_FILE),
            &entry("Some piece points up.", "1^", "1>"),
        );
        assert_eq!(
            e.unwrap_err(),
            EditError::Duplicate {
                id: "up".into(),
                pattern: "some piece points up".into()
            }
        );
        // An entry whose structures are wrong for its pattern is not stored.
        let e = add_entry(None, &entry("no piece points up", "1^", "1>")).unwrap_err();
        assert!(matches!(e, EditError::Invalid(_)), "{e}");
        // The new entry is checked like any other: a pattern that does not read.
        let e = add_entry(None, &entry("points up some", "1^", "1>")).unwrap_err();
        assert!(e.to_string().contains("does not read"), "{e}");
        assert!(lang::parse("points up some").is_err());
    }
}
