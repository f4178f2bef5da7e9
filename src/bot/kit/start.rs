//! Starting a match: its players' DMs checked, a player already busy refused, its
//! opening said as the command's reply and its desk opened; a player's private status
//! (an embed card).

use super::base::Error;
use super::data::{Bot, Context};
use super::desk::DM_WAIT;
use super::post::Post;
use super::reply::{my_match, reply};
use super::say;
use crate::rules::{PlayerId, Viewer};
use crate::store::MatchId;
use poise::serenity_prelude as serenity;

/// A piece set, as a command's option.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum SetChoice {
    #[name = "pyramids"]
    Pyramids,
    #[name = "arrows"]
    Arrows,
}

impl From<SetChoice> for crate::koan::PieceSet {
    fn from(c: SetChoice) -> crate::koan::PieceSet {
        match c {
            SetChoice::Pyramids => crate::koan::PieceSet::Pyramids,
            SetChoice::Arrows => crate::koan::PieceSet::Arrows,
        }
    }
}

/// Stores the players' DM channels (`None`: the bot cannot DM them) and says the
/// opening of a new two-player match, naming who answers in the channel instead.
pub(crate) async fn open_with_dms(
    ctx: Context<'_>,
    game: MatchId,
    channel: u64,
    dms: &[(u64, Option<u64>)],
) -> Result<(), Error> {
    let bot = ctx.data();
    for (user, dm) in dms {
        // The match exists now: a failure here must not stop its opening. Without the
        // row, that player answers challenges with the channel's button.
        if let Err(e) = bot.store.set_dm_channel(game, *user, *dm).await {
            tracing::warn!(%game, user, error = %e, "could not store a player's DM channel");
        }
    }
    start(ctx, game, channel, |post| {
        let no_dm: Vec<String> = dms
            .iter()
            .filter(|(_, dm)| dm.is_none())
            .map(|(u, _)| say::mention(PlayerId(*u)))
            .collect();
        if !no_dm.is_empty() {
            post.line(format!(
                "I cannot DM {}: challenge answers will be taken with a private button in \
                 this channel instead.",
                no_dm.join(", ")
            ));
        }
    })
    .await
}

/// Refuses (privately) a new match when one of `users` already plays one in this
/// channel; whether it did.
pub(crate) async fn refused_busy(
    ctx: Context<'_>,
    users: [u64; 2],
    status: &str,
) -> Result<bool, Error> {
    let channel = ctx.channel_id().get();
    for user in users {
        if ctx.data().match_of(channel, user).await?.is_some() {
            reply(
                ctx,
                Post::private(format!(
                    "{} is already playing a match in this channel (`{status}`)",
                    say::mention(PlayerId(user))
                )),
            )
            .await?;
            return Ok(true);
        }
    }
    Ok(false)
}

/// Says the opening of a new match as the command's reply and opens its desk.
pub(crate) async fn start(
    ctx: Context<'_>,
    game: MatchId,
    channel: u64,
    extra: impl FnOnce(&mut Post),
) -> Result<(), Error> {
    let bot = ctx.data();
    let view = bot.runtime.view(game, &Viewer::Spectator).await?;
    // The opening is said here; the desk says everything after it.
    bot.store.set_announced(game, 1).await?;
    bot.open_desk(game, channel);
    let mut post = bot.fronts.opening(game, &view, bot.clocks());
    extra(&mut post);
    reply(ctx, post).await
}

/// Opens a DM with `user` and says hello; the DM channel, or `None` if Discord
/// refuses (DMs closed, or the user blocks the bot).
/// Each step may take [`DM_WAIT`]: a Discord that does not answer counts as a refusal.
pub(crate) async fn dm_check(
    bot: &Bot,
    user: u64,
    other: u64,
    channel: u64,
    game: &str,
) -> Option<u64> {
    let hello = format!(
        "You are in a {game} against {} in <#{channel}>. When a structure is \
         challenged, your private answer buttons come here (or use *Answer privately* \
         in the channel).",
        say::mention(PlayerId(other))
    );
    dm_hello(bot, user, hello).await
}

/// Opens a DM with `user` and says `hello` there (see [`dm_check`]).
pub(crate) async fn dm_hello(bot: &Bot, user: u64, hello: String) -> Option<u64> {
    let dm = tokio::time::timeout(
        DM_WAIT,
        serenity::UserId::new(user).create_dm_channel(&bot.http),
    )
    .await
    .ok()?
    .ok()?;
    let hello = serenity::CreateMessage::new().content(hello);
    tokio::time::timeout(DM_WAIT, dm.id.send_message(&bot.http, hello))
        .await
        .ok()?
        .ok()?;
    Some(dm.id.get())
}

/// The author's match here, as its player sees it, said only to them (any game);
/// `none` is what the asking game says to someone with no match here.
pub(crate) async fn private_status(ctx: Context<'_>, none: &str) -> Result<(), Error> {
    let Some(record) = my_match(ctx, none).await? else {
        return Ok(());
    };
    let bot = ctx.data();
    let view = bot
        .runtime
        .view(record.id, &Viewer::Player(PlayerId(ctx.author().id.get())))
        .await?;
    let mut post = bot.card(record.id, &view);
    post.ephemeral = true;
    reply(ctx, post).await
}

impl Bot {
    /// A match's status as `view` sees it, as an embed card with the table's picture
    /// when the game has one: a player's `status`, and the result when a match ends.
    pub fn card(&self, game: MatchId, view: &crate::runtime::AnyView) -> Post {
        let mut post = self.fronts.status(game, view, self.clocks());
        let board = self.fronts.board(game, view);
        post.files.extend(board.files.into_iter().take(1));
        post.as_card()
    }
}
