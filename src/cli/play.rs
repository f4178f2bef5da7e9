//! `mondo play [GAME]`: a game at the terminal, one command per line on standard input
//! (typed or piped alike), over the same runtime and store as the bot. `zendo` (the
//! default) is solo practice, or with `--duel` (or `duel`) two players at one
//! terminal.

use clap::Args;
use mondo::PieceSet;
use mondo::finder::Style;
use mondo::play::{
    CLEAR_SCREEN, Cast, DEFAULT_DB, Flow, HOST, Input, Session, Source, classic_setup, duel_setup,
    practice_setup, read_input, triple_setup,
};
use mondo::pool::Pool;
use mondo::rules::zendo::classic::ClassicTiming;
use mondo::rules::zendo::triple::TripleTiming;
use mondo::rules::zendo::{Settings, Timing};
use mondo::runtime::{AnyMatch, AnySetup, Config, Runtime, SystemTime};
use mondo::store::{Store, check_writable, lock_for_running};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// The games `mondo play` starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameArg {
    /// Zendo: solo practice, or a duel with --duel.
    Zendo,
    /// Zendo solo practice.
    Practice,
    /// The Zendo Duel (needs --players A,B).
    Duel,
    /// Zendo Triple: three hidden arrows patterns, first to solve two (needs
    /// --players A,B; --pattern three times fixes A, B and C).
    Triple,
    /// Pattern Assembly: a duel with --players A,B, else solo practice; --plus for Plus.
    Assembly,
    /// Zendo Classic: the umpire as the Master and 2 to 8 students in turn order
    /// (--players A,B,C); --pattern fixes the rule (the host's, checked reasonable).
    Classic,
    /// Logical Bluffs: statements about a hidden 4 x 4 layout (needs --players A,B).
    Bluffs,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game to start.
    #[arg(value_enum, default_value = "zendo")]
    pub game: GameArg,
    /// The database file (created if missing).
    #[arg(long, default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// A pool file to draw the hidden pattern from (default: the shipped pool).
    #[arg(long, conflicts_with = "pattern")]
    pub pool: Option<PathBuf>,
    /// Play against this hidden pattern instead of a pool's; the umpire finds its
    /// initial structures. A Triple takes it three times, in order A, B, C.
    #[arg(long, conflicts_with = "generate")]
    pub pattern: Vec<String>,
    /// Play against a generated pattern (reasonable, none needlessly long).
    #[arg(long, conflicts_with = "pool")]
    pub generate: bool,
    /// The piece set: pyramids (default) or arrows (practice only: the Duel plays
    /// with the 12 pyramids).
    #[arg(long)]
    pub set: Option<PieceSet>,
    /// Also draw every structure as a PNG in this folder as it joins the table (and
    /// the whole table on `board`).
    #[arg(long, value_name = "DIR")]
    pub png: Option<PathBuf>,
    /// Fixes the choice of pattern and of counterexamples (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Go on with an unfinished match in the database (whatever its game): the only
    /// one, or match ID (`--resume 3`); with several, and no ID, they are listed.
    #[arg(
        long,
        value_name = "ID",
        num_args = 0..=1,
        conflicts_with_all = ["pool", "pattern", "generate", "set", "seed", "duel"]
    )]
    pub resume: Option<Option<mondo::store::MatchId>>,
    /// One JSON object per line, for programs.
    #[arg(long)]
    pub json: bool,
    /// A Zendo Duel between two players at this terminal (see `help` once playing);
    /// the same as `mondo play duel`.
    #[arg(long, requires = "players")]
    pub duel: bool,
    /// The duel's players, in seat order: NAME,NAME.
    #[arg(long, value_delimiter = ',', num_args = 1)]
    pub players: Vec<String>,
    /// Which player of a duel is the AI student (`--players me,ai` seats it by the
    /// default name); it types its own commands, seeing only what its player sees.
    #[arg(long, value_name = "NAME")]
    pub ai: Option<String>,
    /// How strong the AI plays: beginner, player or expert.
    #[arg(long = "ai-level", default_value = "player", value_parser = ai_level)]
    pub ai_level: mondo::student::Level,
    /// Who hosts the duel (pause, resume, disallow, end); lines start `NAME:`.
    #[arg(long, default_value = HOST)]
    pub host: String,
    /// The player who chooses who starts, in a duel or a Triple (default: the second,
    /// the one challenged).
    #[arg(long, requires = "players")]
    pub advantage: Option<String>,
    /// Seconds per turn (default 180).
    #[arg(long = "turn-secs", requires = "players", value_parser = seconds)]
    pub turn_ms: Option<u64>,
    /// Seconds to answer a challenge (default 30).
    #[arg(long = "challenge-secs", requires = "players", value_parser = seconds)]
    pub challenge_ms: Option<u64>,
    /// Classic: seconds to answer a mondo (default 30; --challenge-secs too).
    #[arg(long = "answer-secs", requires = "players", value_parser = seconds)]
    pub answer_ms: Option<u64>,
    /// Seconds added to the turn per official guess (default 30).
    #[arg(long = "guess-bonus-secs", requires = "players", value_parser = seconds_or_zero)]
    pub guess_bonus_ms: Option<u64>,
    /// Triple: seconds of play before the quiz decides the patterns left (default 7200).
    #[arg(long = "play-secs", requires = "players", value_parser = seconds)]
    pub play_ms: Option<u64>,
    /// Triple: seconds to answer one round of the quiz (default 300).
    #[arg(long = "quiz-secs", requires = "players", value_parser = seconds)]
    pub quiz_ms: Option<u64>,
    /// How the umpire picks counterexamples: simple (default) or varied.
    #[arg(long, value_parser = style)]
    pub style: Option<Style>,
    /// Assembly: Pattern Assembly Plus (several targets a round, region showdown).
    #[arg(long)]
    pub plus: bool,
    /// Assembly: the grid's size, ROWSxCOLS (default 6x6; Plus 10x10; at most 26x20).
    #[arg(long, value_name = "ROWSxCOLS", value_parser = grid_size)]
    pub grid: Option<mondo::grid::Dims>,
    /// Assembly: the number of rounds (default 20).
    #[arg(long)]
    pub rounds: Option<u8>,
    /// Assembly: targets per round (Plus only; default 3).
    #[arg(long)]
    pub targets: Option<u8>,
    /// Assembly: seconds the grid is shown (default 30). Bluffs: seconds of the Reveal
    /// phase (default 30).
    #[arg(long = "reveal-secs", value_parser = seconds)]
    pub reveal_ms: Option<u64>,
    /// Assembly: seconds an answer waits for its result (default 30).
    #[arg(long = "wait-secs", value_parser = seconds_or_zero)]
    pub wait_ms: Option<u64>,
    /// Assembly: what a wrong shape does in the original game: `waits` (the default:
    /// every answer waits, a wrong shape too) or `at-once` (the first rule). Plus always
    /// waits.
    #[arg(long = "wrong-shape", value_name = "waits|at-once")]
    pub wrong_shape: Option<mondo::rules::assembly::WrongShape>,
    /// Assembly: seconds per round (default 180; Plus 300).
    #[arg(long = "round-secs", value_parser = seconds)]
    pub round_ms: Option<u64>,
    /// Assembly: seconds for the showdown (default 300; Plus 120).
    #[arg(long = "showdown-secs", value_parser = seconds)]
    pub showdown_ms: Option<u64>,
    #[command(flatten)]
    pub bluffs: BluffsArgs,
}

/// Logical Bluffs' settings (`--reveal-secs` sets its Reveal phase).
#[derive(Debug, Args)]
pub struct BluffsArgs {
    /// Bluffs: seconds of the Bluffing phase (default 180).
    #[arg(long = "bluff-secs", value_parser = seconds)]
    pub bluff_ms: Option<u64>,
    /// Bluffs: seconds of the Claiming phase (default 90).
    #[arg(long = "claim-secs", value_parser = seconds)]
    pub claim_ms: Option<u64>,
    /// Bluffs: seconds added to Reveal for a player who declares a layout guess
    /// (default 150).
    #[arg(long = "guess-secs", value_parser = seconds_or_zero)]
    pub guess_ms: Option<u64>,
    /// Bluffs: seconds of reserve time each, for overruns in Bluffing and Claiming
    /// (default 300).
    #[arg(long = "reserve-secs", value_parser = seconds_or_zero)]
    pub reserve_ms: Option<u64>,
    /// Bluffs: tiles each player knows at the start (default 4; at most 8).
    #[arg(long = "known-tiles")]
    pub known_tiles: Option<usize>,
    /// Bluffs: RP a tile reveal costs (default 8).
    #[arg(long = "reveal-cost")]
    pub reveal_cost: Option<u32>,
}

/// `ROWSxCOLS`, e.g. `10x12`.
fn ai_level(text: &str) -> Result<mondo::student::Level, String> {
    mondo::student::Level::parse(text).ok_or_else(|| {
        format!("unknown level `{text}`: the levels are beginner, player and expert")
    })
}

fn grid_size(text: &str) -> Result<mondo::grid::Dims, String> {
    let (r, c) = text
        .trim()
        .to_ascii_lowercase()
        .split_once('x')
        .map(|(r, c)| (r.trim().parse::<usize>(), c.trim().parse::<usize>()))
        .ok_or_else(|| format!("`{text}` is not a grid size: write ROWSxCOLS, e.g. 10x12"))?;
    match (r, c) {
        (Ok(r), Ok(c)) => mondo::grid::Dims::new(r, c).map_err(|e| e.to_string()),
        _ => Err(format!(
            "`{text}` is not a grid size: write ROWSxCOLS, e.g. 10x12"
        )),
    }
}

/// Seconds (fractions allowed) as milliseconds, more than zero.
fn seconds(text: &str) -> Result<u64, String> {
    match seconds_or_zero(text)? {
        0 => Err("a clock needs some time: give more than 0 seconds".into()),
        ms => Ok(ms),
    }
}

fn seconds_or_zero(text: &str) -> Result<u64, String> {
    let s: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds (e.g. 30 or 0.5)"))?;
    if !(0.0..=86_400.0 * 365.0).contains(&s) {
        return Err(format!("{text} seconds is out of range (0 to a year)"));
    }
    Ok((s * 1000.0).round() as u64)
}

fn style(text: &str) -> Result<Style, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "simple" => Ok(Style::Simple),
        "varied" => Ok(Style::Varied),
        _ => Err(format!("`{text}` is not a style: simple or varied")),
    }
}

pub fn run(args: PlayArgs) -> ExitCode {
    super::replay::block_on(play(args))
}

impl PlayArgs {
    /// A duel, by `--duel` or by name.
    fn is_duel(&self) -> bool {
        self.duel || self.game == GameArg::Duel
    }

    /// Two players at one terminal.
    fn is_table(&self) -> bool {
        self.is_duel()
            || matches!(
                self.game,
                GameArg::Triple | GameArg::Classic | GameArg::Bluffs
            )
    }
}

/// The numbers given on the command line, checked against the limits of the settings
/// they set for this game: one table for the bot's configuration and the terminal
/// (`config::LIMITS`), durations as [`mondo::config::Limit::check_terminal_ms`] says.
fn check_limits(args: &PlayArgs) -> Result<(), String> {
    let section = match args.game {
        GameArg::Triple => "triple",
        GameArg::Classic => "classic",
        GameArg::Assembly => "assembly",
        GameArg::Bluffs => "bluffs",
        _ => "zendo",
    };
    // Each option, what it was given (ms), and the keys it sets in some game.
    let durations: [(&str, Option<u64>, &[&str]); 14] = [
        ("--turn-secs", args.turn_ms, &["turn_secs"]),
        ("--play-secs", args.play_ms, &["play_secs"]),
        ("--quiz-secs", args.quiz_ms, &["quiz_secs"]),
        (
            "--challenge-secs",
            args.challenge_ms,
            &["challenge_secs", "answer_secs"],
        ),
        ("--answer-secs", args.answer_ms, &["answer_secs"]),
        (
            "--guess-bonus-secs",
            args.guess_bonus_ms,
            &["guess_bonus_secs", "counterexample_bonus_secs"],
        ),
        ("--reveal-secs", args.reveal_ms, &["reveal_secs"]),
        ("--wait-secs", args.wait_ms, &["wait_secs"]),
        ("--round-secs", args.round_ms, &["round_secs"]),
        ("--showdown-secs", args.showdown_ms, &["showdown_secs"]),
        ("--bluff-secs", args.bluffs.bluff_ms, &["bluff_secs"]),
        ("--claim-secs", args.bluffs.claim_ms, &["claim_secs"]),
        ("--guess-secs", args.bluffs.guess_ms, &["guess_secs"]),
        ("--reserve-secs", args.bluffs.reserve_ms, &["reserve_secs"]),
    ];
    let limit = |keys: &[&str]| {
        keys.iter()
            .find_map(|k| mondo::config::limit(&format!("{section}.{k}")))
    };
    for (option, ms, keys) in durations {
        if let (Some(ms), Some(limit)) = (ms, limit(keys)) {
            limit.check_terminal_ms(option, ms)?;
        }
    }
    let counts = [
        ("--rounds", args.rounds.map(u64::from), "rounds"),
        (
            "--known-tiles",
            args.bluffs.known_tiles.map(|n| n as u64),
            "known_tiles",
        ),
        (
            "--reveal-cost",
            args.bluffs.reveal_cost.map(u64::from),
            "reveal_cost",
        ),
    ];
    for (option, value, key) in counts {
        if let (Some(value), Some(limit)) = (value, limit(&[key])) {
            limit.check(value).map_err(|_| {
                format!(
                    "{option} {value} is out of range: allowed {} to {} {}",
                    limit.min, limit.max, limit.unit
                )
            })?;
        }
    }
    Ok(())
}

async fn play(args: PlayArgs) -> Result<ExitCode, String> {
    check_limits(&args)?;
    if !args.players.is_empty() && !args.is_table() && args.game != GameArg::Assembly {
        return Err("--players is for a duel: `mondo play duel --players alice,bob`".into());
    }
    if args.duel && args.game == GameArg::Practice {
        return Err("practice is played alone: leave out --duel, or `mondo play duel`".into());
    }
    if let Some(dir) = args.png.as_ref().filter(|d| !d.is_dir()) {
        return Err(format!(
            "--png {}: not a folder; create it first (mkdir -p {})",
            dir.display(),
            dir.display()
        ));
    }
    // A folder, or a file this process may not write, is said before anything runs.
    check_writable(&args.db).map_err(|e| e.to_string())?;
    // This process runs the database's live matches: no other may at the same time.
    let _lock = lock_for_running(&args.db).map_err(|e| e.to_string())?;
    let store = Store::open(&args.db)
        .await
        .map_err(|e| format!("{} ({})", e, args.db.display()))?;
    let setup = if args.resume.is_some() {
        None
    } else {
        Some(setup(&args, &store).await?)
    };
    let (runtime, recovery) =
        Runtime::<AnyMatch>::start(store, SystemTime::new(), Config::default())
            .await
            .map_err(|e| e.to_string())?;
    // A match that cannot be rebuilt stays as it is and blocks no other: named, once.
    for (id, e) in &recovery.failed {
        eprintln!(
            "warning: match {id} could not be rebuilt and is left as it is ({e}); `mondo \
             replay {id} --db {}` shows its log",
            args.db.display()
        );
    }
    let new = setup.is_some();
    let mut ai = match &setup {
        Some((setup, cast)) => super::play_ai::seat(&args, setup, cast)?,
        None => None,
    };
    let opened = match setup {
        Some((setup, cast)) => Some(
            Session::start(runtime.clone(), setup, cast, args.json)
                .await
                .map_err(|e| e.to_string()),
        ),
        None => Session::resume(
            runtime.clone(),
            args.resume.flatten(),
            &args.host,
            args.json,
        )
        .await
        .transpose(),
    };
    let Some(opened) = opened else {
        return Err(format!(
            "there is no unfinished game in {} to resume; start one with `mondo play`",
            args.db.display()
        ));
    };
    let (mut session, lines) = opened?;
    print_lines(&lines);
    if new {
        // Their clocks run on in the store: say how to go back to each.
        print_lines(&session.others_unfinished().await);
    }
    if let Some(dir) = args.png.clone() {
        print_lines(&session.draw_pictures(dir)?);
    }

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
    // Ctrl-C or SIGTERM leave the game as `quit` does, and the store is closed.
    let stop = mondo::runtime::stop_requested();
    tokio::pin!(stop);
    let mut flow = Flow::Continue;
    if let Some(seat) = ai.as_mut() {
        flow = super::play_ai::moves(&mut session, seat, args.json).await;
    }
    while flow == Flow::Continue {
        // Whatever comes first: a line, or something the clock made happen.
        let (lines, next) = tokio::select! {
            line = rx.recv() => match line {
                Some(input) => session.input(input).await,
                // End of input: leave the game as it is, to resume.
                None => break,
            },
            news = session.news() => news,
            () = &mut stop => {
                let (lines, _) = session.line("quit").await;
                print_lines(&lines);
                break;
            }
        };
        print_lines(&lines);
        flow = next;
        if let (Some(seat), Flow::Continue) = (ai.as_mut(), flow) {
            flow = super::play_ai::moves(&mut session, seat, args.json).await;
        }
    }
    drop(session);
    runtime.shutdown().await.map_err(|e| e.to_string())?;
    Ok(ExitCode::SUCCESS)
}

/// A new match's setup and who plays it.
async fn setup(args: &PlayArgs, store: &Store) -> Result<(AnySetup, Cast), String> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    if args.game == GameArg::Assembly {
        return assembly(args, store, seed).await;
    }
    if args.game == GameArg::Bluffs {
        return bluffs(args, store, seed).await;
    }
    let set = args.set.unwrap_or_default();
    let pool;
    if args.game == GameArg::Triple {
        return triple(args, store, seed).await;
    }
    let classic = args.game == GameArg::Classic;
    if args.pattern.len() > 1 {
        return Err("--pattern is given once (three times only for `mondo play triple`)".into());
    }
    let source = match (args.pattern.first(), &args.pool) {
        (Some(p), _) => Source::Pattern(p),
        (None, _) if args.generate => Source::Generated,
        (None, Some(path)) => {
            let text = mondo::files::read_text(path, mondo::files::MAX_POOL_BYTES, "pool")?;
            pool = Pool::from_toml(&text)
                .map_err(|e| format!("the pool {} is not valid:\n{e}", path.display()))?;
            Source::Pool(&pool)
        }
        (None, None) => {
            pool = Pool::shipped(set);
            Source::Pool(&pool)
        }
    };
    let settings = Settings {
        set,
        style: args.style.unwrap_or_default(),
    };
    if classic {
        return classic_game(args, store, source, seed, settings).await;
    }
    if !args.is_duel() {
        let setup = practice_setup(source, seed, settings)?;
        return Ok((setup.into(), Cast::solo()));
    }
    let [a, b] = args.players.as_slice() else {
        return Err(format!(
            "a duel needs exactly two players, e.g. --players alice,bob (got {})",
            args.players.len()
        ));
    };
    let cast = Cast::table(store, &[a, b], &args.host).await?;
    let default = Timing::default();
    let timing = Timing {
        turn_ms: args.turn_ms.unwrap_or(default.turn_ms),
        challenge_ms: args.challenge_ms.unwrap_or(default.challenge_ms),
        guess_bonus_ms: args.guess_bonus_ms.unwrap_or(default.guess_bonus_ms),
    };
    let setup = duel_setup(
        &cast,
        source,
        seed,
        args.advantage.as_deref(),
        settings,
        timing,
    )?;
    Ok((setup.into(), cast))
}

/// A Triple's setup: two players, three patterns (given, or drawn from the arrows
/// pool), its clocks.
async fn triple(args: &PlayArgs, store: &Store, seed: u64) -> Result<(AnySetup, Cast), String> {
    let [a, b] = args.players.as_slice() else {
        return Err(format!(
            "a Triple needs exactly two players, e.g. --players alice,bob (got {})",
            args.players.len()
        ));
    };
    let pool = match &args.pool {
        Some(path) => {
            let text = mondo::files::read_text(path, mondo::files::MAX_POOL_BYTES, "pool")?;
            Pool::from_toml(&text)
                .map_err(|e| format!("the pool {} is not valid:\n{e}", path.display()))?
        }
        None => Pool::shipped(PieceSet::Arrows),
    };
    let cast = Cast::table(store, &[a, b], &args.host).await?;
    let default = TripleTiming::default();
    let timing = TripleTiming {
        turn_ms: args.turn_ms.unwrap_or(default.turn_ms),
        challenge_ms: args.challenge_ms.unwrap_or(default.challenge_ms),
        counterexample_bonus_ms: args
            .guess_bonus_ms
            .unwrap_or(default.counterexample_bonus_ms),
        game_ms: args.play_ms.unwrap_or(default.game_ms),
        quiz_ms: args.quiz_ms.unwrap_or(default.quiz_ms),
    };
    let setup = triple_setup(
        &cast,
        &args.pattern,
        &pool,
        seed,
        args.advantage.as_deref(),
        timing,
    )?;
    Ok((setup.into(), cast))
}

/// A Classic game: 2 to 8 students in the order given, the rule from the pool (or
/// `--pattern`: the host's, who is then the Master), its clocks.
async fn classic_game(
    args: &PlayArgs,
    store: &Store,
    source: Source<'_>,
    seed: u64,
    settings: Settings,
) -> Result<(AnySetup, Cast), String> {
    let names: Vec<&str> = args.players.iter().map(String::as_str).collect();
    let cast = Cast::table(store, &names, &args.host).await?;
    let default = ClassicTiming::default();
    let timing = ClassicTiming {
        turn_ms: args.turn_ms.unwrap_or(default.turn_ms),
        answer_ms: args
            .answer_ms
            .or(args.challenge_ms)
            .unwrap_or(default.answer_ms),
        guess_bonus_ms: args.guess_bonus_ms.unwrap_or(default.guess_bonus_ms),
    };
    let master = match source {
        Source::Pattern(_) => cast.host().map(|(id, _)| *id),
        _ => None,
    };
    let setup = classic_setup(&cast, source, seed, settings, timing, master)?;
    Ok((setup.into(), cast))
}

/// A Pattern Assembly match: a duel with `--players`, else solo practice.
async fn assembly(args: &PlayArgs, store: &Store, seed: u64) -> Result<(AnySetup, Cast), String> {
    use mondo::rules::assembly::Settings as AssemblySettings;
    let mut settings = if args.plus {
        if args.wrong_shape == Some(mondo::rules::assembly::WrongShape::AtOnce) {
            return Err(
                "--wrong-shape at-once is the original game's first rule: in Pattern \
                 Assembly Plus every answer waits"
                    .into(),
            );
        }
        AssemblySettings::plus(
            args.grid
                .unwrap_or(mondo::grid::Dims { rows: 10, cols: 10 }),
        )
    } else {
        if args.targets.is_some() {
            return Err("--targets is for Pattern Assembly Plus: add --plus".into());
        }
        AssemblySettings {
            dims: args.grid.unwrap_or(mondo::grid::Dims::CLASSIC),
            wrong_shape_waits: args.wrong_shape.unwrap_or_default().waits(),
            ..AssemblySettings::original()
        }
    };
    if let Some(n) = args.rounds {
        settings.rounds = n;
        settings.reveal_after.retain(|&r| r < n);
    }
    if let Some(n) = args.targets {
        settings.targets = n;
    }
    let t = &mut settings.timing;
    t.reveal = args.reveal_ms.unwrap_or(t.reveal);
    t.wait = args.wait_ms.unwrap_or(t.wait);
    t.round = args.round_ms.unwrap_or(t.round);
    t.showdown = args.showdown_ms.unwrap_or(t.showdown);
    let cast = match args.players.as_slice() {
        [] => Cast::solo(),
        [a, b] => Cast::table(store, &[a, b], &args.host).await?,
        other => {
            return Err(format!(
                "Pattern Assembly is for two players (--players alice,bob) or one alone \
                 (no --players); got {}",
                other.len()
            ));
        }
    };
    let setup = mondo::play::assembly::assembly_setup(&cast, seed, settings);
    Ok((AnySetup::Assembly(setup), cast))
}

/// A Logical Bluffs match between `--players A,B`, with its durations and costs.
async fn bluffs(args: &PlayArgs, store: &Store, seed: u64) -> Result<(AnySetup, Cast), String> {
    use mondo::rules::bluffs::Settings as BluffsSettings;
    let [a, b] = args.players.as_slice() else {
        return Err(format!(
            "Logical Bluffs needs exactly two players, e.g. --players alice,bob (got {})",
            args.players.len()
        ));
    };
    let d = BluffsSettings::default();
    let o = &args.bluffs;
    let settings = BluffsSettings {
        bluffing_ms: o.bluff_ms.unwrap_or(d.bluffing_ms),
        claiming_ms: o.claim_ms.unwrap_or(d.claiming_ms),
        reveal_ms: args.reveal_ms.unwrap_or(d.reveal_ms),
        guess_extra_ms: o.guess_ms.unwrap_or(d.guess_extra_ms),
        reserve_ms: o.reserve_ms.unwrap_or(d.reserve_ms),
        known_tiles: o.known_tiles.unwrap_or(d.known_tiles),
        reveal_cost: o.reveal_cost.unwrap_or(d.reveal_cost),
        ..d
    };
    let cast = Cast::table(store, &[a, b], &args.host).await?;
    let setup = mondo::play::bluffs::bluffs_setup(&cast, seed, settings)?;
    Ok((AnySetup::Bluffs(setup), cast))
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

pub(super) fn print_lines(lines: &[String]) {
    let stdout = std::io::stdout();
    let terminal = stdout.is_terminal();
    let mut out = stdout.lock();
    let _ = write_lines(&mut out, lines, terminal);
    let _ = out.flush();
}

/// Writes a session's output: each line made printable (a control character a player
/// typed is shown, not obeyed), except Mondo's own [`CLEAR_SCREEN`], which a terminal
/// obeys (the screen and its scrollback are cleared) and anything else never sees.
fn write_lines(out: &mut impl Write, lines: &[String], terminal: bool) -> std::io::Result<()> {
    for l in lines {
        if l == CLEAR_SCREEN {
            if terminal {
                out.write_all(CLEAR_SCREEN.as_bytes())?;
            }
        } else {
            writeln!(out, "{}", super::printable(l))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A terminal gets the real clear (display, scrollback, cursor home) before the
    /// line after it; a pipe gets neither the clear nor any escape as text; a player's
    /// own escape is shown, never obeyed, either way.
    #[test]
    fn a_terminal_is_cleared_and_a_pipe_is_not() {
        let lines = [
            "  A O X + + X O".to_string(),
            CLEAR_SCREEN.to_string(),
            "The grid is hidden.".to_string(),
            "error: `\x1b[2J` is not a command".to_string(),
        ];
        let mut tty = Vec::new();
        write_lines(&mut tty, &lines, true).unwrap();
        let tty = String::from_utf8(tty).unwrap();
        assert_eq!(
            tty,
            "  A O X + + X O\n\x1b[2J\x1b[3J\x1b[HThe grid is hidden.\n\
             error: `\\u001b[2J` is not a command\n"
        );
        let mut pipe = Vec::new();
        write_lines(&mut pipe, &lines, false).unwrap();
        let pipe = String::from_utf8(pipe).unwrap();
        assert_eq!(
            pipe,
            "  A O X + + X O\nThe grid is hidden.\nerror: `\\u001b[2J` is not a command\n"
        );
    }
}
