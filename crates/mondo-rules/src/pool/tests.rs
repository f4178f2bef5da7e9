use super::*;
use crate::lang::reference;
use rand::SeedableRng;
use rand::rngs::StdRng;

fn problems(text: &str) -> Vec<PoolError> {
    match Pool::from_toml(text) {
        Ok(pool) => panic!("expected problems, got a pool of {}", pool.len()),
        Err(e) => e.0,
    }
}

/// The problems reported for the entry with this label.
fn of<'a>(errors: &'a [PoolError], entry: &str) -> Vec<&'a PoolProblem> {
    errors
        .iter()
        .filter(|e| e.entry.as_deref() == Some(entry))
        .map(|e| &e.problem)
        .collect()
}

#[test]
fn shipped_pools_load_with_enough_entries_of_every_difficulty() {
    for (set, at_least) in [(PieceSet::Pyramids, 30), (PieceSet::Arrows, 15)] {
        let pool = Pool::shipped(set);
        assert!(pool.len() >= at_least, "{set}: {} entries", pool.len());
        assert_eq!(
            pool.for_set(set).count(),
            pool.len(),
            "{set}: one set per file"
        );
        for d in Difficulty::ALL {
            assert!(
                pool.entries().iter().any(|e| e.difficulty == d),
                "{set} has no {d} pattern"
            );
        }
    }
}

#[test]
fn shipped_entries_are_right_by_the_reference_evaluator() {
    for set in PieceSet::ALL {
        for e in Pool::shipped(set).entries() {
            assert!(lang::word_count(&e.pattern.source) <= MAX_WORDS, "{}", e.id);
            assert_eq!(
                (e.obeys.set(), e.does_not_obey.set()),
                (set, set),
                "{}",
                e.id
            );
            assert!(
                reference::evaluate(&e.pattern.formula, &e.obeys),
                "{}: `obeys` does not",
                e.id
            );
            assert!(
                !reference::evaluate(&e.pattern.formula, &e.does_not_obey),
                "{}: `does_not_obey` does",
                e.id
            );
        }
    }
}

/// A pattern that almost every (or almost no) small structure obeys is no game. Until
/// the finder proves reasonableness, keep each shipped pattern's share of obeying
/// random structures of 1 to 8 pieces within 5-95 %.
#[test]
fn shipped_patterns_are_neither_almost_always_nor_almost_never_true() {
    let mut rng = StdRng::seed_from_u64(3);
    let mut out_of_range = Vec::new();
    for set in PieceSet::ALL {
        for e in Pool::shipped(set).entries() {
            let share = obey_share(&mut rng, &e.compile(), set, 8, 4000);
            if !(0.05..=0.95).contains(&share) {
                out_of_range.push(format!("{} ({set}): {:.1} %", e.id, share * 100.0));
            }
        }
    }
    assert!(out_of_range.is_empty(), "{out_of_range:#?}");
}

#[test]
fn the_shipped_files_on_disk_are_the_embedded_ones() {
    for (name, text) in SHIPPED {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join("config/pools")
            .join(name);
        let on_disk = std::fs::read_to_string(&path).expect("shipped pool file");
        assert_eq!(on_disk, text, "{name}");
    }
}

const GOOD: &str = r#"
set = "pyramids"

[[entry]]
id = "three"
pattern = "there are exactly three pieces"
obeys = """
1^ 2>
.. 3v
"""
does_not_obey = "1^"
difficulty = "Easy"

[[entry]]
id = "up-arrow"
set = "arrows"
pattern = "exists x. up(x)"
obeys = "U / D"
does_not_obey = "L R"
difficulty = "medium"
note = "symbolic is fine too"
"#;

#[test]
fn a_good_pool_loads_with_defaults_and_overrides() {
    let pool = Pool::from_toml(GOOD).expect("a valid pool");
    assert_eq!(pool.len(), 2);
    let three = pool.get("THREE").expect("ids compare without case");
    assert_eq!(three.set, PieceSet::Pyramids);
    assert_eq!(three.difficulty, Difficulty::Easy);
    assert_eq!(three.note, "");
    assert_eq!(three.line, 4);
    assert_eq!(three.pattern.source, "there are exactly three pieces");
    assert_eq!(
        three.obeys.to_line(),
        "1^ 2> / .. 3v",
        "a multi-line structure"
    );
    let arrow = pool.get("up-arrow").expect("second entry");
    assert_eq!(arrow.line, 14);
    assert_eq!(arrow.set, PieceSet::Arrows);
    assert_eq!(arrow.obeys.to_line(), "U / D");
    assert_eq!(arrow.note, "symbolic is fine too");
    assert_eq!(pool.for_set(PieceSet::Arrows).count(), 1);
}

#[test]
fn every_problem_is_reported_with_its_entry() {
    let text = r#"
set = "pyramids"
colour = "red"

[[entry]]
id = "dup"
pattern = "there are exactly three pieces"
obeys = "1^ 2> 3v"
does_not_obey = "1^"
difficulty = "easy"

[[entry]]
id = "DUP"
pattern = "there are exactly two pieces"
obeys = "1^ 2>"
does_not_obey = "1^"
difficulty = "easy"

[[entry]]
id = "unreadable"
pattern = "there are exactly pieces banana"
obeys = "1^"
does_not_obey = "1^ 2^"
difficulty = "easy"

[[entry]]
id = "sizes-in-arrows"
set = "arrows"
pattern = "there is a large arrow"
obeys = "U"
does_not_obey = "D"
difficulty = "easy"

[[entry]]
id = "bad-structures"
pattern = "there is a small piece"
obeys = "1^ 4>"
does_not_obey = "U D"
difficulty = "easy"

[[entry]]
id = "swapped"
pattern = "there is a small piece"
obeys = "2^ 3>"
does_not_obey = "1^"
difficulty = "easy"

[[entry]]
id = "wordy"
pattern = "there is a small piece or there is a large piece pointing up"
obeys = "1^"
does_not_obey = "2^"
difficulty = "impossible"

[[entry]]
pattern = "there is a small piece"
obeys = 3
dificulty = "easy"
"#;
    let errors = problems(text);
    let file: Vec<_> = errors.iter().filter(|e| e.entry.is_none()).collect();
    assert_eq!(file.len(), 1, "{errors:#?}");
    assert!(matches!(&file[0].problem, PoolProblem::UnknownKey { key, .. } if key == "colour"));
    assert_eq!(file[0].line, 3);

    assert!(of(&errors, "entry `dup`").is_empty());
    assert_eq!(
        of(&errors, "entry `DUP`"),
        [&PoolProblem::DuplicateId {
            id: "DUP".into(),
            first_line: 6
        }]
    );
    match of(&errors, "entry `unreadable`")[..] {
        [PoolProblem::Pattern(rendered)] => {
            assert!(
                rendered.contains("there are exactly pieces banana"),
                "{rendered}"
            );
            assert!(
                rendered.contains('^'),
                "the error points at a word: {rendered}"
            );
        }
        ref other => panic!("{other:?}"),
    }
    assert!(matches!(
        of(&errors, "entry `sizes-in-arrows`")[..],
        [PoolProblem::PatternSet {
            set: PieceSet::Arrows,
            ..
        }]
    ));
    match of(&errors, "entry `bad-structures`")[..] {
        [
            PoolProblem::Koan { key: "obeys", .. },
            PoolProblem::Koan {
                key: "does_not_obey",
                reason,
            },
        ] => assert!(reason.contains("arrows"), "{reason}"),
        ref other => panic!("{other:?}"),
    }
    assert_eq!(
        of(&errors, "entry `swapped`"),
        [&PoolProblem::ObeysFails, &PoolProblem::DoesNotObeyHolds]
    );
    let wordy = of(&errors, "entry `wordy`");
    assert!(wordy.contains(&&PoolProblem::TooManyWords(13)), "{wordy:?}");
    assert!(wordy.contains(&&PoolProblem::UnknownDifficulty("impossible".into())));

    let last = of(&errors, "entry 8");
    for missing in ["id", "does_not_obey", "difficulty"] {
        assert!(
            last.contains(&&PoolProblem::Missing(missing)),
            "{missing}: {last:?}"
        );
    }
    assert!(last.contains(&&PoolProblem::WrongType {
        key: "obeys",
        expected: "a string"
    }));
    assert!(
        last.iter()
            .any(|p| matches!(p, PoolProblem::UnknownKey { key, .. } if key == "dificulty"))
    );

    // In file order, each with a line.
    assert!(errors.windows(2).all(|w| w[0].line <= w[1].line));
    let shown = PoolErrors(errors.clone()).to_string();
    assert!(
        shown.contains("line 13, entry `DUP`: id `DUP` is already used"),
        "{shown}"
    );
    assert!(shown.ends_with(&format!("{} problems", errors.len())));
}

#[test]
fn broken_toml_and_empty_pools_are_refused() {
    let errors = problems("set = \"pyramids\"\n[[entry]\nid = 3\n");
    assert!(
        matches!(
            &errors[..],
            [PoolError {
                line: 2,
                entry: None,
                problem: PoolProblem::Toml(_)
            }]
        ),
        "{errors:?}"
    );
    assert_eq!(
        problems("set = \"pyramids\"\n")[0].problem,
        PoolProblem::NoEntries
    );
    let errors = problems("set = \"hexagons\"\n[[entry]]\nid = \"a\"\n");
    assert!(matches!(&errors[0].problem, PoolProblem::BadSet(m) if m.contains("hexagons")));
    // No set anywhere: the entry must name one.
    let errors = problems(
        "[[entry]]\nid = \"a\"\npattern = \"there is a piece\"\nobeys = \"1^\"\n\
         does_not_obey = \"1^\"\ndifficulty = \"easy\"\n",
    );
    assert!(of(&errors, "entry `a`").contains(&&PoolProblem::Missing("set")));
    let errors = problems("[[entry]]\nid = \"a b\"\n");
    assert!(of(&errors, "entry 1").contains(&&PoolProblem::BadId("a b".into())));
}

/// A big pool (8,000 entries, as big as hosts' files get) reads,
/// with every line number right to the end of the file, where the problems are found
/// by a look-up made once for the file rather than by counting from the start each
/// time (`mondo bench pool` gives the time).
#[test]
fn a_big_pool_reads_with_its_line_numbers_right_to_the_end() {
    let mut text = sample::large_pool(8_000);
    let pool = Pool::from_toml(&text).expect("a valid pool");
    assert_eq!(pool.len(), 8_000);
    for (n, entry) in pool.entries().iter().enumerate() {
        assert_eq!(entry.line, 3 + 7 * n, "{}", entry.id);
    }
    let last = 3 + 7 * 8_000;
    text.push_str("[[entry]]\nid = \"E7999\"\npattern = \"some piece\"\ncolour = \"red\"\n");
    let errors = problems(&text);
    let lines: Vec<(usize, String)> = errors
        .iter()
        .map(|e| (e.line, e.problem.to_string()))
        .collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[0].0, last);
    assert!(lines.iter().any(|(at, p)| *at == last + 1
        && p.contains(&format!("already used at line {}", 3 + 7 * 7_998 + 1))));
    assert!(
        lines
            .iter()
            .any(|(at, p)| *at == last + 3 && p.contains("colour"))
    );
}

/// The look-up agrees with counting newlines at every offset, past the end included.
#[test]
fn line_starts_agree_with_counting_newlines() {
    let text = "a\n\nbc\r\nd\n";
    let lines = LineStarts::new(text);
    for offset in 0..text.len() + 3 {
        let counted = text[..offset.min(text.len())].matches('\n').count() + 1;
        assert_eq!(lines.line_of(offset), counted, "at {offset}");
    }
}

/// The Koans and Patterns rules illustrate with three patterns of their own and say
/// the game's are different: the shipped arrows pool (which Zendo Triple draws from)
/// holds none of them, in any wording.
#[test]
fn the_rulebooks_example_patterns_are_not_in_the_arrows_pool() {
    let examples = [
        "There is at least 1 arrow pointing up.",
        "There are at most 3 arrows.",
        "There are no arrows pointing left.",
    ];
    let pool = Pool::shipped(PieceSet::Arrows);
    for text in examples {
        let example = lang::parse(text).expect("the rulebook's example reads");
        for e in pool.entries() {
            let verdict = crate::finder::compare(
                &example.formula,
                &e.pattern.formula,
                PieceSet::Arrows,
                &[],
                crate::finder::Style::Simple,
                0,
                &crate::finder::Limits::default(),
            );
            assert!(
                matches!(verdict, crate::finder::Verdict::Counterexample(_)),
                "`{}` ({}) is the rulebook's example `{text}`",
                e.pattern.source,
                e.id
            );
        }
    }
}
