//! `/assembly reveal|change|region`: a host's Plus commands on a running match, made
//! like `/host`'s overrides (same hosts: Manage Server or the server's host role; same
//! `match` option). The rules take them between rounds; the original game refuses
//! them, saying why. And `/assembly settings`: a server's own rule for wrong shapes,
//! made like `/zendo triple-settings` (stored as the game's JSON in the store's
//! per-game settings; new matches use it, running ones keep theirs).

use crate::grid::Region;
use crate::kit::host::{host_only, override_match};
use crate::kit::reply;
use crate::post::Post;
use crate::rules::GameKind;
use crate::rules::assembly::{AssemblyMove, Settings, WrongShape};
use crate::runtime::AnyAction;
use crate::store::{MatchFilter, MatchRecord, Status};
use crate::{Bot, Context, Error};
use serde::{Deserialize, Serialize};

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

/// A server's own Pattern Assembly settings (what it never set is the config's).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerSettings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrong_shape: Option<WrongShape>,
}

/// A server's own settings (none outside a server, or if they do not read).
pub async fn server_settings(bot: &Bot, guild: Option<u64>) -> Result<ServerSettings, Error> {
    let Some(g) = guild else {
        return Ok(ServerSettings::default());
    };
    let json = bot
        .store
        .game_settings(g, GameKind::Assembly.name())
        .await?;
    Ok(serde_json::from_str(&json).unwrap_or_else(|e| {
        tracing::warn!(guild = g, error = %e, "stored Pattern Assembly settings do not read");
        ServerSettings::default()
    }))
}

/// The wrong-shape rule, as a slash command choice.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum WrongShapeChoice {
    #[name = "waits: every answer waits, a wrong shape too (the rules' change)"]
    Waits,
    #[name = "at once: a wrong shape is said at once (the first rule)"]
    AtOnce,
}

impl From<WrongShapeChoice> for WrongShape {
    fn from(c: WrongShapeChoice) -> WrongShape {
        match c {
            WrongShapeChoice::Waits => WrongShape::Waits,
            WrongShapeChoice::AtOnce => WrongShape::AtOnce,
        }
    }
}

/// Hosts: this server's Pattern Assembly rule for wrong shapes (without options, shows it).
///
/// The original game: `waits` (the default: every answer waits 30 s, a wrong shape too,
/// then it is announced without its contents) or `at once` (the first rule). Plus
/// always waits. New matches use it; running ones keep theirs.
#[poise::command(slash_command, guild_only)]
pub async fn settings(
    ctx: Context<'_>,
    #[description = "What a wrong shape does in the original game"] wrong_shape: Option<
        WrongShapeChoice,
    >,
    #[description = "Back to the bot's default (the config's)"] reset: Option<bool>,
) -> Result<(), Error> {
    if !host_only(ctx).await? {
        return Ok(());
    }
    let bot = ctx.data();
    let guild = ctx.guild_id().map(|g| g.get());
    let mut now = if reset == Some(true) {
        ServerSettings::default()
    } else {
        server_settings(bot, guild).await?
    };
    if let Some(w) = wrong_shape {
        now.wrong_shape = Some(w.into());
    }
    if (reset == Some(true) || wrong_shape.is_some())
        && let Some(g) = guild
    {
        let json = serde_json::to_string(&now)?;
        bot.store
            .set_game_settings(g, GameKind::Assembly.name(), &json)
            .await?;
    }
    reply(
        ctx,
        Post::private(describe(&now, bot.config.games.Assembly.wrong_shape)),
    )
    .await
}

/// A server's settings in words, each marked when it is the config's.
fn describe(s: &ServerSettings, config: WrongShape) -> String {
    let (rule, mark) = match s.wrong_shape {
        Some(w) => (w, ""),
        None => (config, " (default)"),
    };
    format!(
        "Pattern Assembly for this server (new matches use it): {}{mark}. Plus: every \
         answer waits.",
        rule.words()
    )
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
    fn server_settings_read_back_and_say_what_is_the_default() {
        let s = ServerSettings {
            wrong_shape: Some(WrongShape::AtOnce),
        };
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, r#"{"wrong_shape":"at_once"}"#);
        assert_eq!(serde_json::from_str::<ServerSettings>(&json).unwrap(), s);
        assert_eq!(
            serde_json::from_str::<ServerSettings>("{}").unwrap(),
            ServerSettings::default()
        );
        let said = describe(&s, WrongShape::Waits);
        assert!(
            said.contains("announced at once") && !said.contains("default"),
            "{said}"
        );
        let said = describe(&ServerSettings::default(), WrongShape::Waits);
        assert!(
            said.contains("every answer waits") && said.contains("(default)"),
            "{said}"
        );
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
