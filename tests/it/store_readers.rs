//! The readers (`mondo replay`, `mondo stats`, `mondo leaderboard`) read: they write
//! nothing, not even SQLite's `-wal` and `-shm` beside the database, and they read a
//! database whose file and folder they may not write (another user's).

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;

/// A database with a finished practice match in a folder of its own.
fn a_database() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("m.db");
    let events = crate::play_support::play(
        &db,
        &["--pattern", "some piece points up", "--seed", "1"],
        "koan 1^\nguess some piece points up\nconfirm\n",
    );
    assert!(
        !crate::play_support::of(&events, "won").is_empty(),
        "{events:?}"
    );
    (dir, db)
}

/// Every reader on `db`, run as `user` (uid, gid) or as this process: each must
/// say what it read (`stats` the solo record of the practice's player, the login name
/// it was played under).
fn read_all(db: &Path, user: Option<(u32, u32)>) {
    read_all_with(Path::new(env!("CARGO_BIN_EXE_mondo")), db, user)
}

/// [`read_all`] with the binary at `exe`.
fn read_all_with(exe: &Path, db: &Path, user: Option<(u32, u32)>) {
    let db = db.to_str().unwrap();
    for (args, ok, says) in [
        (
            vec!["replay", "1", "--db", db],
            true,
            "match 1 (zendo-practice)",
        ),
        (
            vec!["stats", crate::play_support::LOGIN, "--db", db],
            true,
            "zendo-practice (solo): 1 played, 1 solved",
        ),
        (
            vec!["leaderboard", "--db", db],
            true,
            "Nobody is listed yet",
        ),
    ] {
        let mut cmd = Command::new(exe);
        cmd.args(&args).current_dir("/");
        if let Some((uid, gid)) = user {
            cmd.uid(uid).gid(gid);
        }
        let out = cmd.output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.success(), ok, "{args:?} as {user:?}: {out:?}");
        assert!(text.contains(says), "{args:?}: {text}");
    }
}

/// The folder's files, with their owners, sizes and a hash of their contents.
fn files(dir: &Path) -> Vec<(String, u32, usize, u64)> {
    use std::hash::{Hash, Hasher};
    use std::os::unix::fs::MetadataExt;
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let meta = e.metadata().unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            let bytes = std::fs::read(e.path()).unwrap();
            let mut hash = std::collections::hash_map::DefaultHasher::new();
            bytes.hash(&mut hash);
            (name, meta.uid(), bytes.len(), hash.finish())
        })
        .collect();
    files.sort();
    files
}

fn chown(path: &Path, uid: u32, gid: u32) {
    std::os::unix::fs::chown(path, Some(uid), Some(gid)).unwrap();
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// On their own database, the readers leave the folder exactly as it was: no
/// `-wal`, no `-shm`, the database's bytes unchanged.
#[test]
fn readers_leave_nothing_behind() {
    let (dir, db) = a_database();
    let before = files(dir.path());
    assert_eq!(
        before.len(),
        1,
        "a closed store is its .db alone: {:?}",
        before.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    read_all(&db, None);
    assert_eq!(files(dir.path()), before);
}

/// A database and folder owned by another user: root reading them leaves no file
/// (one it made, owned by root, would lock their owner out); a user who may not
/// write the file or the folder reads them all the same. Run as another user this
/// needs root (tests run as root in CI); otherwise the folder and file are made
/// read-only, which is the same to SQLite.
#[test]
fn readers_read_another_users_database_and_write_nothing() {
    let (dir, db) = a_database();
    // Who made the folder is who runs the tests.
    let root = std::os::unix::fs::MetadataExt::uid(&dir.path().metadata().unwrap()) == 0;
    if root {
        const NOBODY: (u32, u32) = (65534, 65534);
        // Owned by nobody, read by root.
        chown(dir.path(), NOBODY.0, NOBODY.1);
        chown(&db, NOBODY.0, NOBODY.1);
        let before = files(dir.path());
        read_all(&db, None);
        assert_eq!(files(dir.path()), before, "root's reading left something");
        // Owned by root, read by nobody, who may write neither file nor folder.
        chown(dir.path(), 0, 0);
        chown(&db, 0, 0);
        chmod(dir.path(), 0o755);
        chmod(&db, 0o644);
        // The build's binary may sit in a folder only root may enter (a clone made
        // with `mktemp -d` is 0700): nobody runs a copy in a folder anyone may read.
        let bin = tempfile::tempdir().unwrap();
        chmod(bin.path(), 0o755);
        let exe = bin.path().join("mondo");
        std::fs::copy(env!("CARGO_BIN_EXE_mondo"), &exe).unwrap();
        chmod(&exe, 0o755);
        let before = files(dir.path());
        read_all_with(&exe, &db, Some(NOBODY));
        assert_eq!(files(dir.path()), before);
    } else {
        chmod(&db, 0o444);
        chmod(dir.path(), 0o555);
        let before = files(dir.path());
        read_all(&db, None);
        assert_eq!(files(dir.path()), before);
        chmod(dir.path(), 0o755);
    }
}
