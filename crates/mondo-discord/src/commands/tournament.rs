//! `/tournament` on Discord (docs/tournaments.md, "On Discord"): a server's
//! tournaments of any game played in tournaments (each game says how, as
//! `GameControls::tournament_ways`; a playoff game of its own if the host says), made,
//! joined and steered by slash commands. Each round's matches are opened as it opens,
//! each in a thread of its own in the tournament's channel (in the channel itself when
//! the bot may not open threads), rated like any match (a side that never moves is
//! forfeited at the round's deadline), each player reminded by DM of their match and
//! its deadline (in the channel, if the bot cannot DM them). The runtime's
//! `Tournaments` arms the deadlines and reports the results; this says them.

use crate::kit::post::Post;
use crate::kit::{Bot, Context, Data, Error, reply};
use crate::rules::PlayerId;
use crate::runtime::{Change, Loaded, TournamentError};
use crate::say::mention;
use crate::store::server_of;
use crate::tournament::{Act, Event, Format, Outcome, Settings, Tournament, standings};
use poise::serenity_prelude as serenity;
use std::sync::Arc;

/// A format, as chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, poise::ChoiceParameter)]
pub enum FormatChoice {
    #[name = "groups then playoffs"]
    Groups,
    #[name = "round robin"]
    RoundRobin,
    #[name = "swiss"]
    Swiss,
    #[name = "single elimination"]
    Single,
}

/// A tournament of this server: sign-up, rounds and standings.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "create",
        "join",
        "leave",
        "start",
        "standings_of",
        "bracket",
        "my_match",
        "settle",
        "withdraw",
        "replace",
        "pause",
        "resume"
    ),
    subcommand_required
)]
pub async fn tournament(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// `/tournament`, its `game` and `playoff_game` choices every way a game is played in
/// a tournament (`games`, as the registry lists them).
pub fn command(games: &[(&'static str, String)]) -> poise::Command<Data, Error> {
    let mut command = tournament();
    let choices: Vec<poise::CommandParameterChoice> = games
        .iter()
        .map(|(label, _)| poise::CommandParameterChoice {
            name: (*label).into(),
            localizations: Default::default(),
            __non_exhaustive: (),
        })
        .collect();
    for create in command
        .subcommands
        .iter_mut()
        .filter(|c| c.name == "create")
    {
        for p in create.parameters.iter_mut() {
            if p.name == "game" || p.name == "playoff_game" {
                p.choices = choices.clone().into();
            }
        }
    }
    command
}

/// The game a tournament plays unless its host names one.
const DEFAULT_GAME: &str = "pattern-assembly";

/// The game of choice `k` (a `game` option's value), or a refusal naming the games.
fn game_of(games: &[(&'static str, String)], k: u8, option: &str) -> Result<String, String> {
    games
        .get(usize::from(k))
        .map(|g| g.1.clone())
        .ok_or_else(|| {
            let names: Vec<&str> = games.iter().map(|g| g.0).collect();
            format!("`{option}`: a tournament plays one of {}", names.join(", "))
        })
}

/// A game as a tournament's settings name it, in words (its choice's label).
fn title_of(games: &[(&'static str, String)], game: &str) -> String {
    games
        .iter()
        .find(|g| g.1 == game)
        .map_or_else(|| game.to_string(), |g| g.0.to_string())
}

/// A new tournament here, hosted by you (Pattern Assembly unless you name a game).
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
async fn create(
    ctx: Context<'_>,
    #[description = "Its name"] name: String,
    #[description = "How players meet"] format: FormatChoice,
    #[description = "Swiss: how many rounds"]
    #[min = 1]
    #[max = 64]
    rounds: Option<u32>,
    #[description = "Groups: how many of each group go to the playoffs (1-5)"]
    #[min = 1]
    #[max = 5]
    playoffs: Option<u8>,
    #[description = "Groups: the most players a group has (3-6)"]
    #[min = 3]
    #[max = 6]
    group_size: Option<u8>,
    #[description = "A bracket match: best of 1 or 3"]
    #[min = 1]
    #[max = 3]
    best_of: Option<u8>,
    #[description = "The game every match plays (Pattern Assembly unless set)"] game: Option<u8>,
    #[description = "The playoffs' (or every bracket round's) game, if not the same"]
    playoff_game: Option<u8>,
    #[description = "Hours a round lasts before its unplayed matches are forfeited (24)"]
    #[min = 1]
    #[max = 720]
    round_hours: Option<u64>,
    #[description = "Minutes before a deadline who has not come is reminded (a quarter of the round; 0: never)"]
    #[min = 0]
    #[max = 43200]
    remind_minutes: Option<u64>,
    #[description = "AI players take the seats left empty at the start, up to this many players"]
    #[min = 2]
    #[max = 64]
    ai_fill: Option<u32>,
) -> Result<(), Error> {
    let bot = ctx.data();
    let format = match (format, rounds, playoffs) {
        (FormatChoice::Swiss, Some(rounds), None) => Format::Swiss { rounds },
        (FormatChoice::Swiss, None, _) => return refuse(ctx, "a Swiss needs `rounds`").await,
        (FormatChoice::Groups, None, Some(advance)) => Format::Groups {
            size: group_size.unwrap_or((advance + 1).clamp(4, 6)),
            advance,
        },
        (FormatChoice::Groups, _, None) => {
            return refuse(ctx, "groups need `playoffs`: how many of each group go on").await;
        }
        (FormatChoice::RoundRobin, None, None) => Format::RoundRobin,
        (FormatChoice::Single, None, None) => Format::Single,
        _ => {
            return refuse(
                ctx,
                "`rounds` is for a Swiss and `playoffs` for groups, not this format",
            )
            .await;
        }
    };
    if playoff_game.is_some() && matches!(format, Format::RoundRobin | Format::Swiss { .. }) {
        return refuse(
            ctx,
            "`playoff_game` is for a format with a bracket: groups then playoffs, or single \
             elimination",
        )
        .await;
    }
    let games = bot.fronts.tournament_games();
    let chosen = game
        .map(|k| game_of(&games, k, "game"))
        .transpose()
        .and_then(|g| {
            Ok((
                g,
                playoff_game
                    .map(|k| game_of(&games, k, "playoff_game"))
                    .transpose()?,
            ))
        });
    let (game, playoff_game) = match chosen {
        Ok(x) => x,
        Err(e) => return refuse(ctx, &e).await,
    };
    let settings = Settings {
        format,
        game: game.unwrap_or_else(|| DEFAULT_GAME.into()),
        playoff_game,
        best_of: best_of.unwrap_or(1),
        round_ms: round_hours.unwrap_or(24) * 3_600_000,
        signup_until: None,
        channel: Some(ctx.channel_id().get()),
        remind_ms: remind_minutes.map(|m| m * 60_000),
        ai_fill,
    };
    let host = PlayerId(ctx.author().id.get());
    let first = match Tournament::create(&name, host, settings, bot.runtime.now()) {
        Ok(e) => e,
        Err(e) => return refuse(ctx, &e.to_string()).await,
    };
    let id = bot.tournaments.create(guild(ctx), &first).await?;
    let Event::Created { name, settings, .. } = &first else {
        return Ok(());
    };
    let ai = settings.ai_fill.map_or(String::new(), |n| {
        format!(" AI players take the seats left empty at the start, up to {n} players.")
    });
    reply(
        ctx,
        Post::text(format!(
            "Tournament **{name}** (#{id}): {}, {}{}, hosted by {}. Join with \
             `/tournament join`; the host starts it with `/tournament start`.{ai}",
            settings.format,
            title_of(&games, &settings.game),
            settings
                .playoff_game
                .as_ref()
                .map_or(String::new(), |g| format!(
                    " ({} in the playoffs)",
                    title_of(&games, g)
                )),
            mention(host)
        )),
    )
    .await
}

/// Sign up for this server's tournament.
#[poise::command(slash_command, guild_only)]
async fn join(
    ctx: Context<'_>,
    #[description = "The tournament's number (the newest unless set)"] id: Option<i64>,
) -> Result<(), Error> {
    let act = Act::Join {
        player: me(ctx),
        name: ctx.author().name.clone(),
    };
    act_and_say(ctx, id, act, |l| {
        format!(
            "{} joined **{}** ({} signed up).",
            mention(me(ctx)),
            l.t.name,
            l.t.signups.len()
        )
    })
    .await
}

/// Leave it (after the start: withdraw).
#[poise::command(slash_command, guild_only)]
async fn leave(
    ctx: Context<'_>,
    #[description = "The tournament's number (the newest unless set)"] id: Option<i64>,
) -> Result<(), Error> {
    act_and_say(ctx, id, Act::Leave { player: me(ctx) }, |l| {
        format!("{} left **{}**.", mention(me(ctx)), l.t.name)
    })
    .await
}

/// Host: close sign-up and open round 1 (seeded by rating in the tournament's game).
#[poise::command(slash_command, guild_only)]
async fn start(
    ctx: Context<'_>,
    #[description = "The tournament's number (the newest unless set)"] id: Option<i64>,
) -> Result<(), Error> {
    let bot = ctx.data();
    let Some(l) = find(ctx, id).await? else {
        return Ok(());
    };
    let fill = ai_fill(&l.t);
    let players = l.t.signups.iter().map(|s| s.player);
    let ratings = seed_ratings(bot, l.guild, &l.t, players.chain(fill.iter().map(|f| f.0))).await?;
    let act = Act::Start {
        by: acting_host(ctx, &l.t).await?,
        ratings,
        fill,
    };
    act_and_say(ctx, Some(l.id), act, |l| {
        let ai =
            l.t.seats
                .iter()
                .filter(|s| s.player.ai_seat().is_some())
                .count();
        format!(
            "**{}** has started: {} players{}. Round 1's matches open here, each in a thread of its own.",
            l.t.name,
            l.t.seats.len(),
            match ai {
                0 => String::new(),
                n => format!(", {n} of them AI players"),
            }
        )
    })
    .await
}

/// The standings, as a table and a picture (each group's table too).
#[poise::command(slash_command, guild_only, rename = "standings")]
async fn standings_of(
    ctx: Context<'_>,
    #[description = "The tournament's number (the newest unless set)"] id: Option<i64>,
) -> Result<(), Error> {
    let Some(l) = find(ctx, id).await? else {
        return Ok(());
    };
    let mut post = Post::text(standings_table(&l.t));
    let png = crate::render::standings_png(&l.t);
    post.files
        .push((format!("tournament-{}-standings.png", l.id), png));
    reply(ctx, post).await
}

/// The bracket's matches, round by round, and its picture.
#[poise::command(slash_command, guild_only)]
async fn bracket(
    ctx: Context<'_>,
    #[description = "The tournament's number (the newest unless set)"] id: Option<i64>,
) -> Result<(), Error> {
    let Some(l) = find(ctx, id).await? else {
        return Ok(());
    };
    let t = &l.t;
    let mut lines = vec![format!("**{}**: the bracket", t.name)];
    for r in t.rounds.iter().filter(|r| r.stage.is_bracket()) {
        lines.push(format!("Round {} ({})", r.number, r.stage.name()));
        for tb in &r.tables {
            lines.push(format!("- {}", table_line(t, tb)));
        }
    }
    if lines.len() == 1 {
        lines.push("No bracket round has opened yet.".into());
    }
    let mut post = Post::text(lines.join("\n"));
    let png = crate::render::bracket_png(t);
    post.files
        .push((format!("tournament-{}-bracket.png", l.id), png));
    reply(ctx, post).await
}

/// Your match and its deadline (only you).
#[poise::command(slash_command, guild_only, rename = "my-match")]
async fn my_match(
    ctx: Context<'_>,
    #[description = "The tournament's number (the newest unless set)"] id: Option<i64>,
) -> Result<(), Error> {
    let Some(l) = find(ctx, id).await? else {
        return Ok(());
    };
    let t = &l.t;
    let Some(seat) = t.seat_of(me(ctx)) else {
        return refuse(ctx, &format!("you are not playing in **{}**", t.name)).await;
    };
    let Some(round) = t.open_round() else {
        return refuse(ctx, &format!("**{}** has no round open", t.name)).await;
    };
    let Some(tb) = round.tables.iter().find(|tb| tb.seats().any(|s| s == seat)) else {
        return refuse(ctx, &format!("you have no match in round {}", round.number)).await;
    };
    // Where the match is played: its thread (or the channel).
    let mut yours = String::new();
    if let Some(&m) = tb.opened.last() {
        let record = ctx.data().store.record(crate::store::MatchId(m)).await?;
        let place = record.and_then(|r| r.channel);
        yours = place.map_or(format!(" Your match: #{m}."), |c| {
            format!(" Your match: #{m}, in <#{c}>.")
        });
    }
    let text = format!(
        "Round {} of **{}**: {}. Deadline <t:{}:R> on the game clock.{yours}",
        round.number,
        t.name,
        table_line(t, tb),
        deadline_unix(ctx.data(), round.deadline),
    );
    reply(ctx, Post::private(text)).await
}

/// Host: decide a match.
#[poise::command(slash_command, guild_only)]
async fn settle(
    ctx: Context<'_>,
    #[description = "The round"] round: u32,
    #[description = "The table (as /tournament standings numbers them, from 1)"]
    #[min = 1]
    table: usize,
    #[description = "The winner (none: see draw and absent)"] winner: Option<serenity::User>,
    #[description = "A draw"] draw: Option<bool>,
    #[description = "Who did not show (a forfeit)"] absent: Option<serenity::User>,
    #[description = "The tournament's number (the newest unless set)"] id: Option<i64>,
) -> Result<(), Error> {
    let result = match (winner, draw.unwrap_or(false), absent) {
        (Some(w), false, None) => Outcome::Win {
            winner: PlayerId(w.id.get()),
        },
        (None, true, None) => Outcome::Draw,
        (None, false, Some(a)) => Outcome::Forfeit {
            absent: vec![PlayerId(a.id.get())],
        },
        _ => return refuse(ctx, "say one of: `winner`, `draw: true`, or `absent`").await,
    };
    let Some(l) = find(ctx, id).await? else {
        return Ok(());
    };
    let by = acting_host(ctx, &l.t).await?;
    // The table's match, if one still runs: the settle ends it (no match plays on for
    // a table already decided; the runtime's tournaments end it with the act).
    let opened =
        l.t.rounds
            .iter()
            .find(|r| r.number == round)
            .and_then(|r| r.tables.get(table - 1))
            .and_then(|tb| tb.opened.last().copied());
    let mut live = None;
    if let Some(m) = opened {
        let record = ctx.data().store.record(crate::store::MatchId(m)).await?;
        live = record.filter(|r| r.status == crate::store::Status::Live);
    }
    let act = Act::Settle {
        by,
        round,
        table: table - 1,
        result,
    };
    let ended = live.map_or(String::new(), |r| format!(" Its match #{} is ended.", r.id));
    act_and_say(ctx, Some(l.id), act, |l| {
        format!(
            "Round {round}, table {table} of **{}** settled by the host.{ended}",
            l.t.name
        )
    })
    .await
}

/// Host: withdraw a player.
#[poise::command(slash_command, guild_only)]
async fn withdraw(
    ctx: Context<'_>,
    #[description = "Who withdraws"] player: serenity::User,
    #[description = "The tournament's number (the newest unless set)"] id: Option<i64>,
) -> Result<(), Error> {
    let who = PlayerId(player.id.get());
    let act = |by| Act::Withdraw { by, player: who };
    host_act(ctx, id, act, |l| {
        format!("{} is withdrawn from **{}**.", mention(who), l.t.name)
    })
    .await
}

/// Host: a new player takes a seat.
#[poise::command(slash_command, guild_only)]
async fn replace(
    ctx: Context<'_>,
    #[description = "Who leaves the seat"] old: serenity::User,
    #[description = "Who takes it"] new: serenity::User,
    #[description = "The tournament's number (the newest unless set)"] id: Option<i64>,
) -> Result<(), Error> {
    let (o, n) = (PlayerId(old.id.get()), PlayerId(new.id.get()));
    let act = |by| Act::Replace {
        by,
        old: o,
        new: n,
        name: new.name.clone(),
    };
    host_act(ctx, id, act, |l| {
        format!(
            "{} replaces {} in **{}**.",
            mention(n),
            mention(o),
            l.t.name
        )
    })
    .await
}

/// Host: pause (no deadline runs).
#[poise::command(slash_command, guild_only)]
async fn pause(
    ctx: Context<'_>,
    #[description = "The tournament's number (the newest unless set)"] id: Option<i64>,
) -> Result<(), Error> {
    host_act(
        ctx,
        id,
        |by| Act::Pause { by },
        |l| format!("**{}** is paused.", l.t.name),
    )
    .await
}

/// Host: resume (the deadline moves on).
#[poise::command(slash_command, guild_only)]
async fn resume(
    ctx: Context<'_>,
    #[description = "The tournament's number (the newest unless set)"] id: Option<i64>,
) -> Result<(), Error> {
    host_act(
        ctx,
        id,
        |by| Act::Resume { by },
        |l| format!("**{}** is resumed.", l.t.name),
    )
    .await
}

fn me(ctx: Context<'_>) -> PlayerId {
    PlayerId(ctx.author().id.get())
}

/// Who does a host's act on `t`: its host, when the author is a host of this server
/// (Manage Server, or the server's host role) as for every host command; else the
/// author (whom the rules refuse unless they made the tournament).
async fn acting_host(ctx: Context<'_>, t: &Tournament) -> Result<PlayerId, Error> {
    let settings = ctx.data().settings(guild(ctx)).await?;
    let host = crate::is_host(ctx.author_member().await.as_deref(), settings.host_role);
    Ok(if host { t.host } else { me(ctx) })
}

/// A host's act on the server's tournament `id`, made by [`acting_host`], `done` said
/// in the channel.
async fn host_act(
    ctx: Context<'_>,
    id: Option<i64>,
    act: impl FnOnce(PlayerId) -> Act,
    done: impl FnOnce(&Loaded) -> String,
) -> Result<(), Error> {
    let Some(l) = find(ctx, id).await? else {
        return Ok(());
    };
    let by = acting_host(ctx, &l.t).await?;
    act_and_say(ctx, Some(l.id), act(by), done).await
}

fn guild(ctx: Context<'_>) -> Option<u64> {
    ctx.guild_id().map(|g| g.get())
}

async fn refuse(ctx: Context<'_>, why: &str) -> Result<(), Error> {
    reply(ctx, Post::private(why.to_string())).await
}

/// The server's tournament `id` (the newest unless set); a refusal said if none.
async fn find(ctx: Context<'_>, id: Option<i64>) -> Result<Option<Loaded>, Error> {
    let bot = ctx.data();
    let here = guild(ctx);
    let id = match id {
        Some(id) => id,
        None => match bot.store.tournaments(here).await?.first() {
            Some(r) => r.id,
            None => {
                refuse(
                    ctx,
                    "this server has no tournament: `/tournament create` makes one",
                )
                .await?;
                return Ok(None);
            }
        },
    };
    match bot.tournaments.load(id).await {
        Ok(l) if l.guild == here => Ok(Some(l)),
        Ok(_) | Err(TournamentError::Store(crate::store::StoreError::NoTournament(_))) => {
            refuse(ctx, &format!("this server has no tournament #{id}")).await?;
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// Does `act` to the server's tournament and says `done` in the channel, or the
/// refusal privately.
async fn act_and_say(
    ctx: Context<'_>,
    id: Option<i64>,
    act: Act,
    done: impl FnOnce(&Loaded) -> String,
) -> Result<(), Error> {
    let Some(l) = find(ctx, id).await? else {
        return Ok(());
    };
    match ctx.data().tournaments.act(l.id, &act).await {
        Ok(_) => {
            let l = ctx.data().tournaments.load(l.id).await?;
            reply(ctx, Post::text(done(&l))).await
        }
        Err(TournamentError::Refused(crate::tournament::Refusal::NotHost)) => {
            refuse(
                ctx,
                "only the host may do that: whoever made the tournament, or a host of this \
                 server (Manage Server, or the host role)",
            )
            .await
        }
        Err(TournamentError::Refused(r)) => refuse(ctx, &r.to_string()).await,
        Err(e) => Err(e.into()),
    }
}

/// The AI players who take the seats of `t` left empty at its start, when its host
/// allowed them (`ai_fill`): AI seats (`PlayerId::ai`) numbered from 1, the levels in
/// turn (beginner, player, expert, beginner...), each named as the bot mentions it
/// with its level.
fn ai_fill(t: &Tournament) -> Vec<(PlayerId, String)> {
    let most = t.settings.ai_fill.unwrap_or(0) as usize;
    (0..most.saturating_sub(t.signups.len()))
        .map(|j| {
            let level = crate::student::Level::ALL[j % crate::student::Level::ALL.len()];
            let k = u8::try_from(j + 1).unwrap_or(u8::MAX);
            let seat = crate::kit::start::seat(level, k);
            (seat, format!("AI student {k} ({})", level.name()))
        })
        .collect()
}

/// The ratings of `players` in the tournament's game on this server, for seeding.
async fn seed_ratings(
    bot: &Bot,
    guild: Option<u64>,
    t: &Tournament,
    players: impl Iterator<Item = PlayerId>,
) -> Result<Vec<(PlayerId, f64)>, Error> {
    let mut out = Vec::new();
    // The stored name, before any options.
    let game = t
        .settings
        .game
        .split_whitespace()
        .next()
        .unwrap_or_default();
    for player in players {
        let rows = bot
            .store
            .ratings_of(server_of(guild), player.0, Some(game))
            .await?;
        if let Some(r) = rows.first() {
            out.push((player, r.rating));
        }
    }
    Ok(out)
}

/// A table in words: its players (mentions) and how it went.
fn table_line(t: &Tournament, tb: &crate::tournament::Table) -> String {
    let who = |s: usize| mention(t.seats[s].player);
    let players = match tb.b {
        Some(b) => format!("{} v {}", who(tb.a), who(b)),
        None => format!("{} (a bye)", who(tb.a)),
    };
    let how = match (&tb.decided, tb.winner()) {
        (None, _) => "to play".to_string(),
        (Some(crate::tournament::Decision::Bye), _) => "a win".to_string(),
        (Some(crate::tournament::Decision::Draw), _) => "a draw".to_string(),
        (Some(crate::tournament::Decision::Forfeit(_)), Some(w)) => {
            format!("{} wins by forfeit", who(w))
        }
        (Some(crate::tournament::Decision::Forfeit(_)), None) => "forfeited by both".into(),
        (Some(_), Some(w)) => format!("{} wins", who(w)),
        (Some(_), None) => "decided".into(),
    };
    format!("{players}: {how}")
}

/// The standings as a text table, the first first.
pub fn standings_table(t: &Tournament) -> String {
    let mut lines = vec![match t.champion() {
        Some(c) => format!("**{}**: finished, champion {}", t.name, mention(c.player)),
        None if t.finished.is_some() => format!("**{}**: finished without a champion", t.name),
        None if !t.is_started() => format!("**{}**: {} signed up", t.name, t.signups.len()),
        None => format!(
            "**{}**: round {}, {}",
            t.name,
            t.rounds.len(),
            t.settings.format
        ),
    }];
    lines.push("```".into());
    lines.push(format!(
        "{:>4}  {:<20} {:>6} {:>6}",
        "rank", "player", "points", "played"
    ));
    for r in standings(t) {
        let name: String = t.seats[r.seat].name.chars().take(20).collect();
        lines.push(format!(
            "{:>4}  {:<20} {:>6} {:>6}",
            r.rank, name, r.points, r.played
        ));
    }
    lines.push("```".into());
    lines.join("\n")
}

/// A game-clock time as Unix seconds, for Discord's own countdowns.
fn deadline_unix(bot: &Bot, at: u64) -> u64 {
    let left = at.saturating_sub(bot.runtime.now());
    (crate::kit::wall_ms() + left) / 1000
}

/// Follows the tournaments: each round that opens on this server gets its matches
/// opened, each in its thread of the tournament's channel (and, at start-up, any open round's table that
/// has none yet), each player reminded by DM; forfeits and the champion said.
pub async fn follow(bot: &Data) {
    let mut changes = bot.tournaments.changes();
    if let Ok(all) = bot.store.all_tournaments().await {
        for r in all.into_iter().filter(|r| r.guild.is_some()) {
            open_matches(bot, r.id).await;
        }
    }
    let weak = Arc::downgrade(bot);
    tokio::spawn(async move {
        loop {
            let change = match changes.recv().await {
                Ok(c) => c,
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            };
            let Some(bot) = weak.upgrade() else { return };
            if change.guild.is_some() {
                announce(&bot, &change).await;
                open_matches(&bot, change.id).await;
            }
        }
    });
}

/// Says a change's forfeits, rounds and champion in the tournament's channel.
async fn announce(bot: &Data, change: &Change) {
    let Ok(l) = bot.tournaments.load(change.id).await else {
        return;
    };
    let Some(channel) = l.t.settings.channel else {
        return;
    };
    let name = |p: &PlayerId| mention(*p);
    let mut lines = Vec::new();
    for e in &change.events {
        match e {
            Event::Forfeit {
                round,
                table,
                absent,
                ..
            } => lines.push(format!(
                "Round {round}, table {}: forfeited by {} (no show by the deadline).",
                table + 1,
                absent.iter().map(name).collect::<Vec<_>>().join(" and ")
            )),
            Event::MatchResult {
                round,
                table,
                result,
                ..
            } => lines.push(format!(
                "Round {round}, table {}: {}.",
                table + 1,
                match result {
                    Outcome::Win { winner } => format!("{} wins", name(winner)),
                    _ => "a draw".into(),
                }
            )),
            Event::Reminded { round, players, .. } => {
                lines.extend(remind(bot, &l.t, *round, players).await);
            }
            Event::RoundOpened { round, stage, .. } => lines.push(format!(
                "**{}**: round {round} ({}) opens.",
                l.t.name,
                stage.name()
            )),
            Event::Finished { champion, .. } => lines.push(match champion {
                Some(c) => format!("**{}** is over: the champion is {}!", l.t.name, name(c)),
                None => format!("**{}** is over, without a champion.", l.t.name),
            }),
            _ => {}
        }
    }
    if !lines.is_empty() {
        let channel = serenity::ChannelId::new(channel.max(1));
        bot.post(channel, &Post::text(lines.join("\n"))).await;
    }
}

/// Reminds each of `players` by DM that their match of `round` is still to be played
/// before its deadline: the channel's lines for those the bot cannot DM.
async fn remind(bot: &Data, t: &Tournament, round: u32, players: &[PlayerId]) -> Vec<String> {
    let Some(r) = t.rounds.iter().find(|r| r.number == round) else {
        return Vec::new();
    };
    let deadline = deadline_unix(bot, r.deadline);
    let mut lines = Vec::new();
    // An AI seat is nobody on Discord: it plays by itself and is never DMed.
    for p in players.iter().filter(|p| p.ai_seat().is_none()) {
        let against = t.seat_of(*p).and_then(|seat| {
            let tb = r.tables.iter().find(|tb| tb.seats().any(|s| s == seat))?;
            let other = tb.seats().find(|&s| s != seat)?;
            Some(mention(t.seats[other].player))
        });
        let against = against.map_or(String::new(), |o| format!(" against {o}"));
        let dm = format!(
            "Reminder: your match{against} in **{}**, round {round}, is still to be \
             played. Deadline <t:{deadline}:R>: make a move before it or forfeit.",
            t.name
        );
        if crate::kit::challenge::dm_hello(bot, p.0, dm)
            .await
            .is_none()
        {
            lines.push(format!(
                "{}: a reminder the bot could not DM you: your match{against} in round \
                 {round} is still to be played, deadline <t:{deadline}:R>.",
                mention(*p)
            ));
        }
    }
    lines
}

/// Opens a match for each undecided two-player table of the open round that has none,
/// each in a thread of its own in the tournament's channel; in the channel itself when
/// the bot may not open threads there (said once, as the round's matches open).
async fn open_matches(bot: &Data, id: i64) {
    let Ok(l) = bot.tournaments.load(id).await else {
        return;
    };
    let (Some(channel), Some(round)) = (l.t.settings.channel, l.t.open_round().cloned()) else {
        return;
    };
    if l.t.paused_at.is_some() {
        return;
    }
    let playoffs = round.stage.is_bracket() && l.t.settings.playoff_game.is_some();
    let mut threads = true;
    for (k, tb) in round.tables.iter().enumerate() {
        let Some(b) = tb.b else { continue };
        let replay = tb.games.len() == tb.opened.len();
        if tb.decided.is_some() || !(tb.opened.is_empty() || replay) {
            continue;
        }
        let seats = [tb.a, b];
        let mut place = channel;
        if threads {
            let [x, y] = seats.map(|s| l.t.seats[s].name.as_str());
            match open_thread(bot, channel, thread_name(round.number, x, y)).await {
                Ok(thread) => place = thread,
                Err(e) => {
                    threads = false;
                    tracing::warn!(tournament = id, round = round.number, error = %e, "no thread for a tournament match");
                    let note = format!(
                        "The bot could not open a thread for each match here (it needs the \
                         **Create Public Threads** and **Send Messages in Threads** \
                         permissions in this channel): round {}'s matches are played in \
                         this channel.",
                        round.number
                    );
                    bot.post(serenity::ChannelId::new(channel.max(1)), &Post::text(note))
                        .await;
                }
            }
        }
        let table = Seated {
            round: round.number,
            table: k,
            players: seats.map(|s| l.t.seats[s].player),
            deadline: round.deadline,
        };
        if let Err(e) = open_one(bot, &l, &table, playoffs, channel, place).await {
            tracing::warn!(tournament = id, round = round.number, table = k, error = %e, "a tournament match could not be opened");
        }
    }
}

/// A thread's name for a match: `Round 2: alice vs bob`, within Discord's 100
/// characters.
fn thread_name(round: u32, a: &str, b: &str) -> String {
    let name = format!("Round {round}: {a} vs {b}");
    if name.chars().count() <= 100 {
        return name;
    }
    let short = |n: &str| n.chars().take(40).collect::<String>();
    format!("Round {round}: {} vs {}", short(a), short(b))
}

/// A public thread in `channel` (archived after a week without a message; a message
/// posted in it then opens it again): its id.
async fn open_thread(bot: &Data, channel: u64, name: String) -> Result<u64, serenity::Error> {
    let builder = serenity::CreateThread::new(name)
        .kind(serenity::ChannelType::PublicThread)
        .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
    let thread = serenity::ChannelId::new(channel.max(1))
        .create_thread(&bot.http, builder)
        .await?;
    Ok(thread.id.get())
}

/// A table whose match opens: its round, its number (from 0), its two players (the
/// higher seed first) and the round's deadline.
#[derive(Clone, Copy)]
struct Seated {
    round: u32,
    table: usize,
    players: [PlayerId; 2],
    deadline: u64,
}

/// Opens the match of `table` in `place` (its thread, or the tournament's `channel`),
/// stored with it so that after a restart it is still said there; in a thread, the
/// channel is told where it is.
async fn open_one(
    bot: &Data,
    l: &Loaded,
    table: &Seated,
    playoffs: bool,
    channel: u64,
    place: u64,
) -> Result<(), Error> {
    let Seated {
        round,
        table,
        players,
        deadline,
    } = *table;
    // The stage's game, as its settings name it: the stored name, then its options.
    let named = match &l.t.settings.playoff_game {
        Some(game) if playoffs => game.as_str(),
        _ => l.t.settings.game.as_str(),
    };
    let (name, options) = named.split_once(' ').unwrap_or((named, ""));
    let kind: crate::rules::GameKind = name.parse()?;
    let Some(setup) = bot
        .fronts
        .tournament_setup(kind, bot, l.guild, players.to_vec(), options)
    else {
        return Err(format!("{} is not played in tournaments on Discord", kind.title()).into());
    };
    let setup = setup.await?;
    let at = crate::runtime::Place {
        guild: l.guild,
        channel: Some(place),
    };
    let game = bot.runtime.create(at, setup).await?;
    let link = Act::Link {
        round,
        table,
        match_id: game.0,
    };
    bot.tournaments.act(l.id, &link).await?;
    let ids: Vec<u64> = players.iter().map(|p| p.0).collect();
    let mut post = crate::kit::challenge::opening(bot, game, place, &ids, None).await?;
    let (a, b) = (mention(players[0]), mention(players[1]));
    let deadline = deadline_unix(bot, deadline);
    post.line(format!(
        "**{}**, round {round}, table {}: {a} v {b}. Deadline <t:{deadline}:R>: whoever has \
         not moved by then forfeits.",
        l.t.name,
        table + 1,
    ));
    for (k, p) in players.iter().enumerate() {
        if p.ai_seat().is_some() {
            continue;
        }
        let other = mention(players[1 - k]);
        let hello = format!(
            "Your match in **{}**, round {round}, against {other} is open in <#{place}> \
             (match #{game}). Deadline <t:{deadline}:R>: make a move before it or forfeit.",
            l.t.name,
        );
        if crate::kit::challenge::dm_hello(bot, p.0, hello)
            .await
            .is_none()
        {
            post.line(format!(
                "{}: the bot could not DM you your reminder; your match is here.",
                mention(*p)
            ));
        }
    }
    bot.post(serenity::ChannelId::new(place.max(1)), &post)
        .await;
    if place != channel {
        let link = format!(
            "**{}**, round {round}, table {}: {a} v {b}, in <#{place}> (match #{game}). \
             Deadline <t:{deadline}:R>.",
            l.t.name,
            table + 1,
        );
        bot.post(serenity::ChannelId::new(channel.max(1)), &Post::text(link))
            .await;
    }
    Ok(())
}
