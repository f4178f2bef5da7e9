//! Who made each step of a stored match, for its replay page: a player (by seat or
//! id), a host, or the umpire. The log keeps what happened, not who asked for it, so
//! each event is read by what the game's rules say makes it: a player's own move (a
//! structure built, an answer, a bluff, a resignation), a host's override (a pause, an
//! end, a grid queued again), or the umpire's doing (turns, reveals, verdicts,
//! time-outs). An event naming a seat is not the umpire's for that (`seat` says whose
//! answer, whose bluff); an event naming an id (`by` of a pause or an end) is a
//! host's unless that id plays.
//!
//! Here are the events every game shares (`rules::EventKind`: a pause, a resume, a
//! setup chosen); each game's own events are read by its own folder
//! ([`super::logged::Logged::author`]), found from the match's record.

pub use super::logged::Author;
use super::logged::Fields;
use crate::rules::GameKind;
use crate::store::MatchRecord;
use serde_json::Value;

/// The author of the stored event `body` of a match of `game`; `setup` is the
/// match's first event (who has the advantage), `earlier` the events before it (who
/// read a guess).
pub fn author(game: GameKind, body: &Value, setup: &Value, earlier: &[Value]) -> Author {
    let fields = Fields(body);
    let found = match fields.event() {
        // The overrides every game shares.
        "paused" | "resumed" | "setup_chosen" => fields.id("by"),
        _ => super::games::author(game, body, setup, earlier),
    };
    found.unwrap_or(Author::Umpire)
}

/// The ids of the hosts who made a step of this match's log (everyone named by id in
/// an override who is not one of its players), so their names can be looked up. A
/// record of a game this build does not know has none.
pub fn hosts(record: &MatchRecord, bodies: &[Value]) -> Vec<u64> {
    let Ok(game) = record.game() else {
        return Vec::new();
    };
    let setup = bodies.first().cloned().unwrap_or(Value::Null);
    let mut out: Vec<u64> = Vec::new();
    for (i, body) in bodies.iter().enumerate() {
        if let Author::Id(id) = author(game, body, &setup, &bodies[..i])
            && !record.players.contains(&id)
            && !out.contains(&id)
        {
            out.push(id);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_shared_override_is_its_hosts_and_an_unknown_event_the_umpires() {
        let setup = json!({"event": "created"});
        for &game in GameKind::ALL {
            let pause = json!({"event": "paused", "by": 77});
            assert_eq!(
                author(game, &pause, &setup, &[]),
                Author::Id(77),
                "{game:?}"
            );
            let nothing = json!({"event": "no_such_event", "seat": 1, "by": 2});
            assert_eq!(author(game, &nothing, &setup, &[]), Author::Umpire);
        }
    }
}
