//! The English vocabulary (one table per part of speech) and the word count.

use super::ast::UnaryPred;

/// Adjectives of a noun phrase and the property each names.
pub(crate) fn adjective(w: &str) -> Option<UnaryPred> {
    Some(match w {
        "small" | "1-pip" => UnaryPred::Small,
        "medium" | "2-pip" => UnaryPred::Medium,
        "large" | "3-pip" => UnaryPred::Large,
        "vertical" => UnaryPred::Vertical,
        "horizontal" => UnaryPred::Horizontal,
        "topmost" => UnaryPred::Topmost,
        "bottommost" => UnaryPred::Bottommost,
        "leftmost" => UnaryPred::Leftmost,
        "rightmost" => UnaryPred::Rightmost,
        "largest" => UnaryPred::Largest,
        "smallest" => UnaryPred::Smallest,
        _ => return None,
    })
}

/// The canonical English adjective of a property, if it has one (directions have none:
/// they are said with `points`).
pub(crate) fn adjective_word(p: UnaryPred) -> Option<&'static str> {
    match p {
        UnaryPred::Up | UnaryPred::Right | UnaryPred::Down | UnaryPred::Left => None,
        other => Some(other.name()),
    }
}

/// Words after `point(s)`: a direction, or `vertically` / `horizontally`.
pub(crate) fn direction(w: &str) -> Option<UnaryPred> {
    Some(match w {
        "up" | "upward" | "upwards" => UnaryPred::Up,
        "down" | "downward" | "downwards" => UnaryPred::Down,
        "left" | "leftward" | "leftwards" => UnaryPred::Left,
        "right" | "rightward" | "rightwards" => UnaryPred::Right,
        "vertically" => UnaryPred::Vertical,
        "horizontally" => UnaryPred::Horizontal,
        _ => return None,
    })
}

pub(crate) fn is_noun(w: &str) -> bool {
    matches!(
        w,
        "piece" | "pieces" | "pyramid" | "pyramids" | "arrow" | "arrows"
    )
}

/// Number words zero to twenty.
pub(crate) const NUMBER_WORDS: [&str; 21] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
];

pub(crate) fn number_word(w: &str) -> Option<i64> {
    NUMBER_WORDS.iter().position(|n| *n == w).map(|i| i as i64)
}

/// How the canonical English says a number: words to twenty, digits beyond.
pub(crate) fn say_number(n: i64) -> String {
    match usize::try_from(n) {
        Ok(i) if i < NUMBER_WORDS.len() => NUMBER_WORDS[i].to_string(),
        _ => n.to_string(),
    }
}

/// Every word the English form knows, for "did you mean" hints.
const VOCABULARY: &[&str] = &[
    "a",
    "above",
    "adjacent",
    "all",
    "an",
    "and",
    "another",
    "any",
    "are",
    "aren't",
    "arrow",
    "arrows",
    "as",
    "at",
    "below",
    "both",
    "but",
    "case",
    "column",
    "connected",
    "contains",
    "different",
    "direction",
    "directions",
    "directly",
    "do",
    "does",
    "doesn't",
    "don't",
    "down",
    "each",
    "either",
    "equal",
    "equals",
    "even",
    "every",
    "exactly",
    "exists",
    "face",
    "faces",
    "facing",
    "fewer",
    "greater",
    "groups",
    "has",
    "height",
    "horizontal",
    "horizontally",
    "if",
    "iff",
    "in",
    "is",
    "isn't",
    "it",
    "koan",
    "large",
    "larger",
    "largest",
    "least",
    "left",
    "leftmost",
    "less",
    "many",
    "medium",
    "minus",
    "more",
    "most",
    "no",
    "not",
    "number",
    "odd",
    "of",
    "one",
    "only",
    "opposite",
    "or",
    "other",
    "piece",
    "pieces",
    "pips",
    "plus",
    "point",
    "pointing",
    "points",
    "pyramid",
    "pyramids",
    "right",
    "rightmost",
    "row",
    "same",
    "size",
    "sizes",
    "small",
    "smaller",
    "smallest",
    "some",
    "structure",
    "than",
    "that",
    "the",
    "then",
    "there",
    "to",
    "topmost",
    "bottommost",
    "total",
    "touch",
    "touches",
    "touching",
    "unique",
    "up",
    "vertical",
    "vertically",
    "which",
    "width",
];

/// The known word closest to an unknown one, if it is close enough to be a typo.
pub(crate) fn did_you_mean<'a>(
    word: &str,
    known: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = if word.chars().count() < 7 { 1 } else { 2 };
    // A typo (a letter or two off), or a known word cut short (`touch` for `touches`).
    let score = |k: &str| match strsim::damerau_levenshtein(word, k) {
        d if d <= limit => Some(d),
        _ if word.len() >= 4 && k.starts_with(word) => Some(limit + 1),
        _ => None,
    };
    known
        .into_iter()
        .filter_map(|k| score(k).map(|d| (d, k)))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// A hint for an unknown English word.
pub(crate) fn english_typo(word: &str) -> Option<&'static str> {
    let known = VOCABULARY
        .iter()
        .chain(NUMBER_WORDS.iter())
        .copied()
        .chain(["1-pip", "2-pip", "3-pip"]);
    // `pointed`, `touched`: not typos but a passive, which has its own hint.
    if VOCABULARY.contains(&word) || number_word(word).is_some() || word.ends_with("ed") {
        return None;
    }
    did_you_mean(word, known)
}

/// Colour words: Zendo's Icehouse pieces have colours, ours do not.
pub(crate) fn is_colour(w: &str) -> bool {
    matches!(
        w,
        "red"
            | "green"
            | "blue"
            | "yellow"
            | "white"
            | "black"
            | "orange"
            | "purple"
            | "pink"
            | "brown"
            | "grey"
            | "gray"
            | "colour"
            | "colours"
            | "color"
            | "colors"
            | "coloured"
            | "colored"
    )
}

/// The number of words in a pattern as written.
///
/// A word is a maximal run of letters and digits, where `_`, an apostrophe or a hyphen
/// between two such characters joins rather than splits (`top-most`, `isn't`, `1-pip`,
/// `points_at` are one word each). Punctuation and symbols (`.`, `(`, `=`, `&`, `->`)
/// are not words; numbers are. So "There is a unique top-most piece." has 6 words and
/// "count(x: up(x)) = 3" has 5.
pub fn word_count(text: &str) -> usize {
    let chars: Vec<char> = text.chars().collect();
    let mut count = 0;
    let mut in_word = false;
    for (i, &c) in chars.iter().enumerate() {
        let joins = matches!(c, '_' | '\'' | '\u{2019}' | '-')
            && in_word
            && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric());
        if c.is_alphanumeric() || joins {
            if !in_word {
                count += 1;
                in_word = true;
            }
        } else {
            in_word = false;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_count_counts_words_as_written() {
        assert_eq!(word_count("There is a unique top-most piece."), 6);
        assert_eq!(word_count("The total number of pips is exactly ten."), 8);
        assert_eq!(word_count("There are at most 3 arrows."), 6);
        assert_eq!(word_count("every piece isn't small"), 4);
        assert_eq!(word_count("count(x: up(x)) = 3"), 5);
        assert_eq!(word_count("the width - 2 = 1"), 4);
        assert_eq!(word_count("  "), 0);
    }

    #[test]
    fn numbers_are_said_in_words_to_twenty() {
        assert_eq!(say_number(0), "zero");
        assert_eq!(say_number(20), "twenty");
        assert_eq!(say_number(21), "21");
        assert_eq!(say_number(-1), "-1");
        for (i, w) in NUMBER_WORDS.iter().enumerate() {
            assert_eq!(number_word(w), Some(i as i64));
        }
    }
}
