//! `/replay match`: a finished match told step by step in one message, turned with
//! Previous / Next buttons; the last page holds the secrets. A live match is refused
//! to the asker only: its secrets are still someone's.
//!
//! The buttons carry everything a press needs in the shared header
//! (`kit::ids::Header`): `m:MATCH:VERSION:replay:PAGE`, VERSION being the match's last
//! event when the button was drawn (a finished match's log no longer changes). A press
//! reads the match's log from the store again and redraws the page, so the buttons work
//! the same after a restart: nothing of a replay is kept in memory.

use crate::data::off_runtime;
use crate::ids::Header;
use crate::kit::card::{Card, MAX_FIELD_VALUE, cut};
use crate::kit::{Handed, answer_press};
use crate::play::authors::hosts;
use crate::play::page::{Story, Won, name_of, pictures_of, story};
use crate::post::{Button, Post};
use crate::store::{MatchId, MatchRecord, Status};
use crate::{Bot, Error};
use poise::serenity_prelude as serenity;
use std::collections::HashMap;

/// The verb of the replay's buttons under the shared header.
pub const REPLAY_VERB: &str = "replay";

/// Pictures on one page, at most (a step rarely shows more than two).
const PICTURES_PER_PAGE: usize = 4;

/// The refusal, or the match to replay: finished, and this server's.
async fn finished(
    bot: &Bot,
    server: u64,
    id: MatchId,
) -> Result<Result<MatchRecord, String>, Error> {
    let Some(record) = bot.store.record(id).await? else {
        return Ok(Err(format!(
            "there is no match #{id} on this server: `/history` lists the matches you played"
        )));
    };
    if crate::store::server_of(record.guild) != server {
        return Ok(Err(format!(
            "match #{id} was not played on this server: `/replay` shows this server's matches"
        )));
    }
    if record.status == Status::Live {
        return Ok(Err(format!(
            "match #{id} is still being played: its replay would show its secrets, so it opens \
             once the match is over"
        )));
    }
    Ok(Ok(record))
}

/// A finished match as `/replay` tells it: its story, and what it did to each
/// player's rating (`<@1>: 1500 -> 1662? (+162)`; none when it was not rated).
pub struct Told {
    pub story: Story,
    pub ratings: Vec<String>,
}

/// The story of a finished match, its players and the hosts who made a step (a pause,
/// an end) named as mentions (in a card, where a mention never pings), as the
/// terminal's replay page names them.
async fn told(bot: &Bot, record: MatchRecord) -> Result<Result<Told, String>, Error> {
    let events = bot.store.events(record.id).await?;
    let changes = bot.store.rating_changes(record.id).await?;
    let mention = |p: &u64| (*p, format!("<@{p}>"));
    let mut names: HashMap<u64, String> = record.players.iter().map(mention).collect();
    // Folding a log after each event is CPU work: off the threads that answer.
    Ok(off_runtime(move || {
        let bodies: Vec<serde_json::Value> = events
            .iter()
            .map(|e| crate::store::from_json(&e.body).unwrap_or_default())
            .collect();
        names.extend(hosts(&record, &bodies).iter().map(mention));
        let story = story(&record, &events, &names)?;
        let ratings = changes
            .iter()
            .map(|c| format!("{}: {}", name_of(&names, c.player), c.said()))
            .collect();
        Ok(Told { story, ratings })
    })
    .await?)
}

/// `/replay`'s answer: the first step, or a refusal only the asker sees.
pub async fn opening(bot: &Bot, server: u64, id: MatchId) -> Result<Post, Error> {
    let record = match finished(bot, server, id).await? {
        Ok(r) => r,
        Err(refusal) => return Ok(Post::private(refusal)),
    };
    let version = record.last_seq;
    Ok(match told(bot, record).await? {
        Ok(told) => page(&told, id, version, 0),
        Err(reason) => Post::private(reason),
    })
}

/// Previous / Next (and the jumps to the secrets and back): the same message, now on
/// the page the button names.
pub async fn on_replay_button(
    ctx: &serenity::Context,
    bot: &Bot,
    press: &serenity::ComponentInteraction,
    header: &Header,
) -> Result<(), Error> {
    let Some(at) = header.args.first().and_then(|a| a.parse::<usize>().ok()) else {
        let post = Post::private("this replay button is not one Mondo drew: use `/replay` again");
        return answer_press(ctx, bot, press, Handed::own(post)).await;
    };
    let server = crate::store::server_of(press.guild_id.map(|g| g.get()));
    let refused = |text: String| Handed::own(Post::private(text));
    let record = match finished(bot, server, header.game).await? {
        Ok(r) => r,
        Err(refusal) => return answer_press(ctx, bot, press, refused(refusal)).await,
    };
    let version = record.last_seq;
    let told = match told(bot, record).await? {
        Ok(t) => t,
        Err(reason) => return answer_press(ctx, bot, press, refused(reason)).await,
    };
    let post = page(&told, header.game, version, at);
    press
        .create_response(
            ctx,
            serenity::CreateInteractionResponse::UpdateMessage(post.response()),
        )
        .await?;
    Ok(())
}

/// Page `at` of a story: step `at` (0 first), or the secrets after the last step (a
/// page past the end is the secrets too). The first page and the secrets carry the
/// result, as the replay page's header does: who won, how it ended, what it counted
/// for and what it did to each rating.
pub fn page(told: &Told, id: MatchId, version: u64, at: usize) -> Post {
    let story = &told.story;
    let steps = story.steps.len();
    let at = at.min(steps);
    let button = |to: usize, label: &str| {
        Button::new(
            Header::new(id, version, REPLAY_VERB).arg(to),
            label,
            serenity::ButtonStyle::Secondary,
        )
    };
    let mut post = Post::default();
    let mut card;
    if let Some(step) = story.steps.get(at) {
        card = Card::new(format!("{}, step {} of {steps}", story.title, at + 1));
        let mut text = vec![format!("+{} · {}", step.when, step.who), step.said.clone()];
        for lines in [&step.clocks, &step.scores] {
            if !lines.is_empty() {
                text.push(format!("*{}*", lines.join(" · ")));
            }
        }
        card.description = text.join("\n");
        // The first event is the setup: its pictures are the secrets' page's.
        if at > 0 {
            add_pictures(&mut post, story.game, &step.body, at);
        }
    } else {
        card = Card::new(format!("{}, the secrets", story.title));
        let mut text: Vec<String> = story
            .hidden
            .iter()
            .map(|(what, pattern)| format!("**{what}**: {pattern}"))
            .collect();
        if text.is_empty() {
            text.push("What the match was set up with, now that it is over:".into());
        }
        card.description = text.join("\n");
        // The setup's pictures (Zendo's opening structures); a game whose setup is
        // only a seed shows its end's (Bluffs' layout, Assembly's grid).
        if let Some(first) = story.steps.first() {
            add_pictures(&mut post, story.game, &first.body, 0);
        }
        if post.files.is_empty()
            && let Some(last) = story.steps.last()
        {
            add_pictures(&mut post, story.game, &last.body, steps);
        }
    }
    if at == 0 || at == steps {
        result(&mut card, told);
    }
    card.image = post.files.first().map(|(name, _)| name.clone());
    card.footer = Some(format!("Players: {}", story.players.join(", ")));
    post.cards.push(card);
    let mut row = Vec::new();
    if at > 0 {
        row.push(button(at - 1, "Previous"));
    }
    if at < steps {
        row.push(button(at + 1, "Next"));
        row.push(button(steps, "The secrets"));
    } else {
        row.push(button(0, "From the start"));
    }
    post.buttons(row);
    post
}

/// The result's fields: who won and what the match counted for, how it ended, and the
/// rating changes.
fn result(card: &mut Card, told: &Told) {
    let story = &told.story;
    let won = match story.won() {
        Won::Nobody => "No one won: the match had no result.".to_string(),
        Won::Draw => "A draw.".to_string(),
        Won::By(first) => format!("Won by {}.", first.join(" and ")),
    };
    let result = format!("{won} {}.", capital(&story.counted));
    card.fields
        .push(("Result".into(), cut(&result, MAX_FIELD_VALUE)));
    if !story.ended.is_empty() {
        card.fields
            .push(("How it ended".into(), cut(&story.ended, MAX_FIELD_VALUE)));
    }
    let ratings = if told.ratings.is_empty() {
        "Unchanged.".to_string()
    } else {
        told.ratings.join("\n")
    };
    card.fields
        .push(("Ratings".into(), cut(&ratings, MAX_FIELD_VALUE)));
}

/// `text` with its first letter a capital.
fn capital(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn add_pictures(
    post: &mut Post,
    game: crate::rules::GameKind,
    body: &serde_json::Value,
    at: usize,
) {
    for (i, (_, png)) in pictures_of(game, body)
        .into_iter()
        .take(PICTURES_PER_PAGE)
        .enumerate()
    {
        post.files
            .push((format!("step-{}-{}.png", at + 1, i + 1), png));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::page::Step;
    use serde_json::json;

    fn story(steps: usize) -> Told {
        let koan = serde_json::to_value("1^ 2>".parse::<crate::koan::Koan>().unwrap()).unwrap();
        let story = Story {
            title: "Match 9: Zendo Duel".into(),
            game: crate::rules::GameKind::ZendoDuel,
            players: vec!["<@1>".into(), "<@2>".into()],
            steps: (0..steps)
                .map(|i| Step {
                    who: "the umpire".into(),
                    when: format!("0:0{i}.000"),
                    said: format!("step {i} said"),
                    clocks: vec![],
                    scores: vec![],
                    body: json!({"koan": koan, "obeys": i % 2 == 0}),
                })
                .collect(),
            hidden: vec![("hidden pattern".into(), "some piece points up".into())],
            end: json!(null),
            counted: "rated".into(),
            places: vec![("<@1>".into(), 1), ("<@2>".into(), 0)],
            ended: format!("step {} said", steps.saturating_sub(1)),
        };
        Told {
            story,
            ratings: vec!["<@1>: 1500 -> 1338? (-162)".into()],
        }
    }

    fn labels(post: &Post) -> Vec<(String, String)> {
        post.buttons
            .iter()
            .flatten()
            .map(|b| (b.label.clone(), b.id.clone()))
            .collect()
    }

    #[test]
    fn pages_turn_with_ids_that_name_match_version_and_page() {
        let s = story(3);
        let first = page(&s, MatchId(9), 4, 0);
        assert_eq!(first.cards[0].title, "Match 9: Zendo Duel, step 1 of 3");
        assert!(
            first.files.is_empty(),
            "the setup's pictures wait for the secrets"
        );
        assert_eq!(
            labels(&first),
            [
                ("Next".to_string(), "m:9:4:replay:1".to_string()),
                ("The secrets".to_string(), "m:9:4:replay:3".to_string())
            ]
        );
        let middle = page(&s, MatchId(9), 4, 1);
        assert_eq!(middle.cards[0].title, "Match 9: Zendo Duel, step 2 of 3");
        assert_eq!(middle.files.len(), 1, "the step's structure");
        assert_eq!(middle.cards[0].image.as_deref(), Some("step-2-1.png"));
        assert_eq!(labels(&middle)[0].1, "m:9:4:replay:0");
        // The secrets, also for a page past the end (an id made up by hand).
        for at in [3, 99] {
            let last = page(&s, MatchId(9), 4, at);
            assert_eq!(last.cards[0].title, "Match 9: Zendo Duel, the secrets");
            assert!(last.cards[0].description.contains("some piece points up"));
            let l = labels(&last);
            assert_eq!(l[0], ("Previous".to_string(), "m:9:4:replay:2".to_string()));
            assert_eq!(l[1].0, "From the start");
            assert!(!l.iter().any(|(label, _)| label == "Next"));
        }
        // The result, as the page's header tells it: on the first page and the secrets.
        let field = |post: &Post, name: &str| {
            post.cards[0]
                .fields
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        for post in [&first, &page(&s, MatchId(9), 4, 3)] {
            assert_eq!(
                field(post, "Result").as_deref(),
                Some("Won by <@2>. Rated.")
            );
            assert_eq!(field(post, "How it ended").as_deref(), Some("step 2 said"));
            assert_eq!(
                field(post, "Ratings").as_deref(),
                Some("<@1>: 1500 -> 1338? (-162)")
            );
        }
        assert!(middle.cards[0].fields.is_empty(), "{:?}", middle.cards[0]);
        // Every id reads back through the shared header with the replay's verb.
        for (_, id) in labels(&middle) {
            let h = Header::parse(&id).unwrap();
            assert_eq!(
                (h.game, h.version, h.verb.as_str()),
                (MatchId(9), Some(4), REPLAY_VERB)
            );
        }
    }
}
