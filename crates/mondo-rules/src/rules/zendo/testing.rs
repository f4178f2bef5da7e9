//! Fixtures for tests of the engine and of the layers above it (store, runtime,
//! fronts): patterns built without a parser, small structures, a counterexample
//! search over small structures standing in for the finder, ready-made setups, and a
//! harness that plays a match against a fake clock and keeps its event log.
//!
//! Not for production: the search here only looks at structures of one or two pieces
//! and would call "equivalent" two patterns that differ only on bigger ones. Tests
//! choose their patterns so that this cannot happen.

use super::{
    Answer, DuelMove, DuelSetup, Initial, Mode, PracticeMove, PracticeSetup, Settings, Timing,
    VerdictJob, Zendo, ZendoEvent, ZendoMove, duel, practice,
};
use crate::finder::{Counterexample, Verdict};
use crate::koan::{Koan, PieceSet, enumerate};
use crate::lang::{Formula, Pattern};
use crate::rules::{self, Action, Actor, Deadline, Event, Game, Millis, PlayerId, RuleError, Seat};
use std::sync::OnceLock;

pub const ALICE: PlayerId = PlayerId(1);
pub const BOB: PlayerId = PlayerId(2);
pub const HOST: PlayerId = PlayerId(99);

/// A pattern with its source text (not parsed: for texts the parser would not read,
/// such as a marked secret).
pub fn pattern(source: &str, formula: Formula) -> Pattern {
    Pattern {
        source: source.to_string(),
        formula,
    }
}

/// A pattern read from English or symbolic text. Panics on text that does not read.
#[track_caller]
pub fn parsed(text: &str) -> Pattern {
    crate::lang::parse(text).unwrap_or_else(|e| panic!("not a test pattern: {text:?}: {e}"))
}

/// A structure from its text notation. Panics on text that does not read.
#[track_caller]
pub fn koan(text: &str) -> Koan {
    text.parse()
        .unwrap_or_else(|e| panic!("not a test structure: {text:?}: {e}"))
}

/// Every structure of one piece, then of two, in the simple style's order (pieces,
/// then bounding-box area).
pub fn small_structures(set: PieceSet) -> &'static [Koan] {
    static PYRAMIDS: OnceLock<Vec<Koan>> = OnceLock::new();
    static ARROWS: OnceLock<Vec<Koan>> = OnceLock::new();
    let cell = match set {
        PieceSet::Pyramids => &PYRAMIDS,
        PieceSet::Arrows => &ARROWS,
    };
    cell.get_or_init(|| (1..=2).flat_map(|k| enumerate::koans(set, k)).collect())
}

/// The first small structure (see [`small_structures`]) on which the two patterns
/// disagree, preferring one not on `table`. None if no small structure separates them.
pub fn separating(
    hidden: &Formula,
    guess: &Formula,
    set: PieceSet,
    table: &[Koan],
) -> Option<Counterexample> {
    let differs = |k: &&Koan| crate::lang::evaluate(hidden, k) != crate::lang::evaluate(guess, k);
    let all = small_structures(set);
    let found = all
        .iter()
        .filter(differs)
        .find(|k| !table.contains(k))
        .or_else(|| all.iter().find(differs))?;
    let obeys = crate::lang::evaluate(hidden, found);
    Some(Counterexample {
        koan: found.clone(),
        hidden: obeys,
        guess: !obeys,
    })
}

/// A stand-in finder: a small separating structure, or "equivalent" when there is
/// none (only right for patterns chosen so that small structures tell them apart).
pub fn small_search_verdict(job: &VerdictJob) -> Verdict {
    match separating(&job.hidden, &job.guessed, job.set, &job.table) {
        Some(ce) => Verdict::Counterexample(ce),
        None => Verdict::Equivalent,
    }
}

/// The first small structure that obeys `hidden` as asked.
fn first_where(hidden: &Formula, set: PieceSet, obeys: bool) -> Koan {
    small_structures(set)
        .iter()
        .find(|k| crate::lang::evaluate(hidden, k) == obeys)
        .cloned()
        .expect("a test pattern that small structures both obey and break")
}

fn initial(hidden: &Pattern, set: PieceSet) -> Initial {
    Initial {
        obeys: first_where(&hidden.formula, set, true),
        does_not: first_where(&hidden.formula, set, false),
    }
}

/// Alice against Bob, Alice with the advantage, default settings and timing.
pub fn duel_setup(hidden: Pattern) -> DuelSetup {
    let settings = Settings::default();
    DuelSetup {
        players: [ALICE, BOB],
        advantage: ALICE,
        initial: initial(&hidden, settings.set),
        hidden,
        settings,
        timing: Timing::default(),
        seed: 7,
    }
}

/// Alice practising alone.
pub fn practice_setup(hidden: Pattern) -> PracticeSetup {
    let settings = Settings::default();
    PracticeSetup {
        player: ALICE,
        initial: initial(&hidden, settings.set),
        hidden,
        settings,
        seed: 7,
    }
}

/// Choosing who starts, as a duel move.
pub fn choose(starter: PlayerId) -> DuelMove {
    DuelMove::Zendo(ZendoMove::ChooseStarter { starter })
}

/// `DuelMove::Build`.
pub fn build(koan: Koan, mode: Mode) -> DuelMove {
    DuelMove::Build { koan, mode }
}

/// `PracticeMove::Build`.
pub fn observe(koan: Koan) -> PracticeMove {
    PracticeMove::Build { koan }
}

/// `DuelMove::Answer`.
pub fn answer(answer: Answer) -> DuelMove {
    DuelMove::Answer { answer }
}

/// A guess of a pattern read from text, as a move of either game.
pub struct Guessing(pub Pattern);

impl From<Guessing> for duel::Action {
    fn from(g: Guessing) -> duel::Action {
        Action::Move(DuelMove::Guess { pattern: g.0 })
    }
}

impl From<Guessing> for practice::Action {
    fn from(g: Guessing) -> practice::Action {
        Action::Move(PracticeMove::Guess { pattern: g.0 })
    }
}

/// A guess of a pattern read from text.
#[track_caller]
pub fn guess(text: &str) -> Guessing {
    Guessing(parsed(text))
}

/// A match, a fake clock and the event log, played through the public API.
#[derive(Clone, Debug)]
pub struct Harness<G: Game> {
    pub game: G,
    /// The fake clock: tests move it with [`Harness::wait`].
    pub now: Millis,
    /// Every event so far, the created event first.
    pub log: Vec<Event<G::Event>>,
}

impl<G: Game> Harness<G> {
    /// A match created at time 0.
    #[track_caller]
    pub fn new(setup: G::Setup) -> Harness<G> {
        let (game, created) = G::start(setup, 0).expect("a valid test setup");
        Harness {
            game,
            now: 0,
            log: vec![created],
        }
    }

    /// Applies an action at the fake clock's time, keeping the events.
    pub fn act(
        &mut self,
        actor: Actor,
        action: impl Into<Action<G::Move, G::Deadline>>,
    ) -> Result<Vec<Event<G::Event>>, RuleError> {
        let events = self.game.play(&actor, &action.into(), self.now)?;
        self.log.extend(events.iter().cloned());
        Ok(events)
    }

    /// Applies a button press drawn at version `shown`.
    pub fn act_shown(
        &mut self,
        actor: Actor,
        action: impl Into<Action<G::Move, G::Deadline>>,
        shown: u64,
    ) -> Result<Vec<Event<G::Event>>, RuleError> {
        let events = self
            .game
            .play_shown(&actor, &action.into(), shown, self.now)?;
        self.log.extend(events.iter().cloned());
        Ok(events)
    }

    /// Applies an action that must be accepted.
    #[track_caller]
    pub fn ok(
        &mut self,
        actor: Actor,
        action: impl Into<Action<G::Move, G::Deadline>>,
    ) -> Vec<Event<G::Event>> {
        let action = action.into();
        let shown = format!("{action:?}");
        self.act(actor, action)
            .unwrap_or_else(|e| panic!("{shown} by {actor:?} was refused: {e}"))
    }

    pub fn wait(&mut self, ms: Millis) {
        self.now += ms;
    }

    /// Moves the clock to the next deadline and sends its time-out.
    #[track_caller]
    pub fn run_out(&mut self) -> Vec<Event<G::Event>> {
        let deadline = self.game.next_deadline().expect("a running deadline");
        self.now = self.now.max(deadline.at());
        self.ok(Actor::Umpire, Action::Timeout { deadline })
    }

    /// Rebuilds the match from its log after a round trip through JSON, as the store
    /// will.
    #[track_caller]
    pub fn replayed(&self) -> G {
        let text = serde_json::to_string(&self.log).expect("events serialise");
        let log: Vec<Event<G::Event>> = serde_json::from_str(&text).expect("events deserialise");
        G::replay(&log).expect("the log replays")
    }
}

/// The state rebuilt from the log (through JSON) is the state played.
#[track_caller]
pub fn assert_replays<G: Game>(h: &Harness<G>) {
    let played = serde_json::to_value(&h.game).expect("the state serialises");
    let replayed = serde_json::to_value(h.replayed()).expect("the state serialises");
    assert_eq!(played, replayed);
}

/// A two-player match ended as the fair-play rule ends it for the side in `idle` that
/// stopped playing (docs/ratings.md): a rated loss on time when it had acted before,
/// an aborted match (unrated) when it never had; and its log replays to it.
#[track_caller]
pub fn assert_idle_end<G: Game>(h: &Harness<G>, idle: Seat, acted: bool) {
    let players = h.game.players();
    let expected = if acted {
        rules::Finish::two(players, Some(1 - idle.index()))
    } else {
        rules::Finish::Unrated(rules::Why::Aborted {
            by: players[idle.index()],
        })
    };
    assert_eq!(
        h.game.finish(),
        Some(expected),
        "the idle side is in {idle:?}"
    );
    assert_replays(h);
}

impl Harness<duel::Duel> {
    /// A duel created at time 0.
    pub fn duel(setup: DuelSetup) -> Harness<duel::Duel> {
        Harness::new(setup)
    }
}

impl Harness<practice::Practice> {
    /// A practice match created at time 0.
    pub fn practice(setup: PracticeSetup) -> Harness<practice::Practice> {
        Harness::new(setup)
    }
}

impl<G: Zendo> Harness<G> {
    /// The umpire answers the official guess with the small-structure search.
    #[track_caller]
    pub fn umpire(&mut self) -> Vec<Event<G::Event>> {
        let job = self.game.verdict_job().expect("a guess awaiting a verdict");
        let verdict = small_search_verdict(&job);
        self.ok(Actor::Umpire, G::verdict_move(job.guess, verdict))
    }

    /// The umpire answers the official guess, which must be refuted by a structure new
    /// to the table; returns that counterexample.
    #[track_caller]
    pub fn umpire_refutes(&mut self) -> Counterexample {
        let events = self.umpire();
        match events
            .first()
            .and_then(|e| e.game())
            .and_then(G::zendo_event)
        {
            Some(ZendoEvent::Refuted {
                counterexample,
                on_table: None,
                ..
            }) => counterexample.clone(),
            _ => panic!("expected a new counterexample: {events:?}"),
        }
    }

    /// The umpire says it could not decide the official guess.
    #[track_caller]
    pub fn umpire_undecided(&mut self, reason: &str) -> Vec<Event<G::Event>> {
        let guess = self
            .game
            .awaited_guess()
            .expect("a guess awaiting a verdict");
        let verdict = Verdict::Undecided {
            reason: reason.to_string(),
        };
        self.ok(Actor::Umpire, G::verdict_move(guess, verdict))
    }

    /// A small structure not given yet that obeys (or not) the hidden pattern.
    pub fn fresh(&self, obeys: bool) -> Koan {
        let hidden = &self.game.hidden().formula;
        small_structures(self.game.settings().set)
            .iter()
            .find(|k| {
                self.game.table().find(k).is_none() && crate::lang::evaluate(hidden, k) == obeys
            })
            .cloned()
            .expect("small structures left")
    }
}

/// The Zendo events of a batch, in order.
pub fn zendo_events<G: Zendo>(events: &[Event<G::Event>]) -> Vec<&ZendoEvent> {
    events
        .iter()
        .filter_map(|e| e.game())
        .filter_map(G::zendo_event)
        .collect()
}

/// The duel's own events of a batch (shared events as `None`).
pub fn game_events<E>(events: &[Event<E>]) -> Vec<&rules::EventKind<E>> {
    events.iter().map(|e| &e.kind).collect()
}

/// Every event of a Zendo game in one flat enum, as the log reads (`"event": ...`):
/// tests match on it without spelling out the nesting of shared, game and Zendo events.
pub mod flat {
    use crate::finder::Counterexample;
    use crate::koan::Koan;
    use crate::lang::Pattern;
    use crate::rules::zendo::{Answer, Outcome, TurnEnd, Withdrawal};
    use crate::rules::{Millis, PlayerId, Seat};
    use serde::Deserialize;

    /// One event of the log, flat.
    #[derive(Clone, Debug, Deserialize)]
    #[serde(tag = "event", rename_all = "snake_case")]
    pub enum EventKind {
        DuelCreated {},
        PracticeCreated {},
        StarterChosen {
            starter: Seat,
        },
        TurnStarted {
            turn: u32,
            seat: Seat,
        },
        Observed {
            by: Seat,
            koan: Koan,
            obeys: bool,
        },
        ChallengeOpened {
            by: Seat,
            koan: Koan,
        },
        ChallengeAnswered {
            seat: Seat,
            answer: Option<Answer>,
        },
        /// (A duel's two answers.)
        ChallengeRevealed {
            answers: [Answer; 2],
            obeys: bool,
            time_up: bool,
        },
        Skipped {
            seat: Seat,
            time_up: bool,
        },
        GuessRead {
            number: u32,
            by: Seat,
            pattern: Pattern,
            reading: String,
            contradictions: Vec<u32>,
        },
        GuessConfirmed {
            number: u32,
        },
        GuessWithdrawn {
            number: u32,
            why: Withdrawal,
        },
        Refuted {
            number: u32,
            counterexample: Counterexample,
            on_table: Option<u32>,
        },
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
        ClockRebased {
            from: Millis,
            to: Millis,
        },
        MatchEnded {
            outcome: Outcome,
            pattern: String,
        },
    }

    /// An event, flat.
    pub fn flat<E: serde::Serialize>(kind: &crate::rules::EventKind<E>) -> EventKind {
        let json = serde_json::to_value(kind).expect("events serialise");
        serde_json::from_value(json).expect("every event has a flat twin")
    }

    /// The events of a batch, flat.
    pub fn kinds<E: serde::Serialize>(events: &[crate::rules::Event<E>]) -> Vec<EventKind> {
        events.iter().map(|e| flat(&e.kind)).collect()
    }
}
