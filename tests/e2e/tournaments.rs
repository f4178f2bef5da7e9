//! A tournament on Discord (docs/tournaments.md, "On Discord"), on the test clock: 5
//! players sign up for 8 seats, the host allowing AI players to fill the rest; two
//! groups of four then a Plus bracket of the top two of each. Each round's matches
//! open each in a thread of its own in the tournament's channel (which links to it),
//! each player reminded by DM (the one whose DMs are closed is told in the match's
//! thread). The AI players' matches against each other are
//! played by the AI, on Discord, to a rated result. One player never shows: with a
//! quarter of the round left they are reminded, and at the round's deadline (the game
//! clock moved on by the test) their match is forfeited. The bot is killed between
//! rounds and started again (the matches opened before go on in their threads); the
//! host settles the people's matches; the final's winner is announced champion.

use super::challenges::TestClock;
use super::{Served, T, answer, button, choice, setup};
use crate::support::discord::{FakeDiscord, StoredMessage};
use mondo::store::{MatchRecord, Status};
use mondo::tournament::{Event, Tournament};

/// The stored game of each match.
fn games(matches: &[MatchRecord]) -> Vec<&str> {
    matches.iter().map(|m| m.kind.as_str()).collect()
}
use mondo::rules::PlayerId;
use serde_json::{Value, json};
use std::time::Duration;

/// The tournament as the bot's database holds it now.
async fn read(db: &std::path::Path) -> Tournament {
    read_nth(db, 0).await.0
}

/// The `k`th tournament made (from 0) as the bot's database holds it now, with each
/// match opened for it.
async fn read_nth(db: &std::path::Path, k: usize) -> (Tournament, Vec<MatchRecord>) {
    let store = mondo::store::Store::open_read_only(db).await.unwrap();
    let id = store.tournaments(None).await.unwrap();
    assert!(id.is_empty(), "a Discord tournament is its server's");
    let all = store.all_tournaments().await.unwrap();
    let events: Vec<Event> = store
        .tournament_events(all[k].id)
        .await
        .unwrap()
        .iter()
        .map(|s| serde_json::from_str(s).unwrap())
        .collect();
    let t = Tournament::from_events(&events).unwrap();
    let mut matches = Vec::new();
    for tb in t.rounds.iter().flat_map(|r| &r.tables) {
        for m in &tb.opened {
            let record = store.record(mondo::store::MatchId(*m)).await.unwrap();
            matches.push(record.expect("the match is stored"));
        }
    }
    store.close().await;
    (t, matches)
}

/// `who` gives `/command` in `channel`: the bot's public answer.
async fn says(
    fake: &FakeDiscord,
    channel: u64,
    who: u64,
    command: &str,
    options: &[(&str, Value)],
) -> StoredMessage {
    let i = fake.slash_in(channel, who, command, options).await;
    let m = answer(fake, &i).await;
    assert!(!m.ephemeral, "{command}: refused: {}", m.text());
    m
}

/// Until the channel has a message saying `needle`.
async fn said(fake: &FakeDiscord, channel: u64, needle: &str) -> StoredMessage {
    let n = needle.to_string();
    fake.wait_message(|m| m.channel_id == channel && m.text().contains(&n), T)
        .await
        .unwrap_or_else(|| {
            let all: Vec<String> = fake.messages(channel).iter().map(|m| m.text()).collect();
            panic!("never said `{needle}`: {all:#?}")
        })
}

/// A Pattern Assembly match of one round, short enough to play out on the test clock.
const SHORT: [(&str, &str); 5] = [
    ("MONDO_ASSEMBLY_REVEAL_SECS", "2"),
    ("MONDO_ASSEMBLY_WAIT_SECS", "1"),
    ("MONDO_ASSEMBLY_ROUND_SECS", "40"),
    ("MONDO_ASSEMBLY_SHOWDOWN_SECS", "40"),
    ("MONDO_ASSEMBLY_ROUNDS", "1"),
];

fn env(clock: &TestClock) -> Vec<(&str, &str)> {
    let mut env: Vec<(&str, &str)> = clock.env().to_vec();
    env.extend(SHORT);
    env
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_eight_player_groups_and_playoffs_tournament_with_ai_seats_a_no_show_and_a_restart() {
    let (fake, dir, db, log) = setup().await;
    let mut clock = TestClock::new(dir.path());
    let host = fake.add_user("host", true);
    // The last one keeps DMs closed, and never shows.
    let players: Vec<_> = (0..5)
        .map(|k| fake.add_user(&format!("p{k}"), k != 4))
        .collect();
    let no_show = players[4].id;
    let channel = fake.add_channel("cup");
    let mut bot = Served::start_with(&fake, &db, &log, &env(&clock));
    bot.ready(&fake).await;

    let made = says(
        &fake,
        channel,
        host.id,
        "tournament create",
        &[
            ("name", json!("Death Match Cup")),
            (
                "format",
                choice(&fake, "tournament create", "format", "groups then playoffs"),
            ),
            ("playoffs", json!(2)),
            (
                "playoff_game",
                choice(
                    &fake,
                    "tournament create",
                    "playoff_game",
                    "Pattern Assembly Plus",
                ),
            ),
            ("round_hours", json!(1)),
            ("ai_fill", json!(8)),
        ],
    )
    .await;
    assert!(
        made.text()
            .contains("Pattern Assembly (Pattern Assembly Plus in the playoffs)")
            && made.text().contains("AI players take the seats left empty"),
        "{}",
        made.text()
    );
    for p in &players {
        says(&fake, channel, p.id, "tournament join", &[]).await;
    }
    // Only the host starts it.
    let i = fake
        .slash_in(channel, players[0].id, "tournament start", &[])
        .await;
    let refused = answer(&fake, &i).await;
    assert!(refused.ephemeral && refused.text().contains("only the host"));
    let started = says(&fake, channel, host.id, "tournament start", &[]).await;
    assert!(
        started.text().contains("8 players, 3 of them AI players"),
        "{}",
        started.text()
    );
    // The AI players, unrated, are seeded after the people, the levels in turn.
    let t = read(&db).await;
    let ai: Vec<&str> = t.seats[5..].iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        ai,
        [
            "AI student 1 (beginner)",
            "AI student 2 (player)",
            "AI student 3 (expert)"
        ]
    );
    assert!(t.seats[5..].iter().all(|s| s.player.ai_seat().is_some()));

    // Round 1: two groups of four, four matches, each in its own thread, linked from
    // the channel; reminders by DM.
    for table in 1..=4 {
        said(&fake, channel, &format!("round 1, table {table}:")).await;
    }
    let (t, matches) = read_nth(&db, 0).await;
    let threads = in_threads(&fake, channel, &t, &matches, 1);
    let dm = fake.dm_channel(players[0].id);
    let reminder = said(&fake, dm, "Your match in **Death Match Cup**, round 1").await;
    assert!(reminder.text().contains("Deadline"), "{}", reminder.text());
    let first = thread_of(&t, &threads, 1, players[0].id);
    assert!(
        reminder.text().contains(&format!("is open in <#{first}>")),
        "{}",
        reminder.text()
    );
    let own = thread_of(&t, &threads, 1, no_show);
    said(
        &fake,
        own,
        &format!("<@{no_show}>: the bot could not DM you"),
    )
    .await;
    let i = fake
        .slash_in(channel, players[0].id, "tournament my-match", &[])
        .await;
    let mine = answer(&fake, &i).await;
    assert!(
        mine.ephemeral
            && mine.text().contains("Round 1")
            && mine.text().contains(&format!("in <#{first}>")),
        "{}",
        mine.text()
    );

    // The host settles every people's table but the no-show's; the AI players play
    // theirs; the deadline forfeits the no-show's.
    let t = read(&db).await;
    settle_all_but(&fake, channel, host.id, &t, Some(no_show)).await;
    ai_play_out(&fake, &mut clock, &db, channel).await;
    // A quarter of the round left: whoever has not come to their match is reminded,
    // once, by DM (in the channel, when the bot cannot DM them).
    clock.advance(2_700_000 - clock.now()).await;
    said(
        &fake,
        channel,
        &format!("<@{no_show}>: a reminder the bot could not DM you"),
    )
    .await;
    let round = t.open_round().unwrap();
    let table = round
        .tables
        .iter()
        .find(|tb| tb.seats().any(|s| t.seats[s].player.0 == no_show))
        .unwrap();
    let partner = table
        .seats()
        .map(|s| t.seats[s].player.0)
        .find(|&p| p != no_show)
        .unwrap();
    said(&fake, fake.dm_channel(partner), "Reminder: your match").await;
    let settled = players
        .iter()
        .find(|p| p.id != partner && p.id != no_show)
        .unwrap();
    let dms = fake.messages(fake.dm_channel(settled.id));
    assert!(
        !dms.iter().any(|m| m.text().contains("Reminder")),
        "a settled match's players are not reminded"
    );
    clock.advance(900_000).await;
    let forfeit = said(&fake, channel, "forfeited by").await;
    assert!(
        forfeit.text().contains(&format!("<@{no_show}>")),
        "{}",
        forfeit.text()
    );
    said(&fake, channel, "round 2 (groups) opens").await;
    for table in 1..=4 {
        said(&fake, channel, &format!("round 2, table {table}:")).await;
    }
    let (t, matches) = read_nth(&db, 0).await;
    let round_2 = in_threads(&fake, channel, &t, &matches, 2);

    // Killed between rounds, started again: the tournament goes on, and each match
    // opened before says what comes next in its own thread still.
    bot.killed(&fake).await;
    let last = |thread: u64| fake.messages(thread).last().map_or(0, |m| m.id);
    let (_, matches) = read_nth(&db, 0).await;
    let live = |m: i64| {
        matches
            .iter()
            .any(|x| x.id.0 == m && x.status == Status::Live)
    };
    let before: Vec<(u64, u64)> = round_2
        .iter()
        .filter(|&&(m, _)| live(m))
        .map(|&(_, th)| (th, last(th)))
        .collect();
    assert!(!before.is_empty(), "round 2's matches are played");
    let mut bot = Served::start_with(&fake, &db, &log, &env(&clock));
    bot.ready(&fake).await;
    let standings = says(&fake, channel, players[1].id, "tournament standings", &[]).await;
    assert!(standings.text().contains("round 2"), "{}", standings.text());
    // The standings' picture: the overall table, then each group's (8 rows, 2 of 4).
    let early = picture(&standings, "standings");

    // The rest settled by the host, round by round, to the final: a settled match is
    // ended in its thread, an AI players' match plays on in its own.
    for _ in 0..8 {
        let t = read(&db).await;
        if t.finished.is_some() {
            break;
        }
        settle_all_but(&fake, channel, host.id, &t, None).await;
        ai_play_out(&fake, &mut clock, &db, channel).await;
    }
    for &(thread, seen) in &before {
        fake.wait_message(|m| m.channel_id == thread && m.id > seen, T)
            .await
            .unwrap_or_else(|| panic!("nothing said in thread {thread} after the restart"));
    }
    let (t, matches) = read_nth(&db, 0).await;
    // The AI players' match against each other was played, by the AI, to a rated
    // result: a finished match, reported as the table's game.
    let ai_tables: Vec<_> = t
        .rounds
        .iter()
        .flat_map(|r| &r.tables)
        .filter(|tb| tb.b.is_some() && tb.seats().all(|s| t.seats[s].player.ai_seat().is_some()))
        .collect();
    assert_eq!(ai_tables.len(), 1, "AI students 1 and 2 share a group");
    let played = ai_tables[0].games[0].match_id.expect("a match played");
    let record = matches.iter().find(|m| m.id.0 == played).unwrap();
    assert_eq!(record.status, Status::Over);
    let champion = t.champion().expect("a champion").player.0;
    let crowned = said(&fake, channel, "the champion is").await;
    assert!(
        crowned.text().contains(&format!("<@{champion}>")),
        "{}",
        crowned.text()
    );
    assert!(
        t.rounds.iter().any(|r| r.stage.is_bracket()),
        "the playoffs were played"
    );
    let bracket = says(&fake, channel, host.id, "tournament bracket", &[]).await;
    assert!(bracket.text().contains("playoffs"), "{}", bracket.text());
    // The bracket's picture: two semi-finals and a final, wider than it is tall.
    let drawn = picture(&bracket, "bracket");
    assert!(drawn.width() > drawn.height(), "{:?}", drawn.dimensions());
    // Every match of every round had its thread: none was said in the channel.
    let (t, matches) = read_nth(&db, 0).await;
    for r in &t.rounds {
        in_threads(&fake, channel, &t, &matches, r.number);
    }
    // The same standings, later: the same size (the same rows), other pixels.
    let standings = says(&fake, channel, players[1].id, "tournament standings", &[]).await;
    let late = picture(&standings, "standings");
    assert_eq!(late.dimensions(), early.dimensions());
    assert_ne!(late, early, "the results show in the picture");
    let problems = fake.problems();
    assert!(problems.is_empty(), "{problems:#?}");
    bot.alive();
}

/// Each match opened for round `round` is played in a thread of its own, opened in the
/// tournament's `channel` and named for the round and its players, which holds the
/// match's opening; the channel links to it and says none of the match itself. The
/// (match, thread) of each.
fn in_threads(
    fake: &FakeDiscord,
    channel: u64,
    t: &Tournament,
    matches: &[MatchRecord],
    round: u32,
) -> Vec<(i64, u64)> {
    let r = t.rounds.iter().find(|r| r.number == round).unwrap();
    let threads = fake.threads();
    let mut out = Vec::new();
    for (k, tb) in r.tables.iter().enumerate() {
        let Some(b) = tb.b else { continue };
        for m in &tb.opened {
            let record = matches.iter().find(|x| x.id.0 == *m).unwrap();
            let place = record.channel.expect("a match's channel is stored");
            let thread = threads.iter().find(|th| th.id == place).unwrap_or_else(|| {
                panic!(
                    "round {round}, table {}: match {m} is not in a thread",
                    k + 1
                )
            });
            let names = [tb.a, b].map(|s| t.seats[s].name.as_str());
            assert_eq!(thread.parent, channel);
            assert_eq!(
                thread.name,
                format!("Round {round}: {} vs {}", names[0], names[1])
            );
            let line = format!("round {round}, table {}:", k + 1);
            let inside = fake.messages(place);
            assert!(
                inside
                    .iter()
                    .any(|x| x.text().contains(&line) && x.text().contains("whoever has not moved")),
                "thread {}: {:#?}",
                thread.name,
                inside.iter().map(|x| x.text()).collect::<Vec<_>>()
            );
            let link = format!("<#{place}>");
            assert!(
                fake.messages(channel)
                    .iter()
                    .any(|x| x.text().contains(&line) && x.text().contains(&link)),
                "the channel links to {}",
                thread.name
            );
            out.push((*m, place));
        }
    }
    let said_here = fake.messages(channel);
    assert!(
        !said_here
            .iter()
            .any(|x| x.text().contains("whoever has not moved") || !x.buttons().is_empty()),
        "a match said in the tournament's channel"
    );
    let distinct: std::collections::BTreeSet<u64> = out.iter().map(|o| o.1).collect();
    assert_eq!(distinct.len(), out.len(), "one thread a match");
    out
}

/// The thread of `player`'s match in round `round`, from [`in_threads`]'s list.
fn thread_of(t: &Tournament, threads: &[(i64, u64)], round: u32, player: u64) -> u64 {
    let r = t.rounds.iter().find(|r| r.number == round).unwrap();
    let tb = r
        .tables
        .iter()
        .find(|tb| tb.seats().any(|s| t.seats[s].player.0 == player))
        .unwrap();
    let m = tb.opened.last().unwrap();
    threads.iter().find(|x| x.0 == *m).unwrap().1
}

/// A tournament names its game: a Zendo Duel bracket, whose higher seed holds the DM
/// Advantage (the choice of who starts), then a round robin of Logical Bluffs. A
/// playoff game for a format without a bracket is refused, saying which formats have
/// one. A host of the server (its host role) starts a tournament someone else made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_plays_the_game_its_host_names() {
    let (fake, dir, db, log) = setup().await;
    let clock = TestClock::new(dir.path());
    let host = fake.add_user("host", true);
    let players: Vec<_> = (0..2)
        .map(|k| fake.add_user(&format!("d{k}"), true))
        .collect();
    let channel = fake.add_channel("colosseum");
    let mut bot = Served::start_with(&fake, &db, &log, &clock.env());
    bot.ready(&fake).await;
    let create = |name: &str, format: &str, game: &str| {
        vec![
            ("name", json!(name)),
            (
                "format",
                choice(&fake, "tournament create", "format", format),
            ),
            ("game", choice(&fake, "tournament create", "game", game)),
        ]
    };

    let mut options = create("Nope", "round robin", "Zendo Duel");
    options.push((
        "playoff_game",
        choice(&fake, "tournament create", "playoff_game", "Zendo Duel"),
    ));
    let i = fake
        .slash_in(channel, host.id, "tournament create", &options)
        .await;
    let refused = answer(&fake, &i).await;
    assert!(
        refused.ephemeral && refused.text().contains("single elimination"),
        "{}",
        refused.text()
    );

    let options = create("DM Colosseum", "single elimination", "Zendo Duel");
    let made = says(&fake, channel, host.id, "tournament create", &options).await;
    assert!(made.text().contains("Zendo Duel"), "{}", made.text());
    for p in &players {
        says(&fake, channel, p.id, "tournament join", &[]).await;
    }
    says(&fake, channel, host.id, "tournament start", &[]).await;
    said(&fake, channel, "round 1, table 1:").await;
    let (t, matches) = read_nth(&db, 0).await;
    let threads = in_threads(&fake, channel, &t, &matches, 1);
    // Both unrated: the first to sign up is the higher seed, and holds the advantage.
    let high = players[0].id;
    said(
        &fake,
        threads[0].1,
        &format!("<@{high}>, you have the advantage"),
    )
    .await;
    assert_eq!(t.seats[0].player.0, high);
    assert_eq!(games(&matches), ["zendo-duel"]);
    assert_eq!(matches[0].status, Status::Live);
    // Settled while it is played: the match ends with it.
    settle_all_but(&fake, channel, host.id, &t, None).await;
    said(&fake, channel, &format!("the champion is <@{high}>")).await;
    let (_, matches) = read_nth(&db, 0).await;
    assert_eq!(
        matches[0].status,
        Status::Over,
        "no match plays on for a settled table"
    );

    // Where the bot may not open threads, the matches are played in the channel, which
    // says so once.
    fake.refuse_threads(true);
    let options = create("Bluff Cup", "round robin", "Logical Bluffs");
    let made = says(&fake, channel, host.id, "tournament create", &options).await;
    assert!(made.text().contains("Logical Bluffs"), "{}", made.text());
    for p in &players {
        says(&fake, channel, p.id, "tournament join", &[]).await;
    }
    // The server's host role hosts every tournament here, not only its maker's.
    let referee = fake.add_user("referee", true);
    let i = fake
        .slash_in(channel, referee.id, "tournament start", &[])
        .await;
    let refused = answer(&fake, &i).await;
    assert!(
        refused.ephemeral && refused.text().contains("the host role"),
        "{}",
        refused.text()
    );
    let admin = fake.add_user("admin", true);
    fake.set_permissions(admin.id, crate::MANAGE_GUILD);
    let umpires = fake.add_role("umpires");
    fake.give_role(referee.id, umpires);
    let i = fake
        .slash(
            admin.id,
            "settings",
            &[("host_role", json!(umpires.to_string()))],
        )
        .await;
    answer(&fake, &i).await;
    says(&fake, channel, referee.id, "tournament start", &[]).await;
    let opened = said(&fake, channel, "**Bluff Cup**, round 1, table 1:").await;
    assert!(
        opened.text().contains("whoever has not moved"),
        "{}",
        opened.text()
    );
    let (_, matches) = read_nth(&db, 1).await;
    assert_eq!(games(&matches), ["logical-bluffs"]);
    assert_eq!(matches[0].channel, Some(channel));
    let notes = fake
        .messages(channel)
        .iter()
        .filter(|m| m.text().contains("could not open a thread"))
        .count();
    assert_eq!(notes, 1, "said once");
    assert_eq!(fake.threads().len(), 1, "the Duel's thread only");
    let problems = fake.problems();
    assert!(problems.is_empty(), "{problems:#?}");
    bot.alive();
}

/// AI players fill a Zendo Duel bracket: one person and three AI players (`ai_fill:
/// 4`), seeded after the person (unrated, joined last). The person, seed 1, holds the
/// DM Advantage against seed 4 and chooses in their thread; seeds 2 and 3 are AI
/// players, and the higher of them
/// holds it: in its match's thread it chooses who starts by itself, and the match plays
/// on, turn after turn, with nobody's help.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_higher_seed_chooses_who_starts_a_duel_and_plays_on() {
    let (fake, dir, db, log) = setup().await;
    let mut clock = TestClock::new(dir.path());
    let host = fake.add_user("host", true);
    let person = fake.add_user("d0", true).id;
    let channel = fake.add_channel("colosseum");
    // The AI's moves wait a tenth of a second of the game clock (the delay itself is
    // tested elsewhere).
    let mut env = clock.env().to_vec();
    env.push(("MONDO_ZENDO_AI_DELAY_MS", "100"));
    let mut bot = Served::start_with(&fake, &db, &log, &env);
    bot.ready(&fake).await;
    let options = [
        ("name", json!("AI Colosseum")),
        (
            "format",
            choice(&fake, "tournament create", "format", "single elimination"),
        ),
        (
            "game",
            choice(&fake, "tournament create", "game", "Zendo Duel"),
        ),
        ("ai_fill", json!(4)),
    ];
    says(&fake, channel, host.id, "tournament create", &options).await;
    says(&fake, channel, person, "tournament join", &[]).await;
    let started = says(&fake, channel, host.id, "tournament start", &[]).await;
    assert!(
        started.text().contains("4 players, 3 of them AI players"),
        "{}",
        started.text()
    );
    for table in 1..=2 {
        said(&fake, channel, &format!("round 1, table {table}:")).await;
    }
    let (t, matches) = read_nth(&db, 0).await;
    assert_eq!(games(&matches), ["zendo-duel", "zendo-duel"]);
    let threads = in_threads(&fake, channel, &t, &matches, 1);
    let mine = thread_of(&t, &threads, 1, person);
    let opening = said(&fake, mine, &format!("<@{person}>, you have the advantage")).await;
    // The person chooses there: a click in a thread, answered in that thread.
    let i = fake
        .click(person, opening.id, &button(&opening, "I start"))
        .await;
    let reply = answer(&fake, &i).await;
    assert!(
        !reply.ephemeral && reply.channel_id == mine,
        "{}",
        reply.text()
    );

    let round = &t.rounds[0];
    let ai = |s: usize| t.seats[s].player.ai_seat().is_some();
    let tb = round
        .tables
        .iter()
        .find(|tb| tb.seats().all(ai))
        .expect("seeds 2 and 3 meet");
    assert_eq!(
        (tb.a, tb.b),
        (1, Some(2)),
        "seed 2 first: it holds the advantage"
    );
    let m = *tb.opened.last().unwrap();
    let thread = threads.iter().find(|x| x.0 == m).unwrap().1;
    let told = |fake: &FakeDiscord, what: &str| {
        fake.messages(thread)
            .iter()
            .any(|x| x.text().contains(what))
    };
    // The choice is made at once (on the game clock: none passes meanwhile), once the
    // AI has its rules in mind; then the clock moves on a little at a time (the AI's
    // moves wait their delay on it) until the AI players' second turn.
    fake.wait_message(
        |x| x.channel_id == thread && x.text().contains("** starts"),
        3 * T,
    )
    .await
    .unwrap_or_else(|| {
        let all: Vec<String> = fake.messages(thread).iter().map(|x| x.text()).collect();
        panic!("the AI never chose who starts: {all:#?}")
    });
    until_said(&fake, &mut clock, 1_000, 900, |f| told(f, "turn 2:")).await;
    let all: Vec<String> = fake.messages(thread).iter().map(|x| x.text()).collect();
    assert!(told(&fake, "turn 2:"), "{all:#?}");
    // Only the holder of the advantage chooses who starts (the rules take it from
    // nobody else): its choice is in the match's log.
    let store = mondo::store::Store::open_read_only(&db).await.unwrap();
    let log = store.events(mondo::store::MatchId(m)).await.unwrap();
    store.close().await;
    assert!(
        log.iter().any(|e| e.body.contains("\"starter_chosen\"")),
        "the AI chose who starts: {all:#?}"
    );
    let (_, matches) = read_nth(&db, 0).await;
    let record = matches.iter().find(|x| x.id.0 == m).unwrap();
    assert_eq!(record.channel, Some(thread));
    let problems = fake.problems();
    assert!(problems.is_empty(), "{problems:#?}");
    bot.alive();
}

/// The PNG a message attaches as `tournament-1-WHAT.png`, decoded.
fn picture(m: &StoredMessage, what: &str) -> image::RgbImage {
    let name = format!("tournament-1-{what}.png");
    let (_, png) = m.files.iter().find(|(f, _)| *f == name).unwrap_or_else(|| {
        panic!(
            "no {name}: {:?}",
            m.files.iter().map(|f| &f.0).collect::<Vec<_>>()
        )
    });
    let img = image::load_from_memory_with_format(png, image::ImageFormat::Png).unwrap();
    let img = img.to_rgb8();
    assert!(img.height() > 8 * 30, "{what}: {:?}", img.dimensions());
    img
}

/// Moves the game clock on, a few seconds at a time, until every match of the open
/// round between two AI players is decided by its result (played by the AI).
async fn ai_play_out(
    fake: &FakeDiscord,
    clock: &mut TestClock,
    db: &std::path::Path,
    channel: u64,
) {
    let t = read(db).await;
    let Some(round) = t.open_round() else { return };
    let ai = |s: usize| t.seats[s].player.ai_seat().is_some();
    let tables: Vec<usize> = (0..round.tables.len())
        .filter(|&k| {
            let tb = &round.tables[k];
            tb.b.is_some() && tb.decided.is_none() && tb.seats().all(ai)
        })
        .collect();
    for k in tables {
        let line = format!("Round {}, table {}: ", round.number, k + 1);
        let done = |fake: &FakeDiscord| {
            fake.messages(channel)
                .iter()
                .any(|m| m.text().contains(&line))
        };
        until_said(fake, clock, 2_000, 600, done).await;
        said(fake, channel, &line).await;
    }
}

/// Moves the game clock on by `step` ms at a time, letting the bot catch up after
/// each, until `done` (at most `steps` times).
async fn until_said(
    fake: &FakeDiscord,
    clock: &mut TestClock,
    step: u64,
    steps: usize,
    done: impl Fn(&FakeDiscord) -> bool,
) {
    for _ in 0..steps {
        if done(fake) {
            return;
        }
        clock.advance(step).await;
        let none = fake
            .wait_message(|_| false, Duration::from_millis(20))
            .await;
        assert!(none.is_none());
    }
}

/// The host settles each undecided match of the open round (the higher seed wins),
/// leaving alone the table of `skip`, and those of two AI players (they play).
async fn settle_all_but(
    fake: &FakeDiscord,
    channel: u64,
    host: u64,
    t: &Tournament,
    skip: Option<u64>,
) {
    let round = t.open_round().expect("a round open");
    for (k, tb) in round.tables.iter().enumerate() {
        let Some(b) = tb.b.filter(|_| tb.decided.is_none()) else {
            continue;
        };
        let seated = [t.seats[tb.a].player.0, t.seats[b].player.0];
        let ai = seated.iter().all(|p| PlayerId(*p).ai_seat().is_some());
        if ai || skip.is_some_and(|s| seated.contains(&s)) {
            continue;
        }
        says(
            fake,
            channel,
            host,
            "tournament settle",
            &[
                ("round", json!(round.number)),
                ("table", json!(k + 1)),
                ("winner", json!(seated[0].to_string())),
            ],
        )
        .await;
    }
}
