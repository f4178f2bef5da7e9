//! Logical Bluffs' words: each event as one JSON object (the `--json` contract of
//! `mondo play bluffs`, documented in docs/operators.md) and one line of text, for the
//! terminal and Discord alike.
//!
//! An event only one player may hear (its tiles, RP, truths, marks, reveals, guesses)
//! is said as a line addressed to them: its JSON carries `"to": NAME` and its text
//! starts `(to NAME only)`. Such lines are made only from that player's own feed.

use super::board::{board_text, layout_text};
use super::{Line, Names, clock_text};
use mondo_rules::lang::tiles::{Cell, Colour};
use mondo_rules::rules::bluffs::{
    Audience, BluffsView, Ending, EventKind, PhaseName, PlayerView, Settings,
};
use mondo_rules::rules::{Millis, Seat};
use serde_json::{Map, Value, json};

fn phase_name(p: PhaseName) -> &'static str {
    match p {
        PhaseName::Bluffing => "bluffing",
        PhaseName::Claiming => "claiming",
        PhaseName::Reveal => "reveal",
        PhaseName::Over => "over",
    }
}

fn ending_name(e: Ending) -> &'static str {
    match e {
        Ending::Guessed => "guessed",
        Ending::OpponentOutOfTime => "opponent_out_of_time",
        Ending::BothOutOfTime => "both_out_of_time",
        Ending::Resigned => "resigned",
        Ending::HostEnded => "host_ended",
    }
}

fn phase_len(settings: &Settings, p: PhaseName) -> Millis {
    match p {
        PhaseName::Bluffing => settings.bluffing_ms,
        PhaseName::Claiming => settings.claiming_ms,
        _ => settings.reveal_ms,
    }
}

/// Tiles and their colours: `{"A1": "red", ...}` and `A1 red, B2 blue`.
pub fn tiles(tiles: &[(Cell, Colour)]) -> (Value, String) {
    let map: Map<String, Value> = tiles
        .iter()
        .map(|(c, k)| (c.to_string(), Value::from(k.name())))
        .collect();
    let text = tiles
        .iter()
        .map(|(c, k)| format!("{c} {}", k.name()))
        .collect::<Vec<_>>()
        .join(", ");
    (Value::Object(map), text)
}

fn truths_text(truths: &[bool]) -> String {
    truths
        .iter()
        .enumerate()
        .map(|(k, t)| format!("{} {}", k + 1, if *t { "true" } else { "false" }))
        .collect::<Vec<_>>()
        .join(", ")
}

fn marks_json(marks: &[Option<bool>]) -> Value {
    Value::Array(marks.iter().map(|m| json!(m)).collect())
}

/// Addresses a line to one player.
fn private(names: &Names, seat: Seat, mut json: Value, text: String) -> Line {
    let to = names.name(seat);
    json["to"] = Value::from(to.clone());
    Line::new(json, format!("(to {to} only) {text}"))
}

/// An event as heard, with the match's settings (phase lengths). Events nobody hears
/// say nothing.
pub fn event(names: &Names, settings: &Settings, e: &EventKind) -> Option<Line> {
    use EventKind::*;
    let name = |s: &Seat| names.name(*s);
    let (json, text) = match e {
        Created { .. } => return None,
        PhaseBegan {
            round,
            phase,
            deadline,
        } => {
            let what = match phase {
                PhaseName::Bluffing => {
                    "each player: `bluff SUBSET; S1; S2; S3; S4` (4-8 connected tiles, four statements)"
                }
                PhaseName::Claiming => "each player: `claim T F T F` on the opposing statements",
                PhaseName::Reveal => {
                    "each player, privately: `reveal CELLS` (RP each), `declare` then `guess LAYOUT`, or `pass`"
                }
                PhaseName::Over => "",
            };
            (
                json!({"event": "phase_began", "round": round, "phase": phase_name(*phase),
                       "deadline": deadline, "secs": phase_len(settings, *phase).div_ceil(1000)}),
                format!(
                    "Round {round}: {} ({}). {what}",
                    phase,
                    clock_text(phase_len(settings, *phase))
                ),
            )
        }
        Submitted { seat, reserve_used } => (
            json!({"event": "submitted", "player": name(seat), "reserve_used_ms": reserve_used}),
            if *reserve_used > 0 {
                format!(
                    "{} has submitted ({} of reserve used).",
                    name(seat),
                    clock_text(*reserve_used)
                )
            } else {
                format!("{} has submitted.", name(seat))
            },
        ),
        Bluffed {
            seat,
            subset,
            statements,
            no_limit,
            smokescreen,
            ..
        } => {
            let mut text = format!("your bluff on {subset}:");
            for (k, s) in statements.iter().enumerate() {
                text.push_str(&format!(" {}. {s}", k + 1));
            }
            if *no_limit {
                text.push_str(" (No Limit used)");
            }
            if let Some(n) = smokescreen {
                text.push_str(&format!(" (Smokescreen over statement {n})"));
            }
            return Some(private(
                names,
                *seat,
                json!({"event": "bluffed", "player": name(seat), "subset": subset.to_string(),
                       "statements": statements, "no_limit": no_limit, "smokescreen": smokescreen}),
                text,
            ));
        }
        Shown {
            seat,
            subset,
            statements,
        } => {
            let mut text = format!("{}'s bluff on {subset}:", name(seat));
            for (k, s) in statements.iter().enumerate() {
                match s {
                    Some(s) => text.push_str(&format!(" {}. {s}", k + 1)),
                    None => text.push_str(&format!(" {}. (smokescreened)", k + 1)),
                }
            }
            (
                json!({"event": "shown", "player": name(seat), "subset": subset.to_string(),
                       "statements": statements}),
                text,
            )
        }
        TruthTold {
            seat,
            truths,
            gained,
        } => {
            return Some(private(
                names,
                *seat,
                json!({"event": "truth_told", "player": name(seat), "truths": truths, "gained": gained}),
                format!("your statements: {}; +{gained} RP.", truths_text(truths)),
            ));
        }
        Detected {
            seat,
            statement,
            truth,
        } => {
            return Some(private(
                names,
                *seat,
                json!({"event": "detected", "player": name(seat), "statement": statement, "truth": truth}),
                format!(
                    "Detective: opposing statement {statement} is {} (leave it unmarked: `-`).",
                    if *truth { "true" } else { "false" }
                ),
            ));
        }
        Marked { seat, marks } => {
            let text = marks
                .iter()
                .enumerate()
                .map(|(k, m)| {
                    let m = match m {
                        Some(true) => "true",
                        Some(false) => "false",
                        None => "-",
                    };
                    format!("{} {m}", k + 1)
                })
                .collect::<Vec<_>>()
                .join(", ");
            return Some(private(
                names,
                *seat,
                json!({"event": "marked", "player": name(seat), "marks": marks_json(marks)}),
                format!("your marks: {text}."),
            ));
        }
        ClaimScored {
            seat,
            right,
            gained,
        } => {
            return Some(private(
                names,
                *seat,
                json!({"event": "claim_scored", "player": name(seat), "right": right, "gained": gained}),
                format!(
                    "{right} of your marks {} right: +{gained} RP.",
                    if *right == 1 { "was" } else { "were" }
                ),
            ));
        }
        Revealed {
            seat,
            tiles: t,
            cost,
        } => {
            let (tj, tt) = tiles(t);
            return Some(private(
                names,
                *seat,
                json!({"event": "revealed", "player": name(seat), "tiles": tj, "cost": cost}),
                format!("revealed: {tt} (-{cost} RP)."),
            ));
        }
        GuessDeclared { seat, until } => {
            return Some(private(
                names,
                *seat,
                json!({"event": "guess_declared", "player": name(seat), "until": until}),
                format!(
                    "you may guess the layout for {} more: `guess RBGY/YYGR/BRRG/GBYB` (or `pass`).",
                    clock_text(settings.guess_extra_ms)
                ),
            ));
        }
        Guessed { seat, layout } => {
            return Some(private(
                names,
                *seat,
                json!({"event": "guessed", "player": name(seat), "layout": layout.to_string()}),
                format!("your guess {layout} is in; it is judged when Reveal ends."),
            ));
        }
        Passed { seat, time_up } => {
            let text = if *time_up {
                "your Reveal time ran out: you do nothing more this Reveal."
            } else {
                "you pass: you do nothing more this Reveal."
            };
            return Some(private(
                names,
                *seat,
                json!({"event": "passed", "player": name(seat), "time_up": time_up}),
                text.into(),
            ));
        }
        RevealsCounted { counts } => {
            let text = counts
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    format!(
                        "{} bought {}",
                        names.name(Seat(i as u8)),
                        super::count(*n, "reveal", "reveals")
                    )
                })
                .collect::<Vec<_>>()
                .join(", ");
            (
                json!({"event": "reveals_counted", "counts": names.each_json(counts)}),
                format!("Reveal over: {text}."),
            )
        }
        GuessWrong { seat, lost } => {
            return Some(private(
                names,
                *seat,
                json!({"event": "guess_wrong", "player": name(seat), "lost": lost}),
                format!(
                    "your layout guess was wrong: you lose all {lost} RP and may not reveal next round."
                ),
            ));
        }
        Ended {
            winner,
            ending,
            layout,
            judged,
        } => {
            let how = match ending {
                Ending::Guessed => "guessed the layout",
                Ending::OpponentOutOfTime => "the opponent ran out of reserve time",
                Ending::BothOutOfTime => "both ran out of reserve time",
                Ending::Resigned => "the opponent resigned",
                Ending::HostEnded => "a host ended the match",
            };
            let (winner, who, verdict) = match judged {
                Some(v) => {
                    let named = |s: Seat| name(&s);
                    let idle = "let the round run out without playing it";
                    let resigned = *ending == Ending::Resigned;
                    let (w, verdict, why) = crate::judged_end(v, &named, idle, resigned);
                    let head = w.map_or("no winner".to_string(), |w| format!("{} wins", name(&w)));
                    (w, format!("{head}: {why}"), Some(verdict))
                }
                None => (
                    *winner,
                    match winner {
                        Some(s) => format!("{} wins ({how})", name(s)),
                        None => format!("no winner ({how})"),
                    },
                    None,
                ),
            };
            let mut json = json!({"event": "ended", "winner": winner.map(|s| name(&s)),
                                  "ending": ending_name(*ending), "layout": layout.to_string()});
            if let Some(verdict) = verdict {
                json["verdict"] = json!(verdict);
            }
            (
                json,
                format!(
                    "Match over: {who}. The layout was {layout}:\n{}",
                    layout_text(layout)
                ),
            )
        }
    };
    // Whatever is not public was returned above; nothing else is said to all.
    debug_assert_eq!(e.audience(), Audience::Everyone);
    Some(Line::new(json, text))
}

/// The events of a batch that everyone may hear.
pub fn public(names: &Names, settings: &Settings, events: &[EventKind]) -> Vec<Line> {
    events
        .iter()
        .filter(|e| e.audience() == Audience::Everyone)
        .filter_map(|e| event(names, settings, e))
        .collect()
}

/// The events of a batch only `seat` may hear.
pub fn only(names: &Names, settings: &Settings, seat: Seat, events: &[EventKind]) -> Vec<Line> {
    events
        .iter()
        .filter(|e| e.audience() == Audience::Only(seat))
        .filter_map(|e| event(names, settings, e))
        .collect()
}

/// A player's own state, privately: tiles, RP, reserve, items.
pub fn mine(names: &Names, seat: Seat, v: &PlayerView) -> Line {
    let (tj, tt) = tiles(&v.known);
    let items: Vec<&str> = [
        (!v.items_used.no_limit).then_some("nolimit"),
        (!v.items_used.smokescreen).then_some("smoke"),
        (!v.items_used.detective).then_some("detective"),
    ]
    .into_iter()
    .flatten()
    .collect();
    private(
        names,
        seat,
        json!({"event": "mine", "player": names.name(seat), "tiles": tj, "rp": v.rp,
               "reserve_ms": v.reserve, "items": items, "barred": v.barred}),
        format!(
            "you know {} ({tt}), have {} RP and {} of reserve; items left: {}{}\n{}",
            super::count(v.known.len() as u64, "tile", "tiles"),
            v.rp,
            clock_text(v.reserve),
            if items.is_empty() {
                "none".to_string()
            } else {
                items.join(", ")
            },
            if v.barred {
                " (no reveal this round: a wrong guess)"
            } else {
                ""
            },
            board_text(&v.known)
        ),
    )
}

/// The public status of a match.
pub fn status(names: &Names, v: &BluffsView, now: Millis) -> Line {
    status_with(names, v, now, |d| {
        format!("{} left", clock_text(d.saturating_sub(now)))
    })
}

/// The public status, its clock said by `clock` from the moment it runs out ("2:31
/// left"; on Discord with its countdown).
pub fn status_with(
    names: &Names,
    v: &BluffsView,
    now: Millis,
    clock: impl Fn(Millis) -> String,
) -> Line {
    let left = v.public.deadline.map(|d| d.saturating_sub(now));
    let submitted: Vec<String> = (0..2)
        .filter(|i| v.public.submitted[*i])
        .map(|i| names.name(Seat(i as u8)))
        .collect();
    let mut text = match v.public.outcome {
        Some((winner, ending)) => format!(
            "over: {} ({})",
            winner.map_or("no winner".to_string(), |s| format!(
                "{} won",
                names.name(s)
            )),
            ending_name(ending)
        ),
        None => format!(
            "round {}, {}{}",
            v.round,
            v.phase,
            v.public
                .deadline
                .map_or(String::new(), |d| format!(", {}", clock(d)))
        ),
    };
    if v.paused {
        text.push_str(" (paused by a host)");
    }
    if !submitted.is_empty() {
        text.push_str(&format!("; submitted: {}", submitted.join(", ")));
    }
    Line::new(
        json!({"event": "status", "round": v.round, "phase": phase_name(v.phase),
               "left_ms": left, "paused": v.paused,
               "submitted": names.each_json(&v.public.submitted),
               "winner": v.public.outcome.and_then(|(w, _)| w.map(|s| names.name(s))),
               "ending": v.public.outcome.map(|(_, e)| ending_name(e))}),
        text,
    )
}

/// The public board: the bluffs on the table (from Claiming on) and the reveals
/// counted.
pub fn board(names: &Names, v: &BluffsView) -> Vec<Line> {
    let mut out = Vec::new();
    for (i, b) in v.public.bluffs.iter().enumerate() {
        let Some(b) = b else { continue };
        let seat = Seat(i as u8);
        out.push(
            event(
                names,
                &v.settings,
                &EventKind::Shown {
                    seat,
                    subset: b.subset.clone(),
                    statements: b.statements.clone(),
                },
            )
            .unwrap_or_else(|| Line::new(json!({}), "")),
        );
    }
    if out.is_empty() {
        out.push(Line::new(
            json!({"event": "board", "bluffs": []}),
            "no bluff is on the table yet: they are shown when Claiming begins",
        ));
    }
    if let Some(layout) = &v.public.layout {
        out.push(Line::new(
            json!({"event": "board", "layout": layout.to_string()}),
            layout_text(layout),
        ));
    }
    out
}
