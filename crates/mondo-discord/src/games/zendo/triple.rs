//! Zendo Triple on Discord: `/zendo triple` (start), the Triple's parts of `/koan`
//! (`patterns`) and `/guess` (`on`), `/zendo answer` (a challenge or a quiz round in
//! words), the challenge's answer buttons, and its posts (opening, batches, status,
//! board). The words are `narrate::zendo::triple`'s; this adds pictures (each structure with
//! three lettered stones), buttons and Discord's clocks.
//!
//! Challenge answers are built one press at a time: each button's id carries the
//! whole sheet as it would stand after the press ([`Press::Sheet`]), so nothing is
//! remembered between presses and the buttons survive a restart; the sheet goes to the
//! umpire once every challenged pattern has an answer (and again after each change,
//! until the reveal).

use super::clocks::{Clock, Stored};
use super::common::{NO_MATCH, advantage_of};
use super::ids::{Press, match_button};
use super::settings::effective;
use crate::finder::Limits;
use crate::kit::challenge::{Made, Offer};
use crate::kit::start::{challenge, refused_busy};
use crate::kit::{Dms, GameBot, Said, my_match, reply};
use crate::koan::{Koan, PieceSet};
use crate::lang::Pattern;
use crate::narrate::zendo::triple::{status as status_line, tell};
use crate::narrate::zendo::{guess_line, listed_guesses, read_structure};
use crate::narrate::{Names, clock_text};
use crate::post::{Button, Post};
use crate::render::{self, BoardEntry};
use crate::rules::zendo::triple::section::TripleConfig;
use crate::rules::zendo::triple::{
    Event, Letter, PhaseView, StepView, TripleEntry, TripleEvent, TripleMove, TripleOrigin,
    TripleSetup, TripleTiming, TripleView, opening::triple_opening,
};
use crate::rules::zendo::{Answer, Mode, Settings, ZendoEvent};
use crate::rules::{Actor, EventKind, GameKind, PlayerId, Viewer};
use crate::runtime::{AnyAction, AnyEvent, AnyView, events_of};
use crate::say::Clocks;
use crate::store::{MatchId, MatchRecord};
use crate::{Bot, Context, Error, is_host, refusal};
use poise::serenity_prelude as serenity;
use rand::RngExt;

/// One of Zendo Triple's hidden patterns, as a slash command choice.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum LetterChoice {
    #[name = "A"]
    A,
    #[name = "B"]
    B,
    #[name = "C"]
    C,
}

impl From<LetterChoice> for Letter {
    fn from(c: LetterChoice) -> Letter {
        match c {
            LetterChoice::A => Letter::A,
            LetterChoice::B => Letter::B,
            LetterChoice::C => Letter::C,
        }
    }
}

/// Challenge someone to Zendo Triple: three hidden arrows patterns, first to solve two.
///
/// The umpire hides patterns A, B and C and shows a structure that obeys all three and
/// one that obeys as few as possible. The one you challenge has the advantage and
/// chooses who starts. Each turn: build a
/// structure if you like (`/koan`, graded or challenged on the patterns you name), guess
/// a pattern with a stone (`/guess ... on: A`), `/endturn`. After two hours of play a
/// quiz decides the patterns left.
#[poise::command(slash_command, guild_only)]
pub async fn triple(
    ctx: Context<'_>,
    #[description = "Who you challenge (they choose who starts)"] opponent: serenity::User,
    #[description = "Where the three patterns come from: arrows (default) or a server pool"]
    pool: Option<String>,
    #[description = "Host only: the seed that draws the patterns (a player who knew it could work them out)"]
    seed: Option<u64>,
    #[description = "Host only: who plays against the opponent (you only set the match up)"]
    player: Option<serenity::User>,
    #[description = "Host only: who chooses who starts (default: the one challenged)"]
    advantage: Option<serenity::User>,
    #[description = "Against @Mondo (the AI student): its strength (default: the server's)"]
    level: Option<super::ai::LevelChoice>,
) -> Result<(), Error> {
    let bot = ctx.data();
    let guild = ctx.guild_id().map(|g| g.get());
    let channel = ctx.channel_id().get();
    let host = ctx.author().id.get();
    let me = player.as_ref().map_or(host, |u| u.id.get());
    // The bot's own user is the AI student: its seat is an AI seat of that strength.
    let against_ai = opponent.id == ctx.framework().bot_id();
    let them = if against_ai {
        let level = level.map_or_else(|| super::ai::default_level(bot), Into::into);
        super::ai::seat(level, 0).0
    } else {
        opponent.id.get()
    };
    if them == me {
        return reply(ctx, Post::private("a Triple needs two different players")).await;
    }
    if level.is_some() && !against_ai {
        return reply(
            ctx,
            Post::private("`level` is the AI student's strength: use it with `opponent:@Mondo`"),
        )
        .await;
    }
    if (opponent.bot && !against_ai) || player.as_ref().is_some_and(|u| u.bot) {
        return reply(ctx, Post::private("bots cannot play: name a person")).await;
    }
    let settings = effective(bot, guild).await?;
    if (seed.is_some() || player.is_some() || advantage.is_some())
        && !is_host(ctx.author_member().await.as_deref(), settings.host_role)
    {
        return reply(
            ctx,
            Post::private(
                "only a host (Manage Server, or the host role) may pick the seed, the \
                 advantage or the players: a player who knew the seed could work the \
                 patterns out",
            ),
        )
        .await;
    }
    let advantage = match advantage.as_ref() {
        // The AI seat is nobody's user: @Mondo names it.
        Some(u) if against_ai && u.id == ctx.framework().bot_id() => Ok(them),
        _ => advantage_of(advantage.as_ref(), me, them),
    };
    let advantage = match advantage {
        Ok(a) => a,
        Err(e) => return reply(ctx, Post::private(e)).await,
    };
    if seed.is_some() && (host == me || host == them) {
        return reply(
            ctx,
            Post::private(
                "you would play against patterns you could work out from the seed: to pick \
                 it, set up a Triple between two others (`player` and `opponent`)",
            ),
        )
        .await;
    }
    // A pool or seed someone chose is recorded: a player's makes the match unrated
    // (docs/ratings.md, "Fair play"); a host who does not play may choose.
    let chosen = (pool
        .as_ref()
        .is_some_and(|p| !p.trim().eq_ignore_ascii_case("arrows"))
        || seed.is_some())
    .then_some(host);
    let name = pool.unwrap_or_else(|| "arrows".into()).trim().to_string();
    if name.eq_ignore_ascii_case("generated") || name.eq_ignore_ascii_case("pyramids") {
        return reply(
            ctx,
            Post::private(
                "a Triple draws its three arrows patterns from a pool: `arrows` (the \
                 default) or a server pool with arrows patterns (`/pool list`)",
            ),
        )
        .await;
    }
    let Some(_setting_up) = bot.setting_up(channel, 0) else {
        return reply(
            ctx,
            Post::private("a match is being set up in this channel right now: wait for it"),
        )
        .await;
    };
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
    let seed = seed.unwrap_or_else(|| rand::rng().random());
    // Drawing runs the finder (three comparisons, two searches) and the DM checks talk
    // to Discord: defer, so the 3-second deadline for the first response is kept.
    ctx.defer().await?;
    let (hidden, opening) = match draw(bot, guild, &name, seed).await {
        Ok(x) => x,
        Err(e) => return reply(ctx, Post::text(format!("no Triple: {e}"))).await,
    };
    let setup = TripleSetup {
        players: [PlayerId(me), PlayerId(them)],
        starter: None,
        advantage: Some(PlayerId(advantage)),
        hidden: Box::new(hidden),
        opening: Box::new(opening),
        settings: Settings {
            set: PieceSet::Arrows,
            style: settings.style,
        },
        timing: timing(
            &bot.config.games.ZendoTriple,
            &super::clocks::stored(bot, guild, GameKind::ZendoTriple).await?,
        ),
        seed,
    };
    let made = Made::new(
        guild,
        channel,
        me,
        them,
        Offer {
            title: "Zendo Triple".into(),
            setup: setup.into(),
            chosen,
            hellos: Vec::new(),
            no_dm: String::new(),
            one_per_channel: false,
        },
    );
    challenge(ctx, made, against_ai, "Zendo Triple").await
}

/// The clocks a host may set for Triple, with the config's values and ranges.
fn clocks(c: &TripleConfig) -> [Clock; 5] {
    use crate::rules::zendo::duel::section::{CHALLENGE_SECS, GUESS_BONUS_SECS, TURN_SECS};
    use crate::rules::zendo::triple::section::{PLAY_SECS, QUIZ_SECS};
    [
        Clock::new("turn_ms", "turn", c.turn_secs, TURN_SECS),
        Clock::new(
            "challenge_ms",
            "challenge time",
            c.challenge_secs,
            CHALLENGE_SECS,
        ),
        Clock::new(
            "counterexample_bonus_ms",
            "counterexample bonus",
            c.counterexample_bonus_secs,
            GUESS_BONUS_SECS,
        ),
        Clock::new("game_ms", "play before the quiz", c.play_secs, PLAY_SECS),
        Clock::new("quiz_ms", "quiz round", c.quiz_secs, QUIZ_SECS),
    ]
}

/// A new Triple's clocks in a server: its own, else the config's.
pub fn timing(c: &TripleConfig, stored: &Stored) -> TripleTiming {
    let [
        turn_ms,
        challenge_ms,
        counterexample_bonus_ms,
        game_ms,
        quiz_ms,
    ] = clocks(c).map(|k| k.ms(stored));
    TripleTiming {
        turn_ms,
        challenge_ms,
        counterexample_bonus_ms,
        game_ms,
        quiz_ms,
    }
}

/// Hosts: this server's Zendo Triple clocks (without options, shows them).
///
/// New Triples use them; running ones keep theirs. The config's `[triple]` values
/// apply where the server set none.
#[poise::command(slash_command, guild_only, rename = "triple-settings")]
#[allow(clippy::too_many_arguments)]
pub async fn triple_settings(
    ctx: Context<'_>,
    #[description = "Seconds per turn (10-3600; the rules say 180)"]
    #[min = 10]
    #[max = 3600]
    turn_secs: Option<u32>,
    #[description = "Seconds to answer a challenge (5-600; the rules say 60)"]
    #[min = 5]
    #[max = 600]
    challenge_secs: Option<u32>,
    #[description = "Seconds added per counterexample (0-600; the rules say 30)"]
    #[min = 0]
    #[max = 600]
    counterexample_bonus_secs: Option<u32>,
    #[description = "Seconds of play before the quiz (600-86400; the rules say 7200)"]
    #[min = 600]
    #[max = 86400]
    play_secs: Option<u32>,
    #[description = "Seconds per quiz round (30-3600; 300 by default)"]
    #[min = 30]
    #[max = 3600]
    quiz_secs: Option<u32>,
    #[description = "Put every Triple clock back to the bot's defaults"] reset: Option<bool>,
) -> Result<(), Error> {
    let given = [
        turn_secs,
        challenge_secs,
        counterexample_bonus_secs,
        play_secs,
        quiz_secs,
    ];
    let clocks = clocks(&ctx.data().config.games.ZendoTriple);
    super::clocks::command(ctx, GameKind::ZendoTriple, &clocks, &given, reset).await
}

/// The three patterns and the opening, from a pool, off the async threads.
pub(super) async fn draw(
    bot: &Bot,
    guild: Option<u64>,
    name: &str,
    seed: u64,
) -> Result<([Pattern; 3], crate::rules::zendo::triple::TripleOpening), String> {
    let pool = bot.load_pool(guild, name).await?;
    let name = name.to_string();
    tokio::task::spawn_blocking(move || {
        triple_opening(&[], &pool, seed, &Limits::default())
            .map_err(|e| format!("the pool `{name}`: {e}"))
    })
    .await
    .map_err(|e| format!("drawing the patterns failed: {e}"))?
}

/// `/koan` in a Triple: a structure of arrows, on the `named` patterns (none: every
/// unsolved one).
pub fn build(text: &str, mode: Mode, named: Vec<Letter>) -> Result<AnyAction, String> {
    Ok(TripleMove::Build {
        koan: read_structure(text, PieceSet::Arrows)?,
        mode,
        patterns: named,
    }
    .into())
}

/// `/guess` in a Triple (`Some`): the pattern named with `on`. `None` for the other
/// games, which refuse `on`.
pub fn guess(
    record: &MatchRecord,
    on: Option<LetterChoice>,
    guess: &Pattern,
) -> Option<Result<AnyAction, String>> {
    match (record.game(), on) {
        (Ok(GameKind::ZendoTriple), Some(on)) => Some(Ok(TripleMove::Guess {
            pattern: on.into(),
            guess: guess.clone(),
        }
        .into())),
        (Ok(GameKind::ZendoTriple), None) => Some(Err(NAME_THE_PATTERN.into())),
        (_, Some(_)) => Some(Err(
            "`on` names one of Zendo Triple's patterns; this match has one pattern: leave it \
             out"
            .into(),
        )),
        (_, None) => None,
    }
}

/// What `/pass` says in a Triple: nothing to skip.
pub const NO_SKIP: &str = "in Zendo Triple, building a structure is optional and skipping it \
                           costs nothing: guess with `/guess`, or end your turn with `/endturn`";

/// What a guess without its pattern says in a Triple.
pub const NAME_THE_PATTERN: &str =
    "say which pattern you guess: `/guess pattern: ... on: A` (A, B or C, unsolved)";

/// Zendo Triple: answer privately, a challenge (A obeys B not) or a quiz round.
///
/// A challenge: `A obeys B not C pass` (each challenged pattern). A quiz round:
/// `obeys not pass ...`, one per question in order. Only you see your answers until the reveal; you may answer again to change them
/// until then. The answer buttons (by DM, or *Answer privately*) do the same.
#[poise::command(slash_command)]
pub async fn answer(
    ctx: Context<'_>,
    #[description = "A challenge: A obeys B not C pass; a quiz round: obeys not pass ... in order"]
    answers: String,
) -> Result<(), Error> {
    let Some(record) = my_match(ctx, NO_MATCH).await? else {
        return Ok(());
    };
    let bot = ctx.data();
    let user = PlayerId(ctx.author().id.get());
    let view = bot.runtime.view(record.id, &Viewer::Player(user)).await?;
    let AnyView::ZendoTriple(v) = view else {
        return reply(
            ctx,
            Post::private(
                "`/zendo answer` answers Zendo Triple's challenges and quiz; a duel's challenge \
                 is answered with its buttons",
            ),
        )
        .await;
    };
    let m = match &v.phase {
        PhaseView::Turn {
            step: StepView::Challenge { patterns, .. },
            ..
        } => crate::play::games::zendo::triple::read_answers(&answers, patterns).map(|a| {
            let said = patterns
                .iter()
                .zip(&a)
                .map(|(l, a)| format!("{l} {a}"))
                .collect::<Vec<_>>()
                .join(", ");
            (TripleMove::Answer { answers: a }, said)
        }),
        PhaseView::Quiz { .. } => answers
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(str::parse::<Answer>)
            .collect::<Result<Vec<_>, _>>()
            .map(|a| {
                let said = a
                    .iter()
                    .enumerate()
                    .map(|(i, a)| format!("{}. {a}", i + 1))
                    .collect::<Vec<_>>()
                    .join(", ");
                (TripleMove::QuizAnswer { answers: a }, said)
            }),
        _ => Err("there is no challenge or quiz to answer now".into()),
    };
    let (m, said) = match m {
        Ok(x) => x,
        Err(e) => return reply(ctx, Post::private(e)).await,
    };
    let done = bot
        .runtime
        .act(record.id, Actor::Player(user), m.into(), None)
        .await;
    reply(
        ctx,
        Post::private(match done {
            Ok(_) => answers_in(record.id, &said),
            Err(e) => refusal(&e),
        }),
    )
    .await
}

fn answers_in(game: MatchId, said: &str) -> String {
    format!(
        "Your answers in match #{game} are in: **{said}**. They stay private until both \
         players have answered or time is up; you may change them until then."
    )
}

/// A press on a challenge's answer button: the sheet so far, or (complete) the
/// answers given, with the buttons again to change them.
pub async fn on_sheet(
    bot: &Bot,
    game: MatchId,
    user: PlayerId,
    sheet: [Option<Answer>; 3],
    shown: Option<u64>,
) -> Post {
    let v = match bot.runtime.view(game, &Viewer::Player(user)).await {
        Ok(AnyView::ZendoTriple(v)) if v.you.is_some() => v,
        Ok(_) => return Post::private("only the two players of this Triple answer its challenges"),
        Err(e) => return Post::private(format!("Mondo could not find that match: {e}")),
    };
    let PhaseView::Turn {
        step: StepView::Challenge { patterns, .. },
        ..
    } = &v.phase
    else {
        return Post::private("no challenge is waiting for answers now");
    };
    let given: Vec<String> = patterns
        .iter()
        .filter_map(|l| sheet[l.index()].map(|a| format!("{l} {a}")))
        .collect();
    let missing: Vec<String> = patterns
        .iter()
        .filter(|l| sheet[l.index()].is_none())
        .map(Letter::to_string)
        .collect();
    let mut post = if missing.is_empty() {
        let answers = patterns
            .iter()
            .map(|l| sheet[l.index()].unwrap_or(Answer::Pass))
            .collect();
        let m = TripleMove::Answer { answers };
        match bot
            .runtime
            .act(game, Actor::Player(user), m.into(), shown)
            .await
        {
            Ok(_) => Post::text(answers_in(game, &given.join(", "))),
            Err(e) => return Post::private(refusal(&e)),
        }
    } else {
        Post::text(format!(
            "So far: {}. Still to answer: {} (nothing is sent until every pattern has an \
             answer).",
            if given.is_empty() {
                "nothing".to_string()
            } else {
                given.join(", ")
            },
            missing.join(", ")
        ))
    };
    for row in sheet_buttons(game, v.version, patterns, sheet) {
        post.buttons(row);
    }
    post.ephemeral = true;
    post
}

/// One row per challenged pattern: obeys, does not, no answer; each button's id is the
/// sheet with that answer put in.
fn sheet_buttons(
    game: MatchId,
    version: u64,
    patterns: &[Letter],
    sheet: [Option<Answer>; 3],
) -> Vec<Vec<Button>> {
    patterns
        .iter()
        .map(|l| {
            [
                (Answer::Obeys, "obeys", serenity::ButtonStyle::Success),
                (Answer::Not, "does not", serenity::ButtonStyle::Danger),
                (Answer::Pass, "no answer", serenity::ButtonStyle::Secondary),
            ]
            .into_iter()
            .map(|(a, words, style)| {
                let mut next = sheet;
                next[l.index()] = Some(a);
                let chosen = if sheet[l.index()] == Some(a) {
                    " ✓"
                } else {
                    ""
                };
                let mut b = match_button(
                    game,
                    version,
                    Press::Sheet(next),
                    format!("{l}: {words}{chosen}"),
                );
                b.style = style;
                b
            })
            .collect()
        })
        .collect()
}

/// What a player answers with, privately: a challenge's buttons, or a quiz round's
/// questions and how to answer them. `None` when nothing waits for answers.
pub fn answer_post(game: MatchId, v: &TripleView, clocks: Clocks) -> Option<Post> {
    let names = Names::mentions(v.players.values());
    let mut post = Post::default();
    match &v.phase {
        PhaseView::Turn {
            seat,
            step:
                StepView::Challenge {
                    koan,
                    patterns,
                    yours,
                    clock,
                    ..
                },
        } => {
            post.line(format!(
                "Zendo Triple #{game}: {} challenges this structure on {}. For each pattern, \
                 does it obey? Your answers stay private until both players have answered or \
                 time is up{}.",
                names.name(*seat),
                list(patterns),
                until(clock, clocks)
            ));
            post.koan(koan, None, None);
            let mut sheet = [None; 3];
            for (l, a) in patterns.iter().zip(yours.iter().flatten()) {
                sheet[l.index()] = Some(*a);
            }
            for row in sheet_buttons(game, v.version, patterns, sheet) {
                post.buttons(row);
            }
        }
        PhaseView::Quiz {
            round,
            questions,
            clock,
            ..
        } => {
            post.line(format!(
                "Zendo Triple #{game}, quiz round {round}: judge each structure on its \
                 pattern, privately, with `/zendo answer` in the match's channel (one answer \
                 per question, in order: obeys, not or pass){}.",
                until(clock, clocks)
            ));
            for (i, q) in questions.iter().enumerate() {
                post.line(format!("{}. {} on {}", i + 1, q.koan.to_line(), q.pattern));
            }
            quiz_picture(&mut post, questions);
        }
        _ => return None,
    }
    Some(post)
}

/// The answer post to send each player by DM after this batch, if it opened a
/// challenge or a quiz round that still waits.
pub fn dm_post(game: MatchId, events: &[AnyEvent], v: &TripleView, clocks: Clocks) -> Option<Post> {
    let events: Vec<Event> = events_of(events);
    let asks = events.iter().any(|e| {
        matches!(
            e.kind,
            EventKind::Game(TripleEvent::ChallengeOpened { .. } | TripleEvent::QuizStarted { .. })
        )
    });
    if !asks {
        return None;
    }
    answer_post(game, v, clocks)
}

fn list(patterns: &[Letter]) -> String {
    patterns
        .iter()
        .map(Letter::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn until(clock: &crate::rules::Clock, clocks: Clocks) -> String {
    clock.expires_at().map_or(String::new(), |at| {
        format!(" (answers close {})", clocks.countdown(at))
    })
}

/// A structure on the table with its three lettered stones.
fn entry_picture(post: &mut Post, e: &TripleEntry) {
    post.files.push((
        format!("koan-{}.png", e.number),
        render::lettered_koan_png(
            &e.koan,
            Some(&format!("#{}", e.number)),
            &render::abc(e.marks),
        ),
    ));
}

/// Every structure on the table in one picture, each with its three stones.
fn table_picture(post: &mut Post, table: &[TripleEntry]) {
    match crate::play::games::zendo::triple::table_png(table) {
        Ok(png) => post.files.push(("board.png".into(), png)),
        Err(e) => post.lines.push(format!("(no picture: {e})")),
    }
}

/// A quiz round's structures, numbered, each with the grey stone of its pattern.
fn quiz_picture(post: &mut Post, questions: &[crate::rules::zendo::triple::Question]) {
    let entries: Vec<BoardEntry> = questions
        .iter()
        .enumerate()
        .map(|(i, q)| BoardEntry {
            koan: &q.koan,
            mark: None,
            label: format!("{}.", i + 1),
        })
        .collect();
    let stones: Vec<[(char, Option<render::Mark>); 1]> = questions
        .iter()
        .map(|q| [(q.pattern.char(), None)])
        .collect();
    let letters: Vec<&render::Lettered> = stones.iter().map(|s| &s[..]).collect();
    match render::lettered_board_png(&entries, &letters) {
        Ok(png) => post.files.push(("quiz.png".into(), png)),
        Err(e) => post.lines.push(format!("(no picture: {e})")),
    }
}

/// The entry a structure became on the table.
fn entry_of<'a>(v: &'a TripleView, koan: &Koan) -> Option<&'a TripleEntry> {
    v.table.iter().find(|e| e.koan == *koan)
}

/// One batch of events as one post: their words, the pictures of what they put on the
/// table, the clock that now runs, and the buttons for the next move.
pub fn batch(
    events: &[AnyEvent],
    v: &TripleView,
    clocks: Clocks,
    game: MatchId,
    no_dm: &[PlayerId],
) -> Post {
    let names = Names::mentions(v.players.values());
    let events: Vec<Event> = events_of(events);
    let mut post = Post::default();
    let mut stones = None;
    let (mut read_guess, mut asked) = (false, false);
    for e in &events {
        for line in tell(&names, std::slice::from_ref(e), v) {
            if line.json["event"] == "stones" {
                stones = Some(line.text);
            } else {
                post.line(discord_words(&names, e, line.text));
            }
        }
        let EventKind::Game(g) = &e.kind else {
            continue;
        };
        match g {
            TripleEvent::Graded { koan, .. } => {
                if let Some(entry) = entry_of(v, koan) {
                    entry_picture(&mut post, entry);
                }
            }
            TripleEvent::ChallengeOpened { koan, .. } => {
                asked = true;
                post.koan(koan, None, None);
            }
            TripleEvent::ChallengeRevealed { .. } => {
                if let Some(entry) = v
                    .table
                    .iter()
                    .rev()
                    .find(|t| matches!(t.origin, TripleOrigin::Challenged { .. }))
                {
                    entry_picture(&mut post, entry);
                }
            }
            TripleEvent::Pattern { zendo, .. } => match zendo {
                ZendoEvent::GuessRead { .. } => read_guess = true,
                ZendoEvent::Refuted {
                    counterexample,
                    on_table,
                    ..
                } => {
                    let entry = match on_table {
                        Some(n) => v.table.iter().find(|t| t.number == *n),
                        None => entry_of(v, &counterexample.koan),
                    };
                    if let Some(entry) = entry {
                        entry_picture(&mut post, entry);
                    }
                }
                _ => {}
            },
            TripleEvent::QuizStarted { questions, .. } => {
                asked = true;
                quiz_picture(&mut post, questions);
            }
            TripleEvent::TripleEnded { .. } => table_picture(&mut post, &v.table),
            _ => {}
        }
    }
    if let Some(line) = stones {
        post.line(line);
    }
    let button = |press, label: &str| match_button(game, v.version, press, label);
    let pending = matches!(
        v.phase,
        PhaseView::Turn {
            step: StepView::Pending { .. },
            ..
        }
    );
    if read_guess && pending {
        post.buttons(vec![
            button(Press::Confirm, "Make it official"),
            button(Press::TakeBack, "Take it back"),
        ]);
    }
    let waiting = matches!(
        v.phase,
        PhaseView::Quiz { .. }
            | PhaseView::Turn {
                step: StepView::Challenge { .. },
                ..
            }
    );
    if asked && waiting {
        super::posts::answer_here(
            &mut post,
            no_dm,
            "answers",
            button(Press::AskHere, "Answer privately"),
        );
    }
    if v.outcome.is_none() && !events.is_empty() {
        post.line(clock_line(&names, v, clocks));
    }
    post
}

/// The terminal's words where Discord is played differently (buttons, slash commands).
fn discord_words(names: &Names, e: &Event, text: String) -> String {
    match &e.kind {
        EventKind::Game(TripleEvent::ChallengeOpened { by, koan, patterns }) => format!(
            "{} challenges {} on {}: both players answer privately, per pattern (answer \
             buttons by DM, *Answer privately* below, or `/zendo answer`); each right answer \
             is a stone",
            names.name(*by),
            koan.to_line(),
            list(patterns)
        ),
        EventKind::Game(TripleEvent::QuizStarted { round, questions }) => format!(
            "**Quiz round {round}**: the time of play is over. {}, each judged on \
             the pattern beside it; both players answer privately with `/zendo answer` (one \
             answer per question, in order: obeys, not or pass). The most right answers on a \
             pattern wins it.\n{}",
            crate::narrate::count(questions.len() as u64, "structure", "structures"),
            questions
                .iter()
                .enumerate()
                .map(|(i, q)| format!("{}. {} on {}", i + 1, q.koan.to_line(), q.pattern))
                .collect::<Vec<_>>()
                .join("\n")
        ),
        EventKind::Game(TripleEvent::Pattern {
            zendo: ZendoEvent::GuessRead { .. },
            ..
        }) => text.replace(
            "`confirm` or `take back`",
            "make it official or take it back (buttons below)",
        ),
        EventKind::Game(TripleEvent::TurnStarted { turn, seat }) => format!(
            "turn {turn}: {} to play (`/koan` if you like, `/guess` with a stone, `/endturn`)",
            names.name(*seat)
        ),
        _ => text,
    }
}

/// The clock that matters now, as a countdown.
fn clock_line(names: &Names, v: &TripleView, clocks: Clocks) -> String {
    let left = clock_text(v.game_clock.remaining(clocks.game));
    match &v.phase {
        _ if v.paused => format!(
            "paused by a host: {} left in the turn, {left} of play",
            clock_text(v.clock.remaining(clocks.game))
        ),
        PhaseView::ChoosingStarter { advantage } => format!(
            "{} has the advantage and chooses who starts: {}",
            names.name(*advantage),
            clocks.clock(&v.clock)
        ),
        PhaseView::Turn {
            step: StepView::Challenge { clock, .. },
            ..
        } => format!("answers: {}", clocks.clock(clock)),
        PhaseView::Turn {
            step: StepView::Verdict { .. },
            ..
        } => "the umpire is judging (the turn clock is stopped)".into(),
        PhaseView::Turn { seat, .. } => format!(
            "{}'s turn: {}; {left} of play left",
            names.name(*seat),
            clocks.clock(&v.clock)
        ),
        PhaseView::Quiz { clock, .. } => format!("quiz answers: {}", clocks.clock(clock)),
        PhaseView::Over => String::new(),
    }
}

/// The opening post: the two opening structures with their stones and who starts.
pub fn opening(game: MatchId, v: &TripleView, clocks: Clocks) -> Post {
    let names = Names::mentions(v.players.values());
    let mut post = Post::default();
    let fewest = v.table.get(1).map(|e| e.marks);
    let second = match fewest {
        Some(m) if m.iter().all(|m| *m == Some(false)) => "#2 obeys none".to_string(),
        Some(m) => format!(
            "no structure obeys none, so #2 obeys as few as any structure can ({}: see its \
             stones)",
            crate::narrate::zendo::triple::marks_text(&m)
        ),
        None => String::new(),
    };
    post.line(format!(
        "**Zendo Triple #{game}**: {} vs {}. The umpire has hidden three arrows patterns, A, \
         B and C; #1 obeys all three, {second}. Stones: white obeys, black does not, grey \
         not graded.",
        names.name(crate::rules::Seat::FIRST),
        names.name(crate::rules::Seat::SECOND),
    ));
    for e in &v.table {
        entry_picture(&mut post, e);
    }
    let t = v.timing;
    post.line(format!(
        "Each turn: build a structure if you like (`/koan`, graded or challenged on the \
         patterns you name), guess a pattern with a stone (`/guess ... on: A`), then \
         `/endturn`. Turns are {}, challenges are answered within {} s, each counterexample \
         adds {} s; after {} of play a quiz decides the patterns left. Solve two to win.",
        clock_text(t.turn_ms),
        t.challenge_ms / 1000,
        t.counterexample_bonus_ms / 1000,
        clock_text(t.game_ms)
    ));
    if let PhaseView::ChoosingStarter { advantage } = v.phase {
        post.line(super::posts::choose_who_starts(
            &names.name(advantage),
            &v.clock,
            clocks,
        ));
        post.buttons(super::posts::starter_buttons(
            game,
            v.version,
            v.players.values(),
            v.players[advantage],
        ));
    } else {
        post.line(clock_line(&names, v, clocks));
    }
    post
}

/// What a viewer may know of a Triple, now.
pub fn status(game: MatchId, v: &TripleView, clocks: Clocks) -> Post {
    let names = Names::mentions(v.players.values());
    let line = status_line(game.0, &names, v, clocks.game);
    let text = line
        .text
        .split_once(": ")
        .map_or(line.text.as_str(), |(_, rest)| rest);
    let mut post = Post::text(format!("**Zendo Triple #{game}**: {text}"));
    if let PhaseView::Turn {
        step:
            StepView::Challenge {
                patterns,
                yours: Some(yours),
                ..
            },
        ..
    } = &v.phase
    {
        let mine: Vec<String> = patterns
            .iter()
            .zip(yours)
            .map(|(l, a)| format!("{l} {a}"))
            .collect();
        post.line(format!("your answers: {}", mine.join(", ")));
    }
    if v.outcome.is_none() {
        post.line(clock_line(&names, v, clocks));
    }
    post.line(format!(
        "{} on the table (`/zendo board` shows them)",
        crate::narrate::count(v.table.len() as u64, "structure", "structures")
    ));
    for line in solved_lines(&names, v) {
        post.line(line);
    }
    post
}

/// Each pattern revealed so far (solved, or all at the end).
fn solved_lines(names: &Names, v: &TripleView) -> Vec<String> {
    Letter::ALL
        .iter()
        .filter_map(|l| {
            let text = v.revealed[l.index()].as_ref()?;
            let by = v.solved[l.index()]
                .map_or(String::new(), |s| format!(", solved by {}", names.name(s)));
            Some(format!("pattern {l}{by}: {text}"))
        })
        .collect()
}

/// Every structure on the table in one picture with its stones, and the guesses.
pub fn board(game: MatchId, v: &TripleView) -> Post {
    let names = Names::mentions(v.players.values());
    let mut post = Post::text(format!(
        "**Match #{game}**: {} (stones A B C: white obeys, black does not, grey not graded)",
        crate::narrate::count(v.table.len() as u64, "structure", "structures")
    ));
    table_picture(&mut post, &v.table);
    for l in Letter::ALL {
        for g in listed_guesses(&v.guesses[l.index()]) {
            post.line(format!("{l}: {}", guess_line(g)));
        }
    }
    for line in solved_lines(&names, v) {
        post.line(line);
    }
    post
}

/// Zendo Triple's Discord side, as the bot's dispatch sees it.
/// The players' page of this game, `/help`'s text for it.
pub const PAGE: &str = include_str!("../../../../../docs/games/triple.md");

pub struct Front;

impl GameBot for Front {
    type View = TripleView;
    type Voice = ();

    fn voice(_: &AnyView, _: &TripleView) {}

    fn batch(_: &mut (), events: &[AnyEvent], _: &AnyView, v: &TripleView, said: Said<'_>) -> Post {
        batch(events, v, said.clocks, said.game, said.no_dm)
    }

    fn opening(game: MatchId, _: &AnyView, v: &TripleView, clocks: Clocks) -> Post {
        opening(game, v, clocks)
    }

    fn status(game: MatchId, _: &AnyView, v: &TripleView, clocks: Clocks) -> Post {
        status(game, v, clocks)
    }

    fn board(game: MatchId, _: &AnyView, v: &TripleView) -> Post {
        board(game, v)
    }

    /// Its AI opponent, if it has one, plays from here (and again after a restart).
    fn on_open(bot: &std::sync::Arc<crate::kit::Bot>, game: MatchId) {
        super::ai::on_open(bot, game);
    }

    /// The players get their answer post by DM when a batch asks them.
    fn dms(game: MatchId, events: &[AnyEvent], v: &TripleView, clocks: Clocks) -> Option<Dms> {
        Some(Dms {
            post: dm_post(game, events, v, clocks)?,
            to: v.players.values().to_vec(),
            fallback: super::posts::ask_here(game, v.version),
        })
    }
}

/// The Triple view inside any view.
pub fn view_of(view: &AnyView) -> Option<&TripleView> {
    match view {
        AnyView::ZendoTriple(v) => Some(v),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::zendo::ids::ButtonId;
    use crate::rules::zendo::testing::{ALICE, BOB, Harness, koan, parsed};
    use crate::rules::zendo::triple::{Triple, TripleOpening};
    use crate::rules::{Game, Seat};
    use crate::say::mention;

    /// What a drawn button does.
    fn press_of(b: &Button) -> Press {
        b.id.parse::<ButtonId>().expect("a Zendo button").press
    }

    const HIDDEN: [&str; 3] = [
        "some piece points up",
        "some piece points right",
        "some piece points left",
    ];

    fn game(game_ms: u64) -> Harness<Triple> {
        Harness::new(TripleSetup {
            players: [ALICE, BOB],
            starter: Some(ALICE),
            advantage: None,
            hidden: Box::new(HIDDEN.map(parsed)),
            opening: Box::new(TripleOpening {
                all: koan("URL"),
                fewest: koan("D"),
                separators: [koan("U"), koan("U"), koan("R")],
            }),
            settings: Settings {
                set: PieceSet::Arrows,
                ..Settings::default()
            },
            timing: TripleTiming {
                game_ms,
                ..TripleTiming::default()
            },
            seed: 7,
        })
    }

    fn any(events: Vec<Event>) -> Vec<AnyEvent> {
        events.into_iter().map(AnyEvent::ZendoTriple).collect()
    }

    fn clocks() -> Clocks {
        Clocks {
            game: 0,
            wall_ms: 1_700_000_000_000,
        }
    }

    fn text(post: &Post) -> String {
        post.lines.join("\n")
    }

    /// No post a spectator or a player sees names an unsolved pattern.
    fn keeps_secrets(post: &Post) {
        for h in HIDDEN {
            assert!(!text(post).contains(h), "{}", text(post));
        }
    }

    #[test]
    fn triple_clocks_are_the_servers_own_else_the_configs() {
        use figment::providers::{Format, Toml};
        let text = "[triple]\nchallenge_secs = 90\nplay_secs = 3600\n";
        let figment = figment::Figment::from(Toml::string(crate::config::DEFAULT_TOML))
            .merge(Toml::string(text));
        let c = crate::config::Config::from_figment(figment)
            .expect("a good config")
            .games
            .ZendoTriple;
        let t = timing(&c, &Stored::new());
        assert_eq!(
            t,
            TripleTiming {
                challenge_ms: 90_000,
                game_ms: 3_600_000,
                ..TripleTiming::default()
            }
        );
        let mut s = Stored::new();
        let given = [Some(60), None, Some(10), None, Some(120)];
        super::super::clocks::apply(&mut s, &super::clocks(&c), &given, false).unwrap();
        let t = timing(&c, &s);
        assert_eq!(
            (
                t.turn_ms,
                t.challenge_ms,
                t.counterexample_bonus_ms,
                t.game_ms,
                t.quiz_ms
            ),
            (60_000, 90_000, 10_000, 3_600_000, 120_000)
        );
    }

    #[test]
    fn a_challenge_is_answered_per_pattern_with_the_sheet_in_the_buttons() {
        let mut h = game(TripleTiming::default().game_ms);
        let events = h.ok(
            Actor::Player(ALICE),
            TripleMove::Build {
                koan: koan("UD"),
                mode: Mode::Challenge,
                patterns: vec![Letter::A, Letter::C],
            },
        );
        let spectator = h.game.view(&Viewer::Spectator);
        let post = batch(
            &any(events.clone()),
            &spectator,
            clocks(),
            MatchId(3),
            &[BOB],
        );
        keeps_secrets(&post);
        assert!(
            text(&post).contains("challenges U D on A, C"),
            "{}",
            text(&post)
        );
        assert!(
            text(&post).contains(&mention(BOB)),
            "bob answers in the channel"
        );
        assert_eq!(post.files.len(), 1, "the challenged structure");
        let ask = post.buttons.concat();
        assert_eq!(ask.len(), 1);
        assert_eq!(press_of(&ask[0]), Press::AskHere);
        // The private post: one row per named pattern, each button the sheet with its
        // answer put in.
        let dm = dm_post(MatchId(3), &any(events), &spectator, clocks()).expect("a DM");
        assert_eq!(dm.buttons.len(), 2, "A and C");
        let ids: Vec<Press> = dm.buttons.concat().iter().map(press_of).collect();
        assert_eq!(ids[0], Press::Sheet([Some(Answer::Obeys), None, None]));
        assert_eq!(ids[4], Press::Sheet([None, None, Some(Answer::Not)]));
        for b in dm.buttons.concat() {
            let id = b.id.parse::<ButtonId>().expect("a Zendo button");
            assert_eq!(id.to_string(), b.id);
        }
        // Once answered, a player's own post shows the sheet as given.
        h.ok(
            Actor::Player(ALICE),
            TripleMove::Answer {
                answers: vec![Answer::Obeys, Answer::Pass],
            },
        );
        let mine = h.game.view(&Viewer::Player(ALICE));
        let again = answer_post(MatchId(3), &mine, clocks()).expect("still open");
        let chosen: Vec<String> = again
            .buttons
            .concat()
            .iter()
            .filter(|b| b.label.ends_with('✓'))
            .map(|b| b.label.clone())
            .collect();
        assert_eq!(chosen, ["A: obeys ✓", "C: no answer ✓"]);
        let status = status(MatchId(3), &mine, clocks());
        assert!(
            text(&status).contains("your answers: A obeys, C no answer"),
            "{}",
            text(&status)
        );
    }

    #[test]
    fn the_quiz_is_posted_and_sent_with_its_questions() {
        let mut h = game(60_000);
        let mut events = Vec::new();
        while !matches!(
            h.game.view(&Viewer::Spectator).phase,
            PhaseView::Quiz { .. }
        ) {
            events.extend(h.run_out());
        }
        let v = h.game.view(&Viewer::Spectator);
        let post = batch(&any(events.clone()), &v, clocks(), MatchId(5), &[]);
        keeps_secrets(&post);
        let said = text(&post);
        assert!(said.contains("**Quiz round 1**"), "{said}");
        assert!(said.contains("`/zendo answer`"), "{said}");
        assert!(said.contains("30. "), "every question listed: {said}");
        assert!(post.files.iter().any(|(f, _)| f == "quiz.png"));
        assert_eq!(press_of(&post.buttons.concat()[0]), Press::AskHere);
        let dm = dm_post(MatchId(5), &any(events), &v, clocks()).expect("the quiz by DM");
        assert!(text(&dm).contains("quiz round 1"), "{}", text(&dm));
        assert!(dm.files.iter().any(|(f, _)| f == "quiz.png"));
        // The end reveals every pattern with the board.
        let end = h.ok(Actor::Player(ALICE), crate::rules::Action::Resign);
        let v = h.game.view(&Viewer::Spectator);
        let post = batch(&any(end), &v, clocks(), MatchId(5), &[]);
        assert!(text(&post).contains(HIDDEN[2]), "{}", text(&post));
        assert!(post.files.iter().any(|(f, _)| f == "board.png"));
        assert_eq!(v.winner, Some(Seat::SECOND));
    }

    #[test]
    fn the_opening_shows_both_structures_with_their_stones() {
        let h = game(TripleTiming::default().game_ms);
        let v = h.game.view(&Viewer::Spectator);
        let post = opening(MatchId(1), &v, clocks());
        keeps_secrets(&post);
        assert!(text(&post).contains("#2 obeys none"), "{}", text(&post));
        assert_eq!(post.files.len(), 2);
        let board = board(MatchId(1), &v);
        assert_eq!(board.files.len(), 1);
    }
}
