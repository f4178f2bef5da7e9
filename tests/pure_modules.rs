//! The engine is pure: the modules that decide the games (koan, lang, finder, rules,
//! render, narrate, pool) never touch the outside world (no tokio, serenity, poise or
//! sqlx; no std::fs, std::time, std::net, std::thread, std::process, std::env) and
//! never import the layers built on them (store, runtime, bot, play, config), so no
//! module imports a module that imports it back. Read from the source, outside the
//! `#[cfg(test)]` modules.

use std::path::{Path, PathBuf};

const PURE: [&str; 8] = [
    "grid", "koan", "lang", "finder", "rules", "render", "narrate", "pool",
];
const IMPURE_CRATES: [&str; 4] = ["tokio", "serenity", "poise", "sqlx"];
const IMPURE_STD: [&str; 6] = [
    "std::fs",
    "std::time",
    "std::net",
    "std::thread",
    "std::process",
    "std::env",
];
const LAYERS_ABOVE: [&str; 6] = ["store", "runtime", "bot", "play", "config", "cli"];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
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

#[test]
fn pure_modules_import_nothing_impure_and_nothing_above_them() {
    let mut problems = Vec::new();
    for module in PURE {
        let mut paths = Vec::new();
        let dir = Path::new("src").join(module);
        if dir.is_dir() {
            files(&dir, &mut paths);
        }
        let single = Path::new("src").join(format!("{module}.rs"));
        if single.is_file() {
            paths.push(single);
        }
        assert!(!paths.is_empty(), "no source for {module}");
        for path in paths {
            for (n, line) in code(&path) {
                let words: Vec<&str> = line
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .filter(|w| !w.is_empty())
                    .collect();
                for w in &words {
                    let root = w.split("::").next().unwrap_or_default();
                    if IMPURE_CRATES.contains(&root) && w.contains("::") {
                        problems.push(format!("{}:{n}: uses {w}", path.display()));
                    }
                    if IMPURE_STD.iter().any(|s| w.starts_with(s)) {
                        problems.push(format!("{}:{n}: uses {w}", path.display()));
                    }
                    if let Some(rest) = w.strip_prefix("crate::") {
                        let top = rest.split("::").next().unwrap_or_default();
                        if LAYERS_ABOVE.contains(&top) {
                            problems.push(format!("{}:{n}: imports {w}", path.display()));
                        }
                    }
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "pure modules must stay pure:\n{}",
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
