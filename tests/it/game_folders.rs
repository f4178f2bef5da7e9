//! A game is its own folders: no file outside them names a game, except the registry.
//!
//! A game's own folders are the files and folders of `src` and `crates` whose path
//! names its game or its family: a folder or a file stem (or a part of one, split at
//! `_`) that is a part of a game's module path in the registry
//! (`crates/mondo-rules/src/registry.rs`, read by `registry.rs` here, so a new game is
//! known by its line): today `zendo`, `duel`, `practice`, `triple`, `classic`,
//! `assembly` or `bluffs`. So `crates/mondo-rules/src/rules/zendo/`,
//! `crates/mondo-rules/src/rules/bluffs/`, `crates/mondo-narrate/src/zendo/triple.rs`,
//! `crates/mondo-discord/src/games/assembly/`, `crates/mondo-play/src/games/zendo/classic.rs`
//! and `crates/mondo-terminal/src/play_zendo_ai.rs`
//! are games' own; Zendo's four modes share the family's folders, with a file or folder
//! per mode. Everything else is shared: it may not name a game. And one game's
//! folders do not reach into another family's (Assembly's into Zendo's, say): what
//! two games share lives in shared code.
//!
//! Naming a game, in code (comments, strings and `#[cfg(test)]` modules aside): a
//! game's kind (`GameKind::Bluffs`), a variant of the runtime's `Any*` enums
//! (`AnyView::ZendoTriple`), a path through a game's module (`rules::zendo`,
//! `games::bluffs::...`), or a game's own type (`DuelMove`, `TripleView`,
//! `BluffsView`, `ZendoEvent`: a name starting with a game's name and going on with a
//! capital).
//!
//! Nor does a shared file read a game's events by their names in the log: a string in
//! its code that is one of a game's own events (`"guess_read"`, `"lobby_closed"`: the
//! variants of the enums tagged `event` in the games' rules folders) fails; what a
//! game's events mean (who made them, what they picture) is said in its own folders,
//! behind a hook the registry dispatches. Names of one word (`"left"`, `"pattern"`)
//! are also plain words, and are not looked for.

use super::module_graph::{Tok, block_end, ident, tokens};
use super::pure_modules::files;
use super::registry;
use std::path::Path;
use std::sync::OnceLock;

/// Words that make a path a game's own (folders, file stems and their parts): the
/// parts of every game's module path in the registry, each with its family (the
/// first part: Zendo's modes are one family, which shares its folders).
fn own_words() -> &'static [(String, String)] {
    static WORDS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut words: Vec<(String, String)> = Vec::new();
        for g in registry::games() {
            for part in &g.path {
                if !words.iter().any(|(w, _)| w == part) {
                    words.push((part.clone(), g.path[0].clone()));
                }
            }
        }
        words
    })
}

/// Whether a word (as written) is one of [`own_words`].
fn is_own(word: &str) -> bool {
    own_words().iter().any(|(w, _)| w == word)
}

/// The game family a word of [`own_words`] (in any case) belongs to.
fn family(word: &str) -> String {
    let word = word.to_ascii_lowercase();
    own_words()
        .iter()
        .find(|(w, _)| *w == word)
        .map_or(word, |(_, fam)| fam.clone())
}

/// The games' kinds (and the variants of the runtime's `Any*` enums), each with its
/// family.
fn kinds() -> &'static [(String, String)] {
    static KINDS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    KINDS.get_or_init(|| {
        registry::games()
            .into_iter()
            .map(|g| (g.kind, g.path[0].clone()))
            .collect()
    })
}

const ANY: [&str; 6] = [
    "AnyMatch",
    "AnySetup",
    "AnyAction",
    "AnyEvent",
    "AnyView",
    "AnyWork",
];

/// How a game's own types start: each word of [`own_words`], capitalised (`Duel`).
fn type_prefixes() -> &'static [String] {
    static PREFIXES: OnceLock<Vec<String>> = OnceLock::new();
    PREFIXES.get_or_init(|| {
        own_words()
            .iter()
            .map(|(w, _)| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().chain(c).collect())
                    .unwrap_or_default()
            })
            .collect()
    })
}

/// The files whose work is to list the games: one line per game.
const REGISTRY: [&str; 1] = [registry::PATH];

/// Files that still name games they may not (a shared file any game; a game's own
/// file another family's), with how many places each: the dispatch the registry does
/// not generate yet. A file may name games in no more places than recorded here, and
/// fails the test once it names none (or is gone), so the list only shrinks as that
/// work lands; nothing new may join it. Lower a count when a file names fewer.
const NAMING_GAMES_FOR_NOW: [(&str, usize); 0] = [];

fn name(p: &Path) -> String {
    p.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether a file is in a game's own folders.
fn own(file: &str) -> bool {
    !families(file).is_empty()
}

/// The game families whose folders hold a file (one, but for a file named after two).
fn families(file: &str) -> Vec<String> {
    let path = file.trim_end_matches(".rs");
    let mut out: Vec<String> = path
        .split('/')
        .flat_map(|part| part.split('_'))
        .filter(|w| is_own(w))
        .map(family)
        .collect();
    out.dedup();
    out
}

/// The tokens of a file without its `#[cfg(test)]` modules.
fn code(text: &str) -> Vec<(Tok, usize)> {
    split_tests(text).0
}

/// Lines of a file, first and last.
type Span = (usize, usize);

/// The tokens of a file without its `#[cfg(test)]` modules, and the lines those
/// modules span (first, last).
fn split_tests(text: &str) -> (Vec<(Tok, usize)>, Vec<Span>) {
    let toks = tokens(text);
    let mut out = Vec::new();
    let mut tests = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let is_test_attr = toks[i].0 == Tok::Pound
            && ident(toks.get(i + 2)) == Some("cfg")
            && ident(toks.get(i + 4)) == Some("test")
            && matches!(toks.get(i + 5).map(|t| &t.0), Some(Tok::Other(')')));
        if is_test_attr {
            // Skip the attribute and, if a module follows, the module.
            let mut j = i + 7;
            while ident(toks.get(j)) == Some("pub")
                || toks.get(j).map(|t| &t.0) == Some(&Tok::Pound)
            {
                j += 1;
            }
            if ident(toks.get(j)) == Some("mod")
                && toks.get(j + 2).map(|t| &t.0) == Some(&Tok::Open)
            {
                let k = block_end(&toks, j + 2);
                let last = toks.get(k).map_or(usize::MAX, |t| t.1);
                tests.push((toks[i].1, last));
                i = k + 1;
                continue;
            }
        }
        out.push(toks[i].clone());
        i += 1;
    }
    (out, tests)
}

/// Where a file names a game: (line, what, the game's family).
fn names_of_games(text: &str) -> Vec<(usize, String, String)> {
    let toks = code(text);
    let mut found = Vec::new();
    let colons = |k: usize| toks.get(k).map(|t| &t.0) == Some(&Tok::Colons);
    for (k, (tok, line)) in toks.iter().enumerate() {
        let Tok::Ident(w) = tok else { continue };
        let before = k >= 2 && colons(k - 1);
        let after = colons(k + 1);
        let prev = if before { ident(toks.get(k - 2)) } else { None };
        let prefix = type_prefixes().iter().find(|p| {
            w.strip_prefix(p.as_str())
                .and_then(|rest| rest.chars().next())
                .is_some_and(|c| c.is_uppercase())
        });
        let kind = kinds().iter().find(|(k, _)| k == w);
        let hit = if let Some((_, fam)) = kind
            && prev.is_some_and(|p| p == "GameKind" || ANY.contains(&p))
        {
            Some((format!("{}::{w}", prev.unwrap_or_default()), fam.clone()))
        } else if is_own(w) && (before || after) {
            Some((format!("the path through `{w}`"), family(w)))
        } else {
            prefix.map(|p| (format!("the type `{w}`"), family(p)))
        };
        if let Some((what, fam)) = hit {
            found.push((*line, what, fam));
        }
    }
    found
}

/// The files the guards read, every source file of `src` and `crates` but the
/// registry: (its name, the game families whose folders hold it, its text).
fn checked() -> Vec<(String, Vec<String>, String)> {
    let mut paths = Vec::new();
    files(Path::new("src"), &mut paths);
    files(Path::new("crates"), &mut paths);
    paths.sort();
    paths
        .iter()
        .map(|path| (name(path), std::fs::read_to_string(path).unwrap()))
        .filter(|(file, _)| !REGISTRY.contains(&file.as_str()))
        .map(|(file, text)| (file.clone(), families(&file), text))
        .collect()
}

/// Where files name a game they may not: a shared file any game, a game's own file
/// another family's game. By file: (line, what) of each place.
fn naming_games() -> Vec<(String, Vec<(usize, String)>)> {
    let mut out = Vec::new();
    for (file, mine, text) in checked() {
        let found: Vec<(usize, String)> = names_of_games(&text)
            .into_iter()
            .filter(|(_, _, fam)| !mine.contains(fam))
            .map(|(line, what, fam)| {
                if mine.is_empty() {
                    (line, what)
                } else {
                    (line, format!("{what}, of the {fam} family's folders"))
                }
            })
            .collect();
        if !found.is_empty() {
            out.push((file, found));
        }
    }
    out
}

/// What is wrong with the files that name games, against the recorded counts.
fn against(naming: &[(String, Vec<(usize, String)>)], recorded: &[(&str, usize)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (file, found) in naming {
        let (line, what) = &found[0];
        let allowed = recorded
            .iter()
            .find(|(f, _)| f == file)
            .map_or(0, |(_, n)| *n);
        if found.len() > allowed {
            problems.push(format!(
                "{file}:{line} names a game ({what}; {} places in all, {allowed} recorded): a \
                 game's code belongs in its own folders, reached through the registry, and one \
                 game's folders do not reach into another's",
                found.len()
            ));
        }
    }
    for (file, _) in recorded {
        if !naming.iter().any(|(f, _)| f == file) {
            problems.push(format!(
                "{file} names no game it may not now (or is gone): take it off \
                 NAMING_GAMES_FOR_NOW"
            ));
        }
    }
    problems
}

/// The events of every game, as the log names them (`"guess_read"`): the variants of
/// each enum tagged `event` in a game's own rules folders, in snake case, each with
/// its game's family; the events every game shares (`rules::EventKind`, in a shared
/// file: `"paused"`) are no game's.
fn game_events() -> &'static [(String, String)] {
    static EVENTS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    EVENTS.get_or_init(|| {
        let mut paths = Vec::new();
        files(Path::new("crates/mondo-rules/src/rules"), &mut paths);
        paths.sort();
        let (mut games, mut shared) = (Vec::new(), Vec::new());
        for path in &paths {
            let file = name(path);
            let text = std::fs::read_to_string(path).unwrap();
            let fams = families(&file);
            for event in tagged_events(&text) {
                match fams.first() {
                    Some(fam) => games.push((event, fam.clone())),
                    None => shared.push(event),
                }
            }
        }
        games.retain(|(e, _)| !shared.contains(e));
        games.sort();
        games.dedup();
        games
    })
}

/// The variants of each enum of `text` tagged `#[serde(tag = "event", ..)]`, as the
/// log writes them (snake case); an `untagged` variant (another enum's events inside)
/// is not one.
fn tagged_events(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let toks = tokens(text);
    let mut out = Vec::new();
    for (k, (tok, line)) in toks.iter().enumerate() {
        let tagged = matches!(tok, Tok::Ident(w) if w == "tag")
            && lines
                .get(line - 1)
                .is_some_and(|l| l.contains("tag = \"event\""));
        if !tagged {
            continue;
        }
        let Some(open) = (k..toks.len())
            .find(|&j| ident(toks.get(j)) == Some("enum"))
            .and_then(|e| (e..toks.len()).find(|&j| toks[j].0 == Tok::Open))
        else {
            continue;
        };
        let (mut depth, mut prev, mut untagged) = (0usize, None::<Tok>, false);
        for (t, _) in &toks[open..=block_end(&toks, open)] {
            match t {
                Tok::Open | Tok::Other('(' | '[' | '<') => depth += 1,
                Tok::Close | Tok::Other(')' | ']' | '>') => depth = depth.saturating_sub(1),
                Tok::Ident(w) if depth > 1 && w == "untagged" => untagged = true,
                Tok::Ident(w) if depth == 1 => {
                    let starts = matches!(prev, Some(Tok::Open | Tok::Comma | Tok::Other(']')));
                    if starts && w.starts_with(|c: char| c.is_uppercase()) {
                        if !untagged {
                            out.push(snake(w));
                        }
                        untagged = false;
                    }
                }
                _ => {}
            }
            if depth == 1 {
                prev = Some(t.clone());
            }
        }
    }
    out
}

/// `GuessRead` as `guess_read`.
fn snake(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// The string literals of Rust source (`"..."`, not raw ones), each with its line,
/// outside comments.
fn literals(text: &str) -> Vec<(String, usize)> {
    let c: Vec<char> = text.chars().collect();
    let (mut out, mut i, mut line) = (Vec::new(), 0, 1);
    while i < c.len() {
        match c[i] {
            '\n' => line += 1,
            '/' if c.get(i + 1) == Some(&'/') => {
                while i + 1 < c.len() && c[i + 1] != '\n' {
                    i += 1;
                }
            }
            '/' if c.get(i + 1) == Some(&'*') => {
                while i + 1 < c.len() && !(c[i] == '*' && c[i + 1] == '/') {
                    line += usize::from(c[i] == '\n');
                    i += 1;
                }
                i += 1;
            }
            // A char literal ('"', '\''); a lifetime has no closing quote.
            '\'' if c.get(i + 1) == Some(&'\\') => i += 3,
            '\'' if c.get(i + 2) == Some(&'\'') => i += 2,
            '"' => {
                let (start, mut s) = (line, String::new());
                i += 1;
                while i < c.len() && c[i] != '"' {
                    if c[i] == '\\' {
                        s.push(c[i]);
                        i += 1;
                    }
                    line += usize::from(c.get(i) == Some(&'\n'));
                    s.extend(c.get(i));
                    i += 1;
                }
                out.push((s, start));
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Where a file's code (its `#[cfg(test)]` modules aside) holds a game's event name as
/// a string: (line, the name, the families of the games that have that event). Only names of two words or
/// more (`"guess_read"`, `"lobby_closed"`) are looked for: one word (`"left"`,
/// `"pattern"`) is also just a word.
fn names_of_events(text: &str) -> Vec<(usize, String, Vec<String>)> {
    let (_, tests) = split_tests(text);
    literals(text)
        .into_iter()
        .filter(|(_, line)| !tests.iter().any(|&(a, b)| (a..=b).contains(line)))
        .filter_map(|(lit, line)| {
            let fams: Vec<String> = game_events()
                .iter()
                .filter(|(e, _)| *e == lit && e.contains('_'))
                .map(|(_, fam)| fam.clone())
                .collect();
            (!fams.is_empty()).then_some((line, lit, fams))
        })
        .collect()
}

#[test]
fn no_shared_file_reads_a_games_events_by_name() {
    assert!(
        game_events().iter().any(|(e, _)| e == "guess_read")
            && !game_events().iter().any(|(e, _)| e == "paused"),
        "the games' events are not read right: {:?}",
        game_events()
    );
    let mut problems = Vec::new();
    for (file, mine, text) in checked() {
        for (line, event, fams) in names_of_events(&text) {
            if !fams.iter().any(|fam| mine.contains(fam)) {
                let fam = fams.join(" and ");
                problems.push(format!(
                    "{file}:{line} reads the {fam} family's event `{event}` by name: what a \
                     game's events mean is said in its own folders, reached through the \
                     registry (a hook of its own, found from the match's record)"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_event_scan_sees_a_tagged_enum_and_a_name_in_code() {
    let rules = "#[derive(Serialize)]\n#[serde(tag = \"event\", rename_all = \"snake_case\")]\n\
                 pub enum E {\n    /// Doc.\n    GuessRead { by: Seat, n: Vec<u8> },\n    \
                 Left(Seat),\n    #[serde(untagged)]\n    Zendo(ZendoEvent),\n    Started,\n}\n\
                 #[serde(tag = \"how\")]\nenum How { Resigned }\n";
    assert_eq!(tagged_events(rules), ["guess_read", "left", "started"]);
    let shared = "fn f(e: &str) -> bool { e == \"guess_read\" } // \"lobby_closed\"\n\
                  const C: char = '\"'; fn g() -> &'static str { \"match_ended\" }\n\
                  #[cfg(test)]\nmod tests { const T: &str = \"turn_ended\"; }\n";
    let found: Vec<(usize, String)> = names_of_events(shared)
        .into_iter()
        .map(|(line, e, _)| (line, e))
        .collect();
    assert_eq!(
        found,
        [
            (1, "guess_read".to_string()),
            (2, "match_ended".to_string())
        ]
    );
}

#[test]
fn no_file_outside_a_games_own_folders_names_a_game() {
    let problems = against(&naming_games(), &NAMING_GAMES_FOR_NOW);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_record_only_shrinks() {
    let naming = vec![
        ("src/a.rs".to_string(), vec![(1, "x".to_string()); 3]),
        ("src/b.rs".to_string(), vec![(2, "y".to_string())]),
    ];
    // As recorded, or fewer: fine.
    assert!(against(&naming, &[("src/a.rs", 3), ("src/b.rs", 1)]).is_empty());
    assert!(against(&naming, &[("src/a.rs", 4), ("src/b.rs", 1)]).is_empty());
    // More than recorded, or not recorded at all: refused.
    let more = against(&naming, &[("src/a.rs", 2), ("src/b.rs", 1)]);
    assert!(
        more.len() == 1 && more[0].starts_with("src/a.rs:1"),
        "{more:?}"
    );
    let new = against(&naming, &[("src/a.rs", 3)]);
    assert!(
        new.len() == 1 && new[0].starts_with("src/b.rs:2"),
        "{new:?}"
    );
    // Recorded but naming none now: take it off.
    let gone = against(
        &naming,
        &[("src/a.rs", 3), ("src/b.rs", 1), ("src/c.rs", 2)],
    );
    assert!(
        gone.len() == 1 && gone[0].starts_with("src/c.rs names no game"),
        "{gone:?}"
    );
}

/// The files that name games they may not, and how often (`cargo test --test it
/// game_folders -- --ignored --nocapture`): the measure of what the registry has yet
/// to generate. Its last lines are [`NAMING_GAMES_FOR_NOW`] as it stands.
#[test]
#[ignore]
fn list_the_shared_files_that_name_games() {
    let naming = naming_games();
    for (file, found) in &naming {
        println!(
            "{file}: {} places (first: line {}, {})",
            found.len(),
            found[0].0,
            found[0].1
        );
    }
    println!("{} files name games they may not", naming.len());
    for (file, found) in &naming {
        println!("    (\"{file}\", {}),", found.len());
    }
}

#[test]
fn the_scan_sees_each_way_of_naming_a_game() {
    let text = "use crate::rules::zendo::Answer; // GameKind::Bluffs\n\
                fn f(v: &AnyView) { if let AnyView::ZendoTriple(t) = v {} }\n\
                fn g() -> Option<DuelMove> { let s = \"GameKind::Assembly\"; None }\n\
                fn h(k: GameKind) -> bool { k == GameKind::Assembly }\n\
                fn fine(duel: u8, common: AnyAction) { let _ = AnyAction::Common; }\n\
                #[cfg(test)]\nmod tests { use crate::rules::bluffs::X; }\n";
    let found = names_of_games(text);
    let lines: Vec<usize> = found.iter().map(|(l, _, _)| *l).collect();
    assert_eq!(lines, vec![1, 2, 3, 4], "{found:?}");
    let fams: Vec<&str> = found.iter().map(|(_, _, f)| f.as_str()).collect();
    assert_eq!(fams, ["zendo", "zendo", "zendo", "assembly"]);
    assert!(own("crates/mondo-discord/src/games/bluffs/controls.rs"));
    assert!(own("crates/mondo-terminal/src/play_zendo_ai.rs"));
    assert!(own("crates/mondo-narrate/src/triple.rs"));
    assert!(!own("crates/mondo-discord/src/kit/data.rs"));
    assert!(!own("crates/mondo-runtime/src/any.rs"));
    // Zendo's modes share the family's folders; another family's are another game's.
    assert_eq!(
        families("crates/mondo-discord/src/games/zendo/triple.rs"),
        ["zendo"]
    );
    assert_eq!(
        families("crates/mondo-rules/src/rules/assembly/view.rs"),
        ["assembly"]
    );
}
