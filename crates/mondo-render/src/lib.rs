//! Pictures of structures: PNG bytes built in memory, no I/O.
//!
//! - [`koan_png`]: one structure, as posted after a move: its bounding box's grid,
//!   each pyramid a triangle pointing its way, sized by area and carrying 1-3 pips
//!   (arrows drawn as arrows), an optional caption ("#7", "initial") and an optional
//!   verdict stone ([`Mark`]).
//! - [`board_png`]: many structures in one picture (a match's history), each in a
//!   numbered, marked tile, laid out in a grid that stays readable at 40+ entries.
//! - [`lettered_koan_png`], [`lettered_board_png`]: the same with a structure's marks
//!   on several hidden patterns at once (Zendo Triple's A, B, C): one small stone per
//!   pattern with its letter, grey with a dash where it was not graded.
//! - [`symbol_grid_png`], [`shapes_png`]: Pattern Assembly's grid (with its row and
//!   column coordinates) and a round's shapes.
//! - [`table_png`]: a table of text (a server's leaderboard).
//! - [`chart_png`]: lines over time (a player's rating per game).
//! - [`standings_png`], [`bracket_png`]: a tournament's standings (and each group's
//!   table), and its bracket.
//!
//! Pictures sit on an opaque light card with a dark rim, so they read the same on
//! Discord's dark and light themes. Verdicts are Zendo's stones: a white stone with a
//! check for "obeys", a black stone with a cross for "does not"; never colour alone.
//! Drawing is tiny-skia (anti-aliased paths), text is the bundled DejaVu Sans Bold via
//! ab_glyph, and PNG encoding is the `image` crate.

mod board;
mod chart;
mod draw;
mod geometry;
mod mark;
pub mod samples;
mod style;
mod symbols;
mod table;
mod text;
pub mod tiles;
mod tournament;

#[cfg(test)]
mod tests;

use geometry::{GridLayout, Point, StoneLayout};
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ExtendedColorType, ImageEncoder, RgbImage};
use mondo_rules::koan::Koan;
use style::Scale;
use tiny_skia::Pixmap;

pub use board::{MAX_BOARD, board_image, board_png, lettered_board_png};
pub use chart::{Axis, LINE_COLOURS, Line, MIN_SPAN, chart_png};
pub use mark::{Mark, ParseMarkError};
pub use symbols::{shapes_png, symbol_grid_png};
pub use table::{Align, Column, MAX_ROWS, Section, table_png, tables_png};
pub use tournament::{bracket_png, standings_png};

/// What goes on a single structure's picture besides the structure.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Picture {
    pub mark: Option<Mark>,
    /// Shown top left, e.g. `#7` or `initial`; shortened with `…` if too long.
    pub caption: Option<String>,
}

/// Why a board cannot be drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    #[error("a board needs at least one structure")]
    EmptyBoard,
    #[error("a board of {count} structures is too large to draw (at most {max})")]
    BoardTooLarge { count: usize, max: usize },
}

/// One structure of a board.
#[derive(Clone, Debug)]
pub struct BoardEntry<'a> {
    pub koan: &'a Koan,
    pub mark: Option<Mark>,
    /// Its number or name in the match, e.g. `#12`; shortened with `…` if too long.
    pub label: String,
}

impl<'a> BoardEntry<'a> {
    /// Entries labelled `#1`, `#2`, ... in order, as a match numbers its structures.
    pub fn numbered(
        items: impl IntoIterator<Item = (&'a Koan, Option<Mark>)>,
    ) -> Vec<BoardEntry<'a>> {
        items
            .into_iter()
            .enumerate()
            .map(|(i, (koan, mark))| BoardEntry {
                koan,
                mark,
                label: format!("#{}", i + 1),
            })
            .collect()
    }
}

/// A structure's marks on several named patterns, in order: each letter with its
/// stone, `None` where the structure was not graded on that pattern.
pub type Lettered = [(char, Option<Mark>)];

/// Marks on three patterns named A, B and C (`Some(obeys)` where graded), as
/// lettered stones.
pub fn abc(marks: [Option<bool>; 3]) -> [(char, Option<Mark>); 3] {
    let stone = |i: usize| marks[i].map(Mark::of);
    [('A', stone(0)), ('B', stone(1)), ('C', stone(2))]
}

/// One structure as a PNG.
pub fn koan_png(koan: &Koan, picture: &Picture) -> Vec<u8> {
    encode_single(&koan_image(koan, picture), koan.len())
}

/// One structure as a PNG with its marks on several patterns (a small lettered stone
/// each) instead of one verdict.
pub fn lettered_koan_png(koan: &Koan, caption: Option<&str>, letters: &Lettered) -> Vec<u8> {
    let picture = Picture {
        mark: None,
        caption: caption.map(str::to_string),
    };
    encode_single(&single_image(koan, &picture, letters), koan.len())
}

/// One structure as an image (what [`koan_png`] encodes).
pub fn koan_image(koan: &Koan, picture: &Picture) -> RgbImage {
    single_image(koan, picture, &[])
}

fn single_image(koan: &Koan, picture: &Picture, letters: &Lettered) -> RgbImage {
    let layout = SingleLayout::lettered(koan, picture, letters);
    let mut pixmap = draw::card(layout.width, layout.height);
    layout.header.draw(&mut pixmap, &style::SINGLE);
    draw::structure(&mut pixmap, koan, &layout.grid);
    into_image(pixmap)
}

/// A caption and a mark on one line: the band above a grid.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Header {
    /// The (possibly shortened) caption and where its baseline starts.
    pub caption: Option<(String, Point)>,
    pub mark: Option<(Mark, StoneLayout)>,
    /// Where the mark's words start, when the scale shows words.
    pub words: Option<Point>,
    /// Lettered stones (left of the mark, if both): each letter's baseline start and
    /// its stone.
    pub letters: Vec<LetterStone>,
}

/// One pattern's letter and stone on a header.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LetterStone {
    pub letter: char,
    pub mark: Option<Mark>,
    pub at: Point,
    pub stone: StoneLayout,
}

impl Header {
    /// Width a header needs to show `caption` in full beside `mark` and `letters`.
    fn needed(scale: &Scale, caption: Option<&str>, mark: Option<Mark>, letters: &Lettered) -> f32 {
        let caption = caption.map_or(0.0, |c| text::width(c, scale.caption_px));
        let mark = Header::marks_width(scale, mark, letters);
        let gap = if caption > 0.0 && mark > 0.0 {
            3.0 * scale.gap
        } else {
            0.0
        };
        caption + gap + mark
    }

    /// Width of the mark and the lettered stones together (never shortened).
    fn marks_width(scale: &Scale, mark: Option<Mark>, letters: &Lettered) -> f32 {
        let mark = mark.map_or(0.0, |m| Header::mark_width(scale, m));
        let letters = Header::letters_width(scale, letters);
        let gap = if mark > 0.0 && letters > 0.0 {
            2.0 * scale.gap
        } else {
            0.0
        };
        mark + gap + letters
    }

    /// A lettered stone is smaller than a verdict's, and its letter a little smaller
    /// than the caption: three of them must fit beside a board tile's number.
    fn letter_radius(scale: &Scale) -> f32 {
        (scale.stone_radius * 0.8).round()
    }

    fn letter_px(scale: &Scale) -> f32 {
        (scale.caption_px * 0.85).round()
    }

    fn letters_width(scale: &Scale, letters: &Lettered) -> f32 {
        let r = Header::letter_radius(scale);
        let each: f32 = letters
            .iter()
            .map(|(c, _)| {
                text::width(&c.to_string(), Header::letter_px(scale)) + scale.gap / 2.0 + 2.0 * r
            })
            .sum();
        each + scale.gap * letters.len().saturating_sub(1) as f32
    }

    fn mark_width(scale: &Scale, mark: Mark) -> f32 {
        let stone = 2.0 * scale.stone_radius;
        if scale.mark_word_px > 0.0 {
            stone + scale.gap + text::width(mark.words(), scale.mark_word_px)
        } else {
            stone
        }
    }

    /// Lays out a header in the band `[left, right] x [top, top + scale.header]`: the
    /// caption from the left, the mark flush right (the lettered stones left of it),
    /// the caption shortened to fit.
    fn new(
        scale: &Scale,
        (left, right, top): (f32, f32, f32),
        caption: Option<&str>,
        mark: Option<Mark>,
        letters: &Lettered,
    ) -> Header {
        let mid = top + scale.header / 2.0;
        let marks_w = Header::marks_width(scale, mark, letters);
        let (r, px) = (Header::letter_radius(scale), Header::letter_px(scale));
        let mut x = right - marks_w;
        let letters: Vec<LetterStone> = letters
            .iter()
            .map(|&(letter, mark)| {
                let at = Point::new(x, (mid + text::cap_height(px) / 2.0).round());
                x += text::width(&letter.to_string(), px) + scale.gap / 2.0;
                let stone = StoneLayout {
                    centre: Point::new(x + r, mid),
                    radius: r,
                };
                x += 2.0 * r + scale.gap;
                LetterStone {
                    letter,
                    mark,
                    at,
                    stone,
                }
            })
            .collect();
        let mark_w = mark.map_or(0.0, |m| Header::mark_width(scale, m));
        let mark_layout = mark.map(|m| {
            let stone = StoneLayout {
                centre: Point::new(right - mark_w + scale.stone_radius, mid),
                radius: scale.stone_radius,
            };
            (m, stone)
        });
        let words = match mark {
            Some(_) if scale.mark_word_px > 0.0 => Some(Point::new(
                right - mark_w + 2.0 * scale.stone_radius + scale.gap,
                (mid + text::cap_height(scale.mark_word_px) / 2.0).round(),
            )),
            _ => None,
        };
        let room = right
            - left
            - if marks_w > 0.0 {
                marks_w + 3.0 * scale.gap
            } else {
                0.0
            };
        let caption = caption
            .map(|c| text::fit(c, scale.caption_px, room))
            .filter(|c| !c.is_empty())
            .map(|c| {
                let baseline = (mid + text::cap_height(scale.caption_px) / 2.0).round();
                (c, Point::new(left, baseline))
            });
        Header {
            caption,
            mark: mark_layout,
            words,
            letters,
        }
    }

    fn draw(&self, pixmap: &mut Pixmap, scale: &Scale) {
        if let Some((caption, at)) = &self.caption {
            text::draw(pixmap, caption, scale.caption_px, *at, style::TEXT);
        }
        if let Some((mark, stone)) = &self.mark {
            draw::stone(pixmap, stone, *mark);
            if let Some(at) = self.words {
                text::draw(pixmap, mark.words(), scale.mark_word_px, at, style::TEXT);
            }
        }
        for l in &self.letters {
            let px = Header::letter_px(scale);
            text::draw(pixmap, &l.letter.to_string(), px, l.at, style::TEXT);
            match l.mark {
                Some(mark) => draw::stone(pixmap, &l.stone, mark),
                None => draw::unknown_stone(pixmap, &l.stone),
            }
        }
    }
}

/// Where everything goes on a single structure's picture.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SingleLayout {
    pub width: u32,
    pub height: u32,
    pub grid: GridLayout,
    pub header: Header,
}

impl SingleLayout {
    /// A caption may widen the picture up to this many cells' width before it is
    /// shortened.
    const CAPTION_CELLS: f32 = 6.0;

    #[cfg(test)]
    pub fn new(koan: &Koan, picture: &Picture) -> SingleLayout {
        SingleLayout::lettered(koan, picture, &[])
    }

    /// The same with lettered stones: the picture is always wide enough for them.
    pub fn lettered(koan: &Koan, picture: &Picture, letters: &Lettered) -> SingleLayout {
        let s = &style::SINGLE;
        let grid_w = koan.width() as f32 * s.cell;
        let grid_h = koan.height() as f32 * s.cell;
        let caption = picture.caption.as_deref();
        let has_header = caption.is_some_and(|c| !c.trim().is_empty())
            || picture.mark.is_some()
            || !letters.is_empty();
        let header_h = if has_header { s.header } else { 0.0 };
        let widest = grid_w
            .max(Self::CAPTION_CELLS * s.cell)
            .max(Header::marks_width(s, picture.mark, letters).ceil());
        let content_w = grid_w
            .max(Header::needed(s, caption, picture.mark, letters).ceil())
            .min(widest);
        let width = (content_w + 2.0 * s.margin).ceil();
        let height = (header_h + grid_h + 2.0 * s.margin).ceil();
        let header = Header::new(
            s,
            (s.margin, width - s.margin, s.margin),
            caption.filter(|c| !c.trim().is_empty()),
            picture.mark,
            letters,
        );
        let grid = GridLayout {
            origin: Point::new(((width - grid_w) / 2.0).round(), s.margin + header_h),
            cell: s.cell,
            cols: koan.width(),
            rows: koan.height(),
        };
        SingleLayout {
            width: width as u32,
            height: height as u32,
            grid,
            header,
        }
    }
}

/// The pixmap without its alpha channel. Every picture starts as a filled opaque card
/// and only opaque paint goes on it, so premultiplied colours are the plain colours
/// and dropping alpha loses nothing (and saves a quarter of the PNG).
fn into_image(pixmap: Pixmap) -> RgbImage {
    let (w, h) = (pixmap.width(), pixmap.height());
    let data = pixmap.data();
    debug_assert!(
        data.chunks_exact(4).all(|px| px[3] == 255),
        "opaque picture"
    );
    let mut rgb = vec![0; data.len() / 4 * 3];
    for (dst, src) in rgb.chunks_exact_mut(3).zip(data.chunks_exact(4)) {
        dst.copy_from_slice(&src[..3]);
    }
    RgbImage::from_raw(w, h, rgb).expect("pixmap holds w x h pixels")
}

/// The most PNG bytes one structure's picture should take.
pub const PNG_BUDGET: usize = 30 * 1024;

/// Structures with more pieces than this go straight to deflate level 1: the fast
/// encoder leaves them near or over [`PNG_BUDGET`] (measured in a 6 x 6 box: 14 pieces
/// 22.6 KB, 20 pieces 31 KB, 36 pieces 41-46 KB).
const FAST_MAX_PIECES: usize = 12;

/// PNG bytes of one structure's picture. A typical structure (a handful of pieces)
/// takes the fast encoder (fdeflate, Paeth), well within the budget; a crowded one
/// deflate level 1 with the `Up` filter at once (it would be over the budget after
/// the fast encoder, costing a second encoding); and the fast encoder's rare result
/// over the budget is redone at level 1 (docs/developers.md, "Pictures").
pub(crate) fn encode_single(image: &RgbImage, pieces: usize) -> Vec<u8> {
    if pieces <= FAST_MAX_PIECES {
        let fast = encode(image, CompressionType::Fast, FilterType::Paeth);
        if fast.len() <= PNG_BUDGET {
            return fast;
        }
    }
    encode_board(image)
}

/// PNG bytes of a board: deflate level 1 with the `Up` filter (the smallest of the
/// filters here, for little more time than none).
pub(crate) fn encode_board(image: &RgbImage) -> Vec<u8> {
    encode(image, CompressionType::Level(1), FilterType::Up)
}

fn encode(image: &RgbImage, compression: CompressionType, filter: FilterType) -> Vec<u8> {
    let mut out = Vec::new();
    PngEncoder::new_with_quality(&mut out, compression, filter)
        .write_image(
            image.as_raw(),
            image.width(),
            image.height(),
            ExtendedColorType::Rgb8,
        )
        // Writing a well-formed RGB buffer into a Vec cannot fail.
        .expect("in-memory PNG encoding");
    out
}
