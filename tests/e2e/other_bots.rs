//! Only people and Mondo's own AI play: a challenge to another bot, in any game, is
//! declined at once in private, with nothing offered and nothing stored.

use super::{Served, answer, setup};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_to_another_bot_is_declined_in_every_game() {
    let (fake, _dir, db, log) = setup().await;
    let alice = fake.add_user("alice", true);
    let other = fake.add_bot("dicebot");
    let mut bot = Served::start(&fake, &db, &log);
    bot.ready(&fake).await;
    for command in ["zendo duel", "zendo triple", "assembly duel", "bluffs duel"] {
        let options = [("opponent", json!(other.id.to_string()))];
        let i = fake.slash(alice.id, command, &options).await;
        let m = answer(&fake, &i).await;
        assert!(m.ephemeral, "{command}: said in public: {}", m.text());
        assert!(
            m.text().contains("bots cannot play"),
            "{command}: {}",
            m.text()
        );
        assert!(m.buttons().is_empty(), "{command}: an offer: {}", m.text());
    }
    let public = fake.messages(fake.channel_id());
    assert!(public.iter().all(|m| m.ephemeral), "{public:?}");
    let store = mondo::store::Store::open_read_only(&db).await.unwrap();
    let all = store
        .matches(&mondo::store::MatchFilter::default())
        .await
        .unwrap();
    store.close().await;
    assert!(all.is_empty(), "stored: {all:?}");
    bot.alive();
}
