//! Whole Zendo Duels played through the public API with a fake clock, as the runtime
//! will drive them: typed commands, button presses with versions, the umpire's
//! verdicts and time-outs. Each rule has its own test beside the code
//! (crates/mondo-rules/src/rules/zendo/duel.rs); these check that they hold together over a match.

use mondo::rules::zendo::ZendoMove;
use mondo::rules::zendo::duel::IDLE_TURNS;
use mondo::rules::zendo::testing::flat::{EventKind, flat};
use mondo::rules::zendo::testing::*;
use mondo::rules::zendo::{
    Answer, Duel, DuelMove, Expiry, GuessStatus, Mode, Outcome, Phase, Step, Timing, TurnEnd,
    Which, Zendo,
};
use mondo::rules::{Action, Actor, ErrorCode, Game, Seat, Viewer};

const A: Actor = Actor::Player(ALICE);
const B: Actor = Actor::Player(BOB);
const SEC: u64 = 1_000;

/// "there is exactly one large piece": initial structures `3^` (obeys) and `1^`.
fn one_large() -> Harness<Duel> {
    Harness::duel(duel_setup(parsed("there is exactly one large piece")))
}

fn tickets(h: &Harness<Duel>) -> [u32; 2] {
    [h.game.tickets(Seat::FIRST), h.game.tickets(Seat::SECOND)]
}

fn remaining(h: &Harness<Duel>) -> u64 {
    h.game.clock().remaining(h.now)
}

/// Replaying the log (through JSON) gives the state played, and every event counted.
fn assert_consistent(h: &Harness<Duel>) {
    assert_eq!(h.game.version(), h.log.len() as u64);
    let played = serde_json::to_value(&h.game).unwrap();
    let replayed = serde_json::to_value(h.replayed()).unwrap();
    assert_eq!(played, replayed);
}

#[test]
fn a_duel_from_the_first_choice_to_the_winning_guess() {
    let mut h = one_large();
    let initial = h.game.table().entries();
    assert_eq!(
        (initial[0].koan.to_string(), initial[1].koan.to_string()),
        ("3^".to_string(), "1^".to_string())
    );

    // Alice has the advantage and lets Bob start.
    h.wait(5 * SEC);
    h.ok(A, choose(BOB));
    assert_eq!(h.game.turn_seat(), Some(Seat::SECOND));

    // Turn 1, Bob: a challenge. Alice is right, Bob wrong; Bob has no ticket, so his
    // turn passes as soon as the answers are revealed.
    h.wait(15 * SEC);
    h.ok(B, build(koan("3^ 1>"), Mode::Challenge));
    h.wait(5 * SEC);
    h.ok(A, answer(Answer::Obeys));
    h.wait(5 * SEC);
    let events = h.ok(B, answer(Answer::Not));
    assert!(matches!(
        flat(&events[1].kind),
        EventKind::ChallengeRevealed {
            answers: [Answer::Obeys, Answer::Not],
            obeys: true,
            time_up: false
        }
    ));
    assert_eq!(tickets(&h), [1, 0]);
    assert_eq!((h.game.turn(), h.game.turn_seat()), (2, Some(Seat::FIRST)));

    // Turn 2, Alice: observes, then states a guess that the table already refutes,
    // hears so, and takes it back.
    h.wait(15 * SEC);
    let events = h.ok(A, build(koan("3^ 3v"), Mode::Observe));
    assert!(matches!(
        flat(&events[0].kind),
        EventKind::Observed { obeys: false, .. }
    ));
    h.wait(10 * SEC);
    let events = h.ok(A, guess("some piece is large"));
    let EventKind::GuessRead { contradictions, .. } = &flat(&events[0].kind) else {
        panic!("{events:?}");
    };
    assert_eq!(contradictions, &vec![4]);
    assert_eq!(tickets(&h), [0, 0]);
    h.ok(A, ZendoMove::TakeBack);
    assert_eq!(tickets(&h), [1, 0]);
    assert_eq!(remaining(&h), 180 * SEC - 25 * SEC);
    // The end-turn button she was shown before the guess is stale now.
    let stale = h.game.version() - 2;
    let err = h.act_shown(A, ZendoMove::EndTurn, stale).unwrap_err();
    assert_eq!(err.code(), ErrorCode::StaleVersion);
    let fresh = h.game.version();
    h.act_shown(A, ZendoMove::EndTurn, fresh).unwrap();

    // Turn 3, Bob: takes his time and observes with one second left; with no ticket
    // his turn passes.
    assert_eq!(
        h.game.next_deadline().map(|d| d.on_expiry),
        Some(Expiry::NoStructure)
    );
    h.wait(179 * SEC);
    h.ok(B, build(koan("1< 1<"), Mode::Observe));
    assert_eq!((h.game.turn(), tickets(&h)), (4, [1, 0]));

    // Turn 4, Alice: skips step 1 (Bob gets a ticket) and makes the same wrong guess,
    // confirming it this time.
    h.wait(3 * SEC);
    h.ok(A, DuelMove::Skip);
    assert_eq!(tickets(&h), [1, 1]);
    h.ok(A, guess("some piece is large"));
    // Made official this time: #4 on the table already refutes it, so the umpire
    // names #4 at once instead of asking the finder (the ticket is spent).
    let events = h.ok(A, ZendoMove::Confirm);
    assert!(matches!(
        flat(&events[1].kind),
        EventKind::Refuted {
            on_table: Some(4),
            ..
        }
    ));
    // Out of tickets: the turn passed.
    assert_eq!((h.game.turn(), h.game.turn_seat()), (5, Some(Seat::SECOND)));

    // Turn 5, Bob: challenges; Alice answers wrong, Bob lets his 30 s run out.
    h.ok(B, build(koan("2> 2>"), Mode::Challenge));
    h.ok(A, answer(Answer::Obeys));
    let events = h.run_out();
    assert!(matches!(
        flat(&events[0].kind),
        EventKind::ChallengeRevealed {
            answers: [Answer::Obeys, Answer::Pass],
            obeys: false,
            time_up: true
        }
    ));
    // Bob still has the ticket from Alice's skip: he guesses right.
    assert_eq!(tickets(&h), [0, 1]);
    h.ok(B, guess("exactly one piece is large"));
    h.ok(B, ZendoMove::Confirm);
    let events = h.umpire();
    assert!(matches!(
        flat(&events[0].kind),
        EventKind::MatchEnded {
            outcome: Outcome::Solved {
                by: Seat::SECOND,
                guess: 3
            },
            ..
        }
    ));
    assert_eq!(h.game.winner(), Some(Seat::SECOND));
    assert_eq!(*h.game.phase(), Phase::Over);
    assert_eq!(h.game.guesses()[2].status, GuessStatus::Correct);
    for viewer in [
        Viewer::Player(ALICE),
        Viewer::Player(BOB),
        Viewer::Spectator,
    ] {
        let view = h.game.view(&viewer);
        assert_eq!(
            view.revealed.as_deref(),
            Some("there is exactly one large piece")
        );
        assert_eq!(view.table.len(), 6);
    }
    assert_consistent(&h);
}

#[test]
fn a_duel_driven_by_time_outs_alone() {
    let mut h = one_large();
    h.ok(A, choose(ALICE));
    // Nobody plays: each step-1 time-out hands the opponent a ticket and the turn
    // (until IDLE_TURNS in a row end the duel, see `a_duel_nobody_plays_is_abandoned`).
    for turn in 1..IDLE_TURNS {
        let d = h.game.next_deadline().unwrap();
        assert_eq!(
            (d.turn, d.which, d.on_expiry, d.at),
            (
                turn,
                Which::Turn,
                Expiry::NoStructure,
                turn as u64 * 180 * SEC
            )
        );
        let events = h.run_out();
        assert!(matches!(
            flat(&events[1].kind),
            EventKind::TurnEnded {
                why: TurnEnd::TimeUp,
                ..
            }
        ));
    }
    assert_eq!(tickets(&h), [1, 2]);
    // Turn 4 is Bob's: he skips (Alice +1) and ends his turn.
    h.ok(B, DuelMove::Skip);
    h.ok(B, ZendoMove::EndTurn);
    assert_eq!(tickets(&h), [2, 2]);
    // The process is down for ten minutes in turn 5; that time is not counted.
    h.wait(60 * SEC);
    let died = h.now;
    h.wait(600 * SEC);
    h.ok(Actor::Umpire, Action::Downtime { since: died });
    assert_eq!(remaining(&h), 120 * SEC);
    // Alice challenges; nobody answers; nobody earns.
    h.ok(A, build(koan("3> 3<"), Mode::Challenge));
    h.run_out();
    assert_eq!(tickets(&h), [2, 2]);
    // Step 2 with tickets: the time runs out on a pending guess, which is taken back.
    h.ok(A, guess("some piece is large"));
    assert_eq!(tickets(&h), [1, 2]);
    let d = h.game.next_deadline().unwrap();
    assert_eq!(d.on_expiry, Expiry::NoMoreGuesses);
    h.run_out();
    assert_eq!(tickets(&h), [2, 2]);
    assert_eq!(h.game.guesses()[0].status, GuessStatus::TimedOut);
    // Turn 6 is Bob's; he resigns: Alice wins.
    assert_eq!(h.game.turn_seat(), Some(Seat::SECOND));
    h.ok(B, Action::Resign);
    assert_eq!(h.game.winner(), Some(Seat::FIRST));
    assert_eq!(h.game.next_deadline(), None);
    assert_consistent(&h);
}

#[test]
fn a_host_changes_the_durations() {
    let mut setup = duel_setup(parsed("there is exactly one large piece"));
    setup.timing = Timing {
        turn_ms: 60 * SEC,
        challenge_ms: 10 * SEC,
        guess_bonus_ms: 5 * SEC,
    };
    let mut h = Harness::duel(setup);
    h.ok(A, choose(ALICE));
    assert_eq!(h.game.next_deadline().map(|d| d.at), Some(60 * SEC));
    h.ok(A, build(koan("3^ 2^"), Mode::Challenge));
    assert_eq!(h.game.next_deadline().map(|d| d.at), Some(10 * SEC));
    h.wait(10 * SEC);
    assert!(h.act(B, answer(Answer::Obeys)).is_err());
    h.run_out();
    // Nobody answered: no tickets, the turn passed with a fresh minute.
    assert_eq!(h.game.next_deadline().map(|d| d.at), Some(70 * SEC));
    h.ok(B, DuelMove::Skip);
    h.ok(A, build(koan("3^ 2v"), Mode::Observe));
    h.ok(A, guess("some piece is large"));
    let before = remaining(&h);
    h.ok(A, ZendoMove::Confirm);
    assert_eq!(remaining(&h), before + 5 * SEC);
    assert!(matches!(
        h.game.phase(),
        Phase::Turn {
            step: Step::Verdict { guess: 1 },
            ..
        }
    ));
    assert_consistent(&h);
}
