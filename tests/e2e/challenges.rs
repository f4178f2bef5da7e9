//! Challenges on Discord (docs/ratings.md, "Fair play"), for every two-player game, on
//! the test clock (`MONDO_TEST_CLOCK`: the bot's game clock moves only when the test
//! says, so nothing here waits for time to pass). A challenge is a message with
//! Accept and Decline; a bystander and the challenger are refused Accept, privately,
//! saying who may; unanswered, it expires after ten minutes of the game clock (also
//! across a restart), its buttons taken off, with no match recorded; declined, it
//! leaves none either. A setup chosen by a player (a seed, a pool) says "unrated"
//! before and after it is accepted; a Triple's seed a player may not pick at all.
//! And an accepted match of every two-player game, its clocks run out
//! (docs/ratings.md, the abandonment table): nobody plays, abandoned; a side never
//! moves, aborted (both unrated); a side stops after moving, its loss on time (rated).

use super::{Served, T, accepted, answer, button, private_says, setup};
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

    /// Moves the bot's game clock on by `ms`, and waits until the bot has read the new
    /// time, so that two moves in a row are never seen as one, late (what the bot does
    /// in between would be stamped with a time already past).
    pub(crate) async fn advance(&mut self, ms: u64) {
        self.now += ms;
        let next = self.file.with_extension("next");
        std::fs::write(&next, self.now.to_string()).expect("written");
        std::fs::rename(&next, &self.file).expect("moved into place");
        let seen = self.file.with_extension("seen");
        let deadline = std::time::Instant::now() + super::T;
        loop {
            let read = std::fs::read_to_string(&seen).ok();
            if read.and_then(|t| t.trim().parse::<u64>().ok()) >= Some(self.now) {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the bot never read the clock at {} ms",
                self.now
            );
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    }

    /// The game clock now, as the test has moved it.
    pub(crate) fn now(&self) -> u64 {
        self.now
    }

    pub(crate) fn env(&self) -> [(&str, &str); 1] {
        [(
            "MONDO_TEST_CLOCK",
            self.file.to_str().expect("a UTF-8 path"),
        )]
    }
}

/// The two-player challenge commands, and their games' titles.
const GAMES: [(&str, &str); 4] = [
    ("zendo duel", "Zendo Duel"),
    ("zendo triple", "Zendo Triple"),
    ("assembly duel", "Pattern Assembly"),
    ("bluffs duel", "Logical Bluffs"),
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
    let (fake, _dir, db, log) = setup().await;
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", true);
    let carol = fake.add_user("carol", true);
    let mut clock = TestClock::new(_dir.path());
    let mut bot = Served::start_with(&fake, &db, &log, &clock.env());
    bot.ready(&fake).await;

    let mut waiting = Vec::new();
    for (command, title) in GAMES {
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

    // One more, from carol, answered at the last moment below.
    let channel = fake.add_channel("late");
    let late = challenge(&fake, channel, carol.id, "zendo duel", bob.id, &[]).await;

    // Killed with the challenges waiting; started again, their time goes on.
    bot.killed(&fake).await;
    let mut bot = Served::start_with(&fake, &db, &log, &clock.env());
    bot.ready(&fake).await;
    clock.advance(599_000).await;
    // Still open at 9:59: bob may answer.
    fake.click(bob.id, late.id, &button(&late, "Decline")).await;
    says(&fake, late.id, "declined by").await;
    clock.advance(1_000).await;
    // Every game's challenge unanswered for 10 minutes expires.
    for offer in &waiting {
        let over = says(&fake, offer.id, "expired").await;
        assert!(over.text().contains("nothing rated"), "{}", over.text());
    }
    assert_eq!(matches(&db).await, 0, "no challenge left a match");
    bot.alive();
    assert!(fake.take_problems().is_empty(), "{:?}", fake.problems());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seeded_challenge_by_a_player_is_unrated_from_the_start() {
    let (fake, _dir, db, log) = setup().await;
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", true);
    let clock = TestClock::new(_dir.path());
    let mut bot = Served::start_with(&fake, &db, &log, &clock.env());
    bot.ready(&fake).await;
    // A pool other than the server's (Zendo Duel), a seed (Assembly, Bluffs).
    let setups = [
        ("zendo duel", ("pool", json!("generated"))),
        ("assembly duel", ("seed", json!(7))),
        ("bluffs duel", ("seed", json!(7))),
    ];
    for (command, setup) in setups {
        // Other players each time: one plays one two-player match at a time.
        let (alice, bob) = (fake.add_user("alice", true), fake.add_user("bob", true));
        let unrated = format!("**Unrated**: the setup was chosen by <@{}>", alice.id);
        let channel = fake.add_channel(command);
        let options = [("opponent", json!(bob.id.to_string())), setup];
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
    // A Triple's seed a player may not pick at all (a player who knew it could work
    // the patterns out): refused privately, nothing challenged, nothing recorded.
    let channel = fake.add_channel("triple");
    let options = [("opponent", json!(bob.id.to_string())), ("seed", json!(7))];
    let i = fake
        .slash_in(channel, alice.id, "zendo triple", &options)
        .await;
    private_says(&answer(&fake, &i).await, "only a host");
    assert_eq!(matches(&db).await, 3);
    bot.alive();
}

/// The two-player games as the abandonment tests play them.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Game {
    Duel,
    Triple,
    Assembly,
    Bluffs,
}

/// What the two sides of an accepted match do before every clock runs out
/// (docs/ratings.md, "Fair play"), and what the match must count for then.
#[derive(Clone, Copy, Debug)]
enum Script {
    /// Nobody plays (in a Duel or Triple the advantage only chooses who starts, as it
    /// must for the match to begin): abandoned, unrated.
    NobodyPlays,
    /// Alice plays on; Bob never makes a move: aborted, unrated.
    OneNeverMoves,
    /// Both play, then Bob stops: he loses on time, rated.
    OneStopsAfterMoving,
}

/// The latest message id in `channel` (0 for none).
fn last_id(fake: &FakeDiscord, channel: u64) -> u64 {
    fake.messages(channel)
        .iter()
        .map(|m| m.id)
        .max()
        .unwrap_or(0)
}

/// Moves the game clock on by `ms`, then waits until the bot said `needle` in public
/// in the channel: the time-outs were played.
async fn time_passes(fake: &FakeDiscord, clock: &mut TestClock, ms: u64, needle: &str) {
    let channel = fake.channel_id();
    let since = last_id(fake, channel);
    clock.advance(ms).await;
    let said = |m: &StoredMessage| {
        m.channel_id == channel && m.id > since && !m.ephemeral && m.text().contains(needle)
    };
    fake.wait_message(said, T)
        .await
        .unwrap_or_else(|| panic!("`{needle}` not said after {ms} ms of the game clock"));
}

/// `who` plays a turn of a Duel (skip, then end the turn if it did not pass by itself)
/// or a Triple (end the turn).
async fn play_a_turn(fake: &FakeDiscord, game: Game, who: u64) {
    if game == Game::Duel {
        let i = fake.slash(who, "pass", &[]).await;
        answer(fake, &i).await;
    }
    let i = fake.slash(who, "endturn", &[]).await;
    answer(fake, &i).await;
}

/// What Alice's one finished match counted for (rated, why not, her result), if it is
/// finished.
async fn counted(fake: &FakeDiscord, db: &std::path::Path, alice: u64) -> Option<Counted> {
    let store = mondo::store::Store::open_read_only(db).await.unwrap();
    let rows = store.history(fake.guild_id(), alice, 5).await.unwrap();
    store.close().await;
    rows.first().map(|row| {
        let why = row.why.as_ref().map(|w| w.name().to_string());
        (row.rated, why, row.result.map(|r| r.as_str().to_string()))
    })
}

type Counted = (bool, Option<String>, Option<String>);

/// Moves the game clock on by `step` at a time (longer than any one deadline is
/// away), each time until the fake saw a change, until Alice's match is finished: what
/// it counted for.
async fn run_out(
    fake: &FakeDiscord,
    db: &std::path::Path,
    clock: &mut TestClock,
    alice: u64,
    step: u64,
) -> Counted {
    let deadline = std::time::Instant::now() + T;
    for _ in 0..60 {
        if let Some(counted) = counted(fake, db, alice).await {
            return counted;
        }
        let mut changes = fake.changes();
        clock.advance(step).await;
        changes.next(deadline).await;
        assert!(
            std::time::Instant::now() < deadline,
            "the match never finished"
        );
    }
    panic!("the match never finished");
}

/// `who` bluffs `subset` with four statements about colours, and submits it.
async fn bluff(fake: &FakeDiscord, who: u64, subset: &str) {
    let first = super::there_is_a(mondo::lang::tiles::Colour::ALL[0]);
    let read = super::bluffs_form(fake, who, subset, &first).await;
    let s = fake
        .click(who, read.id, &button(&read, "Submit this bluff"))
        .await;
    private_says(&answer(fake, &s).await, "Your bluff is in");
}

/// Alice challenges Bob to `game` in the fake's channel; Bob accepts and plays `script`
/// against the clock with Alice; what the match counted for.
async fn play_script(
    fake: &FakeDiscord,
    db: &std::path::Path,
    clock: &mut TestClock,
    game: Game,
    script: Script,
) -> Counted {
    const TURN: u64 = 180_000;
    let alice = fake.add_user("alice", true).id;
    let bob = fake.add_user("bob", true).id;
    let command = match game {
        Game::Duel => "zendo duel",
        Game::Triple => "zendo triple",
        Game::Assembly => "assembly duel",
        Game::Bluffs => "bluffs duel",
    };
    let options = [("opponent", json!(bob.to_string()))];
    let i = fake.slash(alice, command, &options).await;
    let opening = accepted(fake, &i, bob).await;
    let (moves, keeper) = (!matches!(script, Script::NobodyPlays), alice);
    match game {
        Game::Duel | Game::Triple => {
            // Bob, with the advantage, chooses: he acted. Who never moves is Bob in
            // OneStopsAfterMoving (after choosing), Alice in OneNeverMoves (so Bob keeps
            // playing there).
            let (label, keeper) = match script {
                Script::OneNeverMoves => ("I start", bob),
                _ => ("My opponent starts", keeper),
            };
            let i = fake
                .click(bob, opening.id, &super::button(&opening, label))
                .await;
            answer(fake, &i).await;
            if moves {
                for _ in 0..3 {
                    play_a_turn(fake, game, keeper).await;
                    time_passes(fake, clock, TURN, "").await;
                }
            }
        }
        Game::Assembly => {
            if moves {
                time_passes(fake, clock, 90_000, "**Round 1**").await;
                let mut players = vec![alice];
                if matches!(script, Script::OneStopsAfterMoving) {
                    players.push(bob);
                }
                for p in &players {
                    let i = fake
                        .slash(*p, "assembly answer", &[("cells", json!("A1-A2-A3"))])
                        .await;
                    answer(fake, &i).await;
                }
                // To the showdown, step by step: each step of the clock ends a round
                // (or a reveal), and the next waits for its post (a new round, a
                // reveal or the showdown), so a slow bot is never run past the
                // showdown's deadline.
                let channel = fake.channel_id();
                let since = opening.id;
                let posts = |f: &FakeDiscord, needles: &[&str]| {
                    let said = |m: &&StoredMessage| {
                        m.id > since && needles.iter().any(|n| m.text().contains(n))
                    };
                    f.messages(channel).iter().filter(said).count()
                };
                let steps = ["**Round ", "The grid is shown", "rebuild the grid"];
                while posts(fake, &["rebuild the grid"]) == 0 {
                    let before = posts(fake, &steps);
                    let mut changes = fake.changes();
                    clock.advance(180_000).await;
                    let deadline = std::time::Instant::now() + T;
                    while posts(fake, &steps) == before {
                        changes.next(deadline).await;
                        assert!(std::time::Instant::now() < deadline, "no post after 180 s");
                    }
                }
                let blank = ["......"; 6].join(" / ");
                let i = fake
                    .slash(alice, "assembly showdown", &[("grid", json!(blank))])
                    .await;
                let said = answer(fake, &i).await;
                let said = said.text();
                assert!(said.contains("showdown grid is in"), "not taken: {said}");
            }
        }
        Game::Bluffs => {
            if moves {
                bluff(fake, alice, "A1-A2-B1-B2").await;
                if matches!(script, Script::OneStopsAfterMoving) {
                    bluff(fake, bob, "C1-C2-D1-D2").await;
                    let i = fake.slash(alice, "bluffs status", &[]).await;
                    let controls = answer(fake, &i).await;
                    super::bluffs_mark_all(fake, controls.id, alice, 1).await;
                }
            }
        }
    }
    // Bluffs counts its reserves from its own deadlines: one step runs a round out.
    let step = if game == Game::Bluffs {
        500_000
    } else {
        300_000
    };
    run_out(fake, db, clock, alice, step).await
}

/// Every two-player game on Discord, on the test clock: an accepted match nobody plays
/// is abandoned, one where a side never moves is aborted (both unrated, no result
/// against anyone), and one where a side stops after moving is its loss on time.
async fn abandonment(game: Game) {
    let (fake, _dir, db, log) = setup().await;
    let mut clock = TestClock::new(_dir.path());
    let mut bot = Served::start_with(&fake, &db, &log, &clock.env());
    bot.ready(&fake).await;
    let scripts = [
        (Script::NobodyPlays, (false, Some("abandoned"), None)),
        (Script::OneNeverMoves, (false, Some("aborted"), None)),
        (Script::OneStopsAfterMoving, (true, None, Some("win"))),
    ];
    for (script, (rated, why, result)) in scripts {
        let got = play_script(&fake, &db, &mut clock, game, script).await;
        let want = (rated, why.map(String::from), result.map(String::from));
        assert_eq!(got, want, "{game:?}, {script:?}");
    }
    bot.alive();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duel_nobody_finishes_is_abandoned_aborted_or_lost_on_time() {
    abandonment(Game::Duel).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_triple_nobody_finishes_is_abandoned_aborted_or_lost_on_time() {
    abandonment(Game::Triple).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_assembly_nobody_finishes_is_abandoned_aborted_or_lost_on_time() {
    abandonment(Game::Assembly).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bluffs_match_nobody_finishes_is_abandoned_aborted_or_lost_on_time() {
    abandonment(Game::Bluffs).await;
}

/// A player plays one two-player match at a time (docs/ratings.md, "Challenges"):
/// several challenges may wait for them, but once one is accepted, accepting another
/// (theirs or their opponent's) is refused, privately, naming the match being played;
/// it waits, and can be accepted once that match is over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_in_a_match_cannot_accept_a_second_one() {
    let (fake, _dir, db, log) = setup().await;
    let [alice, bob, carol, dave] =
        ["alice", "bob", "carol", "dave"].map(|n| fake.add_user(n, true).id);
    let clock = TestClock::new(_dir.path());
    let mut bot = Served::start_with(&fake, &db, &log, &clock.env());
    bot.ready(&fake).await;
    let duel_channel = fake.add_channel("duel");
    let duel = challenge(&fake, duel_channel, alice, "zendo duel", bob, &[]).await;
    let for_bob = challenge(&fake, fake.add_channel("b"), carol, "bluffs duel", bob, &[]).await;
    let for_alice = challenge(
        &fake,
        fake.add_channel("c"),
        dave,
        "assembly duel",
        alice,
        &[],
    )
    .await;
    fake.click(bob, duel.id, &button(&duel, "Accept")).await;
    super::opening_after(&fake, &duel).await;
    let playing = format!("is already playing Zendo Duel #1 in <#{duel_channel}>");
    for (who, offer) in [(bob, &for_bob), (alice, &for_alice)] {
        let i = fake.click(who, offer.id, &button(offer, "Accept")).await;
        let refused = answer(&fake, &i).await;
        private_says(&refused, &playing);
        assert!(
            refused.text().contains(&format!("<@{who}>")),
            "{}",
            refused.text()
        );
    }
    assert_eq!(matches(&db).await, 1, "no second match");
    // The duel over (bob leaves before choosing who starts), bob accepts carol's.
    let i = fake.slash_in(duel_channel, bob, "zendo resign", &[]).await;
    answer(&fake, &i).await;
    fake.click(bob, for_bob.id, &button(&for_bob, "Accept"))
        .await;
    super::opening_after(&fake, &for_bob).await;
    assert_eq!(matches(&db).await, 2);
    bot.alive();
}
