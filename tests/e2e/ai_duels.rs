//! Duels against @Mondo in Pattern Assembly and Logical Bluffs, on the test clock (the
//! bot's game clock moves only when the test says: the AI's think delays are timers on
//! it, and nothing here waits for them): the AI accepts at once, plays by itself, plays
//! on after the bot is killed and started again, and the match ends with a rated
//! result under the AI's level's own seat.

use super::challenges::TestClock;
use super::{Served, T, answer, bluffs_form, bluffs_mark_all, button, channel_message, choice};
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
        clock.advance(1_000).await;
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

/// A fake Discord with alice (DMs open), the bot's database, log and test clock.
struct Table {
    fake: FakeDiscord,
    alice: u64,
    db: std::path::PathBuf,
    log: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl Table {
    async fn new() -> (Table, TestClock) {
        let fake = FakeDiscord::start().await;
        let alice = fake.add_user("alice", true).id;
        let dir = tempfile::tempdir().unwrap();
        let clock = TestClock::new(dir.path());
        let table = Table {
            db: dir.path().join("mondo.db"),
            log: dir.path().join("mondo.log"),
            _dir: dir,
            fake,
            alice,
        };
        (table, clock)
    }

    /// The bot started (again) on the table, ready.
    async fn bot(&self, clock: &TestClock) -> Served {
        let mut bot = Served::start_with(&self.fake, &self.db, &self.log, &env(clock));
        bot.ready(&self.fake).await;
        bot
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_assembly_duel_against_mondo_runs_to_a_rated_result_across_a_restart() {
    let (t, mut clock) = Table::new().await;
    let (fake, alice) = (&t.fake, t.alice);
    let mut bot = t.bot(&clock).await;

    // alice challenges @Mondo: the AI accepts at once; the match is rated.
    let text = challenge_mondo(fake, alice, "assembly duel", "expert").await;
    assert!(text.contains("**Mondo** (AI) accepts"), "{text}");

    // Round 1: alice answers (a wrong shape); the AI answers by itself.
    advance_until(fake, &mut clock, "Round 1", 40).await;
    let i = fake
        .slash(alice, "assembly answer", &[("cells", json!("A1-A3-A5"))])
        .await;
    answer(fake, &i).await;
    advance_until(fake, &mut clock, "**Mondo** (AI) answered", 60).await;

    // Killed and started again: the AI seat plays on.
    bot.killed(fake).await;
    let mut bot = t.bot(&clock).await;
    advance_until(fake, &mut clock, "**Mondo** (AI) answered", 240).await;

    // The showdown: the AI sends its grid; alice sends none; time runs out.
    advance_until(
        fake,
        &mut clock,
        "**Mondo** (AI)'s showdown grid is in",
        600,
    )
    .await;
    advance_until(fake, &mut clock, "**Mondo** (AI) wins", 400).await;
    bot.alive();

    // Rated: the expert's own seat has one result.
    rated_once(fake, &t.db, 2).await;
}

/// `who` challenges @Mondo with `/COMMAND opponent:@Mondo level:LEVEL`: the opening,
/// which starts the match at once (no challenge to answer) and says it is rated.
async fn challenge_mondo(fake: &FakeDiscord, who: u64, command: &str, level: &str) -> String {
    let level = choice(fake, command, "level", level);
    let options = [
        ("opponent", json!(fake.bot_user_id().to_string())),
        ("level", level),
    ];
    let i = fake.slash(who, command, &options).await;
    let text = answer(fake, &i).await.text();
    assert!(text.contains("**Rated**"), "{text}");
    assert!(
        !text.contains("**Accept**"),
        "no challenge to answer: {text}"
    );
    text
}

/// The AI seat of level `rank0` (0 the beginner) has exactly one rated result, and the
/// fake Discord saw no problem.
async fn rated_once(fake: &FakeDiscord, db: &std::path::Path, rank0: u8) {
    let store = mondo::store::Store::open_read_only(db).await.unwrap();
    let seat = mondo::rules::PlayerId::ai(rank0, 0);
    let ratings = store
        .ratings_of(fake.guild_id(), seat.0, None)
        .await
        .unwrap();
    store.close().await;
    assert_eq!(ratings.len(), 1, "{ratings:?}");
    assert_eq!(ratings[0].games, 1, "the seat is rated once: {ratings:?}");
    assert!(fake.problems().is_empty(), "{:#?}", fake.problems());
}

/// Logical Bluffs against @Mondo: alice's tiles and buttons come by DM; she bluffs,
/// the bot is killed before the AI has, and started again the AI bluffs and marks by
/// itself; alice resigns after playing, so the AI wins a rated match.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bluffs_duel_against_mondo_runs_to_a_rated_result_across_a_restart() {
    let (t, mut clock) = Table::new().await;
    let (fake, alice) = (&t.fake, t.alice);
    let mut bot = t.bot(&clock).await;

    let text = challenge_mondo(fake, alice, "bluffs duel", "beginner").await;
    assert!(text.contains("Logical Bluffs"), "{text}");
    let dm = fake.dm_channel(alice);
    let in_dm = |what: &'static str| async move {
        fake.wait_message(|m| m.channel_id == dm && m.text().contains(what), T)
            .await
            .unwrap_or_else(|| panic!("alice's DM never said `{what}`"))
    };
    in_dm("only to you").await;

    // alice bluffs; the AI has not yet (its think delay runs on the game clock).
    let read = bluffs_form(fake, alice, "A1-A2-B1-B2", "There is a red tile.").await;
    let s = fake
        .click(alice, read.id, &button(&read, "Submit this bluff"))
        .await;
    assert!(answer(fake, &s).await.text().contains("Your bluff is in"));

    // Killed and started again: the AI seat bluffs, and Claiming begins.
    bot.killed(fake).await;
    let mut bot = t.bot(&clock).await;
    advance_until(fake, &mut clock, "Claiming", 60).await;

    // alice marks by her DM's buttons; the AI marks by itself, and Reveal begins.
    let claim = in_dm("mark each statement").await;
    let marked = bluffs_mark_all(fake, claim.id, alice, 1).await;
    assert!(
        marked.text().contains("Your marks are in"),
        "{}",
        marked.text()
    );
    advance_until(fake, &mut clock, "Reveal", 30).await;

    // alice resigns after playing: the AI wins, rated.
    let i = fake.slash(alice, "bluffs resign", &[]).await;
    answer(fake, &i).await;
    let end = channel_message(fake, "wins").await;
    assert!(end.text().contains("**Mondo** (AI) wins"), "{}", end.text());
    bot.alive();
    rated_once(fake, &t.db, 0).await;
}
