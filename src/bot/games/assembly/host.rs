//! `/assembly reveal|change|region`: a host's Plus commands on a running match, made
//! like `/host`'s overrides (same hosts: Manage Server or the server's host role; same
//! `match` option). The rules take them between rounds; the original game refuses
//! them, saying why.

use crate::bot::commands::host::override_match;
use crate::bot::{Bot, Context, Error};
use crate::grid::Region;
use crate::rules::GameKind;
use crate::rules::assembly::{AssemblyMove, Settings};
use crate::runtime::AnyAction;
use crate::store::{MatchFilter, MatchRecord, Status};

/// The live Pattern Assembly matches in `channel` (`/host` finds them too).
pub async fn live_in(bot: &Bot, channel: u64) -> Result<Vec<MatchRecord>, Error> {
    Ok(bot
        .store
        .matches(&MatchFilter {
            kind: Some(GameKind::Assembly.name()),
            status: Some(Status::Live),
            channel: Some(channel),
            ..MatchFilter::default()
        })
        .await?)
}

/// `record`'s settings, if it is a Pattern Assembly match.
fn settings_of(record: &MatchRecord) -> Result<Settings, String> {
    match record.game() {
        Ok(GameKind::Assembly) => serde_json::from_str(&record.settings)
            .map_err(|e| format!("match #{} has unreadable settings: {e}", record.id)),
        _ => Err(format!("match #{} is not Pattern Assembly", record.id)),
    }
}

/// A host's move on an Assembly match, made from its settings.
async fn host_move(
    ctx: Context<'_>,
    game: Option<i64>,
    make: impl FnOnce(&Settings) -> Result<AssemblyMove, String>,
) -> Result<(), Error> {
    override_match(ctx, game, |record| {
        settings_of(record)
            .and_then(|s| make(&s))
            .map(AnyAction::from)
    })
    .await
}

/// Host (Plus): show the grid again once the current round ends.
#[poise::command(slash_command, guild_only)]
pub async fn reveal(
    ctx: Context<'_>,
    #[description = "The match number, if several run here"]
    #[rename = "match"]
    game: Option<i64>,
) -> Result<(), Error> {
    host_move(ctx, game, |_| Ok(AssemblyMove::Rereveal)).await
}

/// Host (Plus): a new grid once the current round ends (shown; later rounds come from it).
#[poise::command(slash_command, guild_only)]
pub async fn change(
    ctx: Context<'_>,
    #[description = "The match number, if several run here"]
    #[rename = "match"]
    game: Option<i64>,
) -> Result<(), Error> {
    host_move(ctx, game, |_| Ok(AssemblyMove::ChangeGrid)).await
}

/// Host (Plus): the part of the grid the showdown covers, before it opens.
#[poise::command(slash_command, guild_only)]
pub async fn region(
    ctx: Context<'_>,
    #[description = "Rows then columns, e.g. B-D 2-7 (or all)"] region: String,
    #[description = "The match number, if several run here"]
    #[rename = "match"]
    game: Option<i64>,
) -> Result<(), Error> {
    host_move(ctx, game, |s| {
        let region = Region::parse(&region, s.dims).map_err(|e| e.to_string())?;
        Ok(AssemblyMove::SetRegion { region })
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Dims;
    use crate::store::MatchId;

    fn record(kind: GameKind, settings: &Settings) -> MatchRecord {
        MatchRecord {
            id: MatchId(3),
            kind: kind.name().into(),
            guild: Some(1),
            channel: Some(2),
            seed: 0,
            settings: serde_json::to_string(settings).unwrap(),
            status: Status::Live,
            players: vec![1, 2],
            created_at: 0,
            last_seq: 0,
            last_at: 0,
            created: String::new(),
        }
    }

    #[test]
    fn a_hosts_region_is_read_against_the_matchs_own_grid() {
        let plus = Settings::plus(Dims { rows: 10, cols: 12 });
        let s = settings_of(&record(GameKind::Assembly, &plus)).unwrap();
        assert_eq!(s.dims, plus.dims);
        assert!(Region::parse("B-J 2-12", s.dims).is_ok());
        let other = record(GameKind::ZendoDuel, &plus);
        assert_eq!(
            settings_of(&other).unwrap_err(),
            "match #3 is not Pattern Assembly"
        );
    }
}
