//! Mondo's games as pure rules: what a koan is (`koan`, `grid`), the koan language
//! (`lang`), the finder of koans (`finder`), the shipped pools (`pool`), the games'
//! state machines (`rules`), the umpire's student (`student`) and the ratings
//! (`ratings`), with the list of games every layer expands (`registry`).
//!
//! Nothing here does I/O, reads a clock or runs async: `now` comes in with every
//! request. The crate's `Cargo.toml` lists no tokio, sqlx or serenity, and
//! `tests/it/pure_modules.rs` fails if it ever gains them.

pub mod finder;
pub mod grid;
pub mod koan;
pub mod lang;
pub mod pool;
pub mod ratings;
pub mod registry;
pub mod rules;
pub mod student;
pub mod tournament;

pub use koan::ParseKoanError;
pub use koan::{Direction, Koan, KoanError, Piece, PieceSet, Pos, Size};
