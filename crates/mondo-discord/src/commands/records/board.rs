//! A server's leaderboard listing rules: `/leaderboard-settings` (hosts) shows and sets
//! them; `/leaderboard` lists by them. Each rule a server never set follows the
//! configuration (`[leaderboard]`), so the store keeps only what the server chose.

use crate::kit::host::host_only;
use crate::kit::reply;
use crate::post::Post;
use crate::ratings::{BoardOverrides, BoardRule, BoardSettings};
use crate::{Bot, Context, Error};

/// The rules that list players on `server`'s leaderboards: its own over the
/// configured defaults (the terminal's server 0 has only the defaults). Rules stored
/// out of today's ranges are left for the defaults, said in the log.
pub async fn rules_of(bot: &Bot, server: u64) -> Result<(BoardSettings, BoardOverrides), Error> {
    let defaults = bot.config.leaderboard.settings();
    if server == 0 {
        return Ok((defaults, BoardOverrides::default()));
    }
    let own = bot.store.leaderboard_settings(server).await?;
    if let Err(e) = own.check() {
        tracing::warn!(guild = server, error = %e, "stored leaderboard rules are out of range");
        return Ok((defaults, BoardOverrides::default()));
    }
    Ok((own.over(&defaults), own))
}

/// This server's leaderboard rules (hosts): who /leaderboard lists.
///
/// Without options it shows them. Players are listed with at least `min_games` rated
/// games in the game, one in the last `recent_days` days, and a deviation under
/// `max_deviation`; a rule the server never set follows the bot's configuration.
#[poise::command(slash_command, guild_only, rename = "leaderboard-settings")]
pub async fn leaderboard_settings(
    ctx: Context<'_>,
    #[description = "Rated games in the game a listed player has (1-1000; default 5)"]
    #[min = 1]
    #[max = 1000]
    min_games: Option<i64>,
    #[description = "Days within which one of them was played (1-3650; default 30)"]
    #[min = 1]
    #[max = 3650]
    recent_days: Option<i64>,
    #[description = "The deviation a listed player is under (10-350; default 110)"]
    #[min = 10]
    #[max = 350]
    max_deviation: Option<i64>,
    #[description = "Put every rule back to the bot's defaults"] reset: Option<bool>,
) -> Result<(), Error> {
    if !host_only(ctx).await? {
        return Ok(());
    }
    let bot = ctx.data();
    let guild = ctx.guild_id().map_or(0, |g| g.get());
    let asked = [min_games, recent_days, max_deviation];
    let post = match set(
        bot,
        guild,
        asked,
        reset == Some(true),
        ctx.author().id.get(),
    )
    .await?
    {
        Ok(post) => post,
        Err(refusal) => Post::private(refusal),
    };
    reply(ctx, post).await
}

/// Sets what was asked (`asked`: min_games, recent_days, max_deviation; `reset` first
/// forgets the server's own) and tells the rules that apply now; or, for a value out
/// of range, says what is allowed and changes nothing.
pub async fn set(
    bot: &Bot,
    guild: u64,
    asked: [Option<i64>; 3],
    reset: bool,
    by: u64,
) -> Result<Result<Post, String>, Error> {
    let mut own = if reset {
        BoardOverrides::default()
    } else {
        rules_of(bot, guild).await?.1
    };
    let changed = reset || asked.iter().any(Option::is_some);
    for (rule, value) in BoardRule::ALL.into_iter().zip(asked) {
        let Some(value) = value else { continue };
        // Whole numbers each: i64 to f64 is exact in every allowed range.
        let value = match rule.check(value as f64) {
            Ok(v) => v,
            Err(e) => return Ok(Err(format!("nothing was changed: {e}"))),
        };
        match rule {
            BoardRule::MinGames => own.min_games = Some(value as u32),
            BoardRule::RecentDays => own.recent_days = Some(value as u32),
            BoardRule::MaxDeviation => own.max_deviation = Some(value),
        }
    }
    if changed {
        bot.store
            .set_leaderboard_settings(guild, &own, Some(by))
            .await?;
    }
    let (rules, own) = rules_of(bot, guild).await?;
    let mark = |rule: BoardRule| {
        if own.sets(rule) { "" } else { " (default)" }
    };
    let mut post = Post::private(if changed {
        "leaderboard rules for this server, from now on:"
    } else {
        "leaderboard rules for this server:"
    });
    post.line(format!(
        "at least {} in the game{}; one within {} days{}; a deviation under {:.0}{}",
        crate::narrate::count(u64::from(rules.min_games), "rated game", "rated games"),
        mark(BoardRule::MinGames),
        rules.recent_days,
        mark(BoardRule::RecentDays),
        rules.max_deviation,
        mark(BoardRule::MaxDeviation),
    ));
    post.line("The umpire's AI seats are rated but never listed; `/stats` of the bot shows them.");
    Ok(Ok(post))
}
