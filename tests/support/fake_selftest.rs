//! Self-test of the fake Discord (tests/support/discord), run in the discord_e2e binary
//! (so the fake is compiled once): a tiny poise bot, connected exactly
//! as the real one will be (HttpBuilder::proxy + ratelimiter_disabled,
//! ClientBuilder::new_with_http), must see READY and GUILD_CREATE, register its commands, and
//! answer a slash command (PNG attachment and a button), a button click (ephemeral), a modal,
//! a DM to a user with open DMs and one to a user with closed DMs (50007); the validator must
//! catch a malformed request; the bot must come back after the websocket drops (RESUME) and
//! after a restart (a second client, IDENTIFY). Raw gateway clients check the shards: each
//! gets only its own servers, a bad shard is closed, fast IDENTIFYs are reported.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support::discord::{FakeDiscord, Interaction, ReplyKind};
use poise::serenity_prelude as serenity;
use serde_json::json;

type Error = Box<dyn std::error::Error + Send + Sync>;
type Ctx<'a> = poise::Context<'a, Data, Error>;

const T: Duration = Duration::from_secs(10);

/// A 2x1 RGBA PNG.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0xf4, 0x22, 0x7f,
    0x8a, 0x00, 0x00, 0x00, 0x12, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0,
    0x1f, 0x08, 0x1b, 0x18, 0x80, 0x34, 0x00, 0x2f, 0xee, 0x05, 0xfb, 0x58, 0x2d, 0x6f, 0x16, 0x00,
    0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// What the bot saw, for the test to check.
#[derive(Default)]
struct Seen {
    ready_user: Option<u64>,
    /// (name, channels, members, roles) of GUILD_CREATE.
    guild: Option<(String, usize, usize, usize)>,
    commands: Vec<String>,
    clicks: Vec<String>,
    dm_errors: Vec<isize>,
    guesses: Vec<String>,
    /// MESSAGE_CREATE events: (author, content).
    messages: Vec<(u64, String)>,
}

#[derive(Clone, Default)]
struct Probe(Arc<(Mutex<Seen>, tokio::sync::Notify)>);

impl Probe {
    fn update(&self, f: impl FnOnce(&mut Seen)) {
        f(&mut self.0.0.lock().unwrap());
        self.0.1.notify_waiters();
    }
    async fn wait<R>(&self, what: &str, f: impl Fn(&Seen) -> Option<R>) -> R {
        let deadline = Instant::now() + T;
        loop {
            let notified = self.0.1.notified();
            if let Some(r) = f(&self.0.0.lock().unwrap()) {
                return r;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || tokio::time::timeout(left, notified).await.is_err() {
                panic!("the bot never saw {what}");
            }
        }
    }
}

struct Data {
    probe: Probe,
}

/// Ping commands
#[poise::command(slash_command, subcommands("pong"))]
async fn ping(_ctx: Ctx<'_>) -> Result<(), Error> {
    Ok(())
}

/// Answers with a picture and a button
#[poise::command(slash_command)]
async fn pong(
    ctx: Ctx<'_>,
    #[description = "Whom to greet"] who: serenity::User,
    #[description = "How often"] times: Option<i64>,
    #[description = "A file"] file: Option<serenity::Attachment>,
) -> Result<(), Error> {
    let times = times.unwrap_or(1);
    ctx.data()
        .probe
        .update(|s| s.commands.push(format!("pong {} {times}", who.name)));
    let mut text = format!("pong {} x{times}", who.name);
    if let Some(file) = file {
        let bytes = file.download().await?;
        text += &format!(" ({}: {})", file.filename, String::from_utf8_lossy(&bytes));
    }
    let button = serenity::CreateButton::new("again").label("Again");
    ctx.send(
        poise::CreateReply::default()
            .content(text)
            .embed(
                serenity::CreateEmbed::new()
                    .title("Pong")
                    .description("a picture"),
            )
            .attachment(serenity::CreateAttachment::bytes(PNG.to_vec(), "pong.png"))
            .components(vec![serenity::CreateActionRow::Buttons(vec![button])]),
    )
    .await?;
    Ok(())
}

/// Sends a direct message
#[poise::command(slash_command)]
async fn dm(ctx: Ctx<'_>, #[description = "To whom"] who: serenity::User) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    match who
        .direct_message(ctx, serenity::CreateMessage::new().content("hello by DM"))
        .await
    {
        Ok(_) => {
            ctx.say("sent").await?;
        }
        Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(e))) => {
            let code = e.error.code;
            ctx.data().probe.update(|s| s.dm_errors.push(code));
            ctx.say(format!("DM failed: {code}")).await?;
        }
        Err(e) => return Err(e.into()),
    }
    Ok(())
}

#[derive(Debug, poise::Modal)]
#[name = "Your guess"]
struct GuessModal {
    #[name = "The rule"]
    #[placeholder = "a koan has a red piece"]
    guess: String,
    #[name = "Notes"]
    #[paragraph]
    notes: Option<String>,
}

/// Opens a modal
#[poise::command(slash_command)]
async fn guess(ctx: poise::ApplicationContext<'_, Data, Error>) -> Result<(), Error> {
    use poise::Modal as _;
    if let Some(g) = GuessModal::execute(ctx).await? {
        ctx.data().probe.update(|s| s.guesses.push(g.guess.clone()));
        ctx.say(format!(
            "guessed: {} ({})",
            g.guess,
            g.notes.unwrap_or_default()
        ))
        .await?;
    }
    Ok(())
}

async fn on_event(
    fw: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    let probe = &fw.user_data.probe;
    match event {
        serenity::FullEvent::Ready { data_about_bot } => {
            let id = data_about_bot.user.id.get();
            probe.update(|s| s.ready_user = Some(id));
        }
        serenity::FullEvent::GuildCreate { guild, .. } => {
            let g = (
                guild.name.clone(),
                guild.channels.len(),
                guild.members.len(),
                guild.roles.len(),
            );
            probe.update(|s| s.guild = Some(g));
        }
        serenity::FullEvent::Message { new_message } => {
            let m = (new_message.author.id.get(), new_message.content.clone());
            probe.update(|s| s.messages.push(m));
        }
        serenity::FullEvent::InteractionCreate { interaction } => {
            if let Some(c) = interaction.as_message_component() {
                let ctx = fw.serenity_context;
                let name = c.user.name.clone();
                probe.update(|s| s.clicks.push(format!("{} by {name}", c.data.custom_id)));
                let msg = serenity::CreateInteractionResponseMessage::new()
                    .content(format!("clicked by {name}"))
                    .ephemeral(true);
                c.create_response(ctx, serenity::CreateInteractionResponse::Message(msg))
                    .await?;
            }
        }
        _ => {}
    }
    Ok(())
}

struct Bot {
    shards: Arc<serenity::ShardManager>,
    task: tokio::task::JoinHandle<()>,
}

async fn start_bot(fake: &FakeDiscord, probe: Probe) -> Bot {
    let guild_id = serenity::GuildId::new(fake.guild_id());
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: vec![ping(), dm(), guess()],
            event_handler: |fw, event| Box::pin(on_event(fw, event)),
            ..Default::default()
        })
        .setup(move |ctx, _ready, framework| {
            Box::pin(async move {
                let commands = &framework.options().commands;
                poise::builtins::register_globally(ctx, &commands[..1]).await?;
                poise::builtins::register_in_guild(ctx, &commands[1..], guild_id).await?;
                Ok(Data { probe })
            })
        })
        .build();
    // Exactly how the bot is meant to reach the fake.
    let http = serenity::HttpBuilder::new(fake.token())
        .proxy(fake.proxy_url())
        .ratelimiter_disabled(true)
        .build();
    let intents = serenity::GatewayIntents::non_privileged();
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .await
        .expect("client builds");
    let shards = client.shard_manager.clone();
    let task = tokio::spawn(async move { client.start().await.expect("client runs") });
    Bot { shards, task }
}

impl Bot {
    async fn stop(self) {
        self.shards.shutdown_all().await;
        tokio::time::timeout(T, self.task)
            .await
            .expect("client stops")
            .expect("client task");
    }
}

/// The one reply to `i` that carries a message (acknowledged: how fast is a benchmark's
/// business).
async fn answer(fake: &FakeDiscord, i: &Interaction) -> crate::support::discord::StoredMessage {
    let replies = fake.replies(i, T).await;
    assert!(fake.interaction_latency(i).is_some(), "acknowledged");
    replies
        .iter()
        .find_map(|r| r.message.clone())
        .unwrap_or_else(|| panic!("no message in the replies {replies:?}"))
}

/// The status line of a raw `GET path` with the bot's token.
async fn raw_get(fake: &FakeDiscord, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = fake.proxy_url().trim_start_matches("http://").to_string();
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let token = fake.token();
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: fake\r\nAuthorization: Bot {token}\r\nConnection: close\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    out.lines().next().unwrap_or("").to_string()
}

/// The validator itself: routes, request and response schemas.
#[test]
fn the_schema_validator_reports_violations() {
    use crate::support::discord::schema::spec;
    let s = spec();
    let create = s
        .route("POST", "/channels/123/messages")
        .expect("create_message");
    assert_eq!(create.op.operation_id, "create_message");
    assert_eq!(create.param("channel_id"), "123");
    let edit = s
        .route("PATCH", "/webhooks/1/tok/messages/@original")
        .unwrap();
    assert_eq!(edit.op.operation_id, "update_original_webhook_message");
    let edit = s.route("PATCH", "/webhooks/1/tok/messages/99").unwrap();
    assert_eq!(edit.op.operation_id, "update_webhook_message");
    assert!(s.route("GET", "/no/such/route").is_none());

    let ok = json!({"content": "hi", "embeds": [{"title": "t"}]});
    assert_eq!(
        s.check_request(&create.op, "application/json", &ok),
        Vec::<String>::new()
    );
    let bad = json!({"content": "hi", "embeds": [{"title": 7}]});
    let v = s.check_request(&create.op, "application/json", &bad);
    assert!(v.len() == 1 && v[0].contains("/embeds/0/title"), "{v:?}");
    // Inside a union (the callback's anyOf), the branch meant is the one reported.
    let callback = s.route("POST", "/interactions/1/tok/callback").unwrap();
    let bad = json!({"type": 4, "data": {"content": "x", "flags": "64"}});
    let v = s.check_request(&callback.op, "application/json", &bad);
    assert!(
        !v.is_empty() && v.iter().all(|m| m.contains("/data/flags")),
        "{v:?}"
    );
    // Responses are checked against the published schema (here: required fields missing).
    let v = s.check_response(&create.op, 200, &json!({"id": "1"}));
    assert!(v.iter().any(|m| m.contains("required")), "{v:?}");
}

/// The serenity check catches an incomplete payload (which serenity would drop silently).
#[test]
fn the_serenity_check_catches_incomplete_events() {
    let frame = |t: &str, d: serde_json::Value| json!({"op": 0, "s": 1, "t": t, "d": d});
    let ready = json!({
        "v": 10, "user": {"id": "1", "username": "b", "discriminator": "0", "global_name": null,
        "avatar": null, "bot": true}, "guilds": [], "session_id": "s",
        "resume_gateway_url": "ws://x", "shard": [0, 1], "application": {"id": "1", "flags": 0},
    });
    FakeDiscord::serenity_parses_event("READY", &frame("READY", ready.clone())).unwrap();
    let mut broken = ready;
    broken.as_object_mut().unwrap().remove("application");
    let e = FakeDiscord::serenity_parses_event("READY", &frame("READY", broken)).unwrap_err();
    assert!(e.contains("application"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serenity_and_poise_talk_to_the_fake() {
    let t0 = Instant::now();
    // A short heartbeat interval, so heartbeats are exercised too.
    let fake = FakeDiscord::start_with_heartbeat(Duration::from_millis(250)).await;
    // Every payload of the fake is also parsed with serenity's own types.
    fake.check_with_serenity();
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", false);
    let host = fake.add_role("host");
    fake.give_role(alice.id, host);
    fake.set_permissions(alice.id, 1 << 5);

    let probe = Probe::default();
    let bot = start_bot(&fake, probe.clone()).await;
    fake.wait_ready(T).await;
    let t_ready = t0.elapsed();

    // READY and GUILD_CREATE arrived parsed.
    let me = probe.wait("READY", |s| s.ready_user).await;
    assert_eq!(me, fake.bot_user_id());
    let (name, channels, members, roles) = probe.wait("GUILD_CREATE", |s| s.guild.clone()).await;
    assert_eq!(
        (name.as_str(), channels, members, roles),
        ("Mondo Test Guild", 1, 4, 2)
    );

    // Commands registered: /ping globally, /dm and /guess in the guild.
    let commands = fake.wait_commands(T).await;
    let mut names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    names.sort();
    assert_eq!(names, ["dm", "guess", "ping"]);
    let ping_def = commands.iter().find(|c| c["name"] == "ping").unwrap();
    assert_eq!(ping_def["options"][0]["name"], "pong");
    assert_eq!(ping_def["options"][0]["type"], 1);

    // What serenity and poise asked at start-up.
    let startup: Vec<String> = fake
        .requests()
        .iter()
        .map(|r| {
            format!(
                "{} {}",
                r.method,
                r.operation_id.clone().unwrap_or_default()
            )
        })
        .collect();
    eprintln!("start-up requests: {startup:?}");
    assert!(
        startup.contains(&"GET get_gateway".to_string()),
        "{startup:?}"
    );
    assert!(
        startup.contains(&"PUT bulk_set_application_commands".to_string()),
        "{startup:?}"
    );
    assert!(startup.contains(&"PUT bulk_set_guild_application_commands".to_string()));

    // A slash command with a subcommand and a user option: PNG attachment and a button.
    let t_cmd = Instant::now();
    let i = fake
        .slash(
            alice.id,
            "ping pong",
            &[("who", json!(bob.id.to_string())), ("times", json!(3))],
        )
        .await;
    let msg = answer(&fake, &i).await;
    let t_slash = t_cmd.elapsed();
    assert_eq!(msg.content, "pong bob x3");
    assert_eq!(msg.text(), "pong bob x3\nPong\na picture");
    assert_eq!(msg.files, vec![("pong.png".to_string(), PNG.to_vec())]);
    assert_eq!(
        msg.buttons(),
        vec![("again".to_string(), "Again".to_string())]
    );
    assert!(!msg.ephemeral);
    assert_eq!(
        probe
            .wait("the command", |s| s.commands.first().cloned())
            .await,
        "pong bob 3"
    );
    assert_eq!(fake.messages(fake.channel_id()).len(), 1);
    // The attachment is served at its url, as serenity downloads it.
    let attachment: serenity::Attachment =
        serde_json::from_value(msg.attachments[0].clone()).expect("attachment parses");
    assert_eq!(attachment.width, Some(2));
    assert_eq!(attachment.download().await.expect("download"), PNG);

    // The gateway told the bot about its own message, and about a user's (whose content
    // Discord blanks without the MESSAGE_CONTENT intent).
    let bot_id = fake.bot_user_id();
    probe
        .wait("MESSAGE_CREATE", |s| {
            s.messages.iter().find(|m| m.0 == bot_id).cloned()
        })
        .await;
    fake.post(bob.id, fake.channel_id(), "hello bot");
    let seen = probe.wait("bob's message", |s| {
        s.messages.iter().find(|m| m.0 == bob.id).cloned()
    });
    assert_eq!(seen.await.1, "");

    // A button click, answered with an ephemeral message.
    let click = fake.click(bob.id, msg.id, "again").await;
    let eph = answer(&fake, &click).await;
    assert_eq!(eph.content, "clicked by bob");
    assert!(eph.ephemeral);
    assert_eq!(
        probe.wait("the click", |s| s.clicks.first().cloned()).await,
        "again by bob"
    );

    // DMs: closed DMs fail with 50007, open ones arrive.
    let i = fake
        .slash(alice.id, "dm", &[("who", json!(bob.id.to_string()))])
        .await;
    let replies = fake.replies(&i, T).await;
    assert_eq!(replies[0].kind, ReplyKind::Callback(5));
    assert_eq!(replies[1].kind, ReplyKind::Followup);
    let failed = replies[1].message.clone().unwrap();
    assert_eq!(
        (failed.content.as_str(), failed.ephemeral),
        ("DM failed: 50007", true)
    );
    assert_eq!(
        probe
            .wait("the DM error", |s| s.dm_errors.first().copied())
            .await,
        50007
    );
    let i = fake
        .slash(alice.id, "dm", &[("who", json!(alice.id.to_string()))])
        .await;
    assert_eq!(answer(&fake, &i).await.content, "sent");
    let dm = fake
        .dm_channel_of(alice.id)
        .expect("a DM channel with alice");
    let dms = fake.messages(dm);
    assert_eq!(dms.len(), 1);
    assert_eq!(dms[0].content, "hello by DM");
    assert!(
        fake.messages(fake.dm_channel_of(bob.id).unwrap())
            .is_empty()
    );

    // A modal: opened (type 9), submitted, and the bot's follow-up to the command.
    let i = fake.slash(alice.id, "guess", &[]).await;
    let replies = fake.replies(&i, T).await;
    assert_eq!(replies[0].kind, ReplyKind::Callback(9));
    let modal = replies[0].data.clone().unwrap();
    assert_eq!(modal["title"], "Your guess");
    let submit = fake
        .submit_modal(alice.id, &i, &[("guess", "all red"), ("notes", "n")])
        .await;
    let ack = fake
        .wait_reply(&submit, |r| r.kind == ReplyKind::Callback(6), T)
        .await;
    assert!(ack.is_some(), "the modal submit was acknowledged");
    let followup = fake
        .wait_reply(&i, |r| r.kind == ReplyKind::Followup, T)
        .await
        .unwrap();
    assert_eq!(followup.message.unwrap().content, "guessed: all red (n)");
    assert_eq!(
        probe
            .wait("the guess", |s| s.guesses.first().cloned())
            .await,
        "all red"
    );

    // A global command in a DM channel (user, not member), with an uploaded file the bot
    // downloads from the fake.
    let dm = fake.dm_channel(alice.id);
    let file = fake.attachment("koan.txt", b"AAB".to_vec());
    let options = [("who", json!(alice.id.to_string())), ("file", file)];
    let i = fake.slash_in(dm, alice.id, "ping pong", &options).await;
    assert!(
        i.payload.get("member").is_none() && i.payload["user"]["id"] == json!(alice.id.to_string())
    );
    let msg = answer(&fake, &i).await;
    assert_eq!(
        (msg.channel_id, msg.content.as_str()),
        (dm, "pong alice x1 (koan.txt: AAB)")
    );

    // Answering an interaction twice is refused like Discord does, and reported.
    let again = fake
        .http()
        .create_interaction_response(
            serenity::InteractionId::new(i.id),
            &i.token,
            &json!({"type": 4, "data": {"content": "twice"}}),
            vec![],
        )
        .await;
    match again {
        Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(e))) => {
            assert_eq!(e.error.code, 40060)
        }
        other => panic!("a second acknowledgement gave {other:?}"),
    }
    let problems = fake.take_problems();
    assert!(
        problems.len() == 1 && problems[0].contains("acknowledged twice"),
        "{problems:?}"
    );

    // An unknown route is answered 404 and reported.
    let status = raw_get(&fake, "/api/v10/no/such/route").await;
    assert!(status.starts_with("HTTP/1.1 404"), "{status}");
    let problems = fake.take_problems();
    assert!(
        problems.len() == 1 && problems[0].contains("no such route"),
        "{problems:?}"
    );

    // Reads a bot may do outside the cache are answered (and parse, and fit the schemas).
    let http = fake.http();
    let gid = serenity::GuildId::new(fake.guild_id());
    let channel = http
        .get_channel(serenity::ChannelId::new(fake.channel_id()))
        .await
        .unwrap();
    assert_eq!(channel.guild().unwrap().name, "zendo");
    let channel = http
        .get_channel(serenity::ChannelId::new(dm))
        .await
        .unwrap();
    assert_eq!(channel.private().unwrap().recipient.id.get(), alice.id);
    assert_eq!(http.get_guild(gid).await.unwrap().name, "Mondo Test Guild");
    assert_eq!(http.get_guild_roles(gid).await.unwrap().len(), 2);
    assert_eq!(
        http.get_guild_members(gid, Some(10), None)
            .await
            .unwrap()
            .len(),
        4
    );
    let member = http
        .get_member(gid, serenity::UserId::new(alice.id))
        .await
        .unwrap();
    assert_eq!(member.roles, vec![serenity::RoleId::new(host)]);
    assert_eq!(
        http.get_user(serenity::UserId::new(bob.id))
            .await
            .unwrap()
            .name,
        "bob"
    );
    assert_eq!(
        http.get_current_user().await.unwrap().id.get(),
        fake.bot_user_id()
    );
    let listed = http.get_messages(serenity::ChannelId::new(fake.channel_id()), None, None);
    assert_eq!(
        listed.await.unwrap().len(),
        3,
        "the channel's messages (two of the bot, one of bob), ephemeral ones excluded"
    );

    // A public thread in the channel (its answer and THREAD_CREATE parsed by serenity):
    // a channel of the guild, messages go to it; a bot without the permission is
    // refused, which is no problem of the fake's.
    let channel = serenity::ChannelId::new(fake.channel_id());
    let open = serenity::CreateThread::new("Round 1: alice vs bob")
        .kind(serenity::ChannelType::PublicThread)
        .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
    let thread = channel.create_thread(&http, open.clone()).await.unwrap();
    assert_eq!(
        (thread.kind, thread.parent_id, thread.guild_id.get()),
        (
            serenity::ChannelType::PublicThread,
            Some(channel),
            fake.guild_id()
        )
    );
    let said = thread
        .id
        .send_message(
            &http,
            serenity::CreateMessage::new().content("in the thread"),
        )
        .await
        .unwrap();
    assert_eq!(fake.messages(thread.id.get())[0].id, said.id.get());
    let threads = fake.threads();
    assert_eq!(threads.len(), 1);
    assert_eq!(
        (
            threads[0].parent,
            threads[0].name.as_str(),
            threads[0].auto_archive
        ),
        (fake.channel_id(), "Round 1: alice vs bob", 10080)
    );
    let again = http.get_channel(thread.id).await.unwrap().guild().unwrap();
    assert_eq!(again.kind, serenity::ChannelType::PublicThread);
    fake.refuse_threads(true);
    let refused = channel.create_thread(&http, open).await.unwrap_err();
    assert!(
        refused.to_string().contains("Missing Permissions"),
        "{refused}"
    );
    fake.refuse_threads(false);

    // Everything so far was valid.
    assert_eq!(fake.problems(), Vec::<String>::new());

    // A malformed request is caught by the schema validator (content must be a string).
    let bad = fake
        .http()
        .send_message(
            serenity::ChannelId::new(fake.channel_id()),
            vec![],
            &json!({"content": 42}),
        )
        .await;
    assert!(bad.is_err(), "Discord would refuse it");
    let problems = fake.take_problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("create_message") && problems[0].contains("schema"));
    assert!(problems[0].contains("/content"), "{problems:?}");

    // The websocket drops: serenity resumes and the bot answers again.
    let t_drop = Instant::now();
    fake.drop_gateway().await;
    fake.wait_session(T).await;
    let i = fake
        .slash(bob.id, "ping pong", &[("who", json!(alice.id.to_string()))])
        .await;
    assert_eq!(answer(&fake, &i).await.content, "pong alice x1");
    let t_resume = t_drop.elapsed();
    let stats = fake.gateway_stats();
    assert_eq!((stats.identifies, stats.resumes), (1, 1), "{stats:?}");

    // The bot restarts: a second client identifies anew and is answered.
    let t_restart = Instant::now();
    bot.stop().await;
    assert!(!fake.gateway_stats().live);
    let probe2 = Probe::default();
    let bot2 = start_bot(&fake, probe2.clone()).await;
    fake.wait_ready(T).await;
    probe2.wait("the second READY", |s| s.ready_user).await;
    let i = fake
        .slash(alice.id, "ping pong", &[("who", json!(bob.id.to_string()))])
        .await;
    assert_eq!(answer(&fake, &i).await.content, "pong bob x1");
    let t_second = t_restart.elapsed();
    let stats = fake.gateway_stats();
    assert_eq!(stats.identifies, 2);
    assert!(stats.heartbeats > 0, "{stats:?}");
    bot2.stop().await;

    assert_eq!(fake.problems(), Vec::<String>::new());
    eprintln!(
        "timings: ready {t_ready:?}, first slash {t_slash:?}, resume+slash {t_resume:?}, \
         restart+slash {t_second:?}, total {:?}; ack latencies {:?}",
        t0.elapsed(),
        fake.latencies()
    );
}

type Seen2 = Vec<(String, String)>;
type RawWs =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A raw gateway client: connects, reads HELLO, IDENTIFYs as `shard`, and returns the
/// dispatches' event names it reads until READY and the GUILD_CREATEs after it (with
/// their guild ids) with the open websocket, or the close code if the fake closes instead.
async fn raw_shard(fake: &FakeDiscord, shard: [u32; 2]) -> Result<(Seen2, RawWs), u16> {
    use futures::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let url = format!("{}/?v=10&encoding=json", fake.gateway_url());
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("connects");
    let identify = json!({"op": 2, "d": {
        "token": format!("Bot {}", fake.token()),
        "properties": {"os": "linux", "browser": "test", "device": "test"},
        "intents": 1,
        "shard": shard,
    }});
    ws.send(Message::Text(identify.to_string())).await.unwrap();
    let mut seen = Vec::new();
    let mut guilds = None;
    let deadline = Instant::now() + T;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(Some(Ok(msg))) = tokio::time::timeout(left, ws.next()).await else {
            return Ok((seen, ws));
        };
        match msg {
            Message::Text(t) => {
                let v: serde_json::Value = serde_json::from_str(&t).unwrap();
                if let Some(name) = v["t"].as_str() {
                    let id = v["d"]["id"].as_str().unwrap_or_default().to_string();
                    seen.push((name.to_string(), id));
                    if name == "READY" {
                        guilds = v["d"]["guilds"].as_array().map(Vec::len);
                    }
                    let creates = seen.iter().filter(|(n, _)| n == "GUILD_CREATE").count();
                    if guilds.is_some_and(|g| creates >= g) {
                        return Ok((seen, ws));
                    }
                }
            }
            Message::Close(frame) => return Err(frame.map_or(0, |f| u16::from(f.code))),
            _ => {}
        }
    }
}

/// Shards on the fake: each connection gets only its own shard's servers; an IDENTIFY
/// beyond the total is closed with 4010; two IDENTIFYs of one rate-limit key within 5 s
/// are reported by `pacing_violations` (and none of different keys).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_routes_servers_to_their_shards_and_sees_fast_identifies() {
    let fake = FakeDiscord::start().await;
    fake.set_shards(2, 2);
    let (on_1, _) = fake.add_guild_on_shard("on one", 1, 2);
    let main = fake.guild_id();
    let main_shard = FakeDiscord::shard_of(Some(main), 2);
    assert_eq!(FakeDiscord::shard_of(Some(on_1), 2), 1);
    let (zero, _ws0) = raw_shard(&fake, [0, 2]).await.expect("shard 0 connects");
    let (one, _ws1) = raw_shard(&fake, [1, 2]).await.expect("shard 1 connects");
    let created = |seen: &[(String, String)]| -> Vec<u64> {
        seen.iter()
            .filter(|(n, _)| n == "GUILD_CREATE")
            .map(|(_, id)| id.parse().unwrap())
            .collect()
    };
    let mut want_one = vec![on_1];
    let mut want_zero = vec![];
    if main_shard == 1 {
        want_one.insert(0, main);
    } else {
        want_zero.push(main);
    }
    assert_eq!(created(&zero), want_zero);
    assert_eq!(created(&one), want_one);
    assert_eq!(fake.gateway_stats().live_shards, [0, 1]);
    // Keys 0 and 1 of max_concurrency 2: together is allowed.
    assert_eq!(fake.pacing_violations(), Vec::<String>::new());
    // Shard 0 again at once: the same key within 5 s.
    let _again = raw_shard(&fake, [0, 2]).await.expect("connects");
    let v = fake.pacing_violations();
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(v[0].contains("shards 0 and 0"), "{v:?}");
    assert_eq!(raw_shard(&fake, [2, 2]).await.err(), Some(4010));
    assert!(
        fake.take_problems()
            .iter()
            .any(|p| p.contains("invalid shard"))
    );
}

/// Create-message nonces as Discord treats them: with `enforce_nonce`, the same nonce
/// again answers with the first message and posts nothing; without it, or with another
/// nonce, a second message is posted; the nonce is echoed back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_keeps_one_message_per_enforced_nonce() {
    let fake = FakeDiscord::start().await;
    let channel = serenity::ChannelId::new(fake.channel_id());
    let http = fake.http();
    let send = |text: &str, nonce: &str, enforce: bool| {
        let message = serenity::CreateMessage::new()
            .content(text)
            .nonce(serenity::Nonce::String(nonce.into()))
            .enforce_nonce(enforce);
        let http = http.clone();
        async move { channel.send_message(&http, message).await.unwrap() }
    };
    let first = send("once", "m1", true).await;
    assert!(matches!(&first.nonce, Some(serenity::Nonce::String(n)) if n == "m1"));
    let again = send("once, again", "m1", true).await;
    assert_eq!(again.id, first.id, "the first message comes back");
    assert_eq!(again.content, "once");
    assert_eq!(fake.nonce_repeats(), 1);
    let other = send("another", "m2", true).await;
    assert_ne!(other.id, first.id);
    let unenforced = send("not enforced", "m1", false).await;
    assert_ne!(unenforced.id, first.id);
    let said: Vec<String> = fake
        .messages(channel.get())
        .iter()
        .map(|m| m.text())
        .collect();
    assert_eq!(said.len(), 3, "{said:?}");
    assert_eq!(fake.problems(), Vec::<String>::new());
}
