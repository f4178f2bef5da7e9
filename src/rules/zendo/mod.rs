//! Zendo as the bot umpires it: the Duel (two players, tickets, clocks) in [`duel`]
//! and solo practice (one player against the umpire) in [`practice`]; how a match of
//! either opens (hidden pattern, initial structures) in [`opening`].
//!
//! Both play on the same table with the same umpire, so what they share lives here:
//! the table of structures and their verdicts, guesses and how they are read back and
//! judged, the actions a front can send and the events the engine answers with.
//! [`duel`] is the rule book of the Duel: every rule of games.md with where it is
//! enforced and the test beside it.

pub mod duel;
pub mod opening;
pub mod practice;
pub mod testing;
pub mod view;

pub use duel::{Deadline, Duel, DuelSetup, Expiry, Phase, Step, Timing, Which};
pub use opening::{HiddenFrom, Opening, OpeningError, opening};
pub use practice::{Practice, PracticeSetup, PracticeStep, Score};
pub use view::{DuelView, GuessView, PhaseView, PracticeView, StepView};

use super::{FoldError, Millis, PlayerId, RuleError, SetupError};
use crate::finder::{Counterexample, Style, Verdict};
use crate::koan::{Koan, PieceSet};
use crate::lang::{Formula, Pattern};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A place at the table. Practice uses only the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    First,
    Second,
}

impl Seat {
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
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

/// How a structure came to be on the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum Origin {
    /// Shown by the umpire at the start.
    Initial,
    /// Built and observed by a player.
    Observed { by: Seat },
    /// Built and challenged by a player; the answers are public once revealed.
    Challenged { by: Seat, answers: [Answer; 2] },
    /// The umpire's counterexample to a guess.
    Counterexample { guess: u32 },
}

/// A structure on the table with its (public) verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableEntry {
    /// Shown to players as `#number`, counting from 1 in the order given.
    pub number: u32,
    pub koan: Koan,
    pub obeys: bool,
    pub origin: Origin,
}

/// Every structure given in this match: initial ones, built ones, counterexamples.
/// "Given before" is checked here, with translation-invariant equality.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Table {
    entries: Vec<TableEntry>,
}

impl Table {
    pub fn entries(&self) -> &[TableEntry] {
        &self.entries
    }

    /// The entry holding this structure (or a translation of it).
    pub fn find(&self, koan: &Koan) -> Option<&TableEntry> {
        self.entries.iter().find(|e| e.koan == *koan)
    }

    pub fn get(&self, number: u32) -> Option<&TableEntry> {
        number
            .checked_sub(1)
            .and_then(|i| self.entries.get(i as usize))
    }

    /// Adds a structure and returns its number.
    fn push(&mut self, koan: Koan, obeys: bool, origin: Origin) -> u32 {
        let number = self.entries.len() as u32 + 1;
        self.entries.push(TableEntry {
            number,
            koan,
            obeys,
            origin,
        });
        number
    }

    /// The numbers of the structures on which `guess` disagrees with their verdict:
    /// each one proves the guess wrong.
    pub fn contradictions(&self, guess: &Formula) -> Vec<u32> {
        self.entries
            .iter()
            .filter(|e| crate::lang::evaluate(guess, &e.koan) != e.obeys)
            .map(|e| e.number)
            .collect()
    }

    /// Whether a player may give this structure: of the match's set and not given
    /// before in this game (initial structures and counterexamples count).
    fn check_new(&self, koan: &Koan, set: PieceSet) -> Result<(), RuleError> {
        if koan.set() != set {
            return Err(RuleError::WrongSet { set });
        }
        match self.find(koan) {
            Some(e) => Err(RuleError::AlreadyGiven { number: e.number }),
            None => Ok(()),
        }
    }
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
}

/// Something a front asks the engine to do. Parsing (structures, patterns, answers)
/// happens in the fronts; the engine receives the parsed values.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// The player with the advantage names who starts.
    ChooseStarter { starter: PlayerId },
    /// Step 1: a structure, to observe (default) or challenge.
    Build {
        koan: Koan,
        #[serde(default)]
        mode: Mode,
    },
    /// Step 1: no structure; the opponent gets a ticket.
    Skip,
    /// A private challenge answer (either player, until the reveal).
    Answer { answer: Answer },
    /// Step 2: pay a ticket and state a guess; it is read back before it is official.
    Guess { pattern: Pattern },
    /// Make the pending guess official.
    Confirm,
    /// Withdraw the pending guess; the ticket comes back.
    TakeBack,
    /// Step 2 is over: the turn passes.
    EndTurn,
    /// Give up: in a duel the opponent wins.
    Resign,
    /// Host: stop the clocks and the match until resumed.
    Pause,
    /// Host: the clocks go on with the time they had.
    Resume,
    /// Host: refuse the pending (or official, unjudged) guess as contrived; the ticket
    /// comes back.
    Disallow,
    /// Host: end the match with no winner; the pattern is revealed.
    End,
    /// Umpire: the finder's answer to official guess `guess`.
    Verdict { guess: u32, verdict: Verdict },
    /// Umpire: a deadline from `next_deadline()` has passed.
    Timeout { deadline: Deadline },
    /// Umpire, after a restart: the process was down since `since`; that time is not
    /// counted against anyone.
    Downtime { since: Millis },
}

/// Which kind of actor an action is for. The engine checks it before anything else
/// (after "the match is not over").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    Player,
    Host,
    Umpire,
}

impl Action {
    pub(crate) fn role(&self) -> Role {
        match self {
            Action::Pause | Action::Resume | Action::Disallow | Action::End => Role::Host,
            Action::Verdict { .. } | Action::Timeout { .. } | Action::Downtime { .. } => {
                Role::Umpire
            }
            _ => Role::Player,
        }
    }

    /// For error messages: what only a host or the umpire may do.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Action::Pause => "pause the match",
            Action::Resume => "resume the match",
            Action::Disallow => "disallow a guess",
            Action::End => "end the match",
            Action::Verdict { .. } => "give verdicts",
            Action::Timeout { .. } => "call time",
            Action::Downtime { .. } => "account for downtime",
            _ => "play",
        }
    }
}

/// What happened, at `at`. The state is the fold of its events.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Event {
    pub at: Millis,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// Every change a match can go through. Events carry everything folding needs (the
/// verdicts, the counterexamples, the reading of a guess), so replaying never runs the
/// finder nor reads a pool.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EventKind {
    /// The first event of a duel (it holds the hidden pattern: never announced).
    DuelCreated {
        setup: Box<DuelSetup>,
    },
    /// The first event of a practice match (never announced).
    PracticeCreated {
        setup: Box<PracticeSetup>,
    },
    StarterChosen {
        starter: Seat,
    },
    /// A turn begins with a full turn clock.
    TurnStarted {
        turn: u32,
        seat: Seat,
    },
    /// A structure was observed: it joins the table with its verdict.
    Observed {
        by: Seat,
        koan: Koan,
        obeys: bool,
    },
    /// A structure was challenged: both players now answer privately.
    ChallengeOpened {
        by: Seat,
        koan: Koan,
    },
    /// A private answer (announced only to the one who gave it).
    ChallengeAnswered {
        seat: Seat,
        answer: Answer,
    },
    /// Answers and truth together; the structure joins the table; each correct
    /// answer earns a ticket.
    ChallengeRevealed {
        answers: [Answer; 2],
        obeys: bool,
        time_up: bool,
    },
    /// Step 1 without a structure: the opponent gets a ticket.
    Skipped {
        seat: Seat,
        time_up: bool,
    },
    /// A guess was stated (its ticket paid) and is read back.
    GuessRead {
        number: u32,
        by: Seat,
        pattern: Pattern,
        reading: String,
        contradictions: Vec<u32>,
    },
    /// The guess is official (in a duel: +30 s, clock paused until the verdict).
    GuessConfirmed {
        number: u32,
    },
    /// The guess was withdrawn before its verdict; its ticket is back.
    GuessWithdrawn {
        number: u32,
        why: Withdrawal,
    },
    /// The umpire disproved the guess. `on_table` names the table entry when the only
    /// separating structures were already there; otherwise the counterexample joins
    /// the table.
    Refuted {
        number: u32,
        counterexample: Counterexample,
        on_table: Option<u32>,
    },
    /// The finder hit its limit: the guess is void and its ticket is back.
    GuessUndecided {
        number: u32,
        reason: String,
    },
    TurnEnded {
        seat: Seat,
        why: TurnEnd,
    },
    Paused {
        by: PlayerId,
    },
    Resumed {
        by: PlayerId,
    },
    /// The time from `from` to `to` (the process was down) is not counted.
    ClockRebased {
        from: Millis,
        to: Millis,
    },
    /// The end; the hidden pattern is revealed (as written).
    MatchEnded {
        outcome: Outcome,
        pattern: String,
    },
}

impl Event {
    fn created(at: Millis, kind: EventKind) -> Event {
        Event { at, kind }
    }

    /// Whether anyone may see it as it is (a spectator may): not a created event,
    /// which holds the hidden pattern, nor a challenge answer before the reveal.
    pub fn is_public(&self) -> bool {
        self.visible_to(None)
    }

    /// Whether it may be announced verbatim to a viewer in `seat` (None: spectator).
    fn visible_to(&self, seat: Option<Seat>) -> bool {
        match &self.kind {
            EventKind::DuelCreated { .. } | EventKind::PracticeCreated { .. } => false,
            EventKind::ChallengeAnswered { seat: s, .. } => seat == Some(*s),
            _ => true,
        }
    }
}

/// What the runtime hands the finder for an official guess, and the seed that makes
/// a varied counterexample reproducible.
#[derive(Clone, Copy, Debug)]
pub struct VerdictRequest<'a> {
    pub guess: u32,
    pub hidden: &'a Formula,
    pub guessed: &'a Formula,
    pub set: PieceSet,
    pub style: Style,
    pub seed: u64,
    pub table: &'a Table,
}

/// What the runtime needs of any Zendo match besides [`Game`](crate::rules::Game):
/// the umpire's side of it.
pub trait Zendo: crate::rules::Game<Action = Action, Event = Event> {
    /// The shared part of the state (opaque outside the engine).
    #[doc(hidden)]
    fn core(&self) -> &Core;

    /// The official guess waiting for the umpire's verdict, if any.
    fn awaited_guess(&self) -> Option<u32>;

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

    fn seed(&self) -> u64 {
        self.core().seed
    }

    fn outcome(&self) -> Option<Outcome> {
        self.core().outcome
    }

    /// What the finder needs to judge the awaited guess.
    fn verdict_request(&self) -> Option<VerdictRequest<'_>> {
        self.core().verdict_request(self.awaited_guess()?)
    }
}

/// What every Zendo match keeps, whatever game runs around it: the secret, the table,
/// the guesses, the version counters and the outcome. Opaque outside the engine.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Core {
    pub(crate) hidden: Pattern,
    pub(crate) settings: Settings,
    pub(crate) seed: u64,
    /// Number of events folded so far (the created event is 1).
    pub(crate) version: u64,
    /// The version at which the current phase began: a button drawn before it is stale.
    pub(crate) phase_since: u64,
    /// Time of the latest event; `now` never goes back before it.
    pub(crate) last_at: Millis,
    pub(crate) table: Table,
    pub(crate) guesses: Vec<Guess>,
    pub(crate) outcome: Option<Outcome>,
}

impl Core {
    /// The match ends this way, and the hidden pattern is revealed with it.
    pub(crate) fn ended(&self, outcome: Outcome) -> EventKind {
        EventKind::MatchEnded {
            outcome,
            pattern: self.hidden.source.clone(),
        }
    }

    /// Checks the setup common to every Zendo match and lays out the initial table.
    pub(crate) fn new(
        hidden: &Pattern,
        initial: &Initial,
        settings: Settings,
        seed: u64,
        at: Millis,
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
            version: 1,
            phase_since: 1,
            last_at: at,
            table,
            guesses: Vec::new(),
            outcome: None,
        })
    }

    pub(crate) fn misfit(&self, reason: impl Into<String>) -> FoldError {
        FoldError {
            version: self.version,
            reason: reason.into(),
        }
    }

    /// Authority check 1.
    pub(crate) fn check_not_over(&self) -> Result<(), RuleError> {
        match self.outcome {
            Some(_) => Err(RuleError::MatchOver),
            None => Ok(()),
        }
    }

    /// Authority check 5: a button drawn before the current phase began is stale
    /// (and so is one from the future). Typed commands carry no version.
    pub(crate) fn check_shown(&self, shown: Option<u64>) -> Result<(), RuleError> {
        match shown {
            Some(v) if v < self.phase_since || v > self.version => Err(RuleError::StaleVersion {
                shown: v,
                current: self.version,
            }),
            _ => Ok(()),
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
    /// in the arrows set) is refused.
    pub(crate) fn read(&self, by: Seat, pattern: &Pattern) -> Result<EventKind, RuleError> {
        crate::lang::check_set(pattern, self.settings.set)
            .map_err(|e| RuleError::PatternSet(e.to_string()))?;
        Ok(EventKind::GuessRead {
            number: self.guesses.len() as u32 + 1,
            by,
            pattern: pattern.clone(),
            reading: read_back(pattern, self.settings.set),
            contradictions: self.table.contradictions(&pattern.formula),
        })
    }

    /// Judges the umpire's verdict on official guess `number`, checking what can be
    /// checked cheaply: a counterexample must really separate the two patterns, and
    /// "equivalent" is refused while a table structure separates them. The guess is
    /// never called right on anything but an `Equivalent` verdict.
    pub(crate) fn judge(&self, number: u32, verdict: &Verdict) -> Result<EventKind, RuleError> {
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
                Ok(EventKind::Refuted {
                    number,
                    counterexample: ce.clone(),
                    on_table: self.table.find(&ce.koan).map(|e| e.number),
                })
            }
            Verdict::Undecided { reason } => Ok(EventKind::GuessUndecided {
                number,
                reason: reason.clone(),
            }),
        }
    }

    /// What the finder needs for official guess `number`, if there is one.
    pub(crate) fn verdict_request(&self, number: u32) -> Option<VerdictRequest<'_>> {
        let guess = self.guess(number)?;
        Some(VerdictRequest {
            guess: number,
            hidden: &self.hidden.formula,
            guessed: &guess.pattern.formula,
            set: self.settings.set,
            style: self.settings.style,
            seed: finder_seed(self.seed, number),
            table: &self.table,
        })
    }

    /// Counts the event and keeps time monotonic.
    pub(crate) fn begin(&mut self, event: &Event) {
        self.version += 1;
        self.last_at = self.last_at.max(event.at);
    }

    /// The current phase begins with the event just counted.
    pub(crate) fn enter(&mut self) {
        self.phase_since = self.version;
    }

    /// Folds what every Zendo game shares: the table, the guesses and the outcome.
    /// The games fold their own parts (phases, tickets, clocks) around it.
    pub(crate) fn fold_shared(&mut self, kind: &EventKind) -> Result<(), FoldError> {
        match kind {
            EventKind::Observed { by, koan, obeys } => {
                if self.table.find(koan).is_some() {
                    return Err(self.misfit("the observed structure is already on the table"));
                }
                self.table
                    .push(koan.clone(), *obeys, Origin::Observed { by: *by });
            }
            EventKind::GuessRead {
                number,
                by,
                pattern,
                reading,
                contradictions,
            } => {
                if *number as usize != self.guesses.len() + 1 {
                    return Err(self.misfit(format!("guess #{number} is out of sequence")));
                }
                self.guesses.push(Guess {
                    number: *number,
                    by: *by,
                    pattern: pattern.clone(),
                    reading: reading.clone(),
                    contradictions: contradictions.clone(),
                    status: GuessStatus::Pending,
                });
            }
            EventKind::GuessConfirmed { number } => {
                self.set_status(*number, GuessStatus::Official)?;
            }
            EventKind::GuessWithdrawn { number, why } => {
                let status = match why {
                    Withdrawal::TakenBack => GuessStatus::TakenBack,
                    Withdrawal::TimeUp => GuessStatus::TimedOut,
                    Withdrawal::Disallowed { .. } => GuessStatus::Disallowed,
                };
                self.set_status(*number, status)?;
            }
            EventKind::Refuted {
                number,
                counterexample,
                on_table,
            } => {
                let entry = match on_table {
                    Some(n) => match self.table.get(*n) {
                        Some(e) if e.koan == counterexample.koan => *n,
                        _ => return Err(self.misfit(format!("table entry #{n} does not match"))),
                    },
                    None => {
                        if self.table.find(&counterexample.koan).is_some() {
                            return Err(self.misfit("the counterexample is already on the table"));
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
                )?;
            }
            EventKind::GuessUndecided { number, reason } => {
                self.set_status(
                    *number,
                    GuessStatus::Undecided {
                        reason: reason.clone(),
                    },
                )?;
            }
            EventKind::MatchEnded { outcome, .. } => {
                if let Outcome::Solved { guess, .. } = outcome {
                    self.set_status(*guess, GuessStatus::Correct)?;
                }
                self.outcome = Some(*outcome);
                self.enter();
            }
            _ => {}
        }
        Ok(())
    }

    fn set_status(&mut self, number: u32, status: GuessStatus) -> Result<(), FoldError> {
        let version = self.version;
        match number
            .checked_sub(1)
            .and_then(|i| self.guesses.get_mut(i as usize))
        {
            Some(g) => {
                g.status = status;
                Ok(())
            }
            None => Err(FoldError {
                version,
                reason: format!("there is no guess #{number}"),
            }),
        }
    }
}

/// How the umpire reads a guess back to the guesser: the canonical English of what
/// was parsed (koan-language.md section 5), which is what the guesser confirms. It
/// names the pieces as the match's set does (`arrows`).
fn read_back(pattern: &Pattern, set: PieceSet) -> String {
    crate::lang::english_for(&pattern.formula, set)
}

/// The finder's seed for one guess: fixed by the match's seed, different per guess.
/// (splitmix64's finaliser: cheap, and nearby inputs give unrelated outputs.)
pub fn finder_seed(match_seed: u64, guess: u32) -> u64 {
    let mut z = match_seed ^ (guess as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A match from its log: the created event (recognised by `setup_of`), then every
/// other event folded in order.
fn replay<'a, G: crate::rules::Game<Event = Event>, S>(
    events: impl IntoIterator<Item = &'a Event>,
    setup_of: fn(&EventKind) -> Option<&S>,
    from_setup: fn(&S, Millis) -> Result<G, SetupError>,
) -> Result<G, FoldError> {
    let mut events = events.into_iter();
    let misfit = |reason: String| FoldError { version: 1, reason };
    let first = events
        .next()
        .ok_or_else(|| misfit("the log is empty".into()))?;
    let setup = setup_of(&first.kind)
        .ok_or_else(|| misfit("the log does not start with this game's created event".into()))?;
    let mut game = from_setup(setup, first.at).map_err(|e| misfit(e.to_string()))?;
    for event in events {
        game.fold(event)?;
    }
    Ok(game)
}

/// Emits events while folding each into a copy of the state, so that a decision made
/// after an event sees its effects, exactly as a replay of the log will.
pub(crate) struct Emitter<S> {
    pub(crate) next: S,
    pub(crate) events: Vec<Event>,
    at: Millis,
}

impl<S: super::Game<Event = Event> + Clone> Emitter<S> {
    pub(crate) fn new(state: &S, at: Millis) -> Emitter<S> {
        Emitter {
            next: state.clone(),
            events: Vec::new(),
            at,
        }
    }

    pub(crate) fn emit(&mut self, kind: EventKind) {
        let event = Event { at: self.at, kind };
        self.next
            .fold(&event)
            .expect("an event the engine made fits the state it was made for");
        self.events.push(event);
    }

    pub(crate) fn finish(self) -> (Vec<Event>, S) {
        (self.events, self.next)
    }
}

#[cfg(test)]
mod tests {
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
        match serde_json::from_str::<Action>(json) {
            Ok(Action::Build { mode, .. }) => assert_eq!(mode, Mode::Observe),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn finder_seeds_differ_per_guess_and_repeat_per_match() {
        assert_eq!(finder_seed(7, 1), finder_seed(7, 1));
        assert_ne!(finder_seed(7, 1), finder_seed(7, 2));
        assert_ne!(finder_seed(7, 1), finder_seed(8, 1));
    }
}
