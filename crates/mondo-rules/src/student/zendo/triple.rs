//! The student in a Zendo Triple seat: three hidden patterns, so three beliefs, one
//! [`Student`] per pattern, each told only the marks the table shows on its pattern.
//! From the player's view alone (a [`TripleView`], which never holds an unsolved
//! pattern) it chooses its move as a person would. And whole Triples between two
//! students on the real rules with a fake clock, for tests.
//!
//! How it plays (docs/ai.md): in step 1 it builds the structure that splits its rules
//! best summed over the unsolved patterns, graded on all of them; once a pattern's
//! rule leads and it has no stone, it challenges instead, with the structure it is
//! surest of on that pattern, named on every unsolved pattern it is as sure of (each
//! right answer is a stone). In step 2 it spends a stone on the unsolved pattern whose
//! rule leads most (before betting, the finder checks that rule's group; a structure
//! that tells two of its members apart is built next turn), else it ends its turn. It
//! answers challenges and the quiz per pattern by that pattern's surviving weight.

use super::duel::{answer_to, play_out};
use super::{Budget, Decision, Level, Space, Student, entropy};
use crate::koan::Koan;
use crate::lang::Pattern;
use crate::rules::zendo::triple::{
    Letter, PhaseView, StepView, Triple, TripleEntry, TripleMove, TripleOutcome, TripleSetup,
    TripleView,
};
use crate::rules::zendo::{Answer, Mode, ZendoMove};
use crate::rules::{Game, Millis, PlayerId, Seat, Viewer};
use std::sync::Arc;

/// A challenge names a pattern only when the student is at least this sure of its
/// verdict there (the share of the weight on the side it answers).
const NAME_SURE: f64 = super::SURE;

/// One student per hidden pattern (A, B, C), and what the finder asked to build.
#[derive(Clone, Debug)]
pub struct TripleStudent {
    students: [Student; 3],
    /// Structures the finder found to tell apart two rules of a leading group, to
    /// build at the next step 1 (a guess step cannot build).
    next: Vec<Koan>,
}

impl TripleStudent {
    pub fn new(space: Arc<Space>, level: Level, seed: u64) -> TripleStudent {
        let one = |k: u64| Student::new(space.clone(), level, seed.wrapping_add(k));
        TripleStudent {
            students: [one(0), one(1), one(2)],
            next: Vec::new(),
        }
    }

    /// The belief about one pattern.
    pub fn student(&self, letter: Letter) -> &Student {
        &self.students[letter.index()]
    }

    pub fn level(&self) -> Level {
        self.students[0].level()
    }

    /// Sees the table as a player's view shows it: each pattern's student the marks
    /// on its pattern; every structure is known to all three (never built again).
    pub fn observe_table(&mut self, table: &[TripleEntry]) {
        for entry in table {
            for (student, mark) in self.students.iter_mut().zip(entry.marks) {
                if let Some(obeys) = mark {
                    student.observe(&entry.koan, obeys);
                }
                student.exclude(&entry.koan);
            }
        }
        self.next.retain(|k| !self.students[0].has_seen(k));
    }

    /// Whether it is lost on every pattern still to solve ([`Student::stuck`] on
    /// each): it then builds no more, and the Triple's own limits end the match.
    pub fn stuck(&self, unsolved: &[Letter]) -> bool {
        !unsolved.is_empty() && unsolved.iter().all(|l| self.student(*l).stuck())
    }

    /// The answer to "does `koan` obey pattern `letter`?" (a challenge, the quiz).
    pub fn answer(&mut self, letter: Letter, koan: &Koan) -> Answer {
        answer_to(&mut self.students[letter.index()], koan)
    }

    /// Expected bits a structure graded on `letters` tells, summed over them.
    fn bits(&self, koan: &Koan, letters: &[Letter]) -> f64 {
        letters
            .iter()
            .map(|l| entropy(self.student(*l).predict(koan).share))
            .sum()
    }

    /// Step 1: what to build, how, and on which patterns (`None`: skip it).
    fn build(
        &mut self,
        unsolved: &[Letter],
        stones: u32,
        budget: Budget,
        now: &mut dyn FnMut() -> u64,
    ) -> Option<TripleMove> {
        if unsolved.is_empty() {
            return None;
        }
        if let Some(koan) = self.next.pop() {
            return Some(grade(koan));
        }
        // The unsolved patterns whose rule leads, most first.
        let mut leading: Vec<(Letter, f64)> = unsolved
            .iter()
            .map(|l| (*l, self.student(*l).summary()))
            .filter(|(l, s)| {
                s.misses == 0 && s.leader_share >= self.student(*l).level().guess_threshold()
            })
            .map(|(l, s)| (l, s.leader_share))
            .collect();
        leading.sort_by(|a, b| b.1.total_cmp(&a.1));
        if stones == 0 {
            if let Some(&(first, _)) = leading.first() {
                let (koan, _) = self.students[first.index()].surest();
                let mut named: Vec<Letter> = unsolved
                    .iter()
                    .copied()
                    .filter(|l| {
                        *l == first
                            || (self.student(*l).predict(&koan).share - 0.5).abs()
                                >= NAME_SURE - 0.5
                    })
                    .collect();
                named.sort();
                return Some(TripleMove::Build {
                    koan,
                    mode: Mode::Challenge,
                    patterns: named,
                });
            }
        }
        // Each unsolved pattern's best structure (the budget shared between them), the
        // one that tells most over all of them graded.
        let start = now();
        let share = budget.deadline.saturating_sub(start) / unsolved.len() as u64;
        let mut best: Option<(f64, Koan)> = None;
        for (i, l) in unsolved.iter().enumerate() {
            let part = Budget {
                evaluations: budget.evaluations / unsolved.len() as u64,
                deadline: start.saturating_add(share.saturating_mul(i as u64 + 1)),
            };
            let e = self.students[l.index()].best_experiment(part, now);
            let bits = self.bits(&e.koan, unsolved);
            if best.as_ref().is_none_or(|(b, _)| bits > *b) {
                best = Some((bits, e.koan));
            }
        }
        best.map(|(_, koan)| grade(koan))
    }

    /// Step 2: a guess on the unsolved pattern whose rule leads most, if one leads
    /// enough (`None`: end the turn).
    fn guess(
        &mut self,
        view: &TripleView,
        unsolved: &[Letter],
        budget: Budget,
        now: &mut dyn FnMut() -> u64,
    ) -> Option<(Letter, Pattern)> {
        let mut order: Vec<(Letter, f64)> = unsolved
            .iter()
            .map(|l| (*l, self.student(*l).summary().leader_share))
            .collect();
        order.sort_by(|a, b| b.1.total_cmp(&a.1));
        for (letter, _) in order {
            let student = &mut self.students[letter.index()];
            match student.decide(budget, now, false) {
                Decision::Guess { text, .. } => {
                    student.guessed(&text);
                    if let Ok(pattern) = crate::lang::read_for(&text, view.settings.set) {
                        return Some((letter, pattern));
                    }
                }
                Decision::Build(e) => {
                    if e.from_finder && !self.next.contains(&e.koan) {
                        self.next.push(e.koan);
                    }
                }
            }
        }
        None
    }
}

fn grade(koan: Koan) -> TripleMove {
    TripleMove::Build {
        koan,
        mode: Mode::Observe,
        // None named: every unsolved pattern.
        patterns: Vec::new(),
    }
}

/// The student's move now, if it has one, from what its player sees. `now` says the
/// caller's time; `budget` bounds the thinking.
pub fn triple_move(
    student: &mut TripleStudent,
    view: &TripleView,
    budget: Budget,
    now: &mut dyn FnMut() -> u64,
) -> Option<TripleMove> {
    student.observe_table(&view.table);
    let me = view.you?;
    if view.outcome.is_some() || view.paused {
        return None;
    }
    let my_id = *view.players.get(me)?;
    let unsolved: Vec<Letter> = Letter::ALL
        .into_iter()
        .filter(|l| view.solved[l.index()].is_none())
        .collect();
    let stones = view.stones.get(me).copied().unwrap_or(0);
    match &view.phase {
        PhaseView::ChoosingStarter { advantage } => {
            (*advantage == me).then_some(TripleMove::Zendo(ZendoMove::ChooseStarter {
                starter: my_id,
            }))
        }
        PhaseView::Over => None,
        PhaseView::Quiz {
            questions, yours, ..
        } => {
            if yours.is_some() {
                return None;
            }
            let answers = questions
                .iter()
                .map(|q| student.answer(q.pattern, &q.koan))
                .collect();
            Some(TripleMove::QuizAnswer { answers })
        }
        PhaseView::Turn { seat, step } => match step {
            StepView::Challenge {
                koan,
                patterns,
                yours,
                ..
            } => {
                if yours.is_some() {
                    return None;
                }
                let answers = patterns.iter().map(|l| student.answer(*l, koan)).collect();
                Some(TripleMove::Answer { answers })
            }
            _ if *seat != me => None,
            // Lost on every unsolved pattern (no rule it knows fits their tables): it
            // builds no more and lets its turns run out, so the Triple's own limits
            // end the match.
            StepView::Build if student.stuck(&unsolved) => None,
            StepView::Build => match student.build(&unsolved, stones, budget, now) {
                Some(m) => Some(m),
                None => Some(TripleMove::Zendo(ZendoMove::EndTurn)),
            },
            StepView::Guess => {
                if stones == 0 {
                    return Some(TripleMove::Zendo(ZendoMove::EndTurn));
                }
                match student.guess(view, &unsolved, budget, now) {
                    Some((pattern, guess)) => Some(TripleMove::Guess { pattern, guess }),
                    None => Some(TripleMove::Zendo(ZendoMove::EndTurn)),
                }
            }
            StepView::Pending { .. } => Some(TripleMove::Zendo(ZendoMove::Confirm)),
            StepView::Verdict { .. } => None,
        },
    }
}

/// How a Triple between two students went.
#[derive(Clone, Debug, PartialEq)]
pub struct TripleResult {
    pub winner: Option<Seat>,
    /// The match ended (a winner, the quiz, or the rules ended it) before `max_moves`.
    pub ended: bool,
    pub outcome: Option<TripleOutcome>,
    /// Who solved each pattern by guessing.
    pub solved: [Option<Seat>; 3],
    pub turns: u32,
    pub moves: usize,
    /// Patterns a student's view showed while they were unsolved and play went on
    /// (must stay 0: the student never sees a hidden pattern).
    pub leaks: usize,
}

/// Two students play `setup` on the real rules with a fake clock: each move takes
/// `think_ms` of it, the umpire judges at once, deadlines are run out when nobody can
/// move. `students[i]` plays seat i.
pub fn triple(
    setup: TripleSetup,
    students: [TripleStudent; 2],
    think_ms: Millis,
    max_moves: usize,
) -> Result<TripleResult, String> {
    let players: [PlayerId; 2] = setup.players;
    let (game, _) = Triple::start(setup, 0).map_err(|e| e.to_string())?;
    let mut students = students;
    let mut leaks = 0;
    let (game, moves) = play_out(
        game,
        &players,
        think_ms,
        max_moves,
        |i, view: &TripleView, budget, now| {
            if view.outcome.is_none() {
                leaks += (0..3)
                    .filter(|&p| view.revealed[p].is_some() && view.solved[p].is_none())
                    .count();
            }
            triple_move(&mut students[i], view, budget, now)
        },
    )?;
    let view = game.view(&Viewer::Spectator);
    Ok(TripleResult {
        winner: view.winner,
        ended: game.is_over(),
        outcome: view.outcome,
        solved: view.solved,
        turns: view.turn,
        moves,
        leaks,
    })
}

/// A Triple student for each seat over a shared space.
pub fn pair(space: &Arc<Space>, levels: [Level; 2], seed: u64) -> [TripleStudent; 2] {
    [
        TripleStudent::new(space.clone(), levels[0], seed),
        TripleStudent::new(space.clone(), levels[1], seed.wrapping_add(17)),
    ]
}
