//! `mondo play`: solo practice at the terminal, one command per line on standard input
//! (typed or piped alike), over the same runtime and store as the bot.

use clap::Args;
use mondo::PieceSet;
use mondo::play::{Flow, Session, Source, practice_setup};
use mondo::pool::Pool;
use mondo::runtime::{Config, Runtime, SystemTime, ZendoMatch};
use mondo::store::Store;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The database file (created if missing).
    #[arg(long, default_value = "mondo.db")]
    pub db: PathBuf,
    /// A pool file to draw the hidden pattern from (default: the shipped pool).
    #[arg(long, conflicts_with = "pattern")]
    pub pool: Option<PathBuf>,
    /// Play against this hidden pattern instead of a pool's.
    #[arg(long)]
    pub pattern: Option<String>,
    /// Fixes the choice of pattern and of counterexamples (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Go on with the last unfinished game in the database.
    #[arg(long, conflicts_with_all = ["pool", "pattern", "seed"])]
    pub resume: bool,
    /// One JSON object per line, for programs.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: PlayArgs) -> ExitCode {
    super::replay::block_on(play(args))
}

async fn play(args: PlayArgs) -> Result<ExitCode, String> {
    let source_pool;
    let setup = if args.resume {
        None
    } else {
        let seed = args.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(0)
        });
        let source = match (&args.pattern, &args.pool) {
            (Some(p), _) => Source::Pattern(p),
            (None, Some(path)) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read the pool {}: {e}", path.display()))?;
                source_pool = Pool::from_toml(&text)
                    .map_err(|e| format!("the pool {} is not valid:\n{e}", path.display()))?;
                Source::Pool(&source_pool)
            }
            (None, None) => {
                source_pool = Pool::shipped(PieceSet::Pyramids);
                Source::Pool(&source_pool)
            }
        };
        Some(practice_setup(source, seed)?)
    };
    let store = Store::open(&args.db)
        .await
        .map_err(|e| format!("{} ({})", e, args.db.display()))?;
    let (runtime, _) = Runtime::<ZendoMatch>::start(store, SystemTime::new(), Config::default())
        .await
        .map_err(|e| e.to_string())?;
    let opened = match setup {
        Some(setup) => Some(Session::start(runtime.clone(), setup, args.json).await),
        None => Session::resume(runtime.clone(), args.json)
            .await
            .transpose(),
    };
    let Some(opened) = opened else {
        return Err(format!(
            "there is no unfinished game in {} to resume; start one with `mondo play`",
            args.db.display()
        ));
    };
    let (mut session, lines) = opened.map_err(|e| e.to_string())?;
    print_lines(&lines);

    // Standard input is read on its own thread: lines arrive as they are typed.
    let (tx, mut rx) = tokio::sync::mpsc::channel::<String>(16);
    let interactive = std::io::stdin().is_terminal() && !args.json;
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.blocking_send(line).is_err() {
                break;
            }
        }
    });
    let mut flow = Flow::Continue;
    while flow == Flow::Continue {
        if interactive {
            print!("> ");
            let _ = std::io::stdout().flush();
        }
        let Some(line) = rx.recv().await else {
            // End of input: leave the game as it is, to resume.
            break;
        };
        let (lines, next) = session.line(&line).await;
        print_lines(&lines);
        flow = next;
    }
    runtime.shutdown().await.map_err(|e| e.to_string())?;
    Ok(ExitCode::SUCCESS)
}

fn print_lines(lines: &[String]) {
    let mut out = std::io::stdout().lock();
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
    let _ = out.flush();
}
