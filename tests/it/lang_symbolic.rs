//! The symbolic form: precedence and associativity, terms, comments, errors with
//! spans and the allowed names; and the piece-set check.

use mondo::koan::PieceSet;
use mondo::lang::{
    ParsePatternError, check_set, parse, parse_symbolic, same_tree, symbolic, word_count,
};

fn read(s: &str) -> String {
    symbolic(
        &parse_symbolic(s)
            .unwrap_or_else(|e| panic!("{}", e.render(s)))
            .formula,
    )
}

/// `a` reads as the same tree as the fully parenthesised `b`.
#[track_caller]
fn groups_as(a: &str, b: &str) {
    let pa = parse_symbolic(a).unwrap_or_else(|e| panic!("{}", e.render(a)));
    let pb = parse_symbolic(b).unwrap_or_else(|e| panic!("{}", e.render(b)));
    assert!(
        same_tree(&pa.formula, &pb.formula),
        "{a} read as {}",
        read(a)
    );
}

fn error(s: &str) -> ParsePatternError {
    match parse_symbolic(s) {
        Ok(p) => panic!("{s} should fail, read as {}", symbolic(&p.formula)),
        Err(e) => e,
    }
}

const A: &str = "(exists x. up(x))";
const B: &str = "(exists x. down(x))";
const C: &str = "(exists x. left(x))";

#[test]
fn precedence_loosest_first_iff_implies_or_xor_and_not() {
    let g = |s: &str| s.replace('A', A).replace('B', B).replace('C', C);
    groups_as(&g("A | B & C"), &g("A | (B & C)"));
    groups_as(&g("A & B | C"), &g("(A & B) | C"));
    groups_as(&g("A ^ B & C"), &g("A ^ (B & C)"));
    groups_as(&g("A | B ^ C"), &g("A | (B ^ C)"));
    groups_as(&g("A -> B | C"), &g("A -> (B | C)"));
    groups_as(&g("A <-> B -> C"), &g("A <-> (B -> C)"));
    groups_as(&g("!A & B"), &g("(!A) & B"));
    // Associativity: `->` to the right, the others to the left.
    groups_as(&g("A -> B -> C"), &g("A -> (B -> C)"));
    groups_as(&g("A <-> B <-> C"), &g("(A <-> B) <-> C"));
    groups_as(&g("A & B & C"), &g("(A & B) & C"));
    groups_as(&g("A | B | C"), &g("(A | B) | C"));
    groups_as(&g("A ^ B ^ C"), &g("(A ^ B) ^ C"));
    // A quantifier's body runs as far right as it can.
    groups_as("forall x. up(x) | down(x)", "forall x. (up(x) | down(x))");
    groups_as(
        "exists x y. touches(x, y)",
        "exists x. exists y. touches(x, y)",
    );
    // Terms: + and - to the left.
    groups_as("width - height + 1 = 0", "(width - height) + 1 = 0");
    groups_as("(count(x: up(x)) + 1) = 2", "count(x: up(x)) + 1 = 2");
}

#[test]
fn printing_puts_parentheses_only_where_needed() {
    assert_eq!(read("(forall x. up(x)) & true"), "(forall x. up(x)) & true");
    assert_eq!(read("true & (forall x. up(x))"), "true & forall x. up(x)");
}

#[test]
fn every_construct_reads_and_prints() {
    for s in [
        "forall x. small(x) -> up(x)",
        "exists x y. points_at(x, y) & large(y)",
        "count(x: up(x)) = 3",
        "pips(x: true) = 10",
        "count(x: topmost(x)) = 1",
        "odd(count(x: exists y. points_at(x, y)))",
        "even(pieces + width - height)",
        "forall x. pips(x) >= 2",
        "groups != sizes",
        "directions < 3",
        "exists x y. x != y & same_row(x, y)",
        "exists x. forall y. x = y",
        "false ^ true",
        "pieces <= -1",
    ] {
        let printed = read(s);
        assert_eq!(read(&printed), printed, "{s}");
        groups_as(s, &printed);
    }
    // Comments and the unicode connectives.
    groups_as("# all up\nforall x. up(x) # every one", "forall x. up(x)");
    groups_as("∀x. ¬up(x) ∨ small(x)", "forall x. !up(x) | small(x)");
}

#[test]
fn errors_say_where_and_what_is_allowed() {
    let e = error("forall x. touches(x, z)");
    assert_eq!(e.span, 21..22);
    assert!(e.message.contains("unbound variable `z`"), "{e}");
    let e = error("exists x. blue(x)");
    assert_eq!(e.span, 10..14);
    assert!(e.message.contains("unknown predicate `blue`"));
    assert!(
        e.help.as_deref().unwrap_or("").contains("points_at"),
        "{e:?}"
    );
    let e = error("exists x. touches(x)");
    assert!(e.message.contains("two pieces"), "{e}");
    let e = error("exists x. up(x, x)");
    assert!(e.message.contains("one piece"), "{e}");
    let e = error("exists x. up(x) &");
    assert_eq!(e.span, 17..17);
    let e = error("count(x up(x)) = 1");
    assert!(e.message.contains("`:`"), "{e}");
    let e = error("forall up. up(up)");
    assert!(e.message.contains("cannot be a variable"), "{e}");
    let e = error("exists x. x < x");
    assert!(e.message.contains("`=` or `!=`"), "{e}");
    let deep = format!("{}true{}", "(".repeat(500), ")".repeat(500));
    assert!(error(&deep).message.contains("nested too deeply"));
    // The rendering is plain ASCII and points at the word.
    let text = "forall x. touches(x, z)";
    let r = error(text).render(text);
    assert!(r.is_ascii(), "{r}");
    assert!(r.contains(text) && r.contains("`-- here"), "{r}");
}

#[test]
fn sizes_are_refused_for_arrows() {
    let refuse = |s: &str, word: &str| {
        let p = parse(s).unwrap_or_else(|e| panic!("{}", e.render(s)));
        assert!(check_set(&p, PieceSet::Pyramids).is_ok());
        let e = check_set(&p, PieceSet::Arrows).expect_err(s);
        assert_eq!(e.word, word, "{s}");
        assert_eq!(&s[e.span.clone()], word);
        assert!(e.message.contains("one size"), "{e}");
        assert!(e.render(s).contains(word));
    };
    refuse("every small piece points up", "small");
    refuse("there is a 3-pip piece", "3-pip");
    refuse("every piece points up and no piece is largest", "largest");
    refuse("some piece is smaller than a piece", "smaller than");
    refuse("all pieces are the same size", "the same size");
    refuse(
        "some piece is the same size as another piece",
        "the same size as",
    );
    refuse("some piece is larger than a piece", "larger than");
    refuse("the total pips is 4", "the total pips");
    refuse(
        "the number of different sizes is 2",
        "the number of different sizes",
    );
    refuse("forall x. pips(x) = 1", "pips(x)");
    refuse("exists x. smallest(x)", "smallest(x)");
    for ok in [
        "There are no arrows pointing left.",
        "every piece touches a piece",
        "all pieces point the same direction",
        "count(x: up(x)) = 2",
    ] {
        let p = parse(ok).unwrap();
        assert!(check_set(&p, PieceSet::Arrows).is_ok(), "{ok}");
    }
}

#[test]
fn word_count_is_words_as_written() {
    assert_eq!(word_count("There is a unique top-most piece."), 6);
    assert_eq!(
        word_count("There are only arrows pointing up, right or down in the koan"),
        12
    );
    assert_eq!(word_count("forall x. small(x) -> up(x)"), 6);
}

#[test]
fn deep_nesting_is_refused_not_a_stack_overflow() {
    // Test threads have small stacks: the nesting limit must bite first.
    let deep = [
        format!(
            "{}every piece points up{}",
            "(".repeat(300),
            ")".repeat(300)
        ),
        format!("{}every piece points up", "not ".repeat(1000)),
        format!(
            "{}every piece points up",
            "it is not the case that ".repeat(300)
        ),
        format!("{}up(x)", "!".repeat(2000)),
        format!("{}true", "forall x. ".repeat(300)),
        format!("count(x: {}true{}) = 1", "(".repeat(300), ")".repeat(300)),
        format!("{}1{} = 1", "(".repeat(400), ")".repeat(400)),
        format!(
            "every piece touches {}a piece",
            "a piece that touches ".repeat(200)
        ),
        format!("every piece is {}", "not ".repeat(1000)),
        format!(
            "if {}every piece points up then every piece points up",
            "if ".repeat(300)
        ),
    ];
    for text in &deep {
        match parse(text) {
            Ok(p) => {
                let _ = symbolic(&p.formula);
            }
            Err(e) => assert!(
                e.message.contains("nested too deeply") || e.message.contains("expected"),
                "{e}"
            ),
        }
    }
}
