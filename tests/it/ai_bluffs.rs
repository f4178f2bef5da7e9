//! The Logical Bluffs AI at the terminal, through the real binary: `mondo play bluffs
//! --players me,ai --ai-level beginner` seats it as `ai-beginner`; it bluffs and marks
//! on its own (a typed line for its seat is refused), and the match ends with a rated
//! result under its own name. And its seats on the runtime, with a hand-driven clock:
//! after a restart it plays on exactly as it would have.

use crate::play_support::{Mondo, stats};
use mondo::lang::tiles::Colour;
use mondo::rules::bluffs::{EventKind as BluffsEvent, Settings, Setup, deal};
use mondo::rules::{Event, PlayerId};
use mondo::runtime::{AnySetup, AnyView};
use serde_json::Value;

const SEED: u64 = 4242;

/// The lines up to the start of `phase` (errors on the way fail the test).
fn until_phase(m: &mut Mondo, phase: &str) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let (began, before) = m.until("phase_began");
        seen.extend(before);
        let here = began["phase"] == phase;
        seen.push(began);
        if here {
            return seen;
        }
    }
}

fn by_ai(seen: &[Value], event: &str) -> bool {
    seen.iter()
        .any(|v| v["event"] == event && v["player"] == "ai-beginner")
}

#[test]
fn a_match_against_the_ai_at_the_terminal_ends_rated_under_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ai.db");
    let seed = SEED.to_string();
    // Phases long enough for a loaded machine; the AI takes at most a quarter of each.
    let mut m = Mondo::start(
        &db,
        &[
            "bluffs",
            "--players",
            "me,ai",
            "--ai-level",
            "beginner",
            "--seed",
            &seed,
            "--host",
            "carol",
            "--bluff-secs",
            "20",
            "--claim-secs",
            "20",
            "--reveal-secs",
            "20",
        ],
    );
    let (started, _) = m.until("started");
    assert_eq!(started["players"], serde_json::json!(["me", "ai-beginner"]));
    m.until("status");
    // A typed line for the AI's seat is refused.
    m.send("ai-beginner: resign");
    let (error, _) = m.until_any("error");
    let message = error["message"].as_str().unwrap_or_default();
    assert!(message.contains("is the AI's seat"), "{error}");
    let colours: Vec<String> = Colour::ALL
        .iter()
        .map(|c| format!("There is a {} tile.", c.name()))
        .collect();
    m.send(&format!("me: bluff A1-A2-B1-B2; {}", colours.join("; ")));
    let bluffing = until_phase(&mut m, "claiming");
    assert!(
        by_ai(&bluffing, "submitted"),
        "the AI bluffed: {bluffing:#?}"
    );
    let shown = bluffing
        .iter()
        .find(|v| v["event"] == "shown" && v["player"] == "ai-beginner")
        .expect("the AI's bluff is shown");
    assert_eq!(shown["statements"].as_array().map(Vec::len), Some(4));
    m.send("me: claim T T T T");
    let claiming = until_phase(&mut m, "reveal");
    assert!(
        by_ai(&claiming, "submitted"),
        "the AI marked: {claiming:#?}"
    );
    // I know the layout (the seed's): a right guess ends the match.
    let (layout, _) = deal(SEED, 4);
    m.send("me: declare");
    m.send(&format!("me: guess {layout}"));
    let (ended, _) = m.until("ended");
    assert_eq!(ended["winner"], "me", "{ended}");
    assert_eq!(ended["ending"], "guessed");
    assert!(m.wait());
    let ai = stats(&db, "ai-beginner");
    let rating = &ai["ratings"][0];
    let games = ["wins", "draws", "losses"].map(|k| rating[k].as_u64().unwrap_or(0));
    assert_eq!(games, [0, 0, 1], "rated once, a loss: {ai}");
}

/// What each seat did, from the match's log: its bluffs, Detective, marks, reveals,
/// guesses and passes, in order (a declared guess without its time), and the ending.
type Played = ([Vec<BluffsEvent>; 2], Option<BluffsEvent>);

fn played(log: &[String]) -> Played {
    let mut seats: [Vec<BluffsEvent>; 2] = Default::default();
    let mut ending = None;
    for body in log {
        let event: Event<BluffsEvent> = serde_json::from_str(body).unwrap();
        let Some(e) = event.game() else { continue };
        let seat = match e {
            BluffsEvent::Bluffed { seat, .. }
            | BluffsEvent::Detected { seat, .. }
            | BluffsEvent::Marked { seat, .. }
            | BluffsEvent::Revealed { seat, .. }
            | BluffsEvent::Guessed { seat, .. }
            | BluffsEvent::Passed { seat, .. } => *seat,
            BluffsEvent::GuessDeclared { seat, .. } => *seat,
            BluffsEvent::Ended { .. } => {
                ending = Some(e.clone());
                continue;
            }
            _ => continue,
        };
        let e = match e {
            BluffsEvent::GuessDeclared { seat, .. } => BluffsEvent::GuessDeclared {
                seat: *seat,
                until: 0,
            },
            e => e.clone(),
        };
        seats[seat.index()].push(e);
    }
    (seats, ending)
}

/// An expert and a player (AI seats as on Discord) play a whole match on a hand-driven
/// clock; with `restart`, the runtime is shut down when round `restart` begins and
/// started again on the same store (the seats taken up again as the bot does at its
/// start). What each seat did, and how it ended.
async fn ai_match(restart: Option<u32>) -> Played {
    let players = [PlayerId::ai(2, 0), PlayerId::ai(1, 1)];
    // Phases long enough that a loaded machine never runs one out while a seat
    // thinks (its moves come within a quarter of each): what each seat did then
    // depends on what it saw, not on time.
    let settings = Settings {
        bluffing_ms: 60_000,
        claiming_ms: 30_000,
        reveal_ms: 30_000,
        ..Settings::default()
    };
    let setup = Setup {
        players,
        seed: SEED,
        settings,
    };
    let log = crate::ai_support::ai_match(AnySetup::from(setup), |view| {
        let AnyView::Bluffs(v) = view else {
            panic!("not a Bluffs match");
        };
        restart.is_some_and(|r| v.round >= r)
    })
    .await;
    played(&log)
}

/// After a restart of the runtime (the bot's, or `mondo play --resume`: both take an
/// AI seat up again the same way), the Bluffs AI remembers what its player was told
/// before (read back from the match's log), so it bluffs, marks, buys and guesses
/// exactly as its twin that was never restarted, to the same end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_ai_plays_exactly_as_it_would_have() {
    let once = ai_match(None).await;
    let again = ai_match(Some(2)).await;
    let rounds = once.0[0]
        .iter()
        .filter(|e| matches!(e, BluffsEvent::Bluffed { .. }))
        .count();
    assert!(rounds >= 2, "the restart came in play: {once:#?}");
    assert_eq!(again, once);
}
