//! The games' rules as pure state machines, in the shape of boardgame.io.
//!
//! A match is a value. Every request goes through
//! `apply(&state, actor, action, now) -> Result<Vec<Event>, RuleError>`, which checks
//! authority in a fixed order (match not over, actor's role, actor may act now, action
//! allowed in this phase, shown version not stale, then the rule itself) and either
//! refuses with a [`RuleError`] that has a stable [`ErrorCode`], or says what happened
//! as events. The state is the fold of its events (`state.fold(&event)`): the store
//! persists events and rebuilds a match by folding them, without re-running the
//! finder or reading pools. Fronts never see the state, only `view(viewer)`, which
//! hides the hidden pattern and unrevealed challenge answers.
//!
//! No module here reads a clock: `now` (milliseconds since any fixed epoch) comes in
//! with every request, deadlines come out as data (`next_deadline()`), and a deadline
//! that passes comes back in as an action from the runtime.

pub mod clock;
mod errors;
pub mod zendo;

pub use clock::{Clock, Millis};
pub use errors::{ErrorCode, FoldError, RuleError, SetupError};

use serde::{Deserialize, Serialize};
use std::fmt;

/// A player as the fronts know them: a Discord user id, or a local number in the
/// terminal. Names are the fronts' business.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub u64);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.0)
    }
}

/// Who asks for an action. Fronts establish identity (a host is someone with the
/// server's host permission); the engine decides what each role may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// Someone acting as a player (refused unless they play in this match).
    Player(PlayerId),
    /// A host using an override (pause, resume, disallow a guess, end the match).
    Host(PlayerId),
    /// The runtime: finder verdicts, time-outs, restarts.
    Umpire,
}

/// Who looks at a match. Hosts look as spectators: nobody sees the hidden pattern
/// before the end, not even the people running the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    Player(PlayerId),
    Spectator,
}

/// What every game's state machine offers the runtime and the store.
///
/// Only `decide` and `fold` carry rules; the provided methods are the ways to call
/// them. `decide` returns the events together with the state they lead to (it folds
/// each event into a copy as it emits it, so later decisions in the same request see
/// earlier events' effects, exactly as a replay will).
pub trait Game: Sized {
    type Action;
    type Event;
    type View;
    type Deadline;

    /// Checks the request in the fixed order and decides what happens.
    /// `shown` is the version a button was drawn at (typed commands have none).
    fn decide(
        &self,
        actor: &Actor,
        action: &Self::Action,
        shown: Option<u64>,
        now: Millis,
    ) -> Result<(Vec<Self::Event>, Self), RuleError>;

    /// The state after one more event.
    fn fold(&mut self, event: &Self::Event) -> Result<(), FoldError>;

    /// What `viewer` may see. Never the hidden pattern before the end, never another
    /// player's unrevealed answer.
    fn view(&self, viewer: &Viewer) -> Self::View;

    /// Counts events: every accepted action emits at least one.
    fn version(&self) -> u64;

    /// The next moment at which something happens by itself, if any.
    fn next_deadline(&self) -> Option<Self::Deadline>;

    fn is_over(&self) -> bool;

    /// Whether an event may be announced verbatim to `viewer` (events holding a secret,
    /// such as the hidden pattern or a challenge answer, are not).
    fn is_visible(&self, event: &Self::Event, viewer: &Viewer) -> bool;

    /// A typed command: the events it causes, or why it is refused.
    fn apply(
        &self,
        actor: &Actor,
        action: &Self::Action,
        now: Millis,
    ) -> Result<Vec<Self::Event>, RuleError> {
        self.decide(actor, action, None, now)
            .map(|(events, _)| events)
    }

    /// A button press drawn at version `shown`.
    fn apply_shown(
        &self,
        actor: &Actor,
        action: &Self::Action,
        shown: u64,
        now: Millis,
    ) -> Result<Vec<Self::Event>, RuleError> {
        self.decide(actor, action, Some(shown), now)
            .map(|(events, _)| events)
    }

    /// Applies a typed command and moves to the resulting state.
    fn play(
        &mut self,
        actor: &Actor,
        action: &Self::Action,
        now: Millis,
    ) -> Result<Vec<Self::Event>, RuleError> {
        let (events, next) = self.decide(actor, action, None, now)?;
        *self = next;
        Ok(events)
    }

    /// Applies a button press drawn at version `shown` and moves to the resulting state.
    fn play_shown(
        &mut self,
        actor: &Actor,
        action: &Self::Action,
        shown: u64,
        now: Millis,
    ) -> Result<Vec<Self::Event>, RuleError> {
        let (events, next) = self.decide(actor, action, Some(shown), now)?;
        *self = next;
        Ok(events)
    }
}
