//! What only a server's hosts may do: the check, and acting on a match as its host.

use super::base::Error;
use super::data::{Context, is_host};
use super::post::Post;
use super::reply::{asked, claimed, reply};
use crate::rules::{Actor, PlayerId};
use crate::runtime::AnyAction;
use crate::store::{MatchId, MatchRecord};

/// Refuses (privately) anyone who is not a host here; whether to go on.
pub(crate) async fn host_only(ctx: Context<'_>) -> Result<bool, Error> {
    let Some(guild) = ctx.guild_id() else {
        reply(
            ctx,
            Post::private("hosting is done in a server, not in DMs"),
        )
        .await?;
        return Ok(false);
    };
    let settings = ctx.data().settings(Some(guild.get())).await?;
    if is_host(ctx.author_member().await.as_deref(), settings.host_role) {
        return Ok(true);
    }
    let role = settings
        .host_role
        .map_or(String::new(), |r| format!(" or the <@&{r}> role"));
    reply(
        ctx,
        Post::private(format!(
            "only a host can do that: hosts have the Manage Server permission{role}"
        )),
    )
    .await?;
    Ok(false)
}

/// A host's `action` on the match meant: `game`, or the only live match in the
/// channel, whatever its game.
pub(crate) async fn override_match(
    ctx: Context<'_>,
    game: Option<i64>,
    action: impl FnOnce(&MatchRecord) -> Result<AnyAction, String>,
) -> Result<(), Error> {
    if !host_only(ctx).await? {
        return Ok(());
    }
    let bot = ctx.data();
    let record: MatchRecord = match game {
        Some(n) => match bot.store.record(MatchId(n)).await? {
            Some(r) if r.guild == ctx.guild_id().map(|g| g.get()) => r,
            _ => {
                return reply(
                    ctx,
                    Post::private(format!("there is no match #{n} in this server")),
                )
                .await;
            }
        },
        None => match only_match(bot.live_in(ctx.channel_id().get()).await?) {
            Ok(record) => record,
            Err(why) => return reply(ctx, Post::private(why)).await,
        },
    };
    let action = match action(&record) {
        Ok(a) => a,
        Err(e) => return reply(ctx, Post::private(e)).await,
    };
    let result = bot
        .act(
            record.id,
            Actor::Host(PlayerId(ctx.author().id.get())),
            action,
            None,
            asked(ctx),
        )
        .await;
    bot.deliver_as(claimed(result), super::reply::first_reply(ctx), |post| {
        reply(ctx, post)
    })
    .await
}

/// The match a host command without `match:` is for: the one live match of the
/// channel (of any game), or why there is none to pick.
pub fn only_match(mut live: Vec<MatchRecord>) -> Result<MatchRecord, String> {
    match live.len() {
        1 => Ok(live.remove(0)),
        0 => Err("no match is running in this channel (give `match` for one elsewhere)".into()),
        _ => {
            let each: Vec<String> = live
                .iter()
                .map(|r| {
                    let game = r.game().map_or(r.kind.as_str(), |k| k.title());
                    format!("#{} ({game})", r.id)
                })
                .collect();
            Err(format!(
                "several matches run here ({}): give `match`",
                each.join(", ")
            ))
        }
    }
}
