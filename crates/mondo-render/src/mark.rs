//! A structure's verdict as drawn: the white or black stone, and its words.

use std::fmt;
use std::str::FromStr;

/// A verdict: whether a structure obeys the pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// Has the Buddha nature: a white stone.
    Obeys,
    /// Does not: a black stone.
    DoesNot,
}

impl Mark {
    /// The mark of a verdict.
    pub const fn of(obeys: bool) -> Mark {
        if obeys { Mark::Obeys } else { Mark::DoesNot }
    }

    /// The words shown beside the stone on a single picture.
    pub const fn words(self) -> &'static str {
        match self {
            Mark::Obeys => "obeys",
            Mark::DoesNot => "does not obey",
        }
    }

    /// The canonical short name, as accepted by [`Mark::from_str`].
    pub const fn name(self) -> &'static str {
        match self {
            Mark::Obeys => "obeys",
            Mark::DoesNot => "not",
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown verdict word.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown mark `{0}`: expected `obeys` (white stone) or `not` (black stone)")]
pub struct ParseMarkError(pub String);

impl FromStr for Mark {
    type Err = ParseMarkError;

    /// Lenient: the words a player would use for either stone.
    fn from_str(s: &str) -> Result<Mark, ParseMarkError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "obeys" | "obey" | "yes" | "y" | "white" | "true" => Ok(Mark::Obeys),
            "not" | "no" | "n" | "does-not" | "doesnot" | "does not" | "black" | "false" => {
                Ok(Mark::DoesNot)
            }
            _ => Err(ParseMarkError(s.trim().to_string())),
        }
    }
}
