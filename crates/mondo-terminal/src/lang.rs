//! `mondo explain`, `mondo check` and `mondo pool check`: the pattern language and
//! pools from the command line. Exit status 2 means the input was refused.

use clap::{Args, Subcommand};
use mondo_rules::koan::{Koan, ParseKoanError, PieceSet};
use mondo_rules::lang::{self, CompiledPattern, Pattern};
use mondo_rules::pool::Pool;
use serde_json::json;
use std::process::ExitCode;

/// Read a pattern and say it back: canonical English, symbolic form, word count.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The pattern, in English or symbolic form (quote it).
    pub pattern: String,
    /// The piece set the pattern is meant for.
    #[arg(long, default_value = "pyramids")]
    pub set: PieceSet,
    /// Print JSON: {"pattern", "symbolic", "words"}.
    #[arg(long)]
    pub json: bool,
}

/// Say whether each structure obeys a pattern.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The pattern, in English or symbolic form (quote it).
    #[arg(long)]
    pub pattern: String,
    /// Structures in koan notation, one per argument (rows split by " / ").
    #[arg(required = true)]
    pub koans: Vec<String>,
    /// The piece set of the structures and the pattern.
    #[arg(long, default_value = "pyramids")]
    pub set: PieceSet,
    /// Print JSON: {"pattern", "results": [{"koan", "obeys"}]}.
    #[arg(long)]
    pub json: bool,
}

/// Work with pattern pools (TOML files, see config/pools/).
#[derive(Debug, Args)]
pub struct PoolArgs {
    #[command(subcommand)]
    pub command: PoolCommand,
}

#[derive(Debug, Subcommand)]
pub enum PoolCommand {
    /// Validate pool files: list every problem with its entry, or summarise the pool.
    Check {
        /// Pool files to check.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
}

pub(super) use mondo_play::commands::refuse;

/// Exit status for refused input.
fn refused() -> ExitCode {
    ExitCode::from(mondo_play::commands::REFUSED)
}

/// Reads a pattern for a set; on failure, the message to show (already rendered, as
/// every front shows it: `lang::Refusal::render`).
pub(super) fn read_pattern(text: &str, set: PieceSet) -> Result<Pattern, String> {
    lang::read_for(text, set).map_err(|r| r.render(text))
}

pub fn explain(args: ExplainArgs) -> ExitCode {
    let pattern = match read_pattern(&args.pattern, args.set) {
        Ok(p) => p,
        Err(message) => return refuse(args.json, &message),
    };
    let english = lang::english_for(&pattern.formula, args.set);
    let symbolic = lang::symbolic(&pattern.formula);
    let words = lang::word_count(&args.pattern);
    if args.json {
        println!(
            "{}",
            json!({ "pattern": english, "symbolic": symbolic, "words": words })
        );
    } else {
        println!("pattern:  {english}");
        println!("symbolic: {symbolic}");
        println!("words:    {words}");
    }
    ExitCode::SUCCESS
}

pub fn check(args: CheckArgs) -> ExitCode {
    let pattern = match read_pattern(&args.pattern, args.set) {
        Ok(p) => p,
        Err(message) => return refuse(args.json, &message),
    };
    let mut koans = Vec::new();
    let mut problems = Vec::new();
    let mut other_set = false;
    for (i, text) in args.koans.iter().enumerate() {
        match Koan::parse_as(text, args.set) {
            Ok(k) => koans.push(k),
            Err(e) => {
                other_set |= matches!(e, ParseKoanError::WrongSet { .. });
                problems.push(format!("structure {} (`{text}`): {e}", i + 1));
            }
        }
    }
    if !problems.is_empty() {
        if other_set {
            problems.push("(choose the piece set with --set pyramids or --set arrows)".into());
        }
        return refuse(args.json, &problems.join("\n"));
    }
    let compiled = CompiledPattern::new(&pattern.formula);
    let english = lang::english_for(&pattern.formula, args.set);
    if args.json {
        let results: Vec<_> = koans
            .iter()
            .map(|k| json!({ "koan": k.to_string(), "obeys": compiled.evaluate(k) }))
            .collect();
        println!("{}", json!({ "pattern": english, "results": results }));
    } else {
        println!("pattern: {english}");
        for k in &koans {
            let verdict = if compiled.evaluate(k) {
                "obeys"
            } else {
                "does not obey"
            };
            println!("{verdict:<14} {}", k.to_line());
        }
    }
    ExitCode::SUCCESS
}

pub fn pool(args: PoolArgs) -> ExitCode {
    match args.command {
        PoolCommand::Check { files } => {
            let mut status = ExitCode::SUCCESS;
            for file in files {
                let name = file.display();
                let text = match mondo_play::files::read_text(
                    &file,
                    mondo_play::files::MAX_POOL_BYTES,
                    "pool",
                ) {
                    Ok(t) => t,
                    Err(e) => {
                        eprintln!("{e}");
                        status = refused();
                        continue;
                    }
                };
                match Pool::from_toml(&text) {
                    Ok(pool) => println!("{name}: {}", summary(&pool)),
                    Err(errors) => {
                        for e in &errors.0 {
                            eprintln!("{name}: {e}");
                        }
                        let n = errors.0.len();
                        eprintln!("{name}: {n} problem{}", if n == 1 { "" } else { "s" });
                        status = refused();
                    }
                }
            }
            status
        }
    }
}

/// `35 entries: pyramids 35 (easy 11, medium 20, hard 4)`.
fn summary(pool: &Pool) -> String {
    let n = pool.len();
    format!(
        "{n} entr{}: {}",
        if n == 1 { "y" } else { "ies" },
        pool.breakdown()
    )
}
