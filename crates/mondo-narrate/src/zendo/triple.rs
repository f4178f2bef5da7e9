//! The words of Zendo Triple, for every front: its events as text and JSON lines, its
//! board and its status. JSON events (the contract, documented in docs/operators.md):
//! `board`, `starter`, `verdict`, `challenge`, `answered`, `revealed`, `reading`, `official`,
//! `withdrawn`, `counterexample`, `undecided`, `solved`, `turn`, `turn_ended`, `stones`,
//! `play_stopped`, `quiz`, `quiz_answered`, `quiz_revealed`, `won`, `over`, `status`.
//! No line holds an unsolved pattern before the end.

use super::contradicted;
use crate::{Line, Names, clock_text};
use mondo_rules::koan::Koan;
use mondo_rules::rules::zendo::triple::{
    Event, Letter, Marks, PhaseView, StepView, TripleEntry, TripleEvent, TripleOutcome, TripleView,
};
use mondo_rules::rules::zendo::{Answer, TurnEnd, Withdrawal, ZendoEvent};
use mondo_rules::rules::{EventKind, Seat};
use serde_json::{Value, json};

/// Marks as JSON: `{"A":true,"B":false,"C":null}`.
pub fn marks_json(marks: &Marks) -> Value {
    json!({"A": marks[0], "B": marks[1], "C": marks[2]})
}

/// Marks as text: `A obeys, B does not, C ?`.
pub fn marks_text(marks: &Marks) -> String {
    Letter::ALL
        .iter()
        .map(|l| {
            let m = match marks[l.index()] {
                Some(true) => "obeys",
                Some(false) => "does not",
                None => "?",
            };
            format!("{l} {m}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn entry_text(e: &TripleEntry) -> String {
    format!(
        "#{} {}: {}",
        e.number,
        e.koan.to_line(),
        marks_text(&e.marks)
    )
}

/// The table: one line per structure; its JSON is the whole table on the first line.
pub fn board(v: &TripleView) -> Vec<Line> {
    let table: Vec<Value> = v
        .table
        .iter()
        .map(|e| json!({"koan": e.koan.to_line(), "number": e.number, "patterns": marks_json(&e.marks)}))
        .collect();
    let json = json!({"event": "board", "table": table});
    let mut lines: Vec<Line> = v
        .table
        .iter()
        .map(|e| Line::new(Value::Null, entry_text(e)))
        .collect();
    match lines.first_mut() {
        Some(first) => first.json = json,
        None => lines.push(Line::new(json, "the table is empty")),
    }
    lines
}

fn answers_text(patterns: &[Letter], answers: &[Answer]) -> String {
    patterns
        .iter()
        .zip(answers)
        .map(|(l, a)| format!("{l} {a}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn entry_of<'a>(v: &'a TripleView, koan: &Koan) -> Option<&'a TripleEntry> {
    v.table.iter().find(|e| e.koan == *koan)
}

fn stones(names: &Names, v: &TripleView) -> Line {
    Line::new(
        json!({"event": "stones", "stones": names.each_json(v.stones.values())}),
        format!("stones: {}", names.each(v.stones.values())),
    )
}

/// A batch of events as lines, with the view after it.
pub fn tell(names: &Names, events: &[Event], v: &TripleView) -> Vec<Line> {
    let mut out = Vec::new();
    let mut stones_changed = false;
    for e in events {
        let EventKind::Game(e) = &e.kind else {
            match &e.kind {
                EventKind::Paused { by } => out.push(Line::new(
                    json!({"event": "paused", "by": names.person(*by)}),
                    format!("{} paused the match", names.person(*by)),
                )),
                EventKind::Resumed { by } => out.push(Line::new(
                    json!({"event": "resumed", "by": names.person(*by)}),
                    format!("{} resumed the match", names.person(*by)),
                )),
                EventKind::SetupChosen { by } => out.push(crate::setup_chosen(names, *by)),
                _ => {}
            }
            continue;
        };
        match e {
            TripleEvent::TripleCreated { .. } => {}
            TripleEvent::StarterChosen { starter } => out.push(Line::new(
                json!({"event": "starter", "player": names.name(*starter)}),
                format!("{} starts", names.name(*starter)),
            )),
            TripleEvent::TurnStarted { turn, seat } => out.push(Line::new(
                json!({"event": "turn", "turn": turn, "player": names.name(*seat)}),
                format!("turn {turn}: {} (3 steps: koan, guesses, end turn)", names.name(*seat)),
            )),
            TripleEvent::Graded { koan, marks, .. } => {
                let number = entry_of(v, koan).map_or(0, |e| e.number);
                out.push(Line::new(
                    json!({"event": "verdict", "number": number, "koan": koan.to_line(), "patterns": marks_json(marks)}),
                    format!("#{number} {}: {}", koan.to_line(), marks_text(marks)),
                ));
            }
            TripleEvent::ChallengeOpened { by, koan, patterns } => out.push(Line::new(
                json!({"event": "challenge", "player": names.name(*by), "koan": koan.to_line(), "patterns": patterns}),
                format!(
                    "{} challenges {} on {}: both players answer privately, e.g. `NAME: answer {}`",
                    names.name(*by),
                    koan.to_line(),
                    patterns.iter().map(Letter::to_string).collect::<Vec<_>>().join(", "),
                    patterns.iter().map(|l| format!("{l} obeys")).collect::<Vec<_>>().join(" ")
                ),
            )),
            TripleEvent::ChallengeAnswered { seat, answers } => {
                let mut json = json!({"event": "answered", "player": names.name(*seat)});
                if let Some(a) = answers {
                    json["answers"] = json!(a);
                }
                out.push(Line::new(json, format!("{} has answered", names.name(*seat))));
            }
            TripleEvent::ChallengeRevealed { answers, marks, time_up } => {
                let entry = v.table.iter().rev().find(|e| e.marks == *marks);
                let patterns: Vec<Letter> =
                    Letter::ALL.into_iter().filter(|l| marks[l.index()].is_some()).collect();
                let each: Vec<String> = answers
                    .iter()
                    .map(|(s, a)| format!("{} said {}", names.name(s), answers_text(&patterns, a)))
                    .collect();
                out.push(Line::new(
                    json!({"event": "revealed", "number": entry.map(|e| e.number),
                           "koan": entry.map(|e| e.koan.to_line()), "patterns": marks_json(marks),
                           "answers": names.each_json(&answers.values().iter().map(|a| json!(a)).collect::<Vec<_>>()),
                           "time_up": time_up}),
                    format!(
                        "revealed{}: {}; {}",
                        if *time_up { " (time up)" } else { "" },
                        marks_text(marks),
                        each.join("; ")
                    ),
                ));
                stones_changed = true;
            }
            TripleEvent::Pattern { pattern, zendo } => {
                out.push(pattern_line(names, v, *pattern, zendo));
                stones_changed |= matches!(
                    zendo,
                    ZendoEvent::GuessRead { .. }
                        | ZendoEvent::GuessWithdrawn { .. }
                        | ZendoEvent::GuessUndecided { .. }
                );
            }
            TripleEvent::Solved { pattern, by, text, .. } => out.push(Line::new(
                json!({"event": "solved", "pattern": pattern, "player": names.name(*by), "text": text}),
                format!("{} solved pattern {pattern}: {text}; it leaves the game", names.name(*by)),
            )),
            TripleEvent::TurnEnded { seat, why } => {
                let (code, words) = match why {
                    TurnEnd::Ended => ("ended", "ended the turn"),
                    TurnEnd::TimeUp => ("time_up", "is out of time"),
                    TurnEnd::NoTickets => ("no_stones", "has no stone left: the turn passes"),
                };
                out.push(Line::new(
                    json!({"event": "turn_ended", "player": names.name(*seat), "why": code}),
                    format!("{} {words}", names.name(*seat)),
                ));
            }
            TripleEvent::PlayStopped => out.push(Line::new(
                json!({"event": "play_stopped"}),
                "the time of play is over: a quiz decides the unsolved patterns",
            )),
            TripleEvent::QuizStarted { round, questions } => {
                let list: Vec<Value> = questions
                    .iter()
                    .map(|q| json!({"koan": q.koan.to_line(), "pattern": q.pattern}))
                    .collect();
                let text: Vec<String> = questions
                    .iter()
                    .enumerate()
                    .map(|(i, q)| format!("{}. {} on {}", i + 1, q.koan.to_line(), q.pattern))
                    .collect();
                out.push(Line::new(
                    json!({"event": "quiz", "round": round, "questions": list}),
                    format!(
                        "quiz round {round}: both players answer every question in order, e.g. \
                         `NAME: answer obeys not pass ...`\n{}",
                        text.join("\n")
                    ),
                ));
            }
            TripleEvent::QuizAnswered { seat, answers } => {
                let mut json = json!({"event": "quiz_answered", "player": names.name(*seat)});
                if let Some(a) = answers {
                    json["answers"] = json!(a);
                }
                out.push(Line::new(json, format!("{} has answered the quiz", names.name(*seat))));
            }
            TripleEvent::QuizRevealed { round, truths, won, .. } => {
                let decided: Vec<String> = Letter::ALL
                    .iter()
                    .filter_map(|l| {
                        won[l.index()].map(|w| match w {
                            Some(s) => format!("{l} goes to {}", names.name(s)),
                            None => format!("{l} goes to nobody"),
                        })
                    })
                    .collect();
                out.push(Line::new(
                    json!({"event": "quiz_revealed", "round": round, "truths": truths,
                           "won": won.map(|w| w.map(|s| s.map(|s| names.name(s))))}),
                    format!(
                        "quiz round {round} revealed: {}",
                        if decided.is_empty() { "every pattern still tied".into() } else { decided.join("; ") }
                    ),
                ));
            }
            TripleEvent::TripleEnded { outcome, patterns } => {
                out.push(end_line(names, outcome, patterns));
            }
        }
    }
    if stones_changed && v.outcome.is_none() {
        out.push(stones(names, v));
    }
    out
}

fn pattern_line(names: &Names, v: &TripleView, l: Letter, e: &ZendoEvent) -> Line {
    match e {
        ZendoEvent::GuessRead {
            number,
            by,
            reading,
            contradictions,
            ..
        } => {
            let warn = contradicted(contradictions, |n| {
                format!(" (warning: {n} already contradict it)")
            });
            Line::new(
                json!({"event": "reading", "pattern": l, "guess": number, "player": names.name(*by),
                       "reading": reading, "contradictions": contradictions}),
                format!(
                    "{}'s guess {l}{number} on pattern {l} reads: {reading}{warn}; `confirm` or `take back`",
                    names.name(*by)
                ),
            )
        }
        ZendoEvent::GuessConfirmed { number } => Line::new(
            json!({"event": "official", "pattern": l, "guess": number}),
            format!("guess {l}{number} is official; the umpire is judging it"),
        ),
        ZendoEvent::GuessWithdrawn { number, why } => {
            let (code, words) = match why {
                Withdrawal::TakenBack => ("taken_back", "taken back".to_string()),
                Withdrawal::TimeUp => ("time_up", "taken back: time ran out".to_string()),
                Withdrawal::Disallowed { by } => {
                    ("disallowed", format!("disallowed by {}", names.person(*by)))
                }
            };
            Line::new(
                json!({"event": "withdrawn", "pattern": l, "guess": number, "why": code}),
                format!("guess {l}{number} {words}; the stone is back"),
            )
        }
        ZendoEvent::Refuted {
            number,
            counterexample: ce,
            on_table,
        } => {
            let n = on_table
                .or_else(|| entry_of(v, &ce.koan).map(|e| e.number))
                .unwrap_or(0);
            Line::new(
                json!({"event": "counterexample", "pattern": l, "guess_number": number, "number": n,
                       "koan": ce.koan.to_line(), "hidden": ce.hidden, "guess": ce.guess}),
                format!(
                    "guess {l}{number} is wrong: #{n} {} {} pattern {l} but {} the guess (+30 s)",
                    ce.koan.to_line(),
                    if ce.hidden { "obeys" } else { "does not obey" },
                    if ce.guess { "obeys" } else { "does not obey" },
                ),
            )
        }
        ZendoEvent::GuessUndecided { number, reason } => Line::new(
            json!({"event": "undecided", "pattern": l, "guess": number, "reason": reason}),
            format!(
                "the umpire could not decide guess {l}{number} ({reason}): it is void, the stone is back"
            ),
        ),
        ZendoEvent::Observed { .. } | ZendoEvent::MatchEnded { .. } => Line::new(Value::Null, ""),
    }
}

/// A line the Duel says too, with the Triple's patterns revealed after it.
fn with_patterns(mut line: Line, patterns: Value, reveal: &str) -> Line {
    line.json["patterns"] = patterns;
    line.text = format!("{}; {reveal}", line.text);
    line
}

fn end_line(names: &Names, outcome: &TripleOutcome, patterns: &[String; 3]) -> Line {
    let shown: Vec<String> = Letter::ALL
        .iter()
        .map(|l| format!("{l}: {}", patterns[l.index()]))
        .collect();
    let reveal = format!("the patterns were {}", shown.join("; "));
    let pj = json!({"A": patterns[0], "B": patterns[1], "C": patterns[2]});
    match outcome {
        TripleOutcome::TwoSolved { by } => Line::new(
            json!({"event": "won", "player": names.name(*by), "how": "two_solved", "patterns": pj}),
            format!(
                "{} wins with two solved patterns; {reveal}",
                names.name(*by)
            ),
        ),
        TripleOutcome::Quiz {
            winner: Some(w),
            patterns: counts,
        } => Line::new(
            json!({"event": "won", "player": names.name(*w), "how": "quiz", "counts": counts, "patterns": pj}),
            format!(
                "{} wins, {} to {}; {reveal}",
                names.name(*w),
                crate::count(counts[w.index()], "pattern", "patterns"),
                counts[w.other().index()]
            ),
        ),
        TripleOutcome::Quiz {
            winner: None,
            patterns: counts,
        } => Line::new(
            json!({"event": "over", "how": "draw", "counts": counts, "patterns": pj}),
            format!(
                "a draw, {} each; {reveal}",
                crate::count(counts[0], "pattern", "patterns")
            ),
        ),
        TripleOutcome::Resigned { by } => Line::new(
            json!({"event": "won", "player": names.name(by.other()), "how": "resigned", "patterns": pj}),
            format!(
                "{} resigned: {} wins; {reveal}",
                names.name(*by),
                names.name(by.other())
            ),
        ),
        TripleOutcome::Idle { seat, acted } => {
            with_patterns(super::idle_line(names, *seat, *acted), pj, &reveal)
        }
        TripleOutcome::Abandoned => with_patterns(super::abandoned_line(), pj, &reveal),
        TripleOutcome::Ended { by } => Line::new(
            json!({"event": "over", "how": "ended", "by": names.person(*by), "patterns": pj}),
            format!("{} ended the match: no winner; {reveal}", names.person(*by)),
        ),
        TripleOutcome::Declined { by, time_up } => Line::new(
            json!({"event": "over", "how": "declined", "player": names.name(*by),
                   "time_up": time_up, "patterns": pj}),
            if *time_up {
                format!(
                    "{} did not choose who starts in time: the Triple is declined, no winner; \
                     {reveal}",
                    names.name(*by)
                )
            } else {
                format!(
                    "{} left before the Triple started: no winner; {reveal}",
                    names.name(*by)
                )
            },
        ),
    }
}

/// What a viewer may know now, in one line.
pub fn status(id: i64, names: &Names, v: &TripleView, now: u64) -> Line {
    let solved: Vec<String> = Letter::ALL
        .iter()
        .map(|l| match v.solved[l.index()] {
            Some(s) => format!("{l} solved by {}", names.name(s)),
            None => format!("{l} unsolved"),
        })
        .collect();
    let (doing, phase) = match &v.phase {
        PhaseView::ChoosingStarter { advantage } => (
            format!(
                "{} has the advantage and chooses who starts",
                names.name(*advantage)
            ),
            "choosing_starter",
        ),
        PhaseView::Turn { seat, step } => {
            let who = names.name(*seat);
            let what = match step {
                StepView::Build => "step 1 (koan, or guess, or end turn)".to_string(),
                StepView::Challenge {
                    answered, clock, ..
                } => format!(
                    "a challenge ({} answered, {} left to answer)",
                    answered.values().iter().filter(|a| **a).count(),
                    clock_text(clock.remaining(now))
                ),
                StepView::Guess => "step 2 (guess or end turn)".to_string(),
                StepView::Pending { pattern, guess } => {
                    format!("guess {pattern}{guess} waits for confirm or take back")
                }
                StepView::Verdict { pattern, guess } => {
                    format!("the umpire judges guess {pattern}{guess}")
                }
            };
            (format!("{who}'s turn {}: {what}", v.turn), "turn")
        }
        PhaseView::Quiz {
            round,
            answered,
            clock,
            ..
        } => (
            format!(
                "quiz round {round} ({} answered, {} left to answer)",
                answered.values().iter().filter(|a| **a).count(),
                clock_text(clock.remaining(now))
            ),
            "quiz",
        ),
        PhaseView::Over => ("over".to_string(), "over"),
    };
    let clock = v.clock.remaining(now);
    let game_left = v.game_clock.remaining(now);
    let challenge = match &v.phase {
        PhaseView::Turn {
            step:
                StepView::Challenge {
                    koan,
                    patterns,
                    answered,
                    clock,
                    ..
                },
            ..
        } => json!({"koan": koan.to_line(), "patterns": patterns,
                    "answered": names.each_json(answered.values()),
                    "left_ms": clock.remaining(now)}),
        _ => Value::Null,
    };
    Line::new(
        json!({"event": "status", "challenge": challenge, "match": id, "game": "triple", "version": v.version, "phase": phase,
               "turn": v.turn, "player": v.turn_seat().map(|s| names.name(s)),
               "stones": names.each_json(v.stones.values()),
               "solved": v.solved.map(|s| s.map(|s| names.name(s))),
               "clock_ms": clock, "play_left_ms": game_left, "paused": v.paused}),
        format!(
            "match {id}: {doing}; stones: {}; {}; turn clock {}, play left {}{}",
            names.each(v.stones.values()),
            solved.join(", "),
            clock_text(clock),
            clock_text(game_left),
            if v.paused { " (paused)" } else { "" }
        ),
    )
}

/// The seat of the player whose turn it is, for commands without a name.
pub fn turn_seat(v: &TripleView) -> Option<Seat> {
    v.turn_seat()
}
