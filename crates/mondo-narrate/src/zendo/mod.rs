//! The words of Zendo (the Duel and solo practice), for every front; Triple's and
//! Classic's own are in [`triple`] and [`classic`].
//!
//! Every event kind is said here, with no catch-all, so a new kind cannot reach a
//! player unread: the created events (which hold the hidden pattern) are said without
//! their setup, and a challenge answer another player gave is said without its
//! content (the game redacts it; the reveal says both answers together).
//!
//! A batch of events (one action and what it caused) is said with the view after it:
//! that is where a structure's table number and a guess's official number come from,
//! so every verdict line names the structure as players will cite it (`#7 1^ 2^
//! obeys`). Ticket counts are public and said at the start of each step and after each
//! guess. `[ticket_counts_are_said_at_each_step]`

pub mod classic;
pub mod triple;

use super::{Front, Line, Names, clock_text, count, verdict};
use mondo_rules::koan::{Koan, PieceSet};
use mondo_rules::lang::{self, Pattern};
use mondo_rules::rules::zendo::{
    Answer, DuelEvent, DuelView, GuessStatus, GuessView, Mode, Outcome, PhaseView, PracticeEvent,
    PracticeStep, PracticeView, StepView, TableEntry, TurnEnd, Withdrawal, ZendoEvent, duel,
    practice,
};
use mondo_rules::rules::{Clock, EventKind, Millis, Seat};
use serde_json::json;

/// What the narration remembers between events: who is who, and the structure under
/// challenge (the reveal names it).
#[derive(Clone, Debug, Default)]
pub struct Narrator {
    pub names: Names,
    challenged: Option<Koan>,
    /// The game's guessing tokens are stones (Classic), not tickets (the duel).
    stones: bool,
}

/// A batch as said: one line per event, then what is said after them (the ticket
/// counts, when a step began or a guess was made).
#[derive(Clone, Debug, Default)]
pub struct Said {
    pub lines: Vec<Line>,
    pub after: Vec<Line>,
}

impl Said {
    /// Every line, in order.
    pub fn all(self) -> Vec<Line> {
        self.lines.into_iter().chain(self.after).collect()
    }
}

/// The table and guesses after a batch, for numbers.
pub(crate) struct After<'a> {
    pub(crate) table: &'a [TableEntry],
    pub(crate) guesses: &'a [GuessView],
    /// The practice score, said at the end.
    pub(crate) score: Option<u32>,
}

impl After<'_> {
    /// The table number of a structure.
    pub(crate) fn number(&self, koan: &Koan) -> Option<u32> {
        self.table
            .iter()
            .find(|e| e.koan == *koan)
            .map(|e| e.number)
    }

    /// What players call a guess.
    fn shown(&self, guess: u32) -> u32 {
        GuessView::shown(self.guesses, guess)
    }
}

/// `#7 ` before a structure, when it has a number.
pub(crate) fn numbered(number: Option<u32>) -> String {
    number.map_or(String::new(), |n| format!("#{n} "))
}

impl Narrator {
    pub fn new(names: Names) -> Narrator {
        Narrator {
            names,
            challenged: None,
            stones: false,
        }
    }

    /// For a game whose guessing tokens are stones (Zendo Classic).
    pub fn with_stones(names: Names) -> Narrator {
        Narrator {
            stones: true,
            ..Narrator::new(names)
        }
    }

    /// What a guess costs here: "ticket" or "stone".
    fn token(&self) -> &'static str {
        if self.stones { "stone" } else { "ticket" }
    }

    /// For a duel seen in `view` (remembers a challenge already under way).
    pub fn duel(names: Names, view: &DuelView) -> Narrator {
        Narrator {
            names,
            challenged: view.challenge().map(|(koan, ..)| koan.clone()),
            stones: false,
        }
    }

    fn front(&self) -> Front {
        self.names.front
    }

    /// A batch of a duel's events, with the view after it.
    pub fn duel_batch(&mut self, events: &[duel::Event], view: &DuelView) -> Said {
        let after = After {
            table: &view.table,
            guesses: &view.guesses,
            score: None,
        };
        let lines: Vec<Line> = events.iter().map(|e| self.duel_event(e, &after)).collect();
        let tickets = events.iter().any(|e| starts_step_or_guess(&e.kind));
        let after = if tickets && view.outcome.is_none() {
            vec![self.tickets(view)]
        } else {
            Vec::new()
        };
        Said { lines, after }
    }

    /// A batch of a practice match's events, with the view after it.
    pub fn practice_batch(&mut self, events: &[practice::Event], view: &PracticeView) -> Said {
        let after = After {
            table: &view.table,
            guesses: &view.guesses,
            score: Some(view.score.total()),
        };
        let lines = events
            .iter()
            .map(|e| match &e.kind {
                EventKind::Game(PracticeEvent::PracticeCreated { .. }) => created(),
                EventKind::Game(PracticeEvent::Zendo(z)) => self.zendo(z, &after),
                other => self.common(other),
            })
            .collect();
        Said {
            lines,
            after: Vec::new(),
        }
    }

    /// The ticket counts: public, said at the start of each step and after each guess.
    pub fn tickets(&self, view: &DuelView) -> Line {
        let t = view.tickets.values();
        Line::new(
            json!({"event": "tickets", "tickets": self.names.each_json(t)}),
            format!("tickets: {}", self.names.each(t)),
        )
    }

    fn duel_event(&mut self, e: &duel::Event, after: &After<'_>) -> Line {
        let e = match &e.kind {
            EventKind::Game(e) => e,
            other => return self.common(other),
        };
        let names = &self.names;
        match e {
            DuelEvent::DuelCreated { .. } => created(),
            DuelEvent::StarterChosen { starter } => Line::new(
                json!({"event": "starter", "player": names.name(*starter)}),
                format!("{} starts", names.name(*starter)),
            ),
            DuelEvent::TurnStarted { turn, seat } => Line::new(
                json!({"event": "turn", "turn": turn, "player": names.name(*seat)}),
                format!(
                    "turn {turn}: {} to play: {}",
                    names.name(*seat),
                    match self.front() {
                        Front::Terminal => "koan STRUCTURE [observe|challenge], or skip",
                        Front::Discord => "build with `/koan` (observe or challenge), or `/pass`",
                    }
                ),
            ),
            DuelEvent::ChallengeOpened { by, koan } => {
                self.challenged = Some(koan.clone());
                Line::new(
                    json!({"event": "challenge", "player": names.name(*by), "koan": koan.to_line()}),
                    format!(
                        "{} challenges: {}. both players answer, privately: {}",
                        names.name(*by),
                        koan.to_line(),
                        match self.front() {
                            Front::Terminal => "`NAME: answer obeys|not|pass`",
                            Front::Discord => "by DM, or with *Answer privately* below",
                        }
                    ),
                )
            }
            // What was answered only to the one who answered (the event is redacted
            // for everyone else).
            DuelEvent::ChallengeAnswered { seat, answer } => answered(names, *seat, *answer),
            DuelEvent::ChallengeRevealed {
                answers,
                obeys,
                time_up,
            } => {
                let koan = self.challenged.take();
                let number = koan.as_ref().and_then(|k| after.number(k));
                let koan = koan.as_ref().map(|k| (k, number));
                revealed(names, koan, answers, *obeys, *time_up, "+1 ticket", &|_| {
                    true
                })
            }
            DuelEvent::Skipped { seat, time_up } => {
                let other = names.name(seat.other());
                Line::new(
                    json!({"event": "skipped", "player": names.name(*seat), "time_up": time_up}),
                    if *time_up {
                        format!(
                            "{}'s time ran out in step 1: {other} gets a ticket",
                            names.name(*seat)
                        )
                    } else {
                        format!("{} skips step 1: {other} gets a ticket", names.name(*seat))
                    },
                )
            }
            DuelEvent::TurnEnded { seat, why } => {
                let name = names.name(*seat);
                let (code, text) = match why {
                    TurnEnd::Ended => ("ended", format!("{name} ends the turn")),
                    TurnEnd::TimeUp => ("time_up", format!("{name}'s turn time is up")),
                    TurnEnd::NoTickets => (
                        "no_tickets",
                        format!("{name} has no ticket to guess with: the turn passes"),
                    ),
                };
                Line::new(
                    json!({"event": "turn_ended", "player": name, "why": code}),
                    text,
                )
            }
            DuelEvent::Zendo(z) => self.zendo(z, after),
        }
    }

    /// The events every game shares.
    pub(crate) fn common<E>(&self, e: &EventKind<E>) -> Line {
        match e {
            EventKind::Paused { by } => Line::new(
                json!({"event": "paused", "by": self.names.person(*by)}),
                format!(
                    "{} paused the match: the clocks are stopped",
                    self.names.person(*by)
                ),
            ),
            EventKind::Resumed { by } => Line::new(
                json!({"event": "resumed", "by": self.names.person(*by)}),
                format!(
                    "{} resumed the match: the clocks run again",
                    self.names.person(*by)
                ),
            ),
            EventKind::ClockRebased { from, to } => Line::new(
                json!({"event": "clock_rebased", "from": from, "to": to}),
                "the umpire was away: that time is not counted",
            ),
            EventKind::SetupChosen { by } => super::setup_chosen(&self.names, *by),
            EventKind::Game(_) => created(),
        }
    }

    /// The events every Zendo game has.
    pub(crate) fn zendo(&mut self, e: &ZendoEvent, after: &After<'_>) -> Line {
        let names = &self.names;
        let table = names.is_table();
        match e {
            ZendoEvent::Observed { by, koan, obeys } => {
                let number = after.number(koan);
                let mut json = json!({"event": "verdict", "number": number,
                                      "koan": koan.to_line(), "obeys": obeys});
                let who = if table {
                    json["player"] = names.name(*by).into();
                    format!("{}: ", names.name(*by))
                } else {
                    String::new()
                };
                Line::new(
                    json,
                    format!(
                        "{who}{}{} {}",
                        numbered(number),
                        koan.to_line(),
                        verdict(*obeys)
                    ),
                )
            }
            ZendoEvent::GuessRead {
                number,
                by,
                reading,
                contradictions,
                ..
            } => {
                let shown = after.shown(*number);
                let warn = contradicted(contradictions, |n| {
                    format!(" (already contradicted by {n})")
                });
                let mut json = json!({"event": "reading", "guess": number, "shown": shown,
                                      "pattern": reading, "contradictions": contradictions});
                let whose = if table {
                    json["player"] = names.name(*by).into();
                    format!("{}'s ", names.name(*by))
                } else {
                    String::new()
                };
                Line::new(
                    json,
                    format!(
                        "{whose}guess #{shown} reads: {reading}{warn}; {}",
                        match self.front() {
                            Front::Terminal => "confirm or take back",
                            Front::Discord => "make it official, or take it back",
                        }
                    ),
                )
            }
            ZendoEvent::GuessConfirmed { number } => {
                let shown = after.shown(*number);
                Line::new(
                    json!({"event": "official", "guess": number, "shown": shown}),
                    format!("guess #{shown} is official; the umpire is judging it"),
                )
            }
            ZendoEvent::GuessWithdrawn { number, why } => {
                let shown = after.shown(*number);
                let (code, text) = match why {
                    Withdrawal::TakenBack => ("taken_back", "taken back".to_string()),
                    Withdrawal::TimeUp => ("time_up", "withdrawn: the time is up".into()),
                    Withdrawal::Disallowed { by } => {
                        ("disallowed", format!("disallowed by {}", names.person(*by)))
                    }
                };
                let back = if table {
                    format!("; its {} is back", self.token())
                } else {
                    String::new()
                };
                Line::new(
                    json!({"event": "withdrawn", "guess": number, "shown": shown, "why": code}),
                    format!("guess #{shown} {text}{back}"),
                )
            }
            ZendoEvent::Refuted {
                number,
                counterexample: ce,
                on_table,
            } => {
                let shown = after.shown(*number);
                let at = on_table.or_else(|| after.number(&ce.koan));
                let mut json = json!({"event": "counterexample", "guess_number": number,
                       "shown": shown, "number": at, "koan": ce.koan.to_line(),
                       "hidden": ce.hidden, "guess": ce.guess});
                if let Some(n) = on_table {
                    json["on_table"] = (*n).into();
                }
                Line::new(
                    json,
                    format!(
                        "guess #{shown} is wrong: {}{}{} {} the hidden pattern but {} the guess",
                        numbered(at),
                        ce.koan.to_line(),
                        if on_table.is_some() {
                            " (on the table)"
                        } else {
                            ""
                        },
                        verdict(ce.hidden),
                        verdict(ce.guess)
                    ),
                )
            }
            ZendoEvent::GuessUndecided { number, reason } => {
                let shown = after.shown(*number);
                let back = if table {
                    format!("; its {} is back and it adds no time", self.token())
                } else {
                    String::new()
                };
                Line::new(
                    json!({"event": "undecided", "guess": number, "shown": shown,
                           "reason": reason}),
                    format!("guess #{shown} is void: {reason}{back}"),
                )
            }
            ZendoEvent::MatchEnded { outcome, pattern } => self.ended(outcome, pattern, after),
        }
    }

    fn ended(&self, outcome: &Outcome, pattern: &str, after: &After<'_>) -> Line {
        let names = &self.names;
        let mut line = outcome_line(outcome, names, after.score, |g| after.shown(g));
        line.json["pattern"] = pattern.into();
        line.text = match (outcome, names.is_table(), after.score) {
            (Outcome::Solved { .. }, false, Some(s)) => {
                format!("right! the pattern was: {pattern} (score {s}, lower is better)")
            }
            (Outcome::Solved { .. }, false, None) => format!("solved: the pattern was: {pattern}"),
            _ if line.text.ends_with('!') => format!("{} the pattern was: {pattern}", line.text),
            _ => format!("{}. the pattern was: {pattern}", line.text),
        };
        line
    }
}

/// A private answer is in: what it is only for the one who gave it (the event is
/// redacted for everyone else).
pub(crate) fn answered(names: &Names, seat: Seat, answer: Option<Answer>) -> Line {
    let mut json = json!({"event": "answered", "player": names.name(seat)});
    let text = match answer {
        Some(a) => {
            json["answer"] = json!(a);
            format!("{}'s answer is in: {a}", names.name(seat))
        }
        None => format!("{}'s answer is in", names.name(seat)),
    };
    Line::new(json, text)
}

/// A challenge's (or a Classic mondo's) reveal: the verdict and every answer, with
/// who was right (`reward` is what a right answer earns).
pub(crate) fn revealed(
    names: &Names,
    koan: Option<(&Koan, Option<u32>)>,
    answers: &mondo_rules::rules::BySeat<Answer>,
    obeys: bool,
    time_up: bool,
    reward: &str,
    shown: &dyn Fn(Seat) -> bool,
) -> Line {
    let number = koan.and_then(|(_, n)| n);
    let koan = koan.map(|(k, _)| k);
    let mut said = Vec::new();
    let mut by_name = serde_json::Map::new();
    let mut right = serde_json::Map::new();
    for (seat, a) in answers.iter().filter(|(seat, _)| shown(*seat)) {
        let name = names.name(seat);
        by_name.insert(name.clone(), json!(a));
        right.insert(name.clone(), a.is_correct(obeys).into());
        said.push(format!(
            "{name} said {a}{}",
            match (a, a.is_correct(obeys)) {
                (Answer::Pass, _) => String::new(),
                (_, true) => format!(" (right: {reward})"),
                (_, false) => " (wrong)".into(),
            }
        ));
    }
    Line::new(
        json!({"event": "revealed", "number": number,
               "koan": koan.map(Koan::to_line), "obeys": obeys,
               "answers": by_name, "right": right, "time_up": time_up}),
        format!(
            "{}{}{} {}: {}",
            if time_up { "time is up. " } else { "" },
            numbered(number),
            koan.map_or("the structure".into(), Koan::to_line),
            verdict(obeys),
            said.join(", ")
        ),
    )
}

/// What every created event says (never its setup).
pub(crate) fn created() -> Line {
    Line::new(
        json!({"event": "created"}),
        "the umpire sets up the match and hides the pattern",
    )
}

/// Whether an event begins a step or is part of a guess (the ticket counts follow).
fn starts_step_or_guess(e: &EventKind<DuelEvent>) -> bool {
    matches!(
        e,
        EventKind::Game(
            DuelEvent::TurnStarted { .. }
                | DuelEvent::Skipped { .. }
                | DuelEvent::ChallengeRevealed { .. }
                | DuelEvent::Zendo(
                    ZendoEvent::Observed { .. }
                        | ZendoEvent::GuessRead { .. }
                        | ZendoEvent::GuessWithdrawn { .. }
                        | ZendoEvent::Refuted { .. }
                        | ZendoEvent::GuessUndecided { .. }
                )
        )
    )
}

/// How a match ended, in a few words (the status and the end event say it).
fn outcome_line(
    outcome: &Outcome,
    names: &Names,
    score: Option<u32>,
    shown: impl Fn(u32) -> u32,
) -> Line {
    match *outcome {
        Outcome::Solved { by, guess } if names.is_table() => Line::new(
            json!({"event": "won", "player": names.name(by), "guess": guess,
                   "shown": shown(guess)}),
            format!("{} wins with guess #{}!", names.name(by), shown(guess)),
        ),
        Outcome::Solved { .. } => Line::new(
            json!({"event": "won", "score": score}),
            "solved".to_string(),
        ),
        Outcome::Resigned { by } if names.is_table() => Line::new(
            json!({"event": "over", "how": "resigned", "player": names.name(by),
                   "winner": names.name(by.other())}),
            format!(
                "{} resigns: {} wins",
                names.name(by),
                names.name(by.other())
            ),
        ),
        Outcome::Resigned { .. } => {
            Line::new(json!({"event": "over", "how": "resigned"}), "you gave up")
        }
        Outcome::Idle { seat, acted } => idle_line(names, seat, acted),
        Outcome::Abandoned => abandoned_line(),
        Outcome::Declined { by, time_up } => Line::new(
            json!({"event": "over", "how": "declined", "player": names.name(by),
                   "time_up": time_up}),
            if time_up {
                format!(
                    "{} did not choose who starts in time: the duel is declined, no winner",
                    names.name(by)
                )
            } else {
                format!("{} left before the duel started: no winner", names.name(by))
            },
        ),
        Outcome::Ended { by } => Line::new(
            json!({"event": "over", "how": "ended", "by": names.person(by)}),
            format!("{} ended the match: no winner", names.person(by)),
        ),
        Outcome::Deserted { idle } => Line::new(
            json!({"event": "over", "how": "deserted", "idle": idle}),
            if idle {
                "every student still in the game is skipped for time-outs: nobody is \
                 playing, the game ends with no winner"
            } else {
                "one student is left: the game ends with no winner"
            },
        ),
    }
}

/// A Duel or Triple that ended because `seat` let its own turns run out (the
/// fair-play rule, docs/ratings.md): after playing it loses on time, never having
/// played it aborts the match.
pub(crate) fn idle_line(names: &Names, seat: Seat, acted: bool) -> Line {
    let turns = mondo_rules::rules::zendo::duel::IDLE_OWN_TURNS;
    let (who, other) = (names.name(seat), names.name(seat.other()));
    Line::new(
        json!({"event": "over", "how": "idle", "player": who,
               "winner": acted.then(|| other.clone())}),
        if acted {
            format!(
                "{who} let {turns} turns in a row run out after playing: {who} loses on time, {other} wins"
            )
        } else {
            format!(
                "{who} never played ({turns} turns in a row ran out): the match is aborted, no result"
            )
        },
    )
}

/// A Duel or Triple nobody played: abandoned, no result.
pub(crate) fn abandoned_line() -> Line {
    Line::new(
        json!({"event": "over", "how": "abandoned"}),
        format!(
            "nobody played for {} turns in a row: the match is abandoned, no winner",
            mondo_rules::rules::zendo::duel::IDLE_TURNS
        ),
    )
}

/// How a match ended, for a status.
pub fn outcome_text(outcome: &Outcome, names: &Names, guesses: &[GuessView]) -> String {
    outcome_line(outcome, names, None, |g| GuessView::shown(guesses, g)).text
}

/// A guess's state in a list of guesses.
pub fn guess_state(status: &GuessStatus) -> String {
    match status {
        GuessStatus::Pending => "waiting to be made official".into(),
        GuessStatus::Official => "being judged".into(),
        GuessStatus::Refuted { counterexample } => format!("wrong: see #{counterexample}"),
        GuessStatus::Correct => "right".into(),
        GuessStatus::Undecided { .. } => "void: the umpire could not decide in time".into(),
        GuessStatus::TakenBack => "taken back".into(),
        GuessStatus::TimedOut => "withdrawn: time ran out".into(),
        GuessStatus::Disallowed => "disallowed by a host".into(),
    }
}

/// The guesses worth listing: official ones and the one being read back (read-backs
/// taken back are not guesses players count).
pub fn listed_guesses(guesses: &[GuessView]) -> impl Iterator<Item = &GuessView> {
    guesses
        .iter()
        .filter(|g| !matches!(g.status, GuessStatus::TakenBack | GuessStatus::TimedOut))
}

/// `guess #2: every piece points up (wrong: see #4)`.
pub fn guess_line(g: &GuessView) -> String {
    format!(
        "guess #{}: {} ({})",
        g.shown,
        g.reading,
        guess_state(&g.status)
    )
}

/// A table entry on one line: `#3   obeys         1^ 2v`.
pub fn entry_line(e: &TableEntry) -> String {
    format!(
        "#{:<3} {:<13} {}",
        e.number,
        verdict(e.obeys),
        e.koan.to_line()
    )
}

/// The table as JSON (`{"event":"board","table":[...]}`).
pub fn board_json(table: &[TableEntry]) -> serde_json::Value {
    let table: Vec<_> = table
        .iter()
        .map(|e| {
            json!({"number": e.number, "koan": e.koan.to_line(), "obeys": e.obeys,
                   "origin": e.origin})
        })
        .collect();
    json!({"event": "board", "table": table})
}

/// What the player whose turn it is may do now, in the front's commands.
pub fn step_hint(front: Front, step: &StepView) -> String {
    match (front, step) {
        (Front::Terminal, StepView::Build) => {
            "step 1: koan STRUCTURE [observe|challenge], or skip".into()
        }
        (Front::Discord, StepView::Build) => "step 1, build with `/koan` or `/pass`".into(),
        (_, StepView::Challenge { .. }) => "challenged: both players answer".into(),
        (Front::Terminal, StepView::Guess) => "step 2: guess PATTERN, or end turn".into(),
        (Front::Discord, StepView::Guess) => "step 2, `/guess` or `/endturn`".into(),
        (_, StepView::Pending { guess }) => {
            format!("guess #{guess} waits to be made official or taken back")
        }
        (_, StepView::Verdict { guess }) => format!("the umpire is judging guess #{guess}"),
    }
}

/// Who has answered a challenge (never what).
pub fn answered_text(names: &Names, answered: &[bool]) -> String {
    answered
        .iter()
        .enumerate()
        .map(|(i, a)| {
            format!(
                "{} {}",
                names.name(Seat(i as u8)),
                if *a {
                    "has answered"
                } else {
                    "has not answered"
                }
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A duel's status: whose move, the clocks (as of `now`), the tickets.
pub fn duel_status(game: i64, v: &DuelView, names: &Names, now: Millis) -> Line {
    let turn_left = v.clock.remaining(now);
    let shown_step = shown_step(v);
    let (player, step) = match &v.phase {
        PhaseView::ChoosingStarter => (
            Some(names.name(v.advantage)),
            match names.front {
                Front::Terminal => "to choose who starts (start NAME)".to_string(),
                Front::Discord => "to choose who starts".to_string(),
            },
        ),
        PhaseView::Over => (None, "the match is over".to_string()),
        PhaseView::Turn { seat, .. } => (
            Some(names.name(*seat)),
            step_hint(names.front, shown_step.as_ref().unwrap_or(&StepView::Build)),
        ),
    };
    let challenge = v.challenge();
    let step_code = match &v.phase {
        PhaseView::Turn { step, .. } => serde_json::to_value(step)
            .ok()
            .and_then(|s| s["step"].as_str().map(String::from)),
        _ => None,
    };
    let mut json = json!({
        "event": "status", "match": game, "game": "duel", "version": v.version,
        "phase": serde_json::to_value(&v.phase).ok().and_then(|p| p["phase"].as_str().map(String::from)),
        "turn": v.turn, "player": player, "step": step_code,
        "tickets": names.each_json(v.tickets.values()),
        "turn_left_ms": turn_left, "turn_clock_running": v.clock.is_running(),
        "paused": v.paused, "advantage": names.name(v.advantage), "table": v.table.len(),
        "guesses": listed_guesses(&v.guesses).count(), "revealed": v.revealed,
    });
    let mut text = format!("match {game}");
    if v.turn > 0 {
        text.push_str(&format!(", turn {}", v.turn));
    }
    match player {
        Some(p) => text.push_str(&format!(": {p}, {step}")),
        None => text.push_str(&format!(": {step}")),
    }
    if v.phase != PhaseView::Over && v.phase != PhaseView::ChoosingStarter {
        text.push_str(&format!(
            "; turn clock {}{}",
            clock_text(turn_left),
            if v.clock.is_running() {
                ""
            } else {
                " (stopped)"
            }
        ));
    }
    if let Some((koan, answered, clock)) = challenge {
        json["challenge"] = json!({"koan": koan.to_line(),
                                   "answered": names.each_json(answered.values()),
                                   "left_ms": clock.remaining(now)});
        text.push_str(&format!(
            "; challenge on {}: {} ({} left)",
            koan.to_line(),
            answered_text(names, answered.values()),
            clock_text(clock.remaining(now))
        ));
    }
    text.push_str(&format!("; tickets: {}", names.each(v.tickets.values())));
    if v.paused {
        text.push_str("; PAUSED by the host");
    }
    if let (Some(o), Some(pattern)) = (&v.outcome, &v.revealed) {
        text.push_str(&format!(
            "; {}; the pattern was: {pattern}",
            outcome_text(o, names, &v.guesses)
        ));
    }
    Line::new(json, text)
}

/// The step with guesses called by the number players see.
fn shown_step(v: &DuelView) -> Option<StepView> {
    match &v.phase {
        PhaseView::Turn { step, .. } => Some(match step {
            StepView::Pending { guess } => StepView::Pending {
                guess: GuessView::shown(&v.guesses, *guess),
            },
            StepView::Verdict { guess } => StepView::Verdict {
                guess: GuessView::shown(&v.guesses, *guess),
            },
            other => other.clone(),
        }),
        _ => None,
    }
}

/// A practice match's status.
pub fn practice_status(game: i64, v: &PracticeView, front: Front) -> Line {
    let shown = |g| GuessView::shown(&v.guesses, g);
    let step = match (v.step, front) {
        (PracticeStep::Play, Front::Terminal) => "build a koan or guess".to_string(),
        (PracticeStep::Play, Front::Discord) => {
            "build with `/koan` or guess with `/guess`".to_string()
        }
        (PracticeStep::Pending { guess }, _) => {
            format!(
                "guess #{} waits to be made official or taken back",
                shown(guess)
            )
        }
        (PracticeStep::Verdict { guess }, _) => {
            format!("the umpire is judging guess #{}", shown(guess))
        }
        (PracticeStep::Over, _) => "the game is over".to_string(),
    };
    let mut text = format!(
        "match {game}: {step}; {} built, {} judged (score so far {})",
        count(v.score.koans, "structure", "structures"),
        count(v.score.guesses, "guess", "guesses"),
        v.score.total()
    );
    if let Some(pattern) = &v.revealed {
        text.push_str(&format!("; the pattern was: {pattern}"));
    }
    Line::new(
        json!({"event": "status", "match": game, "game": "practice", "step": v.step,
               "koans": v.score.koans, "guesses": v.score.guesses, "revealed": v.revealed}),
        text,
    )
}

/// The clock of a duel that matters now, as words (`clock` says a running clock).
pub fn duel_clock(v: &DuelView, names: &Names, clock: impl Fn(&Clock) -> String) -> String {
    if v.paused {
        return format!("⏸ paused by a host; turn clock {}", clock(&v.clock));
    }
    match &v.phase {
        PhaseView::ChoosingStarter => format!(
            "{} has the advantage and chooses who starts",
            names.name(v.advantage)
        ),
        PhaseView::Turn {
            step: StepView::Challenge { clock: c, .. },
            ..
        } => format!("⏱ answers are due: {}", clock(c)),
        PhaseView::Turn { seat, .. } => {
            format!("⏱ {}'s turn: {}", names.name(*seat), clock(&v.clock))
        }
        PhaseView::Over => "the match is over".into(),
    }
}

/// A structure as a player typed it for a match of `set`: one line with ` / ` (or
/// `|`) between rows, or several lines.
pub fn read_structure(text: &str, set: PieceSet) -> Result<Koan, String> {
    if text.trim().is_empty() {
        let example = match set {
            PieceSet::Pyramids => "3> .. 2^ / .. 1< 1<",
            PieceSet::Arrows => "U R / . D",
        };
        return Err(format!(
            "give a structure, e.g. `{example}` (rows split by ` / `)"
        ));
    }
    if let Some(why) = words_for_a_structure(text, set) {
        return Err(why);
    }
    Koan::parse_as(text, set).map_err(|e| format!("that structure does not read: {e}"))
}

/// When a structure was typed as words (`big up`), what was wrong and how the set's
/// notation writes it, with the pieces the words name when they name some (`3^`).
fn words_for_a_structure(text: &str, set: PieceSet) -> Option<String> {
    let notation = |c: char| matches!(c.to_ascii_uppercase(), 'U' | 'R' | 'D' | 'L' | 'V');
    let words: Vec<&str> = text.split_whitespace().collect();
    // A word: letters only, two or more, one of them no notation's (`big`, `up`).
    let is_word = |w: &&str| {
        w.chars().count() > 1
            && w.chars().all(char::is_alphabetic)
            && w.chars().any(|c| !notation(c))
    };
    if !words.iter().any(is_word) {
        return None;
    }
    let size = |w: &str| match w {
        "small" | "little" => Some('1'),
        "medium" => Some('2'),
        "large" | "big" => Some('3'),
        _ => None,
    };
    let dir = |w: &str| match w {
        "up" | "upward" => Some(('^', 'U')),
        "right" => Some(('>', 'R')),
        "down" | "downward" => Some(('v', 'D')),
        "left" => Some(('<', 'L')),
        _ => None,
    };
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    // The pieces the words name, when every word is part of one (`big up`, `left`).
    let named = || {
        let mut pieces = Vec::new();
        let mut i = 0;
        while i < lower.len() {
            let (s, d) = match (size(&lower[i]), lower.get(i + 1).and_then(|w| dir(w))) {
                (Some(s), Some(d)) => (Some(s), d),
                _ => (None, dir(&lower[i])?),
            };
            i += if s.is_some() { 2 } else { 1 };
            pieces.push(match set {
                PieceSet::Pyramids => format!("{}{}", s?, d.0),
                PieceSet::Arrows => d.1.to_string(),
            });
        }
        Some(pieces)
    };
    Some(words_said(text, set, &named().unwrap_or_default()))
}

/// The refusal of a structure typed as words (see [`words_for_a_structure`]).
fn words_said(text: &str, set: PieceSet, pieces: &[String]) -> String {
    let how = match set {
        PieceSet::Pyramids => {
            "in pyramids notation a piece is its size (1, 2 or 3 pips) then where it points \
             (^ > v <, or U R D L), `..` is an empty cell and ` / ` starts the next row: a \
             big piece pointing up is `3^`"
        }
        PieceSet::Arrows => {
            "in arrows notation a piece is where it points (U R D L, or ^ > v <), `.` is an \
             empty cell and ` / ` starts the next row: an arrow pointing up is `U`"
        }
    };
    let meant = if pieces.is_empty() {
        String::new()
    } else {
        format!("; did you mean `{}`?", pieces.join(" "))
    };
    format!(
        "that structure does not read: `{}` is words, not a structure: {how}{meant}",
        text.trim()
    )
}

/// `STRUCTURE [observe|challenge]`: the structure, then the mode if the last word
/// names one (observe by default).
pub fn read_structure_and_mode(text: &str, set: PieceSet) -> Result<(Koan, Mode), String> {
    let (structure, mode) = match text
        .trim()
        .rsplit_once(char::is_whitespace)
        .map(|(s, m)| (s, m.parse::<Mode>()))
    {
        Some((s, Ok(mode))) => (s, mode),
        _ => (text, Mode::Observe),
    };
    Ok((read_structure(structure, set)?, mode))
}

/// A guess as a player typed it: the pattern, or why it does not read, as `mondo
/// explain` says it (the picture of where reading stopped, the help and the
/// suggestions that read).
pub fn read_guess(text: &str, set: PieceSet) -> Result<Pattern, String> {
    if text.trim().is_empty() {
        return Err("write the pattern after `guess`, e.g. guess some piece points up".into());
    }
    lang::read_for(text, set).map_err(|e| format!("the guess does not read:\n{}", e.render(text)))
}

/// What a guess read back warns of: nothing when no table structure contradicts it,
/// otherwise `say` of the structures' numbers (`#3, #5`).
fn contradicted(contradictions: &[u32], say: impl Fn(&str) -> String) -> String {
    if contradictions.is_empty() {
        return String::new();
    }
    let list: Vec<String> = contradictions.iter().map(|n| format!("#{n}")).collect();
    say(&list.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A structure typed as words is told what was wrong and how the notation writes
    /// it, not that a letter is the other set's notation.
    #[test]
    fn a_structure_typed_as_words_is_shown_the_notation() {
        let e = read_structure("big up", PieceSet::Pyramids).unwrap_err();
        assert!(
            e.starts_with("that structure does not read: `big up` is words, not a structure"),
            "{e}"
        );
        assert!(
            e.contains("`..` is an empty cell") && e.contains("` / `"),
            "{e}"
        );
        assert!(e.ends_with("did you mean `3^`?"), "{e}");
        assert!(!e.contains("arrows notation"), "{e}");
        let e = read_structure("left up", PieceSet::Arrows).unwrap_err();
        assert!(e.ends_with("did you mean `L U`?"), "{e}");
        // No size, no guess; a notation that reads is untouched.
        let e = read_structure("up", PieceSet::Pyramids).unwrap_err();
        assert!(!e.contains("did you mean"), "{e}");
        assert!(read_structure("3^ .. 1U 2v 1V", PieceSet::Pyramids).is_ok());
        assert!(read_structure("LUD / .R.", PieceSet::Arrows).is_ok());
        // A cell that does not read is said as before.
        let e = read_structure("9x", PieceSet::Pyramids).unwrap_err();
        assert!(!e.contains("words"), "{e}");
    }
    use mondo_rules::rules::zendo::testing::*;
    use mondo_rules::rules::zendo::{Duel, DuelMove, Practice, ZendoMove};
    use mondo_rules::rules::{Actor, Game, PlayerId, Viewer};

    fn names() -> Names {
        Names::new(
            Front::Terminal,
            vec![(ALICE, "alice".into()), (BOB, "bob".into())],
            [(HOST.0, "host".to_string())].into(),
        )
    }

    fn texts(said: Said) -> Vec<String> {
        said.all().into_iter().map(|l| l.text).collect()
    }

    #[test]
    fn ticket_counts_are_said_at_each_step() {
        let mut h = Harness::<Duel>::duel(duel_setup(parsed("some piece points up")));
        let mut n = Narrator::duel(names(), &h.game.view(&Viewer::Spectator));
        let mut say = |h: &Harness<Duel>, events: &[duel::Event]| {
            texts(n.duel_batch(events, &h.game.view(&Viewer::Spectator)))
        };
        // Turn 1 starts: step 1 begins, the counts are said.
        let events = h.ok(Actor::Player(ALICE), choose(ALICE));
        assert_eq!(say(&h, &events).last().unwrap(), "tickets: alice 0, bob 0");
        // Alice skips: Bob +1, Alice's step 2 has no ticket, Bob's turn starts.
        let events = h.ok(Actor::Player(ALICE), DuelMove::Skip);
        let said = say(&h, &events);
        assert_eq!(said.last().unwrap(), "tickets: alice 0, bob 1", "{said:?}");
        // Bob observes (#3, numbered) and is in step 2 with his ticket.
        let k = h.fresh(true);
        let events = h.ok(Actor::Player(BOB), build(k.clone(), Mode::Observe));
        let said = say(&h, &events);
        assert_eq!(said[0], format!("bob: #3 {} obeys", k.to_line()));
        assert_eq!(said.last().unwrap(), "tickets: alice 0, bob 1");
        // A guess is made: said with the tickets after it.
        let events = h.ok(Actor::Player(BOB), guess("every piece points up"));
        let said = say(&h, &events);
        assert!(said[0].starts_with("bob's guess #1 reads:"), "{said:?}");
        assert_eq!(said.last().unwrap(), "tickets: alice 0, bob 0");
        // Ending the turn says no tickets (nothing began but the next turn).
        let events = h.ok(Actor::Player(BOB), ZendoMove::TakeBack);
        assert_eq!(say(&h, &events).last().unwrap(), "tickets: alice 0, bob 1");
    }

    #[test]
    fn practice_speaks_of_no_tickets_and_numbers_official_guesses() {
        let mut h = Harness::<Practice>::practice(practice_setup(parsed("some piece points up")));
        let mut n = Narrator::new(Names::solo(Front::Terminal));
        let mut say = |h: &Harness<Practice>, events: &[practice::Event]| {
            texts(n.practice_batch(events, &h.game.view(&Viewer::Player(ALICE))))
        };
        let events = h.ok(Actor::Player(ALICE), guess("every piece points up"));
        assert!(say(&h, &events)[0].starts_with("guess #1 reads:"));
        let events = h.ok(
            Actor::Player(ALICE),
            mondo_rules::rules::zendo::PracticeMove::Zendo(ZendoMove::TakeBack),
        );
        assert_eq!(say(&h, &events), ["guess #1 taken back"]);
        // The next read-back is still #1: taken-back read-backs are not guesses.
        let events = h.ok(Actor::Player(ALICE), guess("some piece points up"));
        assert!(say(&h, &events)[0].starts_with("guess #1 reads:"));
        let events = h.ok(
            Actor::Player(ALICE),
            mondo_rules::rules::zendo::PracticeMove::Zendo(ZendoMove::Confirm),
        );
        assert_eq!(
            say(&h, &events),
            ["guess #1 is official; the umpire is judging it"]
        );
        let events = h.umpire();
        let said = say(&h, &events);
        assert_eq!(
            said,
            ["right! the pattern was: some piece points up (score 1, lower is better)"]
        );
        assert!(said.iter().all(|s| !s.contains("ticket")));
    }

    #[test]
    fn a_redacted_answer_says_only_that_it_is_in() {
        let mut h = Harness::<Duel>::duel(duel_setup(parsed("some piece points up")));
        h.ok(Actor::Player(ALICE), choose(ALICE));
        let k = h.fresh(true);
        h.ok(Actor::Player(ALICE), build(k, Mode::Challenge));
        let events = h.ok(Actor::Player(BOB), answer(Answer::Not));
        let mut n = Narrator::duel(names(), &h.game.view(&Viewer::Spectator));
        let seen: Vec<_> = events
            .iter()
            .filter_map(|e| h.game.visible(e, &Viewer::Spectator))
            .collect();
        let said = texts(n.duel_batch(&seen, &h.game.view(&Viewer::Spectator)));
        assert_eq!(said, ["bob's answer is in"]);
        let mine: Vec<_> = events
            .iter()
            .filter_map(|e| h.game.visible(e, &Viewer::Player(BOB)))
            .collect();
        let said = texts(n.duel_batch(&mine, &h.game.view(&Viewer::Player(BOB))));
        assert_eq!(said, ["bob's answer is in: does not obey"]);
        let _ = PlayerId(0);
    }

    #[test]
    fn structures_and_guesses_read_with_errors_that_say_what_to_do() {
        let (k, mode) =
            read_structure_and_mode("1^ 2> / .. 3v challenge", PieceSet::Pyramids).unwrap();
        assert_eq!((k.len(), mode), (3, Mode::Challenge));
        let (_, mode) = read_structure_and_mode("1^", PieceSet::Pyramids).unwrap();
        assert_eq!(mode, Mode::Observe);
        let e = read_structure("", PieceSet::Arrows).unwrap_err();
        assert!(e.contains("U R / . D"), "{e}");
        let e = read_structure("1^", PieceSet::Arrows).unwrap_err();
        assert!(e.contains("does not read"), "{e}");
        let e = read_guess("", PieceSet::Pyramids).unwrap_err();
        assert!(e.contains("guess some piece"), "{e}");
        let e = read_guess("two pieces point up", PieceSet::Pyramids).unwrap_err();
        assert!(e.contains("does not read"), "{e}");
        // The same hints as `mondo explain`: what to write instead.
        assert!(e.contains("exactly two"), "{e}");
        // A guess about what the match's pieces lack is refused as it is read.
        let e = read_guess("some piece is large", PieceSet::Arrows).unwrap_err();
        assert!(e.contains("large"), "{e}");
    }
}
