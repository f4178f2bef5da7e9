//! Fuzz findings stay fixed: every fuzz target's body (`mondo::fuzz`) runs here, on
//! stable Rust, over its corpus kept in the repository (`tests/data/fuzz/<target>/`: the
//! seed corpus and every input a fuzz run ever crashed on, copied there from
//! `fuzz/artifacts/<target>/`, which is replayed too when present).

use std::path::Path;

/// The targets `fuzz/Cargo.toml` declares (its `[[bin]]` names).
fn declared_targets() -> Vec<String> {
    let text = std::fs::read_to_string("fuzz/Cargo.toml").unwrap();
    let doc: toml_edit::DocumentMut = text.parse().unwrap();
    doc["bin"]
        .as_array_of_tables()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_fuzz_target_has_its_body_in_the_library() {
    let mut bodies: Vec<&str> = mondo::fuzz::TARGETS.iter().map(|t| t.0).collect();
    bodies.sort();
    let mut declared = declared_targets();
    declared.sort();
    assert_eq!(
        bodies, declared,
        "fuzz/Cargo.toml and mondo::fuzz::TARGETS differ"
    );
    for name in &declared {
        let target = std::fs::read_to_string(format!("fuzz/fuzz_targets/{name}.rs")).unwrap();
        assert!(
            target.contains(&format!("mondo::fuzz::{name}(")),
            "fuzz/fuzz_targets/{name}.rs does not call mondo::fuzz::{name}"
        );
    }
}

#[test]
fn every_fuzz_target_passes_its_corpus() {
    let mut failed = Vec::new();
    for (name, body) in mondo::fuzz::TARGETS {
        let mut inputs = 0;
        for dir in [
            format!("tests/data/fuzz/{name}"),
            format!("fuzz/artifacts/{name}"),
        ] {
            let dir = Path::new(&dir);
            if !dir.exists() {
                continue;
            }
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                let data = std::fs::read(&path).unwrap();
                inputs += 1;
                if std::panic::catch_unwind(|| body(&data)).is_err() {
                    failed.push(path.display().to_string());
                }
            }
        }
        assert!(
            inputs >= 10,
            "tests/data/fuzz/{name} holds {inputs} inputs: keep a seed corpus"
        );
    }
    assert!(failed.is_empty(), "fuzz findings fail again: {failed:#?}");
}
