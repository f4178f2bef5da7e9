//! `/metrics` of a running `mondo serve`: a request Discord refuses (a DM to a player
//! whose DMs are closed) is counted in `mondo_discord_errors_total`.

use super::{Served, bluffs_duel, setup};

/// Where the bot's log says it serves `/metrics`.
fn metrics_address(log: &std::path::Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let at = text
        .split("on http://")
        .nth(1)
        .unwrap_or_else(|| panic!("no /metrics address in the log:\n{text}"));
    at.split_whitespace().next().unwrap_or_default().to_string()
}

/// `mondo_discord_errors_total` as `GET /metrics` on `address` says it.
fn discord_errors(address: &str) -> f64 {
    use std::io::{Read, Write};
    let mut http = std::net::TcpStream::connect(address).expect("the /metrics address answers");
    write!(
        http,
        "GET /metrics HTTP/1.1\r\nHost: mondo\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    http.read_to_string(&mut text).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("mondo_discord_errors_total ")?.parse().ok())
        .unwrap_or_else(|| panic!("no mondo_discord_errors_total in\n{text}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dm_discord_refuses_is_counted_as_a_discord_error() {
    let (fake, _dir, db, log) = setup().await;
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", false);
    let metrics = [("MONDO_LOG_METRICS_ADDRESS", "127.0.0.1:0")];
    let mut bot = Served::start_with(&fake, &db, &log, &metrics);
    bot.ready(&fake).await;
    let address = metrics_address(&log);
    assert_eq!(discord_errors(&address), 0.0, "nothing failed yet");
    // bob's DMs are closed: the duel's DM to him is refused, and said in the channel.
    let opening = bluffs_duel(&fake, alice.id, bob.id, 7).await;
    assert!(opening.text().contains("cannot DM"), "{}", opening.text());
    assert!(discord_errors(&address) >= 1.0);
    bot.alive();
}
