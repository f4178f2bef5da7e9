//! Ratings, records and replays on Discord: `/stats`, `/leaderboard`, `/history` and
//! `/replay` (with its Previous / Next buttons, [`replay`]). Shared by every game, so
//! they name none: the games come from the registry (`GameKind`), the numbers from the
//! store (`store::ratings`), the story from the replay page's own telling
//! (`play::page::story`). Ratings are per server: each command reads the server it is
//! used in. What the numbers mean is docs/ratings.md.

pub mod board;
pub mod replay;

use crate::kit::card::Card;
use crate::kit::reply;
use crate::play::profile;
use crate::post::Post;
use crate::ratings::{self, BoardSettings};
use crate::render::{self, Column};
use crate::rules::{GameKind, PlayerId};
use crate::store::{HistoryRow, MatchId, RatingRow, SoloRecord, Store};
use crate::{Context, Error, say};
use poise::serenity_prelude as serenity;
use std::borrow::Cow;
use std::collections::HashMap;

pub use board::leaderboard_settings;
pub use replay::{REPLAY_VERB, on_replay_button};

/// Rows of a leaderboard picture, at most.
const BOARD_ROWS: u32 = 20;
/// Matches `/stats` lists under "recent".
const STATS_RECENT: u32 = 5;
/// Matches `/history` lists, unless asked for another number...
const HISTORY_ROWS: u32 = 10;
/// ...within these (a card holds 25 lines with room to spare).
const HISTORY_LIMITS: std::ops::RangeInclusive<u32> = 1..=25;

/// A game to choose in a command, offered from the registry (every kind, in the
/// order games are listed; Discord shows each by its title).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameChoice(pub GameKind);

impl poise::ChoiceParameter for GameChoice {
    fn list() -> Cow<'static, [poise::CommandParameterChoice]> {
        GameKind::ALL
            .iter()
            .map(|k| poise::CommandParameterChoice {
                name: k.title().into(),
                localizations: Cow::Borrowed(&[]),
                // poise's own derive fills the field this way.
                __non_exhaustive: (),
            })
            .collect::<Vec<_>>()
            .into()
    }

    fn from_index(index: usize) -> Option<GameChoice> {
        GameKind::ALL.get(index).copied().map(GameChoice)
    }

    fn from_name(name: &str) -> Option<GameChoice> {
        GameKind::ALL
            .iter()
            .find(|k| k.title().eq_ignore_ascii_case(name) || k.name().eq_ignore_ascii_case(name))
            .copied()
            .map(GameChoice)
    }

    fn name(&self) -> &'static str {
        self.0.title()
    }

    fn localized_name(&self, _: &str) -> Option<&'static str> {
        None
    }
}

/// The server a command counts on (ratings are per server).
fn server(ctx: Context<'_>) -> u64 {
    crate::store::server_of(ctx.guild_id().map(|g| g.get()))
}

/// A stored game name as players call it (a name this Mondo does not know, as is).
pub(crate) fn title(game: &str) -> String {
    game.parse::<GameKind>()
        .map(|k| k.title().to_string())
        .unwrap_or_else(|_| game.to_string())
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `m:ss` of game-clock milliseconds.
fn clock(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

/// A rating line: `Zendo Duel: 1662? (deviation 290), 3 rated games: 2 wins, 1
/// loss, 0 draws`.
pub fn rating_line(r: &RatingRow) -> String {
    format!(
        "**{}**: {} (deviation {:.0}), {}",
        title(&r.game),
        r.shown(),
        r.deviation,
        ratings::results(r.games, r.wins, r.losses, r.draws),
    )
}

/// A solo record line: `Zendo practice (solo): 3 played, 1 solved, fastest 2:31`.
pub fn solo_line(s: &SoloRecord) -> String {
    let best = s
        .best_ms
        .map(|ms| format!(", fastest solved in {}", clock(ms)))
        .unwrap_or_default();
    format!(
        "**{}** (solo): {} played, {} solved{best}",
        title(&s.game),
        s.played,
        s.solved
    )
}

/// A finished match as a history line for `player`, with its replay command.
pub fn history_line(h: &HistoryRow, player: u64) -> String {
    let others: Vec<String> = h
        .players
        .iter()
        .filter(|p| **p != player)
        .map(|p| say::mention(PlayerId(*p)))
        .collect();
    let with = if others.is_empty() {
        "solo".to_string()
    } else {
        format!("with {}", others.join(", "))
    };
    let result = match (h.result, h.rating_before, h.rating_after, h.deviation_after) {
        _ if h.solo => "solo, not rated".to_string(),
        (Some(r), Some(before), Some(after), Some(deviation)) => {
            let word = match r {
                ratings::Result::Win => "won",
                ratings::Result::Loss => "lost",
                ratings::Result::Draw => "drew",
            };
            format!("{word}, {}", ratings::change(before, after, deviation))
        }
        (Some(r), ..) => r.as_str().to_string(),
        (None, ..) => match h.why_said(say::mention) {
            Some((_, why)) => format!("unrated ({why})"),
            None => "unrated".to_string(),
        },
    };
    let day = h.finished.get(..10).unwrap_or(&h.finished);
    format!(
        "**#{}** {} {with}, {day}: {result} · `/replay match:{}`",
        h.id,
        title(&h.game),
        h.id
    )
}

/// Ratings and record on this server: rating (? while provisional), wins, recent matches.
///
/// Per game: rating and deviation, wins, losses and draws; solo records (practice);
/// the last matches, each with its replay command.
#[poise::command(slash_command, guild_only)]
pub async fn stats(
    ctx: Context<'_>,
    #[description = "Whose (default: you)"] player: Option<serenity::User>,
    #[description = "Only this game"] game: Option<GameChoice>,
) -> Result<(), Error> {
    let user = player.as_ref().unwrap_or_else(|| ctx.author());
    if user.id == ctx.framework().bot_id() {
        let post = ai_stats_post(
            &ctx.data().store,
            server(ctx),
            user.display_name(),
            game.map(|g| g.0),
        )
        .await?;
        return reply(ctx, post).await;
    }
    let post = stats_post(
        &ctx.data().store,
        server(ctx),
        user.id.get(),
        user.display_name(),
        game.map(|g| g.0),
    )
    .await?;
    reply(ctx, post).await
}

/// `/stats` of `player` (shown as `name`) on `server`: public, in a card (names in a
/// card never ping anyone).
pub async fn stats_post(
    store: &Store,
    server: u64,
    player: u64,
    name: &str,
    game: Option<GameKind>,
) -> Result<Post, Error> {
    let kind = game.map(|g| g.name());
    let rows = store.ratings_of(server, player, kind).await?;
    let solo: Vec<SoloRecord> = store
        .solo_records(server, player)
        .await?
        .into_iter()
        .filter(|s| kind.is_none_or(|k| k == s.game))
        .collect();
    let recent = store.history_of(server, player, kind, STATS_RECENT).await?;
    let mut lines: Vec<String> = rows.iter().map(rating_line).collect();
    lines.extend(solo.iter().map(solo_line));
    if lines.is_empty() {
        lines.push(match game {
            Some(g) => format!("No finished {} here yet.", g.title()),
            None => "No finished match here yet.".to_string(),
        });
    }
    let mut card = Card::new(format!("Stats of {name}"));
    card.description = lines.join("\n");
    if !recent.is_empty() {
        let text: Vec<String> = recent.iter().map(|h| history_line(h, player)).collect();
        card.fields.push(("Recent matches".into(), text.join("\n")));
    }
    card.footer = Some(format!(
        "This server's ratings. A ? marks a provisional rating (deviation above {:.0}).",
        ratings::PROVISIONAL_DEVIATION
    ));
    let mut post = Post::default();
    // The rating over time per game, as the profile page charts it (every rated
    // match, not only the recent ones).
    let charted = store
        .history_of(server, player, kind, profile::CHARTED)
        .await?;
    let lines = profile::chart_lines(&charted);
    if !lines.is_empty() {
        let title = format!("Rating over time: {name}");
        let png =
            crate::data::off_runtime(move || render::chart_png(&title, &lines, profile::CHART_X))
                .await?;
        card.image = Some(STATS_CHART.to_string());
        post.files.push((STATS_CHART.to_string(), png));
    }
    post.cards.push(card);
    Ok(post)
}

/// The file name of `/stats`'s chart.
pub const STATS_CHART: &str = "rating-chart.png";

/// `/stats` of the bot itself: its AI seats' ratings on `server`, a line per seat and
/// game (each strength is rated on its own, as each seat plays). They are never on a
/// leaderboard; this is where players see them.
pub async fn ai_stats_post(
    store: &Store,
    server: u64,
    name: &str,
    game: Option<GameKind>,
) -> Result<Post, Error> {
    let rows = store.ai_ratings(server, game.map(|g| g.name())).await?;
    let mut lines: Vec<String> = rows
        .iter()
        .map(|r| format!("{} {}", ai_seat_name(PlayerId(r.player)), rating_line(r)))
        .collect();
    if lines.is_empty() {
        lines.push(match game {
            Some(g) => format!("The AI has played no finished {} here yet.", g.title()),
            None => "The AI has played no finished match here yet.".to_string(),
        });
    }
    let mut card = Card::new(format!("Stats of {name} (AI)"));
    card.description = lines.join("\n");
    card.footer = Some(format!(
        "The AI seats are rated like players but never listed on a leaderboard. A ? marks \
         a provisional rating (deviation above {:.0}).",
        ratings::PROVISIONAL_DEVIATION
    ));
    Ok(Post {
        cards: vec![card],
        ..Post::default()
    })
}

/// An AI seat as its stats line starts: `Mondo (AI, expert) ·` or `AI student 2
/// (player) ·`.
fn ai_seat_name(seat: PlayerId) -> String {
    let Some((level, k)) = seat.ai_seat() else {
        return format!("user {}:", seat.0);
    };
    let level = crate::rules::fair::AI_LEVELS
        .get(usize::from(level))
        .copied()
        .unwrap_or("expert");
    match k {
        0 => format!("Mondo (AI, {level}) ·"),
        k => format!("AI student {k} ({level}) ·"),
    }
}

/// This server's leaderboard, as a picture.
///
/// Players with enough rated games in the game, one played lately, and a settled
/// deviation, best first (the server's rules: `/leaderboard-settings`; by default 5
/// games, one in the last 30 days, a deviation under 110).
#[poise::command(slash_command, guild_only)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Only this game (default: every game with listed players)"] game: Option<
        GameChoice,
    >,
) -> Result<(), Error> {
    // Names are asked of Discord, one per listed player.
    ctx.defer().await?;
    let server = server(ctx);
    let (settings, _) = board::rules_of(ctx.data(), server).await?;
    let rows = ctx
        .data()
        .store
        .leaderboard(server, game.map(|g| g.0.name()), &settings, BOARD_ROWS)
        .await?;
    let mut names = HashMap::new();
    if let Some(guild) = ctx.guild_id() {
        for r in &rows {
            if names.contains_key(&r.player) {
                continue;
            }
            let name = match guild
                .member(ctx, serenity::UserId::new(r.player.max(1)))
                .await
            {
                Ok(m) => m.display_name().to_string(),
                Err(_) => format!("user {}", r.player),
            };
            names.insert(r.player, name);
        }
    }
    let post = board_post(&rows, game.map(|g| g.0), &settings, &names);
    reply(ctx, post).await
}

/// Who a leaderboard lists, in words.
pub fn listing_rules(settings: &BoardSettings) -> String {
    format!(
        "Listed: {} in the game, one in the last {} days, a deviation under {:.0}.",
        plural(settings.min_games, "rated game", "rated games"),
        settings.recent_days,
        settings.max_deviation
    )
}

/// The leaderboard post: a picture per game with listed players (or the one asked
/// for, even empty), and a line of text naming them.
pub fn board_post(
    rows: &[RatingRow],
    game: Option<GameKind>,
    settings: &BoardSettings,
    names: &HashMap<u64, String>,
) -> Post {
    let mut games: Vec<String> = Vec::new();
    for r in rows {
        if !games.contains(&r.game) {
            games.push(r.game.clone());
        }
    }
    if games.is_empty() {
        games.push(game.map_or_else(String::new, |g| g.name().to_string()));
    }
    let rules = listing_rules(settings);
    let columns = [
        Column::right("#"),
        Column::left("Player"),
        Column::right("Rating"),
        Column::right("Deviation"),
        Column::right("Games"),
        Column::right("W-L-D"),
    ];
    let mut post = Post::default();
    let mut said = Vec::new();
    for g in &games {
        let table: Vec<Vec<String>> = rows
            .iter()
            .filter(|r| &r.game == g)
            .enumerate()
            .map(|(i, r)| {
                vec![
                    (i + 1).to_string(),
                    names
                        .get(&r.player)
                        .cloned()
                        .unwrap_or_else(|| format!("user {}", r.player)),
                    r.shown(),
                    format!("{:.0}", r.deviation),
                    r.games.to_string(),
                    format!("{}-{}-{}", r.wins, r.losses, r.draws),
                ]
            })
            .collect();
        let heading = if g.is_empty() {
            "Leaderboard".to_string()
        } else {
            format!("{}: leaderboard", title(g))
        };
        let note = if table.is_empty() {
            format!("Nobody is listed yet. {rules}")
        } else {
            rules.clone()
        };
        let file = if g.is_empty() {
            "leaderboard.png".to_string()
        } else {
            format!("leaderboard-{g}.png")
        };
        post.files
            .push((file, render::table_png(&heading, &columns, &table, &note)));
        said.push(if g.is_empty() {
            "nobody listed yet".to_string()
        } else {
            format!(
                "{} ({})",
                title(g),
                plural(table.len() as u32, "player", "players")
            )
        });
    }
    post.line(format!(
        "**This server's leaderboard**: {}. {rules}",
        said.join(", ")
    ));
    post
}

/// Your recent finished matches on this server, each with its result and the command
/// that replays it.
///
/// The last finished first: the game, with whom, when, the result and what it did to
/// the rating (`1500 -> 1662? (+162)`), and `/replay match:N`.
#[poise::command(slash_command, guild_only)]
pub async fn history(
    ctx: Context<'_>,
    #[description = "Whose (default: you)"] player: Option<serenity::User>,
    #[description = "Only this game"] game: Option<GameChoice>,
    #[description = "How many matches (1-25, default 10)"]
    #[min = 1]
    #[max = 25]
    limit: Option<u32>,
) -> Result<(), Error> {
    let user = player.as_ref().unwrap_or_else(|| ctx.author());
    let limit = limit.unwrap_or(HISTORY_ROWS);
    if !HISTORY_LIMITS.contains(&limit) {
        // Discord keeps to the range it was told; a client that does not is told too.
        let text = format!(
            "`limit` cannot be {limit}: allowed {} to {} matches",
            HISTORY_LIMITS.start(),
            HISTORY_LIMITS.end()
        );
        return reply(ctx, Post::private(text)).await;
    }
    let kind = game.map(|g| g.0);
    let rows = ctx
        .data()
        .store
        .history_of(server(ctx), user.id.get(), kind.map(|k| k.name()), limit)
        .await?;
    let post = history_post(&rows, user.id.get(), user.display_name(), kind);
    reply(ctx, post).await
}

/// `/history`'s answer: a card (names in a card never ping anyone).
pub fn history_post(rows: &[HistoryRow], player: u64, name: &str, game: Option<GameKind>) -> Post {
    let mut card = Card::new(match game {
        Some(g) => format!("{} matches of {name}", g.title()),
        None => format!("Matches of {name}"),
    });
    card.description = if rows.is_empty() {
        match game {
            Some(g) => format!("No finished {} here yet.", g.title()),
            None => "No finished match here yet.".to_string(),
        }
    } else {
        rows.iter()
            .map(|h| history_line(h, player))
            .collect::<Vec<_>>()
            .join("\n")
    };
    card.footer = Some("The last finished first. /replay shows one step by step.".into());
    Post {
        cards: vec![card],
        ..Post::default()
    }
}

/// A finished match step by step, with pictures, then its secrets (Previous / Next).
///
/// Each structure or grid as a picture; the hidden pattern, grid or layout at the end.
/// A match still being played has no replay yet.
#[poise::command(slash_command, guild_only)]
pub async fn replay(
    ctx: Context<'_>,
    #[description = "The match's number (/history lists them)"]
    #[rename = "match"]
    #[min = 1]
    id: i64,
) -> Result<(), Error> {
    let post = replay::opening(ctx.data(), server(ctx), MatchId(id)).await?;
    reply(ctx, post).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Why;

    fn row(rated: bool, why: Option<Why>) -> HistoryRow {
        HistoryRow {
            id: MatchId(7),
            game: "zendo-duel".into(),
            players: vec![11, 22],
            rated,
            why,
            solo: false,
            result: rated.then_some(ratings::Result::Win),
            rating_before: rated.then_some(1500.0),
            deviation_before: rated.then_some(350.0),
            rating_after: rated.then_some(1662.3),
            deviation_after: rated.then_some(290.0),
            finished: "2026-12-06T21:00:00.000Z".into(),
        }
    }

    /// `/stats` and `/history` say what each match counted for: a rated one's result
    /// and change, an unrated one's reason, naming its player without a ping.
    #[test]
    fn a_history_line_says_rated_with_the_change_or_unrated_and_why() {
        let rated = history_line(&row(true, None), 11);
        assert!(rated.contains("with <@22>"), "{rated}");
        assert!(rated.contains("won, 1500 -> 1662? (+162)"), "{rated}");
        let chosen = row(false, Some(Why::SetupChosen { by: PlayerId(11) }));
        let line = history_line(&chosen, 22);
        assert!(
            line.contains("unrated (the setup was chosen by <@11>)"),
            "{line}"
        );
        assert!(line.contains("`/replay match:7`"), "{line}");
        let mut solo = row(false, None);
        solo.solo = true;
        solo.players = vec![11];
        assert!(history_line(&solo, 11).contains("solo, not rated"));
    }
}
