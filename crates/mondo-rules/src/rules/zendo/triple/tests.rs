//! One test per rule of the Triple's rule book (`mod.rs`), against a fake clock.

use super::setup::arrows;
use super::*;
use crate::finder::Counterexample;
use crate::koan::PieceSet;
use crate::rules::Actor;
use crate::rules::ErrorCode::{self, *};
use crate::rules::zendo::Answer;
use crate::rules::zendo::GuessStatus;
use crate::rules::zendo::ZendoMove;
use crate::rules::zendo::testing::{
    ALICE, BOB, HOST, Harness, assert_idle_end, assert_replays, koan, parsed, small_search_verdict,
};
use crate::rules::zendo::{Mode, Withdrawal, ZendoEvent};

const A: Actor = Actor::Player(ALICE);
const B: Actor = Actor::Player(BOB);
const H: Actor = Actor::Host(HOST);
const U: Actor = Actor::Umpire;
const TURN: Millis = 180_000;

/// A: some arrow up; B: some arrow right; C: some arrow left. #1 `URL` obeys all
/// three, #2 `D` none.
fn setup() -> TripleSetup {
    TripleSetup {
        players: [ALICE, BOB],
        starter: Some(ALICE),
        advantage: None,
        hidden: Box::new([
            parsed("some piece points up"),
            parsed("some piece points right"),
            parsed("some piece points left"),
        ]),
        opening: Box::new(TripleOpening {
            all: koan("URL"),
            fewest: koan("D"),
            separators: [koan("U"), koan("U"), koan("R")],
        }),
        settings: arrows(),
        timing: TripleTiming::default(),
        seed: 11,
    }
}

fn game() -> Harness<Triple> {
    Harness::new(setup())
}

fn code<T: std::fmt::Debug>(r: Result<T, RuleError>) -> ErrorCode {
    r.expect_err("should be refused").code()
}

fn build(k: &str, mode: Mode, patterns: &[Letter]) -> TripleMove {
    TripleMove::Build {
        koan: koan(k),
        mode,
        patterns: patterns.to_vec(),
    }
}

fn answers(a: &[Answer]) -> TripleMove {
    TripleMove::Answer {
        answers: a.to_vec(),
    }
}

fn guess(pattern: Letter, text: &str) -> TripleMove {
    TripleMove::Guess {
        pattern,
        guess: parsed(text),
    }
}

fn truth(h: &Harness<Triple>, l: Letter, k: &Koan) -> bool {
    crate::lang::evaluate(&h.game.hidden(l).formula, k)
}

fn right(obeys: bool) -> Answer {
    if obeys { Answer::Obeys } else { Answer::Not }
}

fn wrong(obeys: bool) -> Answer {
    right(!obeys)
}

/// The umpire's verdict on the awaited guess, by the small-structure search.
fn umpire(h: &mut Harness<Triple>) -> Vec<Event> {
    let (pattern, job) = h.game.verdict_job().expect("a guess awaiting a verdict");
    let verdict = small_search_verdict(&job);
    h.ok(
        U,
        TripleMove::Verdict {
            pattern,
            guess: job.guess,
            verdict,
        },
    )
}

fn step(h: &Harness<Triple>) -> &Step {
    match h.game.phase() {
        Phase::Turn { step, .. } => step,
        other => panic!("no turn: {other:?}"),
    }
}

/// Alice challenges `URD` on every pattern (A yes, B yes, C no): she answers all
/// three right, Bob all wrong. She has three stones and is in step 2.
fn alice_with_three_stones() -> Harness<Triple> {
    let mut h = game();
    h.ok(A, build("URD", Mode::Challenge, &[]));
    h.ok(A, answers(&[Answer::Obeys, Answer::Obeys, Answer::Not]));
    h.ok(B, answers(&[Answer::Not, Answer::Not, Answer::Obeys]));
    assert_eq!(h.game.stones(Seat::FIRST), 3);
    assert_eq!(h.game.stones(Seat::SECOND), 0);
    h
}

/// Alice solves pattern A with one of her stones.
fn alice_solves_a(h: &mut Harness<Triple>) {
    h.ok(A, guess(Letter::A, "some arrow points up"));
    h.ok(A, ZendoMove::Confirm);
    let events = umpire(h);
    assert!(
        events.iter().any(|e| matches!(
            e.game(),
            Some(TripleEvent::Solved {
                pattern: Letter::A,
                ..
            })
        )),
        "{events:?}"
    );
}

// ---- Setup

#[test]
fn setup_checks_set_players_and_starter() {
    let mut s = setup();
    s.settings.set = PieceSet::Pyramids;
    assert!(Triple::start(s, 0).is_err());
    let mut s = setup();
    s.players = [ALICE, ALICE];
    assert_eq!(Triple::start(s, 0).unwrap_err(), SetupError::SamePlayer);
    let mut s = setup();
    s.starter = Some(HOST);
    assert!(
        Triple::start(s, 0)
            .unwrap_err()
            .to_string()
            .contains("starting player")
    );
    let mut s = setup();
    s.starter = Some(BOB);
    let h = Harness::<Triple>::new(s);
    assert_eq!(h.game.turn_seat(), Some(Seat::SECOND));
    assert_eq!(h.game.turn(), 1);
}

/// Bob, the one challenged, has the advantage: he alone chooses who starts, nothing
/// else happens before, and the time of play has not begun. Silence for a turn's
/// length, or leaving, declines the match (no winner).
#[test]
fn advantage_player_chooses_who_starts() {
    let choosing = || {
        let mut s = setup();
        s.starter = None;
        s.advantage = Some(BOB);
        Harness::<Triple>::new(s)
    };
    let mut s = setup();
    s.advantage = Some(BOB);
    assert!(
        Triple::start(s, 0).is_err(),
        "the starter or the advantage, not both"
    );
    let mut s = setup();
    s.starter = None;
    s.advantage = Some(HOST);
    assert_eq!(
        Triple::start(s, 0).unwrap_err(),
        SetupError::AdvantageNotPlaying
    );

    let mut h = choosing();
    assert_eq!(h.game.turn_seat(), None);
    assert_eq!(h.game.choosing(), Some(Seat::SECOND));
    let choose = |p: PlayerId| TripleMove::Zendo(ZendoMove::ChooseStarter { starter: p });
    assert_eq!(code(h.act(A, choose(ALICE))), NotYourTurn);
    assert_eq!(code(h.act(A, build("U", Mode::Observe, &[]))), NotYourTurn);
    assert_eq!(code(h.act(B, build("U", Mode::Observe, &[]))), WrongPhase);
    assert_eq!(code(h.act(B, choose(HOST))), NotAPlayer);
    h.wait(60_000);
    assert_eq!(
        h.game.game_clock().remaining(h.now),
        TripleTiming::default().game_ms
    );
    let events = h.ok(B, choose(ALICE));
    assert!(matches!(
        events[0].game(),
        Some(TripleEvent::StarterChosen {
            starter: Seat::FIRST
        })
    ));
    assert_eq!((h.game.turn_seat(), h.game.turn()), (Some(Seat::FIRST), 1));
    assert_eq!(code(h.act(B, choose(BOB))), WrongPhase);
    h.ok(A, build("U", Mode::Observe, &[]));
    assert_replays(&h);

    // No choice within a turn's length: declined, nobody wins.
    let mut h = choosing();
    h.run_out();
    assert_eq!(h.now, TURN);
    assert_eq!(
        h.game.outcome(),
        Some(TripleOutcome::Declined {
            by: Seat::SECOND,
            time_up: true
        })
    );
    assert_eq!(h.game.winner(), None);
    assert_replays(&h);
    // Leaving before the start declines too.
    let mut h = choosing();
    h.ok(A, rules::Action::Resign);
    assert_eq!(
        h.game.outcome(),
        Some(TripleOutcome::Declined {
            by: Seat::FIRST,
            time_up: false
        })
    );
    assert_eq!(h.game.winner(), None);
}

#[test]
fn setup_proves_the_three_patterns_differ() {
    // B and C made the same pattern: no structure tells them apart.
    let mut s = setup();
    s.hidden[2] = parsed("some arrow points right");
    let e = Triple::start(s, 0).unwrap_err().to_string();
    assert!(e.contains("patterns B and C must differ"), "{e}");
    // A separator that does not separate is refused too.
    let mut s = setup();
    s.opening.separators[0] = koan("D");
    let e = Triple::start(s, 0).unwrap_err().to_string();
    assert!(e.contains("A and B"), "{e}");
}

#[test]
fn openings_are_graded_on_all_three() {
    let h = game();
    let t = h.game.table();
    assert_eq!(t.len(), 2);
    assert_eq!(t[0].marks, [Some(true); 3]);
    assert_eq!(t[1].marks, [Some(false); 3]);
    // #1 must obey all three.
    let mut s = setup();
    s.opening.all = koan("UR");
    let e = Triple::start(s, 0).unwrap_err().to_string();
    assert!(e.contains("does not obey C"), "{e}");
    // When nothing obeys none, #2's marks say which it obeys.
    let mut s = setup();
    s.opening.fewest = koan("DU");
    let h = Harness::<Triple>::new(s);
    assert_eq!(
        h.game.table()[1].marks,
        [Some(true), Some(false), Some(false)]
    );
}

// ---- Step 1

#[test]
fn grade_marks_the_named_patterns_only() {
    let mut h = game();
    h.ok(A, build("UD", Mode::Observe, &[Letter::A, Letter::C]));
    let e = &h.game.table()[2];
    assert_eq!(e.number, 3);
    assert_eq!(e.marks, [Some(true), None, Some(false)]);
    // No stone: the turn passed.
    assert_eq!(h.game.turn_seat(), Some(Seat::SECOND));
    // Naming none grades every unsolved pattern; repeats are refused.
    h.ok(B, build("RD", Mode::Observe, &[]));
    assert_eq!(
        h.game.table()[3].marks,
        [Some(false), Some(true), Some(false)]
    );
    assert_eq!(
        code(h.act(A, build("UD", Mode::Observe, &[]))),
        AlreadyGiven
    );
    // Pattern B's own table holds only the structures graded on it (#1, #2, #4): a
    // guess's contradictions use public marks only.
    let numbers: Vec<u32> = h
        .game
        .core(Letter::B)
        .table
        .entries()
        .iter()
        .map(|e| e.number)
        .collect();
    assert_eq!(numbers, vec![1, 2, 4]);
    assert_replays(&h);
}

#[test]
fn a_solved_pattern_cannot_be_graded_challenged_or_guessed() {
    let mut h = alice_with_three_stones();
    alice_solves_a(&mut h);
    assert_eq!(h.game.solved()[0], Some(Seat::FIRST));
    assert_eq!(h.game.unsolved(), vec![Letter::B, Letter::C]);
    assert_eq!(
        code(h.act(A, guess(Letter::A, "some arrow points up"))),
        Solved
    );
    h.ok(A, ZendoMove::EndTurn);
    assert_eq!(
        code(h.act(B, build("DD", Mode::Observe, &[Letter::A]))),
        Solved
    );
    assert_eq!(
        code(h.act(B, build("DD", Mode::Challenge, &[Letter::B, Letter::A]))),
        Solved
    );
    // By default only the unsolved are graded.
    h.ok(B, build("DD", Mode::Observe, &[]));
    assert_eq!(
        h.game.table().last().unwrap().marks,
        [None, Some(false), Some(false)]
    );
    // The solved pattern is revealed; the others are not.
    let v = h.game.view(&Viewer::Player(BOB));
    assert_eq!(v.revealed[0].as_deref(), Some("some piece points up"));
    assert_eq!(v.revealed[1], None);
    assert_replays(&h);
}

#[test]
fn skipping_step_1_costs_nothing() {
    let mut h = alice_with_three_stones();
    h.ok(A, ZendoMove::EndTurn);
    // Bob ends at once: Alice gets nothing for it, and he loses nothing.
    h.ok(B, ZendoMove::EndTurn);
    assert_eq!(h.game.stones(Seat::FIRST), 3);
    assert_eq!(h.game.stones(Seat::SECOND), 0);
    // Alice skips step 1 and guesses at once.
    h.ok(A, guess(Letter::B, "some arrow points down"));
    assert!(matches!(
        step(&h),
        Step::Pending {
            pattern: Letter::B,
            guess: 1
        }
    ));
    assert_eq!(h.game.stones(Seat::FIRST), 2);
}

#[test]
fn challenge_pays_a_stone_per_right_answer() {
    let mut h = game();
    h.ok(A, build("UD", Mode::Challenge, &[Letter::A, Letter::B]));
    // Wrong count of answers is refused, with what to do.
    assert_eq!(code(h.act(A, answers(&[Answer::Obeys]))), Unsupported);
    h.ok(A, answers(&[Answer::Obeys, Answer::Pass])); // 1 right
    let events = h.ok(B, answers(&[Answer::Obeys, Answer::Not])); // 2 right
    assert!(events.iter().any(|e| matches!(
        e.game(),
        Some(TripleEvent::ChallengeRevealed { marks, time_up: false, .. })
            if *marks == [Some(true), Some(false), None]
    )));
    assert_eq!(h.game.stones(Seat::FIRST), 1);
    assert_eq!(h.game.stones(Seat::SECOND), 2);
    assert_eq!(h.game.table()[2].marks, [Some(true), Some(false), None]);
    assert!(matches!(step(&h), Step::Guess));
    assert_replays(&h);
}

#[test]
fn challenge_answer_can_change_until_the_reveal() {
    let mut h = game();
    h.ok(A, build("UD", Mode::Challenge, &[Letter::C]));
    h.ok(A, answers(&[Answer::Obeys]));
    h.ok(A, answers(&[Answer::Not])); // changed: now right
    h.ok(B, answers(&[Answer::Obeys]));
    assert_eq!(h.game.stones(Seat::FIRST), 1);
    assert_eq!(h.game.stones(Seat::SECOND), 0);
    // After the reveal there is nothing to answer.
    assert_eq!(code(h.act(B, answers(&[Answer::Not]))), WrongPhase);
}

#[test]
fn challenge_answer_after_the_deadline_is_ignored() {
    let mut h = game();
    h.ok(A, build("UD", Mode::Challenge, &[Letter::A]));
    h.ok(A, answers(&[Answer::Obeys]));
    h.wait(60_000);
    assert_eq!(code(h.act(B, answers(&[Answer::Obeys]))), Expired);
    let events = h.run_out();
    assert!(events.iter().any(|e| matches!(
        e.game(),
        Some(TripleEvent::ChallengeRevealed { time_up: true, answers, .. })
            if answers.values()[1] == vec![Answer::Pass]
    )));
    assert_eq!(h.game.stones(Seat::FIRST), 1);
    assert_eq!(h.game.stones(Seat::SECOND), 0);
}

#[test]
fn answers_stay_private_until_the_reveal() {
    let mut h = game();
    h.ok(A, build("UD", Mode::Challenge, &[Letter::A]));
    let events = h.ok(B, answers(&[Answer::Not]));
    let bob = Viewer::Player(BOB);
    for viewer in [Viewer::Player(ALICE), Viewer::Spectator] {
        let heard = h.game.redact(events[0].game().unwrap(), &viewer).unwrap();
        assert!(
            matches!(heard, TripleEvent::ChallengeAnswered { answers: None, .. }),
            "{heard:?}"
        );
        match h.game.view(&viewer).phase {
            PhaseView::Turn {
                step:
                    StepView::Challenge {
                        yours, answered, ..
                    },
                ..
            } => {
                assert_eq!(yours, None);
                assert_eq!(answered.values(), &[false, true]);
            }
            other => panic!("{other:?}"),
        }
    }
    let heard = h.game.redact(events[0].game().unwrap(), &bob).unwrap();
    assert!(matches!(
        heard,
        TripleEvent::ChallengeAnswered {
            answers: Some(_),
            ..
        }
    ));
}

// ---- Step 2

#[test]
fn guess_is_read_back_and_can_be_taken_back() {
    let mut h = alice_with_three_stones();
    // Not a pattern about the arrows' pieces: refused, costs nothing.
    assert_eq!(
        code(h.act(A, guess(Letter::A, "some piece is large"))),
        WrongSet
    );
    // #2 `D` does not obey B; "no arrow points up" says it does: contradicted by #2.
    let events = h.ok(A, guess(Letter::B, "no arrow points up"));
    match events[0].game() {
        Some(TripleEvent::Pattern {
            pattern: Letter::B,
            zendo:
                ZendoEvent::GuessRead {
                    number: 1,
                    contradictions,
                    reading,
                    ..
                },
        }) => {
            assert!(contradictions.contains(&2), "{contradictions:?}");
            assert!(!reading.is_empty());
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(h.game.stones(Seat::FIRST), 2);
    assert_eq!(code(h.act(A, ZendoMove::EndTurn)), WrongPhase);
    h.ok(A, ZendoMove::TakeBack);
    assert_eq!(h.game.stones(Seat::FIRST), 3);
    assert_eq!(
        h.game.core(Letter::B).guesses[0].status,
        GuessStatus::TakenBack
    );
    assert_replays(&h);
}

#[test]
fn counterexample_marks_one_pattern_and_adds_30_seconds() {
    let mut h = alice_with_three_stones();
    h.wait(10_000);
    h.ok(
        A,
        guess(Letter::C, "some arrow points left and some arrow points up"),
    );
    h.ok(A, ZendoMove::Confirm);
    let before = h.game.clock().remaining(h.now);
    let events = umpire(&mut h);
    let Some(TripleEvent::Pattern {
        pattern: Letter::C,
        zendo:
            ZendoEvent::Refuted {
                counterexample,
                on_table: None,
                ..
            },
    }) = events[0].game()
    else {
        panic!("{events:?}")
    };
    let entry = h.game.table().last().unwrap().clone();
    assert_eq!(entry.koan, counterexample.koan);
    assert_eq!(entry.marks, [None, None, Some(counterexample.hidden)]);
    assert_eq!(h.game.clock().remaining(h.now), before + 30_000);
    assert!(matches!(step(&h), Step::Guess));
    // The same wrong guess again is refuted by the table, naming that structure, and
    // adds 30 s too.
    h.ok(
        A,
        guess(Letter::C, "some arrow points left and some arrow points up"),
    );
    let events = h.ok(A, ZendoMove::Confirm);
    assert!(events.iter().any(|e| matches!(
        e.game(),
        Some(TripleEvent::Pattern { zendo: ZendoEvent::Refuted { on_table: Some(n), .. }, .. })
            if *n == entry.number
    )));
    assert_eq!(h.game.clock().remaining(h.now), before + 60_000);
    // A false verdict is refused.
    h.ok(
        A,
        guess(
            Letter::B,
            "some arrow points right or some arrow points left",
        ),
    );
    h.ok(A, ZendoMove::Confirm);
    let bad = TripleMove::Verdict {
        pattern: Letter::B,
        guess: 1,
        verdict: Verdict::Counterexample(Counterexample {
            koan: koan("UUU"),
            hidden: false,
            guess: false,
        }),
    };
    assert_eq!(code(h.act(U, bad)), BadVerdict);
    assert_replays(&h);
}

#[test]
fn solving_two_patterns_wins() {
    let mut h = alice_with_three_stones();
    alice_solves_a(&mut h);
    // The turn goes on with her last two stones.
    assert!(matches!(step(&h), Step::Guess));
    h.ok(A, guess(Letter::B, "some arrow points right"));
    h.ok(A, ZendoMove::Confirm);
    let events = umpire(&mut h);
    assert!(events.iter().any(|e| matches!(
        e.game(),
        Some(TripleEvent::TripleEnded { outcome: TripleOutcome::TwoSolved { by: Seat::FIRST }, patterns })
            if patterns[2] == "some piece points left"
    )));
    assert_eq!(h.game.winner(), Some(Seat::FIRST));
    assert!(h.game.is_over());
    assert_eq!(code(h.act(B, ZendoMove::EndTurn)), MatchOver);
    assert_replays(&h);
}

#[test]
fn void_and_disallowed_guesses_return_the_stone() {
    let mut h = alice_with_three_stones();
    h.ok(
        A,
        guess(Letter::A, "some arrow points up or some arrow points left"),
    );
    h.ok(A, ZendoMove::Confirm);
    h.ok(
        U,
        TripleMove::Verdict {
            pattern: Letter::A,
            guess: 1,
            verdict: Verdict::Undecided {
                reason: "too hard".into(),
            },
        },
    );
    assert_eq!(h.game.stones(Seat::FIRST), 3);
    h.ok(
        A,
        guess(Letter::A, "some arrow points up or some arrow points left"),
    );
    assert_eq!(code(h.act(A, ZendoMove::Disallow)), HostOnly);
    h.ok(H, ZendoMove::Disallow);
    assert_eq!(h.game.stones(Seat::FIRST), 3);
    assert!(matches!(step(&h), Step::Guess));
    // A failed finder job is reported for its pattern and guess.
    let key = work_key(Letter::C, 4);
    assert!(matches!(
        Triple::abandon(key, "crashed"),
        Some(TripleMove::Verdict {
            pattern: Letter::C,
            guess: 4,
            ..
        })
    ));
    assert_replays(&h);
}

#[test]
fn turn_passes_when_step_2_has_no_stone() {
    let mut h = game();
    h.ok(A, build("UU", Mode::Observe, &[]));
    assert_eq!(h.game.turn_seat(), Some(Seat::SECOND));
    // With no stone, a guess is refused.
    assert_eq!(
        code(h.act(B, guess(Letter::A, "some arrow points up"))),
        NoTicket
    );
    // One stone, spent on a refuted guess: the turn passes after the counterexample.
    h.ok(B, build("RR", Mode::Challenge, &[Letter::B]));
    h.ok(B, answers(&[Answer::Obeys]));
    h.ok(A, answers(&[Answer::Not]));
    h.ok(
        B,
        guess(
            Letter::B,
            "some arrow points right or some arrow points left",
        ),
    );
    h.ok(B, ZendoMove::Confirm);
    umpire(&mut h);
    assert_eq!(h.game.turn_seat(), Some(Seat::FIRST));
}

// ---- Time

#[test]
fn turn_clock_stops_for_challenges_and_verdicts() {
    let mut h = alice_with_three_stones(); // challenge at 0, revealed at 0
    h.ok(A, ZendoMove::EndTurn);
    h.wait(20_000);
    h.ok(B, build("LL", Mode::Challenge, &[]));
    assert!(!h.game.clock().is_running());
    assert!(h.game.game_clock().is_running());
    h.wait(50_000);
    h.ok(A, answers(&[Answer::Not, Answer::Not, Answer::Obeys]));
    h.ok(B, answers(&[Answer::Not, Answer::Not, Answer::Obeys]));
    assert_eq!(h.game.clock().remaining(h.now), TURN - 20_000);
    h.ok(B, guess(Letter::C, "some arrow points left"));
    h.wait(5_000); // clarifying runs the clock
    h.ok(B, ZendoMove::Confirm);
    assert!(!h.game.clock().is_running());
    assert!(!h.game.game_clock().is_running());
    h.wait(100_000);
    umpire(&mut h);
    assert_eq!(h.game.clock().remaining(h.now), TURN - 25_000);
}

#[test]
fn timeout_skips_the_rest_of_the_turn() {
    let mut h = alice_with_three_stones();
    h.ok(A, guess(Letter::B, "some arrow points down"));
    h.wait(TURN);
    assert_eq!(code(h.act(A, ZendoMove::Confirm)), Expired);
    let events = h.run_out();
    assert!(events.iter().any(|e| matches!(
        e.game(),
        Some(TripleEvent::Pattern {
            zendo: ZendoEvent::GuessWithdrawn {
                why: Withdrawal::TimeUp,
                ..
            },
            ..
        })
    )));
    assert_eq!(h.game.stones(Seat::FIRST), 3);
    assert_eq!(h.game.turn_seat(), Some(Seat::SECOND));
    // Out of time in step 1: the turn passes, nobody gains anything.
    h.run_out();
    assert_eq!(h.game.turn_seat(), Some(Seat::FIRST));
    assert_eq!(h.game.stones(Seat::FIRST), 3);
    assert_eq!(h.game.stones(Seat::SECOND), 0);
    assert_replays(&h);
}

// ---- The quiz

/// Each turn's player uses its whole time and ends it (so nobody goes idle) until play
/// stops.
fn until_the_quiz(h: &mut Harness<Triple>) {
    for _ in 0..100 {
        if matches!(h.game.phase(), Phase::Quiz { .. }) {
            return;
        }
        let d = h.game.next_deadline().expect("a clock runs");
        match (d.which, h.game.turn_seat()) {
            (clocks::Which::Turn, Some(seat)) if *step(h) == Step::Build => {
                h.wait(d.at - h.now - 1);
                h.ok(player(seat), ZendoMove::EndTurn);
            }
            _ => {
                h.run_out();
            }
        }
    }
    panic!("no quiz after 100 turns");
}

fn player(seat: Seat) -> Actor {
    if seat == Seat::FIRST { A } else { B }
}

fn quiz_sheet(h: &Harness<Triple>, answer: impl Fn(Letter, bool) -> Answer) -> TripleMove {
    let Phase::Quiz { questions, .. } = h.game.phase() else {
        panic!("no quiz")
    };
    TripleMove::QuizAnswer {
        answers: questions
            .iter()
            .map(|q| answer(q.pattern, truth(h, q.pattern, &q.koan)))
            .collect(),
    }
}

#[test]
fn two_hours_start_the_quiz() {
    let mut h = game();
    h.ok(A, build("UD", Mode::Challenge, &[Letter::A])); // the game clock runs here too
    assert_eq!(code(h.act(A, quiz_sheet_empty())), WrongPhase);
    until_the_quiz(&mut h);
    assert_eq!(h.now, 2 * 3_600_000);
    let Phase::Quiz {
        round: 1,
        questions,
        ..
    } = h.game.phase()
    else {
        panic!("{:?}", h.game.phase())
    };
    assert_eq!(questions.len(), 30, "10 structures on each of A, B, C");
    for q in questions {
        assert!(h.game.table().iter().all(|e| e.koan != q.koan));
    }
    // Play has stopped.
    let seat = if h.game.turn_seat() == Some(Seat::FIRST) {
        A
    } else {
        B
    };
    assert_eq!(code(h.act(seat, ZendoMove::EndTurn)), WrongPhase);
    assert_replays(&h);
}

fn quiz_sheet_empty() -> TripleMove {
    TripleMove::QuizAnswer { answers: vec![] }
}

fn short_game() -> Harness<Triple> {
    let mut s = setup();
    s.timing.game_ms = 60_000;
    Harness::new(s)
}

#[test]
fn quiz_decides_and_breaks_a_tie() {
    let mut h = short_game();
    until_the_quiz(&mut h);
    // A: Alice right, Bob wrong. B: both right (a tie). C: Bob right, Alice wrong.
    let alice = quiz_sheet(&h, |l, t| if l == Letter::C { wrong(t) } else { right(t) });
    let bob = quiz_sheet(&h, |l, t| if l == Letter::A { wrong(t) } else { right(t) });
    h.ok(A, alice.clone());
    h.wait(1_000);
    h.ok(A, alice); // a sheet may be replaced until the reveal
    let events = h.ok(B, bob);
    assert!(events.iter().any(|e| matches!(
        e.game(),
        Some(TripleEvent::QuizRevealed { round: 1, won, .. })
            if *won == [Some(Some(Seat::FIRST)), None, Some(Some(Seat::SECOND))]
    )));
    // Round 2: five harder structures on B only.
    let Phase::Quiz {
        round: 2,
        questions,
        ..
    } = h.game.phase()
    else {
        panic!("{:?}", h.game.phase())
    };
    assert_eq!(questions.len(), quiz::TIE_ROUND);
    assert!(
        questions
            .iter()
            .all(|q| q.pattern == Letter::B && q.koan.len() == 5)
    );
    // Alice answers, Bob lets the time run out: Alice wins B, and the game 2 to 1.
    let alice = quiz_sheet(&h, |_, t| right(t));
    h.ok(A, alice);
    h.wait(300_000);
    assert_eq!(code(h.act(B, quiz_sheet(&h, |_, t| right(t)))), Expired);
    h.run_out();
    assert_eq!(
        h.game.outcome(),
        Some(TripleOutcome::Quiz {
            winner: Some(Seat::FIRST),
            patterns: [2, 1]
        })
    );
    assert_replays(&h);
}

#[test]
fn quiz_tie_on_patterns_is_decided_by_guessing_or_drawn() {
    // Alice solved A; B goes to Bob; C is a silent tie twice: nobody's. 1 to 1, and
    // Alice solved more by guessing: she wins.
    let mut s = setup();
    s.timing.game_ms = 400_000;
    let mut h = Harness::<Triple>::new(s);
    h.ok(A, build("URD", Mode::Challenge, &[]));
    h.ok(A, answers(&[Answer::Obeys, Answer::Obeys, Answer::Not]));
    h.ok(B, answers(&[Answer::Pass, Answer::Pass, Answer::Pass]));
    alice_solves_a(&mut h);
    until_the_quiz(&mut h);
    let sheet = |h: &Harness<Triple>, win: bool| {
        quiz_sheet(h, |l, t| match l {
            Letter::B if win => right(t),
            _ => Answer::Pass,
        })
    };
    h.ok(A, sheet(&h, false));
    h.ok(B, sheet(&h, true));
    assert!(matches!(h.game.phase(), Phase::Quiz { round: 2, .. }));
    h.ok(A, sheet(&h, false));
    h.ok(B, sheet(&h, false));
    assert_eq!(
        h.game.quiz_won(),
        [None, Some(Some(Seat::SECOND)), Some(None)]
    );
    assert_eq!(
        h.game.outcome(),
        Some(TripleOutcome::Quiz {
            winner: Some(Seat::FIRST),
            patterns: [1, 1]
        })
    );

    // Nobody solved anything; A Alice's, B Bob's, C nobody's: a draw.
    let mut h = short_game();
    until_the_quiz(&mut h);
    let sheet = |h: &Harness<Triple>, mine: Letter| {
        quiz_sheet(h, |l, t| if l == mine { right(t) } else { Answer::Pass })
    };
    h.ok(A, sheet(&h, Letter::A));
    h.ok(B, sheet(&h, Letter::B));
    h.ok(A, quiz_sheet(&h, |_, _| Answer::Pass));
    h.ok(B, quiz_sheet(&h, |_, _| Answer::Pass));
    assert_eq!(
        h.game.outcome(),
        Some(TripleOutcome::Quiz {
            winner: None,
            patterns: [1, 1]
        })
    );
    assert_eq!(h.game.winner(), None);
}

// ---- Idle play and the fair-play rule (docs/ratings.md, "Fair play")

#[test]
fn a_triple_nobody_plays_is_abandoned() {
    for played_first in [false, true] {
        let mut h = game();
        if played_first {
            h.ok(A, ZendoMove::EndTurn);
            h.ok(B, ZendoMove::EndTurn);
        }
        for n in 1..=IDLE_TURNS {
            assert!(!h.game.is_over(), "over after {n} idle turns");
            h.run_out();
        }
        assert_eq!(h.game.outcome(), Some(TripleOutcome::Abandoned));
        assert_eq!(h.game.winner(), None);
        assert_eq!(
            h.game.finish(),
            Some(rules::Finish::Unrated(rules::Why::Abandoned)),
            "never a rated draw"
        );
        assert_eq!(h.game.next_deadline(), None);
        assert_replays(&h);
    }
}

#[test]
fn a_side_that_stops_after_playing_loses_on_time() {
    let mut h = game();
    h.ok(A, ZendoMove::EndTurn); // Alice acted; then she stops
    for n in 1..=IDLE_OWN_TURNS {
        h.ok(B, ZendoMove::EndTurn);
        assert!(!h.game.is_over(), "over after {n} missed turns");
        h.run_out(); // Alice's turn
    }
    assert_eq!(
        h.game.outcome(),
        Some(TripleOutcome::Idle {
            seat: Seat::FIRST,
            acted: true
        })
    );
    assert_eq!(h.game.winner(), Some(Seat::SECOND));
    // A rated loss on time.
    assert_idle_end(&h, Seat::FIRST, true);
    // A grade in between is doing something: her count begins again.
    let mut h = game();
    h.ok(A, ZendoMove::EndTurn);
    for n in 1..=IDLE_OWN_TURNS {
        h.ok(B, ZendoMove::EndTurn);
        if n == 2 {
            h.ok(A, build("UU", Mode::Observe, &[])); // no stone: the turn passes
            h.ok(B, ZendoMove::EndTurn);
        }
        h.run_out();
    }
    assert!(!h.game.is_over(), "alice graded: her count began again");
}

#[test]
fn a_side_that_never_plays_aborts_the_triple() {
    let mut h = game();
    for n in 1..=IDLE_OWN_TURNS {
        h.ok(A, ZendoMove::EndTurn);
        assert!(!h.game.is_over(), "over after {n} missed turns");
        h.run_out(); // Bob's turn
    }
    assert_eq!(
        h.game.outcome(),
        Some(TripleOutcome::Idle {
            seat: Seat::SECOND,
            acted: false
        })
    );
    assert_eq!(h.game.winner(), None);
    assert_idle_end(&h, Seat::SECOND, false);
}

/// The quiz's own rule: a side that sends no answer in the quiz that decides is idle at
/// the end; a quiz nobody answers is abandoned; a quiz both answered and drew is a
/// rated draw.
#[test]
fn the_quiz_judges_who_answered_it() {
    let quiz_with = |alice: bool, bob: bool| {
        let mut h = short_game();
        h.ok(A, ZendoMove::EndTurn);
        h.ok(B, ZendoMove::EndTurn);
        until_the_quiz(&mut h);
        for _ in 0..10 {
            if h.game.is_over() {
                break;
            }
            if alice {
                h.ok(A, quiz_sheet(&h, |_, _| Answer::Pass));
            }
            if bob {
                h.ok(B, quiz_sheet(&h, |_, _| Answer::Pass));
            }
            if !(h.game.is_over() || alice && bob) {
                h.run_out();
            }
        }
        assert!(h.game.is_over());
        assert_replays(&h);
        h.game.finish()
    };
    // Both answered (nothing right): a draw the rules make, rated.
    assert_eq!(
        quiz_with(true, true),
        Some(rules::Finish::two(&[ALICE, BOB], None))
    );
    // Bob sent nothing: he loses, whatever the score.
    assert_eq!(
        quiz_with(true, false),
        Some(rules::Finish::two(&[ALICE, BOB], Some(0)))
    );
    assert_eq!(
        quiz_with(false, false),
        Some(rules::Finish::Unrated(rules::Why::Abandoned))
    );
}

// ---- Resigning, the host, secrets

#[test]
fn resign_and_host_end() {
    let mut h = game();
    h.ok(B, rules::Action::Resign);
    assert_eq!(h.game.winner(), Some(Seat::FIRST));
    let mut h = game();
    h.ok(H, rules::Action::Pause);
    assert_eq!(code(h.act(A, ZendoMove::EndTurn)), Paused);
    assert_eq!(h.game.next_deadline(), None);
    h.ok(H, rules::Action::Resume);
    let events = h.ok(H, rules::Action::End);
    assert!(matches!(
        events[0].game(),
        Some(TripleEvent::TripleEnded {
            outcome: TripleOutcome::Ended { by: HOST },
            ..
        })
    ));
    assert_eq!(h.game.winner(), None);
    let v = h.game.view(&Viewer::Spectator);
    assert!(v.revealed.iter().all(Option::is_some));
}

#[test]
fn views_never_hold_an_unsolved_pattern() {
    let mut h = alice_with_three_stones();
    alice_solves_a(&mut h);
    h.ok(
        A,
        guess(Letter::C, "some arrow points left and some arrow points up"),
    );
    h.ok(A, ZendoMove::Confirm);
    umpire(&mut h);
    let secrets = ["points right", "points left\""];
    for viewer in [
        Viewer::Player(ALICE),
        Viewer::Player(BOB),
        Viewer::Spectator,
    ] {
        let view = serde_json::to_string(&h.game.view(&viewer)).unwrap();
        for s in secrets {
            assert!(!view.contains(s), "{s} in {view}");
        }
        for e in &h.log {
            if let Some(heard) = e.game().and_then(|g| h.game.redact(g, &viewer)) {
                let heard = serde_json::to_string(&heard).unwrap();
                for s in secrets {
                    assert!(!heard.contains(s), "{s} in {heard}");
                }
            }
        }
    }
}

/// A counterexample is a structure not yet on the table: the umpire's search avoids
/// the whole shared table, structures graded only on other patterns included. Should
/// a tabled structure still be the answer (it is when no other separates), the one
/// graded elsewhere takes this pattern's mark where it is, rather than stopping the
/// match (it once did: "the counterexample is already on the table").
#[test]
fn a_counterexample_avoids_the_whole_table_and_a_tabled_one_takes_its_mark() {
    let mut h = game();
    // Alice grades `L` on pattern A only; with no stone to spend, her turn ends.
    h.ok(A, build("L", Mode::Observe, &[Letter::A]));
    // Bob wins three stones with a challenge he alone answers right.
    h.ok(B, build("URD", Mode::Challenge, &[]));
    h.ok(B, answers(&[Answer::Obeys, Answer::Obeys, Answer::Not]));
    h.ok(A, answers(&[Answer::Not, Answer::Not, Answer::Obeys]));
    assert_eq!(h.game.stones(Seat::SECOND), 3);
    let tabled = h.game.table().iter().find(|e| e.koan == koan("L")).cloned();
    let tabled = tabled.expect("`L` is on the table");
    assert_eq!(tabled.marks[Letter::C.index()], None);
    // A wrong guess on C: `L` separates it from C's rule, yet is on the table.
    h.ok(
        B,
        guess(Letter::C, "some arrow points left and some arrow points up"),
    );
    h.ok(B, ZendoMove::Confirm);
    let (pattern, job) = h.game.verdict_job().expect("a verdict is awaited");
    assert_eq!(pattern, Letter::C);
    for entry in h.game.table() {
        assert!(job.table.contains(&entry.koan), "{entry:?} is not avoided");
    }
    let Verdict::Counterexample(found) = small_search_verdict(&job) else {
        panic!("the guess is wrong")
    };
    assert!(h.game.table().iter().all(|e| e.koan != found.koan));
    // The umpire naming `L` all the same: it gets C's mark, under its own number.
    let size = h.game.table().len();
    let events = h.ok(
        U,
        TripleMove::Verdict {
            pattern: Letter::C,
            guess: job.guess,
            verdict: Verdict::Counterexample(Counterexample {
                koan: koan("L"),
                hidden: true,
                guess: false,
            }),
        },
    );
    assert!(events.iter().any(|e| matches!(
        e.game(),
        Some(TripleEvent::Pattern {
            zendo: ZendoEvent::Refuted { .. },
            ..
        })
    )));
    assert_eq!(h.game.table().len(), size);
    let entry = h.game.table().iter().find(|e| e.koan == koan("L")).unwrap();
    assert_eq!(entry.number, tabled.number);
    assert_eq!(entry.marks[Letter::C.index()], Some(true));
    assert_eq!(
        entry.marks[Letter::A.index()],
        tabled.marks[Letter::A.index()]
    );
    assert!(matches!(step(&h), Step::Guess));
    assert_replays(&h);
}
