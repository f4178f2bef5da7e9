//! Interactions the bot answers besides slash commands (buttons and modals), routed by
//! the match's game through the registry's dispatch (`Fronts`); the one error
//! handler.

use super::ids::{Header, UnknownButton};
use super::kit::{
    Data, Error, Handed, Pressed, Submitted, answer_modal, answer_press, unknown_match,
};
use super::post::Post;
use poise::serenity_prelude as serenity;

/// The one error handler: a command that failed says so to the one who asked (and
/// the log gets the details); poise's own handling for the rest.
pub async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    // A command's or a button's answer Discord refused (or a post on the way).
    if let poise::FrameworkError::Command { error, .. }
    | poise::FrameworkError::EventHandler { error, .. } = &error
        && error.downcast_ref::<serenity::Error>().is_some()
    {
        crate::metrics::discord_failed();
    }
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            tracing::error!(command = %ctx.command().qualified_name, error = %error, "a command failed");
            let _ = ctx
                .send(
                    Post::private(format!(
                        "Mondo could not finish that: {error}. Nothing was lost; try again."
                    ))
                    .reply(),
                )
                .await;
        }
        poise::FrameworkError::ArgumentParse {
            error, input, ctx, ..
        } => {
            let what = input.map_or(String::new(), |i| format!(" `{i}`"));
            let _ = ctx
                .send(Post::private(format!("could not read{what}: {error}")).reply())
                .await;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::error!(error = %e, "error while handling an error");
            }
        }
    }
}

/// Buttons and modals (poise handles the slash commands).
pub async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    bot: &Data,
) -> Result<(), Error> {
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(press),
        } => on_button(ctx, bot, press).await,
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Modal(submit),
        } => on_modal(ctx, bot, submit).await,
        serenity::FullEvent::Ready { data_about_bot } => {
            tracing::info!(user = %data_about_bot.user.name, "connected to Discord");
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A button (or a select): its header read once (every game's buttons carry one), the
/// match found, the header handed to the match's game, which reads its own verb and
/// makes its move with the version the button was drawn at.
async fn on_button(
    ctx: &serenity::Context,
    bot: &Data,
    press: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    // Help's topic menu carries no match: it swaps the help in place.
    if press.data.custom_id == super::commands::help::MENU_ID {
        return super::commands::help::on_select(ctx, press, &super::commands::all()).await;
    }
    // A challenge's Accept and Decline: no match yet.
    if let Some(rest) = press
        .data
        .custom_id
        .strip_prefix(super::kit::challenge::PREFIX)
    {
        return super::kit::challenge::on_button(ctx, bot, press, rest).await;
    }
    let header = match Header::parse(&press.data.custom_id) {
        Ok(h) => h,
        Err(e) => {
            return answer_press(ctx, bot, press, Handed::own(Post::private(format!("{e}")))).await;
        }
    };
    // A replay's pages belong to no game: every finished match has them.
    if header.verb == super::commands::records::REPLAY_VERB {
        return super::commands::records::on_replay_button(ctx, bot, press, &header).await;
    }
    // A press a game takes before any lookup (its MATCH may be no match's).
    if bot.fronts.claims(&header) {
        let pressed = Pressed {
            ctx,
            bot,
            press,
            header: &header,
        };
        return bot.fronts.on_button(pressed, None).await;
    }
    let Some(record) = bot.store.record(header.game).await? else {
        let post = Post::private(unknown_match(header.game));
        return answer_press(ctx, bot, press, Handed::own(post)).await;
    };
    let pressed = Pressed {
        ctx,
        bot,
        press,
        header: &header,
    };
    bot.fronts.on_button(pressed, Some(record)).await
}

/// A box (a modal) sent back: handled by the game whose box it is.
async fn on_modal(
    ctx: &serenity::Context,
    bot: &Data,
    submit: &serenity::ModalInteraction,
) -> Result<(), Error> {
    if let Some(handling) = bot.fronts.on_modal(Submitted { ctx, bot, submit }) {
        return handling.await;
    }
    let id = UnknownButton(submit.data.custom_id.chars().take(100).collect());
    answer_modal(ctx, bot, submit, Handed::own(Post::private(id.to_string()))).await
}
