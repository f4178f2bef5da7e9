//! `mondo render` end to end: the binary writes a PNG that decodes, and refuses bad
//! input with exit status 2 and a message that says what to do.

use std::path::PathBuf;
use std::process::{Command, Output};

fn mondo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(args)
        .output()
        .expect("mondo runs")
}

fn temp_png(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("mondo-render-{}-{name}.png", std::process::id()))
}

fn decoded(path: &PathBuf) -> image::RgbImage {
    let bytes = std::fs::read(path).expect("the PNG was written");
    let _ = std::fs::remove_file(path);
    image::load_from_memory_with_format(&bytes, image::ImageFormat::Png)
        .expect("a PNG")
        .to_rgb8()
}

#[test]
fn one_structure_is_a_picture_and_several_a_board() {
    let single = temp_png("single");
    let out = mondo(&[
        "render",
        "3> .. .. 2^ .. 3v / .. 1< 1<",
        "-o",
        single.to_str().unwrap(),
        "--marks",
        "obeys",
        "--caption",
        "#7",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 structure"));
    let one = decoded(&single);

    let board = temp_png("board");
    let out = mondo(&[
        "render",
        "3> .. .. 2^ .. 3v / .. 1< 1<",
        "1^",
        ".U. / L.R",
        "-o",
        board.to_str().unwrap(),
        "--marks",
        "obeys,not,-",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("a board of 3 structures"));
    let three = decoded(&board);
    // The board holds three tiles side by side, each wider than a 6-cell row at the
    // board's smaller scale, so it is wider than the single picture.
    assert!(
        three.width() > one.width(),
        "{:?} vs {:?}",
        three.dimensions(),
        one.dimensions()
    );
}

#[test]
fn bad_input_exits_2_and_says_what_is_wrong() {
    let path = temp_png("bad");
    let p = path.to_str().unwrap();
    for (args, says) in [
        (
            vec!["render", "3> .. 4<", "-o", p],
            "row 1, cell 3: `4<` has size `4`",
        ),
        (
            vec!["render", "1^", "2v", "-o", p, "--marks", "obeys"],
            "--marks gives 1 mark for 2 structures",
        ),
        (
            vec!["render", "1^", "-o", p, "--marks", "perhaps"],
            "unknown mark `perhaps`",
        ),
        (
            vec!["render", "1^", "2v", "-o", p, "--caption", "x"],
            "--caption labels a single structure",
        ),
        (
            vec!["render", "1^", "2q", "-o", p],
            "structure 2: row 1, cell 1",
        ),
    ] {
        let out = mondo(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!path.exists(), "nothing is written for bad input");
    }
}
