//! Symbol grids (Pattern Assembly): rows of `O`, `X`, `+` (and `.` for a blank) as a
//! picture of ruled cells (the caption beside it names rows A.. and columns 1..).

use tiny_skia::{Color, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

/// Pixels per cell.
const CELL: f32 = 28.0;
/// The white border around the cells.
const MARGIN: f32 = 14.0;

/// PNG bytes of a symbol grid given as rows of characters (`O`, `X`, `+`; anything
/// else is drawn blank). Ragged rows are padded with blanks.
pub fn symbol_grid_png(rows: &[String]) -> Vec<u8> {
    super::encode_board(&super::into_image(symbol_grid(rows)))
}

fn symbol_grid(rows: &[String]) -> Pixmap {
    let cols = rows
        .iter()
        .map(|r| r.chars().count())
        .max()
        .unwrap_or(0)
        .max(1);
    let nrows = rows.len().max(1);
    let w = (MARGIN * 2.0 + CELL * cols as f32) as u32;
    let h = (MARGIN * 2.0 + CELL * nrows as f32) as u32;
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
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let x = MARGIN + CELL * c as f32;
            let y = MARGIN + CELL * r as f32;
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

fn paint(r: u8, g: u8, b: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(r, g, b, 255);
    p.anti_alias = true;
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ink_at(p: &Pixmap, r: usize, c: usize) -> usize {
        // Dark pixels inside one cell.
        let x0 = (MARGIN + CELL * c as f32) as u32 + 3;
        let y0 = (MARGIN + CELL * r as f32) as u32 + 3;
        let mut n = 0;
        for y in y0..y0 + CELL as u32 - 6 {
            for x in x0..x0 + CELL as u32 - 6 {
                if p.pixel(x, y).is_some_and(|px| px.red() < 120) {
                    n += 1;
                }
            }
        }
        n
    }

    #[test]
    fn symbols_are_drawn_in_their_cells_and_blanks_stay_empty() {
        let rows = vec!["OX".to_string(), ".+".to_string()];
        let p = symbol_grid(&rows);
        assert_eq!((p.width(), p.height()), (84, 84));
        for (r, c) in [(0, 0), (0, 1), (1, 1)] {
            assert!(ink_at(&p, r, c) > 10, "cell {r},{c} has a symbol");
        }
        assert_eq!(ink_at(&p, 1, 0), 0, "a blank stays blank");
        // A circle leaves its centre empty; a cross and a plus ink it.
        let centre = |r: usize, c: usize| {
            let x = (MARGIN + CELL * c as f32 + CELL / 2.0) as u32;
            let y = (MARGIN + CELL * r as f32 + CELL / 2.0) as u32;
            p.pixel(x, y).is_some_and(|px| px.red() < 120)
        };
        assert!(!centre(0, 0) && centre(0, 1) && centre(1, 1));
    }

    #[test]
    fn the_picture_is_a_png() {
        let png = symbol_grid_png(&vec!["O+X".to_string(); 6]);
        assert_eq!(&png[1..4], b"PNG");
    }
}
