//! Pictures decoded and inspected pixel by pixel: pieces, pips and stones must be
//! where the layout puts them, in the colours a player reads.

use super::board::BoardLayout;
use super::geometry::Rect;
use super::style::{self, Rgb};
use super::*;
use image::Rgb as Px;
use mondo_rules::koan::{Direction, Piece, PieceSet, Pos, Size};
use proptest::prelude::*;

fn koan(set: PieceSet, pieces: &[(i32, i32, Piece)]) -> Koan {
    Koan::new(set, pieces.iter().copied()).expect("valid test structure")
}

/// The structure of the seed's notation example: `3> .. .. 2^ .. 3v / .. 1< 1<`.
fn seed_example() -> Koan {
    samples::structure()
}

/// Every pyramid once, one row per size, one column per direction.
fn all_pyramids() -> Koan {
    let placed: Vec<_> = PieceSet::Pyramids
        .pieces()
        .iter()
        .enumerate()
        .map(|(i, p)| ((i / 4) as i32, (i % 4) as i32, *p))
        .collect();
    koan(PieceSet::Pyramids, &placed)
}

fn compass() -> Koan {
    koan(
        PieceSet::Arrows,
        &[
            (0, 1, Piece::arrow(Direction::Up)),
            (1, 0, Piece::arrow(Direction::Left)),
            (1, 2, Piece::arrow(Direction::Right)),
            (2, 1, Piece::arrow(Direction::Down)),
        ],
    )
}

fn decode(png: &[u8]) -> RgbImage {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .expect("our PNG decodes")
        .to_rgb8()
}

fn near(px: Px<u8>, c: Rgb, tolerance: u8) -> bool {
    let [r, g, b] = px.0;
    r.abs_diff(c.0) <= tolerance && g.abs_diff(c.1) <= tolerance && b.abs_diff(c.2) <= tolerance
}

fn at(img: &RgbImage, x: f32, y: f32) -> Px<u8> {
    *img.get_pixel(x as u32, y as u32)
}

/// Pixel coordinates inside a cell, a little in from its lines.
fn inside(r: Rect) -> impl Iterator<Item = (u32, u32)> {
    let (x0, y0) = ((r.x + 2.0) as u32, (r.y + 2.0) as u32);
    let (x1, y1) = ((r.x + r.w - 2.0) as u32, (r.y + r.h - 2.0) as u32);
    (y0..y1).flat_map(move |y| (x0..x1).map(move |x| (x, y)))
}

/// Pixels of a piece: its body, its pips and its blended edge (anything but the cell).
fn is_piece(px: Px<u8>) -> bool {
    !near(px, style::CELL, 12) && !near(px, style::GRID, 12)
}

fn piece_pixels(img: &RgbImage, r: Rect) -> usize {
    inside(r)
        .filter(|&(x, y)| near(*img.get_pixel(x, y), style::PIECE, 6))
        .count()
}

/// Sizes of the 4-connected blobs of pip-coloured pixels in a cell: one blob per pip.
fn pip_blobs(img: &RgbImage, r: Rect) -> Vec<usize> {
    let cells: Vec<(u32, u32)> = inside(r)
        .filter(|&(x, y)| near(*img.get_pixel(x, y), style::PIP, 4))
        .collect();
    let set: std::collections::HashSet<(u32, u32)> = cells.iter().copied().collect();
    let mut seen = std::collections::HashSet::new();
    let mut blobs = Vec::new();
    for &start in &cells {
        if !seen.insert(start) {
            continue;
        }
        let mut stack = vec![start];
        let mut size = 0;
        while let Some((x, y)) = stack.pop() {
            size += 1;
            for n in [
                (x + 1, y),
                (x.wrapping_sub(1), y),
                (x, y + 1),
                (x, y.wrapping_sub(1)),
            ] {
                if set.contains(&n) && seen.insert(n) {
                    stack.push(n);
                }
            }
        }
        blobs.push(size);
    }
    blobs
}

/// Checks every cell of `grid` in `img` against `koan`: a piece's cell holds piece
/// pixels and exactly its number of pips (none for arrows), at the centres the layout
/// computed; an empty cell holds neither.
fn check_cells(img: &RgbImage, koan: &Koan, grid: &GridLayout) {
    let arrows = koan.set() == PieceSet::Arrows;
    for row in 0..koan.height() {
        for col in 0..koan.width() {
            let pos = Pos::new(row, col);
            let rect = grid.cell_rect(pos);
            let blobs = pip_blobs(img, rect);
            match koan.get(pos) {
                None => {
                    assert_eq!(piece_pixels(img, rect), 0, "piece colour in empty {pos:?}");
                    assert!(blobs.is_empty(), "pip in empty {pos:?}");
                    let c = rect.centre();
                    assert!(near(at(img, c.x, c.y), style::CELL, 2), "empty {pos:?}");
                }
                Some(piece) => {
                    assert!(piece_pixels(img, rect) > 20, "no piece at {pos:?}");
                    let shape = grid.piece(pos, piece, arrows);
                    let want = if arrows { 0 } else { piece.pips() as usize };
                    assert_eq!(blobs.len(), want, "pips of {piece:?} at {pos:?}");
                    for pip in &shape.pips {
                        assert!(near(at(img, pip.x, pip.y), style::PIP, 4), "pip centre");
                    }
                    // Halfway from the centre to the apex is solid piece colour.
                    let c = rect.centre();
                    let apex = shape.outline[0];
                    let body = at(img, (c.x + apex.x) / 2.0, (c.y + apex.y) / 2.0);
                    assert!(
                        near(body, style::PIECE, 6),
                        "body of {piece:?} at {pos:?}: {body:?}"
                    );
                }
            }
        }
    }
}

/// Along the axis a piece points, where its widest cross-section lies relative to the
/// middle of its extent: +1 towards its direction, -1 away. A triangle is widest at
/// its base (away); an arrow at its head (towards).
fn widest_side(img: &RgbImage, rect: Rect, dir: Direction) -> i32 {
    let vertical = dir.is_vertical();
    let mut widths = std::collections::BTreeMap::<u32, usize>::new();
    for (x, y) in inside(rect) {
        if is_piece(*img.get_pixel(x, y)) {
            *widths.entry(if vertical { y } else { x }).or_default() += 1;
        }
    }
    let (lo, hi) = (
        *widths.keys().next().unwrap(),
        *widths.keys().last().unwrap(),
    );
    let max = *widths.values().max().unwrap();
    // The middle of the widest lines (a triangle's base is several pixels thick).
    let wide: Vec<u32> = widths
        .iter()
        .filter(|&(_, &w)| w * 10 >= max * 9)
        .map(|(&k, _)| k)
        .collect();
    let widest = wide.iter().sum::<u32>() as f32 / wide.len() as f32;
    let mid = (lo + hi) as f32 / 2.0;
    let (dr, dc) = dir.delta();
    let towards = if vertical { dr } else { dc } as f32;
    if (widest - mid) * towards > 0.0 {
        1
    } else {
        -1
    }
}

#[test]
fn a_single_picture_is_sized_by_its_bounding_box() {
    let plain = Picture::default();
    let one = koan(
        PieceSet::Pyramids,
        &[(0, 0, Piece::new(Size::Small, Direction::Up))],
    );
    let img = decode(&koan_png(&one, &plain));
    let cell = style::SINGLE.cell as u32;
    let margin = style::SINGLE.margin as u32;
    assert_eq!(img.dimensions(), (cell + 2 * margin, cell + 2 * margin));
    let wide = seed_example();
    let img = decode(&koan_png(&wide, &plain));
    assert_eq!(
        img.dimensions(),
        (6 * cell + 2 * margin, 2 * cell + 2 * margin)
    );
    // A header adds one band of height, whatever it holds.
    let marked = Picture {
        mark: Some(Mark::Obeys),
        caption: Some("#7".into()),
    };
    let img = decode(&koan_png(&wide, &marked));
    assert_eq!(
        img.height(),
        2 * cell + 2 * margin + style::SINGLE.header as u32
    );
    assert_eq!(img.width(), 6 * cell + 2 * margin);
}

#[test]
fn pieces_and_pips_are_where_they_belong() {
    for k in [seed_example(), all_pyramids(), compass()] {
        let picture = Picture {
            mark: Some(Mark::DoesNot),
            caption: Some("#12".into()),
        };
        let img = decode(&koan_png(&k, &picture));
        let layout = SingleLayout::new(&k, &picture);
        assert_eq!(img.dimensions(), (layout.width, layout.height));
        check_cells(&img, &k, &layout.grid);
    }
}

#[test]
fn larger_pieces_cover_more_pixels() {
    let k = all_pyramids();
    let img = koan_image(&k, &Picture::default());
    let grid = SingleLayout::new(&k, &Picture::default()).grid;
    for col in 0..4 {
        let area = |row| piece_pixels(&img, grid.cell_rect(Pos::new(row, col)));
        let (small, medium, large) = (area(0), area(1), area(2));
        assert!(small * 3 < medium * 2, "small {small} vs medium {medium}");
        assert!(medium * 3 < large * 2, "medium {medium} vs large {large}");
        assert!(small * 2 < large, "small {small} vs large {large}");
    }
}

#[test]
fn every_piece_visibly_points_its_way() {
    // A triangle is widest at its base, behind it; an arrow at its head, in front.
    for (k, widest) in [(all_pyramids(), -1), (compass(), 1)] {
        let img = koan_image(&k, &Picture::default());
        let grid = SingleLayout::new(&k, &Picture::default()).grid;
        for &(pos, piece) in k.pieces() {
            let side = widest_side(&img, grid.cell_rect(pos), piece.dir);
            assert_eq!(side, widest, "{:?} {piece:?}", k.set());
        }
    }
}

#[test]
fn the_verdict_is_a_stone_with_a_symbol_or_nothing() {
    let k = seed_example();
    let with = |mark| Picture {
        mark,
        caption: Some("#3".into()),
    };
    let stone = SingleLayout::new(&k, &with(Some(Mark::Obeys)))
        .header
        .mark
        .expect("a stone")
        .1;
    // A point inside the stone, off its symbol and rim.
    let (sx, sy) = (stone.centre.x, stone.centre.y - 0.62 * stone.radius);
    let stone_box = Rect::new(
        stone.centre.x - stone.radius * 0.7,
        stone.centre.y - stone.radius * 0.7,
        stone.radius * 1.4,
        stone.radius * 1.4,
    );
    let count = |img: &RgbImage, c: Rgb| {
        inside(stone_box)
            .filter(|&(x, y)| near(*img.get_pixel(x, y), c, 10))
            .count()
    };

    let white = koan_image(&k, &with(Some(Mark::Obeys)));
    assert!(near(at(&white, sx, sy), style::STONE_WHITE, 4));
    assert!(
        count(&white, style::STONE_BLACK) > 10,
        "a white stone carries a dark check"
    );

    let black = koan_image(&k, &with(Some(Mark::DoesNot)));
    assert_eq!(
        SingleLayout::new(&k, &with(Some(Mark::DoesNot)))
            .header
            .mark
            .map(|m| m.1.centre.y),
        Some(stone.centre.y)
    );
    let black_stone = SingleLayout::new(&k, &with(Some(Mark::DoesNot)))
        .header
        .mark
        .unwrap()
        .1;
    let (bx, by) = (
        black_stone.centre.x,
        black_stone.centre.y - 0.62 * black_stone.radius,
    );
    assert!(near(at(&black, bx, by), style::STONE_BLACK, 4));

    let none = koan_image(&k, &with(None));
    assert!(SingleLayout::new(&k, &with(None)).header.mark.is_none());
    assert!(
        near(at(&none, sx, sy), style::CARD, 2),
        "no stone without a mark"
    );
    assert_eq!(count(&none, style::STONE_BLACK), 0);
    assert_eq!(count(&none, style::STONE_WHITE), 0);
}

#[test]
fn captions_are_drawn_and_long_ones_shortened() {
    let k = seed_example();
    let band = |img: &RgbImage| {
        let h = style::SINGLE.header + style::SINGLE.margin;
        (0..img.width())
            .flat_map(|x| (0..h as u32).map(move |y| (x, y)))
            .filter(|&(x, y)| near(*img.get_pixel(x, y), style::TEXT, 30))
            .count()
    };
    let captioned = koan_image(
        &k,
        &Picture {
            mark: None,
            caption: Some("initial".into()),
        },
    );
    assert!(band(&captioned) > 50);
    let blank = koan_image(
        &k,
        &Picture {
            mark: None,
            caption: Some("  ".into()),
        },
    );
    assert_eq!(blank.height(), koan_image(&k, &Picture::default()).height());

    let long = "x".repeat(300);
    let picture = Picture {
        mark: Some(Mark::Obeys),
        caption: Some(long),
    };
    let layout = SingleLayout::new(&k, &picture);
    let max_w =
        (SingleLayout::CAPTION_CELLS * style::SINGLE.cell + 2.0 * style::SINGLE.margin) as u32;
    assert!(
        layout.width <= max_w,
        "caption widened the picture to {}",
        layout.width
    );
    let (caption, _) = layout.header.caption.expect("a caption");
    assert!(caption.ends_with('…'));
}

#[test]
fn extreme_structures_render() {
    // Every 1 x 1 structure of both sets, and the 6 x 6 corners.
    for set in PieceSet::ALL {
        for &p in set.pieces() {
            let k = koan(set, &[(0, 0, p)]);
            let img = decode(&koan_png(&k, &Picture::default()));
            check_cells(&img, &k, &SingleLayout::new(&k, &Picture::default()).grid);
        }
        let p = set.pieces()[set.pieces().len() - 1];
        let k = koan(set, &[(0, 0, p), (5, 5, p), (0, 5, p), (5, 0, p)]);
        let picture = Picture {
            mark: Some(Mark::Obeys),
            caption: Some("#40".into()),
        };
        let img = decode(&koan_png(&k, &picture));
        check_cells(&img, &k, &SingleLayout::new(&k, &picture).grid);
    }
}

#[test]
fn a_full_six_by_six_structure_stays_small_as_png() {
    let k = samples::full();
    let picture = Picture {
        mark: Some(Mark::DoesNot),
        caption: Some("#40".into()),
    };
    let png = koan_png(&k, &picture);
    assert!(png.len() <= PNG_BUDGET, "{} bytes", png.len());
    check_cells(&decode(&png), &k, &SingleLayout::new(&k, &picture).grid);
}

fn history(koans: &[Koan]) -> Vec<BoardEntry<'_>> {
    let marks = [Some(Mark::Obeys), Some(Mark::DoesNot), None];
    BoardEntry::numbered(koans.iter().zip(marks.into_iter().cycle()))
}

#[test]
fn a_board_shows_every_structure_in_its_own_tile() {
    let koans: Vec<Koan> = (0..7)
        .map(|i| [seed_example(), all_pyramids(), compass()][i % 3].clone())
        .collect();
    let entries = history(&koans);
    let img = decode(&board_png(&entries).expect("a board"));
    let layout = BoardLayout::new(&entries).unwrap();
    assert_eq!(img.dimensions(), (layout.width, layout.height));
    assert_eq!(layout.tiles.len(), 7);
    for (tile, entry) in layout.tiles.iter().zip(&entries) {
        check_cells(&img, entry.koan, &tile.grid);
        let (label, _) = tile.header.caption.as_ref().expect("a label");
        assert_eq!(label, &entry.label);
        assert_eq!(tile.header.mark.map(|m| m.0), entry.mark);
        if let Some((mark, stone)) = tile.header.mark {
            let top = at(&img, stone.centre.x, stone.centre.y - 0.62 * stone.radius);
            let want = if mark == Mark::Obeys {
                style::STONE_WHITE
            } else {
                style::STONE_BLACK
            };
            assert!(near(top, want, 6), "stone of {}", entry.label);
        }
    }
}

#[test]
fn a_long_history_stays_a_readable_grid() {
    let koans: Vec<Koan> = (0..45)
        .map(|i| {
            if i % 2 == 0 {
                seed_example()
            } else {
                compass()
            }
        })
        .collect();
    let entries = history(&koans);
    let layout = BoardLayout::new(&entries).unwrap();
    // Several columns but not a strip; the same cell size everywhere.
    assert!(
        (5..=10).contains(&layout.columns),
        "{} columns",
        layout.columns
    );
    let ratio = layout.width as f32 / layout.height as f32;
    assert!((0.8..2.5).contains(&ratio), "aspect {ratio}");
    for (i, a) in layout.tiles.iter().enumerate() {
        assert_eq!(a.grid.cell, style::BOARD.cell);
        assert!(a.rect.x >= 0.0 && a.rect.x + a.rect.w <= layout.width as f32);
        assert!(a.rect.y >= 0.0 && a.rect.y + a.rect.h <= layout.height as f32);
        let g = a.grid.bounds();
        assert!(
            g.x >= a.rect.x && g.x + g.w <= a.rect.x + a.rect.w,
            "grid leaves tile {i}"
        );
        assert!(
            g.y >= a.rect.y && g.y + g.h <= a.rect.y + a.rect.h,
            "grid leaves tile {i}"
        );
        for b in &layout.tiles[i + 1..] {
            let apart = a.rect.x + a.rect.w <= b.rect.x
                || b.rect.x + b.rect.w <= a.rect.x
                || a.rect.y + a.rect.h <= b.rect.y
                || b.rect.y + b.rect.h <= a.rect.y;
            assert!(apart, "tiles overlap");
        }
    }
    let img = board_image(&entries).unwrap();
    let last = layout.tiles.last().unwrap();
    check_cells(&img, entries.last().unwrap().koan, &last.grid);
}

#[test]
fn boards_refuse_to_be_empty_or_huge() {
    assert_eq!(board_png(&[]), Err(RenderError::EmptyBoard));
    let k = compass();
    let entries: Vec<BoardEntry> = (0..=MAX_BOARD)
        .map(|i| BoardEntry {
            koan: &k,
            mark: None,
            label: i.to_string(),
        })
        .collect();
    assert_eq!(
        board_png(&entries).unwrap_err().to_string(),
        format!(
            "a board of {} structures is too large to draw (at most {MAX_BOARD})",
            MAX_BOARD + 1
        )
    );
}

#[test]
fn marks_parse_leniently_and_print_canonically() {
    for (text, mark) in [
        ("obeys", Mark::Obeys),
        (" Obey ", Mark::Obeys),
        ("white", Mark::Obeys),
        ("not", Mark::DoesNot),
        ("NO", Mark::DoesNot),
        ("black", Mark::DoesNot),
    ] {
        assert_eq!(text.parse::<Mark>(), Ok(mark), "{text}");
        assert_eq!(mark.to_string().parse::<Mark>(), Ok(mark));
    }
    let err = "maybe".parse::<Mark>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown mark `maybe`: expected `obeys` (white stone) or `not` (black stone)"
    );
}

fn any_koan() -> impl Strategy<Value = Koan> {
    (
        any::<bool>(),
        prop::collection::vec((0..6i32, 0..6i32, 0..12usize), 1..12),
    )
        .prop_map(|(arrows, cells)| {
            let set = if arrows {
                PieceSet::Arrows
            } else {
                PieceSet::Pyramids
            };
            let mut seen = std::collections::HashSet::new();
            let placed: Vec<_> = cells
                .into_iter()
                .filter(|&(r, c, _)| seen.insert((r, c)))
                .map(|(r, c, i)| (r, c, set.pieces()[i % set.pieces().len()]))
                .collect();
            Koan::new(set, placed).expect("distinct cells in a 6 x 6 window")
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn any_structure_renders_with_its_pieces_in_place(k in any_koan(), marked in any::<bool>()) {
        let picture = Picture {
            mark: marked.then_some(Mark::Obeys),
            caption: Some("#1".into()),
        };
        let img = decode(&koan_png(&k, &picture));
        check_cells(&img, &k, &SingleLayout::new(&k, &picture).grid);
    }
}

/// Zendo Triple: A white (obeys), B black (does not), C grey (not graded).
const TRIPLE_MARKS: [(char, Option<Mark>); 3] = [
    ('A', Some(Mark::Obeys)),
    ('B', Some(Mark::DoesNot)),
    ('C', None),
];

/// Each lettered stone is drawn where its layout says, in its colour: white, black,
/// or grey for a pattern the structure was not graded on; every stone and letter is
/// inside the picture, to the right of the caption.
fn check_lettered(img: &RgbImage, header: &Header, caption_end: f32) {
    assert_eq!(header.letters.len(), 3);
    let mut last_x = caption_end;
    for (l, (letter, mark)) in header.letters.iter().zip(TRIPLE_MARKS) {
        assert_eq!((l.letter, l.mark), (letter, mark));
        assert!(l.at.x >= last_x, "{letter} overlaps what is left of it");
        let s = l.stone;
        assert!(s.centre.x + s.radius <= img.width() as f32);
        let top = at(img, s.centre.x, s.centre.y - 0.62 * s.radius);
        let want = match mark {
            Some(Mark::Obeys) => style::STONE_WHITE,
            Some(Mark::DoesNot) => style::STONE_BLACK,
            None => style::STONE_UNKNOWN,
        };
        assert!(near(top, want, 8), "stone {letter}: {top:?}");
        // The letter is ink left of its stone.
        let ink = (l.at.x as u32..(s.centre.x - s.radius) as u32)
            .flat_map(|x| {
                ((s.centre.y - s.radius) as u32..(s.centre.y + s.radius) as u32)
                    .map(move |y| (x, y))
            })
            .any(|(x, y)| near(*img.get_pixel(x, y), style::TEXT, 40));
        assert!(ink, "no letter {letter} beside its stone");
        last_x = s.centre.x + s.radius;
    }
}

#[test]
fn a_triple_picture_shows_three_lettered_stones() {
    let k = compass();
    let picture = Picture {
        mark: None,
        caption: Some("#12".into()),
    };
    let layout = SingleLayout::lettered(&k, &picture, &TRIPLE_MARKS);
    let img = decode(&lettered_koan_png(&k, Some("#12"), &TRIPLE_MARKS));
    assert_eq!(img.dimensions(), (layout.width, layout.height));
    check_cells(&img, &k, &layout.grid);
    let (caption, at) = layout.header.caption.clone().expect("the caption");
    assert_eq!(caption, "#12");
    let caption_end = at.x + text::width(&caption, style::SINGLE.caption_px);
    check_lettered(&img, &layout.header, caption_end);
    // A one-piece structure still gets a picture wide enough for its three stones.
    let one = koan(PieceSet::Arrows, &[(0, 0, Piece::arrow(Direction::Up))]);
    let layout = SingleLayout::lettered(&one, &picture, &TRIPLE_MARKS);
    let img = decode(&lettered_koan_png(&one, Some("#12"), &TRIPLE_MARKS));
    check_lettered(&img, &layout.header, layout.header.letters[0].at.x);
    // The duel's pictures carry no letters.
    assert!(SingleLayout::new(&k, &picture).header.letters.is_empty());
}

#[test]
fn a_triple_board_shows_three_lettered_stones_per_tile() {
    let koans = [compass(), seed_example(), compass()];
    let entries = history(&koans);
    let entries: Vec<BoardEntry> = entries
        .into_iter()
        .map(|e| BoardEntry { mark: None, ..e })
        .collect();
    let letters: Vec<&Lettered> = vec![&TRIPLE_MARKS; 3];
    let layout = BoardLayout::lettered(&entries, &letters).unwrap();
    let img = decode(&lettered_board_png(&entries, &letters).expect("a board"));
    assert_eq!(img.dimensions(), (layout.width, layout.height));
    for (tile, entry) in layout.tiles.iter().zip(&entries) {
        check_cells(&img, entry.koan, &tile.grid);
        let (label, at) = tile.header.caption.clone().expect("a label");
        assert_eq!(
            label, entry.label,
            "the label is not shortened for the stones"
        );
        let end = at.x + text::width(&label, style::BOARD.caption_px);
        check_lettered(&img, &tile.header, end);
        let right = tile.rect.x + tile.rect.w;
        assert!(tile.header.letters.iter().all(|l| l.stone.centre.x < right));
    }
    // Without letters, the board is the duel's, tile for tile.
    assert_eq!(
        BoardLayout::lettered(&entries, &[]).unwrap(),
        BoardLayout::new(&entries).unwrap()
    );
}
