//! Drawing on a pixmap with tiny-skia: anti-aliased paths for shapes, plain rectangle
//! fills (its fast path) for the card, rims and grid lines, which sit on whole pixels.

use super::geometry::{GridLayout, Point, Rect, StoneLayout};
use super::mark::Mark;
use super::style::{self, Rgb};
use mondo_rules::koan::{Koan, PieceSet};
use tiny_skia::{FillRule, LineCap, LineJoin, Path, PathBuilder, Pixmap, Stroke, Transform};

/// A path through `points`, closed back to the first when `closed`.
fn path(points: &[Point], closed: bool) -> Option<Path> {
    let (first, rest) = points.split_first()?;
    let mut pb = PathBuilder::new();
    pb.move_to(first.x, first.y);
    for p in rest {
        pb.line_to(p.x, p.y);
    }
    if closed {
        pb.close();
    }
    pb.finish()
}

/// A rectangle with quarter-circle corners (cubic approximation).
fn rounded_rect(r: Rect, radius: f32) -> Option<Path> {
    let k = radius.min(r.w / 2.0).min(r.h / 2.0);
    // Control-point distance that makes a cubic close to a quarter circle.
    let c = k * (1.0 - 0.552_285);
    let (x0, y0, x1, y1) = (r.x, r.y, r.x + r.w, r.y + r.h);
    let mut pb = PathBuilder::new();
    pb.move_to(x0 + k, y0);
    pb.line_to(x1 - k, y0);
    pb.cubic_to(x1 - c, y0, x1, y0 + c, x1, y0 + k);
    pb.line_to(x1, y1 - k);
    pb.cubic_to(x1, y1 - c, x1 - c, y1, x1 - k, y1);
    pb.line_to(x0 + k, y1);
    pb.cubic_to(x0 + c, y1, x0, y1 - c, x0, y1 - k);
    pb.line_to(x0, y0 + k);
    pb.cubic_to(x0, y0 + c, x0 + c, y0, x0 + k, y0);
    pb.close();
    pb.finish()
}

fn fill(pixmap: &mut Pixmap, path: Option<Path>, colour: Rgb) {
    if let Some(path) = path {
        pixmap.fill_path(
            &path,
            &colour.paint(),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
}

fn stroke(pixmap: &mut Pixmap, path: Option<Path>, width: f32, colour: Rgb) {
    if let Some(path) = path {
        let stroke = Stroke {
            width,
            line_cap: LineCap::Round,
            line_join: LineJoin::Round,
            ..Stroke::default()
        };
        pixmap.stroke_path(&path, &colour.paint(), &stroke, Transform::identity(), None);
    }
}

/// A solid axis-aligned rectangle (whole pixels: no anti-aliasing needed).
fn block(pixmap: &mut Pixmap, x: f32, y: f32, w: f32, h: f32, colour: Rgb) {
    if let Some(r) = tiny_skia::Rect::from_xywh(x, y, w, h) {
        let mut paint = colour.paint();
        paint.anti_alias = false;
        pixmap.fill_rect(r, &paint, Transform::identity(), None);
    }
}

fn circle(centre: Point, radius: f32) -> Option<Path> {
    PathBuilder::from_circle(centre.x, centre.y, radius)
}

/// A new picture: the opaque card under everything, with a dark rim for the white
/// theme. Built filled (one pass over the pixels rather than zeroing then filling).
pub(crate) fn card(width: u32, height: u32) -> Pixmap {
    let (w, h) = (width.max(1), height.max(1));
    let c = style::CARD;
    let pixels = [c.0, c.1, c.2, 255].repeat(w as usize * h as usize);
    // Layouts are bounded (boards are capped), so this only fails on a layout bug.
    let size = tiny_skia::IntSize::from_wh(w, h).expect("picture size within bounds");
    let mut pixmap = Pixmap::from_vec(pixels, size).expect("picture size within bounds");
    let (w, h) = (w as f32, h as f32);
    let rim = 2.0;
    block(&mut pixmap, 0.0, 0.0, w, rim, style::CARD_EDGE);
    block(&mut pixmap, 0.0, h - rim, w, rim, style::CARD_EDGE);
    block(&mut pixmap, 0.0, 0.0, rim, h, style::CARD_EDGE);
    block(&mut pixmap, w - rim, 0.0, rim, h, style::CARD_EDGE);
    pixmap
}

/// A thin line under a table's headings.
pub(crate) fn rule(pixmap: &mut Pixmap, r: Rect) {
    block(pixmap, r.x, r.y, r.w, r.h, style::BOX_EDGE);
}

/// A solid rectangle (a chart's gridline, a legend's swatch).
pub(crate) fn bar(pixmap: &mut Pixmap, r: Rect, colour: Rgb) {
    block(pixmap, r.x, r.y, r.w, r.h, colour);
}

/// A line through `points`, `width` wide, with round joins (a chart's line).
pub(crate) fn polyline(pixmap: &mut Pixmap, points: &[Point], width: f32, colour: Rgb) {
    stroke(pixmap, path(points, false), width, colour);
}

/// A filled dot (a chart's point).
pub(crate) fn dot(pixmap: &mut Pixmap, centre: Point, radius: f32, colour: Rgb) {
    fill(pixmap, circle(centre, radius), colour);
}

/// A board's tile behind one structure.
pub(crate) fn tile(pixmap: &mut Pixmap, r: Rect, radius: f32) {
    fill(pixmap, rounded_rect(r, radius), style::TILE);
}

/// The bounding box's cells, then every piece of the structure on them.
pub(crate) fn structure(pixmap: &mut Pixmap, koan: &Koan, grid: &GridLayout) {
    let b = grid.bounds();
    block(pixmap, b.x, b.y, b.w, b.h, style::CELL);
    // Cell lines: one pixel, just left of / above each inner cell boundary.
    for c in 1..grid.cols {
        let x = (b.x + c as f32 * grid.cell).round();
        block(pixmap, x, b.y, 1.0, b.h, style::GRID);
    }
    for r in 1..grid.rows {
        let y = (b.y + r as f32 * grid.cell).round();
        block(pixmap, b.x, y, b.w, 1.0, style::GRID);
    }
    // The box's frame, two pixels just outside it.
    let e = 2.0;
    block(pixmap, b.x - e, b.y - e, b.w + 2.0 * e, e, style::BOX_EDGE);
    block(
        pixmap,
        b.x - e,
        b.y + b.h,
        b.w + 2.0 * e,
        e,
        style::BOX_EDGE,
    );
    block(pixmap, b.x - e, b.y, e, b.h, style::BOX_EDGE);
    block(pixmap, b.x + b.w, b.y, e, b.h, style::BOX_EDGE);

    // All pieces in one path and all pips in another: pieces never overlap, and one
    // fill per colour costs far less than one per shape.
    let arrows = koan.set() == PieceSet::Arrows;
    let (mut pieces, mut pips) = (PathBuilder::new(), PathBuilder::new());
    for &(pos, piece) in koan.pieces() {
        let shape = grid.piece(pos, piece, arrows);
        if let Some((first, rest)) = shape.outline.split_first() {
            pieces.move_to(first.x, first.y);
            for p in rest {
                pieces.line_to(p.x, p.y);
            }
            pieces.close();
        }
        for pip in &shape.pips {
            pips.push_circle(pip.x, pip.y, shape.pip_radius);
        }
    }
    fill(pixmap, pieces.finish(), style::PIECE);
    fill(pixmap, pips.finish(), style::PIP);
}

/// Zendo's stone for a verdict, with its symbol.
pub(crate) fn stone(pixmap: &mut Pixmap, stone: &StoneLayout, mark: Mark) {
    let rim = (stone.radius / 7.0).max(1.5);
    fill(
        pixmap,
        circle(stone.centre, stone.radius),
        style::STONE_BLACK,
    );
    match mark {
        Mark::Obeys => {
            fill(
                pixmap,
                circle(stone.centre, stone.radius - rim),
                style::STONE_WHITE,
            );
            stroke(
                pixmap,
                path(&stone.check(), false),
                stone.symbol_width(),
                style::STONE_BLACK,
            );
        }
        Mark::DoesNot => {
            for line in stone.cross() {
                stroke(
                    pixmap,
                    path(&line, false),
                    stone.symbol_width(),
                    style::STONE_WHITE,
                );
            }
        }
    }
}

/// The stone of a pattern a structure was not graded on: grey, with a dash (no
/// verdict), so "unknown" reads by shape as well as by colour.
pub(crate) fn unknown_stone(pixmap: &mut Pixmap, stone: &StoneLayout) {
    let rim = (stone.radius / 7.0).max(1.5);
    fill(
        pixmap,
        circle(stone.centre, stone.radius),
        style::STONE_UNKNOWN_RIM,
    );
    fill(
        pixmap,
        circle(stone.centre, stone.radius - rim),
        style::STONE_UNKNOWN,
    );
    let d = 0.4 * stone.radius;
    let c = stone.centre;
    stroke(
        pixmap,
        path(&[Point::new(c.x - d, c.y), Point::new(c.x + d, c.y)], false),
        stone.symbol_width(),
        style::STONE_UNKNOWN_RIM,
    );
}
