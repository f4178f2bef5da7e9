//! `mondo replay`'s words: a stored match, event by event, as the terminal says it.
//!
//! A match still being played keeps its secrets: its replay is exactly what a
//! spectator sees of it now, in readable lines. No seed (it draws the hidden
//! patterns, the grid, the layout), no event count or log numbers (a gap would say
//! that something private happened), each event as a spectator may hear it now (a
//! Pattern Assembly reveal that is over no longer shows its grid), and an event a
//! spectator does not hear is left out. A finished match is replayed in full: its
//! seed, every event with its log number (as stored where the terminal has no words
//! for it), and what each player alone heard.

use super::{Cast, GameFront, front_for};
use crate::rules::{PlayerId, Viewer};
use crate::runtime::{AnyEvent, AnyMatch, Engine};
use crate::store::{MatchRecord, Status, StoredEvent};
use serde_json::{Value, json};
use std::collections::HashMap;

/// The replay of `record` from its stored `events`: text for a person (a header, then
/// a line per event), or JSON lines for a program. `names` are the local names of its
/// players that have one.
pub fn replay(
    record: &MatchRecord,
    events: &[StoredEvent],
    names: &HashMap<u64, String>,
    json: bool,
) -> Result<Vec<String>, String> {
    let live = record.status == Status::Live;
    let name = |id: &u64| names.get(id).cloned().unwrap_or_else(|| id.to_string());
    let players: Vec<String> = record.players.iter().map(name).collect();
    let decoded = match record.game() {
        Ok(_) => Some(decode(record, events)?),
        // A game this Mondo does not know: its log as stored.
        Err(_) => None,
    };
    let mut out = Vec::new();
    if !json {
        out.push(if live {
            format!(
                "match {} ({}), still being played, created {}, players {}: what a spectator \
                 sees of it so far (the rest is shown once it is over)",
                record.id,
                record.kind,
                record.created,
                players.join(", ")
            )
        } else {
            format!(
                "match {} ({}), over, created {}, players {}, seed {}, {} events",
                record.id,
                record.kind,
                record.created,
                players.join(", "),
                record.seed,
                events.len()
            )
        });
    }
    let Some(decoded) = decoded else {
        for e in events {
            out.push(if json {
                stored_json(e)
            } else {
                stored_text(record, e, &e.body)
            });
        }
        return Ok(out);
    };
    let cast = cast_of(record, names);
    if live {
        out.extend(spectator(record, events, &decoded, &cast, json)?);
    } else if json {
        out.extend(events.iter().map(stored_json));
    } else {
        // A finished match in full: every event with its log number, said as the
        // terminal said it (what only one player heard included), or as stored where it
        // has no words.
        let (told, _) = told(record, events, &decoded, &cast)?;
        let said = events.iter().zip(told);
        out.extend(said.map(|(stored, text)| stored_text(record, stored, &text)));
    }
    Ok(out)
}

pub(crate) fn decode(
    record: &MatchRecord,
    events: &[StoredEvent],
) -> Result<Vec<AnyEvent>, String> {
    events
        .iter()
        .map(|e| {
            AnyMatch::decode(&record.kind, &e.body).map_err(|reason| {
                format!(
                    "match {}: stored event {} does not read: {reason}",
                    record.id, e.seq
                )
            })
        })
        .collect()
}

pub(crate) fn cast_of(record: &MatchRecord, names: &HashMap<u64, String>) -> Cast {
    let players: Vec<(PlayerId, String)> = record
        .players
        .iter()
        .map(|id| {
            (
                PlayerId(*id),
                names.get(id).cloned().unwrap_or_else(|| id.to_string()),
            )
        })
        .collect();
    Cast::named(players, names)
}

/// The match after each of its events.
fn states(record: &MatchRecord, decoded: &[AnyEvent]) -> Result<Vec<AnyMatch>, String> {
    (0..decoded.len())
        .map(|i| AnyMatch::replay(&record.kind, &decoded[..=i]))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("match {} cannot be rebuilt from its log: {e}", record.id))
}

/// The terminal's front for the match, as it was opened (from its first state).
fn front(cast: &Cast, states: &[AnyMatch]) -> Option<Box<dyn GameFront>> {
    let first = states.first()?;
    Some(front_for(
        first.kind(),
        cast,
        &first.view(&Viewer::Spectator),
    ))
}

/// A live match as a spectator sees it now: each event as the match now lets a
/// spectator hear it, said as the terminal said it then.
fn spectator(
    record: &MatchRecord,
    events: &[StoredEvent],
    decoded: &[AnyEvent],
    cast: &Cast,
    json: bool,
) -> Result<Vec<String>, String> {
    let states = states(record, decoded)?;
    let (Some(mut front), Some(now)) = (front(cast, &states), states.last()) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for ((stored, event), state) in events.iter().zip(decoded).zip(&states) {
        let Some(heard) = now.redact(event, &Viewer::Spectator) else {
            continue;
        };
        let lines = front.tell(&[heard], &state.view(&Viewer::Spectator));
        for line in lines {
            if json {
                if line.json.is_null() {
                    continue;
                }
                let mut value = line.json;
                if let Value::Object(map) = &mut value {
                    map.entry("at").or_insert(json!(stored.at));
                }
                out.push(value.to_string());
            } else if !plain(&line.text).is_empty() {
                out.push(format!(
                    "+{}  {}",
                    since(record.created_at, stored.at),
                    plain(&line.text)
                ));
            }
        }
    }
    Ok(out)
}

/// What the terminal said of each event of a finished match (what only one player
/// heard included), or the event as stored where it has no words; with the match
/// after each event.
pub(crate) fn told(
    record: &MatchRecord,
    events: &[StoredEvent],
    decoded: &[AnyEvent],
    cast: &Cast,
) -> Result<(Vec<String>, Vec<AnyMatch>), String> {
    let states = states(record, decoded)?;
    let Some(mut front) = front(cast, &states) else {
        return Ok((Vec::new(), states));
    };
    let mut out = Vec::new();
    for ((stored, event), state) in events.iter().zip(decoded).zip(&states) {
        let mut said: Vec<String> = front
            .tell(std::slice::from_ref(event), &state.view(&Viewer::Spectator))
            .into_iter()
            .map(|l| plain(&l.text))
            .collect();
        if front.private() {
            for (id, _) in cast.players() {
                let viewer = Viewer::Player(*id);
                let Some(heard) = state.redact(event, &viewer) else {
                    continue;
                };
                said.extend(
                    front
                        .tell_private(*id, &[heard], &state.view(&viewer))
                        .into_iter()
                        .map(|l| plain(&l.text)),
                );
            }
        }
        said.retain(|t| !t.is_empty());
        out.push(if said.is_empty() {
            stored.body.clone()
        } else {
            said.join("; ")
        });
    }
    Ok((out, states))
}

fn stored_json(e: &StoredEvent) -> String {
    let event: Value = crate::store::from_json(&e.body).unwrap_or(Value::String(e.body.clone()));
    json!({ "seq": e.seq, "at": e.at, "event": event }).to_string()
}

fn stored_text(record: &MatchRecord, e: &StoredEvent, text: &str) -> String {
    format!(
        "#{:<4} +{}  {}",
        e.seq,
        since(record.created_at, e.at),
        text
    )
}

/// A line without the terminal's control sequences (a replay clears no screen).
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.peek() == Some(&'[') {
            chars.next();
            // Parameters, then one final letter.
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// Game-clock time since the match began, as m:ss.mmm.
pub(crate) fn since(start: u64, at: u64) -> String {
    let ms = at.saturating_sub(start);
    format!("{}:{:02}.{:03}", ms / 60_000, ms / 1000 % 60, ms % 1000)
}
