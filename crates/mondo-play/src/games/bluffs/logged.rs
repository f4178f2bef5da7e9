//! A stored Logical Bluffs match as its replay page reads it: who made each step,
//! what its settings say, the layout pictured and told at the end.

use crate::lang::tiles::{Cell, Layout};
use crate::logged::{At, Logged, Pictured};
use crate::logged::{Author, Fields};
use crate::render;
use crate::scoreboard;
use serde_json::Value;

/// Logical Bluffs' log, read for the replay page.
pub struct Log;

impl Logged for Log {
    fn author(body: &Value, _setup: &Value, _earlier: &[Value]) -> Option<Author> {
        let f = Fields(body);
        match f.event() {
            "submitted" | "bluffed" | "detected" | "marked" | "guess_declared" | "guessed" => {
                f.seat("seat")
            }
            // A pass is the seat's; a Reveal run out of time, the umpire's.
            "passed" if !f.flag("time_up") => f.seat("seat"),
            // Tiles bought.
            "revealed" => f.seat("seat"),
            "ended" => ending(body),
            _ => None,
        }
    }

    fn opening(created: &Value, _who: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
        let settings = created.pointer("/setup/settings").unwrap_or(&Value::Null);
        let mut said = Vec::new();
        if let Some(known) = settings.get("known_tiles").and_then(Value::as_u64) {
            said.push(format!("Each player is shown {known} tiles of the layout."));
        }
        if let Some(reserve) = settings.get("reserve_ms").and_then(Value::as_u64) {
            said.push(format!(
                "Each has a reserve of {}.",
                scoreboard::time(reserve)
            ));
        }
        said
    }

    fn picture(at: At<'_>) -> Option<Pictured> {
        if at.key != "layout" || at.parent.is_none() {
            return None;
        }
        let layout = serde_json::from_value::<Layout>(at.value.clone()).ok()?;
        let known: Vec<_> = Cell::all().map(|c| (c, layout.colour(c))).collect();
        Some(("the layout".into(), render::tiles::board_png(&known, None)))
    }

    /// The layout, from the last event that shows it.
    fn secrets(bodies: &[Value]) -> Vec<(String, String)> {
        bodies
            .iter()
            .rev()
            .find_map(|b| serde_json::from_value::<Layout>(b.get("layout")?.clone()).ok())
            .map(|layout| ("the layout".to_string(), layout.to_string()))
            .into_iter()
            .collect()
    }
}

/// The end: a resignation is the loser's, a host's end a host's.
fn ending(body: &Value) -> Option<Author> {
    match body.get("ending").and_then(Value::as_str)? {
        "resigned" => {
            let winner = body.get("winner").and_then(Value::as_u64)?;
            Some(Author::Seat(1 - winner.min(1) as usize))
        }
        "host_ended" => Some(Author::Host),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_resignation_is_the_losers_and_a_timed_out_pass_the_umpires() {
        let none = json!(null);
        let resigned = json!({"event": "ended", "ending": "resigned", "winner": 0});
        assert_eq!(Log::author(&resigned, &none, &[]), Some(Author::Seat(1)));
        let host = json!({"event": "ended", "ending": "host_ended"});
        assert_eq!(Log::author(&host, &none, &[]), Some(Author::Host));
        let pass = json!({"event": "passed", "seat": 1});
        assert_eq!(Log::author(&pass, &none, &[]), Some(Author::Seat(1)));
        let late = json!({"event": "passed", "seat": 1, "time_up": true});
        assert_eq!(Log::author(&late, &none, &[]), None);
    }
}
