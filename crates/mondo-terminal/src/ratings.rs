//! `mondo stats`, `mondo leaderboard` and `mondo ratings rebuild`: the ratings and
//! records the store keeps (docs/ratings.md says what each shows, and the JSON).

use super::kit::block_on;
use clap::{Args, Subcommand};
use mondo_play::config::LeaderboardConfig;
use mondo_rules::ratings::{BoardOverrides, BoardRule, BoardSettings};
use mondo_rules::rules::GameKind;
use mondo_runtime::{AnyMatch, rebuild_ratings};
use mondo_store::{HistoryRow, Location, RatingRow, SoloRecord, Store, StoreError};
use serde::Serialize;
use std::collections::HashMap;
use std::process::ExitCode;

/// Where the numbers are: the database and the server.
#[derive(Debug, Args)]
pub struct Place {
    /// The database: a SQLite file or a URL (sqlite://FILE, postgres://...).
    #[arg(long, default_value = "mondo.db")]
    pub db: Location,
    /// A Discord server's id; without it, the terminal's players.
    #[arg(long, value_name = "G", value_parser = clap::value_parser!(u64).range(1..))]
    pub guild: Option<u64>,
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    /// A terminal player's name, or a Discord user id.
    pub player: String,
    /// Only this game (a stored name: zendo-duel, zendo-triple, zendo-classic,
    /// pattern-assembly, logical-bluffs).
    #[arg(long, value_name = "KIND")]
    pub game: Option<GameKind>,
    /// One JSON object: the player, their ratings (one per game played) and their
    /// recent matches (`history`).
    #[arg(long, conflicts_with = "html")]
    pub json: bool,
    /// Write the player's profile page to FILE: their ratings, the rating over time
    /// per game (a chart), streaks, favourite game and recent matches, in one HTML file
    /// that works offline.
    #[arg(long, value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub place: Place,
}

/// What a `--limit` of the records commands may be.
pub(super) const LIMITS: std::ops::RangeInclusive<i64> = 1..=1000;

#[derive(Debug, Args)]
pub struct LeaderboardArgs {
    /// Only this game (a stored name); without it, every rated game.
    #[arg(long, value_name = "KIND")]
    pub game: Option<GameKind>,
    /// One JSON array of rows.
    #[arg(long)]
    pub json: bool,
    /// Listed: at least this many rated games in that game (1-1000)... Without these
    /// three, the server's own rules (/leaderboard-settings, with --guild), else the
    /// configuration's [leaderboard].
    #[arg(long)]
    pub min_games: Option<u32>,
    /// ...one of them within this many days (1-3650)...
    #[arg(long)]
    pub recent_days: Option<u32>,
    /// ...and a deviation under this (10-350).
    #[arg(long)]
    pub max_deviation: Option<f64>,
    /// A config file overlaying the built-in config/default.toml (as `mondo serve
    /// --config`): its [leaderboard] gives the default rules.
    #[arg(long, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
    /// Rows per game, at most (1-1000).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(LIMITS))]
    pub limit: u32,
    #[command(flatten)]
    pub place: Place,
}

#[derive(Debug, Args)]
pub struct RatingsArgs {
    #[command(subcommand)]
    pub command: RatingsCommand,
}

#[derive(Debug, Subcommand)]
pub enum RatingsCommand {
    /// Make every rating and record again from the match logs (the same numbers).
    Rebuild {
        /// The database: a SQLite file or a URL (sqlite://FILE, postgres://...).
        #[arg(long, default_value = "mondo.db")]
        db: Location,
    },
}

/// A row of `--json`: the contract in docs/ratings.md.
#[derive(Debug, Serialize)]
pub struct JsonRow {
    pub player: String,
    pub game: String,
    pub rating: f64,
    pub deviation: f64,
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    pub provisional: bool,
}

fn json_row(r: &RatingRow, names: &HashMap<u64, String>) -> JsonRow {
    JsonRow {
        player: name(r.player, names),
        game: r.game.clone(),
        // Two decimals: what anyone reads; the store keeps the full number.
        rating: two(r.rating),
        deviation: two(r.deviation),
        games: r.games,
        wins: r.wins,
        losses: r.losses,
        draws: r.draws,
        provisional: r.is_provisional(),
    }
}

pub(super) fn name(id: u64, names: &HashMap<u64, String>) -> String {
    names.get(&id).cloned().unwrap_or_else(|| id.to_string())
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The store to read, said plainly when it is missing or older than the ratings.
pub(super) async fn open(db: &Location) -> Result<Store, String> {
    if !db.exists() {
        return Err(format!(
            "there is no database at {db}; name one with --db FILE"
        ));
    }
    let store = Store::connect_read_only(db)
        .await
        .map_err(|e| e.to_string())?;
    rating_period(&store)?;
    Ok(store)
}

/// Sets `store`'s rating period from the configuration's `[leaderboard]
/// rating_period_days` (the shipped file, then `MONDO_LEADERBOARD_RATING_PERIOD_DAYS`),
/// as `mondo serve` does from its own: the same numbers at the terminal as on Discord.
pub(super) fn rating_period(store: &Store) -> Result<(), String> {
    let config = LeaderboardConfig::load(None).map_err(|e| e.to_string())?;
    store.set_rating_period_days(config.rating_period_days);
    Ok(())
}

pub(super) fn said(db: &Location, e: StoreError) -> String {
    let text = e.to_string();
    if text.contains("no such table") || text.contains("no such column") {
        format!(
            "{} was written by a Mondo without ratings: run `mondo ratings rebuild --db {}` once",
            db, db
        )
    } else {
        text
    }
}

/// Names of the terminal's players (a Discord server's players are their ids here).
pub(super) async fn names(store: &Store, guild: Option<u64>, ids: &[u64]) -> HashMap<u64, String> {
    if guild.is_some() {
        return HashMap::new();
    }
    store.local_names(ids).await.unwrap_or_default()
}

/// The recent matches `mondo stats` shows (JSON and text).
const RECENT: u32 = 10;

/// A match of a player's `history` in `--json`: the contract in docs/ratings.md.
#[derive(Debug, Serialize)]
pub struct JsonHistory {
    #[serde(rename = "match")]
    pub id: i64,
    pub game: String,
    pub opponents: Vec<String>,
    pub result: Option<&'static str>,
    pub rated: bool,
    pub why: Option<&'static str>,
    pub why_text: Option<String>,
    pub rating_before: Option<f64>,
    pub rating_after: Option<f64>,
    pub rating_change: Option<f64>,
    pub finished_at: String,
}

/// Two decimals, as the JSON gives ratings.
fn two(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

pub(super) fn json_history(
    h: &HistoryRow,
    player: u64,
    names: &HashMap<u64, String>,
) -> JsonHistory {
    let why = h.why_said(|p| name(p.0, names));
    JsonHistory {
        id: h.id.0,
        game: h.game.clone(),
        opponents: h
            .players
            .iter()
            .filter(|p| **p != player)
            .map(|p| name(*p, names))
            .collect(),
        result: h.result.map(|r| r.as_str()),
        rated: h.rated,
        why: why.as_ref().map(|w| w.0),
        why_text: why.map(|w| w.1),
        rating_before: h.rating_before.map(two),
        rating_after: h.rating_after.map(two),
        rating_change: h
            .rating_before
            .zip(h.rating_after)
            .map(|(before, after)| two(after - before)),
        finished_at: h.finished.clone(),
    }
}

/// A match of a player's history as `mondo stats` says it: `#12 zendo-duel with bob,
/// 2026-12-06: won, 1500 -> 1662? (+162)` or `...: unrated (the setup was chosen by
/// alice)`.
pub(super) fn history_text(h: &HistoryRow, player: u64, names: &HashMap<u64, String>) -> String {
    let json = json_history(h, player, names);
    let with = if json.opponents.is_empty() {
        "solo".to_string()
    } else {
        format!("with {}", json.opponents.join(", "))
    };
    let said = match (h.result, json.why_text) {
        (_, Some(why)) => format!("unrated ({why})"),
        (Some(r), None) => {
            let word = match r {
                mondo_rules::ratings::Result::Win => "won",
                mondo_rules::ratings::Result::Loss => "lost",
                mondo_rules::ratings::Result::Draw => "drew",
            };
            match (h.rating_before, h.rating_after, h.deviation_after) {
                (Some(before), Some(after), Some(deviation)) => {
                    format!(
                        "{word}, {}",
                        mondo_rules::ratings::change(before, after, deviation)
                    )
                }
                _ => word.to_string(),
            }
        }
        (None, None) => "rated".to_string(),
    };
    let day = h.finished.get(..10).unwrap_or(&h.finished);
    format!("  #{} {} {with}, {day}: {said}", h.id, h.game)
}

/// The player `given` names: a terminal player's name, or with `guild` a Discord user
/// id.
pub(super) async fn player_id(
    store: &Store,
    given: &str,
    guild: Option<u64>,
) -> Result<u64, String> {
    match store
        .find_local_player(given)
        .await
        .map_err(|e| e.to_string())?
    {
        Some(id) if guild.is_none() => Ok(id),
        _ => given.trim().parse::<u64>().map_err(|_| {
            format!(
                "nobody called `{given}` has played at this terminal; give a player's name \
                 as they played, or a Discord user id with --guild"
            )
        }),
    }
}

pub fn stats(args: StatsArgs) -> ExitCode {
    block_on(async move {
        let db = &args.place.db;
        let store = open(db).await?;
        let server = mondo_store::server_of(args.place.guild);
        let player = player_id(&store, &args.player, args.place.guild).await?;
        let game = args.game.map(|g| g.name());
        let rows = store
            .ratings_of(server, player, game)
            .await
            .map_err(|e| said(db, e))?;
        let history = store
            .history_of(server, player, game, RECENT)
            .await
            .map_err(|e| said(db, e))?;
        let solo: Vec<SoloRecord> = store
            .solo_records(server, player)
            .await
            .map_err(|e| said(db, e))?
            .into_iter()
            .filter(|s| game.is_none_or(|g| g == s.game))
            .collect();
        // The profile page's chart follows every rated match, not only the recent ones.
        let history = match &args.html {
            Some(_) => store
                .history_of(server, player, game, mondo_play::profile::CHARTED)
                .await
                .map_err(|e| said(db, e))?,
            None => history,
        };
        let mut ids = vec![player];
        ids.extend(history.iter().flat_map(|h| h.players.iter().copied()));
        ids.sort_unstable();
        ids.dedup();
        let names = names(&store, args.place.guild, &ids).await;
        let who = name(player, &names);
        if args.json {
            let value = serde_json::json!({
                "player": who,
                "ratings": rows.iter().map(|r| json_row(r, &names)).collect::<Vec<_>>(),
                "solo": solo,
                "history": history
                    .iter()
                    .map(|h| json_history(h, player, &names))
                    .collect::<Vec<_>>(),
            });
            println!("{value}");
            store.close().await;
            return Ok(ExitCode::SUCCESS);
        }
        if let Some(file) = &args.html {
            let recent: Vec<String> = history
                .iter()
                .take(RECENT as usize)
                .map(|h| history_text(h, player, &names))
                .collect();
            let page = mondo_play::profile::page(&mondo_play::profile::Profile {
                who: &who,
                ratings: &rows,
                solo: &solo,
                history: &history,
                recent: &recent,
            });
            store.close().await;
            std::fs::write(file, page)
                .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
            println!("{who}'s profile page is {}", file.display());
            return Ok(ExitCode::SUCCESS);
        }
        let mut lines = stats_lines(&who, &rows, &solo);
        if !history.is_empty() {
            lines.push("recent matches:".into());
            lines.extend(history.iter().map(|h| history_text(h, player, &names)));
        }
        for line in lines {
            println!("{}", super::kit::printable(&line));
        }
        store.close().await;
        Ok(ExitCode::SUCCESS)
    })
}

fn stats_lines(who: &str, rows: &[RatingRow], solo: &[SoloRecord]) -> Vec<String> {
    let mut out = Vec::new();
    for r in rows {
        out.push(format!(
            "{who}, {}: {} (deviation {:.0}), {}",
            r.game,
            r.shown(),
            r.deviation,
            mondo_rules::ratings::results(r.games, r.wins, r.losses, r.draws),
        ));
    }
    for s in solo {
        let best = s
            .best_ms
            .map(|ms| format!(", fastest solved in {}", clock(ms)))
            .unwrap_or_default();
        out.push(format!(
            "{who}, {} (solo): {} played, {} solved{best}",
            s.game, s.played, s.solved
        ));
    }
    if out.is_empty() {
        out.push(format!("{who} has no finished match here yet."));
    }
    out
}

/// `m:ss` of game-clock milliseconds.
fn clock(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

pub fn leaderboard(args: LeaderboardArgs) -> ExitCode {
    block_on(async move {
        let asked = BoardOverrides {
            min_games: args.min_games,
            recent_days: args.recent_days,
            max_deviation: args.max_deviation,
        };
        // Checked before anything is read: a typo never lists by a rule nobody meant.
        for (rule, given) in BoardRule::ALL.into_iter().zip([
            args.min_games.map(f64::from),
            args.recent_days.map(f64::from),
            args.max_deviation,
        ]) {
            if let Some(v) = given {
                rule.check(v)
                    .map_err(|e| format!("--{}: {e}", rule.key().replace('_', "-")))?;
            }
        }
        let config = LeaderboardConfig::load(args.config.as_deref()).map_err(|e| e.to_string())?;
        let defaults = config.settings();
        let db = &args.place.db;
        let store = open(db).await?;
        store.set_rating_period_days(config.rating_period_days);
        let settings = board_rules(&store, args.place.guild, &defaults, &asked)
            .await
            .map_err(|e| said(db, e))?;
        // The AI's seats are rated but never listed, at the terminal as on Discord
        // (there the store leaves out the AI's ids; here they are local players with
        // reserved names): read as many more rows as there are, and leave them out.
        let ai = match args.place.guild {
            None => store.local_ai_players().await.map_err(|e| said(db, e))?,
            Some(_) => Vec::new(),
        };
        let read = args
            .limit
            .saturating_add(u32::try_from(ai.len()).unwrap_or(u32::MAX));
        let mut rows = store
            .leaderboard(
                mondo_store::server_of(args.place.guild),
                args.game.map(|g| g.name()),
                &settings,
                read,
            )
            .await
            .map_err(|e| said(db, e))?;
        rows.retain(|r| !ai.contains(&r.player));
        let mut per_game: std::collections::HashMap<String, u32> = Default::default();
        rows.retain(|r| {
            let n = per_game.entry(r.game.clone()).or_default();
            *n += 1;
            *n <= args.limit
        });
        let ids: Vec<u64> = rows.iter().map(|r| r.player).collect();
        let names = names(&store, args.place.guild, &ids).await;
        store.close().await;
        if args.json {
            let rows: Vec<JsonRow> = rows.iter().map(|r| json_row(r, &names)).collect();
            println!(
                "{}",
                serde_json::to_string(&rows).map_err(|e| e.to_string())?
            );
            return Ok(ExitCode::SUCCESS);
        }
        if rows.is_empty() {
            println!(
                "Nobody is listed yet: a player needs {} in a game, one within {} days, and a \
                 deviation under {:.0}.",
                plural(settings.min_games, "rated game", "rated games"),
                settings.recent_days,
                settings.max_deviation
            );
            return Ok(ExitCode::SUCCESS);
        }
        let mut game = "";
        let mut place = 0;
        for r in &rows {
            if r.game != game {
                game = &r.game;
                place = 0;
                println!("{game}");
            }
            place += 1;
            println!(
                "{}",
                super::kit::printable(&format!(
                    "{place:>3}. {:<20} {:>5}  deviation {:>3.0}  {}  {}-{}-{}",
                    name(r.player, &names),
                    r.shown(),
                    r.deviation,
                    plural(r.games, "game", "games"),
                    r.wins,
                    r.losses,
                    r.draws
                ))
            );
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// The rules a leaderboard lists by: the options given, over the server's own
/// (`--guild`'s stored rules, out-of-range ones left out as the bot leaves them), over
/// the configuration's.
async fn board_rules(
    store: &Store,
    guild: Option<u64>,
    defaults: &BoardSettings,
    asked: &BoardOverrides,
) -> Result<BoardSettings, StoreError> {
    let own = match guild {
        Some(g) => {
            let own = match store.leaderboard_settings(g).await {
                Ok(own) => own,
                // A store no bot of this version has opened yet: no server set any.
                Err(e)
                    if e.to_string()
                        .contains("no such table: leaderboard_settings") =>
                {
                    BoardOverrides::default()
                }
                Err(e) => return Err(e),
            };
            if let Err(e) = own.check() {
                eprintln!("the server's stored leaderboard rules are left out: {e}");
                BoardOverrides::default()
            } else {
                own
            }
        }
        None => BoardOverrides::default(),
    };
    Ok(asked.over(&own.over(defaults)))
}

pub fn ratings(args: RatingsArgs) -> ExitCode {
    let RatingsCommand::Rebuild { db } = args.command;
    block_on(async move {
        if !db.exists() {
            return Err(format!(
                "there is no database at {db}; name one with --db FILE"
            ));
        }
        db.check_writable().map_err(|e| e.to_string())?;
        // A match ending meanwhile would be missed: nothing else may run the matches
        // (on SQLite; on PostgreSQL the rebuild is one transaction of its own).
        let _lock = db.lock_for_running().map_err(|e| e.to_string())?;
        let store = Store::connect(&db)
            .await
            .map_err(|e| format!("{} ({})", e, db))?;
        rating_period(&store)?;
        let (done, unreadable) = rebuild_ratings::<AnyMatch>(&store)
            .await
            .map_err(|e| e.to_string())?;
        store.close().await;
        println!(
            "Rebuilt from {}: {} rated, {} solo, {} counting for nothing.",
            plural(done.matches as u32, "finished match", "finished matches"),
            done.rated,
            done.solo,
            done.matches - done.rated - done.solo
        );
        for u in &unreadable {
            println!("Left out: match {} ({})", u.id, u.reason);
        }
        Ok(if unreadable.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        })
    })
}
