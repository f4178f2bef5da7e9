//! The `mondo` command line: one file per area, dispatched from here.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Mondo: an umpire for Zendo and other deduction games.
#[derive(Debug, Parser)]
#[command(name = "mondo", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {}

pub fn run(cli: Cli) -> ExitCode {
    match cli.command {}
}
