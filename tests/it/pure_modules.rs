//! The engine is pure: the crates that decide the games and say them (`PURE`:
//! mondo-rules, mondo-render, mondo-narrate) never touch the outside world. Cargo
//! keeps what they may import: `cargo metadata` must show none of them depending, even
//! through another crate, on tokio, sqlx, serenity or poise, or on the layers built on
//! them (mondo-store, mondo-runtime). What the standard library offers anyone (std::fs,
//! std::time, std::net, std::thread, std::process, std::env) is read from their
//! source, outside the `#[cfg(test)]` modules. (Import circles inside a crate are
//! `module_graph`'s.)
//!
//! The two fronts are kept apart the same way: mondo-discord and mondo-terminal never
//! depend on each other, and what both use (mondo-play) on neither, nor on what only
//! one of them uses (serenity and poise, rustyline): the binary puts them together.
//!
//! And every source file, of the root package and of every crate, is one a reader can
//! hold: at most [`MAX_LINES`] lines outside its test modules.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The pure crates: this list is the one the docs (`docs/architecture.md`) name.
const PURE: [&str; 3] = ["mondo-rules", "mondo-render", "mondo-narrate"];
/// What no pure crate may depend on, directly or through another crate.
const IMPURE_CRATES: [&str; 6] = [
    "tokio",
    "sqlx",
    "serenity",
    "poise",
    "mondo-store",
    "mondo-runtime",
];
/// Each front crate and what it may not depend on, directly or through another crate.
const FRONTS_APART: [(&str, &[&str]); 3] = [
    ("mondo-discord", &["mondo-terminal", "rustyline"]),
    ("mondo-terminal", &["mondo-discord", "serenity", "poise"]),
    (
        "mondo-play",
        &[
            "mondo-discord",
            "mondo-terminal",
            "serenity",
            "poise",
            "rustyline",
        ],
    ),
];
const IMPURE_STD: [&str; 6] = [
    "std::fs",
    "std::time",
    "std::net",
    "std::thread",
    "std::process",
    "std::env",
];

/// The workspace's member crates (`crates/*`), from the workspace's root.
pub(crate) fn members() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir("crates")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    out.sort();
    out
}

pub(crate) fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs")
            // `mod tests;` files are declared under #[cfg(test)].
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// The code of a file outside its test modules (a `#[cfg(test)]` item runs to the
/// end of the file in this code base, where test modules are last) and comments.
fn code(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        out.push((i + 1, line.to_string()));
    }
    out
}

/// The packages each package reaches through normal dependencies (not dev or build
/// ones), by name, from `cargo metadata`'s resolve graph.
fn reached(metadata: &Value, from: &str) -> BTreeSet<String> {
    let names: BTreeMap<&str, &str> = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap()))
        .collect();
    let nodes: BTreeMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["id"].as_str().unwrap(), n))
        .collect();
    let normal = |d: &Value| {
        d["dep_kinds"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k["kind"].is_null())
    };
    let mut seen = BTreeSet::new();
    let mut todo: Vec<&str> = names
        .iter()
        .filter(|(_, n)| **n == from)
        .map(|(id, _)| *id)
        .collect();
    assert!(!todo.is_empty(), "no package {from} in the metadata");
    while let Some(id) = todo.pop() {
        for d in nodes[id]["deps"].as_array().unwrap() {
            let pkg = d["pkg"].as_str().unwrap();
            if normal(d) && seen.insert(names[pkg].to_string()) {
                todo.push(pkg);
            }
        }
    }
    seen
}

/// What each crate of `rules` depends on that it may not.
fn forbidden_dependencies(metadata: &Value, rules: &[(&str, &[&str])]) -> Vec<String> {
    let mut problems = Vec::new();
    for (krate, forbidden) in rules {
        for dep in reached(metadata, krate) {
            if forbidden.contains(&dep.as_str()) {
                problems.push(format!("{krate} depends on {dep}"));
            }
        }
    }
    problems
}

/// What a pure crate depends on that it may not.
fn impure_dependencies(metadata: &Value) -> Vec<String> {
    forbidden_dependencies(metadata, &PURE.map(|k| (k, &IMPURE_CRATES[..])))
}

/// The workspace's `cargo metadata`.
fn metadata() -> Value {
    // This machine's platform only: the dependencies of others (Android's, Windows')
    // are neither built nor downloaded here, and cargo metadata would want them.
    let rustc = std::process::Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc -vV runs");
    let rustc = String::from_utf8_lossy(&rustc.stdout).into_owned();
    let host = rustc
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names its host");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline"])
        .args(["--filter-platform", host])
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn pure_crates_depend_on_nothing_impure() {
    let problems = impure_dependencies(&metadata());
    assert!(
        problems.is_empty(),
        "pure crates must stay pure:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_fronts_depend_on_neither_the_other_nor_its_libraries() {
    let problems = forbidden_dependencies(&metadata(), &FRONTS_APART);
    assert!(
        problems.is_empty(),
        "the fronts must stay apart:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_dependency_check_follows_normal_dependencies_only() {
    let dep =
        |pkg: &str, kind: Value| serde_json::json!({"pkg": pkg, "dep_kinds": [{"kind": kind}]});
    let metadata = serde_json::json!({
        "packages": [
            {"id": "r", "name": "mondo-rules"},
            {"id": "m", "name": "mondo-render"},
            {"id": "n", "name": "mondo-narrate"},
            {"id": "x", "name": "helper"},
            {"id": "t", "name": "tokio"},
            {"id": "s", "name": "sqlx"},
        ],
        "resolve": {"nodes": [
            // Tokio for tests only: fine.
            {"id": "r", "deps": [dep("s", "dev".into())]},
            {"id": "m", "deps": [dep("r", Value::Null)]},
            // Through another crate: found.
            {"id": "n", "deps": [dep("x", Value::Null)]},
            {"id": "x", "deps": [dep("t", Value::Null)]},
            {"id": "t", "deps": []},
            {"id": "s", "deps": []},
        ]},
    });
    assert_eq!(
        impure_dependencies(&metadata),
        ["mondo-narrate depends on tokio"]
    );
    let fronts: [(&str, &[&str]); 2] = [("mondo-render", &["tokio"]), ("helper", &["sqlx"])];
    assert_eq!(
        forbidden_dependencies(&metadata, &fronts),
        Vec::<String>::new()
    );
    assert_eq!(
        forbidden_dependencies(&metadata, &[("mondo-narrate", &["tokio", "sqlx"])]),
        ["mondo-narrate depends on tokio"]
    );
}

#[test]
fn pure_crates_use_no_clock_files_network_threads_processes_or_environment() {
    let mut problems = Vec::new();
    for krate in PURE {
        let mut paths = Vec::new();
        files(&Path::new("crates").join(krate).join("src"), &mut paths);
        assert!(!paths.is_empty(), "no source for {krate}");
        for path in paths {
            for (n, line) in code(&path) {
                let words = line
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .filter(|w| !w.is_empty());
                for w in words {
                    if IMPURE_STD.iter().any(|s| w.starts_with(s)) {
                        problems.push(format!("{}:{n}: uses {w}", path.display()));
                    }
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "pure crates must stay pure:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_checker_sees_what_it_must_refuse() {
    // The scan itself: an impure line in a pure file is found.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.rs");
    std::fs::write(
        &path,
        "use std::time::Instant;\n// use tokio::spawn;\nfn f() {}\n#[cfg(test)]\nmod tests { use tokio::x; }\n",
    )
    .unwrap();
    let lines = code(&path);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].1.contains("std::time"));
}

/// The most lines a source file may have outside its test modules (comments and blank
/// lines count: they are read too).
const MAX_LINES: usize = 1_300;

/// The lines of a file outside its `#[cfg(test)]` modules (inline `mod x { ... }`,
/// which runs to the first closing brace at its own indentation, or `mod x;`, whose
/// file is a `tests.rs` and not read). Other `#[cfg(test)]` items count.
fn non_test_lines(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut count = 0;
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_start().starts_with("#[cfg(test)]") {
            let mut j = i + 1;
            while j < lines.len() && lines[j].trim_start().starts_with("#[") {
                j += 1;
            }
            let item = lines.get(j).map_or("", |l| l.trim());
            let is_mod =
                item.starts_with("mod ") || (item.starts_with("pub") && item.contains(" mod "));
            if is_mod && item.ends_with(';') {
                i = j + 1;
                continue;
            }
            if is_mod && item.ends_with('{') {
                let at = indent(lines[j]);
                let mut k = j + 1;
                while k < lines.len()
                    && !(indent(lines[k]) == at && lines[k].trim_start().starts_with('}'))
                {
                    k += 1;
                }
                i = k + 1;
                continue;
            }
        }
        count += 1;
        i += 1;
    }
    count
}

#[test]
fn no_source_file_is_too_long_to_hold() {
    let mut paths = Vec::new();
    files(Path::new("src"), &mut paths);
    files(Path::new("crates"), &mut paths);
    paths.sort();
    let name = |p: &Path| {
        p.components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/")
    };
    let mut problems = Vec::new();
    for path in &paths {
        let n = non_test_lines(&std::fs::read_to_string(path).unwrap());
        if n > MAX_LINES {
            problems.push(format!(
                "{}: {n} lines outside its test modules (at most {MAX_LINES}): split it by \
                 concern",
                name(path)
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_line_count_leaves_out_test_modules_only() {
    let text = "fn a() {}\n\n#[cfg(test)]\nmod tests;\n// two\n#[cfg(test)]\nfn helper() {}\n\
                mod inner {\n    #[cfg(test)]\n    #[allow(dead_code)]\n    mod tests {\n        \
                fn t() {\n        }\n    }\n    fn b() {}\n}\n#[cfg(test)]\nmod tests {\n    \
                use super::*;\n}\n";
    // Counted: fn a, the blank, the comment, the test helper and its attribute, and
    // mod inner's own three lines (its opening, fn b, its closing brace).
    assert_eq!(non_test_lines(text), 8);
    assert_eq!(non_test_lines("x\ny\n"), 2);
}
