//! One process runs a database's live matches: `mondo play` and `mondo serve` hold an
//! advisory lock (`flock`) on the database file itself while they run, and a second one
//! is refused with a line naming the first (two runtimes on one match would each apply
//! moves the other never sees). The lock is the file's, not its name's: a second
//! process that reaches the same database through a hard link, a symlink or another
//! path meets the same lock. No file is created beside the database (a lock file there
//! could be a planted symlink). The operating system lets go of the lock when the
//! process ends, however it ends, so a killed process never leaves it behind.
//! Commands that only read (`mondo replay`) take no lock.
//!
//! SQLite's own locks are POSIX record locks, which `flock` does not touch. The lock's
//! descriptor stays open until the process has closed the store: closing any
//! descriptor of the file would drop this process's POSIX locks on it.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;

/// Held while this process runs the database's matches; dropping it lets go (and
/// removes the database file if this lock created it and nothing was ever written to
/// it: a start-up that failed leaves nothing behind).
#[derive(Debug)]
pub struct RunLock {
    file: File,
    created: Option<std::path::PathBuf>,
}

impl Drop for RunLock {
    fn drop(&mut self) {
        if let Some(path) = &self.created {
            let empty = self.file.metadata().is_ok_and(|m| m.len() == 0);
            if empty && same_file(&self.file, path) {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

/// Whether `path` still names the file open as `file`.
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Why the lock was not taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "{db} is in use by another Mondo ({other}), which runs its matches: stop it first, \
         or give this one another database"
    )]
    Held { db: String, other: String },
    #[error("cannot lock {path} (to run its matches): {error}")]
    Io { path: String, error: std::io::Error },
}

/// Takes the lock for running the matches of the database at `db` (created empty if
/// missing, as SQLite would; never truncated).
pub fn lock_for_running(db: &Path) -> Result<RunLock, LockError> {
    let io = |error| LockError::Io {
        path: db.display().to_string(),
        error,
    };
    loop {
        let existed = db.exists();
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(db)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(LockError::Held {
                    db: db.display().to_string(),
                    other: holder(&file).unwrap_or_else(|| "it did not say which".into()),
                });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        // Locked; but if the name was moved or removed meanwhile (an unused database
        // removed by the process that held it), the lock is on a file nobody opens:
        // again, on the file the name now gives.
        if same_file(&file, db) {
            let created = (!existed).then(|| db.to_path_buf());
            return Ok(RunLock { file, created });
        }
    }
}

/// Who holds the lock on `file`: "mondo play, pid 123" (Linux: from /proc/locks and
/// the holder's command line).
fn holder(file: &File) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let inode = file.metadata().ok()?.ino();
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    let pid = locks.lines().find_map(|line| {
        // "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234567 0 EOF"
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (kind, pid, place) = (fields.get(1)?, fields.get(4)?, fields.get(5)?);
        let ino = place.rsplit(':').next()?.parse::<u64>().ok()?;
        (*kind == "FLOCK" && ino == inode).then(|| pid.parse::<u32>().ok())?
    })?;
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let mut args = cmdline
        .split(|b| *b == 0)
        .map(|a| String::from_utf8_lossy(a).into_owned());
    let program = args.next().unwrap_or_default();
    let program = Path::new(&program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Some(match args.next() {
        Some(command) if !program.is_empty() => format!("{program} {command}, pid {pid}"),
        _ => format!("pid {pid}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two names of one database (a hard link): the second lock is refused whichever
    /// name it comes by, and naming the holder.
    #[test]
    fn a_hard_link_meets_the_same_lock() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("m.db");
        let held = lock_for_running(&db).expect("first");
        let hard = dir.path().join("hard.db");
        std::fs::hard_link(&db, &hard).unwrap();
        let e = lock_for_running(&hard).unwrap_err();
        assert!(matches!(e, LockError::Held { .. }), "{e}");
        assert!(
            e.to_string()
                .contains(&format!("pid {}", std::process::id())),
            "{e}"
        );
        let soft = dir.path().join("soft.db");
        std::os::unix::fs::symlink(&db, &soft).unwrap();
        assert!(matches!(
            lock_for_running(&soft),
            Err(LockError::Held { .. })
        ));
        drop(held);
        lock_for_running(&hard).expect("free once let go");
    }

    /// A database the lock created and nobody wrote is removed when it is let go (a
    /// start-up that failed leaves no empty file behind); one with content stays.
    #[test]
    fn an_unused_database_the_lock_created_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("new.db");
        drop(lock_for_running(&db).unwrap());
        assert!(!db.exists());
        let held = lock_for_running(&db).unwrap();
        std::fs::write(&db, "x").unwrap();
        drop(held);
        assert!(db.exists());
    }

    /// No lock file is made beside the database: one planted there (a symlink to
    /// another file) is neither followed nor changed.
    #[test]
    fn a_planted_lock_file_symlink_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("v.txt");
        std::fs::write(&victim, "precious").unwrap();
        let db = dir.path().join("x.db");
        std::os::unix::fs::symlink(&victim, dir.path().join("x.db.lock")).unwrap();
        let held = lock_for_running(&db).expect("locked");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(std::fs::metadata(&db).unwrap().len(), 0, "created empty");
        drop(held);
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(std::fs::symlink_metadata(dir.path().join("x.db.lock")).is_ok());
    }
}
