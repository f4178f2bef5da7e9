//! A game is its own folders: no file outside them names a game, except the registry.
//!
//! A game's own folders are the files and folders of `src` whose path names its game
//! or its family: a folder or a file stem (or a part of one, split at `_`) that is
//! `zendo`, `duel`, `practice`, `triple`, `classic`, `assembly` or `bluffs`. So
//! `src/rules/zendo/`, `src/rules/bluffs/`, `src/narrate/triple.rs`,
//! `src/bot/games/assembly/`, `src/play/classic.rs` and `src/cli/bench_assembly.rs`
//! are games' own; Zendo's four modes share the family's folders, with a file or folder
//! per mode. Everything else is shared: it may not name a game.
//!
//! Naming a game, in code (comments, strings and `#[cfg(test)]` modules aside): a
//! game's kind (`GameKind::Bluffs`), a variant of the runtime's `Any*` enums
//! (`AnyView::ZendoTriple`), a path through a game's module (`rules::zendo`,
//! `games::bluffs::...`), or a game's own type (`DuelMove`, `TripleView`,
//! `BluffsView`, `ZendoEvent`: a name starting with a game's name and going on with a
//! capital).

use super::module_graph::{Tok, block_end, ident, tokens};
use super::pure_modules::files;
use std::path::Path;

/// Words that make a path a game's own (folders, file stems and their parts).
const OWN: [&str; 7] = [
    "zendo", "duel", "practice", "triple", "classic", "assembly", "bluffs",
];

/// The games' kinds (and the variants of the runtime's `Any*` enums).
const KINDS: [&str; 6] = [
    "ZendoDuel",
    "ZendoPractice",
    "ZendoTriple",
    "ZendoClassic",
    "Assembly",
    "Bluffs",
];

const ANY: [&str; 6] = [
    "AnyMatch",
    "AnySetup",
    "AnyAction",
    "AnyEvent",
    "AnyView",
    "AnyWork",
];

/// How a game's own types start.
const TYPE_PREFIXES: [&str; 7] = [
    "Zendo", "Duel", "Practice", "Triple", "Classic", "Assembly", "Bluffs",
];

/// The files whose work is to list the games: one line per game.
const REGISTRY: [&str; 1] = ["src/registry.rs"];

/// Shared files that still name games by hand: the dispatch the registry does not
/// generate yet. Each entry fails the test once its file names no game (or is gone),
/// so the list empties as that work lands; nothing new may join it.
const NAMING_GAMES_FOR_NOW: [&str; 13] = [
    // The Discord front's routing, commands and kit: Zendo's button verbs and settings
    // are still the kit's, the commands list and the interactions route by hand.
    "src/bot/commands/host.rs",
    "src/bot/commands/mod.rs",
    "src/bot/interactions.rs",
    "src/bot/kit/data.rs",
    "src/bot/kit/ids.rs",
    "src/bot/kit/mod.rs",
    "src/bot/kit/post.rs",
    "src/bot/mod.rs",
    "src/bot/serve.rs",
    // The command line's own command of one game (`mondo bluffs`).
    "src/cli/mod.rs",
    // Each game's settings section.
    "src/config.rs",
    // Shared words and checks that still know a game.
    "src/narrate/secrets.rs",
    "src/rules/errors.rs",
];

fn name(p: &Path) -> String {
    p.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether a file is in a game's own folders.
fn own(file: &str) -> bool {
    let path = file.trim_end_matches(".rs");
    path.split('/')
        .flat_map(|part| part.split('_'))
        .any(|w| OWN.contains(&w))
}

/// The tokens of a file without its `#[cfg(test)]` modules.
fn code(text: &str) -> Vec<(Tok, usize)> {
    let toks = tokens(text);
    let mut out = Vec::new();
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
                i = k + 1;
                continue;
            }
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

/// Where a file names a game: (line, what).
fn names_of_games(text: &str) -> Vec<(usize, String)> {
    let toks = code(text);
    let mut found = Vec::new();
    let colons = |k: usize| toks.get(k).map(|t| &t.0) == Some(&Tok::Colons);
    for (k, (tok, line)) in toks.iter().enumerate() {
        let Tok::Ident(w) = tok else { continue };
        let before = k >= 2 && colons(k - 1);
        let after = colons(k + 1);
        let prev = if before { ident(toks.get(k - 2)) } else { None };
        let hit = if KINDS.contains(&w.as_str())
            && prev.is_some_and(|p| p == "GameKind" || ANY.contains(&p))
        {
            Some(format!("{}::{w}", prev.unwrap_or_default()))
        } else if OWN.contains(&w.as_str()) && (before || after) {
            Some(format!("the path through `{w}`"))
        } else if TYPE_PREFIXES.iter().any(|p| {
            w.strip_prefix(p)
                .and_then(|rest| rest.chars().next())
                .is_some_and(|c| c.is_uppercase())
        }) {
            Some(format!("the type `{w}`"))
        } else {
            None
        };
        if let Some(h) = hit {
            found.push((*line, h));
        }
    }
    found
}

#[test]
fn no_file_outside_a_games_own_folders_names_a_game() {
    let mut paths = Vec::new();
    files(Path::new("src"), &mut paths);
    paths.sort();
    let mut problems = Vec::new();
    let mut naming = Vec::new();
    for path in &paths {
        let file = name(path);
        if own(&file) || REGISTRY.contains(&file.as_str()) {
            continue;
        }
        let found = names_of_games(&std::fs::read_to_string(path).unwrap());
        if found.is_empty() {
            continue;
        }
        naming.push(file.clone());
        if !NAMING_GAMES_FOR_NOW.contains(&file.as_str()) {
            let (line, what) = &found[0];
            problems.push(format!(
                "{file}:{line} names a game ({what}; {} places in all): a game's code belongs \
                 in its own folders, reached through the registry",
                found.len()
            ));
        }
    }
    for file in NAMING_GAMES_FOR_NOW {
        if !naming.iter().any(|f| f == file) {
            problems.push(format!(
                "{file} names no game now (or is gone): take it off NAMING_GAMES_FOR_NOW"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The shared files that name games, and how often (`cargo test --test it
/// game_folders -- --ignored --nocapture`): the measure of what the registry has yet
/// to generate.
#[test]
#[ignore]
fn list_the_shared_files_that_name_games() {
    let mut paths = Vec::new();
    files(Path::new("src"), &mut paths);
    paths.sort();
    let mut total = 0;
    for path in &paths {
        let file = name(path);
        if own(&file) || REGISTRY.contains(&file.as_str()) {
            continue;
        }
        let found = names_of_games(&std::fs::read_to_string(path).unwrap());
        if !found.is_empty() {
            total += 1;
            println!(
                "{file}: {} places (first: line {}, {})",
                found.len(),
                found[0].0,
                found[0].1
            );
        }
    }
    println!("{total} shared files name games");
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
    let lines: Vec<usize> = found.iter().map(|(l, _)| *l).collect();
    assert_eq!(lines, vec![1, 2, 3, 4], "{found:?}");
    assert!(own("src/bot/games/bluffs/controls.rs"));
    assert!(own("src/cli/bench_assembly.rs"));
    assert!(own("src/narrate/triple.rs"));
    assert!(!own("src/bot/kit/data.rs"));
    assert!(!own("src/runtime/any.rs"));
}
