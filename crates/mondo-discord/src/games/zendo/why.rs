//! `/why [match]`: once a Zendo match against the AI student is over, what the AI
//! believed after each structure (docs/ai.md, "Why"), told again from the match's
//! stored log, so it is the same after a restart. A match still being played is
//! refused to the asker only: its beliefs would help its opponents.

use super::ai::level_of;
use crate::data::off_runtime;
use crate::kit::card::{Card, MAX_DESCRIPTION};
use crate::kit::reply;
use crate::play::games::zendo::ai_seat::{self, Why};
use crate::post::Post;
use crate::rules::{PlayerId, Viewer};
use crate::runtime::{AnyMatch, Engine};
use crate::store::{MatchFilter, MatchId, MatchRecord, Status};
use crate::student::zendo::Level;
use crate::{Bot, Context, Error};

/// Matches of the channel looked through for the last one an AI student played.
const LOOK_BACK: u32 = 50;

/// What the AI student believed after each structure of a finished Zendo match.
///
/// The last match here an AI student played, or `match`. For each structure on the table: how many rules it still held and the likeliest
/// few. Said once the match is over, to anyone.
#[poise::command(slash_command, guild_only)]
pub async fn why(
    ctx: Context<'_>,
    #[description = "The match's number (default: the last one here an AI student played)"]
    #[rename = "match"]
    #[min = 1]
    id: Option<i64>,
) -> Result<(), Error> {
    let bot = ctx.data();
    let server = crate::store::server_of(ctx.guild_id().map(|g| g.get()));
    let record = match id {
        Some(id) => bot
            .store
            .record(MatchId(id))
            .await?
            .filter(|r| crate::store::server_of(r.guild) == server),
        None => last_here(bot, ctx.channel_id().get()).await?,
    };
    let Some(record) = record else {
        let refusal = match id {
            Some(id) => format!(
                "there is no match #{id} on this server: `/history` lists the matches you \
                 played"
            ),
            None => "no AI student has played here yet: challenge it with `/zendo duel \
                     opponent:@Mondo`, then ask `/why` once the match is over"
                .to_string(),
        };
        return reply(ctx, Post::private(refusal)).await;
    };
    // Refused before the answer is deferred, so that only the asker sees it.
    if let Some(refusal) = refused(&record) {
        return reply(
            ctx,
            Post::private(format!("match #{}: {refusal}", record.id)),
        )
        .await;
    }
    ctx.defer().await?;
    let post = match told(bot, record).await? {
        Ok(post) => post,
        Err(refusal) => Post::private(refusal),
    };
    reply(ctx, post).await
}

/// Why `/why` says nothing of a match: not a game the student plays, no AI seat, or
/// still being played.
fn refused(record: &MatchRecord) -> Option<&'static str> {
    use crate::rules::GameKind;
    let plays = matches!(
        record.game(),
        Ok(GameKind::ZendoDuel | GameKind::ZendoTriple | GameKind::ZendoClassic)
    );
    if !plays {
        return Some(ai_seat::WHY_GAMES);
    }
    if !record
        .players
        .iter()
        .any(|p| level_of(PlayerId(*p)).is_some())
    {
        return Some(ai_seat::NO_AI);
    }
    (record.status == Status::Live).then_some(ai_seat::NOT_OVER)
}

/// The last match of `channel` with an AI seat.
async fn last_here(bot: &Bot, channel: u64) -> Result<Option<MatchRecord>, Error> {
    let filter = MatchFilter {
        channel: Some(channel),
        limit: Some(LOOK_BACK),
        ..MatchFilter::default()
    };
    Ok(bot
        .store
        .matches(&filter)
        .await?
        .into_iter()
        .find(|r| r.players.iter().any(|p| PlayerId(*p).ai_seat().is_some())))
}

/// The answer: the match folded from its log, and the AI seats' beliefs (CPU work, a
/// space built if this process has none yet: off the threads that answer).
async fn told(bot: &Bot, record: MatchRecord) -> Result<Result<Post, String>, Error> {
    let events = bot.store.events(record.id).await?;
    Ok(off_runtime(move || -> Result<Post, String> {
        let decoded = events
            .iter()
            .map(|e| AnyMatch::decode(&record.kind, &e.body))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("match #{} cannot be read back: {e}", record.id))?;
        let state = AnyMatch::replay(&record.kind, &decoded)
            .map_err(|e| format!("match #{} cannot be rebuilt from its log: {e}", record.id))?;
        let view = state.view(&Viewer::Spectator);
        let seats: Vec<(String, Level)> = record
            .players
            .iter()
            .filter_map(|p| {
                let id = PlayerId(*p);
                Some((crate::narrate::mention(id), level_of(id)?))
            })
            .collect();
        let whys = ai_seat::why(&view, &seats, ai_seat::space)
            .map_err(|e| format!("match #{}: {e}", record.id))?;
        Ok(post(record.id, &whys))
    })
    .await?)
}

/// One card per level seated (and per pattern of a Triple), each a line per structure;
/// a long match keeps its first and last structures.
fn post(id: MatchId, whys: &[Why]) -> Post {
    let mut cards = Vec::new();
    for why in whys {
        let names = why.names.join(", ");
        for trail in &why.trails {
            let mut card = Card::new(match trail.heading() {
                Some(pattern) => format!("Match #{id}, {}", pattern.trim_end_matches(':')),
                None => format!("Match #{id}"),
            });
            let lines: Vec<String> = trail.steps.iter().map(|s| s.line()).collect();
            card.description = format!(
                "{}\n{}",
                crate::student::zendo::why::heading(&names, why.level),
                fit_lines(&lines, MAX_DESCRIPTION - 600)
            );
            cards.push(card);
        }
    }
    Post {
        cards,
        ..Post::default()
    }
}

/// The lines, or when they pass `max` characters the first two and as many of the
/// last as fit, saying how many were left out.
fn fit_lines(lines: &[String], max: usize) -> String {
    let all = lines.join("\n");
    if all.chars().count() <= max || lines.len() <= 3 {
        return all;
    }
    let head = &lines[..2];
    let mut room =
        max.saturating_sub(head.iter().map(|l| l.chars().count() + 1).sum::<usize>() + 60);
    let mut tail = Vec::new();
    for line in lines[2..].iter().rev() {
        let size = line.chars().count() + 1;
        if size > room {
            break;
        }
        room -= size;
        tail.push(line.clone());
    }
    tail.reverse();
    let left_out = lines.len() - 2 - tail.len();
    let mut out = head.to_vec();
    out.push(format!("(… {left_out} structures left out …)"));
    out.extend(tail);
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::fit_lines;

    /// A long story keeps its first two structures and its last ones, and says how many
    /// it left out; a short one is whole.
    #[test]
    fn a_long_story_keeps_its_ends() {
        let lines: Vec<String> = (1..=40)
            .map(|i| format!("#{i} {}", "x".repeat(90)))
            .collect();
        let fitted = fit_lines(&lines, 1_000);
        assert!(fitted.chars().count() <= 1_000, "{fitted}");
        assert!(fitted.starts_with("#1 "), "{fitted}");
        assert!(fitted.contains("\n#2 "), "{fitted}");
        assert!(fitted.ends_with(&lines[39]), "{fitted}");
        let kept = fitted.lines().count() - 1;
        assert!(
            fitted.contains(&format!("(… {} structures left out …)", 40 - kept)),
            "{fitted}"
        );
        assert_eq!(fit_lines(&lines[..3], 10), lines[..3].join("\n"));
    }
}
