//! What every part of the bot passes around: who asked and when, the reply an
//! interaction gets, the holds that keep two set-ups of one match apart, the error
//! types.

use super::desk;
use super::post::Post;
use poise::serenity_prelude as serenity;

/// An interaction's handling (a button's or a box's): its answer is sent inside.
pub type Handling<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), Error>> + Send + 'a>>;

/// Keys held by one task at a time (no waiting: a second asker is told no).
#[derive(Default)]
pub struct Holds(std::sync::Mutex<std::collections::HashSet<(u64, u64)>>);

/// A held key, let go when dropped.
pub struct SettingUp<'a> {
    holds: &'a Holds,
    key: (u64, u64),
}

impl Holds {
    pub fn hold(&self, key: (u64, u64)) -> Option<SettingUp<'_>> {
        // Not `then_some`: that builds the guard even when the key is taken, and its
        // drop would let go of the other holder's key (and lock the held mutex again).
        let free = self.lock().insert(key);
        free.then(|| SettingUp { holds: self, key })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashSet<(u64, u64)>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for SettingUp<'_> {
    fn drop(&mut self) {
        self.holds.lock().remove(&self.key);
    }
}

/// Where an interaction was made, and when: its reply must be on its way within
/// Discord's 3 seconds of that.
#[derive(Clone, Copy, Debug)]
pub struct Asked {
    pub channel: u64,
    /// The interaction's id: a snowflake, whose top bits are when Discord made it.
    pub interaction: u64,
}

impl Asked {
    /// When Discord made the interaction (Unix milliseconds), read from its id.
    pub fn created_ms(&self) -> u64 {
        let made = serenity::InteractionId::new(self.interaction.max(1)).created_at();
        made.timestamp_millis().max(0) as u64
    }

    /// The moment to stop waiting for the desk's batch and answer "done" instead:
    /// [`desk::REPLY_BUDGET`] after the interaction was made (never later than the
    /// budget from now; a quarter of it when the clocks plainly disagree).
    pub fn reply_by(&self) -> tokio::time::Instant {
        tokio::time::Instant::now() + wait_from(wall_ms(), self.created_ms())
    }
}

/// The wall clock now, in Unix milliseconds.
pub(crate) fn wall_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// How long to wait now for a batch, at `now_ms`, for an interaction made at
/// `created_ms` (see [`Asked::reply_by`]).
pub(crate) fn wait_from(now_ms: u64, created_ms: u64) -> std::time::Duration {
    let budget = desk::REPLY_BUDGET.as_millis() as u64;
    let elapsed = now_ms as i64 - created_ms as i64;
    let wait = if elapsed.unsigned_abs() > CLOCK_SKEW_MS {
        // The two clocks disagree by more than any real delay: trust neither, and wait
        // a quarter of the budget.
        budget / 4
    } else {
        budget.saturating_sub(elapsed.max(0) as u64)
    };
    std::time::Duration::from_millis(wait)
}

/// A difference between the interaction's time and ours beyond this is the clocks
/// disagreeing, not the interaction being old (Discord drops it after 3 s anyway).
const CLOCK_SKEW_MS: u64 = 10_000;

/// An interaction's reply. A batch the desk handed over (it will not post it itself)
/// names the match's channel: if the reply cannot be sent (Discord's 3 s are gone),
/// the batch is posted there instead, so nothing said is lost.
#[derive(Debug)]
pub struct Handed {
    pub post: Post,
    pub fallback: Option<serenity::ChannelId>,
    /// The match and the last event of the batch handed over: a first reply with a
    /// token is recorded as its post before it is sent ([`Bot::deliver_as`]).
    ///
    /// [`Bot::deliver_as`]: super::data::Bot::deliver_as
    pub batch: Option<(crate::store::MatchId, u64)>,
    /// Dropped once the reply is done, for the desk waiting to record the batch as said.
    pub delivered: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Handed {
    /// A reply of the interaction's own (a refusal, a note): nothing to rescue.
    pub fn own(post: Post) -> Handed {
        Handed {
            post,
            fallback: None,
            batch: None,
            delivered: None,
        }
    }
}

pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// Why `mondo serve` stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(
        "DISCORD_TOKEN is not set: create a bot at https://discord.com/developers/applications \
         and set DISCORD_TOKEN to its token (see docs/operators.md)"
    )]
    NoToken,
    #[error("DISCORD_TOKEN is not a Discord bot token ({0}); copy it again from the Bot page")]
    BadToken(String),
    #[error(
        "Discord refused the token (401 Unauthorized): reset it on the Bot page and set DISCORD_TOKEN again"
    )]
    Unauthorized,
    #[error("could not open the database {path}: {error}")]
    Store { path: String, error: String },
    #[error("the matches could not be resumed: {0}")]
    Runtime(String),
    /// `/metrics` and `/healthz` cannot be served where `log.metrics_address` says.
    #[error("{0} (log.metrics_address)")]
    Monitoring(String),
    /// Another process runs the database's matches (see `store::lock_for_running`).
    #[error(transparent)]
    Locked(#[from] crate::store::LockError),
    #[error("Discord: {0}")]
    Discord(String),
}

/// A match's setup being made (it may read the server's settings).
pub type SetupFuture<'a> = std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<crate::runtime::AnySetup, Error>> + Send + 'a>,
>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_reply_waits_for_its_batch_only_within_discords_three_seconds() {
        let budget = desk::REPLY_BUDGET;
        let made = 1_700_000_000_000;
        // Just made: the whole budget.
        assert_eq!(wait_from(made, made), budget);
        // 1.5 s spent already (a slow commit): what is left of the budget.
        assert_eq!(
            wait_from(made + 1_500, made),
            budget - Duration::from_millis(1_500)
        );
        // The budget spent: no waiting at all (the desk posts the batch itself).
        assert_eq!(wait_from(made + 2_900, made), Duration::ZERO);
        // Our clock a little behind Discord's: the whole budget, never more.
        assert_eq!(wait_from(made - 800, made), budget);
        // Clocks that disagree by more than any real delay: a quarter of the budget.
        assert_eq!(wait_from(made - 60_000, made), budget / 4);
        assert_eq!(wait_from(made + 60_000, made), budget / 4);
        assert!(budget < Duration::from_secs(3));
    }

    #[test]
    fn one_set_up_at_a_time_per_channel_and_player() {
        let holds = Holds::default();
        let duel = holds.hold((7, 0)).expect("free");
        assert!(
            holds.hold((7, 0)).is_none(),
            "a second duel here waits its turn"
        );
        assert!(holds.hold((8, 0)).is_some(), "another channel is free");
        assert!(
            holds.hold((7, 42)).is_some(),
            "a practice here is another key"
        );
        drop(duel);
        assert!(holds.hold((7, 0)).is_some(), "let go when dropped");
    }

    #[test]
    fn an_interactions_time_is_read_from_its_snowflake() {
        // Discord's documented example: 175928847299117063 was made 2016-04-30 11:18:25.796 UTC.
        let asked = Asked {
            channel: 1,
            interaction: 175_928_847_299_117_063,
        };
        assert_eq!(asked.created_ms(), 1_462_015_105_796);
    }
}
