//! A lost gateway connection: serenity reconnects by itself (it resumes the session,
//! trying again each second, else identifies anew at most every 5 s), and meanwhile no
//! player can move. So, as with a restart of the bot, the outage is not counted against
//! anyone: once the gateway is back, every live match's clocks are given the time back
//! (the rules' `Downtime`, stored as `ClockRebased`), running clocks as if paused.

use crate::rules::Actor;
use crate::runtime::{AnyAction, AnyMatch, Common, Runtime};
use crate::store::Millis;
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::Duration;

/// Watches the shards' connection for the life of the bot: when it comes back after
/// being lost, gives the time between back to every live match.
pub async fn watch(shards: Arc<serenity::ShardManager>, runtime: Runtime<AnyMatch>) {
    let mut lost_at: Option<Millis> = None;
    loop {
        tokio::time::sleep(Duration::from_millis(250)).await;
        match (is_connected(&shards).await, lost_at) {
            (false, None) => {
                tracing::warn!("the Discord gateway is lost; reconnecting");
                lost_at = Some(runtime.now());
            }
            (true, Some(since)) => {
                lost_at = None;
                let matches = give_back(&runtime, since).await;
                tracing::info!(
                    seconds = runtime.now().saturating_sub(since) / 1000,
                    matches,
                    "the Discord gateway is back; the outage was given back to the matches"
                );
            }
            _ => {}
        }
    }
}

/// Whether some shard has had READY (or RESUMED) from the gateway, as serenity says.
pub(crate) async fn is_connected(shards: &serenity::ShardManager) -> bool {
    let runners = shards.runners.lock().await;
    runners
        .values()
        .any(|r| r.stage == serenity::ConnectionStage::Connected)
}

/// Gives the game time since `since` back to every live match with clocks; how many
/// took it.
pub async fn give_back(runtime: &Runtime<AnyMatch>, since: Millis) -> usize {
    let mut given = 0;
    for id in runtime.live() {
        let downtime = AnyAction::Common(Common::Downtime { since });
        match runtime.act(id, Actor::Umpire, downtime, None).await {
            Ok(_) => given += 1,
            // A game without clocks, or a match that just ended: nothing to give.
            Err(e) => tracing::debug!(match_id = %id, error = ?e, "no downtime given"),
        }
    }
    given
}
