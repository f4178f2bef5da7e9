//! A stored Zendo match (any mode) as its replay page reads it: who made each step,
//! what its setup says, its structures pictured, its hidden patterns.

use crate::koan::Koan;
use crate::logged::{At, Logged, Pictured, pictures_with};
use crate::logged::{Author, Fields, ending};
use crate::render::{self, Mark, Picture};
use serde_json::Value;

/// Zendo's log, read for the replay page (every mode's: they share their events).
pub struct Log;

impl Logged for Log {
    fn author(body: &Value, setup: &Value, earlier: &[Value]) -> Option<Author> {
        let f = Fields(body);
        match f.event() {
            // Classic's lobby: who joins, who leaves it, who closes it.
            "joined" | "unjoined" => f.id("player"),
            "lobby_closed" => f.id("by"),
            // A player's own move, by the seat it names.
            "observed" | "guess_read" | "challenge_opened" | "graded" | "mondo_opened" => {
                f.seat("by")
            }
            "challenge_answered" | "mondo_answered" | "quiz_answered" | "left" | "back" => {
                f.seat("seat")
            }
            "skipped" if !f.flag("time_up") => f.seat("seat"),
            "turn_ended" if body.get("why").and_then(Value::as_str) == Some("ended") => {
                f.seat("seat")
            }
            "starter_chosen" => advantage(setup),
            "guess_confirmed" => guesser(body.get("number"), earlier),
            "guess_withdrawn" => withdrawn(body, earlier),
            // The Triple: a pattern's own event, inside.
            "pattern" => body
                .get("zendo")
                .and_then(|z| Log::author(z, setup, earlier))
                .filter(|a| *a != Author::Umpire),
            "match_ended" | "triple_ended" => body.get("outcome").and_then(ending),
            _ => None,
        }
    }

    fn opening(created: &Value, who: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
        let mut said = Vec::new();
        if let Some(name) = who("advantage") {
            said.push(format!("{name} has the advantage and chooses who starts."));
        }
        if let Some(name) = who("starter") {
            said.push(format!("{name} starts."));
        }
        if let Some(name) = who("master") {
            said.push(format!("{name} is the master."));
        }
        if let Some(set) = created
            .pointer("/setup/settings/set")
            .and_then(Value::as_str)
        {
            said.push(format!("Played with {}.", set.replace('_', " ")));
        }
        if !pictures_with(created, &Log::picture).is_empty() {
            said.push("The table opens with the structures pictured.".into());
        }
        said
    }

    fn picture(at: At<'_>) -> Option<Pictured> {
        // A structure's verdict sits beside it: `{"koan": .., "obeys": true}`.
        let beside = at
            .parent
            .and_then(|p| p.get("obeys"))
            .and_then(Value::as_bool);
        if at.key == "koan"
            && let Some(obeys) = beside
            && let Ok(koan) = serde_json::from_value::<Koan>(at.value.clone())
        {
            let mark = if obeys { Mark::Obeys } else { Mark::DoesNot };
            return Some(structure(&koan, Some(mark), None));
        }
        // A structure with its verdict inside, or none.
        let map = at.value.as_object()?;
        if !(map.contains_key("pieces") && map.contains_key("set")) {
            return None;
        }
        let koan = serde_json::from_value::<Koan>(at.value.clone()).ok()?;
        let mark = match map.get("obeys") {
            Some(Value::Bool(true)) => Some(Mark::Obeys),
            Some(Value::Bool(false)) => Some(Mark::DoesNot),
            _ => None,
        };
        let caption = (!at.key.is_empty()).then(|| at.key.replace('_', " "));
        Some(structure(&koan, mark, caption))
    }

    fn secrets(bodies: &[Value]) -> Vec<(String, String)> {
        let mut hidden = Vec::new();
        if let Some(created) = bodies.first() {
            sources(created, "", &mut hidden);
        }
        hidden
    }
}

/// One structure's picture.
fn structure(koan: &Koan, mark: Option<Mark>, caption: Option<String>) -> Pictured {
    let picture = Picture { mark, caption };
    (
        format!("structure {koan}"),
        render::koan_png(koan, &picture),
    )
}

/// The player with the advantage (who chooses the starter), by id from the setup.
fn advantage(setup: &Value) -> Option<Author> {
    Fields(setup.get("setup")?).id("advantage")
}

/// Who read guess `number` (its `guess_read`, also inside a Triple's `pattern`).
fn guesser(number: Option<&Value>, earlier: &[Value]) -> Option<Author> {
    let number = number?;
    earlier.iter().rev().find_map(|e| {
        let e = e.get("zendo").unwrap_or(e);
        (e.get("event").and_then(Value::as_str) == Some("guess_read")
            && e.get("number") == Some(number))
        .then(|| e.get("by").and_then(Value::as_u64))
        .flatten()
        .map(|s| Author::Seat(s as usize))
    })
}

/// A guess taken back is its guesser's; disallowed, the host's; out of time, the
/// umpire's.
fn withdrawn(body: &Value, earlier: &[Value]) -> Option<Author> {
    let why = body.get("why")?;
    match why.get("why").and_then(Value::as_str)? {
        "taken_back" => guesser(body.get("number"), earlier),
        "disallowed" => why.get("by").and_then(Value::as_u64).map(Author::Id),
        _ => None,
    }
}

/// Patterns as their authors wrote them (`{"source": ..}` inside the setup); a list of
/// them (the Triple's three) by letter.
fn sources(v: &Value, key: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(map) => {
            if let Some(text) = map.get("source").and_then(Value::as_str) {
                let what = match key {
                    "" | "hidden" => "hidden pattern".to_string(),
                    k => format!("{} pattern", k.replace('_', " ")),
                };
                out.push((what, text.to_string()));
                return;
            }
            for (k, v) in map {
                sources(v, k, out);
            }
        }
        Value::Array(items) => {
            let patterns = items.iter().all(|i| i.get("source").is_some());
            for (n, v) in items.iter().enumerate() {
                if patterns && items.len() > 1 {
                    let letter = (b'A' + n as u8) as char;
                    if let Some(text) = v.get("source").and_then(Value::as_str) {
                        out.push((format!("pattern {letter}"), text.to_string()));
                    }
                } else {
                    sources(v, key, out);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_confirmed_guess_is_whoever_read_it_even_inside_a_pattern() {
        let setup = json!({"event": "triple_created", "setup": {"advantage": 9}});
        let earlier = [
            json!({"event": "pattern", "zendo": {"event": "guess_read", "number": 2, "by": 1}}),
            json!({"event": "guess_read", "number": 3, "by": 0}),
        ];
        let confirmed =
            json!({"event": "pattern", "zendo": {"event": "guess_confirmed", "number": 2}});
        assert_eq!(
            Log::author(&confirmed, &setup, &earlier),
            Some(Author::Seat(1))
        );
        let chosen = json!({"event": "starter_chosen", "starter": 0});
        assert_eq!(Log::author(&chosen, &setup, &earlier), Some(Author::Id(9)));
        let timed_out = json!({"event": "skipped", "seat": 1, "time_up": true});
        assert_eq!(Log::author(&timed_out, &setup, &earlier), None);
    }

    #[test]
    fn the_triples_patterns_are_told_by_letter() {
        let created = json!({"setup": {"patterns": [{"source": "a"}, {"source": "b"}]}});
        assert_eq!(
            Log::secrets(&[created]),
            [
                ("pattern A".to_string(), "a".to_string()),
                ("pattern B".into(), "b".into())
            ]
        );
    }
}
