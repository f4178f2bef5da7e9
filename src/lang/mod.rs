//! The pattern language: English and symbolic forms, one AST, its evaluator and printers.
//! The contract is `koan-language.md` sections 3-5.

pub mod ast;
pub mod eval;
pub mod reference;

pub use ast::{
    BinOp, BinaryPred, CmpOp, Formula, FormulaKind, Parity, Pattern, Span, Term, TermKind,
    UnaryPred, Var,
};

pub use eval::CompiledPattern;

use crate::koan::Koan;

/// Does the structure obey the pattern? The one entry point the rest of Mondo calls.
/// To evaluate one pattern on many structures, compile it once with
/// [`CompiledPattern::new`] instead.
pub fn evaluate(formula: &Formula, koan: &Koan) -> bool {
    CompiledPattern::new(formula).evaluate(koan)
}
