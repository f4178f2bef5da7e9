//! # Zendo Duel: the rule book
//!
//! The Death Match as players read it in docs/games/duel.md. Every rule is enforced in
//! this file and tested in its `tests` module under the name in brackets; what
//! Classic's turn says the same way (a structure not given before and observed at
//! once, an answer in time, the guesses and the reveal's fold) is written once in
//! `../turn.rs` and called from here. Durations are [`Timing`] settings; the defaults
//! are the original game's.
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
//! - An answer may be changed until the reveal (the Duel's original rules are silent;
//!   they let a player "promptly fix" a submission and their Triple variant allows
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
//! - A side whose own turns ran out [`IDLE_OWN_TURNS`] times in a row in step 1 (nothing
//!   done by it in between) while the other played is idle: the match ends; after
//!   having acted it loses on time, never having acted it aborts the match (unrated).
//!   `[a_side_that_stops_after_playing_loses_on_time]`,
//!   `[a_side_that_never_plays_aborts_the_duel]`
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
//!   each guess (the words are in `crates/mondo-narrate/src/zendo/mod.rs`, tested there:
//!   `[ticket_counts_are_said_at_each_step]`).
//!
//! **Authority, in this order** (boardgame.io's, checked once for every game in
//! `rules/mod.rs`): the match is not over (`MatchOver`); the actor has the
//! action's role (`NotAPlayer`, `HostOnly`, `HostPlays`, `UmpireOnly`); the player may
//! act now (`Paused`, `NotYourTurn`); the action fits the phase
//! (`WrongPhase`, and for time-outs `StaleDeadline` / `TooEarly`); a button's version
//! is not stale (`StaleVersion`: drawn before the current phase began); then the rule
//! itself (`Expired`, `WrongSet`, `AlreadyGiven`, `NoTicket`, `BadVerdict`...).
//! `[checks_come_in_a_fixed_order]`, `[stale_version_is_refused]`, `[out_of_turn_is_refused]`

pub use super::turn::Step;
use super::turn::{self, GuessMove, TurnMove, Words};
use super::{
    Answer, Core, Initial, Mode, Outcome, Settings, TurnEnd, VerdictJob, ZendoEvent, ZendoMove,
};
use crate::finder::Verdict;
use crate::koan::Koan;
use crate::lang::Pattern;
use crate::rules::{
    self, BySeat, Clock, Emitter, FoldError, Game, Millis, PlayerId, RuleError, Seat, Seating,
    Secret, SetupError, Viewer, Who,
};
use serde::{Deserialize, Serialize};

pub mod section;
mod state;
mod view;

pub use section::ZendoConfig as Section;
pub use state::{Duel, Phase, Timing};
pub use view::{DuelView, PhaseView, StepView};

crate::rules::game_types! {
    Duel: ZendoDuel, clocked: true, deadline: Deadline, work: VerdictJob, log: Event,
    setup: DuelSetup, moves: DuelMove, events: DuelEvent::DuelCreated,
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
    /// Umpire: the finder's answer to official guess `guess`.
    Verdict { guess: u32, verdict: Verdict },
    /// Choosing who starts, confirming or taking back a guess, ending the turn, a
    /// host's disallowing: as in every Zendo mode.
    #[serde(untagged)]
    Zendo(ZendoMove),
}

super::moves::shared_moves_in!(DuelMove, Action);

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

super::shared_events_in!(DuelEvent, DuelMove);

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

/// A duel whose players are both gone ends after this many turns in a row ran out in
/// step 1 (each player missed two turns): no winner. One player still playing keeps it
/// going (their turns are not idle).
pub const IDLE_TURNS: u32 = 4;

/// A side whose own turns ran out this many times in a row in step 1, with nothing
/// done by it in between (an answer to a challenge is something), while the other
/// side played, is idle: the match ends by the fair-play rule (docs/ratings.md): a
/// side that had acted loses, one that never did aborts the match. Greater than half
/// of [`IDLE_TURNS`], so when both sides are gone the match is abandoned first.
pub const IDLE_OWN_TURNS: u32 = 3;

const CHOOSE_FIRST: &str = "the player with the advantage has not chosen who starts yet";

/// What a duel calls things in its refusals.
const WORDS: Words = Words {
    answering: "wait until the challenge is revealed",
    nothing_to_answer: "there is no challenge to answer",
    built: "step 1 is done this turn (one structure per turn); guess or end your turn",
    build_first: "build a structure (or skip) first: guesses come in step 2",
    too_late: "the time to answer this challenge is over; the answer does not count",
    no_time: "the turn and the challenge need some time (more than 0 ms)",
};

super::turn::turns!(Duel, Phase, Step, tickets);
super::turn::challenge_events!(DuelEvent: ChallengeOpened, ChallengeAnswered, ChallengeRevealed);

impl Duel {
    pub fn advantage(&self) -> Seat {
        self.advantage
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
            // Idle after acting loses; never having acted aborts (no winner).
            Outcome::Idle { seat, acted } => acted.then(|| seat.other()),
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

    fn pending(&self) -> u32 {
        self.turn_step().and_then(Step::in_play).unwrap_or(0)
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

impl Game for Duel {
    type Move = DuelMove;
    type View = DuelView;

    fn from_setup(setup: &DuelSetup, now: Millis) -> Result<Duel, SetupError> {
        if setup.settings.set != crate::koan::PieceSet::Pyramids {
            return Err(SetupError::NeedsPieceSet {
                game: "Zendo Duel",
                needs: "the 12 pyramids",
                set: setup.settings.set,
                hint: "arrows are for practice",
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
        WORDS.check_times(t.turn_ms, t.challenge_ms)?;
        let core = Core::new(&setup.hidden, &setup.initial, setup.settings, setup.seed)?;
        let mut duel = Duel {
            seating: Seating::new(now, setup.players, setup.seed),
            core,
            advantage,
            timing: t,
            phase: Phase::ChoosingStarter,
            turn: 0,
            tickets: BySeat::new(2, 0),
            clock: Clock::stopped(t.turn_ms),
            idle_turns: 0,
            missed: [0; 2],
        };
        // The choice of who starts has one turn's length.
        duel.sync_clocks(now);
        Ok(duel)
    }

    rules::seating!();

    fn is_over(&self) -> bool {
        self.core.outcome.is_some()
    }

    fn finish(&self) -> Option<rules::Finish> {
        let own = || {
            rules::Finish::two(
                self.seating.players.values(),
                self.winner().map(|s| s.index()),
            )
        };
        Some(match self.core.outcome? {
            Outcome::Solved { .. } => own(),
            Outcome::Resigned { by } => rules::fair::resigned(&self.seating, by, own()),
            Outcome::Idle { seat, .. } => rules::fair::settle(&self.seating, |s| s == seat, own()),
            Outcome::Ended { .. } => rules::Finish::Unrated(rules::Why::HostEnded),
            Outcome::Declined { by, .. } => rules::Finish::Unrated(rules::Why::Declined {
                by: self.player(by),
            }),
            Outcome::Abandoned | Outcome::Deserted { .. } => {
                rules::Finish::Unrated(rules::Why::Abandoned)
            }
        })
    }

    fn acted_by(&self, event: &DuelEvent) -> Option<Seat> {
        match event {
            DuelEvent::StarterChosen { .. } => Some(self.advantage),
            DuelEvent::ChallengeOpened { by, .. } => Some(*by),
            DuelEvent::ChallengeAnswered { seat, .. } => Some(*seat),
            DuelEvent::Skipped {
                seat,
                time_up: false,
            } => Some(*seat),
            DuelEvent::TurnEnded {
                seat,
                why: TurnEnd::Ended,
            } => Some(*seat),
            DuelEvent::Zendo(z) => z.acted_by(),
            _ => None,
        }
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
            (DuelMove::Zendo(ZendoMove::ChooseStarter { .. }), _) | (_, None)
                if seat != self.advantage =>
            {
                Err(waiting_for(self.advantage))
            }
            (DuelMove::Zendo(ZendoMove::ChooseStarter { .. }), _) | (_, None) => Ok(()),
            (_, Some(s)) if s != seat => Err(waiting_for(s)),
            _ => Ok(()),
        }
    }

    /// Check 4: the move fits the phase.
    fn check_phase(&self, m: &DuelMove, _now: Millis) -> Result<(), RuleError> {
        let m = match m {
            DuelMove::Build { .. } | DuelMove::Skip => TurnMove::Build,
            DuelMove::Answer { .. } => TurnMove::Answer,
            DuelMove::Guess { .. } => TurnMove::Guess,
            DuelMove::Verdict { guess, .. } => TurnMove::Verdict(*guess),
            DuelMove::Zendo(z) => match z.turn_move() {
                Some(m) => m,
                // Choosing who starts.
                None => {
                    return match self.phase {
                        Phase::ChoosingStarter => Ok(()),
                        _ => Err(RuleError::WrongPhase(
                            "the starting player has already been chosen",
                        )),
                    };
                }
            },
        };
        match (&self.phase, m) {
            (Phase::Turn { step, .. }, m) => step.check(m, &WORDS),
            (_, TurnMove::Build | TurnMove::Guess) => Err(RuleError::WrongPhase(CHOOSE_FIRST)),
            // Before the first turn, as at the start of one: nothing is open.
            (_, m) => Step::Build.check(m, &WORDS),
        }
    }

    /// Check 6: the rule itself, and what it makes happen.
    fn rule(&self, out: &mut Emitter<Self>, who: Who, m: &DuelMove) -> Result<(), RuleError> {
        let now = out.at();
        let seat = match who {
            Who::Player(seat) => seat,
            // Only player moves read it; the turn player is the natural default.
            _ => self.turn_seat().unwrap_or(self.advantage),
        };
        let pending = self.pending();
        let guess = match m {
            DuelMove::Guess { pattern } => Some(GuessMove::Guess(pattern)),
            DuelMove::Verdict { guess, verdict } => Some(GuessMove::Verdict(*guess, verdict)),
            DuelMove::Zendo(z) => z.guess_move(),
            _ => None,
        };
        if let Some(g) = guess {
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
            return Ok(());
        }
        match m {
            DuelMove::Zendo(ZendoMove::ChooseStarter { starter }) => {
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
                let observe = *mode == Mode::Observe;
                let challenge = |koan| DuelEvent::ChallengeOpened { by: seat, koan };
                turn::build(
                    out,
                    &self.core,
                    (seat, koan),
                    observe,
                    challenge,
                    pass_if_no_ticket,
                )?;
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
                if let Phase::Turn { step, .. } = &self.phase {
                    step.check_answer_time(now, &WORDS)?;
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
            DuelMove::Zendo(ZendoMove::EndTurn) => {
                self.check_time(now)?;
                pass_turn(out, seat, TurnEnd::Ended);
            }
            // The guess moves, taken above.
            DuelMove::Guess { .. } | DuelMove::Verdict { .. } | DuelMove::Zendo(_) => {}
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
                let next = out.next();
                if next.idle_turns >= IDLE_TURNS {
                    out.emit(self.core.ended(Outcome::Abandoned));
                    return;
                }
                if next.missed[seat.index()] >= IDLE_OWN_TURNS {
                    let acted = self.seating.has_acted(seat);
                    out.emit(self.core.ended(Outcome::Idle { seat, acted }));
                    return;
                }
                pass_turn(out, seat, TurnEnd::TimeUp);
            }
            _ => turn::time_out(out, (step, seat), pass_turn, reveal),
        }
    }

    fn next_deadline(&self) -> Option<Deadline> {
        if self.seating.ledger.paused {
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
            DuelEvent::Skipped {
                time_up: true,
                seat,
            } => {
                self.idle_turns += 1;
                self.missed[seat.index()] += 1;
            }
            // Bookkeeping that is no one playing.
            DuelEvent::TurnEnded { .. }
            | DuelEvent::TurnStarted { .. }
            | DuelEvent::Zendo(ZendoEvent::MatchEnded { .. }) => {}
            _ => self.idle_turns = 0,
        }
        if let Some(seat) = self.acted_by(event) {
            self.missed[seat.index()] = 0;
        }
        match event {
            DuelEvent::DuelCreated { .. } => {
                return Err(self.seating.ledger.misfit("a match is created only once"));
            }
            DuelEvent::StarterChosen { .. } => {
                if self.phase != Phase::ChoosingStarter {
                    return Err(self.seating.ledger.misfit("the starter was already chosen"));
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
                    return Err(self.seating.ledger.misfit("step 1 is not in progress"));
                }
                self.tickets[seat.other()] += 1;
                self.set_step(seat, Step::Guess);
            }
            DuelEvent::ChallengeOpened { .. }
            | DuelEvent::ChallengeAnswered { .. }
            | DuelEvent::ChallengeRevealed { .. } => {
                let challenge = event.challenge();
                let answer_ms = self.timing.challenge_ms;
                self.turn_parts()
                    .fold_challenge(challenge, answer_ms, |_| true)?;
            }
            DuelEvent::TurnEnded { seat, .. } => {
                if self.step()?.0 != *seat {
                    return Err(self.seating.ledger.misfit("it is not that player's turn"));
                }
            }
            DuelEvent::Zendo(e) => self.turn_parts().fold_zendo(e, bonus)?,
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
        let paused = self.seating.ledger.paused;
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

    super::verdict_work!();
}

#[cfg(test)]
mod tests;
