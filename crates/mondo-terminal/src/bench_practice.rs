//! `mondo bench runtime`, the runtime timed with many live Zendo practice matches (so
//! this file is practice's own), each driven by a client building new structures as
//! fast as it is answered. Reports events committed to the store (SQLite, or
//! `--database URL`) per second, the latency of one action (commit included) and each
//! process's peak RSS. Target: 1,000 matches, >= 5,000 events/s, <= 200 MB.
//!
//! `--processes N` (PostgreSQL only) runs the matches in N child processes on one
//! database (`mondo bench runtime --worker`), each creating and owning its share through
//! the runtime's own leases; they set up, then drive together when this process says
//! `go`, and report their figures as JSON lines, gathered here (docs/scale.md).

use mondo_play::YOU;
use mondo_play::games::zendo::Source;
use mondo_play::games::zendo::practice::practice_setup;
use mondo_rules::PieceSet;
use mondo_rules::koan::enumerate::koans;
use mondo_rules::pool::Pool;
use mondo_rules::rules::Actor;
use mondo_rules::rules::zendo::{PracticeMove, Settings};
use mondo_runtime::{ActError, AnyMatch, Config, Place, Runtime, SystemTime};
use mondo_store::{Location, MatchFilter, MatchId, Store};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
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

/// How `mondo bench runtime` runs: one process, the parent of `processes` workers, or
/// worker `index` (of a parent's).
#[derive(Clone, Copy, Debug)]
pub enum Role {
    Alone,
    Parent { processes: usize },
    Worker { index: usize },
}

pub fn run(matches: usize, seconds: u64, database: Option<Location>, role: Role) -> ExitCode {
    let (matches, seconds) = (matches.max(1), seconds.max(1));
    match (role, database) {
        (Role::Worker { index }, Some(db)) => {
            super::kit::block_on(worker(db, index, matches, seconds))
        }
        (Role::Worker { .. }, None) => {
            eprintln!("error: a bench worker needs --database");
            ExitCode::from(2)
        }
        (Role::Parent { processes }, Some(db @ Location::Postgres(_))) => {
            parent(&db, processes, matches, seconds)
        }
        (Role::Parent { processes }, _) => {
            eprintln!(
                "error: {processes} processes need one PostgreSQL database to share \
                 (--database postgres://user@host/db): two processes on one SQLite file are \
                 refused; give --processes 1 for SQLite"
            );
            ExitCode::from(2)
        }
        (Role::Alone, Some(db)) => {
            println!("committing to {db}");
            super::kit::block_on(alone(db, matches, seconds))
        }
        (Role::Alone, None) => {
            let db = std::env::temp_dir().join(format!("mondo-bench-{}.db", std::process::id()));
            let code = super::kit::block_on(alone(Location::Sqlite(db.clone()), matches, seconds));
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
            }
            code
        }
    }
}

/// The events the store holds (every match's last event number less its first).
async fn stored_events(store: &Store) -> Result<u64, String> {
    let all = store
        .matches(&MatchFilter::default())
        .await
        .map_err(|e| e.to_string())?;
    Ok(all.iter().map(|r| r.last_seq.saturating_sub(1)).sum())
}

/// The runtime as `mondo serve` runs it: leases and PostgreSQL's per-connection limits
/// from the `MONDO_DATABASE_*` settings.
async fn start_runtime(db: &Location) -> Result<Runtime<AnyMatch>, String> {
    let settings =
        mondo_play::config::DatabaseConfig::from_environment().map_err(|e| e.to_string())?;
    let store = Store::connect_tuned(db, Default::default(), settings.timeouts())
        .await
        .map_err(|e| e.to_string())?;
    let config = settings.runtime(Config::default());
    let (runtime, _) = Runtime::<AnyMatch>::start(store, SystemTime::new(), config)
        .await
        .map_err(|e| e.to_string())?;
    Ok(runtime)
}

/// Creates `count` practice matches, seeds from `first` on (this process takes their
/// leases as it creates them).
async fn create(
    runtime: &Runtime<AnyMatch>,
    first: usize,
    count: usize,
) -> Result<Vec<MatchId>, String> {
    let pool = Pool::shipped(PieceSet::Pyramids);
    let mut ids = Vec::with_capacity(count);
    for m in first..first + count {
        let setup = practice_setup(Source::Pool(&pool), m as u64, Settings::default())?;
        let id = runtime
            .create(Place::default(), setup.into())
            .await
            .map_err(|e| e.to_string())?;
        ids.push(id);
    }
    Ok(ids)
}

/// What one process measured.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Figures {
    events: u64,
    seconds: f64,
    /// Every acknowledged action's latency, in microseconds.
    latencies_us: Vec<u64>,
    peak_rss_mb: u64,
}

/// Drives the matches `ids` (seeds from `first` on) for `seconds`, each by its own
/// client, every client playing structures nobody gave before in its match.
async fn drive(
    runtime: &Runtime<AnyMatch>,
    ids: Vec<MatchId>,
    first: usize,
    seconds: u64,
) -> Result<Figures, String> {
    let structures: Arc<Vec<_>> = Arc::new(koans(PieceSet::Pyramids, 2).collect());
    let start = Instant::now();
    let stop = start + Duration::from_secs(seconds);
    let mut clients = Vec::new();
    for (m, id) in ids.into_iter().enumerate() {
        let runtime = runtime.clone();
        let structures = structures.clone();
        let mut next = (first + m) * 7 % structures.len();
        clients.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut events = 0u64;
            let mut seq = 1;
            while Instant::now() < stop {
                let koan = structures[next].clone();
                next = (next + 1) % structures.len();
                let t = Instant::now();
                let build = PracticeMove::Build { koan }.into();
                match runtime.act(id, Actor::Player(YOU), build, None).await {
                    Ok(ack) => {
                        latencies.push(t.elapsed().as_micros() as u64);
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
    let mut figures = Figures::default();
    for c in clients {
        let (e, l) = c.await.map_err(|e| e.to_string())??;
        figures.events += e;
        figures.latencies_us.extend(l);
    }
    figures.seconds = start.elapsed().as_secs_f64();
    figures.peak_rss_mb = status_kb("VmHWM:") / 1024;
    Ok(figures)
}

/// p50 and p99 of sorted latencies, in milliseconds.
fn percentiles(sorted_us: &[u64]) -> (f64, f64) {
    let ms = |p: f64| {
        sorted_us
            .get(((sorted_us.len().max(1) - 1) as f64 * p) as usize)
            .map_or(0.0, |us| *us as f64 / 1e3)
    };
    (ms(0.5), ms(0.99))
}

/// The stored events must be the acknowledged ones: nothing acknowledged was lost,
/// nothing committed twice.
fn check_stored(events: u64, stored: u64) -> Result<(), String> {
    if stored != events {
        return Err(format!(
            "{events} events were acknowledged but {stored} are stored"
        ));
    }
    Ok(())
}

async fn alone(db: Location, matches: usize, seconds: u64) -> Result<ExitCode, String> {
    let runtime = start_runtime(&db).await?;
    let before = stored_events(runtime.store()).await?;
    let ids = create(&runtime, 0, matches).await?;
    println!(
        "{matches} live practice matches for {seconds} s (RSS after setup {} MB)",
        status_kb("VmRSS:") / 1024
    );
    let mut figures = drive(&runtime, ids, 0, seconds).await?;
    figures.latencies_us.sort_unstable();
    let (p50, p99) = percentiles(&figures.latencies_us);
    let stored = stored_events(runtime.store()).await? - before;
    println!(
        "{} events committed in {:.1} s: {:.0} events/s; action latency p50 {p50:.2} ms, p99 \
         {p99:.2} ms; peak RSS {} MB; {stored} events in the store",
        figures.events,
        figures.seconds,
        figures.events as f64 / figures.seconds,
        figures.peak_rss_mb
    );
    runtime.shutdown().await.map_err(|e| e.to_string())?;
    check_stored(figures.events, stored)?;
    Ok(ExitCode::SUCCESS)
}

/// A worker's lines to its parent.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Report {
    /// Its matches are created (and leased): ready to drive.
    Ready {
        matches: usize,
        rss_mb: u64,
    },
    Done(Figures),
}

fn say(report: &Report) -> Result<(), String> {
    let line = serde_json::to_string(report).map_err(|e| e.to_string())?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("could not write to the parent: {e}"))
}

/// Waits for the parent's next line (`go`, then `stop`); its end counts as `stop`.
async fn heard() -> Result<String, String> {
    tokio::task::spawn_blocking(|| {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).map(|_| line)
    })
    .await
    .map_err(|e| e.to_string())?
    .map(|l| l.trim().to_string())
    .map_err(|e| e.to_string())
}

/// Worker `index`: creates its `matches` (seeds apart from every other worker's), says
/// ready, drives them from `go` for `seconds`, reports, and stops at `stop`.
async fn worker(
    db: Location,
    index: usize,
    matches: usize,
    seconds: u64,
) -> Result<ExitCode, String> {
    let runtime = start_runtime(&db).await?;
    // Shares differ by one at most: seeds `index * (matches + 1)` on never overlap.
    let first = index * (matches + 1);
    let ids = create(&runtime, first, matches).await?;
    say(&Report::Ready {
        matches,
        rss_mb: status_kb("VmRSS:") / 1024,
    })?;
    if heard().await? != "go" {
        runtime.shutdown().await.map_err(|e| e.to_string())?;
        return Ok(ExitCode::FAILURE);
    }
    let figures = drive(&runtime, ids, first, seconds).await;
    let figures = match figures {
        Ok(f) => f,
        Err(e) => {
            let _ = runtime.shutdown().await;
            return Err(e);
        }
    };
    say(&Report::Done(figures))?;
    // The others drive until they report too: letting go of the leases before then
    // would hand them this process's matches.
    let _ = heard().await;
    runtime.shutdown().await.map_err(|e| e.to_string())?;
    Ok(ExitCode::SUCCESS)
}

/// One worker as the parent sees it.
struct Worker {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Worker {
    fn spawn(db: &Location, index: usize, matches: usize, seconds: u64) -> Result<Worker, String> {
        let Location::Postgres(url) = db else {
            return Err("the workers share a PostgreSQL database".into());
        };
        let exe = std::env::current_exe().map_err(|e| format!("where is mondo? {e}"))?;
        let mut child = Command::new(exe)
            .args(["bench", "runtime", "--worker", &index.to_string()])
            .args(["--matches", &matches.to_string()])
            .args(["--seconds", &seconds.to_string()])
            .args(["--database", url])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("could not start a worker process: {e}"))?;
        let (stdin, stdout) = (child.stdin.take(), child.stdout.take());
        let stdout = stdout.ok_or("a worker without its output")?;
        Ok(Worker {
            child,
            stdin,
            stdout: BufReader::new(stdout),
        })
    }

    fn tell(&mut self, word: &str) {
        if let Some(stdin) = self.stdin.as_mut() {
            let _ = writeln!(stdin, "{word}").and_then(|()| stdin.flush());
        }
    }

    fn report(&mut self, index: usize) -> Result<Report, String> {
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(0) | Err(_) => Err(format!(
                "worker {index} stopped without reporting (its error is above)"
            )),
            Ok(_) => serde_json::from_str(&line)
                .map_err(|e| format!("worker {index} said `{}`: {e}", line.trim())),
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // Closing its input stops a worker that still waits; then it is waited for.
        self.stdin.take();
        let _ = self.child.wait();
    }
}

/// Runs the bench in `processes` workers on `db` and gathers their figures.
fn parent(db: &Location, processes: usize, matches: usize, seconds: u64) -> ExitCode {
    let processes = processes.clamp(1, matches);
    println!("committing to {db} from {processes} processes");
    match gather(db, processes, matches, seconds) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", super::kit::printable(&e));
            ExitCode::FAILURE
        }
    }
}

fn gather(
    db: &Location,
    processes: usize,
    matches: usize,
    seconds: u64,
) -> Result<ExitCode, String> {
    let (tokio, store_before) = count_stored(db)?;
    let mut workers = Vec::with_capacity(processes);
    for index in 0..processes {
        // The first workers take one more each when the matches do not divide evenly.
        let share = matches / processes + usize::from(index < matches % processes);
        workers.push(Worker::spawn(db, index, share, seconds)?);
    }
    let mut rss_setup = Vec::new();
    for (index, w) in workers.iter_mut().enumerate() {
        match w.report(index)? {
            Report::Ready { rss_mb, .. } => rss_setup.push(rss_mb),
            Report::Done(_) => return Err(format!("worker {index} reported before `go`")),
        }
    }
    println!(
        "{matches} live practice matches in {processes} processes for {seconds} s (RSS after \
         setup {} MB)",
        rss_setup
            .iter()
            .map(|mb| mb.to_string())
            .collect::<Vec<_>>()
            .join(" / ")
    );
    for w in &mut workers {
        w.tell("go");
    }
    let mut all = Vec::with_capacity(processes);
    for (index, w) in workers.iter_mut().enumerate() {
        match w.report(index)? {
            Report::Done(figures) => all.push(figures),
            Report::Ready { .. } => return Err(format!("worker {index} said ready twice")),
        }
    }
    for w in &mut workers {
        w.tell("stop");
    }
    drop(workers);
    let mut latencies = Vec::new();
    let (mut events, mut longest) = (0, 0.0f64);
    for (index, figures) in all.iter_mut().enumerate() {
        figures.latencies_us.sort_unstable();
        let (p50, p99) = percentiles(&figures.latencies_us);
        println!(
            "process {}: {} events in {:.1} s: {:.0} events/s; action latency p50 {p50:.2} ms, \
             p99 {p99:.2} ms; peak RSS {} MB",
            index + 1,
            figures.events,
            figures.seconds,
            figures.events as f64 / figures.seconds,
            figures.peak_rss_mb
        );
        events += figures.events;
        longest = longest.max(figures.seconds);
        latencies.extend_from_slice(&figures.latencies_us);
    }
    latencies.sort_unstable();
    let (p50, p99) = percentiles(&latencies);
    let stored = tokio
        .block_on(async {
            let store = Store::connect(db).await.map_err(|e| e.to_string())?;
            let n = stored_events(&store).await;
            store.close().await;
            n
        })?
        .saturating_sub(store_before);
    println!(
        "all: {events} events committed in {longest:.1} s: {:.0} events/s; action latency p50 \
         {p50:.2} ms, p99 {p99:.2} ms; peak RSS per process {} MB; {stored} events in the store",
        events as f64 / longest.max(1e-9),
        all.iter().map(|f| f.peak_rss_mb).max().unwrap_or(0)
    );
    check_stored(events, stored)?;
    Ok(ExitCode::SUCCESS)
}

/// A small tokio runtime for the parent's own look at the store, and the events the
/// store holds before the workers start (the schema migrated once, before they
/// connect).
fn count_stored(db: &Location) -> Result<(tokio::runtime::Runtime, u64), String> {
    let tokio = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let before = tokio.block_on(async {
        let store = Store::connect(db).await.map_err(|e| e.to_string())?;
        let n = stored_events(&store).await;
        store.close().await;
        n
    })?;
    Ok((tokio, before))
}
