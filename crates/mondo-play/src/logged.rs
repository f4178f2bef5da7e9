//! What a game's stored events say on the replay page, as each game's own folder
//! tells it ([`Logged`], its terminal front's `Terminal::Logged`), and the little the
//! games share to tell it: who made a step ([`Author`], read from an event's fields),
//! who ended a match by its outcome, the walk that finds an event's pictures. The page
//! (`page.rs`, `authors.rs`) finds the game from the match's record and asks it.

use serde_json::{Map, Value};

/// How a game's stored events read on its replay page. Each game's own folder says
/// it (its terminal front's [`super::Terminal::Logged`]); the match's record says
/// which game it is, so the page itself reads no game's events.
pub trait Logged {
    /// Who made the game's own event `body` (`setup`: the match's first event,
    /// `earlier`: the events before `body`); `None`: the umpire. The events every game
    /// shares are read before (`authors::author`).
    fn author(body: &Value, setup: &Value, earlier: &[Value]) -> Option<Author>;
    /// The game's name as its setup plays it (`title`: the registry's).
    fn title(title: &'static str, _created: &Value) -> String {
        title.to_string()
    }
    /// What the setup step says of the game's setup, after who plays it (`created`:
    /// the match's first event; `who(key)`: the name of the player its setup's id field
    /// `key` names).
    fn opening(_created: &Value, _who: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
        Vec::new()
    }
    /// The picture of what the walk through an event is at, if it is one of the
    /// game's things (a structure, a grid, a layout); if not, the page looks inside it
    /// ([`pictures_with`]).
    fn picture(at: At<'_>) -> Option<Pictured>;
    /// What the match hid, as (what, text), from its whole log: the hidden patterns,
    /// the grid, the layout. Its pictures (in the last event) are shown beside.
    fn secrets(bodies: &[Value]) -> Vec<(String, String)>;
}

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

/// One stored event as its author is read from it.
#[derive(Clone, Copy, Debug)]
pub struct Fields<'a>(pub &'a Value);

impl<'a> Fields<'a> {
    /// Its name (`"event"`), or "".
    pub fn event(self) -> &'a str {
        self.0.get("event").and_then(Value::as_str).unwrap_or("")
    }

    /// The player in the seat field `key` names.
    pub fn seat(self, key: &str) -> Option<Author> {
        self.0
            .get(key)
            .and_then(Value::as_u64)
            .map(|s| Author::Seat(s as usize))
    }

    /// Whoever the id field `key` names.
    pub fn id(self, key: &str) -> Option<Author> {
        self.0.get(key).and_then(Value::as_u64).map(Author::Id)
    }

    /// Whether the flag `key` is set (absent: not).
    pub fn flag(self, key: &str) -> bool {
        self.0.get(key).and_then(Value::as_bool).unwrap_or(false)
    }
}

/// Who ended a match by its outcome (`{"how": .., "by": ..}`), when someone did: a
/// resignation or a declined start is the player's, an end by a host the host's; the
/// rest (solved, the quiz, time, the showdown) the umpire's verdict.
pub fn ending(outcome: &Value) -> Option<Author> {
    let by = outcome.get("by").and_then(Value::as_u64)?;
    let time_up = outcome.get("time_up").and_then(Value::as_bool) == Some(true);
    match outcome.get("how").and_then(Value::as_str)? {
        "resigned" => Some(Author::Seat(by as usize)),
        "declined" if !time_up => Some(Author::Seat(by as usize)),
        "ended" => Some(Author::Id(by)),
        _ => None,
    }
}

/// A picture: what it shows, and its PNG bytes.
pub type Pictured = (String, Vec<u8>);

/// Where the walk through an event is: a value, under its key (`""` at the top) in the
/// object holding it (`None`: at the top, or in a list).
#[derive(Clone, Copy, Debug)]
pub struct At<'a> {
    pub key: &'a str,
    pub value: &'a Value,
    pub parent: Option<&'a Map<String, Value>>,
}

/// The pictures inside `body`, in order, as `picture` finds them ([`Logged::picture`]):
/// what it pictures is not looked inside.
pub fn pictures_with(body: &Value, picture: &dyn Fn(At<'_>) -> Option<Pictured>) -> Vec<Pictured> {
    let mut found = Vec::new();
    let top = At {
        key: "",
        value: body,
        parent: None,
    };
    walk(top, picture, &mut found);
    found
}

fn walk(at: At<'_>, picture: &dyn Fn(At<'_>) -> Option<Pictured>, out: &mut Vec<Pictured>) {
    if let Some(found) = picture(at) {
        out.push(found);
        return;
    }
    match at.value {
        Value::Object(map) => {
            for (key, value) in map {
                let parent = Some(map);
                walk(At { key, value, parent }, picture, out);
            }
        }
        Value::Array(items) => {
            for value in items {
                let parent = None;
                walk(
                    At {
                        value,
                        parent,
                        ..at
                    },
                    picture,
                    out,
                );
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
    fn an_outcome_names_who_ended_it() {
        assert_eq!(
            ending(&json!({"how": "resigned", "by": 1})),
            Some(Author::Seat(1))
        );
        assert_eq!(
            ending(&json!({"how": "declined", "by": 0})),
            Some(Author::Seat(0))
        );
        assert_eq!(
            ending(&json!({"how": "declined", "by": 0, "time_up": true})),
            None
        );
        assert_eq!(
            ending(&json!({"how": "ended", "by": 42})),
            Some(Author::Id(42))
        );
        assert_eq!(ending(&json!({"how": "solved", "by": 1})), None);
    }
}
