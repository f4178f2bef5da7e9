//! Refusals that help (docs/patterns.md, "What is refused, and why"): every corrected
//! pattern a refusal offers is read before it is shown, and kept only if it reads and
//! says something (never `at least zero`, which holds of every structure); a word
//! close to a known one is suggested only if the sentence with it reads.
//!
//! A rewording is offered only if it means what was typed: the text with a word it
//! misspelt put right, or with the word refused as ambiguous replaced by one of its
//! readings (the refusal's own, or a word its message names for it; an ambiguity of
//! scope checks its two readings by the evaluator before offering them). The text
//! cut short, or a stock sentence sharing its words, would mean something else, and
//! is never offered.

use super::{Vocabulary, splice};
use crate::lang::ast::Span;
use crate::lang::error::ParsePatternError;
use crate::lang::lexer::lex;

/// Keeps the suggestions that read in the vocabulary `V` and say something, and adds
/// a close word where the text with it reads.
pub(crate) fn polish_with<V: Vocabulary>(
    mut e: ParsePatternError,
    text: &str,
) -> ParsePatternError {
    let mut kept: Vec<String> = Vec::new();
    for x in std::mem::take(&mut e.examples) {
        let x = tidy(&x);
        if x != text && !kept.contains(&x) && V::says_something(&x) {
            kept.push(x);
        }
    }
    e.examples = kept;
    let mut e = typo_hint::<V>(e, text);
    rewordings::<V>(&mut e, text);
    e
}

/// At most this many rewordings are offered.
const MOST: usize = 3;

/// Where the refusal offers no rewording, adds some that read: a word the message
/// names for the one refused put in its place (or in place of the first words of the
/// phrase refused). Not where reading merely stopped (`expected ...`: the words the
/// message names are examples of what could come, not readings of what was
/// written). Each is read and must say something.
fn rewordings<V: Vocabulary>(e: &mut ParsePatternError, text: &str) {
    let mut out: Vec<String> = std::mem::take(&mut e.examples);
    let offer = |x: String, out: &mut Vec<String>| {
        let x = tidy(&x);
        if out.len() < MOST
            && !x.is_empty()
            && x != text.trim()
            && !out.contains(&x)
            && V::says_something(&x)
        {
            out.push(x);
        }
    };
    let mut quoted = backticked(&e.message);
    quoted.extend(e.help.as_deref().map(backticked).unwrap_or_default());
    let quoted: Vec<&str> = quoted.into_iter().filter(|q| !q.contains("...")).collect();
    // A word offered for the one where reading stopped, or for the first one or two
    // words of the phrase where it stopped (`exactly` in `exactly two tiles ...`).
    let tokens = lex(text).map(|l| l.tokens).unwrap_or_default();
    let inside: Vec<&Span> = tokens
        .iter()
        .map(|t| &t.span)
        .filter(|s| s.start >= e.span.start && s.end < e.span.end)
        .take(2)
        .collect();
    let mut at: Vec<Span> = vec![e.span.clone()];
    at.extend(inside.iter().map(|s| e.span.start..s.end));
    at.retain(|s| !s.is_empty() && text.get(s.clone()).is_some());
    if out.is_empty() && !e.message.starts_with("expected") {
        for span in &at {
            for q in quoted.iter().filter(|q| q.split_whitespace().count() <= 3) {
                if quantities(&text[span.clone()]) != quantities(q) {
                    continue;
                }
                offer(splice(text, span, q), &mut out);
            }
        }
    }
    e.examples = out;
}

/// The words of a text that say how many (`all`, `no`, `at least`, `two`): a word the
/// message names is put in place of the refused one only when both say the same
/// quantity, since `no` for `all` (or `exactly one` for `all`) would offer a sentence
/// that means something else than the one typed.
fn quantities(text: &str) -> Vec<String> {
    const WORDS: &[&str] = &[
        "all", "every", "each", "no", "none", "some", "any", "both", "most", "few", "many",
        "several", "exactly", "least", "more", "fewer", "less", "only", "half", "neither",
        "either",
    ];
    text.split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| {
            WORDS.contains(&w.as_str())
                || crate::lang::words::number_word(w).is_some()
                || w.chars().all(|c| c.is_ascii_digit()) && !w.is_empty()
        })
        .collect()
}

/// The text with single spaces and none before punctuation (what a splice leaves).
fn tidy(text: &str) -> String {
    let mut out = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for p in [",", ";", ".", ":", "?", "!"] {
        out = out.replace(&format!(" {p}"), p);
    }
    out
}

/// Whether every `a` / `an` of the text agrees with the word after it (`an red`).
fn articles_agree(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.windows(2).all(|w| {
        let vowel = |vs: &[char]| w[1].starts_with(vs);
        match w[0].to_lowercase().as_str() {
            "a" => !vowel(&['a', 'e', 'i', 'o']),
            "an" => vowel(&['a', 'e', 'i', 'o', 'u']),
            _ => true,
        }
    })
}

/// The texts between backticks.
fn backticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
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
        if !articles_agree(&fixed) {
            continue;
        }
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
