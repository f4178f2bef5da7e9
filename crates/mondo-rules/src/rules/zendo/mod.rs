//! Zendo as the bot umpires it. Every Zendo game plays on the same table with the
//! same umpire; what they share lives here and beside it:
//!
//! - this file: the words of the game (modes, answers, outcomes, guesses) and the
//!   events every Zendo game has ([`ZendoEvent`]: the table, the guesses, the end);
//! - [`table`]: the structures given and their verdicts;
//! - [`umpire`]: the secret, reading guesses back, judging verdicts, the finder's work;
//! - [`opening`]: how a match opens (hidden pattern, initial structures);
//! - one folder per game, each with its rule list at the top, its moves, events, fold,
//!   view and a test per rule: [`duel`] (the Death Match), [`practice`] (solo),
//!   [`triple`] (three patterns) and [`classic`] (the Master and 2 to 8 students).

pub mod classic;
pub mod duel;
pub mod moves;
pub mod opening;
pub mod practice;
pub mod table;
pub mod testing;
pub mod triple;
pub mod turn;
pub mod umpire;
mod view;

pub use duel::{
    Deadline, Duel, DuelEvent, DuelMove, DuelSetup, DuelView, Expiry, Phase, PhaseView, Step,
    StepView, Timing, Which,
};
pub use moves::ZendoMove;
pub use opening::{HiddenFrom, Opening, OpeningError, opening};
pub use practice::{
    Practice, PracticeEvent, PracticeMove, PracticeSetup, PracticeStep, PracticeView, Score,
};
pub use table::{Origin, Table, TableEntry};
pub use umpire::{Core, VerdictJob, finder_seed};
pub use view::GuessView;

use crate::finder::{Counterexample, Style, Verdict};
use crate::koan::{Koan, PieceSet};
use crate::lang::Pattern;
use crate::rules::{self, Game, GameTypes, Millis, PlayerId, Seat};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A one-pattern mode's moves, as the umpire's verdict on an official guess comes in:
/// its `Verdict` move (written by [`shared_events_in!`]).
pub trait VerdictMove {
    fn verdict(guess: u32, verdict: Verdict) -> Self;
}

/// A mode's events, holding the shared ones as `Zendo(ZendoEvent)` (written by
/// [`shared_events_in!`]).
pub trait ModeEvent {
    /// The shared Zendo event it is, if it is one.
    fn zendo(&self) -> Option<&ZendoEvent>;
}

/// Makes the shared events events of a one-pattern mode whose event enum holds them as
/// `Zendo(ZendoEvent)`, and its `Verdict { guess, verdict }` move the umpire's verdict:
/// `shared_events_in!(DuelEvent, DuelMove)` in the mode's own file.
macro_rules! shared_events_in {
    ($event:ident, $move:ident) => {
        impl $crate::rules::zendo::VerdictMove for $move {
            fn verdict(guess: u32, verdict: $crate::finder::Verdict) -> $move {
                $move::Verdict { guess, verdict }
            }
        }

        impl From<$crate::rules::zendo::ZendoEvent> for $event {
            fn from(e: $crate::rules::zendo::ZendoEvent) -> $event {
                $event::Zendo(e)
            }
        }

        impl From<$crate::rules::zendo::ZendoEvent> for $crate::rules::EventKind<$event> {
            fn from(e: $crate::rules::zendo::ZendoEvent) -> $crate::rules::EventKind<$event> {
                $crate::rules::EventKind::Game($event::Zendo(e))
            }
        }

        impl $crate::rules::zendo::ModeEvent for $event {
            fn zendo(&self) -> Option<&$crate::rules::zendo::ZendoEvent> {
                match self {
                    $event::Zendo(e) => Some(e),
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use shared_events_in;

/// A moment at which something happens unless the players act first, in a game of
/// turns: which of its clocks (`W`, the game's own) runs out in which turn, and when.
/// The runtime sleeps until `at` and sends `Action::Timeout` with it; it is the same
/// deadline only when equal in every field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TurnDeadline<W> {
    pub at: Millis,
    pub turn: u32,
    pub which: W,
}

impl<W: PartialEq> rules::Deadline for TurnDeadline<W> {
    fn at(&self) -> Millis {
        self.at
    }

    fn is(&self, other: &TurnDeadline<W>) -> bool {
        self == other
    }
}

/// What to do with a structure in step 1. Observe is the default: "if you don't
/// specify whether to observe or to challenge, it is assumed that you will observe".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// The umpire says at once whether it obeys.
    #[default]
    Observe,
    /// Both players answer privately first; each correct answer earns a ticket.
    Challenge,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Observe => "observe",
            Mode::Challenge => "challenge",
        })
    }
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "observe" | "o" | "obs" | "" => Ok(Mode::Observe),
            "challenge" | "c" | "ch" => Ok(Mode::Challenge),
            other => Err(format!(
                "`{other}` is not a way to play a structure: write `observe` or `challenge`"
            )),
        }
    }
}

/// A challenge answer: does the structure obey the hidden pattern?
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    Obeys,
    Not,
    /// No answer: given explicitly, or by letting the time run out.
    Pass,
}

impl Answer {
    /// Whether this answer earns a ticket when the truth is `obeys`.
    pub fn is_correct(self, obeys: bool) -> bool {
        match self {
            Answer::Obeys => obeys,
            Answer::Not => !obeys,
            Answer::Pass => false,
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Answer::Obeys => "obeys",
            Answer::Not => "does not obey",
            Answer::Pass => "no answer",
        })
    }
}

impl FromStr for Answer {
    type Err = String;
    /// Lenient, as players write to the question "does it obey the hidden pattern?":
    /// `obey`, `obeys`, `yes`, `y`; `not`, `no`, `n`, `does not obey`, `doesn't`;
    /// `pass`, `none`, `no answer`, `-`.
    fn from_str(s: &str) -> Result<Answer, String> {
        let words = s.trim().to_ascii_lowercase().replace('’', "'");
        let words = words.trim_end_matches(['.', '!']);
        match words {
            "obey" | "obeys" | "yes" | "y" | "true" | "it obeys" => Ok(Answer::Obeys),
            "not" | "no" | "n" | "false" | "does not obey" | "doesn't obey" | "does not"
            | "doesn't" | "not obey" | "disobeys" | "it does not obey" => Ok(Answer::Not),
            "pass" | "none" | "no answer" | "abstain" | "-" | "skip" => Ok(Answer::Pass),
            other => Err(format!(
                "`{other}` is not an answer: write `obey` (yes), `not` (no) or `pass`"
            )),
        }
    }
}

/// The two structures the umpire shows at the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Initial {
    /// One that obeys the hidden pattern.
    pub obeys: Koan,
    /// One that does not.
    pub does_not: Koan,
}

/// What every Zendo match fixes at the start besides its players.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The pieces the match plays with (the Duel uses the 12 pyramids).
    #[serde(default)]
    pub set: PieceSet,
    /// How the umpire picks counterexamples; the same for both players all match.
    #[serde(default)]
    pub style: Style,
}

/// Where a guess stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum GuessStatus {
    /// Read back; the guesser may confirm it or take it back.
    Pending,
    /// Confirmed; the umpire is building a counterexample.
    Official,
    /// Disproved by table structure `#counterexample`.
    Refuted { counterexample: u32 },
    /// Proved equivalent to the hidden pattern: the guesser won.
    Correct,
    /// The finder could not decide in time: the guess is void, the ticket returned.
    Undecided { reason: String },
    /// Taken back by the guesser before it was official.
    TakenBack,
    /// Taken back because the turn's time ran out before it was confirmed.
    TimedOut,
    /// Disallowed by a host as contrived.
    Disallowed,
}

/// A guess as stated, read back and judged. Guesses are public: the opponent hears
/// every theory.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Guess {
    pub number: u32,
    pub by: Seat,
    /// As written, parsed.
    pub pattern: Pattern,
    /// How the umpire read it: what the guesser confirms.
    pub reading: String,
    /// Table structures that already disprove it, said before it is official.
    pub contradictions: Vec<u32>,
    pub status: GuessStatus,
    /// Its number among the official guesses, once confirmed: what players call it
    /// (read-backs taken back are not counted).
    #[serde(default)]
    pub official: Option<u32>,
}

/// Why a pending or official guess was withdrawn (its ticket returned).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Withdrawal {
    TakenBack,
    TimeUp,
    Disallowed { by: PlayerId },
}

/// Why a turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnEnd {
    /// The player ended it.
    Ended,
    /// The turn clock ran out.
    TimeUp,
    /// Step 2 began (or went on) with no ticket to guess with.
    NoTickets,
}

/// How a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum Outcome {
    /// A guess was proved equivalent to the hidden pattern.
    Solved { by: Seat, guess: u32 },
    /// A player resigned (in practice: gave up).
    Resigned { by: Seat },
    /// A host ended the match: no winner.
    Ended { by: PlayerId },
    /// A player left a duel before it started (before the starter was chosen): the
    /// challenged one declined, or the challenger withdrew. No winner, no loss.
    Declined {
        by: Seat,
        /// The advantage never chose (rather than someone leaving).
        #[serde(default)]
        time_up: bool,
    },
    /// Nobody played: [`duel::IDLE_TURNS`] turns in a row ran out with nothing built or
    /// skipped by a player. No winner.
    Abandoned,
    /// Zendo Duel: `seat`'s own turns ran out [`duel::IDLE_OWN_TURNS`] times in a row
    /// while the other side played. `acted`: it had acted before, so it loses on time;
    /// otherwise the match is aborted (no result).
    Idle { seat: Seat, acted: bool },
    /// Zendo Classic: the students left until one remained (`idle: false`), or every
    /// student still in the game is skipped for time-outs (`idle: true`). No winner.
    Deserted { idle: bool },
}

/// The events every Zendo game has: the table, the guesses and the end. Events carry
/// everything folding needs (the verdicts, the counterexamples, the reading of a
/// guess), so replaying never runs the finder nor reads a pool.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum ZendoEvent {
    /// A structure was observed: it joins the table with its verdict.
    Observed { by: Seat, koan: Koan, obeys: bool },
    /// A guess was stated (in a duel, its ticket paid) and is read back.
    GuessRead {
        number: u32,
        by: Seat,
        pattern: Pattern,
        reading: String,
        contradictions: Vec<u32>,
    },
    /// The guess is official (in a duel: +30 s, clock paused until the verdict).
    GuessConfirmed { number: u32 },
    /// The guess was withdrawn before its verdict; its ticket is back.
    GuessWithdrawn { number: u32, why: Withdrawal },
    /// The umpire disproved the guess. `on_table` names the table entry when a
    /// structure already there separates them; otherwise the counterexample joins the
    /// table.
    Refuted {
        number: u32,
        counterexample: Counterexample,
        on_table: Option<u32>,
    },
    /// The finder hit its limit: the guess is void and its ticket is back.
    GuessUndecided { number: u32, reason: String },
    /// The end; the hidden pattern is revealed (as written).
    MatchEnded { outcome: Outcome, pattern: String },
}

/// What fronts and the runtime need of any Zendo match besides [`Game`]: the table,
/// the guesses, and the umpire's side (never shown to a front before the end).
pub trait Zendo: Game<Move: VerdictMove> + GameTypes<Event: ModeEvent> {
    /// The shared part of the state.
    fn core(&self) -> &Core;

    /// The official guess waiting for the umpire's verdict, if any.
    fn awaited_guess(&self) -> Option<u32>;

    /// The umpire's move that gives `verdict` on official guess `guess`.
    fn verdict_move(guess: u32, verdict: Verdict) -> Self::Move {
        VerdictMove::verdict(guess, verdict)
    }

    /// The shared Zendo part of one of the game's events, if it is one.
    fn zendo_event(event: &Self::Event) -> Option<&ZendoEvent> {
        event.zendo()
    }

    fn table(&self) -> &Table {
        &self.core().table
    }

    fn guesses(&self) -> &[Guess] {
        &self.core().guesses
    }

    /// The hidden pattern: for the umpire (runtime, finder) only, never for a front.
    fn hidden(&self) -> &Pattern {
        &self.core().hidden
    }

    fn settings(&self) -> Settings {
        self.core().settings
    }

    fn outcome(&self) -> Option<Outcome> {
        self.core().outcome
    }

    /// What the finder needs to judge the awaited guess.
    fn verdict_job(&self) -> Option<VerdictJob> {
        self.core().verdict_job(self.awaited_guess()?)
    }
}

/// The umpire's work in a Zendo mode's `impl Game`: the finder's verdict on the awaited
/// guess ([`work`], [`perform`], [`abandon`]), said once for the modes of one pattern.
macro_rules! verdict_work {
    () => {
        fn work(&self) -> Option<(u64, Self::Work)> {
            $crate::rules::zendo::work(self)
        }

        fn perform(
            job: Self::Work,
            stop: ::std::sync::Arc<::std::sync::atomic::AtomicBool>,
        ) -> Self::Move {
            $crate::rules::zendo::perform::<Self>(job, stop)
        }

        fn abandon(key: u64, reason: &str) -> Option<Self::Move> {
            $crate::rules::zendo::abandon::<Self>(key, reason)
        }
    };
}
pub(crate) use verdict_work;

/// The umpire's work for any Zendo game: the finder's verdict on the awaited guess,
/// keyed by the guess's number.
pub(crate) fn work<G: Zendo>(game: &G) -> Option<(u64, VerdictJob)> {
    let job = game.verdict_job()?;
    Some((job.guess as u64, job))
}

/// The finder's verdict as the umpire's move.
pub(crate) fn perform<G: Zendo>(job: VerdictJob, stop: Arc<AtomicBool>) -> G::Move {
    G::verdict_move(job.guess, job.judge(stop))
}

/// Work that failed: the guess is void (undecided, said with the reason).
pub(crate) fn abandon<G: Zendo>(key: u64, reason: &str) -> Option<G::Move> {
    let verdict = Verdict::Undecided {
        reason: reason.to_string(),
    };
    Some(G::verdict_move(key as u32, verdict))
}

impl ZendoEvent {
    /// The seat whose own move this event records, if any (the fair-play rule's
    /// "acted"): a structure built, a guess stated, confirmed or taken back.
    pub fn acted_by(&self) -> Option<Seat> {
        match self {
            ZendoEvent::Observed { by, .. } | ZendoEvent::GuessRead { by, .. } => Some(*by),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::classic::ClassicMove;
    use super::triple::TripleMove;
    use super::*;

    #[test]
    fn answers_read_as_players_write_them() {
        for (text, answer) in [
            ("obey", Answer::Obeys),
            ("Yes", Answer::Obeys),
            (" y ", Answer::Obeys),
            ("not", Answer::Not),
            ("No.", Answer::Not),
            ("doesn’t obey", Answer::Not),
            ("pass", Answer::Pass),
            ("no answer", Answer::Pass),
        ] {
            assert_eq!(text.parse::<Answer>(), Ok(answer), "{text}");
        }
        let err = "maybe".parse::<Answer>().unwrap_err();
        assert!(err.contains("`maybe`") && err.contains("obey"), "{err}");
        // Display is canonical and reads back.
        for a in [Answer::Obeys, Answer::Not, Answer::Pass] {
            assert_eq!(a.to_string().parse::<Answer>(), Ok(a));
        }
    }

    #[test]
    fn only_a_right_answer_earns() {
        assert!(Answer::Obeys.is_correct(true) && !Answer::Obeys.is_correct(false));
        assert!(Answer::Not.is_correct(false) && !Answer::Not.is_correct(true));
        assert!(!Answer::Pass.is_correct(true) && !Answer::Pass.is_correct(false));
    }

    #[test]
    fn observe_is_the_default_mode() {
        // "If you don't specify whether to observe or to challenge, it is assumed that
        // you will observe": in text, in JSON, and in Rust.
        assert_eq!(Mode::default(), Mode::Observe);
        assert_eq!("".parse::<Mode>(), Ok(Mode::Observe));
        assert_eq!("Challenge".parse::<Mode>(), Ok(Mode::Challenge));
        let json = r#"{"action":"build","koan":{"set":"pyramids","pieces":[[{"row":0,"col":0},{"size":"Small","dir":"Up"}]]}}"#;
        match serde_json::from_str::<duel::Action>(json) {
            Ok(crate::rules::Action::Move(DuelMove::Build { mode, .. })) => {
                assert_eq!(mode, Mode::Observe)
            }
            other => panic!("{other:?}"),
        }
    }

    /// Each stored move reads back and is written again byte for byte.
    fn same<A: Serialize + serde::de::DeserializeOwned + std::fmt::Debug>(stored: &[&str]) {
        for json in stored {
            let read: A = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(serde_json::to_string(&read).unwrap(), *json, "{read:?}");
        }
    }

    /// Moves as the store and the runtime wrote them before the modes shared
    /// [`ZendoMove`] (each line was written by the code of then).
    #[test]
    fn stored_moves_read_back_and_write_the_same_bytes() {
        let shared = [
            r#"{"action":"confirm"}"#,
            r#"{"action":"take_back"}"#,
            r#"{"action":"disallow"}"#,
        ];
        let starter = r#"{"action":"choose_starter","starter":7}"#;
        let end = r#"{"action":"end_turn"}"#;
        let guess = r#"{"action":"guess","pattern":{"source":"some piece points up","formula":{"span":{"start":0,"end":20},"kind":{"Exists":[0,{"span":{"start":18,"end":20},"kind":{"Unary":["Up",0]}}]}}}}"#;
        let verdict = r#"{"action":"verdict","guess":2,"verdict":{"outcome":"undecided","reason":"too hard"}}"#;
        let koan =
            r#"{"set":"pyramids","pieces":[[{"row":0,"col":0},{"size":"Small","dir":"Up"}]]}"#;
        let build = format!(r#"{{"action":"build","koan":{koan},"mode":"challenge"}}"#);
        let answer = r#"{"action":"answer","answer":"obeys"}"#;
        same::<duel::Action>(&shared);
        same::<duel::Action>(&[starter, end, r#"{"action":"skip"}"#]);
        same::<duel::Action>(&[guess, verdict, &build, answer]);
        same::<triple::Action>(&shared);
        same::<triple::Action>(&[starter, end]);
        same::<triple::Action>(&[
            r#"{"action":"guess","pattern":"B","guess":{"source":"some piece points up","formula":{"span":{"start":0,"end":20},"kind":{"Exists":[0,{"span":{"start":18,"end":20},"kind":{"Unary":["Up",0]}}]}}}}"#,
            r#"{"action":"verdict","pattern":"B","guess":2,"verdict":{"outcome":"undecided","reason":"too hard"}}"#,
            r#"{"action":"answer","answers":["obeys","pass"]}"#,
        ]);
        same::<classic::Action>(&shared);
        same::<classic::Action>(&[end, r#"{"action":"back"}"#, r#"{"action":"join"}"#]);
        same::<classic::Action>(&[
            guess,
            verdict,
            answer,
            r#"{"action":"add_student","player":9}"#,
        ]);
        same::<practice::Action>(&shared);
        same::<practice::Action>(&[
            guess,
            verdict,
            &format!(r#"{{"action":"build","koan":{koan}}}"#),
        ]);
        // The actions every game shares are untouched.
        same::<duel::Action>(&[r#"{"action":"resign"}"#, r#"{"action":"pause"}"#]);
    }

    /// The shared moves read as the shared variant of each mode's moves, not as one
    /// of the mode's own.
    #[test]
    fn a_stored_shared_move_reads_as_the_shared_move() {
        let read = |json: &str| serde_json::from_str::<duel::Action>(json).unwrap();
        assert!(matches!(
            read(r#"{"action":"choose_starter","starter":7}"#),
            duel::Action::Move(DuelMove::Zendo(ZendoMove::ChooseStarter {
                starter: PlayerId(7)
            }))
        ));
        let read = |json: &str| serde_json::from_str::<classic::Action>(json).unwrap();
        assert!(matches!(
            read(r#"{"action":"end_turn"}"#),
            classic::Action::Move(ClassicMove::Zendo(ZendoMove::EndTurn))
        ));
        // Not a move of any Zendo mode: refused, not read as something else.
        assert!(serde_json::from_str::<triple::Action>(r#"{"action":"skip"}"#).is_err());
    }

    /// The shared moves are moves of every mode, with the shared move's role.
    #[test]
    fn a_shared_move_is_each_modes_move() {
        use crate::rules::{Move, Role};
        assert_eq!(TripleMove::from(ZendoMove::Disallow).role(), Role::Host);
        assert_eq!(ClassicMove::from(ZendoMove::Disallow).role(), Role::Host);
        assert_eq!(PracticeMove::from(ZendoMove::Disallow).role(), Role::Host);
        assert_eq!(DuelMove::from(ZendoMove::EndTurn).role(), Role::Player);
    }
}
