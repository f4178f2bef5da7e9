//! The golden phrasings (`tests/data/lang_phrasings.txt`): natural ways players state
//! ordinary rules, each read and evaluated against its symbolic twin on structures
//! that tell readings apart (every structure of one and two pieces, blocks of one
//! piece, random ones up to 36 pieces), never by comparing strings. A `!=` line is a
//! plausible wrong reading: the structures must tell it from the phrasing.
//!
//! `cargo test --test it lang_phrasings -- --nocapture` prints how many read.

use crate::lang_support;

use mondo::lang::{CompiledPattern, parse, parse_symbolic, symbolic};

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/lang_phrasings.txt");

struct Case {
    line: usize,
    phrase: String,
    twin: String,
    wrong: Vec<String>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(PATH).expect("golden phrasings");
    let mut out: Vec<Case> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(wrong) = line.trim_start().strip_prefix("!= ") {
            out.last_mut()
                .expect("a wrong reading follows its phrasing")
                .wrong
                .push(wrong.trim().to_string());
            continue;
        }
        let (phrase, twin) = line
            .split_once("  =>  ")
            .unwrap_or_else(|| panic!("line {}: `phrase  =>  symbolic`", i + 1));
        out.push(Case {
            line: i + 1,
            phrase: phrase.trim().to_string(),
            twin: twin.trim().to_string(),
            wrong: Vec::new(),
        });
    }
    out
}

#[test]
fn every_golden_phrasing_reads_as_its_twin() {
    let cases = cases();
    let on = lang_support::structures(720);
    let mut failures = Vec::new();
    let mut read = 0;
    for c in &cases {
        let twin = parse_symbolic(&c.twin)
            .unwrap_or_else(|e| panic!("line {}: twin: {}", c.line, e.render(&c.twin)));
        let twin = CompiledPattern::new(&twin.formula);
        let p = match parse(&c.phrase) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("line {}: {:?} is refused: {e}", c.line, c.phrase));
                continue;
            }
        };
        read += 1;
        let got = CompiledPattern::new(&p.formula);
        if let Some(k) = lang_support::disagreement(&got, &twin, &on) {
            failures.push(format!(
                "line {}: {:?} read as `{}`, not `{}`: they differ on {}",
                c.line,
                c.phrase,
                symbolic(&p.formula),
                c.twin,
                k.to_line()
            ));
        }
        for w in &c.wrong {
            let wrong =
                parse_symbolic(w).unwrap_or_else(|e| panic!("line {}: {}", c.line, e.render(w)));
            let wrong = CompiledPattern::new(&wrong.formula);
            if lang_support::disagreement(&got, &wrong, &on).is_none() {
                failures.push(format!(
                    "line {}: the structures do not tell {:?} from `{w}`",
                    c.line, c.phrase
                ));
            }
        }
    }
    println!(
        "{read} of {} golden phrasings read ({:.1}%)",
        cases.len(),
        100.0 * read as f64 / cases.len() as f64
    );
    assert!(cases.len() >= 200, "only {} phrasings", cases.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
