//! How the fronts would print each kind of [`Secret`]: what gives one away in a line
//! (its JSON and its text) or a Discord message (its text). The secrecy test asks
//! this of every line and message a viewer may read, with that viewer's secrets; a new
//! kind of secret must be taught here (the match below is exhaustive).
//!
//! Patterns are compared without case; the tests' seeds are large numbers, so a seed
//! printed anywhere is found and nothing else looks like one.

use super::Names;
use mondo_rules::koan::PieceSet;
use mondo_rules::lang::{self, Pattern};
use mondo_rules::pool::Pool;
use mondo_rules::rules::Secret;
use serde_json::Value;

/// The JSON keys a line about one player uses for what only that player may hear.
pub const PRIVATE_KEYS: &[&str] = &[
    "answer", "answers", "marks", "truths", "truth", "tiles", "rp", "gained", "right", "lost",
    "layout", "grid",
];

/// What gave `secret` away in a line or message (`json` is `None` for a message), if
/// anything did: the form found.
pub fn gives_away(
    secret: &Secret,
    names: &Names,
    json: Option<&Value>,
    text: &str,
) -> Option<String> {
    let json_text = json.map(Value::to_string).unwrap_or_default();
    let lower = format!("{}\n{}", text.to_lowercase(), json_text.to_lowercase());
    let found = |forms: Vec<String>| -> Option<String> {
        forms
            .into_iter()
            .filter(|f| !f.trim().is_empty())
            .find(|f| lower.contains(&f.to_lowercase()))
    };
    match secret {
        Secret::Seed(seed) => found(vec![seed.to_string()]),
        Secret::Pattern(p) => found(pattern_forms(p)),
        Secret::Grid(g) => {
            let rows = g.rows();
            let mut forms = vec![g.to_string(), rows.join("/"), rows.join("\n")];
            if let Ok(json) = serde_json::to_string(&rows) {
                forms.push(json);
            }
            for pair in rows.windows(2) {
                forms.push(format!("\"{}\",\"{}\"", pair[0], pair[1]));
            }
            for (i, row) in rows.iter().enumerate() {
                let cells: Vec<String> = row.chars().map(String::from).collect();
                forms.push(format!("{} {}", row_letter(i), cells.join(" ")));
            }
            found(forms)
        }
        Secret::Layout(layout) => {
            found(vec![layout.to_string(), super::board::layout_text(layout)])
        }
        Secret::Tile(cell, colour) => found(vec![
            format!("{cell} {}", colour.name()),
            format!("\"{cell}\":\"{}\"", colour.name()),
        ]),
        Secret::Points { seat, points } => {
            let name = names.name(*seat);
            let about = |v: &Value| {
                [&v["player"], &v["to"]]
                    .iter()
                    .all(|w| w.is_null() || w.as_str() == Some(name.as_str()))
            };
            if let Some(v) = json
                && about(v)
                && v["rp"].as_u64() == Some(u64::from(*points))
            {
                return Some(format!("\"rp\":{points}"));
            }
            found(vec![
                format!("{name} has {points} RP"),
                format!("{name}: {points} RP"),
                format!("have {points} RP"),
            ])
            .or_else(|| {
                whole(&lower, &format!("you have {points}")).then(|| format!("you have {points}"))
            })
        }
        Secret::Private { seat } => {
            let name = names.name(*seat);
            if let Some(v) = json {
                let about = v["player"].as_str() == Some(name.as_str())
                    || v["to"].as_str() == Some(name.as_str());
                if about && let Some(key) = PRIVATE_KEYS.iter().find(|k| !v[**k].is_null()) {
                    return Some(format!("\"{key}\" about {name}"));
                }
                if v["to"].as_str() == Some(name.as_str()) {
                    return Some(format!("a line to {name}"));
                }
            }
            if text.starts_with(&format!("(to {name} only)")) {
                return Some(format!("(to {name} only)"));
            }
            found(vec![format!("{name}'s answer is in: ")])
        }
        Secret::Words(words) => whole(&lower, &words.to_lowercase()).then(|| words.clone()),
    }
}

/// Whether `words` stand whole in `said`: not the start or end of longer words
/// ("there is a red tile" is not in "there is a red tile and ..."), but as said alone,
/// in a list, in quotes or as a JSON string.
fn whole(said: &str, words: &str) -> bool {
    if words.trim().is_empty() {
        return false;
    }
    said.match_indices(words).any(|(at, _)| {
        let before = said[..at].chars().next_back();
        let after = &said[at + words.len()..];
        let starts = before.is_none_or(|c| !c.is_alphanumeric() && c != '-');
        let next = after.chars().next();
        let ends = match next {
            None => true,
            Some(' ') => after[1..].starts_with(|c: char| c.is_ascii_digit() || c == '('),
            Some(c) => !c.is_alphanumeric() && c != '-' && c != '_',
        };
        starts && ends
    })
}

/// A hidden pattern in every printing: English (canonical, natural, per piece set),
/// notation, as written, and the shipped pool entries with that exact text.
pub fn pattern_forms(p: &Pattern) -> Vec<String> {
    let f = &p.formula;
    let mut forms = vec![
        lang::english(f),
        lang::symbolic(f),
        lang::english_for(f, PieceSet::Pyramids),
        lang::english_for(f, PieceSet::Arrows),
        p.source.trim().trim_end_matches('.').to_string(),
    ];
    forms.extend(lang::natural_english(f));
    forms.extend(
        shipped_ids()
            .iter()
            .filter(|(source, _)| source == p.source.trim())
            .map(|(_, id)| id.clone()),
    );
    forms
}

/// Every shipped pool entry's pattern as written, with its id (read once).
fn shipped_ids() -> &'static [(String, String)] {
    static IDS: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    IDS.get_or_init(|| {
        [PieceSet::Pyramids, PieceSet::Arrows]
            .into_iter()
            .flat_map(|set| {
                Pool::shipped(set)
                    .entries()
                    .iter()
                    .map(|e| (e.pattern.source.trim().to_string(), e.id.clone()))
                    .collect::<Vec<_>>()
            })
            .collect()
    })
}

fn row_letter(i: usize) -> char {
    char::from(b'A' + (i % 26) as u8)
}
