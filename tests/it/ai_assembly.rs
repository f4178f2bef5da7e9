//! The Pattern Assembly AI at the terminal, through the real binary: `mondo play
//! assembly --players me,ai --ai-level expert` seats it as `ai-expert`, it answers on
//! its own (never a typed line for it), the match ends with a rated result under its
//! own name, and after the process is killed, `--resume` has it play on. And its seats
//! on the runtime, with a hand-driven clock: after a restart it plays on exactly as it
//! would have.

use crate::play_support::{Mondo, stats};
use mondo::rules::assembly::{AssemblyEvent, AssemblySetup, PhaseView, Settings, Timing};
use mondo::rules::{Event, PlayerId};
use mondo::runtime::{AnySetup, AnyView};
use serde_json::Value;

/// Short clocks, one round: a whole match in some seconds (the AI takes a person's
/// time to answer: seconds, not milliseconds).
const QUICK: [&str; 10] = [
    "--reveal-secs",
    "1",
    "--wait-secs",
    "1",
    "--round-secs",
    "40",
    "--showdown-secs",
    "6",
    "--rounds",
    "1",
];

fn start(db: &std::path::Path, level: &str, plus: bool) -> Mondo {
    let mut args = vec![
        "assembly",
        "--players",
        "me,ai",
        "--ai-level",
        level,
        "--seed",
        "5",
        "--host",
        "carol",
    ];
    if plus {
        args.push("--plus");
    }
    args.extend(QUICK);
    Mondo::start(db, &args)
}

/// The end of the match: `won` (with its player) or `over` (no winner), and every
/// line before it (errors allowed).
fn until_end(m: &mut Mondo) -> (Value, Vec<Value>) {
    m.until_one_of(&["won", "over"], true)
}

#[test]
fn a_match_against_the_ai_at_the_terminal_ends_rated_under_its_name() {
    for plus in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("ai.db");
        let mut m = start(&db, "expert", plus);
        let (started, _) = m.until("started");
        assert_eq!(started["players"], serde_json::json!(["me", "ai-expert"]));
        m.until("round");
        // A typed line for the AI's seat is refused; my own wrong answer is taken.
        m.send("ai-expert: answer A1-A2-A3");
        let (error, _) = m.until_any("error");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("is the AI's seat"),
            "{error}"
        );
        m.send("me: answer A1-A3-A5");
        let (end, seen) = until_end(&mut m);
        let answered = seen
            .iter()
            .any(|v| v["event"] == "answer" && v["player"] == "ai-expert");
        assert!(answered, "the AI answered: {seen:#?}");
        assert!(
            seen.iter()
                .any(|v| v["event"] == "showdown_in" && v["player"] == "ai-expert"),
            "the AI sent its showdown grid: {seen:#?}"
        );
        assert!(m.wait());
        let ai = stats(&db, "ai-expert");
        let rating = &ai["ratings"][0];
        let games = ["wins", "draws", "losses"].map(|k| rating[k].as_u64().unwrap_or(0));
        assert_eq!(
            games.iter().sum::<u64>(),
            1,
            "rated once: {ai} (end: {end})"
        );
        // Rated, but never listed: the leaderboard (every rating admitted) has me
        // alone, as Discord's leaves the AI's seats out.
        let board = std::process::Command::new(env!("CARGO_BIN_EXE_mondo"))
            .args([
                "leaderboard",
                "--json",
                "--min-games",
                "1",
                "--max-deviation",
                "350",
            ])
            .arg("--db")
            .arg(&db)
            .output()
            .unwrap();
        assert!(board.status.success(), "{board:?}");
        let rows: Vec<Value> = serde_json::from_slice(&board.stdout).unwrap();
        let listed: Vec<&Value> = rows.iter().map(|r| &r["player"]).collect();
        assert_eq!(listed, ["me"], "{rows:?}");
    }
}

#[test]
fn after_resume_the_ai_seat_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("resume.db");
    let mut m = start(&db, "beginner", false);
    m.until("round");
    m.send("me: answer A1-A3-A5");
    m.until("waiting");
    m.kill();
    let mut again = Mondo::start(&db, &["--resume"]);
    let (end, seen) = until_end(&mut again);
    assert!(
        seen.iter()
            .any(|v| v["event"] == "waiting" && v["player"] == "ai-beginner"),
        "the AI answered after the restart: {seen:#?} (end: {end})"
    );
    assert!(
        seen.iter()
            .any(|v| v["event"] == "showdown_in" && v["player"] == "ai-beginner"),
        "{seen:#?}"
    );
    assert!(again.wait());
}

/// The match's events (the umpire's and the seats'), each answer without the time it
/// was sent (its seat acts once the hand-driven clock is there, however late it got to
/// it: the AI's own times are held exact by the AI's tests, in virtual time).
fn game_events(log: &[String]) -> Vec<AssemblyEvent> {
    log.iter()
        .filter_map(|body| {
            let event: Event<AssemblyEvent> = serde_json::from_str(body).unwrap();
            match event.game()? {
                AssemblyEvent::Answered { seat, cells, .. } => Some(AssemblyEvent::Answered {
                    seat: *seat,
                    cells: cells.clone(),
                    sent: 0,
                }),
                e => Some(e.clone()),
            }
        })
        .collect()
}

/// An expert and a player (AI seats as on Discord) play a short match on a hand-driven
/// clock; with `restart`, the runtime is shut down when round `restart` begins and
/// started again on the same store. Its events.
async fn ai_match(restart: Option<u8>) -> Vec<AssemblyEvent> {
    let settings = Settings {
        rounds: 3,
        reveal_after: Vec::new(),
        timing: Timing {
            reveal: 6_000,
            wait: 3_000,
            round: 30_000,
            showdown: 20_000,
        },
        ..Settings::original()
    };
    let setup = AssemblySetup {
        players: vec![PlayerId::ai(2, 0), PlayerId::ai(1, 1)],
        seed: 11,
        settings,
    };
    let log = crate::ai_support::ai_match(AnySetup::from(setup), |view| {
        let AnyView::Assembly(v) = view else {
            panic!("not a Pattern Assembly match");
        };
        matches!((&v.phase, restart), (PhaseView::Round { number }, Some(r)) if *number >= r)
    })
    .await;
    game_events(&log)
}

/// After a restart of the runtime (the bot's, or `mondo play --resume`: both take an
/// AI seat up again the same way), the Assembly AI remembers the reveal it saw before
/// (read back from the match's log, with its level's forgetting and misremembering),
/// so it answers exactly as its twin that was never restarted, to the same showdown
/// grids and the same end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_ai_plays_exactly_as_it_would_have() {
    let once = ai_match(None).await;
    let again = ai_match(Some(2)).await;
    let later = once
        .iter()
        .skip_while(|e| !matches!(e, AssemblyEvent::RoundStarted { number: 2, .. }))
        .filter(|e| {
            matches!(
                e,
                AssemblyEvent::Answered { .. } | AssemblyEvent::ShowdownSubmitted { .. }
            )
        })
        .count();
    assert!(later >= 3, "the restart came in play: {once:#?}");
    assert_eq!(again, once);
}
