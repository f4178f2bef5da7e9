//! The finder's commands, run as a player or host would run them.

use serde_json::Value;
use std::process::{Command, Output};

fn mondo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(args)
        .output()
        .expect("the mondo binary runs")
}

fn json(args: &[&str]) -> (Value, i32) {
    let out = mondo(args);
    let text = String::from_utf8(out.stdout).unwrap();
    let value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"));
    (value, out.status.code().unwrap())
}

#[test]
fn counterexample_json_is_the_simplest_structure() {
    let (v, code) = json(&[
        "counterexample",
        "--hidden",
        "there is a small piece, or there are at least 20 pieces",
        "--guess",
        "there is a small piece",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["equivalent"], false);
    assert_eq!(v["pieces"], 20);
    assert_eq!(v["hidden"], true);
    assert_eq!(v["guess"], false);
    // Its notation reads back as a structure with 20 pieces and no small one.
    let koan: mondo::koan::Koan = v["koan"].as_str().unwrap().parse().unwrap();
    assert_eq!((koan.len(), koan.area()), (20, 20));
    assert!(koan.pieces().iter().all(|(_, p)| p.pips() > 1));
}

#[test]
fn rephrasings_are_equivalent_and_exclusions_are_honoured() {
    let (v, code) = json(&[
        "counterexample",
        "--hidden",
        "every piece points up",
        "--guess",
        "forall x. !left(x) & !right(x) & !down(x)",
        "--json",
    ]);
    assert_eq!((v, code), (serde_json::json!({"equivalent": true}), 0));

    let (v, _) = json(&[
        "counterexample",
        "--set",
        "arrows",
        "--hidden",
        "some arrow points up",
        "--guess",
        "some arrow points down",
        "--exclude",
        "U",
        "--exclude",
        "D",
        "--json",
    ]);
    assert_eq!(v["pieces"], 2, "{v}");
    assert!(v.get("on_table").is_none());
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let out = mondo(&[
        "counterexample",
        "--hidden",
        "there is a",
        "--guess",
        "true",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("hidden pattern"));
    let (v, code) = json(&[
        "counterexample",
        "--hidden",
        "true",
        "--guess",
        "true",
        "--exclude",
        "1^ 9v",
        "--json",
    ]);
    assert_eq!(code, 2);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("excluded structure 1"),
        "{v}"
    );
}

#[test]
fn a_tiny_budget_is_reported_as_undecided() {
    let (v, code) = json(&[
        "counterexample",
        "--hidden",
        "the structure is connected",
        "--guess",
        "the number of groups is at most one",
        "--conflicts",
        "0",
        "--json",
    ]);
    assert_eq!(code, 3);
    assert_eq!(v["equivalent"], Value::Null);
    assert!(v["undecided"].as_str().unwrap().contains("budget"));
}

#[test]
fn reasonable_refuses_with_reasons() {
    let (v, code) = json(&["reasonable", "there is a small piece", "--json"]);
    assert_eq!((v["reasonable"].clone(), code), (Value::Bool(true), 0));
    assert_eq!(v["words"], 5);

    let (v, code) = json(&[
        "reasonable",
        "every piece is small or is not small",
        "--json",
    ]);
    assert_eq!(code, 1);
    assert_eq!(v["logic"]["kind"], "tautology");
    let (v, _) = json(&["reasonable", "there are at least 30 pieces", "--json"]);
    assert_eq!(
        v["logic"]["kind"], "contingent",
        "proved possible though never sampled"
    );
    assert!(
        v["refusals"][0]
            .as_str()
            .unwrap()
            .contains("too rarely true")
    );
    let (v, _) = json(&[
        "reasonable",
        "there is a large piece",
        "--set",
        "arrows",
        "--json",
    ]);
    assert!(v["refusals"][0].as_str().unwrap().contains("arrows"), "{v}");
}

#[test]
fn initial_structures_are_the_simplest() {
    let (v, code) = json(&["initial", "there are exactly three pieces", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(v["obeys"], "1^ 1^ 1^");
    assert_eq!(v["does_not_obey"], "1^");
    let (v, code) = json(&["initial", "there are at least 0 pieces", "--json"]);
    assert_eq!(code, 2);
    assert!(v["error"].as_str().unwrap().contains("always true"));
}
