//! A tournament's matches of the Zendo Duel and of Zendo Triple (docs/tournaments.md,
//! "On Discord"): the higher seed holds the DM Advantage, the choice of who starts;
//! the pattern is drawn as for any rated match of the mode (the server's pool, the
//! server's clocks), never chosen by anyone.

use super::settings::{draw, duel_setup, effective};
use crate::kit::{Bot, Error, tournament_pair};
use crate::koan::PieceSet;
use crate::rules::GameKind;
use crate::rules::PlayerId;
use crate::rules::zendo::Settings;
use crate::rules::zendo::triple::TripleSetup;
use crate::runtime::AnySetup;
use rand::RngExt;

/// A Zendo Duel for `players` (the higher seed first, who holds the advantage).
pub async fn duel(
    bot: &Bot,
    guild: Option<u64>,
    players: Vec<PlayerId>,
    options: &str,
) -> Result<AnySetup, Error> {
    let [high, low] = tournament_pair(&players, options, "Zendo Duel")?;
    let settings = effective(bot, guild).await?;
    let seed: u64 = rand::rng().random();
    let drawn = draw(bot, guild, &settings.pool, None, PieceSet::Pyramids, seed)
        .await
        .map_err(|e| format!("no Zendo Duel: {e}"))?;
    Ok(duel_setup([high, low], high, drawn, &settings, seed).into())
}

/// A Zendo Triple for `players` (the higher seed first, who holds the advantage), its
/// three patterns drawn from the built-in arrows pool.
pub async fn triple(
    bot: &Bot,
    guild: Option<u64>,
    players: Vec<PlayerId>,
    options: &str,
) -> Result<AnySetup, Error> {
    let [high, low] = tournament_pair(&players, options, "Zendo Triple")?;
    let style = effective(bot, guild).await?.style;
    let seed: u64 = rand::rng().random();
    let (hidden, opening) = super::triple::draw(bot, guild, "arrows", seed)
        .await
        .map_err(|e| format!("no Zendo Triple: {e}"))?;
    let stored = super::clocks::stored(bot, guild, GameKind::ZendoTriple).await?;
    Ok(TripleSetup {
        players: [high, low],
        starter: None,
        advantage: Some(high),
        hidden: Box::new(hidden),
        opening: Box::new(opening),
        settings: Settings {
            set: PieceSet::Arrows,
            style,
        },
        timing: super::triple::timing(&bot.config.games.ZendoTriple, &stored),
        seed,
    }
    .into())
}
