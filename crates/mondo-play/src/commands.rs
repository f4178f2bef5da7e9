//! A game's own `mondo` subcommands beside `mondo play` (`mondo bluffs check`): each
//! game's terminal front names them ([`super::Terminal::Commands`]), and the
//! registry's list puts every game's into the command line (`games::GameCommand`), so
//! `mondo`'s own command list names no game.

use clap::{ArgMatches, Command, FromArgMatches, Subcommand};
use serde_json::json;
use std::process::ExitCode;

/// A game's subcommands, and what running one does.
pub trait Commands: Subcommand + FromArgMatches + std::fmt::Debug {
    /// Runs the command; its exit status.
    fn run(self) -> ExitCode;
}

/// No subcommands: a game whose only command is `mondo play`.
#[derive(Debug)]
pub enum NoCommands {}

impl Commands for NoCommands {
    fn run(self) -> ExitCode {
        match self {}
    }
}

impl FromArgMatches for NoCommands {
    fn from_arg_matches(matches: &ArgMatches) -> Result<NoCommands, clap::Error> {
        Err(not_ours(matches))
    }
    fn update_from_arg_matches(&mut self, _: &ArgMatches) -> Result<(), clap::Error> {
        match *self {}
    }
}

impl Subcommand for NoCommands {
    fn augment_subcommands(cmd: Command) -> Command {
        cmd
    }
    fn augment_subcommands_for_update(cmd: Command) -> Command {
        cmd
    }
    fn has_subcommand(_: &str) -> bool {
        false
    }
}

/// The error for a subcommand no game has (clap's own words for it).
pub(crate) fn not_ours(matches: &ArgMatches) -> clap::Error {
    let name = matches.subcommand_name().unwrap_or_default();
    clap::Error::raw(
        clap::error::ErrorKind::InvalidSubcommand,
        format!("unrecognized subcommand '{name}'"),
    )
}

/// Exit status for refused input.
pub const REFUSED: u8 = 2;

/// Prints a refusal: as `{"error": ...}` on stdout in JSON mode, else on stderr; the
/// exit status for refused input.
pub fn refuse(json: bool, message: &str) -> ExitCode {
    if json {
        println!("{}", json!({ "error": message }));
    } else {
        eprintln!("{message}");
    }
    ExitCode::from(REFUSED)
}
