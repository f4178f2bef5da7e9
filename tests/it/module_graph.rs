//! No import circles: the modules of each crate of the workspace form layers. (Between
//! crates Cargo already forbids circles.)
//!
//! The graph is read from the source, outside `#[cfg(test)]` code. Its nodes are
//! modules, looked at one level of the module tree at a time: under each module, its
//! child modules (a file, or a folder with everything in it) and the module's own file
//! (its items, called `self` below). An edge `a -> b` means code in `a` names a path
//! (`use crate::...`, `use super::...`, a child's name, or such a path written inline)
//! that leads into `b`; re-exports (`pub use`) are followed to where the item lives,
//! and a module's `pub use` lines are its face, not a dependency of its own. Under
//! every module the edges must form no circle: so a file never imports a module that
//! imports it back, and neither does any folder.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type ModPath = Vec<String>;

/// A path named in code, as written, with where it was written.
struct Named {
    /// The module (with inline modules) the code is in.
    from: ModPath,
    segments: Vec<String>,
    /// A `pub use` line: the module's face.
    reexport: bool,
    line: usize,
}

struct Module {
    file: PathBuf,
    children: BTreeSet<String>,
    /// `pub use` names: the name -> the absolute path it stands for.
    exports: BTreeMap<String, ModPath>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Ident(String),
    Colons,
    Open,
    Close,
    Semi,
    Comma,
    Star,
    Pound,
    Other(char),
}

/// The tokens of Rust source that matter for paths, with their lines: comments,
/// strings and char literals are dropped.
pub(crate) fn tokens(text: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if c[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if ch == 'r'
            && (c.get(i + 1) == Some(&'"')
                || (c.get(i + 1) == Some(&'#') && matches!(c.get(i + 2), Some('"') | Some('#'))))
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            j += 1;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '\n' {
                    line += 1;
                }
                if c[j] == '"' && (1..=hashes).all(|k| c.get(j + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
        } else if ch == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                if c.get(i) == Some(&'\n') {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
        } else if ch == '\'' {
            // A char literal ('a', '\n', '\u{..}') or a lifetime ('a).
            if c.get(i + 1) == Some(&'\\') {
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if ch.is_alphanumeric() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(c[start..i].iter().collect()), line));
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push((Tok::Colons, line));
            i += 2;
        } else {
            out.push((
                match ch {
                    '{' => Tok::Open,
                    '}' => Tok::Close,
                    ';' => Tok::Semi,
                    ',' => Tok::Comma,
                    '*' => Tok::Star,
                    '#' => Tok::Pound,
                    o => Tok::Other(o),
                },
                line,
            ));
            i += 1;
        }
    }
    out
}

/// The index of the `}` closing the block that opens at `toks[open]` (or the end).
pub(crate) fn block_end(toks: &[(Tok, usize)], open: usize) -> usize {
    let mut depth = 0;
    let mut k = open;
    while k < toks.len() {
        match toks[k].0 {
            Tok::Open => depth += 1,
            Tok::Close => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
        k += 1;
    }
    k
}

/// The identifier a token is, if it is one.
pub(crate) fn ident(t: Option<&(Tok, usize)>) -> Option<&str> {
    match t {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

/// The paths of a `use` tree starting at `toks[i]`, each with the name it binds
/// (`None` for a glob); returns the index after the tree.
fn use_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    prefix: &[String],
    out: &mut Vec<(ModPath, Option<String>)>,
) -> usize {
    let mut path = prefix.to_vec();
    loop {
        match toks.get(i).map(|t| &t.0) {
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                i += 1;
                if toks.get(i).map(|t| &t.0) == Some(&Tok::Colons) {
                    i += 1;
                    continue;
                }
                // `as name`
                let mut name = path.last().cloned();
                if ident(toks.get(i)) == Some("as") {
                    name = ident(toks.get(i + 1)).map(str::to_string);
                    i += 2;
                }
                if path.last().map(String::as_str) == Some("self") {
                    path.pop();
                    if name.as_deref() == Some("self") {
                        name = path.last().cloned();
                    }
                }
                out.push((path, name));
                return i;
            }
            Some(Tok::Star) => {
                out.push((path, None));
                return i + 1;
            }
            Some(Tok::Open) => {
                i += 1;
                loop {
                    match toks.get(i).map(|t| &t.0) {
                        Some(Tok::Close) => return i + 1,
                        Some(Tok::Comma) => i += 1,
                        None => return i,
                        _ => i = use_tree(toks, i, &path, out),
                    }
                }
            }
            _ => return i + 1,
        }
    }
}

/// Reads a module's file: its child modules (`mod x;` and inline `mod x { }`, both
/// outside `#[cfg(test)]`, and the games' folders a layer declares with
/// `game_modules!()`), its `use` trees and the paths written inline.
fn read_module(
    file: &Path,
    at: &ModPath,
    modules: &mut BTreeMap<ModPath, Module>,
    named: &mut Vec<Named>,
) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let toks = tokens(&text);
    // The folder a `mod x;` here finds `x.rs` or `x/mod.rs` in.
    let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
    let dir = if ["mod", "lib", "main"].contains(&stem.as_str()) {
        file.parent().unwrap().to_path_buf()
    } else {
        file.parent().unwrap().join(&stem)
    };
    modules.entry(at.clone()).or_insert_with(|| Module {
        file: file.to_path_buf(),
        children: BTreeSet::new(),
        exports: BTreeMap::new(),
    });
    // The games' modules, declared from the registry (`game_modules!()`): each folder
    // it names is a child here, read like a `mod x;`.
    let declares_games = toks.windows(4).any(|w| {
        ident(Some(&w[0])) == Some("registry")
            && w[1].0 == Tok::Colons
            && ident(Some(&w[2])) == Some("game_modules")
            && w[3].0 == Tok::Other('!')
    });
    if declares_games {
        for name in super::registry::folders() {
            let mut child = at.clone();
            child.push(name.clone());
            modules.get_mut(at).map(|m| m.children.insert(name.clone()));
            let one = dir.join(format!("{name}.rs"));
            let folder = dir.join(&name).join("mod.rs");
            let f = if one.is_file() { one } else { folder };
            read_module(&f, &child, modules, named);
        }
    }
    // The inline module stack: (path, brace depth it closes at).
    let mut stack: Vec<(ModPath, usize)> = vec![(at.clone(), 0)];
    let mut depth = 0;
    let mut test_attr = false;
    let mut i = 0;
    while i < toks.len() {
        let here = stack.last().unwrap().0.clone();
        match &toks[i].0 {
            Tok::Pound => {
                // #[cfg(test)] (only that exact attribute marks test code here).
                let words: Vec<&str> = toks[i + 1..(i + 8).min(toks.len())]
                    .iter()
                    .filter_map(|t| ident(Some(t)))
                    .take(2)
                    .collect();
                if words == ["cfg", "test"]
                    && matches!(toks.get(i + 6).map(|t| &t.0), Some(Tok::Other(']')))
                {
                    test_attr = true;
                }
                i += 1;
                continue;
            }
            Tok::Open => {
                depth += 1;
                test_attr = false;
            }
            Tok::Close => {
                depth -= 1;
                if stack.len() > 1 && stack.last().unwrap().1 == depth {
                    stack.pop();
                }
            }
            // `mod x;` or `mod x { }` (not a `mod` inside a macro's tokens, such as the
            // registry's `Kind => mod folder::game`).
            Tok::Ident(w)
                if w == "mod"
                    && matches!(
                        toks.get(i + 2).map(|t| &t.0),
                        Some(Tok::Semi) | Some(Tok::Open)
                    ) =>
            {
                let name = ident(toks.get(i + 1)).unwrap_or_default().to_string();
                let opens = toks.get(i + 2).map(|t| &t.0) == Some(&Tok::Open);
                if test_attr {
                    // Test code: skip an inline module whole; do not read its file.
                    test_attr = false;
                    if opens {
                        let j = block_end(&toks, i + 2);
                        i = j + 1;
                    } else {
                        i += 3;
                    }
                    continue;
                }
                let mut child = here.clone();
                child.push(name.clone());
                modules
                    .get_mut(&here)
                    .map(|m| m.children.insert(name.clone()));
                if opens {
                    modules.entry(child.clone()).or_insert_with(|| Module {
                        file: file.to_path_buf(),
                        children: BTreeSet::new(),
                        exports: BTreeMap::new(),
                    });
                    depth += 1;
                    stack.push((child, depth - 1));
                    i += 3;
                    continue;
                }
                if stack.len() == 1 {
                    let one = dir.join(format!("{name}.rs"));
                    let folder = dir.join(&name).join("mod.rs");
                    let f = if one.is_file() { one } else { folder };
                    read_module(&f, &child, modules, named);
                }
                i += 2;
                continue;
            }
            Tok::Ident(w) if w == "use" => {
                let reexport = i > 0
                    && (ident(toks.get(i - 1)) == Some("pub")
                        || matches!(toks.get(i - 1).map(|t| &t.0), Some(Tok::Other(')'))));
                let mut trees = Vec::new();
                let end = use_tree(&toks, i + 1, &[], &mut trees);
                for (segments, name) in trees {
                    if reexport {
                        let m = modules.get_mut(&here).unwrap();
                        if let Some(name) = &name {
                            m.exports.insert(name.clone(), segments.clone());
                        }
                    }
                    named.push(Named {
                        from: here.clone(),
                        segments,
                        reexport,
                        line: toks[i].1,
                    });
                }
                test_attr = false;
                i = end;
                continue;
            }
            // A path written inline: from the crate, `super` or `self`, or from a name
            // in scope (`child::item`, or an item the module re-exports: `Thing::new`).
            // Other names (`std::`, `Self::`, a local enum's variants) resolve to no
            // module here and are dropped in `graph`.
            Tok::Ident(w)
                if toks.get(i + 1).map(|t| &t.0) == Some(&Tok::Colons)
                    && !(i > 0 && toks[i - 1].0 == Tok::Colons)
                    && (w == "crate"
                        || w == "super"
                        || w == "self"
                        || ident(toks.get(i + 2)).is_some()) =>
            {
                let mut segments = vec![w.clone()];
                let mut j = i + 1;
                while toks.get(j).map(|t| &t.0) == Some(&Tok::Colons) {
                    match ident(toks.get(j + 1)) {
                        Some(s) => segments.push(s.to_string()),
                        None => break,
                    }
                    j += 2;
                }
                named.push(Named {
                    from: here.clone(),
                    segments,
                    reexport: false,
                    line: toks[i].1,
                });
                i = j;
                continue;
            }
            Tok::Semi => test_attr = false,
            _ => {}
        }
        i += 1;
    }
}

/// Where a path leads: the module the named item lives in (following re-exports),
/// or `None` for another crate's.
fn resolve(
    modules: &BTreeMap<ModPath, Module>,
    from: &ModPath,
    segments: &[String],
    hops: usize,
) -> Option<ModPath> {
    if hops > 16 {
        return None;
    }
    let mut at: ModPath = match segments.first().map(String::as_str) {
        Some("crate") => vec![],
        Some("super") | Some("self") => from.clone(),
        Some(first)
            if modules
                .get(from)
                .is_some_and(|m| m.children.contains(first)) =>
        {
            from.clone()
        }
        Some(first)
            if modules
                .get(from)
                .is_some_and(|m| m.exports.contains_key(first)) =>
        {
            from.clone()
        }
        _ => return None,
    };
    let mut rest = segments;
    while let Some(s) = rest.first() {
        match s.as_str() {
            "crate" => at.clear(),
            "super" => {
                at.pop();
            }
            "self" => {}
            _ => break,
        }
        rest = &rest[1..];
    }
    for (k, s) in rest.iter().enumerate() {
        let m = modules.get(&at)?;
        if m.children.contains(s) {
            at.push(s.clone());
        } else if let Some(target) = m.exports.get(s) {
            let mut path = target.clone();
            path.extend(rest[k + 1..].iter().cloned());
            // A re-exported crate (`pub(crate) use mondo_rules::rules;`) is another
            // crate's: no module of this one.
            let first = path.first().map_or("", String::as_str);
            let another_crate = !["crate", "super", "self"].contains(&first)
                && !m.children.contains(first)
                && !m.exports.contains_key(first);
            if another_crate {
                return None;
            }
            return resolve(modules, &at, &path, hops + 1).or(Some(at));
        } else {
            break;
        }
    }
    Some(at)
}

/// The module graph of the crate rooted at `root`: under each module, the edges
/// between its children (and `self`), each with an example.
fn graph(root: &Path) -> BTreeMap<ModPath, BTreeMap<(String, String), String>> {
    let mut modules = BTreeMap::new();
    let mut named = Vec::new();
    read_module(root, &vec![], &mut modules, &mut named);
    let mut levels: BTreeMap<ModPath, BTreeMap<(String, String), String>> = BTreeMap::new();
    for n in &named {
        let Some(to) = resolve(&modules, &n.from, &n.segments, 0) else {
            continue;
        };
        let common = n.from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        let level: ModPath = to[..common].to_vec();
        let side = |p: &ModPath| p.get(common).cloned().unwrap_or_else(|| "self".into());
        let (a, b) = (side(&n.from), side(&to));
        if a == b || (a == "self" && n.reexport) {
            continue;
        }
        let file = modules
            .get(&n.from)
            .map(|m| m.file.display().to_string())
            .unwrap_or_default();
        levels
            .entry(level)
            .or_default()
            .entry((a, b))
            .or_insert_with(|| format!("{file}:{} names {}", n.line, n.segments.join("::")));
    }
    levels
}

/// The circles (strongly connected parts of more than one node) of a graph.
fn circles(edges: &BTreeMap<(String, String), String>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.keys().flat_map(|(a, b)| [a, b]).collect();
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for (a, b) in edges.keys() {
                if *a == n && seen.insert(b.clone()) {
                    todo.push(b.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for n in &nodes {
        let part: Vec<String> = nodes
            .iter()
            .filter(|m| reaches[*n].contains(**m) && reaches[*m].contains(*n))
            .map(|m| (*m).clone())
            .collect();
        if part.len() > 1 && !out.contains(&part) {
            out.push(part);
        }
    }
    out
}

fn report(root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    for (level, edges) in graph(root) {
        for part in circles(&edges) {
            let name = if level.is_empty() {
                "crate".to_string()
            } else {
                level.join("::")
            };
            let mut lines = vec![format!(
                "under `{name}`, a circle of {}: {}",
                part.len(),
                part.join(", ")
            )];
            for ((a, b), example) in &edges {
                if part.contains(a) && part.contains(b) {
                    lines.push(format!("    {a} -> {b}: {example}"));
                }
            }
            problems.push(lines.join("\n"));
        }
    }
    problems
}

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let mut found = report(Path::new("src/lib.rs"));
    found.extend(report(Path::new("src/main.rs")));
    for krate in super::pure_modules::members() {
        found.extend(report(&krate.join("src/lib.rs")));
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn the_module_graph_sees_a_circle() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::create_dir_all(p.join("a")).unwrap();
    std::fs::write(
        p.join("lib.rs"),
        "mod a;\nmod b;\npub use b::Thing;\npub(crate) use other::layer as ext;\n\
         fn f() { b::Thing; }\n#[cfg(test)]\nmod tests { use crate::a::x; }\n",
    )
    .unwrap();
    std::fs::write(
        p.join("a/mod.rs"),
        "pub mod x;\npub mod y;\npub use y::Y;\n",
    )
    .unwrap();
    // x -> y only through the re-export; y -> x by a path written inline.
    std::fs::write(
        p.join("a/x.rs"),
        "use super::Y; // use super::z;\npub struct X;\n",
    )
    .unwrap();
    std::fs::write(
        p.join("a/y.rs"),
        "pub struct Y;\nfn f() { let s = \"super::x\"; super::x::X; }\n",
    )
    .unwrap();
    // b names a (through the crate's face), a names nothing of b: no circle there.
    // Nor between the crate's own code, which names b, and b, which names another
    // crate through the crate's alias of it.
    std::fs::write(
        p.join("b.rs"),
        "use crate::a::x::X;\nuse crate::ext::Item;\npub struct Thing;\n",
    )
    .unwrap();
    let found = report(&p.join("lib.rs"));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("under `a`, a circle of 2: x, y"),
        "{}",
        found[0]
    );
    // The crate's own `pub use b::Thing` is its face, not a dependency on b.
    std::fs::write(
        p.join("a/y.rs"),
        "pub struct Y;\nfn f() { crate::Thing; }\n",
    )
    .unwrap();
    let found = report(&p.join("lib.rs"));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("under `crate`, a circle of 2: a, b"),
        "{}",
        found[0]
    );
}

#[test]
fn the_module_graph_sees_paths_written_inline() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::create_dir_all(p.join("c")).unwrap();
    std::fs::write(p.join("lib.rs"), "mod c;\nmod d;\n").unwrap();
    // The module's own file calls its child inline (no `use`); the child takes the
    // module's type back.
    std::fs::write(
        p.join("c/mod.rs"),
        "mod kid;\npub struct T;\nfn f() { kid::g(); Vec::<u8>::new(); }\n",
    )
    .unwrap();
    std::fs::write(p.join("c/kid.rs"), "use super::T;\npub fn g() {}\n").unwrap();
    // Two siblings, each naming the other inline through `super::`.
    std::fs::write(
        p.join("d.rs"),
        "mod e { pub fn x() { super::f::y(); } }\nmod f { pub fn y() { super::e::x(); } }\n",
    )
    .unwrap();
    let found = report(&p.join("lib.rs"));
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found[0].starts_with("under `c`, a circle of 2: kid, self"),
        "{}",
        found[0]
    );
    assert!(found[0].contains("self -> kid"), "{}", found[0]);
    assert!(
        found[1].starts_with("under `d`, a circle of 2: e, f"),
        "{}",
        found[1]
    );
}
