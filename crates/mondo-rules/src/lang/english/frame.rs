//! How people frame a rule, which carries no meaning of its own (docs/patterns.md, "How
//! people say it"): quotes and end punctuation, hedges (`I think`, `maybe`), modals
//! (`there has to be`, `all pieces must be`), `you have to have`, `in the koan`, and
//! the frames `a koan has the Buddha-nature if ...` and `koans must have ...`.
//!
//! The rewrites work on tokens and keep spans: a modal and its verb become one token
//! spanning both, so errors still point at what the player wrote. Only words whose
//! meaning is certain are dropped or rewritten; anything else is left for the reader,
//! which refuses what it cannot read.

use super::{F, Parser, R, Vocabulary};
use crate::lang::error::ParsePatternError;
use crate::lang::lexer::{Sym, Tok, Token};

fn word(t: &Token) -> &str {
    t.word().unwrap_or("")
}

fn synthetic(w: &str, span: std::ops::Range<usize>) -> Token {
    Token {
        tok: Tok::Word(w.to_string()),
        span,
        spaced: true,
    }
}

/// Hedges at the start (or end) of a guess.
const HEDGES: &[&[&str]] = &[
    &["i", "think"],
    &["i", "guess"],
    &["i", "believe"],
    &["i", "suspect"],
    &["i'd", "say"],
    &["i", "would", "say"],
    &["i", "would", "guess"],
    &["maybe"],
    &["probably"],
    &["perhaps"],
    &["my", "guess", "is"],
    &["my", "answer", "is"],
    &["the", "rule", "is"],
    &["the", "pattern", "is"],
    &["the", "hidden", "pattern", "is"],
    &["it", "is", "true", "that"],
    &["it's", "true", "that"],
];

/// Modals that say a rule must hold: `X must point up` is `X points up`.
const MODALS: &[&[&str]] = &[
    &["has", "got", "to"],
    &["have", "got", "to"],
    &["is", "required", "to"],
    &["are", "required", "to"],
    &["has", "to"],
    &["have", "to"],
    &["needs", "to"],
    &["need", "to"],
    &["ought", "to"],
    &["got", "to"],
    &["gotta"],
    &["must"],
    &["should"],
    &["can"],
    &["is", "allowed", "to"],
    &["are", "allowed", "to"],
    &["may"],
    &["will"],
    &["shall"],
];

/// Modals with their negation folded in.
const NEGATED_MODALS: &[&str] = &["cannot", "can't", "mustn't", "shouldn't", "won't", "shan't"];

/// "Need not": allows both, so it is no rule.
const NOT_REQUIRED: &[&[&str]] = &[
    &["need", "not"],
    &["needn't"],
    &["does", "not", "have", "to"],
    &["doesn't", "have", "to"],
    &["do", "not", "have", "to"],
    &["don't", "have", "to"],
    &["does", "not", "need", "to"],
    &["doesn't", "need", "to"],
    &["do", "not", "need", "to"],
    &["don't", "need", "to"],
];

fn matches_at(toks: &[Token], i: usize, words: &[&str]) -> bool {
    words
        .iter()
        .enumerate()
        .all(|(k, w)| toks.get(i + k).is_some_and(|t| word(t) == *w))
}

/// Drops and rewrites what carries no meaning; see the module documentation.
pub(super) fn normalise<V: Vocabulary>(toks: Vec<Token>) -> R<Vec<Token>> {
    // Quotes and question marks never change what a guess says; `&` between English
    // sentences is `and`.
    let mut toks: Vec<Token> = toks
        .into_iter()
        .filter(|t| !matches!(t.tok, Tok::Sym(Sym::Quote | Sym::Question)))
        .map(|t| match t.tok {
            Tok::Sym(Sym::Amp) => synthetic("and", t.span),
            _ => t,
        })
        .collect();
    let trailing = |toks: &mut Vec<Token>| {
        while toks.last().is_some_and(|t| {
            matches!(
                t.tok,
                Tok::Sym(Sym::Period | Sym::Bang | Sym::Semicolon | Sym::Comma | Sym::Colon)
            )
        }) {
            toks.pop();
        }
    };
    trailing(&mut toks);
    strip_hedges(&mut toks);
    trailing(&mut toks);
    // A question (`is there a small piece?`) asks whether the rule is that.
    if toks.len() > 2 && matches!(word(&toks[0]), "is" | "are") && word(&toks[1]) == "there" {
        toks.swap(0, 1);
    }
    // Spellings, and plurals of kinds said with the noun (`no reds` is `no red tiles`).
    let toks: Vec<Token> = toks
        .into_iter()
        .flat_map(|mut t| {
            if let Some(w) = t.word().and_then(V::spelling) {
                t.tok = Tok::Word(w.to_string());
            }
            // `theres` is `there's`; `others` is `other` things (`two others`).
            if t.word() == Some("theres") {
                t.tok = Tok::Word("there's".to_string());
            }
            if t.word() == Some("others") {
                return vec![
                    synthetic("other", t.span.clone()),
                    synthetic(V::NOUNS, t.span.clone()),
                ];
            }
            match t.word().and_then(V::kind_plural) {
                Some(kind) => vec![
                    synthetic(kind, t.span.clone()),
                    synthetic(V::NOUNS, t.span.clone()),
                ],
                None => vec![t],
            }
        })
        .collect();
    let toks = ignore_mentions::<V>(toks);
    let toks = one_of_each::<V>(toks);
    let toks = distributed_counts::<V>(toks);
    let toks = strict_counts(toks);
    rewrite_modals::<V>(toks)
}

/// A number the token is (`3`, `three`).
fn count_of(t: &Token) -> Option<i64> {
    match &t.tok {
        Tok::Int(n) => Some(*n),
        Tok::Word(w) => crate::lang::words::number_word(w),
        _ => None,
    }
}

/// The words that say how a count bounds (`exactly`, `at least`, `more than`...).
const BOUNDS: &[&[&str]] = &[
    &["exactly"],
    &["at", "least"],
    &["at", "most"],
    &["more", "than"],
    &["fewer", "than"],
    &["less", "than"],
];

/// Words that may stand between a count and the next item of its list: the kinds and
/// the noun (`exactly 2 red tiles and 2 blue tiles`).
fn list_word<V: Vocabulary>(t: &Token) -> bool {
    let w = word(t);
    V::adjective(w).is_some() || V::is_noun(w)
}

/// A bound said once before a list of counts holds for every count of the list, as
/// English says it: `exactly 2 red and 2 blue tiles` is exactly 2 of each, and so is
/// `exactly 2 red tiles, 2 blue tiles and 1 green tile`. Only bare numbers take it (a
/// count with its own bound keeps it), and only in a list of kinds and nouns (a verb
/// ends the list: in `exactly two tiles are red and two are blue` the second number
/// is a sentence of its own).
fn distributed_counts<V: Vocabulary>(toks: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut i = 0;
    // The bound of the list being read, while its items follow.
    let mut bound: Option<&[&str]> = None;
    // Whether the item has a word after its count (`exactly 2 or 3 red tiles` is one
    // count with two numbers, not a list).
    let mut worded = false;
    while i < toks.len() {
        if let Some(b) = BOUNDS.iter().find(|b| matches_at(&toks, i, b))
            && toks.get(i + b.len()).and_then(count_of).is_some()
        {
            let negated = out.last().is_some_and(|t| matches!(word(t), "no" | "not"));
            bound = (!negated).then_some(*b);
            worded = false;
            out.extend(toks[i..=i + b.len()].iter().cloned());
            i += b.len() + 1;
        } else if let Some(b) = bound
            && worded
            && count_of(&toks[i]).is_some()
            && out.last().is_some_and(|t| {
                matches!(word(t), "and" | "or") || matches!(t.tok, Tok::Sym(Sym::Comma))
            })
            && toks.get(i + 1).is_some_and(list_word::<V>)
            && item_ends_list::<V>(&toks, i + 1)
        {
            out.extend(b.iter().map(|w| synthetic(w, toks[i].span.clone())));
            out.push(toks[i].clone());
            worded = false;
            i += 1;
        } else {
            let t = &toks[i];
            worded |= list_word::<V>(t);
            let continues = list_word::<V>(t)
                || matches!(word(t), "and" | "or")
                || matches!(t.tok, Tok::Sym(Sym::Comma));
            if !continues {
                bound = None;
            }
            out.push(t.clone());
            i += 1;
        }
    }
    out
}

/// Whether the kinds and nouns from `k` on end the list item without a verb (at the
/// end, a conjunction, a comma or a closing word), so that the item is a noun phrase.
fn item_ends_list<V: Vocabulary>(toks: &[Token], mut k: usize) -> bool {
    while toks.get(k).is_some_and(list_word::<V>) {
        k += 1;
    }
    match toks.get(k) {
        None => true,
        Some(t) => {
            matches!(
                word(t),
                "and" | "or" | "but" | "then" | "if" | "unless" | "iff" | "in" | "on"
            ) || matches!(t.tok, Tok::Sym(Sym::Comma | Sym::Semicolon | Sym::RParen))
        }
    }
}

/// `one of each colour`, `a piece of each size`, `a tile of every colour`: things of
/// every kind, said as the plural the reader counts kinds with (`tiles of each colour`,
/// `pieces of each size`; as the subject, `every size`). Only before a noun of kinds
/// (`colour`, `size`, `direction`).
fn one_of_each<V: Vocabulary>(toks: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let one = matches!(word(&toks[i]), "a" | "an" | "one");
        let noun = usize::from(toks.get(i + 1).is_some_and(|t| {
            let w = word(t);
            V::is_noun(w) && w != V::NOUNS
        }));
        let each = one
            && matches_at(&toks, i + 1 + noun, &["of"])
            && toks
                .get(i + 2 + noun)
                .is_some_and(|t| matches!(word(t), "each" | "every"))
            && toks
                .get(i + 3 + noun)
                .is_some_and(|t| V::one_is_exact(word(t)));
        // `at least one of each colour` says the same; `exactly one of each` more.
        let n = out.len();
        let at_least = n >= 2 && word(&out[n - 2]) == "at" && word(&out[n - 1]) == "least";
        let bounded = out
            .last()
            .is_some_and(|t| matches!(word(t), "exactly" | "most" | "only" | "than"));
        if each && !bounded {
            let mut span = toks[i].span.start..toks[i + noun].span.end;
            if at_least {
                span.start = out[n - 2].span.start;
                out.truncate(n - 2);
            }
            // As the subject (`one of each size must be present`, or alone): every
            // kind.
            if out.is_empty() {
                out.push(synthetic("every", span));
                i += 3 + noun;
                continue;
            }
            out.push(synthetic(V::NOUNS, span));
            i += 1 + noun;
        } else {
            out.push(toks[i].clone());
            i += 1;
        }
    }
    out
}

/// Strict counts said as the bounds they are, before any word is read, so that
/// phrasings of one number read alike whatever the vocabulary does with them: `more
/// than two` is `at least three`, `fewer than three` and `less than three` are `at
/// most two`. Not after `no` / `not` (`no more than two` is read as it stands), and
/// not below two (`fewer than two` is read as it stands).
fn strict_counts(toks: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let w = word(&toks[i]);
        let negated = out.last().is_some_and(|t| matches!(word(t), "no" | "not"));
        let bound = match (w, toks.get(i + 2).and_then(count_of)) {
            ("more", Some(n)) => Some(("least", n + 1)),
            ("fewer" | "less", Some(n)) if n >= 3 => Some(("most", n - 1)),
            _ => None,
        };
        match bound {
            Some((which, n)) if !negated && toks.get(i + 1).is_some_and(|t| word(t) == "than") => {
                out.push(synthetic("at", toks[i].span.clone()));
                out.push(synthetic(which, toks[i + 1].span.clone()));
                out.push(Token {
                    tok: Tok::Int(n),
                    ..toks[i + 2].clone()
                });
                i += 3;
            }
            _ => {
                out.push(toks[i].clone());
                i += 1;
            }
        }
    }
    out
}

/// `I think (that)`, `maybe`, `the rule is:` at the start; `, I think` at the end.
fn strip_hedges(toks: &mut Vec<Token>) {
    while let Some(h) = HEDGES.iter().find(|h| matches_at(toks, 0, h)) {
        toks.drain(..h.len());
        if toks.first().is_some_and(|t| {
            word(t) == "that" || matches!(t.tok, Tok::Sym(Sym::Colon | Sym::Comma))
        }) {
            toks.remove(0);
        }
    }
    for h in HEDGES {
        let n = toks.len();
        if n > h.len() + 1
            && matches!(toks[n - h.len() - 1].tok, Tok::Sym(Sym::Comma))
            && matches_at(toks, n - h.len(), h)
        {
            toks.truncate(n - h.len() - 1);
            break;
        }
    }
}

/// Drops what the vocabulary says adds nothing (`in the koan`, `in my subset`), and
/// says in its own words what it words otherwise (`has a neighbour`).
fn ignore_mentions<V: Vocabulary>(toks: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let n = V::ignored_at(&toks, i);
        if n > 0 {
            i += n;
            continue;
        }
        if let Some((n, words)) = V::reworded_at(&toks, i) {
            let span = toks[i].span.start..toks[i + n - 1].span.end;
            out.extend(words.iter().map(|w| synthetic(w, span.clone())));
            i += n;
            continue;
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

/// `there has to be` -> `there is`; `must (not) be` -> `is (not)`; `must (not)
/// point` -> `(do not) point`; `you have to have` -> `there is`. Refuses `does not
/// have to` (it allows both, so it is no rule).
fn rewrite_modals<V: Vocabulary>(toks: Vec<Token>) -> R<Vec<Token>> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        // Most words start no modal: skip them at once.
        let w = word(&toks[i]);
        let first = |table: &[&[&str]]| table.iter().any(|m| m[0] == w);
        if !(first(MODALS)
            || first(NOT_REQUIRED)
            || NEGATED_MODALS.contains(&w)
            || w == "you"
            || w == "we")
        {
            out.push(toks[i].clone());
            i += 1;
            continue;
        }
        if let Some(n) = NOT_REQUIRED.iter().find(|w| matches_at(&toks, i, w)) {
            let span = toks[i].span.start..toks[i + n.len() - 1].span.end;
            return Err(ParsePatternError::new(
                span,
                "`does not have to` allows both, so it says nothing a structure must do: say what holds (`is not`, `does not`)",
            ));
        }
        // `you (must) have`, `you need`: the structure has.
        if matches!(word(&toks[i]), "you" | "we") {
            let mut j = i + 1;
            if let Some(m) = MODALS.iter().find(|m| matches_at(&toks, j, m)) {
                j += m.len();
            }
            if matches!(
                toks.get(j).map(word),
                Some("have" | "need" | "needs" | "get")
            ) {
                let span = toks[i].span.start..toks[j].span.end;
                out.push(synthetic("there", span.clone()));
                out.push(synthetic("is", span));
                i = j + 1;
                continue;
            }
        }
        let (len, negated) = if NEGATED_MODALS.contains(&word(&toks[i])) {
            (1, true)
        } else if let Some(m) = MODALS.iter().find(|m| matches_at(&toks, i, m)) {
            let not = toks.get(i + m.len()).is_some_and(|t| word(t) == "not");
            // `can` says what is allowed, not what must hold, except in `there can
            // be`, `can only` and `cannot`.
            let there = out.last().is_some_and(|t| word(t) == "there");
            let only = toks.get(i + 1).is_some_and(|t| word(t) == "only");
            // Under `no` (`no piece can point left`) it forbids, which is a rule.
            let negative = out
                .iter()
                .rev()
                .take(6)
                .any(|t| matches!(word(t), "no" | "none" | "nothing" | "not"));
            let permission =
                matches!(m, [w] if *w == "can" || *w == "may") || m.contains(&"allowed");
            if permission && !(there || only || not || negative) {
                out.push(toks[i].clone());
                i += 1;
                continue;
            }
            (m.len() + usize::from(not), not)
        } else {
            out.push(toks[i].clone());
            i += 1;
            continue;
        };
        // Adverbs between the modal and the verb: `must all be`, `can only be`.
        let mut j = i + len;
        let mut floating = Vec::new();
        while let Some(t) = toks.get(j)
            && matches!(
                word(t),
                "all" | "each" | "both" | "only" | "always" | "also"
            )
        {
            if !matches!(word(t), "always" | "also") {
                floating.push(t.clone());
            }
            j += 1;
        }
        let verb = toks.get(j).map(word).unwrap_or("");
        // `there's gotta be`: `there` and the modal's `is`.
        if out.last().is_some_and(|t| word(t) == "there's") && verb == "be" {
            let span = out.last().map(|t| t.span.clone()).unwrap_or_default();
            out.pop();
            out.push(synthetic("there", span));
        }
        let after_there = out.last().is_some_and(|t| word(t) == "there");
        if verb == "be" || (after_there && verb == "exist") {
            let span = toks[i].span.start..toks[j].span.end;
            // `they can't all be the same size`: not all of them are.
            if !after_there && !negated {
                out.extend(floating.iter().cloned());
            }
            out.push(synthetic("is", span.clone()));
            if negated {
                out.push(synthetic("not", span));
            }
            if after_there || negated {
                out.extend(floating);
            }
            i = j + 1;
        } else if V::BASE_VERBS.contains(&verb)
            && floating.is_empty()
            && out.last().and_then(|t| t.word()).is_some_and(|w| {
                (V::is_noun(w) && w.ends_with('s') || w == "ones") && !w.ends_with("ss")
            })
            && !out.iter().any(|t| {
                t.word().is_some_and(|w| {
                    matches!(
                        w,
                        "every"
                            | "all"
                            | "each"
                            | "no"
                            | "some"
                            | "the"
                            | "any"
                            | "most"
                            | "these"
                            | "those"
                    )
                }) || t.tok == Tok::Int(0)
                    || matches!(t.tok, Tok::Int(_))
            })
            && !out.iter().any(|t| {
                t.word()
                    .is_some_and(|w| crate::lang::words::number_word(w).is_some())
            })
        {
            // `big pieces have to point down`: a rule about every such piece.
            let span = toks[i].span.start..toks[i + len - 1].span.end;
            out.push(synthetic(if negated { "never" } else { "always" }, span));
            i = j;
        } else if V::BASE_VERBS.contains(&verb) {
            let span = toks[i].span.start..toks[i + len - 1].span.end;
            // `they can't all point the same way`: they do not all point it.
            if !negated {
                out.extend(floating.iter().cloned());
            }
            if negated {
                out.push(synthetic("do", span.clone()));
                out.push(synthetic("not", span));
                out.extend(floating);
            }
            i = j;
        } else {
            // Not a modal we can read (`can` before a noun?): leave it to the reader.
            out.push(toks[i].clone());
            i += 1;
        }
    }
    Ok(out)
}

impl<V: Vocabulary> Parser<'_, V> {
    /// A whole pattern: hedges and frames aside, one sentence, or several joined by
    /// `;` (all of them hold).
    pub(crate) fn rule(&mut self) -> R<F<V>> {
        let mut a = V::framed(self)?;
        // Sentences joined by `;` or by a comma alone (`a piece points up, a piece
        // points down`) all hold. A comma is read so only where a whole sentence
        // follows it; otherwise the reader stops at the comma.
        while self.c.is_sym(Sym::Semicolon) || self.c.is_sym(Sym::Comma) {
            let comma = self.c.is_sym(Sym::Comma);
            let save = self.c.pos;
            self.c.bump();
            if self.c.at_end() {
                break;
            }
            let next = self.c.here().start;
            let b = match V::framed(self) {
                Ok(b) => b,
                // Not a sentence from its first word: the comma joins nothing.
                Err(e) if comma && e.span.start <= next => {
                    self.c.pos = save;
                    break;
                }
                Err(e) => return Err(e),
            };
            a = super::bin(crate::lang::ast::BinOp::And, a, b);
        }
        Ok(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::lexer::lex;

    fn words(text: &str) -> String {
        normalise::<super::super::pieces::Pieces>(lex(text).expect("lexes").tokens)
            .expect("normalises")
            .iter()
            .map(|t| match &t.tok {
                Tok::Word(w) => w.clone(),
                Tok::Int(n) => n.to_string(),
                Tok::Sym(s) => s.text().to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn framing_words_are_dropped_and_modals_become_verbs() {
        for (text, read) in [
            ("\"every piece points up!\"", "every piece points up"),
            (
                "I think there has to be a small piece?",
                "there is a small piece",
            ),
            ("maybe all pieces must be small.", "all pieces is small"),
            ("the pieces must all be small", "the pieces all is small"),
            ("all pieces must not point up", "all pieces do not point up"),
            (
                "a piece can't touch a large piece",
                "a piece do not touch a large piece",
            ),
            (
                "at least two pieces need to touch",
                "at least two pieces touch",
            ),
            ("you have to have a small piece", "there is a small piece"),
            (
                "there can only be one large piece",
                "there is only one large piece",
            ),
            (
                "every piece points up in the koan, I guess",
                "every piece points up",
            ),
            ("the rule is: no piece is small", "no piece is small"),
            ("more than two pieces touch", "at least 3 pieces touch"),
            ("fewer than 3 pieces point up", "at most 2 pieces point up"),
            ("less than four are small", "at most 3 are small"),
            ("no more than two are small", "no more than two are small"),
            (
                "theres a piece touching two others",
                "there's a piece touching two other pieces",
            ),
            ("fewer than two are small", "fewer than two are small"),
            (
                "more large pieces than small",
                "more large pieces than small",
            ),
        ] {
            assert_eq!(words(text), read, "{text}");
        }
        assert!(
            normalise::<super::super::pieces::Pieces>(
                lex("a piece doesn't have to point up").unwrap().tokens
            )
            .is_err()
        );
    }
}
