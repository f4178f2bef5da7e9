//! The store: SQLite or PostgreSQL through sqlx's `Any` driver ([`Location`]). A match is its append-only event log plus what
//! identifies it (kind, seed, settings, players, status); its state is the fold of its
//! events and is never stored. Also the game clock's last reading, and per server the
//! pattern pools (TOML text) and settings the Discord bot uses.
//!
//! The store speaks JSON text and game-clock milliseconds; it knows no game. Writes go
//! through one connection (SQLite has one writer anyway), so they never race each
//! other for the lock; event appends from every live match are group-committed by one
//! task ([`writer`]): many matches' events share a transaction, and each append is
//! answered only once its transaction is committed. Reads use a separate pool and,
//! with WAL, never wait for writes. After an I/O error the connections are reopened
//! and the log itself says what was recorded ([`db`]).

mod commands;
mod db;
mod discord;
mod drafts;
mod leases;
mod lobbies;
mod location;
mod lock;
mod owners;
mod path;
mod players;
mod servers;
mod writer;

pub use commands::Routed;
pub use db::{Backend, Fault};
pub use leases::Lease;
pub use lobbies::LobbyRecord;
pub use location::Location;
pub use lock::{LockError, RunLock, lock_for_running};
pub use owners::Unowned;
pub use path::check_writable;
pub use ratings::{HistoryRow, RatingRow, Rebuilt, SoloRecord, server_of};
pub use servers::{PoolRecord, ServerSettings};

use serde::de::DeserializeOwned;
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, AnyPool, Row};
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

/// The columns of a [`MatchRecord`] (a macro, so queries stay `&'static str`).
macro_rules! match_columns {
    () => {
        "SELECT m.id, m.kind, m.guild_id, m.channel_id, m.seed, m.settings, m.status, \
         m.created_at, m.last_seq, m.last_at, m.created, \
         (SELECT json_group_array(player_id) FROM (SELECT player_id FROM match_players p \
          WHERE p.match_id = m.id ORDER BY seat) AS seated) AS players FROM matches m"
    };
}

// After the macro, which it uses.
mod ratings;

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
    fn as_str(self) -> &'static str {
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
    #[error("{0} is not a Mondo database (it has no matches table)")]
    NotMondo(String),
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
    /// A lease asked for while another process holds it.
    #[error("match {id} is run by {owner} (its lease runs {left_ms} ms more)")]
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
        ) || self.is_io()
    }
}

/// SQLite's (extended) result code of a database error (none for PostgreSQL's).
fn sqlite_code(e: &sqlx::Error) -> Option<i32> {
    let d = e.as_database_error()?;
    d.try_downcast_ref::<sqlx::sqlite::SqliteError>()?;
    d.code().and_then(|c| c.parse::<i32>().ok())
}

/// PostgreSQL's SQLSTATE of a database error (none for SQLite's).
fn postgres_state(e: &sqlx::Error) -> Option<&str> {
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
    pub fn game(&self) -> Result<crate::rules::GameKind, crate::rules::UnknownGame> {
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

/// The store: cheap to clone, shared by the runtime and the fronts.
#[derive(Clone)]
pub struct Store {
    db: Arc<db::Db>,
    appender: Arc<Appender>,
}

/// The way to the append task, and the task (awaited on closing).
struct Appender {
    tx: Mutex<Option<mpsc::Sender<writer::Append>>>,
    task: Mutex<Option<JoinHandle<()>>>,
}

impl Appender {
    fn new(db: Arc<db::Db>) -> Arc<Appender> {
        let (tx, task) = writer::spawn(db);
        Arc::new(Appender {
            tx: Mutex::new(Some(tx)),
            task: Mutex::new(Some(task)),
        })
    }

    fn sender(&self) -> Option<mpsc::Sender<writer::Append>> {
        self.tx.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store")
            .field("location", &self.db.location)
            .finish()
    }
}

pub(crate) fn to_i64(what: &'static str, value: u64) -> Result<i64, StoreError> {
    i64::try_from(value).map_err(|_| StoreError::OutOfRange { what, value })
}

/// Reads back a non-negative integer column (ids, times, counts).
pub(crate) fn to_u64(value: i64) -> u64 {
    value.max(0) as u64
}

impl Store {
    /// Opens (creating it if needed) the database file at `path`, brings its schema up
    /// to date, and starts the append task. Needs a tokio runtime.
    pub async fn open(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        Store::open_with(path, Durability::default()).await
    }

    pub async fn open_with(
        path: impl AsRef<Path>,
        durability: Durability,
    ) -> Result<Store, StoreError> {
        Store::connect_with(&Location::from(path.as_ref()), durability).await
    }

    /// Opens the database at `location` (a SQLite file, created if needed, or a
    /// PostgreSQL database, which must exist), brings its schema up to date, and starts
    /// the append task. Needs a tokio runtime.
    pub async fn connect(location: &Location) -> Result<Store, StoreError> {
        Store::connect_with(location, Durability::default()).await
    }

    pub async fn connect_with(
        location: &Location,
        durability: Durability,
    ) -> Result<Store, StoreError> {
        if let Location::Sqlite(path) = location {
            check_writable(path)?;
        }
        let opened = async {
            let db = db::Db::open(location.clone(), durability, false).await?;
            migrate(&db).await?;
            Ok::<_, StoreError>(db)
        };
        let db = opened.await.map_err(|e| on_opening(location, e))?;
        let db = Arc::new(db);
        Ok(Store {
            appender: Appender::new(db.clone()),
            db,
        })
    }

    /// Opens the database at `path` to read it only (`mondo replay`): never created,
    /// never migrated, never written (every write fails). A file that holds no Mondo
    /// store is refused.
    pub async fn open_read_only(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        Store::connect_read_only(&Location::from(path.as_ref())).await
    }

    /// [`Store::open_read_only`] at a [`Location`].
    pub async fn connect_read_only(location: &Location) -> Result<Store, StoreError> {
        let db = db::Db::open(location.clone(), Durability::default(), true).await?;
        let read = db.pools().await?.read;
        let query = match db.backend {
            Backend::Sqlite => {
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'matches'"
            }
            Backend::Postgres => {
                "SELECT COUNT(*) FROM information_schema.tables \
                 WHERE table_schema = current_schema() AND table_name = 'matches'"
            }
        };
        let tables: i64 = sqlx::query_scalar(query).fetch_one(&read).await?;
        if tables == 0 {
            read.close().await;
            return Err(StoreError::NotMondo(location.to_string()));
        }
        let db = Arc::new(db);
        Ok(Store {
            appender: Appender::new(db.clone()),
            db,
        })
    }

    /// Which database the store is on.
    pub fn backend(&self) -> Backend {
        self.db.backend
    }

    /// Where the store is.
    pub fn location(&self) -> &Location {
        &self.db.location
    }

    /// The pool that reads (as it is now: it changes when the database is reopened).
    pub(crate) async fn read(&self) -> Result<AnyPool, StoreError> {
        Ok(self.db.pools().await?.read)
    }

    /// The pool that writes.
    pub(crate) async fn write(&self) -> Result<AnyPool, StoreError> {
        Ok(self.db.pools().await?.write)
    }

    /// A write transaction: on SQLite `BEGIN IMMEDIATE`, which takes the write lock at
    /// once (a transaction that reads first and upgrades later could meet another
    /// writer and fail instead of waiting); on PostgreSQL a plain one (rows lock as
    /// they are written).
    pub(crate) async fn begin_write(
        &self,
    ) -> Result<sqlx::Transaction<'static, sqlx::Any>, StoreError> {
        self.db.begin_write().await
    }

    /// The SQLite file (an empty path on PostgreSQL: see [`Store::location`]).
    pub fn path(&self) -> &Path {
        &self.db.path
    }

    /// Creates a match with its first event (seq 1), in one transaction.
    pub async fn create_match(
        &self,
        new: &NewMatch<'_>,
        first: &NewEvent,
    ) -> Result<MatchId, StoreError> {
        let guild = new.guild.map(|g| to_i64("guild id", g)).transpose()?;
        let channel = new.channel.map(|c| to_i64("channel id", c)).transpose()?;
        let at = to_i64("time", first.at)?;
        let players = new
            .players
            .iter()
            .map(|p| to_i64("player id", *p))
            .collect::<Result<Vec<_>, _>>()?;
        let mut tx = self.begin_write().await?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO matches (kind, guild_id, channel_id, seed, settings, created_at, \
             last_seq, last_at) VALUES ($1, $2, $3, $4, $5, $6, 1, $6) RETURNING id",
        )
        .bind(new.kind)
        .bind(guild)
        .bind(channel)
        // The seed is any u64: stored bit for bit.
        .bind(new.seed as i64)
        .bind(new.settings)
        .bind(at)
        .fetch_one(&mut *tx)
        .await?;
        for (seat, player) in players.iter().enumerate() {
            sqlx::query(
                "INSERT INTO match_players (match_id, seat, player_id) VALUES ($1, $2, $3)",
            )
            .bind(id)
            .bind(seat as i64)
            .bind(player)
            .execute(&mut *tx)
            .await?;
        }
        insert_event(&mut tx, id, 1, first).await?;
        tx.commit().await?;
        Ok(MatchId(id))
    }

    /// Appends `events` after event `after` (the last one the caller knows) and marks
    /// the match over if `over`. Returns once they are committed: only then may they be
    /// announced. All or nothing.
    pub async fn append(
        &self,
        id: MatchId,
        after: u64,
        events: Vec<NewEvent>,
        over: bool,
    ) -> Result<u64, StoreError> {
        self.append_ending(id, after, events, over, None).await
    }

    /// [`Store::append`], with what the match counts for when `over` (its ratings or
    /// record move in the same transaction as its last event: never twice, never
    /// without it).
    pub async fn append_ending(
        &self,
        id: MatchId,
        after: u64,
        events: Vec<NewEvent>,
        over: bool,
        finish: Option<crate::rules::Finish>,
    ) -> Result<u64, StoreError> {
        self.append_fenced(id, None, after, events, over, finish)
            .await
    }

    /// [`Store::append_ending`] by the holder of the match's lease: `token` is its
    /// fencing token ([`Store::take_lease`]). The database writes the events only while
    /// `token` is the match's current one, in the same transaction, and refuses them
    /// otherwise ([`StoreError::Fenced`]). `None` (a process that takes no leases) is
    /// refused only while another process holds a live lease on the match.
    pub async fn append_fenced(
        &self,
        id: MatchId,
        token: Option<i64>,
        after: u64,
        events: Vec<NewEvent>,
        over: bool,
        finish: Option<crate::rules::Finish>,
    ) -> Result<u64, StoreError> {
        let (reply, answer) = oneshot::channel();
        let appender = self.appender.sender().ok_or(StoreError::Closed)?;
        appender
            .send(writer::Append {
                id,
                token,
                after,
                events,
                over,
                finish,
                reply,
            })
            .await
            .map_err(|_| StoreError::Closed)?;
        answer.await.map_err(|_| StoreError::Closed)?
    }

    /// A match's players as they are now (a game that seats players as it goes, such
    /// as a lobby): the listing `MatchFilter::player` finds them by.
    pub async fn set_players(&self, id: MatchId, players: &[u64]) -> Result<(), StoreError> {
        let mut tx = self.write().await?.begin().await?;
        sqlx::query("DELETE FROM match_players WHERE match_id = $1")
            .bind(id.0)
            .execute(&mut *tx)
            .await?;
        for (seat, player) in players.iter().enumerate() {
            sqlx::query(
                "INSERT INTO match_players (match_id, seat, player_id) VALUES ($1, $2, $3)",
            )
            .bind(id.0)
            .bind(seat as i64)
            .bind(to_i64("player id", *player)?)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Every event of a match, in order.
    pub async fn events(&self, id: MatchId) -> Result<Vec<StoredEvent>, StoreError> {
        self.events_after(id, 0).await
    }

    /// The events after event `after`, in order.
    pub async fn events_after(
        &self,
        id: MatchId,
        after: u64,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        if self.db.take_fault(|f| *f == Fault::Unreadable).is_some() {
            return Err(StoreError::Injected(
                "the log cannot be read (a fault made on purpose)",
            ));
        }
        let rows = sqlx::query(
            "SELECT seq, at, body FROM events WHERE match_id = $1 AND seq > $2 ORDER BY seq",
        )
        .bind(id.0)
        .bind(to_i64("event number", after)?)
        .fetch_all(&self.read().await?)
        .await?;
        if rows.is_empty() && after == 0 && self.record(id).await?.is_none() {
            return Err(StoreError::NoSuchMatch(id));
        }
        let events = rows
            .iter()
            .map(|r| {
                Ok(StoredEvent {
                    seq: to_u64(r.try_get("seq")?),
                    at: to_u64(r.try_get("at")?),
                    body: r.try_get("body")?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        // Numbered without gaps: a missing event is refused, never skipped (the state
        // folded without it would be another match's).
        for (expected, e) in (after + 1..).zip(&events) {
            if e.seq != expected {
                return Err(StoreError::Gap {
                    id,
                    missing: expected,
                    found: e.seq,
                });
            }
        }
        Ok(events)
    }

    /// A match's row, if it exists.
    pub async fn record(&self, id: MatchId) -> Result<Option<MatchRecord>, StoreError> {
        let row = sqlx::query(concat!(match_columns!(), " WHERE m.id = $1"))
            .bind(id.0)
            .fetch_optional(&self.read().await?)
            .await?;
        row.map(|r| match_record(&r)).transpose()
    }

    /// The matches that pass `filter`, newest first.
    pub async fn matches(&self, filter: &MatchFilter<'_>) -> Result<Vec<MatchRecord>, StoreError> {
        let player = filter.player.map(|p| to_i64("player id", p)).transpose()?;
        let channel = filter
            .channel
            .map(|c| to_i64("channel id", c))
            .transpose()?;
        let rows = sqlx::query(concat!(
            match_columns!(),
            " WHERE ($1 IS NULL OR m.kind = $1) AND ($2 IS NULL OR m.status = $2) \
             AND ($3 IS NULL OR m.id IN (SELECT match_id FROM match_players WHERE player_id = $3)) \
             AND ($4 IS NULL OR m.channel_id = $4) ORDER BY m.id DESC LIMIT $5"
        ))
        .bind(filter.kind)
        .bind(filter.status.map(Status::as_str))
        .bind(player)
        .bind(channel)
        .bind(filter.limit.map_or(i64::MAX, i64::from))
        .fetch_all(&self.read().await?)
        .await?;
        rows.iter().map(match_record).collect()
    }

    /// The game clock's reading to resume from: the last one saved, or the time of the
    /// latest event if that is later (a crash can come between two saves).
    pub async fn game_clock(&self) -> Result<Millis, StoreError> {
        let now: i64 = sqlx::query_scalar(
            "SELECT MAX((SELECT now_ms FROM game_clock WHERE id = 1), \
             COALESCE((SELECT MAX(last_at) FROM matches), 0))",
        )
        .fetch_one(&self.read().await?)
        .await?;
        Ok(to_u64(now))
    }

    /// Saves the game clock's reading (it never goes back).
    pub async fn save_game_clock(&self, now: Millis) -> Result<(), StoreError> {
        sqlx::query("UPDATE game_clock SET now_ms = MAX(now_ms, $1) WHERE id = 1")
            .bind(to_i64("time", now)?)
            .execute(&self.write().await?)
            .await?;
        Ok(())
    }

    /// Caps the database at `pages` pages, or lifts the cap (`None`): SQLite's
    /// `max_page_count` on the writer connection and on any that replaces it. How the
    /// tests make the disk full and free it again.
    #[doc(hidden)]
    pub async fn limit_pages(&self, pages: Option<u32>) -> Result<(), StoreError> {
        if self.db.backend == Backend::Postgres {
            return Err(StoreError::SqliteOnly("a page limit"));
        }
        let pages = pages.unwrap_or(u32::MAX - 1);
        self.db.limit_pages(pages);
        sqlx::query(db::pragma("max_page_count", pages.into()))
            .execute(&self.write().await?)
            .await?;
        Ok(())
    }

    /// How long the writer waits for another program's write lock before giving up
    /// (10 s unless a test shortens it).
    #[doc(hidden)]
    pub async fn set_busy_timeout(&self, wait: Duration) -> Result<(), StoreError> {
        if self.db.backend == Backend::Postgres {
            return Err(StoreError::SqliteOnly("the busy timeout"));
        }
        let ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX).max(1);
        self.db.set_busy_ms(ms);
        sqlx::query(db::pragma("busy_timeout", ms))
            .execute(&self.write().await?)
            .await?;
        Ok(())
    }

    /// Makes `faults` happen, in order, each once (see [`Fault`]).
    #[doc(hidden)]
    pub fn inject(&self, faults: impl IntoIterator<Item = Fault>) {
        self.db.inject(faults);
    }

    /// Waits for pending appends, then closes the connections, the writer last after a
    /// checkpoint: the `.db` file alone then holds everything (its `-wal` is emptied and
    /// removed), so a copy of it is a whole backup.
    pub async fn close(self) {
        let task = {
            // No more appends; the task answers those already sent, then ends.
            self.appender
                .tx
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take();
            self.appender
                .task
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take()
        };
        if let Some(task) = task {
            let _ = task.await;
        }
        let Ok(pools) = self.db.pools().await else {
            return;
        };
        // A read-only connection cannot checkpoint: they go first.
        pools.read.close().await;
        if self.db.backend == Backend::Postgres {
            pools.write.close().await;
            return;
        }
        if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&pools.write)
            .await
        {
            tracing::warn!(error = %e, "the database could not be checkpointed (nothing is lost)");
        }
        pools.write.close().await;
    }
}

/// An error on opening, said as what to do: a full disk as such (SQLite's words for it
/// are "disk I/O error (code 4874)" when it cannot grow its shared memory).
fn on_opening(location: &Location, e: StoreError) -> StoreError {
    use sqlx::migrate::MigrateError;
    let Location::Sqlite(path) = location else {
        return e;
    };
    let code = match &e {
        StoreError::Db(x)
        | StoreError::Migrate(MigrateError::Execute(x) | MigrateError::ExecuteMigration(x, _)) => {
            sqlite_code(x).map(|c| c & 0xff)
        }
        _ => None,
    };
    let full = matches!(e, StoreError::Full)
        || code == Some(13)
        || ((e.is_io() || code == Some(10)) && db::disk_full(path));
    if full {
        StoreError::DiskFull {
            path: path.display().to_string(),
        }
    } else {
        e
    }
}

/// Brings the schema up to date (each database has its own migrations: the tables are
/// the same), then makes sure this process can write (a read-only mount or folder
/// lets SQLite open the file, and only the first move would fail).
async fn migrate(db: &db::Db) -> Result<(), StoreError> {
    let write = db.pools().await?.write;
    let migrator = match db.backend {
        Backend::Sqlite => sqlx::migrate!("./migrations/sqlite"),
        Backend::Postgres => sqlx::migrate!("./migrations/postgres"),
    };
    let newer = |found| StoreError::Newer {
        path: db.location.to_string(),
        found,
        known: migrator.iter().map(|m| m.version).max().unwrap_or(0),
    };
    match migrator.run(&write).await {
        Err(sqlx::migrate::MigrateError::VersionMissing(found)) => return Err(newer(found)),
        other => other?,
    }
    if db.backend == Backend::Postgres {
        return Ok(());
    }
    let mut conn = write.acquire().await?;
    let probe = sqlx::query("BEGIN IMMEDIATE").execute(&mut *conn).await;
    if probe.is_ok() {
        sqlx::query("ROLLBACK").execute(&mut *conn).await?;
    }
    match probe {
        Ok(_) => Ok(()),
        // SQLITE_READONLY, whatever its extended code; anything else (a busy database)
        // is not a question of permissions.
        Err(e) if sqlite_code(&e).is_some_and(|c| c & 0xff == 8) => Err(StoreError::ReadOnly {
            path: db.location.to_string(),
            reason: e.to_string(),
        }),
        Err(e) => Err(e.into()),
    }
}

fn match_record(r: &AnyRow) -> Result<MatchRecord, StoreError> {
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

async fn insert_event(
    conn: &mut AnyConnection,
    id: i64,
    seq: u64,
    event: &NewEvent,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO events (match_id, seq, at, body) VALUES ($1, $2, $3, $4)")
        .bind(id)
        .bind(to_i64("event number", seq)?)
        .bind(to_i64("time", event.at)?)
        .bind(&event.body)
        .execute(conn)
        .await?;
    Ok(())
}
