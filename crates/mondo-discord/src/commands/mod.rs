//! The slash commands every game shares (help, hosting, ratings and replays), and the list of every command
//! the bot registers: each game's own (from its folder, in the registry's order), then
//! the shared ones. Their doc comments are their help on Discord (and in `/help`).

pub mod help;
pub mod host;
pub mod records;
pub mod tournament;

use super::games::Games;
use super::kit::Fronts;
use super::{Data, Error};

/// Every command the bot registers.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    let mut all = Games.commands();
    all.extend([host::pool(), host::host(), help::help()]);
    all.extend([
        records::stats(),
        records::leaderboard(),
        records::leaderboard_settings(),
        records::history(),
        records::replay(),
    ]);
    all.push(tournament::command(&Games.tournament_games()));
    all
}
