//! A Zendo Duel on the runtime with a hand-driven clock: a challenge left pending across
//! a restart keeps its remaining time, and its time-out comes in as the engine expects;
//! a judgement under way never holds up the match.

use crate::stores;
use mondo::koan::{Koan, PieceSet};
use mondo::rules::zendo::testing::flat::{EventKind, flat};
use mondo::rules::zendo::{Answer, DuelMove, DuelSetup, Initial, Mode, ZendoMove};
use mondo::rules::{Actor, PlayerId, Viewer};
use mondo::runtime::{
    AnyAction, AnyEvent, AnyMatch, AnyView, Common, Config, ManualTime, Place, Runtime,
};
use std::time::Duration;

const ALICE: PlayerId = PlayerId(101);
const BOB: PlayerId = PlayerId(202);
const HOST: PlayerId = PlayerId(303);

fn koan(text: &str) -> Koan {
    Koan::parse_as(text, PieceSet::Pyramids).unwrap()
}

/// A duel between alice and bob (alice has the advantage).
pub(crate) fn setup() -> DuelSetup {
    DuelSetup {
        players: [ALICE, BOB],
        advantage: ALICE,
        hidden: mondo::lang::parse("some piece points up").unwrap(),
        initial: Initial {
            obeys: koan("1^"),
            does_not: koan("1>"),
        },
        settings: Default::default(),
        timing: Default::default(),
        seed: 5,
    }
}

fn challenge_left(view: &AnyView, now: u64) -> Option<u64> {
    let AnyView::ZendoDuel(d) = view else {
        return None;
    };
    match &d.phase {
        mondo::rules::zendo::PhaseView::Turn {
            step: mondo::rules::zendo::StepView::Challenge { clock, .. },
            ..
        } => Some(clock.remaining(now)),
        _ => None,
    }
}

/// `who` answers the open challenge in the duel `id`, and the runtime accepts it.
pub(crate) async fn answer(
    runtime: &Runtime<AnyMatch>,
    id: mondo::store::MatchId,
    who: PlayerId,
    answer: Answer,
) -> mondo::runtime::Ack {
    runtime
        .act(
            id,
            Actor::Player(who),
            DuelMove::Answer { answer }.into(),
            None,
        )
        .await
        .unwrap()
}

/// A runtime on the fresh store `db`, with a duel of [`setup`] created.
async fn duel(
    db: &stores::TestDb,
    time: &std::sync::Arc<ManualTime>,
) -> (Runtime<AnyMatch>, mondo::store::MatchId) {
    duel_on(db, time.clone(), Config::default()).await
}

/// [`duel`] on any time source, with `config`.
pub(crate) async fn duel_on(
    db: &stores::TestDb,
    time: std::sync::Arc<dyn mondo::runtime::TimeSource>,
    config: Config,
) -> (Runtime<AnyMatch>, mondo::store::MatchId) {
    let (runtime, _) = Runtime::<AnyMatch>::start(db.open().await, time, config)
        .await
        .unwrap();
    let id = runtime
        .create(Place::default(), setup().into())
        .await
        .unwrap();
    (runtime, id)
}

#[tokio::test]
async fn a_pending_challenge_survives_a_restart_with_its_time() {
    for db in stores::each() {
        let time = ManualTime::new(0);
        let (runtime, id) = duel(&db, &time).await;
        let a = Actor::Player(ALICE);
        runtime
            .act(
                id,
                a,
                DuelMove::Zendo(ZendoMove::ChooseStarter { starter: ALICE }).into(),
                None,
            )
            .await
            .unwrap();
        time.advance(20_000);
        runtime
            .act(
                id,
                a,
                DuelMove::Build {
                    koan: koan("2^ 3>"),
                    mode: Mode::Challenge,
                }
                .into(),
                None,
            )
            .await
            .unwrap();
        answer(&runtime, id, ALICE, Answer::Obeys).await;
        time.advance(12_000);
        let view = runtime.view(id, &Viewer::Spectator).await.unwrap();
        assert_eq!(challenge_left(&view, runtime.now()), Some(18_000));
        runtime.shutdown().await.unwrap();

        // Another process, a day later.
        let time = ManualTime::new(86_400_000);
        let store = db.open().await;
        let (runtime, recovery) =
            Runtime::<AnyMatch>::start(store, time.clone(), Config::default())
                .await
                .unwrap();
        assert_eq!(recovery.resumed, [id]);
        let view = runtime.view(id, &Viewer::Player(BOB)).await.unwrap();
        assert_eq!(challenge_left(&view, runtime.now()), Some(18_000));
        // Bob never sees Alice's answer before the reveal.
        let text = serde_json::to_string(&view).unwrap();
        assert!(
            text.contains("\"answered\":[true,false],\"yours\":null"),
            "{text}"
        );
        assert!(
            !text.contains("some piece points up"),
            "the hidden pattern leaked"
        );

        let mut feed = runtime.subscribe(id, Viewer::Player(BOB)).await.unwrap();
        time.advance(17_999);
        assert!(
            challenge_left(
                &runtime.view(id, &Viewer::Spectator).await.unwrap(),
                runtime.now()
            )
            .is_some()
        );
        time.advance(1);
        let update = tokio::time::timeout(Duration::from_secs(10), feed.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let revealed = update
            .events
            .iter()
            .find_map(|(_, e)| match e {
                AnyEvent::ZendoDuel(e) => match flat(&e.kind) {
                    EventKind::ChallengeRevealed {
                        answers,
                        obeys,
                        time_up,
                    } => Some((answers, obeys, time_up)),
                    _ => None,
                },
                _ => None,
            })
            .expect("the challenge is revealed at its time-out");
        assert_eq!(revealed, ([Answer::Obeys, Answer::Pass], true, true));
        // Every event is in the log, in order, and the log replays to the same match.
        let stored = runtime.store().events(id).await.unwrap();
        assert_eq!(stored.last().unwrap().seq, update.seq);
        runtime.shutdown().await.unwrap();
    }
}

/// The name of each stored event of a match, in order.
async fn logged(runtime: &Runtime<AnyMatch>, id: mondo::store::MatchId) -> Vec<String> {
    let stored = runtime.store().events(id).await.unwrap();
    stored
        .iter()
        .map(|e| {
            let v: serde_json::Value = serde_json::from_str(&e.body).unwrap();
            v["event"].as_str().unwrap_or("?").to_string()
        })
        .collect()
}

/// One guess never freezes a match. The umpire's judgement runs off the
/// match's task, so a host's `end` is answered while a verdict is still being worked
/// out. The blocking pool is given one thread, held by the test, so the judgement is
/// certainly still under way when the host acts (whatever the machine's speed); the
/// log shows the match ended with the guess confirmed and no verdict before the end.
#[test]
fn host_end_is_not_blocked_by_a_judgement_under_way() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .max_blocking_threads(1)
        .build()
        .unwrap();
    rt.block_on(async {
        let db = stores::TestDb::sqlite();
        let time = ManualTime::new(0);
        let (runtime, id) = duel(&db, &time).await;
        let (a, b) = (Actor::Player(ALICE), Actor::Player(BOB));
        let moves = [
            (
                a,
                DuelMove::Zendo(ZendoMove::ChooseStarter { starter: ALICE }),
            ),
            (
                a,
                DuelMove::Build {
                    koan: koan("2^ 3>"),
                    mode: Mode::Challenge,
                },
            ),
            (
                a,
                DuelMove::Answer {
                    answer: Answer::Obeys,
                },
            ),
            // Bob is wrong: Alice earns a ticket and goes on to guess.
            (
                b,
                DuelMove::Answer {
                    answer: Answer::Not,
                },
            ),
        ];
        for (who, m) in moves {
            runtime.act(id, who, m.into(), None).await.unwrap();
        }
        // The only blocking thread is busy: the finder's job will wait behind it.
        let (release, held) = std::sync::mpsc::channel::<()>();
        let blocker = tokio::task::spawn_blocking(move || {
            let _ = held.recv();
        });
        let guess =
            mondo::lang::parse("some piece points up, or there are at least 5 pieces").unwrap();
        runtime
            .act(id, a, DuelMove::Guess { pattern: guess }.into(), None)
            .await
            .unwrap();
        runtime
            .act(id, a, DuelMove::Zendo(ZendoMove::Confirm).into(), None)
            .await
            .unwrap();
        let end = runtime.act(id, Actor::Host(HOST), AnyAction::Common(Common::End), None);
        tokio::time::timeout(Duration::from_secs(30), end)
            .await
            .expect("host: end waited behind the judgement")
            .unwrap();
        let log = logged(&runtime, id).await;
        let confirmed = log.iter().position(|e| e == "guess_confirmed");
        let ended = log.iter().position(|e| e == "match_ended");
        assert!(
            confirmed.is_some() && ended == Some(log.len() - 1),
            "{log:?}"
        );
        assert!(
            !log.iter()
                .any(|e| e == "refuted" || e == "guess_undecided" || e == "undecided"),
            "the verdict came before the end: {log:?}"
        );
        let view = runtime.view(id, &Viewer::Spectator).await.unwrap();
        let text = serde_json::to_string(&view).unwrap();
        assert!(
            text.contains("some piece points up"),
            "not revealed: {text}"
        );
        release.send(()).unwrap();
        blocker.await.unwrap();
        runtime.shutdown().await.unwrap();
    });
}

/// While the bot's Discord connection is lost nobody can move, so
/// once it is back the outage is given back to every live duel: the turn clock shows
/// what it showed when the connection was lost, however long that took.
#[tokio::test]
async fn a_discord_outage_is_given_back_to_the_turn_clock() {
    for db in stores::each() {
        let time = ManualTime::new(0);
        let (runtime, id) = duel(&db, &time).await;
        let starter = DuelMove::Zendo(ZendoMove::ChooseStarter { starter: ALICE }).into();
        runtime
            .act(id, Actor::Player(ALICE), starter, None)
            .await
            .unwrap();
        time.advance(20_000);
        let turn_left = |view: AnyView, now| match view {
            AnyView::ZendoDuel(d) => d.clock.remaining(now),
            other => panic!("{other:?}"),
        };
        let spectator = Viewer::Spectator;
        let before = turn_left(runtime.view(id, &spectator).await.unwrap(), runtime.now());
        let since = runtime.now();
        time.advance(100_000);
        assert_eq!(mondo::bot::outage::give_back(&runtime, since).await, 1);
        let after = turn_left(runtime.view(id, &spectator).await.unwrap(), runtime.now());
        assert_eq!(after, before, "the outage is not counted");
        time.advance(5_000);
        let later = turn_left(runtime.view(id, &spectator).await.unwrap(), runtime.now());
        assert_eq!(later, before - 5_000, "and the clock runs on");
        runtime.shutdown().await.unwrap();
    }
}

/// Every game with clocks (Duel, Triple, Classic, Pattern Assembly, Logical Bluffs):
/// when its next deadline passes and the store cannot take the time-out (a full
/// disk), the match waits with its state as the log says, the players hear why, and
/// the time-out is recorded once the store takes writes again. (Such a time-out used
/// to be dropped for good: the duel stayed at `turn_left_ms: 0`, Assembly in its
/// reveal, Bluffs in its phase.)
#[tokio::test]
async fn every_clocked_game_waits_out_a_store_that_cannot_take_its_time_out() {
    use mondo::play::Cast;
    use mondo::play::games::zendo::Source;
    use mondo::runtime::{AnySetup, Engine};
    use mondo::store::Fault;
    for db in stores::each() {
        let time = ManualTime::new(0);
        let store = db.open().await;
        let (runtime, _) =
            Runtime::<AnyMatch>::start(store.clone(), time.clone(), Config::default())
                .await
                .unwrap();
        let two = Cast::table(&store, &["alice", "bob"], Some("host"))
            .await
            .unwrap();
        let three = Cast::table(&store, &["alice", "bob", "carol"], Some("host"))
            .await
            .unwrap();
        let pattern = Source::Pattern("some piece points up");
        let triple = [
            "some piece points up",
            "some piece points right",
            "some piece points left",
        ]
        .map(String::from);
        let setups: Vec<(&str, AnySetup)> = vec![
            (
                "duel",
                mondo::play::games::zendo::duel::duel_setup(
                    &two,
                    pattern,
                    1,
                    None,
                    Default::default(),
                    Default::default(),
                )
                .unwrap()
                .into(),
            ),
            (
                "triple",
                mondo::play::games::zendo::triple::triple_setup(
                    &two,
                    &triple,
                    &mondo::pool::Pool::shipped(PieceSet::Arrows),
                    1,
                    None,
                    Default::default(),
                )
                .unwrap()
                .into(),
            ),
            (
                "classic",
                mondo::play::games::zendo::classic::classic_setup(
                    &three,
                    pattern,
                    1,
                    Default::default(),
                    Default::default(),
                    None,
                )
                .unwrap()
                .into(),
            ),
            (
                "assembly",
                AnySetup::Assembly(mondo::play::games::assembly::assembly_setup(
                    &two,
                    1,
                    mondo::rules::assembly::Settings::original(),
                )),
            ),
            (
                "bluffs",
                AnySetup::Bluffs(
                    mondo::play::games::bluffs::bluffs_setup(&two, 1, Default::default()).unwrap(),
                ),
            ),
        ];
        for (game, setup) in setups {
            let id = runtime.create(Place::default(), setup).await.unwrap();
            let mut feed = runtime.subscribe(id, Viewer::Spectator).await.unwrap();
            let agree = |what: &str| {
                let (runtime, store, game, what) = (&runtime, &store, game, what.to_string());
                async move {
                    let record = store.record(id).await.unwrap().unwrap();
                    let events: Vec<AnyEvent> = store
                        .events(id)
                        .await
                        .unwrap()
                        .iter()
                        .map(|e| AnyMatch::decode(&record.kind, &e.body).unwrap())
                        .collect();
                    let stored = AnyMatch::replay(&record.kind, &events).unwrap();
                    let live = runtime.view(id, &Viewer::Spectator).await.unwrap();
                    assert_eq!(
                        format!("{live:?}"),
                        format!("{:?}", stored.view(&Viewer::Spectator)),
                        "{game}, {what}: the engine and the store disagree"
                    );
                }
            };
            // Anything the match does at once (a first reveal) goes first.
            while let Ok(Some(_)) =
                tokio::time::timeout(Duration::from_millis(300), feed.next()).await
            {}
            let at = runtime
                .deadline(id)
                .await
                .unwrap()
                .unwrap_or_else(|| panic!("{game}: no clock running at the start"));
            let seq = store.record(id).await.unwrap().unwrap().last_seq;
            store.inject([Fault::Full]);
            time.advance(at - runtime.now());
            let u = tokio::time::timeout(Duration::from_secs(10), feed.next())
                .await
                .unwrap_or_else(|_| panic!("{game}: nothing said"))
                .unwrap()
                .unwrap();
            let notice = u.notice.unwrap_or_else(|| panic!("{game}: no notice"));
            assert_eq!(notice.what, "time-out", "{game}");
            assert_eq!(store.record(id).await.unwrap().unwrap().last_seq, seq);
            agree("waiting").await;
            assert_eq!(runtime.deadline(id).await.unwrap(), Some(at), "{game}");
            // Tried again a second later: recorded.
            time.advance(1_000);
            let u = tokio::time::timeout(Duration::from_secs(10), feed.next())
                .await
                .unwrap_or_else(|_| panic!("{game}: the time-out never came"))
                .unwrap()
                .unwrap();
            assert!(u.notice.is_none() && !u.events.is_empty(), "{game}");
            assert!(
                store.record(id).await.unwrap().unwrap().last_seq > seq,
                "{game}: recorded"
            );
            agree("after").await;
        }
        runtime.shutdown().await.unwrap();
    }
}
