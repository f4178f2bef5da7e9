//! Tournaments in a live process (docs/tournaments.md, "Deadlines, forfeits and the
//! host"): a round's deadline is armed on the runtime's game clock (a hand-driven one
//! here) and fires the forfeits of whoever did not make a move in the match opened for
//! their table; a match that ends is reported; the deadline is armed again after a
//! restart; on PostgreSQL only the process holding the tournament's lease fires it.

use crate::stores::TestDb;
use mondo::rules::zendo::{DuelMove, DuelSetup, Timing, ZendoMove};
use mondo::rules::{Actor, PlayerId};
use mondo::runtime::{
    AnyAction, AnyMatch, Change, Common, Config, ManualTime, Place, Runtime, Tournaments,
};
use mondo::tournament::{Act, Event, Format, Outcome, Settings, Tournament};
use std::sync::Arc;
use std::time::Duration;

const HOST: PlayerId = PlayerId(1);
const ALICE: PlayerId = PlayerId(101);
const CAROL: PlayerId = PlayerId(102);
const DAVE: PlayerId = PlayerId(103);
const BOB: PlayerId = PlayerId(104);
const HOUR: u64 = 3_600_000;

type Live = (Runtime<AnyMatch>, Tournaments<AnyMatch>);

async fn live(db: &TestDb, time: Arc<ManualTime>, config: Config) -> Live {
    let (runtime, _) = Runtime::<AnyMatch>::start(db.open().await, time, config)
        .await
        .unwrap();
    let tournaments = Tournaments::start(&runtime).await.unwrap();
    (runtime, tournaments)
}

async fn stop((runtime, tournaments): Live) {
    tournaments.stop().await;
    drop(tournaments);
    runtime.shutdown().await.unwrap();
}

/// A round robin of alice, carol, dave and bob (signed up in that order, unrated):
/// round 1 is alice v bob and carol v dave, an hour each round.
async fn round_robin(tournaments: &Tournaments<AnyMatch>) -> i64 {
    round_robin_of(tournaments, HOST).await
}

/// [`round_robin`], hosted by `host`.
async fn round_robin_of(tournaments: &Tournaments<AnyMatch>, host: PlayerId) -> i64 {
    let settings = Settings {
        format: Format::RoundRobin,
        game: "zendo-duel".into(),
        playoff_game: None,
        best_of: 1,
        round_ms: HOUR,
        signup_until: None,
        // No reminder: the timer armed is the deadline (the reminder's own test is
        // the Discord one).
        remind_ms: Some(0),
        ai_fill: None,
        channel: None,
    };
    let first = Tournament::create("Live Cup", host, settings, tournaments.now()).unwrap();
    let id = tournaments.create(Some(9), &first).await.unwrap();
    for (p, name) in [
        (ALICE, "alice"),
        (CAROL, "carol"),
        (DAVE, "dave"),
        (BOB, "bob"),
    ] {
        let join = Act::Join {
            player: p,
            name: name.into(),
        };
        tournaments.act(id, &join).await.unwrap();
    }
    let start = Act::Start {
        by: host,
        ratings: vec![],
        fill: Vec::new(),
    };
    tournaments.act(id, &start).await.unwrap();
    id
}

/// Opens a duel of `a` (the higher seed, with the advantage) and `b` for table
/// `table` of `round`, as a front does when the round opens.
async fn open_duel(live: &Live, id: i64, round: u32, table: usize) -> mondo::store::MatchId {
    let (runtime, tournaments) = live;
    let t = tournaments.load(id).await.unwrap().t;
    let tb = &t.rounds[round as usize - 1].tables[table];
    let (a, b) = (t.seats[tb.a].player, t.seats[tb.b.unwrap()].player);
    let setup = DuelSetup {
        players: [a, b],
        advantage: a,
        // Turns longer than the round: the match's own clock never runs while the
        // test moves time on.
        timing: Timing {
            turn_ms: 10 * HOUR,
            ..Default::default()
        },
        ..crate::runtime_zendo::setup()
    };
    let m = runtime
        .create(Place::default(), setup.into())
        .await
        .unwrap();
    let link = Act::Link {
        round,
        table,
        match_id: m.0,
    };
    tournaments.act(id, &link).await.unwrap();
    m
}

/// The advantage holder makes the first move of match `m`: they showed.
async fn choose_starter(runtime: &Runtime<AnyMatch>, m: mondo::store::MatchId, who: PlayerId) {
    runtime
        .act(
            m,
            Actor::Player(who),
            DuelMove::Zendo(ZendoMove::ChooseStarter { starter: who }).into(),
            None,
        )
        .await
        .unwrap();
}

/// Waits for the next change of tournament `id` holding an event `wanted` accepts.
async fn next_change(
    changes: &mut tokio::sync::broadcast::Receiver<Change>,
    id: i64,
    wanted: impl Fn(&Event) -> bool,
) -> Change {
    tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let c = changes.recv().await.unwrap();
            if c.id == id && c.events.iter().any(&wanted) {
                return c;
            }
        }
    })
    .await
    .expect("the tournament never changed so")
}

fn forfeits(c: &Change) -> Vec<(usize, Vec<PlayerId>)> {
    c.events
        .iter()
        .filter_map(|e| match e {
            Event::Forfeit { table, absent, .. } => Some((*table, absent.clone())),
            _ => None,
        })
        .collect()
}

fn is_forfeit(e: &Event) -> bool {
    matches!(e, Event::Forfeit { .. })
}

/// The deadline fires on the game clock: the one who moved in the match opened for
/// the table wins by forfeit, a table with no match is lost by both; the next round
/// opens and its deadline is armed. A pause takes the deadline away and a resume moves
/// it by the pause. After a restart the deadline is armed again from the store; a
/// match that ends is reported at the next look, and the deadline then forfeits the
/// rest.
#[tokio::test]
async fn round_deadlines_fire_on_the_game_clock_and_survive_a_restart() {
    let db = TestDb::sqlite();
    let time = ManualTime::new(0);
    let first = live(&db, time.clone(), Config::default()).await;
    let id = round_robin(&first.1).await;
    let t = first.1.load(id).await.unwrap().t;
    let r1 = &t.rounds[0];
    assert_eq!(first.1.armed(id), Some(r1.deadline));
    assert_eq!(r1.deadline, r1.opened_at + HOUR);
    let m = open_duel(&first, id, 1, 0).await;
    choose_starter(&first.0, m, ALICE).await;

    // Paused for ten minutes: no deadline meanwhile, then ten minutes later.
    first.1.act(id, &Act::Pause { by: HOST }).await.unwrap();
    assert_eq!(first.1.armed(id), None);
    time.advance(600_000);
    first.1.act(id, &Act::Resume { by: HOST }).await.unwrap();
    let deadline = r1.deadline + 600_000;
    assert_eq!(first.1.armed(id), Some(deadline));

    let mut changes = first.1.changes();
    time.advance(deadline - 1 - first.0.now());
    first.1.check(id).await.unwrap();
    let t = first.1.load(id).await.unwrap().t;
    assert!(!t.log.iter().any(is_forfeit), "not due yet");
    time.advance(1);
    let fired = next_change(&mut changes, id, is_forfeit).await;
    assert_eq!(
        forfeits(&fired),
        vec![(0, vec![BOB]), (1, vec![CAROL, DAVE])],
        "bob never moved in his match; carol and dave had none"
    );
    assert!(
        fired
            .events
            .iter()
            .any(|e| matches!(e, Event::RoundOpened { round: 2, .. })),
        "round 2 opens"
    );
    let t = first.1.load(id).await.unwrap().t;
    let r2 = t.rounds[1].clone();
    assert_eq!(r2.deadline, r2.opened_at + HOUR);
    assert_eq!(first.1.armed(id), Some(r2.deadline));
    stop(first).await;

    // A new process arms round 2's deadline from the store.
    let time = ManualTime::new(0);
    let second = live(&db, time.clone(), Config::default()).await;
    assert_eq!(second.1.armed(id), Some(r2.deadline));
    let mut changes = second.1.changes();
    let m = open_duel(&second, id, 2, 0).await;
    let a = t.seats[r2.tables[0].a].player;
    let b = t.seats[r2.tables[0].b.unwrap()].player;
    choose_starter(&second.0, m, a).await;
    second
        .0
        .act(m, Actor::Player(a), AnyAction::Common(Common::Resign), None)
        .await
        .unwrap();
    // Reported at the next look (or when a front asks).
    second.1.check(id).await.unwrap();
    let reported = next_change(&mut changes, id, |e| matches!(e, Event::MatchResult { .. })).await;
    assert!(
        matches!(
            &reported.events[0],
            Event::MatchResult { round: 2, table: 0, result: Outcome::Win { winner }, match_id: Some(x), .. }
                if *winner == b && *x == m.0
        ),
        "{:?}",
        reported.events
    );
    time.advance(r2.deadline - second.0.now());
    let fired = next_change(&mut changes, id, is_forfeit).await;
    assert_eq!(forfeits(&fired).len(), 1, "the other table: {fired:?}");
    let t = second.1.load(id).await.unwrap().t;
    assert_eq!(t.rounds.len(), 3);
    stop(second).await;
}

/// On one PostgreSQL database, the process holding a tournament's lease arms and
/// fires its deadline; another one leaves it alone while the lease lives, and takes it
/// once the first lets it go.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_only_the_lease_holder_fires_a_deadline() {
    let Some(db) = TestDb::postgres() else {
        return;
    };
    let config = Config {
        lease_ttl_ms: 60_000,
        ..Config::default()
    };
    let (t1, t2) = (ManualTime::new(0), ManualTime::new(0));
    let first = live(&db, t1.clone(), config).await;
    let id = round_robin(&first.1).await;
    let deadline = first.1.armed(id).expect("armed by its creator's process");
    let second = live(&db, t2.clone(), config).await;
    assert_eq!(second.1.armed(id), None, "the first holds the lease");
    let lease = second.0.store().tournament_lease(id).await.unwrap();
    assert_eq!(lease.map(|l| l.0).as_deref(), Some(first.0.owner()));

    // Both clocks past the deadline: the second, asked, fires nothing.
    t2.advance(deadline + 1 - second.0.now());
    second.1.check(id).await.unwrap();
    let log = |l: &Live| {
        let tournaments = l.1.clone();
        async move { tournaments.load(id).await.unwrap().t.log.len() }
    };
    let before = log(&second).await;
    assert!(
        !second
            .1
            .load(id)
            .await
            .unwrap()
            .t
            .log
            .iter()
            .any(is_forfeit)
    );

    // The first lets go (a deploy); the second takes the lease at its next look and
    // fires the deadline.
    let mut changes = second.1.changes();
    stop(first).await;
    second.1.check(id).await.unwrap();
    let fired = next_change(&mut changes, id, is_forfeit).await;
    assert_eq!(forfeits(&fired).len(), 2);
    assert!(log(&second).await > before);
    let lease = second.0.store().tournament_lease(id).await.unwrap();
    assert_eq!(lease.map(|l| l.0).as_deref(), Some(second.0.owner()));
    drop(t1);
    stop(second).await;
}

/// Settles table `table` of round 1 of tournament `id` as another program does (the
/// terminal): its event appended to the store, no process told.
async fn settle_elsewhere(db: &TestDb, id: i64, table: usize, winner: PlayerId) {
    let store = db.open().await;
    let t = crate::tournaments::read(&store, id).await;
    let settle = Act::Settle {
        by: HOST,
        round: 1,
        table,
        result: Outcome::Win { winner },
    };
    let now = store.game_clock().await.unwrap();
    let rows: Vec<String> = (t.act(&settle, now).unwrap().iter())
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    store
        .append_tournament(id, t.log.len() as u64, &rows)
        .await
        .unwrap();
    store.close().await;
}

/// A match still played at a table the host settles is ended, as its host would end
/// it: at once when the host settles through the process that runs it (Discord), and
/// when the host settled elsewhere (the terminal) while no process ran, as the next
/// process starts.
#[tokio::test]
async fn a_settled_tables_match_is_ended_wherever_the_host_settled_it() {
    let db = TestDb::sqlite();
    let first = live(&db, ManualTime::new(0), Config::default()).await;
    let id = round_robin(&first.1).await;
    let m0 = open_duel(&first, id, 1, 0).await;
    let m1 = open_duel(&first, id, 1, 1).await;
    choose_starter(&first.0, m0, ALICE).await;
    let settle = Act::Settle {
        by: HOST,
        round: 1,
        table: 0,
        result: Outcome::Win { winner: ALICE },
    };
    first.1.act(id, &settle).await.unwrap();
    assert!(first.0.is_over(m0).await.unwrap(), "ended with the settle");
    assert!(
        !first.0.is_over(m1).await.unwrap(),
        "the other table plays on"
    );
    stop(first).await;

    settle_elsewhere(&db, id, 1, CAROL).await;
    let second = live(&db, ManualTime::new(0), Config::default()).await;
    let record = second.0.store().record(m1).await.unwrap().unwrap();
    assert_eq!(
        record.status,
        mondo::store::Status::Over,
        "ended as it starts"
    );
    stop(second).await;
}

/// `mondo tournament settle` at the terminal on a table whose match is still played
/// (by a `mondo serve` not running now): the table is settled, and the terminal says
/// that match is still played and who ends it; a table without a match says nothing
/// more. The match itself is left to the process that runs it.
#[tokio::test]
async fn a_terminal_settle_says_when_the_tables_match_is_still_played() {
    let db = TestDb::sqlite();
    let path = db
        .location
        .sqlite_path()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    // The host as the terminal knows them, by name.
    let store = db.open().await;
    let host = PlayerId(store.local_player("host").await.unwrap());
    store.close().await;
    let first = live(&db, ManualTime::new(0), Config::default()).await;
    let id = round_robin_of(&first.1, host).await;
    let m = open_duel(&first, id, 1, 0).await;
    stop(first).await;
    let settle = |table: &str| {
        let id = id.to_string();
        let args = [
            "tournament",
            "settle",
            &id,
            "--round",
            "1",
            "--table",
            table,
            "--result",
            "draw",
            "--db",
            &path,
        ];
        let out = crate::store_ratings::mondo(&args);
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let said = settle("1");
    assert!(
        said.contains("round 1, table 1: a draw (settled by the host)"),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "match {} of that table is still played: the Mondo that runs it ends it",
            m.0
        )),
        "{said}"
    );
    let said = settle("2");
    assert!(
        said.contains("round 1, table 2: a draw (settled by the host)"),
        "{said}"
    );
    assert!(!said.contains("still played"), "no match there: {said}");
    let store = db.open().await;
    let record = store.record(m).await.unwrap().unwrap();
    assert_eq!(
        record.status,
        mondo::store::Status::Live,
        "left to its runner"
    );
    let t = crate::tournaments::read(&store, id).await;
    assert!(t.rounds[0].tables.iter().all(|tb| tb.decided.is_some()));
    store.close().await;
}
