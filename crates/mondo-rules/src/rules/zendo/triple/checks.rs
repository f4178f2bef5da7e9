//! Who may act, and in which step: a move out of turn or out of its step is refused
//! before any rule runs, saying what the game is waiting for; a sheet of private
//! answers must come in time and answer every question.

use super::{Phase, Step, Triple, TripleEvent, TripleMove};
use crate::rules::zendo::{Answer, ZendoMove};
use crate::rules::{BySeat, Clock, Emitter, Game, Millis, RuleError, Seat};

impl Triple {
    /// Whether `seat` may make move `m` now: the advantage alone while the starter is
    /// chosen, then the player whose turn it is (answers come from both).
    pub(super) fn whose_turn(&self, seat: Seat, m: &TripleMove) -> Result<(), RuleError> {
        if let Some(advantage) = self.choosing()
            && seat != advantage
        {
            return Err(RuleError::NotYourTurn {
                waiting_for: self.player(advantage),
            });
        }
        match (m, self.turn_seat()) {
            (TripleMove::Zendo(ZendoMove::ChooseStarter { .. }), _) => Ok(()),
            (TripleMove::Answer { .. } | TripleMove::QuizAnswer { .. }, _) => Ok(()),
            (_, Some(s)) if s != seat => Err(RuleError::NotYourTurn {
                waiting_for: self.player(s),
            }),
            _ => Ok(()),
        }
    }

    /// Whether move `m` fits the phase and step the match is in.
    pub(super) fn allowed_now(&self, m: &TripleMove) -> Result<(), RuleError> {
        use RuleError::WrongPhase;
        let step = match &self.phase {
            Phase::Turn { step, .. } => Some(step),
            Phase::Quiz { .. } => None,
            Phase::Over => return Err(RuleError::MatchOver),
            Phase::ChoosingStarter { .. } => {
                return match m {
                    TripleMove::Zendo(ZendoMove::ChooseStarter { .. }) => Ok(()),
                    _ => Err(WrongPhase(
                        "the player with the advantage has not chosen who starts yet",
                    )),
                };
            }
        };
        let busy = |otherwise: &'static str| match step {
            None => WrongPhase("play has stopped: answer the quiz"),
            Some(Step::Challenge { .. }) => WrongPhase("wait until the challenge is revealed"),
            Some(Step::Pending { .. }) => {
                WrongPhase("confirm or take back the guess you are making first")
            }
            Some(Step::Verdict { .. }) => WrongPhase("wait for the umpire's answer to the guess"),
            Some(_) => WrongPhase(otherwise),
        };
        match m {
            TripleMove::Zendo(ZendoMove::ChooseStarter { .. }) => {
                Err(WrongPhase("the starting player has already been chosen"))
            }
            TripleMove::Build { .. } => match step {
                Some(Step::Build) => Ok(()),
                _ => Err(busy(
                    "step 1 is done this turn (one structure per turn); guess or end your turn",
                )),
            },
            TripleMove::Answer { .. } => match step {
                Some(Step::Challenge { .. }) => Ok(()),
                _ => Err(WrongPhase("there is no challenge to answer")),
            },
            TripleMove::Guess { .. } | TripleMove::Zendo(ZendoMove::EndTurn) => match step {
                Some(Step::Build | Step::Guess) => Ok(()),
                _ => Err(busy("")),
            },
            TripleMove::Zendo(ZendoMove::Confirm | ZendoMove::TakeBack) => match step {
                Some(Step::Pending { .. }) => Ok(()),
                _ => Err(WrongPhase(
                    "there is no guess waiting for your confirmation",
                )),
            },
            TripleMove::QuizAnswer { .. } => match self.phase {
                Phase::Quiz { .. } => Ok(()),
                _ => Err(WrongPhase(
                    "the quiz has not begun: it comes after two hours of play",
                )),
            },
            TripleMove::Zendo(ZendoMove::Disallow) => match step {
                Some(Step::Pending { .. } | Step::Verdict { .. }) => Ok(()),
                _ => Err(WrongPhase("there is no guess to disallow")),
            },
            TripleMove::Verdict { pattern, guess, .. } => match step {
                Some(Step::Verdict {
                    pattern: p,
                    guess: g,
                }) if p == pattern && g == guess => Ok(()),
                _ => Err(WrongPhase("no guess is waiting for that verdict")),
            },
        }
    }
}

/// Open sheets: their clock, how many answers each holds, those handed in so far.
type Open<'a> = (&'a Clock, usize, &'a BySeat<Option<Vec<Answer>>>);

/// What a sheet of private answers is for (a challenge, [`CHALLENGE`], or a quiz
/// round, [`QUIZ`]): where it is open, what its refusals say, how it is heard and how
/// the sheets are revealed.
struct Sheet {
    /// The open sheets.
    pub open: fn(&Phase) -> Option<Open<'_>>,
    /// No sheet of this kind is open.
    pub none: &'static str,
    /// The sheet came after its clock ran out.
    pub late: &'static str,
    /// The sheet does not hold one answer per question.
    pub count: &'static str,
    /// The event a sheet handed in is.
    pub answered: fn(Seat, Vec<Answer>) -> TripleEvent,
    /// The reveal, once every sheet is in.
    pub reveal: fn(&mut Emitter<Triple>, bool),
}

/// A challenge's sheets: both players answer each challenged pattern.
const CHALLENGE: Sheet = Sheet {
    open: |phase| match phase {
        Phase::Turn {
            step:
                Step::Challenge {
                    patterns,
                    answers,
                    clock,
                    ..
                },
            ..
        } => Some((clock, patterns.len(), answers)),
        _ => None,
    },
    none: "there is no challenge to answer",
    late: "the time to answer this challenge is over; the answer does not count",
    count: "answer every challenged pattern, in order (obeys, not or pass for each)",
    answered: |seat, answers| TripleEvent::ChallengeAnswered {
        seat,
        answers: Some(answers),
    },
    reveal: super::challenge::reveal,
};

/// A quiz round's sheets: both players answer every question of the round.
const QUIZ: Sheet = Sheet {
    open: |phase| match phase {
        Phase::Quiz {
            questions,
            answers,
            clock,
            ..
        } => Some((clock, questions.len(), answers)),
        _ => None,
    },
    none: "the quiz has not begun",
    late: "the time to answer this round is over; the answers do not count",
    count: "answer every question of the round, in order (obeys, not or pass each)",
    answered: |seat, answers| TripleEvent::QuizAnswered {
        seat,
        answers: Some(answers),
    },
    reveal: super::quiz::quiz_reveal,
};

impl Triple {
    /// `seat`'s sheet of answers (move `m`: to the challenge or to the quiz round): in
    /// time, one answer per question; heard (it may change until the reveal); the
    /// reveal comes when both have handed theirs in.
    pub(super) fn hand_in(
        &self,
        out: &mut Emitter<Triple>,
        seat: Seat,
        m: &TripleMove,
        now: Millis,
    ) -> Result<(), RuleError> {
        let (kind, answers) = match m {
            TripleMove::Answer { answers } => (&CHALLENGE, answers),
            TripleMove::QuizAnswer { answers } => (&QUIZ, answers),
            _ => return Err(RuleError::Unsupported("only answers are handed in")),
        };
        let Some((clock, wanted, _)) = (kind.open)(&self.phase) else {
            return Err(RuleError::WrongPhase(kind.none));
        };
        if clock.has_expired(now) {
            return Err(RuleError::Expired(kind.late));
        }
        if wanted != answers.len() {
            return Err(RuleError::Unsupported(kind.count));
        }
        out.emit((kind.answered)(seat, answers.to_vec()));
        let all_in = |(_, _, given): Open<'_>| given.values().iter().all(Option::is_some);
        if (kind.open)(&out.next().phase).is_some_and(all_in) {
            (kind.reveal)(out, false);
        }
        Ok(())
    }
}
