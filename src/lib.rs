//! Mondo: an umpire for Zendo and other deduction games.
//!
//! Data flows one way: a front (Discord bot, terminal, CLI) drives the match runtime,
//! which applies actions to the pure rules engine, stores the resulting events and then
//! announces them. The pure modules (`koan`, `lang`, `finder`, `rules`, `render`) do no
//! I/O and never read a clock.

pub mod bot;
pub mod config;
pub mod files;
pub mod finder;
pub mod fuzz;
pub mod grid;
pub mod koan;
pub mod lang;
pub mod narrate;
pub mod play;
pub mod pool;
pub mod ratings;
mod registry;
pub mod render;
pub mod rules;
pub mod runtime;
pub mod shards;
pub mod store;
pub mod student;

pub use koan::ParseKoanError;
pub use koan::{Direction, Koan, KoanError, Piece, PieceSet, Pos, Size};
