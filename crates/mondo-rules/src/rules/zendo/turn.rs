//! A turn of the one-pattern games played in turns (the Duel, Classic): its steps
//! ([`Step`]: build, a challenge or mondo answered privately, guesses read back and
//! judged), which moves fit which step, its clocks, what a deadline does to it, and how
//! the shared guess events and a challenge's events fold into it ([`Parts`]). Each game
//! keeps its own phases around it (who starts, who is skipped) and its own names for a
//! challenge's events ([`challenge_events!`]). The accessors of a game's turn are
//! written once for every game played in turns, the Triple's too ([`turns!`]).

use super::{Answer, Core, ZendoEvent};
use crate::koan::Koan;
use crate::rules::{
    BySeat, Clock, Emitter, EventKind, FoldError, Game, Ledger, Millis, RuleError, Seat, SetupError,
};
use serde::{Deserialize, Serialize};

/// Step 1's structure (built in time): refused if it was given before, moved or not;
/// observed, the umpire's verdict at once, then `after` (the turn may pass); called to
/// a challenge or a mondo, the event `open` makes of it.
pub(crate) fn build<G: Game>(
    out: &mut Emitter<G>,
    core: &Core,
    (by, koan): (Seat, &Koan),
    observe: bool,
    open: impl FnOnce(Koan) -> G::Event,
    after: fn(&mut Emitter<G>),
) -> Result<(), RuleError>
where
    ZendoEvent: Into<EventKind<G::Event>>,
{
    core.check_new(koan)?;
    let koan = koan.clone();
    if observe {
        let obeys = core.obeys(&koan);
        out.emit(ZendoEvent::Observed { by, koan, obeys });
        after(out);
    } else {
        out.emit(open(koan));
    }
    Ok(())
}

/// A game played in turns whose phase enum `$phase` has `Turn { seat, step: $step }`
/// among its phases and keeps its [`Ledger`] in `seating`: the accessors every such
/// game has, written once (`turns!(Duel, Phase, Step)` in the game's own file).
macro_rules! turns {
    ($game:ident, $phase:ident, $step:ty, $stones:ident) => {
        $crate::rules::zendo::turn::turns!($game, $phase, $step);

        impl $crate::rules::zendo::turn::TurnPhase for $phase {
            fn under_way(&mut self) -> Option<($crate::rules::Seat, &mut $step)> {
                match self {
                    $phase::Turn { seat, step } => Some((*seat, step)),
                    _ => None,
                }
            }

            fn over() -> $phase {
                $phase::Over
            }
        }

        impl $crate::rules::zendo::Zendo for $game {
            fn core(&self) -> &$crate::rules::zendo::Core {
                &self.core
            }

            fn awaited_guess(&self) -> Option<u32> {
                self.turn_step()?.awaited()
            }
        }

        impl $game {
            /// What the shared folds of a turn change.
            fn turn_parts(&mut self) -> $crate::rules::zendo::turn::Parts<'_, $phase> {
                $crate::rules::zendo::turn::Parts {
                    phase: &mut self.phase,
                    core: &mut self.core,
                    ledger: &mut self.seating.ledger,
                    stones: &mut self.$stones,
                    clock: &mut self.clock,
                }
            }
        }
    };
    ($game:ident, $phase:ident, $step:ty) => {
        impl $game {
            pub fn phase(&self) -> &$phase {
                &self.phase
            }

            /// The current turn, counting from 1 (0 before the first).
            pub fn turn(&self) -> u32 {
                self.turn
            }

            /// Whose turn it is, while a turn is under way.
            pub fn turn_seat(&self) -> Option<$crate::rules::Seat> {
                self.under_way().map(|(seat, _)| seat)
            }

            /// The turn's step, while a turn is under way.
            pub fn turn_step(&self) -> Option<&$step> {
                self.under_way().map(|(_, step)| step)
            }

            fn under_way(&self) -> Option<($crate::rules::Seat, &$step)> {
                match &self.phase {
                    $phase::Turn { seat, step } => Some((*seat, step)),
                    _ => None,
                }
            }

            /// The current step and its player, for folding events that need one.
            fn step(&self) -> Result<($crate::rules::Seat, &$step), $crate::rules::FoldError> {
                self.under_way()
                    .ok_or_else(|| self.seating.ledger.misfit("no turn is in progress"))
            }

            /// The turn of `seat` goes on at `step` (a new phase for the ledger).
            fn set_step(&mut self, seat: $crate::rules::Seat, step: $step) {
                self.phase = $phase::Turn { seat, step };
                self.seating.ledger.enter();
            }
        }
    };
}
pub(crate) use turns;

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

/// The kinds of turn move, as a step checks them (each game maps its moves here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TurnMove {
    /// A structure (or, in a duel, skipping one).
    Build,
    /// A private answer to the open challenge or mondo.
    Answer,
    /// A guess, or ending the turn.
    Guess,
    /// Confirming or taking back the pending guess.
    Confirm,
    /// A host's disallowing.
    Disallow,
    /// The umpire's verdict on this guess.
    Verdict(u32),
}

/// What a game calls things in its refusals.
pub(crate) struct Words {
    /// While answers are given: "wait until the challenge is revealed".
    pub answering: &'static str,
    /// Answering with none open: "there is no challenge to answer".
    pub nothing_to_answer: &'static str,
    /// Building twice: "step 1 is done this turn ...".
    pub built: &'static str,
    /// Guessing before building: "build a structure first ...".
    pub build_first: &'static str,
    /// Answering after the answer clock ran out: "the time to answer this challenge is
    /// over ...".
    pub too_late: &'static str,
    /// A setup whose turn or answers have no time: "the turn and the challenge need
    /// some time ...".
    pub no_time: &'static str,
}

impl Words {
    /// A setup's clocks: the turn and the answers each need some time.
    pub(crate) fn check_times(&self, turn_ms: Millis, answer_ms: Millis) -> Result<(), SetupError> {
        if turn_ms == 0 || answer_ms == 0 {
            return Err(SetupError::BadSettings(self.no_time));
        }
        Ok(())
    }
}

impl Step {
    /// The guess pending or awaiting its verdict.
    pub fn in_play(&self) -> Option<u32> {
        match self {
            Step::Pending { guess } | Step::Verdict { guess } => Some(*guess),
            _ => None,
        }
    }

    /// The official guess awaiting the umpire's verdict.
    pub fn awaited(&self) -> Option<u32> {
        match self {
            Step::Verdict { guess } => Some(*guess),
            _ => None,
        }
    }

    /// Whether the turn clock runs: while building and guessing (clarifying a guess
    /// included), not while answers are given nor while the umpire judges.
    pub(crate) fn turn_clock_runs(&self) -> bool {
        matches!(self, Step::Build | Step::Guess | Step::Pending { .. })
    }

    /// An answer in time: refused once the answer clock ran out (it counts as no
    /// answer), even before the time-out comes in.
    pub(crate) fn check_answer_time(&self, now: Millis, words: &Words) -> Result<(), RuleError> {
        match self {
            Step::Challenge { clock, .. } if clock.has_expired(now) => {
                Err(RuleError::Expired(words.too_late))
            }
            _ => Ok(()),
        }
    }

    /// Check 4 for a turn's moves: the move fits this step, or what to do instead.
    pub(crate) fn check(&self, m: TurnMove, words: &Words) -> Result<(), RuleError> {
        use RuleError::WrongPhase;
        let busy = |otherwise: &'static str| match self {
            Step::Challenge { .. } => WrongPhase(words.answering),
            Step::Pending { .. } => {
                WrongPhase("confirm or take back the guess you are making first")
            }
            Step::Verdict { .. } => WrongPhase("wait for the umpire's answer to the guess"),
            _ => WrongPhase(otherwise),
        };
        let fits = match (m, self) {
            (TurnMove::Build, Step::Build)
            | (TurnMove::Answer, Step::Challenge { .. })
            | (TurnMove::Guess, Step::Guess)
            | (TurnMove::Confirm, Step::Pending { .. })
            | (TurnMove::Disallow, Step::Pending { .. } | Step::Verdict { .. }) => true,
            (TurnMove::Verdict(g), Step::Verdict { guess }) => g == *guess,
            _ => false,
        };
        if fits {
            return Ok(());
        }
        Err(match m {
            TurnMove::Build => busy(words.built),
            TurnMove::Answer => WrongPhase(words.nothing_to_answer),
            TurnMove::Guess => busy(words.build_first),
            TurnMove::Confirm => WrongPhase("there is no guess waiting for your confirmation"),
            TurnMove::Disallow => WrongPhase("there is no guess to disallow"),
            TurnMove::Verdict(_) => WrongPhase("no guess is waiting for that verdict"),
        })
    }

    /// The open challenge's answers (silence as no answer) and the truth, for its
    /// reveal.
    pub(crate) fn reveal(&self, core: &Core) -> Option<(BySeat<Answer>, bool)> {
        match self {
            Step::Challenge { koan, answers, .. } => {
                Some((answers.map(|a| a.unwrap_or(Answer::Pass)), core.obeys(koan)))
            }
            _ => None,
        }
    }
}

/// Starts and stops a turn's clocks at `at`: the turn clock as [`Step::turn_clock_runs`]
/// says, the answers' clock while its challenge is open; nothing while paused or with
/// no turn under way (`step` None).
pub(crate) fn sync_clocks(clock: &mut Clock, step: Option<&mut Step>, paused: bool, at: Millis) {
    let runs = step.as_deref().is_some_and(Step::turn_clock_runs);
    clock.set_running(runs && !paused, at);
    if let Some(Step::Challenge { clock, .. }) = step {
        clock.set_running(!paused, at);
    }
}

/// The process was down from `from` to `to`: the turn's running clocks skip it.
pub(crate) fn skip_downtime(clock: &mut Clock, step: Option<&mut Step>, from: Millis, to: Millis) {
    clock.skip(from, to);
    if let Some(Step::Challenge { clock, .. }) = step {
        clock.skip(from, to);
    }
}

/// What a shared guess event does to the turn of `seat`, in `step`: the next step
/// (None: the game is over), the student's `stones` (paid when a guess is read,
/// returned when it is withdrawn or void) and the turn clock (`bonus` added when a
/// guess is made official, taken back when it then comes to nothing). Err: the event
/// does not fit the step (a corrupt log).
pub(crate) fn after_guess_event(
    event: &ZendoEvent,
    seat: crate::rules::Seat,
    step: &Step,
    stones: &mut u32,
    clock: &mut Clock,
    bonus: Millis,
) -> Result<Option<Step>, &'static str> {
    Ok(Some(match event {
        ZendoEvent::Observed { by, .. } => {
            if *by != seat || *step != Step::Build {
                return Err("step 1 is not in progress");
            }
            Step::Guess
        }
        ZendoEvent::GuessRead { number, by, .. } => {
            if *by != seat || *step != Step::Guess || *stones == 0 {
                return Err("no ticket to pay for the guess");
            }
            *stones -= 1;
            Step::Pending { guess: *number }
        }
        ZendoEvent::GuessConfirmed { number } => {
            if *step != (Step::Pending { guess: *number }) {
                return Err("that guess is not pending");
            }
            clock.add(bonus);
            Step::Verdict { guess: *number }
        }
        ZendoEvent::GuessWithdrawn { number, .. } | ZendoEvent::GuessUndecided { number, .. } => {
            match step {
                Step::Pending { guess } if guess == number => {}
                // Disallowed or void after it was official: as if never made, so its
                // bonus goes too.
                Step::Verdict { guess } if guess == number => clock.take(bonus),
                _ => return Err("that guess is not in play"),
            }
            *stones += 1;
            Step::Guess
        }
        ZendoEvent::Refuted { number, .. } => {
            if *step != (Step::Verdict { guess: *number }) {
                return Err("that guess is not awaiting a verdict");
            }
            Step::Guess
        }
        ZendoEvent::MatchEnded { .. } => return Ok(None),
    }))
}

/// A challenge's events (the Duel's challenge, Classic's mondo), as the turn folds
/// them; each game names its own events and credits the right answers its own way.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ChallengeEvent<'a> {
    /// `by` built `koan` and challenged: every seat's answer is awaited.
    Opened {
        by: crate::rules::Seat,
        koan: &'a Koan,
    },
    Answered {
        seat: crate::rules::Seat,
        answer: Option<Answer>,
    },
    /// The answers and the truth: the structure goes on the table.
    Revealed {
        answers: &'a BySeat<Answer>,
        obeys: bool,
    },
}

/// Maps a game's own names for a challenge's three events to [`ChallengeEvent`]:
/// `challenge_events!(DuelEvent: ChallengeOpened, ChallengeAnswered, ChallengeRevealed)`
/// gives `DuelEvent::challenge`.
macro_rules! challenge_events {
    ($event:ident: $opened:ident, $answered:ident, $revealed:ident) => {
        impl $event {
            /// The challenge's event it is, if it is one.
            fn challenge(&self) -> Option<$crate::rules::zendo::turn::ChallengeEvent<'_>> {
                use $crate::rules::zendo::turn::ChallengeEvent;
                Some(match self {
                    $event::$opened { by, koan } => ChallengeEvent::Opened { by: *by, koan },
                    $event::$answered { seat, answer } => ChallengeEvent::Answered {
                        seat: *seat,
                        answer: *answer,
                    },
                    $event::$revealed { answers, obeys, .. } => ChallengeEvent::Revealed {
                        answers,
                        obeys: *obeys,
                    },
                    _ => return None,
                })
            }
        }
    };
}
pub(crate) use challenge_events;

/// The phases of a game played in turns of [`Step`]s, as the shared folds change
/// them (written by [`turns!`]).
pub(crate) trait TurnPhase {
    /// The turn under way: whose, and its step.
    fn under_way(&mut self) -> Option<(crate::rules::Seat, &mut Step)>;
    /// The phase of a game that is over.
    fn over() -> Self;
}

/// What the shared folds of a turn change in a game played in turns (the Duel,
/// Classic): its phase, its umpire, its ledger, each seat's stones (a duel's tickets)
/// and the turn clock. `turn_parts()` gives them (written by [`turns!`]).
pub(crate) struct Parts<'a, P> {
    pub phase: &'a mut P,
    pub core: &'a mut Core,
    pub ledger: &'a mut Ledger,
    pub stones: &'a mut BySeat<u32>,
    pub clock: &'a mut Clock,
}

impl<P: TurnPhase> Parts<'_, P> {
    /// A challenge's event (`None`: the event is not one) folded into the turn under
    /// way: the step moves on (a new phase for the ledger) or takes the answer; at the
    /// reveal, each right answer of a seat `paid` says earns a stone. `answer_ms` is
    /// the answers' clock. Err: the event does not fit (a corrupt log).
    pub(crate) fn fold_challenge(
        self,
        event: Option<ChallengeEvent<'_>>,
        answer_ms: Millis,
        paid: impl Fn(crate::rules::Seat) -> bool,
    ) -> Result<(), FoldError> {
        let seats = self.stones.len();
        let ledger = self.ledger;
        let (Some(event), Some((seat, step))) = (event, self.phase.under_way()) else {
            return Err(ledger.misfit("no turn is in progress"));
        };
        match after_challenge_event(self.core, seat, step, event, (seats, answer_ms)) {
            Ok(Some(next)) => {
                *step = next;
                ledger.enter();
            }
            Ok(None) => {}
            Err(why) => return Err(ledger.misfit(why)),
        }
        if let ChallengeEvent::Revealed { answers, obeys } = event {
            for (s, a) in answers.iter() {
                if a.is_correct(obeys) && paid(s) {
                    self.stones[s] += 1;
                }
            }
        }
        Ok(())
    }

    /// A shared Zendo event: the umpire's side ([`Core::fold`]), then the turn's
    /// ([`after_guess_event`], `bonus` the time an official guess adds); the end of
    /// the match ends the phases. Err: the event does not fit (a corrupt log).
    pub(crate) fn fold_zendo(self, event: &ZendoEvent, bonus: Millis) -> Result<(), FoldError> {
        self.core.fold(event, self.ledger)?;
        if let ZendoEvent::MatchEnded { .. } = event {
            *self.phase = P::over();
            return Ok(());
        }
        let ledger = self.ledger;
        let Some((seat, step)) = self.phase.under_way() else {
            return Err(ledger.misfit("no turn is in progress"));
        };
        let stones = &mut self.stones[seat];
        match after_guess_event(event, seat, step, stones, self.clock, bonus) {
            Ok(Some(next)) => {
                *step = next;
                ledger.enter();
            }
            Ok(None) => *self.phase = P::over(),
            Err(why) => return Err(ledger.misfit(why)),
        }
        Ok(())
    }
}

/// What a deadline passing does to the turn in `step`: the turn passes (`pass`), a
/// pending guess withdrawn first (its stone returned); an open challenge is revealed,
/// silence as no answer (`reveal`); nothing while a verdict is awaited (no deadline
/// runs then). Step 1 passes here too; a game that does more there says so first.
pub(crate) fn time_out<G: Game>(
    out: &mut Emitter<G>,
    (step, seat): (&Step, crate::rules::Seat),
    pass: fn(&mut Emitter<G>, crate::rules::Seat, super::TurnEnd),
    reveal: fn(&mut Emitter<G>, bool),
) where
    ZendoEvent: Into<EventKind<G::Event>>,
{
    match step {
        Step::Build | Step::Guess => pass(out, seat, super::TurnEnd::TimeUp),
        Step::Pending { guess } => {
            out.emit(ZendoEvent::GuessWithdrawn {
                number: *guess,
                why: super::Withdrawal::TimeUp,
            });
            pass(out, seat, super::TurnEnd::TimeUp);
        }
        Step::Challenge { .. } => reveal(out, true),
        Step::Verdict { .. } => {}
    }
}

/// What a challenge's event does to the turn of `seat`, in `step`: the turn's next
/// step (None: the same step, an answer added to it), or why it does not fit.
fn after_challenge_event(
    core: &mut Core,
    seat: crate::rules::Seat,
    step: &mut Step,
    event: ChallengeEvent<'_>,
    (seats, answer_ms): (usize, Millis),
) -> Result<Option<Step>, &'static str> {
    const NOT_OPEN: &str = "no challenge or mondo is open";
    Ok(Some(match event {
        ChallengeEvent::Opened { by, koan } => {
            if by != seat || *step != Step::Build {
                return Err("step 1 is not in progress");
            }
            Step::Challenge {
                koan: koan.clone(),
                answers: BySeat::new(seats, None),
                clock: Clock::stopped(answer_ms),
            }
        }
        ChallengeEvent::Answered { seat, answer } => {
            let answer = answer.ok_or("an answer without its content")?;
            match step {
                Step::Challenge { answers, .. } if answers.get(seat).is_some() => {
                    answers[seat] = Some(answer);
                    return Ok(None);
                }
                _ => return Err(NOT_OPEN),
            }
        }
        ChallengeEvent::Revealed { answers, obeys } => {
            let Step::Challenge {
                koan,
                answers: given,
                ..
            } = step
            else {
                return Err(NOT_OPEN);
            };
            if answers.len() != given.len() {
                return Err("a challenge has one answer per player");
            }
            let origin = super::Origin::Challenged {
                by: seat,
                answers: answers.clone(),
            };
            core.table.push(koan.clone(), obeys, origin);
            Step::Guess
        }
    }))
}

/// A move about a guess, as every turn game has it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum GuessMove<'a> {
    /// State a guess (a ticket or stone is paid when it is read back).
    Guess(&'a crate::lang::Pattern),
    Confirm,
    TakeBack,
    /// A host refuses the guess in play.
    Disallow,
    /// The umpire's verdict on official guess `.0`.
    Verdict(u32, &'a crate::finder::Verdict),
}

impl GuessMove<'_> {
    /// Whether the turn's student makes it (so their turn clock must not have run out).
    pub(crate) fn is_players(&self) -> bool {
        matches!(
            self,
            GuessMove::Guess(_) | GuessMove::Confirm | GuessMove::TakeBack
        )
    }

    /// Whether the turn may be left with nothing to do after it (a confirmed guess
    /// refuted at once, a verdict): the game then checks its stones.
    pub(crate) fn may_end_step(&self) -> bool {
        matches!(self, GuessMove::Confirm | GuessMove::Verdict(..))
    }
}

/// The shared events of a guess move by `who` (the turn's `seat`, holding `stones`),
/// with `pending` the guess in play (0: none), checked by the rule: a guess needs a
/// stone and must read for the game's pieces; a disallowing needs a host; a verdict
/// must hold up.
pub(crate) fn guess_events(
    core: &Core,
    m: GuessMove<'_>,
    who: crate::rules::Who,
    (seat, stones, pending): (crate::rules::Seat, u32, u32),
) -> Result<Vec<ZendoEvent>, RuleError> {
    use super::Withdrawal;
    Ok(match m {
        GuessMove::Guess(pattern) => {
            if stones == 0 {
                return Err(RuleError::NoTicket);
            }
            vec![core.read(seat, pattern)?]
        }
        GuessMove::Confirm => core.confirmed(pending),
        GuessMove::TakeBack => vec![ZendoEvent::GuessWithdrawn {
            number: pending,
            why: Withdrawal::TakenBack,
        }],
        GuessMove::Disallow => {
            let crate::rules::Who::Host(by) = who else {
                return Err(RuleError::HostOnly("disallow a guess"));
            };
            vec![ZendoEvent::GuessWithdrawn {
                number: pending,
                why: Withdrawal::Disallowed { by },
            }]
        }
        GuessMove::Verdict(guess, verdict) => vec![core.judge(guess, verdict)?],
    })
}
