//! `mondo play assembly --json`: a whole match piped, answered by a small scripted
//! solver that remembers the revealed grid; and a restart in the middle of a reveal.

mod play_support;

use mondo::grid::{Contents, Dims, Grid, Group, Shape};
use play_support::Mondo;
use serde_json::Value;

/// Short clocks: a whole match in a few seconds.
const FAST: [&str; 12] = [
    "--reveal-secs",
    "0.3",
    "--wait-secs",
    "0.1",
    "--round-secs",
    "4",
    "--showdown-secs",
    "5",
    "--rounds",
    "6",
    "--seed",
    "11",
];

fn rows(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect()
}

/// The solver: every placement of the shape on the remembered grid, the first with the
/// contents asked.
fn solve(grid: &Grid, round: &Value) -> Group {
    let shape: Shape = rows(&round["shape"]).join("\n").parse().unwrap();
    let contents: Contents = round["contents"].as_str().unwrap().parse().unwrap();
    shape
        .placements(grid.dims())
        .into_iter()
        .find(|g| Contents::of(grid, g) == contents)
        .unwrap_or_else(|| panic!("no solution for {round} on {grid}"))
}

#[test]
fn a_whole_match_piped_is_won_by_the_scripted_solver() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("assembly.db");
    let mut args = vec!["assembly", "--players", "alice,bob"];
    args.extend(FAST);
    let mut m = Mondo::start(&db, &args);
    let (started, _) = m.until("started");
    assert_eq!(started["game"], "assembly");
    let (reveal, _) = m.until("reveal");
    assert_eq!(reveal["secs"], 1);
    let grid = Grid::parse(&rows(&reveal["grid"]).join("\n")).unwrap();
    assert_eq!(grid.dims(), Dims::CLASSIC);
    m.until("hide");
    let mut wrong_shapes = 0;
    for number in 1..=6 {
        let (round, _) = m.until("round");
        assert_eq!(round["number"], number);
        let size = round["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().matches('#').count())
            .sum::<usize>();
        assert_eq!(round["points"], size as u64);
        // Bob answers a broken group (wrong shape, said at once); Alice solves it.
        m.send("bob: answer A1-A3-A5");
        let (answer, _) = m.until("answer");
        assert_eq!(answer["player"], "bob");
        assert_eq!(answer["result"], "wrong_shape");
        assert_eq!(answer["contents"], Value::Null);
        wrong_shapes += 1;
        let solution = solve(&grid, &round);
        m.send(&format!("alice: answer {solution}"));
        m.until("waiting");
        let (answer, _) = m.until("answer");
        assert_eq!(answer["player"], "alice");
        assert_eq!(answer["cells"], solution.to_string());
        assert_eq!(answer["result"], "right");
        assert_eq!(answer["contents"], round["contents"]);
        let (score, _) = m.until("score");
        assert!(score["scores"]["alice"].as_i64().unwrap() > 0);
        assert_eq!(score["scores"]["bob"], 0);
        if number == 5 {
            // After round 5 the grid is shown again.
            m.until("reveal");
            m.until("hide");
        }
    }
    assert_eq!(wrong_shapes, 6);
    let (open, _) = m.until("showdown_open");
    assert_eq!(open["secs"], 5);
    // Alice rebuilds the grid with blanks in the last row; Bob guesses one cell wrong.
    let mut text: Vec<String> = grid.rows();
    text[5] = "......".into();
    m.send(&format!("alice: showdown {}", text.join(" / ")));
    let first = grid.rows()[0].chars().next().unwrap();
    let other = if first == 'O' { 'X' } else { 'O' };
    m.send(&format!(
        "bob: showdown {other}..... / ...... / ...... / ...... / ...... / ......"
    ));
    let (showdown, _) = m.until("showdown");
    assert_eq!(showdown["scores"]["alice"], 30);
    assert_eq!(showdown["scores"]["bob"], 0);
    let (won, _) = m.until("won");
    assert_eq!(won["player"], "alice");
    assert!(m.wait());
}

#[test]
fn a_restart_mid_reveal_resumes_and_still_hides_the_grid() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("assembly.db");
    let mut m = Mondo::start(
        &db,
        &[
            "assembly",
            "--reveal-secs",
            "3",
            "--round-secs",
            "60",
            "--seed",
            "5",
        ],
    );
    let (reveal, _) = m.until("reveal");
    let grid = rows(&reveal["grid"]);
    m.kill();
    // Resumed: the grid is drawn again for the time left, then hidden, then round 1.
    let mut m = Mondo::start(&db, &["--resume"]);
    let (reveal, _) = m.until("reveal");
    assert_eq!(rows(&reveal["grid"]), grid);
    assert!(reveal["secs"].as_u64().unwrap() <= 3);
    let (_, before) = m.until("hide");
    assert!(before.iter().all(|e| e["event"] != "round"), "{before:?}");
    let (round, _) = m.until("round");
    assert_eq!(round["number"], 1);
    // While hidden, `board` does not show it.
    m.send("board");
    let (board, _) = m.until("board");
    assert_eq!(board["grid"], Value::Null);
    m.send("resign");
    let (over, _) = m.until("over");
    assert!(over["how"].as_str().unwrap().contains("resigned"), "{over}");
    assert!(m.wait());
}

#[test]
fn a_plus_match_has_several_targets_and_a_region_showdown_named_by_the_host() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("plus.db");
    let mut m = Mondo::start(
        &db,
        &[
            "assembly",
            "--plus",
            "--grid",
            "6x8",
            "--players",
            "alice,bob",
            "--rounds",
            "1",
            "--targets",
            "2",
            "--reveal-secs",
            "1",
            "--wait-secs",
            "0.1",
            "--round-secs",
            "20",
            "--showdown-secs",
            "20",
            "--seed",
            "3",
        ],
    );
    // The host names the region first thing (the reveal lasts a second).
    m.send("host: region B-C 2-5");
    let (reveal, _) = m.until("reveal");
    let grid = Grid::parse(&rows(&reveal["grid"]).join("\n")).unwrap();
    assert_eq!(grid.dims(), Dims::new(6, 8).unwrap());
    let (first, before) = m.until("round");
    let region: Vec<&Value> = before.iter().filter(|e| e["event"] == "region").collect();
    assert_eq!(region.len(), 1, "{before:?}");
    assert_eq!(region[0]["region"], "B-C 2-5");
    let (second, _) = m.until("round");
    assert_eq!(
        (first["target"].as_u64(), second["target"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(first["points"], 1);
    // Alice finds both (1 point each); the round ends when all are found.
    for round in [&first, &second] {
        m.send(&format!("alice: answer {}", solve(&grid, round)));
        let (answer, _) = m.until("answer");
        assert_eq!(answer["result"], "right");
    }
    let (score, _) = m.until("score");
    assert_eq!(score["scores"]["alice"], 2);
    let (open, _) = m.until("showdown_open");
    assert_eq!(open["region"], "B-C 2-5");
    // +1 a right symbol, -1 a wrong one: alice all 8 right, bob 1 right and 2 wrong.
    let part: Vec<String> = grid.rows()[1..3]
        .iter()
        .map(|r| r[1..5].to_string())
        .collect();
    m.send(&format!("alice: showdown {}", part.join(" / ")));
    let flip = |c: char| if c == 'O' { 'X' } else { 'O' };
    let b: Vec<char> = part[0].chars().collect();
    m.send(&format!(
        "bob: showdown {}{}{}. / ....",
        b[0],
        flip(b[1]),
        flip(b[2])
    ));
    let (showdown, _) = m.until("showdown");
    assert_eq!(showdown["scores"]["alice"], 8);
    assert_eq!(showdown["scores"]["bob"], -1);
    let (won, _) = m.until("won");
    assert_eq!(won["player"], "alice");
    assert!(m.wait());
}

/// The host's pause and resume are said (they stop and restart every clock), as in
/// the other games; main said nothing, so the players could not tell why the round
/// stood still.
#[test]
fn the_hosts_pause_and_resume_are_said() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pause.db");
    let mut m = Mondo::start(
        &db,
        &[
            "assembly",
            "--players",
            "alice,bob",
            "--reveal-secs",
            "60",
            "--seed",
            "3",
        ],
    );
    m.until("reveal");
    m.send("host: pause");
    let (paused, _) = m.until("paused");
    assert_eq!(paused["by"], "host");
    m.send("host: resume");
    let (resumed, _) = m.until("resumed");
    assert_eq!(resumed["by"], "host");
    m.send("quit");
    m.until("left");
    assert!(m.wait());
}
