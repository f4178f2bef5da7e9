//! A statement's truth table over every colouring of its subset, computed for all
//! colourings at once.
//!
//! Colouring `k` gives tile i the colour `(k >> 2i) & 3`, and the table is a bit
//! set over k (at most 4^8 = 65536 bits, 1024 words). The tiles bound to the
//! statement's variables and the regions do not depend on colours, so the tree is
//! walked once per assignment of its variables, not once per colouring: every node
//! yields the bit set of the colourings where it holds. `red(x)` with x bound to
//! tile i is a fixed bit pattern; connectives are word operations; a positional
//! relation is a constant, so `adjacent(x, y) & ...` never evaluates its right side
//! for tiles that are not adjacent. Numbers are bit-sliced: a count is a binary
//! counter whose planes are bit sets (plane p holds bit p of the count in every
//! colouring), added to and compared with ripple-carry circuits over words. This
//! is what makes the involvement check cheap enough to run on every submission
//! (`mondo bench bluffs`); the scalar [`Geometry::evaluate`] is the reference it
//! is tested against.

use super::ast::{Domain, Formula, FormulaKind, Relation, Term, TermKind};
use super::geometry::{Geometry, MAX_CHECKED};
use crate::lang::Var;
use crate::lang::ast::{BinOp, CmpOp, Parity};

/// The most work a table may take, in word operations (a node visited on a table of
/// w words counts max(w, 64)): about 30 000 visits of a node on 8 tiles, some tens of
/// milliseconds. Every variable nested inside another multiplies the visits by the
/// subset's size, so without a bound a short statement with many variables would
/// hold the umpire for minutes; past it the statement is refused as too complex.
pub const MAX_STEPS: u64 = 1 << 25;

/// A statement whose table would take more than [`MAX_STEPS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooComplex;

/// The truth of a statement under every colouring of its subset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// Bit k of the table is the truth under colouring k; bits past `len` are 0.
    words: Vec<u64>,
    len: usize,
}

impl Table {
    /// Colourings in the table (4^tiles).
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The truth under colouring k.
    pub fn get(&self, k: usize) -> bool {
        k < self.len && self.words[k / 64] >> (k % 64) & 1 == 1
    }

    /// True under every colouring.
    pub fn always(&self) -> bool {
        self.words
            .iter()
            .enumerate()
            .all(|(w, b)| *b == self.live(w))
    }

    /// False under every colouring.
    pub fn never(&self) -> bool {
        self.words.iter().all(|b| *b == 0)
    }

    /// The colourings under which it is true.
    pub fn count_true(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The bits of word w that are colourings.
    fn live(&self, w: usize) -> u64 {
        let rest = self.len - 64 * w;
        if rest >= 64 { !0 } else { (1 << rest) - 1 }
    }

    /// The tiles whose colour changes the truth under some colouring of the others:
    /// bit i set when tile i is involved. Tile i is involved when the table is not
    /// the same after moving every colouring with tile i red to the same colouring
    /// with tile i coloured c, for some other c.
    pub fn involved(&self, tiles: usize) -> u16 {
        let mut mask = 0u16;
        for i in 0..tiles {
            let step = 1usize << (2 * i);
            let differs = if step < 64 {
                // Within a word: colourings with digit i = 0 against the same bits
                // shifted down by c * 4^i.
                let zero = digit_pattern(i, 0) & self.live(0);
                self.words
                    .iter()
                    .any(|w| (1..4).any(|c| (w ^ (w >> (c * step))) & zero != 0))
            } else {
                let stride = step / 64;
                (0..self.words.len())
                    .filter(|w| (w / stride).is_multiple_of(4))
                    .any(|w| (1..4).any(|c| self.words[w] != self.words[w + c * stride]))
            };
            if differs {
                mask |= 1 << i;
            }
        }
        mask
    }
}

impl Geometry {
    /// The truth of the statement under every colouring of the subset: colouring
    /// `k` gives tile i colour `(k / 4^i) % 4`. At most 4^8 colourings
    /// ([`MAX_CHECKED`] tiles); `None` for a larger subset.
    pub fn truth_table(&self, f: &Formula) -> Option<Table> {
        self.tabulate(f).ok()
    }

    /// The truth table, or why there is none: more than [`MAX_CHECKED`] tiles, or
    /// more work than [`super::table::MAX_STEPS`].
    pub fn tabulate(&self, f: &Formula) -> Result<Table, Untabled> {
        if self.cells.len() > MAX_CHECKED {
            return Err(Untabled::TooLarge(self.cells.len()));
        }
        super::table::build(self, f).map_err(|_| Untabled::TooComplex)
    }
}

/// Why a statement has no truth table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Untabled {
    /// The subset has more tiles than [`MAX_CHECKED`].
    TooLarge(usize),
    /// The statement nests too many tile variables to check in time.
    TooComplex,
}

/// The truth table of `f` on the geometry's subset (at most
/// [`MAX_CHECKED`] tiles; the caller checks), unless it takes more than
/// [`MAX_STEPS`].
pub(super) fn build(g: &Geometry, f: &Formula) -> Result<Table, TooComplex> {
    let n = g.len();
    let len = 1usize << (2 * n);
    let words = len.div_ceil(64);
    let mut colour = Vec::with_capacity(n);
    for i in 0..n {
        colour.push([0, 1, 2, 3].map(|c| Bits::Vec(tile_colour(i, c, words))));
    }
    let mut t = Tabulator {
        g,
        words,
        colour,
        same: vec![None; n * n],
        vars: [0; 256],
        steps: 0,
    };
    let bits = t.formula(f);
    if t.steps > MAX_STEPS {
        return Err(TooComplex);
    }
    let mut out = match bits {
        Bits::Zero => vec![0; words],
        Bits::Ones => vec![!0; words],
        Bits::Vec(v) => v,
    };
    if len < 64 {
        out[0] &= (1 << len) - 1;
    }
    Ok(Table { words: out, len })
}

/// The bits k of one word where digit i of k (the colour of tile i) is c, for
/// 4^i < 64 (the pattern repeats in every word).
fn digit_pattern(i: usize, c: u64) -> u64 {
    (0..64u64)
        .filter(|k| (k >> (2 * i)) & 3 == c)
        .fold(0, |m, k| m | 1 << k)
}

/// The colourings where tile i has colour c.
fn tile_colour(i: usize, c: u64, words: usize) -> Vec<u64> {
    if 2 * i < 6 {
        vec![digit_pattern(i, c); words]
    } else {
        let shift = 2 * i - 6;
        (0..words)
            .map(|w| if (w as u64 >> shift) & 3 == c { !0 } else { 0 })
            .collect()
    }
}

/// The most words a table has (4^8 colourings).
const MAX_WORDS: usize = (1 << (2 * MAX_CHECKED)) / 64;
static ZEROS: [u64; MAX_WORDS] = [0; MAX_WORDS];
static ONES: [u64; MAX_WORDS] = [!0; MAX_WORDS];

/// A set of colourings: none, all, or given word by word.
#[derive(Clone, Debug)]
enum Bits {
    Zero,
    Ones,
    Vec(Vec<u64>),
}

impl Bits {
    fn constant(b: bool) -> Bits {
        if b { Bits::Ones } else { Bits::Zero }
    }

    /// Word w (a constant is the same in every word).
    fn word(&self, w: usize) -> u64 {
        match self {
            Bits::Zero => 0,
            Bits::Ones => !0,
            Bits::Vec(v) => v[w],
        }
    }

    /// The first `n` words, constants included (so that loops over words are plain
    /// slice loops the compiler vectorises).
    fn words(&self, n: usize) -> &[u64] {
        match self {
            Bits::Zero => &ZEROS[..n],
            Bits::Ones => &ONES[..n],
            Bits::Vec(v) => v,
        }
    }

    fn not(self) -> Bits {
        match self {
            Bits::Zero => Bits::Ones,
            Bits::Ones => Bits::Zero,
            Bits::Vec(mut v) => {
                v.iter_mut().for_each(|w| *w = !*w);
                Bits::Vec(v)
            }
        }
    }

    /// `f` word by word, in place where `self` has words.
    fn zip(self, o: &Bits, f: impl Fn(u64, u64) -> u64) -> Bits {
        match (self, o) {
            (Bits::Vec(mut a), o) => {
                let b = o.words(a.len());
                a.iter_mut().zip(b).for_each(|(x, y)| *x = f(*x, *y));
                Bits::Vec(a)
            }
            (a, Bits::Vec(b)) => {
                let x = a.word(0);
                Bits::Vec(b.iter().map(|y| f(x, *y)).collect())
            }
            (a, b) => Bits::constant(f(a.word(0), b.word(0)) != 0),
        }
    }

    fn and(self, o: &Bits) -> Bits {
        match (self, o) {
            (Bits::Zero, _) | (_, Bits::Zero) => Bits::Zero,
            (a, Bits::Ones) => a,
            (Bits::Ones, b) => b.clone(),
            (a, b) => a.zip(b, |x, y| x & y),
        }
    }

    fn or(self, o: &Bits) -> Bits {
        match (self, o) {
            (Bits::Ones, _) | (_, Bits::Ones) => Bits::Ones,
            (a, Bits::Zero) => a,
            (Bits::Zero, b) => b.clone(),
            (a, b) => a.zip(b, |x, y| x | y),
        }
    }

    fn xor(self, o: &Bits) -> Bits {
        self.zip(o, |x, y| x ^ y)
    }
}

/// A number in every colouring: `offset` plus a two's complement number whose bit p
/// is `planes[p]` (the last plane is the sign, extended above), with the sliced
/// part known to lie in `lo..=hi`.
#[derive(Clone, Debug)]
struct Number {
    /// Exact: constants are i64, and their sums cannot leave i128.
    offset: i128,
    planes: Vec<Bits>,
    lo: i64,
    hi: i64,
}

impl Number {
    fn constant(n: i128) -> Number {
        Number {
            offset: n,
            planes: vec![Bits::Zero],
            lo: 0,
            hi: 0,
        }
    }

    /// No part that depends on the colouring.
    fn is_constant(&self) -> bool {
        self.lo == 0 && self.hi == 0
    }

    /// How many true sets among `sets`: a binary counter, each set added in place in
    /// one pass over the words.
    fn count(sets: Vec<Bits>, words: usize) -> Number {
        let mut offset = 0;
        let mut varying = Vec::new();
        for s in sets {
            match s {
                Bits::Zero => {}
                Bits::Ones => offset += 1i128,
                Bits::Vec(v) => varying.push(v),
            }
        }
        if varying.is_empty() {
            return Number::constant(offset);
        }
        let hi = varying.len() as i64;
        // Unsigned bits for 0..=hi; the sign plane above them is 0.
        let bits = width(0, hi) - 1;
        let mut planes = vec![vec![0u64; words]; bits];
        for set in &varying {
            for (w, word) in set.iter().enumerate() {
                let mut carry = *word;
                for plane in planes.iter_mut() {
                    let t = plane[w];
                    plane[w] = t ^ carry;
                    carry &= t;
                }
            }
        }
        let mut planes: Vec<Bits> = planes.into_iter().map(Bits::Vec).collect();
        planes.push(Bits::Zero);
        Number {
            offset,
            planes,
            lo: 0,
            hi,
        }
    }

    /// Plane p, the sign plane repeated above the top.
    fn plane(&self, p: usize) -> &Bits {
        self.planes
            .get(p)
            .unwrap_or(&self.planes[self.planes.len() - 1])
    }

    /// `self + o` (or `self - o`, as `self + !o + 1`): a ripple-carry adder wide
    /// enough for the bounds, all planes of a word at once.
    fn add(&self, o: &Number, minus: bool, words: usize) -> Number {
        let (lo, hi) = if minus {
            (self.lo - o.hi, self.hi - o.lo)
        } else {
            (self.lo + o.lo, self.hi + o.hi)
        };
        let offset = if minus {
            self.offset.saturating_sub(o.offset)
        } else {
            self.offset.saturating_add(o.offset)
        };
        let width = width(lo, hi);
        let a: Vec<&[u64]> = (0..width).map(|p| self.plane(p).words(words)).collect();
        let b: Vec<&[u64]> = (0..width).map(|p| o.plane(p).words(words)).collect();
        let flip = if minus { !0 } else { 0 };
        let mut out = vec![vec![0u64; words]; width];
        for w in 0..words {
            let mut carry = flip;
            for p in 0..width {
                let (x, y) = (a[p][w], b[p][w] ^ flip);
                out[p][w] = x ^ y ^ carry;
                carry = (x & y) | (carry & (x ^ y));
            }
        }
        Number {
            offset,
            planes: out.into_iter().map(Bits::Vec).collect(),
            lo,
            hi,
        }
    }

    /// `k * self`, by doubling and adding (k is small: `twice`, `half of`).
    fn times(&self, k: i64, words: usize) -> Number {
        let mut acc = Number::constant(0);
        let mut base = self.clone();
        let mut n = k.unsigned_abs();
        while n > 0 {
            if n & 1 == 1 {
                acc = acc.add(&base, false, words);
            }
            n >>= 1;
            if n > 0 {
                base = base.add(&base, false, words);
            }
        }
        if k < 0 {
            Number::constant(0).add(&acc, true, words)
        } else {
            acc
        }
    }

    /// The colourings where `self op k` holds.
    fn compare(&self, op: CmpOp, k: i128, words: usize) -> Bits {
        // Compare the sliced part with k - offset; inside its bounds that is a small
        // number (the bounds are those of sums of counts).
        let k = k.saturating_sub(self.offset);
        let (lt, eq) = if k > i128::from(self.hi) {
            (Bits::Ones, Bits::Zero)
        } else if k < i128::from(self.lo) {
            (Bits::Zero, Bits::Zero)
        } else {
            let k = k as i64;
            // d = sliced - k = sliced + !k + 1 in a width that holds it: negative
            // is its sign, zero is no bit set; one pass over the words.
            let width = width(self.lo - k, self.hi - k);
            let planes: Vec<&[u64]> = (0..width).map(|p| self.plane(p).words(words)).collect();
            let not_k: Vec<u64> = (0..width)
                .map(|p| if (k >> p.min(63)) & 1 == 1 { 0 } else { !0 })
                .collect();
            let mut lt = vec![0u64; words];
            let mut eq = vec![0u64; words];
            for w in 0..words {
                let (mut carry, mut any, mut sum) = (!0u64, 0u64, 0u64);
                for p in 0..width {
                    let (x, y) = (planes[p][w], not_k[p]);
                    sum = x ^ y ^ carry;
                    carry = (x & y) | (carry & (x ^ y));
                    any |= sum;
                }
                lt[w] = sum;
                eq[w] = !any;
            }
            (Bits::Vec(lt), Bits::Vec(eq))
        };
        match op {
            CmpOp::Lt => lt,
            CmpOp::Le => lt.or(&eq),
            CmpOp::Eq => eq,
            CmpOp::Ne => eq.not(),
            CmpOp::Ge => lt.not(),
            CmpOp::Gt => lt.or(&eq).not(),
        }
    }

    /// The colourings where the number is odd: the low bits of both parts.
    fn odd(&self) -> Bits {
        let odd_offset = self.offset.rem_euclid(2) == 1;
        let low = self.plane(0).clone();
        if odd_offset { low.not() } else { low }
    }
}

/// `a op b` is `b op' a`.
fn mirror(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        CmpOp::Eq | CmpOp::Ne => op,
    }
}

/// Planes for a two's complement number in `lo..=hi`.
fn width(lo: i64, hi: i64) -> usize {
    let bits = |v: i64| {
        64 - if v < 0 {
            (!v).leading_zeros()
        } else {
            v.leading_zeros()
        }
    };
    (bits(lo).max(bits(hi)) as usize + 1).min(64)
}

struct Tabulator<'a> {
    g: &'a Geometry,
    words: usize,
    /// `colour[i][c]`: the colourings where tile i has colour c.
    colour: Vec<[Bits; 4]>,
    /// `same[i * n + j]` (i < j): the colourings where tiles i and j have the same colour,
    /// once asked for.
    same: Vec<Option<Bits>>,
    /// Variable values: a tile index, or a region index.
    vars: [u8; 256],
    /// Work done so far (see [`MAX_STEPS`]); past it every node answers at once.
    steps: u64,
}

impl Tabulator<'_> {
    fn get(&self, v: Var) -> usize {
        self.vars[v.0 as usize] as usize
    }

    /// Counts one node's work; true once past the budget.
    fn over(&mut self) -> bool {
        self.steps += (self.words as u64).max(64);
        self.steps > MAX_STEPS
    }

    fn formula(&mut self, f: &Formula) -> Bits {
        if self.over() {
            return Bits::Zero;
        }
        match &f.kind {
            FormulaKind::Bool(b) => Bits::constant(*b),
            FormulaKind::Not(a) => self.formula(a).not(),
            FormulaKind::Bin(op, a, b) => {
                let a = self.formula(a);
                match (op, &a) {
                    (BinOp::And, Bits::Zero) => Bits::Zero,
                    (BinOp::Or, Bits::Ones) => Bits::Ones,
                    (BinOp::Implies, Bits::Zero) => Bits::Ones,
                    (BinOp::And, _) => {
                        let b = self.formula(b);
                        a.and(&b)
                    }
                    (BinOp::Or, _) => {
                        let b = self.formula(b);
                        a.or(&b)
                    }
                    (BinOp::Implies, _) => {
                        let b = self.formula(b);
                        a.not().or(&b)
                    }
                    (BinOp::Xor, _) => {
                        let b = self.formula(b);
                        a.xor(&b)
                    }
                    (BinOp::Iff, _) => {
                        let b = self.formula(b);
                        a.xor(&b).not()
                    }
                }
            }
            FormulaKind::Forall(v, d, body) => {
                self.quantify(true, *v, tiles(self.domain(*d)), body)
            }
            FormulaKind::Exists(v, d, body) => {
                self.quantify(false, *v, tiles(self.domain(*d)), body)
            }
            FormulaKind::ForallRegion(s, k, body) => {
                self.quantify(true, *s, self.g.region_range(*k).map(|r| r as u8), body)
            }
            FormulaKind::ExistsRegion(s, k, body) => {
                self.quantify(false, *s, self.g.region_range(*k).map(|r| r as u8), body)
            }
            FormulaKind::Colour(c, x) => self.colour[self.get(*x)][c.index()].clone(),
            FormulaKind::Place(p, x) => Bits::constant(self.g.has_place(*p, self.get(*x))),
            FormulaKind::Rel(Relation::SameColour, x, y) => {
                let (i, j) = (self.get(*x), self.get(*y));
                self.same_colour(i, j)
            }
            FormulaKind::Rel(r, x, y) => {
                Bits::constant(self.g.related(*r, self.get(*x), self.get(*y)))
            }
            FormulaKind::Same(x, y) => Bits::constant(self.get(*x) == self.get(*y)),
            FormulaKind::Cmp(op, a, b) => {
                let (a, b) = (self.term(a), self.term(b));
                if b.is_constant() {
                    a.compare(*op, b.offset, self.words)
                } else if a.is_constant() {
                    b.compare(mirror(*op), a.offset, self.words)
                } else {
                    // a op b  <=>  (a - b) op 0.
                    a.add(&b, true, self.words).compare(*op, 0, self.words)
                }
            }
            FormulaKind::Parity(p, t) => {
                let odd = self.term(t).odd();
                if *p == Parity::Odd { odd } else { odd.not() }
            }
        }
    }

    /// The colourings where tiles i and j have the same colour.
    fn same_colour(&mut self, i: usize, j: usize) -> Bits {
        if i == j {
            return Bits::Ones;
        }
        let n = self.g.len();
        let key = i.min(j) * n + i.max(j);
        if let Some(b) = &self.same[key] {
            return b.clone();
        }
        let mut same = vec![0u64; self.words];
        for c in 0..4 {
            let (a, b) = (
                self.colour[i][c].words(self.words),
                self.colour[j][c].words(self.words),
            );
            same.iter_mut()
                .zip(a.iter().zip(b))
                .for_each(|(s, (a, b))| *s |= a & b);
        }
        let b = Bits::Vec(same);
        self.same[key] = Some(b.clone());
        b
    }

    /// The body for every value of the variable, joined by `and` (`all`) or `or`,
    /// stopping once the join is settled.
    fn quantify(
        &mut self,
        all: bool,
        v: Var,
        values: impl Iterator<Item = u8>,
        body: &Formula,
    ) -> Bits {
        let settled = Bits::constant(!all);
        let mut acc = Bits::constant(all);
        for value in values {
            self.vars[v.0 as usize] = value;
            let b = self.formula(body);
            acc = if all { acc.and(&b) } else { acc.or(&b) };
            if std::mem::discriminant(&acc) == std::mem::discriminant(&settled)
                || self.steps > MAX_STEPS
            {
                break;
            }
        }
        acc
    }

    fn term(&mut self, t: &Term) -> Number {
        if self.over() {
            return Number::constant(0);
        }
        match &t.kind {
            TermKind::Int(n) => Number::constant(i128::from(*n)),
            TermKind::Tiles => Number::constant(self.g.len() as i128),
            TermKind::Count(v, d, body) => {
                let mut sets = Vec::new();
                for t in tiles(self.domain(*d)) {
                    self.vars[v.0 as usize] = t;
                    sets.push(self.formula(body));
                }
                Number::count(sets, self.words)
            }
            TermKind::Colours => {
                let shown = (0..4)
                    .map(|c| (0..self.g.len()).fold(Bits::Zero, |m, i| m.or(&self.colour[i][c])))
                    .collect();
                Number::count(shown, self.words)
            }
            TermKind::ColoursIn(s) => {
                let region = self.domain(Domain::In(*s));
                let shown = (0..4)
                    .map(|c| {
                        tiles(region).fold(Bits::Zero, |m, i| m.or(&self.colour[i as usize][c]))
                    })
                    .collect();
                Number::count(shown, self.words)
            }
            TermKind::Add(a, b) => self.term(a).add(&self.term(b), false, self.words),
            TermKind::Sub(a, b) => self.term(a).add(&self.term(b), true, self.words),
            TermKind::Mul(k, a) => self.term(a).times(*k, self.words),
        }
    }

    fn domain(&self, d: Domain) -> u16 {
        match d {
            Domain::Subset => ((1u32 << self.g.len()) - 1) as u16,
            Domain::In(s) => self.g.region_tiles(self.get(s)),
        }
    }
}

/// The tiles of a mask, lowest first.
fn tiles(mut m: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let t = m.trailing_zeros() as u8;
            m &= m - 1;
            t
        })
    })
}

#[cfg(test)]
mod tests {
    use super::super::ast::{Place, RegionKind};
    use super::super::cells::{Colour, Subset};
    use super::*;
    use proptest::prelude::*;

    /// Scope while generating: the tile and region variables bound so far.
    #[derive(Clone, Debug, Default)]
    struct Scope {
        tiles: Vec<Var>,
        regions: Vec<Var>,
    }

    impl Scope {
        fn next(&self) -> Var {
            Var((self.tiles.len() + self.regions.len()) as u8)
        }
    }

    fn f(kind: FormulaKind) -> Formula {
        Formula::new(0..0, kind)
    }

    fn t(kind: TermKind) -> Term {
        Term::new(0..0, kind)
    }

    /// Constants around the counts, and some far beyond them (the scalar path).
    fn constant() -> impl Strategy<Value = i64> {
        prop_oneof![
            8 => -3i64..10,
            1 => prop::sample::select(vec![i64::MAX, i64::MIN, 1 << 41, -(1 << 45), 1 << 40]),
        ]
    }

    fn term(depth: u32, scope: Scope) -> BoxedStrategy<Term> {
        let leaf = prop_oneof![
            constant().prop_map(|n| t(TermKind::Int(n))),
            Just(t(TermKind::Tiles)),
            Just(t(TermKind::Colours)),
        ]
        .boxed();
        if depth == 0 {
            return leaf;
        }
        let v = scope.next();
        let mut inner = scope.clone();
        inner.tiles.push(v);
        let domains: Vec<Domain> = std::iter::once(Domain::Subset)
            .chain(scope.regions.iter().map(|s| Domain::In(*s)))
            .collect();
        let count = (prop::sample::select(domains), formula(depth - 1, inner))
            .prop_map(move |(d, body)| t(TermKind::Count(v, d, Box::new(body))));
        let sub = term(depth - 1, scope);
        prop_oneof![
            1 => leaf,
            2 => count,
            1 => (sub.clone(), sub, any::<bool>()).prop_map(|(a, b, plus)| { let span = a.span.start..b.span.end; let (a, b) = (Box::new(a), Box::new(b)); Term::new(span, if plus { TermKind::Add(a, b) } else { TermKind::Sub(a, b) }) }),
        ]
        .boxed()
    }

    fn formula(depth: u32, scope: Scope) -> BoxedStrategy<Formula> {
        let mut leaves: Vec<BoxedStrategy<Formula>> = vec![
            any::<bool>().prop_map(|b| f(FormulaKind::Bool(b))).boxed(),
            (
                prop::sample::select(CmpOp::ALL.to_vec()),
                term(0, scope.clone()),
                term(0, scope.clone()),
            )
                .prop_map(|(op, a, b)| f(FormulaKind::Cmp(op, a, b)))
                .boxed(),
        ];
        if !scope.tiles.is_empty() {
            let var = prop::sample::select(scope.tiles.clone());
            leaves.push(
                (prop::sample::select(Colour::ALL.to_vec()), var.clone())
                    .prop_map(|(c, x)| f(FormulaKind::Colour(c, x)))
                    .boxed(),
            );
            leaves.push(
                (
                    prop::sample::select(Relation::ALL.to_vec()),
                    var.clone(),
                    var.clone(),
                )
                    .prop_map(|(r, x, y)| f(FormulaKind::Rel(r, x, y)))
                    .boxed(),
            );
            leaves.push(
                (prop::sample::select(Place::ALL.to_vec()), var.clone())
                    .prop_map(|(p, x)| f(FormulaKind::Place(p, x)))
                    .boxed(),
            );
            leaves.push(
                (var.clone(), var)
                    .prop_map(|(x, y)| f(FormulaKind::Same(x, y)))
                    .boxed(),
            );
        }
        let leaf = prop::strategy::Union::new(leaves).boxed();
        if depth == 0 {
            return leaf;
        }
        let v = scope.next();
        let mut with_tile = scope.clone();
        with_tile.tiles.push(v);
        let mut with_region = scope.clone();
        with_region.regions.push(v);
        let domains: Vec<Domain> = std::iter::once(Domain::Subset)
            .chain(scope.regions.iter().map(|s| Domain::In(*s)))
            .collect();
        let sub = formula(depth - 1, scope.clone());
        let ops = vec![
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
            BinOp::Implies,
            BinOp::Iff,
        ];
        prop_oneof![
            1 => leaf,
            1 => sub.clone().prop_map(|a| f(FormulaKind::Not(Box::new(a)))),
            1 => (prop::sample::select(ops), sub.clone(), sub)
                .prop_map(|(op, a, b)| f(FormulaKind::Bin(op, Box::new(a), Box::new(b)))),
            2 => (prop::sample::select(domains), formula(depth - 1, with_tile), any::<bool>())
                .prop_map(move |(d, body, all)| {
                    let body = Box::new(body);
                    f(if all { FormulaKind::Forall(v, d, body) } else { FormulaKind::Exists(v, d, body) })
                }),
            1 => (prop::sample::select(RegionKind::ALL.to_vec()), formula(depth - 1, with_region), any::<bool>())
                .prop_map(move |(k, body, all)| {
                    let body = Box::new(body);
                    f(if all { FormulaKind::ForallRegion(v, k, body) } else { FormulaKind::ExistsRegion(v, k, body) })
                }),
            1 => (prop::sample::select(CmpOp::ALL.to_vec()), term(depth, scope.clone()), term(depth, scope.clone()))
                .prop_map(|(op, a, b)| f(FormulaKind::Cmp(op, a, b))),
            1 => (any::<bool>(), term(depth, scope))
                .prop_map(|(odd, a)| f(FormulaKind::Parity(if odd { Parity::Odd } else { Parity::Even }, a))),
        ]
        .boxed()
    }

    /// Subsets from 1 to 8 tiles, with and without 2x2 squares.
    const SUBSETS: [&str; 7] = [
        "C3",
        "A1-A2",
        "B2-B3-C2",
        "A1-A2-B1-B2",
        "A1-A2-A3-B2-B3-C3",
        "A1-B1-C1-D1-D2",
        "B1-B2-B3-B4-C1-C2-C3-C4",
    ];

    /// Every colouring (every 7th on 8 tiles) against the scalar evaluator.
    fn agrees(g: &Geometry, f: &Formula) -> Result<(), TestCaseError> {
        let table = g.truth_table(f).expect("at most 8 tiles");
        let n = g.len();
        prop_assert_eq!(table.len(), 1 << (2 * n));
        let step = if n == 8 { 7 } else { 1 };
        let mut colours = vec![0u8; n];
        for k in (0..table.len()).step_by(step) {
            for (i, c) in colours.iter_mut().enumerate() {
                *c = ((k >> (2 * i)) & 3) as u8;
            }
            prop_assert_eq!(
                table.get(k),
                g.evaluate(f, &colours),
                "colouring {} of {:?}",
                k,
                f
            );
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

        #[test]
        fn the_table_agrees_with_the_scalar_evaluator(f in formula(3, Scope::default()), which in 0..SUBSETS.len()) {
            let sub: Subset = SUBSETS[which].parse().expect("subset");
            agrees(&Geometry::new(&sub), &f)?;
        }
    }

    /// The involvement found on the table, against its definition on the scalar
    /// evaluator: some colouring where recolouring tile i changes the truth.
    #[test]
    fn involvement_on_the_table_is_the_definition() {
        let subs = ["A1-A2", "B2-B3-C2", "A1-A2-B1-B2", "A1-A2-A3-B2-B3-C3"];
        let texts = [
            "the leftmost tile is red",
            "there are two red tiles",
            "there is a 2x2 square with one red tile",
            "no two adjacent tiles are the same colour",
            "every red tile is adjacent to two tiles that are blue or green",
            "the number of colours is odd",
        ];
        for sub in subs {
            let sub: Subset = sub.parse().expect("subset");
            let g = Geometry::new(&sub);
            for text in texts {
                let f = super::super::parse(text).expect("reads").formula;
                let table = g.truth_table(&f).expect("small");
                let n = g.len();
                let mut want = 0u16;
                let mut colours = vec![0u8; n];
                for i in 0..n {
                    'k: for k in 0..table.len() {
                        for (j, c) in colours.iter_mut().enumerate() {
                            *c = ((k >> (2 * j)) & 3) as u8;
                        }
                        let base = g.evaluate(&f, &colours);
                        for c in 0..4 {
                            colours[i] = c;
                            if g.evaluate(&f, &colours) != base {
                                want |= 1 << i;
                                break 'k;
                            }
                        }
                    }
                }
                assert_eq!(table.involved(n), want, "{text} on {sub}");
            }
        }
    }

    /// Every variable nested in another multiplies the work by the subset's size: a
    /// short statement with seven would take minutes, so it is refused once the work
    /// passes the budget, while the bench's three-deep statements are checked.
    #[test]
    fn a_statement_nesting_seven_tiles_is_refused_as_too_complex() {
        let sub: Subset = "B1-B2-B3-B4-C1-C2-C3-C4".parse().expect("subset");
        let deep = super::super::parse(
            "forall a b c d e f g. same_colour(a, b) | same_colour(c, d) | red(g)",
        )
        .expect("reads");
        let v = super::super::check(&deep, &sub, 40).expect("8 tiles");
        assert!(!v.valid && !v.checked, "{v:?}");
        let reason = v.reason.unwrap_or_default();
        assert!(
            reason.contains("too complex") && reason.contains("fewer tiles nested"),
            "{reason}"
        );
        assert!(v.uninvolved.is_empty());
        assert_eq!(Geometry::new(&sub).truth_table(&deep.formula), None);
        for text in super::super::BENCH_STATEMENTS {
            let st = super::super::parse(text).expect("reads");
            let v = super::super::check(&st, &sub, 40).expect("8 tiles");
            assert!(v.checked && v.valid, "{text}: {v:?}");
        }
    }

    #[test]
    fn constants_and_bounds_of_the_sliced_numbers() {
        let sub: Subset = "A1-A2-B1-B2".parse().expect("subset");
        let g = Geometry::new(&sub);
        let read = |s: &str| super::super::parse(s).expect("reads").formula;
        // Always true or false by arithmetic alone, whatever the colours.
        assert!(
            g.truth_table(&read("count(x: red(x)) <= 4"))
                .expect("small")
                .always()
        );
        assert!(
            g.truth_table(&read("count(x: red(x)) - count(x: blue(x)) > 4"))
                .expect("small")
                .never()
        );
        assert!(
            g.truth_table(&read("colours + tiles >= 5"))
                .expect("small")
                .always()
        );
        // Exactly one colouring in 256 has four red tiles.
        let all_red = g.truth_table(&read("count(x: red(x)) = 4")).expect("small");
        assert_eq!((0..all_red.len()).filter(|k| all_red.get(*k)).count(), 1);
        assert!(all_red.get(0));
        // Arithmetic is exact, even at the ends of i64: this holds when a tile is red.
        let huge = read("count(x: red(x)) + 9223372036854775807 > 9223372036854775807");
        let some_red = read("exists x. red(x)");
        assert_eq!(g.truth_table(&huge), g.truth_table(&some_red));
        let huge = read("9223372036854775807 - count(x: red(x)) - 9223372036854775807 < 0");
        assert_eq!(g.truth_table(&huge), g.truth_table(&some_red));
    }
}
