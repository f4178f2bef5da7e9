//! # Zendo Triple: the rule book
//!
//! "Koans and Patterns" of `shared/seeds/000_e58dd42109b6f19f.txt` as restated in
//! `shared/design/games.md` (Zendo Triple) and issue 16. Every rule is enforced in
//! this file and tested in its `tests` module under the name in brackets. Durations
//! are [`TripleTiming`] settings; the defaults are the seed's.
//!
//! **Setup**
//! - The arrows set, two different players, the starter one of them.
//!   `[setup_checks_set_players_and_starter]`
//! - As in the Duel, the player with the advantage (the one challenged, unless a host
//!   says otherwise) chooses who starts, either player; nobody else may, and nothing
//!   else happens before. They have one turn's length to choose; silence declines the
//!   match (no winner), as leaving before the start does. The time of play does not
//!   run meanwhile. (A setup may instead name the starter: matches from before.)
//!   `[advantage_player_chooses_who_starts]`
//! - Three hidden patterns, A, B and C, no two equivalent: the setup carries, for each
//!   pair, a structure that tells them apart, checked here (the opening builder finds
//!   them with the exact finder and checks each pattern reasonable; a replay never
//!   runs the finder). `[setup_proves_the_three_patterns_differ]`
//! - Two opening structures, #1 obeying all three patterns and #2 obeying as few as
//!   any structure can (none when some structure obeys none); both are shown graded on
//!   all three, so the marks of #2 say which it obeys. `[openings_are_graded_on_all_three]`
//!
//! **Step 1 (optional, free to skip)**
//! - A structure of the arrows set not given before (openings and counterexamples
//!   count) is *graded* (the default) or *challenged* on the patterns the player names
//!   among the unsolved ones: one, two or all; naming none means every unsolved one.
//!   A grade gives the marks at once. `[grade_marks_the_named_patterns_only]`
//! - Naming a solved pattern is refused (`Solved`): it has left the game.
//!   `[a_solved_pattern_cannot_be_graded_challenged_or_guessed]`
//! - Skipping step 1 costs nothing: the player may guess or end the turn at once.
//!   `[skipping_step_1_costs_nothing]`
//! - A challenge: the turn clock stops; both players answer privately, per named
//!   pattern, within 60 s; an answer may change until the reveal; the marks and the
//!   answers are revealed together when both have answered or time is up (silence is
//!   no answer); each right answer is one stone.
//!   `[challenge_pays_a_stone_per_right_answer]`, `[challenge_answer_can_change_until_the_reveal]`,
//!   `[challenge_answer_after_the_deadline_is_ignored]`
//! - Answers are private until the reveal. `[answers_stay_private_until_the_reveal]`
//!
//! **Step 2: guesses**
//! - A guess names one unsolved pattern and costs a stone; it is read back with the
//!   structures whose marks on that pattern contradict it, then confirmed or taken
//!   back (the stone returned). `[guess_is_read_back_and_can_be_taken_back]`
//! - An official guess waits for the umpire (the turn clock stops): a counterexample
//!   for that pattern (it joins the table marked on that pattern only, or names the
//!   table structure that already separates them) adds 30 s to the turn; the turn
//!   goes on. `[counterexample_marks_one_pattern_and_adds_30_seconds]`
//! - Proved equivalent: the guesser solves the pattern, which is revealed and leaves
//!   the game. A player with two solved patterns wins.
//!   `[solving_two_patterns_wins]`
//! - An undecided verdict voids the guess (stone back). A host may disallow a guess
//!   (stone back). `[void_and_disallowed_guesses_return_the_stone]`
//! - With no stone left after step 1 or a counterexample, the turn passes by itself.
//!   `[turn_passes_when_step_2_has_no_stone]`
//!
//! **Time**
//! - The turn clock (3:00) runs in steps 1 and 2, clarifying a guess included, and
//!   stops while a challenge is answered and while the umpire judges a guess.
//!   `[turn_clock_stops_for_challenges_and_verdicts]`
//! - Time-out skips the rest of the turn: a pending guess is taken back (stone
//!   returned); the turn passes. `[timeout_skips_the_rest_of_the_turn]`
//! - Requests after the time ran out are refused (`Expired`).
//!   `[timeout_skips_the_rest_of_the_turn]`
//!
//! **The quiz** (see [`quiz`] for the structures)
//! - The game clock (2 hours, a setting) counts play: it runs with the turn and
//!   challenge clocks (not while paused or waiting for the umpire). When it runs out,
//!   play stops (an open challenge is revealed as timed out, a pending guess taken
//!   back) and a quiz decides every unsolved pattern: 10 structures, each judged
//!   privately by both players on every unsolved pattern, within the quiz clock (5:00
//!   a round). An answer sheet may be replaced until the reveal.
//!   `[two_hours_start_the_quiz]`
//! - Per pattern the most right answers wins it. A tie adds 5 harder structures for
//!   that pattern (more pieces, on its boundary), repeated until decided; a tie round in
//!   which neither player answered anything on that pattern leaves it to nobody (so a
//!   deserted quiz ends). `[quiz_decides_and_breaks_a_tie]`
//! - The player with more patterns (solved plus won in the quiz) wins; if that is a
//!   tie too, the one who solved more by guessing wins; if still tied, the game is a
//!   draw (no winner). `[quiz_tie_on_patterns_is_decided_by_guessing_or_drawn]`
//!
//! **Resigning and the host**: a player may resign at any time (the opponent wins); a
//! host who does not play may pause, resume, disallow a guess and end the match (no
//! winner, every pattern revealed). `[resign_and_host_end]`
//!
//! **Secrets**: no view and no event a player hears holds an unsolved pattern before
//! the end. `[views_never_hold_an_unsolved_pattern]`

use super::{Answer, Core, Mode, Settings, TurnEnd, VerdictJob, Withdrawal, ZendoEvent};
use crate::finder::Verdict;
use crate::koan::{Koan, PieceSet};
use crate::lang::Pattern;
use crate::rules::{
    self, BySeat, Clock, Emitter, FoldError, Game, GameKind, Ledger, Millis, PlayerId, Role,
    RuleError, Seat, Secret, SetupError, Viewer, Who,
};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

pub mod opening;
pub mod quiz;
mod view;

pub use quiz::Question;
pub use view::{PhaseView, StepView, TripleView};

/// What a front (or the runtime) asks of a Triple.
pub type Action = rules::Action<TripleMove, Deadline>;
/// What a Triple's log holds.
pub type Event = rules::Event<TripleEvent>;

/// The name of one of the three hidden patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Letter {
    A,
    B,
    C,
}

impl Letter {
    pub const ALL: [Letter; 3] = [Letter::A, Letter::B, Letter::C];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn char(self) -> char {
        ['A', 'B', 'C'][self.index()]
    }
}

impl fmt::Display for Letter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl FromStr for Letter {
    type Err = String;
    fn from_str(s: &str) -> Result<Letter, String> {
        match s.trim().to_ascii_uppercase().as_str() {
            "A" => Ok(Letter::A),
            "B" => Ok(Letter::B),
            "C" => Ok(Letter::C),
            other => Err(format!(
                "`{other}` is not a pattern of this game: the patterns are A, B and C"
            )),
        }
    }
}

/// Reads a list of pattern letters as players write them: `A,C`, `a c`, `AB`.
/// Duplicates are dropped; the result is in order A, B, C.
pub fn letters(text: &str) -> Result<Vec<Letter>, String> {
    let mut out: Vec<Letter> = Vec::new();
    for c in text.chars().filter(|c| !c.is_whitespace() && *c != ',') {
        let l: Letter = c.to_string().parse()?;
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out.sort();
    Ok(out)
}

/// A structure's marks on the three patterns: known (`Some`) where graded.
pub type Marks = [Option<bool>; 3];

/// The Triple's durations, in milliseconds. Hosts may change them per server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TripleTiming {
    /// The whole turn: 3 minutes.
    pub turn_ms: Millis,
    /// To answer a challenge: 60 seconds.
    pub challenge_ms: Millis,
    /// Added to the turn per counterexample: 30 seconds.
    pub counterexample_bonus_ms: Millis,
    /// Play before the quiz: 2 hours.
    pub game_ms: Millis,
    /// To answer one round of the quiz: 5 minutes.
    pub quiz_ms: Millis,
}

impl Default for TripleTiming {
    fn default() -> TripleTiming {
        TripleTiming {
            turn_ms: 180_000,
            challenge_ms: 60_000,
            counterexample_bonus_ms: 30_000,
            game_ms: 2 * 3_600_000,
            quiz_ms: 300_000,
        }
    }
}

/// The two opening structures and the proof that the three patterns differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TripleOpening {
    /// Obeys all three patterns.
    pub all: Koan,
    /// Obeys as few of them as any structure can (none, when possible).
    pub fewest: Koan,
    /// For the pairs (A, B), (A, C) and (B, C), a structure on which the two disagree
    /// (not shown to players).
    pub separators: [Koan; 3],
}

/// Everything a Triple starts from. It travels in the first event (never announced).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TripleSetup {
    pub players: [PlayerId; 2],
    /// Who plays the first turn; None: the player with the `advantage` chooses.
    #[serde(default)]
    pub starter: Option<PlayerId>,
    /// Who chooses who starts (when no `starter` is named).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advantage: Option<PlayerId>,
    /// Patterns A, B and C (boxed, with the opening, to keep every game's setup small).
    pub hidden: Box<[Pattern; 3]>,
    pub opening: Box<TripleOpening>,
    #[serde(default = "arrows")]
    pub settings: Settings,
    #[serde(default)]
    pub timing: TripleTiming,
    pub seed: u64,
}

fn arrows() -> Settings {
    Settings {
        set: PieceSet::Arrows,
        ..Settings::default()
    }
}

/// A move in a Triple. Parsing happens in the fronts.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum TripleMove {
    /// The player with the advantage names who starts.
    ChooseStarter {
        starter: PlayerId,
    },
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
    Answer {
        answers: Vec<Answer>,
    },
    /// Step 2 (or step 1 skipped): spend a stone on a guess at one unsolved pattern.
    Guess {
        pattern: Letter,
        guess: Pattern,
    },
    Confirm,
    TakeBack,
    /// The turn is over.
    EndTurn,
    /// The quiz: a player's answer sheet, one answer per question in order.
    QuizAnswer {
        answers: Vec<Answer>,
    },
    /// Host: refuse the pending or awaited guess; the stone comes back.
    Disallow,
    /// Umpire: the finder's answer to official guess `guess` on `pattern`.
    Verdict {
        pattern: Letter,
        guess: u32,
        verdict: Verdict,
    },
}

impl rules::Move for TripleMove {
    fn role(&self) -> Role {
        match self {
            TripleMove::Disallow => Role::Host,
            TripleMove::Verdict { .. } => Role::Umpire,
            _ => Role::Player,
        }
    }

    fn describe(&self) -> &'static str {
        match self {
            TripleMove::Disallow => "disallow a guess",
            TripleMove::Verdict { .. } => "give verdicts",
            _ => "play",
        }
    }
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

/// One structure on the Triple's table with its public marks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TripleEntry {
    pub number: u32,
    pub koan: Koan,
    pub marks: Marks,
    pub origin: TripleOrigin,
}

/// How a structure came to the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum TripleOrigin {
    Opening,
    Graded {
        by: Seat,
    },
    Challenged {
        by: Seat,
        patterns: Vec<Letter>,
        answers: BySeat<Vec<Answer>>,
    },
    Counterexample {
        pattern: Letter,
        guess: u32,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// Step 1: a structure, or straight to guesses, or end the turn.
    Build,
    Challenge {
        koan: Koan,
        patterns: Vec<Letter>,
        answers: BySeat<Option<Vec<Answer>>>,
        clock: Clock,
    },
    Guess,
    Pending {
        pattern: Letter,
        guess: u32,
    },
    Verdict {
        pattern: Letter,
        guess: u32,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The player with the advantage chooses who starts.
    ChoosingStarter {
        advantage: Seat,
    },
    Turn {
        seat: Seat,
        #[serde(flatten)]
        step: Step,
    },
    Quiz {
        round: u32,
        questions: Vec<Question>,
        answers: BySeat<Option<Vec<Answer>>>,
        clock: Clock,
    },
    Over,
}

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Deadline {
    pub at: Millis,
    pub turn: u32,
    pub which: Which,
}

impl rules::Deadline for Deadline {
    fn at(&self) -> Millis {
        self.at
    }

    fn is(&self, other: &Deadline) -> bool {
        self == other
    }
}

/// A Zendo Triple in progress (or over).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Triple {
    ledger: Ledger,
    /// One umpire per pattern: its secret, its table (the structures graded on it,
    /// numbered as on the shared table) and its guesses.
    cores: [Core; 3],
    table: Vec<TripleEntry>,
    players: BySeat<PlayerId>,
    timing: TripleTiming,
    phase: Phase,
    turn: u32,
    stones: BySeat<u32>,
    /// The turn clock.
    clock: Clock,
    /// The 2 hours of play.
    game_clock: Clock,
    /// Who solved each pattern by guessing.
    solved: [Option<Seat>; 3],
    /// Who won each pattern in the quiz (`Some(None)`: nobody).
    quiz_won: [Option<Option<Seat>>; 3],
    outcome: Option<TripleOutcome>,
    seed: u64,
}

impl Triple {
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn turn_seat(&self) -> Option<Seat> {
        match self.phase {
            Phase::Turn { seat, .. } => Some(seat),
            _ => None,
        }
    }

    /// The player with the advantage, while they choose who starts.
    pub fn choosing(&self) -> Option<Seat> {
        match self.phase {
            Phase::ChoosingStarter { advantage } => Some(advantage),
            _ => None,
        }
    }

    pub fn stones(&self, seat: Seat) -> u32 {
        self.stones[seat]
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn game_clock(&self) -> &Clock {
        &self.game_clock
    }

    pub fn timing(&self) -> TripleTiming {
        self.timing
    }

    pub fn table(&self) -> &[TripleEntry] {
        &self.table
    }

    pub fn settings(&self) -> Settings {
        self.cores[0].settings
    }

    /// Who solved each pattern by guessing.
    pub fn solved(&self) -> [Option<Seat>; 3] {
        self.solved
    }

    pub fn quiz_won(&self) -> [Option<Option<Seat>>; 3] {
        self.quiz_won
    }

    pub fn outcome(&self) -> Option<TripleOutcome> {
        self.outcome
    }

    pub fn winner(&self) -> Option<Seat> {
        match self.outcome? {
            TripleOutcome::TwoSolved { by } => Some(by),
            TripleOutcome::Quiz { winner, .. } => winner,
            TripleOutcome::Resigned { by } => Some(by.other()),
            TripleOutcome::Ended { .. } | TripleOutcome::Declined { .. } => None,
        }
    }

    /// The patterns not solved yet, in order.
    pub fn unsolved(&self) -> Vec<Letter> {
        Letter::ALL
            .into_iter()
            .filter(|l| self.solved[l.index()].is_none())
            .collect()
    }

    /// Pattern `letter`'s umpire: for the umpire and the tests, never for a front.
    pub fn core(&self, letter: Letter) -> &Core {
        &self.cores[letter.index()]
    }

    /// The hidden pattern `letter`: for the umpire only.
    pub fn hidden(&self, letter: Letter) -> &Pattern {
        &self.cores[letter.index()].hidden
    }

    /// The guess awaiting the umpire's verdict.
    pub fn awaited_guess(&self) -> Option<(Letter, u32)> {
        match self.phase {
            Phase::Turn {
                step: Step::Verdict { pattern, guess },
                ..
            } => Some((pattern, guess)),
            _ => None,
        }
    }

    /// What the finder needs for the awaited guess.
    pub fn verdict_job(&self) -> Option<(Letter, VerdictJob)> {
        let (l, g) = self.awaited_guess()?;
        Some((l, self.cores[l.index()].verdict_job(g)?))
    }

    fn marks_of(&self, koan: &Koan, letters: &[Letter]) -> Marks {
        let mut marks = [None; 3];
        for l in letters {
            marks[l.index()] = Some(self.cores[l.index()].obeys(koan));
        }
        marks
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

    fn check_time(&self, now: Millis) -> Result<(), RuleError> {
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

    fn step(&self) -> Result<(Seat, &Step), FoldError> {
        match &self.phase {
            Phase::Turn { seat, step } => Ok((*seat, step)),
            _ => Err(self.ledger.misfit("no turn is in progress")),
        }
    }

    fn set_step(&mut self, seat: Seat, step: Step) {
        self.phase = Phase::Turn { seat, step };
        self.ledger.enter();
    }

    fn push(&mut self, koan: Koan, marks: Marks, origin: TripleOrigin) -> u32 {
        let number = self.table.len() as u32 + 1;
        for l in Letter::ALL {
            if let Some(obeys) = marks[l.index()] {
                let origin = super::Origin::Initial; // per-pattern tables only need the verdict
                self.cores[l.index()]
                    .table
                    .push_numbered(number, koan.clone(), obeys, origin);
            }
        }
        self.table.push(TripleEntry {
            number,
            koan,
            marks,
            origin,
        });
        number
    }

    /// Each player's patterns: solved plus won in the quiz.
    fn pattern_counts(&self) -> [u32; 2] {
        let mut counts = [0; 2];
        for i in 0..3 {
            let owner = self.solved[i].or(self.quiz_won[i].flatten());
            if let Some(s) = owner {
                counts[s.index()] += 1;
            }
        }
        counts
    }
}

/// Ends the turn of `seat` and starts the opponent's.
fn pass_turn(out: &mut Emitter<Triple>, seat: Seat, why: TurnEnd) {
    out.emit(TripleEvent::TurnEnded { seat, why });
    let turn = out.next().turn + 1;
    out.emit(TripleEvent::TurnStarted {
        turn,
        seat: seat.other(),
    });
}

/// Step 2 with no stone has nothing in it: the turn passes.
fn pass_if_no_stone(out: &mut Emitter<Triple>) {
    if let Phase::Turn {
        seat,
        step: Step::Guess,
    } = out.next().phase
        && out.next().stones(seat) == 0
    {
        pass_turn(out, seat, TurnEnd::NoTickets);
    }
}

/// Marks and answers together; silence is no answer.
fn reveal(out: &mut Emitter<Triple>, time_up: bool) {
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

/// The end by the quiz: more patterns wins; then more solved by guessing; else a draw.
fn quiz_outcome(t: &Triple) -> TripleOutcome {
    let patterns = t.pattern_counts();
    let mut guessed = [0u32; 2];
    for s in t.solved.iter().flatten() {
        guessed[s.index()] += 1;
    }
    let winner = match (patterns[0].cmp(&patterns[1]), guessed[0].cmp(&guessed[1])) {
        (std::cmp::Ordering::Greater, _) => Some(Seat::FIRST),
        (std::cmp::Ordering::Less, _) => Some(Seat::SECOND),
        (_, std::cmp::Ordering::Greater) => Some(Seat::FIRST),
        (_, std::cmp::Ordering::Less) => Some(Seat::SECOND),
        _ => None,
    };
    TripleOutcome::Quiz { winner, patterns }
}

fn ended(t: &Triple, outcome: TripleOutcome) -> TripleEvent {
    TripleEvent::TripleEnded {
        outcome,
        patterns: [0, 1, 2].map(|i| t.cores[i].hidden.source.clone()),
    }
}

/// Play stops and the first round of the quiz opens (or, with nothing left to
/// decide, the game ends).
fn stop_play(out: &mut Emitter<Triple>) {
    let t = out.next();
    match &t.phase {
        Phase::Turn {
            step: Step::Challenge { .. },
            ..
        } => reveal(out, true),
        Phase::Turn {
            step: Step::Pending { pattern, guess },
            ..
        } => {
            let (pattern, number) = (*pattern, *guess);
            out.emit(TripleEvent::Pattern {
                pattern,
                zendo: ZendoEvent::GuessWithdrawn {
                    number,
                    why: Withdrawal::TimeUp,
                },
            });
        }
        _ => {}
    }
    out.emit(TripleEvent::PlayStopped);
    let t = out.next();
    let unsolved = t.unsolved();
    let taken: Vec<Koan> = t.table.iter().map(|e| e.koan.clone()).collect();
    let questions = quiz::first_round(t.settings().set, t.seed, &taken, &unsolved);
    out.emit(TripleEvent::QuizStarted {
        round: 1,
        questions,
    });
}

/// The quiz round's reveal: patterns decided, a tie round, or the end.
fn quiz_reveal(out: &mut Emitter<Triple>, time_up: bool) {
    let t = out.next();
    let Phase::Quiz {
        round,
        questions,
        answers,
        ..
    } = &t.phase
    else {
        return;
    };
    let (round, questions) = (*round, questions.clone());
    let n = questions.len();
    let answers = answers.map(|a| a.clone().unwrap_or_else(|| vec![Answer::Pass; n]));
    let truths: Vec<bool> = questions
        .iter()
        .map(|q| t.cores[q.pattern.index()].obeys(&q.koan))
        .collect();
    let mut won: [Option<Option<Seat>>; 3] = [None; 3];
    for l in Letter::ALL {
        let asked: Vec<usize> = (0..n).filter(|&i| questions[i].pattern == l).collect();
        if asked.is_empty() {
            continue;
        }
        let right = |s: usize| {
            asked
                .iter()
                .filter(|&&i| answers.values()[s][i].is_correct(truths[i]))
                .count()
        };
        let silent = asked
            .iter()
            .all(|&i| answers.values().iter().all(|a| a[i] == Answer::Pass));
        won[l.index()] = match right(0).cmp(&right(1)) {
            std::cmp::Ordering::Greater => Some(Some(Seat::FIRST)),
            std::cmp::Ordering::Less => Some(Some(Seat::SECOND)),
            std::cmp::Ordering::Equal if round > 1 && silent => Some(None),
            std::cmp::Ordering::Equal => None,
        };
    }
    let tied: Vec<Letter> = Letter::ALL
        .into_iter()
        .filter(|l| questions.iter().any(|q| q.pattern == *l) && won[l.index()].is_none())
        .collect();
    out.emit(TripleEvent::QuizRevealed {
        round,
        answers,
        truths,
        time_up,
        won,
    });
    let t = out.next();
    if tied.is_empty() {
        let outcome = quiz_outcome(t);
        out.emit(ended(t, outcome));
        return;
    }
    let mut taken: Vec<Koan> = t.table.iter().map(|e| e.koan.clone()).collect();
    taken.extend(questions.iter().map(|q| q.koan.clone()));
    let formulas: Vec<_> = tied
        .iter()
        .map(|l| (*l, &t.cores[l.index()].hidden.formula))
        .collect();
    let questions = quiz::tie_round(t.settings().set, t.seed, round + 1, &taken, &formulas);
    out.emit(TripleEvent::QuizStarted {
        round: round + 1,
        questions,
    });
}

impl Game for Triple {
    const KIND: GameKind = GameKind::ZendoTriple;
    const CLOCKED: bool = true;
    type Setup = TripleSetup;
    type Move = TripleMove;
    type Event = TripleEvent;
    type View = TripleView;
    type Deadline = Deadline;
    type Work = (Letter, VerdictJob);

    fn from_setup(setup: &TripleSetup, now: Millis) -> Result<Triple, SetupError> {
        let set = setup.settings.set;
        if set != PieceSet::Arrows {
            return Err(SetupError::Invalid(format!(
                "Zendo Triple plays with the arrows set, not the {set} set"
            )));
        }
        let [a, b] = setup.players;
        if a == b {
            return Err(SetupError::SamePlayer);
        }
        let seat_of = |p: PlayerId| match p {
            p if p == a => Some(Seat::FIRST),
            p if p == b => Some(Seat::SECOND),
            _ => None,
        };
        let phase = match (setup.starter, setup.advantage) {
            (Some(p), None) => Phase::Turn {
                seat: seat_of(p).ok_or_else(|| {
                    SetupError::Invalid("the starting player must be one of the two players".into())
                })?,
                step: Step::Build,
            },
            (None, Some(p)) => Phase::ChoosingStarter {
                advantage: seat_of(p).ok_or(SetupError::AdvantageNotPlaying)?,
            },
            _ => {
                return Err(SetupError::Invalid(
                    "name either who starts or who chooses it (the advantage), not both".into(),
                ));
            }
        };
        let turn = u32::from(matches!(phase, Phase::Turn { .. }));
        let t = setup.timing;
        if t.turn_ms == 0 || t.challenge_ms == 0 || t.game_ms == 0 || t.quiz_ms == 0 {
            return Err(SetupError::BadSettings(
                "the turn, the challenge, the game and the quiz need some time (more than 0 ms)",
            ));
        }
        let o = &setup.opening;
        for (koan, which) in [(&o.all, "#1"), (&o.fewest, "#2")]
            .into_iter()
            .chain(o.separators.iter().map(|k| (k, "separating")))
        {
            if koan.set() != set {
                return Err(SetupError::Invalid(format!(
                    "the {which} structure is not of the arrows set"
                )));
            }
        }
        if o.all == o.fewest {
            return Err(SetupError::Invalid(
                "the two opening structures are the same".into(),
            ));
        }
        let mut cores = Vec::new();
        for (i, hidden) in setup.hidden.iter().enumerate() {
            let l = Letter::ALL[i];
            crate::lang::check_set(hidden, set).map_err(|e| {
                SetupError::Invalid(format!("pattern {l} does not fit the arrows set: {e}"))
            })?;
            if !crate::lang::evaluate(&hidden.formula, &o.all) {
                return Err(SetupError::Invalid(format!(
                    "opening structure #1 must obey all three patterns; it does not obey {l}"
                )));
            }
            cores.push(Core {
                hidden: hidden.clone(),
                settings: setup.settings,
                seed: super::finder_seed(setup.seed, 1000 + i as u32),
                table: Default::default(),
                guesses: Vec::new(),
                outcome: None,
            });
        }
        for ((x, y), k) in [(0, 1), (0, 2), (1, 2)].into_iter().zip(&o.separators) {
            let (hx, hy) = (&setup.hidden[x].formula, &setup.hidden[y].formula);
            if crate::lang::evaluate(hx, k) == crate::lang::evaluate(hy, k) {
                return Err(SetupError::Invalid(format!(
                    "patterns {} and {} must differ: their separating structure {} does not \
                     tell them apart",
                    Letter::ALL[x],
                    Letter::ALL[y],
                    k.to_line()
                )));
            }
        }
        let cores: [Core; 3] = cores
            .try_into()
            .map_err(|_| SetupError::Invalid("three patterns are needed".into()))?;
        let mut triple = Triple {
            ledger: Ledger::new(now),
            cores,
            table: Vec::new(),
            players: setup.players.into(),
            timing: t,
            phase,
            turn,
            stones: BySeat::new(2, 0),
            clock: Clock::stopped(t.turn_ms),
            game_clock: Clock::stopped(t.game_ms),
            solved: [None; 3],
            quiz_won: [None; 3],
            outcome: None,
            seed: setup.seed,
        };
        let every = Letter::ALL;
        let all = triple.marks_of(&o.all, &every);
        let fewest = triple.marks_of(&o.fewest, &every);
        triple.push(o.all.clone(), all, TripleOrigin::Opening);
        triple.push(o.fewest.clone(), fewest, TripleOrigin::Opening);
        triple.sync_clocks(now);
        Ok(triple)
    }

    fn created(setup: TripleSetup) -> TripleEvent {
        TripleEvent::TripleCreated {
            setup: Box::new(setup),
        }
    }

    fn setup_of(event: &TripleEvent) -> Option<&TripleSetup> {
        match event {
            TripleEvent::TripleCreated { setup } => Some(setup),
            _ => None,
        }
    }

    fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    fn ledger_mut(&mut self) -> &mut Ledger {
        &mut self.ledger
    }

    fn players(&self) -> &[PlayerId] {
        self.players.values()
    }

    fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn listed_settings(&self) -> serde_json::Value {
        serde_json::json!({"settings": self.settings(), "timing": self.timing})
    }

    fn check_turn(&self, seat: Seat, m: &TripleMove) -> Result<(), RuleError> {
        if let Some(advantage) = self.choosing()
            && seat != advantage
        {
            return Err(RuleError::NotYourTurn {
                waiting_for: self.player(advantage),
            });
        }
        match (m, self.turn_seat()) {
            (TripleMove::ChooseStarter { .. }, _) => Ok(()),
            (TripleMove::Answer { .. } | TripleMove::QuizAnswer { .. }, _) => Ok(()),
            (_, Some(s)) if s != seat => Err(RuleError::NotYourTurn {
                waiting_for: self.player(s),
            }),
            _ => Ok(()),
        }
    }

    fn check_phase(&self, m: &TripleMove, _now: Millis) -> Result<(), RuleError> {
        use RuleError::WrongPhase;
        let step = match &self.phase {
            Phase::Turn { step, .. } => Some(step),
            Phase::Quiz { .. } => None,
            Phase::Over => return Err(RuleError::MatchOver),
            Phase::ChoosingStarter { .. } => {
                return match m {
                    TripleMove::ChooseStarter { .. } => Ok(()),
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
            TripleMove::ChooseStarter { .. } => {
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
            TripleMove::Guess { .. } | TripleMove::EndTurn => match step {
                Some(Step::Build | Step::Guess) => Ok(()),
                _ => Err(busy("")),
            },
            TripleMove::Confirm | TripleMove::TakeBack => match step {
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
            TripleMove::Disallow => match step {
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

    fn rule(
        &self,
        out: &mut Emitter<Triple>,
        who: Who,
        m: &TripleMove,
        now: Millis,
    ) -> Result<(), RuleError> {
        let seat = match who {
            Who::Player(seat) => seat,
            _ => self.turn_seat().unwrap_or(Seat::FIRST),
        };
        let pending = match self.phase {
            Phase::Turn {
                step: Step::Pending { pattern, guess } | Step::Verdict { pattern, guess },
                ..
            } => Some((pattern, guess)),
            _ => None,
        };
        match m {
            TripleMove::ChooseStarter { starter } => {
                self.check_time(now)?;
                let starter = self
                    .seat_of(*starter)
                    .ok_or(RuleError::NotInMatch(*starter))?;
                out.emit(TripleEvent::StarterChosen { starter });
                out.emit(TripleEvent::TurnStarted {
                    turn: 1,
                    seat: starter,
                });
            }
            TripleMove::Build {
                koan,
                mode,
                patterns,
            } => {
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
            }
            TripleMove::Answer { answers } => {
                let Phase::Turn {
                    step:
                        Step::Challenge {
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
                    answers: Some(answers.clone()),
                });
                if let Phase::Turn {
                    step: Step::Challenge { answers, .. },
                    ..
                } = &out.next().phase
                    && answers.values().iter().all(Option::is_some)
                {
                    reveal(out, false);
                }
            }
            TripleMove::Guess { pattern, guess } => {
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
            }
            TripleMove::Confirm => {
                self.check_time(now)?;
                let Some((pattern, number)) = pending else {
                    return Err(RuleError::WrongPhase("there is no guess to confirm"));
                };
                for event in self.cores[pattern.index()].confirmed(number) {
                    out.emit(TripleEvent::Pattern {
                        pattern,
                        zendo: event,
                    });
                }
                pass_if_no_stone(out);
            }
            TripleMove::TakeBack => {
                self.check_time(now)?;
                let Some((pattern, number)) = pending else {
                    return Err(RuleError::WrongPhase("there is no guess to take back"));
                };
                out.emit(TripleEvent::Pattern {
                    pattern,
                    zendo: ZendoEvent::GuessWithdrawn {
                        number,
                        why: Withdrawal::TakenBack,
                    },
                });
            }
            TripleMove::EndTurn => {
                self.check_time(now)?;
                pass_turn(out, seat, TurnEnd::Ended);
            }
            TripleMove::QuizAnswer { answers } => {
                let Phase::Quiz {
                    questions, clock, ..
                } = &self.phase
                else {
                    return Err(RuleError::WrongPhase("the quiz has not begun"));
                };
                check_sheet(
                    clock,
                    now,
                    (questions.len(), answers.len()),
                    "the time to answer this round is over; the answers do not count",
                    "answer every question of the round, in order (obeys, not or pass each)",
                )?;
                out.emit(TripleEvent::QuizAnswered {
                    seat,
                    answers: Some(answers.clone()),
                });
                if let Phase::Quiz { answers, .. } = &out.next().phase
                    && answers.values().iter().all(Option::is_some)
                {
                    quiz_reveal(out, false);
                }
            }
            TripleMove::Disallow => {
                let Who::Host(by) = who else {
                    return Err(RuleError::HostOnly(rules::Move::describe(m)));
                };
                let Some((pattern, number)) = pending else {
                    return Err(RuleError::WrongPhase("there is no guess to disallow"));
                };
                out.emit(TripleEvent::Pattern {
                    pattern,
                    zendo: ZendoEvent::GuessWithdrawn {
                        number,
                        why: Withdrawal::Disallowed { by },
                    },
                });
            }
            TripleMove::Verdict {
                pattern,
                guess,
                verdict,
            } => {
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
            }
        }
        Ok(())
    }

    /// Before anyone played, leaving is declining, not losing.
    fn resign(&self, out: &mut Emitter<Triple>, seat: Seat) -> Result<(), RuleError> {
        let outcome = if self.choosing().is_some() {
            TripleOutcome::Declined {
                by: seat,
                time_up: false,
            }
        } else {
            TripleOutcome::Resigned { by: seat }
        };
        out.emit(ended(self, outcome));
        Ok(())
    }

    fn end(&self, out: &mut Emitter<Triple>, by: PlayerId) {
        out.emit(ended(self, TripleOutcome::Ended { by }));
    }

    fn time_out(&self, out: &mut Emitter<Triple>, deadline: Deadline) {
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

    fn next_deadline(&self) -> Option<Deadline> {
        if self.ledger.paused {
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

    fn fold_game(&mut self, event: &TripleEvent, _at: Millis) -> Result<(), FoldError> {
        match event {
            TripleEvent::TripleCreated { .. } => {
                return Err(self.ledger.misfit("a match is created only once"));
            }
            TripleEvent::StarterChosen { .. } => {
                if self.choosing().is_none() {
                    return Err(self.ledger.misfit("the starter was already chosen"));
                }
            }
            TripleEvent::TurnStarted { turn, seat } => {
                self.turn = *turn;
                self.clock = Clock::stopped(self.timing.turn_ms);
                self.set_step(*seat, Step::Build);
            }
            TripleEvent::Graded { by, koan, marks } => {
                let (seat, step) = self.step()?;
                if seat != *by || *step != Step::Build {
                    return Err(self.ledger.misfit("step 1 is not in progress"));
                }
                self.push(koan.clone(), *marks, TripleOrigin::Graded { by: seat });
                self.set_step(seat, Step::Guess);
            }
            TripleEvent::ChallengeOpened { by, koan, patterns } => {
                let (seat, step) = self.step()?;
                if seat != *by || *step != Step::Build {
                    return Err(self.ledger.misfit("step 1 is not in progress"));
                }
                let step = Step::Challenge {
                    koan: koan.clone(),
                    patterns: patterns.clone(),
                    answers: BySeat::new(2, None),
                    clock: Clock::stopped(self.timing.challenge_ms),
                };
                self.set_step(seat, step);
            }
            TripleEvent::ChallengeAnswered { seat, answers } => {
                let Some(given) = answers else {
                    return Err(self
                        .ledger
                        .misfit("challenge answers without their content"));
                };
                match &mut self.phase {
                    Phase::Turn {
                        step: Step::Challenge { answers, .. },
                        ..
                    } if answers.get(*seat).is_some() => answers[*seat] = Some(given.clone()),
                    _ => return Err(self.ledger.misfit("no challenge is open")),
                }
            }
            TripleEvent::ChallengeRevealed { answers, marks, .. } => {
                let (seat, step) = self.step()?;
                let Step::Challenge { koan, patterns, .. } = step else {
                    return Err(self.ledger.misfit("no challenge is open"));
                };
                let (koan, patterns) = (koan.clone(), patterns.clone());
                if answers.len() != 2 {
                    return Err(self.ledger.misfit("a challenge has two answer sheets"));
                }
                for (s, sheet) in answers.iter() {
                    let right = patterns
                        .iter()
                        .zip(sheet)
                        .filter(|(l, a)| marks[l.index()].is_some_and(|m| a.is_correct(m)))
                        .count();
                    self.stones[s] += right as u32;
                }
                let origin = TripleOrigin::Challenged {
                    by: seat,
                    patterns,
                    answers: answers.clone(),
                };
                self.push(koan, *marks, origin);
                self.set_step(seat, Step::Guess);
            }
            TripleEvent::Pattern { pattern, zendo } => self.fold_pattern(*pattern, zendo)?,
            TripleEvent::Solved {
                pattern, by, guess, ..
            } => {
                let i = pattern.index();
                let ended = ZendoEvent::MatchEnded {
                    outcome: super::Outcome::Solved {
                        by: *by,
                        guess: *guess,
                    },
                    pattern: String::new(),
                };
                self.cores[i].fold(&ended, &mut self.ledger)?;
                self.solved[i] = Some(*by);
                let (seat, _) = self.step()?;
                self.set_step(seat, Step::Guess);
            }
            TripleEvent::TurnEnded { seat, .. } => {
                if self.step()?.0 != *seat {
                    return Err(self.ledger.misfit("it is not that player's turn"));
                }
            }
            TripleEvent::PlayStopped => {
                self.game_clock = Clock::stopped(0);
            }
            TripleEvent::QuizStarted { round, questions } => {
                self.phase = Phase::Quiz {
                    round: *round,
                    questions: questions.clone(),
                    answers: BySeat::new(2, None),
                    clock: Clock::stopped(self.timing.quiz_ms),
                };
                self.ledger.enter();
            }
            TripleEvent::QuizAnswered { seat, answers } => {
                let Some(given) = answers else {
                    return Err(self.ledger.misfit("quiz answers without their content"));
                };
                match &mut self.phase {
                    Phase::Quiz { answers, .. } if answers.get(*seat).is_some() => {
                        answers[*seat] = Some(given.clone())
                    }
                    _ => return Err(self.ledger.misfit("no quiz round is open")),
                }
            }
            TripleEvent::QuizRevealed { won, .. } => {
                for (i, w) in won.iter().enumerate() {
                    if w.is_some() {
                        self.quiz_won[i] = *w;
                    }
                }
            }
            TripleEvent::TripleEnded { outcome, .. } => {
                self.outcome = Some(*outcome);
                self.phase = Phase::Over;
                self.ledger.enter();
            }
        }
        Ok(())
    }

    fn skip_downtime(&mut self, from: Millis, to: Millis) {
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
    fn sync_clocks(&mut self, at: Millis) {
        let paused = self.ledger.paused;
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

    fn view(&self, viewer: &Viewer) -> TripleView {
        view::triple(self, viewer)
    }

    /// The created event holds the patterns; answers are heard whole only by the one
    /// who gave them.
    fn secrets(&self, viewer: &Viewer) -> Vec<Secret> {
        if self.is_over() {
            return Vec::new();
        }
        let mut out = vec![Secret::Seed(self.seed)];
        // A solved pattern has left the game: its guess said it.
        for (core, solved) in self.cores.iter().zip(self.solved) {
            if solved.is_none() {
                out.push(Secret::Pattern(Box::new(core.hidden.clone())));
            }
        }
        out.extend(Secret::others(2, self.viewer_seat(viewer)));
        out
    }

    fn redact(&self, event: &TripleEvent, viewer: &Viewer) -> Option<TripleEvent> {
        let mine = |seat: &Seat| self.viewer_seat(viewer) == Some(*seat);
        match event {
            TripleEvent::TripleCreated { .. } => None,
            TripleEvent::ChallengeAnswered { seat, .. } if !mine(seat) => {
                Some(TripleEvent::ChallengeAnswered {
                    seat: *seat,
                    answers: None,
                })
            }
            TripleEvent::QuizAnswered { seat, .. } if !mine(seat) => {
                Some(TripleEvent::QuizAnswered {
                    seat: *seat,
                    answers: None,
                })
            }
            _ => Some(event.clone()),
        }
    }

    /// Keyed by pattern and guess number (each pattern numbers its own guesses).
    fn work(&self) -> Option<(u64, (Letter, VerdictJob))> {
        let (l, job) = self.verdict_job()?;
        Some((work_key(l, job.guess), (l, job)))
    }

    fn perform(work: (Letter, VerdictJob), stop: Arc<AtomicBool>) -> TripleMove {
        let (pattern, job) = work;
        TripleMove::Verdict {
            pattern,
            guess: job.guess,
            verdict: job.judge(stop),
        }
    }

    fn abandon(key: u64, reason: &str) -> Option<TripleMove> {
        let pattern = *Letter::ALL.get((key >> 32) as usize)?;
        Some(TripleMove::Verdict {
            pattern,
            guess: key as u32,
            verdict: Verdict::Undecided {
                reason: reason.to_string(),
            },
        })
    }
}

/// A sheet of private answers (a challenge's or a quiz round's): in time, and one
/// answer per question.
fn check_sheet(
    clock: &Clock,
    now: Millis,
    (wanted, given): (usize, usize),
    late: &'static str,
    count: &'static str,
) -> Result<(), RuleError> {
    if clock.has_expired(now) {
        Err(RuleError::Expired(late))
    } else if wanted != given {
        Err(RuleError::Unsupported(count))
    } else {
        Ok(())
    }
}

fn work_key(l: Letter, guess: u32) -> u64 {
    ((l.index() as u64) << 32) | guess as u64
}

impl Triple {
    /// A guess's life on one pattern: the shared umpire folds the guess; the Triple
    /// folds stones, steps, the table and the +30 s.
    fn fold_pattern(&mut self, l: Letter, event: &ZendoEvent) -> Result<(), FoldError> {
        let i = l.index();
        let (seat, step) = self.step()?;
        let step = step.clone();
        match event {
            ZendoEvent::GuessRead { by, .. } => {
                if seat != *by
                    || !matches!(step, Step::Build | Step::Guess)
                    || self.stones(seat) == 0
                {
                    return Err(self.ledger.misfit("no stone to pay for the guess"));
                }
                self.cores[i].fold(event, &mut self.ledger)?;
                let number = self.cores[i].guesses.len() as u32;
                self.stones[seat] -= 1;
                self.set_step(
                    seat,
                    Step::Pending {
                        pattern: l,
                        guess: number,
                    },
                );
            }
            ZendoEvent::GuessConfirmed { number } => {
                if step
                    != (Step::Pending {
                        pattern: l,
                        guess: *number,
                    })
                {
                    return Err(self.ledger.misfit("that guess is not pending"));
                }
                self.cores[i].fold(event, &mut self.ledger)?;
                self.set_step(
                    seat,
                    Step::Verdict {
                        pattern: l,
                        guess: *number,
                    },
                );
            }
            ZendoEvent::GuessWithdrawn { number, .. }
            | ZendoEvent::GuessUndecided { number, .. } => {
                match step {
                    Step::Pending { pattern, guess } | Step::Verdict { pattern, guess }
                        if pattern == l && guess == *number => {}
                    _ => return Err(self.ledger.misfit("that guess is not in play")),
                }
                self.cores[i].fold(event, &mut self.ledger)?;
                self.stones[seat] += 1;
                self.set_step(seat, Step::Guess);
            }
            ZendoEvent::Refuted {
                number,
                counterexample,
                on_table,
            } => {
                if step
                    != (Step::Verdict {
                        pattern: l,
                        guess: *number,
                    })
                {
                    return Err(self.ledger.misfit("that guess is not awaiting a verdict"));
                }
                // A new structure joins the shared table, marked on this pattern only;
                // the pattern's own table then names it.
                let on_table = match on_table {
                    Some(n) => *n,
                    None => {
                        if self.table.iter().any(|e| e.koan == counterexample.koan) {
                            return Err(self
                                .ledger
                                .misfit("the counterexample is already on the table"));
                        }
                        let mut marks = [None; 3];
                        marks[i] = Some(counterexample.hidden);
                        let origin = TripleOrigin::Counterexample {
                            pattern: l,
                            guess: *number,
                        };
                        self.push(counterexample.koan.clone(), marks, origin)
                    }
                };
                let named = ZendoEvent::Refuted {
                    number: *number,
                    counterexample: counterexample.clone(),
                    on_table: Some(on_table),
                };
                self.cores[i].fold(&named, &mut self.ledger)?;
                self.clock.add(self.timing.counterexample_bonus_ms);
                self.set_step(seat, Step::Guess);
            }
            ZendoEvent::Observed { .. } | ZendoEvent::MatchEnded { .. } => {
                return Err(self.ledger.misfit("not an event of one pattern's guesses"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
