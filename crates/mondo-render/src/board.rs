//! A board: many structures in one picture, each in a numbered, marked tile.

use super::geometry::{GridLayout, Point, Rect};
use super::style::BOARD;
use super::{BoardEntry, Header, Lettered, RenderError, draw, encode_board, into_image};
use image::RgbImage;

/// The most structures one board shows. A match history is far shorter; the cap keeps
/// a runaway caller from asking for a picture too large to build or send.
pub const MAX_BOARD: usize = 400;

/// Space between tiles and around them.
const GAP: f32 = 10.0;
/// At most this many tiles in a row, so a long history grows downwards, the way
/// Discord scrolls, instead of becoming a strip too wide to read.
const MAX_COLUMNS: usize = 10;
/// The width-to-height ratio a board aims for: about a Discord image preview's.
const ASPECT: f32 = 1.5;
/// Labels may widen a tile up to this many cells before they are shortened.
const LABEL_CELLS: f32 = 4.0;

/// Many structures as one PNG, in the order given (left to right, then down).
pub fn board_png(entries: &[BoardEntry]) -> Result<Vec<u8>, RenderError> {
    board_image(entries).map(|image| encode_board(&image))
}

/// Many structures as one PNG, each with its marks on several patterns (`letters[i]`
/// for `entries[i]`, a small lettered stone each) beside its label.
pub fn lettered_board_png(
    entries: &[BoardEntry],
    letters: &[&Lettered],
) -> Result<Vec<u8>, RenderError> {
    lettered_image(entries, letters).map(|image| encode_board(&image))
}

/// Many structures as one image (what [`board_png`] encodes).
pub fn board_image(entries: &[BoardEntry]) -> Result<RgbImage, RenderError> {
    lettered_image(entries, &[])
}

fn lettered_image(entries: &[BoardEntry], letters: &[&Lettered]) -> Result<RgbImage, RenderError> {
    let layout = BoardLayout::lettered(entries, letters)?;
    let mut pixmap = draw::card(layout.width, layout.height);
    for (tile, entry) in layout.tiles.iter().zip(entries) {
        draw::tile(&mut pixmap, tile.rect, BOARD.corner);
        tile.header.draw(&mut pixmap, &BOARD);
        draw::structure(&mut pixmap, entry.koan, &tile.grid);
    }
    Ok(into_image(pixmap))
}

/// One structure's place on a board.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tile {
    pub rect: Rect,
    pub header: Header,
    pub grid: GridLayout,
}

/// Where everything goes on a board.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BoardLayout {
    pub width: u32,
    pub height: u32,
    pub columns: usize,
    pub tiles: Vec<Tile>,
}

impl BoardLayout {
    #[cfg(test)]
    pub fn new(entries: &[BoardEntry]) -> Result<BoardLayout, RenderError> {
        BoardLayout::lettered(entries, &[])
    }

    /// The same with lettered stones (`letters[i]` for `entries[i]`; missing ones are
    /// none): every tile is wide enough for the widest set of them.
    pub fn lettered(
        entries: &[BoardEntry],
        letters: &[&Lettered],
    ) -> Result<BoardLayout, RenderError> {
        let letters_of = |i: usize| -> &Lettered { letters.get(i).copied().unwrap_or(&[]) };
        if entries.is_empty() {
            return Err(RenderError::EmptyBoard);
        }
        if entries.len() > MAX_BOARD {
            return Err(RenderError::BoardTooLarge {
                count: entries.len(),
                max: MAX_BOARD,
            });
        }
        let s = &BOARD;
        // Every tile is as large as the largest structure needs, so one cell is the
        // same size everywhere and pieces compare across tiles.
        let cols = entries.iter().map(|e| e.koan.width()).max().unwrap_or(1);
        let rows = entries.iter().map(|e| e.koan.height()).max().unwrap_or(1);
        let area_w = cols as f32 * s.cell;
        let area_h = rows as f32 * s.cell;
        let labels = entries
            .iter()
            .enumerate()
            .map(|(i, e)| Header::needed(s, Some(&e.label), e.mark, letters_of(i)))
            .fold(0.0f32, f32::max)
            .ceil();
        // Lettered stones widen a tile by their own width (a label still gets its
        // room), and are never shortened: the label gives way to them.
        let stones = (0..entries.len())
            .map(|i| Header::letters_width(s, letters_of(i)))
            .fold(0.0f32, f32::max)
            .ceil();
        let marks = entries
            .iter()
            .enumerate()
            .map(|(i, e)| Header::marks_width(s, e.mark, letters_of(i)))
            .fold(0.0f32, f32::max)
            .ceil();
        let content_w = area_w
            .max(labels.min(area_w.max(LABEL_CELLS * s.cell) + stones))
            .max(marks);
        let tile_w = content_w + 2.0 * s.margin;
        let tile_h = s.header + area_h + 2.0 * s.margin;

        let n = entries.len();
        let size = |columns: usize| {
            let lines = n.div_ceil(columns);
            (
                columns as f32 * (tile_w + GAP) + GAP,
                lines as f32 * (tile_h + GAP) + GAP,
            )
        };
        let columns = (1..=n.min(MAX_COLUMNS))
            .min_by(|&a, &b| {
                let off = |c| {
                    let (w, h) = size(c);
                    ((w / h).ln() - ASPECT.ln()).abs()
                };
                off(a).total_cmp(&off(b))
            })
            .unwrap_or(1);
        let (width, height) = size(columns);

        let tiles = entries
            .iter()
            .enumerate()
            .map(|(i, entry)| {
                let x = GAP + (i % columns) as f32 * (tile_w + GAP);
                let y = GAP + (i / columns) as f32 * (tile_h + GAP);
                let rect = Rect::new(x, y, tile_w, tile_h);
                let header = Header::new(
                    s,
                    (x + s.margin, x + tile_w - s.margin, y + s.margin / 2.0),
                    Some(&entry.label),
                    entry.mark,
                    letters_of(i),
                );
                let (kw, kh) = (entry.koan.width(), entry.koan.height());
                let grid = GridLayout {
                    origin: Point::new(
                        (x + s.margin + (content_w - kw as f32 * s.cell) / 2.0).round(),
                        (y + s.margin + s.header + (area_h - kh as f32 * s.cell) / 2.0).round(),
                    ),
                    cell: s.cell,
                    cols: kw,
                    rows: kh,
                };
                Tile { rect, header, grid }
            })
            .collect();
        Ok(BoardLayout {
            width: width.ceil() as u32,
            height: height.ceil() as u32,
            columns,
            tiles,
        })
    }
}
