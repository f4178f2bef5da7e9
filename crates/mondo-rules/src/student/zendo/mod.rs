//! The AI student: a Zendo player that reasons exactly over a large space of rules.
//!
//! As players read it in docs/ai.md. The student holds every rule of its
//! [`Space`] (a grammar of the English form, grouped by meaning, weighted by a prior
//! that prefers short rules) and keeps those that agree with every structure on the
//! table: the table filters them exactly, with no noise. From what survives it
//!
//! - builds the structure that splits the surviving weight best (the greatest
//!   expected information gain over candidates: one-step mutations of the table's
//!   structures and fresh random ones),
//! - answers a structure (a challenge, a prediction) by the surviving weight that
//!   says it obeys,
//! - guesses when one group of equal meaning holds enough of the weight; before
//!   betting it asks the finder whether the group's members really say the same, and
//!   builds the finder's counterexample instead when they do not.
//!
//! The module is pure: no clock (the caller passes a [`Budget`] and a function that
//! says the time, in its own milliseconds), no I/O, every draw from a seeded
//! generator. It sees only what a player sees: structures with their verdicts.

pub mod classic;
pub mod compound;
pub mod duel;
pub mod solo;
pub mod space;
pub mod triple;
pub mod why;

pub use space::{Breadth, Hypothesis, Space};

use crate::finder::{self, Limits, Style, Verdict};
use crate::koan::{Koan, Piece, PieceSet};
use crate::lang::eval::Facts;
use crate::rules::zendo::TableEntry;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

pub use super::Level;

/// What a level means to the Zendo student.
impl Level {
    /// The hypothesis space this level reasons over.
    pub const fn breadth(self) -> Breadth {
        match self {
            Level::Beginner => Breadth::Narrow,
            _ => Breadth::Full,
        }
    }

    /// The chance of a random answer to a challenge, and of a random experiment
    /// among the good ones.
    pub const fn noise(self) -> f64 {
        match self {
            Level::Beginner => 0.2,
            Level::Player => 0.05,
            Level::Expert => 0.0,
        }
    }

    /// The share of the surviving weight one group needs before the student guesses.
    pub const fn guess_threshold(self) -> f64 {
        match self {
            Level::Beginner => 0.8,
            Level::Player => 0.6,
            Level::Expert => 0.5,
        }
    }

    /// Candidate structures weighed per experiment.
    pub const fn candidates(self) -> usize {
        match self {
            Level::Beginner => 24,
            Level::Player => 64,
            Level::Expert => 96,
        }
    }
}

/// How sure the student must be of a structure's verdict to challenge with it: the
/// share of the surviving weight on the side it answers.
pub const SURE: f64 = 0.9;
/// Sure enough to challenge with a structure that still teaches it something, when
/// none is [`SURE`].
pub const FAIRLY_SURE: f64 = 0.75;

/// Structures in a row that fit no rule it believes before the student stops
/// building ([`Student::stuck`]).
pub const STUCK_AFTER: usize = 20;

/// What one move may cost: evaluations of a rule on a structure (the step counter,
/// the same on every machine), and a deadline on the caller's clock.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub evaluations: u64,
    /// In the milliseconds of the `now` function passed with it.
    pub deadline: u64,
}

impl Budget {
    /// `ms` milliseconds from `now`, and evaluations enough for any move of the
    /// spaces built here.
    pub fn ms(now: u64, ms: u64) -> Budget {
        Budget {
            evaluations: 4_000_000,
            deadline: now.saturating_add(ms),
        }
    }
}

/// What the student decides to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// Build this structure.
    Build(Experiment),
    /// Guess this rule (canonical English), believed with this share of the weight.
    Guess { text: String, belief: f64 },
}

/// A structure to build and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Experiment {
    pub koan: Koan,
    /// Groups of rules that say it obeys, and that say it does not (of those weighed).
    pub obey_groups: usize,
    pub fail_groups: usize,
    /// The share of the surviving weight that says it obeys.
    pub obey_share: f64,
    /// Expected information gain, in bits.
    pub bits: f64,
    /// Found by the finder to tell apart two rules of the leading group.
    pub from_finder: bool,
}

/// A belief about one structure.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Prediction {
    pub obeys: bool,
    /// The share of the surviving weight that says it obeys.
    pub share: f64,
}

/// What the student believes now (for fronts and benchmarks).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Rules consistent with every structure seen (or with the fewest misses when
    /// none is: `misses` is then above zero).
    pub rules: usize,
    pub groups: usize,
    pub misses: u32,
    /// The leading group's rule and its share of the surviving weight.
    pub leader: Option<String>,
    pub leader_share: f64,
}

/// One student in one match.
#[derive(Clone, Debug)]
pub struct Student {
    space: Arc<Space>,
    level: Level,
    rng: Xoshiro256PlusPlus,
    /// For every hypothesis, how many seen structures it gets wrong.
    misses: Vec<u32>,
    /// The fewest misses of any hypothesis.
    best: u32,
    /// Structures seen, to refuse building one again.
    seen: HashSet<Koan>,
    table: Vec<(Koan, bool)>,
    /// Rules guessed already (never guessed twice).
    guessed: HashSet<String>,
    /// Groups the finder proved say the same (no need to ask again).
    settled: HashSet<u32>,
    /// Off: the student only builds (to measure what it learns from structures).
    guessing: bool,
    /// Each space rule's verdicts on the table (see [`compound::Verdicts`]).
    verdicts: compound::Verdicts,
    /// Rules beyond the grammar, two of the space's joined, believed while no rule of
    /// the space agrees with the table (hypothesis `space.len() + k`; see
    /// [`compound`]).
    joined: Vec<Hypothesis>,
    /// Structures seen in a row with no rule it believes fitting them all.
    unfit: usize,
}

impl Student {
    pub fn new(space: Arc<Space>, level: Level, seed: u64) -> Student {
        let n = space.len();
        Student {
            space,
            level,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            misses: vec![0; n],
            best: 0,
            seen: HashSet::new(),
            table: Vec::new(),
            guessed: HashSet::new(),
            settled: HashSet::new(),
            guessing: true,
            verdicts: Vec::new(),
            joined: Vec::new(),
            unfit: 0,
        }
    }

    /// Hypothesis `i`: the space's, then the joined ones.
    fn hypothesis(&self, i: usize) -> &Hypothesis {
        let n = self.space.len();
        if i < n {
            &self.space.hypotheses[i]
        } else {
            &self.joined[i - n]
        }
    }

    /// Hypotheses believed by how many structures they get wrong.
    fn hypotheses(&self) -> impl Iterator<Item = &Hypothesis> {
        self.space.hypotheses.iter().chain(self.joined.iter())
    }

    /// Whether [`Student::decide`] may guess.
    pub fn set_guessing(&mut self, on: bool) {
        self.guessing = on;
    }

    pub fn level(&self) -> Level {
        self.level
    }

    pub fn set(&self) -> PieceSet {
        self.space.set
    }

    /// Structures seen so far.
    pub fn seen(&self) -> usize {
        self.table.len()
    }

    /// Sees one structure with its verdict: every rule that says otherwise is out
    /// (counted as a miss, so that a hidden rule outside the space still leaves the
    /// nearest ones standing).
    pub fn observe(&mut self, koan: &Koan, obeys: bool) {
        if !self.seen.insert(koan.clone()) {
            return;
        }
        self.table.push((koan.clone(), obeys));
        let at = self.table.len() - 1;
        if at.is_multiple_of(64) {
            self.verdicts.push(vec![0; self.space.len()]);
        }
        let facts = Facts::new(koan);
        let n = self.space.len();
        for (i, m) in self.misses.iter_mut().enumerate() {
            let h = if i < n {
                &self.space.hypotheses[i]
            } else {
                &self.joined[i - n]
            };
            let says = h.compiled.evaluate_facts(&facts);
            if i < n && says {
                self.verdicts[at / 64][i] |= 1 << (at % 64);
            }
            if says != obeys {
                *m += 1;
            }
        }
        self.best = self.misses.iter().copied().min().unwrap_or(0);
        if self.best > 0 {
            self.join();
        }
        self.unfit = if self.best > 0 { self.unfit + 1 } else { 0 };
    }

    /// Whether it is lost: [`STUCK_AFTER`] structures in a row fitted no rule it
    /// believes, not even two of its rules joined. It then builds no more (in a
    /// Triple, once lost on every unsolved pattern; docs/ai.md): its turns run out,
    /// and the game's own limits end the match.
    pub fn stuck(&self) -> bool {
        self.unfit >= STUCK_AFTER
    }

    /// No rule believed agrees with the table: believes instead the rules of two of
    /// the space's joined by `and` or `or` that do, if there are some (else the rules
    /// with the fewest misses stand in).
    fn join(&mut self) {
        let n = self.space.len();
        let joined = compound::join(&self.space, &self.verdicts, &self.table);
        self.misses.truncate(n);
        self.misses.extend(std::iter::repeat_n(0, joined.len()));
        self.joined = joined;
        self.best = self.misses.iter().copied().min().unwrap_or(0);
    }

    /// A structure on the table whose verdict this student was not told (a Triple's
    /// structure marked on other patterns only): never built again, and not counted.
    pub fn exclude(&mut self, koan: &Koan) {
        if !self.seen.contains(koan) {
            self.seen.insert(koan.clone());
        }
    }

    /// Whether the structure is on the table (seen or excluded).
    pub fn has_seen(&self, koan: &Koan) -> bool {
        self.seen.contains(koan)
    }

    /// Sees what is new on a table, as a player's view shows it.
    pub fn observe_table(&mut self, table: &[TableEntry]) {
        for entry in table {
            self.observe(&entry.koan, entry.obeys);
        }
    }

    /// The umpire proved the rule `text` (of the space) right: only its group stands.
    pub fn proved(&mut self, text: &str) {
        let Some(group) = self.hypotheses().find(|h| h.text == text).map(|h| h.group) else {
            return;
        };
        let groups: Vec<u32> = self.hypotheses().map(|h| h.group).collect();
        for (g, m) in groups.into_iter().zip(self.misses.iter_mut()) {
            if g != group {
                *m = (*m).max(self.best + 1);
            }
        }
    }

    /// A rule the student guessed (so it is not guessed again, whatever the verdict).
    pub fn guessed(&mut self, text: &str) {
        self.guessed.insert(text.to_string());
    }

    fn alive(&self) -> impl Iterator<Item = (usize, &Hypothesis)> {
        let best = self.best;
        self.hypotheses()
            .enumerate()
            .filter(move |(i, _)| self.misses[*i] == best)
    }

    /// The surviving groups, heaviest first: (group, weight, members).
    fn groups(&self) -> Vec<(u32, f64, Vec<usize>)> {
        let mut by: HashMap<u32, (f64, Vec<usize>)> = HashMap::new();
        for (i, h) in self.alive() {
            let e = by.entry(h.group).or_default();
            e.0 += h.weight;
            e.1.push(i);
        }
        let mut out: Vec<(u32, f64, Vec<usize>)> =
            by.into_iter().map(|(g, (w, m))| (g, w, m)).collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        out
    }

    /// What the student believes now.
    pub fn summary(&self) -> Summary {
        let groups = self.groups();
        let total: f64 = groups.iter().map(|g| g.1).sum();
        let leader = groups.first();
        Summary {
            rules: groups.iter().map(|g| g.2.len()).sum(),
            groups: groups.len(),
            misses: self.best,
            leader: leader.map(|g| self.hypothesis(g.2[0]).text.clone()),
            leader_share: leader.map_or(0.0, |g| g.1 / total.max(f64::MIN_POSITIVE)),
        }
    }

    /// The `n` heaviest surviving groups, each as its first rule (the one
    /// [`Student::summary`] names) with its share of the surviving weight.
    pub fn leading(&self, n: usize) -> Vec<(String, f64)> {
        let groups = self.groups();
        let total: f64 = groups.iter().map(|g| g.1).sum();
        groups
            .iter()
            .take(n)
            .map(|g| {
                let share = g.1 / total.max(f64::MIN_POSITIVE);
                (self.hypothesis(g.2[0]).text.clone(), share)
            })
            .collect()
    }

    /// How many surviving rules say the structure obeys, and how many say not (a
    /// structure with either 0 tells the student nothing, whatever its verdict).
    pub fn splits(&self, koan: &Koan) -> (usize, usize) {
        let facts = Facts::new(koan);
        let yes = self
            .alive()
            .filter(|(_, h)| h.compiled.evaluate_facts(&facts))
            .count();
        (yes, self.alive().count() - yes)
    }

    /// Does the structure obey, by the surviving weight?
    pub fn predict(&self, koan: &Koan) -> Prediction {
        let facts = Facts::new(koan);
        let (mut yes, mut all) = (0.0, 0.0);
        for (_, h) in self.alive() {
            all += h.weight;
            if h.compiled.evaluate_facts(&facts) {
                yes += h.weight;
            }
        }
        let share = if all > 0.0 { yes / all } else { 0.5 };
        Prediction {
            obeys: share >= 0.5,
            share,
        }
    }

    /// The student's answer to a challenge on `koan`: the prediction, flipped now and
    /// then by the level's noise. `None` when the answer is a bad bet (the surviving
    /// weight is split closer than `pass_below` to even), for games that allow a pass.
    pub fn answer(&mut self, koan: &Koan, pass_below: f64) -> Option<bool> {
        let p = self.predict(koan);
        if (p.share - 0.5).abs() < pass_below {
            return None;
        }
        let noisy = self.rng.random_bool(self.level.noise());
        Some(p.obeys != noisy)
    }

    /// The next move: a guess when one group holds the level's share of the weight
    /// (or when `last_chance`: no structure may be built any more), else the best
    /// experiment found within the budget. `now` says the caller's time.
    pub fn decide(
        &mut self,
        budget: Budget,
        now: &mut dyn FnMut() -> u64,
        last_chance: bool,
    ) -> Decision {
        let groups = self.groups();
        let total: f64 = groups.iter().map(|g| g.1).sum();
        // The leading group, or on a last chance the heaviest not guessed yet.
        let lead = groups
            .iter()
            .find(|g| !last_chance || !self.guessed.contains(&self.hypothesis(g.2[0]).text));
        if let Some((group, weight, members)) = lead {
            let share = weight / total.max(f64::MIN_POSITIVE);
            let text = self.hypothesis(members[0]).text.clone();
            // A rule the table contradicts is guessed only on a last chance: the
            // best it has (the fewest misses) rather than none.
            let can_guess =
                self.guessing && (self.best == 0 || last_chance) && !self.guessed.contains(&text);
            if can_guess && (share >= self.level.guess_threshold() || last_chance) {
                if !last_chance {
                    if let Some(experiment) = self.tell_apart(*group, members, budget, now) {
                        return Decision::Build(experiment);
                    }
                }
                return Decision::Guess {
                    text,
                    belief: share,
                };
            }
        }
        Decision::Build(self.experiment(&groups, budget, now))
    }

    /// The structure that splits the surviving weight best, found within the budget
    /// (for games where building and guessing are separate steps).
    pub fn best_experiment(&mut self, budget: Budget, now: &mut dyn FnMut() -> u64) -> Experiment {
        let groups = self.groups();
        self.experiment(&groups, budget, now)
    }

    /// A structure to challenge with, for a ticket: among the candidates, one whose
    /// verdict it is sure of (at least [`SURE`] of the surviving weight on one side,
    /// or failing that [`FAIRLY_SURE`]) that still divides what it believes (the
    /// surest such one, so that the verdict teaches it too); else the one it is
    /// surest of.
    pub fn surest(&mut self) -> (Koan, Prediction) {
        let mut surest: Option<(Koan, Prediction)> = None;
        // The surest that divides, at least fairly sure: (certainty, structure).
        let mut sure: Option<(f64, Koan, Prediction)> = None;
        for koan in self.candidates() {
            let p = self.predict(&koan);
            let certainty = (p.share - 0.5).abs();
            if (FAIRLY_SURE - 0.5..0.5).contains(&certainty) {
                // Sure enough counts as surest: among those, the most informative.
                let rank = if certainty >= SURE - 0.5 {
                    1.0 + entropy(p.share)
                } else {
                    certainty
                };
                let better = sure
                    .as_ref()
                    .is_none_or(|(r, k, _)| rank > *r || (rank == *r && koan.len() < k.len()));
                if better {
                    sure = Some((rank, koan.clone(), p));
                }
            }
            let better = match &surest {
                None => true,
                Some((k, q)) => {
                    let b = (q.share - 0.5).abs();
                    certainty > b || (certainty == b && koan.len() < k.len())
                }
            };
            if better {
                surest = Some((koan, p));
            }
        }
        if let Some((_, koan, p)) = sure {
            return (koan, p);
        }
        surest.unwrap_or_else(|| {
            let k = crate::lang::random::koan(&mut self.rng, self.space.set, 4);
            let p = self.predict(&k);
            (k, p)
        })
    }

    /// Asks the finder whether the members of the leading group really say the same;
    /// a structure that tells two apart is the best experiment there is.
    fn tell_apart(
        &mut self,
        group: u32,
        members: &[usize],
        budget: Budget,
        now: &mut dyn FnMut() -> u64,
    ) -> Option<Experiment> {
        if members.len() < 2 || self.settled.contains(&group) {
            return None;
        }
        for &other in &members[1..] {
            if now() >= budget.deadline {
                // Out of time: ask again next move.
                return None;
            }
            if let Some(e) = self.separate(members[0], other) {
                return Some(e);
            }
        }
        self.settled.insert(group);
        None
    }

    /// A structure not on the table on which hypotheses `a` and `b` differ, found by
    /// the finder (within a small limit), as an experiment.
    fn separate(&self, a: usize, b: usize) -> Option<Experiment> {
        let read = |i: usize| crate::lang::read_for(&self.hypothesis(i).text, self.space.set).ok();
        let (a, b) = (read(a)?, read(b)?);
        let table: Vec<Koan> = self.table.iter().map(|(k, _)| k.clone()).collect();
        let limits = Limits {
            conflicts: Some(5_000),
            max_clauses: 100_000,
            ..Limits::default()
        };
        let verdict = finder::compare(
            &a.formula,
            &b.formula,
            self.space.set,
            &table,
            Style::Simple,
            0,
            &limits,
        );
        let Verdict::Counterexample(c) = verdict else {
            return None;
        };
        if self.seen.contains(&c.koan) {
            return None;
        }
        let p = self.predict(&c.koan);
        Some(Experiment {
            koan: c.koan,
            obey_groups: 1,
            fail_groups: 1,
            obey_share: p.share,
            bits: entropy(p.share),
            from_finder: true,
        })
    }

    /// The candidate that splits the surviving weight best.
    fn experiment(
        &mut self,
        groups: &[(u32, f64, Vec<usize>)],
        budget: Budget,
        now: &mut dyn FnMut() -> u64,
    ) -> Experiment {
        // Weigh against the heaviest groups, one member each.
        const WEIGHED: usize = 3000;
        let weighed = &groups[..groups.len().min(WEIGHED)];
        let total: f64 = weighed
            .iter()
            .map(|g| g.1)
            .sum::<f64>()
            .max(f64::MIN_POSITIVE);
        let candidates = self.candidates();
        let mut scored: Vec<Experiment> = Vec::new();
        let mut spent = 0u64;
        for koan in candidates {
            if !scored.is_empty()
                && (spent + weighed.len() as u64 > budget.evaluations || now() >= budget.deadline)
            {
                break;
            }
            let facts = Facts::new(&koan);
            let (mut yes, mut obey_groups) = (0.0, 0);
            for (_, w, members) in weighed {
                if self.hypothesis(members[0]).compiled.evaluate_facts(&facts) {
                    yes += w;
                    obey_groups += 1;
                }
            }
            spent += weighed.len() as u64;
            let share = yes / total;
            scored.push(Experiment {
                bits: entropy(share),
                obey_share: share,
                obey_groups,
                fail_groups: weighed.len() - obey_groups,
                koan,
                from_finder: false,
            });
        }
        // Most bits first; fewer pieces break ties (easier to read).
        scored.sort_by(|a, b| {
            b.bits
                .total_cmp(&a.bits)
                .then(a.koan.len().cmp(&b.koan.len()))
        });
        if scored.first().is_none_or(|e| e.bits <= 0.0) {
            // No candidate divides what it believes: the finder builds one that
            // tells the leading rule from another surviving one.
            if let Some(e) = self.divide(groups, budget, now) {
                return e;
            }
        }
        // A noisy level picks among the best few that divide at all.
        let dividing = scored.iter().take(5).filter(|e| e.bits > 0.0).count();
        let pick = if dividing > 1 && self.rng.random_bool(self.level.noise()) {
            self.rng.random_range(0..dividing)
        } else {
            0
        };
        scored.swap_remove(pick)
    }

    /// A structure on which the leading group's rule and another surviving rule (the
    /// next groups', then the leading group's other members) differ, by the finder,
    /// while the budget lasts.
    fn divide(
        &self,
        groups: &[(u32, f64, Vec<usize>)],
        budget: Budget,
        now: &mut dyn FnMut() -> u64,
    ) -> Option<Experiment> {
        let (_, _, lead) = groups.first()?;
        let others = groups[1..]
            .iter()
            .map(|g| g.2[0])
            .chain(lead[1..].iter().copied())
            .take(8);
        for other in others {
            if now() >= budget.deadline {
                return None;
            }
            if let Some(e) = self.separate(lead[0], other) {
                return Some(e);
            }
        }
        None
    }

    /// Candidate structures not seen yet: one-step changes of the table's structures
    /// (a piece added, taken away, turned, resized or moved) and fresh random ones.
    fn candidates(&mut self) -> Vec<Koan> {
        let set = self.space.set;
        let mut mutations: Vec<Koan> = Vec::new();
        for (koan, _) in &self.table {
            mutations.extend(mutate(koan, set));
        }
        let want = self.level.candidates();
        let mut out: Vec<Koan> = Vec::new();
        let mut taken: HashSet<Koan> = HashSet::new();
        let mut tries = 0;
        while out.len() < want * 3 / 4 && !mutations.is_empty() && tries < want * 8 {
            tries += 1;
            let k = mutations.swap_remove(self.rng.random_range(0..mutations.len()));
            if !self.seen.contains(&k) && taken.insert(k.clone()) {
                out.push(k);
            }
        }
        let mut tries = 0;
        while out.len() < want && tries < want * 8 {
            tries += 1;
            let k = crate::lang::random::koan(&mut self.rng, set, 6);
            if !self.seen.contains(&k) && taken.insert(k.clone()) {
                out.push(k);
            }
        }
        out
    }
}

/// Binary entropy in bits.
fn entropy(p: f64) -> f64 {
    if p <= 0.0 || p >= 1.0 {
        return 0.0;
    }
    -(p * p.log2() + (1.0 - p) * (1.0 - p).log2())
}

/// Every structure one step from `koan`.
pub fn mutate(koan: &Koan, set: PieceSet) -> Vec<Koan> {
    let placed: Vec<(i32, i32, Piece)> = koan
        .pieces()
        .iter()
        .map(|(p, piece)| (p.row as i32, p.col as i32, *piece))
        .collect();
    let mut out = Vec::new();
    let mut push = |v: Vec<(i32, i32, Piece)>| {
        if let Ok(k) = Koan::new(set, v) {
            out.push(k);
        }
    };
    let occupied: HashSet<(i32, i32)> = placed.iter().map(|p| (p.0, p.1)).collect();
    for i in 0..placed.len() {
        if placed.len() > 1 {
            let mut v = placed.clone();
            v.remove(i);
            push(v);
        }
        for &piece in set.pieces() {
            if piece != placed[i].2 {
                let mut v = placed.clone();
                v[i].2 = piece;
                push(v);
            }
        }
        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let to = (placed[i].0 + dr, placed[i].1 + dc);
            if !occupied.contains(&to) {
                let mut v = placed.clone();
                v[i].0 = to.0;
                v[i].1 = to.1;
                push(v);
            }
        }
    }
    let mut empty: Vec<(i32, i32)> = Vec::new();
    for &(r, c, _) in &placed {
        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let to = (r + dr, c + dc);
            if !occupied.contains(&to) && !empty.contains(&to) {
                empty.push(to);
            }
        }
    }
    for to in empty {
        for &piece in set.pieces() {
            let mut v = placed.clone();
            v.push((to.0, to.1, piece));
            push(v);
        }
    }
    out
}

#[cfg(test)]
mod tests;
