//! Answering someone: a command's reply, the match the asker plays here, acting for
//! them, refusals in words.

use super::base::{Asked, Error, Handed};
use super::data::{Bot, Context, Data};
use super::post::Post;
use crate::narrate::{self, Names};
use crate::rules::{Actor, PlayerId, RuleError};
use crate::runtime::{self, ActError, AnyAction};
use crate::store::MatchRecord;
use poise::serenity_prelude as serenity;

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

/// Answers a press (a button, a select) with a post; if that fails, a handed batch
/// goes to its channel instead.
pub async fn answer_press(
    ctx: &serenity::Context,
    bot: &Bot,
    press: &serenity::ComponentInteraction,
    handed: Handed,
) -> Result<(), Error> {
    answer(bot, handed, &press.token, |r| press.create_response(ctx, r)).await
}

/// Answers a box (a modal) sent back with a post; if that fails, a handed batch goes
/// to its channel instead.
pub async fn answer_modal(
    ctx: &serenity::Context,
    bot: &Bot,
    submit: &serenity::ModalInteraction,
    handed: Handed,
) -> Result<(), Error> {
    answer(bot, handed, &submit.token, |r| {
        submit.create_response(ctx, r)
    })
    .await
}

/// An interaction's answer: its post as a message, its first reply (the interaction
/// with `token`), sent with `respond`.
async fn answer<F>(
    bot: &Bot,
    handed: Handed,
    token: &str,
    respond: impl FnOnce(serenity::CreateInteractionResponse) -> F,
) -> Result<(), Error>
where
    F: std::future::Future<Output = Result<(), serenity::Error>>,
{
    bot.deliver_as(handed, Some(token), |post| {
        respond(serenity::CreateInteractionResponse::Message(
            post.response(),
        ))
    })
    .await?;
    Ok(())
}

/// The text typed into a box's field.
pub fn modal_text(data: &serenity::ModalInteractionData, field: &str) -> Option<String> {
    data.components
        .iter()
        .flat_map(|row| &row.components)
        .find_map(|c| match c {
            serenity::ActionRowComponent::InputText(t) if t.custom_id == field => t.value.clone(),
            _ => None,
        })
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

/// The live match the author plays in this channel, or, privately, `none` (the
/// asking game's own "start one with ...").
pub async fn my_match(ctx: Context<'_>, none: &str) -> Result<Option<MatchRecord>, Error> {
    let found = ctx
        .data()
        .match_of(ctx.channel_id().get(), ctx.author().id.get())
        .await?;
    if found.is_none() {
        reply(ctx, Post::private(none)).await?;
    }
    Ok(found)
}

/// The author acts as a player in their match here; the reply is what it caused.
/// `action` makes the request for the match's game, or says why it cannot; `none` is
/// what the asking game says to someone with no match here.
pub async fn play(
    ctx: Context<'_>,
    none: &str,
    action: impl FnOnce(&MatchRecord) -> Result<AnyAction, String>,
) -> Result<(), Error> {
    let Some(record) = my_match(ctx, none).await? else {
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
    bot.deliver_as(claimed(result), first_reply(ctx), |post| reply(ctx, post))
        .await
}

/// The command's interaction token while its first reply is still to come (the
/// reply is then that interaction's original response; see [`Bot::deliver_as`]).
pub fn first_reply(ctx: Context<'_>) -> Option<&str> {
    match ctx {
        poise::Context::Application(a)
            if !a
                .has_sent_initial_response
                .load(std::sync::atomic::Ordering::SeqCst) =>
        {
            Some(a.interaction.token.as_str())
        }
        _ => None,
    }
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

/// What a button or a box of a match this bot does not know hears.
pub fn unknown_match(game: crate::store::MatchId) -> String {
    format!(
        "Mondo knows no match #{game} (it may be from another Mondo): start one with a \
         command (`/help` lists them)"
    )
}
