//! `mondo play assembly --json`: a whole match piped, answered by a small scripted
//! solver that remembers the revealed grid; a restart in the middle of a reveal; the
//! hidden grid at a terminal (the screen and its scrollback cleared) and piped (said
//! hidden, nothing more); the wrong-shape rule as a host sets it.

use crate::play_support;

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
        // Bob answers a broken group (wrong shape: it waits like any answer, then is
        // said without its contents); Alice solves it.
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
    m.won_by("alice");
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
            "--host",
            "host",
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
    m.won_by("alice");
}

/// The original game's wrong shapes as a host sets them: by default every answer
/// waits (the rules' change), a wrong shape too; `--wrong-shape at-once` (the first
/// rule) says it at once; Plus refuses the first rule.
#[test]
fn a_wrong_shape_waits_unless_the_host_says_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "assembly",
            "--players",
            "alice,bob",
            "--reveal-secs",
            "0.3",
            "--wait-secs",
            "600",
            "--seed",
            "11",
        ];
        a.extend(extra);
        a
    };
    let mut m = Mondo::start(&dir.path().join("waits.db"), &args(&[]));
    m.until("round");
    m.send("bob: answer A1-A3-A5");
    let (waiting, _) = m.until("waiting");
    assert_eq!(waiting["player"], "bob");
    m.send("status");
    let (_, before) = m.until("status");
    assert!(before.iter().all(|e| e["event"] != "answer"), "{before:?}");
    m.kill();

    let mut m = Mondo::start(
        &dir.path().join("at-once.db"),
        &args(&["--wrong-shape", "at-once"]),
    );
    m.until("round");
    m.send("bob: answer A1-A3-A5");
    let (answer, before) = m.until("answer");
    assert!(before.iter().all(|e| e["event"] != "waiting"), "{before:?}");
    assert_eq!(answer["result"], "wrong_shape");
    assert_eq!(answer["contents"], Value::Null);
    m.kill();

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(["play", "--db"])
        .arg(dir.path().join("plus.db"))
        .args(["assembly", "--plus", "--wrong-shape", "at-once"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("every answer waits"), "{err}");
}

/// `mondo play assembly` in text, its output read through `reader` (what `stdout`
/// writes to) until round 1 is asked after the grid is hidden; then `board` and
/// `quit`. Everything it wrote.
fn text_until_hidden(
    db: &std::path::Path,
    stdout: std::process::Stdio,
    reader: impl std::io::Read + Send + 'static,
) -> String {
    use std::io::Write;
    use std::sync::{Arc, Mutex};
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_mondo"));
    cmd.args(["play", "--db"])
        .arg(db)
        .args([
            "assembly",
            "--players",
            "a,b",
            "--seed",
            "3",
            "--reveal-secs",
            "0.5",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(stdout);
    let mut child = cmd.spawn().expect("mondo runs");
    // Our copy of the terminal's other end goes, so its reader sees the end.
    drop(cmd);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let into = seen.clone();
    let (more_tx, more) = std::sync::mpsc::channel();
    let reading = std::thread::spawn(move || {
        let mut reader = reader;
        let mut buf = [0u8; 4096];
        // A pseudo-terminal's reader ends with an error (EIO) once the program is gone.
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            into.lock().unwrap().extend_from_slice(&buf[..n]);
            let _ = more_tx.send(());
        }
    });
    let text = || String::from_utf8_lossy(&seen.lock().unwrap()).into_owned();
    // Each read wakes the wait; a generous deadline for the whole.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !text().contains("Round 1") {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if more.recv_timeout(left).is_err() {
            let _ = child.kill();
            panic!("no Round 1: {}", text());
        }
    }
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"board\nquit\n").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    reading.join().unwrap();
    text()
}

/// The rows of the grid as the reveal drew them (`  A O X + ...`).
fn drawn_rows(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| {
            let b = l.as_bytes();
            b.len() > 4 && b.starts_with(b"  ") && (b'A'..=b'F').contains(&b[2]) && b[3] == b' '
        })
        .map(str::to_string)
        .collect()
}

/// At a terminal, hiding the grid clears the screen and its scrollback (the real
/// escape sequences, obeyed, not printed as text), and the grid is not drawn again
/// after it (`board` says it is hidden).
#[cfg(unix)]
#[test]
fn hiding_the_grid_at_a_terminal_clears_the_screen_and_its_scrollback() {
    let dir = tempfile::tempdir().unwrap();
    let pty = nix::pty::openpty(None, None).expect("a pseudo-terminal");
    let out = text_until_hidden(
        &dir.path().join("tty.db"),
        std::process::Stdio::from(pty.slave),
        std::fs::File::from(pty.master),
    );
    const CLEAR: &str = "\x1b[2J\x1b[3J\x1b[H";
    let at = out
        .find(&format!("{CLEAR}The grid is hidden."))
        .unwrap_or_else(|| panic!("no clear before the hide: {out:?}"));
    assert!(
        !out.contains("\\u001b"),
        "an escape printed as text: {out:?}"
    );
    let (before, after) = out.split_at(at);
    let rows = drawn_rows(before);
    assert_eq!(rows.len(), 6, "the grid was drawn: {before:?}");
    assert!(drawn_rows(after).is_empty(), "the grid again: {after:?}");
    for row in &rows {
        assert!(!after.contains(row.trim()), "{row} again: {after:?}");
    }
}

/// Piped (not a terminal), hiding says so and nothing more: no escape, obeyed or as
/// text, and the grid is not drawn again.
#[test]
fn hiding_the_grid_piped_says_so_without_escapes() {
    let dir = tempfile::tempdir().unwrap();
    let (reader, writer) = std::io::pipe().expect("a pipe");
    let out = text_until_hidden(
        &dir.path().join("pipe.db"),
        std::process::Stdio::from(writer),
        reader,
    );
    assert!(!out.contains('\x1b'), "{out:?}");
    assert!(!out.contains("\\u001b"), "{out:?}");
    let at = out.find("The grid is hidden.").expect("said hidden");
    let (before, after) = out.split_at(at);
    assert_eq!(drawn_rows(before).len(), 6);
    assert!(drawn_rows(after).is_empty(), "the grid again: {after:?}");
}

/// The host's pause and resume are said (they stop and restart every clock), as in
/// the other games; they used to be silent, so the players could not tell why the round
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
            "--host",
            "host",
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
