//! Each player's private feed, said to them by DM: the match as that player may see
//! it (never the other's), so nothing of one player's reaches the other or the
//! channel. What goes: their tiles and RP at the start (and after a restart, with the
//! controls of the moment), their truths, marks, scores, reveals and guesses, and the
//! controls of each phase as it begins. A player whose DMs are closed gets none of it
//! here and uses `/bluffs status`, which only they see.

use super::controls::{self, Private, unaddressed};
use super::view::view_of;
use crate::Bot;
use crate::desk::DM_WAIT;
use crate::narrate::{Names, bluffs as words};
use crate::rules::bluffs::{BluffsView, EventKind as BluffsEvent, PhaseName};
use crate::rules::{PlayerId, Viewer};
use crate::runtime::AnyEvent;
use crate::store::MatchId;
use poise::serenity_prelude as serenity;
use std::sync::Arc;

/// Follows a live Bluffs match for each of its players (called when its desk opens,
/// also after a restart).
pub fn follow(bot: Arc<Bot>, game: MatchId) {
    tokio::spawn(async move {
        let Ok(view) = bot.runtime.view(game, &Viewer::Spectator).await else {
            return;
        };
        let Some(v) = view_of(&view) else { return };
        for player in v.players {
            tokio::spawn(privately(bot.clone(), game, player));
        }
    });
}

async fn privately(bot: Arc<Bot>, game: MatchId, player: PlayerId) {
    let dm = match bot.store.dm_channels(game).await {
        Ok(map) => map.get(&player.0).copied().flatten(),
        Err(_) => None,
    };
    // Closed DMs: `/bluffs status` serves instead.
    let Some(dm) = dm else { return };
    let dm = serenity::ChannelId::new(dm.max(1));
    let mut feed = match bot.runtime.subscribe(game, Viewer::Player(player)).await {
        Ok(f) => f,
        Err(e) => {
            tracing::warn!(%game, error = %e, "a player's private feed could not follow the match");
            return;
        }
    };
    let view = feed.view();
    if let Some(v) = view_of(&view) {
        send(&bot, dm, &first(game, v), game).await;
    }
    while let Some(update) = feed.next().await {
        let Ok(update) = update else { continue };
        let Some(v) = view_of(&update.view) else {
            continue;
        };
        if v.you.is_none() {
            return;
        }
        let events: Vec<_> = update.events.into_iter().map(|(_, e)| e).collect();
        let said = said(game, &events, v);
        if !said.is_empty() {
            send(&bot, dm, &said, game).await;
        }
        if update.over {
            return;
        }
    }
}

/// What a player may see of their own at any time: their tiles and RP, and the
/// controls of the moment (the feed's first message, and `/bluffs status`'s own part).
pub fn first(game: MatchId, v: &BluffsView) -> Private {
    let mut first = controls::mine(game, v);
    first.append(controls::phase_controls(game, v));
    first
}

/// What a player is told of a batch (`events`, as they hear them; `v`, their view
/// after it): their own lines, their state when it changed, the controls when a phase
/// began or more reveals can be bought.
pub fn said(game: MatchId, events: &[AnyEvent], v: &BluffsView) -> Private {
    let mut said = Private::default();
    let Some(seat) = v.you else {
        return said;
    };
    let own = super::view::own(events);
    let names = Names::mentions(&v.players);
    for line in words::only(&names, &v.settings, seat, &own) {
        said.lines.push(unaddressed(&line));
    }
    let changed = own.iter().any(BluffsEvent::changes_own_state);
    if changed {
        said.append(controls::mine(game, v));
    }
    let began = own.iter().find_map(|e| match e {
        BluffsEvent::PhaseBegan { phase, .. } => Some(*phase),
        _ => None,
    });
    // A phase began, or reveals were bought and more can be: the controls again.
    let bought = own
        .iter()
        .any(|e| matches!(e, BluffsEvent::Revealed { .. }));
    if bought
        || matches!(
            began,
            Some(PhaseName::Claiming | PhaseName::Reveal | PhaseName::Bluffing)
        )
    {
        said.append(controls::phase_controls(game, v));
    }
    said
}

async fn send(bot: &Bot, dm: serenity::ChannelId, what: &Private, game: MatchId) {
    let sent = tokio::time::timeout(DM_WAIT, dm.send_message(&bot.http, what.message())).await;
    if !matches!(sent, Ok(Ok(_))) {
        crate::metrics::discord_failed();
    }
    match sent {
        Ok(Ok(_)) => {}
        // Only that it failed: what it said is the player's alone, not the log's.
        Ok(Err(e)) => tracing::info!(%game, error = %e, "a private DM failed"),
        Err(_) => tracing::info!(%game, "a private DM got no answer in time"),
    }
}
