//! One test per rule of `mod.rs` (named in its rule list), against a fake clock: the
//! harness keeps `now` and the event log, and every move goes through `decide`.

use super::*;
use crate::lang::tiles::Colour;

const START: Millis = 1_000_000;
const S0: Seat = Seat::FIRST;
const S1: Seat = Seat::SECOND;
const ROW_A: &str = "A1-A2-A3-A4";
const ROW_B: &str = "B1-B2-B3-B4";
const ROW_C: &str = "C1-C2-C3-C4";
const ROW_D: &str = "D1-D2-D3-D4";

/// A match, its log and a fake clock.
struct T {
    g: Bluffs,
    log: Vec<Event>,
    now: Millis,
}

impl T {
    fn new(seed: u64) -> T {
        T::with(seed, Settings::default())
    }

    fn with(seed: u64, settings: Settings) -> T {
        let setup = Setup {
            players: [PlayerId(1), PlayerId(2)],
            seed,
            settings,
        };
        let (g, log) = Bluffs::start(setup, START).expect("a good setup");
        T { g, log, now: START }
    }

    fn wait(&mut self, ms: Millis) {
        self.now += ms;
    }

    /// Moves the clock to `at` since the start.
    fn at(&mut self, since_start: Millis) {
        self.now = START + since_start;
    }

    fn try_play(&mut self, seat: Seat, m: Move) -> Result<Vec<Event>, Error> {
        let before = self.g.clone();
        let r = self.g.play(Who::Player(seat), &m, self.now);
        match &r {
            Ok(events) => self.log.extend(events.iter().cloned()),
            // A refused move changes nothing.
            Err(_) => assert_eq!(self.g, before),
        }
        r
    }

    #[track_caller]
    fn play(&mut self, seat: Seat, m: Move) -> Vec<Event> {
        match self.try_play(seat, m.clone()) {
            Ok(e) => e,
            Err(e) => panic!("{m:?} by {seat:?} refused: {e}"),
        }
    }

    fn tick(&mut self) -> Vec<Event> {
        let events = self
            .g
            .play(Who::Umpire, &Move::Tick, self.now)
            .expect("a tick is always accepted before the end");
        self.log.extend(events.iter().cloned());
        events
    }

    /// The statements "there is a red tile" etc.: true exactly when the colour is in
    /// the subset.
    fn colours(&self, subset: &str) -> Vec<bool> {
        let s: Subset = subset.parse().expect("a test subset");
        Colour::ALL
            .iter()
            .map(|c| s.cells().iter().any(|x| self.g.layout.colour(*x) == *c))
            .collect()
    }

    #[track_caller]
    fn bluff(&mut self, seat: Seat, subset: &str) {
        self.play(seat, bluff(subset));
    }

    /// Marks for the opposing statements: `right` says which are marked right.
    fn marks(&self, seat: Seat, right: [bool; 4]) -> Vec<Option<bool>> {
        let b = self.g.bluffs[seat.other().index()]
            .as_ref()
            .expect("an opposing bluff");
        b.truths
            .iter()
            .zip(right)
            .map(|(t, r)| Some(*t == r))
            .collect()
    }

    /// Both bluff and mark (seat 0 all right, seat 1 as given); now in Reveal.
    fn play_to_reveal(&mut self, subsets: [&str; 2], s1_right: [bool; 4]) {
        self.bluff(S0, subsets[0]);
        self.bluff(S1, subsets[1]);
        let m0 = self.marks(S0, [true; 4]);
        let m1 = self.marks(S1, s1_right);
        self.play(S0, Move::Claim { marks: m0 });
        self.play(S1, Move::Claim { marks: m1 });
        assert_eq!(self.g.phase, PhaseName::Reveal);
    }

    fn both_pass(&mut self) {
        self.play(S0, Move::Pass);
        self.play(S1, Move::Pass);
        assert_eq!(self.g.phase, PhaseName::Bluffing);
    }

    /// The events a viewer may hear.
    fn heard(&self, viewer: Option<Seat>) -> Vec<EventKind> {
        self.log
            .iter()
            .filter_map(|e| Bluffs::visible(e, viewer))
            .map(|e| e.kind)
            .collect()
    }
}

fn bluff(subset: &str) -> Move {
    Move::Bluff {
        subset: subset.into(),
        statements: colour_statements(),
        no_limit: false,
        smokescreen: None,
    }
}

fn colour_statements() -> Vec<String> {
    Colour::ALL
        .iter()
        .map(|c| format!("There is a {} tile.", c.name()))
        .collect()
}

fn wrong_layout(l: &Layout) -> Layout {
    let mut w = *l;
    w.0[5] = Colour::from_index((w.0[5].index() + 1) % 4);
    w
}

#[test]
fn layout_and_known_tiles_are_seeded_private_and_disjoint() {
    assert_eq!(deal(5, 4), deal(5, 4));
    assert!((1..6).any(|s| deal(s, 4).0 != deal(5, 4).0));
    for seed in 0..50 {
        let (_, [a, b]) = deal(seed, 4);
        assert_eq!((a.len(), b.len()), (4, 4));
        assert!(a.iter().all(|c| !b.contains(c)), "seed {seed}: {a:?} {b:?}");
    }
    let t = T::with(
        3,
        Settings {
            known_tiles: 6,
            ..Settings::default()
        },
    );
    let v = t.g.view(S0);
    assert_eq!(v.known.len(), 6);
    for (c, colour) in &v.known {
        assert_eq!(t.g.layout.colour(*c), *colour);
        assert!(!t.g.known(S1).contains(c));
    }
    let too_many = Setup {
        players: [PlayerId(1), PlayerId(2)],
        seed: 1,
        settings: Settings {
            known_tiles: 9,
            ..Settings::default()
        },
    };
    let e = Bluffs::start(too_many.clone(), 0).unwrap_err();
    assert_eq!(e, Error::Setup(SetupProblem::TooManyKnown(9)));
    assert!(e.to_string().contains("at most 8"), "{e}");
    let alone = Setup {
        players: [PlayerId(1); 2],
        settings: Settings::default(),
        ..too_many.clone()
    };
    let e = Bluffs::start(alone.clone(), 0).unwrap_err();
    assert_eq!(e, Error::Setup(SetupProblem::SamePlayer));
    // The engine says it as every duel does.
    let e = <BluffsMatch as crate::rules::Game>::from_setup(&alone, 0).unwrap_err();
    assert_eq!(e, crate::rules::SetupError::SamePlayer);
    let free = Setup {
        settings: Settings {
            reveal_cost: 0,
            ..Settings::default()
        },
        ..too_many
    };
    let e = Bluffs::start(free, 0).unwrap_err();
    assert!(e.to_string().contains("reveal_cost must be above 0"), "{e}");
}

#[test]
fn subset_must_be_4_to_8_connected_tiles() {
    let mut t = T::new(1);
    for (subset, says) in [
        ("A1-A2-A3", "4 to 8"),
        ("A1-A2-A3-A4-B1-B2-B3-B4-C1", "4 to 8"),
        ("A1-A2-C1-C2", "not connected"),
        ("A1-Z9", "A1"),
    ] {
        let e = t.try_play(S0, bluff(subset)).unwrap_err();
        assert!(matches!(e, Error::Subset(_)), "{subset}: {e}");
        assert!(
            e.to_string().contains(says) || subset == "A1-Z9",
            "{subset}: {e}"
        );
    }
    t.bluff(S0, "A1-A2-A3-A4-B1-B2-B3-B4");
    t.bluff(S1, "A1-B1-C1-D1");
    assert_eq!(t.g.phase, PhaseName::Claiming);
}

#[test]
fn subset_shares_less_than_half_with_own_previous() {
    let mut t = T::new(2);
    t.play_to_reveal(["A1-B1-C1-D1", "B2-B3-C2-C3"], [true; 4]);
    t.both_pass();
    // Shares A1 and B1: 2 = floor(4/2), refused.
    let e = t.try_play(S0, bluff("A1-B1-A2-B2")).unwrap_err();
    assert!(matches!(
        e,
        Error::Subset(SubsetProblem::SharesTooMuch { shared: 2, .. })
    ));
    assert!(e.to_string().contains("shares 2 tiles"), "{e}");
    assert!(
        e.to_string()
            .contains("may share at most 1 (fewer than half"),
        "{e}"
    );
    // A bigger subset may share more: 6 tiles share 2 < 3.
    t.bluff(S0, "A1-B1-A2-B2-A3-B3");
    // The opponent's previous subset does not matter.
    t.bluff(S1, "A1-B1-C1-D1");
    assert_eq!(t.g.phase, PhaseName::Claiming);
}

/// A statement in notation: 15 "words" of notation, 18 in its English reading.
const NOTATION_LONG: &str =
    "count(x: red(x)) >= 2 & count(x: blue(x)) >= 1 & count(x: green(x)) >= 1";

#[test]
fn notation_is_counted_and_shown_by_its_english_reading() {
    let mut t = T::new(2);
    let with_first = |first: &str| Move::Bluff {
        subset: ROW_A.into(),
        statements: std::iter::once(first.to_string())
            .chain(colour_statements().into_iter().skip(1))
            .collect(),
        no_limit: false,
        smokescreen: None,
    };
    let e = t.try_play(S0, with_first(NOTATION_LONG)).unwrap_err();
    let said = e.to_string();
    assert!(said.contains("statement 1"), "{said}");
    assert!(said.contains("has 18 words; at most 15"), "{said}");
    assert!(
        said.contains("“there are at least two red tiles, at least one blue tile"),
        "the reading is shown: {said}"
    );
    // Logic short in notation but long as read: refused, its reading shown.
    let e = t
        .try_play(
            S0,
            with_first("forall x y. count(z: same_colour(x, z) & same_colour(y, z)) >= 2"),
        )
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("its English reading “for every tile"),
        "{e}"
    );
    // Short notation: accepted, and kept, told and shown in English.
    t.play(S0, with_first("exists x. red(x)"));
    t.bluff(S1, ROW_C);
    let shown = t
        .heard(Some(S1))
        .into_iter()
        .find_map(|e| match e {
            EventKind::Shown {
                seat, statements, ..
            } if seat == S0 => Some(statements),
            _ => None,
        })
        .expect("seat 0's bluff is shown in Claiming");
    assert_eq!(shown[0].as_deref(), Some("a tile is red"));
    assert!(
        shown.iter().flatten().all(|s| !s.contains('(')),
        "no notation reaches the opponent: {shown:?}"
    );
}

#[test]
fn statements_must_read_and_pass_the_check() {
    let mut t = T::new(3);
    let with = |k: usize, text: &str| {
        let mut s = colour_statements();
        s[k] = text.into();
        Move::Bluff {
            subset: ROW_A.into(),
            statements: s,
            no_limit: false,
            smokescreen: None,
        }
    };
    let e = t.try_play(S0, with(1, "blorp the tiles")).unwrap_err();
    assert!(matches!(e, Error::Unreadable { n: 2, .. }), "{e}");
    let e = t
        .try_play(S0, with(2, "The leftmost tile is red."))
        .unwrap_err();
    assert!(
        matches!(&e, Error::Refused { n: 3, reason } if reason.contains("does not involve")),
        "{e}"
    );
    let long = "there is a red tile or there is a blue tile or there is a green tile or there is a yellow tile";
    let e = t.try_play(S0, with(3, long)).unwrap_err();
    assert!(
        matches!(&e, Error::Refused { n: 4, reason } if reason.contains("words")),
        "{e}"
    );
    let e = t
        .try_play(S0, with(0, "There is a 2x2 square with one red tile."))
        .unwrap_err();
    assert!(
        matches!(&e, Error::Refused { n: 1, reason } if reason.contains("2x2")),
        "{e}"
    );
    let e = t
        .try_play(
            S0,
            Move::Bluff {
                subset: ROW_A.into(),
                statements: colour_statements()[..3].to_vec(),
                no_limit: false,
                smokescreen: None,
            },
        )
        .unwrap_err();
    assert_eq!(e, Error::StatementCount(3));
    // Nothing counted: the player may still bluff.
    t.bluff(S0, ROW_A);
    let e = t.try_play(S0, bluff(ROW_B)).unwrap_err();
    assert_eq!(e, Error::AlreadyDone("bluffed"));
}

#[test]
fn true_statements_earn_rp_told_privately() {
    let mut t = T::new(4);
    t.bluff(S0, ROW_A);
    // Not told before Bluffing ends.
    assert_eq!(t.g.view(S0).own.and_then(|b| b.truths), None);
    assert_eq!(t.g.rp(S0), 0);
    t.bluff(S1, ROW_C);
    let expected = t.colours(ROW_A);
    let trues = expected.iter().filter(|x| **x).count() as u32;
    assert_eq!(t.g.rp(S0), trues);
    assert_eq!(
        t.g.view(S0).own.and_then(|b| b.truths),
        Some(expected.clone())
    );
    assert!(t.heard(Some(S0)).contains(&EventKind::TruthTold {
        seat: S0,
        truths: expected,
        gained: trues,
    }));
    assert!(
        !t.heard(Some(S1))
            .iter()
            .any(|e| matches!(e, EventKind::TruthTold { seat, .. } if *seat == S0))
    );
    assert_eq!(
        t.g.rp(S1),
        t.colours(ROW_C).iter().filter(|x| **x).count() as u32
    );
}

#[test]
fn claiming_scores_right_marks_privately() {
    let mut t = T::new(5);
    t.bluff(S0, ROW_A);
    t.bluff(S1, ROW_C);
    let before = [t.g.rp(S0), t.g.rp(S1)];
    let e = t
        .try_play(
            S0,
            Move::Claim {
                marks: vec![Some(true); 3],
            },
        )
        .unwrap_err();
    assert_eq!(e, Error::Marks(MarksProblem::Count(3)));
    assert_eq!(
        e.to_string(),
        "give 4 marks, one per opposing statement (none for a smokescreened or detected \
         one); you gave 3"
    );
    let mut holes = t.marks(S0, [true; 4]);
    holes[2] = None;
    let e = t.try_play(S0, Move::Claim { marks: holes }).unwrap_err();
    assert_eq!(e, Error::Marks(MarksProblem::Unmarked(3)));
    assert_eq!(e.to_string(), "mark statement 3 true or false");
    let m0 = t.marks(S0, [true, true, false, false]);
    t.play(S0, Move::Claim { marks: m0 });
    let m1 = t.marks(S1, [false; 4]);
    t.play(S1, Move::Claim { marks: m1 });
    assert_eq!(t.g.rp(S0), before[0] + 4);
    assert_eq!(t.g.rp(S1), before[1]);
    let s1 = t.heard(Some(S1));
    assert!(s1.contains(&EventKind::ClaimScored {
        seat: S1,
        right: 0,
        gained: 0
    }));
    assert!(!s1.iter().any(|e| matches!(
        e,
        EventKind::ClaimScored { seat, .. } | EventKind::Marked { seat, .. } if *seat == S0
    )));
    assert_eq!(t.g.phase, PhaseName::Reveal);
}

#[test]
fn reveals_cost_rp_and_the_opponent_learns_only_how_many() {
    let mut t = T::new(6);
    t.play_to_reveal([ROW_A, ROW_C], [true; 4]);
    t.both_pass();
    t.play_to_reveal([ROW_B, ROW_D], [true; 4]);
    let rp = t.g.rp(S0);
    assert!(rp >= 16, "two rounds of right marks give 16 at least: {rp}");
    let unknown: Vec<Cell> = Cell::all().filter(|c| !t.g.known(S0).contains(c)).collect();
    let known = t.g.known(S0)[0];
    let e = t
        .try_play(S0, Move::Reveal { tiles: vec![known] })
        .unwrap_err();
    assert_eq!(e.to_string(), format!("you already know {known}"));
    let afford = (rp / 8) as usize;
    let e = t
        .try_play(
            S0,
            Move::Reveal {
                tiles: unknown[..afford + 1].to_vec(),
            },
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{} reveals cost {} RP (8 each); you have {rp}",
            afford + 1,
            8 * (afford + 1)
        )
    );
    t.play(
        S0,
        Move::Reveal {
            tiles: unknown[..2].to_vec(),
        },
    );
    assert_eq!(t.g.rp(S0), rp - 16);
    let view = t.g.view(S0);
    for c in &unknown[..2] {
        assert!(view.known.contains(&(*c, t.g.layout.colour(*c))));
    }
    // Done buying: a player who could afford more says so by passing.
    if t.g.view(S0).reveal == RevealState::Revealing {
        t.play(S0, Move::Pass);
    }
    let e = t.try_play(S0, Move::Pass).unwrap_err();
    assert_eq!(e, Error::AlreadyDone("acted in Reveal"));
    t.play(S1, Move::Pass);
    assert_eq!(t.g.view(S1).opponent_bought, Some(2));
    assert!(
        t.g.view(S1)
            .known
            .iter()
            .all(|(c, _)| !unknown[..2].contains(c))
    );
    let s1 = t.heard(Some(S1));
    assert!(s1.contains(&EventKind::RevealsCounted { counts: [2, 0] }));
    assert!(!s1.iter().any(|e| matches!(e, EventKind::Revealed { .. })));
}

#[test]
fn reveals_may_be_bought_in_several_commands() {
    let mut t = T::new(6);
    t.play_to_reveal([ROW_A, ROW_C], [true; 4]);
    t.both_pass();
    t.play_to_reveal([ROW_B, ROW_D], [true; 4]);
    let rp = t.g.rp(S0);
    assert!(
        (16..24).contains(&rp),
        "two rounds: 16 for marks, a few for truths: {rp}"
    );
    let unknown: Vec<Cell> = Cell::all().filter(|c| !t.g.known(S0).contains(c)).collect();
    // One tile, then (the Reveal goes on for this player) another.
    t.play(
        S0,
        Move::Reveal {
            tiles: vec![unknown[0]],
        },
    );
    assert_eq!(t.g.view(S0).reveal, RevealState::Revealing);
    // A layout guess is instead of reveals.
    let e = t.try_play(S0, Move::DeclareGuess).unwrap_err();
    assert!(e.to_string().contains("bought reveals"), "{e}");
    t.play(S1, Move::Pass);
    assert_eq!(t.g.phase, PhaseName::Reveal, "seat 0 may still buy");
    t.play(
        S0,
        Move::Reveal {
            tiles: vec![unknown[1]],
        },
    );
    // Less than a reveal's price left: nothing more to buy, and the Reveal is over.
    assert_eq!(t.g.rp(S0), rp - 16);
    assert_eq!(t.g.phase, PhaseName::Bluffing);
    // The opponent learns how many in all, not which.
    assert_eq!(t.g.view(S1).opponent_bought, Some(2));
    assert!(
        t.heard(Some(S1))
            .contains(&EventKind::RevealsCounted { counts: [2, 0] })
    );

    // Still able to buy when the Reveal's time runs out: passed, the phase ends.
    let mut t = T::with(
        6,
        Settings {
            reveal_cost: 1,
            ..Settings::default()
        },
    );
    t.play_to_reveal([ROW_A, ROW_C], [true; 4]);
    let unknown: Vec<Cell> = Cell::all().filter(|c| !t.g.known(S0).contains(c)).collect();
    t.play(
        S0,
        Move::Reveal {
            tiles: vec![unknown[0]],
        },
    );
    t.play(S1, Move::Pass);
    assert_eq!(t.g.view(S0).reveal, RevealState::Revealing);
    t.wait(t.g.setup.settings.reveal_ms);
    t.tick();
    assert_eq!(t.g.phase, PhaseName::Bluffing);
    assert_eq!(t.g.counted, Some([1, 0]));
    // The log tells the two apart: S1 passed, S0's Reveal time ran out.
    let passes = |seat: Seat| {
        t.heard(Some(seat))
            .into_iter()
            .filter_map(|e| match e {
                EventKind::Passed { seat: s, time_up } if s == seat => Some(time_up),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(passes(S1), [false]);
    assert_eq!(passes(S0), [true]);
}

#[test]
fn declaring_a_guess_gives_150_seconds_more() {
    let mut t = T::new(7);
    t.play_to_reveal([ROW_A, ROW_C], [true; 4]);
    let start = t.g.deadline - 30_000;
    t.wait(10_000);
    t.play(S0, Move::DeclareGuess);
    t.play(S1, Move::Pass);
    t.now = start + 30_001;
    assert!(t.tick().is_empty());
    assert_eq!(t.g.phase, PhaseName::Reveal);
    assert_eq!(t.g.next_deadline(), Some(start + 180_000));
    let e = t.try_play(S0, Move::Reveal { tiles: vec![] }).unwrap_err();
    assert!(e.to_string().contains("declared"), "{e}");
    t.now = start + 179_999;
    let wrong = wrong_layout(&t.g.layout);
    t.play(S0, Move::Guess { layout: wrong });
    assert_eq!((t.g.round, t.g.phase), (2, PhaseName::Bluffing));

    // Without declaring, the 30 s are all there is.
    let mut u = T::new(7);
    u.play_to_reveal([ROW_A, ROW_C], [true; 4]);
    u.now = u.g.deadline;
    let layout = u.g.layout;
    let e = u.try_play(S0, Move::Guess { layout }).unwrap_err();
    assert_eq!(
        e,
        Error::WrongPhase {
            expected: PhaseName::Reveal,
            now: PhaseName::Bluffing
        }
    );
}

#[test]
fn wrong_guess_loses_all_rp_and_the_next_reveal() {
    let mut t = T::new(8);
    t.play_to_reveal([ROW_A, ROW_C], [true; 4]);
    let rp = t.g.rp(S0);
    assert!(rp >= 8);
    let wrong = wrong_layout(&t.g.layout);
    t.play(S0, Move::Guess { layout: wrong });
    t.play(S1, Move::Pass);
    assert_eq!(t.g.rp(S0), 0);
    assert!(t.g.view(S0).barred);
    assert!(
        t.heard(Some(S0))
            .contains(&EventKind::GuessWrong { seat: S0, lost: rp })
    );
    assert!(
        !t.heard(Some(S1))
            .iter()
            .any(|e| matches!(e, EventKind::GuessWrong { .. } | EventKind::Guessed { .. }))
    );
    // Next round: enough RP again, but no reveal.
    t.play_to_reveal([ROW_B, ROW_D], [true; 4]);
    assert!(t.g.rp(S0) >= 8);
    let tile = Cell::all()
        .find(|c| !t.g.known(S0).contains(c))
        .expect("a tile");
    let e = t
        .try_play(S0, Move::Reveal { tiles: vec![tile] })
        .unwrap_err();
    assert!(e.to_string().contains("bars you"), "{e}");
    t.both_pass();
    // The round after: allowed again.
    t.play_to_reveal([ROW_A, ROW_C], [true; 4]);
    assert!(!t.g.view(S0).barred);
    t.play(S0, Move::Reveal { tiles: vec![tile] });
}

#[test]
fn right_guess_wins() {
    let mut t = T::new(9);
    t.play_to_reveal([ROW_A, ROW_C], [true; 4]);
    let layout = t.g.layout;
    t.play(S0, Move::Guess { layout });
    assert!(!t.g.is_over(), "judged when Reveal ends");
    t.play(S1, Move::Pass);
    assert_eq!(t.g.outcome(), Some((Some(S0), Ending::Guessed)));
    assert_eq!(t.g.view(S1).layout, Some(layout));
    assert_eq!(t.try_play(S1, Move::Pass).unwrap_err(), Error::Over);
    assert_eq!(t.g.next_deadline(), None);
}

#[test]
fn both_right_more_rp_then_earlier_submission_wins() {
    // More RP: seat 1 marked everything wrong, so seat 0 has more, though later.
    let mut t = T::new(10);
    t.play_to_reveal([ROW_A, ROW_C], [false; 4]);
    assert!(t.g.rp(S0) > t.g.rp(S1));
    let layout = t.g.layout;
    t.play(S1, Move::Guess { layout });
    t.wait(5_000);
    t.play(S0, Move::Guess { layout });
    assert_eq!(t.g.outcome(), Some((Some(S0), Ending::Guessed)));

    // Equal RP (no RP at all): the earlier submission, either seat.
    let none = Settings {
        rp_per_true: 0,
        rp_per_right_mark: 0,
        ..Settings::default()
    };
    for first in [S0, S1] {
        let mut t = T::with(10, none.clone());
        t.play_to_reveal([ROW_A, ROW_C], [true; 4]);
        let layout = t.g.layout;
        t.play(first, Move::Guess { layout });
        t.wait(1);
        t.play(first.other(), Move::Guess { layout });
        assert_eq!(t.g.outcome(), Some((Some(first), Ending::Guessed)));
    }
    // Same RP, same millisecond: no winner.
    let mut t = T::with(10, none);
    t.play_to_reveal([ROW_A, ROW_C], [true; 4]);
    let layout = t.g.layout;
    t.play(S0, Move::Guess { layout });
    t.play(S1, Move::Guess { layout });
    assert_eq!(t.g.outcome(), Some((None, Ending::Guessed)));
}

#[test]
fn reveal_times_out_into_the_next_round() {
    let mut t = T::new(11);
    t.play_to_reveal([ROW_A, ROW_C], [true; 4]);
    let reserve = [t.g.reserve(S0), t.g.reserve(S1)];
    let end = t.g.deadline;
    assert_eq!(t.g.next_deadline(), Some(end));
    t.now = end - 1;
    assert!(t.tick().is_empty());
    t.now = end + 5_000;
    let events = t.tick();
    assert!(events.iter().all(|e| e.at == end), "{events:?}");
    assert_eq!((t.g.round, t.g.phase), (2, PhaseName::Bluffing));
    assert_eq!(t.g.deadline, end + 180_000);
    assert_eq!([t.g.reserve(S0), t.g.reserve(S1)], reserve);
}

#[test]
fn reserve_covers_overruns_and_running_out_loses() {
    let mut t = T::new(12);
    t.at(200_000);
    t.bluff(S0, ROW_A);
    assert_eq!(t.g.reserve(S0), 280_000);
    assert_eq!(t.g.view(S0).reserve, 280_000);
    t.at(220_000);
    t.bluff(S1, ROW_C);
    assert_eq!(t.g.reserve(S1), 260_000);
    // Claiming from 220 s, 90 s long: seat 0 overruns by 100 s.
    t.at(410_000);
    let m = t.marks(S0, [true; 4]);
    t.play(S0, Move::Claim { marks: m });
    assert_eq!(t.g.reserve(S0), 180_000);
    // Seat 1 owes marks and has 260 s of reserve after 310 s.
    assert_eq!(t.g.next_deadline(), Some(START + 570_000));
    t.at(569_999);
    assert!(t.tick().is_empty());
    let m = t.marks(S1, [true; 4]);
    t.at(570_000);
    assert_eq!(
        t.try_play(S1, Move::Claim { marks: m }).unwrap_err(),
        Error::Over
    );
    let events = t.tick();
    assert_eq!(events.last().map(|e| e.at), Some(START + 570_000));
    assert_eq!(t.g.outcome(), Some((Some(S0), Ending::OpponentOutOfTime)));

    // Both out at the same moment: a draw.
    let mut u = T::new(12);
    u.at(180_000 + 300_000);
    u.tick();
    assert_eq!(u.g.outcome(), Some((None, Ending::BothOutOfTime)));
}

#[test]
fn no_limit_lifts_all_three_subset_restrictions() {
    let no_limit = |subset: &str| Move::Bluff {
        subset: subset.into(),
        statements: colour_statements(),
        no_limit: true,
        smokescreen: None,
    };
    let mut t = T::new(13);
    // More than 8 tiles: the size limit is lifted too (each statement is still checked
    // to involve every tile).
    t.play(S0, no_limit("A1-A2-A3-A4-B1-B2-B3-B4-C1"));
    t.bluff(S1, "A1-B1-C1-D1");
    assert!(t.g.items[0].no_limit);
    let m0 = t.marks(S0, [true; 4]);
    let m1 = t.marks(S1, [true; 4]);
    t.play(S0, Move::Claim { marks: m0 });
    t.play(S1, Move::Claim { marks: m1 });
    t.both_pass();
    // Seat 1: fewer than 4 tiles, not connected, sharing with its previous subset.
    t.play(S1, no_limit("A1-D4-B3"));
    // Seat 0 cannot use it twice.
    let e = t.try_play(S0, no_limit("A1-D4-B3")).unwrap_err();
    assert_eq!(e, Error::ItemUsed(Item::NoLimit));
}

/// Seat 1 in Claiming: marking statement `n` is refused (saying `says`); leaving it
/// out is accepted, and the three others, marked right, earn 6 RP.
#[track_caller]
fn seat_1_marks_all_but(t: &mut T, n: usize, says: &str) {
    let marks = t.marks(S1, [true; 4]);
    let e = t
        .try_play(
            S1,
            Move::Claim {
                marks: marks.clone(),
            },
        )
        .unwrap_err();
    assert!(e.to_string().contains(says), "{e}");
    let mut m = marks;
    m[n - 1] = None;
    t.play(S1, Move::Claim { marks: m });
    let m0 = t.marks(S0, [true; 4]);
    t.play(S0, Move::Claim { marks: m0 });
    assert!(t.heard(Some(S1)).contains(&EventKind::ClaimScored {
        seat: S1,
        right: 3,
        gained: 6
    }));
}

#[test]
fn smokescreen_hides_a_statement_from_the_opponent() {
    let mut t = T::new(14);
    t.play(
        S0,
        Move::Bluff {
            subset: ROW_A.into(),
            statements: colour_statements(),
            no_limit: false,
            smokescreen: Some(2),
        },
    );
    t.bluff(S1, ROW_C);
    let seen = t.g.view(S1).opponent.expect("shown in Claiming");
    assert_eq!(seen.statements[1], None);
    assert!(
        seen.statements
            .iter()
            .enumerate()
            .all(|(k, s)| s.is_some() == (k != 1))
    );
    assert_eq!(t.g.view(S0).own.and_then(|b| b.smokescreen), Some(2));
    assert!(!t.heard(Some(S1)).iter().any(|e| matches!(
        e,
        EventKind::Bluffed { seat, .. } if *seat == S0
    )));
    assert_eq!(
        t.try_play(S1, Move::Detect { statement: 2 }).unwrap_err(),
        Error::Smokescreened(2)
    );
    seat_1_marks_all_but(&mut t, 2, "statement 2 is smokescreened");
}

#[test]
fn detective_tells_a_truth_and_earns_nothing_for_it() {
    let mut t = T::new(15);
    t.bluff(S0, ROW_A);
    t.bluff(S1, ROW_C);
    let truth = t.colours(ROW_A)[2];
    t.play(S1, Move::Detect { statement: 3 });
    assert_eq!(t.g.view(S1).detected, Some((3, truth)));
    assert_eq!(t.g.view(S0).detected, None);
    assert!(
        !t.heard(Some(S0))
            .iter()
            .any(|e| matches!(e, EventKind::Detected { .. }))
    );
    assert_eq!(
        t.try_play(S1, Move::Detect { statement: 5 }).unwrap_err(),
        Error::ItemUsed(Item::Detective)
    );
    seat_1_marks_all_but(&mut t, 3, "statement 3 is detected");
}

#[test]
fn items_are_one_time() {
    let mut t = T::new(16);
    let screened = |subset: &str| Move::Bluff {
        subset: subset.into(),
        statements: colour_statements(),
        no_limit: false,
        smokescreen: Some(1),
    };
    t.play(S0, screened(ROW_A));
    t.bluff(S1, ROW_C);
    t.play(S0, Move::Detect { statement: 1 });
    let m0 = vec![None, Some(true), Some(true), Some(true)];
    t.play(S0, Move::Claim { marks: m0 });
    let m1 = vec![None, Some(true), Some(true), Some(true)];
    t.play(S1, Move::Claim { marks: m1 });
    t.both_pass();
    assert_eq!(
        t.try_play(S0, screened(ROW_B)).unwrap_err(),
        Error::ItemUsed(Item::Smokescreen)
    );
    t.bluff(S0, ROW_B);
    t.bluff(S1, ROW_D);
    assert_eq!(
        t.try_play(S0, Move::Detect { statement: 1 }).unwrap_err(),
        Error::ItemUsed(Item::Detective)
    );
    // Seat 1 has all three still.
    t.play(S1, Move::Detect { statement: 1 });
}

#[test]
fn views_never_show_opponent_rp_layout_or_private_tiles() {
    let mut t = T::new(17);
    t.play_to_reveal([ROW_A, ROW_C], [true; 4]);
    let tile = Cell::all().find(|c| !t.g.known(S1).contains(c) && !t.g.known(S0).contains(c));
    t.play(
        S1,
        Move::Reveal {
            tiles: tile.into_iter().collect(),
        },
    );
    let mine = t.g.view(S0);
    // Change all seat 0 may not know: the opponent's RP, the opponent's tiles, the
    // colour of every tile seat 0 does not know. Its view stays the same.
    let mut other = t.g.clone();
    other.rp[1] += 37;
    other.known[1] = Cell::all()
        .filter(|c| !other.known[0].contains(c) && !t.g.known(S1).contains(c))
        .take(3)
        .collect();
    for c in Cell::all().filter(|c| !t.g.known(S0).contains(c)) {
        other.layout.0[c.index()] = Colour::from_index((t.g.layout.colour(c).index() + 1) % 4);
    }
    assert_ne!(other.layout, t.g.layout);
    assert_eq!(other.view(S0), mine);
    // What is seat 0's own does show.
    other.rp[0] += 1;
    assert_ne!(other.view(S0), mine);
    let json = serde_json::to_string(&mine).expect("views serialise");
    assert!(!json.contains(&t.g.layout.to_string()), "{json}");
    assert_eq!(mine.layout, None);
}

#[test]
fn events_reach_only_their_audience() {
    let mut t = T::new(18);
    t.play_to_reveal([ROW_A, ROW_C], [true; 4]);
    let tile = Cell::all()
        .find(|c| !t.g.known(S0).contains(c))
        .expect("a tile");
    t.play(S0, Move::Reveal { tiles: vec![tile] });
    t.play(S1, Move::DeclareGuess);
    let wrong = wrong_layout(&t.g.layout);
    t.play(S1, Move::Guess { layout: wrong });
    let layout = t.g.layout.to_string();
    // Nothing a spectator hears before the end holds the layout or a private fact.
    for e in t.heard(None) {
        assert_eq!(e.audience(), Audience::Everyone, "{e:?}");
        let json = serde_json::to_string(&e).expect("events serialise");
        assert!(!json.contains(&layout), "{json}");
    }
    // Each player hears their own private events and none of the other's.
    for seat in [S0, S1] {
        let heard = t.heard(Some(seat));
        assert!(heard.iter().any(|e| e.audience() == Audience::Only(seat)));
        assert!(
            heard
                .iter()
                .all(|e| e.audience() != Audience::Only(seat.other()))
        );
        assert!(!heard.iter().any(|e| matches!(e, EventKind::Created { .. })));
    }
}

#[test]
fn replay_gives_the_same_state() {
    let mut t = T::new(19);
    t.play_to_reveal([ROW_A, ROW_C], [false, true, false, true]);
    t.play(S0, Move::DeclareGuess);
    t.play(S1, Move::Pass);
    t.wait(200_000);
    t.tick();
    t.bluff(S1, ROW_B);
    t.wait(190_000);
    t.bluff(S0, ROW_D);
    assert_eq!(Bluffs::replay(&t.log), Ok(t.g.clone()));
    let json = serde_json::to_string(&t.log).expect("events serialise");
    let back: Vec<Event> = serde_json::from_str(&json).expect("and read back");
    assert_eq!(Bluffs::replay(&back), Ok(t.g));
}

#[test]
fn resigning_gives_the_opponent_the_win() {
    let mut t = T::new(20);
    t.bluff(S0, ROW_A);
    t.play(S0, Move::Resign);
    assert_eq!(t.g.outcome(), Some((Some(S1), Ending::Resigned)));
    assert_eq!(t.try_play(S1, Move::Resign).unwrap_err(), Error::Over);
}

/// Every test the rule list in `mod.rs` names exists here, so the list stays true.
#[test]
fn the_rule_list_names_real_tests() {
    let rules = include_str!("mod.rs");
    let tests = include_str!("tests.rs");
    let doc: Vec<&str> = rules
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .map(|l| l.trim_start_matches("//!"))
        .collect();
    let doc = doc.join(" ");
    let list: Vec<&str> = doc
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| {
            w.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                && w.matches('_').count() >= 2
        })
        .collect();
    assert_eq!(list.len(), 23, "{list:?}");
    for name in list {
        assert!(tests.contains(&format!("fn {name}()")), "no test {name}");
    }
}
