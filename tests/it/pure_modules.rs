//! The engine is pure: the modules that decide the games (koan, lang, finder, rules,
//! render, narrate, pool) never touch the outside world (no tokio, serenity, poise or
//! sqlx; no std::fs, std::time, std::net, std::thread, std::process, std::env) and
//! never import the layers built on them (store, runtime, bot, play, config), so no
//! module imports a module that imports it back. Read from the source, outside the
//! `#[cfg(test)]` modules.
//!
//! And every source file is one a reader can hold: at most [`MAX_LINES`] lines outside
//! its test modules.

use std::path::{Path, PathBuf};

const PURE: [&str; 10] = [
    "grid", "koan", "lang", "finder", "rules", "render", "narrate", "pool", "ratings", "student",
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
