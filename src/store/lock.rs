//! One process runs a database's live matches: `mondo play` and `mondo serve` hold an
//! advisory lock on `DB.lock` beside it while they run, and a second one is refused
//! with a line naming the first (two runtimes on one match would each apply moves the
//! other never sees). The operating system lets go of the lock when the process ends,
//! however it ends, so a killed process never leaves it behind. Commands that only
//! read (`mondo replay`) take no lock.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Held while this process runs the database's matches; dropping it lets go.
#[derive(Debug)]
pub struct RunLock {
    _file: File,
}

/// Why the lock was not taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "{db} is in use by another Mondo ({other}), which runs its matches: stop it first, \
         or give this one another database"
    )]
    Held { db: String, other: String },
    #[error("cannot lock {path} (to run the matches of the database beside it): {error}")]
    Io { path: String, error: std::io::Error },
}

/// The lock file of the database at `db`.
pub fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Takes the lock for running the matches of the database at `db`, as `who` (what is
/// said to a second process, with this one's pid).
pub fn lock_for_running(db: &Path, who: &str) -> Result<RunLock, LockError> {
    let path = lock_path(db);
    let io = |error| LockError::Io {
        path: path.display().to_string(),
        error,
    };
    // Not truncated on opening: its text is the holder's until the lock is ours.
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(io)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let mut other = String::new();
            let _ = file.read_to_string(&mut other);
            let other = other.trim();
            return Err(LockError::Held {
                db: db.display().to_string(),
                other: if other.is_empty() {
                    "it did not say which".into()
                } else {
                    other.into()
                },
            });
        }
        Err(TryLockError::Error(e)) => return Err(io(e)),
    }
    let said = format!("{who}, pid {}", std::process::id());
    file.set_len(0)
        .and_then(|()| file.rewind())
        .and_then(|()| file.write_all(said.as_bytes()))
        .and_then(|()| file.flush())
        .map_err(io)?;
    Ok(RunLock { _file: file })
}
