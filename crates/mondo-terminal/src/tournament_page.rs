//! `mondo tournament page ID --html FILE`: a tournament on one self-contained page
//! (no script, no file or address it loads): the standings, each group's table, the
//! bracket round by round, and every round's results. Built as the replay page is
//! (maud: every name escaped, and isolated in `<bdi>` so a name in Arabic or Hebrew
//! does not reorder the line around it), readable on a phone.

use maud::{Markup, html};
use mondo_play::page::document;
use mondo_rules::tournament::{Decision, Row, Table, Tournament, group_letter, standings};

const STYLE: &str = "body{font:16px/1.45 system-ui,sans-serif;margin:0;background:#f6f4ef;color:#1d1d1d}\
main{max-width:60rem;margin:0 auto;padding:1rem}h1{font-size:1.5rem;margin:.2rem 0}\
h2{font-size:1.15rem;margin:1.2rem 0 .4rem}table{border-collapse:collapse;background:#fff;\
margin:.4rem 0}th,td{border:1px solid #ddd;padding:.25rem .5rem;text-align:left}\
th{background:#eee}td.n{text-align:right}.champion{font-size:1.1rem;font-weight:bold;\
color:#7a5200}.bracket{display:flex;gap:1rem;overflow-x:auto}.col{display:flex;\
flex-direction:column;justify-content:space-around;gap:.5rem;min-width:12rem}\
.m{background:#fff;border:1px solid #ccc;border-radius:6px;padding:.3rem .5rem}\
.w{font-weight:bold}.out{color:#777}ol{padding-left:1.4rem}li{overflow-wrap:anywhere}\
.wide{overflow-x:auto}";

/// The page of tournament `id`.
pub fn page(id: i64, t: &Tournament) -> String {
    let players = t.seats.len().max(t.signups.len());
    let main = html! {
        h1 { (t.name) }
        p.about {
            "Tournament " (id) ": " (t.settings.format.to_string()) "; " (t.settings.game) "; "
            (players) " players."
        }
        @match (t.champion(), t.finished.is_some()) {
            (Some(c), _) => p.champion { "Champion: " bdi { (c.name) } },
            (None, true) => p.champion { "Finished without a champion." },
            (None, false) => p { "Round " (t.rounds.len()) " is being played." },
        }
        @if t.is_started() {
            h2 { "Standings" }
            (table(t, &standings(t)))
            @for (g, seats) in t.groups.iter().enumerate() {
                h2 { "Group " (group_letter(g)) }
                @let in_group: Vec<Row> = mondo_rules::tournament::group_standings(t, g)
                    .into_iter()
                    .filter(|r| seats.contains(&r.seat))
                    .collect();
                (table(t, &in_group))
            }
            (bracket(t))
            h2 { "Rounds" }
            @for r in &t.rounds {
                h3 { "Round " (r.number) " (" (r.stage.name()) ")" }
                ol { @for x in &r.tables { li { (table_line(t, x)) } } }
            }
        } @else {
            h2 { "Signed up" }
            ol { @for s in &t.signups { li { bdi { (s.name) } } } }
        }
    };
    document(&t.name, STYLE, main)
}

/// A table of standings: rank, player, points and the tie-breaks, rating, games.
fn table(t: &Tournament, rows: &[Row]) -> Markup {
    html! {
        div.wide { table {
            tr {
                th { "#" } th { "Player" } th { "Points" } th { "Head-to-head" }
                th { "Buchholz / game score" } th { "Rating" } th { "Played" }
            }
            @for r in rows {
                @let tb = &r.tiebreaks;
                @let second = tb
                    .buchholz
                    .map(|b| b.to_string())
                    .or(tb.game_score.map(|g| g.to_string()))
                    .unwrap_or_default();
                tr {
                    td.n { (r.rank) }
                    td {
                        bdi { (t.seats[r.seat].name) }
                        @if t.seats[r.seat].withdrawn { " (withdrew)" }
                    }
                    td.n { (r.points.to_string()) }
                    td.n { (tb.head_to_head.to_string()) }
                    td.n { (second) }
                    td.n {
                        @match tb.rating {
                            Some(rating) => (format!("{rating:.0}")),
                            None => "unrated",
                        }
                    }
                    td.n { (r.played) }
                }
            }
        } }
    }
}

/// The bracket's rounds side by side, each match with its winner in bold.
fn bracket(t: &Tournament) -> Markup {
    let rounds: Vec<_> = t.rounds.iter().filter(|r| r.stage.is_bracket()).collect();
    html! {
        @if !rounds.is_empty() {
            h2 { "Bracket" }
            div.bracket {
                @for r in rounds {
                    div.col {
                        b { "Round " (r.number) }
                        @for x in &r.tables {
                            div.m {
                                @for s in x.seats() {
                                    @let class = match x.winner() {
                                        Some(w) if w == s => "w",
                                        _ if x.decided.is_some() => "out",
                                        _ => "",
                                    };
                                    div class=(class) { bdi { (t.seats[s].name) } }
                                }
                                @if x.b.is_none() { div.out { "(bye)" } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A table in words: who met, and how it ended.
fn table_line(t: &Tournament, x: &Table) -> Markup {
    let name = |s: usize| html! { bdi { (t.seats[s].name) } };
    let Some(b) = x.b else {
        return html! { (name(x.a)) ": a bye" };
    };
    let scores: Vec<String> = x
        .games
        .iter()
        .filter_map(|g| g.score.map(|s| format!("{}-{}", s[0], s[1])))
        .collect();
    html! {
        (name(x.a)) " v " (name(b)) ": "
        @match &x.decided {
            Some(Decision::Won(s)) => { (name(*s)) " won" }
            Some(Decision::Draw) => "a draw",
            Some(Decision::Forfeit(absent)) => {
                "forfeited by "
                @for (i, s) in absent.iter().enumerate() {
                    @if i > 0 { " and " }
                    (name(*s))
                }
            }
            Some(Decision::Bye) => "a bye",
            None => "to play",
        }
        @if !scores.is_empty() { " (" (scores.join(", ")) ")" }
    }
}
