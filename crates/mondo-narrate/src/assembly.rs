//! Pattern Assembly's words: each event as one JSON object (the `--json` contract of
//! `mondo play assembly`, documented in docs/operators.md) and one line of text.

use super::{Line, Names, clock_text};
use mondo_rules::grid::{Shape, Verdict};
use mondo_rules::rules::assembly::{AssemblyEvent, AssemblyView, Outcome, PhaseView};
use mondo_rules::rules::{BySeat, EventKind, Millis, Seat};
use serde_json::{Value, json};

fn secs(ms: Millis) -> u64 {
    ms.div_ceil(1000)
}

/// A shape drawn as text, one row a line, indented.
pub fn shape_text(shape: &Shape) -> String {
    shape
        .rows()
        .iter()
        .map(|r| format!("    {r}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn scores_json(names: &Names, scores: &BySeat<i32>) -> Value {
    let values: Vec<i64> = scores.values().iter().map(|&s| s as i64).collect();
    names.each_json(&values)
}

fn player(names: &Names, seat: Seat) -> String {
    names.name(seat)
}

/// The line for a shared event of the match (a host's pause or resume; none for the
/// rest), so the players hear why the clocks stopped or run again.
pub fn shared(names: &Names, e: &EventKind<AssemblyEvent>) -> Option<Line> {
    match e {
        EventKind::Paused { by } => Some(Line::new(
            json!({"event": "paused", "by": names.person(*by)}),
            format!(
                "{} paused the match: the clocks are stopped",
                names.person(*by)
            ),
        )),
        EventKind::Resumed { by } => Some(Line::new(
            json!({"event": "resumed", "by": names.person(*by)}),
            format!(
                "{} resumed the match: the clocks run again",
                names.person(*by)
            ),
        )),
        EventKind::SetupChosen { by } => Some(super::setup_chosen(names, *by)),
        _ => None,
    }
}

/// The lines for a batch of events.
pub fn events(names: &Names, events: &[AssemblyEvent], plus: bool) -> Vec<Line> {
    events.iter().flat_map(|e| event(names, e, plus)).collect()
}

/// The lines for one event (none for the created event).
pub fn event(names: &Names, e: &AssemblyEvent, plus: bool) -> Vec<Line> {
    match e {
        AssemblyEvent::AssemblyCreated { .. } => vec![],
        AssemblyEvent::Revealed { grid, ms } => {
            let rows = grid.rows();
            let spaced: Vec<String> = rows
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let cells: Vec<String> = r.chars().map(String::from).collect();
                    format!("  {} {}", (b'A' + i as u8) as char, cells.join(" "))
                })
                .collect();
            let header: Vec<String> = (1..=grid.dims().cols).map(|c| format!("{c}")).collect();
            vec![Line::new(
                json!({"event": "reveal", "grid": rows, "secs": secs(*ms)}),
                format!(
                    "The grid, for {} s (memorise it):\n    {}\n{}",
                    secs(*ms),
                    header.join(" "),
                    spaced.join("\n")
                ),
            )]
        }
        // A terminal clears its screen and scrollback first (the front does, when its
        // output is one); the grid is not said again.
        AssemblyEvent::Hidden => {
            vec![Line::new(json!({"event": "hide"}), "The grid is hidden.").clearing()]
        }
        AssemblyEvent::RoundStarted { number, asks } => asks
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let mut j = json!({
                    "event": "round",
                    "number": number,
                    "shape": a.shape.rows(),
                    "contents": a.contents.compact(),
                    "points": a.points,
                });
                if plus {
                    j["target"] = json!(i + 1);
                }
                let which = if plus {
                    format!(", target {}", i + 1)
                } else {
                    String::new()
                };
                Line::new(
                    j,
                    format!(
                        "Round {number}{which} ({}): find {} ({}) in this shape (any rotation or reflection):\n{}",
                        super::count(a.points as u64, "point", "points"),
                        a.contents,
                        a.contents.words(),
                        shape_text(&a.shape)
                    ),
                )
            })
            .collect(),
        AssemblyEvent::Answered { seat, cells, .. } => vec![Line::new(
            json!({"event": "waiting", "player": player(names, *seat), "cells": cells.to_string()}),
            format!(
                "{} answered {cells}: waiting period (answers meanwhile are disregarded).",
                player(names, *seat)
            ),
        )],
        AssemblyEvent::Resolved {
            seat,
            cells,
            verdict,
            contents,
            target,
            points,
        } => {
            let contents = contents.map_or(Value::Null, |c| json!(c.compact()));
            let mut j = json!({
                "event": "answer",
                "player": player(names, *seat),
                "cells": cells.to_string(),
                "result": verdict.name(),
                "contents": contents,
            });
            let who = player(names, *seat);
            let text = match verdict {
                Verdict::WrongShape => format!("{who}: {cells} is the wrong shape."),
                Verdict::WrongContents(c) => {
                    format!("{who}: {cells} has the shape but holds {c}: wrong.")
                }
                Verdict::NoMatch => {
                    format!("{who}: {cells} matches none of this round's groups: wrong.")
                }
                Verdict::Right => {
                    let which = match (plus, target) {
                        (true, Some(t)) => format!(" (target {})", t + 1),
                        _ => String::new(),
                    };
                    format!(
                        "{who}: {cells} is right{which}! +{}",
                        super::count(*points as u64, "point", "points")
                    )
                }
            };
            if *verdict == Verdict::Right {
                j["points"] = json!(points);
                if let (true, Some(t)) = (plus, target) {
                    j["target"] = json!(t + 1);
                }
            }
            vec![Line::new(j, text)]
        }
        AssemblyEvent::Voided { seat } => vec![Line::new(
            json!({"event": "void", "player": player(names, *seat)}),
            format!(
                "{}'s pending answer is void: the round is won.",
                player(names, *seat)
            ),
        )],
        AssemblyEvent::RoundEnded {
            number,
            won,
            scores,
        } => {
            let mut out = Vec::new();
            if !won {
                out.push(Line::new(
                    json!({"event": "skipped", "number": number}),
                    format!("Round {number}: nobody found it; the round is skipped."),
                ));
            }
            let values: Vec<i64> = scores.values().iter().map(|&s| s as i64).collect();
            out.push(Line::new(
                json!({"event": "score", "scores": scores_json(names, scores)}),
                format!("Scores after round {number}: {}.", names.each(&values)),
            ));
            out
        }
        AssemblyEvent::RerevealQueued { by } => vec![Line::new(
            json!({"event": "rereveal_queued", "by": names.person(*by)}),
            format!("{} will show the grid again after this round.", names.person(*by)),
        )],
        AssemblyEvent::ChangeQueued { by } => vec![Line::new(
            json!({"event": "change_queued", "by": names.person(*by)}),
            format!("{} will change the grid after this round.", names.person(*by)),
        )],
        AssemblyEvent::RegionSet { region } => vec![Line::new(
            json!({"event": "region", "region": region.to_string()}),
            format!("The showdown will cover rows and columns {region}."),
        )],
        AssemblyEvent::GridChanged { .. } => vec![Line::new(
            json!({"event": "grid_changed"}),
            "The grid has changed! The new one is shown next.",
        )],
        AssemblyEvent::ShowdownOpened { region, ms } => vec![Line::new(
            json!({"event": "showdown_open", "secs": secs(*ms), "region": region.to_string()}),
            format!(
                "Showdown: rebuild the grid ({region}) from memory within {}: `showdown ROWS` with rows separated by ` / `, `.` for a blank.",
                clock_text(*ms)
            ),
        )],
        AssemblyEvent::ShowdownSubmitted { seat, .. } => vec![Line::new(
            json!({"event": "showdown_in", "player": player(names, *seat)}),
            format!("{}'s showdown grid is in.", player(names, *seat)),
        )],
        AssemblyEvent::ShowdownScored {
            results,
            scores,
            submitted,
        } => {
            let points: Vec<i64> = results.values().iter().map(|r| r.points as i64).collect();
            let details: Vec<String> = results
                .iter()
                .map(|(seat, r)| {
                    format!(
                        "{}: {} filled, {} right, {} wrong = {}",
                        player(names, seat),
                        r.filled,
                        r.right,
                        r.wrong,
                        r.points
                    )
                })
                .collect();
            let grids: Vec<Value> = submitted
                .values()
                .iter()
                .map(|g| g.as_ref().map_or(Value::Null, |g| json!(g.rows())))
                .collect();
            let totals: Vec<i64> = scores.values().iter().map(|&s| s as i64).collect();
            vec![
                Line::new(
                    json!({
                        "event": "showdown",
                        "scores": names.each_json(&points),
                        "right": names.each_json(&results.values().iter().map(|r| r.right as i64).collect::<Vec<_>>()),
                        "grids": names.each_json(&grids),
                    }),
                    format!("Showdown: {}.", details.join("; ")),
                ),
                Line::new(
                    json!({"event": "score", "scores": scores_json(names, scores)}),
                    format!("Final scores: {}.", names.each(&totals)),
                ),
            ]
        }
        AssemblyEvent::MatchEnded {
            outcome,
            grid,
            scores,
            judged,
        } => {
            let mut out = Vec::new();
            let winner = match outcome {
                Outcome::Finished { winner } => *winner,
                Outcome::Resigned { by } if scores.len() == 2 => Some(by.other()),
                _ => None,
            };
            let how = match outcome {
                Outcome::Finished { .. } => "finished".to_string(),
                Outcome::Resigned { by } => format!("{} resigned", player(names, *by)),
                Outcome::Ended { by } => format!("ended by {}", names.person(*by)),
            };
            let line = match (judged, winner) {
                (Some(verdict), _) => {
                    let name = |s: Seat| player(names, s);
                    let resigned = matches!(outcome, Outcome::Resigned { .. });
                    let (winner, how, why) =
                        crate::judged_end(verdict, &name, "sent no showdown", resigned);
                    match winner {
                        Some(w) => Line::new(
                            json!({"event": "won", "player": name(w), "how": how}),
                            format!("{} wins: {why}.", name(w)),
                        ),
                        None => Line::new(
                            json!({"event": "over", "how": how}),
                            format!("No winner: {why}."),
                        ),
                    }
                }
                (None, Some(w)) => Line::new(
                    json!({"event": "won", "player": player(names, w)}),
                    format!("{} wins ({how})!", player(names, w)),
                ),
                (None, None) => {
                    let totals: Vec<i64> = scores.values().iter().map(|&s| s as i64).collect();
                    let text = if scores.len() < 2 {
                        let points = totals.first().copied().unwrap_or(0);
                        let unit = if points == 1 { "point" } else { "points" };
                        format!("Practice over ({how}): {points} {unit}.")
                    } else {
                        format!("No winner ({how}).")
                    };
                    Line::new(json!({"event": "over", "how": how}), text)
                }
            };
            out.push(line);
            out.push(Line::new(
                json!({"event": "grid", "grid": grid.rows()}),
                format!("The grid was: {grid}"),
            ));
            out
        }
    }
}

/// A viewer's status.
pub fn status(names: &Names, v: &AssemblyView, now: Millis) -> Line {
    status_with(names, v, now, |at| {
        format!("{} left", clock_text(at.saturating_sub(now)))
    })
}

/// The status, its clock said by `left` from the moment it runs out ("2:31 left"; on
/// Discord with its countdown).
pub fn status_with(
    names: &Names,
    v: &AssemblyView,
    now: Millis,
    left: impl Fn(Millis) -> String,
) -> Line {
    let left = v.ends_at.map(left).unwrap_or_else(|| "- left".into());
    let values: Vec<i64> = v.scores.values().iter().map(|&s| s as i64).collect();
    let (phase, what) = match &v.phase {
        PhaseView::Starting => ("starting", "the match is starting".to_string()),
        PhaseView::Reveal { next_round } => (
            "reveal",
            format!("the grid is shown ({left}); round {next_round} next"),
        ),
        PhaseView::Round { number } => {
            let open: Vec<String> = v
                .targets
                .iter()
                .filter(|t| !t.found)
                .map(|t| format!("{} in {}", t.ask.contents, t.ask.shape))
                .collect();
            (
                "round",
                format!(
                    "round {number} of {} ({left}): find {}",
                    v.rounds,
                    open.join("; ")
                ),
            )
        }
        PhaseView::Showdown { region } => ("showdown", format!("showdown of {region} ({left})")),
        PhaseView::Over { .. } => ("over", "the match is over".to_string()),
    };
    let paused = if v.paused { " (paused)" } else { "" };
    Line::new(
        json!({
            "event": "status",
            "phase": phase,
            "scores": names.each_json(&values),
            "left_ms": v.ends_at.map(|at| at.saturating_sub(now)),
            "paused": v.paused,
        }),
        format!("{what}{paused}; scores: {}", names.each(&values)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use mondo_rules::grid::{Cell, Group};
    use mondo_rules::rules::PlayerId;

    /// A terminal duel's names: alice and bob.
    fn alice_and_bob() -> Names {
        Names::new(
            crate::Front::Terminal,
            vec![(PlayerId(1), "alice".into()), (PlayerId(2), "bob".into())],
            Default::default(),
        )
    }

    /// Plus: a wrong answer, of a target's shape or not, is said without its
    /// contents (the rules' `plus_wrong_answers_reveal_nothing_of_their_contents`
    /// checks the event carries none).
    #[test]
    fn plus_wrong_answers_are_said_without_their_contents() {
        let names = alice_and_bob();
        let answers = [
            (Seat::FIRST, vec![Cell::new(0, 0), Cell::new(0, 1)]),
            (Seat::SECOND, vec![Cell::new(0, 0), Cell::new(2, 0)]),
        ];
        for (seat, cells) in answers {
            let e = AssemblyEvent::Resolved {
                seat,
                cells: Group::new(cells),
                verdict: Verdict::NoMatch,
                contents: None,
                target: None,
                points: 0,
            };
            let lines = event(&names, &e, true);
            assert_eq!(lines.len(), 1);
            for line in lines {
                assert_eq!(line.json["contents"], Value::Null, "{}", line.json);
                assert_eq!(line.json["result"], "no_match");
                assert!(!line.text.contains("holds"), "{}", line.text);
                assert!(!line.text.contains("shape"), "{}", line.text);
            }
        }
    }

    /// The end of a duel says what was judged, not what the score says: the leader
    /// who sent no showdown loses, a side that never played aborts the match
    /// (docs/ratings.md, "Fair play"); with no verdict the score's winner stands.
    #[test]
    fn the_end_says_the_judged_result() {
        use mondo_rules::rules::BySeat;
        use mondo_rules::rules::fair::Verdict as Judged;
        let names = alice_and_bob();
        let mut scores = BySeat::new(2, 0);
        scores[Seat::SECOND] = 3;
        let end = |outcome, judged| AssemblyEvent::MatchEnded {
            outcome,
            grid: "XO\nO+".parse().unwrap(),
            scores: scores.clone(),
            judged,
        };
        let bob_leads = Outcome::Finished {
            winner: Some(Seat::SECOND),
        };
        let said = |e: AssemblyEvent| event(&names, &e, false).remove(0);
        let line = said(end(bob_leads, Some(Judged::Lose(vec![Seat::SECOND]))));
        assert_eq!(
            line.text,
            "alice wins: bob sent no showdown, which loses whatever the score."
        );
        assert_eq!(line.json["event"], "won");
        assert_eq!(line.json["player"], "alice");
        assert_eq!(line.json["how"], "idle");
        let line = said(end(bob_leads, Some(Judged::Aborted(Seat::FIRST))));
        assert!(
            line.text.starts_with("No winner: alice never played"),
            "{}",
            line.text
        );
        assert_eq!(line.json["how"], "aborted");
        let resigned = Outcome::Resigned { by: Seat::FIRST };
        let line = said(end(resigned, Some(Judged::Aborted(Seat::FIRST))));
        assert!(
            line.text.contains("alice resigned before playing"),
            "{}",
            line.text
        );
        let line = said(end(bob_leads, Some(Judged::Abandoned)));
        assert!(line.text.contains("abandoned"), "{}", line.text);
        assert_eq!(line.json["how"], "abandoned");
        let line = said(end(bob_leads, None));
        assert_eq!(line.text, "bob wins (finished)!");
    }
}
