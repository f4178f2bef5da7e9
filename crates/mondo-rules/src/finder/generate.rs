//! Pattern generation: random hidden patterns that a host could offer, each reasonable
//! (see [`super::reasonable`]) and none needlessly long (a rule a shorter rule says
//! as well is a poor hidden pattern): no generated pattern is equivalent to a
//! generated pattern with fewer words, proved by the finder.
//!
//! Sentences are drawn from a small random grammar of the English form
//! (docs/patterns.md: determiner phrases, verb phrases, `there is`,
//! number comparisons, collectives, `and`/`or`/`not`), read by the English parser, and
//! said back canonically with [`lang::english_for`], which is read once more. Drawing
//! text rather than trees keeps the parser the one definition of what English means:
//! a sentence the grammar here gets wrong is refused by the parser, never misread.
//!
//! Equivalence is decided in two steps. Each pattern's truth on a fixed seeded set of
//! structures is its fingerprint; two patterns with different fingerprints are
//! witnessed different. Only patterns with equal fingerprints go to [`super::compare`],
//! whose "equivalent" is a proof. A candidate equivalent to a kept pattern with at most
//! as many words is dropped; one with fewer words takes that pattern's place.

use super::{Initial, Limits, ReasonableOptions, Style, Verdict, initial, reasonable};
use crate::koan::{Koan, PieceSet};
use crate::lang::{self, CompiledPattern, Formula, Pattern};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};
use serde::Serialize;
use std::collections::HashMap;

/// The knobs of [`generate`].
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// How many patterns to return.
    pub count: usize,
    pub seed: u64,
    /// The reasonableness check every pattern passes (word limit, obey share).
    pub reasonable: ReasonableOptions,
    /// Give up after this many drawn sentences (the result then holds fewer patterns).
    pub max_attempts: usize,
    /// For each equivalence check and each pair of initial structures.
    pub limits: Limits,
}

impl GenerateOptions {
    pub fn new(count: usize, seed: u64) -> GenerateOptions {
        GenerateOptions {
            count,
            seed,
            reasonable: ReasonableOptions::default(),
            max_attempts: 200 * count.max(1),
            limits: Limits::default(),
        }
    }
}

/// One generated pattern.
#[derive(Clone, Debug, Serialize)]
pub struct Generated {
    /// Canonical English (as [`lang::english_for`] says it for the set).
    pub text: String,
    pub words: usize,
    /// Share of random structures of 1-8 pieces that obey (see [`super::Report`]).
    pub share: f64,
    #[serde(skip)]
    pub formula: Formula,
    /// The simplest structure that obeys and the simplest that does not.
    #[serde(skip)]
    pub initial: Initial,
}

/// Formulas carry spans, so equal patterns are those with the same tree.
impl PartialEq for Generated {
    fn eq(&self, other: &Generated) -> bool {
        self.text == other.text
            && self.words == other.words
            && self.share == other.share
            && lang::same_tree(&self.formula, &other.formula)
            && self.initial == other.initial
    }
}

/// What [`generate`] did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Generation {
    pub patterns: Vec<Generated>,
    /// Sentences drawn.
    pub attempts: usize,
    /// Drawn sentences the parser refused or that did not fit the set.
    pub unreadable: usize,
    /// Refused by the reasonableness check.
    pub unreasonable: usize,
    /// Proved equivalent to a kept pattern with at most as many words (dropped).
    pub needlessly_long: usize,
    /// Kept patterns replaced by a proved-equivalent shorter one.
    pub shortened: usize,
    /// Dropped because a finder call stopped at its limits (never kept unproved).
    pub undecided: usize,
}

/// Structures every fingerprint is taken on.
const FINGERPRINT_STRUCTURES: usize = 512;

/// `options.count` random reasonable patterns for `set`, none equivalent to another
/// generated pattern with fewer words (or to another kept one at all), each with its
/// initial structures; the same for the same seed. Fewer when `max_attempts` runs out.
pub fn generate(set: PieceSet, options: &GenerateOptions) -> Generation {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(options.seed);
    let mut library = Library::new(set, options.seed, &options.limits);
    let mut out = Generation::default();
    while library.kept.len() < options.count && out.attempts < options.max_attempts {
        out.attempts += 1;
        let sentence = Sentence::new(&mut rng, set).draw();
        let Some(pattern) = readable(&sentence, set) else {
            out.unreadable += 1;
            continue;
        };
        let mut check = options.reasonable.clone();
        check.seed = rng.random();
        let report = reasonable(&pattern, set, &check);
        if !report.accepted() {
            out.unreasonable += 1;
            continue;
        }
        match library.offer(pattern, report.words, report.share) {
            Offer::Kept => {}
            Offer::Replaced => out.shortened += 1,
            Offer::NeedlesslyLong => out.needlessly_long += 1,
            Offer::Undecided => out.undecided += 1,
        }
    }
    out.patterns = library.kept;
    out
}

/// What became of a pattern offered to the [`Library`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Offer {
    /// New: proved different from every kept pattern.
    Kept,
    /// Proved equivalent to a kept pattern with more words, which it replaced.
    Replaced,
    /// Proved equivalent to a kept pattern with at most as many words: dropped.
    NeedlesslyLong,
    /// A finder call stopped at its limits: dropped, never kept unproved.
    Undecided,
}

/// The kept patterns, one per equivalence class among those offered, each the first
/// offered with the fewest words.
pub(crate) struct Library<'l> {
    set: PieceSet,
    limits: &'l Limits,
    probes: Vec<Koan>,
    /// Fingerprint -> indices into `kept`.
    classes: HashMap<Vec<u64>, Vec<usize>>,
    pub kept: Vec<Generated>,
}

impl<'l> Library<'l> {
    pub fn new(set: PieceSet, seed: u64, limits: &'l Limits) -> Library<'l> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
        Library {
            set,
            limits,
            probes: (0..FINGERPRINT_STRUCTURES)
                .map(|_| lang::random::koan(&mut rng, set, 8))
                .collect(),
            classes: HashMap::new(),
            kept: Vec::new(),
        }
    }

    pub fn offer(&mut self, pattern: Pattern, words: usize, share: f64) -> Offer {
        let print = fingerprint(&pattern.formula, &self.probes);
        let class = self.classes.entry(print).or_default();
        let mut replace = None;
        for &i in class.iter() {
            let kept = &self.kept[i];
            let verdict = super::compare(
                &kept.formula,
                &pattern.formula,
                self.set,
                &[],
                Style::Simple,
                0,
                self.limits,
            );
            match verdict {
                Verdict::Counterexample(_) => {}
                Verdict::Equivalent if words < kept.words => {
                    replace = Some(i);
                    break;
                }
                Verdict::Equivalent => return Offer::NeedlesslyLong,
                Verdict::Undecided { .. } => return Offer::Undecided,
            }
        }
        // Contingent by the check before, so only the limits can stop this.
        let Ok(initial) = initial(&pattern.formula, self.set, None, self.limits) else {
            return Offer::Undecided;
        };
        let generated = Generated {
            text: pattern.source.clone(),
            words,
            share,
            formula: pattern.formula,
            initial,
        };
        match replace {
            Some(i) => {
                self.kept[i] = generated;
                Offer::Replaced
            }
            None => {
                class.push(self.kept.len());
                self.kept.push(generated);
                Offer::Kept
            }
        }
    }
}

/// The sentence read, said back canonically, and read again (so the pattern kept is
/// the canonical text, and its words are counted as a host would see them written).
fn readable(sentence: &str, set: PieceSet) -> Option<Pattern> {
    let first = lang::parse(sentence).ok()?;
    lang::check_set(&first, set).ok()?;
    let canonical = lang::english_for(&first.formula, set);
    let again = lang::parse(&canonical).ok()?;
    lang::same_reading(&again.formula, &first.formula).then_some(again)
}

fn fingerprint(formula: &Formula, probes: &[Koan]) -> Vec<u64> {
    let compiled = CompiledPattern::new(formula);
    let mut bits = vec![0u64; probes.len().div_ceil(64)];
    for (i, k) in probes.iter().enumerate() {
        if compiled.evaluate(k) {
            bits[i / 64] |= 1 << (i % 64);
        }
    }
    bits
}

/// A random sentence of the English form, as text.
struct Sentence<'a, R: Rng> {
    rng: &'a mut R,
    sizes: bool,
}

pub(crate) const DIRECTIONS: [&str; 4] = ["up", "down", "left", "right"];
pub(crate) const SIZES: [&str; 3] = ["small", "medium", "large"];
pub(crate) const PLACES: [&str; 6] = [
    "vertical",
    "horizontal",
    "topmost",
    "bottommost",
    "leftmost",
    "rightmost",
];
pub(crate) const EXTREMES: [&str; 2] = ["largest", "smallest"];
const NUMBERS: [&str; 6] = ["one", "two", "three", "four", "five", "six"];

impl<'a, R: Rng> Sentence<'a, R> {
    fn new(rng: &'a mut R, set: PieceSet) -> Self {
        Sentence {
            rng,
            sizes: set.has_sizes(),
        }
    }

    fn pick<'s>(&mut self, items: &[&'s str]) -> &'s str {
        items[self.rng.random_range(0..items.len())]
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    fn draw(&mut self) -> String {
        match self.rng.random_range(0..10) {
            0 => format!("{} and {}", self.atom(), self.atom()),
            1 => format!("{} or {}", self.atom(), self.atom()),
            2 => format!("if {} then {}", self.atom(), self.atom()),
            3 => format!("not {}", self.atom()),
            _ => self.atom(),
        }
    }

    fn adjective(&mut self) -> String {
        let roll = self.rng.random_range(0..10);
        if self.sizes && roll < 4 {
            self.pick(&SIZES).to_string()
        } else if self.sizes && roll == 4 {
            self.pick(&EXTREMES).to_string()
        } else {
            self.pick(&PLACES).to_string()
        }
    }

    /// A noun phrase: `[adjective] piece(s) [pointing DIR]`.
    fn noun(&mut self, plural: bool) -> String {
        let mut s = String::new();
        if self.chance(0.5) {
            s.push_str(&self.adjective());
            s.push(' ');
        }
        s.push_str(if plural { "pieces" } else { "piece" });
        if self.chance(0.25) {
            s.push_str(" pointing ");
            s.push_str(self.pick(&DIRECTIONS));
        }
        s
    }

    /// A determiner and whether its noun is plural.
    fn determiner(&mut self) -> (String, bool) {
        let n = self.pick(&NUMBERS[..4]);
        let plural = n != "one";
        match self.rng.random_range(0..9) {
            0 | 1 => ("every".into(), false),
            2 | 3 => ("a".into(), false),
            4 => ("no".into(), false),
            5 => (format!("exactly {n}"), plural),
            6 => (format!("at least {n}"), plural),
            7 => (format!("at most {n}"), plural),
            _ => (
                format!("an {} number of", self.pick(&["odd", "even"])),
                true,
            ),
        }
    }

    /// The object of a relation.
    fn object(&mut self) -> String {
        match self.rng.random_range(0..4) {
            0 => "another piece".into(),
            1 => "no piece".into(),
            _ => format!("a {}", self.noun(false)),
        }
    }

    fn verb_phrase(&mut self, plural: bool) -> String {
        let s = |one: &str, many: &str| if plural { many } else { one }.to_string();
        let mut relations = vec![
            "touch", "point at", "above", "below", "left of", "right of", "row", "column",
            "same dir", "opposite",
        ];
        if self.sizes {
            relations.extend(["larger", "smaller", "same size"]);
        }
        match self.rng.random_range(0..10) {
            0..=2 => format!("{} {}", s("points", "point"), self.pick(&DIRECTIONS)),
            3 => format!("{} not point {}", s("does", "do"), self.pick(&DIRECTIONS)),
            4 => format!("{} {}", s("is", "are"), self.adjective()),
            _ => {
                let be = s("is", "are");
                let q = self.object();
                match self.pick(&relations) {
                    "touch" => format!("{} {q}", s("touches", "touch")),
                    "point at" => format!("{} at {q}", s("points", "point")),
                    "row" => format!("{be} in the same row as {q}"),
                    "column" => format!("{be} in the same column as {q}"),
                    "same dir" => format!("{} the same direction as {q}", s("points", "point")),
                    "opposite" => {
                        format!("{} the opposite direction to {q}", s("points", "point"))
                    }
                    "same size" => format!("{be} the same size as {q}"),
                    "larger" => format!("{be} larger than {q}"),
                    "smaller" => format!("{be} smaller than {q}"),
                    place => {
                        let directly = if self.chance(0.3) { "directly " } else { "" };
                        format!("{be} {directly}{place} {q}")
                    }
                }
            }
        }
    }

    fn comparison(&mut self) -> String {
        let n = self.pick(&NUMBERS);
        match self.rng.random_range(0..5) {
            0 => format!("is at least {n}"),
            1 => format!("is at most {n}"),
            2 => format!("is exactly {n}"),
            3 => format!("is {}", self.pick(&["odd", "even"])),
            _ => format!("is more than {n}"),
        }
    }

    fn atom(&mut self) -> String {
        match self.rng.random_range(0..12) {
            0..=4 => {
                let (det, plural) = self.determiner();
                let np = self.noun(plural);
                let vp = self.verb_phrase(plural);
                format!("{det} {np} {vp}")
            }
            5 | 6 => {
                let (det, plural) = self.determiner();
                let be = if plural { "are" } else { "is" };
                format!("there {be} {det} {}", self.noun(plural))
            }
            7 => {
                let term = match self.rng.random_range(0..6) {
                    0 if self.sizes => "the total pips".to_string(),
                    1 if self.sizes => format!("the total pips of {}", self.noun(true)),
                    2 => "the number of groups".to_string(),
                    3 => self.pick(&["the width", "the height"]).to_string(),
                    _ => format!("the number of {}", self.noun(true)),
                };
                let cmp = self.comparison();
                // Pip totals run to 3 x 36: small numbers say little of them.
                let cmp = if term.starts_with("the total pips")
                    && !cmp.ends_with("odd")
                    && !cmp.ends_with("even")
                {
                    let n = self.rng.random_range(4..=12);
                    format!("{} {n}", cmp.rsplit_once(' ').map_or("is", |c| c.0))
                } else {
                    cmp
                };
                format!("{term} {cmp}")
            }
            8 => format!(
                "there are {} {} than {}",
                self.pick(&["more", "fewer"]),
                self.noun(true),
                self.noun(true)
            ),
            9 => {
                let mut forms = vec![
                    "all pieces point the same direction",
                    "the structure is connected",
                ];
                if self.sizes {
                    forms.push("all pieces are the same size");
                }
                self.pick(&forms).to_string()
            }
            _ => format!("there are exactly {} pieces", self.pick(&NUMBERS)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(library: &mut Library, text: &str) -> Offer {
        let p = lang::parse(text).expect("a test pattern reads");
        let words = lang::word_count(&p.source);
        library.offer(p, words, 0.5)
    }

    #[test]
    fn the_shortest_of_equivalent_patterns_is_kept() {
        let limits = Limits::default();
        let mut lib = Library::new(PieceSet::Pyramids, 1, &limits);
        assert_eq!(offer(&mut lib, "at least one piece is small"), Offer::Kept);
        assert_eq!(offer(&mut lib, "there is a large piece"), Offer::Kept);
        // Equivalent and shorter: takes the place of the longer one.
        assert_eq!(offer(&mut lib, "a piece is small"), Offer::Replaced);
        // Equivalent and no shorter: dropped.
        assert_eq!(
            offer(&mut lib, "there is a small piece"),
            Offer::NeedlesslyLong
        );
        assert_eq!(
            offer(&mut lib, "it is not true that no piece is small"),
            Offer::NeedlesslyLong
        );
        // Same truth on few structures would not be enough: these differ.
        assert_eq!(
            offer(&mut lib, "there are at least 2 small pieces"),
            Offer::Kept
        );
        let texts: Vec<&str> = lib.kept.iter().map(|g| g.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "a piece is small",
                "there is a large piece",
                "there are at least 2 small pieces"
            ]
        );
    }
}
