//! What a viewer may not know yet, as each game declares it ([`super::Game::secrets`]).
//!
//! Every game must say its secrets to be playable: the secrecy test
//! (`tests/it/secrecy.rs`) plays every [`super::GameKind`] at random and checks each line
//! the terminal prints and each message the bot posts, against the secrets of whoever
//! may read it (`narrate::secrets` says how the fronts print each kind of secret). A
//! new game is covered by construction: it cannot compile without its secrets, and
//! the test iterates over every kind.

use super::Seat;
use crate::grid::Grid;
use crate::lang::Pattern;
use crate::lang::tiles::{Cell, Colour, Layout};

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
    /// What only this player may hear about their own play: their private answers
    /// (challenges, mondos, quizzes, showdowns), marks, truths, guesses and tiles,
    /// before any of it is revealed.
    Private { seat: Seat },
    /// Words only their author has seen yet: a bluff's subset or statement before it
    /// is shown, a smokescreened statement.
    Words(String),
}

impl Secret {
    /// [`Secret::Private`] of every one of `seats` seats but the viewer's own.
    pub fn others(seats: usize, viewer: Option<Seat>) -> impl Iterator<Item = Secret> {
        (0..seats)
            .map(|i| Seat(i as u8))
            .filter(move |s| Some(*s) != viewer)
            .map(|seat| Secret::Private { seat })
    }
}
