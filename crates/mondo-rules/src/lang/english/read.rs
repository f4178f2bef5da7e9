//! Reading a whole text in a vocabulary: the frame drops what carries no meaning,
//! the vocabulary checks its words, and the sentence is read to its end.

use super::frame::normalise;
use super::{F, Parser, R, Vocabulary};
use crate::lang::error::ParsePatternError;
use crate::lang::lexer::{Cursor, lex};

/// Reads a whole text in the vocabulary `V`.
pub(crate) fn read_with<V: Vocabulary>(text: &str) -> R<F<V>> {
    let lexed = lex(text)?;
    let toks = normalise::<V>(lexed.tokens)?;
    V::check_words(&toks)?;
    if toks.is_empty() {
        return Err(
            ParsePatternError::new(0..text.len(), format!("the {} is empty", V::WHAT))
                .with_example(V::EXAMPLE),
        );
    }
    let mut p = Parser::<V>::new(text, Cursor::new(toks, text.len()));
    p.rule().and_then(|f| {
        if p.c.at_end() {
            Ok(f)
        } else {
            Err(p.c.expected(&format!(
                "the end of the {} (or `and`, `or` and another sentence)",
                V::WHAT
            )))
        }
    })
}
