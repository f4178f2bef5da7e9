//! Driving the `mondo` binary as a program would: JSON lines out, commands in.
#![allow(dead_code)] // each test file uses its part

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The login name the games these helpers start are played under (`USER`): a solo
/// game's player, unless `--player` names another.
pub const LOGIN: &str = "me";

/// Runs `mondo play --json --db DB ARGS` with all of `input` piped in: its JSON lines.
pub fn play(db: &Path, args: &[&str], input: &str) -> Vec<Value> {
    run(db, args, &["--json"], input)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// Runs `mondo play --db DB ARGS` (text, as a person reads it) with all of `input`
/// piped in: everything it printed.
pub fn play_text(db: &Path, args: &[&str], input: &str) -> String {
    run(db, args, &[], input)
}

/// `mondo play FLAGS --db DB ARGS` with all of `input` piped in: what it printed (it
/// must succeed).
fn run(db: &Path, args: &[&str], flags: &[&str], input: &str) -> String {
    let out = output(db, args, flags, &[], input);
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// `mondo play FLAGS --db DB ARGS` with these environment variables and all of `input`
/// piped in: how it ended, and everything it printed on either output.
pub fn output(
    db: &Path,
    args: &[&str],
    flags: &[&str],
    env: &[(&str, &std::ffi::OsStr)],
    input: &str,
) -> std::process::Output {
    let mut child = command(db, args, flags, env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mondo runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// `mondo play --json --db DB ARGS` with its input and output piped (its errors go
/// to the test's, and nothing can fill an unread pipe).
fn spawn(db: &Path, args: &[&str]) -> Child {
    spawn_as(db, args, &["--json"], &[])
}

/// The same, with these environment variables set.
fn spawn_env(db: &Path, args: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> Child {
    spawn_as(db, args, &["--json"], env)
}

/// `mondo play FLAGS --db DB ARGS` with these environment variables, its input and
/// output piped.
fn spawn_as(db: &Path, args: &[&str], flags: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> Child {
    command(db, args, flags, env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("mondo runs")
}

/// `mondo play FLAGS --db DB ARGS` with these environment variables.
fn command(db: &Path, args: &[&str], flags: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mondo"));
    cmd.arg("play")
        .args(flags)
        .arg("--db")
        .arg(db)
        .args(args)
        // A solo game is credited to the login name: the same in every environment.
        .env("USER", LOGIN)
        .envs(env.iter().copied());
    cmd
}

/// What a JSON line says in its `message` (empty if it says nothing there).
pub fn message(e: &Value) -> &str {
    e["message"].as_str().unwrap_or_default()
}

/// The lines with this event.
pub fn of<'a>(events: &'a [Value], name: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["event"] == name).collect()
}

/// A running `mondo play --json` with its input and the lines it prints, as they come.
pub struct Mondo {
    pub child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Mondo {
    pub fn start(db: &Path, args: &[&str]) -> Mondo {
        Mondo::start_env(db, args, &[])
    }

    /// Started with these environment variables set.
    pub fn start_env(db: &Path, args: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> Mondo {
        let mut child = spawn_env(db, args, env);
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Mondo {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line with this event, and the lines before it. An error on the way
    /// fails the test. (The generous limit only guards against a hung child: nothing
    /// here waits for time to pass.)
    pub fn until(&mut self, event: &str) -> (Value, Vec<Value>) {
        self.until_maybe_after_errors(event, false)
    }

    /// The same, errors on the way allowed (among the lines before).
    pub fn until_any(&mut self, event: &str) -> (Value, Vec<Value>) {
        self.until_maybe_after_errors(event, true)
    }

    fn until_maybe_after_errors(&mut self, event: &str, errors: bool) -> (Value, Vec<Value>) {
        self.until_one_of(&[event], errors)
    }

    /// The next line with one of these events, and the lines before it (errors on the
    /// way fail the test unless `errors`).
    pub fn until_one_of(&mut self, events: &[&str], errors: bool) -> (Value, Vec<Value>) {
        let event = events.join("` or `");
        let mut before = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("no `{event}` came after {before:?}"));
            let value: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert!(errors || value["event"] != "error", "{value}");
            if events.iter().any(|e| value["event"] == *e) {
                return (value, before);
            }
            before.push(value);
        }
    }

    pub fn status(&mut self) -> Value {
        self.send("status");
        self.until("status").0
    }

    /// `player` guesses `pattern`, and confirms the guess once it is read back.
    pub fn guess(&mut self, player: &str, pattern: &str) {
        self.send(&format!("{player}: guess {pattern}"));
        self.until("reading");
        self.send(&format!("{player}: confirm"));
    }

    /// The match is won by `player` and the process then ends successfully: the `won`
    /// event.
    pub fn won_by(mut self, player: &str) -> Value {
        let (won, _) = self.until("won");
        assert_eq!(won["player"], player);
        assert!(self.wait());
        won
    }

    /// SIGKILL: no chance to save anything more.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Waits for the process to end by itself; whether it succeeded.
    pub fn wait(mut self) -> bool {
        drop(self.stdin);
        self.child.wait().unwrap().success()
    }
}

/// A `mondo play` command line, built from what a test means (the game, who plays,
/// the AI's level, a setup) instead of the same flags spelled out in every test.
#[derive(Clone, Debug)]
pub struct Table(Vec<String>);

impl Table {
    /// `GAME --players PLAYERS` (`alice,bob`).
    pub fn new(game: &str, players: &str) -> Table {
        Table(vec![game.into(), "--players".into(), players.into()])
    }

    /// `duel --players alice,bob`.
    pub fn duel() -> Table {
        Table::new("duel", "alice,bob")
    }

    /// `GAME --players me,ai --ai-level LEVEL`: me against the AI student.
    pub fn against_ai(game: &str, level: &str) -> Table {
        Table::new(game, "me,ai").with("--ai-level", level)
    }

    /// One option more, with its value.
    pub fn with(mut self, option: &str, value: &str) -> Table {
        self.0.extend([option.to_string(), value.to_string()]);
        self
    }

    pub fn seed(self, seed: u64) -> Table {
        self.with("--seed", &seed.to_string())
    }

    pub fn pattern(self, pattern: &str) -> Table {
        self.with("--pattern", pattern)
    }

    pub fn host(self, host: &str) -> Table {
        self.with("--host", host)
    }

    pub fn args(&self) -> Vec<&str> {
        self.0.iter().map(String::as_str).collect()
    }

    /// Played with all of `input` piped in ([`play`]): its JSON lines.
    pub fn play(&self, db: &Path, input: &str) -> Vec<Value> {
        play(db, &self.args(), input)
    }

    /// Refused before anything starts: what it said on standard error (it must exit
    /// with status 2 and print nothing on standard output).
    pub fn refused(&self, db: &Path) -> String {
        refused(db, &self.args())
    }
}

/// `mondo play --json --db DB ARGS` that must be refused before anything starts: its
/// standard error (exit status 2, nothing on standard output).
pub fn refused(db: &Path, args: &[&str]) -> String {
    let out = output(db, args, &["--json"], &[], "");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    String::from_utf8(out.stderr).unwrap()
}

/// `mondo stats PLAYER --json --db DB`: the player's ratings and history.
pub fn stats(db: &Path, player: &str) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(["stats", player, "--json", "--db"])
        .arg(db)
        .output()
        .expect("mondo runs");
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The errors a run printed, as their messages.
pub fn errors(events: &[Value]) -> Vec<String> {
    of(events, "error")
        .iter()
        .map(|e| e["message"].as_str().unwrap_or_default().to_string())
        .collect()
}
