//! `mondo history PLAYER`: a player's finished matches, the last ended first, each with
//! its result, opponents, rating change, date and the command that replays it
//! (docs/ratings.md says what each shows, and the JSON).

use super::kit::block_on;
use super::ratings::{LIMITS, Place, history_text, json_history, names, open, player_id, said};
use clap::Args;
use mondo_rules::rules::GameKind;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// A terminal player's name, or a Discord user id (with --guild).
    pub player: String,
    /// Only this game (a stored name: zendo-duel, zendo-triple, zendo-classic,
    /// zendo-practice, pattern-assembly, logical-bluffs).
    #[arg(long, value_name = "KIND")]
    pub game: Option<GameKind>,
    /// Matches to list, at most (1-1000).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(LIMITS))]
    pub limit: u32,
    /// One JSON array of matches (the fields in docs/ratings.md).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub place: Place,
}

pub fn run(args: HistoryArgs) -> ExitCode {
    block_on(async move {
        let db = &args.place.db;
        let store = open(db).await?;
        let server = mondo_store::server_of(args.place.guild);
        let player = player_id(&store, &args.player, args.place.guild).await?;
        let rows = store
            .history_of(server, player, args.game.map(|g| g.name()), args.limit)
            .await
            .map_err(|e| said(db, e))?;
        let mut ids = vec![player];
        ids.extend(rows.iter().flat_map(|h| h.players.iter().copied()));
        ids.sort_unstable();
        ids.dedup();
        let names = names(&store, args.place.guild, &ids).await;
        store.close().await;
        if args.json {
            let rows: Vec<_> = rows
                .iter()
                .map(|h| json_history(h, player, &names))
                .collect();
            println!(
                "{}",
                serde_json::to_string(&rows).map_err(|e| e.to_string())?
            );
            return Ok(ExitCode::SUCCESS);
        }
        let who = super::ratings::name(player, &names);
        if rows.is_empty() {
            let what = args
                .game
                .map_or("match".to_string(), |g| g.name().to_string());
            println!(
                "{}",
                super::kit::printable(&format!("{who} has no finished {what} here yet."))
            );
            return Ok(ExitCode::SUCCESS);
        }
        println!(
            "{}",
            super::kit::printable(&format!("{who}'s matches, the last finished first:"))
        );
        for h in &rows {
            let line = format!(
                "{} · mondo replay {} --db {db}",
                history_text(h, player, &names),
                h.id
            );
            println!("{}", super::kit::printable(&line));
        }
        Ok(ExitCode::SUCCESS)
    })
}
