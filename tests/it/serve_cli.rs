//! `mondo serve` before it reaches Discord: its configuration (defaults, a file, then
//! MONDO_* variables, as a server admin sets them) and the one-line errors for a bad
//! configuration or a missing or malformed token. Run as a child process, so setting
//! environment variables never races another test.

use std::process::{Command, Output};

fn serve(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mondo"));
    cmd.arg("serve").args(args);
    // Nothing from the developer's own environment leaks in.
    for (k, _) in std::env::vars() {
        if k.starts_with("MONDO_") || k == "DISCORD_TOKEN" {
            cmd.env_remove(k);
        }
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out: Output = cmd.output().expect("the mondo binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_environment_overlays_a_file_which_overlays_the_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mondo.toml");
    std::fs::write(&file, "[zendo]\nturn_secs = 60\nstyle = \"varied\"\n").unwrap();
    let (code, out, err) = serve(
        &["--config", file.to_str().unwrap(), "--show-config"],
        &[
            ("MONDO_ZENDO_TURN_SECS", "240"),
            ("MONDO_DISCORD_GUILD", "1234"),
            ("MONDO_DATABASE_PATH", "/tmp/elsewhere.db"),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("turn_secs = 240"), "the variable wins: {out}");
    assert!(
        out.contains("style = \"varied\""),
        "the file wins over defaults: {out}"
    );
    assert!(
        out.contains("challenge_secs = 30"),
        "the rest is default: {out}"
    );
    assert!(out.contains("guild = 1234"), "{out}");
    assert!(out.contains("path = \"/tmp/elsewhere.db\""), "{out}");
}

#[test]
fn a_bad_setting_is_one_line_naming_the_variable_and_what_is_allowed() {
    let (code, out, err) = serve(&["--show-config"], &[("MONDO_ZENDO_TURN_SECS", "soon")]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("turn_secs") && err.contains("MONDO_ZENDO_TURN_SECS"),
        "{err}"
    );
    let (code, _, err) = serve(&["--show-config"], &[("MONDO_ZENDO_CHALLENGE_SECS", "1")]);
    assert_eq!(code, 2);
    assert!(
        err.contains("zendo.challenge_secs") && err.contains("5 to 600"),
        "{err}"
    );
    let (code, _, err) = serve(&["--show-config"], &[("MONDO_ZENDO_COLOUR", "red")]);
    assert_eq!(code, 2, "unknown keys are refused");
    assert!(err.contains("colour"), "{err}");
    let (code, _, err) = serve(&["--config", "/no/such/file.toml"], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("/no/such/file.toml"), "{err}");
    let (code, _, err) = serve(&[], &[("RUST_LOG", "mondo=loudest")]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("RUST_LOG is `mondo=loudest`"), "{err}");
}

#[test]
fn a_missing_or_malformed_token_is_one_line_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("m.db");
    let db = db.to_str().unwrap();
    let (code, _, err) = serve(&[], &[("MONDO_DATABASE_PATH", db)]);
    assert_eq!(code, 1);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("DISCORD_TOKEN is not set"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let (code, _, err) = serve(
        &[],
        &[
            ("MONDO_DATABASE_PATH", db),
            ("DISCORD_TOKEN", "not a token"),
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("DISCORD_TOKEN is not a Discord bot token"),
        "{err}"
    );
    assert!(
        !std::path::Path::new(db).exists(),
        "nothing is created before the token is checked"
    );

    // A well-formed token, but nobody answers: one line, no retrying forever.
    let token = "MTAxMDEwMTAxMDEwMTAxMDEw.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB";
    let (code, _, err) = serve(
        &[],
        &[
            ("MONDO_DATABASE_PATH", db),
            ("DISCORD_TOKEN", token),
            ("MONDO_DISCORD_API_PROXY", "http://127.0.0.1:9"),
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("could not reach Discord"), "{err}");
    assert!(!std::path::Path::new(db).exists());
}

/// A variable that names no setting is refused by its full name, and
/// `--show-config` checks `database.path` as `serve` would use it.
#[test]
fn unknown_variables_and_unusable_database_paths_are_named() {
    let (code, _, err) = serve(&["--show-config"], &[("MONDO_FOO_BAR", "1")]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("the variable MONDO_FOO_BAR names no setting (`foo.bar`)")
            && err.contains("MONDO_ZENDO_TURN_SECS"),
        "{err}"
    );
    // `mondo play`'s own variable is no setting, and not refused either.
    let (code, _, err) = serve(&["--show-config"], &[("MONDO_NO_IMAGES", "1")]);
    assert_eq!(code, 0, "{err}");
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    let (code, _, err) = serve(&["--show-config"], &[("MONDO_DATABASE_PATH", folder)]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("database.path") && err.contains("is a folder, not a database file"),
        "{err}"
    );
    let missing = dir.path().join("no/such/folder/m.db");
    let (code, _, err) = serve(
        &["--show-config"],
        &[("MONDO_DATABASE_PATH", missing.to_str().unwrap())],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("does not exist"), "{err}");
}

/// Every setting is range-checked at start-up: a Pattern Assembly duration the
/// terminal refuses was accepted from the environment (and `v * 1000` wrapped);
/// lower-case variable names are not read, a mixed-case `MONDO_` one is refused; a
/// default pool no server has is refused.
#[test]
fn every_setting_is_checked_and_only_upper_case_variables_are_read() {
    let (code, _, err) = serve(
        &["--show-config"],
        &[("MONDO_ASSEMBLY_REVEAL_SECS", "18446744073709551615")],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("assembly.reveal_secs") && err.contains("1 to 600 seconds"),
        "{err}"
    );
    for key in ["WAIT_SECS", "ROUND_SECS", "SHOWDOWN_SECS", "ROUNDS"] {
        let (code, _, err) = serve(
            &["--show-config"],
            &[(&format!("MONDO_ASSEMBLY_{key}"), "99999")],
        );
        assert_eq!(code, 2, "{key}: {err}");
        assert!(err.contains(&key.to_ascii_lowercase()), "{err}");
    }
    let (code, out, err) = serve(&["--show-config"], &[("mondo_zendo_turn_secs", "240")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("turn_secs = 180"),
        "lower case is not read: {out}"
    );
    let (code, _, err) = serve(&["--show-config"], &[("MONDO_zendo_turn_secs", "240")]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("upper case only: MONDO_ZENDO_TURN_SECS"),
        "{err}"
    );
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("m.db");
    let (code, _, err) = serve(
        &["--show-config"],
        &[
            ("MONDO_ZENDO_POOL", "nonexistent"),
            ("MONDO_DATABASE_PATH", db.to_str().unwrap()),
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("zendo.pool") && err.contains("no server has a pool by that name"),
        "{err}"
    );
}

/// `--show-config` never prints a database password, in the URL's user part or in its
/// query (`?password=...`).
#[test]
fn show_config_hides_every_database_password() {
    for url in [
        "postgres://mondo:s3cret@127.0.0.1:5432/mondo",
        "postgres://mondo@127.0.0.1:5432/mondo?sslmode=disable&password=s3cret",
    ] {
        let (code, out, err) = serve(&["--show-config"], &[("MONDO_DATABASE_URL", url)]);
        assert_eq!(code, 0, "{err}");
        assert!(
            !out.contains("s3cret") && !err.contains("s3cret"),
            "{out}{err}"
        );
        assert!(
            out.contains("***@127.0.0.1") || out.contains("password=***"),
            "{out}"
        );
    }
}
