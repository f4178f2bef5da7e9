//! A challenge, step 1's other way: the turn clock stops, both players answer
//! privately per named pattern within the challenge clock (an answer may change until
//! the reveal), and the marks and answers are revealed together, each right answer
//! earning a stone (paid when the reveal is folded, `fold.rs`). Rule book (`mod.rs`):
//! **Step 1**, the challenge.

use super::checks::check_sheet;
use super::turn::pass_if_no_stone;
use super::{Phase, Step, Triple, TripleEvent};
use crate::rules::zendo::Answer;
use crate::rules::{Emitter, Millis, RuleError, Seat};

impl Triple {
    /// A player's private answers to the open challenge; the reveal comes when both
    /// have answered.
    pub(super) fn answer_challenge(
        &self,
        out: &mut Emitter<Triple>,
        seat: Seat,
        answers: &[Answer],
        now: Millis,
    ) -> Result<(), RuleError> {
        let Phase::Turn {
            step: Step::Challenge {
                patterns, clock, ..
            },
            ..
        } = &self.phase
        else {
            return Err(RuleError::WrongPhase("there is no challenge to answer"));
        };
        check_sheet(
            clock,
            now,
            (patterns.len(), answers.len()),
            "the time to answer this challenge is over; the answer does not count",
            "answer every challenged pattern, in order (obeys, not or pass for each)",
        )?;
        out.emit(TripleEvent::ChallengeAnswered {
            seat,
            answers: Some(answers.to_vec()),
        });
        if let Phase::Turn {
            step: Step::Challenge { answers, .. },
            ..
        } = &out.next().phase
            && answers.values().iter().all(Option::is_some)
        {
            reveal(out, false);
        }
        Ok(())
    }
}

/// Marks and answers together; silence is no answer.
pub(super) fn reveal(out: &mut Emitter<Triple>, time_up: bool) {
    let Phase::Turn {
        step:
            Step::Challenge {
                koan,
                patterns,
                answers,
                ..
            },
        ..
    } = &out.next().phase
    else {
        return;
    };
    let marks = out.next().marks_of(koan, patterns);
    let n = patterns.len();
    let answers = answers.map(|a| a.clone().unwrap_or_else(|| vec![Answer::Pass; n]));
    out.emit(TripleEvent::ChallengeRevealed {
        answers,
        marks,
        time_up,
    });
    pass_if_no_stone(out);
}
