//! Phrasings that mean the same must read the same (docs/patterns.md, "Counts"), in
//! both games: each pair is read and compared by evaluation, on structures that tell
//! readings apart (pieces) or on every colouring of subsets (tiles), never by
//! comparing strings. And the one rule for the scope of `not` under `all`, `every` and
//! `each`: each such sentence is refused, offering "not every ..." and "no ...", which
//! the evaluator checks here too (the first is the negation of the sentence without its
//! `not`, the second differs from it).

use crate::lang_support;
use mondo::lang::tiles::{self, Subset, eval::Geometry};
use mondo::lang::{CompiledPattern, parse};

/// The counts players write for one number, in the frames they write them in.
const BOUNDS: &[(&str, &str)] = &[
    ("more than one", "at least two"),
    ("more than two", "at least three"),
    ("more than 2", "at least 3"),
    ("more than three", "at least four"),
    ("more than 5", "at least 6"),
    ("fewer than three", "at most two"),
    ("fewer than 4", "at most 3"),
    ("less than three", "at most two"),
    ("less than 5", "at most 4"),
];

const PIECE_FRAMES: &[&str] = &[
    "{} pieces point up",
    "there are {} small pieces",
    "{} large pieces touch a small piece",
    "every piece touches {} pieces",
    "a large piece points at {} pieces",
    "{} pieces are medium",
    "{} pieces point down or left",
];

const TILE_FRAMES: &[&str] = &[
    "there are {} red tiles",
    "{} tiles are blue",
    "{} green tiles are adjacent to a red tile",
    "every red tile is adjacent to {} blue tiles",
    "there are {} tiles that are red or yellow",
];

/// Pairs of the synonym families (totals, counts, either, scope), said word for word.
const PIECE_PAIRS: &[(&str, &str)] = &[
    // Totals compared; one pair of all the pairs; `either` whose parts exclude each other.
    (
        "large pieces have more pips in total than small pieces",
        "the total pips of large pieces is greater than the total pips of small pieces",
    ),
    (
        "the small pieces have fewer pips altogether than the large pieces",
        "pips(x: small(x)) < pips(x: large(x))",
    ),
    (
        "exactly one pair of pieces touch",
        "exists x y. x != y & touches(x, y) & forall u v. u != v & touches(u, v) -> (u = x & v = y | u = y & v = x)",
    ),
    (
        "exactly one pair of large pieces touch each other",
        "exists x y. x != y & large(x) & large(y) & touches(x, y) & forall u v. u != v & large(u) & large(v) & touches(u, v) -> (u = x & v = y | u = y & v = x)",
    ),
    (
        "only one pair of pieces point at each other",
        "exists x y. x != y & points_at(x, y) & points_at(y, x) & forall u v. u != v & points_at(u, v) & points_at(v, u) -> (u = x & v = y | u = y & v = x)",
    ),
    (
        "at most one pair of pieces are the same size",
        "forall x y u v. x != y & same_size(x, y) & u != v & same_size(u, v) -> (u = x & v = y | u = y & v = x)",
    ),
    (
        "either every piece points up or every piece points down",
        "every piece points up or every piece points down",
    ),
    (
        "either all pieces are small or all pieces are large or medium",
        "(forall x. small(x)) | forall x. large(x) | medium(x)",
    ),
    (
        "either exactly two pieces are large or exactly three pieces are large",
        "there are exactly two or three large pieces",
    ),
    (
        "either there are at most two small pieces or there are at least four small pieces",
        "count(x: small(x)) <= 2 | count(x: small(x)) >= 4",
    ),
    ("at least three pieces touch", "more than two pieces touch"),
    ("at least two pieces touch", "more than one piece touches"),
    ("fewer than 3 pieces point up", "at most 2 pieces point up"),
    (
        "there are more than 2 pieces",
        "there are at least 3 pieces",
    ),
    // A bound said once holds for every count of its list.
    (
        "there are exactly two small and two large pieces",
        "there are exactly two small pieces and exactly two large pieces",
    ),
    (
        "at most one small and two large pieces",
        "there is at most one small piece and at most two large pieces",
    ),
    // A bare number of sizes is that many; `of each size` is all of them.
    ("there are two sizes", "there are exactly two sizes"),
    (
        "there is a piece of each size",
        "all three sizes are present",
    ),
    ("one of each size", "there are exactly three sizes"),
    (
        "there is one of each direction",
        "all four directions are present",
    ),
    // A count of each size, `except`, `all but ... of the`, `, but`.
    (
        "there are at least two pieces of each size",
        "there are at least two small, two medium and two large pieces",
    ),
    (
        "there is exactly one piece of each size",
        "there is exactly one small piece, exactly one medium piece and exactly one large piece",
    ),
    (
        "every piece except one is medium",
        "all pieces but one are medium",
    ),
    (
        "every large piece has a neighbour",
        "every large piece touches another piece",
    ),
    (
        "a small piece has no neighbours",
        "a small piece touches no piece",
    ),
    (
        "all but two of the pieces are small",
        "exactly two pieces are not small",
    ),
    (
        "there is a medium piece, but there is no large piece",
        "there is a medium piece and there is no large piece",
    ),
    // `they` after things counted exactly: those things.
    (
        "exactly two pieces are medium and they point down",
        "there are exactly two medium pieces and every medium piece points down",
    ),
    (
        "exactly two pieces are medium and both of them point down",
        "exactly two pieces are medium and every medium piece points down",
    ),
    (
        "there are exactly 3 pieces, all of them small",
        "there are exactly three pieces and every piece is small",
    ),
    (
        "there are exactly three pieces and they are all different sizes",
        "there are exactly three pieces and no two pieces are the same size",
    ),
    (
        "there are exactly two large pieces, and they touch each other",
        "there are exactly two large pieces and a large piece touches another large piece",
    ),
    (
        "exactly three pieces are small and not all of them point up",
        "exactly three pieces are small and not every small piece points up",
    ),
    (
        "exactly two small pieces point up and they point at a large piece",
        "exactly two small pieces point up and every small piece pointing up points at a large piece",
    ),
    // Sentences joined by a comma all hold.
    (
        "a piece points up, a piece points down",
        "a piece points up and a piece points down",
    ),
    (
        "some piece is small, no piece is large, every piece points up",
        "some piece is small and no piece is large and every piece points up",
    ),
    // Directions counted are different ones; groups are separate ones.
    (
        "the pieces point in exactly two different directions",
        "the pieces point in exactly two directions",
    ),
    (
        "the pieces form exactly two separate groups",
        "there are exactly two groups",
    ),
    (
        "the structure is split into at least three groups",
        "there are at least three groups",
    ),
    (
        "the pieces are connected together",
        "there is exactly one group",
    ),
    // Said of a piece named after a verb, relative to the piece before it.
    (
        "every medium piece touches a larger pyramid",
        "every medium piece touches a pyramid larger than it",
    ),
    (
        "some large piece is directly above a smaller piece",
        "some large piece is directly above a piece that is smaller than it",
    ),
    (
        "a small piece touches a piece which is the same size",
        "a small piece touches a piece that is the same size as it",
    ),
    (
        "every piece pointing down touches a piece that points the same way",
        "every piece pointing down touches a piece pointing the same direction as it",
    ),
    (
        "some large piece is below a piece it points at",
        "some large piece is below a piece pointed at by it",
    ),
    (
        "every small piece points at a piece that it touches",
        "every small piece points at a piece touching it",
    ),
    (
        "no piece touches exactly three others",
        "no piece touches exactly three other pieces",
    ),
    // The Buddha-nature frame: `unless`, and `koan` without its article.
    (
        "the koan has the Buddha-nature unless it contains a large piece",
        "there is no large piece",
    ),
    (
        "koan has buddha nature iff theres a medium piece",
        "there is a medium piece",
    ),
];

const TILE_PAIRS: &[(&str, &str)] = &[
    (
        "at least two red tiles are adjacent",
        "more than one red tile is adjacent",
    ),
    (
        "there are fewer than 3 red tiles",
        "there are at most two red tiles",
    ),
    ("more than one tile is red", "at least two tiles are red"),
    // A bound said once holds for every count of its list.
    (
        "there are exactly 2 red and 2 blue tiles",
        "there are exactly 2 red tiles and exactly 2 blue tiles",
    ),
    (
        "there are exactly 2 red tiles and 2 blue tiles",
        "there are exactly two red tiles and exactly two blue tiles",
    ),
    (
        "exactly one red and one blue tile",
        "there is exactly one red tile and exactly one blue tile",
    ),
    (
        "there are exactly 2 red tiles, 2 blue tiles and 1 green tile",
        "there are exactly 2 red tiles, exactly 2 blue tiles and exactly 1 green tile",
    ),
    (
        "there are at most 1 red and 2 blue tiles",
        "there is at most one red tile and at most two blue tiles",
    ),
    (
        "there are more than 1 red and 2 blue tiles",
        "there are at least 2 red tiles and at least 3 blue tiles",
    ),
    // A bare number of colours is that many; `of each colour` is all four.
    ("there are 2 colours", "there are exactly 2 colours"),
    (
        "there are three different colours",
        "exactly three colours are present",
    ),
    (
        "every row has two colours",
        "every row has exactly two colours",
    ),
    ("one of each colour", "each of the four colours is present"),
    (
        "there is one of each colour",
        "there are exactly four colours",
    ),
    (
        "there is a tile of every colour",
        "all four colours are present",
    ),
    // Plurals of colours are the colour's tiles.
    ("no reds", "there are no red tiles"),
    (
        "there are more greens than blues",
        "there are more green tiles than blue tiles",
    ),
    (
        "at least two yellows",
        "there are at least two yellow tiles",
    ),
    // A neighbour, or something next to it: in a connected subset the readings with
    // and without diagonals agree.
    (
        "every red tile has a neighbour",
        "every red tile is adjacent to another tile",
    ),
    (
        "a blue tile is next to something",
        "a blue tile is orthogonally adjacent to a tile",
    ),
    (
        "exactly two tiles have neighbours",
        "exactly two tiles are adjacent to a tile",
    ),
    // A tile's neighbours are the 8 around it (an orthogonal one shares an edge).
    (
        "every blue tile has a green neighbour",
        "every blue tile is adjacent to a green tile",
    ),
    (
        "there is a red tile with no red neighbour",
        "some red tile is not adjacent to any red tile",
    ),
    (
        "every yellow tile has a yellow orthogonal neighbour",
        "every yellow tile is orthogonally adjacent to another yellow tile",
    ),
    (
        "no tile has an orthogonal neighbour of its own colour",
        "no two orthogonally adjacent tiles are the same colour",
    ),
    (
        "no two neighbouring tiles are the same colour",
        "no two adjacent tiles are the same colour",
    ),
    (
        "no two touching tiles are the same colour",
        "no two orthogonally adjacent tiles are the same colour",
    ),
    (
        "a green tile has at least one diagonal neighbour",
        "a green tile is diagonally adjacent to a tile",
    ),
    (
        "red tiles with blue neighbours outnumber green tiles",
        "red tiles that are adjacent to a blue tile outnumber green tiles",
    ),
    // The whole subset named (its size or shape checked against the subset by the
    // umpire, tests/it/lang_tiles.rs).
    (
        "exactly two of the four tiles are red",
        "exactly two tiles are red",
    ),
    (
        "all four tiles are the same colour",
        "all tiles are the same colour",
    ),
    (
        "the subset contains exactly three different colours",
        "there are exactly three colours",
    ),
    (
        "the square has a blue tile but no yellow tile",
        "there is a blue tile and no yellow tile",
    ),
    (
        "these four tiles have all four colours",
        "all four colours are present",
    ),
    (
        "every tile except one is red",
        "exactly one tile is not red",
    ),
    (
        "there is a red tile, but no tile is blue",
        "there is a red tile and no tile is blue",
    ),
    // `one of` two tiles named by their coordinates.
    ("at least one of A1 and B2 is red", "A1 is red or B2 is red"),
    (
        "exactly one of A1 and B2 is yellow",
        "either A1 is yellow or B2 is yellow but not both",
    ),
    ("a red tile is A1 or B2", "at least one of A1 or B2 is red"),
    (
        "a blue tile is A1 or A2 and B1 is red",
        "at least one of A1 and A2 is blue and B1 is red",
    ),
    // `they` after tiles counted exactly: those tiles.
    (
        "exactly two tiles are red, and they are orthogonally adjacent",
        "there are exactly two red tiles and a red tile is orthogonally adjacent to another red tile",
    ),
    (
        "there are exactly two blue tiles and they are adjacent",
        "exactly two tiles are blue and some blue tile is adjacent to another blue tile",
    ),
    (
        "there are exactly 4 green tiles, all in the same column",
        "exactly four tiles are green and all green tiles are in the same column",
    ),
    (
        "there are exactly 4 red tiles and they are all in one row",
        "exactly four tiles are red and all red tiles are in the same row",
    ),
    (
        "there are exactly two yellow tiles, and they are in the same column",
        "exactly two tiles are yellow and all yellow tiles are in the same column",
    ),
    (
        "exactly three tiles are blue and none of them are adjacent to a red tile",
        "exactly three tiles are blue and no blue tile is adjacent to a red tile",
    ),
    // Sentences joined by a comma all hold.
    (
        "a tile is red, a tile is blue",
        "a tile is red and a tile is blue",
    ),
    (
        "every red tile is adjacent to a blue tile, no tile is green",
        "every red tile is adjacent to a blue tile and no tile is green",
    ),
    // Two numbers of one count are not a list.
    (
        "there are exactly 2 or 3 red tiles",
        "there are exactly 2 red tiles or exactly 3 red tiles",
    ),
    // Tiles in the same row or column, named as a pair or as an object.
    (
        "no two tiles in the same column are the same colour",
        "no two tiles of the same colour are in the same column",
    ),
    (
        "two tiles in the same row are both green",
        "there are two green tiles that are in the same row",
    ),
    (
        "there is a red tile left of a blue tile in the same row",
        "there is a red tile left of a blue tile that is in the same row as it",
    ),
    // Kinds counted against each other.
    (
        "the red tiles outnumber the blue tiles",
        "there are more red tiles than blue tiles",
    ),
    (
        "red tiles outnumber all the other tiles combined",
        "there are more red tiles than tiles that are not red",
    ),
    (
        "red and blue tiles together outnumber green and yellow ones",
        "there are more tiles that are red or blue than tiles that are green or yellow",
    ),
    (
        "there are more red tiles than tiles of any other colour",
        "red appears more often than any other colour",
    ),
    (
        "green tiles and yellow tiles are equal in number",
        "there are as many green tiles as yellow tiles",
    ),
    // Two kinds named together; `match`; `never`; `at least one` region.
    (
        "no row contains both a red and a blue tile",
        "no row has a red tile and a blue tile",
    ),
    (
        "a red tile and a blue tile are adjacent",
        "there is a red tile and a blue tile that are adjacent",
    ),
    (
        "orthogonally adjacent tiles never match",
        "no two orthogonally adjacent tiles are the same colour",
    ),
    (
        "green tiles are never adjacent to each other",
        "no two green tiles are adjacent",
    ),
    ("at least one row is entirely red", "some row is all red"),
    (
        "the tiles are three different colours",
        "there are exactly three colours",
    ),
    (
        "either there are two greens or there are two yellows, but not both",
        "either there are two green tiles or there are two yellow tiles but not both",
    ),
    // Rows and columns compared or counted as things.
    (
        "the top row has more red tiles than the bottom row",
        "there are more red tiles in the top row than in the bottom row",
    ),
    (
        "the left column has the same number of blue tiles as the right column",
        "there are as many leftmost blue tiles as rightmost blue tiles",
    ),
    (
        "at least one of the two columns is entirely green",
        "some column is all green",
    ),
    (
        "there is a column whose two tiles are the same colour",
        "some column is all one colour",
    ),
    (
        "both tiles in some row are red",
        "there is a row with only red tiles",
    ),
    (
        "there is a 2x2 square with all four tiles the same colour",
        "some 2x2 square has exactly one colour",
    ),
    (
        "there is a row with all its tiles blue",
        "there is a row with only blue tiles",
    ),
    (
        "both rows contain a green tile",
        "every row has at least one green tile",
    ),
    (
        "both columns are entirely yellow",
        "every column is all yellow",
    ),
    (
        "no more than one tile in each row is blue",
        "every row has at most one blue tile",
    ),
    (
        "some tile is the same colour as all of its orthogonal neighbours",
        "a tile is orthogonally adjacent to no tile of a different colour",
    ),
    (
        "A1 and D1 are the same colour, and so are B1 and C1",
        "A1 is the same colour as D1 and B1 is the same colour as C1",
    ),
    // Rows and columns named by their letter and number.
    ("column 2 has a red tile", "there is a red tile in column 2"),
    ("column 2 has a red tile", "some red tile is in column 2"),
    ("row B is all blue", "every tile in row B is blue"),
    ("row A is all red", "the tiles in row A are red"),
    (
        "the tiles in column 1 are red",
        "forall x. in_column_1(x) -> red(x)",
    ),
    (
        "row B has exactly two green tiles",
        "exactly two tiles in row B are green",
    ),
    ("in row B, no tile is yellow", "row B has no yellow tile"),
    (
        "every tile in row C is red",
        "forall x. in_row_C(x) -> red(x)",
    ),
    // The ends of a subset in one row; a colour no other tile has.
    (
        "the tiles at both ends of the row are red",
        "both ends are red",
    ),
    ("the two end tiles are blue", "every end tile is blue"),
    ("there is a red tile at one end", "an end tile is red"),
    (
        "some tile has a colour that no other tile has",
        "a tile is a different colour from every other tile",
    ),
    (
        "B1 is a colour no other tile has",
        "B1 is the only tile of its colour",
    ),
    (
        "exactly one tile has a unique colour",
        "exactly one tile is a different colour from every other tile",
    ),
];

/// Phrasings that look alike but must not read alike: a bound carried no further than
/// its list; a neighbour of a kind (diagonals count) is not a tile sharing an edge.
const TILE_DIFFERENT: &[(&str, &str)] = &[
    (
        "a red tile is adjacent to a blue tile",
        "a red tile is orthogonally adjacent to a blue tile",
    ),
    (
        "exactly two tiles are red and two tiles are blue",
        "exactly two tiles are red and exactly two tiles are blue",
    ),
    ("there are 2 red tiles", "there are exactly 2 red tiles"),
    (
        "every red tile has a blue neighbour",
        "every red tile has a blue orthogonal neighbour",
    ),
    (
        "no two touching tiles are the same colour",
        "no two neighbouring tiles are the same colour",
    ),
];

fn pairs(frames: &[&str], fixed: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = fixed
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    for f in frames {
        for (a, b) in BOUNDS {
            out.push((f.replacen("{}", a, 1), f.replacen("{}", b, 1)));
        }
    }
    out
}

#[test]
fn counts_said_two_ways_read_the_same() {
    let on = lang_support::structures(400);
    let piece_pairs = pairs(PIECE_FRAMES, PIECE_PAIRS);
    let mut failures = Vec::new();
    for (a, b) in &piece_pairs {
        match (parse(a), parse(b)) {
            (Ok(x), Ok(y)) => {
                let (x, y) = (
                    CompiledPattern::new(&x.formula),
                    CompiledPattern::new(&y.formula),
                );
                if let Some(k) = lang_support::disagreement(&x, &y, &on) {
                    failures.push(format!("{a:?} and {b:?} differ on {k:?}"));
                }
            }
            (x, y) => failures.push(format!(
                "{a:?} / {b:?}: {:?} / {:?}",
                x.err().map(|e| e.message),
                y.err().map(|e| e.message)
            )),
        }
    }
    let subsets: Vec<Subset> = ["A1-A2-B1-B2", "B1-B2-B3-C1-C2-C3", "A1-A2-A3-A4-B4"]
        .iter()
        .map(|s| s.parse().expect("subset"))
        .collect();
    let tile_pairs = pairs(TILE_FRAMES, TILE_PAIRS);
    for (a, b) in &tile_pairs {
        match (tiles::parse(a), tiles::parse(b)) {
            (Ok(x), Ok(y)) => {
                for s in &subsets {
                    let g = Geometry::new(s);
                    if g.truth_table(&x.formula) != g.truth_table(&y.formula) {
                        failures.push(format!("{a:?} and {b:?} differ on {s}"));
                    }
                }
            }
            (x, y) => failures.push(format!(
                "{a:?} / {b:?}: {:?} / {:?}",
                x.err().map(|e| e.message),
                y.err().map(|e| e.message)
            )),
        }
    }
    for (a, b) in TILE_DIFFERENT {
        let (Ok(x), Ok(y)) = (tiles::parse(a), tiles::parse(b)) else {
            failures.push(format!("{a:?} / {b:?} should both read"));
            continue;
        };
        let differ = subsets.iter().any(|s| {
            let g = Geometry::new(s);
            g.truth_table(&x.formula) != g.truth_table(&y.formula)
        });
        if !differ {
            failures.push(format!("{a:?} and {b:?} read the same"));
        }
    }
    let n = piece_pairs.len() + tile_pairs.len();
    println!("{n} pairs read and compared");
    assert!(n >= 100, "only {n} pairs");
    assert!(
        failures.is_empty(),
        "{} of {n} pairs:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `all` with a negated verb, in the forms players write.
const SCOPE_SUBJECTS: &[&str] = &[
    "all pieces",
    "all small pieces",
    "all large pieces",
    "all the pieces",
    "all medium pieces",
    "all the small pieces",
    "they all",
    "the pieces all",
    "the small pieces all",
];
const SCOPE_VERBS: &[&str] = &[
    "don't point up",
    "do not point down",
    "don't touch a large piece",
    "are not pointing down",
    "aren't pointing left",
    "do not point at a small piece",
    "don't point right",
    "can't point up",
    "cannot touch a large piece",
    "can't be vertical",
];

/// `every` and `each` with a negated verb: the same rule.
const SCOPE_SINGULAR_SUBJECTS: &[&str] = &[
    "every piece",
    "each piece",
    "every small piece",
    "each large piece",
];
const SCOPE_SINGULAR_VERBS: &[&str] = &[
    "doesn't point up",
    "does not touch a small piece",
    "is not pointing down",
    "isn't vertical",
    "does not point at a large piece",
    "cannot point left",
    "can't be horizontal",
];

fn scope_sentences() -> Vec<String> {
    let mut out = Vec::new();
    for (subjects, verbs) in [
        (SCOPE_SUBJECTS, SCOPE_VERBS),
        (SCOPE_SINGULAR_SUBJECTS, SCOPE_SINGULAR_VERBS),
    ] {
        for s in subjects {
            out.extend(verbs.iter().map(|v| format!("{s} {v}")));
        }
    }
    out
}

#[test]
fn all_with_not_is_refused_with_both_readings() {
    let on = lang_support::structures(400);
    let verdicts = |text: &str| -> Vec<bool> {
        let p = parse(text).unwrap_or_else(|e| panic!("{text:?}: {}", e.render(text)));
        let c = CompiledPattern::new(&p.formula);
        on.iter().map(|k| c.evaluate(k)).collect()
    };
    let mut n = 0;
    let mut failures = Vec::new();
    for text in scope_sentences() {
        n += 1;
        let e = match parse(&text) {
            Ok(_) => {
                failures.push(format!("{text:?} reads"));
                continue;
            }
            Err(e) => e,
        };
        if !e.message.contains("ambiguous") {
            failures.push(format!("{text:?}: {}", e.message));
            continue;
        }
        let [not_every, none] = &e.examples[..] else {
            failures.push(format!("{text:?} offers {:?}", e.examples));
            continue;
        };
        if !not_every.starts_with("not ") || !none.starts_with("no ") {
            failures.push(format!("{text:?} offers {:?}", e.examples));
            continue;
        }
        // "not every" is the negation of the sentence without its `not`.
        let positive = not_every.trim_start_matches("not ");
        let (a, b, p) = (verdicts(not_every), verdicts(none), verdicts(positive));
        if a.iter().zip(&p).any(|(x, y)| x == y) {
            failures.push(format!("{not_every:?} is not the negation of {positive:?}"));
        }
        if a == b {
            failures.push(format!("{none:?} means {not_every:?}"));
        }
    }
    println!("{n} ambiguous sentences refused with both readings");
    assert!(n >= 40, "only {n}");
    assert!(
        failures.is_empty(),
        "{}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
