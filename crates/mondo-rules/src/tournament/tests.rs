//! The tournament's rules, one test each, and the pairing properties on thousands of
//! random tournaments.

use super::pairing::{apart, bracket_order, group_count, snake};
use super::*;
use proptest::prelude::*;
use rand::rngs::Xoshiro256PlusPlus as StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::HashSet;

const HOST: PlayerId = PlayerId(1000);
const DAY: Millis = 86_400_000;

fn settings(format: Format) -> Settings {
    Settings {
        format,
        game: "pattern-assembly".into(),
        playoff_game: None,
        best_of: 1,
        round_ms: DAY,
        signup_until: None,
        remind_ms: None,
        ai_fill: None,
        channel: None,
    }
}

fn fold(t: &mut Tournament, act: &Act, now: Millis) -> Vec<Event> {
    let events = t.act(act, now).expect("the act is allowed");
    for e in &events {
        t.apply(e);
    }
    events
}

/// A started tournament of `n` players (player k rated `ratings(k)`).
fn started(format: Format, n: u64, rating: impl Fn(u64) -> Option<f64>) -> Tournament {
    let created = Tournament::create("Cup", HOST, settings(format), 0).unwrap();
    let mut t = Tournament::from_events(&[created]).unwrap();
    for k in 1..=n {
        fold(
            &mut t,
            &Act::Join {
                player: PlayerId(k),
                name: format!("p{k}"),
            },
            k,
        );
    }
    let ratings = (1..=n)
        .filter_map(|k| rating(k).map(|r| (PlayerId(k), r)))
        .collect();
    fold(
        &mut t,
        &Act::Start {
            by: HOST,
            ratings,
            fill: Vec::new(),
        },
        100,
    );
    t
}

/// Plays every open table with a result drawn by `rng` (draws only where allowed
/// to decide) until the tournament ends.
fn play_out(t: &mut Tournament, rng: &mut StdRng, draws: bool) {
    let mut now = 1_000;
    while t.finished.is_none() {
        let round = t
            .open_round()
            .expect("an unfinished tournament has a round open")
            .clone();
        let (k, table) = round
            .tables
            .iter()
            .enumerate()
            .find(|(_, x)| x.decided.is_none())
            .expect("an open round has an undecided table");
        let b = table.b.expect("a bye is decided at once");
        now += 1;
        let result = if draws && rng.random_bool(0.2) {
            Outcome::Draw
        } else {
            let w = if rng.random_bool(0.6) { table.a } else { b };
            Outcome::Win {
                winner: t.seats[w].player,
            }
        };
        let score = Some([rng.random_range(0..20), rng.random_range(0..20)]);
        let act = Act::Report {
            round: round.number,
            table: k,
            result,
            score,
            match_id: None,
        };
        fold(t, &act, now);
    }
}

fn pairs_of(r: &Round) -> Vec<(usize, usize)> {
    r.tables
        .iter()
        .filter_map(|t| t.b.map(|b| (t.a.min(b), t.a.max(b))))
        .collect()
}

/// Whether the seats can all be paired (one bye among `bye_ok` when odd) with none
/// meeting again: by brute force, for the property below.
fn repeat_free_exists(seats: &[usize], met: &HashSet<(usize, usize)>, bye_ok: &[usize]) -> bool {
    fn go(left: &[usize], met: &HashSet<(usize, usize)>) -> bool {
        let Some((&a, rest)) = left.split_first() else {
            return true;
        };
        rest.iter().enumerate().any(|(i, &b)| {
            !met.contains(&(a.min(b), a.max(b))) && {
                let mut r = rest.to_vec();
                r.remove(i);
                go(&r, met)
            }
        })
    }
    if seats.len().is_multiple_of(2) {
        return go(seats, met);
    }
    bye_ok.iter().any(|b| {
        let rest: Vec<usize> = seats.iter().copied().filter(|s| s != b).collect();
        go(&rest, met)
    })
}

/// Seeds go by rating, the unrated last, then by sign-up order.
#[test]
fn seeds_by_rating_then_unrated_then_signup() {
    let t = started(Format::RoundRobin, 5, |k| match k {
        2 => Some(1400.0),
        4 => Some(1600.0),
        _ => None,
    });
    let order: Vec<u64> = t.seats.iter().map(|s| s.player.0).collect();
    assert_eq!(order, [4, 2, 1, 3, 5]);
}

/// The higher seed holds the DM Advantage: listed first at every table.
#[test]
fn the_higher_seed_comes_first() {
    let mut rng = StdRng::seed_from_u64(3);
    let mut t = started(Format::Swiss { rounds: 4 }, 9, |k| Some(k as f64));
    play_out(&mut t, &mut rng, true);
    for r in &t.rounds {
        for table in &r.tables {
            assert!(table.b.is_none_or(|b| table.a < b), "{table:?}");
        }
    }
}

/// Sign-up: no joining twice, none after the start or the window; leaving before.
#[test]
fn sign_up_refusals() {
    let mut s = settings(Format::RoundRobin);
    s.signup_until = Some(50);
    let mut t = Tournament::from_events(&[Tournament::create("Cup", HOST, s, 0).unwrap()]).unwrap();
    let join = |k| Act::Join {
        player: PlayerId(k),
        name: format!("p{k}"),
    };
    fold(&mut t, &join(1), 1);
    assert_eq!(t.act(&join(1), 2), Err(Refusal::AlreadyIn("p1".into())));
    assert_eq!(t.act(&join(2), 50), Err(Refusal::SignupClosed(50)));
    fold(&mut t, &join(2), 3);
    assert_eq!(
        t.act(
            &Act::Start {
                by: PlayerId(1),
                ratings: vec![],
                fill: Vec::new(),
            },
            4
        ),
        Err(Refusal::NotHost)
    );
    fold(
        &mut t,
        &Act::Leave {
            player: PlayerId(2),
        },
        5,
    );
    assert_eq!(
        t.act(
            &Act::Start {
                by: HOST,
                ratings: vec![],
                fill: Vec::new(),
            },
            6
        ),
        Err(Refusal::TooFew { needed: 2, have: 1 })
    );
}

/// Bad settings are refused with what is allowed.
#[test]
fn settings_are_checked() {
    let bad = |f| {
        Tournament::create("Cup", HOST, settings(f), 0)
            .unwrap_err()
            .to_string()
    };
    assert!(
        bad(Format::Groups {
            size: 7,
            advance: 2
        })
        .contains("3 to 6")
    );
    assert!(
        bad(Format::Groups {
            size: 4,
            advance: 4
        })
        .contains("top 1 to 3")
    );
    assert!(bad(Format::Swiss { rounds: 0 }).contains("at least one round"));
}

/// AI players fill the empty seats at the start, when the host allowed them, up to
/// the number allowed: they sign up as it starts (one act: a refused start signs
/// nobody up), seeded like anyone (by rating, the unrated after the people).
#[test]
fn ai_players_fill_empty_seats_only_when_allowed() {
    let mut s = settings(Format::Single);
    s.ai_fill = Some(80);
    let refused = Tournament::create("Cup", HOST, s.clone(), 0).unwrap_err();
    assert!(refused.to_string().contains("2 to 64"), "{refused}");
    s.ai_fill = Some(4);
    let mut t = Tournament::from_events(&[Tournament::create("Cup", HOST, s, 0).unwrap()]).unwrap();
    for k in 1..=2 {
        let name = format!("p{k}");
        fold(
            &mut t,
            &Act::Join {
                player: PlayerId(k),
                name,
            },
            k,
        );
    }
    let ai = |k: u64| (PlayerId(900 + k), format!("ai{k}"));
    let start = |fill: Vec<(PlayerId, String)>, by| Act::Start {
        by,
        ratings: vec![(PlayerId(901), 1700.0)],
        fill,
    };
    let three = vec![ai(1), ai(2), ai(3)];
    assert_eq!(
        t.act(&start(three, HOST), 5),
        Err(Refusal::TooMany { most: 4 })
    );
    assert_eq!(
        t.act(&start(vec![ai(1)], PlayerId(1)), 5),
        Err(Refusal::NotHost)
    );
    let events = fold(&mut t, &start(vec![ai(1), ai(2)], HOST), 5);
    assert!(matches!(
        events[0],
        Event::Joined {
            player: PlayerId(901),
            ..
        }
    ));
    assert!(matches!(events[2], Event::Started { .. }));
    let seeded: Vec<u64> = t.seats.iter().map(|s| s.player.0).collect();
    assert_eq!(
        seeded,
        [901, 1, 2, 902],
        "the rated AI first, the unrated by sign-up"
    );
    assert_eq!(t.seats[3].name, "ai2");

    // Without the host's leave, no AI player takes a seat.
    let created = Tournament::create("Cup", HOST, settings(Format::Single), 0).unwrap();
    let mut t = Tournament::from_events(&[created]).unwrap();
    fold(
        &mut t,
        &Act::Join {
            player: PlayerId(1),
            name: "p1".into(),
        },
        1,
    );
    assert_eq!(t.act(&start(vec![ai(1)], HOST), 5), Err(Refusal::NoAiFill));
    assert!(t.signups.len() == 1 && !t.is_started());
}

/// A round robin: everyone meets everyone once; the champion leads the standings.
#[test]
fn round_robin_meets_everyone_once() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut t = started(Format::RoundRobin, 5, |_| None);
    play_out(&mut t, &mut rng, true);
    let mut met: Vec<(usize, usize)> = t.rounds.iter().flat_map(pairs_of).collect();
    met.sort_unstable();
    assert_eq!(met.len(), 10);
    met.dedup();
    assert_eq!(met.len(), 10);
    let rows = standings(&t);
    assert_eq!(t.finished, Some(Some(rows[0].seat)));
    assert!(rows.windows(2).all(|w| w[0].points >= w[1].points));
}

/// Points: a win and a bye 1, a draw 1/2; head-to-head breaks a tie on points.
#[test]
fn points_and_head_to_head() {
    let mut t = started(Format::RoundRobin, 3, |_| None);
    let p = |k| PlayerId(k);
    // Seats are p1, p2, p3 (unrated: sign-up order). p2 beats p1, p1 beats p3, p3 v p2 drawn.
    let mut now = 200;
    while t.finished.is_none() {
        let r = t.open_round().unwrap().clone();
        for (k, table) in r.tables.iter().enumerate().filter(|(_, x)| x.b.is_some()) {
            let seats = (t.seats[table.a].player, t.seats[table.b.unwrap()].player);
            let result = match seats {
                (a, b) if (a, b) == (p(1), p(2)) => Outcome::Win { winner: p(2) },
                (a, b) if (a, b) == (p(1), p(3)) => Outcome::Win { winner: p(1) },
                _ => Outcome::Draw,
            };
            now += 1;
            fold(
                &mut t,
                &Act::Report {
                    round: r.number,
                    table: k,
                    result,
                    score: None,
                    match_id: None,
                },
                now,
            );
        }
    }
    let rows = standings(&t);
    let by_player = |k: u64| {
        rows.iter()
            .find(|r| t.seats[r.seat].player == p(k))
            .unwrap()
    };
    // p1: bye + win = 2; p2: bye + win + draw = 2.5; p3: bye + draw = 1.5.
    assert_eq!(
        (
            by_player(1).points,
            by_player(2).points,
            by_player(3).points
        ),
        (2.0, 2.5, 1.5)
    );
    assert_eq!(by_player(2).rank, 1);
}

/// Groups then playoffs: the top K of each group go on; the bracket's winner is the
/// champion and first in the standings.
#[test]
fn groups_then_playoffs_make_a_champion() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut t = started(
        Format::Groups {
            size: 4,
            advance: 2,
        },
        8,
        |k| Some(2000.0 - k as f64),
    );
    assert_eq!(t.groups, vec![vec![0, 3, 4, 7], vec![1, 2, 5, 6]]);
    play_out(&mut t, &mut rng, true);
    let playoffs: Vec<&Round> = t
        .rounds
        .iter()
        .filter(|r| r.stage == Stage::Playoffs)
        .collect();
    assert_eq!(
        playoffs.len(),
        2,
        "four qualifiers: semi-finals and a final"
    );
    let rows = standings(&t);
    assert_eq!(t.finished, Some(Some(rows[0].seat)));
    assert_eq!(rows[0].bracket_wins, Some(2));
}

/// A draw in a bracket is played again; best of three needs two wins.
#[test]
fn bracket_draws_are_replayed_and_best_of_three_needs_two() {
    let mut s = settings(Format::Single);
    s.best_of = 3;
    let mut t = Tournament::from_events(&[Tournament::create("Cup", HOST, s, 0).unwrap()]).unwrap();
    for k in 1..=2 {
        fold(
            &mut t,
            &Act::Join {
                player: PlayerId(k),
                name: format!("p{k}"),
            },
            k,
        );
    }
    fold(
        &mut t,
        &Act::Start {
            by: HOST,
            ratings: vec![],
            fill: Vec::new(),
        },
        10,
    );
    let report = |result| Act::Report {
        round: 1,
        table: 0,
        result,
        score: None,
        match_id: None,
    };
    let win = |k| Outcome::Win {
        winner: PlayerId(k),
    };
    fold(&mut t, &report(Outcome::Draw), 11);
    fold(&mut t, &report(win(2)), 12);
    fold(&mut t, &report(win(1)), 13);
    assert!(t.finished.is_none());
    fold(&mut t, &report(win(2)), 14);
    assert_eq!(t.champion().map(|s| s.player), Some(PlayerId(2)));
}

/// At the deadline, whoever did not show forfeits; both absent both lose; a pause
/// stops the clock and a resume moves the deadline by the pause.
#[test]
fn deadline_forfeits_and_pause() {
    let mut t = started(Format::RoundRobin, 4, |_| None);
    let deadline = t.next_deadline().unwrap();
    assert_eq!(
        t.act(&Act::Deadline { showed: vec![] }, deadline - 1),
        Err(Refusal::NotDue(deadline))
    );
    fold(&mut t, &Act::Pause { by: HOST }, 500);
    assert_eq!(t.next_deadline(), None);
    fold(&mut t, &Act::Resume { by: HOST }, 1_500);
    assert_eq!(t.next_deadline(), Some(deadline + 1_000));
    // p1 v p4 and p2 v p3: p1 and p2 came.
    let events = fold(
        &mut t,
        &Act::Deadline {
            showed: vec![PlayerId(1), PlayerId(2)],
        },
        deadline + 1_000,
    );
    let forfeits = events
        .iter()
        .filter(|e| matches!(e, Event::Forfeit { .. }))
        .count();
    assert_eq!(forfeits, 2);
    let rows = standings(&t);
    let pts = |k: u64| {
        rows.iter()
            .find(|r| t.seats[r.seat].player == PlayerId(k))
            .unwrap()
            .points
    };
    assert_eq!((pts(1), pts(2), pts(3), pts(4)), (1.0, 1.0, 0.0, 0.0));
    assert_eq!(t.rounds.len(), 2, "the next round opened");
}

/// A withdrawn player forfeits the open match and every later one; a replacement
/// takes over a seat and its results; a host settles a dispute.
#[test]
fn host_acts() {
    let mut t = started(Format::RoundRobin, 4, |_| None);
    assert_eq!(
        t.act(
            &Act::Withdraw {
                by: PlayerId(2),
                player: PlayerId(3)
            },
            200
        ),
        Err(Refusal::NotHost)
    );
    fold(
        &mut t,
        &Act::Replace {
            by: HOST,
            old: PlayerId(4),
            new: PlayerId(9),
            name: "p9".into(),
        },
        210,
    );
    assert_eq!(t.seats[3].player, PlayerId(9));
    let events = fold(
        &mut t,
        &Act::Withdraw {
            by: HOST,
            player: PlayerId(3),
        },
        220,
    );
    assert!(matches!(&events[1], Event::Forfeit { absent, .. } if absent == &[PlayerId(3)]));
    let settle = Act::Settle {
        by: HOST,
        round: 1,
        table: 0,
        result: Outcome::Win {
            winner: PlayerId(9),
        },
    };
    fold(&mut t, &settle, 230);
    // Every later round's match of p3 is forfeited as it opens.
    assert!(t.finished.is_none());
    while t.finished.is_none() {
        let r = t.open_round().unwrap().clone();
        let (k, table) = r
            .tables
            .iter()
            .enumerate()
            .find(|(_, x)| x.decided.is_none())
            .unwrap();
        assert!(
            table.seats().all(|s| s != 2),
            "p3's matches are all forfeited"
        );
        let winner = t.seats[table.a].player;
        fold(
            &mut t,
            &Act::Report {
                round: r.number,
                table: k,
                result: Outcome::Win { winner },
                score: None,
                match_id: None,
            },
            300,
        );
    }
    let p3 = standings(&t).into_iter().find(|r| r.seat == 2).unwrap();
    assert_eq!(p3.points, 0.0);
    assert_eq!(p3.played, 3);
}

/// Refusals on results: a table's stranger, a decided table, a forfeit as a result.
#[test]
fn report_refusals() {
    let mut t = started(Format::Swiss { rounds: 2 }, 4, |_| None);
    let report = |table, result| Act::Report {
        round: 1,
        table,
        result,
        score: None,
        match_id: None,
    };
    let stranger = t.seats[t.rounds[0].tables[1].a].player;
    assert_eq!(
        t.act(&report(0, Outcome::Win { winner: stranger }), 300),
        Err(Refusal::NotAtTable(
            t.seats[t.rounds[0].tables[1].a].name.clone()
        ))
    );
    assert_eq!(
        t.act(&report(0, Outcome::Forfeit { absent: vec![] }), 300),
        Err(Refusal::ForfeitReported)
    );
    fold(&mut t, &report(0, Outcome::Draw), 301);
    assert_eq!(
        t.act(&report(0, Outcome::Draw), 302),
        Err(Refusal::Decided { round: 1, table: 0 })
    );
    assert_eq!(
        t.act(&report(9, Outcome::Draw), 302),
        Err(Refusal::NoTable { round: 1, table: 9 })
    );
}

/// Replaying the log makes the same tournament (what the store reads back).
#[test]
fn the_log_replays_to_the_same_tournament() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut t = started(
        Format::Groups {
            size: 3,
            advance: 1,
        },
        7,
        |k| Some(k as f64 * 10.0),
    );
    play_out(&mut t, &mut rng, true);
    let json = serde_json::to_string(&t.log).unwrap();
    let back: Vec<Event> = serde_json::from_str(&json).unwrap();
    assert_eq!(Tournament::from_events(&back).unwrap(), t);
}

/// The reminder comes once a round, when a quarter of it is left (or as set; never
/// with 0), naming the players of undecided tables who have not come; never while
/// paused; refused before it is due.
#[test]
fn a_round_is_reminded_once_with_a_quarter_left() {
    let mut t = started(Format::RoundRobin, 4, |_| None);
    let r1 = t.open_round().unwrap().clone();
    let due = r1.deadline - DAY / 4;
    assert_eq!(t.next_reminder(), Some(due));
    assert_eq!(
        t.act(&Act::Remind { showed: vec![] }, due - 1),
        Err(Refusal::NoReminder)
    );
    // Table 0 decided: its players are not reminded; of table 1, the one who came
    // is not either.
    let (a, b) = (
        t.seats[r1.tables[0].a].player,
        t.seats[r1.tables[0].b.unwrap()].player,
    );
    fold(
        &mut t,
        &Act::Report {
            round: 1,
            table: 0,
            result: Outcome::Win { winner: a },
            score: None,
            match_id: None,
        },
        500,
    );
    let came = t.seats[r1.tables[1].a].player;
    let other = t.seats[r1.tables[1].b.unwrap()].player;
    let events = fold(
        &mut t,
        &Act::Remind {
            showed: vec![came, b],
        },
        due,
    );
    assert!(
        matches!(&events[..], [Event::Reminded { round: 1, players, .. }] if *players == [other]),
        "{events:?}"
    );
    assert_eq!(t.next_reminder(), None, "once a round");
    assert!(t.act(&Act::Remind { showed: vec![] }, due + 1).is_err());

    // Paused: none; a reminder set to 0: none.
    let mut t = started(Format::RoundRobin, 4, |_| None);
    fold(&mut t, &Act::Pause { by: HOST }, 200);
    assert_eq!(t.next_reminder(), None);
    let mut quiet = settings(Format::RoundRobin);
    quiet.remind_ms = Some(0);
    assert_eq!(quiet.remind_before(), 0);
    quiet.remind_ms = Some(60_000);
    assert_eq!(quiet.remind_before(), 60_000);
}

/// Two groups of four, top two each: group A's runner-up is the lower seeded, so the
/// seed order alone would put it against its own winner; the draw swaps the
/// runners-up.
#[test]
fn playoffs_pair_each_winner_with_another_groups_runner_up() {
    let tiers = vec![vec![(0, 0), (1, 1)], vec![(2, 1), (3, 0)]];
    assert_eq!(apart(&tiers), [0, 1, 3, 2]);
    // One group: no draw keeps them apart; the seed order stands.
    assert_eq!(apart(&[vec![(0, 0)], vec![(1, 0)]]), [0, 1]);
}

#[test]
fn bracket_order_keeps_seeds_one_and_two_apart() {
    assert_eq!(bracket_order(8), [0, 7, 3, 4, 1, 6, 2, 5]);
}

fn format_strategy() -> impl Strategy<Value = (Format, u64)> {
    prop_oneof![
        (2u64..12).prop_map(|n| (Format::RoundRobin, n)),
        (3u64..30, 3u8..=6)
            .prop_flat_map(|(n, size)| (1u8..size)
                .prop_map(move |advance| (Format::Groups { size, advance }, n))),
        (2u64..40).prop_flat_map(|n| {
            let most = if n.is_multiple_of(2) { n - 1 } else { n };
            (1..=most.min(12) as u32).prop_map(move |rounds| (Format::Swiss { rounds }, n))
        }),
        (2u64..40).prop_map(|n| (Format::Single, n)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// On random tournaments played out at random: each player plays at most once a
    /// round (once exactly, or has a bye, in round robins and Swiss), at most one bye
    /// each per stage (an odd group gives everyone one; a bracket gives the top seeds
    /// theirs); no Swiss repeat while a round without one existed; groups differ by one
    /// at most; seeds 1 and 2 meet only in a bracket's final; the log replays.
    #[test]
    fn pairing_properties((format, n) in format_strategy(), seed in any::<u64>(), draws in any::<bool>()) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut t = started(format, n, |k| (k % 3 != 0).then_some((k * 37 % 101) as f64));
        let sizes: Vec<usize> = t.groups.iter().map(Vec::len).collect();
        if let (Some(lo), Some(hi)) = (sizes.iter().min(), sizes.iter().max()) {
            prop_assert!(hi - lo <= 1, "group sizes {sizes:?}");
            prop_assert!(*lo >= 3 && *hi <= 6, "group sizes {sizes:?}");
        }
        let mut met: HashSet<(usize, usize)> = HashSet::new();
        let mut byes: HashSet<(bool, usize)> = HashSet::new();
        let mut checked = 0;
        while t.finished.is_none() {
            let r = t.open_round().unwrap().clone();
            if r.number as usize > checked {
                checked = r.number as usize;
                let mut seen = HashSet::new();
                for table in &r.tables {
                    for s in table.seats() {
                        prop_assert!(seen.insert(s), "seat {s} twice in round {}", r.number);
                    }
                    if table.b.is_none() {
                        prop_assert!(byes.insert((r.stage.is_bracket(), table.a)), "seat {} had a second bye", table.a);
                    }
                }
                if matches!(r.stage, Stage::Swiss | Stage::RoundRobin) {
                    prop_assert_eq!(seen.len(), t.seats.len(), "everyone plays or has the bye");
                }
                if r.stage == Stage::Swiss {
                    let repeats = pairs_of(&r).iter().any(|p| met.contains(p));
                    if repeats {
                        let all: Vec<usize> = (0..t.seats.len()).collect();
                        let bye_ok: Vec<usize> = all.iter().copied().filter(|s| !byes.contains(&(false, *s)) || r.tables.iter().any(|x| x.b.is_none() && x.a == *s)).collect();
                        prop_assert!(!repeat_free_exists(&all, &met, &bye_ok), "a repeat in round {} while none was needed", r.number);
                    }
                }
                let top: Vec<usize> = t.bracket_entrants().into_iter().take(2).collect();
                for (a, b) in pairs_of(&r) {
                    if r.stage.is_bracket() && top.contains(&a) && top.contains(&b) {
                        prop_assert!(r.tables.len() == 1, "seeds 1 and 2 met before the final");
                    }
                }
                // The playoffs' first round: group mates kept apart, with two groups
                // or more.
                let first_playoffs = r.stage == Stage::Playoffs
                    && t.rounds.iter().find(|x| x.stage == Stage::Playoffs).map(|x| x.number) == Some(r.number);
                if first_playoffs && t.groups.len() >= 2 {
                    let group_of = |s: usize| t.groups.iter().position(|g| g.contains(&s));
                    for (a, b) in pairs_of(&r) {
                        prop_assert!(group_of(a) != group_of(b), "seats {a} and {b} of one group met in the playoffs' first round: {:?}", t.groups);
                    }
                }
                met.extend(pairs_of(&r));
            }
            play_out_one(&mut t, &mut rng, draws);
        }
        let back = Tournament::from_events(&t.log).unwrap();
        prop_assert!(back == t);
    }

    /// The playoffs' draw: each entrant once, in its tier (the winners seeded first,
    /// then the seconds, ...), and no two of a group meeting in the first round.
    #[test]
    fn playoffs_keep_group_mates_apart(groups in 2usize..9, advance in 1usize..6, seed in any::<u64>()) {
        let mut rng = StdRng::seed_from_u64(seed);
        // Tier k: the k-th of each group, seats shuffled (any seed order).
        let mut seats: Vec<usize> = (0..groups * advance).collect();
        for i in (1..seats.len()).rev() {
            seats.swap(i, rng.random_range(0..=i));
        }
        let tiers: Vec<Vec<(usize, usize)>> = (0..advance)
            .map(|k| {
                let mut tier: Vec<(usize, usize)> = (0..groups).map(|g| (seats[k * groups + g], g)).collect();
                tier.sort_unstable();
                tier
            })
            .collect();
        let drawn = apart(&tiers);
        let group_of = |s: usize| tiers.iter().flatten().find(|e| e.0 == s).map(|e| e.1);
        for (k, tier) in tiers.iter().enumerate() {
            let mut got: Vec<usize> = drawn[k * groups..(k + 1) * groups].to_vec();
            got.sort_unstable();
            let want: Vec<usize> = tier.iter().map(|e| e.0).collect();
            prop_assert_eq!(got, want, "tier {} kept its players", k);
        }
        let size = drawn.len().next_power_of_two();
        for s in 0..size / 2 {
            if let (Some(&a), Some(&b)) = (drawn.get(s), drawn.get(size - 1 - s)) {
                prop_assert!(group_of(a) != group_of(b), "seeds {s} and {} of one group meet: {drawn:?}", size - 1 - s);
            }
        }
    }

    /// Snake groups: sizes differ by one at most, every seat in one group, seed k in
    /// group k for the first lap.
    #[test]
    fn snake_groups(n in 3usize..200, size in 3usize..=6) {
        let g = group_count(n, size);
        let groups = snake(n, g);
        let lens: Vec<usize> = groups.iter().map(Vec::len).collect();
        prop_assert!(lens.iter().max().unwrap() - lens.iter().min().unwrap() <= 1);
        prop_assert!(*lens.iter().min().unwrap() >= 3 && *lens.iter().max().unwrap() <= 6);
        let mut all: Vec<usize> = groups.concat();
        all.sort_unstable();
        prop_assert_eq!(all, (0..n).collect::<Vec<_>>());
    }
}

/// One table's result (the rest of [`play_out`], a step at a time).
fn play_out_one(t: &mut Tournament, rng: &mut StdRng, draws: bool) {
    let round = t.open_round().unwrap().clone();
    let (k, table) = round
        .tables
        .iter()
        .enumerate()
        .find(|(_, x)| x.decided.is_none())
        .unwrap();
    let b = table.b.unwrap();
    let result = if draws && rng.random_bool(0.2) {
        Outcome::Draw
    } else {
        Outcome::Win {
            winner: t.seats[if rng.random_bool(0.6) { table.a } else { b }].player,
        }
    };
    let act = Act::Report {
        round: round.number,
        table: k,
        result,
        score: Some([1, 2]),
        match_id: None,
    };
    let events = t.act(&act, 2_000).unwrap();
    for e in &events {
        t.apply(e);
    }
}

/// A match opened for a table is linked to it (the deadline asks it who showed); a
/// bye, a decided table or a closed round has none; a finished match's places say its
/// outcome, and one without a rated result says none.
#[test]
fn matches_are_linked_to_their_tables() {
    let mut t = started(Format::RoundRobin, 3, |_| None);
    let round = t.open_round().unwrap().clone();
    let bye = round.tables.iter().position(|t| t.b.is_none()).unwrap();
    let play = 1 - bye;
    let link = |table, match_id| Act::Link {
        round: 1,
        table,
        match_id,
    };
    assert_eq!(
        t.act(&link(bye, 7), 200),
        Err(Refusal::Decided {
            round: 1,
            table: bye
        })
    );
    let events = fold(&mut t, &link(play, 7), 200);
    assert_eq!(
        events,
        vec![Event::MatchOpened {
            round: 1,
            table: play,
            match_id: 7,
            at: 200
        }]
    );
    let json = serde_json::to_value(&events[0]).unwrap();
    assert_eq!(json["type"], "match_opened");
    assert_eq!(json["match"], 7);
    fold(&mut t, &link(play, 8), 300);
    assert_eq!(t.rounds[0].tables[play].opened, vec![7, 8]);
    let players = {
        let tb = &t.rounds[0].tables[play];
        [t.seats[tb.a].player, t.seats[tb.b.unwrap()].player]
    };
    let placed = |a, b| crate::rules::Finish::Placed {
        method: crate::rules::finish::Method::Glicko2,
        places: vec![(players[0], a), (players[1], b)],
    };
    assert_eq!(
        outcome_of(Some(&placed(1, 0)), players),
        Some(Outcome::Win { winner: players[1] })
    );
    assert_eq!(
        outcome_of(Some(&placed(0, 0)), players),
        Some(Outcome::Draw)
    );
    let aborted = crate::rules::Finish::Unrated(crate::rules::Why::Abandoned);
    assert_eq!(outcome_of(Some(&aborted), players), None);
    fold(
        &mut t,
        &Act::Report {
            round: 1,
            table: play,
            result: Outcome::Draw,
            score: None,
            match_id: Some(8),
        },
        400,
    );
    assert_eq!(
        t.act(&link(play, 9), 500),
        Err(Refusal::Closed { round: 1 })
    );
}
