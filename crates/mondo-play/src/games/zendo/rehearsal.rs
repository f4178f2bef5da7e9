//! Zendo played at random by tests ([`Rehearse`]): each mode's test match and the
//! lines its players type (koans, guesses from the shipped pools that name no hidden
//! pattern, answers, the turn's words, the mode's own).

use super::{Source, classic, duel, practice, triple};
use crate::Cast;
use crate::koan::PieceSet;
use crate::pool::Pool;
use crate::rehearsal::{Moment, RandomPlayer, Rehearse};
use crate::rules::Secret;
use crate::rules::zendo::classic::ClassicTiming;
use crate::rules::zendo::triple::{PhaseView as TriplePhase, StepView, TripleTiming};
use crate::rules::zendo::{PhaseView, Settings, Timing};
use crate::runtime::{AnySetup, AnyView};
use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

/// Which mode a random player plays (their words differ).
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Duel,
    Practice,
    Triple,
    Classic,
}

/// A Zendo match's random player.
struct Player {
    mode: Mode,
    /// Pool patterns to guess with, none of whose printings names a hidden pattern (a
    /// guess echoed is its player's own words, not a leak).
    guesses: Vec<String>,
}

fn player(mode: Mode, first: &Moment<'_>) -> Box<dyn RandomPlayer> {
    let set = if mode == Mode::Triple {
        PieceSet::Arrows
    } else {
        PieceSet::Pyramids
    };
    Box::new(Player {
        mode,
        guesses: safe_guesses(set, first.secrets),
    })
}

fn safe_guesses(set: PieceSet, secrets: &[Secret]) -> Vec<String> {
    let hidden: Vec<String> = secrets
        .iter()
        .filter_map(|s| match s {
            Secret::Pattern(p) => Some(crate::rules::secret::pattern_forms(p)),
            _ => None,
        })
        .flatten()
        .map(|f| f.to_lowercase())
        .collect();
    Pool::shipped(set)
        .entries()
        .iter()
        .map(|e| e.pattern.source.clone())
        .filter(|source| {
            let Ok(guess) = crate::lang::parse(source) else {
                return false;
            };
            let forms = crate::rules::secret::pattern_forms(&guess);
            !forms.iter().any(|g| {
                let g = g.to_lowercase();
                hidden
                    .iter()
                    .any(|h| g.contains(h.as_str()) || h.contains(g.as_str()))
            })
        })
        .collect()
}

impl RandomPlayer for Player {
    fn line(&mut self, now: &Moment<'_>, rng: &mut Xoshiro256PlusPlus, who: &str) -> String {
        match self.mode {
            Mode::Triple => self.triple(now, rng, who),
            _ => self.zendo(now, rng, who),
        }
    }

    fn jump_chance(&self, spectator: &AnyView) -> f64 {
        match spectator {
            AnyView::ZendoDuel(v) if v.phase == PhaseView::ChoosingStarter => 0.0,
            _ => 0.08,
        }
    }
}

impl Player {
    fn koan(rng: &mut Xoshiro256PlusPlus, arrows: bool) -> String {
        let n = rng.random_range(1..=4);
        let dirs = ["^", ">", "v", "<"];
        let cells: Vec<String> = (0..n)
            .map(|_| {
                let d = dirs[rng.random_range(0..4)];
                if arrows {
                    ["U", "R", "D", "L"][rng.random_range(0..4)].to_string()
                } else {
                    format!("{}{d}", rng.random_range(1..=3))
                }
            })
            .collect();
        if rng.random_bool(0.3) && n > 1 {
            let (a, b) = cells.split_at(n / 2);
            format!("{} / {}", a.join(" "), b.join(" "))
        } else {
            cells.join(" ")
        }
    }

    fn guess(&self, rng: &mut Xoshiro256PlusPlus) -> String {
        if self.guesses.is_empty() {
            return "some piece points up and some piece points down and some piece points left"
                .into();
        }
        self.guesses[rng.random_range(0..self.guesses.len())].clone()
    }

    fn zendo(&mut self, now: &Moment<'_>, rng: &mut Xoshiro256PlusPlus, who: &str) -> String {
        let classic = self.mode == Mode::Classic;
        let duel = self.mode == Mode::Duel;
        if let AnyView::ZendoDuel(v) = now.spectator
            && v.phase == PhaseView::ChoosingStarter
            && rng.random_bool(0.8)
        {
            let starter = now.name(rng);
            return format!("start {starter}");
        }
        let r = rng.random_range(0..100);
        let answer = ["obeys", "not", "pass"][rng.random_range(0..3)];
        match r {
            0..=29 => {
                let koan = Self::koan(rng, false);
                let mode = match (classic, duel, rng.random_range(0..3)) {
                    (true, _, 0) => " master",
                    (true, _, _) => " mondo",
                    (_, true, 0) => " challenge",
                    (_, true, 1) => " observe",
                    _ => "",
                };
                format!("{who}koan {koan}{mode}")
            }
            30..=49 if !now.cast.is_table() => format!("guess {}", self.guess(rng)),
            30..=49 => format!("{who}answer {answer}"),
            50..=64 => format!("{who}guess {}", self.guess(rng)),
            65..=74 => format!("{who}confirm"),
            75..=79 => format!("{who}take back"),
            80..=87 => format!("{who}end turn"),
            88..=93 if duel => {
                let starter = now.name(rng);
                format!("{who}start {starter}")
            }
            88..=93 => format!("{who}pass"),
            94..=96 if duel => format!("{who}skip"),
            94..=96 if classic => format!("{who}back"),
            _ => format!("{who}pass"),
        }
    }

    fn triple(&mut self, now: &Moment<'_>, rng: &mut Xoshiro256PlusPlus, who: &str) -> String {
        let letters = ["A", "B", "C"];
        let answer =
            |rng: &mut Xoshiro256PlusPlus| ["obeys", "not", "pass"][rng.random_range(0..3)];
        // Answers as the view asks for them: per challenged pattern, or per question.
        if let AnyView::ZendoTriple(v) = now.spectator {
            match &v.phase {
                TriplePhase::ChoosingStarter { .. } if rng.random_bool(0.8) => {
                    let starter = now.name(rng);
                    return format!("{who}start {starter}");
                }
                TriplePhase::Turn {
                    step: StepView::Challenge { patterns, .. },
                    ..
                } if rng.random_bool(0.7) => {
                    let each: Vec<String> = patterns
                        .iter()
                        .map(|l| format!("{l} {}", answer(rng)))
                        .collect();
                    return format!("{who}answer {}", each.join(" "));
                }
                TriplePhase::Quiz { questions, .. } => {
                    let each: Vec<&str> = questions.iter().map(|_| answer(rng)).collect();
                    return format!("{who}answer {}", each.join(" "));
                }
                _ => {}
            }
        }
        match rng.random_range(0..100) {
            0..=34 => {
                let koan = Self::koan(rng, true);
                let mode = ["", " grade", " challenge"][rng.random_range(0..3)];
                let named = if rng.random_bool(0.5) {
                    format!(" {}", letters[rng.random_range(0..3)])
                } else {
                    String::new()
                };
                format!("{who}koan {koan}{mode}{named}")
            }
            35..=54 => {
                let l = letters[rng.random_range(0..3)];
                format!("{who}guess {l} {}", self.guess(rng))
            }
            55..=69 => format!("{who}confirm"),
            70..=74 => format!("{who}take back"),
            _ => format!("{who}end turn"),
        }
    }
}

impl Rehearse for duel::Front {
    const PLAYERS: usize = 2;

    fn setup(seed: u64, cast: &Cast) -> Result<AnySetup, String> {
        let pyramids = Pool::shipped(PieceSet::Pyramids);
        duel::duel_setup(
            cast,
            Source::Pool(&pyramids),
            seed,
            None,
            Settings::default(),
            Timing::default(),
        )
        .map(Into::into)
    }

    fn player(first: &Moment<'_>) -> Box<dyn RandomPlayer> {
        player(Mode::Duel, first)
    }
}

impl Rehearse for practice::Front {
    const PLAYERS: usize = 1;

    fn setup(seed: u64, _cast: &Cast) -> Result<AnySetup, String> {
        let pyramids = Pool::shipped(PieceSet::Pyramids);
        practice::practice_setup(Source::Pool(&pyramids), seed, Settings::default()).map(Into::into)
    }

    fn player(first: &Moment<'_>) -> Box<dyn RandomPlayer> {
        player(Mode::Practice, first)
    }
}

impl Rehearse for triple::Front {
    const PLAYERS: usize = 2;

    fn setup(seed: u64, cast: &Cast) -> Result<AnySetup, String> {
        let timing = TripleTiming {
            game_ms: 20 * 60_000,
            ..TripleTiming::default()
        };
        triple::triple_setup(
            cast,
            &[],
            &Pool::shipped(PieceSet::Arrows),
            seed,
            None,
            timing,
        )
        .map(Into::into)
    }

    fn player(first: &Moment<'_>) -> Box<dyn RandomPlayer> {
        player(Mode::Triple, first)
    }
}

impl Rehearse for classic::Front {
    const PLAYERS: usize = 3;

    fn setup(seed: u64, cast: &Cast) -> Result<AnySetup, String> {
        let pyramids = Pool::shipped(PieceSet::Pyramids);
        classic::classic_setup(
            cast,
            Source::Pool(&pyramids),
            seed,
            Settings::default(),
            ClassicTiming::default(),
            None,
        )
        .map(Into::into)
    }

    fn player(first: &Moment<'_>) -> Box<dyn RandomPlayer> {
        player(Mode::Classic, first)
    }
}
