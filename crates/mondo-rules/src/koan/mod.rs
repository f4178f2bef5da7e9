//! Pieces, structures (koans), their text notation and their enumeration.
//!
//! A structure is translation-invariant but not rotation- or reflection-invariant;
//! see docs/notation.md, "What a structure is".

pub mod enumerate;
mod notation;
mod piece;
mod structure;

pub use enumerate::Shape;
pub use notation::{CellRef, ParseKoanError};
pub use piece::{Direction, Piece, PieceSet, Size};
pub use structure::{Koan, KoanError, MAX_CELLS, MAX_SIDE, Pos};
