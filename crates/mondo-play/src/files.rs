//! Reading the files Mondo is given (pattern pools, its configuration, a structure on
//! standard input): each kind has a size limit, a file over it is refused in one line
//! saying so, and never more than the limit is read, so `/dev/zero` or an endless pipe
//! costs no memory and no time. The read runs before Mondo catches any signal, so
//! Ctrl-C or SIGTERM end a read that waits (a FIFO nobody writes to) as they would any
//! program.

use std::io::Read;
use std::path::Path;

/// The largest pattern pool read, from a file or from Discord (about 40 times the
/// shipped pools).
pub const MAX_POOL_BYTES: u64 = 256 * 1024;

/// Reads the text of `path` (a `what`: "pool", "config file"), at most `limit` bytes.
pub fn read_text(path: &Path, limit: u64, what: &str) -> Result<String, String> {
    let shown = path.display();
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot read the {what} {shown}: {e}"))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(format!("the {what} {shown} is a folder, not a file"));
    }
    read_bounded(file, limit).map_err(|e| match e {
        Bounded::TooLarge(_) => format!(
            "the {what} {shown} is larger than {limit} bytes, the most Mondo reads for one; \
             is it the right file?"
        ),
        Bounded::NotText(at) => format!(
            "the {what} {shown} is not UTF-8 text (byte {at} is not): a {what} is a text file"
        ),
        Bounded::Io(e) => format!("cannot read the {what} {shown}: {e}"),
    })
}

/// Why a bounded read failed.
#[derive(Debug, thiserror::Error)]
pub enum Bounded {
    #[error("it is larger than {0} bytes, the most read")]
    TooLarge(u64),
    /// Not UTF-8 at this byte (from 1).
    #[error("it is not UTF-8 text (byte {0} is not)")]
    NotText(usize),
    #[error("{0}")]
    Io(std::io::Error),
}

/// Reads at most `limit` bytes of text from `input` (one more byte says it is larger).
pub fn read_bounded(input: impl Read, limit: u64) -> Result<String, Bounded> {
    let mut bytes = Vec::new();
    input
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Bounded::Io)?;
    if bytes.len() as u64 > limit {
        return Err(Bounded::TooLarge(limit));
    }
    String::from_utf8(bytes).map_err(|e| Bounded::NotText(e.utf8_error().valid_up_to() + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_file_is_refused_after_the_limit_and_text_is_read_whole() {
        let e = read_text(Path::new("/dev/zero"), 1024, "pool").unwrap_err();
        assert!(e.contains("larger than 1024 bytes"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.toml");
        std::fs::write(&path, "a = 1\n").unwrap();
        assert_eq!(read_text(&path, 6, "pool").unwrap(), "a = 1\n");
        assert!(read_text(&path, 5, "pool").is_err());
        std::fs::write(&path, b"ok\xff").unwrap();
        let e = read_text(&path, 100, "pool").unwrap_err();
        assert!(e.contains("not UTF-8 text (byte 3"), "{e}");
        let e = read_text(dir.path(), 100, "pool").unwrap_err();
        assert!(e.contains("is a folder"), "{e}");
        let e = read_text(&dir.path().join("none"), 100, "pool").unwrap_err();
        assert!(e.contains("cannot read the pool"), "{e}");
    }
}
