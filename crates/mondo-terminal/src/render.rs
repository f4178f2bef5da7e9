//! `mondo render`: structures as a PNG picture (one structure) or board (several).

use clap::Args;
use mondo_render::{self as render, BoardEntry, Mark, Picture};
use mondo_rules::{Koan, PieceSet};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit status for input that is not what was asked for (as clap uses for bad
/// arguments).
const BAD_INPUT: u8 = 2;

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Structures in pyramids (`3> .. 1< / 2^`) or arrows (`.U. / L.R`) notation, one
    /// argument each. One gives a single picture; several give a numbered board.
    #[arg(required = true, value_name = "TEXT")]
    texts: Vec<String>,
    /// Where to write the PNG; `-` writes it to standard output.
    #[arg(short, long, value_name = "FILE.png")]
    output: PathBuf,
    /// One mark per structure, in order, separated by commas: `obeys` (white stone),
    /// `not` (black stone) or `-` (none). Example: `--marks obeys,not,-`.
    #[arg(long, value_name = "MARKS")]
    marks: Option<String>,
    /// A caption for a single structure's picture, such as `#7` or `initial` (a board
    /// numbers its structures itself).
    #[arg(long, value_name = "TEXT")]
    caption: Option<String>,
    /// The game's piece set, `pyramids` or `arrows`; without it each structure's
    /// notation is detected.
    #[arg(long, value_name = "SET")]
    set: Option<PieceSet>,
}

pub fn run(args: RenderArgs) -> ExitCode {
    match picture(&args) {
        Ok(png) => match write(&args.output, &png) {
            Ok(()) => {
                if args.output.as_os_str() != "-" {
                    let what = match args.texts.len() {
                        1 => "1 structure".to_string(),
                        n => format!("a board of {n} structures"),
                    };
                    println!(
                        "wrote {} ({what}, {} bytes)",
                        args.output.display(),
                        png.len()
                    );
                }
                ExitCode::SUCCESS
            }
            // A reader that went away (`-o - | head`) is not an error of ours.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", args.output.display());
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(BAD_INPUT)
        }
    }
}

/// The PNG the arguments ask for, or what is wrong with them.
fn picture(args: &RenderArgs) -> Result<Vec<u8>, String> {
    let koans = args
        .texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let parsed = match args.set {
                Some(set) => Koan::parse_as(text, set),
                None => text.parse::<Koan>(),
            };
            parsed.map_err(|e| match args.texts.len() {
                1 => e.to_string(),
                _ => format!("structure {}: {e}", i + 1),
            })
        })
        .collect::<Result<Vec<Koan>, String>>()?;
    let marks = match &args.marks {
        Some(text) => parse_marks(text, koans.len())?,
        None => vec![None; koans.len()],
    };
    if let [koan] = koans.as_slice() {
        let picture = Picture {
            mark: marks[0],
            caption: args.caption.clone(),
        };
        return Ok(render::koan_png(koan, &picture));
    }
    if args.caption.is_some() {
        return Err(
            "--caption labels a single structure; a board numbers its structures #1, #2, ..."
                .to_string(),
        );
    }
    let entries = BoardEntry::numbered(koans.iter().zip(marks));
    render::board_png(&entries).map_err(|e| e.to_string())
}

/// `obeys,not,-` for `count` structures.
fn parse_marks(text: &str, count: usize) -> Result<Vec<Option<Mark>>, String> {
    let words: Vec<&str> = text.split(',').map(str::trim).collect();
    if words.len() != count {
        let s = |n: usize| if n == 1 { "" } else { "s" };
        return Err(format!(
            "--marks gives {} mark{} for {count} structure{}; give one per structure, in \
             order, separated by commas (`obeys`, `not`, or `-` for none)",
            words.len(),
            s(words.len()),
            s(count)
        ));
    }
    words
        .iter()
        .enumerate()
        .map(|(i, word)| match *word {
            "-" => Ok(None),
            word => word
                .parse::<Mark>()
                .map(Some)
                .map_err(|e| format!("--marks, mark {}: {e}, or `-` for none", i + 1)),
        })
        .collect()
}

fn write(output: &PathBuf, png: &[u8]) -> std::io::Result<()> {
    if output.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(png)?;
        out.flush()
    } else {
        std::fs::write(output, png)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_match_structures_in_order() {
        assert_eq!(
            parse_marks("obeys, not,-", 3),
            Ok(vec![Some(Mark::Obeys), Some(Mark::DoesNot), None])
        );
        assert_eq!(
            parse_marks("obeys,not", 3).unwrap_err(),
            "--marks gives 2 marks for 3 structures; give one per structure, in order, \
             separated by commas (`obeys`, `not`, or `-` for none)"
        );
        assert_eq!(
            parse_marks("obeys,maybe", 2).unwrap_err(),
            "--marks, mark 2: unknown mark `maybe`: expected `obeys` (white stone) or `not` \
             (black stone), or `-` for none"
        );
    }
}
