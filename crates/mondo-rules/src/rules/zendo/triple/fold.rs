//! Folding the log: how each event changes a Triple. A replay runs only this (it
//! never runs the finder or draws a structure again), so each event is checked to
//! fit the state it is folded into; a misfit is a corrupt log.

use super::{Letter, Phase, Step, Triple, TripleEvent, TripleOrigin};
use crate::rules::zendo::{Counterexample, ZendoEvent};
use crate::rules::{BySeat, Clock, FoldError};

impl Triple {
    /// Counts the turns that ran out in step 1 with nothing done, in a row and per
    /// side; a side's own count begins again when it acts (`IDLE_OWN_TURNS`).
    pub(super) fn count_idle_turns(&mut self, event: &TripleEvent) {
        use crate::rules::Game;
        match event {
            TripleEvent::TurnEnded {
                seat,
                why: crate::rules::zendo::TurnEnd::TimeUp,
            } if matches!(
                self.phase,
                Phase::Turn {
                    step: Step::Build,
                    ..
                }
            ) =>
            {
                self.idle_turns += 1;
                self.missed[seat.index()] += 1;
            }
            _ => {
                if let Some(seat) = self.acted_by(event) {
                    self.idle_turns = 0;
                    self.missed[seat.index()] = 0;
                }
            }
        }
    }

    /// Applies one event of the log.
    pub(super) fn fold_event(&mut self, event: &TripleEvent) -> Result<(), FoldError> {
        match event {
            TripleEvent::TripleCreated { .. } => {
                return Err(self.seating.ledger.misfit("a match is created only once"));
            }
            TripleEvent::StarterChosen { .. } => {
                if self.choosing().is_none() {
                    return Err(self.seating.ledger.misfit("the starter was already chosen"));
                }
            }
            TripleEvent::TurnStarted { turn, seat } => {
                self.turn = *turn;
                self.clock = Clock::stopped(self.timing.turn_ms);
                self.set_step(*seat, Step::Build);
            }
            TripleEvent::Graded { by, koan, marks } => {
                let (seat, step) = self.step()?;
                if seat != *by || *step != Step::Build {
                    return Err(self.seating.ledger.misfit("step 1 is not in progress"));
                }
                self.push(koan.clone(), *marks, TripleOrigin::Graded { by: seat });
                self.set_step(seat, Step::Guess);
            }
            TripleEvent::ChallengeOpened { by, koan, patterns } => {
                let (seat, step) = self.step()?;
                if seat != *by || *step != Step::Build {
                    return Err(self.seating.ledger.misfit("step 1 is not in progress"));
                }
                let step = Step::Challenge {
                    koan: koan.clone(),
                    patterns: patterns.clone(),
                    answers: BySeat::new(2, None),
                    clock: Clock::stopped(self.timing.challenge_ms),
                };
                self.set_step(seat, step);
            }
            TripleEvent::ChallengeAnswered { seat, answers } => {
                let Some(given) = answers else {
                    return Err(self
                        .seating
                        .ledger
                        .misfit("challenge answers without their content"));
                };
                match &mut self.phase {
                    Phase::Turn {
                        step: Step::Challenge { answers, .. },
                        ..
                    } if answers.get(*seat).is_some() => answers[*seat] = Some(given.clone()),
                    _ => return Err(self.seating.ledger.misfit("no challenge is open")),
                }
            }
            TripleEvent::ChallengeRevealed { answers, marks, .. } => {
                let (seat, step) = self.step()?;
                let Step::Challenge { koan, patterns, .. } = step else {
                    return Err(self.seating.ledger.misfit("no challenge is open"));
                };
                let (koan, patterns) = (koan.clone(), patterns.clone());
                if answers.len() != 2 {
                    return Err(self
                        .seating
                        .ledger
                        .misfit("a challenge has two answer sheets"));
                }
                for (s, sheet) in answers.iter() {
                    let right = patterns
                        .iter()
                        .zip(sheet)
                        .filter(|(l, a)| marks[l.index()].is_some_and(|m| a.is_correct(m)))
                        .count();
                    self.stones[s] += right as u32;
                }
                let origin = TripleOrigin::Challenged {
                    by: seat,
                    patterns,
                    answers: answers.clone(),
                };
                self.push(koan, *marks, origin);
                self.set_step(seat, Step::Guess);
            }
            TripleEvent::Pattern { pattern, zendo } => self.fold_pattern(*pattern, zendo)?,
            TripleEvent::Solved {
                pattern, by, guess, ..
            } => {
                let i = pattern.index();
                let ended = ZendoEvent::MatchEnded {
                    outcome: crate::rules::zendo::Outcome::Solved {
                        by: *by,
                        guess: *guess,
                    },
                    pattern: String::new(),
                };
                self.cores[i].fold(&ended, &mut self.seating.ledger)?;
                self.solved[i] = Some(*by);
                let (seat, _) = self.step()?;
                self.set_step(seat, Step::Guess);
            }
            TripleEvent::TurnEnded { seat, .. } => {
                if self.step()?.0 != *seat {
                    return Err(self.seating.ledger.misfit("it is not that player's turn"));
                }
            }
            TripleEvent::PlayStopped => {
                self.game_clock = Clock::stopped(0);
            }
            TripleEvent::QuizStarted { round, questions } => {
                self.phase = Phase::Quiz {
                    round: *round,
                    questions: questions.clone(),
                    answers: BySeat::new(2, None),
                    clock: Clock::stopped(self.timing.quiz_ms),
                };
                self.seating.ledger.enter();
            }
            TripleEvent::QuizAnswered { seat, answers } => {
                if let Some(a) = self.quiz_answered.get_mut(seat.index()) {
                    *a = true;
                }
                let Some(given) = answers else {
                    return Err(self
                        .seating
                        .ledger
                        .misfit("quiz answers without their content"));
                };
                match &mut self.phase {
                    Phase::Quiz { answers, .. } if answers.get(*seat).is_some() => {
                        answers[*seat] = Some(given.clone())
                    }
                    _ => return Err(self.seating.ledger.misfit("no quiz round is open")),
                }
            }
            TripleEvent::QuizRevealed { won, .. } => {
                for (i, w) in won.iter().enumerate() {
                    if w.is_some() {
                        self.quiz_won[i] = *w;
                    }
                }
            }
            TripleEvent::TripleEnded { outcome, .. } => {
                self.outcome = Some(*outcome);
                self.phase = Phase::Over;
                self.seating.ledger.enter();
            }
        }
        Ok(())
    }

    /// A guess's life on one pattern: the shared umpire folds the guess; the Triple
    /// folds stones, steps, the table and the +30 s.
    fn fold_pattern(&mut self, l: Letter, event: &ZendoEvent) -> Result<(), FoldError> {
        let i = l.index();
        let (seat, step) = self.step()?;
        let step = step.clone();
        match event {
            ZendoEvent::GuessRead { by, .. } => {
                if seat != *by
                    || !matches!(step, Step::Build | Step::Guess)
                    || self.stones(seat) == 0
                {
                    return Err(self.seating.ledger.misfit("no stone to pay for the guess"));
                }
                self.cores[i].fold(event, &mut self.seating.ledger)?;
                let number = self.cores[i].guesses.len() as u32;
                self.stones[seat] -= 1;
                self.set_step(
                    seat,
                    Step::Pending {
                        pattern: l,
                        guess: number,
                    },
                );
            }
            ZendoEvent::GuessConfirmed { number } => {
                if step
                    != (Step::Pending {
                        pattern: l,
                        guess: *number,
                    })
                {
                    return Err(self.seating.ledger.misfit("that guess is not pending"));
                }
                self.cores[i].fold(event, &mut self.seating.ledger)?;
                self.set_step(
                    seat,
                    Step::Verdict {
                        pattern: l,
                        guess: *number,
                    },
                );
            }
            ZendoEvent::GuessWithdrawn { number, .. }
            | ZendoEvent::GuessUndecided { number, .. } => {
                match step {
                    Step::Pending { pattern, guess } | Step::Verdict { pattern, guess }
                        if pattern == l && guess == *number => {}
                    _ => return Err(self.seating.ledger.misfit("that guess is not in play")),
                }
                self.cores[i].fold(event, &mut self.seating.ledger)?;
                self.stones[seat] += 1;
                self.set_step(seat, Step::Guess);
            }
            ZendoEvent::Refuted {
                number,
                counterexample,
                on_table,
            } => {
                if step
                    != (Step::Verdict {
                        pattern: l,
                        guess: *number,
                    })
                {
                    return Err(self
                        .seating
                        .ledger
                        .misfit("that guess is not awaiting a verdict"));
                }
                // A new structure joins the shared table, marked on this pattern only;
                // the pattern's own table then names it. One already on the table but
                // never graded on this pattern (the finder names a tabled structure
                // only when no other separates) gets this pattern's mark there.
                let on_table = match on_table {
                    Some(n) => *n,
                    None => self.table_counterexample(l, *number, counterexample)?,
                };
                let named = ZendoEvent::Refuted {
                    number: *number,
                    counterexample: counterexample.clone(),
                    on_table: Some(on_table),
                };
                self.cores[i].fold(&named, &mut self.seating.ledger)?;
                self.clock.add(self.timing.counterexample_bonus_ms);
                self.set_step(seat, Step::Guess);
            }
            ZendoEvent::Observed { .. } | ZendoEvent::MatchEnded { .. } => {
                return Err(self
                    .seating
                    .ledger
                    .misfit("not an event of one pattern's guesses"));
            }
        }
        Ok(())
    }

    /// Where an umpire's counterexample to a guess on pattern `l` goes on the shared
    /// table (its number): a new structure joins it, marked on this pattern only. One
    /// already on the table but never graded on this pattern (the finder names a
    /// tabled structure only when no other separates) gets this pattern's mark there;
    /// one already graded on it cannot be the umpire's answer.
    fn table_counterexample(
        &mut self,
        l: Letter,
        guess: u32,
        counterexample: &Counterexample,
    ) -> Result<u32, FoldError> {
        let i = l.index();
        let Some(entry) = self
            .table
            .iter_mut()
            .find(|e| e.koan == counterexample.koan)
        else {
            let mut marks = [None; 3];
            marks[i] = Some(counterexample.hidden);
            let origin = TripleOrigin::Counterexample { pattern: l, guess };
            return Ok(self.push(counterexample.koan.clone(), marks, origin));
        };
        if entry.marks[i].is_some() {
            return Err(self
                .seating
                .ledger
                .misfit("the counterexample is already on the table"));
        }
        entry.marks[i] = Some(counterexample.hidden);
        let number = entry.number;
        self.cores[i].table.push_numbered(
            number,
            counterexample.koan.clone(),
            counterexample.hidden,
            crate::rules::zendo::Origin::Initial,
        );
        Ok(number)
    }
}
