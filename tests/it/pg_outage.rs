//! A PostgreSQL restart under load: two processes (runtimes) on one database of a
//! cluster of this test's own, each driving its matches as fast as they answer. The
//! server stops (every connection cut) until every match has been refused at least
//! once (the pool waits up to 5 s for a connection: some 5 to 6 s), then starts
//! again. While it is down a move is refused saying the store is unreachable (or, for
//! a commit cut short, that it may have been recorded); once it is back every match
//! moves again within its lease, no match changed owner, and every log holds each
//! acknowledged move once and nothing unacknowledged but what was said may be there.

use crate::race_game::{Action, Actor, Race, RaceError, Setup};
use crate::stores::OwnCluster;
use mondo::runtime::{ActError, Config, Place, Runtime, RuntimeError, SystemTime};
use mondo::store::{MatchId, StoreError};
use std::time::Duration;
use tokio::sync::watch;

const A: u64 = 11;
const B: u64 = 22;
const MATCHES: usize = 6;
/// Bounds a failure only.
const T: Duration = Duration::from_secs(90);
const UNREACHABLE: &str = "the umpire's store is unreachable, your move is not recorded yet";

/// What one match's player heard.
#[derive(Clone, Copy, Debug, Default)]
struct Heard {
    acked: u64,
    unreachable: u64,
    /// Refused as maybe recorded (a commit cut short, and the log not readable yet).
    unsure: u64,
}

impl Heard {
    fn refused(&self) -> u64 {
        self.unreachable + self.unsure
    }
}

/// Adds 1 for whoever's turn it is, again and again, until `stop`.
async fn drive(
    runtime: Runtime<Race>,
    id: MatchId,
    heard: watch::Sender<Heard>,
    stop: watch::Receiver<bool>,
) -> Vec<String> {
    let mut who = A;
    let mut other = Vec::new();
    while !*stop.borrow() {
        match runtime
            .act(id, Actor::Player(who), Action::Add(1), None)
            .await
        {
            Ok(_) => {
                heard.send_modify(|h| h.acked += 1);
                who = if who == A { B } else { A };
            }
            Err(ActError::Refused(RaceError::NotYourTurn)) => who = if who == A { B } else { A },
            Err(ActError::Runtime(RuntimeError::Store(e @ StoreError::Unreachable { .. }))) => {
                assert_eq!(e.to_string(), UNREACHABLE);
                heard.send_modify(|h| h.unreachable += 1);
            }
            Err(ActError::Runtime(RuntimeError::Store(StoreError::MaybeRecorded { .. }))) => {
                heard.send_modify(|h| h.unsure += 1);
            }
            Err(e) => {
                other.push(e.to_string());
                heard.send_modify(|h| h.unsure += 1);
            }
        }
    }
    other
}

/// Waits until every match's player has heard `enough`.
async fn until_all(heard: &mut [watch::Receiver<Heard>], enough: impl Fn(&Heard) -> bool) {
    for rx in heard {
        let waited = tokio::time::timeout(T, rx.wait_for(|h| enough(h)))
            .await
            .is_ok();
        assert!(waited, "not heard in time: {:?}", *rx.borrow());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_restart_under_load_moves_no_match_and_loses_nothing() {
    let Some(cluster) = OwnCluster::start() else {
        return;
    };
    let db = cluster.db();
    // Leases that ride out the restart; renewed and looked for often.
    let config = Config {
        lease_ttl_ms: 30_000,
        lease_renew_ms: 1_000,
        lease_scan_ms: 500,
        ..Config::default()
    };
    let setup = || Setup {
        target: 1_000_000,
        turn_ms: 600_000,
        ..Setup::new([A, B])
    };
    let mut runtimes = Vec::new();
    let mut matches = Vec::new();
    for _ in 0..2 {
        let (runtime, _) = Runtime::<Race>::start(db.open().await, SystemTime::new(), config)
            .await
            .unwrap();
        for _ in 0..MATCHES {
            let id = runtime.create(Place::default(), setup()).await.unwrap();
            matches.push((runtime.clone(), id));
        }
        let taken = runtime.taken_over();
        runtimes.push((runtime, taken));
    }
    let (stop, stopping) = watch::channel(false);
    let mut heard = Vec::new();
    let mut drivers = Vec::new();
    for (runtime, id) in &matches {
        let (tx, rx) = watch::channel(Heard::default());
        heard.push(rx);
        drivers.push(tokio::spawn(drive(
            runtime.clone(),
            *id,
            tx,
            stopping.clone(),
        )));
    }
    until_all(&mut heard, |h| h.acked >= 2).await;

    let down = std::time::Instant::now();
    tokio::task::block_in_place(|| cluster.stop());
    let stopped = down.elapsed();
    until_all(&mut heard, |h| h.refused() >= 1).await;
    eprintln!(
        "stopped after {stopped:?}, all refused after {:?}",
        down.elapsed()
    );
    let before: Vec<u64> = heard.iter().map(|h| h.borrow().acked).collect();
    tokio::task::block_in_place(|| cluster.restart());
    let up = std::time::Instant::now();
    for (n, before) in before.into_iter().enumerate() {
        let moved = tokio::time::timeout(T, heard[n].wait_for(|h| h.acked > before))
            .await
            .is_ok();
        let all: Vec<Heard> = heard.iter().map(|h| *h.borrow()).collect();
        assert!(
            moved,
            "match {n} did not move again once the server was back: {all:?}"
        );
    }
    // Figures for docs/scale.md, not assertions.
    eprintln!(
        "server down {:?}; every match moved again {:?} after it was back",
        up - down,
        up.elapsed()
    );
    stop.send_replace(true);
    for d in drivers {
        let other = d.await.unwrap();
        assert!(other.is_empty(), "refused otherwise: {other:?}");
    }

    let said: Vec<Heard> = heard.iter().map(|h| *h.borrow()).collect();
    assert!(
        said.iter().any(|h| h.unreachable > 0),
        "some player was told the store is unreachable: {said:?}"
    );
    for ((runtime, id), h) in matches.iter().zip(&said) {
        let lease = runtime.store().lease(*id).await.unwrap().unwrap();
        assert_eq!(
            (lease.owner.as_str(), lease.token),
            (runtime.owner(), 1),
            "match {id} kept its owner"
        );
        assert!(runtime.live().contains(id));
        let added = runtime
            .store()
            .events(*id)
            .await
            .unwrap()
            .iter()
            .filter(|e| e.body.contains("added"))
            .count() as u64;
        assert!(
            h.acked <= added && added <= h.acked + h.unsure,
            "match {id}: {added} moves in the log, {h:?}"
        );
    }
    for (runtime, mut taken) in runtimes {
        assert!(taken.try_recv().is_err(), "nothing was taken over");
        runtime.shutdown().await.unwrap();
    }
}

/// A server that is not there is said at once, with its host and port and why, and
/// never the password of the URL.
#[tokio::test]
async fn an_unreachable_server_is_said_with_host_port_and_reason_not_the_password() {
    // A port nothing listens on (taken, then let go).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let url = format!("postgres://mondo:s3cret@127.0.0.1:{port}/mondo?password=s3cret");
    let e = mondo::store::Store::connect(&url.parse().unwrap())
        .await
        .unwrap_err();
    let said = e.to_string();
    assert!(
        said.starts_with(&format!(
            "cannot reach PostgreSQL at 127.0.0.1:{port} within 5 s: "
        )),
        "{said}"
    );
    assert!(said.contains("refused"), "{said}");
    assert!(!said.contains("s3cret"), "{said}");
}
