//! `/bluffs duel|bluff|status|resign`: Logical Bluffs' slash commands.

use super::controls;
use crate::kit::start::LevelChoice;
use crate::kit::{my_match, open_modal, play, reply};
use crate::post::Post;
use crate::rules::bluffs::Setup;
use crate::rules::{PlayerId, Viewer};
use crate::runtime::{AnyAction, Common};
use crate::{Context, Error};
use poise::serenity_prelude as serenity;
use rand::RngExt;

/// What Logical Bluffs' commands say to someone with no match in the channel.
pub const NO_MATCH: &str =
    "you are not playing a match in this channel: start one with `/bluffs duel`";

/// Logical Bluffs: statements about a hidden 4 x 4 layout of coloured tiles.
#[poise::command(
    slash_command,
    subcommands("duel", "bluff", "status", "resign"),
    subcommand_required
)]
pub async fn bluffs(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Challenge someone to Logical Bluffs: bluff about hidden tiles, then guess the layout.
///
/// Each of you privately knows a few tiles. Each round: a subset of 4-8 connected tiles
/// and four statements about it (`/bluffs bluff`); then mark the other's statements
/// true or false; then buy tile reveals or guess the whole layout. A right layout guess
/// wins.
#[poise::command(slash_command, guild_only)]
pub async fn duel(
    ctx: Context<'_>,
    #[description = "Who you challenge"] opponent: serenity::User,
    #[description = "The seed that draws the layout and the known tiles (default: random)"]
    seed: Option<u64>,
    #[description = "Against @Mondo (the AI): its strength (default: player)"] level: Option<
        LevelChoice,
    >,
) -> Result<(), Error> {
    let bot = ctx.data();
    let guild = ctx.guild_id().map(|g| g.get());
    let channel = ctx.channel_id().get();
    let me = ctx.author().id.get();
    // The bot's own user is the AI: its seat plays, and it accepts at once.
    let Some((them, against_ai)) = crate::kit::start::duel_opponent(ctx, &opponent, level).await?
    else {
        return Ok(());
    };
    let Some(_setting_up) = bot.setting_up(channel, 0) else {
        return reply(
            ctx,
            Post::private("a duel is being set up in this channel right now: wait for it"),
        )
        .await;
    };
    // The AI may play in several channels, and several people at once.
    let busy = [me, if against_ai { me } else { them }];
    if crate::kit::start::refused_busy(ctx, busy, "/bluffs status").await? {
        return Ok(());
    }
    let setup = Setup {
        players: [PlayerId(me), PlayerId(them)],
        seed: seed.unwrap_or_else(|| rand::rng().random()),
        settings: bot.config.games.Bluffs.settings(),
    };
    // Once accepted, each player's DM gets their private tiles, RP and buttons.
    let hello = |other: u64| {
        format!(
            "You are in a Logical Bluffs duel against {} in <#{channel}>. Your tiles, RP and \
             private buttons come here; nobody else sees them.",
            crate::say::mention(PlayerId(other))
        )
    };
    let offer = crate::kit::challenge::Offer {
        title: TITLE.into(),
        setup: setup.into(),
        // A seed the player chose makes the match unrated (docs/ratings.md, "Fair play").
        chosen: seed.is_some().then_some(me),
        hellos: vec![(me, hello(them)), (them, hello(me))],
        no_dm: "I cannot DM {who}: use `/bluffs status` (only you see it) for your tiles, \
                RP and buttons."
            .into(),
        one_per_channel: false,
    };
    let made = crate::kit::challenge::Made::new(guild, channel, me, them, offer);
    if against_ai {
        let no_dm = made.offer.no_dm.clone();
        return crate::kit::start::against_the_ai(ctx, made, hello(them), &no_dm).await;
    }
    crate::kit::challenge::offer(ctx, made).await
}

/// The game's name as players call it.
pub const TITLE: &str = "Logical Bluffs";

/// Bluff: a subset and four statements, in a form; each is read back with its check
/// before it counts.
///
/// The subset is 4-8 orthogonally connected tiles (`A1-A2-B1-B2`) sharing fewer than
/// half its tiles with your previous one; each statement must involve every tile of
/// it, have at most 15 words (one in notation: the words of its English reading, which
/// is what your opponent reads), and be neither always true nor always false.
#[poise::command(slash_command)]
pub async fn bluff(
    ctx: Context<'_>,
    #[description = "Use your No Limit item: any tiles, connected or not, this round"]
    nolimit: Option<bool>,
    #[description = "Use your Smokescreen item: hide this statement (1-4) from the opponent"]
    smoke: Option<u8>,
) -> Result<(), Error> {
    let Some(record) = my_match(ctx, NO_MATCH).await? else {
        return Ok(());
    };
    let poise::Context::Application(app) = ctx else {
        return reply(ctx, Post::private("use the slash command `/bluffs bluff`")).await;
    };
    if let Some(n) = smoke
        && !(1..=4).contains(&n)
    {
        return reply(
            ctx,
            Post::private(format!("smoke {n}: name the statement to hide, 1 to 4")),
        )
        .await;
    }
    let modal = controls::bluff_modal(record.id, nolimit.unwrap_or(false), smoke.unwrap_or(0));
    open_modal(app, modal).await
}

/// Your own state, only to you: tiles, RP, items and the buttons of the phase.
///
/// Your tiles come with a picture; in Claiming the mark buttons, in Reveal the
/// reveal select and the layout guess.
#[poise::command(slash_command)]
pub async fn status(ctx: Context<'_>) -> Result<(), Error> {
    let Some(record) = my_match(ctx, NO_MATCH).await? else {
        return Ok(());
    };
    let bot = ctx.data();
    let me = PlayerId(ctx.author().id.get());
    let view = bot.runtime.view(record.id, &Viewer::Player(me)).await?;
    let Some(v) = super::view_of(&view) else {
        return reply(
            ctx,
            Post::private(
                "your match here is not Logical Bluffs: `/zendo status` says which it is",
            ),
        )
        .await;
    };
    // What only the asker may see (tiles, RP, the phase's own controls), with the
    // status as every game shows it: a card.
    let private = super::private::first(record.id, v);
    let card = bot.card(record.id, &view);
    let mut answer = private.reply(true);
    for embed in card.embeds() {
        answer = answer.embed(embed);
    }
    for picture in card.attachments() {
        answer = answer.attachment(picture);
    }
    ctx.send(answer).await?;
    Ok(())
}

/// Give up: your opponent wins, and the layout is shown.
#[poise::command(slash_command)]
pub async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, NO_MATCH, |_| Ok(AnyAction::Common(Common::Resign))).await
}
