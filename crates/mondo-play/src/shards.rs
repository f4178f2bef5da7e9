//! Which Discord shards one `mondo serve` process runs (`--shards 0-3 --shard-total 8`,
//! or `discord.shards` / `discord.shard_total` in the config), read and checked here
//! before anything is said to Discord. Discord sends a server's events to shard
//! `(server id >> 22) % total` and DMs to shard 0 (docs/scale.md).

pub mod coverage;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The shards one process runs: `first..=last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRange {
    pub first: u32,
    pub last: u32,
}

impl ShardRange {
    /// How many shards (at least 1).
    pub fn count(&self) -> u32 {
        self.last - self.first + 1
    }

    pub fn contains(&self, shard: u32) -> bool {
        (self.first..=self.last).contains(&shard)
    }
}

impl fmt::Display for ShardRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "{}", self.first)
        } else {
            write!(f, "{}-{}", self.first, self.last)
        }
    }
}

const RANGE_ALLOWED: &str = "give one shard id (e.g. 2) or a range first-last (e.g. 0-3); \
                             shard ids start at 0";

fn shard_id(text: &str, whole: &str) -> Result<u32, String> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("`{whole}` is not a shard range: {RANGE_ALLOWED}"));
    }
    t.parse::<u32>()
        .map_err(|_| format!("`{whole}`: shard {t} is too large: {RANGE_ALLOWED}"))
}

impl FromStr for ShardRange {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let whole = s.trim();
        let (first, last) = match whole.split_once('-') {
            Some((a, b)) => (shard_id(a, whole)?, shard_id(b, whole)?),
            None => {
                let one = shard_id(whole, whole)?;
                (one, one)
            }
        };
        if last < first {
            return Err(format!(
                "`{whole}` runs backwards: give the first shard, then the last (e.g. \
                 {last}-{first}), or one shard id"
            ));
        }
        Ok(ShardRange { first, last })
    }
}

/// How many shards the whole bot has (across every process): a number, or `auto`
/// (ask Discord, `GET /gateway/bot`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardTotal {
    Count(u32),
    Auto,
}

impl fmt::Display for ShardTotal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardTotal::Count(n) => write!(f, "{n}"),
            ShardTotal::Auto => f.write_str("auto"),
        }
    }
}

const TOTAL_ALLOWED: &str = "give the number of shards the whole bot runs (1 or more), or \
                             auto to ask Discord";

impl FromStr for ShardTotal {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("auto") {
            return Ok(ShardTotal::Auto);
        }
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("`{t}` is not a shard total: {TOTAL_ALLOWED}"));
        }
        match t.parse::<u32>() {
            Ok(0) => Err(format!("a total of 0 shards runs nothing: {TOTAL_ALLOWED}")),
            Ok(n) => Ok(ShardTotal::Count(n)),
            Err(_) => Err(format!("`{t}` shards is too many: {TOTAL_ALLOWED}")),
        }
    }
}

/// What `mondo serve` connects as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sharding {
    /// No shard options: one connection, shard 0 of 1 (a bot in fewer than 2,500
    /// servers, as Discord allows).
    Single,
    /// These shards of `total`.
    Fixed { range: ShardRange, total: u32 },
    /// Discord says the total at start-up; `range` (all of them if none) is checked
    /// against it then.
    Auto { range: Option<ShardRange> },
}

impl Sharding {
    /// The options together: a range needs a total, and must lie within it.
    pub fn new(range: Option<ShardRange>, total: Option<ShardTotal>) -> Result<Self, String> {
        match (range, total) {
            (None, None) => Ok(Sharding::Single),
            (Some(r), None) => Err(format!(
                "shards {r} of how many? Give the total too (--shard-total, \
                 discord.shard_total): the number of shards the whole bot runs, or auto"
            )),
            (range, Some(ShardTotal::Auto)) => Ok(Sharding::Auto { range }),
            (range, Some(ShardTotal::Count(total))) => {
                let range = range.unwrap_or(ShardRange {
                    first: 0,
                    last: total - 1,
                });
                within(range, total)?;
                Ok(Sharding::Fixed { range, total })
            }
        }
    }

    /// The shards to run once Discord's count is known (for `Auto`; the others ignore
    /// it).
    pub fn resolve(self, discord_total: u32) -> Result<(ShardRange, u32), String> {
        match self {
            Sharding::Single => Ok((ShardRange { first: 0, last: 0 }, 1)),
            Sharding::Fixed { range, total } => Ok((range, total)),
            Sharding::Auto { range } => {
                let total = discord_total.max(1);
                let range = range.unwrap_or(ShardRange {
                    first: 0,
                    last: total - 1,
                });
                within(range, total).map_err(|e| format!("{e} (Discord's count, auto)"))?;
                Ok((range, total))
            }
        }
    }
}

fn within(range: ShardRange, total: u32) -> Result<(), String> {
    if range.last >= total {
        return Err(format!(
            "shards {range} go beyond a total of {total}: shard ids run 0 to {}",
            total - 1
        ));
    }
    Ok(())
}

/// The shard Discord sends a server's events to (DMs go to shard 0).
pub fn shard_of(guild_id: u64, total: u32) -> u32 {
    ((guild_id >> 22) % u64::from(total.max(1))) as u32
}

/// Discord's identify window: shards of one rate-limit key identify at least this far
/// apart.
pub const IDENTIFY_WINDOW: Duration = Duration::from_secs(5);

/// The rate-limit key of a shard (`id % max_concurrency`): shards of one key identify
/// one per [`IDENTIFY_WINDOW`], shards of different keys may identify together.
pub fn rate_limit_key(shard: u32, max_concurrency: u32) -> u32 {
    shard % max_concurrency.max(1)
}

/// The rate-limit keys of a range's shards, ascending, each once.
pub fn rate_limit_keys(range: ShardRange, max_concurrency: u32) -> Vec<u32> {
    let mut keys: Vec<u32> = (range.first..=range.last)
        .map(|s| rate_limit_key(s, max_concurrency))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The advisory lock's first number (`pg_advisory_lock(int, int)`: this, then the
/// rate-limit key): "Mond" in ASCII, so no other program's locks are taken by chance.
const IDENTIFY_LOCK: i32 = 0x4d6f_6e64;

/// How long a process waits for another's identify turn before identifying anyway
/// (a stopped process holds its turn until its connection to PostgreSQL drops; Discord
/// then answers an early IDENTIFY with an invalid session, and serenity tries again).
pub const TURN_WAIT: Duration = Duration::from_secs(180);

/// This process's turn to identify on some rate-limit keys, across every process of
/// the bot on one PostgreSQL database: one advisory lock per key, held on a connection
/// of its own from before the first of its shards starts until [`IDENTIFY_WINDOW`]
/// after the last of them on that key has connected. Another process wanting a key
/// waits for it, so two processes never identify shards of one key within the window.
/// A process that dies lets go at once (its connection drops).
pub struct IdentifyTurn {
    conn: sqlx::postgres::PgConnection,
    held: Vec<u32>,
}

impl IdentifyTurn {
    /// Takes the locks of `keys` (ascending, so two processes never wait on each
    /// other), waiting up to [`TURN_WAIT`] for another process's turn; `waiting` is
    /// called once if it has to wait. After the wait, the keys not taken are left to
    /// luck (logged by the caller from the error).
    pub async fn take(
        url: &str,
        keys: &[u32],
        waiting: impl FnOnce(),
    ) -> Result<IdentifyTurn, String> {
        use sqlx::Connection;
        let conn = sqlx::postgres::PgConnection::connect(url)
            .await
            .map_err(|e| format!("could not reach the database for the identify turn: {e}"))?;
        let mut turn = IdentifyTurn {
            conn,
            held: Vec::new(),
        };
        let mut waiting = Some(waiting);
        for &key in keys {
            if !turn.try_lock(key).await? {
                if let Some(say) = waiting.take() {
                    say();
                }
                turn.lock(key).await?;
            }
            turn.held.push(key);
        }
        Ok(turn)
    }

    async fn try_lock(&mut self, key: u32) -> Result<bool, String> {
        sqlx::query_scalar::<_, bool>("SELECT pg_try_advisory_lock($1, $2)")
            .bind(IDENTIFY_LOCK)
            .bind(key as i32)
            .fetch_one(&mut self.conn)
            .await
            .map_err(|e| format!("could not take the identify turn: {e}"))
    }

    async fn lock(&mut self, key: u32) -> Result<(), String> {
        sqlx::query("SELECT set_config('lock_timeout', $1, false)")
            .bind(TURN_WAIT.as_millis().to_string())
            .execute(&mut self.conn)
            .await
            .map_err(|e| format!("could not wait for the identify turn: {e}"))?;
        sqlx::query("SELECT pg_advisory_lock($1, $2)")
            .bind(IDENTIFY_LOCK)
            .bind(key as i32)
            .execute(&mut self.conn)
            .await
            .map_err(|e| {
                format!(
                    "another process kept the identify turn of rate-limit key {key} longer                      than {} s: {e}",
                    TURN_WAIT.as_secs()
                )
            })?;
        Ok(())
    }

    /// The keys held.
    pub fn held(&self) -> &[u32] {
        &self.held
    }

    /// Lets another process have `key`.
    pub async fn release(&mut self, key: u32) {
        if let Some(i) = self.held.iter().position(|k| *k == key) {
            self.held.remove(i);
            let unlocked = sqlx::query("SELECT pg_advisory_unlock($1, $2)")
                .bind(IDENTIFY_LOCK)
                .bind(key as i32)
                .execute(&mut self.conn)
                .await;
            if let Err(e) = unlocked {
                // Closing the connection lets every key go.
                tracing::warn!(key, error = %e, "an identify turn could not be let go");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Result<ShardRange, String> {
        s.parse()
    }

    #[test]
    fn ranges_read_and_bad_ones_say_what_is_allowed() {
        assert_eq!(r("0-3"), Ok(ShardRange { first: 0, last: 3 }));
        assert_eq!(r(" 2 "), Ok(ShardRange { first: 2, last: 2 }));
        assert_eq!(r("2-2").unwrap().count(), 1);
        let e = r("5-3").unwrap_err();
        assert!(e.contains("backwards") && e.contains("3-5"), "{e}");
        for bad in ["a-b", "", "-1", "1-", "1.5", "one", "0-3-4", "99999999999"] {
            let e = r(bad).unwrap_err();
            assert!(e.contains("e.g. 0-3"), "{bad}: {e}");
        }
    }

    #[test]
    fn totals_read_and_zero_or_words_are_refused() {
        assert_eq!("8".parse(), Ok(ShardTotal::Count(8)));
        assert_eq!("AUTO".parse(), Ok(ShardTotal::Auto));
        for bad in ["0", "many", "-2", ""] {
            let e = bad.parse::<ShardTotal>().unwrap_err();
            assert!(e.contains("1 or more") && e.contains("auto"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_range_needs_a_total_and_lies_within_it() {
        let range = |s| Some(r(s).unwrap());
        assert_eq!(Sharding::new(None, None), Ok(Sharding::Single));
        assert_eq!(
            Sharding::new(range("0-3"), Some(ShardTotal::Count(8))),
            Ok(Sharding::Fixed {
                range: ShardRange { first: 0, last: 3 },
                total: 8
            })
        );
        // A total alone runs all of them.
        assert_eq!(
            Sharding::new(None, Some(ShardTotal::Count(4))).unwrap(),
            Sharding::Fixed {
                range: ShardRange { first: 0, last: 3 },
                total: 4
            }
        );
        let e = Sharding::new(range("0-3"), None).unwrap_err();
        assert!(e.contains("--shard-total"), "{e}");
        let e = Sharding::new(range("6-8"), Some(ShardTotal::Count(8))).unwrap_err();
        assert!(e.contains("beyond") && e.contains("0 to 7"), "{e}");
        // auto: checked against what Discord says.
        let auto = Sharding::new(range("2-3"), Some(ShardTotal::Auto)).unwrap();
        assert_eq!(auto.resolve(4), Ok((ShardRange { first: 2, last: 3 }, 4)));
        let e = auto.resolve(2).unwrap_err();
        assert!(e.contains("0 to 1") && e.contains("Discord"), "{e}");
        let all = Sharding::new(None, Some(ShardTotal::Auto)).unwrap();
        assert_eq!(all.resolve(3), Ok((ShardRange { first: 0, last: 2 }, 3)));
        assert_eq!(
            Sharding::Single.resolve(9),
            Ok((ShardRange { first: 0, last: 0 }, 1))
        );
    }

    #[test]
    fn a_range_takes_the_turns_of_its_shards_rate_limit_keys() {
        let range = |s| r(s).unwrap();
        // max_concurrency 1: one key for the whole bot.
        assert_eq!(rate_limit_keys(range("0-7"), 1), [0]);
        assert_eq!(rate_limit_keys(range("0-1"), 2), [0, 1]);
        assert_eq!(rate_limit_keys(range("2"), 2), [0]);
        assert_eq!(rate_limit_keys(range("3"), 2), [1]);
        // Keys ascending and each once, so two processes never wait on each other.
        assert_eq!(rate_limit_keys(range("14-18"), 16), [0, 1, 2, 14, 15]);
        // A zero from Discord is read as 1.
        assert_eq!(rate_limit_key(5, 0), 0);
    }

    #[test]
    fn a_server_goes_to_the_shard_discord_documents() {
        // One shard has every server.
        assert_eq!(shard_of(197_038_439_483_310_086, 1), 0);
        // The id's timestamp (above bit 22) picks the shard; the low bits do not.
        assert_eq!(shard_of((5 << 22) | 0x3f_ffff, 4), 1);
        assert_eq!(shard_of(5 << 22, 4), 1);
        assert_eq!(shard_of(7 << 22, 8), 7);
    }
}
