//! `mondo play` on a disk that fills up or fails, for real: the C library's file
//! calls of the `mondo` process are made to fail for the database's folder by a small
//! preloaded shim (`scripts/fault/faultfs.c`, built here with `cc`), switched while
//! Mondo runs. No root, no mount: what SQLite sees is ENOSPC, EIO, a full statvfs.
//! (The same shim drives `scripts/fault/store_faults.py` over every game.)

use crate::play_support;

use play_support::Mondo;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const HIDDEN: &str = "some piece points up";

/// The shim, built once per test in its folder.
struct Disk {
    _dir: tempfile::TempDir,
    shim: PathBuf,
    ctl: PathBuf,
    /// The folder whose files fail (canonical: the shim compares real paths).
    data: PathBuf,
}

impl Disk {
    fn new() -> Disk {
        let dir = tempfile::tempdir().unwrap();
        let shim = dir.path().join("faultfs.so");
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/fault/faultfs.c");
        let built = Command::new("cc")
            .args(["-shared", "-fPIC", "-O2", "-o"])
            .arg(&shim)
            .arg(&source)
            .arg("-ldl")
            .status()
            .unwrap_or_else(|e| {
                panic!(
                    "the fault tests build a small C shim with `cc`, which could not be run \
                     ({e}): install a C compiler (Debian/Ubuntu: apt-get install gcc)"
                )
            });
        assert!(built.success(), "the fault shim did not build");
        let data = dir.path().join("data");
        std::fs::create_dir(&data).unwrap();
        let data = data.canonicalize().unwrap();
        let ctl = dir.path().join("ctl");
        let disk = Disk {
            _dir: dir,
            shim,
            ctl,
            data,
        };
        disk.set("ok");
        disk
    }

    /// `ok`, `full`, `fsync-eio` or `write-eio`.
    fn set(&self, mode: &str) {
        std::fs::write(&self.ctl, mode).unwrap();
    }

    fn db(&self) -> PathBuf {
        self.data.join("m.db")
    }

    fn env(&self) -> [(&str, &std::ffi::OsStr); 3] {
        [
            ("LD_PRELOAD", self.shim.as_os_str()),
            ("FAULTFS_DIR", self.data.as_os_str()),
            ("FAULTFS_CTL", self.ctl.as_os_str()),
        ]
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_mondo"));
        c.args(["play", "--json", "--db"])
            .arg(self.db())
            .args(args)
            .envs(self.env());
        c
    }

    /// `mondo play --json` running on this disk.
    fn start(&self, args: &[&str]) -> Mondo {
        Mondo::start_env(&self.db(), args, &self.env())
    }
}

/// A full disk at start-up is said as such, in one line, and leaves no empty database
/// behind. (SQLite's own words were "disk I/O error (code 4874)": it could not grow
/// its shared memory.)
#[test]
fn a_full_disk_at_start_up_says_the_disk_is_full() {
    let disk = Disk::new();
    disk.set("full");
    let out = disk
        .command(&["--pattern", HIDDEN, "--seed", "1"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let said = String::from_utf8(out.stderr).unwrap();
    assert_eq!(said.trim().lines().count(), 1, "{said}");
    assert!(said.contains("is full"), "{said}");
    assert!(!said.contains("4874") && !said.contains("I/O"), "{said}");
    assert!(!disk.db().exists(), "no empty database left behind");
}

/// The duel's clock runs out while the disk is full: the players hear why the match
/// waits, its status stays as the log says, and the time-out is recorded once there
/// is room again. (The match used to freeze here for good, saying nothing.)
#[test]
fn a_time_out_on_a_full_disk_waits_says_why_and_is_recorded_once_there_is_room() {
    let disk = Disk::new();
    let mut run = disk.start(&[
        "duel",
        "--players",
        "alice,bob",
        "--turn-secs",
        "1.5",
        "--pattern",
        HIDDEN,
        "--seed",
        "1",
    ]);
    run.until_any("started");
    disk.set("full");
    let (trouble, _) = run.until_any("store_trouble");
    assert_eq!(trouble["what"], "time-out");
    assert_eq!(trouble["error"], "the disk is full");
    run.send("status");
    let (status, _) = run.until_any("status");
    assert_eq!(status["phase"], "choosing_starter", "{status}");
    disk.set("ok");
    // Bob never chose who starts: the duel is declined, on time.
    let (over, _) = run.until_any("over");
    assert_eq!(over["time_up"], true, "{over}");
}

/// fsync fails after the koan's commit was written: the database is reopened, its
/// log read, and the koan is answered as recorded (it is: a restart finds it). A
/// write that fails outright is answered "may not have been recorded", never "nothing
/// was recorded"; the game goes on once the disk works, from what the log holds.
#[test]
fn io_errors_are_answered_from_the_log_never_by_guessing() {
    let disk = Disk::new();
    let mut run = disk.start(&["--pattern", HIDDEN, "--seed", "1"]);
    run.until_any("started");
    disk.set("fsync-eio");
    run.send("koan 2^");
    let (verdict, _) = run.until_any("verdict");
    assert_eq!(verdict["koan"], "2^");
    disk.set("write-eio");
    run.send("koan 3v");
    let (error, _) = run.until_any("error");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("may not have been recorded"), "{message}");
    assert!(!message.contains("nothing was recorded"), "{message}");
    disk.set("ok");
    run.send("koan 1> 2>");
    run.until_any("verdict");
    run.send("quit");
    run.until("left");
    assert!(run.wait());
    let out = disk
        .command(&["--resume"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = out;
    out.stdin
        .take()
        .unwrap()
        .write_all(b"board\nquit\n")
        .unwrap();
    let out = out.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let board: Value = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["event"] == "board")
        .expect("a board");
    let koans: Vec<&str> = board["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["koan"].as_str().unwrap())
        .collect();
    assert!(
        koans.contains(&"2^") && koans.contains(&"1> 2>"),
        "{koans:?}"
    );
}
