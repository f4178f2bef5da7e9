//! What `mondo bench` shares with each game's own bench areas ([`super::Terminal::Bench`]):
//! timing medians, wall and CPU, and the AI arena ([`ai`]). The areas are run from
//! the command line (mondo-terminal's `bench.rs`), which lists no game: each game's
//! terminal front brings its own.

pub mod ai;

use cpu_time::ThreadTime;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Medians of `runs` calls of `f`: wall time, and this thread's CPU time (the figure
/// that holds on a machine shared with other builds), with the last call's result.
pub fn timed<T>(runs: usize, mut f: impl FnMut() -> T) -> (Timing, T) {
    let mut last = f(); // warm-up: font parsing, first allocations
    let mut wall = Vec::with_capacity(runs);
    let mut cpu = Vec::with_capacity(runs);
    for _ in 0..runs {
        let (start, start_cpu) = (Instant::now(), ThreadTime::now());
        last = black_box(f());
        cpu.push(start_cpu.elapsed());
        wall.push(start.elapsed());
    }
    wall.sort();
    cpu.sort();
    let timing = Timing {
        runs,
        wall: wall[runs / 2],
        cpu: cpu[runs / 2],
    };
    (timing, last)
}

/// Medians of one measured operation.
pub struct Timing {
    runs: usize,
    wall: Duration,
    cpu: Duration,
}

impl Timing {
    /// The CPU median in milliseconds.
    pub fn cpu_ms(&self) -> f64 {
        self.cpu.as_secs_f64() * 1e3
    }

    pub fn verdict(&self, target_ms: f64) -> String {
        let ms = self.cpu.as_secs_f64() * 1e3;
        let met = if ms <= target_ms { "met" } else { "NOT met" };
        format!("target: CPU median <= {target_ms} ms: {met}")
    }
}

impl std::fmt::Display for Timing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        write!(
            f,
            "median {:.3} ms wall, {:.3} ms CPU over {} runs",
            ms(self.wall),
            ms(self.cpu),
            self.runs
        )
    }
}

/// Milliseconds `run` takes: the median of `runs` timings.
pub fn median_ms(runs: usize, mut run: impl FnMut()) -> f64 {
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

/// The median of `xs` (the upper one of an even count).
pub fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}
