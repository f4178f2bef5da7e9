//! The words every front says, written once: each event as one line of text and one
//! JSON object (the `--json` contract of `mondo play` and `mondo replay`), statuses,
//! refusals, clocks. Pure: no I/O, no clock (the time "now" comes in as an argument).
//!
//! The terminal and the Discord bot both narrate from here; they differ only in how a
//! person is named (a name typed at the terminal, a mention on Discord) and which
//! commands a line suggests ([`Front`]). One file of words per game family
//! ([`zendo`]).

pub mod board;
pub mod secrets;
// Each game's module here (`pub mod <folder>;`), from the registry's lines marked `mod`.
mondo_rules::registry::game_modules!();

use mondo_rules::rules::{PlayerId, RuleError, Seat};
use serde_json::{Value, json};
use std::collections::HashMap;

/// Which front the words are for: the commands they suggest differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Front {
    /// `mondo play` and `mondo replay`: commands typed as lines.
    #[default]
    Terminal,
    /// The Discord bot: slash commands, buttons and DMs; people are mentions.
    Discord,
}

/// Who is who at a table.
#[derive(Clone, Debug, Default)]
pub struct Names {
    pub front: Front,
    /// The players' names in seat order; empty for solo play ("you").
    seats: Vec<String>,
    /// Names of everyone else who may appear in events (hosts), by id.
    others: HashMap<u64, String>,
    /// The players' ids in seat order (to name a player met by id).
    ids: Vec<PlayerId>,
}

impl Names {
    /// Seated players by name (in seat order, with their ids), and the others.
    pub fn new(
        front: Front,
        seats: Vec<(PlayerId, String)>,
        others: HashMap<u64, String>,
    ) -> Names {
        Names {
            front,
            ids: seats.iter().map(|(id, _)| *id).collect(),
            seats: seats.into_iter().map(|(_, n)| n).collect(),
            others,
        }
    }

    /// One player alone: "you".
    pub fn solo(front: Front) -> Names {
        Names {
            front,
            ..Names::default()
        }
    }

    /// On Discord, everyone is a mention.
    pub fn mentions(players: &[PlayerId]) -> Names {
        Names::new(
            Front::Discord,
            players.iter().map(|p| (*p, mention(*p))).collect(),
            HashMap::new(),
        )
    }

    /// Whether several people play (names are said), or one alone ("you").
    pub fn is_table(&self) -> bool {
        !self.seats.is_empty()
    }

    /// A seat's player's name.
    pub fn name(&self, seat: Seat) -> String {
        self.seats
            .get(seat.index())
            .cloned()
            .unwrap_or_else(|| "you".into())
    }

    /// Someone named by id: a player or a host.
    pub fn person(&self, id: PlayerId) -> String {
        if let Some(i) = self.ids.iter().position(|p| *p == id) {
            return self.seats[i].clone();
        }
        match self.others.get(&id.0) {
            Some(name) => name.clone(),
            None if self.front == Front::Discord => mention(id),
            None => format!("player {}", id.0),
        }
    }

    /// Whether `id` plays in the match (solo play: its one player).
    pub fn plays(&self, id: PlayerId) -> bool {
        self.ids.contains(&id) || !self.is_table()
    }

    /// Every seat's name with a value: `alice 1, bob 0`.
    pub fn each<T: std::fmt::Display>(&self, values: &[T]) -> String {
        values
            .iter()
            .enumerate()
            .map(|(i, v)| format!("{} {v}", self.name(Seat(i as u8))))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Every seat's name with a value, as a JSON object.
    pub fn each_json<T: Into<Value> + Clone>(&self, values: &[T]) -> Value {
        let map: serde_json::Map<String, Value> = values
            .iter()
            .enumerate()
            .map(|(i, v)| (self.name(Seat(i as u8)), v.clone().into()))
            .collect();
        Value::Object(map)
    }
}

/// A Discord mention; an AI seat, which is nobody on Discord, by its name.
pub fn mention(id: PlayerId) -> String {
    match id.ai_seat() {
        Some((_, 0)) => "**Mondo** (AI)".to_string(),
        Some((_, k)) => format!("**AI student {k}**"),
        None => format!("<@{}>", id.0),
    }
}

/// One thing said: as JSON (for programs) and as text (for people).
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub json: Value,
    pub text: String,
    /// What was shown before must leave the screen (a hidden grid): a terminal is
    /// cleared, scrollback included, before the text; a message is edited away.
    pub clears_screen: bool,
}

impl Line {
    pub fn new(json: Value, text: impl Into<String>) -> Line {
        Line {
            json,
            text: text.into(),
            clears_screen: false,
        }
    }

    /// The same line, said after clearing what was shown before.
    pub fn clearing(self) -> Line {
        Line {
            clears_screen: true,
            ..self
        }
    }

    /// The line as a front prints it.
    pub fn render(&self, json: bool) -> String {
        if json {
            self.json.to_string()
        } else {
            self.text.clone()
        }
    }
}

/// A clock reading, `m:ss` (seconds rounded up: "0:01" until it is really out).
pub fn clock_text(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    format!("{}:{:02}", s / 60, s % 60)
}

/// `1 structure`, `2 structures`: a count with its noun in the right number.
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "obeys" / "does not obey".
pub fn verdict(obeys: bool) -> &'static str {
    if obeys { "obeys" } else { "does not obey" }
}

/// A refusal in words, with people named as this table names them.
pub fn refusal(e: &RuleError, names: &Names) -> String {
    match e {
        RuleError::NotYourTurn { waiting_for } => {
            format!(
                "it is not your turn: waiting for {}",
                names.person(*waiting_for)
            )
        }
        RuleError::NotOpener { opener } => format!(
            "only {} (who opened the lobby) or a host starts it",
            names.person(*opener)
        ),
        RuleError::NotInMatch(p) => format!("{} is not playing in this match", names.person(*p)),
        RuleError::StaleVersion { .. } if names.front == Front::Discord => {
            "that button is from an earlier moment of the match, which has moved on; use the \
             latest message, or `/zendo status`"
                .into()
        }
        other => other.to_string(),
    }
}

/// The shared event that says who chose a match's setup: a player makes the match
/// unrated, a host who does not play leaves it rated (docs/ratings.md, "Fair play").
pub fn setup_chosen(names: &Names, by: PlayerId) -> Line {
    let who = names.person(by);
    if names.plays(by) {
        let why = mondo_rules::rules::Why::SetupChosen { by };
        Line::new(
            json!({"event": "setup_chosen", "by": who, "rated": false, "why": why.name()}),
            format!("unrated: {}", why.text(|p| names.person(p))),
        )
    } else {
        Line::new(
            json!({"event": "setup_chosen", "by": who, "rated": true}),
            format!("rated: the setup was chosen by the host {who}"),
        )
    }
}

/// A two-player end as the fair-play rule judged it (docs/ratings.md), where the
/// game's own ending would say otherwise: the winner it leaves (if any), its name for
/// programs (`idle`, `aborted`, `abandoned`) and why, after "X wins: " or "no winner:
/// ". `idle` says what the side that lost this way did ("sent no showdown");
/// `resigned` whether the match ended by a resignation.
pub fn judged_end(
    verdict: &mondo_rules::rules::fair::Verdict,
    name: &dyn Fn(Seat) -> String,
    idle: &str,
    resigned: bool,
) -> (Option<Seat>, &'static str, String) {
    use mondo_rules::rules::fair::Verdict;
    match verdict {
        Verdict::Lose(seats) if seats.len() == 1 => (
            Some(seats[0].other()),
            "idle",
            format!("{} {idle}, which loses whatever the score", name(seats[0])),
        ),
        Verdict::Aborted(seat) => (
            None,
            "aborted",
            format!(
                "{} {}, so the match is aborted (unrated, no result against anyone)",
                name(*seat),
                if resigned {
                    "resigned before playing"
                } else {
                    "never played"
                }
            ),
        ),
        _ => (
            None,
            "abandoned",
            "nobody played the match out, so it is abandoned (unrated)".to_string(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(count(1u32, "structure", "structures"), "1 structure");
        assert_eq!(count(0u32, "structure", "structures"), "0 structures");
        assert_eq!(count(2u32, "guess", "guesses"), "2 guesses");
    }

    #[test]
    fn clocks_round_up_to_the_second() {
        assert_eq!(clock_text(180_000), "3:00");
        assert_eq!(clock_text(1), "0:01");
        assert_eq!(clock_text(0), "0:00");
        assert_eq!(clock_text(61_500), "1:02");
    }

    #[test]
    fn people_are_named_as_the_front_names_them() {
        let names = Names::new(
            Front::Terminal,
            vec![(PlayerId(1), "alice".into()), (PlayerId(2), "bob".into())],
            [(99, "host".to_string())].into(),
        );
        assert_eq!(names.person(PlayerId(2)), "bob");
        assert_eq!(names.person(PlayerId(99)), "host");
        assert_eq!(names.person(PlayerId(5)), "player 5");
        assert_eq!(names.each(&[1, 0]), "alice 1, bob 0");
        let discord = Names::mentions(&[PlayerId(7), PlayerId(8)]);
        assert_eq!(discord.name(Seat(1)), "<@8>");
        assert_eq!(discord.person(PlayerId(9)), "<@9>");
        let e = RuleError::NotYourTurn {
            waiting_for: PlayerId(2),
        };
        assert_eq!(refusal(&e, &names), "it is not your turn: waiting for bob");
    }
}
