//! `mondo counterexample`, `mondo reasonable`, `mondo initial` and `mondo generate`:
//! the exact umpire from the command line. Exit status: 0 answered, 1 the pattern was
//! judged unreasonable, 2 the input was refused, 3 undecided within the limits.

use super::lang::{read_pattern, refuse};
use clap::Args;
use mondo::finder::{self, Limits, ReasonableOptions, Style, Verdict};
use mondo::koan::{Koan, PieceSet};
use mondo::lang;
use serde_json::json;
use std::process::ExitCode;

/// Is the guess the hidden pattern? Prints a proof of equivalence or a counterexample.
#[derive(Debug, Args)]
pub struct CounterexampleArgs {
    /// The hidden pattern (English or symbolic; quote it).
    #[arg(long)]
    pub hidden: String,
    /// The guessed pattern.
    #[arg(long)]
    pub guess: String,
    /// The piece set of the game.
    #[arg(long, default_value = "pyramids")]
    pub set: PieceSet,
    /// A structure already on the table (koan notation, rows split by " / "); the
    /// counterexample avoids it unless only such structures separate the patterns.
    #[arg(long = "exclude", value_name = "KOAN")]
    pub exclude: Vec<String>,
    /// simple: fewest pieces, then smallest box (proved minimal); varied: a seeded
    /// random choice among small counterexamples.
    #[arg(long, default_value = "simple")]
    pub style: Style,
    /// Seed of the varied style.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Solver conflict budget; past it the answer is "undecided".
    #[arg(long, default_value_t = finder::DEFAULT_CONFLICTS)]
    pub conflicts: u64,
    /// Print JSON: {"equivalent": true} or {"equivalent": false, "koan", "hidden",
    /// "guess", "pieces"} (or {"equivalent": null, "undecided": reason}).
    #[arg(long)]
    pub json: bool,
}

/// Is a pattern a reasonable hidden pattern? Checks its logic, how often random
/// structures obey it, and its length.
#[derive(Debug, Args)]
pub struct ReasonableArgs {
    /// The pattern (English or symbolic; quote it).
    pub pattern: String,
    #[arg(long, default_value = "pyramids")]
    pub set: PieceSet,
    /// Random structures (1 to 8 pieces) for the obey share.
    #[arg(long, default_value_t = 1000)]
    pub samples: usize,
    /// The most words allowed as written.
    #[arg(long, default_value_t = mondo::pool::MAX_WORDS)]
    pub max_words: usize,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print JSON: {"pattern", "reasonable", "logic", "share", "words", "refusals"}.
    #[arg(long)]
    pub json: bool,
}

/// The two structures a game with this pattern opens with: the simplest that obeys
/// and the simplest that does not.
#[derive(Debug, Args)]
pub struct InitialArgs {
    /// The pattern (English or symbolic; quote it).
    pub pattern: String,
    #[arg(long, default_value = "pyramids")]
    pub set: PieceSet,
    /// Pick varied small structures with this seed instead of the simplest.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print JSON: {"pattern", "obeys", "does_not_obey"}.
    #[arg(long)]
    pub json: bool,
}

fn undecided() -> ExitCode {
    ExitCode::from(3)
}

fn parse_koans(texts: &[String], set: PieceSet) -> Result<Vec<Koan>, String> {
    let mut koans = Vec::new();
    let mut problems = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        match Koan::parse_as(text, set) {
            Ok(k) => koans.push(k),
            Err(e) => problems.push(format!("excluded structure {} (`{text}`): {e}", i + 1)),
        }
    }
    if problems.is_empty() {
        Ok(koans)
    } else {
        Err(problems.join("\n"))
    }
}

/// A structure for the terminal, indented, with its size.
fn show(koan: &Koan) -> String {
    let rows: Vec<String> = koan.to_string().lines().map(|r| format!("  {r}")).collect();
    let n = koan.len();
    format!(
        "({n} piece{}, {} x {} box)\n{}",
        if n == 1 { "" } else { "s" },
        koan.width(),
        koan.height(),
        rows.join("\n")
    )
}

fn obeys(b: bool) -> &'static str {
    if b { "obeys" } else { "does not obey" }
}

pub fn counterexample(args: CounterexampleArgs) -> ExitCode {
    let read = |text: &str| read_pattern(text, args.set);
    let (hidden, guess) = match (read(&args.hidden), read(&args.guess)) {
        (Ok(h), Ok(g)) => (h, g),
        (Err(m), _) => return refuse(args.json, &format!("the hidden pattern: {m}")),
        (_, Err(m)) => return refuse(args.json, &format!("the guess: {m}")),
    };
    let table = match parse_koans(&args.exclude, args.set) {
        Ok(t) => t,
        Err(m) => return refuse(args.json, &m),
    };
    let limits = Limits {
        conflicts: Some(args.conflicts),
        ..Limits::default()
    };
    let verdict = finder::compare(
        &hidden.formula,
        &guess.formula,
        args.set,
        &table,
        args.style,
        args.seed,
        &limits,
    );
    if !args.json {
        println!("hidden: {}", lang::english(&hidden.formula));
        println!("guess:  {}", lang::english(&guess.formula));
    }
    match verdict {
        Verdict::Equivalent => {
            if args.json {
                println!("{}", json!({ "equivalent": true }));
            } else {
                println!(
                    "equivalent: proved on every structure of the {} set",
                    args.set
                );
            }
            ExitCode::SUCCESS
        }
        Verdict::Counterexample(cx) => {
            let tabled = cx.on_table(&table);
            if args.json {
                let mut out = json!({
                    "equivalent": false,
                    "koan": cx.koan.to_string(),
                    "hidden": cx.hidden,
                    "guess": cx.guess,
                    "pieces": cx.koan.len(),
                });
                if let Some(i) = tabled {
                    out["on_table"] = json!(i);
                }
                println!("{out}");
            } else {
                println!("counterexample {}", show(&cx.koan));
                println!(
                    "it {} the hidden pattern and {} the guess",
                    obeys(cx.hidden),
                    obeys(cx.guess)
                );
                if let Some(i) = tabled {
                    println!(
                        "(it is excluded structure {}: every structure that separates them is \
                         already on the table)",
                        i + 1
                    );
                }
            }
            ExitCode::SUCCESS
        }
        Verdict::Undecided { reason } => {
            if args.json {
                println!("{}", json!({ "equivalent": null, "undecided": reason }));
            } else {
                println!("undecided: {reason}");
            }
            undecided()
        }
    }
}

pub fn reasonable(args: ReasonableArgs) -> ExitCode {
    // The set is checked by `reasonable` itself, with the other reasons.
    let pattern = match lang::parse(&args.pattern) {
        Ok(p) => p,
        Err(e) => return refuse(args.json, &e.render(&args.pattern)),
    };
    let options = ReasonableOptions {
        samples: args.samples.max(1),
        max_words: args.max_words,
        seed: args.seed,
        ..ReasonableOptions::default()
    };
    let report = finder::reasonable(&pattern, args.set, &options);
    let english = lang::english(&pattern.formula);
    if args.json {
        println!(
            "{}",
            json!({
                "pattern": english,
                "reasonable": report.accepted(),
                "logic": report.logic,
                "share": report.share,
                "words": report.words,
                "refusals": report.refusals,
            })
        );
    } else {
        println!("pattern: {english}");
        println!("words:   {} (at most {})", report.words, args.max_words);
        println!(
            "obeyed by {:.1} % of {} random structures of 1 to 8 pieces",
            100.0 * report.share,
            report.samples
        );
        if report.accepted() {
            println!("reasonable");
        } else {
            println!("not reasonable:");
            for r in &report.refusals {
                println!("  - {r}");
            }
        }
    }
    if report.accepted() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

pub fn initial(args: InitialArgs) -> ExitCode {
    let pattern = match read_pattern(&args.pattern, args.set) {
        Ok(p) => p,
        Err(m) => return refuse(args.json, &m),
    };
    match finder::initial(&pattern.formula, args.set, args.seed, &Limits::default()) {
        Ok(init) => {
            if args.json {
                println!(
                    "{}",
                    json!({
                        "pattern": lang::english(&pattern.formula),
                        "obeys": init.obeys.to_string(),
                        "does_not_obey": init.does_not_obey.to_string(),
                    })
                );
            } else {
                println!("pattern: {}", lang::english(&pattern.formula));
                println!("obeys {}", show(&init.obeys));
                println!("does not obey {}", show(&init.does_not_obey));
            }
            ExitCode::SUCCESS
        }
        Err(finder::InitialError::Undecided(reason)) => {
            if args.json {
                println!("{}", json!({ "undecided": reason }));
            } else {
                println!("undecided: {reason}");
            }
            undecided()
        }
        Err(e) => refuse(args.json, &e.to_string()),
    }
}
