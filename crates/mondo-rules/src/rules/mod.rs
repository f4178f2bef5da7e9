//! The games' rules as pure state machines, in the shape of boardgame.io.
//!
//! A match is a value. Every request goes through [`Game::decide`]
//! (`state + actor + action + now -> events or RuleError`), which checks authority in a
//! fixed order, once for every game (below), then hands the request to the game's own
//! rule. The state is the fold of its events ([`Game::fold`]): the store
//! persists events and rebuilds a match by folding them, without re-running the
//! finder or reading pools. Fronts never see the state, only `view(viewer)`, and the
//! events a viewer may see, redacted by the game ([`Game::visible`]).
//!
//! What every game shares is written here once: who acts ([`Actor`], [`Viewer`]), seats
//! ([`Seat`], [`BySeat`]), the version and phase [`Ledger`], the shared actions (host
//! overrides, resigning, time-outs, downtime: [`Action`]) and their events
//! ([`EventKind`]), the emitter and replay. Each game's folder holds only its own
//! phases, moves, events, fold, view and tests.
//!
//! **Authority, in this order**: the match is not over (`MatchOver`); the actor has
//! the action's role (`NotAPlayer`, `HostOnly`, `HostPlays`, `UmpireOnly`); a player
//! may act now (`Paused`, except to resign; then the game's turn rule, e.g.
//! `NotYourTurn`); the action fits the phase (the game's `WrongPhase`; for time-outs
//! `StaleDeadline` / `TooEarly`; `Unsupported` for a clock in a game without one); a
//! button's version is not stale (`StaleVersion`); then the rule itself.
//! `[checks_come_in_a_fixed_order]` in each game's tests, `[a_host_who_plays_has_no_overrides]`
//! in the duel's. The trait and the engine that calls it live together in this file: each
//! needs the other.
//!
//! No module here reads a clock: `now` (milliseconds since any fixed epoch) comes in
//! with every request, deadlines come out as data (`next_deadline()`), and a deadline
//! that passes comes back in as an action from the runtime.

pub mod challenge;
pub mod clock;
mod errors;
pub mod fair;
pub mod finish;
pub mod kind;
pub mod ledger;
pub mod seat;
pub mod secret;
pub mod section;
/// Declares a game, once, at the top of its folder: its rules (its [`Game`]), its kind,
/// whether it has clocks, and the types of its deadlines, work, setup, moves and events
/// (with the variant that creates a match). It implements [`GameTypes`] and [`Creates`]
/// for the game's rules; names them `Rules` and its requests `Action` (and, with
/// `log: Event`, its logged events `Event`) in the game's module; and writes a module
/// `types` of the game's with `Rules`, `Setup`, `Move` and `Event` under the names
/// every layer uses. Another crate can then write impls over each game's types (the
/// runtime's `From`s into its `Any*` enums), which it cannot over projections such as
/// `<Rules as Game>::Move`: coherence does not see through another crate's trait. The
/// move is checked at compile time to be what the game's `Game` says it is.
macro_rules! game_types {
    (
        $rules:ident: $kind:ident, clocked: $clocked:literal, deadline: $deadline:ty,
        work: $work:ty, $(log: $log:ident,)?
        setup: $setup:ident, moves: $move:ident, events: $event:ident :: $created:ident $(,)?
    ) => {
        /// This game's rules, as the registry names them.
        pub type Rules = $rules;
        /// What a front (or the runtime) asks of a match of this game.
        pub type Action = $crate::rules::Action<$move, $deadline>;
        $(
            /// What a match's log holds.
            pub type $log = $crate::rules::Event<$event>;
        )?

        impl $crate::rules::GameTypes for $rules {
            const KIND: $crate::rules::GameKind = $crate::rules::GameKind::$kind;
            const CLOCKED: bool = $clocked;
            type Setup = $setup;
            type Event = $event;
            type Deadline = $deadline;
            type Work = $work;
        }

        $crate::rules::creates!($event::$created, $setup);

        /// This game's types under the names every layer uses (see `rules::game_types!`).
        pub mod types {
            use $crate::rules::Game;
            pub type Rules = super::$rules;
            pub type Setup = super::$setup;
            pub type Move = super::$move;
            pub type Event = super::$event;
            const _: fn(<Rules as Game>::Move) -> Move = |x| x;
        }
    };
}
pub(crate) use game_types;

// Each game's module here (`pub mod <folder>;`), from the registry's lines marked `mod`.
crate::registry::game_modules!();

pub use clock::{Clock, Millis};
pub use errors::{ErrorCode, FoldError, RuleError, SetupError};
pub use finish::{Finish, Why};
pub use kind::{GameKind, UnknownGame};
pub use ledger::Ledger;
pub use seat::{BySeat, PlayerId, Seat};
pub use secret::Secret;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Who asks for an action. Fronts establish identity (a host is someone with the
/// server's host permission); the engine decides what each role may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// Someone acting as a player (refused unless they play in this match).
    Player(PlayerId),
    /// A host using an override (pause, resume, end, and a game's own, such as
    /// disallowing a Zendo guess). A host who plays in the match has no overrides in it.
    Host(PlayerId),
    /// The runtime: the umpire's verdicts, time-outs, restarts.
    Umpire,
}

/// Who looks at a match. Hosts look as spectators: nobody sees a secret before the
/// end, not even the people running the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    Player(PlayerId),
    Spectator,
}

/// Which kind of actor an action is for; checked second, after "the match is not
/// over".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Player,
    Host,
    Umpire,
    /// Anyone, seated or not: a match still gathering its players (a lobby's
    /// *Join*), where the rule itself says who may.
    Anyone,
}

/// Who is acting, once the role check has passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Player(Seat),
    Host(PlayerId),
    /// Someone not seated, for a move anyone may make ([`Role::Anyone`]).
    Newcomer(PlayerId),
    Umpire,
}

/// The work of a game whose umpire judges at once: there is none.
#[derive(Debug)]
pub enum NoWork {}

impl NoWork {
    /// What performing it gives: nothing can, as there is no work to perform.
    pub fn never<T>(self) -> T {
        match self {}
    }
}

/// What a game's own moves say about themselves.
pub trait Move {
    /// Who may make it.
    fn role(&self) -> Role;
    /// For refusals: what only a host or the umpire may do ("disallow a guess").
    fn describe(&self) -> &'static str;
}

/// A moment at which something happens unless the players act first.
pub trait Deadline {
    /// When it passes.
    fn at(&self) -> Millis;
    /// The same deadline (what happens when it passes may have changed meanwhile).
    fn is(&self, other: &Self) -> bool;
}

/// Something a front (or the runtime) asks of a match: a game's own move, or one of
/// the requests every game answers the same way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action<M, D> {
    /// Host: stop the clocks and the match until resumed (clocked games only).
    Pause,
    /// Host: the clocks go on with the time they had.
    Resume,
    /// Host: end the match with no winner; its secrets are revealed.
    End,
    /// A player gives up (what follows is the game's rule).
    Resign,
    /// Umpire: a deadline from `next_deadline()` has passed.
    Timeout { deadline: D },
    /// Umpire, after a restart: the process was down since `since`; that time is not
    /// counted against anyone.
    Downtime { since: Millis },
    /// The game's own move.
    #[serde(untagged)]
    Move(M),
}

impl<M: Move, D> Action<M, D> {
    pub fn role(&self) -> Role {
        match self {
            Action::Pause | Action::Resume | Action::End => Role::Host,
            Action::Resign => Role::Player,
            Action::Timeout { .. } | Action::Downtime { .. } => Role::Umpire,
            Action::Move(m) => m.role(),
        }
    }

    /// For error messages: what only a host or the umpire may do.
    pub fn describe(&self) -> &'static str {
        match self {
            Action::Pause => "pause the match",
            Action::Resume => "resume the match",
            Action::End => "end the match",
            Action::Resign => "resign",
            Action::Timeout { .. } => "call time",
            Action::Downtime { .. } => "account for downtime",
            Action::Move(m) => m.describe(),
        }
    }
}

impl<M: Move, D> From<M> for Action<M, D> {
    fn from(m: M) -> Action<M, D> {
        Action::Move(m)
    }
}

/// What happened, at `at`. The state is the fold of its events.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event<E> {
    pub at: Millis,
    #[serde(flatten)]
    pub kind: EventKind<E>,
}

impl<E> Event<E> {
    /// The game's own event, if this is one.
    pub fn game(&self) -> Option<&E> {
        match &self.kind {
            EventKind::Game(e) => Some(e),
            _ => None,
        }
    }
}

/// The events every game shares (host overrides and clock bookkeeping), and the
/// game's own. In the log they read alike: `{"at": .., "event": "paused", ..}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EventKind<E> {
    Paused {
        by: PlayerId,
    },
    Resumed {
        by: PlayerId,
    },
    /// The time from `from` to `to` (the process was down) is not counted.
    ClockRebased {
        from: Millis,
        to: Millis,
    },
    /// Right after the created event: `by` chose the match's setup (its seed, a named
    /// pattern, a pool). A player who did makes the match unrated; a host who does
    /// not play may ([`Game::result`]).
    SetupChosen {
        by: PlayerId,
    },
    #[serde(untagged)]
    Game(E),
}

impl<E> From<E> for EventKind<E> {
    fn from(e: E) -> EventKind<E> {
        EventKind::Game(e)
    }
}

/// A game's own events: one of them creates a match from its whole setup (the first
/// event of its log). Each game implements it with [`creates!`].
pub trait Creates<S> {
    /// The event that creates a match from `setup`.
    fn created(setup: S) -> Self;
    /// The setup, if this is the created event.
    fn setup(&self) -> Option<&S>;
}

/// Lends a game's `seating` field to the engine, in its `impl Game`:
/// [`Game::seating`] and [`Game::seating_mut`] (every game keeps its [`Seating`] so).
macro_rules! seating {
    () => {
        fn seating(&self) -> &$crate::rules::Seating {
            &self.seating
        }

        fn seating_mut(&mut self) -> &mut $crate::rules::Seating {
            &mut self.seating
        }
    };
}
pub(crate) use seating;

/// Implements [`Deadline`] for a game's deadline struct that passes at its `at` field
/// and is the same deadline only when equal in every field (its stage, round or turn
/// too): `deadline!(Deadline);`.
macro_rules! deadline {
    ($deadline:ty) => {
        impl $crate::rules::Deadline for $deadline {
            fn at(&self) -> $crate::rules::Millis {
                self.at
            }

            fn is(&self, other: &$deadline) -> bool {
                self == other
            }
        }
    };
}
pub(crate) use deadline;

/// Implements [`Creates`] for a game's event enum whose created variant holds the
/// setup (boxed or not) in a `setup` field, as the log has always written it:
/// `creates!(DuelEvent::DuelCreated, DuelSetup);`.
macro_rules! creates {
    ($event:ident :: $variant:ident, $setup:ty) => {
        impl $crate::rules::Creates<$setup> for $event {
            fn created(setup: $setup) -> $event {
                $event::$variant {
                    setup: setup.into(),
                }
            }

            fn setup(&self) -> Option<&$setup> {
                match self {
                    $event::$variant { setup } => Some(::std::borrow::Borrow::borrow(setup)),
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use creates;

/// What every match holds the same way: its ledger, who sits where, and the seed that
/// fixes everything random in it. A game keeps one and lends it to the trait
/// ([`Game::seating`]), which reads the rest from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seating {
    pub ledger: Ledger,
    /// The players, in seat order.
    pub players: BySeat<PlayerId>,
    pub seed: u64,
    /// Who chose the setup, when someone did ([`EventKind::SetupChosen`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup_by: Option<PlayerId>,
    /// The seats that made a move of their own ([`Game::acted_by`]), in seat order.
    #[serde(default)]
    pub acted: Vec<bool>,
}

impl Seating {
    /// A match created at `now` (its ledger at version 1).
    pub fn new(now: Millis, players: impl Into<BySeat<PlayerId>>, seed: u64) -> Seating {
        Seating {
            ledger: Ledger::new(now),
            players: players.into(),
            seed,
            setup_by: None,
            acted: Vec::new(),
        }
    }

    /// Whether the player in `seat` has made a move of their own.
    pub fn has_acted(&self, seat: Seat) -> bool {
        self.acted.get(seat.index()).copied().unwrap_or(false)
    }

    /// Whether a player of the match chose its setup: who, if so.
    pub fn chosen_by_player(&self) -> Option<PlayerId> {
        self.setup_by
            .filter(|by| self.players.values().contains(by))
    }

    fn mark_acted(&mut self, seat: Seat) {
        let n = self.players.values().len();
        if self.acted.len() < n {
            self.acted.resize(n, false);
        }
        if let Some(a) = self.acted.get_mut(seat.index()) {
            *a = true;
        }
    }
}

/// A game's kind and what its log and its clocks are made of, declared once at the top
/// of the game's folder by [`game_types!`] (with the `types` module and the created
/// event). The store, the runtime and the engine read them through [`Game`].
pub trait GameTypes {
    /// The kind stored with its matches.
    const KIND: GameKind;
    /// Whether it has clocks (pause, resume and downtime mean something).
    const CLOCKED: bool;
    /// Everything a match starts from; it travels in the created event, so a replay
    /// needs nothing else.
    type Setup: Clone + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// The game's own events (the created event among them: see [`creates!`]).
    type Event: Creates<Self::Setup>
        + Clone
        + fmt::Debug
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static;
    type Deadline: Deadline + Copy + fmt::Debug + PartialEq + Send + Sync + 'static;
    /// The umpire's slow work (the finder), owned: it moves to another thread.
    type Work: Send + 'static;
}

/// A game's rules: what the shared engine (the ordered checks below) needs of it. A game
/// implements the hooks; fronts, the runtime and tests call the provided methods
/// (`start`, `replay`, `decide`, `play`, `fold`, `visible`).
pub trait Game: GameTypes + Clone + fmt::Debug + Serialize + Send + Sync + Sized + 'static {
    /// The game's own moves.
    type Move: Move + Clone + fmt::Debug + Send + Sync + 'static;
    /// What a viewer is shown.
    type View: Clone + fmt::Debug + Send + 'static;

    // ---- Setting up

    /// Checks a setup and lays out the match as it starts (its ledger at version 1).
    fn from_setup(setup: &Self::Setup, now: Millis) -> Result<Self, SetupError>;
    /// The event that creates a match from its setup (the first of its log).
    fn created(setup: Self::Setup) -> Self::Event {
        <Self::Event as Creates<Self::Setup>>::created(setup)
    }
    /// The setup inside a created event.
    fn setup_of(event: &Self::Event) -> Option<&Self::Setup> {
        event.setup()
    }

    // ---- What every match has

    /// Its ledger, players and seed.
    fn seating(&self) -> &Seating;
    fn seating_mut(&mut self) -> &mut Seating;
    fn ledger(&self) -> &Ledger {
        &self.seating().ledger
    }
    fn ledger_mut(&mut self) -> &mut Ledger {
        &mut self.seating_mut().ledger
    }
    /// The players, in seat order.
    fn players(&self) -> &[PlayerId] {
        self.seating().players.values()
    }
    fn is_over(&self) -> bool;
    /// What the match counts for once it is over by the game's own rules (the fair-play
    /// rule, `fair.rs`, applied to its sides); `None` while it is not. Everyone else
    /// reads [`Game::result`].
    fn finish(&self) -> Option<Finish>;
    /// The seat whose own move this event records, if it records one (resigning is
    /// not a move): what [`Seating::has_acted`] counts, for the fair-play rule.
    /// Asked of the state the event is folded into.
    fn acted_by(&self, _event: &Self::Event) -> Option<Seat> {
        None
    }
    /// What the match counts for (ratings, records): its [`Game::finish`], unrated
    /// when a player of it chose its setup. `None` while it is not over.
    fn result(&self) -> Option<Finish> {
        let finish = self.finish()?;
        match (self.seating().chosen_by_player(), &finish) {
            (Some(by), Finish::Placed { .. }) => Some(Finish::Unrated(Why::SetupChosen { by })),
            _ => Some(finish),
        }
    }
    /// Whether the match would be rated, as it stands: `Err(why)` when it cannot be
    /// (what its start says).
    fn rated(&self) -> Result<(), Why> {
        match self.seating().chosen_by_player() {
            Some(by) => Err(Why::SetupChosen { by }),
            None => Ok(()),
        }
    }
    /// Each of two sides' points, for a game that keeps a running score (a
    /// tournament's game score); none for a game that does not.
    fn score(&self) -> Option<[i64; 2]> {
        None
    }
    /// Fixes everything random in the match.
    fn seed(&self) -> u64 {
        self.seating().seed
    }
    /// The settings listed beside the match in the store (JSON).
    fn listed_settings(&self) -> serde_json::Value;

    // ---- The ordered checks' game-specific steps (see [`decide`])

    /// Check 3: a seated player may make this move now (their turn, their choice).
    /// Pauses are checked before, by the engine.
    fn check_turn(&self, seat: Seat, m: &Self::Move) -> Result<(), RuleError>;
    /// Check 4: the move fits the current phase.
    fn check_phase(&self, m: &Self::Move, now: Millis) -> Result<(), RuleError>;
    /// Check 6: the rule itself, and what it makes happen (at `out.at()`: the request's
    /// `now`, never before the match's last event).
    fn rule(&self, out: &mut Emitter<Self>, who: Who, m: &Self::Move) -> Result<(), RuleError>;
    /// A seated player resigns (at any time, paused or not, in turn or not).
    fn resign(&self, out: &mut Emitter<Self>, seat: Seat) -> Result<(), RuleError>;
    /// A host ends the match: no winner, the secrets revealed.
    fn end(&self, out: &mut Emitter<Self>, by: PlayerId);
    /// A deadline passed (checked current and due by the engine).
    fn time_out(&self, out: &mut Emitter<Self>, deadline: Self::Deadline);
    /// The next moment at which something happens by itself, if any (none while
    /// paused).
    fn next_deadline(&self) -> Option<Self::Deadline>;

    // ---- Folding

    /// The state after one more of the game's own events (the ledger has counted it).
    fn fold_game(&mut self, event: &Self::Event, at: Millis) -> Result<(), FoldError>;
    /// The process was down from `from` to `to`: running clocks skip that time.
    fn skip_downtime(&mut self, from: Millis, to: Millis);
    /// Starts and stops the clocks to match the phase and the ledger's pause, at `at`
    /// (after every event).
    fn sync_clocks(&mut self, at: Millis);

    // ---- What viewers see

    /// What `viewer` may see: never a secret before its time.
    fn view(&self, viewer: &Viewer) -> Self::View;
    /// The event as `viewer` may hear it: as it is, with its secret taken out ("an
    /// answer is in"), or not at all (the created event, which holds the secrets).
    fn redact(&self, event: &Self::Event, viewer: &Viewer) -> Option<Self::Event>;
    /// What `viewer` may not know yet, now: the seed, hidden patterns, the grid
    /// outside a reveal, tiles, points, private answers, statements not yet shown
    /// (nothing once all is revealed). No line or message a front makes for the viewer
    /// may give one away; the secrecy test checks it for every game, which is why a
    /// game must declare them to be playable.
    fn secrets(&self, viewer: &Viewer) -> Vec<Secret>;

    // ---- The umpire's slow work

    /// The work the match waits for, with a key naming it (the same work keeps its
    /// key, so it is started once). None for a game whose umpire judges at once
    /// (its work is [`NoWork`]).
    fn work(&self) -> Option<(u64, Self::Work)> {
        None
    }
    /// Does the work (on a blocking thread) and says the result as a move by the
    /// umpire. Should answer soon after `stop` is raised.
    fn perform(work: Self::Work, stop: Arc<AtomicBool>) -> Self::Move;
    /// The move that reports work `key` as failed, so the match does not wait forever
    /// (none for a game with no work).
    fn abandon(_key: u64, _reason: &str) -> Option<Self::Move> {
        None
    }

    // ---- Provided: how everyone calls a game

    /// Checks a setup: the new match and the event that creates it.
    fn start(setup: Self::Setup, now: Millis) -> Result<(Self, Event<Self::Event>), SetupError> {
        let game = Self::from_setup(&setup, now)?;
        let created = Event {
            at: now,
            kind: EventKind::Game(Self::created(setup)),
        };
        Ok((game, created))
    }

    /// [`Game::start`], with the setup chosen by `by` (a player, or a host who does not
    /// play): the created event, then [`EventKind::SetupChosen`].
    #[allow(clippy::type_complexity)]
    fn start_by(
        setup: Self::Setup,
        now: Millis,
        by: Option<PlayerId>,
    ) -> Result<(Self, Vec<Event<Self::Event>>), SetupError> {
        let (mut game, created) = Self::start(setup, now)?;
        let mut events = vec![created];
        if let Some(by) = by {
            let chosen = Event {
                at: now,
                kind: EventKind::SetupChosen { by },
            };
            game.fold(&chosen)
                .map_err(|e| SetupError::Invalid(e.to_string()))?;
            events.push(chosen);
        }
        Ok((game, events))
    }

    /// The match as its log says: the created event, then everything else in order.
    fn replay<'a>(
        events: impl IntoIterator<Item = &'a Event<Self::Event>>,
    ) -> Result<Self, FoldError> {
        replay(events)
    }

    /// Checks the request in the fixed order and decides what happens: the events and
    /// the state they lead to. `shown` is the version a button was drawn at (typed
    /// commands have none).
    #[allow(clippy::type_complexity)]
    fn decide(
        &self,
        actor: &Actor,
        action: &Action<Self::Move, Self::Deadline>,
        shown: Option<u64>,
        now: Millis,
    ) -> Result<(Vec<Event<Self::Event>>, Self), RuleError> {
        decide(self, actor, action, shown, now)
    }

    /// The state after one more event.
    fn fold(&mut self, event: &Event<Self::Event>) -> Result<(), FoldError> {
        fold(self, event)
    }

    /// Applies a typed command and moves to the resulting state.
    fn play(
        &mut self,
        actor: &Actor,
        action: &Action<Self::Move, Self::Deadline>,
        now: Millis,
    ) -> Result<Vec<Event<Self::Event>>, RuleError> {
        let (events, next) = self.decide(actor, action, None, now)?;
        *self = next;
        Ok(events)
    }

    /// Applies a button press drawn at version `shown` and moves to the resulting
    /// state.
    fn play_shown(
        &mut self,
        actor: &Actor,
        action: &Action<Self::Move, Self::Deadline>,
        shown: u64,
        now: Millis,
    ) -> Result<Vec<Event<Self::Event>>, RuleError> {
        let (events, next) = self.decide(actor, action, Some(shown), now)?;
        *self = next;
        Ok(events)
    }

    /// A typed command's events, without moving on.
    fn apply(
        &self,
        actor: &Actor,
        action: &Action<Self::Move, Self::Deadline>,
        now: Millis,
    ) -> Result<Vec<Event<Self::Event>>, RuleError> {
        self.decide(actor, action, None, now).map(|(e, _)| e)
    }

    /// Counts events: every accepted action emits at least one.
    fn version(&self) -> u64 {
        self.ledger().version
    }

    fn is_paused(&self) -> bool {
        self.ledger().paused
    }

    /// The seat of a player, if they play here.
    fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        self.players()
            .iter()
            .position(|p| *p == player)
            .map(|i| Seat(i as u8))
    }

    /// The player in a seat.
    fn player(&self, seat: Seat) -> PlayerId {
        self.players()[seat.index()]
    }

    /// The seat of a viewer who plays here.
    fn viewer_seat(&self, viewer: &Viewer) -> Option<Seat> {
        match viewer {
            Viewer::Player(id) => self.seat_of(*id),
            Viewer::Spectator => None,
        }
    }

    /// A logged event as `viewer` may hear it (the shared events are public).
    fn visible(&self, event: &Event<Self::Event>, viewer: &Viewer) -> Option<Event<Self::Event>> {
        match &event.kind {
            EventKind::Game(e) => self.redact(e, viewer).map(|e| Event {
                at: event.at,
                kind: EventKind::Game(e),
            }),
            _ => Some(event.clone()),
        }
    }
}

/// What a game without a clock says to pause, resume or downtime.
const NO_CLOCK: &str = "this game has no clock";

/// Checks `action` by `actor` against `game` and decides what happens (see the module
/// documentation for the order of the checks).
#[allow(clippy::type_complexity)]
fn decide<G: Game>(
    game: &G,
    actor: &Actor,
    action: &Action<G::Move, G::Deadline>,
    shown: Option<u64>,
    now: Millis,
) -> Result<(Vec<Event<G::Event>>, G), RuleError> {
    // Time never runs backwards for a match.
    let now = game.ledger().now(now);
    // 1. The match is not over.
    if game.is_over() {
        return Err(RuleError::MatchOver);
    }
    // 2. The actor has the action's role.
    let who = authorise(game, actor, action)?;
    // 3. A player may act now.
    if let Who::Player(seat) = who {
        match action {
            Action::Resign => {}
            _ if game.is_paused() => return Err(RuleError::Paused),
            Action::Move(m) => game.check_turn(seat, m)?,
            _ => {}
        }
    }
    // 4. The action fits the phase.
    check_phase(game, action, now)?;
    // 5. A button's version is not stale.
    game.ledger().check_shown(shown)?;
    // 6. The rule itself.
    let mut out = Emitter::new(game, now);
    match action {
        Action::Move(m) => game.rule(&mut out, who, m)?,
        Action::Pause | Action::Resume | Action::End => {
            let Who::Host(by) = who else {
                return Err(RuleError::HostOnly(action.describe()));
            };
            match action {
                Action::Pause => out.emit(EventKind::Paused { by }),
                Action::Resume => out.emit(EventKind::Resumed { by }),
                _ => game.end(&mut out, by),
            }
        }
        Action::Resign => {
            let Who::Player(seat) = who else {
                return Err(RuleError::NotAPlayer);
            };
            game.resign(&mut out, seat)?;
        }
        Action::Timeout { deadline } => game.time_out(&mut out, *deadline),
        Action::Downtime { since } => out.emit(EventKind::ClockRebased {
            from: (*since).clamp(game.ledger().last_at, now),
            to: now,
        }),
    }
    Ok(out.finish())
}

/// Check 2: who the actor is, for this action.
fn authorise<G: Game>(
    game: &G,
    actor: &Actor,
    action: &Action<G::Move, G::Deadline>,
) -> Result<Who, RuleError> {
    match (action.role(), actor) {
        (Role::Player, Actor::Player(id)) => game
            .seat_of(*id)
            .map(Who::Player)
            .ok_or(RuleError::NotAPlayer),
        (Role::Player, _) => Err(RuleError::NotAPlayer),
        // A host who plays would be the judge of their own match.
        (Role::Host, Actor::Host(id)) if game.seat_of(*id).is_some() => {
            Err(RuleError::HostPlays(action.describe()))
        }
        (Role::Host, Actor::Host(id)) => Ok(Who::Host(*id)),
        (Role::Host, _) => Err(RuleError::HostOnly(action.describe())),
        (Role::Umpire, Actor::Umpire) => Ok(Who::Umpire),
        (Role::Umpire, _) => Err(RuleError::UmpireOnly(action.describe())),
        // A host acts as a host (seated or not); a player by their seat, if they have
        // one; the rule says what each may do.
        (Role::Anyone, Actor::Host(id)) => Ok(Who::Host(*id)),
        (Role::Anyone, Actor::Player(id)) => {
            Ok(game.seat_of(*id).map_or(Who::Newcomer(*id), Who::Player))
        }
        (Role::Anyone, Actor::Umpire) => Ok(Who::Umpire),
    }
}

/// Check 4 for the shared actions; the game's own for its moves.
fn check_phase<G: Game>(
    game: &G,
    action: &Action<G::Move, G::Deadline>,
    now: Millis,
) -> Result<(), RuleError> {
    let paused = game.is_paused();
    match action {
        Action::Move(m) => game.check_phase(m, now),
        Action::Pause | Action::Resume | Action::Downtime { .. } if !G::CLOCKED => {
            Err(RuleError::Unsupported(NO_CLOCK))
        }
        Action::Pause if paused => Err(RuleError::WrongPhase("the match is already paused")),
        Action::Resume if !paused => Err(RuleError::WrongPhase("the match is not paused")),
        Action::Timeout { deadline } => match game.next_deadline() {
            Some(d) if d.is(deadline) && now < d.at() => Err(RuleError::TooEarly { at: d.at() }),
            Some(d) if d.is(deadline) => Ok(()),
            _ => Err(RuleError::StaleDeadline),
        },
        Action::Pause | Action::Resume | Action::End | Action::Resign | Action::Downtime { .. } => {
            Ok(())
        }
    }
}

/// The state after one more event: the ledger counts it, the shared events are
/// folded here, the game's own by the game; then the clocks follow the phase.
fn fold<G: Game>(game: &mut G, event: &Event<G::Event>) -> Result<(), FoldError> {
    game.ledger_mut().begin(event.at);
    match &event.kind {
        EventKind::SetupChosen { by } => {
            if game.ledger().version > 2 {
                return Err(game
                    .ledger()
                    .misfit("a setup is chosen only at the creation"));
            }
            game.seating_mut().setup_by = Some(*by);
        }
        EventKind::Paused { .. } | EventKind::Resumed { .. } | EventKind::ClockRebased { .. }
            if !G::CLOCKED =>
        {
            return Err(game.ledger().misfit("this game has no clock"));
        }
        EventKind::Paused { .. } => game.ledger_mut().paused = true,
        EventKind::Resumed { .. } => game.ledger_mut().paused = false,
        EventKind::ClockRebased { from, to } => game.skip_downtime(*from, *to),
        EventKind::Game(e) => {
            if G::setup_of(e).is_some() {
                return Err(game.ledger().misfit("a match is created only once"));
            }
            let actor = game.acted_by(e);
            game.fold_game(e, event.at)?;
            if let Some(seat) = actor {
                game.seating_mut().mark_acted(seat);
            }
        }
    }
    game.sync_clocks(event.at);
    Ok(())
}

/// A match from its log: the created event (recognised by the game), then every other
/// event folded in order.
fn replay<'a, G: Game>(
    events: impl IntoIterator<Item = &'a Event<G::Event>>,
) -> Result<G, FoldError> {
    let mut events = events.into_iter();
    let misfit = |reason: String| FoldError { version: 1, reason };
    let first = events
        .next()
        .ok_or_else(|| misfit("the log is empty".into()))?;
    let setup = first.game().and_then(G::setup_of).ok_or_else(|| {
        misfit(format!(
            "the log does not start with the creation of a {} match",
            G::KIND.title()
        ))
    })?;
    let mut game = G::from_setup(setup, first.at).map_err(|e| misfit(e.to_string()))?;
    for event in events {
        game.fold(event)?;
    }
    Ok(game)
}

/// Emits events while folding each into a copy of the state, so that a decision made
/// after an event sees its effects, exactly as a replay of the log will.
pub struct Emitter<G: Game> {
    next: G,
    events: Vec<Event<G::Event>>,
    at: Millis,
}

impl<G: Game> Emitter<G> {
    pub fn new(state: &G, at: Millis) -> Emitter<G> {
        Emitter {
            next: state.clone(),
            events: Vec::new(),
            at,
        }
    }

    /// The state after the events emitted so far.
    pub fn next(&self) -> &G {
        &self.next
    }

    /// When the events happen.
    pub fn at(&self) -> Millis {
        self.at
    }

    pub fn emit(&mut self, kind: impl Into<EventKind<G::Event>>) {
        let event = Event {
            at: self.at,
            kind: kind.into(),
        };
        self.next
            .fold(&event)
            .expect("an event the engine made fits the state it was made for");
        self.events.push(event);
    }

    pub fn finish(self) -> (Vec<Event<G::Event>>, G) {
        (self.events, self.next)
    }
}
