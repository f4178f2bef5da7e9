//! Pattern Assembly's pictures: a symbol grid (rows of `O`, `X`, `+`, and `.` for a
//! blank) as ruled cells with its coordinates (row letters down the left, column
//! numbers along the top, as players type them: `C4`), and a round's shapes (rows of
//! `#` and `.`) as filled cells, numbered when a Plus round asks for several.

use super::geometry::Point;
use super::style::{self, Rgb};
use super::text;
use tiny_skia::{Color, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

/// Pixels per cell.
const CELL: f32 = 28.0;
/// The white border around the cells.
const MARGIN: f32 = 14.0;
/// Room for the coordinates: row letters left of the cells, column numbers above.
const GUTTER: f32 = 20.0;
/// Coordinates' text size.
const LABEL_PX: f32 = 13.0;
/// Pixels per cell of a shape, and the room between two shapes.
const SHAPE_CELL: f32 = 24.0;
const SHAPE_GAP: f32 = 28.0;

/// PNG bytes of a symbol grid given as rows of characters (`O`, `X`, `+`; anything
/// else is drawn blank). Ragged rows are padded with blanks.
pub fn symbol_grid_png(rows: &[String]) -> Vec<u8> {
    super::encode_board(&super::into_image(symbol_grid(rows)))
}

/// PNG bytes of a round's shapes, each given as rows of `#` (a cell) and `.` (a gap),
/// side by side; several are numbered 1, 2, ... as the round's targets are.
pub fn shapes_png(shapes: &[Vec<String>]) -> Vec<u8> {
    super::encode_board(&super::into_image(shapes_picture(shapes)))
}

/// Where cell (row, col) of a grid picture starts.
fn cell_origin(r: usize, c: usize) -> (f32, f32) {
    (
        MARGIN + GUTTER + CELL * c as f32,
        MARGIN + GUTTER + CELL * r as f32,
    )
}

/// A row's letter as players type it (`A`.. `Z`).
fn row_letter(r: usize) -> String {
    char::from(b'A' + r.min(25) as u8).to_string()
}

fn symbol_grid(rows: &[String]) -> Pixmap {
    let cols = rows
        .iter()
        .map(|r| r.chars().count())
        .max()
        .unwrap_or(0)
        .max(1);
    let nrows = rows.len().max(1);
    let w = (MARGIN * 2.0 + GUTTER + CELL * cols as f32) as u32;
    let h = (MARGIN * 2.0 + GUTTER + CELL * nrows as f32) as u32;
    let mut pixmap = Pixmap::new(w, h).expect("a grid of at most 26 x 20 cells fits");
    pixmap.fill(Color::WHITE);
    let ink = paint(40, 40, 48);
    let line = paint(190, 190, 200);
    let thin = Stroke {
        width: 1.0,
        ..Stroke::default()
    };
    let bold = Stroke {
        width: 2.5,
        ..Stroke::default()
    };
    let cap = text::cap_height(LABEL_PX);
    for c in 0..cols {
        let label = (c + 1).to_string();
        let (x, _) = cell_origin(0, c);
        let at = Point {
            x: (x + (CELL - text::width(&label, LABEL_PX)) / 2.0).round(),
            y: (MARGIN + (GUTTER + cap) / 2.0).round(),
        };
        text::draw(&mut pixmap, &label, LABEL_PX, at, style::TEXT);
    }
    for (r, row) in rows.iter().enumerate() {
        let label = row_letter(r);
        let (_, y) = cell_origin(r, 0);
        let at = Point {
            x: (MARGIN + (GUTTER - text::width(&label, LABEL_PX)) / 2.0).round(),
            y: (y + (CELL + cap) / 2.0).round(),
        };
        text::draw(&mut pixmap, &label, LABEL_PX, at, style::TEXT);
        for (c, ch) in row.chars().enumerate() {
            let (x, y) = cell_origin(r, c);
            if let Some(rect) = Rect::from_xywh(x, y, CELL, CELL) {
                let path = PathBuilder::from_rect(rect);
                pixmap.stroke_path(&path, &line, &thin, Transform::identity(), None);
            }
            let (cx, cy, s) = (x + CELL / 2.0, y + CELL / 2.0, CELL * 0.3);
            let mut pb = PathBuilder::new();
            match ch.to_ascii_uppercase() {
                'O' => pb.push_circle(cx, cy, s),
                'X' => {
                    pb.move_to(cx - s, cy - s);
                    pb.line_to(cx + s, cy + s);
                    pb.move_to(cx + s, cy - s);
                    pb.line_to(cx - s, cy + s);
                }
                '+' => {
                    pb.move_to(cx, cy - s);
                    pb.line_to(cx, cy + s);
                    pb.move_to(cx - s, cy);
                    pb.line_to(cx + s, cy);
                }
                _ => continue,
            }
            if let Some(path) = pb.finish() {
                pixmap.stroke_path(&path, &ink, &bold, Transform::identity(), None);
            }
        }
    }
    pixmap
}

/// (rows, cols) of a shape's text.
fn extent(rows: &[String]) -> (usize, usize) {
    let cols = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    (rows.len(), cols)
}

fn shapes_picture(shapes: &[Vec<String>]) -> Pixmap {
    let numbered = shapes.len() > 1;
    let top = MARGIN + if numbered { GUTTER } else { 0.0 };
    let tallest = shapes.iter().map(|s| extent(s).0).max().unwrap_or(0).max(1);
    let widths: Vec<f32> = shapes
        .iter()
        .map(|s| SHAPE_CELL * extent(s).1.max(1) as f32)
        .collect();
    let w = MARGIN * 2.0
        + widths.iter().sum::<f32>()
        + SHAPE_GAP * widths.len().saturating_sub(1) as f32;
    let h = top + MARGIN + SHAPE_CELL * tallest as f32;
    let mut pixmap =
        Pixmap::new((w.max(MARGIN * 2.0 + SHAPE_CELL)) as u32, h as u32).expect("shapes fit");
    pixmap.fill(Color::WHITE);
    let fill = style::PIECE.paint();
    let edge = Rgb(0xFF, 0xFF, 0xFF).paint();
    let stroke = Stroke {
        width: 1.5,
        ..Stroke::default()
    };
    let cap = text::cap_height(LABEL_PX);
    let mut left = MARGIN;
    for (i, (shape, width)) in shapes.iter().zip(&widths).enumerate() {
        if numbered {
            let label = (i + 1).to_string();
            let at = Point {
                x: (left + (width - text::width(&label, LABEL_PX)) / 2.0).round(),
                y: (MARGIN + (GUTTER + cap) / 2.0 - 4.0).round(),
            };
            text::draw(&mut pixmap, &label, LABEL_PX, at, style::TEXT);
        }
        for (r, row) in shape.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch != '#' {
                    continue;
                }
                let x = left + SHAPE_CELL * c as f32;
                let y = top + SHAPE_CELL * r as f32;
                if let Some(rect) = Rect::from_xywh(x, y, SHAPE_CELL, SHAPE_CELL) {
                    let path = PathBuilder::from_rect(rect);
                    pixmap.fill_path(
                        &path,
                        &fill,
                        tiny_skia::FillRule::Winding,
                        Transform::identity(),
                        None,
                    );
                    // White seams keep the cells countable.
                    pixmap.stroke_path(&path, &edge, &stroke, Transform::identity(), None);
                }
            }
        }
        left += width + SHAPE_GAP;
    }
    pixmap
}

fn paint(r: u8, g: u8, b: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(r, g, b, 255);
    p.anti_alias = true;
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dark(p: &Pixmap, x: u32, y: u32) -> bool {
        p.pixel(x, y).is_some_and(|px| px.red() < 120)
    }

    /// Dark pixels inside a rectangle (inset by 3 pixels).
    fn ink_in(p: &Pixmap, x0: f32, y0: f32, w: f32, h: f32) -> usize {
        let (x0, y0) = (x0 as u32 + 3, y0 as u32 + 3);
        let mut n = 0;
        for y in y0..y0 + h as u32 - 6 {
            for x in x0..x0 + w as u32 - 6 {
                n += usize::from(dark(p, x, y));
            }
        }
        n
    }

    fn ink_at(p: &Pixmap, r: usize, c: usize) -> usize {
        let (x, y) = cell_origin(r, c);
        ink_in(p, x, y, CELL, CELL)
    }

    fn rows(text: &[&str]) -> Vec<String> {
        text.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn symbols_are_drawn_in_their_cells_and_blanks_stay_empty() {
        let p = symbol_grid(&rows(&["OX", ".+"]));
        let side = (MARGIN * 2.0 + GUTTER + CELL * 2.0) as u32;
        assert_eq!((p.width(), p.height()), (side, side));
        for (r, c) in [(0, 0), (0, 1), (1, 1)] {
            assert!(ink_at(&p, r, c) > 10, "cell {r},{c} has a symbol");
        }
        assert_eq!(ink_at(&p, 1, 0), 0, "a blank stays blank");
        // A circle leaves its centre empty; a cross and a plus ink it.
        let centre = |r: usize, c: usize| {
            let (x, y) = cell_origin(r, c);
            dark(&p, (x + CELL / 2.0) as u32, (y + CELL / 2.0) as u32)
        };
        assert!(!centre(0, 0) && centre(0, 1) && centre(1, 1));
    }

    #[test]
    fn coordinates_label_every_row_and_column_and_only_there() {
        let p = symbol_grid(&rows(&["......"; 6]));
        for i in 0..6 {
            let (x, y) = cell_origin(i, i);
            // Row letters in the left gutter, beside their row.
            assert!(
                ink_in(&p, MARGIN, y, GUTTER, CELL) > 5,
                "row {i} has its letter"
            );
            // Column numbers in the top gutter, above their column.
            assert!(
                ink_in(&p, x, MARGIN, CELL, GUTTER) > 5,
                "column {i} has its number"
            );
        }
        // The corner between the two gutters stays blank.
        assert_eq!(ink_in(&p, MARGIN, MARGIN, GUTTER, GUTTER), 0);
        // A letter and a number differ, so they are drawn, not just blobs: `A` is not `B`.
        let letter = |r: usize| {
            let (_, y) = cell_origin(r, 0);
            (0..GUTTER as u32)
                .flat_map(|dx| (0..CELL as u32).map(move |dy| (dx, dy)))
                .filter(|&(dx, dy)| dark(&p, MARGIN as u32 + dx, y as u32 + dy))
                .collect::<Vec<_>>()
        };
        assert_ne!(letter(0), letter(1));
    }

    #[test]
    fn a_plus_grid_labels_its_last_row_z_and_column_twenty() {
        assert_eq!(row_letter(25), "Z");
        let p = symbol_grid(&rows(&["O".repeat(20).as_str(); 26]));
        let (x, y) = cell_origin(25, 19);
        assert_eq!(
            (p.width(), p.height()),
            ((x + CELL + MARGIN) as u32, (y + CELL + MARGIN) as u32)
        );
        assert!(ink_in(&p, x, MARGIN, CELL, GUTTER) > 5, "20 is drawn");
        assert!(ink_in(&p, MARGIN, y, GUTTER, CELL) > 5, "Z is drawn");
    }

    #[test]
    fn a_shape_fills_its_cells_and_leaves_its_gaps() {
        let p = shapes_picture(&[rows(&["##.", ".##"])]);
        assert_eq!(
            (p.width(), p.height()),
            (
                (MARGIN * 2.0 + SHAPE_CELL * 3.0) as u32,
                (MARGIN * 2.0 + SHAPE_CELL * 2.0) as u32
            )
        );
        let filled = |r: usize, c: usize| {
            let x = MARGIN + SHAPE_CELL * (c as f32 + 0.5);
            let y = MARGIN + SHAPE_CELL * (r as f32 + 0.5);
            p.pixel(x as u32, y as u32)
                .is_some_and(|px| (px.red(), px.green(), px.blue()) == (0x2B, 0x59, 0xA6))
        };
        assert!(filled(0, 0) && filled(0, 1) && filled(1, 1) && filled(1, 2));
        assert!(!filled(0, 2) && !filled(1, 0));
    }

    #[test]
    fn several_shapes_stand_side_by_side_numbered() {
        let one = shapes_picture(&[rows(&["###"])]);
        let three = shapes_picture(&[rows(&["###"]), rows(&["#", "#"]), rows(&["##", "#."])]);
        assert!(three.width() > one.width() * 2, "side by side");
        // Numbers above the shapes (a lone shape has none: no gutter).
        assert_eq!(one.height(), (MARGIN * 2.0 + SHAPE_CELL) as u32);
        assert!(ink_in(&three, MARGIN, MARGIN - 4.0, SHAPE_CELL * 3.0, GUTTER) > 5);
    }

    #[test]
    fn the_pictures_are_pngs() {
        let png = symbol_grid_png(&vec!["O+X".to_string(); 6]);
        assert_eq!(&png[1..4], b"PNG");
        let png = shapes_png(&[vec!["#.".into(), "##".into()]]);
        assert_eq!(&png[1..4], b"PNG");
    }
}
