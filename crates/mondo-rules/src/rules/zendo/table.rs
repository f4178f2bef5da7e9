//! The table: every structure given in a Zendo match (the umpire's initial ones, those
//! players built, the umpire's counterexamples) with its public verdict. "Given
//! before" is checked here, with translation-invariant equality.

use super::Answer;
use crate::koan::{Koan, PieceSet};
use crate::lang::Formula;
use crate::rules::{BySeat, RuleError, Seat};
use serde::{Deserialize, Serialize};

/// How a structure came to be on the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum Origin {
    /// Shown by the umpire at the start.
    Initial,
    /// Built and observed by a player.
    Observed { by: Seat },
    /// Built and challenged by a player; the answers are public once revealed.
    Challenged { by: Seat, answers: BySeat<Answer> },
    /// The umpire's counterexample to a guess.
    Counterexample { guess: u32 },
}

/// A structure on the table with its (public) verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableEntry {
    /// Shown to players as `#number`, counting from 1 in the order given.
    pub number: u32,
    pub koan: Koan,
    pub obeys: bool,
    pub origin: Origin,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Table {
    entries: Vec<TableEntry>,
}

impl Table {
    pub fn entries(&self) -> &[TableEntry] {
        &self.entries
    }

    /// The entry holding this structure (or a translation of it).
    pub fn find(&self, koan: &Koan) -> Option<&TableEntry> {
        self.entries.iter().find(|e| e.koan == *koan)
    }

    pub fn get(&self, number: u32) -> Option<&TableEntry> {
        number
            .checked_sub(1)
            .and_then(|i| self.entries.get(i as usize))
            .filter(|e| e.number == number)
            // A game whose tables share one numbering (Triple: one table per pattern,
            // each holding only the structures graded on it) has gaps.
            .or_else(|| self.entries.iter().find(|e| e.number == number))
    }

    /// Adds a structure and returns its number.
    pub(crate) fn push(&mut self, koan: Koan, obeys: bool, origin: Origin) -> u32 {
        let number = self.entries.len() as u32 + 1;
        self.entries.push(TableEntry {
            number,
            koan,
            obeys,
            origin,
        });
        number
    }

    /// Adds a structure under a number given by the game (Triple numbers its three
    /// pattern tables together).
    pub(crate) fn push_numbered(&mut self, number: u32, koan: Koan, obeys: bool, origin: Origin) {
        self.entries.push(TableEntry {
            number,
            koan,
            obeys,
            origin,
        });
    }

    /// The numbers of the structures on which `guess` disagrees with their verdict:
    /// each one proves the guess wrong.
    pub fn contradictions(&self, guess: &Formula) -> Vec<u32> {
        self.entries
            .iter()
            .filter(|e| crate::lang::evaluate(guess, &e.koan) != e.obeys)
            .map(|e| e.number)
            .collect()
    }

    /// Of the structures numbered `among`, the simplest (fewest pieces, then smallest
    /// bounding box, then the earliest): the one the umpire names.
    pub fn simplest(&self, among: &[u32]) -> Option<&TableEntry> {
        among
            .iter()
            .filter_map(|n| self.get(*n))
            .min_by_key(|e| (e.koan.len(), e.koan.width() * e.koan.height(), e.number))
    }

    /// Whether a player may give this structure: of the match's set and not given
    /// before in this game (initial structures and counterexamples count).
    pub fn check_new(&self, koan: &Koan, set: PieceSet) -> Result<(), RuleError> {
        if koan.set() != set {
            return Err(RuleError::WrongSet { set });
        }
        match self.find(koan) {
            Some(e) => Err(RuleError::AlreadyGiven { number: e.number }),
            None => Ok(()),
        }
    }
}
