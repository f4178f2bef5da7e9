//! Logical Bluffs' pictures: the 4 x 4 board with the tiles a player knows in their
//! colours and the rest grey, and a bluff's subset outlined on it. Pure: pixels in,
//! PNG bytes out.

use image::{Rgb, RgbImage};
use mondo_rules::lang::tiles::{Cell, Colour, Subset};

/// A tile's side, in pixels.
const TILE: u32 = 48;
/// The gap between tiles and around the board.
const GAP: u32 = 6;
/// The outline of a subset's tile.
const RING: u32 = 4;

const BACKGROUND: Rgb<u8> = Rgb([250, 250, 247]);
const UNKNOWN: Rgb<u8> = Rgb([190, 190, 190]);
const OUTSIDE: Rgb<u8> = Rgb([232, 232, 232]);
const OUTLINE: Rgb<u8> = Rgb([20, 20, 20]);

fn colour(c: Colour) -> Rgb<u8> {
    match c {
        Colour::Red => Rgb([214, 48, 49]),
        Colour::Blue => Rgb([9, 132, 227]),
        Colour::Green => Rgb([0, 168, 112]),
        Colour::Yellow => Rgb([253, 203, 40]),
    }
}

fn fill(img: &mut RgbImage, x: u32, y: u32, w: u32, h: u32, c: Rgb<u8>) {
    for yy in y..y + h {
        for xx in x..x + w {
            img.put_pixel(xx, yy, c);
        }
    }
}

/// The board as a picture: `known` tiles coloured, the others grey; with a subset,
/// its tiles outlined and the tiles outside it paler.
pub fn board_png(known: &[(Cell, Colour)], subset: Option<&Subset>) -> Vec<u8> {
    let side = GAP + 4 * (TILE + GAP);
    let mut img = RgbImage::from_pixel(side, side, BACKGROUND);
    for cell in Cell::all() {
        let x = GAP + cell.col as u32 * (TILE + GAP);
        let y = GAP + cell.row as u32 * (TILE + GAP);
        let inside = subset.is_none_or(|s| s.contains(cell));
        let face = match known.iter().find(|(c, _)| *c == cell) {
            Some((_, k)) => colour(*k),
            None if inside => UNKNOWN,
            None => OUTSIDE,
        };
        if subset.is_some() && inside {
            fill(&mut img, x, y, TILE, TILE, OUTLINE);
            fill(
                &mut img,
                x + RING,
                y + RING,
                TILE - 2 * RING,
                TILE - 2 * RING,
                face,
            );
        } else {
            fill(&mut img, x, y, TILE, TILE, face);
        }
    }
    super::encode_board(&img)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixel(png: &[u8], x: u32, y: u32) -> Rgb<u8> {
        let img = image::load_from_memory(png).expect("a PNG").to_rgb8();
        *img.get_pixel(x, y)
    }

    fn centre(cell: &str) -> (u32, u32) {
        let c: Cell = cell.parse().expect("a cell");
        (
            GAP + c.col as u32 * (TILE + GAP) + TILE / 2,
            GAP + c.row as u32 * (TILE + GAP) + TILE / 2,
        )
    }

    #[test]
    fn known_tiles_are_coloured_and_the_rest_grey() {
        let b2: Cell = "B2".parse().expect("a cell");
        let png = board_png(&[(b2, Colour::Blue)], None);
        let (x, y) = centre("B2");
        assert_eq!(pixel(&png, x, y), colour(Colour::Blue));
        let (x, y) = centre("D4");
        assert_eq!(pixel(&png, x, y), UNKNOWN);
    }

    #[test]
    fn a_subset_is_outlined_and_the_rest_paler() {
        let subset: Subset = "A1-A2-B1-B2".parse().expect("a subset");
        let png = board_png(&[], Some(&subset));
        let (x, y) = centre("A1");
        assert_eq!(pixel(&png, x, y), UNKNOWN);
        assert_eq!(pixel(&png, x - TILE / 2 + 1, y), OUTLINE);
        let (x, y) = centre("C3");
        assert_eq!(pixel(&png, x, y), OUTSIDE);
    }
}
