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

/// One table of a picture of several: its heading (empty: none), its columns and its
/// rows (each a cell per column; missing cells are blank).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub heading: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<String>>,
}

/// A section's heading line, above its columns' headings.
const SECTION_PX: f32 = 19.0;
/// Space between two sections.
const SECTION_GAP: f32 = 14.0;

/// PNG bytes of a table: `title` on top, then `columns`' headings, then `rows` (each
/// a cell per column; missing cells are blank), then `note` (may be empty).
pub fn table_png(title: &str, columns: &[Column], rows: &[Vec<String>], note: &str) -> Vec<u8> {
    let one = Section {
        heading: String::new(),
        columns: columns.to_vec(),
        rows: rows.to_vec(),
    };
    tables_png(title, &[one], note)
}

/// A section as laid out: its rows shown, each column's width, how wide and tall.
struct Laid<'a> {
    section: &'a Section,
    shown: &'a [Vec<String>],
    widths: Vec<f32>,
    width: f32,
    height: f32,
}

impl<'a> Laid<'a> {
    fn new(section: &'a Section) -> Laid<'a> {
        let rows = &section.rows;
        let shown = &rows[..rows.len().min(MAX_ROWS)];
        let widths: Vec<f32> = section
            .columns
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
        let gaps = GAP * section.columns.len().saturating_sub(1) as f32;
        let heading_w = text::width(&section.heading, SECTION_PX).min(MAX_COLUMN * 2.5);
        let width = (widths.iter().sum::<f32>() + gaps).max(heading_w);
        let heading_h = if section.heading.is_empty() {
            0.0
        } else {
            SECTION_PX * 1.8
        };
        let height = heading_h + ROW + ROW * shown.len().max(1) as f32;
        Laid {
            section,
            shown,
            widths,
            width,
            height,
        }
    }
}

/// PNG bytes of several tables one under the other (a tournament's standings, then
/// each group's): `title` on top, each section with its heading, then `note`. Each
/// section longer than [`MAX_ROWS`] says how many rows it left out.
pub fn tables_png(title: &str, sections: &[Section], note: &str) -> Vec<u8> {
    let mut laid: Vec<Laid> = sections.iter().map(Laid::new).collect();
    // The columns line up from one section to the next: each as wide as its widest.
    let most = laid.iter().map(|l| l.widths.len()).max().unwrap_or(0);
    let widest: Vec<f32> = (0..most)
        .map(|i| {
            laid.iter()
                .filter_map(|l| l.widths.get(i))
                .fold(0.0, |a, b| b.max(a))
        })
        .collect();
    for l in &mut laid {
        l.widths = widest[..l.widths.len()].to_vec();
        let gaps = GAP * l.widths.len().saturating_sub(1) as f32;
        l.width = l.width.max(l.widths.iter().sum::<f32>() + gaps);
    }
    let mut notes: Vec<String> = Vec::new();
    for l in &laid {
        let cut = l.section.rows.len() - l.shown.len();
        if cut > 0 {
            let of = if l.section.heading.is_empty() {
                String::new()
            } else {
                format!(" in {}", l.section.heading)
            };
            notes.push(format!("… and {cut} more{of}"));
        }
    }
    notes.extend(note.lines().map(str::to_string).filter(|l| !l.is_empty()));
    let tables_w = laid.iter().map(|l| l.width).fold(0.0, f32::max);
    let text_w = notes
        .iter()
        .map(|n| text::width(n, NOTE_PX))
        .fold(text::width(title, TITLE_PX), f32::max)
        .min(MAX_COLUMN * 2.5);
    let width = (tables_w.max(text_w) + 2.0 * MARGIN).ceil();
    let title_h = TITLE_PX * 1.6;
    let notes_h = if notes.is_empty() {
        0.0
    } else {
        8.0 + NOTE_PX * 1.5 * notes.len() as f32
    };
    let gaps = SECTION_GAP * laid.len().saturating_sub(1) as f32;
    let sections_h: f32 = laid.iter().map(|l| l.height).sum::<f32>() + gaps;
    let height = (MARGIN * 2.0 + title_h + sections_h.max(ROW * 2.0) + notes_h).ceil();
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
    for (k, l) in laid.iter().enumerate() {
        if k > 0 {
            y += SECTION_GAP;
        }
        y = draw_section(&mut pixmap, l, y, inner);
    }
    if laid.is_empty() {
        y += ROW * 2.0;
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

/// Draws a section from `y` down, `inner` wide; where it ends.
fn draw_section(pixmap: &mut tiny_skia::Pixmap, l: &Laid, mut y: f32, inner: f32) -> f32 {
    let (columns, widths) = (&l.section.columns, &l.widths);
    if !l.section.heading.is_empty() {
        let heading = text::fit(&l.section.heading, SECTION_PX, inner);
        let at = Point::new(MARGIN, (y + SECTION_PX * 1.2).round());
        text::draw(pixmap, &heading, SECTION_PX, at, style::TEXT);
        y += SECTION_PX * 1.8;
    }
    // Each column's left edge.
    let mut xs = Vec::with_capacity(widths.len());
    let mut x = MARGIN;
    for w in widths {
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
        cell(pixmap, i, &c.heading, HEAD_PX, y);
    }
    y += ROW;
    super::draw::rule(pixmap, Rect::new(MARGIN, y - 2.0, inner, 2.0));
    for (r, row) in l.shown.iter().enumerate() {
        if r % 2 == 0 {
            super::draw::tile(pixmap, Rect::new(MARGIN - 6.0, y, inner + 12.0, ROW), 6.0);
        }
        for (i, s) in row.iter().enumerate() {
            cell(pixmap, i, s, CELL_PX, y);
        }
        y += ROW;
    }
    if l.shown.is_empty() {
        y += ROW;
    }
    y
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
