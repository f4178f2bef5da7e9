//! The fast evaluator: a formula compiled once into a flat node array, evaluated over
//! bitmask facts about a structure (see [`Facts`]).
//!
//! The trick is to evaluate a quantifier's body for many pieces at once: for a formula
//! with variable `v` free, [`Evaluator::mask_in`] returns the set of pieces (among
//! those still in question) that make it true when bound to `v`. Atoms become
//! precomputed masks (`small(x)` is the set of small pieces, `touches(x, y)` with `y`
//! bound is y's neighbours), connectives become bit operations, and `forall` /
//! `exists` / `count` / `pips` read the mask. Only nodes that cannot be done set-wise
//! (nested quantifiers and comparisons that depend on `v`) bind `v` to each piece in
//! turn, and only to the pieces the cheaper parts beside them left open.
//!
//! Three things keep deep or wide patterns cheap on a full board:
//! - quantifiers are pushed inward before compiling ([`miniscope`]), so a part depends
//!   on as few variables as possible;
//! - a node that binds piece by piece remembers its truth per binding of its (at most
//!   two) free variables for the whole evaluation ([`Slot`]), so nested chains cost
//!   their length, not 36^depth;
//! - `and` / `or` ask their second part only about the pieces the first left open,
//!   and `exists` / `forall` stop at the first piece that settles them.
//!
//! It must agree with [`crate::lang::reference`] exactly; a property test checks.

mod classes;
mod facts;
mod scope;
#[cfg(test)]
mod tests;

pub use classes::{Block, piecewise};
pub use facts::Facts;
pub use scope::{free, free_in_term, miniscope};

use facts::bits;

use crate::koan::Koan;
use crate::lang::ast::{
    BinOp, BinaryPred, CmpOp, Formula, FormulaKind, Parity, Term, TermKind, UnaryPred, Var,
};

/// A set of variable indices (all 256 of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct VarSet([u64; 4]);

impl VarSet {
    fn one(v: Var) -> VarSet {
        let mut s = VarSet::default();
        s.0[v.0 as usize / 64] |= 1 << (v.0 % 64);
        s
    }
    fn contains(self, v: u8) -> bool {
        self.0[v as usize / 64] & (1 << (v % 64)) != 0
    }
    fn union(self, other: VarSet) -> VarSet {
        VarSet(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }
    fn without(mut self, v: Var) -> VarSet {
        self.0[v.0 as usize / 64] &= !(1 << (v.0 % 64));
        self
    }
    fn is_empty(self) -> bool {
        self.0 == [0; 4]
    }
    /// The variables, in increasing order.
    fn iter(self) -> impl Iterator<Item = u8> {
        (0..4usize).flat_map(move |w| bits(self.0[w]).map(move |b| (w * 64 + b) as u8))
    }
}

type NodeId = u32;
type TermId = u32;

#[derive(Clone, Debug)]
enum Node {
    Bool(bool),
    Not(NodeId),
    Bin(BinOp, NodeId, NodeId),
    Forall(u8, NodeId),
    Exists(u8, NodeId),
    Unary(UnaryPred, u8),
    Binary(BinaryPred, u8, u8),
    Same(u8, u8),
    Cmp(CmpOp, TermId, TermId),
    Parity(Parity, TermId),
}

#[derive(Clone, Debug)]
enum TermNode {
    Int(i64),
    Count(u8, NodeId),
    PipsSum(u8, NodeId),
    PipsOf(u8),
    /// One of the structure-wide terms (`pieces`, `width`...).
    Global(TermKind),
    Add(TermId, TermId),
    Sub(TermId, TermId),
    Mul(i64, TermId),
    Mod(TermId, i64),
}

/// A closed formula prepared for evaluating on many structures.
#[derive(Clone, Debug)]
pub struct CompiledPattern {
    nodes: Vec<Node>,
    /// The variables free in each node.
    free: Vec<VarSet>,
    /// Where each node keeps its remembered values (see [`Memo`]).
    slots: Vec<Slot>,
    /// How many one-entry and how many per-piece memo slots there are.
    singles: u32,
    pairs: u32,
    terms: Vec<TermNode>,
    /// Quantifier blocks that only look at what the pieces are, decided from the
    /// structure's class counts (see [`Block`]), and which node each is.
    blocks: Vec<(Block, Formula)>,
    block_at: Vec<Option<u32>>,
    root: NodeId,
}

/// Where a costly node (a quantifier, a comparison, a parity: what cannot be done
/// set-wise) remembers its truth for the bindings of its free variables, during one
/// evaluation. A node with at most one free variable has one entry, a bit per piece
/// that variable may be; with two, one entry per piece the first may be. This is what
/// makes a chain like `every piece touches a piece that touches a piece ... that
/// points up` linear in its depth: each level is decided once per piece, not once per
/// path of pieces leading to it (36^depth on a full board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    None,
    /// Entry `index`; the bit is the piece bound to `var` (bit 0 when closed).
    Single {
        index: u32,
        var: Option<u8>,
    },
    /// Entry `index * n + piece of key`; the bit is the piece bound to `var`.
    Pair {
        index: u32,
        key: u8,
        var: u8,
    },
}

impl CompiledPattern {
    /// Compiles a closed formula (every variable inside its quantifier, as the parser
    /// guarantees). Quantifiers are first pushed inward ([`miniscope`]), which keeps
    /// the formula's meaning and lets each part depend on as few pieces as possible.
    ///
    /// # Panics
    /// If the formula has a free variable: that is a bug in whatever built it.
    pub fn new(formula: &Formula) -> CompiledPattern {
        let mut c = CompiledPattern {
            nodes: Vec::new(),
            free: Vec::new(),
            slots: Vec::new(),
            singles: 0,
            pairs: 0,
            terms: Vec::new(),
            blocks: Vec::new(),
            block_at: Vec::new(),
            root: 0,
        };
        let (root, free) = c.formula(&miniscope(formula));
        assert!(
            free.is_empty(),
            "formula has a variable used outside its quantifier"
        );
        c.root = root;
        c
    }

    fn push(&mut self, node: Node, free: VarSet) -> (NodeId, VarSet) {
        let costly = matches!(
            node,
            Node::Forall(..) | Node::Exists(..) | Node::Cmp(..) | Node::Parity(..)
        );
        let vars: Vec<u8> = if costly {
            free.iter().take(3).collect()
        } else {
            Vec::new()
        };
        let slot = match vars.as_slice() {
            _ if !costly => Slot::None,
            [] | [_] => {
                self.singles += 1;
                Slot::Single {
                    index: self.singles - 1,
                    var: vars.first().copied(),
                }
            }
            &[key, var] => {
                self.pairs += 1;
                Slot::Pair {
                    index: self.pairs - 1,
                    key,
                    var,
                }
            }
            _ => Slot::None,
        };
        self.nodes.push(node);
        self.free.push(free);
        self.slots.push(slot);
        self.block_at.push(None);
        ((self.nodes.len() - 1) as NodeId, free)
    }

    /// Marks a quantifier node as a block decided by class counts, when it is one.
    fn block(&mut self, id: NodeId, f: &Formula) {
        // Classes over all twelve pieces serve the arrows set too (its pieces are
        // among them).
        if let Some(block) = Block::analyse(f, crate::koan::PieceSet::Pyramids) {
            self.blocks.push((block, f.clone()));
            self.block_at[id as usize] = Some(self.blocks.len() as u32 - 1);
        }
    }

    fn push_term(&mut self, term: TermNode, free: VarSet) -> (TermId, VarSet) {
        self.terms.push(term);
        ((self.terms.len() - 1) as TermId, free)
    }

    fn formula(&mut self, f: &Formula) -> (NodeId, VarSet) {
        match &f.kind {
            FormulaKind::Bool(b) => self.push(Node::Bool(*b), VarSet::default()),
            FormulaKind::Not(a) => {
                let (a, fa) = self.formula(a);
                self.push(Node::Not(a), fa)
            }
            FormulaKind::Bin(op, a, b) => {
                let (a, fa) = self.formula(a);
                let (b, fb) = self.formula(b);
                self.push(Node::Bin(*op, a, b), fa.union(fb))
            }
            FormulaKind::Forall(v, body) | FormulaKind::Exists(v, body) => {
                let (body, fb) = self.formula(body);
                let node = if matches!(f.kind, FormulaKind::Forall(..)) {
                    Node::Forall(v.0, body)
                } else {
                    Node::Exists(v.0, body)
                };
                let (id, free) = self.push(node, fb.without(*v));
                self.block(id, f);
                (id, free)
            }
            FormulaKind::Unary(p, v) => self.push(Node::Unary(*p, v.0), VarSet::one(*v)),
            FormulaKind::Binary(p, a, b) => self.push(
                Node::Binary(*p, a.0, b.0),
                VarSet::one(*a).union(VarSet::one(*b)),
            ),
            FormulaKind::Same(a, b) => {
                self.push(Node::Same(a.0, b.0), VarSet::one(*a).union(VarSet::one(*b)))
            }
            FormulaKind::Cmp(op, a, b) => {
                let (a, fa) = self.term(a);
                let (b, fb) = self.term(b);
                self.push(Node::Cmp(*op, a, b), fa.union(fb))
            }
            FormulaKind::Parity(p, t) => {
                let (t, ft) = self.term(t);
                self.push(Node::Parity(*p, t), ft)
            }
        }
    }

    fn term(&mut self, t: &Term) -> (TermId, VarSet) {
        match &t.kind {
            TermKind::Int(n) => self.push_term(TermNode::Int(*n), VarSet::default()),
            TermKind::Count(v, body) => {
                let (body, fb) = self.formula(body);
                self.push_term(TermNode::Count(v.0, body), fb.without(*v))
            }
            TermKind::PipsSum(v, body) => {
                let (body, fb) = self.formula(body);
                self.push_term(TermNode::PipsSum(v.0, body), fb.without(*v))
            }
            TermKind::PipsOf(v) => self.push_term(TermNode::PipsOf(v.0), VarSet::one(*v)),
            TermKind::Add(a, b) | TermKind::Sub(a, b) => {
                let (a, fa) = self.term(a);
                let (b, fb) = self.term(b);
                let node = if matches!(t.kind, TermKind::Add(..)) {
                    TermNode::Add(a, b)
                } else {
                    TermNode::Sub(a, b)
                };
                self.push_term(node, fa.union(fb))
            }
            TermKind::Mul(k, a) => {
                let (a, fa) = self.term(a);
                self.push_term(TermNode::Mul(*k, a), fa)
            }
            TermKind::Mod(a, k) => {
                let (a, fa) = self.term(a);
                self.push_term(TermNode::Mod(a, *k), fa)
            }
            global => self.push_term(TermNode::Global(global.clone()), VarSet::default()),
        }
    }

    /// Does the structure obey the pattern?
    pub fn evaluate(&self, koan: &Koan) -> bool {
        self.evaluate_facts(&Facts::new(koan))
    }

    /// The same, reusing facts already built for the structure (when evaluating many
    /// patterns on one structure).
    pub fn evaluate_facts(&self, facts: &Facts) -> bool {
        self.run(facts).0
    }

    /// The truth and how many steps the evaluation took (nodes visited and pieces
    /// tried): a measure of work that does not depend on the machine, for tests of how
    /// the cost grows.
    #[doc(hidden)]
    pub fn evaluate_counting(&self, facts: &Facts) -> (bool, u64) {
        self.run(facts)
    }

    fn run(&self, facts: &Facts) -> (bool, u64) {
        let mut e = Evaluator {
            pattern: self,
            facts,
            env: [0; 256],
            memo: Vec::new(),
            counts: vec![None; self.blocks.len()],
            steps: 0,
        };
        if self.singles + self.pairs > 0 {
            let size = self.singles as usize + self.pairs as usize * facts.len().max(1);
            e.memo = SCRATCH.with(|s| std::mem::take(&mut *s.borrow_mut()));
            e.memo.clear();
            e.memo.resize(size, (0, 0));
        }
        let truth = e.holds(self.root);
        let steps = e.steps;
        if !e.memo.is_empty() {
            let memo = std::mem::take(&mut e.memo);
            SCRATCH.with(|s| *s.borrow_mut() = memo);
        }
        (truth, steps)
    }
}

thread_local! {
    /// The memo of the last evaluation on this thread, kept for its allocation.
    static SCRATCH: std::cell::RefCell<Vec<(u64, u64)>> = const { std::cell::RefCell::new(Vec::new()) };
}

struct Evaluator<'a, 'k> {
    pattern: &'a CompiledPattern,
    facts: &'a Facts<'k>,
    /// The piece each variable is bound to (meaningful only inside its quantifier).
    env: [u8; 256],
    /// Per memo entry (see [`Slot`]): the pieces whose truth is known, and for which of
    /// them the node holds.
    memo: Vec<(u64, u64)>,
    /// Per block, the structure's capped class counts, once asked.
    counts: Vec<Option<Vec<usize>>>,
    steps: u64,
}

impl Evaluator<'_, '_> {
    /// The memo entry and bit of a costly node under the current bindings.
    fn memo_at(&self, id: NodeId) -> Option<(usize, u32)> {
        let bit = |v: Option<u8>| v.map_or(0, |v| self.env[v as usize] as u32);
        match self.pattern.slots[id as usize] {
            Slot::None => None,
            Slot::Single { index, var } => Some((index as usize, bit(var))),
            Slot::Pair { index, key, var } => {
                let n = self.facts.len().max(1);
                let entry = self.pattern.singles as usize
                    + index as usize * n
                    + self.env[key as usize] as usize;
                Some((entry, bit(Some(var))))
            }
        }
    }

    fn holds(&mut self, id: NodeId) -> bool {
        self.steps += 1;
        let p = self.pattern;
        match p.nodes[id as usize] {
            Node::Bool(b) => b,
            Node::Not(a) => !self.holds(a),
            Node::Bin(op, a, b) => {
                let a = self.holds(a);
                match op {
                    BinOp::And => a && self.holds(b),
                    BinOp::Or => a || self.holds(b),
                    BinOp::Implies => !a || self.holds(b),
                    BinOp::Xor => a != self.holds(b),
                    BinOp::Iff => a == self.holds(b),
                }
            }
            Node::Unary(pred, v) => (self.facts.unary(pred) >> self.env[v as usize]) & 1 != 0,
            Node::Binary(pred, a, b) => {
                let pieces = self.facts.koan().pieces();
                pred.holds(
                    pieces[self.env[a as usize] as usize],
                    pieces[self.env[b as usize] as usize],
                )
            }
            Node::Same(a, b) => self.env[a as usize] == self.env[b as usize],
            Node::Forall(..) | Node::Exists(..) | Node::Cmp(..) | Node::Parity(..) => {
                let Some((entry, bit)) = self.memo_at(id) else {
                    return self.costly(id);
                };
                let (known, value) = self.memo[entry];
                if (known >> bit) & 1 != 0 {
                    return (value >> bit) & 1 != 0;
                }
                let truth = self.costly(id);
                let e = &mut self.memo[entry];
                e.0 |= 1 << bit;
                e.1 |= u64::from(truth) << bit;
                truth
            }
        }
    }

    /// The truth of a quantifier, comparison or parity (not remembered).
    fn costly(&mut self, id: NodeId) -> bool {
        if let Some(b) = self.pattern.block_at[id as usize] {
            return self.by_counts(b as usize);
        }
        match self.pattern.nodes[id as usize] {
            Node::Forall(v, body) => !self.find(body, v, self.facts.all(), false),
            Node::Exists(v, body) => self.find(body, v, self.facts.all(), true),
            Node::Cmp(op, a, b) => op.holds(self.value(a), self.value(b)),
            Node::Parity(parity, t) => {
                let even = self.value(t).rem_euclid(2) == 0;
                even == (parity == Parity::Even)
            }
            _ => unreachable!("only costly nodes are evaluated here"),
        }
    }

    /// A block's truth from the class counts of the structure and the classes of the
    /// pieces its outer variables are bound to.
    fn by_counts(&mut self, b: usize) -> bool {
        let (block, formula) = &self.pattern.blocks[b];
        let pieces = self.facts.koan().pieces();
        let class_of = |i: usize| {
            let bit = 1u16 << pieces[i].1.index();
            block.classes.iter().position(|m| m & bit != 0).unwrap_or(0)
        };
        let counts = self.counts[b].get_or_insert_with(|| {
            let mut c = vec![0; block.classes.len()];
            for i in 0..pieces.len() {
                c[class_of(i)] += 1;
            }
            c.iter_mut().for_each(|n| *n = (*n).min(block.cap));
            c
        });
        self.steps += 1;
        let mut named: Vec<u8> = Vec::with_capacity(block.free.len());
        let outer: Vec<(usize, usize)> = block
            .free
            .iter()
            .map(|&v| {
                let piece = self.env[v as usize];
                let element = named.iter().position(|&p| p == piece).unwrap_or_else(|| {
                    named.push(piece);
                    named.len() - 1
                });
                (element, class_of(piece as usize))
            })
            .collect();
        block
            .truth(formula, crate::koan::PieceSet::Pyramids, &outer, counts)
            .unwrap_or(false)
    }

    /// Is there a piece among `dom` which, bound to `v`, gives the node the truth
    /// `want`? Stops at the first such piece where it can (`exists` and `forall` read
    /// it), and otherwise narrows the pieces tried by what cheaper parts decide.
    fn find(&mut self, id: NodeId, v: u8, dom: u64, want: bool) -> bool {
        if dom == 0 {
            return false;
        }
        self.steps += 1;
        if !self.pattern.free[id as usize].contains(v) {
            return self.holds(id) == want;
        }
        match self.pattern.nodes[id as usize] {
            Node::Not(a) => self.find(a, v, dom, !want),
            Node::Bin(BinOp::And, a, b) if want => {
                let m = self.mask_in(a, v, dom);
                self.find(b, v, m, true)
            }
            Node::Bin(BinOp::Or, a, b) if !want => {
                let m = dom & !self.mask_in(a, v, dom);
                self.find(b, v, m, false)
            }
            Node::Bin(BinOp::Implies, a, b) if !want => {
                let m = self.mask_in(a, v, dom);
                self.find(b, v, m, false)
            }
            Node::Bin(BinOp::And | BinOp::Or, a, b) => {
                self.find(a, v, dom, want) || self.find(b, v, dom, want)
            }
            Node::Bin(BinOp::Implies, a, b) => {
                self.find(a, v, dom, false) || self.find(b, v, dom, true)
            }
            Node::Forall(..) | Node::Exists(..) | Node::Cmp(..) | Node::Parity(..) => {
                let saved = self.env[v as usize];
                let found = bits(dom).any(|i| {
                    self.env[v as usize] = i as u8;
                    self.holds(id) == want
                });
                self.env[v as usize] = saved;
                found
            }
            _ => {
                let m = self.mask_in(id, v, dom);
                if want { m != 0 } else { m != dom }
            }
        }
    }

    /// The pieces among `dom` that make the node true when bound to variable `v`
    /// (other variables as in `env`). Parts are asked only about the pieces that can
    /// still matter: in `a & b`, `b` only about the pieces that satisfy `a`.
    fn mask_in(&mut self, id: NodeId, v: u8, dom: u64) -> u64 {
        if dom == 0 {
            return 0;
        }
        self.steps += 1;
        if !self.pattern.free[id as usize].contains(v) {
            return if self.holds(id) { dom } else { 0 };
        }
        match self.pattern.nodes[id as usize] {
            Node::Not(a) => dom & !self.mask_in(a, v, dom),
            Node::Bin(op, a, b) => {
                let a = self.mask_in(a, v, dom);
                match op {
                    BinOp::And => self.mask_in(b, v, a),
                    BinOp::Or => a | self.mask_in(b, v, dom & !a),
                    BinOp::Implies => (dom & !a) | self.mask_in(b, v, a),
                    BinOp::Xor => a ^ self.mask_in(b, v, dom),
                    BinOp::Iff => dom & !(a ^ self.mask_in(b, v, dom)),
                }
            }
            Node::Unary(pred, _) => self.facts.unary(pred) & dom,
            Node::Binary(pred, a, b) if a == v && b == v => {
                // p(x, x): whether each piece stands in the relation to itself.
                bits(dom)
                    .filter(|&i| (self.facts.row(pred, i) >> i) & 1 != 0)
                    .fold(0, |m, i| m | 1 << i)
            }
            Node::Binary(pred, a, b) if a == v => {
                self.facts.column(pred, self.env[b as usize] as usize) & dom
            }
            Node::Binary(pred, a, _) => self.facts.row(pred, self.env[a as usize] as usize) & dom,
            Node::Same(a, b) if a == b => dom,
            Node::Same(a, b) => (1 << self.env[if a == v { b } else { a } as usize]) & dom,
            Node::Bool(_) => unreachable!("a constant has no free variable"),
            Node::Forall(..) | Node::Exists(..) | Node::Cmp(..) | Node::Parity(..) => {
                let saved = self.env[v as usize];
                let mut m = 0;
                for i in bits(dom) {
                    self.env[v as usize] = i as u8;
                    if self.holds(id) {
                        m |= 1 << i;
                    }
                }
                self.env[v as usize] = saved;
                m
            }
        }
    }

    fn value(&mut self, id: TermId) -> i64 {
        match self.pattern.terms[id as usize] {
            TermNode::Int(n) => n,
            TermNode::Count(v, body) => self.mask_in(body, v, self.facts.all()).count_ones() as i64,
            TermNode::PipsSum(v, body) => {
                let m = self.mask_in(body, v, self.facts.all());
                self.facts.pips(m)
            }
            TermNode::PipsOf(v) => self.facts.pips_of(self.env[v as usize] as usize),
            TermNode::Global(ref g) => self
                .facts
                .global_value(g)
                .expect("only global terms are compiled to Global"),
            TermNode::Add(a, b) => self.value(a).saturating_add(self.value(b)),
            TermNode::Sub(a, b) => self.value(a).saturating_sub(self.value(b)),
            TermNode::Mul(k, a) => crate::lang::ast::times(k, self.value(a)),
            TermNode::Mod(a, k) => crate::lang::ast::remainder(self.value(a), k),
        }
    }
}
