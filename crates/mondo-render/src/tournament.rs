//! A tournament as pictures (on Discord, `/tournament standings` and `/tournament
//! bracket`), from the same data as its HTML page: [`standings_png`], the standings
//! then each group's table, with the tie-breaks in the order they count; and
//! [`bracket_png`], the bracket's rounds side by side, every match a box (the rounds
//! not yet opened drawn empty, so the bracket's whole shape shows), each winner's
//! line joined to the match it goes on to.

use super::geometry::{Point, Rect};
use super::style::{self, Rgb};
use super::table::{Column, Section, tables_png};
use super::text;
use mondo_rules::tournament::{
    Decision, Format, Row, Table, Tournament, group_letter, group_standings, standings,
};

/// The standings of `t` (and each group's, in a groups tournament) as a picture.
pub fn standings_png(t: &Tournament) -> Vec<u8> {
    let second = match t.settings.format {
        Format::Swiss { .. } => "Buchholz",
        _ => "Game score",
    };
    let columns = vec![
        Column::right("#"),
        Column::left("Player"),
        Column::right("Points"),
        Column::right("Head-to-head"),
        Column::right(second),
        Column::right("Rating"),
        Column::right("Played"),
    ];
    let section = |heading: String, rows: &[Row]| Section {
        heading,
        columns: columns.clone(),
        rows: rows.iter().map(|r| cells(t, r)).collect(),
    };
    let mut sections = Vec::new();
    if t.is_started() {
        let heading = if t.groups.is_empty() { "" } else { "Overall" };
        sections.push(section(heading.into(), &standings(t)));
        for (g, seats) in t.groups.iter().enumerate() {
            let rows: Vec<Row> = group_standings(t, g)
                .into_iter()
                .filter(|r| seats.contains(&r.seat))
                .collect();
            sections.push(section(format!("Group {}", group_letter(g)), &rows));
        }
    } else {
        sections.push(Section {
            heading: String::new(),
            columns: vec![Column::right("#"), Column::left("Signed up")],
            rows: (t.signups.iter().enumerate())
                .map(|(k, s)| vec![(k + 1).to_string(), s.name.clone()])
                .collect(),
        });
    }
    tables_png(&format!("{}: standings", t.name), &sections, &state(t))
}

/// Where `t` is, in a line: its champion, its round, or its sign-up.
fn state(t: &Tournament) -> String {
    match t.champion() {
        Some(c) => format!("Champion: {}", c.name),
        None if t.finished.is_some() => "Finished without a champion.".into(),
        None if !t.is_started() => format!("Not started: {} signed up.", t.signups.len()),
        None => format!(
            "Round {} is being played ({}).",
            t.rounds.len(),
            t.settings.format
        ),
    }
}

/// A row of the standings as cells.
fn cells(t: &Tournament, r: &Row) -> Vec<String> {
    let seat = &t.seats[r.seat];
    let tb = &r.tiebreaks;
    let second = tb
        .buchholz
        .map(|b| b.to_string())
        .or(tb.game_score.map(|g| g.to_string()))
        .unwrap_or_default();
    let withdrew = if seat.withdrawn { " (withdrew)" } else { "" };
    vec![
        r.rank.to_string(),
        format!("{}{withdrew}", seat.name),
        r.points.to_string(),
        tb.head_to_head.to_string(),
        second,
        tb.rating.map_or("unrated".into(), |x| format!("{x:.0}")),
        r.played.to_string(),
    ]
}

const MARGIN: f32 = 18.0;
const TITLE_PX: f32 = 24.0;
const HEAD_PX: f32 = 15.0;
const NAME_PX: f32 = 15.0;
/// A match's box: two lines of names.
const LINE: f32 = 24.0;
const PAD: f32 = 6.0;
const BOX_W: f32 = 210.0;
const BOX_H: f32 = 2.0 * LINE + 2.0 * PAD;
/// Between two boxes of the first round, and between two rounds.
const ROW_GAP: f32 = 14.0;
const COL_GAP: f32 = 36.0;
/// A loser's name: fainter than a winner's.
const OUT: Rgb = style::CARD_EDGE;
/// The bar beside a winner's name, and the lines between rounds.
const WON: Rgb = style::PIECE;

/// The bracket's boxes: for each of its rounds (the first first, the final last), each
/// match's box and the table played there (none: a round, or a bye's slot, not
/// opened yet). Empty when `t` has no bracket round yet.
#[allow(clippy::type_complexity)]
fn bracket_layout(t: &Tournament) -> (Vec<Vec<(Rect, Option<&Table>)>>, f32) {
    let rounds: Vec<_> = t.rounds.iter().filter(|r| r.stage.is_bracket()).collect();
    let Some(first) = rounds.first() else {
        return (Vec::new(), 0.0);
    };
    let slot = |k: usize, tb: &Table| tb.slot.unwrap_or(k);
    let pairs = (first.tables.iter().enumerate())
        .map(|(k, tb)| slot(k, tb) + 1)
        .max()
        .unwrap_or(1)
        .next_power_of_two();
    let top = MARGIN + TITLE_PX * 1.6 + HEAD_PX * 2.0;
    let pitch = BOX_H + ROW_GAP;
    let mut out = Vec::new();
    let (mut n, mut r) = (pairs, 0usize);
    while n >= 1 {
        let x = MARGIN + r as f32 * (BOX_W + COL_GAP);
        let span = pitch * (pairs / n) as f32;
        let boxes = (0..n)
            .map(|j| {
                let centre = top + (j as f32 + 0.5) * span;
                let rect = Rect::new(x, (centre - BOX_H / 2.0).round(), BOX_W, BOX_H);
                let played = rounds.get(r).and_then(|round| {
                    let mut tables = round.tables.iter().enumerate();
                    tables.find(|(k, tb)| slot(*k, tb) == j).map(|(_, tb)| tb)
                });
                (rect, played)
            })
            .collect();
        out.push(boxes);
        if n == 1 {
            break;
        }
        n /= 2;
        r += 1;
    }
    (out, top + pairs as f32 * pitch)
}

/// The bracket of `t` as a picture: each round a column of match boxes, the winners
/// marked and joined to their next match, the champion under it.
pub fn bracket_png(t: &Tournament) -> Vec<u8> {
    let (columns, bottom) = bracket_layout(t);
    let title = format!("{}: the bracket", t.name);
    let note = match t.champion() {
        Some(c) => format!("Champion: {}", c.name),
        None if columns.is_empty() => "No bracket round has opened yet.".into(),
        None => state(t),
    };
    let bracket_w = columns.len() as f32 * (BOX_W + COL_GAP) - COL_GAP;
    let text_w = text::width(&title, TITLE_PX).max(text::width(&note, HEAD_PX));
    let width = (bracket_w.max(text_w).min(4000.0) + 2.0 * MARGIN).ceil();
    let bottom = bottom.max(MARGIN + TITLE_PX * 1.6);
    let height = (bottom + HEAD_PX * 2.0 + MARGIN).ceil();
    let mut pixmap = super::draw::card(width as u32, height as u32);
    let at = Point::new(MARGIN, (MARGIN + text::cap_height(TITLE_PX)).round());
    let inner = width - 2.0 * MARGIN;
    text::draw(
        &mut pixmap,
        &text::fit(&title, TITLE_PX, inner),
        TITLE_PX,
        at,
        style::TEXT,
    );
    let rounds = columns.len();
    for (r, boxes) in columns.iter().enumerate() {
        let heading = match rounds - r {
            1 => "Final".to_string(),
            2 => "Semi-finals".to_string(),
            3 => "Quarter-finals".to_string(),
            left => format!("Last {}", 1usize << left),
        };
        let x = MARGIN + r as f32 * (BOX_W + COL_GAP);
        let y = (MARGIN + TITLE_PX * 1.6 + HEAD_PX).round();
        text::draw(
            &mut pixmap,
            &heading,
            HEAD_PX,
            Point::new(x, y),
            style::TEXT,
        );
        for (j, (rect, played)) in boxes.iter().enumerate() {
            match_box(&mut pixmap, t, *rect, *played);
            if let Some(next) = columns.get(r + 1).and_then(|n| n.get(j / 2)) {
                join(&mut pixmap, *rect, next.0);
            }
        }
    }
    let at = Point::new(MARGIN, (bottom + HEAD_PX * 1.2).round());
    text::draw(
        &mut pixmap,
        &text::fit(&note, HEAD_PX, inner),
        HEAD_PX,
        at,
        style::TEXT,
    );
    super::encode_board(&super::into_image(pixmap))
}

/// One match's box: its two lines (a name, or nothing yet; a bye), the winner's
/// marked with a bar and the loser's faint.
fn match_box(pixmap: &mut tiny_skia::Pixmap, t: &Tournament, rect: Rect, played: Option<&Table>) {
    super::draw::tile(pixmap, rect, 6.0);
    let Some(tb) = played else { return };
    let winner = tb.winner();
    let lines = [Some(tb.a), tb.b];
    for (k, seat) in lines.iter().enumerate() {
        let y = rect.y + PAD + k as f32 * LINE;
        let (name, colour) = match seat {
            Some(s) if winner == Some(*s) => {
                super::draw::bar(pixmap, Rect::new(rect.x, y + 4.0, 4.0, LINE - 8.0), WON);
                (t.seats[*s].name.clone(), style::TEXT)
            }
            Some(s) if tb.decided.is_some() => (t.seats[*s].name.clone(), OUT),
            Some(s) => (t.seats[*s].name.clone(), style::TEXT),
            None => ("(bye)".to_string(), OUT),
        };
        let name = text::fit(&name, NAME_PX, BOX_W - 2.0 * PAD - 10.0);
        let at = Point::new(
            rect.x + PAD + 6.0,
            (y + (LINE + text::cap_height(NAME_PX)) / 2.0).round(),
        );
        text::draw(pixmap, &name, NAME_PX, at, colour);
    }
    if let Some(Decision::Forfeit(_)) = tb.decided {
        let at = Point::new(
            rect.x + BOX_W - PAD - 14.0,
            (rect.y + BOX_H / 2.0 + 5.0).round(),
        );
        text::draw(pixmap, "F", NAME_PX * 0.8, at, OUT);
    }
}

/// The line from a box to the box of the next round it feeds.
fn join(pixmap: &mut tiny_skia::Pixmap, from: Rect, to: Rect) {
    let (y0, y1) = (from.y + from.h / 2.0, to.y + to.h / 2.0);
    let mid = from.x + from.w + COL_GAP / 2.0;
    let w = 2.0;
    super::draw::bar(
        pixmap,
        Rect::new(from.x + from.w, y0 - 1.0, COL_GAP / 2.0, w),
        WON,
    );
    let (lo, hi) = (y0.min(y1), y0.max(y1));
    super::draw::bar(pixmap, Rect::new(mid - 1.0, lo - 1.0, w, hi - lo + w), WON);
    super::draw::bar(pixmap, Rect::new(mid, y1 - 1.0, to.x - mid, w), WON);
}

#[cfg(test)]
mod tests {
    use super::*;
    use mondo_rules::rules::PlayerId;
    use mondo_rules::tournament::{Act, Outcome, Settings};

    const HOST: PlayerId = PlayerId(1000);

    fn act(t: &mut Tournament, a: Act) {
        for e in t.act(&a, 0).expect("allowed") {
            t.apply(&e);
        }
    }

    /// A tournament of `n` players, started.
    fn started(format: Format, n: u64) -> Tournament {
        let settings = Settings {
            format,
            game: "pattern-assembly".into(),
            playoff_game: None,
            best_of: 1,
            round_ms: 1000,
            signup_until: None,
            channel: None,
            remind_ms: None,
            ai_fill: None,
        };
        let created = Tournament::create("Cup", HOST, settings, 0).unwrap();
        let mut t = Tournament::from_events(&[created]).unwrap();
        for k in 1..=n {
            let name = format!("player {k}");
            act(
                &mut t,
                Act::Join {
                    player: PlayerId(k),
                    name,
                },
            );
        }
        act(
            &mut t,
            Act::Start {
                by: HOST,
                ratings: vec![],
                fill: vec![],
            },
        );
        t
    }

    /// The host settles the open round: the higher seed wins, or the lower (`upsets`).
    fn settle_round(t: &mut Tournament, upsets: bool) {
        let round = t.open_round().expect("a round open").clone();
        for (k, tb) in round.tables.iter().enumerate() {
            let Some(b) = tb.b.filter(|_| tb.decided.is_none()) else {
                continue;
            };
            let winner = t.seats[if upsets { b } else { tb.a }].player;
            let result = Outcome::Win { winner };
            act(
                t,
                Act::Settle {
                    by: HOST,
                    round: round.number,
                    table: k,
                    result,
                },
            );
        }
    }

    fn decode(png: &[u8]) -> image::RgbImage {
        image::load_from_memory_with_format(png, image::ImageFormat::Png)
            .unwrap()
            .to_rgb8()
    }

    fn is(img: &image::RgbImage, x: f32, y: f32, c: Rgb) -> bool {
        img.get_pixel(x as u32, y as u32).0 == [c.0, c.1, c.2]
    }

    #[test]
    fn standings_grow_with_their_rows_and_a_groups_table_each() {
        let four = decode(&standings_png(&started(Format::RoundRobin, 4)));
        let eight = decode(&standings_png(&started(Format::RoundRobin, 8)));
        assert_eq!(four.width(), eight.width());
        assert_eq!(eight.height() - four.height(), 4 * 30, "a row each");
        let groups = Format::Groups {
            size: 4,
            advance: 2,
        };
        let grouped = decode(&standings_png(&started(groups, 8)));
        // The standings, then two groups of four: two more tables of 4 rows and headings.
        assert!(
            grouped.height() >= eight.height() + 2 * 5 * 30,
            "{}",
            grouped.height()
        );
    }

    #[test]
    fn different_standings_are_different_pictures() {
        let mut a = started(Format::RoundRobin, 4);
        let mut b = a.clone();
        let before = decode(&standings_png(&a));
        settle_round(&mut a, false);
        settle_round(&mut b, true);
        let (a, b) = (decode(&standings_png(&a)), decode(&standings_png(&b)));
        assert_eq!(a.dimensions(), b.dimensions());
        assert_ne!(a, b, "who won shows");
        assert_ne!(a, before, "a result shows");
    }

    /// The boxes a column of the picture crosses, top to bottom.
    fn boxes_down(img: &image::RgbImage, x: f32, from: f32) -> usize {
        let mut n = 0;
        let mut inside = false;
        for y in from as u32..img.height() {
            let tile = is(img, x, y as f32, style::TILE);
            if tile && !inside {
                n += 1;
            }
            inside = tile;
        }
        n
    }

    #[test]
    fn a_bracket_draws_every_match_of_every_round_its_winners_marked() {
        let mut t = started(Format::Single, 8);
        let (columns, _) = bracket_layout(&t);
        let counts: Vec<usize> = columns.iter().map(Vec::len).collect();
        assert_eq!(
            counts,
            [4, 2, 1],
            "the rounds not opened yet are drawn empty"
        );
        let img = decode(&bracket_png(&t));
        let top = columns[0][0].0.y;
        for (r, want) in [4, 2, 1].into_iter().enumerate() {
            // Down the column's left edge, clear of the names.
            let x = columns[r][0].0.x + 3.0;
            assert_eq!(boxes_down(&img, x, top), want, "round {r}");
        }
        let gap = columns[0][0].0;
        assert!(is(
            &img,
            gap.x + 50.0,
            gap.y + BOX_H + ROW_GAP / 2.0,
            style::CARD
        ));

        for _ in 0..3 {
            settle_round(&mut t, false);
        }
        let champion = t.champion().expect("a champion").player;
        assert_eq!(
            champion, t.seats[0].player,
            "the first seed won every match"
        );
        let (columns, _) = bracket_layout(&t);
        let img = decode(&bracket_png(&t));
        for (rect, played) in columns.iter().flatten() {
            let tb = played.expect("every match played");
            let line = usize::from(tb.winner() != Some(tb.a));
            let y = rect.y + PAD + line as f32 * LINE + LINE / 2.0;
            assert!(is(&img, rect.x + 2.0, y, WON), "the winner's bar");
            let other = rect.y + PAD + (1 - line) as f32 * LINE + LINE / 2.0;
            assert!(!is(&img, rect.x + 2.0, other, WON), "none for the loser");
        }
    }

    #[test]
    fn a_bracket_with_byes_has_the_slots_of_the_next_power_of_two() {
        let t = started(Format::Single, 5);
        let (columns, _) = bracket_layout(&t);
        let counts: Vec<usize> = columns.iter().map(Vec::len).collect();
        assert_eq!(counts, [4, 2, 1]);
        let byes = columns[0]
            .iter()
            .filter(|(_, tb)| tb.is_some_and(|tb| tb.b.is_none()));
        assert_eq!(byes.count(), 3, "three top seeds wait for the second round");
        let none = started(Format::RoundRobin, 4);
        assert!(bracket_layout(&none).0.is_empty());
        assert!(
            decode(&bracket_png(&none)).height() > 40,
            "still a picture, saying so"
        );
    }
}
