//! Who made each step of a stored match, for its replay page: a player (by seat or
//! id), a host, or the umpire. The log keeps what happened, not who asked for it, so
//! each event is read by what the game's rules say makes it: a player's own move (a
//! structure built, an answer, a bluff, a resignation), a host's override (a pause, an
//! end, a grid queued again), or the umpire's doing (turns, reveals, verdicts,
//! time-outs). An event naming a seat is not the umpire's for that (`seat` says whose
//! answer, whose bluff); an event naming an id (`by` of a pause or an end) is a
//! host's unless that id plays.

use serde_json::Value;

/// The author of one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Author {
    /// The player in this seat (from 0).
    Seat(usize),
    /// Someone by id: a player of the match if they are one, otherwise a host.
    Id(u64),
    /// A host whose id the event does not keep.
    Host,
    Umpire,
}

/// The author of the stored event `body`; `setup` is the match's first event (who has
/// the advantage), `earlier` the events before it (who read a guess).
pub fn author(body: &Value, setup: &Value, earlier: &[Value]) -> Author {
    let name = body.get("event").and_then(Value::as_str).unwrap_or("");
    let seat = |key: &str| {
        body.get(key)
            .and_then(Value::as_u64)
            .map(|s| Author::Seat(s as usize))
    };
    let id = |key: &str| body.get(key).and_then(Value::as_u64).map(Author::Id);
    let flag = |key: &str| body.get(key).and_then(Value::as_bool).unwrap_or(false);
    let found = match name {
        // Overrides and shared bookkeeping.
        "paused" | "resumed" | "setup_chosen" | "rereveal_queued" | "change_queued" => id("by"),
        "lobby_closed" => Some(id("by").unwrap_or(Author::Umpire)),
        "joined" | "unjoined" => id("player"),
        "region_set" => Some(Author::Host),
        // A player's own move, by the seat it names.
        "observed" | "guess_read" | "challenge_opened" | "graded" | "mondo_opened" => seat("by"),
        "challenge_answered" | "mondo_answered" | "quiz_answered" | "answered"
        | "showdown_submitted" | "submitted" | "bluffed" | "detected" | "marked"
        | "guess_declared" | "guessed" | "left" | "back" => seat("seat"),
        // Bluffs: a pass is the seat's; a Reveal run out of time, the umpire's.
        "passed" if !flag("time_up") => seat("seat"),
        // Bluffs: tiles bought (the Pattern Assembly grid shown is the umpire's).
        "revealed" if body.get("seat").is_some() => seat("seat"),
        "skipped" if !flag("time_up") => seat("seat"),
        "turn_ended" if body.get("why").and_then(Value::as_str) == Some("ended") => seat("seat"),
        "starter_chosen" => advantage(setup),
        "guess_confirmed" => guesser(body.get("number"), earlier),
        "guess_withdrawn" => withdrawn(body, earlier),
        "pattern" => body
            .get("zendo")
            .map(|z| author(z, setup, earlier))
            .filter(|a| *a != Author::Umpire),
        "match_ended" | "triple_ended" => body.get("outcome").and_then(ending),
        "ended" => bluffs_ending(body),
        _ => None,
    };
    found.unwrap_or(Author::Umpire)
}

/// Who ended a Zendo or Pattern Assembly match, when someone did: a resignation or a
/// declined start is the player's, an end by a host the host's; the rest (solved, the
/// quiz, time, the showdown) the umpire's verdict.
fn ending(outcome: &Value) -> Option<Author> {
    let by = outcome.get("by").and_then(Value::as_u64)?;
    let time_up = outcome.get("time_up").and_then(Value::as_bool) == Some(true);
    match outcome.get("how").and_then(Value::as_str)? {
        "resigned" => Some(Author::Seat(by as usize)),
        "declined" if !time_up => Some(Author::Seat(by as usize)),
        "ended" => Some(Author::Id(by)),
        _ => None,
    }
}

/// Logical Bluffs' end: a resignation is the loser's, a host's end a host's.
fn bluffs_ending(body: &Value) -> Option<Author> {
    match body.get("ending").and_then(Value::as_str)? {
        "resigned" => {
            let winner = body.get("winner").and_then(Value::as_u64)?;
            Some(Author::Seat(1 - winner.min(1) as usize))
        }
        "host_ended" => Some(Author::Host),
        _ => None,
    }
}

/// The player with the advantage (who chooses the starter), by id from the setup.
fn advantage(setup: &Value) -> Option<Author> {
    let setup = setup.get("setup")?;
    setup
        .get("advantage")
        .and_then(Value::as_u64)
        .map(Author::Id)
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

/// The ids of the hosts who made a step of this log (everyone named by id in an
/// override who is not one of `players`), so their names can be looked up.
pub fn hosts(bodies: &[Value], players: &[u64]) -> Vec<u64> {
    let setup = bodies.first().cloned().unwrap_or(Value::Null);
    let mut out: Vec<u64> = Vec::new();
    for (i, body) in bodies.iter().enumerate() {
        if let Author::Id(id) = author(body, &setup, &bodies[..i])
            && !players.contains(&id)
            && !out.contains(&id)
        {
            out.push(id);
        }
    }
    out
}
