//! A Triple starts from its setup once every rule of the setup holds (the arrows set,
//! two different players, who starts or who chooses it, three patterns that differ,
//! opening #1 obeying all three). Rule book (`mod.rs`): **Setup**.

use super::letter::Letter;
use super::setup::TripleSetup;
use super::state::{Phase, Step, Triple, TripleOrigin};
use crate::koan::PieceSet;
use crate::rules::zendo::Core;
use crate::rules::{BySeat, Clock, Game, Millis, PlayerId, Seat, Seating, SetupError};

impl Triple {
    /// A Triple from its setup, once every rule of the setup holds.
    pub(super) fn set_up(setup: &TripleSetup, now: Millis) -> Result<Triple, SetupError> {
        let set = setup.settings.set;
        if set != PieceSet::Arrows {
            return Err(SetupError::Invalid(format!(
                "Zendo Triple plays with the arrows set, not the {set} set"
            )));
        }
        let [a, b] = setup.players;
        if a == b {
            return Err(SetupError::SamePlayer);
        }
        let seat_of = |p: PlayerId| match p {
            p if p == a => Some(Seat::FIRST),
            p if p == b => Some(Seat::SECOND),
            _ => None,
        };
        let phase = match (setup.starter, setup.advantage) {
            (Some(p), None) => Phase::Turn {
                seat: seat_of(p).ok_or_else(|| {
                    SetupError::Invalid("the starting player must be one of the two players".into())
                })?,
                step: Step::Build,
            },
            (None, Some(p)) => Phase::ChoosingStarter {
                advantage: seat_of(p).ok_or(SetupError::AdvantageNotPlaying)?,
            },
            _ => {
                return Err(SetupError::Invalid(
                    "name either who starts or who chooses it (the advantage), not both".into(),
                ));
            }
        };
        let turn = u32::from(matches!(phase, Phase::Turn { .. }));
        let t = setup.timing;
        if t.turn_ms == 0 || t.challenge_ms == 0 || t.game_ms == 0 || t.quiz_ms == 0 {
            return Err(SetupError::BadSettings(
                "the turn, the challenge, the game and the quiz need some time (more than 0 ms)",
            ));
        }
        let o = &setup.opening;
        for (koan, which) in [(&o.all, "#1"), (&o.fewest, "#2")]
            .into_iter()
            .chain(o.separators.iter().map(|k| (k, "separating")))
        {
            if koan.set() != set {
                return Err(SetupError::Invalid(format!(
                    "the {which} structure is not of the arrows set"
                )));
            }
        }
        if o.all == o.fewest {
            return Err(SetupError::Invalid(
                "the two opening structures are the same".into(),
            ));
        }
        let mut cores = Vec::new();
        for (i, hidden) in setup.hidden.iter().enumerate() {
            let l = Letter::ALL[i];
            crate::lang::check_set(hidden, set).map_err(|e| {
                SetupError::Invalid(format!("pattern {l} does not fit the arrows set: {e}"))
            })?;
            if !crate::lang::evaluate(&hidden.formula, &o.all) {
                return Err(SetupError::Invalid(format!(
                    "opening structure #1 must obey all three patterns; it does not obey {l}"
                )));
            }
            cores.push(Core {
                hidden: hidden.clone(),
                settings: setup.settings,
                seed: crate::rules::zendo::finder_seed(setup.seed, 1000 + i as u32),
                table: Default::default(),
                guesses: Vec::new(),
                outcome: None,
            });
        }
        for ((x, y), k) in [(0, 1), (0, 2), (1, 2)].into_iter().zip(&o.separators) {
            let (hx, hy) = (&setup.hidden[x].formula, &setup.hidden[y].formula);
            if crate::lang::evaluate(hx, k) == crate::lang::evaluate(hy, k) {
                return Err(SetupError::Invalid(format!(
                    "patterns {} and {} must differ: their separating structure {} does not \
                     tell them apart",
                    Letter::ALL[x],
                    Letter::ALL[y],
                    k.to_line()
                )));
            }
        }
        let cores: [Core; 3] = cores
            .try_into()
            .map_err(|_| SetupError::Invalid("three patterns are needed".into()))?;
        let mut triple = Triple {
            seating: Seating::new(now, setup.players, setup.seed),
            cores,
            table: Vec::new(),
            timing: t,
            phase,
            turn,
            stones: BySeat::new(2, 0),
            clock: Clock::stopped(t.turn_ms),
            game_clock: Clock::stopped(t.game_ms),
            solved: [None; 3],
            quiz_won: [None; 3],
            quiz_answered: [false; 2],
            idle_turns: 0,
            missed: [0; 2],
            outcome: None,
        };
        let every = Letter::ALL;
        let all = triple.marks_of(&o.all, &every);
        let fewest = triple.marks_of(&o.fewest, &every);
        triple.push(o.all.clone(), all, TripleOrigin::Opening);
        triple.push(o.fewest.clone(), fewest, TripleOrigin::Opening);
        triple.sync_clocks(now);
        Ok(triple)
    }
}
