//! Triple's closing quiz (rule book, `mod.rs`: **The quiz**): when the game clock
//! runs out, play stops and rounds of structures decide the unsolved patterns; a
//! round's answer sheets are revealed together, a tie on a pattern adds a harder round
//! for it, and the player with more patterns wins.
//!
//! Its structures are drawn from the match's seed (pure: the same seed, table and
//! round give the same structures, and the structures travel in the event that opens
//! the round, so a replay never draws them again).
//!
//! - The first round: [`FIRST_ROUND`] structures of 1 to 5 pieces, none on the table,
//!   each judged on every unsolved pattern.
//! - A tie round: [`TIE_ROUND`] *harder* structures per tied pattern: more pieces
//!   (three plus the round's number, at most eight), and each one on the pattern's
//!   boundary, that is, changing or removing one piece moves it across (it obeys and a
//!   one-piece change does not, or the reverse). Near the boundary is where a player
//!   who knows the pattern roughly goes wrong. When a few hundred draws find no such
//!   structure (a pattern few structures sit near), any new structure of that size is
//!   taken.

use super::challenge::reveal;
use super::{Letter, Phase, Question, Step, Triple, TripleEvent, TripleOutcome, ended};
use crate::koan::{Koan, MAX_CELLS, MAX_SIDE, PieceSet};
use crate::lang::Formula;
use crate::rules::zendo::{Answer, Withdrawal, ZendoEvent};
use crate::rules::{Emitter, Seat};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// Structures in the first round.
pub const FIRST_ROUND: usize = 10;
/// Harder structures per tied pattern in each tie round.
pub const TIE_ROUND: usize = 5;
/// Draws per structure before the boundary condition is dropped.
const BOUNDARY_TRIES: usize = 400;

/// The first round: the same [`FIRST_ROUND`] structures asked on each of `letters`.
pub fn first_round(set: PieceSet, seed: u64, taken: &[Koan], letters: &[Letter]) -> Vec<Question> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5155_495a);
    let mut drawn: Vec<Koan> = Vec::new();
    let mut tries = 0;
    while drawn.len() < FIRST_ROUND && tries < 10_000 {
        tries += 1;
        let n = 1 + drawn.len() / 2; // 1,1,2,2,...,5,5 pieces
        let k = draw(set, n, &mut rng);
        if !taken.contains(&k) && !drawn.contains(&k) {
            drawn.push(k);
        }
    }
    drawn
        .into_iter()
        .flat_map(|koan| {
            letters.iter().map(move |&pattern| Question {
                koan: koan.clone(),
                pattern,
            })
        })
        .collect()
}

/// A tie round (`round` >= 2): [`TIE_ROUND`] harder structures for each tied pattern.
pub fn tie_round(
    set: PieceSet,
    seed: u64,
    round: u32,
    taken: &[Koan],
    tied: &[(Letter, &Formula)],
) -> Vec<Question> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ (round as u64).wrapping_mul(0x9E37));
    let pieces = (3 + round as usize).min(8);
    let mut used: Vec<Koan> = taken.to_vec();
    let mut out = Vec::new();
    for &(pattern, formula) in tied {
        for _ in 0..TIE_ROUND {
            let mut fallback = None;
            let mut found = None;
            for _ in 0..BOUNDARY_TRIES {
                let k = draw(set, pieces, &mut rng);
                if used.contains(&k) {
                    continue;
                }
                if on_boundary(&k, formula) {
                    found = Some(k);
                    break;
                }
                fallback.get_or_insert(k);
            }
            if let Some(koan) = found.or(fallback) {
                used.push(koan.clone());
                out.push(Question { koan, pattern });
            }
        }
    }
    out
}

/// Whether changing or removing one piece of `koan` changes its verdict.
pub fn on_boundary(koan: &Koan, formula: &Formula) -> bool {
    let verdict = crate::lang::evaluate(formula, koan);
    let set = koan.set();
    let window = koan.window();
    (0..MAX_CELLS).filter(|&i| window[i].is_some()).any(|i| {
        let removed = (koan.len() > 1).then(|| {
            let mut w = *window;
            w[i] = None;
            w
        });
        let swapped = set
            .pieces()
            .iter()
            .filter(|p| Some(**p) != window[i])
            .map(|p| {
                let mut w = *window;
                w[i] = Some(*p);
                w
            });
        removed.into_iter().chain(swapped).any(|w| {
            Koan::from_window(set, &w)
                .map(|k| crate::lang::evaluate(formula, &k) != verdict)
                .unwrap_or(false)
        })
    })
}

/// `n` pieces in a box just big enough to leave some room.
fn draw(set: PieceSet, n: usize, rng: &mut Xoshiro256PlusPlus) -> Koan {
    let side = (n + 1).min(MAX_SIDE as usize);
    crate::finder::sample::in_box(set, n, side, side.min(3).max(n.div_ceil(3)), rng)
}

/// The end by the quiz: more patterns wins; then more solved by guessing; else a draw.
fn quiz_outcome(t: &Triple) -> TripleOutcome {
    let patterns = t.pattern_counts();
    let mut guessed = [0u32; 2];
    for s in t.solved.iter().flatten() {
        guessed[s.index()] += 1;
    }
    let winner = match (patterns[0].cmp(&patterns[1]), guessed[0].cmp(&guessed[1])) {
        (std::cmp::Ordering::Greater, _) => Some(Seat::FIRST),
        (std::cmp::Ordering::Less, _) => Some(Seat::SECOND),
        (_, std::cmp::Ordering::Greater) => Some(Seat::FIRST),
        (_, std::cmp::Ordering::Less) => Some(Seat::SECOND),
        _ => None,
    };
    TripleOutcome::Quiz { winner, patterns }
}

/// Play stops and the first round of the quiz opens (or, with nothing left to
/// decide, the game ends).
pub(super) fn stop_play(out: &mut Emitter<Triple>) {
    let t = out.next();
    match &t.phase {
        Phase::Turn {
            step: Step::Challenge { .. },
            ..
        } => reveal(out, true),
        Phase::Turn {
            step: Step::Pending { pattern, guess },
            ..
        } => {
            let (pattern, number) = (*pattern, *guess);
            out.emit(TripleEvent::Pattern {
                pattern,
                zendo: ZendoEvent::GuessWithdrawn {
                    number,
                    why: Withdrawal::TimeUp,
                },
            });
        }
        _ => {}
    }
    out.emit(TripleEvent::PlayStopped);
    let t = out.next();
    let unsolved = t.unsolved();
    let taken: Vec<Koan> = t.table.iter().map(|e| e.koan.clone()).collect();
    let questions = first_round(t.settings().set, t.seating.seed, &taken, &unsolved);
    out.emit(TripleEvent::QuizStarted {
        round: 1,
        questions,
    });
}

/// The quiz round's reveal: patterns decided, a tie round, or the end.
pub(super) fn quiz_reveal(out: &mut Emitter<Triple>, time_up: bool) {
    let t = out.next();
    let Phase::Quiz {
        round,
        questions,
        answers,
        ..
    } = &t.phase
    else {
        return;
    };
    let (round, questions) = (*round, questions.clone());
    let n = questions.len();
    let answers = answers.map(|a| a.clone().unwrap_or_else(|| vec![Answer::Pass; n]));
    let truths: Vec<bool> = questions
        .iter()
        .map(|q| t.cores[q.pattern.index()].obeys(&q.koan))
        .collect();
    let mut won: [Option<Option<Seat>>; 3] = [None; 3];
    for l in Letter::ALL {
        let asked: Vec<usize> = (0..n).filter(|&i| questions[i].pattern == l).collect();
        if asked.is_empty() {
            continue;
        }
        let right = |s: usize| {
            asked
                .iter()
                .filter(|&&i| answers.values()[s][i].is_correct(truths[i]))
                .count()
        };
        let silent = asked
            .iter()
            .all(|&i| answers.values().iter().all(|a| a[i] == Answer::Pass));
        won[l.index()] = match right(0).cmp(&right(1)) {
            std::cmp::Ordering::Greater => Some(Some(Seat::FIRST)),
            std::cmp::Ordering::Less => Some(Some(Seat::SECOND)),
            std::cmp::Ordering::Equal if round > 1 && silent => Some(None),
            std::cmp::Ordering::Equal => None,
        };
    }
    let tied: Vec<Letter> = Letter::ALL
        .into_iter()
        .filter(|l| questions.iter().any(|q| q.pattern == *l) && won[l.index()].is_none())
        .collect();
    out.emit(TripleEvent::QuizRevealed {
        round,
        answers,
        truths,
        time_up,
        won,
    });
    let t = out.next();
    if tied.is_empty() {
        let outcome = quiz_outcome(t);
        out.emit(ended(t, outcome));
        return;
    }
    let mut taken: Vec<Koan> = t.table.iter().map(|e| e.koan.clone()).collect();
    taken.extend(questions.iter().map(|q| q.koan.clone()));
    let formulas: Vec<_> = tied
        .iter()
        .map(|l| (*l, &t.cores[l.index()].hidden.formula))
        .collect();
    let questions = tie_round(
        t.settings().set,
        t.seating.seed,
        round + 1,
        &taken,
        &formulas,
    );
    out.emit(TripleEvent::QuizStarted {
        round: round + 1,
        questions,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::zendo::testing::parsed;

    #[test]
    fn quiz_structures_repeat_per_seed_and_avoid_the_table() {
        let set = PieceSet::Arrows;
        let a = first_round(set, 3, &[], &[Letter::A, Letter::C]);
        assert_eq!(a, first_round(set, 3, &[], &[Letter::A, Letter::C]));
        assert_eq!(a.len(), FIRST_ROUND * 2);
        let first = a[0].koan.clone();
        let b = first_round(set, 3, std::slice::from_ref(&first), &[Letter::A]);
        assert!(b.iter().all(|q| q.koan != first));
    }

    #[test]
    fn tie_rounds_are_harder_more_pieces_on_the_boundary() {
        let p = parsed("some piece points up");
        let qs = tie_round(PieceSet::Arrows, 9, 2, &[], &[(Letter::B, &p.formula)]);
        assert_eq!(qs.len(), TIE_ROUND);
        for q in &qs {
            assert_eq!(q.pattern, Letter::B);
            assert_eq!(q.koan.len(), 5, "{}", q.koan.to_line());
            assert!(on_boundary(&q.koan, &p.formula), "{}", q.koan.to_line());
        }
        // Two arrows up: removing or turning one leaves one up, so it is not on the
        // boundary; one arrow up next to one right is.
        let koan = crate::rules::zendo::testing::koan;
        assert!(!on_boundary(&koan("UU"), &p.formula));
        assert!(on_boundary(&koan("UR"), &p.formula));
    }
}
