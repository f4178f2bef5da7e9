//! The words of Zendo Classic, for every front. The table, the guesses and the end
//! are said as in every Zendo game (`narrate::zendo`: the same JSON events,
//! `verdict`, `reading`, `counterexample`, `won`, ...); here are the Classic's own:
//! turns, mondos, students skipped, back or gone, and the stone counts.
//!
//! Every event kind is said, with no catch-all; the created event (which holds the
//! rule) is said without its setup, and a mondo answer another student gave is said
//! without its content (the game redacts it; the reveal says every answer together).

use super::{After, Narrator, answered, created, listed_guesses, revealed};
use crate::{Front, Line, Names, clock_text};
use mondo_rules::koan::Koan;
use mondo_rules::rules::zendo::classic::{ClassicEvent, ClassicView, Event, PhaseView};
use mondo_rules::rules::zendo::{GuessView, StepView, TurnEnd, ZendoEvent};
use mondo_rules::rules::{BySeat, EventKind, Millis, Seat};
use serde_json::json;

/// What the narration remembers between batches: who is who, and the structure under
/// mondo (the reveal names it).
#[derive(Clone, Debug)]
pub struct ClassicNarrator {
    zendo: Narrator,
    mondo: Option<Koan>,
}

impl ClassicNarrator {
    /// For a game seen in `view` (remembers a mondo already under way).
    pub fn new(names: Names, view: Option<&ClassicView>) -> ClassicNarrator {
        let mondo = match view.and_then(ClassicView::step) {
            Some(StepView::Challenge { koan, .. }) => Some(koan.clone()),
            _ => None,
        };
        ClassicNarrator {
            zendo: Narrator::with_stones(names),
            mondo,
        }
    }

    pub fn names(&self) -> &Names {
        &self.zendo.names
    }

    /// A batch of events, with the view after it; the stone counts follow when a
    /// turn, a reveal or a guess changed them.
    pub fn batch(&mut self, events: &[Event], view: &ClassicView) -> Vec<Line> {
        let after = After {
            table: &view.table,
            guesses: &view.guesses,
            score: None,
        };
        let mut lines: Vec<Line> = events
            .iter()
            .map(|e| self.event(e, &after, &view.left))
            .collect();
        let counted = events.iter().any(|e| {
            matches!(
                e.game(),
                Some(
                    ClassicEvent::TurnStarted { .. }
                        | ClassicEvent::MondoRevealed { .. }
                        | ClassicEvent::Zendo(
                            ZendoEvent::GuessRead { .. }
                                | ZendoEvent::GuessWithdrawn { .. }
                                | ZendoEvent::Refuted { .. }
                                | ZendoEvent::GuessUndecided { .. }
                        )
                )
            )
        });
        if counted && view.outcome.is_none() {
            lines.push(stones(self.names(), view));
        }
        lines
    }

    /// One event; `left` says who has left the game (a reveal does not name them).
    fn event(&mut self, e: &Event, after: &After<'_>, left: &BySeat<bool>) -> Line {
        let e = match &e.kind {
            EventKind::Game(e) => e,
            other => return self.zendo.common(other),
        };
        let names = &self.zendo.names;
        let terminal = names.front == Front::Terminal;
        match e {
            ClassicEvent::ClassicCreated { .. } => created(),
            ClassicEvent::TurnStarted { turn, seat } => Line::new(
                json!({"event": "turn", "turn": turn, "player": names.name(*seat)}),
                format!(
                    "turn {turn}: {} to play: {}",
                    names.name(*seat),
                    if terminal {
                        "koan STRUCTURE master|mondo"
                    } else {
                        "build with `/koan` (master or mondo)"
                    }
                ),
            ),
            ClassicEvent::MondoOpened { by, koan } => {
                self.mondo = Some(koan.clone());
                Line::new(
                    json!({"event": "mondo", "player": names.name(*by), "koan": koan.to_line()}),
                    format!(
                        "{} calls mondo on {}: every student answers, privately: {}",
                        names.name(*by),
                        koan.to_line(),
                        if terminal {
                            "`NAME: answer obeys|not|pass`"
                        } else {
                            "by DM, or with *Answer privately* below"
                        }
                    ),
                )
            }
            ClassicEvent::MondoAnswered { seat, answer } => answered(names, *seat, *answer),
            ClassicEvent::MondoRevealed {
                answers,
                obeys,
                time_up,
            } => {
                let koan = self.mondo.take();
                let koan = koan.as_ref().map(|k| (k, after.number(k)));
                let present = |s: Seat| !left.get(s).copied().unwrap_or(false);
                revealed(names, koan, answers, *obeys, *time_up, "+1 stone", &present)
            }
            ClassicEvent::TurnEnded { seat, why } => {
                let name = names.name(*seat);
                let (code, text) = match why {
                    TurnEnd::Ended => ("ended", format!("{name}'s turn ends")),
                    TurnEnd::TimeUp => ("time_up", format!("{name}'s turn time is up")),
                    TurnEnd::NoTickets => (
                        "no_stones",
                        format!("{name} has no stone to guess with: the turn passes"),
                    ),
                };
                Line::new(
                    json!({"event": "turn_ended", "player": name, "why": code}),
                    text,
                )
            }
            ClassicEvent::Away { seat } => {
                let name = names.name(*seat);
                Line::new(
                    json!({"event": "away", "player": name}),
                    format!(
                        "{name}'s turn timed out twice in a row: {name} is skipped until they \
                         act again ({})",
                        if terminal {
                            format!("answer a mondo, or `{name}: back`")
                        } else {
                            "answer a mondo, or `/zendo back`".into()
                        }
                    ),
                )
            }
            ClassicEvent::Back { seat } => Line::new(
                json!({"event": "back", "player": names.name(*seat)}),
                format!("{} is back in the turn order", names.name(*seat)),
            ),
            ClassicEvent::Left { seat } => Line::new(
                json!({"event": "left_game", "player": names.name(*seat)}),
                format!("{} leaves the game", names.name(*seat)),
            ),
            ClassicEvent::Joined { player } => Line::new(
                json!({"event": "joined", "player": names.person(*player)}),
                format!("{} joins the lobby", names.person(*player)),
            ),
            ClassicEvent::Unjoined { player } => Line::new(
                json!({"event": "unjoined", "player": names.person(*player)}),
                format!("{} leaves the lobby", names.person(*player)),
            ),
            ClassicEvent::Started => Line::new(
                json!({"event": "started"}),
                "the lobby closes: the game begins",
            ),
            ClassicEvent::LobbyClosed { by } => Line::new(
                json!({"event": "lobby_closed", "by": by.map(|p| names.person(p))}),
                match by {
                    Some(p) => format!("{} closes the lobby: no game", names.person(*p)),
                    None => "nobody started the lobby in time: it closes, no game".into(),
                },
            ),
            ClassicEvent::Zendo(z) => self.zendo.zendo(z, after),
        }
    }
}

/// The stone counts (public) of the students still in the game.
pub fn stones(names: &Names, v: &ClassicView) -> Line {
    let present: Vec<Seat> = Seat::all(v.players.len()).filter(|s| !v.left[*s]).collect();
    let map: serde_json::Map<String, serde_json::Value> = present
        .iter()
        .map(|s| (names.name(*s), v.stones[*s].into()))
        .collect();
    let text: Vec<String> = present
        .iter()
        .map(|s| format!("{} {}", names.name(*s), v.stones[*s]))
        .collect();
    Line::new(
        json!({"event": "stones", "stones": map}),
        format!("guessing stones: {}", text.join(", ")),
    )
}

/// What the student whose turn it is may do now.
fn step_hint(front: Front, step: &StepView, guesses: &[GuessView]) -> String {
    let shown = |g| GuessView::shown(guesses, g);
    match (front, step) {
        (Front::Terminal, StepView::Build) => "build: koan STRUCTURE master|mondo".into(),
        (Front::Discord, StepView::Build) => "build with `/koan` (master or mondo)".into(),
        (_, StepView::Challenge { .. }) => "mondo: every student answers".into(),
        (Front::Terminal, StepView::Guess) => "guess PATTERN, or end turn".into(),
        (Front::Discord, StepView::Guess) => "`/guess`, or end the turn".into(),
        (_, StepView::Pending { guess }) => format!(
            "guess #{} waits to be made official or taken back",
            shown(*guess)
        ),
        (_, StepView::Verdict { guess }) => {
            format!("the umpire is judging guess #{}", shown(*guess))
        }
    }
}

/// A game's status: whose move, the clocks (as of `now`), the stones, who is skipped
/// or gone; the rule once it is over.
pub fn status(game: i64, v: &ClassicView, names: &Names, now: Millis) -> Line {
    let seats = |f: &dyn Fn(Seat) -> bool| -> Vec<String> {
        Seat::all(v.players.len())
            .filter(|s| f(*s))
            .map(|s| names.name(s))
            .collect()
    };
    let away = seats(&|s| v.away[s] && !v.left[s]);
    let left = seats(&|s| v.left[s]);
    let turn_left = v.clock.remaining(now);
    let step_code = v
        .step()
        .and_then(|s| serde_json::to_value(s).ok())
        .and_then(|s| s["step"].as_str().map(|c| c.replace("challenge", "mondo")));
    let mut json = json!({
        "event": "status", "match": game, "game": "classic", "version": v.version,
        "turn": v.turn, "player": v.turn_seat().map(|s| names.name(s)), "step": step_code,
        "stones": names.each_json(v.stones.values()), "away": away, "left": left,
        "turn_left_ms": turn_left, "turn_clock_running": v.clock.is_running(),
        "paused": v.paused, "table": v.table.len(),
        "guesses": listed_guesses(&v.guesses).count(), "revealed": v.revealed,
        "master": v.master.map(|m| names.person(m)),
    });
    let mut text = format!("match {game}");
    match (&v.phase, v.step()) {
        (PhaseView::Turn { seat, .. }, Some(step)) => text.push_str(&format!(
            ", turn {}: {}, {}; turn clock {}{}",
            v.turn,
            names.name(*seat),
            step_hint(names.front, step, &v.guesses),
            clock_text(turn_left),
            if v.clock.is_running() {
                ""
            } else {
                " (stopped)"
            }
        )),
        _ => text.push_str(": the game is over"),
    }
    if let Some(StepView::Challenge {
        koan,
        answered,
        clock,
        ..
    }) = v.step()
    {
        let waiting = seats(&|s| !answered[s] && !v.left[s]);
        json["mondo"] = json!({"koan": koan.to_line(), "waiting_for": waiting,
                               "left_ms": clock.remaining(now)});
        text.push_str(&format!(
            "; mondo on {}: waiting for {} ({} left)",
            koan.to_line(),
            if waiting.is_empty() {
                "nobody".into()
            } else {
                waiting.join(", ")
            },
            clock_text(clock.remaining(now))
        ));
    }
    text.push_str(&format!("; {}", stones(names, v).text));
    if !away.is_empty() {
        text.push_str(&format!("; skipped: {}", away.join(", ")));
    }
    if !left.is_empty() {
        text.push_str(&format!("; gone: {}", left.join(", ")));
    }
    if v.paused {
        text.push_str("; PAUSED by the host");
    }
    if let (Some(o), Some(rule)) = (&v.outcome, &v.revealed) {
        text.push_str(&format!(
            "; {}; the rule was: {rule}",
            super::outcome_text(o, names, &v.guesses)
        ));
    }
    Line::new(json, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mondo_rules::rules::zendo::classic::{Classic, ClassicMove, ClassicSetup, ClassicTiming};
    use mondo_rules::rules::zendo::testing::{ALICE, BOB, HOST, Harness, koan, parsed};
    use mondo_rules::rules::zendo::{Answer, Initial, Settings};
    use mondo_rules::rules::{Action, Actor, Game, PlayerId, Viewer};

    const CAROL: PlayerId = PlayerId(3);

    fn names() -> Names {
        Names::new(
            Front::Terminal,
            vec![
                (ALICE, "alice".into()),
                (BOB, "bob".into()),
                (CAROL, "carol".into()),
            ],
            [(HOST.0, "host".to_string())].into(),
        )
    }

    /// `who`'s mondo answer.
    fn answer(h: &mut Harness<Classic>, who: PlayerId, answer: Answer) -> Vec<Event> {
        h.ok(Actor::Player(who), ClassicMove::Answer { answer })
    }

    /// Alice, Bob and Carol; the rule: some piece points up.
    fn three_students() -> Harness<Classic> {
        Harness::<Classic>::new(ClassicSetup {
            students: vec![ALICE, BOB, CAROL],
            master: None,
            hidden: parsed("some piece points up"),
            initial: Initial {
                obeys: koan("1^"),
                does_not: koan("1>"),
            },
            settings: Settings::default(),
            timing: ClassicTiming::default(),
            seed: 1,
            lobby: None,
        })
    }

    #[test]
    fn skipped_back_and_gone_students_are_said_and_answers_kept_private() {
        let mut h = three_students();
        let spectator = h.game.view(&Viewer::Spectator);
        let mut n = ClassicNarrator::new(names(), Some(&spectator));
        let mut said = |h: &Harness<Classic>, events: &[Event]| -> Vec<Line> {
            let v = h.game.view(&Viewer::Spectator);
            let heard: Vec<Event> = events
                .iter()
                .filter_map(|e| h.game.visible(e, &Viewer::Spectator))
                .collect();
            n.batch(&heard, &v)
        };
        let e = h.ok(
            Actor::Player(ALICE),
            ClassicMove::Build {
                koan: koan("2^"),
                call: mondo_rules::rules::zendo::classic::Call::Mondo,
            },
        );
        assert_eq!(said(&h, &e)[0].json["event"], "mondo");
        let e = answer(&mut h, BOB, Answer::Not);
        let line = &said(&h, &e)[0];
        assert_eq!(line.text, "bob's answer is in");
        assert!(line.json.get("answer").is_none());
        answer(&mut h, ALICE, Answer::Obeys);
        let e = answer(&mut h, CAROL, Answer::Obeys);
        let lines = said(&h, &e);
        assert_eq!(lines[1].json["event"], "revealed");
        assert!(
            lines[1].text.contains("bob said does not obey (wrong)"),
            "{}",
            lines[1].text
        );
        assert_eq!(
            lines.last().unwrap().json,
            serde_json::json!({"event": "stones", "stones": {"alice": 1, "bob": 0, "carol": 1}})
        );
        let e = h.ok(Actor::Player(BOB), Action::Resign);
        let lines = said(&h, &e);
        assert_eq!(lines[0].json["event"], "left_game");
        let s = status(1, &h.game.view(&Viewer::Spectator), &names(), h.now);
        assert_eq!(s.json["left"], serde_json::json!(["bob"]));
        assert!(s.text.contains("gone: bob"), "{}", s.text);
        assert!(!s.text.contains("bob 0"), "{}", s.text);
    }

    /// A student who leaves while a mondo is answered is not named in its reveal (they
    /// take no part in it and earn nothing).
    #[test]
    fn a_reveal_does_not_name_a_student_who_left() {
        let mut h = three_students();
        let spectator = h.game.view(&Viewer::Spectator);
        let mut n = ClassicNarrator::new(names(), Some(&spectator));
        h.ok(
            Actor::Player(ALICE),
            ClassicMove::Build {
                koan: koan("2^"),
                call: mondo_rules::rules::zendo::classic::Call::Mondo,
            },
        );
        h.ok(Actor::Player(BOB), Action::Resign);
        answer(&mut h, ALICE, Answer::Obeys);
        let e = answer(&mut h, CAROL, Answer::Obeys);
        let v = h.game.view(&Viewer::Spectator);
        let lines = n.batch(&e, &v);
        let reveal = lines
            .iter()
            .find(|l| l.json["event"] == "revealed")
            .expect("the mondo is revealed");
        assert!(!reveal.text.contains("bob"), "{}", reveal.text);
        assert!(
            reveal.json["answers"].get("bob").is_none(),
            "{}",
            reveal.json
        );
        assert!(reveal.text.contains("carol said obeys"), "{}", reveal.text);
    }
}
