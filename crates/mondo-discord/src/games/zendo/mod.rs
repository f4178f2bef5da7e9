//! Zendo on Discord (the Duel and solo practice): its commands (`/zendo ...`,
//! `/koan`, `/guess`, `/pass`, `/endturn`), its button verbs, and its posts. The words
//! are `narrate::zendo`'s; this adds pictures, buttons and Discord's clocks.

pub mod ai;
pub mod buttons;
pub mod classic;
mod clocks;
mod common;
pub mod duel;
pub mod ids;
pub mod posts;
pub mod practice;
pub mod settings;
pub mod sketch;
pub mod tournament;
pub mod triple;
mod turn;
pub mod why;

pub use crate::kit::SetChoice;
pub use classic::{back, classic, classic_settings, leave};
pub use common::{NO_MATCH, settings_of};
pub use posts::{Voice, answer_post, batch, opening};
pub use settings::{draw, effective, settings};
pub use sketch::sketch;
pub use triple::{answer, triple, triple_settings};
pub use turn::{endturn, guess, koan, pass};

use crate::kit::challenge::{Made, Offer};
use crate::kit::start::{challenge, private_status, refused_busy, start};
use crate::kit::{my_match, play, reply};
use crate::koan::PieceSet;
use crate::post::Post;
use crate::rules::zendo::classic::ClassicMove;
use crate::rules::zendo::practice::NO_CHALLENGE;
use crate::rules::zendo::triple::TripleMove;
use crate::rules::zendo::triple::letters;
use crate::rules::zendo::{DuelMove, Mode, PracticeMove, PracticeSetup, Settings, ZendoMove};
use crate::rules::{GameKind, PlayerId, Viewer};
use crate::runtime::{AnyAction, Common, Place};
use crate::store::MatchRecord;
use crate::{Context, Error, is_host};
use poise::serenity_prelude as serenity;
use rand::RngExt;

/// Zendo: duels, solo practice, and the state of your match.
#[poise::command(
    slash_command,
    subcommands(
        "duel",
        "practice",
        "triple",
        "classic",
        "answer",
        "status",
        "board",
        "sketch",
        "resign",
        "leave",
        "back",
        "triple_settings",
        "classic_settings"
    ),
    subcommand_required
)]
pub async fn zendo(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Challenge someone to a Zendo duel (Death Match rules: turns, tickets, clocks).
///
/// The umpire hides a pattern and shows a structure that obeys it and one that does
/// not. The one you challenge has the advantage and chooses who starts. Each turn:
/// build a structure (`/koan`, observe or challenge) or `/pass`, then guess with
/// tickets (`/guess`). A guess wins only when the umpire proves it equivalent.
#[poise::command(slash_command, guild_only)]
pub async fn duel(
    ctx: Context<'_>,
    #[description = "Who you challenge (they choose who starts)"] opponent: serenity::User,
    #[description = "Where the pattern comes from: pyramids (default), generated, or a server pool"]
    pool: Option<String>,
    #[description = "Host only: the id of the pattern in the pool"]
    #[rename = "pattern-id"]
    pattern_id: Option<String>,
    #[description = "Host only: who chooses who starts (default: the one challenged)"]
    advantage: Option<serenity::User>,
    #[description = "Host only: who plays against the opponent (you only set the duel up)"]
    player: Option<serenity::User>,
    #[description = "Against @Mondo (the AI student): its strength (default: the server's)"]
    level: Option<ai::LevelChoice>,
) -> Result<(), Error> {
    let bot = ctx.data();
    let guild = ctx.guild_id().map(|g| g.get());
    let channel = ctx.channel_id().get();
    let host = ctx.author().id.get();
    let me = player.as_ref().map_or(host, |u| u.id.get());
    // The bot's own user is the AI student: its seat is an AI seat of that strength.
    let against_ai = opponent.id == ctx.framework().bot_id();
    let them = if against_ai {
        let level = level.map_or_else(|| ai::default_level(bot), Into::into);
        ai::seat(level, 0).0
    } else {
        opponent.id.get()
    };
    let settings = effective(bot, guild).await?;
    if player.as_ref().is_some_and(|u| u.bot) {
        return reply(ctx, Post::private("bots cannot play: name a person")).await;
    }
    if level.is_some() && !against_ai {
        return reply(
            ctx,
            Post::private("`level` is the AI student's strength: use it with `opponent:@Mondo`"),
        )
        .await;
    }
    if them == me {
        return reply(ctx, Post::private("a duel needs two different players")).await;
    }
    if opponent.bot && !against_ai {
        return reply(
            ctx,
            Post::private("bots cannot play: challenge a person (or try `/zendo practice`)"),
        )
        .await;
    }
    if (pattern_id.is_some() || advantage.is_some() || player.is_some())
        && !is_host(ctx.author_member().await.as_deref(), settings.host_role)
    {
        return reply(
            ctx,
            Post::private(
                "only a host (Manage Server, or the host role) may pick the pattern, the \
                 advantage or the players: a player who picked the pattern would know it",
            ),
        )
        .await;
    }
    if pattern_id.is_some() && (host == me || host == them) {
        // A host picks the pattern for other players' duel, never for their own.
        return reply(
            ctx,
            Post::private(
                "you would play against a pattern you picked: to pick it, set up a duel \
                 between two others (`player` and `opponent`); to play, leave `pattern-id` \
                 out and the pattern is drawn",
            ),
        )
        .await;
    }
    let advantage = match advantage.as_ref() {
        // The AI seat is nobody's user: @Mondo names it.
        Some(u) if against_ai && u.id == ctx.framework().bot_id() => Ok(them),
        _ => common::advantage_of(advantage.as_ref(), me, them),
    };
    let advantage = match advantage {
        Ok(a) => a,
        Err(e) => return reply(ctx, Post::private(e)).await,
    };
    // From here to the match's creation, no other duel may be set up in this channel
    // (drawing and the DM checks take a while).
    let Some(_setting_up) = bot.setting_up(channel, 0) else {
        return reply(
            ctx,
            Post::private("a duel is being set up in this channel right now: wait for it"),
        )
        .await;
    };
    if !duels_in(bot, channel).await?.is_empty() {
        return reply(
            ctx,
            Post::private(
                "a duel is already running in this channel: finish it, or start yours in \
                 another channel",
            ),
        )
        .await;
    }
    // The AI student may play in several channels at once.
    if refused_busy(
        ctx,
        [me, if against_ai { me } else { them }],
        "/zendo status",
    )
    .await?
    {
        return Ok(());
    }
    // A pool or pattern someone chose is recorded: a player's makes the match unrated
    // (docs/ratings.md, "Fair play"); a host who does not play may choose.
    let chosen = (pool.as_ref().is_some_and(|p| p.trim() != settings.pool) || pattern_id.is_some())
        .then_some(host);
    let pool_name = pool.unwrap_or_else(|| settings.pool.clone());
    let seed: u64 = rand::rng().random();
    // Drawing may generate a pattern and the DM checks talk to Discord: defer, so the
    // 3-second deadline for the first response is never missed.
    ctx.defer().await?;
    let drawn = match draw(
        bot,
        guild,
        &pool_name,
        pattern_id.as_deref(),
        PieceSet::Pyramids,
        seed,
    )
    .await
    {
        Ok(x) => x,
        Err(e) => return reply(ctx, Post::text(format!("no duel: {e}"))).await,
    };
    let players = [PlayerId(me), PlayerId(them)];
    let setup = settings::duel_setup(players, PlayerId(advantage), drawn, &settings, seed);
    let made = Made::new(
        guild,
        channel,
        me,
        them,
        Offer {
            title: "Zendo Duel".into(),
            setup: setup.into(),
            chosen,
            hellos: Vec::new(),
            no_dm: String::new(),
            // One duel at a time in a channel.
            one_per_channel: true,
        },
    );
    challenge(ctx, made, against_ai, "Zendo duel").await
}

/// Practise alone against the umpire: build structures and guess; no clock, no tickets.
///
/// Your score is the number of structures you built plus the guesses you made
/// official: lower is better. Works in a server channel or in a DM with the bot.
#[poise::command(slash_command)]
pub async fn practice(
    ctx: Context<'_>,
    #[description = "Where the pattern comes from: pyramids/arrows (default: the set's), generated, or a server pool"]
    pool: Option<String>,
    #[description = "The pieces: pyramids (default) or arrows"] set: Option<SetChoice>,
) -> Result<(), Error> {
    let bot = ctx.data();
    let guild = ctx.guild_id().map(|g| g.get());
    let channel = ctx.channel_id().get();
    let me = ctx.author().id.get();
    let Some(_setting_up) = bot.setting_up(channel, me) else {
        return reply(
            ctx,
            Post::private("your practice is being set up right now: a moment"),
        )
        .await;
    };
    if bot.match_of(channel, me).await?.is_some() {
        return reply(
            ctx,
            Post::private(
                "you are already playing a match in this channel: `/zendo status`, or \
                 `/zendo resign` to give up",
            ),
        )
        .await;
    }
    let settings = effective(bot, guild).await?;
    let set = match set {
        Some(SetChoice::Arrows) => PieceSet::Arrows,
        _ => PieceSet::Pyramids,
    };
    let pool_name = pool.unwrap_or_else(|| match set {
        PieceSet::Arrows => "arrows".into(),
        PieceSet::Pyramids => settings.pool.clone(),
    });
    let seed: u64 = rand::rng().random();
    ctx.defer().await?;
    let (hidden, initial) = match draw(bot, guild, &pool_name, None, set, seed).await {
        Ok(x) => x,
        Err(e) => return reply(ctx, Post::text(format!("no practice: {e}"))).await,
    };
    let setup = PracticeSetup {
        player: PlayerId(me),
        hidden,
        initial,
        settings: Settings {
            set,
            style: settings.style,
        },
        seed,
    };
    let place = Place {
        guild,
        channel: Some(channel),
    };
    let game = bot.runtime.create(place, setup.into()).await?;
    start(ctx, game, channel, |_| {}).await
}

/// Your match here: whose move, the clocks, the tickets or stones (only you see it).
#[poise::command(slash_command)]
pub async fn status(ctx: Context<'_>) -> Result<(), Error> {
    private_status(ctx, NO_MATCH).await
}

/// Every structure of your match in one picture, marked, with the guesses so far.
#[poise::command(slash_command)]
pub async fn board(ctx: Context<'_>) -> Result<(), Error> {
    let Some(record) = my_match(ctx, NO_MATCH).await? else {
        return Ok(());
    };
    let view = ctx
        .data()
        .runtime
        .view(record.id, &Viewer::Spectator)
        .await?;
    reply(ctx, ctx.data().fronts.board(record.id, &view)).await
}

/// Give up (the pattern is revealed); before a duel starts, decline it (no winner).
///
/// In a duel under way your opponent wins. Before the starter is chosen, this declines
/// the duel, or withdraws your challenge: nobody wins or loses.
#[poise::command(slash_command)]
pub async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, NO_MATCH, |_| Ok(AnyAction::Common(Common::Resign))).await
}

/// A structure as typed (`/koan`, the koan box), read for the match's piece set, as
/// the move that builds it: observed or challenged in a duel; practice has no
/// challenges. `patterns` names a Triple's patterns (`A`, `A,C`, `bc`; none: every
/// unsolved one); the other games have one pattern and refuse it.
pub fn build(
    text: &str,
    mode: Mode,
    patterns: Option<&str>,
    record: &MatchRecord,
) -> Result<AnyAction, String> {
    let named = patterns.map(letters).transpose()?.unwrap_or_default();
    if record.game() == Ok(GameKind::ZendoTriple) {
        return triple::build(text, mode, named);
    }
    if patterns.is_some() {
        return Err(
            "`patterns` names Zendo Triple's patterns (A, B, C); this match has one pattern: \
             leave it out"
                .into(),
        );
    }
    let koan = crate::narrate::zendo::read_structure(text, settings_of(record).set)?;
    match (record.game(), mode) {
        (Ok(GameKind::ZendoDuel), _) => Ok(DuelMove::Build { koan, mode }.into()),
        (Ok(GameKind::ZendoPractice), Mode::Observe) => Ok(PracticeMove::Build { koan }.into()),
        (Ok(GameKind::ZendoPractice), Mode::Challenge) => Err(NO_CHALLENGE.into()),
        (Ok(GameKind::ZendoClassic), mode) => Ok(classic::build(koan, mode)),
        #[allow(unreachable_patterns)]
        _ => Err("that match is not a Zendo match: `/zendo status` says which it is".into()),
    }
}

/// A move every Zendo mode means the same way (a button, `/endturn`, a host's
/// disallow), as the match's mode takes it; a mode without it (practice has no turns,
/// Classic no starter to choose) refuses it in its rules.
pub fn shared(record: &MatchRecord, m: ZendoMove) -> Result<AnyAction, String> {
    match record.game() {
        Ok(GameKind::ZendoDuel) => Ok(DuelMove::from(m).into()),
        Ok(GameKind::ZendoPractice) => Ok(PracticeMove::from(m).into()),
        Ok(GameKind::ZendoTriple) => Ok(TripleMove::from(m).into()),
        Ok(GameKind::ZendoClassic) => Ok(ClassicMove::from(m).into()),
        #[allow(unreachable_patterns)]
        _ => Err("that is a Zendo move, and this match is not Zendo".into()),
    }
}

/// A guess at the one hidden pattern (Duel, practice, Classic); a Triple's names its
/// pattern ([`triple::guess`]).
pub fn one_pattern_guess(
    record: &MatchRecord,
    pattern: &crate::lang::Pattern,
) -> Result<AnyAction, String> {
    let pattern = pattern.clone();
    match record.game() {
        Ok(GameKind::ZendoDuel) => Ok(DuelMove::Guess { pattern }.into()),
        Ok(GameKind::ZendoPractice) => Ok(PracticeMove::Guess { pattern }.into()),
        Ok(GameKind::ZendoClassic) => Ok(ClassicMove::Guess { pattern }.into()),
        Ok(GameKind::ZendoTriple) => Err(triple::NAME_THE_PATTERN.into()),
        #[allow(unreachable_patterns)]
        _ => Err("that is a Zendo move, and this match is not Zendo".into()),
    }
}

/// Skipping step 1 (`/pass`): the duel's move; the other modes say what they have
/// instead.
pub fn skip(record: &MatchRecord) -> Result<AnyAction, String> {
    match record.game() {
        Ok(GameKind::ZendoDuel) => Ok(DuelMove::Skip.into()),
        Ok(GameKind::ZendoPractice) => Err(crate::rules::zendo::practice::NO_TURNS.into()),
        Ok(GameKind::ZendoTriple) => Err(triple::NO_SKIP.into()),
        Ok(GameKind::ZendoClassic) => Err(classic::NO_PASS.into()),
        #[allow(unreachable_patterns)]
        _ => Err("that is a Zendo move, and this match is not Zendo".into()),
    }
}

/// The live duels in `channel`.
async fn duels_in(bot: &crate::Bot, channel: u64) -> Result<Vec<MatchRecord>, Error> {
    bot.live_of(channel, GameKind::ZendoDuel.name()).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Action;
    use crate::store::{MatchId, Status};

    fn record(kind: GameKind, set: &str) -> MatchRecord {
        MatchRecord {
            id: MatchId(1),
            kind: kind.name().into(),
            guild: None,
            channel: Some(2),
            seed: 3,
            settings: format!(r#"{{"set":"{set}"}}"#),
            status: Status::Live,
            players: vec![4, 5],
            created_at: 0,
            last_seq: 0,
            last_at: 0,
            created: String::new(),
        }
    }

    #[test]
    fn a_typed_structure_becomes_each_games_build_and_only_a_triple_takes_patterns() {
        let duel = record(GameKind::ZendoDuel, "pyramids");
        assert!(matches!(
            build("1^ 2>", Mode::Challenge, None, &duel),
            Ok(AnyAction::ZendoDuel(Action::Move(DuelMove::Build {
                mode: Mode::Challenge,
                ..
            })))
        ));
        let refused = build("1^ 2>", Mode::Observe, Some("A"), &duel).unwrap_err();
        assert!(refused.contains("leave it out"), "{refused}");
        let practice = record(GameKind::ZendoPractice, "pyramids");
        assert_eq!(
            build("1^", Mode::Challenge, None, &practice).unwrap_err(),
            NO_CHALLENGE
        );
        let triple = record(GameKind::ZendoTriple, "arrows");
        match build("U R", Mode::Challenge, Some("a,c"), &triple) {
            Ok(AnyAction::ZendoTriple(Action::Move(TripleMove::Build { patterns, .. }))) => {
                assert_eq!(patterns, letters("AC").unwrap())
            }
            other => panic!("{other:?}"),
        }
        assert!(build("U R", Mode::Observe, Some("Z"), &triple).is_err());
    }

    #[test]
    fn a_shared_move_is_built_once_for_every_mode_and_pass_is_the_duels() {
        let starter = ZendoMove::ChooseStarter {
            starter: PlayerId(4),
        };
        let m = |kind| shared(&record(kind, "pyramids"), ZendoMove::Disallow);
        assert!(matches!(
            m(GameKind::ZendoDuel),
            Ok(AnyAction::ZendoDuel(Action::Move(DuelMove::Zendo(
                ZendoMove::Disallow
            ))))
        ));
        assert!(matches!(
            m(GameKind::ZendoPractice),
            Ok(AnyAction::ZendoPractice(Action::Move(PracticeMove::Zendo(
                ZendoMove::Disallow
            ))))
        ));
        assert!(matches!(
            m(GameKind::ZendoClassic),
            Ok(AnyAction::ZendoClassic(Action::Move(ClassicMove::Zendo(
                ZendoMove::Disallow
            ))))
        ));
        match shared(&record(GameKind::ZendoTriple, "arrows"), starter) {
            Ok(AnyAction::ZendoTriple(Action::Move(TripleMove::Zendo(m)))) => {
                assert_eq!(m, starter)
            }
            other => panic!("{other:?}"),
        }
        let pass = |kind| skip(&record(kind, "pyramids"));
        assert!(matches!(
            pass(GameKind::ZendoDuel),
            Ok(AnyAction::ZendoDuel(Action::Move(DuelMove::Skip)))
        ));
        assert_eq!(
            pass(GameKind::ZendoPractice).unwrap_err(),
            crate::rules::zendo::practice::NO_TURNS
        );
        assert_eq!(pass(GameKind::ZendoTriple).unwrap_err(), triple::NO_SKIP);
        assert_eq!(pass(GameKind::ZendoClassic).unwrap_err(), classic::NO_PASS);
        let p = crate::rules::zendo::testing::parsed("some piece points up");
        let classic = record(GameKind::ZendoClassic, "pyramids");
        assert!(matches!(
            one_pattern_guess(&classic, &p),
            Ok(AnyAction::ZendoClassic(Action::Move(
                ClassicMove::Guess { .. }
            )))
        ));
    }
}
