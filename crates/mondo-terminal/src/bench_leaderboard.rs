//! `mondo bench leaderboard [--players N] [--matches M] [--db URL] [--json]`: a server
//! of N players (200,000 by default) and M finished, rated Zendo Duels (5 per player by
//! default: a million), written in bulk; then its leaderboard read as `/leaderboard`
//! and `mondo leaderboard --guild` read it, one game's and every game's (target: at
//! most 50 ms a page, whatever the server's size: docs/ratings.md, "Speed").
//!
//! Every player plays once, then the rest of the matches go mostly to a core of regular
//! players (a pick's chance falls with the player's number as a cube root does), so
//! most of the server stays provisional, as a big server's players are. The results
//! follow each player's hidden strength; the ratings are Glicko-2's, as the live store
//! computes them, idle growth included, over the last 90 days.

use mondo_rules::ratings::{self, BoardOverrides, BoardSettings, Entry, Method, Rating};
use mondo_rules::rules::PlayerId;
use mondo_store::{Backend, Location, MatchId, RatingRow, SeedMatch, SeedPart, Store};
use std::process::ExitCode;
use std::time::Instant;

const GUILD: u64 = 4242;
const GAME: &str = "zendo-duel";
/// Rows on a page, as `/leaderboard` shows them.
const PAGE: u32 = 20;
/// The matches end over this many days before now.
const SPAN_DAYS: u64 = 90;
/// Matches written per transaction.
const BATCH: usize = 20_000;

#[derive(Debug, clap::Args)]
pub struct LeaderboardBench {
    /// Players on the server.
    #[arg(long, default_value_t = 200_000)]
    players: u64,
    /// Finished matches among them (default: 5 per player). At least half the
    /// players: each plays once.
    #[arg(long)]
    matches: Option<u64>,
    /// Timed reads of each board (one game's, every game's, and one game's under a
    /// deviation of 60).
    #[arg(long, default_value_t = 200)]
    runs: usize,
    /// The database to fill: a SQLite file or a URL (postgres://user@host/db), empty.
    /// Without it, a SQLite file in the temporary folder, removed afterwards.
    #[arg(long, value_name = "URL")]
    db: Option<Location>,
    /// One JSON object: players, matches, median_ms, p99_ms (over every read), and
    /// backend, seed_s and listed (the rows of the first board).
    #[arg(long)]
    json: bool,
}

pub fn run(args: LeaderboardBench) -> ExitCode {
    let matches = args.matches.unwrap_or(args.players.saturating_mul(5));
    if args.players < 2 || matches < args.players.div_ceil(2) || args.runs == 0 {
        eprintln!(
            "error: --players {} --matches {matches} --runs {}: allowed are 2 players or \
             more, at least one match per two players (each plays once), and 1 run or more",
            args.players, args.runs
        );
        return ExitCode::from(2);
    }
    let (location, temporary) = match args.db.clone() {
        Some(db) => (db, None),
        None => {
            let file = std::env::temp_dir()
                .join(format!("mondo-bench-leaderboard-{}.db", std::process::id()));
            (Location::Sqlite(file.clone()), Some(file))
        }
    };
    let code = super::kit::block_on(bench(location, args.players, matches, &args));
    if let Some(file) = temporary {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
        }
    }
    code
}

/// splitmix64: a fixed sequence, no seed to give.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// In [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// One player as the seeding goes.
struct Player {
    strength: f64,
    rating: Rating,
    games: u32,
    wins: u32,
    last: Option<(i64, u64)>,
}

/// The server's matches, made and rated in memory, `BATCH` at a time.
struct Server {
    players: Vec<Player>,
    random: Random,
    start_ms: u64,
    step_ms: u64,
    period_ms: u64,
}

impl Server {
    fn new(count: u64, matches: u64, now_ms: u64, period_ms: u64) -> Server {
        let mut random = Random(40);
        let players = (0..count)
            .map(|_| Player {
                // About 1500 +- 300.
                strength: 1500.0 + 600.0 * (random.unit() + random.unit() + random.unit() - 1.5),
                rating: Rating::new(Method::Glicko2),
                games: 0,
                wins: 0,
                last: None,
            })
            .collect();
        let span = SPAN_DAYS * ratings::DAY_MS;
        Server {
            players,
            random,
            start_ms: now_ms - span,
            step_ms: span / matches.max(1),
            period_ms,
        }
    }

    /// Match `id` (from 1): in the first rounds everyone plays once, then mostly the
    /// regulars.
    fn pair(&mut self, id: u64) -> (usize, usize) {
        let n = self.players.len() as u64;
        if id <= n / 2 {
            return ((2 * id - 2) as usize, (2 * id - 1) as usize);
        }
        let mut pick = || (n as f64 * self.random.unit().powi(3)) as usize % n as usize;
        let a = pick();
        let mut b = pick();
        while b == a {
            b = pick();
        }
        (a, b)
    }

    fn play(&mut self, id: u64) -> Result<SeedMatch, String> {
        let (a, b) = self.pair(id);
        let ended_ms = self.start_ms + id * self.step_ms;
        let gap = self.players[b].strength - self.players[a].strength;
        let a_wins = self.random.unit() < 1.0 / (1.0 + 10f64.powf(gap / 400.0));
        let mut entries = Vec::with_capacity(2);
        for (i, &p) in [a, b].iter().enumerate() {
            let player = &self.players[p];
            let idle = player.last.map_or(0, |(_, at)| ended_ms - at);
            entries.push(Entry {
                player: PlayerId(p as u64 + 1),
                place: u32::from((i == 0) != a_wins),
                before: ratings::idle(player.rating, idle, self.period_ms),
            });
        }
        let after = ratings::rate(Method::Glicko2, &entries).map_err(|e| e.to_string())?;
        let mut parts = Vec::with_capacity(2);
        for (entry, after) in entries.iter().zip(after) {
            let won = entry.place == 0;
            let player = &mut self.players[entry.player.0 as usize - 1];
            player.rating = after;
            player.games += 1;
            player.wins += u32::from(won);
            player.last = Some((id as i64, ended_ms));
            parts.push(SeedPart {
                player: entry.player.0,
                place: entry.place,
                result: if won {
                    ratings::Result::Win
                } else {
                    ratings::Result::Loss
                },
                before: entry.before,
                after,
            });
        }
        Ok(SeedMatch {
            id: id as i64,
            kind: GAME,
            server: GUILD,
            ended_ms,
            parts,
        })
    }

    /// Each player's rating as the last match left it.
    fn ratings(&self) -> Vec<RatingRow> {
        let players = self.players.iter().enumerate();
        let played = players.filter_map(|(i, p)| Some((i, p, p.last?)));
        played
            .map(|(i, p, (last_match, at))| RatingRow {
                server: GUILD,
                game: GAME.into(),
                player: i as u64 + 1,
                rating: p.rating.rating,
                deviation: p.rating.deviation,
                volatility: p.rating.volatility,
                games: p.games,
                wins: p.wins,
                losses: p.games - p.wins,
                draws: 0,
                last_match: MatchId(last_match),
                last_played: ratings::wall_text(at),
            })
            .collect()
    }
}

async fn bench(
    location: Location,
    players: u64,
    matches: u64,
    args: &LeaderboardBench,
) -> Result<ExitCode, String> {
    let store = Store::connect(&location).await.map_err(|e| e.to_string())?;
    if store.has_matches().await.map_err(|e| e.to_string())? {
        store.close().await;
        return Err(format!(
            "{location} already holds matches: give an empty database (the bench fills it)"
        ));
    }
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let period_ms = store.rating_period_days() * ratings::DAY_MS;
    let start = Instant::now();
    let mut server = Server::new(players, matches, now_ms, period_ms);
    let mut batch = Vec::with_capacity(BATCH);
    for id in 1..=matches {
        batch.push(server.play(id)?);
        if batch.len() == BATCH || id == matches {
            store
                .seed_matches(&batch)
                .await
                .map_err(|e| e.to_string())?;
            batch.clear();
        }
    }
    let rows = server.ratings();
    store.seed_ratings(&rows).await.map_err(|e| e.to_string())?;
    let seed_s = start.elapsed().as_secs_f64();
    if !args.json {
        println!(
            "{matches} finished duels among {} players ({}) stored in {seed_s:.1} s",
            rows.len(),
            backend(&store)
        );
    }
    // The server's own listing rules, read with every board as `/leaderboard` and
    // `mondo leaderboard --guild` read them (the same numbers as the defaults).
    let defaults = BoardSettings::default();
    let own = BoardOverrides {
        min_games: Some(defaults.min_games),
        ..BoardOverrides::default()
    };
    store
        .set_leaderboard_settings(GUILD, &own, None)
        .await
        .map_err(|e| e.to_string())?;
    let mut all = Vec::with_capacity(3 * args.runs);
    let (mut listed, mut first) = (0, None);
    // Under the defaults, the settled players' board; under a deviation of 60, the
    // board of a server where nearly everyone is provisional.
    let boards = [
        (GAME, Some(GAME), defaults.max_deviation),
        ("every game", None, defaults.max_deviation),
        ("zendo-duel, deviation under 60", Some(GAME), 60.0),
    ];
    for (what, game, max_deviation) in boards {
        let mut times = Vec::with_capacity(args.runs);
        for _ in 0..args.runs {
            let t = Instant::now();
            let mut settings = store
                .leaderboard_settings(GUILD)
                .await
                .map_err(|e| e.to_string())?
                .over(&defaults);
            settings.max_deviation = max_deviation;
            listed = store
                .leaderboard(GUILD, game, &settings, PAGE)
                .await
                .map_err(|e| e.to_string())?
                .len();
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        first.get_or_insert(listed);
        if !args.json {
            let [median, p99] = [0.5, 0.99].map(|q| quantile(&mut times, q));
            println!(
                "leaderboard ({what}): {listed} rows, median {median:.2} ms, p99 {p99:.2} ms \
                 over {} reads",
                args.runs
            );
        }
        all.extend(times);
    }
    let backend = backend(&store);
    store.close().await;
    let [median, p99] = [0.5, 0.99].map(|q| quantile(&mut all, q));
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "players": rows.len(),
                "matches": matches,
                "median_ms": median,
                "p99_ms": p99,
                "backend": backend,
                "seed_s": seed_s,
                "listed": first,
            })
        );
    } else {
        println!(
            "all reads: median {median:.2} ms, p99 {p99:.2} ms; target: at most 50 ms -> {}",
            if p99 <= 50.0 { "met" } else { "MISSED" }
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn backend(store: &Store) -> &'static str {
    match store.backend() {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    }
}

/// The `q` quantile of `xs` (sorted here), the nearest rank.
fn quantile(xs: &mut [f64], q: f64) -> f64 {
    xs.sort_by(f64::total_cmp);
    let rank = ((q * xs.len() as f64).ceil() as usize).clamp(1, xs.len());
    xs[rank - 1]
}
