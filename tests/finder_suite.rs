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
