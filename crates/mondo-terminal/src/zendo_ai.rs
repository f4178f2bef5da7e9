//! `mondo ai solve`: the AI student plays solo practice against a pattern, through the
//! real rules, and the umpire proves its guess or answers with a counterexample.
//! Exit status: 0 played (solved or not), 2 the input was refused.

use super::lang::refuse;
use clap::{Args, Subcommand};
use mondo_rules::koan::{Koan, PieceSet};
use mondo_rules::lang::{self, CompiledPattern};
use mondo_rules::rules::zendo::opening::Source;
use mondo_rules::rules::zendo::{Opening, PracticeSetup, Settings, opening};
use mondo_rules::student::zendo::solo::{SoloOptions, SoloStep, solo};
use mondo_rules::student::zendo::{Level, Space};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use serde_json::json;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

#[derive(Debug, Args)]
pub struct AiArgs {
    #[command(subcommand)]
    pub command: AiCommand,
}

#[derive(Debug, Subcommand)]
pub enum AiCommand {
    /// The AI plays solo practice against a pattern: each structure it builds with
    /// its verdict, each guess with the umpire's answer, then an `end` line.
    Solve(SolveArgs),
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The hidden pattern (English or symbolic; quote it), here or with --pattern.
    #[arg(
        value_name = "PATTERN",
        required_unless_present = "pattern",
        conflicts_with = "pattern"
    )]
    pub text: Option<String>,
    /// The hidden pattern (English or symbolic; quote it).
    #[arg(long)]
    pub pattern: Option<String>,
    /// The piece set.
    #[arg(long, default_value = "pyramids")]
    pub set: PieceSet,
    /// The most structures the AI builds (default 20; 7 with --no-guesses, the
    /// published protocol).
    #[arg(long)]
    pub koans: Option<usize>,
    /// No guesses: the AI only builds its structures (then predicts, with --predict).
    #[arg(long)]
    pub no_guesses: bool,
    /// Fixes every random choice (the AI's and the umpire's).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// beginner, player or expert.
    #[arg(long, default_value = "expert", value_parser = parse_level)]
    pub level: Level,
    /// After play, say whether each of these structures obeys, by the AI's belief
    /// (koan notation, rows split by " / "). Given alone: the protocol's 8 test
    /// structures (4 that obey, 4 that do not, drawn by the seed), each with whether
    /// the AI was right, and the score.
    #[arg(long, value_name = "STRUCTURE", num_args = 0..)]
    pub predict: Option<Vec<String>>,
    /// Print JSON lines: opening, koan, guess, end, predict events.
    #[arg(long)]
    pub json: bool,
}

fn parse_level(text: &str) -> Result<Level, String> {
    Level::parse(text).ok_or_else(|| {
        format!("unknown level `{text}`: the levels are beginner, player and expert")
    })
}

pub fn run(args: AiArgs) -> ExitCode {
    match args.command {
        AiCommand::Solve(args) => solve(args),
    }
}

/// A structure on one line (rows split by " / "), as `--predict` reads it.
pub(super) fn one_line(koan: &Koan) -> String {
    koan.to_string().lines().collect::<Vec<_>>().join(" / ")
}

fn verdict(obeys: bool) -> &'static str {
    if obeys { "obeys" } else { "does not obey" }
}

/// The match `mondo ai solve` plays: the pattern, the finder's two opening
/// structures.
pub(super) fn setup(pattern: &str, set: PieceSet, seed: u64) -> Result<PracticeSetup, String> {
    let Opening {
        hidden, initial, ..
    } = opening(
        Source::Pattern(pattern),
        set,
        seed,
        &mondo_rules::finder::Limits::default(),
    )
    .map_err(|e| e.to_string())?;
    Ok(PracticeSetup {
        player: mondo_rules::rules::PlayerId(1),
        hidden,
        initial,
        settings: Settings {
            set,
            ..Settings::default()
        },
        seed,
    })
}

/// The published protocol's test structures for a hidden pattern: 4 that obey and 4
/// that do not (fewer when the random draws find fewer), drawn by the seed.
pub(super) fn test_structures(
    hidden: &lang::Formula,
    set: PieceSet,
    seed: u64,
) -> Vec<(Koan, bool)> {
    let compiled = CompiledPattern::new(hidden);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x7e57);
    let (mut yes, mut no): (Vec<Koan>, Vec<Koan>) = (Vec::new(), Vec::new());
    for _ in 0..20_000 {
        if yes.len() >= 4 && no.len() >= 4 {
            break;
        }
        let k = lang::random::koan(&mut rng, set, 8);
        if compiled.evaluate(&k) {
            if yes.len() < 4 {
                yes.push(k);
            }
        } else if no.len() < 4 {
            no.push(k);
        }
    }
    let yes = yes.into_iter().map(|k| (k, true));
    yes.chain(no.into_iter().map(|k| (k, false))).collect()
}

fn solve(args: SolveArgs) -> ExitCode {
    let Some(pattern) = args.text.as_ref().or(args.pattern.as_ref()) else {
        return refuse(args.json, "give the hidden pattern (PATTERN or --pattern)");
    };
    let mut predict = Vec::new();
    for (i, text) in args.predict.iter().flatten().enumerate() {
        match Koan::parse_as(text, args.set) {
            Ok(k) => predict.push((text.clone(), k)),
            Err(e) => {
                return refuse(
                    args.json,
                    &format!("--predict structure {} (`{text}`): {e}", i + 1),
                );
            }
        }
    }
    let setup = match setup(pattern, args.set, args.seed) {
        Ok(s) => s,
        Err(e) => return refuse(args.json, &format!("the pattern: {e}")),
    };
    let clock = Instant::now();
    let mut now = || clock.elapsed().as_millis() as u64;
    let space = Arc::new(Space::build(args.set, args.level.breadth()));
    let built = now();
    if args.json {
        println!(
            "{}",
            json!({"event": "space", "rules": space.len(), "groups": space.groups.len(), "ms": built})
        );
    } else {
        println!(
            "the AI ({}) holds {} rules in {} groups of equal meaning (built in {built} ms)",
            args.level,
            space.len(),
            space.groups.len()
        );
    }
    let json = args.json;
    let mut report = |step: &SoloStep| print_step(step, json);
    let koans = args.koans.unwrap_or(if args.no_guesses { 7 } else { 20 });
    let mut options = SoloOptions::new(koans, args.level, args.seed);
    if args.no_guesses {
        options.guesses = 0;
    }
    // The protocol's test structures, when --predict names none.
    let tests = match &args.predict {
        Some(given) if given.is_empty() => {
            test_structures(&setup.hidden.formula, args.set, args.seed)
        }
        _ => Vec::new(),
    };
    let result = match solo(space, setup, options, &mut now, &mut report) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let ms = now();
    if json {
        println!(
            "{}",
            json!({"event": "end", "solved": result.solved, "koans": result.koans,
                   "guesses": result.guesses, "ms": ms})
        );
    } else {
        println!(
            "end: {} after {} structures and {} guesses ({ms} ms)",
            if result.solved {
                "solved"
            } else {
                "not solved"
            },
            result.koans,
            result.guesses
        );
    }
    for (text, koan) in &predict {
        let p = result.student.predict(koan);
        if json {
            println!(
                "{}",
                json!({"event": "predict", "koan": text, "obeys": p.obeys})
            );
        } else {
            println!(
                "predict: {text}  {} ({:.0} % of the belief says it obeys)",
                verdict(p.obeys),
                100.0 * p.share
            );
        }
    }
    let mut right = 0;
    for (koan, obeys) in &tests {
        let p = result.student.predict(koan);
        right += usize::from(p.obeys == *obeys);
        let text = one_line(koan);
        if json {
            println!(
                "{}",
                json!({"event": "predict", "koan": text, "obeys": p.obeys, "right": p.obeys == *obeys})
            );
        } else {
            println!(
                "predict: {text}  {} ({:.0} % of the belief says it obeys) -> {}",
                verdict(p.obeys),
                100.0 * p.share,
                if p.obeys == *obeys { "right" } else { "wrong" }
            );
        }
    }
    if !tests.is_empty() {
        if json {
            println!(
                "{}",
                json!({"event": "score", "right": right, "predicted": tests.len()})
            );
        } else {
            println!("score: {right} of {} predicted right", tests.len());
        }
    }
    ExitCode::SUCCESS
}

fn print_step(step: &SoloStep, json: bool) {
    match step {
        SoloStep::Opening { koan, obeys } => {
            if json {
                println!(
                    "{}",
                    json!({"event": "opening", "koan": one_line(koan), "obeys": obeys})
                );
            } else {
                println!("opening: {}  {}", one_line(koan), verdict(*obeys));
            }
        }
        SoloStep::Koan {
            number,
            koan,
            obeys,
            expected,
            split,
            from_finder,
            ms,
        } => {
            if json {
                println!(
                    "{}",
                    json!({"event": "koan", "number": number, "koan": one_line(koan),
                           "obeys": obeys, "expected": expected, "splits": [split.0, split.1],
                           "finder": from_finder, "ms": ms})
                );
            } else {
                let why = if *from_finder {
                    "the finder's structure telling apart two rules it could not".to_string()
                } else {
                    format!("{} rule groups say it obeys, {} say not", split.0, split.1)
                };
                println!(
                    "koan {number}: {}  {} ({why}; {:.0} % expected it to obey) [{ms} ms]",
                    one_line(koan),
                    verdict(*obeys),
                    100.0 * expected
                );
            }
        }
        SoloStep::Guess {
            number,
            text,
            belief,
            right,
            counterexample,
            refused,
            ms,
        } => {
            if json {
                let c = counterexample
                    .as_ref()
                    .map(|(k, o)| json!({"koan": one_line(k), "obeys": o}));
                println!(
                    "{}",
                    json!({"event": "guess", "number": number, "pattern": text,
                           "belief": belief, "right": right, "counterexample": c,
                           "refused": refused, "ms": ms})
                );
            } else {
                let answer = if *right {
                    "right: the umpire proved it".to_string()
                } else if let Some((k, o)) = counterexample {
                    format!("wrong: counterexample {}  {}", one_line(k), verdict(*o))
                } else if let Some(r) = refused {
                    format!("refused: {r}")
                } else {
                    "void: the umpire could not decide".to_string()
                };
                println!(
                    "guess {number}: \"{text}\" ({:.0} % of the belief) -> {answer} [{ms} ms]",
                    100.0 * belief
                );
            }
        }
    }
}
