//! What players, hosts and the umpire ask of a Triple ([`TripleMove`]) and what its
//! log records ([`TripleEvent`], the last one with its [`TripleOutcome`]). Events are
//! stored: their names and fields must read back after a restart.

use super::letter::{Letter, Marks};
use super::setup::TripleSetup;
use crate::finder::Verdict;
use crate::koan::Koan;
use crate::lang::Pattern;
use crate::rules::zendo::{Answer, Mode, TurnEnd, ZendoEvent, ZendoMove};
use crate::rules::{BySeat, PlayerId, Seat};
use serde::{Deserialize, Serialize};

/// A move in a Triple. Parsing happens in the fronts.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum TripleMove {
    /// Step 1: a structure graded (observe) or challenged on the named unsolved
    /// patterns (none named: every unsolved one).
    Build {
        koan: Koan,
        #[serde(default)]
        mode: Mode,
        #[serde(default)]
        patterns: Vec<Letter>,
    },
    /// Private challenge answers, one per named pattern, in the challenge's order.
    Answer { answers: Vec<Answer> },
    /// Step 2 (or step 1 skipped): spend a stone on a guess at one unsolved pattern.
    Guess { pattern: Letter, guess: Pattern },
    /// The quiz: a player's answer sheet, one answer per question in order.
    QuizAnswer { answers: Vec<Answer> },
    /// Umpire: the finder's answer to official guess `guess` on `pattern`.
    Verdict {
        pattern: Letter,
        guess: u32,
        verdict: Verdict,
    },
    /// Choosing who starts, confirming or taking back a guess, ending the turn (at
    /// step 1 too: building is optional), a host's disallowing: as in every Zendo mode.
    #[serde(untagged)]
    Zendo(ZendoMove),
}

/// How a Triple ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum TripleOutcome {
    /// A player solved two patterns.
    TwoSolved {
        by: Seat,
    },
    /// The quiz decided; `winner` is None on a draw. `patterns` counts each player's
    /// patterns (solved plus won in the quiz).
    Quiz {
        winner: Option<Seat>,
        patterns: [u32; 2],
    },
    Resigned {
        by: Seat,
    },
    /// A host ended it: no winner.
    Ended {
        by: PlayerId,
    },
    /// Left before the start (`time_up`: the advantage never chose who starts): no
    /// winner.
    Declined {
        by: Seat,
        time_up: bool,
    },
    /// `seat`'s own turns ran out [`super::IDLE_OWN_TURNS`] times in a row with nothing
    /// done while the other side played. `acted`: it had acted before, so it loses on
    /// time; otherwise the match is aborted (no result).
    Idle {
        seat: Seat,
        acted: bool,
    },
    /// Nobody played: [`super::IDLE_TURNS`] turns in a row ran out with nothing done.
    /// No result.
    Abandoned,
}

/// What happens in a Triple.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TripleEvent {
    /// The first event (it holds the patterns: never announced).
    TripleCreated {
        setup: Box<TripleSetup>,
    },
    /// The player with the advantage chose who starts.
    StarterChosen {
        starter: Seat,
    },
    TurnStarted {
        turn: u32,
        seat: Seat,
    },
    /// A structure graded at once on the patterns marked.
    Graded {
        by: Seat,
        koan: Koan,
        marks: Marks,
    },
    ChallengeOpened {
        by: Seat,
        koan: Koan,
        patterns: Vec<Letter>,
    },
    /// Answers are heard whole only by the one who gave them.
    ChallengeAnswered {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        answers: Option<Vec<Answer>>,
    },
    /// Marks and answers together; the structure joins the table.
    ChallengeRevealed {
        answers: BySeat<Vec<Answer>>,
        marks: Marks,
        time_up: bool,
    },
    /// A guess's life on one pattern (read back, confirmed, withdrawn, refuted, void).
    Pattern {
        pattern: Letter,
        zendo: ZendoEvent,
    },
    /// A guess was proved equivalent: the pattern is solved, revealed, and leaves.
    Solved {
        pattern: Letter,
        by: Seat,
        guess: u32,
        text: String,
    },
    TurnEnded {
        seat: Seat,
        why: TurnEnd,
    },
    /// Two hours of play are over: play stops; the quiz decides the unsolved patterns.
    PlayStopped,
    /// A round of the quiz.
    QuizStarted {
        round: u32,
        questions: Vec<Question>,
    },
    QuizAnswered {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        answers: Option<Vec<Answer>>,
    },
    /// A round's answers and truths; `won` says who won each pattern decided in it
    /// (`Some(None)`: decided for nobody).
    QuizRevealed {
        round: u32,
        answers: BySeat<Vec<Answer>>,
        truths: Vec<bool>,
        time_up: bool,
        won: [Option<Option<Seat>>; 3],
    },
    /// The end: every pattern revealed (as written).
    TripleEnded {
        outcome: TripleOutcome,
        patterns: [String; 3],
    },
}

/// One question of the quiz: does `koan` obey pattern `pattern`?
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    pub koan: Koan,
    pub pattern: Letter,
}
