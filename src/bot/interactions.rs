//! Interactions the bot answers besides slash commands (buttons and modals), routed by
//! the match's game; the one error handler.

use super::games::assembly::showdown as assembly;
use super::games::bluffs;
use super::games::zendo;
use super::ids::{ButtonId, Header, KOAN_FIELD, KoanModal, Press, UnknownButton};
use super::kit::{Asked, Bot, Data, Error, Handed, NO_MATCH, claimed, refusal};
use super::post::Post;
use crate::rules::zendo::DuelMove;
use crate::rules::{Actor, GameKind, PlayerId};
use crate::runtime::{AnyAction, AnyView};
use poise::serenity_prelude as serenity;

/// The one error handler: a command that failed says so to the one who asked (and
/// the log gets the details); poise's own handling for the rest.
pub async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
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

async fn respond_button(
    ctx: &serenity::Context,
    bot: &Bot,
    press: &serenity::ComponentInteraction,
    handed: Handed,
) -> Result<(), Error> {
    bot.deliver(handed, |post| async move {
        press
            .create_response(
                ctx,
                serenity::CreateInteractionResponse::Message(post.response()),
            )
            .await
    })
    .await?;
    Ok(())
}

/// A button (or a select): its header read once (every game's buttons carry one), the
/// match found, the verb handed to the match's game with the version it was drawn at.
async fn on_button(
    ctx: &serenity::Context,
    bot: &Data,
    press: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    // Help's topic menu carries no match: it swaps the help in place.
    if press.data.custom_id == super::commands::help::MENU_ID {
        return super::commands::help::on_select(ctx, press).await;
    }
    let header = match Header::parse(&press.data.custom_id) {
        Ok(h) => h,
        Err(e) => {
            return respond_button(ctx, bot, press, Handed::own(Post::private(format!("{e}"))))
                .await;
        }
    };
    let unknown = || {
        Handed::own(Post::private(
            UnknownButton(press.data.custom_id.chars().take(100).collect()).to_string(),
        ))
    };
    // A Zendo Classic lobby's button: its MATCH is the match in its lobby phase, or
    // the number of a lobby an older version stored (version 0).
    if header.verb == "lobby" {
        return match ButtonId::from_header(&header) {
            Some(ButtonId {
                press: Press::Lobby(what),
                version,
                ..
            }) => zendo::classic::on_lobby(ctx, bot, press, header.game.0, version, what).await,
            _ => respond_button(ctx, bot, press, unknown()).await,
        };
    }
    let record = match bot.store.record(header.game).await? {
        Some(r) => r,
        None => {
            return respond_button(ctx, bot, press, Handed::own(Post::private(NO_MATCH))).await;
        }
    };
    if matches!(record.game(), Ok(GameKind::Bluffs)) {
        return bluffs::on_component(ctx, bot, press, &header).await;
    }
    let Some(id) = ButtonId::from_header(&header) else {
        return respond_button(ctx, bot, press, unknown()).await;
    };
    let user = PlayerId(press.user.id.get());
    let actor = Actor::Player(user);
    let game = id.game;
    let shown = Some(id.version);
    let asked = Asked {
        channel: press.channel_id.get(),
        interaction: press.id.get(),
    };
    let zendo = |duel: DuelMove, practice: Option<crate::rules::zendo::PracticeMove>| {
        zendo::either(&record, duel, practice)
    };
    let act = |action: Result<AnyAction, String>| async move {
        match action {
            Ok(a) => claimed(bot.act(game, actor, a, shown, asked).await),
            Err(e) => Handed::own(Post::private(e)),
        }
    };
    // A koan box's preview: Submit acts, Edit opens the box again.
    if let Press::Submit(_) | Press::Edit(_) = id.press {
        return zendo::sketch::on_press(ctx, bot, press, &record, id).await;
    }
    use crate::rules::zendo::PracticeMove;
    let handed = match id.press {
        Press::Start(starter) => act(zendo(DuelMove::ChooseStarter { starter }, None)).await,
        Press::Confirm => act(zendo(DuelMove::Confirm, Some(PracticeMove::Confirm))).await,
        Press::TakeBack => act(zendo(DuelMove::TakeBack, Some(PracticeMove::TakeBack))).await,
        Press::Lobby(_) => Handed::own(Post::private("this lobby is closed")),
        Press::Submit(_) | Press::Edit(_) => return Ok(()),
        Press::Answer(answer) => {
            // Practice has no answers: the duel's move lets the engine say so.
            let a = zendo(DuelMove::Answer { answer }, None)
                .unwrap_or_else(|_| DuelMove::Answer { answer }.into());
            Handed::own(match bot.runtime.act(game, actor, a, shown).await {
                Ok(_) => Post::private(format!(
                    "Your answer in match #{game} is in: **{answer}**. It stays private until \
                     every answer is in or time is up; you may change it until then."
                )),
                Err(e) => Post::private(refusal(&e)),
            })
        }
        Press::Sheet(sheet) => {
            Handed::own(zendo::triple::on_sheet(bot, game, user, sheet, shown).await)
        }
        Press::AskHere => Handed::own(
            match bot
                .runtime
                .view(game, &crate::rules::Viewer::Player(user))
                .await
            {
                Ok(AnyView::ZendoDuel(v)) if v.you.is_some() => {
                    match zendo::answer_post(game, &v, bot.clocks()) {
                        Some(mut p) => {
                            p.ephemeral = true;
                            p
                        }
                        None => Post::private("no challenge is waiting for answers now"),
                    }
                }
                Ok(AnyView::ZendoTriple(v)) if v.you.is_some() => {
                    match zendo::triple::answer_post(game, &v, bot.clocks()) {
                        Some(mut p) => {
                            p.ephemeral = true;
                            p
                        }
                        None => Post::private("nothing is waiting for your answers now"),
                    }
                }
                Ok(AnyView::ZendoClassic(v)) if v.you.is_some() => {
                    match zendo::classic::answer_post(game, &v, bot.clocks()) {
                        Some(mut p) => {
                            p.ephemeral = true;
                            p
                        }
                        None => Post::private("no mondo is waiting for answers now"),
                    }
                }
                Ok(AnyView::ZendoClassic(_)) => {
                    Post::private("only this game's students answer its mondos")
                }
                Ok(_) => Post::private("only the two players of this match answer its challenges"),
                Err(e) => Post::private(format!("Mondo could not find that match: {e}")),
            },
        ),
    };
    respond_button(ctx, bot, press, handed).await
}

async fn on_modal(
    ctx: &serenity::Context,
    bot: &Data,
    submit: &serenity::ModalInteraction,
) -> Result<(), Error> {
    let respond = |post: Post| async move {
        submit
            .create_response(
                ctx,
                serenity::CreateInteractionResponse::Message(post.response()),
            )
            .await
    };
    if submit.data.custom_id.starts_with(bluffs::PREFIX) {
        return bluffs::on_modal(ctx, bot, submit).await;
    }
    if zendo::classic::is_rule_box(&submit.data.custom_id) {
        let text = modal_text(&submit.data, zendo::classic::RULE_FIELD).unwrap_or_default();
        return zendo::classic::on_rule_box(ctx, bot, submit, text).await;
    }
    if let Ok(m) = submit.data.custom_id.parse() {
        let text = modal_text(&submit.data, assembly::FIELD).unwrap_or_default();
        let asked = Asked {
            channel: submit.channel_id.get(),
            interaction: submit.id.get(),
        };
        let handed = assembly::submitted(bot, m, submit.user.id.get(), &text, asked).await?;
        bot.deliver(handed, respond).await?;
        return Ok(());
    }
    let modal: KoanModal = match submit.data.custom_id.parse() {
        Ok(m) => m,
        Err(e) => {
            respond(Post::private(e.to_string())).await?;
            return Ok(());
        }
    };
    // A structure typed in the box is shown privately first (Submit / Edit).
    let text = modal_text(&submit.data, KOAN_FIELD).unwrap_or_default();
    let post = zendo::sketch::on_koan_box(bot, modal.game, modal.mode, submit.user.id.get(), &text)
        .await?;
    let handed = Handed::own(post);
    bot.deliver(handed, respond).await?;
    Ok(())
}

/// The text typed into a modal's box.
fn modal_text(data: &serenity::ModalInteractionData, field: &str) -> Option<String> {
    data.components
        .iter()
        .flat_map(|row| &row.components)
        .find_map(|c| match c {
            serenity::ActionRowComponent::InputText(t) if t.custom_id == field => t.value.clone(),
            _ => None,
        })
}
