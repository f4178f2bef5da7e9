//! # Zendo Triple: the rule book
//!
//! "Koans and Patterns", the Death Match's three-pattern variant, as players read it
//! in docs/games/triple.md. Every rule is enforced in this folder (each part in the
//! file named under **Where each rule lives**) and tested in `tests.rs` under the name
//! in brackets. Durations are [`TripleTiming`] settings; the defaults are the original
//! game's.
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
//! - Idle play (docs/ratings.md, "Fair play"), as in the Duel: after [`IDLE_TURNS`]
//!   turns in a row ran out in step 1 with nothing done, the match is abandoned (no
//!   result); a side whose own turns ran out [`IDLE_OWN_TURNS`] times in a row, with
//!   nothing done by it in between, while the other played is idle: the match ends,
//!   a side that had acted losing on time, one that never acted aborting it.
//!   `[a_triple_nobody_plays_is_abandoned]`, `[a_side_that_stops_after_playing_loses_on_time]`,
//!   `[a_side_that_never_plays_aborts_the_triple]`
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
//!
//! **Where each rule lives**
//! - `setup.rs`: **Setup**: the checks that start a match, the durations, the opening
//!   structures (built by `opening.rs`).
//! - `turn.rs`: who starts, **Step 1** (grading), ending a turn and passing it.
//! - `challenge.rs`: the challenge of **Step 1**: private answers, the reveal.
//! - `guesses.rs`: **Step 2**: guesses, their read-back, verdicts, a host's disallow.
//! - `clocks.rs`: **Time**: which clock runs when, deadlines, time-outs, late requests.
//! - `quiz.rs`: **The quiz**: play stopping, its rounds and ties, the winner; and the
//!   structures it asks about.
//! - `checks.rs`: who may act, and in which step (refused before any rule runs).
//! - `fold.rs`: what each logged event does to the match (a replay runs only this).
//! - `events.rs`: the moves and the events; `view.rs`: what each viewer may see
//!   (**Secrets**).
//! - this file: the match's state, resigning and a host's end, and the `Game`
//!   implementation that hands each move to its file.

use super::{Core, Settings, TurnEnd, VerdictJob, ZendoMove};
use crate::finder::Verdict;
use crate::koan::Koan;
use crate::lang::Pattern;
use crate::rules::{
    self, Clock, Emitter, FoldError, Game, Millis, PlayerId, RuleError, Seat, Secret, SetupError,
    Viewer, Who,
};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

mod challenge;
mod checks;
mod clocks;
mod events;
mod fold;
mod guesses;
mod letter;
pub mod opening;
pub mod quiz;
pub mod section;
mod setup;
mod start;
mod state;
mod turn;
mod view;

pub use clocks::{Deadline, Which};
pub use events::{Question, TripleEvent, TripleMove, TripleOutcome};
pub use letter::{Letter, Marks};
pub use section::TripleConfig as Section;
pub use setup::{TripleOpening, TripleSetup, TripleTiming};
pub use state::{Phase, Step, Triple, TripleEntry, TripleOrigin};
pub use view::{PhaseView, StepView, TripleView};

crate::rules::game_types! {
    Triple: ZendoTriple, clocked: true, deadline: Deadline, work: (Letter, VerdictJob), log: Event,
    setup: TripleSetup, moves: TripleMove, events: TripleEvent::TripleCreated,
}

super::moves::shared_moves_in!(TripleMove, Action);

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

super::turn::turns!(Triple, Phase, Step);

impl Triple {
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
            // Idle after acting loses; never having acted aborts (no winner).
            TripleOutcome::Idle { seat, acted } => acted.then(|| seat.other()),
            TripleOutcome::Ended { .. }
            | TripleOutcome::Declined { .. }
            | TripleOutcome::Abandoned => None,
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
    /// A counterexample is a structure not yet on the table: the shared table, not
    /// only the structures graded on the guessed pattern (one graded on other patterns
    /// is on the table too).
    pub fn verdict_job(&self) -> Option<(Letter, VerdictJob)> {
        let (l, g) = self.awaited_guess()?;
        let mut job = self.cores[l.index()].verdict_job(g)?;
        job.table = self.table.iter().map(|e| e.koan.clone()).collect();
        Some((l, job))
    }

    fn marks_of(&self, koan: &Koan, letters: &[Letter]) -> Marks {
        let mut marks = [None; 3];
        for l in letters {
            marks[l.index()] = Some(self.cores[l.index()].obeys(koan));
        }
        marks
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

/// The last event: how the match ended, and every pattern revealed as written.
/// A Triple nobody plays ends after this many turns in a row ran out in step 1 with
/// nothing done: abandoned, no result (as the Duel's).
pub const IDLE_TURNS: u32 = super::duel::IDLE_TURNS;

/// A side whose own turns ran out this many times in a row in step 1, with nothing done
/// by it in between, while the other played, is idle (as in the Duel).
pub const IDLE_OWN_TURNS: u32 = super::duel::IDLE_OWN_TURNS;

fn ended(t: &Triple, outcome: TripleOutcome) -> TripleEvent {
    TripleEvent::TripleEnded {
        outcome,
        patterns: [0, 1, 2].map(|i| t.cores[i].hidden.source.clone()),
    }
}

impl Game for Triple {
    type Move = TripleMove;
    type View = TripleView;

    fn from_setup(setup: &TripleSetup, now: Millis) -> Result<Triple, SetupError> {
        Triple::set_up(setup, now)
    }

    rules::seating!();

    fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    fn finish(&self) -> Option<rules::Finish> {
        let own = || {
            rules::Finish::two(
                self.seating.players.values(),
                self.winner().map(|s| s.index()),
            )
        };
        Some(match self.outcome? {
            TripleOutcome::TwoSolved { .. } => own(),
            // A quiz a player left unanswered: that player was idle at the end.
            TripleOutcome::Quiz { .. } => {
                rules::fair::settle(&self.seating, |s| !self.quiz_answered[s.index()], own())
            }
            TripleOutcome::Resigned { by } => rules::fair::resigned(&self.seating, by, own()),
            TripleOutcome::Idle { seat, .. } => {
                rules::fair::settle(&self.seating, |s| s == seat, own())
            }
            TripleOutcome::Abandoned => rules::Finish::Unrated(rules::Why::Abandoned),
            TripleOutcome::Ended { .. } => rules::Finish::Unrated(rules::Why::HostEnded),
            TripleOutcome::Declined { by, .. } => rules::Finish::Unrated(rules::Why::Declined {
                by: self.player(by),
            }),
        })
    }

    fn acted_by(&self, event: &TripleEvent) -> Option<Seat> {
        match event {
            TripleEvent::StarterChosen { .. } => self.choosing(),
            TripleEvent::Graded { by, .. } | TripleEvent::ChallengeOpened { by, .. } => Some(*by),
            TripleEvent::ChallengeAnswered { seat, .. }
            | TripleEvent::QuizAnswered { seat, .. } => Some(*seat),
            TripleEvent::TurnEnded {
                seat,
                why: TurnEnd::Ended,
            } => Some(*seat),
            TripleEvent::Pattern { zendo, .. } => zendo.acted_by(),
            _ => None,
        }
    }

    fn listed_settings(&self) -> serde_json::Value {
        serde_json::json!({"settings": self.settings(), "timing": self.timing})
    }

    fn check_turn(&self, seat: Seat, m: &TripleMove) -> Result<(), RuleError> {
        self.whose_turn(seat, m)
    }

    fn check_phase(&self, m: &TripleMove, _now: Millis) -> Result<(), RuleError> {
        self.allowed_now(m)
    }

    fn rule(&self, out: &mut Emitter<Self>, who: Who, m: &TripleMove) -> Result<(), RuleError> {
        let now = out.at();
        let seat = match who {
            Who::Player(seat) => seat,
            _ => self.turn_seat().unwrap_or(Seat::FIRST),
        };
        match m {
            TripleMove::Zendo(ZendoMove::ChooseStarter { starter }) => {
                self.choose_starter(out, starter, now)
            }
            TripleMove::Build {
                koan,
                mode,
                patterns,
            } => self.build(out, seat, koan, mode, patterns, now),
            TripleMove::Answer { .. } => self.hand_in(out, seat, m, now),
            TripleMove::Guess { pattern, guess } => self.guess(out, seat, pattern, guess, now),
            TripleMove::Zendo(ZendoMove::Confirm) => self.confirm_guess(out, now),
            TripleMove::Zendo(ZendoMove::TakeBack) => self.take_back_guess(out, now),
            TripleMove::Zendo(ZendoMove::EndTurn) => self.end_turn(out, seat, now),
            TripleMove::QuizAnswer { .. } => self.hand_in(out, seat, m, now),
            TripleMove::Zendo(ZendoMove::Disallow) => self.disallow_guess(out, who, m),
            TripleMove::Verdict {
                pattern,
                guess,
                verdict,
            } => self.judge_guess(out, seat, pattern, guess, verdict),
        }
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
        self.expire(out, deadline)
    }

    fn next_deadline(&self) -> Option<Deadline> {
        self.earliest_deadline()
    }

    fn fold_game(&mut self, event: &TripleEvent, _at: Millis) -> Result<(), FoldError> {
        self.count_idle_turns(event);
        self.fold_event(event)
    }

    fn skip_downtime(&mut self, from: Millis, to: Millis) {
        self.skip_clocks(from, to)
    }

    fn sync_clocks(&mut self, at: Millis) {
        self.run_clocks(at)
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
        let mut out = vec![Secret::Seed(self.seating.seed)];
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
        self.redacted(event, viewer)
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

/// The umpire's work for guess `guess` on pattern `l`: one key per pattern and guess.
pub(super) fn work_key(l: Letter, guess: u32) -> u64 {
    ((l.index() as u64) << 32) | guess as u64
}

#[cfg(test)]
mod tests;
