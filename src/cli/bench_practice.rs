//! `mondo bench runtime`, the runtime timed with many live Zendo practice matches in
//! one process (so this file is practice's own), each driven
//! by a client building new structures as fast as it is answered. Reports events
//! committed to the store (SQLite, or `--database URL`) per second, the latency of one action (commit included) and the
//! process's peak RSS. Target: 1,000 matches, >= 5,000 events/s, <= 200 MB.

use mondo::PieceSet;
use mondo::koan::enumerate::koans;
use mondo::play::YOU;
use mondo::play::games::zendo::Source;
use mondo::play::games::zendo::practice::practice_setup;
use mondo::pool::Pool;
use mondo::rules::Actor;
use mondo::rules::zendo::{PracticeMove, Settings};
use mondo::runtime::{ActError, AnyMatch, Config, Place, Runtime, SystemTime};
use mondo::store::{Location, MatchFilter, Store};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

pub fn run(matches: usize, seconds: u64, database: Option<Location>) -> ExitCode {
    if let Some(db) = database {
        println!("committing to {db}");
        return super::replay::block_on(bench(db, matches.max(1), seconds.max(1)));
    }
    let db = std::env::temp_dir().join(format!("mondo-bench-{}.db", std::process::id()));
    let code = super::replay::block_on(bench(
        Location::Sqlite(db.clone()),
        matches.max(1),
        seconds.max(1),
    ));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    code
}

async fn bench(db: Location, matches: usize, seconds: u64) -> Result<ExitCode, String> {
    let store = Store::connect(&db).await.map_err(|e| e.to_string())?;
    let (runtime, _) = Runtime::<AnyMatch>::start(store, SystemTime::new(), Config::default())
        .await
        .map_err(|e| e.to_string())?;
    let pool = Pool::shipped(PieceSet::Pyramids);
    let mut ids = Vec::with_capacity(matches);
    for m in 0..matches {
        let setup = practice_setup(Source::Pool(&pool), m as u64, Settings::default())?;
        let id = runtime
            .create(Place::default(), setup.into())
            .await
            .map_err(|e| e.to_string())?;
        ids.push(id);
    }
    // Every client plays structures nobody gave before in its match.
    let structures: Arc<Vec<_>> = Arc::new(koans(PieceSet::Pyramids, 2).collect());
    println!(
        "{matches} live practice matches for {seconds} s (RSS after setup {} MB)",
        status_kb("VmRSS:") / 1024
    );
    let start = Instant::now();
    let stop = start + Duration::from_secs(seconds);
    let mut clients = Vec::new();
    for (m, id) in ids.into_iter().enumerate() {
        let runtime = runtime.clone();
        let structures = structures.clone();
        clients.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut events = 0u64;
            let mut seq = 1;
            let mut next = m * 7 % structures.len();
            while Instant::now() < stop {
                let koan = structures[next].clone();
                next = (next + 1) % structures.len();
                let t = Instant::now();
                let build = PracticeMove::Build { koan }.into();
                match runtime.act(id, Actor::Player(YOU), build, None).await {
                    Ok(ack) => {
                        latencies.push(t.elapsed());
                        events += ack.seq - seq;
                        seq = ack.seq;
                    }
                    // An initial structure comes round again: skip it.
                    Err(ActError::Refused(_)) => {}
                    Err(e) => return Err(e.to_string()),
                }
            }
            Ok((events, latencies))
        }));
    }
    let mut events = 0;
    let mut latencies = Vec::new();
    for c in clients {
        let (e, l) = c.await.map_err(|e| e.to_string())??;
        events += e;
        latencies.extend(l);
    }
    let elapsed = start.elapsed().as_secs_f64();
    latencies.sort();
    let ms = |p: f64| {
        latencies
            .get(((latencies.len().max(1) - 1) as f64 * p) as usize)
            .map_or(0.0, |d| d.as_secs_f64() * 1e3)
    };
    let mut stored = 0;
    for r in runtime
        .store()
        .matches(&MatchFilter::default())
        .await
        .map_err(|e| e.to_string())?
    {
        stored += r.last_seq - 1;
    }
    println!(
        "{events} events committed in {elapsed:.1} s: {:.0} events/s; action latency p50 \
         {:.2} ms, p99 {:.2} ms; peak RSS {} MB; {stored} events in the store",
        events as f64 / elapsed,
        ms(0.5),
        ms(0.99),
        status_kb("VmHWM:") / 1024
    );
    runtime.shutdown().await.map_err(|e| e.to_string())?;
    if stored != events {
        return Err(format!(
            "{events} events were acknowledged but {stored} are stored"
        ));
    }
    Ok(ExitCode::SUCCESS)
}
