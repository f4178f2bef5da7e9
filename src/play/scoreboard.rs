//! The clocks and running scores of a stored match after one of its steps, for its
//! replay page: each named by whose it is and what it counts (a turn clock says whose
//! turn, a score whose score), read from the views of the match after that step. Only
//! a finished match is told, so a player's own view (a Bluffs reserve, its RP) is no
//! one's secret any more.

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

/// The clocks, each named by whose it is, with the time left.
pub fn clocks(after: &After, names: &[String]) -> Vec<String> {
    let v = after.spectator;
    let mut out = Vec::new();
    match after.kind {
        GameKind::ZendoDuel | GameKind::ZendoTriple | GameKind::ZendoClassic => {
            let turn = v.get("phase").and_then(|p| p.get("seat")).and_then(seat_of);
            if let (Some(seat), Some((left, running))) = (turn, clock(v.get("clock"), after.at)) {
                let name = names.get(seat).map_or("?", String::as_str);
                out.push(format!(
                    "{name}'s turn clock: {} left{}",
                    time(left),
                    state(running)
                ));
            }
            if let Some((left, running)) = clock(v.get("game_clock"), after.at) {
                out.push(format!(
                    "game clock: {} of play left{}",
                    time(left),
                    state(running)
                ));
            }
            if let Some(phase) = v.get("phase") {
                let step = phase.get("step").and_then(Value::as_str);
                if let Some((left, running)) = clock(phase.get("clock"), after.at) {
                    let what = match step {
                        Some("challenge") => "challenge clock",
                        _ => "answer clock",
                    };
                    out.push(format!("{what}: {} left{}", time(left), state(running)));
                }
            }
        }
        GameKind::Assembly => {
            if let Some(ends) = v.get("ends_at").and_then(Value::as_u64) {
                let what = match v
                    .get("phase")
                    .and_then(|p| p.get("phase"))
                    .and_then(Value::as_str)
                {
                    Some("reveal") => "grid shown:",
                    Some("showdown") => "showdown clock:",
                    _ => "round clock:",
                };
                out.push(format!(
                    "{what} {} left",
                    time(ends.saturating_sub(after.at))
                ));
            }
        }
        GameKind::Bluffs => {
            let phase = v.get("phase").and_then(Value::as_str).unwrap_or("");
            let deadline = after
                .players
                .iter()
                .find_map(|p| p.get("mine")?.get("deadline")?.as_u64());
            if let Some(deadline) = deadline
                && phase != "over"
            {
                out.push(format!(
                    "{} clock (round {}): {} left",
                    phase.replace('_', " "),
                    v.get("round").and_then(Value::as_u64).unwrap_or(0),
                    time(deadline.saturating_sub(after.at))
                ));
            }
            for (name, p) in names.iter().zip(after.players) {
                if let Some(ms) = p
                    .get("mine")
                    .and_then(|m| m.get("reserve"))
                    .and_then(Value::as_u64)
                {
                    out.push(format!("{name}'s reserve: {} left", time(ms)));
                }
            }
        }
        GameKind::ZendoPractice => {}
    }
    out
}

/// The running scores: each player's, named by what the game counts.
pub fn scores(after: &After, names: &[String]) -> Vec<String> {
    let v = after.spectator;
    let by_seat = |key: &str, unit: &str| -> Option<String> {
        let items = v.get(key)?.as_array()?;
        let each: Vec<String> = names
            .iter()
            .zip(items)
            .map(|(n, x)| format!("{n} {}", x.as_i64().unwrap_or(0)))
            .collect();
        Some(format!("{unit}: {}", each.join(", ")))
    };
    let line = match after.kind {
        GameKind::ZendoDuel => by_seat("tickets", "tickets"),
        GameKind::ZendoTriple | GameKind::ZendoClassic => by_seat("stones", "stones"),
        GameKind::Assembly => by_seat("scores", "points"),
        GameKind::ZendoPractice => v.get("score").map(|s| {
            let n = |k: &str| s.get(k).and_then(Value::as_u64).unwrap_or(0);
            format!(
                "score: {} structures built, {} guesses judged",
                n("koans"),
                n("guesses")
            )
        }),
        GameKind::Bluffs => {
            let each: Vec<String> = names
                .iter()
                .zip(after.players)
                .filter_map(|(n, p)| {
                    let rp = p.get("mine")?.get("rp")?.as_u64()?;
                    Some(format!("{n} {rp}"))
                })
                .collect();
            (!each.is_empty()).then(|| format!("RP: {}", each.join(", ")))
        }
    };
    line.into_iter().collect()
}

fn seat_of(v: &Value) -> Option<usize> {
    v.as_u64().map(|s| s as usize)
}

/// A clock (`{"left": ms, "since": at}`) read at `at`: time left, and whether it runs.
fn clock(v: Option<&Value>, at: u64) -> Option<(u64, bool)> {
    let v = v?;
    let left = v.get("left")?.as_u64()?;
    match v.get("since").and_then(Value::as_u64) {
        Some(since) => Some((left.saturating_sub(at.saturating_sub(since)), true)),
        None => Some((left, false)),
    }
}

fn state(running: bool) -> &'static str {
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
