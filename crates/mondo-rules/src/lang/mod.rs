//! The pattern language: English and symbolic forms, one AST, its evaluator and printers.
//! The contract with players is docs/patterns.md.
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
//! - For the fronts: [`read_for`] reads a pattern for a game and refuses it with a
//!   [`Refusal`] whose [`Refusal::render`] is what `mondo explain` shows (reason,
//!   hints, corrected patterns that read); [`VOCABULARY`] / [`vocabulary_text`] list
//!   the words with one example each (`help words`, `/help patterns`).

pub mod ast;
mod connectives;
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
pub mod tiles;
mod vocabulary;
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
pub use vocabulary::{Entry, VOCABULARY, vocabulary_text};
pub use words::word_count;

pub use eval::CompiledPattern;

use crate::koan::{Koan, PieceSet};

/// Why a pattern was refused for a game: it does not read, or it speaks of what the
/// game's piece set lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    Unreadable(ParsePatternError),
    WrongSet(SetError, PieceSet),
}

impl Refusal {
    /// The refusal as `mondo explain` shows it, for every front: the pattern with the
    /// word marked, what was wrong and what is allowed, hints, and the corrected
    /// patterns (each of which reads). Plain ASCII, fit for a Discord code block.
    pub fn render(&self, source: &str) -> String {
        match self {
            Refusal::Unreadable(e) => e.render(source),
            Refusal::WrongSet(e, set) => format!(
                "the pattern does not fit the {set} set:\n{}",
                e.render(source)
            ),
        }
    }

    /// One line: what was wrong.
    pub fn message(&self) -> &str {
        match self {
            Refusal::Unreadable(e) => &e.message,
            Refusal::WrongSet(e, _) => &e.message,
        }
    }

    /// Corrected patterns that read (empty when none is obvious).
    pub fn suggestions(&self) -> &[String] {
        match self {
            Refusal::Unreadable(e) => &e.examples,
            Refusal::WrongSet(..) => &[],
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Refusal {}

/// Reads a pattern (either form) for a game played with `set`: [`parse`], then
/// [`check_set`]. What every front calls before a guess or a hidden pattern is taken.
pub fn read_for(text: &str, set: PieceSet) -> Result<Pattern, Refusal> {
    let pattern = parse(text).map_err(Refusal::Unreadable)?;
    check_set(&pattern, set).map_err(|e| Refusal::WrongSet(e, set))?;
    Ok(pattern)
}

/// Does the structure obey the pattern? The one entry point the rest of Mondo calls.
/// To evaluate one pattern on many structures, compile it once with
/// [`CompiledPattern::new`] instead.
pub fn evaluate(formula: &Formula, koan: &Koan) -> bool {
    CompiledPattern::new(formula).evaluate(koan)
}

/// Reads a pattern in either form. English is tried first unless the text is
/// unmistakably symbolic (`forall x.`, `up(x)`, `&`, `->`, a `#` comment...); if the
/// form tried first fails and the other reads, the other is taken. Otherwise the
/// error is from the reader that got further into the text (English on a tie), so
/// that `every piece points up!` or `there exists a small piece` is not blamed on
/// its first word.
pub fn parse(text: &str) -> Result<Pattern, ParsePatternError> {
    let symbolic_first = unmistakably_symbolic(text);
    let read = |symbolic: bool| {
        if symbolic {
            parse_symbolic(text)
        } else {
            english::read(text)
        }
    };
    let first_error = match read(symbolic_first) {
        Ok(p) => return Ok(p),
        Err(e) => e,
    };
    let other_error = match read(!symbolic_first) {
        Ok(p) => return Ok(p),
        Err(e) => e,
    };
    // The reader that got further says what went wrong; the one tried first on a tie.
    let (english_error, symbolic_error) = if symbolic_first {
        (other_error, first_error)
    } else {
        (first_error, other_error)
    };
    // Symbolic progress counts only in text with some symbolic syntax: `pieces
    // point up` gets further as symbolic (`pieces` is a term) but is English.
    let (e, s) = (english_error.span.start, symbolic_error.span.start);
    let s = if symbolic_first || some_symbolic_syntax(text) {
        s
    } else {
        0
    };
    if e > s || (e == s && !symbolic_first) {
        Err(english::polish(english_error, text))
    } else {
        Err(symbolic_error)
    }
}

/// Whether the text has anything of the symbolic form's syntax: parentheses right
/// after a word, a comparison sign, or a symbolic keyword.
fn some_symbolic_syntax(text: &str) -> bool {
    let Ok(lexed) = lexer::lex(text) else {
        return false;
    };
    let toks = &lexed.tokens;
    toks.iter().enumerate().any(|(i, t)| match &t.tok {
        lexer::Tok::Sym(s) => {
            s.continues_term() && *s != lexer::Sym::Minus
                || (*s == lexer::Sym::LParen && i > 0 && !t.spaced)
        }
        lexer::Tok::Word(w) => matches!(
            w.as_str(),
            "forall" | "exists" | "true" | "false" | "count" | "pips"
        ),
        lexer::Tok::Int(_) => false,
    })
}

/// Whether the text uses syntax that only the symbolic form has.
fn unmistakably_symbolic(text: &str) -> bool {
    let Ok(lexed) = lexer::lex(text) else {
        return false;
    };
    if lexed.comment {
        return true;
    }
    let toks = &lexed.tokens;
    let sym = |i: usize| match toks.get(i).map(|t| &t.tok) {
        Some(lexer::Tok::Sym(s)) => Some(*s),
        _ => None,
    };
    let word = |i: usize| toks.get(i).and_then(lexer::Token::word);
    toks.iter().enumerate().any(|(i, t)| match &t.tok {
        lexer::Tok::Sym(s) => match s {
            lexer::Sym::Amp
            | lexer::Sym::Pipe
            | lexer::Sym::Caret
            | lexer::Sym::Arrow
            | lexer::Sym::DoubleArrow => true,
            // `!` before something (`!exists`), not a final `!`.
            lexer::Sym::Bang => i + 1 < toks.len(),
            // `count(x: ...)`
            lexer::Sym::Colon => i >= 2 && sym(i - 2) == Some(lexer::Sym::LParen),
            _ => false,
        },
        lexer::Tok::Word(w) => {
            let call = toks
                .get(i + 1)
                .is_some_and(|n| n.tok == lexer::Tok::Sym(lexer::Sym::LParen) && !n.spaced);
            let named = UnaryPred::ALL.iter().any(|p| p.name() == w)
                || BinaryPred::ALL.iter().any(|p| p.name() == w)
                || matches!(w.as_str(), "count" | "pips" | "odd" | "even");
            // `forall x y.`: short variable names, then a period.
            let quantifier = matches!(w.as_str(), "forall" | "exists") && {
                let mut k = i + 1;
                while word(k).is_some_and(|v| v.len() <= 3 && !matches!(v, "a" | "an" | "no"))
                    || sym(k) == Some(lexer::Sym::Comma)
                {
                    k += 1;
                }
                k > i + 1 && sym(k) == Some(lexer::Sym::Period)
            };
            (call && named) || quantifier || w.contains('_')
        }
        lexer::Tok::Int(_) => false,
    })
}
