//! A database written by the Mondo of before the game-generic store (migrations 1-3,
//! committed as `tests/data/store-v0.db`: a live duel in the middle of a challenge, a
//! finished practice, a server's settings and pool) opens with today's: its settings
//! move to the per-game table, and its live duel resumes where it was and plays on.
//!
//! How the fixture was made (by the build at 5b77186): `mondo play --duel --players
//! alice,bob --pattern 'some piece points up' --seed 42 --db v0.db` with `bob: start
//! alice`, `alice: koan 1^ 2v`, `alice: end turn`, `bob: koan 2> 1< challenge`, `alice:
//! answer not`, `quit`; a practice played to its end; then a `server_settings` row
//! (guild 111: turn 120 s, challenge 20 s, bonus 15 s, varied, host role 999, pool
//! `house`) and a pool, checkpointed into the file.

use mondo::rules::zendo::testing::flat::{EventKind, flat};
use mondo::rules::zendo::{Answer, PhaseView, StepView};
use mondo::rules::{GameKind, PlayerId, Viewer};
use mondo::runtime::{AnyEvent, AnyMatch, AnyView, Config, ManualTime, Runtime};
use mondo::store::{MatchId, ServerSettings, Status, Store};
use serde_json::{Value, json};

#[tokio::test]
async fn a_database_of_the_previous_schema_opens_and_its_live_duel_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    std::fs::copy("tests/data/store-v0.db", &path).unwrap();
    let store = Store::open(&path).await.unwrap();

    // Server-wide settings stay; the duel's move to its own row, as JSON.
    assert_eq!(
        store.server_settings(111).await.unwrap(),
        ServerSettings {
            host_role: Some(999),
            pool: Some("house".into()),
        }
    );
    let duel: Value =
        serde_json::from_str(&store.game_settings(111, "zendo-duel").await.unwrap()).unwrap();
    assert_eq!(
        duel,
        json!({"turn_ms": 120000, "challenge_ms": 20000, "guess_bonus_ms": 15000,
               "style": "varied"})
    );
    assert!(store.pool(111, "house").await.unwrap().is_some());

    // The live duel resumes with its challenge open, alice's answer kept secret.
    let time = ManualTime::new(0);
    let (runtime, recovery) = Runtime::<AnyMatch>::start(store, time.clone(), Config::default())
        .await
        .unwrap();
    assert_eq!(recovery.resumed, [MatchId(1)]);
    assert!(recovery.failed.is_empty(), "{:?}", recovery.failed);
    let record = runtime.store().record(MatchId(1)).await.unwrap().unwrap();
    assert_eq!(record.game(), Ok(GameKind::ZendoDuel));
    let (alice, bob) = (PlayerId(record.players[0]), PlayerId(record.players[1]));
    let view = runtime
        .view(MatchId(1), &Viewer::Player(bob))
        .await
        .unwrap();
    let AnyView::ZendoDuel(v) = &view else {
        panic!("a duel: {view:?}")
    };
    let PhaseView::Turn {
        step: StepView::Challenge {
            answered, yours, ..
        },
        ..
    } = &v.phase
    else {
        panic!("in a challenge: {:?}", v.phase)
    };
    assert_eq!((answered.values(), *yours), (&[true, false][..], None));
    assert_eq!(v.table.len(), 3);

    // Bob answers: the reveal pays alice (right: `2> 1<` has no piece pointing up).
    let mut feed = runtime
        .subscribe(MatchId(1), Viewer::Spectator)
        .await
        .unwrap();
    let ack = crate::runtime_zendo::answer(&runtime, MatchId(1), bob, Answer::Obeys).await;
    let updates = feed.until(ack.seq).await.unwrap();
    let revealed = updates
        .iter()
        .flat_map(|u| &u.events)
        .find_map(|(_, e)| match e {
            AnyEvent::ZendoDuel(e) => match flat(&e.kind) {
                EventKind::ChallengeRevealed { answers, obeys, .. } => Some((answers, obeys)),
                _ => None,
            },
            _ => None,
        })
        .expect("revealed");
    assert_eq!(revealed, ([Answer::Not, Answer::Obeys], false));
    let AnyView::ZendoDuel(v) = runtime
        .view(MatchId(1), &Viewer::Player(alice))
        .await
        .unwrap()
    else {
        panic!()
    };
    assert_eq!(v.tickets.values(), [1, 0]);
    // The finished practice is still there, over.
    let practice = runtime.store().record(MatchId(2)).await.unwrap().unwrap();
    assert_eq!(
        (practice.game(), practice.status),
        (Ok(GameKind::ZendoPractice), Status::Over)
    );
    runtime.shutdown().await.unwrap();
}
