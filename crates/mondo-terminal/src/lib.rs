//! The `mondo` command line: one file per area, dispatched from here.
//!
//! The terminal knows no other front: the binary gives the commands of the others
//! (`mondo serve`, the Discord bot) as `F`, listed in their place among these and run
//! by the binary.

use clap::Subcommand;
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
mod tournament;
mod tournament_assembly;
mod tournament_kit;
mod tournament_page;
mod tournament_run;
mod zendo_ai;

/// The `mondo` subcommands, with `F` the other fronts' in their place.
#[derive(Debug, Subcommand)]
pub enum Command<F: Subcommand> {
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
    /// The other fronts' commands (`mondo serve`), run by the binary.
    #[command(flatten)]
    Front(F),
    /// Each game's own subcommands (`mondo bluffs check`), from its terminal front.
    #[command(flatten)]
    Game(mondo_play::games::GameCommand),
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

/// Runs a command; one of the other fronts' goes to `front`.
pub fn run<F: Subcommand>(command: Command<F>, front: impl FnOnce(F) -> ExitCode) -> ExitCode {
    match command {
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
        Command::Front(command) => front(command),
        Command::Game(command) => command.run(),
        Command::Stats(args) => ratings::stats(args),
        Command::History(args) => history::run(args),
        Command::Leaderboard(args) => ratings::leaderboard(args),
        Command::Ratings(args) => ratings::ratings(args),
        Command::Ai(args) => zendo_ai::run(args),
        Command::Tournament(args) => tournament::run(args),
    }
}
