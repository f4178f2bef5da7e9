//! The Pattern Assembly AI on the rules' own matches, in virtual time.

use super::*;
use crate::grid::{Grid, judge};
use crate::rules::assembly::{Assembly, AssemblySetup, Settings};
use crate::rules::{Action, Actor, Finish, Game, PlayerId, Viewer};
use crate::student::arena::{self, Mind};

const ALICE: PlayerId = PlayerId(1);
const BOB: PlayerId = PlayerId(2);

fn start(players: Vec<PlayerId>, settings: Settings, seed: u64) -> Assembly {
    let setup = AssemblySetup {
        players,
        seed,
        settings,
    };
    Assembly::start(setup, 0).unwrap().0
}

/// `game` with every deadline due by `t` played.
fn run_to(game: &mut Assembly, t: Millis) {
    while let Some(d) = game.next_deadline() {
        if crate::rules::Deadline::at(&d) > t {
            break;
        }
        let at = crate::rules::Deadline::at(&d);
        game.play(&Actor::Umpire, &Action::Timeout { deadline: d }, at)
            .unwrap();
    }
}

fn view(game: &Assembly, p: PlayerId) -> AssemblyView {
    game.view(&Viewer::Player(p))
}

/// A virtual-time clock for the arena: every call a microsecond later.
fn ticks() -> impl FnMut() -> u64 {
    let mut t = 0;
    move || {
        t += 1_000;
        t
    }
}

fn duel(
    a: Mind<'static, Assembly>,
    b: Mind<'static, Assembly>,
    settings: Settings,
    seed: u64,
) -> arena::Played<Assembly> {
    let game = start(vec![ALICE, BOB], settings, seed);
    arena::play(game, vec![a, b], 0, 20_000, &mut ticks()).unwrap()
}

fn places(game: &Assembly) -> Vec<(PlayerId, u32)> {
    match game.finish() {
        Some(Finish::Placed { places, .. }) => places,
        other => panic!("not a rated result: {other:?}"),
    }
}

/// The compiler holds it: the AI's only input is the player's view, whose type has no
/// grid outside the reveals, and which the rules fill for one player.
#[test]
fn the_ai_is_given_the_players_view_and_nothing_else() {
    fn only_the_view<A: Ai<View = AssemblyView, Move = AssemblyMove>>(_: &A) {}
    only_the_view(&AssemblyAi::new(Level::Expert, 1));
    let mut game = start(vec![ALICE, BOB], Settings::original(), 5);
    run_to(&mut game, 0);
    assert!(
        view(&game, ALICE).grid.is_some(),
        "the first reveal shows the grid"
    );
    run_to(&mut game, 30_000);
    let v = view(&game, ALICE);
    assert_eq!(v.phase, PhaseView::Round { number: 1 });
    assert_eq!(v.grid, None, "a round's view holds no grid");
    // An AI that never saw a reveal (seated after it) still answers, by chance alone.
    let mut blind = AssemblyAi::new(Level::Expert, 2);
    let plan = blind.next(&v, 30_000).expect("it answers");
    assert_eq!(blind.remembered(), 0);
    let AssemblyMove::Answer { cells, .. } = plan.action else {
        panic!("an answer")
    };
    let t = &game.targets()[0];
    assert_eq!(cells.len(), t.shape.size());
}

#[test]
fn each_level_keeps_its_share_of_a_reveal_and_misremembers_some() {
    let mut game = start(vec![ALICE, BOB], Settings::original(), 9);
    run_to(&mut game, 0);
    let v = view(&game, ALICE);
    let grid = game.grid().clone();
    let mut kept = Vec::new();
    let mut wrong = Vec::new();
    for level in Level::ALL {
        let (mut k, mut w) = (0, 0);
        for seed in 0..200 {
            let mut ai = AssemblyAi::new(level, seed);
            ai.next(&v, 0);
            k += ai.remembered();
            w += Dims::CLASSIC
                .cells()
                .filter(|c| {
                    let m = ai.memory[ai.index(*c)];
                    m.is_some_and(|m| Some(m.symbol) != grid.get(*c))
                })
                .count();
        }
        kept.push(k as f64 / 200.0);
        wrong.push(w as f64 / k as f64);
    }
    // 36 cells: about 8, 14 and 22 kept; about 10 %, 5 % and 2 % of them wrong.
    assert!(kept[0] < kept[1] && kept[1] < kept[2], "{kept:?}");
    assert!((kept[2] - 21.6).abs() < 0.5, "{kept:?}");
    assert!(wrong[0] > wrong[1] && wrong[1] > wrong[2], "{wrong:?}");
    assert!((wrong[0] - 0.10).abs() < 0.03, "{wrong:?}");
}

#[test]
fn answers_are_human_paced_and_the_expert_median_is_at_least_4_s() {
    for level in Level::ALL {
        let ai = AssemblyAi::new(level, 3);
        let mut delays: Vec<Millis> = (0..2_000)
            .map(|answer| ai.delay(ai.median(3), Draw::Answer { round: 1, answer }))
            .collect();
        delays.sort();
        assert!(delays[0] >= MIN_DELAY_MS, "{level:?}: {}", delays[0]);
        let median = delays[delays.len() / 2];
        assert!(
            median >= 4_000,
            "{level:?}: the median for 3 cells is {median} ms"
        );
    }
}

#[test]
fn with_a_perfect_memory_its_answer_is_right_after_its_delay() {
    let mut game = start(vec![ALICE, BOB], Settings::original(), 21);
    run_to(&mut game, 0);
    let mut ai = AssemblyAi::with_skill(Skill::PERFECT, 4);
    assert_eq!(
        ai.next(&view(&game, ALICE), 0),
        None,
        "nothing to answer in a reveal"
    );
    run_to(&mut game, 30_000);
    let plan = ai.next(&view(&game, ALICE), 30_000).unwrap();
    assert!(plan.delay >= MIN_DELAY_MS);
    let AssemblyMove::Answer { cells, .. } = &plan.action else {
        panic!("an answer")
    };
    let t = &game.targets()[0];
    assert_eq!(
        judge(game.grid(), &t.shape, t.contents, cells),
        crate::grid::Verdict::Right
    );
    // Asked again on the same view a second later: the same answer, at the same time.
    let again = ai.next(&view(&game, ALICE), 31_000).unwrap();
    assert_eq!(again.action, plan.action);
    assert_eq!(again.delay, plan.delay - 1_000);
}

#[test]
fn it_waits_out_its_waiting_period_and_never_repeats_a_wrong_answer() {
    let mut game = start(vec![ALICE, BOB], Settings::original(), 8);
    run_to(&mut game, 30_000);
    // It saw no reveal: its answers are guesses, mostly wrong.
    let mut ai = AssemblyAi::new(Level::Beginner, 6);
    let mut now = 30_000;
    let mut given = Vec::new();
    for _ in 0..4 {
        let plan = ai.next(&view(&game, ALICE), now).unwrap();
        now += plan.delay;
        run_to(&mut game, now);
        if !matches!(view(&game, ALICE).phase, PhaseView::Round { number: 1 }) {
            break;
        }
        game.play(
            &Actor::Player(ALICE),
            &Action::Move(plan.action.clone()),
            now,
        )
        .unwrap();
        ai.made(&plan.action, now);
        let AssemblyMove::Answer { cells, .. } = plan.action else {
            panic!()
        };
        assert!(!given.contains(&cells), "{cells} again");
        given.push(cells);
        // While it waits, nothing.
        assert_eq!(ai.next(&view(&game, ALICE), now), None);
        now += 30_000;
        run_to(&mut game, now);
    }
    assert!(given.len() >= 2, "{given:?}");
}

#[test]
fn the_showdown_fills_what_it_is_sure_of_for_the_scoring() {
    let grid = Grid::parse("OXO+XO\nXXO+OO\n+O+XX+\nOOXX+O\nX+O+OX\n+XOOX+").unwrap();
    let rows = grid.rows();
    let region = Region::all(Dims::CLASSIC);
    let mut perfect = AssemblyAi::with_skill(Skill::PERFECT, 1);
    perfect.dims = Some(Dims::CLASSIC);
    perfect.memory = vec![None; 36];
    perfect.look(&rows, 1);
    let all = perfect.showdown(region, false);
    assert_eq!(all.filled(), 36);
    assert_eq!(all.mark(&grid, region), (36, 0));
    // Unsure of every cell (trust 0.6): all-or-nothing fills a couple, +1/-1 all.
    let mut unsure = perfect.clone();
    for m in unsure.memory.iter_mut().flatten() {
        m.trust = 0.6;
    }
    assert_eq!(unsure.showdown(region, false).filled(), 2);
    assert_eq!(unsure.showdown(region, true).filled(), 36);
    // Cells it does not remember stay blank.
    let mut half = perfect.clone();
    for m in half.memory.iter_mut().skip(18) {
        *m = None;
    }
    assert_eq!(half.showdown(region, false).filled(), 18);
}

#[test]
fn a_plus_round_answers_only_targets_still_to_find() {
    let settings = Settings::plus(Dims { rows: 10, cols: 10 });
    let mut game = start(vec![ALICE, BOB], settings, 13);
    run_to(&mut game, 0);
    let mut ai = AssemblyAi::with_skill(Skill::PERFECT, 2);
    ai.next(&view(&game, ALICE), 0);
    run_to(&mut game, 30_000);
    // Bob finds target 0.
    let first = game.targets()[0].example.clone();
    let found = AssemblyMove::Answer {
        cells: first,
        sent: None,
    };
    game.play(&Actor::Player(BOB), &Action::Move(found), 30_000)
        .unwrap();
    run_to(&mut game, 60_000);
    let v = view(&game, ALICE);
    assert!(v.targets[0].found && !v.targets[1].found);
    let plan = ai.next(&v, 60_000).unwrap();
    let AssemblyMove::Answer { cells, .. } = &plan.action else {
        panic!()
    };
    let right = game.targets()[1..]
        .iter()
        .any(|t| judge(game.grid(), &t.shape, t.contents, cells) == crate::grid::Verdict::Right);
    assert!(right, "{cells} answers no target still to find");
}

#[test]
fn ai_against_ai_matches_end_with_a_result_and_the_stronger_wins_more() {
    let mut expert = 0;
    for seed in 0..12 {
        let played = duel(
            Box::new(AssemblyAi::new(Level::Expert, seed)),
            Box::new(AssemblyAi::new(Level::Beginner, seed + 100)),
            Settings::original(),
            seed,
        );
        assert!(played.moves > 20, "{} moves", played.moves);
        if places(&played.game)
            .iter()
            .any(|(p, place)| *p == ALICE && *place == 0)
        {
            expert += 1;
        }
    }
    assert!(expert >= 9, "the expert won {expert} of 12");
}

#[test]
fn a_plus_match_between_ais_ends() {
    let played = duel(
        Box::new(AssemblyAi::new(Level::Player, 1)),
        Box::new(AssemblyAi::new(Level::Player, 2)),
        Settings::plus(Dims { rows: 10, cols: 10 }),
        3,
    );
    assert_eq!(places(&played.game).len(), 2);
    assert!(played.game.results().is_some(), "its showdown was scored");
}

/// An AI that keeps nothing of what it was shown before it was seated (`recall` left
/// as the trait's default), as the Assembly AI once was.
struct Forgetful(AssemblyAi);

impl Ai for Forgetful {
    type View = AssemblyView;
    type Move = AssemblyMove;
    fn next(&mut self, view: &AssemblyView, now: Millis) -> Option<Plan<AssemblyMove>> {
        self.0.next(view, now)
    }
    fn made(&mut self, action: &AssemblyMove, now: Millis) {
        self.0.made(action, now);
    }
}

/// Each seat's AI at its level, seeded by the seat.
fn seats(levels: [Level; 2], seed: u64, recalls: bool) -> Vec<Mind<'static, Assembly>> {
    levels
        .into_iter()
        .zip(seed * 10..)
        .map(|(level, seed)| -> Mind<'static, Assembly> {
            let ai = AssemblyAi::new(level, seed);
            if recalls {
                Box::new(ai)
            } else {
                Box::new(Forgetful(ai))
            }
        })
        .collect()
}

/// A seat taken up again mid-match (a restart, `--resume`), shown every view its
/// player had, remembers each reveal as it did (what it kept, forgot and misremembered)
/// and answers exactly as its twin that never restarted: the same answers, at the same
/// times, the same showdown grids, the same result. One that forgot plays otherwise.
#[test]
fn after_a_restart_it_plays_exactly_as_it_would_have() {
    let plus = Settings::plus(Dims { rows: 10, cols: 10 });
    for (seed, levels, settings) in [
        (4, [Level::Expert, Level::Player], Settings::original()),
        (5, [Level::Beginner, Level::Expert], Settings::original()),
        (6, [Level::Player, Level::Expert], plus),
    ] {
        let game = || start(vec![ALICE, BOB], settings.clone(), seed);
        let once = arena::play(game(), seats(levels, seed, true), 0, 20_000, &mut ticks()).unwrap();
        let n = once.events.len();
        for after in [n / 4, n / 2, 3 * n / 4] {
            let restarted = |recalls: bool| {
                let restart = arena::Restart {
                    after,
                    anew: &mut || seats(levels, seed, recalls),
                };
                let again = arena::play_restarting(
                    game(),
                    seats(levels, seed, true),
                    restart,
                    0,
                    20_000,
                    &mut ticks(),
                );
                again.unwrap().events
            };
            let why = format!("seed {seed}, seats taken up again after {after} of {n} events");
            assert!(restarted(true) == once.events, "{why}");
            assert!(
                restarted(false) != once.events,
                "{why}: forgetting came in play"
            );
        }
    }
}
