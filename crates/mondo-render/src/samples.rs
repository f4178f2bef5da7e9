//! Fixed structures for benchmarks and examples, so `mondo bench render`, the
//! criterion bench and the tests measure and draw the same pictures.

use super::Mark;
use mondo_rules::koan::Koan;

/// Varied structures of a match history, in pyramids notation: the seed's notation
/// example first, then boxes from 1 x 1 to 6 x 6.
const HISTORY: [&str; 10] = [
    "3> .. .. 2^ .. 3v / .. 1< 1<",
    "2^ .. 1^ / .. 3^ .. 3^ / .. .. 1^",
    "1^",
    "3v 3v / 3v 1>",
    "2< 2> / .. 1^ 1^",
    "3^ .. .. .. .. 1v / .. / .. .. 3> / .. / .. / 1< .. .. .. .. 2>",
    "1> / 2> / 3>",
    "2^ 2^ 2^ 2^ 2^",
    "3< .. 1^ / .. 2v / 1> .. 2^",
    "1v 3^ / 3^ 1v",
];

fn parse(text: &str) -> Koan {
    // Fixed texts, checked by this module's test.
    text.parse().expect("sample structures are valid")
}

/// The seed's notation example, `3> .. .. 2^ .. 3v / .. 1< 1<`: a typical move.
pub fn structure() -> Koan {
    parse(HISTORY[0])
}

/// The most a structure can hold: all 36 cells of a 6 x 6 box, every pyramid three
/// times (the largest picture, and the hardest to compress).
pub fn full() -> Koan {
    let cells: Vec<String> = (0..36)
        .map(|i| {
            let piece = mondo_rules::koan::PieceSet::Pyramids.pieces()[i * 5 % 12];
            format!("{}{}", piece.pips(), piece.dir.symbol())
        })
        .collect();
    let rows: Vec<String> = cells.chunks(6).map(|row| row.join(" ")).collect();
    parse(&rows.join(" / "))
}

/// A history of `n` structures with marks (obeys, does not, none, in turn).
pub fn history(n: usize) -> Vec<(Koan, Option<Mark>)> {
    let marks = [Some(Mark::Obeys), Some(Mark::DoesNot), None];
    (0..n)
        .map(|i| (parse(HISTORY[i % HISTORY.len()]), marks[i % marks.len()]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_what_they_claim() {
        assert_eq!(structure().len(), 5);
        assert_eq!((full().width(), full().height(), full().len()), (6, 6, 36));
        let h = history(40);
        assert_eq!(h.len(), 40);
        assert!(h.iter().any(|(k, _)| k.width() == 6 && k.height() == 6));
        assert!(h.iter().any(|(k, _)| k.len() == 1));
    }
}
