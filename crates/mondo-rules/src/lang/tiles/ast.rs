//! The statement AST: first-order logic with counting over the tiles of one subset,
//! and over its regions (rows, columns, 2x2 squares, each cut down to the subset).
//!
//! It shares the pattern language's connectives, comparisons, parity, spans and
//! variables ([`BinOp`], [`CmpOp`], [`Parity`], [`Span`], [`Var`]); only the
//! vocabulary (colours, places, relations, regions) is the tiles' own. Both the
//! English and the symbolic form read into this tree. The meaning of every atom is
//! defined once, here ([`Relation::holds`], [`Place::holds`], [`RegionKind`]).

pub use crate::lang::ast::{BinOp, CmpOp, Parity, Span, Var};

use super::cells::{Cell, Colour};

/// The seed's word limit on a statement (a host setting): the checker counts the
/// player's words against it, and the printer says bare numbers over it.
pub const MAX_WORDS: usize = 15;

/// A statement together with the text it was read from.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Statement {
    pub source: String,
    pub formula: Formula,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Formula {
    pub span: Span,
    pub kind: FormulaKind,
}

impl Formula {
    pub fn new(span: Span, kind: FormulaKind) -> Formula {
        Formula { span, kind }
    }
}

/// What a tile variable ranges over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Domain {
    /// The tiles of the subset.
    Subset,
    /// The tiles of the region bound to this (region) variable.
    In(Var),
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum FormulaKind {
    Bool(bool),
    Not(Box<Formula>),
    Bin(BinOp, Box<Formula>, Box<Formula>),
    /// For every tile x of the domain: body.
    Forall(Var, Domain, Box<Formula>),
    /// For some tile x of the domain: body.
    Exists(Var, Domain, Box<Formula>),
    /// For every region s of the kind (that the subset has): body.
    ForallRegion(Var, RegionKind, Box<Formula>),
    /// For some region s of the kind: body.
    ExistsRegion(Var, RegionKind, Box<Formula>),
    /// `red(x)`.
    Colour(Colour, Var),
    /// `leftmost(x)`: a property of the tile's place in the subset.
    Place(Place, Var),
    /// `orth_adjacent(x, y)`.
    Rel(Relation, Var, Var),
    /// The two variables denote the same tile (`x = y`); `x != y` is `Not(Same)`.
    Same(Var, Var),
    Cmp(CmpOp, Term, Term),
    Parity(Parity, Term),
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Term {
    pub span: Span,
    pub kind: TermKind,
}

impl Term {
    pub fn new(span: Span, kind: TermKind) -> Term {
        Term { span, kind }
    }
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum TermKind {
    Int(i64),
    /// `count(x: F)` / `count(x in s: F)`.
    Count(Var, Domain, Box<Formula>),
    /// `tiles`: the subset's size.
    Tiles,
    /// `colours`: how many different colours the subset shows.
    Colours,
    /// `colours(s)`: how many different colours the tiles of the region s show.
    ColoursIn(Var),
    Add(Box<Term>, Box<Term>),
    Sub(Box<Term>, Box<Term>),
    /// `k * t`: a term times an integer (`half of the tiles`, `twice as many`).
    Mul(i64, Box<Term>),
}

/// Regions of the board, each cut down to the subset's tiles. A row or column
/// counts when the subset has a tile in it; a 2x2 square only when all four of its
/// tiles are in the subset (docs/tiles.md, "Regions").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum RegionKind {
    Row,
    Column,
    Square,
}

impl RegionKind {
    pub const ALL: [RegionKind; 3] = [RegionKind::Row, RegionKind::Column, RegionKind::Square];

    /// The symbolic name (`row`, `column`, `square`).
    pub fn name(self) -> &'static str {
        match self {
            RegionKind::Row => "row",
            RegionKind::Column => "column",
            RegionKind::Square => "square",
        }
    }

    /// The English noun, singular.
    pub fn noun(self) -> &'static str {
        match self {
            RegionKind::Row => "row",
            RegionKind::Column => "column",
            RegionKind::Square => "2x2 square",
        }
    }

    /// The board's regions of this kind, as their cells (before cutting down).
    pub fn board_regions(self) -> Vec<Vec<Cell>> {
        let cell = |row: u8, col: u8| Cell { row, col };
        match self {
            RegionKind::Row => (0..4)
                .map(|r| (0..4).map(|c| cell(r, c)).collect())
                .collect(),
            RegionKind::Column => (0..4)
                .map(|c| (0..4).map(|r| cell(r, c)).collect())
                .collect(),
            RegionKind::Square => (0..3)
                .flat_map(|r| {
                    (0..3).map(move |c| {
                        vec![
                            cell(r, c),
                            cell(r, c + 1),
                            cell(r + 1, c),
                            cell(r + 1, c + 1),
                        ]
                    })
                })
                .collect(),
        }
    }
}

/// Properties of a tile's place among the subset's tiles (they do not depend on
/// colours, so a statement made only of them involves no tile).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Place {
    /// No tile of the subset is in a higher row.
    Topmost,
    Bottommost,
    /// No tile of the subset is in a column further left.
    Leftmost,
    Rightmost,
    /// The tile at these coordinates (`C4`), named by the player: in the subset, one
    /// tile; outside it, none (the umpire refuses such a statement).
    At(Cell),
    /// In the row of this index (`row B`: 1), named by the player; a row the subset
    /// has no tile in is refused, as a tile outside it is.
    Row(u8),
    /// In the column of this index (`column 2`: 1).
    Column(u8),
    /// At an end of the subset's one row (or column): leftmost or rightmost, and
    /// topmost or bottommost. On a subset in one row that is the row's two ends; the
    /// umpire refuses it on any other subset (corners are not ends).
    End,
}

impl Place {
    pub const ALL: [Place; 4] = [
        Place::Topmost,
        Place::Bottommost,
        Place::Leftmost,
        Place::Rightmost,
    ];

    /// The word for the place (`topmost`), or the tile's coordinates (`C4`).
    pub fn name(self) -> std::borrow::Cow<'static, str> {
        match self {
            Place::Topmost => "topmost".into(),
            Place::Bottommost => "bottommost".into(),
            Place::Leftmost => "leftmost".into(),
            Place::Rightmost => "rightmost".into(),
            Place::At(c) => c.to_string().into(),
            Place::Row(r) => format!("in_row_{}", (b'A' + r) as char).into(),
            Place::Column(c) => format!("in_column_{}", c + 1).into(),
            Place::End => "end".into(),
        }
    }

    pub fn from_name(w: &str) -> Option<Place> {
        let line = |prefix: &str| {
            let rest = w.get(..prefix.len())?.eq_ignore_ascii_case(prefix);
            rest.then(|| w[prefix.len()..].to_ascii_uppercase())
        };
        if let Some(r) = line("in_row_") {
            return Place::row_named(&r);
        }
        if let Some(c) = line("in_column_") {
            return Place::column_named(&c);
        }
        if w == "end" {
            return Some(Place::End);
        }
        Place::ALL
            .into_iter()
            .find(|p| p.name() == w)
            .or_else(|| w.parse::<Cell>().ok().map(Place::At))
    }

    /// The row a letter names (`B`, `b`): A-D.
    pub fn row_named(w: &str) -> Option<Place> {
        match w.as_bytes() {
            [r @ (b'A'..=b'D' | b'a'..=b'd')] => Some(Place::Row(r.to_ascii_uppercase() - b'A')),
            _ => None,
        }
    }

    /// The column a number names (`2`): 1-4.
    pub fn column_named(w: &str) -> Option<Place> {
        match w.as_bytes() {
            [c @ b'1'..=b'4'] => Some(Place::Column(c - b'1')),
            _ => None,
        }
    }

    /// Whether English says the place before the noun (`a topmost tile`, `a C4
    /// tile`) rather than after it (`a tile in row B`).
    pub fn adjective(self) -> bool {
        !matches!(self, Place::Row(_) | Place::Column(_))
    }

    /// The place in English after `is` or a noun: `topmost`, `C4`, `in row B`.
    pub fn words(self) -> std::borrow::Cow<'static, str> {
        match (self, self.line()) {
            (_, Some(line)) => format!("in {line}").into(),
            (Place::End, _) => "at an end".into(),
            _ => self.name(),
        }
    }

    /// A named row or column as English names it (`row B`, `column 2`); `None` for
    /// any other place.
    pub fn line(self) -> Option<String> {
        match self {
            Place::Row(r) => Some(format!("row {}", (b'A' + r) as char)),
            Place::Column(c) => Some(format!("column {}", c + 1)),
            _ => None,
        }
    }

    /// A named row or column no tile of `cells` is in (`row B` of a subset in rows
    /// C and D): the words for it.
    pub fn missing_line(self, cells: &[Cell]) -> Option<String> {
        let line = self.line()?;
        (!cells.iter().any(|c| self.holds(*c, cells))).then_some(line)
    }

    /// The index of one of the four relative places in [`Place::ALL`]; `None` for a
    /// tile named by its coordinates.
    pub fn index(self) -> Option<usize> {
        Place::ALL.iter().position(|p| *p == self)
    }

    /// Whether the tile at `c` has this place among `cells`.
    pub fn holds(self, c: Cell, cells: &[Cell]) -> bool {
        match self {
            Place::Topmost => cells.iter().all(|o| o.row >= c.row),
            Place::Bottommost => cells.iter().all(|o| o.row <= c.row),
            Place::Leftmost => cells.iter().all(|o| o.col >= c.col),
            Place::Rightmost => cells.iter().all(|o| o.col <= c.col),
            Place::At(at) => c == at,
            Place::Row(r) => c.row == r,
            Place::Column(k) => c.col == k,
            Place::End => {
                let holds = |p: Place| p.holds(c, cells);
                (holds(Place::Leftmost) || holds(Place::Rightmost))
                    && (holds(Place::Topmost) || holds(Place::Bottommost))
            }
        }
    }
}

/// Relations between two tiles. The positional ones are irreflexive by their
/// meaning; `same_row`, `same_column` and `same_colour` hold of a tile and itself,
/// so the English reader adds `y != x` to their objects (an object is never its
/// own subject, as in Zendo).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Relation {
    /// One of the 8 neighbours.
    Adjacent,
    /// Shares an edge.
    OrthAdjacent,
    /// Shares a corner only.
    DiagAdjacent,
    SameRow,
    SameColumn,
    SameColour,
    /// In a higher row (any column): said back as `in a higher row than`.
    Above,
    Below,
    /// In a column further left (any row): `in a column further left than`.
    LeftOf,
    RightOf,
    /// In the same column, in a higher row (any distance): `directly above`.
    DirectlyAbove,
    DirectlyBelow,
    /// In the same row, in a column further left (any distance).
    DirectlyLeftOf,
    DirectlyRightOf,
}

impl Relation {
    pub const ALL: [Relation; 14] = [
        Relation::Adjacent,
        Relation::OrthAdjacent,
        Relation::DiagAdjacent,
        Relation::SameRow,
        Relation::SameColumn,
        Relation::SameColour,
        Relation::Above,
        Relation::Below,
        Relation::LeftOf,
        Relation::RightOf,
        Relation::DirectlyAbove,
        Relation::DirectlyBelow,
        Relation::DirectlyLeftOf,
        Relation::DirectlyRightOf,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Relation::Adjacent => "adjacent",
            Relation::OrthAdjacent => "orth_adjacent",
            Relation::DiagAdjacent => "diag_adjacent",
            Relation::SameRow => "same_row",
            Relation::SameColumn => "same_column",
            Relation::SameColour => "same_colour",
            Relation::Above => "above",
            Relation::Below => "below",
            Relation::LeftOf => "left_of",
            Relation::RightOf => "right_of",
            Relation::DirectlyAbove => "directly_above",
            Relation::DirectlyBelow => "directly_below",
            Relation::DirectlyLeftOf => "directly_left_of",
            Relation::DirectlyRightOf => "directly_right_of",
        }
    }

    pub fn from_name(w: &str) -> Option<Relation> {
        let w = if w == "same_color" { "same_colour" } else { w };
        Relation::ALL.into_iter().find(|r| r.name() == w)
    }

    /// Whether `r(a, b)` always equals `r(b, a)`.
    pub fn symmetric(self) -> bool {
        matches!(
            self,
            Relation::Adjacent
                | Relation::OrthAdjacent
                | Relation::DiagAdjacent
                | Relation::SameRow
                | Relation::SameColumn
                | Relation::SameColour
        )
    }

    /// The relation with its tiles swapped (`above` for `below`).
    pub fn converse(self) -> Relation {
        match self {
            Relation::Above => Relation::Below,
            Relation::Below => Relation::Above,
            Relation::LeftOf => Relation::RightOf,
            Relation::RightOf => Relation::LeftOf,
            Relation::DirectlyAbove => Relation::DirectlyBelow,
            Relation::DirectlyBelow => Relation::DirectlyAbove,
            Relation::DirectlyLeftOf => Relation::DirectlyRightOf,
            Relation::DirectlyRightOf => Relation::DirectlyLeftOf,
            other => other,
        }
    }

    /// Whether the relation holds of a tile and itself.
    pub fn reflexive(self) -> bool {
        matches!(
            self,
            Relation::SameRow | Relation::SameColumn | Relation::SameColour
        )
    }

    /// The meaning of the positional relations (everything but `same_colour`).
    pub fn holds_at(self, a: Cell, b: Cell) -> bool {
        let (dr, dc) = (a.row.abs_diff(b.row), a.col.abs_diff(b.col));
        match self {
            Relation::Adjacent => dr.max(dc) == 1,
            Relation::OrthAdjacent => dr + dc == 1,
            Relation::DiagAdjacent => dr == 1 && dc == 1,
            Relation::SameRow => a.row == b.row,
            Relation::SameColumn => a.col == b.col,
            Relation::SameColour => false,
            Relation::Above => a.row < b.row,
            Relation::Below => a.row > b.row,
            Relation::LeftOf => a.col < b.col,
            Relation::RightOf => a.col > b.col,
            Relation::DirectlyAbove => a.col == b.col && a.row < b.row,
            Relation::DirectlyBelow => a.col == b.col && a.row > b.row,
            Relation::DirectlyLeftOf => a.row == b.row && a.col < b.col,
            Relation::DirectlyRightOf => a.row == b.row && a.col > b.col,
        }
    }
}

/// Whether a formula mentions a region kind anywhere.
pub fn mentions_region(f: &Formula, kind: RegionKind) -> bool {
    let mut found = false;
    visit(f, &mut |g| {
        if let FormulaKind::ForallRegion(_, k, _) | FormulaKind::ExistsRegion(_, k, _) = &g.kind {
            found |= *k == kind;
        }
    });
    found
}

/// Calls `f` on every formula node, terms' formulas included.
pub fn visit(f: &Formula, each: &mut dyn FnMut(&Formula)) {
    each(f);
    match &f.kind {
        FormulaKind::Not(a)
        | FormulaKind::Forall(_, _, a)
        | FormulaKind::Exists(_, _, a)
        | FormulaKind::ForallRegion(_, _, a)
        | FormulaKind::ExistsRegion(_, _, a) => visit(a, each),
        FormulaKind::Bin(_, a, b) => {
            visit(a, each);
            visit(b, each);
        }
        FormulaKind::Cmp(_, s, t) => {
            visit_term(s, each);
            visit_term(t, each);
        }
        FormulaKind::Parity(_, t) => visit_term(t, each),
        _ => {}
    }
}

fn visit_term(t: &Term, each: &mut dyn FnMut(&Formula)) {
    match &t.kind {
        TermKind::Count(_, _, f) => visit(f, each),
        TermKind::Add(a, b) | TermKind::Sub(a, b) => {
            visit_term(a, each);
            visit_term(b, each);
        }
        TermKind::Mul(_, a) => visit_term(a, each),
        _ => {}
    }
}
