//! Fixtures for tests of the engine and of the layers above it (store, runtime,
//! fronts): patterns built without a parser, small structures, a counterexample
//! search over small structures standing in for the finder, ready-made setups, and a
//! harness that plays a match against a fake clock and keeps its event log.
//!
//! Not for production: the search here only looks at structures of one or two pieces
//! and would call "equivalent" two patterns that differ only on bigger ones. Tests
//! choose their patterns so that this cannot happen.

use super::{
    Action, Duel, DuelSetup, Event, Initial, Practice, PracticeSetup, Settings, Timing, Zendo,
};
use crate::finder::{Counterexample, Verdict};
use crate::koan::{Koan, PieceSet, enumerate};
use crate::lang::{Formula, Pattern};
use crate::rules::{Actor, Game, Millis, PlayerId, RuleError};
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
    table: &super::Table,
) -> Option<Counterexample> {
    let differs = |k: &&Koan| crate::lang::evaluate(hidden, k) != crate::lang::evaluate(guess, k);
    let all = small_structures(set);
    let found = all
        .iter()
        .filter(differs)
        .find(|k| table.find(k).is_none())
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
pub fn small_search_verdict(request: &super::VerdictRequest<'_>) -> Verdict {
    match separating(request.hidden, request.guessed, request.set, request.table) {
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

/// `Action::ChooseStarter`.
pub fn choose(starter: PlayerId) -> Action {
    Action::ChooseStarter { starter }
}

/// `Action::Build`.
pub fn build(koan: Koan, mode: super::Mode) -> Action {
    Action::Build { koan, mode }
}

/// `Action::Answer`.
pub fn answer(answer: super::Answer) -> Action {
    Action::Answer { answer }
}

/// `Action::Guess` of a pattern read from text.
#[track_caller]
pub fn guess(text: &str) -> Action {
    Action::Guess {
        pattern: parsed(text),
    }
}

/// A match, a fake clock and the event log, played through the public API.
#[derive(Clone, Debug)]
pub struct Harness<G> {
    pub game: G,
    /// The fake clock: tests move it with [`Harness::wait`].
    pub now: Millis,
    /// Every event so far, the created event first.
    pub log: Vec<Event>,
}

impl<G> Harness<G> {
    /// A match from its start (the game and its created event), at time 0.
    #[track_caller]
    pub fn begin(started: Result<(G, Event), crate::rules::SetupError>) -> Harness<G> {
        let (game, created) = started.expect("a valid test setup");
        Harness {
            game,
            now: 0,
            log: vec![created],
        }
    }
}

impl Harness<Duel> {
    /// A duel created at time 0.
    pub fn duel(setup: DuelSetup) -> Harness<Duel> {
        Harness::begin(Duel::start(setup, 0))
    }

    /// Moves the clock to the next deadline and sends its time-out.
    #[track_caller]
    pub fn run_out(&mut self) -> Vec<Event> {
        let deadline = self.game.next_deadline().expect("a running deadline");
        self.now = self.now.max(deadline.at);
        self.ok(Actor::Umpire, Action::Timeout { deadline })
    }

    /// Rebuilds the match from its log after a round trip through JSON, as the store
    /// will.
    pub fn replayed(&self) -> Duel {
        Duel::replay(&json_round_trip(&self.log)).expect("the log replays")
    }
}

impl Harness<Practice> {
    /// A practice match created at time 0.
    pub fn practice(setup: PracticeSetup) -> Harness<Practice> {
        Harness::begin(Practice::start(setup, 0))
    }

    /// Rebuilds the match from its log after a round trip through JSON.
    pub fn replayed(&self) -> Practice {
        Practice::replay(&json_round_trip(&self.log)).expect("the log replays")
    }
}

fn json_round_trip(log: &[Event]) -> Vec<Event> {
    let text = serde_json::to_string(log).expect("events serialise");
    serde_json::from_str(&text).expect("events deserialise")
}

impl<G: Zendo + Clone> Harness<G> {
    /// Applies an action at the fake clock's time, keeping the events.
    pub fn act(&mut self, actor: Actor, action: Action) -> Result<Vec<Event>, RuleError> {
        let events = self.game.play(&actor, &action, self.now)?;
        self.log.extend(events.iter().cloned());
        Ok(events)
    }

    /// Applies a button press drawn at version `shown`.
    pub fn act_shown(
        &mut self,
        actor: Actor,
        action: Action,
        shown: u64,
    ) -> Result<Vec<Event>, RuleError> {
        let events = self.game.play_shown(&actor, &action, shown, self.now)?;
        self.log.extend(events.iter().cloned());
        Ok(events)
    }

    /// Applies an action that must be accepted.
    #[track_caller]
    pub fn ok(&mut self, actor: Actor, action: Action) -> Vec<Event> {
        let shown = format!("{action:?}");
        self.act(actor, action)
            .unwrap_or_else(|e| panic!("{shown} by {actor:?} was refused: {e}"))
    }

    pub fn wait(&mut self, ms: Millis) {
        self.now += ms;
    }

    /// The umpire answers the official guess with the small-structure search.
    #[track_caller]
    pub fn umpire(&mut self) -> Vec<Event> {
        let (guess, verdict) = {
            let request = self
                .game
                .verdict_request()
                .expect("a guess awaiting a verdict");
            (request.guess, small_search_verdict(&request))
        };
        self.ok(Actor::Umpire, Action::Verdict { guess, verdict })
    }

    /// The umpire answers the official guess, which must be refuted by a structure new
    /// to the table; returns that counterexample.
    #[track_caller]
    pub fn umpire_refutes(&mut self) -> Counterexample {
        let events = self.umpire();
        match events.first().map(|e| &e.kind) {
            Some(super::EventKind::Refuted {
                counterexample,
                on_table: None,
                ..
            }) => counterexample.clone(),
            _ => panic!("expected a new counterexample: {events:?}"),
        }
    }

    /// The umpire says it could not decide the official guess.
    #[track_caller]
    pub fn umpire_undecided(&mut self, reason: &str) -> Vec<Event> {
        let guess = self
            .game
            .awaited_guess()
            .expect("a guess awaiting a verdict");
        let verdict = Verdict::Undecided {
            reason: reason.to_string(),
        };
        self.ok(Actor::Umpire, Action::Verdict { guess, verdict })
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
