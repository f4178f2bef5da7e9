//! A tiny game for testing the store and the runtime without Zendo: two players take
//! turns adding 1 to 3 to a shared total; whoever reaches the target wins. Each turn
//! has a clock; running out passes the turn. A player may ask the umpire whether the
//! total is prime: slow work, done off the match's task, during which the turn clock
//! stops (like a Zendo verdict). The setup holds a secret that no viewer sees before
//! the end, and the created event that carries it is never announced.

#![allow(dead_code)]

use mondo::runtime::{Engine, Listing};
use mondo::store::Millis;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Work {
    /// Answers at once.
    #[default]
    Quick,
    /// Works until told to stop (the runtime's limit), then gives up.
    Hang,
    /// Panics.
    Panic,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub players: [u64; 2],
    pub target: u32,
    pub turn_ms: Millis,
    pub secret: u32,
    pub seed: u64,
    pub work: Work,
}

impl Setup {
    pub fn new(players: [u64; 2]) -> Setup {
        Setup {
            players,
            target: 21,
            turn_ms: 10_000,
            secret: 4242,
            seed: 7,
            work: Work::Quick,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    Player(u64),
    Umpire,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Add(u32),
    Check,
    Answer { check: u32, prime: bool },
    Abandon { check: u32, reason: String },
    Timeout { turn: u32, at: Millis },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub at: Millis,
    pub kind: Kind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Kind {
    Created { setup: Setup },
    Added { seat: usize, n: u32 },
    TurnStarted { turn: u32, seat: usize },
    CheckAsked { check: u32 },
    Checked { check: u32, prime: bool },
    CheckFailed { check: u32, reason: String },
    TimedOut { turn: u32 },
    Won { seat: usize, secret: u32 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    Player(u64),
    Spectator,
}

/// What a viewer sees: never the secret before the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    pub total: u32,
    pub turn: u32,
    pub seat: usize,
    pub left_ms: Millis,
    pub running_since: Option<Millis>,
    pub checking: Option<u32>,
    pub winner: Option<usize>,
    pub secret: Option<u32>,
    pub version: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    pub setup: Setup,
    pub total: u32,
    pub turn: u32,
    pub seat: usize,
    /// Turn clock: time left when it last started or stopped, and since when it runs.
    pub left: Millis,
    pub since: Option<Millis>,
    pub checking: Option<u32>,
    pub checks: u32,
    pub winner: Option<usize>,
    pub version: u64,
    pub last_at: Millis,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum RaceError {
    #[error("the race is over")]
    Over,
    #[error("not your turn")]
    NotYourTurn,
    #[error("add 1, 2 or 3")]
    BadNumber,
    #[error("wait for the umpire")]
    Busy,
    #[error("only the umpire can do that")]
    UmpireOnly,
    #[error("stale")]
    Stale,
    #[error("too early")]
    TooEarly,
}

impl Race {
    fn new(setup: Setup, at: Millis) -> Race {
        Race {
            left: setup.turn_ms,
            setup,
            total: 0,
            turn: 0,
            seat: 0,
            since: None,
            checking: None,
            checks: 0,
            winner: None,
            version: 1,
            last_at: at,
        }
    }

    pub fn remaining(&self, now: Millis) -> Millis {
        match self.since {
            Some(s) => self.left.saturating_sub(now.saturating_sub(s)),
            None => self.left,
        }
    }

    fn fold(&mut self, e: &Event) {
        self.version += 1;
        self.last_at = self.last_at.max(e.at);
        match &e.kind {
            Kind::Created { .. } => panic!("created twice"),
            Kind::Added { n, .. } => self.total += n,
            Kind::TurnStarted { turn, seat } => {
                self.turn = *turn;
                self.seat = *seat;
                self.left = self.setup.turn_ms;
                self.since = Some(e.at);
            }
            Kind::CheckAsked { check } => {
                self.checks = *check;
                self.checking = Some(*check);
                self.left = self.remaining(e.at);
                self.since = None;
            }
            Kind::Checked { .. } | Kind::CheckFailed { .. } => {
                self.checking = None;
                self.since = Some(e.at);
            }
            Kind::TimedOut { .. } => {}
            Kind::Won { seat, .. } => {
                self.winner = Some(*seat);
                self.since = None;
            }
        }
    }

    fn next_turn(&self, at: Millis) -> Event {
        Event {
            at,
            kind: Kind::TurnStarted {
                turn: self.turn + 1,
                seat: 1 - self.seat,
            },
        }
    }
}

fn is_prime(n: u32) -> bool {
    n >= 2
        && (2..n)
            .take_while(|d| d * d <= n)
            .all(|d| !n.is_multiple_of(d))
}

impl Engine for Race {
    fn kinds() -> Vec<&'static str> {
        vec!["race"]
    }

    type Setup = Setup;
    type SetupError = String;
    type Actor = Actor;
    type Action = Action;
    type Event = Event;
    type Viewer = Viewer;
    type View = View;
    type Error = RaceError;
    type Work = (u32, u32, Work);

    fn start(setup: Setup, now: Millis) -> Result<(Race, Event), String> {
        if setup.players[0] == setup.players[1] {
            return Err("two different players".into());
        }
        let race = Race::new(setup.clone(), now);
        let created = Event {
            at: now,
            kind: Kind::Created { setup },
        };
        Ok((race, created))
    }

    fn decode(_kind: &str, body: &str) -> Result<Event, String> {
        serde_json::from_str(body).map_err(|e| e.to_string())
    }

    fn replay(_kind: &str, events: &[Event]) -> Result<Race, String> {
        let Some(Event {
            at,
            kind: Kind::Created { setup },
        }) = events.first()
        else {
            return Err("the log does not start with a created event".into());
        };
        let mut race = Race::new(setup.clone(), *at);
        for e in &events[1..] {
            race.fold(e);
        }
        Ok(race)
    }

    fn fold(&mut self, event: &Event) -> Result<(), String> {
        Race::fold(self, event);
        Ok(())
    }

    fn listing(&self) -> Listing {
        Listing {
            kind: "race",
            seed: self.setup.seed,
            players: self.setup.players.to_vec(),
            settings: format!("{{\"target\":{}}}", self.setup.target),
        }
    }

    fn decide(
        &self,
        actor: &Actor,
        action: &Action,
        _shown: Option<u64>,
        now: Millis,
    ) -> Result<(Vec<Event>, Race), RaceError> {
        let now = now.max(self.last_at);
        if self.winner.is_some() {
            return Err(RaceError::Over);
        }
        let mut events = Vec::new();
        let ev = |kind| Event { at: now, kind };
        match (actor, action) {
            // Before the first turn, anyone's first request starts it.
            (Actor::Player(p), _) if self.turn == 0 => {
                if !self.setup.players.contains(p) {
                    return Err(RaceError::NotYourTurn);
                }
                events.push(Event {
                    at: now,
                    kind: Kind::TurnStarted { turn: 1, seat: 0 },
                });
            }
            _ => {}
        }
        let mut next = self.clone();
        for e in &events {
            next.fold(e);
        }
        let more: Vec<Event> = match (actor, action) {
            (Actor::Player(p), Action::Add(n)) => {
                if next.setup.players[next.seat] != *p {
                    return Err(RaceError::NotYourTurn);
                }
                if next.checking.is_some() {
                    return Err(RaceError::Busy);
                }
                if !(1..=3).contains(n) {
                    return Err(RaceError::BadNumber);
                }
                let mut v = vec![ev(Kind::Added {
                    seat: next.seat,
                    n: *n,
                })];
                if next.total + n >= next.setup.target {
                    v.push(ev(Kind::Won {
                        seat: next.seat,
                        secret: next.setup.secret,
                    }));
                } else {
                    v.push(next.next_turn(now));
                }
                v
            }
            (Actor::Player(p), Action::Check) => {
                if next.setup.players[next.seat] != *p {
                    return Err(RaceError::NotYourTurn);
                }
                if next.checking.is_some() {
                    return Err(RaceError::Busy);
                }
                vec![ev(Kind::CheckAsked {
                    check: next.checks + 1,
                })]
            }
            (Actor::Umpire, Action::Answer { check, prime }) => {
                if next.checking != Some(*check) {
                    return Err(RaceError::Stale);
                }
                vec![ev(Kind::Checked {
                    check: *check,
                    prime: *prime,
                })]
            }
            (Actor::Umpire, Action::Abandon { check, reason }) => {
                if next.checking != Some(*check) {
                    return Err(RaceError::Stale);
                }
                vec![ev(Kind::CheckFailed {
                    check: *check,
                    reason: reason.clone(),
                })]
            }
            (Actor::Umpire, Action::Timeout { turn, at }) => {
                match next.timeout() {
                    Some((due, Action::Timeout { turn: t, .. })) if t == *turn && due == *at => {
                        if now < due {
                            return Err(RaceError::TooEarly);
                        }
                    }
                    _ => return Err(RaceError::Stale),
                }
                vec![ev(Kind::TimedOut { turn: *turn }), next.next_turn(now)]
            }
            (Actor::Umpire, _) => return Err(RaceError::NotYourTurn),
            (Actor::Player(_), _) => return Err(RaceError::UmpireOnly),
        };
        for e in &more {
            next.fold(e);
        }
        events.extend(more);
        Ok((events, next))
    }

    fn event_at(event: &Event) -> Millis {
        event.at
    }

    fn version(&self) -> u64 {
        self.version
    }

    fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    fn timeout(&self) -> Option<(Millis, Action)> {
        let at = self.since? + self.left;
        Some((
            at,
            Action::Timeout {
                turn: self.turn,
                at,
            },
        ))
    }

    fn umpire() -> Actor {
        Actor::Umpire
    }

    fn work(&self) -> Option<(u64, (u32, u32, Work))> {
        let check = self.checking?;
        Some((check as u64, (check, self.total, self.setup.work)))
    }

    fn perform((check, total, work): (u32, u32, Work), stop: Arc<AtomicBool>) -> Action {
        match work {
            Work::Quick => Action::Answer {
                check,
                prime: is_prime(total),
            },
            Work::Hang => {
                // Work that never ends on its own: it checks its stop flag between
                // steps, as the umpire's real work does, and gives way to other threads.
                let mut n = total;
                while !stop.load(Ordering::Relaxed) {
                    n = n.wrapping_add(1);
                    std::hint::black_box(is_prime(n));
                    std::thread::yield_now();
                }
                Action::Abandon {
                    check,
                    reason: "stopped at the limit".into(),
                }
            }
            Work::Panic => panic!("the umpire broke down"),
        }
    }

    fn abandon(&self, key: u64, reason: &str) -> Option<Action> {
        Some(Action::Abandon {
            check: key as u32,
            reason: reason.into(),
        })
    }

    fn view(&self, _viewer: &Viewer) -> View {
        View {
            total: self.total,
            turn: self.turn,
            seat: self.seat,
            left_ms: self.left,
            running_since: self.since,
            checking: self.checking,
            winner: self.winner,
            secret: self.winner.map(|_| self.setup.secret),
            version: self.version,
        }
    }

    fn redact(&self, event: &Event, _viewer: &Viewer) -> Option<Event> {
        (!matches!(event.kind, Kind::Created { .. })).then(|| event.clone())
    }
}
