//! What players, hosts and the umpire do to a tournament: each act checked against
//! the tournament as it is, and turned into events; then whatever follows of itself
//! (the next round opening, byes and a withdrawn player's matches forfeited, the
//! champion) comes with them.

use super::pairing::{self, Standing};
use super::standings::{group_places, ranked_seats};
use super::{Event, Format, Millis, Opened, Outcome, Seed, Settings, Stage, Tournament};
use crate::rules::PlayerId;

/// Something done to a tournament.
#[derive(Clone, Debug, PartialEq)]
pub enum Act {
    Join {
        player: PlayerId,
        name: String,
    },
    /// Before the start, off the list; after it, a withdrawal.
    Leave {
        player: PlayerId,
    },
    /// The host closes sign-up; `ratings` are the players' ratings in the stage's game
    /// (the unrated are not in it). `fill` are AI players (id, name) who take the seats
    /// left empty, signed up as the tournament starts, when its settings allow them
    /// (`ai_fill`): the front chooses them (it knows how its AI seats are named).
    Start {
        by: PlayerId,
        ratings: Vec<(PlayerId, f64)>,
        fill: Vec<(PlayerId, String)>,
    },
    /// A game of a table ended (the umpire reports it).
    Report {
        round: u32,
        table: usize,
        result: Outcome,
        score: Option<[i64; 2]>,
        match_id: Option<i64>,
    },
    /// A match was opened for a table of the open round (the umpire says which).
    Link {
        round: u32,
        table: usize,
        match_id: i64,
    },
    /// The open round's deadline came: `showed` are the players who came to their
    /// match; a table with someone missing is forfeited.
    Deadline {
        showed: Vec<PlayerId>,
    },
    /// The open round's reminder is due: `showed` are the players who came to their
    /// match; the others of its undecided tables are reminded.
    Remind {
        showed: Vec<PlayerId>,
    },
    Withdraw {
        by: PlayerId,
        player: PlayerId,
    },
    Replace {
        by: PlayerId,
        old: PlayerId,
        new: PlayerId,
        name: String,
    },
    Settle {
        by: PlayerId,
        round: u32,
        table: usize,
        result: Outcome,
    },
    Pause {
        by: PlayerId,
    },
    Resume {
        by: PlayerId,
    },
}

/// Why an act was refused, in words a player or host can act on.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Refusal {
    #[error("a tournament's log must begin with its creation")]
    NotCreated,
    #[error("{0}")]
    Settings(String),
    #[error("the tournament has started: sign-up is closed")]
    Started,
    #[error("the tournament has not started yet")]
    NotStarted,
    #[error("the tournament is over")]
    Finished,
    #[error("sign-up closed at {0} ms on the game clock")]
    SignupClosed(Millis),
    #[error("{0} has already joined")]
    AlreadyIn(String),
    #[error("{0} is not in this tournament")]
    NotIn(String),
    #[error("only the host may do that")]
    NotHost,
    #[error("this format needs at least {needed} players; {have} have joined")]
    TooFew { needed: usize, have: usize },
    #[error("{0}")]
    TooManyRounds(String),
    #[error("the host did not allow AI players in this tournament")]
    NoAiFill,
    #[error("AI players fill the seats up to {most} players, no more")]
    TooMany { most: usize },
    #[error("round {round} has no table {table}")]
    NoTable { round: u32, table: usize },
    #[error("round {round}'s table {table} is already decided")]
    Decided { round: u32, table: usize },
    #[error("round {round} is over: only the open round's matches can change")]
    Closed { round: u32 },
    #[error("{0} does not play at that table")]
    NotAtTable(String),
    #[error("a match's result is a win or a draw; a forfeit comes from the deadline or a host")]
    ForfeitReported,
    #[error("the tournament is paused")]
    Paused,
    #[error("the tournament is not paused")]
    NotPaused,
    #[error("the round's deadline is at {0} ms; it is not due yet")]
    NotDue(Millis),
    #[error("no reminder is due")]
    NoReminder,
    #[error("no round is open")]
    NoRound,
}

/// How many players AI players may fill a tournament up to (`Settings::ai_fill`).
pub const AI_FILL: std::ops::RangeInclusive<u32> = 2..=64;

/// The fewest and most players a group may have.
pub const GROUP_SIZES: std::ops::RangeInclusive<u8> = 3..=6;

impl Tournament {
    /// The tournament its events make, the first being [`Event::Created`].
    pub fn from_events(events: &[Event]) -> Result<Tournament, Refusal> {
        let mut it = events.iter();
        let Some(Event::Created {
            name,
            host,
            settings,
            at,
        }) = it.next()
        else {
            return Err(Refusal::NotCreated);
        };
        let mut t = Tournament {
            name: name.clone(),
            host: *host,
            settings: settings.clone(),
            created_at: *at,
            signups: Vec::new(),
            seats: Vec::new(),
            groups: Vec::new(),
            rounds: Vec::new(),
            paused_at: None,
            finished: None,
            log: vec![events[0].clone()],
        };
        for e in it {
            t.apply(e);
        }
        Ok(t)
    }

    /// Checks a new tournament's settings; its first event.
    pub fn create(
        name: &str,
        host: PlayerId,
        settings: Settings,
        now: Millis,
    ) -> Result<Event, Refusal> {
        let bad = |s: String| Err(Refusal::Settings(s));
        if name.trim().is_empty() {
            return bad("a tournament needs a name".into());
        }
        match settings.format {
            Format::Groups { size, advance } => {
                if !GROUP_SIZES.contains(&size) {
                    return bad(format!("groups have 3 to 6 players, not {size}"));
                }
                if advance == 0 || advance >= size {
                    return bad(format!(
                        "the playoffs take the top 1 to {} of each group of {size}, not {advance}",
                        size - 1
                    ));
                }
            }
            Format::Swiss { rounds: 0 } => return bad("a Swiss needs at least one round".into()),
            _ => {}
        }
        if !matches!(settings.best_of, 1 | 3) {
            return bad(format!(
                "a playoff match is best of 1 or 3, not {}",
                settings.best_of
            ));
        }
        if settings.round_ms == 0 {
            return bad("a round needs some time before its deadline".into());
        }
        if let Some(n) = settings.ai_fill.filter(|n| !AI_FILL.contains(n)) {
            return bad(format!(
                "AI players fill a tournament up to {} to {} players, not {n}",
                AI_FILL.start(),
                AI_FILL.end()
            ));
        }
        Ok(Event::Created {
            name: name.trim().to_string(),
            host,
            settings,
            at: now,
        })
    }

    /// The events `act` makes at `now`, followed by what comes of itself; or why not.
    pub fn act(&self, act: &Act, now: Millis) -> Result<Vec<Event>, Refusal> {
        if self.finished.is_some() {
            return Err(Refusal::Finished);
        }
        let mut out = self.primary(act, now)?;
        let mut next = self.clone();
        for e in &out {
            next.apply(e);
        }
        loop {
            let more = next.follows(now);
            if more.is_empty() {
                break;
            }
            for e in &more {
                next.apply(e);
            }
            out.extend(more);
        }
        Ok(out)
    }

    fn name_of(&self, player: PlayerId) -> String {
        self.seat_of(player)
            .map(|s| self.seats[s].name.clone())
            .or_else(|| {
                self.signups
                    .iter()
                    .find(|s| s.player == player)
                    .map(|s| s.name.clone())
            })
            .unwrap_or_else(|| player.0.to_string())
    }

    fn host_only(&self, by: PlayerId) -> Result<(), Refusal> {
        if by == self.host {
            Ok(())
        } else {
            Err(Refusal::NotHost)
        }
    }

    fn started_only(&self) -> Result<(), Refusal> {
        if self.is_started() {
            Ok(())
        } else {
            Err(Refusal::NotStarted)
        }
    }

    fn primary(&self, act: &Act, now: Millis) -> Result<Vec<Event>, Refusal> {
        let at = now;
        match act {
            Act::Join { player, name } => {
                if self.is_started() {
                    return Err(Refusal::Started);
                }
                if let Some(until) = self.settings.signup_until.filter(|u| now >= *u) {
                    return Err(Refusal::SignupClosed(until));
                }
                if self.signups.iter().any(|s| s.player == *player) {
                    return Err(Refusal::AlreadyIn(self.name_of(*player)));
                }
                Ok(vec![Event::Joined {
                    player: *player,
                    name: name.clone(),
                    at,
                }])
            }
            Act::Leave { player } if !self.is_started() => {
                if !self.signups.iter().any(|s| s.player == *player) {
                    return Err(Refusal::NotIn(self.name_of(*player)));
                }
                Ok(vec![Event::Left {
                    player: *player,
                    at,
                }])
            }
            Act::Leave { player } => self.withdraw(*player, at),
            Act::Withdraw { by, player } => {
                self.host_only(*by)?;
                self.started_only()?;
                self.withdraw(*player, at)
            }
            Act::Start { by, ratings, fill } => {
                self.host_only(*by)?;
                if self.is_started() {
                    return Err(Refusal::Started);
                }
                if fill.is_empty() {
                    return Ok(vec![self.start(ratings, at)?]);
                }
                // The AI players sign up, then it starts: one act, all or nothing.
                let most = self.settings.ai_fill.ok_or(Refusal::NoAiFill)? as usize;
                if self.signups.len() + fill.len() > most {
                    return Err(Refusal::TooMany { most });
                }
                let mut t = self.clone();
                let mut out = Vec::new();
                for (player, name) in fill {
                    let joined = t.act(
                        &Act::Join {
                            player: *player,
                            name: name.clone(),
                        },
                        at,
                    )?;
                    joined.iter().for_each(|e| t.apply(e));
                    out.extend(joined);
                }
                out.push(t.start(ratings, at)?);
                Ok(out)
            }
            Act::Report {
                round,
                table,
                result,
                score,
                match_id,
            } => {
                self.started_only()?;
                if matches!(result, Outcome::Forfeit { .. }) {
                    return Err(Refusal::ForfeitReported);
                }
                self.open_table(*round, *table, result, false)?;
                Ok(vec![Event::MatchResult {
                    round: *round,
                    table: *table,
                    result: result.clone(),
                    score: *score,
                    match_id: *match_id,
                    at,
                }])
            }
            Act::Link {
                round,
                table,
                match_id,
            } => {
                self.started_only()?;
                // An undecided table of the open round (a bye is decided as it opens).
                self.open_table(*round, *table, &Outcome::Draw, false)?;
                Ok(vec![Event::MatchOpened {
                    round: *round,
                    table: *table,
                    match_id: *match_id,
                    at,
                }])
            }
            Act::Deadline { showed } => {
                self.started_only()?;
                if self.paused_at.is_some() {
                    return Err(Refusal::Paused);
                }
                let round = self.open_round().ok_or(Refusal::NoRound)?;
                if now < round.deadline {
                    return Err(Refusal::NotDue(round.deadline));
                }
                Ok(forfeits(round, now, |table| {
                    table
                        .seats()
                        .map(|s| self.seats[s].player)
                        .filter(|p| !showed.contains(p))
                        .collect()
                }))
            }
            Act::Remind { showed } => {
                let round = self.open_round().ok_or(Refusal::NoRound)?;
                if self.next_reminder().is_none_or(|due| now < due) {
                    return Err(Refusal::NoReminder);
                }
                let players = round
                    .tables
                    .iter()
                    .filter(|t| t.decided.is_none())
                    .flat_map(|t| t.seats())
                    .map(|s| self.seats[s].player)
                    .filter(|p| !showed.contains(p))
                    .collect();
                Ok(vec![Event::Reminded {
                    round: round.number,
                    players,
                    at,
                }])
            }
            Act::Replace { by, old, new, name } => {
                self.host_only(*by)?;
                self.started_only()?;
                if self.seat_of(*old).is_none() {
                    return Err(Refusal::NotIn(self.name_of(*old)));
                }
                if self.seat_of(*new).is_some() {
                    return Err(Refusal::AlreadyIn(self.name_of(*new)));
                }
                Ok(vec![Event::Replaced {
                    old: *old,
                    new: *new,
                    name: name.clone(),
                    at,
                }])
            }
            Act::Settle {
                by,
                round,
                table,
                result,
            } => {
                self.host_only(*by)?;
                self.started_only()?;
                self.open_table(*round, *table, result, true)?;
                Ok(vec![Event::Settled {
                    round: *round,
                    table: *table,
                    result: result.clone(),
                    at,
                }])
            }
            Act::Pause { by } => {
                self.host_only(*by)?;
                if self.paused_at.is_some() {
                    return Err(Refusal::Paused);
                }
                Ok(vec![Event::Paused { at }])
            }
            Act::Resume { by } => {
                self.host_only(*by)?;
                if self.paused_at.is_none() {
                    return Err(Refusal::NotPaused);
                }
                Ok(vec![Event::Resumed { at }])
            }
        }
    }

    /// Checks a result for a table: in the open round (a host may also settle a
    /// decided table of a round that put nobody out), naming its players.
    fn open_table(
        &self,
        round: u32,
        table: usize,
        result: &Outcome,
        settling: bool,
    ) -> Result<(), Refusal> {
        let r = self
            .rounds
            .iter()
            .find(|r| r.number == round)
            .ok_or(Refusal::NoTable { round, table })?;
        let t = r
            .tables
            .get(table)
            .ok_or(Refusal::NoTable { round, table })?;
        let open = self.open_round().is_some_and(|o| o.number == round);
        if !open && (!settling || r.stage.is_bracket()) {
            return Err(Refusal::Closed { round });
        }
        if t.decided.is_some() && !settling {
            return Err(Refusal::Decided { round, table });
        }
        let named: Vec<PlayerId> = match result {
            Outcome::Win { winner } => vec![*winner],
            Outcome::Forfeit { absent } => absent.clone(),
            Outcome::Draw => Vec::new(),
        };
        for p in named {
            if !self.seat_of(p).is_some_and(|s| t.seats().any(|x| x == s)) {
                return Err(Refusal::NotAtTable(self.name_of(p)));
            }
        }
        Ok(())
    }

    fn withdraw(&self, player: PlayerId, at: Millis) -> Result<Vec<Event>, Refusal> {
        let seat = self
            .seat_of(player)
            .ok_or_else(|| Refusal::NotIn(self.name_of(player)))?;
        if self.seats[seat].withdrawn {
            return Err(Refusal::NotIn(self.name_of(player)));
        }
        // The open round's match is forfeited at once; later ones as they open.
        let mut out = vec![Event::Withdrawn { player, at }];
        if let Some(r) = self.open_round() {
            out.extend(withdrawn_forfeits(r, &[seat], self, at));
        }
        Ok(out)
    }

    /// The start: the seeds and groups, checked against the format.
    fn start(&self, ratings: &[(PlayerId, f64)], at: Millis) -> Result<Event, Refusal> {
        let n = self.signups.len();
        let needed = match self.settings.format {
            Format::Groups { .. } => 3,
            _ => 2,
        };
        if n < needed {
            return Err(Refusal::TooFew { needed, have: n });
        }
        if let Format::Swiss { rounds } = self.settings.format {
            let most = if n.is_multiple_of(2) { n - 1 } else { n };
            if rounds as usize > most {
                return Err(Refusal::TooManyRounds(format!(
                    "{n} players can play at most {most} Swiss rounds without meeting twice, not {rounds}"
                )));
            }
        }
        let rating = |p: PlayerId| ratings.iter().find(|(q, _)| *q == p).map(|(_, r)| *r);
        let mut seeds: Vec<(usize, Seed)> = self
            .signups
            .iter()
            .enumerate()
            .map(|(k, s)| {
                (
                    k,
                    Seed {
                        player: s.player,
                        rating: rating(s.player),
                    },
                )
            })
            .collect();
        // The best rating first, the unrated last, then by sign-up order.
        seeds.sort_by(|(i, a), (j, b)| match (a.rating, b.rating) {
            (Some(x), Some(y)) => y.total_cmp(&x).then(i.cmp(j)),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => i.cmp(j),
        });
        let groups = match self.settings.format {
            Format::Groups { size, .. } => {
                pairing::snake(n, pairing::group_count(n, usize::from(size)))
            }
            _ => Vec::new(),
        };
        Ok(Event::Started {
            seeds: seeds.into_iter().map(|(_, s)| s).collect(),
            groups,
            at,
        })
    }

    /// What comes of itself now: the next round (or the end) once a round is done,
    /// and the forfeits of withdrawn players in a round just opened.
    fn follows(&self, now: Millis) -> Vec<Event> {
        if !self.is_started() || self.finished.is_some() || self.paused_at.is_some() {
            return Vec::new();
        }
        if let Some(r) = self.open_round() {
            let gone: Vec<usize> = (0..self.seats.len())
                .filter(|&s| self.seats[s].withdrawn)
                .collect();
            return withdrawn_forfeits(r, &gone, self, now);
        }
        let next = match self.settings.format {
            Format::RoundRobin => {
                let all: Vec<usize> = (0..self.seats.len()).collect();
                self.scheduled(&[all], Stage::RoundRobin)
            }
            Format::Swiss { rounds } => {
                (self.rounds.len() < rounds as usize).then(|| self.swiss_round())
            }
            Format::Groups { .. } => match self.scheduled(&self.groups, Stage::Groups) {
                Some(tables) => Some(tables),
                None => self.bracket_round(Stage::Playoffs),
            },
            Format::Single => self.bracket_round(Stage::SingleElimination),
        };
        let Some(tables) = next else {
            return vec![Event::Finished {
                champion: self.champion_now(),
                at: now,
            }];
        };
        let (stage, tables) = tables;
        vec![Event::RoundOpened {
            round: self.rounds.len() as u32 + 1,
            stage,
            tables,
            deadline: now + self.settings.round_ms,
            at: now,
        }]
    }

    fn players(&self, seats: impl IntoIterator<Item = usize>) -> Vec<PlayerId> {
        seats.into_iter().map(|s| self.seats[s].player).collect()
    }

    /// The next round of round robins among `groups` (seats), or None when they are
    /// all played.
    fn scheduled(&self, groups: &[Vec<usize>], stage: Stage) -> Option<(Stage, Vec<Opened>)> {
        let r = self.rounds.iter().filter(|r| r.stage == stage).count();
        let mut tables = Vec::new();
        for (g, seats) in groups.iter().enumerate() {
            let Some(round) = pairing::round_robin(seats).into_iter().nth(r) else {
                continue;
            };
            let group = (stage == Stage::Groups).then_some(g);
            for (a, b) in round.pairs {
                tables.push(Opened {
                    players: self.players([a, b]),
                    group,
                    slot: None,
                });
            }
            if let Some(bye) = round.bye {
                tables.push(Opened {
                    players: self.players([bye]),
                    group,
                    slot: None,
                });
            }
        }
        (!tables.is_empty()).then_some((stage, tables))
    }

    fn swiss_round(&self) -> (Stage, Vec<Opened>) {
        let standing: Vec<Standing> = (0..self.seats.len())
            .filter(|&s| !self.seats[s].withdrawn)
            .map(|seat| {
                let tables = self
                    .rounds
                    .iter()
                    .flat_map(|r| &r.tables)
                    .filter(|t| t.seats().any(|x| x == seat));
                let mut st = Standing {
                    seat,
                    half_points: 0,
                    had_bye: false,
                    met: Default::default(),
                };
                for t in tables {
                    st.half_points += t.half_points(seat);
                    match t.b {
                        None => st.had_bye = true,
                        Some(_) => {
                            st.met.extend(t.opponent(seat));
                        }
                    }
                }
                st
            })
            .collect();
        let round = pairing::swiss(&standing);
        let mut tables: Vec<Opened> = round
            .pairs
            .into_iter()
            .map(|(a, b)| Opened {
                players: self.players([a, b]),
                group: None,
                slot: None,
            })
            .collect();
        if let Some(bye) = round.bye {
            tables.push(Opened {
                players: self.players([bye]),
                group: None,
                slot: None,
            });
        }
        (Stage::Swiss, tables)
    }

    /// The bracket's next round: its first from the entrants (all seats, or the top of
    /// each group), later ones from the winners; None once the final is decided.
    fn bracket_round(&self, stage: Stage) -> Option<(Stage, Vec<Opened>)> {
        let played: Vec<&super::Round> = self.rounds.iter().filter(|r| r.stage == stage).collect();
        let slots: Vec<Option<usize>> = match played.last() {
            None => pairing::bracket_slots(&self.bracket_entrants()),
            Some(last) => {
                let pairs = self.bracket_size() >> played.len();
                if pairs < 2 {
                    return None;
                }
                (0..pairs)
                    .map(|j| {
                        last.tables
                            .iter()
                            .find(|t| t.slot == Some(j))
                            .and_then(|t| t.winner())
                    })
                    .collect()
            }
        };
        let tables = slots
            .chunks(2)
            .enumerate()
            .filter_map(|(j, pair)| {
                let mut seats: Vec<usize> = pair.iter().flatten().copied().collect();
                seats.sort_unstable();
                (!seats.is_empty()).then(|| Opened {
                    players: self.players(seats),
                    group: None,
                    slot: Some(j),
                })
            })
            .collect();
        Some((stage, tables))
    }

    /// Who plays the bracket, in seed order: every seat (single elimination); or the
    /// groups' winners by seed, then their seconds, and so on, drawn so that no two
    /// of a group meet in the first round ([`pairing::apart`]).
    pub(super) fn bracket_entrants(&self) -> Vec<usize> {
        match self.settings.format {
            Format::Groups { advance, .. } => {
                let places: Vec<Vec<usize>> = (0..self.groups.len())
                    .map(|g| group_places(self, g))
                    .collect();
                let tiers: Vec<Vec<(usize, usize)>> = (0..usize::from(advance))
                    .map(|k| {
                        let mut at: Vec<(usize, usize)> = places
                            .iter()
                            .enumerate()
                            .filter_map(|(g, p)| p.get(k).map(|&seat| (seat, g)))
                            .collect();
                        at.sort_unstable();
                        at
                    })
                    .collect();
                pairing::apart(&tiers)
            }
            _ => (0..self.seats.len()).collect(),
        }
    }

    /// The bracket's slots: its entrants rounded up to a power of two.
    pub(super) fn bracket_size(&self) -> usize {
        self.bracket_entrants().len().next_power_of_two().max(2)
    }

    fn champion_now(&self) -> Option<PlayerId> {
        let seat = match self.settings.format {
            Format::Groups { .. } | Format::Single => {
                let last = self.rounds.last()?;
                last.tables.first().and_then(|t| t.winner())
            }
            _ => ranked_seats(self).first().copied(),
        };
        seat.map(|s| self.seats[s].player)
    }
}

/// Forfeits of the undecided tables of `round` where one of `gone` sits.
fn withdrawn_forfeits(
    round: &super::Round,
    gone: &[usize],
    t: &Tournament,
    at: Millis,
) -> Vec<Event> {
    forfeits(round, at, |table| {
        table
            .seats()
            .filter(|s| gone.contains(s))
            .map(|s| t.seats[s].player)
            .collect()
    })
}

/// A forfeit for each undecided table of `round` with someone `absent` from it.
fn forfeits(
    round: &super::Round,
    at: Millis,
    absent: impl Fn(&super::Table) -> Vec<PlayerId>,
) -> Vec<Event> {
    round
        .tables
        .iter()
        .enumerate()
        .filter(|(_, table)| table.decided.is_none())
        .filter_map(|(k, table)| {
            let absent = absent(table);
            (!absent.is_empty()).then_some(Event::Forfeit {
                round: round.number,
                table: k,
                absent,
                at,
            })
        })
        .collect()
}
