//! Refusals that help (`koan-language.md` 3.1): every corrected pattern a refusal
//! offers is read before it is shown, and kept only if it reads and says something
//! (never `at least zero`, which holds of every structure); a word close to a known
//! one is suggested only if the sentence with it reads.

use super::{Vocabulary, read, splice};
use crate::koan::{Koan, PieceSet};
use crate::lang::error::ParsePatternError;
use crate::lang::eval::CompiledPattern;
use crate::lang::lexer::lex;
use std::sync::OnceLock;

/// Keeps the suggestions that read, and adds a close word where one reads (patterns).
pub(crate) fn polish(e: ParsePatternError, text: &str) -> ParsePatternError {
    polish_with::<super::pieces::Pieces>(e, text)
}

/// Keeps the suggestions that read in the vocabulary `V` and say something, and adds
/// a close word where the text with it reads.
pub(crate) fn polish_with<V: Vocabulary>(
    mut e: ParsePatternError,
    text: &str,
) -> ParsePatternError {
    let mut kept: Vec<String> = Vec::new();
    for x in std::mem::take(&mut e.examples) {
        if x != text && !kept.contains(&x) && V::says_something(&x) {
            kept.push(x);
        }
    }
    e.examples = kept;
    typo_hint::<V>(e, text)
}

/// When reading stopped at a word that is close to a known word, and the pattern
/// with that word reads, say so.
fn typo_hint<V: Vocabulary>(mut e: ParsePatternError, text: &str) -> ParsePatternError {
    let Ok(lexed) = lex(text) else {
        return e;
    };
    let Some(word) = lexed
        .tokens
        .iter()
        .find(|t| t.span == e.span)
        .and_then(|t| t.word())
    else {
        return e;
    };
    for fix in V::close_words(word) {
        let fixed = splice(text, &e.span, fix);
        if V::says_something(&fixed) {
            e.message = format!("{} (did you mean `{fix}`?)", e.message);
            if !e.examples.contains(&fixed) {
                e.examples.insert(0, fixed);
            }
            break;
        }
    }
    e
}

/// Whether a suggested pattern reads as English and can be told apart from `true`
/// and `false` on some structure (so it says something a player could mean).
pub(super) fn pattern_says_something(text: &str) -> bool {
    let Ok(p) = read(text) else {
        return false;
    };
    let compiled = CompiledPattern::new(&p.formula);
    let mut verdicts = samples().iter().map(|k| compiled.evaluate(k));
    let first = verdicts.next();
    verdicts.any(|v| Some(v) != first)
}

/// Structures that tell a pattern from a constant: every piece alone, every ordered
/// pair side by side and one above the other, blocks of one piece (so that "every
/// piece touches at least two small pieces" can hold), and random ones of every size
/// up to the full 6 x 6 box (seeded, so always the same).
fn samples() -> &'static [Koan] {
    static SAMPLES: OnceLock<Vec<Koan>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        use rand::SeedableRng;
        let set = PieceSet::Pyramids;
        let pieces = set.pieces();
        let mut out: Vec<Koan> = Vec::new();
        for &p in pieces {
            out.extend(Koan::new(set, [(0, 0, p)]));
            for q in pieces {
                out.extend(Koan::new(set, [(0, 0, p), (0, 1, *q)]));
                out.extend(Koan::new(set, [(0, 0, p), (1, 0, *q)]));
            }
            for (h, w) in [(1, 3), (3, 1), (2, 2), (3, 3), (2, 6), (6, 6)] {
                let cells = (0..h).flat_map(|r| (0..w).map(move |c| (r, c, p)));
                out.extend(Koan::new(set, cells));
            }
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(15);
        for max in [3, 4, 6, 8, 12, 20, 36] {
            for _ in 0..24 {
                out.push(crate::lang::random::koan(&mut rng, set, max));
            }
        }
        out
    })
}
