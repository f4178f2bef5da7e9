//! Where things go: pure geometry of cells, pieces, pips and stones, in pixels.
//!
//! Every shape is designed pointing up around the origin and then turned to its
//! direction, so the four directions are exact rotations of one another.

use mondo_rules::koan::{Direction, Piece, Pos, Size};

/// A point in picture pixels (x to the right, y downwards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Point {
    pub x: f32,
    pub y: f32,
}

impl Point {
    pub const fn new(x: f32, y: f32) -> Point {
        Point { x, y }
    }

    fn offset(self, dx: f32, dy: f32) -> Point {
        Point::new(self.x + dx, self.y + dy)
    }
}

/// An axis-aligned rectangle in picture pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub const fn new(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x, y, w, h }
    }

    pub fn centre(self) -> Point {
        Point::new(self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    #[cfg(test)]
    pub fn contains(self, p: Point) -> bool {
        p.x >= self.x && p.x < self.x + self.w && p.y >= self.y && p.y < self.y + self.h
    }
}

/// Half the height of a piece's triangle, as a fraction of the cell side, by size.
/// Linear sizes 0.57 : 0.77 : 1 give areas of about 1 : 1.8 : 3, so size reads by area
/// (as with the physical pyramids) even before the pips are counted.
fn half_height(size: Size) -> f32 {
    match size {
        Size::Small => 0.25,
        Size::Medium => 0.335,
        Size::Large => 0.435,
    }
}

/// Half the base of a triangle relative to its half height: narrower than equilateral,
/// so the apex, and with it the direction, is obvious even for a small piece.
const BASE_RATIO: f32 = 0.8;

/// Pip radius as a fraction of the cell side: the same for every size, so pips are
/// counted, not compared.
const PIP_RADIUS: f32 = 0.064;

/// Turns a vector designed for a piece pointing up so that it points `dir`.
fn turn(dir: Direction, dx: f32, dy: f32) -> (f32, f32) {
    match dir {
        Direction::Up => (dx, dy),
        Direction::Right => (-dy, dx),
        Direction::Down => (-dx, -dy),
        Direction::Left => (dy, -dx),
    }
}

fn place(centre: Point, dir: Direction, dx: f32, dy: f32) -> Point {
    let (x, y) = turn(dir, dx, dy);
    centre.offset(x, y)
}

/// The grid of a structure's bounding box, placed in a picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct GridLayout {
    /// Top-left corner of cell (0, 0).
    pub origin: Point,
    /// Side of one cell in pixels.
    pub cell: f32,
    pub cols: u8,
    pub rows: u8,
}

impl GridLayout {
    pub fn bounds(&self) -> Rect {
        Rect::new(
            self.origin.x,
            self.origin.y,
            self.cols as f32 * self.cell,
            self.rows as f32 * self.cell,
        )
    }

    pub fn cell_rect(&self, pos: Pos) -> Rect {
        Rect::new(
            self.origin.x + pos.col as f32 * self.cell,
            self.origin.y + pos.row as f32 * self.cell,
            self.cell,
            self.cell,
        )
    }

    /// How a piece standing at `pos` is drawn.
    pub fn piece(&self, pos: Pos, piece: Piece, arrows: bool) -> PieceShape {
        let centre = self.cell_rect(pos).centre();
        if arrows {
            PieceShape::arrow(centre, self.cell, piece.dir)
        } else {
            PieceShape::pyramid(centre, self.cell, piece)
        }
    }
}

/// The drawn form of one piece.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PieceShape {
    /// The filled outline (a triangle, or the seven corners of an arrow).
    pub outline: Vec<Point>,
    /// Pip centres, one per pip (none for arrows).
    pub pips: Vec<Point>,
    pub pip_radius: f32,
}

impl PieceShape {
    /// A pyramid seen from the side: a triangle whose apex points its way, with its
    /// pips in a row near the base.
    pub fn pyramid(centre: Point, cell: f32, piece: Piece) -> PieceShape {
        let h = half_height(piece.size) * cell;
        let w = h * BASE_RATIO;
        let dir = piece.dir;
        let outline = vec![
            place(centre, dir, 0.0, -h),
            place(centre, dir, w, h),
            place(centre, dir, -w, h),
        ];
        let r = PIP_RADIUS * cell;
        // A row parallel to the base, a little inside it; spacing leaves a gap of
        // most of a pip between pips so they count at a glance.
        let row = 0.55 * h;
        let step = 2.75 * r;
        let n = piece.pips();
        let pips = (0..n)
            .map(|i| {
                let along = (i as f32 - (n as f32 - 1.0) / 2.0) * step;
                place(centre, dir, along, row)
            })
            .collect();
        PieceShape {
            outline,
            pips,
            pip_radius: r,
        }
    }

    /// An arrow of the arrows set: a shaft and a head, one size, no pips.
    pub fn arrow(centre: Point, cell: f32, dir: Direction) -> PieceShape {
        let tip = 0.42 * cell;
        let tail = 0.40 * cell;
        let head_len = 0.36 * cell;
        let head_w = 0.30 * cell;
        let shaft_w = 0.11 * cell;
        let neck = -tip + head_len;
        let corners = [
            (0.0, -tip),
            (head_w, neck),
            (shaft_w, neck),
            (shaft_w, tail),
            (-shaft_w, tail),
            (-shaft_w, neck),
            (-head_w, neck),
        ];
        PieceShape {
            outline: corners
                .iter()
                .map(|&(dx, dy)| place(centre, dir, dx, dy))
                .collect(),
            pips: Vec::new(),
            pip_radius: 0.0,
        }
    }
}

/// A verdict stone: where it sits and how big it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct StoneLayout {
    pub centre: Point,
    pub radius: f32,
}

impl StoneLayout {
    /// The check mark on a white stone, as a polyline.
    pub fn check(&self) -> [Point; 3] {
        let r = self.radius;
        let c = self.centre;
        [
            c.offset(-0.45 * r, 0.02 * r),
            c.offset(-0.12 * r, 0.36 * r),
            c.offset(0.46 * r, -0.36 * r),
        ]
    }

    /// The two strokes of the cross on a black stone.
    pub fn cross(&self) -> [[Point; 2]; 2] {
        let d = 0.36 * self.radius;
        let c = self.centre;
        [
            [c.offset(-d, -d), c.offset(d, d)],
            [c.offset(-d, d), c.offset(d, -d)],
        ]
    }

    /// Width of the symbols' strokes.
    pub fn symbol_width(&self) -> f32 {
        0.2 * self.radius
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(poly: &[Point]) -> f32 {
        let n = poly.len();
        (0..n)
            .map(|i| {
                let (a, b) = (poly[i], poly[(i + 1) % n]);
                a.x * b.y - b.x * a.y
            })
            .sum::<f32>()
            .abs()
            / 2.0
    }

    /// Whether `p` is inside the convex polygon (either winding).
    fn inside_convex(poly: &[Point], p: Point) -> bool {
        let n = poly.len();
        let signs: Vec<f32> = (0..n)
            .map(|i| {
                let (a, b) = (poly[i], poly[(i + 1) % n]);
                (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            })
            .collect();
        signs.iter().all(|&s| s > 0.0) || signs.iter().all(|&s| s < 0.0)
    }

    #[test]
    fn larger_pieces_have_larger_triangles_and_more_pips() {
        let c = Point::new(50.0, 50.0);
        let shapes: Vec<PieceShape> = Size::ALL
            .iter()
            .map(|&s| PieceShape::pyramid(c, 60.0, Piece::new(s, Direction::Up)))
            .collect();
        assert!(area(&shapes[0].outline) * 1.6 < area(&shapes[1].outline));
        assert!(area(&shapes[1].outline) * 1.4 < area(&shapes[2].outline));
        for (shape, size) in shapes.iter().zip(Size::ALL) {
            assert_eq!(shape.pips.len(), size.pips() as usize);
        }
    }

    #[test]
    fn pips_lie_well_inside_their_triangle_and_apart() {
        for set_piece in mondo_rules::koan::PieceSet::Pyramids.pieces() {
            let shape = PieceShape::pyramid(Point::new(0.0, 0.0), 60.0, *set_piece);
            let r = shape.pip_radius;
            for p in &shape.pips {
                // The whole pip disc is inside: test points on its rim.
                for k in 0..8 {
                    let a = k as f32 * std::f32::consts::FRAC_PI_4;
                    let rim = Point::new(p.x + r * a.cos(), p.y + r * a.sin());
                    assert!(inside_convex(&shape.outline, rim), "{set_piece:?}");
                }
            }
            for w in shape.pips.windows(2) {
                let d = ((w[0].x - w[1].x).powi(2) + (w[0].y - w[1].y).powi(2)).sqrt();
                assert!(d > 2.5 * r, "pips of {set_piece:?} touch");
            }
        }
    }

    #[test]
    fn the_apex_points_the_pieces_way_and_stays_in_its_cell() {
        let grid = GridLayout {
            origin: Point::new(10.0, 20.0),
            cell: 60.0,
            cols: 2,
            rows: 2,
        };
        for &piece in mondo_rules::koan::PieceSet::Pyramids.pieces() {
            for arrows in [false, true] {
                let pos = Pos::new(1, 0);
                let cell = grid.cell_rect(pos);
                let shape = grid.piece(pos, piece, arrows);
                let apex = shape.outline[0];
                let (dr, dc) = piece.dir.delta();
                let centre = cell.centre();
                assert!((apex.x - centre.x) * dc as f32 > 10.0 || dc == 0);
                assert!((apex.y - centre.y) * dr as f32 > 10.0 || dr == 0);
                for p in &shape.outline {
                    assert!(cell.contains(*p), "{piece:?} leaves its cell");
                }
            }
        }
    }
}
