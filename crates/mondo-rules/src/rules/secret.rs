//! What a viewer may not know yet, as each game declares it ([`super::Game::secrets`]),
//! and every printing each kind of secret has by itself ([`Secret::forms`]): the one
//! list of what is secret.
//!
//! Every game must say its secrets to be playable: the secrecy test
//! (`tests/it/secrecy.rs`) plays every [`super::GameKind`] at random and checks each line
//! the terminal prints and each message the bot posts, against the secrets of whoever
//! may read it (`narrate::secrets` adds the fronts' own wording: a player's name
//! beside their points, a line addressed to one player). A new game is covered by
//! construction: it cannot compile without its secrets, and the test iterates over
//! every kind; a new kind of secret must say its forms here (the match is exhaustive).

use super::Seat;
use crate::grid::Grid;
use crate::koan::PieceSet;
use crate::lang::tiles::{Cell, Colour, Layout};
use crate::lang::{self, Pattern};
use crate::pool::Pool;

/// One thing a viewer may not know yet.
#[derive(Clone, Debug)]
pub enum Secret {
    /// The seed that fixes everything random in the match: with the pools the fronts
    /// draw from, it names the hidden patterns, the grid, the layout.
    Seed(u64),
    /// A hidden pattern, in any printing (English, notation, its pool entry).
    Pattern(Box<Pattern>),
    /// Pattern Assembly's grid, outside a reveal.
    Grid(Box<Grid>),
    /// Logical Bluffs' whole layout.
    Layout(Layout),
    /// The colour of one tile the viewer does not know.
    Tile(Cell, Colour),
    /// A player's Reveal Points.
    Points { seat: Seat, points: u32 },
    /// What only this player may hear about their own play, before any of it is
    /// revealed: each of [`Secret::PRIVATE_KEYS`].
    Private { seat: Seat },
    /// Words only their author has seen yet: a bluff's subset or statement before it
    /// is shown, a smokescreened statement.
    Words(String),
}

impl Secret {
    /// What [`Secret::Private`] covers, by the name (the JSON key) a line about one
    /// player gives it: their private answers (to challenges, mondos, quizzes,
    /// showdowns), marks, truths, tiles, Reveal Points (held, gained, lost), how many
    /// were right, the layout they guessed, the grid they were shown.
    pub const PRIVATE_KEYS: &'static [&'static str] = &[
        "answer", "answers", "marks", "truths", "truth", "tiles", "rp", "gained", "right", "lost",
        "layout", "grid",
    ];

    /// [`Secret::Private`] of every one of `seats` seats but the viewer's own.
    pub fn others(seats: usize, viewer: Option<Seat>) -> impl Iterator<Item = Secret> {
        (0..seats)
            .map(|i| Seat(i as u8))
            .filter(move |s| Some(*s) != viewer)
            .map(|seat| Secret::Private { seat })
    }

    /// Every printing this secret has by itself, any one of which gives it away: a
    /// seed's digits, a pattern in every printing ([`pattern_forms`]), a grid's rows
    /// (as text, one line or several, as JSON, row by row), a layout, a tile with its
    /// colour (as text and as JSON). None for what is told only about a player (their
    /// points, their private play) or only in words: the fronts say those.
    pub fn forms(&self) -> Vec<String> {
        match self {
            Secret::Seed(seed) => vec![seed.to_string()],
            Secret::Pattern(p) => pattern_forms(p),
            Secret::Grid(g) => {
                let rows = g.rows();
                let mut forms = vec![g.to_string(), rows.join("/"), rows.join("\n")];
                if let Ok(json) = serde_json::to_string(&rows) {
                    forms.push(json);
                }
                for pair in rows.windows(2) {
                    forms.push(format!("\"{}\",\"{}\"", pair[0], pair[1]));
                }
                for (i, row) in rows.iter().enumerate() {
                    let cells: Vec<String> = row.chars().map(String::from).collect();
                    forms.push(format!("{} {}", row_letter(i), cells.join(" ")));
                }
                forms
            }
            Secret::Layout(layout) => vec![layout.to_string()],
            Secret::Tile(cell, colour) => vec![
                format!("{cell} {}", colour.name()),
                format!("\"{cell}\":\"{}\"", colour.name()),
            ],
            Secret::Points { .. } | Secret::Private { .. } | Secret::Words(_) => Vec::new(),
        }
    }
}

/// A hidden pattern in every printing: English (canonical, natural, per piece set),
/// notation, as written, and the shipped pool entries with that exact text.
pub fn pattern_forms(p: &Pattern) -> Vec<String> {
    let f = &p.formula;
    let mut forms = vec![
        lang::english(f),
        lang::symbolic(f),
        lang::english_for(f, PieceSet::Pyramids),
        lang::english_for(f, PieceSet::Arrows),
        p.source.trim().trim_end_matches('.').to_string(),
    ];
    forms.extend(lang::natural_english(f));
    forms.extend(
        shipped_ids()
            .iter()
            .filter(|(source, _)| source == p.source.trim())
            .map(|(_, id)| id.clone()),
    );
    forms
}

/// Every shipped pool entry's pattern as written, with its id (read once).
fn shipped_ids() -> &'static [(String, String)] {
    static IDS: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    IDS.get_or_init(|| {
        [PieceSet::Pyramids, PieceSet::Arrows]
            .into_iter()
            .flat_map(|set| {
                Pool::shipped(set)
                    .entries()
                    .iter()
                    .map(|e| (e.pattern.source.trim().to_string(), e.id.clone()))
                    .collect::<Vec<_>>()
            })
            .collect()
    })
}

fn row_letter(i: usize) -> char {
    char::from(b'A' + (i % 26) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_is_found_in_each_printing_and_by_its_pool_entry() {
        let pool = Pool::shipped(PieceSet::Pyramids);
        let entry = &pool.entries()[0];
        let forms = Secret::Pattern(Box::new(entry.pattern.clone())).forms();
        let f = &entry.pattern.formula;
        for printing in [lang::english(f), lang::symbolic(f)] {
            assert!(forms.contains(&printing), "{printing} not in {forms:?}");
        }
        assert!(forms.contains(&entry.id), "{} not in {forms:?}", entry.id);
    }

    #[test]
    fn a_tile_and_a_seed_are_found_as_printed() {
        let cell = Cell::all().next().unwrap();
        let colour = Colour::Green;
        let forms = Secret::Tile(cell, colour).forms();
        assert_eq!(
            forms,
            [
                format!("{cell} {}", colour.name()),
                format!("\"{cell}\":\"{}\"", colour.name())
            ]
        );
        assert_eq!(Secret::Seed(123_456_789).forms(), ["123456789"]);
    }

    #[test]
    fn what_is_told_only_about_a_player_has_no_forms_of_its_own() {
        let seat = Seat(1);
        assert!(Secret::Private { seat }.forms().is_empty());
        assert!(Secret::Points { seat, points: 8 }.forms().is_empty());
        assert!(Secret::Words("a red tile".into()).forms().is_empty());
        let others: Vec<_> = Secret::others(3, Some(Seat(0))).collect();
        assert!(matches!(
            others[..],
            [
                Secret::Private { seat: Seat(1) },
                Secret::Private { seat: Seat(2) }
            ]
        ));
    }
}
