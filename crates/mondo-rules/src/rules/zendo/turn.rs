//! A turn of the one-pattern games played in turns (the Duel, Classic): its steps
//! ([`Step`]: build, a challenge or mondo answered privately, guesses read back and
//! judged), which moves fit which step, its clocks, and what the shared guess events
//! do to it. Each game keeps its own phases around it (who starts, who is skipped).

use super::{Answer, Core, ZendoEvent};
use crate::koan::Koan;
use crate::rules::{
    BySeat, Clock, Emitter, EventKind, FoldError, Game, Ledger, Millis, RuleError, Seat,
    SetupError,
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
    /// `by` built `koan` and challenged; `seats` answers are awaited within `answer_ms`.
    Opened {
        by: crate::rules::Seat,
        koan: &'a Koan,
        seats: usize,
        answer_ms: Millis,
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

/// A challenge's event folded into the turn under way (`turn`: whose, and its step;
/// None between turns): the step moves on (a new phase for the ledger) or takes the
/// answer. Err: the event does not fit (a corrupt log).
pub(crate) fn fold_challenge(
    core: &mut Core,
    ledger: &mut Ledger,
    turn: Option<(crate::rules::Seat, &mut Step)>,
    event: ChallengeEvent<'_>,
) -> Result<(), FoldError> {
    let Some((seat, step)) = turn else {
        return Err(ledger.misfit("no turn is in progress"));
    };
    match after_challenge_event(core, seat, step, event) {
        Ok(Some(next)) => {
            *step = next;
            ledger.enter();
        }
        Ok(None) => {}
        Err(why) => return Err(ledger.misfit(why)),
    }
    Ok(())
}

/// What a challenge's event does to the turn of `seat`, in `step`: the turn's next
/// step (None: the same step, an answer added to it), or why it does not fit.
fn after_challenge_event(
    core: &mut Core,
    seat: crate::rules::Seat,
    step: &mut Step,
    event: ChallengeEvent<'_>,
) -> Result<Option<Step>, &'static str> {
    const NOT_OPEN: &str = "no challenge or mondo is open";
    Ok(Some(match event {
        ChallengeEvent::Opened {
            by,
            koan,
            seats,
            answer_ms,
        } => {
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
