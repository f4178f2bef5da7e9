//! `mondo play` as a program drives it: piped commands, one JSON object per line, and a
//! game killed mid-guess resumed with nothing lost.

use crate::play_support;

use play_support::{Mondo, Table, message, of, play, play_text, refused};
use serde_json::Value;
use std::process::{Command, Stdio};

const HIDDEN: &str = "some piece points up";

#[test]
fn piped_commands_get_one_json_answer_each() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("p.db");
    let out = play(
        &db,
        &["--pattern", HIDDEN, "--seed", "1"],
        "koan 1^ 2>\nkoan 3v observe\nkoan 1^\nkoan 9x\nguess every piece points up\n\
         take back\nguess every piece points up\nconfirm\nfly away\nstatus\nquit\n",
    );
    assert_eq!(out[0]["event"], "started");
    assert_eq!(out[1]["event"], "board");
    assert_eq!(out[1]["table"][0]["obeys"], true);
    let verdicts = of(&out, "verdict");
    assert_eq!(verdicts.len(), 2);
    assert_eq!(
        (&verdicts[0]["koan"], &verdicts[0]["obeys"]),
        (&Value::from("1^ 2>"), &Value::from(true))
    );
    assert_eq!(verdicts[1]["obeys"], false);
    let errors = of(&out, "error");
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(message(errors[0]).contains("already given"));
    assert!(message(errors[1]).contains("does not read"));
    assert!(message(errors[2]).contains("not a command"));
    let readings = of(&out, "reading");
    assert_eq!(readings.len(), 2);
    assert!(readings[0]["pattern"].as_str().unwrap().contains("up"));
    assert_eq!(readings[0]["contradictions"], serde_json::json!([3]));
    assert_eq!(of(&out, "withdrawn").len(), 1);
    // The wrong guess was already contradicted on the table when read: made official,
    // the umpire names the simplest structure there that refutes it, at once.
    let ce = of(&out, "counterexample");
    assert_eq!(ce.len(), 1, "{out:?}");
    assert_eq!(ce[0]["hidden"], true);
    assert_eq!(ce[0]["guess"], false);
    assert_eq!(ce[0]["koan"], "1^ 2>");
    assert_eq!(ce[0]["on_table"], 3);
    assert_eq!(ce[0]["number"], 3);
    // Every verdict names its structure's number on the table.
    assert_eq!(verdicts[0]["number"], 3);
    assert_eq!(verdicts[1]["number"], 4);
    assert_eq!(of(&out, "status")[0]["guesses"], 1);
    let left = out.last().unwrap();
    assert_eq!(left["event"], "left");
    // How to come back, with the database that was given.
    let again = left["resume"].as_str().unwrap();
    assert_eq!(
        again,
        format!(
            "mondo play --resume {} --db {}",
            out[0]["match"],
            db.display()
        )
    );
}

/// `mondo play --resume ...` with a database: status, standard output and error.
fn resume_in(db: &std::path::Path, args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .env("USER", play_support::LOGIN)
        .args(["play", "--json", "--resume"])
        .args(args)
        .arg("--db")
        .arg(db)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A duel left unfinished and then a practice started in the same database: the
/// practice says the duel is unfinished and how to go back to it; `--resume` alone
/// lists both (it picks neither), and `--resume ID` goes on with the one named, the
/// older duel included. An id that is not unfinished is refused, saying why.
#[test]
fn several_unfinished_matches_are_listed_and_resumed_by_id() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let duel = Table::duel().pattern(HIDDEN).seed(1).play(&db, "quit\n");
    let duel_id = duel[0]["match"].as_i64().unwrap();
    let practice = play(&db, &["--pattern", HIDDEN, "--seed", "2"], "quit\n");
    let practice_id = practice[0]["match"].as_i64().unwrap();
    assert_ne!(duel_id, practice_id);
    let others = of(&practice, "unfinished");
    assert_eq!(others.len(), 1, "{practice:?}");
    assert_eq!(others[0]["match"], duel_id);
    assert_eq!(others[0]["game"], "zendo-duel");
    assert_eq!(others[0]["players"], serde_json::json!(["alice", "bob"]));
    assert_eq!(
        others[0]["resume"],
        format!("mondo play --resume {duel_id} --db {}", db.display())
    );

    // Both unfinished: `--resume` alone opens neither and lists both.
    let (code, out, err) = resume_in(&db, &[], "");
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(out.is_empty(), "{out}");
    for id in [duel_id, practice_id] {
        assert!(
            err.contains(&format!("mondo play --resume {id} --db")),
            "{err}"
        );
    }
    assert!(err.contains("zendo duel, alice vs bob"), "{err}");

    // By id: the older duel, then the practice.
    let (code, out, err) = resume_in(&db, &[&duel_id.to_string()], "status\nquit\n");
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["event"], "resumed");
    assert_eq!(lines[0]["match"], duel_id);
    assert_eq!(lines[0]["game"], "duel");
    let (code, out, _) = resume_in(&db, &[&practice_id.to_string()], "quit\n");
    assert_eq!(code, Some(0));
    assert!(out.contains(&format!("\"match\":{practice_id}")), "{out}");

    // An id that is not an unfinished match: refused, and the unfinished ones listed.
    let (code, _, err) = resume_in(&db, &["99"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("there is no match 99"), "{err}");
    assert!(err.contains(&format!("--resume {duel_id}")), "{err}");
}

#[test]
fn a_game_killed_mid_guess_resumes_with_nothing_lost() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("k.db");
    let mut mondo = Mondo::start(&db, &["--pattern", HIDDEN]);
    mondo.send("koan 2^ 2v\nguess every piece points up");
    // Wait until the guess is read back: it is committed by then.
    mondo.until("reading");
    mondo.kill();

    let out = play(&db, &["--resume"], "board\nconfirm\nstatus\n");
    assert_eq!(out[0]["event"], "resumed");
    let board = of(&out, "board");
    let koans: Vec<&str> = board[0]["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["koan"].as_str().unwrap())
        .collect();
    assert_eq!(koans.len(), 3, "{koans:?}");
    assert_eq!(
        koans[2], "2^ 2v",
        "the structure built before the kill is on the table"
    );
    // The pending guess survived the kill: said on resuming, it can be confirmed now.
    let pending = of(&out, "pending");
    assert_eq!(pending.len(), 1, "{out:?}");
    assert_eq!(pending[0]["shown"], 1);
    assert!(pending[0]["pattern"].as_str().unwrap().contains("up"));
    assert_eq!(of(&out, "official").len(), 1, "{out:?}");
    assert_eq!(of(&out, "counterexample").len(), 1);
    assert_eq!(of(&out, "status").last().unwrap()["koans"], 1);
}

#[test]
fn resume_without_a_game_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("none.db");
    let out = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .env("USER", play_support::LOGIN)
        .args(["play", "--resume", "--db"])
        .arg(&db)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("no unfinished game")
    );
}

/// A guess worded differently from the hidden pattern but equivalent to it wins: the
/// finder proves it over the whole space, and the pattern is revealed.
#[test]
fn an_equivalent_guess_in_other_words_wins() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("w.db");
    let out = play(
        &db,
        &["--pattern", HIDDEN, "--seed", "1"],
        "guess every piece points up\nconfirm\n\
         guess not every piece points right, down or left\nconfirm\nquit\n",
    );
    // The first guess is refuted; the second is the hidden pattern in other words.
    assert_eq!(of(&out, "counterexample").len(), 1, "{out:?}");
    let won = of(&out, "won");
    assert_eq!(won.len(), 1, "{out:?}");
    assert!(
        won[0]["pattern"].as_str().unwrap().contains("up"),
        "{out:?}"
    );
    assert!(of(&out, "undecided").is_empty(), "{out:?}");
}

/// A picture the front wrote, decoded.
fn picture(path: &str) -> image::RgbImage {
    image::load_from_memory(&std::fs::read(path).unwrap())
        .unwrap()
        .to_rgb8()
}

#[test]
fn arrows_practice_reads_arrows_and_draws_every_structure() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("a.db");
    let png = dir.path().join("png");
    std::fs::create_dir(&png).unwrap();
    let out = play(
        &db,
        &[
            "--set",
            "arrows",
            "--pattern",
            "some arrow points at another arrow",
            "--png",
            png.to_str().unwrap(),
        ],
        "koan . U L\nkoan 1^\nkoan R . L\nguess some arrow points up\nconfirm\nboard\nquit\n",
    );
    // The finder's initial structures, in arrows: two pieces are needed to obey.
    let board = &of(&out, "board")[0]["table"];
    assert_eq!(board[0]["koan"], "U L");
    assert_eq!(board[1]["koan"], "U");
    let verdicts = of(&out, "verdict");
    assert_eq!(verdicts.len(), 1, "{out:?}");
    assert_eq!(
        (&verdicts[0]["koan"], &verdicts[0]["obeys"]),
        (&Value::from("R . L"), &Value::from(true))
    );
    let errors = of(&out, "error");
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(message(errors[0]).contains("already given"));
    assert!(
        message(errors[1]).contains("plays with arrows"),
        "{errors:?}"
    );
    // The guess is refuted by #2 (`U` does not obey, yet has an arrow pointing up),
    // which is already on the table: no new structure.
    let ce = of(&out, "counterexample");
    assert_eq!(
        (ce.len(), &ce[0]["on_table"]),
        (1, &Value::from(2)),
        "{ce:?}"
    );
    // One picture per structure as it joins the table (two initial, one built), then
    // the board: each a real PNG of the right shape.
    let pictures = of(&out, "picture");
    let numbers: Vec<_> = pictures.iter().map(|p| p["number"].clone()).collect();
    assert_eq!(numbers[..3], [1, 2, 3].map(Value::from), "{pictures:?}");
    let one = picture(pictures[0]["path"].as_str().unwrap());
    let three = picture(pictures[2]["path"].as_str().unwrap());
    // `U L` is two cells wide, `R . L` three: same height, wider.
    assert_eq!(one.height(), three.height());
    assert!(three.width() > one.width(), "{:?}", three.dimensions());
    assert_eq!(pictures[3]["board"], 3);
    let board = picture(pictures[3]["path"].as_str().unwrap());
    assert!(board.width() > three.width());
}

#[test]
fn a_pattern_that_needs_many_pieces_opens_and_bad_setups_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("m.db");
    // Nothing of fewer than 4 pieces has 10 pips: the umpire still finds the openers.
    let out = play(
        &db,
        &["--pattern", "the total pips is at least 10"],
        "quit\n",
    );
    let board = &of(&out, "board")[0]["table"];
    let obeys = board[0]["koan"].as_str().unwrap();
    assert_eq!(obeys.split_whitespace().count(), 4, "{obeys}");
    assert_eq!(board[1]["obeys"], false);
    // A generated pattern opens too, the same for the same seed.
    let a = play(&db, &["--generate", "--seed", "9"], "quit\n");
    let b = play(&db, &["--generate", "--seed", "9"], "quit\n");
    assert_eq!(of(&a, "board")[0]["table"], of(&b, "board")[0]["table"]);
    let refused = |args: &[&str]| refused(&db, args);
    let e = refused(&["--pattern", "there is a piece or there is no piece"]);
    assert!(e.contains("always true"), "{e}");
    let e = refused(&["--set", "arrows", "--pattern", "some piece is large"]);
    assert!(e.contains("arrows"), "{e}");
    let e = refused(&["--duel", "--players", "a,b", "--set", "arrows"]);
    assert!(e.contains("12 pyramids"), "{e}");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let e = refused(&["--png", file.to_str().unwrap()]);
    assert!(e.contains("not a folder"), "{e}");
}

/// A line that is not UTF-8 text, or one over 64 KiB (here 8 MiB), is
/// refused with its line number, never printed back, and the game goes on; a CRLF
/// line reads as its text.
#[test]
fn bad_bytes_and_huge_lines_are_refused_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.db");
    let mut input = b"koan 1^ 2>\n".to_vec();
    input.extend_from_slice(b"koan \xff\xfe 2>\n");
    input.extend(std::iter::repeat_n(b'x', 8 << 20));
    input.extend_from_slice(b"\nkoan 3v\r\nstatus\nquit\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .env("USER", play_support::LOGIN)
        .args(["play", "--json", "--pattern", HIDDEN, "--seed", "1", "--db"])
        .arg(&db)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, &input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("everything printed is text");
    assert!(text.len() < 20_000, "the long line was printed back");
    let out: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let errors: Vec<&str> = of(&out, "error")
        .iter()
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors[0].contains("input line 2 is not text") && errors[0].contains("0xff"),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].contains("input line 3 is 8388608 bytes long")
            && errors[1].contains("at most 65536"),
        "{}",
        errors[1]
    );
    // The lines before and after were played.
    let koans: Vec<&Value> = of(&out, "verdict").iter().map(|v| &v["koan"]).collect();
    assert_eq!(koans, ["1^ 2>", "3v"]);
    assert_eq!(of(&out, "status").len(), 1);
    assert_eq!(out.last().unwrap()["event"], "left");
}

/// The match in a copy of the `.db` file alone (no `-wal` beside it): its events.
fn events_in_a_copy_of_the_db_alone(db: &std::path::Path) -> Vec<mondo::store::StoredEvent> {
    let copy_dir = tempfile::tempdir().unwrap();
    let copy = copy_dir.path().join("copy.db");
    std::fs::copy(db, &copy).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let store = mondo::store::Store::open(&copy).await.unwrap();
        let found = store
            .matches(&mondo::store::MatchFilter::default())
            .await
            .unwrap();
        assert_eq!(found.len(), 1, "the match is in the .db file");
        let events = store.events(found[0].id).await.unwrap();
        store.close().await;
        events
    })
}

/// A clean exit (`quit`, the end of input, SIGTERM) closes the store
/// with a checkpoint: a copy of the `.db` alone holds the match, and no `-wal` is left.
#[test]
fn every_clean_exit_leaves_the_whole_match_in_the_db_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("q.db");
    let out = play(
        &db,
        &["--pattern", HIDDEN, "--seed", "1"],
        "koan 1^ 2>\nquit\n",
    );
    assert_eq!(out.last().unwrap()["event"], "left");
    assert!(!dir.path().join("q.db-wal").exists(), "the -wal is left");
    // started + the koan's events.
    assert!(events_in_a_copy_of_the_db_alone(&db).len() >= 2);

    signal_leaves_cleanly("-TERM");
}

/// A game with a koan played, then `signal`: it is said, the exit is clean, and the
/// .db alone holds the match (no -wal left).
fn signal_leaves_cleanly(signal: &str) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let mut mondo = Mondo::start(&db, &["--pattern", HIDDEN, "--seed", "1"]);
    mondo.send("koan 1^ 2>");
    mondo.until("verdict");
    let sent = Command::new("kill")
        .args([signal, &mondo.child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    mondo.until("left");
    assert!(mondo.wait(), "{signal} is a clean exit");
    assert!(!dir.path().join("t.db-wal").exists(), "the -wal is left");
    assert!(events_in_a_copy_of_the_db_alone(&db).len() >= 2);
}

/// While one `mondo play` runs a database's matches, a second on
/// the same database is refused in one line naming the first; `mondo replay` still
/// reads it; once the first has left, the second may run.
#[test]
fn a_second_process_on_the_same_database_is_refused_while_replay_still_reads() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("two.db");
    let mut first = Mondo::start(&db, &["--pattern", HIDDEN, "--seed", "1"]);
    let (started, _) = first.until("started");
    let second = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .env("USER", play_support::LOGIN)
        .args(["play", "--resume", "--db"])
        .arg(&db)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(2), "{second:?}");
    let said = String::from_utf8(second.stderr).unwrap();
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.contains("is in use by another Mondo (mondo play, pid ")
            && said.contains(&first.child.id().to_string()),
        "{said}"
    );
    let replay = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(["replay", &started["match"].to_string(), "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(replay.status.success(), "{replay:?}");
    first.send("quit");
    first.until("left");
    assert!(first.wait());
    let out = play(&db, &["--resume"], "status\nquit\n");
    assert_eq!(out[0]["event"], "resumed");
}

/// Whatever the reader accepts can be stored and read back after a
/// restart. The deepest guess the symbolic reader accepts (found here, not assumed) is
/// stored awaiting confirmation; the game is left and resumed with the guess still
/// waiting, and `mondo replay` reads the log. (serde_json's default depth of 128 used
/// to lose such a match for good.)
#[test]
fn the_deepest_guess_the_reader_accepts_survives_the_store_and_a_restart() {
    let deepest = (1..200)
        .map(|n| format!("exists x. {}up(x)", "!".repeat(n)))
        .take_while(|p| mondo::lang::parse_symbolic(p).is_ok())
        .last()
        .expect("some negation reads");
    assert!(
        mondo::lang::parse_symbolic(&deepest.replacen('!', "!!", 1)).is_err(),
        "the reader has a limit"
    );
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("deep.db");
    let out = play(
        &db,
        &["--pattern", HIDDEN, "--seed", "1"],
        &format!("guess {deepest}\nquit\n"),
    );
    assert_eq!(of(&out, "reading").len(), 1, "{out:?}");
    let out = play(&db, &["--resume"], "status\nquit\n");
    assert_eq!(out[0]["event"], "resumed", "{out:?}");
    assert!(of(&out, "error").is_empty(), "{out:?}");
    let out = play(&db, &["--resume"], "confirm\nquit\n");
    assert!(of(&out, "error").is_empty(), "{out:?}");
    let replay = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(["replay", &out[0]["match"].to_string(), "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(replay.status.success(), "{replay:?}");
}

/// `mondo play --json --db DB ARGS` with no input: its status code and standard error.
fn refused_play(db: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .env("USER", play_support::LOGIN)
        .args(["play", "--json", "--db"])
        .arg(db)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

/// Runs SQL on a database as a tamperer would.
fn tamper(db: &std::path::Path, sql: &str) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        use sqlx::Connection;
        let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{}", db.display()))
            .await
            .unwrap();
        sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_string()))
            .execute(&mut c)
            .await
            .unwrap();
        c.close().await.unwrap();
    });
}

/// A database this process may not write is refused at start, by
/// `play --resume` and a new `play` alike, in one line that says why, instead of a
/// game whose every move then fails. (Run as root, the test runs Mondo as `nobody`,
/// whom the file's mode stops.)
#[test]
fn a_read_only_database_is_refused_at_start_in_one_line() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ro.db");
    play(&db, &["--pattern", HIDDEN, "--seed", "1"], "koan 1^\n");
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o444)).unwrap();
    // The folder stays open to all: the lock file beside the database may be made.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let privileged = std::fs::OpenOptions::new().write(true).open(&db).is_ok();
    // `nobody` may not reach the build's binary (a clone in a 0700 folder, as
    // `mktemp -d` makes): it runs a copy beside the database instead.
    let exe = if privileged {
        let copy = dir.path().join("mondo");
        std::fs::copy(env!("CARGO_BIN_EXE_mondo"), &copy).unwrap();
        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).unwrap();
        copy
    } else {
        std::path::PathBuf::from(env!("CARGO_BIN_EXE_mondo"))
    };
    for args in [&["--resume"][..], &["--pattern", HIDDEN]] {
        let mut cmd = Command::new(&exe);
        cmd.env("USER", play_support::LOGIN)
            .args(["play", "--json", "--db"])
            .arg(&db)
            .args(args)
            .stdin(Stdio::null());
        if privileged {
            cmd.uid(65534).gid(65534);
        }
        let out = cmd.output().unwrap();
        let said = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert_eq!(said.lines().count(), 1, "{said}");
        assert!(
            said.contains(&format!("{} cannot be written", db.display()))
                && said.contains("mondo replay"),
            "{said}"
        );
        assert!(out.stdout.is_empty(), "nothing was started");
    }
}

/// A database from a newer Mondo, a folder given as `--db` and a
/// missing folder each get one line that says so.
#[test]
fn databases_mondo_cannot_use_are_refused_saying_why() {
    let dir = tempfile::tempdir().unwrap();
    let (code, said) = refused_play(dir.path(), &["--resume"]);
    assert_eq!(code, Some(2));
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(said.contains("is a folder, not a database file"), "{said}");
    let (code, said) = refused_play(&dir.path().join("gone/m.db"), &[]);
    assert_eq!(code, Some(2));
    assert!(said.contains("does not exist; create it first"), "{said}");

    let db = dir.path().join("newer.db");
    play(&db, &["--pattern", HIDDEN, "--seed", "1"], "quit\n");
    tamper(
        &db,
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, \
         execution_time) VALUES (9999, 'from the future', 1, x'00', 0)",
    );
    let (code, said) = refused_play(&db, &["--resume"]);
    assert_eq!(code, Some(2));
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.contains("was written by a newer Mondo") && said.contains("version 9999"),
        "{said}"
    );
}

/// The latest match cannot be rebuilt (its log was tampered with):
/// `--resume` goes on with the one before, and names the broken one.
#[test]
fn a_corrupt_latest_match_is_named_and_does_not_block_resuming_another() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.db");
    let first = play(
        &db,
        &["--pattern", HIDDEN, "--seed", "1"],
        "koan 1^\nquit\n",
    );
    let second = play(&db, &["--pattern", HIDDEN, "--seed", "2"], "quit\n");
    let (first, broken) = (&first[0]["match"], &second[0]["match"]);
    assert_ne!(first, broken);
    tamper(
        &db,
        &format!(
            "INSERT INTO events (match_id, seq, at, body) SELECT match_id, MAX(seq) + 1, 0, \
             '{{\"no such event\":1}}' FROM events WHERE match_id = {broken}"
        ),
    );
    let out = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .env("USER", play_support::LOGIN)
        .args(["play", "--json", "--resume", "--db"])
        .arg(&db)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8(out.stderr).unwrap();
    assert!(
        said.contains(&format!("match {broken} could not be rebuilt"))
            && said.contains(&format!("mondo replay {broken}")),
        "{said}"
    );
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["event"], "resumed");
    assert_eq!(&lines[0]["match"], first);
}

/// A practice game in text mode (not JSON) fed `input`: what it printed.
fn played_as_text(input: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .env("USER", play_support::LOGIN)
        .args(["play", "--pattern", HIDDEN, "--seed", "1", "--db"])
        .arg(dir.path().join("t.db"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// Control characters a player types (ESC clearing the screen here)
/// are shown escaped when Mondo repeats the line, never obeyed by the terminal.
#[test]
fn control_characters_are_never_written_raw_to_the_terminal() {
    let text = played_as_text(
        b"\x1b[2J\x07 hello\nkoan 1^ \x1b[31m\nguess \xc2\x9b\x1b]0;owned\x07\nquit\n",
    );
    assert!(
        !text.contains(|c: char| c.is_control() && c != '\n' && c != '\t'),
        "{text:?}"
    );
    assert!(
        text.contains("`\\u001b[31m`"),
        "the line is shown, escaped: {text}"
    );
}

/// What the log holds that the terminal never said (the process died between a
/// commit and its lines, or an I/O error at the commit hid it from the player) is said
/// when the game is resumed, before the table, as the bot says what it missed.
/// Here the mark of what was said is put back by hand to before the last koan, which
/// is where a kill at that moment would leave it. (Nothing used to be said of it: the
/// koan was on the table with a verdict nobody saw.)
#[test]
fn what_was_recorded_but_never_said_is_said_on_resuming() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("u.db");
    let out = play(
        &db,
        &["--pattern", HIDDEN, "--seed", "1"],
        "koan 3v\nkoan 1^ 2>\nquit\n",
    );
    assert_eq!(of(&out, "verdict").len(), 2);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (id, last) = rt.block_on(async {
        let store = mondo::store::Store::open(&db).await.unwrap();
        let id = out[0]["match"].as_i64().unwrap();
        let events = store.events(mondo::store::MatchId(id)).await.unwrap();
        store.close().await;
        (id, events.len())
    });
    // The koan is the last event: the mark goes back to just before it.
    tamper(
        &db,
        &format!(
            "UPDATE discord_announced SET seq = {} WHERE match_id = {id}",
            last - 1
        ),
    );
    let again = play(&db, &["--resume"], "quit\n");
    assert_eq!(again[0]["event"], "resumed");
    assert_eq!(again[1]["event"], "unsaid", "{again:?}");
    assert_eq!(again[1]["to"], last);
    let verdicts = of(&again, "verdict");
    assert_eq!(verdicts.len(), 1, "{again:?}");
    assert_eq!(verdicts[0]["koan"], "1^ 2>");
    // Said once: the next resume has nothing more to say.
    let third = play(&db, &["--resume"], "quit\n");
    assert!(of(&third, "unsaid").is_empty(), "{third:?}");
}

/// Bidirectional controls (U+202E, U+2066...) a player types are shown escaped, like
/// other control characters: echoed raw they would make the terminal show the line
/// in another order than it was typed.
#[test]
fn bidi_controls_are_shown_escaped() {
    let text =
        played_as_text("koan 1^ \u{202e}2>\nguess \u{2066}x\u{2069} \u{200f}\nquit\n".as_bytes());
    for c in ['\u{202e}', '\u{2066}', '\u{2069}', '\u{200f}'] {
        assert!(!text.contains(c), "{c:?} written raw: {text:?}");
    }
    assert!(text.contains("\\u202e"), "shown escaped: {text}");
}

/// SIGHUP (the terminal was closed) leaves the game as SIGTERM does: said, the match
/// checkpointed into the .db file (no -wal left), a clean exit.
#[test]
fn sighup_leaves_the_game_cleanly_like_sigterm() {
    signal_leaves_cleanly("-HUP");
}

/// A pool that never ends (`/dev/zero`) is refused at once, in one line, having read
/// no more than a pool may hold; a pool nobody writes (a FIFO) leaves Mondo waiting
/// on it, and SIGTERM ends that wait.
#[test]
fn an_endless_pool_is_refused_at_once_and_a_waiting_read_ends_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("z.db");
    // At once: it stops reading at the limit it names (how fast is no assertion here).
    let (code, said) = refused_play(&db, &["--pool", "/dev/zero"]);
    assert_eq!(code, Some(2), "{said}");
    assert_eq!(said.trim().lines().count(), 1, "{said}");
    assert!(
        said.contains("the pool /dev/zero is larger than") && said.contains("bytes"),
        "{said}"
    );
    let fifo = dir.path().join("pool.fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .env("USER", play_support::LOGIN)
        .args(["play", "--json", "--db"])
        .arg(dir.path().join("f.db"))
        .arg("--pool")
        .arg(&fifo)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Opening the FIFO to write returns once Mondo has opened it to read: it is then
    // waiting on the pool (its writer, held here, never writes nor closes).
    let (opened_tx, opened) = std::sync::mpsc::channel();
    let writer_path = fifo.clone();
    std::thread::spawn(move || {
        let _ = opened_tx.send(std::fs::OpenOptions::new().write(true).open(writer_path));
    });
    let deadline = std::time::Duration::from_secs(60);
    let Ok(writer) = opened.recv_timeout(deadline) else {
        let _ = child.kill();
        panic!("mondo never opened the pool");
    };
    let writer = writer.unwrap();
    assert!(child.try_wait().unwrap().is_none(), "waits for the pool");
    let pid = child.id();
    let (done_tx, done) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done_tx.send(child.wait());
    });
    Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    let Ok(status) = done.recv_timeout(deadline) else {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
        panic!("SIGTERM did not end the read");
    };
    // The read runs before Mondo catches signals: SIGTERM ends it as any program's.
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.unwrap().signal(), Some(15), "ended by SIGTERM");
    drop(writer);
}

/// Two processes on one database through a hard link: the second is refused, as on
/// the same path (the lock is the file's, not its name's); and a symlink planted
/// where the old lock file went (`DB.lock`) is neither followed nor truncated.
#[test]
fn a_hard_link_does_not_let_a_second_process_in_and_no_lock_file_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("m.db");
    let mut first = Mondo::start(&db, &["--pattern", HIDDEN, "--seed", "1"]);
    first.until("started");
    let hard = dir.path().join("hard.db");
    std::fs::hard_link(&db, &hard).unwrap();
    let (code, said) = refused_play(&hard, &["--resume"]);
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("is in use by another Mondo (mondo play, pid ")
            && said.contains(&first.child.id().to_string()),
        "{said}"
    );
    first.send("quit");
    first.until("left");
    assert!(first.wait());

    let victim = dir.path().join("v.txt");
    std::fs::write(&victim, "keep me").unwrap();
    let x = dir.path().join("x.db");
    std::os::unix::fs::symlink(&victim, dir.path().join("x.db.lock")).unwrap();
    let out = play(&x, &["--pattern", HIDDEN, "--seed", "1"], "quit\n");
    assert_eq!(out[0]["event"], "started");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
}

/// A newcomer's first minutes: `--png DIR` makes its folder; without it the game says
/// how to have pictures (in text, never in JSON); `help notation` explains the
/// notation, `help words` the words of place, and a structure typed as words is shown
/// the notation.
#[test]
fn a_newcomer_is_told_about_pictures_notation_and_words() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("n.db");
    let png = dir.path().join("new").join("pictures");
    let out = play(
        &db,
        &[
            "--pattern",
            HIDDEN,
            "--seed",
            "1",
            "--png",
            png.to_str().unwrap(),
        ],
        "koan 1^ 2^\nquit\n",
    );
    assert!(png.is_dir());
    let drawn = of(&out, "picture");
    assert!(drawn.len() >= 3, "{out:?}");
    assert!(std::fs::read_dir(&png).unwrap().count() >= 3);
    let json = play(&db, &["--pattern", HIDDEN, "--seed", "2"], "quit\n");
    assert!(!format!("{json:?}").contains("--png"), "{json:?}");

    let text = play_text(
        &db,
        &["--pattern", HIDDEN, "--seed", "3"],
        "help notation\nhelp words\nkoan big up\nhelp koan\nquit\n",
    );
    assert!(text.contains("pictures: start with `--png DIR`"), "{text}");
    // `help notation`: the three things a newcomer cannot guess.
    assert!(
        text.contains("`2^` is a medium piece pointing up"),
        "{text}"
    );
    assert!(text.contains("..     an empty cell"), "{text}");
    assert!(text.contains("` / `  the next row"), "{text}");
    // `help words`: what the words of place mean.
    for said in [
        "x is above y            x is in a higher row than y, in any column",
        "x is directly above y   the same column",
        "x points at y           y is on the line x points along, at any distance",
        "x touches y             they share an edge",
    ] {
        assert!(text.contains(said), "{said}: {text}");
    }
    assert!(
        text.contains("`big up` is words, not a structure") && text.contains("did you mean `3^`?"),
        "{text}"
    );
    assert!(!text.contains("is arrows notation"), "{text}");
    assert!(text.contains("there is no help on `koan`"), "{text}");
}

/// Every game's own `mondo play` options make one parser that clap accepts (a game
/// added with a duplicate option or argument group would stop `mondo` at start), and
/// two games without options of their own can both take the shared empty `NoArgs`.
#[test]
fn every_games_options_make_one_parser_clap_accepts() {
    use clap::CommandFactory;
    use mondo::play::args::NoArgs;

    #[derive(clap::Parser)]
    struct Every {
        #[command(flatten)]
        table: mondo::play::args::TableArgs,
        #[command(flatten)]
        games: mondo::play::games::GameArgs,
    }
    Every::command().debug_assert();

    #[derive(clap::Parser)]
    #[allow(dead_code)]
    struct TwoWithout {
        #[command(flatten)]
        one: NoArgs,
        #[command(flatten)]
        other: NoArgs,
    }
    TwoWithout::command().debug_assert();
}

/// Terminal practice is credited to the player `--player` names, else to the login name
/// (USER, then LOGNAME), never to whoever was the first local player; with no name
/// at all it is refused, saying how to give one, and nothing is played.
#[test]
fn practice_is_credited_to_the_player_named_or_the_login_name() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("solo.db");
    // alice is the database's first local player.
    Table::duel().play(&db, "quit\n");
    let solve = "koan 1^\nguess some piece points up\nconfirm\n";
    let practice = ["--pattern", HIDDEN, "--seed", "1"];
    // An empty variable names nobody, as an unset one.
    let solo = |env: &[(&str, &str)], extra: &[&str]| {
        let env: Vec<(&str, &std::ffi::OsStr)> = env
            .iter()
            .map(|(k, v)| (*k, std::ffi::OsStr::new(*v)))
            .collect();
        let args: Vec<&str> = practice.iter().chain(extra).copied().collect();
        play_support::output(&db, &args, &["--json"], &env, solve)
    };
    let solved = |out: &std::process::Output| {
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).contains("\"event\":\"won\"")
    };
    assert!(solved(&solo(&[("USER", "uma"), ("LOGNAME", "lena")], &[])));
    assert!(solved(&solo(&[("USER", ""), ("LOGNAME", "lena")], &[])));
    assert!(solved(&solo(&[("USER", "uma")], &["--player", "zoe"])));
    for who in ["uma", "lena", "zoe"] {
        let text = stats_text(&db, who);
        assert!(
            text.contains(&format!("{who}, zendo-practice (solo): 1 played, 1 solved")),
            "{text}"
        );
    }
    assert!(
        !stats_text(&db, "alice").contains("solo"),
        "never the first player's"
    );
    // Nobody named: refused, and nothing played.
    let out = solo(&[("USER", ""), ("LOGNAME", "")], &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("say who plays, for their record: --player NAME"),
        "{said}"
    );
    // --player is for a solo game: a table names its players.
    let e = refused(&db, &["duel", "--players", "alice,bob", "--player", "zoe"]);
    assert!(e.contains("--player") && e.contains("--players"), "{e}");
}

/// `mondo stats NAME --db DB` as a person reads it (or why not).
fn stats_text(db: &std::path::Path, who: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(["stats", who, "--db"])
        .arg(db)
        .output()
        .unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
