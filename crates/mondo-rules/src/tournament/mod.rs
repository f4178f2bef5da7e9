//! Tournaments (docs/tournaments.md): sign-up, seeding, groups, pairings, standings,
//! playoffs and a champion, as a fold over events like a match. Pure: `now` comes in
//! with every act; deadlines come out as data; whoever runs the matches reports their
//! results as acts.
//!
//! A tournament's players take seats at the start, in seed order (seat 0 is the first
//! seed): by rating in the stage's game, the unrated last, then by sign-up order. The
//! events name players; the fold keeps seats, so a replaced player's seat (with its
//! results) passes to whoever replaces them.

mod act;
mod event;
pub mod pairing;
mod standings;
#[cfg(test)]
mod tests;

pub use act::{AI_FILL, Act, Refusal};
pub use event::{Event, Format, Millis, Opened, Outcome, Seed, Settings, Stage};
pub use standings::{Row, Tiebreaks, group_standings, standings};

use crate::rules::PlayerId;
use serde::Serialize;

/// Someone who signed up.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Signup {
    pub player: PlayerId,
    pub name: String,
    pub at: Millis,
}

/// A seat of a started tournament: who holds it and whether they withdrew.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Seat {
    pub player: PlayerId,
    pub name: String,
    pub rating: Option<f64>,
    pub withdrawn: bool,
}

/// Groups are lettered A, B, ... (then by number past Z).
pub fn group_letter(g: usize) -> String {
    match u8::try_from(g).ok().filter(|g| *g < 26) {
        Some(g) => char::from(b'A' + g).to_string(),
        None => (g + 1).to_string(),
    }
}

/// How a pairing was decided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The seat won (on the board, or by a host's settling).
    Won(usize),
    Draw,
    /// These seats did not show (or withdrew); if one did, the other wins.
    Forfeit(Vec<usize>),
    /// A seat without an opponent this round: a win.
    Bye,
}

/// One match (or best-of series) of a round: seat `a` is the higher seed, who holds
/// the DM Advantage; no `b` is a bye.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    pub a: usize,
    pub b: Option<usize>,
    /// The group (0-based) of a group-stage match.
    pub group: Option<usize>,
    /// A bracket match's place in its round (0-based), whose winner goes on to place
    /// `slot / 2` of the next.
    pub slot: Option<usize>,
    /// The games played: the winner's seat (None: a draw), each side's game score,
    /// the match's id.
    pub games: Vec<Played>,
    /// The matches opened for it, the latest last (see [`Event::MatchOpened`]).
    pub opened: Vec<i64>,
    pub decided: Option<Decision>,
}

/// A game played at a table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Played {
    pub winner: Option<usize>,
    pub score: Option<[i64; 2]>,
    pub match_id: Option<i64>,
}

impl Table {
    pub fn seats(&self) -> impl Iterator<Item = usize> + '_ {
        std::iter::once(self.a).chain(self.b)
    }

    /// Who goes on (a bracket): the winner, the one who showed, or nobody.
    pub fn winner(&self) -> Option<usize> {
        match self.decided.as_ref()? {
            Decision::Won(s) => Some(*s),
            Decision::Bye => Some(self.a),
            Decision::Forfeit(absent) => self.seats().find(|s| !absent.contains(s)),
            Decision::Draw => None,
        }
    }

    /// Half points won by `seat` here (win 2, draw 1, loss or no show 0).
    pub fn half_points(&self, seat: usize) -> u32 {
        match &self.decided {
            Some(Decision::Draw) => 1,
            Some(_) if self.winner() == Some(seat) => 2,
            _ => 0,
        }
    }

    /// The other seat of the table.
    pub fn opponent(&self, seat: usize) -> Option<usize> {
        if seat == self.a { self.b } else { Some(self.a) }
    }

    /// The sum of `seat`'s game scores here.
    pub fn game_score(&self, seat: usize) -> i64 {
        let side = usize::from(seat != self.a);
        self.games
            .iter()
            .filter_map(|g| g.score)
            .map(|s| s[side])
            .sum()
    }
}

/// A round: its number (from 1), stage, tables, deadline.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Round {
    pub number: u32,
    pub stage: Stage,
    pub tables: Vec<Table>,
    pub opened_at: Millis,
    pub deadline: Millis,
    /// Whether its reminder was sent.
    pub reminded: bool,
}

impl Round {
    pub fn is_done(&self) -> bool {
        self.tables.iter().all(|t| t.decided.is_some())
    }
}

/// A tournament, as its events left it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tournament {
    pub name: String,
    pub host: PlayerId,
    pub settings: Settings,
    pub created_at: Millis,
    pub signups: Vec<Signup>,
    /// Empty until the start; then in seed order.
    pub seats: Vec<Seat>,
    /// The groups' seats, in seed order (the groups format).
    pub groups: Vec<Vec<usize>>,
    pub rounds: Vec<Round>,
    pub paused_at: Option<Millis>,
    /// Set at the end: the champion's seat (None: nobody, every finalist gone).
    pub finished: Option<Option<usize>>,
    /// Every event so far, for the history.
    #[serde(skip)]
    pub log: Vec<Event>,
}

impl Tournament {
    pub fn is_started(&self) -> bool {
        !self.seats.is_empty()
    }

    /// The seat `player` holds.
    pub fn seat_of(&self, player: PlayerId) -> Option<usize> {
        self.seats.iter().position(|s| s.player == player)
    }

    /// The round being played, if its tables are not all decided.
    pub fn open_round(&self) -> Option<&Round> {
        self.rounds.last().filter(|r| !r.is_done())
    }

    /// When the open round's deadline falls, unless the tournament is paused.
    pub fn next_deadline(&self) -> Option<Millis> {
        if self.paused_at.is_some() || self.finished.is_some() {
            return None;
        }
        self.open_round().map(|r| r.deadline)
    }

    /// When the open round's reminder is due (see [`Settings::remind_before`]): once
    /// a round, never while paused.
    pub fn next_reminder(&self) -> Option<Millis> {
        let before = self.settings.remind_before();
        let round = self.open_round().filter(|r| !r.reminded && before > 0)?;
        self.next_deadline()?;
        Some(round.deadline.saturating_sub(before).max(round.opened_at))
    }

    /// The champion, once there is one.
    pub fn champion(&self) -> Option<&Seat> {
        self.finished.flatten().and_then(|s| self.seats.get(s))
    }

    fn table_mut(&mut self, round: u32, table: usize) -> Option<&mut Table> {
        self.rounds
            .iter_mut()
            .find(|r| r.number == round)
            .and_then(|r| r.tables.get_mut(table))
    }

    /// Folds one event in. Events are checked when made ([`Tournament::act`]); one
    /// that names what is not there changes nothing.
    pub fn apply(&mut self, e: &Event) {
        self.log.push(e.clone());
        match e {
            Event::Created { .. } => {}
            Event::Joined { player, name, at } => self.signups.push(Signup {
                player: *player,
                name: name.clone(),
                at: *at,
            }),
            Event::Left { player, .. } => self.signups.retain(|s| s.player != *player),
            Event::Started { seeds, groups, .. } => {
                self.seats = seeds
                    .iter()
                    .map(|s| Seat {
                        player: s.player,
                        name: self
                            .signups
                            .iter()
                            .find(|u| u.player == s.player)
                            .map_or_else(|| s.player.0.to_string(), |u| u.name.clone()),
                        rating: s.rating,
                        withdrawn: false,
                    })
                    .collect();
                self.groups = groups.clone();
            }
            Event::RoundOpened {
                round,
                stage,
                tables,
                deadline,
                at,
            } => {
                let tables = tables
                    .iter()
                    .filter_map(|o| {
                        let a = self.seat_of(*o.players.first()?)?;
                        let b = o.players.get(1).and_then(|p| self.seat_of(*p));
                        Some(Table {
                            a,
                            b,
                            group: o.group,
                            slot: o.slot,
                            games: Vec::new(),
                            opened: Vec::new(),
                            decided: b.is_none().then_some(Decision::Bye),
                        })
                    })
                    .collect();
                self.rounds.push(Round {
                    number: *round,
                    stage: *stage,
                    tables,
                    opened_at: *at,
                    deadline: *deadline,
                    reminded: false,
                });
            }
            Event::MatchOpened {
                round,
                table,
                match_id,
                ..
            } => {
                if let Some(t) = self.table_mut(*round, *table) {
                    t.opened.push(*match_id);
                }
            }
            Event::MatchResult {
                round,
                table,
                result,
                score,
                match_id,
                ..
            } => {
                let winner = self.outcome_seat(result);
                let need = self.wins_needed(*round);
                if let Some(t) = self.table_mut(*round, *table) {
                    t.games.push(Played {
                        winner,
                        score: *score,
                        match_id: *match_id,
                    });
                    decide(t, need);
                }
            }
            Event::Forfeit {
                round,
                table,
                absent,
                ..
            }
            | Event::Settled {
                round,
                table,
                result: Outcome::Forfeit { absent },
                ..
            } => {
                let absent: Vec<usize> = absent.iter().filter_map(|p| self.seat_of(*p)).collect();
                if let Some(t) = self.table_mut(*round, *table) {
                    t.decided = Some(Decision::Forfeit(absent));
                }
            }
            Event::Settled {
                round,
                table,
                result,
                ..
            } => {
                let decision = match self.outcome_seat(result) {
                    Some(s) => Decision::Won(s),
                    None => Decision::Draw,
                };
                if let Some(t) = self.table_mut(*round, *table) {
                    t.decided = Some(decision);
                }
            }
            Event::Reminded { round, .. } => {
                if let Some(r) = self.rounds.iter_mut().find(|r| r.number == *round) {
                    r.reminded = true;
                }
            }
            Event::Withdrawn { player, .. } => {
                if let Some(s) = self.seat_of(*player) {
                    self.seats[s].withdrawn = true;
                }
            }
            Event::Replaced { old, new, name, .. } => {
                if let Some(s) = self.seat_of(*old) {
                    self.seats[s].player = *new;
                    self.seats[s].name = name.clone();
                    self.seats[s].rating = None;
                }
            }
            Event::Paused { at } => self.paused_at = Some(*at),
            Event::Resumed { at } => {
                if let Some(since) = self.paused_at.take() {
                    let gone = at.saturating_sub(since);
                    if let Some(r) = self.rounds.last_mut().filter(|r| !r.is_done()) {
                        r.deadline += gone;
                    }
                }
            }
            Event::Finished { champion, .. } => {
                self.finished = Some(champion.and_then(|p| self.seat_of(p)));
            }
        }
    }

    fn outcome_seat(&self, result: &Outcome) -> Option<usize> {
        match result {
            Outcome::Win { winner } => self.seat_of(*winner),
            _ => None,
        }
    }

    /// Wins that decide a table of `round`: a bracket's best of N needs N/2+1; every
    /// other match is one game.
    fn wins_needed(&self, round: u32) -> usize {
        let bracket = self
            .rounds
            .iter()
            .find(|r| r.number == round)
            .is_some_and(|r| r.stage.is_bracket());
        if bracket {
            usize::from(self.settings.best_of.max(1)) / 2 + 1
        } else {
            1
        }
    }
}

/// Decides a table from its games: a bracket's match once a side has `need` wins (a
/// draw is played again); any other match by its one game.
fn decide(t: &mut Table, need: usize) {
    if t.decided.is_some() {
        return;
    }
    if need <= 1 && t.games.len() == 1 && t.slot.is_none() {
        t.decided = Some(match t.games[0].winner {
            Some(s) => Decision::Won(s),
            None => Decision::Draw,
        });
        return;
    }
    for s in t.seats().collect::<Vec<_>>() {
        if t.games.iter().filter(|g| g.winner == Some(s)).count() >= need {
            t.decided = Some(Decision::Won(s));
        }
    }
}

/// What a finished match of `players` (the table's order) counts for at its table: a
/// win or a draw by its places; None when it counts for no rating (aborted,
/// abandoned: who showed decides it at the deadline).
pub fn outcome_of(
    finish: Option<&crate::rules::Finish>,
    players: [PlayerId; 2],
) -> Option<Outcome> {
    let Some(crate::rules::Finish::Placed { places, .. }) = finish else {
        return None;
    };
    let place = |p: PlayerId| places.iter().find(|(q, _)| *q == p).map(|(_, n)| *n);
    match (place(players[0]), place(players[1])) {
        (Some(a), Some(b)) if a < b => Some(Outcome::Win { winner: players[0] }),
        (Some(a), Some(b)) if b < a => Some(Outcome::Win { winner: players[1] }),
        (Some(_), Some(_)) => Some(Outcome::Draw),
        _ => None,
    }
}
