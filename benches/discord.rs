//! `cargo bench --bench discord [-- ROUNDS]`: interaction-to-reply latency of the bot on
//! loopback, for commands that do not run the finder. The release `mondo serve` binary
//! runs against the fake Discord of the end-to-end tests (tests/support/discord), which
//! checks every request against Discord's schemas as it does there; the latency is
//! from the moment an interaction is written to the gateway websocket to the moment
//! its response arrives (the bot's full path: gateway parse, poise, the engine, the
//! SQLite commit, the desk, PNG rendering, the HTTP response).
//!
//! Target: p99 <= 100 ms.

#[path = "../tests/support/mod.rs"]
mod support;

use mondo::koan::PieceSet;
use mondo::koan::enumerate::koans;
use serde_json::json;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::discord::{FakeDiscord, Interaction};

const T: Duration = Duration::from_secs(20);

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn report(name: &str, mut v: Vec<Duration>) -> Duration {
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let p99 = percentile(&v, 0.99);
    println!(
        "{name:<34} n={:<4} p50 {:>6.1} ms  p90 {:>6.1} ms  p99 {:>6.1} ms  max {:>6.1} ms",
        v.len(),
        ms(percentile(&v, 0.5)),
        ms(percentile(&v, 0.9)),
        ms(p99),
        ms(*v.last().unwrap_or(&Duration::ZERO)),
    );
    p99
}

/// Dispatch to the first response (type 4: the whole reply; nothing here defers).
async fn latency(fake: &FakeDiscord, i: &Interaction) -> Duration {
    fake.replies(i, T).await;
    fake.interaction_latency(i).expect("acknowledged")
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(200);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio");
    rt.block_on(run(rounds));
}

async fn run(rounds: usize) {
    let fake = FakeDiscord::start().await;
    // A person clicks no faster than this; it does not count in the latency.
    fake.set_reaction_time(Duration::from_millis(1));
    let alice = fake.add_user("alice", true);
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .arg("serve")
        .env("DISCORD_TOKEN", fake.token())
        .env("MONDO_DISCORD_API_PROXY", fake.proxy_url())
        .env("MONDO_DISCORD_GUILD", fake.guild_id().to_string())
        .env("MONDO_DATABASE_PATH", dir.path().join("bench.db"))
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .expect("mondo serve starts");
    fake.wait_ready(T).await;

    let i = fake.slash(alice.id, "zendo practice", &[]).await;
    fake.replies(&i, T).await;

    // Warm up the paths once.
    let i = fake.slash(alice.id, "zendo status", &[]).await;
    latency(&fake, &i).await;

    let mut status = Vec::new();
    let mut observe = Vec::new();
    let mut guess = Vec::new();
    let mut take_back = Vec::new();
    // Structures not on the table yet (the two initial ones have 1 piece; start at 2).
    let mut fresh = koans(PieceSet::Pyramids, 2).map(|k| k.to_line());
    let started = Instant::now();
    for _ in 0..rounds {
        let i = fake.slash(alice.id, "zendo status", &[]).await;
        status.push(latency(&fake, &i).await);

        let koan = fresh.next().expect("enough structures");
        let i = fake
            .slash(alice.id, "koan", &[("structure", json!(koan))])
            .await;
        observe.push(latency(&fake, &i).await);

        let i = fake
            .slash(
                alice.id,
                "guess",
                &[("pattern", json!("every piece points up"))],
            )
            .await;
        guess.push(latency(&fake, &i).await);
        let reading = fake
            .replies(&i, T)
            .await
            .into_iter()
            .rev()
            .find_map(|r| r.message)
            .expect("the reading");
        let (id, _) = reading
            .buttons()
            .into_iter()
            .find(|(_, l)| l == "Take it back")
            .expect("a take-back button");
        let i = fake.click(alice.id, reading.id, &id).await;
        take_back.push(latency(&fake, &i).await);
    }
    let elapsed = started.elapsed();
    println!(
        "mondo serve (release) against the fake Discord on loopback, {rounds} rounds in {:.1} s",
        elapsed.as_secs_f64()
    );
    let mut all = Vec::new();
    for (name, v) in [
        ("/zendo status (ephemeral)", status),
        ("/koan observe (picture, verdict)", observe),
        ("/guess (read back, buttons)", guess),
        ("button: Take it back", take_back),
    ] {
        all.extend(v.iter().copied());
        report(name, v);
    }
    let p99 = report("all of the above", all);
    let problems = fake.problems();
    // Discord refuses an acknowledgement past this; the fake only counts them here.
    let late = fake
        .latencies()
        .iter()
        .filter(|l| **l > support::discord::ACK_DEADLINE)
        .count();
    println!(
        "target p99 <= 100 ms: {}; acknowledged past Discord's {:?}: {late}; schema problems: {}",
        if p99 <= Duration::from_millis(100) {
            "met"
        } else {
            "NOT met"
        },
        support::discord::ACK_DEADLINE,
        problems.len()
    );
    for p in problems.iter().take(5) {
        println!("  {p}");
    }
    let _ = child.kill();
    let _ = child.wait();
}
