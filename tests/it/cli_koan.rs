//! `mondo koan ...` run as a player or host would: output and exit status.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn mondo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(args)
        .output()
        .expect("the mondo binary runs")
}

fn mondo_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the mondo binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Exit status, standard output, standard error.
fn result(out: Output) -> (i32, String, String) {
    (
        out.status.code().expect("exited normally"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn ok(stdout: &str) -> (i32, String, String) {
    (0, stdout.to_string(), String::new())
}

fn refused(stderr: &str) -> (i32, String, String) {
    (2, String::new(), stderr.to_string())
}

#[test]
fn normalize_prints_the_canonical_form() {
    let seed = "```\n\n3> .. .. 2^ .. 3v\n\n.. 1< 1<\n\n```";
    assert_eq!(
        result(mondo(&["koan", "normalize", seed])),
        ok("3> .. .. 2^ .. 3v\n.. 1< 1< .. .. ..\n")
    );
    assert_eq!(
        result(mondo(&["koan", "normalize", "--line", seed])),
        ok("3> .. .. 2^ .. 3v / .. 1< 1< .. .. ..\n")
    );
    assert_eq!(
        result(mondo(&["koan", "normalize", ".. .. / .. 3u 1l"])),
        ok("3^ 1<\n")
    );
    assert_eq!(
        result(mondo(&["koan", "normalize", ".U. / L.R / .D."])),
        ok(". U .\nL . R\n. D .\n")
    );
}

#[test]
fn normalize_reads_standard_input() {
    assert_eq!(
        result(mondo_with_stdin(
            &["koan", "normalize", "--line", "-"],
            "```text\n.. 2v\n\n1>\n```\n"
        )),
        ok(".. 2v / 1> ..\n")
    );
}

#[test]
fn normalize_honours_the_piece_set() {
    assert_eq!(
        result(mondo(&["koan", "normalize", "--set", "arrows", "..U / R"])),
        ok(". . U\nR . .\n")
    );
    assert_eq!(
        result(mondo(&[
            "koan",
            "normalize",
            "--set",
            "pyramids",
            "..U / R"
        ])),
        refused(
            "error: `U` (row 1, cell 3) is arrows notation, but this game plays with \
             pyramids; write each cell as a size 1, 2 or 3 then a direction, such as `3^` \
             or `1U`, and .. for an empty cell\n"
        )
    );
    assert_eq!(
        result(mondo(&["koan", "normalize", "--set", "arrows", "3> 1<"])),
        refused(
            "error: `3>` (row 1, cell 1) is pyramids notation, but this game plays with \
             arrows; write one character per cell, U R D L (or ^ > v <), and . for an empty \
             cell\n"
        )
    );
}

#[test]
fn normalize_explains_bad_structures_with_status_2() {
    assert_eq!(
        result(mondo(&["koan", "normalize", "3> .. 4<"])),
        refused("error: row 1, cell 3: `4<` has size `4`; sizes are 1, 2 or 3\n")
    );
    assert_eq!(
        result(mondo(&[
            "koan",
            "normalize",
            "1^ .. .. .. .. .. 1^ / .. / 2>"
        ])),
        refused("error: bounding box 7 x 3 is too large (at most 6 x 6)\n")
    );
    assert_eq!(
        result(mondo(&["koan", "normalize", ".. / .."])),
        refused("error: a structure needs at least one piece\n")
    );
}

#[test]
fn count_prints_exact_counts() {
    for (args, expected) in [
        (vec!["--pieces", "1"], "12\n"),
        (vec!["--pieces", "3"], "2280960\n"),
        (vec!["--pieces", "3", "--set", "arrows"], "84480\n"),
        (
            vec!["--pieces", "36"],
            "708801874985091845381344307009569161216\n",
        ),
    ] {
        let mut all = vec!["koan", "count"];
        all.extend(args);
        assert_eq!(result(mondo(&all)), ok(expected), "{all:?}");
    }
}

#[test]
fn count_refuses_impossible_piece_counts() {
    for k in ["0", "37"] {
        let (status, stdout, stderr) = result(mondo(&["koan", "count", "--pieces", k]));
        assert_eq!((status, stdout.as_str()), (2, ""));
        assert!(
            stderr.starts_with(&format!(
                "error: invalid value '{k}' for '--pieces <K>': a structure has 1 to 36 \
                 pieces (its bounding box is at most 6 x 6), not {k}\n"
            )),
            "{stderr}"
        );
    }
    let (status, _, stderr) = result(mondo(&["koan", "count", "--pieces", "three"]));
    assert_eq!(status, 2);
    assert!(stderr.contains("`three` is not a number; a structure has 1 to 36 pieces"));
}

#[test]
fn list_prints_structures_in_order() {
    assert_eq!(
        result(mondo(&["koan", "list", "--pieces", "1", "--set", "arrows"])),
        ok("U\nR\nD\nL\n")
    );
    assert_eq!(
        result(mondo(&["koan", "list", "--pieces", "2", "--limit", "3"])),
        ok("1^ 1^\n1^ 1>\n1^ 1v\n")
    );
    let (status, stdout, _) = result(mondo(&["koan", "list", "--pieces", "2", "--set", "arrows"]));
    assert_eq!(status, 0);
    assert_eq!(stdout.lines().count(), 960);
    let empty = ". . . . . .";
    assert_eq!(
        stdout.lines().last(),
        Some(format!(". . . . . L / {empty} / {empty} / {empty} / {empty} / L . . . . .").as_str())
    );
}
