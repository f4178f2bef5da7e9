//! The Triple's clocks: the turn clock (3:00, plus 30 s per counterexample), the
//! challenge clock (60 s), the game clock (two hours of play) and the quiz clock (5:00
//! a round). Which of them runs when, the deadline that comes first, what happens
//! when one runs out, and the refusal of a request that comes too late. Rule book
//! (`mod.rs`): **Time**, and the game clock of **The quiz**.

use super::challenge::reveal;
use super::quiz::{quiz_reveal, stop_play};
use super::turn::{next_turn, pass_turn};
use super::{Phase, Step, Triple, TripleEvent, TripleOutcome, ended};
use crate::rules::zendo::{TurnEnd, Withdrawal, ZendoEvent};
use crate::rules::{Clock, Emitter, Millis, RuleError};
use serde::{Deserialize, Serialize};

/// Which clock a deadline belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Which {
    Turn,
    Challenge,
    Game,
    Quiz,
}

/// A moment at which something happens unless the players act first.
pub type Deadline = crate::rules::zendo::TurnDeadline<Which>;

impl Triple {
    pub(super) fn check_time(&self, now: Millis) -> Result<(), RuleError> {
        if self.clock.has_expired(now) {
            Err(RuleError::Expired("this turn's time has run out"))
        } else if self.game_clock.has_expired(now) {
            Err(RuleError::Expired(
                "the two hours of play are over: the quiz decides",
            ))
        } else {
            Ok(())
        }
    }

    /// What happens when `deadline` passes.
    pub(super) fn expire(&self, out: &mut Emitter<Triple>, deadline: Deadline) {
        match (deadline.which, &self.phase) {
            (Which::Turn, Phase::ChoosingStarter { advantage }) => out.emit(ended(
                self,
                TripleOutcome::Declined {
                    by: *advantage,
                    time_up: true,
                },
            )),
            (Which::Game, Phase::Turn { .. }) => stop_play(out),
            (Which::Quiz, Phase::Quiz { .. }) => quiz_reveal(out, true),
            (Which::Challenge, _) => reveal(out, true),
            (
                Which::Turn,
                Phase::Turn {
                    seat,
                    step: Step::Build,
                },
            ) => {
                out.emit(TripleEvent::TurnEnded {
                    seat: *seat,
                    why: TurnEnd::TimeUp,
                });
                let next = out.next();
                if next.idle_turns >= super::IDLE_TURNS {
                    out.emit(ended(self, TripleOutcome::Abandoned));
                } else if next.missed[seat.index()] >= super::IDLE_OWN_TURNS {
                    let idle = TripleOutcome::Idle {
                        seat: *seat,
                        acted: self.seating.has_acted(*seat),
                    };
                    out.emit(ended(self, idle));
                } else {
                    next_turn(out, *seat);
                }
            }
            (Which::Turn, Phase::Turn { seat, step }) => {
                if let Step::Pending { pattern, guess } = step {
                    out.emit(TripleEvent::Pattern {
                        pattern: *pattern,
                        zendo: ZendoEvent::GuessWithdrawn {
                            number: *guess,
                            why: Withdrawal::TimeUp,
                        },
                    });
                }
                pass_turn(out, *seat, TurnEnd::TimeUp);
            }
            _ => {}
        }
    }

    /// The deadline that comes first, if any clock runs.
    pub(super) fn earliest_deadline(&self) -> Option<Deadline> {
        if self.seating.ledger.paused {
            return None;
        }
        let deadline = |which, clock: &Clock| {
            clock.expires_at().map(|at| Deadline {
                at,
                turn: self.turn,
                which,
            })
        };
        let step_deadline = match &self.phase {
            // One turn's length to choose who starts; the time of play has not begun.
            Phase::ChoosingStarter { .. } => return deadline(Which::Turn, &self.clock),
            Phase::Turn { step, .. } => match step {
                Step::Challenge { clock, .. } => deadline(Which::Challenge, clock),
                Step::Verdict { .. } => None,
                _ => deadline(Which::Turn, &self.clock),
            },
            Phase::Quiz { round, clock, .. } => {
                return clock.expires_at().map(|at| Deadline {
                    at,
                    turn: *round,
                    which: Which::Quiz,
                });
            }
            Phase::Over => return None,
        };
        // The end of play comes first when both fall at once.
        match (deadline(Which::Game, &self.game_clock), step_deadline) {
            (Some(g), Some(s)) if s.at < g.at => Some(s),
            (Some(g), _) => Some(g),
            (None, s) => s,
        }
    }

    /// Time the match was down (a restart) does not count on any clock.
    pub(super) fn skip_clocks(&mut self, from: Millis, to: Millis) {
        self.clock.skip(from, to);
        self.game_clock.skip(from, to);
        match &mut self.phase {
            Phase::Turn {
                step: Step::Challenge { clock, .. },
                ..
            }
            | Phase::Quiz { clock, .. } => clock.skip(from, to),
            _ => {}
        }
    }

    /// The turn clock runs in steps 1 and 2 (a pending guess included); the challenge
    /// and quiz clocks while theirs is open; the game clock with the turn and challenge
    /// clocks; nothing while paused or over.
    pub(super) fn run_clocks(&mut self, at: Millis) {
        let paused = self.seating.ledger.paused;
        let turn_runs = !paused
            && matches!(
                self.phase,
                Phase::Turn {
                    step: Step::Build | Step::Guess | Step::Pending { .. },
                    ..
                }
            );
        if self.choosing().is_some() {
            self.clock.set_running(!paused, at);
            self.game_clock.set_running(false, at);
            return;
        }
        let challenge = matches!(
            self.phase,
            Phase::Turn {
                step: Step::Challenge { .. },
                ..
            }
        );
        self.clock.set_running(turn_runs, at);
        self.game_clock
            .set_running(turn_runs || (challenge && !paused), at);
        match &mut self.phase {
            Phase::Turn {
                step: Step::Challenge { clock, .. },
                ..
            }
            | Phase::Quiz { clock, .. } => clock.set_running(!paused, at),
            _ => {}
        }
    }
}
