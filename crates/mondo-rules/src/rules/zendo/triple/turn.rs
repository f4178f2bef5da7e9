//! A turn: who starts (chosen by the player with the advantage), step 1 (a
//! structure graded at once, or challenged: see `challenge.rs`), ending the turn, and
//! passing it (by choice, when time runs out, or with no stone left for step 2).
//! Rule book (`mod.rs`): **Setup** (who starts), **Step 1**, and the turn passing in
//! **Step 2**.

use super::{Letter, Phase, Step, Triple, TripleEvent};
use crate::koan::Koan;
use crate::rules::zendo::{Mode, TurnEnd};
use crate::rules::{Emitter, Game, Millis, PlayerId, RuleError, Seat};

impl Triple {
    /// The player with the advantage names who starts.
    pub(super) fn choose_starter(
        &self,
        out: &mut Emitter<Triple>,
        starter: &PlayerId,
        now: Millis,
    ) -> Result<(), RuleError> {
        self.check_time(now)?;
        let starter = self
            .seat_of(*starter)
            .ok_or(RuleError::NotInMatch(*starter))?;
        out.emit(TripleEvent::StarterChosen { starter });
        out.emit(TripleEvent::TurnStarted {
            turn: 1,
            seat: starter,
        });
        Ok(())
    }

    /// Step 1: a structure not given before, graded on the named unsolved patterns or
    /// challenged on them.
    pub(super) fn build(
        &self,
        out: &mut Emitter<Triple>,
        seat: Seat,
        koan: &Koan,
        mode: &Mode,
        patterns: &[Letter],
        now: Millis,
    ) -> Result<(), RuleError> {
        self.check_time(now)?;
        let named = self.named(patterns)?;
        if let Some(e) = self.table.iter().find(|e| e.koan == *koan) {
            return Err(RuleError::AlreadyGiven { number: e.number });
        }
        if koan.set() != self.settings().set {
            return Err(RuleError::WrongSet {
                set: self.settings().set,
            });
        }
        let koan = koan.clone();
        match mode {
            Mode::Observe => {
                let marks = self.marks_of(&koan, &named);
                out.emit(TripleEvent::Graded {
                    by: seat,
                    koan,
                    marks,
                });
                pass_if_no_stone(out);
            }
            Mode::Challenge => out.emit(TripleEvent::ChallengeOpened {
                by: seat,
                koan,
                patterns: named,
            }),
        }
        Ok(())
    }

    /// The player ends their turn.
    pub(super) fn end_turn(
        &self,
        out: &mut Emitter<Triple>,
        seat: Seat,
        now: Millis,
    ) -> Result<(), RuleError> {
        self.check_time(now)?;
        pass_turn(out, seat, TurnEnd::Ended);
        Ok(())
    }

    /// The named patterns, all unsolved; none named means every unsolved one.
    fn named(&self, patterns: &[Letter]) -> Result<Vec<Letter>, RuleError> {
        if patterns.is_empty() {
            return Ok(self.unsolved());
        }
        let mut out = patterns.to_vec();
        out.sort();
        out.dedup();
        match out.iter().find(|l| self.solved[l.index()].is_some()) {
            Some(l) => Err(RuleError::Solved(l.char())),
            None => Ok(out),
        }
    }
}

/// Ends the turn of `seat` and starts the opponent's.
pub(super) fn pass_turn(out: &mut Emitter<Triple>, seat: Seat, why: TurnEnd) {
    out.emit(TripleEvent::TurnEnded { seat, why });
    next_turn(out, seat);
}

/// Starts the turn of `seat`'s opponent.
pub(super) fn next_turn(out: &mut Emitter<Triple>, seat: Seat) {
    let turn = out.next().turn + 1;
    out.emit(TripleEvent::TurnStarted {
        turn,
        seat: seat.other(),
    });
}

/// Step 2 with no stone has nothing in it: the turn passes.
pub(super) fn pass_if_no_stone(out: &mut Emitter<Triple>) {
    if let Phase::Turn {
        seat,
        step: Step::Guess,
    } = out.next().phase
        && out.next().stones(seat) == 0
    {
        pass_turn(out, seat, TurnEnd::NoTickets);
    }
}
