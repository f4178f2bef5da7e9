//! The clocks and running scores of a stored match after one of its steps, for its
//! replay page: each named by whose it is and what it counts (a turn clock says whose
//! turn, a score whose score), read from the views of the match after that step. Only
//! a finished match is told, so a player's own view (a Bluffs reserve, its RP) is no
//! one's secret any more. Each game says which clocks and scores it has (its front's
//! `Terminal::clocks` / `Terminal::scores`, dispatched by `games::clocks` / `games::scores`);
//! here is what they share.

use crate::rules::GameKind;
use serde_json::Value;

/// The views of a match after one step, and when it was.
pub struct After<'a> {
    pub kind: GameKind,
    /// What a spectator sees.
    pub spectator: &'a Value,
    /// What each player sees, in seat order.
    pub players: &'a [Value],
    /// When the step was (a running clock is read at that moment).
    pub at: u64,
}

/// A score kept per seat under `key` in the spectator's view: `unit: A 3, B 1`.
pub fn by_seat(after: &After, names: &[String], key: &str, unit: &str) -> Vec<String> {
    let Some(items) = after.spectator.get(key).and_then(Value::as_array) else {
        return Vec::new();
    };
    let each: Vec<String> = names
        .iter()
        .zip(items)
        .map(|(n, x)| format!("{n} {}", x.as_i64().unwrap_or(0)))
        .collect();
    vec![format!("{unit}: {}", each.join(", "))]
}

/// A seat number in a view.
pub fn seat_of(v: &Value) -> Option<usize> {
    v.as_u64().map(|s| s as usize)
}

/// A clock (`{"left": ms, "since": at}`) read at `at`: time left, and whether it runs.
pub fn clock(v: Option<&Value>, at: u64) -> Option<(u64, bool)> {
    let v = v?;
    let left = v.get("left")?.as_u64()?;
    match v.get("since").and_then(Value::as_u64) {
        Some(since) => Some((left.saturating_sub(at.saturating_sub(since)), true)),
        None => Some((left, false)),
    }
}

/// How a clock stands: `, running` or `, stopped`.
pub fn state(running: bool) -> &'static str {
    if running { ", running" } else { ", stopped" }
}

/// `m:ss`, or `h:mm:ss` from an hour.
pub fn time(ms: u64) -> String {
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}
