//! The AI student at a Discord table: the opponent of `/zendo duel opponent:@Mondo`
//! and `/zendo triple opponent:@Mondo`, and the students a Classic lobby's *Add AI
//! student* seats (docs/ai.md).
//!
//! An AI seat is a player like any other: its id ([`PlayerId::ai`]) is stored with the
//! match and says its strength, so it comes back after a restart. A task per seat
//! follows the match as that player ([`Viewer::Player`]: the same view a person has,
//! which never holds the hidden pattern), and when the student has a move it waits
//! the configured delay on the runtime's clock (a fake clock in tests), then makes it
//! through the runtime like anyone (`Runtime::act`). Nobody on Discord has its id, so
//! the bot never DMs it: its answers are its own moves.

use crate::kit::Bot;
use crate::koan::PieceSet;
use crate::play::games::zendo::ai_seat::{Mind, set_of};
use crate::rules::zendo::classic::{ClassicMove, ClassicView};
use crate::rules::{Actor, PlayerId, Viewer};
use crate::runtime::{ActError, AnyAction, AnyMatch, AnyView, Engine, Runtime};
use crate::store::{MatchId, Millis};
use crate::student::zendo::{Breadth, Budget, Level, Space};
use std::collections::HashSet;
use std::sync::Arc;

pub use crate::kit::start::{LevelChoice, seat};

/// Where a seat's hypothesis space comes from (built once per process on Discord; a
/// small one in tests).
pub type SpaceOf = fn(PieceSet, Breadth) -> Arc<Space>;

/// How an AI seat plays for time.
#[derive(Clone, Copy, Debug)]
pub struct Pace {
    /// Game-clock milliseconds it waits before each move (choosing who starts, its
    /// acceptance of a duel, is at once).
    pub delay_ms: Millis,
    /// Real milliseconds it may think per move.
    pub think_ms: u64,
    pub space: SpaceOf,
}

impl Pace {
    /// The bot's: the configured delay, 1.5 s of thinking, the process's spaces.
    pub fn of(bot: &Bot) -> Pace {
        Pace {
            delay_ms: bot.config.games.ZendoDuel.ai_delay_ms,
            think_ms: 1_500,
            space: crate::play::games::zendo::ai_seat::space,
        }
    }
}

/// The server's default strength (`zendo.ai_level`), or `player`.
pub fn default_level(bot: &Bot) -> Level {
    Level::parse(&bot.config.games.ZendoDuel.ai_level).unwrap_or(Level::Player)
}

/// The strength of an AI seat; `None` for a person.
pub fn level_of(player: PlayerId) -> Option<Level> {
    let (index, _) = player.ai_seat()?;
    Some(
        Level::ALL
            .get(usize::from(index))
            .copied()
            .unwrap_or(Level::Expert),
    )
}

/// The AI seats `view` holds, for the games the student plays (the Duel, the Triple,
/// Classic).
pub fn seats_of(view: &AnyView) -> Vec<PlayerId> {
    let players: Vec<PlayerId> = match view {
        AnyView::ZendoDuel(v) => v.players.values().to_vec(),
        AnyView::ZendoTriple(v) => v.players.values().to_vec(),
        AnyView::ZendoClassic(v) => v.players.values().to_vec(),
        _ => Vec::new(),
    };
    players
        .into_iter()
        .filter(|p| p.ai_seat().is_some())
        .collect()
}

/// The next free AI student number in a Classic lobby (1 and up).
pub fn next_student(view: &AnyView) -> u8 {
    let taken: HashSet<u8> = seats_of(view)
        .iter()
        .filter_map(|p| p.ai_seat().map(|(_, k)| k))
        .collect();
    (1..=u8::MAX)
        .find(|k| !taken.contains(k))
        .unwrap_or(u8::MAX)
}

/// When a match's desk opens (a new match, or one resumed after a restart): plays each
/// of its AI seats.
pub fn on_open(bot: &Arc<Bot>, game: MatchId) {
    let runtime = bot.runtime.clone();
    let pace = Pace::of(bot);
    tokio::spawn(async move {
        match runtime.view(game, &Viewer::Spectator).await {
            Ok(view) => {
                for player in seats_of(&view) {
                    play(&runtime, game, player, pace);
                }
            }
            Err(e) => {
                tracing::warn!(%game, error = %e, "the AI seats could not look at their match")
            }
        }
    });
}

/// Plays AI seat `player` of `game` until the match is over (once per seat: a seat
/// already played here is left to its task).
pub fn play(runtime: &Runtime<AnyMatch>, game: MatchId, player: PlayerId, pace: Pace) {
    let Some(level) = level_of(player) else {
        return;
    };
    let key = (runtime.owner().to_string(), game, player);
    if !crate::play::ai::driven().insert(key.clone()) {
        return;
    }
    let runtime = runtime.clone();
    tokio::spawn(async move {
        run(&runtime, game, player, level, pace).await;
        crate::play::ai::driven().remove(&key);
    });
}

/// The student's move on a view, thought out on a blocking thread (it may take its
/// whole budget); the student comes back with it.
async fn think(mut mind: Mind, view: AnyView, think_ms: u64) -> Option<(Mind, Option<AnyAction>)> {
    tokio::task::spawn_blocking(move || {
        let start = std::time::Instant::now();
        let mut now = move || start.elapsed().as_millis() as u64;
        let budget = Budget::ms(0, think_ms);
        let action = mind.act(&view, budget, &mut now).map(Into::into);
        (mind, action)
    })
    .await
    .ok()
}

/// Whether the move waits the delay: everything but accepting a duel or a Triple.
fn paced(view: &AnyView) -> bool {
    !matches!(
        view,
        AnyView::ZendoDuel(v) if matches!(v.phase, crate::rules::zendo::PhaseView::ChoosingStarter)
    ) && !matches!(
        view,
        AnyView::ZendoTriple(v)
            if matches!(v.phase, crate::rules::zendo::triple::PhaseView::ChoosingStarter { .. })
    )
}

fn is_over(view: &AnyView) -> bool {
    match view {
        AnyView::ZendoDuel(v) => v.outcome.is_some(),
        AnyView::ZendoTriple(v) => v.outcome.is_some(),
        AnyView::ZendoClassic(v) => v.outcome.is_some() || v.closed,
        _ => true,
    }
}

/// One AI seat's task: follow the match as its player; whenever the student has a
/// move, wait the delay, then make it (a move the match moved past in the meantime is
/// refused as stale, and thought again on the new view).
async fn run(runtime: &Runtime<AnyMatch>, game: MatchId, me: PlayerId, level: Level, pace: Pace) {
    let viewer = Viewer::Player(me);
    let Some(mut feed) = crate::play::ai::follow(runtime, game, me).await else {
        return;
    };
    let mut view = feed.view();
    // When the match last changed, as far as this seat knows (game clock).
    let mut since = runtime.now();
    let Some(set) = set_of(&view) else {
        return;
    };
    let space = {
        let breadth = level.breadth();
        let make = pace.space;
        match tokio::task::spawn_blocking(move || make(set, breadth)).await {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(%game, error = %e, "the AI student's rules could not be built");
                return;
            }
        }
    };
    let seed = (game.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ me.0;
    let mut student = Mind::for_view(&view, space, level, seed);
    // The version of a view the student's move was refused on: wait for a newer one.
    let mut refused_at: Option<u64> = None;
    loop {
        if is_over(&view) {
            return;
        }
        if refused_at != Some(view.version()) {
            let Some((back, action)) = think(student, view.clone(), pace.think_ms).await else {
                tracing::error!(%game, "the AI student failed while thinking");
                return;
            };
            student = back;
            if let Some(action) = action {
                if paced(&view) {
                    // The delay runs from the match's last change (thinking counts).
                    runtime
                        .sleep_until(since.saturating_add(pace.delay_ms))
                        .await;
                }
                let shown = Some(view.version());
                match runtime.act(game, Actor::Player(me), action, shown).await {
                    Ok(_) => refused_at = None,
                    Err(ActError::Refused(e)) => {
                        tracing::info!(%game, player = me.0, error = %e, "the AI student's move was refused");
                        refused_at = Some(view.version());
                        // The match may have moved on while it waited: look again.
                        if let Ok(now) = runtime.view(game, &viewer).await {
                            view = now;
                            since = runtime.now();
                            continue;
                        }
                    }
                    Err(ActError::Runtime(e)) => {
                        tracing::info!(%game, error = %e, "an AI seat stops: its match is gone");
                        return;
                    }
                }
            }
        }
        match feed.next().await {
            Some(Ok(update)) => {
                since = update
                    .events
                    .last()
                    .map_or_else(|| runtime.now(), |(_, e)| AnyMatch::event_at(e));
                view = update.view;
            }
            Some(Err(e)) => {
                tracing::warn!(%game, error = %e, "an AI seat missed an update");
                since = runtime.now();
                match runtime.view(game, &viewer).await {
                    Ok(now) => view = now,
                    Err(_) => return,
                }
            }
            None => return,
        }
    }
}

/// *Add AI student* in a Classic lobby: who seats it (a host as a host, anyone else as
/// themselves: the rules let the lobby's opener and the hosts seat one) and the seat,
/// the next AI student of the server's default strength.
pub async fn add_student(
    bot: &Bot,
    press: &poise::serenity_prelude::ComponentInteraction,
    lobby: &ClassicView,
) -> Result<(Actor, ClassicMove), crate::Error> {
    let guild = press.guild_id.map(|g| g.get());
    let host_role = super::settings::effective(bot, guild).await?.host_role;
    let user = PlayerId(press.user.id.get());
    let actor = if crate::is_host(press.member.as_ref(), host_role) {
        Actor::Host(user)
    } else {
        Actor::Player(user)
    };
    let view = AnyView::ZendoClassic(lobby.clone());
    let player = seat(default_level(bot), next_student(&view));
    Ok((actor, ClassicMove::AddStudent { player }))
}

/// The AI seat a lobby's move seats, if it seats one.
pub fn seated(m: &ClassicMove) -> Option<PlayerId> {
    match m {
        ClassicMove::AddStudent { player } if player.ai_seat().is_some() => Some(*player),
        _ => None,
    }
}
