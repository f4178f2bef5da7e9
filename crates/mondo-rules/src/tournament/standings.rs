//! Standings: points (a win or a bye 1, a draw 1/2), then head-to-head among the
//! tied, then Buchholz (Swiss: the points of one's opponents) or game score (the
//! points scored in the games themselves), then rating, then seed. A bracket ranks
//! by how far each went first.

use super::{Format, Stage, Tournament};
use serde::Serialize;
use std::cmp::Reverse;

/// The tie-breaks after points, in the order they count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tiebreaks {
    /// Points won against the players level on points.
    pub head_to_head: f64,
    /// Swiss: the sum of one's opponents' points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buchholz: Option<f64>,
    /// Other formats: the points scored in the games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_score: Option<i64>,
    /// The rating seeded by (none: unrated).
    pub rating: Option<f64>,
}

/// A line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub seat: usize,
    pub rank: usize,
    pub points: f64,
    pub tiebreaks: Tiebreaks,
    /// Matches decided with an opponent (forfeits included, byes not).
    pub played: u32,
    /// The group (groups format).
    pub group: Option<usize>,
    /// How far in the bracket: the bracket rounds won (a bracket format).
    pub bracket_wins: Option<u32>,
}

/// Half points, played, game score of `seat` over the rounds `counts` keeps.
fn tally(t: &Tournament, seat: usize, counts: &dyn Fn(Stage) -> bool) -> (u32, u32, i64) {
    let (mut half, mut played, mut score) = (0, 0, 0);
    for r in t.rounds.iter().filter(|r| counts(r.stage)) {
        for table in r.tables.iter().filter(|x| x.seats().any(|s| s == seat)) {
            half += table.half_points(seat);
            score += table.game_score(seat);
            if table.b.is_some() && table.decided.is_some() {
                played += 1;
            }
        }
    }
    (half, played, score)
}

/// Half points `seat` won against `others` over the rounds `counts` keeps.
fn head_to_head(
    t: &Tournament,
    seat: usize,
    others: &[usize],
    counts: &dyn Fn(Stage) -> bool,
) -> u32 {
    t.rounds
        .iter()
        .filter(|r| counts(r.stage))
        .flat_map(|r| &r.tables)
        .filter(|x| x.b.is_some() && x.seats().any(|s| s == seat))
        .filter(|x| x.opponent(seat).is_some_and(|o| others.contains(&o)))
        .map(|x| x.half_points(seat))
        .sum()
}

/// `seats` in order, over the rounds `counts` keeps, with each one's row.
fn rank(t: &Tournament, seats: &[usize], counts: &dyn Fn(Stage) -> bool) -> Vec<Row> {
    let swiss = matches!(t.settings.format, Format::Swiss { .. });
    let tallies: Vec<(u32, u32, i64)> = seats.iter().map(|&s| tally(t, s, counts)).collect();
    let half_of = |seat: usize| tally(t, seat, counts).0;
    let mut rows: Vec<(u32, u32, Row)> = seats
        .iter()
        .zip(&tallies)
        .map(|(&seat, &(half, played, score))| {
            let level: Vec<usize> = seats
                .iter()
                .zip(&tallies)
                .filter(|(s, x)| **s != seat && x.0 == half)
                .map(|(s, _)| *s)
                .collect();
            let buchholz: u32 = t
                .rounds
                .iter()
                .filter(|r| counts(r.stage))
                .flat_map(|r| &r.tables)
                .filter(|x| x.b.is_some() && x.seats().any(|s| s == seat))
                .filter_map(|x| x.opponent(seat))
                .map(half_of)
                .sum();
            let tiebreaks = Tiebreaks {
                head_to_head: f64::from(head_to_head(t, seat, &level, counts)) / 2.0,
                buchholz: swiss.then_some(f64::from(buchholz) / 2.0),
                game_score: (!swiss).then_some(score),
                rating: t.seats[seat].rating,
            };
            let row = Row {
                seat,
                rank: 0,
                points: f64::from(half) / 2.0,
                tiebreaks,
                played,
                group: t.groups.iter().position(|g| g.contains(&seat)),
                bracket_wins: None,
            };
            (half, if swiss { buchholz } else { 0 }, row)
        })
        .collect();
    rows.sort_by(|(ha, ba, a), (hb, bb, b)| {
        hb.cmp(ha)
            .then(
                b.tiebreaks
                    .head_to_head
                    .total_cmp(&a.tiebreaks.head_to_head),
            )
            .then(bb.cmp(ba))
            .then(b.tiebreaks.game_score.cmp(&a.tiebreaks.game_score))
            .then(cmp_rating(a.tiebreaks.rating, b.tiebreaks.rating))
            .then(a.seat.cmp(&b.seat))
    });
    rows.into_iter()
        .enumerate()
        .map(|(k, (_, _, mut row))| {
            row.rank = k + 1;
            row
        })
        .collect()
}

/// The better rating first, the unrated last.
fn cmp_rating(a: Option<f64>, b: Option<f64>) -> std::cmp::Ordering {
    match (a, b) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (a, b) => b.is_some().cmp(&a.is_some()),
    }
}

/// A group's table: its seats ranked on the group stage's games only.
pub fn group_standings(t: &Tournament, g: usize) -> Vec<Row> {
    let seats = t.groups.get(g).cloned().unwrap_or_default();
    rank(t, &seats, &|s| s == Stage::Groups)
}

/// A group's seats in order of their places in it (the group stage's games only).
pub fn group_places(t: &Tournament, g: usize) -> Vec<usize> {
    group_standings(t, g).into_iter().map(|r| r.seat).collect()
}

/// The seats in standings order.
pub fn ranked_seats(t: &Tournament) -> Vec<usize> {
    standings(t).into_iter().map(|r| r.seat).collect()
}

/// The standings of the whole tournament, the first first. With a bracket, who went
/// furthest in it comes first (the champion, the finalist, ...); the rest by points
/// and tie-breaks.
pub fn standings(t: &Tournament) -> Vec<Row> {
    let seats: Vec<usize> = (0..t.seats.len()).collect();
    let mut rows = rank(t, &seats, &|_| true);
    let bracket = matches!(t.settings.format, Format::Groups { .. } | Format::Single);
    if bracket && t.rounds.iter().any(|r| r.stage.is_bracket()) {
        let entrants = t.bracket_entrants();
        for row in &mut rows {
            if !entrants.contains(&row.seat) && matches!(t.settings.format, Format::Groups { .. }) {
                continue;
            }
            let wins = t
                .rounds
                .iter()
                .filter(|r| r.stage.is_bracket())
                .flat_map(|r| &r.tables)
                .filter(|x| x.winner() == Some(row.seat))
                .count();
            row.bracket_wins = Some(wins as u32);
        }
        // Within groups, the non-qualifiers follow by their group places.
        rows.sort_by_key(|r| (Reverse(r.bracket_wins.map(|w| w + 1).unwrap_or(0)), r.rank));
        for (k, row) in rows.iter_mut().enumerate() {
            row.rank = k + 1;
        }
    }
    rows
}
