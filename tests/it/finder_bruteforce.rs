//! Minimality and completeness of the finder against brute force: for random pattern
//! pairs (a random pattern against a mutation of itself, or against another random
//! one), the first separating structure in (pieces, area) order among ALL structures of
//! up to 2 pieces (pyramids) or 3 pieces (arrows) must have exactly the finder's
//! (pieces, area); when there is none, the finder's answer must be "equivalent" or a
//! larger counterexample, and an "equivalent" must survive random structures of 1-8
//! pieces. Every counterexample is checked by the evaluator to separate.
//!
//! The bigger sweep (3 pieces for pyramids too, thousands of pairs) is `#[ignore]`d:
//! `cargo test --release --test finder_bruteforce -- --ignored`.

use crate::finder_support;

use finder_support::*;
use mondo::finder::{self, Limits, Style, Verdict};
use mondo::koan::PieceSet;
use mondo::lang::ast::Formula;
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

#[derive(Default, Debug)]
struct Tally {
    pairs: usize,
    equivalent: usize,
    beyond: usize,
    by_pieces: [usize; 4],
}

/// A random pattern and, two times in three, a near relative of it (else another).
fn pair(seed: u64, set: PieceSet) -> (Formula, Formula) {
    let mut make = Gen::new(seed, set);
    let h = make.formula();
    let g = if seed.is_multiple_of(3) {
        make.formula()
    } else {
        make.mutate(&h)
    };
    (h, g)
}

fn check_pair(
    set: PieceSet,
    shapes: &[(Vec<usize>, u32)],
    max: usize,
    h: &Formula,
    g: &Formula,
    tally: &mut Tally,
) {
    let c = finder::compare_detailed(h, g, set, &[], Style::Simple, 0, &Limits::default());
    let brute = first_separating(set, shapes, h, g);
    tally.pairs += 1;
    match (&c.verdict, brute) {
        (Verdict::Counterexample(cx), Some(b)) => {
            assert!(c.minimal);
            assert_ne!(
                mondo::lang::evaluate(h, &cx.koan),
                mondo::lang::evaluate(g, &cx.koan)
            );
            assert_eq!(
                (cx.koan.len(), cx.koan.area()),
                (b.len(), b.area()),
                "finder {:?} vs brute force {:?} for\n{h:?}\n{g:?}",
                cx.koan,
                b
            );
            tally.by_pieces[b.len()] += 1;
        }
        (Verdict::Counterexample(cx), None) => {
            assert_ne!(
                mondo::lang::evaluate(h, &cx.koan),
                mondo::lang::evaluate(g, &cx.koan)
            );
            assert!(cx.koan.len() > max, "brute force missed {:?}", cx.koan);
            tally.beyond += 1;
        }
        (Verdict::Equivalent, None) => {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
            for _ in 0..500 {
                let k = mondo::lang::random::koan(&mut rng, set, 8);
                assert_eq!(
                    mondo::lang::evaluate(h, &k),
                    mondo::lang::evaluate(g, &k),
                    "called equivalent but {k:?} separates\n{h:?}\n{g:?}"
                );
            }
            tally.equivalent += 1;
        }
        (Verdict::Equivalent, Some(b)) => {
            panic!("called equivalent but {b:?} separates\n{h:?}\n{g:?}")
        }
        (Verdict::Undecided { reason }, _) => panic!("undecided ({reason}) for\n{h:?}\n{g:?}"),
    }
}

fn sweep(set: PieceSet, max: usize, seeds: std::ops::Range<u64>) -> Tally {
    let shapes = shapes(max);
    let mut tally = Tally::default();
    for seed in seeds {
        let (h, g) = pair(seed, set);
        check_pair(set, &shapes, max, &h, &g, &mut tally);
    }
    eprintln!("{set}: {tally:?}");
    tally
}

#[test]
fn pyramids_agree_with_brute_force_up_to_two_pieces() {
    let t = sweep(PieceSet::Pyramids, 2, 0..200);
    // The sweep must exercise every outcome, or it proves little.
    assert!(
        t.equivalent > 0 && t.beyond > 0 && t.by_pieces[2] > 0,
        "{t:?}"
    );
}

#[test]
fn arrows_agree_with_brute_force_up_to_three_pieces() {
    let t = sweep(PieceSet::Arrows, 3, 1000..1200);
    assert!(t.equivalent > 0 && t.by_pieces[3] > 0, "{t:?}");
}

#[test]
#[ignore = "long sweep: run with --release -- --ignored"]
fn big_sweep_three_pieces_both_sets() {
    sweep(PieceSet::Arrows, 3, 10_000..13_000);
    sweep(PieceSet::Pyramids, 3, 20_000..20_400);
}

proptest! {
    // A fixed seed: the same 64 pairs in every run, so a failure is seen again by the next
    // run rather than by chance (one random pair in a few thousand is one the finder
    // cannot decide within its budget: `an_undecided_pair_found_by_a_random_run`).
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed_f1de),
        ..ProptestConfig::default()
    })]

    /// Every counterexample separates, in both styles and with a table in the way.
    #[test]
    fn counterexamples_always_separate(seed in any::<u64>(), varied in any::<bool>(), arrows in any::<bool>()) {
        let set = if arrows { PieceSet::Arrows } else { PieceSet::Pyramids };
        let (h, g) = pair(seed, set);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let table: Vec<_> = (0..20).map(|_| mondo::lang::random::koan(&mut rng, set, 8)).collect();
        let style = if varied { Style::Varied } else { Style::Simple };
        let v = finder::compare(&h, &g, set, &table, style, seed, &Limits::default());
        match v {
            Verdict::Counterexample(cx) => {
                prop_assert_eq!(mondo::lang::evaluate(&h, &cx.koan), cx.hidden);
                prop_assert_eq!(mondo::lang::evaluate(&g, &cx.koan), cx.guess);
                prop_assert_ne!(cx.hidden, cx.guess);
                if cx.on_table(&table).is_some() {
                    // Only when nothing off the table separates.
                    let again = finder::compare(&h, &g, set, &[], Style::Simple, 0, &Limits::default());
                    prop_assert!(matches!(again, Verdict::Counterexample(_)));
                }
            }
            Verdict::Equivalent => {
                for k in &table {
                    prop_assert_eq!(mondo::lang::evaluate(&h, k), mondo::lang::evaluate(&g, k));
                }
            }
            Verdict::Undecided { reason } => prop_assert!(false, "undecided: {}", reason),
        }
    }
}

/// A pair a random run of `counterexamples_always_separate` met that the finder left
/// undecided within the default budget (1,000,000 solver conflicts): not a wrong verdict
/// (the umpire says it cannot decide), but one to make decidable.
#[test]
#[ignore = "known limit: the finder leaves this pair undecided within its default budget"]
fn an_undecided_pair_found_by_a_random_run() {
    let seed = 17_078_414_442_153_797_467;
    let set = PieceSet::Pyramids;
    let (h, g) = pair(seed, set);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let table: Vec<_> = (0..20)
        .map(|_| mondo::lang::random::koan(&mut rng, set, 8))
        .collect();
    let v = finder::compare(&h, &g, set, &table, Style::Simple, seed, &Limits::default());
    assert!(
        !matches!(v, Verdict::Undecided { .. }),
        "{h:?} vs {g:?}: {v:?}"
    );
}

/// The hard set (`[[hard]]` in `finder/suite.toml`) against brute force. Every verdict is as
/// labelled, every counterexample separates, and it is the simplest: no structure of
/// fewer pieces, nor of as many pieces in a smaller box, separates the two patterns,
/// checked over every structure of up to 2 pieces (pyramids; every 3-piece one in a
/// smaller box when the answer has 3 pieces) or 3 pieces (arrows). An "equivalent"
/// must have no separating structure among them either. The full sweep of the 2.28
/// million three-piece pyramid structures is the ignored test below.
fn hard_set(three_piece_pyramids: bool) {
    use mondo::lang::CompiledPattern;
    let cases = finder::suite::hard_cases().unwrap_or_else(|e| panic!("{e}"));
    let (two, three) = (shapes(2), shapes(3));
    let mut checked = 0;
    for case in &cases {
        let (h, g) = (&case.hidden.formula, &case.guess.formula);
        let c = finder::compare_detailed(h, g, case.set, &[], Style::Simple, 0, &Limits::default());
        let (ch, cg) = (CompiledPattern::new(h), CompiledPattern::new(g));
        let exhaustive = case.set == PieceSet::Arrows || three_piece_pyramids;
        let brute = if exhaustive {
            first_separating_compiled(case.set, &three, &ch, &cg).0
        } else {
            first_separating_compiled(case.set, &two, &ch, &cg).0
        };
        let name = &case.name;
        match (&c.verdict, case.wrong) {
            (Verdict::Equivalent, None) => {
                assert_eq!(
                    brute, None,
                    "{name}: called equivalent but a structure separates"
                )
            }
            (Verdict::Counterexample(cx), Some(n)) => {
                assert!(c.minimal, "{name}: minimality not proved");
                assert_ne!(ch.evaluate(&cx.koan), cg.evaluate(&cx.koan), "{name}");
                assert!(
                    n == 0 || cx.koan.len() == n,
                    "{name}: {} pieces, labelled {n}",
                    cx.koan.len()
                );
                let got = (cx.koan.len(), cx.koan.area());
                match brute {
                    Some(b) => assert_eq!(
                        got,
                        (b.len(), b.area()),
                        "{name}: finder {:?}, brute force {b:?}",
                        cx.koan
                    ),
                    None if !exhaustive && cx.koan.len() == 3 => {
                        // Nothing of 1 or 2 pieces: every 3-piece structure in a
                        // smaller box must not separate either.
                        let smaller: Vec<_> = three
                            .iter()
                            .filter(|(cells, area)| cells.len() == 3 && *area < cx.koan.area())
                            .cloned()
                            .collect();
                        let (b, _) = first_separating_compiled(case.set, &smaller, &ch, &cg);
                        assert_eq!(b, None, "{name}: a smaller 3-piece structure separates");
                    }
                    None => {
                        let max = if exhaustive { 3 } else { 2 };
                        assert!(
                            cx.koan.len() > max,
                            "{name}: brute force missed {:?}",
                            cx.koan
                        );
                    }
                }
            }
            other => panic!(
                "{name}: {} vs {}: {other:?}",
                case.hidden.source, case.guess.source
            ),
        }
        checked += 1;
    }
    assert!(checked >= 60, "{checked} pairs");
}

#[test]
fn the_hard_set_agrees_with_brute_force() {
    hard_set(false);
}

#[test]
#[ignore = "long sweep: run with --release -- --ignored"]
fn the_hard_set_agrees_with_brute_force_on_every_three_piece_structure() {
    hard_set(true);
}
