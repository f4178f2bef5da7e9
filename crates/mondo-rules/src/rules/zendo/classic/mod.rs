//! # Zendo Classic: the rule book
//!
//! Kory Heath's Zendo as players read it in docs/games/classic.md: the Master and 2
//! to 8 students. The umpire plays the Master's part (marks, counterexamples); a host who
//! does not play may choose the rule. Every rule is enforced in this file and tested
//! in `tests.rs` under the name in brackets; what the Duel's turn says the same way
//! (a structure not given before and observed at once, an answer in time, the guesses
//! and the reveal's fold) is written once in `../turn.rs` and called from here.
//! Durations are [`ClassicTiming`] settings.
//!
//! **Setup**
//! - 2 to 8 different students; turn order is the order they joined (the setup's
//!   order). The Master's rule is the umpire's pick from the pool, or one a host who
//!   does not play typed (checked reasonable by [`opening::classic_opening`]); a host
//!   Master is not a student. Two initial structures, #1 marked obeying and #2 not
//!   (checked against the rule). The 12 pyramids by default; a host may choose arrows.
//!   `[setup_checks_students_master_and_structures]`
//! - Nobody starts with a guessing stone; the first student starts with a full turn
//!   clock (3:00), then each in join order. `[turns_go_in_join_order]`
//!
//! **A turn**
//! - Step 1, build: a structure of the game's set not given before (initial structures,
//!   built ones and counterexamples count; a moved structure is the same). Building
//!   is not optional: guessing or ending the turn before it is refused.
//!   `[a_turn_starts_with_a_structure]`
//! - Step 2, `master`: the umpire marks it at once. `[master_marks_at_once]`
//! - Step 2, `mondo`: every student still in the game answers privately (obeys, not or
//!   pass) within the answer clock (30 s); the marks and the answers are revealed
//!   together when every student expected has answered (a student skipped for
//!   time-outs may answer but is not waited for), or when time is up (silence is no
//!   answer); each right answer earns its student one guessing stone.
//!   `[mondo_pays_every_right_answer]`
//! - An answer may change until the reveal. `[mondo_answer_can_change_until_the_reveal]`
//! - An answer after the deadline is ignored: refused (`Expired`) even before the
//!   time-out comes in. `[mondo_answer_after_the_deadline_is_ignored]`
//! - Answers are private until the reveal. `[mondo_answers_stay_private_until_the_reveal]`
//! - Step 3, guesses: any number, one at a time, each paid with a stone when stated; read
//!   back with the table structures that already contradict it; confirmed (official)
//!   or taken back (stone returned). `[guess_is_read_back_and_can_be_taken_back]`
//! - An official guess is disproved by a counterexample (it joins the table marked,
//!   or the umpire names a table structure that already separates them; the stone is
//!   spent) and the turn goes on; the first guess that cannot be disproved wins and
//!   the rule is revealed. As in the duel, an official guess adds 30 s to the turn
//!   clock (taken back if it comes to nothing).
//!   `[a_right_guess_wins_and_a_wrong_one_gets_a_counterexample]`
//! - A void verdict (the umpire could not decide) or a host's disallowing returns the
//!   stone. `[void_and_disallowed_guesses_return_the_stone]`
//! - With no stone left after the structure or a counterexample, the turn passes by
//!   itself; otherwise the student ends it (`end turn`).
//!   `[turn_passes_when_no_stone_is_left]`
//!
//! **Time** (the seed has none; Discord needs it)
//! - The turn clock runs while the student builds and guesses (clarifying a guess
//!   included) and stops during a mondo and while the umpire judges a guess.
//!   `[turn_clock_stops_for_mondo_and_verdict]`
//! - A turn that times out passes: nothing built means no structure; a pending guess
//!   is withdrawn (stone returned); later requests are refused (`Expired`).
//!   `[timeout_passes_the_turn]`
//! - A student whose turn times out twice in a row (no act of theirs in between) is
//!   skipped until they act again. To *act* is any move of theirs the umpire accepts:
//!   building, answering a mondo, guessing, confirming, taking back, ending a turn, or
//!   `back` (which only says "I am here"). Only answering and `back` are open to a
//!   skipped student. `[a_student_skipped_for_timeouts_comes_back_when_they_act]`
//! - When every student still in the game is skipped, nobody is playing: the game
//!   ends with no winner. `[a_game_nobody_plays_ends_with_no_winner]`
//!
//! **Leaving and the host**
//! - A student may leave (`leave`, the shared resign) at any time: their turn passes
//!   (a pending or official guess is withdrawn), a mondo goes on without them, their
//!   stones go with them. With one student left the game ends with no winner.
//!   `[leaving_down_to_one_student_ends_with_no_winner]`
//! - A host who does not play may pause and resume (the clocks stop and go on),
//!   disallow a guess, and end the game (no winner, the rule revealed); downtime is
//!   not counted. `[host_pause_end_and_downtime]`
//!
//! **The lobby** (a match opened with a lobby gathers its students first)
//! - Anyone joins (`join`) until 8 students are in; the Master does not play; a
//!   student may leave (`leave`, or the shared resign) until it starts; the opener or
//!   a host may seat someone (`add student`: an AI student, on Discord). Join order is
//!   the turn order. `[a_lobby_gathers_students_in_join_order]`
//! - The opener (student or Master) or any host starts it (`start`) with 2 to 8
//!   students: the first turn begins, and the lobby's buttons are stale from then.
//!   `[only_the_opener_or_a_host_starts_a_lobby]`
//! - Nobody starting it by its closing time (set when it opened; like every clock of
//!   a match, time the umpire was down is not counted), it closes by itself; a host's
//!   end closes it too. A closed lobby reveals nothing: no game was played.
//!   `[a_lobby_nobody_starts_closes_at_its_time_and_keeps_the_rule]`
//!
//! **Secrets**: no view and no event a student hears holds the rule before the end.
//! `[views_never_hold_the_rule]`

use super::turn::{self, GuessMove, TurnMove, Words};
use super::{
    Answer, Core, Initial, Outcome, Settings, Step, TurnEnd, VerdictJob, Withdrawal, ZendoEvent,
    ZendoMove,
};
use crate::finder::Verdict;
use crate::koan::Koan;
use crate::lang::Pattern;
use crate::rules::{
    self, BySeat, Clock, Emitter, FoldError, Game, Millis, PlayerId, RuleError, Seat, Seating,
    Secret, SetupError, Viewer, Who,
};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

mod lobby;
pub mod opening;
pub mod section;
mod state;
mod view;

pub use section::ClassicConfig as Section;
pub use state::{Classic, ClassicTiming, LobbySetup, Phase};
pub use view::{ClassicView, PhaseView};

crate::rules::game_types! {
    Classic: ZendoClassic, clocked: true, deadline: Deadline, work: VerdictJob, log: Event,
    setup: ClassicSetup, moves: ClassicMove, events: ClassicEvent::ClassicCreated,
}

/// The fewest and the most students.
pub const MIN_STUDENTS: usize = 2;
pub const MAX_STUDENTS: usize = 8;

/// What Classic calls things in its refusals.
const WORDS: Words = Words {
    answering: "wait until the mondo is revealed",
    nothing_to_answer: "there is no mondo to answer",
    built: "you built this turn's structure already; guess or end your turn",
    build_first: "a turn starts with a structure: build one (master or mondo) first",
    too_late: "the time to answer this mondo is over; the answer does not count",
    no_time: "the turn and the mondo answers need some time (more than 0 ms)",
};

/// Turn time-outs in a row (with no act in between) after which a student is skipped.
pub const AWAY_AFTER: u32 = 2;

impl Default for ClassicTiming {
    fn default() -> ClassicTiming {
        ClassicTiming {
            turn_ms: 180_000,
            answer_ms: 30_000,
            guess_bonus_ms: 30_000,
        }
    }
}

/// What the student says after building: the seed's two words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Call {
    /// The Master marks it at once.
    #[default]
    Master,
    /// Every student answers privately first.
    Mondo,
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Call::Master => "master",
            Call::Mondo => "mondo",
        })
    }
}

impl FromStr for Call {
    type Err = String;
    fn from_str(s: &str) -> Result<Call, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "master" | "m" | "" => Ok(Call::Master),
            "mondo" => Ok(Call::Mondo),
            other => Err(format!(
                "`{other}` is not a call: after the structure say `master` (marked at once) \
                 or `mondo` (every student answers)"
            )),
        }
    }
}

/// Everything a Classic game starts from. It travels in the first event (never
/// announced: it holds the rule).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ClassicSetup {
    /// In join order, which is the turn order.
    pub students: Vec<PlayerId>,
    /// The host who chose the rule, if one did (otherwise the umpire picked it).
    #[serde(default)]
    pub master: Option<PlayerId>,
    pub hidden: Pattern,
    pub initial: Initial,
    #[serde(default)]
    pub settings: Settings,
    #[serde(default)]
    pub timing: ClassicTiming,
    pub seed: u64,
    /// Gathering the students first: `students` are those in so far (any number up to
    /// the most). Absent for a game set up with its students (older matches too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lobby: Option<LobbySetup>,
}

/// A move in a Classic game. Parsing happens in the fronts.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ClassicMove {
    /// Step 1 and 2: a structure, and `master` or `mondo`.
    Build {
        koan: Koan,
        #[serde(default)]
        call: Call,
    },
    /// A private mondo answer (any student still in the game, until the reveal).
    Answer { answer: Answer },
    /// Step 3: pay a stone and state a guess; it is read back first.
    Guess { pattern: Pattern },
    /// A student skipped for time-outs is back.
    Back,
    /// Umpire: the finder's answer to official guess `guess`.
    Verdict { guess: u32, verdict: Verdict },
    /// The lobby: take the next seat (anyone not in).
    Join,
    /// The lobby: give up one's seat before the start (the shared resign does too).
    Leave,
    /// The lobby: the opener or a host begins the game.
    Start,
    /// The lobby, the opener or a host: seat `player` (an AI student, on Discord).
    AddStudent { player: PlayerId },
    /// Confirming or taking back a guess, ending the turn, a host's disallowing: as in
    /// every Zendo mode. Nobody chooses who starts ([`NO_STARTER`]).
    #[serde(untagged)]
    Zendo(ZendoMove),
}

/// What a student who asks to choose who starts is told.
pub const NO_STARTER: &str =
    "nobody chooses who starts in Zendo Classic: students play in the order they joined";

impl ClassicMove {
    /// Whether it is a lobby's move.
    pub fn is_lobby(&self) -> bool {
        matches!(
            self,
            ClassicMove::Join
                | ClassicMove::Leave
                | ClassicMove::Start
                | ClassicMove::AddStudent { .. }
        )
    }
}

super::moves::shared_moves_in!(ClassicMove, Action, anyone:
    ClassicMove::Join => "play",
    ClassicMove::Start => "start the game",
    ClassicMove::AddStudent { .. } => "seat a student"
);

/// What happens in a Classic game besides what every Zendo game has.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum ClassicEvent {
    /// The first event (it holds the rule: never announced).
    ClassicCreated {
        setup: Box<ClassicSetup>,
    },
    TurnStarted {
        turn: u32,
        seat: Seat,
    },
    /// Mondo: every student now answers privately; the turn clock stops.
    MondoOpened {
        by: Seat,
        koan: Koan,
    },
    /// Heard whole only by the one who answered; the others hear that it is in.
    MondoAnswered {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        answer: Option<Answer>,
    },
    /// The mark and every answer together; the structure joins the table.
    MondoRevealed {
        answers: BySeat<Answer>,
        obeys: bool,
        time_up: bool,
    },
    TurnEnded {
        seat: Seat,
        why: TurnEnd,
    },
    /// Two turn time-outs in a row: skipped until they act.
    Away {
        seat: Seat,
    },
    /// A skipped student acted: in the turn order again.
    Back {
        seat: Seat,
    },
    /// A student left the game.
    Left {
        seat: Seat,
    },
    /// The lobby: `player` took the next seat.
    Joined {
        player: PlayerId,
    },
    /// The lobby: `player` gave up their seat; those after move up.
    Unjoined {
        player: PlayerId,
    },
    /// The lobby: the game begins, its first student to build.
    Started,
    /// The lobby closed unstarted: its time was up (`by` none), or a host ended it.
    LobbyClosed {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<PlayerId>,
    },
    #[serde(untagged)]
    Zendo(ZendoEvent),
}

super::shared_events_in!(ClassicEvent, ClassicMove);

/// Which clock a deadline belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Which {
    Turn,
    Mondo,
    /// A lobby's closing time.
    Lobby,
}

/// A moment at which something happens unless the students act first.
pub type Deadline = super::TurnDeadline<Which>;

super::turn::turns!(Classic, Phase, Step, stones);
super::turn::challenge_events!(ClassicEvent: MondoOpened, MondoAnswered, MondoRevealed);

impl Classic {
    /// The lobby it began as, if it did.
    pub fn lobby(&self) -> Option<&LobbySetup> {
        self.lobby.as_ref()
    }

    /// Whether it is gathering students.
    pub fn in_lobby(&self) -> bool {
        matches!(self.phase, Phase::Lobby { .. })
    }

    /// A lobby that closed unstarted.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    pub fn stones(&self, seat: Seat) -> u32 {
        self.stones[seat]
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn timing(&self) -> ClassicTiming {
        self.timing
    }

    pub fn master(&self) -> Option<PlayerId> {
        self.master
    }

    pub fn is_away(&self, seat: Seat) -> bool {
        self.away[seat]
    }

    pub fn has_left(&self, seat: Seat) -> bool {
        self.left[seat]
    }

    /// The solver; nobody otherwise (a host's end, the students gone).
    pub fn winner(&self) -> Option<Seat> {
        match self.core.outcome? {
            Outcome::Solved { by, .. } => Some(by),
            _ => None,
        }
    }

    /// Students still in the game.
    fn present(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::all(self.seating.players.len()).filter(|s| !self.left[*s])
    }

    /// The next student after `from` who is neither gone nor skipped (`from` itself
    /// last); none when nobody is playing.
    fn next_seat(&self, from: Seat) -> Option<Seat> {
        let n = self.seating.players.len();
        (1..=n)
            .map(|k| Seat(((from.index() + k) % n) as u8))
            .find(|s| !self.left[*s] && !self.away[*s])
    }

    fn check_time(&self, now: Millis) -> Result<(), RuleError> {
        if self.clock.has_expired(now) {
            Err(RuleError::Expired("this turn's time has run out"))
        } else {
            Ok(())
        }
    }

    /// Whether every student the mondo waits for has answered: those still in the game
    /// and not skipped.
    fn all_answered(&self) -> bool {
        match &self.phase {
            Phase::Turn {
                step: Step::Challenge { answers, .. },
                ..
            } => self
                .present()
                .filter(|s| !self.away[*s])
                .all(|s| answers[s].is_some()),
            _ => false,
        }
    }

    /// The student whose act an event is (it clears their time-outs).
    fn actor_of(event: &ClassicEvent) -> Option<Seat> {
        match event {
            ClassicEvent::MondoOpened { by, .. }
            | ClassicEvent::Zendo(ZendoEvent::Observed { by, .. })
            | ClassicEvent::Zendo(ZendoEvent::GuessRead { by, .. }) => Some(*by),
            ClassicEvent::MondoAnswered { seat, .. } | ClassicEvent::Back { seat } => Some(*seat),
            _ => None,
        }
    }
}

/// Ends the turn of `seat` and starts the next student's; a second time-out in a row
/// skips the student first; nobody left to play ends the game.
fn pass_turn(out: &mut Emitter<Classic>, seat: Seat, why: TurnEnd) {
    out.emit(ClassicEvent::TurnEnded { seat, why });
    let g = out.next();
    if why == TurnEnd::TimeUp && g.timeouts[seat] >= AWAY_AFTER && !g.away[seat] {
        out.emit(ClassicEvent::Away { seat });
    }
    let g = out.next();
    match g.next_seat(seat) {
        Some(next) => {
            let turn = g.turn + 1;
            out.emit(ClassicEvent::TurnStarted { turn, seat: next });
        }
        None => {
            let ended = g.core.ended(Outcome::Deserted { idle: true });
            out.emit(ended);
        }
    }
}

/// Step 3 with no stone (or without its student) has nothing in it: the turn passes.
fn pass_if_done(out: &mut Emitter<Classic>) {
    if let Phase::Turn {
        seat,
        step: Step::Guess,
    } = out.next().phase
    {
        if out.next().left[seat] {
            pass_turn(out, seat, TurnEnd::Ended);
        } else if out.next().stones(seat) == 0 {
            pass_turn(out, seat, TurnEnd::NoTickets);
        }
    }
}

/// The mark and the answers together; silence is no answer.
fn reveal(out: &mut Emitter<Classic>, time_up: bool) {
    let next = out.next();
    let Some((answers, obeys)) = next.turn_step().and_then(|s| s.reveal(&next.core)) else {
        return;
    };
    out.emit(ClassicEvent::MondoRevealed {
        answers,
        obeys,
        time_up,
    });
    pass_if_done(out);
}

impl Game for Classic {
    type Move = ClassicMove;
    type View = ClassicView;

    fn from_setup(setup: &ClassicSetup, now: Millis) -> Result<Classic, SetupError> {
        let n = setup.students.len();
        let least = if setup.lobby.is_some() {
            0
        } else {
            MIN_STUDENTS
        };
        if !(least..=MAX_STUDENTS).contains(&n) {
            return Err(SetupError::Invalid(format!(
                "Zendo Classic needs {MIN_STUDENTS} to {MAX_STUDENTS} students, not {n}"
            )));
        }
        for (i, s) in setup.students.iter().enumerate() {
            if setup.students[..i].contains(s) {
                return Err(SetupError::Invalid(format!(
                    "{s} is a student twice: every student plays once"
                )));
            }
        }
        if let Some(m) = setup.master
            && setup.students.contains(&m)
        {
            return Err(SetupError::Invalid(format!(
                "{m} cannot be both the Master and a student: the Master knows the rule"
            )));
        }
        let t = setup.timing;
        WORDS.check_times(t.turn_ms, t.answer_ms)?;
        let core = Core::new(&setup.hidden, &setup.initial, setup.settings, setup.seed)?;
        let mut game = Classic {
            seating: Seating::new(now, setup.students.clone(), setup.seed),
            core,
            master: setup.master,
            timing: t,
            phase: match setup.lobby {
                Some(l) => Phase::Lobby {
                    closes_at: l.closes_at,
                },
                None => Phase::Turn {
                    seat: Seat::FIRST,
                    step: Step::Build,
                },
            },
            turn: if setup.lobby.is_some() { 0 } else { 1 },
            stones: BySeat::new(n, 0),
            clock: Clock::stopped(t.turn_ms),
            timeouts: BySeat::new(n, 0),
            away: BySeat::new(n, false),
            left: BySeat::new(n, false),
            lobby: setup.lobby,
            closed: false,
        };
        game.sync_clocks(now);
        Ok(game)
    }

    rules::seating!();

    fn is_over(&self) -> bool {
        self.core.outcome.is_some() || self.closed
    }

    fn finish(&self) -> Option<rules::Finish> {
        if !Game::is_over(self) {
            return None;
        }
        // A solved game: the winner first, the students who stayed tied behind, those
        // who left after the start last. Students who left until one remained: that
        // one first, the others last.
        let first = match self.core.outcome {
            Some(Outcome::Solved { by, .. }) => by,
            Some(Outcome::Deserted { idle: false }) => match self.present().collect::<Vec<_>>()[..]
            {
                [one] => one,
                _ => return Some(rules::Finish::Unrated(rules::Why::NoResult)),
            },
            Some(Outcome::Deserted { idle: true }) => {
                return Some(rules::Finish::Unrated(rules::Why::Abandoned));
            }
            Some(Outcome::Ended { .. }) => {
                return Some(rules::Finish::Unrated(rules::Why::HostEnded));
            }
            _ => return Some(rules::Finish::Unrated(rules::Why::NoResult)),
        };
        let stayed = self.present().any(|s| s != first);
        let places = self
            .seating
            .players
            .values()
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let seat = Seat(i as u8);
                let place = if seat == first {
                    0
                } else if !self.left[seat] {
                    1
                } else {
                    1 + u32::from(stayed)
                };
                (*p, place)
            })
            .collect();
        Some(rules::Finish::Placed {
            method: rules::finish::Method::WengLin,
            places,
        })
    }

    fn listed_settings(&self) -> serde_json::Value {
        serde_json::json!({"settings": self.core.settings, "timing": self.timing,
                           "master": self.master})
    }

    /// Check 3: gone students do nothing; answers and `back` come from anyone; the
    /// rest from the turn's student.
    fn check_turn(&self, seat: Seat, m: &ClassicMove) -> Result<(), RuleError> {
        if self.in_lobby() || m.is_lobby() {
            return Ok(());
        }
        if self.left[seat] {
            return Err(RuleError::WrongPhase("you left this game"));
        }
        match (m, self.turn_seat()) {
            // Choosing who starts: the phase check says there is no such thing here.
            (ClassicMove::Zendo(ZendoMove::ChooseStarter { .. }), _) => Ok(()),
            (ClassicMove::Answer { .. } | ClassicMove::Back, _) => Ok(()),
            (_, Some(s)) if s != seat => Err(RuleError::NotYourTurn {
                waiting_for: self.player(s),
            }),
            _ => Ok(()),
        }
    }

    fn check_phase(&self, m: &ClassicMove, _now: Millis) -> Result<(), RuleError> {
        match (self.in_lobby(), m.is_lobby()) {
            (true, true) => return Ok(()),
            (true, false) => {
                return Err(RuleError::WrongPhase(
                    "the game has not started: the lobby gathers its students (join, \
                     leave, start)",
                ));
            }
            (false, true) => {
                return Err(RuleError::WrongPhase(
                    "this lobby is closed: the game has started",
                ));
            }
            (false, false) => {}
        }
        let Some(step) = self.turn_step() else {
            return Err(RuleError::MatchOver);
        };
        let m = match m {
            ClassicMove::Build { .. } => TurnMove::Build,
            ClassicMove::Answer { .. } => TurnMove::Answer,
            ClassicMove::Guess { .. } => TurnMove::Guess,
            // Whether the student is skipped is the rule's to say.
            ClassicMove::Back => return Ok(()),
            ClassicMove::Verdict { guess, .. } => TurnMove::Verdict(*guess),
            ClassicMove::Zendo(z) => z.turn_move().ok_or(RuleError::Unsupported(NO_STARTER))?,
            // Taken above.
            ClassicMove::Join
            | ClassicMove::Leave
            | ClassicMove::Start
            | ClassicMove::AddStudent { .. } => return Ok(()),
        };
        step.check(m, &WORDS)
    }

    fn rule(&self, out: &mut Emitter<Self>, who: Who, m: &ClassicMove) -> Result<(), RuleError> {
        let now = out.at();
        let seat = match who {
            Who::Player(seat) => seat,
            _ => self.turn_seat().unwrap_or(Seat::FIRST),
        };
        if m.is_lobby() {
            return self.lobby_rule(out, who, m);
        }
        let pending = self.turn_step().and_then(Step::in_play).unwrap_or(0);
        match m {
            ClassicMove::Back => {
                if !self.away[seat] {
                    return Err(RuleError::WrongPhase(
                        "you are not being skipped: you are in the turn order",
                    ));
                }
                out.emit(ClassicEvent::Back { seat });
            }
            ClassicMove::Build { koan, call } => {
                self.check_time(now)?;
                let mondo = |koan| ClassicEvent::MondoOpened { by: seat, koan };
                let master = *call == Call::Master;
                turn::build(out, &self.core, (seat, koan), master, mondo, pass_if_done)?;
            }
            ClassicMove::Answer { answer } => {
                if let Some(step) = self.turn_step() {
                    step.check_answer_time(now, &WORDS)?;
                }
                if self.away[seat] {
                    out.emit(ClassicEvent::Back { seat });
                }
                out.emit(ClassicEvent::MondoAnswered {
                    seat,
                    answer: Some(*answer),
                });
                if out.next().all_answered() {
                    reveal(out, false);
                }
            }
            ClassicMove::Zendo(ZendoMove::EndTurn) => {
                self.check_time(now)?;
                pass_turn(out, seat, TurnEnd::Ended);
            }
            ClassicMove::Guess { .. } | ClassicMove::Verdict { .. } | ClassicMove::Zendo(_) => {
                let g = match m {
                    ClassicMove::Guess { pattern } => GuessMove::Guess(pattern),
                    ClassicMove::Verdict { guess, verdict } => GuessMove::Verdict(*guess, verdict),
                    ClassicMove::Zendo(z) => {
                        z.guess_move().ok_or(RuleError::Unsupported(NO_STARTER))?
                    }
                    _ => return Ok(()),
                };
                if g.is_players() {
                    self.check_time(now)?;
                }
                let turn = (seat, self.stones(seat), pending);
                let events = turn::guess_events(&self.core, g, who, turn).map_err(|e| match e {
                    RuleError::NoTicket => {
                        RuleError::NoStone("answer a mondo correctly to earn one")
                    }
                    e => e,
                })?;
                for e in events {
                    out.emit(e);
                }
                if g.may_end_step() {
                    pass_if_done(out);
                }
            }
            // Taken by `lobby_rule` above.
            ClassicMove::Join
            | ClassicMove::Leave
            | ClassicMove::Start
            | ClassicMove::AddStudent { .. } => {}
        }
        Ok(())
    }

    /// Leaving: the game goes on without the student, until one is left.
    fn resign(&self, out: &mut Emitter<Classic>, seat: Seat) -> Result<(), RuleError> {
        if self.in_lobby() {
            out.emit(ClassicEvent::Unjoined {
                player: self.seating.players[seat],
            });
            return Ok(());
        }
        if self.left[seat] {
            return Err(RuleError::WrongPhase("you left this game already"));
        }
        out.emit(ClassicEvent::Left { seat });
        if out.next().present().count() < MIN_STUDENTS {
            out.emit(self.core.ended(Outcome::Deserted { idle: false }));
            return Ok(());
        }
        let Phase::Turn { seat: turn, step } = &self.phase else {
            return Ok(());
        };
        match step {
            Step::Challenge { .. } => {
                if out.next().all_answered() {
                    reveal(out, false);
                }
            }
            _ if *turn != seat => {}
            Step::Pending { guess } | Step::Verdict { guess } => {
                out.emit(ZendoEvent::GuessWithdrawn {
                    number: *guess,
                    why: Withdrawal::TakenBack,
                });
                pass_if_done(out);
            }
            Step::Build | Step::Guess => pass_turn(out, seat, TurnEnd::Ended),
        }
        Ok(())
    }

    /// A lobby closes without a word of its rule (no game was played); a game ends
    /// with the rule revealed.
    fn end(&self, out: &mut Emitter<Classic>, by: PlayerId) {
        if self.in_lobby() {
            out.emit(ClassicEvent::LobbyClosed { by: Some(by) });
        } else {
            out.emit(self.core.ended(Outcome::Ended { by }));
        }
    }

    fn time_out(&self, out: &mut Emitter<Classic>, _deadline: Deadline) {
        if self.in_lobby() {
            out.emit(ClassicEvent::LobbyClosed { by: None });
            return;
        }
        let Phase::Turn { seat, step } = &self.phase else {
            return;
        };
        let seat = *seat;
        turn::time_out(out, (step, seat), pass_turn, reveal);
    }

    fn next_deadline(&self) -> Option<Deadline> {
        if self.seating.ledger.paused {
            return None;
        }
        let step = match &self.phase {
            Phase::Turn { step, .. } => step,
            Phase::Lobby { closes_at } => {
                return Some(Deadline {
                    at: *closes_at,
                    turn: 0,
                    which: Which::Lobby,
                });
            }
            Phase::Over => return None,
        };
        let (which, clock) = match step {
            Step::Challenge { clock, .. } => (Which::Mondo, clock),
            Step::Verdict { .. } => return None,
            _ => (Which::Turn, &self.clock),
        };
        Some(Deadline {
            at: clock.expires_at()?,
            turn: self.turn,
            which,
        })
    }

    fn fold_game(&mut self, event: &ClassicEvent, _at: Millis) -> Result<(), FoldError> {
        let seat_ok = |g: &Classic, s: Seat| s.index() < g.seating.players.len();
        if let Some(s) = Classic::actor_of(event)
            && seat_ok(self, s)
        {
            self.timeouts[s] = 0;
        }
        match event {
            ClassicEvent::ClassicCreated { .. } => {
                return Err(self.seating.ledger.misfit("a match is created only once"));
            }
            ClassicEvent::Joined { .. }
            | ClassicEvent::Unjoined { .. }
            | ClassicEvent::Started
            | ClassicEvent::LobbyClosed { .. } => self.fold_lobby(event)?,
            ClassicEvent::TurnStarted { turn, seat } => {
                if !seat_ok(self, *seat) || self.left[*seat] {
                    return Err(self
                        .seating
                        .ledger
                        .misfit("that student cannot take a turn"));
                }
                self.turn = *turn;
                self.clock = Clock::stopped(self.timing.turn_ms);
                self.set_step(*seat, Step::Build);
            }
            // A mondo is the turn's challenge: a student who left earns no stone.
            ClassicEvent::MondoOpened { .. }
            | ClassicEvent::MondoAnswered { .. }
            | ClassicEvent::MondoRevealed { .. } => {
                let (left, answer_ms) = (self.left.clone(), self.timing.answer_ms);
                let mondo = event.challenge();
                self.turn_parts()
                    .fold_challenge(mondo, answer_ms, |s| !left[s])?;
            }
            ClassicEvent::TurnEnded { seat, why } => {
                if self.step()?.0 != *seat {
                    return Err(self.seating.ledger.misfit("it is not that student's turn"));
                }
                if *why == TurnEnd::TimeUp {
                    self.timeouts[*seat] += 1;
                }
            }
            ClassicEvent::Away { seat } | ClassicEvent::Back { seat } => {
                if !seat_ok(self, *seat) {
                    return Err(self.seating.ledger.misfit("there is no such student"));
                }
                self.away[*seat] = matches!(event, ClassicEvent::Away { .. });
            }
            ClassicEvent::Left { seat } => {
                if !seat_ok(self, *seat) || self.left[*seat] {
                    return Err(self
                        .seating
                        .ledger
                        .misfit("that student is not in the game"));
                }
                self.left[*seat] = true;
                self.stones[*seat] = 0;
            }
            ClassicEvent::Zendo(e) => {
                let bonus = self.timing.guess_bonus_ms;
                self.turn_parts().fold_zendo(e, bonus)?;
                // A student who left keeps no stone (a guess withdrawn as they leave).
                if let Some(seat) = self.turn_seat()
                    && self.left[seat]
                {
                    self.stones[seat] = 0;
                }
            }
        }
        Ok(())
    }

    fn skip_downtime(&mut self, from: Millis, to: Millis) {
        if let Phase::Lobby { closes_at } = &mut self.phase {
            *closes_at = closes_at.saturating_add(to.saturating_sub(from));
        }
        let step = match &mut self.phase {
            Phase::Turn { step, .. } => Some(step),
            Phase::Lobby { .. } | Phase::Over => None,
        };
        turn::skip_downtime(&mut self.clock, step, from, to);
    }

    /// The turn clock runs while the student builds and guesses; the answer clock
    /// while its mondo is open; nothing while paused or over.
    fn sync_clocks(&mut self, at: Millis) {
        let paused = self.seating.ledger.paused;
        let step = match &mut self.phase {
            Phase::Turn { step, .. } => Some(step),
            Phase::Lobby { .. } | Phase::Over => None,
        };
        turn::sync_clocks(&mut self.clock, step, paused, at);
    }

    fn view(&self, viewer: &Viewer) -> ClassicView {
        view::classic(self, viewer)
    }

    /// The created event holds the rule: nobody hears it. A mondo answer is heard whole
    /// only by the one who gave it.
    fn secrets(&self, viewer: &Viewer) -> Vec<Secret> {
        let seats = self.seating.players.values().len();
        // A lobby closed unstarted keeps its rule: only a game's end reveals it.
        let revealed = self.core.outcome.is_some();
        self.core.secrets(revealed, seats, self.viewer_seat(viewer))
    }

    fn redact(&self, event: &ClassicEvent, viewer: &Viewer) -> Option<ClassicEvent> {
        match event {
            ClassicEvent::ClassicCreated { .. } => None,
            ClassicEvent::MondoAnswered { seat, .. } if self.viewer_seat(viewer) != Some(*seat) => {
                Some(ClassicEvent::MondoAnswered {
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
