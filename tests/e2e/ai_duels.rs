//! A duel against @Mondo in Pattern Assembly, on the test clock (the bot's game clock
//! moves only when the test says: the AI's think delays are timers on it, and nothing
//! here waits for them): the AI accepts at once, answers by itself, plays on after the
//! bot is killed and started again, sends its showdown grid, and the match ends with a
//! rated result under the AI's level's own seat.

use super::challenges::TestClock;
use super::{Served, answer, channel_message, choice};
use crate::support::discord::FakeDiscord;
use serde_json::json;
use std::time::Duration;

/// Two rounds (one reveal before the first): a whole match in a few minutes of the
/// game clock.
const SHORT: [(&str, &str); 1] = [("MONDO_ASSEMBLY_ROUNDS", "2")];

/// Moves the game clock on a second at a time until the channel says `what` (new
/// since `seen` messages), at most `secs` seconds.
async fn advance_until(fake: &FakeDiscord, clock: &mut TestClock, what: &str, secs: u64) {
    let channel = fake.channel_id();
    let said = |fake: &FakeDiscord| {
        fake.messages(channel)
            .iter()
            .filter(|m| !m.ephemeral && m.text().contains(what))
            .count()
    };
    let before = said(fake);
    for _ in 0..secs {
        clock.advance(1_000);
        let now = fake
            .wait_message(|_| false, Duration::from_millis(30))
            .await;
        assert!(now.is_none());
        if said(fake) > before {
            return;
        }
    }
    channel_message(fake, what).await;
    assert!(said(fake) > before, "the channel never said `{what}` again");
}

fn env(clock: &TestClock) -> Vec<(&str, &str)> {
    let mut env: Vec<(&str, &str)> = clock.env().to_vec();
    env.extend(SHORT);
    env
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_assembly_duel_against_mondo_runs_to_a_rated_result_across_a_restart() {
    let fake = FakeDiscord::start().await;
    let alice = fake.add_user("alice", true);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("mondo.db");
    let log = dir.path().join("mondo.log");
    let mut clock = TestClock::new(dir.path());
    let mut bot = Served::start_with(&fake, &db, &log, &env(&clock));
    bot.ready(&fake).await;

    // alice challenges @Mondo: the AI accepts at once; the match is rated.
    let expert = choice(&fake, "assembly duel", "level", "expert");
    let options = [
        ("opponent", json!(fake.bot_user_id().to_string())),
        ("level", expert),
    ];
    let i = fake.slash(alice.id, "assembly duel", &options).await;
    let opening = answer(&fake, &i).await;
    let text = opening.text();
    assert!(
        text.contains("**Mondo** (AI) accepts") && text.contains("**Rated**"),
        "{text}"
    );
    assert!(
        !text.contains("**Accept**"),
        "no challenge to answer: {text}"
    );

    // Round 1: alice answers (a wrong shape); the AI answers by itself.
    advance_until(&fake, &mut clock, "Round 1", 40).await;
    let i = fake
        .slash(alice.id, "assembly answer", &[("cells", json!("A1-A3-A5"))])
        .await;
    answer(&fake, &i).await;
    advance_until(&fake, &mut clock, "**Mondo** (AI) answered", 60).await;

    // Killed and started again: the AI seat plays on.
    bot.killed(&fake).await;
    let mut bot = Served::start_with(&fake, &db, &log, &env(&clock));
    bot.ready(&fake).await;
    advance_until(&fake, &mut clock, "**Mondo** (AI) answered", 240).await;

    // The showdown: the AI sends its grid; alice sends none; time runs out.
    advance_until(
        &fake,
        &mut clock,
        "**Mondo** (AI)'s showdown grid is in",
        600,
    )
    .await;
    advance_until(&fake, &mut clock, "(finished)", 400).await;
    bot.alive();

    // Rated: the expert's own seat has one result.
    let store = mondo::store::Store::open_read_only(&db).await.unwrap();
    let seat = mondo::rules::PlayerId::ai(2, 0);
    let ratings = store
        .ratings_of(fake.guild_id(), seat.0, None)
        .await
        .unwrap();
    store.close().await;
    assert_eq!(ratings.len(), 1, "{ratings:?}");
    assert_eq!(
        ratings[0].games, 1,
        "the expert's seat is rated once: {ratings:?}"
    );
    assert!(fake.problems().is_empty(), "{:#?}", fake.problems());
}
