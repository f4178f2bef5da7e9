//! Three `mondo serve` processes on one PostgreSQL database against the fake Discord
//! serving 8 shards (ranges 0-2, 3-5, 6-7), with short leases: matches of several games
//! in servers on different shards; a DM button for a match another process runs is
//! routed to it; the owner of a duel with a pending challenge is SIGKILLed and another
//! process resumes the duel once its lease runs out, nothing lost and nothing posted
//! twice; a SIGSTOPped owner loses its lease to another process, and once it wakes its
//! log says it lost the lease (the fencing token refuses it; that half is ignored,
//! unfinished: see its test).
//!
//! Skipped (with a note) under `MONDO_SKIP_POSTGRES`, as the store's PostgreSQL tests.

use super::stores::TestDb;
use super::{Served, accepted, answer, button, choice, log_lines, shards_live, until_fake};
use crate::support::discord::FakeDiscord;
use serde_json::json;
use std::time::Instant;

const LEASE_MS: u64 = 1_500;

/// The first process whose log says `needle` (waiting for it).
pub(super) async fn log_says(logs: &[&std::path::Path], needle: &str) -> usize {
    log_says_after(logs, &vec![0; logs.len()], needle).await
}

/// How long each log is now (for [`log_says_after`]).
pub(super) fn log_ends(logs: &[&std::path::Path]) -> Vec<usize> {
    logs.iter()
        .map(|l| std::fs::read(l).map_or(0, |b| b.len()))
        .collect()
}

/// The first process whose log says `needle` past `from` (its length before),
/// looked for again at each line a bot logs; past `T` (which only bounds a failure)
/// the test fails with the logs.
pub(super) async fn log_says_after(
    logs: &[&std::path::Path],
    from: &[usize],
    needle: &str,
) -> usize {
    let deadline = Instant::now() + super::T;
    let mut lines = log_lines();
    loop {
        for (n, (log, from)) in logs.iter().zip(from).enumerate() {
            let text = std::fs::read(log).unwrap_or_default();
            let new = String::from_utf8_lossy(text.get(*from..).unwrap_or_default());
            if new.contains(needle) {
                return n;
            }
        }
        assert!(
            Instant::now() < deadline,
            "no log says `{needle}`:\n{}",
            logs.iter()
                .map(|l| std::fs::read_to_string(l).unwrap_or_default())
                .collect::<Vec<_>>()
                .join("\n-----\n")
        );
        let _ = tokio::time::timeout_at(deadline.into(), lines.changed()).await;
    }
}

/// The first public message in `channel` saying `needle` (waiting for it).
async fn wait_said(
    fake: &FakeDiscord,
    channel: u64,
    needle: &str,
) -> crate::support::discord::StoredMessage {
    fake.wait_message(
        |m| m.channel_id == channel && !m.ephemeral && m.text().contains(needle),
        super::T,
    )
    .await
    .unwrap_or_else(|| {
        let said: Vec<String> = fake.messages(channel).iter().map(|m| m.text()).collect();
        panic!("the channel never said `{needle}`; it said: {said:#?}")
    })
}

/// Exactly one public message in `channel` says `needle`.
fn said_once(fake: &FakeDiscord, channel: u64, needle: &str) {
    let said: Vec<String> = fake
        .messages(channel)
        .iter()
        .filter(|m| !m.ephemeral)
        .map(|m| m.text())
        .collect();
    let saying = said.iter().filter(|t| t.contains(needle)).count();
    assert_eq!(saying, 1, "`{needle}` said {saying} times in: {said:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_processes_share_one_postgres_and_a_dead_owners_duel_moves_on() {
    three_processes(false).await;
}

/// The same, then the heir stalls (SIGSTOP) past its lease, another process takes the
/// duel over, and the heir, woken (SIGCONT), must say in its log that it lost it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_owner_woken_after_its_lease_says_it_lost_it() {
    three_processes(true).await;
}

async fn three_processes(stall: bool) {
    let Some(db) = TestDb::postgres() else {
        eprintln!("note: MONDO_SKIP_POSTGRES is set: the three-process test is skipped");
        return;
    };
    let fake = FakeDiscord::start().await;
    fake.set_shards(8, 8);
    let (_, on_1) = fake.add_guild_on_shard("Server on shard 1", 1, 8);
    let (_, on_4) = fake.add_guild_on_shard("Server on shard 4", 4, 8);
    let (_, on_7) = fake.add_guild_on_shard("Server on shard 7", 7, 8);
    let alice = fake.add_user("alice", true);
    let bob = fake.add_user("bob", true);
    let carol = fake.add_user("carol", true);
    let dir = tempfile::tempdir().unwrap();
    let p = |f: &str| dir.path().join(f);
    let url = db.location.to_string();
    let lease = LEASE_MS.to_string();
    let env = [
        ("MONDO_DATABASE_URL", url.as_str()),
        ("MONDO_DATABASE_LEASE_MS", lease.as_str()),
        ("MONDO_DATABASE_LEASE_RENEW_MS", "300"),
        ("MONDO_DATABASE_LEASE_SCAN_MS", "300"),
        // A paused session must end before its lease does.
        ("MONDO_DATABASE_IDLE_IN_TRANSACTION_MS", "1000"),
        // The challenge must outlive the kills and restarts below.
        ("MONDO_ZENDO_CHALLENGE_SECS", "600"),
    ];
    let logs = [p("a.log"), p("b.log"), p("c.log")];
    let start = |log: &std::path::Path, range: &str| {
        Served::on_shards(&fake, dir.path(), log, &env, range, 8)
    };
    let mut a = start(&logs[0], "0-2");
    let mut b = start(&logs[1], "3-5");
    let mut c = start(&logs[2], "6-7");
    shards_live(
        &fake,
        &mut [&mut a, &mut b, &mut c],
        &[0, 1, 2, 3, 4, 5, 6, 7],
    )
    .await;

    // Several games in several servers: an Assembly practice on shard 1's server
    // (process a), a duel on shard 4's (process b), a Zendo practice on shard 7's (c).
    let i = fake
        .slash_in(on_1, carol.id, "assembly practice", &[])
        .await;
    let practice = answer(&fake, &i).await;
    assert!(!practice.ephemeral, "{}", practice.text());
    let i = fake.slash_in(on_7, carol.id, "zendo practice", &[]).await;
    assert!(!answer(&fake, &i).await.text().is_empty());
    let i = fake
        .slash_in(
            on_4,
            alice.id,
            "zendo duel",
            &[("opponent", json!(bob.id.to_string()))],
        )
        .await;
    let opening = accepted(&fake, &i, bob.id).await;
    assert!(opening.text().contains("Zendo duel"), "{}", opening.text());
    let first = button(&opening, "My opponent starts");
    let i = fake.click(bob.id, opening.id, &first).await;
    assert!(answer(&fake, &i).await.text().contains("starts"));
    let mode = choice(&fake, "koan", "mode", "challenge");
    let i = fake
        .slash_in(
            on_4,
            alice.id,
            "koan",
            &[("structure", json!("2^ 3>")), ("mode", mode)],
        )
        .await;
    let challenge = answer(&fake, &i).await;
    assert!(
        challenge.text().contains("challenges"),
        "{}",
        challenge.text()
    );
    // alice answers by DM: DMs come on shard 0 (process a), the duel runs in b.
    let dm = fake.dm_channel_of(alice.id).expect("alice's DM");
    let buttons = fake
        .wait_message(|m| m.channel_id == dm && !m.buttons().is_empty(), super::T)
        .await
        .expect("alice gets the answer buttons by DM");
    let i = fake
        .click(alice.id, buttons.id, &button(&buttons, "Obeys"))
        .await;
    assert!(answer(&fake, &i).await.text().contains("is in"));
    log_says(&[&logs[0]], "routed an interaction").await;
    log_says(&[&logs[1]], "answering an interaction routed here").await;
    let answered = format!("<@{}>'s answer is in", alice.id);
    wait_said(&fake, on_4, &answered).await;

    // The duel's owner dies with bob's answer pending: another process takes it over
    // once its lease runs out.
    let heirs = [logs[0].as_path(), logs[2].as_path()];
    let before = log_ends(&heirs);
    b.kill();
    let heir = log_says_after(&heirs, &before, "took over match").await;
    until_fake(&fake, "shard 4 stays live", |f| {
        !f.gateway_stats().live_shards.contains(&4)
    })
    .await;
    // Shard 4's process comes back (its server's gateway); the duel stays where it
    // went, and bob's press in the channel reaches it.
    let mut b = start(&logs[1], "3-5");
    shards_live(&fake, &mut [&mut b], &[3, 4, 5]).await;
    let ask = button(&challenge, "Answer privately");
    let i = fake.click(bob.id, challenge.id, &ask).await;
    let mine = answer(&fake, &i).await;
    assert!(mine.ephemeral, "{}", mine.text());
    let i = fake
        .click(bob.id, mine.id, &button(&mine, "Does not"))
        .await;
    answer(&fake, &i).await;
    // The reveal (whichever way the hidden pattern judges 2^ 3>).
    let revealed = format!("<@{}> said does not obey", bob.id);
    let reveal = wait_said(&fake, on_4, &revealed).await;
    assert!(reveal.text().contains("ticket"), "{}", reveal.text());
    // Nothing said twice across the three processes.
    let challenged = format!("<@{}> challenges:", alice.id);
    for line in [&challenged, &answered, &revealed] {
        said_once(&fake, on_4, line);
    }

    if stall {
        stall_the_heir(&logs, heir, if heir == 0 { &mut a } else { &mut c }).await;
        // The game goes on with its new owner, answered once.
        let i = fake.slash_in(on_4, alice.id, "zendo status", &[]).await;
        assert!(!answer(&fake, &i).await.text().is_empty());
        said_once(&fake, on_4, &revealed);
    }
    for bot in [&mut a, &mut b, &mut c] {
        bot.alive();
    }
    // Nothing in the duel's server said twice, whoever said it (a line the killed
    // owner posted but had not recorded as said was posted again by its heir under
    // the same nonce: Discord kept the first).
    let mut public: Vec<String> = fake
        .messages(on_4)
        .iter()
        .filter(|m| !m.ephemeral)
        .map(|m| m.text())
        .collect();
    public.sort();
    let twice: Vec<&String> = public
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| &w[0])
        .collect();
    assert!(twice.is_empty(), "said twice: {twice:#?}");
    eprintln!(
        "posts Discord kept once for a repeated nonce: {}",
        fake.nonce_repeats()
    );
    assert_eq!(fake.problems(), Vec::<String>::new());
}

/// The heir (process `heir` of a and c) stalls (SIGSTOP) past its lease: another takes
/// the duel over; woken (SIGCONT), the stalled one is refused by the fencing token and
/// says so in its log.
async fn stall_the_heir(logs: &[std::path::PathBuf; 3], heir: usize, stalled: &mut Served) {
    let others = if heir == 0 {
        [&logs[1], &logs[2]]
    } else {
        [&logs[0], &logs[1]]
    };
    let pid = stalled.child.id().to_string();
    let signal = |s: &str| {
        let ok = std::process::Command::new("kill")
            .args([s, &pid])
            .status()
            .expect("kill runs")
            .success();
        assert!(ok, "kill {s}");
    };
    let others = [others[0].as_path(), others[1].as_path()];
    let before = log_ends(&others);
    signal("-STOP");
    log_says_after(&others, &before, "took over match").await;
    signal("-CONT");
    let stalled_log = &logs[if heir == 0 { 0 } else { 2 }];
    log_says(&[stalled_log], "lost the lease of match").await;
}
