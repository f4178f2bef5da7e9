//! The student's hypotheses: every rule a grammar of the English form can say up to a
//! size, read by the same parser as the players' guesses, kept when it is a reasonable
//! hidden pattern on a fixed sample of structures (obeyed by some but not all), and
//! grouped by meaning: equal verdicts on that sample (its fingerprint). The finder
//! tells two members of one group apart when the student is about to bet on one
//! (see [`super::Student::decide`]).
//!
//! The grammar is systematic rather than random (every determiner with every noun and
//! every verb phrase, the number terms with their comparisons, the collectives), so a
//! rule a host writes in a few words is in the space or has an equivalent there. The
//! prior prefers short rules: a sentence of `w` words weighs `2^-w`.

// The grammar's words are the pattern generator's.
use crate::finder::generate::{DIRECTIONS, EXTREMES, PLACES, SIZES};
use crate::koan::{Koan, PieceSet};
use crate::lang::eval::Facts;
use crate::lang::{self, CompiledPattern};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::collections::HashMap;

/// How many structures a fingerprint is taken on.
pub const PROBES: usize = 256;
const WORDS: usize = PROBES / 64;
/// Members kept per fingerprint (the shortest first); the rest add their weight to
/// the group's first member.
const MEMBERS: usize = 4;

/// Verdicts on the probe structures, one bit each.
pub type Fingerprint = [u64; WORDS];

/// How much of the grammar a space holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Breadth {
    /// Counts, directions, sizes, places and number terms; relations only to
    /// `another piece` and `no piece`.
    Narrow,
    /// Everything: relations to every kind of piece after `every`, `a` and `no`.
    Full,
}

/// One rule the student may believe.
#[derive(Clone, Debug)]
pub struct Hypothesis {
    /// Canonical English for the set (what a guess says).
    pub text: String,
    pub words: u8,
    pub compiled: CompiledPattern,
    /// The prior weight: its own and that of the longer sentences with its
    /// fingerprint that were not kept.
    pub weight: f64,
    /// Its group (index into [`Space::groups`]).
    pub group: u32,
}

/// The hypothesis space for one piece set.
#[derive(Debug)]
pub struct Space {
    pub set: PieceSet,
    pub breadth: Breadth,
    pub hypotheses: Vec<Hypothesis>,
    /// Each group's fingerprint.
    pub groups: Vec<Fingerprint>,
    /// Sentences the grammar produced (before dropping unreadable, unreasonable and
    /// crowded ones).
    pub sentences: usize,
}

impl Space {
    /// Builds the space: reads every sentence of the grammar, keeps the reasonable
    /// ones (obeyed by 2 to 98 % of the probe structures), groups them by fingerprint.
    /// The same for the same arguments.
    pub fn build(set: PieceSet, breadth: Breadth) -> Space {
        Space::from_sentences(set, breadth, &grammar(set, breadth))
    }

    /// A space of the given sentences only (those that read and are reasonable on the
    /// probes): small spaces for tests.
    pub fn from_sentences<S: AsRef<str>>(
        set: PieceSet,
        breadth: Breadth,
        sentences: &[S],
    ) -> Space {
        let probes = probes(set);
        let facts: Vec<Facts> = probes.iter().map(Facts::new).collect();
        let mut groups: Vec<Fingerprint> = Vec::new();
        let mut by_print: HashMap<Fingerprint, (u32, Vec<usize>)> = HashMap::new();
        let mut hypotheses: Vec<Hypothesis> = Vec::new();
        let mut seen_text = std::collections::HashSet::new();
        let low = PROBES * 2 / 100;
        for sentence in sentences {
            let sentence = sentence.as_ref();
            let Ok(pattern) = lang::read_for(sentence, set) else {
                continue;
            };
            let text = lang::english_for(&pattern.formula, set);
            if !seen_text.insert(text.clone()) {
                continue;
            }
            let words = lang::word_count(sentence).min(255) as u8;
            let compiled = CompiledPattern::new(&pattern.formula);
            let mut print = [0u64; WORDS];
            let mut obeyed = 0;
            for (i, f) in facts.iter().enumerate() {
                if compiled.evaluate_facts(f) {
                    print[i / 64] |= 1 << (i % 64);
                    obeyed += 1;
                }
            }
            if obeyed < low || obeyed > PROBES - low {
                continue;
            }
            let weight = prior(words);
            let entry = by_print.entry(print).or_insert_with(|| {
                groups.push(print);
                ((groups.len() - 1) as u32, Vec::new())
            });
            if entry.1.len() < MEMBERS {
                entry.1.push(hypotheses.len());
                hypotheses.push(Hypothesis {
                    text,
                    words,
                    compiled,
                    weight,
                    group: entry.0,
                });
            } else {
                hypotheses[entry.1[0]].weight += weight;
            }
        }
        Space {
            set,
            breadth,
            hypotheses,
            groups,
            sentences: sentences.len(),
        }
    }

    pub fn len(&self) -> usize {
        self.hypotheses.len()
    }

    pub fn is_empty(&self) -> bool {
        self.hypotheses.is_empty()
    }
}

/// The short-rule prior of a sentence of `words` words.
pub fn prior(words: u8) -> f64 {
    0.5f64.powi(words as i32)
}

/// The fixed probe structures of a set: random structures of 1 to 8 pieces.
pub fn probes(set: PieceSet) -> Vec<Koan> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(probe_seed(set));
    (0..PROBES)
        .map(|_| lang::random::koan(&mut rng, set, 8))
        .collect()
}

const fn probe_seed(set: PieceSet) -> u64 {
    match set {
        PieceSet::Pyramids => 0x5eed_0001,
        PieceSet::Arrows => 0x5eed_0002,
    }
}

const NUMBERS: [&str; 7] = ["zero", "one", "two", "three", "four", "five", "six"];

/// A relation as the verb phrase says it (singular, plural) before its object.
const RELATIONS: [(&str, &str, bool); 17] = [
    ("touches", "touch", false),
    ("points at", "point at", false),
    ("is above", "are above", false),
    ("is below", "are below", false),
    ("is left of", "are left of", false),
    ("is right of", "are right of", false),
    ("is directly above", "are directly above", false),
    ("is directly below", "are directly below", false),
    ("is directly left of", "are directly left of", false),
    ("is directly right of", "are directly right of", false),
    ("is in the same row as", "are in the same row as", false),
    (
        "is in the same column as",
        "are in the same column as",
        false,
    ),
    (
        "points the same direction as",
        "point the same direction as",
        false,
    ),
    (
        "points the opposite direction to",
        "point the opposite direction to",
        false,
    ),
    ("is larger than", "are larger than", true),
    ("is smaller than", "are smaller than", true),
    ("is the same size as", "are the same size as", true),
];

/// Every sentence of the grammar for the set, shortest kinds first.
pub fn grammar(set: PieceSet, breadth: Breadth) -> Vec<String> {
    let sizes = set.has_sizes();
    let mut adjectives: Vec<&str> = Vec::new();
    if sizes {
        adjectives.extend(SIZES);
    }
    adjectives.extend(PLACES);
    if sizes {
        adjectives.extend(EXTREMES);
    }
    // Noun phrases (singular, plural), plain piece first.
    let mut nouns: Vec<(String, String)> = vec![("piece".into(), "pieces".into())];
    for a in &adjectives {
        nouns.push((format!("{a} piece"), format!("{a} pieces")));
    }
    for d in DIRECTIONS {
        nouns.push((
            format!("piece pointing {d}"),
            format!("pieces pointing {d}"),
        ));
    }
    // Verb phrases without an object (singular, plural).
    let mut plain: Vec<(String, String)> = Vec::new();
    for d in DIRECTIONS {
        plain.push((format!("points {d}"), format!("point {d}")));
    }
    for (i, d) in DIRECTIONS.iter().enumerate() {
        for e in &DIRECTIONS[i + 1..] {
            plain.push((format!("points {d} or {e}"), format!("point {d} or {e}")));
        }
    }
    for d in DIRECTIONS {
        plain.push((format!("does not point {d}"), format!("do not point {d}")));
    }
    for a in &adjectives {
        plain.push((format!("is {a}"), format!("are {a}")));
    }
    // Objects of a relation: every one after `every`, `a`, `no`; the short ones after
    // a count.
    let mut objects: Vec<String> = vec!["another piece".into(), "no piece".into()];
    let short_objects = if sizes { 2 + SIZES.len() } else { 2 };
    for (one, _) in &nouns[1..] {
        objects.push(format!("a {one}"));
    }
    let relational = |objects: &[String]| -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (one, many, needs_sizes) in RELATIONS {
            if needs_sizes && !sizes {
                continue;
            }
            for o in objects {
                out.push((format!("{one} {o}"), format!("{many} {o}")));
            }
        }
        out
    };
    let all_objects = match breadth {
        Breadth::Full => &objects[..],
        Breadth::Narrow => &objects[..2],
    };
    let wide: Vec<(String, String)> = plain
        .iter()
        .cloned()
        .chain(relational(all_objects))
        .collect();
    let counted: Vec<(String, String)> = plain
        .iter()
        .cloned()
        .chain(relational(&objects[..short_objects.min(all_objects.len())]))
        .collect();
    let mut out = Vec::new();
    // Counts of pieces and number terms.
    for (n, word) in NUMBERS.iter().enumerate().skip(1) {
        out.push(format!("there are exactly {word} pieces"));
        if n >= 2 {
            out.push(format!("there are at least {word} pieces"));
        }
        if n <= 5 {
            out.push(format!("there are at most {word} pieces"));
        }
    }
    out.push("the number of pieces is odd".into());
    out.push("the number of pieces is even".into());
    let mut terms: Vec<(String, std::ops::RangeInclusive<usize>)> = vec![
        ("the number of groups".into(), 1..=4),
        ("the width".into(), 1..=6),
        ("the height".into(), 1..=6),
        ("the number of different directions".into(), 1..=4),
    ];
    if sizes {
        terms.push(("the number of different sizes".into(), 1..=3));
    }
    for (term, range) in &terms {
        for n in range.clone() {
            for cmp in ["is exactly", "is at least", "is at most"] {
                out.push(format!("{term} {cmp} {}", NUMBERS[n]));
            }
        }
        out.push(format!("{term} is odd"));
        out.push(format!("{term} is even"));
    }
    out.push("the width is more than the height".into());
    out.push("the height is more than the width".into());
    out.push("the width is equal to the height".into());
    out.push("all pieces point the same direction".into());
    out.push("not all pieces point the same direction".into());
    out.push("the structure is connected".into());
    out.push("the structure is not connected".into());
    if sizes {
        out.push("all pieces are the same size".into());
        out.push("not all pieces are the same size".into());
        for n in 3..=14 {
            out.push(format!("the total pips is at least {n}"));
            out.push(format!("the total pips is at most {n}"));
            out.push(format!("the total pips is exactly {n}"));
        }
        out.push("the total pips is odd".into());
        out.push("the total pips is even".into());
        for (_, many) in &nouns[1..] {
            for n in 2..=8 {
                out.push(format!("the total pips of {many} is at least {n}"));
                out.push(format!("the total pips of {many} is at most {n}"));
            }
            out.push(format!("the total pips of {many} is odd"));
            out.push(format!("the total pips of {many} is even"));
        }
    }
    // There is / are.
    for (one, many) in &nouns {
        out.push(format!("there is a {one}"));
        out.push(format!("there is no {one}"));
        out.push(format!("there is a unique {one}"));
        for word in &NUMBERS[2..=3] {
            out.push(format!("there are exactly {word} {many}"));
            out.push(format!("there are at least {word} {many}"));
        }
        out.push(format!("there is exactly one {one}"));
        out.push(format!("there is at most one {one}"));
        out.push(format!("there are at most two {many}"));
        out.push(format!("there is an odd number of {many}"));
        out.push(format!("there is an even number of {many}"));
    }
    // Comparisons of two counts.
    for (i, (_, a)) in nouns.iter().enumerate().skip(1) {
        for (j, (_, b)) in nouns.iter().enumerate().skip(1) {
            if i == j {
                continue;
            }
            out.push(format!("there are more {a} than {b}"));
            if i < j {
                out.push(format!("there are as many {a} as {b}"));
            }
        }
    }
    // Determiner, noun, verb phrase.
    for (one, many) in &nouns {
        for (vp1, _) in &wide {
            out.push(format!("every {one} {vp1}"));
            out.push(format!("a {one} {vp1}"));
            out.push(format!("no {one} {vp1}"));
        }
        for (vp1, vpn) in &counted {
            out.push(format!("exactly one {one} {vp1}"));
            out.push(format!("at most one {one} {vp1}"));
            for word in &NUMBERS[2..=3] {
                out.push(format!("exactly {word} {many} {vpn}"));
                out.push(format!("at least {word} {many} {vpn}"));
            }
            out.push(format!("at most two {many} {vpn}"));
            out.push(format!("an odd number of {many} {vpn}"));
            out.push(format!("an even number of {many} {vpn}"));
        }
    }
    out
}
