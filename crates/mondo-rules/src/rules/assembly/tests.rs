//! A test per rule of the rule book (`mod.rs`), named as there. The clock is fake:
//! `Harness::at` moves it and plays every deadline that passes, as the runtime would.

use super::*;
use crate::grid::{Cell, Dims};
use crate::rules::{Action, Actor, ErrorCode, Event, EventKind};

const ALICE: PlayerId = PlayerId(1);
const BOB: PlayerId = PlayerId(2);
const HOST: PlayerId = PlayerId(99);
const A: Actor = Actor::Player(ALICE);
const B: Actor = Actor::Player(BOB);
const H: Actor = Actor::Host(HOST);
const S: u64 = 1_000;

struct Harness {
    game: Assembly,
    log: Vec<Event<AssemblyEvent>>,
    now: Millis,
}

impl Harness {
    fn new(players: Vec<PlayerId>, settings: Settings, seed: u64) -> Harness {
        let (game, created) = Assembly::start(
            AssemblySetup {
                players,
                seed,
                settings,
            },
            0,
        )
        .unwrap();
        let mut h = Harness {
            game,
            log: vec![created],
            now: 0,
        };
        // The match begins at once: the first reveal.
        h.at(0);
        h
    }

    fn duel(settings: Settings) -> Harness {
        Harness::new(vec![ALICE, BOB], settings, 42)
    }

    /// Moves the clock to `t`, playing every deadline due by then; the events.
    fn at(&mut self, t: Millis) -> Vec<AssemblyEvent> {
        self.now = t;
        let mut out = Vec::new();
        while let Some(d) = self.game.next_deadline() {
            if d.at > t {
                break;
            }
            let events = self
                .game
                .play(&Actor::Umpire, &Action::Timeout { deadline: d }, d.at)
                .unwrap();
            out.extend(self.keep(events));
        }
        out
    }

    fn keep(&mut self, events: Vec<Event<AssemblyEvent>>) -> Vec<AssemblyEvent> {
        let own = events.iter().filter_map(|e| e.game().cloned()).collect();
        self.log.extend(events);
        own
    }

    fn ok(
        &mut self,
        actor: Actor,
        m: impl Into<Action<AssemblyMove, Deadline>>,
    ) -> Vec<AssemblyEvent> {
        let events = self
            .game
            .play(&actor, &m.into(), self.now)
            .unwrap_or_else(|e| panic!("refused: {e}"));
        self.keep(events)
    }

    fn err(&mut self, actor: Actor, m: impl Into<Action<AssemblyMove, Deadline>>) -> RuleError {
        self.game.play(&actor, &m.into(), self.now).unwrap_err()
    }

    fn answer(&mut self, actor: Actor, cells: &Group) -> Vec<AssemblyEvent> {
        self.ok(actor, answer(cells, None))
    }

    /// The start of round `n` when nobody answers (for the default timing).
    fn round_start(&self, n: u8) -> Millis {
        let t = self.game.settings().timing;
        let reveals = 1 + self
            .game
            .settings()
            .reveal_after
            .iter()
            .filter(|&&r| r < n)
            .count();
        reveals as u64 * t.reveal + (n as u64 - 1) * t.round
    }

    /// A right answer to target `i` of the current round.
    fn right(&self, i: usize) -> Group {
        self.game.targets()[i].example.clone()
    }

    /// A group of target 0's shape with other contents.
    fn wrong_contents(&self) -> Group {
        let t = &self.game.targets()[0];
        t.shape
            .placements(self.game.settings().dims)
            .into_iter()
            .find(|g| Contents::of(self.game.grid(), g) != t.contents)
            .expect("a wrong-contents placement on this grid")
    }
}

fn answer(cells: &Group, sent: Option<Millis>) -> AssemblyMove {
    AssemblyMove::Answer {
        cells: cells.clone(),
        sent,
    }
}

/// A group that is never a shape (two cells apart), of `n` cells.
fn broken(n: usize) -> Group {
    let mut cells: Vec<Cell> = (0..n as u8 - 1).map(|c| Cell::new(0, c)).collect();
    cells.push(Cell::new(2, 0));
    Group::new(cells)
}

fn quick() -> Settings {
    Settings::original()
}

/// The original game cut to `rounds` rounds with no reveal after the first.
fn short(rounds: u8) -> Settings {
    Settings {
        rounds,
        reveal_after: vec![],
        ..quick()
    }
}

fn names(events: &[AssemblyEvent]) -> Vec<String> {
    events
        .iter()
        .map(|e| {
            let json = serde_json::to_value(e).unwrap();
            json["event"].as_str().unwrap_or("?").to_string()
        })
        .collect()
}

fn resolved(events: &[AssemblyEvent]) -> Vec<(Seat, Verdict)> {
    events
        .iter()
        .filter_map(|e| match e {
            AssemblyEvent::Resolved { seat, verdict, .. } => Some((*seat, *verdict)),
            _ => None,
        })
        .collect()
}

#[test]
fn setup_draws_a_grid_and_solvable_rounds() {
    let h = Harness::duel(quick());
    assert_eq!(h.game.grid().dims(), Dims::CLASSIC);
    assert_eq!(h.game.rounds.len(), 20);
    for (i, round) in h.game.rounds.iter().enumerate() {
        assert_eq!(round.len(), 1);
        let t = &round[0];
        assert_eq!(
            judge(h.game.grid(), &t.shape, t.contents, &t.example),
            Verdict::Right,
            "round {}",
            i + 1
        );
    }
    // The same seed draws the same match; another seed another grid.
    assert_eq!(Harness::duel(quick()).game.grid(), h.game.grid());
    assert_ne!(
        Harness::new(vec![ALICE, BOB], quick(), 43).game.grid(),
        h.game.grid()
    );
    // Setups that cannot be played are refused.
    let bad = |players: Vec<PlayerId>, settings: Settings| {
        Assembly::start(
            AssemblySetup {
                players,
                seed: 1,
                settings,
            },
            0,
        )
        .unwrap_err()
    };
    assert_eq!(bad(vec![ALICE, ALICE], quick()), SetupError::SamePlayer);
    assert!(matches!(bad(vec![], quick()), SetupError::BadSettings(_)));
    assert!(matches!(
        bad(vec![ALICE, BOB, HOST], quick()),
        SetupError::BadSettings(_)
    ));
    let several = Settings {
        targets: 3,
        ..quick()
    };
    assert!(matches!(
        bad(vec![ALICE, BOB], several),
        SetupError::BadSettings(_)
    ));
    let huge = Settings {
        sizes: vec![40],
        ..quick()
    };
    assert!(matches!(
        bad(vec![ALICE, BOB], huge),
        SetupError::BadSettings(_)
    ));
}

#[test]
fn shape_sizes_grow_by_round() {
    let s = quick();
    let sizes: Vec<u8> = (1..=20).map(|r| s.size_of(r)).collect();
    assert_eq!(
        sizes,
        [3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6]
    );
    let h = Harness::duel(s);
    for (i, round) in h.game.rounds.iter().enumerate() {
        assert_eq!(round[0].shape.size(), sizes[i] as usize);
    }
    // A setting: two sizes over 4 rounds.
    let s = Settings {
        rounds: 4,
        sizes: vec![4, 5],
        ..quick()
    };
    assert_eq!(
        (1..=4).map(|r| s.size_of(r)).collect::<Vec<_>>(),
        [4, 4, 5, 5]
    );
}

#[test]
fn the_grid_is_shown_only_in_reveal_windows() {
    let mut h = Harness::duel(quick());
    // Before round 1: shown for 30 s.
    assert!(matches!(
        h.log[1].game(),
        Some(AssemblyEvent::Revealed { ms: 30_000, .. })
    ));
    assert!(h.game.view(&Viewer::Player(ALICE)).grid.is_some());
    assert!(h.game.view(&Viewer::Spectator).grid.is_some());
    assert!(h.at(29 * S).is_empty());
    let events = h.at(30 * S);
    assert_eq!(names(&events), ["hidden", "round_started"]);
    assert!(h.game.view(&Viewer::Player(ALICE)).grid.is_none());
    // Rounds 1-5 skipped by time: shown again after round 5, not after round 4.
    let events = h.at(h.round_start(5));
    assert!(!names(&events).contains(&"revealed".to_string()));
    let events = h.at(h.round_start(6) - 1);
    assert_eq!(names(&events).last().map(String::as_str), Some("revealed"));
    assert!(h.game.view(&Viewer::Player(BOB)).grid.is_some());
    h.at(h.round_start(6));
    assert!(h.game.view(&Viewer::Player(BOB)).grid.is_none());
    // And after rounds 10 and 15; then the showdown.
    let mut reveals = 0;
    for e in h.at(h.round_start(20) + 180 * S) {
        if matches!(e, AssemblyEvent::Revealed { .. }) {
            reveals += 1;
        }
    }
    assert_eq!(reveals, 2);
    assert_eq!(*h.game.phase(), Phase::Showdown);
    assert!(h.game.view(&Viewer::Player(BOB)).grid.is_none());
}

#[test]
fn answers_only_while_a_round_runs() {
    let mut h = Harness::duel(quick());
    let g = broken(3);
    let e = h.err(A, answer(&g, None));
    assert_eq!(e, RuleError::WrongPhase(NO_ROUND));
    h.at(30 * S);
    // A spectator or the host cannot answer.
    assert_eq!(
        h.err(Actor::Player(HOST), answer(&g, None)).code(),
        ErrorCode::NotAPlayer
    );
    assert_eq!(h.err(H, answer(&g, None)).code(), ErrorCode::NotAPlayer);
    // Cells off the grid (a bigger grid's group) are refused.
    let off = Group::new(vec![Cell::new(7, 0), Cell::new(7, 1), Cell::new(7, 2)]);
    assert_eq!(h.err(A, answer(&off, None)).code(), ErrorCode::Unsupported);
    // No turns: both answer at will.
    let right = h.right(0);
    h.answer(B, &h.wrong_contents());
    h.answer(A, &right);
    assert!(h.game.pending(Seat::FIRST).is_some());
    assert!(h.game.pending(Seat::SECOND).is_some());
}

#[test]
fn an_answer_waits_and_answers_meanwhile_are_disregarded() {
    let mut h = Harness::duel(quick());
    h.at(30 * S);
    let wrong = h.wrong_contents();
    let events = h.answer(A, &wrong);
    assert_eq!(names(&events), ["answered"]);
    h.at(59 * S);
    // During the wait: disregarded, told to the answerer alone (a refusal).
    let e = h.err(A, answer(&h.right(0), None));
    assert_eq!(e, RuleError::WrongPhase(WAITING));
    // The opponent is not waiting.
    h.answer(B, &h.wrong_contents());
    // At 30 s the verdict; then Alice may answer again.
    let events = h.at(60 * S);
    assert_eq!(
        resolved(&events),
        [(
            Seat::FIRST,
            Verdict::WrongContents(Contents::of(h.game.grid(), &wrong))
        )]
    );
    h.answer(A, &h.right(0));
}

#[test]
fn the_wait_ends_with_a_verdict() {
    let mut h = Harness::new(
        vec![ALICE, BOB],
        Settings {
            wrong_shape_waits: true,
            ..quick()
        },
        42,
    );
    h.at(30 * S);
    // Wrong shape: said, contents not revealed.
    h.answer(A, &broken(3));
    let wrong = h.wrong_contents();
    h.answer(B, &wrong);
    let events = h.at(60 * S);
    assert_eq!(
        resolved(&events),
        [
            (Seat::FIRST, Verdict::WrongShape),
            (
                Seat::SECOND,
                Verdict::WrongContents(Contents::of(h.game.grid(), &wrong))
            )
        ]
    );
    // Right: the round is won, points = group size, scores announced, next round.
    h.answer(A, &h.right(0));
    let events = h.at(90 * S);
    assert_eq!(names(&events), ["resolved", "round_ended", "round_started"]);
    assert!(matches!(
        events[0],
        AssemblyEvent::Resolved {
            verdict: Verdict::Right,
            points: 3,
            target: Some(0),
            ..
        }
    ));
    assert!(
        matches!(&events[1], AssemblyEvent::RoundEnded { number: 1, won: true, scores } if scores.values() == [3, 0])
    );
    assert!(matches!(
        events[2],
        AssemblyEvent::RoundStarted { number: 2, .. }
    ));
}

#[test]
fn a_win_voids_the_opponents_pending_answer() {
    let mut h = Harness::duel(quick());
    h.at(30 * S);
    h.answer(A, &h.right(0));
    h.at(40 * S);
    // Bob's answer is right too, but Alice's resolves first.
    h.answer(B, &h.right(0));
    let events = h.at(60 * S);
    assert_eq!(
        names(&events),
        ["resolved", "voided", "round_ended", "round_started"]
    );
    assert_eq!(events[1], AssemblyEvent::Voided { seat: Seat::SECOND });
    assert_eq!(h.game.scores().values(), [3, 0]);
    assert!(h.game.pending(Seat::SECOND).is_none());
}

#[test]
fn round_end_resolves_pending_answers_earlier_first() {
    let mut h = Harness::duel(quick());
    let end = 30 * S + 180 * S;
    h.at(end - 20 * S);
    // Bob answers first, Alice 5 s later; both right; both still waiting at the end.
    h.answer(B, &h.right(0));
    h.at(end - 15 * S);
    h.answer(A, &h.right(0));
    let events = h.at(end);
    assert_eq!(
        names(&events),
        ["resolved", "voided", "round_ended", "round_started"]
    );
    assert!(matches!(
        events[0],
        AssemblyEvent::Resolved {
            seat: Seat::SECOND,
            verdict: Verdict::Right,
            ..
        }
    ));
    assert_eq!(h.game.scores().values(), [0, 3]);
    // Wrong answers pending at the end are resolved too, earlier first.
    let end = end + 180 * S;
    h.at(end - 10 * S);
    h.answer(A, &h.wrong_contents());
    h.at(end - 5 * S);
    h.answer(B, &h.wrong_contents());
    let events = h.at(end);
    let seats: Vec<Seat> = resolved(&events).iter().map(|r| r.0).collect();
    assert_eq!(seats, [Seat::FIRST, Seat::SECOND]);
}

#[test]
fn a_round_nobody_wins_is_skipped() {
    let mut h = Harness::duel(quick());
    h.at(30 * S);
    h.answer(A, &h.wrong_contents());
    let events = h.at(210 * S);
    assert!(events.iter().any(|e| matches!(
        e,
        AssemblyEvent::RoundEnded {
            number: 1,
            won: false,
            ..
        }
    )));
    assert_eq!(h.game.scores().values(), [0, 0]);
    assert!(matches!(h.game.phase(), Phase::Round { number: 2, .. }));
}

#[test]
fn wrong_shape_rule_original_and_plus() {
    // The default is the seed's rule change: every answer waits, a wrong shape too.
    assert!(Settings::original().wrong_shape_waits);
    // The first rule (a host's setting): a wrong shape is said at once, with no
    // waiting period.
    let first_rule = Settings {
        wrong_shape_waits: false,
        ..quick()
    };
    let mut h = Harness::duel(first_rule);
    h.at(30 * S);
    let events = h.answer(A, &broken(3));
    assert_eq!(resolved(&events), [(Seat::FIRST, Verdict::WrongShape)]);
    assert!(h.game.pending(Seat::FIRST).is_none());
    // ... so Alice answers again at once; a right shape waits.
    let events = h.answer(A, &broken(4));
    assert_eq!(resolved(&events), [(Seat::FIRST, Verdict::WrongShape)]);
    assert_eq!(names(&h.answer(A, &h.wrong_contents())), ["answered"]);
    // The rule change (the default): every answer waits.
    let mut h = Harness::duel(quick());
    h.at(30 * S);
    assert_eq!(names(&h.answer(A, &broken(3))), ["answered"]);
    assert_eq!(
        h.err(A, answer(&broken(3), None)),
        RuleError::WrongPhase(WAITING)
    );
    assert_eq!(
        resolved(&h.at(60 * S)),
        [(Seat::FIRST, Verdict::WrongShape)]
    );
    // Plus uses its own, and only it.
    assert!(Settings::plus(Dims::new(10, 12).unwrap()).wrong_shape_waits);
    let plus_at_once = Settings {
        wrong_shape_waits: false,
        ..Settings::plus(Dims::new(10, 12).unwrap())
    };
    let setup = AssemblySetup {
        players: vec![ALICE, BOB],
        seed: 1,
        settings: plus_at_once,
    };
    assert!(Assembly::start(setup, 0).is_err());
}

#[test]
fn near_simultaneous_answers_are_ordered_by_send_time() {
    let mut h = Harness::duel(quick());
    h.at(30 * S);
    let right = h.right(0);
    // Bob's answer arrives first (at 40.3 s) but was sent at 40.2 s; Alice's arrives
    // at 40.5 s, sent at 40.0 s: Alice's wait ends first, and she wins the round.
    h.now = 40_300;
    h.ok(B, answer(&right, Some(40_200)));
    h.now = 40_500;
    h.ok(A, answer(&right, Some(40_000)));
    let events = h.at(70_000);
    assert!(matches!(
        events[0],
        AssemblyEvent::Resolved {
            seat: Seat::FIRST,
            verdict: Verdict::Right,
            ..
        }
    ));
    assert_eq!(events[1], AssemblyEvent::Voided { seat: Seat::SECOND });
    assert_eq!(h.game.scores().values(), [3, 0]);
    // The same at the round's end: Alice sent later but arrived first; Bob wins.
    // Round 2 began when Alice won round 1; it ends at its only deadline.
    let end = h.game.next_deadline().unwrap().at;
    assert_eq!(end, 70_000 + 180 * S);
    h.now = end - 3_000;
    h.ok(A, answer(&h.right(0), Some(end - 3_000)));
    h.now = end - 2_000;
    h.ok(B, answer(&h.right(0), Some(end - 3_500)));
    let events = h.at(end);
    assert!(matches!(
        events[0],
        AssemblyEvent::Resolved {
            seat: Seat::SECOND,
            verdict: Verdict::Right,
            ..
        }
    ));
    assert_eq!(events[1], AssemblyEvent::Voided { seat: Seat::FIRST });
    // A send time is believed only MAX_SKEW back.
    h.now = end + 60 * S;
    h.ok(A, answer(&h.wrong_contents(), Some(0)));
    assert_eq!(h.game.pending(Seat::FIRST).unwrap().sent, h.now - MAX_SKEW);
    // And a send time in the future counts as the arrival.
    h.ok(B, answer(&h.wrong_contents(), Some(h.now + 9_000)));
    assert_eq!(h.game.pending(Seat::SECOND).unwrap().sent, h.now);
}

/// Plays to the showdown with nobody answering.
fn to_showdown(h: &mut Harness) {
    let t = h.game.settings().timing;
    h.at(h.round_start(h.game.settings().rounds) + t.round);
    assert_eq!(*h.game.phase(), Phase::Showdown);
}

fn showdown(rows: &[String], region: Region) -> AssemblyMove {
    AssemblyMove::Showdown {
        grid: Reconstruction::parse(&rows.join("\n"), region.dims(), true).unwrap(),
    }
}

/// The rows with the first `n` cells (row-major) kept and the rest blank, and `wrong`
/// of the kept ones changed.
fn partial(rows: &[String], n: usize, wrong: usize) -> Vec<String> {
    let mut i = 0;
    rows.iter()
        .map(|r| {
            r.chars()
                .map(|c| {
                    i += 1;
                    match i {
                        i if i > n => '.',
                        i if i <= wrong => {
                            if c == 'O' {
                                'X'
                            } else {
                                'O'
                            }
                        }
                        _ => c,
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn showdown_scores_all_right_or_nothing() {
    let mut h = Harness::duel(short(2));
    h.at(30 * S);
    h.answer(A, &h.right(0));
    h.at(60 * S);
    assert_eq!(h.game.scores().values(), [3, 0]);
    to_showdown(&mut h);
    let rows = h.game.grid().rows();
    let region = h.game.region();
    // Not the region's size: refused, nothing lost.
    let small = AssemblyMove::Showdown {
        grid: Reconstruction::parse("XX", Dims::new(1, 2).unwrap(), true).unwrap(),
    };
    assert_eq!(h.err(A, small).code(), ErrorCode::Unsupported);
    // Alice fills 10 cells with one wrong: 0. Bob fills 20 right: 20.
    h.ok(A, showdown(&partial(&rows, 10, 1), region));
    assert_eq!(*h.game.phase(), Phase::Showdown);
    let events = h.ok(B, showdown(&partial(&rows, 20, 0), region));
    let AssemblyEvent::ShowdownScored {
        results, scores, ..
    } = &events[1]
    else {
        panic!("{events:?}");
    };
    assert_eq!(
        results[Seat::FIRST],
        ShowdownScore {
            filled: 10,
            right: 9,
            wrong: 1,
            points: 0
        }
    );
    assert_eq!(
        results[Seat::SECOND],
        ShowdownScore {
            filled: 20,
            right: 20,
            wrong: 0,
            points: 20
        }
    );
    assert_eq!(scores.values(), [3, 20]);
    assert_eq!(h.game.winner(), Some(Seat::SECOND));
    // Time up: who sent nothing scores nothing.
    let mut h = Harness::duel(short(1));
    to_showdown(&mut h);
    let rows = h.game.grid().rows();
    h.ok(A, showdown(&partial(&rows, 36, 0), h.game.region()));
    h.at(h.now + 300 * S);
    assert_eq!(h.game.scores().values(), [36, 0]);
    assert_eq!(h.game.winner(), Some(Seat::FIRST));
    assert_eq!(
        h.err(B, showdown(&rows, h.game.region())),
        RuleError::MatchOver
    );
}

#[test]
fn ties_go_to_more_correct_showdown_cells() {
    let mut h = Harness::duel(short(1));
    h.at(30 * S);
    h.answer(A, &h.right(0));
    to_showdown(&mut h);
    let rows = h.game.grid().rows();
    let region = h.game.region();
    // A tie: Alice 3 + 5 = 8, Bob 0 + 8 = 8; Bob has more right cells.
    h.ok(A, showdown(&partial(&rows, 5, 0), region));
    h.ok(B, showdown(&partial(&rows, 8, 0), region));
    assert_eq!(h.game.scores().values(), [8, 8]);
    assert_eq!(h.game.winner(), Some(Seat::SECOND));
    // Equal points and equal right cells: a draw.
    let mut h = Harness::duel(short(1));
    to_showdown(&mut h);
    let rows = h.game.grid().rows();
    h.ok(A, showdown(&partial(&rows, 4, 0), h.game.region()));
    h.ok(B, showdown(&partial(&rows, 4, 0), h.game.region()));
    assert!(matches!(
        h.game.phase(),
        Phase::Over(Outcome::Finished { winner: None })
    ));
}

fn plus() -> Settings {
    Settings {
        rounds: 3,
        reveal_after: vec![],
        ..Settings::plus(Dims::new(8, 10).unwrap())
    }
}

#[test]
fn plus_several_targets_discard_and_end() {
    let mut h = Harness::duel(plus());
    assert_eq!(h.game.grid().dims(), Dims::new(8, 10).unwrap());
    h.at(30 * S);
    assert_eq!(h.game.targets().len(), 3);
    let first = h.right(0);
    h.answer(A, &first);
    h.answer(B, &h.right(1));
    let events = h.at(60 * S);
    // Both found one (1 point each); the round goes on.
    assert_eq!(names(&events), ["resolved", "resolved"]);
    assert_eq!(h.game.scores().values(), [1, 1]);
    assert_eq!(h.game.found(), [true, true, false]);
    // A found group is discarded: the same answer again is wrong now.
    h.answer(B, &first);
    let events = h.at(90 * S);
    assert!(matches!(
        resolved(&events)[..],
        [(Seat::SECOND, Verdict::NoMatch)]
    ));
    // The last one ends the round at once.
    h.answer(A, &h.right(2));
    let events = h.at(120 * S);
    assert_eq!(names(&events), ["resolved", "round_ended", "round_started"]);
    assert_eq!(h.game.scores().values(), [2, 1]);
    // Otherwise after 5 minutes.
    let events = h.at(120 * S + 300 * S - 1);
    assert!(events.is_empty());
    let events = h.at(120 * S + 300 * S);
    assert!(matches!(
        events[0],
        AssemblyEvent::RoundEnded {
            number: 2,
            won: false,
            ..
        }
    ));
}

/// Plus: both players learn only whether an answer matches a group (and which). A
/// wrong answer, of the right shape or not, says nothing of its contents in the event.
#[test]
fn plus_wrong_answers_reveal_nothing_of_their_contents() {
    let mut h = Harness::duel(plus());
    h.at(30 * S);
    let t = h.game.targets()[0].clone();
    // The same shape as a target with other contents, if the grid has one.
    let same_shape = t
        .shape
        .placements(h.game.settings().dims)
        .into_iter()
        .find(|g| {
            let c = Contents::of(h.game.grid(), g);
            h.game.targets().iter().all(|t| t.contents != c)
        })
        .expect("a placement with other contents");
    h.answer(A, &same_shape);
    h.answer(B, &broken(3));
    let events = h.at(60 * S);
    assert_eq!(
        resolved(&events),
        [
            (Seat::FIRST, Verdict::NoMatch),
            (Seat::SECOND, Verdict::NoMatch)
        ]
    );
    // (How each front says them: mondo-narrate's
    // `plus_wrong_answers_are_said_without_their_contents`.)
    for e in &events {
        let AssemblyEvent::Resolved { contents, .. } = e else {
            continue;
        };
        assert_eq!(*contents, None, "{e:?}");
    }
    // A right one says which group it found.
    h.answer(A, &h.right(1));
    let events = h.at(90 * S);
    assert!(matches!(
        events[0],
        AssemblyEvent::Resolved {
            verdict: Verdict::Right,
            target: Some(1),
            ..
        }
    ));
}

#[test]
fn plus_showdown_scores_plus_one_minus_one_on_a_region() {
    let mut h = Harness::duel(plus());
    let region = Region::parse("B-D 2-7", h.game.settings().dims).unwrap();
    h.ok(H, AssemblyMove::SetRegion { region });
    to_showdown(&mut h);
    assert!(matches!(
        h.log.last().unwrap().game(),
        Some(AssemblyEvent::ShowdownOpened { ms: 120_000, .. })
    ));
    let e = h.err(H, AssemblyMove::SetRegion { region });
    assert_eq!(e.code(), ErrorCode::WrongPhase);
    let truth: Vec<String> = region
        .cells()
        .map(|c| h.game.grid().get(c).unwrap().char())
        .collect::<String>()
        .as_bytes()
        .chunks(6)
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect();
    // Alice: 10 right, 2 wrong = 8. Bob: 3 right = 3.
    h.ok(A, showdown(&partial(&truth, 12, 2), region));
    h.ok(B, showdown(&partial(&truth, 3, 0), region));
    let r = h.game.results().unwrap();
    assert_eq!(r[Seat::FIRST].points, 8);
    assert_eq!(r[Seat::SECOND].points, 3);
    assert_eq!(h.game.winner(), Some(Seat::FIRST));
    // Below zero is possible.
    let mut h = Harness::duel(plus());
    to_showdown(&mut h);
    let rows = h.game.grid().rows();
    h.ok(A, showdown(&partial(&rows, 5, 5), h.game.region()));
    h.ok(B, showdown(&partial(&rows, 0, 0), h.game.region()));
    assert_eq!(h.game.scores().values(), [-5, 0]);
    assert_eq!(h.game.winner(), Some(Seat::SECOND));
}

/// Fails when two rounds ask the same shape (up to rotation and reflection: shapes
/// are canonical) with the same contents.
fn assert_no_question_repeats(rounds: &[Vec<Target>], what: &str) {
    let mut seen = std::collections::HashSet::new();
    for (i, round) in rounds.iter().enumerate() {
        assert!(!round.is_empty(), "{what}: round {} asks nothing", i + 1);
        for t in round {
            assert!(
                seen.insert((t.shape.clone(), t.contents)),
                "{what}: round {} asks {:?} {} again",
                i + 1,
                t.shape.rows(),
                t.contents
            );
        }
    }
}

/// No round asks what an earlier round of the same match asked (the earlier public
/// answer would be right again): across many seeds, the original game and Plus, and
/// the rounds drawn from a changed grid. The draw is the seed's: the same seed asks
/// the same questions.
#[test]
fn no_round_repeats_an_earlier_question() {
    for seed in 0..150 {
        for settings in [quick(), Settings::plus(Dims::new(10, 10).unwrap())] {
            let setup = AssemblySetup {
                players: vec![ALICE, BOB],
                seed,
                settings: settings.clone(),
            };
            let (game, _) = Assembly::start(setup.clone(), 0).unwrap();
            assert_no_question_repeats(game.rounds(), &format!("seed {seed}"));
            let (again, _) = Assembly::start(setup, 0).unwrap();
            assert_eq!(game.rounds(), again.rounds());
            // A grid changed after round 10: rounds 11-20 repeat none of 1-10.
            let (_, later) = draw(seed, 1, &settings, 11, &game.rounds()[..10]);
            let mut all = game.rounds()[..10].to_vec();
            all.extend(later);
            assert_no_question_repeats(&all, &format!("seed {seed}, changed grid"));
        }
    }
}

#[test]
fn plus_host_re_reveals_and_changes_the_grid() {
    let mut h = Harness::duel(plus());
    h.at(30 * S);
    // Only a host who does not play; only in Plus.
    assert_eq!(h.err(A, AssemblyMove::Rereveal).code(), ErrorCode::HostOnly);
    h.ok(H, AssemblyMove::Rereveal);
    // Takes effect after the round.
    assert!(h.game.view(&Viewer::Player(ALICE)).grid.is_none());
    let events = h.at(330 * S);
    assert_eq!(names(&events), ["round_ended", "revealed"]);
    assert!(h.game.view(&Viewer::Player(ALICE)).grid.is_some());
    let events = h.at(360 * S);
    assert_eq!(names(&events), ["hidden", "round_started"]);
    // A change: a new grid after the round, revealed, the rest of the rounds from it.
    let old = h.game.grid().clone();
    h.ok(H, AssemblyMove::ChangeGrid);
    let events = h.at(660 * S);
    assert_eq!(names(&events), ["round_ended", "grid_changed", "revealed"]);
    assert_ne!(*h.game.grid(), old);
    assert_no_question_repeats(h.game.rounds(), "after the change");
    h.at(690 * S);
    let t = &h.game.targets()[0];
    assert_eq!(
        judge(h.game.grid(), &t.shape, t.contents, &t.example),
        Verdict::Right
    );
    // Everyone hears that it changed, nobody what it is.
    let AssemblyEvent::GridChanged { .. } = &events[1] else {
        unreachable!()
    };
    assert_eq!(
        h.game.redact(&events[1], &Viewer::Player(ALICE)),
        Some(AssemblyEvent::GridChanged {
            grid: None,
            rounds: None
        })
    );
    // Not in the original game.
    let mut o = Harness::duel(quick());
    assert_eq!(
        o.err(H, AssemblyMove::ChangeGrid).code(),
        ErrorCode::Unsupported
    );
}

#[test]
fn solo_practice_plays_the_same_rounds() {
    let mut solo = Harness::new(vec![ALICE], quick(), 42);
    let duel = Harness::duel(quick());
    assert_eq!(solo.game.grid(), duel.game.grid());
    assert_eq!(solo.game.rounds, duel.game.rounds);
    solo.at(30 * S);
    solo.answer(A, &solo.right(0));
    let events = solo.at(60 * S);
    assert!(
        matches!(&events[1], AssemblyEvent::RoundEnded { scores, .. } if scores.values() == [3])
    );
    to_showdown(&mut solo);
    let rows = solo.game.grid().rows();
    solo.ok(A, showdown(&partial(&rows, 6, 0), solo.game.region()));
    assert_eq!(solo.game.scores().values(), [9]);
    assert!(matches!(
        solo.game.phase(),
        Phase::Over(Outcome::Finished { winner: None })
    ));
}

#[test]
fn pause_stops_every_clock() {
    let mut h = Harness::duel(quick());
    h.at(30 * S);
    h.now = 40 * S;
    h.answer(A, &h.wrong_contents());
    h.now = 50 * S;
    h.ok(H, Action::Pause);
    assert_eq!(h.game.next_deadline(), None);
    assert_eq!(h.err(B, answer(&broken(3), None)), RuleError::Paused);
    h.now = 1_050 * S;
    h.ok(H, Action::Resume);
    // 20 s were left of Alice's wait, 160 s of the round.
    assert_eq!(h.at(1_069 * S), []);
    assert_eq!(names(&h.at(1_070 * S)), ["resolved"]);
    assert_eq!(h.at(1_209 * S), []);
    assert_eq!(names(&h.at(1_210 * S)), ["round_ended", "round_started"]);
    // Downtime is not counted either.
    // Round 2 ran 30 s before the process went down at 1240 s: 150 s are left after.
    h.now = 2_000 * S;
    h.ok(Actor::Umpire, Action::Downtime { since: 1_240 * S });
    assert_eq!(h.game.next_deadline().unwrap().at, 2_000 * S + 150 * S);
}

#[test]
fn resigning_hands_the_win_to_the_opponent() {
    let mut h = Harness::duel(quick());
    h.at(30 * S);
    let events = h.ok(B, Action::Resign);
    assert!(matches!(
        events[0],
        AssemblyEvent::MatchEnded {
            outcome: Outcome::Resigned { by: Seat::SECOND },
            ..
        }
    ));
    assert_eq!(h.game.winner(), Some(Seat::FIRST));
    assert!(h.game.view(&Viewer::Spectator).grid.is_some());
    let mut solo = Harness::new(vec![ALICE], quick(), 1);
    solo.ok(A, Action::Resign);
    assert_eq!(solo.game.winner(), None);
    let mut h = Harness::duel(quick());
    h.ok(H, Action::End);
    assert!(matches!(
        h.game.phase(),
        Phase::Over(Outcome::Ended { by: HOST })
    ));
}

/// The fair-play rule (docs/ratings.md): who sent no showdown was idle at the end. A
/// match nobody plays is abandoned (never a rated draw), a side that never acted aborts
/// it, a side idle after acting loses whatever the score, and a tie both played is
/// the rules' rated draw.
#[test]
fn every_finish_follows_the_fair_play_rule() {
    use rules::{Finish, Why};
    let blank = |h: &Harness| showdown(&partial(&h.game.grid().rows(), 0, 0), h.game.region());
    // (Bob answers round 1 right, Alice sends a showdown, Bob sends one): the finish.
    let play = |bob_answers: bool, alice_sends: bool, bob_sends: bool| {
        let mut h = Harness::duel(short(1));
        h.at(30 * S);
        if bob_answers {
            h.answer(B, &h.right(0));
        }
        to_showdown(&mut h);
        if alice_sends {
            h.ok(A, blank(&h));
        }
        if bob_sends {
            h.ok(B, blank(&h));
        }
        h.at(h.now + 300 * S);
        assert!(h.game.is_over());
        // The end event carries the verdict whenever it is not the score's own, so
        // what players are told is what was judged.
        let judged = h.log.iter().find_map(|e| match e.game() {
            Some(AssemblyEvent::MatchEnded { judged, .. }) => Some(judged.clone()),
            _ => None,
        });
        (Game::finish(&h.game), judged.expect("the match ended"))
    };
    let two = |winner| Some(Finish::two(&[ALICE, BOB], winner));
    use rules::fair::Verdict;
    let abandoned = (
        Some(Finish::Unrated(Why::Abandoned)),
        Some(Verdict::Abandoned),
    );
    assert_eq!(play(false, false, false), abandoned);
    assert_eq!(play(true, false, false), abandoned);
    assert_eq!(
        play(false, true, true),
        (two(None), None),
        "a tie both played: a rated draw"
    );
    assert_eq!(
        play(false, true, false),
        (
            Some(Finish::Unrated(Why::Aborted { by: BOB })),
            Some(Verdict::Aborted(Seat::SECOND))
        )
    );
    // Bob leads 3 to 0 but sends no showdown: idle after acting, he loses.
    assert_eq!(
        play(true, true, false),
        (two(Some(0)), Some(Verdict::Lose(vec![Seat::SECOND])))
    );
    assert_eq!(
        play(true, true, true),
        (two(Some(1)), None),
        "his 3 points win"
    );
    // Resigning before acting aborts; after acting it is a loss.
    let mut h = Harness::duel(quick());
    h.at(30 * S);
    h.answer(A, &h.right(0));
    h.ok(B, Action::Resign);
    assert_eq!(
        Game::finish(&h.game),
        Some(Finish::Unrated(Why::Aborted { by: BOB }))
    );
    let mut h = Harness::duel(quick());
    h.at(30 * S);
    h.answer(B, &h.right(0));
    h.ok(B, Action::Resign);
    assert_eq!(Game::finish(&h.game), two(Some(0)));
}

#[test]
fn views_and_announcements_keep_secrets() {
    let mut h = Harness::duel(short(1));
    h.at(30 * S);
    // The created event (its seed draws the grid) is heard by nobody.
    for v in [Viewer::Player(ALICE), Viewer::Spectator] {
        assert_eq!(h.game.visible(&h.log[0], &v), None);
    }
    // Views of a round: targets, never an example solution, no grid.
    let v = h.game.view(&Viewer::Player(BOB));
    assert!(v.grid.is_none());
    let json = serde_json::to_string(&v).unwrap();
    assert!(!json.contains("example"), "{json}");
    assert!(!json.contains(&h.right(0).to_string()), "{json}");
    // Your own pending answer is in your view; the other's is only "waiting".
    h.answer(A, &h.wrong_contents());
    assert!(h.game.view(&Viewer::Player(ALICE)).your_answer.is_some());
    let bob = h.game.view(&Viewer::Player(BOB));
    assert!(bob.your_answer.is_none());
    assert_eq!(bob.waiting.len(), 1);
    // A showdown grid is heard only by its player until scored.
    to_showdown(&mut h);
    let rows = h.game.grid().rows();
    let events = h.ok(A, showdown(&rows, h.game.region()));
    let submitted = Event {
        at: h.now,
        kind: EventKind::Game(events[0].clone()),
    };
    let to_bob = h.game.visible(&submitted, &Viewer::Player(BOB)).unwrap();
    assert_eq!(
        to_bob.game(),
        Some(&AssemblyEvent::ShowdownSubmitted {
            seat: Seat::FIRST,
            grid: None
        })
    );
    let to_alice = h.game.visible(&submitted, &Viewer::Player(ALICE)).unwrap();
    assert_eq!(to_alice.game(), Some(&events[0]));
}

#[test]
fn replay_rebuilds_the_match() {
    let mut h = Harness::duel(Settings {
        rounds: 3,
        ..plus()
    });
    h.ok(H, AssemblyMove::ChangeGrid);
    h.at(30 * S);
    h.answer(A, &h.right(0));
    h.answer(B, &broken(3));
    h.at(400 * S);
    let replayed = Assembly::replay(&h.log).unwrap();
    assert_eq!(
        serde_json::to_value(&replayed).unwrap(),
        serde_json::to_value(&h.game).unwrap()
    );
    // Every event reads back from its JSON.
    for e in &h.log {
        let json = serde_json::to_string(e).unwrap();
        let back: Event<AssemblyEvent> = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, e, "{json}");
    }
}
