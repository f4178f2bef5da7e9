//! `mondo bench ai --game GAME [--matches N] [--seed S] [--json]`: the AI of a game
//! whose AI is a `student::Ai`, level against level, in seeded matches played in
//! virtual time (`student::arena`: the game clock jumps, nothing waits). Per pairing
//! of levels: wins, draws and losses of the stronger, matches that did not end with a
//! result (errors), the time the AIs took to think per call, and the process's peak
//! memory. Each game says how its matches are set up and its own reference figure
//! ([`ArenaGame`]), and its terminal front offers them ([`crate::Terminal::arena`]).
//! The JSON contract is in docs/ai.md.

use crate::rules::{Finish, Game, PlayerId};
use crate::student::Level;
use crate::student::arena::{self, Mind};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// A game the bench plays.
pub trait ArenaGame {
    type G: Game;
    /// As `--game` names it.
    const NAME: &'static str;
    /// A match of `players` (in seat order) drawn by `seed`, started at time 0.
    fn start(players: Vec<PlayerId>, seed: u64) -> Result<Self::G, String>;
    /// An AI of `level` for a seat, seeded.
    fn mind(level: Level, seed: u64) -> Mind<'static, Self::G>;
    /// The game's own reference figure after the pairings (a line to print), from
    /// `matches` matches seeded from `seed`.
    fn reference(matches: usize, seed: u64, tick: &mut dyn FnMut() -> u64) -> Option<String>;
    /// A random legal player for a seat, seeded, if the game's figures measure the
    /// weakest level against one (a row with `vs` 0).
    fn random(_seed: u64) -> Option<Mind<'static, Self::G>> {
        None
    }
}

/// Who sits in a bench seat: an AI level, or the game's random legal player (rank 0).
#[derive(Clone, Copy)]
enum Sitter {
    Ai(Level),
    Random,
}

impl Sitter {
    fn rank(self) -> usize {
        match self {
            Sitter::Ai(level) => level.rank(),
            Sitter::Random => 0,
        }
    }

    fn mind<A: ArenaGame>(self, seed: u64) -> Result<Mind<'static, A::G>, String> {
        match self {
            Sitter::Ai(level) => Ok(A::mind(level, seed)),
            Sitter::Random => A::random(seed).ok_or_else(|| "no random player".to_string()),
        }
    }
}

impl std::fmt::Display for Sitter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Sitter::Ai(level) => level.fmt(f),
            Sitter::Random => f.write_str("random legal player"),
        }
    }
}

/// The most moves and deadlines a match may take before it counts as an error.
const STEPS: usize = 100_000;

/// One pairing's figures.
#[derive(Default)]
struct Pairing {
    wins: usize,
    draws: usize,
    losses: usize,
    errors: Vec<String>,
    think_ns: Vec<u64>,
}

/// The two seats of a bench match.
const SEATS: [PlayerId; 2] = [PlayerId(1), PlayerId(2)];

/// Seat 0 plays `a`, seat 1 `b`; where `a` placed: 0 first (a win), 1, or None for a
/// tie, and the think times; or why the match did not end with a result.
fn one<A: ArenaGame>(
    a: (Sitter, u64),
    b: (Sitter, u64),
    seed: u64,
    tick: &mut dyn FnMut() -> u64,
) -> Result<(Option<u32>, Vec<u64>), String> {
    let game = A::start(SEATS.to_vec(), seed)?;
    let minds = vec![a.0.mind::<A>(a.1)?, b.0.mind::<A>(b.1)?];
    let played = arena::play(game, minds, 0, STEPS, tick).map_err(|e| e.to_string())?;
    let think: Vec<u64> = played.think_ns.concat();
    match played.game.finish() {
        Some(Finish::Placed { places, .. }) => {
            let place = |p: PlayerId| places.iter().find(|(q, _)| *q == p).map(|(_, n)| *n);
            let (pa, pb) = (place(SEATS[0]), place(SEATS[1]));
            Ok((if pa == pb { None } else { pa }, think))
        }
        other => Err(format!("no rated result: {other:?}")),
    }
}

/// `level` against `vs` over `matches` matches, the seats swapped every other match.
fn pairing<A: ArenaGame>(
    level: Sitter,
    vs: Sitter,
    matches: usize,
    seed: u64,
    tick: &mut dyn FnMut() -> u64,
) -> Pairing {
    let mut out = Pairing::default();
    for i in 0..matches as u64 {
        let s = seed.wrapping_add(i);
        let (mine, theirs) = ((level, s.wrapping_mul(2)), (vs, s.wrapping_mul(2) + 1));
        let swapped = i % 2 == 1;
        let result = if swapped {
            one::<A>(theirs, mine, s, tick).map(|(p, t)| (p.map(|p| 1 - p.min(1)), t))
        } else {
            one::<A>(mine, theirs, s, tick)
        };
        match result {
            Ok((place, think)) => {
                out.think_ns.extend(think);
                match place {
                    Some(0) => out.wins += 1,
                    Some(_) => out.losses += 1,
                    None => out.draws += 1,
                }
            }
            Err(e) => out.errors.push(format!("match {i} (seed {s}): {e}")),
        }
    }
    out
}

/// The process's peak resident memory so far, in MB (Linux; 0 elsewhere).
pub fn peak_mb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .unwrap_or(0)
        / 1024
}

/// Median and largest of nanosecond times, in milliseconds.
fn ms_figures(ns: &mut [u64]) -> (f64, f64) {
    ns.sort_unstable();
    let ms = |n: u64| n as f64 / 1e6;
    let median = ns.get(ns.len() / 2).copied().map_or(0.0, ms);
    let max = ns.last().copied().map_or(0.0, ms);
    (median, max)
}

/// Every pairing of a stronger level with a weaker one, the closest first; then the
/// weakest level against the random legal player, if the game has one.
fn pairings<A: ArenaGame>() -> Vec<(Sitter, Sitter)> {
    let mut out = Vec::new();
    for gap in 1..Level::ALL.len() {
        for (i, vs) in Level::ALL.iter().enumerate() {
            if let Some(level) = Level::ALL.get(i + gap) {
                out.push((Sitter::Ai(*level), Sitter::Ai(*vs)));
            }
        }
    }
    if A::random(0).is_some() {
        out.push((Sitter::Ai(Level::ALL[0]), Sitter::Random));
    }
    out
}

/// Runs the bench of game `A`.
pub fn run<A: ArenaGame>(matches: usize, seed: u64, json: bool) -> ExitCode {
    let clock = Instant::now();
    let mut tick = move || clock.elapsed().as_nanos() as u64;
    let started = Instant::now();
    let mut failed = false;
    for (level, vs) in pairings::<A>() {
        let mut p = pairing::<A>(level, vs, matches, seed, &mut tick);
        let (median, max) = ms_figures(&mut p.think_ns);
        let peak = peak_mb();
        for e in &p.errors {
            eprintln!("error: {} {} vs {}: {e}", A::NAME, level, vs);
        }
        failed |= !p.errors.is_empty();
        if json {
            println!(
                "{}",
                json!({
                    "game": A::NAME,
                    "level": level.rank(),
                    "vs": vs.rank(),
                    "matches": matches,
                    "wins": p.wins,
                    "draws": p.draws,
                    "losses": p.losses,
                    "errors": p.errors.len(),
                    "think_ms_median": (median * 1000.0).round() / 1000.0,
                    "think_ms_max": (max * 1000.0).round() / 1000.0,
                    "peak_mb": peak,
                })
            );
        } else {
            let share = 100.0 * p.wins as f64 / matches.max(1) as f64;
            // The targets (docs/ai.md): 60 % against the level below, 80 % against random.
            let bar = match vs {
                Sitter::Random => Some(80.0),
                Sitter::Ai(_) if vs.rank() + 1 == level.rank() => Some(60.0),
                Sitter::Ai(_) => None,
            };
            let target = if let Some(bar) = bar {
                format!(
                    " (target: wins in {bar} %: {})",
                    if share >= bar { "met" } else { "NOT met" }
                )
            } else {
                String::new()
            };
            println!(
                "{} {level} (rank {}) vs {vs} (rank {}): {matches} matches, {} wins ({share:.1} \
                 %){target}, {} draws, {} losses, {} errors; thinking per call {median:.3} ms \
                 median, {max:.3} ms max; peak {peak} MB",
                A::NAME,
                level.rank(),
                vs.rank(),
                p.wins,
                p.draws,
                p.losses,
                p.errors.len()
            );
        }
    }
    if let Some(line) = A::reference(matches, seed, &mut tick) {
        // The JSON lines are the pairings only: the reference is said on the side.
        if json {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    }
    if !json {
        println!(
            "{} s in all (virtual time: no match waited for its clocks)",
            started.elapsed().as_secs()
        );
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
