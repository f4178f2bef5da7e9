//! A player's profile page (`mondo stats PLAYER --html FILE`): one HTML file that needs
//! nothing else, readable on a phone. Their rating in each game with its results, the
//! rating over time per game as an inline SVG chart (no script, nothing loaded from
//! elsewhere), their streaks, their favourite game, their solo records and their
//! recent matches.

use crate::store::{HistoryRow, RatingRow, SoloRecord};
use maud::{Markup, html};

/// What the page shows of one player.
pub struct Profile<'a> {
    /// Their name.
    pub who: &'a str,
    /// Their rating in each game they played rated (as read today).
    pub ratings: &'a [RatingRow],
    pub solo: &'a [SoloRecord],
    /// Their finished matches, newest first (as the store lists them).
    pub history: &'a [HistoryRow],
    /// The most recent of them as the terminal says each.
    pub recent: &'a [String],
}

/// The chart's size (its viewBox: it scales to the page's width).
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 240.0;
/// Room for the rating labels on the left and the axis label below.
const LEFT: f64 = 48.0;
const BOTTOM: f64 = 28.0;
const TOP: f64 = 12.0;
const RIGHT: f64 = 12.0;
/// Game `i`'s colour, in the order the games are listed: the same as on `/stats`'s
/// picture.
fn colour(i: usize) -> String {
    let (r, g, b) = crate::render::LINE_COLOURS[i % crate::render::LINE_COLOURS.len()];
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The page.
pub fn page(p: &Profile) -> String {
    let series = series(p.history);
    let main = html! {
        h1 { bdi { (p.who) } "'s profile" }
        @if let Some(fav) = favourite(p.history) {
            p #favourite { "Favourite game: " (fav) }
        }
        @if let Some(streak) = streaks(p.history) {
            p #streaks { (streak) }
        }
        section #ratings {
            h2 { "Ratings" }
            @if p.ratings.is_empty() {
                p { "No rated match yet." }
            }
            ul {
                @for r in p.ratings {
                    li {
                        b { (title(&r.game)) } ": " (r.shown())
                        " (deviation " (format!("{:.0}", r.deviation)) "), "
                        (crate::ratings::results(r.games, r.wins, r.losses, r.draws))
                    }
                }
            }
        }
        @if !series.is_empty() {
            section #chart {
                h2 { "Rating over time" }
                (chart(&series))
                ul.legend {
                    @for (i, s) in series.iter().enumerate() {
                        li {
                            span.swatch style={ "background:" (colour(i)) } {}
                            (s.label())
                        }
                    }
                }
            }
        }
        @if !p.solo.is_empty() {
            section #solo {
                h2 { "Solo" }
                ul {
                    @for s in p.solo {
                        li { b { (title(&s.game)) } ": " (s.played) " played, " (s.solved) " solved" }
                    }
                }
            }
        }
        @if !p.recent.is_empty() {
            section #recent {
                h2 { "Recent matches" }
                ul { @for line in p.recent { li { (line.trim()) } } }
            }
        }
    };
    super::page::document(&format!("{}'s profile", p.who), STYLE, main)
}

const STYLE: &str = "body{font:16px/1.45 system-ui,sans-serif;margin:0;background:#f6f4ef;color:#1d1d1d}\
main{max-width:46rem;margin:0 auto;padding:1rem}h1{font-size:1.4rem;margin:.2rem 0}\
section{background:#fff;border:1px solid #ddd;border-radius:8px;margin:.6rem 0;padding:.4rem .8rem}\
h2{font-size:1.1rem;margin:.3rem 0}ul{padding-left:1.1rem}li{overflow-wrap:anywhere}\
svg{width:100%;height:auto;display:block}.legend{list-style:none;padding:0}\
.swatch{display:inline-block;width:.9rem;height:.9rem;border-radius:2px;margin-right:.4rem;\
vertical-align:middle}";

/// One game's rating after each of its rated matches, oldest first (its first point is
/// the rating before the first), each at its place among all the player's rated
/// matches.
pub struct Series {
    pub game: String,
    /// (place among the rated matches, from 0; rating; the match's number).
    pub points: Vec<(usize, f64, i64)>,
}

impl Series {
    /// Its name in a legend: `Zendo Duel: 3 rated matches`.
    pub fn label(&self) -> String {
        format!(
            "{}: {} rated matches",
            title(&self.game),
            self.points.len() - 1
        )
    }
}

/// The rating over time per game, as lines of a picture (`/stats` on Discord): the
/// profile page's chart, point for point.
pub fn chart_lines(history: &[HistoryRow]) -> Vec<crate::render::Line> {
    series(history)
        .iter()
        .map(|s| crate::render::Line {
            label: s.label(),
            points: s.points.iter().map(|p| (p.0 as f64, p.1)).collect(),
        })
        .collect()
}

/// Matches read for a chart, at most (every rated match a player is likely to have).
pub const CHARTED: u32 = 100_000;

/// What the chart's x axis counts.
pub const CHART_X: &str = "rated matches, oldest first";

pub fn series(history: &[HistoryRow]) -> Vec<Series> {
    let mut out: Vec<Series> = Vec::new();
    let rated = history
        .iter()
        .rev()
        .filter(|h| h.rated && h.rating_after.is_some());
    for (place, h) in rated.enumerate() {
        let (Some(before), Some(after)) = (h.rating_before, h.rating_after) else {
            continue;
        };
        let i = match out.iter().position(|s| s.game == h.game) {
            Some(i) => i,
            None => {
                out.push(Series {
                    game: h.game.clone(),
                    points: vec![(place, before, h.id.0)],
                });
                out.len() - 1
            }
        };
        out[i].points.push((place + 1, after, h.id.0));
    }
    out
}

/// The chart: a line per game, a dot per rated match (its title says which and the
/// rating after it), the ratings along the left.
fn chart(series: &[Series]) -> Markup {
    let all = series.iter().flat_map(|s| s.points.iter());
    let lo = all.clone().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let hi = all.clone().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    let last = all.map(|p| p.0).max().unwrap_or(1).max(1) as f64;
    // The same round values along the left as `/stats`'s picture.
    let axis = crate::render::Axis::around(lo, hi);
    let x = |place: usize| LEFT + (WIDTH - LEFT - RIGHT) * place as f64 / last;
    let y = |rating: f64| TOP + (HEIGHT - TOP - BOTTOM) * (axis.hi - rating) / (axis.hi - axis.lo);
    let ticks = axis.ticks();
    html! {
        svg viewBox=(format!("0 0 {WIDTH} {HEIGHT}")) role="img"
            aria-label="The rating after each rated match, per game" {
            @for t in &ticks {
                line x1=(LEFT) x2=(WIDTH - RIGHT) y1=(num(y(*t))) y2=(num(y(*t))) stroke="#ddd" {}
                text.tick x=(LEFT - 4.0) y=(num(y(*t) + 4.0)) text-anchor="end" font-size="11" fill="#555" {
                    (axis.label(*t))
                }
            }
            text x=(num((LEFT + WIDTH - RIGHT) / 2.0)) y=(HEIGHT - 8.0) text-anchor="middle" font-size="11" fill="#555" {
                (CHART_X)
            }
            @for (i, s) in series.iter().enumerate() {
                @let colour = colour(i);
                @let points = s.points.iter().map(|p| format!("{},{}", num(x(p.0)), num(y(p.1)))).collect::<Vec<_>>().join(" ");
                polyline.rating data-game=(s.game) points=(points) fill="none" stroke=(colour) stroke-width="2" {}
                @for p in s.points.iter().skip(1) {
                    circle cx=(num(x(p.0))) cy=(num(y(p.1))) r="3" fill=(colour) {
                        title { (format!("{} #{}: {:.0}", title(&s.game), p.2, p.1)) }
                    }
                }
            }
        }
    }
}

/// A coordinate with one decimal.
fn num(v: f64) -> String {
    format!("{v:.1}")
}

/// The game a player played most (of their finished matches, solo ones included).
fn favourite(history: &[HistoryRow]) -> Option<String> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    // Newest first: on a tie, the game played most recently wins.
    for h in history {
        match counts.iter_mut().find(|(g, _)| *g == h.game) {
            Some((_, n)) => *n += 1,
            None => counts.push((&h.game, 1)),
        }
    }
    let best = counts.iter().max_by_key(|(_, n)| *n)?;
    let most = counts.iter().find(|(_, n)| n == &best.1)?;
    Some(format!(
        "{} ({} of {} matches)",
        title(most.0),
        most.1,
        history.len()
    ))
}

/// The current run of rated results and the longest run of wins, in words.
fn streaks(history: &[HistoryRow]) -> Option<String> {
    use crate::ratings::Result;
    let results: Vec<Result> = history.iter().filter_map(|h| h.result).collect();
    let now = *results.first()?;
    let run = results.iter().take_while(|r| **r == now).count();
    let word = match (now, run) {
        (Result::Win, 1) => "1 win",
        (Result::Win, _) => "wins",
        (Result::Loss, 1) => "1 loss",
        (Result::Loss, _) => "losses",
        (Result::Draw, 1) => "1 draw",
        (Result::Draw, _) => "draws",
    };
    let now = if run == 1 {
        format!("Last result: {word}.")
    } else {
        format!("Current streak: {run} {word} in a row.")
    };
    let mut best = 0;
    let mut current = 0;
    for r in &results {
        current = if *r == Result::Win { current + 1 } else { 0 };
        best = best.max(current);
    }
    Some(format!("{now} Longest winning streak: {best}."))
}

/// A game's name as players read it (a stored name this Mondo does not know as is).
fn title(game: &str) -> String {
    game.parse::<crate::rules::GameKind>()
        .map(|g| g.title().to_string())
        .unwrap_or_else(|_| game.to_string())
}
