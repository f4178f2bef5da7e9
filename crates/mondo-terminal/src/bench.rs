//! `mondo bench <area>`: quick speed figures on this machine, without criterion
//! (for the statistics, `cargo bench`). The areas every game shares are here; each
//! game's own (`mondo bench bluffs`), and its AI's matches for `mondo bench ai --game`,
//! come from its terminal front (`play::Terminal::Bench`, `Terminal::arena`).

use clap::{Args, Subcommand};
use mondo_play::bench::median;
use mondo_rules::lang::reference;
use mondo_rules::pool::EvalWorkload;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub area: BenchArea,
}

#[derive(Debug, Subcommand)]
pub enum BenchArea {
    /// Evaluate every shipped pool pattern on random structures of 1 to 8 pieces.
    Eval {
        /// Random structures per piece set.
        #[arg(long, default_value_t = 2000)]
        structures: usize,
        /// Timed rounds per pattern; each pattern's figure is the median round.
        #[arg(long, default_value_t = 11)]
        rounds: usize,
        /// Seed for the random structures.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Decide every finder benchmark pair (pool patterns against right and wrong
    /// guesses, near misses), and compare with the random method.
    Finder(super::finder::FinderBenchArgs),
    /// Live Zendo matches on the runtime, committing to the store: events/s, latency,
    /// RSS.
    Runtime {
        /// Live matches, each driven by its own client.
        #[arg(long, default_value_t = 1000)]
        matches: usize,
        /// How long to drive them.
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// The database to commit to: a SQLite file or a URL (postgres://user@host/db;
        /// give an empty one: its live matches would be resumed and counted). Without
        /// it, a SQLite file in the temporary folder, removed afterwards.
        #[arg(long, value_name = "URL")]
        database: Option<mondo_store::Location>,
        /// Processes sharing the matches on one PostgreSQL database (--database
        /// postgres://...), each creating and owning its share: figures per process and
        /// in all.
        #[arg(long, default_value_t = 1, value_name = "N")]
        processes: usize,
        /// Run as worker N of a `--processes` bench (its parent starts it).
        #[arg(long, hide = true, value_name = "N", conflicts_with = "processes")]
        worker: Option<usize>,
    },
    /// Pictures: one structure and a 40-structure board (targets: 2 ms and 50 ms, and
    /// at most 30 KB of PNG for one structure).
    Render {
        /// How many times to draw each picture.
        #[arg(long, default_value_t = 200)]
        runs: usize,
    },
    /// Check pools of growing size (as `mondo pool check` does): the time per entry
    /// stays flat when checking is linear.
    Pool {
        /// The largest pool, in entries (also checked: an eighth, a quarter, a half).
        #[arg(long, default_value_t = 8000)]
        entries: usize,
    },
    /// Each game's own areas (`mondo bench bluffs`), from its terminal front.
    #[command(flatten)]
    Game(mondo_play::games::GameBench),
    /// Ratings: a server of 200,000 players and a million finished matches (by
    /// default), written in bulk; its leaderboard, a page at a time (target: at most
    /// 50 ms).
    Leaderboard(super::bench_leaderboard::LeaderboardBench),
    /// The AI student against every shipped pool pattern, by difficulty (targets: 85 %
    /// solved within 20 structures, 300 ms median and 2 s longest move, 300 MB, 90 %
    /// of predictions right after 7 structures).
    Ai(super::bench_zendo_ai::AiBench),
}

pub fn run(args: BenchArgs) -> ExitCode {
    match args.area {
        BenchArea::Eval {
            structures,
            rounds,
            seed,
        } => eval(structures.max(1), rounds.max(1), seed),
        BenchArea::Finder(args) => super::finder::bench(args),
        BenchArea::Runtime {
            matches,
            seconds,
            database,
            processes,
            worker,
        } => {
            use super::bench_practice::Role;
            let role = match (worker, processes) {
                (Some(index), _) => Role::Worker { index },
                (None, 0 | 1) => Role::Alone,
                (None, processes) => Role::Parent { processes },
            };
            super::bench_practice::run(matches, seconds, database, role)
        }
        BenchArea::Render { runs } => super::bench_render::run(runs.max(1)),
        BenchArea::Pool { entries } => pool(entries.max(8)),
        BenchArea::Game(area) => area.run(),
        BenchArea::Leaderboard(args) => super::bench_leaderboard::run(args),
        BenchArea::Ai(args) => match args.game.clone() {
            Some(game) if game != "zendo" => mondo_play::games::bench_ai(
                &game,
                args.plus,
                args.matches as usize,
                args.seed,
                args.json,
            ),
            _ => super::bench_zendo_ai::run(args),
        },
    }
}

/// Seconds to check pools of `entries / 8` to `entries` entries, and per entry.
fn pool(entries: usize) -> ExitCode {
    for n in [entries / 8, entries / 4, entries / 2, entries] {
        let text = mondo_rules::pool::sample::large_pool(n);
        let start = Instant::now();
        let checked = mondo_rules::pool::Pool::from_toml(black_box(&text));
        let took = start.elapsed().as_secs_f64();
        if let Err(e) = checked {
            eprintln!("error: the benchmark's pool does not read: {e}");
            return ExitCode::FAILURE;
        }
        println!(
            "pool check: {n:>6} entries ({:>5} KB) in {took:.3} s, {:.1} µs per entry",
            text.len() / 1000,
            took * 1e6 / n as f64
        );
    }
    ExitCode::SUCCESS
}

/// Nanoseconds per (pattern, structure) for each pattern: the median of `rounds`
/// timings of `run` over all the structures.
fn time_per_pair(rounds: usize, count: usize, mut run: impl FnMut()) -> f64 {
    median(
        (0..rounds)
            .map(|_| {
                let start = Instant::now();
                run();
                start.elapsed().as_nanos() as f64 / count as f64
            })
            .collect(),
    )
}

fn eval(structures: usize, rounds: usize, seed: u64) -> ExitCode {
    let work = EvalWorkload::new(seed, structures);
    println!(
        "evaluating {} pool patterns on {structures} random structures (1-8 pieces) per set, \
         median of {rounds} rounds",
        work.patterns.len()
    );
    let mut figures: Vec<(f64, &str)> = work
        .patterns
        .iter()
        .map(|(entry, pattern)| {
            let koans = work.structures(entry.set);
            let ns = time_per_pair(rounds, koans.len(), || {
                for k in koans {
                    black_box(pattern.evaluate(black_box(k)));
                }
            });
            (ns, entry.id.as_str())
        })
        .collect();
    figures.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("slowest patterns (ns per structure):");
    for (ns, id) in figures.iter().take(5) {
        println!("  {ns:8.1}  {id}");
    }
    let per_pattern: Vec<f64> = figures.iter().map(|(ns, _)| *ns).collect();
    let mean = per_pattern.iter().sum::<f64>() / per_pattern.len() as f64;
    let middle = median(per_pattern.clone());

    // The reference evaluator on the same work, for scale (fewer rounds: it is slow).
    let reference_ns = median(
        work.patterns
            .iter()
            .map(|(entry, _)| {
                let (formula, koans) = (&entry.pattern.formula, work.structures(entry.set));
                time_per_pair(3, koans.len(), || {
                    for k in koans {
                        black_box(reference::evaluate(formula, black_box(k)));
                    }
                })
            })
            .collect(),
    );
    println!("median over patterns: {middle:.1} ns per (pattern, structure); mean {mean:.1} ns");
    println!(
        "slowest pattern: {:.1} ns; reference evaluator median: {reference_ns:.1} ns ({:.0}x slower)",
        figures[0].0,
        reference_ns / middle
    );
    let target = 1000.0;
    println!(
        "target: median <= {target:.0} ns: {}",
        if middle <= target { "met" } else { "NOT met" }
    );
    ExitCode::SUCCESS
}
