//! The English vocabulary (one table per part of speech) and the word count.

use super::ast::UnaryPred;

/// Adjectives of a noun phrase and the property each names.
pub(crate) fn adjective(w: &str) -> Option<UnaryPred> {
    Some(match w {
        "small" | "1-pip" | "little" | "tiny" => UnaryPred::Small,
        "medium" | "2-pip" => UnaryPred::Medium,
        "large" | "3-pip" | "big" => UnaryPred::Large,
        "vertical" => UnaryPred::Vertical,
        "horizontal" | "sideways" => UnaryPred::Horizontal,
        "topmost" | "highest" => UnaryPred::Topmost,
        "bottommost" | "lowest" => UnaryPred::Bottommost,
        "leftmost" => UnaryPred::Leftmost,
        "rightmost" => UnaryPred::Rightmost,
        "largest" | "biggest" => UnaryPred::Largest,
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
        "horizontally" | "sideways" => UnaryPred::Horizontal,
        _ => return None,
    })
}

/// Direction words that can stand before a noun (`an upward piece`, `up pieces`,
/// `a left-pointing piece`). Plain `left` / `right` are not among them: `left
/// pieces` could be pieces on the left.
pub(crate) fn direction_adjective(w: &str) -> Option<UnaryPred> {
    Some(match w {
        "up" | "upward" | "upwards" | "up-pointing" => UnaryPred::Up,
        "down" | "downward" | "downwards" | "down-pointing" => UnaryPred::Down,
        "leftward" | "leftwards" | "left-pointing" => UnaryPred::Left,
        "rightward" | "rightwards" | "right-pointing" => UnaryPred::Right,
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
    "anything",
    "appear",
    "appears",
    "are",
    "aren't",
    "arrow",
    "arrows",
    "as",
    "at",
    "back",
    "below",
    "between",
    "big",
    "bigger",
    "both",
    "bottommost",
    "box",
    "but",
    "by",
    "can",
    "case",
    "column",
    "columns",
    "connected",
    "contains",
    "count",
    "different",
    "direction",
    "directions",
    "directly",
    "divisible",
    "do",
    "does",
    "doesn't",
    "don't",
    "down",
    "downward",
    "each",
    "either",
    "equal",
    "equals",
    "even",
    "every",
    "everything",
    "exactly",
    "exist",
    "exists",
    "face",
    "faces",
    "facing",
    "false",
    "fewer",
    "form",
    "forms",
    "greater",
    "group",
    "groups",
    "half",
    "has",
    "have",
    "height",
    "higher",
    "horizontal",
    "horizontally",
    "if",
    "iff",
    "in",
    "is",
    "isn't",
    "isolated",
    "it",
    "koan",
    "koans",
    "large",
    "larger",
    "largest",
    "least",
    "left",
    "leftmost",
    "less",
    "little",
    "lower",
    "many",
    "medium",
    "minus",
    "more",
    "multiple",
    "must",
    "no",
    "none",
    "not",
    "nothing",
    "number",
    "odd",
    "of",
    "one",
    "ones",
    "only",
    "opposite",
    "or",
    "other",
    "outnumber",
    "piece",
    "pieces",
    "pip",
    "pips",
    "plus",
    "point",
    "pointed",
    "pointing",
    "points",
    "present",
    "pyramid",
    "pyramids",
    "right",
    "rightmost",
    "row",
    "rows",
    "same",
    "sideways",
    "single",
    "size",
    "sizes",
    "small",
    "smaller",
    "smallest",
    "some",
    "something",
    "square",
    "straight",
    "structure",
    "tall",
    "taller",
    "than",
    "that",
    "the",
    "them",
    "then",
    "there",
    "they",
    "times",
    "to",
    "topmost",
    "total",
    "touch",
    "touches",
    "touching",
    "true",
    "twice",
    "unique",
    "unless",
    "up",
    "upward",
    "vertical",
    "vertically",
    "way",
    "when",
    "whenever",
    "which",
    "wide",
    "wider",
    "width",
    "with",
    "zero",
];

/// The known word closest to an unknown one, if it is close enough to be a typo.
pub(crate) fn did_you_mean<'a>(
    word: &str,
    known: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    close(word, known).into_iter().next()
}

/// Known words close enough to `word` to be a typo of it, closest first: a letter or
/// two off, or the known word cut short (`touch` for `touches`). Never a known word
/// that is the typed one with letters cut off its front (`upright` is not `right`).
fn close<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let limit = if word.chars().count() < 7 { 1 } else { 2 };
    let score = |k: &str| match strsim::damerau_levenshtein(word, k) {
        _ if word.len() > k.len() + 1 && word.ends_with(k) => None,
        d if d <= limit => Some(d),
        _ if word.len() >= 4 && k.starts_with(word) => Some(limit + 1),
        _ => None,
    };
    let mut found: Vec<(usize, &str)> = known
        .into_iter()
        .filter_map(|k| score(k).map(|d| (d, k)))
        .collect();
    found.sort_by_key(|(d, _)| *d);
    found.into_iter().map(|(_, k)| k).collect()
}

/// Known English words close to an unknown one, closest first (none for a known
/// word, a number, or a passive such as `pointed`, which has its own hint).
pub(crate) fn close_words(word: &str) -> Vec<&'static str> {
    let known = VOCABULARY
        .iter()
        .chain(NUMBER_WORDS.iter())
        .copied()
        .chain(["1-pip", "2-pip", "3-pip"]);
    if VOCABULARY.contains(&word)
        || number_word(word).is_some()
        || word.ends_with("ed")
        || adjective(word).is_some()
        || direction(word).is_some()
    {
        return Vec::new();
    }
    close(word, known)
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
