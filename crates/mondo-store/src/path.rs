//! What is wrong with a database path, said before SQLite is asked (its own words for
//! these are `code: 14` or a read-only error at the first move): a folder, a missing
//! folder, a file this process may not write.

use super::types::StoreError;
use std::fs::OpenOptions;
use std::io::ErrorKind;
use std::path::Path;

/// Checks that `path` is a database file this process can write, or a new one it can
/// create. (Opening for writing creates and changes nothing.)
pub fn check_writable(path: &Path) -> Result<(), StoreError> {
    let shown = || path.display().to_string();
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(StoreError::Folder(shown())),
        Ok(_) => match OpenOptions::new().write(true).open(path) {
            Ok(_) => Ok(()),
            Err(e) => Err(StoreError::ReadOnly {
                path: shown(),
                reason: e.to_string(),
            }),
        },
        Err(e) if e.kind() == ErrorKind::NotFound => match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() && !parent.is_dir() => {
                Err(StoreError::NoFolder {
                    path: shown(),
                    folder: parent.display().to_string(),
                })
            }
            _ => Ok(()),
        },
        Err(e) => Err(StoreError::Unreadable {
            path: shown(),
            reason: e.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_and_missing_folders_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let e = check_writable(dir.path()).unwrap_err();
        assert!(e.to_string().contains("is a folder"), "{e}");
        let e = check_writable(&dir.path().join("no/such/m.db")).unwrap_err();
        assert!(e.to_string().contains("does not exist"), "{e}");
        assert!(check_writable(&dir.path().join("new.db")).is_ok());
        assert!(check_writable(Path::new("relative-new.db")).is_ok());
    }
}
