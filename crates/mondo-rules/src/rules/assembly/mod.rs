//! # Pattern Assembly (and Pattern Assembly Plus): the rule book
//!
//! The memory race as players read it in docs/games/assembly.md; notation, shapes and
//! generation are `crate::grid` (the same page, "The grid, groups and shapes"). Every
//! rule is enforced in this file (what a host may set, in `settings.rs`) and tested in
//! its `tests` module under the name in brackets. Durations are [`Timing`] settings;
//! the defaults are the original game's.
//!
//! **Setup**
//! - One player (solo practice: the same rounds against the clock, scored) or two
//!   different players. A seed draws the grid (each cell uniform) and every round's
//!   targets from groups that exist in it, so no round is without a solution.
//!   `[setup_draws_a_grid_and_solvable_rounds]`, `[solo_practice_plays_the_same_rounds]`
//! - Shape sizes by round are a setting (default 3, 4, 5, 6 for rounds 1-5, 6-10,
//!   11-15, 16-20). `[shape_sizes_grow_by_round]`
//!
//! **Reveals**
//! - The grid is shown for 30 s before round 1 and after rounds 5, 10 and 15, then
//!   hidden; views show it only then (and after the end).
//!   `[the_grid_is_shown_only_in_reveal_windows]`
//!
//! **Rounds**
//! - 20 rounds of 3 minutes; no turns, both players answer at will, only while a round
//!   runs. `[answers_only_while_a_round_runs]`
//! - Every answer starts a 30-s waiting period for its player; answers during it are
//!   disregarded and told so, privately (a refusal to that player alone).
//!   `[an_answer_waits_and_answers_meanwhile_are_disregarded]`
//! - At the end of the wait: wrong shape (contents not revealed), or the contents
//!   revealed and, if they match, the round is won (points = group size).
//!   `[the_wait_ends_with_a_verdict]`
//! - A right answer voids the opponent's pending one. `[a_win_voids_the_opponents_pending_answer]`
//! - At the round's end pending answers resolve, earlier first (by the time they were
//!   sent). `[round_end_resolves_pending_answers_earlier_first]`
//! - A round nobody wins is skipped. `[a_round_nobody_wins_is_skipped]`
//! - Scores are announced after every round. (the `RoundEnded` event, in the tests
//!   above)
//! - Wrong shapes: the seed's rule change (the default, and Plus's only rule) makes
//!   every answer wait, a wrong shape included, which is then announced without its
//!   contents; a host may keep the first rule instead (a setting): a wrong shape is
//!   announced at once, with no waiting period (the player may answer again at once).
//!   `[wrong_shape_rule_original_and_plus]`
//!
//! **Fairness of a race**
//! - An answer carries the time its player sent it (on Discord the interaction's
//!   snowflake time); its waiting period runs from then, so of two answers that arrive
//!   close together the one sent first resolves first. The time is trusted only
//!   within [`MAX_SKEW`] before arrival, and never before the round began.
//!   `[near_simultaneous_answers_are_ordered_by_send_time]`
//!
//! **Showdown**
//! - Each player privately submits a reconstruction of the grid (blanks allowed)
//!   within 5 minutes; once all have submitted, or time is up, all are revealed. All
//!   filled cells right scores the number filled; any wrong cell scores 0.
//!   `[showdown_scores_all_right_or_nothing]`
//! - Most points wins; a tie goes to more correct cells in the showdown; then a draw.
//!   `[ties_go_to_more_correct_showdown_cells]`
//!
//! **Plus**
//! - N x M grid (up to 26 x 20); several targets per round (1 point each); a found
//!   target is discarded and answers matching it afterwards are wrong; a round ends
//!   when all are found or after 5 minutes. `[plus_several_targets_discard_and_end]`
//! - A Plus answer's verdict says only whether it matches one of the round's groups
//!   still to find, and which: a wrong one reveals neither its contents nor whether
//!   its shape was right. `[plus_wrong_answers_reveal_nothing_of_their_contents]`
//! - The showdown covers a region the host names (before it opens; default the whole
//!   grid), for 2 minutes, +1 per right symbol and -1 per wrong one.
//!   `[plus_showdown_scores_plus_one_minus_one_on_a_region]`
//! - A host may re-reveal the grid or change it: either takes effect between rounds
//!   (after the current round ends), a changed grid is revealed and the remaining
//!   rounds are drawn from it. `[plus_host_re_reveals_and_changes_the_grid]`
//!
//! **Shared**
//! - Pause (all clocks stop), resume, end by a host, resign (the opponent wins; solo
//!   simply ends), downtime after a restart: `rules` (the ordered checks).
//!   `[pause_stops_every_clock]`, `[resigning_hands_the_win_to_the_opponent]`
//! - Views and announcements keep secrets: the grid outside reveals, the targets'
//!   example solutions, another player's showdown before the reveal.
//!   `[views_and_announcements_keep_secrets]`
//! - A match is its log: replaying the events gives the same state.
//!   `[replay_rebuilds_the_match]`

mod section;
mod settings;
mod state;
mod view;

pub use section::AssemblyConfig as Section;
pub use settings::{Settings, Timing, WrongShape};
pub use state::{Ask, Assembly, AssemblySetup, Outcome, Pending, Phase, ShowdownScore};
pub use view::{AssemblyView, PhaseView, TargetView};

use crate::grid::{
    Contents, Grid, Group, Reconstruction, Region, Shape, Target, Verdict, generate_grid,
    generate_targets, judge,
};
use crate::rules::{
    self, BySeat, Clock, Emitter, FoldError, Game, Millis, Move, NoWork, PlayerId, Role, RuleError,
    Seat, Seating, Secret, SetupError, Viewer, Who,
};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

crate::rules::game_types! {
    Assembly: Assembly, clocked: true, deadline: Deadline, work: NoWork,
    setup: AssemblySetup, moves: AssemblyMove, events: AssemblyEvent::AssemblyCreated,
}

/// How far before its arrival an answer's send time is believed (a client's clock, or
/// a slow network, is not allowed to buy more than this).
pub const MAX_SKEW: Millis = 5_000;

/// A player's own moves, and the host's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "move", rename_all = "snake_case")]
pub enum AssemblyMove {
    /// An answer for the current round, sent by its player at `sent` (None: now).
    Answer { cells: Group, sent: Option<Millis> },
    /// The player's showdown reconstruction (of the showdown region).
    Showdown { grid: Reconstruction },
    /// Host (Plus): show the grid again after the current round.
    Rereveal,
    /// Host (Plus): a new grid after the current round (drawn from the match's seed).
    ChangeGrid,
    /// Host (Plus): the part of the grid the showdown covers.
    SetRegion { region: Region },
}

impl Move for AssemblyMove {
    fn role(&self) -> Role {
        match self {
            AssemblyMove::Answer { .. } | AssemblyMove::Showdown { .. } => Role::Player,
            _ => Role::Host,
        }
    }

    fn describe(&self) -> &'static str {
        match self {
            AssemblyMove::Answer { .. } => "answer",
            AssemblyMove::Showdown { .. } => "submit a showdown grid",
            AssemblyMove::Rereveal => "reveal the grid again",
            AssemblyMove::ChangeGrid => "change the grid",
            AssemblyMove::SetRegion { .. } => "name the showdown region",
        }
    }
}

/// The game's own events.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum AssemblyEvent {
    AssemblyCreated {
        setup: AssemblySetup,
    },
    /// The grid is shown for `ms`.
    Revealed {
        grid: Grid,
        ms: Millis,
    },
    Hidden,
    RoundStarted {
        number: u8,
        asks: Vec<Ask>,
    },
    /// An answer entered its waiting period (public, as the host would announce it).
    Answered {
        seat: Seat,
        cells: Group,
        sent: Millis,
    },
    /// An answer's verdict; `target` is the round's target it found.
    Resolved {
        seat: Seat,
        cells: Group,
        verdict: Verdict,
        /// The answer's contents, unless its shape is wrong.
        contents: Option<Contents>,
        target: Option<u8>,
        points: i32,
    },
    /// A pending answer disregarded because the opponent won the round.
    Voided {
        seat: Seat,
    },
    /// Scores after the round; `won` is false for a skipped round.
    RoundEnded {
        number: u8,
        won: bool,
        scores: BySeat<i32>,
    },
    /// Host (Plus): queued for after the current round.
    RerevealQueued {
        by: PlayerId,
    },
    ChangeQueued {
        by: PlayerId,
    },
    RegionSet {
        region: Region,
    },
    /// A new grid, and the rounds still to play drawn from it (secret).
    GridChanged {
        grid: Option<Grid>,
        rounds: Option<Vec<Vec<Target>>>,
    },
    ShowdownOpened {
        region: Region,
        ms: Millis,
    },
    /// A showdown is in (its grid only for its player until the reveal).
    ShowdownSubmitted {
        seat: Seat,
        grid: Option<Reconstruction>,
    },
    ShowdownScored {
        submitted: BySeat<Option<Reconstruction>>,
        results: BySeat<ShowdownScore>,
        scores: BySeat<i32>,
    },
    MatchEnded {
        outcome: Outcome,
        grid: Grid,
        scores: BySeat<i32>,
        /// The fair-play rule's verdict on a duel (docs/ratings.md), when it does not
        /// let the outcome stand: a side that sent no showdown, or resigned before
        /// acting. Absent in matches stored before it was kept.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        judged: Option<rules::fair::Verdict>,
    },
}

/// What happens at a deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "which", rename_all = "snake_case")]
pub enum Which {
    /// The match begins (at once): the first reveal.
    Begin,
    RevealEnds,
    RoundEnds,
    ShowdownEnds,
    /// A player's waiting period ends.
    Wait {
        seat: Seat,
        sent: Millis,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Deadline {
    pub at: Millis,
    /// Reveals, rounds and showdown counted together (a deadline of an earlier stage
    /// is stale).
    pub stage: u32,
    pub which: Which,
}

rules::deadline!(Deadline);

/// Draws grid number `n` of a match and its rounds `from..` (1-based), none asking
/// what `earlier` (the rounds before `from`) asked.
fn draw(
    seed: u64,
    n: u32,
    settings: &Settings,
    from: u8,
    earlier: &[Vec<Target>],
) -> (Grid, Vec<Vec<Target>>) {
    let mut rng =
        Xoshiro256PlusPlus::seed_from_u64(seed ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let grid = generate_grid(settings.dims, &mut rng);
    let sizes: Vec<u8> = (from..=settings.rounds)
        .map(|r| settings.size_of(r))
        .collect();
    let asked: Vec<(Shape, Contents)> = earlier
        .iter()
        .flatten()
        .map(|t| (t.shape.clone(), t.contents))
        .collect();
    let rounds = generate_targets(&grid, &sizes, settings.targets as usize, &asked, &mut rng);
    (grid, rounds)
}

impl Assembly {
    pub fn settings(&self) -> &Settings {
        &self.setup.settings
    }

    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    pub fn scores(&self) -> &BySeat<i32> {
        &self.scores
    }

    pub fn is_solo(&self) -> bool {
        self.seating.players.len() == 1
    }

    /// The current round's targets.
    pub fn targets(&self) -> &[Target] {
        match self.phase {
            Phase::Round { number, .. } => self
                .rounds
                .get(number as usize - 1)
                .map_or(&[], Vec::as_slice),
            _ => &[],
        }
    }

    pub fn winner(&self) -> Option<Seat> {
        match self.phase {
            Phase::Over(Outcome::Finished { winner }) => winner,
            Phase::Over(Outcome::Resigned { by }) if !self.is_solo() => Some(by.other()),
            _ => None,
        }
    }

    fn asks(&self, number: u8) -> Vec<Ask> {
        self.rounds
            .get(number as usize - 1)
            .map(|ts| {
                ts.iter()
                    .map(|t| Ask {
                        shape: t.shape.clone(),
                        contents: t.contents,
                        points: self.settings().points(t),
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The verdict on `cells` in the current round: against every target not yet
    /// found; a found target's match is wrong (its contents are said). In Plus a
    /// wrong answer is only "no match".
    fn verdict(&self, cells: &Group) -> (Verdict, Option<u8>) {
        let (verdict, target) = self.full_verdict(cells);
        match verdict {
            Verdict::Right => (verdict, target),
            _ if self.settings().plus => (Verdict::NoMatch, None),
            _ => (verdict, target),
        }
    }

    /// [`Self::verdict`] before Plus keeps a wrong answer's details to itself.
    fn full_verdict(&self, cells: &Group) -> (Verdict, Option<u8>) {
        let mut best = Verdict::WrongShape;
        for (i, t) in self.targets().iter().enumerate() {
            match judge(&self.grid, &t.shape, t.contents, cells) {
                Verdict::Right if !self.found.get(i).copied().unwrap_or(true) => {
                    return (Verdict::Right, Some(i as u8));
                }
                Verdict::WrongShape => {}
                _ => best = Verdict::WrongContents(Contents::of(&self.grid, cells)),
            }
        }
        (best, None)
    }

    /// Resolves `seat`'s pending answer; true if it won the (original) round or found
    /// the last target.
    fn resolve(&self, out: &mut Emitter<Assembly>, seat: Seat) -> bool {
        let Some(p) = out.next().pending[seat].clone() else {
            return false;
        };
        let (verdict, target) = out.next().verdict(&p.cells);
        let points = target
            .and_then(|i| out.next().targets().get(i as usize))
            .map_or(0, |t| self.settings().points(t));
        let contents = matches!(verdict, Verdict::Right | Verdict::WrongContents(_))
            .then(|| Contents::of(&self.grid, &p.cells));
        out.emit(AssemblyEvent::Resolved {
            seat,
            cells: p.cells,
            verdict,
            contents,
            target,
            points,
        });
        if verdict != Verdict::Right {
            return false;
        }
        let done = out.next().found.iter().all(|f| *f);
        if !self.settings().plus || done {
            // The round is over: the others' pending answers are void.
            for (other, pending) in out.next().pending.clone().iter() {
                if pending.is_some() && other != seat {
                    out.emit(AssemblyEvent::Voided { seat: other });
                }
            }
        }
        done
    }

    /// Ends the current round and goes on to what follows it.
    fn end_round(&self, out: &mut Emitter<Assembly>, number: u8) {
        let won = out.next().found.iter().any(|f| *f);
        out.emit(AssemblyEvent::RoundEnded {
            number,
            won,
            scores: out.next().scores.clone(),
        });
        self.after_round(out, number);
    }

    fn after_round(&self, out: &mut Emitter<Assembly>, number: u8) {
        let s = self.settings();
        let mut reveal = s.reveal_after.contains(&number) || out.next().rereveal;
        if out.next().change && number < s.rounds {
            let done = (number as usize).min(out.next().rounds.len());
            let earlier = &out.next().rounds[..done];
            let (grid, rounds) = draw(self.setup.seed, out.next().grids, s, number + 1, earlier);
            out.emit(AssemblyEvent::GridChanged {
                grid: Some(grid),
                rounds: Some(rounds),
            });
            reveal = true;
        }
        if number >= s.rounds {
            self.open_showdown(out);
        } else if reveal {
            out.emit(AssemblyEvent::Revealed {
                grid: out.next().grid.clone(),
                ms: s.timing.reveal,
            });
        } else {
            self.start_round(out, number + 1);
        }
    }

    fn start_round(&self, out: &mut Emitter<Assembly>, number: u8) {
        out.emit(AssemblyEvent::RoundStarted {
            number,
            asks: out.next().asks(number),
        });
    }

    fn open_showdown(&self, out: &mut Emitter<Assembly>) {
        out.emit(AssemblyEvent::ShowdownOpened {
            region: out.next().region,
            ms: self.settings().timing.showdown,
        });
    }

    /// Scores the showdown and ends the match.
    fn score_showdown(&self, out: &mut Emitter<Assembly>) {
        let s = out.next();
        let results = s.showdown.map(|r| match r {
            None => ShowdownScore::default(),
            Some(r) => {
                let (right, wrong) = r.mark(&s.grid, s.region);
                let filled = right + wrong;
                let points = if s.settings().plus {
                    right as i32 - wrong as i32
                } else if wrong == 0 {
                    filled as i32
                } else {
                    0
                };
                ShowdownScore {
                    filled,
                    right,
                    wrong,
                    points,
                }
            }
        });
        let mut scores = s.scores.clone();
        for (seat, r) in results.iter() {
            scores[seat] += r.points;
        }
        out.emit(AssemblyEvent::ShowdownScored {
            submitted: s.showdown.clone(),
            results: results.clone(),
            scores: scores.clone(),
        });
        let winner = if scores.len() < 2 {
            None
        } else {
            let key = |seat: Seat| (scores[seat], results[seat].right);
            match key(Seat::FIRST).cmp(&key(Seat::SECOND)) {
                std::cmp::Ordering::Greater => Some(Seat::FIRST),
                std::cmp::Ordering::Less => Some(Seat::SECOND),
                std::cmp::Ordering::Equal => None,
            }
        };
        self.finish(out, Outcome::Finished { winner });
    }

    fn finish(&self, out: &mut Emitter<Assembly>, outcome: Outcome) {
        let next = out.next();
        let judged = match outcome {
            _ if next.is_solo() => None,
            Outcome::Finished { .. } => Some(rules::fair::judge(&rules::fair::sides(
                &next.seating,
                |s| next.showdown[s].is_none(),
            ))),
            Outcome::Resigned { by } => Some(rules::fair::judge(&rules::fair::sides(
                &next.seating,
                |s| s == by && !next.seating.has_acted(by),
            ))),
            Outcome::Ended { .. } => None,
        }
        .filter(|v| *v != rules::fair::Verdict::Stands);
        out.emit(AssemblyEvent::MatchEnded {
            outcome,
            grid: next.grid.clone(),
            scores: next.scores.clone(),
            judged,
        });
    }

    /// The time an answer counts as sent: the player's own time, believed within
    /// [`MAX_SKEW`] of `now` and never before the round began.
    fn sent_time(&self, sent: Option<Millis>, now: Millis) -> Millis {
        let started = match self.phase {
            Phase::Round { started, .. } => started,
            _ => now,
        };
        sent.unwrap_or(now)
            .min(now)
            .max(now.saturating_sub(MAX_SKEW))
            .max(started)
    }

    fn misfit(&self, why: &str) -> FoldError {
        self.seating.ledger.misfit(why)
    }
}

/// What a player hears when answering during their waiting period.
pub const WAITING: &str =
    "your answer is waiting for its result: answers during the waiting period are disregarded";
pub const NO_ROUND: &str = "no round is running: answer when the next round starts";
pub const NO_SHOWDOWN: &str = "the showdown is not open: it comes after the last round";

impl Game for Assembly {
    type Move = AssemblyMove;
    type View = AssemblyView;

    fn from_setup(setup: &AssemblySetup, now: Millis) -> Result<Assembly, SetupError> {
        match setup.players.as_slice() {
            [_] => {}
            [a, b] if a != b => {}
            [_, _] => return Err(SetupError::SamePlayer),
            _ => {
                return Err(SetupError::BadSettings(
                    "Pattern Assembly is for one player (practice) or two",
                ));
            }
        }
        let s = &setup.settings;
        s.check()?;
        let (grid, rounds) = draw(setup.seed, 0, s, 1, &[]);
        let seats = setup.players.len();
        Ok(Assembly {
            seating: Seating::new(now, setup.players.clone(), setup.seed),
            grid,
            rounds,
            phase: Phase::Between { next: 1 },
            stage: 0,
            clock: Clock::stopped(0),
            found: Vec::new(),
            pending: BySeat::new(seats, None),
            scores: BySeat::new(seats, 0),
            rereveal: false,
            change: false,
            grids: 1,
            region: s.region.unwrap_or(Region::all(s.dims)),
            showdown: BySeat::new(seats, None),
            results: None,
            setup: setup.clone(),
        })
    }

    rules::seating!();

    fn score(&self) -> Option<[i64; 2]> {
        let s = self.scores().values();
        Some([i64::from(*s.first()?), i64::from(*s.get(1)?)])
    }

    fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over(_))
    }

    fn finish(&self) -> Option<rules::Finish> {
        let Phase::Over(outcome) = self.phase else {
            return None;
        };
        let players = self.seating.players.values();
        let own = || rules::Finish::two(players, self.winner().map(|s| s.index()));
        Some(match outcome {
            Outcome::Ended { .. } => rules::Finish::Unrated(rules::Why::HostEnded),
            _ if self.is_solo() => rules::Finish::Solo {
                player: players[0],
                solved: matches!(outcome, Outcome::Finished { .. }),
                score: u32::try_from(self.scores[Seat::FIRST].max(0)).unwrap_or(0),
            },
            // A player who sent no showdown was idle at the end (blanks may be sent).
            Outcome::Finished { .. } => {
                rules::fair::settle(&self.seating, |s| self.showdown[s].is_none(), own())
            }
            Outcome::Resigned { by } => rules::fair::resigned(&self.seating, by, own()),
        })
    }

    fn acted_by(&self, event: &AssemblyEvent) -> Option<Seat> {
        match event {
            AssemblyEvent::Answered { seat, .. } | AssemblyEvent::Resolved { seat, .. } => {
                Some(*seat)
            }
            AssemblyEvent::ShowdownSubmitted {
                seat,
                grid: Some(_),
            } => Some(*seat),
            _ => None,
        }
    }

    fn listed_settings(&self) -> serde_json::Value {
        serde_json::to_value(self.settings()).unwrap_or_default()
    }

    fn check_turn(&self, _seat: Seat, _m: &AssemblyMove) -> Result<(), RuleError> {
        // No turns: both players answer at will.
        Ok(())
    }

    fn check_phase(&self, m: &AssemblyMove, now: Millis) -> Result<(), RuleError> {
        let plus_only = |ok: bool| {
            if ok {
                Ok(())
            } else {
                Err(RuleError::Unsupported(
                    "only Pattern Assembly Plus lets a host re-reveal, change the grid or name the showdown region",
                ))
            }
        };
        match (m, &self.phase) {
            (AssemblyMove::Answer { .. }, Phase::Round { .. }) => {
                if self.clock.has_expired(now) {
                    Err(RuleError::Expired("the round is over"))
                } else {
                    Ok(())
                }
            }
            (AssemblyMove::Answer { .. }, _) => Err(RuleError::WrongPhase(NO_ROUND)),
            (AssemblyMove::Showdown { .. }, Phase::Showdown) => {
                if self.clock.has_expired(now) {
                    Err(RuleError::Expired("the showdown is over"))
                } else {
                    Ok(())
                }
            }
            (AssemblyMove::Showdown { .. }, _) => Err(RuleError::WrongPhase(NO_SHOWDOWN)),
            (AssemblyMove::Rereveal | AssemblyMove::ChangeGrid, Phase::Showdown) => Err(
                RuleError::WrongPhase("the rounds are over: the showdown is open"),
            ),
            (AssemblyMove::Rereveal | AssemblyMove::ChangeGrid, _) => {
                plus_only(self.settings().plus)
            }
            (AssemblyMove::SetRegion { .. }, Phase::Showdown) => Err(RuleError::WrongPhase(
                "the showdown is already open: name its region before it opens",
            )),
            (AssemblyMove::SetRegion { .. }, _) => plus_only(self.settings().plus),
        }
    }

    fn rule(&self, out: &mut Emitter<Self>, who: Who, m: &AssemblyMove) -> Result<(), RuleError> {
        let now = out.at();
        match (m, who) {
            (AssemblyMove::Answer { cells, sent }, Who::Player(seat)) => {
                if cells
                    .cells()
                    .iter()
                    .any(|c| !self.settings().dims.contains(*c))
                {
                    return Err(RuleError::Unsupported("that group has cells off the grid"));
                }
                let sent = self.sent_time(*sent, now);
                if self.pending[seat].is_some() {
                    return Err(RuleError::WrongPhase(WAITING));
                }
                let wrong_shape = self.full_verdict(cells).0 == Verdict::WrongShape;
                if wrong_shape && !self.settings().wrong_shape_waits {
                    // The original rule: said at once, no waiting period.
                    out.emit(AssemblyEvent::Resolved {
                        seat,
                        cells: cells.clone(),
                        verdict: Verdict::WrongShape,
                        contents: None,
                        target: None,
                        points: 0,
                    });
                } else {
                    out.emit(AssemblyEvent::Answered {
                        seat,
                        cells: cells.clone(),
                        sent,
                    });
                }
                Ok(())
            }
            (AssemblyMove::Showdown { grid }, Who::Player(seat)) => {
                if grid.dims != self.region.dims() {
                    return Err(RuleError::Unsupported(
                        "that grid is not the size of the showdown region",
                    ));
                }
                out.emit(AssemblyEvent::ShowdownSubmitted {
                    seat,
                    grid: Some(grid.clone()),
                });
                if out.next().showdown.values().iter().all(Option::is_some) {
                    self.score_showdown(out);
                }
                Ok(())
            }
            (AssemblyMove::Rereveal, Who::Host(by)) => {
                out.emit(AssemblyEvent::RerevealQueued { by });
                Ok(())
            }
            (AssemblyMove::ChangeGrid, Who::Host(by)) => {
                out.emit(AssemblyEvent::ChangeQueued { by });
                Ok(())
            }
            (AssemblyMove::SetRegion { region }, Who::Host(_)) => {
                let d = self.settings().dims;
                if !(d.contains(region.top_left) && d.contains(region.bottom_right)) {
                    return Err(RuleError::Unsupported("that region is off the grid"));
                }
                out.emit(AssemblyEvent::RegionSet { region: *region });
                Ok(())
            }
            (m, _) => Err(RuleError::HostOnly(m.describe())),
        }
    }

    fn resign(&self, out: &mut Emitter<Assembly>, seat: Seat) -> Result<(), RuleError> {
        self.finish(out, Outcome::Resigned { by: seat });
        Ok(())
    }

    fn end(&self, out: &mut Emitter<Assembly>, by: PlayerId) {
        self.finish(out, Outcome::Ended { by });
    }

    fn time_out(&self, out: &mut Emitter<Assembly>, deadline: Deadline) {
        match (deadline.which, &self.phase) {
            (Which::Begin, Phase::Between { .. }) => out.emit(AssemblyEvent::Revealed {
                grid: self.grid.clone(),
                ms: self.settings().timing.reveal,
            }),
            (Which::RevealEnds, Phase::Reveal { next }) => {
                out.emit(AssemblyEvent::Hidden);
                if *next > self.settings().rounds {
                    self.open_showdown(out);
                } else {
                    self.start_round(out, *next);
                }
            }
            (Which::Wait { seat, .. }, Phase::Round { number, .. }) => {
                // The round ends with the win (or, in Plus, the last target found).
                let over = self.resolve(out, seat);
                if over {
                    self.end_round(out, *number);
                }
            }
            (Which::RoundEnds, Phase::Round { number, .. }) => {
                // Pending answers resolve, earlier first.
                let mut order: Vec<(Millis, Seat)> = self
                    .pending
                    .iter()
                    .filter_map(|(seat, p)| p.as_ref().map(|p| (p.sent, seat)))
                    .collect();
                order.sort();
                for (_, seat) in order {
                    // A win voids the answers after it.
                    if self.resolve(out, seat) {
                        break;
                    }
                }
                self.end_round(out, *number);
            }
            (Which::ShowdownEnds, Phase::Showdown) => self.score_showdown(out),
            // The engine only passes current deadlines.
            _ => {}
        }
    }

    fn next_deadline(&self) -> Option<Deadline> {
        if self.seating.ledger.paused {
            return None;
        }
        let phase = |which| {
            Some(Deadline {
                at: self.clock.expires_at()?,
                stage: self.stage,
                which,
            })
        };
        match self.phase {
            Phase::Reveal { .. } => phase(Which::RevealEnds),
            Phase::Showdown => phase(Which::ShowdownEnds),
            Phase::Round { .. } => {
                let end = phase(Which::RoundEnds)?;
                // The earliest waiting period that ends before the round does, the
                // earlier sent first; at the round's end the round end resolves them.
                self.pending
                    .iter()
                    .filter_map(|(seat, p)| {
                        let p = p.as_ref()?;
                        Some(Deadline {
                            at: p.wait.expires_at()?,
                            stage: self.stage,
                            which: Which::Wait { seat, sent: p.sent },
                        })
                    })
                    .filter(|d| d.at < end.at)
                    .min_by_key(|d| match d.which {
                        Which::Wait { sent, .. } => (d.at, sent),
                        _ => (d.at, 0),
                    })
                    .or(Some(end))
            }
            // Only a new match rests between stages: it begins at once.
            Phase::Between { .. } => Some(Deadline {
                at: self.seating.ledger.last_at,
                stage: self.stage,
                which: Which::Begin,
            }),
            Phase::Over(_) => None,
        }
    }

    fn fold_game(&mut self, event: &AssemblyEvent, at: Millis) -> Result<(), FoldError> {
        let t = self.settings().timing;
        match event {
            AssemblyEvent::AssemblyCreated { .. } => {
                return Err(self.misfit("a match is created only once"));
            }
            AssemblyEvent::Revealed { ms, .. } => {
                let next = match self.phase {
                    Phase::Between { next } => next,
                    _ => return Err(self.misfit("the grid is revealed only between rounds")),
                };
                self.phase = Phase::Reveal { next };
                self.enter(*ms);
            }
            AssemblyEvent::Hidden => {
                let Phase::Reveal { next } = self.phase else {
                    return Err(self.misfit("the grid is not shown"));
                };
                self.rereveal = false;
                self.phase = Phase::Between { next };
            }
            AssemblyEvent::RoundStarted { number, .. } => {
                if self.phase != (Phase::Between { next: *number }) {
                    return Err(self.misfit("that round does not come next"));
                }
                self.found = vec![false; self.rounds.get(*number as usize - 1).map_or(0, Vec::len)];
                self.phase = Phase::Round {
                    number: *number,
                    started: at,
                };
                self.enter(t.round);
            }
            AssemblyEvent::Answered { seat, cells, sent } => {
                if !matches!(self.phase, Phase::Round { .. }) {
                    return Err(self.misfit("no round is running"));
                }
                let mut wait = Clock::stopped(t.wait.saturating_sub(at.saturating_sub(*sent)));
                wait.set_running(!self.seating.ledger.paused, at);
                *self.pending_mut(*seat)? = Some(Pending {
                    cells: cells.clone(),
                    sent: *sent,
                    wait,
                });
            }
            AssemblyEvent::Resolved {
                seat,
                target,
                points,
                ..
            } => {
                *self.pending_mut(*seat)? = None;
                if let Some(i) = target {
                    let found = self
                        .found
                        .get_mut(*i as usize)
                        .ok_or_else(|| self.seating.ledger.misfit("no such target"))?;
                    *found = true;
                    self.scores[*seat] += points;
                }
            }
            AssemblyEvent::Voided { seat } => *self.pending_mut(*seat)? = None,
            AssemblyEvent::RoundEnded { number, .. } => {
                self.pending = BySeat::new(self.seating.players.len(), None);
                self.phase = Phase::Between { next: number + 1 };
            }
            AssemblyEvent::RerevealQueued { .. } => self.rereveal = true,
            AssemblyEvent::ChangeQueued { .. } => self.change = true,
            AssemblyEvent::RegionSet { region } => self.region = *region,
            AssemblyEvent::GridChanged { grid, rounds } => {
                let (Some(grid), Some(rounds), Phase::Between { next }) =
                    (grid, rounds, &self.phase)
                else {
                    return Err(self.misfit("a grid changes between rounds, with its rounds"));
                };
                self.grid = grid.clone();
                self.rounds.truncate(*next as usize - 1);
                self.rounds.extend(rounds.iter().cloned());
                self.change = false;
                self.grids += 1;
            }
            AssemblyEvent::ShowdownOpened { region, ms } => {
                self.region = *region;
                self.phase = Phase::Showdown;
                self.enter(*ms);
            }
            AssemblyEvent::ShowdownSubmitted { seat, grid } => {
                if self.phase != Phase::Showdown {
                    return Err(self.misfit("the showdown is not open"));
                }
                if seat.index() >= self.seating.players.len() {
                    return Err(self.misfit("no such seat"));
                }
                self.showdown[*seat] = grid.clone();
            }
            AssemblyEvent::ShowdownScored {
                results, scores, ..
            } => {
                self.results = Some(results.clone());
                self.scores = scores.clone();
            }
            AssemblyEvent::MatchEnded { outcome, .. } => {
                self.phase = Phase::Over(*outcome);
                self.pending = BySeat::new(self.seating.players.len(), None);
            }
        }
        Ok(())
    }

    fn skip_downtime(&mut self, from: Millis, to: Millis) {
        self.clock.skip(from, to);
        for seat in Seat::all(self.seating.players.len()) {
            if let Some(p) = &mut self.pending[seat] {
                p.wait.skip(from, to);
            }
        }
    }

    fn sync_clocks(&mut self, at: Millis) {
        let runs = !self.seating.ledger.paused
            && matches!(
                self.phase,
                Phase::Reveal { .. } | Phase::Round { .. } | Phase::Showdown
            );
        self.clock.set_running(runs, at);
        for seat in Seat::all(self.seating.players.len()) {
            if let Some(p) = &mut self.pending[seat] {
                p.wait.set_running(runs, at);
            }
        }
    }

    fn view(&self, viewer: &Viewer) -> AssemblyView {
        view::view(self, viewer)
    }

    fn secrets(&self, viewer: &Viewer) -> Vec<Secret> {
        if self.is_over() {
            return Vec::new();
        }
        let mut out = vec![Secret::Seed(self.setup.seed)];
        if !matches!(self.phase, Phase::Reveal { .. }) {
            out.push(Secret::Grid(Box::new(self.grid.clone())));
        }
        out.extend(Secret::others(
            self.seating.players.values().len(),
            self.viewer_seat(viewer),
        ));
        out
    }

    fn redact(&self, event: &AssemblyEvent, viewer: &Viewer) -> Option<AssemblyEvent> {
        match event {
            // The setup's seed draws the grid.
            AssemblyEvent::AssemblyCreated { .. } => None,
            // A reveal shows the grid while it lasts: heard once it is over (a replay,
            // a front catching up after a restart), it says nothing.
            AssemblyEvent::Revealed { .. }
                if !matches!(self.phase, Phase::Reveal { .. } | Phase::Over(_)) =>
            {
                None
            }
            AssemblyEvent::GridChanged { .. } => Some(AssemblyEvent::GridChanged {
                grid: None,
                rounds: None,
            }),
            AssemblyEvent::ShowdownSubmitted { seat, .. }
                if self.viewer_seat(viewer) != Some(*seat) =>
            {
                Some(AssemblyEvent::ShowdownSubmitted {
                    seat: *seat,
                    grid: None,
                })
            }
            _ => Some(event.clone()),
        }
    }

    /// Nothing to perform: the umpire of this game judges at once.
    fn perform(work: NoWork, _stop: Arc<AtomicBool>) -> AssemblyMove {
        work.never()
    }
}

impl Assembly {
    /// A new stage begins with a fresh phase clock of `ms`.
    fn enter(&mut self, ms: Millis) {
        self.stage += 1;
        self.seating.ledger.enter();
        self.clock = Clock::stopped(ms);
    }

    fn pending_mut(&mut self, seat: Seat) -> Result<&mut Option<Pending>, FoldError> {
        if seat.index() >= self.seating.players.len() {
            return Err(self.seating.ledger.misfit("no such seat"));
        }
        Ok(&mut self.pending[seat])
    }

    /// The showdown results, once scored.
    pub fn results(&self) -> Option<&BySeat<ShowdownScore>> {
        self.results.as_ref()
    }

    pub fn region(&self) -> Region {
        self.region
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn pending(&self, seat: Seat) -> Option<&Pending> {
        self.pending.get(seat).and_then(Option::as_ref)
    }

    pub fn found(&self) -> &[bool] {
        &self.found
    }

    /// Every round's targets, with their example solutions (secret: for tests, the
    /// benchmark and the umpire's own checks).
    pub fn rounds(&self) -> &[Vec<Target>] {
        &self.rounds
    }
}

#[cfg(test)]
mod tests;
