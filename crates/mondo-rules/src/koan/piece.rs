//! Pieces: a size (1-3 pips) and a direction. The arrows set has one size.

use serde::{Deserialize, Serialize};

/// A piece's size, which is also its number of pips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Size {
    Small = 1,
    Medium = 2,
    Large = 3,
}

impl Size {
    pub const ALL: [Size; 3] = [Size::Small, Size::Medium, Size::Large];

    /// Number of pips (1, 2 or 3).
    pub const fn pips(self) -> u8 {
        self as u8
    }

    pub const fn from_pips(pips: u8) -> Option<Size> {
        match pips {
            1 => Some(Size::Small),
            2 => Some(Size::Medium),
            3 => Some(Size::Large),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Size::Small => "small",
            Size::Medium => "medium",
            Size::Large => "large",
        }
    }
}

/// Where a piece points. Rows grow downwards, columns to the right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Direction {
    Up,
    Right,
    Down,
    Left,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Right,
        Direction::Down,
        Direction::Left,
    ];

    /// One step in this direction as (row delta, column delta).
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::Up => (-1, 0),
            Direction::Right => (0, 1),
            Direction::Down => (1, 0),
            Direction::Left => (0, -1),
        }
    }

    pub const fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Right => Direction::Left,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
        }
    }

    /// Up or down.
    pub const fn is_vertical(self) -> bool {
        matches!(self, Direction::Up | Direction::Down)
    }

    pub const fn name(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Right => "right",
            Direction::Down => "down",
            Direction::Left => "left",
        }
    }

    /// The symbol used in the pyramid notation (`^ > v <`).
    pub const fn symbol(self) -> char {
        match self {
            Direction::Up => '^',
            Direction::Right => '>',
            Direction::Down => 'v',
            Direction::Left => '<',
        }
    }

    /// The letter used in the arrows notation (`U R D L`).
    pub const fn letter(self) -> char {
        match self {
            Direction::Up => 'U',
            Direction::Right => 'R',
            Direction::Down => 'D',
            Direction::Left => 'L',
        }
    }
}

/// Which pieces a game plays with.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum PieceSet {
    /// Three sizes times four directions: 12 pieces (Zendo Duel).
    #[default]
    Pyramids,
    /// Four arrows, one size (Zendo Triple, "Koans and Patterns").
    Arrows,
}

impl PieceSet {
    pub const ALL: [PieceSet; 2] = [PieceSet::Pyramids, PieceSet::Arrows];

    /// Every piece of the set, in a fixed order (size, then direction).
    pub fn pieces(self) -> &'static [Piece] {
        match self {
            PieceSet::Pyramids => &PYRAMIDS,
            PieceSet::Arrows => &ARROWS,
        }
    }

    /// Whether a piece belongs to this set.
    pub fn contains(self, piece: Piece) -> bool {
        self.pieces().contains(&piece)
    }

    pub const fn name(self) -> &'static str {
        match self {
            PieceSet::Pyramids => "pyramids",
            PieceSet::Arrows => "arrows",
        }
    }

    /// Whether pieces of this set differ in size (so patterns may speak of sizes and pips).
    pub const fn has_sizes(self) -> bool {
        matches!(self, PieceSet::Pyramids)
    }
}

impl std::fmt::Display for PieceSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for PieceSet {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "pyramids" | "pyramid" | "pieces" => Ok(PieceSet::Pyramids),
            "arrows" | "arrow" => Ok(PieceSet::Arrows),
            other => Err(format!(
                "unknown piece set `{other}`: expected `pyramids` or `arrows`"
            )),
        }
    }
}

/// One piece. In the arrows set every piece is [`Size::Small`]; patterns that
/// mention sizes or pips are refused for that set, so the size is never observed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Piece {
    pub size: Size,
    pub dir: Direction,
}

impl Piece {
    pub const fn new(size: Size, dir: Direction) -> Piece {
        Piece { size, dir }
    }

    /// A piece of the arrows set.
    pub const fn arrow(dir: Direction) -> Piece {
        Piece {
            size: Size::Small,
            dir,
        }
    }

    pub const fn pips(self) -> u8 {
        self.size.pips()
    }

    /// Dense index 0..12 (size-major), for tables and SAT encodings.
    pub const fn index(self) -> usize {
        (self.size as usize - 1) * 4 + self.dir as usize
    }

    /// Inverse of [`Piece::index`].
    pub const fn from_index(i: usize) -> Piece {
        PYRAMIDS[i]
    }
}

const fn p(size: Size, dir: Direction) -> Piece {
    Piece { size, dir }
}

const PYRAMIDS: [Piece; 12] = {
    use Direction::*;
    use Size::*;
    [
        p(Small, Up),
        p(Small, Right),
        p(Small, Down),
        p(Small, Left),
        p(Medium, Up),
        p(Medium, Right),
        p(Medium, Down),
        p(Medium, Left),
        p(Large, Up),
        p(Large, Right),
        p(Large, Down),
        p(Large, Left),
    ]
};

const ARROWS: [Piece; 4] = [
    Piece::arrow(Direction::Up),
    Piece::arrow(Direction::Right),
    Piece::arrow(Direction::Down),
    Piece::arrow(Direction::Left),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips_over_all_pyramids() {
        for (i, piece) in PieceSet::Pyramids.pieces().iter().enumerate() {
            assert_eq!(piece.index(), i);
            assert_eq!(Piece::from_index(i), *piece);
        }
    }

    #[test]
    fn arrows_are_the_small_pyramids() {
        for a in PieceSet::Arrows.pieces() {
            assert!(PieceSet::Pyramids.contains(*a));
            assert_eq!(a.size, Size::Small);
        }
        assert!(!PieceSet::Arrows.contains(Piece::new(Size::Large, Direction::Up)));
    }

    #[test]
    fn opposite_and_delta_agree() {
        for d in Direction::ALL {
            let (r, c) = d.delta();
            let (r2, c2) = d.opposite().delta();
            assert_eq!((r + r2, c + c2), (0, 0));
            assert_eq!(d.opposite().opposite(), d);
            assert_eq!(d.is_vertical(), c == 0);
        }
    }
}
