//! Golden readings (every example of docs/tiles.md and of the original rules), round
//! trips of the printers, and the involvement check against a brute-force reference.

use super::ast::{Domain, Formula, FormulaKind, Relation, Term, TermKind, Var};
use super::cells::{Colour, Layout, Subset};
use super::eval::Geometry;
use super::*;
use crate::lang::ast::{BinOp, CmpOp};
use proptest::prelude::*;

fn subset(s: &str) -> Subset {
    s.parse().expect("test subset")
}

fn names(cells: &[Cell]) -> Vec<String> {
    cells.iter().map(ToString::to_string).collect()
}

fn read(text: &str) -> Statement {
    match parse(text) {
        Ok(s) => s,
        Err(e) => panic!("`{text}` does not read:\n{}", e.render(text)),
    }
}

/// Whether two formulas agree on every colouring of the subset.
fn equivalent(a: &Formula, b: &Formula, on: &Subset) -> bool {
    let g = Geometry::new(on);
    g.truth_table(a) == g.truth_table(b)
}

const SUBSETS: [&str; 4] = [
    "A1-A2-B1-B2",
    "A1-A2-A3-B2-B3-C3",
    "B1-B2-B3-B4-C1-C2-C3-C4",
    "A1-B1-C1-D1-D2",
];

/// `text` reads to the meaning of `f` on every test subset.
fn assert_reads_as(f: &Formula, text: &str) {
    let again = read(text);
    for on in SUBSETS {
        assert!(equivalent(f, &again.formula, &subset(on)), "{text} on {on}");
    }
}

/// The examples of docs/tiles.md: English, its symbolic reading, and the canonical
/// English.
const GOLDEN: [(&str, &str, &str); 4] = [
    (
        "There are two red tiles.",
        "count(x: red(x)) >= 2",
        "at least two tiles are red",
    ),
    (
        "Exactly three tiles are red or two tiles are blue.",
        "count(x: red(x)) = 3 | count(x: blue(x)) >= 2",
        "there are exactly three red tiles or at least two blue tiles",
    ),
    (
        "There is a blue tile orthogonally adjacent to a green tile.",
        "exists x y. blue(x) & green(y) & orth_adjacent(x, y)",
        "a blue tile is orthogonally adjacent to a green tile",
    ),
    (
        "There is a 2x2 square with one red tile.",
        "exists s: square. count(x in s: red(x)) >= 1",
        "there is a 2x2 square with a red tile",
    ),
];

#[test]
fn grids_examples_read_as_the_table_says() {
    for (english, sym, canonical) in GOLDEN {
        let e = read(english);
        let s = parse_symbolic(sym).unwrap_or_else(|err| panic!("{sym}: {}", err.render(sym)));
        for on in SUBSETS {
            assert!(
                equivalent(&e.formula, &s.formula, &subset(on)),
                "{english} vs {sym} on {on}"
            );
        }
        assert_eq!(
            super::english(&e.formula),
            canonical,
            "canonical of {english}"
        );
        // The canonical English reads back to the same tree's meaning, and so does the
        // symbolic form.
        assert_reads_as(&e.formula, canonical);
        assert_reads_as(&e.formula, &super::symbolic(&e.formula));
    }
}

#[test]
fn exact_symbolic_forms() {
    let cases = [
        ("There are two red tiles.", "count(x: red(x)) >= 2"),
        (
            "There is a 2x2 square with one red tile.",
            "exists s: square. count(x in s: red(x)) >= 1",
        ),
        (
            "every row has a red tile",
            "forall s: row. exists x in s. red(x)",
        ),
        (
            "no column has two blue tiles",
            "!exists s: column. count(x in s: blue(x)) >= 2",
        ),
        (
            "no two adjacent tiles are the same colour",
            "!exists x y. adjacent(x, y) & same_colour(x, y)",
        ),
        (
            "all tiles are the same colour",
            "forall x y. x != y -> same_colour(x, y)",
        ),
        (
            "a red tile is in the same row as a blue tile",
            "exists x. red(x) & exists y. y != x & blue(y) & same_row(x, y)",
        ),
        (
            "the leftmost tile is red",
            "forall x. leftmost(x) -> red(x)",
        ),
        ("the number of different colours is odd", "odd(colours)"),
    ];
    for (text, want) in cases {
        let want = parse_symbolic(want).unwrap_or_else(|e| panic!("{want}: {}", e.render(want)));
        assert_reads_as(&want.formula, text);
    }
}

#[test]
fn seed_examples_behave_as_the_seed_says() {
    let six = subset("A1-B1-A2-B2-C1-D1");
    // Valid: the four examples on a subset where every tile lies in a 2x2 square.
    let square = subset("A1-A2-A3-B1-B2-B3");
    for (text, _, _) in GOLDEN {
        let v = check(&read(text), &square, MAX_WORDS).unwrap();
        assert!(v.valid, "{text}: {:?}", v.reason);
        assert!(v.uninvolved.is_empty());
    }
    // The leftmost-tile statement does not involve the other tiles.
    let v = check(&read("The leftmost tile is red."), &six, MAX_WORDS).unwrap();
    assert!(!v.valid);
    assert_eq!(names(&v.uninvolved), ["A2", "B2"]);
    assert!(
        v.reason
            .as_deref()
            .unwrap_or("")
            .contains("does not involve A2, B2")
    );
    // The 2x2 statement: valid exactly when every tile lies in a 2x2 square.
    let v = check(
        &read("There is a 2x2 square with one red tile."),
        &six,
        MAX_WORDS,
    )
    .unwrap();
    assert!(!v.valid);
    assert_eq!(names(&v.uninvolved), ["C1", "D1"]);
    assert!(
        v.reason
            .as_deref()
            .unwrap_or("")
            .contains("C1, D1 lie in no 2x2 square"),
        "{:?}",
        v.reason
    );
    let line = subset("A1-A2-A3-A4");
    let v = check(
        &read("There is a 2x2 square with one red tile."),
        &line,
        MAX_WORDS,
    )
    .unwrap();
    assert!(
        v.reason.as_deref().unwrap_or("").contains("has none"),
        "{:?}",
        v.reason
    );
    // Outside the grammar: tiles outside the subset, and information outside the game.
    let text = "There are four red tiles on the grid.";
    let e = parse(text).unwrap_err();
    assert_eq!(&text[e.span.clone()], "on the grid");
    assert!(
        e.message.contains("only of the tiles of its own subset"),
        "{}",
        e.message
    );
    assert_eq!(e.example(), Some("there are four red tiles"));
    // A tile named by its coordinates is that tile; outside the subset, refused.
    let s = parse("A1 is red").expect("reads");
    let on: Subset = "A1-A2-B1-B2".parse().expect("a subset");
    let v = check(&s, &on, MAX_WORDS).expect("checks");
    assert_eq!(v.statement, "A1 is red");
    let off: Subset = "B1-B2-C1-C2".parse().expect("a subset");
    let v = check(&s, &off, MAX_WORDS).expect("checks");
    assert!(
        v.reason
            .as_deref()
            .is_some_and(|r| r.contains("it names A1, not in the subset")),
        "{v:?}"
    );
    assert!(parse("There are two red tiles, and I beat Marcer in arithmetic 3-1.").is_err());
}

#[test]
fn two_by_two_validity_matches_square_cover_on_every_subset() {
    // For every connected 4-6 tile subset of the top-left 3x3 corner: the seed's
    // 2x2 statement is valid exactly when each tile lies in a 2x2 square.
    let s = read("There is a 2x2 square with one red tile.");
    let corner: Vec<Cell> = Cell::all().filter(|c| c.row < 3 && c.col < 3).collect();
    let mut seen = 0;
    for bits in 1u32..(1 << corner.len()) {
        let cells: Vec<Cell> = corner
            .iter()
            .enumerate()
            .filter(|(i, _)| bits & (1 << i) != 0)
            .map(|(_, c)| *c)
            .collect();
        if !(4..=6).contains(&cells.len()) {
            continue;
        }
        let sub = Subset::new(cells).unwrap();
        if !sub.is_connected() {
            continue;
        }
        seen += 1;
        let covered = Geometry::new(&sub)
            .outside(ast::RegionKind::Square)
            .is_empty();
        let v = check(&s, &sub, MAX_WORDS).unwrap();
        assert_eq!(v.valid, covered, "{sub}");
    }
    assert!(seen > 50);
}

#[test]
fn checks_word_limit_and_constant_statements() {
    let sub = subset("A1-A2-B1-B2");
    let long =
        "there is a red tile that is adjacent to a blue tile that is adjacent to a green tile";
    let v = check(&read(long), &sub, MAX_WORDS).unwrap();
    assert_eq!(v.words, 19);
    assert!(
        v.reason
            .as_deref()
            .unwrap_or("")
            .contains("19 words; at most 15")
    );
    let v = check(&read("there are at least zero red tiles"), &sub, MAX_WORDS).unwrap();
    assert!(v.reason.as_deref().unwrap_or("").contains("always true"));
    assert_eq!(v.uninvolved.len(), 4);
    let v = check(&read("there are five red tiles"), &sub, MAX_WORDS).unwrap();
    assert!(v.reason.as_deref().unwrap_or("").contains("always false"));
    let v = check(&read("all tiles are the same colour"), &sub, MAX_WORDS).unwrap();
    assert!(v.valid);
    let too_big = subset("A1-A2-A3-A4-B1-B2-B3-B4-C1");
    assert_eq!(
        check(&read("there is a red tile"), &too_big, MAX_WORDS),
        Err(TooLarge(9))
    );
}

#[test]
fn truth_on_a_layout() {
    let layout: Layout = "RBGY/YYGR/BRRG/GBYB".parse().unwrap();
    let sub = subset("A1-B1-A2-B2");
    let yes = |t: &str| truth(&read(t), &sub, &layout);
    assert!(yes("there are two yellow tiles"));
    assert!(!yes("there are three yellow tiles"));
    assert!(yes("exactly one tile is red"));
    assert!(yes(
        "there is a blue tile orthogonally adjacent to a yellow tile"
    ));
    assert!(!yes(
        "there is a red tile diagonally adjacent to a blue tile"
    ));
    assert!(yes("every column has a yellow tile"));
    assert!(!yes("every row has a yellow tile"));
    assert!(yes("there is a 2x2 square with no green tile"));
    assert!(yes("the number of different colours is three"));
    assert!(yes("there are more yellow tiles than red tiles"));
    assert!(yes("the red tile is above a yellow tile"));
    assert!(!yes(
        "no two orthogonally adjacent tiles are the same colour"
    ));
    assert!(yes("two adjacent tiles are the same colour"));
    assert!(yes(
        "either a tile is green or two tiles are yellow but not both"
    ));
    assert!(yes("if there is a red tile then there is a blue tile"));
    assert!(yes("the leftmost tiles are red or yellow"));
    assert!(yes(
        "a yellow tile is a different colour from every red tile"
    ));
    assert!(!yes("all tiles are different colours"));
}

#[test]
fn refusals_name_the_word_and_suggest_a_fix() {
    let e = parse("there are two rde tiles").unwrap_err();
    assert_eq!(&"there are two rde tiles"[e.span.clone()], "rde");
    assert!(
        e.message.contains("did you mean `red`")
            || e.help
                .as_deref()
                .unwrap_or("")
                .contains("did you mean `red`"),
        "{e:?}"
    );
    assert_eq!(e.example(), Some("there are two red tiles"));
    assert!(parse(e.example().unwrap()).is_ok());

    let e = parse("there is a red square").unwrap_err();
    assert!(e.message.contains("`tile` or `tiles`"), "{}", e.message);

    let e = parse("either a tile is red or a tile is blue").unwrap_err();
    assert!(e.message.contains("but not both"));

    let e = parse("exists x. rde(x)").unwrap_err();
    assert!(e.message.contains("did you mean `red`"), "{}", e.message);

    let text = "there are two rows with a red tile";
    let e = parse(text).unwrap_err();
    assert!(e.message.contains("regions are not counted"));
    assert!(e.render(text).contains("rows"));

    let e = parse("adjacent tiles are red").unwrap_err();
    assert!(e.example().is_some_and(|x| parse(x).is_ok()));
}

#[test]
fn english_and_symbolic_forms_agree() {
    let pairs = [
        (
            "every red tile is adjacent to a blue tile",
            "forall x. red(x) -> exists y. adjacent(x, y) & blue(y)",
        ),
        ("no tile is red", "!exists x. red(x)"),
        ("at most two tiles are green", "count(x: green(x)) <= 2"),
        (
            "the number of red tiles is greater than the number of blue tiles",
            "count(x: red(x)) > count(y: blue(y))",
        ),
        (
            "a tile is red iff a tile is blue",
            "(exists x. red(x)) <-> (exists x. blue(x))",
        ),
        (
            "there is a column with only yellow tiles",
            "exists s: column. forall x in s. yellow(x)",
        ),
        ("every tile is red or blue", "forall x. red(x) | blue(x)"),
        (
            "a red tile is left of every blue tile",
            "exists x. red(x) & forall y. blue(y) -> left_of(x, y)",
        ),
        (
            "a tile is adjacent to two red tiles",
            "exists x. count(y: adjacent(x, y) & red(y)) >= 2",
        ),
    ];
    for (e, s) in pairs {
        let (a, b) = (
            read(e),
            parse_symbolic(s).unwrap_or_else(|err| panic!("{s}: {}", err.render(s))),
        );
        for on in SUBSETS {
            assert!(
                equivalent(&a.formula, &b.formula, &subset(on)),
                "{e} vs {s} on {on}"
            );
        }
        // Both printers read back to the same meaning.
        for printed in [super::english(&a.formula), super::symbolic(&a.formula)] {
            let again = read(&printed);
            for on in SUBSETS {
                assert!(
                    equivalent(&a.formula, &again.formula, &subset(on)),
                    "{e} -> {printed}"
                );
            }
        }
    }
}

/// Colour phrases after a tile noun (see the choices at the top of `english.rs`):
/// English, its exact reading, and the canonical English it prints back as.
const COLOUR_PHRASES: [(&str, &str, &str); 14] = [
    (
        "every tile is adjacent to a tile of the same colour",
        "forall x. exists y. y != x & same_colour(x, y) & adjacent(x, y)",
        "every tile is adjacent to a tile of the same colour",
    ),
    (
        "every tile is adjacent to a tile of a different colour",
        "forall x. exists y. !same_colour(x, y) & adjacent(x, y)",
        "every tile is adjacent to a tile of a different colour",
    ),
    (
        "a red tile is adjacent to a tile of another colour",
        "exists x. red(x) & exists y. !same_colour(x, y) & adjacent(x, y)",
        "there is a red tile that is adjacent to a tile of a different colour",
    ),
    (
        "every tile is in the same row as a tile of the same colour",
        "forall x. exists y. y != x & same_colour(x, y) & same_row(x, y)",
        "every tile is in the same row as a tile of the same colour",
    ),
    (
        "every blue tile is adjacent to every tile of the same colour",
        "forall x. blue(x) -> forall y. y != x & same_colour(x, y) -> adjacent(x, y)",
        "every blue tile is adjacent to every tile of the same colour",
    ),
    (
        "every tile is adjacent to exactly one tile of a different colour",
        "forall x. count(y: !same_colour(x, y) & adjacent(x, y)) = 1",
        "every tile is adjacent to exactly one tile of a different colour",
    ),
    (
        "every row has two tiles of the same colour",
        "forall s: row. exists x y in s. x != y & same_colour(x, y)",
        "every row has two tiles of the same colour",
    ),
    (
        "no column has two tiles of the same colour",
        "!exists s: column. exists x y in s. x != y & same_colour(x, y)",
        "no column has two tiles of the same colour",
    ),
    (
        "every row has no two tiles of the same colour",
        "forall s: row. !exists x y in s. x != y & same_colour(x, y)",
        "every row has no two tiles of the same colour",
    ),
    (
        "there is a 2x2 square with two tiles of different colours",
        "exists s: square. exists x y in s. x != y & !same_colour(x, y)",
        "there is a 2x2 square with two tiles of different colours",
    ),
    (
        "there are two tiles of the same colour",
        "exists x y. x != y & same_colour(x, y)",
        "two tiles are the same colour",
    ),
    (
        "there are three tiles of the same colour",
        "exists x. count(y: same_colour(x, y)) >= 3",
        "there are three tiles of the same colour",
    ),
    (
        "there are no three tiles of the same colour",
        "!exists x. count(y: same_colour(x, y)) >= 3",
        "there are no three tiles of the same colour",
    ),
    (
        "every tile is the same colour as some tile adjacent to it",
        "forall x. exists y. y != x & adjacent(y, x) & same_colour(x, y)",
        "every tile is the same colour as a tile that is adjacent to it",
    ),
];

#[test]
fn colour_phrases_read_and_print_back() {
    for (english, sym, canonical) in COLOUR_PHRASES {
        let e = read(english);
        // The reading's meaning is the symbolic twin's; the canonical English (as
        // first written, and as printed now) reads back to it.
        assert_reads_as(&e.formula, sym);
        assert_reads_as(&e.formula, canonical);
        assert_reads_as(&e.formula, &super::english(&e.formula));
    }
    // `of the same colour as Q` is `the same colour as Q` said after the noun.
    let a = read("a red tile is adjacent to a tile of the same colour as a blue tile");
    assert_reads_as(
        &a.formula,
        "a red tile is adjacent to a tile that is the same colour as a blue tile",
    );
    // `no two red tiles` is fewer than two, not none.
    assert_eq!(
        super::symbolic(&read("there are no two red tiles").formula),
        "count(x: red(x)) < 2"
    );
}

#[test]
fn colour_phrases_are_true_where_they_should_be() {
    // Rows A-D are RBGY, YYGR, BRRG, GBYB: A1 R, A2 B, B1 Y, B2 Y, C2 R, C3 R.
    let layout: Layout = "RBGY/YYGR/BRRG/GBYB".parse().unwrap();
    let yes = |t: &str, on: &str| truth(&read(t), &subset(on), &layout);
    let (square, pairs, block) = ("A1-A2-B1-B2", "B1-B2-C2-C3", "A1-A2-A3-A4-B1-B2-B3-B4");
    // In the square only the two yellows touch their colour.
    assert!(!yes(
        "every tile is adjacent to a tile of the same colour",
        square
    ));
    assert!(yes(
        "a yellow tile is adjacent to a tile of the same colour",
        square
    ));
    assert!(!yes(
        "a red tile is adjacent to a tile of the same colour",
        square
    ));
    assert!(yes(
        "every tile is adjacent to a tile of a different colour",
        square
    ));
    assert!(yes(
        "every tile is the same colour as some tile adjacent to it",
        pairs
    ));
    assert!(!yes(
        "every tile is the same colour as some tile adjacent to it",
        square
    ));
    // Rows B and C of `pairs` are Y Y and R R; row A of `block` is R B G Y.
    assert!(yes("every row has two tiles of the same colour", pairs));
    assert!(!yes("every row has two tiles of the same colour", block));
    assert!(yes("a row has two tiles of the same colour", block));
    assert!(!yes("every row has two tiles of different colours", pairs));
    // `block` has three yellow tiles (A4, B1, B2); the square has no colour three times.
    assert!(yes("there are three tiles of the same colour", block));
    assert!(!yes("there are three tiles of the same colour", square));
    assert!(yes("there are no three tiles of the same colour", square));
}

#[test]
fn colour_phrases_refuse_what_is_unclear() {
    let refused = |text: &str, span: &str, says: &str| {
        let e = parse(text).unwrap_err();
        assert_eq!(&text[e.span.clone()], span, "{text}");
        assert!(e.message.contains(says), "{text}: {}", e.message);
        // A rewording is offered only when it means what was typed
        // (docs/tiles.md); one that is offered reads.
        if let Some(example) = e.example() {
            assert!(parse(example).is_ok(), "{text}: {example}");
        }
    };
    // Plural objects: as the subject's colour, or as each other's?
    refused(
        "every tile is adjacent to two tiles of the same colour",
        "two tiles of the same colour",
        "ambiguous",
    );
    // One colour or every colour?
    refused(
        "every row has exactly two tiles of the same colour",
        "exactly two tiles of the same colour",
        "leave open whether one colour or every colour",
    );
    refused(
        "there are at most two tiles of the same colour",
        "at most two tiles of the same colour",
        "leave open",
    );
    // Nothing to compare with.
    for (text, span) in [
        ("a tile of the same colour is red", "of the same colour"),
        ("there is a tile of another colour", "of another colour"),
        (
            "every row has a tile of the same colour",
            "of the same colour",
        ),
        (
            "the number of tiles of the same colour is two",
            "of the same colour",
        ),
    ] {
        refused(text, span, "no tile to compare with");
    }
    refused(
        "there are three tiles of different colours",
        "three tiles of different colours",
        "only for two tiles",
    );
    // `it` with no tile, or more than one, to mean.
    refused("every tile is adjacent to it", "it", "no tile to name");
    refused(
        "every tile that is adjacent to it is red",
        "it",
        "no tile to name",
    );
    refused(
        "a red tile is adjacent to a blue tile that is adjacent to a tile above it",
        "it",
        "could name any of the tiles",
    );
    // The refusal for plural objects suggests a phrasing that reads the subject's colour.
    let s = read("every tile is adjacent to two tiles that are the same colour as it");
    assert_eq!(
        super::symbolic(&s.formula),
        "forall x. count(y: y != x & same_colour(y, x) & adjacent(x, y)) >= 2"
    );
}

// ---- Involvement against a brute-force reference ----

/// The definition, literally: tile t is involved when some colouring of the subset
/// and some other colour for t give different truths.
fn reference_uninvolved(f: &Formula, sub: &Subset) -> Vec<Cell> {
    let g = Geometry::new(sub);
    let n = sub.len();
    let mut out = Vec::new();
    for t in 0..n {
        let mut involved = false;
        let mut colours = vec![0u8; n];
        'all: for k in 0..(1usize << (2 * n)) {
            for (i, c) in colours.iter_mut().enumerate() {
                *c = ((k >> (2 * i)) & 3) as u8;
            }
            let base = g.evaluate(f, &colours);
            for other in 0..4u8 {
                colours[t] = other;
                if g.evaluate(f, &colours) != base {
                    involved = true;
                    break 'all;
                }
            }
        }
        if !involved {
            out.push(sub.cells()[t]);
        }
    }
    out
}

fn var_formula(depth: u32, vars: Vec<Var>) -> BoxedStrategy<Formula> {
    let any_var = prop::sample::select(if vars.is_empty() {
        vec![Var(0)]
    } else {
        vars.clone()
    });
    let colour = prop::sample::select(Colour::ALL.to_vec());
    let rel = prop::sample::select(Relation::ALL.to_vec());
    let f = |k| Formula::new(0..0, k);
    let leaf = prop_oneof![
        (colour, any_var.clone()).prop_map(move |(c, v)| f(FormulaKind::Colour(c, v))),
        (rel, any_var.clone(), any_var).prop_map(move |(r, a, b)| f(FormulaKind::Rel(r, a, b))),
    ]
    .boxed();
    if depth == 0 || vars.is_empty() {
        return leaf;
    }
    let next = Var(vars.len() as u8);
    let mut deeper = vars.clone();
    deeper.push(next);
    let sub = var_formula(depth - 1, vars.clone());
    let quantified = var_formula(depth - 1, deeper);
    prop_oneof![
        leaf,
        (
            sub.clone(),
            sub.clone(),
            prop::sample::select(vec![BinOp::And, BinOp::Or, BinOp::Xor, BinOp::Implies])
        )
            .prop_map(move |(a, b, op)| f(FormulaKind::Bin(op, Box::new(a), Box::new(b)))),
        sub.prop_map(move |a| f(FormulaKind::Not(Box::new(a)))),
        (quantified.clone(), any::<bool>()).prop_map(move |(a, all)| {
            let body = Box::new(a);
            f(if all {
                FormulaKind::Forall(next, Domain::Subset, body)
            } else {
                FormulaKind::Exists(next, Domain::Subset, body)
            })
        }),
        (
            quantified,
            0i64..4,
            prop::sample::select(vec![CmpOp::Ge, CmpOp::Eq, CmpOp::Le])
        )
            .prop_map(move |(a, n, op)| {
                let t = Term::new(0..0, TermKind::Count(next, Domain::Subset, Box::new(a)));
                f(FormulaKind::Cmp(op, t, Term::new(0..0, TermKind::Int(n))))
            }),
    ]
    .boxed()
}

/// Closed random statements: a top quantifier over x, then anything.
fn statement() -> impl Strategy<Value = Formula> {
    (var_formula(3, vec![Var(0)]), any::<bool>()).prop_map(|(body, all)| {
        let body = Box::new(body);
        Formula::new(
            0..0,
            if all {
                FormulaKind::Forall(Var(0), Domain::Subset, body)
            } else {
                FormulaKind::Exists(Var(0), Domain::Subset, body)
            },
        )
    })
}

fn connected_subset() -> impl Strategy<Value = Subset> {
    // Grow a connected set from a seed tile by adding random neighbours.
    (0usize..16, prop::collection::vec(0usize..64, 3..6)).prop_map(|(start, picks)| {
        let mut cells = vec![Cell::from_index(start).unwrap_or(Cell { row: 0, col: 0 })];
        for p in picks {
            let frontier: Vec<Cell> = Cell::all()
                .filter(|c| !cells.contains(c) && cells.iter().any(|d| d.orth_adjacent(*c)))
                .collect();
            cells.push(frontier[p % frontier.len()]);
        }
        Subset::new(cells).expect("distinct cells")
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn involvement_matches_the_brute_force_reference(f in statement(), sub in connected_subset()) {
        let st = Statement { source: String::new(), formula: f };
        let v = check(&st, &sub, MAX_WORDS).unwrap();
        prop_assert_eq!(v.uninvolved, reference_uninvolved(&st.formula, &sub));
    }

    #[test]
    fn printers_keep_the_meaning(f in statement(), sub in connected_subset()) {
        let sym = super::symbolic(&f);
        let again = parse_symbolic(&sym).map_err(|e| TestCaseError::fail(format!("{sym}: {}", e.render(&sym))))?;
        prop_assert!(equivalent(&f, &again.formula, &sub), "{}", sym);
        let en = super::english(&f);
        let again = parse_english(&en).map_err(|e| TestCaseError::fail(format!("{en}: {}", e.render(&en))))?;
        prop_assert!(equivalent(&f, &again.formula, &sub), "{}", en);
    }
}

// ---- The evaluator against a literal reading of the definitions ----

/// Evaluates with loops over tiles and regions and the definitions of `ast.rs`
/// (no masks): what [`Geometry::evaluate`] must agree with.
fn naive_get(env: &[(Var, usize)], v: Var) -> usize {
    env.iter()
        .rev()
        .find(|(w, _)| *w == v)
        .map_or(0, |(_, i)| *i)
}

/// The regions of a kind the subset has, as tile indices.
fn naive_regions(k: super::ast::RegionKind, sub: &Subset) -> Vec<Vec<usize>> {
    let cells = sub.cells();
    k.board_regions()
        .into_iter()
        .filter(|r| match k {
            super::ast::RegionKind::Square => r.iter().all(|c| sub.contains(*c)),
            _ => r.iter().any(|c| sub.contains(*c)),
        })
        .map(|r| {
            (0..cells.len())
                .filter(|i| r.contains(&cells[*i]))
                .collect()
        })
        .collect()
}

/// Region variables hold (kind index * 100 + region index).
fn naive_domain(d: Domain, sub: &Subset, env: &[(Var, usize)]) -> Vec<usize> {
    use super::ast::RegionKind;
    match d {
        Domain::Subset => (0..sub.len()).collect(),
        Domain::In(s) => {
            let code = naive_get(env, s);
            naive_regions(RegionKind::ALL[code / 100], sub)
                .get(code % 100)
                .cloned()
                .unwrap_or_default()
        }
    }
}

/// Evaluates with loops over tiles and regions and the definitions of `ast.rs`
/// (no masks): what [`Geometry::evaluate`] must agree with.
fn naive(f: &Formula, sub: &Subset, colours: &[u8], env: &mut Vec<(Var, usize)>) -> bool {
    use super::ast::RegionKind;
    let cells = sub.cells();
    let get = |env: &Vec<(Var, usize)>, v: Var| naive_get(env, v);
    match &f.kind {
        FormulaKind::Bool(b) => *b,
        FormulaKind::Not(a) => !naive(a, sub, colours, env),
        FormulaKind::Bin(op, a, b) => {
            let (a, b) = (naive(a, sub, colours, env), naive(b, sub, colours, env));
            op.holds(a, b)
        }
        FormulaKind::Forall(v, d, body) | FormulaKind::Exists(v, d, body) => {
            let all = matches!(f.kind, FormulaKind::Forall(..));
            let tiles = naive_domain(*d, sub, env);
            let mut results = tiles.into_iter().map(|t| {
                env.push((*v, t));
                let r = naive(body, sub, colours, env);
                env.pop();
                r
            });
            if all {
                results.all(|r| r)
            } else {
                results.any(|r| r)
            }
        }
        FormulaKind::ForallRegion(s, k, body) | FormulaKind::ExistsRegion(s, k, body) => {
            let all = matches!(f.kind, FormulaKind::ForallRegion(..));
            let n = naive_regions(*k, sub).len();
            let ki = RegionKind::ALL.iter().position(|x| x == k).unwrap_or(0);
            let mut results = (0..n).map(|r| {
                env.push((*s, ki * 100 + r));
                let out = naive(body, sub, colours, env);
                env.pop();
                out
            });
            if all {
                results.all(|r| r)
            } else {
                results.any(|r| r)
            }
        }
        FormulaKind::Colour(c, v) => colours[get(env, *v)] as usize == c.index(),
        FormulaKind::Place(p, v) => p.holds(cells[get(env, *v)], cells),
        FormulaKind::Rel(r, a, b) => {
            let (i, j) = (get(env, *a), get(env, *b));
            match r {
                Relation::SameColour => colours[i] == colours[j],
                _ => r.holds_at(cells[i], cells[j]),
            }
        }
        FormulaKind::Same(a, b) => get(env, *a) == get(env, *b),
        FormulaKind::Cmp(op, a, b) => op.holds(
            naive_term(a, sub, colours, env),
            naive_term(b, sub, colours, env),
        ),
        FormulaKind::Parity(p, t) => {
            (naive_term(t, sub, colours, env).rem_euclid(2) == 1)
                == (*p == crate::lang::Parity::Odd)
        }
    }
}

fn naive_term(t: &Term, sub: &Subset, colours: &[u8], env: &mut Vec<(Var, usize)>) -> i64 {
    match &t.kind {
        TermKind::Int(n) => *n,
        TermKind::Tiles => sub.len() as i64,
        TermKind::Colours => (0..4u8).filter(|c| colours.contains(c)).count() as i64,
        TermKind::Count(v, d, body) => naive_domain(*d, sub, env)
            .into_iter()
            .filter(|t| {
                env.push((*v, *t));
                let r = naive(body, sub, colours, env);
                env.pop();
                r
            })
            .count() as i64,
        TermKind::ColoursIn(s) => {
            let tiles = naive_domain(Domain::In(*s), sub, env);
            (0..4u8)
                .filter(|c| tiles.iter().any(|t| colours[*t] == *c))
                .count() as i64
        }
        TermKind::Mul(k, a) => k * naive_term(a, sub, colours, env),
        TermKind::Add(a, b) => naive_term(a, sub, colours, env) + naive_term(b, sub, colours, env),
        TermKind::Sub(a, b) => naive_term(a, sub, colours, env) - naive_term(b, sub, colours, env),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn masks_agree_with_the_definitions(f in statement(), sub in connected_subset(), seed in prop::collection::vec(0u8..4, 8)) {
        let colours = &seed[..sub.len()];
        let g = Geometry::new(&sub);
        prop_assert_eq!(g.evaluate(&f, colours), naive(&f, &sub, colours, &mut Vec::new()), "{}", super::symbolic(&f));
    }
}

#[test]
fn masks_agree_on_every_example_statement() {
    let statements = GOLDEN.iter().map(|g| g.0).chain(BENCH_STATEMENTS).chain([
        "every row has a red tile",
        "no column has two blue tiles",
        "there is a column with only yellow tiles",
        "all tiles are the same colour",
        "the leftmost tile is red",
        "a yellow tile is a different colour from every red tile",
        "every tile is adjacent to a tile of the same colour",
        "every row has two tiles of the same colour",
        "there are three tiles of the same colour",
        "every tile is the same colour as some tile adjacent to it",
    ]);
    let sub = subset("A1-A2-A3-B2-B3-C3");
    for text in statements {
        let f = read(text).formula;
        let g = Geometry::new(&sub);
        for k in (0..4096).step_by(7) {
            let colours: Vec<u8> = (0..6).map(|i| ((k >> (2 * i)) & 3) as u8).collect();
            assert_eq!(
                g.evaluate(&f, &colours),
                naive(&f, &sub, &colours, &mut Vec::new()),
                "{text} at {k}"
            );
        }
    }
}

/// Every statement `Q x. Q' y. ...` made of up to three atoms relating x and y (both
/// orders, colour comparisons, the guard `y != x`) prints as English or symbols that
/// read back to its meaning: the shapes where `of the same colour` and `it` are said.
#[test]
fn printers_keep_the_meaning_of_every_small_object_shape() {
    let (x, y) = (Var(0), Var(1));
    let f = |k| Formula::new(0..0, k);
    let rel = |r, a, b| f(FormulaKind::Rel(r, a, b));
    let not = |g: Formula| f(FormulaKind::Not(Box::new(g)));
    let atoms = [
        rel(Relation::Adjacent, x, y),
        rel(Relation::Adjacent, y, x),
        rel(Relation::Above, y, x),
        rel(Relation::SameRow, x, y),
        rel(Relation::SameColour, x, y),
        rel(Relation::SameColour, y, x),
        not(rel(Relation::SameColour, x, y)),
        not(f(FormulaKind::Same(y, x))),
        f(FormulaKind::Colour(Colour::Red, y)),
    ];
    let and_all = |parts: &[&Formula]| {
        parts
            .iter()
            .map(|p| (*p).clone())
            .reduce(|a, b| f(FormulaKind::Bin(BinOp::And, Box::new(a), Box::new(b))))
    };
    let on = subset("A1-A2-A3-B2-B3-C3");
    let mut english = 0;
    let n = atoms.len();
    for mask in 1u32..(1 << n) {
        if mask.count_ones() > 3 {
            continue;
        }
        let parts: Vec<&Formula> = (0..n)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| &atoms[i])
            .collect();
        let Some(body) = and_all(&parts) else {
            continue;
        };
        let mut inner = vec![f(FormulaKind::Exists(
            y,
            Domain::Subset,
            Box::new(body.clone()),
        ))];
        for k in [1, 2] {
            let t = Term::new(
                0..0,
                TermKind::Count(y, Domain::Subset, Box::new(body.clone())),
            );
            inner.push(f(FormulaKind::Cmp(
                CmpOp::Ge,
                t,
                Term::new(0..0, TermKind::Int(k)),
            )));
        }
        if let [r @ .., g] = parts.as_slice()
            && let Some(r) = and_all(r)
        {
            let imp = f(FormulaKind::Bin(
                BinOp::Implies,
                Box::new(r),
                Box::new((*g).clone()),
            ));
            inner.push(f(FormulaKind::Forall(y, Domain::Subset, Box::new(imp))));
        }
        for g in inner {
            for all in [true, false] {
                let body = Box::new(g.clone());
                let top = f(if all {
                    FormulaKind::Forall(x, Domain::Subset, body)
                } else {
                    FormulaKind::Exists(x, Domain::Subset, body)
                });
                let printed = super::english(&top);
                let plain = !printed.contains(" such that ") && !printed.starts_with("for ");
                if !plain && std::env::var_os("MONDO_SHOW").is_some() {
                    eprintln!("{}  =>  {printed}", super::symbolic(&top));
                }
                english += usize::from(plain);
                let again = parse_english(&printed)
                    .unwrap_or_else(|e| panic!("{printed}: {}", e.render(&printed)));
                assert!(
                    equivalent(&top, &again.formula, &on),
                    "{} printed as {printed}",
                    super::symbolic(&top)
                );
            }
        }
    }
    // Every shape is said in English that reads back to it; this many in plain
    // English, the rest in the named-tile English (`for every tile x, ...`).
    println!("{english} of 1014 shapes in plain English");
    assert!(english >= 290, "{english}");
}

#[test]
fn a_rewording_never_puts_one_quantity_for_another() {
    // The message names `a`, `no`, `exactly one`: put for `all`, each would offer a
    // statement that means something else (`no` the opposite) than the one typed.
    for text in [
        "there is all red tiles",
        "there is a 2x2 square with all tiles different colours",
        "there is a column with all green",
    ] {
        let e = parse(text).unwrap_err();
        assert!(e.message.contains("`no`"), "{text}: {}", e.message);
        for x in &e.examples {
            let swapped = [" a ", " no ", "exactly one", "at least two"]
                .iter()
                .any(|q| x.contains(q) && !text.contains(q));
            assert!(!swapped, "{text}: offered {x:?}");
        }
    }
}

#[test]
fn what_a_kind_of_tile_does_together_is_said_as_players_say_it() {
    for (text, said) in [
        (
            "All red tiles are in the same row.",
            "all red tiles are in the same row",
        ),
        (
            "all red or blue tiles are in the same column",
            "all red or blue tiles are in the same column",
        ),
        (
            "Exactly two tiles are yellow and they are orthogonally adjacent.",
            "exactly two tiles are yellow and they are orthogonally adjacent",
        ),
        (
            "There are more red or blue tiles than green or yellow tiles.",
            "there are more red or blue tiles than green or yellow tiles",
        ),
    ] {
        let s = read(text);
        assert_eq!(english(&s.formula), said, "{text}");
        // And the words read back to the same tree.
        let again = read(said);
        assert_eq!(symbolic(&again.formula), symbolic(&s.formula), "{said}");
    }
}

#[test]
fn the_middle_tile_is_refused_for_what_it_is_not_for_reaching_outside() {
    for text in ["the middle tile is red", "the centre tile is blue"] {
        let e = parse(text).unwrap_err();
        assert!(
            e.message.contains("is not a place a tile can have"),
            "{text}: {}",
            e.message
        );
        assert!(
            !e.message.contains("only of the tiles"),
            "{text}: {}",
            e.message
        );
    }
}

#[test]
fn a_reading_over_the_limit_says_bare_numbers_when_they_read_the_same() {
    let s = read("Either there are two red tiles or there are two blue tiles, but not both.");
    let said = english(&s.formula);
    assert_eq!(
        said,
        "either two tiles are red or two tiles are blue but not both"
    );
    assert_eq!(symbolic(&read(&said).formula), symbolic(&s.formula));
    // Within the limit the number is said in full.
    assert_eq!(
        english(&read("there are two red tiles").formula),
        "at least two tiles are red"
    );
}
