//! A table as a picture (a leaderboard): a title, a row of headings, rows of text
//! cells on alternating stripes, and a note under them. Text cells too wide for their
//! column are shortened with `…`; a table longer than [`MAX_ROWS`] says how many rows
//! it left out, so none silently disappears.

use super::geometry::{Point, Rect};
use super::style;
use super::text;

/// Rows drawn at most (a board of more is cut, and says so).
pub const MAX_ROWS: usize = 50;

const MARGIN: f32 = 18.0;
const TITLE_PX: f32 = 24.0;
const HEAD_PX: f32 = 15.0;
const CELL_PX: f32 = 17.0;
const NOTE_PX: f32 = 13.0;
const ROW: f32 = 30.0;
const GAP: f32 = 22.0;
/// No column is wider than this (a long name is shortened).
const MAX_COLUMN: f32 = 320.0;

/// How a column's text sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A column: its heading and how its cells sit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    pub heading: String,
    pub align: Align,
}

impl Column {
    pub fn left(heading: impl Into<String>) -> Column {
        Column {
            heading: heading.into(),
            align: Align::Left,
        }
    }

    pub fn right(heading: impl Into<String>) -> Column {
        Column {
            heading: heading.into(),
            align: Align::Right,
        }
    }
}

/// PNG bytes of a table: `title` on top, then `columns`' headings, then `rows` (each
/// a cell per column; missing cells are blank), then `note` (may be empty).
pub fn table_png(title: &str, columns: &[Column], rows: &[Vec<String>], note: &str) -> Vec<u8> {
    let shown = &rows[..rows.len().min(MAX_ROWS)];
    let mut notes: Vec<String> = Vec::new();
    if rows.len() > shown.len() {
        notes.push(format!("… and {} more", rows.len() - shown.len()));
    }
    notes.extend(note.lines().map(str::to_string).filter(|l| !l.is_empty()));
    let widths: Vec<f32> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            shown
                .iter()
                .filter_map(|r| r.get(i))
                .map(|cell| text::width(cell, CELL_PX))
                .fold(text::width(&c.heading, HEAD_PX), f32::max)
                .min(MAX_COLUMN)
                .ceil()
        })
        .collect();
    let table_w: f32 = widths.iter().sum::<f32>() + GAP * columns.len().saturating_sub(1) as f32;
    let text_w = notes
        .iter()
        .map(|n| text::width(n, NOTE_PX))
        .fold(text::width(title, TITLE_PX), f32::max)
        .min(MAX_COLUMN * 2.5);
    let width = (table_w.max(text_w) + 2.0 * MARGIN).ceil();
    let title_h = TITLE_PX * 1.6;
    let head_h = ROW;
    let notes_h = if notes.is_empty() {
        0.0
    } else {
        8.0 + NOTE_PX * 1.5 * notes.len() as f32
    };
    let height =
        (MARGIN * 2.0 + title_h + head_h + ROW * shown.len().max(1) as f32 + notes_h).ceil();
    let mut pixmap = super::draw::card(width as u32, height as u32);
    let inner = width - 2.0 * MARGIN;
    let title = text::fit(title, TITLE_PX, inner);
    let mut y = MARGIN;
    text::draw(
        &mut pixmap,
        &title,
        TITLE_PX,
        Point::new(MARGIN, (y + text::cap_height(TITLE_PX)).round()),
        style::TEXT,
    );
    y += title_h;
    // Each column's left edge.
    let mut xs = Vec::with_capacity(widths.len());
    let mut x = MARGIN;
    for w in &widths {
        xs.push(x);
        x += w + GAP;
    }
    let cell = |pixmap: &mut tiny_skia::Pixmap, i: usize, s: &str, px: f32, y: f32| {
        let (Some(&x), Some(&w), Some(c)) = (xs.get(i), widths.get(i), columns.get(i)) else {
            return;
        };
        let s = text::fit(s, px, w);
        let left = match c.align {
            Align::Left => x,
            Align::Right => x + w - text::width(&s, px),
        };
        let at = Point::new(
            left.round(),
            (y + (ROW + text::cap_height(px)) / 2.0).round(),
        );
        text::draw(pixmap, &s, px, at, style::TEXT);
    };
    for (i, c) in columns.iter().enumerate() {
        cell(&mut pixmap, i, &c.heading, HEAD_PX, y);
    }
    y += head_h;
    super::draw::rule(&mut pixmap, Rect::new(MARGIN, y - 2.0, inner, 2.0));
    for (r, row) in shown.iter().enumerate() {
        if r % 2 == 0 {
            super::draw::tile(
                &mut pixmap,
                Rect::new(MARGIN - 6.0, y, inner + 12.0, ROW),
                6.0,
            );
        }
        for (i, s) in row.iter().enumerate() {
            cell(&mut pixmap, i, s, CELL_PX, y);
        }
        y += ROW;
    }
    if shown.is_empty() {
        y += ROW;
    }
    y += 8.0;
    for n in &notes {
        let n = text::fit(n, NOTE_PX, inner);
        y += NOTE_PX * 1.5;
        text::draw(
            &mut pixmap,
            &n,
            NOTE_PX,
            Point::new(MARGIN, y.round()),
            style::TEXT,
        );
    }
    super::encode_board(&super::into_image(pixmap))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(png: &[u8]) -> (u32, u32) {
        let img = image::load_from_memory_with_format(png, image::ImageFormat::Png).unwrap();
        (img.width(), img.height())
    }

    fn columns() -> Vec<Column> {
        vec![
            Column::right("#"),
            Column::left("Player"),
            Column::right("Rating"),
        ]
    }

    #[test]
    fn a_table_grows_with_its_rows_and_its_widest_cell() {
        let row = |n: usize, name: &str| vec![n.to_string(), name.to_string(), "1634".into()];
        let two = table_png("Zendo Duel", &columns(), &[row(1, "a"), row(2, "b")], "");
        let five: Vec<Vec<String>> = (1..=5).map(|n| row(n, "b")).collect();
        let five = table_png("Zendo Duel", &columns(), &five, "");
        let (w2, h2) = size(&two);
        let (w5, h5) = size(&five);
        assert_eq!(w2, w5);
        assert_eq!(h5 - h2, 3 * ROW as u32);
        let wide = table_png(
            "Zendo Duel",
            &columns(),
            &[row(1, "a rather long display name")],
            "",
        );
        assert!(size(&wide).0 > w2);
        // A name longer than any column is shortened, not a wider picture.
        let huge = "x".repeat(400);
        let capped = table_png("Zendo Duel", &columns(), &[row(1, &huge)], "");
        assert!(size(&capped).0 < 800, "{:?}", size(&capped));
    }

    #[test]
    fn an_empty_table_and_a_cut_one_still_draw_and_say_so() {
        let empty = table_png("Zendo Duel", &columns(), &[], "Nobody is listed yet.");
        let (_, h) = size(&empty);
        assert!(h > (2.0 * MARGIN + ROW) as u32);
        let many: Vec<Vec<String>> = (0..MAX_ROWS + 5)
            .map(|n| vec![n.to_string(), "p".into(), "1500".into()])
            .collect();
        let cut = table_png("Zendo Duel", &columns(), &many, "");
        let all = table_png("Zendo Duel", &columns(), &many[..MAX_ROWS], "");
        // The cut table is the full one plus its "… and 5 more" line.
        assert!(size(&cut).1 > size(&all).1);
    }
}
