//! Answering someone: a command's reply, the match the asker plays here, acting for
//! them, refusals in words.

use super::base::{Asked, Error, Handed};
use super::data::{Context, Data};
use super::post::Post;
use crate::narrate::{self, Names};
use crate::rules::{Actor, PlayerId, RuleError};
use crate::runtime::{self, ActError, AnyAction};
use crate::store::MatchRecord;

/// A refusal in words, with people as mentions.
pub fn refusal(e: &ActError<RuleError>) -> String {
    match e {
        ActError::Refused(e) => narrate::refusal(e, &Names::mentions(&[])),
        ActError::Runtime(runtime::RuntimeError::Over(id)) => {
            format!("match #{id} is over")
        }
        ActError::Runtime(e) => format!("Mondo could not do that: {e}"),
    }
}

/// An action's reply: its batch, or a refusal only the presser sees.
pub fn claimed(result: Result<Option<Handed>, ActError<RuleError>>) -> Handed {
    match result {
        Ok(Some(handed)) => handed,
        Ok(None) => Handed::own(Post::private("done: see the channel")),
        Err(e) => Handed::own(Post::private(refusal(&e))),
    }
}

/// Sends a post as the command's reply.
pub async fn reply(ctx: Context<'_>, post: Post) -> Result<(), Error> {
    ctx.send(post.reply()).await?;
    Ok(())
}

/// Where and when the command was given.
pub fn asked(ctx: Context<'_>) -> Asked {
    Asked {
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
/// `action` makes the request for the match's game, or says why it cannot.
pub async fn play(
    ctx: Context<'_>,
    action: impl FnOnce(&MatchRecord) -> Result<AnyAction, String>,
) -> Result<(), Error> {
    let Some(record) = my_match(ctx).await? else {
        return Ok(());
    };
    play_in(ctx, &record, action).await
}

/// The author acts as a player in `record` (already looked up).
pub async fn play_in(
    ctx: Context<'_>,
    record: &MatchRecord,
    action: impl FnOnce(&MatchRecord) -> Result<AnyAction, String>,
) -> Result<(), Error> {
    let action = match action(record) {
        Ok(a) => a,
        Err(e) => return reply(ctx, Post::private(e)).await,
    };
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
    bot.deliver(claimed(result), |post| reply(ctx, post)).await
}

/// Answers a slash command with a box (a modal); what is typed in it comes back as a
/// modal interaction (`interactions::on_modal`).
pub async fn open_modal(
    app: poise::ApplicationContext<'_, Data, Error>,
    modal: poise::serenity_prelude::CreateModal,
) -> Result<(), Error> {
    let response = poise::serenity_prelude::CreateInteractionResponse::Modal(modal);
    app.interaction
        .create_response(Context::Application(app), response)
        .await?;
    app.has_sent_initial_response
        .store(true, std::sync::atomic::Ordering::SeqCst);
    Ok(())
}

pub const NO_MATCH: &str = "you are not playing a match in this channel: start one with \
                            `/zendo duel` or `/zendo practice`";
