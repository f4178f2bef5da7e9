//! The `mondo` command line: one file per area, dispatched from here.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod bench;
mod bench_leaderboard;
mod bench_practice;
mod bench_render;
mod bench_zendo_ai;
mod finder;
mod history;
mod kit;
mod koan;
mod lang;
mod play;
mod play_zendo_ai;
mod ratings;
mod render;
mod replay;
mod serve;
mod tournament;
mod tournament_assembly;
mod tournament_kit;
mod tournament_page;
mod tournament_run;
mod zendo_ai;

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
    /// Read a pattern and say it back (canonical English, symbolic, word count).
    Explain(lang::ExplainArgs),
    /// Say whether structures obey a pattern.
    Check(lang::CheckArgs),
    /// Work with pattern pools.
    Pool(lang::PoolArgs),
    /// Speed figures on this machine.
    Bench(bench::BenchArgs),
    /// Is a guess the hidden pattern? A proof, or a counterexample.
    Counterexample(finder::CounterexampleArgs),
    /// Is a pattern a reasonable hidden pattern (logic, obey share, length)?
    Reasonable(finder::ReasonableArgs),
    /// The simplest structures that obey and do not obey a pattern.
    Initial(finder::InitialArgs),
    /// Random reasonable hidden patterns, none needlessly long, with initial structures.
    Generate(finder::GenerateArgs),
    /// Solo practice at the terminal (one command per line on standard input).
    // Boxed: its many options (Zendo and Pattern Assembly) make it the largest.
    Play(Box<play::PlayArgs>),
    /// A match from its log, event by event.
    Replay(replay::ReplayArgs),
    /// Draw structures as a PNG: one structure, or a numbered board of several.
    Render(render::RenderArgs),
    /// Run the Discord bot (needs DISCORD_TOKEN; see config/default.toml).
    Serve(serve::ServeArgs),
    /// Each game's own subcommands (`mondo bluffs check`), from its terminal front.
    #[command(flatten)]
    Game(mondo::play::games::GameCommand),
    /// A player's ratings, results and solo records.
    Stats(ratings::StatsArgs),
    /// A player's finished matches: result, opponents, rating change, date, replay.
    History(history::HistoryArgs),
    /// The best settled players of a server (or the terminal), game by game.
    Leaderboard(ratings::LeaderboardArgs),
    /// Ratings as derived data: `mondo ratings rebuild` makes them again from the logs.
    Ratings(ratings::RatingsArgs),
    /// The AI student: `mondo ai solve` plays solo practice against a pattern.
    Ai(zendo_ai::AiArgs),
    /// Tournaments: create, join, start, standings, matches, a page; `run --ai-fill`.
    Tournament(tournament::TournamentArgs),
}

pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Version => {
            println!("mondo {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Command::Koan(args) => koan::run(args),
        Command::Explain(args) => lang::explain(args),
        Command::Check(args) => lang::check(args),
        Command::Pool(args) => lang::pool(args),
        Command::Bench(args) => bench::run(args),
        Command::Counterexample(args) => finder::counterexample(args),
        Command::Reasonable(args) => finder::reasonable(args),
        Command::Initial(args) => finder::initial(args),
        Command::Generate(args) => finder::generate(args),
        Command::Play(args) => play::run(*args),
        Command::Replay(args) => replay::run(args),
        Command::Render(args) => render::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Game(command) => command.run(),
        Command::Stats(args) => ratings::stats(args),
        Command::History(args) => history::run(args),
        Command::Leaderboard(args) => ratings::leaderboard(args),
        Command::Ratings(args) => ratings::ratings(args),
        Command::Ai(args) => zendo_ai::run(args),
        Command::Tournament(args) => tournament::run(args),
    }
}
