//! A match between AI seats on the runtime, as the Discord bot runs them (players with
//! AI ids, `PlayerId::ai`), on a hand-driven clock, with a restart of the runtime in
//! the middle if a test asks: what a game's AI does after its seat is taken up again.

use mondo::play::ai::seat_ai_ids;
use mondo::runtime::{AnyMatch, AnySetup, AnyView, Config, ManualTime, Place, Runtime};
use mondo::store::Store;
use std::sync::Arc;
use std::time::Duration;

async fn runtime(db: &std::path::Path, time: &Arc<ManualTime>) -> Runtime<AnyMatch> {
    let store = Store::open(db).await.unwrap();
    let (runtime, _) = Runtime::<AnyMatch>::start(store, time.clone(), Config::default())
        .await
        .unwrap();
    runtime
}

/// Plays a match of AI seats from `setup` to its end on a hand-driven clock; the first
/// time `restart` says so of the match (as a spectator sees it), the runtime is shut
/// down and started again on the same store, its seats taken up again as the bot does
/// at its start. The match's log: each event's stored body, in order.
pub async fn ai_match(setup: AnySetup, mut restart: impl FnMut(&AnyView) -> bool) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ai.db");
    let time = ManualTime::new(0);
    let mut runtime = runtime(&db, &time).await;
    let id = runtime.create(Place::default(), setup).await.unwrap();
    seat_ai_ids(&runtime, id).await;
    let mut feed = runtime
        .subscribe(id, mondo::rules::Viewer::Spectator)
        .await
        .unwrap();
    let mut restarted = false;
    for _ in 0..5_000 {
        if runtime.is_over(id).await.unwrap() {
            break;
        }
        let view = runtime
            .view(id, &mondo::rules::Viewer::Spectator)
            .await
            .unwrap();
        if !restarted && restart(&view) {
            restarted = true;
            drop(feed);
            runtime.shutdown().await.unwrap();
            runtime = self::runtime(&db, &time).await;
            seat_ai_ids(&runtime, id).await;
            feed = runtime
                .subscribe(id, mondo::rules::Viewer::Spectator)
                .await
                .unwrap();
            continue;
        }
        // The clock moves on only while the seats are quiet (a move made, or being
        // thought over, within a moment of real time holds it), to the next moment
        // something waits for (a deadline, a seat's planned move): each comes at its
        // own time, never two in one step in an order left to the threads.
        match tokio::time::timeout(Duration::from_millis(100), feed.next()).await {
            Ok(_) => continue,
            Err(_) => match time.next_wake() {
                Some(at) => time.advance_to(at),
                None => time.advance(500),
            },
        }
    }
    assert!(runtime.is_over(id).await.unwrap(), "the match did not end");
    let log = runtime.store().events(id).await.unwrap();
    runtime.shutdown().await.unwrap();
    log.into_iter().map(|e| e.body).collect()
}
