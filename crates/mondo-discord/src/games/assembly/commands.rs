//! `/assembly duel|answer|showdown|status`: Pattern Assembly's slash commands.

use super::host::ServerSettings;
use super::view::view_of;
use crate::kit::{my_match, play_in, reply};

/// What Pattern Assembly's commands say to someone with no match in the channel.
pub const NO_MATCH: &str = "you are not playing a match in this channel: start one with \
                            `/assembly duel` or `/assembly practice`";
use crate::grid::Dims;
use crate::kit::start::LevelChoice;
use crate::post::Post;
use crate::rules::assembly::Section as AssemblyConfig;
use crate::rules::assembly::{AssemblyMove, AssemblySetup, AssemblyView, PhaseView, Settings};
use crate::rules::{Millis, PlayerId, Viewer};
use crate::runtime::{AnyAction, Common, Place};
use crate::{Context, Error, say};
use poise::serenity_prelude as serenity;
use rand::RngExt;

pub use super::host::{change, region, reveal, settings};

/// Pattern Assembly: a memory race on a grid of O, X and + symbols.
#[poise::command(
    slash_command,
    subcommands(
        "duel", "practice", "answer", "showdown", "status", "resign", "reveal", "change", "region",
        "settings"
    ),
    subcommand_required
)]
pub async fn assembly(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Challenge someone to Pattern Assembly: memorise the grid, then find the groups asked.
///
/// The grid is shown for a while before round 1 and after rounds 5, 10 and 15, then
/// hidden. Each round asks for a shape with its contents; answer with
/// `/assembly answer` (cells like `C3-D3-D4`: row letter, column number). Every answer waits before its verdict.
/// At the end, rebuild the grid from memory (`/assembly showdown`).
#[poise::command(slash_command, guild_only)]
pub async fn duel(
    ctx: Context<'_>,
    #[description = "Who you challenge"] opponent: serenity::User,
    #[description = "Pattern Assembly Plus: a 10 x 10 grid, several groups per round"] plus: Option<
        bool,
    >,
    #[description = "The seed that draws the grid and rounds (default: random)"] seed: Option<u64>,
    #[description = "Against @Mondo (the AI): its strength (default: player)"] level: Option<
        LevelChoice,
    >,
) -> Result<(), Error> {
    let me = ctx.author().id.get();
    let Some((them, _)) = crate::kit::start::duel_opponent(ctx, &opponent, level).await? else {
        return Ok(());
    };
    create(
        ctx,
        vec![PlayerId(me), PlayerId(them)],
        plus.unwrap_or(false),
        seed,
    )
    .await
}

/// The game's name as players call it.
fn title(plus: bool) -> &'static str {
    if plus {
        "Pattern Assembly Plus"
    } else {
        "Pattern Assembly"
    }
}

/// A new match of `players` (one: practice) in the channel, opened with its post.
async fn create(
    ctx: Context<'_>,
    players: Vec<PlayerId>,
    plus: bool,
    seed: Option<u64>,
) -> Result<(), Error> {
    let bot = ctx.data();
    let guild = ctx.guild_id().map(|g| g.get());
    let channel = ctx.channel_id().get();
    // A duel is set up under the channel's lock, a practice under its player's.
    let ids: Vec<u64> = players.iter().map(|p| p.0).collect();
    let lock = if ids.len() > 1 { 0 } else { ids[0] };
    let Some(_setting_up) = bot.setting_up(channel, lock) else {
        return reply(
            ctx,
            Post::private("a match is being set up in this channel right now: wait for it"),
        )
        .await;
    };
    // The AI may play in several channels, and several people at once.
    let last = ids[ids.len() - 1];
    let busy = [
        ids[0],
        if PlayerId(last).ai_seat().is_some() {
            ids[0]
        } else {
            last
        },
    ];
    if crate::kit::start::refused_busy(ctx, busy, "/assembly status").await? {
        return Ok(());
    }
    let server = super::host::server_settings(bot, guild).await?;
    let setup = AssemblySetup {
        players,
        seed: seed.unwrap_or_else(|| rand::rng().random()),
        settings: game_settings(plus, &bot.config.games.Assembly, &server),
    };
    let place = Place {
        guild,
        channel: Some(channel),
    };
    // A seed the player chose makes the match unrated (docs/ratings.md, "Fair play").
    let chosen = seed.is_some().then_some(ids[0]);
    if let [me, them] = ids[..]
        && PlayerId(them).ai_seat().is_none()
    {
        let offer = crate::kit::challenge::Offer {
            title: title(plus).into(),
            setup: setup.into(),
            chosen,
            hellos: Vec::new(),
            no_dm: String::new(),
            one_per_channel: false,
        };
        let made = crate::kit::challenge::Made {
            place,
            channel,
            challenger: me,
            challenged: them,
            offer,
        };
        return crate::kit::challenge::offer(ctx, made).await;
    }
    let game = match bot.runtime.create_by(place, setup.into(), chosen).await {
        Ok(id) => id,
        Err(e) => return reply(ctx, Post::text(format!("no match: {e}"))).await,
    };
    crate::kit::start::start(ctx, game, channel, |post| {
        if let [_, them] = ids[..] {
            post.line(format!(
                "{} accepts. {}",
                say::mention(PlayerId(them)),
                crate::kit::challenge::rated_line(&ids, chosen)
            ));
        }
    })
    .await
}

/// Practise Pattern Assembly alone: the same rounds against the clock, scored.
///
/// The grid is shown before round 1 and after rounds 5, 10 and 15; answer each round
/// with `/assembly answer`, rebuild the grid at the end with `/assembly showdown`.
/// Works in a server channel or in a DM with the bot.
#[poise::command(slash_command)]
pub async fn practice(
    ctx: Context<'_>,
    #[description = "Pattern Assembly Plus: a 10 x 10 grid, several groups per round"] plus: Option<
        bool,
    >,
    #[description = "The seed that draws the grid and rounds (default: random)"] seed: Option<u64>,
) -> Result<(), Error> {
    let me = ctx.author().id.get();
    let players = vec![PlayerId(me)];
    create(ctx, players, plus.unwrap_or(false), seed).await
}

/// Give up your Pattern Assembly match here (in a duel the opponent wins).
#[poise::command(slash_command)]
pub async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    let Some((record, _)) = my_assembly(ctx).await? else {
        return Ok(());
    };
    play_in(ctx, &record, |_| Ok(AnyAction::Common(Common::Resign))).await
}

/// The game's settings with the configured durations (0 keeps the game's own) and,
/// in the original game, the wrong-shape rule: the server's, else the config's.
pub fn game_settings(plus: bool, config: &AssemblyConfig, server: &ServerSettings) -> Settings {
    let mut s = if plus {
        Settings::plus(Dims { rows: 10, cols: 10 })
    } else {
        Settings {
            wrong_shape_waits: server.wrong_shape.unwrap_or(config.wrong_shape).waits(),
            ..Settings::original()
        }
    };
    let secs = |v: u64, default: Millis| {
        if v == 0 {
            default
        } else {
            crate::config::ms(v)
        }
    };
    let t = &mut s.timing;
    t.reveal = secs(config.reveal_secs, t.reveal);
    t.wait = secs(config.wait_secs, t.wait);
    t.round = secs(config.round_secs, t.round);
    t.showdown = secs(config.showdown_secs, t.showdown);
    if config.rounds > 0 {
        s.rounds = config.rounds;
        s.reveal_after.retain(|&r| r < config.rounds);
    }
    s
}

/// Milliseconds since the Unix epoch at which Discord made a snowflake.
pub fn snowflake_ms(id: u64) -> u64 {
    (id >> 22) + 1_420_070_400_000
}

/// The game-clock moment a snowflake was made, given both clocks now: the answer's
/// own send time, not when it reached the bot (the rules bound it).
pub fn sent_at(id: u64, clocks: say::Clocks) -> Millis {
    clocks
        .game
        .saturating_sub(clocks.wall_ms.saturating_sub(snowflake_ms(id)))
}

/// Answer the round: the cells of a group, e.g. `C3-D3-D4` (row letter, column number).
///
/// Your answer waits before its verdict; answers sent while it waits are disregarded.
/// The time you sent it counts, not when it reached the umpire.
#[poise::command(slash_command)]
pub async fn answer(
    ctx: Context<'_>,
    #[description = "The group's cells, e.g. C3-D3-D4"] cells: String,
) -> Result<(), Error> {
    let clocks = ctx.data().clocks();
    let sent = sent_at(ctx.id(), clocks);
    let Some((record, v)) = my_assembly(ctx).await? else {
        return Ok(());
    };
    let dims = v.dims;
    play_in(ctx, &record, |_| {
        let cells = dims.group(&cells).map_err(|e| e.to_string())?;
        Ok(AnyAction::from(AssemblyMove::Answer {
            cells,
            sent: Some(sent),
        }))
    })
    .await
}

/// The showdown: rebuild the grid from memory in a box, a row a line (`.` a blank).
///
/// The box opens with the rows to fill; or give `grid` as one line, rows split by
/// ` / `. Every filled cell right scores the number filled; one wrong cell scores 0
/// (Plus: +1 per right symbol, -1 per wrong one, over the region the host named).
#[poise::command(slash_command)]
pub async fn showdown(
    ctx: Context<'_>,
    #[description = "Instead of the box: rows split by ` / `, e.g. OX+.OX / ...  (`.` a blank)"]
    grid: Option<String>,
) -> Result<(), Error> {
    let Some((record, v)) = my_assembly(ctx).await? else {
        return Ok(());
    };
    let Some(grid) = grid else {
        return super::showdown::open(ctx, &record, &v).await;
    };
    let dims = match v.phase {
        PhaseView::Showdown { region } => region.dims(),
        _ => v.dims,
    };
    play_in(ctx, &record, |_| {
        let grid = super::showdown::read(&grid, dims)?;
        Ok(AnyAction::from(AssemblyMove::Showdown { grid }))
    })
    .await
}

/// Your match here: the round, the scores, the clocks (only you see it).
#[poise::command(slash_command)]
pub async fn status(ctx: Context<'_>) -> Result<(), Error> {
    crate::kit::start::private_status(ctx, NO_MATCH).await
}

/// The author's match here and its public view, or a private refusal (no match, or
/// not an Assembly match).
async fn my_assembly(
    ctx: Context<'_>,
) -> Result<Option<(crate::store::MatchRecord, AssemblyView)>, Error> {
    let Some(record) = my_match(ctx, NO_MATCH).await? else {
        return Ok(None);
    };
    let view = ctx
        .data()
        .runtime
        .view(record.id, &Viewer::Spectator)
        .await?;
    match view_of(&view) {
        Some(v) => Ok(Some((record, v.clone()))),
        None => {
            reply(ctx, Post::private(NOT_ASSEMBLY)).await?;
            Ok(None)
        }
    }
}

const NOT_ASSEMBLY: &str =
    "your match here is not Pattern Assembly: `/zendo status` says which it is";

/// A tournament's match of `players` (the higher seed first) in Pattern Assembly, or
/// Plus: the server's and the config's settings, a seed drawn at random.
pub async fn tournament_setup(
    bot: &crate::Bot,
    guild: Option<u64>,
    players: Vec<PlayerId>,
    plus: bool,
) -> Result<crate::runtime::AnySetup, Error> {
    let server = super::host::server_settings(bot, guild).await?;
    Ok(AssemblySetup {
        players,
        seed: rand::rng().random(),
        settings: game_settings(plus, &bot.config.games.Assembly, &server),
    }
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snowflake_sent_earlier_is_placed_earlier_on_the_game_clock() {
        // Discord's example snowflake: 2016-04-30 11:18:25.796 UTC.
        let id = 175_928_847_299_117_063;
        assert_eq!(snowflake_ms(id), 1_462_015_105_796);
        let clocks = say::Clocks {
            game: 50_000,
            wall_ms: 1_462_015_105_796 + 1_500,
        };
        assert_eq!(sent_at(id, clocks), 48_500, "sent 1.5 s before it arrived");
        let later = id + (1_000 << 22);
        assert_eq!(sent_at(later, clocks), 49_500);
    }

    #[test]
    fn configured_durations_replace_the_games_own_and_zero_keeps_them() {
        let c = AssemblyConfig {
            reveal_secs: 2,
            rounds: 3,
            ..AssemblyConfig::default()
        };
        let none = ServerSettings::default();
        let s = game_settings(false, &c, &none);
        assert_eq!(s.timing.reveal, 2_000);
        assert_eq!(s.timing.round, Settings::original().timing.round);
        assert_eq!(s.rounds, 3);
        assert!(s.reveal_after.iter().all(|&r| r < 3));
        assert!(game_settings(true, &AssemblyConfig::default(), &none).plus);
    }

    /// A wrong shape waits unless the config, or a server over it, says at once;
    /// Plus always waits.
    #[test]
    fn the_wrong_shape_rule_is_the_servers_else_the_configs() {
        use crate::rules::assembly::WrongShape;
        let config = AssemblyConfig::default();
        let none = ServerSettings::default();
        assert!(game_settings(false, &config, &none).wrong_shape_waits);
        let at_once = AssemblyConfig {
            wrong_shape: WrongShape::AtOnce,
            ..AssemblyConfig::default()
        };
        assert!(!game_settings(false, &at_once, &none).wrong_shape_waits);
        let server = ServerSettings {
            wrong_shape: Some(WrongShape::Waits),
        };
        assert!(game_settings(false, &at_once, &server).wrong_shape_waits);
        let server = ServerSettings {
            wrong_shape: Some(WrongShape::AtOnce),
        };
        assert!(!game_settings(false, &config, &server).wrong_shape_waits);
        assert!(game_settings(true, &config, &server).wrong_shape_waits);
    }
}
