//! The games registry (`crates/mondo-rules/src/registry.rs`) as the guard tests read it: each game's
//! kind, its module path, and whether its line declares its folder (`mod`), so the
//! guards know every game, a new one included, without a list of their own.

use super::module_graph::{Tok, ident, tokens};
use mondo::rules::GameKind;

/// One line of the registry.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Registered {
    /// The game's kind (`ZendoDuel`).
    pub kind: String,
    /// Its module path under every layer (`["zendo", "duel"]`).
    pub path: Vec<String>,
    /// Whether the line declares the first part of the path, its folder (`mod`).
    pub declares: bool,
}

/// Where the registry is, from the workspace's root.
pub(crate) const PATH: &str = "crates/mondo-rules/src/registry.rs";

/// The registry's lines, in order.
pub(crate) fn games() -> Vec<Registered> {
    let text = std::fs::read_to_string(PATH).unwrap_or_else(|e| panic!("{PATH}: {e}"));
    parse(&text)
}

/// The folders the registry declares in each layer (`zendo`, `assembly`, ...).
pub(crate) fn folders() -> Vec<String> {
    games()
        .into_iter()
        .filter(|g| g.declares)
        .map(|g| g.path[0].clone())
        .collect()
}

/// The lines `KIND => [mod] path::to::game (...)` of a registry's text (the macro's
/// own patterns, `$kind:ident => ...`, are not lines).
fn parse(text: &str) -> Vec<Registered> {
    let toks = tokens(text);
    let other = |k: usize, c: char| toks.get(k).map(|t| &t.0) == Some(&Tok::Other(c));
    let mut out = Vec::new();
    for k in 0..toks.len() {
        let Tok::Ident(kind) = &toks[k].0 else {
            continue;
        };
        if !(other(k + 1, '=') && other(k + 2, '>'))
            || (k > 0 && (other(k - 1, '$') || other(k - 1, ':')))
        {
            continue;
        }
        let mut j = k + 3;
        let declares = ident(toks.get(j)) == Some("mod");
        if declares {
            j += 1;
        }
        let mut path = Vec::new();
        while let Some(seg) = ident(toks.get(j)) {
            path.push(seg.to_string());
            if toks.get(j + 1).map(|t| &t.0) == Some(&Tok::Colons) {
                j += 2;
            } else {
                j += 1;
                break;
            }
        }
        if !path.is_empty() && other(j, '(') {
            out.push(Registered {
                kind: kind.clone(),
                path,
                declares,
            });
        }
    }
    out
}

#[test]
fn the_registry_as_read_is_the_games_the_crate_knows() {
    let read: Vec<String> = games().into_iter().map(|g| g.kind).collect();
    let known: Vec<String> = GameKind::ALL.iter().map(|k| format!("{k:?}")).collect();
    assert_eq!(read, known, "the guards' reading of {PATH}");
    // Every game's folder is declared by exactly one line.
    let all = games();
    for g in &all {
        let declared = all
            .iter()
            .filter(|o| o.declares && o.path[0] == g.path[0])
            .count();
        assert_eq!(
            declared, 1,
            "{}: its folder `{}` must be declared (marked `mod`) by exactly one registry line",
            g.kind, g.path[0]
        );
    }
}

#[test]
fn the_reading_sees_marked_and_unmarked_lines() {
    let text = "macro_rules! m { ($kind:ident => mod $($path:ident)::+ ($n:literal)) => {};\n\
                () => { x! { A => mod a::one (\"a-one\", \"A\"),\n // B => b (\"no\")\n\
                B => a::two (\"a-two\", \"B\"), C => mod c (\"c\", \"C\"), } } }";
    let read = parse(text);
    let short: Vec<(String, String, bool)> = read
        .iter()
        .map(|g| (g.kind.clone(), g.path.join("::"), g.declares))
        .collect();
    assert_eq!(
        short,
        [
            ("A".to_string(), "a::one".to_string(), true),
            ("B".to_string(), "a::two".to_string(), false),
            ("C".to_string(), "c".to_string(), true),
        ]
    );
}
