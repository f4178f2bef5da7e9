//! Driving the `mondo` binary as a program would: JSON lines out, commands in.
#![allow(dead_code)] // each test file uses its part

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

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
    let mut child = spawn_as(db, args, flags, &[]);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
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
    Command::new(env!("CARGO_BIN_EXE_mondo"))
        .arg("play")
        .args(flags)
        .arg("--db")
        .arg(db)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("mondo runs")
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
        let mut before = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("no `{event}` came after {before:?}"));
            let value: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert!(errors || value["event"] != "error", "{value}");
            if value["event"] == event {
                return (value, before);
            }
            before.push(value);
        }
    }

    pub fn status(&mut self) -> Value {
        self.send("status");
        self.until("status").0
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
