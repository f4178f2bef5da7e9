//! Ratings in the store: moved in the transaction of a match's last event (never twice,
//! not even across a restart), and made again from the logs by a rebuild with the same
//! numbers, here on 1,000 random matches of every game.

use mondo::koan::{Koan, PieceSet};
use mondo::ratings::BoardSettings;
use mondo::rules::zendo::testing::Harness;
use mondo::rules::zendo::{DuelMove, DuelSetup, Initial, PracticeSetup, ZendoMove};
use mondo::rules::{Action, Actor, Finish, Game, PlayerId};
use mondo::runtime::{
    AnyAction, AnyMatch, Common, Config, ManualTime, Place, Runtime, rebuild_ratings,
};
use mondo::store::{Durability, MatchId, NewEvent, NewMatch, Store};
use rand::{RngExt, SeedableRng};
use serde::Serialize;

pub(crate) fn koan(text: &str) -> Koan {
    Koan::parse_as(text, PieceSet::Pyramids).unwrap()
}

/// The rules' test duel between `a` and `b` (`b` has the advantage).
pub(crate) fn duel_setup(a: PlayerId, b: PlayerId, seed: u64) -> DuelSetup {
    use mondo::rules::zendo::testing::{duel_setup, parsed};
    let mut setup = duel_setup(parsed("some piece points up"));
    (setup.players, setup.advantage, setup.seed) = ([a, b], b, seed);
    setup
}

fn rows<E: Serialize>(events: &[mondo::rules::Event<E>]) -> Vec<NewEvent> {
    events
        .iter()
        .map(|e| NewEvent {
            at: e.at,
            body: serde_json::to_string(e).unwrap(),
        })
        .collect()
}

/// Stores a real log: the created event, then `later` as one append that ends it.
pub(crate) async fn store_log<G: Game>(
    store: &Store,
    kind: &str,
    guild: Option<u64>,
    game: &G,
    created: &mondo::rules::Event<G::Event>,
    later: &[mondo::rules::Event<G::Event>],
) -> MatchId
where
    G::Event: Serialize,
{
    let players: Vec<u64> = game.players().iter().map(|p| p.0).collect();
    let first = &rows(std::slice::from_ref(created))[0];
    let id = store
        .create_match(
            &NewMatch {
                kind,
                guild,
                channel: None,
                seed: game.seed(),
                settings: "{}",
                players: &players,
            },
            first,
        )
        .await
        .unwrap();
    store
        .append_ending(id, 1, rows(later), game.is_over(), game.finish())
        .await
        .unwrap();
    id
}

/// A duel between `a` and `b`: `b` (the advantage) lets `a` start, then `loser`
/// resigns, or a host ends it (`None`: no result).
pub(crate) async fn duel(
    store: &Store,
    guild: Option<u64>,
    a: PlayerId,
    b: PlayerId,
    loser: Option<PlayerId>,
    t: u64,
) -> MatchId {
    let (mut g, created) =
        <mondo::rules::zendo::Duel as Game>::start(duel_setup(a, b, t), t).unwrap();
    let mut later = g
        .play(
            &Actor::Player(b),
            &Action::Move(DuelMove::Zendo(ZendoMove::ChooseStarter { starter: a })),
            t + 1,
        )
        .unwrap();
    // The starter plays (so both have acted: a resignation is then a loss, not an
    // abort).
    later.extend(
        g.play(&Actor::Player(a), &Action::Move(DuelMove::Skip), t + 1)
            .unwrap(),
    );
    let (actor, action) = match loser {
        Some(p) => (Actor::Player(p), Action::Resign),
        None => (Actor::Host(PlayerId(999)), Action::End),
    };
    later.extend(g.play(&actor, &action, t + 2).unwrap());
    assert!(g.is_over());
    store_log(store, "zendo-duel", guild, &g, &created, &later).await
}

/// A practice the player gives up after building `builds` structures.
pub(crate) async fn practice(store: &Store, guild: Option<u64>, p: PlayerId, t: u64) -> MatchId {
    use mondo::rules::zendo::PracticeMove;
    let setup = PracticeSetup {
        player: p,
        hidden: mondo::lang::parse("some piece points up").unwrap(),
        initial: Initial {
            obeys: koan("1^"),
            does_not: koan("1>"),
        },
        settings: Default::default(),
        seed: t,
    };
    let (mut g, created) = <mondo::rules::zendo::Practice as Game>::start(setup, t).unwrap();
    let mut later = g
        .play(
            &Actor::Player(p),
            &Action::Move(PracticeMove::Build { koan: koan("2^") }),
            t + 5,
        )
        .unwrap();
    later.extend(g.play(&Actor::Player(p), &Action::Resign, t + 9).unwrap());
    store_log(store, "zendo-practice", guild, &g, &created, &later).await
}

/// Everything the ratings say about these players on these servers.
pub(crate) async fn snapshot(store: &Store, servers: &[u64], players: &[u64]) -> String {
    let mut out = String::new();
    for &s in servers {
        for &p in players {
            for r in store.ratings_of(s, p, None).await.unwrap() {
                out += &format!("{r:?}\n");
            }
            for r in store.solo_records(s, p).await.unwrap() {
                out += &format!("{r:?}\n");
            }
            for h in store.history(s, p, 10_000).await.unwrap() {
                out += &format!("{h:?}\n");
            }
        }
    }
    out
}

#[tokio::test]
async fn a_finished_match_is_rated_once_with_its_last_event_even_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rated.db");
    let (alice, bob) = (PlayerId(101), PlayerId(202));
    let time = ManualTime::new(0);
    let id = {
        let store = Store::open(&path).await.unwrap();
        let (runtime, _) =
            Runtime::<AnyMatch>::start(store.clone(), time.clone(), Config::default())
                .await
                .unwrap();
        let id = runtime
            .create(Place::default(), duel_setup(alice, bob, 5).into())
            .await
            .unwrap();
        let choose = DuelMove::Zendo(ZendoMove::ChooseStarter { starter: alice });
        runtime
            .act(id, Actor::Player(bob), choose.into(), None)
            .await
            .unwrap();
        // Not over yet: nothing rated.
        assert!(store.ratings_of(0, alice.0, None).await.unwrap().is_empty());
        runtime
            .act(
                id,
                Actor::Player(bob),
                AnyAction::Common(Common::Resign),
                None,
            )
            .await
            .unwrap();
        runtime.shutdown().await.unwrap();
        store.close().await;
        id
    };
    // Started again twice over the same log: the match is over, its rating is not
    // made again.
    for _ in 0..2 {
        let store = Store::open(&path).await.unwrap();
        let (runtime, _) =
            Runtime::<AnyMatch>::start(store.clone(), time.clone(), Config::default())
                .await
                .unwrap();
        let a = store
            .ratings_of(0, alice.0, Some("zendo-duel"))
            .await
            .unwrap();
        let b = store
            .ratings_of(0, bob.0, Some("zendo-duel"))
            .await
            .unwrap();
        assert_eq!((a.len(), b.len()), (1, 1));
        assert_eq!((a[0].games, a[0].wins, a[0].losses), (1, 1, 0));
        assert_eq!((b[0].games, b[0].wins, b[0].losses), (1, 0, 1));
        assert_eq!(a[0].last_match, id);
        // Glicko-2 from the defaults: 1500/350 beats 1500/350.
        assert_eq!(
            (a[0].rating.round(), a[0].deviation.round()),
            (1662.0, 290.0)
        );
        assert_eq!(b[0].rating.round(), 1338.0);
        assert!(a[0].is_provisional());
        assert_eq!(a[0].shown(), "1662?");
        let history = store.history(0, alice.0, 10).await.unwrap();
        assert_eq!(history.len(), 1);
        assert_eq!(history[0].result, Some(mondo::ratings::Result::Win));
        runtime.shutdown().await.unwrap();
        store.close().await;
    }
}

#[tokio::test]
async fn declined_host_ended_and_practice_matches_are_not_rated() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_with(dir.path().join("void.db"), Durability::Process)
        .await
        .unwrap();
    let (a, b) = (PlayerId(1), PlayerId(2));
    duel(&store, None, a, b, None, 10).await;
    // Declined: the advantage leaves before choosing who starts.
    let (mut g, created) =
        <mondo::rules::zendo::Duel as Game>::start(duel_setup(a, b, 3), 20).unwrap();
    let later = g.play(&Actor::Player(b), &Action::Resign, 21).unwrap();
    assert_eq!(
        g.finish(),
        Some(Finish::Unrated(mondo::rules::Why::Declined { by: b }))
    );
    store_log(&store, "zendo-duel", None, &g, &created, &later).await;
    assert!(store.ratings_of(0, a.0, None).await.unwrap().is_empty());
    assert!(store.ratings_of(0, b.0, None).await.unwrap().is_empty());
    // Practice: a record, no rating.
    practice(&store, None, a, 30).await;
    assert!(store.ratings_of(0, a.0, None).await.unwrap().is_empty());
    let solo = store.solo_records(0, a.0).await.unwrap();
    assert_eq!(solo.len(), 1);
    assert_eq!(
        (solo[0].played, solo[0].solved, solo[0].score_total),
        (1, 0, 1)
    );
    assert_eq!(solo[0].total_ms, 9);
    // The three are in the history, none with a result.
    let history = store.history(0, a.0, 10).await.unwrap();
    assert_eq!(history.len(), 3);
    assert!(history.iter().all(|h| h.result.is_none()));
    store.close().await;
}

/// A finished match of `G` played in a harness: its created event, then the rest
/// ending it (as one append).
pub(crate) async fn store_harness<G: Game>(
    store: &Store,
    kind: &str,
    guild: Option<u64>,
    h: &Harness<G>,
) -> MatchId
where
    G::Event: Serialize,
{
    assert!(h.game.is_over(), "{kind} is not over");
    store_log(store, kind, guild, &h.game, &h.log[0], &h.log[1..]).await
}

/// A Triple between `a` and `b` (`a` starts) that `loser` resigns after the start.
pub(crate) async fn triple(
    store: &Store,
    guild: Option<u64>,
    a: PlayerId,
    b: PlayerId,
    loser: PlayerId,
    seed: u64,
) -> MatchId {
    let mut h = triple_started(a, b, seed);
    // Both play a turn (ending it at once), then `loser` resigns.
    h.ok(Actor::Player(a), ZendoMove::EndTurn);
    h.ok(Actor::Player(b), ZendoMove::EndTurn);
    h.ok(Actor::Player(loser), Action::Resign);
    store_harness(store, "zendo-triple", guild, &h).await
}

/// A Triple between `a` and `b` (`a` starts) on arrows, its patterns some piece
/// pointing up, right and left.
pub(crate) fn triple_started(
    a: PlayerId,
    b: PlayerId,
    seed: u64,
) -> Harness<mondo::rules::zendo::triple::Triple> {
    use mondo::rules::zendo::triple::{Triple, TripleOpening, TripleSetup, TripleTiming};
    let parse = |t: &str| mondo::lang::parse(t).unwrap();
    let arrows = |t: &str| Koan::parse_as(t, PieceSet::Arrows).unwrap();
    Harness::<Triple>::new(TripleSetup {
        players: [a, b],
        starter: Some(a),
        advantage: None,
        hidden: Box::new([
            parse("some piece points up"),
            parse("some piece points right"),
            parse("some piece points left"),
        ]),
        opening: Box::new(TripleOpening {
            all: arrows("URL"),
            fewest: arrows("D"),
            separators: [arrows("U"), arrows("U"), arrows("R")],
        }),
        settings: mondo::rules::zendo::Settings {
            set: PieceSet::Arrows,
            ..Default::default()
        },
        timing: TripleTiming::default(),
        seed,
    })
}

/// Pattern Assembly: two players, `loser` resigns; or one player practising alone
/// who gives up (`b` is `None`).
pub(crate) async fn assembly(
    store: &Store,
    guild: Option<u64>,
    a: PlayerId,
    b: Option<PlayerId>,
    seed: u64,
) -> MatchId {
    let players: Vec<PlayerId> = std::iter::once(a).chain(b).collect();
    let mut h = assembly_started(players, mondo::rules::assembly::Settings::original(), seed);
    if b.is_some() {
        // Round 1 (after the first reveal): both answer, then the second resigns.
        while h
            .act(Actor::Player(a), assembly_answer("A1-A2-A3"))
            .is_err()
        {
            h.run_out();
        }
        h.ok(Actor::Player(b.unwrap_or(a)), assembly_answer("A1-A2-A3"));
    }
    h.ok(Actor::Player(b.unwrap_or(a)), Action::Resign);
    store_harness(store, "pattern-assembly", guild, &h).await
}

/// Pattern Assembly (or Plus, by `settings`) for `players`.
pub(crate) fn assembly_started(
    players: Vec<PlayerId>,
    settings: mondo::rules::assembly::Settings,
    seed: u64,
) -> Harness<mondo::rules::assembly::Assembly> {
    use mondo::rules::assembly::{Assembly, AssemblySetup};
    Harness::<Assembly>::new(AssemblySetup {
        players,
        seed,
        settings,
    })
}

/// An answer naming `cells` on the classic grid.
pub(crate) fn assembly_answer(cells: &str) -> mondo::rules::assembly::AssemblyMove {
    mondo::rules::assembly::AssemblyMove::Answer {
        cells: mondo::grid::Dims::CLASSIC.group(cells).unwrap(),
        sent: None,
    }
}

/// Logical Bluffs between `a` and `b`; `loser` resigns.
pub(crate) async fn bluffs(
    store: &Store,
    guild: Option<u64>,
    a: PlayerId,
    b: PlayerId,
    loser: PlayerId,
    seed: u64,
) -> MatchId {
    let mut h = bluffs_started(a, b, seed);
    // Both bluff, then `loser` resigns.
    for (p, subset) in [(a, "A1-A2-B1-B2"), (b, "C3-C4-D3-D4")] {
        h.ok(Actor::Player(p), bluff(subset));
    }
    h.ok(Actor::Player(loser), Action::Resign);
    store_harness(store, "logical-bluffs", guild, &h).await
}

/// Logical Bluffs between `a` and `b`, with the default settings.
pub(crate) fn bluffs_started(
    a: PlayerId,
    b: PlayerId,
    seed: u64,
) -> Harness<mondo::rules::bluffs::BluffsMatch> {
    use mondo::rules::bluffs::{BluffsMatch, Setup};
    Harness::<BluffsMatch>::new(Setup {
        players: [a, b],
        seed,
        settings: Default::default(),
    })
}

/// A bluff on `subset`: one statement per colour, "There is a COLOUR tile."
pub(crate) fn bluff(subset: &str) -> mondo::rules::bluffs::Move {
    let statements = mondo::lang::tiles::Colour::ALL
        .iter()
        .map(|c| format!("There is a {} tile.", c.name()))
        .collect();
    mondo::rules::bluffs::Move::Bluff {
        subset: subset.into(),
        statements,
        no_limit: false,
        smokescreen: None,
    }
}

/// Zendo Classic with `students` (2 or more): the first calls mondo on a structure
/// that obeys, everyone answers right, and the first guesses the rule: solved, the
/// first student wins and the rest are tied behind.
pub(crate) async fn classic(
    store: &Store,
    guild: Option<u64>,
    students: Vec<PlayerId>,
    seed: u64,
) -> MatchId {
    use mondo::rules::zendo::Answer;
    use mondo::rules::zendo::classic::{Call, ClassicMove};
    let rule = "some piece points up";
    let mut h = classic_started(students.clone(), seed);
    let first = Actor::Player(students[0]);
    let k = h.fresh(true);
    h.ok(
        first,
        ClassicMove::Build {
            koan: k,
            call: Call::Mondo,
        },
    );
    for s in &students {
        h.ok(
            Actor::Player(*s),
            ClassicMove::Answer {
                answer: Answer::Obeys,
            },
        );
    }
    h.ok(
        first,
        ClassicMove::Guess {
            pattern: mondo::lang::parse(rule).unwrap(),
        },
    );
    h.ok(first, ZendoMove::Confirm);
    h.umpire();
    store_harness(store, "zendo-classic", guild, &h).await
}

/// Zendo Classic with `students` and no master, its rule "some piece points up".
pub(crate) fn classic_started(
    students: Vec<PlayerId>,
    seed: u64,
) -> Harness<mondo::rules::zendo::classic::Classic> {
    use mondo::rules::zendo::classic::{Classic, ClassicSetup, ClassicTiming};
    Harness::<Classic>::new(ClassicSetup {
        students,
        master: None,
        hidden: mondo::lang::parse("some piece points up").unwrap(),
        initial: Initial {
            obeys: koan("1^"),
            does_not: koan("1>"),
        },
        settings: Default::default(),
        timing: ClassicTiming::default(),
        seed,
        lobby: None,
    })
}

/// Rebuilt from the logs, the ratings, records and histories are the incremental ones,
/// on 1,000 random matches of every game: Duels (some ended by a host), Triples,
/// Pattern Assembly with two players and alone, Logical Bluffs, Classic games of 2-4
/// students (Weng-Lin) and Zendo practice, on the terminal and on a server.
#[tokio::test]
async fn rebuild_gives_the_incremental_numbers_on_a_thousand_random_matches() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_with(dir.path().join("many.db"), Durability::Process)
        .await
        .unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(29);
    let players: Vec<u64> = (1..=12).collect();
    let servers = [0u64, 7];
    for i in 0..1_000u64 {
        let guild = if rng.random_bool(0.5) { None } else { Some(7) };
        let a = PlayerId(rng.random_range(1..=12));
        let other = |rng: &mut rand::rngs::StdRng, not: &[PlayerId]| {
            PlayerId(loop {
                let b = rng.random_range(1..=12);
                if !not.iter().any(|p| p.0 == b) {
                    break b;
                }
            })
        };
        let b = other(&mut rng, &[a]);
        let loser = if rng.random_bool(0.5) { a } else { b };
        let t = i * 100;
        match rng.random_range(0..12) {
            0 => {
                practice(&store, guild, a, t).await;
            }
            1 => {
                duel(&store, guild, a, b, None, t).await;
            }
            2..=3 => {
                duel(&store, guild, a, b, Some(loser), t).await;
            }
            4..=5 => {
                triple(&store, guild, a, b, loser, t).await;
            }
            6 => {
                assembly(&store, guild, a, Some(b), t).await;
            }
            7 => {
                assembly(&store, guild, a, None, t).await;
            }
            8..=9 => {
                bluffs(&store, guild, a, b, loser, t).await;
            }
            _ => {
                let mut students = vec![a, b];
                for _ in 0..rng.random_range(0..=2) {
                    let c = other(&mut rng, &students);
                    students.push(c);
                }
                classic(&store, guild, students, t).await;
            }
        }
    }
    let incremental = snapshot(&store, &servers, &players).await;
    // Every rated game has ratings, and both solo games records.
    for game in [
        "zendo-duel",
        "zendo-triple",
        "pattern-assembly",
        "logical-bluffs",
        "zendo-classic",
    ] {
        assert!(
            incremental.contains(&format!("RatingRow {{ server: 7, game: \"{game}\"")),
            "{game} is not rated: {incremental}"
        );
    }
    for game in ["zendo-practice", "pattern-assembly"] {
        assert!(
            incremental.contains(&format!("SoloRecord {{ game: \"{game}\"")),
            "{game} has no solo record"
        );
    }
    // Classic is rated by Weng-Lin (no volatility), the rest by Glicko-2.
    let rows = |game: &str| {
        incremental
            .lines()
            .filter(|l| l.starts_with("RatingRow") && l.contains(&format!("game: \"{game}\"")))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert!(
        rows("zendo-classic")
            .iter()
            .all(|l| l.contains("volatility: 0.0,"))
    );
    assert!(
        rows("logical-bluffs")
            .iter()
            .all(|l| !l.contains("volatility: 0.0,"))
    );
    let boards = |store: &Store| {
        let store = store.clone();
        async move {
            let mut out = Vec::new();
            for server in servers {
                out.push(
                    store
                        .leaderboard(server, None, &BoardSettings::default(), 100)
                        .await
                        .unwrap(),
                );
            }
            out
        }
    };
    let board = boards(&store).await;
    let (rebuilt, unreadable) = rebuild_ratings::<AnyMatch>(&store).await.unwrap();
    assert!(unreadable.is_empty(), "{unreadable:?}");
    assert_eq!(rebuilt.matches, 1_000);
    assert!(rebuilt.solo > 0 && rebuilt.rated > 500, "{rebuilt:?}");
    assert_eq!(snapshot(&store, &servers, &players).await, incremental);
    assert_eq!(boards(&store).await, board);
    store.close().await;
}

#[tokio::test]
async fn the_leaderboard_lists_settled_regular_recent_players_best_first() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_with(dir.path().join("board.db"), Durability::Process)
        .await
        .unwrap();
    let (a, b, c) = (PlayerId(1), PlayerId(2), PlayerId(3));
    // a beats b two games in three, 30 games: both settle below 110; c plays 4
    // games only.
    for i in 0..30 {
        let loser = if i % 3 == 0 { a } else { b };
        duel(&store, Some(5), a, b, Some(loser), i * 10).await;
    }
    for i in 0..4 {
        duel(&store, Some(5), c, b, Some(b), 1_000 + i * 10).await;
    }
    let settings = BoardSettings::default();
    let board = store.leaderboard(5, None, &settings, 10).await.unwrap();
    let who: Vec<u64> = board.iter().map(|r| r.player).collect();
    assert_eq!(who, [a.0, b.0], "{board:?}");
    assert!(board[0].rating > board[1].rating);
    assert!(
        board
            .iter()
            .all(|r| r.deviation < 110.0 && r.game == "zendo-duel")
    );
    // Four games are enough when the server says so, and a deviation under 300.
    let loose = BoardSettings {
        min_games: 4,
        max_deviation: 300.0,
        ..settings
    };
    let board = store.leaderboard(5, None, &loose, 10).await.unwrap();
    assert_eq!(board.len(), 3, "{board:?}");
    // Another server's board is empty.
    assert!(
        store
            .leaderboard(6, None, &loose, 10)
            .await
            .unwrap()
            .is_empty()
    );
    store.close().await;
}

/// A row of `mondo stats --json` or `mondo leaderboard --json` has exactly the fields
/// docs/ratings.md promises.
fn assert_json_fields(row: &serde_json::Value) {
    assert_eq!(keys(row), crate::records_contracts::RATING_ROW);
}

/// A JSON object's keys, sorted.
pub(crate) fn keys(row: &serde_json::Value) -> Vec<&str> {
    let mut keys: Vec<&str> = row
        .as_object()
        .expect("an object")
        .keys()
        .map(|k| k.as_str())
        .collect();
    keys.sort_unstable();
    keys
}

pub(crate) fn mondo(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(args)
        .output()
        .expect("the mondo binary runs")
}

#[tokio::test]
async fn stats_leaderboard_and_rebuild_at_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cli.db");
    let db = path.to_str().unwrap();
    {
        let store = Store::open(&path).await.unwrap();
        let alice = PlayerId(store.local_player("alice").await.unwrap());
        let bob = PlayerId(store.local_player("bob").await.unwrap());
        for i in 0..6 {
            let loser = if i == 2 { alice } else { bob };
            duel(&store, None, alice, bob, Some(loser), i * 10).await;
        }
        store.close().await;
    }
    let stats = mondo(&["stats", "Alice", "--json", "--db", db]);
    assert!(stats.status.success(), "{stats:?}");
    let json: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!(json["player"], "alice");
    let row = &json["ratings"][0];
    assert_json_fields(row);
    assert_eq!(row["player"], "alice");
    assert_eq!(row["game"], "zendo-duel");
    assert_eq!(
        (row["games"].as_u64(), row["wins"].as_u64()),
        (Some(6), Some(5))
    );
    assert_eq!(row["provisional"], true);
    let text = mondo(&["stats", "alice", "--db", db]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("alice, zendo-duel: 1"), "{text}");
    assert!(text.contains("? (deviation"), "{text}");
    // Provisional players are not listed by default; looser settings list both.
    let board = mondo(&["leaderboard", "--json", "--db", db]);
    assert_eq!(String::from_utf8(board.stdout).unwrap().trim(), "[]");
    let loose = [
        "leaderboard",
        "--json",
        "--max-deviation",
        "350",
        "--db",
        db,
    ];
    let board = mondo(&loose);
    let rows: serde_json::Value = serde_json::from_slice(&board.stdout).unwrap();
    assert_eq!(rows[0]["player"], "alice");
    assert_eq!(rows[1]["player"], "bob");
    // Rebuilt: the same numbers.
    let rebuilt = mondo(&["ratings", "rebuild", "--db", db]);
    assert!(rebuilt.status.success(), "{rebuilt:?}");
    let said = String::from_utf8(rebuilt.stdout).unwrap();
    assert!(said.contains("6 finished matches: 6 rated"), "{said}");
    assert_eq!(mondo(&loose).stdout, board.stdout);
    // Nobody of that name; a game that is not one.
    let nobody = mondo(&["stats", "carol", "--db", db]);
    assert_eq!(nobody.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&nobody.stderr).contains("nobody called `carol`"));
    let chess = mondo(&["leaderboard", "--game", "chess", "--db", db]);
    assert!(!chess.status.success());
    assert!(String::from_utf8_lossy(&chess.stderr).contains("zendo-duel"));
}

#[tokio::test]
async fn the_replay_page_reads_in_a_browser_and_a_live_match_has_none() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("page.db");
    let db = path.to_str().unwrap();
    let (over, live) = {
        let store = Store::open(&path).await.unwrap();
        let alice = PlayerId(store.local_player("alice").await.unwrap());
        let bob = PlayerId(store.local_player("bob").await.unwrap());
        let over = duel(&store, None, alice, bob, Some(bob), 1_000).await;
        let (g, created) =
            <mondo::rules::zendo::Duel as Game>::start(duel_setup(alice, bob, 8), 0).unwrap();
        let live = store_log(&store, "zendo-duel", None, &g, &created, &[]).await;
        store.close().await;
        (over, live)
    };
    // A live match: refused, with the reason, and no file.
    let refused = dir.path().join("live.html");
    let out = mondo(&[
        "replay",
        &live.to_string(),
        "--html",
        refused.to_str().unwrap(),
        "--db",
        db,
    ]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("still being played"));
    assert!(!refused.exists());
    // A finished one: a page with everything inside.
    let file = dir.path().join("over.html");
    let out = mondo(&[
        "replay",
        &over.to_string(),
        "--html",
        file.to_str().unwrap(),
        "--db",
        db,
    ]);
    assert!(out.status.success(), "{out:?}");
    let html = std::fs::read_to_string(&file).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no outside asset"
    );
    assert!(
        html.contains("some piece points up"),
        "the secret at the end"
    );
    // What a person sees: the steps in order, each picture decoded (naturalWidth).
    let Some(probe) = crate::browser::probe(
        dir.path(),
        &html,
        "const steps = [...document.querySelectorAll('#steps > li')].map(li => \
           li.dataset.step + '|' + li.querySelector('.who').textContent);\
         const imgs = [...document.images].map(i => i.complete ? i.naturalWidth : -1);\
         const isolated = [...document.querySelectorAll('#steps .who')].map(w => \
           w.querySelector('bdi') !== null);\
         const result = document.querySelector('#result');\
         const header = {won: result.querySelector('.won').innerText, \
           ended: result.querySelector('.ended').innerText, \
           ratings: [...result.querySelectorAll('.ratings li')].map(li => li.innerText), \
           names: [...result.querySelectorAll('bdi')].map(b => b.innerText), \
           first: result.compareDocumentPosition(document.querySelector('#steps')) === 4};\
         return {steps, imgs, isolated, header};",
    ) else {
        return;
    };
    let steps: Vec<&str> = probe["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    // Set up, bob (the advantage) chooses the starter, alice's turn begins, she skips
    // step 1, her turn ends (no ticket), bob's turn begins, bob resigns.
    assert_eq!(
        steps,
        [
            "1|the umpire",
            "2|bob",
            "3|the umpire",
            "4|alice",
            "5|the umpire",
            "6|the umpire",
            "7|bob"
        ],
        "{probe}"
    );
    // A player's name isolated (bidi), the umpire's not.
    let isolated: Vec<bool> = serde_json::from_value(probe["isolated"].clone()).unwrap();
    assert_eq!(isolated, [false, true, false, true, false, false, true]);
    // The header, above the steps: who won, how, and each rating before and after.
    let header = &probe["header"];
    assert_eq!(header["won"], "Won by alice.", "{probe}");
    assert_eq!(header["first"], true, "{probe}");
    let ended = header["ended"].as_str().unwrap();
    assert!(
        ended.starts_with("How it ended: ") && ended.contains("bob"),
        "{ended}"
    );
    let ratings: Vec<String> = serde_json::from_value(header["ratings"].clone()).unwrap();
    assert_eq!(ratings.len(), 2, "{probe}");
    assert!(
        ratings[0].starts_with("alice: 1500 -> 1") && ratings[0].ends_with(')'),
        "{ratings:?}"
    );
    assert!(
        ratings[0].contains("(+") && ratings[1].contains("(-"),
        "{ratings:?}"
    );
    assert!(ratings[1].starts_with("bob: 1500 -> 1"), "{ratings:?}");
    assert_eq!(
        header["names"],
        serde_json::json!(["alice", "alice", "bob"])
    );
    crate::browser::fits_a_phone(&probe);
    let imgs = probe["imgs"].as_array().unwrap();
    // The two opening structures, drawn with the secrets.
    assert!(imgs.len() >= 2, "{probe}");
    assert!(
        imgs.iter().all(|w| w.as_i64().unwrap_or(0) > 0),
        "every picture loads: {probe}"
    );
}

/// A finished Logical Bluffs match's page shows each player's reserve of time (kept in
/// each player's own view, no one's secret once it is over).
#[tokio::test]
async fn a_bluffs_replay_page_shows_the_reserves() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bluffs.db");
    let id = {
        let store = Store::open(&path).await.unwrap();
        let alice = PlayerId(store.local_player("alice").await.unwrap());
        let bob = PlayerId(store.local_player("bob").await.unwrap());
        let id = bluffs(&store, None, alice, bob, bob, 5).await;
        store.close().await;
        id
    };
    let file = dir.path().join("bluffs.html");
    let out = mondo(&[
        "replay",
        &id.to_string(),
        "--html",
        file.to_str().unwrap(),
        "--db",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    // The page as read (an apostrophe may be written as a character reference).
    let html = std::fs::read_to_string(&file)
        .unwrap()
        .replace("&#39;", "'");
    // Five minutes each (the default), untouched by a resignation.
    for who in ["alice", "bob"] {
        assert!(
            html.contains(&format!("{who}'s reserve: 5:00 left")),
            "{who}'s reserve is not on the page"
        );
    }
}

/// A store written before ratings (finished matches, no rating at all) is rated from
/// its logs once, as a runtime opens it to run, with the numbers the live store would
/// have given; a store with ratings is left as it is.
#[tokio::test]
async fn a_store_from_before_ratings_is_rated_when_it_is_first_run() {
    for db in crate::stores::each() {
        rated_when_first_run(&db).await;
    }
}

async fn rated_when_first_run(db: &crate::stores::TestDb) {
    let (a, b) = (PlayerId(1), PlayerId(2));
    let rated = {
        let store = db.open().await;
        for i in 0..3 {
            duel(
                &store,
                Some(7),
                a,
                b,
                Some(if i == 1 { a } else { b }),
                i * 10,
            )
            .await;
        }
        practice(&store, Some(7), a, 100).await;
        let rated = snapshot(&store, &[7], &[1, 2]).await;
        // As an older Mondo left it: the logs, no ratings.
        store.rebuild_ratings(&[]).await.unwrap();
        assert!(store.ratings_missing().await.unwrap(), "{}", db.name);
        assert!(store.ratings_of(7, a.0, None).await.unwrap().is_empty());
        store.close().await;
        rated
    };
    // Run twice: rated the first time, nothing made twice the second.
    for _ in 0..2 {
        let store = db.open().await;
        let (runtime, _) = Runtime::<AnyMatch>::start_rated(
            store.clone(),
            ManualTime::new(1_000),
            Config::default(),
        )
        .await
        .unwrap();
        assert!(!store.ratings_missing().await.unwrap());
        assert_eq!(snapshot(&store, &[7], &[1, 2]).await, rated, "{}", db.name);
        runtime.shutdown().await.unwrap();
        store.close().await;
    }
}

/// A server's own leaderboard rules, on both databases: none at first (the defaults
/// apply), stored with who set them, read back after the store is opened again,
/// replaced, and no other server's. The umpire's AI seats are rated like anyone but
/// never listed; their ratings are read on their own.
#[tokio::test]
async fn a_servers_leaderboard_rules_and_the_ai_seats_on_both_databases() {
    for db in crate::stores::each() {
        board_rules_and_ai_seats(&db).await;
    }
}

async fn board_rules_and_ai_seats(db: &crate::stores::TestDb) {
    use mondo::ratings::BoardOverrides;
    let (g, other) = (7, 8);
    let store = db.open().await;
    assert_eq!(
        store.leaderboard_settings(g).await.unwrap(),
        BoardOverrides::default(),
        "{}",
        db.name
    );
    let own = BoardOverrides {
        min_games: Some(3),
        recent_days: None,
        max_deviation: Some(300.0),
    };
    store
        .set_leaderboard_settings(g, &own, Some(42))
        .await
        .unwrap();
    store.close().await;
    let store = db.open().await;
    assert_eq!(
        store.leaderboard_settings(g).await.unwrap(),
        own,
        "{}",
        db.name
    );
    assert_eq!(
        store.leaderboard_settings(other).await.unwrap(),
        BoardOverrides::default()
    );
    let replaced = BoardOverrides {
        recent_days: Some(365),
        ..own
    };
    store
        .set_leaderboard_settings(g, &replaced, None)
        .await
        .unwrap();
    assert_eq!(store.leaderboard_settings(g).await.unwrap(), replaced);

    // p beats the expert AI seat four times and q three times: all three have enough
    // games under the server's rules, but the AI is not listed.
    let (p, q, ai) = (PlayerId(11), PlayerId(12), PlayerId::ai(2, 0));
    for i in 0..4 {
        duel(&store, Some(g), p, ai, Some(ai), i * 10).await;
    }
    for i in 0..3 {
        duel(&store, Some(g), p, q, Some(q), 100 + i * 10).await;
    }
    let rules = replaced.over(&BoardSettings::default());
    let board = store.leaderboard(g, None, &rules, 10).await.unwrap();
    let who: Vec<u64> = board.iter().map(|r| r.player).collect();
    assert_eq!(who, [p.0, q.0], "{}: {board:?}", db.name);
    // The default rules (5 games, deviation under 110) list nobody here.
    let strict = store
        .leaderboard(g, None, &BoardSettings::default(), 10)
        .await
        .unwrap();
    assert!(strict.is_empty(), "{strict:?}");
    // The AI's rating is kept, and read where it is asked for.
    let mine = store.ratings_of(g, ai.0, None).await.unwrap();
    assert_eq!((mine.len(), mine[0].games, mine[0].losses), (1, 4, 4));
    assert!(mine[0].rating < 1500.0);
    assert_eq!(store.ai_ratings(g, None).await.unwrap(), mine);
    assert_eq!(store.ai_ratings(g, Some("zendo-duel")).await.unwrap(), mine);
    assert!(
        store
            .ai_ratings(g, Some("logical-bluffs"))
            .await
            .unwrap()
            .is_empty()
    );
    assert!(store.ai_ratings(other, None).await.unwrap().is_empty());
    // The last AI id is an AI's too; the one after it is a person's.
    let last = PlayerId::ai(9, 99);
    assert_eq!(last.ai_seat(), Some((9, 99)));
    assert_eq!(PlayerId(last.0 + 1).ai_seat(), None);
    store.close().await;
}

/// `mondo leaderboard` lists by the rules of the server `--guild` names (what a host set
/// with /leaderboard-settings), over the configuration's `[leaderboard]` (a `--config`
/// file, or the built-in defaults); its own options win over both; a rule out of range
/// is refused with what is allowed.
#[tokio::test]
async fn mondo_leaderboard_lists_by_the_guilds_rules_then_the_configs() {
    use mondo::ratings::BoardOverrides;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("guild.db");
    let db = path.to_str().unwrap();
    let g = 123_456_789_012_345_678_u64;
    let (a, b, ai) = (PlayerId(1), PlayerId(2), PlayerId::ai(1, 0));
    {
        let store = Store::open(&path).await.unwrap();
        for i in 0..3 {
            duel(&store, Some(g), a, b, Some(b), i * 10).await;
            duel(&store, Some(g), a, ai, Some(ai), 500 + i * 10).await;
        }
        let own = BoardOverrides {
            min_games: Some(3),
            max_deviation: Some(350.0),
            ..BoardOverrides::default()
        };
        store.set_leaderboard_settings(g, &own, None).await.unwrap();
        store.close().await;
    }
    let players = |out: &std::process::Output| -> Vec<String> {
        assert!(out.status.success(), "{out:?}");
        let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        // A leaderboard is an array of rows; a player's stats hold theirs in `ratings`.
        let rows = rows.get("ratings").unwrap_or(&rows);
        rows.as_array()
            .unwrap()
            .iter()
            .map(|r| r["player"].as_str().unwrap().to_string())
            .collect()
    };
    let guild = g.to_string();
    let by_server = mondo(&["leaderboard", "--guild", &guild, "--json", "--db", db]);
    assert_eq!(
        players(&by_server),
        ["1", "2"],
        "the AI seat is never listed"
    );
    // Each row has exactly the fields docs/ratings.md promises.
    let rows: serde_json::Value = serde_json::from_slice(&by_server.stdout).unwrap();
    assert_json_fields(&rows[0]);
    assert_eq!(rows[0]["game"], "zendo-duel");
    assert_eq!(
        (rows[1]["games"].as_u64(), rows[1]["losses"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(rows[1]["provisional"], true);
    // The AI's rating, asked for by its seat's id.
    let ai_stats = mondo(&[
        "stats",
        &ai.0.to_string(),
        "--guild",
        &guild,
        "--json",
        "--db",
        db,
    ]);
    assert_eq!(players(&ai_stats), [ai.0.to_string()]);
    // The options win: six games needed lists only a.
    let six = mondo(&[
        "leaderboard",
        "--guild",
        &guild,
        "--min-games",
        "6",
        "--json",
        "--db",
        db,
    ]);
    assert_eq!(players(&six), ["1"]);
    // The terminal's players (no --guild) have none of these games.
    let terminal = mondo(&["leaderboard", "--json", "--db", db]);
    assert!(players(&terminal).is_empty());
    // A server that set nothing lists by the configuration: the built-in rules list
    // nobody with three provisional games; a config file that asks for 2 games under
    // 350 lists them.
    {
        let store = Store::open(&path).await.unwrap();
        store
            .set_leaderboard_settings(g, &BoardOverrides::default(), None)
            .await
            .unwrap();
        store.close().await;
    }
    let defaults = mondo(&["leaderboard", "--guild", &guild, "--json", "--db", db]);
    assert!(players(&defaults).is_empty());
    let config = dir.path().join("mondo.toml");
    std::fs::write(
        &config,
        "[leaderboard]\nmin_games = 2\nmax_deviation = 350\n",
    )
    .unwrap();
    let cfg = config.to_str().unwrap();
    let configured = mondo(&[
        "leaderboard",
        "--guild",
        &guild,
        "--config",
        cfg,
        "--json",
        "--db",
        db,
    ]);
    assert_eq!(players(&configured), ["1", "2"]);
    // Out of range, said with what is allowed, before anything is read.
    let zero = mondo(&["leaderboard", "--min-games", "0", "--db", db]);
    assert!(!zero.status.success());
    let said = String::from_utf8_lossy(&zero.stderr);
    assert!(
        said.contains("--min-games") && said.contains("allowed 1 to 1000"),
        "{said}"
    );
    let dev = mondo(&["leaderboard", "--max-deviation", "400", "--db", db]);
    assert!(String::from_utf8_lossy(&dev.stderr).contains("allowed 10 to 350"));
    std::fs::write(&config, "[leaderboard]\nrecent_days = 0\n").unwrap();
    let bad = mondo(&["leaderboard", "--config", cfg, "--db", db]);
    assert!(!bad.status.success());
    let said = String::from_utf8_lossy(&bad.stderr);
    assert!(
        said.contains("leaderboard.recent_days") && said.contains("1 to 3650 days"),
        "{said}"
    );
}

/// What counts, at its edges: a duel nobody played (every turn ran out, abandoned)
/// rates nobody, as a host-ended or declined one; a solved practice counts as solved,
/// its game-clock time the fastest, and an unsolved one only as played.
#[tokio::test]
async fn an_abandoned_duel_rates_nobody_and_a_solved_practice_keeps_its_time() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_with(dir.path().join("edges.db"), Durability::Process)
        .await
        .unwrap();
    let (a, b) = (PlayerId(1), PlayerId(2));
    let mut h = Harness::<mondo::rules::zendo::Duel>::new(duel_setup(a, b, 4));
    h.ok(
        Actor::Player(b),
        Action::Move(DuelMove::Zendo(ZendoMove::ChooseStarter { starter: a })),
    );
    for _ in 0..100 {
        if h.game.is_over() {
            break;
        }
        h.run_out();
    }
    assert_eq!(
        h.game.finish(),
        Some(Finish::Unrated(mondo::rules::Why::Abandoned)),
        "abandoned"
    );
    let abandoned = store_harness(&store, "zendo-duel", None, &h).await;
    assert!(store.ratings_of(0, a.0, None).await.unwrap().is_empty());
    assert!(store.ratings_of(0, b.0, None).await.unwrap().is_empty());
    let history = store.history(0, a.0, 10).await.unwrap();
    assert_eq!(history[0].id, abandoned);
    assert_eq!(history[0].result, None);

    // Two practices of 9 ms of game clock each: one solved, one not (the finishes a
    // practice gives, applied as a rebuild applies them).
    let solved = practice(&store, None, a, 100).await;
    let unsolved = practice(&store, None, a, 200).await;
    let finishes = [
        (abandoned, Finish::Unrated(mondo::rules::Why::Abandoned)),
        (
            solved,
            Finish::Solo {
                player: a,
                solved: true,
                score: 1,
            },
        ),
        (
            unsolved,
            Finish::Solo {
                player: a,
                solved: false,
                score: 1,
            },
        ),
    ];
    let done = store.rebuild_ratings(&finishes).await.unwrap();
    assert_eq!((done.matches, done.rated, done.solo), (3, 0, 2));
    let solo = store.solo_records(0, a.0).await.unwrap();
    assert_eq!(solo.len(), 1, "{solo:?}");
    let r = &solo[0];
    assert_eq!(
        (r.game.as_str(), r.played, r.solved, r.score_total),
        ("zendo-practice", 2, 1, 2)
    );
    assert_eq!((r.best_ms, r.total_ms), (Some(9), 18));
    assert!(store.ratings_of(0, a.0, None).await.unwrap().is_empty());
    store.close().await;
}

/// Matches ending at once, from two stores on one database (two processes on
/// PostgreSQL; one store's writer on SQLite, which allows one process): each ending
/// takes its own place in the order of endings (none refused for taking a place
/// another took) and every rating move counts (none lost to another's at once).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endings_at_once_each_take_their_own_place_and_every_rating_counts() {
    const EACH: usize = 12;
    const SERVER: u64 = 77;
    for db in super::stores::each() {
        let first = db.open().await;
        let second = if db.is_postgres() {
            db.open().await
        } else {
            first.clone()
        };
        let mut ids = Vec::new();
        for _ in 0..2 * EACH {
            let created = NewEvent {
                at: 0,
                body: "{}".into(),
            };
            let id = first
                .create_match(
                    &NewMatch {
                        kind: "zendo-duel",
                        guild: Some(SERVER),
                        channel: None,
                        seed: 1,
                        settings: "{}",
                        players: &[1, 2],
                    },
                    &created,
                )
                .await
                .unwrap();
            ids.push(id);
        }
        let mut ends = tokio::task::JoinSet::new();
        for (n, id) in ids.iter().copied().enumerate() {
            let store = if n % 2 == 0 { &first } else { &second }.clone();
            ends.spawn(async move {
                let last = NewEvent {
                    at: 1,
                    body: "{}".into(),
                };
                let finish = Finish::Placed {
                    method: mondo::ratings::Method::Glicko2,
                    places: vec![(PlayerId(1), 1), (PlayerId(2), 2)],
                };
                store
                    .append_ending(id, 1, vec![last], true, Some(finish))
                    .await
            });
        }
        while let Some(ended) = ends.join_next().await {
            ended
                .unwrap()
                .unwrap_or_else(|e| panic!("{}: an ending was refused: {e}", db.name));
        }
        let finished = first.finished_matches().await.unwrap();
        assert_eq!(finished.len(), 2 * EACH, "{}", db.name);
        for player in [1, 2] {
            let rows = first
                .ratings_of(SERVER, player, Some("zendo-duel"))
                .await
                .unwrap();
            assert_eq!(rows.len(), 1, "{}", db.name);
            assert_eq!(
                rows[0].games as usize,
                2 * EACH,
                "{}: player {player}",
                db.name
            );
        }
        first.close().await;
        if db.is_postgres() {
            second.close().await;
        }
    }
}
