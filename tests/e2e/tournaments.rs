//! A tournament on Discord (docs/tournaments.md, "On Discord"), on the test clock: 8
//! players sign up, two groups of four then a Plus bracket of the top two of each.
//! Each round's matches open in the tournament's channel, each player reminded by DM
//! (the one whose DMs are closed is told in the channel). One player never shows: at
//! the round's deadline (the game clock moved on by the test) their match is forfeited.
//! The bot is killed between rounds and started again; the host settles the other
//! matches; the final's winner is announced champion.

use super::challenges::TestClock;
use super::{Served, T, answer, choice, setup};
use crate::support::discord::{FakeDiscord, StoredMessage};
use mondo::tournament::{Event, Tournament};
use serde_json::{Value, json};

/// The tournament as the bot's database holds it now.
async fn read(db: &std::path::Path) -> Tournament {
    let store = mondo::store::Store::open_read_only(db).await.unwrap();
    let id = store.tournaments(None).await.unwrap();
    assert!(id.is_empty(), "a Discord tournament is its server's");
    let all = store.all_tournaments().await.unwrap();
    let events: Vec<Event> = store
        .tournament_events(all[0].id)
        .await
        .unwrap()
        .iter()
        .map(|s| serde_json::from_str(s).unwrap())
        .collect();
    store.close().await;
    Tournament::from_events(&events).unwrap()
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_eight_player_groups_and_playoffs_tournament_with_a_no_show_and_a_restart() {
    let (fake, dir, db, log) = setup().await;
    let mut clock = TestClock::new(dir.path());
    let host = fake.add_user("host", true);
    // The last one keeps DMs closed, and never shows.
    let players: Vec<_> = (0..8)
        .map(|k| fake.add_user(&format!("p{k}"), k != 7))
        .collect();
    let no_show = players[7].id;
    let channel = fake.add_channel("cup");
    let mut bot = Served::start_with(&fake, &db, &log, &clock.env());
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
            ("plus_playoffs", json!(true)),
            ("round_hours", json!(1)),
        ],
    )
    .await;
    assert!(
        made.text().contains("Plus in the playoffs"),
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
    says(&fake, channel, host.id, "tournament start", &[]).await;

    // Round 1: two groups of four, four matches opened here; reminders by DM.
    for table in 1..=4 {
        said(&fake, channel, &format!("round 1, table {table}:")).await;
    }
    let dm = fake.dm_channel(players[0].id);
    let reminder = said(&fake, dm, "Your match in **Death Match Cup**, round 1").await;
    assert!(reminder.text().contains("Deadline"), "{}", reminder.text());
    said(
        &fake,
        channel,
        &format!("<@{no_show}>: the bot could not DM you"),
    )
    .await;
    let i = fake
        .slash_in(channel, players[0].id, "tournament my-match", &[])
        .await;
    let mine = answer(&fake, &i).await;
    assert!(
        mine.ephemeral && mine.text().contains("Round 1"),
        "{}",
        mine.text()
    );

    // The host settles every table but the no-show's; the deadline forfeits it.
    let t = read(&db).await;
    settle_all_but(&fake, channel, host.id, &t, Some(no_show)).await;
    clock.advance(3_600_000).await;
    let forfeit = said(&fake, channel, "forfeited by").await;
    assert!(
        forfeit.text().contains(&format!("<@{no_show}>")),
        "{}",
        forfeit.text()
    );
    said(&fake, channel, "round 2 (groups) opens").await;

    // Killed between rounds, started again: the tournament goes on.
    bot.killed(&fake).await;
    let mut bot = Served::start_with(&fake, &db, &log, &clock.env());
    bot.ready(&fake).await;
    let standings = says(&fake, channel, players[1].id, "tournament standings", &[]).await;
    assert!(standings.text().contains("round 2"), "{}", standings.text());

    // The rest settled by the host, round by round, to the final.
    for _ in 0..8 {
        let t = read(&db).await;
        if t.finished.is_some() {
            break;
        }
        settle_all_but(&fake, channel, host.id, &t, None).await;
    }
    let t = read(&db).await;
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
    bot.alive();
}

/// The host settles each undecided match of the open round (the higher seed wins),
/// leaving alone the table of `skip`.
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
        if skip.is_some_and(|s| seated.contains(&s)) {
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
