//! `mondo play [GAME]`: a game at the terminal, one command per line on standard input
//! (typed or piped alike), over the same runtime and store as the bot. `zendo` (the
//! default) is solo practice, or with `--duel` (or `duel`) two players at one
//! terminal.

use super::kit::print_lines;
use clap::Args;
use mondo_play::args::TableArgs;
use mondo_play::config::DatabaseConfig;
use mondo_play::games::{self, GameArgs};
use mondo_play::pictures;
use mondo_play::{DEFAULT_DB, Flow, Input, Session, read_input};
use mondo_runtime::{AnyMatch, Config, Runtime, SystemTime};
use mondo_store::{Durability, Location, Store};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game to start.
    #[arg(default_value = games::default_name(), value_parser = games::names())]
    pub game: String,
    /// The database: a SQLite file (created if missing) or a URL (sqlite://FILE,
    /// postgres://user@host:5432/database).
    #[arg(long, default_value = DEFAULT_DB)]
    pub db: Location,
    /// Also draw every structure as a PNG in this folder as it joins the table (and
    /// the whole table on `board`). A terminal that shows pictures (kitty, iTerm2,
    /// sixel) shows them inline, with or without this (see --pictures).
    #[arg(long, value_name = "DIR")]
    pub png: Option<PathBuf>,
    /// How pictures are shown inline: `auto` in the protocol the terminal's
    /// environment names (KITTY_WINDOW_ID, TERM, TERM_PROGRAM), at a terminal only and
    /// unless MONDO_NO_IMAGES is set; or as named (`blocks`: coloured half blocks);
    /// `off` for text only. The terminal is never asked.
    #[arg(long, value_enum, default_value_t = pictures::Choice::Auto)]
    pub pictures: pictures::Choice,
    /// Go on with an unfinished match in the database (whatever its game): the only
    /// one, or match ID (`--resume 3`); with several, and no ID, they are listed.
    #[arg(
        long,
        value_name = "ID",
        num_args = 0..=1,
        conflicts_with_all = ["pool", "pattern", "generate", "set", "seed", "duel"]
    )]
    pub resume: Option<Option<mondo_store::MatchId>>,
    /// One JSON object per line, for programs.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub games: GameArgs,
}

pub fn run(args: PlayArgs) -> ExitCode {
    super::kit::block_on(play(args))
}

async fn play(mut args: PlayArgs) -> Result<ExitCode, String> {
    // The terminal keeps its screen for the game: the umpire's own log (the store's
    // troubles, leases) goes to standard error only when RUST_LOG asks for it.
    if let Ok(filter) = std::env::var("RUST_LOG") {
        let filter = tracing_subscriber::EnvFilter::try_new(&filter).map_err(|e| {
            format!(
                "RUST_LOG is `{filter}` ({e}); give a tracing filter such as info or \
                 \"info,mondo=debug\", or unset it"
            )
        })?;
        let _ = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .try_init();
    }
    let game = games::chosen(&args.game, &args.games)?;
    // A solo game is credited to `--player`, else to the login name: read here, so
    // the game's code reads no environment.
    if args.table.player.is_none() && args.table.players.is_empty() {
        args.table.player = ["USER", "LOGNAME"]
            .iter()
            .find_map(|v| std::env::var(v).ok().filter(|n| !n.trim().is_empty()));
    }
    // The AI's seats take their reserved names before anyone is seated.
    let ai_named = if args.resume.is_some() {
        Vec::new()
    } else {
        super::play_zendo_ai::name_seats(game, &mut args.table.players, &args.games)?
    };
    games::check(game, &args.table, &args.games)?;
    if let Some(dir) = &args.png {
        mondo_play::pictures_folder(dir)?;
    }
    // A folder, or a file this process may not write, is said before anything runs.
    args.db.check_writable().map_err(|e| e.to_string())?;
    // This process runs the database's live matches: no other may at the same time
    // (on SQLite; on PostgreSQL the matches' leases say who runs each).
    let _lock = args.db.lock_for_running().map_err(|e| e.to_string())?;
    // Leases and PostgreSQL's per-connection limits as `mondo serve` has them (the
    // defaults and MONDO_DATABASE_* variables).
    let settings = DatabaseConfig::from_environment().map_err(|e| e.to_string())?;
    let store = Store::connect_tuned(&args.db, Durability::default(), settings.timeouts())
        .await
        .map_err(|e| format!("{} ({})", e, args.db))?;
    super::ratings::rating_period(&store)?;
    let setup = if args.resume.is_some() {
        None
    } else {
        let seed = args.table.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(0)
        });
        Some(games::setup(game, &args.table, &args.games, &store, seed).await?)
    };
    // On a shared database the terminal runs only the match it starts or is asked for,
    // never another process's.
    let config = settings.runtime(Config {
        adopt: false,
        ..Config::default()
    });
    let (runtime, recovery) = Runtime::<AnyMatch>::start_rated(store, SystemTime::new(), config)
        .await
        .map_err(|e| e.to_string())?;
    let mut lost = runtime.lost();
    // A match that cannot be rebuilt stays as it is and blocks no other: named, once.
    for (id, e) in &recovery.failed {
        eprintln!(
            "warning: match {id} could not be rebuilt and is left as it is ({e}); `mondo \
             replay {id} --db {}` shows its log",
            args.db
        );
    }
    let new = setup.is_some();
    let mut ai = match &setup {
        Some((setup, cast)) => super::play_zendo_ai::seats(&ai_named, setup, cast)?,
        None => Vec::new(),
    };
    let opened = match setup {
        Some((setup, cast)) => Some(
            Session::start(
                runtime.clone(),
                setup,
                cast.clone(),
                cast.chooser(args.table.setup_chosen()),
                args.json,
            )
            .await
            .map_err(|e| e.to_string()),
        ),
        None => Session::resume(
            runtime.clone(),
            args.resume.flatten(),
            args.table.host(),
            args.json,
        )
        .await
        .transpose(),
    };
    let Some(opened) = opened else {
        return Err(format!(
            "there is no unfinished game in {} to resume; start one with `mondo play`",
            args.db
        ));
    };
    let (mut session, lines) = opened?;
    if !new {
        ai = super::play_zendo_ai::seats_again(&session).await;
    }
    // The other games' AI seats play on tasks of their own, on the game clock.
    let tasks = mondo_play::ai::seat_at_terminal(&session).await;
    session.seat_machines(ai.iter().map(|s| s.player).chain(tasks));
    // Ctrl-C or SIGTERM leave the game as `quit` does, and the store is closed: caught
    // from before the game is shown, so a Ctrl-C once it is (while the AI gets ready,
    // say) is never lost.
    let stop = mondo_runtime::stop_requested();
    tokio::pin!(stop);
    print_lines(&lines, Vec::new(), None);
    if new {
        // Their clocks run on in the store: say how to go back to each.
        print_lines(&session.others_unfinished().await, Vec::new(), None);
    }
    // Decided from the environment and the options: the terminal is never asked.
    let facts = pictures::TerminalFacts::here(args.json);
    let inline = pictures::inline_protocol(facts, args.pictures);
    if args.png.is_some() || inline.is_some() {
        let lines = session.draw_pictures(args.png.clone(), inline.is_some())?;
        print_lines(&lines, session.take_inline(), inline);
    }
    print_lines(
        &session.pictures_hint().into_iter().collect::<Vec<_>>(),
        Vec::new(),
        inline,
    );

    // Standard input is read on its own thread: lines arrive as they are typed. At a
    // terminal, with line editing and history; piped, line by line, where a line that is
    // not text, or too long, is refused and the game goes on; a read error ends the
    // input like its end does.
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Input>(16);
    let interactive = std::io::stdin().is_terminal() && !args.json;
    std::thread::spawn(move || {
        if interactive && read_edited(&tx).is_ok() {
            return;
        }
        let mut stdin = std::io::stdin().lock();
        let mut count = 0;
        while let Ok(Some(input)) = read_input(&mut stdin, &mut count) {
            if tx.blocking_send(input).is_err() {
                break;
            }
        }
    });
    let mut flow = Flow::Continue;
    let mut lost_why = None;
    let mut typed: std::collections::VecDeque<Input> = Default::default();
    if !ai.is_empty() {
        // The AI students' rules are built first (seconds, once per process) on a
        // thread of their own, not holding the game up: Ctrl-C meanwhile leaves at once
        // as `quit` does (the thread ends with the process).
        let builds: Vec<_> = ai.iter().map(|seat| seat.preparer()).collect();
        let (built, ready) = tokio::sync::oneshot::channel();
        std::thread::spawn(move || {
            builds.into_iter().for_each(|build| build());
            let _ = built.send(());
        });
        // Lines typed meanwhile wait their turn. At the line editor, Ctrl-C or Ctrl-D
        // with nothing typed leaves at once (the end of input); piped input is played
        // to its end as always.
        tokio::pin!(ready);
        let mut reading = true;
        loop {
            tokio::select! {
                _ = &mut ready => break,
                () = &mut stop => {
                    let (lines, _) = session.line("quit").await;
                    print_lines(&lines, session.take_inline(), inline);
                    flow = Flow::Quit;
                    break;
                }
                line = rx.recv(), if reading => match line {
                    Some(input) => typed.push_back(input),
                    None if interactive && typed.is_empty() => {
                        flow = Flow::Quit;
                        break;
                    }
                    None => reading = false,
                },
            }
        }
    }
    if !ai.is_empty() && flow == Flow::Continue {
        flow = super::play_zendo_ai::moves(&mut session, &mut ai, args.json, inline).await;
    }
    while flow == Flow::Continue {
        // Whatever comes first: a line, or something the clock made happen.
        // Lines typed while the AI prepared come first, in order.
        let (lines, next) = if let Some(input) = typed.pop_front() {
            session.input(input).await
        } else {
            tokio::select! {
                line = rx.recv() => match line {
                    Some(input) => session.input(input).await,
                    // End of input: leave the game as it is, to resume.
                    None => break,
                },
                news = session.news() => news,
                () = &mut stop => {
                    let (lines, _) = session.line("quit").await;
                    print_lines(&lines, session.take_inline(), inline);
                    break;
                }
                gone = lost.recv() => match gone {
                    Ok((id, why)) if id == session.id() => {
                        lost_why = Some(why);
                        break;
                    }
                    _ => (Vec::new(), Flow::Continue),
                },
            }
        };
        print_lines(&lines, session.take_inline(), inline);
        flow = next;
        if !ai.is_empty() && flow == Flow::Continue {
            flow = super::play_zendo_ai::moves(&mut session, &mut ai, args.json, inline).await;
        }
    }
    if flow == Flow::Over && !ai.is_empty() {
        after_the_end(&mut session, typed, &mut rx, &mut stop, inline).await;
    }
    // Its feed may have closed first (the match stopped here as it was lost).
    while let Ok((id, why)) = lost.try_recv() {
        if id == session.id() {
            lost_why = Some(why);
        }
    }
    let id = session.id();
    drop(session);
    runtime.shutdown().await.map_err(|e| e.to_string())?;
    match lost_why {
        Some(why) => {
            lost_lease(id, &why, &args.db, args.json);
            Ok(ExitCode::FAILURE)
        }
        None => Ok(ExitCode::SUCCESS),
    }
}

/// Once a match an AI student played is over, the table stays for what is worth
/// asking then: `why` (what the AI believed after each structure), `board`, `status`,
/// `help`; `quit`, the end of input or Ctrl-C leave (docs/ai.md, "Why").
async fn after_the_end(
    session: &mut Session,
    mut typed: std::collections::VecDeque<Input>,
    rx: &mut tokio::sync::mpsc::Receiver<Input>,
    stop: &mut std::pin::Pin<&mut impl std::future::Future<Output = ()>>,
    inline: Option<pictures::Protocol>,
) {
    print_lines(&[session.after_the_end()], Vec::new(), inline);
    loop {
        let input = if let Some(input) = typed.pop_front() {
            input
        } else {
            tokio::select! {
                line = rx.recv() => match line {
                    Some(input) => input,
                    None => return,
                },
                () = stop.as_mut() => return,
            }
        };
        if let Input::Line(line) = &input
            && matches!(line.trim().to_ascii_lowercase().as_str(), "quit" | "exit")
        {
            return;
        }
        let (lines, _) = session.input(input).await;
        print_lines(&lines, session.take_inline(), inline);
    }
}

/// Another process took the match's lease over (this one stalled past it, say): the
/// game goes on there, and this terminal ends saying so (status 1).
fn lost_lease(id: mondo_store::MatchId, why: &str, db: &Location, json: bool) {
    if json {
        println!(
            "{}",
            serde_json::json!({"event": "lost", "match": id.0, "why": why})
        );
    }
    eprintln!(
        "error: match {id} is run by another process now ({why}); this terminal no longer \
         runs it (every move answered here was recorded). It goes on there; `{}` goes \
         on with it here once that process lets it go",
        mondo_play::resume_command(db, Some(id))
    );
}

/// Lines typed at a terminal, with line editing and the session's history (up and
/// down arrows, Ctrl-R). `Err` when the terminal cannot be edited (the caller reads
/// plain lines instead); Ctrl-D or Ctrl-C end the input (the match stays, to resume).
fn read_edited(
    tx: &tokio::sync::mpsc::Sender<Input>,
) -> Result<(), rustyline::error::ReadlineError> {
    let mut editor = rustyline::DefaultEditor::new()?;
    loop {
        match editor.readline("> ") {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                if tx.blocking_send(Input::Line(line)).is_err() {
                    return Ok(());
                }
            }
            Err(
                rustyline::error::ReadlineError::Eof | rustyline::error::ReadlineError::Interrupted,
            ) => return Ok(()),
            Err(e) => return Err(e),
        }
    }
}
