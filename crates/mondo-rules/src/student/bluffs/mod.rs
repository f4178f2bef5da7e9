//! The Logical Bluffs AI: a player that reasons exactly over the layouts it still
//! believes possible (docs/ai.md, "Logical Bluffs").
//!
//! It reads one thing, the seat's [`PlayerView`] (what the fronts show that player),
//! at every call of [`BluffsAi::act`], and remembers what each view told it:
//!
//! - its own tiles and every tile it bought fix those tiles;
//! - the truth of each of its own statements (told when Bluffing ends) is a fact
//!   about its subset;
//! - the Detective's answer is a fact about the opposing subset;
//! - how many of its marks were right (the RP Claiming added, divided by the RP a
//!   right mark earns) is a fact about the opposing subset: exactly that many of its
//!   marks agree with the opposing statements' truths;
//! - a layout guess that did not end the match was wrong.
//!
//! The facts go into a [`Space`]: a bit per assignment of the unknown tiles they
//! speak of, so every count is exact. From it the AI marks each opposing statement by
//! the share of consistent layouts in which it is true; buys the tile whose colour
//! it is least sure of (a reveal removes exactly that tile's entropy); guesses the
//! layout when the chance of the likeliest one (one over the consistent layouts, all
//! equally likely) reaches its level's bar; and bluffs on the subset and four
//! statements of its catalogue ([`says`]) that tell it the most (the entropy of
//! their truths, which it will be told), earn it RP (each true one) and give the
//! opponent the least (statements a player who knows none of the tiles could mark
//! well).
//!
//! Pure: no clock, no I/O; every draw from a generator seeded by the caller. It never
//! sees the game's state: [`BluffsAi::act`] takes the view only (and `tests.rs` holds
//! that this module names nothing else of the game's).

pub mod duel;
pub mod random;
pub mod says;
pub mod space;

pub use random::RandomPlayer;
pub use space::{Applied, Space};

use crate::lang::tiles::ast::Formula;
use crate::lang::tiles::eval::Geometry;
use crate::lang::tiles::table::Table;
use crate::lang::tiles::{self, Cell, Layout, Subset};
use crate::rules::Millis;
use crate::rules::bluffs::{
    BluffsView, Move, PhaseName, PlayerView, RevealState, Settings, ShownBluff,
};
use crate::student::{Level, mix};
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use says::{Candidate, catalogue};

/// How a level plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// The most unknown tiles its space holds (depth); facts needing more wait.
    pub max_digits: usize,
    /// Whether it uses how many of its marks were right.
    pub counts: bool,
    /// The chance of a random mark, and of a random pick among good choices.
    pub noise: f64,
    /// The chance of the likeliest layout it needs before guessing.
    pub guess_at: f64,
    /// Subsets it weighs per bluff.
    pub subsets: usize,
    /// Colourings of a subset it weighs a statement on (a sample past that).
    pub support: usize,
    /// Whether it uses the Detective and the Smokescreen.
    pub items: bool,
}

impl Style {
    pub const fn of(level: Level) -> Style {
        match level {
            Level::Beginner => Style {
                max_digits: 9,
                counts: false,
                noise: 0.25,
                guess_at: 1.0,
                subsets: 1,
                support: 256,
                items: false,
            },
            Level::Player => Style {
                max_digits: 10,
                counts: true,
                noise: 0.1,
                guess_at: 0.5,
                subsets: 2,
                support: 1024,
                items: false,
            },
            Level::Expert => Style {
                max_digits: 12,
                counts: true,
                noise: 0.0,
                guess_at: 0.2,
                subsets: 6,
                support: 4096,
                items: true,
            },
        }
    }
}

/// What the AI values, in bits of the layout: a bit of its own entropy it will be
/// told is 1; an RP buys an eighth of a reveal (a tile is 2 bits); a right mark of
/// the opponent gives them 2 RP.
const RP_BITS: f64 = 0.25;
const OPPONENT_MARK_BITS: f64 = 0.5;

/// A statement about a subset, ready to be judged on colourings of it.
struct Judge {
    geometry: Geometry,
    formula: Formula,
    table: Option<Table>,
}

impl Judge {
    fn new(subset: &Subset, text: &str) -> Option<Judge> {
        let statement = tiles::parse(text).ok()?;
        let geometry = Geometry::new(subset);
        let table = geometry.tabulate(&statement.formula).ok();
        Some(Judge {
            geometry,
            formula: statement.formula,
            table,
        })
    }

    fn cells(&self) -> &[Cell] {
        self.geometry.cells()
    }

    /// Its truth when tile i of the subset has colour index `colours[i]`.
    fn truth(&self, colours: &[u8]) -> bool {
        match &self.table {
            Some(t) => t.get(index(colours)),
            None => self.geometry.evaluate(&self.formula, colours),
        }
    }
}

/// The colouring index of colours listed tile by tile.
fn index(colours: &[u8]) -> usize {
    colours
        .iter()
        .enumerate()
        .fold(0, |k, (i, c)| k | usize::from(*c & 3) << (2 * i))
}

/// Something the AI was told, about the tiles of one subset.
enum Fact {
    /// This statement has this truth.
    Truth(Box<Judge>, bool),
    /// Exactly `right` of these marks agree with their statements' truths.
    Right(Vec<(Judge, bool)>, usize),
}

impl Fact {
    fn cells(&self) -> Vec<Cell> {
        match self {
            Fact::Truth(j, _) => j.cells().to_vec(),
            Fact::Right(marks, _) => marks
                .first()
                .map_or(Vec::new(), |(j, _)| j.cells().to_vec()),
        }
    }

    fn holds(&self, colours: &[u8]) -> bool {
        match self {
            Fact::Truth(j, t) => j.truth(colours) == *t,
            Fact::Right(marks, right) => {
                marks.iter().filter(|(j, m)| j.truth(colours) == *m).count() == *right
            }
        }
    }
}

/// What a move depends on in a view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Asked {
    round: u32,
    phase: PhaseName,
    known: usize,
    rp: u32,
    own: bool,
    marks: bool,
    detected: bool,
    /// Its own Reveal's state, by kind.
    reveal: u8,
}

impl Asked {
    /// The seed of the choices made on this: a move depends on what it believes and
    /// on this, never on how often or when it was asked (a restart rebuilt from the
    /// match's log decides alike).
    fn seed(&self, seed: u64) -> u64 {
        [
            u64::from(self.round),
            self.phase as u64,
            self.known as u64,
            u64::from(self.rp),
            u64::from(self.own),
            u64::from(self.marks),
            u64::from(self.detected),
            u64::from(self.reveal),
        ]
        .into_iter()
        .fold(seed, mix)
    }

    pub(super) fn of(view: &PlayerView) -> Asked {
        Asked {
            round: view.round,
            phase: view.phase,
            known: view.known.len(),
            rp: view.rp,
            own: view.own.is_some(),
            marks: view.marks.is_some(),
            detected: view.detected.is_some(),
            reveal: match view.reveal {
                RevealState::Pending => 0,
                RevealState::Revealing => 1,
                RevealState::Declared { .. } => 2,
                RevealState::Guessed { .. } => 3,
                RevealState::Done => 4,
            },
        }
    }
}

/// The most tiles of a subset it bluffs on: a statement's truth table on 8 tiles is 4
/// times one on 7 and tells it no more (four statements tell at most 4 bits), so the
/// longest moves stay short.
const MAX_SUBSET: usize = 7;

/// The most unknown tiles one fact may speak of (its verdicts are listed one by one).
const MAX_FACT_TILES: usize = 8;

/// One AI seat of a Bluffs match.
pub struct BluffsAi {
    level: Level,
    style: Style,
    settings: Settings,
    /// The seat's seed: each choice draws from a generator seeded by it and what the
    /// choice is made on ([`Asked::seed`]).
    seed: u64,
    rng: Xoshiro256PlusPlus,
    space: Space,
    /// Facts that did not fit the space yet.
    waiting: Vec<Fact>,
    /// Facts the space could never hold (they contradicted it).
    pub contradictions: usize,
    round: u32,
    /// This round: own truths taken in, RP seen in Claiming, the count taken in, the
    /// Detective's answer taken in.
    told: bool,
    rp_claiming: Option<u32>,
    scored: bool,
    detected: bool,
    /// This round's own subset, and the last round's.
    current: Option<Subset>,
    previous: Option<Subset>,
    /// A layout guessed, and in which round.
    guessed: Option<(u32, Layout)>,
    /// The round and phase it last planned in, and when its moves there are due.
    phase_seen: Option<((u32, PhaseName), Millis)>,
    /// The last move it decided, and on what.
    last: Option<(Asked, Option<Move>)>,
}

impl BluffsAi {
    /// An AI of `level` for a match with these (public) settings.
    pub fn new(level: Level, settings: &Settings, seed: u64) -> BluffsAi {
        let style = Style::of(level);
        BluffsAi {
            level,
            style,
            settings: settings.clone(),
            seed,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            space: Space::new(style.max_digits),
            waiting: Vec::new(),
            contradictions: 0,
            round: 0,
            told: false,
            rp_claiming: None,
            scored: false,
            detected: false,
            current: None,
            previous: None,
            guessed: None,
            phase_seen: None,
            last: None,
        }
    }

    pub fn level(&self) -> Level {
        self.level
    }

    /// What it believes: the consistent layouts.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// The move to make now, if any: takes in what the view tells, then decides.
    /// Call it again after each move is played (one move per call).
    ///
    /// The view is all it gets; the game itself does not even compile here:
    ///
    /// ```compile_fail
    /// use mondo_rules::rules::bluffs::Bluffs;
    /// use mondo_rules::student::bluffs::BluffsAi;
    /// fn peek(ai: &mut BluffsAi, game: &Bluffs) {
    ///     ai.act(game);
    /// }
    /// ```
    pub fn act(&mut self, view: &PlayerView) -> Option<Move> {
        self.observe(view);
        // Asked again on a view that differs only in what it does not use (the
        // opponent submitted, time passed): the same move, not a second thought.
        let key = Asked::of(view);
        if let Some((k, m)) = &self.last
            && *k == key
        {
            return m.clone();
        }
        self.rng = Xoshiro256PlusPlus::seed_from_u64(key.seed(self.seed));
        let m = self.decide(view);
        self.last = Some((key, m.clone()));
        m
    }

    /// What a view its player had before it was seated (the match's log, read back
    /// after a restart) told it: taken in as [`BluffsAi::act`] takes it in, no move
    /// decided. Given every view since the start, in order, it believes what it
    /// believed before the restart, so it moves as it would have.
    pub fn recall(&mut self, view: &PlayerView) {
        self.observe(view);
    }

    fn decide(&mut self, view: &PlayerView) -> Option<Move> {
        match view.phase {
            PhaseName::Over => None,
            PhaseName::Bluffing => view.own.is_none().then(|| self.bluff(view)),
            PhaseName::Claiming => match (&view.marks, &view.opponent) {
                (None, Some(opp)) => Some(self.claim(view, opp)),
                _ => None,
            },
            PhaseName::Reveal => self.reveal(view),
        }
    }

    /// Its move was taken by the match: a layout guess is remembered, so that the
    /// match going on tells it the guess was wrong.
    pub fn made(&mut self, m: &Move) {
        if let Move::Guess { layout } = m {
            self.guessed = Some((self.round, *layout));
        }
    }

    /// Its next move on the match's view for its player at `now` (the game clock), and
    /// how long after `now` to make it: a think delay counted from when it first saw
    /// the phase, a few seconds (bounded by a quarter of the phase's time), so that a
    /// person playing it sees a move come when a player's would. The view's settings
    /// are the match's.
    pub fn plan(&mut self, view: &BluffsView, now: Millis) -> Option<(Move, Millis)> {
        if view.paused {
            return None;
        }
        let mine = view.mine.as_ref()?;
        self.settings = view.settings.clone();
        let key = (mine.round, mine.phase);
        let due = match self.phase_seen {
            Some((k, due)) if k == key => due,
            _ => {
                let (lo, hi, phase_ms) = match mine.phase {
                    PhaseName::Bluffing => (6_000, 15_000, self.settings.bluffing_ms),
                    PhaseName::Claiming => (3_000, 8_000, self.settings.claiming_ms),
                    _ => (1_000, 2_500, self.settings.reveal_ms),
                };
                // Counted from the phase's start (its deadline less its length) when
                // the view says it, else from now: the same after a restart.
                let began = mine
                    .deadline
                    .map(|d| d.saturating_sub(phase_ms))
                    .filter(|b| *b <= now)
                    .unwrap_or(now);
                let seed = [u64::from(mine.round), mine.phase as u64]
                    .into_iter()
                    .fold(self.seed, mix);
                let think = Xoshiro256PlusPlus::seed_from_u64(seed).random_range(lo..hi);
                let due = began + think.min(phase_ms / 4);
                self.phase_seen = Some((key, due));
                due
            }
        };
        let m = self.act(mine)?;
        Some((m, due.saturating_sub(now)))
    }

    fn observe(&mut self, v: &PlayerView) {
        if v.round != self.round {
            if let Some((r, layout)) = self.guessed
                && r < v.round
                && v.phase != PhaseName::Over
            {
                // The match went on: that guess was wrong.
                self.space.exclude(&layout);
                self.guessed = None;
            }
            self.round = v.round;
            self.previous = self.current.take().or(self.previous.take());
            self.told = false;
            self.rp_claiming = None;
            self.scored = false;
            self.detected = false;
        }
        // Its own guess, as the view says it (also when the match took it before a
        // restart): if the match goes on, it was wrong.
        if let RevealState::Guessed { layout, .. } = &v.reveal {
            self.guessed = Some((v.round, *layout));
        }
        let mut fixed = false;
        for (cell, colour) in &v.known {
            if self.space.known(*cell).is_none() {
                self.space.fix(*cell, *colour);
                fixed = true;
            }
        }
        if fixed {
            let waiting = std::mem::take(&mut self.waiting);
            for f in waiting {
                self.apply(f);
            }
        }
        if let Some(own) = &v.own {
            self.current = Some(own.subset.clone());
            if let (Some(truths), false) = (&own.truths, self.told) {
                self.told = true;
                for (text, truth) in own.statements.iter().zip(truths) {
                    if let Some(j) = Judge::new(&own.subset, text) {
                        self.apply(Fact::Truth(Box::new(j), *truth));
                    }
                }
            }
        }
        if v.phase == PhaseName::Claiming && self.rp_claiming.is_none() {
            self.rp_claiming = Some(v.rp);
        }
        if let (Some((n, truth)), Some(opp), false) = (v.detected, &v.opponent, self.detected) {
            self.detected = true;
            if let Some(j) = opposing(opp, n) {
                self.apply(Fact::Truth(Box::new(j), truth));
            }
        }
        if v.phase == PhaseName::Reveal && !self.scored && v.reveal == RevealState::Pending {
            self.scored = true;
            self.take_count(v);
        }
    }

    /// How many marks were right: what Claiming added to the RP.
    fn take_count(&mut self, v: &PlayerView) {
        let per = self.settings.rp_per_right_mark;
        let (Some(before), Some(marks), Some(opp)) = (self.rp_claiming, &v.marks, &v.opponent)
        else {
            return;
        };
        if per == 0 || !self.style.counts || v.rp < before {
            return;
        }
        let right = ((v.rp - before) / per) as usize;
        let mut judged = Vec::new();
        for (k, mark) in marks.iter().enumerate() {
            let Some(mark) = mark else { continue };
            match opposing(opp, k + 1) {
                Some(j) => judged.push((j, *mark)),
                // A statement it cannot read: the count says nothing it can use.
                None => return,
            }
        }
        if !judged.is_empty() {
            self.apply(Fact::Right(judged, right));
        }
    }

    fn apply(&mut self, fact: Fact) {
        let cells = fact.cells();
        let unknown = cells
            .iter()
            .filter(|c| self.space.known(**c).is_none())
            .count();
        if unknown > MAX_FACT_TILES {
            self.waiting.push(fact);
            return;
        }
        match self.space.constrain(&cells, &|c| fact.holds(c)) {
            Applied::Applied => {}
            Applied::Deferred => self.waiting.push(fact),
            Applied::Contradiction => self.contradictions += 1,
        }
    }

    fn noisy(&mut self) -> bool {
        self.style.noise > 0.0 && self.rng.random_bool(self.style.noise)
    }

    /// The weighted colourings of a subset's tiles among the consistent layouts:
    /// (colouring index, weight), at most `cap` of them (a weighted sample past it).
    fn support(&mut self, g: &Geometry, cap: usize) -> Vec<(usize, f64)> {
        let cells = g.cells();
        let (held, hist) = self.space.histogram(cells);
        let mut base = 0usize;
        let mut open = Vec::new();
        for (i, c) in cells.iter().enumerate() {
            match self.space.known(*c) {
                Some(col) => base |= col.index() << (2 * i),
                None => open.push((i, held.iter().position(|h| h == c))),
            }
        }
        let total = 1usize << (2 * open.len());
        let mut out = Vec::with_capacity(total.min(1 << 16));
        for a in 0..total {
            let mut k = base;
            let mut h = 0usize;
            for (j, (i, slot)) in open.iter().enumerate() {
                let colour = a >> (2 * j) & 3;
                k |= colour << (2 * i);
                if let Some(s) = slot {
                    h |= colour << (2 * s);
                }
            }
            let w = hist[h] as f64;
            if w > 0.0 {
                out.push((k, w));
            }
        }
        if out.len() > cap {
            let sum: f64 = out.iter().map(|(_, w)| w).sum();
            let mut sample = Vec::with_capacity(cap);
            for _ in 0..cap {
                let mut x = self.rng.random_range(0.0..sum);
                let pick = out
                    .iter()
                    .find(|(_, w)| {
                        x -= w;
                        x < 0.0
                    })
                    .or(out.last());
                if let Some((k, _)) = pick {
                    sample.push((*k, 1.0));
                }
            }
            out = sample;
        }
        out
    }

    /// The chance a statement about a subset is true, among the consistent layouts
    /// (`None` for a subset too large to weigh, or a statement that does not read).
    fn chance(&mut self, subset: &Subset, text: &str) -> Option<f64> {
        let j = Judge::new(subset, text)?;
        let unknown = subset
            .cells()
            .iter()
            .filter(|c| self.space.known(**c).is_none())
            .count();
        if unknown > MAX_FACT_TILES || j.table.is_none() {
            return None;
        }
        let support = self.support(&j.geometry, usize::MAX);
        let table = j.table.as_ref()?;
        let (yes, all) = support.iter().fold((0.0, 0.0), |(y, a), (k, w)| {
            (if table.get(*k) { y + w } else { y }, a + w)
        });
        (all > 0.0).then(|| yes / all)
    }

    /// The subsets the shape rule and the overlap with its previous subset allow, of
    /// at most [`MAX_SUBSET`] tiles.
    fn legal_subsets(&self) -> Vec<Subset> {
        shapes()
            .iter()
            .filter(|m| m.count_ones() as usize <= MAX_SUBSET)
            .filter_map(|m| subset_of(*m))
            .filter(|s| {
                self.previous
                    .as_ref()
                    .is_none_or(|p| s.shared(p) < s.len() / 2)
            })
            .collect()
    }

    fn bluff(&mut self, v: &PlayerView) -> Move {
        let marginals = self.space.marginals();
        let entropy: Vec<f64> = marginals.iter().map(colour_entropy).collect();
        let mut legal: Vec<(f64, Subset)> = self
            .legal_subsets()
            .into_iter()
            .map(|s| {
                let h: f64 = s.cells().iter().map(|c| entropy[c.index()]).sum();
                (h.min(8.0) + self.rng.random_range(0.0..1.0), s)
            })
            .collect();
        legal.sort_by(|a, b| b.0.total_cmp(&a.0));
        legal.truncate(24);
        legal.shuffle(&mut self.rng);
        let mut best: Option<(f64, Subset, Vec<usize>, Vec<f64>)> = None;
        for (_, subset) in legal.into_iter().take(self.style.subsets) {
            if let Some((value, picks, priors)) = self.statements_on(&subset)
                && best.as_ref().is_none_or(|b| value > b.0)
            {
                best = Some((value, subset, picks, priors));
            }
        }
        let Some((_, subset, picks, priors)) = best else {
            return self.plain_bluff();
        };
        let statements: Vec<String> = picks.iter().map(|i| catalogue()[*i].text.clone()).collect();
        // The Smokescreen hides the statement the opponent could mark best.
        let smokescreen = (self.style.items && !v.items_used.smokescreen && v.round >= 2)
            .then(|| {
                priors
                    .iter()
                    .enumerate()
                    .max_by(|a, b| judged(*a.1).total_cmp(&judged(*b.1)))
                    .map(|(k, _)| k + 1)
            })
            .flatten();
        // After a restart it may not know its last subset: No Limit lifts the rule
        // it cannot check, while it has it.
        let no_limit = self.previous.is_none() && v.round > 1 && !v.items_used.no_limit;
        Move::Bluff {
            subset: subset.to_string(),
            statements,
            no_limit,
            smokescreen,
        }
    }

    /// The four statements of the catalogue worth most on a subset: their value, their
    /// catalogue indices and their priors.
    fn statements_on(&mut self, subset: &Subset) -> Option<(f64, Vec<usize>, Vec<f64>)> {
        let g = Geometry::new(subset);
        let max_words = self.settings.max_words;
        let candidates: Vec<Candidate> = catalogue()
            .iter()
            .enumerate()
            .filter_map(|(i, said)| Candidate::on(i, said, &g, max_words))
            .collect();
        if candidates.len() < crate::rules::bluffs::STATEMENTS {
            return None;
        }
        let support = self.support(&g, self.style.support);
        let total: f64 = support.iter().map(|(_, w)| w).sum();
        let truths: Vec<Vec<bool>> = candidates
            .iter()
            .map(|c| support.iter().map(|(k, _)| c.table.get(*k)).collect())
            .collect();
        let own: Vec<f64> = truths
            .iter()
            .map(|t| {
                t.iter()
                    .zip(&support)
                    .filter(|(t, _)| **t)
                    .map(|(_, (_, w))| w)
                    .sum::<f64>()
                    / total
            })
            .collect();
        let mut class = vec![0usize; support.len()];
        let mut picks: Vec<usize> = Vec::new();
        let mut value = 0.0;
        for _ in 0..crate::rules::bluffs::STATEMENTS {
            let mut scored: Vec<(f64, usize)> = (0..candidates.len())
                .filter(|c| !picks.contains(c))
                .map(|c| {
                    let h = split_entropy(&class, &truths[c], &support, total);
                    let v = h + RP_BITS * own[c] - OPPONENT_MARK_BITS * judged(candidates[c].prior);
                    (v, c)
                })
                .collect();
            scored.sort_by(|a, b| b.0.total_cmp(&a.0));
            let at = if self.noisy() {
                self.rng.random_range(0..scored.len().min(4))
            } else {
                0
            };
            let (_, c) = *scored.get(at)?;
            for (k, t) in class.iter_mut().zip(&truths[c]) {
                *k = *k * 2 + usize::from(*t);
            }
            picks.push(c);
            value = split_entropy(&class, &vec![false; class.len()], &support, total)
                + picks
                    .iter()
                    .map(|c| RP_BITS * own[*c] - OPPONENT_MARK_BITS * judged(candidates[*c].prior))
                    .sum::<f64>();
        }
        let priors = picks.iter().map(|c| candidates[*c].prior).collect();
        let indices = picks.iter().map(|c| candidates[*c].index).collect();
        Some((value, indices, priors))
    }

    /// A bluff when no subset weighed had four statements (never seen: a 2x2 square
    /// of four tiles always has them): the first legal subset that does.
    fn plain_bluff(&mut self) -> Move {
        for s in self.legal_subsets() {
            let g = Geometry::new(&s);
            let texts: Vec<String> = catalogue()
                .iter()
                .enumerate()
                .filter_map(|(i, said)| Candidate::on(i, said, &g, self.settings.max_words))
                .take(crate::rules::bluffs::STATEMENTS)
                .map(|c| catalogue()[c.index].text.clone())
                .collect();
            if texts.len() == crate::rules::bluffs::STATEMENTS {
                return Move::Bluff {
                    subset: s.to_string(),
                    statements: texts,
                    no_limit: false,
                    smokescreen: None,
                };
            }
        }
        Move::Resign
    }

    fn claim(&mut self, v: &PlayerView, opp: &ShownBluff) -> Move {
        let detected = v.detected.map(|(n, _)| n);
        let mut chances = Vec::new();
        for (k, text) in opp.statements.iter().enumerate() {
            let p = match text {
                Some(t) if detected != Some(k + 1) => {
                    Some(self.chance(&opp.subset, t).unwrap_or(0.5))
                }
                _ => None,
            };
            chances.push(p);
        }
        // The Detective on the statement it is least sure of, when it is unsure.
        if self.style.items && !v.items_used.detective && detected.is_none() {
            let unsure = chances
                .iter()
                .enumerate()
                .filter_map(|(k, p)| p.map(|p| (k, (p - 0.5).abs())))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((k, d)) = unsure
                && d < 0.15
            {
                return Move::Detect { statement: k + 1 };
            }
        }
        let marks = chances
            .into_iter()
            .map(|p| {
                p.map(|p| {
                    let mark = p >= 0.5;
                    if self.noisy() { !mark } else { mark }
                })
            })
            .collect();
        Move::Claim { marks }
    }

    fn reveal(&mut self, v: &PlayerView) -> Option<Move> {
        match v.reveal {
            RevealState::Guessed { .. } | RevealState::Done => None,
            RevealState::Declared { .. } => Some(self.guess()),
            RevealState::Pending => {
                let layouts = self.space.layouts();
                if layouts >= 1.0 && 1.0 / layouts >= self.style.guess_at - 1e-9 {
                    return Some(self.guess());
                }
                Some(self.buy(v).unwrap_or(Move::Pass))
            }
            RevealState::Revealing => Some(self.buy(v).unwrap_or(Move::Pass)),
        }
    }

    fn guess(&mut self) -> Move {
        match self.space.layouts_list(1).first() {
            Some(layout) => Move::Guess { layout: *layout },
            None => Move::Pass,
        }
    }

    /// One tile to reveal: the one it is least sure of.
    fn buy(&mut self, v: &PlayerView) -> Option<Move> {
        if v.barred || v.rp < self.settings.reveal_cost {
            return None;
        }
        let marginals = self.space.marginals();
        let mut open: Vec<(f64, Cell)> = Cell::all()
            .filter(|c| self.space.known(*c).is_none())
            .map(|c| (colour_entropy(&marginals[c.index()]), c))
            .collect();
        open.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let at = if self.noisy() {
            self.rng.random_range(0..open.len().clamp(1, 4))
        } else {
            0
        };
        let (_, cell) = open.get(at)?;
        Some(Move::Reveal { tiles: vec![*cell] })
    }
}

/// An opposing statement (1-4) as a judge, unless smokescreened or unreadable.
fn opposing(opp: &ShownBluff, n: usize) -> Option<Judge> {
    let text = opp.statements.get(n.checked_sub(1)?)?.as_ref()?;
    Judge::new(&opp.subset, text)
}

/// How well a player who knows none of a statement's tiles marks it.
fn judged(prior: f64) -> f64 {
    prior.max(1.0 - prior)
}

/// The entropy, in bits, of one tile's colour.
fn colour_entropy(p: &[f64; 4]) -> f64 {
    p.iter().filter(|x| **x > 0.0).map(|x| -x * x.log2()).sum()
}

/// The entropy of the classes once each is split by `truth` (classes are the truths
/// of at most three statements so far, so fewer than 8).
fn split_entropy(class: &[usize], truth: &[bool], support: &[(usize, f64)], total: f64) -> f64 {
    let mut weights = [0.0f64; 32];
    for ((c, t), (_, w)) in class.iter().zip(truth).zip(support) {
        weights[(c * 2 + usize::from(*t)) & 31] += w;
    }
    weights
        .iter()
        .map(|w| w / total)
        .filter(|p| *p > 0.0)
        .map(|p| -p * p.log2())
        .sum()
}

/// Every subset the shape rule allows (4-8 connected tiles), as masks of the board.
pub fn shapes() -> &'static [u16] {
    static SHAPES: std::sync::OnceLock<Vec<u16>> = std::sync::OnceLock::new();
    SHAPES.get_or_init(|| {
        (1u32..1 << 16)
            .map(|m| m as u16)
            .filter(|m| (4..=8).contains(&m.count_ones()))
            .filter(|m| subset_of(*m).is_some_and(|s| s.is_connected()))
            .collect()
    })
}

/// The subset of the board's tiles in a mask.
fn subset_of(mask: u16) -> Option<Subset> {
    Subset::new(
        (0..16)
            .filter(|i| mask >> i & 1 == 1)
            .filter_map(Cell::from_index)
            .collect(),
    )
    .ok()
}

impl crate::student::Ai for BluffsAi {
    type View = BluffsView;
    type Move = Move;

    fn next(&mut self, view: &BluffsView, now: Millis) -> Option<crate::student::Plan<Move>> {
        let (action, delay) = self.plan(view, now)?;
        Some(crate::student::Plan { action, delay })
    }

    fn made(&mut self, action: &Move, _now: Millis) {
        BluffsAi::made(self, action);
    }

    fn recall(&mut self, view: &BluffsView, _at: Millis) {
        // As `plan` takes a view in: not while paused, with the match's settings.
        if let (Some(mine), false) = (&view.mine, view.paused) {
            self.settings = view.settings.clone();
            BluffsAi::recall(self, mine);
        }
    }
}

#[cfg(test)]
mod tests;
