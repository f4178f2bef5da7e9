//! `mondo serve`: connect to Discord, register the commands, run until Ctrl-C.

use super::{Bot, ServeError, commands, on_error, on_event};
use crate::config::Config;
use crate::shards::{ShardRange, Sharding};
use poise::serenity_prelude as serenity;
use std::sync::Arc;

/// The gateway events the bot needs: interactions come regardless; guilds fill the
/// cache poise reads channels from.
pub fn intents() -> serenity::GatewayIntents {
    serenity::GatewayIntents::GUILDS
}

/// An Http client: to Discord, or (tests) to `config.discord.api_proxy`.
pub fn http_client(token: &str, config: &Config) -> serenity::Http {
    let mut builder = serenity::HttpBuilder::new(token);
    if let Some(proxy) = &config.discord.api_proxy {
        builder = builder.proxy(proxy.clone()).ratelimiter_disabled(true);
    }
    builder.build()
}

/// The same, shared (the desks post with it).
pub fn http(token: &str, config: &Config) -> Arc<serenity::Http> {
    Arc::new(http_client(token, config))
}

/// Connects to Discord and runs until Ctrl-C or SIGTERM (or the connection fails for
/// good); the store is closed either way.
pub async fn serve(config: Config) -> Result<(), ServeError> {
    let token = std::env::var("DISCORD_TOKEN")
        .ok()
        .filter(|t| !t.trim().is_empty())
        .ok_or(ServeError::NoToken)?;
    let token = token.trim().to_string();
    serenity::utils::validate_token(&token).map_err(|e| ServeError::BadToken(e.to_string()))?;
    // This process runs the database's live matches: no other may at the same time
    // (refused before anything is said to Discord). On PostgreSQL no lock is taken:
    // several processes share the database, each match's lease says which runs it.
    let location = config.database.location().map_err(|e| ServeError::Store {
        path: config.database.path.display().to_string(),
        error: e.to_string(),
    })?;
    let _lock = location.lock_for_running()?;
    let config = Arc::new(config);
    let http = http(&token, &config);
    // Every start-up step waits this long for Discord, then stops the bot in one line
    // (a Discord that accepts the connection and never answers used to hang it).
    let wait = std::time::Duration::from_secs(config.discord.timeout_secs);
    // Ask Discord who we are before anything else: a token it refuses is one line now,
    // not a gateway that retries forever (serenity falls back to the default gateway
    // URL when it cannot ask for one).
    match answered(wait, "GET /users/@me", http.get_current_user()).await? {
        Ok(me) => tracing::info!(bot = %me.name, "Discord accepts the token"),
        Err(serenity::Error::Http(e))
            if e.status_code() == Some(serenity::StatusCode::UNAUTHORIZED) =>
        {
            return Err(ServeError::Unauthorized);
        }
        Err(e) => return Err(ServeError::Discord(format!("could not reach Discord: {e}"))),
    }
    // The commands are registered before connecting, so a refusal (a wrong
    // MONDO_DISCORD_GUILD, a bot not in that server) stops here in one line instead of
    // leaving a connected bot that answers nothing.
    let app = answered(
        wait,
        "GET /oauth2/applications/@me",
        http.get_current_application_info(),
    )
    .await?
    .map_err(|e| ServeError::Discord(format!("could not read the application: {e}")))?;
    http.set_application_id(app.id);
    answered(
        wait,
        "registering the commands",
        register(&http, config.discord.guild),
    )
    .await??;
    // Which shards: asked of Discord now for `auto` (and its pacing read), so a range
    // beyond Discord's count stops here in one line.
    let shards = shard_plan(wait, &http, &config).await?;
    if !config.log.metrics_address.trim().is_empty() {
        // Recording from the start: the matches resumed are counted too.
        crate::metrics::recorder();
    }
    let bot = Bot::start(config.clone(), http, &super::games::Games).await?;
    // The operators' view, before the gateway: a process that cannot serve it stops.
    let _monitoring = match config.log.metrics_address.trim() {
        "" => None,
        address => match crate::metrics::listen(address, bot.runtime.clone()).await {
            Ok((bound, task)) => {
                tracing::info!(%bound, "serving /metrics and /healthz on http://{bound}");
                Some(AbortOnDrop(task))
            }
            Err(e) => {
                let _ = bot.runtime.clone().shutdown().await;
                return Err(ServeError::Monitoring(e));
            }
        },
    };
    // Before the gateway: each game's work at start-up (a press on the button of
    // something an older version stored finds what it became).
    if let Err(e) = bot.fronts.on_serve(&bot).await {
        tracing::warn!(error = %e, "a game's start-up work failed");
    }
    // The challenges waiting for their answer: their expiry armed again.
    super::kit::challenge::arm_all(&bot).await;
    // The tournaments' rounds: their matches opened and said as they open.
    super::commands::tournament::follow(&bot).await;
    let client = answered(
        wait,
        "GET /gateway",
        client(bot.clone(), http_client(&token, &config)),
    );
    let mut client = match client.await {
        Ok(Ok(client)) => client,
        Ok(Err(e)) | Err(e) => {
            bot.tournaments.stop().await;
            let _ = bot.runtime.clone().shutdown().await;
            return Err(e);
        }
    };
    let manager = client.shard_manager.clone();
    // Across processes on one PostgreSQL database: whether their ranges run every shard
    // once (docs/scale.md), said now and whenever it changes.
    let coverage = match &location {
        crate::store::Location::Postgres(_) => {
            let plan = shards
                .as_ref()
                .map_or((ShardRange { first: 0, last: 0 }, 1), |p| {
                    (p.range, p.total)
                });
            let mut check = super::coverage::CoverageCheck::new(
                bot.runtime.store().clone(),
                bot.runtime.owner(),
                plan,
                std::time::Duration::from_millis(config.database.lease_ms),
                std::time::Duration::from_millis(config.database.lease_renew_ms.max(1)),
            );
            check.announce().await;
            Some(AbortOnDrop(check.spawn()))
        }
        crate::store::Location::Sqlite(_) => None,
    };
    // Across processes on one PostgreSQL database: this process's turn to identify
    // (docs/scale.md); within it serenity starts one shard every 5 s.
    let turn = match (&shards, &location) {
        (Some(plan), crate::store::Location::Postgres(url)) => {
            Some(identify_turn(url, plan, manager.clone()).await)
        }
        _ => None,
    };
    let shards = shards.map(|plan| (plan.range, plan.total));
    // Afterwards serenity reconnects a lost gateway by itself, and the outage is given
    // back to the matches' clocks (`outage.rs`).
    let result = {
        let start = start(&mut client, shards);
        tokio::pin!(start);
        // Until READY: the gateway's end, READY, the wait running out, or a stop.
        let early = tokio::select! {
            r = &mut start => Some(r.map_err(gateway_error)),
            () = connected(&manager) => None,
            () = tokio::time::sleep(wait) => Some(Err(ServeError::Discord(format!(
                "the gateway did not say READY within {} s (discord.timeout_secs): check \
                 the network",
                wait.as_secs()
            )))),
            () = crate::runtime::stop_requested() => Some(Ok(())),
        };
        match early {
            Some(r) => {
                manager.shutdown_all().await;
                r
            }
            None => {
                let outages = super::outage::watch(manager.clone(), bot.runtime.clone());
                let outages = tokio::spawn(outages);
                let r = run(start, &manager).await;
                outages.abort();
                r
            }
        }
    };
    if let Some(turn) = turn {
        turn.abort();
    }
    if let Some(mut check) = coverage {
        // Stopped (and waited for) first, so no renewal of its lands after the withdrawal.
        check.0.abort();
        let _ = (&mut check.0).await;
        super::coverage::withdraw(bot.runtime.store(), bot.runtime.owner()).await;
    }
    drop(client);
    // Every match task finishes the command in hand, the game clock is saved and the
    // store closed.
    bot.tournaments.stop().await;
    if let Err(e) = bot.runtime.clone().shutdown().await {
        tracing::warn!(error = %e, "the matches did not stop cleanly (nothing is lost)");
    }
    result
}

/// The shards this process runs, `None` for today's single connection (shard 0 of 1,
/// no `GET /gateway/bot`). With shard options Discord's session-start limit is read and
/// logged: serenity 0.12 starts the shards one at a time, 5 s apart, whatever
/// `max_concurrency` says, which keeps within Discord's identify limit for any
/// `max_concurrency` (docs/scale.md).
async fn shard_plan(
    wait: std::time::Duration,
    http: &serenity::Http,
    config: &Config,
) -> Result<Option<ShardPlan>, ServeError> {
    let sharding = config
        .discord
        .sharding()
        .map_err(|e| ServeError::Discord(e.to_string()))?;
    if sharding == Sharding::Single {
        return Ok(None);
    }
    let asked = answered(wait, "GET /gateway/bot", http.get_bot_gateway()).await?;
    let max_concurrency = asked.as_ref().map_or(1, |g| {
        u32::try_from(g.session_start_limit.max_concurrency)
            .unwrap_or(1)
            .max(1)
    });
    let plan = match (sharding, asked) {
        (Sharding::Auto { .. }, Err(e)) => {
            return Err(ServeError::Discord(format!(
                "could not ask Discord how many shards to run (--shard-total auto): {e}"
            )));
        }
        (_, Err(e)) => {
            tracing::warn!(error = %e, "could not read Discord's session-start limit");
            sharding.resolve(1)
        }
        (_, Ok(gateway)) => {
            let limit = &gateway.session_start_limit;
            let plan = sharding.resolve(gateway.shards);
            if let Ok((range, _)) = &plan {
                if limit.remaining < u64::from(range.count()) {
                    tracing::warn!(
                        remaining = limit.remaining,
                        reset_after_ms = limit.reset_after,
                        shards = range.count(),
                        "Discord allows fewer session starts than this process has shards \
                         until the limit resets: some shards will wait"
                    );
                }
            }
            if let Ok((_, total)) = &plan
                && gateway.shards > *total
            {
                tracing::warn!(
                    discord_shards = gateway.shards,
                    total,
                    "Discord recommends more shards than the total given; past 2,500 servers \
                     a shard is refused (4011 Sharding required)"
                );
            }
            tracing::info!(
                discord_shards = gateway.shards,
                max_concurrency = limit.max_concurrency,
                "Discord's shard count and identify limit (serenity starts one shard of \
                 this process every 5 s)"
            );
            plan
        }
    };
    let (range, total) = plan.map_err(ServeError::Discord)?;
    tracing::info!(shards = %range, total, "running shards");
    Ok(Some(ShardPlan {
        range,
        total,
        max_concurrency,
    }))
}

/// The shards this process runs, and Discord's identify concurrency.
struct ShardPlan {
    range: ShardRange,
    total: u32,
    max_concurrency: u32,
}

/// Waits for this process's turn to identify its shards' rate-limit keys on the shared
/// database, then lets each key go [`IDENTIFY_WINDOW`] after the last of its shards
/// here has connected (or after a generous wait for shards that do not connect); the
/// task returned does that. Without a turn (the database unreachable, or another
/// process holding a key too long) the shards start anyway, with a warning: Discord
/// answers an early IDENTIFY with an invalid session and serenity identifies again.
async fn identify_turn(
    url: &str,
    plan: &ShardPlan,
    manager: Arc<serenity::ShardManager>,
) -> tokio::task::JoinHandle<()> {
    use crate::shards::{IDENTIFY_WINDOW, IdentifyTurn, rate_limit_key, rate_limit_keys};
    let keys = rate_limit_keys(plan.range, plan.max_concurrency);
    let waiting = || {
        tracing::info!(
            keys = ?keys,
            "waiting for another process's shards to identify (Discord's identify limit)"
        )
    };
    let mut turn = match IdentifyTurn::take(url, &keys, waiting).await {
        Ok(turn) => turn,
        Err(e) => {
            tracing::warn!(error = %e, "starting the shards without an identify turn");
            return tokio::spawn(async {});
        }
    };
    let (range, mc) = (plan.range, plan.max_concurrency);
    // serenity's pace, and a minute for connecting.
    let give_up = std::time::Instant::now()
        + IDENTIFY_WINDOW * range.count()
        + std::time::Duration::from_secs(60);
    tokio::spawn(async move {
        let mut done: Vec<(u32, std::time::Instant)> = Vec::new();
        while !turn.held().is_empty() {
            let now = std::time::Instant::now();
            let connected: Vec<u32> = {
                let runners = manager.runners.lock().await;
                runners
                    .iter()
                    .filter(|(_, r)| r.stage == serenity::ConnectionStage::Connected)
                    .map(|(id, _)| id.0)
                    .collect()
            };
            for key in turn.held().to_vec() {
                let all = (range.first..=range.last)
                    .filter(|s| rate_limit_key(*s, mc) == key)
                    .all(|s| connected.contains(&s));
                if (all || now >= give_up) && !done.iter().any(|(k, _)| *k == key) {
                    done.push((key, now + IDENTIFY_WINDOW));
                }
            }
            for (key, at) in &done {
                if now >= *at {
                    turn.release(*key).await;
                }
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    })
}

/// Starts the gateway connections: shard 0 of 1 as before, or the planned range.
async fn start(
    client: &mut serenity::Client,
    shards: Option<(ShardRange, u32)>,
) -> Result<(), serenity::Error> {
    match shards {
        None => client.start().await,
        // serenity 0.12 runs `range.start` up to and including `range.end`
        // (`start_connection(start, end, total)` boots `end - start + 1` shards).
        Some((range, total)) => {
            client
                .start_shard_range(range.first..range.last, total)
                .await
        }
    }
}

/// Runs the connected bot until the gateway fails for good, Ctrl-C or SIGTERM.
async fn run(
    start: impl std::future::Future<Output = Result<(), serenity::Error>>,
    shards: &Arc<serenity::ShardManager>,
) -> Result<(), ServeError> {
    tokio::select! {
        r = start => r.map_err(gateway_error),
        () = crate::runtime::stop_requested() => {
            tracing::info!("stopping");
            shards.shutdown_all().await;
            Ok(())
        }
    }
}

/// Waits until some shard has had READY (or RESUMED) from the gateway.
async fn connected(shards: &Arc<serenity::ShardManager>) {
    while !super::outage::is_connected(shards).await {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// A start-up step's answer, or one line saying Discord did not give it in time.
async fn answered<T>(
    wait: std::time::Duration,
    step: &str,
    answer: impl std::future::Future<Output = T>,
) -> Result<T, ServeError> {
    tokio::time::timeout(wait, answer).await.map_err(|_| {
        ServeError::Discord(format!(
            "no answer within {} s ({step}; discord.timeout_secs): check the network, \
             or discord.api_proxy if set",
            wait.as_secs()
        ))
    })
}

fn gateway_error(e: serenity::Error) -> ServeError {
    match e {
        serenity::Error::Http(h) if h.status_code() == Some(serenity::StatusCode::UNAUTHORIZED) => {
            ServeError::Unauthorized
        }
        other => ServeError::Discord(other.to_string()),
    }
}

/// Registers every slash command: in one server (`discord.guild`, at once) or
/// globally (Discord may take up to an hour to show them).
pub async fn register(http: &serenity::Http, guild: Option<u64>) -> Result<(), ServeError> {
    let commands = poise::builtins::create_application_commands(&commands::all());
    let result = match guild {
        Some(g) => serenity::GuildId::new(g.max(1))
            .set_commands(http, commands)
            .await
            .map(drop),
        None => serenity::Command::set_global_commands(http, commands)
            .await
            .map(drop),
    };
    result.map_err(|e| {
        ServeError::Discord(match guild {
            Some(g) => format!(
                "could not register the commands in server {g} ({e}): is the bot in that \
                 server, and is MONDO_DISCORD_GUILD (discord.guild) its id?"
            ),
            None => format!("could not register the commands ({e})"),
        })
    })
}

/// The poise framework and the serenity client around a started [`Bot`]. The client
/// gets its own `Http` (serenity owns it) with the same token and base URL as the
/// bot's, which the desks post with.
pub async fn client(bot: Arc<Bot>, http: serenity::Http) -> Result<serenity::Client, ServeError> {
    let options = poise::FrameworkOptions {
        commands: commands::all(),
        on_error: |error| Box::pin(on_error(error)),
        event_handler: |framework, event| {
            Box::pin(on_event(
                framework.serenity_context,
                event,
                framework.user_data,
            ))
        },
        ..Default::default()
    };
    let data = bot.clone();
    let framework = poise::Framework::builder()
        .options(options)
        // The commands are registered already (see `serve`).
        .setup(move |_ctx, _ready, _framework| Box::pin(async move { Ok(bot) }))
        .build();
    serenity::ClientBuilder::new_with_http(http, intents())
        // Interactions for a match another process runs go there (`route.rs`).
        .framework(super::route::Router::new(data, framework))
        .await
        .map_err(|e| ServeError::Discord(e.to_string()))
}

/// A task stopped when its owner goes (the /metrics server with `serve`).
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}
