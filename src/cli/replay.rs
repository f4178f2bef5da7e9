//! `mondo replay MATCH [--db FILE] [--json]`: a match from its log, event by event.

use clap::Args;
use mondo::play::Narrator;
use mondo::rules::Viewer;
use mondo::rules::zendo::Event;
use mondo::runtime::{Engine, ZendoMatch};
use mondo::store::{MatchId, MatchRecord, Status, Store, StoredEvent};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The match's number (as `mondo play` and the bot show it).
    pub id: MatchId,
    /// The database file.
    #[arg(long, default_value = "mondo.db")]
    pub db: PathBuf,
    /// One JSON object per line: the stored event with its number and time.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: ReplayArgs) -> ExitCode {
    if !args.db.exists() {
        eprintln!(
            "error: there is no database at {}; name one with --db FILE",
            args.db.display()
        );
        return ExitCode::from(2);
    }
    block_on(async move {
        let (record, events, names) = load(&args).await?;
        let events = secrets_kept(&record, events)?;
        if args.json {
            for e in &events {
                println!("{}", json_line(e));
            }
        } else {
            print!("{}", render(&record, &events, &names));
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// While a Zendo match is being played its log holds secrets (the hidden pattern in
/// its first event, challenge answers not yet revealed): until it is over, only what a
/// spectator may see is printed.
fn secrets_kept(
    record: &MatchRecord,
    events: Vec<StoredEvent>,
) -> Result<Vec<StoredEvent>, String> {
    if record.status == Status::Over || !ZendoMatch::KINDS.contains(&record.kind.as_str()) {
        return Ok(events);
    }
    let decoded = events
        .iter()
        .map(|e| e.decode::<Event>(record.id))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let state = ZendoMatch::replay(&decoded)?;
    Ok(events
        .into_iter()
        .zip(&decoded)
        .filter(|(_, e)| state.is_visible(e, &Viewer::Spectator))
        .map(|(stored, _)| stored)
        .collect())
}

/// Runs a command's async body on a tokio runtime; its error is printed with exit
/// status 2 (what the player asked for cannot be done as asked).
pub(super) fn block_on(body: impl Future<Output = Result<ExitCode, String>>) -> ExitCode {
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    match rt.block_on(body) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// A match's row, its events, and the names of its players who have one (terminal
/// players), by id.
type Loaded = (MatchRecord, Vec<StoredEvent>, HashMap<u64, String>);

async fn load(args: &ReplayArgs) -> Result<Loaded, String> {
    let store = Store::open(&args.db).await.map_err(|e| e.to_string())?;
    let record = store
        .record(args.id)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| {
            format!(
                "there is no match {} in {}; `mondo play` and the bot say each match's number",
                args.id,
                args.db.display()
            )
        })?;
    let events = store.events(args.id).await.map_err(|e| e.to_string())?;
    let names = store
        .local_names(&record.players)
        .await
        .map_err(|e| e.to_string())?;
    store.close().await;
    Ok((record, events, names))
}

fn json_line(e: &StoredEvent) -> String {
    let event: serde_json::Value =
        serde_json::from_str(&e.body).unwrap_or(serde_json::Value::String(e.body.clone()));
    serde_json::json!({ "seq": e.seq, "at": e.at, "event": event }).to_string()
}

/// Game-clock time since the match began, as m:ss.mmm.
fn since(start: u64, at: u64) -> String {
    let ms = at.saturating_sub(start);
    format!("{}:{:02}.{:03}", ms / 60_000, ms / 1000 % 60, ms % 1000)
}

/// The header, then one line per event: number, time since the start, and the event.
pub fn render(
    record: &MatchRecord,
    events: &[StoredEvent],
    names: &HashMap<u64, String>,
) -> String {
    let zendo = ZendoMatch::KINDS.contains(&record.kind.as_str());
    let name = |id: &u64| names.get(id).cloned().unwrap_or_else(|| id.to_string());
    let players: Vec<String> = record.players.iter().map(name).collect();
    let mut out = format!(
        "match {} ({}), {}, created {}, players {}, seed {}, {} events{}\n",
        record.id,
        record.kind,
        match record.status {
            Status::Live => "still being played",
            Status::Over => "over",
        },
        record.created,
        players.join(", "),
        record.seed,
        events.len(),
        if record.status == Status::Live && zendo {
            " (what the players may not see yet is left out until the end)"
        } else {
            ""
        }
    );
    let mut narrator = match record.players.as_slice() {
        [a, b] => Narrator::duel([name(a), name(b)], names.clone()),
        _ => Narrator::practice(),
    };
    for e in events {
        // Zendo events in words where there are words for them; the rest as stored.
        let said = zendo
            .then(|| serde_json::from_str::<Event>(&e.body).ok())
            .flatten()
            .map(|event| narrator.say(&event, None).1);
        out.push_str(&format!(
            "#{:<4} +{}  {}\n",
            e.seq,
            since(record.created_at, e.at),
            said.as_deref().unwrap_or(&e.body)
        ));
    }
    out
}
