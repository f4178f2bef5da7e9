//! Zendo Classic on Discord: the lobby (`/zendo classic`, *Join* / *Leave* / *Start*),
//! the Classic's own commands (`/zendo leave`, `/zendo back`), and its posts. `/koan`
//! (with `call: master|mondo`), `/guess`, the read-back buttons and the private
//! answer buttons are the duel's, routed here by the match's game. The words are
//! `narrate::classic`'s.
//!
//! A lobby lives in memory only (it is a few clicks to open again): a restart forgets
//! it, and its buttons then say so. Once started, the game is a match like any other
//! and survives restarts.

use super::SetChoice;
use crate::bot::commands::{play, reply};
use crate::bot::ids::{ButtonId, LobbyPress, Press};
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
use crate::rules::{EventKind, PlayerId};
use crate::runtime::{AnyAction, AnyEvent, Common, Place, events_of};
use crate::store::MatchId;
use poise::serenity_prelude as serenity;
use rand::RngExt;
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

/// How long a lobby nobody starts stays open.
pub const LOBBY_TTL: Duration = Duration::from_secs(15 * 60);

/// A lobby waiting for its students.
#[derive(Clone, Debug)]
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
    /// structures; otherwise the pool decides at the start.
    typed: Option<(crate::lang::Pattern, crate::rules::zendo::Initial)>,
    /// In join order, which is the turn order.
    students: Vec<u64>,
}

/// The box a Master types the rule in: `classic-rule:SET`.
const RULE_MODAL: &str = "classic-rule:";
/// Its text field.
pub const RULE_FIELD: &str = "rule";

/// The open lobbies, by their number (the `MATCH` part of their buttons' ids).
static LOBBIES: LazyLock<Mutex<HashMap<i64, Lobby>>> = LazyLock::new(Default::default);

fn lobbies() -> std::sync::MutexGuard<'static, HashMap<i64, Lobby>> {
    // A panic while the map was held left it consistent (every change is one call).
    LOBBIES.lock().unwrap_or_else(|e| e.into_inner())
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
    if lobbies().values().any(|l| l.channel == channel) {
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
    };
    reply(ctx, open_lobby(bot, lobby)).await
}

/// Keeps a new lobby (closing it after [`LOBBY_TTL`]) and returns its post.
fn open_lobby(bot: &Data, lobby: Lobby) -> Post {
    let id: i64 = rand::rng().random_range(1..i64::MAX);
    let post = lobby_post(id, &lobby);
    lobbies().insert(id, lobby);
    let http = bot.http.clone();
    tokio::spawn(async move {
        tokio::time::sleep(LOBBY_TTL).await;
        let expired = lobbies().remove(&id);
        if let Some(l) = expired {
            let note = Post::text(format!(
                "The Zendo Classic lobby opened by {} expired (nobody started it in {} \
                 minutes): `/zendo classic` opens another.",
                mention(PlayerId(l.opener)),
                LOBBY_TTL.as_secs() / 60
            ));
            let _ = serenity::ChannelId::new(l.channel.max(1))
                .send_message(&http, note.message())
                .await;
        }
    });
    post
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
    if lobbies().values().any(|l| l.channel == channel) {
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
    };
    say(Post::private("your rule is reasonable: the lobby is open")).await?;
    let post = open_lobby(bot, lobby);
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
         turn order is the join order. {} or a host starts; the lobby closes in {} minutes \
         if nobody does.",
        l.set,
        MIN_STUDENTS,
        MAX_STUDENTS,
        mention(PlayerId(l.opener)),
        LOBBY_TTL.as_secs() / 60
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

/// A press of a lobby's button.
pub async fn on_lobby(
    ctx: &serenity::Context,
    bot: &Data,
    press: &serenity::ComponentInteraction,
    id: i64,
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
    let Some(lobby) = lobbies().get(&id).cloned() else {
        private(
            "this lobby is closed (started, expired, or forgotten when Mondo restarted): \
             `/zendo classic` opens another"
                .into(),
        )
        .await?;
        return Ok(());
    };
    match what {
        LobbyPress::Join => {
            let refusal = if lobby.master == Some(user) {
                Some("you are this game's Master: the Master does not play".to_string())
            } else if lobby.students.contains(&user) {
                Some("you are in already".into())
            } else if lobby.students.len() >= MAX_STUDENTS {
                Some(format!("the lobby is full ({MAX_STUDENTS} students)"))
            } else if press.user.bot {
                Some("bots cannot play".into())
            } else if bot.match_of(lobby.channel, user).await?.is_some() {
                Some("you are already playing a match in this channel (`/zendo status`)".into())
            } else {
                None
            };
            if let Some(text) = refusal {
                private(text).await?;
                return Ok(());
            }
            let post = {
                let mut all = lobbies();
                let Some(l) = all.get_mut(&id) else {
                    return Ok(());
                };
                l.students.push(user);
                lobby_post(id, l)
            };
            update(post).await?;
        }
        LobbyPress::Leave => {
            if !lobby.students.contains(&user) {
                private("you are not in this lobby".into()).await?;
                return Ok(());
            }
            let post = {
                let mut all = lobbies();
                let Some(l) = all.get_mut(&id) else {
                    return Ok(());
                };
                l.students.retain(|s| *s != user);
                lobby_post(id, l)
            };
            update(post).await?;
        }
        LobbyPress::Start => {
            let settings = bot.settings(lobby.guild).await?;
            if user != lobby.opener && !is_host(press.member.as_ref(), settings.host_role) {
                private(format!(
                    "only {} (who opened the lobby) or a host starts it",
                    mention(PlayerId(lobby.opener))
                ))
                .await?;
                return Ok(());
            }
            if lobby.students.len() < MIN_STUDENTS {
                private(format!(
                    "Zendo Classic needs {MIN_STUDENTS} to {MAX_STUDENTS} students; {} joined",
                    lobby.students.len()
                ))
                .await?;
                return Ok(());
            }
            // Taken out at once: a second press finds the lobby closed.
            if lobbies().remove(&id).is_none() {
                return Ok(());
            }
            let mut closed = Post::text(format!(
                "**Zendo Classic**: starting with {} (the umpire draws the rule)...",
                names_of(&lobby.students)
            ));
            closed.buttons.clear();
            update(closed).await?;
            if let Err(e) = begin(bot, &lobby, &settings).await {
                // Nothing is lost: the lobby opens again as it was.
                let channel = lobby.channel;
                let mut again = Post::text(format!("no game: {e}"));
                again.append(open_lobby(bot, lobby));
                bot.post(serenity::ChannelId::new(channel.max(1)), &again)
                    .await;
            }
        }
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
        // The server's duel clocks: the same turn, answer and guess times.
        timing: ClassicTiming {
            turn_ms: settings.timing.turn_ms,
            answer_ms: settings.timing.challenge_ms,
            guess_bonus_ms: settings.timing.guess_bonus_ms,
        },
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
    let mut post = crate::bot::games::opening(game, &view, bot.clocks());
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
        if !no_dm.is_empty() {
            let who: Vec<String> = no_dm.iter().map(|p| mention(*p)).collect();
            post.line(format!(
                "{}: I could not DM you, so answer with the button below (only you see \
                 your answer)",
                who.join(", ")
            ));
        }
        // For every student: a DM that never arrived must not cost an answer.
        post.buttons(vec![button(Press::AskHere, "Answer privately")]);
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
