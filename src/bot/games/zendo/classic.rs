//! Zendo Classic on Discord: the lobby (`/zendo classic`, *Join* / *Leave* / *Start*),
//! the Classic's own commands (`/zendo leave`, `/zendo back`), and its posts. `/koan`
//! (with `call: master|mondo`), `/guess`, the read-back buttons and the private
//! answer buttons are the duel's, routed here by the match's game. The words are
//! `narrate::classic`'s.
//!
//! A lobby is stored (`Store::put_lobby`) at every change before anyone sees it, and
//! read back at start-up ([`restore`]): after a restart its message's buttons work
//! with the same students. It expires a set time (`classic.lobby_secs`) after it
//! opened, in wall time, judged by [`Lobby::expired`]. Once started, the game is a
//! match like any other and survives restarts.

use super::SetChoice;
use super::clocks::{Clock, Stored};
use crate::bot::ids::{ButtonId, LobbyPress, Press};
use crate::bot::kit::{Dms, GameBot, Said, play, reply};
use crate::bot::post::{Button, Post};
use crate::bot::say::{Clocks, mention};
use crate::bot::{Bot, Context, Data, Error, is_host};
use crate::koan::PieceSet;
use crate::narrate::Names;
use crate::narrate::classic::{ClassicNarrator, stones};
use crate::rules::zendo::classic::{
    Call, ClassicEvent, ClassicMove, ClassicSetup, ClassicTiming, ClassicView, MAX_STUDENTS,
    MIN_STUDENTS, PhaseView,
};
use crate::rules::zendo::{DuelMove, Mode, Origin, Settings, StepView, ZendoEvent};
use crate::rules::{EventKind, GameKind, PlayerId};
use crate::runtime::{AnyAction, AnyEvent, AnyView, Common, Place, events_of};
use crate::store::{LobbyRecord, MatchId};
use poise::serenity_prelude as serenity;
use rand::RngExt;
use std::collections::HashMap;
use std::sync::LazyLock;
use tokio::sync::{Mutex, MutexGuard};

/// A lobby waiting for its students. No `Debug`: a typed rule must never reach a log.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Lobby {
    channel: u64,
    guild: Option<u64>,
    opener: u64,
    /// The host who picked the rule (`pattern-id`) and does not play.
    master: Option<u64>,
    pool: String,
    pattern_id: Option<String>,
    set: PieceSet,
    /// The rule the Master typed privately (checked reasonable), with its initial
    /// structures; otherwise the pool decides at the start. Stored as a match stores
    /// its hidden pattern (in its JSON) and said nowhere.
    typed: Option<(crate::lang::Pattern, crate::rules::zendo::Initial)>,
    /// In join order, which is the turn order.
    students: Vec<u64>,
    /// Wall time it opened (Unix milliseconds), and how long it stays open.
    opened_ms: u64,
    ttl_ms: u64,
}

impl Lobby {
    /// When it closes if nobody starts it (Unix milliseconds).
    fn closes_ms(&self) -> u64 {
        self.opened_ms.saturating_add(self.ttl_ms)
    }

    /// Whether it is past its time at `now_ms` (wall time: the bot being down does
    /// not stop it, as a lobby is people waiting, not a clock of the game).
    fn expired(&self, now_ms: u64) -> bool {
        now_ms >= self.closes_ms()
    }
}

/// A lobby's lifetime in words: `15 minutes`, `90 seconds`.
fn lifetime(ms: u64) -> String {
    let secs = ms / 1000;
    if secs.is_multiple_of(60) {
        crate::narrate::count(secs / 60, "minute", "minutes")
    } else {
        crate::narrate::count(secs, "second", "seconds")
    }
}

/// The box a Master types the rule in: `classic-rule:SET`.
const RULE_MODAL: &str = "classic-rule:";
/// Its text field.
pub const RULE_FIELD: &str = "rule";

/// The open lobbies, by their number (the `MATCH` part of their buttons' ids): the
/// store's, read at start-up and changed with it.
static LOBBIES: LazyLock<Mutex<HashMap<i64, Lobby>>> = LazyLock::new(Default::default);

/// Held from reading a lobby to storing its change, so two presses never store out of
/// order.
async fn lobbies() -> MutexGuard<'static, HashMap<i64, Lobby>> {
    LOBBIES.lock().await
}

/// The stored kind of a Classic lobby.
fn game_kind() -> &'static str {
    crate::rules::GameKind::ZendoClassic.name()
}

/// A lobby as the store keeps it.
fn record(id: i64, l: &Lobby) -> Result<LobbyRecord, serde_json::Error> {
    Ok(LobbyRecord {
        id,
        game: game_kind().into(),
        guild: l.guild,
        channel: l.channel,
        opened_ms: l.opened_ms,
        body: serde_json::to_string(l)?,
    })
}

/// A stored lobby read back (its opening time the column's).
fn from_record(r: &LobbyRecord) -> Result<Lobby, String> {
    let lobby: Lobby = crate::store::from_json(&r.body)?;
    Ok(Lobby {
        opened_ms: r.opened_ms,
        ..lobby
    })
}

/// Stores a lobby as it is now.
async fn save(bot: &Bot, id: i64, l: &Lobby) -> Result<(), Error> {
    Ok(bot.store.put_lobby(&record(id, l)?).await?)
}

/// Whether an open lobby waits in `channel` at `now_ms`.
async fn open_in(channel: u64, now_ms: u64) -> bool {
    lobbies()
        .await
        .values()
        .any(|l| l.channel == channel && !l.expired(now_ms))
}

/// Reads back the stored lobbies at start-up and arms their expiry; one whose time
/// passed while the bot was down closes at once, saying so in its channel.
pub async fn restore(bot: &Data) {
    let stored = match bot.store.lobbies(game_kind()).await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(error = %e, "the Zendo Classic lobbies could not be read back");
            return;
        }
    };
    let mut restored = 0;
    for record in stored {
        // Not the body in the log: it may hold a typed rule.
        let lobby = match from_record(&record) {
            Ok(l) => l,
            Err(_) => {
                // Nor the error: serde's messages quote the value they stopped at.
                tracing::warn!(lobby = record.id, "a stored lobby does not read; dropped");
                let _ = bot.store.delete_lobby(record.id).await;
                continue;
            }
        };
        let closes = lobby.closes_ms();
        lobbies().await.insert(record.id, lobby);
        arm(bot, record.id, closes);
        restored += 1;
    }
    tracing::info!(restored, "Zendo Classic lobbies read back");
}

/// Closes lobby `id` at `closes_ms` (wall time) if nobody started it by then.
fn arm(bot: &Data, id: i64, closes_ms: u64) {
    let bot = bot.clone();
    tokio::spawn(async move {
        loop {
            // At least a second between tries, so a lobby whose time has come but is
            // not yet judged expired is never polled in a loop.
            let wait = closes_ms
                .saturating_sub(crate::bot::kit::wall_ms())
                .max(1000);
            tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
            // The sleep's clock is not the wall clock: if the wall clock says it is
            // not time yet (it was stepped back), sleep again rather than leave the
            // lobby open with no timer; stop once it is closed or gone.
            if expire(&bot, id, crate::bot::kit::wall_ms()).await
                || !lobbies().await.contains_key(&id)
            {
                break;
            }
        }
    });
}

/// Closes lobby `id` if it is past its time at `now_ms`, saying so in its channel.
/// Whether it was closed.
async fn expire(bot: &Bot, id: i64, now_ms: u64) -> bool {
    let expired = {
        let mut all = lobbies().await;
        match all.get(&id) {
            Some(l) if l.expired(now_ms) => all.remove(&id),
            _ => None,
        }
    };
    let Some(l) = expired else {
        return false;
    };
    if let Err(e) = bot.store.delete_lobby(id).await {
        // Read back at the next start, it expires then.
        tracing::warn!(lobby = id, error = %e, "an expired lobby could not be removed");
    }
    let note = Post::text(format!(
        "The Zendo Classic lobby opened by {} expired (nobody started it in {}): `/zendo classic` opens another.",
        mention(PlayerId(l.opener)),
        lifetime(l.ttl_ms)
    ));
    bot.post(serenity::ChannelId::new(l.channel.max(1)), &note)
        .await;
    true
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

/// The duel's move as Classic's, where Classic has it.
pub fn from_duel(duel: DuelMove) -> Result<AnyAction, String> {
    Ok(match duel {
        DuelMove::Answer { answer } => ClassicMove::Answer { answer },
        DuelMove::Guess { pattern } => ClassicMove::Guess { pattern },
        DuelMove::Confirm => ClassicMove::Confirm,
        DuelMove::TakeBack => ClassicMove::TakeBack,
        DuelMove::EndTurn => ClassicMove::EndTurn,
        DuelMove::Disallow => ClassicMove::Disallow,
        DuelMove::Skip => {
            return Err(
                "Zendo Classic has no pass: a turn starts with a structure (`/koan \
                        ... call: master|mondo`)"
                    .into(),
            );
        }
        _ => {
            return Err("Zendo Classic has no such move: `/zendo status` says what is next".into());
        }
    }
    .into())
}

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
    let settings = bot.settings(guild).await?;
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
    if open_in(channel, crate::bot::kit::wall_ms()).await {
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
    let lobby = Lobby {
        channel,
        guild,
        opener: me,
        master,
        pool: pool.unwrap_or_else(|| match set {
            PieceSet::Arrows => "arrows".into(),
            PieceSet::Pyramids => settings.pool.clone(),
        }),
        pattern_id,
        set,
        typed: None,
        students: if playing { vec![me] } else { Vec::new() },
        opened_ms: crate::bot::kit::wall_ms(),
        ttl_ms: lobby_ms(bot, guild).await?,
    };
    reply(ctx, open_lobby(bot, lobby).await?).await
}

/// The clocks a host may set for Classic (the lobby's lifetime first), with the
/// config's values and ranges.
fn clocks(c: &crate::config::ClassicConfig) -> [Clock; 4] {
    use crate::config::{CHALLENGE_SECS, GUESS_BONUS_SECS, LOBBY_SECS, TURN_SECS};
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
pub fn timing(c: &crate::config::ClassicConfig, stored: &Stored) -> (ClassicTiming, u64) {
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
    Ok(timing(&bot.config.classic, &stored))
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
    let clocks = clocks(&ctx.data().config.classic);
    super::clocks::command(ctx, GameKind::ZendoClassic, &clocks, &given, reset).await
}

/// Stores a new lobby (closing it when its time is up) and returns its post.
async fn open_lobby(bot: &Data, lobby: Lobby) -> Result<Post, Error> {
    let id: i64 = rand::rng().random_range(1..i64::MAX);
    let post = lobby_post(id, &lobby);
    let closes = lobby.closes_ms();
    {
        let mut all = lobbies().await;
        save(bot, id, &lobby).await?;
        all.insert(id, lobby);
    }
    arm(bot, id, closes);
    Ok(post)
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
    app.interaction
        .create_response(ctx, serenity::CreateInteractionResponse::Modal(modal))
        .await?;
    app.has_sent_initial_response
        .store(true, std::sync::atomic::Ordering::SeqCst);
    Ok(())
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
    if open_in(channel, crate::bot::kit::wall_ms()).await {
        say(Post::private(
            "a Zendo Classic lobby is already open in this channel",
        ))
        .await?;
        return Ok(());
    }
    let settings = bot.settings(submit.guild_id.map(|g| g.get())).await?;
    let lobby = Lobby {
        channel,
        guild: submit.guild_id.map(|g| g.get()),
        opener: me,
        master: Some(me),
        pool: settings.pool.clone(),
        pattern_id: None,
        set,
        typed: Some((opening.hidden, opening.initial)),
        students: Vec::new(),
        opened_ms: crate::bot::kit::wall_ms(),
        ttl_ms: lobby_ms(bot, submit.guild_id.map(|g| g.get())).await?,
    };
    let post = match open_lobby(bot, lobby).await {
        Ok(post) => post,
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

/// The lobby as posted: who joined, and its buttons.
fn lobby_post(id: i64, l: &Lobby) -> Post {
    let mut post = Post::default();
    let master = l.master.map_or("the umpire".to_string(), |m| {
        format!("{} (a host, who does not play)", mention(PlayerId(m)))
    });
    post.line(format!(
        "**Zendo Classic lobby** ({} set): the Master is {master}. {} to {} students; \
         turn order is the join order. {} or a host starts; the lobby closes <t:{}:R> \
         ({} after it opened) if nobody does.",
        l.set,
        MIN_STUDENTS,
        MAX_STUDENTS,
        mention(PlayerId(l.opener)),
        l.closes_ms().div_ceil(1000),
        lifetime(l.ttl_ms)
    ));
    if l.students.is_empty() {
        post.line("students: nobody yet");
    } else {
        let names: Vec<String> = l
            .students
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{}. {}", i + 1, mention(PlayerId(*s))))
            .collect();
        post.line(format!("students: {}", names.join(", ")));
    }
    let button = |press, label: &str| {
        Button::new(
            ButtonId {
                game: MatchId(id),
                version: 0,
                press: Press::Lobby(press),
            },
            label,
        )
    };
    post.buttons(vec![
        button(LobbyPress::Join, "Join"),
        button(LobbyPress::Leave, "Leave"),
        button(LobbyPress::Start, "Start"),
    ]);
    post
}

/// What became of a lobby asked to change.
enum Changed {
    /// Changed and stored: the lobby as it is now.
    Done(Box<Lobby>),
    /// Refused, with why (nothing changed).
    Refused(String),
    /// Started or expired meanwhile.
    Closed,
}

/// Applies `f` to lobby `id` (its refusal leaves it as it was) and stores the result
/// before anyone sees it; `start` takes it out instead, as it begins.
async fn change(
    bot: &Bot,
    id: i64,
    now_ms: u64,
    start: bool,
    f: impl FnOnce(&mut Lobby) -> Option<String>,
) -> Result<Changed, Error> {
    let mut all = lobbies().await;
    let Some(mut lobby) = all.get(&id).filter(|l| !l.expired(now_ms)).cloned() else {
        return Ok(Changed::Closed);
    };
    if let Some(refusal) = f(&mut lobby) {
        return Ok(Changed::Refused(refusal));
    }
    if start {
        bot.store.delete_lobby(id).await?;
        all.remove(&id);
    } else {
        save(bot, id, &lobby).await?;
        all.insert(id, lobby.clone());
    }
    Ok(Changed::Done(Box::new(lobby)))
}

/// A press of a lobby's button.
pub async fn on_lobby(
    ctx: &serenity::Context,
    bot: &Data,
    press: &serenity::ComponentInteraction,
    id: i64,
    what: LobbyPress,
) -> Result<(), Error> {
    let user = press.user.id.get();
    let now = crate::bot::kit::wall_ms();
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
    let closed = "this lobby is closed (started, or expired): `/zendo classic` opens another";
    let open = lobbies().await.get(&id).cloned();
    let Some(lobby) = open.filter(|l| !l.expired(now)) else {
        // Its timer may not have fired yet: the press closes it.
        expire(bot, id, now).await;
        private(closed.into()).await?;
        return Ok(());
    };
    // The checks that ask Discord or the store come first; those on the lobby itself
    // again under its lock (another press may have come between).
    let changed = match what {
        LobbyPress::Join => {
            if press.user.bot {
                Changed::Refused("bots cannot play".into())
            } else if bot.match_of(lobby.channel, user).await?.is_some() {
                Changed::Refused(
                    "you are already playing a match in this channel (`/zendo status`)".into(),
                )
            } else {
                change(bot, id, now, false, |l| {
                    if l.master == Some(user) {
                        Some("you are this game's Master: the Master does not play".to_string())
                    } else if l.students.contains(&user) {
                        Some("you are in already".into())
                    } else if l.students.len() >= MAX_STUDENTS {
                        Some(format!("the lobby is full ({MAX_STUDENTS} students)"))
                    } else {
                        l.students.push(user);
                        None
                    }
                })
                .await?
            }
        }
        LobbyPress::Leave => {
            change(bot, id, now, false, |l| {
                if !l.students.contains(&user) {
                    return Some("you are not in this lobby".into());
                }
                l.students.retain(|s| *s != user);
                None
            })
            .await?
        }
        LobbyPress::Start => {
            let settings = bot.settings(lobby.guild).await?;
            if user != lobby.opener && !is_host(press.member.as_ref(), settings.host_role) {
                Changed::Refused(format!(
                    "only {} (who opened the lobby) or a host starts it",
                    mention(PlayerId(lobby.opener))
                ))
            } else {
                // Taken out at once: a second press finds the lobby closed.
                let taken = change(bot, id, now, true, |l| {
                    (l.students.len() < MIN_STUDENTS).then(|| {
                        format!(
                            "Zendo Classic needs {MIN_STUDENTS} to {MAX_STUDENTS} students; {} \
                             joined",
                            l.students.len()
                        )
                    })
                })
                .await?;
                if let Changed::Done(lobby) = taken {
                    let mut starting = Post::text(format!(
                        "**Zendo Classic**: starting with {} (the umpire draws the rule)...",
                        names_of(&lobby.students)
                    ));
                    starting.buttons.clear();
                    update(starting).await?;
                    if let Err(e) = begin(bot, &lobby, &settings).await {
                        // Nothing is lost: the lobby opens again as it was, for a full
                        // lifetime.
                        let channel = lobby.channel;
                        let mut again = Post::text(format!("no game: {e}"));
                        let lobby = Lobby {
                            opened_ms: crate::bot::kit::wall_ms(),
                            ..*lobby
                        };
                        again.append(open_lobby(bot, lobby).await?);
                        bot.post(serenity::ChannelId::new(channel.max(1)), &again)
                            .await;
                    }
                    return Ok(());
                }
                taken
            }
        }
    };
    match changed {
        Changed::Done(l) => update(lobby_post(id, &l)).await?,
        Changed::Refused(why) => private(why).await?,
        Changed::Closed => private(closed.into()).await?,
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

/// Draws the rule, checks the DMs, creates the match and says its opening.
async fn begin(bot: &Data, lobby: &Lobby, settings: &crate::bot::Effective) -> Result<(), String> {
    let seed: u64 = rand::rng().random();
    let (hidden, initial) = match &lobby.typed {
        Some(typed) => typed.clone(),
        None => {
            bot.draw(
                lobby.guild,
                &lobby.pool,
                lobby.pattern_id.as_deref(),
                lobby.set,
                seed,
            )
            .await?
        }
    };
    let mut dms = Vec::new();
    for &s in &lobby.students {
        dms.push((s, dm_hello(bot, s, lobby.channel).await));
    }
    let setup = ClassicSetup {
        students: lobby.students.iter().map(|s| PlayerId(*s)).collect(),
        master: lobby.master.map(PlayerId),
        hidden,
        initial,
        settings: Settings {
            set: lobby.set,
            style: settings.style,
        },
        timing: classic_timing(bot, lobby.guild)
            .await
            .map_err(|e| e.to_string())?
            .0,
        seed,
    };
    let place = Place {
        guild: lobby.guild,
        channel: Some(lobby.channel),
    };
    let game = bot
        .runtime
        .create(place, setup.into())
        .await
        .map_err(|e| e.to_string())?;
    for (user, dm) in &dms {
        if let Err(e) = bot.store.set_dm_channel(game, *user, *dm).await {
            tracing::warn!(%game, user, error = %e, "could not store a student's DM channel");
        }
    }
    let view = bot
        .runtime
        .view(game, &crate::rules::Viewer::Spectator)
        .await
        .map_err(|e| e.to_string())?;
    // The opening is said here; the desk says everything after it.
    bot.store
        .set_announced(game, 1)
        .await
        .map_err(|e| e.to_string())?;
    bot.open_desk(game, lobby.channel);
    let mut post = bot.fronts.opening(game, &view, bot.clocks());
    let no_dm: Vec<u64> = dms
        .iter()
        .filter(|(_, dm)| dm.is_none())
        .map(|(u, _)| *u)
        .collect();
    if !no_dm.is_empty() {
        post.line(format!(
            "I cannot DM {}: mondo answers will be taken with a private button in this \
             channel instead.",
            names_of(&no_dm)
        ));
    }
    bot.post(serenity::ChannelId::new(lobby.channel.max(1)), &post)
        .await;
    Ok(())
}

/// Opens a DM with a student and says hello; the DM channel, or `None` if Discord
/// refuses or does not answer in time.
async fn dm_hello(bot: &Bot, user: u64, channel: u64) -> Option<u64> {
    let hello = format!(
        "You are a student in a Zendo Classic game in <#{channel}>. When someone calls \
         mondo, your private answer buttons come here (or use *Answer privately* in the \
         channel)."
    );
    super::dm_hello(bot, user, hello).await
}

/// Leave your Zendo Classic game (your turn passes, your stones go with you).
///
/// The game goes on without you; with one student left it ends with no winner. In a
/// duel or practice this resigns.
#[poise::command(slash_command)]
pub async fn leave(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, |_| Ok(AnyAction::Common(Common::Resign))).await
}

/// Zendo Classic: you were skipped for time-outs; say you are back in the turn order.
#[poise::command(slash_command)]
pub async fn back(ctx: Context<'_>) -> Result<(), Error> {
    play(ctx, |r| match r.game() {
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
pub struct Front;

impl GameBot for Front {
    type View = ClassicView;
    type Voice = Voice;

    fn voice(_: &AnyView, v: &ClassicView) -> Voice {
        Voice::new(v)
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
            version: v.version,
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
    let button = |press, label: &str| {
        Button::new(
            ButtonId {
                game,
                version: v.version,
                press,
            },
            label,
        )
    };
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
    if v.outcome.is_none() && !events.is_empty() {
        post.line(clock_line(v, clocks));
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
        PhaseView::Over => String::new(),
    }
}

/// The opening post: the students, the initial structures, who starts.
pub fn opening(game: MatchId, v: &ClassicView, clocks: Clocks) -> Post {
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
    let names = Names::mentions(v.players.values());
    let mut post = Post::text(format!("**Zendo Classic #{game}**"));
    post.line(crate::narrate::classic::status(game.0, v, &names, clocks.game).text);
    post.line(stones(&names, v).text);
    if let Some(rule) = &v.revealed {
        post.line(format!("the rule was: {rule}"));
    }
    post
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    const OPENED: u64 = 1_700_000_000_000;

    fn lobby(typed: Option<&str>) -> Lobby {
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
        Lobby {
            channel: 10,
            guild: Some(20),
            opener: 1,
            master: typed.as_ref().map(|_| 1),
            pool: "pyramids".into(),
            pattern_id: None,
            set: PieceSet::Pyramids,
            typed,
            students: vec![3, 2],
            opened_ms: OPENED,
            ttl_ms: 15 * 60_000,
        }
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
        let c = config().classic;
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
    fn a_lobby_expires_its_lifetime_after_it_opened_and_not_before() {
        let l = lobby(None);
        assert!(!l.expired(OPENED));
        assert!(!l.expired(OPENED + 15 * 60_000 - 1));
        assert!(l.expired(OPENED + 15 * 60_000));
        assert!(
            l.expired(OPENED + 86_400_000),
            "a day later, after a long outage"
        );
        let far = Lobby {
            opened_ms: u64::MAX - 5,
            ..l
        };
        assert!(!far.expired(u64::MAX - 1), "no overflow");
        assert_eq!(lifetime(15 * 60_000), "15 minutes");
        assert_eq!(lifetime(90_000), "90 seconds");
    }

    #[tokio::test]
    async fn a_stored_lobby_reads_back_after_a_restart_with_its_students_in_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("m.db");
        let typed = lobby(Some("at least one piece points up"));
        let store = Store::open(&path).await.expect("store");
        store.put_lobby(&record(5, &typed).unwrap()).await.unwrap();
        store.close().await;

        let store = Store::open(&path).await.expect("reopened");
        let back = store.lobbies(game_kind()).await.unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].id, 5);
        let l = from_record(&back[0]).expect("reads");
        assert_eq!(l.students, vec![3, 2], "join order is turn order");
        assert_eq!((l.channel, l.guild, l.master), (10, Some(20), Some(1)));
        let (rule, initial) = l.typed.clone().expect("the typed rule");
        assert_eq!(rule.source, "at least one piece points up");
        assert_eq!(Some(&initial), typed.typed.as_ref().map(|t| &t.1));
        // Expiry is judged from the stored opening time.
        assert!(!l.expired(OPENED + 60_000));
        assert!(l.expired(OPENED + 15 * 60_000));
        // The lobby's message names no rule.
        let text = lobby_post(5, &l).content();
        assert!(!text.contains("points up"), "{text}");
        assert!(
            text.contains(&format!("<t:{}:R>", (OPENED + 15 * 60_000) / 1000)),
            "{text}"
        );
        store.close().await;
    }
}
