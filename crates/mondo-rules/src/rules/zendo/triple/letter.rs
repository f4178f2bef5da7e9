//! The names of the three hidden patterns, and a structure's marks on them.

use serde::{Deserialize, Serialize};

/// The name of one of the three hidden patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Letter {
    A,
    B,
    C,
}

/// A structure's marks on the three patterns: known (`Some`) where graded.
pub type Marks = [Option<bool>; 3];
