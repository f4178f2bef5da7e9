//! The AI seats of every game but Zendo, on both fronts: the games whose AI is a
//! `student::Ai` ([`for_game`]), and the task that plays one seat of a live match
//! ([`play`]): the same at the terminal (`mondo play assembly --players me,ai`) and on
//! Discord (`/assembly duel opponent:@Mondo`). See docs/ai.md.
//!
//! A seat's task follows the match as its player (`Viewer::Player`: the view a person
//! in that seat gets, secrets of others left out), asks the AI on every update, waits
//! the AI's think delay on the runtime's game clock (a fake clock in tests), then makes
//! its move through the runtime like anyone's (`Runtime::act`, refused as anyone's
//! would be, and stale if the match moved on meanwhile). A seat is a player with a
//! reserved name or an AI id, stored with the match: after a restart (`--resume`, the
//! bot starting again) its task starts again, first giving the AI every view its player
//! had, read back from the match's log (`recall`), so that an AI which remembers what
//! it was shown plays on as it would have without the restart.
//!
//! To give a game an AI: implement `student::Ai` for its player view in
//! `crates/mondo-rules/src/student/<game>`, and return it from its terminal front's
//! `Terminal::ai` (with [`typed`], from `machine.rs`).

pub use super::machine::{SeatAi, typed};

use crate::rules::{Actor, GameKind, PlayerId, Viewer};
use crate::runtime::{ActError, AnyAction, AnyMatch, Runtime, Subscription};
use crate::store::{MatchId, Millis};
use crate::student::Level;
use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

/// The AI of `kind` at `level`, its draws seeded by `seed`; `None` for a game with no
/// AI of this kind (Zendo's student is seated by its own folders).
pub fn for_game(kind: GameKind, level: Level, seed: u64) -> Option<Box<dyn SeatAi>> {
    super::games::ai(kind, level, seed)
}

/// Whether `kind` has an AI seated here.
pub fn plays(kind: GameKind) -> bool {
    for_game(kind, Level::Player, 0).is_some()
}

/// A seat's own seed: the same seat of the same match draws alike after a restart.
pub fn seed_of(game: MatchId, player: PlayerId) -> u64 {
    (game.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ player.0
}

/// A seat played here: the runtime's owner name (several runtimes may share a process,
/// as tests' do, each numbering its own matches), the match, the seat.
type Driven = (String, MatchId, PlayerId);

/// The seats being played in this process, one task each (the Zendo student's seats
/// too).
pub fn driven() -> std::sync::MutexGuard<'static, HashSet<Driven>> {
    static DRIVEN: OnceLock<Mutex<HashSet<Driven>>> = OnceLock::new();
    DRIVEN
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// Plays seat `player` of `game` at `level` until the match is over, on a task of its
/// own (once per seat and runtime: a seat already played here is left to its task).
/// Does nothing for a game with no AI here.
pub fn play(runtime: &Runtime<AnyMatch>, game: MatchId, player: PlayerId, level: Level) {
    let key = (runtime.owner().to_string(), game, player);
    if !driven().insert(key.clone()) {
        return;
    }
    let runtime = runtime.clone();
    tokio::spawn(async move {
        run(&runtime, game, player, level).await;
        driven().remove(&key);
    });
}

/// Waits until `at` on the game clock; forever without one.
async fn until(runtime: &Runtime<AnyMatch>, at: Option<Millis>) {
    match at {
        Some(at) => runtime.sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// The match `game` as seat `me` sees it, to follow: `None` (said in the log) when
/// there is no such match to play. Every AI seat's task starts here, Zendo's too.
pub async fn follow(
    runtime: &Runtime<AnyMatch>,
    game: MatchId,
    me: PlayerId,
) -> Option<Subscription<AnyMatch>> {
    match runtime.subscribe(game, Viewer::Player(me)).await {
        Ok(feed) => Some(feed),
        Err(e) => {
            tracing::info!(%game, error = %e, "an AI seat has no match to play");
            None
        }
    }
}

/// One seat's task (see the module's comment).
async fn run(runtime: &Runtime<AnyMatch>, game: MatchId, me: PlayerId, level: Level) {
    let viewer = Viewer::Player(me);
    let Some(mut feed) = follow(runtime, game, me).await else {
        return;
    };
    if runtime.is_over(game).await.unwrap_or(true) {
        return;
    }
    let mut view = feed.view();
    let kind = view.kind();
    let Some(mind) = for_game(kind, level, seed_of(game, me)) else {
        return;
    };
    let fresh = || for_game(kind, level, seed_of(game, me));
    let Some(mut mind) = recall(runtime, game, me, feed.seq(), mind, fresh).await else {
        return;
    };
    // The version a move was refused on: the AI is asked again on a newer view.
    let mut refused_at: Option<u64> = None;
    let mut fresh = true;
    let mut plan: Option<(Millis, AnyAction)> = None;
    // The time of the event that made the view, when the update says it: the AI is
    // asked at the time the view came about, as it is when the log is read back after
    // a restart (`recall`), however late this task got to it.
    let mut made_at: Option<Millis> = None;
    loop {
        if fresh {
            fresh = false;
            plan = None;
            if refused_at != Some(view.version()) {
                let now = made_at.take().unwrap_or_else(|| runtime.now());
                plan = mind
                    .next(&view, now)
                    .map(|(d, a)| (now.saturating_add(d), a));
            }
        }
        let wake = plan.as_ref().map(|(at, _)| *at);
        tokio::select! {
            update = feed.next() => match update {
                Some(Ok(update)) => {
                    if update.over {
                        return;
                    }
                    made_at = update.events.last().map(|(_, e)| <AnyMatch as crate::runtime::Engine>::event_at(e));
                    view = update.view;
                    fresh = true;
                }
                Some(Err(e)) => {
                    tracing::warn!(%game, error = %e, "an AI seat missed an update");
                    match runtime.view(game, &viewer).await {
                        Ok(now) => {
                            made_at = None;
                            view = now;
                            fresh = true;
                        }
                        Err(_) => return,
                    }
                }
                None => return,
            },
            () = until(runtime, wake) => {
                let Some((_, action)) = plan.take() else { continue };
                let shown = Some(view.version());
                match runtime.act(game, Actor::Player(me), action, shown).await {
                    Ok(_) => {
                        mind.made(runtime.now());
                        refused_at = None;
                    }
                    Err(ActError::Refused(e)) => {
                        tracing::info!(%game, player = me.0, error = %e, "an AI seat's move was refused");
                        refused_at = Some(view.version());
                    }
                    Err(ActError::Runtime(e)) => {
                        tracing::info!(%game, error = %e, "an AI seat stops: its match is gone");
                        return;
                    }
                }
            }
        }
    }
}

/// `mind` once it has been given what seat `me` saw of `game` before its task
/// began (the match's log up to event `upto`, where its feed starts), view by view as
/// the log goes, each at its event's time (`student::Ai::recall`): a seat taken up
/// again after a restart believes what it believed, and plays on as it would have. A
/// log that cannot be read back is said in the log; the AI then plays on from what it
/// was shown of it (at worst nothing: the match as it is now; `fresh` makes it anew if
/// it failed on the way).
async fn recall(
    runtime: &Runtime<AnyMatch>,
    game: MatchId,
    me: PlayerId,
    upto: u64,
    mut mind: Box<dyn SeatAi>,
    fresh: impl FnOnce() -> Option<Box<dyn SeatAi>>,
) -> Option<Box<dyn SeatAi>> {
    use crate::runtime::Engine;
    let store = runtime.store();
    let (kind, events) = match (store.record(game).await, store.events(game).await) {
        (Ok(Some(record)), Ok(events)) => (record.kind, events),
        (Err(e), _) | (_, Err(e)) => {
            tracing::warn!(%game, error = %e, "an AI seat cannot read what its player saw");
            return Some(mind);
        }
        (Ok(None), _) => return Some(mind),
    };
    // Folding the log is CPU work (a long match, an AI taking each view in): off the
    // threads that answer.
    let done = tokio::task::spawn_blocking(move || {
        let viewer = Viewer::Player(me);
        let mut state: Option<AnyMatch> = None;
        for stored in events.iter().take_while(|e| e.seq <= upto) {
            let folded = AnyMatch::decode(&kind, &stored.body).and_then(|event| {
                match &mut state {
                    Some(s) => s.fold(&event)?,
                    None => state = Some(AnyMatch::replay(&kind, std::slice::from_ref(&event))?),
                }
                Ok(event)
            });
            match (folded, &state) {
                (Ok(event), Some(s)) => mind.recall(&s.view(&viewer), AnyMatch::event_at(&event)),
                (Err(e), _) => return (mind, Some(e)),
                (Ok(_), None) => {}
            }
        }
        (mind, None)
    })
    .await;
    match done {
        Ok((mind, None)) => Some(mind),
        Ok((mind, Some(e))) => {
            tracing::warn!(%game, error = %e, "an AI seat cannot read what its player saw");
            Some(mind)
        }
        Err(e) => {
            tracing::warn!(%game, error = %e, "an AI seat failed reading what its player saw");
            fresh()
        }
    }
}

/// The AI seats of a match at the terminal (its players under the AI's reserved
/// names, `ai-expert`...), for a game with an AI here: each is played by its task from
/// now on (a new match, or one resumed). Their ids, for `Session::seat_machines`.
pub async fn seat_at_terminal(session: &super::Session) -> Vec<PlayerId> {
    let runtime = session.runtime();
    let Ok(view) = runtime.view(session.id(), &Viewer::Spectator).await else {
        return Vec::new();
    };
    if !plays(view.kind()) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (player, name) in session.cast().players() {
        let Some((level, _)) = crate::rules::fair::reserved_ai_name(name) else {
            continue;
        };
        let level = Level::ALL[level.min(Level::ALL.len() - 1)];
        play(runtime, session.id(), *player, level);
        out.push(*player);
    }
    out
}

/// Plays every AI seat of `game` (a player whose id is an AI's, `PlayerId::ai`, as on
/// Discord), for a game with an AI here: when its desk opens, new or after a restart.
pub async fn seat_ai_ids(runtime: &Runtime<AnyMatch>, game: MatchId) {
    use crate::runtime::Engine;
    let state = match runtime.state_of(game).await {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!(%game, error = %e, "the AI seats could not look at their match");
            return;
        }
    };
    if !plays(state.kind()) || state.is_over() {
        return;
    }
    for player in state.listing().players.into_iter().map(PlayerId) {
        if let Some((level, _)) = player.ai_seat() {
            let level = Level::ALL[usize::from(level).min(Level::ALL.len() - 1)];
            play(runtime, game, player, level);
        }
    }
}
