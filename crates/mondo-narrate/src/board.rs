//! A 4 x 4 board of coloured tiles as text (docs/tiles.md): a row of column numbers,
//! then each row's letter and its tiles by colour letter (`R B G Y`), `.` for a tile
//! not known. The narration of a game on such a board uses it, and so does the check
//! that a board's secret does not leak.

use mondo_rules::lang::tiles::{Cell, Colour, Layout};

/// The 4 x 4 board as text: known tiles by letter (`R B G Y`), unknown `.`.
pub fn board_text(known: &[(Cell, Colour)]) -> String {
    let mut rows = Vec::new();
    for r in 0..4u8 {
        let mut row = format!("{} ", (b'A' + r) as char);
        for c in 0..4u8 {
            let cell = Cell { row: r, col: c };
            let ch = known
                .iter()
                .find(|(k, _)| *k == cell)
                .map_or('.', |(_, k)| k.letter());
            row.push(' ');
            row.push(ch);
        }
        rows.push(row);
    }
    format!("   1 2 3 4\n{}", rows.join("\n"))
}

/// The whole layout as four rows of letters.
pub fn layout_text(layout: &Layout) -> String {
    let all: Vec<(Cell, Colour)> = Cell::all().map(|c| (c, layout.colour(c))).collect();
    board_text(&all)
}
