//! Shards, as Discord documents them: a bot opens several gateway connections (from one
//! process or several), each IDENTIFYing as `shard: [id, total]`. A server's events go only
//! to the connection of shard `(guild_id >> 22) % total`, DMs only to shard 0's. `GET
//! /gateway/bot` says the shard count and `max_concurrency` set with
//! [`FakeDiscord::set_shards`]. Every IDENTIFY is recorded with its time
//! ([`FakeDiscord::identifies`]); [`FakeDiscord::pacing_violations`] lists the pairs that
//! broke Discord's identify limit: shards with the same rate-limit key (`id %
//! max_concurrency`) must identify at least 5 s apart. (Recorded, not refused: serenity's
//! 5 s pause between shard starts cannot be shortened, so the window stays Discord's.)
//!
//! Servers beyond the main one ([`FakeDiscord::add_guild_on_shard`]) have one text channel
//! each and share the main guild's roles and members; commands registered in a guild are
//! modelled for the main guild only (register globally to use them elsewhere).

use std::time::{Duration, Instant};

use serde_json::Value;

use super::{FakeDiscord, Session, World};

/// Discord's identify window: one IDENTIFY per rate-limit key per window.
pub const IDENTIFY_WINDOW: Duration = Duration::from_secs(5);

/// How much earlier than [`IDENTIFY_WINDOW`] a second IDENTIFY may arrive and still be
/// paced right: the bot waits the window between sends, and the two frames reach the
/// fake through a socket and a scheduler whose delays differ by up to a few
/// milliseconds on a loaded machine (a run saw one 40 microseconds short of 5 s).
pub const ARRIVAL_JITTER: Duration = Duration::from_millis(50);

/// Another server, on a shard of the test's choosing.
pub(crate) struct GuildRec {
    pub id: u64,
    pub name: String,
    pub channel_id: u64,
    pub channel_name: String,
}

/// One IDENTIFY as the fake received it.
#[derive(Clone, Debug)]
pub struct Identify {
    pub at: Instant,
    pub shard: u32,
    pub total: u32,
    /// The websocket it came on (one per shard of a client).
    pub conn: u64,
}

/// The shard Discord sends `guild`'s events to (DMs: shard 0).
pub fn shard_of(guild: Option<u64>, total: u32) -> u32 {
    guild.map_or(0, |g| ((g >> 22) % u64::from(total.max(1))) as u32)
}

impl World {
    /// The server a text channel belongs to; None for a DM (or no channel).
    pub fn guild_of(&self, channel: u64) -> Option<u64> {
        if let Some(t) = self.threads.iter().find(|t| t.id == channel) {
            return self.guild_of(t.parent);
        }
        if channel == self.channel_id || self.more_channels.iter().any(|(c, _)| *c == channel) {
            return Some(self.guild_id);
        }
        self.guilds
            .iter()
            .find(|g| g.channel_id == channel)
            .map(|g| g.id)
    }

    pub fn is_guild(&self, id: u64) -> bool {
        id == self.guild_id || self.guilds.iter().any(|g| g.id == id)
    }

    /// The current session that gets `guild`'s events (None: DMs, shard 0's).
    pub fn session_for(&self, guild: Option<u64>) -> Option<&Session> {
        self.current
            .values()
            .filter_map(|sid| self.sessions.get(sid))
            .find(|s| s.shard == shard_of(guild, s.total))
    }

    /// Is the session that gets `guild`'s events connected past READY/RESUMED?
    pub fn live_for(&self, guild: Option<u64>) -> bool {
        self.session_for(guild)
            .and_then(|s| s.conn)
            .and_then(|c| self.conns.get(&c))
            .is_some_and(|c| c.ready)
    }

    /// The shards whose current session is connected past READY/RESUMED.
    pub fn live_shards(&self) -> Vec<u32> {
        self.current
            .iter()
            .filter(|(_, sid)| {
                self.sessions
                    .get(*sid)
                    .and_then(|s| s.conn)
                    .and_then(|c| self.conns.get(&c))
                    .is_some_and(|c| c.ready)
            })
            .map(|(shard, _)| *shard)
            .collect()
    }

    /// The servers shard `shard` of `total` has.
    pub fn guilds_on(&self, shard: u32, total: u32) -> Vec<u64> {
        std::iter::once(self.guild_id)
            .chain(self.guilds.iter().map(|g| g.id))
            .filter(|g| shard_of(Some(*g), total) == shard)
            .collect()
    }

    /// IDENTIFY's `shard` field, checked as Discord does (close 4010 "Invalid shard" for
    /// an id not below the total); recorded. None if the connection was closed.
    pub(super) fn identify_shard(&mut self, conn: u64, shard: &Value) -> Option<(u32, u32)> {
        let (id, total) = if shard.is_null() {
            (0, 1)
        } else {
            let n = |i: usize| shard[i].as_u64().and_then(|v| u32::try_from(v).ok());
            match (n(0), n(1)) {
                (Some(id), Some(total)) if id < total => (id, total),
                _ => {
                    self.problem(format!("gateway: IDENTIFY with an invalid shard {shard}"));
                    self.close(conn, 4010, "Invalid shard.");
                    return None;
                }
            }
        };
        self.identifies.push(Identify {
            at: Instant::now(),
            shard: id,
            total,
            conn,
        });
        Some((id, total))
    }
}

impl FakeDiscord {
    /// What `GET /gateway/bot` says: the recommended shard count and the identify
    /// concurrency. Call before the bot starts.
    pub fn set_shards(&self, count: u32, max_concurrency: u32) {
        assert!(count >= 1 && max_concurrency >= 1);
        self.inner.with(|w| {
            w.shard_count = count;
            w.max_concurrency = max_concurrency;
        });
    }

    /// Another server with one text channel, its id chosen so that Discord puts it on
    /// `shard` of `total`: returns (guild id, channel id). Call before the bot connects
    /// (its GUILD_CREATE comes with READY).
    pub fn add_guild_on_shard(&self, name: &str, shard: u32, total: u32) -> (u64, u64) {
        assert!(shard < total);
        self.inner.with(|w| {
            let base = w.snowflake();
            // Move the timestamp part (above bit 22) forward to the next one on `shard`.
            let stamp = base >> 22;
            let step =
                (u64::from(shard) + u64::from(total) - stamp % u64::from(total)) % u64::from(total);
            let id = ((stamp + step) << 22) | (base & 0x3f_ffff);
            w.last_snowflake = w.last_snowflake.max(id);
            let channel_id = w.snowflake();
            w.guilds.push(GuildRec {
                id,
                name: name.to_string(),
                channel_id,
                channel_name: "zendo".into(),
            });
            (id, channel_id)
        })
    }

    /// The shard `guild`'s events go to with `total` shards (None: DMs).
    pub fn shard_of(guild: Option<u64>, total: u32) -> u32 {
        shard_of(guild, total)
    }

    /// Every IDENTIFY so far, in order.
    pub fn identifies(&self) -> Vec<Identify> {
        self.inner.world.lock().unwrap().identifies.clone()
    }

    /// The IDENTIFYs that broke Discord's limit with the `max_concurrency` of
    /// [`set_shards`](Self::set_shards): two of one rate-limit key (`shard %
    /// max_concurrency`) less than [`IDENTIFY_WINDOW`] apart. Empty when paced right.
    pub fn pacing_violations(&self) -> Vec<String> {
        let w = self.inner.world.lock().unwrap();
        let mc = w.max_concurrency.max(1);
        let mut out = Vec::new();
        for (i, a) in w.identifies.iter().enumerate() {
            for b in &w.identifies[i + 1..] {
                let apart = b.at.duration_since(a.at);
                if a.shard % mc == b.shard % mc && apart + ARRIVAL_JITTER < IDENTIFY_WINDOW {
                    out.push(format!(
                        "shards {} and {} (rate-limit key {} of max_concurrency {mc}) \
                         identified {apart:?} apart",
                        a.shard,
                        b.shard,
                        a.shard % mc
                    ));
                }
            }
        }
        out
    }

    /// The shard whose connection an interaction was written to.
    pub fn interaction_shard(&self, id: u64) -> Option<u32> {
        self.inner
            .world
            .lock()
            .unwrap()
            .interactions
            .get(&id)
            .and_then(|i| i.shard)
    }

    /// Until every shard in `shards` has a live session. Panics on timeout.
    pub async fn wait_shards(&self, shards: &[u32], timeout: Duration) {
        let ok = self
            .wait_until(timeout, |w| {
                let live = w.live_shards();
                shards.iter().all(|s| live.contains(s)).then_some(())
            })
            .await;
        if ok.is_none() {
            panic!(
                "fake Discord: shards {shards:?} not all live within {timeout:?} ({:?})",
                self.gateway_stats()
            );
        }
    }
}
