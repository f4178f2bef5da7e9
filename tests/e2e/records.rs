//! `/history` on Discord (docs/ratings.md, "On Discord"): a player's finished matches
//! on the server, the last first, each with the game, the opponent, the date, the
//! result with what it did to the rating (`1500 -> 1662? (+162)`) and `/replay
//! match:N`; one game only, or a number of them, when asked.

use super::{Served, answer, choice, stored_duels};
use crate::support::discord::FakeDiscord;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_tells_each_match_with_its_rating_change_and_replay() {
    let fake = FakeDiscord::start().await;
    let carol = fake.add_user("carol", false);
    let dave = fake.add_user("dave", false);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("mondo.db");
    let log = dir.path().join("mondo.log");
    stored_duels(&db, fake.guild_id(), carol.id, dave.id, 4).await;
    // What the store says of carol's matches, the last first.
    let rows = {
        let store = mondo::store::Store::open_read_only(&db).await.unwrap();
        let rows = store.history(fake.guild_id(), carol.id, 10).await.unwrap();
        store.close().await;
        rows
    };
    assert_eq!(rows.len(), 4);
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;

    let history = answer(&fake, &fake.slash(carol.id, "history", &[]).await).await;
    let text = history.text();
    assert!(!history.ephemeral, "{text}");
    assert!(text.contains("Matches of carol"), "{text}");
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("/replay match:"))
        .collect();
    assert_eq!(lines.len(), 4, "{text}");
    for (line, row) in lines.iter().zip(&rows) {
        let word = match row.result.expect("rated") {
            mondo::ratings::Result::Win => "won",
            mondo::ratings::Result::Loss => "lost",
            mondo::ratings::Result::Draw => "drew",
        };
        let change = mondo::ratings::change(
            row.rating_before.unwrap(),
            row.rating_after.unwrap(),
            row.deviation_after.unwrap(),
        );
        let day = &row.finished[..10];
        let expected = format!(
            "**#{}** Zendo Duel with <@{}>, {day}: {word}, {change} · `/replay match:{}`",
            row.id, dave.id, row.id
        );
        assert!(line.contains(&expected), "{line}\nnot\n{expected}");
    }
    // The first duel (the last line): carol lost it from where everyone starts.
    assert!(
        lines[3].contains("lost, 1500 -> 1338? (-162)"),
        "{}",
        lines[3]
    );

    // `/stats` pictures the rating over time: carol's four duels, a line of her
    // colour through a dot per rated match (and the one before them).
    let stats = answer(&fake, &fake.slash(carol.id, "stats", &[]).await).await;
    let (name, png) = stats.files.first().expect("the chart");
    assert_eq!(name, "rating-chart.png", "{}", stats.text());
    assert_eq!(
        stats.embeds[0]["image"]["url"].as_str(),
        Some("attachment://rating-chart.png")
    );
    let chart = image::load_from_memory(png).unwrap().to_rgb8();
    let (r, g, b) = mondo::render::LINE_COLOURS[0];
    let drawn = chart.pixels().filter(|p| p.0 == [r, g, b]).count();
    assert!(drawn > 200, "{drawn} pixels of the line's colour");

    // Dave's, two at most: the last two, his side of them.
    let options = [("player", json!(dave.id.to_string())), ("limit", json!(2))];
    let two = answer(&fake, &fake.slash(carol.id, "history", &options).await).await;
    let text = two.text();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("/replay match:"))
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(text.contains("Matches of dave"), "{text}");
    assert!(lines[0].contains(&format!("**#{}**", rows[0].id)), "{text}");
    assert!(
        lines[0].contains(&format!("with <@{}>", carol.id)),
        "{text}"
    );

    // A game nobody played here.
    let options = [("game", choice(&fake, "history", "game", "Logical Bluffs"))];
    let none = answer(&fake, &fake.slash(carol.id, "history", &options).await).await;
    assert!(
        none.text().contains("No finished Logical Bluffs here yet"),
        "{}",
        none.text()
    );
    drop(bot);
}

/// A finished duel carol won, stored before the bot starts, in which a host who does
/// not play paused and resumed it: `/replay` names the host for those steps (as the
/// terminal's replay page does), and its first page and its secrets carry the result:
/// who won, what it counted for, how it ended and what it did to each rating.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_names_the_host_and_tells_the_result_with_the_ratings() {
    let fake = FakeDiscord::start().await;
    let carol = fake.add_user("carol", false);
    let dave = fake.add_user("dave", false);
    let host = fake.add_user("hostess", true);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("mondo.db");
    let log = dir.path().join("mondo.log");
    let id = paused_duel(&db, fake.guild_id(), carol.id, dave.id, host.id).await;
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;

    let i = fake.slash(dave.id, "replay", &[("match", json!(id))]).await;
    let first = answer(&fake, &i).await;
    let text = first.text();
    assert!(
        text.contains(&format!("Won by <@{}>. Rated.", carol.id)),
        "{text}"
    );
    assert!(
        text.contains("How it ended") && text.contains("resign"),
        "{text}"
    );
    for line in [
        format!("<@{}>: 1500 -> 1662? (+162)", carol.id),
        format!("<@{}>: 1500 -> 1338? (-162)", dave.id),
    ] {
        assert!(text.contains(&line), "{line} not in\n{text}");
    }
    // Page by page to the host's pause: the host's, by name, never a player's.
    let mut shown = first;
    let mut hosts = Vec::new();
    while shown.buttons().iter().any(|(_, l)| l == "Next") {
        shown = super::turn_page(&fake, dave.id, shown.id, "Next").await;
        let text = shown.text();
        if text.contains("paused") || text.contains("resumed") {
            hosts.push(text);
        }
    }
    assert_eq!(hosts.len(), 2, "the pause and the resume: {hosts:?}");
    for text in &hosts {
        assert!(text.contains(&format!("<@{}> (a host)", host.id)), "{text}");
    }
    // The last page is the secrets, with the result again.
    let text = shown.text();
    assert!(super::card_title(&shown).contains("the secrets"), "{text}");
    assert!(text.contains("some piece points up"), "{text}");
    assert!(text.contains(&format!("Won by <@{}>", carol.id)), "{text}");
    drop(bot);
}

/// A Zendo Duel on `guild` between `a` and `b`, stored as the bot stores one: `b` (the
/// advantage) lets `a` start, `host` pauses and resumes it, `a` skips, `b` resigns.
async fn paused_duel(db: &std::path::Path, guild: u64, a: u64, b: u64, host: u64) -> i64 {
    use mondo::rules::zendo::testing::{duel_setup, parsed};
    use mondo::rules::zendo::{Duel, DuelMove, ZendoMove};
    use mondo::rules::{Action, Actor, Game, PlayerId};
    use mondo::store::{NewEvent, NewMatch, Store};
    let store = Store::open(db).await.unwrap();
    let (pa, pb) = (PlayerId(a), PlayerId(b));
    let mut setup = duel_setup(parsed("some piece points up"));
    (setup.players, setup.advantage) = ([pa, pb], pb);
    let (mut g, created) = <Duel as Game>::start(setup, 0).unwrap();
    let choose = Action::Move(DuelMove::Zendo(ZendoMove::ChooseStarter { starter: pa }));
    let mut later = g.play(&Actor::Player(pb), &choose, 1).unwrap();
    let hosted = Actor::Host(PlayerId(host));
    later.extend(g.play(&hosted, &Action::Pause, 2).unwrap());
    later.extend(g.play(&hosted, &Action::Resume, 3).unwrap());
    let skip = Action::Move(DuelMove::Skip);
    later.extend(g.play(&Actor::Player(pa), &skip, 4).unwrap());
    later.extend(g.play(&Actor::Player(pb), &Action::Resign, 5).unwrap());
    let row = |e: &mondo::rules::Event<_>| NewEvent {
        at: e.at,
        body: serde_json::to_string(e).unwrap(),
    };
    let new = NewMatch {
        kind: "zendo-duel",
        guild: Some(guild),
        channel: None,
        seed: 0,
        settings: "{}",
        players: &[a, b],
    };
    let id = store.create_match(&new, &row(&created)).await.unwrap();
    store
        .append_ending(id, 1, later.iter().map(row).collect(), true, g.finish())
        .await
        .unwrap();
    store.close().await;
    id.0
}
