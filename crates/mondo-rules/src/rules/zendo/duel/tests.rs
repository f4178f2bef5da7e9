//! The Duel's rules (`mod.rs`), tested against a fake clock.

use super::*;
use crate::finder::{Counterexample, Verdict};
use crate::rules::Actor;
use crate::rules::ErrorCode::{self, *};
use crate::rules::zendo::Zendo;
use crate::rules::zendo::testing::flat::{EventKind, flat, kinds};
use crate::rules::zendo::testing::*;
use crate::rules::zendo::{GuessStatus, Origin, TurnEnd, Withdrawal, ZendoMove};

const A: Actor = Actor::Player(ALICE);
const B: Actor = Actor::Player(BOB);
const H: Actor = Actor::Host(HOST);
const U: Actor = Actor::Umpire;
const TURN: Millis = 180_000;

/// Hidden pattern of these tests: "some piece points up". The initial structures
/// are #1 `1^` (obeys) and #2 `1>` (does not).
fn up_duel() -> Harness<Duel> {
    Harness::duel(duel_setup(parsed("some piece points up")))
}

/// Alice (who has the advantage) chose to start; turn 1 began at time 0.
fn started() -> Harness<Duel> {
    let mut h = up_duel();
    h.ok(A, choose(ALICE));
    h
}

fn code<T: std::fmt::Debug>(r: Result<T, RuleError>) -> ErrorCode {
    r.expect_err("should be refused").code()
}

fn remaining(h: &Harness<Duel>) -> Millis {
    h.game.clock().remaining(h.now)
}

fn step(h: &Harness<Duel>) -> &Step {
    match h.game.phase() {
        Phase::Turn { step, .. } => step,
        other => panic!("no turn: {other:?}"),
    }
}

/// Alice challenges a structure that obeys, answers right, Bob answers wrong:
/// she has one more ticket and is in step 2.
fn alice_wins_a_challenge(h: &mut Harness<Duel>) {
    let k = h.fresh(true);
    alice_wins_a_challenge_with(h, k);
}

fn alice_wins_a_challenge_with(h: &mut Harness<Duel>, k: Koan) {
    h.ok(A, build(k, Mode::Challenge));
    h.ok(A, answer(Answer::Obeys));
    h.ok(B, answer(Answer::Not));
}

/// Turn 3, Alice in step 2 with two tickets (one from Bob's skip in turn 2, one
/// from a challenge); Bob has none.
fn alice_with_two_tickets() -> Harness<Duel> {
    let mut h = started();
    let k = h.fresh(true);
    h.ok(A, build(k, Mode::Observe)); // no ticket: the turn passes
    h.ok(B, DuelMove::Skip); // Alice +1; Bob has none: the turn passes
    alice_wins_a_challenge(&mut h);
    assert_eq!((h.game.turn(), h.game.tickets(Seat::FIRST)), (3, 2));
    assert_eq!(*step(&h), Step::Guess);
    h
}

/// "every piece points up": wrong, and `1^ 1>`-like structures show it.
fn every_up() -> Guessing {
    guess("every piece points up")
}

#[test]
fn setup_checks_players_and_initial_structures() {
    let good = duel_setup(parsed("some piece points up"));
    assert!(Duel::start(good.clone(), 0).is_ok());
    let mut same = good.clone();
    same.players = [ALICE, ALICE];
    assert_eq!(Duel::start(same, 0).err(), Some(SetupError::SamePlayer));
    let mut outsider = good.clone();
    outsider.advantage = HOST;
    assert_eq!(
        Duel::start(outsider, 0).err(),
        Some(SetupError::AdvantageNotPlaying)
    );
    let mut swapped = good.clone();
    std::mem::swap(&mut swapped.initial.obeys, &mut swapped.initial.does_not);
    assert_eq!(
        Duel::start(swapped, 0).err(),
        Some(SetupError::ObeyingDoesNot)
    );
    let mut both_obey = good.clone();
    both_obey.initial.does_not = koan("3^");
    assert_eq!(
        Duel::start(both_obey, 0).err(),
        Some(SetupError::NotObeyingObeys)
    );
    let mut no_time = good.clone();
    no_time.timing.challenge_ms = 0;
    assert!(matches!(
        Duel::start(no_time, 0),
        Err(SetupError::BadSettings(_))
    ));
    let (duel, _) = Duel::start(good, 0).unwrap();
    let t = duel.table().entries();
    assert_eq!((t.len(), t[0].obeys, t[1].obeys), (2, true, false));
    assert_eq!((t[0].number, t[1].number), (1, 2));
    assert_eq!(
        (duel.tickets(Seat::FIRST), duel.tickets(Seat::SECOND)),
        (0, 0)
    );
    assert_eq!(*duel.phase(), Phase::ChoosingStarter);
}

#[test]
fn advantage_player_chooses_who_starts() {
    let mut h = up_duel();
    assert_eq!(code(h.act(B, choose(BOB))), NotYourTurn);
    let k = h.fresh(true);
    assert_eq!(code(h.act(B, build(k.clone(), Mode::Observe))), NotYourTurn);
    assert_eq!(code(h.act(A, build(k, Mode::Observe))), WrongPhase);
    assert_eq!(code(h.act(A, choose(HOST))), NotAPlayer);
    // Alice may hand the first turn to Bob.
    let events = h.ok(A, choose(BOB));
    assert!(matches!(
        kinds(&events)[..],
        [
            EventKind::StarterChosen {
                starter: Seat::SECOND
            },
            EventKind::TurnStarted {
                turn: 1,
                seat: Seat::SECOND
            }
        ]
    ));
    assert_eq!(code(h.act(A, choose(ALICE))), WrongPhase);
    // When the host gives the advantage to Bob, Bob chooses.
    let mut setup = duel_setup(parsed("some piece points up"));
    setup.advantage = BOB;
    let mut h = Harness::duel(setup);
    assert_eq!(code(h.act(A, choose(ALICE))), NotYourTurn);
    h.ok(B, choose(ALICE));
    assert_eq!(h.game.turn_seat(), Some(Seat::FIRST));
}

#[test]
fn turns_alternate_with_a_full_clock() {
    let mut h = started();
    assert_eq!(h.game.next_deadline().map(|d| d.at), Some(TURN));
    h.wait(10_000);
    let k = h.fresh(true);
    h.ok(A, build(k, Mode::Observe));
    // Alice had no ticket: Bob's turn 2 began at 10 s with a full clock.
    assert_eq!((h.game.turn(), h.game.turn_seat()), (2, Some(Seat::SECOND)));
    assert_eq!(h.game.next_deadline().map(|d| d.at), Some(10_000 + TURN));
    h.wait(10_000);
    h.ok(B, DuelMove::Skip);
    assert_eq!((h.game.turn(), h.game.turn_seat()), (3, Some(Seat::FIRST)));
    h.wait(10_000);
    let k = h.fresh(false);
    h.ok(A, build(k, Mode::Observe));
    // With Bob's free ticket Alice is in step 2 and ends her turn herself.
    assert_eq!(*step(&h), Step::Guess);
    let events = h.ok(A, ZendoMove::EndTurn);
    assert!(matches!(
        kinds(&events)[..],
        [
            EventKind::TurnEnded {
                seat: Seat::FIRST,
                why: TurnEnd::Ended
            },
            EventKind::TurnStarted {
                turn: 4,
                seat: Seat::SECOND
            }
        ]
    ));
    assert_eq!(remaining(&h), TURN);
    assert_replays(&h);
}

#[test]
fn repeated_structure_is_refused_even_moved() {
    let mut h = started();
    // Initial structure #1 is a small piece pointing up, wherever it stands.
    let moved = koan(".. .. .. / .. .. 1^");
    let err = h.act(A, build(moved, Mode::Observe)).unwrap_err();
    assert_eq!(err, RuleError::AlreadyGiven { number: 1 });
    assert!(err.to_string().contains("#1"), "{err}");
    let two = koan("2^ .. / .. 3<");
    h.ok(A, build(two, Mode::Challenge));
    // Bob cannot build it again, moved, nor challenge it.
    h.ok(A, answer(Answer::Pass));
    h.ok(B, answer(Answer::Pass));
    let moved = koan(".. .. .. / .. .. .. / .. .. 2^ / .. .. .. 3<");
    assert_eq!(
        h.act(B, build(moved.clone(), Mode::Challenge)).err(),
        Some(RuleError::AlreadyGiven { number: 3 })
    );
    // A mirror image is a different structure.
    let mirrored = koan(".. 2^ / 3< ..");
    h.ok(B, build(mirrored, Mode::Observe));
    // Nothing was lost: the refused requests left no trace.
    assert_eq!(h.game.table().entries().len(), 4);
    assert_replays(&h);
}

#[test]
fn counterexamples_count_as_given() {
    let mut h = alice_with_two_tickets();
    h.ok(A, every_up());
    h.ok(A, ZendoMove::Confirm);
    let counterexample = h.umpire_refutes();
    let entry = h.game.table().find(&counterexample.koan).unwrap().clone();
    assert_eq!(entry.origin, Origin::Counterexample { guess: 1 });
    assert_eq!(entry.obeys, counterexample.hidden);
    h.ok(A, ZendoMove::EndTurn);
    assert_eq!(
        h.act(B, build(entry.koan, Mode::Observe)).err(),
        Some(RuleError::AlreadyGiven {
            number: entry.number
        })
    );
}

#[test]
fn observe_gives_the_verdict_at_once() {
    let mut h = alice_with_two_tickets();
    h.ok(A, ZendoMove::EndTurn);
    h.wait(5_000);
    let before = remaining(&h);
    let k = h.fresh(false);
    let events = h.ok(B, build(k.clone(), Mode::Observe));
    let EventKind::Observed { by, obeys, .. } = &flat(&events[0].kind) else {
        panic!("{events:?}");
    };
    assert_eq!((*by, *obeys), (Seat::SECOND, false));
    let entry = h.game.table().find(&k).unwrap();
    assert_eq!(
        (entry.obeys, &entry.origin),
        (false, &Origin::Observed { by: Seat::SECOND })
    );
    // Judging took no time off the clock... and Bob, with no ticket, passed.
    assert_eq!(before, TURN - 5_000);
    assert!(matches!(
        flat(&events[1].kind),
        EventKind::TurnEnded {
            why: TurnEnd::NoTickets,
            ..
        }
    ));
}

#[test]
fn challenge_reveals_when_both_answered_and_pays_correct_answers() {
    let mut h = started();
    let k = h.fresh(false);
    h.ok(A, build(k.clone(), Mode::Challenge));
    let events = h.ok(A, answer(Answer::Not));
    assert_eq!(events.len(), 1, "nothing is revealed after one answer");
    let events = h.ok(B, answer(Answer::Obeys));
    let EventKind::ChallengeRevealed {
        answers,
        obeys,
        time_up,
    } = &flat(&events[1].kind)
    else {
        panic!("{events:?}");
    };
    assert_eq!(
        (*answers, *obeys, *time_up),
        ([Answer::Not, Answer::Obeys], false, false)
    );
    assert_eq!(
        (h.game.tickets(Seat::FIRST), h.game.tickets(Seat::SECOND)),
        (1, 0)
    );
    let entry = h.game.table().find(&k).unwrap();
    assert_eq!(
        entry.origin,
        Origin::Challenged {
            by: Seat::FIRST,
            answers: BySeat::from([Answer::Not, Answer::Obeys])
        }
    );
    assert_eq!(*step(&h), Step::Guess);
    // Both right: both earn, the challenger's opponent too.
    h.ok(A, ZendoMove::EndTurn);
    let k = h.fresh(true);
    h.ok(B, build(k, Mode::Challenge));
    h.ok(B, answer(Answer::Obeys));
    h.ok(A, answer(Answer::Obeys));
    assert_eq!(
        (h.game.tickets(Seat::FIRST), h.game.tickets(Seat::SECOND)),
        (2, 1)
    );
    assert_replays(&h);
}

#[test]
fn answer_can_be_changed_until_the_reveal() {
    let mut h = started();
    let k = h.fresh(true);
    h.ok(A, build(k, Mode::Challenge));
    h.ok(A, answer(Answer::Not));
    h.ok(A, answer(Answer::Obeys));
    let events = h.ok(B, answer(Answer::Pass));
    assert!(matches!(
        flat(&events[1].kind),
        EventKind::ChallengeRevealed {
            answers: [Answer::Obeys, Answer::Pass],
            obeys: true,
            ..
        }
    ));
    // After the reveal there is nothing left to change.
    assert_eq!(code(h.act(B, answer(Answer::Obeys))), WrongPhase);
}

#[test]
fn answer_after_30_seconds_is_ignored() {
    let mut h = started();
    h.wait(1_000);
    let k = h.fresh(true);
    h.ok(A, build(k, Mode::Challenge));
    h.wait(29_999);
    h.ok(A, answer(Answer::Obeys));
    h.wait(1);
    // 30 s after the challenge: too late, even before the time-out comes in.
    assert_eq!(code(h.act(B, answer(Answer::Obeys))), Expired);
    let events = h.run_out();
    assert!(matches!(
        flat(&events[0].kind),
        EventKind::ChallengeRevealed {
            answers: [Answer::Obeys, Answer::Pass],
            obeys: true,
            time_up: true
        }
    ));
    assert_eq!(
        (h.game.tickets(Seat::FIRST), h.game.tickets(Seat::SECOND)),
        (1, 0)
    );
    assert_replays(&h);
}

#[test]
fn challenge_timeout_counts_silence_as_no_answer() {
    let mut h = started();
    let k = h.fresh(true);
    h.ok(A, build(k, Mode::Challenge));
    let deadline = h.game.next_deadline().unwrap();
    assert_eq!(
        (deadline.which, deadline.on_expiry, deadline.at),
        (Which::Challenge, Expiry::NoAnswer, 30_000)
    );
    let events = h.run_out();
    assert!(matches!(
        kinds(&events)[..],
        [
            EventKind::ChallengeRevealed {
                answers: [Answer::Pass, Answer::Pass],
                time_up: true,
                ..
            },
            EventKind::TurnEnded {
                why: TurnEnd::NoTickets,
                ..
            },
            EventKind::TurnStarted { turn: 2, .. }
        ]
    ));
    assert_eq!(
        (h.game.tickets(Seat::FIRST), h.game.tickets(Seat::SECOND)),
        (0, 0)
    );
}

#[test]
fn skipping_gives_the_opponent_a_ticket() {
    let mut h = started();
    let events = h.ok(A, DuelMove::Skip);
    assert!(matches!(
        kinds(&events)[..],
        [
            EventKind::Skipped {
                seat: Seat::FIRST,
                time_up: false
            },
            EventKind::TurnEnded {
                why: TurnEnd::NoTickets,
                ..
            },
            EventKind::TurnStarted {
                seat: Seat::SECOND,
                ..
            }
        ]
    ));
    assert_eq!(
        (h.game.tickets(Seat::FIRST), h.game.tickets(Seat::SECOND)),
        (0, 1)
    );
    // The skipper goes on to step 2 when they have a ticket of their own.
    h.ok(B, DuelMove::Skip);
    assert_eq!(
        (h.game.tickets(Seat::FIRST), h.game.tickets(Seat::SECOND)),
        (1, 1)
    );
    assert_eq!(
        (h.game.turn_seat(), step(&h)),
        (Some(Seat::SECOND), &Step::Guess)
    );
    h.ok(B, ZendoMove::EndTurn);
    assert_eq!(h.game.turn_seat(), Some(Seat::FIRST));
}

#[test]
fn guess_is_read_back_with_contradictions() {
    let mut h = alice_with_two_tickets();
    let events = h.ok(A, guess("some piece points right"));
    let EventKind::GuessRead {
        number,
        reading,
        contradictions,
        ..
    } = &flat(&events[0].kind)
    else {
        panic!("{events:?}");
    };
    assert_eq!(*number, 1);
    // The canonical reading, not the words as typed: what the guesser confirms.
    assert_eq!(reading, "there is a piece pointing right");
    // #1 `1^` obeys but has no right-pointing piece; #2 `1>` is the reverse.
    assert_eq!(contradictions[..2], [1, 2]);
    assert_eq!(h.game.guesses()[0].status, GuessStatus::Pending);
    assert_eq!(*step(&h), Step::Pending { guess: 1 });
    // The ticket is paid when the guess is stated.
    assert_eq!(h.game.tickets(Seat::FIRST), 1);
    // One guess at a time.
    assert_eq!(code(h.act(A, every_up())), WrongPhase);
    assert_eq!(code(h.act(A, ZendoMove::EndTurn)), WrongPhase);
}

/// A guess beyond what the umpire can judge in time (seven pieces tied
/// together) is refused when it is read back, before it is official: nothing is
/// logged, the ticket stays and the turn goes on; the refusal says why and how to
/// say it more simply. Said more simply, it is read back.
#[test]
fn a_guess_too_hard_to_judge_is_refused_at_read_back() {
    let mut h = alice_with_two_tickets();
    let logged = h.log.len();
    let err = h.act(A, guess(SEVEN_PIECES)).expect_err("refused");
    assert_eq!(err.code(), ErrorCode::TooHard);
    let message = err.to_string();
    for part in [
        "beyond what the umpire can judge in time",
        "pieces at once",
        "say it more simply",
        "at most four pieces",
    ] {
        assert!(message.contains(part), "`{part}` missing: {message}");
    }
    assert_eq!(h.log.len(), logged, "nothing is logged");
    assert_eq!(h.game.tickets(Seat::FIRST), 2, "no ticket spent");
    assert_eq!(*step(&h), Step::Guess);
    h.ok(A, guess("some piece points right"));
}

/// Seven pieces in a cycle of relations that hold for many pairs of cells (so
/// nothing narrows the grounding), kept apart from each other.
const SEVEN_PIECES: &str = "exists a b c d e f g. same_size(a,b) & same_size(b,c) & \
    same_size(c,d) & same_size(d,e) & same_size(e,f) & same_size(f,g) & \
    same_direction(g,a) & a != d & b != e & c != f & d != g";

#[test]
fn duel_plays_with_the_twelve_pyramids() {
    let mut setup = duel_setup(parsed("some arrow points up"));
    setup.settings.set = crate::koan::PieceSet::Arrows;
    setup.initial = crate::rules::zendo::Initial {
        obeys: koan("U"),
        does_not: koan("R"),
    };
    let err = Duel::start(setup, 0).unwrap_err();
    assert_eq!(
        err,
        SetupError::NeedsPieceSet {
            game: "Zendo Duel",
            needs: "the 12 pyramids",
            set: crate::koan::PieceSet::Arrows,
            hint: "arrows are for practice",
        }
    );
    assert_eq!(
        err.to_string(),
        "the Zendo Duel plays with the 12 pyramids, not the arrows set (arrows are for practice)"
    );
    assert!(err.to_string().contains("12 pyramids"), "{err}");
    // Every structure built in a duel is a pyramid one.
    let mut h = Harness::duel(duel_setup(parsed("some piece points up")));
    h.ok(A, choose(ALICE));
    assert_eq!(code(h.act(A, build(koan("U R"), Mode::Observe))), WrongSet);
}

#[test]
fn taking_a_guess_back_returns_the_ticket() {
    let mut h = alice_with_two_tickets();
    h.ok(A, every_up());
    assert_eq!(h.game.tickets(Seat::FIRST), 1);
    h.ok(A, ZendoMove::TakeBack);
    assert_eq!(h.game.tickets(Seat::FIRST), 2);
    assert_eq!(h.game.guesses()[0].status, GuessStatus::TakenBack);
    assert_eq!(*step(&h), Step::Guess);
    assert_eq!(code(h.act(A, ZendoMove::Confirm)), WrongPhase);
    // Another guess may follow.
    h.ok(A, every_up());
    assert_eq!(h.game.guesses()[1].number, 2);
    assert_replays(&h);
}

#[test]
fn official_guess_adds_30_seconds_and_pauses_the_clock() {
    let mut h = alice_with_two_tickets();
    h.wait(20_000);
    let before = remaining(&h);
    h.ok(A, every_up());
    h.wait(10_000); // reading and thinking: the clock runs
    h.ok(A, ZendoMove::Confirm);
    assert_eq!(remaining(&h), before - 10_000 + 30_000);
    assert!(!h.game.clock().is_running());
    assert_eq!(h.game.next_deadline(), None);
    h.wait(60_000); // the umpire builds a counterexample: the clock waits
    assert_eq!(remaining(&h), before + 20_000);
    h.umpire();
    assert_eq!(*step(&h), Step::Guess);
    assert_eq!(
        h.game.next_deadline().map(|d| d.at),
        Some(h.now + before + 20_000)
    );
    // A second official guess adds another 30 s.
    h.ok(A, every_up_variant());
    h.ok(A, ZendoMove::Confirm);
    assert_eq!(remaining(&h), before + 50_000);
}

/// Another wrong guess, worded differently from [`every_up`].
fn every_up_variant() -> Guessing {
    guess("exactly one piece points up")
}

#[test]
fn counterexample_joins_the_table() {
    let mut h = alice_with_two_tickets();
    h.ok(A, every_up());
    h.ok(A, ZendoMove::Confirm);
    let size = h.game.table().entries().len();
    let events = h.umpire();
    let EventKind::Refuted {
        number: 1,
        counterexample,
        on_table: None,
    } = &flat(&events[0].kind)
    else {
        panic!("{events:?}");
    };
    // Obeys the hidden pattern (some piece points up), not the guess.
    assert!(counterexample.hidden && !counterexample.guess);
    assert_eq!(h.game.table().entries().len(), size + 1);
    assert_eq!(
        h.game.guesses()[0].status,
        GuessStatus::Refuted {
            counterexample: size as u32 + 1
        }
    );
    // The turn goes on: Alice still has a ticket.
    assert_eq!(*step(&h), Step::Guess);
}

#[test]
fn counterexample_already_on_the_table_is_named_not_repeated() {
    let mut h = alice_with_two_tickets();
    // Differs from "some piece points up" only on a lone small piece pointing
    // right: initial structure #2.
    h.ok(
        A,
        guess("exists x. up(x) | (pieces = 1 & exists y. small(y) & right(y))"),
    );
    let size = h.game.table().entries().len();
    // Already contradicted by #2 when it was read: made official, #2 refutes it at
    // once (the finder is not even asked).
    let events = h.ok(A, ZendoMove::Confirm);
    assert!(matches!(
        flat(&events[1].kind),
        EventKind::Refuted {
            on_table: Some(2),
            ..
        }
    ));
    assert_eq!(h.game.table().entries().len(), size);
    assert_eq!(
        h.game.guesses()[0].status,
        GuessStatus::Refuted { counterexample: 2 }
    );
    assert_replays(&h);
}

#[test]
fn false_verdicts_are_refused() {
    let mut h = alice_with_two_tickets();
    h.ok(A, every_up());
    h.ok(A, ZendoMove::Confirm);
    let verdict = |koan: Koan, hidden: bool| DuelMove::Verdict {
        guess: 1,
        verdict: Verdict::Counterexample(Counterexample {
            koan,
            hidden,
            guess: !hidden,
        }),
    };
    // `3^` obeys both: it separates nothing.
    let same = koan("3^");
    assert_eq!(code(h.act(U, verdict(same, true))), BadVerdict);
    // `1^ 1>` separates them, but the sides are claimed the wrong way round.
    let sep = koan("1^ 1>");
    assert_eq!(code(h.act(U, verdict(sep.clone(), false))), BadVerdict);
    // The right one goes on the table; the same guess made again is refuted by it
    // at once, and "equivalent" can never be given for it (a table structure
    // separates them: checked again when a verdict comes in, `Core::judge`).
    h.ok(U, verdict(sep, true));
    h.ok(A, every_up());
    let events = h.ok(A, ZendoMove::Confirm);
    assert!(matches!(
        flat(&events[1].kind),
        EventKind::Refuted {
            on_table: Some(_),
            ..
        }
    ));
    let eq2 = DuelMove::Verdict {
        guess: 2,
        verdict: Verdict::Equivalent,
    };
    assert_eq!(code(h.act(U, eq2)), WrongPhase);
    assert!(matches!(
        h.game.core.judge(2, &Verdict::Equivalent),
        Err(RuleError::BadVerdict(_))
    ));
    // A verdict for a guess that is not awaited, or from a player.
    let eq1 = DuelMove::Verdict {
        guess: 1,
        verdict: Verdict::Equivalent,
    };
    assert_eq!(code(h.act(U, eq1)), WrongPhase);
    assert_eq!(
        code(h.act(
            A,
            DuelMove::Verdict {
                guess: 2,
                verdict: Verdict::Equivalent
            }
        )),
        UmpireOnly
    );
    assert!(!h.game.is_over());
}

#[test]
fn winner_only_on_equivalent() {
    let mut h = alice_with_two_tickets();
    // A wrong guess, refuted: no winner.
    h.ok(A, every_up());
    h.ok(A, ZendoMove::Confirm);
    h.umpire();
    assert!(!h.game.is_over());
    // An undecided one: still no winner.
    h.ok(A, guess("at least one piece points up"));
    h.ok(A, ZendoMove::Confirm);
    h.umpire_undecided("budget");
    assert!(!h.game.is_over());
    // The same guess again, proved equivalent: Alice wins.
    h.ok(A, guess("at least one piece points up"));
    h.ok(A, ZendoMove::Confirm);
    let events = h.umpire();
    assert!(matches!(
        kinds(&events)[..],
        [EventKind::MatchEnded {
            outcome: Outcome::Solved {
                by: Seat::FIRST,
                guess: 3
            },
            ..
        }]
    ));
    assert_eq!(h.game.winner(), Some(Seat::FIRST));
    assert_eq!(h.game.guesses()[2].status, GuessStatus::Correct);
    assert_eq!(
        h.game.view(&Viewer::Spectator).revealed.as_deref(),
        Some("some piece points up")
    );
    assert_eq!(*h.game.phase(), Phase::Over);
    assert_eq!(h.game.next_deadline(), None);
    assert_eq!(code(h.act(B, Action::Resign)), MatchOver);
    assert_replays(&h);
}

#[test]
fn undecided_verdict_voids_the_guess() {
    let mut h = alice_with_two_tickets();
    h.ok(A, every_up());
    let before = remaining(&h);
    h.ok(A, ZendoMove::Confirm);
    let reason = "the finder could not decide within its budget".to_string();
    h.ok(
        U,
        DuelMove::Verdict {
            guess: 1,
            verdict: Verdict::Undecided {
                reason: reason.clone(),
            },
        },
    );
    assert_eq!(h.game.tickets(Seat::FIRST), 2);
    assert_eq!(
        h.game.guesses()[0].status,
        GuessStatus::Undecided { reason }
    );
    assert_eq!(*step(&h), Step::Guess);
    // A void guess adds no time: its 30 s went with it.
    assert_eq!(remaining(&h), before);
}

#[test]
fn turn_passes_when_step_2_has_no_ticket() {
    let mut h = started();
    alice_wins_a_challenge(&mut h);
    assert_eq!(h.game.tickets(Seat::FIRST), 1);
    h.ok(A, every_up());
    h.ok(A, ZendoMove::Confirm);
    let events = h.umpire();
    // The last ticket is spent and refuted: the turn passes by itself.
    assert!(matches!(
        kinds(&events)[..],
        [
            EventKind::Refuted { .. },
            EventKind::TurnEnded {
                seat: Seat::FIRST,
                why: TurnEnd::NoTickets
            },
            EventKind::TurnStarted {
                turn: 2,
                seat: Seat::SECOND
            }
        ]
    ));
    // With no ticket a guess is impossible (the turn never waits in step 2
    // without one), and out of turn it is refused before the ticket check.
    assert_eq!(code(h.act(A, every_up())), NotYourTurn);
}

#[test]
fn clock_is_paused_during_challenge_and_verdict() {
    let mut h = started();
    h.wait(20_000);
    let k = h.fresh(true);
    h.ok(A, build(k, Mode::Challenge));
    h.wait(25_000);
    assert_eq!(remaining(&h), TURN - 20_000);
    assert_eq!(
        h.game.next_deadline().map(|d| (d.which, d.at)),
        Some((Which::Challenge, 50_000))
    );
    h.ok(A, answer(Answer::Obeys));
    h.ok(B, answer(Answer::Not));
    // Step 2 resumes the turn clock where it stopped.
    assert_eq!(
        h.game.next_deadline().map(|d| (d.which, d.at, d.on_expiry)),
        Some((Which::Turn, 45_000 + TURN - 20_000, Expiry::NoMoreGuesses))
    );
    h.ok(A, every_up());
    h.ok(A, ZendoMove::Confirm);
    let at_confirm = remaining(&h);
    h.wait(100_000);
    assert_eq!(remaining(&h), at_confirm);
}

#[test]
fn timeout_in_step_1_skips_and_passes() {
    let mut h = started();
    let d = h.game.next_deadline().unwrap();
    assert_eq!(
        (d.at, d.turn, d.which, d.on_expiry),
        (TURN, 1, Which::Turn, Expiry::NoStructure)
    );
    let events = h.run_out();
    assert!(matches!(
        kinds(&events)[..],
        [
            EventKind::Skipped {
                seat: Seat::FIRST,
                time_up: true
            },
            EventKind::TurnEnded {
                seat: Seat::FIRST,
                why: TurnEnd::TimeUp
            },
            EventKind::TurnStarted {
                turn: 2,
                seat: Seat::SECOND
            }
        ]
    ));
    assert_eq!(
        (h.game.tickets(Seat::FIRST), h.game.tickets(Seat::SECOND)),
        (0, 1)
    );
    assert_eq!(remaining(&h), TURN);
    assert_replays(&h);
}

#[test]
fn timeout_in_step_2_takes_back_a_pending_guess() {
    let mut h = alice_with_two_tickets();
    h.ok(A, every_up());
    h.ok(A, ZendoMove::Confirm);
    h.umpire(); // an official guess, refuted: it stands
    h.ok(A, every_up_variant()); // pending when the time runs out
    assert_eq!(h.game.tickets(Seat::FIRST), 0);
    let events = h.run_out();
    assert!(matches!(
        kinds(&events)[..],
        [
            EventKind::GuessWithdrawn {
                number: 2,
                why: Withdrawal::TimeUp
            },
            EventKind::TurnEnded {
                why: TurnEnd::TimeUp,
                ..
            },
            EventKind::TurnStarted { .. }
        ]
    ));
    assert_eq!(h.game.tickets(Seat::FIRST), 1);
    assert!(matches!(
        h.game.guesses()[0].status,
        GuessStatus::Refuted { .. }
    ));
    assert_eq!(h.game.guesses()[1].status, GuessStatus::TimedOut);
    assert_replays(&h);
}

#[test]
fn late_requests_are_refused_before_the_timeout() {
    let mut h = started();
    h.wait(TURN);
    let k = h.fresh(true);
    assert_eq!(code(h.act(A, build(k, Mode::Observe))), Expired);
    assert_eq!(code(h.act(A, DuelMove::Skip)), Expired);
    let mut h = alice_with_two_tickets();
    h.ok(A, every_up());
    h.wait(TURN);
    assert_eq!(code(h.act(A, ZendoMove::Confirm)), Expired);
    assert_eq!(code(h.act(A, ZendoMove::EndTurn)), WrongPhase);
    // The time-out decides, as the rules say.
    h.run_out();
    assert_eq!(h.game.turn_seat(), Some(Seat::SECOND));
}

#[test]
fn stale_or_early_timeouts_are_refused() {
    let mut h = started();
    let first = h.game.next_deadline().unwrap();
    let timeout = |d: Deadline| Action::Timeout { deadline: d };
    assert_eq!(
        h.act(U, timeout(first)).err(),
        Some(RuleError::TooEarly { at: TURN })
    );
    assert_eq!(code(h.act(A, timeout(first))), UmpireOnly);
    h.wait(10_000);
    let k = h.fresh(true);
    h.ok(A, build(k, Mode::Challenge));
    h.wait(5_000);
    // The turn's deadline no longer holds while the challenge runs...
    assert_eq!(code(h.act(U, timeout(first))), StaleDeadline);
    h.ok(A, answer(Answer::Obeys));
    h.ok(B, answer(Answer::Not));
    // ...nor after: the turn clock stopped for the challenge, so it moved.
    assert_eq!(code(h.act(U, timeout(first))), StaleDeadline);
    let moved = h.game.next_deadline().unwrap();
    assert_eq!(moved.at, h.now + TURN - 10_000);
}

#[test]
fn downtime_is_not_counted() {
    let mut h = started();
    // The process dies at 60 s and comes back at 500 s.
    h.now = 500_000;
    h.ok(U, Action::Downtime { since: 60_000 });
    assert_eq!(remaining(&h), TURN - 60_000);
    assert_eq!(
        h.game.next_deadline().map(|d| d.at),
        Some(500_000 + TURN - 60_000)
    );
    // A challenge clock keeps its time too.
    let k = h.fresh(true);
    h.ok(A, build(k, Mode::Challenge));
    h.now += 10_000;
    h.now += 1_000_000;
    h.ok(
        U,
        Action::Downtime {
            since: h.now - 1_000_000,
        },
    );
    assert_eq!(h.game.next_deadline().map(|d| d.at), Some(h.now + 20_000));
    assert_replays(&h);
}

#[test]
fn resigning_hands_the_win_to_the_opponent() {
    let mut h = started();
    h.ok(H, Action::Pause);
    // Out of turn and while paused: resigning is always possible.
    let events = h.ok(B, Action::Resign);
    assert!(matches!(
        flat(&events[0].kind),
        EventKind::MatchEnded {
            outcome: Outcome::Resigned { by: Seat::SECOND },
            ..
        }
    ));
    assert_eq!(h.game.winner(), Some(Seat::FIRST));
    assert_eq!(code(h.act(A, DuelMove::Skip)), MatchOver);
    assert_eq!(code(h.act(H, Action::Resume)), MatchOver);
    assert_replays(&h);
}

#[test]
fn leaving_before_the_start_is_declining() {
    for leaver in [A, B] {
        let mut h = up_duel();
        assert_eq!(h.game.turn_seat(), None, "the starter is not chosen yet");
        let events = h.ok(leaver, Action::Resign);
        let EventKind::MatchEnded { outcome, .. } = &flat(&events[0].kind) else {
            panic!("{events:?}")
        };
        let by = if leaver == A {
            Seat::FIRST
        } else {
            Seat::SECOND
        };
        assert_eq!(
            *outcome,
            Outcome::Declined { by, time_up: false },
            "the one who left is named"
        );
        assert_eq!(h.game.winner(), None, "nobody wins a duel never played");
        assert_eq!(code(h.act(A, choose(ALICE))), MatchOver);
        assert_replays(&h);
    }
    // Once started, leaving is resigning (`resigning_hands_the_win_to_the_opponent`).
    let mut h = started();
    let events = h.ok(A, Action::Resign);
    assert!(matches!(
        flat(&events[0].kind),
        EventKind::MatchEnded {
            outcome: Outcome::Resigned { .. },
            ..
        }
    ));
}

#[test]
fn an_unanswered_challenge_to_a_duel_is_declined() {
    let mut h = up_duel();
    let d = h.game.next_deadline().expect("the choice has a deadline");
    assert_eq!((d.at, d.on_expiry), (TURN, Expiry::NoChoice));
    // Chosen in time: turn 1 gets a full clock of its own.
    let mut chosen = up_duel();
    chosen.wait(TURN - 1);
    chosen.ok(A, choose(BOB));
    let d = chosen.game.next_deadline().expect("turn 1 runs");
    assert_eq!(d.at, chosen.now + TURN);
    // Not chosen: declined on the advantage's behalf, nobody wins.
    h.wait(TURN);
    let late = h.act(A, choose(ALICE)).expect_err("too late");
    assert_eq!(late.code(), Expired);
    assert!(late.to_string().contains("choose who starts"), "{late}");
    h.run_out();
    assert_eq!(
        h.game.core.outcome,
        Some(Outcome::Declined {
            by: h.game.advantage(),
            time_up: true
        })
    );
    assert_eq!(h.game.winner(), None);
    assert_replays(&h);
}

#[test]
fn a_duel_nobody_plays_is_abandoned() {
    let mut h = started();
    // Both gone: IDLE_TURNS turns in a row run out, each side's own fewer than
    // IDLE_OWN_TURNS, so neither is judged alone.
    for n in 1..=IDLE_TURNS {
        assert!(!h.game.is_over(), "over after {n} idle turns");
        h.run_out();
    }
    assert!(matches!(h.game.core.outcome, Some(Outcome::Abandoned)));
    assert_eq!(h.game.winner(), None);
    assert_eq!(
        h.game.finish(),
        Some(rules::Finish::Unrated(rules::Why::Abandoned)),
        "never a rated draw"
    );
    assert_eq!(h.game.next_deadline(), None, "no more time-outs to post");
    assert_replays(&h);
}

/// `who` plays their turn: skips step 1 and ends the turn (if it did not pass by
/// itself for want of a ticket).
fn play_a_turn(h: &mut Harness<Duel>, who: Actor, seat: Seat) {
    h.ok(who, DuelMove::Skip);
    if h.game.turn_seat() == Some(seat) {
        h.ok(who, ZendoMove::EndTurn);
    }
}

#[test]
fn a_side_that_stops_after_playing_loses_on_time() {
    // Alice chose who starts (she acted), then her turns run out while Bob plays.
    let mut h = started();
    for n in 1..=IDLE_OWN_TURNS {
        assert!(!h.game.is_over(), "over after {n} missed turns");
        h.run_out(); // Alice's turn
        if n < IDLE_OWN_TURNS {
            play_a_turn(&mut h, B, Seat::SECOND);
        }
    }
    assert_eq!(
        h.game.core.outcome,
        Some(Outcome::Idle {
            seat: Seat::FIRST,
            acted: true
        })
    );
    assert_eq!(h.game.winner(), Some(Seat::SECOND));
    // A rated loss on time.
    assert_idle_end(&h, Seat::FIRST, true);
    // Doing something in between (an answer to Bob's challenge) starts the count again.
    let mut h = started();
    for n in 1..IDLE_OWN_TURNS {
        h.run_out(); // Alice's turn
        if n + 1 < IDLE_OWN_TURNS {
            play_a_turn(&mut h, B, Seat::SECOND);
        }
    }
    let k = h.fresh(true);
    h.ok(B, build(k, Mode::Challenge));
    h.ok(A, answer(Answer::Obeys));
    h.ok(B, answer(Answer::Obeys));
    h.ok(B, ZendoMove::EndTurn);
    h.run_out();
    assert!(!h.game.is_over(), "alice answered: her count began again");
}

#[test]
fn a_side_that_never_plays_aborts_the_duel() {
    // Alice chose to start and plays; Bob never does anything.
    let mut h = started();
    for n in 1..=IDLE_OWN_TURNS {
        play_a_turn(&mut h, A, Seat::FIRST);
        assert!(!h.game.is_over(), "over after {n} missed turns");
        h.run_out(); // Bob's turn
    }
    assert_eq!(
        h.game.core.outcome,
        Some(Outcome::Idle {
            seat: Seat::SECOND,
            acted: false
        })
    );
    assert_eq!(h.game.winner(), None, "nobody wins an aborted match");
    assert_idle_end(&h, Seat::SECOND, false);
}

#[test]
fn host_pause_freezes_the_match() {
    let mut h = started();
    h.wait(30_000);
    assert_eq!(code(h.act(A, Action::Pause)), HostOnly);
    h.ok(H, Action::Pause);
    assert_eq!(code(h.act(H, Action::Pause)), WrongPhase);
    assert_eq!(h.game.next_deadline(), None);
    h.wait(3_600_000);
    let k = h.fresh(true);
    assert_eq!(code(h.act(A, build(k.clone(), Mode::Challenge))), Paused);
    h.ok(H, Action::Resume);
    assert_eq!(remaining(&h), TURN - 30_000);
    assert_eq!(
        h.game.next_deadline().map(|d| d.at),
        Some(h.now + TURN - 30_000)
    );
    // During a challenge the answers wait too, and the challenge clock stops.
    h.ok(A, build(k, Mode::Challenge));
    h.wait(10_000);
    h.ok(H, Action::Pause);
    assert_eq!(code(h.act(B, answer(Answer::Obeys))), Paused);
    h.wait(100_000);
    h.ok(H, Action::Resume);
    assert_eq!(
        h.game.next_deadline().map(|d| (d.which, d.at)),
        Some((Which::Challenge, h.now + 20_000))
    );
    assert_eq!(code(h.act(H, Action::Resume)), WrongPhase);
    assert_replays(&h);
}

#[test]
fn host_disallow_returns_the_ticket() {
    let mut h = alice_with_two_tickets();
    assert_eq!(code(h.act(H, ZendoMove::Disallow)), WrongPhase);
    h.ok(A, every_up());
    h.ok(H, ZendoMove::Disallow);
    assert_eq!(h.game.tickets(Seat::FIRST), 2);
    assert_eq!(h.game.guesses()[0].status, GuessStatus::Disallowed);
    // An official guess still waiting for its verdict: the ticket and the 30 s go
    // back, and the finder's late verdict is refused.
    h.ok(A, every_up_variant());
    let before = remaining(&h);
    h.ok(A, ZendoMove::Confirm);
    h.ok(H, ZendoMove::Disallow);
    assert_eq!(h.game.tickets(Seat::FIRST), 2);
    assert_eq!(remaining(&h), before);
    assert_eq!(*step(&h), Step::Guess);
    let late = DuelMove::Verdict {
        guess: 2,
        verdict: Verdict::Equivalent,
    };
    assert_eq!(code(h.act(U, late)), WrongPhase);
    assert_eq!(code(h.act(A, ZendoMove::Disallow)), HostOnly);
    assert_replays(&h);
}

#[test]
fn host_end_has_no_winner() {
    let mut h = started();
    assert_eq!(code(h.act(B, Action::End)), HostOnly);
    let events = h.ok(H, Action::End);
    assert!(matches!(
        flat(&events[0].kind),
        EventKind::MatchEnded {
            outcome: Outcome::Ended { by: HOST },
            ..
        }
    ));
    assert_eq!(h.game.winner(), None);
    let view = h.game.view(&Viewer::Player(BOB));
    assert_eq!(view.revealed.as_deref(), Some("some piece points up"));
}

#[test]
fn a_host_who_plays_has_no_overrides() {
    let mut h = started();
    let alice_hosting = Actor::Host(ALICE);
    // Alice is a host of the server, but she plays here: no overrides.
    for action in [Action::Pause, Action::Resume, Action::End] {
        assert_eq!(code(h.act(alice_hosting, action)), HostPlays);
    }
    let k = h.fresh(true);
    alice_wins_a_challenge_with(&mut h, k);
    h.ok(A, every_up());
    assert_eq!(code(h.act(alice_hosting, ZendoMove::Disallow)), HostPlays);
    let err = h.act(Actor::Host(BOB), ZendoMove::Disallow).unwrap_err();
    assert!(err.to_string().contains("you play in this match"), "{err}");
    // A host who does not play may.
    h.ok(H, ZendoMove::Disallow);
    h.ok(H, Action::Pause);
    assert!(h.game.is_paused());
}

#[test]
fn checks_come_in_a_fixed_order() {
    let stranger = Actor::Player(HOST);
    let mut h = started();
    // 2 before 3: a stranger hears they do not play, even while paused.
    h.ok(H, Action::Pause);
    assert_eq!(code(h.act(stranger, DuelMove::Skip)), NotAPlayer);
    assert_eq!(code(h.act(H, DuelMove::Skip)), NotAPlayer);
    // 3 (paused) before 3 (turn): Bob hears about the pause first.
    assert_eq!(code(h.act(B, DuelMove::Skip)), Paused);
    h.ok(H, Action::Resume);
    // 3 (turn) before 4 (phase).
    assert_eq!(code(h.act(B, ZendoMove::Confirm)), NotYourTurn);
    // 4 (phase) before 5 (version).
    let v = h.game.version();
    assert_eq!(code(h.act_shown(A, ZendoMove::Confirm, v + 7)), WrongPhase);
    // 5 (version) before 6 (the rule: the structure is already given).
    let given = koan("1^");
    assert_eq!(
        code(h.act_shown(A, build(given.clone(), Mode::Observe), v + 7)),
        StaleVersion
    );
    assert_eq!(
        code(h.act_shown(A, build(given, Mode::Observe), v)),
        AlreadyGiven
    );
    // 1 before everything.
    h.ok(H, Action::End);
    assert_eq!(code(h.act(stranger, DuelMove::Skip)), MatchOver);
}

#[test]
fn stale_version_is_refused() {
    let mut h = alice_with_two_tickets();
    let drawn = h.game.view(&Viewer::Player(ALICE)).version;
    h.ok(A, every_up());
    h.ok(A, ZendoMove::TakeBack);
    // Alice is in step 2 again, but not the step 2 that button was drawn in.
    assert_eq!(
        h.act_shown(A, ZendoMove::EndTurn, drawn).err(),
        Some(RuleError::StaleVersion {
            shown: drawn,
            current: h.game.version()
        })
    );
    let now = h.game.version();
    h.act_shown(A, ZendoMove::EndTurn, now).unwrap();
    // Answer buttons stay good while the other player answers.
    let k = h.fresh(true);
    h.ok(B, build(k, Mode::Challenge));
    let drawn = h.game.version();
    h.act_shown(B, answer(Answer::Obeys), drawn).unwrap();
    h.act_shown(A, answer(Answer::Obeys), drawn).unwrap();
}

#[test]
fn out_of_turn_is_refused() {
    let mut h = started();
    let k = h.fresh(true);
    assert_eq!(
        h.act(B, build(k.clone(), Mode::Observe)).err(),
        Some(RuleError::NotYourTurn { waiting_for: ALICE })
    );
    assert_eq!(code(h.act(B, DuelMove::Skip)), NotYourTurn);
    assert_eq!(code(h.act(B, ZendoMove::EndTurn)), NotYourTurn);
    assert_eq!(code(h.act(Actor::Player(HOST), DuelMove::Skip)), NotAPlayer);
    h.ok(A, build(k, Mode::Observe));
    assert_eq!(code(h.act(A, DuelMove::Skip)), NotYourTurn);
    assert_eq!(h.log.len() as u64, h.game.version());
}

#[test]
fn views_and_announcements_keep_secrets() {
    let mut h = started();
    let k = h.fresh(true);
    h.ok(A, build(k, Mode::Challenge));
    let answered = h.ok(A, answer(Answer::Not));
    let bob = Viewer::Player(BOB);
    let alice = Viewer::Player(ALICE);
    // Heard whole only by Alice; by everyone else as "an answer is in".
    let heard = |viewer: &Viewer| {
        h.game
            .visible(&answered[0], viewer)
            .map(|e| match flat(&e.kind) {
                EventKind::ChallengeAnswered { answer, .. } => answer,
                other => panic!("{other:?}"),
            })
    };
    assert_eq!(heard(&bob), Some(None));
    assert_eq!(heard(&Viewer::Spectator), Some(None));
    assert_eq!(heard(&alice), Some(Some(Answer::Not)));
    assert!(
        h.game.visible(&h.log[0], &alice).is_none(),
        "created holds the pattern"
    );
    let StepView::Challenge {
        answered, yours, ..
    } = step_view(&h.game.view(&alice))
    else {
        panic!()
    };
    assert_eq!(
        (answered, yours),
        (BySeat::from([true, false]), Some(Answer::Not))
    );
    let StepView::Challenge { yours, .. } = step_view(&h.game.view(&bob)) else {
        panic!()
    };
    assert_eq!(yours, None);
    for viewer in [alice, bob, Viewer::Spectator] {
        let json = serde_json::to_string(&h.game.view(&viewer)).unwrap();
        assert!(!json.contains("some piece points up"), "{json}");
        assert!(!json.contains("Exists"), "{json}");
        let hidden = &h.game.hidden().formula;
        assert!(!json.contains(&crate::lang::english(hidden)), "{json}");
        assert!(!json.contains(&crate::lang::symbolic(hidden)), "{json}");
    }
    // After the reveal the answers are public.
    let revealed = h.ok(B, answer(Answer::Obeys));
    let seen = h.game.visible(&revealed[1], &Viewer::Spectator);
    assert!(matches!(
        seen.map(|e| flat(&e.kind)),
        Some(EventKind::ChallengeRevealed { .. })
    ));
}

fn step_view(view: &crate::rules::zendo::DuelView) -> StepView {
    match &view.phase {
        crate::rules::zendo::PhaseView::Turn { step, .. } => step.clone(),
        other => panic!("{other:?}"),
    }
}

use crate::rules::zendo::StepView;
