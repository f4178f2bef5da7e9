//! Matches between [`Ai`]s in virtual time, for `mondo bench ai` and the AIs' tests:
//! the match's own rules, its deadlines played as the runtime plays them, each AI
//! asked with its player's view after every change, its plan made when its delay has
//! run out on the game clock (which jumps from one moment to the next: no waiting).
//!
//! Pure like the rest of the module: the caller passes `tick`, a clock of its own in
//! nanoseconds, and gets the time each AI took to think per call.

use super::{Ai, Millis};
use crate::rules::{Action, Actor, Game, PlayerId, Viewer};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// An AI for a seat of game `G`.
pub type Mind<'a, G> = Box<dyn Ai<View = <G as Game>::View, Move = <G as Game>::Move> + 'a>;

/// A match played out.
pub struct Played<G: Game> {
    pub game: G,
    /// The events the match made after its start, in order (what the store appends).
    pub events: Vec<crate::rules::Event<G::Event>>,
    /// Nanoseconds of each call to an AI, by seat.
    pub think_ns: Vec<Vec<u64>>,
    /// Moves made, and moves the rules refused.
    pub moves: usize,
    pub refused: usize,
}

/// Why a match did not end.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Stalled {
    #[error("the match stopped at {at} ms: nothing more happens and it is not over")]
    Stuck { at: Millis },
    #[error("the match did not end within {steps} steps")]
    TooLong { steps: usize },
    #[error("the match's event at {at} ms did not read back")]
    Unread { at: Millis },
}

/// Plays `game` (started, at `now`) to its end with one AI per seat, in seat order;
/// at most `steps` moves and deadlines.
pub fn play<'a, G: Game>(
    game: G,
    minds: Vec<Mind<'a, G>>,
    now: Millis,
    steps: usize,
    tick: &mut dyn FnMut() -> u64,
) -> Result<Played<G>, Stalled> {
    run(game, minds, now, steps, tick, None)
}

/// The seats taken up again mid-match, as after a restart: once the match has made
/// `after` events, every seat's AI is made anew by `anew` and first shown every view its
/// player had since the start, at each event's time ([`Ai::recall`]), as the fronts'
/// seats are after a restart; then the match plays on.
pub struct Restart<'r, 'a, G: Game> {
    pub after: usize,
    pub anew: &'r mut dyn FnMut() -> Vec<Mind<'a, G>>,
}

/// [`play`], with the seats taken up again once, as `restart` says.
pub fn play_restarting<'a, G: Game>(
    game: G,
    minds: Vec<Mind<'a, G>>,
    restart: Restart<'_, 'a, G>,
    now: Millis,
    steps: usize,
    tick: &mut dyn FnMut() -> u64,
) -> Result<Played<G>, Stalled> {
    run(game, minds, now, steps, tick, Some(restart))
}

fn run<'a, G: Game>(
    mut game: G,
    mut minds: Vec<Mind<'a, G>>,
    mut now: Millis,
    steps: usize,
    tick: &mut dyn FnMut() -> u64,
    mut restart: Option<Restart<'_, 'a, G>>,
) -> Result<Played<G>, Stalled> {
    let first = (game.clone(), now);
    let players: Vec<PlayerId> = game.players().to_vec();
    let mut think_ns = vec![Vec::new(); players.len()];
    let (mut moves, mut refused) = (0, 0);
    let mut events = Vec::new();
    // Each seat's plan: when, and what; and the version a move of it was refused at.
    let mut plans: Vec<Option<(Millis, G::Move)>> = players.iter().map(|_| None).collect();
    let mut refused_at: Vec<Option<u64>> = vec![None; players.len()];
    let mut version = None;
    for _ in 0..steps {
        if game.is_over() {
            break;
        }
        if let Some(r) = restart.take_if(|r| events.len() >= r.after) {
            minds = (r.anew)();
            recall(&first, &events, &players, &mut minds)?;
            plans.iter_mut().for_each(|p| *p = None);
            refused_at.iter_mut().for_each(|r| *r = None);
            version = None;
        }
        let v = game.ledger().version;
        if version != Some(v) {
            version = Some(v);
            for (k, mind) in minds.iter_mut().enumerate() {
                if refused_at[k] == Some(v) {
                    plans[k] = None;
                    continue;
                }
                let view = game.view(&Viewer::Player(players[k]));
                let start = tick();
                let plan = mind.next(&view, now);
                think_ns[k].push(tick().saturating_sub(start));
                plans[k] = plan.map(|p| (now + p.delay, p.action));
            }
        }
        // The umpire's slow work first, then whatever comes first: a deadline (on a
        // tie, before a move, as the runtime's timer fires first) or a plan.
        if let Some((_, work)) = game.work() {
            let m = G::perform(work, Arc::new(AtomicBool::new(false)));
            match game.play(&Actor::Umpire, &Action::Move(m), now) {
                Ok(made) => events.extend(made),
                Err(_) => return Err(Stalled::Stuck { at: now }),
            }
            continue;
        }
        let deadline = game.next_deadline();
        let due = deadline.as_ref().map(crate::rules::Deadline::at);
        let next_plan = plans
            .iter()
            .enumerate()
            .filter_map(|(k, p)| p.as_ref().map(|(at, _)| (*at, k)))
            .min();
        match (due, next_plan) {
            (Some(d), plan) if plan.is_none_or(|(at, _)| d <= at) => {
                now = now.max(d);
                let Some(deadline) = deadline else { break };
                let timeout = Action::Timeout { deadline };
                match game.play(&Actor::Umpire, &timeout, now) {
                    Ok(made) => events.extend(made),
                    Err(_) => return Err(Stalled::Stuck { at: now }),
                }
            }
            (_, Some((at, k))) => {
                now = now.max(at);
                let Some((_, m)) = plans[k].take() else { break };
                let action = Action::Move(m);
                match game.play(&Actor::Player(players[k]), &action, now) {
                    Ok(made) => {
                        events.extend(made);
                        moves += 1;
                        refused_at[k] = None;
                        if let Action::Move(m) = &action {
                            minds[k].made(m, now);
                        }
                    }
                    Err(_) => {
                        refused += 1;
                        // Asked again only once the match has changed.
                        refused_at[k] = Some(game.ledger().version);
                        version = None;
                    }
                }
            }
            _ => return Err(Stalled::Stuck { at: now }),
        }
    }
    if !game.is_over() {
        return Err(Stalled::TooLong { steps });
    }
    Ok(Played {
        game,
        events,
        think_ns,
        moves,
        refused,
    })
}

/// Shows each of `minds` every view its player had: the match as it started, then
/// after each of `events`, at its time.
fn recall<G: Game>(
    (start, at): &(G, Millis),
    events: &[crate::rules::Event<G::Event>],
    players: &[PlayerId],
    minds: &mut [Mind<'_, G>],
) -> Result<(), Stalled> {
    let mut state = start.clone();
    let show = |state: &G, at: Millis, minds: &mut [Mind<'_, G>]| {
        for (mind, p) in minds.iter_mut().zip(players) {
            mind.recall(&state.view(&Viewer::Player(*p)), at);
        }
    };
    show(&state, *at, minds);
    for e in events {
        state.fold(e).map_err(|_| Stalled::Unread { at: e.at })?;
        show(&state, e.at, minds);
    }
    Ok(())
}
