//! Pieces, structures (koans), their text notation and their enumeration.
//!
//! A structure is translation-invariant but not rotation- or reflection-invariant;
//! see `../shared/design/koan-language.md` section 1.

pub mod enumerate;
mod notation;
mod piece;
mod structure;

pub use enumerate::Shape;
pub use notation::{CellRef, ParseKoanError};
pub use piece::{Direction, Piece, PieceSet, Size};
pub use structure::{Koan, KoanError, MAX_CELLS, MAX_SIDE, Pos};
