//! `mondo bench ai`: the AI student against every pattern of the shipped pools, by
//! difficulty: the share solved within the structures allowed, structures and guesses
//! to solve, thinking time per move, peak memory; and the published protocol (7
//! structures, then 8 test structures to predict).

use mondo_rules::koan::PieceSet;
use mondo_rules::lang;
use mondo_rules::pool::{Difficulty, Pool, SHIPPED};
use mondo_rules::student::zendo::solo::{SoloOptions, solo};
use mondo_rules::student::zendo::{Level, Space};
use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

/// One pattern's runs.
#[derive(Default)]
struct Row {
    solved: Vec<bool>,
    koans: Vec<f64>,
    guesses: Vec<f64>,
    move_ms: Vec<f64>,
    right: usize,
    predicted: usize,
}

#[derive(Debug, clap::Args)]
pub struct AiBench {
    /// The most structures per game.
    #[arg(long, default_value_t = 20)]
    pub koans: usize,
    /// Games per pattern (seeds 1 to N).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub seeds: u64,
    /// beginner, player or expert.
    #[arg(long, default_value = "expert", value_parser = parse_level)]
    pub level: Level,
    /// Only the patterns whose pool id contains this.
    #[arg(long)]
    pub only: Option<String>,
    /// One line per game.
    #[arg(long)]
    pub verbose: bool,
    /// Also three AI-vs-AI duels per pyramids pattern and seed: how many end with a
    /// winner (target: 95 %).
    #[arg(long)]
    pub duels: bool,
    /// Also AI-vs-AI Triples (three arrows patterns drawn as `/zendo triple` draws
    /// them, one match per seed 1 to 10 x N): how they end.
    #[arg(long)]
    pub triples: bool,
    /// Another game's AI, level against level in seeded matches played in virtual
    /// time (`assembly`, `bluffs`); without it, the Zendo student above.
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
    /// With --game: matches per pairing of levels.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub matches: u64,
    /// With --game: the first match's seed (the others follow it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// With --game: one JSON object per pairing of levels (docs/ai.md).
    #[arg(long)]
    pub json: bool,
    /// With --game assembly: Plus matches (10 x 10, 3 targets a round).
    #[arg(long)]
    pub plus: bool,
}

fn parse_level(text: &str) -> Result<Level, String> {
    Level::parse(text).ok_or_else(|| {
        format!("unknown level `{text}`: the levels are beginner, player and expert")
    })
}

pub fn run(args: AiBench) -> ExitCode {
    let clock = Instant::now();
    let mut now = || clock.elapsed().as_millis() as u64;
    let mut spaces: HashMap<PieceSet, (Arc<Space>, u64)> = HashMap::new();
    let mut by: HashMap<Difficulty, Row> = HashMap::new();
    let mut total = Row::default();
    for (name, text) in SHIPPED {
        let pool = match Pool::from_toml(text) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {name} does not load: {e}");
                return ExitCode::FAILURE;
            }
        };
        for entry in pool.entries() {
            if !args.takes(entry) {
                continue;
            }
            let (space, _) = spaces
                .entry(entry.set)
                .or_insert_with(|| {
                    let start = Instant::now();
                    let s = Space::build(entry.set, args.level.breadth());
                    let ms = start.elapsed().as_millis() as u64;
                    println!(
                        "space {}: {} rules in {} groups from {} sentences, built in {ms} ms",
                        entry.set,
                        s.len(),
                        s.groups.len(),
                        s.sentences
                    );
                    (Arc::new(s), ms)
                })
                .clone();
            let row = by.entry(entry.difficulty).or_default();
            for seed in 1..=args.seeds {
                let setup = match super::zendo_ai::setup(&entry.pattern.source, entry.set, seed) {
                    Ok(s) => s,
                    Err(e) => {
                        eprintln!("{}: {e}", entry.id);
                        continue;
                    }
                };
                let options = SoloOptions::new(args.koans, args.level, seed);
                let Ok(r) = solo(space.clone(), setup.clone(), options, &mut now, &mut |_| {})
                else {
                    continue;
                };
                // The published protocol: 7 structures, no guesses, 8 test structures.
                let mut seven = SoloOptions::new(7, args.level, seed);
                seven.guesses = 0;
                let (right, asked) = match solo(space.clone(), setup, seven, &mut now, &mut |_| {})
                {
                    Ok(p) => predictions(&p.student, &entry.pattern.formula, entry.set, seed),
                    Err(_) => (0, 0),
                };
                if args.verbose {
                    println!(
                        "{:<8} {:<6} {:<40} {} koans {:>2} guesses {:>2} predict {right}/{asked}  max {} ms",
                        entry.set,
                        entry.difficulty,
                        entry.id,
                        if r.solved { "solved" } else { "------" },
                        r.koans,
                        r.guesses,
                        r.move_ms.iter().max().copied().unwrap_or(0)
                    );
                }
                for row in [&mut *row, &mut total] {
                    row.solved.push(r.solved);
                    if r.solved {
                        row.koans.push(r.koans as f64);
                        row.guesses.push(r.guesses as f64);
                    }
                    row.move_ms.extend(r.move_ms.iter().map(|&m| m as f64));
                    row.right += right;
                    row.predicted += asked;
                }
            }
        }
    }
    println!(
        "\n| difficulty | runs | solved in {} | koans to solve (median, p90) | guesses (median, p90) | ms per move (median, max) | predictions after 7 |",
        args.koans
    );
    println!("|---|---|---|---|---|---|---|");
    let mut rows: Vec<(String, &Row)> = Difficulty::ALL
        .iter()
        .filter_map(|d| by.get(d).map(|r| (d.to_string(), r)))
        .collect();
    rows.push(("all".into(), &total));
    for (name, r) in rows {
        let solved = r.solved.iter().filter(|s| **s).count();
        println!(
            "| {name} | {} | {solved} ({:.0} %) | {}, {} | {}, {} | {}, {} | {:.1} % |",
            r.solved.len(),
            percent(solved, r.solved.len()),
            quantile(&r.koans, 0.5),
            quantile(&r.koans, 0.9),
            quantile(&r.guesses, 0.5),
            quantile(&r.guesses, 0.9),
            quantile(&r.move_ms, 0.5),
            quantile(&r.move_ms, 1.0),
            percent(r.right, r.predicted),
        );
    }
    if args.duels {
        duels(&args, &spaces);
    }
    if args.triples {
        triples(&args, &spaces);
    }
    if let Some(kib) = peak_memory_kib() {
        println!("\npeak memory: {} MB", kib / 1024);
    }
    ExitCode::SUCCESS
}

fn percent(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// The `q` quantile (nearest rank), as text; `-` when empty.
fn quantile(xs: &[f64], q: f64) -> String {
    if xs.is_empty() {
        return "-".into();
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let i = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1;
    format!("{}", v[i])
}

/// Right predictions of the protocol's test structures, and structures predicted.
fn predictions(
    student: &mondo_rules::student::zendo::Student,
    hidden: &lang::Formula,
    set: PieceSet,
    seed: u64,
) -> (usize, usize) {
    let tests = super::zendo_ai::test_structures(hidden, set, seed);
    let right = tests
        .iter()
        .filter(|(k, obeys)| student.predict(k).obeys == *obeys)
        .count();
    (right, tests.len())
}

/// Peak resident memory of this process, from the kernel.
fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

impl AiBench {
    /// Whether `--only` keeps the pool's pattern `entry` (every one without it).
    fn takes(&self, entry: &mondo_rules::pool::PoolEntry) -> bool {
        self.only
            .as_ref()
            .is_none_or(|o| entry.id.contains(o.as_str()))
    }
}

/// Three AI-vs-AI duels per pyramids pool pattern and seed (an expert against the
/// level asked, on the real rules with a fake clock): how many end with a winner.
fn duels(args: &AiBench, spaces: &HashMap<PieceSet, (Arc<Space>, u64)>) {
    use mondo_rules::rules::PlayerId;
    use mondo_rules::rules::zendo::{DuelSetup, Settings, Timing};
    use mondo_rules::student::zendo::duel::{duel, pair};
    let (mut played, mut won, mut turns) = (0, 0, Vec::new());
    let started = Instant::now();
    for (_, text) in SHIPPED {
        let Ok(pool) = Pool::from_toml(text) else {
            continue;
        };
        for entry in pool.entries() {
            if !args.takes(entry) {
                continue;
            }
            // The Duel plays with the pyramids only.
            if entry.set != PieceSet::Pyramids {
                continue;
            }
            let Some((space, _)) = spaces.get(&entry.set) else {
                continue;
            };
            for seed in 1..=args.seeds * 3 {
                let Ok(practice) = super::zendo_ai::setup(&entry.pattern.source, entry.set, seed)
                else {
                    continue;
                };
                let setup = DuelSetup {
                    players: [PlayerId(1), PlayerId(2)],
                    advantage: PlayerId(2),
                    hidden: practice.hidden,
                    initial: practice.initial,
                    settings: Settings {
                        set: entry.set,
                        ..Settings::default()
                    },
                    timing: Timing::default(),
                    seed,
                };
                let students = pair(space, [Level::Expert, args.level], seed);
                played += 1;
                match duel(setup, students, 5_000, 600) {
                    Ok(r) => {
                        if r.ended && r.winner.is_some() {
                            won += 1;
                            turns.push(r.turns as f64);
                        }
                        if args.verbose {
                            println!(
                                "duel {:<40} {} after {} turns, {} moves",
                                entry.id,
                                match r.winner {
                                    Some(s) => format!("won by seat {}", s.index() + 1),
                                    None => "no winner".into(),
                                },
                                r.turns,
                                r.moves
                            );
                        }
                    }
                    Err(e) => eprintln!("duel {}: {e}", entry.id),
                }
            }
        }
    }
    println!(
        "\nAI-vs-AI duels (expert against {}): {won} of {played} ended with a winner ({:.0} %), \
         median {} turns, {:.1} s in all",
        args.level,
        percent(won, played),
        quantile(&turns, 0.5),
        started.elapsed().as_secs_f64()
    );
}

/// AI-vs-AI Triples (an expert against the level asked, on the real rules with a fake
/// clock), their patterns drawn from the shipped arrows pool as a Discord Triple draws
/// them (generated patterns mixed in): how many end by two solved patterns, by the quiz.
fn triples(args: &AiBench, spaces: &HashMap<PieceSet, (Arc<Space>, u64)>) {
    use mondo_rules::finder::Limits;
    use mondo_rules::rules::PlayerId;
    use mondo_rules::rules::zendo::Settings;
    use mondo_rules::rules::zendo::triple::{TripleOutcome, TripleSetup, opening::triple_opening};
    use mondo_rules::student::zendo::triple::{pair, triple};
    let Some((space, _)) = spaces.get(&PieceSet::Arrows) else {
        println!("\nAI-vs-AI Triples: no arrows space (see --only)");
        return;
    };
    let pool = Pool::shipped(PieceSet::Arrows);
    let (mut played, mut solved, mut quiz, mut turns) = (0, 0, 0, Vec::new());
    let started = Instant::now();
    for seed in 1..=args.seeds * 10 {
        let (hidden, opening) = match triple_opening(&[], &pool, seed, &Limits::default()) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("triple {seed}: {e}");
                continue;
            }
        };
        let texts: Vec<String> = hidden.iter().map(|p| p.source.clone()).collect();
        let setup = TripleSetup {
            players: [PlayerId(1), PlayerId(2)],
            starter: None,
            advantage: Some(PlayerId(2)),
            hidden: Box::new(hidden),
            opening: Box::new(opening),
            settings: Settings {
                set: PieceSet::Arrows,
                ..Settings::default()
            },
            timing: Default::default(),
            seed,
        };
        played += 1;
        match triple(
            setup,
            pair(space, [Level::Expert, args.level], seed),
            5_000,
            3_000,
        ) {
            Ok(r) => {
                match r.outcome {
                    Some(TripleOutcome::TwoSolved { .. }) => {
                        solved += 1;
                        turns.push(r.turns as f64);
                    }
                    Some(TripleOutcome::Quiz { .. }) => quiz += 1,
                    _ => {}
                }
                if args.verbose {
                    println!(
                        "triple {seed:>3} {:?} after {} turns, {} moves, solved {:?}: {texts:?}",
                        r.outcome, r.turns, r.moves, r.solved
                    );
                }
            }
            Err(e) => eprintln!("triple {seed}: {e}"),
        }
    }
    println!(
        "\nAI-vs-AI Triples (expert against {}): {} of {played} ended by two solved \
         patterns ({:.0} %), {quiz} by the quiz, median {} turns, {:.1} s in all",
        args.level,
        solved,
        percent(solved, played),
        quantile(&turns, 0.5),
        started.elapsed().as_secs_f64()
    );
}
