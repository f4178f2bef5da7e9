//! Starting a match: its players' DMs checked, a player already busy refused, its
//! opening said as the command's reply and its desk opened; a player's private status
//! (an embed card).

use super::base::Error;
use super::data::{Bot, Context};
use super::post::Post;
use super::reply::{my_match, reply};
use super::say;
use crate::rules::{PlayerId, Viewer};
use crate::store::MatchId;
use crate::student::Level;

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

/// The AI's strength, as a command's option (`level:` with `opponent:@Mondo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum LevelChoice {
    #[name = "beginner"]
    Beginner,
    #[name = "player"]
    Player,
    #[name = "expert"]
    Expert,
}

impl From<LevelChoice> for Level {
    fn from(c: LevelChoice) -> Level {
        match c {
            LevelChoice::Beginner => Level::Beginner,
            LevelChoice::Player => Level::Player,
            LevelChoice::Expert => Level::Expert,
        }
    }
}

/// The id of AI seat `k` (0: a duel's opponent) of strength `level`.
pub fn seat(level: Level, k: u8) -> PlayerId {
    PlayerId::ai((level.rank() - 1) as u8, k)
}

/// The opponent of a two-player duel (`/assembly duel`, `/bluffs duel`): `opponent`,
/// or when that is the bot itself, the AI seat of `level` (default `player`), which
/// accepts at once; `None` once a refusal is said (`level` without the AI, oneself, or
/// another bot). With whether it is the AI.
pub(crate) async fn duel_opponent(
    ctx: Context<'_>,
    opponent: &poise::serenity_prelude::User,
    level: Option<LevelChoice>,
) -> Result<Option<(u64, bool)>, Error> {
    let against_ai = opponent.id == ctx.framework().bot_id();
    let refused = if level.is_some() && !against_ai {
        "`level` is the AI's strength: use it with `opponent:@Mondo`"
    } else if opponent.id == ctx.author().id {
        "a duel needs two different players"
    } else if opponent.bot && !against_ai {
        "bots cannot play: challenge a person, or @Mondo for its AI"
    } else {
        let them = if against_ai {
            seat(level.map_or(Level::Player, Into::into), 0).0
        } else {
            opponent.id.get()
        };
        return Ok(Some((them, against_ai)));
    };
    reply(ctx, Post::private(refused)).await?;
    Ok(None)
}

/// What a Zendo match says of a player the bot cannot DM.
const NO_DM: &str = "I cannot DM {who}: challenge answers will be taken with a private button \
                     in this channel instead.";

/// A two-player Zendo match a command set up (`label`: "Zendo duel"). Against the AI
/// it starts at once (the AI accepts: it plays Zendo); otherwise it is a challenge
/// that waits for the one challenged ([`super::challenge`]).
pub(crate) async fn challenge(
    ctx: Context<'_>,
    mut made: super::challenge::Made,
    against_ai: bool,
    label: &str,
) -> Result<(), Error> {
    let (me, them, channel) = (made.challenger, made.challenged, made.channel);
    if !against_ai {
        made.offer.hellos = vec![
            (me, hello(them, channel, label)),
            (them, hello(me, channel, label)),
        ];
        made.offer.no_dm = NO_DM.into();
        return super::challenge::offer(ctx, made).await;
    }
    against_the_ai(ctx, made, hello(them, channel, label), NO_DM).await
}

/// A two-player match against the AI (seat `made.challenged`), created at once: the AI
/// accepts by itself. The challenger's DM gets `hello`; if the bot cannot DM them,
/// the opening says `no_dm` (`{who}` their mention).
pub(crate) async fn against_the_ai(
    ctx: Context<'_>,
    made: super::challenge::Made,
    hello: String,
    no_dm: &str,
) -> Result<(), Error> {
    let bot = ctx.data();
    let (me, them, channel) = (made.challenger, made.challenged, made.channel);
    // The AI seat is nobody on Discord: it is never DMed.
    let mine = super::challenge::dm_hello(bot, me, hello).await;
    let chosen = made.offer.chosen;
    let game = match bot
        .runtime
        .create_by(made.place, made.offer.setup, chosen)
        .await
    {
        Ok(id) => id,
        Err(e) => return reply(ctx, Post::text(format!("no match: {e}"))).await,
    };
    // The match exists now: a failure here must not stop its opening. Without the
    // row, that player answers with the channel's buttons and their status.
    if let Err(e) = bot.store.set_dm_channel(game, me, mine).await {
        tracing::warn!(%game, user = me, error = %e, "could not store a player's DM channel");
    }
    let mut post = super::challenge::opening(bot, game, channel, &[me, them], chosen).await?;
    if mine.is_none() {
        post.line(no_dm.replace("{who}", &say::mention(PlayerId(me))));
    }
    reply(ctx, post).await
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

/// What a Zendo player's DM says as their match starts.
fn hello(other: u64, channel: u64, game: &str) -> String {
    format!(
        "You are in a {game} against {} in <#{channel}>. When a structure is \
         challenged, your private answer buttons come here (or use *Answer privately* \
         in the channel).",
        say::mention(PlayerId(other))
    )
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
        self.card_with(game, view, None)
    }

    /// [`Bot::card`] with one more line under the status.
    fn card_with(
        &self,
        game: MatchId,
        view: &crate::runtime::AnyView,
        more: Option<String>,
    ) -> Post {
        let mut post = self.fronts.status(game, view, self.clocks());
        post.lines.extend(more);
        let board = self.fronts.board(game, view);
        post.files.extend(board.files.into_iter().take(1));
        post.as_card()
    }

    /// The card a match ends with: its result ([`Bot::card`]) and what it did to each
    /// player's rating (`@alice 1500 -> 1662? (+162)`; nothing for a match that counted
    /// for nothing). Read from the store, where the ratings moved in the transaction
    /// that recorded the last event.
    pub async fn result_card(&self, game: MatchId, view: &crate::runtime::AnyView) -> Post {
        let changes = match self.store.rating_changes(game).await {
            Ok(changes) => changes,
            Err(e) => {
                tracing::warn!(%game, error = %e, "could not read the rating changes");
                Vec::new()
            }
        };
        let said: Vec<String> = changes
            .iter()
            .map(|c| format!("{} {}", say::mention(PlayerId(c.player)), c.said()))
            .collect();
        let line = (!said.is_empty()).then(|| format!("**Ratings**: {}", said.join(" · ")));
        self.card_with(game, view, line)
    }
}
