//! `mondo serve`: the Discord bot. The token comes from `DISCORD_TOKEN`, everything
//! else from config/default.toml, an optional `--config FILE` and `MONDO_*` variables.

use crate::config::Config;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// The Discord front's commands, listed by the binary among the terminal's.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the Discord bot (needs DISCORD_TOKEN; see config/default.toml).
    Serve(ServeArgs),
}

impl Command {
    pub fn run(self) -> ExitCode {
        match self {
            Command::Serve(args) => run(args),
        }
    }
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// A config file overlaying the built-in config/default.toml.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Print the configuration in effect (defaults, file, environment) and exit.
    #[arg(long)]
    pub show_config: bool,
    /// The shards this process runs: one id (2) or a range first-last (0-3); needs
    /// --shard-total. Overrides discord.shards.
    #[arg(long, value_name = "RANGE", value_parser = shard_range)]
    pub shards: Option<String>,
    /// How many shards the whole bot runs, across every process, or `auto` to ask
    /// Discord. Overrides discord.shard_total.
    #[arg(long, value_name = "N|auto", value_parser = shard_total)]
    pub shard_total: Option<String>,
}

/// Checked as clap reads it (the message says what is allowed), kept as the text the
/// config holds.
fn shard_range(s: &str) -> Result<String, String> {
    s.parse::<crate::shards::ShardRange>()
        .map(|r| r.to_string())
}

fn shard_total(s: &str) -> Result<String, String> {
    s.parse::<crate::shards::ShardTotal>()
        .map(|t| t.to_string())
}

pub fn run(args: ServeArgs) -> ExitCode {
    let mut config = match Config::load(args.config.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // The options win over the config's keys; together they must make sense.
    if args.shards.is_some() {
        config.discord.shards = args.shards;
    }
    if args.shard_total.is_some() {
        config.discord.shard_total = args.shard_total;
    }
    if let Err(e) = config.discord.sharding() {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    if let Err(e) = check_pool(&config) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    if args.show_config {
        match toml_text(&config) {
            Ok(t) => print!("{t}"),
            Err(e) => eprintln!("error: {e}"),
        }
        return ExitCode::SUCCESS;
    }
    // RUST_LOG, when set, wins over `log.level` (checked like it: one line if it does
    // not read, rather than a filter silently dropping everything).
    let filter = match std::env::var("RUST_LOG") {
        Ok(f) => match tracing_subscriber::EnvFilter::try_new(&f) {
            Ok(filter) => filter,
            Err(e) => {
                eprintln!(
                    "error: RUST_LOG is `{f}` ({e}); give a tracing filter such as info or \
                     \"info,mondo=debug\", or unset it to use log.level"
                );
                return ExitCode::from(2);
            }
        },
        Err(_) => tracing_subscriber::EnvFilter::new(&config.log.level),
    };
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: could not start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(crate::serve(config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A default pool that is not built in must be some server's: read from the database
/// (only read; none yet means no server pools).
fn check_pool(config: &Config) -> Result<(), String> {
    if config.check_pool_among(&[]).is_ok() {
        return Ok(());
    }
    let location = config.database.location().map_err(|e| e.to_string())?;
    let names = if location.exists() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        runtime.block_on(async {
            let store = match crate::store::Store::connect_read_only(&location).await {
                Ok(store) => store,
                Err(crate::store::StoreError::NotMondo(_)) => return Ok(Vec::new()),
                Err(e) => return Err(e.to_string()),
            };
            let names = store.pool_names().await.map_err(|e| e.to_string());
            store.close().await;
            names
        })?
    } else {
        Vec::new()
    };
    config.check_pool_among(&names).map_err(|e| e.to_string())
}

fn toml_text(config: &Config) -> Result<String, String> {
    // A database URL's password is shown as `***`.
    let mut shown = config.clone();
    if shown.database.url.is_some()
        && let Ok(location) = shown.database.location()
    {
        shown.database.url = Some(location.to_string());
    }
    serde_json::to_value(&shown)
        .map_err(|e| e.to_string())
        .map(|v| json_as_toml(&v))
}

/// The configuration as `section.key = value` lines (no TOML writer is linked in).
fn json_as_toml(v: &serde_json::Value) -> String {
    let mut out = String::new();
    if let Some(sections) = v.as_object() {
        for (section, keys) in sections {
            out.push_str(&format!("[{section}]\n"));
            if let Some(keys) = keys.as_object() {
                for (k, v) in keys {
                    if !v.is_null() {
                        out.push_str(&format!("{k} = {v}\n"));
                    }
                }
            }
            out.push('\n');
        }
    }
    out
}
