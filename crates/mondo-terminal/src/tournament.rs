//! `mondo tournament ...`: tournaments at the terminal (docs/tournaments.md). A host
//! creates one, players join, the host starts it; `standings`, `matches` (with
//! `--json`, the contracts in docs/tournaments.md) and `page` show it; the host's acts
//! (settle, withdraw, replace, pause, resume) steer it; `run --ai-fill` plays a whole
//! tournament of AI players in virtual time. Every act is an event in the store,
//! appended after the last one read.

use super::kit::{block_on, printable};
use super::ratings::Place;
use super::tournament_kit::{Loaded, act, ai_fill, game_kind, load, ratings, standings_text};
use clap::{Args, Subcommand};
use mondo_rules::rules::PlayerId;
use mondo_rules::tournament::{Act, Decision, Event, Outcome, Tournament, standings};
use mondo_store::Store;
use serde_json::json;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct TournamentArgs {
    #[command(subcommand)]
    pub command: TournamentCommand,
}

#[derive(Debug, Subcommand)]
pub enum TournamentCommand {
    /// Create a tournament (its id is printed); players then join, the host starts it.
    Create(CreateArgs),
    /// Sign a player up (a terminal player's name).
    Join(PlayerArgs),
    /// Take a player off the list before the start; after it, withdraw them.
    Leave(PlayerArgs),
    /// Close sign-up: seed the players by rating and open the first round (the host).
    Start(HostArgs),
    /// The standings: rank, points, tie-breaks, matches played.
    Standings(ShowArgs),
    /// Every match: round, stage, players, result, the match's id.
    Matches(ShowArgs),
    /// Everything that happened, event by event (with --json, the events as stored).
    History(ShowArgs),
    /// The standings and bracket as a self-contained HTML page.
    Page(PageArgs),
    /// The host decides a match of the open round (a disputed one).
    Settle(SettleArgs),
    /// The host withdraws a player: their remaining matches are forfeited.
    Withdraw(HostPlayerArgs),
    /// The host gives a player's seat (and results) to another.
    Replace(ReplaceArgs),
    /// The host pauses: no round opens and no deadline runs.
    Pause(HostArgs),
    /// The host resumes: the open round's deadline moves by the time paused.
    Resume(HostArgs),
    /// Play a whole tournament of AI players (every level) in virtual time.
    Run(super::tournament_run::RunArgs),
}

#[derive(Debug, Args)]
pub struct CreateArgs {
    /// The tournament's name.
    pub name: String,
    /// The host (a terminal player's name).
    #[arg(long, default_value = "host")]
    pub host: String,
    #[command(flatten)]
    pub shape: super::tournament_kit::Shape,
    /// AI players take the seats left empty at the start, up to this many players
    /// (2 to 64; unset: people only).
    #[arg(long, value_name = "N")]
    pub ai_fill: Option<u32>,
    #[command(flatten)]
    pub place: Place,
}

#[derive(Debug, Args)]
pub struct PlayerArgs {
    pub id: i64,
    /// A terminal player's name.
    pub player: String,
    #[command(flatten)]
    pub place: Place,
}

#[derive(Debug, Args)]
pub struct HostArgs {
    pub id: i64,
    /// The host's name (as at `create`).
    #[arg(long, default_value = "host")]
    pub host: String,
    #[command(flatten)]
    pub place: Place,
}

#[derive(Debug, Args)]
pub struct HostPlayerArgs {
    pub id: i64,
    pub player: String,
    #[arg(long, default_value = "host")]
    pub host: String,
    #[command(flatten)]
    pub place: Place,
}

#[derive(Debug, Args)]
pub struct ReplaceArgs {
    pub id: i64,
    /// Who leaves the seat.
    pub old: String,
    /// Who takes it.
    pub new: String,
    #[arg(long, default_value = "host")]
    pub host: String,
    #[command(flatten)]
    pub place: Place,
}

#[derive(Debug, Args)]
pub struct SettleArgs {
    pub id: i64,
    #[arg(long)]
    pub round: u32,
    /// The match's table in its round (from 1, as `matches` lists them).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub table: u32,
    /// The winner's name; or `draw`; or `forfeit:NAME[,NAME]` for who did not show.
    #[arg(long)]
    pub result: String,
    #[arg(long, default_value = "host")]
    pub host: String,
    #[command(flatten)]
    pub place: Place,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    pub id: i64,
    /// JSON rows (the contract in docs/tournaments.md).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub place: Place,
}

#[derive(Debug, Args)]
pub struct PageArgs {
    pub id: i64,
    /// The file to write.
    #[arg(long, value_name = "FILE")]
    pub html: std::path::PathBuf,
    #[command(flatten)]
    pub place: Place,
}

pub fn run(args: TournamentArgs) -> ExitCode {
    match args.command {
        TournamentCommand::Run(args) => run_ai(args),
        command => block_on(async move { command_body(command).await }),
    }
}

/// `run --ai-fill`, with the game's own AI players.
fn run_ai(args: super::tournament_run::RunArgs) -> ExitCode {
    if !args.ai_fill {
        eprintln!(
            "error: `mondo tournament run` plays AI players only: add --ai-fill (people play \
             in a tournament made with `mondo tournament create`)"
        );
        return ExitCode::from(2);
    }
    match game_kind(&args.shape.game).map(|g| g.name()) {
        Ok("pattern-assembly") => block_on(super::tournament_run::play::<
            super::tournament_assembly::Runner,
        >(args)),
        Ok(other) => {
            eprintln!(
                "error: `--game {other}`: a tournament of AI players plays pattern-assembly \
                 (with or without --plus)"
            );
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("error: {}", printable(&e));
            ExitCode::from(2)
        }
    }
}

async fn open_rw(place: &Place) -> Result<Store, String> {
    let store = Store::connect(&place.db).await.map_err(|e| e.to_string())?;
    super::ratings::rating_period(&store)?;
    Ok(store)
}

/// A terminal player's id by name (made on first use, as `mondo play` does).
async fn player(store: &Store, name: &str) -> Result<PlayerId, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("a player's name may not be empty".into());
    }
    let id = match mondo_rules::rules::fair::reserved_ai_name(name) {
        Some(_) => store.local_ai_player(name).await,
        None => store.local_player(name).await,
    };
    id.map(PlayerId).map_err(|e| e.to_string())
}

/// A terminal player already known by `name` (an act on someone never seen is
/// refused without making them).
async fn known(store: &Store, name: &str) -> Result<PlayerId, String> {
    match store
        .find_local_player(name.trim())
        .await
        .map_err(|e| e.to_string())?
    {
        Some(id) => Ok(PlayerId(id)),
        None => Err(format!(
            "nobody called `{}` is known at this terminal",
            name.trim()
        )),
    }
}

async fn command_body(command: TournamentCommand) -> Result<ExitCode, String> {
    match command {
        TournamentCommand::Create(a) => {
            let settings = |now| {
                let mut s = a.shape.settings(now)?;
                s.ai_fill = a.ai_fill;
                Ok::<_, String>(s)
            };
            // Everything checked before the store is opened (or made).
            Tournament::create(&a.name, PlayerId(0), settings(0)?, 0).map_err(|e| e.to_string())?;
            let store = open_rw(&a.place).await?;
            let host = player(&store, &a.host).await?;
            let now = store.game_clock().await.map_err(|e| e.to_string())?;
            let settings = settings(now)?;
            let first =
                Tournament::create(&a.name, host, settings, now).map_err(|e| e.to_string())?;
            let body = serde_json::to_string(&first).map_err(|e| e.to_string())?;
            let id = store
                .create_tournament(a.place.guild, a.name.trim(), now, &body)
                .await
                .map_err(|e| e.to_string())?;
            store.close().await;
            println!(
                "{}",
                printable(&format!(
                    "tournament {id}: {} ({})",
                    a.name.trim(),
                    describe(&first)
                ))
            );
            Ok(ExitCode::SUCCESS)
        }
        TournamentCommand::Standings(a) => {
            let l = read_only(&a.place, a.id).await?;
            print_standings(&l.t, a.json)?;
            Ok(ExitCode::SUCCESS)
        }
        TournamentCommand::Matches(a) => {
            let l = read_only(&a.place, a.id).await?;
            print_matches(&l.t, a.json)?;
            Ok(ExitCode::SUCCESS)
        }
        TournamentCommand::History(a) => {
            let l = read_only(&a.place, a.id).await?;
            // Each event said as the tournament stood when it came.
            let mut t = Tournament::from_events(&l.t.log[..1]).map_err(|e| e.to_string())?;
            for (k, e) in l.t.log.iter().enumerate() {
                if k > 0 {
                    t.apply(e);
                }
                let line = if a.json {
                    serde_json::to_string(e).map_err(|e| e.to_string())?
                } else {
                    format!("{:>4}. {}", k + 1, said(&t, e))
                };
                println!("{}", printable(&line));
            }
            Ok(ExitCode::SUCCESS)
        }
        TournamentCommand::Page(a) => {
            let l = read_only(&a.place, a.id).await?;
            let html = super::tournament_page::page(l.id, &l.t);
            std::fs::write(&a.html, html).map_err(|e| format!("{}: {e}", a.html.display()))?;
            println!("{}", printable(&format!("wrote {}", a.html.display())));
            Ok(ExitCode::SUCCESS)
        }
        TournamentCommand::Run(_) => Ok(ExitCode::FAILURE),
        acting => {
            let (place, id) = acting.target();
            let store = open_rw(place).await?;
            let done = act_on(&store, place.guild, id, &acting).await;
            store.close().await;
            done
        }
    }
}

impl TournamentCommand {
    /// The database and tournament an act names.
    fn target(&self) -> (&Place, i64) {
        match self {
            TournamentCommand::Join(a) | TournamentCommand::Leave(a) => (&a.place, a.id),
            TournamentCommand::Start(a)
            | TournamentCommand::Pause(a)
            | TournamentCommand::Resume(a) => (&a.place, a.id),
            TournamentCommand::Settle(a) => (&a.place, a.id),
            TournamentCommand::Withdraw(a) => (&a.place, a.id),
            TournamentCommand::Replace(a) => (&a.place, a.id),
            TournamentCommand::Create(a) => (&a.place, 0),
            TournamentCommand::Standings(a)
            | TournamentCommand::Matches(a)
            | TournamentCommand::History(a) => (&a.place, a.id),
            TournamentCommand::Page(a) => (&a.place, a.id),
            TournamentCommand::Run(a) => (&a.place, 0),
        }
    }
}

/// Reads tournament `id`, does the act `command` says at the game clock's now and
/// says what came of it.
async fn act_on(
    store: &Store,
    guild: Option<u64>,
    id: i64,
    command: &TournamentCommand,
) -> Result<ExitCode, String> {
    let mut l = load(store, id).await?;
    let a = match command {
        TournamentCommand::Join(a) => Act::Join {
            player: player(store, &a.player).await?,
            name: a.player.trim().to_string(),
        },
        TournamentCommand::Leave(a) => Act::Leave {
            player: known(store, &a.player).await?,
        },
        TournamentCommand::Start(a) => {
            let by = known(store, &a.host).await?;
            // None made for a start the rules refuse anyway (said by them).
            let fill = if by == l.t.host && !l.t.is_started() {
                ai_fill(store, &l.t).await?
            } else {
                Vec::new()
            };
            Act::Start {
                by,
                ratings: ratings(store, guild, &l.t, &fill).await?,
                fill,
            }
        }
        TournamentCommand::Settle(a) => Act::Settle {
            by: known(store, &a.host).await?,
            round: a.round,
            table: a.table as usize - 1,
            result: match a.result.trim() {
                "draw" => Outcome::Draw,
                r => match r.strip_prefix("forfeit:") {
                    Some(names) => {
                        let mut absent = Vec::new();
                        for n in names.split(',') {
                            absent.push(known(store, n).await?);
                        }
                        Outcome::Forfeit { absent }
                    }
                    None => Outcome::Win {
                        winner: known(store, r).await?,
                    },
                },
            },
        },
        TournamentCommand::Withdraw(a) => Act::Withdraw {
            by: known(store, &a.host).await?,
            player: known(store, &a.player).await?,
        },
        TournamentCommand::Replace(a) => Act::Replace {
            by: known(store, &a.host).await?,
            old: known(store, &a.old).await?,
            new: player(store, &a.new).await?,
            name: a.new.trim().to_string(),
        },
        TournamentCommand::Pause(a) => Act::Pause {
            by: known(store, &a.host).await?,
        },
        TournamentCommand::Resume(a) => Act::Resume {
            by: known(store, &a.host).await?,
        },
        _ => return Err("not an act".into()),
    };
    let now = store.game_clock().await.map_err(|e| e.to_string())?;
    let events = act(store, &mut l, &a, now).await?;
    for e in &events {
        println!("{}", printable(&said(&l.t, e)));
    }
    if let Act::Settle { round, table, .. } = a {
        still_played(store, &l.t, round, table).await?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Says so when a settled table's match is still played: the Mondo that runs it (`mondo
/// serve`) ends it at its next look through the tournaments, or as it starts, as it
/// would had the host settled on Discord (docs/tournaments.md).
async fn still_played(
    store: &Store,
    t: &Tournament,
    round: u32,
    table: usize,
) -> Result<(), String> {
    let opened = (t.rounds.iter().find(|r| r.number == round))
        .and_then(|r| r.tables.get(table))
        .and_then(|tb| tb.opened.last());
    let Some(&m) = opened else { return Ok(()) };
    let record = store
        .record(mondo_store::MatchId(m))
        .await
        .map_err(|e| e.to_string())?;
    if record.is_some_and(|r| r.status == mondo_store::Status::Live) {
        println!(
            "match {m} of that table is still played: the Mondo that runs it ends it within \
             seconds (or as it starts)"
        );
    }
    Ok(())
}

async fn read_only(place: &Place, id: i64) -> Result<Loaded, String> {
    let store = super::ratings::open(&place.db).await?;
    let l = load(&store, id).await;
    store.close().await;
    l
}

/// The format in words, from the created event.
fn describe(e: &Event) -> String {
    match e {
        Event::Created { settings, .. } => {
            let ai = settings.ai_fill.map_or(String::new(), |n| {
                format!("; AI players fill the empty seats up to {n} players")
            });
            format!("{}, {}{ai}", settings.format, settings.game)
        }
        _ => String::new(),
    }
}

/// A player's name by id, as the tournament knows it.
fn name_of(t: &Tournament, p: PlayerId) -> String {
    t.seat_of(p)
        .map(|s| t.seats[s].name.clone())
        .or_else(|| {
            t.signups
                .iter()
                .find(|s| s.player == p)
                .map(|s| s.name.clone())
        })
        .unwrap_or_else(|| p.0.to_string())
}

/// An event in a line.
pub fn said(t: &Tournament, e: &Event) -> String {
    let n = |p: &PlayerId| name_of(t, *p);
    match e {
        Event::Created { name, settings, .. } => format!("{name} created: {}", settings.format),
        Event::Joined { player, .. } => format!("{} joined", n(player)),
        Event::Left { player, .. } => format!("{} left", n(player)),
        Event::Started { seeds, .. } => format!(
            "started with {} players; seeds: {}",
            seeds.len(),
            seeds
                .iter()
                .map(|s| n(&s.player))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Event::RoundOpened {
            round,
            stage,
            tables,
            ..
        } => format!(
            "round {round} ({}) opened: {}",
            stage.name(),
            tables
                .iter()
                .map(|o| match o.players.as_slice() {
                    [a, b] => format!("{} v {}", n(a), n(b)),
                    [a] => format!("{} has a bye", n(a)),
                    _ => String::new(),
                })
                .collect::<Vec<_>>()
                .join("; ")
        ),
        Event::MatchResult {
            round,
            table,
            result,
            ..
        }
        | Event::Settled {
            round,
            table,
            result,
            ..
        } => {
            let what = match result {
                Outcome::Win { winner } => format!("{} won", n(winner)),
                Outcome::Draw => "a draw".into(),
                Outcome::Forfeit { absent } => format!(
                    "forfeited by {}",
                    absent.iter().map(n).collect::<Vec<_>>().join(" and ")
                ),
            };
            let by = if matches!(e, Event::Settled { .. }) {
                " (settled by the host)"
            } else {
                ""
            };
            format!("round {round}, table {}: {what}{by}", table + 1)
        }
        Event::MatchOpened {
            round,
            table,
            match_id,
            ..
        } => format!(
            "round {round}, table {}: match {match_id} opened",
            table + 1
        ),
        Event::Forfeit {
            round,
            table,
            absent,
            ..
        } => format!(
            "round {round}, table {}: forfeited by {}",
            table + 1,
            absent.iter().map(n).collect::<Vec<_>>().join(" and ")
        ),
        Event::Reminded { round, players, .. } => match players.as_slice() {
            [] => format!("round {round}: the reminder (everyone had come)"),
            _ => format!(
                "round {round}: {} reminded of the deadline",
                players.iter().map(n).collect::<Vec<_>>().join(", ")
            ),
        },
        Event::Withdrawn { player, .. } => format!("{} withdrew", n(player)),
        Event::Replaced { old, name, .. } => format!("{name} replaces {}", n(old)),
        Event::Paused { .. } => "paused".into(),
        Event::Resumed { .. } => "resumed".into(),
        Event::Finished { champion, .. } => match champion {
            Some(p) => format!("finished: {} is the champion", n(p)),
            None => "finished without a champion".into(),
        },
    }
}

/// The standings as rows of the JSON contract.
pub fn standings_json(t: &Tournament) -> Vec<serde_json::Value> {
    standings(t)
        .into_iter()
        .map(|r| {
            json!({
                "player": t.seats[r.seat].name,
                "rank": r.rank,
                "points": r.points,
                "tiebreaks": r.tiebreaks,
                "played": r.played,
            })
        })
        .collect()
}

fn print_standings(t: &Tournament, as_json: bool) -> Result<(), String> {
    if as_json {
        let rows = standings_json(t);
        println!(
            "{}",
            serde_json::to_string(&rows).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    if !t.is_started() {
        println!(
            "{}",
            printable(&format!(
                "{}: not started; {} signed up.",
                t.name,
                t.signups.len()
            ))
        );
        for s in &t.signups {
            println!("  {}", printable(&s.name));
        }
        return Ok(());
    }
    for line in standings_text(t) {
        println!("{}", printable(&line));
    }
    Ok(())
}

/// A table's result as the matches JSON says it: the winner's name, `draw`,
/// `forfeit`, or none while it is played.
fn result_word(t: &Tournament, d: Option<&Decision>) -> Option<String> {
    match d? {
        Decision::Won(s) => Some(t.seats[*s].name.clone()),
        Decision::Draw => Some("draw".into()),
        Decision::Forfeit(_) => Some("forfeit".into()),
        Decision::Bye => None,
    }
}

/// The matches as rows of the JSON contract (byes are not matches).
pub fn matches_json(t: &Tournament) -> Vec<serde_json::Value> {
    let mut rows = Vec::new();
    for r in &t.rounds {
        for table in r.tables.iter().filter(|x| x.b.is_some()) {
            rows.push(json!({
                "round": r.number,
                "stage": r.stage.name(),
                "players": table.seats().map(|s| t.seats[s].name.clone()).collect::<Vec<_>>(),
                "result": result_word(t, table.decided.as_ref()),
                "match": table.games.iter().rev().find_map(|g| g.match_id),
            }));
        }
    }
    rows
}

fn print_matches(t: &Tournament, as_json: bool) -> Result<(), String> {
    if as_json {
        println!(
            "{}",
            serde_json::to_string(&matches_json(t)).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    for r in &t.rounds {
        println!("round {} ({}):", r.number, r.stage.name());
        for (k, table) in r.tables.iter().enumerate() {
            let names: Vec<String> = table.seats().map(|s| t.seats[s].name.clone()).collect();
            let line = match (&table.decided, names.as_slice()) {
                (Some(Decision::Bye), [a]) => format!("  {}. {a}: a bye", k + 1),
                (d, _) => format!(
                    "  {}. {}: {}{}",
                    k + 1,
                    names.join(" v "),
                    result_word(t, d.as_ref()).unwrap_or_else(|| "to play".into()),
                    table
                        .games
                        .iter()
                        .filter_map(|g| g.match_id)
                        .map(|m| format!(" (match {m})"))
                        .collect::<String>()
                ),
            };
            println!("{}", printable(&line));
        }
    }
    Ok(())
}
