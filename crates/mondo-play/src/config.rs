//! The configuration of `mondo serve`: `config/default.toml` (built into the binary),
//! overlaid by an optional file, overlaid by `MONDO_<SECTION>_<KEY>` environment
//! variables. Everything is checked at start-up, and a problem is one line that names
//! the key, where its value came from, what was wrong and what is allowed.
//!
//! The sections every server has (`[discord]`, `[database]`, `[umpire]`, `[log]`,
//! `[leaderboard]`, `[challenges]`) are
//! here; each game's section is the game's own (`rules::<game>::Section`), assembled
//! into [`Games`] from the registry.

use crate::rules::section::{Checks, Invalid, Section};
use figment::Figment;
use figment::providers::{Env, Format, Toml};
use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::path::{Path, PathBuf};

pub use crate::rules::section::{Limit, ms};

/// The shipped defaults (also the documentation of every key).
pub const DEFAULT_TOML: &str = include_str!("../../../config/default.toml");

/// The prefix of the environment variables that overlay the files.
pub const ENV_PREFIX: &str = "MONDO_";

/// `MONDO_*` variables that are no setting of `mondo serve`, read elsewhere: the
/// overlay leaves them alone. `MONDO_NO_IMAGES` (set to anything) keeps `mondo play`
/// from showing pictures inline (see `play::pictures`).
/// `MONDO_TEST_CLOCK` drives `mondo serve`'s time in the end-to-end tests
/// (`runtime::clock::TEST_CLOCK`). The others are the test suite's switches
/// (docs/developers.md#testing): a developer who exports one and then runs the
/// suite must not see `mondo` refuse to start.
pub const NOT_SETTINGS: &[&str] = &[
    NO_IMAGES,
    "MONDO_SKIP_POSTGRES",
    "MONDO_SKIP_BROWSER",
    "MONDO_POSTGRES_BIN",
    "MONDO_BLESS",
    "MONDO_HELDOUT_ZENDO",
    "MONDO_HELDOUT_BLUFFS",
    "MONDO_SECRECY_SEEDS",
    "MONDO_SECRECY_ACTIONS",
    "MONDO_SECRECY_TRACE",
    "MONDO_SECRECY_ONLY",
    crate::runtime::clock::TEST_CLOCK,
];

/// The variable that turns `mondo play`'s inline pictures off.
pub const NO_IMAGES: &str = "MONDO_NO_IMAGES";

/// The whole configuration. It reads and writes as the file's sections: the shared
/// ones by name, then each game's (see [`Games`]); a section or key that is none is
/// refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Config {
    pub discord: DiscordConfig,
    pub database: DatabaseConfig,
    pub umpire: UmpireConfig,
    pub log: LogConfig,
    /// Who leaderboards list unless a server sets its own rules.
    pub leaderboard: LeaderboardConfig,
    /// How long a two-player challenge waits for its answer.
    pub challenges: ChallengesConfig,
    /// Each game's section.
    #[serde(flatten)]
    pub games: Games,
}

/// The sections every server has, by name (each game's come from [`Games`]).
const SHARED_SECTIONS: [&str; 6] = [
    "discord",
    "database",
    "umpire",
    "log",
    "leaderboard",
    "challenges",
];

impl<'de> Deserialize<'de> for Config {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Config, D::Error> {
        struct Sections;
        impl<'de> Visitor<'de> for Sections {
            type Value = Config;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("the configuration's sections")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Config, A::Error> {
                let (mut discord, mut database, mut umpire, mut log) = (None, None, None, None);
                let (mut leaderboard, mut challenges) = (None, None);
                let mut games = PartialGames::default();
                while let Some(section) = map.next_key::<String>()? {
                    match section.as_str() {
                        "discord" => discord = Some(map.next_value()?),
                        "database" => database = Some(map.next_value()?),
                        "umpire" => umpire = Some(map.next_value()?),
                        "log" => log = Some(map.next_value()?),
                        "leaderboard" => leaderboard = Some(map.next_value()?),
                        "challenges" => challenges = Some(map.next_value()?),
                        other => {
                            if !games.read(other, &mut map)? {
                                let known: Vec<&str> =
                                    SHARED_SECTIONS.into_iter().chain(Games::names()).collect();
                                return Err(de::Error::custom(format!(
                                    "unknown section `{other}`, expected one of `{}`",
                                    known.join("`, `")
                                )));
                            }
                        }
                    }
                }
                Ok(Config {
                    discord: discord.ok_or_else(|| de::Error::missing_field("discord"))?,
                    database: database.ok_or_else(|| de::Error::missing_field("database"))?,
                    umpire: umpire.ok_or_else(|| de::Error::missing_field("umpire"))?,
                    log: log.ok_or_else(|| de::Error::missing_field("log"))?,
                    leaderboard: leaderboard.unwrap_or_default(),
                    challenges: challenges.unwrap_or_default(),
                    games: games.finish()?,
                })
            }
        }
        deserializer.deserialize_map(Sections)
    }
}

/// Builds [`Games`] (each game's section, named by its kind) and its reading and
/// writing from the registry's lines.
macro_rules! game_sections {
    ($($kind:ident => $($path:ident)::+ ($stored:literal, $title:literal)),* $(,)?) => {
        /// Each game's section of the file, by the game's kind: the game's own
        /// `rules::<game>::Section` (`()` for a game that takes another game's).
        #[allow(non_snake_case)]
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Games {
            $(pub $kind: crate::rules::$($path)::+::Section,)*
        }

        #[allow(non_snake_case)]
        #[derive(Default)]
        struct PartialGames {
            $($kind: Option<crate::rules::$($path)::+::Section>,)*
        }

        impl PartialGames {
            /// Reads section `name` if it is a game's; false if it is none.
            fn read<'de, A: MapAccess<'de>>(&mut self, name: &str, map: &mut A) -> Result<bool, A::Error> {
                $(
                    if <crate::rules::$($path)::+::Section as Section>::NAME == name {
                        self.$kind = Some(map.next_value()?);
                        return Ok(true);
                    }
                )*
                Ok(false)
            }

            fn finish<E: de::Error>(self) -> Result<Games, E> {
                Ok(Games {
                    $($kind: match self.$kind {
                        Some(section) => section,
                        None => <crate::rules::$($path)::+::Section as Section>::absent()
                            .ok_or_else(|| E::missing_field(
                                <crate::rules::$($path)::+::Section as Section>::NAME,
                            ))?,
                    },)*
                })
            }
        }

        impl Games {
            /// The games' sections' names, in the registry's order.
            fn names() -> impl Iterator<Item = &'static str> {
                [$(<crate::rules::$($path)::+::Section as Section>::NAME),*]
                    .into_iter()
                    .filter(|name| !name.is_empty())
            }

            /// Every numeric key of the games' sections and what it allows.
            fn limits() -> impl Iterator<Item = &'static Limit> {
                [$(<crate::rules::$($path)::+::Section as Section>::LIMITS),*]
                    .into_iter()
                    .flatten()
            }

            /// Each game's section, for the checks all sections answer.
            fn each(&self) -> [&dyn Checks; [$(stringify!($kind)),*].len()] {
                [$(&self.$kind as &dyn Checks),*]
            }
        }

        impl Serialize for Games {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(None)?;
                $(
                    let name = <crate::rules::$($path)::+::Section as Section>::NAME;
                    if !name.is_empty() {
                        map.serialize_entry(name, &self.$kind)?;
                    }
                )*
                map.end()
            }
        }
    };
}

crate::registry::for_each_game!(game_sections);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiscordConfig {
    /// Register the commands in this server only (instant), instead of globally.
    #[serde(default)]
    pub guild: Option<u64>,
    /// Tests only: the base URL that replaces https://discord.com.
    #[serde(default)]
    pub api_proxy: Option<String>,
    /// How long each start-up step waits for Discord (REST answers, the gateway's
    /// READY) before `mondo serve` stops with one line.
    #[serde(default = "default_timeout_secs")]
    pub timeout_secs: u64,
    /// The shards this process runs, `0-3` or `2` (with `shard_total`); none: one
    /// connection, shard 0 of 1 (docs/scale.md).
    #[serde(default, deserialize_with = "text_or_number")]
    pub shards: Option<String>,
    /// The number of shards the whole bot runs, or `auto` (ask Discord).
    #[serde(default, deserialize_with = "text_or_number")]
    pub shard_total: Option<String>,
}

impl DiscordConfig {
    /// The shard settings together (`crate::shards` says what each allows).
    pub fn sharding(&self) -> Result<crate::shards::Sharding, ConfigError> {
        use crate::shards::{ShardRange, ShardTotal, Sharding};
        let invalid = |key, value: &str, allowed: String| ConfigError::Invalid {
            key,
            value: format!("`{value}`"),
            allowed,
        };
        let range = match &self.shards {
            Some(s) => Some(
                s.parse::<ShardRange>()
                    .map_err(|e| invalid("discord.shards (--shards)", s, e))?,
            ),
            None => None,
        };
        let total = match &self.shard_total {
            Some(s) => Some(
                s.parse::<ShardTotal>()
                    .map_err(|e| invalid("discord.shard_total (--shard-total)", s, e))?,
            ),
            None => None,
        };
        Sharding::new(range, total).map_err(|e| {
            let value = self.shards.clone().unwrap_or_default();
            invalid("discord.shards (--shards)", &value, e)
        })
    }
}

/// A setting written as text or as a number (`shards = 2`, `MONDO_DISCORD_SHARDS=2`,
/// `shard_total = "auto"`), kept as text for its own parser.
fn text_or_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Text(String),
        Number(u64),
        Signed(i64),
    }
    Ok(Option::<Raw>::deserialize(d)?.map(|raw| match raw {
        Raw::Text(t) => t,
        Raw::Number(n) => n.to_string(),
        Raw::Signed(n) => n.to_string(),
    }))
}

fn default_timeout_secs() -> u64 {
    30
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatabaseConfig {
    /// The SQLite file, unless `url` names another database.
    pub path: PathBuf,
    /// `sqlite://FILE` or `postgres://user:password@host:port/database`; replaces
    /// `path` when given.
    #[serde(default)]
    pub url: Option<String>,
    /// How long a process's lease on a match lasts unless renewed: how long a match
    /// whose process died waits before another process on the same database takes it
    /// over (milliseconds; docs/scale.md).
    #[serde(default = "default_lease_ms")]
    pub lease_ms: u64,
    /// How often a process renews its leases (under `lease_ms`).
    #[serde(default = "default_lease_renew_ms")]
    pub lease_renew_ms: u64,
    /// How often a process looks for matches nobody runs, to take them over.
    #[serde(default = "default_lease_renew_ms")]
    pub lease_scan_ms: u64,
    /// PostgreSQL: how long a statement waits for a lock another transaction holds
    /// before it fails (`lock_timeout`, ms).
    #[serde(default = "default_lock_timeout_ms")]
    pub lock_timeout_ms: u64,
    /// PostgreSQL: how long one statement may run (`statement_timeout`, ms).
    #[serde(default = "default_statement_timeout_ms")]
    pub statement_timeout_ms: u64,
    /// PostgreSQL: how long a session may sit idle inside a transaction before the
    /// server ends it, letting go of its locks (`idle_in_transaction_session_timeout`,
    /// ms; under `lease_ms`).
    #[serde(default = "default_idle_in_transaction_ms")]
    pub idle_in_transaction_ms: u64,
}

fn default_lock_timeout_ms() -> u64 {
    crate::store::Timeouts::default().lock_ms
}

fn default_statement_timeout_ms() -> u64 {
    crate::store::Timeouts::default().statement_ms
}

fn default_idle_in_transaction_ms() -> u64 {
    crate::store::Timeouts::default().idle_in_transaction_ms
}

fn default_lease_ms() -> u64 {
    crate::runtime::Config::default().lease_ttl_ms
}

fn default_lease_renew_ms() -> u64 {
    3_000
}

impl DatabaseConfig {
    /// The database to open: `url` if given, else the file at `path`.
    pub fn location(&self) -> Result<crate::store::Location, ConfigError> {
        match &self.url {
            Some(url) => url.parse().map_err(|allowed| ConfigError::Invalid {
                key: "database.url",
                value: format!("`{url}`"),
                allowed,
            }),
            None => Ok(crate::store::Location::Sqlite(self.path.clone())),
        }
    }

    /// The `[database]` settings of a program that has no config file (`mondo play`,
    /// `mondo bench runtime`): the shipped defaults, then the `MONDO_DATABASE_*`
    /// variables, checked as `mondo serve` checks them. Its database is its `--db`;
    /// the rest (leases, PostgreSQL's per-connection limits) are these.
    pub fn from_environment() -> Result<DatabaseConfig, ConfigError> {
        let config: DatabaseConfig = Config::figment(None)?
            .extract_inner("database")
            .map_err(|e| ConfigError::Read(one_line(&e)))?;
        let values = serde_json::to_value(&config).map_err(|e| ConfigError::Read(e.to_string()))?;
        for limit in limits() {
            if let Some(key) = limit.key.strip_prefix("database.")
                && let Some(value) = values[key].as_u64()
            {
                limit.check(value)?;
            }
        }
        config.check()?;
        Ok(config)
    }

    /// The runtime's knobs with these leases: how long, how often renewed, how often
    /// a process looks for matches nobody runs.
    pub fn runtime(&self, base: crate::runtime::Config) -> crate::runtime::Config {
        crate::runtime::Config {
            lease_ttl_ms: self.lease_ms,
            lease_renew_ms: self.lease_renew_ms,
            lease_scan_ms: self.lease_scan_ms,
            ..base
        }
    }

    /// PostgreSQL's limits on each connection (SQLite has none).
    pub fn timeouts(&self) -> crate::store::Timeouts {
        crate::store::Timeouts {
            lock_ms: self.lock_timeout_ms,
            statement_ms: self.statement_timeout_ms,
            idle_in_transaction_ms: self.idle_in_transaction_ms,
        }
    }

    /// The limits that only make sense together: renewals well inside the lease, a
    /// paused transaction ended before the lease runs out, a lock wait inside a
    /// statement's time.
    fn check(&self) -> Result<(), ConfigError> {
        let invalid = |key, value: String, allowed: &str| ConfigError::Invalid {
            key,
            value,
            allowed: allowed.into(),
        };
        if self.lease_renew_ms * 2 > self.lease_ms {
            return Err(invalid(
                "database.lease_renew_ms",
                format!(
                    "{} ms with leases of {} ms",
                    self.lease_renew_ms, self.lease_ms
                ),
                "renew at most every half of database.lease_ms, so one late renewal does \
                 not let the lease run out",
            ));
        }
        if self.idle_in_transaction_ms >= self.lease_ms {
            return Err(invalid(
                "database.idle_in_transaction_ms",
                format!(
                    "{} ms with leases of {} ms",
                    self.idle_in_transaction_ms, self.lease_ms
                ),
                "less than database.lease_ms: a process paused inside a transaction must \
                 lose it (and its locks) before its lease runs out, or it holds its matches \
                 beyond the lease",
            ));
        }
        if self.lock_timeout_ms > self.statement_timeout_ms {
            return Err(invalid(
                "database.lock_timeout_ms",
                format!(
                    "{} ms with statements limited to {} ms",
                    self.lock_timeout_ms, self.statement_timeout_ms
                ),
                "at most database.statement_timeout_ms (a statement that waits for a lock \
                 longer than it may run is ended by the statement limit first)",
            ));
        }
        Ok(())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UmpireConfig {
    pub work_limit_secs: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogConfig {
    pub level: String,
    /// `host:port` where `mondo serve` answers `/metrics` (Prometheus) and
    /// `/healthz`; empty: nowhere.
    #[serde(default)]
    pub metrics_address: String,
}

/// `[leaderboard]`: who a leaderboard lists unless a server sets its own rules
/// (`/leaderboard-settings`); `mondo leaderboard` reads it too.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderboardConfig {
    /// Rated games in that game, at least.
    pub min_games: u32,
    /// One of them within this many days.
    pub recent_days: u32,
    /// A deviation under this.
    pub max_deviation: u32,
    /// A rating period, in days: an idle player's deviation grows by one Glicko-2
    /// period for each (docs/ratings.md, "Inactivity").
    #[serde(default = "default_period_days")]
    pub rating_period_days: u32,
}

fn default_period_days() -> u32 {
    crate::ratings::PERIOD_DAYS
}

impl Default for LeaderboardConfig {
    fn default() -> LeaderboardConfig {
        let d = crate::ratings::BoardSettings::default();
        LeaderboardConfig {
            min_games: d.min_games,
            recent_days: d.recent_days,
            max_deviation: d.max_deviation as u32,
            rating_period_days: default_period_days(),
        }
    }
}

impl LeaderboardConfig {
    pub fn settings(&self) -> crate::ratings::BoardSettings {
        crate::ratings::BoardSettings {
            min_games: self.min_games,
            recent_days: self.recent_days,
            max_deviation: f64::from(self.max_deviation),
        }
    }

    /// The shipped section, then `file`'s, then `MONDO_LEADERBOARD_*`, checked: what
    /// `mondo leaderboard` lists by when a server set nothing (it reads only this
    /// section, so a configuration for another machine's bot does no harm).
    pub fn load(file: Option<&Path>) -> Result<LeaderboardConfig, ConfigError> {
        let section: LeaderboardConfig = Config::figment(file)?
            .extract_inner("leaderboard")
            .map_err(|e| ConfigError::Read(one_line(&e)))?;
        section.check()?;
        Ok(section)
    }

    fn check(&self) -> Result<(), ConfigError> {
        let values = [self.min_games, self.recent_days, self.max_deviation];
        for (rule, value) in crate::ratings::BoardRule::ALL.into_iter().zip(values) {
            let key = format!("leaderboard.{}", rule.key());
            if let Some(l) = limit(&key) {
                l.check(u64::from(value))?;
            }
        }
        if let Some(l) = limit("leaderboard.rating_period_days") {
            l.check(u64::from(self.rating_period_days))?;
        }
        Ok(())
    }
}

/// `[challenges]`: a two-player challenge becomes a match only when the one
/// challenged accepts it; unanswered, it expires after `expire_secs` (docs/ratings.md,
/// "Fair play").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengesConfig {
    pub expire_secs: u64,
}

impl Default for ChallengesConfig {
    fn default() -> ChallengesConfig {
        ChallengesConfig {
            expire_secs: crate::rules::challenge::DEFAULT_EXPIRE_MS / 1000,
        }
    }
}

impl ChallengesConfig {
    /// How long a challenge waits, in milliseconds.
    pub fn expire_ms(&self) -> crate::rules::Millis {
        self.expire_secs.saturating_mul(1000)
    }
}

/// The allowed range of the shared sections' settings, in seconds.
pub const WORK_LIMIT_SECS: std::ops::RangeInclusive<u64> = 1..=600;
pub const DISCORD_TIMEOUT_SECS: std::ops::RangeInclusive<u64> = 1..=600;
pub const CHALLENGE_EXPIRE_SECS: std::ops::RangeInclusive<u64> = 1..=86_400;

/// The shared sections' numeric settings and what each allows; each game's are its
/// section's (`Section::LIMITS`). All of them ([`limits`]) are the one place numbers
/// are checked, for every section, at start-up (the shipped file, `--config`, the
/// environment) and by `mondo play` for the options that set the same things
/// ([`check_terminal`]). A new setting joins with one line
/// (`tests::every_numeric_setting_has_a_limit` says when one is missing).
pub const LIMITS: &[Limit] = &[
    Limit::secs("discord.timeout_secs", DISCORD_TIMEOUT_SECS),
    Limit::secs("umpire.work_limit_secs", WORK_LIMIT_SECS),
    Limit::secs("challenges.expire_secs", CHALLENGE_EXPIRE_SECS),
    Limit::new("database.lease_ms", 300..=600_000, "ms"),
    Limit::new("database.lease_renew_ms", 50..=300_000, "ms"),
    Limit::new("database.lease_scan_ms", 50..=300_000, "ms"),
    Limit::new("database.lock_timeout_ms", 10..=600_000, "ms"),
    Limit::new("database.statement_timeout_ms", 100..=3_600_000, "ms"),
    Limit::new("database.idle_in_transaction_ms", 100..=600_000, "ms"),
    Limit::new(
        "leaderboard.min_games",
        crate::ratings::BOARD_MIN_GAMES,
        "rated games",
    ),
    Limit::new(
        "leaderboard.recent_days",
        crate::ratings::BOARD_RECENT_DAYS,
        "days",
    ),
    Limit::new(
        "leaderboard.max_deviation",
        crate::ratings::BOARD_MAX_DEVIATION,
        "(a deviation)",
    ),
    Limit::new(
        "leaderboard.rating_period_days",
        crate::ratings::PERIOD_DAYS_RANGE,
        "days",
    ),
];

/// Every numeric setting's limit: the shared sections', then each game's.
pub fn limits() -> impl Iterator<Item = &'static Limit> {
    LIMITS.iter().chain(Games::limits())
}

/// The limit of setting `key`.
pub fn limit(key: &str) -> Option<&'static Limit> {
    limits().find(|l| l.key == key)
}

/// Checks a duration `mondo play` was given as `option` (ms) against setting `key`'s
/// limit ([`Limit::check_terminal_ms`]); a duration of no setting passes.
pub fn check_terminal(key: &str, option: &str, ms: crate::store::Millis) -> Result<(), String> {
    limit(key).map_or(Ok(()), |l| l.check_terminal_ms(option, ms))
}

/// The largest file Mondo reads as its configuration.
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// Why the configuration cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("the config file {} does not exist or is not a file", .0.display())]
    NoFile(PathBuf),
    #[error("{0}")]
    File(String),
    /// A value that does not read (figment names the key and its source).
    #[error("bad configuration: {0}")]
    Read(String),
    /// A `MONDO_*` variable that names no setting, by its full name.
    #[error(
        "bad configuration: the variable {name} names no setting (`{key}`); the settings are {known}"
    )]
    UnknownVariable {
        name: String,
        key: String,
        known: String,
    },
    #[error("bad configuration: `{key}` is {value}; {allowed}")]
    Invalid {
        key: &'static str,
        value: String,
        allowed: String,
    },
}

impl From<Invalid> for ConfigError {
    fn from(e: Invalid) -> ConfigError {
        ConfigError::Invalid {
            key: e.key,
            value: e.value,
            allowed: e.allowed,
        }
    }
}

impl Config {
    /// The shipped defaults, then `file` (if given; it must exist), then the process's
    /// `MONDO_*` environment variables.
    pub fn load(file: Option<&Path>) -> Result<Config, ConfigError> {
        let variables = std::env::vars_os().map(|(k, _)| k.to_string_lossy().into_owned());
        check_variables(variables)?;
        Config::from_figment(Config::figment(file)?)
    }

    /// The layers, before extraction (tests add their own on top).
    pub fn figment(file: Option<&Path>) -> Result<Figment, ConfigError> {
        let mut figment = Figment::from(Toml::string(DEFAULT_TOML));
        if let Some(path) = file {
            if !path.is_file() {
                return Err(ConfigError::NoFile(path.to_path_buf()));
            }
            let text = crate::files::read_text(path, MAX_CONFIG_BYTES, "config file")
                .map_err(ConfigError::File)?;
            figment = figment.merge(Toml::string(&text));
        }
        // MONDO_ZENDO_TURN_SECS is zendo.turn_secs: the first `_` after the prefix
        // separates the section (section names have none). Upper case only: figment
        // would read `mondo_zendo_turn_secs` too, which no admin means as a setting.
        Ok(figment.merge(Env::raw().filter_map(|key| {
            let name = key.as_str();
            let rest = name.strip_prefix(ENV_PREFIX)?;
            (!NOT_SETTINGS.contains(&name) && !name.bytes().any(|b| b.is_ascii_lowercase()))
                .then(|| rest.replacen('_', ".", 1).into())
        })))
    }

    /// Checks what needs the database: a default pool that is not built in must be
    /// some server's pool (`names`: every server pool's name).
    pub fn check_pool_among(&self, names: &[String]) -> Result<(), ConfigError> {
        for section in self.games.each() {
            section.check_pools(names)?;
        }
        Ok(())
    }

    /// Extracts and checks a configuration.
    pub fn from_figment(figment: Figment) -> Result<Config, ConfigError> {
        let config: Config = figment
            .extract()
            .map_err(|e| ConfigError::Read(one_line(&e)))?;
        config.validate()?;
        Ok(config)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        let values = serde_json::to_value(self).map_err(|e| ConfigError::Read(e.to_string()))?;
        for limit in limits() {
            let (section, key) = limit.key.split_once('.').unwrap_or(("", limit.key));
            match values[section][key].as_u64() {
                Some(value) => limit.check(value)?,
                None => {
                    return Err(ConfigError::Read(format!(
                        "`{}` is not a number of {}",
                        limit.key, limit.unit
                    )));
                }
            }
        }
        self.database.check()?;
        for section in self.games.each() {
            section.check()?;
        }
        if self.discord.guild == Some(0) {
            return Err(ConfigError::Invalid {
                key: "discord.guild",
                value: "0".into(),
                allowed: "give the server's id (Developer Mode, right-click the server, Copy \
                          Server ID), or leave it out to register the commands globally"
                    .into(),
            });
        }
        if self.database.url.is_none() && self.database.path.as_os_str().is_empty() {
            return Err(ConfigError::Invalid {
                key: "database.path",
                value: "empty".into(),
                allowed: "give the SQLite file's path, e.g. mondo.db".into(),
            });
        }
        // A folder, a missing folder or a file that cannot be written, said now rather
        // than after connecting to Discord (and by --show-config).
        let key = match self.database.url {
            Some(_) => "database.url",
            None => "database.path",
        };
        if let crate::store::Location::Sqlite(path) = self.database.location()?
            && let Err(e) = crate::store::check_writable(&path)
        {
            return Err(ConfigError::Invalid {
                key,
                value: format!("`{}`", path.display()),
                allowed: e.to_string(),
            });
        }
        if let Some(proxy) = &self.discord.api_proxy
            && !(proxy.starts_with("http://") || proxy.starts_with("https://"))
        {
            return Err(ConfigError::Invalid {
                key: "discord.api_proxy",
                value: format!("`{proxy}`"),
                allowed: "give a base URL such as http://127.0.0.1:8080".into(),
            });
        }
        self.discord.sharding()?;
        if let Err(e) = tracing_subscriber::EnvFilter::try_new(&self.log.level) {
            return Err(ConfigError::Invalid {
                key: "log.level",
                value: format!("`{}` ({e})", self.log.level),
                allowed: "a tracing filter such as info, debug or \"info,mondo=debug\"".into(),
            });
        }
        Ok(())
    }

    /// The host role, if one is set (`[zendo]`'s `host_role` holds it).
    pub fn host_role(&self) -> Option<u64> {
        self.games.each().iter().find_map(|s| s.host_role())
    }

    /// The pool hidden patterns come from unless a server or a command says
    /// (`[zendo]`'s `pool`).
    pub fn default_pool(&self) -> &str {
        let pool = self.games.each().into_iter().find_map(|s| s.default_pool());
        pool.unwrap_or("pyramids")
    }
}

/// Refuses a `MONDO_*` variable that is no setting, by its full name: figment reads
/// `MONDO_FOO_BAR` as `foo.bar` and would only name `MONDO_FOO`.
fn check_variables(names: impl Iterator<Item = String>) -> Result<(), ConfigError> {
    let Ok(defaults) = Figment::from(Toml::string(DEFAULT_TOML)).extract::<Config>() else {
        return Ok(()); // a test loads the defaults; extraction reports it anyway
    };
    let Ok(serde_json::Value::Object(sections)) = serde_json::to_value(defaults) else {
        return Ok(());
    };
    let known: Vec<String> = sections
        .iter()
        .flat_map(|(section, keys)| {
            let keys = keys.as_object().into_iter().flat_map(|k| k.keys());
            keys.map(move |k| format!("{ENV_PREFIX}{section}_{k}").to_ascii_uppercase())
        })
        .collect();
    for name in names.filter(|n| !NOT_SETTINGS.contains(&n.as_str())) {
        let upper = name.to_ascii_uppercase();
        // Lower-case `mondo_*` names are not read (not ours); `MONDO_zendo_...` is
        // meant as a setting, and would be lost without a word.
        if name.starts_with(ENV_PREFIX) && name != upper && known.contains(&upper) {
            return Err(ConfigError::UnknownVariable {
                key: format!("it is read in upper case only: {upper}"),
                name,
                known: known.join(", "),
            });
        }
        if name.starts_with(ENV_PREFIX) && !known.contains(&upper) {
            let key = upper[ENV_PREFIX.len()..]
                .replacen('_', ".", 1)
                .to_ascii_lowercase();
            return Err(ConfigError::UnknownVariable {
                name,
                key,
                known: known.join(", "),
            });
        }
    }
    Ok(())
}

/// figment's error (which may be several) on one line, naming each key as the admin
/// wrote it: `zendo.turn_secs` in a file, `MONDO_ZENDO_TURN_SECS` in the environment.
fn one_line(e: &figment::Error) -> String {
    e.clone()
        .into_iter()
        .map(|e| {
            let key = e.path.join(".").to_ascii_lowercase();
            let from = match &e.metadata {
                Some(m) if m.name.contains("environment") => format!(
                    " (from the variable {ENV_PREFIX}{})",
                    key.replace('.', "_").to_ascii_uppercase()
                ),
                Some(m) => match &m.source {
                    Some(source) => format!(" (from {source})"),
                    None => format!(" (from {})", m.name),
                },
                None => String::new(),
            };
            if key.is_empty() {
                format!("{}{from}", e.kind)
            } else {
                format!("`{key}`: {}{from}", e.kind)
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    //! The environment overlay is tested through the binary (`tests/it/serve_cli.rs`):
    //! setting variables here would race other tests' threads reading them.
    use super::*;
    use crate::finder::Style;
    use crate::rules::bluffs::Section as BluffsConfig;
    use crate::rules::zendo::classic::Section as ClassicConfig;
    use crate::rules::zendo::triple::Section as TripleConfig;

    fn with_file(text: &str) -> Result<Config, ConfigError> {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("mondo.toml");
        std::fs::write(&path, text).expect("write");
        Config::load(Some(&path))
    }

    /// `[leaderboard]` ships the rules the ratings promise; a file changes some of
    /// them, the rest stay; a value out of range names its key and what is allowed,
    /// for `mondo serve` and `mondo leaderboard` alike.
    /// A challenge waits 10 minutes for its answer unless `[challenges]` says
    /// otherwise, within 1 second to a day.
    #[test]
    fn challenges_expire_after_ten_minutes_unless_configured() {
        let c = Config::from_figment(Figment::from(Toml::string(DEFAULT_TOML))).expect("defaults");
        assert_eq!(c.challenges, ChallengesConfig::default());
        assert_eq!(c.challenges.expire_ms(), 600_000);
        let c = with_file("[challenges]\nexpire_secs = 90\n").expect("reads");
        assert_eq!(c.challenges.expire_ms(), 90_000);
        let e = with_file("[challenges]\nexpire_secs = 0\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("challenges.expire_secs") && e.contains("1 to 86400"),
            "{e}"
        );
    }

    /// The shipped leases ride out a 30 s database restart: renewed just before it,
    /// a lease outlives it with time to spare, while a dead process's matches move
    /// within the lease plus 5 s (one look for matches nobody runs). The file, the
    /// serde default and the runtime's own default agree.
    #[test]
    fn the_default_leases_ride_out_a_30_s_restart() {
        let c = Config::from_figment(Figment::from(Toml::string(DEFAULT_TOML))).expect("defaults");
        let d = &c.database;
        assert!(d.lease_ms >= 40_000, "{d:?}");
        assert!(d.lease_ms - d.lease_renew_ms > 30_000, "{d:?}");
        assert!(d.lease_scan_ms <= 5_000, "{d:?}");
        assert_eq!(d.lease_ms, default_lease_ms());
        let runtime = crate::runtime::Config::default();
        assert_eq!(
            (
                runtime.lease_ttl_ms,
                runtime.lease_renew_ms,
                runtime.lease_scan_ms
            ),
            (d.lease_ms, d.lease_renew_ms, d.lease_scan_ms)
        );
    }

    /// PostgreSQL's per-connection limits ship with defaults, read from a file, and
    /// are refused when they cannot work together: a paused transaction that outlives
    /// the lease, a lock wait longer than a statement may run.
    #[test]
    fn database_timeouts_have_defaults_and_refuse_what_cannot_work() {
        let c = Config::from_figment(Figment::from(Toml::string(DEFAULT_TOML))).expect("defaults");
        assert_eq!(c.database.timeouts(), crate::store::Timeouts::default());
        let c = with_file("[database]\npath = \"m.db\"\nlock_timeout_ms = 500\n").expect("reads");
        assert_eq!(c.database.timeouts().lock_ms, 500);
        let e = with_file("[database]\npath = \"m.db\"\nidle_in_transaction_ms = 40000\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("database.idle_in_transaction_ms")
                && e.contains("40000 ms with leases of 40000 ms")
                && e.contains("less than database.lease_ms"),
            "{e}"
        );
        let e = with_file("[database]\npath = \"m.db\"\nlock_timeout_ms = 20000\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("database.lock_timeout_ms")
                && e.contains("at most database.statement_timeout_ms"),
            "{e}"
        );
        let e = with_file("[database]\npath = \"m.db\"\nstatement_timeout_ms = 5\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("database.statement_timeout_ms") && e.contains("100 to 3600000"),
            "{e}"
        );
    }

    #[test]
    fn leaderboard_rules_ship_as_promised_and_are_range_checked() {
        let c = Config::from_figment(Figment::from(Toml::string(DEFAULT_TOML))).expect("defaults");
        assert_eq!(
            c.leaderboard.settings(),
            crate::ratings::BoardSettings::default()
        );
        assert_eq!(c.leaderboard, LeaderboardConfig::default());
        let c = with_file(
            "[leaderboard]
min_games = 2
",
        )
        .expect("reads");
        assert_eq!(
            (c.leaderboard.min_games, c.leaderboard.recent_days),
            (2, 30)
        );
        let e = with_file(
            "[leaderboard]
max_deviation = 400
",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("leaderboard.max_deviation") && e.contains("10 to 350"),
            "{e}"
        );
        let e = with_file(
            "[leaderboard]
min_games = 0
",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("leaderboard.min_games") && e.contains("1 to 1000"),
            "{e}"
        );
        let e = with_file(
            "[leaderboard]
min_game = 3
",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("min_game"), "unknown keys are refused: {e}");
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("board.toml");
        std::fs::write(
            &path,
            "[leaderboard]
recent_days = 7
",
        )
        .expect("write");
        let section = LeaderboardConfig::load(Some(&path)).expect("reads");
        assert_eq!(section.settings().recent_days, 7);
        std::fs::write(
            &path,
            "[leaderboard]
recent_days = 4000
",
        )
        .expect("write");
        let e = LeaderboardConfig::load(Some(&path))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("leaderboard.recent_days") && e.contains("1 to 3650"),
            "{e}"
        );
    }

    /// The shard keys read as text or numbers; a bad one names its key and what is
    /// allowed; none means one connection, as before.
    #[test]
    fn the_shard_keys_read_and_bad_ones_are_one_line() {
        use crate::shards::{ShardRange, Sharding};
        let c = with_file("[discord]\nshards = \"2-3\"\nshard_total = 4\n").expect("reads");
        assert_eq!(
            c.discord.sharding().unwrap(),
            Sharding::Fixed {
                range: ShardRange { first: 2, last: 3 },
                total: 4
            }
        );
        let c = with_file("[discord]\nshards = 2\nshard_total = \"auto\"\n").expect("reads");
        assert_eq!(
            c.discord.sharding().unwrap(),
            Sharding::Auto {
                range: Some(ShardRange { first: 2, last: 2 })
            }
        );
        let c = with_file("").expect("defaults");
        assert_eq!(c.discord.sharding().unwrap(), Sharding::Single);
        for (file, key, says) in [
            (
                "shards = \"5-3\"\nshard_total = 8",
                "discord.shards",
                "backwards",
            ),
            (
                "shards = \"0-8\"\nshard_total = 8",
                "discord.shards",
                "0 to 7",
            ),
            (
                "shards = \"x\"\nshard_total = 8",
                "discord.shards",
                "e.g. 0-3",
            ),
            ("shard_total = 0", "discord.shard_total", "1 or more"),
            ("shards = 1", "discord.shards", "--shard-total"),
        ] {
            let e = with_file(&format!("[discord]\n{file}\n"))
                .unwrap_err()
                .to_string();
            assert!(e.contains(key) && e.contains(says), "{file}: {e}");
        }
    }

    #[test]
    fn the_shipped_defaults_load_and_say_the_seeds_times() {
        let c = Config::from_figment(Figment::from(Toml::string(DEFAULT_TOML))).expect("defaults");
        assert_eq!(c.games.ZendoDuel.turn_secs, 180);
        assert_eq!(c.games.ZendoDuel.challenge_secs, 30);
        assert_eq!(c.games.ZendoDuel.guess_bonus_secs, 30);
        assert_eq!(c.games.ZendoDuel.style, Style::Simple);
        assert_eq!(c.games.ZendoDuel.pool, "pyramids");
        assert_eq!(c.host_role(), None);
        assert_eq!(c.discord.guild, None);
        assert_eq!(c.discord.api_proxy, None);
        assert_eq!(c.database.path, PathBuf::from("mondo.db"));
    }

    #[test]
    fn a_file_overlays_the_defaults() {
        let c = with_file("[zendo]\nturn_secs = 60\nstyle = \"varied\"\nhost_role = 42\n")
            .expect("overlaid");
        assert_eq!(c.games.ZendoDuel.turn_secs, 60);
        assert_eq!(c.games.ZendoDuel.style, Style::Varied);
        assert_eq!(c.host_role(), Some(42));
        assert_eq!(
            c.games.ZendoDuel.challenge_secs, 30,
            "the rest stays default"
        );
    }

    #[test]
    fn bad_values_are_one_line_naming_the_key_and_what_is_allowed() {
        let e = with_file("[zendo]\nturn_secs = 5\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("zendo.turn_secs") && e.contains("10 to 3600"),
            "{e}"
        );
        assert!(!e.contains('\n'), "{e}");
        let e = with_file("[zendo]\nturn_secs = \"soon\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("turn_secs") && e.contains("soon"), "{e}");
        let e = with_file("[zendo]\nstyle = \"fancy\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("style") && e.contains("fancy"), "{e}");
        let e = with_file("[zendo]\nturn_sec = 60\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("turn_sec"), "unknown keys are refused: {e}");
        let e = with_file("[log]\nlevel = \"mondo=loudest\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("log.level"), "{e}");
        let e = with_file("[discord]\napi_proxy = \"127.0.0.1:9\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("discord.api_proxy") && e.contains("http://"),
            "{e}"
        );
        let e = with_file("[discord]\nguild = 0\n").unwrap_err().to_string();
        assert!(
            e.contains("discord.guild") && e.contains("server's id"),
            "{e}"
        );
        let e = with_file("[zendo]\npool = \"Arrows\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("zendo.pool") && e.contains("pyramids"), "{e}");
        let e = with_file("[classic]\nlobby_secs = 30\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("classic.lobby_secs") && e.contains("60 to 86400"),
            "{e}"
        );
        let e = Config::load(Some(Path::new("/no/such/mondo.toml")))
            .unwrap_err()
            .to_string();
        assert!(e.contains("/no/such/mondo.toml"), "{e}");
    }

    /// A section that is neither a shared one nor any game's is refused, naming it
    /// and the sections there are (the games' from the registry).
    #[test]
    fn an_unknown_section_is_refused_naming_the_sections() {
        let e = with_file("[zendoo]\nturn_secs = 60\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`zendoo`"), "{e}");
        for section in [
            "discord", "log", "zendo", "triple", "classic", "assembly", "bluffs",
        ] {
            assert!(e.contains(&format!("`{section}`")), "{section}: {e}");
        }
        assert!(!e.contains('\n'), "{e}");
    }

    /// One table for every numeric setting: each key in it is a setting, and each
    /// numeric setting (ids aside) is in it, so a new one cannot skip the check.
    #[test]
    fn every_numeric_setting_has_a_limit() {
        let c = Config::from_figment(Figment::from(Toml::string(DEFAULT_TOML))).expect("defaults");
        let values = serde_json::to_value(&c).unwrap();
        let ids = ["discord.guild", "zendo.host_role"];
        for (section, keys) in values.as_object().unwrap() {
            for (key, value) in keys.as_object().unwrap() {
                let name = format!("{section}.{key}");
                if value.is_number() && !ids.contains(&name.as_str()) {
                    assert!(limit(&name).is_some(), "{name} has no limit in LIMITS");
                }
            }
        }
        for l in limits() {
            let (section, key) = l.key.split_once('.').unwrap();
            assert!(values[section][key].is_number(), "{} is no setting", l.key);
        }
    }

    /// Pattern Assembly's durations were not checked at all (and `v * 1000` wrapped
    /// in a release build); each is now, with 0 keeping the game's own.
    #[test]
    fn assembly_settings_are_range_checked_with_zero_for_the_games_own() {
        for (key, bad) in [
            ("reveal_secs", "9223372036854775807"),
            ("reveal_secs", "601"),
            ("wait_secs", "601"),
            ("round_secs", "3601"),
            ("showdown_secs", "3601"),
            ("rounds", "101"),
        ] {
            let e = with_file(&format!("[assembly]\n{key} = {bad}\n"))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains(&format!("assembly.{key}")) && e.contains("0 keeps the game's own"),
                "{key} = {bad}: {e}"
            );
        }
        let c = with_file("[assembly]\nreveal_secs = 0\nround_secs = 60\n").expect("in range");
        assert_eq!(c.games.Assembly.round_secs, 60);
        assert_eq!(ms(u64::MAX), u64::MAX, "saturates");
        assert_eq!(ms(30), 30_000);
    }

    /// The terminal's durations meet the same upper limits (any time above 0 below).
    #[test]
    fn terminal_durations_meet_the_same_limits() {
        assert!(check_terminal("zendo.turn_secs", "--turn-secs", 300).is_ok());
        assert!(check_terminal("zendo.turn_secs", "--turn-secs", 3_600_000).is_ok());
        let e = check_terminal("zendo.turn_secs", "--turn-secs", 3_600_001).unwrap_err();
        assert!(
            e.contains("--turn-secs") && e.contains("3600 seconds"),
            "{e}"
        );
        assert!(check_terminal("zendo.turn_secs", "--turn-secs", 0).is_err());
        assert!(check_terminal("bluffs.reserve_secs", "--reserve-secs", 0).is_ok());
        let e = check_terminal("assembly.reveal_secs", "--reveal-secs", u64::MAX).unwrap_err();
        assert!(e.contains("600 seconds"), "{e}");
    }

    #[test]
    fn a_config_file_larger_than_the_limit_is_refused_unread() {
        let e = Config::load(Some(Path::new("/dev/zero")))
            .unwrap_err()
            .to_string();
        assert!(e.contains("/dev/zero"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.toml");
        std::fs::write(&big, "#".repeat(MAX_CONFIG_BYTES as usize + 1)).unwrap();
        let e = Config::load(Some(&big)).unwrap_err().to_string();
        assert!(e.contains("larger than"), "{e}");
    }

    #[test]
    fn the_default_pool_is_built_in_or_some_servers() {
        let e = with_file("[zendo]\npool = \"no such\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("zendo.pool"), "{e}");
        let c = with_file("[zendo]\npool = \"nonexistent\"\n").expect("a pool's name");
        let e = c.check_pool_among(&[]).unwrap_err().to_string();
        assert!(e.contains("no server has a pool by that name"), "{e}");
        assert!(c.check_pool_among(&["nonexistent".into()]).is_ok());
        let c = with_file("[zendo]\npool = \"generated\"\n").expect("built in");
        assert!(c.check_pool_among(&[]).is_ok());
    }

    /// The original Pattern Assembly's wrong-shape rule: the rules' change (every
    /// answer waits) unless the file says at once; anything else is refused at load,
    /// naming the key and the value.
    #[test]
    fn the_assembly_wrong_shape_rule_loads_and_is_checked() {
        use crate::rules::assembly::WrongShape;
        let c = Config::from_figment(Figment::from(Toml::string(DEFAULT_TOML))).expect("defaults");
        assert_eq!(c.games.Assembly.wrong_shape, WrongShape::Waits);
        let c = with_file("[assembly]\nwrong_shape = \"at_once\"\n").expect("overlaid");
        assert_eq!(c.games.Assembly.wrong_shape, WrongShape::AtOnce);
        let e = with_file("[assembly]\nwrong_shape = \"sometimes\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("wrong_shape") && e.contains("sometimes") && !e.contains('\n'),
            "{e}"
        );
    }

    #[test]
    fn the_bluffs_section_ships_the_games_own_settings() {
        let c = Config::from_figment(Figment::from(Toml::string(DEFAULT_TOML))).expect("defaults");
        assert_eq!(c.games.Bluffs, BluffsConfig::default());
        assert_eq!(
            c.games.Bluffs.settings(),
            crate::rules::bluffs::Settings::default()
        );
    }

    #[test]
    fn a_bluffs_section_sets_every_duration_and_cost() {
        let c = with_file(
            "[bluffs]\nbluff_secs = 60\nclaim_secs = 45\nreveal_secs = 20\nguess_secs = 0\n\
             reserve_secs = 120\nknown_tiles = 3\nreveal_cost = 1\nmax_words = 20\n\
             rp_per_true = 2\nrp_per_right_mark = 3\n",
        )
        .expect("overlaid");
        let s = c.games.Bluffs.settings();
        assert_eq!(
            s,
            crate::rules::bluffs::Settings {
                known_tiles: 3,
                bluffing_ms: 60_000,
                claiming_ms: 45_000,
                reveal_ms: 20_000,
                guess_extra_ms: 0,
                reserve_ms: 120_000,
                rp_per_true: 2,
                rp_per_right_mark: 3,
                reveal_cost: 1,
                max_words: 20,
            }
        );
        let c = with_file("[bluffs]\nreveal_cost = 2\n").expect("one key");
        assert_eq!(c.games.Bluffs.reveal_cost, 2);
        assert_eq!(
            c.games.Bluffs.bluff_secs, 180,
            "the rest stays the game's own"
        );
    }

    #[test]
    fn each_bad_bluffs_value_is_refused_naming_its_key_and_range() {
        for (key, bad, allowed) in [
            ("bluff_secs", 9, "10 to 3600 seconds"),
            ("bluff_secs", 3601, "10 to 3600 seconds"),
            ("claim_secs", 4, "5 to 3600 seconds"),
            ("reveal_secs", 0, "5 to 600 seconds"),
            ("reveal_secs", 601, "5 to 600 seconds"),
            ("guess_secs", 3601, "0 to 3600 seconds"),
            ("reserve_secs", 3601, "0 to 3600 seconds"),
            ("known_tiles", 9, "0 to 8 tiles"),
            ("reveal_cost", 0, "1 to 100 RP"),
            ("reveal_cost", 101, "1 to 100 RP"),
            ("max_words", 0, "1 to 40 words"),
            ("max_words", 41, "1 to 40 words"),
            ("rp_per_true", 101, "0 to 100 RP"),
            ("rp_per_right_mark", 101, "0 to 100 RP"),
        ] {
            let e = with_file(&format!("[bluffs]\n{key} = {bad}\n"))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains(&format!("`bluffs.{key}` is {bad}")) && e.contains(allowed),
                "{key} = {bad}: {e}"
            );
            assert!(!e.contains('\n'), "{e}");
        }
        let e = with_file("[bluffs]\nreveal_cost = -1\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("bluffs.reveal_cost"), "{e}");
        let e = with_file("[bluffs]\nbluff_secs = \"soon\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("bluffs.bluff_secs") && e.contains("soon"), "{e}");
        let e = with_file("[bluffs]\nreveal_price = 3\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("reveal_price"), "unknown keys are refused: {e}");
    }

    #[test]
    fn triple_and_classic_clocks_load_with_their_defaults_and_a_file_overlays_them() {
        let c = Config::from_figment(Figment::from(Toml::string(DEFAULT_TOML))).expect("defaults");
        assert_eq!(
            c.games.ZendoClassic,
            ClassicConfig {
                lobby_secs: 900,
                turn_secs: 180,
                answer_secs: 30,
                guess_bonus_secs: 30,
            }
        );
        assert_eq!(
            c.games.ZendoTriple,
            TripleConfig {
                turn_secs: 180,
                challenge_secs: 60,
                counterexample_bonus_secs: 30,
                play_secs: 7200,
                quiz_secs: 300,
            }
        );
        let c = with_file("[triple]\nplay_secs = 3600\n[classic]\nanswer_secs = 45\n")
            .expect("overlaid");
        assert_eq!(c.games.ZendoTriple.play_secs, 3600);
        assert_eq!(
            c.games.ZendoTriple.challenge_secs, 60,
            "the rest stays default"
        );
        assert_eq!(c.games.ZendoClassic.answer_secs, 45);
        assert_eq!(c.games.ZendoDuel.challenge_secs, 30, "the duel's are apart");
    }

    #[test]
    fn a_triple_or_classic_clock_out_of_range_names_its_key_and_the_range() {
        for (file, key, allowed) in [
            (
                "[triple]\nturn_secs = 4000\n",
                "triple.turn_secs",
                "10 to 3600",
            ),
            (
                "[triple]\nchallenge_secs = 1\n",
                "triple.challenge_secs",
                "5 to 600",
            ),
            (
                "[triple]\ncounterexample_bonus_secs = 601\n",
                "triple.counterexample_bonus_secs",
                "0 to 600",
            ),
            (
                "[triple]\nplay_secs = 60\n",
                "triple.play_secs",
                "600 to 86400",
            ),
            (
                "[triple]\nquiz_secs = 5\n",
                "triple.quiz_secs",
                "30 to 3600",
            ),
            (
                "[classic]\nturn_secs = 0\n",
                "classic.turn_secs",
                "10 to 3600",
            ),
            (
                "[classic]\nanswer_secs = 700\n",
                "classic.answer_secs",
                "5 to 600",
            ),
            (
                "[classic]\nguess_bonus_secs = 900\n",
                "classic.guess_bonus_secs",
                "0 to 600",
            ),
        ] {
            let e = with_file(file).unwrap_err().to_string();
            assert!(e.contains(key) && e.contains(allowed), "{file}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
        let e = with_file("[triple]\nturn = 60\n").unwrap_err().to_string();
        assert!(e.contains("turn"), "unknown keys are refused: {e}");
    }
}
