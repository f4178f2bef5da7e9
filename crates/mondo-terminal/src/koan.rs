//! `mondo koan`: structures in text: normalise, count, list.

use clap::{Args, Subcommand, ValueEnum};
use mondo_rules::koan::enumerate;
use mondo_rules::{Koan, PieceSet};
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

/// Exit status for input that is not a structure (as clap uses for bad arguments).
const BAD_INPUT: u8 = 2;

#[derive(Debug, Args)]
pub struct KoanArgs {
    #[command(subcommand)]
    command: KoanCommand,
}

#[derive(Debug, Subcommand)]
enum KoanCommand {
    /// Print a structure in canonical notation, or say what is wrong with it (exit
    /// status 2).
    Normalize {
        /// The structure, in pyramids (`3> .. 1< / 2^`) or arrows (`.U. / L.R`)
        /// notation; `-` reads it from standard input.
        text: String,
        /// The game's piece set; without it the notation is detected.
        #[arg(long, value_enum)]
        set: Option<SetArg>,
        /// Print the one-line form, rows separated by ` / `.
        #[arg(long)]
        line: bool,
    },
    /// Print the exact number of distinct structures with K pieces.
    Count {
        /// Number of pieces, 1 to 36.
        #[arg(long, value_name = "K", value_parser = piece_count)]
        pieces: usize,
        #[arg(long, value_enum, default_value_t = SetArg::Pyramids)]
        set: SetArg,
    },
    /// Print every structure with K pieces in enumeration order (by bounding-box area,
    /// then height, cells and pieces), one per line in the one-line form.
    List {
        /// Number of pieces, 1 to 36.
        #[arg(long, value_name = "K", value_parser = piece_count)]
        pieces: usize,
        #[arg(long, value_enum, default_value_t = SetArg::Pyramids)]
        set: SetArg,
        /// Stop after this many structures.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
    },
}

/// The piece sets, as command-line values (listed in `--help`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SetArg {
    Pyramids,
    Arrows,
}

impl From<SetArg> for PieceSet {
    fn from(set: SetArg) -> PieceSet {
        match set {
            SetArg::Pyramids => PieceSet::Pyramids,
            SetArg::Arrows => PieceSet::Arrows,
        }
    }
}

fn piece_count(text: &str) -> Result<usize, String> {
    let allowed = "a structure has 1 to 36 pieces (its bounding box is at most 6 x 6)";
    match text.trim().parse::<usize>() {
        Ok(k) if (1..=36).contains(&k) => Ok(k),
        Ok(k) => Err(format!("{allowed}, not {k}")),
        Err(_) => Err(format!("`{text}` is not a number; {allowed}")),
    }
}

pub fn run(args: KoanArgs) -> ExitCode {
    match args.command {
        KoanCommand::Normalize { text, set, line } => normalize(&text, set, line),
        KoanCommand::Count { pieces, set } => {
            println!("{}", enumerate::count(set.into(), pieces));
            ExitCode::SUCCESS
        }
        KoanCommand::List { pieces, set, limit } => list(set.into(), pieces, limit),
    }
}

fn normalize(text: &str, set: Option<SetArg>, line: bool) -> ExitCode {
    let stdin_text;
    let text = if text == "-" {
        // A structure is a line or two: a megabyte is plenty, and an endless input
        // (`< /dev/zero`) is refused rather than read into memory.
        stdin_text = match mondo_play::files::read_bounded(io::stdin(), 1024 * 1024) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot read the structure from standard input: {e}");
                return ExitCode::from(BAD_INPUT);
            }
        };
        &stdin_text
    } else {
        text
    };
    let parsed = match set {
        Some(set) => Koan::parse_as(text, set.into()),
        None => text.parse::<Koan>(),
    };
    match parsed {
        Ok(koan) if line => println!("{}", koan.to_line()),
        Ok(koan) => println!("{koan}"),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(BAD_INPUT);
        }
    }
    ExitCode::SUCCESS
}

fn list(set: PieceSet, pieces: usize, limit: Option<usize>) -> ExitCode {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut walk = enumerate::walk(set, pieces);
    let mut written = 0;
    while let Some(koan) = walk.advance() {
        if limit.is_some_and(|limit| written >= limit) {
            break;
        }
        // A closed pipe (`| head`) ends the listing quietly.
        if writeln!(out, "{}", koan.to_line()).is_err() {
            return ExitCode::SUCCESS;
        }
        written += 1;
    }
    // Ignored for the same reason: the reader may have gone.
    let _ = out.flush();
    ExitCode::SUCCESS
}
