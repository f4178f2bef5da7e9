//! Where a subset's tiles are: the relations between their places, the places, and
//! the regions cut down to the subset, as bit masks over the subset's tiles. They do
//! not depend on colours, so both evaluators ([`super::eval`], one colouring at a
//! time, and [`super::table`], every colouring at once) read them from here.

use super::ast::{Place, RegionKind, Relation};
use super::cells::{Cell, Subset};

/// The most tiles a subset may have for the exact checks (4^8 colourings).
pub const MAX_CHECKED: usize = 8;

/// The subset's places, relations and regions.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub(super) cells: Vec<Cell>,
    /// `rel[r][i]`: the tiles j with `r(i, j)` (positional relations only).
    pub(super) rel: Vec<Vec<u16>>,
    /// `rel_inv[r][j]`: the tiles i with `r(i, j)`.
    pub(super) rel_inv: Vec<Vec<u16>>,
    /// `place[p]`: the tiles with that place.
    pub(super) place: [u16; 4],
    /// Every region's tiles; `kinds[k]` is the range of `regions` of kind k.
    pub(super) regions: Vec<u16>,
    pub(super) kinds: [std::ops::Range<usize>; 3],
}

impl Geometry {
    pub fn new(subset: &Subset) -> Geometry {
        let cells = subset.cells().to_vec();
        let mask = |f: &dyn Fn(Cell) -> bool| {
            cells
                .iter()
                .enumerate()
                .filter(|(_, c)| f(**c))
                .fold(0u16, |m, (j, _)| m | 1 << j)
        };
        let rel = Relation::ALL
            .iter()
            .map(|r| cells.iter().map(|a| mask(&|b| r.holds_at(*a, b))).collect())
            .collect();
        let rel_inv = Relation::ALL
            .iter()
            .map(|r| cells.iter().map(|b| mask(&|a| r.holds_at(a, *b))).collect())
            .collect();
        let place = Place::ALL.map(|p| mask(&|c| p.holds(c, &cells)));
        let mut regions = Vec::new();
        let mut kinds = [0..0, 0..0, 0..0];
        for (k, kind) in RegionKind::ALL.into_iter().enumerate() {
            let start = regions.len();
            for region in kind.board_regions() {
                let inside = region.iter().filter(|c| subset.contains(**c)).count();
                let counts = match kind {
                    RegionKind::Square => inside == region.len(),
                    _ => inside > 0,
                };
                if counts {
                    regions.push(mask(&|c| region.contains(&c)));
                }
            }
            kinds[k] = start..regions.len();
        }
        Geometry {
            cells,
            rel,
            rel_inv,
            place,
            regions,
            kinds,
        }
    }

    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// How many regions of the kind the subset has.
    pub fn region_count(&self, kind: RegionKind) -> usize {
        self.kinds[kind as usize].len()
    }

    /// The tiles of the subset that lie in no region of the kind.
    pub fn outside(&self, kind: RegionKind) -> Vec<Cell> {
        let covered = self.regions[self.kinds[kind as usize].clone()]
            .iter()
            .fold(0u16, |m, r| m | r);
        self.cells
            .iter()
            .enumerate()
            .filter(|(i, _)| covered & (1 << i) == 0)
            .map(|(_, c)| *c)
            .collect()
    }

    /// The indices into the regions of the kind.
    pub(super) fn region_range(&self, kind: RegionKind) -> std::ops::Range<usize> {
        self.kinds[kind as usize].clone()
    }

    /// The tiles of region r (none for an index out of range).
    pub(super) fn region_tiles(&self, r: usize) -> u16 {
        self.regions.get(r).copied().unwrap_or(0)
    }

    /// Whether tile i has the place.
    pub(super) fn has_place(&self, p: Place, i: usize) -> bool {
        self.place_mask(p) & (1 << i) != 0
    }

    /// The tiles with the place: one or none for a tile named by its coordinates, those
    /// of the subset in it for a named row or column.
    pub(super) fn place_mask(&self, p: Place) -> u16 {
        match p.index() {
            Some(k) => self.place[k],
            None => self
                .cells
                .iter()
                .enumerate()
                .filter(|(_, c)| p.holds(**c, &self.cells))
                .fold(0, |m, (j, _)| m | 1 << j),
        }
    }

    /// Whether the positional relation holds from tile i to tile j.
    pub(super) fn related(&self, r: Relation, i: usize, j: usize) -> bool {
        self.rel[r as usize]
            .get(i)
            .is_some_and(|m| m & (1 << j) != 0)
    }
}
