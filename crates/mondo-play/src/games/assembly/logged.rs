//! A stored Pattern Assembly match as its replay page reads it: who made each step,
//! its name (Plus or not), the grid pictured and told at the end.

use crate::grid::Grid;
use crate::logged::{At, Logged, Pictured};
use crate::logged::{Author, Fields, ending};
use crate::render;
use serde_json::Value;

/// Pattern Assembly's log, read for the replay page.
pub struct Log;

impl Logged for Log {
    fn author(body: &Value, _setup: &Value, _earlier: &[Value]) -> Option<Author> {
        let f = Fields(body);
        match f.event() {
            // A host's overrides.
            "rereveal_queued" | "change_queued" => f.id("by"),
            "region_set" => Some(Author::Host),
            // A player's own move (the grid shown is the umpire's).
            "answered" | "showdown_submitted" => f.seat("seat"),
            "match_ended" => body.get("outcome").and_then(ending),
            _ => None,
        }
    }

    /// Pattern Assembly Plus is Pattern Assembly with its settings.
    fn title(title: &'static str, created: &Value) -> String {
        let plus = created
            .pointer("/setup/settings/plus")
            .and_then(Value::as_bool)
            == Some(true);
        if plus {
            format!("{title} Plus")
        } else {
            title.to_string()
        }
    }

    fn picture(at: At<'_>) -> Option<Pictured> {
        if at.key != "grid" || at.parent.is_none() {
            return None;
        }
        let grid = serde_json::from_value::<Grid>(at.value.clone()).ok()?;
        Some(("the grid".into(), render::symbol_grid_png(&grid.rows())))
    }

    /// The grid, the last one played.
    fn secrets(bodies: &[Value]) -> Vec<(String, String)> {
        bodies
            .iter()
            .rev()
            .find_map(|b| serde_json::from_value::<Grid>(b.get("grid")?.clone()).ok())
            .map(|grid| ("the grid".to_string(), grid.rows().join(" / ")))
            .into_iter()
            .collect()
    }
}
