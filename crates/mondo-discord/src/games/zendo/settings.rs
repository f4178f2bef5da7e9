//! The server's settings as the Zendo family reads them: the Zendo Duel's clocks and
//! counterexample style (which practice shares; stored under the duel's name), with
//! the server-wide pool and host role; and `/settings`, where hosts change them.
//! Drawing a hidden pattern and its opening structures from a pool is here too.

use crate::finder::{Limits, Style};
use crate::kit::host::host_only;
use crate::kit::{BUILT_IN_POOLS, reply};
use crate::koan::PieceSet;
use crate::lang::Pattern;
use crate::post::Post;
use crate::rules::GameKind;
use crate::rules::zendo::duel::section::{CHALLENGE_SECS, GUESS_BONUS_SECS, TURN_SECS};
use crate::rules::zendo::opening::Source;
use crate::rules::zendo::{Initial, Timing, opening};
use crate::store::ServerSettings;
use crate::{Bot, Context, Error};
use poise::serenity_prelude as serenity;

/// Settings as they apply to a Zendo match in a server: stored ones, else the
/// configured defaults.
#[derive(Clone, Debug)]
pub struct Effective {
    pub timing: Timing,
    pub style: Style,
    pub pool: String,
    pub host_role: Option<u64>,
    /// What the server itself set (None: default).
    pub stored: ServerSettings,
    /// What the server set for the Zendo Duel (None: default).
    pub duel: DuelSettings,
}

/// A server's own settings for the Zendo Duel (stored as JSON in the store's
/// per-game settings); `None` means "the default".
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DuelSettings {
    /// The whole turn.
    pub turn_ms: Option<u64>,
    /// To answer a challenge.
    pub challenge_ms: Option<u64>,
    /// Added to the turn per official guess.
    pub guess_bonus_ms: Option<u64>,
    /// How counterexamples are picked (practice too).
    pub style: Option<Style>,
}

/// A server's settings with the configured defaults filled in: the server-wide ones
/// and the Zendo Duel's (its clocks and counterexample style, which practice shares).
pub async fn effective(bot: &Bot, guild: Option<u64>) -> Result<Effective, Error> {
    let server = bot.settings(guild).await?;
    let duel: DuelSettings = bot.game_settings(guild, GameKind::ZendoDuel.name()).await?;
    let z = &bot.config.games.ZendoDuel;
    let ms = crate::config::ms;
    Ok(Effective {
        timing: Timing {
            turn_ms: duel.turn_ms.unwrap_or(ms(z.turn_secs)),
            challenge_ms: duel.challenge_ms.unwrap_or(ms(z.challenge_secs)),
            guess_bonus_ms: duel.guess_bonus_ms.unwrap_or(ms(z.guess_bonus_secs)),
        },
        style: duel.style.unwrap_or(z.style),
        pool: server.pool,
        host_role: server.host_role,
        stored: server.stored,
        duel,
    })
}

/// A duel of `players` (who challenged first), `advantage` choosing who starts, on
/// the pattern drawn (`drawn`, with `seed`) and the server's `settings`.
pub fn duel_setup(
    players: [crate::rules::PlayerId; 2],
    advantage: crate::rules::PlayerId,
    drawn: (Pattern, Initial),
    settings: &Effective,
    seed: u64,
) -> crate::rules::zendo::DuelSetup {
    let (hidden, initial) = drawn;
    crate::rules::zendo::DuelSetup {
        players,
        advantage,
        hidden,
        initial,
        settings: crate::rules::zendo::Settings {
            set: PieceSet::Pyramids,
            style: settings.style,
        },
        timing: settings.timing,
        seed,
    }
}

/// Draws the hidden pattern and the two initial structures from a pool: a
/// built-in one (`pyramids`, `arrows`), `generated` (the finder's work, off the
/// async threads), or a server's. `pattern_id` picks an entry; otherwise the seed
/// does.
pub async fn draw(
    bot: &Bot,
    guild: Option<u64>,
    pool: &str,
    pattern_id: Option<&str>,
    set: PieceSet,
    seed: u64,
) -> Result<(Pattern, Initial), String> {
    let name = pool.trim();
    let pool = match name.to_ascii_lowercase().as_str() {
        "generated" => {
            if pattern_id.is_some() {
                return Err("a generated pattern has no id: leave `pattern-id` out".into());
            }
            let job = tokio::task::spawn_blocking(move || {
                opening(Source::Generated, set, seed, &Limits::default())
            });
            let o = job
                .await
                .map_err(|e| format!("pattern generation failed: {e}"))?
                .map_err(|e| e.to_string())?;
            return Ok((o.hidden, o.initial));
        }
        _ => bot.load_pool(guild, name).await?,
    };
    match pattern_id {
        Some(id) => {
            let entry = pool
                .get(id)
                .filter(|e| e.set == set)
                .ok_or_else(|| format!("the pool `{name}` has no {set} pattern with id `{id}`"))?;
            Ok((
                entry.pattern.clone(),
                Initial {
                    obeys: entry.obeys.clone(),
                    does_not: entry.does_not_obey.clone(),
                },
            ))
        }
        // A host's entry brings its own structures; a public pool's entry gets
        // fresh ones from the finder: off the async threads either way.
        None => {
            let name = name.to_string();
            tokio::task::spawn_blocking(move || {
                opening(Source::Pool(&pool), set, seed, &Limits::default())
                    .map(|o| (o.hidden, o.initial))
                    .map_err(|e| format!("the pool `{name}`: {e}"))
            })
            .await
            .map_err(|e| format!("drawing the pattern failed: {e}"))?
        }
    }
}

/// A counterexample style.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum StyleChoice {
    #[name = "simple"]
    Simple,
    #[name = "varied"]
    Varied,
}

/// This server's settings (hosts): clocks, counterexample style, host role, pool.
///
/// Without options it shows them. New matches use new settings; running ones keep
/// theirs.
#[poise::command(slash_command, guild_only)]
#[allow(clippy::too_many_arguments)]
pub async fn settings(
    ctx: Context<'_>,
    #[description = "Seconds per turn (10-3600; the rules say 180)"]
    #[min = 10]
    #[max = 3600]
    turn_secs: Option<u32>,
    #[description = "Seconds to answer a challenge (5-600; the rules say 30)"]
    #[min = 5]
    #[max = 600]
    challenge_secs: Option<u32>,
    #[description = "Seconds added per official guess (0-600; the rules say 30)"]
    #[min = 0]
    #[max = 600]
    guess_bonus_secs: Option<u32>,
    #[description = "Counterexamples: simple (fewest pieces, smallest) or varied"] style: Option<
        StyleChoice,
    >,
    #[description = "Members with this role may host (besides Manage Server)"] host_role: Option<
        serenity::Role,
    >,
    #[description = "The pool new matches draw from (pyramids, generated, or a server pool)"]
    pool: Option<String>,
    #[description = "Forget the host role set here (the config's own, if any, applies again)"]
    no_host_role: Option<bool>,
    #[description = "Put every setting back to the bot's defaults"] reset: Option<bool>,
) -> Result<(), Error> {
    if !host_only(ctx).await? {
        return Ok(());
    }
    let bot = ctx.data();
    let g = ctx.guild_id().map_or(0, |g| g.get());
    let now = effective(bot, Some(g)).await?;
    let (mut s, mut d) = (now.stored, now.duel);
    if reset == Some(true) {
        (s, d) = Default::default();
    }
    let secs = |v: Option<u32>, range: std::ops::RangeInclusive<u64>, what: &str| {
        v.map(|v| {
            let v = u64::from(v);
            if range.contains(&v) {
                Ok(crate::config::ms(v))
            } else {
                Err(format!(
                    "{what} must be {} to {} seconds",
                    range.start(),
                    range.end()
                ))
            }
        })
        .transpose()
    };
    let checked = (|| -> Result<(), String> {
        if let Some(v) = secs(turn_secs, TURN_SECS, "a turn")? {
            d.turn_ms = Some(v);
        }
        if let Some(v) = secs(challenge_secs, CHALLENGE_SECS, "the challenge time")? {
            d.challenge_ms = Some(v);
        }
        if let Some(v) = secs(guess_bonus_secs, GUESS_BONUS_SECS, "the guess bonus")? {
            d.guess_bonus_ms = Some(v);
        }
        Ok(())
    })();
    if let Err(e) = checked {
        return reply(ctx, Post::private(e)).await;
    }
    if let Some(st) = style {
        d.style = Some(match st {
            StyleChoice::Simple => Style::Simple,
            StyleChoice::Varied => Style::Varied,
        });
    }
    if no_host_role == Some(true) {
        if host_role.is_some() {
            return reply(
                ctx,
                Post::private("give `host_role` or `no_host_role`, not both"),
            )
            .await;
        }
        s.host_role = None;
    }
    if let Some(role) = host_role {
        s.host_role = Some(role.id.get());
    }
    if let Some(p) = pool {
        let known = BUILT_IN_POOLS.iter().any(|r| r.eq_ignore_ascii_case(&p))
            || bot.store.pool(g, &p).await?.is_some();
        if !known {
            return reply(
                ctx,
                Post::private(format!(
                    "there is no pool `{p}` here: use pyramids, generated, or a pool from \
                     `/pool list`"
                )),
            )
            .await;
        }
        if p.eq_ignore_ascii_case("arrows") {
            return reply(
                ctx,
                Post::private("duels play with pyramids: choose a pool of pyramid patterns"),
            )
            .await;
        }
        s.pool = Some(p);
    }
    bot.store.set_server_settings(g, &s).await?;
    bot.set_game_settings(g, GameKind::ZendoDuel.name(), &d)
        .await?;
    let e = effective(bot, Some(g)).await?;
    let mark = |set: bool| if set { "" } else { " (default)" };
    let mut post = Post::private("settings for this server (new matches use them):");
    post.line(format!(
        "turn {} s{}, challenge {} s{}, guess bonus {} s{}",
        e.timing.turn_ms / 1000,
        mark(e.duel.turn_ms.is_some()),
        e.timing.challenge_ms / 1000,
        mark(e.duel.challenge_ms.is_some()),
        e.timing.guess_bonus_ms / 1000,
        mark(e.duel.guess_bonus_ms.is_some()),
    ));
    post.line(format!(
        "counterexamples {}{}, pool `{}`{}, host role {}{}",
        e.style,
        mark(e.duel.style.is_some()),
        e.pool,
        mark(e.stored.pool.is_some()),
        e.host_role
            .map_or("none".to_string(), |r| format!("<@&{r}>")),
        mark(e.stored.host_role.is_some()),
    ));
    reply(ctx, post).await
}
