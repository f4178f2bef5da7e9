//! The umpire at work: a request settles the deadlines that passed, then the move is
//! checked against the rules and answered with events, each folded into a scratch state
//! as it is made.

use super::view::shown;
use super::*;

impl Bluffs {
    /// Checks a request at `now` and says what happens: first whatever deadlines passed
    /// before `now`, then the move. The state does not change; fold the events.
    pub fn decide(&self, who: Who, m: &Move, now: Millis) -> Result<Vec<Event>, Error> {
        if self.is_over() {
            return Err(Error::Over);
        }
        let mut s = Out {
            game: self.clone(),
            events: Vec::new(),
        };
        s.settle(now);
        match (who, m) {
            (Who::Umpire, Move::Tick) => return Ok(s.events),
            (Who::Umpire, _) => return Err(Error::NotForUmpire),
            (Who::Player(_), Move::Tick) => return Err(Error::UmpireOnly),
            _ => {}
        }
        if s.game.is_over() {
            return Err(Error::Over);
        }
        let Who::Player(seat) = who else {
            return Err(Error::NotForUmpire);
        };
        s.rule(seat, m, now)?;
        Ok(s.events)
    }

    /// Check 4: the move fits the phase the match is in at `now`, once the deadlines
    /// that passed before it are settled (a Reveal that ended a moment ago is already
    /// the next Bluffing). A match those deadlines end is left to [`Bluffs::decide`],
    /// which says it is over.
    pub fn check_phase(&self, m: &Move, now: Millis) -> Result<(), Error> {
        let mut s = Out {
            game: self.clone(),
            events: Vec::new(),
        };
        s.settle(now);
        if s.game.is_over() {
            return Ok(());
        }
        s.game.fits_phase(m)
    }

    /// Whether the move is made in the current phase (a resignation and the umpire's
    /// tick fit any).
    fn fits_phase(&self, m: &Move) -> Result<(), Error> {
        let expected = match m {
            Move::Bluff { .. } => PhaseName::Bluffing,
            Move::Detect { .. } | Move::Claim { .. } => PhaseName::Claiming,
            Move::Reveal { .. } | Move::DeclareGuess | Move::Guess { .. } | Move::Pass => {
                PhaseName::Reveal
            }
            Move::Resign | Move::Tick => return Ok(()),
        };
        if self.phase == expected {
            Ok(())
        } else {
            Err(Error::WrongPhase {
                expected,
                now: self.phase,
            })
        }
    }

    /// Decides and moves on.
    pub fn play(&mut self, who: Who, m: &Move, now: Millis) -> Result<Vec<Event>, Error> {
        let events = self.decide(who, m, now)?;
        for e in &events {
            self.fold(e)?;
        }
        Ok(events)
    }
}

/// A scratch state and the events that led to it.
struct Out {
    game: Bluffs,
    events: Vec<Event>,
}

impl Out {
    fn emit(&mut self, at: Millis, kind: EventKind) {
        let e = Event { at, kind };
        // Events made here are well-formed by construction (seats 0 and 1).
        let folded = self.game.fold(&e);
        debug_assert_eq!(folded, Ok(()), "{e:?}");
        if folded.is_ok() {
            self.events.push(e);
        }
    }

    fn phase(&mut self, at: Millis, round: u32, phase: PhaseName) {
        let st = &self.game.setup.settings;
        let len = match phase {
            PhaseName::Bluffing => st.bluffing_ms,
            PhaseName::Claiming => st.claiming_ms,
            _ => st.reveal_ms,
        };
        self.emit(
            at,
            EventKind::PhaseBegan {
                round,
                phase,
                deadline: at + len,
            },
        );
    }

    /// Everything due by `now`, in order.
    fn settle(&mut self, now: Millis) {
        while !self.game.is_over() {
            let g = &self.game;
            match g.phase {
                PhaseName::Bluffing | PhaseName::Claiming => {
                    let out: Vec<Seat> = SEATS
                        .into_iter()
                        .filter(|s| g.owes(*s) && g.out_of_time_at(*s) <= now)
                        .collect();
                    let Some(first) = out.iter().map(|s| g.out_of_time_at(*s)).min() else {
                        return;
                    };
                    let losers: Vec<Seat> = out
                        .into_iter()
                        .filter(|s| g.out_of_time_at(*s) == first)
                        .collect();
                    let (winner, ending) = if losers.len() == 2 {
                        (None, Ending::BothOutOfTime)
                    } else {
                        (Some(losers[0].other()), Ending::OpponentOutOfTime)
                    };
                    let layout = g.layout;
                    self.emit(
                        first,
                        EventKind::Ended {
                            winner,
                            ending,
                            layout,
                            judged: None,
                        },
                    );
                }
                PhaseName::Reveal => {
                    let mut due: Vec<(Seat, Millis)> = SEATS
                        .into_iter()
                        .filter_map(|s| g.reveal_until(s).map(|t| (s, t)))
                        .filter(|(_, t)| *t <= now)
                        .collect();
                    // In time order: the phase ends at the last of them.
                    due.sort_by_key(|(_, t)| *t);
                    if due.is_empty() {
                        return;
                    }
                    for (seat, at) in due {
                        self.emit(
                            at,
                            EventKind::Passed {
                                seat,
                                time_up: true,
                            },
                        );
                    }
                    self.end_reveal_if_done();
                }
                PhaseName::Over => return,
            }
        }
    }

    fn rule(&mut self, seat: Seat, m: &Move, now: Millis) -> Result<(), Error> {
        self.game.fits_phase(m)?;
        match m {
            Move::Bluff {
                subset,
                statements,
                no_limit,
                smokescreen,
            } => self.bluff(seat, subset, statements, *no_limit, *smokescreen, now),
            Move::Detect { statement } => self.detect(seat, *statement, now),
            Move::Claim { marks } => self.claim(seat, marks, now),
            Move::Reveal { tiles } => self.buy(seat, tiles, now),
            Move::DeclareGuess => {
                self.pending_reveal(seat, "acted in Reveal")?;
                self.not_revealing(seat)?;
                if matches!(self.game.reveal[seat.index()], RevealState::Declared { .. }) {
                    return Err(Error::AlreadyDone("declared a guess"));
                }
                let until = self.game.deadline + self.game.setup.settings.guess_extra_ms;
                self.emit(now, EventKind::GuessDeclared { seat, until });
                Ok(())
            }
            Move::Guess { layout } => {
                self.pending_reveal(seat, "acted in Reveal")?;
                self.not_revealing(seat)?;
                self.emit(
                    now,
                    EventKind::Guessed {
                        seat,
                        layout: *layout,
                    },
                );
                self.end_reveal_if_done();
                Ok(())
            }
            Move::Pass => {
                self.pending_reveal(seat, "acted in Reveal")?;
                self.emit(
                    now,
                    EventKind::Passed {
                        seat,
                        time_up: false,
                    },
                );
                self.end_reveal_if_done();
                Ok(())
            }
            Move::Resign => {
                let layout = self.game.layout;
                self.emit(
                    now,
                    EventKind::Ended {
                        winner: Some(seat.other()),
                        ending: Ending::Resigned,
                        layout,
                        judged: None,
                    },
                );
                Ok(())
            }
            Move::Tick => Err(Error::UmpireOnly),
        }
    }

    fn pending_reveal(&self, seat: Seat, what: &'static str) -> Result<(), Error> {
        match self.game.reveal[seat.index()] {
            RevealState::Pending | RevealState::Revealing | RevealState::Declared { .. } => Ok(()),
            RevealState::Guessed { .. } | RevealState::Done => Err(Error::AlreadyDone(what)),
        }
    }

    /// A layout guess is instead of reveals: refused once some were bought.
    fn not_revealing(&self, seat: Seat) -> Result<(), Error> {
        match self.game.reveal[seat.index()] {
            RevealState::Revealing => Err(RevealProblem::Bought.into()),
            _ => Ok(()),
        }
    }

    fn item(&self, seat: Seat, item: Item) -> Result<(), Error> {
        if self.game.items[seat.index()].used(item) {
            return Err(Error::ItemUsed(item));
        }
        Ok(())
    }

    /// The seat submits in Bluffing or Claiming at `now`: reserve used past the
    /// phase's deadline.
    fn submitted(&mut self, seat: Seat, now: Millis) {
        let reserve_used = now.saturating_sub(self.game.deadline);
        self.emit(now, EventKind::Submitted { seat, reserve_used });
    }

    fn bluff(
        &mut self,
        seat: Seat,
        subset: &str,
        statements: &[String],
        no_limit: bool,
        smokescreen: Option<usize>,
        now: Millis,
    ) -> Result<(), Error> {
        let i = seat.index();
        if self.game.bluffs[i].is_some() {
            return Err(Error::AlreadyDone("bluffed"));
        }
        if no_limit {
            self.item(seat, Item::NoLimit)?;
        }
        if let Some(n) = smokescreen {
            self.item(seat, Item::Smokescreen)?;
            if !(1..=STATEMENTS).contains(&n) {
                return Err(Error::NoSuchStatement(n));
            }
        }
        let subset: Subset = subset.parse().map_err(SubsetProblem::Notation)?;
        // No Limit lifts all three restrictions: any tiles, connected or not, as many
        // as the board has, whatever they share with the previous subset.
        if !no_limit {
            subset.check_shape().map_err(SubsetProblem::Notation)?;
            if let Some(prev) = &self.game.previous[i] {
                let shared = subset.shared(prev);
                let limit = subset.len() / 2;
                if shared >= limit {
                    return Err(SubsetProblem::SharesTooMuch {
                        subset,
                        previous: prev.clone(),
                        shared,
                    }
                    .into());
                }
            }
        }
        if statements.len() != STATEMENTS {
            return Err(Error::StatementCount(statements.len()));
        }
        let max_words = self.game.setup.settings.max_words;
        let mut read = Vec::new();
        let mut truths = Vec::new();
        for (k, text) in statements.iter().enumerate() {
            let n = k + 1;
            let (st, verdict) =
                statement::judge(text, &subset, max_words).map_err(|e| Error::Unreadable {
                    n,
                    message: e.to_string(),
                })?;
            if !verdict.valid {
                return Err(Error::Refused {
                    n,
                    reason: verdict.reason.unwrap_or_default(),
                });
            }
            truths.push(tiles::truth(&st, &subset, &self.game.layout));
            read.push(verdict.statement);
        }
        self.submitted(seat, now);
        self.emit(
            now,
            EventKind::Bluffed {
                seat,
                subset,
                statements: read,
                truths,
                no_limit,
                smokescreen,
            },
        );
        if self.game.bluffs.iter().all(Option::is_some) {
            self.end_bluffing(now);
        }
        Ok(())
    }

    fn end_bluffing(&mut self, now: Millis) {
        let per = self.game.setup.settings.rp_per_true;
        for seat in SEATS {
            let Some(b) = self.game.bluffs[seat.index()].clone() else {
                continue;
            };
            let gained = b.truths.iter().filter(|t| **t).count() as u32 * per;
            self.emit(
                now,
                EventKind::TruthTold {
                    seat,
                    truths: b.truths.clone(),
                    gained,
                },
            );
            let shown = shown(&b);
            self.emit(
                now,
                EventKind::Shown {
                    seat,
                    subset: shown.subset,
                    statements: shown.statements,
                },
            );
        }
        let round = self.game.round;
        self.phase(now, round, PhaseName::Claiming);
    }

    /// The opposing bluff (Claiming always has both).
    fn opposing(&self, seat: Seat) -> Option<&Bluff> {
        self.game.bluffs[seat.other().index()].as_ref()
    }

    fn detect(&mut self, seat: Seat, n: usize, now: Millis) -> Result<(), Error> {
        self.item(seat, Item::Detective)?;
        if self.game.marks[seat.index()].is_some() {
            return Err(Error::AlreadyDone("marked"));
        }
        let Some(b) = self.opposing(seat) else {
            return Err(Error::NoSuchStatement(n));
        };
        if b.smokescreen == Some(n) {
            return Err(Error::Smokescreened(n));
        }
        let Some(truth) = (n >= 1).then(|| b.truths.get(n - 1)).flatten().copied() else {
            return Err(Error::NoSuchStatement(n));
        };
        self.emit(
            now,
            EventKind::Detected {
                seat,
                statement: n,
                truth,
            },
        );
        Ok(())
    }

    fn claim(&mut self, seat: Seat, marks: &[Option<bool>], now: Millis) -> Result<(), Error> {
        let i = seat.index();
        if self.game.marks[i].is_some() {
            return Err(Error::AlreadyDone("marked"));
        }
        let Some(b) = self.opposing(seat) else {
            return Err(MarksProblem::NoBluff.into());
        };
        if marks.len() != STATEMENTS {
            return Err(MarksProblem::Count(marks.len()).into());
        }
        let detected = self.game.detected[i];
        for (k, m) in marks.iter().enumerate() {
            let n = k + 1;
            let unmarkable = if b.smokescreen == Some(n) {
                Some(MarksProblem::Smokescreened(n))
            } else if detected == Some(n) {
                Some(MarksProblem::Detected(n))
            } else {
                None
            };
            match (unmarkable, m) {
                (Some(why), Some(_)) => return Err(why.into()),
                (None, None) => return Err(MarksProblem::Unmarked(n).into()),
                _ => {}
            }
        }
        self.submitted(seat, now);
        self.emit(
            now,
            EventKind::Marked {
                seat,
                marks: marks.to_vec(),
            },
        );
        if self.game.marks.iter().all(Option::is_some) {
            self.end_claiming(now);
        }
        Ok(())
    }

    fn end_claiming(&mut self, now: Millis) {
        let per = self.game.setup.settings.rp_per_right_mark;
        for seat in SEATS {
            let (Some(marks), Some(b)) = (
                self.game.marks[seat.index()].clone(),
                self.opposing(seat).cloned(),
            ) else {
                continue;
            };
            let right = marks
                .iter()
                .zip(&b.truths)
                .filter(|(m, t)| **m == Some(**t))
                .count() as u32;
            self.emit(
                now,
                EventKind::ClaimScored {
                    seat,
                    right,
                    gained: right * per,
                },
            );
        }
        let round = self.game.round;
        self.phase(now, round, PhaseName::Reveal);
    }

    fn buy(&mut self, seat: Seat, cells: &[Cell], now: Millis) -> Result<(), Error> {
        self.pending_reveal(seat, "acted in Reveal")?;
        let i = seat.index();
        if matches!(self.game.reveal[i], RevealState::Declared { .. }) {
            return Err(RevealProblem::Declared.into());
        }
        if self.game.barred[i] {
            return Err(RevealProblem::Barred.into());
        }
        if cells.is_empty() {
            return Err(RevealProblem::NoTile.into());
        }
        let mut seen = Vec::new();
        for c in cells {
            if seen.contains(c) {
                return Err(RevealProblem::Twice(*c).into());
            }
            if self.game.known[i].contains(c) {
                return Err(RevealProblem::Known(*c).into());
            }
            seen.push(*c);
        }
        let st = &self.game.setup.settings;
        let cost = st.reveal_cost * cells.len() as u32;
        let rp = self.game.rp[i];
        if cost > rp {
            return Err(RevealProblem::TooDear {
                count: cells.len(),
                cost,
                each: st.reveal_cost,
                rp,
            }
            .into());
        }
        let layout = self.game.layout;
        self.emit(
            now,
            EventKind::Revealed {
                seat,
                tiles: cells.iter().map(|c| (*c, layout.colour(*c))).collect(),
                cost,
            },
        );
        self.end_reveal_if_done();
        Ok(())
    }

    /// Once neither player can act any more: judge guesses, count reveals, and either
    /// end the match or start the next round.
    fn end_reveal_if_done(&mut self) {
        let g = &self.game;
        if SEATS.into_iter().any(|s| g.reveal_until(s).is_some()) {
            return;
        }
        let at = self.events.last().map_or(g.deadline, |e| e.at);
        let layout = g.layout;
        let mut right: Vec<(Seat, Millis)> = Vec::new();
        let mut wrong = Vec::new();
        for seat in SEATS {
            if let RevealState::Guessed { layout: guess, at } = g.reveal[seat.index()] {
                if guess == layout {
                    right.push((seat, at));
                } else {
                    wrong.push((seat, g.rp[seat.index()]));
                }
            }
        }
        let counts = [g.bought[0], g.bought[1]];
        let round = g.round;
        for (seat, lost) in wrong {
            self.emit(at, EventKind::GuessWrong { seat, lost });
        }
        self.emit(at, EventKind::RevealsCounted { counts });
        // Both right: more RP, then the earlier submission; equal in both (the same
        // millisecond) favours neither seat, so no winner.
        right.sort_by_key(|(s, t)| (std::cmp::Reverse(self.game.rp[s.index()]), *t));
        if let Some((winner, _)) = right.first() {
            let tied = right.get(1).is_some_and(|(s, t)| {
                self.game.rp[s.index()] == self.game.rp[winner.index()] && *t == right[0].1
            });
            self.emit(
                at,
                EventKind::Ended {
                    winner: (!tied).then_some(*winner),
                    ending: Ending::Guessed,
                    layout,
                    judged: None,
                },
            );
            return;
        }
        self.phase(at, round + 1, PhaseName::Bluffing);
    }
}
