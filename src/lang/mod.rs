//! The pattern language: English and symbolic forms, one AST, its evaluator and printers.
//! The contract is `koan-language.md` sections 3-5.
//!
//! - Reading: [`parse`] (either form), [`parse_english`], [`parse_symbolic`]; errors are
//!   [`ParsePatternError`] (span, message, hint, corrected examples, ASCII `render`).
//! - Piece sets: [`check_set`] refuses sizes and pips for the arrows set.
//! - Saying back: [`english`] (canonical English, or the symbolic form where English
//!   has no words), [`english_for`] (the same, calling pieces what the game's piece
//!   set calls them: `arrows`), [`symbolic`] (exact), [`word_count`].
//! - Comparing: [`same_tree`] (equal up to spans and variable names) and
//!   [`same_reading`] (also up to `and`/`or` order and other meaning-preserving
//!   rewrites).
//! - Testing: [`random`] builds random closed formulas and random structures.

pub mod ast;
mod english;
mod error;
pub mod eval;
mod lexer;
mod normal;
mod print;
pub mod random;
pub mod reference;
mod set;
mod symbolic;
mod words;

pub use ast::{
    BinOp, BinaryPred, CmpOp, Formula, FormulaKind, Parity, Pattern, Span, Term, TermKind,
    UnaryPred, Var,
};
pub use english::parse_english;
pub use error::{ParsePatternError, SetError};
pub use normal::{canonical, same_reading, same_tree};
pub use print::{english, english_for, natural_english, symbolic, var_name};
pub use set::check_set;
pub use symbolic::parse_symbolic;
pub use words::word_count;

pub use eval::CompiledPattern;

use crate::koan::Koan;

/// Does the structure obey the pattern? The one entry point the rest of Mondo calls.
/// To evaluate one pattern on many structures, compile it once with
/// [`CompiledPattern::new`] instead.
pub fn evaluate(formula: &Formula, koan: &Koan) -> bool {
    CompiledPattern::new(formula).evaluate(koan)
}

/// Reads a pattern in either form. The symbolic form is recognised by its syntax
/// (`forall`, `exists`, `count(`, `up(x)`, `&`, `->`, `#` comments...); anything else
/// is read as English. If the form so chosen fails but the other reads the text, the
/// other is taken; otherwise the error is the chosen form's.
pub fn parse(text: &str) -> Result<Pattern, ParsePatternError> {
    type Reader = fn(&str) -> Result<Pattern, ParsePatternError>;
    let (first, second): (Reader, Reader) = if looks_symbolic(text) {
        (parse_symbolic, parse_english)
    } else {
        (parse_english, parse_symbolic)
    };
    match first(text) {
        Ok(p) => Ok(p),
        Err(e) => second(text).map_err(|_| e),
    }
}

/// Whether the text uses syntax that only the symbolic form has.
fn looks_symbolic(text: &str) -> bool {
    let Ok(lexed) = lexer::lex(text) else {
        return false;
    };
    if lexed.comment {
        return true;
    }
    let toks = &lexed.tokens;
    toks.iter().enumerate().any(|(i, t)| match &t.tok {
        lexer::Tok::Sym(s) => s.is_symbolic_only(),
        lexer::Tok::Word(w) => {
            let call = toks
                .get(i + 1)
                .is_some_and(|n| n.tok == lexer::Tok::Sym(lexer::Sym::LParen) && !n.spaced);
            matches!(w.as_str(), "forall" | "exists" | "true" | "false") || w.contains('_') || call
        }
        lexer::Tok::Int(_) => false,
    })
}
