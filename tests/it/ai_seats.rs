//! The AI student's seats on the runtime, as the Discord bot runs them
//! (`bot::games::zendo::ai`), with a hand-driven clock: whole Classic games between
//! AI students end properly, and an AI opponent in a duel waits its delay on the game
//! clock before each move (and accepts a duel at once). And the terminal's AI seat
//! through the real binary.

use crate::play_support::{Mondo, Table, errors, of, refused, stats};
use mondo::bot::games::zendo::ai::{Pace, play as seat_ai, seat};
use mondo::koan::{Koan, PieceSet};
use mondo::rules::zendo::classic::ClassicSetup;
use mondo::rules::zendo::{DuelSetup, Initial};
use mondo::rules::{PlayerId, Viewer};
use mondo::runtime::{AnyMatch, AnyView, Config, ManualTime, Place, Runtime};
use mondo::store::{MatchId, Store};
use mondo::student::zendo::{Breadth, Level, Space};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

const DELAY: u64 = 2_000;

/// A small space (quick to build in a test) holding the rules the tests hide, one per
/// piece set.
fn small(set: PieceSet, _: Breadth) -> Arc<Space> {
    static PYRAMIDS: OnceLock<Arc<Space>> = OnceLock::new();
    static ARROWS: OnceLock<Arc<Space>> = OnceLock::new();
    let cell = if set == PieceSet::Arrows {
        &ARROWS
    } else {
        &PYRAMIDS
    };
    cell.get_or_init(|| {
        let mut sentences: Vec<String> = Vec::new();
        for n in ["one", "two", "three"] {
            sentences.push(format!("there are exactly {n} pieces"));
            sentences.push(format!("there are at least {n} pieces"));
        }
        for d in ["up", "down", "left", "right"] {
            sentences.push(format!("a piece points {d}"));
            sentences.push(format!("no piece points {d}"));
            sentences.push(format!("every piece points {d}"));
        }
        for s in ["small", "medium", "large"] {
            sentences.push(format!("there is a {s} piece"));
            sentences.push(format!("every piece is {s}"));
        }
        Arc::new(Space::from_sentences(set, Breadth::Narrow, &sentences))
    })
    .clone()
}

fn koan(text: &str) -> Koan {
    Koan::parse_as(text, PieceSet::Pyramids).unwrap()
}

fn pace() -> Pace {
    Pace {
        delay_ms: DELAY,
        think_ms: 500,
        space: small,
    }
}

async fn runtime(dir: &tempfile::TempDir, time: &Arc<ManualTime>) -> Runtime<AnyMatch> {
    let store = Store::open(&dir.path().join("ai.db")).await.unwrap();
    let (runtime, _) = Runtime::<AnyMatch>::start(store, time.clone(), Config::default())
        .await
        .unwrap();
    runtime
}

/// Moves the clock on by the AI's delay until the match is over (or `steps` run out),
/// giving the seats a moment of real time to think between steps; the views each
/// seat had along the way never hold the rule before the end.
async fn run_out(
    runtime: &Runtime<AnyMatch>,
    time: &ManualTime,
    id: MatchId,
    seats: &[PlayerId],
    steps: usize,
) -> bool {
    let mut feed = runtime.subscribe(id, Viewer::Spectator).await.unwrap();
    for _ in 0..steps {
        if runtime.is_over(id).await.unwrap() {
            return true;
        }
        for p in seats {
            // The seats play on while this looks: a match may end between the check
            // above and this view. A rule shown is a leak only if the match is still
            // not over after it was seen.
            let shown = match runtime.view(id, &Viewer::Player(*p)).await.unwrap() {
                AnyView::ZendoClassic(v) => v.revealed.is_some(),
                // A Triple's pattern is shown once solved: only an unsolved one leaks.
                AnyView::ZendoTriple(v) => {
                    (0..3).any(|i| v.revealed[i].is_some() && v.solved[i].is_none())
                }
                _ => false,
            };
            assert!(
                !shown || runtime.is_over(id).await.unwrap(),
                "a student saw a hidden pattern before the end"
            );
        }
        time.advance(DELAY / 2);
        // An update, or a moment for a seat still thinking.
        let _ = tokio::time::timeout(Duration::from_millis(100), feed.next()).await;
    }
    runtime.is_over(id).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ai_students_play_whole_classic_games_to_their_end() {
    for (seed, hidden, levels) in [
        (
            1u64,
            "a piece points up",
            vec![Level::Expert, Level::Player],
        ),
        (
            2,
            "there are exactly two pieces",
            vec![Level::Expert, Level::Beginner, Level::Player],
        ),
        (
            3,
            "every piece is small",
            vec![Level::Player, Level::Expert],
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let time = ManualTime::new(0);
        let runtime = runtime(&dir, &time).await;
        let students: Vec<PlayerId> = levels
            .iter()
            .enumerate()
            .map(|(k, l)| seat(*l, k as u8 + 1))
            .collect();
        let hidden_pattern = mondo::lang::parse(hidden).unwrap();
        let initial = match hidden {
            "a piece points up" => ("1^", "1>"),
            "there are exactly two pieces" => ("1^ 2v", "1^"),
            _ => ("1^ 1>", "1^ 3>"),
        };
        let setup = ClassicSetup {
            students: students.clone(),
            master: None,
            hidden: hidden_pattern,
            initial: Initial {
                obeys: koan(initial.0),
                does_not: koan(initial.1),
            },
            settings: Default::default(),
            timing: Default::default(),
            seed,
            lobby: None,
        };
        let id = runtime
            .create(Place::default(), setup.into())
            .await
            .unwrap();
        for p in &students {
            seat_ai(&runtime, id, *p, pace());
        }
        assert!(
            run_out(&runtime, &time, id, &students, 2_000).await,
            "the game of `{hidden}` did not end"
        );
        let AnyView::ZendoClassic(v) = runtime.view(id, &Viewer::Spectator).await.unwrap() else {
            panic!("not a Classic game");
        };
        let winner = v.winner.map(|s| v.players[s]);
        assert!(
            winner.is_some_and(|w| students.contains(&w)),
            "`{hidden}`: no AI student won: {:?}",
            v.outcome
        );
        assert_eq!(v.revealed.as_deref(), Some(hidden));
        runtime.shutdown().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_opponent_accepts_at_once_and_waits_its_delay_on_the_game_clock() {
    let dir = tempfile::tempdir().unwrap();
    let time = ManualTime::new(0);
    let runtime = runtime(&dir, &time).await;
    let alice = PlayerId(101);
    let ai = seat(Level::Expert, 0);
    // The runtime tests' duel (its first koans `1^` and `1>`, default settings and
    // timing), with the AI in bob's seat holding the advantage.
    let setup = DuelSetup {
        players: [alice, ai],
        advantage: ai,
        hidden: mondo::lang::parse("a piece points up").unwrap(),
        seed: 9,
        ..crate::runtime_zendo::setup()
    };
    let id = runtime
        .create(Place::default(), setup.into())
        .await
        .unwrap();
    let mut feed = runtime.subscribe(id, Viewer::Spectator).await.unwrap();
    seat_ai(&runtime, id, ai, pace());
    // It accepts (chooses who starts: itself) with no delay at all.
    let chose = tokio::time::timeout(Duration::from_secs(30), feed.next())
        .await
        .expect("the AI accepts at once")
        .unwrap()
        .unwrap();
    let AnyView::ZendoDuel(v) = &chose.view else {
        panic!("not a duel");
    };
    let starter = match &v.phase {
        mondo::rules::zendo::PhaseView::Turn { seat, .. } => Some(v.players[*seat]),
        _ => None,
    };
    assert_eq!(starter, Some(ai), "it starts");
    // Its first structure waits the delay of the game clock: not a moment before.
    time.advance(DELAY - 1);
    let early = tokio::time::timeout(Duration::from_millis(500), feed.next()).await;
    assert!(early.is_err(), "the AI moved before its delay");
    time.advance(1);
    let built = tokio::time::timeout(Duration::from_secs(30), feed.next())
        .await
        .expect("the AI moves once its delay is up")
        .unwrap()
        .unwrap();
    let AnyView::ZendoDuel(v) = &built.view else {
        panic!("not a duel");
    };
    assert!(v.table.len() > 2, "it built a structure: {:?}", v.table);
    // It never saw the pattern: its own view holds none.
    let AnyView::ZendoDuel(own) = runtime.view(id, &Viewer::Player(ai)).await.unwrap() else {
        panic!("not a duel");
    };
    assert!(own.revealed.is_none());
    runtime.shutdown().await.unwrap();
}

#[test]
fn the_terminal_ai_seat_plays_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ai.db");
    let hidden = "some piece points up";
    let out = Table::against_ai("duel", "beginner")
        .pattern(hidden)
        .seed(4)
        .play(&db, "why\nstatus\nme: resign\nwhy\nkoan 1^ observe\n");
    let end = out
        .iter()
        .position(|e| e["event"] == "over")
        .expect("the duel ends");
    for e in &out[..end] {
        assert!(
            !e.to_string().contains(hidden),
            "the pattern was said before the end: {e}"
        );
    }
    // The AI (the one challenged: it has the advantage) accepted by choosing who
    // starts, then built a structure the umpire marked, all before my first line.
    let starter = out.iter().position(|e| e["event"] == "starter").unwrap();
    assert_eq!(out[starter]["player"], "ai-beginner");
    assert!(
        out.iter()
            .any(|e| e["event"] == "verdict" && e["player"] == "ai-beginner"),
        "the AI built nothing: {out:#?}"
    );
    assert_eq!(out[end]["winner"], "ai-beginner", "{out:#?}");
    assert_eq!(out[end]["pattern"], hidden);
    why_once_it_is_over(&out, end);
}

/// `why` while the duel goes on is refused (what the AI believes would help its
/// opponent); once it is over the table stays, and `why` says what the AI believed
/// after each structure on the table, in order: fewer rules or as many each time.
fn why_once_it_is_over(out: &[serde_json::Value], end: usize) {
    let refusal = &errors(&out[..end])[0];
    assert!(refusal.contains("the match is not over"), "{refusal}");
    assert!(of(&out[..end], "why").is_empty());
    let after = &out[end..];
    assert!(
        after
            .iter()
            .any(|e| e["event"] == "info" && e["message"].as_str().unwrap().contains("`why`")),
        "{after:#?}"
    );
    let why = of(after, "why");
    let numbers: Vec<u64> = why.iter().map(|e| e["number"].as_u64().unwrap()).collect();
    let table: Vec<u64> = (1..=numbers.len() as u64).collect();
    assert!(
        numbers.len() >= 3,
        "the openings and the AI's structure: {why:#?}"
    );
    assert_eq!(numbers, table, "{why:#?}");
    for pair in why.windows(2) {
        assert!(
            pair[1]["rules"].as_u64() <= pair[0]["rules"].as_u64(),
            "{why:#?}"
        );
    }
    for e in &why {
        assert_eq!(e["players"], serde_json::json!(["ai-beginner"]));
        assert_eq!(e["level"], "beginner");
        assert!(e["pattern"].is_null() && e["koan"].is_string() && e["obeys"].is_boolean());
        let held = e["hypotheses"].as_array().unwrap();
        assert!(!held.is_empty() && held.len() <= 3, "{e}");
        assert!(held[0]["rule"].is_string() && held[0]["share"].as_f64().unwrap() > 0.0);
    }
    // Nothing is played after the end.
    let late = errors(after);
    assert_eq!(late.len(), 1, "{after:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ai_students_play_whole_triples_to_their_end() {
    use mondo::rules::zendo::triple::{TripleOutcome, TripleSetup, opening::triple_opening};
    for (seed, patterns, levels) in [
        (
            1u64,
            [
                "a piece points up",
                "there are at least two pieces",
                "no piece points left",
            ],
            [Level::Expert, Level::Player],
        ),
        (
            2,
            [
                "a piece points down",
                "there are exactly two pieces",
                "no piece points right",
            ],
            [Level::Beginner, Level::Expert],
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let time = ManualTime::new(0);
        let runtime = runtime(&dir, &time).await;
        let players = [seat(levels[0], 0), seat(levels[1], 1)];
        let given: Vec<String> = patterns.iter().map(|p| p.to_string()).collect();
        let pool = mondo::pool::Pool::shipped(PieceSet::Arrows);
        let (hidden, opening) =
            triple_opening(&given, &pool, seed, &mondo::finder::Limits::default()).unwrap();
        let setup = TripleSetup {
            players,
            starter: None,
            advantage: Some(players[1]),
            hidden: Box::new(hidden),
            opening: Box::new(opening),
            settings: mondo::rules::zendo::Settings {
                set: PieceSet::Arrows,
                ..Default::default()
            },
            timing: Default::default(),
            seed,
        };
        let id = runtime
            .create(Place::default(), setup.into())
            .await
            .unwrap();
        for p in players {
            seat_ai(&runtime, id, p, pace());
        }
        assert!(
            run_out(&runtime, &time, id, &players, 3_000).await,
            "the Triple of {patterns:?} did not end"
        );
        let AnyView::ZendoTriple(v) = runtime.view(id, &Viewer::Spectator).await.unwrap() else {
            panic!("not a Triple");
        };
        let winner = v
            .winner
            .unwrap_or_else(|| panic!("no AI student won: {:?} {:?}", v.outcome, v.phase));
        assert_eq!(
            v.outcome,
            Some(TripleOutcome::TwoSolved { by: winner }),
            "{patterns:?}: won by solving two patterns"
        );
        // What it solved is what was hidden.
        for ((solved, revealed), hidden) in v.solved.iter().zip(&v.revealed).zip(patterns) {
            if *solved == Some(winner) {
                assert_eq!(revealed.as_deref(), Some(hidden));
            }
        }
        runtime.shutdown().await.unwrap();
    }
}

#[test]
fn the_terminal_ai_seat_plays_a_triple_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ai.db");
    let hidden = [
        "some piece points up",
        "some piece points right",
        "some piece points left",
    ];
    let table = hidden
        .iter()
        .fold(Table::against_ai("triple", "beginner"), |t, p| t.pattern(p))
        .seed(4);
    let out = table.play(&db, "status\nme: koan U challenge A\nme: resign\n");
    let end = out
        .iter()
        .position(|e| e["event"] == "won")
        .unwrap_or_else(|| panic!("the Triple ends: {out:#?}"));
    for e in &out[..end] {
        for p in &hidden {
            assert!(
                !e.to_string().contains(p),
                "a pattern was said before the end: {e}"
            );
        }
    }
    // The AI (challenged: it has the advantage) chose who starts, itself, and built a
    // structure graded on the three patterns before my first line.
    let starter = out.iter().position(|e| e["event"] == "starter").unwrap();
    assert_eq!(out[starter]["player"], "ai-beginner");
    let first = out
        .iter()
        .position(|e| e["event"] == "verdict")
        .expect("the AI built a structure");
    assert!(first > starter);
    // My challenge on A was answered by the AI too (privately: only that it is in).
    assert!(
        out.iter()
            .any(|e| e["event"] == "answered" && e["player"] == "ai-beginner"),
        "the AI did not answer my challenge: {out:#?}"
    );
    assert_eq!(out[end]["player"], "ai-beginner", "{out:#?}");
}

/// Two AI students of one level in a Classic game: each under the level's own name, the
/// second numbered (`ai-beginner`, `ai-beginner-2`), each taking its turn.
#[test]
fn the_terminal_seats_ai_students_in_classic() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ai.db");
    let hidden = "some piece points up";
    let out = Table::new("classic", "me,ai,ai2")
        .with("--ai-level", "beginner")
        .pattern(hidden)
        .seed(4)
        .play(&db, "me: koan 1^ 2> master\nstatus\n");
    for e in &out {
        assert!(
            !e.to_string().contains(hidden),
            "the rule was said before the end: {e}"
        );
    }
    assert_eq!(
        of(&out, "started")[0]["players"],
        serde_json::json!(["me", "ai-beginner", "ai-beginner-2"])
    );
    // After my turn (the first, said by the start), each AI student takes its own,
    // building a structure, until it is mine again.
    let turns: Vec<&str> = out
        .iter()
        .filter(|e| e["event"] == "turn")
        .filter_map(|e| e["player"].as_str())
        .collect();
    assert!(
        turns.starts_with(&["ai-beginner", "ai-beginner-2", "me"]),
        "{turns:?}: {out:#?}"
    );
    for name in ["ai-beginner", "ai-beginner-2"] {
        assert!(
            out.iter()
                .any(|e| (e["event"] == "verdict" || e["event"] == "mondo") && e["player"] == name),
            "{name} built nothing: {out:#?}"
        );
    }
}

/// Seats are identities: the AI plays only under its own names, which no person may
/// take, and `--ai` never seats it under a person's name.
#[test]
fn the_ai_plays_under_its_own_names_and_no_person_takes_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("names.db");
    let allowed = "ai-beginner, ai-player, ai-expert";
    // `--ai` for a person's name: refused, listing the names the AI plays under.
    let e = Table::new("classic", "me,bob")
        .with("--ai", "bob")
        .refused(&db);
    assert!(e.contains("--ai bob: `bob` is a person's name"), "{e}");
    assert!(e.contains(allowed), "{e}");
    // ...and for someone not at the table.
    let e = Table::new("classic", "me,bob")
        .with("--ai", "carol")
        .refused(&db);
    assert!(e.contains("--ai carol: not one of the players"), "{e}");
    // A reserved name as a host, or for a solo game.
    let e = Table::duel().host("ai-expert").refused(&db);
    assert!(
        e.contains("`ai-expert` is the AI student's own name"),
        "{e}"
    );
    assert!(e.contains(allowed), "{e}");
    let e = refused(&db, &["--player", "ai-beginner-2"]);
    assert!(
        e.contains("`ai-beginner-2` is the AI student's own name"),
        "{e}"
    );
    // Nothing was recorded: nobody played, and no name was taken.
    assert!(!db.exists() || stats_of_nobody(&db));
    // A reserved name at the table seats the AI at that level: the AI plays it.
    let typed = Table::new("duel", "me,AI-Beginner")
        .pattern("some piece points up")
        .seed(4)
        .play(&db, "ai-beginner: resign\nme: resign\n");
    let started = &of(&typed, "started")[0];
    assert_eq!(started["players"], serde_json::json!(["me", "ai-beginner"]));
    assert!(
        of(&typed, "verdict")
            .iter()
            .any(|v| v["player"] == "ai-beginner"),
        "the AI played its seat: {typed:#?}"
    );
    assert!(errors(&typed)[0].contains("is the AI's seat"), "{typed:#?}");
}

/// Whether no player has a record in `db` (nobody named played).
fn stats_of_nobody(db: &std::path::Path) -> bool {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(["stats", "bob", "--db"])
        .arg(db)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stderr).contains("nobody called `bob`")
}

/// Each AI level is rated under its own name: beating the beginner moves
/// `ai-beginner`'s rating, and the expert's stays unplayed.
#[test]
fn each_ai_level_has_its_own_rating() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("levels.db");
    // The AI (with the advantage) chooses who starts and plays; then I resign.
    // The setup is chosen by a host who does not play: the match is rated.
    let out = Table::against_ai("duel", "beginner")
        .pattern("some piece points up")
        .seed(4)
        .host("carol")
        .play(&db, "status\nme: skip\nme: resign\n");
    assert_eq!(of(&out, "over")[0]["winner"], "ai-beginner", "{out:#?}");
    let beginner = stats(&db, "ai-beginner");
    assert_eq!(beginner["player"], "ai-beginner");
    assert_eq!(beginner["ratings"][0]["wins"], 1, "{beginner}");
    let me = stats(&db, "me");
    assert_eq!(
        me["history"][0]["opponents"],
        serde_json::json!(["ai-beginner"])
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(["stats", "ai-expert", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(!out.status.success(), "the expert never played: {out:?}");
}

/// Ctrl-C while the AI student builds its rules (seconds, before its first move)
/// leaves at once, as `quit` does: the AI has not moved, and the match is left to
/// resume.
#[test]
#[cfg(unix)]
fn ctrl_c_while_the_ai_builds_its_rules_leaves_at_once() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ai.db");
    let table = Table::against_ai("duel", "expert")
        .pattern("some piece points up")
        .seed(4);
    let mut mondo = Mondo::start(&db, &table.args());
    mondo.until("started");
    kill(Pid::from_raw(mondo.child.id() as i32), Signal::SIGINT).unwrap();
    let (left, before) = mondo.until("left");
    assert!(left["resume"].is_string(), "{left}");
    assert!(
        !before.iter().any(|e| e["event"] == "starter"),
        "the AI moved before Ctrl-C was heeded: {before:#?}"
    );
    assert!(mondo.wait(), "it ended as quit does");
}
