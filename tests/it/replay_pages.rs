//! The replay page tells every game right: each step's true author (a player, a host,
//! the umpire), the setup pictured (never as stored), the clocks named, each running
//! score as it was after that step, and every secret at the end.

use crate::store_ratings::{
    assembly_answer, assembly_started, bluff, bluffs_started, classic_started, duel_setup,
    store_harness, triple_started,
};
use mondo::play::page::{Story, page, story};
use mondo::rules::zendo::testing::Harness;
use mondo::rules::zendo::{DuelMove, ZendoMove};
use mondo::rules::{Action, Actor, Game, PlayerId};
use mondo::store::{MatchId, Store};
use serde::Serialize;

/// A store with three local players: a host (id 1, so a host's id is also a seat's
/// number), alice and bob.
struct Table {
    _dir: tempfile::TempDir,
    store: Store,
    host: PlayerId,
    alice: PlayerId,
    bob: PlayerId,
}

async fn table() -> Table {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("pages.db")).await.unwrap();
    let mut ids = Vec::new();
    for name in ["host", "alice", "bob"] {
        ids.push(PlayerId(store.local_player(name).await.unwrap()));
    }
    assert_eq!(ids[0], PlayerId(1));
    Table {
        _dir: dir,
        store,
        host: ids[0],
        alice: ids[1],
        bob: ids[2],
    }
}

impl Table {
    /// The match `h` played, stored as `kind`: its story and its page.
    async fn told<G: Game>(&self, kind: &str, h: &Harness<G>) -> (Story, String)
    where
        G::Event: Serialize,
    {
        let id: MatchId = store_harness(&self.store, kind, None, h).await;
        let record = self.store.record(id).await.unwrap().unwrap();
        let events = self.store.events(id).await.unwrap();
        let bodies: Vec<serde_json::Value> = events
            .iter()
            .map(|e| serde_json::from_str(&e.body).unwrap())
            .collect();
        let mut named = record.players.clone();
        named.extend(mondo::play::authors::hosts(&record, &bodies));
        let names = self.store.local_names(&named).await.unwrap();
        let changes = self.store.rating_changes(id).await.unwrap();
        let story = story(&record, &events, &names).unwrap();
        let html = page(&record, &events, &names, &changes).unwrap();
        (story, html)
    }

    /// A host's pause and, `ms` later, resume.
    fn host_pauses<G: Game>(&self, h: &mut Harness<G>, ms: u64) {
        h.ok(Actor::Host(self.host), Action::Pause);
        h.wait(ms);
        h.ok(Actor::Host(self.host), Action::Resume);
    }
}

/// Each step's author, in order.
fn authors(story: &Story) -> Vec<&str> {
    story.steps.iter().map(|s| s.who.as_str()).collect()
}

/// What every page must be: each step's author as `expected`, the setup said in
/// words (never as stored, nor any other step), each author of a step isolated when a
/// player, and the secrets section holding each of `secrets`.
fn check(story: &Story, html: &str, expected: &[&str], secrets: &[&str]) {
    let shown: Vec<String> = story
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            format!(
                "{} | {} | {} | {:?} {:?}",
                i + 1,
                s.who,
                s.said,
                s.clocks,
                s.scores
            )
        })
        .collect();
    let shown = shown.join("\n");
    assert_eq!(authors(story), expected, "{shown}");
    assert!(story.steps[0].said.contains(" set up for "), "{shown}");
    for step in &story.steps {
        assert!(!step.said.contains("{\""), "raw JSON said: {shown}");
    }
    assert!(
        !html.contains("{&quot;") && !html.contains("{\""),
        "raw JSON on the page"
    );
    let section = &html[html
        .find("<section id=\"secrets\">")
        .expect("a secrets section")..];
    for secret in secrets {
        assert!(
            section.contains(secret),
            "`{secret}` not among the secrets: {section}"
        );
    }
    // A host's step says so, and no player is named for it.
    for step in story.steps.iter().filter(|s| s.who.contains("host")) {
        assert_eq!(step.who, "host (a host)", "{shown}");
    }
}

/// The page's part for step `n` (from 1).
fn step_html(html: &str, n: usize) -> &str {
    let start = html
        .find(&format!("data-step=\"{n}\""))
        .unwrap_or_else(|| panic!("no step {n}"));
    let end = html[start..].find("</li>").unwrap() + start;
    &html[start..end]
}

const HOST: &str = "host (a host)";
const UMPIRE: &str = "the umpire";

/// A Duel: bob (the advantage) chooses alice to start, a host pauses, alice skips
/// (bob's ticket), bob resigns.
#[tokio::test]
async fn a_duel_page_names_each_author_clock_and_ticket() {
    let t = table().await;
    let mut h = Harness::duel(duel_setup(t.alice, t.bob, 7));
    h.ok(
        Actor::Player(t.bob),
        DuelMove::Zendo(ZendoMove::ChooseStarter { starter: t.alice }),
    );
    t.host_pauses(&mut h, 5_000);
    h.wait(3_000);
    h.ok(Actor::Player(t.alice), DuelMove::Skip);
    h.wait(2_000);
    h.ok(Actor::Player(t.bob), Action::Resign);
    let (story, html) = t.told("zendo-duel", &h).await;
    check(
        &story,
        &html,
        &[
            UMPIRE, "bob", UMPIRE, HOST, HOST, "alice", UMPIRE, UMPIRE, "bob",
        ],
        &["hidden pattern", "some piece points up"],
    );
    assert!(story.steps[0].said.contains("bob has the advantage"));
    // The opening structures pictured with the setup.
    assert!(step_html(&html, 1).matches("<img").count() >= 2);
    let s = &story.steps;
    assert_eq!(s[2].clocks, ["alice's turn clock: 3:00 left, running"]);
    assert_eq!(s[3].clocks, ["alice's turn clock: 3:00 left, stopped"]);
    // Skipped 3 s after the resume.
    assert_eq!(s[5].clocks, ["alice's turn clock: 2:57 left, running"]);
    assert_eq!(s[4].scores, ["tickets: alice 0, bob 0"]);
    assert_eq!(s[5].scores, ["tickets: alice 0, bob 1"]);
    assert!(step_html(&html, 6).contains("tickets: alice 0, bob 1"));
    assert!(step_html(&html, 6).contains("2:57 left"));
}

/// A Triple: a host pauses, both end a turn, bob resigns: all three patterns at the
/// end.
#[tokio::test]
async fn a_triple_page_shows_all_three_patterns_at_the_end() {
    let t = table().await;
    let mut h = triple_started(t.alice, t.bob, 7);
    t.host_pauses(&mut h, 5_000);
    h.wait(7_000);
    h.ok(Actor::Player(t.alice), ZendoMove::EndTurn);
    h.ok(Actor::Player(t.bob), ZendoMove::EndTurn);
    h.ok(Actor::Player(t.bob), Action::Resign);
    let (story, html) = t.told("zendo-triple", &h).await;
    check(
        &story,
        &html,
        &[UMPIRE, HOST, HOST, "alice", UMPIRE, "bob", UMPIRE, "bob"],
        &[
            "pattern A",
            "some piece points up",
            "pattern B",
            "some piece points right",
            "pattern C",
            "some piece points left",
        ],
    );
    let s = &story.steps;
    assert_eq!(
        s[1].clocks,
        [
            "alice's turn clock: 3:00 left, stopped",
            "game clock: 2:00:00 of play left, stopped"
        ]
    );
    assert_eq!(s[3].clocks[1], "game clock: 1:59:53 of play left, running");
    assert_eq!(s[3].scores, ["stones: alice 0, bob 0"]);
    assert!(step_html(&html, 1).contains("<img"));
}

/// Classic: a host pauses, alice calls mondo, both answer right (a stone each), alice
/// guesses with hers and the umpire proves it.
#[tokio::test]
async fn a_classic_page_counts_the_stones_step_by_step() {
    use mondo::rules::zendo::Answer;
    use mondo::rules::zendo::classic::{Call, ClassicMove};
    let t = table().await;
    let mut h = classic_started(vec![t.alice, t.bob], 7);
    t.host_pauses(&mut h, 5_000);
    let k = h.fresh(true);
    h.ok(
        Actor::Player(t.alice),
        ClassicMove::Build {
            koan: k,
            call: Call::Mondo,
        },
    );
    for s in [t.alice, t.bob] {
        h.ok(
            Actor::Player(s),
            ClassicMove::Answer {
                answer: Answer::Obeys,
            },
        );
    }
    let pattern = mondo::lang::parse("some piece points up").unwrap();
    h.ok(Actor::Player(t.alice), ClassicMove::Guess { pattern });
    h.ok(Actor::Player(t.alice), ZendoMove::Confirm);
    h.umpire();
    let (story, html) = t.told("zendo-classic", &h).await;
    check(
        &story,
        &html,
        &[
            UMPIRE, HOST, HOST, "alice", "alice", "bob", UMPIRE, "alice", "alice", UMPIRE,
        ],
        &["hidden pattern", "some piece points up"],
    );
    let s = &story.steps;
    assert_eq!(s[5].scores, ["stones: alice 0, bob 0"]);
    assert_eq!(s[6].scores, ["stones: alice 1, bob 1"]);
    assert_eq!(s[7].scores, ["stones: alice 0, bob 1"]);
    assert_eq!(
        s[3].clocks,
        [
            "alice's turn clock: 3:00 left, stopped",
            "challenge clock: 0:30 left, running"
        ]
    );
}

/// Practice: alice builds a structure, then gives up.
#[tokio::test]
async fn a_practice_page_keeps_the_score() {
    use mondo::rules::zendo::testing::{koan, observe, parsed, practice_setup};
    let t = table().await;
    let mut setup = practice_setup(parsed("some piece points up"));
    setup.player = t.alice;
    let mut h = Harness::practice(setup);
    h.ok(Actor::Player(t.alice), observe(koan("2^")));
    h.ok(Actor::Player(t.alice), Action::Resign);
    let (story, html) = t.told("zendo-practice", &h).await;
    check(
        &story,
        &html,
        &[UMPIRE, "alice", "alice"],
        &["hidden pattern", "some piece points up"],
    );
    assert_eq!(
        story.steps[0].scores,
        ["score: 0 structures built, 0 guesses judged"]
    );
    assert_eq!(
        story.steps[1].scores,
        ["score: 1 structures built, 0 guesses judged"]
    );
    assert!(step_html(&html, 1).contains("<img"));
}

/// Pattern Assembly: after the reveal alice finds the round's target (3 points), a
/// host pauses, bob resigns: the grid at the end.
#[tokio::test]
async fn an_assembly_page_counts_the_points_and_shows_the_grid() {
    let t = table().await;
    let mut h = assembly_started(
        vec![t.alice, t.bob],
        mondo::rules::assembly::Settings::original(),
        7,
    );
    while h
        .act(Actor::Player(t.alice), assembly_answer("A1-A2-B2"))
        .is_err()
    {
        h.run_out();
    }
    h.run_out();
    t.host_pauses(&mut h, 5_000);
    h.ok(Actor::Player(t.bob), Action::Resign);
    let (story, html) = t.told("pattern-assembly", &h).await;
    let last = story.steps.len();
    let mut expected = vec![UMPIRE; last];
    expected[4] = "alice";
    expected[last - 3] = HOST;
    expected[last - 2] = HOST;
    expected[last - 1] = "bob";
    check(
        &story,
        &html,
        &expected,
        &[
            "the grid",
            "OO+X+X / +O+OOO / +OXOOO / O++X+X / +OOOXO / +OX+XX",
        ],
    );
    let s = &story.steps;
    assert_eq!(s[1].clocks, ["grid shown: 0:30 left"]);
    assert_eq!(s[3].clocks, ["round clock: 3:00 left"]);
    assert_eq!(s[4].scores, ["points: alice 0, bob 0"]);
    assert_eq!(s[5].scores, ["points: alice 3, bob 0"], "{:?}", s[5].said);
    assert_eq!(s[last - 1].scores, ["points: alice 3, bob 0"]);
    let secrets = &html[html.find("<section id=\"secrets\">").unwrap()..];
    assert!(secrets.contains("alt=\"the grid\""));
}

/// Pattern Assembly Plus: a host queues the grid again (the host's step, not a
/// player's), alice answers, bob resigns.
#[tokio::test]
async fn an_assembly_plus_page_credits_the_host() {
    let t = table().await;
    let mut h = assembly_started(
        vec![t.alice, t.bob],
        mondo::rules::assembly::Settings::plus(mondo::grid::Dims::CLASSIC),
        7,
    );
    h.ok(
        Actor::Host(t.host),
        mondo::rules::assembly::AssemblyMove::Rereveal,
    );
    while h
        .act(Actor::Player(t.alice), assembly_answer("A1-A2-A3"))
        .is_err()
    {
        h.run_out();
    }
    h.ok(Actor::Player(t.bob), Action::Resign);
    let (story, html) = t.told("pattern-assembly", &h).await;
    check(
        &story,
        &html,
        &[UMPIRE, HOST, UMPIRE, UMPIRE, UMPIRE, "alice", "bob"],
        &[
            "the grid",
            "OO+X+X / +O+OOO / +OXOOO / O++X+X / +OOOXO / +OX+XX",
        ],
    );
    assert!(
        story.steps[0]
            .said
            .starts_with("Pattern Assembly Plus set up for")
    );
    assert_eq!(story.steps[5].scores, ["points: alice 0, bob 0"]);
}

/// Logical Bluffs: alice bluffs, bob bluffs 20 s into his reserve, a host pauses, bob
/// resigns: each step's RP and reserve as they were, the layout at the end.
#[tokio::test]
async fn a_bluffs_page_moves_the_reserve_and_the_rp() {
    let t = table().await;
    let mut h = bluffs_started(t.alice, t.bob, 7);
    h.ok(Actor::Player(t.alice), bluff("A1-A2-B1-B2"));
    h.wait(200_000);
    h.ok(Actor::Player(t.bob), bluff("C3-C4-D3-D4"));
    t.host_pauses(&mut h, 5_000);
    h.ok(Actor::Player(t.bob), Action::Resign);
    let (story, html) = t.told("logical-bluffs", &h).await;
    check(
        &story,
        &html,
        &[
            UMPIRE, "alice", "alice", "bob", "bob", UMPIRE, UMPIRE, UMPIRE, UMPIRE, UMPIRE, HOST,
            HOST, "bob",
        ],
        &["the layout", "RRGB/YBGB/YRRR/GRBR"],
    );
    let s = &story.steps;
    assert_eq!(
        s[0].clocks,
        [
            "bluffing clock (round 1): 3:00 left",
            "alice's reserve: 5:00 left",
            "bob's reserve: 5:00 left"
        ]
    );
    assert_eq!(s[3].clocks[2], "bob's reserve: 4:40 left");
    assert_eq!(s[0].scores, ["RP: alice 0, bob 0"]);
    assert_eq!(s[5].scores, ["RP: alice 3, bob 0"]);
    assert_eq!(s[7].scores, ["RP: alice 3, bob 2"]);
    let secrets = &html[html.find("<section id=\"secrets\">").unwrap()..];
    assert!(secrets.contains("alt=\"the layout\""));
}

/// An AI seat (no name in the store) is named by its reserved name on every step it
/// makes, never by its id.
#[tokio::test]
async fn an_ai_seat_is_named_by_its_reserved_name() {
    let t = table().await;
    let ai = PlayerId::ai(2, 0);
    let mut h = Harness::duel(duel_setup(ai, t.bob, 7));
    h.ok(
        Actor::Player(t.bob),
        DuelMove::Zendo(ZendoMove::ChooseStarter { starter: ai }),
    );
    h.ok(Actor::Player(ai), DuelMove::Skip);
    h.ok(Actor::Player(t.bob), Action::Resign);
    let (story, html) = t.told("zendo-duel", &h).await;
    let expert = mondo::rules::fair::ai_name(2, 1);
    assert_eq!(expert, "ai-expert");
    check(
        &story,
        &html,
        &[UMPIRE, "bob", UMPIRE, &expert, UMPIRE, UMPIRE, "bob"],
        &["some piece points up"],
    );
    assert_eq!(story.players, [expert.as_str(), "bob"]);
    assert!(step_html(&html, 4).contains("<bdi>ai-expert</bdi>"));
}
