use clap::Parser;
use std::process::ExitCode;

// The terminal's subcommands with the Discord front's (`mondo serve`) in their place:
// the two fronts are crates that know nothing of each other, put together here.
/// Mondo: an umpire for Zendo and other deduction games.
#[derive(Debug, Parser)]
#[command(name = "mondo", version, about)]
struct Cli {
    #[command(subcommand)]
    command: mondo_terminal::Command<mondo_discord::cli::Command>,
}

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    let cli = Cli::parse();
    mondo_terminal::run(cli.command, mondo_discord::cli::Command::run)
}

/// `mondo replay 3 | head -1`: once the reader is gone there is nobody to tell
/// anything, so the command ends quietly (status 0), as `cat` or `ls` do, instead of
/// panicking with "failed printing to stdout: Broken pipe". `println!` panics on a
/// write error; Rust ignores SIGPIPE, so the error is EPIPE. Every other panic is
/// reported as usual. (A hook rather than a checked write at each of the many prints,
/// so that no command, present or future, can forget it.)
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        // std's message: "failed printing to stdout: Broken pipe (os error 32)".
        let broken = message.starts_with("failed printing to stdout")
            && message.ends_with(&format!("(os error {EPIPE})"));
        if broken {
            std::process::exit(0);
        }
        default(info);
    }));
}

/// EPIPE on Linux and the BSDs (macOS included).
const EPIPE: i32 = 32;
