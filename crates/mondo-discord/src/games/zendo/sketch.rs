//! A private sketch board, as Zendo gives each player a spare table to try structures
//! on: `/zendo sketch` draws a structure for the asker alone, in any piece set, at any
//! time, and counts for nothing (no match, no move, nothing stored). And the koan
//! box's preview: a structure typed in the box is first shown privately as a picture
//! with *Submit* (builds it) and *Edit* (opens the box again with it), so a typo is
//! fixed before it counts.
//!
//! The preview keeps the structure in its own message (a fenced block), not in the
//! buttons' ids (a 6 x 6 structure is longer than Discord's 100 characters) nor in the
//! bot's memory: Discord sends the message back with each press, so a preview still
//! works after a restart. A message whose structure cannot be read any more is
//! refused with "type it again", never guessed at. *Submit* carries the match's
//! version when the preview was drawn, so a press after the match moved on to another
//! step or turn is refused as stale like every other button (and a second press finds
//! the structure on the table already).

use super::SetChoice;
use super::ids::{ButtonId, Press, match_button};
use crate::kit::{Asked, Data, Handed, claimed, reply};
use crate::koan::{Koan, PieceSet};
use crate::narrate::count;
use crate::post::Post;
use crate::rules::zendo::Mode;
use crate::rules::{Actor, GameKind, PlayerId, Viewer};
use crate::store::{MatchId, MatchRecord};
use crate::{Context, Error};
use poise::serenity_prelude as serenity;

/// Draw a structure for yourself only (a sketch board): it counts for nothing.
///
/// Any time, in any channel, with or without a match: the picture is shown to you
/// alone and nothing is recorded. The piece set is `pieces`, else your Zendo match's
/// here, else read from the notation (`3> .. 2^` is pyramids, `U R / . D` arrows).
#[poise::command(slash_command)]
pub async fn sketch(
    ctx: Context<'_>,
    #[description = "One line, rows split by ` / `, e.g. 3> .. 2^ / .. 1< 1< or U R / . D"]
    structure: String,
    #[description = "The piece set: pyramids or arrows (default: your match's, else the notation's)"]
    pieces: Option<SetChoice>,
) -> Result<(), Error> {
    let set = match pieces {
        Some(SetChoice::Pyramids) => Some(PieceSet::Pyramids),
        Some(SetChoice::Arrows) => Some(PieceSet::Arrows),
        None => ctx
            .data()
            .match_of(ctx.channel_id().get(), ctx.author().id.get())
            .await?
            .filter(is_zendo)
            .map(|r| super::settings_of(&r).set),
    };
    reply(ctx, sketch_post(&structure, set)).await
}

fn is_zendo(record: &MatchRecord) -> bool {
    matches!(
        record.game(),
        Ok(GameKind::ZendoDuel
            | GameKind::ZendoPractice
            | GameKind::ZendoTriple
            | GameKind::ZendoClassic)
    )
}

/// The sketch of `text` in `set` (`None`: the notation's), or why it does not read;
/// private either way.
pub fn sketch_post(text: &str, set: Option<PieceSet>) -> Post {
    if text.trim().is_empty() {
        return Post::private(
            "give a structure to sketch, e.g. `3> .. 2^ / .. 1< 1<` (pyramids) or `U R / . D` \
             (arrows), rows split by ` / `",
        );
    }
    let read = match set {
        Some(set) => Koan::parse_as(text, set),
        None => text.parse::<Koan>(),
    };
    match read {
        Ok(koan) => {
            let mut post = Post::private(format!(
                "Your sketch (only you see it; it counts for nothing): `{}`, {}.",
                koan.to_line(),
                count(koan.len() as u64, "piece", "pieces")
            ));
            post.koan(&koan, None, None);
            post
        }
        Err(e) => Post::private(format!(
            "that structure does not read: {e}. Nothing was recorded; try again."
        )),
    }
}

/// What a preview's message holds the structure in.
const FENCE: &str = "```";

/// A structure typed in the koan box of match `record`, for `mode`: read and checked
/// as the move it would be, then shown to its player alone with *Submit* and *Edit*
/// (drawn at the match's version now); or why it cannot be built, privately.
pub async fn preview(
    bot: &Data,
    record: &MatchRecord,
    mode: Mode,
    user: u64,
    text: &str,
) -> Result<Post, Error> {
    if let Err(e) = super::build(text, mode, None, record) {
        return Ok(Post::private(e));
    }
    let koan = crate::narrate::zendo::read_structure(text, super::settings_of(record).set)?;
    let version = bot
        .runtime
        .view(record.id, &Viewer::Player(PlayerId(user)))
        .await?
        .version();
    Ok(preview_post(record.id, version, mode, &koan))
}

/// The preview itself (see [`preview`]).
pub fn preview_post(game: MatchId, version: u64, mode: Mode, koan: &Koan) -> Post {
    let mut post = Post::private(format!(
        "Your structure for match #{game}, to {mode} (only you see this; it counts once \
         you press *Submit*):"
    ));
    post.line(format!("{FENCE}\n{koan}\n{FENCE}"));
    post.line("*Submit* builds it; *Edit* opens the box again to change it.");
    post.koan(koan, None, None);
    let button = |press, label: &str| match_button(game, version, press, label);
    post.buttons(vec![
        button(Press::Submit(mode), "Submit"),
        button(Press::Edit(mode), "Edit"),
    ]);
    post
}

/// The structure a preview's message shows, as typed text (`None`: it is not there).
pub fn previewed(content: &str) -> Option<String> {
    let (_, rest) = content.split_once(&format!("{FENCE}\n"))?;
    let (text, _) = rest.split_once(&format!("\n{FENCE}"))?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// *Submit* or *Edit* on a preview of `record`.
pub async fn on_press(
    ctx: &serenity::Context,
    bot: &Data,
    press: &serenity::ComponentInteraction,
    record: &MatchRecord,
    id: ButtonId,
) -> Result<(), Error> {
    let respond = |post: Post| async move {
        press
            .create_response(
                ctx,
                serenity::CreateInteractionResponse::Message(post.response()),
            )
            .await
    };
    let Some(text) = previewed(&press.message.content) else {
        let again = "this preview's structure can no longer be read: type it again with `/koan`";
        respond(Post::private(again)).await?;
        return Ok(());
    };
    match id.press {
        Press::Edit(mode) => {
            let modal = super::turn::koan_box(mode, record.id, id.version, Some(&text));
            press
                .create_response(ctx, serenity::CreateInteractionResponse::Modal(modal))
                .await?;
        }
        Press::Submit(mode) => {
            let handed = match super::build(&text, mode, None, record) {
                Err(e) => Handed::own(Post::private(e)),
                Ok(action) => {
                    let asked = Asked {
                        channel: press.channel_id.get(),
                        interaction: press.id.get(),
                    };
                    let actor = Actor::Player(PlayerId(press.user.id.get()));
                    // The version the preview was drawn at: a second press, or one
                    // after the match moved on, is stale.
                    claimed(
                        bot.act(record.id, actor, action, Some(id.version), asked)
                            .await,
                    )
                }
            };
            bot.deliver(handed, respond).await?;
        }
        _ => {}
    }
    Ok(())
}

/// A koan box's submission: its preview, or why not, as the modal's reply.
pub async fn on_koan_box(
    bot: &Data,
    game: MatchId,
    mode: Mode,
    user: u64,
    text: &str,
) -> Result<Post, Error> {
    match bot.store.record(game).await? {
        None => Ok(Post::private(crate::kit::unknown_match(game))),
        Some(record) => preview(bot, &record, mode, user, text).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sketch_is_private_in_either_set_and_a_bad_one_says_why() {
        let p = sketch_post("3> .. 2^ / .. 1< 1<", None);
        assert!(p.ephemeral && p.files.len() == 1, "{:?}", p.lines);
        assert!(p.content().contains("4 pieces"), "{}", p.content());
        let arrows = sketch_post("U R / . D", None);
        assert!(arrows.ephemeral && arrows.files.len() == 1);
        let wrong = sketch_post("1^ 2>", Some(PieceSet::Arrows));
        assert!(wrong.ephemeral && wrong.files.is_empty());
        assert!(
            wrong.content().contains("does not read"),
            "{}",
            wrong.content()
        );
        assert!(
            sketch_post("  ", None)
                .content()
                .contains("give a structure")
        );
    }

    #[test]
    fn a_preview_holds_its_structure_in_its_message_and_its_version_in_submit() {
        let koan: Koan = "3> .. 2^ / .. 1< 1<".parse().expect("koan");
        let post = preview_post(MatchId(7), 12, Mode::Challenge, &koan);
        assert!(post.ephemeral);
        let text = previewed(&post.content()).expect("the structure");
        assert_eq!(text.parse::<Koan>().ok(), Some(koan));
        let ids: Vec<String> = post.buttons[0].iter().map(|b| b.id.to_string()).collect();
        assert_eq!(ids, ["m:7:12:submit:challenge", "m:7:12:edit:challenge"]);
        assert_eq!(previewed("a message without a structure"), None);
        assert_eq!(previewed("```\n\n```"), None);
    }
}
