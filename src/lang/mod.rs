//! The pattern language: English and symbolic forms, one AST, its evaluator and printers.
//! The contract is `koan-language.md` sections 3-5.

pub mod ast;
pub mod reference;

pub use ast::{
    BinOp, BinaryPred, CmpOp, Formula, FormulaKind, Parity, Pattern, Span, Term, TermKind,
    UnaryPred, Var,
};

use crate::koan::Koan;

/// Does the structure obey the pattern? The one entry point the rest of Mondo calls.
pub fn evaluate(formula: &Formula, koan: &Koan) -> bool {
    reference::evaluate(formula, koan)
}
