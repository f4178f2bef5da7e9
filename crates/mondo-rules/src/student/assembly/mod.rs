//! The Pattern Assembly AI (docs/ai.md, "Pattern Assembly"): a racer with a person's
//! memory, not an oracle.
//!
//! It is an [`Ai`] over [`AssemblyView`] alone: it sees the grid only while a reveal
//! shows it, and then keeps only some of its cells (its level says how many), a few of
//! them wrong, and forgets some of what it knew at each new reveal. In a round it
//! answers with the game's own search ([`Shape::placements`], judged by contents) on
//! what it remembers: the placement of an unfound target most likely to have the
//! contents asked, given its memory (a remembered cell is right with the confidence it
//! has in it; a forgotten one is any symbol). It answers only when its waiting period
//! is over (its own pending answer is gone), never the same wrong group twice in a
//! round, and after a seeded, human-paced delay. A wrong answer it was sure of tells it
//! that a cell it remembers there is wrong: it trusts those cells less. At the
//! showdown it fills the cells it is surest of: as many as maximise its expected
//! points under the scoring (all right or nothing in the original; +1/-1 a cell in
//! Plus).
//!
//! What it does is a function of the views it was shown and when: it learns only from
//! views (its own answer pending, then gone), and each random choice (the cells kept
//! from a reveal, a tie between answers, a delay) draws from a generator seeded by its
//! seat's seed and what the choice is made on (the reveal, the round and how many
//! answers it gave in it), never by how often it was asked. So a seat taken up again
//! after a restart, shown every view its player had ([`Ai::recall`]), remembers each
//! reveal as it did, forgetting and misremembering alike, and answers as it would have.

use super::{Ai, Level, Millis, Plan, mix};
use crate::grid::{Cell, Contents, Dims, Group, Reconstruction, Region, Symbol};
use crate::rules::assembly::{AssemblyMove, AssemblyView, PhaseView};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::collections::HashSet;

/// How a level plays: its memory and its pace.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// The share of the grid's cells it keeps from each reveal.
    pub keep: f64,
    /// The chance that a cell it keeps is kept wrong (another symbol).
    pub misremember: f64,
    /// The chance that a cell it knew is forgotten at the next reveal.
    pub forget: f64,
    /// Median milliseconds to its first answer of a round, for a 4-cell shape (larger
    /// shapes take longer, smaller ones less).
    pub median_ms: Millis,
    /// The spread of its delays (the log-normal's sigma).
    pub spread: f64,
}

/// No answer comes sooner than this after the AI saw what it answers (a person's
/// quickest look-and-click).
pub const MIN_DELAY_MS: Millis = 1_500;

impl Skill {
    /// The level's skill (weakest first).
    pub const fn of(level: Level) -> Skill {
        match level {
            Level::Beginner => Skill {
                keep: 0.22,
                misremember: 0.10,
                forget: 0.35,
                median_ms: 9_000,
                spread: 0.35,
            },
            Level::Player => Skill {
                keep: 0.38,
                misremember: 0.05,
                forget: 0.2,
                median_ms: 6_500,
                spread: 0.3,
            },
            Level::Expert => Skill {
                keep: 0.6,
                misremember: 0.02,
                forget: 0.08,
                median_ms: 5_000,
                spread: 0.25,
            },
        }
    }

    /// The reference player of the benchmark: the expert's pace with a perfect memory
    /// (every cell of every reveal, never wrong, never forgotten).
    pub const PERFECT: Skill = Skill {
        keep: 1.0,
        misremember: 0.0,
        forget: 0.0,
        ..Skill::of(Level::Expert)
    };
}

/// What it remembers of one cell.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Recall {
    symbol: Symbol,
    /// How sure it is that the symbol is right (0.34 to 1).
    trust: f64,
}

/// What a random choice is drawn for (with the seat's seed, its generator's seed).
#[derive(Clone, Copy, Debug)]
enum Draw {
    /// The cells kept from the reveal before round `next`.
    Look { next: u8 },
    /// A tie between answers in `round`, with `found` (the targets found, as bits) and
    /// `tried` (its wrong answers) as they are.
    Tie { round: u8, found: u64, tried: usize },
    /// The delay of its answer number `answer` (from 0) in `round`.
    Answer { round: u8, answer: u32 },
    /// The delay of its showdown grid.
    Showdown,
}

impl Draw {
    fn key(self) -> [u64; 4] {
        match self {
            Draw::Look { next } => [1, u64::from(next), 0, 0],
            Draw::Tie {
                round,
                found,
                tried,
            } => [2, u64::from(round), found, tried as u64],
            Draw::Answer { round, answer } => [3, u64::from(round), u64::from(answer), 0],
            Draw::Showdown => [4, 0, 0, 0],
        }
    }
}

/// Its plan for the current round or showdown.
#[derive(Clone, Debug, PartialEq)]
struct Schedule {
    /// The stage it is for: the round's number, or 0 for the showdown.
    stage: u8,
    /// When it answers next (game clock).
    at: Millis,
}

/// An answer it made, until its verdict.
#[derive(Clone, Debug, PartialEq)]
struct Sent {
    round: u8,
    group: Group,
    /// How likely right it thought it.
    sure: f64,
    /// Its score when it answered (a right answer raises it).
    score: i32,
}

/// The Pattern Assembly AI of one seat.
#[derive(Clone, Debug)]
pub struct AssemblyAi {
    skill: Skill,
    /// The seat's seed: each choice draws from a generator seeded by it and the
    /// choice's [`Draw`].
    seed: u64,
    dims: Option<Dims>,
    /// Row-major, one per cell of the grid.
    memory: Vec<Option<Recall>>,
    /// Whether it has looked at the reveal under way.
    looked: bool,
    schedule: Option<Schedule>,
    /// Its answer waiting for a verdict.
    sent: Option<Sent>,
    /// The answer it last planned, as it will be [`Sent`].
    planned: Option<Sent>,
    /// Its wrong answers of the current round (by round number).
    tried: (u8, HashSet<Group>),
    /// How many answers it gave in a round (by round number).
    answers: (u8, u32),
}

impl AssemblyAi {
    pub fn new(level: Level, seed: u64) -> AssemblyAi {
        AssemblyAi::with_skill(Skill::of(level), seed)
    }

    pub fn with_skill(skill: Skill, seed: u64) -> AssemblyAi {
        AssemblyAi {
            skill,
            seed,
            dims: None,
            memory: Vec::new(),
            looked: false,
            schedule: None,
            sent: None,
            planned: None,
            tried: (0, HashSet::new()),
            answers: (0, 0),
        }
    }

    /// The generator of one choice.
    fn rng(&self, draw: Draw) -> Xoshiro256PlusPlus {
        Xoshiro256PlusPlus::seed_from_u64(draw.key().into_iter().fold(self.seed, mix))
    }

    /// How many cells it remembers now.
    pub fn remembered(&self) -> usize {
        self.memory.iter().filter(|m| m.is_some()).count()
    }

    fn index(&self, cell: Cell) -> usize {
        let cols = self.dims.map_or(1, |d| d.cols as usize);
        cell.row as usize * cols + cell.col as usize
    }

    /// A look at a reveal: some of what it knew is forgotten (unless the grid looks
    /// changed: then all of it), then it keeps its share of the cells, each possibly
    /// wrong; a cell seen again the same is trusted more.
    fn look(&mut self, rows: &[String], next: u8) {
        let grid: Vec<Symbol> = rows
            .iter()
            .flat_map(|r| r.chars().filter_map(Symbol::from_char))
            .collect();
        if grid.len() != self.memory.len() {
            return;
        }
        let known: Vec<usize> = (0..grid.len())
            .filter(|&i| self.memory[i].is_some())
            .collect();
        let differ = known
            .iter()
            .filter(|&&i| self.memory[i].is_some_and(|m| m.symbol != grid[i]))
            .count();
        // A grid that changed (Plus) is learnt afresh.
        let changed = known.len() >= 4 && differ * 2 > known.len();
        let mut rng = self.rng(Draw::Look { next });
        for i in 0..grid.len() {
            if changed || rng.random::<f64>() < self.skill.forget {
                self.memory[i] = None;
            }
        }
        let mut order: Vec<usize> = (0..grid.len()).collect();
        for i in (1..order.len()).rev() {
            let j = rng.random_range(0..=i);
            order.swap(i, j);
        }
        let keep = ((self.skill.keep * grid.len() as f64).round() as usize).min(grid.len());
        let base = 1.0 - self.skill.misremember;
        for &i in order.iter().take(keep) {
            let wrong = rng.random::<f64>() < self.skill.misremember;
            let symbol = if wrong {
                let other = Symbol::ALL
                    .into_iter()
                    .filter(|s| *s != grid[i])
                    .collect::<Vec<_>>();
                other[rng.random_range(0..other.len())]
            } else {
                grid[i]
            };
            self.memory[i] = Some(match self.memory[i] {
                Some(m) if m.symbol == symbol => Recall {
                    symbol,
                    trust: 1.0 - (1.0 - m.trust) * (1.0 - base),
                },
                _ => Recall {
                    symbol,
                    trust: base,
                },
            });
        }
    }

    /// The chance that `group` holds `want`, by its memory.
    fn chance(&self, group: &Group, want: Contents) -> f64 {
        // Distribution over (circles, crosses) so far; pluses follow from the size.
        let n = group.len();
        let mut dist = vec![vec![0.0f64; n + 1]; n + 1];
        dist[0][0] = 1.0;
        for (k, &cell) in group.cells().iter().enumerate() {
            let p = match self.memory.get(self.index(cell)).copied().flatten() {
                Some(m) => {
                    let other = (1.0 - m.trust) / 2.0;
                    Symbol::ALL.map(|s| if s == m.symbol { m.trust } else { other })
                }
                None => [1.0 / 3.0; 3],
            };
            let mut next = vec![vec![0.0f64; n + 1]; n + 1];
            for o in 0..=k {
                for x in 0..=(k - o) {
                    let q = dist[o][x];
                    if q == 0.0 {
                        continue;
                    }
                    next[o + 1][x] += q * p[0];
                    next[o][x + 1] += q * p[1];
                    next[o][x] += q * p[2];
                }
            }
            dist = next;
        }
        let (o, x) = (want.circles as usize, want.crosses as usize);
        if want.size() != n || o > n || x > n {
            return 0.0;
        }
        dist[o][x]
    }

    /// Its best answer now: the untried placement of an unfound target most likely
    /// right (ties broken at random), with that chance.
    fn best(&self, view: &AssemblyView, round: u8) -> Option<(Group, f64)> {
        let dims = view.dims;
        let mut best: Vec<(Group, f64)> = Vec::new();
        let mut top = 0.0;
        for t in view.targets.iter().filter(|t| !t.found) {
            for g in t.ask.shape.placements(dims) {
                if self.tried.0 == round && self.tried.1.contains(&g) {
                    continue;
                }
                let p = self.chance(&g, t.ask.contents);
                if p > top + 1e-12 {
                    top = p;
                    best.clear();
                }
                if (p - top).abs() <= 1e-12 {
                    best.push((g, p));
                }
            }
        }
        if best.is_empty() {
            return None;
        }
        let found = view
            .targets
            .iter()
            .enumerate()
            .filter(|(_, t)| t.found)
            .fold(0u64, |bits, (i, _)| bits | 1 << (i % 64));
        let tried = if self.tried.0 == round {
            self.tried.1.len()
        } else {
            0
        };
        let draw = Draw::Tie {
            round,
            found,
            tried,
        };
        let i = self.rng(draw).random_range(0..best.len());
        Some(best.swap_remove(i))
    }

    /// A seeded delay around `median` ms (log-normal), never under [`MIN_DELAY_MS`].
    fn delay(&self, median: f64, draw: Draw) -> Millis {
        // Box-Muller: a standard normal from two uniforms.
        let mut rng = self.rng(draw);
        let u1: f64 = rng.random::<f64>().max(1e-12);
        let u2: f64 = rng.random();
        let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        let ms = median * (self.skill.spread * z).exp();
        (ms as Millis).max(MIN_DELAY_MS)
    }

    /// The median delay before answering a target of `size` cells.
    fn median(&self, size: usize) -> f64 {
        self.skill.median_ms as f64 * (size as f64 + 2.0) / 6.0
    }

    /// An answer of its own was taken in `round` (its move made, or its view shows it
    /// pending): the answer it planned, if that is the one; the next answer gets a
    /// delay of its own.
    fn sent(&mut self, round: u8, group: &Group, score: i32) {
        if self.sent.as_ref().is_some_and(|s| s.group == *group) {
            return;
        }
        self.sent = Some(match self.planned.take() {
            Some(p) if p.group == *group => p,
            _ => Sent {
                round,
                group: group.clone(),
                sure: 0.0,
                score,
            },
        });
        if self.answers.0 != round {
            self.answers = (round, 0);
        }
        self.answers.1 += 1;
        self.schedule = None;
    }

    /// What it learns from a view at `now` after answering: once its answer is no
    /// longer pending, while the round it was given in runs on (before its end, a
    /// target still to find) with its score unchanged, it was wrong: never given again
    /// this round, and if it was sure of it, a cell it remembers there is wrong (it
    /// trusts them all less). An answer gone with the round (voided by the opponent's
    /// win, or judged at its end) teaches it nothing, however its views came.
    fn learn(&mut self, view: &AssemblyView, now: Millis) {
        let Some(sent) = self.sent.clone() else {
            return;
        };
        if view.your_answer.as_ref() == Some(&sent.group) {
            return;
        }
        self.sent = None;
        let score = view.you.and_then(|s| view.scores.get(s).copied());
        let same_round = view.phase == (PhaseView::Round { number: sent.round });
        let runs =
            view.ends_at.is_some_and(|end| now < end) && view.targets.iter().any(|t| !t.found);
        if !same_round || !runs || score != Some(sent.score) {
            return;
        }
        if self.tried.0 != sent.round {
            self.tried = (sent.round, HashSet::new());
        }
        self.tried.1.insert(sent.group.clone());
        if sent.sure >= 0.5 {
            for &cell in sent.group.cells() {
                let i = self.index(cell);
                if let Some(m) = &mut self.memory[i] {
                    m.trust = (m.trust * 0.6).max(0.34);
                }
            }
        }
    }

    /// The showdown grid: the region's cells it is surest of, as many as maximise the
    /// expected points.
    fn showdown(&self, region: Region, plus: bool) -> Reconstruction {
        let cells: Vec<Cell> = region.cells().collect();
        let mut ranked: Vec<(usize, f64)> = cells
            .iter()
            .enumerate()
            .filter_map(|(k, c)| {
                let m = self.memory.get(self.index(*c)).copied().flatten()?;
                Some((k, m.trust))
            })
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        let take = if plus {
            // +1 a right cell, -1 a wrong one: every cell more likely right than not.
            ranked.iter().filter(|(_, t)| *t > 0.5).count()
        } else {
            // All right or nothing: n cells score n with the chance all are right.
            let (mut best, mut best_n, mut all_right) = (0.0, 0, 1.0);
            for (n, (_, t)) in ranked.iter().enumerate() {
                all_right *= t;
                let expect = (n + 1) as f64 * all_right;
                if expect > best {
                    best = expect;
                    best_n = n + 1;
                }
            }
            best_n
        };
        let mut out = vec![None; cells.len()];
        for &(k, _) in ranked.iter().take(take) {
            out[k] = self
                .memory
                .get(self.index(cells[k]))
                .copied()
                .flatten()
                .map(|m| m.symbol);
        }
        Reconstruction {
            dims: region.dims(),
            cells: out,
        }
    }
}

impl Ai for AssemblyAi {
    type View = AssemblyView;
    type Move = AssemblyMove;

    fn next(&mut self, view: &AssemblyView, now: Millis) -> Option<Plan<AssemblyMove>> {
        let you = view.you?;
        if self.dims != Some(view.dims) {
            self.dims = Some(view.dims);
            self.memory = vec![None; view.dims.area()];
        }
        match (&view.grid, &view.phase) {
            (Some(rows), PhaseView::Reveal { next_round }) => {
                if !self.looked {
                    self.looked = true;
                    self.look(rows, *next_round);
                }
            }
            _ => self.looked = false,
        }
        // Its answer judged, then one it gave since (a view read back shows each).
        self.learn(view, now);
        let score = view.scores.get(you).copied().unwrap_or(0);
        if let (Some(group), PhaseView::Round { number }) = (&view.your_answer, &view.phase) {
            self.sent(*number, group, score);
        }
        if view.paused {
            return None;
        }
        let ends = view.ends_at.unwrap_or(Millis::MAX);
        match &view.phase {
            PhaseView::Round { number } => {
                if view.your_answer.is_some() {
                    return None;
                }
                let (group, sure) = self.best(view, *number)?;
                let at = match &self.schedule {
                    Some(s) if s.stage == *number => s.at,
                    _ => {
                        // Each answer takes a fresh look (after a wrong one too).
                        let median = self.median(group.len());
                        let answer = if self.answers.0 == *number {
                            self.answers.1
                        } else {
                            0
                        };
                        let draw = Draw::Answer {
                            round: *number,
                            answer,
                        };
                        let at = now + self.delay(median, draw);
                        self.schedule = Some(Schedule { stage: *number, at });
                        at
                    }
                };
                // Too late for the round: it lets the round go.
                if at >= ends {
                    return None;
                }
                self.planned = Some(Sent {
                    round: *number,
                    group: group.clone(),
                    sure,
                    score,
                });
                Some(Plan::at(
                    AssemblyMove::Answer {
                        cells: group,
                        sent: None,
                    },
                    at,
                    now,
                ))
            }
            PhaseView::Showdown { region } => {
                if view.showdown_in.contains(&you) {
                    return None;
                }
                let at = match &self.schedule {
                    Some(s) if s.stage == 0 => s.at,
                    _ => {
                        // Writing the grid down takes a while: a few seconds a row,
                        // well within the showdown's time.
                        let median = 1_500.0 * region.dims().rows as f64;
                        let mut at = now + self.delay(median, Draw::Showdown);
                        if ends != Millis::MAX {
                            at = at.min(now + ends.saturating_sub(now) / 2);
                        }
                        self.schedule = Some(Schedule { stage: 0, at });
                        at
                    }
                };
                Some(Plan::at(
                    AssemblyMove::Showdown {
                        grid: self.showdown(*region, view.plus),
                    },
                    at,
                    now,
                ))
            }
            _ => None,
        }
    }

    fn made(&mut self, action: &AssemblyMove, _now: Millis) {
        match action {
            // Told here too, for an answer judged at once (a wrong shape under the
            // first rule), which no view shows pending.
            AssemblyMove::Answer { cells, .. } => {
                if let Some(p) = &self.planned {
                    let (round, score) = (p.round, p.score);
                    self.sent(round, cells, score);
                }
            }
            // Nothing more to do after the showdown.
            _ => self.schedule = None,
        }
    }

    /// A view its player had before it was seated, taken in as [`Ai::next`] takes a
    /// view in (the plan it would have made then is kept, not made): shown every view
    /// since the match began, it remembers what it remembered and plans as it planned.
    fn recall(&mut self, view: &AssemblyView, at: Millis) {
        let _ = self.next(view, at);
    }
}

#[cfg(test)]
mod tests;
