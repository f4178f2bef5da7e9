//! Colours and proportions, chosen once for Discord's dark and light themes.
//!
//! The card is opaque (with a dark rim so it stands out on the white theme), so every
//! contrast below is measured against the card, never against the theme. Pieces are
//! all one colour on purpose: colour means nothing in Zendo, and a second hue would
//! invite players to read a rule into it.

use tiny_skia::{Color, Paint};

/// An opaque colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub fn color(self) -> Color {
        Color::from_rgba8(self.0, self.1, self.2, 255)
    }

    pub fn paint(self) -> Paint<'static> {
        let mut paint = Paint::default();
        paint.set_color(self.color());
        paint.anti_alias = true;
        paint
    }
}

/// Behind everything: warm light paper.
pub(crate) const CARD: Rgb = Rgb(0xE9, 0xE3, 0xD6);
/// The card's rim, so a light card still has an edge on Discord's white theme.
pub(crate) const CARD_EDGE: Rgb = Rgb(0x6E, 0x67, 0x5B);
/// Inside the bounding box: lighter than the card, so the box reads as a board.
pub(crate) const CELL: Rgb = Rgb(0xF6, 0xF2, 0xE9);
/// Lines between cells: faint, present only to count cells by.
pub(crate) const GRID: Rgb = Rgb(0xD2, 0xCA, 0xBB);
/// The bounding box's outer edge.
pub(crate) const BOX_EDGE: Rgb = Rgb(0x8F, 0x86, 0x75);
/// Every piece, whatever its size or direction (contrast about 6:1 on CELL).
pub(crate) const PIECE: Rgb = Rgb(0x2B, 0x59, 0xA6);
/// Pips on a piece.
pub(crate) const PIP: Rgb = Rgb(0xFF, 0xFF, 0xFF);
/// Captions and labels.
pub(crate) const TEXT: Rgb = Rgb(0x24, 0x21, 0x1D);
/// Zendo's stones: white for "obeys", black for "does not". Each carries a symbol
/// (check, cross) so the mark never rests on colour alone.
pub(crate) const STONE_WHITE: Rgb = Rgb(0xFF, 0xFF, 0xFF);
pub(crate) const STONE_BLACK: Rgb = Rgb(0x14, 0x14, 0x14);
/// A pattern a structure was not graded on (Zendo Triple): a grey stone with a dash.
pub(crate) const STONE_UNKNOWN: Rgb = Rgb(0xB4, 0xAE, 0xA3);
pub(crate) const STONE_UNKNOWN_RIM: Rgb = Rgb(0x6E, 0x67, 0x5B);
/// A board's tile, one per structure: a shade darker than the card.
pub(crate) const TILE: Rgb = Rgb(0xDE, 0xD6, 0xC6);

/// Proportions of one kind of picture, in pixels.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scale {
    /// Side of a grid cell.
    pub cell: f32,
    /// Space between the card's edge and its content.
    pub margin: f32,
    /// Height of the band above a grid that holds caption and mark.
    pub header: f32,
    /// Caption (or board label) size.
    pub caption_px: f32,
    /// Size of the words next to a stone ("obeys"); zero for no words.
    pub mark_word_px: f32,
    pub stone_radius: f32,
    /// Horizontal space between header items.
    pub gap: f32,
    /// Corner radius of the card (and of a board's tiles).
    pub corner: f32,
}

/// A single structure, as posted after a move.
pub(crate) const SINGLE: Scale = Scale {
    cell: 60.0,
    margin: 14.0,
    header: 42.0,
    caption_px: 24.0,
    mark_word_px: 19.0,
    stone_radius: 13.0,
    gap: 8.0,
    corner: 12.0,
};

/// One tile of a board (the match history).
pub(crate) const BOARD: Scale = Scale {
    cell: 34.0,
    margin: 10.0,
    header: 28.0,
    caption_px: 17.0,
    mark_word_px: 0.0,
    stone_radius: 10.0,
    gap: 6.0,
    corner: 8.0,
};
