//! The store: SQLite through sqlx. A match is its append-only event log plus what
//! identifies it (kind, seed, settings, players, status); its state is the fold of its
//! events and is never stored. Also the game clock's last reading, and per server the
//! pattern pools (TOML text) and settings the Discord bot uses.
//!
//! The store speaks JSON text and game-clock milliseconds; it knows no game. Writes go
//! through one connection (SQLite has one writer anyway), so they never race each
//! other for the lock; event appends from every live match are group-committed by one
//! task ([`writer`]): many matches' events share a transaction, and each append is
//! answered only once its transaction is committed. Reads use a separate pool and,
//! with WAL, never wait for writes.

mod discord;
mod drafts;
mod lobbies;
mod lock;
mod path;
mod players;
mod servers;
mod writer;

pub use lobbies::LobbyRecord;
pub use lock::{LockError, RunLock, lock_for_running, lock_path};
pub use path::check_writable;
pub use servers::{PoolRecord, ServerSettings};

use serde::de::DeserializeOwned;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow,
    SqliteSynchronous,
};
use sqlx::{Row, SqliteConnection};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// The columns of a [`MatchRecord`] (a macro, so queries stay `&'static str`).
macro_rules! match_columns {
    () => {
        "SELECT m.id, m.kind, m.guild_id, m.channel_id, m.seed, m.settings, m.status, \
         m.created_at, m.last_seq, m.last_at, m.created, \
         (SELECT json_group_array(player_id) FROM (SELECT player_id FROM match_players p \
          WHERE p.match_id = m.id ORDER BY seat)) AS players FROM matches m"
    };
}

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
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        if is_full(&e) {
            StoreError::Full
        } else {
            StoreError::Db(e)
        }
    }
}

/// SQLITE_FULL (13), whatever its extended code.
fn is_full(e: &sqlx::Error) -> bool {
    sqlite_code(e).is_some_and(|c| c & 0xff == 13)
}

/// SQLite's (extended) result code of a database error.
fn sqlite_code(e: &sqlx::Error) -> Option<i32> {
    let code = e.as_database_error().and_then(|d| d.code());
    code.and_then(|c| c.parse::<i32>().ok())
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
    read: SqlitePool,
    write: SqlitePool,
    appender: mpsc::Sender<writer::Append>,
    path: PathBuf,
    /// The page cap of [`Store::limit_pages`] (0: none).
    page_limit: Arc<AtomicU32>,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
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
        let path = path.as_ref().to_path_buf();
        check_writable(&path)?;
        let options = SqliteConnectOptions::new()
            .filename(&path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(match durability {
                Durability::Process => SqliteSynchronous::Normal,
                Durability::Power => SqliteSynchronous::Full,
            })
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let page_limit = Arc::new(AtomicU32::new(0));
        // One writer connection: writes queue in the pool instead of fighting over
        // SQLite's lock.
        let write = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            // A failed COMMIT (a full disk) can leave sqlx counting a transaction that
            // SQLite already rolled back, and every later BEGIN then fails. A connection
            // that comes back still in a transaction is closed and a fresh one opened
            // (closing rolls back whatever SQLite still held). The query first lets the
            // dropped transaction's queued ROLLBACK run.
            .after_connect({
                let limit = page_limit.clone();
                move |conn, _| {
                    let pages = limit.load(Ordering::Relaxed);
                    Box::pin(async move {
                        if pages > 0 {
                            sqlx::query(max_pages(pages)).execute(conn).await?;
                        }
                        Ok(())
                    })
                }
            })
            .after_release(|conn, _| {
                Box::pin(async move {
                    sqlx::query("SELECT 1").execute(&mut *conn).await?;
                    Ok(!sqlx::Connection::is_in_transaction(conn))
                })
            })
            .connect_with(options.clone())
            .await?;
        migrate(&write, &path).await?;
        let read = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options.read_only(true))
            .await?;
        let appender = writer::spawn(write.clone());
        Ok(Store {
            read,
            write,
            appender,
            path,
            page_limit,
        })
    }

    /// Opens the database at `path` to read it only (`mondo replay`): never created,
    /// never migrated, never written (every write fails). A file that holds no Mondo
    /// store is refused.
    pub async fn open_read_only(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref().to_path_buf();
        let options = SqliteConnectOptions::new()
            .filename(&path)
            .read_only(true)
            .busy_timeout(Duration::from_secs(10));
        let read = SqlitePoolOptions::new()
            .max_connections(2)
            .connect_with(options)
            .await?;
        let tables: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'matches'",
        )
        .fetch_one(&read)
        .await?;
        if tables == 0 {
            read.close().await;
            return Err(StoreError::NotMondo(path.display().to_string()));
        }
        let appender = writer::spawn(read.clone());
        Ok(Store {
            write: read.clone(),
            read,
            appender,
            path,
            page_limit: Arc::new(AtomicU32::new(0)),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
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
        let mut tx = self.write.begin_with("BEGIN IMMEDIATE").await?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO matches (kind, guild_id, channel_id, seed, settings, created_at, \
             last_seq, last_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?6) RETURNING id",
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
                "INSERT INTO match_players (match_id, seat, player_id) VALUES (?1, ?2, ?3)",
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
        let (reply, answer) = oneshot::channel();
        self.appender
            .send(writer::Append {
                id,
                after,
                events,
                over,
                reply,
            })
            .await
            .map_err(|_| StoreError::Closed)?;
        answer.await.map_err(|_| StoreError::Closed)?
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
        let rows = sqlx::query(
            "SELECT seq, at, body FROM events WHERE match_id = ?1 AND seq > ?2 ORDER BY seq",
        )
        .bind(id.0)
        .bind(to_i64("event number", after)?)
        .fetch_all(&self.read)
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
        let row = sqlx::query(concat!(match_columns!(), " WHERE m.id = ?1"))
            .bind(id.0)
            .fetch_optional(&self.read)
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
            " WHERE (?1 IS NULL OR m.kind = ?1) AND (?2 IS NULL OR m.status = ?2) \
             AND (?3 IS NULL OR m.id IN (SELECT match_id FROM match_players WHERE player_id = ?3)) \
             AND (?4 IS NULL OR m.channel_id = ?4) ORDER BY m.id DESC LIMIT ?5"
        ))
        .bind(filter.kind)
        .bind(filter.status.map(Status::as_str))
        .bind(player)
        .bind(channel)
        .bind(filter.limit.map_or(-1, i64::from))
        .fetch_all(&self.read)
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
        .fetch_one(&self.read)
        .await?;
        Ok(to_u64(now))
    }

    /// Saves the game clock's reading (it never goes back).
    pub async fn save_game_clock(&self, now: Millis) -> Result<(), StoreError> {
        sqlx::query("UPDATE game_clock SET now_ms = MAX(now_ms, ?1) WHERE id = 1")
            .bind(to_i64("time", now)?)
            .execute(&self.write)
            .await?;
        Ok(())
    }

    /// Caps the database at `pages` pages, or lifts the cap (`None`): SQLite's
    /// `max_page_count` on the writer connection and on any that replaces it. How the
    /// tests make the disk full and free it again.
    #[doc(hidden)]
    pub async fn limit_pages(&self, pages: Option<u32>) -> Result<(), StoreError> {
        let pages = pages.unwrap_or(u32::MAX - 1);
        self.page_limit.store(pages, Ordering::Relaxed);
        sqlx::query(max_pages(pages)).execute(&self.write).await?;
        Ok(())
    }

    /// Waits for pending appends, then closes the connections, the writer last after a
    /// checkpoint: the `.db` file alone then holds everything (its `-wal` is emptied and
    /// removed), so a copy of it is a whole backup.
    pub async fn close(self) {
        let Store {
            read,
            write,
            appender,
            ..
        } = self;
        drop(appender);
        // A read-only connection cannot checkpoint: they go first.
        read.close().await;
        if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&write)
            .await
        {
            tracing::warn!(error = %e, "the database could not be checkpointed (nothing is lost)");
        }
        // The append task holds a clone of the write pool; closing waits for it.
        write.close().await;
    }
}

/// Brings the schema up to date, then makes sure this process can write (a read-only
/// mount or folder lets SQLite open the file, and only the first move would fail).
async fn migrate(write: &SqlitePool, path: &Path) -> Result<(), StoreError> {
    let migrator = sqlx::migrate!("./migrations");
    let newer = |found| StoreError::Newer {
        path: path.display().to_string(),
        found,
        known: migrator.iter().map(|m| m.version).max().unwrap_or(0),
    };
    match migrator.run(write).await {
        Err(sqlx::migrate::MigrateError::VersionMissing(found)) => return Err(newer(found)),
        other => other?,
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
            path: path.display().to_string(),
            reason: e.to_string(),
        }),
        Err(e) => Err(e.into()),
    }
}

fn max_pages(pages: u32) -> sqlx::AssertSqlSafe<String> {
    // A number, not user text; PRAGMA takes no bound parameters.
    sqlx::AssertSqlSafe(format!("PRAGMA max_page_count = {pages}"))
}

fn match_record(r: &SqliteRow) -> Result<MatchRecord, StoreError> {
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
    conn: &mut SqliteConnection,
    id: i64,
    seq: u64,
    event: &NewEvent,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO events (match_id, seq, at, body) VALUES (?1, ?2, ?3, ?4)")
        .bind(id)
        .bind(to_i64("event number", seq)?)
        .bind(to_i64("time", event.at)?)
        .bind(&event.body)
        .execute(conn)
        .await?;
    Ok(())
}
