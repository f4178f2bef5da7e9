//! Quantifier blocks that only look at what the pieces are, never where they are:
//! `exists x y z. same_size(x, y) & same_size(y, z) & x != y & y != z & x != z`
//! ("three pieces of one size"), four pieces of one direction, four pieces with eleven
//! pips between them.
//!
//! Grounded over cells, such a block costs 36^k bindings for k variables (no relation
//! between cells prunes any), and the solver then needs a pigeonhole argument to
//! relate them to counts. But its truth depends only on how many pieces of each
//! *class* there are (pieces the block's atoms cannot tell apart), counted up to the
//! number of its variables: in an Ehrenfeucht-Fraisse game of k rounds on a set of
//! coloured elements with equality, two structures whose colour counts agree up to k
//! cannot be told apart. So the block is decided here once for every capped count
//! vector (the classes' count outputs are the literals of the grounding), and its
//! outer variables, if any, by the class of their piece. Evaluating one vector needs
//! no structure either: a quantifier tries each piece already named and one fresh
//! piece of each class that has pieces left, as fresh pieces of a class are
//! interchangeable.
//!
//! The finder grounds such a block as a decision over the classes' count outputs
//! (`finder::encode`); the evaluator decides it from the structure's class counts, so
//! that `exists x y z w. pips(x) + pips(y) + pips(z) + pips(w) >= 11 & x != y & ...`
//! costs one look at the counts instead of n^4 bindings.

use crate::koan::{MAX_CELLS, MAX_SIDE, Piece, PieceSet, Pos};
use crate::lang::ast::{BinOp, BinaryPred, Formula, FormulaKind, Parity, Term, TermKind};

/// The most count vectors (times classes of the outer variables) a block may need.
const MAX_VECTORS: usize = 5000;

/// A block decided by counts.
#[derive(Clone, Debug)]
pub struct Block {
    /// The classes, as masks over the set's pieces; each is a union of pieces that
    /// every atom of the block treats alike.
    pub classes: Vec<u16>,
    /// Counts are told apart up to this value (a count at or above it reads as it).
    pub cap: usize,
    /// The block's free variables (bound outside it), sorted.
    pub free: Vec<u8>,
}

impl Block {
    /// Whether it is worth deciding by counts, and feasible: a block of at least two
    /// nested quantifiers that only speaks of pieces, with few enough count vectors.
    pub fn analyse(f: &Formula, set: PieceSet) -> Option<Block> {
        if !matches!(f.kind, FormulaKind::Forall(..) | FormulaKind::Exists(..)) {
            return None;
        }
        let mut atoms = Atoms::default();
        if !atoms.collect(f) || rank(f) < 2 {
            return None;
        }
        let free = crate::lang::eval::free(f);
        let pieces = set.pieces();
        // Pieces interchangeable for every atom fall in one class.
        let mut classes: Vec<(Vec<bool>, u16)> = Vec::new();
        for (k, &p) in pieces.iter().enumerate() {
            let sig = atoms.signature(p, pieces);
            match classes.iter_mut().find(|c| c.0 == sig) {
                Some(c) => c.1 |= 1 << k,
                None => classes.push((sig, 1 << k)),
            }
        }
        let cap = rank(f) + free.len();
        let vectors = (cap + 1).checked_pow(classes.len() as u32)?;
        let outer = classes.len().checked_pow(free.len() as u32)?;
        if vectors.checked_mul(outer)? > MAX_VECTORS {
            return None;
        }
        Some(Block {
            classes: classes.into_iter().map(|c| c.1).collect(),
            cap,
            free,
        })
    }

    /// A piece of the class (every one answers every atom alike).
    fn representative(&self, class: usize, set: PieceSet) -> Piece {
        set.pieces()[self.classes[class].trailing_zeros() as usize]
    }

    /// The truth of the block on any structure with `counts[c]` pieces of class c
    /// (capped at [`Self::cap`]), when its free variables are bound to the pieces
    /// `outer` (per free variable: an element number, so that two variables on one
    /// piece share it, and its class). `None` when no structure has those counts
    /// with those pieces (a class with fewer pieces than the outer ones in it).
    pub fn truth(
        &self,
        f: &Formula,
        set: PieceSet,
        outer: &[(usize, usize)],
        counts: &[usize],
    ) -> Option<bool> {
        let mut eval = Eval {
            block: self,
            set,
            elements: Vec::new(),
            left: counts.to_vec(),
            env: [usize::MAX; 256],
        };
        for (&v, &(element, class)) in self.free.iter().zip(outer) {
            if element == eval.elements.len() {
                eval.elements.push(class);
                if eval.left[class] == 0 {
                    return None;
                }
                if eval.left[class] < self.cap {
                    eval.left[class] -= 1;
                }
            }
            eval.env[v as usize] = element;
        }
        Some(eval.formula(f))
    }
}

/// What the atoms of a block look at.
#[derive(Default)]
struct Atoms {
    unary: Vec<crate::lang::ast::UnaryPred>,
    binary: Vec<BinaryPred>,
    pips: bool,
}

impl Atoms {
    /// Collects the atoms; false when the formula looks at anything but the pieces
    /// (positions, counts, structure-wide terms).
    fn collect(&mut self, f: &Formula) -> bool {
        match &f.kind {
            FormulaKind::Bool(_) | FormulaKind::Same(..) => true,
            FormulaKind::Not(a) | FormulaKind::Forall(_, a) | FormulaKind::Exists(_, a) => {
                self.collect(a)
            }
            FormulaKind::Bin(_, a, b) => self.collect(a) && self.collect(b),
            FormulaKind::Unary(p, _) => {
                self.unary.push(*p);
                p.is_local()
            }
            FormulaKind::Binary(p, _, _) => {
                self.binary.push(*p);
                piecewise(*p)
            }
            FormulaKind::Cmp(_, a, b) => self.term(a) && self.term(b),
            FormulaKind::Parity(_, t) => self.term(t),
        }
    }

    fn term(&mut self, t: &Term) -> bool {
        match &t.kind {
            TermKind::Int(_) => true,
            TermKind::PipsOf(_) => {
                self.pips = true;
                true
            }
            TermKind::Add(a, b) | TermKind::Sub(a, b) => self.term(a) && self.term(b),
            _ => false,
        }
    }

    /// What the atoms say of a piece, alone and against every piece of the set.
    fn signature(&self, p: Piece, pieces: &[Piece]) -> Vec<bool> {
        let o = Pos::new(0, 0);
        let mut sig: Vec<bool> = self
            .unary
            .iter()
            .map(|u| u.holds_on_piece(p) == Some(true))
            .collect();
        for b in &self.binary {
            for &q in pieces {
                sig.push(b.holds((o, p), (o, q)));
                sig.push(b.holds((o, q), (o, p)));
            }
        }
        if self.pips {
            sig.extend((1..=3).map(|n| p.pips() == n));
        }
        sig
    }
}

/// The deepest nesting of quantifiers.
fn rank(f: &Formula) -> usize {
    match &f.kind {
        FormulaKind::Not(a) => rank(a),
        FormulaKind::Bin(_, a, b) => rank(a).max(rank(b)),
        FormulaKind::Forall(_, a) | FormulaKind::Exists(_, a) => 1 + rank(a),
        _ => 0,
    }
}

/// Evaluation on counts: elements named so far (by class), pieces of each class not
/// yet named (a count at the cap never runs out).
struct Eval<'b> {
    block: &'b Block,
    set: PieceSet,
    elements: Vec<usize>,
    left: Vec<usize>,
    env: [usize; 256],
}

impl Eval<'_> {
    fn piece(&self, v: u8) -> Piece {
        let class = self.elements[self.env[v as usize]];
        self.block.representative(class, self.set)
    }

    fn formula(&mut self, f: &Formula) -> bool {
        match &f.kind {
            FormulaKind::Bool(b) => *b,
            FormulaKind::Not(a) => !self.formula(a),
            FormulaKind::Bin(op, a, b) => {
                let a = self.formula(a);
                match op {
                    BinOp::And => a && self.formula(b),
                    BinOp::Or => a || self.formula(b),
                    BinOp::Implies => !a || self.formula(b),
                    BinOp::Xor => a != self.formula(b),
                    BinOp::Iff => a == self.formula(b),
                }
            }
            FormulaKind::Forall(v, body) => !self.some(v.0, body, false),
            FormulaKind::Exists(v, body) => self.some(v.0, body, true),
            FormulaKind::Unary(p, v) => p.holds_on_piece(self.piece(v.0)) == Some(true),
            FormulaKind::Binary(p, a, b) => {
                let o = Pos::new(0, 0);
                p.holds((o, self.piece(a.0)), (o, self.piece(b.0)))
            }
            FormulaKind::Same(a, b) => self.env[a.0 as usize] == self.env[b.0 as usize],
            FormulaKind::Cmp(op, a, b) => op.holds(self.value(a), self.value(b)),
            FormulaKind::Parity(p, t) => (self.value(t).rem_euclid(2) == 0) == (*p == Parity::Even),
        }
    }

    /// Is there a piece making `body` `want` when bound to `v`: one already named, or
    /// a fresh one of some class (all fresh pieces of a class are alike).
    fn some(&mut self, v: u8, body: &Formula, want: bool) -> bool {
        let saved = self.env[v as usize];
        let mut found = false;
        for e in 0..self.elements.len() {
            self.env[v as usize] = e;
            if self.formula(body) == want {
                found = true;
                break;
            }
        }
        if !found {
            for class in 0..self.left.len() {
                if self.left[class] == 0 {
                    continue;
                }
                let capped = self.left[class] >= self.block.cap;
                if !capped {
                    self.left[class] -= 1;
                }
                self.elements.push(class);
                self.env[v as usize] = self.elements.len() - 1;
                let hit = self.formula(body) == want;
                self.elements.pop();
                if !capped {
                    self.left[class] += 1;
                }
                if hit {
                    found = true;
                    break;
                }
            }
        }
        self.env[v as usize] = saved;
        found
    }

    fn value(&self, t: &Term) -> i64 {
        match &t.kind {
            TermKind::Int(n) => *n,
            TermKind::PipsOf(v) => self.piece(v.0).pips() as i64,
            TermKind::Add(a, b) => self.value(a).saturating_add(self.value(b)),
            TermKind::Sub(a, b) => self.value(a).saturating_sub(self.value(b)),
            _ => unreachable!("a block decided by counts has no other terms"),
        }
    }
}

/// Whether a relation depends only on the two pieces, not on their cells: checked on
/// its definition for every pair of cells of the window (once per process).
pub fn piecewise(p: BinaryPred) -> bool {
    static TABLE: std::sync::OnceLock<Vec<(BinaryPred, bool)>> = std::sync::OnceLock::new();
    let side = MAX_SIDE as usize;
    let table = TABLE.get_or_init(|| {
        let cells: Vec<Pos> = (0..MAX_CELLS)
            .map(|i| Pos::new((i / side) as u8, (i % side) as u8))
            .collect();
        let pieces = PieceSet::Pyramids.pieces();
        BinaryPred::ALL
            .iter()
            .map(|&r| {
                let same = pieces.iter().all(|&a| {
                    pieces.iter().all(|&b| {
                        let first = r.holds((cells[0], a), (cells[0], b));
                        cells
                            .iter()
                            .all(|&s| cells.iter().all(|&t| r.holds((s, a), (t, b)) == first))
                    })
                });
                (r, same)
            })
            .collect()
    });
    table.iter().any(|&(r, same)| r == p && same)
}
