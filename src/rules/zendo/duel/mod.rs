//! # Zendo Duel: the rule book
//!
//! The Death Match of `shared/seeds/000_e58dd42109b6f19f.txt` as restated in
//! `shared/design/games.md`. Every rule is enforced in this file and tested in its
//! `tests` module under the name in brackets. Durations are [`Timing`] settings;
//! the defaults are the seed's.
//!
//! **Setup**
//! - The 12-piece (pyramids) set: an arrows duel is refused at setup. Practice may
//!   play with arrows. `[duel_plays_with_the_twelve_pyramids]`
//! - Two different players; the umpire holds one hidden pattern and shows two initial
//!   structures, one that obeys and one that does not (checked against the pattern;
//!   they are #1 and #2 on the table). `[setup_checks_players_and_initial_structures]`
//! - The player with the advantage (named by the setup: the one challenged, unless the
//!   host said otherwise) chooses who starts, either player; nobody else may.
//!   `[advantage_player_chooses_who_starts]`
//! - Nobody starts with a ticket. Turns alternate until someone wins; each turn starts
//!   with a full turn clock (3:00). `[turns_alternate_with_a_full_clock]`
//!
//! **Step 1: a structure**
//! - A valid structure of the match's piece set that has not been given before in this
//!   game: initial structures, built ones and counterexamples count, and a moved
//!   (translated) structure is the same structure.
//!   `[repeated_structure_is_refused_even_moved]`, `[counterexamples_count_as_given]`
//! - `observe` (the default): the verdict at once; the structure joins the table.
//!   The umpire judges instantly (same `now`), so "the clock is paused while the
//!   umpire judges" holds trivially. `[observe_gives_the_verdict_at_once]`
//! - `challenge`: the turn clock stops; both players answer privately (obeys, not, or
//!   pass) within 30 s; answers and truth are revealed together as soon as both have
//!   answered, or when the time is up; each correct answer earns one ticket.
//!   `[challenge_reveals_when_both_answered_and_pays_correct_answers]`
//! - An answer may be changed until the reveal (games.md is silent for the Duel; the
//!   seed lets a player "promptly fix" a submission and its Triple variant allows
//!   changing answers; the second player's answer triggers the reveal at once, so only
//!   the first can change). `[answer_can_be_changed_until_the_reveal]`
//! - An answer after the 30 s is refused (`Expired`) and counts as no answer, even if
//!   the time-out has not been processed yet. `[answer_after_30_seconds_is_ignored]`,
//!   `[challenge_timeout_counts_silence_as_no_answer]`
//! - Answers are private until the reveal: nobody else's view or announcement shows
//!   one (the views are in `view.rs`). `[views_and_announcements_keep_secrets]`
//! - Skipping step 1 gives the opponent one ticket; the skipper goes on to step 2.
//!   `[skipping_gives_the_opponent_a_ticket]`
//!
//! **Step 2: guesses**
//! - Any number of guesses, one at a time, each paid with a ticket when stated; with
//!   no ticket a guess is refused (`NoTicket`, a safeguard: the turn passes as soon as
//!   step 2 has no ticket, see below). `[turn_passes_when_step_2_has_no_ticket]`
//! - A guess must read, and must be a pattern about the match's pieces (shared with
//!   practice, where an arrows match refuses sizes: `WrongSet`, costing nothing).
//!   `[practice_guesses_must_fit_the_piece_set]`
//! - A guess is read back first (pending) with the table structures that already
//!   contradict it; the guesser confirms (official) or takes it back (ticket returned).
//!   `[guess_is_read_back_with_contradictions]`, `[taking_a_guess_back_returns_the_ticket]`
//! - An official guess adds 30 s to the turn, and the turn clock stops until the
//!   umpire's verdict comes in. `[official_guess_adds_30_seconds_and_pauses_the_clock]`
//! - Verdict "counterexample": it must really separate the guess from the hidden
//!   pattern (checked here); it joins the table with its verdict, or, when the only
//!   separating structures were already on the table, the umpire names that one.
//!   The turn goes on. `[counterexample_joins_the_table]`, `[false_verdicts_are_refused]`,
//!   `[counterexample_already_on_the_table_is_named_not_repeated]`
//! - Verdict "equivalent": the guesser wins and the pattern is revealed. It is the
//!   only way to win by guessing, and it is refused while a table structure separates
//!   the two. `[winner_only_on_equivalent]`
//! - A structure already on the table that separates an official guess from the hidden
//!   pattern refutes it at once, without the finder: the umpire names the simplest such
//!   structure, the ticket is spent as for any counterexample (and the +30 s stays).
//!   `[counterexample_already_on_the_table_is_named_not_repeated]`
//! - Verdict "undecided" (the finder hit its limit): the guess is void, its ticket
//!   returned and its +30 s taken back (a void guess adds no time), said honestly.
//!   `[undecided_verdict_voids_the_guess]`
//! - When step 2 begins, or goes on after a counterexample, with no ticket left, the
//!   turn passes by itself: there is nothing left to do in it (decided here, as a
//!   human umpire would). `[turn_passes_when_step_2_has_no_ticket]`
//! - The player ends step 2, and the turn, when they like. `[turns_alternate_with_a_full_clock]`
//!
//! **Time**
//! - The turn clock runs in step 1 and step 2, and stops while a challenge is answered
//!   and while a counterexample is built. `[clock_is_paused_during_challenge_and_verdict]`
//! - Out of time in step 1: as if no structure was made (the opponent gets a ticket),
//!   no guesses, the turn passes. `[timeout_in_step_1_skips_and_passes]`
//! - Out of time in step 2: no more guesses; a pending guess is taken back (ticket
//!   returned); official guesses stand. `[timeout_in_step_2_takes_back_a_pending_guess]`
//! - A player's request after their time ran out is refused (`Expired`), even before
//!   the runtime sends the time-out. `[late_requests_are_refused_before_the_timeout]`
//! - Time-outs come in as actions naming the deadline from `next_deadline()`; one that
//!   is no longer current, or not yet due, is refused. `[stale_or_early_timeouts_are_refused]`
//! - After a restart, the time the process was down is not counted.
//!   `[downtime_is_not_counted]`
//!
//! **Resigning and the host**
//! - A player may resign at any time, even out of turn or paused: the opponent wins.
//!   `[resigning_hands_the_win_to_the_opponent]`
//! - Before the starter is chosen, resigning is declining (the one challenged) or
//!   withdrawing (the challenger): the match ends with no winner and no loss.
//!   `[leaving_before_the_start_is_declining]`
//! - A duel nobody plays ends: after [`IDLE_TURNS`] turns in a row ran out in step 1
//!   (nothing built, nothing skipped by a player), it is abandoned with no winner.
//!   `[a_duel_nobody_plays_is_abandoned]`
//! - The player with the advantage has one turn's length to choose who starts; silence
//!   declines the duel (no winner), so a challenge nobody takes up does not hold the
//!   table forever. `[an_unanswered_challenge_to_a_duel_is_declined]`
//! - A host may pause (clocks stop; players wait: their requests are refused with
//!   `Paused`, except resigning) and resume (the clocks go on with what they had).
//!   `[host_pause_freezes_the_match]`
//! - A host may disallow a pending guess, or an official one still waiting for its
//!   verdict: the ticket comes back and, for an official one, the +30 s goes.
//!   `[host_disallow_returns_the_ticket]`
//! - A host may end the match: no winner, the pattern is revealed. `[host_end_has_no_winner]`
//! - A host who plays in the duel has no host powers in it (pause, resume, disallow,
//!   end are refused with `HostPlays`); only a host who is not seated may use them.
//!   `[a_host_who_plays_has_no_overrides]`
//!
//! **What everyone hears**
//! - Ticket counts are public: the fronts say them at the start of each step and after
//!   each guess (the words are in `src/narrate/zendo.rs`, tested there:
//!   `[ticket_counts_are_said_at_each_step]`).
//!
//! **Authority, in this order** (boardgame.io's, checked once for every game in
//! `rules/authority.rs`): the match is not over (`MatchOver`); the actor has the
//! action's role (`NotAPlayer`, `HostOnly`, `HostPlays`, `UmpireOnly`); the player may
//! act now (`Paused`, `NotYourTurn`); the action fits the phase
//! (`WrongPhase`, and for time-outs `StaleDeadline` / `TooEarly`); a button's version
//! is not stale (`StaleVersion`: drawn before the current phase began); then the rule
//! itself (`Expired`, `WrongSet`, `AlreadyGiven`, `NoTicket`, `BadVerdict`...).
//! `[checks_come_in_a_fixed_order]`, `[stale_version_is_refused]`, `[out_of_turn_is_refused]`

use super::turn::{self, GuessMove, TurnMove, Words};
use super::{
    Answer, Core, Initial, Mode, Outcome, Settings, TurnEnd, VerdictJob, Withdrawal, Zendo,
    ZendoEvent,
};
use crate::finder::Verdict;
use crate::koan::Koan;
use crate::lang::Pattern;
use crate::rules::{
    self, BySeat, Clock, Emitter, FoldError, Game, GameKind, Ledger, Millis, PlayerId, Role,
    RuleError, Seat, Secret, SetupError, Viewer, Who,
};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

mod view;

pub use view::{DuelView, PhaseView, StepView};

/// What a front (or the runtime) asks of a duel.
pub type Action = rules::Action<DuelMove, Deadline>;
/// What the duel's log holds.
pub type Event = rules::Event<DuelEvent>;

/// The Duel's durations, in milliseconds. Hosts may change them per server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Timing {
    /// The whole turn: 3 minutes.
    pub turn_ms: Millis,
    /// To answer a challenge: 30 seconds.
    pub challenge_ms: Millis,
    /// Added to the turn per official guess: 30 seconds.
    pub guess_bonus_ms: Millis,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            turn_ms: 180_000,
            challenge_ms: 30_000,
            guess_bonus_ms: 30_000,
        }
    }
}

/// Everything a duel starts from. It travels in the first event, so a replay needs
/// nothing else.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DuelSetup {
    pub players: [PlayerId; 2],
    /// Chooses who starts.
    pub advantage: PlayerId,
    pub hidden: Pattern,
    pub initial: Initial,
    #[serde(default)]
    pub settings: Settings,
    #[serde(default)]
    pub timing: Timing,
    /// Fixes everything random in the match (the varied counterexamples).
    pub seed: u64,
}

/// A player's (or host's, or the umpire's) move in a duel. Parsing (structures,
/// patterns, answers) happens in the fronts; the engine receives the parsed values.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum DuelMove {
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
    /// Host: refuse the pending (or official, unjudged) guess as contrived; the ticket
    /// comes back.
    Disallow,
    /// Umpire: the finder's answer to official guess `guess`.
    Verdict { guess: u32, verdict: Verdict },
}

impl rules::Move for DuelMove {
    fn role(&self) -> Role {
        match self {
            DuelMove::Disallow => Role::Host,
            DuelMove::Verdict { .. } => Role::Umpire,
            _ => Role::Player,
        }
    }

    fn describe(&self) -> &'static str {
        match self {
            DuelMove::Disallow => "disallow a guess",
            DuelMove::Verdict { .. } => "give verdicts",
            _ => "play",
        }
    }
}

/// What happens in a duel besides what every Zendo game has ([`ZendoEvent`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum DuelEvent {
    /// The first event (it holds the hidden pattern: never announced).
    DuelCreated {
        setup: Box<DuelSetup>,
    },
    StarterChosen {
        starter: Seat,
    },
    /// A turn begins with a full turn clock.
    TurnStarted {
        turn: u32,
        seat: Seat,
    },
    /// A structure was challenged: both players now answer privately.
    ChallengeOpened {
        by: Seat,
        koan: Koan,
    },
    /// A private answer. Announced with its content only to the one who gave it;
    /// everyone else hears that it is in (`answer` left out).
    ChallengeAnswered {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        answer: Option<Answer>,
    },
    /// Answers and truth together; the structure joins the table; each correct answer
    /// earns a ticket.
    ChallengeRevealed {
        answers: BySeat<Answer>,
        obeys: bool,
        time_up: bool,
    },
    /// Step 1 without a structure: the opponent gets a ticket.
    Skipped {
        seat: Seat,
        time_up: bool,
    },
    TurnEnded {
        seat: Seat,
        why: TurnEnd,
    },
    #[serde(untagged)]
    Zendo(ZendoEvent),
}

impl From<ZendoEvent> for DuelEvent {
    fn from(e: ZendoEvent) -> DuelEvent {
        DuelEvent::Zendo(e)
    }
}

impl From<ZendoEvent> for rules::EventKind<DuelEvent> {
    fn from(e: ZendoEvent) -> rules::EventKind<DuelEvent> {
        rules::EventKind::Game(DuelEvent::Zendo(e))
    }
}

/// Where a turn is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// Step 1: waiting for a structure (or a skip).
    Build,
    /// Step 1, challenged: both players answer; the turn clock is stopped.
    Challenge {
        koan: Koan,
        /// Given so far (private until the reveal).
        answers: BySeat<Option<Answer>>,
        clock: Clock,
    },
    /// Step 2: guesses, or end the turn.
    Guess,
    /// Step 2: guess `guess` is read back, waiting for confirm or take back.
    Pending { guess: u32 },
    /// Step 2: guess `guess` is official; the umpire builds a counterexample.
    Verdict { guess: u32 },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The player with the advantage chooses who starts.
    ChoosingStarter,
    Turn {
        seat: Seat,
        #[serde(flatten)]
        step: Step,
    },
    Over,
}

/// Which clock a deadline belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Which {
    Turn,
    Challenge,
}

/// What happens when a deadline passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expiry {
    /// Step 1 ran out: as if no structure was made (opponent +1 ticket); the turn passes.
    NoStructure,
    /// Step 2 ran out: no more guesses (a pending one is taken back); the turn passes.
    NoMoreGuesses,
    /// The challenge ran out: whoever has not answered gave no answer; reveal.
    NoAnswer,
    /// The player with the advantage never chose who starts: the duel is declined.
    NoChoice,
}

/// A moment at which something happens unless the players act first. The runtime
/// sleeps until `at` and sends `Action::Timeout` with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Deadline {
    pub at: Millis,
    pub turn: u32,
    pub which: Which,
    pub on_expiry: Expiry,
}

impl rules::Deadline for Deadline {
    fn at(&self) -> Millis {
        self.at
    }

    /// The same deadline: the same clock of the same turn running out at the same
    /// moment (what happens then may have changed meanwhile, e.g. step 1 to step 2).
    fn is(&self, other: &Deadline) -> bool {
        (self.at, self.turn, self.which) == (other.at, other.turn, other.which)
    }
}

/// A Zendo Duel in progress (or over). Build one from its setup with
/// [`Game::start`], or from its events with [`Game::replay`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Duel {
    ledger: Ledger,
    core: Core,
    players: BySeat<PlayerId>,
    advantage: Seat,
    timing: Timing,
    phase: Phase,
    /// The current turn, counting from 1 (0 before the first).
    turn: u32,
    tickets: BySeat<u32>,
    /// The turn clock.
    clock: Clock,
    /// Turns in a row whose step 1 ran out with nothing done (see [`IDLE_TURNS`]).
    idle_turns: u32,
}

/// A duel whose players are both gone ends after this many turns in a row ran out in
/// step 1 (each player missed two turns): no winner. One player still playing keeps it
/// going (their turns are not idle).
pub const IDLE_TURNS: u32 = 4;

const CHOOSE_FIRST: &str = "the player with the advantage has not chosen who starts yet";

/// What a duel calls things in its refusals.
const WORDS: Words = Words {
    answering: "wait until the challenge is revealed",
    nothing_to_answer: "there is no challenge to answer",
    built: "step 1 is done this turn (one structure per turn); guess or end your turn",
    build_first: "build a structure (or skip) first: guesses come in step 2",
};

impl Duel {
    pub fn advantage(&self) -> Seat {
        self.advantage
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// Whose turn it is, once someone started.
    pub fn turn_seat(&self) -> Option<Seat> {
        match self.phase {
            Phase::Turn { seat, .. } => Some(seat),
            _ => None,
        }
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn tickets(&self, seat: Seat) -> u32 {
        self.tickets[seat]
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// Who won: the solver, or the opponent of whoever resigned. None while playing
    /// and when nobody won.
    pub fn winner(&self) -> Option<Seat> {
        match self.core.outcome? {
            Outcome::Solved { by, .. } => Some(by),
            Outcome::Resigned { by } => Some(by.other()),
            Outcome::Ended { .. }
            | Outcome::Declined { .. }
            | Outcome::Abandoned
            | Outcome::Deserted { .. } => None,
        }
    }

    /// The turn player's time is up (even if the time-out has not come in yet).
    fn check_time(&self, now: Millis) -> Result<(), RuleError> {
        if !self.clock.has_expired(now) {
            Ok(())
        } else if self.phase == Phase::ChoosingStarter {
            Err(RuleError::Expired(
                "the time to choose who starts is over: the duel is declined",
            ))
        } else {
            Err(RuleError::Expired("this turn's time has run out"))
        }
    }

    /// The current step and its player, for folding events that need one.
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

    fn pending(&self) -> u32 {
        match &self.phase {
            Phase::Turn { step, .. } => step.in_play().unwrap_or(0),
            _ => 0,
        }
    }
}

/// Ends the turn of `seat` and starts the opponent's.
fn pass_turn(out: &mut Emitter<Duel>, seat: Seat, why: TurnEnd) {
    out.emit(DuelEvent::TurnEnded { seat, why });
    let turn = out.next().turn + 1;
    out.emit(DuelEvent::TurnStarted {
        turn,
        seat: seat.other(),
    });
}

/// Step 2 with no ticket has nothing in it: the turn passes.
fn pass_if_no_ticket(out: &mut Emitter<Duel>) {
    if let Phase::Turn {
        seat,
        step: Step::Guess,
    } = out.next().phase
        && out.next().tickets(seat) == 0
    {
        pass_turn(out, seat, TurnEnd::NoTickets);
    }
}

/// Answers and truth together; silence is no answer.
fn reveal(out: &mut Emitter<Duel>, time_up: bool) {
    let next = out.next();
    let Phase::Turn { step, .. } = &next.phase else {
        return;
    };
    let Some((answers, obeys)) = step.reveal(&next.core) else {
        return;
    };
    out.emit(DuelEvent::ChallengeRevealed {
        answers,
        obeys,
        time_up,
    });
    pass_if_no_ticket(out);
}

impl Zendo for Duel {
    fn core(&self) -> &Core {
        &self.core
    }

    fn verdict_move(guess: u32, verdict: Verdict) -> DuelMove {
        DuelMove::Verdict { guess, verdict }
    }

    fn zendo_event(event: &DuelEvent) -> Option<&ZendoEvent> {
        match event {
            DuelEvent::Zendo(e) => Some(e),
            _ => None,
        }
    }

    fn awaited_guess(&self) -> Option<u32> {
        match &self.phase {
            Phase::Turn { step, .. } => step.awaited(),
            _ => None,
        }
    }
}

impl Game for Duel {
    const KIND: GameKind = GameKind::ZendoDuel;
    const CLOCKED: bool = true;
    type Setup = DuelSetup;
    type Move = DuelMove;
    type Event = DuelEvent;
    type View = DuelView;
    type Deadline = Deadline;
    type Work = VerdictJob;

    fn from_setup(setup: &DuelSetup, now: Millis) -> Result<Duel, SetupError> {
        if setup.settings.set != crate::koan::PieceSet::Pyramids {
            return Err(SetupError::DuelNeedsPyramids {
                set: setup.settings.set,
            });
        }
        let [a, b] = setup.players;
        if a == b {
            return Err(SetupError::SamePlayer);
        }
        let advantage = match setup.advantage {
            p if p == a => Seat::FIRST,
            p if p == b => Seat::SECOND,
            _ => return Err(SetupError::AdvantageNotPlaying),
        };
        let t = setup.timing;
        if t.turn_ms == 0 || t.challenge_ms == 0 {
            return Err(SetupError::BadSettings(
                "the turn and the challenge need some time (more than 0 ms)",
            ));
        }
        let core = Core::new(&setup.hidden, &setup.initial, setup.settings, setup.seed)?;
        let mut duel = Duel {
            ledger: Ledger::new(now),
            core,
            players: setup.players.into(),
            advantage,
            timing: t,
            phase: Phase::ChoosingStarter,
            turn: 0,
            tickets: BySeat::new(2, 0),
            clock: Clock::stopped(t.turn_ms),
            idle_turns: 0,
        };
        // The choice of who starts has one turn's length.
        duel.sync_clocks(now);
        Ok(duel)
    }

    fn created(setup: DuelSetup) -> DuelEvent {
        DuelEvent::DuelCreated {
            setup: Box::new(setup),
        }
    }

    fn setup_of(event: &DuelEvent) -> Option<&DuelSetup> {
        match event {
            DuelEvent::DuelCreated { setup } => Some(setup),
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
        self.core.outcome.is_some()
    }

    fn seed(&self) -> u64 {
        self.core.seed
    }

    fn listed_settings(&self) -> serde_json::Value {
        serde_json::to_value(self.core.settings).unwrap_or_default()
    }

    /// Check 3: their turn, or their choice of who starts; answers come from either.
    fn check_turn(&self, seat: Seat, m: &DuelMove) -> Result<(), RuleError> {
        let waiting_for = |s: Seat| RuleError::NotYourTurn {
            waiting_for: self.player(s),
        };
        match (m, self.turn_seat()) {
            (DuelMove::Answer { .. }, _) => Ok(()),
            (DuelMove::ChooseStarter { .. }, _) | (_, None) if seat != self.advantage => {
                Err(waiting_for(self.advantage))
            }
            (DuelMove::ChooseStarter { .. }, _) | (_, None) => Ok(()),
            (_, Some(s)) if s != seat => Err(waiting_for(s)),
            _ => Ok(()),
        }
    }

    /// Check 4: the move fits the phase.
    fn check_phase(&self, m: &DuelMove, _now: Millis) -> Result<(), RuleError> {
        let m = match m {
            DuelMove::ChooseStarter { .. } => {
                return match self.phase {
                    Phase::ChoosingStarter => Ok(()),
                    _ => Err(RuleError::WrongPhase(
                        "the starting player has already been chosen",
                    )),
                };
            }
            DuelMove::Build { .. } | DuelMove::Skip => TurnMove::Build,
            DuelMove::Answer { .. } => TurnMove::Answer,
            DuelMove::Guess { .. } | DuelMove::EndTurn => TurnMove::Guess,
            DuelMove::Confirm | DuelMove::TakeBack => TurnMove::Confirm,
            DuelMove::Disallow => TurnMove::Disallow,
            DuelMove::Verdict { guess, .. } => TurnMove::Verdict(*guess),
        };
        match (&self.phase, m) {
            (Phase::Turn { step, .. }, m) => step.check(m, &WORDS),
            (_, TurnMove::Build | TurnMove::Guess) => Err(RuleError::WrongPhase(CHOOSE_FIRST)),
            // Before the first turn, as at the start of one: nothing is open.
            (_, m) => Step::Build.check(m, &WORDS),
        }
    }

    /// Check 6: the rule itself, and what it makes happen.
    fn rule(
        &self,
        out: &mut Emitter<Duel>,
        who: Who,
        m: &DuelMove,
        now: Millis,
    ) -> Result<(), RuleError> {
        let seat = match who {
            Who::Player(seat) => seat,
            // Only player moves read it; the turn player is the natural default.
            _ => self.turn_seat().unwrap_or(self.advantage),
        };
        let pending = self.pending();
        match m {
            DuelMove::ChooseStarter { starter } => {
                self.check_time(now)?;
                let starter = self
                    .seat_of(*starter)
                    .ok_or(RuleError::NotInMatch(*starter))?;
                out.emit(DuelEvent::StarterChosen { starter });
                out.emit(DuelEvent::TurnStarted {
                    turn: 1,
                    seat: starter,
                });
            }
            DuelMove::Build { koan, mode } => {
                self.check_time(now)?;
                self.core.check_new(koan)?;
                let koan = koan.clone();
                match mode {
                    Mode::Observe => {
                        let obeys = self.core.obeys(&koan);
                        out.emit(ZendoEvent::Observed {
                            by: seat,
                            koan,
                            obeys,
                        });
                        pass_if_no_ticket(out);
                    }
                    Mode::Challenge => out.emit(DuelEvent::ChallengeOpened { by: seat, koan }),
                }
            }
            DuelMove::Skip => {
                self.check_time(now)?;
                out.emit(DuelEvent::Skipped {
                    seat,
                    time_up: false,
                });
                pass_if_no_ticket(out);
            }
            DuelMove::Answer { answer } => {
                if let Phase::Turn {
                    step: Step::Challenge { clock, .. },
                    ..
                } = &self.phase
                    && clock.has_expired(now)
                {
                    return Err(RuleError::Expired(
                        "the time to answer this challenge is over; the answer does not count",
                    ));
                }
                out.emit(DuelEvent::ChallengeAnswered {
                    seat,
                    answer: Some(*answer),
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
            DuelMove::Guess { .. }
            | DuelMove::Confirm
            | DuelMove::TakeBack
            | DuelMove::Disallow
            | DuelMove::Verdict { .. } => {
                let g = match m {
                    DuelMove::Guess { pattern } => GuessMove::Guess(pattern),
                    DuelMove::Confirm => GuessMove::Confirm,
                    DuelMove::TakeBack => GuessMove::TakeBack,
                    DuelMove::Verdict { guess, verdict } => GuessMove::Verdict(*guess, verdict),
                    _ => GuessMove::Disallow,
                };
                if g.is_players() {
                    self.check_time(now)?;
                }
                let turn = (seat, self.tickets(seat), pending);
                for e in turn::guess_events(&self.core, g, who, turn)? {
                    out.emit(e);
                }
                if g.may_end_step() {
                    pass_if_no_ticket(out);
                }
            }
            DuelMove::EndTurn => {
                self.check_time(now)?;
                pass_turn(out, seat, TurnEnd::Ended);
            }
        }
        Ok(())
    }

    /// Before anyone played, leaving is declining, not losing.
    fn resign(&self, out: &mut Emitter<Duel>, seat: Seat) -> Result<(), RuleError> {
        out.emit(self.core.ended(if self.phase == Phase::ChoosingStarter {
            Outcome::Declined {
                by: seat,
                time_up: false,
            }
        } else {
            Outcome::Resigned { by: seat }
        }));
        Ok(())
    }

    fn end(&self, out: &mut Emitter<Duel>, by: PlayerId) {
        out.emit(self.core.ended(Outcome::Ended { by }));
    }

    /// What a passed deadline does, by step.
    fn time_out(&self, out: &mut Emitter<Duel>, _deadline: Deadline) {
        let (seat, step) = match &self.phase {
            Phase::ChoosingStarter => {
                out.emit(self.core.ended(Outcome::Declined {
                    by: self.advantage,
                    time_up: true,
                }));
                return;
            }
            Phase::Turn { seat, step } => (*seat, step),
            Phase::Over => return,
        };
        match step {
            Step::Build => {
                out.emit(DuelEvent::Skipped {
                    seat,
                    time_up: true,
                });
                if out.next().idle_turns >= IDLE_TURNS {
                    out.emit(self.core.ended(Outcome::Abandoned));
                    return;
                }
                pass_turn(out, seat, TurnEnd::TimeUp);
            }
            Step::Guess => pass_turn(out, seat, TurnEnd::TimeUp),
            Step::Pending { guess } => {
                out.emit(ZendoEvent::GuessWithdrawn {
                    number: *guess,
                    why: Withdrawal::TimeUp,
                });
                pass_turn(out, seat, TurnEnd::TimeUp);
            }
            Step::Challenge { .. } => reveal(out, true),
            // No deadline runs while a verdict is awaited.
            Step::Verdict { .. } => {}
        }
    }

    fn next_deadline(&self) -> Option<Deadline> {
        if self.ledger.paused {
            return None;
        }
        let step = match &self.phase {
            Phase::Turn { step, .. } => step,
            Phase::ChoosingStarter => {
                return Some(Deadline {
                    at: self.clock.expires_at()?,
                    turn: 0,
                    which: Which::Turn,
                    on_expiry: Expiry::NoChoice,
                });
            }
            Phase::Over => return None,
        };
        let (which, clock, on_expiry) = match step {
            Step::Build => (Which::Turn, &self.clock, Expiry::NoStructure),
            Step::Guess | Step::Pending { .. } => (Which::Turn, &self.clock, Expiry::NoMoreGuesses),
            Step::Challenge { clock, .. } => (Which::Challenge, clock, Expiry::NoAnswer),
            Step::Verdict { .. } => return None,
        };
        Some(Deadline {
            at: clock.expires_at()?,
            turn: self.turn,
            which,
            on_expiry,
        })
    }

    fn fold_game(&mut self, event: &DuelEvent, _at: Millis) -> Result<(), FoldError> {
        let bonus = self.timing.guess_bonus_ms;
        match event {
            DuelEvent::Skipped { time_up: true, .. } => self.idle_turns += 1,
            // Bookkeeping that is no one playing.
            DuelEvent::TurnEnded { .. }
            | DuelEvent::TurnStarted { .. }
            | DuelEvent::Zendo(ZendoEvent::MatchEnded { .. }) => {}
            _ => self.idle_turns = 0,
        }
        match event {
            DuelEvent::DuelCreated { .. } => {
                return Err(self.ledger.misfit("a match is created only once"));
            }
            DuelEvent::StarterChosen { .. } => {
                if self.phase != Phase::ChoosingStarter {
                    return Err(self.ledger.misfit("the starter was already chosen"));
                }
            }
            DuelEvent::TurnStarted { turn, seat } => {
                self.turn = *turn;
                self.clock = Clock::stopped(self.timing.turn_ms);
                self.set_step(*seat, Step::Build);
            }
            DuelEvent::Skipped { seat: by, .. } => {
                let (seat, step) = self.step()?;
                if seat != *by || *step != Step::Build {
                    return Err(self.ledger.misfit("step 1 is not in progress"));
                }
                self.tickets[seat.other()] += 1;
                self.set_step(seat, Step::Guess);
            }
            DuelEvent::ChallengeOpened { by, koan } => {
                let (seat, step) = self.step()?;
                if seat != *by || *step != Step::Build {
                    return Err(self.ledger.misfit("step 1 is not in progress"));
                }
                let step = Step::Challenge {
                    koan: koan.clone(),
                    answers: BySeat::new(2, None),
                    clock: Clock::stopped(self.timing.challenge_ms),
                };
                self.set_step(seat, step);
            }
            DuelEvent::ChallengeAnswered { seat, answer } => {
                let Some(answer) = answer else {
                    return Err(self.ledger.misfit("a challenge answer without its content"));
                };
                match &mut self.phase {
                    Phase::Turn {
                        step: Step::Challenge { answers, .. },
                        ..
                    } if answers.get(*seat).is_some() => answers[*seat] = Some(*answer),
                    _ => return Err(self.ledger.misfit("no challenge is open")),
                }
            }
            DuelEvent::ChallengeRevealed { answers, obeys, .. } => {
                let (seat, step) = self.step()?;
                let Step::Challenge { koan, .. } = step else {
                    return Err(self.ledger.misfit("no challenge is open"));
                };
                if answers.len() != 2 {
                    return Err(self.ledger.misfit("a duel's challenge has two answers"));
                }
                let koan = koan.clone();
                let origin = super::Origin::Challenged {
                    by: seat,
                    answers: answers.clone(),
                };
                self.core.table.push(koan, *obeys, origin);
                for (s, a) in answers.iter() {
                    if a.is_correct(*obeys) {
                        self.tickets[s] += 1;
                    }
                }
                self.set_step(seat, Step::Guess);
            }
            DuelEvent::TurnEnded { seat, .. } => {
                if self.step()?.0 != *seat {
                    return Err(self.ledger.misfit("it is not that player's turn"));
                }
            }
            DuelEvent::Zendo(e) => {
                self.core.fold(e, &mut self.ledger)?;
                self.fold_zendo(e, bonus)?;
            }
        }
        Ok(())
    }

    fn skip_downtime(&mut self, from: Millis, to: Millis) {
        let step = match &mut self.phase {
            Phase::Turn { step, .. } => Some(step),
            _ => None,
        };
        turn::skip_downtime(&mut self.clock, step, from, to);
    }

    /// The turn clock runs in steps 1 and 2 except while a challenge is answered or a
    /// verdict awaited (and while the starter is chosen); the challenge clock runs
    /// while its challenge is open; nothing runs while paused or over.
    fn sync_clocks(&mut self, at: Millis) {
        let paused = self.ledger.paused;
        match &mut self.phase {
            Phase::Turn { step, .. } => turn::sync_clocks(&mut self.clock, Some(step), paused, at),
            Phase::ChoosingStarter => self.clock.set_running(!paused, at),
            Phase::Over => self.clock.set_running(false, at),
        }
    }

    fn view(&self, viewer: &Viewer) -> DuelView {
        view::duel(self, viewer)
    }

    /// The created event holds the hidden pattern: nobody hears it. A challenge answer
    /// is heard whole only by the one who gave it; the others hear that it is in.
    fn secrets(&self, viewer: &Viewer) -> Vec<Secret> {
        self.core
            .secrets(self.is_over(), 2, self.viewer_seat(viewer))
    }

    fn redact(&self, event: &DuelEvent, viewer: &Viewer) -> Option<DuelEvent> {
        match event {
            DuelEvent::DuelCreated { .. } => None,
            DuelEvent::ChallengeAnswered { seat, .. }
                if self.viewer_seat(viewer) != Some(*seat) =>
            {
                Some(DuelEvent::ChallengeAnswered {
                    seat: *seat,
                    answer: None,
                })
            }
            _ => Some(event.clone()),
        }
    }

    fn work(&self) -> Option<(u64, VerdictJob)> {
        super::work(self)
    }

    fn perform(job: VerdictJob, stop: Arc<AtomicBool>) -> DuelMove {
        super::perform::<Duel>(job, stop)
    }

    fn abandon(key: u64, reason: &str) -> Option<DuelMove> {
        super::abandon::<Duel>(key, reason)
    }
}

impl Duel {
    /// The duel's side of the shared Zendo events: tickets, steps and the turn clock.
    fn fold_zendo(&mut self, event: &ZendoEvent, bonus: Millis) -> Result<(), FoldError> {
        if let ZendoEvent::MatchEnded { .. } = event {
            self.phase = Phase::Over;
            return Ok(());
        }
        let (seat, step) = self.step()?;
        let step = step.clone();
        let tickets = &mut self.tickets[seat];
        match turn::after_guess_event(event, seat, &step, tickets, &mut self.clock, bonus) {
            Ok(Some(next)) => self.set_step(seat, next),
            Ok(None) => self.phase = Phase::Over,
            Err(why) => return Err(self.ledger.misfit(why)),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finder::{Counterexample, Verdict};
    use crate::rules::Actor;
    use crate::rules::ErrorCode::{self, *};
    use crate::rules::zendo::testing::flat::{EventKind, flat, kinds};
    use crate::rules::zendo::testing::*;
    use crate::rules::zendo::{GuessStatus, Origin, TurnEnd};

    const A: Actor = Actor::Player(ALICE);
    const B: Actor = Actor::Player(BOB);
    const H: Actor = Actor::Host(HOST);
    const U: Actor = Actor::Umpire;
    const TURN: Millis = 180_000;

    /// Hidden pattern of these tests: "some piece points up". The initial structures
    /// are #1 `1^` (obeys) and #2 `1>` (does not).
    fn up_duel() -> Harness<Duel> {
        Harness::duel(duel_setup(parsed("some piece points up")))
    }

    /// Alice (who has the advantage) chose to start; turn 1 began at time 0.
    fn started() -> Harness<Duel> {
        let mut h = up_duel();
        h.ok(A, choose(ALICE));
        h
    }

    fn code<T: std::fmt::Debug>(r: Result<T, RuleError>) -> ErrorCode {
        r.expect_err("should be refused").code()
    }

    fn remaining(h: &Harness<Duel>) -> Millis {
        h.game.clock().remaining(h.now)
    }

    fn step(h: &Harness<Duel>) -> &Step {
        match h.game.phase() {
            Phase::Turn { step, .. } => step,
            other => panic!("no turn: {other:?}"),
        }
    }

    /// The state rebuilt from the log (through JSON) is the state played.
    fn assert_replays(h: &Harness<Duel>) {
        let played = serde_json::to_value(&h.game).unwrap();
        let replayed = serde_json::to_value(h.replayed()).unwrap();
        assert_eq!(played, replayed);
    }

    /// Alice challenges a structure that obeys, answers right, Bob answers wrong:
    /// she has one more ticket and is in step 2.
    fn alice_wins_a_challenge(h: &mut Harness<Duel>) {
        let k = h.fresh(true);
        alice_wins_a_challenge_with(h, k);
    }

    fn alice_wins_a_challenge_with(h: &mut Harness<Duel>, k: Koan) {
        h.ok(A, build(k, Mode::Challenge));
        h.ok(A, answer(Answer::Obeys));
        h.ok(B, answer(Answer::Not));
    }

    /// Turn 3, Alice in step 2 with two tickets (one from Bob's skip in turn 2, one
    /// from a challenge); Bob has none.
    fn alice_with_two_tickets() -> Harness<Duel> {
        let mut h = started();
        let k = h.fresh(true);
        h.ok(A, build(k, Mode::Observe)); // no ticket: the turn passes
        h.ok(B, DuelMove::Skip); // Alice +1; Bob has none: the turn passes
        alice_wins_a_challenge(&mut h);
        assert_eq!((h.game.turn(), h.game.tickets(Seat::FIRST)), (3, 2));
        assert_eq!(*step(&h), Step::Guess);
        h
    }

    /// "every piece points up": wrong, and `1^ 1>`-like structures show it.
    fn every_up() -> Guessing {
        guess("every piece points up")
    }

    #[test]
    fn setup_checks_players_and_initial_structures() {
        let good = duel_setup(parsed("some piece points up"));
        assert!(Duel::start(good.clone(), 0).is_ok());
        let mut same = good.clone();
        same.players = [ALICE, ALICE];
        assert_eq!(Duel::start(same, 0).err(), Some(SetupError::SamePlayer));
        let mut outsider = good.clone();
        outsider.advantage = HOST;
        assert_eq!(
            Duel::start(outsider, 0).err(),
            Some(SetupError::AdvantageNotPlaying)
        );
        let mut swapped = good.clone();
        std::mem::swap(&mut swapped.initial.obeys, &mut swapped.initial.does_not);
        assert_eq!(
            Duel::start(swapped, 0).err(),
            Some(SetupError::ObeyingDoesNot)
        );
        let mut both_obey = good.clone();
        both_obey.initial.does_not = koan("3^");
        assert_eq!(
            Duel::start(both_obey, 0).err(),
            Some(SetupError::NotObeyingObeys)
        );
        let mut no_time = good.clone();
        no_time.timing.challenge_ms = 0;
        assert!(matches!(
            Duel::start(no_time, 0),
            Err(SetupError::BadSettings(_))
        ));
        let (duel, _) = Duel::start(good, 0).unwrap();
        let t = duel.table().entries();
        assert_eq!((t.len(), t[0].obeys, t[1].obeys), (2, true, false));
        assert_eq!((t[0].number, t[1].number), (1, 2));
        assert_eq!(
            (duel.tickets(Seat::FIRST), duel.tickets(Seat::SECOND)),
            (0, 0)
        );
        assert_eq!(*duel.phase(), Phase::ChoosingStarter);
    }

    #[test]
    fn advantage_player_chooses_who_starts() {
        let mut h = up_duel();
        assert_eq!(code(h.act(B, choose(BOB))), NotYourTurn);
        let k = h.fresh(true);
        assert_eq!(code(h.act(B, build(k.clone(), Mode::Observe))), NotYourTurn);
        assert_eq!(code(h.act(A, build(k, Mode::Observe))), WrongPhase);
        assert_eq!(code(h.act(A, choose(HOST))), NotAPlayer);
        // Alice may hand the first turn to Bob.
        let events = h.ok(A, choose(BOB));
        assert!(matches!(
            kinds(&events)[..],
            [
                EventKind::StarterChosen {
                    starter: Seat::SECOND
                },
                EventKind::TurnStarted {
                    turn: 1,
                    seat: Seat::SECOND
                }
            ]
        ));
        assert_eq!(code(h.act(A, choose(ALICE))), WrongPhase);
        // When the host gives the advantage to Bob, Bob chooses.
        let mut setup = duel_setup(parsed("some piece points up"));
        setup.advantage = BOB;
        let mut h = Harness::duel(setup);
        assert_eq!(code(h.act(A, choose(ALICE))), NotYourTurn);
        h.ok(B, choose(ALICE));
        assert_eq!(h.game.turn_seat(), Some(Seat::FIRST));
    }

    #[test]
    fn turns_alternate_with_a_full_clock() {
        let mut h = started();
        assert_eq!(h.game.next_deadline().map(|d| d.at), Some(TURN));
        h.wait(10_000);
        let k = h.fresh(true);
        h.ok(A, build(k, Mode::Observe));
        // Alice had no ticket: Bob's turn 2 began at 10 s with a full clock.
        assert_eq!((h.game.turn(), h.game.turn_seat()), (2, Some(Seat::SECOND)));
        assert_eq!(h.game.next_deadline().map(|d| d.at), Some(10_000 + TURN));
        h.wait(10_000);
        h.ok(B, DuelMove::Skip);
        assert_eq!((h.game.turn(), h.game.turn_seat()), (3, Some(Seat::FIRST)));
        h.wait(10_000);
        let k = h.fresh(false);
        h.ok(A, build(k, Mode::Observe));
        // With Bob's free ticket Alice is in step 2 and ends her turn herself.
        assert_eq!(*step(&h), Step::Guess);
        let events = h.ok(A, DuelMove::EndTurn);
        assert!(matches!(
            kinds(&events)[..],
            [
                EventKind::TurnEnded {
                    seat: Seat::FIRST,
                    why: TurnEnd::Ended
                },
                EventKind::TurnStarted {
                    turn: 4,
                    seat: Seat::SECOND
                }
            ]
        ));
        assert_eq!(remaining(&h), TURN);
        assert_replays(&h);
    }

    #[test]
    fn repeated_structure_is_refused_even_moved() {
        let mut h = started();
        // Initial structure #1 is a small piece pointing up, wherever it stands.
        let moved = koan(".. .. .. / .. .. 1^");
        let err = h.act(A, build(moved, Mode::Observe)).unwrap_err();
        assert_eq!(err, RuleError::AlreadyGiven { number: 1 });
        assert!(err.to_string().contains("#1"), "{err}");
        let two = koan("2^ .. / .. 3<");
        h.ok(A, build(two, Mode::Challenge));
        // Bob cannot build it again, moved, nor challenge it.
        h.ok(A, answer(Answer::Pass));
        h.ok(B, answer(Answer::Pass));
        let moved = koan(".. .. .. / .. .. .. / .. .. 2^ / .. .. .. 3<");
        assert_eq!(
            h.act(B, build(moved.clone(), Mode::Challenge)).err(),
            Some(RuleError::AlreadyGiven { number: 3 })
        );
        // A mirror image is a different structure.
        let mirrored = koan(".. 2^ / 3< ..");
        h.ok(B, build(mirrored, Mode::Observe));
        // Nothing was lost: the refused requests left no trace.
        assert_eq!(h.game.table().entries().len(), 4);
        assert_replays(&h);
    }

    #[test]
    fn counterexamples_count_as_given() {
        let mut h = alice_with_two_tickets();
        h.ok(A, every_up());
        h.ok(A, DuelMove::Confirm);
        let counterexample = h.umpire_refutes();
        let entry = h.game.table().find(&counterexample.koan).unwrap().clone();
        assert_eq!(entry.origin, Origin::Counterexample { guess: 1 });
        assert_eq!(entry.obeys, counterexample.hidden);
        h.ok(A, DuelMove::EndTurn);
        assert_eq!(
            h.act(B, build(entry.koan, Mode::Observe)).err(),
            Some(RuleError::AlreadyGiven {
                number: entry.number
            })
        );
    }

    #[test]
    fn observe_gives_the_verdict_at_once() {
        let mut h = alice_with_two_tickets();
        h.ok(A, DuelMove::EndTurn);
        h.wait(5_000);
        let before = remaining(&h);
        let k = h.fresh(false);
        let events = h.ok(B, build(k.clone(), Mode::Observe));
        let EventKind::Observed { by, obeys, .. } = &flat(&events[0].kind) else {
            panic!("{events:?}");
        };
        assert_eq!((*by, *obeys), (Seat::SECOND, false));
        let entry = h.game.table().find(&k).unwrap();
        assert_eq!(
            (entry.obeys, &entry.origin),
            (false, &Origin::Observed { by: Seat::SECOND })
        );
        // Judging took no time off the clock... and Bob, with no ticket, passed.
        assert_eq!(before, TURN - 5_000);
        assert!(matches!(
            flat(&events[1].kind),
            EventKind::TurnEnded {
                why: TurnEnd::NoTickets,
                ..
            }
        ));
    }

    #[test]
    fn challenge_reveals_when_both_answered_and_pays_correct_answers() {
        let mut h = started();
        let k = h.fresh(false);
        h.ok(A, build(k.clone(), Mode::Challenge));
        let events = h.ok(A, answer(Answer::Not));
        assert_eq!(events.len(), 1, "nothing is revealed after one answer");
        let events = h.ok(B, answer(Answer::Obeys));
        let EventKind::ChallengeRevealed {
            answers,
            obeys,
            time_up,
        } = &flat(&events[1].kind)
        else {
            panic!("{events:?}");
        };
        assert_eq!(
            (*answers, *obeys, *time_up),
            ([Answer::Not, Answer::Obeys], false, false)
        );
        assert_eq!(
            (h.game.tickets(Seat::FIRST), h.game.tickets(Seat::SECOND)),
            (1, 0)
        );
        let entry = h.game.table().find(&k).unwrap();
        assert_eq!(
            entry.origin,
            Origin::Challenged {
                by: Seat::FIRST,
                answers: BySeat::from([Answer::Not, Answer::Obeys])
            }
        );
        assert_eq!(*step(&h), Step::Guess);
        // Both right: both earn, the challenger's opponent too.
        h.ok(A, DuelMove::EndTurn);
        let k = h.fresh(true);
        h.ok(B, build(k, Mode::Challenge));
        h.ok(B, answer(Answer::Obeys));
        h.ok(A, answer(Answer::Obeys));
        assert_eq!(
            (h.game.tickets(Seat::FIRST), h.game.tickets(Seat::SECOND)),
            (2, 1)
        );
        assert_replays(&h);
    }

    #[test]
    fn answer_can_be_changed_until_the_reveal() {
        let mut h = started();
        let k = h.fresh(true);
        h.ok(A, build(k, Mode::Challenge));
        h.ok(A, answer(Answer::Not));
        h.ok(A, answer(Answer::Obeys));
        let events = h.ok(B, answer(Answer::Pass));
        assert!(matches!(
            flat(&events[1].kind),
            EventKind::ChallengeRevealed {
                answers: [Answer::Obeys, Answer::Pass],
                obeys: true,
                ..
            }
        ));
        // After the reveal there is nothing left to change.
        assert_eq!(code(h.act(B, answer(Answer::Obeys))), WrongPhase);
    }

    #[test]
    fn answer_after_30_seconds_is_ignored() {
        let mut h = started();
        h.wait(1_000);
        let k = h.fresh(true);
        h.ok(A, build(k, Mode::Challenge));
        h.wait(29_999);
        h.ok(A, answer(Answer::Obeys));
        h.wait(1);
        // 30 s after the challenge: too late, even before the time-out comes in.
        assert_eq!(code(h.act(B, answer(Answer::Obeys))), Expired);
        let events = h.run_out();
        assert!(matches!(
            flat(&events[0].kind),
            EventKind::ChallengeRevealed {
                answers: [Answer::Obeys, Answer::Pass],
                obeys: true,
                time_up: true
            }
        ));
        assert_eq!(
            (h.game.tickets(Seat::FIRST), h.game.tickets(Seat::SECOND)),
            (1, 0)
        );
        assert_replays(&h);
    }

    #[test]
    fn challenge_timeout_counts_silence_as_no_answer() {
        let mut h = started();
        let k = h.fresh(true);
        h.ok(A, build(k, Mode::Challenge));
        let deadline = h.game.next_deadline().unwrap();
        assert_eq!(
            (deadline.which, deadline.on_expiry, deadline.at),
            (Which::Challenge, Expiry::NoAnswer, 30_000)
        );
        let events = h.run_out();
        assert!(matches!(
            kinds(&events)[..],
            [
                EventKind::ChallengeRevealed {
                    answers: [Answer::Pass, Answer::Pass],
                    time_up: true,
                    ..
                },
                EventKind::TurnEnded {
                    why: TurnEnd::NoTickets,
                    ..
                },
                EventKind::TurnStarted { turn: 2, .. }
            ]
        ));
        assert_eq!(
            (h.game.tickets(Seat::FIRST), h.game.tickets(Seat::SECOND)),
            (0, 0)
        );
    }

    #[test]
    fn skipping_gives_the_opponent_a_ticket() {
        let mut h = started();
        let events = h.ok(A, DuelMove::Skip);
        assert!(matches!(
            kinds(&events)[..],
            [
                EventKind::Skipped {
                    seat: Seat::FIRST,
                    time_up: false
                },
                EventKind::TurnEnded {
                    why: TurnEnd::NoTickets,
                    ..
                },
                EventKind::TurnStarted {
                    seat: Seat::SECOND,
                    ..
                }
            ]
        ));
        assert_eq!(
            (h.game.tickets(Seat::FIRST), h.game.tickets(Seat::SECOND)),
            (0, 1)
        );
        // The skipper goes on to step 2 when they have a ticket of their own.
        h.ok(B, DuelMove::Skip);
        assert_eq!(
            (h.game.tickets(Seat::FIRST), h.game.tickets(Seat::SECOND)),
            (1, 1)
        );
        assert_eq!(
            (h.game.turn_seat(), step(&h)),
            (Some(Seat::SECOND), &Step::Guess)
        );
        h.ok(B, DuelMove::EndTurn);
        assert_eq!(h.game.turn_seat(), Some(Seat::FIRST));
    }

    #[test]
    fn guess_is_read_back_with_contradictions() {
        let mut h = alice_with_two_tickets();
        let events = h.ok(A, guess("some piece points right"));
        let EventKind::GuessRead {
            number,
            reading,
            contradictions,
            ..
        } = &flat(&events[0].kind)
        else {
            panic!("{events:?}");
        };
        assert_eq!(*number, 1);
        // The canonical reading, not the words as typed: what the guesser confirms.
        assert_eq!(reading, "there is a piece pointing right");
        // #1 `1^` obeys but has no right-pointing piece; #2 `1>` is the reverse.
        assert_eq!(contradictions[..2], [1, 2]);
        assert_eq!(h.game.guesses()[0].status, GuessStatus::Pending);
        assert_eq!(*step(&h), Step::Pending { guess: 1 });
        // The ticket is paid when the guess is stated.
        assert_eq!(h.game.tickets(Seat::FIRST), 1);
        // One guess at a time.
        assert_eq!(code(h.act(A, every_up())), WrongPhase);
        assert_eq!(code(h.act(A, DuelMove::EndTurn)), WrongPhase);
    }

    /// Issue 14: a guess beyond what the umpire can judge in time (seven pieces tied
    /// together) is refused when it is read back, before it is official: nothing is
    /// logged, the ticket stays and the turn goes on; the refusal says why and how to
    /// say it more simply. Said more simply, it is read back.
    #[test]
    fn a_guess_too_hard_to_judge_is_refused_at_read_back() {
        let mut h = alice_with_two_tickets();
        let logged = h.log.len();
        let err = h.act(A, guess(SEVEN_PIECES)).expect_err("refused");
        assert_eq!(err.code(), ErrorCode::TooHard);
        let message = err.to_string();
        for part in [
            "beyond what the umpire can judge in time",
            "pieces at once",
            "say it more simply",
            "at most four pieces",
        ] {
            assert!(message.contains(part), "`{part}` missing: {message}");
        }
        assert_eq!(h.log.len(), logged, "nothing is logged");
        assert_eq!(h.game.tickets(Seat::FIRST), 2, "no ticket spent");
        assert_eq!(*step(&h), Step::Guess);
        h.ok(A, guess("some piece points right"));
    }

    /// Seven pieces in a cycle of relations that hold for many pairs of cells (so
    /// nothing narrows the grounding), kept apart from each other.
    const SEVEN_PIECES: &str = "exists a b c d e f g. same_size(a,b) & same_size(b,c) & \
        same_size(c,d) & same_size(d,e) & same_size(e,f) & same_size(f,g) & \
        same_direction(g,a) & a != d & b != e & c != f & d != g";

    #[test]
    fn duel_plays_with_the_twelve_pyramids() {
        let mut setup = duel_setup(parsed("some arrow points up"));
        setup.settings.set = crate::koan::PieceSet::Arrows;
        setup.initial = crate::rules::zendo::Initial {
            obeys: koan("U"),
            does_not: koan("R"),
        };
        let err = Duel::start(setup, 0).unwrap_err();
        assert_eq!(
            err,
            SetupError::DuelNeedsPyramids {
                set: crate::koan::PieceSet::Arrows
            }
        );
        assert!(err.to_string().contains("12 pyramids"), "{err}");
        // Every structure built in a duel is a pyramid one.
        let mut h = Harness::duel(duel_setup(parsed("some piece points up")));
        h.ok(A, choose(ALICE));
        assert_eq!(code(h.act(A, build(koan("U R"), Mode::Observe))), WrongSet);
    }

    #[test]
    fn taking_a_guess_back_returns_the_ticket() {
        let mut h = alice_with_two_tickets();
        h.ok(A, every_up());
        assert_eq!(h.game.tickets(Seat::FIRST), 1);
        h.ok(A, DuelMove::TakeBack);
        assert_eq!(h.game.tickets(Seat::FIRST), 2);
        assert_eq!(h.game.guesses()[0].status, GuessStatus::TakenBack);
        assert_eq!(*step(&h), Step::Guess);
        assert_eq!(code(h.act(A, DuelMove::Confirm)), WrongPhase);
        // Another guess may follow.
        h.ok(A, every_up());
        assert_eq!(h.game.guesses()[1].number, 2);
        assert_replays(&h);
    }

    #[test]
    fn official_guess_adds_30_seconds_and_pauses_the_clock() {
        let mut h = alice_with_two_tickets();
        h.wait(20_000);
        let before = remaining(&h);
        h.ok(A, every_up());
        h.wait(10_000); // reading and thinking: the clock runs
        h.ok(A, DuelMove::Confirm);
        assert_eq!(remaining(&h), before - 10_000 + 30_000);
        assert!(!h.game.clock().is_running());
        assert_eq!(h.game.next_deadline(), None);
        h.wait(60_000); // the umpire builds a counterexample: the clock waits
        assert_eq!(remaining(&h), before + 20_000);
        h.umpire();
        assert_eq!(*step(&h), Step::Guess);
        assert_eq!(
            h.game.next_deadline().map(|d| d.at),
            Some(h.now + before + 20_000)
        );
        // A second official guess adds another 30 s.
        h.ok(A, every_up_variant());
        h.ok(A, DuelMove::Confirm);
        assert_eq!(remaining(&h), before + 50_000);
    }

    /// Another wrong guess, worded differently from [`every_up`].
    fn every_up_variant() -> Guessing {
        guess("exactly one piece points up")
    }

    #[test]
    fn counterexample_joins_the_table() {
        let mut h = alice_with_two_tickets();
        h.ok(A, every_up());
        h.ok(A, DuelMove::Confirm);
        let size = h.game.table().entries().len();
        let events = h.umpire();
        let EventKind::Refuted {
            number: 1,
            counterexample,
            on_table: None,
        } = &flat(&events[0].kind)
        else {
            panic!("{events:?}");
        };
        // Obeys the hidden pattern (some piece points up), not the guess.
        assert!(counterexample.hidden && !counterexample.guess);
        assert_eq!(h.game.table().entries().len(), size + 1);
        assert_eq!(
            h.game.guesses()[0].status,
            GuessStatus::Refuted {
                counterexample: size as u32 + 1
            }
        );
        // The turn goes on: Alice still has a ticket.
        assert_eq!(*step(&h), Step::Guess);
    }

    #[test]
    fn counterexample_already_on_the_table_is_named_not_repeated() {
        let mut h = alice_with_two_tickets();
        // Differs from "some piece points up" only on a lone small piece pointing
        // right: initial structure #2.
        h.ok(
            A,
            guess("exists x. up(x) | (pieces = 1 & exists y. small(y) & right(y))"),
        );
        let size = h.game.table().entries().len();
        // Already contradicted by #2 when it was read: made official, #2 refutes it at
        // once (the finder is not even asked).
        let events = h.ok(A, DuelMove::Confirm);
        assert!(matches!(
            flat(&events[1].kind),
            EventKind::Refuted {
                on_table: Some(2),
                ..
            }
        ));
        assert_eq!(h.game.table().entries().len(), size);
        assert_eq!(
            h.game.guesses()[0].status,
            GuessStatus::Refuted { counterexample: 2 }
        );
        assert_replays(&h);
    }

    #[test]
    fn false_verdicts_are_refused() {
        let mut h = alice_with_two_tickets();
        h.ok(A, every_up());
        h.ok(A, DuelMove::Confirm);
        let verdict = |koan: Koan, hidden: bool| DuelMove::Verdict {
            guess: 1,
            verdict: Verdict::Counterexample(Counterexample {
                koan,
                hidden,
                guess: !hidden,
            }),
        };
        // `3^` obeys both: it separates nothing.
        let same = koan("3^");
        assert_eq!(code(h.act(U, verdict(same, true))), BadVerdict);
        // `1^ 1>` separates them, but the sides are claimed the wrong way round.
        let sep = koan("1^ 1>");
        assert_eq!(code(h.act(U, verdict(sep.clone(), false))), BadVerdict);
        // The right one goes on the table; the same guess made again is refuted by it
        // at once, and "equivalent" can never be given for it (a table structure
        // separates them: checked again when a verdict comes in, `Core::judge`).
        h.ok(U, verdict(sep, true));
        h.ok(A, every_up());
        let events = h.ok(A, DuelMove::Confirm);
        assert!(matches!(
            flat(&events[1].kind),
            EventKind::Refuted {
                on_table: Some(_),
                ..
            }
        ));
        let eq2 = DuelMove::Verdict {
            guess: 2,
            verdict: Verdict::Equivalent,
        };
        assert_eq!(code(h.act(U, eq2)), WrongPhase);
        assert!(matches!(
            h.game.core.judge(2, &Verdict::Equivalent),
            Err(RuleError::BadVerdict(_))
        ));
        // A verdict for a guess that is not awaited, or from a player.
        let eq1 = DuelMove::Verdict {
            guess: 1,
            verdict: Verdict::Equivalent,
        };
        assert_eq!(code(h.act(U, eq1)), WrongPhase);
        assert_eq!(
            code(h.act(
                A,
                DuelMove::Verdict {
                    guess: 2,
                    verdict: Verdict::Equivalent
                }
            )),
            UmpireOnly
        );
        assert!(!h.game.is_over());
    }

    #[test]
    fn winner_only_on_equivalent() {
        let mut h = alice_with_two_tickets();
        // A wrong guess, refuted: no winner.
        h.ok(A, every_up());
        h.ok(A, DuelMove::Confirm);
        h.umpire();
        assert!(!h.game.is_over());
        // An undecided one: still no winner.
        h.ok(A, guess("at least one piece points up"));
        h.ok(A, DuelMove::Confirm);
        h.umpire_undecided("budget");
        assert!(!h.game.is_over());
        // The same guess again, proved equivalent: Alice wins.
        h.ok(A, guess("at least one piece points up"));
        h.ok(A, DuelMove::Confirm);
        let events = h.umpire();
        assert!(matches!(
            kinds(&events)[..],
            [EventKind::MatchEnded {
                outcome: Outcome::Solved {
                    by: Seat::FIRST,
                    guess: 3
                },
                ..
            }]
        ));
        assert_eq!(h.game.winner(), Some(Seat::FIRST));
        assert_eq!(h.game.guesses()[2].status, GuessStatus::Correct);
        assert_eq!(
            h.game.view(&Viewer::Spectator).revealed.as_deref(),
            Some("some piece points up")
        );
        assert_eq!(*h.game.phase(), Phase::Over);
        assert_eq!(h.game.next_deadline(), None);
        assert_eq!(code(h.act(B, Action::Resign)), MatchOver);
        assert_replays(&h);
    }

    #[test]
    fn undecided_verdict_voids_the_guess() {
        let mut h = alice_with_two_tickets();
        h.ok(A, every_up());
        let before = remaining(&h);
        h.ok(A, DuelMove::Confirm);
        let reason = "the finder could not decide within its budget".to_string();
        h.ok(
            U,
            DuelMove::Verdict {
                guess: 1,
                verdict: Verdict::Undecided {
                    reason: reason.clone(),
                },
            },
        );
        assert_eq!(h.game.tickets(Seat::FIRST), 2);
        assert_eq!(
            h.game.guesses()[0].status,
            GuessStatus::Undecided { reason }
        );
        assert_eq!(*step(&h), Step::Guess);
        // A void guess adds no time: its 30 s went with it.
        assert_eq!(remaining(&h), before);
    }

    #[test]
    fn turn_passes_when_step_2_has_no_ticket() {
        let mut h = started();
        alice_wins_a_challenge(&mut h);
        assert_eq!(h.game.tickets(Seat::FIRST), 1);
        h.ok(A, every_up());
        h.ok(A, DuelMove::Confirm);
        let events = h.umpire();
        // The last ticket is spent and refuted: the turn passes by itself.
        assert!(matches!(
            kinds(&events)[..],
            [
                EventKind::Refuted { .. },
                EventKind::TurnEnded {
                    seat: Seat::FIRST,
                    why: TurnEnd::NoTickets
                },
                EventKind::TurnStarted {
                    turn: 2,
                    seat: Seat::SECOND
                }
            ]
        ));
        // With no ticket a guess is impossible (the turn never waits in step 2
        // without one), and out of turn it is refused before the ticket check.
        assert_eq!(code(h.act(A, every_up())), NotYourTurn);
    }

    #[test]
    fn clock_is_paused_during_challenge_and_verdict() {
        let mut h = started();
        h.wait(20_000);
        let k = h.fresh(true);
        h.ok(A, build(k, Mode::Challenge));
        h.wait(25_000);
        assert_eq!(remaining(&h), TURN - 20_000);
        assert_eq!(
            h.game.next_deadline().map(|d| (d.which, d.at)),
            Some((Which::Challenge, 50_000))
        );
        h.ok(A, answer(Answer::Obeys));
        h.ok(B, answer(Answer::Not));
        // Step 2 resumes the turn clock where it stopped.
        assert_eq!(
            h.game.next_deadline().map(|d| (d.which, d.at, d.on_expiry)),
            Some((Which::Turn, 45_000 + TURN - 20_000, Expiry::NoMoreGuesses))
        );
        h.ok(A, every_up());
        h.ok(A, DuelMove::Confirm);
        let at_confirm = remaining(&h);
        h.wait(100_000);
        assert_eq!(remaining(&h), at_confirm);
    }

    #[test]
    fn timeout_in_step_1_skips_and_passes() {
        let mut h = started();
        let d = h.game.next_deadline().unwrap();
        assert_eq!(
            (d.at, d.turn, d.which, d.on_expiry),
            (TURN, 1, Which::Turn, Expiry::NoStructure)
        );
        let events = h.run_out();
        assert!(matches!(
            kinds(&events)[..],
            [
                EventKind::Skipped {
                    seat: Seat::FIRST,
                    time_up: true
                },
                EventKind::TurnEnded {
                    seat: Seat::FIRST,
                    why: TurnEnd::TimeUp
                },
                EventKind::TurnStarted {
                    turn: 2,
                    seat: Seat::SECOND
                }
            ]
        ));
        assert_eq!(
            (h.game.tickets(Seat::FIRST), h.game.tickets(Seat::SECOND)),
            (0, 1)
        );
        assert_eq!(remaining(&h), TURN);
        assert_replays(&h);
    }

    #[test]
    fn timeout_in_step_2_takes_back_a_pending_guess() {
        let mut h = alice_with_two_tickets();
        h.ok(A, every_up());
        h.ok(A, DuelMove::Confirm);
        h.umpire(); // an official guess, refuted: it stands
        h.ok(A, every_up_variant()); // pending when the time runs out
        assert_eq!(h.game.tickets(Seat::FIRST), 0);
        let events = h.run_out();
        assert!(matches!(
            kinds(&events)[..],
            [
                EventKind::GuessWithdrawn {
                    number: 2,
                    why: Withdrawal::TimeUp
                },
                EventKind::TurnEnded {
                    why: TurnEnd::TimeUp,
                    ..
                },
                EventKind::TurnStarted { .. }
            ]
        ));
        assert_eq!(h.game.tickets(Seat::FIRST), 1);
        assert!(matches!(
            h.game.guesses()[0].status,
            GuessStatus::Refuted { .. }
        ));
        assert_eq!(h.game.guesses()[1].status, GuessStatus::TimedOut);
        assert_replays(&h);
    }

    #[test]
    fn late_requests_are_refused_before_the_timeout() {
        let mut h = started();
        h.wait(TURN);
        let k = h.fresh(true);
        assert_eq!(code(h.act(A, build(k, Mode::Observe))), Expired);
        assert_eq!(code(h.act(A, DuelMove::Skip)), Expired);
        let mut h = alice_with_two_tickets();
        h.ok(A, every_up());
        h.wait(TURN);
        assert_eq!(code(h.act(A, DuelMove::Confirm)), Expired);
        assert_eq!(code(h.act(A, DuelMove::EndTurn)), WrongPhase);
        // The time-out decides, as the rules say.
        h.run_out();
        assert_eq!(h.game.turn_seat(), Some(Seat::SECOND));
    }

    #[test]
    fn stale_or_early_timeouts_are_refused() {
        let mut h = started();
        let first = h.game.next_deadline().unwrap();
        let timeout = |d: Deadline| Action::Timeout { deadline: d };
        assert_eq!(
            h.act(U, timeout(first)).err(),
            Some(RuleError::TooEarly { at: TURN })
        );
        assert_eq!(code(h.act(A, timeout(first))), UmpireOnly);
        h.wait(10_000);
        let k = h.fresh(true);
        h.ok(A, build(k, Mode::Challenge));
        h.wait(5_000);
        // The turn's deadline no longer holds while the challenge runs...
        assert_eq!(code(h.act(U, timeout(first))), StaleDeadline);
        h.ok(A, answer(Answer::Obeys));
        h.ok(B, answer(Answer::Not));
        // ...nor after: the turn clock stopped for the challenge, so it moved.
        assert_eq!(code(h.act(U, timeout(first))), StaleDeadline);
        let moved = h.game.next_deadline().unwrap();
        assert_eq!(moved.at, h.now + TURN - 10_000);
    }

    #[test]
    fn downtime_is_not_counted() {
        let mut h = started();
        // The process dies at 60 s and comes back at 500 s.
        h.now = 500_000;
        h.ok(U, Action::Downtime { since: 60_000 });
        assert_eq!(remaining(&h), TURN - 60_000);
        assert_eq!(
            h.game.next_deadline().map(|d| d.at),
            Some(500_000 + TURN - 60_000)
        );
        // A challenge clock keeps its time too.
        let k = h.fresh(true);
        h.ok(A, build(k, Mode::Challenge));
        h.now += 10_000;
        h.now += 1_000_000;
        h.ok(
            U,
            Action::Downtime {
                since: h.now - 1_000_000,
            },
        );
        assert_eq!(h.game.next_deadline().map(|d| d.at), Some(h.now + 20_000));
        assert_replays(&h);
    }

    #[test]
    fn resigning_hands_the_win_to_the_opponent() {
        let mut h = started();
        h.ok(H, Action::Pause);
        // Out of turn and while paused: resigning is always possible.
        let events = h.ok(B, Action::Resign);
        assert!(matches!(
            flat(&events[0].kind),
            EventKind::MatchEnded {
                outcome: Outcome::Resigned { by: Seat::SECOND },
                ..
            }
        ));
        assert_eq!(h.game.winner(), Some(Seat::FIRST));
        assert_eq!(code(h.act(A, DuelMove::Skip)), MatchOver);
        assert_eq!(code(h.act(H, Action::Resume)), MatchOver);
        assert_replays(&h);
    }

    #[test]
    fn leaving_before_the_start_is_declining() {
        for leaver in [A, B] {
            let mut h = up_duel();
            assert_eq!(h.game.turn_seat(), None, "the starter is not chosen yet");
            let events = h.ok(leaver, Action::Resign);
            let EventKind::MatchEnded { outcome, .. } = &flat(&events[0].kind) else {
                panic!("{events:?}")
            };
            let by = if leaver == A {
                Seat::FIRST
            } else {
                Seat::SECOND
            };
            assert_eq!(
                *outcome,
                Outcome::Declined { by, time_up: false },
                "the one who left is named"
            );
            assert_eq!(h.game.winner(), None, "nobody wins a duel never played");
            assert_eq!(code(h.act(A, choose(ALICE))), MatchOver);
            assert_replays(&h);
        }
        // Once started, leaving is resigning (`resigning_hands_the_win_to_the_opponent`).
        let mut h = started();
        let events = h.ok(A, Action::Resign);
        assert!(matches!(
            flat(&events[0].kind),
            EventKind::MatchEnded {
                outcome: Outcome::Resigned { .. },
                ..
            }
        ));
    }

    #[test]
    fn an_unanswered_challenge_to_a_duel_is_declined() {
        let mut h = up_duel();
        let d = h.game.next_deadline().expect("the choice has a deadline");
        assert_eq!((d.at, d.on_expiry), (TURN, Expiry::NoChoice));
        // Chosen in time: turn 1 gets a full clock of its own.
        let mut chosen = up_duel();
        chosen.wait(TURN - 1);
        chosen.ok(A, choose(BOB));
        let d = chosen.game.next_deadline().expect("turn 1 runs");
        assert_eq!(d.at, chosen.now + TURN);
        // Not chosen: declined on the advantage's behalf, nobody wins.
        h.wait(TURN);
        let late = h.act(A, choose(ALICE)).expect_err("too late");
        assert_eq!(late.code(), Expired);
        assert!(late.to_string().contains("choose who starts"), "{late}");
        h.run_out();
        assert_eq!(
            h.game.core.outcome,
            Some(Outcome::Declined {
                by: h.game.advantage(),
                time_up: true
            })
        );
        assert_eq!(h.game.winner(), None);
        assert_replays(&h);
    }

    #[test]
    fn a_duel_nobody_plays_is_abandoned() {
        let mut h = started();
        // One player still playing keeps the duel going: bob skips on his turns.
        for _ in 0..IDLE_TURNS {
            h.run_out(); // alice's turn runs out
            h.ok(B, DuelMove::Skip);
            h.ok(B, DuelMove::EndTurn);
        }
        assert!(
            !h.game.is_over(),
            "alice missed {IDLE_TURNS} turns, bob played"
        );
        // Both gone: IDLE_TURNS turns in a row run out.
        for n in 1..=IDLE_TURNS {
            assert!(!h.game.is_over(), "over after {n} idle turns");
            h.run_out();
        }
        assert!(matches!(h.game.core.outcome, Some(Outcome::Abandoned)));
        assert_eq!(h.game.winner(), None);
        assert_eq!(h.game.next_deadline(), None, "no more time-outs to post");
        assert_replays(&h);
    }

    #[test]
    fn host_pause_freezes_the_match() {
        let mut h = started();
        h.wait(30_000);
        assert_eq!(code(h.act(A, Action::Pause)), HostOnly);
        h.ok(H, Action::Pause);
        assert_eq!(code(h.act(H, Action::Pause)), WrongPhase);
        assert_eq!(h.game.next_deadline(), None);
        h.wait(3_600_000);
        let k = h.fresh(true);
        assert_eq!(code(h.act(A, build(k.clone(), Mode::Challenge))), Paused);
        h.ok(H, Action::Resume);
        assert_eq!(remaining(&h), TURN - 30_000);
        assert_eq!(
            h.game.next_deadline().map(|d| d.at),
            Some(h.now + TURN - 30_000)
        );
        // During a challenge the answers wait too, and the challenge clock stops.
        h.ok(A, build(k, Mode::Challenge));
        h.wait(10_000);
        h.ok(H, Action::Pause);
        assert_eq!(code(h.act(B, answer(Answer::Obeys))), Paused);
        h.wait(100_000);
        h.ok(H, Action::Resume);
        assert_eq!(
            h.game.next_deadline().map(|d| (d.which, d.at)),
            Some((Which::Challenge, h.now + 20_000))
        );
        assert_eq!(code(h.act(H, Action::Resume)), WrongPhase);
        assert_replays(&h);
    }

    #[test]
    fn host_disallow_returns_the_ticket() {
        let mut h = alice_with_two_tickets();
        assert_eq!(code(h.act(H, DuelMove::Disallow)), WrongPhase);
        h.ok(A, every_up());
        h.ok(H, DuelMove::Disallow);
        assert_eq!(h.game.tickets(Seat::FIRST), 2);
        assert_eq!(h.game.guesses()[0].status, GuessStatus::Disallowed);
        // An official guess still waiting for its verdict: the ticket and the 30 s go
        // back, and the finder's late verdict is refused.
        h.ok(A, every_up_variant());
        let before = remaining(&h);
        h.ok(A, DuelMove::Confirm);
        h.ok(H, DuelMove::Disallow);
        assert_eq!(h.game.tickets(Seat::FIRST), 2);
        assert_eq!(remaining(&h), before);
        assert_eq!(*step(&h), Step::Guess);
        let late = DuelMove::Verdict {
            guess: 2,
            verdict: Verdict::Equivalent,
        };
        assert_eq!(code(h.act(U, late)), WrongPhase);
        assert_eq!(code(h.act(A, DuelMove::Disallow)), HostOnly);
        assert_replays(&h);
    }

    #[test]
    fn host_end_has_no_winner() {
        let mut h = started();
        assert_eq!(code(h.act(B, Action::End)), HostOnly);
        let events = h.ok(H, Action::End);
        assert!(matches!(
            flat(&events[0].kind),
            EventKind::MatchEnded {
                outcome: Outcome::Ended { by: HOST },
                ..
            }
        ));
        assert_eq!(h.game.winner(), None);
        let view = h.game.view(&Viewer::Player(BOB));
        assert_eq!(view.revealed.as_deref(), Some("some piece points up"));
    }

    #[test]
    fn a_host_who_plays_has_no_overrides() {
        let mut h = started();
        let alice_hosting = Actor::Host(ALICE);
        // Alice is a host of the server, but she plays here: no overrides.
        for action in [Action::Pause, Action::Resume, Action::End] {
            assert_eq!(code(h.act(alice_hosting, action)), HostPlays);
        }
        let k = h.fresh(true);
        alice_wins_a_challenge_with(&mut h, k);
        h.ok(A, every_up());
        assert_eq!(code(h.act(alice_hosting, DuelMove::Disallow)), HostPlays);
        let err = h.act(Actor::Host(BOB), DuelMove::Disallow).unwrap_err();
        assert!(err.to_string().contains("you play in this match"), "{err}");
        // A host who does not play may.
        h.ok(H, DuelMove::Disallow);
        h.ok(H, Action::Pause);
        assert!(h.game.is_paused());
    }

    #[test]
    fn checks_come_in_a_fixed_order() {
        let stranger = Actor::Player(HOST);
        let mut h = started();
        // 2 before 3: a stranger hears they do not play, even while paused.
        h.ok(H, Action::Pause);
        assert_eq!(code(h.act(stranger, DuelMove::Skip)), NotAPlayer);
        assert_eq!(code(h.act(H, DuelMove::Skip)), NotAPlayer);
        // 3 (paused) before 3 (turn): Bob hears about the pause first.
        assert_eq!(code(h.act(B, DuelMove::Skip)), Paused);
        h.ok(H, Action::Resume);
        // 3 (turn) before 4 (phase).
        assert_eq!(code(h.act(B, DuelMove::Confirm)), NotYourTurn);
        // 4 (phase) before 5 (version).
        let v = h.game.version();
        assert_eq!(code(h.act_shown(A, DuelMove::Confirm, v + 7)), WrongPhase);
        // 5 (version) before 6 (the rule: the structure is already given).
        let given = koan("1^");
        assert_eq!(
            code(h.act_shown(A, build(given.clone(), Mode::Observe), v + 7)),
            StaleVersion
        );
        assert_eq!(
            code(h.act_shown(A, build(given, Mode::Observe), v)),
            AlreadyGiven
        );
        // 1 before everything.
        h.ok(H, Action::End);
        assert_eq!(code(h.act(stranger, DuelMove::Skip)), MatchOver);
    }

    #[test]
    fn stale_version_is_refused() {
        let mut h = alice_with_two_tickets();
        let drawn = h.game.view(&Viewer::Player(ALICE)).version;
        h.ok(A, every_up());
        h.ok(A, DuelMove::TakeBack);
        // Alice is in step 2 again, but not the step 2 that button was drawn in.
        assert_eq!(
            h.act_shown(A, DuelMove::EndTurn, drawn).err(),
            Some(RuleError::StaleVersion {
                shown: drawn,
                current: h.game.version()
            })
        );
        let now = h.game.version();
        h.act_shown(A, DuelMove::EndTurn, now).unwrap();
        // Answer buttons stay good while the other player answers.
        let k = h.fresh(true);
        h.ok(B, build(k, Mode::Challenge));
        let drawn = h.game.version();
        h.act_shown(B, answer(Answer::Obeys), drawn).unwrap();
        h.act_shown(A, answer(Answer::Obeys), drawn).unwrap();
    }

    #[test]
    fn out_of_turn_is_refused() {
        let mut h = started();
        let k = h.fresh(true);
        assert_eq!(
            h.act(B, build(k.clone(), Mode::Observe)).err(),
            Some(RuleError::NotYourTurn { waiting_for: ALICE })
        );
        assert_eq!(code(h.act(B, DuelMove::Skip)), NotYourTurn);
        assert_eq!(code(h.act(B, DuelMove::EndTurn)), NotYourTurn);
        assert_eq!(code(h.act(Actor::Player(HOST), DuelMove::Skip)), NotAPlayer);
        h.ok(A, build(k, Mode::Observe));
        assert_eq!(code(h.act(A, DuelMove::Skip)), NotYourTurn);
        assert_eq!(h.log.len() as u64, h.game.version());
    }

    #[test]
    fn views_and_announcements_keep_secrets() {
        let mut h = started();
        let k = h.fresh(true);
        h.ok(A, build(k, Mode::Challenge));
        let answered = h.ok(A, answer(Answer::Not));
        let bob = Viewer::Player(BOB);
        let alice = Viewer::Player(ALICE);
        // Heard whole only by Alice; by everyone else as "an answer is in".
        let heard = |viewer: &Viewer| {
            h.game
                .visible(&answered[0], viewer)
                .map(|e| match flat(&e.kind) {
                    EventKind::ChallengeAnswered { answer, .. } => answer,
                    other => panic!("{other:?}"),
                })
        };
        assert_eq!(heard(&bob), Some(None));
        assert_eq!(heard(&Viewer::Spectator), Some(None));
        assert_eq!(heard(&alice), Some(Some(Answer::Not)));
        assert!(
            h.game.visible(&h.log[0], &alice).is_none(),
            "created holds the pattern"
        );
        let StepView::Challenge {
            answered, yours, ..
        } = step_view(&h.game.view(&alice))
        else {
            panic!()
        };
        assert_eq!(
            (answered, yours),
            (BySeat::from([true, false]), Some(Answer::Not))
        );
        let StepView::Challenge { yours, .. } = step_view(&h.game.view(&bob)) else {
            panic!()
        };
        assert_eq!(yours, None);
        for viewer in [alice, bob, Viewer::Spectator] {
            let json = serde_json::to_string(&h.game.view(&viewer)).unwrap();
            assert!(!json.contains("some piece points up"), "{json}");
            assert!(!json.contains("Exists"), "{json}");
            let hidden = &h.game.hidden().formula;
            assert!(!json.contains(&crate::lang::english(hidden)), "{json}");
            assert!(!json.contains(&crate::lang::symbolic(hidden)), "{json}");
        }
        // After the reveal the answers are public.
        let revealed = h.ok(B, answer(Answer::Obeys));
        let seen = h.game.visible(&revealed[1], &Viewer::Spectator);
        assert!(matches!(
            seen.map(|e| flat(&e.kind)),
            Some(EventKind::ChallengeRevealed { .. })
        ));
    }

    fn step_view(view: &crate::rules::zendo::DuelView) -> StepView {
        match &view.phase {
            crate::rules::zendo::PhaseView::Turn { step, .. } => step.clone(),
            other => panic!("{other:?}"),
        }
    }

    use crate::rules::zendo::StepView;
}
