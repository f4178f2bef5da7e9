//! Guesses, step 2: a stone for a guess at one unsolved pattern, read back, then
//! confirmed (the umpire judges it) or taken back (the stone returned); the umpire's
//! verdict (a counterexample, which also adds 30 s to the turn; the pattern solved,
//! two solved winning; or void); a host's disallow. What each verdict does to the
//! table, the stones and the clock is folded in `fold.rs`. Rule book (`mod.rs`):
//! **Step 2**.

use super::turn::pass_if_no_stone;
use super::{Letter, Phase, Step, Triple, TripleEvent, TripleMove, TripleOutcome, ended};
use crate::finder::Verdict;
use crate::lang::Pattern;
use crate::rules::zendo::{Withdrawal, ZendoEvent};
use crate::rules::{self, Emitter, Millis, RuleError, Seat, Who};

impl Triple {
    /// The guess read back and not yet confirmed, or awaiting the verdict.
    fn pending(&self) -> Option<(Letter, u32)> {
        match self.phase {
            Phase::Turn {
                step: Step::Pending { pattern, guess } | Step::Verdict { pattern, guess },
                ..
            } => Some((pattern, guess)),
            _ => None,
        }
    }

    /// The guess in play withdrawn (`why`): its stone returns. `none`: the refusal
    /// when no guess is in play.
    fn withdraw(
        &self,
        out: &mut Emitter<Triple>,
        why: Withdrawal,
        none: &'static str,
    ) -> Result<(), RuleError> {
        let (pattern, number) = self.pending().ok_or(RuleError::WrongPhase(none))?;
        out.emit(TripleEvent::Pattern {
            pattern,
            zendo: ZendoEvent::GuessWithdrawn { number, why },
        });
        Ok(())
    }

    /// A stone for a guess at one unsolved pattern: read back first.
    pub(super) fn guess(
        &self,
        out: &mut Emitter<Triple>,
        seat: Seat,
        pattern: &Letter,
        guess: &Pattern,
        now: Millis,
    ) -> Result<(), RuleError> {
        self.check_time(now)?;
        if self.solved[pattern.index()].is_some() {
            return Err(RuleError::Solved(pattern.char()));
        }
        if self.stones(seat) == 0 {
            return Err(RuleError::NoStone(
                "answer a challenge correctly to earn one",
            ));
        }
        let zendo = self.cores[pattern.index()].read(seat, guess)?;
        out.emit(TripleEvent::Pattern {
            pattern: *pattern,
            zendo,
        });
        Ok(())
    }

    /// The guess read back is made official: the umpire judges it.
    pub(super) fn confirm_guess(
        &self,
        out: &mut Emitter<Triple>,
        now: Millis,
    ) -> Result<(), RuleError> {
        self.check_time(now)?;
        let Some((pattern, number)) = self.pending() else {
            return Err(RuleError::WrongPhase("there is no guess to confirm"));
        };
        for event in self.cores[pattern.index()].confirmed(number) {
            out.emit(TripleEvent::Pattern {
                pattern,
                zendo: event,
            });
        }
        pass_if_no_stone(out);
        Ok(())
    }

    /// The guess read back is taken back: the stone returns.
    pub(super) fn take_back_guess(
        &self,
        out: &mut Emitter<Triple>,
        now: Millis,
    ) -> Result<(), RuleError> {
        self.check_time(now)?;
        let none = "there is no guess to take back";
        self.withdraw(out, Withdrawal::TakenBack, none)
    }

    /// A host refuses the pending or awaited guess: the stone returns.
    pub(super) fn disallow_guess(
        &self,
        out: &mut Emitter<Triple>,
        who: Who,
        m: &TripleMove,
    ) -> Result<(), RuleError> {
        let Who::Host(by) = who else {
            return Err(RuleError::HostOnly(rules::Move::describe(m)));
        };
        let why = Withdrawal::Disallowed { by };
        self.withdraw(out, why, "there is no guess to disallow")
    }

    /// The umpire's verdict on the awaited guess.
    pub(super) fn judge_guess(
        &self,
        out: &mut Emitter<Triple>,
        seat: Seat,
        pattern: &Letter,
        guess: &u32,
        verdict: &Verdict,
    ) -> Result<(), RuleError> {
        let core = &self.cores[pattern.index()];
        match core.judge(*guess, verdict)? {
            ZendoEvent::MatchEnded { pattern: text, .. } => {
                let by = core.guess(*guess).map_or(seat, |g| g.by);
                out.emit(TripleEvent::Solved {
                    pattern: *pattern,
                    by,
                    guess: *guess,
                    text,
                });
                let t = out.next();
                if t.solved.iter().filter(|s| **s == Some(by)).count() >= 2 {
                    out.emit(ended(t, TripleOutcome::TwoSolved { by }));
                    return Ok(());
                }
            }
            zendo => out.emit(TripleEvent::Pattern {
                pattern: *pattern,
                zendo,
            }),
        }
        pass_if_no_stone(out);
        Ok(())
    }
}
