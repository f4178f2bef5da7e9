//! The pattern AST: first-order logic over the pieces of one structure, with counting.
//!
//! Both the English and the symbolic form parse into this one tree
//! (docs/patterns.md). Every node carries the byte span of the source
//! text it came from, so errors and read-backs can point at words. Nodes that a parser
//! synthesises (the implicit `x != y` of "another piece", say) carry the span of the
//! words that caused them.
//!
//! Variables range over the pieces of the structure. The meaning of every atom is
//! defined here, once, by [`UnaryPred::holds`] and [`BinaryPred::holds`]: the
//! evaluator and the SAT finder both use these definitions, so they cannot disagree.

use crate::koan::{Direction, Koan, Piece, Pos, Size};
use std::ops::Range;

/// Byte range in the source text.
pub type Span = Range<usize>;

/// A bound variable. Quantifiers introduce them; printers name them `x y z w u v ...`
/// by index, so index 0 prints as `x`. Indices only need to be unique along a path
/// from the root (a quantifier may rebind an index that is not free in its body).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Var(pub u8);

/// A closed formula together with the text it was read from.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Pattern {
    /// The text as the player or host wrote it.
    pub source: String,
    pub formula: Formula,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Formula {
    pub span: Span,
    pub kind: FormulaKind,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum FormulaKind {
    /// `true` / `false`.
    Bool(bool),
    Not(Box<Formula>),
    Bin(BinOp, Box<Formula>, Box<Formula>),
    /// For every piece x: body.
    Forall(Var, Box<Formula>),
    /// For some piece x: body.
    Exists(Var, Box<Formula>),
    /// A property of one piece: `small(x)`, `topmost(x)`.
    Unary(UnaryPred, Var),
    /// A relation between two pieces: `touches(x, y)`.
    Binary(BinaryPred, Var, Var),
    /// The two variables denote the same piece (`x = y`); `x != y` is `Not(Same)`.
    Same(Var, Var),
    /// A comparison of two number terms.
    Cmp(CmpOp, Term, Term),
    /// `odd(t)` / `even(t)`.
    Parity(Parity, Term),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum BinOp {
    And,
    Or,
    /// Exclusive or: `either S or S but not both`, `^`.
    Xor,
    /// `if S then S`, `->`.
    Implies,
    /// `S iff S`, `<->`.
    Iff,
}

impl BinOp {
    /// Binding strength in the symbolic form, loosest first: `<->` 1, `->` 2, `|` 3,
    /// `^` 4, `&` 5 (`!` and atoms bind tighter). Both languages' readers and
    /// printers follow it.
    pub fn level(self) -> u8 {
        match self {
            BinOp::Iff => 1,
            BinOp::Implies => 2,
            BinOp::Or => 3,
            BinOp::Xor => 4,
            BinOp::And => 5,
        }
    }

    /// The truth of `a op b`, both sides known (an evaluator that may skip `b` says
    /// so itself).
    pub fn holds(self, a: bool, b: bool) -> bool {
        match self {
            BinOp::And => a && b,
            BinOp::Or => a || b,
            BinOp::Xor => a != b,
            BinOp::Implies => !a || b,
            BinOp::Iff => a == b,
        }
    }

    /// The symbolic connective: `<->`, `->`, `|`, `^`, `&`.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Iff => "<->",
            BinOp::Implies => "->",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::And => "&",
        }
    }

    /// The loosest level each operand may have unparenthesised: `->` is right
    /// associative, the others left.
    pub fn operand_levels(self) -> (u8, u8) {
        let l = self.level();
        if self == BinOp::Implies {
            (l + 1, l)
        } else {
            (l, l + 1)
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Parity {
    Odd,
    Even,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub const ALL: [CmpOp; 6] = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ];

    pub fn holds<N: Ord>(self, a: N, b: N) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Term {
    pub span: Span,
    pub kind: TermKind,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum TermKind {
    Int(i64),
    /// `count(x: F)`: the number of pieces x for which F holds.
    Count(Var, Box<Formula>),
    /// `pips(x: F)`: the total pips of the pieces x for which F holds.
    PipsSum(Var, Box<Formula>),
    /// `pips(x)`: the size of one piece.
    PipsOf(Var),
    /// `pieces`: the number of pieces in the structure.
    Pieces,
    /// `width` / `height`: of the bounding box.
    Width,
    Height,
    /// `groups`: the number of orthogonally connected components.
    Groups,
    /// `sizes` / `directions`: how many different sizes / directions are present.
    Sizes,
    Directions,
    Add(Box<Term>, Box<Term>),
    Sub(Box<Term>, Box<Term>),
    /// `k * t`: a term times an integer (`twice as many`, `half of`); see [`times`].
    Mul(i64, Box<Term>),
    /// `t % k`: the remainder of a term by an integer (`a multiple of k`); see
    /// [`remainder`].
    Mod(Box<Term>, i64),
}

/// The meaning of `k * t` (saturating, like `+` and `-`).
pub fn times(k: i64, t: i64) -> i64 {
    t.saturating_mul(k)
}

/// The meaning of `t % k`: the Euclidean remainder, in `0..|k|`, so that `t % k = 0`
/// says "t is a multiple of k" for negative `t` too; `t % 0` is `t` (every number is
/// its own remainder by zero, as in Euclid's algorithm). The readers only write
/// positive `k`; the rest is defined so that no tree is without a meaning.
pub fn remainder(t: i64, k: i64) -> i64 {
    match k {
        0 => t,
        // `i64::MIN % -1` overflows, but its remainder is 0.
        _ => t.checked_rem_euclid(k).unwrap_or(0),
    }
}

/// Properties of one piece. Some depend on the rest of the structure
/// (`topmost`, `largest`...): see [`UnaryPred::holds`].
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum UnaryPred {
    Small,
    Medium,
    Large,
    Up,
    Right,
    Down,
    Left,
    /// Up or down.
    Vertical,
    /// Left or right.
    Horizontal,
    /// No piece is strictly above it (in a row with a smaller index).
    Topmost,
    /// No piece is strictly below it.
    Bottommost,
    /// No piece is strictly left of it.
    Leftmost,
    /// No piece is strictly right of it.
    Rightmost,
    /// Its size equals the largest size present.
    Largest,
    /// Its size equals the smallest size present.
    Smallest,
}

impl UnaryPred {
    pub const ALL: [UnaryPred; 15] = [
        UnaryPred::Small,
        UnaryPred::Medium,
        UnaryPred::Large,
        UnaryPred::Up,
        UnaryPred::Right,
        UnaryPred::Down,
        UnaryPred::Left,
        UnaryPred::Vertical,
        UnaryPred::Horizontal,
        UnaryPred::Topmost,
        UnaryPred::Bottommost,
        UnaryPred::Leftmost,
        UnaryPred::Rightmost,
        UnaryPred::Largest,
        UnaryPred::Smallest,
    ];

    /// The symbolic name (`small`, `topmost`...).
    pub fn name(self) -> &'static str {
        match self {
            UnaryPred::Small => "small",
            UnaryPred::Medium => "medium",
            UnaryPred::Large => "large",
            UnaryPred::Up => "up",
            UnaryPred::Right => "right",
            UnaryPred::Down => "down",
            UnaryPred::Left => "left",
            UnaryPred::Vertical => "vertical",
            UnaryPred::Horizontal => "horizontal",
            UnaryPred::Topmost => "topmost",
            UnaryPred::Bottommost => "bottommost",
            UnaryPred::Leftmost => "leftmost",
            UnaryPred::Rightmost => "rightmost",
            UnaryPred::Largest => "largest",
            UnaryPred::Smallest => "smallest",
        }
    }

    /// Whether the predicate speaks of sizes (refused for the arrows set).
    pub fn mentions_size(self) -> bool {
        matches!(
            self,
            UnaryPred::Small
                | UnaryPred::Medium
                | UnaryPred::Large
                | UnaryPred::Largest
                | UnaryPred::Smallest
        )
    }

    /// Whether it depends only on the piece itself (not on its place or the others).
    pub fn is_local(self) -> bool {
        self.holds_on_piece(Piece::new(Size::Small, Direction::Up))
            .is_some()
    }

    /// The truth of a local predicate on a piece; `None` for the predicates that
    /// depend on the rest of the structure.
    pub fn holds_on_piece(self, p: Piece) -> Option<bool> {
        Some(match self {
            UnaryPred::Small => p.size == Size::Small,
            UnaryPred::Medium => p.size == Size::Medium,
            UnaryPred::Large => p.size == Size::Large,
            UnaryPred::Up => p.dir == Direction::Up,
            UnaryPred::Right => p.dir == Direction::Right,
            UnaryPred::Down => p.dir == Direction::Down,
            UnaryPred::Left => p.dir == Direction::Left,
            UnaryPred::Vertical => p.dir.is_vertical(),
            UnaryPred::Horizontal => !p.dir.is_vertical(),
            _ => return None,
        })
    }

    /// The reference meaning: does the predicate hold of piece number `i` of `koan`
    /// (an index into [`Koan::pieces`])? Clear rather than fast; the evaluator may
    /// precompute, but must agree with this.
    pub fn holds(self, koan: &Koan, i: usize) -> bool {
        let (pos, piece) = koan.pieces()[i];
        if let Some(b) = self.holds_on_piece(piece) {
            return b;
        }
        let others = koan.pieces().iter();
        match self {
            UnaryPred::Topmost => others.clone().all(|(q, _)| q.row >= pos.row),
            UnaryPred::Bottommost => others.clone().all(|(q, _)| q.row <= pos.row),
            UnaryPred::Leftmost => others.clone().all(|(q, _)| q.col >= pos.col),
            UnaryPred::Rightmost => others.clone().all(|(q, _)| q.col <= pos.col),
            UnaryPred::Largest => others.clone().all(|(_, q)| q.size <= piece.size),
            UnaryPred::Smallest => others.clone().all(|(_, q)| q.size >= piece.size),
            _ => unreachable!("local predicates are answered above"),
        }
    }
}

/// Relations between two pieces, subject first: `touches(x, y)` is "x touches y".
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum BinaryPred {
    /// y lies on the ray from x in x's direction, at any distance, through other pieces.
    PointsAt,
    /// Orthogonally adjacent (share an edge).
    Touches,
    /// x is in a row strictly above y's (any column).
    Above,
    Below,
    /// x is in a column strictly left of y's (any row).
    LeftOf,
    RightOf,
    /// Same column, x strictly above y (any distance).
    DirectlyAbove,
    DirectlyBelow,
    /// Same row, x strictly left of y (any distance).
    DirectlyLeftOf,
    DirectlyRightOf,
    /// Same row (true of a piece and itself).
    SameRow,
    SameColumn,
    /// Same size (true of a piece and itself).
    SameSize,
    SameDirection,
    OppositeDirection,
    /// x has more pips than y.
    Larger,
    Smaller,
}

impl BinaryPred {
    pub const ALL: [BinaryPred; 17] = [
        BinaryPred::PointsAt,
        BinaryPred::Touches,
        BinaryPred::Above,
        BinaryPred::Below,
        BinaryPred::LeftOf,
        BinaryPred::RightOf,
        BinaryPred::DirectlyAbove,
        BinaryPred::DirectlyBelow,
        BinaryPred::DirectlyLeftOf,
        BinaryPred::DirectlyRightOf,
        BinaryPred::SameRow,
        BinaryPred::SameColumn,
        BinaryPred::SameSize,
        BinaryPred::SameDirection,
        BinaryPred::OppositeDirection,
        BinaryPred::Larger,
        BinaryPred::Smaller,
    ];

    /// The symbolic name (`points_at`, `same_row`...).
    pub fn name(self) -> &'static str {
        match self {
            BinaryPred::PointsAt => "points_at",
            BinaryPred::Touches => "touches",
            BinaryPred::Above => "above",
            BinaryPred::Below => "below",
            BinaryPred::LeftOf => "left_of",
            BinaryPred::RightOf => "right_of",
            BinaryPred::DirectlyAbove => "directly_above",
            BinaryPred::DirectlyBelow => "directly_below",
            BinaryPred::DirectlyLeftOf => "directly_left_of",
            BinaryPred::DirectlyRightOf => "directly_right_of",
            BinaryPred::SameRow => "same_row",
            BinaryPred::SameColumn => "same_column",
            BinaryPred::SameSize => "same_size",
            BinaryPred::SameDirection => "same_direction",
            BinaryPred::OppositeDirection => "opposite_direction",
            BinaryPred::Larger => "larger",
            BinaryPred::Smaller => "smaller",
        }
    }

    /// Whether the relation speaks of sizes (refused for the arrows set).
    pub fn mentions_size(self) -> bool {
        matches!(
            self,
            BinaryPred::SameSize | BinaryPred::Larger | BinaryPred::Smaller
        )
    }

    /// Whether it can hold between a piece and itself. (The English reading excludes
    /// the subject from every object; beside the other relations that `x != y` adds
    /// nothing.)
    pub fn is_reflexive_possible(self) -> bool {
        matches!(
            self,
            BinaryPred::SameRow
                | BinaryPred::SameColumn
                | BinaryPred::SameSize
                | BinaryPred::SameDirection
        )
    }

    /// The reference meaning, from the two pieces and their cells alone (no relation
    /// depends on the rest of the structure). For the same cell it answers as for a
    /// piece and itself.
    pub fn holds(self, (a, p): (Pos, Piece), (b, q): (Pos, Piece)) -> bool {
        let (ar, ac, br, bc) = (a.row as i32, a.col as i32, b.row as i32, b.col as i32);
        match self {
            BinaryPred::PointsAt => match p.dir {
                Direction::Up => ac == bc && br < ar,
                Direction::Down => ac == bc && br > ar,
                Direction::Left => ar == br && bc < ac,
                Direction::Right => ar == br && bc > ac,
            },
            BinaryPred::Touches => (ar - br).abs() + (ac - bc).abs() == 1,
            BinaryPred::Above => ar < br,
            BinaryPred::Below => ar > br,
            BinaryPred::LeftOf => ac < bc,
            BinaryPred::RightOf => ac > bc,
            BinaryPred::DirectlyAbove => ac == bc && ar < br,
            BinaryPred::DirectlyBelow => ac == bc && ar > br,
            BinaryPred::DirectlyLeftOf => ar == br && ac < bc,
            BinaryPred::DirectlyRightOf => ar == br && ac > bc,
            BinaryPred::SameRow => ar == br,
            BinaryPred::SameColumn => ac == bc,
            BinaryPred::SameSize => p.size == q.size,
            BinaryPred::SameDirection => p.dir == q.dir,
            BinaryPred::OppositeDirection => p.dir == q.dir.opposite(),
            BinaryPred::Larger => p.size > q.size,
            BinaryPred::Smaller => p.size < q.size,
        }
    }
}

impl TermKind {
    /// The reference meaning of the structure-wide terms (`pieces`, `width`,
    /// `height`, `groups`, `sizes`, `directions`); `None` for the others.
    pub fn global_value(&self, koan: &Koan) -> Option<i64> {
        Some(match self {
            TermKind::Pieces => koan.len() as i64,
            TermKind::Width => koan.width() as i64,
            TermKind::Height => koan.height() as i64,
            TermKind::Groups => groups(koan) as i64,
            TermKind::Sizes => {
                let mut seen = [false; 4];
                koan.pieces()
                    .iter()
                    .for_each(|(_, p)| seen[p.size as usize] = true);
                seen.iter().filter(|s| **s).count() as i64
            }
            TermKind::Directions => {
                let mut seen = [false; 4];
                koan.pieces()
                    .iter()
                    .for_each(|(_, p)| seen[p.dir as usize] = true);
                seen.iter().filter(|s| **s).count() as i64
            }
            _ => return None,
        })
    }
}

/// Number of orthogonally connected groups of pieces.
pub fn groups(koan: &Koan) -> usize {
    let n = koan.len();
    let pieces = koan.pieces();
    let mut seen = vec![false; n];
    let mut count = 0;
    for start in 0..n {
        if seen[start] {
            continue;
        }
        count += 1;
        seen[start] = true;
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            for j in 0..n {
                if !seen[j] && BinaryPred::Touches.holds(pieces[i], pieces[j]) {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
    }
    count
}

impl Formula {
    pub fn new(span: Span, kind: FormulaKind) -> Formula {
        Formula { span, kind }
    }

    /// Its conjuncts (`conj`) or disjuncts, each with its polarity (false: the part is
    /// to be read negated), seeing through `!`, `->` and De Morgan: the conjuncts of
    /// `!(a -> b)` are `a` and `!b`.
    pub(crate) fn split(&self, conj: bool) -> Vec<(&Formula, bool)> {
        fn go<'a>(f: &'a Formula, conj: bool, negated: bool, out: &mut Vec<(&'a Formula, bool)>) {
            match &f.kind {
                FormulaKind::Not(a) => go(a, conj, !negated, out),
                // a & b: conjuncts when positive; negated, the disjuncts !a, !b.
                FormulaKind::Bin(BinOp::And, a, b) if conj != negated => {
                    go(a, conj, negated, out);
                    go(b, conj, negated, out);
                }
                FormulaKind::Bin(BinOp::Or, a, b) if conj == negated => {
                    go(a, conj, negated, out);
                    go(b, conj, negated, out);
                }
                // a -> b is !a | b: disjuncts when positive; negated, the conjuncts a, !b.
                FormulaKind::Bin(BinOp::Implies, a, b) if conj == negated => {
                    go(a, conj, !negated, out);
                    go(b, conj, negated, out);
                }
                _ => out.push((f, !negated)),
            }
        }
        let mut out = Vec::new();
        go(self, conj, false, &mut out);
        out
    }
}

impl Term {
    pub fn new(span: Span, kind: TermKind) -> Term {
        Term { span, kind }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::koan::PieceSet;

    #[test]
    fn remainders_are_euclidean_and_total() {
        assert_eq!(remainder(7, 3), 1);
        assert_eq!(remainder(-7, 3), 2);
        assert_eq!(remainder(7, -3), 1);
        assert_eq!(remainder(6, 3), 0);
        assert_eq!(remainder(5, 0), 5);
        assert_eq!(remainder(i64::MIN, -1), 0);
        assert_eq!(times(3, -4), -12);
        assert_eq!(times(2, i64::MAX), i64::MAX);
    }

    fn koan(cells: &[(i32, i32, Size, Direction)]) -> Koan {
        Koan::new(
            PieceSet::Pyramids,
            cells.iter().map(|&(r, c, s, d)| (r, c, Piece::new(s, d))),
        )
        .unwrap()
    }

    #[test]
    fn pointing_is_a_ray_through_other_pieces() {
        use Direction::*;
        use Size::*;
        // 1> 2^ 3<   : the first points at both others, the last at both others.
        let k = koan(&[
            (0, 0, Small, Right),
            (0, 1, Medium, Up),
            (0, 2, Large, Left),
        ]);
        let ps = k.pieces();
        assert!(BinaryPred::PointsAt.holds(ps[0], ps[2]));
        assert!(BinaryPred::PointsAt.holds(ps[2], ps[0]));
        assert!(!BinaryPred::PointsAt.holds(ps[1], ps[0]));
        assert!(!BinaryPred::PointsAt.holds(ps[0], ps[0]));
    }

    #[test]
    fn extremes_and_groups() {
        use Direction::*;
        use Size::*;
        // 2^ .. 1^
        // .. .. 3v
        let k = koan(&[(0, 0, Medium, Up), (0, 2, Small, Up), (1, 2, Large, Down)]);
        assert!(UnaryPred::Topmost.holds(&k, 0) && UnaryPred::Topmost.holds(&k, 1));
        assert!(!UnaryPred::Topmost.holds(&k, 2));
        assert!(UnaryPred::Largest.holds(&k, 2) && !UnaryPred::Largest.holds(&k, 0));
        assert_eq!(groups(&k), 2);
        assert_eq!(TermKind::Sizes.global_value(&k), Some(3));
        assert_eq!(TermKind::Directions.global_value(&k), Some(2));
    }
}
