//! `mondo serve`: connect to Discord, register the commands, run until Ctrl-C.

use super::{Bot, ServeError, commands, on_error, on_event};
use crate::config::Config;
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
    // (refused before anything is said to Discord).
    let _lock = crate::store::lock_for_running(&config.database.path, "mondo serve")?;
    let config = Arc::new(config);
    let http = http(&token, &config);
    // Ask Discord who we are before anything else: a token it refuses is one line now,
    // not a gateway that retries forever (serenity falls back to the default gateway
    // URL when it cannot ask for one).
    match http.get_current_user().await {
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
    let app = http
        .get_current_application_info()
        .await
        .map_err(|e| ServeError::Discord(format!("could not read the application: {e}")))?;
    http.set_application_id(app.id);
    register(&http, config.discord.guild).await?;
    let bot = Bot::start(config.clone(), http).await?;
    let mut client = client(bot.clone(), http_client(&token, &config)).await?;
    let shards = client.shard_manager.clone();
    let result = tokio::select! {
        r = client.start() => r.map_err(|e| match e {
            serenity::Error::Http(h) if h.status_code() == Some(serenity::StatusCode::UNAUTHORIZED) => {
                ServeError::Unauthorized
            }
            other => ServeError::Discord(other.to_string()),
        }),
        () = crate::runtime::stop_requested() => {
            tracing::info!("stopping");
            shards.shutdown_all().await;
            Ok(())
        }
    };
    drop(client);
    // Every match task finishes the command in hand, the game clock is saved and the
    // store closed.
    if let Err(e) = bot.runtime.clone().shutdown().await {
        tracing::warn!(error = %e, "the matches did not stop cleanly (nothing is lost)");
    }
    result
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
    let framework = poise::Framework::builder()
        .options(options)
        // The commands are registered already (see `serve`).
        .setup(move |_ctx, _ready, _framework| Box::pin(async move { Ok(bot) }))
        .build();
    serenity::ClientBuilder::new_with_http(http, intents())
        .framework(framework)
        .await
        .map_err(|e| ServeError::Discord(e.to_string()))
}
