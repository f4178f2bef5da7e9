//! What every Zendo view shows the same way: guesses as everyone hears them (text and
//! reading only: the hidden pattern's AST never reaches a view).

use super::{Guess, GuessStatus};
use crate::rules::Seat;
use serde::{Deserialize, Serialize};

/// A guess as everyone hears it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuessView {
    /// Its id in the match's log (every read-back has one).
    pub number: u32,
    /// What players call it: its number among the official guesses, or, while it is
    /// read back, the number it will have if made official.
    pub shown: u32,
    pub by: Seat,
    /// As the guesser wrote it.
    pub text: String,
    /// How the umpire read it.
    pub reading: String,
    /// Table structures that contradicted it when it was read.
    pub contradictions: Vec<u32>,
    #[serde(flatten)]
    pub status: GuessStatus,
}

impl GuessView {
    /// The views of a match's guesses, in order.
    pub fn all(guesses: &[Guess]) -> Vec<GuessView> {
        let mut officials = 0;
        guesses
            .iter()
            .map(|g| {
                let shown = g.official.unwrap_or(officials + 1);
                officials = officials.max(g.official.unwrap_or(0));
                GuessView::of(g, shown)
            })
            .collect()
    }

    /// What players call guess `number` (its log id) of `guesses`.
    pub fn shown(guesses: &[GuessView], number: u32) -> u32 {
        guesses
            .iter()
            .find(|g| g.number == number)
            .map_or(number, |g| g.shown)
    }

    fn of(g: &Guess, shown: u32) -> GuessView {
        GuessView {
            number: g.number,
            shown,
            by: g.by,
            text: g.pattern.source.clone(),
            reading: g.reading.clone(),
            contradictions: g.contradictions.clone(),
            status: g.status.clone(),
        }
    }
}
