//! A fake Discord on 127.0.0.1 for end-to-end tests of the bot: REST (axum) and the gateway
//! (tokio-tungstenite), one guild with a text channel, the bot user and human users.
//!
//! # Connecting serenity/poise
//! ```ignore
//! let fake = FakeDiscord::start().await;
//! let http = serenity::HttpBuilder::new(fake.token())
//!     .proxy(fake.proxy_url())
//!     .ratelimiter_disabled(true)
//!     .build(); // or fake.new_http()
//! let client = serenity::ClientBuilder::new_with_http(http, intents).framework(framework).await?;
//! fake.wait_ready(Duration::from_secs(10)).await;
//! ```
//! With a proxy set, serenity replaces `https://discord.com` in every URL by the proxy
//! (serenity 0.12.5 `src/http/request.rs`, `Request::build`), so requests arrive here as plain
//! HTTP at `/api/v10/...`. **`ratelimiter_disabled(true)` is required**, not an option: with
//! its rate limiter on, serenity builds each request with `proxy: None`
//! (`src/http/ratelimiting.rs`, `Ratelimiter::perform`), so requests would go to discord.com
//! and never reach the fake.
//!
//! At start-up the client asks `GET /gateway` for the websocket URL
//! (`ClientBuilder::into_future`; `start_autosharded` also asks `GET /gateway/bot`), poise asks
//! `GET /oauth2/applications/@me` (owners), and the bot's setup registers its commands
//! (`PUT /applications/{id}/commands`, `PUT /applications/{id}/guilds/{gid}/commands`); serenity
//! learns the application id from READY. On the gateway: HELLO, IDENTIFY (token `Bot ...`,
//! `?v=10`), READY, GUILD_CREATE; heartbeats every interval (41.25 s like Discord by default,
//! `start_with_heartbeat` for shorter); after a dropped websocket serenity reconnects at once
//! and RESUMEs (the fake replays what was missed, then RESUMED); a new client IDENTIFYs anew.
//!
//! # Everything is checked
//! Every REST request is recorded ([`FakeDiscord::requests`]) and its body validated against
//! the request schema of its operation in Discord's OpenAPI document (`schema.rs` says how, and
//! what it cannot check); a body that violates it is answered `400 {code: 50035}` like Discord
//! and reported in [`FakeDiscord::problems`], as are unknown routes (404), operations of the
//! spec the fake does not implement (404), bad tokens (401), a second acknowledgement of an
//! interaction (400, code 40060), a follow-up before the acknowledgement, an empty message or one over 2000 characters, malformed bodies, and any
//! answer of the fake itself that violates Discord's response schema. With
//! [`FakeDiscord::check_with_serenity`] (opt-in: it costs compile time), every gateway event
//! and REST answer of the fake is also parsed with the serenity type the client parses it
//! into, and one serenity would drop (it drops unparseable gateway events silently) is a
//! problem; the self-test does this for every kind of payload the fake builds. A test asserts
//! `fake.problems().is_empty()`. Sending to the DM of a user whose DMs are closed answers
//! `403 {code: 50007}` and is not a problem (the bot is expected to handle it).
//!
//! # REST operations answered (by the spec's operation id)
//! `get_gateway`, `get_bot_gateway`, `get_my_oauth2_application`, `get_my_application`,
//! `get_my_user`, `get_user`, `get_guild`, `get_guild_member`, `list_guild_members`,
//! `list_guild_roles`, `list_guild_channels`, `get_channel`, `create_dm`; messages:
//! `create_message`, `list_messages`, `get_message`, `update_message`, `delete_message`;
//! threads: `create_thread` (a public thread, type 11, in a guild's text channel: a
//! channel of its guild from then on, messages posted and interactions made in it;
//! THREAD_CREATE dispatched; `refuse_threads()` answers 403 Missing Permissions);
//! commands (global and guild): `bulk_set_*`, `create_*`, `list_*`, `get_*`, `update_*`,
//! `delete_*`; interactions: `create_interaction_response` (types 4, 5, 6, 7, 9),
//! `execute_webhook` (follow-up; the first one after a type-5 deferral replaces the
//! "thinking" message, as on Discord), `get/update/delete_original_webhook_message`,
//! `get/update/delete_webhook_message`. Files: `GET /attachments/{id}/{filename}`.
//!
//! # The world
//! One guild ("Mondo Test Guild") with one text channel ("zendo"), roles `@everyone` and those
//! added, the bot (application id = bot user id, administrator), a guild owner, and the users
//! tests add. Added users, roles and role grants are also dispatched (GUILD_MEMBER_ADD /
//! GUILD_MEMBER_UPDATE only if the client asked for the GUILD_MEMBERS intent, GUILD_ROLE_CREATE
//! with GUILDS), so a running bot's cache follows.
//!
//! # Shards and several processes
//! Any number of clients (threads or processes) may connect at once; each connection
//! IDENTIFYs as a shard, and a server's events go only to the connection of its shard
//! (`(guild_id >> 22) % total`), DMs to shard 0's. `set_shards()` sets what `GET /gateway/bot`
//! says, `add_guild_on_shard()` adds a server on a chosen shard, `identifies()` and
//! `pacing_violations()` check Discord's identify limit, `interaction_shard()` says where an
//! interaction went, `wait_shards()` waits for shards to be live (see `shards.rs`).
//!
//! # Timing
//! Waits poll nothing: they wake on every change of the fake's state, with a timeout. Two
//! things the fake does on purpose: an interaction waits (up to 10 s) for a live gateway
//! session before it is dispatched (`Interaction::dispatched` is when it was written to the
//! websocket); and a click or modal submit waits until a simulated user's reaction time (200 ms
//! by default, [`FakeDiscord::set_reaction_time`]) has passed since the message was
//! sent/edited or the modal opened, because a bot waiting with a collector (poise's
//! `execute_modal`) registers it only after its own HTTP call returned, and a faster-than-human
//! submit would be lost.
//!
//! # API beyond the brief (extensions; nothing of the brief's API was removed)
//! - `new_http()`: a fresh `Http` for `ClientBuilder::new_with_http` (which takes `Http` by
//!   value, so the shared `http()` cannot be used there).
//! - `start_with_heartbeat()`, `rest_url()`, `gateway_url()`, `wait_session()` (READY without
//!   waiting for commands), `wait_reply()` (a reply matching a predicate: e.g. the follow-up
//!   poise sends to the command after a modal), `replies_now()`, `select()` (string select
//!   menus), `try_click()`, `set_reaction_time()`, `add_role_with_permissions()`,
//!   `dm_channel()` (opens the DM channel, e.g. for `slash_in`), `message()`,
//!   `interaction_latency()`, `latencies()`, `gateway_stats()`, `set_dms_open()`,
//!   `take_problems()`, `drop_gateway_with()`, `invalidate_session()`, `commands()`,
//!   `post()` (a user writes a message).
//! - Messages the bot creates, edits and deletes (not ephemeral ones) are also dispatched as
//!   MESSAGE_CREATE/UPDATE/DELETE if the client asked for GUILD_MESSAGES / DIRECT_MESSAGES.
//! - `wait_ready` panics if no session is ready in time; it then waits (within the same
//!   timeout) until some commands are registered, returning without panic if none ever are.
//! - `set_permissions(user, p)` sets the member's own permission bits; an interaction's
//!   `member.permissions` is `@everyone | roles | own` (channel overwrites are not modelled).
//! - `Interaction` also has `kind`, `user`, `channel_id`; `Reply` also has `data` (the
//!   callback's data, e.g. the modal); `ReplyKind` is `Callback(type) | Followup |
//!   EditOriginal | EditMessage(id) | DeleteOriginal | DeleteMessage(id)`.
//! - `StoredMessage` has extra public fields (author, flags, attachments, kind, timestamps,
//!   `loading`, `updated`) and `component(custom_id)`; `text()` also includes embed footers
//!   and text-display components. `RecordedRequest` has `query`, `content_type`,
//!   `operation_id`, `uploads` (with content types), `response`, `at`, `reason`, `user_agent`.
//! - Option values for `slash`: strings, integers, booleans, numbers; USER, CHANNEL, ROLE and
//!   MENTIONABLE as id strings (or numbers); ATTACHMENT as `attachment(...)`'s value.

mod gateway;
pub mod payloads;
mod rest;
pub mod schema;
mod shards;

pub(crate) use shards::GuildRec;
pub use shards::Identify;

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};

use payloads::timestamp_now;

/// Discord answers an interaction callback later than this with "Unknown interaction".
/// The fake neither refuses nor reports a later one: how fast the bot acknowledges is a
/// speed target (`latencies()`, read by `cargo bench --bench discord`), and a loaded
/// test machine must make the tests slower, not red.
pub const ACK_DEADLINE: Duration = Duration::from_secs(3);
/// How long an interaction waits for a live gateway session before it is dispatched.
const SESSION_WAIT: Duration = Duration::from_secs(10);
/// See [`FakeDiscord::set_reaction_time`].
pub const DEFAULT_REACTION: Duration = Duration::from_millis(200);

#[derive(Clone)]
pub struct FakeDiscord {
    inner: Arc<Inner>,
    _tasks: Arc<Tasks>,
}

struct Tasks(Vec<tokio::task::JoinHandle<()>>);

impl Drop for Tasks {
    fn drop(&mut self) {
        for t in &self.0 {
            t.abort();
        }
    }
}

pub(crate) struct Inner {
    pub token: String,
    pub app_id: u64,
    pub bot_id: u64,
    pub guild_id: u64,
    pub channel_id: u64,
    pub rest_addr: SocketAddr,
    pub gw_addr: SocketAddr,
    pub heartbeat_interval_ms: u64,
    /// A simulated user's reaction time, in microseconds (see `set_reaction_time`).
    reaction_us: AtomicU64,
    pub world: Mutex<World>,
    changed: watch::Sender<u64>,
    http: Mutex<Option<Arc<serenity::http::Http>>>,
    /// Silent mode (see `silence_gateway`): connections accepted, never answered.
    pub silent_gateway: std::sync::atomic::AtomicBool,
}

impl Inner {
    /// Runs `f` on the world and wakes everything waiting for a change.
    pub fn with<R>(&self, f: impl FnOnce(&mut World) -> R) -> R {
        let r = f(&mut self.world.lock().unwrap());
        self.changed.send_modify(|v| *v += 1);
        r
    }
}

/// See [`FakeDiscord::changes`].
pub struct Changes(watch::Receiver<u64>);

impl Changes {
    /// Waits for the next change of the fake, or until `deadline` (the caller checks
    /// its condition, and the deadline, again).
    pub async fn next(&mut self, deadline: std::time::Instant) {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let _ = tokio::time::timeout(left, self.0.changed()).await;
        self.0.borrow_and_update();
    }
}

#[derive(Clone, Debug)]
pub struct FakeUser {
    pub id: u64,
    pub name: String,
}

#[derive(Clone, Debug)]
pub struct Interaction {
    pub id: u64,
    pub token: String,
    pub dispatched: Instant,
    /// The INTERACTION_CREATE payload (`d`).
    pub payload: Value,
    /// 2 command, 3 component, 5 modal submit.
    pub kind: u8,
    pub user: u64,
    pub channel_id: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplyKind {
    /// `POST /interactions/{id}/{token}/callback` with this type.
    Callback(u8),
    /// `POST /webhooks/{app}/{token}`.
    Followup,
    /// `PATCH .../messages/@original`.
    EditOriginal,
    /// `PATCH .../messages/{id}`.
    EditMessage(u64),
    DeleteOriginal,
    DeleteMessage(u64),
}

impl ReplyKind {
    /// A bare "deferred" acknowledgement (5: thinking, 6: deferred update).
    pub fn is_deferred(&self) -> bool {
        matches!(self, ReplyKind::Callback(5) | ReplyKind::Callback(6))
    }
}

#[derive(Clone, Debug)]
pub struct Reply {
    pub kind: ReplyKind,
    /// The message as it stood after this reply (none for deferrals, modals and deletions).
    pub message: Option<StoredMessage>,
    pub at: Instant,
    /// The callback's `data` (e.g. the modal a type-9 callback opened).
    pub data: Option<Value>,
}

#[derive(Clone, Debug)]
pub struct StoredMessage {
    pub id: u64,
    pub channel_id: u64,
    pub content: String,
    pub embeds: Vec<Value>,
    pub components: Vec<Value>,
    /// Attached files: (filename, bytes).
    pub files: Vec<(String, Vec<u8>)>,
    pub ephemeral: bool,
    /// The interaction this message answers (original response or follow-up).
    pub interaction: Option<u64>,
    pub author_id: u64,
    pub flags: u64,
    /// Discord message type (0 default, 20 chat input command).
    pub kind: u64,
    /// The attachment objects as Discord answers them (with `url`s served by the fake).
    pub attachments: Vec<Value>,
    pub timestamp: String,
    pub edited_timestamp: Option<String>,
    /// Discord's "thinking..." placeholder of a deferred response, not yet edited.
    pub loading: bool,
    /// When the message was created or last edited (clicks wait for the reaction time).
    pub updated: Instant,
    /// The create request's `nonce` (a string or an integer), echoed back as Discord does.
    pub nonce: Option<Value>,
}

impl StoredMessage {
    /// (custom_id, label) of every button with a custom id, in order.
    pub fn buttons(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        walk_components(&self.components, &mut |c| {
            if c["type"] == 2 {
                if let Some(id) = c["custom_id"].as_str() {
                    out.push((
                        id.to_string(),
                        c["label"].as_str().unwrap_or("").to_string(),
                    ));
                }
            }
        });
        out
    }

    /// Content, then each embed's title, description, fields (name and value) and footer.
    pub fn text(&self) -> String {
        let mut parts = Vec::new();
        if !self.content.is_empty() {
            parts.push(self.content.clone());
        }
        for e in &self.embeds {
            for key in ["title", "description"] {
                if let Some(s) = e[key].as_str() {
                    parts.push(s.to_string());
                }
            }
            for f in e["fields"].as_array().into_iter().flatten() {
                for key in ["name", "value"] {
                    if let Some(s) = f[key].as_str() {
                        parts.push(s.to_string());
                    }
                }
            }
            if let Some(s) = e["footer"]["text"].as_str() {
                parts.push(s.to_string());
            }
        }
        walk_components(&self.components, &mut |c| {
            if c["type"] == 10 {
                if let Some(s) = c["content"].as_str() {
                    parts.push(s.to_string());
                }
            }
        });
        parts.join("\n")
    }

    /// The component (any depth) with this custom id.
    pub fn component(&self, custom_id: &str) -> Option<Value> {
        let mut found = None;
        walk_components(&self.components, &mut |c| {
            if found.is_none() && c["custom_id"] == custom_id {
                found = Some(c.clone());
            }
        });
        found
    }
}

fn walk_components(components: &[Value], f: &mut dyn FnMut(&Value)) {
    for c in components {
        f(c);
        if let Some(children) = c["components"].as_array() {
            walk_components(children, f);
        }
        if c["accessory"].is_object() {
            f(&c["accessory"]);
        }
    }
}

#[derive(Clone, Debug)]
pub struct Upload {
    /// The form field (`files[0]`).
    pub field: String,
    pub filename: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

#[derive(Clone, Debug)]
pub struct RecordedRequest {
    pub method: String,
    pub path: String,
    pub query: Option<String>,
    pub content_type: Option<String>,
    /// The JSON body, or the `payload_json` of a multipart body.
    pub body: Option<Value>,
    /// Uploaded files: (filename, bytes).
    pub files: Vec<(String, Vec<u8>)>,
    pub uploads: Vec<Upload>,
    pub status: u16,
    pub response: Option<Value>,
    pub operation_id: Option<String>,
    pub at: Instant,
    /// `X-Audit-Log-Reason`, `User-Agent`.
    pub reason: Option<String>,
    pub user_agent: Option<String>,
}

/// Counts of what happened on the gateway.
#[derive(Clone, Debug, Default)]
pub struct GatewayStats {
    pub connections: u64,
    pub identifies: u64,
    pub resumes: u64,
    pub heartbeats: u64,
    pub dispatched: u64,
    /// Is a connection attached to a current session and past READY/RESUMED?
    pub live: bool,
    /// The shards whose current session is live.
    pub live_shards: Vec<u32>,
}

// ---------------------------------------------------------------------------------------------
// The world

pub(crate) struct UserRec {
    pub id: u64,
    pub name: String,
    pub bot: bool,
    pub dms_open: bool,
    pub member: Option<MemberRec>,
}

pub(crate) struct MemberRec {
    pub roles: Vec<u64>,
    pub permissions: u64,
    pub joined_at: String,
}

pub(crate) struct RoleRec {
    pub id: u64,
    pub name: String,
    pub permissions: u64,
    pub position: u64,
}

/// A public thread (type 11) in a guild's text channel.
#[derive(Clone, Debug)]
pub struct ThreadRec {
    pub id: u64,
    /// The text channel it was opened in.
    pub parent: u64,
    pub name: String,
    /// Who created it (the bot).
    pub owner: u64,
    /// Minutes without a message before Discord archives it (a day unless asked).
    pub auto_archive: u64,
}

pub(crate) struct FileRec {
    pub filename: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
    pub description: Option<String>,
}

pub(crate) struct InteractionRec {
    pub id: u64,
    pub token: String,
    pub kind: u8,
    pub user: u64,
    pub channel_id: u64,
    pub dispatched: Instant,
    /// The message a component was clicked on.
    pub message: Option<u64>,
    pub acked: Option<(u8, Instant)>,
    /// The original response message (also the component's message after type 6/7).
    pub original: Option<u64>,
    pub replies: Vec<Reply>,
    /// Data of the modal opened in answer (type 9).
    pub modal: Option<Value>,
    /// The shard whose connection it was written to.
    pub shard: Option<u32>,
}

pub(crate) enum Out {
    Text(String),
    Close(u16, String),
}

pub(crate) struct Conn {
    pub tx: mpsc::UnboundedSender<Out>,
    pub session: Option<String>,
    /// READY or RESUMED sent on this connection.
    pub ready: bool,
}

pub(crate) struct Session {
    pub id: String,
    pub seq: u64,
    /// Every dispatch of the session, for RESUME: (s, frame).
    pub log: Vec<(u64, String)>,
    pub conn: Option<u64>,
    pub intents: u64,
    /// IDENTIFY's `shard: [id, total]` ([0, 1] when not given).
    pub shard: u32,
    pub total: u32,
}

/// Checks of the fake's own payloads with serenity's types (see `check_with_serenity`).
#[derive(Clone, Copy)]
pub(crate) struct Checks {
    pub event: fn(&str, &Value) -> Result<(), String>,
    pub rest: fn(&str, &Value) -> Result<(), String>,
}

pub(crate) struct World {
    pub checks: Option<Checks>,
    pub app_id: u64,
    pub bot_id: u64,
    pub owner_id: u64,
    pub guild_id: u64,
    pub guild_name: String,
    pub channel_id: u64,
    pub channel_name: String,
    /// More text channels of the guild (id, name), added by tests.
    pub more_channels: Vec<(u64, String)>,
    /// Public threads the bot created (`create_thread`), channels messages go to.
    pub threads: Vec<ThreadRec>,
    /// `refuse_threads`: creating a thread answers 403 Missing Permissions.
    pub threads_refused: bool,
    pub rest_url: String,
    pub gateway_url: String,
    last_snowflake: u64,
    pub users: BTreeMap<u64, UserRec>,
    pub roles: BTreeMap<u64, RoleRec>,
    /// user -> DM channel
    pub dm_channels: BTreeMap<u64, u64>,
    pub messages: BTreeMap<u64, StoredMessage>,
    pub files: HashMap<u64, FileRec>,
    pub global_commands: Vec<Value>,
    pub guild_commands: Vec<Value>,
    pub command_registrations: u64,
    pub interactions: HashMap<u64, InteractionRec>,
    pub tokens: HashMap<String, u64>,
    pub requests: Vec<RecordedRequest>,
    pub problems: Vec<String>,
    pub sessions: HashMap<String, Session>,
    /// Shard id -> its current session (the newest IDENTIFY of that shard).
    pub current: BTreeMap<u32, String>,
    /// Servers beyond the main one (`add_guild_on_shard`).
    pub guilds: Vec<GuildRec>,
    /// What `GET /gateway/bot` says (`set_shards`).
    pub shard_count: u32,
    pub max_concurrency: u32,
    /// Every IDENTIFY, in order.
    pub identifies: Vec<Identify>,
    pub conns: HashMap<u64, Conn>,
    pub next_conn: u64,
    pub stats: GatewayStats,
    /// Create-message nonces sent with `enforce_nonce`: (author, nonce) -> the message
    /// it created and when (Discord returns that message for the same nonce again
    /// within a few minutes instead of posting twice).
    pub nonces: HashMap<(u64, String), (u64, Instant)>,
    pub nonce_repeats: u64,
}

impl World {
    /// A new snowflake (time-based like Discord's, strictly increasing).
    pub fn snowflake(&mut self) -> u64 {
        const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;
        let ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let id = (ms.saturating_sub(DISCORD_EPOCH_MS) << 22).max(self.last_snowflake + 1);
        self.last_snowflake = id;
        id
    }

    pub fn problem(&mut self, p: impl Into<String>) {
        let p = p.into();
        eprintln!("fake Discord problem: {p}");
        self.problems.push(p);
    }

    /// Is a connection attached to a current session (of any shard) and past
    /// READY/RESUMED?
    pub fn live(&self) -> bool {
        !self.live_shards().is_empty()
    }

    pub fn dm_channel_for(&mut self, user: u64) -> u64 {
        if let Some(c) = self.dm_channels.get(&user) {
            return *c;
        }
        let c = self.snowflake();
        self.dm_channels.insert(user, c);
        c
    }

    /// One of a guild's text channels (the main guild's, or another server's).
    pub fn is_guild_channel(&self, channel: u64) -> bool {
        self.guild_of(channel).is_some()
    }

    pub fn is_channel(&self, channel: u64) -> bool {
        self.is_guild_channel(channel) || self.dm_channels.values().any(|c| *c == channel)
    }

    /// The user whose DM channel this is.
    pub fn dm_user(&self, channel: u64) -> Option<u64> {
        self.dm_channels
            .iter()
            .find(|(_, c)| **c == channel)
            .map(|(u, _)| *u)
    }

    /// Registered command definitions: guild commands first, then global ones.
    pub fn commands(&self) -> Vec<Value> {
        self.guild_commands
            .iter()
            .chain(&self.global_commands)
            .cloned()
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// The API for tests

static INSTANCE: AtomicU64 = AtomicU64::new(1);

impl FakeDiscord {
    /// Starts the fake: REST on 127.0.0.1:0 and the gateway on another port.
    pub async fn start() -> FakeDiscord {
        Self::start_with_heartbeat(Duration::from_millis(41_250)).await
    }

    /// As [`start`](Self::start) (which announces Discord's 41.25 s), with the heartbeat
    /// interval HELLO announces.
    pub async fn start_with_heartbeat(heartbeat: Duration) -> FakeDiscord {
        // Load the spec before anything times a request.
        let _ = schema::spec();
        let rest = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind REST");
        let gw = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind gateway");
        let rest_addr = rest.local_addr().unwrap();
        let gw_addr = gw.local_addr().unwrap();
        let n = INSTANCE.fetch_add(1, Ordering::Relaxed);
        let mut world = World {
            checks: None,
            app_id: 0,
            bot_id: 0,
            owner_id: 0,
            guild_id: 0,
            guild_name: "Mondo Test Guild".into(),
            channel_id: 0,
            channel_name: "zendo".into(),
            more_channels: Vec::new(),
            threads: Vec::new(),
            threads_refused: false,
            rest_url: format!("http://{rest_addr}"),
            gateway_url: format!("ws://{gw_addr}"),
            last_snowflake: 0,
            users: BTreeMap::new(),
            roles: BTreeMap::new(),
            dm_channels: BTreeMap::new(),
            messages: BTreeMap::new(),
            files: HashMap::new(),
            global_commands: Vec::new(),
            guild_commands: Vec::new(),
            command_registrations: 0,
            interactions: HashMap::new(),
            tokens: HashMap::new(),
            requests: Vec::new(),
            problems: Vec::new(),
            sessions: HashMap::new(),
            current: BTreeMap::new(),
            guilds: Vec::new(),
            shard_count: 1,
            max_concurrency: 1,
            identifies: Vec::new(),
            conns: HashMap::new(),
            next_conn: 1,
            stats: GatewayStats::default(),
            nonces: HashMap::new(),
            nonce_repeats: 0,
        };
        let app_id = world.snowflake();
        let guild_id = world.snowflake();
        let channel_id = world.snowflake();
        let owner_id = world.snowflake();
        world.app_id = app_id;
        world.bot_id = app_id;
        world.guild_id = guild_id;
        world.channel_id = channel_id;
        world.owner_id = owner_id;
        let joined_at = timestamp_now();
        world.roles.insert(
            guild_id,
            RoleRec {
                id: guild_id,
                name: "@everyone".into(),
                permissions: payloads::EVERYONE_PERMISSIONS,
                position: 0,
            },
        );
        world.users.insert(
            app_id,
            UserRec {
                id: app_id,
                name: "Mondo".into(),
                bot: true,
                dms_open: false,
                member: Some(MemberRec {
                    roles: vec![],
                    permissions: payloads::BOT_PERMISSIONS,
                    joined_at: joined_at.clone(),
                }),
            },
        );
        world.users.insert(
            owner_id,
            UserRec {
                id: owner_id,
                name: "guild-owner".into(),
                bot: false,
                dms_open: true,
                member: Some(MemberRec {
                    roles: vec![],
                    permissions: 1 << 3,
                    joined_at,
                }),
            },
        );
        let token = format!("FAKE{n}.{app_id}.fake-discord-token");
        let inner = Arc::new(Inner {
            token,
            app_id,
            bot_id: app_id,
            guild_id,
            channel_id,
            rest_addr,
            gw_addr,
            heartbeat_interval_ms: heartbeat.as_millis() as u64,
            reaction_us: AtomicU64::new(DEFAULT_REACTION.as_micros() as u64),
            world: Mutex::new(world),
            changed: watch::channel(0).0,
            http: Mutex::new(None),
            silent_gateway: std::sync::atomic::AtomicBool::new(false),
        });
        let t1 = tokio::spawn(rest::serve(rest, inner.clone()));
        let t2 = tokio::spawn(gateway::serve(gw, inner.clone()));
        FakeDiscord {
            inner,
            _tasks: Arc::new(Tasks(vec![t1, t2])),
        }
    }

    /// Also parses every gateway event and REST answer of the fake with the serenity type the
    /// client parses it into, reporting any that serenity would drop or fail on as a problem.
    /// Call it before the client connects. Opt-in because of its cost: it instantiates
    /// serenity's model deserializers in the test binary, about 3 minutes more to compile it
    /// from scratch on a 2-core machine (the fake alone takes under 2). The self-test
    /// (`tests/fake_discord.rs`) turns it on, so every kind of payload the fake builds is proven
    /// there; another test may turn it on while debugging a payload serenity seems to ignore.
    pub fn check_with_serenity(&self) {
        self.inner.with(|w| {
            w.checks = Some(Checks {
                event: gateway::check_event,
                rest: rest::check_serenity,
            });
        });
    }

    /// The check `check_with_serenity` applies to a gateway dispatch frame (`{op, s, t, d}`).
    pub fn serenity_parses_event(t: &str, frame: &Value) -> Result<(), String> {
        gateway::check_event(t, frame)
    }

    pub fn proxy_url(&self) -> String {
        format!("http://{}", self.inner.rest_addr)
    }
    pub fn rest_url(&self) -> String {
        self.proxy_url()
    }
    pub fn gateway_url(&self) -> String {
        format!("ws://{}", self.inner.gw_addr)
    }
    pub fn token(&self) -> &str {
        &self.inner.token
    }
    pub fn application_id(&self) -> u64 {
        self.inner.app_id
    }
    pub fn bot_user_id(&self) -> u64 {
        self.inner.bot_id
    }
    pub fn guild_id(&self) -> u64 {
        self.inner.guild_id
    }
    /// Another text channel in the guild (tests of what is said where).
    pub fn add_channel(&self, name: &str) -> u64 {
        let mut w = self.inner.world.lock().unwrap();
        let id = w.snowflake();
        w.more_channels.push((id, name.to_string()));
        id
    }

    pub fn channel_id(&self) -> u64 {
        self.inner.channel_id
    }

    /// The threads created so far, oldest first.
    pub fn threads(&self) -> Vec<ThreadRec> {
        self.inner.with(|w| w.threads.clone())
    }

    /// With `true`, creating a thread is refused as Discord refuses a bot without the
    /// Create Public Threads permission (403, code 50013); not a problem of the bot's.
    pub fn refuse_threads(&self, refused: bool) {
        self.inner.with(|w| w.threads_refused = refused);
    }

    /// A fresh `Http` pointed at the fake (proxy, rate limiter off), e.g. for
    /// `ClientBuilder::new_with_http`.
    pub fn new_http(&self) -> serenity::http::Http {
        serenity::http::HttpBuilder::new(self.token())
            .proxy(self.proxy_url())
            .ratelimiter_disabled(true)
            .application_id(serenity::model::id::ApplicationId::new(
                self.application_id(),
            ))
            .build()
    }

    /// A shared `Http` pointed at the fake (for REST calls outside a client).
    pub fn http(&self) -> Arc<serenity::http::Http> {
        self.inner
            .http
            .lock()
            .unwrap()
            .get_or_insert_with(|| Arc::new(self.new_http()))
            .clone()
    }

    /// A human user, also a guild member with no roles and no permissions of their own.
    pub fn add_user(&self, name: &str, dms_open: bool) -> FakeUser {
        self.add_member(name, dms_open, false)
    }

    /// Another bot (not Mondo), a guild member like a person.
    pub fn add_bot(&self, name: &str) -> FakeUser {
        self.add_member(name, false, true)
    }

    fn add_member(&self, name: &str, dms_open: bool, bot: bool) -> FakeUser {
        let user = self.inner.with(|w| {
            let id = w.snowflake();
            w.users.insert(
                id,
                UserRec {
                    id,
                    name: name.to_string(),
                    bot,
                    dms_open,
                    member: Some(MemberRec {
                        roles: vec![],
                        permissions: 0,
                        joined_at: timestamp_now(),
                    }),
                },
            );
            let mut member = w.member_json(id, true, false);
            member["guild_id"] = w.guild_id.to_string().into();
            let g = Some(w.guild_id);
            w.dispatch_if(g, 1 << 1, "GUILD_MEMBER_ADD", member);
            id
        });
        FakeUser {
            id: user,
            name: name.to_string(),
        }
    }

    pub fn set_dms_open(&self, user: u64, open: bool) {
        self.inner
            .with(|w| w.users.get_mut(&user).expect("known user").dms_open = open);
    }

    /// Sets the member's own permission bits (e.g. MANAGE_GUILD = 1 << 5 for a host).
    pub fn set_permissions(&self, user: u64, permissions: u64) {
        self.inner.with(|w| {
            w.users
                .get_mut(&user)
                .and_then(|u| u.member.as_mut())
                .expect("a guild member")
                .permissions = permissions;
        });
    }

    pub fn add_role(&self, name: &str) -> u64 {
        self.add_role_with_permissions(name, 0)
    }

    pub fn add_role_with_permissions(&self, name: &str, permissions: u64) -> u64 {
        self.inner.with(|w| {
            let id = w.snowflake();
            let position = w.roles.len() as u64;
            w.roles.insert(
                id,
                RoleRec {
                    id,
                    name: name.to_string(),
                    permissions,
                    position,
                },
            );
            let role = json!({"guild_id": w.guild_id.to_string(), "role": w.role_json(id)});
            let g = Some(w.guild_id);
            w.dispatch_if(g, 1, "GUILD_ROLE_CREATE", role);
            id
        })
    }

    pub fn give_role(&self, user: u64, role: u64) {
        self.inner.with(|w| {
            assert!(w.roles.contains_key(&role), "fake Discord: no role {role}");
            let m = w
                .users
                .get_mut(&user)
                .and_then(|u| u.member.as_mut())
                .expect("a member");
            if !m.roles.contains(&role) {
                m.roles.push(role);
            }
            let mut member = w.member_json(user, true, false);
            member["guild_id"] = w.guild_id.to_string().into();
            let g = Some(w.guild_id);
            w.dispatch_if(g, 1 << 1, "GUILD_MEMBER_UPDATE", member);
        });
    }

    /// The fake's changes from now on (a request, a message, a connection): a test
    /// waiting for a state of the fake checks it, then waits for the next change,
    /// never a sleep's length. Taken before the first check, no change is missed.
    pub fn changes(&self) -> Changes {
        let mut rx = self.inner.changed.subscribe();
        rx.borrow_and_update();
        Changes(rx)
    }

    async fn wait_until<T>(
        &self,
        timeout: Duration,
        mut f: impl FnMut(&World) -> Option<T>,
    ) -> Option<T> {
        let mut rx = self.inner.changed.subscribe();
        let deadline = Instant::now() + timeout;
        loop {
            rx.borrow_and_update();
            if let Some(v) = f(&self.inner.world.lock().unwrap()) {
                return Some(v);
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            let _ = tokio::time::timeout(deadline - now, rx.changed()).await;
        }
    }

    /// Until a client is connected past READY (or RESUMED). Panics on timeout.
    pub async fn wait_session(&self, timeout: Duration) {
        if self
            .wait_until(timeout, |w| w.live().then_some(()))
            .await
            .is_none()
        {
            let stats = self.gateway_stats();
            panic!("fake Discord: no gateway session became ready within {timeout:?} ({stats:?})");
        }
    }

    /// Until a client IDENTIFYed (or resumed) and got READY, and commands are registered.
    /// Panics if no session is ready in time; if the bot registers no commands at all, returns
    /// at the timeout without panicking.
    pub async fn wait_ready(&self, timeout: Duration) {
        let start = Instant::now();
        self.wait_session(timeout).await;
        let rest = timeout.saturating_sub(start.elapsed());
        self.wait_until(rest, |w| (!w.commands().is_empty()).then_some(()))
            .await;
    }

    /// Registered command definitions (guild ones first), waiting until there are some.
    pub async fn wait_commands(&self, timeout: Duration) -> Vec<Value> {
        self.wait_until(timeout, |w| {
            let c = w.commands();
            (!c.is_empty()).then_some(c)
        })
        .await
        .unwrap_or_default()
    }

    /// Registered command definitions now (guild ones first).
    pub fn commands(&self) -> Vec<Value> {
        self.inner.world.lock().unwrap().commands()
    }

    /// An uploaded file as the value of an ATTACHMENT option, served at its `url`.
    pub fn attachment(&self, filename: &str, bytes: Vec<u8>) -> Value {
        self.inner.with(|w| {
            let id = w.snowflake();
            let content_type = content_type_of(filename);
            w.files.insert(
                id,
                FileRec {
                    filename: filename.to_string(),
                    content_type,
                    bytes,
                    description: None,
                },
            );
            json!({"fake_attachment": id.to_string()})
        })
    }

    pub async fn slash(&self, user: u64, command: &str, options: &[(&str, Value)]) -> Interaction {
        self.slash_in(self.channel_id(), user, command, options)
            .await
    }

    /// A slash command in `channel` (the guild channel, or a DM channel from `dm_channel`).
    pub async fn slash_in(
        &self,
        channel: u64,
        user: u64,
        command: &str,
        options: &[(&str, Value)],
    ) -> Interaction {
        if self.wait_commands(SESSION_WAIT).await.is_empty() {
            panic!("fake Discord: /{command}: the bot registered no commands");
        }
        let mut parts = command.split_whitespace();
        let top = parts.next().expect("a command name");
        let rest: Vec<&str> = parts.collect();
        let (def, guild_command) = {
            let w = self.inner.world.lock().unwrap();
            let found = w
                .guild_commands
                .iter()
                .find(|c| c["name"] == top && c["type"].as_u64().unwrap_or(1) == 1)
                .map(|c| (c.clone(), true))
                .or_else(|| {
                    w.global_commands
                        .iter()
                        .find(|c| c["name"] == top && c["type"].as_u64().unwrap_or(1) == 1)
                        .map(|c| (c.clone(), false))
                });
            found.unwrap_or_else(|| {
                let names: Vec<_> = w.commands().iter().map(|c| c["name"].to_string()).collect();
                panic!("fake Discord: no registered command /{top} (registered: {names:?})")
            })
        };
        let in_guild = self.inner.world.lock().unwrap().is_guild_channel(channel);
        if !in_guild && guild_command {
            panic!("fake Discord: /{top} is a guild command, it cannot be used in a DM");
        }
        let (options_json, resolved) = self.build_options(&def, &rest, options, channel);
        let mut data = json!({
            "id": def["id"],
            "name": top,
            "type": 1,
            "options": options_json,
        });
        if guild_command {
            data["guild_id"] = self.guild_id().to_string().into();
            if self.inner.world.lock().unwrap().guild_of(channel) != Some(self.guild_id()) {
                panic!("fake Discord: /{top} is registered in the main guild only");
            }
        }
        if !resolved.as_object().unwrap().is_empty() {
            data["resolved"] = resolved;
        }
        self.dispatch_interaction(2, user, channel, None, data)
            .await
    }

    /// Builds the options tree of an invocation from the definition.
    fn build_options(
        &self,
        def: &Value,
        path: &[&str],
        given: &[(&str, Value)],
        channel: u64,
    ) -> (Vec<Value>, Value) {
        let mut node = def.clone();
        let mut chain = Vec::new();
        for name in path {
            let sub = node["options"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|o| o["name"] == *name && (o["type"] == 1 || o["type"] == 2))
                .cloned()
                .unwrap_or_else(|| {
                    panic!(
                        "fake Discord: /{} has no subcommand (group) {name}",
                        def["name"]
                    )
                });
            chain.push(sub.clone());
            node = sub;
        }
        if node["options"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|o| o["type"] == 1 || o["type"] == 2)
        {
            panic!(
                "fake Discord: /{} needs a subcommand: give the full path",
                def["name"]
            );
        }
        let mut resolved = serde_json::Map::new();
        let mut leaf = Vec::new();
        let defs: Vec<Value> = node["options"].as_array().cloned().unwrap_or_default();
        for (name, value) in given {
            let d = defs
                .iter()
                .find(|d| d["name"] == *name)
                .unwrap_or_else(|| panic!("fake Discord: /{} has no option {name}", def["name"]));
            let kind = d["type"].as_u64().unwrap_or(3);
            let value = self.option_value(kind, name, value, &mut resolved, channel);
            leaf.push(json!({"name": name, "type": kind, "value": value}));
        }
        for d in &defs {
            if d["required"] == true && !given.iter().any(|(n, _)| d["name"] == *n) {
                panic!(
                    "fake Discord: /{} requires option {}",
                    def["name"], d["name"]
                );
            }
        }
        let mut options = leaf;
        for sub in chain.iter().rev() {
            options = vec![json!({"name": sub["name"], "type": sub["type"], "options": options})];
        }
        (options, Value::Object(resolved))
    }

    fn option_value(
        &self,
        kind: u64,
        name: &str,
        value: &Value,
        resolved: &mut serde_json::Map<String, Value>,
        channel: u64,
    ) -> Value {
        let id_of = |v: &Value| -> u64 {
            match v {
                Value::String(s) => s.parse().ok(),
                Value::Number(n) => n.as_u64(),
                _ => None,
            }
            .unwrap_or_else(|| panic!("fake Discord: option {name}: {v} is no id"))
        };
        let w = self.inner.world.lock().unwrap();
        let mut add = |group: &str, id: u64, v: Value| {
            resolved
                .entry(group)
                .or_insert_with(|| json!({}))
                .as_object_mut()
                .unwrap()
                .insert(id.to_string(), v);
        };
        match kind {
            3 => json!(
                value
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| value.to_string())
            ),
            4 => json!(
                value
                    .as_i64()
                    .unwrap_or_else(|| panic!("option {name}: integer"))
            ),
            5 => json!(
                value
                    .as_bool()
                    .unwrap_or_else(|| panic!("option {name}: boolean"))
            ),
            10 => json!(
                value
                    .as_f64()
                    .unwrap_or_else(|| panic!("option {name}: number"))
            ),
            6 | 9 => {
                let id = id_of(value);
                if w.users.contains_key(&id) {
                    add("users", id, w.user_json_by_id(id));
                    if w.is_guild_channel(channel) && w.users[&id].member.is_some() {
                        add("members", id, w.member_json(id, false, true));
                    }
                } else if w.roles.contains_key(&id) && kind == 9 {
                    add("roles", id, w.role_json(id));
                } else {
                    panic!("fake Discord: option {name}: no user {id}");
                }
                json!(id.to_string())
            }
            7 => {
                let id = id_of(value);
                assert!(
                    w.is_channel(id),
                    "fake Discord: option {name}: no channel {id}"
                );
                let mut c = w.partial_channel_json(id);
                c["permissions"] = payloads::APP_PERMISSIONS.to_string().into();
                add("channels", id, c);
                json!(id.to_string())
            }
            8 => {
                let id = id_of(value);
                assert!(
                    w.roles.contains_key(&id),
                    "fake Discord: option {name}: no role {id}"
                );
                add("roles", id, w.role_json(id));
                json!(id.to_string())
            }
            11 => {
                let id = value["fake_attachment"]
                    .as_str()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or_else(|| {
                        panic!("fake Discord: option {name}: use FakeDiscord::attachment()")
                    });
                add("attachments", id, w.attachment_json(id));
                json!(id.to_string())
            }
            other => panic!("fake Discord: option {name}: unsupported option type {other}"),
        }
    }

    /// A message `user` writes in `channel` (the guild channel or their DM with the bot):
    /// stored, and dispatched as MESSAGE_CREATE (content blanked in the guild channel unless
    /// the client asked for the MESSAGE_CONTENT intent, as on Discord).
    pub fn post(&self, user: u64, channel: u64, content: &str) -> StoredMessage {
        self.inner.with(|w| {
            assert!(w.is_channel(channel), "fake Discord: no channel {channel}");
            if let Some(dm_user) = w.dm_user(channel) {
                assert_eq!(
                    dm_user, user,
                    "fake Discord: {channel} is another user's DM"
                );
            }
            let m = plain_message(w.snowflake(), channel, user, content, Vec::new());
            w.put_message(m.clone(), "MESSAGE_CREATE");
            m
        })
    }

    /// A message the bot posted before this fake ran (an older version's, kept in the
    /// channel): `buttons` are (custom id, label), in one row.
    pub fn posted_before(
        &self,
        channel: u64,
        content: &str,
        buttons: &[(&str, &str)],
    ) -> StoredMessage {
        let bot = self.bot_user_id();
        let row: Vec<Value> = buttons
            .iter()
            .map(|(id, label)| json!({"type": 2, "style": 1, "custom_id": id, "label": label}))
            .collect();
        self.inner.with(|w| {
            assert!(w.is_channel(channel), "fake Discord: no channel {channel}");
            let components = vec![json!({"type": 1, "components": row})];
            let m = plain_message(w.snowflake(), channel, bot, content, components);
            w.put_message(m.clone(), "MESSAGE_CREATE");
            m
        })
    }

    /// Clicks button `custom_id` on stored message `message` as `user`.
    pub async fn click(&self, user: u64, message: u64, custom_id: &str) -> Interaction {
        match self.try_click(user, message, custom_id).await {
            Ok(i) => i,
            Err(e) => panic!("fake Discord: {e}"),
        }
    }

    /// Rewrites the custom ids of message `message`'s components with `f`, as if an
    /// older bot had posted it (ids of an earlier scheme, still live in a server).
    pub fn rewrite_custom_ids(&self, message: u64, f: impl Fn(&str) -> String) {
        fn walk(v: &mut Value, f: &dyn Fn(&str) -> String) {
            if let Some(id) = v.get("custom_id").and_then(Value::as_str) {
                let new = f(id);
                v["custom_id"] = Value::String(new);
            }
            if let Some(children) = v.get_mut("components").and_then(Value::as_array_mut) {
                children.iter_mut().for_each(|c| walk(c, f));
            }
        }
        let mut w = self.inner.world.lock().unwrap();
        if let Some(m) = w.messages.get_mut(&message) {
            m.components.iter_mut().for_each(|c| walk(c, &f));
        }
    }

    /// As [`click`](Self::click), an error instead of a panic when the button cannot be
    /// clicked (no such message or button, disabled, someone else's ephemeral message).
    pub async fn try_click(
        &self,
        user: u64,
        message: u64,
        custom_id: &str,
    ) -> Result<Interaction, String> {
        let (channel, _) = self.component_target(user, message, custom_id, 2)?;
        self.react(self.message(message).map(|m| m.updated)).await;
        let data = json!({"custom_id": custom_id, "component_type": 2});
        Ok(self
            .dispatch_interaction(3, user, channel, Some(message), data)
            .await)
    }

    /// Chooses `values` in string select menu `custom_id` on message `message` as `user`.
    pub async fn select(
        &self,
        user: u64,
        message: u64,
        custom_id: &str,
        values: &[&str],
    ) -> Interaction {
        let (channel, _) = self
            .component_target(user, message, custom_id, 3)
            .unwrap_or_else(|e| panic!("fake Discord: {e}"));
        self.react(self.message(message).map(|m| m.updated)).await;
        let data = json!({"custom_id": custom_id, "component_type": 3, "values": values});
        self.dispatch_interaction(3, user, channel, Some(message), data)
            .await
    }

    fn component_target(
        &self,
        user: u64,
        message: u64,
        custom_id: &str,
        kind: u64,
    ) -> Result<(u64, Value), String> {
        let w = self.inner.world.lock().unwrap();
        let m = w
            .messages
            .get(&message)
            .ok_or(format!("no message {message}"))?;
        let c = m.component(custom_id).ok_or_else(|| {
            format!(
                "message {message} has no component {custom_id:?} (has {:?})",
                m.buttons()
            )
        })?;
        if c["type"] != kind {
            return Err(format!(
                "component {custom_id:?} is of type {}, not {kind}",
                c["type"]
            ));
        }
        if c["disabled"] == true {
            return Err(format!(
                "component {custom_id:?} on message {message} is disabled"
            ));
        }
        if m.ephemeral {
            let owner = m
                .interaction
                .and_then(|i| w.interactions.get(&i))
                .map(|i| i.user);
            if owner != Some(user) {
                return Err(format!(
                    "message {message} is ephemeral, {user} cannot see it"
                ));
            }
        }
        if let Some(dm_user) = w.dm_user(m.channel_id) {
            if dm_user != user {
                return Err(format!("message {message} is in another user's DM"));
            }
        }
        Ok((m.channel_id, c))
    }

    /// How long a simulated user takes, at least, between seeing something and acting on it:
    /// a click waits until this long after the message was created or last edited, a modal
    /// submit until this long after the modal opened (default 200 ms; zero to disable).
    ///
    /// Why: a bot that waits with a collector (poise's `execute_modal` does, and so does a
    /// `ComponentInteractionCollector` after `send`) registers it only after the HTTP response
    /// to its own request has arrived; an interaction dispatched before that is not seen by the
    /// collector at all, while on Discord a human is never that fast.
    pub fn set_reaction_time(&self, d: Duration) {
        self.inner
            .reaction_us
            .store(d.as_micros() as u64, Ordering::Relaxed);
    }

    async fn react(&self, since: Option<Instant>) {
        let reaction = Duration::from_micros(self.inner.reaction_us.load(Ordering::Relaxed));
        if let Some(since) = since {
            let ready = since + reaction;
            let now = Instant::now();
            if ready > now {
                tokio::time::sleep(ready - now).await;
            }
        }
    }

    /// Submits the modal the bot opened in answer to `to`, with text input values by custom id
    /// (inputs not given are submitted empty).
    pub async fn submit_modal(
        &self,
        user: u64,
        to: &Interaction,
        values: &[(&str, &str)],
    ) -> Interaction {
        let (modal, opened) = self
            .wait_until(SESSION_WAIT, |w| {
                let i = w.interactions.get(&to.id)?;
                Some((i.modal.clone()?, i.acked?.1))
            })
            .await
            .unwrap_or_else(|| panic!("fake Discord: the bot opened no modal for {}", to.id));
        self.react(Some(opened)).await;
        let mut inputs = Vec::new();
        walk_components(
            modal["components"]
                .as_array()
                .map_or(&[][..], |v| v.as_slice()),
            &mut |c| {
                if c["type"] == 4 {
                    inputs.push(c.clone());
                }
            },
        );
        for (id, _) in values {
            if !inputs.iter().any(|c| c["custom_id"] == *id) {
                panic!("fake Discord: the modal has no text input {id:?}");
            }
        }
        let rows: Vec<Value> = inputs
            .iter()
            .map(|c| {
                let id = c["custom_id"].as_str().unwrap_or("");
                let value = values
                    .iter()
                    .find(|(k, _)| *k == id)
                    .map_or("", |(_, v)| *v);
                json!({"type": 1, "components": [{"type": 4, "custom_id": id, "value": value}]})
            })
            .collect();
        let data = json!({"custom_id": modal["custom_id"], "components": rows});
        let message = self.inner.world.lock().unwrap().interactions[&to.id].message;
        self.dispatch_interaction(5, user, to.channel_id, message, data)
            .await
    }

    async fn dispatch_interaction(
        &self,
        kind: u8,
        user: u64,
        channel: u64,
        message: Option<u64>,
        data: Value,
    ) -> Interaction {
        let guild = self.inner.world.lock().unwrap().guild_of(channel);
        if self
            .wait_until(SESSION_WAIT, |w| w.live_for(guild).then_some(()))
            .await
            .is_none()
        {
            panic!(
                "fake Discord: no live gateway session of the shard for {guild:?} to dispatch \
                 an interaction to ({:?})",
                self.gateway_stats()
            );
        }
        self.inner.with(|w| {
            assert!(w.users.contains_key(&user), "fake Discord: no user {user}");
            assert!(w.is_channel(channel), "fake Discord: no channel {channel}");
            let id = w.snowflake();
            let token = format!("itoken.{id}.{:x}", id.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let mut d = w.interaction_base(id, &token, kind, user, channel);
            d.insert("data".into(), data);
            if let Some(m) = message {
                let msg = w.messages.get(&m).cloned().expect("the message");
                d.insert("message".into(), w.message_json(&msg));
            }
            let payload = Value::Object(d);
            let dispatched = Instant::now();
            w.interactions.insert(
                id,
                InteractionRec {
                    id,
                    token: token.clone(),
                    kind,
                    user,
                    channel_id: channel,
                    dispatched,
                    message,
                    acked: None,
                    original: None,
                    replies: Vec::new(),
                    modal: None,
                    shard: w.session_for(guild).map(|s| s.shard),
                },
            );
            w.tokens.insert(token.clone(), id);
            w.dispatch_to(guild, "INTERACTION_CREATE", payload.clone());
            Interaction {
                id,
                token,
                dispatched,
                payload,
                kind,
                user,
                channel_id: channel,
            }
        })
    }

    /// Everything the bot sent in answer to `to`, once at least one reply is not a bare
    /// deferral (or at the timeout, then possibly fewer).
    pub async fn replies(&self, to: &Interaction, timeout: Duration) -> Vec<Reply> {
        self.wait_reply(to, |r| !r.kind.is_deferred(), timeout)
            .await;
        self.replies_now(to)
    }

    /// The first reply to `to` matching `pred`, waiting for it.
    pub async fn wait_reply(
        &self,
        to: &Interaction,
        pred: impl Fn(&Reply) -> bool,
        timeout: Duration,
    ) -> Option<Reply> {
        self.wait_until(timeout, |w| {
            w.interactions
                .get(&to.id)
                .and_then(|i| i.replies.iter().find(|r| pred(r)).cloned())
        })
        .await
    }

    /// The replies to `to` so far.
    pub fn replies_now(&self, to: &Interaction) -> Vec<Reply> {
        let w = self.inner.world.lock().unwrap();
        w.interactions
            .get(&to.id)
            .map(|i| i.replies.clone())
            .unwrap_or_default()
    }

    /// Time from dispatching `to` to its acknowledgement (callback), if acknowledged.
    pub fn interaction_latency(&self, to: &Interaction) -> Option<Duration> {
        let w = self.inner.world.lock().unwrap();
        let i = w.interactions.get(&to.id)?;
        i.acked.map(|(_, at)| at - i.dispatched)
    }

    /// Who made interaction `id` (the one an ephemeral message is shown to).
    pub fn interaction_user(&self, id: u64) -> Option<u64> {
        let w = self.inner.world.lock().unwrap();
        w.interactions.get(&id).map(|i| i.user)
    }

    /// Dispatch-to-acknowledgement times of every acknowledged interaction, in dispatch order.
    pub fn latencies(&self) -> Vec<Duration> {
        let w = self.inner.world.lock().unwrap();
        let mut v: Vec<_> = w
            .interactions
            .values()
            .filter_map(|i| i.acked.map(|(_, at)| (i.dispatched, at - i.dispatched)))
            .collect();
        v.sort_by_key(|(d, _)| *d);
        v.into_iter().map(|(_, l)| l).collect()
    }

    pub async fn wait_message(
        &self,
        pred: impl Fn(&StoredMessage) -> bool,
        timeout: Duration,
    ) -> Option<StoredMessage> {
        self.wait_until(timeout, |w| w.messages.values().find(|m| pred(m)).cloned())
            .await
    }

    /// Messages of `channel` (the guild channel or a DM channel), in order; ephemeral
    /// responses in the guild channel are included (flagged `ephemeral`).
    pub fn messages(&self, channel: u64) -> Vec<StoredMessage> {
        let w = self.inner.world.lock().unwrap();
        w.messages
            .values()
            .filter(|m| m.channel_id == channel)
            .cloned()
            .collect()
    }

    pub fn message(&self, id: u64) -> Option<StoredMessage> {
        self.inner.world.lock().unwrap().messages.get(&id).cloned()
    }

    /// The DM channel with `user`, if the bot (or a test) opened one.
    pub fn dm_channel_of(&self, user: u64) -> Option<u64> {
        self.inner
            .world
            .lock()
            .unwrap()
            .dm_channels
            .get(&user)
            .copied()
    }

    /// The DM channel with `user`, opened if needed (for `slash_in` a DM).
    pub fn dm_channel(&self, user: u64) -> u64 {
        self.inner.with(|w| w.dm_channel_for(user))
    }

    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.inner.world.lock().unwrap().requests.clone()
    }

    pub fn problems(&self) -> Vec<String> {
        self.inner.world.lock().unwrap().problems.clone()
    }

    /// How many create-message requests came with an enforced nonce already used
    /// (each answered with the first message; nothing posted again).
    pub fn nonce_repeats(&self) -> u64 {
        self.inner.world.lock().unwrap().nonce_repeats
    }

    /// The problems so far, clearing them (after a deliberately bad request).
    pub fn take_problems(&self) -> Vec<String> {
        std::mem::take(&mut self.inner.world.lock().unwrap().problems)
    }

    pub fn gateway_stats(&self) -> GatewayStats {
        let w = self.inner.world.lock().unwrap();
        GatewayStats {
            live: w.live(),
            live_shards: w.live_shards(),
            ..w.stats.clone()
        }
    }

    /// Closes the websocket with code 4000 (serenity resumes) and waits until it is gone.
    pub async fn drop_gateway(&self) {
        self.drop_gateway_with(4000, "fake Discord dropped the connection")
            .await;
    }

    /// Closes every websocket with `code` and waits until they are gone.
    pub async fn drop_gateway_with(&self, code: u16, reason: &str) {
        let ids: Vec<u64> = self.inner.with(|w| {
            for c in w.conns.values() {
                let _ = c.tx.send(Out::Close(code, reason.to_string()));
            }
            w.conns.keys().copied().collect()
        });
        let gone = self
            .wait_until(Duration::from_secs(5), |w| {
                ids.iter().all(|id| !w.conns.contains_key(id)).then_some(())
            })
            .await;
        assert!(gone.is_some(), "fake Discord: websocket did not close");
    }

    /// Forgets the current session: the next RESUME gets INVALID_SESSION, so the client
    /// identifies anew (after serenity's 5 s pause between shard starts).
    pub fn invalidate_session(&self) {
        self.inner.with(|w| {
            for s in std::mem::take(&mut w.current).into_values() {
                w.sessions.remove(&s);
            }
        });
    }
}

pub(crate) fn content_type_of(filename: &str) -> String {
    let ext = filename
        .rsplit('.')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "txt" => "text/plain",
        "json" => "application/json",
        "toml" => "application/toml",
        _ => "application/octet-stream",
    }
    .to_string()
}

// ---------------------------------------------------------------------------------------------
// Silent mode: a Discord that accepts connections and never answers

impl FakeDiscord {
    /// From now on the gateway accepts websocket connections and never answers them (no
    /// handshake, no HELLO); REST goes on answering.
    pub fn silence_gateway(&self) {
        self.inner.silent_gateway.store(true, Ordering::Relaxed);
    }
}

/// A Discord that accepts every connection, REST or gateway, and never answers: each
/// is held open, unread, until the listener is dropped.
pub struct SilentDiscord {
    addr: SocketAddr,
    _task: Tasks,
}

impl SilentDiscord {
    pub async fn start() -> SilentDiscord {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().unwrap();
        let task = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((stream, _)) = listener.accept().await {
                held.push(stream);
            }
        });
        SilentDiscord {
            addr,
            _task: Tasks(vec![task]),
        }
    }

    /// The base URL to give as the API proxy.
    pub fn proxy_url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

/// A message as someone posted it: text and components, nothing else.
fn plain_message(
    id: u64,
    channel: u64,
    author: u64,
    content: &str,
    components: Vec<Value>,
) -> StoredMessage {
    StoredMessage {
        id,
        channel_id: channel,
        content: content.to_string(),
        embeds: Vec::new(),
        components,
        files: Vec::new(),
        ephemeral: false,
        interaction: None,
        author_id: author,
        flags: 0,
        kind: 0,
        attachments: Vec::new(),
        timestamp: timestamp_now(),
        edited_timestamp: None,
        loading: false,
        updated: Instant::now(),
        nonce: None,
    }
}
