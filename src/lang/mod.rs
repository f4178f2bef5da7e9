//! The pattern language: English and symbolic forms, one AST, its evaluator and printers.
//! The contract is `koan-language.md` sections 3-5.

pub mod ast;

pub use ast::{
    BinOp, BinaryPred, CmpOp, Formula, FormulaKind, Parity, Pattern, Span, Term, TermKind,
    UnaryPred, Var,
};
