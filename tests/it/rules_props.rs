//! Properties of the Zendo engine over random matches: random sequences of requests
//! (legal and not), with random waits, verdicts (true, undecided, false) and
//! time-outs, played through the public API.
//!
//! After every request:
//! - folding the log from its created event (after a JSON round trip, as the store
//!   keeps it) gives the state played, and the version counts the events;
//! - a refused request changes nothing;
//! - the table holds each structure once, with the hidden pattern's verdict; tickets
//!   add up (held + paid for guesses = earned); a winning guess contradicts no
//!   structure on the table; the turn clock runs exactly when it should;
//! - no view and no announcement shows the hidden pattern (its text or its AST)
//!   before the end, and a challenge answer changes nothing another viewer can see
//!   (views with the opposite answer are identical).

use mondo::finder::{Counterexample, Verdict};
use mondo::lang::{Formula, Pattern};
use mondo::rules::zendo::testing::flat::{EventKind, flat};
use mondo::rules::zendo::testing::*;
use mondo::rules::zendo::{
    Answer, Duel, DuelMove, GuessStatus, Mode, Phase, Practice, PracticeMove, PracticeStep, Step,
    Zendo, ZendoMove,
};
use mondo::rules::{Action, Actor, ErrorCode, Event, Game, GameTypes, PlayerId, Seat, Viewer};
use proptest::prelude::*;
use serde::Serialize;
use std::fmt::Debug;

/// Never part of any guess's text, so finding it in a view means a leak.
const MARK: &str = "HIDDEN-7f3a9c";

fn hidden(which: u8) -> Pattern {
    let text = [
        "some piece points up",
        "there is exactly one large piece",
        "no piece points left",
    ][which as usize % 3];
    pattern(&format!("{MARK} {text}"), parsed(text).formula)
}

/// Guesses: the hidden pattern itself (said differently) and some wrong ones. Every
/// wrong one differs from every hidden one on a structure of at most two pieces, so
/// the small-structure umpire never calls a wrong guess right.
fn guess_pool(hidden: &Pattern) -> Vec<(String, Formula)> {
    let mut pool = vec![("the same, said differently".into(), hidden.formula.clone())];
    for text in [
        "every piece points up",
        "some piece points right",
        "exactly one piece is large",
        "there is exactly one piece",
        "some piece points up",
    ] {
        pool.push((text.to_string(), parsed(text).formula));
    }
    pool
}

#[derive(Clone, Debug)]
enum Op {
    Wait(u64),
    Choose(u8),
    Build { who: u8, koan: u16, challenge: bool },
    Skip(u8),
    Answer { who: u8, answer: u8 },
    Guess { who: u8, which: u8 },
    Confirm(u8),
    TakeBack(u8),
    EndTurn(u8),
    Resign(u8),
    Host(u8),
    Verdict(u8),
    Timeout(u8),
    Downtime(u64),
    Stale(u8),
}

fn op() -> impl Strategy<Value = Op> {
    let who = prop_oneof![6 => Just(0u8), 3 => Just(1u8), 1 => Just(2u8)];
    prop_oneof![
        3 => (0u64..40_000).prop_map(Op::Wait),
        2 => (0u8..2).prop_map(Op::Choose),
        4 => (who.clone(), prop_oneof![0u16..40, 0u16..9_000], any::<bool>())
            .prop_map(|(who, koan, challenge)| Op::Build { who, koan, challenge }),
        1 => who.clone().prop_map(Op::Skip),
        4 => (0u8..3, 0u8..3).prop_map(|(who, answer)| Op::Answer { who, answer }),
        5 => (who.clone(), 0u8..6).prop_map(|(who, which)| Op::Guess { who, which }),
        5 => who.clone().prop_map(Op::Confirm),
        1 => who.clone().prop_map(Op::TakeBack),
        2 => who.clone().prop_map(Op::EndTurn),
        1 => (0u8..40).prop_map(Op::Resign),
        2 => (0u8..20).prop_map(Op::Host),
        5 => (0u8..4).prop_map(Op::Verdict),
        3 => (0u8..4).prop_map(Op::Timeout),
        1 => (0u64..900_000).prop_map(Op::Downtime),
        1 => who.prop_map(Op::Stale),
    ]
}

/// A game's request for an op.
type Req<G> = Action<<G as Game>::Move, <G as GameTypes>::Deadline>;

/// Who "the current player", "the other" and "a stranger" are, and the game's moves
/// for the ops (none where the game has no such move).
trait Cast: Zendo {
    fn current(&self) -> PlayerId;
    fn other(&self) -> PlayerId;
    fn choose(_starter: PlayerId) -> Option<Self::Move> {
        None
    }
    fn build(k: mondo::Koan, mode: Mode) -> Option<Self::Move>;
    fn skip() -> Option<Self::Move> {
        None
    }
    fn answer(_a: Answer) -> Option<Self::Move> {
        None
    }
    fn guess(pattern: Pattern) -> Self::Move;
    fn confirm() -> Self::Move;
    fn take_back() -> Self::Move;
    fn end_turn() -> Option<Self::Move> {
        None
    }
    fn disallow() -> Self::Move;
}

impl Cast for Duel {
    fn current(&self) -> PlayerId {
        self.player(self.turn_seat().unwrap_or(self.advantage()))
    }
    fn other(&self) -> PlayerId {
        self.player(self.turn_seat().unwrap_or(self.advantage()).other())
    }
    fn choose(starter: PlayerId) -> Option<DuelMove> {
        Some(choose(starter))
    }
    fn build(k: mondo::Koan, mode: Mode) -> Option<DuelMove> {
        Some(build(k, mode))
    }
    fn skip() -> Option<DuelMove> {
        Some(DuelMove::Skip)
    }
    fn answer(a: Answer) -> Option<DuelMove> {
        Some(answer(a))
    }
    fn guess(pattern: Pattern) -> DuelMove {
        DuelMove::Guess { pattern }
    }
    fn confirm() -> DuelMove {
        DuelMove::Zendo(ZendoMove::Confirm)
    }
    fn take_back() -> DuelMove {
        DuelMove::Zendo(ZendoMove::TakeBack)
    }
    fn end_turn() -> Option<DuelMove> {
        Some(DuelMove::Zendo(ZendoMove::EndTurn))
    }
    fn disallow() -> DuelMove {
        DuelMove::Zendo(ZendoMove::Disallow)
    }
}

impl Cast for Practice {
    fn current(&self) -> PlayerId {
        self.player()
    }
    fn other(&self) -> PlayerId {
        BOB
    }
    fn build(koan: mondo::Koan, mode: Mode) -> Option<PracticeMove> {
        (mode == Mode::Observe).then_some(PracticeMove::Build { koan })
    }
    fn guess(pattern: Pattern) -> PracticeMove {
        PracticeMove::Guess { pattern }
    }
    fn confirm() -> PracticeMove {
        PracticeMove::Zendo(ZendoMove::Confirm)
    }
    fn take_back() -> PracticeMove {
        PracticeMove::Zendo(ZendoMove::TakeBack)
    }
    fn disallow() -> PracticeMove {
        PracticeMove::Zendo(ZendoMove::Disallow)
    }
}

fn player<G: Cast>(game: &G, who: u8) -> Actor {
    Actor::Player(match who {
        0 => game.current(),
        1 => game.other(),
        _ => HOST,
    })
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("serialises")
}

/// Plays one op; returns the request made (if any).
fn play<G>(h: &mut Harness<G>, op: &Op, pool: &[(String, Formula)]) -> Option<(Actor, Req<G>)>
where
    G: Cast,
    G::Deadline: DeadlineAt,
{
    let u = Actor::Umpire;
    let mv = |actor: Actor, m: Option<G::Move>| m.map(|m| (actor, Action::Move(m)));
    let request = match op {
        Op::Wait(ms) => {
            h.wait(*ms);
            return None;
        }
        Op::Choose(w) => return mv(player(&h.game, 0), G::choose([ALICE, BOB][*w as usize % 2])),
        Op::Build {
            who,
            koan,
            challenge,
        } => {
            let all = small_structures(h.game.settings().set);
            let k = all[*koan as usize % all.len()].clone();
            let mode = if *challenge {
                mondo::rules::zendo::Mode::Challenge
            } else {
                mondo::rules::zendo::Mode::Observe
            };
            return mv(player(&h.game, *who), G::build(k, mode));
        }
        Op::Skip(who) => return mv(player(&h.game, *who), G::skip()),
        Op::Answer { who, answer: a } => {
            let a = [Answer::Obeys, Answer::Not, Answer::Pass][*a as usize];
            return mv(player(&h.game, *who), G::answer(a));
        }
        Op::Guess { who, which } => {
            let (text, formula) = &pool[*which as usize % pool.len()];
            let pattern = pattern(text, formula.clone());
            (player(&h.game, *who), Action::Move(G::guess(pattern)))
        }
        Op::Confirm(who) => (player(&h.game, *who), Action::Move(G::confirm())),
        Op::TakeBack(who) => (player(&h.game, *who), Action::Move(G::take_back())),
        Op::EndTurn(who) => return mv(player(&h.game, *who), G::end_turn()),
        // Rare, so that matches last.
        Op::Resign(n) if *n == 0 => (player(&h.game, 1), Action::Resign),
        Op::Resign(_) => return None,
        Op::Host(k) => {
            // Ending is rare so that matches last; resuming is common so that pauses
            // do not.
            let action = match k {
                0..=3 => Action::Pause,
                4..=12 => Action::Resume,
                13..=18 => Action::Move(G::disallow()),
                _ => Action::End,
            };
            (Actor::Host(HOST), action)
        }
        Op::Verdict(k) => verdict(h, *k),
        Op::Timeout(how) => {
            let mut deadline = h.game.next_deadline()?;
            match how {
                // When it is due (the runtime's way).
                0 | 1 => h.now = h.now.max(mondo::rules::Deadline::at(&deadline)),
                // Early, unless it already passed.
                2 => {}
                // A deadline that is not the current one.
                _ => deadline.shift(),
            }
            (u, Action::Timeout { deadline })
        }
        Op::Downtime(ms) => {
            let since = h.now;
            h.wait(*ms);
            (u, Action::Downtime { since })
        }
        Op::Stale(who) => {
            // Version 0 was never shown: always stale (or refused earlier).
            let (actor, action) = (player(&h.game, *who), Action::Move(G::take_back()));
            let before = h.game.version();
            let err = h
                .act_shown(actor, action, 0)
                .expect_err("version 0 is stale");
            assert_ne!(err.code(), ErrorCode::Expired);
            assert_eq!(h.game.version(), before);
            return None;
        }
    };
    Some(request)
}

/// Moving a deadline off the current one.
trait DeadlineAt {
    fn shift(&mut self);
}

impl DeadlineAt for mondo::rules::zendo::Deadline {
    fn shift(&mut self) {
        self.at += 1;
    }
}

impl DeadlineAt for mondo::rules::zendo::practice::Deadline {
    fn shift(&mut self) {
        match *self {}
    }
}

/// The umpire's verdict: true, undecided, false, or "equivalent" (sent only when it
/// is true or when the table shows it is not, to test the refusal).
fn verdict<G: Zendo>(h: &Harness<G>, k: u8) -> (Actor, Req<G>) {
    let Some(request) = h.game.verdict_job() else {
        let stray = G::verdict_move(1, Verdict::Equivalent);
        return (Actor::Umpire, Action::Move(stray));
    };
    let truth = small_search_verdict(&request);
    let contradicted = !h.game.table().contradictions(&request.guessed).is_empty();
    let verdict = match k {
        1 => Verdict::Undecided {
            reason: "out of budget".into(),
        },
        2 => {
            // Initial structure #1 obeys the hidden pattern; claim the guess says not,
            // whatever it says: refused unless that happens to be true.
            let koan = h.game.table().entries()[0].koan.clone();
            Verdict::Counterexample(Counterexample {
                koan,
                hidden: false,
                guess: true,
            })
        }
        3 if contradicted => Verdict::Equivalent,
        _ => truth,
    };
    (
        Actor::Umpire,
        Action::Move(G::verdict_move(request.guess, verdict)),
    )
}

/// Checks every property after one request.
fn check<G>(
    h: &Harness<G>,
    before: &G,
    request: &(Actor, Req<G>),
    result: &Result<Vec<Event<G::Event>>, mondo::rules::RuleError>,
) where
    G: Cast,
    G::View: Serialize + PartialEq + Debug,
{
    match result {
        Err(_) => assert_eq!(
            json(&h.game),
            json(before),
            "a refused request changed nothing"
        ),
        Ok(events) => assert!(!events.is_empty(), "an accepted request says what happened"),
    }
    // Bad counterexamples are never accepted: every counterexample on the table is
    // checked below (its verdict is the hidden pattern's).
    let _ = request;
    assert_eq!(h.game.version(), h.log.len() as u64);
    assert_eq!(json(&h.game), json(&h.replayed()));

    // The table: each structure once, with the hidden pattern's verdict.
    let table = h.game.table().entries();
    for (i, e) in table.iter().enumerate() {
        assert_eq!(e.number as usize, i + 1);
        assert_eq!(
            e.obeys,
            mondo::lang::evaluate(&h.game.hidden().formula, &e.koan)
        );
        assert!(
            table[..i].iter().all(|f| f.koan != e.koan),
            "#{} twice",
            e.number
        );
    }
    // A win contradicts nothing on the table.
    if let Some(mondo::rules::zendo::Outcome::Solved { guess, .. }) = h.game.outcome() {
        let g = &h.game.guesses()[guess as usize - 1];
        assert!(h.game.table().contradictions(&g.pattern.formula).is_empty());
        assert_eq!(g.status, GuessStatus::Correct);
    }
    // At most one guess in play.
    let in_play = h
        .game
        .guesses()
        .iter()
        .filter(|g| matches!(g.status, GuessStatus::Pending | GuessStatus::Official))
        .count();
    assert!(in_play <= 1);

    // Secrets.
    let over = h.game.is_over();
    let hidden = &h.game.hidden().formula;
    let hidden_ast = json(hidden);
    // Its canonical forms, unless a player's guess (public) already reads the same.
    let canonical: Vec<String> = [mondo::lang::english(hidden), mondo::lang::symbolic(hidden)]
        .into_iter()
        .filter(|c| h.game.guesses().iter().all(|g| g.reading != *c))
        .collect();
    for viewer in [
        Viewer::Player(ALICE),
        Viewer::Player(BOB),
        Viewer::Spectator,
    ] {
        let view = json(&h.game.view(&viewer));
        if over {
            assert!(view.contains(MARK), "revealed at the end");
        } else {
            assert!(!view.contains(MARK), "hidden pattern leaked: {view}");
        }
        assert!(!view.contains(&hidden_ast), "hidden AST leaked: {view}");
        if !over {
            for c in &canonical {
                assert!(
                    !view.contains(&json(c)),
                    "hidden pattern leaked as {c}: {view}"
                );
            }
        }
        for event in h.log.iter().filter_map(|e| h.game.visible(e, &viewer)) {
            let said = json(&event);
            let kind = flat(&event.kind);
            let reveal = matches!(kind, EventKind::MatchEnded { .. });
            assert!(reveal || !said.contains(MARK), "announced: {said}");
            // An answer is heard whole only by the one who gave it.
            if let EventKind::ChallengeAnswered {
                seat,
                answer: Some(_),
            } = kind
            {
                assert_eq!(viewer, Viewer::Player([ALICE, BOB][seat.index()]));
            }
        }
    }
}

/// When a player answers before the other, the other's and the spectators' views do
/// not depend on what the answer was.
fn check_answer_is_private(before: &Duel, h: &Harness<Duel>, request: &(Actor, Req<Duel>)) {
    let (Actor::Player(who), Action::Move(DuelMove::Answer { answer: given })) = request else {
        return;
    };
    let Phase::Turn {
        step: Step::Challenge { .. },
        ..
    } = h.game.phase()
    else {
        return; // revealed: everything is public now
    };
    let other = [Answer::Obeys, Answer::Not, Answer::Pass]
        .into_iter()
        .find(|a| a != given)
        .unwrap();
    let mut alt = before.clone();
    alt.play(&request.0, &Action::Move(answer(other)), h.now)
        .expect("the other answer is accepted too");
    let them = if *who == ALICE { BOB } else { ALICE };
    for viewer in [Viewer::Player(them), Viewer::Spectator] {
        assert_eq!(h.game.view(&viewer), alt.view(&viewer), "the answer leaked");
    }
    assert_ne!(
        h.game.view(&Viewer::Player(*who)),
        alt.view(&Viewer::Player(*who)),
        "the player sees their own answer"
    );
}

/// Tickets held plus tickets paid for guesses in play or judged equal tickets earned.
fn check_tickets(h: &Harness<Duel>) {
    let mut earned = [0u32; 2];
    for e in &h.log {
        match flat(&e.kind) {
            EventKind::Skipped { seat, .. } => earned[seat.other().index()] += 1,
            EventKind::ChallengeRevealed { answers, obeys, .. } => {
                for s in Seat::all(2) {
                    earned[s.index()] += answers[s.index()].is_correct(obeys) as u32;
                }
            }
            _ => {}
        }
    }
    for s in Seat::all(2) {
        let paid = h
            .game
            .guesses()
            .iter()
            .filter(|g| g.by == s)
            .filter(|g| {
                matches!(
                    g.status,
                    GuessStatus::Pending
                        | GuessStatus::Official
                        | GuessStatus::Refuted { .. }
                        | GuessStatus::Correct
                )
            })
            .count() as u32;
        assert_eq!(h.game.tickets(s) + paid, earned[s.index()], "{s:?}");
    }
    // The turn clock runs exactly while the starter is chosen and in steps 1 and 2,
    // unpaused, outside challenges and verdicts.
    let runs = !h.game.is_paused()
        && matches!(
            h.game.phase(),
            Phase::ChoosingStarter
                | Phase::Turn {
                    step: Step::Build | Step::Guess | Step::Pending { .. },
                    ..
                }
        );
    assert_eq!(h.game.clock().is_running(), runs);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn random_duels_replay_keep_their_books_and_their_secrets(
        which in 0u8..3,
        ops in prop::collection::vec(op(), 1..90),
    ) {
        let hidden = hidden(which);
        let pool = guess_pool(&hidden);
        let mut h = Harness::duel(duel_setup(hidden));
        for op in &ops {
            let before = h.game.clone();
            let Some(request) = play(&mut h, op, &pool) else { continue };
            let result = h.act(request.0, request.1.clone());
            check(&h, &before, &request, &result);
            check_tickets(&h);
            if result.is_ok() {
                check_answer_is_private(&before, &h, &request);
            }
        }
    }

    #[test]
    fn random_practice_replays_and_keeps_its_secret(
        which in 0u8..3,
        ops in prop::collection::vec(op(), 1..60),
    ) {
        let hidden = hidden(which);
        let pool = guess_pool(&hidden);
        let mut h = Harness::practice(practice_setup(hidden));
        for op in &ops {
            let before = h.game.clone();
            let Some(request) = play(&mut h, op, &pool) else { continue };
            let result = h.act(request.0, request.1.clone());
            check(&h, &before, &request, &result);
            prop_assert_eq!(
                h.game.step() == PracticeStep::Over,
                h.game.is_over()
            );
        }
    }
}

/// The random matches above are not idle: over a fixed sample they reach every kind
/// of event, every verdict, and refusals of many kinds.
#[test]
fn random_duels_reach_every_kind_of_event() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use std::collections::BTreeSet;
    let mut runner = TestRunner::deterministic();
    let ops = prop::collection::vec(op(), 100..150);
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    let mut refused = BTreeSet::new();
    for case in 0..160u8 {
        let hidden = hidden(case);
        let pool = guess_pool(&hidden);
        let mut h = Harness::duel(duel_setup(hidden));
        for op in ops.new_tree(&mut runner).unwrap().current() {
            let Some((actor, action)) = play(&mut h, &op, &pool) else {
                continue;
            };
            match h.act(actor, action) {
                Ok(events) => events
                    .iter()
                    .map(|e| {
                        let name = json(&e.kind);
                        let name = name.split('"').nth(3).unwrap_or_default().to_string();
                        match flat(&e.kind) {
                            EventKind::MatchEnded { outcome, .. } => format!("{name}:{outcome:?}")
                                .split([' ', '{'])
                                .next()
                                .unwrap_or_default()
                                .to_string(),
                            _ => name,
                        }
                    })
                    .for_each(|k| *seen.entry(k).or_default() += 1),
                Err(e) => {
                    refused.insert(format!("{:?}", e.code()));
                }
            }
        }
    }
    eprintln!("events seen: {seen:?}\nrefused: {refused:?}");
    for kind in [
        "starter_chosen",
        "turn_started",
        "observed",
        "challenge_opened",
        "challenge_answered",
        "challenge_revealed",
        "skipped",
        "guess_read",
        "guess_confirmed",
        "guess_withdrawn",
        "refuted",
        "guess_undecided",
        "turn_ended",
        "paused",
        "resumed",
        "clock_rebased",
        "match_ended:Solved",
        "match_ended:Resigned",
        "match_ended:Ended",
    ] {
        assert!(seen.contains_key(kind), "never saw {kind}: {seen:?}");
    }
    for code in [
        "MatchOver",
        "NotAPlayer",
        "Paused",
        "NotYourTurn",
        "WrongPhase",
        "AlreadyGiven",
        "Expired",
        "BadVerdict",
        "StaleDeadline",
        "TooEarly",
    ] {
        assert!(
            refused.contains(code),
            "never refused with {code}: {refused:?}"
        );
    }
}
