//! The one abandonment rule of every game (docs/ratings.md, "Fair play"): what a
//! match's result is worth, as a pure function of who acted and who went idle. Each
//! game says, at its end, for each side whether it ever acted and whether it was idle
//! at the end (its clock or reserve ran out, it stayed idle past the game's idle limit,
//! or it left without ever acting); [`judge`] says what stands.
//!
//! - Nobody acted, or every side is idle: **abandoned** (unrated, no result).
//! - A side idle without ever having acted (it never acted before its first deadline,
//!   or left before acting): **aborted** (unrated, no result against anyone).
//! - Otherwise a side idle at the end **loses** to the others (two sides: the other
//!   wins; more: it is ranked last).
//! - Otherwise the game's own result stands (a draw only where its rules make one).

use super::{Finish, PlayerId, Seat, Seating, finish::Why};

/// The AI student's levels, weakest first: a level's index is the strength an AI
/// seat's id says ([`PlayerId::ai`]), and its name is in the seat's reserved name.
pub const AI_LEVELS: [&str; 3] = ["beginner", "player", "expert"];

/// The reserved name of an AI seat at the terminal: `ai-expert` for the first seat of a
/// level in a match, `ai-expert-2` for a second one of the same level. Each level has
/// its own name, so its own rating ("ai-expert is 1620"), and no person can take one
/// ([`reserved_ai_name`]). `level` counts from 0 ([`AI_LEVELS`]), `nth` from 1.
pub fn ai_name(level: usize, nth: usize) -> String {
    let level = AI_LEVELS[level.min(AI_LEVELS.len() - 1)];
    match nth {
        0 | 1 => format!("ai-{level}"),
        n => format!("ai-{level}-{n}"),
    }
}

/// The level (from 0) and number (from 1) a reserved AI name says, in any case:
/// `ai-LEVEL`, or `ai-LEVEL-N` with N a number. `None` for any other name, which a
/// person may take.
pub fn reserved_ai_name(name: &str) -> Option<(usize, usize)> {
    let name = name.to_ascii_lowercase();
    let rest = name.strip_prefix("ai-")?;
    AI_LEVELS.iter().enumerate().find_map(|(level, word)| {
        let after = rest.strip_prefix(word)?;
        if after.is_empty() {
            return Some((level, 1));
        }
        let n = after.strip_prefix('-')?;
        let ok = !n.is_empty() && n.len() <= 4 && n.bytes().all(|b| b.is_ascii_digit());
        ok.then(|| (level, n.parse::<usize>().unwrap_or(1)))
    })
}

/// Why a person may not take `name`, if it is an AI seat's reserved name.
pub fn refuse_reserved(name: &str) -> Result<(), String> {
    match reserved_ai_name(name) {
        Some(_) => Err(format!(
            "`{name}` is the AI student's own name (each level has one: {}), so no \
             person may take it: choose another name",
            reserved_list()
        )),
        None => Ok(()),
    }
}

/// The reserved names, as a list to read: `ai-beginner, ai-player, ai-expert`.
pub fn reserved_list() -> String {
    (0..AI_LEVELS.len())
        .map(|l| ai_name(l, 1))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One side of a match, as its game sees it at the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Side {
    /// It made a move of its own (resigning is not one).
    pub acted: bool,
    /// It was idle at the end: out of time, idle past the limit, or gone.
    pub idle: bool,
}

impl Side {
    pub const fn new(acted: bool, idle: bool) -> Side {
        Side { acted, idle }
    }
}

/// What the fair-play rule says of a finished match. A game whose own end event
/// cannot tell it (a score decides, but a side may have been idle) carries it in that
/// event, so what players are told at the end is what was judged.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "verdict", content = "seats", rename_all = "snake_case")]
pub enum Verdict {
    /// The game's own result stands.
    Stands,
    /// Every side idle, or nobody acted: unrated.
    Abandoned,
    /// This side never acted before it went idle: unrated.
    Aborted(Seat),
    /// These sides (idle after acting) lose to everyone else.
    Lose(Vec<Seat>),
}

/// The rule, over the sides in seat order.
pub fn judge(sides: &[Side]) -> Verdict {
    if sides.is_empty() || sides.iter().all(|s| s.idle) || sides.iter().all(|s| !s.acted) {
        return Verdict::Abandoned;
    }
    if let Some(i) = sides.iter().position(|s| s.idle && !s.acted) {
        return Verdict::Aborted(Seat(i as u8));
    }
    let idle: Vec<Seat> = sides
        .iter()
        .enumerate()
        .filter(|(_, s)| s.idle)
        .map(|(i, _)| Seat(i as u8))
        .collect();
    if idle.is_empty() {
        Verdict::Stands
    } else {
        Verdict::Lose(idle)
    }
}

/// The finish of a two-player game after the rule: `own` is the game's own (rated)
/// result, used when it stands.
pub fn two(players: &[PlayerId], sides: &[Side], own: Finish) -> Finish {
    match judge(sides) {
        Verdict::Stands => own,
        Verdict::Abandoned => Finish::Unrated(Why::Abandoned),
        Verdict::Aborted(seat) => Finish::Unrated(Why::Aborted {
            by: players[seat.index()],
        }),
        Verdict::Lose(idle) => match idle.as_slice() {
            [loser] => Finish::two(players, Some(1 - loser.index().min(1))),
            // Every side idle is abandoned above.
            _ => Finish::Unrated(Why::Abandoned),
        },
    }
}

/// The sides of a match from its seating (who acted), with who was idle at the end.
pub fn sides(seating: &Seating, idle: impl Fn(Seat) -> bool) -> Vec<Side> {
    (0..seating.players.values().len())
        .map(|i| {
            let seat = Seat(i as u8);
            Side::new(seating.has_acted(seat), idle(seat))
        })
        .collect()
}

/// A two-player match decided by `own` (a solve, a resignation, a score), with the
/// sides idle at the end as `idle` says: the rule applied.
pub fn settle(seating: &Seating, idle: impl Fn(Seat) -> bool, own: Finish) -> Finish {
    two(seating.players.values(), &sides(seating, idle), own)
}

/// A resignation by `by`: leaving before ever acting aborts the match (nobody wins or
/// loses); after acting, it is the game's result (`own`: the opponent wins).
pub fn resigned(seating: &Seating, by: Seat, own: Finish) -> Finish {
    settle(seating, |s| s == by && !seating.has_acted(by), own)
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: [PlayerId; 2] = [PlayerId(1), PlayerId(2)];
    const PLAYED: Side = Side::new(true, false);
    const IDLE_AFTER: Side = Side::new(true, true);
    const NEVER: Side = Side::new(false, true);
    const WAITING: Side = Side::new(false, false);

    fn won_by_first() -> Finish {
        Finish::two(&P, Some(0))
    }

    #[test]
    fn nobody_acting_is_abandoned_never_a_draw() {
        assert_eq!(judge(&[NEVER, NEVER]), Verdict::Abandoned);
        assert_eq!(judge(&[WAITING, WAITING]), Verdict::Abandoned);
        assert_eq!(
            two(&P, &[NEVER, NEVER], Finish::two(&P, None)),
            Finish::Unrated(Why::Abandoned)
        );
    }

    #[test]
    fn every_side_idle_after_acting_is_abandoned() {
        assert_eq!(judge(&[IDLE_AFTER, IDLE_AFTER]), Verdict::Abandoned);
        assert_eq!(
            two(&P, &[IDLE_AFTER, IDLE_AFTER], Finish::two(&P, None)),
            Finish::Unrated(Why::Abandoned)
        );
    }

    #[test]
    fn a_side_that_never_acted_aborts() {
        assert_eq!(judge(&[PLAYED, NEVER]), Verdict::Aborted(Seat(1)));
        // Even when its opponent "won" meanwhile: no result against anyone.
        assert_eq!(
            two(&P, &[PLAYED, NEVER], won_by_first()),
            Finish::Unrated(Why::Aborted { by: P[1] })
        );
    }

    #[test]
    fn a_side_idle_after_acting_loses() {
        assert_eq!(judge(&[IDLE_AFTER, PLAYED]), Verdict::Lose(vec![Seat(0)]));
        // Whatever the score said: the side that went away loses.
        assert_eq!(
            two(&P, &[IDLE_AFTER, PLAYED], won_by_first()),
            Finish::two(&P, Some(1))
        );
        assert_eq!(
            two(&P, &[PLAYED, IDLE_AFTER], Finish::two(&P, None)),
            Finish::two(&P, Some(0))
        );
    }

    #[test]
    fn the_games_result_stands_when_both_played() {
        assert_eq!(judge(&[PLAYED, PLAYED]), Verdict::Stands);
        let draw = Finish::two(&P, None);
        assert_eq!(two(&P, &[PLAYED, PLAYED], draw.clone()), draw);
        // A side that never had to act (solved against on the first turn) is no abort.
        assert_eq!(two(&P, &[PLAYED, WAITING], won_by_first()), won_by_first());
    }

    /// History reads a reason back from its stored name and the player it names.
    #[test]
    fn every_reason_reads_back_from_its_stored_name() {
        let all = [
            Why::SetupChosen { by: P[0] },
            Why::Aborted { by: P[1] },
            Why::Abandoned,
            Why::Declined { by: P[0] },
            Why::HostEnded,
            Why::NoResult,
        ];
        for why in all {
            assert_eq!(Why::from_name(why.name(), why.by()), Some(why));
        }
        assert_eq!(Why::from_name("setup_chosen", None), None);
        assert_eq!(Why::from_name("solo", None), None);
    }

    #[test]
    fn each_ai_level_has_a_name_no_person_can_take() {
        assert_eq!(ai_name(0, 1), "ai-beginner");
        assert_eq!(ai_name(2, 1), "ai-expert");
        assert_eq!(ai_name(1, 2), "ai-player-2");
        for (level, nth) in [(0, 1), (1, 1), (2, 1), (2, 2), (1, 17)] {
            assert_eq!(reserved_ai_name(&ai_name(level, nth)), Some((level, nth)));
        }
        assert_eq!(reserved_ai_name("AI-Expert"), Some((2, 1)));
        for free in [
            "ai",
            "ai2",
            "bob",
            "ai-",
            "ai-experts",
            "ai-expert-",
            "ai-expert-x",
        ] {
            assert_eq!(reserved_ai_name(free), None, "{free}");
            assert!(refuse_reserved(free).is_ok());
        }
        let e = refuse_reserved("ai-Player").unwrap_err();
        assert!(e.contains("ai-beginner, ai-player, ai-expert"), "{e}");
    }

    #[test]
    fn many_sides_rank_the_idle_last() {
        let sides = [PLAYED, IDLE_AFTER, PLAYED];
        assert_eq!(judge(&sides), Verdict::Lose(vec![Seat(1)]));
    }
}
