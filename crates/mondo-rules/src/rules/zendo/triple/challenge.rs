//! A challenge, step 1's other way: the turn clock stops, both players answer
//! privately per named pattern within the challenge clock (an answer may change until
//! the reveal), and the marks and answers are revealed together, each right answer
//! earning a stone (paid when the reveal is folded, `fold.rs`). Rule book (`mod.rs`):
//! **Step 1**, the challenge.

use super::turn::pass_if_no_stone;
use super::{Phase, Step, Triple, TripleEvent};
use crate::rules::Emitter;
use crate::rules::zendo::Answer;

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
