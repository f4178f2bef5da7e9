//! `mondo replay MATCH [--db FILE] [--json]`: a match from its log, event by event.

use clap::Args;
use mondo::play::{Cast, front_for};
use mondo::rules::{PlayerId, Viewer};
use mondo::runtime::{AnyEvent, AnyMatch, Engine};
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

/// While a match is being played its log holds secrets (the hidden pattern in its
/// first event, challenge answers not yet revealed): until it is over, only what a
/// spectator may hear is printed, redacted by the game as it would be announced.
fn secrets_kept(
    record: &MatchRecord,
    events: Vec<StoredEvent>,
) -> Result<Vec<StoredEvent>, String> {
    if record.status == Status::Over || record.game().is_err() {
        return Ok(events);
    }
    let decoded = decode(record, &events)?;
    let state = AnyMatch::replay(&record.kind, &decoded)?;
    Ok(events
        .into_iter()
        .zip(&decoded)
        .filter_map(|(stored, e)| {
            let heard = state.redact(e, &Viewer::Spectator)?;
            let body = serde_json::to_string(&heard).ok()?;
            Some(StoredEvent { body, ..stored })
        })
        .collect())
}

fn decode(record: &MatchRecord, events: &[StoredEvent]) -> Result<Vec<AnyEvent>, String> {
    events
        .iter()
        .map(|e| {
            AnyMatch::decode(&record.kind, &e.body).map_err(|reason| {
                format!(
                    "match {}: stored event {} does not read: {reason}",
                    record.id, e.seq
                )
            })
        })
        .collect()
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
            eprintln!("error: {}", super::printable(&message));
            ExitCode::from(2)
        }
    }
}

/// A match's row, its events, and the names of its players who have one (terminal
/// players), by id.
type Loaded = (MatchRecord, Vec<StoredEvent>, HashMap<u64, String>);

async fn load(args: &ReplayArgs) -> Result<Loaded, String> {
    // Read only: replay never creates, migrates or writes the file.
    let store = Store::open_read_only(&args.db)
        .await
        .map_err(|e| e.to_string())?;
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
        mondo::store::from_json(&e.body).unwrap_or(serde_json::Value::String(e.body.clone()));
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
    let known = record.game().is_ok();
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
        if record.status == Status::Live && known {
            " (what the players may not see yet is left out until the end)"
        } else {
            ""
        }
    );
    let said = words(record, events, names).unwrap_or_default();
    for (i, e) in events.iter().enumerate() {
        // Events in the game's words where they read; the rest as stored.
        let text = said.get(i).filter(|t| !t.is_empty()).unwrap_or(&e.body);
        out.push_str(&format!(
            "#{:<4} +{}  {}\n",
            e.seq,
            since(record.created_at, e.at),
            text
        ));
    }
    out
}

/// Each event's words, as the terminal said them when it happened: the match is
/// rebuilt event by event, so each is said with the state it led to.
fn words(
    record: &MatchRecord,
    events: &[StoredEvent],
    names: &HashMap<u64, String>,
) -> Option<Vec<String>> {
    let kind = record.game().ok()?;
    let decoded = decode(record, events).ok()?;
    let first = AnyMatch::replay(&record.kind, decoded.get(..1)?).ok()?;
    let players: Vec<(PlayerId, String)> = record
        .players
        .iter()
        .map(|id| {
            (
                PlayerId(*id),
                names.get(id).cloned().unwrap_or_else(|| id.to_string()),
            )
        })
        .collect();
    let cast = Cast::named(players, names);
    let mut front = front_for(kind, &cast, &first.view(&Viewer::Spectator));
    let mut out = Vec::new();
    for i in 0..decoded.len() {
        let state = AnyMatch::replay(&record.kind, &decoded[..=i]).ok()?;
        let lines = front.tell(&decoded[i..=i], &state.view(&Viewer::Spectator));
        out.push(
            lines
                .iter()
                .map(|l| l.text.as_str())
                .collect::<Vec<_>>()
                .join("; "),
        );
    }
    Some(out)
}
