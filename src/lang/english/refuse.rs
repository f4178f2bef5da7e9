//! Refusals that help (docs/patterns.md, "What is refused, and why"): every corrected
//! pattern a refusal offers is read before it is shown, and kept only if it reads and
//! says something
//! (never `at least zero`, which holds of every structure); a word close to a known
//! one is suggested only if the sentence with it reads.

use super::{Vocabulary, splice};
use crate::lang::ast::Span;
use crate::lang::error::ParsePatternError;
use crate::lang::lexer::{Sym, Tok, lex};

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
/// names put in place of the one where reading stopped (or of the first words of the
/// phrase where it stopped); else the part before that word where it ends a clause,
/// a sentence the message or its help gives, or the vocabulary's statements closest
/// in words to the text. Each is read and must say something.
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
    if out.is_empty() {
        for span in &at {
            for q in quoted.iter().filter(|q| q.split_whitespace().count() <= 3) {
                offer(splice(text, span, q), &mut out);
            }
        }
    }
    // What was said before the word where reading stopped, where it ends a clause
    // (where reading stopped, not where an ambiguity was refused).
    if out.is_empty() && e.message.starts_with("expected") {
        for cut in clause_ends(text, e.span.start) {
            // A clause, not a bare noun phrase (`a small piece`).
            let before = text[..cut].trim_end_matches([',', ';', ':', ' ']);
            if before.split_whitespace().count() < 4 || noun_phrase::<V>(before) {
                continue;
            }
            offer(before.to_string(), &mut out);
            if !out.is_empty() {
                break;
            }
        }
    }
    // Whole sentences the message gives (not a bare noun phrase).
    if out.is_empty() {
        for q in quoted.iter().filter(|q| q.split_whitespace().count() >= 4) {
            if !noun_phrase::<V>(q) {
                offer(q.to_string(), &mut out);
            }
        }
    }
    // The vocabulary's statements closest to the words written: those sharing the
    // most words with it, and at least half as many as the closest.
    if out.is_empty() {
        let words = words_of(text);
        let mut ranked: Vec<(usize, usize, String)> = V::rewordings(&words)
            .into_iter()
            .enumerate()
            .map(|(i, x)| {
                let mut own = words_of(&x);
                own.sort();
                own.dedup();
                let shared = own
                    .iter()
                    .filter(|w| !FILLER.contains(&w.as_str()) && words.contains(w))
                    .count();
                (shared, i, x)
            })
            .collect();
        ranked.sort_by_key(|(shared, i, _)| (usize::MAX - shared, *i));
        let best = ranked.first().map_or(0, |r| r.0);
        for (shared, _, x) in ranked {
            if shared * 2 < best || out.len() >= 2 {
                break;
            }
            offer(x, &mut out);
        }
    }
    e.examples = out;
}

/// The text with single spaces and none before punctuation (what a splice leaves).
fn tidy(text: &str) -> String {
    let mut out = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for p in [",", ";", ".", ":", "?", "!"] {
        out = out.replace(&format!(" {p}"), p);
    }
    out
}

/// Whether the text is a noun phrase (`two tiles of different colours`), which reads
/// as `there are ...` but is no sentence a player writes.
fn noun_phrase<V: Vocabulary>(text: &str) -> bool {
    super::read_with::<V>(&format!("there are {text}")).is_ok()
        || super::read_with::<V>(&format!("there is {text}")).is_ok()
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

/// Words too common to tell statements apart.
const FILLER: &[&str] = &[
    "a", "an", "the", "is", "are", "of", "to", "in", "as", "there", "than", "that", "it",
];

/// The texts between backticks.
fn backticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The lower-cased words of a text, plurals as singulars (`tiles` is `tile`).
fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let w = w.to_lowercase();
            match w.strip_suffix('s') {
                Some(stem) if stem.len() > 2 && !stem.ends_with('s') => stem.to_string(),
                _ => w,
            }
        })
        .collect()
}

/// Byte offsets before `at` where a clause ends (before `,`, `;`, `and`, `but`,
/// `or`, `then` and the like), latest first.
fn clause_ends(text: &str, at: usize) -> Vec<usize> {
    let Ok(lexed) = lex(text) else {
        return Vec::new();
    };
    let mut cuts: Vec<usize> = lexed
        .tokens
        .iter()
        .filter(|t| t.span.start <= at && t.span.start > 0)
        .filter(|t| match t.word() {
            Some(w) => matches!(w, "and" | "but" | "or" | "so" | "because" | "since"),
            None => matches!(
                &t.tok,
                Tok::Sym(Sym::Comma | Sym::Semicolon | Sym::Period | Sym::Colon)
            ),
        })
        .map(|t| t.span.start)
        .collect();
    cuts.reverse();
    cuts
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
