//! The slash commands every game shares (help, hosting), and the list of every command
//! the bot registers; each game's own commands are in `games/`. Their doc comments are
//! their help on Discord (and in `/help`).

pub mod help;
pub mod host;

use super::games::zendo;
use super::{Data, Error};

/// Every command the bot registers.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![
        zendo::zendo(),
        zendo::koan(),
        zendo::guess(),
        zendo::pass(),
        zendo::endturn(),
        host::pool(),
        host::host(),
        host::settings(),
        help::help(),
        super::games::assembly::assembly(),
        super::games::bluffs::bluffs(),
    ]
}
