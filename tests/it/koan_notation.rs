//! The text notation of structures: seeds, lenient forms, canonical output, every error
//! message, and round trips over random structures.

use mondo::koan::{CellRef, ParseKoanError};
use mondo::{Direction, Koan, KoanError, Piece, PieceSet, Size};
use proptest::prelude::*;

fn pyr(size: u8, dir: char) -> Piece {
    let size = Size::from_pips(size).unwrap();
    let dir = match dir {
        '^' => Direction::Up,
        '>' => Direction::Right,
        'v' => Direction::Down,
        '<' => Direction::Left,
        _ => panic!("bad test direction {dir}"),
    };
    Piece::new(size, dir)
}

fn koan(set: PieceSet, cells: &[(i32, i32, Piece)]) -> Koan {
    Koan::new(set, cells.iter().copied()).unwrap()
}

fn parse(text: &str) -> Koan {
    match text.parse::<Koan>() {
        Ok(k) => k,
        Err(e) => panic!("{text:?} should parse, got: {e}"),
    }
}

fn error(text: &str) -> String {
    match text.parse::<Koan>() {
        Ok(k) => panic!("{text:?} should not parse, got {k:?}"),
        Err(e) => e.to_string(),
    }
}

fn error_as(text: &str, set: PieceSet) -> String {
    match Koan::parse_as(text, set) {
        Ok(k) => panic!("{text:?} should not parse as {set}, got {k:?}"),
        Err(e) => e.to_string(),
    }
}

/// The pyramids example of the original Death Match rules, exactly as pasted there:
/// code fence, doubled line breaks.
const SEED_PYRAMIDS: &str = "```\n\n3> .. .. 2^ .. 3v\n\n.. 1< 1<\n\n```";
/// The arrows example of the same rules' "Koans and Patterns" part.
const SEED_ARROWS: &str = "```\n\n.U.\n\nL.R\n\n.D.\n\n```";

fn seed_pyramids() -> Koan {
    koan(
        PieceSet::Pyramids,
        &[
            (0, 0, pyr(3, '>')),
            (0, 3, pyr(2, '^')),
            (0, 5, pyr(3, 'v')),
            (1, 1, pyr(1, '<')),
            (1, 2, pyr(1, '<')),
        ],
    )
}

/// A compass: an arrow pointing up at the top, left and right in the middle row, down
/// at the bottom, each on the side it points to.
fn seed_arrows() -> Koan {
    use Direction::{Down, Left, Right, Up};
    let cells = [(0, 1, Up), (1, 0, Left), (1, 2, Right), (2, 1, Down)];
    koan(
        PieceSet::Arrows,
        &cells.map(|(row, col, d)| (row, col, Piece::arrow(d))),
    )
}

#[test]
fn seed_examples_read_as_their_authors_meant() {
    assert_eq!(parse(SEED_PYRAMIDS), seed_pyramids());
    assert_eq!(parse(SEED_ARROWS), seed_arrows());
    assert_eq!(
        Koan::parse_as(SEED_PYRAMIDS, PieceSet::Pyramids),
        Ok(seed_pyramids())
    );
    assert_eq!(
        Koan::parse_as(SEED_ARROWS, PieceSet::Arrows),
        Ok(seed_arrows())
    );
}

#[test]
fn canonical_form_pads_rows_and_uses_one_space() {
    let k = seed_pyramids();
    assert_eq!(k.to_string(), "3> .. .. 2^ .. 3v\n.. 1< 1< .. .. ..");
    assert_eq!(k.to_line(), "3> .. .. 2^ .. 3v / .. 1< 1< .. .. ..");
    let a = seed_arrows();
    assert_eq!(a.to_string(), ". U .\nL . R\n. D .");
    assert_eq!(a.to_line(), ". U . / L . R / . D .");
}

/// Each text reads as `expected`, whether the notation is detected or the set is known.
fn assert_all_read_as(expected: &Koan, texts: &[&str]) {
    for text in texts {
        assert_eq!(&parse(text), expected, "reading {text:?}");
        assert_eq!(
            Koan::parse_as(text, expected.set()).as_ref(),
            Ok(expected),
            "reading {text:?} for {}",
            expected.set()
        );
    }
}

#[test]
fn lenient_pyramid_forms_read_the_same_structure() {
    let texts = [
        "3> .. .. 2^ .. 3v\n.. 1< 1<",
        "3> .. .. 2^ .. 3v / .. 1< 1<",
        "3> .. .. 2^ .. 3v | .. 1< 1<",
        "3>  ..\t.. 2^ .. 3v   \r\n .. 1< 1<  ",
        "3R .. .. 2U .. 3D / .. 1L 1L",
        "3r .. .. 2u .. 3d / .. 1l 1l",
        "```text\n3> .. .. 2^ .. 3v\n.. 1< 1<\n```",
        "`3> .. .. 2^ .. 3v / .. 1< 1<`",
        // Empty margins on every side, and an empty leading row written as `..`.
        ".. .. .. .. .. .. ..\n\n.. 3> .. .. 2^ .. 3v ..\n.. .. 1< 1< .. .. ..\n..\n",
        "\n\n   3> .. .. 2^ .. 3v\n\n\n\n.. 1< 1<\n\n\n",
    ];
    assert_all_read_as(&seed_pyramids(), &texts);
    // `V` is a direction too (down).
    assert_eq!(parse("3> / 1V"), parse("3> / 1v"));
}

#[test]
fn lenient_arrow_forms_read_the_same_structure() {
    let texts = [
        ".U. / L.R / .D.",
        ".U.|L.R|.D.",
        ". U . / L . R / . D .",
        ".^.\nL.>\n.v.",
        ".u.\nl.r\n.d.",
        ".. U / .L .R / ..D",
        "```\n.U.\nL.R\n.D.\n```",
        "...\n\n.U.\n\nL.R\n\n.D.\n...",
    ];
    assert_all_read_as(&seed_arrows(), &texts);
    // An arrows game reads `..U` as two empty cells and an arrow.
    assert_eq!(
        Koan::parse_as("..U / R", PieceSet::Arrows),
        Ok(koan(
            PieceSet::Arrows,
            &[
                (0, 2, Piece::arrow(Direction::Up)),
                (1, 0, Piece::arrow(Direction::Right))
            ]
        ))
    );
}

#[test]
fn an_empty_row_inside_a_structure_keeps_its_place() {
    let k = parse("1^\n..\n1v");
    assert_eq!(k.height(), 3);
    assert_eq!(k.to_line(), "1^ / .. / 1v");
    // A blank line is not a row.
    assert_eq!(parse("1^\n\n1v").to_line(), "1^ / 1v");
}

#[test]
fn a_cell_that_is_not_two_characters_is_refused() {
    const HOW: &str = "is not a cell; a cell is a size 1, 2 or 3 then a direction ^ > v < \
                       (or U R D L), or .. when empty, and cells are separated by spaces";
    assert_eq!(error("1^ 3>>"), format!("row 1, cell 2: `3>>` {HOW}"));
    assert_eq!(error("1^\n3 >"), format!("row 2, cell 1: `3` {HOW}"));
    assert_eq!(error("3>1<"), format!("row 1, cell 1: `3>1<` {HOW}"));
    assert_eq!(error("3> ."), format!("row 1, cell 2: `.` {HOW}"));
    assert_eq!(
        Koan::parse_as("3> ...", PieceSet::Pyramids).unwrap_err(),
        ParseKoanError::NotACell {
            at: CellRef {
                row: 1,
                cell: 2,
                text: "...".into()
            }
        }
    );
}

#[test]
fn bad_sizes_and_directions_are_named() {
    assert_eq!(
        error("3> 4^"),
        "row 1, cell 2: `4^` has size `4`; sizes are 1, 2 or 3"
    );
    assert_eq!(
        error("0^"),
        "row 1, cell 1: `0^` has size `0`; sizes are 1, 2 or 3"
    );
    assert_eq!(
        error("1^ / x^ 2>"),
        "row 2, cell 1: `x^` has size `x`; sizes are 1, 2 or 3"
    );
    assert_eq!(
        error("3> .. 2x"),
        "row 1, cell 3: `2x` has direction `x`; directions are ^ > v < (or U R D L)"
    );
    assert_eq!(
        error("33"),
        "row 1, cell 1: `33` has direction `3`; directions are ^ > v < (or U R D L)"
    );
    assert_eq!(
        error("1> ^3"),
        "row 1, cell 2: `^3` puts the direction first; write the size first, as in `3^`"
    );
}

#[test]
fn rows_are_counted_as_typed_from_the_first_row_that_is_not_blank() {
    // Blank lines count once the structure has begun; fences and leading blanks do not.
    assert_eq!(
        error("```\n\n3> .. 1<\n\n.. 4<\n```"),
        "row 3, cell 2: `4<` has size `4`; sizes are 1, 2 or 3"
    );
    assert_eq!(
        error("\n \n / 3> 1<\n4<"),
        "row 2, cell 1: `4<` has size `4`; sizes are 1, 2 or 3"
    );
    assert_eq!(
        error("3> / / 1< 9<"),
        "row 3, cell 2: `9<` has size `9`; sizes are 1, 2 or 3"
    );
}

#[test]
fn bad_arrows_are_named() {
    assert_eq!(
        error(".U. / L?R"),
        "row 2, cell 2: `?` is not an arrow; arrows are U R D L (or ^ > v <), and . is an empty cell"
    );
    // Cells of an arrows row are its non-blank characters.
    assert_eq!(
        error(". U x"),
        "row 1, cell 3: `x` is not an arrow; arrows are U R D L (or ^ > v <), and . is an empty cell"
    );
}

#[test]
fn mixed_notations_are_refused_naming_both_places() {
    assert_eq!(
        error("3> .. 1<\n.U."),
        "mixed notations: `3>` (row 1, cell 1) is pyramids notation but `.U.` (row 2, cell 1) \
         is arrows notation; write every cell in one notation"
    );
    assert_eq!(
        error("U 1^"),
        "mixed notations: `1^` (row 1, cell 2) is pyramids notation but `U` (row 1, cell 1) \
         is arrows notation; write every cell in one notation"
    );
}

#[test]
fn the_other_sets_notation_is_refused() {
    assert_eq!(
        error_as(".U. / L.R", PieceSet::Pyramids),
        "`U` (row 1, cell 2) is arrows notation, but this game plays with pyramids; write \
         each cell as a size 1, 2 or 3 then a direction, such as `3^` or `1U`, and .. for an \
         empty cell"
    );
    assert_eq!(
        error_as(".. 1^ / 2>", PieceSet::Arrows),
        "`1^` (row 1, cell 2) is pyramids notation, but this game plays with arrows; write \
         one character per cell, U R D L (or ^ > v <), and . for an empty cell"
    );
    // Even the arrows' own size is pyramids notation in an arrows game.
    assert!(Koan::parse_as("1U", PieceSet::Arrows).is_err());
}

#[test]
fn empty_structures_are_refused() {
    for text in [
        "",
        "   \n\n",
        ".. .. / ..",
        "```\n```",
        ". . .",
        "```text\n\n```",
    ] {
        assert_eq!(
            text.parse::<Koan>(),
            Err(ParseKoanError::Structure(KoanError::Empty)),
            "reading {text:?}"
        );
        assert_eq!(error(text), "a structure needs at least one piece");
    }
    assert_eq!(
        error_as("...", PieceSet::Arrows),
        "a structure needs at least one piece"
    );
}

#[test]
fn too_large_bounding_boxes_are_refused() {
    assert_eq!(
        error("1^ .. .. .. .. .. 1^\n..\n.. 2>"),
        "bounding box 7 x 3 is too large (at most 6 x 6)"
    );
    assert_eq!(
        error("U / . / . / . / . / . / . / D"),
        "bounding box 1 x 8 is too large (at most 6 x 6)"
    );
    // Margins do not count towards the box.
    assert!(".. .. 1^ .. .. .. .. 1^ ..".parse::<Koan>().is_ok());
}

fn any_koan(set: PieceSet) -> impl Strategy<Value = Koan> {
    let kinds = set.pieces().len();
    prop::collection::btree_map((0..6i32, 0..6i32), 0..kinds, 1..=36).prop_map(move |cells| {
        Koan::new(
            set,
            cells.into_iter().map(|((r, c), i)| (r, c, set.pieces()[i])),
        )
        .unwrap()
    })
}

fn any_set() -> impl Strategy<Value = PieceSet> {
    prop_oneof![Just(PieceSet::Pyramids), Just(PieceSet::Arrows)]
}

/// Draws choices from a byte string, so proptest can shrink the writing style too.
struct Choices<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Choices<'_> {
    fn pick<'b, T: ?Sized>(&mut self, options: &[&'b T]) -> &'b T {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        options[b as usize % options.len()]
    }

    fn below(&mut self, n: usize) -> usize {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b as usize % n
    }
}

/// Writes a structure the way a player might: margins, ragged rows, letters or symbols
/// in any case, doubled line breaks, any row separator, code fences.
fn write_messily(k: &Koan, c: &mut Choices<'_>) -> String {
    let pyramids = k.set() == PieceSet::Pyramids;
    let empty = if pyramids { ".." } else { "." };
    let (top, left) = (c.below(3), c.below(3));
    let mut rows: Vec<String> = Vec::new();
    for _ in 0..top {
        rows.push(c.pick(&[empty, "", "  "]).to_string());
    }
    for r in 0..k.height() {
        let mut cells: Vec<String> = vec![empty.to_string(); left];
        for col in 0..k.width() {
            let cell = match k.get(mondo::Pos::new(r, col)) {
                None => empty.to_string(),
                Some(p) => {
                    let letter = p.dir.letter();
                    let dir = match c.below(3) {
                        0 => p.dir.symbol(),
                        1 => letter,
                        _ => letter.to_ascii_lowercase(),
                    };
                    if pyramids {
                        format!("{}{dir}", p.pips())
                    } else {
                        dir.to_string()
                    }
                }
            };
            cells.push(cell);
        }
        // Ragged: drop trailing empty cells, or add some.
        if c.below(2) == 0 {
            while cells.last().is_some_and(|x| x == empty) {
                cells.pop();
            }
        } else {
            cells.extend(std::iter::repeat_n(empty.to_string(), c.below(3)));
        }
        let gap = if pyramids {
            c.pick(&[" ", "  ", "\t"])
        } else {
            c.pick(&["", " ", ""])
        };
        let mut row = cells.join(gap);
        if row.is_empty() {
            // A row with no piece inside the structure must still be written.
            row = empty.to_string();
        }
        row.push_str(c.pick(&["", " ", "  "]));
        rows.push(row);
    }
    let mut text = String::new();
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            text.push_str(c.pick(&["\n", "\n\n", " / ", "|", "\r\n", " | ", "/"]));
        }
        text.push_str(row);
    }
    match c.below(4) {
        0 => text,
        1 => format!("```\n{text}\n```"),
        2 => format!("```text\n\n{text}\n\n```\n"),
        _ => format!("`{text}`"),
    }
}

proptest! {
    #[test]
    fn display_round_trips(k in any_set().prop_flat_map(any_koan)) {
        prop_assert_eq!(k.to_string().parse::<Koan>(), Ok(k.clone()));
        prop_assert_eq!(k.to_line().parse::<Koan>(), Ok(k.clone()));
        prop_assert_eq!(Koan::parse_as(&k.to_string(), k.set()), Ok(k.clone()));
        prop_assert_eq!(Koan::parse_as(&k.to_line(), k.set()), Ok(k.clone()));
    }

    #[test]
    fn canonical_form_is_a_padded_grid(k in any_set().prop_flat_map(any_koan)) {
        let text = k.to_string();
        let rows: Vec<&str> = text.split('\n').collect();
        prop_assert_eq!(rows.len(), k.height() as usize);
        let cell_width = if k.set() == PieceSet::Pyramids { 2 } else { 1 };
        for row in rows {
            let cells: Vec<&str> = row.split(' ').collect();
            prop_assert_eq!(cells.len(), k.width() as usize);
            prop_assert!(cells.iter().all(|c| c.len() == cell_width));
        }
    }

    #[test]
    fn messy_writing_reads_the_same_structure(
        k in any_set().prop_flat_map(any_koan),
        style in prop::collection::vec(any::<u8>(), 0..600),
    ) {
        let text = write_messily(&k, &mut Choices { bytes: &style, at: 0 });
        prop_assert_eq!(text.parse::<Koan>(), Ok(k.clone()), "text was {:?}", text);
        prop_assert_eq!(Koan::parse_as(&text, k.set()), Ok(k.clone()), "text was {:?}", text);
    }

    #[test]
    /// Whatever the text, reading it does not panic, and whatever it reads as, the
    /// canonical form reads back the same.
    fn any_text_reads_consistently(text in "[1234^>v<UDLRudlr.x /|`\n ]{0,60}") {
        let reads = [
            text.parse::<Koan>(),
            Koan::parse_as(&text, PieceSet::Arrows),
            Koan::parse_as(&text, PieceSet::Pyramids),
        ];
        for k in reads.into_iter().flatten() {
            prop_assert_eq!(k.to_string().parse::<Koan>(), Ok(k.clone()));
        }
    }
}
