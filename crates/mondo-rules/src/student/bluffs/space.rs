//! The layouts a seat still believes possible, as one bit per assignment.
//!
//! The board has 16 tiles of 4 colours: 4^16 layouts, too many to hold. Most of them
//! differ only in tiles nothing has been said about, and those are independent and
//! uniform. So the space keeps a bit set over the assignments of the *constrained*
//! tiles only: the unknown tiles some applied fact speaks of (its digits). Assignment
//! `a` gives digit `i` the colour `(a >> 2i) & 3` ([`Colour::ALL`] order), and bit `a`
//! is set when every applied fact holds. Known tiles are no digits (a reveal slices
//! its digit away); the other unknown tiles are free, each of any colour.
//!
//! With the default four known tiles there are at most 12 digits: 4^12 bits, 2 MB.
//! A fact that would need more than the space's limit waits ([`Applied::Deferred`])
//! until reveals shrink it.
//!
//! A fact is applied word by word: the three lowest digits are the 64 bits of a word,
//! so the fact's verdicts for every value of its higher digits are 64-bit masks,
//! computed once, and each word is one look-up and an AND.

use crate::lang::tiles::{Cell, Colour, Layout};

/// The board's tiles.
const TILES: usize = 16;
/// The digits inside one 64-bit word.
const LOW: usize = 3;
/// The most digits a space holds: 4^13 bits are 8 MB (the word index then has 20
/// bits, which the three byte tables of [`Gather`] cover).
pub const MAX_DIGITS: usize = 13;

/// What became of a fact offered to the space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    /// It now holds in every assignment kept.
    Applied,
    /// It needs more digits than the limit allows: offer it again later.
    Deferred,
    /// No layout kept satisfies it (only a wrong observation can cause this): ignored.
    Contradiction,
}

/// The consistent layouts.
#[derive(Clone, Debug)]
pub struct Space {
    /// The board index of each digit.
    digits: Vec<u8>,
    /// One bit per assignment of the digits (at least one word).
    bits: Vec<u64>,
    known: [Option<u8>; TILES],
    max_digits: usize,
}

impl Space {
    /// Every layout, with at most `max_digits` constrained unknown tiles held.
    pub fn new(max_digits: usize) -> Space {
        Space {
            digits: Vec::new(),
            bits: vec![1],
            known: [None; TILES],
            max_digits: max_digits.min(MAX_DIGITS),
        }
    }

    /// Assignments of the digits.
    fn entries(&self) -> usize {
        1usize << (2 * self.digits.len())
    }

    /// The colour of a known tile.
    pub fn known(&self, cell: Cell) -> Option<Colour> {
        self.known[cell.index()].map(|c| Colour::from_index(c as usize))
    }

    /// The constrained unknown tiles, as the space holds them.
    pub fn digits(&self) -> usize {
        self.digits.len()
    }

    /// Unknown tiles no applied fact speaks of.
    pub fn free(&self) -> usize {
        (0..TILES)
            .filter(|&i| self.known[i].is_none() && !self.digits.contains(&(i as u8)))
            .count()
    }

    /// Consistent assignments of the digits.
    pub fn count(&self) -> u64 {
        self.bits.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// Consistent layouts of the whole board (the free tiles each take any colour).
    pub fn layouts(&self) -> f64 {
        self.count() as f64 * 4f64.powi(self.free() as i32)
    }

    /// A tile's colour is now known (a starting tile, or a reveal).
    pub fn fix(&mut self, cell: Cell, colour: Colour) {
        let i = cell.index();
        if self.known[i].is_some() {
            return;
        }
        let c = colour.index() as u64;
        self.known[i] = Some(c as u8);
        let Some(d) = self.digits.iter().position(|x| *x as usize == i) else {
            return;
        };
        let old = self.bits.clone();
        let n_old = self.entries();
        self.digits.remove(d);
        let n = self.entries();
        let mut bits = vec![0u64; n.div_ceil(64).max(1)];
        let low_mask = (1usize << (2 * d)) - 1;
        for (j, w) in bits.iter_mut().enumerate().take(n.div_ceil(64)) {
            let mut word = 0u64;
            for b in 0..64.min(n - 64 * j) {
                let a = 64 * j + b;
                let old_a = (a & low_mask) | ((c as usize) << (2 * d)) | ((a & !low_mask) << 2);
                debug_assert!(old_a < n_old);
                word |= (old[old_a / 64] >> (old_a % 64) & 1) << b;
            }
            *w = word;
        }
        if self.bits_empty(&bits) {
            // Only a wrong observation empties the space: keep what was believed.
            self.digits.insert(d, i as u8);
            self.known[i] = None;
            return;
        }
        self.bits = bits;
    }

    fn bits_empty(&self, bits: &[u64]) -> bool {
        bits.iter().all(|w| *w == 0)
    }

    /// Adds a digit for `cell` at the top: every assignment, with each colour of it.
    fn extend(&mut self, cell: u8) {
        let n = self.entries();
        self.digits.push(cell);
        if n >= 64 {
            let words = self.bits.clone();
            for _ in 0..3 {
                self.bits.extend_from_slice(&words);
            }
        } else {
            // At most two digits: the result (4n <= 64 bits) is still one word.
            let w = self.bits[0];
            self.bits = vec![(0..4).fold(0u64, |out, k| out | w << (k * n))];
        }
    }

    /// Applies a fact about the tiles of `scope`: `holds` gets their colours (in scope
    /// order) and says whether the fact is true of them.
    pub fn constrain(&mut self, scope: &[Cell], holds: &dyn Fn(&[u8]) -> bool) -> Applied {
        let unknown: Vec<u8> = scope
            .iter()
            .map(|c| c.index() as u8)
            .filter(|i| self.known[*i as usize].is_none())
            .collect();
        let fresh = unknown.iter().filter(|i| !self.digits.contains(i)).count();
        if self.digits.len() + fresh > self.max_digits {
            return Applied::Deferred;
        }
        // The fact over its unknown tiles: bit f for their colours f.
        let u = unknown.len();
        let mut colours: Vec<u8> = scope
            .iter()
            .map(|c| self.known[c.index()].unwrap_or(0))
            .collect();
        let slots: Vec<usize> = scope
            .iter()
            .enumerate()
            .filter(|(_, c)| self.known[c.index()].is_none())
            .map(|(k, _)| k)
            .collect();
        let allowed: Vec<bool> = (0..1usize << (2 * u))
            .map(|f| {
                for (j, s) in slots.iter().enumerate() {
                    colours[*s] = (f >> (2 * j) & 3) as u8;
                }
                holds(&colours)
            })
            .collect();
        if !allowed.iter().any(|a| *a) {
            return Applied::Contradiction;
        }
        let saved = (self.digits.clone(), self.bits.clone());
        for cell in &unknown {
            if !self.digits.contains(cell) {
                self.extend(*cell);
            }
        }
        let positions: Vec<usize> = unknown
            .iter()
            .map(|c| self.digits.iter().position(|d| d == c).unwrap_or(0))
            .collect();
        let gather = Gather::new(&positions, self.digits.len());
        let masks: Vec<u64> = gather
            .high_index()
            .into_iter()
            .map(|fh| {
                let mut m = 0u64;
                for (b, lo) in gather.low.iter().enumerate() {
                    if allowed[fh | lo] {
                        m |= 1 << b;
                    }
                }
                m
            })
            .collect();
        let live = self.live_mask();
        for (w, word) in self.bits.iter_mut().enumerate() {
            *word &= masks[gather.high_rank(w)] & live;
        }
        if self.count() == 0 {
            (self.digits, self.bits) = saved;
            return Applied::Contradiction;
        }
        Applied::Applied
    }

    /// The bits of a word that are assignments (all of them past three digits).
    fn live_mask(&self) -> u64 {
        let n = self.entries();
        if n >= 64 { !0 } else { (1u64 << n) - 1 }
    }

    /// How many consistent assignments give `cells` each colouring: entry `k` for
    /// colouring `k` of the cells that are digits (cell j of them takes `(k >> 2j) & 3`),
    /// with the digits among `cells` returned in the order used.
    pub fn histogram(&self, cells: &[Cell]) -> (Vec<Cell>, Vec<u64>) {
        let held: Vec<Cell> = cells
            .iter()
            .copied()
            .filter(|c| self.digits.contains(&(c.index() as u8)))
            .collect();
        let positions: Vec<usize> = held
            .iter()
            .map(|c| {
                self.digits
                    .iter()
                    .position(|d| *d as usize == c.index())
                    .unwrap_or(0)
            })
            .collect();
        let gather = Gather::new(&positions, self.digits.len());
        let mut hist = vec![0u64; 1usize << (2 * held.len())];
        // The bits of a word grouped by their low digits' contribution.
        let mut groups: Vec<(usize, u64)> = Vec::new();
        for (b, lo) in gather.low.iter().enumerate() {
            match groups.iter_mut().find(|(v, _)| v == lo) {
                Some((_, m)) => *m |= 1 << b,
                None => groups.push((*lo, 1 << b)),
            }
        }
        let index = gather.high_index();
        for (w, word) in self.bits.iter().enumerate() {
            if *word == 0 {
                continue;
            }
            let base = index[gather.high_rank(w)];
            for (lo, mask) in &groups {
                let n = (word & mask).count_ones();
                if n > 0 {
                    hist[base | lo] += u64::from(n);
                }
            }
        }
        (held, hist)
    }

    /// Each tile's chance of each colour among the consistent layouts.
    pub fn marginals(&self) -> [[f64; 4]; TILES] {
        let mut out = [[0.25; 4]; TILES];
        for (i, m) in out.iter_mut().enumerate() {
            if let Some(c) = self.known[i] {
                *m = [0.0; 4];
                m[c as usize] = 1.0;
            }
        }
        let total = self.count() as f64;
        for &d in &self.digits {
            let Some(cell) = Cell::from_index(d as usize) else {
                continue;
            };
            let (_, hist) = self.histogram(&[cell]);
            for c in 0..4 {
                out[d as usize][c] = hist[c] as f64 / total;
            }
        }
        out
    }

    /// Up to `limit` consistent layouts, the free tiles red (so, exactly all of them
    /// when nothing is free).
    pub fn layouts_list(&self, limit: usize) -> Vec<Layout> {
        let mut out = Vec::new();
        for (w, word) in self.bits.iter().enumerate() {
            let mut m = *word & self.live_mask();
            while m != 0 && out.len() < limit {
                let b = m.trailing_zeros() as usize;
                m &= m - 1;
                out.push(self.layout_of(64 * w + b));
            }
        }
        out
    }

    fn layout_of(&self, a: usize) -> Layout {
        let mut colours = [Colour::Red; TILES];
        for (i, c) in colours.iter_mut().enumerate() {
            if let Some(k) = self.known[i] {
                *c = Colour::from_index(k as usize);
            }
        }
        for (j, d) in self.digits.iter().enumerate() {
            colours[*d as usize] = Colour::from_index(a >> (2 * j) & 3);
        }
        Layout(colours)
    }

    /// Drops one layout (a guess that was wrong), when nothing is free.
    pub fn exclude(&mut self, layout: &Layout) {
        if self.free() > 0 {
            return;
        }
        let mut a = 0usize;
        for (j, d) in self.digits.iter().enumerate() {
            let Some(cell) = Cell::from_index(*d as usize) else {
                return;
            };
            a |= layout.colour(cell).index() << (2 * j);
        }
        let consistent_known = (0..TILES).all(|i| {
            self.known[i].is_none_or(|k| {
                Cell::from_index(i).is_some_and(|c| layout.colour(c).index() == k as usize)
            })
        });
        if consistent_known && self.count() > 1 && a < self.entries() {
            self.bits[a / 64] &= !(1u64 << (a % 64));
        }
    }
}

/// Where a fact's (or a histogram's) digits sit in the space: `low[b]` is the
/// contribution of bit b of a word (the low digits), and the word's index gives the
/// rest through byte tables.
struct Gather {
    /// For each bit of a word: its low digits' contribution to the gathered index.
    low: Vec<usize>,
    /// Per byte of the word index: the contribution of its digits, as a rank among
    /// the high digits' values.
    bytes: [[usize; 256]; 3],
    /// The gathered index of each high rank: the high digits' contributions.
    high_shift: Vec<usize>,
}

impl Gather {
    /// `positions[j]` is the space digit that becomes gathered digit j; `digits` is
    /// the space's digit count.
    fn new(positions: &[usize], digits: usize) -> Gather {
        let low_digits = digits.min(LOW);
        let bits_in_word = 1usize << (2 * low_digits);
        let mut low = vec![0usize; bits_in_word];
        let lows: Vec<(usize, usize)> = positions
            .iter()
            .enumerate()
            .filter(|(_, p)| **p < LOW)
            .map(|(j, p)| (j, *p))
            .collect();
        for (b, slot) in low.iter_mut().enumerate() {
            for (j, p) in &lows {
                *slot |= (b >> (2 * p) & 3) << (2 * j);
            }
        }
        let highs: Vec<(usize, usize)> = positions
            .iter()
            .enumerate()
            .filter(|(_, p)| **p >= LOW)
            .map(|(j, p)| (j, *p - LOW))
            .collect();
        let mut bytes = [[0usize; 256]; 3];
        for (k, table) in bytes.iter_mut().enumerate() {
            for (v, slot) in table.iter_mut().enumerate() {
                for (r, (_, p)) in highs.iter().enumerate() {
                    // Word-index digit p lives in byte p / 4.
                    if p / 4 == k {
                        *slot |= (v >> (2 * (p % 4)) & 3) << (2 * r);
                    }
                }
            }
        }
        let high_shift = highs.iter().map(|(j, _)| 2 * j).collect();
        Gather {
            low,
            bytes,
            high_shift,
        }
    }

    /// Values the high digits take together.
    fn high_values(&self) -> usize {
        1usize << (2 * self.high_shift.len())
    }

    /// The gathered index of every high rank.
    fn high_index(&self) -> Vec<usize> {
        (0..self.high_values())
            .map(|rank| {
                self.high_shift
                    .iter()
                    .enumerate()
                    .fold(0, |acc, (r, shift)| acc | (rank >> (2 * r) & 3) << shift)
            })
            .collect()
    }

    /// The rank of word `w`'s high digits' values.
    fn high_rank(&self, w: usize) -> usize {
        self.bytes[0][w & 0xff] | self.bytes[1][w >> 8 & 0xff] | self.bytes[2][w >> 16 & 0xff]
    }
}
