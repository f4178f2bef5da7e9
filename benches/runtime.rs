//! `cargo bench --bench runtime [-- SECONDS MATCHES process]`: many live matches in one
//! process, each driven by a client as fast as it is answered; reports events committed
//! to SQLite per second, the latency of one action (commit included), and the process's
//! peak RSS. Target: 1,000 live matches, >= 5,000 events/s, RSS <= 200 MB.
//!
//! The game is the tiny test game of tests/it/race_game (each action commits two events);
//! Zendo's bench goes in `mondo bench runtime` once the engine is on main.

#[path = "../tests/it/race_game/mod.rs"]
mod race_game;

use mondo::runtime::{Config, Place, Runtime, SystemTime};
use mondo::store::{Durability, MatchFilter, Store};
use race_game::{Action, Actor, Race, Setup};
use std::time::{Duration, Instant};

fn rss_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let seconds: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(10);
    let matches: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1_000);
    let durability = if args.iter().any(|a| a == "process") {
        Durability::Process
    } else {
        Durability::Power
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::open_with(dir.path().join("bench.db"), durability)
        .await
        .expect("the store opens");
    let (runtime, _) = Runtime::<Race>::start(store, SystemTime::new(), Config::default())
        .await
        .expect("the runtime starts");
    let mut ids = Vec::new();
    for m in 0..matches {
        let setup = Setup {
            target: u32::MAX,
            turn_ms: 3_600_000,
            ..Setup::new([2 * m + 1, 2 * m + 2])
        };
        ids.push(runtime.create(Place::default(), setup).await.unwrap());
    }
    println!(
        "{matches} live matches, {durability:?} durability, {seconds} s; RSS after setup {} MB",
        rss_kb("VmRSS:") / 1024
    );
    let start = Instant::now();
    let stop = start + Duration::from_secs(seconds);
    let mut clients = Vec::new();
    for (m, id) in ids.iter().copied().enumerate() {
        let runtime = runtime.clone();
        let players = [2 * m as u64 + 1, 2 * m as u64 + 2];
        clients.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut events = 0u64;
            let mut seq = 1;
            let mut turn = 0;
            while Instant::now() < stop {
                let t = Instant::now();
                let ack = runtime
                    .act(id, Actor::Player(players[turn]), Action::Add(1), None)
                    .await
                    .expect("the action is applied");
                latencies.push(t.elapsed());
                events += ack.seq - seq;
                seq = ack.seq;
                turn = 1 - turn;
            }
            (events, latencies)
        }));
    }
    let mut events = 0;
    let mut latencies = Vec::new();
    for c in clients {
        let (e, l) = c.await.unwrap();
        events += e;
        latencies.extend(l);
    }
    let elapsed = start.elapsed().as_secs_f64();
    latencies.sort();
    let pct = |p: f64| latencies[((latencies.len() - 1) as f64 * p) as usize];
    // Everything counted is really in the store.
    let store = runtime.store().clone();
    let mut stored = 0;
    for r in store.matches(&MatchFilter::default()).await.unwrap() {
        stored += r.last_seq - 1;
    }
    assert_eq!(stored, events, "every acknowledged event is stored");
    println!(
        "{events} events committed in {elapsed:.1} s: {:.0} events/s ({} actions); \
         action latency p50 {:.2} ms, p99 {:.2} ms; peak RSS {} MB",
        events as f64 / elapsed,
        latencies.len(),
        pct(0.5).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        rss_kb("VmHWM:") / 1024
    );
    runtime.shutdown().await.unwrap();
}
