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
