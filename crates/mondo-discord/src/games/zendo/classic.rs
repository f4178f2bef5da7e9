//! Zendo Classic on Discord: the lobby (`/zendo classic`, *Join* / *Leave* / *Start*),
//! the Classic's own commands (`/zendo leave`, `/zendo back`), and its posts. `/koan`
//! (with `call: master|mondo`), `/guess`, the read-back buttons and the private
//! answer buttons are the duel's, routed here by the match's game. The words are
//! `narrate::zendo::classic`'s.
//!
//! A lobby is a Classic match's first phase (`rules::zendo::classic`): `/zendo classic`
//! draws the rule and creates the match; *Join*, *Leave* and *Start* are its moves;
//! its closing time is a deadline the runtime keeps. Like every match it is stored as
//! events and runs on after a restart, its buttons with it. Lobbies stored by versions
//! before that (the `lobbies` table) become such matches at start-up ([`carry_over`]),
//! and their old buttons lead there.

use super::clocks::{Clock, Stored};
use super::common::NO_MATCH;
use super::ids::{LobbyPress, Press, match_button};
use super::posts::TablePictures;
use super::settings::{draw, effective};
use crate::kit::{Dms, GameBot, Said, SetChoice, open_modal, play, reply};
use crate::koan::PieceSet;
use crate::lang::Pattern;
use crate::narrate::Names;
use crate::narrate::zendo::classic::{ClassicNarrator, stones};
use crate::post::Post;
use crate::rules::zendo::classic::section::ClassicConfig;
use crate::rules::zendo::classic::{
    Call, ClassicEvent, ClassicMove, ClassicSetup, ClassicTiming, ClassicView, LobbySetup,
    MAX_STUDENTS, MIN_STUDENTS, PhaseView,
};
use crate::rules::zendo::{Initial, Mode, Origin, Settings, StepView, ZendoEvent};
use crate::rules::{Actor, EventKind, GameKind, PlayerId, Viewer};
use crate::runtime::{AnyAction, AnyEvent, AnyView, Common, Place, events_of};
use crate::say::{Clocks, mention};
use crate::store::MatchId;
use crate::{Bot, Context, Data, Error, is_host};
use poise::serenity_prelude as serenity;
use rand::RngExt;

/// A lobby as versions before the lobby was a match's phase stored it (a row of
/// `lobbies`, its opening time in the row's column): read once at start-up and made a
/// match. No `Debug`: a typed rule must never reach a log.
#[derive(serde::Deserialize)]
struct StoredLobby {
    channel: u64,
    guild: Option<u64>,
    opener: u64,
    master: Option<u64>,
    pool: String,
    pattern_id: Option<String>,
    set: PieceSet,
    typed: Option<(Pattern, Initial)>,
    /// In join order, which is the turn order.
    students: Vec<u64>,
    ttl_ms: u64,
}

/// What a new lobby starts from, its rule drawn. No `Debug`: it holds the rule.
struct Opening {
    channel: u64,
    guild: Option<u64>,
    opener: u64,
    /// The host who picked or typed the rule and does not play.
    master: Option<u64>,
    set: PieceSet,
    hidden: Pattern,
    initial: Initial,
    seed: u64,
    students: Vec<u64>,
    /// How long it has been open already (a lobby carried over) and how long it stays.
    age_ms: u64,
    ttl_ms: u64,
}

use crate::kit::say::lifetime;

/// The box a Master types the rule in: `classic-rule:SET`.
const RULE_MODAL: &str = "classic-rule:";
/// Its text field.
pub const RULE_FIELD: &str = "rule";

/// What a press on a closed lobby hears.
const CLOSED: &str = "this lobby is closed (started, or expired): `/zendo classic` opens another";

/// A Classic match's view as a spectator sees it, if `game` is one.
async fn classic_view(bot: &Bot, game: MatchId) -> Option<ClassicView> {
    match bot.runtime.view(game, &Viewer::Spectator).await {
        Ok(AnyView::ZendoClassic(v)) => Some(v),
        _ => None,
    }
}

/// Whether a Classic match is gathering its students.
fn in_lobby(v: &ClassicView) -> bool {
    matches!(v.phase, PhaseView::Lobby { .. })
}

/// Whether a lobby is open in `channel`.
async fn open_in(bot: &Bot, channel: u64) -> Result<bool, Error> {
    for record in bot.live_in(channel).await? {
        if matches!(record.game(), Ok(GameKind::ZendoClassic))
            && classic_view(bot, record.id)
                .await
                .is_some_and(|v| in_lobby(&v))
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Makes the lobbies an older version stored (`lobbies`) matches in their lobby phase,
/// once, at start-up: each keeps its students, its Master and its closing time (wall
/// time, as it was kept then), and its old buttons lead to the match. One whose time
/// passed while the bot was down closes, saying so in its channel.
pub async fn carry_over(bot: &Data) {
    let kind = GameKind::ZendoClassic.name();
    let stored = match bot.store.unconverted_lobbies(kind).await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(error = %e, "the stored Zendo Classic lobbies could not be read");
            return;
        }
    };
    let mut carried = 0;
    for record in stored {
        // Not the body in the log: it may hold a typed rule; nor serde's error, which
        // quotes the value it stopped at.
        let Ok(old) = crate::store::from_json::<StoredLobby>(&record.body) else {
            tracing::warn!(lobby = record.id, "a stored lobby does not read; dropped");
            let _ = bot.store.delete_lobby(record.id).await;
            continue;
        };
        let age_ms = crate::kit::wall_ms().saturating_sub(record.opened_ms);
        let closed = |why: String| {
            Post::text(format!(
                "The Zendo Classic lobby opened by {} {why}: `/zendo classic` opens another.",
                mention(PlayerId(old.opener)),
            ))
        };
        let channel = serenity::ChannelId::new(old.channel.max(1));
        if age_ms >= old.ttl_ms {
            let _ = bot.store.delete_lobby(record.id).await;
            let why = format!("expired (nobody started it in {})", lifetime(old.ttl_ms));
            bot.post(channel, &closed(why)).await;
            continue;
        }
        let seed: u64 = rand::rng().random();
        let drawn = match &old.typed {
            Some(typed) => Ok(typed.clone()),
            None => {
                let (pool, id) = (&old.pool, old.pattern_id.as_deref());
                draw(bot, old.guild, pool, id, old.set, seed).await
            }
        };
        let (hidden, initial) = match drawn {
            Ok(d) => d,
            Err(e) => {
                let _ = bot.store.delete_lobby(record.id).await;
                bot.post(channel, &closed(format!("closed: {e}"))).await;
                continue;
            }
        };
        let opening = Opening {
            channel: old.channel,
            guild: old.guild,
            opener: old.opener,
            master: old.master,
            set: old.set,
            hidden,
            initial,
            seed,
            students: old.students,
            age_ms,
            ttl_ms: old.ttl_ms,
        };
        match open_lobby(bot, opening).await {
            Ok((game, _)) => {
                if let Err(e) = bot.store.set_lobby_match(record.id, game).await {
                    tracing::warn!(lobby = record.id, %game, error = %e, "a lobby's match could not be noted");
                }
                carried += 1;
            }
            // Kept: the next start tries again.
            Err(e) => {
                tracing::warn!(lobby = record.id, error = %e, "a lobby could not be carried over")
            }
        }
    }
    if carried > 0 {
        tracing::info!(carried, "stored Zendo Classic lobbies made matches");
    }
}

/// What follows a structure in Zendo Classic.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum CallChoice {
    #[name = "master"]
    Master,
    #[name = "mondo"]
    Mondo,
}

/// `/koan`'s modes are the duel's words; Classic's calls map onto them (a mondo is
/// Classic's challenge), so the box and the buttons serve both.
impl From<CallChoice> for Mode {
    fn from(c: CallChoice) -> Mode {
        match c {
            CallChoice::Master => Mode::Observe,
            CallChoice::Mondo => Mode::Challenge,
        }
    }
}

/// A structure's move in a Classic game: `observe` is `master`, `challenge` is `mondo`.
pub fn build(koan: crate::koan::Koan, mode: Mode) -> AnyAction {
    let call = match mode {
        Mode::Observe => Call::Master,
        Mode::Challenge => Call::Mondo,
    };
    ClassicMove::Build { koan, call }.into()
}

/// What `/pass` says in a Classic game: a turn starts with a structure.
pub const NO_PASS: &str =
    "Zendo Classic has no pass: a turn starts with a structure (`/koan ... call: master|mondo`)";

/// Open a Zendo Classic lobby here: 2-8 students join, then the opener (or a host) starts.
///
/// The umpire is the Master and picks the rule, unless a host gives `pattern-id`: then
/// that host is the Master (they do not play). Turn order is the join order. Each turn:
/// build a structure (`/koan`, call master or mondo), then guess with stones (`/guess`).
#[poise::command(slash_command, guild_only)]
pub async fn classic(
    ctx: Context<'_>,
    #[description = "Where the rule comes from: pyramids/arrows (default: the set's), generated, or a server pool"]
    pool: Option<String>,
    #[description = "Host only: the rule's id in the pool; you are then the Master and do not play"]
    #[rename = "pattern-id"]
    pattern_id: Option<String>,
    #[description = "The pieces: pyramids (default) or arrows"] set: Option<SetChoice>,
    #[description = "Host only: be the Master (you do not play) and type the rule in a private box"]
    master: Option<bool>,
) -> Result<(), Error> {
    let bot = ctx.data();
    let guild = ctx.guild_id().map(|g| g.get());
    let channel = ctx.channel_id().get();
    let me = ctx.author().id.get();
    let settings = effective(bot, guild).await?;
    let typing = master == Some(true);
    if (pattern_id.is_some() || typing)
        && !is_host(ctx.author_member().await.as_deref(), settings.host_role)
    {
        return reply(
            ctx,
            Post::private(
                "only a host (Manage Server, or the host role) may pick the rule, and then \
                 does not play: leave `pattern-id` out and the umpire picks it",
            ),
        )
        .await;
    }
    if open_in(bot, channel).await? {
        return reply(
            ctx,
            Post::private("a Zendo Classic lobby is already open in this channel: join it"),
        )
        .await;
    }
    let set = match set {
        Some(SetChoice::Arrows) => PieceSet::Arrows,
        _ => PieceSet::Pyramids,
    };
    if typing {
        if pattern_id.is_some() || pool.is_some() {
            return reply(
                ctx,
                Post::private("type the rule or pick it from a pool (`pattern-id`), not both"),
            )
            .await;
        }
        return open_rule_box(ctx, set).await;
    }
    let master = pattern_id.as_ref().map(|_| me);
    let playing = master.is_none() && bot.match_of(channel, me).await?.is_none();
    let pool = pool.unwrap_or_else(|| match set {
        PieceSet::Arrows => "arrows".into(),
        PieceSet::Pyramids => settings.pool.clone(),
    });
    let seed: u64 = rand::rng().random();
    // Drawing may generate a pattern: defer, so the 3-second deadline is kept.
    ctx.defer().await?;
    let drawn = draw(bot, guild, &pool, pattern_id.as_deref(), set, seed).await;
    let (hidden, initial) = match drawn {
        Ok(d) => d,
        Err(e) => return reply(ctx, Post::private(format!("no lobby: {e}"))).await,
    };
    let opening = Opening {
        channel,
        guild,
        opener: me,
        master,
        set,
        hidden,
        initial,
        seed,
        students: if playing { vec![me] } else { Vec::new() },
        age_ms: 0,
        ttl_ms: lobby_ms(bot, guild).await?,
    };
    reply(ctx, open_lobby(bot, opening).await?.1).await
}

/// The clocks a host may set for Classic (the lobby's lifetime first), with the
/// config's values and ranges.
fn clocks(c: &ClassicConfig) -> [Clock; 4] {
    use crate::rules::zendo::classic::section::LOBBY_SECS;
    use crate::rules::zendo::duel::section::{CHALLENGE_SECS, GUESS_BONUS_SECS, TURN_SECS};
    [
        Clock::new("lobby_ms", "lobby", c.lobby_secs, LOBBY_SECS),
        Clock::new("turn_ms", "turn", c.turn_secs, TURN_SECS),
        Clock::new(
            "answer_ms",
            "mondo answer time",
            c.answer_secs,
            CHALLENGE_SECS,
        ),
        Clock::new(
            "guess_bonus_ms",
            "guess bonus",
            c.guess_bonus_secs,
            GUESS_BONUS_SECS,
        ),
    ]
}

/// A new game's clocks in a server, and a new lobby's lifetime (ms): the server's own,
/// else the config's.
pub fn timing(c: &ClassicConfig, stored: &Stored) -> (ClassicTiming, u64) {
    let [lobby_ms, turn_ms, answer_ms, guess_bonus_ms] = clocks(c).map(|k| k.ms(stored));
    let timing = ClassicTiming {
        turn_ms,
        answer_ms,
        guess_bonus_ms,
    };
    (timing, lobby_ms)
}

/// The server's Classic settings.
async fn classic_timing(bot: &Bot, guild: Option<u64>) -> Result<(ClassicTiming, u64), Error> {
    let stored = super::clocks::stored(bot, guild, GameKind::ZendoClassic).await?;
    Ok(timing(&bot.config.games.ZendoClassic, &stored))
}

/// A new lobby's lifetime in a server.
async fn lobby_ms(bot: &Bot, guild: Option<u64>) -> Result<u64, Error> {
    Ok(classic_timing(bot, guild).await?.1)
}

/// Hosts: this server's Zendo Classic clocks and lobby lifetime (without options,
/// shows them).
///
/// New lobbies and games use them; running ones keep theirs. The config's `[classic]`
/// values apply where the server set none.
#[poise::command(slash_command, guild_only, rename = "classic-settings")]
pub async fn classic_settings(
    ctx: Context<'_>,
    #[description = "Seconds a lobby nobody starts stays open (60-86400; 900 by default)"]
    #[min = 60]
    #[max = 86400]
    lobby_secs: Option<u32>,
    #[description = "Seconds per turn (10-3600; 180 by default)"]
    #[min = 10]
    #[max = 3600]
    turn_secs: Option<u32>,
    #[description = "Seconds to answer a mondo (5-600; 30 by default)"]
    #[min = 5]
    #[max = 600]
    answer_secs: Option<u32>,
    #[description = "Seconds added per official guess (0-600; 30 by default)"]
    #[min = 0]
    #[max = 600]
    guess_bonus_secs: Option<u32>,
    #[description = "Put every Classic setting back to the bot's defaults"] reset: Option<bool>,
) -> Result<(), Error> {
    let given = [lobby_secs, turn_secs, answer_secs, guess_bonus_secs];
    let clocks = clocks(&ctx.data().config.games.ZendoClassic);
    super::clocks::command(ctx, GameKind::ZendoClassic, &clocks, &given, reset).await
}

/// Creates a lobby's match (its closing time a deadline the runtime keeps) and returns
/// its post.
async fn open_lobby(bot: &Data, o: Opening) -> Result<(MatchId, Post), Error> {
    let settings = effective(bot, o.guild).await?;
    let now = bot.runtime.now();
    let closes_at = now.saturating_add(o.ttl_ms.saturating_sub(o.age_ms));
    let setup = ClassicSetup {
        students: o.students.iter().map(|s| PlayerId(*s)).collect(),
        master: o.master.map(PlayerId),
        hidden: o.hidden,
        initial: o.initial,
        settings: Settings {
            set: o.set,
            style: settings.style,
        },
        timing: classic_timing(bot, o.guild).await?.0,
        seed: o.seed,
        lobby: Some(LobbySetup {
            opener: PlayerId(o.opener),
            closes_at,
            lifetime_ms: o.ttl_ms,
        }),
    };
    let place = Place {
        guild: o.guild,
        channel: Some(o.channel),
    };
    let game = bot.runtime.create(place, setup.into()).await?;
    // Its creation is said by this post; the desk says everything after it.
    bot.store.set_announced(game, 1).await?;
    bot.open_desk(game, o.channel);
    let view = classic_view(bot, game)
        .await
        .ok_or("the new lobby could not be read back")?;
    Ok((game, lobby_post(game, &view, bot.clocks())))
}

/// Answers `/zendo classic master:true` with a box only the Master sees.
async fn open_rule_box(ctx: Context<'_>, set: PieceSet) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else {
        return reply(ctx, Post::private("use the slash command to type a rule")).await;
    };
    let input = serenity::CreateInputText::new(
        serenity::InputTextStyle::Paragraph,
        "The rule (English or symbolic)",
        RULE_FIELD,
    )
    .placeholder("at least one piece points up")
    .required(true)
    .max_length(400);
    let modal =
        serenity::CreateModal::new(format!("{RULE_MODAL}{set}"), "Zendo Classic: your rule")
            .components(vec![serenity::CreateActionRow::InputText(input)]);
    open_modal(app, modal).await
}

/// Whether a modal is the Master's rule box.
pub fn is_rule_box(custom_id: &str) -> bool {
    custom_id.starts_with(RULE_MODAL)
}

/// The Master's rule, typed: checked reasonable (off the async threads: the finder
/// works), then the lobby opens with the Master out of the students. A refusal is
/// said only to the Master.
pub async fn on_rule_box(
    ctx: &serenity::Context,
    bot: &Data,
    submit: &serenity::ModalInteraction,
    text: String,
) -> Result<(), Error> {
    let set = match submit.data.custom_id.trim_start_matches(RULE_MODAL) {
        "arrows" => PieceSet::Arrows,
        _ => PieceSet::Pyramids,
    };
    let channel = submit.channel_id.get();
    let me = submit.user.id.get();
    let seed: u64 = rand::rng().random();
    // The box's answer must come within 3 s; the check may take longer.
    submit.defer_ephemeral(ctx).await?;
    let checked = tokio::task::spawn_blocking(move || {
        crate::rules::zendo::classic::opening::classic_opening(
            crate::rules::zendo::opening::Source::Pattern(&text),
            set,
            seed,
            &crate::finder::Limits::default(),
        )
    })
    .await
    .map_err(|e| format!("checking the rule failed: {e}"))
    .and_then(|r| r);
    let say = |post: Post| async move {
        submit
            .create_followup(
                ctx,
                serenity::CreateInteractionResponseFollowup::new()
                    .content(post.content())
                    .ephemeral(true),
            )
            .await
            .map(|_| ())
    };
    let opening = match checked {
        Ok(o) => o,
        Err(e) => {
            say(Post::private(format!(
                "no lobby: {e}. Nothing was opened; try another rule."
            )))
            .await?;
            return Ok(());
        }
    };
    if open_in(bot, channel).await? {
        say(Post::private(
            "a Zendo Classic lobby is already open in this channel",
        ))
        .await?;
        return Ok(());
    }
    let guild = submit.guild_id.map(|g| g.get());
    let lobby = Opening {
        channel,
        guild,
        opener: me,
        master: Some(me),
        set,
        hidden: opening.hidden,
        initial: opening.initial,
        seed,
        students: Vec::new(),
        age_ms: 0,
        ttl_ms: lobby_ms(bot, guild).await?,
    };
    let post = match open_lobby(bot, lobby).await {
        Ok((_, post)) => post,
        Err(e) => {
            tracing::warn!(error = %e, "a typed-rule lobby could not be stored");
            say(Post::private(
                "the lobby could not be recorded (the database failed): nothing was opened; \
                 try again",
            ))
            .await?;
            return Ok(());
        }
    };
    say(Post::private("your rule is reasonable: the lobby is open")).await?;
    bot.post(serenity::ChannelId::new(channel.max(1)), &post)
        .await;
    Ok(())
}

/// The lobby in words: who opened it, who joined, when it closes.
fn lobby_text(v: &ClassicView, clocks: Clocks) -> Post {
    let mut post = Post::default();
    let master = v.master.map_or("the umpire".to_string(), |m| {
        format!("{} (a host, who does not play)", mention(m))
    });
    let (opener, closes_at, lifetime_ms) = match (&v.phase, v.lobby) {
        (
            PhaseView::Lobby {
                opener,
                closes_at,
                lifetime_ms,
            },
            _,
        ) => (*opener, *closes_at, *lifetime_ms),
        (_, Some(l)) => (l.opener, l.closes_at, l.lifetime_ms),
        (_, None) => (PlayerId(0), 0, 0),
    };
    post.line(format!(
        "**Zendo Classic lobby** ({} set): the Master is {master}. {} to {} students; \
         turn order is the join order. {} or a host starts; the lobby closes {} \
         ({} after it opened) if nobody does.",
        v.settings.set,
        MIN_STUDENTS,
        MAX_STUDENTS,
        mention(opener),
        clocks.countdown(closes_at),
        lifetime(lifetime_ms)
    ));
    if v.players.is_empty() {
        post.line("students: nobody yet");
    } else {
        let names: Vec<String> = v
            .players
            .values()
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{}. {}", i + 1, mention(*s)))
            .collect();
        post.line(format!("students: {}", names.join(", ")));
    }
    post
}

/// The version a lobby's buttons carry: the one it opened at (its created event). They
/// stay the same while students come and go (which moves the version on but not the
/// phase), and are stale once the game starts.
const LOBBY_VERSION: u64 = 1;

/// The lobby as posted: who joined, and its buttons.
fn lobby_post(game: MatchId, v: &ClassicView, clocks: Clocks) -> Post {
    let mut post = lobby_text(v, clocks);
    let button = |press, label: &str| match_button(game, LOBBY_VERSION, Press::Lobby(press), label);
    post.buttons(vec![
        button(LobbyPress::Join, "Join"),
        button(LobbyPress::Leave, "Leave"),
        button(LobbyPress::Start, "Start"),
        button(LobbyPress::AddAi, "Add AI student"),
    ]);
    post
}

/// A press of a lobby's button. `id` is the match, or the number of a lobby an older
/// version stored (then the match it became); `version` the one it was drawn at.
pub async fn on_lobby(
    ctx: &serenity::Context,
    bot: &Data,
    press: &serenity::ComponentInteraction,
    id: i64,
    version: u64,
    what: LobbyPress,
) -> Result<(), Error> {
    let user = press.user.id.get();
    let private = |text: String| async move {
        press
            .create_response(
                ctx,
                serenity::CreateInteractionResponse::Message(Post::private(text).response()),
            )
            .await
    };
    let update = |post: Post| async move {
        press
            .create_response(
                ctx,
                serenity::CreateInteractionResponse::UpdateMessage(post.response()),
            )
            .await
    };
    // An old lobby's buttons were drawn at no version of its match: taken as typed.
    let (game, shown) = match bot.store.lobby_match(id).await? {
        Some(game) => (game, None),
        None => (MatchId(id), Some(version)),
    };
    let Some(lobby) = classic_view(bot, game).await.filter(in_lobby) else {
        private(CLOSED.into()).await?;
        return Ok(());
    };
    let channel = press.channel_id.get();
    let me = Actor::Player(PlayerId(user));
    let (actor, action) = match what {
        LobbyPress::Join => {
            if press.user.bot {
                private("bots cannot play".into()).await?;
                return Ok(());
            }
            if bot
                .match_of(channel, user)
                .await?
                .is_some_and(|m| m.id != game)
            {
                let busy = "you are already playing a match in this channel (`/zendo status`)";
                private(busy.into()).await?;
                return Ok(());
            }
            (me, ClassicMove::Join)
        }
        LobbyPress::Leave => (me, ClassicMove::Leave),
        LobbyPress::AddAi => super::ai::add_student(bot, press, &lobby).await?,
        LobbyPress::Start => {
            let guild = press.guild_id.map(|g| g.get());
            let settings = effective(bot, guild).await?;
            let host = is_host(press.member.as_ref(), settings.host_role);
            let actor = if host {
                Actor::Host(PlayerId(user))
            } else {
                me
            };
            return start(ctx, bot, press, game, &lobby, actor, shown).await;
        }
    };
    let seated = super::ai::seated(&action);
    let result = bot.runtime.act(game, actor, action.into(), shown).await;
    if let (Ok(_), Some(player)) = (&result, seated) {
        super::ai::play(&bot.runtime, game, player, super::ai::Pace::of(bot));
    }
    match result {
        Ok(_) => match classic_view(bot, game).await.filter(in_lobby) {
            Some(v) => update(lobby_post(game, &v, bot.clocks())).await?,
            None => private(CLOSED.into()).await?,
        },
        Err(e) => {
            // Started or closed between the look and the move.
            let open = classic_view(bot, game).await.is_some_and(|v| in_lobby(&v));
            let said = if open { refusal(&e) } else { CLOSED.into() };
            private(said).await?;
        }
    }
    Ok(())
}

/// A refusal in words.
fn refusal(e: &crate::runtime::ActError<crate::rules::RuleError>) -> String {
    crate::kit::refusal(e)
}

/// *Start*: the rules judge it first (nobody is DMed for a refused start); then each
/// student's DM is opened (the opening says whom the bot cannot DM) and the game
/// begins. The desk says its opening.
async fn start(
    ctx: &serenity::Context,
    bot: &Data,
    press: &serenity::ComponentInteraction,
    game: MatchId,
    lobby: &ClassicView,
    actor: Actor,
    shown: Option<u64>,
) -> Result<(), Error> {
    let action: AnyAction = ClassicMove::Start.into();
    let judged = match bot.runtime.state_of(game).await {
        Ok(state) => {
            use crate::runtime::Engine;
            state
                .decide(&actor, &action, shown, bot.runtime.now())
                .map(|_| ())
                .map_err(crate::runtime::ActError::Refused)
        }
        Err(e) => Err(crate::runtime::ActError::Runtime(e)),
    };
    if let Err(e) = judged {
        let text = Post::private(refusal(&e));
        press
            .create_response(
                ctx,
                serenity::CreateInteractionResponse::Message(text.response()),
            )
            .await?;
        return Ok(());
    }
    let students: Vec<u64> = lobby.players.values().iter().map(|p| p.0).collect();
    let mut starting = Post::text(format!(
        "**Zendo Classic**: starting with {}...",
        names_of(&students)
    ));
    starting.buttons.clear();
    press
        .create_response(
            ctx,
            serenity::CreateInteractionResponse::UpdateMessage(starting.response()),
        )
        .await?;
    let channel = press.channel_id.get();
    // An AI student is nobody on Discord: never DMed, its answers are its own moves.
    for &s in students
        .iter()
        .filter(|s| PlayerId(**s).ai_seat().is_none())
    {
        let dm = dm_hello(bot, s, channel).await;
        if let Err(e) = bot.store.set_dm_channel(game, s, dm).await {
            tracing::warn!(%game, user = s, error = %e, "could not store a student's DM channel");
        }
    }
    if let Err(e) = bot.runtime.act(game, actor, action, shown).await {
        // Nothing is lost: the lobby is posted again as it is.
        let mut again = Post::text(format!("no game: {}", refusal(&e)));
        if let Some(v) = classic_view(bot, game).await.filter(in_lobby) {
            again.append(lobby_post(game, &v, bot.clocks()));
        }
        bot.post(serenity::ChannelId::new(channel.max(1)), &again)
            .await;
    }
    Ok(())
}

fn names_of(users: &[u64]) -> String {
    users
        .iter()
        .map(|u| mention(PlayerId(*u)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Opens a DM with a student and says hello; the DM channel, or `None` if Discord
/// refuses or does not answer in time.
async fn dm_hello(bot: &Bot, user: u64, channel: u64) -> Option<u64> {
    let hello = format!(
        "You are a student in a Zendo Classic game in <#{channel}>. When someone calls \
         mondo, your private answer buttons come here (or use *Answer privately* in the \
         channel)."
    );
    crate::kit::challenge::dm_hello(bot, user, hello).await
}

/// Leave your Zendo Classic game (your turn passes, your stones go with you).
///
/// The game goes on without you; with one student left it ends with no winner. In a
/// duel or practice this resigns.
#[poise::command(slash_command)]
pub async fn leave(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, NO_MATCH, |_| Ok(AnyAction::Common(Common::Resign))).await
}

/// Zendo Classic: you were skipped for time-outs; say you are back in the turn order.
#[poise::command(slash_command)]
pub async fn back(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, NO_MATCH, |r| match r.game() {
        Ok(crate::rules::GameKind::ZendoClassic) => Ok(ClassicMove::Back.into()),
        _ => Err("only Zendo Classic skips students: `/zendo status` says what is next".into()),
    })
    .await
}

/// What the channel's narration remembers of a Classic game.
pub struct Voice {
    narrator: ClassicNarrator,
}

impl Voice {
    pub fn new(v: &ClassicView) -> Voice {
        Voice {
            narrator: ClassicNarrator::new(Names::mentions(v.players.values()), Some(v)),
        }
    }
}

/// The Classic part of an event.
fn classic_part(e: &AnyEvent) -> Option<&ClassicEvent> {
    match e {
        AnyEvent::ZendoClassic(e) => match &e.kind {
            EventKind::Game(c) => Some(c),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a batch opened a mondo (its answer DMs go out).
pub fn mondo_opened(events: &[AnyEvent]) -> bool {
    events
        .iter()
        .any(|e| matches!(classic_part(e), Some(ClassicEvent::MondoOpened { .. })))
}

/// Zendo Classic's Discord side, as the bot's dispatch sees it.
/// The players' page of this game, `/help`'s text for it.
pub const PAGE: &str = include_str!("../../../../../docs/games/classic.md");

pub struct Front;

impl GameBot for Front {
    type View = ClassicView;
    type Voice = Voice;

    /// A press on the button of a lobby an older version stored finds the match it
    /// became.
    fn on_serve(bot: &Data) -> crate::kit::Upkeep<'_> {
        Box::pin(carry_over(bot))
    }

    fn voice(_: &AnyView, v: &ClassicView) -> Voice {
        Voice::new(v)
    }

    /// Its AI students, if it has any, play from here (and again after a restart).
    fn on_open(bot: &std::sync::Arc<Bot>, game: MatchId) {
        super::ai::on_open(bot, game);
    }

    fn batch(
        voice: &mut Voice,
        events: &[AnyEvent],
        _: &AnyView,
        v: &ClassicView,
        said: Said<'_>,
    ) -> Post {
        batch(voice, events, v, said.clocks, said.game, said.no_dm)
    }

    fn opening(game: MatchId, _: &AnyView, v: &ClassicView, clocks: Clocks) -> Post {
        opening(game, v, clocks)
    }

    fn status(game: MatchId, _: &AnyView, v: &ClassicView, clocks: Clocks) -> Post {
        status(game, v, clocks)
    }

    fn board(game: MatchId, view: &AnyView, _: &ClassicView) -> Post {
        super::posts::board(game, view)
    }

    /// A mondo opened: every student's answer buttons, as a duel's.
    fn dms(game: MatchId, events: &[AnyEvent], v: &ClassicView, clocks: Clocks) -> Option<Dms> {
        if !mondo_opened(events) {
            return None;
        }
        Some(Dms {
            post: answer_post(game, v, clocks)?,
            to: v.players.values().to_vec(),
            fallback: super::posts::ask_here(game, v.version),
        })
    }
}

/// One batch of a Classic game as one post: its words, the pictures, the buttons.
pub fn batch(
    voice: &mut Voice,
    events: &[AnyEvent],
    v: &ClassicView,
    clocks: Clocks,
    game: MatchId,
    no_dm: &[PlayerId],
) -> Post {
    let mut post = Post::default();
    // The lobby's own: its message says who joins; the start is the game's opening.
    for e in events {
        match classic_part(e) {
            Some(ClassicEvent::Started) => {
                *voice = Voice::new(v);
                post.append(opening(game, v, clocks));
                if !no_dm.is_empty() {
                    let names: Vec<u64> = no_dm.iter().map(|p| p.0).collect();
                    post.line(format!(
                        "I cannot DM {}: mondo answers will be taken with a private button \
                         in this channel instead.",
                        names_of(&names)
                    ));
                }
                return post;
            }
            Some(ClassicEvent::LobbyClosed { by }) => {
                let l = v.lobby.unwrap_or(LobbySetup {
                    opener: PlayerId(0),
                    closes_at: 0,
                    lifetime_ms: 0,
                });
                post.line(match by {
                    None => format!(
                        "The Zendo Classic lobby opened by {} expired (nobody started it in \
                         {}): `/zendo classic` opens another.",
                        mention(l.opener),
                        lifetime(l.lifetime_ms)
                    ),
                    Some(host) => format!(
                        "The Zendo Classic lobby opened by {} was closed by {}: \
                         `/zendo classic` opens another.",
                        mention(l.opener),
                        mention(*host)
                    ),
                });
                return post;
            }
            _ => {}
        }
    }
    if in_lobby(v) {
        return post;
    }
    let typed: Vec<crate::rules::zendo::classic::Event> = events_of(events);
    for line in voice.narrator.batch(&typed, v) {
        post.line(line.text);
    }
    let mut read_guess = false;
    let mut mondo = false;
    for e in events {
        match classic_part(e) {
            Some(ClassicEvent::MondoOpened { koan, .. }) => {
                mondo = true;
                post.koan(koan, None, None);
            }
            Some(ClassicEvent::MondoRevealed { .. }) => {
                if let Some(entry) = v
                    .table
                    .iter()
                    .rev()
                    .find(|t| matches!(t.origin, Origin::Challenged { .. }))
                {
                    post.entry(entry);
                }
            }
            Some(ClassicEvent::Zendo(ZendoEvent::Observed { koan, .. })) => {
                if let Some(entry) = v.table.iter().find(|t| t.koan == *koan) {
                    post.entry(entry);
                }
            }
            Some(ClassicEvent::Zendo(ZendoEvent::Refuted {
                counterexample,
                on_table,
                ..
            })) => {
                let number = on_table.or_else(|| {
                    v.table
                        .iter()
                        .find(|t| t.koan == counterexample.koan)
                        .map(|t| t.number)
                });
                post.koan(
                    &counterexample.koan,
                    number,
                    Some(crate::render::Mark::of(counterexample.hidden)),
                );
            }
            Some(ClassicEvent::Zendo(ZendoEvent::GuessRead { .. })) => read_guess = true,
            Some(ClassicEvent::Zendo(ZendoEvent::MatchEnded { .. })) => {
                post.board(&v.table);
            }
            _ => {}
        }
    }
    let button = |press, label: &str| match_button(game, v.version, press, label);
    if read_guess && matches!(v.step(), Some(StepView::Pending { .. })) {
        post.buttons(vec![
            button(Press::Confirm, "Make it official"),
            button(Press::TakeBack, "Take it back"),
        ]);
    }
    if mondo {
        super::posts::answer_here(
            &mut post,
            no_dm,
            "answer",
            button(Press::AskHere, "Answer privately"),
        );
    }
    let clock = clock_line(v, clocks);
    if v.outcome.is_none() && !events.is_empty() && !clock.is_empty() {
        post.line(clock);
    }
    post
}

/// The clock that runs now.
fn clock_line(v: &ClassicView, clocks: Clocks) -> String {
    let names = Names::mentions(v.players.values());
    match &v.phase {
        PhaseView::Turn {
            step: StepView::Challenge { clock, .. },
            ..
        } => format!("mondo answers close {}", clocks.clock(clock)),
        PhaseView::Turn { seat, .. } if v.paused => {
            format!("{} to play; the game is paused", names.name(*seat))
        }
        PhaseView::Turn { seat, .. } => {
            format!(
                "{} to play; turn clock {}",
                names.name(*seat),
                clocks.clock(&v.clock)
            )
        }
        PhaseView::Lobby { .. } | PhaseView::Over => String::new(),
    }
}

/// The opening post: the students, the initial structures, who starts.
pub fn opening(game: MatchId, v: &ClassicView, clocks: Clocks) -> Post {
    if in_lobby(v) {
        return lobby_post(game, v, clocks);
    }
    let mut post = Post::default();
    let master = v
        .master
        .map_or("The umpire, as the Master, has".to_string(), |m| {
            format!("The Master, {}, has", mention(m))
        });
    post.line(format!(
        "**Zendo Classic #{game}**: students in turn order: {}. {master} chosen a rule; #1 \
         obeys it, #2 does not.",
        names_of(&v.players.values().iter().map(|p| p.0).collect::<Vec<_>>())
    ));
    for e in &v.table {
        post.entry(e);
    }
    post.line(format!(
        "Each turn: build a structure with `/koan` (call `master`: marked at once, or \
         `mondo`: every student answers privately, each right answer earns a guessing \
         stone), then `/guess` with stones, `/endturn` to stop. Turns are {} each, mondo \
         answers {} s, each official guess adds {} s. `/zendo leave` leaves the game.",
        crate::narrate::clock_text(v.timing.turn_ms),
        v.timing.answer_ms / 1000,
        v.timing.guess_bonus_ms / 1000
    ));
    post.line(clock_line(v, clocks));
    post
}

/// The private answer buttons of a mondo (in a DM, or ephemeral in the channel).
pub fn answer_post(game: MatchId, v: &ClassicView, clocks: Clocks) -> Option<Post> {
    let PhaseView::Turn {
        seat,
        step: StepView::Challenge { koan, clock, .. },
    } = &v.phase
    else {
        return None;
    };
    let mut post = Post::default();
    post.line(format!(
        "Zendo Classic #{game}: {} calls mondo on this structure. Does it obey the rule? \
         Your answer stays private until the reveal{}; you may change it until then.",
        mention(v.players[*seat]),
        clock
            .expires_at()
            .map_or(String::new(), |at| format!(" ({})", clocks.countdown(at)))
    ));
    post.koan(koan, None, None);
    post.buttons(super::posts::answer_buttons(game, v.version));
    Some(post)
}

/// A viewer's status of a Classic game.
pub fn status(game: MatchId, v: &ClassicView, clocks: Clocks) -> Post {
    let mut post = Post::text(format!("**Zendo Classic #{game}**"));
    if in_lobby(v) {
        post.append(lobby_text(v, clocks));
        return post;
    }
    if v.closed {
        post.line("a lobby that closed before anyone started it");
        return post;
    }
    let names = Names::mentions(v.players.values());
    post.line(crate::narrate::zendo::classic::status(game.0, v, &names, clocks.game).text);
    post.line(stones(&names, v).text);
    if let Some(rule) = &v.revealed {
        post.line(format!("the rule was: {rule}"));
    }
    post
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPENED: u64 = 1_700_000_000_000;

    /// A lobby as the version before stored it in `lobbies` (its JSON), with a typed
    /// rule or none.
    fn stored_body(typed: Option<&str>) -> String {
        let typed = typed.map(|rule| {
            let o = crate::rules::zendo::classic::opening::classic_opening(
                crate::rules::zendo::opening::Source::Pattern(rule),
                PieceSet::Pyramids,
                7,
                &crate::finder::Limits::default(),
            )
            .expect("a reasonable rule");
            (o.hidden, o.initial)
        });
        serde_json::json!({
            "channel": 10, "guild": 20, "opener": 1, "master": typed.as_ref().map(|_| 1),
            "pool": "pyramids", "pattern_id": null, "set": "pyramids", "typed": typed,
            "students": [3, 2], "opened_ms": OPENED, "ttl_ms": 15 * 60_000,
        })
        .to_string()
    }

    fn config() -> crate::config::Config {
        use figment::providers::{Format, Toml};
        let text = "[classic]\nturn_secs = 240\nlobby_secs = 600\n";
        let figment = figment::Figment::from(Toml::string(crate::config::DEFAULT_TOML))
            .merge(Toml::string(text));
        crate::config::Config::from_figment(figment).expect("a good config")
    }

    #[test]
    fn classic_clocks_are_the_servers_own_else_the_configs() {
        let c = config().games.ZendoClassic;
        let (t, lobby) = timing(&c, &Stored::new());
        assert_eq!(
            (t.turn_ms, t.answer_ms, t.guess_bonus_ms),
            (240_000, 30_000, 30_000)
        );
        assert_eq!(lobby, 600_000);
        let mut s = Stored::new();
        super::super::clocks::apply(
            &mut s,
            &clocks(&c),
            &[Some(120), None, Some(45), Some(0)],
            false,
        )
        .unwrap();
        let (t, lobby) = timing(&c, &s);
        assert_eq!(
            (t.turn_ms, t.answer_ms, t.guess_bonus_ms),
            (240_000, 45_000, 0)
        );
        assert_eq!(lobby, 120_000);
        let e = super::super::clocks::apply(&mut s, &clocks(&c), &[Some(30)], false).unwrap_err();
        assert!(e.contains("lobby must be 60 to 86400 seconds"), "{e}");
    }

    #[test]
    fn a_lobby_stored_by_the_version_before_reads_with_its_students_in_order() {
        let body = stored_body(Some("at least one piece points up"));
        let l: StoredLobby = crate::store::from_json(&body).expect("reads");
        assert_eq!(l.students, vec![3, 2], "join order is turn order");
        assert_eq!((l.channel, l.guild, l.master), (10, Some(20), Some(1)));
        assert_eq!(l.ttl_ms, 15 * 60_000);
        let (rule, _) = l.typed.expect("the typed rule");
        assert_eq!(rule.source, "at least one piece points up");
        let l: StoredLobby = crate::store::from_json(&stored_body(None)).expect("reads");
        assert!(l.typed.is_none() && l.master.is_none());
        assert_eq!(lifetime(15 * 60_000), "15 minutes");
        assert_eq!(lifetime(90_000), "90 seconds");
    }

    #[test]
    fn a_lobby_post_says_its_students_and_closing_time_and_names_no_rule() {
        use crate::rules::Game;
        use crate::rules::zendo::classic::Classic;
        let o = crate::rules::zendo::classic::opening::classic_opening(
            crate::rules::zendo::opening::Source::Pattern("at least one piece points up"),
            PieceSet::Pyramids,
            7,
            &crate::finder::Limits::default(),
        )
        .expect("a reasonable rule");
        let setup = ClassicSetup {
            students: vec![PlayerId(3), PlayerId(2)],
            master: Some(PlayerId(1)),
            hidden: o.hidden,
            initial: o.initial,
            settings: Settings::default(),
            timing: ClassicTiming::default(),
            seed: 7,
            lobby: Some(LobbySetup {
                opener: PlayerId(1),
                closes_at: 1_000 + 15 * 60_000,
                lifetime_ms: 15 * 60_000,
            }),
        };
        let (g, _) = Classic::start(setup, 1_000).expect("a lobby");
        let v = g.view(&Viewer::Spectator);
        let clocks = Clocks {
            game: 61_000,
            wall_ms: OPENED + 60_000,
        };
        let post = lobby_post(MatchId(5), &v, clocks);
        let text = post.content();
        assert!(!text.contains("points up"), "{text}");
        assert!(text.contains("students: 1. <@3>, 2. <@2>"), "{text}");
        assert!(text.contains("15 minutes after it opened"), "{text}");
        assert!(
            text.contains(&format!("<t:{}:R>", (OPENED + 15 * 60_000) / 1000)),
            "{text}"
        );
        let ids: Vec<String> = post
            .buttons
            .iter()
            .flatten()
            .map(|b| b.id.to_string())
            .collect();
        assert_eq!(ids.len(), 4, "Join, Leave, Start, Add AI student");
        assert!(
            ids.iter().all(|id| id.starts_with("m:5:1:lobby:")),
            "{ids:?}"
        );
    }
}
