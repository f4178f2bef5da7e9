//! The student playing solo practice through the real rules: it builds structures and
//! guesses as a player does (moves checked by [`Practice`]), sees only the player's
//! view, and the umpire's finder proves its guesses or answers them with a
//! counterexample. What `mondo ai solve` and `mondo bench ai` run.

use super::{Budget, Decision, Level, Space, Student};
use crate::koan::Koan;
use crate::lang;
use crate::rules::zendo::practice::{Action, Practice, PracticeEvent};
use crate::rules::zendo::{Outcome, PracticeMove, PracticeSetup, ZendoEvent, ZendoMove};
use crate::rules::{Actor, Game, Viewer};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The knobs of [`solo`].
#[derive(Clone, Copy, Debug)]
pub struct SoloOptions {
    /// The most structures the student builds.
    pub koans: usize,
    /// The most guesses it makes official.
    pub guesses: usize,
    pub level: Level,
    pub seed: u64,
    /// The student's thinking time per move, in milliseconds of the caller's clock.
    pub move_ms: u64,
}

impl SoloOptions {
    pub fn new(koans: usize, level: Level, seed: u64) -> SoloOptions {
        SoloOptions {
            koans,
            guesses: 12,
            level,
            seed,
            move_ms: 1500,
        }
    }
}

/// One thing that happened, as `mondo ai solve` prints it.
#[derive(Clone, Debug, PartialEq)]
pub enum SoloStep {
    /// The structures the match opened with.
    Opening { koan: Koan, obeys: bool },
    /// A structure the student built, with the umpire's verdict and why it chose it.
    Koan {
        number: usize,
        koan: Koan,
        obeys: bool,
        /// The share of its surviving weight that said it would obey.
        expected: f64,
        /// Groups of rules it split (those that say obeys, those that say not).
        split: (usize, usize),
        from_finder: bool,
        ms: u64,
    },
    /// A guess and the umpire's answer: right, or a counterexample (None when the
    /// umpire could not decide or refused to read it).
    Guess {
        number: usize,
        text: String,
        belief: f64,
        right: bool,
        counterexample: Option<(Koan, bool)>,
        refused: Option<String>,
        ms: u64,
    },
}

/// How a solo game ended.
#[derive(Clone, Debug)]
pub struct SoloResult {
    pub solved: bool,
    /// Structures built and guesses made official (the practice score).
    pub koans: usize,
    pub guesses: usize,
    /// The student's thinking time of each move, in the caller's milliseconds.
    pub move_ms: Vec<u64>,
    /// Structures it built on which every rule it still believed agreed (they could
    /// not change its belief, whatever the verdict).
    pub useless: usize,
    /// The student as it ended (its belief, for predictions).
    pub student: Student,
}

/// Plays `setup` (a practice match) with a student over `space`; `now` says the time
/// in milliseconds; `report` hears every step.
pub fn solo(
    space: Arc<Space>,
    setup: PracticeSetup,
    options: SoloOptions,
    now: &mut dyn FnMut() -> u64,
    report: &mut dyn FnMut(&SoloStep),
) -> Result<SoloResult, String> {
    let player = setup.player;
    let me = Actor::Player(player);
    let (mut game, _) = Practice::start(setup, now()).map_err(|e| e.to_string())?;
    let mut student = Student::new(space, options.level, options.seed);
    let view = game.view(&Viewer::Player(player));
    for entry in &view.table {
        report(&SoloStep::Opening {
            koan: entry.koan.clone(),
            obeys: entry.obeys,
        });
    }
    let (mut koans, mut guesses, mut move_ms) = (0usize, 0usize, Vec::new());
    let mut solved = false;
    let mut refusals = 0;
    let mut final_from: Option<usize> = None;
    let mut useless = 0;
    while !game.is_over() && refusals < 20 {
        student.observe_table(&game.view(&Viewer::Player(player)).table);
        let last_chance = koans >= options.koans;
        // Past the structures, at most three last guesses (each wrong one still
        // teaches); never more official guesses than allowed.
        let spent = *final_from.get_or_insert(if last_chance { guesses } else { usize::MAX });
        if !last_chance {
            final_from = None;
        }
        student.set_guessing(guesses < options.guesses);
        if last_chance && (guesses >= options.guesses || guesses >= spent + 3) {
            break;
        }
        let start = now();
        let decision = student.decide(Budget::ms(start, options.move_ms), &mut *now, last_chance);
        let ms = now().saturating_sub(start);
        move_ms.push(ms);
        match decision {
            Decision::Build(e) => {
                if last_chance {
                    break;
                }
                let (yes, no) = student.splits(&e.koan);
                useless += usize::from(yes == 0 || no == 0);
                let events = game
                    .play(
                        &me,
                        &Action::Move(PracticeMove::Build {
                            koan: e.koan.clone(),
                        }),
                        now(),
                    )
                    .map_err(|err| format!("the rules refused a structure: {err}"))?;
                koans += 1;
                let obeys = events.iter().find_map(|ev| match zendo(ev) {
                    Some(ZendoEvent::Observed { obeys, .. }) => Some(*obeys),
                    _ => None,
                });
                report(&SoloStep::Koan {
                    number: koans,
                    koan: e.koan,
                    obeys: obeys.unwrap_or(false),
                    expected: e.obey_share,
                    split: (e.obey_groups, e.fail_groups),
                    from_finder: e.from_finder,
                    ms,
                });
            }
            Decision::Guess { text, belief } => {
                student.guessed(&text);
                let set = student.set();
                let Ok(pattern) = lang::read_for(&text, set) else {
                    refusals += 1;
                    continue;
                };
                let read = game.play(&me, &Action::Move(PracticeMove::Guess { pattern }), now());
                if let Err(err) = read {
                    refusals += 1;
                    report(&SoloStep::Guess {
                        number: guesses,
                        text,
                        belief,
                        right: false,
                        counterexample: None,
                        refused: Some(err.to_string()),
                        ms,
                    });
                    continue;
                }
                let mut events = game
                    .play(
                        &me,
                        &Action::Move(PracticeMove::Zendo(ZendoMove::Confirm)),
                        now(),
                    )
                    .map_err(|err| format!("the rules refused a confirmation: {err}"))?;
                guesses += 1;
                if let Some((_, job)) = game.work() {
                    let answer = Practice::perform(job, Arc::new(AtomicBool::new(false)));
                    events = game
                        .play(&Actor::Umpire, &Action::Move(answer), now())
                        .map_err(|err| format!("the rules refused the umpire: {err}"))?;
                }
                let mut step = SoloStep::Guess {
                    number: guesses,
                    text,
                    belief,
                    right: false,
                    counterexample: None,
                    refused: None,
                    ms,
                };
                for ev in &events {
                    match zendo(ev) {
                        Some(ZendoEvent::Refuted { counterexample, .. }) => {
                            if let SoloStep::Guess {
                                counterexample: c, ..
                            } = &mut step
                            {
                                *c = Some((counterexample.koan.clone(), counterexample.hidden));
                            }
                        }
                        Some(ZendoEvent::MatchEnded {
                            outcome: Outcome::Solved { .. },
                            ..
                        }) => {
                            solved = true;
                            if let SoloStep::Guess { text, .. } = &step {
                                student.proved(text);
                            }
                            if let SoloStep::Guess { right, .. } = &mut step {
                                *right = true;
                            }
                        }
                        _ => {}
                    }
                }
                report(&step);
            }
        }
    }
    student.observe_table(&game.view(&Viewer::Player(player)).table);
    Ok(SoloResult {
        solved,
        koans,
        guesses,
        move_ms,
        useless,
        student,
    })
}

fn zendo(event: &crate::rules::Event<PracticeEvent>) -> Option<&ZendoEvent> {
    match event.game()? {
        PracticeEvent::Zendo(e) => Some(e),
        _ => None,
    }
}
