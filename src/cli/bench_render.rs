//! `mondo bench render`: medians for one structure's picture and a 40-structure board,
//! and the PNG sizes, against the targets (2 ms, 50 ms, 30 KB).

use cpu_time::ThreadTime;
use mondo::render::{self, BoardEntry, Mark, PNG_BUDGET, Picture, samples};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Medians of `runs` calls of `f`: wall time, and this thread's CPU time (the figure
/// that holds on a machine shared with other builds), with the last call's result.
pub(super) fn timed<T>(runs: usize, mut f: impl FnMut() -> T) -> (Timing, T) {
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
pub(super) struct Timing {
    runs: usize,
    wall: Duration,
    cpu: Duration,
}

impl Timing {
    /// The CPU median in milliseconds.
    pub(super) fn cpu_ms(&self) -> f64 {
        self.cpu.as_secs_f64() * 1e3
    }

    pub(super) fn verdict(&self, target_ms: f64) -> String {
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

pub fn run(runs: usize) -> ExitCode {
    let picture = Picture {
        mark: Some(Mark::Obeys),
        caption: Some("#7".into()),
    };
    let size = |bytes: usize| {
        let met = if bytes <= PNG_BUDGET {
            "met"
        } else {
            "NOT met"
        };
        format!(
            "PNG {bytes} bytes (target <= {} KB: {met})",
            PNG_BUDGET / 1024
        )
    };
    let one = samples::structure();
    let (t, png) = timed(runs, || render::koan_png(&one, &picture));
    println!("one structure (the seed's example, 5 pieces): {t}");
    println!("  {}; {}", t.verdict(2.0), size(png.len()));
    let full = samples::full();
    let (t, png) = timed(runs, || render::koan_png(&full, &picture));
    println!("one full 6 x 6 structure (36 pieces): {t}");
    println!("  {}; {}", t.verdict(2.0), size(png.len()));
    let history = samples::history(40);
    let entries = BoardEntry::numbered(history.iter().map(|(k, m)| (k, *m)));
    let (t, png) = timed(runs.div_ceil(4), || render::board_png(&entries));
    match png {
        Ok(png) => {
            println!("board of 40 structures: {t}, PNG {} bytes", png.len());
            println!("  {}", t.verdict(50.0));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
