//! The vocabulary the fronts list (`lang::VOCABULARY`, `lang::vocabulary_text`), the
//! refusal they show (`lang::read_for`, `Refusal::render`), and `docs/patterns.md`,
//! kept in step with the reader: every example reads and can be true and false, every
//! table row of the docs reads as its symbolic twin (or is refused, in the refusals
//! table), and the docs show every vocabulary example.

use crate::lang_support;

use mondo::koan::PieceSet;
use mondo::lang::{
    CompiledPattern, Refusal, VOCABULARY, parse, parse_symbolic, read_for, symbolic,
    vocabulary_text,
};

const DOCS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/patterns.md");

#[test]
fn every_vocabulary_example_reads_and_says_something() {
    let on = lang_support::structures(500);
    for v in VOCABULARY {
        let p = parse(v.example).unwrap_or_else(|e| panic!("{}: {}", v.topic, e.render(v.example)));
        assert!(
            lang_support::says_something(&CompiledPattern::new(&p.formula), &on),
            "{}: {:?} is always the same",
            v.topic,
            v.example
        );
    }
    let text = vocabulary_text();
    // One Discord embed's description holds 4,096 characters.
    assert!(
        text.chars().count() < 4000,
        "{} characters: too long for one Discord embed",
        text.chars().count()
    );
    for v in VOCABULARY {
        assert!(text.contains(v.example), "{}", v.example);
    }
}

/// `| `english` | `symbolic` |` rows read as their twin; rows under the refusals
/// heading are refused.
#[test]
fn the_docs_tables_read_as_they_say() {
    let docs = std::fs::read_to_string(DOCS).expect("docs/patterns.md");
    let on = lang_support::structures(500);
    let mut refused_section = false;
    let (mut read, mut refused) = (0, 0);
    for line in docs.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            refused_section = h.contains("refused");
            continue;
        }
        if !line.starts_with("| `") {
            continue;
        }
        let cells: Vec<String> = line
            .replace("\\|", "\u{1}")
            .split('|')
            .map(|c| c.trim().replace('\u{1}', "|"))
            .filter(|c| !c.is_empty())
            .collect();
        let code = |c: &str| {
            c.strip_prefix('`')
                .and_then(|c| c.strip_suffix('`'))
                .map(str::to_string)
        };
        let english = code(&cells[0]).expect("a pattern in the first cell");
        if refused_section {
            assert!(parse(&english).is_err(), "{english:?} should be refused");
            refused += 1;
            continue;
        }
        let p = parse(&english).unwrap_or_else(|e| panic!("{}", e.render(&english)));
        let twin = code(&cells[1]).unwrap_or_else(|| panic!("{english:?}: a symbolic twin"));
        let t = parse_symbolic(&twin).unwrap_or_else(|e| panic!("{}", e.render(&twin)));
        let (a, b) = (
            CompiledPattern::new(&p.formula),
            CompiledPattern::new(&t.formula),
        );
        if let Some(k) = lang_support::disagreement(&a, &b, &on) {
            panic!(
                "{english:?} reads as `{}`, not `{twin}`: on {}",
                symbolic(&p.formula),
                k.to_line()
            );
        }
        read += 1;
    }
    assert!(
        read > 80 && refused > 10,
        "{read} readings, {refused} refusals"
    );
    for v in VOCABULARY {
        assert!(
            docs.contains(&format!("`{}`", v.example)),
            "docs lack {:?}",
            v.example
        );
    }
}

#[test]
fn a_refusal_renders_with_its_reason_hints_and_suggestions() {
    let text = "every piece is next to a large piece";
    let r = read_for(text, PieceSet::Pyramids).expect_err("refused");
    let shown = r.render(text);
    assert!(shown.contains("touches"), "{shown}");
    assert!(
        shown.contains("try: every piece touches a large piece"),
        "{shown}"
    );
    assert_eq!(r.suggestions(), ["every piece touches a large piece"]);
    // The piece set: sizes mean nothing with arrows.
    let r = read_for("there is a large arrow", PieceSet::Arrows).expect_err("arrows");
    assert!(matches!(r, Refusal::WrongSet(..)));
    assert!(
        r.render("there is a large arrow")
            .starts_with("the pattern does not fit the arrows set")
    );
    assert!(read_for("there is a large arrow", PieceSet::Pyramids).is_ok());
}
