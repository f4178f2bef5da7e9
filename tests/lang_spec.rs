//! Every example of `koan-language.md` section 3 and of the seeds reads as meant:
//! each is evaluated on structures chosen to tell the plausible readings apart.

use mondo::koan::enumerate::koans;
use mondo::koan::{Koan, PieceSet};
use mondo::lang::{english, evaluate, parse, parse_english, parse_symbolic, symbolic};

fn koan(text: &str) -> Koan {
    text.parse()
        .unwrap_or_else(|e| panic!("test structure {text:?}: {e}"))
}

/// The pattern holds on every `yes` structure and on no `no` structure.
#[track_caller]
fn reads(pattern: &str, yes: &[&str], no: &[&str]) {
    let p = parse(pattern).unwrap_or_else(|e| panic!("{}", e.render(pattern)));
    let shown = format!("{pattern:?} read as `{}`", symbolic(&p.formula));
    for k in yes {
        assert!(
            evaluate(&p.formula, &koan(k)),
            "{shown}: should hold on {k}"
        );
    }
    for k in no {
        assert!(
            !evaluate(&p.formula, &koan(k)),
            "{shown}: should fail on {k}"
        );
    }
    // Saying it back and reading that gives the same verdicts.
    let e = english(&p.formula);
    let back = parse(&e).unwrap_or_else(|err| panic!("{}", err.render(&e)));
    for k in yes.iter().chain(no) {
        let k = koan(k);
        assert_eq!(evaluate(&p.formula, &k), evaluate(&back.formula, &k), "{e}");
    }
}

/// The pattern reads exactly like the symbolic formula: same verdict on every
/// structure of up to `n` pieces of the set.
#[track_caller]
fn means(pattern: &str, formula: &str, set: PieceSet, n: usize) {
    let p = parse(pattern).unwrap_or_else(|e| panic!("{}", e.render(pattern)));
    let q = parse_symbolic(formula).unwrap_or_else(|e| panic!("{}", e.render(formula)));
    for size in 1..=n {
        for k in koans(set, size) {
            assert_eq!(
                evaluate(&p.formula, &k),
                evaluate(&q.formula, &k),
                "{pattern:?} (read as `{}`) vs `{formula}` on {}",
                symbolic(&p.formula),
                k.to_line()
            );
        }
    }
}

/// The pattern is refused; the error names `word` and offers `example` (if given).
#[track_caller]
fn refused(pattern: &str, word: &str, example: Option<&str>) {
    let e = match parse(pattern) {
        Ok(p) => panic!(
            "{pattern:?} should be refused, read as {}",
            symbolic(&p.formula)
        ),
        Err(e) => e,
    };
    assert_eq!(&pattern[e.span.clone()], word, "{}", e.render(pattern));
    if let Some(x) = example {
        assert!(
            e.examples.iter().any(|s| s == x),
            "{pattern:?}: examples {:?} lack {x:?}",
            e.examples
        );
    }
}

// The seed's example structure: medium, small / small, large, large, all up.
const SEED: &str = "2^ 1^ / 1^ 3^ 3^";

#[test]
fn the_five_seed_examples() {
    reads(
        "There are exactly three pieces.",
        &["1^ 1> 1v"],
        &[SEED, "1^ 1^"],
    );
    reads(
        "There is at least one small piece.",
        &[SEED, "1>"],
        &["2^ 3^"],
    );
    reads("All pieces point up.", &[SEED], &["1^ 1>"]);
    reads(
        "The total number of pips is exactly ten.",
        &[SEED],
        &["3^ 3^ 3^"],
    );
    reads(
        "There is a unique top-most piece.",
        &["1^ / 3^ 3^"],
        &[SEED],
    );
}

#[test]
fn the_arrows_seed_patterns_and_guesses() {
    reads(
        "There is at least 1 arrow pointing up.",
        &["U", "UD"],
        &["L", "D.R"],
    );
    reads(
        "There are at most 3 arrows.",
        &["UUU", "L"],
        &["UUUU", "UU/UU"],
    );
    reads("There are no arrows pointing left.", &["UDR"], &["UL"]);
    reads(
        "There are only arrows that point up or down in the koan",
        &["UD", "U"],
        &["UR", "L"],
    );
    // The guess the umpire could not disprove: equivalent to pattern C.
    means(
        "There are only arrows pointing up, right or down in the koan",
        "!exists x. left(x)",
        PieceSet::Arrows,
        4,
    );
    // The first guess is not: a right arrow tells them apart.
    reads(
        "There are only arrows that point up or down in the koan",
        &[],
        &["R"],
    );
}

#[test]
fn kory_heaths_rules() {
    let pointing = "A koan has the Buddha-nature if it contains an odd number of pieces pointing at other pieces.";
    means(
        pointing,
        "odd(count(x: exists y. y != x & points_at(x, y)))",
        PieceSet::Pyramids,
        2,
    );
    // 1> 1<: both point at the other (even); 1> 1^: one does (odd).
    reads(pointing, &["1> 1^"], &["1> 1<", "1^"]);
    reads(
        "an odd number of pieces point at other pieces",
        &["1> 1^"],
        &["1> 1<"],
    );
    reads(
        "A koan does not have the Buddha-nature if it contains exactly three pieces pointing up; otherwise it does.",
        &["1^ 1^", "1^ 1^ 1^ 1^"],
        &["1^ 1^ 1^"],
    );
    refused(
        "A koan has the Buddha-nature if it contains one or more green pieces.",
        "green",
        None,
    );
    refused(
        "A koan does not have the Buddha-nature if it contains exactly three pieces touching the table; otherwise it does.",
        "the table",
        None,
    );
}

#[test]
fn determiners() {
    for some in ["a", "some", "at least one", "one or more"] {
        reads(
            &format!("{some} small piece points up"),
            &["1^ 2>"],
            &["1> 2^"],
        );
    }
    for every in ["every", "each", "all"] {
        reads(
            &format!("{every} small piece points up"),
            &["1^ 2>", "3>"],
            &["1^ 1>"],
        );
    }
    reads("no small piece points up", &["1> 2^"], &["1^"]);
    reads(
        "exactly two pieces point up",
        &["1^ 1^ 1>"],
        &["1^", "1^ 1^ 1^"],
    );
    reads(
        "at least two pieces point up",
        &["1^ 1^", "1^ 1^ 1^"],
        &["1^ 1>"],
    );
    reads(
        "at most two pieces point up",
        &["1>", "1^ 1^"],
        &["1^ 1^ 1^"],
    );
    reads("more than two pieces point up", &["1^ 1^ 1^"], &["1^ 1^"]);
    reads("fewer than two pieces point up", &["1^ 1>"], &["1^ 1^"]);
    reads("less than two pieces point up", &["1^ 1>"], &["1^ 1^"]);
    for one in [
        "exactly one",
        "a unique",
        "one and only one",
        "only one",
        "exactly 1",
    ] {
        reads(
            &format!("{one} piece points up"),
            &["1^ 1>"],
            &["1^ 1^", "1>"],
        );
    }
    reads(
        "an odd number of pieces point up",
        &["1^", "1^ 1^ 1^"],
        &["1^ 1^", "1>"],
    );
    reads(
        "an even number of pieces point up",
        &["1>", "1^ 1^"],
        &["1^"],
    );
    reads("two or more pieces point up", &["1^ 1^"], &["1^"]);
    reads("two or fewer pieces point up", &["1^ 1^"], &["1^ 1^ 1^"]);
    reads("no more than one piece points up", &["1^ 1>"], &["1^ 1^"]);
    // `the unique NP VP`: exactly one such piece, and it VP.
    reads(
        "the unique topmost piece points up",
        &["1^ / 1>"],
        &["1^ 1^", "1> / 1^"],
    );
    // `only NP` without a number: every piece that VP is NP.
    reads("only small pieces point up", &["1^ 2>", "3>"], &["2^"]);
    reads("there are only small pieces", &["1^ 1>"], &["1^ 2^"]);
}

#[test]
fn there_is_and_there_are() {
    reads("there are exactly three pieces", &["1^ 1^ 1^"], &["1^ 1^"]);
    reads(
        "there is a unique topmost piece",
        &["1^ / 1^ 1^"],
        &["1^ 1^"],
    );
    reads("there are no pieces pointing left", &["1^"], &["1^ 1<"]);
    reads("there is no piece pointing left", &["1^"], &["1^ 1<"]);
    reads("there isn't a large piece", &["1^"], &["3^"]);
    reads("there are not exactly two pieces", &["1^"], &["1^ 1^"]);
    reads("the structure has exactly two pieces", &["1^ 1^"], &["1^"]);
}

#[test]
fn number_comparisons() {
    reads(
        "the number of large pieces is at least 2",
        &["3^ 3>"],
        &["3^ 1^"],
    );
    reads("the total pips is exactly ten", &[SEED], &["3^"]);
    reads("the total number of pips is 4", &["1^ 3^"], &["1^"]);
    reads(
        "the total pips of small pieces is odd",
        &["1^ 3^"],
        &["1^ 1^ 3^"],
    );
    reads("the number of pieces is 2", &["1^ 1>"], &["1^"]);
    reads(
        "the number of different sizes is 3",
        &["1^ 2^ 3^"],
        &["1^ 2^ 2^"],
    );
    reads(
        "the number of different directions is at most 2",
        &["1^ 1>"],
        &["1^ 1> 1v"],
    );
    reads("the width is 3", &["1^ .. 1^"], &["1^ 1^"]);
    reads(
        "the height is more than the width",
        &["1^ / 1^"],
        &["1^ 1^"],
    );
    reads("the width + the height is four", &["1^ .. 1^"], &["1^ 1^"]);
    reads("the width - 1 is the height", &["1^ 1^"], &["1^"]);
    reads("the number of groups is 2", &["1^ .. 1^"], &["1^ 1^"]);
    reads("the number of pieces is even", &["1^ 1^"], &["1^"]);
    reads("the number of pieces is not 2", &["1^"], &["1^ 1^"]);
    reads(
        "the number of pieces is greater than 2",
        &["1^ 1^ 1^"],
        &["1^ 1^"],
    );
    reads("the number of pieces is fewer than 2", &["1^"], &["1^ 1^"]);
    reads("the number of pieces is less than 2", &["1^"], &["1^ 1^"]);
    reads(
        "the number of pieces is at most 2",
        &["1^ 1^"],
        &["1^ 1^ 1^"],
    );
    reads("the number of pieces >= 2", &["1^ 1^"], &["1^"]);
    reads("the number of pieces != 2", &["1^"], &["1^ 1^"]);
    reads("the number of pieces < 2", &["1^"], &["1^ 1^"]);
    reads("the number of pieces <= 1", &["1^"], &["1^ 1^"]);
    reads("the number of pieces > 1", &["1^ 1^"], &["1^"]);
    reads("the number of pieces = 1", &["1^"], &["1^ 1^"]);
    reads("the number of pieces is exactly twenty", &[], &["1^"]);
    reads("the number of small pieces is zero", &["2^"], &["1^"]);
}

#[test]
fn comparatives_and_collectives() {
    reads(
        "there are more small pieces than large pieces",
        &["1^ 1^ 3^"],
        &["1^ 3^"],
    );
    reads(
        "there are as many small pieces as large pieces",
        &["1^ 3^", "2^"],
        &["1^ 1^ 3^"],
    );
    reads(
        "there are fewer small pieces than large pieces",
        &["1^ 3^ 3^"],
        &["1^ 3^"],
    );
    reads(
        "there are more pieces pointing up than pieces pointing down",
        &["1^ 1^ 1v"],
        &["1^ 1v"],
    );
    reads(
        "all pieces point the same direction",
        &["1> 3>"],
        &["1> 1^"],
    );
    reads("all pieces are the same size", &["2> 2^"], &["2> 1>"]);
    reads("the structure is connected", &["1^ 1^"], &["1^ .. 1^"]);
    reads("the structure is not connected", &["1^ .. 1^"], &["1^ 1^"]);
    reads(
        "all small pieces point the same direction",
        &["1> 1> 2^"],
        &["1> 1^ 2^"],
    );
    reads(
        "all pieces are in the same row",
        &["1^ .. 2>"],
        &["1^ / 1^"],
    );
}

#[test]
fn adjectives() {
    reads("some medium piece points up", &["2^"], &["1^ 3^ 2>"]);
    reads("some 3-pip piece points up", &["3^"], &["1^ 3>"]);
    reads("some 1-pip piece points up", &["1^"], &["1>"]);
    reads("some 2-pip piece points up", &["2^"], &["2>"]);
    reads("every vertical piece is small", &["1^ 1v 2>"], &["2^"]);
    reads("every horizontal piece is small", &["1> 2^"], &["2>"]);
    reads(
        "every bottommost piece points up",
        &["1> / 1^ 1^"],
        &["1^ / 1>"],
    );
    reads("every leftmost piece points up", &["1^ 1>"], &["1> 1^"]);
    reads("every rightmost piece points up", &["1> 1^"], &["1^ 1>"]);
    reads("every top-most piece points up", &["1^ / 1>"], &["1> / 1^"]);
    reads(
        "every largest piece points up",
        &["3^ 1>", "2^ 1>"],
        &["3> 1^"],
    );
    reads("every smallest piece points up", &["1^ 3>"], &["1> 3^"]);
    reads("SOME Large PIECE Points UP", &["3^"], &["3>"]);
    reads("some large pyramid faces up", &["3^"], &["3>"]);
}

#[test]
fn verb_phrases() {
    reads("some piece points down", &["1v"], &["1^"]);
    reads("some piece points left", &["1<"], &["1>"]);
    reads("some piece points right", &["1>"], &["1<"]);
    reads("every piece points vertically", &["1^ 1v"], &["1^ 1>"]);
    reads("every piece points horizontally", &["1< 1>"], &["1^ 1>"]);
    reads(
        "every piece points up, right or down",
        &["1^ 1> 1v"],
        &["1<"],
    );
    reads("every piece faces up or down", &["1^ 1v"], &["1>"]);
    // Pointing: along the ray, at any distance, through other pieces.
    reads(
        "some piece points at a large piece",
        &["1> 1^ 3^"],
        &["3< 1^", "1< 3^"],
    );
    reads(
        "some piece touches a large piece",
        &["1^ 3^"],
        &["1^ .. 3^", "1^ / .. 3^"],
    );
    reads("some piece is small", &["1^"], &["2^"]);
    // Above / below: strictly, any column; directly: the same column.
    reads(
        "some small piece is above a large piece",
        &["1^ .. / .. 3^"],
        &["1^ 3^"],
    );
    reads(
        "some small piece is below a large piece",
        &[".. 3^ / 1^ .."],
        &["1^ 3^"],
    );
    reads(
        "some small piece is directly above a large piece",
        &["1^ / 2^ / 3^"],
        &["1^ / .. 3^"],
    );
    reads(
        "some small piece is directly below a large piece",
        &["3^ / 1^"],
        &["3^ .. / .. 1^"],
    );
    reads(
        "some small piece is left of a large piece",
        &["1^ .. / .. 3^"],
        &["3^ 1^"],
    );
    reads(
        "some small piece is to the left of a large piece",
        &["1^ .. / .. 3^"],
        &["3^ 1^"],
    );
    reads(
        "some small piece is right of a large piece",
        &["3^ 1^"],
        &["1^ 3^"],
    );
    reads(
        "some small piece is directly left of a large piece",
        &["1^ 2^ 3^"],
        &["1^ .. / .. 3^"],
    );
    reads(
        "some small piece is directly right of a large piece",
        &["3^ 2^ 1^"],
        &["3^ .. / .. 1^"],
    );
    reads(
        "some small piece is in the same row as a large piece",
        &["1^ .. 3^"],
        &["1^ / 3^"],
    );
    reads(
        "some small piece is in the same column as a large piece",
        &["1^ / 3^"],
        &["1^ 3^"],
    );
    reads(
        "some piece is larger than a medium piece",
        &["3^ 2^"],
        &["1^ 2^"],
    );
    reads(
        "some piece is smaller than a medium piece",
        &["1^ 2^"],
        &["3^ 2^"],
    );
    reads(
        "some piece is the same size as another piece",
        &["1^ .. 1>"],
        &["1^", "1^ 2^"],
    );
    reads(
        "some piece points the same direction as another piece",
        &["1^ 2^"],
        &["1^", "1^ 1>"],
    );
    reads(
        "some piece points the opposite direction to a piece",
        &["1^ 1v"],
        &["1^ 1>"],
    );
    // Negation and combination.
    reads("every piece does not point up", &["1>"], &["1^ 1>"]);
    reads("every piece doesn't point up", &["1>"], &["1^"]);
    reads("no piece is not small", &["1^"], &["2^"]);
    reads("every piece isn't large", &["1^"], &["3^"]);
    reads("all pieces aren't large", &["1^"], &["3^"]);
    reads("all pieces don't point up", &["1>"], &["1^"]);
    reads("every piece does not point up or down", &["1>"], &["1v"]);
    reads("every piece points up and is small", &["1^"], &["2^", "1>"]);
    reads("every piece points up or is small", &["1> 2^"], &["2>"]);
    reads("every piece is small or large", &["1^ 3^"], &["2^"]);
    reads("every piece is small and vertical", &["1^"], &["1>"]);
    reads(
        "every piece points up and does not touch a large piece",
        &["1^ .. 3^"],
        &["1^ 3^"],
    );
    // Relative clauses: `that/which VP` and participles.
    reads("every piece that points up is small", &["1^ 2>"], &["2^"]);
    reads("every piece which points up is small", &["1^ 2>"], &["2^"]);
    reads(
        "some piece touching a small piece is large",
        &["1^ 3^"],
        &["1^ 2^"],
    );
    reads(
        "some piece not pointing up is large",
        &["1^ 3>"],
        &["3^ 1>"],
    );
}

#[test]
fn objects_and_scope() {
    // The subject's quantifier outscopes the object's: each piece has its own large
    // neighbour (true of three large pieces in a row; no single one is everyone's).
    reads(
        "every piece touches a large piece",
        &["3^ 3^ 3^"],
        &["1^ 3^ 1^"],
    );
    reads(
        "exactly two pieces touch a large piece",
        &["1^ 3^ 1^"],
        &["1^ 3^ 1^ / .. 1^ .."],
    );
    reads("some piece touches no piece", &["1^ .. 1^ 1^"], &["1^ 1^"]);
    reads(
        "some piece touches exactly two pieces",
        &["1^ 1^ 1^"],
        &["1^ 1^"],
    );
    reads(
        "some piece is larger than every other piece",
        &["3^ 2^ 1^", "1^ 2^"],
        &["3^ 3^"],
    );
    reads("some piece points at another piece", &["1> 1^"], &["1^ 1^"]);
    reads(
        "some piece points at an odd number of pieces",
        &["1> 1^"],
        &["1> 1^ 1^", "1^"],
    );
    reads(
        "some piece points at more than one piece",
        &["1> 1^ 1^"],
        &["1> 1^"],
    );
    // The object is never the subject, but may be a third piece's subject.
    reads(
        "some piece is in the same row as exactly one piece",
        &["1^ 1^"],
        &["1^", "1^ 1^ 1^"],
    );
    // `another` excludes only its own relation's subject: here the middle piece's.
    reads(
        "every piece touches a piece that touches another piece",
        &["1^ 1^"],
        &["1^", "1^ .. 1^"],
    );
    reads(
        "every piece touches only small pieces",
        &["1^ 1^", "1^ .. 3^"],
        &["1^ 3^"],
    );
}

#[test]
fn connectives_and_precedence() {
    // and binds tighter than or: up or (down and left).
    reads(
        "some piece points up or some piece points down and some piece points left",
        &["1^"],
        &["1v"],
    );
    // not binds tighter than and: (not up) and down.
    reads(
        "not some piece points up and some piece points down",
        &["1v"],
        &["1>", "1^ 1v"],
    );
    reads(
        "it is not the case that every piece points up",
        &["1^ 1>"],
        &["1^"],
    );
    // if-then is looser than or: up -> (down or left).
    reads(
        "if some piece points up then some piece points down or some piece points left",
        &["1>", "1^ 1<"],
        &["1^"],
    );
    // iff is loosest: (up or down) iff left.
    reads(
        "some piece points up or some piece points down iff some piece points left",
        &["1> ", "1^ 1<"],
        &["1^", "1<"],
    );
    reads(
        "some piece points up if and only if some piece points down",
        &["1>", "1^ 1v"],
        &["1^"],
    );
    reads(
        "either some piece points up or some piece points down but not both",
        &["1^", "1v"],
        &["1^ 1v", "1>"],
    );
    reads(
        "both some piece points up and some piece points down",
        &["1^ 1v"],
        &["1^"],
    );
    reads(
        "(some piece points up or some piece points down) and some piece points left",
        &["1^ 1<"],
        &["1^", "1<"],
    );
}

#[test]
fn small_print() {
    // Number words zero to twenty, a final period, a trailing `in the koan`.
    let words = [
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
    for (n, w) in words.iter().enumerate() {
        let p = parse(&format!("the number of pieces is at least {w}")).unwrap();
        let k = koan(&"1^ ".repeat(n.clamp(1, 6)));
        assert_eq!(evaluate(&p.formula, &k), n.clamp(1, 6) >= n, "{w}");
        let pd = parse(&format!("the number of pieces is at least {n}")).unwrap();
        assert_eq!(evaluate(&p.formula, &k), evaluate(&pd.formula, &k));
    }
    reads("every piece points up.", &["1^"], &["1>"]);
    reads("every piece points up in the koan", &["1^"], &["1>"]);
    reads(
        "there are exactly two pieces in the structure.",
        &["1^ 1^"],
        &["1^"],
    );
}

#[test]
fn refusals_offer_rewordings() {
    refused(
        "two pieces point up",
        "two",
        Some("exactly two pieces point up"),
    );
    refused(
        "two pieces point up",
        "two",
        Some("at least two pieces point up"),
    );
    refused(
        "there are three pieces",
        "three",
        Some("there are exactly three pieces"),
    );
    refused(
        "every piece touches two small pieces",
        "two",
        Some("every piece touches at least two small pieces"),
    );
    refused(
        "the topmost piece points up",
        "the",
        Some("every topmost piece points up"),
    );
    refused(
        "the topmost piece points up",
        "the",
        Some("some topmost piece points up"),
    );
    refused(
        "the topmost piece points up",
        "the",
        Some("the unique topmost piece points up"),
    );
    refused(
        "every piece touches the large piece",
        "the",
        Some("every piece touches the unique large piece"),
    );
    refused("some red piece points up", "red", None);
    refused("any piece points up", "any", Some("every piece points up"));
    refused(
        "either some piece points up or some piece points down",
        "either",
        Some("either some piece points up or some piece points down but not both"),
    );
    refused(
        "every piece is not small or large",
        "or",
        Some("every piece is not small or is not large"),
    );
    refused(
        "every piece does not point up and touch a small piece",
        "and",
        None,
    );
    refused(
        "small pieces point up",
        "small",
        Some("all small pieces point up"),
    );
    refused(
        "small piece points up",
        "small",
        Some("every small piece points up"),
    );
    refused(
        "exactly two pieces",
        "",
        Some("there are exactly two pieces"),
    );
    refused(
        "every piece points up and down",
        "and",
        Some("every piece points up or down"),
    );
}

#[test]
fn forms_are_detected() {
    for s in [
        "forall x. up(x)",
        "count(x: up(x)) = 3",
        "exists x y. touches(x, y)",
        "pieces = 2 # two",
    ] {
        assert!(parse(s).is_ok(), "{s}");
        assert!(parse_english(s).is_err(), "{s} is not English");
    }
    assert!(parse_symbolic("every piece points up").is_err());
}
