//! Grounding patterns over the 6 x 6 window into CNF.
//!
//! # The space
//!
//! Every structure fits the 6 x 6 window. Cell `i` (row `i / 6`, column `i % 6`) holds
//! either nothing or one piece of the game's set: one-hot variables `cell[i][k]` (k
//! indexes [`PieceSet::pieces`]) plus `occ[i]`, defined as their disjunction. Two clauses
//! break translation symmetry: some piece in row 0, some piece in column 0. With them the
//! window position of a structure is its normalised one, so models and structures are
//! in one-to-one correspondence (projected on the cell variables), the box of a model is
//! the true bounding box, and excluding a structure takes one blocking clause.
//!
//! # Meanings
//!
//! Quantifiers expand over the 36 cells with the cell's occupancy as a guard
//! (`forall`: `occ -> body`, `exists`: `occ & body`, counts: `occ & body`), so inside a
//! body every bound variable sits on an occupied cell. Atoms are grounded from the
//! AST's own definitions: a local unary predicate becomes "the cell holds one of the
//! pieces for which [`UnaryPred::holds_on_piece`] is true", and a binary atom between
//! two cells becomes the disjunction, over the piece pairs for which
//! [`BinaryPred::holds`] is true at those two positions, of "cell a holds p and cell b
//! holds q" (grouped by rows of the relation, so `touches` between non-adjacent cells is
//! the constant false and `same_size` is three conjunctions). The structure-dependent
//! predicates and global terms are encoded with auxiliary literals, each defined in
//! both directions (Tseitin), so a literal means exactly its definition whatever
//! polarity it is used in. Every such encoding is cross-checked against the reference
//! evaluator over all small structures in the tests.
//!
//! Number terms become linear sums of literals (`count` adds `occ & body` per cell,
//! pips add one literal per pip threshold, `width` is `1 + sum of "some piece in
//! column >= c"`), so every comparison is a cardinality constraint over literals: its
//! truth is an output of a totalizer (rustsat), encoded in both directions around the
//! bound. One totalizer serves every comparison over the same multiset of literals.

use super::simplify::simplify;
use super::symmetry::{Orders, orders, unique_binders};
use crate::koan::{Koan, MAX_CELLS, MAX_SIDE, Piece, PieceSet, Pos, Size};
use crate::lang::ast::{
    BinOp, BinaryPred, CmpOp, Formula, FormulaKind, Parity, Term, TermKind, UnaryPred,
};
use crate::lang::eval::{Block, piecewise};
use crate::lang::eval::{free, free_in_term, miniscope};
use rustsat::encodings::card::{
    BoundLower, BoundLowerIncremental, BoundUpper, BoundUpperIncremental, Totalizer,
};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Clause, Lit};
use std::collections::HashMap;

const SIDE: usize = MAX_SIDE as usize;

/// A grounded truth value: a constant or a literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum G {
    Const(bool),
    Lit(Lit),
}

impl std::ops::Not for G {
    type Output = G;
    fn not(self) -> G {
        match self {
            G::Const(b) => G::Const(!b),
            G::Lit(l) => G::Lit(!l),
        }
    }
}

/// Why a pattern could not be grounded; the umpire reports it as undecided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EncodeError {
    /// The caller raised the interrupt flag while the grounding was being built.
    Stopped,
    /// The grounding passed its clause budget (the number given).
    TooBig(usize),
    /// Anything else (an internal error, said as such).
    Other(String),
}

impl EncodeError {
    /// A bug rather than a limit.
    pub fn is_internal(&self) -> bool {
        matches!(self, EncodeError::Other(m) if m.starts_with("internal error"))
    }

    pub fn message(&self) -> String {
        match self {
            EncodeError::Stopped => "the search was stopped before it could decide".to_string(),
            EncodeError::TooBig(n) => {
                format!("the patterns are too complex to ground exactly (more than {n} clauses)")
            }
            EncodeError::Other(m) => m.clone(),
        }
    }
}

/// A linear sum `konst + sum(weight * literal)`, with the range of values it can take
/// (to prove that the evaluator's saturating arithmetic never saturates).
#[derive(Clone, Debug, Default)]
struct Lin {
    konst: i128,
    terms: Vec<(Lit, i128)>,
}

impl Lin {
    fn constant(k: i128) -> Lin {
        Lin {
            konst: k,
            terms: Vec::new(),
        }
    }

    fn add_g(&mut self, g: G, w: i128) {
        match g {
            G::Const(true) => self.konst += w,
            G::Const(false) => {}
            G::Lit(l) => self.terms.push((l, w)),
        }
    }

    fn scaled_add(mut self, other: &Lin, sign: i128) -> Lin {
        self.konst += sign * other.konst;
        self.terms
            .extend(other.terms.iter().map(|&(l, w)| (l, sign * w)));
        self
    }

    /// Smallest and largest values over all assignments.
    fn range(&self) -> (i128, i128) {
        let lo = self.konst + self.terms.iter().map(|t| t.1.min(0)).sum::<i128>();
        let hi = self.konst + self.terms.iter().map(|t| t.1.max(0)).sum::<i128>();
        (lo, hi)
    }

    /// The same sum with one term per literal, sorted, without zero weights. Literals
    /// keep the polarity they were built with (a count's per-cell literals stay the
    /// literals its totalizer counts); a literal and its negation merge
    /// (`a*l + b*!l = b + (a-b)*l`).
    fn canonical(&self) -> Lin {
        let mut konst = self.konst;
        let mut by_lit: std::collections::BTreeMap<Lit, i128> = Default::default();
        for &(l, w) in &self.terms {
            *by_lit.entry(l).or_default() += w;
        }
        let mut terms: Vec<(Lit, i128)> = Vec::with_capacity(by_lit.len());
        for (&l, &w) in &by_lit {
            if l.is_neg() && by_lit.contains_key(&!l) {
                // Folded into the positive literal's term.
                continue;
            }
            let w = if l.is_pos() {
                match by_lit.get(&!l) {
                    Some(&wn) => {
                        konst += wn;
                        w - wn
                    }
                    None => w,
                }
            } else {
                w
            };
            if w != 0 {
                terms.push((l, w));
            }
        }
        Lin { konst, terms }
    }

    fn negated(&self) -> Lin {
        Lin {
            konst: -self.konst,
            terms: self.terms.iter().map(|&(l, w)| (l, -w)).collect(),
        }
    }
}

/// Variable bindings while grounding: variable index -> cell.
type Env = [Option<u8>; 256];

/// A part's literal at every cell, with and without "the cell is occupied".
type CellLits = (Vec<G>, Vec<G>);

/// The CNF under construction for one piece set, with its caches.
pub(crate) struct Encoder {
    set: PieceSet,
    pieces: &'static [Piece],
    full: u16,
    vm: BasicVarManager,
    /// Clauses not yet handed to the solver.
    pending: Cnf,
    clauses: usize,
    max_clauses: usize,
    /// Grounding steps so far (subformulas grounded), for the budget.
    steps: u64,
    interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    cell: Vec<Vec<Lit>>,
    occ: Vec<Lit>,
    masks: HashMap<(usize, u16), G>,
    /// Binary atoms by (relation, cell, cell) (see [`Encoder::binary`]).
    atoms: Vec<Option<G>>,
    ands: HashMap<Vec<Lit>, Lit>,
    xors: HashMap<(Lit, Lit), Lit>,
    /// `row_ge[r]`: some piece in row >= r (index 0..=6).
    row_ge: Option<Vec<G>>,
    col_ge: Option<Vec<G>>,
    /// Some piece anywhere among these pieces (by mask).
    any: HashMap<u16, G>,
    /// `roots[i]`: cell i is the first cell (row-major) of its group.
    roots: Option<Vec<Lit>>,
    totalizers: HashMap<Vec<Lit>, Totalizer>,
    memo_formula: HashMap<(usize, Vec<u8>), G>,
    memo_term: HashMap<(usize, Vec<u8>), Lin>,
    /// Per (formula, cells of its variables): a part's literal at every cell, with and
    /// without "the cell is occupied" (see [`Encoder::excluding`]).
    memo_cells: HashMap<(usize, Vec<u8>), CellLits>,
    free: HashMap<usize, Vec<u8>>,
    /// Subformulas about one piece only: (variable, pieces for which they hold).
    local: HashMap<(usize, u8), Option<u16>>,
    /// Known inequalities between counts, given to the solver with the outputs.
    links: Vec<Link>,
    /// True while adding links (so that they do not chain).
    linking: bool,
    /// Literals known (by a clause) to imply another, for cancelling differences of
    /// counts cell by cell (see [`Encoder::paired`]).
    implies: HashMap<Lit, Lit>,
    /// Literals known to mean "cell i holds one of the pieces in mask"...
    exact: HashMap<Lit, (usize, u16)>,
    /// ... and literals known to imply it.
    within: HashMap<Lit, (usize, u16)>,
    /// The outputs of each count in use, by bound.
    outputs: HashMap<Vec<Lit>, std::collections::BTreeMap<usize, G>>,
    /// Families of piece classes (sizes, directions) whose counts are tied to the
    /// piece count already (see [`Encoder::partition`]).
    partitioned: Vec<Vec<u16>>,
    /// Canonical `e >= 0` constraints already encoded.
    comparisons: HashMap<(Vec<(Lit, i128)>, i128), G>,
    /// The occupancy literals of each row (`true`) and column, sorted, to notice
    /// counts of a line; whether such counts are in use, and tied to the pieces.
    lines: HashMap<Vec<Lit>, bool>,
    lines_used: [bool; 2],
    lines_tied: [bool; 2],
    /// Whether the total pips is counted, and tied to the pips of each size.
    pips_total_used: bool,
    pips_tied: bool,
    /// Quantifier blocks decided by class counts (by address; `None`: not such a
    /// block), and their truth per classes of the outer pieces.
    blocks: HashMap<usize, Option<Block>>,
    decided: HashMap<(usize, Vec<usize>), G>,
    /// Symmetric blocks' bounds on their variables' cells (see `symmetry.rs`), for
    /// the formula being grounded.
    orders: Orders,
    /// Whether symmetric blocks are bounded at all.
    symmetry: bool,
}

/// `count(small) <= ratio * count(big)`, true of every structure (a pips total and its
/// pieces, the different sizes present and the pieces...). The solver could derive
/// each from the definitions, but only by a counting argument that resolution finds
/// hard (13 pieces cannot make 41 pips; 3 pieces cannot point 4 ways); stated as
/// clauses between the two totalizers' outputs they propagate at once. Redundant,
/// hence sound.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Link {
    small: Vec<Lit>,
    big: Vec<Lit>,
    ratio: i128,
}

/// Largest total weight of a multiplied term (or quotient steps of a remainder): a
/// comparison counts a literal of weight w as w literals.
const MAX_WEIGHT: i128 = 4096;

/// Largest integer magnitude we accept anywhere in a term (far beyond any real count,
/// far below i64 limits even multiplied, so the evaluator's saturating arithmetic and
/// the exact sums grounded here agree). Comparisons that no structure can make true or
/// false, whatever their numbers, were folded away before grounding (`simplify.rs`).
const MAX_MAGNITUDE: i128 = 1 << 40;

impl Encoder {
    pub fn new(
        set: PieceSet,
        max_clauses: usize,
        interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ) -> Encoder {
        let pieces = set.pieces();
        let mut e = Encoder {
            set,
            pieces,
            full: ((1u32 << pieces.len()) - 1) as u16,
            vm: BasicVarManager::default(),
            pending: Cnf::new(),
            clauses: 0,
            max_clauses,
            steps: 0,
            interrupt,
            cell: Vec::with_capacity(MAX_CELLS),
            occ: Vec::with_capacity(MAX_CELLS),
            masks: HashMap::new(),
            atoms: Vec::new(),
            ands: HashMap::new(),
            xors: HashMap::new(),
            row_ge: None,
            col_ge: None,
            any: HashMap::new(),
            roots: None,
            totalizers: HashMap::new(),
            memo_formula: HashMap::new(),
            memo_term: HashMap::new(),
            memo_cells: HashMap::new(),
            free: HashMap::new(),
            local: HashMap::new(),
            links: Vec::new(),
            linking: false,
            implies: HashMap::new(),
            exact: HashMap::new(),
            within: HashMap::new(),
            partitioned: Vec::new(),
            outputs: HashMap::new(),
            comparisons: HashMap::new(),
            blocks: HashMap::new(),
            decided: HashMap::new(),
            orders: Orders::new(),
            symmetry: true,
            lines: HashMap::new(),
            lines_used: [false; 2],
            lines_tied: [false; 2],
            pips_total_used: false,
            pips_tied: false,
        };
        for _ in 0..MAX_CELLS {
            let vars: Vec<Lit> = (0..pieces.len()).map(|_| e.vm.new_lit()).collect();
            let occ = e.vm.new_lit();
            // occ <-> some piece; at most one piece.
            let mut c = vec![!occ];
            c.extend(&vars);
            e.clause(&c);
            for (a, &x) in vars.iter().enumerate() {
                e.clause(&[!x, occ]);
                for &y in &vars[a + 1..] {
                    e.clause(&[!x, !y]);
                }
            }
            let i = e.occ.len();
            for (k, &v) in vars.iter().enumerate() {
                e.note_cell(v, i, 1 << k);
            }
            e.note_cell(occ, i, e.full);
            e.cell.push(vars);
            e.occ.push(occ);
        }
        for k in 0..SIDE {
            for rows in [true, false] {
                let mut line: Vec<Lit> = (0..SIDE)
                    .map(|j| e.occ[if rows { k * SIDE + j } else { j * SIDE + k }])
                    .collect();
                line.sort_unstable();
                e.lines.insert(line, rows);
            }
        }
        // Translation symmetry: a piece in row 0 and a piece in column 0.
        let row0: Vec<Lit> = (0..SIDE).map(|c| e.occ[c]).collect();
        let col0: Vec<Lit> = (0..SIDE).map(|r| e.occ[r * SIDE]).collect();
        e.clause(&row0);
        e.clause(&col0);
        e
    }

    /// With `false`, every quantifier tries every cell (to measure what the symmetry
    /// bounds save).
    pub fn with_symmetry(mut self, on: bool) -> Encoder {
        self.symmetry = on;
        self
    }

    pub fn set(&self) -> PieceSet {
        self.set
    }

    pub fn new_lit(&mut self) -> Lit {
        self.vm.new_lit()
    }

    pub fn n_vars(&self) -> u32 {
        self.vm.n_used()
    }

    pub fn n_clauses(&self) -> usize {
        self.clauses
    }

    pub fn clause(&mut self, lits: &[Lit]) {
        self.clauses += 1;
        self.pending
            .add_clause(lits.iter().copied().collect::<Clause>());
    }

    /// Asserts a grounded value; `false` when it is the constant false.
    pub fn require(&mut self, g: G) -> bool {
        match g {
            G::Const(b) => b,
            G::Lit(l) => {
                self.clause(&[l]);
                true
            }
        }
    }

    /// Adds `a -> b`.
    fn imply(&mut self, a: G, b: G) {
        match (a, b) {
            (G::Const(false), _) | (_, G::Const(true)) => {}
            (G::Const(true), b) => {
                self.require(b);
            }
            (G::Lit(a), G::Const(false)) => self.clause(&[!a]),
            (G::Lit(a), G::Lit(b)) => self.clause(&[!a, b]),
        }
    }

    /// Hands the pending clauses to the solver.
    pub fn flush(&mut self, solver: &mut dyn super::solver::Backend) {
        for c in self.pending.iter() {
            solver.add_clause(&c[..]);
        }
        self.pending.clear();
    }

    /// Stops the grounding at its clause budget or when the caller raises the
    /// interrupt flag: building the CNF must never run on past the umpire's limit.
    fn check_size(&self) -> Result<(), EncodeError> {
        if self.clauses > self.max_clauses || self.steps / 20 > self.max_clauses as u64 {
            Err(EncodeError::TooBig(self.max_clauses))
        } else if self
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        {
            Err(EncodeError::Stopped)
        } else {
            Ok(())
        }
    }

    // ----- structures <-> models -------------------------------------------------------

    /// A clause that excludes exactly this structure.
    pub fn block(&mut self, koan: &Koan) {
        if koan.set() != self.set {
            return;
        }
        let window = koan.window();
        let c: Vec<Lit> = (0..MAX_CELLS)
            .map(|i| match window[i] {
                None => self.occ[i],
                Some(p) => match self.pieces.iter().position(|q| *q == p) {
                    Some(k) => !self.cell[i][k],
                    None => self.occ[i],
                },
            })
            .collect();
        self.clause(&c);
    }

    /// The literal "cell i holds this piece" (`!occ` for empty).
    pub fn cell_value_lit(&self, i: usize, piece: Option<Piece>) -> Lit {
        match piece.and_then(|p| self.pieces.iter().position(|q| *q == p)) {
            Some(k) => self.cell[i][k],
            None => !self.occ[i],
        }
    }

    /// Reads the structure of the solver's model.
    pub fn decode(&self, solver: &dyn super::solver::Backend) -> Koan {
        let mut window = [None; MAX_CELLS];
        for (i, slot) in window.iter_mut().enumerate() {
            *slot = self.cell[i]
                .iter()
                .position(|&l| solver.value(l))
                .map(|k| self.pieces[k]);
        }
        Koan::from_window(self.set, &window)
            .expect("the symmetry clauses make every model a non-empty structure of the set")
    }

    // ----- gates -----------------------------------------------------------------------

    pub fn and(&mut self, parts: &[G]) -> G {
        let mut lits: Vec<Lit> = Vec::with_capacity(parts.len());
        for &g in parts {
            match g {
                G::Const(false) => return G::Const(false),
                G::Const(true) => {}
                G::Lit(l) => lits.push(l),
            }
        }
        lits.sort_unstable();
        lits.dedup();
        if lits.windows(2).any(|w| w[0] == !w[1]) {
            return G::Const(false);
        }
        match lits.len() {
            0 => G::Const(true),
            1 => G::Lit(lits[0]),
            _ => {
                if let Some(&v) = self.ands.get(&lits) {
                    return G::Lit(v);
                }
                let v = self.vm.new_lit();
                let mut big = vec![v];
                for &l in &lits {
                    self.clause(&[!v, l]);
                    big.push(!l);
                }
                self.clause(&big);
                // A conjunction implies what its conjuncts imply about a cell.
                if let Some(&(i, _)) = lits.iter().find_map(|l| self.within.get(l)) {
                    let mask = lits
                        .iter()
                        .filter_map(|l| self.within.get(l))
                        .filter(|w| w.0 == i)
                        .fold(self.full, |m, w| m & w.1);
                    self.within.insert(v, (i, mask));
                }
                self.ands.insert(lits, v);
                G::Lit(v)
            }
        }
    }

    pub fn or(&mut self, parts: &[G]) -> G {
        let negated: Vec<G> = parts.iter().map(|&g| !g).collect();
        !self.and(&negated)
    }

    pub fn xor(&mut self, a: G, b: G) -> G {
        match (a, b) {
            (G::Const(x), g) | (g, G::Const(x)) => {
                if x {
                    !g
                } else {
                    g
                }
            }
            (G::Lit(x), G::Lit(y)) => {
                if x == y {
                    return G::Const(false);
                }
                if x == !y {
                    return G::Const(true);
                }
                // Normalise to positive literals: !x ^ y = !(x ^ y).
                let flip = x.is_neg() != y.is_neg();
                let (px, py) = (x.var().pos_lit(), y.var().pos_lit());
                let key = (px.min(py), px.max(py));
                let v = match self.xors.get(&key) {
                    Some(&v) => v,
                    None => {
                        let v = self.vm.new_lit();
                        let (p, q) = key;
                        self.clause(&[!v, p, q]);
                        self.clause(&[!v, !p, !q]);
                        self.clause(&[v, !p, q]);
                        self.clause(&[v, p, !q]);
                        self.xors.insert(key, v);
                        v
                    }
                };
                if flip { G::Lit(!v) } else { G::Lit(v) }
            }
        }
    }

    // ----- cells -----------------------------------------------------------------------

    /// The pieces of the set (as a mask) for which `f` holds.
    fn mask_of(&self, f: impl Fn(Piece) -> bool) -> u16 {
        self.pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| f(**p))
            .fold(0, |m, (k, _)| m | (1 << k))
    }

    /// "Cell i holds one of the pieces in `mask`" (exact: the full mask is `occ[i]`).
    fn cell_has(&mut self, i: usize, mask: u16) -> G {
        if mask == 0 {
            return G::Const(false);
        }
        if mask == self.full {
            return G::Lit(self.occ[i]);
        }
        if mask.count_ones() == 1 {
            return G::Lit(self.cell[i][mask.trailing_zeros() as usize]);
        }
        if let Some(&g) = self.masks.get(&(i, mask)) {
            return g;
        }
        let parts: Vec<G> = (0..self.pieces.len())
            .filter(|k| mask & (1 << k) != 0)
            .map(|k| G::Lit(self.cell[i][k]))
            .collect();
        let g = self.or(&parts);
        if let G::Lit(l) = g {
            self.note_cell(l, i, mask);
        }
        self.masks.insert((i, mask), g);
        g
    }

    /// Records that `l` means "cell i holds one of `mask`".
    fn note_cell(&mut self, l: Lit, i: usize, mask: u16) {
        self.exact.insert(l, (i, mask));
        self.within.insert(l, (i, mask));
    }

    /// Like [`Self::cell_has`] for a cell known to be occupied (a bound variable's).
    /// There a mask and the negation of its complement mean the same, so one canonical
    /// literal serves both (the smaller mask; on a tie, the one holding piece 0): "not
    /// small" and "medium or large" then share atoms, counts and totalizers.
    fn bound_has(&mut self, i: usize, mask: u16) -> G {
        let rest = self.full & !mask;
        let (m, r) = (mask.count_ones(), rest.count_ones());
        if m < r || (m == r && mask & 1 != 0) {
            self.cell_has(i, mask)
        } else {
            !self.cell_has(i, rest)
        }
    }

    /// Some piece anywhere among `mask`.
    fn any(&mut self, mask: u16) -> G {
        if mask == self.full {
            // The symmetry clauses make every model non-empty.
            return G::Const(true);
        }
        if let Some(&g) = self.any.get(&mask) {
            return g;
        }
        let parts: Vec<G> = (0..MAX_CELLS).map(|i| self.cell_has(i, mask)).collect();
        let g = self.or(&parts);
        self.any.insert(mask, g);
        g
    }

    fn size_mask(&self, s: Size) -> u16 {
        self.mask_of(|p| p.size == s)
    }

    /// `lines[k]`: some piece in a line (row or column) with index >= k, for k in 0..=6,
    /// built as a chain so that the literals are monotone.
    fn line_ge(&mut self, rows: bool) -> Vec<G> {
        let cached = if rows { &self.row_ge } else { &self.col_ge };
        if let Some(v) = cached {
            return v.clone();
        }
        let mut v = vec![G::Const(false); SIDE + 1];
        for k in (0..SIDE).rev() {
            let mut parts: Vec<G> = (0..SIDE)
                .map(|j| {
                    let i = if rows { k * SIDE + j } else { j * SIDE + k };
                    G::Lit(self.occ[i])
                })
                .collect();
            parts.push(v[k + 1]);
            v[k] = self.or(&parts);
        }
        if rows {
            self.row_ge = Some(v.clone());
        } else {
            self.col_ge = Some(v.clone());
        }
        v
    }

    /// "The bounding box fits in w columns and h rows".
    pub fn fits(&mut self, w: usize, h: usize) -> G {
        let cols = self.line_ge(false);
        let rows = self.line_ge(true);
        let (cw, rh) = (cols[w.min(SIDE)], rows[h.min(SIDE)]);
        self.and(&[!cw, !rh])
    }

    /// "At least k pieces" (exact in both directions).
    pub fn pieces_at_least(&mut self, k: usize) -> Result<G, EncodeError> {
        let occ = self.occ.clone();
        self.at_least(occ, k as i128)
    }

    // ----- formulas --------------------------------------------------------------------

    /// Grounds a closed formula: first simplified (comparisons that no structure of
    /// the set can make true or false become constants) and mini-scoped (quantifiers
    /// pushed inward, so that each part is grounded once per binding of the few
    /// variables it mentions; see `lang::eval::miniscope`).
    pub fn formula(&mut self, f: &Formula) -> Result<G, EncodeError> {
        let f = simplify(f, self.set);
        // Unique binders, so that symmetric blocks can be bounded by variable index.
        let f = match unique_binders(&f).filter(|_| self.symmetry) {
            Some(unique) => {
                self.orders = orders(&unique);
                unique.formula
            }
            None => f,
        };
        let f = miniscope(&f);
        let mut env: Env = [None; 256];
        let g = self
            .ground(&f, &mut env)
            .and_then(|g| self.finish_links().map(|()| g));
        // Keys are addresses: they must not outlive the formula.
        self.memo_formula.clear();
        self.memo_term.clear();
        self.memo_cells.clear();
        self.blocks.clear();
        self.decided.clear();
        self.free.clear();
        self.local.clear();
        self.orders.clear();
        g
    }

    fn ground(&mut self, f: &Formula, env: &mut Env) -> Result<G, EncodeError> {
        self.steps += 1;
        if let Some((v, mask)) = self.local_mask(f) {
            let i = bound(env, v)?;
            return Ok(self.bound_has(i, mask));
        }
        Ok(match &f.kind {
            FormulaKind::Bool(b) => G::Const(*b),
            FormulaKind::Not(a) => !self.ground(a, env)?,
            FormulaKind::Bin(op, a, b) => {
                let a = self.ground(a, env)?;
                // Left to right, as the evaluator: a first part that decides the whole
                // spares grounding the second (mini-scoping puts atoms first, so a
                // relation between cells it cannot hold at cuts the branch).
                match (op, a) {
                    (BinOp::And, G::Const(false)) => return Ok(a),
                    (BinOp::Or, G::Const(true)) => return Ok(a),
                    (BinOp::Implies, G::Const(false)) => return Ok(G::Const(true)),
                    _ => {}
                }
                let b = self.ground(b, env)?;
                match op {
                    BinOp::And => self.and(&[a, b]),
                    BinOp::Or => self.or(&[a, b]),
                    BinOp::Xor => self.xor(a, b),
                    BinOp::Implies => self.or(&[!a, b]),
                    BinOp::Iff => !self.xor(a, b),
                }
            }
            FormulaKind::Forall(v, body) | FormulaKind::Exists(v, body) => {
                let universal = matches!(f.kind, FormulaKind::Forall(..));
                if let Some(mask) = self.local_mask_in(body, v.0) {
                    return Ok(if universal {
                        !self.any(self.full & !mask)
                    } else {
                        self.any(mask)
                    });
                }
                let key = self.memo_key(f as *const Formula as usize, env, || free(f));
                if let Some(g) = self.memo_formula.get(&key) {
                    return Ok(*g);
                }
                if let Some(g) = self.by_counts(f, env)? {
                    self.memo_formula.insert(key, g);
                    return Ok(g);
                }
                if !universal && let Some(g) = self.exists_by_class(v.0, body, env)? {
                    self.memo_formula.insert(key, g);
                    return Ok(g);
                }
                if let Some(g) = self.excluding(f, universal, v.0, body, env)? {
                    self.memo_formula.insert(key, g);
                    return Ok(g);
                }
                let saved = env[v.0 as usize];
                let mut parts = Vec::with_capacity(MAX_CELLS);
                for i in self.cells_for(v.0, f, env) {
                    env[v.0 as usize] = Some(i as u8);
                    let b = self.ground(body, env);
                    let b = match b {
                        Ok(b) => b,
                        Err(e) => {
                            env[v.0 as usize] = saved;
                            return Err(e);
                        }
                    };
                    let occ = G::Lit(self.occ[i]);
                    parts.push(if universal {
                        self.or(&[!occ, b])
                    } else {
                        self.and(&[occ, b])
                    });
                }
                env[v.0 as usize] = saved;
                self.check_size()?;
                let g = if universal {
                    self.and(&parts)
                } else {
                    self.or(&parts)
                };
                self.memo_formula.insert(key, g);
                g
            }
            FormulaKind::Unary(p, v) => {
                let i = bound(env, v.0)?;
                self.unary(*p, i)
            }
            FormulaKind::Binary(p, a, b) => {
                let (i, j) = (bound(env, a.0)?, bound(env, b.0)?);
                self.binary(*p, i, j)
            }
            FormulaKind::Same(a, b) => G::Const(bound(env, a.0)? == bound(env, b.0)?),
            FormulaKind::Cmp(op, a, b) => {
                let a = self.term(a, env)?;
                let b = self.term(b, env)?;
                let diff = a.scaled_add(&b, -1);
                self.compare(*op, &diff)?
            }
            FormulaKind::Parity(p, t) => {
                let t = self.term(t, env)?;
                let odd = self.odd(&t);
                if *p == Parity::Odd { odd } else { !odd }
            }
        })
    }

    /// When `f` speaks of one piece only (one variable, through local predicates and
    /// its pips), the variable and the mask of pieces for which it holds, computed with
    /// the evaluator's own definitions. Such a subformula grounds to one canonical
    /// "the cell holds one of these pieces" literal however it is phrased.
    fn local_mask(&mut self, f: &Formula) -> Option<(u8, u16)> {
        let addr = f as *const Formula as usize;
        let vars = self.free.entry(addr).or_insert_with(|| free(f));
        match vars.as_slice() {
            &[v] => self.local_mask_in(f, v).map(|m| (v, m)),
            _ => None,
        }
    }

    /// The pieces for which `f` holds when `v` is that piece, if `f` depends on nothing
    /// else (`true`, say, or `small(v) | pips(v) = 2`).
    fn local_mask_in(&mut self, f: &Formula, v: u8) -> Option<u16> {
        let key = (f as *const Formula as usize, v);
        if let Some(&m) = self.local.get(&key) {
            return m;
        }
        let mut mask = Some(0u16);
        for (k, &p) in self.pieces.iter().enumerate() {
            match local_truth(f, v, p) {
                Some(true) => mask = mask.map(|m| m | (1 << k)),
                Some(false) => {}
                None => {
                    mask = None;
                    break;
                }
            }
        }
        self.local.insert(key, mask);
        mask
    }

    /// `exists y. body` where the body only relates y to one bound piece x by what the
    /// two pieces are (not where they are: `same_size`, `larger`...), says what y is
    /// (local predicates), possibly requires `x != y`, and otherwise speaks of x
    /// alone. Then it holds exactly when x's piece p is such that some other piece
    /// (or any piece, without `x != y`) is among the pieces B(p) it may relate to: a
    /// count of B-pieces, at least 2 when p is itself in B and y must differ. Grounded
    /// so, "some piece is the same size as another piece" becomes "some size has at
    /// least two pieces", which counts (and the partition of the pieces by size) can
    /// reason about, instead of 630 pairs of cells. `None` when the body has another
    /// shape.
    fn exists_by_class(
        &mut self,
        y: u8,
        body: &Formula,
        env: &mut Env,
    ) -> Result<Option<G>, EncodeError> {
        let mut conjuncts = Vec::new();
        flatten_and(body, &mut conjuncts);
        let mut x = None;
        let mut distinct = false;
        let mut relation: Option<(BinaryPred, bool)> = None;
        let mut y_mask = self.full;
        let mut others = Vec::new();
        for c in conjuncts {
            let vars = free(c);
            if !vars.contains(&y) {
                others.push(c);
                continue;
            }
            if let Some(m) = self.local_mask_in(c, y) {
                y_mask &= m;
                continue;
            }
            let pair = |a: u8, b: u8| {
                if a == y && b != y {
                    Some((b, true))
                } else if b == y && a != y {
                    Some((a, false))
                } else {
                    None
                }
            };
            match &c.kind {
                FormulaKind::Not(inner) => match &inner.kind {
                    FormulaKind::Same(a, b) => match pair(a.0, b.0) {
                        Some((o, _)) if x.is_none_or(|x| x == o) => {
                            x = Some(o);
                            distinct = true;
                        }
                        _ => return Ok(None),
                    },
                    _ => return Ok(None),
                },
                FormulaKind::Binary(p, a, b) if relation.is_none() && piecewise(*p) => {
                    match pair(a.0, b.0) {
                        // y_first: the relation reads R(y, x).
                        Some((o, y_first)) if x.is_none_or(|x| x == o) => {
                            x = Some(o);
                            relation = Some((*p, y_first));
                        }
                        _ => return Ok(None),
                    }
                }
                _ => return Ok(None),
            }
        }
        let (Some(x), Some((p, y_first))) = (x, relation) else {
            return Ok(None);
        };
        let Some(i) = env[x as usize].map(usize::from) else {
            return Ok(None);
        };
        let origin = Pos::new(0, 0);
        let holds = |px: Piece, py: Piece| {
            if y_first {
                p.holds((origin, py), (origin, px))
            } else {
                p.holds((origin, px), (origin, py))
            }
        };
        // For each piece x may be: the pieces y may be.
        let rows =
            self.rows(|a, b| y_mask & (1 << b) != 0 && holds(self.pieces[a], self.pieces[b]));
        let mut options = Vec::new();
        for (b, a) in rows {
            let lits: Vec<Lit> = (0..MAX_CELLS)
                .filter_map(|j| match self.cell_has(j, b) {
                    G::Lit(l) => Some(l),
                    G::Const(_) => None,
                })
                .collect();
            let one = self.at_least(lits.clone(), 1)?;
            if distinct {
                // x itself is one of the B pieces when its piece is in B.
                let two = self.at_least(lits, 2)?;
                let inside = self.bound_has(i, a & b);
                let outside = self.bound_has(i, a & !b);
                let g1 = self.and(&[inside, two]);
                let g2 = self.and(&[outside, one]);
                options.push(self.or(&[g1, g2]));
            } else {
                let here = self.bound_has(i, a);
                options.push(self.and(&[here, one]));
            }
        }
        let mut parts = vec![self.or(&options)];
        for c in others {
            parts.push(self.ground(c, env)?);
        }
        Ok(Some(self.and(&parts)))
    }

    /// `exists w. w != u1 & ... & w != uk & psi(w)` where some of the `u` are not in
    /// `psi` (the "another piece" of a chain: `exists w. points_at(z, w) & w != y & w
    /// != x`), and its dual `forall w. w = u1 | ... | psi(w)`. Grounded cell by cell,
    /// it would be one disjunction per binding of all of z, y, x; but it holds exactly
    /// when more pieces satisfy `psi` than the (distinct) `u` pieces that do: `P >= 1
    /// + E`, where `P` counts the cells of psi (one shared count per binding of psi's
    /// own variables) and `E` is the sum of the few literals of psi at the u's cells.
    /// `None` for other shapes.
    fn excluding(
        &mut self,
        f: &Formula,
        universal: bool,
        w: u8,
        body: &Formula,
        env: &mut Env,
    ) -> Result<Option<G>, EncodeError> {
        let (others, rest) = exclusions(universal, w, body);
        if others.is_empty() {
            return Ok(None);
        }
        let mut psi_free: Vec<u8> = Vec::new();
        for &(p, _) in &rest {
            let addr = p as *const Formula as usize;
            let fv = self.free.entry(addr).or_insert_with(|| free(p));
            psi_free.extend(fv.iter().copied().filter(|&x| x != w));
        }
        psi_free.sort_unstable();
        psi_free.dedup();
        if others.iter().all(|u| psi_free.contains(u)) {
            return Ok(None);
        }
        // psi at every cell, once per binding of its own variables.
        let key = (
            f as *const Formula as usize,
            psi_free
                .iter()
                .map(|&x| env[x as usize].unwrap_or(u8::MAX))
                .collect::<Vec<u8>>(),
        );
        let (cells, psi) = match self.memo_cells.get(&key) {
            Some(c) => c.clone(),
            None => {
                let saved = env[w as usize];
                let mut cells = Vec::with_capacity(MAX_CELLS);
                let mut psi = Vec::with_capacity(MAX_CELLS);
                for i in 0..MAX_CELLS {
                    env[w as usize] = Some(i as u8);
                    let mut conj = Vec::with_capacity(rest.len() + 1);
                    for &(p, positive) in &rest {
                        let g = match self.ground(p, env) {
                            Ok(g) => g,
                            Err(e) => {
                                env[w as usize] = saved;
                                return Err(e);
                            }
                        };
                        let g = if positive { g } else { !g };
                        conj.push(g);
                        if g == G::Const(false) {
                            break;
                        }
                    }
                    let here = self.and(&conj);
                    psi.push(here);
                    cells.push(self.and(&[G::Lit(self.occ[i]), here]));
                }
                env[w as usize] = saved;
                self.check_size()?;
                self.memo_cells.insert(key, (cells.clone(), psi.clone()));
                (cells, psi)
            }
        };
        let p: Vec<Lit> = cells
            .iter()
            .filter_map(|g| match g {
                G::Lit(l) => Some(*l),
                G::Const(_) => None,
            })
            .collect();
        // psi at the excluded pieces' cells (each cell once).
        let mut at: Vec<usize> = others
            .iter()
            .map(|&u| bound(env, u))
            .collect::<Result<_, _>>()?;
        at.sort_unstable();
        at.dedup();
        // Their cells are occupied (they are bound), so psi alone says whether they
        // count: often a constant.
        let mut sure = 0;
        let mut e = Vec::new();
        for &c in &at {
            match psi[c] {
                G::Const(true) => sure += 1,
                G::Const(false) => {}
                G::Lit(l) => e.push(l),
            }
        }
        // P >= 1 + sure + E: for every k, E >= k implies P >= k + 1 + sure.
        let mut all = Vec::with_capacity(e.len() + 1);
        for k in 0..=e.len() as i128 {
            let e_k = self.at_least(e.clone(), k)?;
            let p_k = self.at_least(p.clone(), k + 1 + sure)?;
            all.push(self.or(&[!e_k, p_k]));
        }
        let exists = self.and(&all);
        Ok(Some(if universal { !exists } else { exists }))
    }

    /// A block of quantifiers that only looks at what the pieces are (see
    /// `piecewise.rs`), decided by the counts of each class of pieces: for each class
    /// its outer variables' pieces may be in, the capped count vectors that make it
    /// true, as a decision diagram over the classes' count outputs. `None` for other
    /// formulas.
    fn by_counts(&mut self, f: &Formula, env: &Env) -> Result<Option<G>, EncodeError> {
        let addr = f as *const Formula as usize;
        let set = self.set;
        let block = self
            .blocks
            .entry(addr)
            .or_insert_with(|| Block::analyse(f, set))
            .clone();
        let Some(block) = block else {
            return Ok(None);
        };
        self.partition(&block.classes)?;
        // The outer variables' pieces, one element per distinct cell.
        let mut cells: Vec<usize> = Vec::new();
        let mut element_of = Vec::with_capacity(block.free.len());
        for &v in &block.free {
            let c = bound(env, v)?;
            let e = match cells.iter().position(|&x| x == c) {
                Some(e) => e,
                None => {
                    cells.push(c);
                    cells.len() - 1
                }
            };
            element_of.push(e);
        }
        let t = block.classes.len();
        let mut options = Vec::new();
        for code in 0..t.pow(cells.len() as u32) {
            let classes: Vec<usize> = (0..cells.len())
                .map(|e| code / t.pow(e as u32) % t)
                .collect();
            let mut parts: Vec<G> = cells
                .iter()
                .zip(&classes)
                .map(|(&c, &k)| self.bound_has(c, block.classes[k]))
                .collect();
            let outer: Vec<(usize, usize)> = element_of.iter().map(|&e| (e, classes[e])).collect();
            let key = (addr, classes);
            let decided = match self.decided.get(&key) {
                Some(&g) => g,
                None => {
                    let g = self.by_count_vectors(f, &block, &outer, &mut Vec::new())?;
                    self.decided.insert(key, g);
                    g
                }
            };
            parts.push(decided);
            options.push(self.and(&parts));
        }
        self.check_size()?;
        Ok(Some(self.or(&options)))
    }

    /// The block's truth over the count vectors extending `prefix` (counts of the
    /// first classes), split on the next class's count.
    fn by_count_vectors(
        &mut self,
        f: &Formula,
        block: &Block,
        outer: &[(usize, usize)],
        prefix: &mut Vec<usize>,
    ) -> Result<G, EncodeError> {
        let class = prefix.len();
        if class == block.classes.len() {
            // An impossible vector (fewer pieces than the outer ones) never occurs.
            let truth = block.truth(f, self.set, outer, prefix).unwrap_or(false);
            return Ok(G::Const(truth));
        }
        let mut children = Vec::with_capacity(block.cap + 1);
        for n in 0..=block.cap {
            prefix.push(n);
            children.push(self.by_count_vectors(f, block, outer, prefix)?);
            prefix.pop();
        }
        if children.iter().all(|g| *g == children[0]) {
            return Ok(children[0]);
        }
        let lits: Vec<Lit> = (0..MAX_CELLS)
            .filter_map(|i| match self.cell_has(i, block.classes[class]) {
                G::Lit(l) => Some(l),
                G::Const(_) => None,
            })
            .collect();
        let mut parts = Vec::new();
        for (n, &child) in children.iter().enumerate() {
            if child == G::Const(false) {
                continue;
            }
            let at_least = self.at_least(lits.clone(), n as i128)?;
            let below = if n < block.cap {
                !self.at_least(lits.clone(), n as i128 + 1)?
            } else {
                G::Const(true)
            };
            parts.push(self.and(&[at_least, below, child]));
        }
        Ok(self.or(&parts))
    }

    /// The cells a quantifier over `v` (the node `f`) tries: all of them, or those
    /// within the bounds of its symmetric block given the block's variables already
    /// bound and free in `f` (free, so that the memo key covers what the bounds read).
    fn cells_for(&mut self, v: u8, f: &Formula, env: &Env) -> std::ops::Range<usize> {
        let Some(bounds) = self.orders.get(&v) else {
            return 0..MAX_CELLS;
        };
        let vars = self
            .free
            .entry(f as *const Formula as usize)
            .or_insert_with(|| free(f));
        let (mut lo, mut hi) = (0, MAX_CELLS);
        for &(u, below) in bounds {
            let Some(c) = env[u as usize].filter(|_| vars.contains(&u)) else {
                continue;
            };
            if below {
                lo = lo.max(c as usize);
            } else {
                hi = hi.min(c as usize + 1);
            }
        }
        lo..hi.max(lo)
    }

    fn memo_key(
        &mut self,
        addr: usize,
        env: &Env,
        free: impl FnOnce() -> Vec<u8>,
    ) -> (usize, Vec<u8>) {
        // `lang::eval::free` and `free_in_term` give each variable once, sorted.
        let vars = self.free.entry(addr).or_insert_with(free);
        debug_assert!(vars.windows(2).all(|w| w[0] < w[1]));
        let cells = vars
            .iter()
            .map(|&v| env[v as usize].unwrap_or(u8::MAX))
            .collect();
        (addr, cells)
    }

    fn unary(&mut self, p: UnaryPred, i: usize) -> G {
        let (row, col) = (i / SIDE, i % SIDE);
        if p.is_local() {
            let mask = self.mask_of(|q| p.holds_on_piece(q) == Some(true));
            return self.bound_has(i, mask);
        }
        match p {
            // A piece is in row 0 (symmetry clause), so topmost means row 0.
            UnaryPred::Topmost => G::Const(row == 0),
            UnaryPred::Leftmost => G::Const(col == 0),
            UnaryPred::Bottommost => !self.line_ge(true)[row + 1],
            UnaryPred::Rightmost => !self.line_ge(false)[col + 1],
            UnaryPred::Largest | UnaryPred::Smallest => {
                // Its size is s and no piece of a size beyond s (in the predicate's
                // direction) exists anywhere.
                let largest = p == UnaryPred::Largest;
                let mut options = Vec::new();
                for s in Size::ALL {
                    let mine = self.size_mask(s);
                    let here = self.bound_has(i, mine);
                    let mut parts = vec![here];
                    for t in Size::ALL {
                        if (largest && t > s) || (!largest && t < s) {
                            let m = self.size_mask(t);
                            let a = self.any(m);
                            parts.push(!a);
                        }
                    }
                    let g = self.and(&parts);
                    options.push(g);
                }
                self.or(&options)
            }
            _ => unreachable!("local predicates are handled above"),
        }
    }

    /// `p(piece at i, piece at j)`, remembered per (relation, cells): a player's
    /// four-variable pattern asks the same atom for many bindings.
    fn binary(&mut self, p: BinaryPred, i: usize, j: usize) -> G {
        let key = (p as usize * MAX_CELLS + i) * MAX_CELLS + j;
        if self.atoms.is_empty() {
            self.atoms = vec![None; BinaryPred::ALL.len() * MAX_CELLS * MAX_CELLS];
        }
        if let Some(g) = self.atoms[key] {
            return g;
        }
        let g = self.binary_uncached(p, i, j);
        self.atoms[key] = Some(g);
        g
    }

    fn binary_uncached(&mut self, p: BinaryPred, i: usize, j: usize) -> G {
        let at = |i: usize| Pos::new((i / SIDE) as u8, (i % SIDE) as u8);
        let (a, b) = (at(i), at(j));
        if i == j {
            // One piece related to itself.
            let mask = self.mask_of(|q| p.holds((a, q), (a, q)));
            return self.bound_has(i, mask);
        }
        let rows = self.rows(|x, y| p.holds((a, self.pieces[x]), (b, self.pieces[y])));
        let mut options = Vec::with_capacity(rows.len());
        for (objects, subjects) in rows {
            let s = self.bound_has(i, subjects);
            let o = self.bound_has(j, objects);
            let g = self.and(&[s, o]);
            options.push(g);
        }
        self.or(&options)
    }

    /// A relation between pieces (by index in the set), grouped by rows: for each
    /// non-empty set of objects (mask), the subjects related to exactly those.
    fn rows(&self, holds: impl Fn(usize, usize) -> bool) -> Vec<(u16, u16)> {
        let n = self.pieces.len();
        let mut rows: Vec<(u16, u16)> = Vec::new();
        for x in 0..n {
            let row = (0..n)
                .filter(|&y| holds(x, y))
                .fold(0u16, |m, y| m | (1 << y));
            if row == 0 {
                continue;
            }
            match rows.iter_mut().find(|r| r.0 == row) {
                Some(r) => r.1 |= 1 << x,
                None => rows.push((row, 1 << x)),
            }
        }
        rows
    }

    // ----- terms -----------------------------------------------------------------------

    fn term(&mut self, t: &Term, env: &mut Env) -> Result<Lin, EncodeError> {
        let lin = match &t.kind {
            TermKind::Int(n) => Lin::constant(*n as i128),
            TermKind::Count(v, body) | TermKind::PipsSum(v, body) => {
                let pips = matches!(t.kind, TermKind::PipsSum(..));
                if let Some(mask) = self.local_mask_in(body, v.0) {
                    for sizes in [true, false] {
                        if self.classes(sizes).contains(&mask) {
                            self.partition_of(sizes)?;
                        }
                    }
                    self.pips_total_used |= pips && mask == self.full;
                    // Per cell: holds one of these pieces (with 2+ / 3+ pips).
                    let m2 = self.mask_of(|p| p.pips() >= 2);
                    let m3 = self.mask_of(|p| p.pips() >= 3);
                    let here: Vec<(G, [G; 2])> = (0..MAX_CELLS)
                        .map(|i| {
                            let g = self.cell_has(i, mask);
                            (
                                g,
                                [self.cell_has(i, mask & m2), self.cell_has(i, mask & m3)],
                            )
                        })
                        .collect();
                    return Ok(self.sum_cells(&here, pips));
                }
                let key = self.memo_key(t as *const Term as usize, env, || free_in_term(t));
                if let Some(l) = self.memo_term.get(&key) {
                    return Ok(l.clone());
                }
                let saved = env[v.0 as usize];
                let mut here = Vec::with_capacity(MAX_CELLS);
                for i in 0..MAX_CELLS {
                    env[v.0 as usize] = Some(i as u8);
                    let b = match self.ground(body, env) {
                        Ok(b) => b,
                        Err(e) => {
                            env[v.0 as usize] = saved;
                            return Err(e);
                        }
                    };
                    let occ = G::Lit(self.occ[i]);
                    let g = self.and(&[occ, b]);
                    let extra = if !pips {
                        [G::Const(false); 2]
                    } else if b == G::Const(true) {
                        // The same literals as a local body's (canonical).
                        let m2 = self.mask_of(|p| p.pips() >= 2);
                        let m3 = self.mask_of(|p| p.pips() >= 3);
                        [self.cell_has(i, m2), self.cell_has(i, m3)]
                    } else {
                        let [p2, p3] = self.extra_pips(i);
                        [self.and(&[g, p2]), self.and(&[g, p3])]
                    };
                    here.push((g, extra));
                }
                env[v.0 as usize] = saved;
                self.check_size()?;
                let lin = self.sum_cells(&here, pips);
                self.memo_term.insert(key, lin.clone());
                lin
            }
            TermKind::PipsOf(v) => {
                let i = bound(env, v.0)?;
                let mut lin = Lin::constant(1);
                for g in self.extra_pips(i) {
                    lin.add_g(g, 1);
                }
                lin
            }
            TermKind::Pieces => self.pieces_lin(),
            TermKind::Width | TermKind::Height => {
                // The box starts at line 0, so its extent is 1 + #{k >= 1: a piece in line >= k}.
                let lines = self.line_ge(matches!(t.kind, TermKind::Height));
                let mut lin = Lin::constant(1);
                for &g in &lines[1..SIDE] {
                    lin.add_g(g, 1);
                }
                lin
            }
            TermKind::Groups => {
                let roots = self.roots();
                let mut lin = Lin::default();
                for r in roots {
                    lin.add_g(G::Lit(r), 1);
                }
                // Each group has a piece.
                self.link(&lin, &self.pieces_lin(), 1);
                lin
            }
            TermKind::Sizes => {
                let mut lin = Lin::default();
                for s in Size::ALL {
                    let m = self.size_mask(s);
                    let g = if m == 0 { G::Const(false) } else { self.any(m) };
                    lin.add_g(g, 1);
                }
                // Each size present takes a piece.
                self.link(&lin, &self.pieces_lin(), 1);
                self.partition_of(true)?;
                lin
            }
            TermKind::Directions => {
                let mut lin = Lin::default();
                for d in crate::koan::Direction::ALL {
                    let m = self.mask_of(|p| p.dir == d);
                    let g = if m == 0 { G::Const(false) } else { self.any(m) };
                    lin.add_g(g, 1);
                }
                self.link(&lin, &self.pieces_lin(), 1);
                self.partition_of(false)?;
                lin
            }
            TermKind::Add(a, b) | TermKind::Sub(a, b) => {
                let sign = if matches!(t.kind, TermKind::Add(..)) {
                    1
                } else {
                    -1
                };
                let a = self.term(a, env)?;
                let b = self.term(b, env)?;
                a.scaled_add(&b, sign)
            }
            TermKind::Mul(k, a) => {
                let a = self.term(a, env)?;
                let scaled = Lin::default().scaled_add(&a, *k as i128);
                // Comparisons count a weight-w literal w times: keep that bounded.
                let weight: i128 = scaled.terms.iter().map(|t| t.1.abs()).sum();
                if weight > MAX_WEIGHT {
                    return Err(EncodeError::Other(
                        "a multiplier in the pattern is too large to reason about exactly".into(),
                    ));
                }
                scaled
            }
            TermKind::Mod(a, k) => {
                let a = self.term(a, env)?;
                self.remainder(a, *k)?
            }
        };
        let (lo, hi) = lin.range();
        if lo < -MAX_MAGNITUDE || hi > MAX_MAGNITUDE {
            return Err(EncodeError::Other(
                "a number in the pattern is too close to the 64-bit limit to reason about \
                 exactly"
                    .into(),
            ));
        }
        Ok(lin)
    }

    /// `a % k` (see [`crate::lang::ast::remainder`]): `a - |k| * q` for a quotient `q`
    /// in unary over fresh literals (`q = q_lo + b_1 + ... + b_n`, `b_{j+1} -> b_j`),
    /// with `0 <= a - |k| * q < |k|` required outright. That pins `q` to `a`'s
    /// quotient on every assignment, so the fresh literals are a definition (one
    /// extension per structure) and the clauses can stay for good.
    fn remainder(&mut self, a: Lin, k: i64) -> Result<Lin, EncodeError> {
        let k = k.unsigned_abs() as i128;
        if k == 0 {
            return Ok(a);
        }
        if a.terms.is_empty() {
            return Ok(Lin::constant(a.konst.rem_euclid(k)));
        }
        let (lo, hi) = a.range();
        let (q_lo, q_hi) = (lo.div_euclid(k), hi.div_euclid(k));
        if q_hi - q_lo > MAX_WEIGHT / k.max(1) {
            return Err(EncodeError::Other(
                "a remainder in the pattern is too large to reason about exactly".into(),
            ));
        }
        let steps: Vec<Lit> = (q_lo..q_hi).map(|_| self.vm.new_lit()).collect();
        for pair in steps.windows(2) {
            self.clause(&[!pair[1], pair[0]]);
        }
        let mut r = a;
        r.konst -= k * q_lo;
        for &b in &steps {
            r.add_g(G::Lit(b), -k);
        }
        let below = Lin {
            konst: r.konst - (k - 1),
            terms: r.terms.clone(),
        };
        for g in [
            self.compare(CmpOp::Ge, &r)?,
            self.compare(CmpOp::Le, &below)?,
        ] {
            if !self.require(g) {
                return Err(EncodeError::Other(
                    "internal error: a remainder has no quotient".into(),
                ));
            }
        }
        Ok(r)
    }

    /// The size classes or the direction classes of the set, as masks (those that
    /// exist in the set).
    fn classes(&self, sizes: bool) -> Vec<u16> {
        let masks: Vec<u16> = if sizes {
            Size::ALL.iter().map(|&s| self.size_mask(s)).collect()
        } else {
            crate::koan::Direction::ALL
                .iter()
                .map(|&d| self.mask_of(|p| p.dir == d))
                .collect()
        };
        masks.into_iter().filter(|&m| m != 0).collect()
    }

    fn partition_of(&mut self, sizes: bool) -> Result<(), EncodeError> {
        let classes = self.classes(sizes);
        self.partition(&classes)
    }

    /// Ties the counts of a partition of the pieces into classes (by size, or by
    /// direction) to the piece count: "pieces >= k" holds exactly when the class
    /// counts sum to k or more. Each class count is a (shared) totalizer; their sum is
    /// built from those outputs with the totalizer's own merge clauses (a sum of two
    /// unary numbers), and its outputs are made equivalent to the piece count's.
    /// True of every structure, hence sound; it spares the solver pigeonhole
    /// arguments such as "four pieces of pairwise different sizes cannot exist".
    fn partition(&mut self, classes: &[u16]) -> Result<(), EncodeError> {
        if classes.len() < 2 || self.partitioned.iter().any(|p| p == classes) {
            return Ok(());
        }
        self.partitioned.push(classes.to_vec());
        let parts: Vec<(Vec<Lit>, usize)> = classes
            .iter()
            .map(|&mask| (self.class_lits(mask), 1))
            .collect();
        let total = self.occ.clone();
        self.tie(&parts, &total)
    }

    /// The literals "cell i holds one of `mask`", over the cells where that can be.
    fn class_lits(&mut self, mask: u16) -> Vec<Lit> {
        (0..MAX_CELLS)
            .filter_map(|i| match self.cell_has(i, mask) {
                G::Lit(l) => Some(l),
                G::Const(_) => None,
            })
            .collect()
    }

    /// Says that the counts of `parts` (each weighted) add up to the count of
    /// `total`: each part's count as a unary number (its own shared totalizer's
    /// outputs, repeated `weight` times), summed with the totalizer's merge clauses,
    /// and the sum's outputs made equivalent to the total's. True of every structure
    /// by construction of the callers (the parts split what the total counts), hence
    /// sound; it gives the solver at once what it would otherwise need a pigeonhole
    /// argument for.
    fn tie(&mut self, parts: &[(Vec<Lit>, usize)], total: &[Lit]) -> Result<(), EncodeError> {
        let cap = total.len();
        let mut sum: Vec<G> = Vec::new();
        for (c, (lits, weight)) in parts.iter().enumerate() {
            let mut unary = Vec::with_capacity(lits.len() * weight);
            for k in 1..=lits.len() as i128 {
                let g = self.at_least(lits.clone(), k)?;
                unary.extend(std::iter::repeat_n(g, *weight));
            }
            sum = if c == 0 {
                unary
            } else {
                self.merge(&sum, &unary, cap)
            };
        }
        for (k, &s) in sum.iter().enumerate() {
            let p = self.at_least(total.to_vec(), k as i128 + 1)?;
            self.imply(s, p);
            self.imply(p, s);
        }
        self.check_size()
    }

    /// Ties added once the formulas are grounded, when the counts they relate are in
    /// use: the pieces per row (and per column) add up to the pieces, and the pips of
    /// the small, medium and large pieces (1, 2 and 3 each) to the total pips.
    fn finish_links(&mut self) -> Result<(), EncodeError> {
        for rows in [true, false] {
            let r = usize::from(rows);
            if self.lines_used[r] && !self.lines_tied[r] {
                self.lines_tied[r] = true;
                let parts: Vec<(Vec<Lit>, usize)> = (0..SIDE)
                    .map(|k| {
                        let cells =
                            (0..SIDE).map(|j| if rows { k * SIDE + j } else { j * SIDE + k });
                        (cells.map(|i| self.occ[i]).collect(), 1)
                    })
                    .collect();
                let total = self.occ.clone();
                self.tie(&parts, &total)?;
            }
        }
        let sizes = self.classes(true);
        let sized = sizes.len() > 1
            && self
                .partitioned
                .iter()
                .any(|p| p.len() == sizes.len() && p.iter().all(|m| sizes.contains(m)));
        if self.pips_total_used && sized && !self.pips_tied {
            self.pips_tied = true;
            let weighted: Vec<(u16, usize)> = Size::ALL
                .iter()
                .map(|&s| (self.size_mask(s), s.pips() as usize))
                .filter(|(m, _)| *m != 0)
                .collect();
            let parts: Vec<(Vec<Lit>, usize)> = weighted
                .into_iter()
                .map(|(m, w)| (self.class_lits(m), w))
                .collect();
            let total = self.pips_total_lits();
            self.tie(&parts, &total)?;
        }
        Ok(())
    }

    /// The literals the total pips counts: per cell, "a piece", "2 pips or more", "3
    /// pips" (the same as a `pips(x: true)` term's, so that its totalizer is shared).
    fn pips_total_lits(&mut self) -> Vec<Lit> {
        let m2 = self.mask_of(|p| p.pips() >= 2);
        let m3 = self.mask_of(|p| p.pips() >= 3);
        let full = self.full;
        let mut lits = Vec::new();
        for i in 0..MAX_CELLS {
            for m in [full, m2, m3] {
                if let G::Lit(l) = self.cell_has(i, m) {
                    lits.push(l);
                }
            }
        }
        lits.sort_unstable();
        lits
    }

    /// The unary sum of two unary numbers (`a[j]` means "a >= j + 1"), at most `cap`:
    /// the totalizer's merge clauses in both directions. Sums beyond `cap` are
    /// excluded (callers only merge counts of disjoint sets of cells' pieces).
    fn merge(&mut self, a: &[G], b: &[G], cap: usize) -> Vec<G> {
        let n = (a.len() + b.len()).min(cap);
        let s: Vec<G> = (0..n).map(|_| G::Lit(self.vm.new_lit())).collect();
        let at = |v: &[G], i: usize| {
            if i == 0 {
                G::Const(true)
            } else {
                v.get(i - 1).copied().unwrap_or(G::Const(false))
            }
        };
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                // a >= i and b >= j imply s >= i + j.
                if i + j >= 1 {
                    let both = [at(a, i), at(b, j)];
                    let target = at(&s, i + j);
                    let target = if i + j > n { G::Const(false) } else { target };
                    self.clause_g(&[!both[0], !both[1], target]);
                }
                // a < i + 1 and b < j + 1 imply s < i + j + 1.
                if i + j < n {
                    let (na, nb) = (at(a, i + 1), at(b, j + 1));
                    self.clause_g(&[na, nb, !at(&s, i + j + 1)]);
                }
            }
        }
        s
    }

    /// A clause over grounded values (constants simplified away).
    fn clause_g(&mut self, parts: &[G]) {
        if parts.contains(&G::Const(true)) {
            return;
        }
        let lits: Vec<Lit> = parts
            .iter()
            .filter_map(|g| match g {
                G::Lit(l) => Some(*l),
                G::Const(_) => None,
            })
            .collect();
        self.clause(&lits);
    }

    /// The number of pieces: the sum of the occupancy literals.
    fn pieces_lin(&self) -> Lin {
        Lin {
            konst: 0,
            terms: self.occ.iter().map(|&l| (l, 1)).collect(),
        }
    }

    /// The count of the cells' first literals, or with `pips` their total pips (the
    /// cell's literal plus its "2+" and "3+" literals). A pips total is remembered with
    /// its count so that their bounds can be linked (see [`Self::at_least`]).
    fn sum_cells(&mut self, here: &[(G, [G; 2])], pips: bool) -> Lin {
        let mut count = Lin::default();
        for &(g, _) in here {
            count.add_g(g, 1);
        }
        if !pips {
            return count;
        }
        let mut total = count.clone();
        for &(_, extra) in here {
            for g in extra {
                total.add_g(g, 1);
            }
        }
        // Pips are between the count and three times the count.
        self.link(&total, &count, 3);
        self.link(&count, &total, 1);
        total
    }

    /// The literals "the piece at i has at least 2 pips" and "at least 3 pips" (for a
    /// bound, hence occupied, cell): its pips are 1 plus how many of them hold.
    fn extra_pips(&mut self, i: usize) -> [G; 2] {
        let m2 = self.mask_of(|p| p.pips() >= 2);
        let m3 = self.mask_of(|p| p.pips() >= 3);
        [self.bound_has(i, m2), self.bound_has(i, m3)]
    }

    /// `diff op 0`. Every comparison is first reduced to `e >= 0` forms, so that
    /// `a > b`, `b < a` and `not (a <= b)` all become one literal.
    fn compare(&mut self, op: CmpOp, diff: &Lin) -> Result<G, EncodeError> {
        let e = self.paired(diff.canonical());
        let neg = e.negated();
        let minus_one = |l: &Lin| Lin {
            konst: l.konst - 1,
            terms: l.terms.clone(),
        };
        Ok(match op {
            CmpOp::Ge => self.ge0(&e)?,
            CmpOp::Gt => self.ge0(&minus_one(&e))?,
            CmpOp::Le => self.ge0(&neg)?,
            CmpOp::Lt => self.ge0(&minus_one(&neg))?,
            CmpOp::Eq | CmpOp::Ne => {
                let a = self.ge0(&e)?;
                let b = self.ge0(&neg)?;
                let eq = self.and(&[a, b]);
                if op == CmpOp::Eq { eq } else { !eq }
            }
        })
    }

    /// Cancels opposite terms that count the same cell: when `l` implies `m` (both about
    /// cell i, `l`'s pieces among `m`'s, or a clause says so), `m - l` is the single
    /// literal `m & !l`. So
    /// `groups - pieces` becomes minus the number of occupied non-root cells, and
    /// `count(small) < pieces` needs no totalizer at all.
    fn paired(&mut self, mut e: Lin) -> Lin {
        let mut extra = Vec::new();
        for a in 0..e.terms.len() {
            for b in 0..e.terms.len() {
                let ((l, x), (m, y)) = (e.terms[a], e.terms[b]);
                if a == b || x == 0 || y == 0 || (x > 0) == (y > 0) {
                    continue;
                }
                let implied = self.implies.get(&l) == Some(&m);
                let same_cell = match (self.within.get(&l), self.exact.get(&m)) {
                    (Some(&(i, inner)), Some(&(j, outer))) => i == j && inner & !outer == 0,
                    _ => false,
                };
                if !implied && !same_cell {
                    continue;
                }
                // x*l + y*m = x'*l + y'*m + sign(y)*c*(m - l), m - l = m & !l.
                let c = x.abs().min(y.abs());
                let n = self.and(&[G::Lit(m), G::Lit(!l)]);
                e.terms[a].1 -= x.signum() * c;
                e.terms[b].1 -= y.signum() * c;
                extra.push((n, y.signum() * c));
            }
        }
        if extra.is_empty() {
            return e;
        }
        for (n, w) in extra {
            e.add_g(n, w);
        }
        e.canonical()
    }

    /// `e >= 0` for a canonical `e`, in one orientation per pair of opposite
    /// constraints: when `e`'s first term is negative, `e >= 0` is `!(-e - 1 >= 0)`.
    fn ge0(&mut self, e: &Lin) -> Result<G, EncodeError> {
        let Some(&(_, lead)) = e.terms.first() else {
            return Ok(G::Const(e.konst >= 0));
        };
        if lead < 0 {
            let mut flipped = e.negated();
            flipped.konst -= 1;
            return Ok(!self.ge0(&flipped)?);
        }
        let key = (e.terms.clone(), e.konst);
        if let Some(&g) = self.comparisons.get(&key) {
            return Ok(g);
        }
        // P - N + konst >= 0 with P, N sums of literals (weights as repetitions).
        let mut pos = Vec::new();
        let mut neg = Vec::new();
        for &(l, w) in &e.terms {
            let side = if w > 0 { &mut pos } else { &mut neg };
            side.extend(std::iter::repeat_n(l, w.unsigned_abs() as usize));
        }
        let k = -e.konst;
        let g = if neg.is_empty() {
            self.at_least(pos, k)?
        } else {
            // Two unary numbers, each its own (shared) totalizer, compared output by
            // output: P >= N + k  <=>  for every j: N >= j implies P >= j + k.
            let mut parts = Vec::with_capacity(neg.len() + 1);
            for j in 0..=neg.len() as i128 {
                let n_j = self.at_least(neg.clone(), j)?;
                let p_j = self.at_least(pos.clone(), j + k)?;
                parts.push(self.or(&[!n_j, p_j]));
            }
            self.and(&parts)
        };
        self.comparisons.insert(key, g);
        Ok(g)
    }

    /// "At least k of these literals (counted with multiplicity) are true", defined in
    /// both directions, plus the known relations between counts (see [`Link`]).
    fn at_least(&mut self, mut lits: Vec<Lit>, k: i128) -> Result<G, EncodeError> {
        lits.sort_unstable();
        if lits.len() == SIDE {
            if let Some(&rows) = self.lines.get(&lits) {
                self.lines_used[usize::from(rows)] = true;
            }
        }
        let g = self.at_least_sorted(&lits, k)?;
        if let (G::Lit(_), true) = (g, k > 0) {
            self.chain(&lits, k as usize, g);
        }
        if !self.linking && k > 0 && k <= lits.len() as i128 {
            self.linking = true;
            let result = self.apply_links(&lits, k, g);
            self.linking = false;
            result?;
        }
        Ok(g)
    }

    /// Outputs of one count are monotone ("sum >= k + 1" implies "sum >= k"); the
    /// totalizer implies it but does not say it, so say it between neighbouring
    /// outputs in use.
    fn chain(&mut self, lits: &[Lit], k: usize, g: G) {
        let outputs = self.outputs.entry(lits.to_vec()).or_default();
        if outputs.insert(k, g).is_some() {
            return;
        }
        let below = outputs.range(..k).next_back().map(|(_, &g)| g);
        let above = outputs.range(k + 1..).next().map(|(_, &g)| g);
        if let Some(b) = below {
            self.imply(g, b);
        }
        if let Some(a) = above {
            self.imply(a, g);
        }
    }

    /// Says what the registered links imply about the output `g` ("`lits` >= k").
    fn apply_links(&mut self, lits: &[Lit], k: i128, g: G) -> Result<(), EncodeError> {
        let links: Vec<Link> = self
            .links
            .iter()
            .filter(|l| l.small == lits || l.big == lits)
            .cloned()
            .collect();
        for link in links {
            if link.small == lits {
                // small >= k  implies  big >= ceil(k / ratio)
                let big = self.at_least(link.big.clone(), (k + link.ratio - 1) / link.ratio)?;
                self.imply(g, big);
            } else {
                // small >= ratio * (k - 1) + 1  implies  big >= k
                let small = self.at_least(link.small.clone(), link.ratio * (k - 1) + 1)?;
                self.imply(small, g);
            }
        }
        Ok(())
    }

    /// Registers `count(small) <= ratio * count(big)` for sums over these literals.
    fn link(&mut self, small: &Lin, big: &Lin, ratio: i128) {
        let plain = |l: &Lin| {
            (l.konst == 0 && l.terms.iter().all(|t| t.1 == 1)).then(|| {
                let mut v: Vec<Lit> = l.terms.iter().map(|t| t.0).collect();
                v.sort_unstable();
                v
            })
        };
        if let (Some(small), Some(big)) = (plain(small), plain(big))
            && small != big
        {
            let link = Link { small, big, ratio };
            if !self.links.contains(&link) {
                self.links.push(link);
            }
        }
    }

    fn at_least_sorted(&mut self, lits: &[Lit], k: i128) -> Result<G, EncodeError> {
        let n = lits.len() as i128;
        if k <= 0 {
            return Ok(G::Const(true));
        }
        if k > n {
            return Ok(G::Const(false));
        }
        let parts: Vec<G> = lits.iter().map(|&l| G::Lit(l)).collect();
        if k == 1 {
            return Ok(self.or(&parts));
        }
        if k == n {
            return Ok(self.and(&parts));
        }
        let k = k as usize;
        let tot = self
            .totalizers
            .entry(lits.to_vec())
            .or_insert_with(|| Totalizer::from(lits.to_vec()));
        let before = self.pending.len();
        // Output k needs its "if" half (encoded for upper bound k-1) and its "only if"
        // half (lower bound k); with just one half it would not mean "sum >= k".
        let oom = |_| EncodeError::Other("out of memory while encoding a count".into());
        tot.encode_ub_change(k - 1..k, &mut self.pending, &mut self.vm)
            .map_err(oom)?;
        tot.encode_lb_change(k..k + 1, &mut self.pending, &mut self.vm)
            .map_err(oom)?;
        let ge = tot.enforce_lb(k).map_err(|e| {
            EncodeError::Other(format!("internal error: totalizer output missing ({e})"))
        })?;
        let le = tot.enforce_ub(k - 1).map_err(|e| {
            EncodeError::Other(format!("internal error: totalizer output missing ({e})"))
        })?;
        self.clauses += self.pending.len() - before;
        match (ge.as_slice(), le.as_slice()) {
            ([g], [l]) if *l == !*g => Ok(G::Lit(*g)),
            _ => Err(EncodeError::Other(
                "internal error: a count bound is not defined in both directions".into(),
            )),
        }
    }

    /// Parity of a sum: the exclusive or of the literals with odd weight.
    fn odd(&mut self, t: &Lin) -> G {
        let mut acc = G::Const(t.konst.rem_euclid(2) == 1);
        for &(l, w) in &t.terms {
            if w.rem_euclid(2) == 1 {
                acc = self.xor(acc, G::Lit(l));
            }
        }
        acc
    }

    // ----- groups ----------------------------------------------------------------------

    /// `roots[i]`: cell i is occupied and is the first cell (row-major) of its group, so
    /// the number of groups is the number of true roots.
    ///
    /// Each occupied cell gets exactly one label `L <= i` (one-hot), touching occupied
    /// cells get equal labels, and a cell labelled L implies `lab[L] = L`. Alone that
    /// is not enough (two groups could share the label of one of them), so every
    /// occupied non-root cell must also have a touching *parent* with a strictly smaller
    /// distance value (unary, 0..=35; roots have 0).
    ///
    /// Soundness: labels are constant on a group (equal across touching cells). From
    /// any cell, following parents strictly decreases the distance, so it ends at a
    /// cell without parent, which must be a root r (lab[r] = r); the chain stays within
    /// the group, so r is in the group and the group's label is r. Two roots in one
    /// group would both equal the group's label, so there is exactly one root per
    /// group. Completeness: labelling each group by its first cell, with breadth-first
    /// distances from it (at most 35) and a breadth-first parent, satisfies every
    /// clause. Tested against `ast::groups` over all small structures.
    fn roots(&mut self) -> Vec<Lit> {
        if let Some(r) = &self.roots {
            return r.clone();
        }
        const D: usize = MAX_CELLS - 1;
        let occ = self.occ.clone();
        let lab: Vec<Vec<Lit>> = (0..MAX_CELLS)
            .map(|i| (0..=i).map(|_| self.vm.new_lit()).collect())
            .collect();
        for i in 0..MAX_CELLS {
            // Exactly one label when occupied, none when empty.
            let mut c = vec![!occ[i]];
            c.extend(&lab[i]);
            self.clause(&c);
            for (a, &x) in lab[i].iter().enumerate() {
                self.clause(&[!x, occ[i]]);
                for &y in &lab[i][a + 1..] {
                    self.clause(&[!x, !y]);
                }
                // Label L used implies L is a root.
                if a != i {
                    self.clause(&[!x, lab[a][a]]);
                }
            }
        }
        let neighbours = |i: usize| {
            let (r, c) = (i / SIDE, i % SIDE);
            let mut v = Vec::with_capacity(4);
            if r > 0 {
                v.push(i - SIDE);
            }
            if r + 1 < SIDE {
                v.push(i + SIDE);
            }
            if c > 0 {
                v.push(i - 1);
            }
            if c + 1 < SIDE {
                v.push(i + 1);
            }
            v
        };
        // Touching occupied cells have equal labels.
        for i in 0..MAX_CELLS {
            for j in neighbours(i) {
                if j < i {
                    continue;
                }
                for (l, &theirs) in lab[j].iter().enumerate() {
                    match lab[i].get(l) {
                        Some(&mine) => {
                            self.clause(&[!mine, !occ[j], theirs]);
                            self.clause(&[!theirs, !occ[i], mine]);
                        }
                        // Labels above i are not i's to take.
                        None => self.clause(&[!theirs, !occ[i]]),
                    }
                }
            }
        }
        // dist[i][k-1]: distance of i is at least k (k = 1..=D), monotone.
        let dist: Vec<Vec<Lit>> = (0..MAX_CELLS)
            .map(|_| (0..D).map(|_| self.vm.new_lit()).collect())
            .collect();
        for i in 0..MAX_CELLS {
            for k in 1..D {
                self.clause(&[!dist[i][k], dist[i][k - 1]]);
            }
            // Roots and empty cells are at distance 0.
            self.clause(&[!lab[i][i], !dist[i][0]]);
            self.clause(&[occ[i], !dist[i][0]]);
            let mut need_parent = vec![!occ[i], lab[i][i]];
            for j in neighbours(i) {
                let par = self.vm.new_lit();
                need_parent.push(par);
                self.clause(&[!par, occ[j]]);
                // Parent's distance is strictly smaller.
                self.clause(&[!par, dist[i][0]]);
                for k in 0..D {
                    if k + 1 < D {
                        self.clause(&[!par, !dist[j][k], dist[i][k + 1]]);
                    } else {
                        self.clause(&[!par, !dist[j][k]]);
                    }
                }
            }
            self.clause(&need_parent);
        }
        let roots: Vec<Lit> = (0..MAX_CELLS).map(|i| lab[i][i]).collect();
        for (i, &r) in roots.iter().enumerate() {
            self.within.insert(r, (i, self.full));
            // A piece touching no piece is a group of its own: its cell is a root. Said
            // with the literal "pieces touching no piece" ground to (occupied, no
            // occupied neighbour), so that `groups - count(x: !exists y. touches(x,
            // y))` cancels cell by cell (see `paired`) instead of asking the solver to
            // compare two counts.
            let around: Vec<G> = neighbours(i).into_iter().map(|j| G::Lit(occ[j])).collect();
            let any = self.or(&around);
            if let G::Lit(alone) = self.and(&[G::Lit(occ[i]), !any]) {
                self.clause(&[!alone, r]);
                self.implies.insert(alone, r);
                // Conversely, a cell of a group with two pieces or more does not have
                // its root alone: for a piece labelled L with a piece beside it, L
                // touches a piece too. Redundant (the group is connected), but it
                // spares the solver a walk along the parent chain to see it.
                for (j, labels) in lab.iter().enumerate().take(MAX_CELLS) {
                    if let Some(&mine) = labels.get(i) {
                        for k in neighbours(j) {
                            self.clause(&[!mine, !occ[k], !alone]);
                        }
                    }
                }
            }
        }
        self.roots = Some(roots.clone());
        roots
    }
}

/// The body of `exists w. body` (`forall` when `universal`) split into the pieces `w`
/// must differ from (conjuncts `w != u`; disjuncts `w = u` under `forall`) and the
/// other parts, each with the polarity in which it is to hold (under `forall`, the
/// negation of the disjunct: the body is read as `!exists w. w != u & ...`).
pub(crate) fn exclusions(
    universal: bool,
    w: u8,
    body: &Formula,
) -> (Vec<u8>, Vec<(&Formula, bool)>) {
    let mut parts = Vec::new();
    split(body, !universal, false, &mut parts);
    let mut others = Vec::new();
    let mut rest = Vec::new();
    for (p, positive) in parts {
        let excluded = match &p.kind {
            FormulaKind::Same(a, b) if positive == universal && (a.0 == w) != (b.0 == w) => {
                Some(if a.0 == w { b.0 } else { a.0 })
            }
            _ => None,
        };
        match excluded {
            Some(u) => others.push(u),
            None => rest.push((p, positive != universal)),
        }
    }
    (others, rest)
}

/// The conjuncts (`conj`) or disjuncts of `f` with their polarity (false: the part is
/// to be read negated), seeing through `!` and `->`, as `lang::eval::miniscope` does.
pub(crate) fn split<'a>(
    f: &'a Formula,
    conj: bool,
    negated: bool,
    out: &mut Vec<(&'a Formula, bool)>,
) {
    match &f.kind {
        FormulaKind::Not(a) => split(a, conj, !negated, out),
        FormulaKind::Bin(BinOp::And, a, b) if conj != negated => {
            split(a, conj, negated, out);
            split(b, conj, negated, out);
        }
        FormulaKind::Bin(BinOp::Or, a, b) if conj == negated => {
            split(a, conj, negated, out);
            split(b, conj, negated, out);
        }
        FormulaKind::Bin(BinOp::Implies, a, b) if conj == negated => {
            split(a, conj, !negated, out);
            split(b, conj, negated, out);
        }
        _ => out.push((f, !negated)),
    }
}

/// The conjuncts of a formula (through nested `and`s).
fn flatten_and<'a>(f: &'a Formula, out: &mut Vec<&'a Formula>) {
    match &f.kind {
        FormulaKind::Bin(BinOp::And, a, b) => {
            flatten_and(a, out);
            flatten_and(b, out);
        }
        _ => out.push(f),
    }
}

/// The truth of `f` when its only variable `v` is a piece `p`, if `f` depends on
/// nothing else (no quantifier, relation or structure-wide term).
fn local_truth(f: &Formula, v: u8, p: Piece) -> Option<bool> {
    Some(match &f.kind {
        FormulaKind::Bool(b) => *b,
        FormulaKind::Not(a) => !local_truth(a, v, p)?,
        FormulaKind::Bin(op, a, b) => {
            let (a, b) = (local_truth(a, v, p)?, local_truth(b, v, p)?);
            match op {
                BinOp::And => a && b,
                BinOp::Or => a || b,
                BinOp::Xor => a != b,
                BinOp::Implies => !a || b,
                BinOp::Iff => a == b,
            }
        }
        FormulaKind::Unary(q, w) if w.0 == v => q.holds_on_piece(p)?,
        FormulaKind::Same(a, b) if a.0 == v && b.0 == v => true,
        FormulaKind::Cmp(op, a, b) => op.holds(local_value(a, v, p)?, local_value(b, v, p)?),
        FormulaKind::Parity(q, t) => {
            let even = local_value(t, v, p)?.rem_euclid(2) == 0;
            even == (*q == Parity::Even)
        }
        _ => return None,
    })
}

/// The value of a term built from integers and the pips of piece `v` alone.
fn local_value(t: &Term, v: u8, p: Piece) -> Option<i64> {
    Some(match &t.kind {
        TermKind::Int(n) => *n,
        TermKind::PipsOf(w) if w.0 == v => p.pips() as i64,
        TermKind::Add(a, b) => local_value(a, v, p)?.saturating_add(local_value(b, v, p)?),
        TermKind::Sub(a, b) => local_value(a, v, p)?.saturating_sub(local_value(b, v, p)?),
        TermKind::Mul(k, a) => crate::lang::ast::times(*k, local_value(a, v, p)?),
        TermKind::Mod(a, k) => crate::lang::ast::remainder(local_value(a, v, p)?, *k),
        _ => return None,
    })
}

fn bound(env: &Env, v: u8) -> Result<usize, EncodeError> {
    env[v as usize]
        .map(|c| c as usize)
        .ok_or_else(|| EncodeError::Other(format!("internal error: variable {v} is not bound")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finder::Limits;
    use crate::finder::search::{Search, push};

    /// The pitfall of rustsat's cardinality encodings: an output only means
    /// "sum >= k" when both halves are encoded around k. Every output we hand out must
    /// be forced both ways by every assignment of the inputs, also when the same
    /// totalizer was extended for other bounds first (in any order).
    #[test]
    fn count_outputs_are_defined_in_both_directions() {
        for n in 2..=6usize {
            let mut search = Search::new(PieceSet::Arrows, &Limits::default());
            let inputs: Vec<Lit> = (0..n).map(|_| search.enc.new_lit()).collect();
            // Bounds requested out of order, duplicates included.
            let order: Vec<i128> = (2..n as i128).rev().chain(2..n as i128).collect();
            let outputs: Vec<(i128, G)> = order
                .iter()
                .map(|&k| (k, search.enc.at_least(inputs.clone(), k).unwrap()))
                .collect();
            for bits in 0..(1u32 << n) {
                let fixed: Vec<Lit> = inputs
                    .iter()
                    .enumerate()
                    .map(|(i, &l)| if bits & (1 << i) != 0 { l } else { !l })
                    .collect();
                let count = bits.count_ones() as i128;
                for &(k, g) in &outputs {
                    for value in [true, false] {
                        let mut a = fixed.clone();
                        let possible = push(&mut a, if value { g } else { !g })
                            && search.find(&a).unwrap().is_some();
                        assert_eq!(possible, value == (count >= k), "n={n} k={k} bits={bits:b}");
                    }
                }
            }
        }
    }

    /// Canonical forms: the same comparison written two ways is one literal.
    #[test]
    fn opposite_phrasings_of_a_comparison_share_a_literal() {
        let mut e = Encoder::new(PieceSet::Pyramids, 1 << 20, None);
        let small = e.mask_of(|p| p.size == Size::Small);
        let large = e.mask_of(|p| p.size == Size::Large);
        let count = |e: &mut Encoder, m: u16| {
            let mut l = Lin::default();
            for i in 0..MAX_CELLS {
                let g = e.cell_has(i, m);
                l.add_g(g, 1);
            }
            l
        };
        let (s, l) = (count(&mut e, small), count(&mut e, large));
        let more_small = e.compare(CmpOp::Gt, &s.clone().scaled_add(&l, -1)).unwrap();
        let fewer_large = e.compare(CmpOp::Lt, &l.clone().scaled_add(&s, -1)).unwrap();
        let not_at_most = !e.compare(CmpOp::Le, &s.clone().scaled_add(&l, -1)).unwrap();
        assert_eq!(more_small, fewer_large);
        assert_eq!(more_small, not_at_most);
    }
}
