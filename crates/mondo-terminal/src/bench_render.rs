//! `mondo bench render`: medians for one structure's picture and a 40-structure board,
//! and the PNG sizes, against the targets (2 ms, 50 ms, 30 KB).

use mondo_play::bench::timed;
use mondo_render::{self as render, BoardEntry, Mark, PNG_BUDGET, Picture, samples};
use std::process::ExitCode;

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
