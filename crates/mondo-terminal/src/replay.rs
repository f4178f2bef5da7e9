//! `mondo replay MATCH [--db FILE] [--json | --html FILE]`: a match from its log, event
//! by event, or a finished match's replay page.

use super::kit::block_on;
use clap::Args;
use mondo_play::replay::replay;
use mondo_store::{Location, MatchId, MatchRecord, RatingChange, Store, StoredEvent};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The match's number (as `mondo play` and the bot show it).
    pub id: MatchId,
    /// The database: a SQLite file or a URL (sqlite://FILE, postgres://...).
    #[arg(long, default_value = "mondo.db")]
    pub db: Location,
    /// One JSON object per line: a finished match's stored events, each with its number
    /// and time; a match still being played as a spectator hears it, each line with its
    /// time.
    #[arg(long, conflicts_with = "html")]
    pub json: bool,
    /// Write the replay page of a finished match to FILE: one HTML file, pictures
    /// inside, that works offline (a match still being played is refused).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

pub fn run(args: ReplayArgs) -> ExitCode {
    if !args.db.exists() {
        eprintln!(
            "error: there is no database at {}; name one with --db FILE",
            args.db
        );
        return ExitCode::from(2);
    }
    block_on(async move {
        let (record, events, names, changes) = load(&args).await?;
        if let Some(file) = &args.html {
            let page = mondo_play::page::page(&record, &events, &names, &changes)?;
            std::fs::write(file, page)
                .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
            println!(
                "match {}: its replay page, {} steps, is {}",
                record.id,
                events.len(),
                file.display()
            );
            return Ok(ExitCode::SUCCESS);
        }
        // A match still being played: only what a spectator sees of it (`play::replay`).
        for line in replay(&record, &events, &names, args.json)? {
            println!("{}", super::kit::printable(&line));
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// A match's row, its events, the names of its players who have one (terminal
/// players), by id, and what it did to their ratings.
type Loaded = (
    MatchRecord,
    Vec<StoredEvent>,
    HashMap<u64, String>,
    Vec<RatingChange>,
);

async fn load(args: &ReplayArgs) -> Result<Loaded, String> {
    // Read only: replay never creates, migrates or writes the file.
    let store = Store::connect_read_only(&args.db)
        .await
        .map_err(|e| e.to_string())?;
    let record = store
        .record(args.id)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| {
            format!(
                "there is no match {} in {}; `mondo play` and the bot say each match's number",
                args.id, args.db
            )
        })?;
    let events = store.events(args.id).await.map_err(|e| e.to_string())?;
    // The players' names, and the hosts' who made a step (a pause, an end).
    let bodies: Vec<serde_json::Value> = events
        .iter()
        .map(|e| mondo_store::from_json(&e.body).unwrap_or_default())
        .collect();
    let mut named = record.players.clone();
    named.extend(mondo_play::authors::hosts(&record, &bodies));
    let names = store.local_names(&named).await.map_err(|e| e.to_string())?;
    let changes = store
        .rating_changes(args.id)
        .await
        .map_err(|e| e.to_string())?;
    store.close().await;
    Ok((record, events, names, changes))
}
