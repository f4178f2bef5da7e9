//! `mondo bench <area>`: quick speed figures on this machine, without criterion
//! (for the statistics, `cargo bench`).

use clap::{Args, Subcommand};
use mondo::lang::reference;
use mondo::pool::EvalWorkload;
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
        database: Option<mondo::store::Location>,
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
    /// Pattern Assembly: generating a match (grid + 20 rounds with solutions) and
    /// judging an answer (targets: 10 ms and 50 us).
    Assembly {
        /// How many times to time each.
        #[arg(long, default_value_t = 200)]
        runs: usize,
    },
    /// Logical Bluffs: read statements, and check them on an 8-tile subset, involvement
    /// included (targets: 1 ms to read, 5 ms to check).
    Bluffs {
        /// How many times to check each statement; the figure is the median.
        #[arg(long, default_value_t = 21)]
        runs: usize,
    },
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
        BenchArea::Assembly { runs } => super::bench_assembly::run(runs.max(1)),
        BenchArea::Bluffs { runs } => bluffs(runs.max(1)),
        BenchArea::Leaderboard(args) => super::bench_leaderboard::run(args),
        BenchArea::Ai(args) => match args.game.clone() {
            Some(game) if game != "zendo" => ai_by_name(
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
        let text = mondo::pool::sample::large_pool(n);
        let start = Instant::now();
        let checked = mondo::pool::Pool::from_toml(black_box(&text));
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

/// The statements of `benches/bluffs.rs`, each read, and checked on B1-B4, C1-C4.
fn bluffs(runs: usize) -> ExitCode {
    use mondo::lang::tiles;
    let Ok(subset) = "B1-B2-B3-B4-C1-C2-C3-C4".parse::<tiles::Subset>() else {
        return ExitCode::FAILURE;
    };
    let (mut worst, mut worst_read): (f64, f64) = (0.0, 0.0);
    println!("    read     check  statement");
    for text in tiles::BENCH_STATEMENTS {
        let read = median_ms(runs, || {
            let _ = black_box(tiles::parse(black_box(text)));
        });
        worst_read = worst_read.max(read);
        let Ok(statement) = tiles::parse(text) else {
            eprintln!("`{text}` does not read");
            return ExitCode::FAILURE;
        };
        let ms = median_ms(runs, || {
            let _ = black_box(tiles::check(
                black_box(&statement),
                &subset,
                tiles::MAX_WORDS,
            ));
        });
        worst = worst.max(ms);
        println!("{read:6.3} ms {ms:6.3} ms  {text}");
    }
    println!(
        "worst: {worst_read:.3} ms to read (target 1 ms), {worst:.3} ms to check on 8 tiles \
         (target 5 ms)"
    );
    ExitCode::SUCCESS
}

/// Milliseconds `run` takes: the median of `runs` timings.
fn median_ms(runs: usize, mut run: impl FnMut()) -> f64 {
    median(
        (0..runs)
            .map(|_| {
                let start = Instant::now();
                run();
                start.elapsed().as_secs_f64() * 1000.0
            })
            .collect(),
    )
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
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

/// The bench of the game `--game` names.
fn ai_by_name(game: &str, plus: bool, matches: usize, seed: u64, json: bool) -> ExitCode {
    use super::bench_assembly::AiArena as Assembly;
    match game.trim().to_ascii_lowercase().as_str() {
        "assembly" | "pattern-assembly" if plus => {
            super::bench_games_ai::run::<Assembly<true>>(matches, seed, json)
        }
        "assembly" | "pattern-assembly" => {
            super::bench_games_ai::run::<Assembly<false>>(matches, seed, json)
        }
        other if plus => {
            eprintln!(
                "error: `--plus` is Pattern Assembly's (`--game assembly --plus`), not {other}'s"
            );
            ExitCode::from(2)
        }
        "bluffs" | "logical-bluffs" => {
            super::bench_games_ai::run::<super::bench_bluffs::AiArena>(matches, seed, json)
        }
        other => {
            eprintln!(
                "error: `--game {other}`: the games whose AI this bench plays are: assembly, \
                 bluffs (and zendo, without --game)"
            );
            ExitCode::from(2)
        }
    }
}
