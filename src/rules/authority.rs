//! The checks every request goes through, in boardgame.io's order, written once for
//! every game; the shared actions (host overrides, resigning, time-outs, downtime)
//! and their events; the emitter that folds events as it makes them; replay.
//!
//! **Authority, in this order**: the match is not over (`MatchOver`); the actor has
//! the action's role (`NotAPlayer`, `HostOnly`, `HostPlays`, `UmpireOnly`); a player
//! may act now (`Paused`, except to resign; then the game's turn rule, e.g.
//! `NotYourTurn`); the action fits the phase (the game's `WrongPhase`; for time-outs
//! `StaleDeadline` / `TooEarly`; `Unsupported` for a clock in a game without one); a
//! button's version is not stale (`StaleVersion`); then the rule itself.
//! `[checks_come_in_a_fixed_order]` in each game's tests, `[a_host_who_plays_has_no_overrides]`
//! here.

use super::{
    Action, Actor, Deadline, Event, EventKind, FoldError, Game, Millis, Role, RuleError, Who,
};

/// What a game without a clock says to pause, resume or downtime.
pub const NO_CLOCK: &str = "this game has no clock";

/// Checks `action` by `actor` against `game` and decides what happens (see the module
/// documentation for the order of the checks).
#[allow(clippy::type_complexity)]
pub fn decide<G: Game>(
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
        Action::Move(m) => game.rule(&mut out, who, m, now)?,
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
pub fn fold<G: Game>(game: &mut G, event: &Event<G::Event>) -> Result<(), FoldError> {
    game.ledger_mut().begin(event.at);
    match &event.kind {
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
            game.fold_game(e, event.at)?;
        }
    }
    game.sync_clocks(event.at);
    Ok(())
}

/// A match from its log: the created event (recognised by the game), then every other
/// event folded in order.
pub fn replay<'a, G: Game>(
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
