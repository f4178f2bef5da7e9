//! `mondo play` on a terminal that never answers (an editor's console, `script`, a
//! program driving a pseudo-terminal): every game starts, shows its first picture and
//! reads `quit`. The terminal is never asked which pictures it shows (a query would
//! wait forever here); the protocol comes from the environment or `--pictures`.

#![cfg(unix)]

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Generous: a start takes well under a second; a hang is forever.
const DEADLINE: Duration = Duration::from_secs(60);

/// What one run on the silent terminal wrote, and how it ended.
struct Run {
    out: String,
}

/// Runs `mondo play ARGS` with a fresh database on a pseudo-terminal (its input, output
/// and errors) that never answers anything, with `env` set (and the variables that
/// choose pictures cleared otherwise). Waits for `first` in its output, then for its
/// prompt, types `quit`, and waits for it to end; fails (killing it) if any of that
/// does not come within the deadline.
fn silent_terminal(args: &[&str], env: &[(&str, &str)], first: &str) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let pty = nix::pty::openpty(None, None).expect("a pseudo-terminal");
    let slave = std::fs::File::from(pty.slave);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mondo"));
    cmd.arg("play")
        .arg("--db")
        .arg(dir.path().join("pty.db"))
        .args(args)
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave));
    for var in [
        "MONDO_NO_IMAGES",
        "KITTY_WINDOW_ID",
        "TERM_PROGRAM",
        "LC_TERMINAL",
        "KONSOLE_VERSION",
        "TMUX",
        "STY",
        "RUST_LOG",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("TERM", "xterm-256color")
        .env("USER", crate::play_support::LOGIN)
        .envs(env.iter().copied());
    let mut child = cmd.spawn().expect("mondo runs");
    // Our copies of the terminal's end go, so the reader sees the end once mondo is gone.
    drop(cmd);
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    let kill = || {
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL);
    };
    let mut master = std::fs::File::from(pty.master);
    let mut reader = master.try_clone().unwrap();
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        // A pseudo-terminal's reader ends with an error (EIO) once the program is gone.
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let start = Instant::now();
    let mut seen = Vec::new();
    // Waits until `done` holds for what was written; fails (killing mondo) past the
    // deadline or at the end of its output.
    let mut until = |what: &str, done: &dyn Fn(&str) -> bool| -> String {
        loop {
            let text = String::from_utf8_lossy(&seen).into_owned();
            if done(&text) {
                return text;
            }
            let left = DEADLINE.saturating_sub(start.elapsed());
            match rx.recv_timeout(left) {
                Ok(bytes) => seen.extend_from_slice(&bytes),
                Err(e) => {
                    kill();
                    panic!(
                        "{args:?} {env:?}: no {what} ({e:?}) after {:?}: {text:?}",
                        start.elapsed()
                    );
                }
            }
        }
    };
    until(first, &|t| t.contains(first));
    // The line editor asks for the cursor's column (and waits 100 ms for an answer)
    // before its prompt: `quit` is typed once the prompt is there.
    until("prompt", &|t| {
        let from = t.find(first).unwrap();
        let after = &t[from..];
        let asked = after.rfind("\x1b[6n").map_or(0, |i| i);
        after[asked..].contains("> ")
    });
    master.write_all(b"quit\r").unwrap();
    let (done_tx, done_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done_tx.send(child.wait());
    });
    let status = match done_rx.recv_timeout(DEADLINE.saturating_sub(start.elapsed())) {
        Ok(status) => status.unwrap(),
        Err(_) => {
            kill();
            panic!(
                "{args:?} {env:?}: still running after `quit`: {:?}",
                String::from_utf8_lossy(&seen)
            );
        }
    };
    // The rest of what it wrote: the reader ends when the terminal closes.
    while let Ok(bytes) = rx.recv_timeout(DEADLINE.saturating_sub(start.elapsed())) {
        seen.extend_from_slice(&bytes);
    }
    let out = String::from_utf8_lossy(&seen).into_owned();
    assert!(status.success(), "{args:?} {env:?}: {status:?}: {out:?}");
    Run { out }
}

/// kitty's picture, as written.
const KITTY: &str = "\x1b_Gf=100,a=T,q=2,";

/// The games, how each is started at one terminal, and whether it draws pictures
/// (Pattern Assembly's grid and Logical Bluffs' tiles are text).
fn games() -> Vec<(Vec<&'static str>, bool)> {
    let mut games = Vec::new();
    for kind in mondo::rules::GameKind::ALL {
        let players = mondo::play::games::rehearsal(*kind).players;
        let (name, draws) = match kind.name() {
            "zendo-duel" => ("duel", true),
            "zendo-practice" => ("practice", true),
            "zendo-triple" => ("triple", true),
            "zendo-classic" => ("classic", true),
            "pattern-assembly" => ("assembly", false),
            "logical-bluffs" => ("bluffs", false),
            other => panic!("{other}: say here how `mondo play` names it"),
        };
        let mut args = vec![name, "--seed", "1"];
        if players > 1 {
            args.extend(["--players", ["a,b", "a,b,c"][usize::from(players > 2)]]);
        }
        games.push((args, draws));
    }
    games
}

/// Every game, on a terminal whose environment names kitty's protocol (where the
/// picture library used to ask the terminal and wait forever): it starts, its first
/// picture is written (a game that draws), and `quit` is read.
#[test]
fn every_game_starts_on_a_terminal_that_never_answers() {
    for (args, draws) in games() {
        let first = if draws { KITTY } else { "match 1 started" };
        let run = silent_terminal(&args, &[("KITTY_WINDOW_ID", "1")], first);
        assert!(
            !run.out.contains("\x1b[c") && !run.out.contains("\x1b_Gi="),
            "{args:?}: the terminal was asked what it shows: {:?}",
            run.out
        );
    }
}

/// Each protocol named with `--pictures` is written as asked on the silent terminal;
/// `off`, and `auto` where the environment names none, are text only.
#[test]
fn pictures_chosen_by_name_are_written_without_asking() {
    for (choice, mark) in [
        ("kitty", KITTY),
        ("iterm", "\x1b]1337;File=inline=1;"),
        ("sixel", "\x1bPq"),
        ("blocks", "\u{2580}"),
    ] {
        silent_terminal(
            &["practice", "--seed", "1", "--pictures", choice],
            &[],
            mark,
        );
    }
    for args in [
        &["practice", "--seed", "1", "--pictures", "off"][..],
        &["practice", "--seed", "1"][..],
    ] {
        let run = silent_terminal(args, &[], "#2");
        for mark in [KITTY, "\x1b]1337", "\x1bPq", "\u{2580}"] {
            assert!(
                !run.out.contains(mark),
                "{args:?}: {mark:?} in {:?}",
                run.out
            );
        }
    }
}
