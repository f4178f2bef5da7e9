//! How the fronts would give a [`Secret`] away in a line (its JSON and its text) or a
//! Discord message (its text): what each secret is, and every printing it has by
//! itself, are the rules' ([`Secret::forms`], [`Secret::PRIVATE_KEYS`]); here is only
//! the fronts' own wording around them (a layout as rows of letters, a player's name
//! beside their points, a line addressed to one player). The secrecy test asks this
//! of every line and message a viewer may read, with that viewer's secrets.
//!
//! Patterns are compared without case; the tests' seeds are large numbers, so a seed
//! printed anywhere is found and nothing else looks like one.

use super::Names;
use mondo_rules::rules::Secret;
use serde_json::Value;

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
    let mut forms = secret.forms();
    match secret {
        Secret::Seed(_) | Secret::Pattern(_) | Secret::Grid(_) | Secret::Tile(..) => found(forms),
        Secret::Layout(layout) => {
            forms.push(super::board::layout_text(layout));
            found(forms)
        }
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
                if about && let Some(key) = Secret::PRIVATE_KEYS.iter().find(|k| !v[**k].is_null())
                {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Front;
    use mondo_rules::rules::{PlayerId, Seat};
    use serde_json::json;
    use std::collections::HashMap;

    fn names() -> Names {
        let seats = vec![(PlayerId(1), "alice".into()), (PlayerId(2), "bob".into())];
        Names::new(Front::Terminal, seats, HashMap::new())
    }

    #[test]
    fn a_private_key_gives_away_only_a_line_about_its_player() {
        let alice = Secret::Private { seat: Seat(0) };
        for key in Secret::PRIVATE_KEYS {
            let line = json!({"player": "alice", (*key): 1});
            let found = gives_away(&alice, &names(), Some(&line), "");
            assert_eq!(found, Some(format!("\"{key}\" about alice")));
            let bobs = json!({"player": "bob", (*key): 1});
            assert_eq!(gives_away(&alice, &names(), Some(&bobs), ""), None);
        }
        let to_her = "(to alice only) your tiles: A1 red";
        assert!(gives_away(&alice, &names(), None, to_her).is_some());
        assert_eq!(
            gives_away(&alice, &names(), None, "(to bob only) ..."),
            None
        );
    }

    #[test]
    fn points_are_given_away_beside_their_players_name() {
        let points = Secret::Points {
            seat: Seat(1),
            points: 12,
        };
        let said = |text: &str| gives_away(&points, &names(), None, text);
        assert!(said("bob has 12 RP").is_some());
        assert!(said("you have 12").is_some());
        assert_eq!(said("alice has 12 RP"), None);
        assert_eq!(said("you have 120 tiles"), None);
    }

    #[test]
    fn words_are_given_away_only_whole() {
        let words = Secret::Words("there is a red tile".into());
        let said = |text: &str| gives_away(&words, &names(), None, text);
        assert!(said("alice bluffs: \"there is a red tile\"").is_some());
        assert_eq!(said("there is a red tile and a blue one"), None);
    }
}
