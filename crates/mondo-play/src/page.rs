//! The replay page of a finished match (`mondo replay MATCH --html FILE`): one HTML
//! file that needs nothing else (styles inside, every picture a `data:` URI), readable
//! on a phone. Each step in order, with who made it, when (game-clock time since the
//! start), what was said of it, the clocks after it and the pictures it showed
//! (structures, grids, tiles); then the secrets. A live match has none: its secrets
//! are still someone's.

use super::authors::author;
use super::logged::Author;
use super::replay::{cast_of, decode, since, told};
use super::scoreboard;
use crate::rules::{GameKind, PlayerId, Viewer};
use crate::runtime::Engine;
use crate::store::{MatchRecord, RatingChange, Status, StoredEvent};
use base64::Engine as _;
use maud::{DOCTYPE, Markup, PreEscaped, html};
use serde_json::Value;
use std::collections::HashMap;

/// One step of a finished match's story, as its page and Discord's `/replay` tell it.
#[derive(Clone, Debug)]
pub struct Step {
    /// Who made it: a player's name, "a host" or "the umpire".
    pub who: String,
    /// Game-clock time since the start (`m:ss.mmm`).
    pub when: String,
    /// What was said of it (what only one player heard included: the match is over).
    pub said: String,
    /// The clocks after it, each named by whose it is, with the time left (a Bluffs
    /// reserve included).
    pub clocks: Vec<String>,
    /// The running scores after it (tickets, stones, points, RP), each player's named.
    pub scores: Vec<String>,
    /// The event as stored (its pictures: [`pictures_of`]).
    pub body: Value,
}

/// A finished match told step by step, with its secrets.
#[derive(Clone, Debug)]
pub struct Story {
    pub title: String,
    /// The game, as the match's record says.
    pub game: GameKind,
    /// The players' names, in seat order.
    pub players: Vec<String>,
    /// Every event in order (the first is the setup, which holds the secrets).
    pub steps: Vec<Step>,
    /// The hidden patterns as their authors wrote them: (what, text).
    pub hidden: Vec<(String, String)>,
    /// The end as everyone saw it (the spectator's view after the last step).
    pub end: Value,
    /// What it counted for: "rated", "unrated (the setup was chosen by alice)", or a
    /// solo game's "solo: a record, never a rating" (docs/ratings.md, "Fair play").
    pub counted: String,
    /// Who won, as the result has it: each player's name with their place (0 first),
    /// in seat order; empty when the match had no placed result.
    pub places: Vec<(String, u32)>,
    /// How it ended: what was said of its last step.
    pub ended: String,
}

/// Who won a told match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Won<'a> {
    /// No placed result (an unrated end without one, a solo game).
    Nobody,
    Draw,
    /// The names of the players placed first.
    By(Vec<&'a str>),
}

impl Story {
    /// Who won, as the result has it.
    pub fn won(&self) -> Won<'_> {
        let first: Vec<&str> = self
            .places
            .iter()
            .filter(|(_, place)| *place == 0)
            .map(|(n, _)| n.as_str())
            .collect();
        if first.is_empty() {
            Won::Nobody
        } else if first.len() == self.places.len() {
            Won::Draw
        } else {
            Won::By(first)
        }
    }
}

/// What a finished match counted for, as its page says it (`name`: a player's name).
pub fn counted(finish: Option<crate::rules::Finish>, name: impl Fn(u64) -> String) -> String {
    use crate::rules::{Finish, Why};
    match finish.unwrap_or(Finish::Unrated(Why::NoResult)) {
        Finish::Placed { .. } => "rated".into(),
        Finish::Unrated(why) => format!("unrated ({})", why.text(|p| name(p.0))),
        Finish::Solo { .. } => "solo: a record, never a rating".into(),
    }
}

/// Why a live match has no story (nor page): its secrets are still someone's.
pub fn live_refusal(record: &MatchRecord) -> String {
    format!(
        "match {} is still being played: its replay page would show its secrets, so it is \
         written once the match is over (`mondo replay {}` shows what a spectator sees now)",
        record.id, record.id
    )
}

/// The story of a finished match, or why there is none (a live match, a log that does
/// not read). `names` are the players' names by id (an id without one is shown as is).
pub fn story(
    record: &MatchRecord,
    events: &[StoredEvent],
    names: &HashMap<u64, String>,
) -> Result<Story, String> {
    if record.status == Status::Live {
        return Err(live_refusal(record));
    }
    let game = record.game().map_err(|e| e.to_string())?;
    let decoded = decode(record, events)?;
    let cast = cast_of(record, names);
    let (said, states) = told(record, events, &decoded, &cast)?;
    let name = |id: u64| name_of(names, id);
    let players: Vec<String> = record.players.iter().map(|p| name(*p)).collect();
    let bodies: Vec<Value> = events
        .iter()
        .map(|e| crate::store::from_json(&e.body).unwrap_or(Value::Null))
        .collect();
    let mut steps = Vec::with_capacity(events.len());
    for (i, ((stored, text), state)) in events.iter().zip(&said).zip(&states).enumerate() {
        let body = bodies[i].clone();
        let author = author(game, &body, &bodies[0], &bodies[..i]);
        let spectator = serde_json::to_value(state.view(&Viewer::Spectator)).unwrap_or(Value::Null);
        // Only a finished match is told: each player's own view is no secret now.
        let own: Vec<Value> = record
            .players
            .iter()
            .map(|id| {
                serde_json::to_value(state.view(&Viewer::Player(PlayerId(*id))))
                    .unwrap_or(Value::Null)
            })
            .collect();
        let after = scoreboard::After {
            kind: state.kind(),
            spectator: &spectator,
            players: &own,
            at: stored.at,
        };
        let said = if i == 0 {
            set_up(game, &body, &players, &record.players, names)
        } else if text.trim_start().starts_with('{') {
            // No words for it at the terminal: its name and what it says, never JSON.
            plainly(&body, &players)
        } else {
            text.clone()
        };
        steps.push(Step {
            who: who(author, &record.players, &players, names),
            when: since(record.created_at, stored.at),
            said,
            clocks: super::games::clocks(&after, &players),
            scores: super::games::scores(&after, &players),
            body,
        });
    }
    let hidden = super::games::secrets(game, &bodies);
    let end = states
        .last()
        .map(|s| serde_json::to_value(s.view(&Viewer::Spectator)).unwrap_or(Value::Null))
        .unwrap_or(Value::Null);
    let finish = states.last().and_then(Engine::finish);
    let places = match &finish {
        Some(crate::rules::Finish::Placed { places, .. }) => places
            .iter()
            .map(|(p, place)| (name(p.0), *place))
            .collect(),
        _ => Vec::new(),
    };
    let counted = counted(finish, name);
    let ended = steps.last().map(|s| s.said.clone()).unwrap_or_default();
    Ok(Story {
        title: format!(
            "Match {}: {}",
            record.id,
            super::games::title(game, &bodies[0])
        ),
        game,
        players,
        steps,
        hidden,
        end,
        counted,
        places,
        ended,
    })
}

/// The page, or why there is none. `changes`: what the match did to its players'
/// ratings (none for a match that was not rated).
pub fn page(
    record: &MatchRecord,
    events: &[StoredEvent],
    names: &HashMap<u64, String>,
    changes: &[RatingChange],
) -> Result<String, String> {
    let story = story(record, events, names)?;
    let name = |id: u64| name_of(names, id);
    let main = html! {
        h1 { (story.title) }
        p.about {
            "Players: "
            @for (i, p) in story.players.iter().enumerate() {
                @if i > 0 { ", " }
                bdi { (p) }
            }
            ". Started " (record.created) "; " (record.last_seq) " steps; seed "
            (record.seed) "."
        }
        p.counted { (story.counted) }
        (result(&story, changes, name))
        ol #steps {
            @for (i, step) in story.steps.iter().enumerate() {
                (step_item(i + 1, step, &story))
            }
        }
        (secrets(&story))
    };
    Ok(document(&story.title, STYLE, main))
}

/// A page that needs nothing else: `main` under its title, with its own style, sized
/// for any screen (a phone's too).
pub fn document(title: &str, style: &str, main: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(style)) }
            }
            body { main { (main) } }
        }
    }
    .into_string()
}

/// One step: its number, time and author, what was said, its clocks and scores, and
/// its pictures (the setup's are its public opening, the structures on the table).
fn step_item(n: usize, step: &Step, story: &Story) -> Markup {
    let players = &story.players;
    html! {
        li.step data-step=(n) {
            div.meta {
                span.n { (n) } " "
                span.when { "+" (step.when) } " "
                span.who { (named(&step.who, players)) }
            }
            p.said { (step.said) }
            @if !step.clocks.is_empty() { p.clocks { (step.clocks.join(" · ")) } }
            @if !step.scores.is_empty() { p.scores { (step.scores.join(" · ")) } }
            @for (alt, png) in pictures_of(story.game, &step.body) { (img(&alt, &png)) }
        }
    }
}

const STYLE: &str = "body{font:16px/1.45 system-ui,sans-serif;margin:0;background:#f6f4ef;color:#1d1d1d}\
main{max-width:46rem;margin:0 auto;padding:1rem}h1{font-size:1.4rem;margin:.2rem 0}\
ol{list-style:none;padding:0}.step{background:#fff;border:1px solid #ddd;border-radius:8px;\
margin:.6rem 0;padding:.6rem .8rem}.meta{font-size:.85rem;color:#555}.n{font-weight:bold}\
.who{font-weight:bold;color:#174a7c}.said{margin:.3rem 0;overflow-wrap:anywhere;white-space:pre-wrap}\
.clocks,.scores{font-size:.85rem;color:#6b4b00;margin:.2rem 0}.scores{color:#1f5f2a}\
#result{background:#fff;border:2px solid #174a7c;border-radius:8px;padding:.4rem .8rem}\
.won{font-weight:bold}img{max-width:100%;height:auto;display:block;margin:.4rem 0}\
#secrets{background:#fff7e0;border:1px solid #e0c060;border-radius:8px;padding:.6rem .8rem}";

/// The header's result: who won (or that no one did), how it ended, and what it did to
/// each player's rating, before and after.
fn result(story: &Story, changes: &[RatingChange], name: impl Fn(u64) -> String) -> Markup {
    html! {
        section #result {
            p.won {
                @match story.won() {
                    Won::Nobody => "No one won: the match had no result.",
                    Won::Draw => "A draw.",
                    Won::By(first) => {
                        "Won by "
                        @for (i, n) in first.iter().enumerate() {
                            @if i > 0 { " and " }
                            bdi { (n) }
                        }
                        "."
                    }
                }
            }
            p.ended { "How it ended: " (story.ended) }
            @if changes.is_empty() {
                p.ratings { "Ratings: unchanged." }
            } @else {
                ul.ratings {
                    @for c in changes {
                        li { bdi { (name(c.player)) } ": " (c.said()) }
                    }
                }
            }
        }
    }
}

/// A step's author: a player's name isolated (a name in Arabic or Hebrew does not
/// reorder the line), "the umpire" or a host as they are.
fn named(who: &str, players: &[String]) -> Markup {
    html! {
        @if players.iter().any(|p| p == who) { bdi { (who) } } @else { (who) }
    }
}

/// A step's author by name: a player's, a host's ("NAME (a host)", or "a host" when
/// the name is not known) or "the umpire".
fn who(author: Author, ids: &[u64], players: &[String], names: &HashMap<u64, String>) -> String {
    let seat = match author {
        Author::Seat(i) => Some(i),
        Author::Id(id) => ids.iter().position(|p| *p == id),
        Author::Host | Author::Umpire => None,
    };
    match (seat.and_then(|i| players.get(i)), author) {
        (Some(name), _) => name.clone(),
        (None, Author::Umpire) => "the umpire".into(),
        (None, Author::Id(id)) if names.contains_key(&id) => {
            format!("{} (a host)", name_of(names, id))
        }
        (None, _) => "a host".into(),
    }
}

/// A player's name: their own where the store keeps one, an AI seat's reserved name
/// (`ai-LEVEL`), or else the id.
pub fn name_of(names: &HashMap<u64, String>, id: u64) -> String {
    if let Some(name) = names.get(&id) {
        return name.clone();
    }
    match PlayerId(id).ai_seat() {
        Some((level, k)) => crate::rules::fair::ai_name(level as usize, k as usize + 1),
        None => id.to_string(),
    }
}

/// The pictures a stored event of a match of `game` carries: each structure, grid and
/// tile layout in it, as (what it shows, PNG bytes).
pub fn pictures_of(game: GameKind, body: &Value) -> Vec<(String, Vec<u8>)> {
    super::logged::pictures_with(body, &|at| super::games::picture(game, at))
}

/// A picture inside the page (a `data:` URI: the page needs nothing else).
fn img(alt: &str, png: &[u8]) -> Markup {
    let src = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png)
    );
    html! { img alt=(alt) src=(src); }
}

/// The secrets, now that the match is over: the hidden patterns as their authors
/// wrote them, the grid, the layout, in words and pictured.
fn secrets(story: &Story) -> Markup {
    // The last event's pictures of what was hidden (the grid, the layout).
    let pictured: Vec<_> = story
        .steps
        .last()
        .map(|last| pictures_of(story.game, &last.body))
        .unwrap_or_default()
        .into_iter()
        .filter(|(alt, _)| story.hidden.iter().any(|(what, _)| what == alt))
        .collect();
    html! {
        section #secrets {
            h2 { "The secrets" }
            @for (what, text) in &story.hidden {
                p.secret { b { (what) } ": " (text) }
            }
            @for (alt, png) in &pictured { (img(alt, png)) }
        }
    }
}

/// What the setup step says: the game, its players and what it opens with; what it
/// hides is told at the end.
fn set_up(
    game: GameKind,
    body: &Value,
    players: &[String],
    ids: &[u64],
    names: &HashMap<u64, String>,
) -> String {
    let setup = body.get("setup").unwrap_or(&Value::Null);
    let who = |key: &str| -> Option<String> {
        let id = setup.get(key)?.as_u64()?;
        Some(match ids.iter().position(|p| *p == id) {
            Some(i) => players[i].clone(),
            None => name_of(names, id),
        })
    };
    let title = super::games::title(game, body);
    let mut said = vec![format!("{title} set up for {}.", and_list(players))];
    said.extend(super::games::opening(game, body, &who));
    said.push("What it hides is shown at the end.".into());
    said.join(" ")
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// An event the terminal has no words for: its name, and what it says in plain
/// words (a seat by its player's name), never as stored.
fn plainly(body: &Value, players: &[String]) -> String {
    let name = body
        .get("event")
        .and_then(Value::as_str)
        .unwrap_or("a step")
        .replace('_', " ");
    let mut name = name;
    if let Some(c) = name.get(..1) {
        name = c.to_uppercase() + &name[1..];
    }
    let mut parts = Vec::new();
    if let Value::Object(map) = body {
        for (k, v) in map {
            if k == "event" || k == "at" {
                continue;
            }
            let said = match (k.as_str(), v) {
                ("seat" | "by" | "winner" | "starter", Value::Number(n)) => n
                    .as_u64()
                    .and_then(|i| players.get(i as usize).cloned())
                    .unwrap_or_else(|| n.to_string()),
                (_, Value::Number(n)) => n.to_string(),
                (_, Value::String(t)) => t.replace('_', " "),
                (_, Value::Bool(b)) => if *b { "yes" } else { "no" }.into(),
                _ => continue,
            };
            parts.push(format!("{} {said}", k.replace('_', " ")));
        }
    }
    if parts.is_empty() {
        format!("{name}.")
    } else {
        format!("{name}: {}.", parts.join(", "))
    }
}
