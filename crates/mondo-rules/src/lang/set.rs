//! Piece-set awareness: the arrows set has one size, so a pattern that speaks of sizes
//! or pips means nothing there and is refused.

use super::ast::{Formula, FormulaKind, Pattern, Span, Term, TermKind};
use super::error::SetError;
use crate::koan::PieceSet;

/// Refuses a pattern that speaks of something the piece set lacks (sizes and pips in
/// the arrows set), naming the first such word.
pub fn check_set(pattern: &Pattern, set: PieceSet) -> Result<(), SetError> {
    if set.has_sizes() {
        return Ok(());
    }
    let mut found: Option<(Span, &'static str)> = None;
    size_mentions(&pattern.formula, &mut |span, name| {
        if found.as_ref().is_none_or(|(s, _)| span.start < s.start) {
            found = Some((span.clone(), name));
        }
    });
    let Some((span, name)) = found else {
        return Ok(());
    };
    let word = pattern
        .source
        .get(span.clone())
        .filter(|w| !w.trim().is_empty())
        .unwrap_or(name)
        .to_string();
    Err(SetError {
        message: format!(
            "the {set} set has only one size, so `{word}` means nothing here: speak of directions and places instead"
        ),
        span,
        word,
    })
}

fn size_mentions(f: &Formula, found: &mut impl FnMut(&Span, &'static str)) {
    match &f.kind {
        FormulaKind::Bool(_) | FormulaKind::Same(..) => {}
        FormulaKind::Not(a) | FormulaKind::Forall(_, a) | FormulaKind::Exists(_, a) => {
            size_mentions(a, found)
        }
        FormulaKind::Bin(_, a, b) => {
            size_mentions(a, found);
            size_mentions(b, found);
        }
        FormulaKind::Unary(p, _) if p.mentions_size() => found(&f.span, p.name()),
        FormulaKind::Binary(p, ..) if p.mentions_size() => found(&f.span, p.name()),
        FormulaKind::Unary(..) | FormulaKind::Binary(..) => {}
        FormulaKind::Cmp(_, a, b) => {
            term_mentions(a, found);
            term_mentions(b, found);
        }
        FormulaKind::Parity(_, t) => term_mentions(t, found),
    }
}

fn term_mentions(t: &Term, found: &mut impl FnMut(&Span, &'static str)) {
    match &t.kind {
        TermKind::PipsSum(_, f) => {
            found(&t.span, "pips");
            size_mentions(f, found);
        }
        TermKind::PipsOf(_) => found(&t.span, "pips"),
        TermKind::Sizes => found(&t.span, "sizes"),
        TermKind::Count(_, f) => size_mentions(f, found),
        TermKind::Add(a, b) | TermKind::Sub(a, b) => {
            term_mentions(a, found);
            term_mentions(b, found);
        }
        TermKind::Mul(_, a) | TermKind::Mod(a, _) => term_mentions(a, found),
        _ => {}
    }
}
