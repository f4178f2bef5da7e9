//! # Solo practice: one player against the umpire
//!
//! Issue 5, item 2. The same table, the same umpire and the same guesses as the Duel
//! (the shared parts live in [`super`]), with what needs an opponent taken away:
//!
//! - Build structures, observe only: a challenge needs someone to answer against.
//!   Not given before, translations count, as in the Duel.
//!   `[practice_observes_new_structures_only]`
//! - Guess freely: no tickets. Guesses are still read back (with the table structures
//!   that contradict them) and confirmed or taken back; the umpire's verdict comes in
//!   as in the Duel, and is checked the same way. `[practice_guesses_need_no_ticket]`
//! - No turns and no clock: no deadlines, nothing to pause. `[practice_has_no_clock_or_turns]`
//! - Either piece set: pyramids, or arrows (4 pieces, one size). In an arrows match a
//!   structure of pyramids, or a guess that speaks of sizes or pips, is refused
//!   (`WrongSet`) and costs nothing; guesses are read back saying `arrows`.
//!   `[practice_guesses_must_fit_the_piece_set]`
//! - The score is the number of structures built plus the number of guesses made
//!   official (void and withdrawn guesses are free); it is shown at the win. Lower is
//!   better. `[practice_scores_koans_and_guesses]`
//! - Giving up (resign) or a host ending the match reveals the pattern.
//!   `[practice_give_up_reveals_the_pattern]`

use super::{
    Action, Core, Emitter, Event, EventKind, GuessStatus, Initial, Mode, Origin, Outcome, Role,
    Seat, Settings, Withdrawal, Zendo,
};
use crate::lang::Pattern;
use crate::rules::{Actor, FoldError, Game, Millis, PlayerId, RuleError, SetupError, Viewer};
use serde::{Deserialize, Serialize};

/// Everything a practice match starts from (the same pools and initial structures as
/// a duel).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PracticeSetup {
    pub player: PlayerId,
    pub hidden: Pattern,
    pub initial: Initial,
    #[serde(default)]
    pub settings: Settings,
    pub seed: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum PracticeStep {
    /// Build a structure or state a guess.
    Play,
    /// Guess `guess` is read back, waiting for confirm or take back.
    Pending {
        guess: u32,
    },
    /// Guess `guess` is official; the umpire builds a counterexample.
    Verdict {
        guess: u32,
    },
    Over,
}

/// What a practice match cost: lower is better.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// Structures built (not the initial ones, not counterexamples).
    pub koans: u32,
    /// Guesses made official and judged (not withdrawn, not void).
    pub guesses: u32,
}

impl Score {
    pub fn total(&self) -> u32 {
        self.koans + self.guesses
    }
}

/// A practice match in progress (or over).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Practice {
    pub(super) core: Core,
    pub(super) player: PlayerId,
    pub(super) step: PracticeStep,
}

impl Practice {
    /// Checks a setup: the new match and the event that creates it.
    pub fn start(setup: PracticeSetup, now: Millis) -> Result<(Practice, Event), SetupError> {
        let practice = Practice::from_setup(&setup, now)?;
        let kind = EventKind::PracticeCreated {
            setup: Box::new(setup),
        };
        Ok((practice, Event::created(now, kind)))
    }

    /// The match as its log says.
    pub fn replay<'a>(events: impl IntoIterator<Item = &'a Event>) -> Result<Practice, FoldError> {
        super::replay(
            events,
            |kind| match kind {
                EventKind::PracticeCreated { setup } => Some(&**setup),
                _ => None,
            },
            Practice::from_setup,
        )
    }

    fn from_setup(setup: &PracticeSetup, now: Millis) -> Result<Practice, SetupError> {
        Ok(Practice {
            core: Core::new(
                &setup.hidden,
                &setup.initial,
                setup.settings,
                setup.seed,
                now,
            )?,
            player: setup.player,
            step: PracticeStep::Play,
        })
    }

    pub fn player(&self) -> PlayerId {
        self.player
    }

    pub fn step(&self) -> PracticeStep {
        self.step
    }

    /// Structures built and official guesses so far.
    pub fn score(&self) -> Score {
        let koans = self
            .core
            .table
            .entries()
            .iter()
            .filter(|e| matches!(e.origin, Origin::Observed { .. }))
            .count() as u32;
        let guesses = self
            .core
            .guesses
            .iter()
            .filter(|g| {
                matches!(
                    g.status,
                    GuessStatus::Official | GuessStatus::Refuted { .. } | GuessStatus::Correct
                )
            })
            .count() as u32;
        Score { koans, guesses }
    }

    /// Check 4: the action fits practice and its step.
    fn check_phase(&self, action: &Action) -> Result<(), RuleError> {
        use RuleError::{Unsupported, WrongPhase};
        let busy = || match self.step {
            PracticeStep::Pending { .. } => {
                WrongPhase("confirm or take back the guess you are making first")
            }
            _ => WrongPhase("wait for the umpire's answer to the guess"),
        };
        match action {
            Action::Build {
                mode: Mode::Challenge,
                ..
            }
            | Action::Answer { .. } => Err(Unsupported(
                "practice has no challenges (nobody to answer against): observe instead",
            )),
            Action::ChooseStarter { .. } | Action::Skip | Action::EndTurn => Err(Unsupported(
                "practice has no turns: build a structure or guess whenever you like",
            )),
            Action::Pause | Action::Resume | Action::Downtime { .. } => {
                Err(Unsupported("practice has no clock"))
            }
            Action::Timeout { .. } => Err(RuleError::StaleDeadline),
            Action::Build { .. } | Action::Guess { .. } => match self.step {
                PracticeStep::Play => Ok(()),
                _ => Err(busy()),
            },
            Action::Confirm | Action::TakeBack => match self.step {
                PracticeStep::Pending { .. } => Ok(()),
                _ => Err(WrongPhase(
                    "there is no guess waiting for your confirmation",
                )),
            },
            Action::Disallow => match self.step {
                PracticeStep::Pending { .. } | PracticeStep::Verdict { .. } => Ok(()),
                _ => Err(WrongPhase("there is no guess to disallow")),
            },
            Action::Verdict { guess, .. } => match self.step {
                PracticeStep::Verdict { guess: g } if g == *guess => Ok(()),
                _ => Err(WrongPhase("no guess is waiting for that verdict")),
            },
            Action::Resign | Action::End => Ok(()),
        }
    }
}

impl Zendo for Practice {
    fn core(&self) -> &Core {
        &self.core
    }

    fn awaited_guess(&self) -> Option<u32> {
        match self.step {
            PracticeStep::Verdict { guess } => Some(guess),
            _ => None,
        }
    }
}

impl Game for Practice {
    type Action = Action;
    type Event = Event;
    type View = super::PracticeView;
    type Deadline = super::Deadline;

    fn decide(
        &self,
        actor: &Actor,
        action: &Action,
        shown: Option<u64>,
        now: Millis,
    ) -> Result<(Vec<Event>, Practice), RuleError> {
        let now = now.max(self.core.last_at);
        self.core.check_not_over()?;
        let host = match (action.role(), actor) {
            (Role::Player, Actor::Player(id)) if *id == self.player => None,
            (Role::Player, _) => return Err(RuleError::NotAPlayer),
            (Role::Host, Actor::Host(id)) => Some(*id),
            (Role::Host, _) => return Err(RuleError::HostOnly(action.describe())),
            (Role::Umpire, Actor::Umpire) => None,
            (Role::Umpire, _) => return Err(RuleError::UmpireOnly(action.describe())),
        };
        // Check 3 (may act now) always passes: there are no turns and no pauses.
        self.check_phase(action)?;
        self.core.check_shown(shown)?;
        let pending = match self.step {
            PracticeStep::Pending { guess } | PracticeStep::Verdict { guess } => guess,
            _ => 0,
        };
        let me = Seat::First;
        let mut out = Emitter::new(self, now);
        match action {
            Action::Build { koan, .. } => {
                self.core.check_new(koan)?;
                out.emit(EventKind::Observed {
                    by: me,
                    koan: koan.clone(),
                    obeys: self.core.obeys(koan),
                });
            }
            Action::Guess { pattern } => out.emit(self.core.read(me, pattern)?),
            Action::Confirm => out.emit(EventKind::GuessConfirmed { number: pending }),
            Action::TakeBack => out.emit(EventKind::GuessWithdrawn {
                number: pending,
                why: Withdrawal::TakenBack,
            }),
            Action::Verdict { guess, verdict } => out.emit(self.core.judge(*guess, verdict)?),
            Action::Resign => out.emit(self.core.ended(Outcome::Resigned { by: me })),
            Action::Disallow | Action::End => {
                let by = host.ok_or(RuleError::HostOnly(action.describe()))?;
                out.emit(match action {
                    Action::Disallow => EventKind::GuessWithdrawn {
                        number: pending,
                        why: Withdrawal::Disallowed { by },
                    },
                    _ => self.core.ended(Outcome::Ended { by }),
                });
            }
            // Refused by check 4.
            _ => return Err(RuleError::Unsupported("not in practice")),
        }
        Ok(out.finish())
    }

    fn fold(&mut self, event: &Event) -> Result<(), FoldError> {
        self.core.begin(event);
        self.core.fold_shared(&event.kind)?;
        let step = match (&event.kind, self.step) {
            (EventKind::Observed { .. }, PracticeStep::Play) => PracticeStep::Play,
            (EventKind::GuessRead { number, .. }, PracticeStep::Play) => {
                PracticeStep::Pending { guess: *number }
            }
            (EventKind::GuessConfirmed { number }, PracticeStep::Pending { guess })
                if guess == *number =>
            {
                PracticeStep::Verdict { guess }
            }
            (EventKind::GuessWithdrawn { number, .. }, PracticeStep::Pending { guess })
            | (EventKind::GuessWithdrawn { number, .. }, PracticeStep::Verdict { guess })
            | (EventKind::Refuted { number, .. }, PracticeStep::Verdict { guess })
            | (EventKind::GuessUndecided { number, .. }, PracticeStep::Verdict { guess })
                if guess == *number =>
            {
                PracticeStep::Play
            }
            (EventKind::MatchEnded { .. }, _) => PracticeStep::Over,
            _ => return Err(self.core.misfit("not an event of this practice match now")),
        };
        if step != self.step {
            self.step = step;
            self.core.enter();
        }
        Ok(())
    }

    fn view(&self, viewer: &Viewer) -> super::PracticeView {
        super::view::practice(self, viewer)
    }

    fn version(&self) -> u64 {
        self.core.version
    }

    fn next_deadline(&self) -> Option<super::Deadline> {
        None
    }

    fn is_over(&self) -> bool {
        self.core.outcome.is_some()
    }

    fn is_visible(&self, event: &Event, viewer: &Viewer) -> bool {
        let seat = (*viewer == Viewer::Player(self.player)).then_some(Seat::First);
        event.visible_to(seat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ErrorCode::{self, *};
    use crate::rules::zendo::testing::*;

    const A: Actor = Actor::Player(ALICE);
    const U: Actor = Actor::Umpire;

    /// Alice alone against "some piece points up" (#1 `1^` obeys, #2 `1>` does not).
    fn practice() -> Harness<Practice> {
        Harness::practice(practice_setup(parsed("some piece points up")))
    }

    fn code<T: std::fmt::Debug>(r: Result<T, RuleError>) -> ErrorCode {
        r.expect_err("should be refused").code()
    }

    fn replays(h: &Harness<Practice>) -> bool {
        serde_json::to_value(&h.game).ok() == serde_json::to_value(h.replayed()).ok()
    }

    #[test]
    fn practice_observes_new_structures_only() {
        let mut h = practice();
        let events = h.ok(A, build(koan("2> 3^"), Mode::Observe));
        assert!(matches!(
            events[0].kind,
            EventKind::Observed { obeys: true, .. }
        ));
        let events = h.ok(A, build(koan("2v 3<"), Mode::Observe));
        assert!(matches!(
            events[0].kind,
            EventKind::Observed { obeys: false, .. }
        ));
        assert_eq!(
            code(h.act(A, build(koan("3^ 3^"), Mode::Challenge))),
            Unsupported
        );
        assert_eq!(
            h.act(A, build(koan(".. .. / 2> 3^"), Mode::Observe)).err(),
            Some(RuleError::AlreadyGiven { number: 3 })
        );
        assert_eq!(
            code(h.act(A, build(koan("1>"), Mode::Observe))),
            AlreadyGiven
        );
        assert_eq!(h.game.table().entries().len(), 4);
        assert!(replays(&h));
    }

    #[test]
    fn practice_guesses_need_no_ticket() {
        let mut h = practice();
        for round in 1..=3 {
            let events = h.ok(A, guess("every piece points up"));
            assert!(matches!(
                events[0].kind,
                EventKind::GuessRead { number, .. } if number == round
            ));
            h.ok(A, Action::Confirm);
            let events = h.umpire();
            assert!(matches!(
                events[0].kind,
                EventKind::Refuted { on_table: None, .. }
            ));
        }
        // Read back with what contradicts it, then taken back.
        let events = h.ok(A, guess("some piece points right"));
        let EventKind::GuessRead { contradictions, .. } = &events[0].kind else {
            panic!("{events:?}");
        };
        assert_eq!(contradictions[..2], [1, 2]);
        assert_eq!(code(h.act(A, build(koan("3v"), Mode::Observe))), WrongPhase);
        h.ok(A, Action::TakeBack);
        h.ok(A, guess("at least one piece points up"));
        h.ok(A, Action::Confirm);
        h.umpire();
        assert_eq!(
            h.game.outcome(),
            Some(Outcome::Solved {
                by: Seat::First,
                guess: 5
            })
        );
        assert_eq!(h.game.step(), PracticeStep::Over);
        assert!(replays(&h));
    }

    #[test]
    fn practice_has_no_clock_or_turns() {
        let mut h = practice();
        assert_eq!(h.game.next_deadline(), None);
        for action in [Action::Skip, Action::EndTurn, choose(ALICE)] {
            assert_eq!(code(h.act(A, action)), Unsupported);
        }
        assert_eq!(
            code(h.act(A, answer(crate::rules::zendo::Answer::Obeys))),
            Unsupported
        );
        let host = Actor::Host(HOST);
        assert_eq!(code(h.act(host, Action::Pause)), Unsupported);
        assert_eq!(code(h.act(U, Action::Downtime { since: 0 })), Unsupported);
        h.wait(86_400_000);
        h.ok(A, build(koan("3^ 3^"), Mode::Observe));
        assert_eq!(h.game.next_deadline(), None);
        // Nobody else plays in a practice match.
        assert_eq!(code(h.act(Actor::Player(BOB), Action::Resign)), NotAPlayer);
    }

    #[test]
    fn practice_guesses_must_fit_the_piece_set() {
        let mut setup = practice_setup(parsed("some arrow points up"));
        setup.settings.set = crate::koan::PieceSet::Arrows;
        setup.initial = crate::rules::zendo::Initial {
            obeys: koan("U"),
            does_not: koan("R"),
        };
        let mut h = Harness::practice(setup.clone());
        h.ok(A, build(koan("U L"), Mode::Observe));
        assert_eq!(code(h.act(A, build(koan("1^"), Mode::Observe))), WrongSet);
        let err = h.act(A, guess("some piece is large")).unwrap_err();
        assert_eq!(err.code(), WrongSet);
        assert!(err.to_string().contains("large"), "{err}");
        let events = h.ok(A, guess("every arrow points up"));
        assert!(
            matches!(&events[0].kind, EventKind::GuessRead { reading, .. } if reading == "every arrow points up"),
            "read back in the set's own words: {events:?}"
        );
        h.ok(A, Action::Confirm);
        let events = h.umpire();
        let EventKind::Refuted { counterexample, .. } = &events[0].kind else {
            panic!("{events:?}");
        };
        assert_eq!(counterexample.koan.set(), crate::koan::PieceSet::Arrows);
        // A hidden pattern about sizes cannot be set up for arrows.
        setup.hidden = parsed("some piece is large");
        assert!(matches!(
            Practice::start(setup, 0),
            Err(SetupError::HiddenWrongSet(_))
        ));
    }

    #[test]
    fn practice_scores_koans_and_guesses() {
        let mut h = practice();
        h.ok(A, build(koan("2> 3^"), Mode::Observe));
        h.ok(A, build(koan("2v 3<"), Mode::Observe));
        // Free: a guess taken back, one disallowed, one the finder could not decide.
        h.ok(A, guess("every piece points up"));
        h.ok(A, Action::TakeBack);
        h.ok(A, guess("every piece points up"));
        h.ok(Actor::Host(HOST), Action::Disallow);
        h.ok(A, guess("every piece points up"));
        h.ok(A, Action::Confirm);
        h.umpire_undecided("budget");
        assert_eq!(
            h.game.score(),
            Score {
                koans: 2,
                guesses: 0
            }
        );
        // Counted: a refuted guess and the winning one.
        h.ok(A, guess("every piece points up"));
        h.ok(A, Action::Confirm);
        h.umpire();
        h.ok(A, guess("some piece points up"));
        h.ok(A, Action::Confirm);
        h.umpire();
        let view = h.game.view(&Viewer::Player(ALICE));
        assert_eq!(
            view.score,
            Score {
                koans: 2,
                guesses: 2
            }
        );
        assert_eq!(view.score.total(), 4);
        assert_eq!(view.revealed.as_deref(), Some("some piece points up"));
        assert!(replays(&h));
    }

    #[test]
    fn practice_give_up_reveals_the_pattern() {
        let mut h = practice();
        assert_eq!(
            h.game.view(&Viewer::Player(ALICE)).revealed,
            None,
            "not before the end"
        );
        h.ok(A, Action::Resign);
        assert_eq!(
            h.game.outcome(),
            Some(Outcome::Resigned { by: Seat::First })
        );
        assert_eq!(
            h.game.view(&Viewer::Spectator).revealed.as_deref(),
            Some("some piece points up")
        );
        assert_eq!(code(h.act(A, Action::Resign)), MatchOver);
        // A host may end one too.
        let mut h = practice();
        h.ok(Actor::Host(HOST), Action::End);
        assert!(matches!(
            h.game.outcome(),
            Some(Outcome::Ended { by: HOST })
        ));
    }
}
