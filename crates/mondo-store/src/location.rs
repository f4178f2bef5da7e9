//! Where the store is: a SQLite file (the default: embedded, one process) or a
//! PostgreSQL database (a server several Mondo processes share). Every command's
//! `--db` and the config's `database.url` take either: a file's path or a
//! `sqlite://` URL, or a `postgres://` URL.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// A database to open. Its `Debug` is its `Display`: a URL's password is never
/// printed, not even in a log of the config.
#[derive(Clone, PartialEq, Eq)]
pub enum Location {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL URL (`postgres://user:password@host:port/database?...`).
    Postgres(String),
}

impl Location {
    /// The SQLite file, if it is one.
    pub fn sqlite_path(&self) -> Option<&Path> {
        match self {
            Location::Sqlite(p) => Some(p),
            Location::Postgres(_) => None,
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, Location::Postgres(_))
    }

    /// Whether there is a database to read: a SQLite file that exists; a PostgreSQL
    /// database is asked when connecting (it says itself if it is missing).
    pub fn exists(&self) -> bool {
        match self {
            Location::Sqlite(path) => path.exists(),
            Location::Postgres(_) => true,
        }
    }

    /// A SQLite file this process cannot write (or create) said before anything runs
    /// ([`super::path::check_writable`]); PostgreSQL says its own at connecting.
    pub fn check_writable(&self) -> Result<(), super::types::StoreError> {
        match self {
            Location::Sqlite(path) => super::path::check_writable(path),
            Location::Postgres(_) => Ok(()),
        }
    }

    /// Takes the lock for running the database's matches ([`super::lock::lock_for_running`])
    /// on a SQLite file, where one process runs them all. On PostgreSQL none is taken:
    /// several processes share the database there, and each match's lease says which
    /// one runs it.
    pub fn lock_for_running(&self) -> Result<Option<super::lock::RunLock>, super::lock::LockError> {
        match self {
            Location::Sqlite(path) => super::lock::lock_for_running(path).map(Some),
            Location::Postgres(_) => Ok(None),
        }
    }

    /// The URL sqlx's `Any` driver opens: a SQLite file's path made absolute and
    /// escaped (`%`, `?`, `#`, spaces and what is not ASCII), with its open `mode`
    /// (`rwc`: read, write, create; `ro`: read only, see [`read_only_query`]). A path
    /// that makes no URL is [`StoreError::Unreadable`](super::types::StoreError), said
    /// with the location.
    pub(crate) fn driver_url(&self, read_only: bool) -> Result<String, super::types::StoreError> {
        self.url_text(read_only)
            .map_err(|reason| super::types::StoreError::Unreadable {
                path: self.to_string(),
                reason,
            })
    }

    fn url_text(&self, read_only: bool) -> Result<String, String> {
        match self {
            Location::Postgres(url) => Ok(url.clone()),
            Location::Sqlite(path) => {
                let absolute = std::path::absolute(path).map_err(|e| e.to_string())?;
                let text = absolute.to_str().ok_or_else(|| {
                    format!(
                        "{} is not valid UTF-8: give the database a path in UTF-8",
                        path.display()
                    )
                })?;
                const ESCAPED: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
                    .add(b' ')
                    .add(b'%')
                    .add(b'?')
                    .add(b'#');
                let escaped = percent_encoding::utf8_percent_encode(text, ESCAPED);
                let mode = if read_only {
                    read_only_query(path)
                } else {
                    "mode=rwc"
                };
                Ok(format!("sqlite:{escaped}?{mode}"))
            }
        }
    }
}

/// How a reader opens a SQLite file so that it writes nothing, not even SQLite's
/// `-wal` and `-shm` files beside it (which, made by another user, would lock the
/// database's owner out): read only, and `immutable` (no locks, no `-shm`) unless
/// both files are already there. A store that is open for writing always has them
/// (its writer keeps them while it runs, and leaves them if it crashes, with the
/// latest commits in the `-wal`): then the reader shares them and reads those
/// commits. Without them the `.db` file holds everything, and a file and folder the
/// reader may not write, which SQLite could not otherwise open, are read too.
pub(crate) fn read_only_query(path: &Path) -> &'static str {
    let beside = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name).exists()
    };
    if beside("-wal") && beside("-shm") {
        "mode=ro"
    } else {
        "mode=ro&immutable=1"
    }
}

impl From<PathBuf> for Location {
    fn from(path: PathBuf) -> Location {
        Location::Sqlite(path)
    }
}

impl From<&Path> for Location {
    fn from(path: &Path) -> Location {
        Location::Sqlite(path.to_path_buf())
    }
}

impl FromStr for Location {
    type Err = String;

    /// `postgres://...` or `postgresql://...`: PostgreSQL; `sqlite://FILE` or
    /// `sqlite:FILE`: that SQLite file; anything else without a scheme: a SQLite file's
    /// path.
    fn from_str(s: &str) -> Result<Location, String> {
        let t = s.trim();
        if t.is_empty() {
            return Err(
                "no database given: write a SQLite file's path (mondo.db) or a URL \
                 (sqlite://mondo.db, postgres://user@host:5432/mondo)"
                    .into(),
            );
        }
        let lower = t.to_ascii_lowercase();
        if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
            return Ok(Location::Postgres(t.to_string()));
        }
        if let Some(rest) = t
            .strip_prefix("sqlite://")
            .or_else(|| t.strip_prefix("sqlite:"))
        {
            if rest.is_empty() || rest.contains('?') {
                return Err(format!(
                    "`{t}`: give the SQLite file after `sqlite://`, without options, e.g. \
                     sqlite://mondo.db"
                ));
            }
            return Ok(Location::Sqlite(PathBuf::from(rest)));
        }
        if let Some((scheme, _)) = t.split_once("://") {
            return Err(format!(
                "`{scheme}://` is not a database Mondo opens: write a SQLite file's path \
                 (mondo.db), sqlite://FILE or postgres://user@host:5432/database"
            ));
        }
        Ok(Location::Sqlite(PathBuf::from(t)))
    }
}

impl fmt::Display for Location {
    /// A SQLite file as its path; a PostgreSQL URL with its password hidden (it goes
    /// into logs and messages).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Sqlite(p) => write!(f, "{}", p.display()),
            Location::Postgres(url) => f.write_str(&hide_password(url)),
        }
    }
}

impl fmt::Debug for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Sqlite(p) => f.debug_tuple("Sqlite").field(p).finish(),
            Location::Postgres(_) => f.debug_tuple("Postgres").field(&self.to_string()).finish(),
        }
    }
}

/// `postgres://user:secret@host/db` as `postgres://user:***@host/db`, and a password
/// carried in the query (`?password=secret`, `sslpassword=...`) as `password=***`.
fn hide_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let authority = match authority.rsplit_once('@') {
        Some((user_info, host)) => match user_info.split_once(':') {
            Some((user, _)) => format!("{user}:***@{host}"),
            None => authority.to_string(),
        },
        None => authority.to_string(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let pairs: Vec<String> = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((key, _))
                        if key.eq_ignore_ascii_case("password")
                            || key.eq_ignore_ascii_case("sslpassword") =>
                    {
                        format!("{key}=***")
                    }
                    _ => pair.to_string(),
                })
                .collect();
            format!("{path}?{}", pairs.join("&"))
        }
        None => tail.to_string(),
    };
    format!("{scheme}://{authority}{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_urls_are_told_apart() {
        assert_eq!(
            "mondo.db".parse::<Location>(),
            Ok(Location::Sqlite("mondo.db".into()))
        );
        assert_eq!(
            "sqlite://data/m.db".parse::<Location>(),
            Ok(Location::Sqlite("data/m.db".into()))
        );
        assert_eq!(
            "sqlite:/abs/m.db".parse::<Location>(),
            Ok(Location::Sqlite("/abs/m.db".into()))
        );
        let pg = "postgres://mondo:pw@127.0.0.1:5432/mondo";
        assert_eq!(pg.parse::<Location>(), Ok(Location::Postgres(pg.into())));
        assert!(
            "postgresql://h/db"
                .parse::<Location>()
                .is_ok_and(|l| l.is_postgres())
        );
        let e = "mysql://h/db".parse::<Location>().unwrap_err();
        assert!(e.contains("`mysql://` is not a database"), "{e}");
        assert!("".parse::<Location>().is_err());
        assert!("sqlite://".parse::<Location>().is_err());
    }

    #[test]
    fn passwords_in_the_query_are_not_shown() {
        let shown = |url: &str| hide_password(url);
        assert_eq!(
            shown("postgres://mondo@db:5432/m?password=s3cret&sslmode=require"),
            "postgres://mondo@db:5432/m?password=***&sslmode=require"
        );
        assert_eq!(
            shown("postgres://u:a@db/m?sslmode=require&PASSWORD=x&sslpassword=y"),
            "postgres://u:***@db/m?sslmode=require&PASSWORD=***&sslpassword=***"
        );
        assert_eq!(
            shown("postgres://db?password=x"),
            "postgres://db?password=***"
        );
        assert_eq!(
            shown("postgres://db/m?application_name=a"),
            "postgres://db/m?application_name=a"
        );
    }

    #[test]
    fn passwords_are_not_shown() {
        let l: Location = "postgres://mondo:s3cret@db:5432/mondo".parse().unwrap();
        assert_eq!(l.to_string(), "postgres://mondo:***@db:5432/mondo");
        assert!(!format!("{l:?}").contains("s3cret"));
        let l: Location = "postgres://mondo@db/mondo".parse().unwrap();
        assert_eq!(l.to_string(), "postgres://mondo@db/mondo");
    }

    #[test]
    fn a_sqlite_path_is_escaped_into_its_url() {
        let l = Location::Sqlite("/tmp/a b?c#d%e.db".into());
        assert_eq!(
            l.driver_url(false).unwrap(),
            "sqlite:/tmp/a%20b%3Fc%23d%25e.db?mode=rwc"
        );
        assert!(
            l.driver_url(true)
                .unwrap()
                .ends_with("?mode=ro&immutable=1")
        );
    }

    /// A reader shares the `-wal` and `-shm` a writer keeps (reading its latest
    /// commits), and is immutable (no lock, no file made) without them.
    #[test]
    fn a_reader_is_immutable_unless_a_writer_left_its_files() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("m.db");
        std::fs::write(&db, b"").unwrap();
        assert_eq!(read_only_query(&db), "mode=ro&immutable=1");
        std::fs::write(dir.path().join("m.db-wal"), b"").unwrap();
        assert_eq!(read_only_query(&db), "mode=ro&immutable=1", "-wal alone");
        std::fs::write(dir.path().join("m.db-shm"), b"").unwrap();
        assert_eq!(read_only_query(&db), "mode=ro");
    }
}
