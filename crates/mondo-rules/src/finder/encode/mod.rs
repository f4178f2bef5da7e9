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
//!
//! # Where it lives
//!
//! One file per layer, each adding its methods to [`Encoder`]:
//!
//! - this file: the variables of the window, the basic gates (`and`, `or`, `xor`), the
//!   clause budget, and reading a model back as a structure;
//! - `cells.rs`: what one cell holds (piece masks), the lines and the box, and the
//!   atoms (unary and binary predicates at given cells);
//! - `formula.rs`: grounding a formula cell by cell (quantifiers, connectives), with
//!   its memo and the symmetry bounds;
//! - `quantifiers.rs`: the quantifier shapes decided by counting pieces instead of
//!   trying every cell;
//! - `terms.rs`: number terms as linear sums of literals;
//! - `compare.rs`: comparisons of sums, cardinality (totalizer outputs) and parity;
//! - `ties.rs`: redundant but sound relations between counts (partitions, links),
//!   which spare the solver counting arguments;
//! - `groups.rs`: the number of groups (connected components).
//!
//! [`UnaryPred::holds_on_piece`]: crate::lang::ast::UnaryPred::holds_on_piece
//! [`BinaryPred::holds`]: crate::lang::ast::BinaryPred::holds

mod cells;
mod compare;
mod error;
mod formula;
mod groups;
mod quantifiers;
mod terms;
mod ties;
mod values;

pub(crate) use quantifiers::exclusions;

use super::symmetry::Orders;
use crate::koan::{Koan, MAX_CELLS, MAX_SIDE, Piece, PieceSet};
use crate::lang::eval::Block;
pub(crate) use error::EncodeError;
use rustsat::encodings::card::Totalizer;
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Clause, Lit};
use std::collections::HashMap;
pub(crate) use values::G;
use values::{Lin, Link};

const SIDE: usize = MAX_SIDE as usize;

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
}

fn bound(env: &Env, v: u8) -> Result<usize, EncodeError> {
    env[v as usize]
        .map(|c| c as usize)
        .ok_or_else(|| EncodeError::Other(format!("internal error: variable {v} is not bound")))
}

#[cfg(test)]
mod tests;
