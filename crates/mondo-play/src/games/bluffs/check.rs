//! `mondo bluffs check`: the umpire's reading and verdict on one Logical Bluffs
//! statement about a subset (docs/tiles.md, "What the umpire checks"). Exit status:
//! 0 valid, 1 refused by the checks, 2 when the statement, subset or layout does not
//! read.

use crate::commands::{Commands, refuse};
use crate::lang::tiles::{self, Layout, Subset};
use crate::rules::bluffs::judge;
use clap::{Args, Subcommand};
use serde_json::json;
use std::process::ExitCode;

/// Logical Bluffs' own `mondo` subcommand.
#[derive(Debug, Subcommand)]
pub enum BluffsCommands {
    /// Logical Bluffs: check a statement about a subset.
    Bluffs(BluffsArgs),
}

impl Commands for BluffsCommands {
    fn run(self) -> ExitCode {
        match self {
            BluffsCommands::Bluffs(args) => run(args),
        }
    }
}

/// Logical Bluffs from the command line.
#[derive(Debug, Args)]
pub struct BluffsArgs {
    #[command(subcommand)]
    pub command: BluffsCommand,
}

#[derive(Debug, Subcommand)]
pub enum BluffsCommand {
    /// Read a statement about a subset and say whether the umpire accepts it.
    Check(CheckArgs),
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The statement, in English or symbolic form (quote it).
    pub statement: String,
    /// The subset the statement speaks of: 4-8 connected tiles, like A1-B1-A2-B2.
    #[arg(long)]
    pub subset: String,
    /// A layout to say whether the statement is true of, like RBGY/YYGR/BRRG/GBYB.
    #[arg(long)]
    pub layout: Option<String>,
    /// The word limit (the seed's is 15).
    #[arg(long, default_value_t = tiles::MAX_WORDS)]
    pub max_words: usize,
    /// Allow any subset (the No Limit item lifts the subset rules: any tiles, up to
    /// all 16, connected or not).
    #[arg(long)]
    pub no_limit: bool,
    /// Print JSON: {"statement", "symbolic", "words", "valid", "uninvolved",
    /// "reason", "true" (only with --layout)}.
    #[arg(long)]
    pub json: bool,
}

fn run(args: BluffsArgs) -> ExitCode {
    match args.command {
        BluffsCommand::Check(args) => check(args),
    }
}

fn check(args: CheckArgs) -> ExitCode {
    let subset: Subset = match args.subset.parse() {
        Ok(s) => s,
        Err(e) => return refuse(args.json, &format!("--subset: {e}")),
    };
    if !args.no_limit
        && let Err(e) = subset.check_shape()
    {
        return refuse(args.json, &format!("--subset: {e}"));
    }
    let layout: Option<Layout> = match args.layout.as_deref().map(str::parse).transpose() {
        Ok(l) => l,
        Err(e) => return refuse(args.json, &format!("--layout: {e}")),
    };
    // The umpire's own reading, as a bluff's statements get it.
    let (statement, verdict) = match judge(&args.statement, &subset, args.max_words) {
        Ok(judged) => judged,
        Err(e) => return refuse(args.json, &e.render(&args.statement)),
    };
    // A statement too complex to check is not evaluated either (the same work).
    let truth = layout
        .filter(|_| verdict.checked)
        .map(|l| tiles::truth(&statement, &subset, &l));
    if args.json {
        let mut out = json!({
            "statement": verdict.statement,
            "symbolic": verdict.symbolic,
            "words": verdict.words,
            "valid": verdict.valid,
            "uninvolved": verdict.uninvolved.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "reason": verdict.reason,
        });
        if let (Some(t), Some(map)) = (truth, out.as_object_mut()) {
            map.insert("true".into(), json!(t));
        }
        println!("{out}");
    } else {
        println!("subset:    {subset}");
        println!("reading:   {}", verdict.statement);
        println!("symbolic:  {}", verdict.symbolic);
        println!("words:     {}", verdict.words);
        match &verdict.reason {
            None => println!("verdict:   valid"),
            Some(r) => println!("verdict:   refused: {r}"),
        }
        if !verdict.uninvolved.is_empty() {
            let list: Vec<String> = verdict.uninvolved.iter().map(ToString::to_string).collect();
            println!("uninvolved: {}", list.join(", "));
        }
        if let Some(t) = truth {
            println!("true:      {}", if t { "yes" } else { "no" });
        }
    }
    if verdict.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
