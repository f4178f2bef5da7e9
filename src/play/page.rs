//! The replay page of a finished match (`mondo replay MATCH --html FILE`): one HTML
//! file that needs nothing else (styles inside, every picture a `data:` URI), readable
//! on a phone. Each step in order, with who made it, when (game-clock time since the
//! start), what was said of it, the clocks after it and the pictures it showed
//! (structures, grids, tiles); then the secrets. A live match has none: its secrets
//! are still someone's.

use super::replay::{cast_of, decode, since, told};
use crate::koan::Koan;
use crate::render::{self, Mark, Picture};
use crate::rules::{PlayerId, Viewer};
use crate::runtime::{AnyMatch, Engine};
use crate::store::{MatchRecord, RatingChange, Status, StoredEvent};
use base64::Engine as _;
use serde_json::Value;
use std::collections::HashMap;
use std::fmt::Write as _;

/// One step of a finished match's story, as its page and Discord's `/replay` tell it.
#[derive(Clone, Debug)]
pub struct Step {
    /// Who made it: a player's name, "a host" or "the umpire".
    pub who: String,
    /// Game-clock time since the start (`m:ss.mmm`).
    pub when: String,
    /// What was said of it (what only one player heard included: the match is over).
    pub said: String,
    /// The clocks after it, and each player's reserve where the game keeps one.
    pub clocks: Vec<String>,
    /// The event as stored (its pictures: [`pictures_of`]).
    pub body: Value,
}

/// A finished match told step by step, with its secrets.
#[derive(Clone, Debug)]
pub struct Story {
    pub title: String,
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
    let name = |id: u64| names.get(&id).cloned().unwrap_or_else(|| id.to_string());
    let players: Vec<String> = record.players.iter().map(|p| name(*p)).collect();
    let mut steps = Vec::with_capacity(events.len());
    for ((stored, text), state) in events.iter().zip(&said).zip(&states) {
        let body: Value = crate::store::from_json(&stored.body).unwrap_or(Value::Null);
        let view = serde_json::to_value(state.view(&Viewer::Spectator)).unwrap_or(Value::Null);
        let mut clocks = clocks(&view, stored.at, &players);
        clocks.extend(reserves(state, &record.players, &players));
        steps.push(Step {
            who: who(&body, &record.players, &players),
            when: since(record.created_at, stored.at),
            said: text.clone(),
            clocks,
            body,
        });
    }
    let mut hidden = Vec::new();
    if let Some(first) = steps.first() {
        sources(&first.body, &mut hidden);
    }
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
        title: format!("Match {}: {}", record.id, game.title()),
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
    let mut html = String::with_capacity(64 * 1024);
    head(&mut html, record, &story);
    let name = |id: u64| names.get(&id).cloned().unwrap_or_else(|| id.to_string());
    result(&mut html, &story, changes, name);
    html.push_str("<ol id=\"steps\">\n");
    for (i, step) in story.steps.iter().enumerate() {
        let _ = write!(
            html,
            "<li class=\"step\" data-step=\"{}\"><div class=\"meta\"><span class=\"n\">{}</span> \
             <span class=\"when\">+{}</span> <span class=\"who\">{}</span></div>\n<p class=\"said\">{}</p>\n",
            i + 1,
            i + 1,
            step.when,
            named(&step.who, &story.players),
            esc(&step.said)
        );
        if !step.clocks.is_empty() {
            let _ = writeln!(
                html,
                "<p class=\"clocks\">{}</p>",
                esc(&step.clocks.join(" · "))
            );
        }
        // The created event holds the secrets: its pictures are shown at the end.
        if i > 0 {
            pictures(&mut html, &step.body);
        }
        html.push_str("</li>\n");
    }
    html.push_str("</ol>\n");
    secrets(&mut html, &story);
    html.push_str("</main></body></html>\n");
    Ok(html)
}

const STYLE: &str = "body{font:16px/1.45 system-ui,sans-serif;margin:0;background:#f6f4ef;color:#1d1d1d}\
main{max-width:46rem;margin:0 auto;padding:1rem}h1{font-size:1.4rem;margin:.2rem 0}\
ol{list-style:none;padding:0}.step{background:#fff;border:1px solid #ddd;border-radius:8px;\
margin:.6rem 0;padding:.6rem .8rem}.meta{font-size:.85rem;color:#555}.n{font-weight:bold}\
.who{font-weight:bold;color:#174a7c}.said{margin:.3rem 0;overflow-wrap:anywhere}\
.clocks{font-size:.85rem;color:#6b4b00;margin:.2rem 0}#result{background:#fff;\
border:2px solid #174a7c;border-radius:8px;padding:.4rem .8rem}.won{font-weight:bold}img{max-width:100%;height:auto;\
display:block;margin:.4rem 0}#secrets{background:#fff7e0;border:1px solid #e0c060;\
border-radius:8px;padding:.6rem .8rem}pre{white-space:pre-wrap;overflow-wrap:anywhere;\
font-size:.8rem}";

fn head(html: &mut String, record: &MatchRecord, story: &Story) {
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t}</title><style>{STYLE}</style></head><body><main>\n<h1>{t}</h1>\n\
         <p class=\"about\">Players: {p}. Started {c}; {n} steps; seed {s}.</p>\n\
         <p class=\"counted\">{r}</p>\n",
        r = esc(&story.counted),
        t = esc(&story.title),
        p = story
            .players
            .iter()
            .map(|p| bdi(p))
            .collect::<Vec<_>>()
            .join(", "),
        c = esc(&record.created),
        n = record.last_seq,
        s = record.seed
    );
}

/// The header's result: who won (or that no one did), how it ended, and what it did to
/// each player's rating, before and after.
fn result(
    html: &mut String,
    story: &Story,
    changes: &[RatingChange],
    name: impl Fn(u64) -> String,
) {
    let first: Vec<String> = story
        .places
        .iter()
        .filter(|(_, place)| *place == 0)
        .map(|(n, _)| bdi(n))
        .collect();
    let won = if story.places.is_empty() {
        "No one won: the match had no result.".to_string()
    } else if first.len() == story.places.len() {
        "A draw.".to_string()
    } else {
        format!("Won by {}.", first.join(" and "))
    };
    let _ = write!(
        html,
        "<section id=\"result\"><p class=\"won\">{won}</p>\n\
         <p class=\"ended\">How it ended: {}</p>\n",
        esc(&story.ended)
    );
    if changes.is_empty() {
        let _ = writeln!(html, "<p class=\"ratings\">Ratings: unchanged.</p>");
    } else {
        html.push_str("<ul class=\"ratings\">");
        for c in changes {
            let _ = write!(
                html,
                "<li>{}: {}</li>",
                bdi(&name(c.player)),
                esc(&c.said())
            );
        }
        html.push_str("</ul>\n");
    }
    html.push_str("</section>\n");
}

/// A name, isolated from the text around it (a name in Arabic or Hebrew does not
/// reorder the line).
fn bdi(name: &str) -> String {
    format!("<bdi>{}</bdi>", esc(name))
}

/// A step's author: a player's name isolated, "the umpire" or "a host" as they are.
fn named(who: &str, players: &[String]) -> String {
    if players.iter().any(|p| p == who) {
        bdi(who)
    } else {
        esc(who)
    }
}

/// Who made a step: the player its event says did it (`by`, also inside an
/// `outcome`), or the umpire.
fn who(body: &Value, ids: &[u64], names: &[String]) -> String {
    let by = body
        .get("by")
        .or_else(|| body.get("outcome").and_then(|o| o.get("by")))
        .and_then(Value::as_u64);
    let Some(n) = by else {
        return "the umpire".into();
    };
    if let Some(name) = usize::try_from(n).ok().and_then(|i| names.get(i)) {
        return name.clone();
    }
    match ids.iter().position(|id| *id == n) {
        Some(i) => names[i].clone(),
        None => "a host".into(),
    }
}

/// Every clock in a view (`{"left": ms, "since": at}`), as time left at `at`, named by
/// where it is (a player's when it is one of a list of the players').
fn clocks(view: &Value, at: u64, players: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    walk_clocks(view, "", at, players, &mut out);
    out
}

fn walk_clocks(v: &Value, label: &str, at: u64, players: &[String], out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            if let Some(left) = map.get("left").and_then(Value::as_u64)
                && map.len() <= 2
                && map.keys().all(|k| k == "left" || k == "since")
            {
                let since = map.get("since").and_then(Value::as_u64);
                let left = since.map_or(left, |s| left.saturating_sub(at.saturating_sub(s)));
                let running = if since.is_some() { " (running)" } else { "" };
                out.push(format!(
                    "{}: {}{running}",
                    label.replace('_', " "),
                    mmss(left)
                ));
                return;
            }
            for (k, v) in map {
                walk_clocks(v, k, at, players, out);
            }
        }
        Value::Array(items) => {
            let theirs = items.len() == players.len();
            for (i, v) in items.iter().enumerate() {
                let label = if theirs {
                    format!("{}, {}", players[i], label)
                } else {
                    label.to_string()
                };
                walk_clocks(v, &label, at, players, out);
            }
        }
        _ => {}
    }
}

fn mmss(ms: u64) -> String {
    format!("{}:{:02}", ms / 60_000, ms / 1000 % 60)
}

/// The pictures a stored event carries: each structure, grid and tile layout in it, as
/// (what it shows, PNG bytes).
pub fn pictures_of(body: &Value) -> Vec<(String, Vec<u8>)> {
    let mut found = Vec::new();
    collect(body, "", &mut found);
    found
}

fn pictures(html: &mut String, body: &Value) {
    for (alt, png) in pictures_of(body) {
        let _ = writeln!(
            html,
            "<img alt=\"{}\" src=\"data:image/png;base64,{}\">",
            esc(&alt),
            base64::engine::general_purpose::STANDARD.encode(png)
        );
    }
}

/// Each player's reserve of time after a step, where their own view keeps one (a
/// `reserve` in milliseconds). Only a finished match is told ([`story`]), so nothing of
/// a player's own view is secret any more.
fn reserves(state: &AnyMatch, ids: &[u64], names: &[String]) -> Vec<String> {
    ids.iter()
        .zip(names)
        .filter_map(|(id, name)| {
            let view = serde_json::to_value(state.view(&Viewer::Player(PlayerId(*id)))).ok()?;
            reserve_in(&view).map(|ms| format!("{name}, reserve: {}", mmss(ms)))
        })
        .collect()
}

fn reserve_in(v: &Value) -> Option<u64> {
    match v {
        Value::Object(map) => map
            .get("reserve")
            .and_then(Value::as_u64)
            .or_else(|| map.values().find_map(reserve_in)),
        _ => None,
    }
}

fn collect(v: &Value, key: &str, out: &mut Vec<(String, Vec<u8>)>) {
    match v {
        Value::Object(map) => {
            if map.contains_key("pieces") && map.contains_key("set") {
                if let Ok(koan) = serde_json::from_value::<Koan>(v.clone()) {
                    let mark = match v.get("obeys") {
                        Some(Value::Bool(true)) => Some(Mark::Obeys),
                        Some(Value::Bool(false)) => Some(Mark::DoesNot),
                        _ => None,
                    };
                    let picture = Picture {
                        mark,
                        caption: (!key.is_empty()).then(|| key.replace('_', " ")),
                    };
                    out.push((
                        format!("structure {}", koan),
                        render::koan_png(&koan, &picture),
                    ));
                    return;
                }
            }
            // A structure's verdict sits beside it: `{"koan": .., "obeys": true}`.
            let obeys = map.get("obeys").and_then(Value::as_bool);
            for (k, v) in map {
                if k == "koan" && obeys.is_some() {
                    if let Ok(koan) = serde_json::from_value::<Koan>(v.clone()) {
                        let picture = Picture {
                            mark: Some(if obeys == Some(true) {
                                Mark::Obeys
                            } else {
                                Mark::DoesNot
                            }),
                            caption: None,
                        };
                        out.push((
                            format!("structure {koan}"),
                            render::koan_png(&koan, &picture),
                        ));
                        continue;
                    }
                }
                if k == "grid" {
                    if let Ok(grid) = serde_json::from_value::<crate::grid::Grid>(v.clone()) {
                        out.push(("the grid".into(), render::symbol_grid_png(&grid.rows())));
                        continue;
                    }
                }
                if k == "layout" {
                    if let Ok(layout) =
                        serde_json::from_value::<crate::lang::tiles::Layout>(v.clone())
                    {
                        let known: Vec<_> = crate::lang::tiles::Cell::all()
                            .map(|c| (c, layout.colour(c)))
                            .collect();
                        out.push(("the layout".into(), render::tiles::board_png(&known, None)));
                        continue;
                    }
                }
                collect(v, k, out);
            }
        }
        Value::Array(items) => {
            for v in items {
                collect(v, key, out);
            }
        }
        _ => {}
    }
}

/// The secrets, now that the match is over: what it was set up with (its first
/// event), with its pictures, and the final view.
fn secrets(html: &mut String, story: &Story) {
    html.push_str("<section id=\"secrets\"><h2>The secrets</h2>\n");
    for (what, text) in &story.hidden {
        let _ = writeln!(html, "<p><b>{}</b>: {}</p>", esc(what), esc(text));
    }
    if let Some(created) = story.steps.first() {
        pictures(html, &created.body);
        let _ = writeln!(
            html,
            "<details><summary>The setup as stored</summary><pre>{}</pre></details>",
            esc(&serde_json::to_string_pretty(&created.body).unwrap_or_default())
        );
    }
    if !story.end.is_null() {
        let _ = writeln!(
            html,
            "<details><summary>The end as everyone saw it</summary><pre>{}</pre></details>",
            esc(&serde_json::to_string_pretty(&story.end).unwrap_or_default())
        );
    }
    html.push_str("</section>\n");
}

/// Patterns as their authors wrote them (`{"source": ..}` inside the setup).
fn sources(v: &Value, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                if let Some(text) = v.get("source").and_then(Value::as_str) {
                    out.push((format!("{} pattern", k.replace('_', " ")), text.to_string()));
                } else {
                    sources(v, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| sources(v, out)),
        _ => {}
    }
}

/// Text as HTML.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
