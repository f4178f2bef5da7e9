//! Searching the grounded space: satisfiability under assumptions, the simplest model
//! (fewest pieces, then smallest bounding-box area), and a seeded varied model.

use super::encode::{EncodeError, Encoder, G};
use super::solver::{Answer, Backend, Budget};
use super::{Limits, SolverKind};
use crate::koan::{Koan, MAX_CELLS, MAX_SIDE};
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use rustsat::types::Lit;

/// One grounded problem and its solver.
pub(crate) struct Search {
    pub enc: Encoder,
    solver: Box<dyn Backend>,
    pub budget: Budget,
    pub calls: u32,
}

/// Why a search stopped without an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The conflict budget ran out or the caller interrupted.
    Budget,
    Encode(EncodeError),
}

impl Stop {
    /// The finder and the evaluator disagree on a structure: a bug, reported as such
    /// rather than acted on.
    pub fn disagree(koan: &Koan) -> Stop {
        Stop::Encode(EncodeError::Other(format!(
            "internal error: the finder and the evaluator disagree on {koan:?}"
        )))
    }
}

impl From<EncodeError> for Stop {
    fn from(e: EncodeError) -> Stop {
        match e {
            EncodeError::Stopped => Stop::Budget,
            e => Stop::Encode(e),
        }
    }
}

/// A model found by [`Search::simplest`]: minimal when `proved`, otherwise the best
/// found before the budget ran out.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub koan: Koan,
    pub proved: bool,
}

impl Search {
    pub fn new(set: crate::koan::PieceSet, limits: &Limits) -> Search {
        let solver: Box<dyn Backend> = match limits.solver {
            SolverKind::Cadical => Box::new(super::solver::Cadical::new()),
            SolverKind::Batsat => Box::new(super::solver::Batsat::new()),
        };
        Search {
            enc: Encoder::new(set, limits.max_clauses, limits.interrupt.clone())
                .with_symmetry(limits.symmetry),
            solver,
            budget: Budget {
                conflicts_left: limits.conflicts,
                interrupt: limits.interrupt.clone(),
                spent: 0,
            },
            calls: 0,
        }
    }

    /// What the search has cost so far.
    pub fn stats(&self) -> super::Stats {
        super::Stats {
            variables: self.enc.n_vars(),
            clauses: self.enc.n_clauses(),
            solver_calls: self.calls,
            conflicts: self.budget.spent,
        }
    }

    /// Adds pending clauses and solves under the assumptions.
    pub fn solve(&mut self, assumptions: &[Lit]) -> Answer {
        self.enc.flush(self.solver.as_mut());
        self.calls += 1;
        self.solver.solve(assumptions, &mut self.budget)
    }

    /// A literal's value in the last model.
    pub fn value(&self, lit: Lit) -> bool {
        self.solver.value(lit)
    }

    /// The structure of the last model.
    pub fn model(&self) -> Koan {
        self.enc.decode(self.solver.as_ref())
    }

    /// Is there a model under the assumptions? `Ok(None)` when there is none.
    pub fn find(&mut self, assumptions: &[Lit]) -> Result<Option<Koan>, Stop> {
        match self.solve(assumptions) {
            Answer::Sat => Ok(Some(self.model())),
            Answer::Unsat => Ok(None),
            Answer::Unknown => Err(Stop::Budget),
        }
    }

    /// The simplest model under the assumptions, starting from a known model `first`.
    ///
    /// Pieces: while the best model has n > 1 pieces, ask for at most n - 1 (a totalizer
    /// output over the 36 occupancy literals); each answer lowers n, and the final
    /// "no" proves n minimal. Area: with at most that many pieces, while the best model
    /// has area A, ask for a box of some (w, h) with w * h < A. That disjunction holds
    /// exactly when the area is below A (a structure's own box is one of the pairs when
    /// its area is below A; conversely fitting in a w x h box means area <= w * h < A),
    /// so the final "no" proves A minimal among structures with the fewest pieces.
    ///
    /// `fewer` is a number of pieces below which there is known to be no model (every
    /// structure of fewer pieces was tried by enumeration); the bisection starts there.
    pub fn simplest(&mut self, base: &[Lit], first: Koan, fewer: usize) -> Result<Found, Stop> {
        let mut best = first;
        // Fewest pieces, by bisection between a proved lower bound and the best model.
        let pieces = |k: &Koan| k.len();
        let values: Vec<usize> = (fewer.clamp(1, MAX_CELLS)..=MAX_CELLS).collect();
        let proved = self.bisect_over(&mut best, &values, pieces, |enc, n| {
            let at_most = !enc.pieces_at_least(n + 1)?;
            Ok(with(base, &[at_most]))
        })?;
        if !proved {
            return Ok(Found { koan: best, proved });
        }
        let k = best.len();
        let not_more = !self.enc.pieces_at_least(k + 1)?;
        let side = MAX_SIDE as usize;
        // Then the smallest area with that many pieces, over the achievable areas.
        let mut areas: Vec<usize> = (1..=side)
            .flat_map(|w| (1..=side).map(move |h| w * h))
            .filter(|&a| a >= k)
            .collect();
        areas.sort_unstable();
        areas.dedup();
        let area = |k: &Koan| k.area() as usize;
        let proved = self.bisect_over(&mut best, &areas, area, |enc, a| {
            let mut boxes = Vec::new();
            for w in 1..=side {
                for h in 1..=side {
                    if w * h <= a {
                        boxes.push(enc.fits(w, h));
                    }
                }
            }
            let small = enc.or(&boxes);
            Ok(with(base, &[not_more, small]))
        })?;
        Ok(Found { koan: best, proved })
    }

    /// Lowers `measure(best)` to its least possible value among the sorted `values`
    /// (every model's measure is one of them): `at_most(v)` gives assumptions for
    /// "measure <= v" (`None`: impossible). Invariant: every value below `values[lo]`
    /// is proved impossible (by an unsatisfiable "measure <= v") and `best` has
    /// measure `values[hi]`; a satisfiable middle lowers `hi` to the model's own
    /// measure. At `lo == hi`, `best` is proved minimal: `true`; `false` when the
    /// budget stopped the search first.
    fn bisect_over(
        &mut self,
        best: &mut Koan,
        values: &[usize],
        measure: impl Fn(&Koan) -> usize,
        mut at_most: impl FnMut(&mut Encoder, usize) -> Result<Option<Vec<Lit>>, EncodeError>,
    ) -> Result<bool, Stop> {
        let index = |m: usize| {
            values
                .iter()
                .position(|&v| v >= m)
                .unwrap_or(values.len() - 1)
        };
        let (mut lo, mut hi) = (0, index(measure(best)));
        while lo < hi {
            let mid = (lo + hi) / 2;
            let Some(a) = at_most(&mut self.enc, values[mid])? else {
                lo = mid + 1;
                continue;
            };
            match self.solve(&a) {
                Answer::Sat => {
                    *best = self.model();
                    hi = index(measure(best));
                }
                Answer::Unsat => lo = mid + 1,
                Answer::Unknown => return Ok(false),
            }
        }
        Ok(true)
    }

    /// A seeded random model among the small ones (see [`varied_by_sampling`]), by the
    /// solver when sampling finds none. Deterministic for a seed.
    pub fn varied(
        &mut self,
        base: &[Lit],
        simplest: &Koan,
        seed: u64,
        accept: &dyn Fn(&Koan) -> bool,
    ) -> Result<Koan, Stop> {
        match varied_by_sampling(self.enc.set(), simplest, seed, accept) {
            Ok(koan) => Ok(koan),
            Err(draw) => self.varied_by_solver(base, simplest, draw),
        }
    }

    /// The solver's half of [`Self::varied`]: under a random choice of piece count and
    /// box, random cell values fixed one by one while they stay satisfiable.
    pub fn varied_by_solver(
        &mut self,
        base: &[Lit],
        simplest: &Koan,
        draw: VariedDraw,
    ) -> Result<Koan, Stop> {
        let VariedDraw {
            mut rng,
            mut options,
        } = draw;
        let set = self.enc.set();
        let side = MAX_SIDE as usize;
        options.shuffle(&mut rng);
        for (n, w, h) in options {
            let at_least = self.enc.pieces_at_least(n)?;
            let at_most = !self.enc.pieces_at_least(n + 1)?;
            let fits = self.enc.fits(w, h);
            let Some(mut a) = with(base, &[at_least, at_most, fits]) else {
                continue;
            };
            let Some(mut koan) = self.find(&a)? else {
                continue;
            };
            let mut cells: Vec<usize> = (0..MAX_CELLS)
                .filter(|i| i / side < h && i % side < w)
                .collect();
            cells.shuffle(&mut rng);
            for &i in cells.iter().take(FIXINGS) {
                let piece = if rng.random_bool(0.5) {
                    None
                } else {
                    set.pieces().choose(&mut rng).copied()
                };
                let lit = self.enc.cell_value_lit(i, piece);
                a.push(lit);
                match self.find(&a)? {
                    Some(m) => koan = m,
                    None => {
                        a.pop();
                    }
                }
            }
            return Ok(koan);
        }
        Ok(simplest.clone())
    }
}

/// Where [`varied_by_sampling`] left off, for the solver to go on from (so that a seed
/// gives the same structure whichever way it is reached).
pub(crate) struct VariedDraw {
    rng: Xoshiro256PlusPlus,
    /// (pieces, width, height) of the small region.
    options: Vec<(usize, usize, usize)>,
}

/// A seeded random structure among the small ones, by rejection sampling alone: at
/// most `k + 1` pieces (k = the simplest model's count) in a box of area at most
/// `max(2 * A, 4)` (A = its area), a uniform box and uniform cells and pieces in it,
/// kept when `accept` says it is a model. No solver: when models are too rare for
/// that, the draw so far, for [`Search::varied_by_solver`].
pub(crate) fn varied_by_sampling(
    set: crate::koan::PieceSet,
    simplest: &Koan,
    seed: u64,
    accept: &dyn Fn(&Koan) -> bool,
) -> Result<Koan, VariedDraw> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let k = simplest.len();
    let max_pieces = (k + 1).min(MAX_CELLS);
    let max_area = (2 * simplest.area() as usize).max(4);
    let side = MAX_SIDE as usize;
    // (pieces, w, h) options in the small region.
    let mut options = Vec::new();
    for n in k..=max_pieces {
        for w in 1..=side {
            for h in 1..=side {
                if w * h >= n && w * h <= max_area {
                    options.push((n, w, h));
                }
            }
        }
    }
    for _ in 0..SAMPLES {
        let &(n, w, h) = options
            .choose(&mut rng)
            .expect("the simplest model's own shape is an option");
        let koan = super::sample::in_box(set, n, w, h, &mut rng);
        if accept(&koan) {
            return Ok(koan);
        }
    }
    Err(VariedDraw { rng, options })
}

/// The same cells with the plainest pieces that keep `accept` true: cell by cell in
/// reading order, the first piece of the set (small before large, up, right, down,
/// left) that still does. The pieces and the box are unchanged, so a minimal structure
/// stays minimal; the umpire just shows `1^ 1^ 1^` rather than `1< 3^ 2v`.
pub(crate) fn tidy(koan: &Koan, accept: &dyn Fn(&Koan) -> bool) -> Koan {
    let set = koan.set();
    let mut window = *koan.window();
    for i in 0..MAX_CELLS {
        let Some(current) = window[i] else { continue };
        for &p in set.pieces().iter().take_while(|p| **p != current) {
            window[i] = Some(p);
            if Koan::from_window(set, &window).is_ok_and(|k| accept(&k)) {
                break;
            }
            window[i] = Some(current);
        }
    }
    Koan::from_window(set, &window).unwrap_or_else(|_| koan.clone())
}

/// A model with fewer pieces, found without the solver: pieces are taken away one at a
/// time (the last first) while what is left still passes `accept`. The solver's first
/// model often has many more pieces than needed; starting its minimisation from this
/// one spares it most of the bisection's calls.
pub(crate) fn shrink(koan: &Koan, accept: &dyn Fn(&Koan) -> bool) -> Koan {
    let set = koan.set();
    let mut window = *koan.window();
    let mut progress = true;
    while progress {
        progress = false;
        for i in (0..MAX_CELLS).rev() {
            let Some(piece) = window[i] else { continue };
            window[i] = None;
            if Koan::from_window(set, &window).is_ok_and(|k| accept(&k)) {
                progress = true;
            } else {
                window[i] = Some(piece);
            }
        }
    }
    Koan::from_window(set, &window).unwrap_or_else(|_| koan.clone())
}

/// Rejection-sampling draws before the varied search falls back to the solver.
const SAMPLES: usize = 3000;
/// Random cell values the varied search tries to fix.
const FIXINGS: usize = 6;

/// `base` plus the grounded values as assumptions; `None` when one of them is the
/// constant false.
pub(crate) fn with(base: &[Lit], extra: &[G]) -> Option<Vec<Lit>> {
    let mut a = base.to_vec();
    extra.iter().all(|&g| push(&mut a, g)).then_some(a)
}

/// Appends an assumption; `false` when it is the constant false (nothing can satisfy
/// it), and nothing to add for the constant true.
pub(crate) fn push(assumptions: &mut Vec<Lit>, g: G) -> bool {
    match g {
        G::Const(b) => b,
        G::Lit(l) => {
            assumptions.push(l);
            true
        }
    }
}
