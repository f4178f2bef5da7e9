//! The umpire's side of every Zendo match, whatever game runs around it: the secret,
//! the table, the guesses, how a guess is read back and judged, and the work handed
//! to the exact finder. Opaque outside the engine; the games fold their own parts
//! (turns, tickets, clocks) around it.

use super::{
    Guess, GuessStatus, Initial, Origin, Outcome, Settings, Table, Withdrawal, ZendoEvent,
};
use crate::finder::{Counterexample, Limits, Style, Verdict};
use crate::koan::{Koan, PieceSet};
use crate::lang::{Formula, Pattern};
use crate::rules::{FoldError, Ledger, RuleError, Seat, Secret, SetupError};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// What every Zendo match keeps besides its ledger and its game's own state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Core {
    pub(crate) hidden: Pattern,
    pub(crate) settings: Settings,
    pub(crate) seed: u64,
    pub(crate) table: Table,
    pub(crate) guesses: Vec<Guess>,
    pub(crate) outcome: Option<Outcome>,
}

/// What the finder needs to judge an official guess, owned (it moves to a blocking
/// thread).
#[derive(Clone, Debug)]
pub struct VerdictJob {
    pub guess: u32,
    pub hidden: Formula,
    pub guessed: Formula,
    pub set: PieceSet,
    pub style: Style,
    pub seed: u64,
    /// The structures already on the table (a new counterexample is not one of them
    /// unless only tabled ones exist).
    pub table: Vec<Koan>,
}

impl VerdictJob {
    /// The umpire's verdict: the exact finder, which either proves the guess
    /// equivalent to the hidden pattern over every valid structure, or builds the
    /// counterexample the match's style asks for. `stop` is raised by the runtime when
    /// the match must give up (its limit, shutdown); the finder then answers
    /// `Undecided`, which voids the guess.
    pub fn judge(&self, stop: Arc<AtomicBool>) -> Verdict {
        let limits = Limits {
            interrupt: Some(stop),
            ..Limits::default()
        };
        crate::finder::compare(
            &self.hidden,
            &self.guessed,
            self.set,
            &self.table,
            self.style,
            self.seed,
            &limits,
        )
    }
}

impl Core {
    /// What a viewer (in seat `viewer`, if they play) may not know yet of a match this
    /// core umpires among `seats` players: the seed, the hidden pattern and each other
    /// player's private answers; nothing once the match is `over`.
    pub(crate) fn secrets(&self, over: bool, seats: usize, viewer: Option<Seat>) -> Vec<Secret> {
        if over {
            return Vec::new();
        }
        let mut out = vec![
            Secret::Seed(self.seed),
            Secret::Pattern(Box::new(self.hidden.clone())),
        ];
        out.extend(Secret::others(seats, viewer));
        out
    }

    /// Checks the setup common to every Zendo match and lays out the initial table.
    pub(crate) fn new(
        hidden: &Pattern,
        initial: &Initial,
        settings: Settings,
        seed: u64,
    ) -> Result<Core, SetupError> {
        let set = settings.set;
        crate::lang::check_set(hidden, set)
            .map_err(|e| SetupError::HiddenWrongSet(e.to_string()))?;
        for (koan, which) in [(&initial.obeys, "1"), (&initial.does_not, "2")] {
            if koan.set() != set {
                return Err(SetupError::InitialWrongSet { which, set });
            }
        }
        if !crate::lang::evaluate(&hidden.formula, &initial.obeys) {
            return Err(SetupError::ObeyingDoesNot);
        }
        if crate::lang::evaluate(&hidden.formula, &initial.does_not) {
            return Err(SetupError::NotObeyingObeys);
        }
        let mut table = Table::default();
        table.push(initial.obeys.clone(), true, Origin::Initial);
        table.push(initial.does_not.clone(), false, Origin::Initial);
        Ok(Core {
            hidden: hidden.clone(),
            settings,
            seed,
            table,
            guesses: Vec::new(),
            outcome: None,
        })
    }

    /// The match ends this way, and the hidden pattern is revealed with it.
    pub(crate) fn ended(&self, outcome: Outcome) -> ZendoEvent {
        ZendoEvent::MatchEnded {
            outcome,
            pattern: self.hidden.source.clone(),
        }
    }

    pub(crate) fn check_new(&self, koan: &Koan) -> Result<(), RuleError> {
        self.table.check_new(koan, self.settings.set)
    }

    /// The umpire's judgement of a structure.
    pub(crate) fn obeys(&self, koan: &Koan) -> bool {
        crate::lang::evaluate(&self.hidden.formula, koan)
    }

    pub(crate) fn guess(&self, number: u32) -> Option<&Guess> {
        number
            .checked_sub(1)
            .and_then(|i| self.guesses.get(i as usize))
    }

    /// Reads a guess back: the event that states it, with the table structures that
    /// already disprove it. A guess that speaks of what the match's pieces lack (sizes
    /// in the arrows set) is refused, and so is one the umpire could not judge within
    /// its limit: the finder's estimate, a walk over the two patterns made before any
    /// grounding (or even the table's evaluation) starts, so the refusal comes at once
    /// and before the guess is official, with no ticket spent.
    pub(crate) fn read(&self, by: Seat, pattern: &Pattern) -> Result<ZendoEvent, RuleError> {
        crate::lang::check_set(pattern, self.settings.set)
            .map_err(|e| RuleError::PatternSet(e.to_string()))?;
        crate::finder::judgeable(&self.hidden.formula, &pattern.formula, self.settings.set)
            .map_err(|too_hard| RuleError::TooHard(too_hard_message(&too_hard, pattern)))?;
        Ok(ZendoEvent::GuessRead {
            number: self.guesses.len() as u32 + 1,
            by,
            pattern: pattern.clone(),
            reading: crate::lang::english_for(&pattern.formula, self.settings.set),
            contradictions: self.table.contradictions(&pattern.formula),
        })
    }

    /// A pending guess made official: if a structure already on the table separates
    /// it from the hidden pattern, that structure refutes it at once (the simplest
    /// such one), without the finder; otherwise it waits for the finder's verdict.
    pub(crate) fn confirmed(&self, number: u32) -> Vec<ZendoEvent> {
        let mut events = vec![ZendoEvent::GuessConfirmed { number }];
        let refuting = self
            .guess(number)
            .and_then(|g| self.table.simplest(&g.contradictions));
        if let Some(entry) = refuting {
            events.push(ZendoEvent::Refuted {
                number,
                counterexample: Counterexample {
                    koan: entry.koan.clone(),
                    hidden: entry.obeys,
                    guess: !entry.obeys,
                },
                on_table: Some(entry.number),
            });
        }
        events
    }

    /// Judges the umpire's verdict on official guess `number`, checking what can be
    /// checked cheaply: a counterexample must really separate the two patterns, and
    /// "equivalent" is refused while a table structure separates them. The guess is
    /// never called right on anything but an `Equivalent` verdict.
    pub(crate) fn judge(&self, number: u32, verdict: &Verdict) -> Result<ZendoEvent, RuleError> {
        let guess = self.guess(number).ok_or(RuleError::WrongPhase(
            "no guess is waiting for that verdict",
        ))?;
        match verdict {
            Verdict::Equivalent => {
                if let Some(n) = self.table.contradictions(&guess.pattern.formula).first() {
                    return Err(RuleError::BadVerdict(format!(
                        "table structure #{n} separates the guess from the hidden pattern"
                    )));
                }
                Ok(self.ended(Outcome::Solved {
                    by: guess.by,
                    guess: number,
                }))
            }
            Verdict::Counterexample(ce) => {
                if ce.koan.set() != self.settings.set {
                    return Err(RuleError::BadVerdict(format!(
                        "the counterexample is not of the {} set",
                        self.settings.set
                    )));
                }
                let hidden = self.obeys(&ce.koan);
                let guessed = crate::lang::evaluate(&guess.pattern.formula, &ce.koan);
                if hidden == guessed || ce.hidden != hidden || ce.guess != guessed {
                    return Err(RuleError::BadVerdict(format!(
                        "the counterexample does not separate the patterns (hidden: {hidden}, \
                         guess: {guessed}, claimed {} / {})",
                        ce.hidden, ce.guess
                    )));
                }
                Ok(ZendoEvent::Refuted {
                    number,
                    counterexample: ce.clone(),
                    on_table: self.table.find(&ce.koan).map(|e| e.number),
                })
            }
            Verdict::Undecided { reason } => Ok(ZendoEvent::GuessUndecided {
                number,
                reason: reason.clone(),
            }),
        }
    }

    /// What the finder needs for official guess `number`, if there is one.
    pub(crate) fn verdict_job(&self, number: u32) -> Option<VerdictJob> {
        let guess = self.guess(number)?;
        Some(VerdictJob {
            guess: number,
            hidden: self.hidden.formula.clone(),
            guessed: guess.pattern.formula.clone(),
            set: self.settings.set,
            style: self.settings.style,
            seed: finder_seed(self.seed, number),
            table: self
                .table
                .entries()
                .iter()
                .map(|e| e.koan.clone())
                .collect(),
        })
    }

    /// Folds what every Zendo game shares: the table, the guesses and the outcome.
    pub(crate) fn fold(
        &mut self,
        event: &ZendoEvent,
        ledger: &mut Ledger,
    ) -> Result<(), FoldError> {
        match event {
            ZendoEvent::Observed { by, koan, obeys } => {
                if self.table.find(koan).is_some() {
                    return Err(ledger.misfit("the observed structure is already on the table"));
                }
                self.table
                    .push(koan.clone(), *obeys, Origin::Observed { by: *by });
            }
            ZendoEvent::GuessRead {
                number,
                by,
                pattern,
                reading,
                contradictions,
            } => {
                if *number as usize != self.guesses.len() + 1 {
                    return Err(ledger.misfit(format!("guess #{number} is out of sequence")));
                }
                self.guesses.push(Guess {
                    number: *number,
                    by: *by,
                    pattern: pattern.clone(),
                    reading: reading.clone(),
                    contradictions: contradictions.clone(),
                    status: GuessStatus::Pending,
                    official: None,
                });
            }
            ZendoEvent::GuessConfirmed { number } => {
                let ordinal = self.guesses.iter().filter(|g| g.official.is_some()).count();
                self.set_status(*number, GuessStatus::Official, ledger)?;
                if let Some(g) = self.guesses.get_mut(*number as usize - 1) {
                    g.official = Some(ordinal as u32 + 1);
                }
            }
            ZendoEvent::GuessWithdrawn { number, why } => {
                let status = match why {
                    Withdrawal::TakenBack => GuessStatus::TakenBack,
                    Withdrawal::TimeUp => GuessStatus::TimedOut,
                    Withdrawal::Disallowed { .. } => GuessStatus::Disallowed,
                };
                self.set_status(*number, status, ledger)?;
            }
            ZendoEvent::Refuted {
                number,
                counterexample,
                on_table,
            } => {
                let entry = match on_table {
                    Some(n) => match self.table.get(*n) {
                        Some(e) if e.koan == counterexample.koan => *n,
                        _ => return Err(ledger.misfit(format!("table entry #{n} does not match"))),
                    },
                    None => {
                        if self.table.find(&counterexample.koan).is_some() {
                            return Err(ledger.misfit("the counterexample is already on the table"));
                        }
                        self.table.push(
                            counterexample.koan.clone(),
                            counterexample.hidden,
                            Origin::Counterexample { guess: *number },
                        )
                    }
                };
                self.set_status(
                    *number,
                    GuessStatus::Refuted {
                        counterexample: entry,
                    },
                    ledger,
                )?;
            }
            ZendoEvent::GuessUndecided { number, reason } => {
                self.set_status(
                    *number,
                    GuessStatus::Undecided {
                        reason: reason.clone(),
                    },
                    ledger,
                )?;
            }
            ZendoEvent::MatchEnded { outcome, .. } => {
                if let Outcome::Solved { guess, .. } = outcome {
                    self.set_status(*guess, GuessStatus::Correct, ledger)?;
                }
                self.outcome = Some(*outcome);
                ledger.enter();
            }
        }
        Ok(())
    }

    fn set_status(
        &mut self,
        number: u32,
        status: GuessStatus,
        ledger: &Ledger,
    ) -> Result<(), FoldError> {
        match number
            .checked_sub(1)
            .and_then(|i| self.guesses.get_mut(i as usize))
        {
            Some(g) => {
                g.status = status;
                Ok(())
            }
            None => Err(ledger.misfit(format!("there is no guess #{number}"))),
        }
    }
}

/// Why a guess is refused as too hard, pointing at the part of its text that costs
/// most (when the span is of the guess: the estimate may blame the hidden pattern's
/// share, which is never shown).
fn too_hard_message(too_hard: &crate::finder::TooHard, pattern: &Pattern) -> String {
    let part = pattern
        .source
        .get(too_hard.span().clone())
        .filter(|p| !p.trim().is_empty() && p.len() < pattern.source.len());
    match part {
        Some(p) => format!("{too_hard} (it costs most at `{}`)", p.trim()),
        None => too_hard.to_string(),
    }
}

/// The finder's seed for one guess: fixed by the match's seed, different per guess.
/// (splitmix64's finaliser: cheap, and nearby inputs give unrelated outputs.)
pub fn finder_seed(match_seed: u64, guess: u32) -> u64 {
    let mut z = match_seed ^ (guess as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finder_seeds_differ_per_guess_and_repeat_per_match() {
        assert_eq!(finder_seed(7, 1), finder_seed(7, 1));
        assert_ne!(finder_seed(7, 1), finder_seed(7, 2));
        assert_ne!(finder_seed(7, 1), finder_seed(8, 1));
    }
}
