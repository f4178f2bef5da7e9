//! The fast evaluator: a formula compiled once into a flat node array, evaluated over
//! bitmask facts about a structure (see [`Facts`]).
//!
//! The trick is to evaluate a quantifier's body for all pieces at once: for a formula
//! with variable `v` free, [`Evaluator::mask`] returns the set of pieces that make it
//! true when bound to `v`. Atoms become precomputed masks (`small(x)` is the set of
//! small pieces, `touches(x, y)` with `y` bound is y's neighbours), connectives become
//! bit operations, and `forall` / `exists` / `count` / `pips` read the mask. Only
//! nodes that cannot be done set-wise (nested quantifiers and comparisons that depend
//! on `v`) fall back to binding `v` to each piece in turn.
//!
//! It must agree with [`crate::lang::reference`] exactly; a property test checks.

mod facts;
#[cfg(test)]
mod tests;

pub use facts::Facts;

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
    terms: Vec<TermNode>,
    root: NodeId,
}

impl CompiledPattern {
    /// Compiles a closed formula (every variable inside its quantifier, as the parser
    /// guarantees).
    ///
    /// # Panics
    /// If the formula has a free variable: that is a bug in whatever built it.
    pub fn new(formula: &Formula) -> CompiledPattern {
        let mut c = CompiledPattern {
            nodes: Vec::new(),
            free: Vec::new(),
            terms: Vec::new(),
            root: 0,
        };
        let (root, free) = c.formula(formula);
        assert!(
            free.is_empty(),
            "formula has a variable used outside its quantifier"
        );
        c.root = root;
        c
    }

    fn push(&mut self, node: Node, free: VarSet) -> (NodeId, VarSet) {
        self.nodes.push(node);
        self.free.push(free);
        ((self.nodes.len() - 1) as NodeId, free)
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
            FormulaKind::Forall(v, body) => {
                let (body, fb) = self.formula(body);
                self.push(Node::Forall(v.0, body), fb.without(*v))
            }
            FormulaKind::Exists(v, body) => {
                let (body, fb) = self.formula(body);
                self.push(Node::Exists(v.0, body), fb.without(*v))
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
        Evaluator {
            pattern: self,
            facts,
            env: [0; 256],
        }
        .holds(self.root)
    }
}

struct Evaluator<'a, 'k> {
    pattern: &'a CompiledPattern,
    facts: &'a Facts<'k>,
    /// The piece each variable is bound to (meaningful only inside its quantifier).
    env: [u8; 256],
}

impl Evaluator<'_, '_> {
    fn holds(&mut self, id: NodeId) -> bool {
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
            Node::Forall(v, body) => self.quantify(body, v, true),
            Node::Exists(v, body) => self.quantify(body, v, false),
            Node::Unary(pred, v) => (self.facts.unary(pred) >> self.env[v as usize]) & 1 != 0,
            Node::Binary(pred, a, b) => {
                let pieces = self.facts.koan().pieces();
                pred.holds(
                    pieces[self.env[a as usize] as usize],
                    pieces[self.env[b as usize] as usize],
                )
            }
            Node::Same(a, b) => self.env[a as usize] == self.env[b as usize],
            Node::Cmp(op, a, b) => op.holds(self.value(a), self.value(b)),
            Node::Parity(parity, t) => {
                let even = self.value(t).rem_euclid(2) == 0;
                even == (parity == Parity::Even)
            }
        }
    }

    /// `forall v. body` (when `all`) or `exists v. body`.
    fn quantify(&mut self, body: NodeId, v: u8, all: bool) -> bool {
        if self.needs_binding(body, v) {
            // Stop at the first piece that settles it.
            let saved = self.env[v as usize];
            let settled = (0..self.facts.len()).any(|i| {
                self.env[v as usize] = i as u8;
                self.holds(body) != all
            });
            self.env[v as usize] = saved;
            settled != all
        } else {
            let m = self.mask(body, v);
            if all { m == self.facts.all() } else { m != 0 }
        }
    }

    /// Whether the node is one that [`Self::mask`] can only answer piece by piece.
    fn needs_binding(&self, id: NodeId, v: u8) -> bool {
        self.pattern.free[id as usize].contains(v)
            && matches!(
                self.pattern.nodes[id as usize],
                Node::Forall(..) | Node::Exists(..) | Node::Cmp(..) | Node::Parity(..)
            )
    }

    /// The pieces that make the node true when bound to variable `v` (other variables
    /// as in `env`).
    fn mask(&mut self, id: NodeId, v: u8) -> u64 {
        let all = self.facts.all();
        if !self.pattern.free[id as usize].contains(v) {
            return if self.holds(id) { all } else { 0 };
        }
        match self.pattern.nodes[id as usize] {
            Node::Not(a) => all & !self.mask(a, v),
            Node::Bin(op, a, b) => {
                let a = self.mask(a, v);
                match op {
                    BinOp::And if a == 0 => 0,
                    BinOp::And => a & self.mask(b, v),
                    BinOp::Or if a == all => all,
                    BinOp::Or => a | self.mask(b, v),
                    BinOp::Implies if a == 0 => all,
                    BinOp::Implies => (all & !a) | self.mask(b, v),
                    BinOp::Xor => a ^ self.mask(b, v),
                    BinOp::Iff => all & !(a ^ self.mask(b, v)),
                }
            }
            Node::Unary(pred, _) => self.facts.unary(pred),
            Node::Binary(pred, a, b) if a == v && b == v => {
                // p(x, x): whether each piece stands in the relation to itself.
                (0..self.facts.len())
                    .filter(|&i| (self.facts.row(pred, i) >> i) & 1 != 0)
                    .fold(0, |m, i| m | 1 << i)
            }
            Node::Binary(pred, a, b) if a == v => {
                self.facts.column(pred, self.env[b as usize] as usize)
            }
            Node::Binary(pred, a, _) => self.facts.row(pred, self.env[a as usize] as usize),
            Node::Same(a, b) if a == b => all,
            Node::Same(a, b) => 1 << self.env[if a == v { b } else { a } as usize],
            Node::Bool(_) => unreachable!("a constant has no free variable"),
            Node::Forall(..) | Node::Exists(..) | Node::Cmp(..) | Node::Parity(..) => {
                let saved = self.env[v as usize];
                let mut m = 0;
                for i in 0..self.facts.len() {
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
            TermNode::Count(v, body) => self.mask(body, v).count_ones() as i64,
            TermNode::PipsSum(v, body) => {
                let m = self.mask(body, v);
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
