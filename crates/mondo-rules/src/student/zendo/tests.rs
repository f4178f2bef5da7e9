use super::duel::{duel, pair};
use super::solo::{SoloOptions, SoloResult, SoloStep, solo};
use super::space::prior;
use super::*;
use crate::rules::zendo::testing::{duel_setup, koan, parsed, practice_setup};

/// A small space: quick to build in a test, and holding the rules the tests hide.
fn small() -> Arc<Space> {
    let sizes = ["small", "medium", "large"].map(|s| {
        [
            format!("there is a {s} piece"),
            format!("every piece is {s}"),
            format!("a {s} piece touches another piece"),
        ]
    });
    let four = ["one", "two", "three", "four"];
    test_space(PieceSet::Pyramids, &four, sizes.concat())
}

/// A narrow space of `set` quick to build in a test: how many pieces there are (up to
/// the last of `counts`), where they point, the `own` sentences, whether the structure
/// is connected and whether all point the same direction.
fn test_space(set: PieceSet, counts: &[&str], own: Vec<String>) -> Arc<Space> {
    let mut sentences: Vec<String> = Vec::new();
    for n in counts {
        sentences.push(format!("there are exactly {n} pieces"));
        sentences.push(format!("there are at least {n} pieces"));
    }
    for d in ["up", "down", "left", "right"] {
        sentences.push(format!("every piece points {d}"));
        sentences.push(format!("a piece points {d}"));
        sentences.push(format!("no piece points {d}"));
        sentences.push(format!("exactly one piece points {d}"));
    }
    sentences.extend(own);
    sentences.push("the structure is connected".into());
    sentences.push("all pieces point the same direction".into());
    Arc::new(Space::from_sentences(set, Breadth::Narrow, &sentences))
}

fn clock() -> impl FnMut() -> u64 {
    let mut t = 0;
    move || {
        t += 1;
        t
    }
}

#[test]
fn equal_meanings_share_a_group_and_different_ones_do_not() {
    let space = Space::from_sentences(
        PieceSet::Pyramids,
        Breadth::Narrow,
        &[
            "a piece points up",
            "there is a piece pointing up",
            "every piece points up",
        ],
    );
    // The first two say the same (kept as two members of one group, or as one when
    // they read back the same); the third differs.
    assert_eq!(space.groups.len(), 2);
    let first = &space.hypotheses[0];
    let last = space.hypotheses.last().unwrap();
    assert_eq!(last.text, "every piece points up");
    assert_ne!(first.group, last.group);
    // The shorter sentence weighs more.
    assert!(prior(4) > prior(6));
}

#[test]
fn every_structure_seen_filters_exactly() {
    let space = small();
    let mut s = Student::new(space.clone(), Level::Expert, 1);
    let k = koan("1^ 2v 3>");
    s.observe(&k, true);
    let before = s.summary().rules;
    assert!(before < space.len(), "a structure rules something out");
    for (i, h) in space.hypotheses.iter().enumerate() {
        let alive = s.misses[i] == 0;
        assert_eq!(alive, h.compiled.evaluate(&k), "{}", h.text);
    }
    // Seeing it again changes nothing.
    s.observe(&k, true);
    assert_eq!(s.summary().rules, before);
}

/// An expert student alone on the small space, practising on `rule` with at most
/// `koans` structures: what came of it, and every step it reported.
fn expert_alone(rule: &str, koans: usize, seed: u64) -> (SoloResult, Vec<SoloStep>) {
    let setup = practice_setup(parsed(rule));
    let options = SoloOptions::new(koans, Level::Expert, seed);
    let mut steps = Vec::new();
    let r = solo(small(), setup, options, &mut clock(), &mut |s| {
        steps.push(s.clone())
    });
    (r.unwrap(), steps)
}

#[test]
fn the_student_solves_a_rule_of_its_space_and_the_umpire_proves_it() {
    let (r, steps) = expert_alone("there are exactly two pieces", 20, 3);
    assert!(r.solved, "{steps:#?}");
    assert!(r.koans <= 20);
    let last = steps.last().unwrap();
    assert!(
        matches!(last, SoloStep::Guess { right: true, .. }),
        "{last:?}"
    );
    // Its belief now predicts the rule.
    for (text, obeys) in [
        ("1^ 1^", true),
        ("2v / 3<", true),
        ("1^", false),
        ("1^ 2< 3v / 1>", false),
    ] {
        assert_eq!(r.student.predict(&koan(text)).obeys, obeys, "{text}");
    }
}

#[test]
fn a_rule_outside_the_space_is_not_solved_and_nothing_breaks() {
    let (r, _) = expert_alone("the total pips is odd", 6, 1);
    assert!(!r.solved);
    assert!(r.koans <= 6);
}

#[test]
fn the_budget_stops_the_weighing_of_candidates() {
    let space = small();
    let mut s = Student::new(space, Level::Expert, 1);
    s.observe(&koan("1^"), true);
    let mut calls = 0;
    let mut now = || {
        calls += 1;
        1_000
    };
    // The deadline has passed: one candidate is weighed, no more.
    let e = s.best_experiment(
        Budget {
            evaluations: u64::MAX,
            deadline: 0,
        },
        &mut now,
    );
    assert!(!s.seen.contains(&e.koan));
    assert_eq!(calls, 1);
}

#[test]
fn two_students_finish_their_duels() {
    let space = small();
    let mut ended = 0;
    for (seed, hidden) in [
        (1, "there are exactly two pieces"),
        (2, "a piece points left"),
        (3, "every piece is small"),
    ] {
        let setup = duel_setup(parsed(hidden));
        let r = duel(
            setup,
            pair(&space, [Level::Expert, Level::Player], seed),
            2_000,
            400,
        )
        .unwrap();
        if r.ended && r.winner.is_some() {
            ended += 1;
        }
    }
    assert_eq!(ended, 3);
}

/// Three students of `levels` in a Classic game on `hidden` (opened with the duel
/// setup's initial structures), each move 2 s of the game clock.
fn students_classic(
    space: &Arc<Space>,
    hidden: &str,
    levels: [Level; 3],
    seed: u64,
    max_moves: usize,
) -> super::classic::ClassicResult {
    let duel = duel_setup(parsed(hidden));
    let setup = crate::rules::zendo::classic::ClassicSetup {
        students: [1, 2, 3].map(crate::rules::PlayerId).to_vec(),
        master: None,
        hidden: duel.hidden,
        initial: duel.initial,
        settings: duel.settings,
        timing: Default::default(),
        seed,
        lobby: None,
    };
    let students = levels
        .iter()
        .enumerate()
        .map(|(i, l)| Student::new(space.clone(), *l, seed + i as u64))
        .collect();
    super::classic::classic(setup, students, 2_000, max_moves).unwrap()
}

#[test]
fn three_students_finish_their_classic_games() {
    let space = small();
    for (seed, hidden) in [(1, "a piece points left"), (2, "every piece is small")] {
        let levels = [Level::Expert, Level::Player, Level::Beginner];
        let r = students_classic(&space, hidden, levels, seed, 600);
        assert!(r.ended && r.winner.is_some(), "`{hidden}`: {r:?}");
        assert_eq!(r.revealed.as_deref(), Some(hidden));
    }
}

/// A small arrows space: quick to build, holding the patterns the Triple tests hide.
fn small_arrows() -> Arc<Space> {
    test_space(PieceSet::Arrows, &["one", "two", "three"], Vec::new())
}

/// A Triple between players 1 and 2 (2 has the advantage) hiding `patterns`, opened
/// by the real opening builder.
fn triple_setup(patterns: [&str; 3], seed: u64) -> crate::rules::zendo::triple::TripleSetup {
    use crate::rules::PlayerId;
    use crate::rules::zendo::triple::{TripleSetup, opening::triple_opening};
    let given: Vec<String> = patterns.iter().map(|p| p.to_string()).collect();
    let pool = crate::pool::Pool::shipped(PieceSet::Arrows);
    let (hidden, opening) =
        triple_opening(&given, &pool, seed, &crate::finder::Limits::default()).unwrap();
    TripleSetup {
        players: [PlayerId(1), PlayerId(2)],
        starter: None,
        advantage: Some(PlayerId(2)),
        hidden: Box::new(hidden),
        opening: Box::new(opening),
        settings: crate::rules::zendo::Settings {
            set: PieceSet::Arrows,
            ..Default::default()
        },
        timing: Default::default(),
        seed,
    }
}

/// Two students of `levels` in a Triple hiding `patterns` (opened with `seed`), each
/// move 2 s of the game clock.
fn students_triple(
    space: &Arc<Space>,
    patterns: [&str; 3],
    levels: [Level; 2],
    seed: u64,
    max_moves: usize,
) -> super::triple::TripleResult {
    let students = super::triple::pair(space, levels, seed);
    let setup = triple_setup(patterns, seed);
    super::triple::triple(setup, students, 2_000, max_moves).unwrap()
}

#[test]
fn two_students_finish_their_triples_by_solving_two_patterns() {
    use crate::rules::zendo::triple::TripleOutcome;
    let space = small_arrows();
    for (seed, patterns, levels) in [
        (
            1,
            [
                "a piece points up",
                "there are at least two pieces",
                "no piece points left",
            ],
            [Level::Expert, Level::Player],
        ),
        (
            2,
            [
                "every piece points down",
                "there are at least two pieces",
                "no piece points left",
            ],
            [Level::Player, Level::Beginner],
        ),
        (
            3,
            [
                "exactly one piece points left",
                "the structure is connected",
                "a piece points up",
            ],
            [Level::Beginner, Level::Expert],
        ),
    ] {
        let r = students_triple(&space, patterns, levels, seed, 800);
        assert!(r.ended, "{patterns:?}: {r:?}");
        let winner = r.winner.expect("someone wins");
        assert_eq!(
            r.outcome,
            Some(TripleOutcome::TwoSolved { by: winner }),
            "{patterns:?}: won by guessing, before the quiz"
        );
        assert!(r.solved.iter().filter(|s| **s == Some(winner)).count() >= 2);
        assert_eq!(r.leaks, 0, "a student saw an unsolved pattern");
    }
}

#[test]
fn the_triple_student_keeps_a_belief_per_pattern_from_that_patterns_marks() {
    use super::triple::TripleStudent;
    use crate::rules::zendo::triple::{Letter, TripleEntry, TripleOrigin};
    let space = small_arrows();
    let mut s = TripleStudent::new(space, Level::Expert, 1);
    let entry = |n, text: &str, marks| TripleEntry {
        number: n,
        koan: Koan::parse_as(text, PieceSet::Arrows).unwrap(),
        marks,
        origin: TripleOrigin::Opening,
    };
    // #1 obeys A and B, not C; #2 is marked on A only (a counterexample).
    s.observe_table(&[
        entry(1, "U", [Some(true), Some(true), Some(false)]),
        entry(2, "D", [Some(false), None, None]),
    ]);
    let up = Koan::parse_as("U", PieceSet::Arrows).unwrap();
    let down = Koan::parse_as("D", PieceSet::Arrows).unwrap();
    assert!(s.student(Letter::A).predict(&up).obeys);
    assert!(!s.student(Letter::C).predict(&up).obeys);
    // Only A was told about #2; B and C know it is on the table (never built again).
    assert_eq!(s.student(Letter::A).seen(), 2);
    assert_eq!(s.student(Letter::B).seen(), 1);
    assert!(s.student(Letter::B).has_seen(&down));
}

#[test]
fn a_rule_beyond_the_grammar_is_believed_as_two_of_its_rules_joined() {
    let space = small();
    let hidden = parsed("a piece points up and there are exactly two pieces");
    assert!(
        !space.hypotheses.iter().any(|h| h.text.contains(" and ")),
        "the small space holds no joined rule"
    );
    let mut s = Student::new(space, Level::Expert, 1);
    for text in [
        "1^ 2v", "1^", "2v 3<", "1^ 2v 3>", "3< 1^", "2> 2v", "3^ / 1^",
    ] {
        let k = koan(text);
        s.observe(&k, crate::lang::evaluate(&hidden.formula, &k));
    }
    let summary = s.summary();
    assert_eq!(summary.misses, 0, "a joined rule agrees with the table");
    let leader = summary.leader.expect("a rule leads");
    assert!(leader.contains(" and "), "{leader}");
    // The leader reads as a player's guess would.
    crate::lang::read_for(&leader, PieceSet::Pyramids).unwrap();
    for (text, obeys) in [("2^ 1v", true), ("1^ 1^ 2<", false), ("1v 1v", false)] {
        assert_eq!(s.predict(&koan(text)).obeys, obeys, "{text}");
    }
}

/// Two students of `levels` in a Duel on `hidden`, each move 2 s of the game clock.
fn students_duel(
    space: &Arc<Space>,
    hidden: &str,
    levels: [Level; 2],
    seed: u64,
    max_moves: usize,
) -> super::duel::DuelResult {
    duel(
        duel_setup(parsed(hidden)),
        pair(space, levels, seed),
        2_000,
        max_moves,
    )
    .unwrap()
}

#[test]
fn duels_and_triples_on_rules_beyond_the_grammar_end() {
    let space = small();
    for (seed, hidden) in [
        (1, "a piece points up and there are exactly two pieces"),
        (2, "every piece is small or there are at least three pieces"),
    ] {
        let r = students_duel(&space, hidden, [Level::Expert, Level::Player], seed, 300);
        assert!(r.ended && r.winner.is_some(), "`{hidden}`: {r:?}");
    }
    // Two of the three patterns beyond the grammar: the match is won by guessing.
    let patterns = [
        "a piece points up and a piece points down",
        "no piece points left or every piece points up",
        "there are at least two pieces",
    ];
    let levels = [Level::Expert, Level::Player];
    let r = students_triple(&small_arrows(), patterns, levels, 4, 800);
    assert!(r.ended, "{r:?}");
    assert!(r.turns <= 60, "{r:?}");
    assert_eq!(
        r.outcome,
        Some(crate::rules::zendo::triple::TripleOutcome::TwoSolved {
            by: r.winner.expect("someone wins")
        }),
        "{r:?}"
    );
}

/// Two students in a Duel on a rule neither can say, not even as two of its rules
/// joined: once lost they build no more, and the duel's own limits end the match (it
/// used to run past 1,400 turns, every structure telling them nothing).
#[test]
fn a_duel_between_students_on_a_rule_they_cannot_say_ends() {
    let space = small();
    for (seed, hidden) in [
        (1, "the total pips is odd"),
        (2, "the total pips is at least 5"),
    ] {
        let r = students_duel(&space, hidden, [Level::Expert, Level::Expert], seed, 600);
        assert!(r.ended, "`{hidden}`: {r:?}");
    }
}

/// Students in a Triple and in Classic on rules none can say (not even as two of its
/// rules joined): once lost they build no more, and the game's own limits end it (a
/// Triple nobody plays is abandoned; a Classic game whose students are all skipped
/// ends with no winner), long before the Triple's quiz or the moves allowed here.
#[test]
fn triples_and_classic_games_between_students_on_rules_they_cannot_say_end() {
    let patterns = [
        "the number of arrows is even",
        "the height is more than the width",
        "some arrow points at another arrow",
    ];
    let levels = [Level::Expert, Level::Expert];
    let r = students_triple(&small_arrows(), patterns, levels, 3, 600);
    assert!(r.ended, "{r:?}");
    let space = small();
    for (seed, hidden) in [
        (1, "the total pips is odd"),
        (2, "the total pips is at least 5"),
    ] {
        let levels = [Level::Expert, Level::Player, Level::Expert];
        let r = students_classic(&space, hidden, levels, seed, 900);
        assert!(r.ended, "`{hidden}`: {r:?}");
    }
}

#[test]
fn with_nothing_left_that_agrees_it_still_guesses_its_best_rule_at_the_end() {
    // Neither the space nor two of its rules joined say it.
    let (r, steps) = expert_alone("the total pips is odd", 6, 1);
    assert!(r.student.summary().misses > 0);
    assert_eq!(r.koans, 6);
    // Its structures spent, it guessed the rules that get the fewest wrong.
    let last_koan = steps
        .iter()
        .rposition(|s| matches!(s, SoloStep::Koan { number: 6, .. }))
        .unwrap();
    let after = steps[last_koan..]
        .iter()
        .filter(|s| matches!(s, SoloStep::Guess { .. }))
        .count();
    assert!(after >= 1, "{steps:#?}");
}

/// Structures built on which every rule the builder still believed agreed, and
/// structures built: solving every shipped pool pattern alone (expert, seed 1, 20
/// structures), then in a duel of two experts on each pyramids pattern.
fn useless_over_the_shipped_patterns() -> [(usize, usize); 2] {
    use crate::pool::{Pool, SHIPPED};
    use crate::rules::zendo::opening::{Source, opening};
    let (mut useless, mut built) = (0, 0);
    let (mut duel_useless, mut duel_built) = (0, 0);
    let mut spaces: HashMap<PieceSet, Arc<Space>> = HashMap::new();
    for (_, text) in SHIPPED {
        for entry in Pool::from_toml(text).unwrap().entries() {
            let space = spaces
                .entry(entry.set)
                .or_insert_with(|| Arc::new(Space::build(entry.set, Breadth::Full)))
                .clone();
            let o = opening(
                Source::Pattern(&entry.pattern.source),
                entry.set,
                1,
                &Limits::default(),
            )
            .unwrap();
            let setup = crate::rules::zendo::PracticeSetup {
                player: crate::rules::PlayerId(1),
                hidden: o.hidden.clone(),
                initial: o.initial.clone(),
                settings: crate::rules::zendo::Settings {
                    set: entry.set,
                    ..Default::default()
                },
                seed: 1,
            };
            let options = SoloOptions::new(20, Level::Expert, 1);
            let r = solo(space.clone(), setup, options, &mut clock(), &mut |_| {}).unwrap();
            println!(
                "{:<40} built {:>2} useless {}",
                entry.id, r.koans, r.useless
            );
            useless += r.useless;
            built += r.koans;
            if entry.set == PieceSet::Pyramids {
                let setup = crate::rules::zendo::DuelSetup {
                    players: [crate::rules::PlayerId(1), crate::rules::PlayerId(2)],
                    advantage: crate::rules::PlayerId(2),
                    hidden: o.hidden,
                    initial: o.initial,
                    settings: crate::rules::zendo::Settings::default(),
                    timing: Default::default(),
                    seed: 1,
                };
                let d = duel(setup, pair(&space, [Level::Expert; 2], 1), 5_000, 600).unwrap();
                println!("  duel: built {:>2} useless {}", d.built, d.useless);
                duel_useless += d.useless;
                duel_built += d.built;
            }
        }
    }
    [(useless, built), (duel_useless, duel_built)]
}

/// The figure in docs/ai.md: `cargo test -p mondo-rules --lib useless_structures --
/// --ignored --nocapture`.
#[test]
#[ignore = "solves every shipped pattern with the full spaces (a minute or two)"]
fn useless_structures_are_at_most_5_percent_over_the_shipped_patterns() {
    for (what, (useless, built)) in ["solo", "duels"]
        .into_iter()
        .zip(useless_over_the_shipped_patterns())
    {
        let share = useless as f64 / built.max(1) as f64;
        println!(
            "useless structures ({what}): {useless} of {built} ({:.1} %)",
            100.0 * share
        );
        assert!(share <= 0.05, "{what}: {useless} of {built}");
    }
}

#[test]
fn when_no_candidate_divides_its_rules_the_finder_builds_one_that_does() {
    // Two rules left that differ only on structures of seven pieces: no candidate
    // (a one-step change of a one-piece table, or a random structure of at most six
    // pieces) tells them apart.
    let space = Arc::new(Space::from_sentences(
        PieceSet::Pyramids,
        Breadth::Narrow,
        &[
            "there are at most six pieces",
            "there are at most seven pieces",
        ],
    ));
    let mut s = Student::new(space, Level::Expert, 1);
    s.observe(&koan("1^"), true);
    assert_eq!(s.summary().groups, 2);
    let e = s.best_experiment(Budget::ms(0, 1_000_000), &mut clock());
    let (yes, no) = s.splits(&e.koan);
    assert!(yes > 0 && no > 0, "{e:?} divides nothing");
    assert!(e.from_finder);
}

/// `why`: the rules held after each structure shrink to those that fit the table, the
/// hidden rule among them and leading at the end; a Triple's belief about a pattern
/// hears only the structures marked on it.
#[test]
fn why_tells_the_rules_held_after_each_structure() {
    use super::why::{of_table, of_triple, text};
    use crate::rules::zendo::triple::{TripleEntry, TripleOrigin};
    use crate::rules::zendo::{Origin, TableEntry};
    let hidden = parsed("every piece points up");
    let shown = ["1^", "1v", "1^ 2^", "2^ 3>", "3^ 3^ 1^", "2<"];
    let entries: Vec<TableEntry> = shown
        .iter()
        .zip(1..)
        .map(|(k, number)| {
            let koan = koan(k);
            TableEntry {
                number,
                obeys: crate::lang::evaluate(&hidden.formula, &koan),
                koan,
                origin: Origin::Initial,
            }
        })
        .collect();
    let trails = of_table(small(), Level::Expert, &entries);
    let steps = &trails[0].steps;
    assert_eq!(steps.len(), shown.len());
    assert_eq!(steps[1].koan, koan("1v").to_line());
    assert!(steps[0].groups > steps.last().unwrap().groups, "{steps:#?}");
    for pair in steps.windows(2) {
        assert!(pair[1].rules <= pair[0].rules, "{steps:#?}");
    }
    for s in steps {
        assert_eq!(s.misses, 0);
        assert!(s.hypotheses.len() <= super::why::SHOWN);
        let shares: Vec<f64> = s.hypotheses.iter().map(|h| h.share).collect();
        assert!(shares.windows(2).all(|w| w[0] >= w[1]), "{shares:?}");
        assert!(shares.iter().sum::<f64>() <= 1.0 + 1e-9);
    }
    let last = steps.last().unwrap();
    assert_eq!(
        last.hypotheses[0].rule, "every piece points up",
        "{last:#?}"
    );
    let lines = text("ai-expert", Level::Expert, &trails);
    assert!(lines[0].contains("ai-expert (expert)"), "{lines:?}");
    assert!(
        lines[2].starts_with(&format!("#2 {}  does not obey: ", koan("1v").to_line())),
        "{lines:?}"
    );

    // A Triple: structure 2 is marked on A only, so B's belief never hears of it.
    let triple: Vec<TripleEntry> = entries
        .iter()
        .map(|e| TripleEntry {
            number: e.number,
            koan: e.koan.clone(),
            marks: if e.number == 2 {
                [Some(e.obeys), None, None]
            } else {
                [Some(e.obeys); 3]
            },
            origin: TripleOrigin::Opening,
        })
        .collect();
    let trails = of_triple(small(), Level::Expert, &triple);
    assert_eq!(trails.len(), 3);
    assert_eq!(trails[0].steps, steps.clone());
    let numbers: Vec<u32> = trails[1].steps.iter().map(|s| s.number).collect();
    assert_eq!(numbers, [1, 3, 4, 5, 6]);
    let lines = text("ai-expert", Level::Expert, &trails);
    assert!(lines.contains(&"pattern B:".to_string()), "{lines:?}");
}
