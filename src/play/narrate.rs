//! How Zendo events are said to the people at the table: one JSON object (for
//! programs) and one line of text each, with players called by their names.
//!
//! Every event kind is said here, with no catch-all, so a new kind cannot reach a
//! player unread: the created events (which hold the hidden pattern) are said without
//! their setup, and a challenge answer is said without its content (the reveal says
//! both answers together).

use crate::koan::Koan;
use crate::rules::PlayerId;
use crate::rules::zendo::{Answer, Event, EventKind, Outcome, Seat, TurnEnd, Withdrawal};
use serde_json::{Value, json};
use std::collections::HashMap;

/// Which front the narration is for: the commands it suggests differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Front {
    /// `mondo play` and `mondo replay`: commands typed as lines.
    #[default]
    Terminal,
    /// The Discord bot: slash commands, buttons and DMs; people are mentions.
    Discord,
}

/// Who is who, and what the narration needs to remember between events.
#[derive(Clone, Debug, Default)]
pub struct Narrator {
    front: Front,
    /// The players' names in seat order; empty for solo practice ("you").
    seats: Vec<String>,
    /// Names of everyone else who may appear in events (hosts).
    others: HashMap<u64, String>,
    /// The structure under challenge: the reveal names it.
    challenged: Option<Koan>,
}

impl Narrator {
    /// For a duel between `seats` (names in seat order).
    pub fn duel(seats: [String; 2], others: HashMap<u64, String>) -> Narrator {
        Narrator {
            front: Front::Terminal,
            seats: seats.into(),
            others,
            challenged: None,
        }
    }

    /// The same narration, suggesting `front`'s commands.
    pub fn for_front(self, front: Front) -> Narrator {
        Narrator { front, ..self }
    }

    /// For solo practice: the player is "you".
    pub fn practice() -> Narrator {
        Narrator::default()
    }

    /// Remembers a structure under challenge when narration starts mid-challenge
    /// (a resumed match).
    pub fn set_challenged(&mut self, koan: Option<Koan>) {
        self.challenged = koan;
    }

    fn is_duel(&self) -> bool {
        !self.seats.is_empty()
    }

    /// A seat's player's name.
    pub fn name(&self, seat: Seat) -> String {
        self.seats
            .get(seat.index())
            .cloned()
            .unwrap_or_else(|| "you".into())
    }

    /// Someone named by id (a host).
    pub fn person(&self, id: PlayerId) -> String {
        match self.others.get(&id.0) {
            Some(name) => name.clone(),
            None if self.front == Front::Discord => format!("<@{}>", id.0),
            None => format!("player {}", id.0),
        }
    }

    /// "alice: " in a duel, nothing in practice.
    fn by(&self, seat: Seat) -> String {
        if self.is_duel() {
            format!("{}'s ", self.name(seat))
        } else {
            String::new()
        }
    }

    /// The event as JSON and as text. `score` is the practice score, said at the end.
    pub fn say(&mut self, e: &Event, score: Option<u32>) -> (Value, String) {
        let verdict = |obeys: bool| if obeys { "obeys" } else { "does not obey" };
        match &e.kind {
            EventKind::DuelCreated { .. } | EventKind::PracticeCreated { .. } => (
                json!({"event": "created"}),
                "the umpire sets up the match and hides the pattern".into(),
            ),
            EventKind::StarterChosen { starter } => (
                json!({"event": "starter", "player": self.name(*starter)}),
                format!("{} starts", self.name(*starter)),
            ),
            EventKind::TurnStarted { turn, seat } => (
                json!({"event": "turn", "turn": turn, "player": self.name(*seat)}),
                format!(
                    "turn {turn}: {} to play: {}",
                    self.name(*seat),
                    match self.front {
                        Front::Terminal => "koan STRUCTURE [observe|challenge], or skip",
                        Front::Discord => "build with `/koan` (observe or challenge), or `/pass`",
                    }
                ),
            ),
            EventKind::Observed { by, koan, obeys } => {
                let mut value = json!({"event": "verdict", "koan": koan.to_line(), "obeys": obeys});
                if self.is_duel() {
                    value["player"] = self.name(*by).into();
                }
                (
                    value,
                    format!("{}{} {}", self.who(*by), koan.to_line(), verdict(*obeys)),
                )
            }
            EventKind::ChallengeOpened { by, koan } => {
                self.challenged = Some(koan.clone());
                (
                    json!({"event": "challenge", "player": self.name(*by), "koan": koan.to_line()}),
                    format!(
                        "{} challenges: {}. both players answer, privately: {}",
                        self.name(*by),
                        koan.to_line(),
                        match self.front {
                            Front::Terminal => "`NAME: answer obeys|not|pass`",
                            Front::Discord => "by DM, or with *Answer privately* below",
                        }
                    ),
                )
            }
            // Never what was answered: only that an answer is in.
            EventKind::ChallengeAnswered { seat, .. } => (
                json!({"event": "answered", "player": self.name(*seat)}),
                format!("{}'s answer is in", self.name(*seat)),
            ),
            EventKind::ChallengeRevealed {
                answers,
                obeys,
                time_up,
            } => {
                let koan = self.challenged.take();
                let mut said = Vec::new();
                let mut by_name = serde_json::Map::new();
                let mut right = serde_json::Map::new();
                for seat in Seat::BOTH {
                    let a = answers[seat.index()];
                    let name = self.name(seat);
                    by_name.insert(name.clone(), json!(a));
                    right.insert(name.clone(), a.is_correct(*obeys).into());
                    said.push(format!(
                        "{name} said {a}{}",
                        match (a, a.is_correct(*obeys)) {
                            (Answer::Pass, _) => "",
                            (_, true) => " (right: +1 ticket)",
                            (_, false) => " (wrong)",
                        }
                    ));
                }
                (
                    json!({"event": "revealed", "koan": koan.as_ref().map(Koan::to_line),
                           "obeys": obeys, "answers": by_name, "right": right,
                           "time_up": time_up}),
                    format!(
                        "{}{} {}: {}",
                        if *time_up { "time is up. " } else { "" },
                        koan.as_ref().map_or("the structure".into(), Koan::to_line),
                        verdict(*obeys),
                        said.join(", ")
                    ),
                )
            }
            EventKind::Skipped { seat, time_up } => {
                let other = self.name(seat.other());
                (
                    json!({"event": "skipped", "player": self.name(*seat), "time_up": time_up}),
                    if *time_up {
                        format!(
                            "{}'s time ran out in step 1: {other} gets a ticket",
                            self.name(*seat)
                        )
                    } else {
                        format!("{} skips step 1: {other} gets a ticket", self.name(*seat))
                    },
                )
            }
            EventKind::GuessRead {
                number,
                by,
                reading,
                contradictions,
                ..
            } => {
                let warn = if contradictions.is_empty() {
                    String::new()
                } else {
                    let list: Vec<String> =
                        contradictions.iter().map(|n| format!("#{n}")).collect();
                    format!(" (already contradicted by {})", list.join(", "))
                };
                let mut value = json!({"event": "reading", "guess": number, "pattern": reading,
                                       "contradictions": contradictions});
                if self.is_duel() {
                    value["player"] = self.name(*by).into();
                }
                (
                    value,
                    format!(
                        "{}guess #{number} reads: {reading}{warn}; {}",
                        self.by(*by),
                        match self.front {
                            Front::Terminal => "confirm or take back",
                            Front::Discord => "make it official, or take it back",
                        }
                    ),
                )
            }
            EventKind::GuessConfirmed { number } => (
                json!({"event": "official", "guess": number}),
                format!("guess #{number} is official; the umpire is judging it"),
            ),
            EventKind::GuessWithdrawn { number, why } => {
                let (code, text) = match why {
                    Withdrawal::TakenBack => ("taken_back", "taken back".to_string()),
                    Withdrawal::TimeUp => ("time_up", "withdrawn: the time is up".into()),
                    Withdrawal::Disallowed { by } => {
                        ("disallowed", format!("disallowed by {}", self.person(*by)))
                    }
                };
                (
                    json!({"event": "withdrawn", "guess": number, "why": code}),
                    format!("guess #{number} {text}; its ticket is back"),
                )
            }
            EventKind::Refuted {
                number,
                counterexample: ce,
                on_table,
            } => {
                let mut value = json!({"event": "counterexample", "guess_number": number,
                       "koan": ce.koan.to_line(), "hidden": ce.hidden, "guess": ce.guess});
                if let Some(n) = on_table {
                    value["on_table"] = (*n).into();
                }
                (
                    value,
                    format!(
                        "guess #{number} is wrong: {}{} {} the hidden pattern but {} the guess",
                        ce.koan.to_line(),
                        on_table.map_or(String::new(), |n| format!(" (#{n}, on the table)")),
                        verdict(ce.hidden),
                        verdict(ce.guess)
                    ),
                )
            }
            EventKind::GuessUndecided { number, reason } => (
                json!({"event": "undecided", "guess": number, "reason": reason}),
                format!("guess #{number} is void: {reason}"),
            ),
            EventKind::TurnEnded { seat, why } => {
                let name = self.name(*seat);
                let (code, text) = match why {
                    TurnEnd::Ended => ("ended", format!("{name} ends the turn")),
                    TurnEnd::TimeUp => ("time_up", format!("{name}'s turn time is up")),
                    TurnEnd::NoTickets => (
                        "no_tickets",
                        format!("{name} has no ticket to guess with: the turn passes"),
                    ),
                };
                (
                    json!({"event": "turn_ended", "player": name, "why": code}),
                    text,
                )
            }
            EventKind::Paused { by } => (
                json!({"event": "paused", "by": self.person(*by)}),
                format!(
                    "{} paused the match: the clocks are stopped",
                    self.person(*by)
                ),
            ),
            EventKind::Resumed { by } => (
                json!({"event": "resumed", "by": self.person(*by)}),
                format!(
                    "{} resumed the match: the clocks run again",
                    self.person(*by)
                ),
            ),
            EventKind::ClockRebased { from, to } => (
                json!({"event": "clock_rebased", "from": from, "to": to}),
                "the umpire was away: that time is not counted".into(),
            ),
            EventKind::MatchEnded { outcome, pattern } => self.ended(outcome, pattern, score),
        }
    }

    /// "alice: " before a structure in a duel.
    fn who(&self, seat: Seat) -> String {
        if self.is_duel() {
            format!("{}: ", self.name(seat))
        } else {
            String::new()
        }
    }

    fn ended(&self, outcome: &Outcome, pattern: &str, score: Option<u32>) -> (Value, String) {
        match *outcome {
            Outcome::Solved { by, guess } if self.is_duel() => (
                json!({"event": "won", "pattern": pattern, "player": self.name(by),
                       "guess": guess}),
                format!(
                    "{} wins with guess #{guess}! the pattern was: {pattern}",
                    self.name(by)
                ),
            ),
            Outcome::Solved { .. } => (
                json!({"event": "won", "pattern": pattern, "score": score}),
                match score {
                    Some(s) => {
                        format!("right! the pattern was: {pattern} (score {s}, lower is better)")
                    }
                    None => format!("solved: the pattern was: {pattern}"),
                },
            ),
            Outcome::Resigned { by } if self.is_duel() => (
                json!({"event": "over", "how": "resigned", "player": self.name(by),
                       "winner": self.name(by.other()), "pattern": pattern}),
                format!(
                    "{} resigns: {} wins. the pattern was: {pattern}",
                    self.name(by),
                    self.name(by.other())
                ),
            ),
            Outcome::Resigned { .. } => (
                json!({"event": "over", "how": "resigned", "pattern": pattern}),
                format!("you gave up. the pattern was: {pattern}"),
            ),
            Outcome::Abandoned => (
                json!({"event": "over", "how": "abandoned", "pattern": pattern}),
                format!(
                    "nobody played for {} turns in a row: the match is abandoned, no winner. \
                     the pattern was: {pattern}",
                    crate::rules::zendo::duel::IDLE_TURNS
                ),
            ),
            Outcome::Declined { by, time_up } => (
                json!({"event": "over", "how": "declined", "player": self.name(by),
                       "time_up": time_up, "pattern": pattern}),
                if time_up {
                    format!(
                        "{} did not choose who starts in time: the duel is declined, no \
                         winner. the pattern was: {pattern}",
                        self.name(by)
                    )
                } else {
                    format!(
                        "{} left before the duel started: no winner. the pattern was: {pattern}",
                        self.name(by)
                    )
                },
            ),
            Outcome::Ended { by } => (
                json!({"event": "over", "how": "ended", "by": self.person(by),
                       "pattern": pattern}),
                format!(
                    "{} ended the match: no winner. the pattern was: {pattern}",
                    self.person(by)
                ),
            ),
        }
    }
}
