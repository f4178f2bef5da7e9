//! Challenges on Discord (docs/ratings.md, "Fair play"), for every two-player game, on
//! the test clock (`MONDO_TEST_CLOCK`: the bot's game clock moves only when the test
//! says, so nothing here waits for time to pass). A challenge is a message with
//! Accept and Decline; a bystander and the challenger are refused Accept, privately,
//! saying who may; unanswered, it expires after ten minutes of the game clock (also
//! across a restart), its buttons taken off, with no match recorded; declined, it
//! leaves none either. A seeded
//! challenge by a player says "unrated" before and after it is accepted.

use super::{Served, T, accepted, answer, button, private_says};
use crate::support::discord::{FakeDiscord, StoredMessage};
use serde_json::{Value, json};

/// The bot's game clock, driven through the file `MONDO_TEST_CLOCK` names.
pub(crate) struct TestClock {
    file: std::path::PathBuf,
    now: u64,
}

impl TestClock {
    pub(crate) fn new(dir: &std::path::Path) -> TestClock {
        let file = dir.join("clock");
        std::fs::write(&file, "0").expect("the clock file");
        TestClock { file, now: 0 }
    }

    /// Moves the bot's game clock on by `ms`.
    pub(crate) fn advance(&mut self, ms: u64) {
        self.now += ms;
        let next = self.file.with_extension("next");
        std::fs::write(&next, self.now.to_string()).expect("written");
        std::fs::rename(&next, &self.file).expect("moved into place");
    }

    pub(crate) fn env(&self) -> [(&str, &str); 1] {
        [(
            "MONDO_TEST_CLOCK",
            self.file.to_str().expect("a UTF-8 path"),
        )]
    }
}

/// The two-player challenge commands, and the seeded ones a player may give.
const GAMES: [(&str, &str, bool); 4] = [
    ("zendo duel", "Zendo Duel", false),
    ("zendo triple", "Zendo Triple", false),
    ("assembly duel", "Pattern Assembly", true),
    ("bluffs duel", "Logical Bluffs", true),
];

/// `who` challenges `opponent` with `command` in `channel`: the challenge's message.
async fn challenge(
    fake: &FakeDiscord,
    channel: u64,
    who: u64,
    command: &str,
    opponent: u64,
    extra: &[(&str, Value)],
) -> StoredMessage {
    let mut options = vec![("opponent", json!(opponent.to_string()))];
    options.extend(extra.iter().cloned());
    let i = fake.slash_in(channel, who, command, &options).await;
    let m = answer(fake, &i).await;
    assert!(
        !m.ephemeral && m.text().contains("**Accept**") && m.buttons().len() == 2,
        "{command}: {}",
        m.text()
    );
    m
}

/// Until message `id` says `needle` (its buttons gone).
async fn says(fake: &FakeDiscord, id: u64, needle: &str) -> StoredMessage {
    let needle = needle.to_string();
    fake.wait_message(
        |m| m.id == id && m.text().contains(&needle) && m.buttons().is_empty(),
        T,
    )
    .await
    .unwrap_or_else(|| panic!("never said `{needle}`: {:?}", fake.message(id)))
}

/// How many matches the database holds.
async fn matches(db: &std::path::Path) -> usize {
    let store = mondo::store::Store::open_read_only(db).await.unwrap();
    let all = store
        .matches(&mondo::store::MatchFilter::default())
        .await
        .unwrap();
    store.close().await;
    all.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_waits_for_its_answer_and_otherwise_leaves_nothing() {
    let fake = FakeDiscord::start().await;
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", true);
    let carol = fake.add_user("carol", true);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("mondo.db");
    let log = dir.path().join("mondo.log");
    let mut clock = TestClock::new(dir.path());
    let mut bot = Served::start_with(&fake, &db, &log, &clock.env());
    bot.ready(&fake).await;

    let mut waiting = Vec::new();
    for (command, title, _) in GAMES {
        let channel = fake.add_channel(command);
        let offer = challenge(&fake, channel, alice.id, command, bob.id, &[]).await;
        assert!(
            offer.text().contains(title) && offer.text().contains("**Rated**"),
            "{}",
            offer.text()
        );
        // Only bob answers: a bystander and the challenger are told why, privately.
        let accept = button(&offer, "Accept");
        let i = fake.click(carol.id, offer.id, &accept).await;
        private_says(&answer(&fake, &i).await, "not yours to answer");
        let i = fake.click(alice.id, offer.id, &accept).await;
        private_says(
            &answer(&fake, &i).await,
            &format!("only <@{}> may accept", bob.id),
        );
        waiting.push(offer);
    }
    // Declined: nothing.
    let channel = fake.add_channel("declined");
    let offer = challenge(&fake, channel, alice.id, "bluffs duel", bob.id, &[]).await;
    fake.click(bob.id, offer.id, &button(&offer, "Decline"))
        .await;
    says(&fake, offer.id, "declined by").await;

    // Killed with the challenges waiting; started again, their time goes on.
    bot.killed(&fake).await;
    let mut bot = Served::start_with(&fake, &db, &log, &clock.env());
    bot.ready(&fake).await;
    clock.advance(599_000);
    // Still open at 9:59: bob may answer.
    fake.click(bob.id, waiting[0].id, &button(&waiting[0], "Decline"))
        .await;
    says(&fake, waiting[0].id, "declined by").await;
    clock.advance(1_000);
    for offer in &waiting[1..] {
        let over = says(&fake, offer.id, "expired").await;
        assert!(over.text().contains("nothing rated"), "{}", over.text());
    }
    assert_eq!(matches(&db).await, 0, "no challenge left a match");
    bot.alive();
    assert!(fake.take_problems().is_empty(), "{:?}", fake.problems());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seeded_challenge_by_a_player_is_unrated_from_the_start() {
    let fake = FakeDiscord::start().await;
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", true);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("mondo.db");
    let log = dir.path().join("mondo.log");
    let clock = TestClock::new(dir.path());
    let mut bot = Served::start_with(&fake, &db, &log, &clock.env());
    bot.ready(&fake).await;
    let unrated = format!("**Unrated**: the setup was chosen by <@{}>", alice.id);
    for (command, _, seeded) in GAMES.into_iter().filter(|g| g.2) {
        assert!(seeded);
        let channel = fake.add_channel(command);
        let options = [("opponent", json!(bob.id.to_string())), ("seed", json!(7))];
        let i = fake.slash_in(channel, alice.id, command, &options).await;
        let opening = accepted(&fake, &i, bob.id).await;
        assert!(opening.text().contains(&unrated), "{}", opening.text());
        let offer = fake
            .messages(channel)
            .into_iter()
            .find(|m| m.text().contains("accepted by"))
            .expect("the challenge, answered");
        assert!(offer.text().contains(&format!("<@{}>", bob.id)));
    }
    assert_eq!(matches(&db).await, 2);
    bot.alive();
}
