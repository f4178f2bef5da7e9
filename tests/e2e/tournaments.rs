//! A tournament on Discord (docs/tournaments.md, "On Discord"), on the test clock: 8
//! players sign up, two groups of four then a Plus bracket of the top two of each.
//! Each round's matches open in the tournament's channel, each player reminded by DM
//! (the one whose DMs are closed is told in the channel). One player never shows: with
//! a quarter of the round left they and their opponent are reminded, and at the
//! round's deadline (the game clock moved on by the test) their match is forfeited.
//! The bot is killed between rounds and started again; the host settles the other
//! matches; the final's winner is announced champion.

use super::challenges::TestClock;
use super::{Served, T, answer, choice, setup};
use crate::support::discord::{FakeDiscord, StoredMessage};
use mondo::store::{MatchRecord, Status};
use mondo::tournament::{Event, Tournament};

/// The stored game of each match.
fn games(matches: &[MatchRecord]) -> Vec<&str> {
    matches.iter().map(|m| m.kind.as_str()).collect()
}
use serde_json::{Value, json};

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
        ],
    )
    .await;
    assert!(
        made.text()
            .contains("Pattern Assembly (Pattern Assembly Plus in the playoffs)"),
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
    // A quarter of the round left: whoever has not come to their match is reminded,
    // once, by DM (in the channel, when the bot cannot DM them).
    clock.advance(2_700_000).await;
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
    // Both unrated: the first to sign up is the higher seed, and holds the advantage.
    let high = players[0].id;
    said(
        &fake,
        channel,
        &format!("<@{high}>, you have the advantage"),
    )
    .await;
    let (t, matches) = read_nth(&db, 0).await;
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
    said(&fake, channel, "**Bluff Cup**, round 1, table 1:").await;
    let (_, matches) = read_nth(&db, 1).await;
    assert_eq!(games(&matches), ["logical-bluffs"]);
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
