//! The one rule for the scope of a negation under a universal subject
//! (docs/patterns.md, "Scope of `not`"): `all pieces don't point up` and `every piece
//! doesn't point up` are read by some as "not every piece points up" and by others as
//! "no piece points up". The umpire does not choose: after `all`, `every` or `each` the
//! sentence is refused with both readings offered, each checked by the evaluator
//! before it is shown (the first is the negation of the sentence without its `not`,
//! and the second reads and differs from it). `the` and a number keep the one reading
//! they have always had, and `must not` forbids (`every piece must not point up` is "no
//! piece points up"); `cannot` is read both ways like `not` (`all pieces cannot point
//! up`: "not all can", or "none can"). A floating `all` or `each` after the subject
//! (`they all don't point up`, `the pieces each don't ...`) makes it universal the same
//! way.

use super::{Parser, Vocabulary, splice};
use crate::lang::ast::Span;
use crate::lang::error::ParsePatternError;

/// The negations that can follow a subject, and what is left of each without its
/// `not`: `Some(word)` replaces the negation, `None` drops it and puts the verb in
/// the third person (`doesn't point` -> `points`).
const NEGATIONS: &[(&[&str], Option<&str>)] = &[
    (&["do", "not"], Some("")),
    (&["don't"], Some("")),
    (&["does", "not"], None),
    (&["doesn't"], None),
    (&["is", "not"], Some("is")),
    (&["isn't"], Some("is")),
    (&["are", "not"], Some("are")),
    (&["aren't"], Some("are")),
];

/// The third person of a verb (`point` -> `points`, `touch` -> `touches`).
fn third_person(verb: &str) -> String {
    let vowel_y = ["ay", "ey", "oy", "uy"].iter().any(|e| verb.ends_with(e));
    match verb {
        "have" => "has".into(),
        "be" => "is".into(),
        v if v.ends_with(['s', 'x', 'z', 'o']) || v.ends_with("sh") || v.ends_with("ch") => {
            format!("{v}es")
        }
        v if v.ends_with('y') && !vowel_y => format!("{}ies", &v[..v.len() - 1]),
        v => format!("{v}s"),
    }
}

/// The determiners of the two readings of a universal subject with `not` after it:
/// "not every" and "no" (`all the pieces` -> `not all the pieces`, `no pieces`; `each of
/// the pieces` -> `not every one of the pieces`, `none of the pieces`).
fn readings_of(det: &str, nouns: &str) -> (String, String) {
    let mut words = det.split_whitespace();
    let first = words.next().unwrap_or("").to_lowercase();
    // `they all`, `the pieces each`: a subject made universal by a floating `all`.
    if !matches!(first.as_str(), "all" | "every" | "each") {
        let mut np: Vec<&str> = det.split_whitespace().collect();
        np.pop();
        if np.first().is_some_and(|w| w.eq_ignore_ascii_case("the")) {
            np.remove(0);
        }
        let np = match np[..] {
            [] | [_] => nouns.to_string(),
            _ => np.join(" ").to_lowercase(),
        };
        return (format!("not all {np}"), format!("no {np}"));
    }
    let rest: Vec<&str> = words.collect();
    let of = rest.first().is_some_and(|w| w.eq_ignore_ascii_case("of"));
    let tail = |skip: usize| -> String { rest[skip..].iter().map(|w| format!(" {w}")).collect() };
    match first.as_str() {
        "all" if of => (format!("not all{}", tail(0)), format!("none{}", tail(0))),
        // `all the` drops `the` after `no`.
        "all" if rest.first().is_some_and(|w| w.eq_ignore_ascii_case("the")) => {
            (format!("not all{}", tail(0)), format!("no{}", tail(1)))
        }
        "all" => (format!("not all{}", tail(0)), format!("no{}", tail(0))),
        _ if of => (
            format!("not every one{}", tail(0)),
            format!("none{}", tail(0)),
        ),
        _ => (format!("not every{}", tail(0)), format!("no{}", tail(0))),
    }
}

impl<V: Vocabulary> Parser<'_, V> {
    /// Where the subject just read with `det` (its words at `det`) is `all`, `every` or
    /// `each` and a
    /// negation of the verb follows: the span of the negation and the
    /// text that stands for it without `not` (with the verb after it, if it changes).
    /// `floating` says an `all` or `each` followed the subject (`they all`, `the pieces
    /// each`), which makes any subject universal in the same way.
    pub(crate) fn wide_negation(&self, det: &Span, floating: bool) -> Option<(Span, String)> {
        let first = self
            .src
            .get(det.clone())?
            .split_whitespace()
            .next()?
            .to_lowercase();
        if !floating && !matches!(first.as_str(), "all" | "every" | "each") {
            return None;
        }
        let (words, left) = NEGATIONS.iter().find(|(ws, _)| self.c.is_words(ws))?;
        let neg = self.c.peek_at(0)?.span.start..self.c.peek_at(words.len() - 1)?.span.end;
        // A token the frame made up (`must not` -> `do not`) is not the player's
        // text, and `must not` forbids: `all pieces must not point up` is "no piece".
        let written = self.src.get(neg.clone())?.to_lowercase();
        // `all pieces cannot point up` is read both ways too ("not all can", "none
        // can"), unlike `must not`, which forbids; what is left without `not` is the
        // verb itself, as the umpire reads `can` (`every piece points up`).
        let modal = ["cannot", "can't", "can’t"]
            .into_iter()
            .find(|m| written.split_whitespace().next() == Some(*m));
        // `cannot be`: the frame's `is not` / `are not` stands for both words.
        let singular = !floating && first != "all";
        if modal.is_some() && matches!(left, Some("is" | "are")) {
            return Some((neg, if singular { "is" } else { "are" }.to_string()));
        }
        if modal.is_some() {
            let verb = self.c.peek_at(words.len())?;
            let v = self.src.get(verb.span.clone())?.to_lowercase();
            let v = match (singular, v.as_str()) {
                (true, _) => third_person(&v),
                (false, "be") => "are".into(),
                (false, _) => v,
            };
            return Some((neg.start..verb.span.end, v));
        }
        if !written.split_whitespace().eq(words.iter().copied()) {
            return None;
        }
        Some(match left {
            Some(w) => (neg, w.to_string()),
            None => {
                let verb = self.c.peek_at(words.len())?;
                let v = self.src.get(verb.span.clone())?.to_lowercase();
                (neg.start..verb.span.end, third_person(&v))
            }
        })
    }

    /// The refusal of `all NP not VP` (or `every` / `each`), offering "not every" and "no" where both read
    /// back as they should.
    pub(crate) fn scope_refusal(&self, det: &Span, neg: &Span, left: &str) -> ParsePatternError {
        let positive = splice(self.src, neg, left);
        let (not_det, none_det) = readings_of(&self.src[det.clone()], V::NOUNS);
        let not_every = splice(&positive, det, &not_det);
        let none = splice(&positive, det, &none_det);
        let mut e = ParsePatternError::new(
            det.start..neg.end,
            format!(
                "`{} ... {}` is ambiguous: it can mean \"not every ...\" or \"no ...\", and the umpire does not choose: say which",
                &self.src[det.clone()],
                &self.src[neg.clone()],
            ),
        );
        let checked = V::negates(&not_every, &positive)
            && V::verdicts(&none).is_some_and(|n| V::verdicts(&not_every) != Some(n));
        if checked {
            e = e.with_example(not_every).with_example(none);
        }
        e
    }
}
