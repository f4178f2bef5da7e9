//! The slash commands, one file per area. Their doc comments are their help on
//! Discord (and in `/help`).

pub mod help;
pub mod host;
pub mod turn;
pub mod zendo;

use super::post::Post;
use super::{Context, Data, Error, NO_MATCH};
use crate::rules::zendo::Action;
use crate::rules::{Actor, PlayerId};
use crate::store::MatchRecord;

/// Every command the bot registers.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![
        zendo::zendo(),
        turn::koan(),
        turn::guess(),
        turn::pass(),
        turn::endturn(),
        host::pool(),
        host::host(),
        host::settings(),
        help::help(),
    ]
}

/// Sends a post as the command's reply.
pub async fn reply(ctx: Context<'_>, post: Post) -> Result<(), Error> {
    ctx.send(post.reply()).await?;
    Ok(())
}

/// Where and when the command was given.
pub fn asked(ctx: Context<'_>) -> super::Asked {
    super::Asked {
        channel: ctx.channel_id().get(),
        interaction: ctx.id(),
    }
}

/// The live match the author plays in this channel, or a private "start one".
pub async fn my_match(ctx: Context<'_>) -> Result<Option<MatchRecord>, Error> {
    let found = ctx
        .data()
        .match_of(ctx.channel_id().get(), ctx.author().id.get())
        .await?;
    if found.is_none() {
        reply(ctx, Post::private(NO_MATCH)).await?;
    }
    Ok(found)
}

/// The author acts as a player in their match here; the reply is what it caused.
pub async fn play(ctx: Context<'_>, action: Action) -> Result<(), Error> {
    let Some(record) = my_match(ctx).await? else {
        return Ok(());
    };
    play_in(ctx, &record, action).await
}

/// The author acts as a player in `record` (already looked up).
pub async fn play_in(ctx: Context<'_>, record: &MatchRecord, action: Action) -> Result<(), Error> {
    let result = ctx
        .data()
        .act(
            record.id,
            Actor::Player(PlayerId(ctx.author().id.get())),
            action,
            None,
            asked(ctx),
        )
        .await;
    let bot = ctx.data();
    bot.deliver(super::claimed(result), |post| reply(ctx, post))
        .await
}
