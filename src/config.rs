//! The configuration of `mondo serve`: `config/default.toml` (built into the binary),
//! overlaid by an optional file, overlaid by `MONDO_<SECTION>_<KEY>` environment
//! variables. Everything is checked at start-up, and a problem is one line that names
//! the key, where its value came from, what was wrong and what is allowed.

use crate::finder::Style;
use figment::Figment;
use figment::providers::{Env, Format, Toml};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// The shipped defaults (also the documentation of every key).
pub const DEFAULT_TOML: &str = include_str!("../config/default.toml");

/// The prefix of the environment variables that overlay the files.
pub const ENV_PREFIX: &str = "MONDO_";

/// `MONDO_*` variables that are no setting of `mondo serve`, read elsewhere: the
/// overlay leaves them alone. `MONDO_NO_IMAGES` (set to anything) keeps `mondo play`
/// from showing pictures inline (see `play::pictures`).
pub const NOT_SETTINGS: &[&str] = &[NO_IMAGES, "MONDO_SKIP_POSTGRES", "MONDO_POSTGRES_BIN"];

/// The variable that turns `mondo play`'s inline pictures off.
pub const NO_IMAGES: &str = "MONDO_NO_IMAGES";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub discord: DiscordConfig,
    pub database: DatabaseConfig,
    pub zendo: ZendoConfig,
    #[serde(default)]
    pub assembly: AssemblyConfig,
    #[serde(default)]
    pub bluffs: BluffsConfig,
    pub umpire: UmpireConfig,
    pub log: LogConfig,
    pub classic: ClassicConfig,
    pub triple: TripleConfig,
}

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
}

fn default_lease_ms() -> u64 {
    10_000
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
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZendoConfig {
    pub turn_secs: u64,
    pub challenge_secs: u64,
    pub guess_bonus_secs: u64,
    pub style: Style,
    pub pool: String,
    /// 0: no host role.
    pub host_role: u64,
}

/// Pattern Assembly on Discord: each 0 keeps the game's own value (the original's
/// 30 s reveal and wait, 3-minute rounds, 5-minute showdown, 20 rounds; Plus its own).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AssemblyConfig {
    pub reveal_secs: u64,
    pub wait_secs: u64,
    pub round_secs: u64,
    pub showdown_secs: u64,
    pub rounds: u8,
    /// The original game's wrong shapes: `waits` (the default) or `at_once`; a server's
    /// `/assembly settings` replaces it there.
    pub wrong_shape: crate::rules::assembly::WrongShape,
}

/// Logical Bluffs on Discord: every duration and cost the rules take as settings
/// (`rules::bluffs::Settings`); the shipped values are the game's own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BluffsConfig {
    pub bluff_secs: u64,
    pub claim_secs: u64,
    pub reveal_secs: u64,
    pub guess_secs: u64,
    pub reserve_secs: u64,
    pub known_tiles: u64,
    pub reveal_cost: u64,
    pub max_words: u64,
    pub rp_per_true: u64,
    pub rp_per_right_mark: u64,
}

impl Default for BluffsConfig {
    fn default() -> BluffsConfig {
        let s = crate::rules::bluffs::Settings::default();
        BluffsConfig {
            bluff_secs: s.bluffing_ms / 1000,
            claim_secs: s.claiming_ms / 1000,
            reveal_secs: s.reveal_ms / 1000,
            guess_secs: s.guess_extra_ms / 1000,
            reserve_secs: s.reserve_ms / 1000,
            known_tiles: s.known_tiles as u64,
            reveal_cost: u64::from(s.reveal_cost),
            max_words: s.max_words as u64,
            rp_per_true: u64::from(s.rp_per_true),
            rp_per_right_mark: u64::from(s.rp_per_right_mark),
        }
    }
}

impl BluffsConfig {
    /// The rules' settings these values give (each is in range once validated).
    pub fn settings(&self) -> crate::rules::bluffs::Settings {
        let narrow = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        crate::rules::bluffs::Settings {
            known_tiles: self.known_tiles as usize,
            bluffing_ms: ms(self.bluff_secs),
            claiming_ms: ms(self.claim_secs),
            reveal_ms: ms(self.reveal_secs),
            guess_extra_ms: ms(self.guess_secs),
            reserve_ms: ms(self.reserve_secs),
            rp_per_true: narrow(self.rp_per_true),
            rp_per_right_mark: narrow(self.rp_per_right_mark),
            reveal_cost: narrow(self.reveal_cost),
            max_words: self.max_words as usize,
        }
    }
}

/// Zendo Classic on Discord, for every server (a host changes them for their server
/// with `/zendo classic-settings`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassicConfig {
    /// How long a lobby nobody starts stays open (the game clock's time, as every
    /// clock of a match: the time the bot is down is not counted).
    pub lobby_secs: u64,
    /// A student's whole turn.
    pub turn_secs: u64,
    /// To answer a mondo.
    pub answer_secs: u64,
    /// Added to the turn per official guess.
    pub guess_bonus_secs: u64,
}

/// Zendo Triple on Discord, for every server (a host changes them for their server
/// with `/zendo triple-settings`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TripleConfig {
    /// The whole turn.
    pub turn_secs: u64,
    /// To answer a challenge.
    pub challenge_secs: u64,
    /// Added to the turn per counterexample.
    pub counterexample_bonus_secs: u64,
    /// Play before the quiz decides the patterns left.
    pub play_secs: u64,
    /// To answer one round of the quiz.
    pub quiz_secs: u64,
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
}

/// The allowed range of each clock setting, in seconds (also for /settings).
pub const TURN_SECS: std::ops::RangeInclusive<u64> = 10..=3600;
pub const CHALLENGE_SECS: std::ops::RangeInclusive<u64> = 5..=600;
pub const GUESS_BONUS_SECS: std::ops::RangeInclusive<u64> = 0..=600;
pub const WORK_LIMIT_SECS: std::ops::RangeInclusive<u64> = 1..=600;
pub const DISCORD_TIMEOUT_SECS: std::ops::RangeInclusive<u64> = 1..=600;
/// A Zendo Classic lobby's lifetime: a minute to a day.
pub const LOBBY_SECS: std::ops::RangeInclusive<u64> = 60..=86_400;
/// A Triple's play before its quiz: ten minutes to a day.
pub const PLAY_SECS: std::ops::RangeInclusive<u64> = 600..=86_400;
/// A round of the Triple's quiz.
pub const QUIZ_SECS: std::ops::RangeInclusive<u64> = 30..=3600;

/// Seconds as game-clock milliseconds, saturating (never `v * 1000`, which wraps in a
/// release build for a value that was not range-checked).
pub const fn ms(secs: u64) -> crate::store::Millis {
    secs.saturating_mul(1000)
}

/// A numeric setting's allowed values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// `section.key`, as in the file (`MONDO_SECTION_KEY` in the environment).
    pub key: &'static str,
    pub min: u64,
    pub max: u64,
    pub unit: &'static str,
    /// 0 keeps the game's own value (besides `min..=max`).
    pub zero_is_default: bool,
}

impl Limit {
    const fn new(key: &'static str, range: RangeInclusive<u64>, unit: &'static str) -> Limit {
        Limit {
            key,
            min: *range.start(),
            max: *range.end(),
            unit,
            zero_is_default: false,
        }
    }

    const fn secs(key: &'static str, range: RangeInclusive<u64>) -> Limit {
        Limit::new(key, range, "seconds")
    }

    const fn or_zero(self) -> Limit {
        Limit {
            zero_is_default: true,
            ..self
        }
    }

    /// Checks a configured value.
    pub fn check(&self, value: u64) -> Result<(), ConfigError> {
        if (self.zero_is_default && value == 0) || (self.min..=self.max).contains(&value) {
            return Ok(());
        }
        let zero = if self.zero_is_default {
            " (0 keeps the game's own)"
        } else {
            ""
        };
        Err(ConfigError::Invalid {
            key: self.key,
            value: value.to_string(),
            allowed: format!("allowed: {} to {} {}{zero}", self.min, self.max, self.unit),
        })
    }

    /// Checks a duration given to `mondo play` as `option` (in ms, fractions of a
    /// second allowed): the same upper limit as the setting's, and any time above 0
    /// (or 0 where the setting allows it), so a game can be tried with quick clocks.
    pub fn check_terminal_ms(&self, option: &str, ms: crate::store::Millis) -> Result<(), String> {
        let least = if self.min == 0 { 0 } else { 1 };
        if ms >= least && ms <= self::ms(self.max) {
            return Ok(());
        }
        let secs = ms as f64 / 1000.0;
        let from = if least == 0 { "0" } else { "more than 0" };
        Err(format!(
            "{option} {secs} is out of range: allowed {from} up to {} {} (as the bot's `{}`)",
            self.max, self.unit, self.key
        ))
    }
}

/// Every numeric setting and what it allows: the one place they are checked, for
/// every section, at start-up (the shipped file, `--config`, the environment) and by
/// `mondo play` for the options that set the same things ([`check_terminal`]). A new
/// setting joins with one line (`tests::every_numeric_setting_has_a_limit` says when
/// one is missing).
pub const LIMITS: &[Limit] = &[
    Limit::secs("discord.timeout_secs", DISCORD_TIMEOUT_SECS),
    Limit::secs("zendo.turn_secs", TURN_SECS),
    Limit::secs("zendo.challenge_secs", CHALLENGE_SECS),
    Limit::secs("zendo.guess_bonus_secs", GUESS_BONUS_SECS),
    Limit::secs("umpire.work_limit_secs", WORK_LIMIT_SECS),
    Limit::new("database.lease_ms", 300..=600_000, "ms"),
    Limit::new("database.lease_renew_ms", 50..=300_000, "ms"),
    Limit::new("database.lease_scan_ms", 50..=300_000, "ms"),
    // Pattern Assembly's rules take any time above 0 (a quick server, the tests).
    Limit::secs("assembly.reveal_secs", 1..=600).or_zero(),
    Limit::secs("assembly.wait_secs", 1..=600).or_zero(),
    Limit::secs("assembly.round_secs", 1..=3600).or_zero(),
    Limit::secs("assembly.showdown_secs", 1..=3600).or_zero(),
    Limit::new("assembly.rounds", 1..=100, "rounds").or_zero(),
    // Every phase needs some time and a reveal a price (the rules refuse 0); each
    // player knows at most 8 tiles (they are disjoint on 16); a statement's box holds
    // 300 characters, so 40 words.
    Limit::secs("bluffs.bluff_secs", 10..=3600),
    Limit::secs("bluffs.claim_secs", 5..=3600),
    Limit::secs("bluffs.reveal_secs", 5..=600),
    Limit::secs("bluffs.guess_secs", 0..=3600),
    Limit::secs("bluffs.reserve_secs", 0..=3600),
    Limit::new("bluffs.known_tiles", 0..=8, "tiles"),
    Limit::new("bluffs.reveal_cost", 1..=100, "RP"),
    Limit::new("bluffs.max_words", 1..=40, "words"),
    Limit::new("bluffs.rp_per_true", 0..=100, "RP"),
    Limit::new("bluffs.rp_per_right_mark", 0..=100, "RP"),
    Limit::secs("classic.lobby_secs", LOBBY_SECS),
    Limit::secs("classic.turn_secs", TURN_SECS),
    Limit::secs("classic.answer_secs", CHALLENGE_SECS),
    Limit::secs("classic.guess_bonus_secs", GUESS_BONUS_SECS),
    Limit::secs("triple.turn_secs", TURN_SECS),
    Limit::secs("triple.challenge_secs", CHALLENGE_SECS),
    Limit::secs("triple.counterexample_bonus_secs", GUESS_BONUS_SECS),
    Limit::secs("triple.play_secs", PLAY_SECS),
    Limit::secs("triple.quiz_secs", QUIZ_SECS),
];

/// The limit of setting `key`.
pub fn limit(key: &str) -> Option<&'static Limit> {
    LIMITS.iter().find(|l| l.key == key)
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
        let pool = self.zendo.pool.trim();
        let built_in = ["pyramids", "generated"]
            .iter()
            .any(|b| b.eq_ignore_ascii_case(pool));
        if built_in || names.iter().any(|n| n == pool) {
            return Ok(());
        }
        Err(ConfigError::Invalid {
            key: "zendo.pool",
            value: format!("`{pool}`"),
            allowed: "no server has a pool by that name: name pyramids, generated, or a \
                      pool a host uploaded with /pool add"
                .into(),
        })
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
        for limit in LIMITS {
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
        if self.database.lease_renew_ms * 2 > self.database.lease_ms {
            return Err(ConfigError::Invalid {
                key: "database.lease_renew_ms",
                value: format!(
                    "{} ms with leases of {} ms",
                    self.database.lease_renew_ms, self.database.lease_ms
                ),
                allowed: "renew at most every half of database.lease_ms, so one late renewal \
                          does not let the lease run out"
                    .into(),
            });
        }
        if self.zendo.pool.trim().is_empty() {
            return Err(ConfigError::Invalid {
                key: "zendo.pool",
                value: "empty".into(),
                allowed: "name a pool: pyramids, arrows, generated, or a server pool's name".into(),
            });
        }
        if !is_pool_name(&self.zendo.pool) {
            return Err(ConfigError::Invalid {
                key: "zendo.pool",
                value: format!("`{}`", self.zendo.pool),
                allowed: "name a pool: pyramids, generated, or a server pool's name (1-40 \
                          letters, digits, `-` or `_`)"
                    .into(),
            });
        }
        if self.zendo.pool.trim().eq_ignore_ascii_case("arrows") {
            return Err(ConfigError::Invalid {
                key: "zendo.pool",
                value: "`arrows`".into(),
                allowed: "duels are played with the pyramids: name pyramids, generated, or a \
                          server pool's name (practice with arrows draws from arrows itself)"
                    .into(),
            });
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

    /// The host role, if one is set.
    pub fn host_role(&self) -> Option<u64> {
        (self.zendo.host_role != 0).then_some(self.zendo.host_role)
    }
}

/// A pool's name: 1-40 letters, digits, `-` or `_` (as `/pool add` takes them).
fn is_pool_name(name: &str) -> bool {
    let name = name.trim();
    (1..=40).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
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

    fn with_file(text: &str) -> Result<Config, ConfigError> {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("mondo.toml");
        std::fs::write(&path, text).expect("write");
        Config::load(Some(&path))
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
        assert_eq!(c.zendo.turn_secs, 180);
        assert_eq!(c.zendo.challenge_secs, 30);
        assert_eq!(c.zendo.guess_bonus_secs, 30);
        assert_eq!(c.zendo.style, Style::Simple);
        assert_eq!(c.zendo.pool, "pyramids");
        assert_eq!(c.host_role(), None);
        assert_eq!(c.discord.guild, None);
        assert_eq!(c.discord.api_proxy, None);
        assert_eq!(c.database.path, PathBuf::from("mondo.db"));
    }

    #[test]
    fn a_file_overlays_the_defaults() {
        let c = with_file("[zendo]\nturn_secs = 60\nstyle = \"varied\"\nhost_role = 42\n")
            .expect("overlaid");
        assert_eq!(c.zendo.turn_secs, 60);
        assert_eq!(c.zendo.style, Style::Varied);
        assert_eq!(c.host_role(), Some(42));
        assert_eq!(c.zendo.challenge_secs, 30, "the rest stays default");
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
        for l in LIMITS {
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
        assert_eq!(c.assembly.round_secs, 60);
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
        assert_eq!(c.assembly.wrong_shape, WrongShape::Waits);
        let c = with_file("[assembly]\nwrong_shape = \"at_once\"\n").expect("overlaid");
        assert_eq!(c.assembly.wrong_shape, WrongShape::AtOnce);
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
        assert_eq!(c.bluffs, BluffsConfig::default());
        assert_eq!(
            c.bluffs.settings(),
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
        let s = c.bluffs.settings();
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
        assert_eq!(c.bluffs.reveal_cost, 2);
        assert_eq!(c.bluffs.bluff_secs, 180, "the rest stays the game's own");
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
            c.classic,
            ClassicConfig {
                lobby_secs: 900,
                turn_secs: 180,
                answer_secs: 30,
                guess_bonus_secs: 30,
            }
        );
        assert_eq!(
            c.triple,
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
        assert_eq!(c.triple.play_secs, 3600);
        assert_eq!(c.triple.challenge_secs, 60, "the rest stays default");
        assert_eq!(c.classic.answer_secs, 45);
        assert_eq!(c.zendo.challenge_secs, 30, "the duel's are apart");
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
