//! Proptest generators: random closed formulas covering every node kind, and random
//! structures of either piece set. Shared by the evaluator's tests and any other test
//! in the crate that needs random patterns.

use crate::koan::{Koan, MAX_CELLS, MAX_SIDE, PieceSet};
use crate::lang::ast::{
    BinOp, BinaryPred, CmpOp, Formula, FormulaKind, Parity, Term, TermKind, UnaryPred, Var,
};
use proptest::prelude::*;
use proptest::sample::select;

/// How many distinct variables the generator uses; small, so that random formulas
/// share variables and nest quantifiers over the same ones (shadowing included).
const VARS: u8 = 4;

fn f(kind: FormulaKind) -> Formula {
    Formula::new(0..0, kind)
}

fn t(kind: TermKind) -> Term {
    Term::new(0..0, kind)
}

fn var() -> impl Strategy<Value = Var> {
    (0..VARS).prop_map(Var)
}

fn leaf_term() -> BoxedStrategy<Term> {
    prop_oneof![
        3 => (-2i64..12).prop_map(TermKind::Int),
        1 => var().prop_map(TermKind::PipsOf),
        1 => Just(TermKind::Pieces),
        1 => Just(TermKind::Width),
        1 => Just(TermKind::Height),
        1 => Just(TermKind::Groups),
        1 => Just(TermKind::Sizes),
        1 => Just(TermKind::Directions),
    ]
    .prop_map(t)
    .boxed()
}

fn cmp_op() -> impl Strategy<Value = CmpOp> {
    select(vec![
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ])
}

fn parity() -> impl Strategy<Value = Parity> {
    select(vec![Parity::Odd, Parity::Even])
}

fn leaf_formula() -> BoxedStrategy<Formula> {
    prop_oneof![
        1 => any::<bool>().prop_map(FormulaKind::Bool),
        4 => (select(UnaryPred::ALL.to_vec()), var()).prop_map(|(p, v)| FormulaKind::Unary(p, v)),
        4 => (select(BinaryPred::ALL.to_vec()), var(), var())
            .prop_map(|(p, a, b)| FormulaKind::Binary(p, a, b)),
        1 => (var(), var()).prop_map(|(a, b)| FormulaKind::Same(a, b)),
        1 => (cmp_op(), leaf_term(), leaf_term()).prop_map(|(o, a, b)| FormulaKind::Cmp(o, a, b)),
        1 => (parity(), leaf_term()).prop_map(|(p, x)| FormulaKind::Parity(p, x)),
    ]
    .prop_map(f)
    .boxed()
}

/// Terms whose sub-formulas come from `inner`.
fn term(inner: BoxedStrategy<Formula>) -> BoxedStrategy<Term> {
    let counted = prop_oneof![
        (var(), inner.clone()).prop_map(|(v, b)| TermKind::Count(v, Box::new(b))),
        (var(), inner).prop_map(|(v, b)| TermKind::PipsSum(v, Box::new(b))),
    ]
    .prop_map(t)
    .boxed();
    let arith = (
        any::<bool>(),
        counted.clone(),
        prop_oneof![leaf_term(), counted.clone()],
    )
        .prop_map(|(add, a, b)| {
            let (a, b) = (Box::new(a), Box::new(b));
            t(if add {
                TermKind::Add(a, b)
            } else {
                TermKind::Sub(a, b)
            })
        });
    prop_oneof![2 => leaf_term(), 4 => counted, 1 => arith].boxed()
}

/// Formulas that may have free variables.
fn open_formula() -> BoxedStrategy<Formula> {
    leaf_formula()
        .prop_recursive(5, 40, 3, |inner| {
            let bin_op = select(vec![
                BinOp::And,
                BinOp::Or,
                BinOp::Xor,
                BinOp::Implies,
                BinOp::Iff,
            ]);
            prop_oneof![
                1 => inner.clone().prop_map(|a| FormulaKind::Not(Box::new(a))),
                3 => (bin_op, inner.clone(), inner.clone())
                    .prop_map(|(op, a, b)| FormulaKind::Bin(op, Box::new(a), Box::new(b))),
                2 => (var(), inner.clone()).prop_map(|(v, b)| FormulaKind::Forall(v, Box::new(b))),
                2 => (var(), inner.clone()).prop_map(|(v, b)| FormulaKind::Exists(v, Box::new(b))),
                2 => (cmp_op(), term(inner.clone()), term(inner.clone()))
                    .prop_map(|(o, a, b)| FormulaKind::Cmp(o, a, b)),
                1 => (parity(), term(inner)).prop_map(|(p, x)| FormulaKind::Parity(p, x)),
            ]
            .prop_map(f)
        })
        .boxed()
}

/// Bit `v` set for each free variable `v` (all below [`VARS`]).
fn free_vars(f: &Formula) -> u32 {
    match &f.kind {
        FormulaKind::Bool(_) => 0,
        FormulaKind::Not(a) => free_vars(a),
        FormulaKind::Bin(_, a, b) => free_vars(a) | free_vars(b),
        FormulaKind::Forall(v, a) | FormulaKind::Exists(v, a) => free_vars(a) & !(1 << v.0),
        FormulaKind::Unary(_, v) => 1 << v.0,
        FormulaKind::Binary(_, a, b) | FormulaKind::Same(a, b) => 1 << a.0 | 1 << b.0,
        FormulaKind::Cmp(_, a, b) => term_free_vars(a) | term_free_vars(b),
        FormulaKind::Parity(_, a) => term_free_vars(a),
    }
}

fn term_free_vars(t: &Term) -> u32 {
    match &t.kind {
        TermKind::Count(v, a) | TermKind::PipsSum(v, a) => free_vars(a) & !(1 << v.0),
        TermKind::PipsOf(v) => 1 << v.0,
        TermKind::Add(a, b) | TermKind::Sub(a, b) => term_free_vars(a) | term_free_vars(b),
        _ => 0,
    }
}

/// Random closed formulas: an open one wrapped in `forall` / `exists` for each of its
/// free variables.
pub(crate) fn closed_formula() -> impl Strategy<Value = Formula> {
    (open_formula(), any::<[bool; VARS as usize]>()).prop_map(|(mut formula, universal)| {
        let free = free_vars(&formula);
        for v in (0..VARS).filter(|v| free & 1 << v != 0) {
            let body = Box::new(formula);
            formula = f(if universal[v as usize] {
                FormulaKind::Forall(Var(v), body)
            } else {
                FormulaKind::Exists(Var(v), body)
            });
        }
        formula
    })
}

/// Random structures of 1 to `max_pieces` pieces (fewer when cells collide), of either
/// piece set, in a box of random size so that both sparse and crowded ones come up.
pub(crate) fn koan(max_pieces: usize) -> impl Strategy<Value = Koan> {
    let side = MAX_SIDE;
    (
        select(PieceSet::ALL.to_vec()),
        1..=side,
        1..=side,
        proptest::collection::vec((0..side, 0..side, 0usize..12), 1..=max_pieces),
    )
        .prop_map(move |(set, height, width, cells)| {
            let mut taken = [false; MAX_CELLS];
            let set_pieces = set.pieces();
            let placed: Vec<_> = cells
                .into_iter()
                .map(|(r, c, k)| (r % height, c % width, set_pieces[k % set_pieces.len()]))
                .filter(|&(r, c, _)| !std::mem::replace(&mut taken[(r * side + c) as usize], true))
                .map(|(r, c, p)| (r as i32, c as i32, p))
                .collect();
            Koan::new(set, placed).expect("distinct cells within a 6 x 6 box")
        })
}
