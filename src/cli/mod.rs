//! The `mondo` command line: one file per area, dispatched from here.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod koan;

/// Mondo: an umpire for Zendo and other deduction games.
#[derive(Debug, Parser)]
#[command(name = "mondo", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the version and exit.
    Version,
    /// Structures in text: normalise their notation, count them, list them.
    Koan(koan::KoanArgs),
}

pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Version => {
            println!("mondo {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Command::Koan(args) => koan::run(args),
    }
}
