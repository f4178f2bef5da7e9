//! What the store reads and writes, as plain types: a match's number and status, the
//! store's errors, new and stored events, a match's record and the filters of a
//! search. The store's files all take them from here (none from the store's own file),
//! so its children never import the module that imports them.

use serde::de::DeserializeOwned;
use sqlx::Row;
use sqlx::any::AnyRow;
use std::fmt;
use std::str::FromStr;

/// Game-clock milliseconds (see `runtime::clock`).
pub type Millis = u64;

/// A match's number in the store.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct MatchId(pub i64);

impl fmt::Display for MatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for MatchId {
    type Err = String;
    fn from_str(s: &str) -> Result<MatchId, String> {
        let t = s.trim().trim_start_matches('#');
        t.parse::<i64>()
            .ok()
            .filter(|n| *n > 0)
            .map(MatchId)
            .ok_or_else(|| format!("`{s}` is not a match number: write a number such as 12"))
    }
}

/// Whether a match still runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Live,
    Over,
}

impl Status {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Live => "live",
            Status::Over => "over",
        }
    }
}

/// What goes wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("the database failed: {0}")]
    Db(sqlx::Error),
    /// SQLite's SQLITE_FULL: the disk (or the database's page limit) is full. The
    /// transaction was rolled back; the same write works once there is space.
    #[error("the disk is full; nothing was recorded, try again")]
    Full,
    /// SQLITE_BUSY: another program held the database's write lock for longer than
    /// the busy timeout. Nothing was written.
    #[error(
        "the database is busy (another program is writing to it); nothing was recorded, \
         try again"
    )]
    Busy,
    /// The database server cannot be reached (down, restarting, its connection cut):
    /// nothing of this request was committed (a commit cut short is
    /// [`StoreError::MaybeRecorded`] instead). Said to the player as is; `reason` is
    /// for the log.
    #[error("the umpire's store is unreachable, your move is not recorded yet")]
    Unreachable { reason: String },
    /// The PostgreSQL server could not be reached on opening the store: where and why
    /// (never the password).
    #[error(
        "cannot reach PostgreSQL at {host}:{port} within {secs} s: {reason}; is the server \
         running, and is database.url right?"
    )]
    NoServer {
        host: String,
        port: u16,
        secs: u64,
        reason: String,
    },
    /// An I/O error at a commit, after which the database was reopened and its log
    /// read: the events are not in it.
    #[error("the database failed ({reason}) and was reopened; nothing was recorded, try again")]
    NotRecorded { reason: String },
    /// An I/O error at a commit, and the log could not be read afterwards: the events
    /// may or may not be in it. Whatever is there is said once it can be read.
    #[error(
        "the database failed ({reason}); this may not have been recorded: what the log \
         holds is said as soon as it can be read"
    )]
    MaybeRecorded { reason: String },
    /// A fault made on purpose ([`Fault`]).
    #[error("{0}")]
    Injected(&'static str),
    /// The database could not be reopened after an I/O error.
    #[error("the database cannot be used ({0}); it is tried again at the next move")]
    Unavailable(String),
    /// Opening needs room for the database's files, and the disk has none.
    #[error(
        "the disk holding {path} is full: Mondo needs room to record the matches; free \
         some space and start again"
    )]
    DiskFull { path: String },
    #[error("the database could not be brought up to date: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// Its schema has a migration this Mondo does not know.
    #[error(
        "{path} was written by a newer Mondo (its schema is at version {found}; this Mondo \
         knows up to {known}): run that Mondo or a newer one"
    )]
    Newer {
        path: String,
        found: i64,
        known: i64,
    },
    #[error("{0} is a folder, not a database file: give a file in it, e.g. {0}/mondo.db")]
    Folder(String),
    #[error("{path}: the folder {folder} does not exist; create it first (mkdir -p {folder})")]
    NoFolder { path: String, folder: String },
    /// A file this process may not write: every move would fail to be recorded.
    #[error(
        "{path} cannot be written ({reason}): Mondo records every move in it as it is \
         played; make it writable, or only read it with `mondo replay`"
    )]
    ReadOnly { path: String, reason: String },
    #[error("cannot read {path}: {reason}")]
    Unreadable { path: String, reason: String },
    #[error("there is no match {0}")]
    NoSuchMatch(MatchId),
    /// A person's name that is an AI seat's ([`mondo_rules::rules::fair::refuse_reserved`]
    /// says why): nothing was written.
    #[error("{0}")]
    ReservedName(String),
    #[error("{0} is not a Mondo database (it has no matches table)")]
    NotMondo(String),
    /// A database with another program's tables or mark: left as it was.
    #[error(
        "{path} is not a Mondo database ({why}); it was left as it was: name a new file \
         (Mondo makes it) or an empty one"
    )]
    NotOurs { path: String, why: String },
    /// Someone else appended to this match (two processes on one database?).
    #[error("match {id} moved on to event {found} while event {expected} was being added")]
    Conflict {
        id: MatchId,
        expected: u64,
        found: u64,
    },
    #[error("match {id}: stored event {seq} does not read: {reason}")]
    Corrupt {
        id: MatchId,
        seq: u64,
        reason: String,
    },
    /// A hole in a match's event numbers (only tampering can make one): its state
    /// cannot be rebuilt.
    #[error(
        "match {id}: event {missing} is missing from its log (it goes on at event {found}); the log was changed by hand"
    )]
    Gap {
        id: MatchId,
        missing: u64,
        found: u64,
    },
    #[error("there is no tournament {0}")]
    NoTournament(i64),
    /// Someone else acted on this tournament meanwhile: nothing was written.
    #[error(
        "tournament {id} moved on to event {found} while event {expected} was being added; try again"
    )]
    TournamentMoved { id: i64, expected: u64, found: u64 },
    #[error("{what} {value} is too large to store (at most {})", i64::MAX)]
    OutOfRange { what: &'static str, value: u64 },
    #[error("the store has shut down")]
    Closed,
    /// An append the database refused because its fencing token is not the match's
    /// current lease's (another process took the match over when this one's lease ran
    /// out), or because it carries none while another process holds a live lease.
    /// Nothing was written.
    #[error("match {id}: {why}; nothing was recorded")]
    Fenced { id: MatchId, why: String },
    /// A lease asked for while another process holds it (`left_ms` 0: its lease ran
    /// out, but a transaction of that process still holds the lease's row).
    #[error("{}", leased_text(*.id, .owner, *.left_ms))]
    Leased {
        id: MatchId,
        owner: String,
        left_ms: i64,
    },
    /// A setting that only means something on SQLite, asked of PostgreSQL.
    #[error("{0} is a SQLite setting; PostgreSQL has no such thing")]
    SqliteOnly(&'static str),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        // The primary code, whatever its extended code.
        match sqlite_code(&e).map(|c| c & 0xff) {
            Some(13) => return StoreError::Full,
            Some(5 | 6) => return StoreError::Busy,
            _ => {}
        }
        // PostgreSQL's SQLSTATE: disk_full, and a transaction that met another one
        // (serialization failure, deadlock, lock not available).
        match postgres_state(&e) {
            Some("53100") => StoreError::Full,
            Some("40001" | "40P01" | "55P03") => StoreError::Busy,
            // A connection exception, or the server shutting down, crashed or starting.
            Some(s) if s.starts_with("08") || matches!(s, "57P01" | "57P02" | "57P03") => {
                StoreError::Unreachable {
                    reason: e.to_string(),
                }
            }
            // No connection within the pool's wait: every try to connect failed.
            _ if matches!(e, sqlx::Error::PoolTimedOut) => StoreError::Unreachable {
                reason: "no connection to the database could be had".into(),
            },
            _ => StoreError::Db(e),
        }
    }
}

impl StoreError {
    /// An I/O error (SQLITE_IOERR, or one made on purpose): whether a commit that met
    /// it was recorded is unknown until the database is read again.
    pub(crate) fn is_io(&self) -> bool {
        match self {
            StoreError::Db(e) => {
                matches!(e, sqlx::Error::Io(_)) || sqlite_code(e).is_some_and(|c| c & 0xff == 10)
            }
            StoreError::Injected(_) => true,
            _ => false,
        }
    }

    /// A fault of the database as a whole (not of one append): every append of a
    /// batch that met it meets it too. The same error again, for each of them.
    pub(crate) fn shared(&self) -> Option<StoreError> {
        Some(match self {
            StoreError::Full => StoreError::Full,
            StoreError::Busy => StoreError::Busy,
            StoreError::Unavailable(r) => StoreError::Unavailable(r.clone()),
            StoreError::Unreachable { reason } => StoreError::Unreachable {
                reason: reason.clone(),
            },
            StoreError::Closed => StoreError::Closed,
            StoreError::Db(sqlx::Error::PoolClosed) => StoreError::Closed,
            _ => return None,
        })
    }

    /// What went wrong, without the advice to the one who asked (for a line that says
    /// why the umpire waits).
    pub fn reason(&self) -> String {
        match self {
            StoreError::Full => "the disk is full".into(),
            StoreError::Busy => "another program is writing to the database".into(),
            StoreError::NotRecorded { reason } => reason.clone(),
            StoreError::MaybeRecorded { reason } => format!("{reason}; it may have been recorded"),
            StoreError::Unavailable(reason) => format!("the database cannot be used: {reason}"),
            StoreError::Unreachable { reason } => {
                format!("the database cannot be reached: {reason}")
            }
            StoreError::Db(e) => e.to_string(),
            other => other.to_string(),
        }
    }

    /// Whether nothing was recorded for sure and the same request may simply be made
    /// again (the store's own trouble, not the request's).
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            StoreError::Full
                | StoreError::Busy
                | StoreError::NotRecorded { .. }
                | StoreError::MaybeRecorded { .. }
                | StoreError::Unavailable(_)
                | StoreError::Unreachable { .. }
        ) || self.is_io()
    }
}

/// Who holds a lease, and until when: a lease that ran out while a transaction of its
/// owner still holds its row (a process paused inside one) is said as that.
fn leased_text(id: MatchId, owner: &str, left_ms: i64) -> String {
    if left_ms > 0 {
        format!(
            "match {id} is run by another process ({owner}); its lease runs {:.1} s more, \
             and as long as that process renews it",
            left_ms as f64 / 1000.0
        )
    } else {
        format!(
            "match {id} was run by another process ({owner}), whose lease ran out, but a \
             transaction of that process still holds the lease; it can be taken once the \
             database ends that transaction (database.idle_in_transaction_ms)"
        )
    }
}

/// SQLite's (extended) result code of a database error (none for PostgreSQL's).
pub(crate) fn sqlite_code(e: &sqlx::Error) -> Option<i32> {
    let d = e.as_database_error()?;
    d.try_downcast_ref::<sqlx::sqlite::SqliteError>()?;
    d.code().and_then(|c| c.parse::<i32>().ok())
}

/// PostgreSQL's SQLSTATE of a database error (none for SQLite's).
pub(crate) fn postgres_state(e: &sqlx::Error) -> Option<&str> {
    let d = e.as_database_error()?;
    Some(
        d.try_downcast_ref::<sqlx::postgres::PgDatabaseError>()?
            .code(),
    )
}

/// How hard a commit tries to survive. Either way a commit survives the process being
/// killed; `Power` also survives the machine losing power, at the price of an fsync per
/// group commit (measured: 10,500 against 11,200 events/s with 1,000 live matches, so
/// it is the default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Durability {
    /// SQLite `synchronous = NORMAL` in WAL mode.
    Process,
    /// SQLite `synchronous = FULL`.
    #[default]
    Power,
}

/// A match to create.
#[derive(Clone, Debug)]
pub struct NewMatch<'a> {
    pub kind: &'a str,
    pub guild: Option<u64>,
    pub channel: Option<u64>,
    pub seed: u64,
    /// JSON.
    pub settings: &'a str,
    /// In seat order.
    pub players: &'a [u64],
}

/// An event to append: when it happened on the game clock, and its JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEvent {
    pub at: Millis,
    pub body: String,
}

/// An event as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredEvent {
    /// 1 for the event that created the match, then 2, 3...
    pub seq: u64,
    pub at: Millis,
    pub body: String,
}

impl StoredEvent {
    /// Reads the JSON as the game's event type.
    pub fn decode<E: DeserializeOwned>(&self, id: MatchId) -> Result<E, StoreError> {
        from_json(&self.body).map_err(|reason| StoreError::Corrupt {
            id,
            seq: self.seq,
            reason,
        })
    }
}

/// The deepest JSON a stored event may be. What the pattern readers accept (100
/// levels of formula, several JSON levels each) stays well under it, and so does the
/// stack it takes to read (a tokio worker's 2 MiB).
pub const MAX_JSON_DEPTH: usize = 1_000;

/// Reads stored JSON (an event) whatever its nesting up to [`MAX_JSON_DEPTH`].
/// serde_json's own limit (128) was lower than what the readers accept, so a match
/// with a deeply nested guess was stored and then could not be read back.
pub fn from_json<T: DeserializeOwned>(body: &str) -> Result<T, String> {
    let depth = json_depth(body);
    if depth > MAX_JSON_DEPTH {
        return Err(format!(
            "it nests {depth} levels deep; at most {MAX_JSON_DEPTH} are read"
        ));
    }
    let mut reader = serde_json::Deserializer::from_str(body);
    reader.disable_recursion_limit();
    let value = T::deserialize(&mut reader).map_err(|e| e.to_string())?;
    reader.end().map_err(|e| e.to_string())?;
    Ok(value)
}

/// The deepest nesting of arrays and objects in JSON text (brackets inside strings
/// do not count).
fn json_depth(text: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for b in text.bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// A match's row: everything but its events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRecord {
    pub id: MatchId,
    pub kind: String,
    pub guild: Option<u64>,
    pub channel: Option<u64>,
    pub seed: u64,
    pub settings: String,
    pub status: Status,
    pub players: Vec<u64>,
    pub created_at: Millis,
    pub last_seq: u64,
    pub last_at: Millis,
    /// Wall time of creation, ISO 8601 UTC.
    pub created: String,
}

impl MatchRecord {
    /// The game it plays (a kind this Mondo does not know is an error).
    pub fn game(&self) -> Result<mondo_rules::rules::GameKind, mondo_rules::rules::UnknownGame> {
        self.kind.parse()
    }
}

/// Which matches to list; `None` fields do not filter.
#[derive(Clone, Debug, Default)]
pub struct MatchFilter<'a> {
    pub kind: Option<&'a str>,
    pub status: Option<Status>,
    pub player: Option<u64>,
    pub channel: Option<u64>,
    /// Newest first, at most this many (all if `None`).
    pub limit: Option<u32>,
}

pub(crate) fn to_i64(what: &'static str, value: u64) -> Result<i64, StoreError> {
    i64::try_from(value).map_err(|_| StoreError::OutOfRange { what, value })
}

/// Reads back a non-negative integer column (ids, times, counts).
pub(crate) fn to_u64(value: i64) -> u64 {
    value.max(0) as u64
}

/// A match's record read from a row of `match_columns!`.
pub(crate) fn match_record(r: &AnyRow) -> Result<MatchRecord, StoreError> {
    let id = MatchId(r.try_get("id")?);
    let status: String = r.try_get("status")?;
    let players: String = r.try_get("players")?;
    let players: Vec<i64> = serde_json::from_str(&players).map_err(|e| StoreError::Corrupt {
        id,
        seq: 0,
        reason: format!("players: {e}"),
    })?;
    Ok(MatchRecord {
        id,
        kind: r.try_get("kind")?,
        guild: r.try_get::<Option<i64>, _>("guild_id")?.map(to_u64),
        channel: r.try_get::<Option<i64>, _>("channel_id")?.map(to_u64),
        seed: r.try_get::<i64, _>("seed")? as u64,
        settings: r.try_get("settings")?,
        status: if status == "over" {
            Status::Over
        } else {
            Status::Live
        },
        players: players.into_iter().map(to_u64).collect(),
        created_at: to_u64(r.try_get("created_at")?),
        last_seq: to_u64(r.try_get("last_seq")?),
        last_at: to_u64(r.try_get("last_at")?),
        created: r.try_get("created")?,
    })
}
