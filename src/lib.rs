//! Mondo: an umpire for Zendo and other deduction games.
//!
//! Data flows one way: a front (Discord bot, terminal, CLI) drives the match runtime,
//! which applies actions to the pure rules engine, stores the resulting events and then
//! announces them. Each layer is a crate of the workspace (see `docs/architecture.md`);
//! this one holds the fuzz targets' bodies and re-exports the layers under their old
//! paths, so `mondo::rules`, `mondo::bot`, `mondo::play` and the rest read as before.

pub mod fuzz;

pub use mondo_discord::{self as bot, metrics};
pub use mondo_narrate as narrate;
pub use mondo_play::{self as play, config, files, shards};
pub use mondo_render as render;
pub use mondo_rules::{
    finder, grid, koan, lang, pool, ratings, registry, rules, student, tournament,
};
pub use mondo_runtime as runtime;
pub use mondo_store as store;

pub use mondo_rules::ParseKoanError;
pub use mondo_rules::{Direction, Koan, KoanError, Piece, PieceSet, Pos, Size};
