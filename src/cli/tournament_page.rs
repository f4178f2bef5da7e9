//! `mondo tournament page ID --html FILE`: a tournament on one self-contained page
//! (no script, no file or address it loads): the standings, each group's table, the
//! bracket round by round, and every round's results.

use mondo::play::page::esc;
use mondo::tournament::{Decision, Row, Table, Tournament, standings};
use std::fmt::Write;

const STYLE: &str = "body{font:16px/1.45 system-ui,sans-serif;margin:0;background:#f6f4ef;color:#1d1d1d}\
main{max-width:60rem;margin:0 auto;padding:1rem}h1{font-size:1.5rem;margin:.2rem 0}\
h2{font-size:1.15rem;margin:1.2rem 0 .4rem}table{border-collapse:collapse;background:#fff;\
margin:.4rem 0}th,td{border:1px solid #ddd;padding:.25rem .5rem;text-align:left}\
th{background:#eee}td.n{text-align:right}.champion{font-size:1.1rem;font-weight:bold;\
color:#7a5200}.bracket{display:flex;gap:1rem;overflow-x:auto}.col{display:flex;\
flex-direction:column;justify-content:space-around;gap:.5rem;min-width:12rem}\
.m{background:#fff;border:1px solid #ccc;border-radius:6px;padding:.3rem .5rem}\
.w{font-weight:bold}.out{color:#777}ol{padding-left:1.4rem}";

/// The page of tournament `id`.
pub fn page(id: i64, t: &Tournament) -> String {
    let mut html = String::with_capacity(32 * 1024);
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{n}</title><style>{STYLE}</style></head><body><main>\n<h1>{n}</h1>\n\
         <p class=\"about\">Tournament {id}: {f}; {g}; {p} players.</p>\n",
        n = esc(&t.name),
        f = esc(&t.settings.format.to_string()),
        g = esc(&t.settings.game),
        p = t.seats.len().max(t.signups.len()),
    );
    match (t.champion(), t.finished.is_some()) {
        (Some(c), _) => {
            let _ = writeln!(html, "<p class=\"champion\">Champion: {}</p>", esc(&c.name));
        }
        (None, true) => html.push_str("<p class=\"champion\">Finished without a champion.</p>\n"),
        (None, false) => {
            let _ = writeln!(html, "<p>Round {} is being played.</p>", t.rounds.len());
        }
    }
    if !t.is_started() {
        html.push_str("<h2>Signed up</h2>\n<ol>\n");
        for s in &t.signups {
            let _ = writeln!(html, "<li>{}</li>", esc(&s.name));
        }
        html.push_str("</ol>\n</main></body></html>\n");
        return html;
    }
    let rows = standings(t);
    html.push_str("<h2>Standings</h2>\n");
    table(&mut html, t, &rows);
    for (g, seats) in t.groups.iter().enumerate() {
        let _ = writeln!(html, "<h2>Group {}</h2>", group_letter(g));
        let places = mondo::tournament::group_standings(t, g);
        let in_group: Vec<Row> = places
            .into_iter()
            .filter(|r| seats.contains(&r.seat))
            .collect();
        table(&mut html, t, &in_group);
    }
    bracket(&mut html, t);
    html.push_str("<h2>Rounds</h2>\n");
    for r in &t.rounds {
        let _ = writeln!(
            html,
            "<h3>Round {} ({})</h3>\n<ol>",
            r.number,
            esc(r.stage.name())
        );
        for x in &r.tables {
            let _ = writeln!(html, "<li>{}</li>", table_line(t, x));
        }
        html.push_str("</ol>\n");
    }
    html.push_str("</main></body></html>\n");
    html
}

/// Groups are lettered A, B, ... (then by number past Z).
pub fn group_letter(g: usize) -> String {
    match u8::try_from(g).ok().filter(|g| *g < 26) {
        Some(g) => char::from(b'A' + g).to_string(),
        None => (g + 1).to_string(),
    }
}

fn table(html: &mut String, t: &Tournament, rows: &[Row]) {
    html.push_str(
        "<table><tr><th>#</th><th>Player</th><th>Points</th><th>Head-to-head</th>\
         <th>Buchholz / game score</th><th>Rating</th><th>Played</th></tr>\n",
    );
    for r in rows {
        let tb = &r.tiebreaks;
        let second = tb
            .buchholz
            .map(|b| b.to_string())
            .or(tb.game_score.map(|g| g.to_string()))
            .unwrap_or_default();
        let rating = tb
            .rating
            .map_or("unrated".to_string(), |r| format!("{r:.0}"));
        let gone = if t.seats[r.seat].withdrawn {
            " (withdrew)"
        } else {
            ""
        };
        let _ = writeln!(
            html,
            "<tr><td class=\"n\">{}</td><td>{}{gone}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            r.rank,
            esc(&t.seats[r.seat].name),
            r.points,
            tb.head_to_head,
            esc(&second),
            esc(&rating),
            r.played
        );
    }
    html.push_str("</table>\n");
}

/// The bracket's rounds side by side, each match with its winner in bold.
fn bracket(html: &mut String, t: &Tournament) {
    let rounds: Vec<_> = t.rounds.iter().filter(|r| r.stage.is_bracket()).collect();
    if rounds.is_empty() {
        return;
    }
    html.push_str("<h2>Bracket</h2>\n<div class=\"bracket\">\n");
    for r in rounds {
        let _ = writeln!(html, "<div class=\"col\"><b>Round {}</b>", r.number);
        for x in &r.tables {
            html.push_str("<div class=\"m\">");
            for s in x.seats() {
                let class = match x.winner() {
                    Some(w) if w == s => "w",
                    _ if x.decided.is_some() => "out",
                    _ => "",
                };
                let _ = write!(
                    html,
                    "<div class=\"{class}\">{}</div>",
                    esc(&t.seats[s].name)
                );
            }
            if x.b.is_none() {
                html.push_str("<div class=\"out\">(bye)</div>");
            }
            html.push_str("</div>\n");
        }
        html.push_str("</div>\n");
    }
    html.push_str("</div>\n");
}

/// A table in words: who met, and how it ended.
fn table_line(t: &Tournament, x: &Table) -> String {
    let name = |s: usize| esc(&t.seats[s].name);
    let Some(b) = x.b else {
        return format!("{}: a bye", name(x.a));
    };
    let result = match &x.decided {
        Some(Decision::Won(s)) => format!("{} won", name(*s)),
        Some(Decision::Draw) => "a draw".into(),
        Some(Decision::Forfeit(absent)) => format!(
            "forfeited by {}",
            absent
                .iter()
                .map(|s| name(*s))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        Some(Decision::Bye) => "a bye".into(),
        None => "to play".into(),
    };
    let scores: Vec<String> = x
        .games
        .iter()
        .filter_map(|g| g.score.map(|s| format!("{}-{}", s[0], s[1])))
        .collect();
    let scores = if scores.is_empty() {
        String::new()
    } else {
        format!(" ({})", scores.join(", "))
    };
    format!("{} v {}: {result}{scores}", name(x.a), name(b))
}
