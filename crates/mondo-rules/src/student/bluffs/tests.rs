//! The AI's parts against brute force and the umpire, and whole matches through the
//! umpire.

use super::duel::{self, Player};
use super::says::{catalogue, meanings, say};
use super::*;
use crate::lang::tiles::Colour;
use crate::rules::bluffs::judge;

fn cell(s: &str) -> Cell {
    s.parse().expect("a cell")
}

fn subset(s: &str) -> Subset {
    s.parse().expect("a subset")
}

/// A fake clock: every read is one tick later.
fn ticks() -> impl FnMut() -> u64 {
    let mut t = 0;
    move || {
        t += 1;
        t
    }
}

/// Every layout of the board with the tiles of `fixed` as given and the others of
/// each colour, listed.
fn all_layouts(fixed: &[(Cell, Colour)]) -> Vec<Layout> {
    let open: Vec<Cell> = Cell::all()
        .filter(|c| fixed.iter().all(|(f, _)| f != c))
        .collect();
    let mut out = Vec::new();
    for a in 0..1usize << (2 * open.len()) {
        let mut colours = [Colour::Red; 16];
        for (c, col) in fixed {
            colours[c.index()] = *col;
        }
        for (j, c) in open.iter().enumerate() {
            colours[c.index()] = Colour::from_index(a >> (2 * j) & 3);
        }
        out.push(Layout(colours));
    }
    out
}

#[test]
fn the_space_counts_exactly_what_brute_force_counts() {
    // Ten tiles known, six open: 4096 layouts, few enough to list.
    let fixed: Vec<(Cell, Colour)> = ["A1", "A2", "A3", "A4", "B1", "C1", "C2", "D1", "D2", "D3"]
        .iter()
        .enumerate()
        .map(|(i, c)| (cell(c), Colour::from_index(i * 7 % 4)))
        .collect();
    let mut space = Space::new(12);
    let mut layouts = all_layouts(&fixed);
    // A fact before a tile is known, then the tile: slicing keeps the count.
    let facts: [(&str, &str, bool); 4] = [
        ("B2-B3-C3-C4", "at least two tiles are red", true),
        (
            "A4-B4-C4-D4",
            "a blue tile is orthogonally adjacent to a green tile",
            false,
        ),
        ("B3-B4-C3-D4-C4", "there are exactly three colours", true),
        ("B2-C2-D2-D3-D4", "exactly one tile is yellow", false),
    ];
    for (n, (on, text, truth)) in facts.iter().enumerate() {
        let s = subset(on);
        let j = Judge::new(&s, text).expect("it reads");
        let cells = j.cells().to_vec();
        let fact = Fact::Truth(Box::new(j), *truth);
        assert_eq!(
            space.constrain(&cells, &|c| fact.holds(c)),
            Applied::Applied
        );
        let st = tiles::parse(text).expect("it reads");
        layouts.retain(|l| tiles::truth(&st, &s, l) == *truth);
        if n == 1 {
            for (c, col) in &fixed {
                space.fix(*c, *col);
            }
        }
    }
    for (c, col) in &fixed {
        space.fix(*c, *col);
    }
    assert_eq!(space.layouts() as usize, layouts.len());
    assert!(space.layouts() > 1.0 && layouts.len() < 4096);
    // The marginals and a histogram are the brute-force shares.
    let marginals = space.marginals();
    for c in ["B2", "C3", "D4"].map(cell) {
        for col in Colour::ALL {
            let share =
                layouts.iter().filter(|l| l.colour(c) == col).count() as f64 / layouts.len() as f64;
            assert!((marginals[c.index()][col.index()] - share).abs() < 1e-9);
        }
    }
    let (held, hist) = space.histogram(&[cell("B3"), cell("A1"), cell("C4")]);
    assert_eq!(held, vec![cell("B3"), cell("C4")]);
    for (a, got) in hist.iter().enumerate() {
        let want = layouts
            .iter()
            .filter(|l| l.colour(held[0]).index() == a & 3 && l.colour(held[1]).index() == a >> 2)
            .count() as u64;
        assert_eq!(*got, want, "{a}");
    }
    // Every layout it lists is one brute force keeps.
    let listed = space.layouts_list(usize::MAX);
    assert_eq!(listed.len(), layouts.len());
    assert!(listed.iter().all(|l| layouts.contains(l)));
    // A wrong guess drops exactly that layout.
    space.exclude(&listed[0]);
    assert_eq!(space.layouts() as usize, layouts.len() - 1);
}

#[test]
fn a_fact_past_the_depth_waits() {
    let mut space = Space::new(4);
    let s = subset("A1-A2-A3-B1-B2");
    let j = Judge::new(&s, "at least two tiles are red").expect("it reads");
    let cells = j.cells().to_vec();
    let fact = Fact::Truth(Box::new(j), true);
    assert_eq!(
        space.constrain(&cells, &|c| fact.holds(c)),
        Applied::Deferred
    );
    space.fix(cell("A1"), Colour::Red);
    assert_eq!(
        space.constrain(&cells, &|c| fact.holds(c)),
        Applied::Applied
    );
    assert_eq!(space.digits(), 4);
    // Given A1 red: at least one red among four tiles.
    assert_eq!(space.count(), 256 - 81);
}

#[test]
fn every_statement_it_says_reads_back_to_the_meaning_it_intended() {
    let said = catalogue();
    // Nearly every meaning is said: those that are not are dropped, never mangled.
    assert!(
        said.len() * 10 >= meanings().len() * 9,
        "{} of {}",
        said.len(),
        meanings().len()
    );
    let subsets = [
        "A1-A2-B1-B2",
        "A1-A2-A3-A4-B4",
        "B2-B3-C2-C3-D2-D3",
        "A1-B1-C1-D1-D2-D3-D4-C4",
    ];
    for s in said {
        let intended = tiles::parse_symbolic(&s.meant).expect("its meaning reads");
        for on in subsets {
            let sub = subset(on);
            let g = Geometry::new(&sub);
            let (_, verdict) = judge(&s.text, &sub, tiles::MAX_WORDS).expect("the umpire reads it");
            // Said back in the very words typed.
            assert_eq!(verdict.statement, s.text);
            // Where the AI would say it, the umpire accepts it, and means what it meant.
            let candidate = Candidate::on(0, s, &g, tiles::MAX_WORDS);
            assert_eq!(
                candidate.is_some(),
                verdict.valid,
                "{} on {on}: {verdict:?}",
                s.text
            );
            let read = tiles::parse(&s.text).expect("it reads");
            assert_eq!(
                g.truth_table(&read.formula),
                g.truth_table(&intended.formula),
                "{} on {on}",
                s.text
            );
        }
    }
    // A meaning whose English would read otherwise is not said.
    assert!(say("count(x: red(x)) >= 2").is_some());
    assert!(say("3 * count(x: red(x)) > count(x: true) + 1").is_none());
}

/// What the AI's own files may take from the game: the view, the moves, the public
/// settings. The match runner (`duel.rs`) is the umpire's side and holds the game.
const FROM_THE_GAME: [&str; 8] = [
    "BluffsView",
    "Move",
    "PhaseName",
    "PlayerView",
    "RevealState",
    "Settings",
    "ShownBluff",
    "STATEMENTS",
];

/// The names the AI's code takes from `rules::bluffs`, and whether it reads a view's
/// end-of-match layout (`.layout` as a field).
fn taken_from_the_game(code: &str) -> (Vec<String>, bool) {
    let code: String = code
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut names = Vec::new();
    for (at, _) in code.match_indices("rules::bluffs::") {
        let rest = &code[at + "rules::bluffs::".len()..];
        let list = match rest.strip_prefix('{') {
            Some(r) => &r[..r.find('}').unwrap_or(r.len())],
            None => {
                &rest[..rest
                    .find(|c: char| !c.is_alphanumeric() && c != '_')
                    .unwrap_or(rest.len())]
            }
        };
        names.extend(
            list.split(',')
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty()),
        );
    }
    let reads_layout = code.match_indices(".layout").any(|(at, _)| {
        code[at + ".layout".len()..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric() && c != '_')
    });
    (names, reads_layout)
}

#[test]
fn the_ai_reads_the_view_only() {
    for (file, text) in [
        ("mod.rs", include_str!("mod.rs")),
        ("says.rs", include_str!("says.rs")),
        ("space.rs", include_str!("space.rs")),
    ] {
        let (names, reads_layout) = taken_from_the_game(text);
        for n in &names {
            assert!(
                FROM_THE_GAME.contains(&n.as_str()),
                "{file} takes {n} from the game"
            );
        }
        assert!(!reads_layout, "{file} reads a layout field");
    }
    // The scan sees what it must refuse.
    let (names, _) = taken_from_the_game("use crate::rules::bluffs::{Bluffs, PlayerView};");
    assert_eq!(names, ["Bluffs", "PlayerView"]);
    assert!(taken_from_the_game("let l = view.layout;").1);
    assert!(!taken_from_the_game("let n = space.layouts();").1);
}

fn settings() -> Settings {
    Settings::default()
}

#[test]
fn asked_again_it_plans_the_same_move_due_at_the_same_moment() {
    use crate::rules::bluffs::{Bluffs, PublicBluffs, Setup};
    use crate::rules::{PlayerId, Seat};
    let players = [PlayerId(1), PlayerId(2)];
    let setup = Setup {
        players,
        seed: 5,
        settings: settings(),
    };
    let (game, _) = Bluffs::start(setup, 0).expect("a match");
    let view = BluffsView {
        version: 1,
        phase_since: 1,
        paused: false,
        players,
        round: 1,
        phase: PhaseName::Bluffing,
        settings: settings(),
        you: Some(Seat::FIRST),
        public: PublicBluffs {
            deadline: None,
            submitted: [false, true],
            bluffs: [None, None],
            bought: None,
            outcome: None,
            layout: None,
        },
        mine: game.view(Seat::FIRST).into(),
    };
    let mut ai = BluffsAi::new(Level::Expert, &settings(), 1);
    let (first, delay) = ai.plan(&view, 1_000).expect("a bluff");
    assert!(matches!(first, Move::Bluff { .. }), "{first:?}");
    // A person's pace, well inside the phase, counted from its start (at 0).
    assert!((6_000..15_000).contains(&(delay + 1_000)), "{delay}");
    // Another AI of the seat's seed, first asked later (a restart): the same bluff,
    // due at the same moment.
    let mut twin = BluffsAi::new(Level::Expert, &settings(), 1);
    assert_eq!(
        twin.plan(&view, 2_500),
        Some((first.clone(), delay - 1_500))
    );
    // Asked again later (the opponent moved): the same bluff, due at the same moment.
    let (again, later) = ai.plan(&view, 4_000).expect("a bluff");
    assert_eq!(again, first);
    assert_eq!(later, delay - 3_000);
    // Paused, or not its seat: nothing.
    let paused = BluffsView {
        paused: true,
        ..view.clone()
    };
    assert!(ai.plan(&paused, 5_000).is_none());
    let spectator = BluffsView { mine: None, ..view };
    assert!(ai.plan(&spectator, 5_000).is_none());
}

#[test]
fn ai_against_ai_ends_with_a_result_and_every_move_passes_the_umpire() {
    for (seed, levels) in [
        (1, [Level::Beginner, Level::Expert]),
        (2, [Level::Player, Level::Player]),
        (3, [Level::Expert, Level::Beginner]),
    ] {
        let out = duel::play(levels.map(Player::Ai), seed, &settings(), &mut ticks());
        assert!(out.errors.is_empty(), "{:?}", out.errors);
        assert_eq!(out.contradictions, 0);
        assert!(out.winner.is_some(), "seed {seed}: {out:?}");
        assert!(out.think.len() > 4);
    }
}

/// A restart at the start of a round: each AI made anew and given every view its
/// player had (as the seats' driver does from the match's log) plays exactly as the
/// one that was never restarted, move for move, to the same end.
#[test]
fn after_a_restart_it_plays_exactly_as_it_would_have() {
    for (seed, levels, round) in [
        (4, [Level::Expert, Level::Player], 2),
        (5, [Level::Player, Level::Beginner], 3),
        (6, [Level::Beginner, Level::Expert], 2),
    ] {
        let players = levels.map(Player::Ai);
        let once = duel::play(players, seed, &settings(), &mut ticks());
        let again = duel::play_restarting(players, seed, &settings(), &mut ticks(), Some(round));
        assert!(once.rounds > round, "seed {seed}: the restart came in play");
        assert!(again.errors.is_empty(), "{:?}", again.errors);
        assert_eq!(again.moves, once.moves, "seed {seed}");
        assert_eq!(again.winner, once.winner);
    }
}

#[test]
fn the_beginner_beats_a_random_player() {
    for seed in 10..13 {
        let out = duel::play(
            [Player::Ai(Level::Beginner), Player::Random],
            seed,
            &settings(),
            &mut ticks(),
        );
        assert!(out.errors.is_empty(), "{:?}", out.errors);
        assert_eq!(out.winner, Some(0), "seed {seed}: {out:?}");
    }
}

/// Win rates between levels (run by hand: `cargo test -p mondo-rules --lib
/// bluffs_figures -- --ignored --nocapture`; `MATCHES` sets how many per pairing).
#[test]
#[ignore]
fn bluffs_figures() {
    let n: u64 = std::env::var("MATCHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let pairings = [
        (Player::Ai(Level::Beginner), Player::Random),
        (Player::Ai(Level::Player), Player::Ai(Level::Beginner)),
        (Player::Ai(Level::Expert), Player::Ai(Level::Player)),
    ];
    // `PAIRING=2` plays only the third.
    let only: Option<usize> = std::env::var("PAIRING").ok().and_then(|v| v.parse().ok());
    let pairings: Vec<_> = pairings
        .into_iter()
        .enumerate()
        .filter(|(i, _)| only.is_none_or(|o| o == *i))
        .map(|(_, p)| p)
        .collect();
    // Thinking time in microseconds of the machine's clock (a figure, never asserted).
    let start = std::time::Instant::now();
    let mut clock = move || start.elapsed().as_micros() as u64;
    for (a, b) in pairings {
        let (mut wins, mut losses, mut errors, mut rounds, mut contra) = (0, 0, 0, 0, 0);
        let mut think: Vec<u64> = Vec::new();
        for seed in 0..n {
            // Each side sits first in half the matches.
            let swap = seed % 2 == 1;
            let players = if swap { [b, a] } else { [a, b] };
            let out = duel::play(players, seed, &settings(), &mut clock);
            think.extend(out.think.iter().map(|(_, t)| *t));
            let me = usize::from(swap);
            match out.winner {
                Some(w) if w == me => wins += 1,
                Some(_) => losses += 1,
                None => {}
            }
            errors += out.errors.len();
            rounds += out.rounds;
            contra += out.contradictions;
        }
        think.sort_unstable();
        println!(
            "{a:?} vs {b:?}: {wins} wins, {losses} losses of {n}; {errors} errors, {contra} contradictions, {:.1} rounds; think median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            f64::from(rounds) / n as f64,
            think.get(think.len() / 2).copied().unwrap_or(0) as f64 / 1000.0,
            think.get(think.len() * 99 / 100).copied().unwrap_or(0) as f64 / 1000.0,
            think.last().copied().unwrap_or(0) as f64 / 1000.0,
        );
    }
}
