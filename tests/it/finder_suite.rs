//! The benchmark workload reads, and the finder gives every case its known answer.

use mondo::finder::{self, Limits, Style, Verdict, suite};

#[test]
fn every_case_reads_and_is_answered_as_labelled() {
    let cases = suite::cases().unwrap_or_else(|e| panic!("{e}"));
    assert!(cases.len() >= 100, "{} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let v = finder::compare(
            &case.hidden.formula,
            &case.guess.formula,
            case.set,
            &[],
            Style::Simple,
            0,
            &Limits::default(),
        );
        let ok = match (&v, case.wrong) {
            (Verdict::Equivalent, None) => true,
            (Verdict::Counterexample(_), Some(0)) => true,
            (Verdict::Counterexample(cx), Some(n)) => cx.koan.len() == n,
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "{}: {} vs {}: {v:?}",
                case.name, case.hidden.source, case.guess.source
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The hard set reads, is large enough, and holds the two guesses that once took
/// seconds and minutes (the
/// four-variable pointing chain against `some piece points up`, and the five-variable
/// touching cycle). Its verdicts are checked against brute force in
/// `finder_bruteforce.rs`.
#[test]
fn the_hard_set_reads_and_holds_the_guesses_of_the_issue() {
    let cases = suite::hard_cases().unwrap_or_else(|e| panic!("{e}"));
    assert!(cases.len() >= 60, "{} hard cases", cases.len());
    let has = |hidden: &str, guess: &str| {
        cases
            .iter()
            .any(|c| c.hidden.source == hidden && c.guess.source.starts_with(guess))
    };
    assert!(has(
        "some piece points up",
        "exists x y z w. points_at(x,y)"
    ));
    assert!(has(
        "some piece points up",
        "exists a b c d e. touches(a,b)"
    ));
    let right = cases.iter().filter(|c| c.equivalent()).count();
    assert!(
        right >= 30 && cases.len() - right >= 30,
        "{right} right of {}",
        cases.len()
    );
}
