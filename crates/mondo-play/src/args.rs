//! `mondo play`'s options that several games share (who plays, where the hidden
//! pattern comes from, the common clocks), and the readers of their values. Each
//! game's own options are its `Args` ([`super::Terminal`]), in its own folder.

use crate::PieceSet;
use crate::finder::Style;
use crate::pool::Pool;
use clap::Args;
use std::path::PathBuf;

/// The name a host's lines would start with (`host: pause`) when the table has none:
/// such a line is refused, saying how to name a host (`--host NAME`).
pub const HOST: &str = "host";

/// The options several games take.
#[derive(Debug, Default, Args)]
pub struct TableArgs {
    /// A pool file to draw the hidden pattern from (default: the shipped pool).
    #[arg(long, conflicts_with = "pattern")]
    pub pool: Option<PathBuf>,
    /// Play against this hidden pattern instead of a pool's; the umpire finds its
    /// initial structures. A Triple takes it three times, in order A, B, C.
    #[arg(long, conflicts_with = "generate")]
    pub pattern: Vec<String>,
    /// Play against a generated pattern (reasonable, none needlessly long).
    #[arg(long, conflicts_with = "pool")]
    pub generate: bool,
    /// The piece set: pyramids (default) or arrows (practice only: the Duel plays
    /// with the 12 pyramids).
    #[arg(long)]
    pub set: Option<PieceSet>,
    /// Fixes the choice of pattern and of counterexamples (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Who plays a solo game (Zendo practice, solo Pattern Assembly), credited with it
    /// in their records (default: the login name, from USER or LOGNAME). A shared
    /// table names its players with --players.
    #[arg(long, value_name = "NAME", conflicts_with = "players")]
    pub player: Option<String>,
    /// The players, in seat order: NAME,NAME.
    #[arg(long, value_delimiter = ',', num_args = 1)]
    pub players: Vec<String>,
    /// Who hosts the table (pause, resume, disallow, end); their lines start `NAME:`.
    /// Without it the table has no host, and no line is taken as a host's. A host
    /// named here who does not play may choose the setup (`--seed`, `--pattern`,
    /// `--pool`) of a rated match.
    #[arg(long)]
    pub host: Option<String>,
    /// The player who chooses who starts, in a duel or a Triple (default: the second,
    /// the one challenged).
    #[arg(long, requires = "players")]
    pub advantage: Option<String>,
    /// Seconds per turn (default 180).
    #[arg(long = "turn-secs", requires = "players", value_parser = seconds)]
    pub turn_ms: Option<u64>,
    /// Seconds to answer a challenge (default 30).
    #[arg(long = "challenge-secs", requires = "players", value_parser = seconds)]
    pub challenge_ms: Option<u64>,
    /// Seconds added to the turn per official guess (default 30).
    #[arg(long = "guess-bonus-secs", requires = "players", value_parser = seconds_or_zero)]
    pub guess_bonus_ms: Option<u64>,
    /// Assembly: seconds the grid is shown (default 30). Bluffs: seconds of the Reveal
    /// phase (default 30).
    #[arg(long = "reveal-secs", value_parser = seconds)]
    pub reveal_ms: Option<u64>,
    /// How the umpire picks counterexamples: simple (default) or varied.
    #[arg(long, value_parser = style)]
    pub style: Option<Style>,
}

impl TableArgs {
    /// The host's name, if `--host` named one.
    pub fn host(&self) -> Option<&str> {
        self.host.as_deref()
    }

    /// Whether the setup was chosen (`--seed`, `--pattern`, `--pool`), and if so whether
    /// by the host `--host` named (`Some(true)`: the match may be rated) or by the
    /// players at the terminal (`Some(false)`: unrated; docs/ratings.md, "Fair play").
    pub fn setup_chosen(&self) -> Option<bool> {
        let chosen = self.seed.is_some() || !self.pattern.is_empty() || self.pool.is_some();
        chosen.then_some(self.host.is_some())
    }

    /// The shared clocks as given: the option, its value (ms), and the settings' keys
    /// it may set in a game's section (the first the section has is checked).
    pub fn durations(&self) -> [Duration<'_>; 4] {
        [
            ("--turn-secs", self.turn_ms, &["turn_secs"]),
            (
                "--challenge-secs",
                self.challenge_ms,
                &["challenge_secs", "answer_secs"],
            ),
            (
                "--guess-bonus-secs",
                self.guess_bonus_ms,
                &["guess_bonus_secs", "counterexample_bonus_secs"],
            ),
            ("--reveal-secs", self.reveal_ms, &["reveal_secs"]),
        ]
    }

    /// The pool named by `--pool`, or else the shipped pool of `set`.
    pub fn pool_or_shipped(&self, set: PieceSet) -> Result<Pool, String> {
        match &self.pool {
            Some(path) => read_pool(path),
            None => Ok(Pool::shipped(set)),
        }
    }
}

/// An option's name, what it was given (ms), and the settings' keys it sets.
pub type Duration<'a> = (&'a str, Option<u64>, &'a [&'a str]);

/// A count option's name, its value, and the setting's key.
pub type Count<'a> = (&'a str, Option<u64>, &'a str);

/// Checks the numbers given on the command line against the limits of the settings
/// they set in the game's configuration `section`: one table for the bot's
/// configuration and the terminal (`config::LIMITS`), durations as
/// [`crate::config::Limit::check_terminal_ms`] says.
pub fn check_limits(
    section: &str,
    durations: &[Duration<'_>],
    counts: &[Count<'_>],
) -> Result<(), String> {
    let limit = |keys: &[&str]| {
        keys.iter()
            .find_map(|k| crate::config::limit(&format!("{section}.{k}")))
    };
    for (option, ms, keys) in durations {
        if let (Some(ms), Some(limit)) = (ms, limit(keys)) {
            limit.check_terminal_ms(option, *ms)?;
        }
    }
    for (option, value, key) in counts {
        if let (Some(value), Some(limit)) = (value, limit(&[key])) {
            limit.check(*value).map_err(|_| {
                format!(
                    "{option} {value} is out of range: allowed {} to {} {}",
                    limit.min, limit.max, limit.unit
                )
            })?;
        }
    }
    Ok(())
}

/// A pool file, read and checked.
pub fn read_pool(path: &std::path::Path) -> Result<Pool, String> {
    let text = crate::files::read_text(path, crate::files::MAX_POOL_BYTES, "pool")?;
    Pool::from_toml(&text).map_err(|e| format!("the pool {} is not valid:\n{e}", path.display()))
}

/// `ROWSxCOLS`, e.g. `10x12`.
pub fn grid_size(text: &str) -> Result<crate::grid::Dims, String> {
    let (r, c) = text
        .trim()
        .to_ascii_lowercase()
        .split_once('x')
        .map(|(r, c)| (r.trim().parse::<usize>(), c.trim().parse::<usize>()))
        .ok_or_else(|| format!("`{text}` is not a grid size: write ROWSxCOLS, e.g. 10x12"))?;
    match (r, c) {
        (Ok(r), Ok(c)) => crate::grid::Dims::new(r, c).map_err(|e| e.to_string()),
        _ => Err(format!(
            "`{text}` is not a grid size: write ROWSxCOLS, e.g. 10x12"
        )),
    }
}

/// Seconds (fractions allowed) as milliseconds, more than zero.
pub fn seconds(text: &str) -> Result<u64, String> {
    match seconds_or_zero(text)? {
        0 => Err("a clock needs some time: give more than 0 seconds".into()),
        ms => Ok(ms),
    }
}

/// Seconds (fractions allowed) as milliseconds, zero allowed.
pub fn seconds_or_zero(text: &str) -> Result<u64, String> {
    let s: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds (e.g. 30 or 0.5)"))?;
    if !(0.0..=86_400.0 * 365.0).contains(&s) {
        return Err(format!("{text} seconds is out of range (0 to a year)"));
    }
    Ok((s * 1000.0).round() as u64)
}

fn style(text: &str) -> Result<Style, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "simple" => Ok(Style::Simple),
        "varied" => Ok(Style::Varied),
        _ => Err(format!("`{text}` is not a style: simple or varied")),
    }
}

/// Every game's own `mondo play` options are taken by one parser, so an option
/// belongs to one game; an option of a game that does not take it has no use. A
/// game's `Args` with no option of its own. It makes no argument group: clap names a
/// struct's group after the struct, so two games flattening a grouped `NoArgs` would
/// stop `mondo` at start ("group name 'NoArgs' already in use").
#[derive(Debug, Default, Args)]
#[group(skip)]
pub struct NoArgs {}
