//! # Solo practice: one player against the umpire
//!
//! As players read it in docs/games/practice.md. The same table, the same umpire and the same guesses as the Duel
//! (the shared parts live in [`super`]), with what needs an opponent taken away:
//!
//! - Build structures, observe only: a challenge needs someone to answer against (the
//!   moves have no challenge, no answer, no skip and no turns; the fronts say
//!   [`NO_CHALLENGE`] and [`NO_TURNS`] to a player who asks). Not given before,
//!   translations count, as in the Duel. `[practice_observes_new_structures_only]`
//! - Guess freely: no tickets. Guesses are still read back (with the table structures
//!   that contradict them) and confirmed or taken back; the umpire's verdict comes in
//!   as in the Duel, and is checked the same way. `[practice_guesses_need_no_ticket]`
//! - No turns and no clock: no deadlines, nothing to pause (a host's pause is refused,
//!   `Unsupported`). `[practice_has_no_clock_or_turns]`
//! - A structure already on the table that separates an official guess from the hidden
//!   pattern refutes it at once, without the finder, as in the Duel.
//!   `[practice_table_refutes_before_the_finder]`
//! - Either piece set: pyramids, or arrows (4 pieces, one size). In an arrows match a
//!   structure of pyramids, or a guess that speaks of sizes or pips, is refused
//!   (`WrongSet`) and costs nothing; guesses are read back saying `arrows`.
//!   `[practice_guesses_must_fit_the_piece_set]`
//! - The score is the number of structures built plus the number of guesses made
//!   official (void and withdrawn guesses are free); it is shown at the win. Lower is
//!   better. `[practice_scores_koans_and_guesses]`
//! - Giving up (resign) or a host ending the match reveals the pattern.
//!   `[practice_give_up_reveals_the_pattern]`

use super::turn;
use super::{
    Core, GuessStatus, Initial, Origin, Outcome, Settings, VerdictJob, Zendo, ZendoEvent, ZendoMove,
};
use crate::finder::Verdict;
use crate::koan::Koan;
use crate::lang::Pattern;
use crate::rules::{
    self, Emitter, FoldError, Game, Millis, PlayerId, RuleError, Seat, Seating, Secret, SetupError,
    Viewer, Who,
};
use serde::{Deserialize, Serialize};

mod state;
mod view;

/// Practice has no section of its own in the configuration file: it takes the duel's
/// (`[zendo]`).
pub type Section = ();

pub use state::{Practice, PracticeStep, Score};
pub use view::PracticeView;

crate::rules::game_types! {
    Practice: ZendoPractice, clocked: false, deadline: Deadline, work: VerdictJob, log: Event,
    setup: PracticeSetup, moves: PracticeMove, events: PracticeEvent::PracticeCreated,
}

/// What a player who asks to challenge in practice is told.
pub const NO_CHALLENGE: &str =
    "practice has no challenges (nobody to answer against): observe instead";
/// What a player who asks for turns in practice is told (skip, end turn, start).
pub const NO_TURNS: &str = "practice has no turns: build a structure or guess whenever you like";

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

/// A move in practice.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum PracticeMove {
    /// A structure, observed at once.
    Build { koan: Koan },
    /// A guess, read back before it is official (no ticket needed).
    Guess { pattern: Pattern },
    /// Umpire: the finder's answer to official guess `guess`.
    Verdict { guess: u32, verdict: Verdict },
    /// Confirming or taking back a guess, a host's disallowing: as in every Zendo
    /// mode. Practice has no turns to end nor a starter to choose ([`NO_TURNS`]).
    #[serde(untagged)]
    Zendo(ZendoMove),
}

super::moves::shared_moves_in!(PracticeMove, Action);

/// What happens in practice: its creation, and what every Zendo game has.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum PracticeEvent {
    /// The first event (it holds the hidden pattern: never announced).
    PracticeCreated { setup: Box<PracticeSetup> },
    #[serde(untagged)]
    Zendo(ZendoEvent),
}

super::shared_events_in!(PracticeEvent, PracticeMove);

/// Practice has no deadlines; the type only names what it never has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Deadline {}

impl rules::Deadline for Deadline {
    fn at(&self) -> Millis {
        match *self {}
    }

    fn is(&self, _: &Deadline) -> bool {
        match *self {}
    }
}

impl Score {
    pub fn total(&self) -> u32 {
        self.koans + self.guesses
    }
}

impl Practice {
    pub fn player(&self) -> PlayerId {
        self.seating.players[Seat::FIRST]
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

    fn pending(&self) -> u32 {
        match self.step {
            PracticeStep::Pending { guess } | PracticeStep::Verdict { guess } => guess,
            _ => 0,
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
    type Move = PracticeMove;
    type View = PracticeView;

    fn from_setup(setup: &PracticeSetup, now: Millis) -> Result<Practice, SetupError> {
        Ok(Practice {
            seating: Seating::new(now, [setup.player], setup.seed),
            core: Core::new(&setup.hidden, &setup.initial, setup.settings, setup.seed)?,
            step: PracticeStep::Play,
        })
    }

    rules::seating!();

    fn is_over(&self) -> bool {
        self.core.outcome.is_some()
    }

    fn finish(&self) -> Option<rules::Finish> {
        Some(match self.core.outcome? {
            Outcome::Ended { .. } => rules::Finish::Unrated(rules::Why::HostEnded),
            Outcome::Declined { .. }
            | Outcome::Abandoned
            | Outcome::Idle { .. }
            | Outcome::Deserted { .. } => rules::Finish::Unrated(rules::Why::Abandoned),
            outcome => rules::Finish::Solo {
                player: self.seating.players.values()[0],
                solved: matches!(outcome, Outcome::Solved { .. }),
                score: self.score().koans,
            },
        })
    }

    fn listed_settings(&self) -> serde_json::Value {
        serde_json::to_value(self.core.settings).unwrap_or_default()
    }

    /// No turns: the player may always act.
    fn check_turn(&self, _: Seat, _: &PracticeMove) -> Result<(), RuleError> {
        Ok(())
    }

    fn check_phase(&self, m: &PracticeMove, _now: Millis) -> Result<(), RuleError> {
        use RuleError::WrongPhase;
        match m {
            PracticeMove::Build { .. } | PracticeMove::Guess { .. } => match self.step {
                PracticeStep::Play => Ok(()),
                PracticeStep::Pending { .. } => Err(WrongPhase(
                    "confirm or take back the guess you are making first",
                )),
                _ => Err(WrongPhase("wait for the umpire's answer to the guess")),
            },
            PracticeMove::Zendo(ZendoMove::Confirm | ZendoMove::TakeBack) => match self.step {
                PracticeStep::Pending { .. } => Ok(()),
                _ => Err(WrongPhase(
                    "there is no guess waiting for your confirmation",
                )),
            },
            PracticeMove::Zendo(ZendoMove::Disallow) => match self.step {
                PracticeStep::Pending { .. } | PracticeStep::Verdict { .. } => Ok(()),
                _ => Err(WrongPhase("there is no guess to disallow")),
            },
            PracticeMove::Zendo(ZendoMove::EndTurn | ZendoMove::ChooseStarter { .. }) => {
                Err(RuleError::Unsupported(NO_TURNS))
            }
            PracticeMove::Verdict { guess, .. } => match self.step {
                PracticeStep::Verdict { guess: g } if g == *guess => Ok(()),
                _ => Err(WrongPhase("no guess is waiting for that verdict")),
            },
        }
    }

    fn rule(&self, out: &mut Emitter<Self>, who: Who, m: &PracticeMove) -> Result<(), RuleError> {
        let me = Seat::FIRST;
        let pending = self.pending();
        match m {
            PracticeMove::Build { koan } => {
                self.core.check_new(koan)?;
                out.emit(ZendoEvent::Observed {
                    by: me,
                    koan: koan.clone(),
                    obeys: self.core.obeys(koan),
                });
            }
            PracticeMove::Guess { pattern } => out.emit(self.core.read(me, pattern)?),
            PracticeMove::Zendo(z) => {
                let g = z.guess_move().ok_or(RuleError::Unsupported(NO_TURNS))?;
                for e in turn::guess_events(&self.core, g, who, (me, 0, pending))? {
                    out.emit(e);
                }
            }
            PracticeMove::Verdict { guess, verdict } => out.emit(self.core.judge(*guess, verdict)?),
        }
        Ok(())
    }

    /// Giving up reveals the pattern.
    fn resign(&self, out: &mut Emitter<Practice>, seat: Seat) -> Result<(), RuleError> {
        out.emit(self.core.ended(Outcome::Resigned { by: seat }));
        Ok(())
    }

    fn end(&self, out: &mut Emitter<Practice>, by: PlayerId) {
        out.emit(self.core.ended(Outcome::Ended { by }));
    }

    fn time_out(&self, _: &mut Emitter<Practice>, deadline: Deadline) {
        match deadline {}
    }

    fn next_deadline(&self) -> Option<Deadline> {
        None
    }

    fn fold_game(&mut self, event: &PracticeEvent, _at: Millis) -> Result<(), FoldError> {
        let PracticeEvent::Zendo(e) = event else {
            return Err(self.seating.ledger.misfit("a match is created only once"));
        };
        let step = match (e, self.step) {
            (ZendoEvent::Observed { .. }, PracticeStep::Play) => PracticeStep::Play,
            (ZendoEvent::GuessRead { number, .. }, PracticeStep::Play) => {
                PracticeStep::Pending { guess: *number }
            }
            (ZendoEvent::GuessConfirmed { number }, PracticeStep::Pending { guess })
                if guess == *number =>
            {
                PracticeStep::Verdict { guess }
            }
            (ZendoEvent::GuessWithdrawn { number, .. }, PracticeStep::Pending { guess })
            | (ZendoEvent::GuessWithdrawn { number, .. }, PracticeStep::Verdict { guess })
            | (ZendoEvent::Refuted { number, .. }, PracticeStep::Verdict { guess })
            | (ZendoEvent::GuessUndecided { number, .. }, PracticeStep::Verdict { guess })
                if guess == *number =>
            {
                PracticeStep::Play
            }
            (ZendoEvent::MatchEnded { .. }, _) => PracticeStep::Over,
            _ => {
                return Err(self
                    .seating
                    .ledger
                    .misfit("not an event of this practice match now"));
            }
        };
        self.core.fold(e, &mut self.seating.ledger)?;
        if step != self.step {
            self.step = step;
            self.seating.ledger.enter();
        }
        Ok(())
    }

    fn skip_downtime(&mut self, _: Millis, _: Millis) {}

    fn sync_clocks(&mut self, _: Millis) {}

    fn view(&self, viewer: &Viewer) -> PracticeView {
        view::practice(self, viewer)
    }

    fn secrets(&self, _: &Viewer) -> Vec<Secret> {
        // One player, with no private answers.
        self.core.secrets(self.is_over(), 1, Some(Seat(0)))
    }

    fn redact(&self, event: &PracticeEvent, _: &Viewer) -> Option<PracticeEvent> {
        match event {
            PracticeEvent::PracticeCreated { .. } => None,
            PracticeEvent::Zendo(_) => Some(event.clone()),
        }
    }

    super::verdict_work!();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Actor;
    use crate::rules::ErrorCode::{self, *};
    use crate::rules::zendo::testing::flat::{EventKind, flat};
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
        let events = h.ok(A, observe(koan("2> 3^")));
        assert!(matches!(
            flat(&events[0].kind),
            EventKind::Observed { obeys: true, .. }
        ));
        let events = h.ok(A, observe(koan("2v 3<")));
        assert!(matches!(
            flat(&events[0].kind),
            EventKind::Observed { obeys: false, .. }
        ));
        assert_eq!(
            h.act(A, observe(koan(".. .. / 2> 3^"))).err(),
            Some(RuleError::AlreadyGiven { number: 3 })
        );
        assert_eq!(code(h.act(A, observe(koan("1>")))), AlreadyGiven);
        assert_eq!(h.game.table().entries().len(), 4);
        assert!(replays(&h));
    }

    #[test]
    fn practice_guesses_need_no_ticket() {
        let mut h = practice();
        let events = h.ok(A, guess("every piece points up"));
        assert!(matches!(
            flat(&events[0].kind),
            EventKind::GuessRead { number: 1, .. }
        ));
        h.ok(A, ZendoMove::Confirm);
        let events = h.umpire();
        assert!(matches!(
            flat(&events[0].kind),
            EventKind::Refuted { on_table: None, .. }
        ));
        // Read back with what contradicts it, then taken back.
        let events = h.ok(A, guess("some piece points right"));
        let EventKind::GuessRead { contradictions, .. } = flat(&events[0].kind) else {
            panic!("{events:?}");
        };
        assert_eq!(contradictions[..2], [1, 2]);
        assert_eq!(code(h.act(A, observe(koan("3v")))), WrongPhase);
        h.ok(A, ZendoMove::TakeBack);
        h.ok(A, guess("at least one piece points up"));
        h.ok(A, ZendoMove::Confirm);
        h.umpire();
        assert_eq!(
            h.game.outcome(),
            Some(Outcome::Solved {
                by: Seat::FIRST,
                guess: 3
            })
        );
        assert_eq!(h.game.step(), PracticeStep::Over);
        assert!(replays(&h));
    }

    #[test]
    fn practice_table_refutes_before_the_finder() {
        let mut h = practice();
        // #1 `1^` obeys and #2 `1>` does not; "some piece points right" says the
        // opposite of both: the table already refutes it, with the simplest (#1).
        h.ok(A, guess("some piece points right"));
        let events = h.ok(A, ZendoMove::Confirm);
        assert!(matches!(
            flat(&events[1].kind),
            EventKind::Refuted {
                on_table: Some(1),
                ..
            }
        ));
        assert_eq!(h.game.work().map(|(k, _)| k), None, "no finder work");
        assert_eq!(h.game.step(), PracticeStep::Play);
        assert_eq!(h.game.score().guesses, 1, "it counts as a guess made");
        assert!(replays(&h));
    }

    #[test]
    fn practice_has_no_clock_or_turns() {
        let mut h = practice();
        assert_eq!(h.game.next_deadline(), None);
        let host = Actor::Host(HOST);
        assert_eq!(code(h.act(host, Action::Pause)), Unsupported);
        assert_eq!(code(h.act(U, Action::Downtime { since: 0 })), Unsupported);
        h.wait(86_400_000);
        h.ok(A, observe(koan("3^ 3^")));
        assert_eq!(h.game.next_deadline(), None);
        // Nobody else plays in a practice match.
        assert_eq!(code(h.act(Actor::Player(BOB), Action::Resign)), NotAPlayer);
        // The shared moves of turns: there are none to end, no starter to choose.
        for m in [
            ZendoMove::EndTurn,
            ZendoMove::ChooseStarter { starter: ALICE },
        ] {
            assert_eq!(
                h.act(A, m).err(),
                Some(RuleError::Unsupported(NO_TURNS)),
                "{m:?}"
            );
        }
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
        h.ok(A, observe(koan("U L")));
        assert_eq!(code(h.act(A, observe(koan("1^")))), WrongSet);
        let err = h.act(A, guess("some piece is large")).unwrap_err();
        assert_eq!(err.code(), WrongSet);
        assert!(err.to_string().contains("large"), "{err}");
        let events = h.ok(A, guess("every arrow points up"));
        assert!(
            matches!(flat(&events[0].kind), EventKind::GuessRead { reading, .. } if reading == "every arrow points up"),
            "read back in the set's own words: {events:?}"
        );
        h.ok(A, ZendoMove::TakeBack);
        // One the table does not refute: the umpire's counterexample is arrows.
        h.ok(A, guess("exactly one arrow points up"));
        h.ok(A, ZendoMove::Confirm);
        let events = h.umpire();
        let EventKind::Refuted { counterexample, .. } = flat(&events[0].kind) else {
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
        h.ok(A, observe(koan("2> 3^")));
        h.ok(A, observe(koan("2v 3<")));
        // Free: a guess taken back, one disallowed, one the finder could not decide.
        h.ok(A, guess("every piece points up"));
        h.ok(A, ZendoMove::TakeBack);
        h.ok(A, guess("every piece points up"));
        h.ok(Actor::Host(HOST), ZendoMove::Disallow);
        h.ok(A, guess("exactly one piece points up"));
        h.ok(A, ZendoMove::Confirm);
        h.umpire_undecided("budget");
        assert_eq!(
            h.game.score(),
            Score {
                koans: 2,
                guesses: 0
            }
        );
        // Counted: a refuted guess and the winning one.
        h.ok(A, guess("exactly one piece points up"));
        h.ok(A, ZendoMove::Confirm);
        h.umpire();
        h.ok(A, guess("some piece points up"));
        h.ok(A, ZendoMove::Confirm);
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
            Some(Outcome::Resigned { by: Seat::FIRST })
        );
        assert_eq!(
            h.game.view(&Viewer::Spectator).revealed.as_deref(),
            Some("some piece points up")
        );
        assert_eq!(code(h.act(A, Action::Resign)), MatchOver);
        // A host may end one too; a host who practises cannot.
        let mut h = practice();
        assert_eq!(code(h.act(Actor::Host(ALICE), Action::End)), HostPlays);
        h.ok(Actor::Host(HOST), Action::End);
        assert!(matches!(
            h.game.outcome(),
            Some(Outcome::Ended { by: HOST })
        ));
    }
}
