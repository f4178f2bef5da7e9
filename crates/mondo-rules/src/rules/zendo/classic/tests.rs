//! One test per rule of the Classic rule book (`mod.rs`), against a fake clock.

use super::*;
use crate::koan::PieceSet;
use crate::rules::Actor;
use crate::rules::ErrorCode::{self, *};
use crate::rules::zendo::Zendo;
use crate::rules::zendo::testing::{ALICE, BOB, HOST, Harness, assert_replays, koan, parsed};
use crate::rules::zendo::{GuessStatus, StepView, ZendoMove};

const CAROL: PlayerId = PlayerId(3);
const A: Actor = Actor::Player(ALICE);
const B: Actor = Actor::Player(BOB);
const C: Actor = Actor::Player(CAROL);
const H: Actor = Actor::Host(HOST);
const U: Actor = Actor::Umpire;
const TURN: Millis = 180_000;
const ANSWER: Millis = 30_000;
const RULE: &str = "some piece points up";
/// Wrong (a large piece pointing elsewhere obeys it), but consistent with the table
/// these tests build.
const WRONG: &str = "some piece points up or some piece is large";

/// Alice, Bob and Carol (in that join order); the rule "some piece points up",
/// #1 `1^` obeys, #2 `1>` does not.
fn setup() -> ClassicSetup {
    ClassicSetup {
        students: vec![ALICE, BOB, CAROL],
        master: None,
        hidden: parsed(RULE),
        initial: Initial {
            obeys: koan("1^"),
            does_not: koan("1>"),
        },
        settings: Settings::default(),
        timing: ClassicTiming::default(),
        seed: 5,
        lobby: None,
    }
}

fn game() -> Harness<Classic> {
    Harness::new(setup())
}

fn code<T: std::fmt::Debug>(r: Result<T, RuleError>) -> ErrorCode {
    r.expect_err("should be refused").code()
}

fn build(k: Koan, call: Call) -> ClassicMove {
    ClassicMove::Build { koan: k, call }
}

fn answer(a: Answer) -> ClassicMove {
    ClassicMove::Answer { answer: a }
}

fn guess(text: &str) -> ClassicMove {
    ClassicMove::Guess {
        pattern: parsed(text),
    }
}

fn step(h: &Harness<Classic>) -> &Step {
    match h.game.phase() {
        Phase::Turn { step, .. } => step,
        Phase::Lobby { .. } | Phase::Over => panic!("no turn is under way"),
    }
}

fn stones(h: &Harness<Classic>) -> Vec<u32> {
    (0..3).map(|i| h.game.stones(Seat(i))).collect()
}

/// Alice calls mondo on a structure that obeys; Alice and Carol answer right, Bob
/// wrong: Alice and Carol have a stone, and Alice is in step 3.
fn mondo_won_by_alice_and_carol(h: &mut Harness<Classic>) {
    let k = h.fresh(true);
    h.ok(A, build(k, Call::Mondo));
    h.ok(A, answer(Answer::Obeys));
    h.ok(B, answer(Answer::Not));
    h.ok(C, answer(Answer::Obeys));
}

// ---- Setup

#[test]
fn setup_checks_students_master_and_structures() {
    let mut s = setup();
    s.students = vec![ALICE];
    let e = Classic::start(s, 0).unwrap_err().to_string();
    assert!(e.contains("2 to 8 students, not 1"), "{e}");
    let mut s = setup();
    s.students = (1..=9).map(PlayerId).collect();
    let e = Classic::start(s, 0).unwrap_err().to_string();
    assert!(e.contains("not 9"), "{e}");
    // 8 and 2 are fine.
    let mut s = setup();
    s.students = (1..=8).map(PlayerId).collect();
    let h = Harness::<Classic>::new(s);
    assert_eq!(h.game.players().len(), 8);
    let mut s = setup();
    s.students = vec![ALICE, BOB];
    assert!(Classic::start(s, 0).is_ok());
    let mut s = setup();
    s.students = vec![ALICE, BOB, ALICE];
    assert!(
        Classic::start(s, 0)
            .unwrap_err()
            .to_string()
            .contains("twice")
    );
    // A host Master does not play.
    let mut s = setup();
    s.master = Some(BOB);
    assert!(
        Classic::start(s, 0)
            .unwrap_err()
            .to_string()
            .contains("Master")
    );
    let mut s = setup();
    s.master = Some(HOST);
    let h = Harness::<Classic>::new(s);
    assert_eq!(h.game.master(), Some(HOST));
    // The initial structures are checked against the rule.
    let mut s = setup();
    s.initial.obeys = koan("1v");
    assert_eq!(
        Classic::start(s, 0).unwrap_err(),
        SetupError::ObeyingDoesNot
    );
    // Arrows may be chosen.
    let mut s = setup();
    s.settings.set = PieceSet::Arrows;
    s.initial = Initial {
        obeys: koan("U"),
        does_not: koan("D"),
    };
    assert!(Classic::start(s, 0).is_ok());
}

#[test]
fn turns_go_in_join_order() {
    let mut h = game();
    assert_eq!((h.game.turn(), h.game.turn_seat()), (1, Some(Seat(0))));
    assert_eq!(stones(&h), [0, 0, 0]);
    assert_eq!(h.game.clock().remaining(0), TURN);
    // Nobody but Alice may build now.
    let k = h.fresh(true);
    assert_eq!(code(h.act(B, build(k.clone(), Call::Master))), NotYourTurn);
    h.ok(A, build(k, Call::Master));
    assert_eq!(h.game.turn_seat(), Some(Seat(1)));
    h.wait(5_000);
    let k = h.fresh(false);
    h.ok(B, build(k, Call::Master));
    assert_eq!((h.game.turn(), h.game.turn_seat()), (3, Some(Seat(2))));
    assert_eq!(h.game.clock().remaining(h.now), TURN);
    let k = h.fresh(false);
    h.ok(C, build(k, Call::Master));
    assert_eq!(h.game.turn_seat(), Some(Seat(0)));
    assert_replays(&h);
}

// ---- A turn

#[test]
fn a_turn_starts_with_a_structure() {
    let mut h = game();
    assert_eq!(code(h.act(A, guess("some piece points down"))), WrongPhase);
    assert_eq!(code(h.act(A, ZendoMove::EndTurn)), WrongPhase);
    // Turns go in join order: nobody chooses who starts, whoever asks.
    for who in [A, B] {
        let starter = ZendoMove::ChooseStarter { starter: BOB };
        assert_eq!(
            h.act(who, starter).err(),
            Some(RuleError::Unsupported(NO_STARTER))
        );
    }
    // A structure already given (a moved one too) is refused.
    assert_eq!(
        code(h.act(A, build(koan("1^"), Call::Master))),
        AlreadyGiven
    );
    let e = h
        .act(A, build(koan(".. .. / .. 1^"), Call::Mondo))
        .unwrap_err();
    assert_eq!(e, RuleError::AlreadyGiven { number: 1 });
}

#[test]
fn master_marks_at_once() {
    let mut h = game();
    let events = h.ok(A, build(koan("2^ 1>"), Call::Master));
    assert!(matches!(
        events[0].game(),
        Some(ClassicEvent::Zendo(ZendoEvent::Observed {
            obeys: true,
            ..
        }))
    ));
    let e = &h.game.table().entries()[2];
    assert_eq!((e.number, e.obeys), (3, true));
    // No stone: Alice's turn passed by itself.
    assert_eq!(h.game.turn_seat(), Some(Seat(1)));
}

#[test]
fn mondo_pays_every_right_answer() {
    let mut h = game();
    let k = h.fresh(true);
    h.ok(A, build(k.clone(), Call::Mondo));
    assert!(matches!(step(&h), Step::Challenge { .. }));
    h.ok(A, answer(Answer::Obeys));
    let events = h.ok(B, answer(Answer::Not));
    assert_eq!(events.len(), 1, "Carol has not answered yet");
    let events = h.ok(C, answer(Answer::Obeys));
    assert!(events.iter().any(|e| matches!(
        e.game(),
        Some(ClassicEvent::MondoRevealed { obeys: true, time_up: false, answers })
            if answers.values() == [Answer::Obeys, Answer::Not, Answer::Obeys]
    )));
    assert_eq!(stones(&h), [1, 0, 1]);
    let entry = h.game.table().entries().last().unwrap();
    assert_eq!((&entry.koan, entry.obeys), (&k, true));
    assert_eq!(*step(&h), Step::Guess);
    assert_replays(&h);
}

#[test]
fn mondo_answer_can_change_until_the_reveal() {
    let mut h = game();
    let k = h.fresh(false);
    h.ok(A, build(k, Call::Mondo));
    h.ok(B, answer(Answer::Obeys));
    h.ok(B, answer(Answer::Not));
    h.ok(A, answer(Answer::Pass));
    h.ok(C, answer(Answer::Obeys));
    assert_eq!(stones(&h), [0, 1, 0]);
    // After the reveal there is nothing to answer.
    assert_eq!(code(h.act(B, answer(Answer::Obeys))), WrongPhase);
}

#[test]
fn mondo_answer_after_the_deadline_is_ignored() {
    let mut h = game();
    let k = h.fresh(true);
    h.ok(A, build(k, Call::Mondo));
    h.ok(A, answer(Answer::Obeys));
    h.wait(ANSWER - 1);
    h.ok(B, answer(Answer::Obeys));
    h.wait(1);
    // Carol is late: refused, though the time-out has not come in yet.
    assert_eq!(code(h.act(C, answer(Answer::Obeys))), Expired);
    let events = h.run_out();
    assert!(events.iter().any(|e| matches!(
        e.game(),
        Some(ClassicEvent::MondoRevealed { time_up: true, answers, .. })
            if answers.values() == [Answer::Obeys, Answer::Obeys, Answer::Pass]
    )));
    assert_eq!(stones(&h), [1, 1, 0]);
    assert_replays(&h);
}

#[test]
fn mondo_answers_stay_private_until_the_reveal() {
    let mut h = game();
    let k = h.fresh(true);
    h.ok(A, build(k, Call::Mondo));
    let said = h.ok(B, answer(Answer::Not));
    let heard = |viewer: &Viewer| match h.game.visible(&said[0], viewer).map(|e| e.kind) {
        Some(rules::EventKind::Game(ClassicEvent::MondoAnswered { answer, .. })) => answer,
        other => panic!("{other:?}"),
    };
    assert_eq!(heard(&Viewer::Player(BOB)), Some(Answer::Not));
    assert_eq!(heard(&Viewer::Player(ALICE)), None);
    assert_eq!(heard(&Viewer::Spectator), None);
    let mine = |p: PlayerId| match h.game.view(&Viewer::Player(p)).phase {
        PhaseView::Turn {
            step: StepView::Challenge {
                answered, yours, ..
            },
            ..
        } => (answered.values().to_vec(), yours),
        other => panic!("{other:?}"),
    };
    assert_eq!(mine(BOB), (vec![false, true, false], Some(Answer::Not)));
    assert_eq!(mine(CAROL), (vec![false, true, false], None));
}

// ---- Guesses

#[test]
fn guess_is_read_back_and_can_be_taken_back() {
    let mut h = game();
    mondo_won_by_alice_and_carol(&mut h);
    // Contradicted by #1 (`1^` obeys; "every piece points down" says it does not).
    let events = h.ok(A, guess("every piece points down"));
    match events[0].game() {
        Some(ClassicEvent::Zendo(ZendoEvent::GuessRead { contradictions, .. })) => {
            assert!(contradictions.contains(&1), "{contradictions:?}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(stones(&h), [0, 0, 1]);
    assert_eq!(*step(&h), Step::Pending { guess: 1 });
    assert_eq!(code(h.act(A, ZendoMove::EndTurn)), WrongPhase);
    h.ok(A, ZendoMove::TakeBack);
    assert_eq!(stones(&h), [1, 0, 1]);
    assert_eq!(h.game.guesses()[0].status, GuessStatus::TakenBack);
    // Only the turn's student guesses; a student without a stone cannot.
    assert_eq!(code(h.act(C, guess(WRONG))), NotYourTurn);
    assert_replays(&h);
}

#[test]
fn a_right_guess_wins_and_a_wrong_one_gets_a_counterexample() {
    let mut h = game();
    mondo_won_by_alice_and_carol(&mut h);
    h.ok(A, ZendoMove::EndTurn);
    let k = h.fresh(true);
    h.ok(B, build(k, Call::Mondo));
    for p in [A, B, C] {
        h.ok(p, answer(Answer::Obeys));
    }
    h.ok(B, ZendoMove::EndTurn);
    // Carol has two stones: a wrong guess, then the rule.
    assert_eq!(h.game.turn_seat(), Some(Seat(2)));
    let k = h.fresh(false);
    h.ok(C, build(k, Call::Master));
    assert_eq!(h.game.stones(Seat(2)), 2);
    h.ok(C, guess(WRONG));
    h.wait(10_000);
    let left = h.game.clock().remaining(h.now);
    h.ok(C, ZendoMove::Confirm);
    let ce = h.umpire_refutes();
    assert_ne!(ce.hidden, ce.guess);
    let entry = h.game.table().find(&ce.koan).expect("on the table").clone();
    assert_eq!(entry.obeys, ce.hidden);
    assert_eq!(h.game.clock().remaining(h.now), left + 30_000);
    assert_eq!(*step(&h), Step::Guess);
    h.ok(C, guess(RULE));
    h.ok(C, ZendoMove::Confirm);
    h.umpire();
    assert_eq!(h.game.winner(), Some(Seat(2)));
    assert!(h.game.is_over());
    let v = h.game.view(&Viewer::Player(ALICE));
    assert_eq!(v.revealed.as_deref(), Some(RULE));
    assert_eq!(code(h.act(A, answer(Answer::Obeys))), MatchOver);
    assert_replays(&h);
}

#[test]
fn void_and_disallowed_guesses_return_the_stone() {
    let mut h = game();
    mondo_won_by_alice_and_carol(&mut h);
    h.ok(A, guess(WRONG));
    h.ok(A, ZendoMove::Confirm);
    h.umpire_undecided("the finder ran out of time");
    assert_eq!(h.game.stones(Seat(0)), 1);
    assert!(matches!(
        h.game.guesses()[0].status,
        GuessStatus::Undecided { .. }
    ));
    assert_eq!(code(h.act(H, ZendoMove::Disallow)), WrongPhase);
    h.ok(A, guess("some piece is small"));
    assert_eq!(code(h.act(A, ZendoMove::Disallow)), HostOnly);
    h.ok(H, ZendoMove::Disallow);
    assert_eq!(h.game.stones(Seat(0)), 1);
    assert_eq!(h.game.guesses()[1].status, GuessStatus::Disallowed);
    assert_replays(&h);
}

#[test]
fn turn_passes_when_no_stone_is_left() {
    let mut h = game();
    mondo_won_by_alice_and_carol(&mut h);
    h.ok(A, guess(WRONG));
    h.ok(A, ZendoMove::Confirm);
    h.umpire_refutes();
    // The counterexample took her only stone: Bob's turn.
    assert_eq!(h.game.stones(Seat(0)), 0);
    assert_eq!((h.game.turn(), h.game.turn_seat()), (2, Some(Seat(1))));
    // A mondo nobody wins passes the turn too.
    let k = h.fresh(true);
    h.ok(B, build(k, Call::Mondo));
    for p in [A, B, C] {
        h.ok(p, answer(Answer::Not));
    }
    assert_eq!(h.game.turn_seat(), Some(Seat(2)));
    assert_replays(&h);
}

// ---- Time

#[test]
fn turn_clock_stops_for_mondo_and_verdict() {
    let mut h = game();
    h.wait(20_000);
    let k = h.fresh(true);
    h.ok(A, build(k, Call::Mondo));
    assert_eq!(
        h.game.next_deadline().map(|d| (d.which, d.at)),
        Some((Which::Mondo, h.now + ANSWER))
    );
    h.wait(25_000);
    assert_eq!(h.game.clock().remaining(h.now), TURN - 20_000);
    h.ok(A, answer(Answer::Obeys));
    h.ok(B, answer(Answer::Obeys));
    h.ok(C, answer(Answer::Obeys));
    h.ok(A, guess(WRONG));
    h.ok(A, ZendoMove::Confirm);
    assert_eq!(h.game.next_deadline(), None, "no clock while judging");
    h.wait(600_000);
    // The official guess added its 30 s; nothing ran while judging.
    assert_eq!(h.game.clock().remaining(h.now), TURN - 20_000 + 30_000);
    assert_replays(&h);
}

#[test]
fn timeout_passes_the_turn() {
    let mut h = game();
    mondo_won_by_alice_and_carol(&mut h);
    h.ok(A, guess(WRONG));
    let d = h.game.next_deadline().unwrap();
    assert_eq!(d.which, Which::Turn);
    h.now = d.at;
    // Too late to confirm, even before the time-out comes in.
    assert_eq!(code(h.act(A, ZendoMove::Confirm)), Expired);
    h.run_out();
    assert_eq!(h.game.guesses()[0].status, GuessStatus::TimedOut);
    assert_eq!(h.game.stones(Seat(0)), 1);
    assert_eq!(h.game.turn_seat(), Some(Seat(1)));
    // Nothing built: the turn passes with no structure.
    let table = h.game.table().entries().len();
    h.run_out();
    assert_eq!(h.game.table().entries().len(), table);
    assert_eq!(h.game.turn_seat(), Some(Seat(2)));
    assert_replays(&h);
}

#[test]
fn a_student_skipped_for_timeouts_comes_back_when_they_act() {
    let mut h = game();
    // Bob lets two turns run out in a row.
    let k = h.fresh(true);
    h.ok(A, build(k, Call::Master));
    h.run_out(); // Bob's turn 2
    let k = h.fresh(true);
    h.ok(C, build(k, Call::Master));
    let k = h.fresh(true);
    h.ok(A, build(k, Call::Master));
    assert!(!h.game.is_away(Seat(1)));
    let events = h.run_out(); // Bob's turn 5: skipped from now on
    assert!(
        events
            .iter()
            .any(|e| matches!(e.game(), Some(ClassicEvent::Away { seat: Seat(1) })))
    );
    assert!(h.game.is_away(Seat(1)));
    assert_eq!(h.game.turn_seat(), Some(Seat(2)));
    let k = h.fresh(true);
    h.ok(C, build(k, Call::Master));
    assert_eq!(h.game.turn_seat(), Some(Seat(0)), "Bob is skipped");
    // A mondo does not wait for him; but his answer counts and brings him back.
    let k = h.fresh(true);
    h.ok(A, build(k, Call::Mondo));
    h.ok(A, answer(Answer::Obeys));
    h.ok(B, answer(Answer::Obeys));
    assert!(!h.game.is_away(Seat(1)));
    h.ok(C, answer(Answer::Obeys));
    assert_eq!(stones(&h), [1, 1, 1]);
    h.ok(A, ZendoMove::EndTurn);
    assert_eq!(
        h.game.turn_seat(),
        Some(Seat(1)),
        "Bob is back in the order"
    );
    // One time-out is not enough: acting in between resets the count.
    h.run_out();
    assert!(!h.game.is_away(Seat(1)));
    // `back` is an act too, for a skipped student only.
    assert_eq!(code(h.act(B, ClassicMove::Back)), WrongPhase);
    assert_replays(&h);
}

#[test]
fn a_skipped_student_says_back() {
    let mut h = game();
    for _ in 0..2 {
        let k = h.fresh(true);
        h.ok(A, build(k, Call::Master));
        h.run_out(); // Bob
        let k = h.fresh(true);
        h.ok(C, build(k, Call::Master));
    }
    assert!(h.game.is_away(Seat(1)));
    h.ok(B, ClassicMove::Back);
    assert!(!h.game.is_away(Seat(1)));
    let k = h.fresh(true);
    h.ok(A, build(k, Call::Master));
    assert_eq!(h.game.turn_seat(), Some(Seat(1)));
    assert_replays(&h);
}

#[test]
fn a_game_nobody_plays_ends_with_no_winner() {
    let mut h = game();
    let mut guard = 0;
    while !h.game.is_over() {
        h.run_out();
        guard += 1;
        assert!(guard < 20, "the game should end");
    }
    // Each student missed two turns.
    assert_eq!(guard, 6);
    assert_eq!(h.game.outcome(), Some(Outcome::Deserted { idle: true }));
    assert_eq!(h.game.winner(), None);
    assert_eq!(
        h.game.finish(),
        Some(rules::Finish::Unrated(rules::Why::Abandoned)),
        "every student skipped for time: abandoned, never rated"
    );
    assert_replays(&h);
}

// ---- Leaving and the host

#[test]
fn leaving_down_to_one_student_ends_with_no_winner() {
    let mut h = game();
    mondo_won_by_alice_and_carol(&mut h);
    h.ok(A, guess(WRONG));
    // Alice leaves with her guess pending: withdrawn, the turn passes.
    h.ok(A, rules::Action::Resign);
    assert!(h.game.has_left(Seat(0)));
    assert_eq!(h.game.guesses()[0].status, GuessStatus::TakenBack);
    assert_eq!(stones(&h), [0, 0, 1], "her stones go with her");
    assert_eq!(h.game.turn_seat(), Some(Seat(1)));
    assert_eq!(code(h.act(A, answer(Answer::Obeys))), WrongPhase);
    // A mondo does not wait for the one who left; Carol leaving mid-mondo reveals it.
    let k = h.fresh(true);
    h.ok(B, build(k, Call::Mondo));
    h.ok(B, answer(Answer::Obeys));
    assert!(!h.game.is_over());
    h.ok(C, rules::Action::Resign);
    assert!(h.game.is_over());
    assert_eq!(h.game.outcome(), Some(Outcome::Deserted { idle: false }));
    assert_eq!(h.game.winner(), None);
    // Rated: the one who stayed first, the students who left last.
    assert_eq!(h.game.finish(), Some(placed(&[1, 0, 1])));
    assert_eq!(
        h.game.view(&Viewer::Spectator).revealed.as_deref(),
        Some(RULE)
    );
    assert_replays(&h);
}

/// The Classic's rated result, places in seat order (Alice, Bob, Carol).
fn placed(places: &[u32]) -> rules::Finish {
    rules::Finish::Placed {
        method: rules::finish::Method::WengLin,
        places: [ALICE, BOB, CAROL]
            .into_iter()
            .zip(places.iter().copied())
            .collect(),
    }
}

/// The fair-play rule (docs/ratings.md): a student who leaves after the start is
/// ranked last, behind the students who stayed.
#[test]
fn a_student_who_leaves_after_the_start_is_ranked_last() {
    let mut h = game();
    mondo_won_by_alice_and_carol(&mut h);
    h.ok(B, rules::Action::Resign); // Bob answered, then left
    h.ok(A, guess(RULE));
    h.ok(A, ZendoMove::Confirm);
    h.umpire();
    assert_eq!(h.game.winner(), Some(Seat(0)));
    assert_eq!(h.game.finish(), Some(placed(&[0, 2, 1])));
    // Nobody left: the winner first, the others tied behind.
    let mut h = game();
    mondo_won_by_alice_and_carol(&mut h);
    h.ok(A, guess(RULE));
    h.ok(A, ZendoMove::Confirm);
    h.umpire();
    assert_eq!(h.game.finish(), Some(placed(&[0, 1, 1])));
}

#[test]
fn leaving_mid_mondo_reveals_when_the_rest_have_answered() {
    let mut h = game();
    let k = h.fresh(true);
    h.ok(A, build(k, Call::Mondo));
    h.ok(B, answer(Answer::Obeys));
    h.ok(C, answer(Answer::Obeys));
    // The builder leaves: the others have answered, so the mondo is revealed, and the
    // turn passes.
    h.ok(A, rules::Action::Resign);
    assert_eq!(stones(&h), [0, 1, 1]);
    assert_eq!(h.game.turn_seat(), Some(Seat(1)));
    assert_replays(&h);
}

#[test]
fn host_pause_end_and_downtime() {
    let mut h = game();
    h.wait(30_000);
    assert_eq!(code(h.act(A, rules::Action::Pause)), HostOnly);
    h.ok(H, rules::Action::Pause);
    assert_eq!(h.game.next_deadline(), None);
    h.wait(3_600_000);
    let k = h.fresh(true);
    assert_eq!(code(h.act(A, build(k.clone(), Call::Mondo))), Paused);
    h.ok(H, rules::Action::Resume);
    assert_eq!(h.game.clock().remaining(h.now), TURN - 30_000);
    // Down from 10 s into the mondo to 1000 s later: the answer clock keeps 20 s.
    h.ok(A, build(k, Call::Mondo));
    h.wait(10_000);
    let since = h.now;
    h.wait(1_000_000);
    h.ok(U, rules::Action::Downtime { since });
    assert_eq!(
        h.game.next_deadline().map(|d| (d.which, d.at)),
        Some((Which::Mondo, h.now + 20_000))
    );
    // A host who plays has no overrides; one who does not ends the game.
    let mut s = setup();
    s.students = vec![ALICE, HOST];
    let mut other = Harness::<Classic>::new(s);
    assert_eq!(code(other.act(H, rules::Action::End)), HostPlays);
    h.ok(H, rules::Action::End);
    assert_eq!(h.game.outcome(), Some(Outcome::Ended { by: HOST }));
    assert_eq!(h.game.winner(), None);
    assert_replays(&h);
}

#[test]
fn views_never_hold_the_rule() {
    let mut h = game();
    mondo_won_by_alice_and_carol(&mut h);
    // Refuted by #1 at once (the guess's text does not hold the rule's).
    h.ok(A, guess("some piece is large"));
    h.ok(A, ZendoMove::Confirm);
    assert!(matches!(
        h.game.guesses()[0].status,
        GuessStatus::Refuted { counterexample: 1 }
    ));
    let hidden = serde_json::to_string(&h.game.hidden().formula).unwrap();
    for viewer in [
        Viewer::Player(ALICE),
        Viewer::Player(BOB),
        Viewer::Spectator,
    ] {
        let v = serde_json::to_string(&h.game.view(&viewer)).unwrap();
        assert!(!v.contains(RULE) && !v.contains(&hidden), "{v}");
        for e in &h.log {
            if let Some(e) = h.game.visible(e, &viewer) {
                let text = serde_json::to_string(&e).unwrap();
                assert!(!text.contains(RULE), "{text}");
            }
        }
    }
    assert!(h.game.visible(&h.log[0], &Viewer::Spectator).is_none());
}

// ---- The lobby

const DAN: PlayerId = PlayerId(4);
const D: Actor = Actor::Player(DAN);
/// A lobby's lifetime in these tests.
const OPEN: Millis = 600_000;

/// A lobby Alice opened (she is its first student), closing 10 minutes later.
fn lobby() -> Harness<Classic> {
    let mut s = setup();
    s.students = vec![ALICE];
    s.lobby = Some(LobbySetup {
        opener: ALICE,
        closes_at: OPEN,
        lifetime_ms: OPEN,
    });
    Harness::new(s)
}

fn players(h: &Harness<Classic>) -> Vec<PlayerId> {
    h.game.players().to_vec()
}

fn said<T: std::fmt::Debug>(r: Result<T, RuleError>) -> String {
    r.expect_err("should be refused").to_string()
}

#[test]
fn a_lobby_gathers_students_in_join_order() {
    let mut h = lobby();
    assert!(h.game.in_lobby() && !h.game.is_over());
    assert_eq!(h.game.turn_seat(), None, "no turn before the start");
    h.ok(C, ClassicMove::Join);
    h.ok(B, ClassicMove::Join);
    assert_eq!(players(&h), vec![ALICE, CAROL, BOB], "join order");
    assert_eq!(said(h.act(B, ClassicMove::Join)), "you are in already");
    // Leaving (the button, or the shared resign) frees the seat; those after move up.
    h.ok(C, ClassicMove::Leave);
    assert_eq!(players(&h), vec![ALICE, BOB]);
    h.ok(B, Action::Resign);
    assert_eq!(players(&h), vec![ALICE]);
    assert_eq!(code(h.act(B, ClassicMove::Leave)), NotAPlayer);
    h.ok(B, ClassicMove::Join);
    // A game's moves wait for the start; a lobby's are refused after it.
    assert_eq!(code(h.act(A, ZendoMove::EndTurn)), WrongPhase);
    // A host seats someone (an AI student, on Discord), as the opener may; nobody
    // else; a host joins too.
    h.ok(H, ClassicMove::AddStudent { player: DAN });
    assert_eq!(
        said(h.act(H, ClassicMove::AddStudent { player: DAN })),
        "player 4 is in already"
    );
    assert!(matches!(
        h.act(B, ClassicMove::AddStudent { player: CAROL }),
        Err(RuleError::NotOpener { .. })
    ));
    h.ok(A, ClassicMove::AddStudent { player: CAROL });
    h.ok(C, ClassicMove::Leave);
    h.ok(H, ClassicMove::Join);
    assert_eq!(players(&h), vec![ALICE, BOB, DAN, HOST]);
    for p in 10..14 {
        h.ok(Actor::Player(PlayerId(p)), ClassicMove::Join);
    }
    assert_eq!(h.game.players().len(), MAX_STUDENTS);
    assert_eq!(
        said(h.act(C, ClassicMove::Join)),
        "the lobby is full (8 students)"
    );
    assert_replays(&h);
    // Joining bumps the version but not the phase: the lobby's buttons stay good.
    assert_eq!(
        h.act_shown(C, ClassicMove::Leave, 1).map(|_| ()),
        Err(RuleError::NotAPlayer)
    );
    h.act_shown(D, ClassicMove::Leave, 1)
        .expect("an old lobby button works");
}

#[test]
fn a_lobby_with_a_master_keeps_the_master_out() {
    let mut s = setup();
    s.students = vec![];
    s.master = Some(HOST);
    s.lobby = Some(LobbySetup {
        opener: HOST,
        closes_at: OPEN,
        lifetime_ms: OPEN,
    });
    let mut h = Harness::<Classic>::new(s);
    assert_eq!(
        said(h.act(Actor::Player(HOST), ClassicMove::Join)),
        "you are this game's Master: the Master does not play"
    );
    h.ok(A, ClassicMove::Join);
    h.ok(B, ClassicMove::Join);
    // The opener who does not play starts it (as a player or as a host).
    h.ok(Actor::Player(HOST), ClassicMove::Start);
    assert_eq!(h.game.turn_seat(), Some(Seat::FIRST));
    assert_eq!(h.game.master(), Some(HOST));
}

#[test]
fn only_the_opener_or_a_host_starts_a_lobby() {
    let mut h = lobby();
    assert_eq!(
        said(h.act(A, ClassicMove::Start)),
        "Zendo Classic needs 2 to 8 students; 1 joined"
    );
    h.ok(B, ClassicMove::Join);
    h.ok(C, ClassicMove::Join);
    let e = said(h.act(C, ClassicMove::Start));
    assert!(
        e.contains("only player 1 (who opened the lobby) or a host starts it"),
        "{e}"
    );
    assert!(h.act(D, ClassicMove::Start).is_err(), "nor a passer-by");
    let shown = h.game.version();
    h.wait(5_000);
    h.ok(A, ClassicMove::Start);
    assert!(!h.game.in_lobby());
    assert_eq!(h.game.turn_seat(), Some(Seat::FIRST));
    assert_eq!(stones(&h), vec![0, 0, 0]);
    assert_eq!(
        h.game.clock().remaining(h.now),
        TURN,
        "the turn clock starts now"
    );
    // The lobby's moves are refused now, and anything drawn before the start is stale.
    assert_eq!(code(h.act_shown(C, ClassicMove::Join, shown)), WrongPhase);
    let k = h.fresh(true);
    assert_eq!(
        code(h.act_shown(A, build(k, Call::Master), shown)),
        StaleVersion
    );
    assert_eq!(
        said(h.act(D, ClassicMove::Join)),
        "this lobby is closed: the game has started"
    );
    assert_eq!(code(h.act(A, ClassicMove::Leave)), WrongPhase);
    // The game is a Classic game like any other.
    let k = h.fresh(true);
    h.ok(A, build(k, Call::Master));
    assert_replays(&h);
    // A host starts one too.
    let mut h = lobby();
    h.ok(B, ClassicMove::Join);
    h.ok(H, ClassicMove::Start);
    assert_eq!(players(&h), vec![ALICE, BOB]);
}

#[test]
fn a_lobby_nobody_starts_closes_at_its_time_and_keeps_the_rule() {
    let mut h = lobby();
    h.ok(B, ClassicMove::Join);
    let d = h.game.next_deadline().expect("the closing time");
    assert_eq!((d.at, d.which), (OPEN, Which::Lobby));
    // Downtime is not counted: the closing time moves on by it.
    h.wait(100_000);
    h.ok(U, Action::Downtime { since: 40_000 });
    assert_eq!(
        code(h.act(U, Action::Timeout { deadline: d })),
        StaleDeadline
    );
    let d = h.game.next_deadline().expect("the closing time");
    assert_eq!(d.at, OPEN + 60_000);
    h.wait(OPEN - 41_000);
    assert_eq!(code(h.act(U, Action::Timeout { deadline: d })), TooEarly);
    let events = h.run_out();
    assert!(matches!(
        events[0].game(),
        Some(ClassicEvent::LobbyClosed { by: None })
    ));
    assert!(h.game.is_over() && h.game.is_closed());
    assert_eq!(h.game.next_deadline(), None);
    assert_eq!(code(h.act(C, ClassicMove::Join)), MatchOver);
    // Nothing is revealed: no game was played.
    let v = h.game.view(&Viewer::Spectator);
    assert_eq!(
        (v.revealed, v.outcome, v.phase),
        (None, None, PhaseView::Over)
    );
    assert!(!h.game.secrets(&Viewer::Spectator).is_empty());
    assert_replays(&h);
    // A host's end closes a lobby the same way.
    let mut h = lobby();
    h.ok(H, Action::End);
    assert!(h.game.is_closed());
    assert!(h.game.view(&Viewer::Spectator).revealed.is_none());
    assert!(matches!(
        h.log.last().and_then(|e| e.game()),
        Some(ClassicEvent::LobbyClosed { by: Some(HOST) })
    ));
}

#[test]
fn a_lobby_view_says_who_opened_it_and_when_it_closes() {
    let mut h = lobby();
    h.ok(B, ClassicMove::Join);
    let v = h.game.view(&Viewer::Player(BOB));
    assert_eq!(v.you, Some(Seat(1)));
    assert_eq!(
        v.phase,
        PhaseView::Lobby {
            opener: ALICE,
            closes_at: OPEN,
            lifetime_ms: OPEN
        }
    );
    let text = serde_json::to_string(&v).unwrap();
    assert!(!text.contains("points up"), "{text}");
}
