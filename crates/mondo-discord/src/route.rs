//! Interactions for a match another process runs reach that process (docs/scale.md,
//! "Routing"). Discord sends an interaction to the process running its server's shard
//! (a DM's to shard 0's); the match it is about may run elsewhere (its lease moved
//! when a process died or stalled). The process it came to writes it down for the
//! match (`store::commands`), and the one holding the match's lease takes it within
//! [`POLL`] and handles it exactly as if Discord had sent it there: the same code
//! answers it, through Discord's REST API, which any process may call for any
//! interaction, well within Discord's 3 s.
//!
//! On SQLite one process runs everything: nothing is routed.

use super::ids::Header;
use super::kit::{Data, Error};
use poise::serenity_prelude as serenity;
use serenity::{Context, Framework as _, FullEvent, Interaction};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::RwLock;

/// How often a process takes the interactions written down for its matches.
pub const POLL: Duration = Duration::from_millis(100);

/// Past this, Discord no longer takes a first answer to an interaction (3 s): one
/// that waited longer is dropped with a warning rather than answered in vain.
const TOO_LATE_MS: i64 = 2_800;

/// The serenity framework of `mondo serve`: poise, behind a look at whether each
/// interaction is another process's to answer.
pub struct Router {
    framework: Arc<RwLock<poise::Framework<Data, Error>>>,
    bot: Data,
    /// A context to answer routed interactions with (any shard's: answers are REST).
    ctx: Arc<Mutex<Option<Context>>>,
}

impl Router {
    /// Routes around `framework`, and takes this process's routed interactions for
    /// the life of the process.
    pub fn new(bot: Data, framework: poise::Framework<Data, Error>) -> Router {
        let router = Router {
            framework: Arc::new(RwLock::new(framework)),
            bot,
            ctx: Arc::new(Mutex::new(None)),
        };
        if router.bot.store.backend() == crate::store::Backend::Postgres {
            tokio::spawn(take_routed(
                Arc::downgrade(&router.bot),
                router.framework.clone(),
                router.ctx.clone(),
            ));
        }
        router
    }
}

#[serenity::async_trait]
impl serenity::Framework for Router {
    async fn init(&mut self, client: &serenity::Client) {
        self.framework.write().await.init(client).await;
    }

    async fn dispatch(&self, ctx: Context, event: FullEvent) {
        {
            let mut kept = self.ctx.lock().unwrap_or_else(|p| p.into_inner());
            if kept.is_none() {
                *kept = Some(ctx.clone());
            }
        }
        if let FullEvent::InteractionCreate { interaction } = &event
            && let Some(game) = elsewhere(&self.bot, interaction).await
        {
            match written(interaction) {
                Ok(body) => match self.bot.store.route(game, &body).await {
                    Ok(()) => {
                        tracing::info!(%game, interaction = %interaction.id(),
                            "routed an interaction to the process that runs match {game}");
                        return;
                    }
                    Err(e) => {
                        tracing::warn!(%game, error = %e, "could not route an interaction; answered here")
                    }
                },
                Err(e) => tracing::warn!(error = %e, "an interaction does not write down"),
            }
        }
        self.framework.read().await.dispatch(ctx, event).await;
    }
}

/// An interaction as Discord's JSON, to be read back by serenity (which writes each
/// kind without its `type`, and absent fields as `null`).
fn written(interaction: &Interaction) -> Result<String, serde_json::Error> {
    let mut value = serde_json::to_value(interaction)?;
    strip_nulls(&mut value);
    if let Some(fields) = value.as_object_mut() {
        fields.insert("type".into(), serde_json::to_value(interaction.kind())?);
    }
    serde_json::to_string(&value)
}

/// Leaves out the fields serenity writes as `null` (Discord leaves them out, and some
/// of serenity's readers take a missing field but not a null one).
fn strip_nulls(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(fields) => {
            fields.retain(|_, v| !v.is_null());
            fields.values_mut().for_each(strip_nulls);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}

/// The match an interaction is about, when another process holds its lease (none:
/// answered here). A button or box names its match; a command is about the live
/// matches of its channel (in a DM: its user's), and goes to their owner unless this
/// process runs one of them.
async fn elsewhere(bot: &Data, interaction: &Interaction) -> Option<crate::store::MatchId> {
    if bot.store.backend() != crate::store::Backend::Postgres {
        return None;
    }
    let candidates = match interaction {
        Interaction::Component(press) => vec![Header::parse(&press.data.custom_id).ok()?.game],
        Interaction::Modal(submit) => vec![Header::parse(&submit.data.custom_id).ok()?.game],
        Interaction::Command(c) | Interaction::Autocomplete(c) => {
            let filter = |channel: Option<u64>, player: Option<u64>| crate::store::MatchFilter {
                status: Some(crate::store::Status::Live),
                channel,
                player,
                limit: Some(20),
                ..Default::default()
            };
            let f = match c.guild_id {
                Some(_) => filter(Some(c.channel_id.get()), None),
                None => filter(None, Some(c.user.id.get())),
            };
            bot.store
                .matches(&f)
                .await
                .ok()?
                .into_iter()
                .map(|r| r.id)
                .collect()
        }
        _ => return None,
    };
    let me = bot.runtime.owner();
    let mut other = None;
    for game in candidates {
        if bot.runtime.live().contains(&game) {
            return None;
        }
        if let Ok(Some(lease)) = bot.store.lease(game).await
            && lease.owner != me
            && other.is_none()
            && bot
                .store
                .database_now_ms()
                .await
                .is_ok_and(|now| lease.expires_ms > now)
        {
            other = Some(game);
        }
    }
    other
}

/// Takes the interactions written down for this process's matches, every [`POLL`],
/// and handles each as Discord's own.
async fn take_routed(
    bot: std::sync::Weak<crate::kit::Bot>,
    framework: Arc<RwLock<poise::Framework<Data, Error>>>,
    ctx: Arc<Mutex<Option<Context>>>,
) {
    loop {
        tokio::time::sleep(POLL).await;
        let Some(bot) = bot.upgrade() else { return };
        let Some(context) = ctx.lock().unwrap_or_else(|p| p.into_inner()).clone() else {
            continue;
        };
        let taken = match bot.store.take_routed(bot.runtime.owner()).await {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!(error = %e, "could not take the interactions routed here");
                continue;
            }
        };
        for routed in taken {
            if routed.age_ms > TOO_LATE_MS {
                tracing::warn!(game = %routed.id, waited_ms = routed.age_ms,
                    "an interaction routed here waited too long for Discord to take an answer; dropped");
                continue;
            }
            let interaction: Interaction = match serde_json::from_str(&routed.body) {
                Ok(i) => i,
                Err(e) => {
                    tracing::warn!(game = %routed.id, error = %e, "a routed interaction does not read");
                    continue;
                }
            };
            tracing::info!(game = %routed.id, waited_ms = routed.age_ms,
                "answering an interaction routed here for match {}", routed.id);
            let framework = framework.clone();
            let context = context.clone();
            tokio::spawn(async move {
                framework
                    .read()
                    .await
                    .dispatch(context, FullEvent::InteractionCreate { interaction })
                    .await;
            });
        }
    }
}
