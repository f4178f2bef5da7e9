//! The database's connections, and getting them back after an I/O error.
//!
//! An I/O error at a commit (an fsync that fails, a disk that went away) leaves it
//! unknown whether the transaction is in the log: SQLite may have written it to the
//! WAL and then failed to sync, and a later open (after a kill, or now) may find it
//! there. So after one the store closes every connection and opens them afresh (SQLite
//! then reads the WAL again, as a new process would), and asks the database what it
//! holds: only that is the truth, and only that is said.
//!
//! Tests make the faults happen on purpose: [`Fault`] (an I/O error before or after a
//! commit, a database that cannot be read back), SQLite's page limit (a full disk), a
//! short busy timeout (another program holding the write lock).

use super::location::Location;
use super::types::{Durability, StoreError};
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode};
use sqlx::{AnyConnection, AnyPool};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::RwLock;

/// Which database a store is on: the SQL is the same, a few settings are not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A fault the store makes happen on purpose (tests and `scripts/fault/`), in the
/// order given, each once.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The next commit of appended events fails as an I/O error: `written` says whether
    /// the transaction reached the log first (an fsync that fails after the write).
    Io { written: bool },
    /// The next commit of appended events fails as on a full disk (rolled back).
    Full,
    /// The next read of a match's log fails (as an I/O error would).
    Unreadable,
    /// The next commit of appended events never comes: its transaction stays open
    /// after its writes, holding their locks, as in a process paused inside it (a
    /// stalled VM). [`crate::Store::holding`] says when it is open.
    Hold,
}

/// PostgreSQL's limits on each of the store's connections (SQLite has none of
/// them): how long a statement waits for a lock another transaction holds, how long
/// one statement may run, and how long a session may sit inside a transaction doing
/// nothing (a process paused there, by a stalled VM or a debugger, has its session
/// ended by the server, which lets go of its locks). See docs/scale.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    pub lock_ms: u64,
    pub statement_ms: u64,
    pub idle_in_transaction_ms: u64,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            lock_ms: 2_000,
            statement_ms: 15_000,
            idle_in_transaction_ms: 5_000,
        }
    }
}

impl Timeouts {
    /// The `SET` statements that put them on a connection (numbers only: no text from
    /// outside is built into them).
    fn statements(&self) -> [sqlx::AssertSqlSafe<String>; 3] {
        let set = |name: &str, ms: u64| sqlx::AssertSqlSafe(format!("SET {name} = {ms}"));
        [
            set("lock_timeout", self.lock_ms),
            set("statement_timeout", self.statement_ms),
            set(
                "idle_in_transaction_session_timeout",
                self.idle_in_transaction_ms,
            ),
        ]
    }
}

/// The two pools: reads (many, read-only) and the one writer. On PostgreSQL both are
/// one pool: the server takes many writers, and reads never wait for them.
#[derive(Clone)]
pub(super) struct Pools {
    pub read: AnyPool,
    pub write: AnyPool,
}

/// How long PostgreSQL's pool waits for a connection before the request fails as
/// [`StoreError::Unreachable`], and opening the store waits for the server. sqlx backs
/// off between tries to connect up to a fifth of this: 1 s, so a connection comes back
/// within a second of the server's return.
pub(super) const CONNECT_WAIT: Duration = Duration::from_secs(5);

/// Tries one connection to the PostgreSQL server at `url`, for at most
/// [`CONNECT_WAIT`]: an unreachable server is said with its host, port and why (the
/// pool alone would only say it timed out, after its wait).
async fn reach_postgres(url: &str) -> Result<(), StoreError> {
    use sqlx::ConnectOptions;
    let options = sqlx::postgres::PgConnectOptions::from_str(url)?;
    let unreachable = |reason: String| StoreError::NoServer {
        host: options.get_host().to_string(),
        port: options.get_port(),
        secs: CONNECT_WAIT.as_secs(),
        reason,
    };
    match tokio::time::timeout(CONNECT_WAIT, options.connect()).await {
        Ok(Ok(conn)) => {
            let _ = sqlx::Connection::close(conn).await;
            Ok(())
        }
        // The server answered with an error of its own (no such database, a refused
        // login): said as it is, by the pool's connection below.
        Ok(Err(sqlx::Error::Database(_))) => Ok(()),
        Ok(Err(e)) => Err(unreachable(e.to_string())),
        Err(_) => Err(unreachable("no answer".into())),
    }
}

/// How long reopening waits for the old connections to close (see `Db::reopen`).
const CLOSE_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

pub(super) struct Db {
    pub location: Location,
    /// The SQLite file (empty on PostgreSQL).
    pub path: PathBuf,
    pub backend: Backend,
    durability: Durability,
    timeouts: Timeouts,
    read_only: bool,
    /// `Err`: the last reopening failed (why); the next use tries again.
    pools: RwLock<Result<Pools, String>>,
    /// The page cap of `Store::limit_pages` (0: none).
    page_limit: Arc<AtomicU32>,
    /// The writer's busy timeout in ms, if a test set one (0: the options' own).
    busy_ms: Arc<AtomicU64>,
    /// A rating period, ms (`Store::set_rating_period_days`).
    rating_period_ms: AtomicU64,
    faults: Mutex<VecDeque<Fault>>,
    /// Raised once a transaction is held open by [`Fault::Hold`].
    pub holding: tokio::sync::watch::Sender<bool>,
}

impl Db {
    pub async fn open(
        location: Location,
        durability: Durability,
        timeouts: Timeouts,
        read_only: bool,
    ) -> Result<Db, StoreError> {
        sqlx::any::install_default_drivers();
        let page_limit = Arc::new(AtomicU32::new(0));
        let busy_ms = Arc::new(AtomicU64::new(0));
        let backend = match location {
            Location::Sqlite(_) => Backend::Sqlite,
            Location::Postgres(_) => Backend::Postgres,
        };
        let mut db = Db {
            path: location
                .sqlite_path()
                .map(Path::to_path_buf)
                .unwrap_or_default(),
            location,
            backend,
            durability,
            timeouts,
            read_only,
            pools: RwLock::new(Err(String::new())),
            page_limit,
            busy_ms,
            rating_period_ms: AtomicU64::new(
                u64::from(mondo_rules::ratings::PERIOD_DAYS) * mondo_rules::ratings::DAY_MS,
            ),
            faults: Mutex::new(VecDeque::new()),
            holding: tokio::sync::watch::Sender::new(false),
        };
        db.pools = RwLock::new(Ok(db.connect().await?));
        Ok(db)
    }

    async fn connect(&self) -> Result<Pools, StoreError> {
        connect(
            &self.location,
            self.durability,
            self.timeouts,
            self.read_only,
            &self.page_limit,
            &self.busy_ms,
        )
        .await
    }

    /// The pools as they are now (they change when the database is reopened). If the
    /// last reopening failed, it is tried again now.
    pub async fn pools(&self) -> Result<Pools, StoreError> {
        if let Ok(p) = &*self.pools.read().await {
            return Ok(p.clone());
        }
        let mut pools = self.pools.write().await;
        if pools.is_err() {
            *pools = self
                .connect()
                .await
                .map_err(|e| format!("it could not be reopened: {}", short(&e)));
        }
        match &*pools {
            Ok(p) => Ok(p.clone()),
            Err(reason) => Err(StoreError::Unavailable(reason.clone())),
        }
    }

    /// Closes every connection, then opens them again: SQLite reads its WAL afresh, as
    /// a new process would. Callers wait meanwhile.
    pub async fn reopen(&self) -> Result<(), StoreError> {
        let mut pools = self.pools.write().await;
        if let Ok(old) = &*pools {
            let closing = async {
                old.read.close().await;
                old.write.close().await;
            };
            // sqlx's `close` waits until every permit of the pool is back; after an
            // I/O error a connection's permit can fail to come back although the
            // connection itself is gone (sqlx returns connections from a spawned
            // task), and the reopening, with every command behind it, waited forever.
            // The old connections are closed by then or closing: go on without them.
            if tokio::time::timeout(CLOSE_WAIT, closing).await.is_err() {
                tracing::warn!(
                    "the old connections did not all come back within {CLOSE_WAIT:?}; \
                     opening new ones anyway"
                );
            }
        }
        match self.connect().await {
            Ok(fresh) => {
                *pools = Ok(fresh);
                Ok(())
            }
            Err(e) => {
                let reason = format!("it could not be reopened: {}", short(&e));
                *pools = Err(reason.clone());
                Err(StoreError::Unavailable(reason))
            }
        }
    }

    /// A write transaction (see `Store::begin_write`).
    pub async fn begin_write(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, StoreError> {
        let write = self.pools().await?.write;
        Ok(match self.backend {
            Backend::Sqlite => write.begin_with("BEGIN IMMEDIATE").await?,
            Backend::Postgres => write.begin().await?,
        })
    }

    pub fn limit_pages(&self, pages: u32) {
        self.page_limit.store(pages, Ordering::Relaxed);
    }

    /// A rating period, ms: how fast an idle player's deviation grows.
    pub fn rating_period_ms(&self) -> u64 {
        self.rating_period_ms.load(Ordering::Relaxed)
    }

    pub fn set_rating_period_ms(&self, ms: u64) {
        self.rating_period_ms.store(ms.max(1), Ordering::Relaxed);
    }

    pub fn set_busy_ms(&self, ms: u64) {
        self.busy_ms.store(ms, Ordering::Relaxed);
    }

    pub fn inject(&self, faults: impl IntoIterator<Item = Fault>) {
        self.lock_faults().extend(faults);
    }

    /// The next fault if it is one of `wanted`'s kind.
    pub fn take_fault(&self, wanted: fn(&Fault) -> bool) -> Option<Fault> {
        let mut faults = self.lock_faults();
        if faults.front().is_some_and(wanted) {
            faults.pop_front()
        } else {
            None
        }
    }

    fn lock_faults(&self) -> std::sync::MutexGuard<'_, VecDeque<Fault>> {
        self.faults.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// What went wrong, in words, with a full disk named as such (SQLite says "disk
    /// I/O error" when the file it cannot grow is its shared memory).
    pub fn describe(&self, e: &StoreError) -> String {
        if self.backend == Backend::Sqlite && disk_full(&self.path) {
            "the disk is full".into()
        } else {
            short(e)
        }
    }
}

/// A store error in a few words: SQLite's own message and code ("disk I/O error, code
/// 778") rather than sqlx's "error returned from database: ...".
fn short(e: &StoreError) -> String {
    match e {
        StoreError::Db(sqlx::Error::Database(d)) => match d.code() {
            Some(code) => format!("{}, code {code}", d.message()),
            None => d.message().to_string(),
        },
        StoreError::Db(e) => e.to_string(),
        other => other.to_string(),
    }
}

/// How long SQLite waits for another program's write lock unless a test says.
const BUSY_MS: u64 = 10_000;

async fn connect(
    location: &Location,
    durability: Durability,
    timeouts: Timeouts,
    read_only: bool,
    page_limit: &Arc<AtomicU32>,
    busy_ms: &Arc<AtomicU64>,
) -> Result<Pools, StoreError> {
    let options = |read_only| {
        AnyConnectOptions::from_str(&location.driver_url(read_only)?).map_err(StoreError::from)
    };
    if let Location::Postgres(url) = location {
        reach_postgres(url).await?;
        // One pool: PostgreSQL takes concurrent writers itself. `Process` durability
        // is `synchronous_commit = off` (a crash of the server, not of Mondo, may lose
        // the last commits); a read-only store refuses every write in the server. Each
        // connection gets the limits of `timeouts`.
        let pool = AnyPoolOptions::new()
            .max_connections(if read_only { 2 } else { 8 })
            .acquire_timeout(CONNECT_WAIT)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    for set in timeouts.statements() {
                        sqlx::query(set).execute(&mut *conn).await?;
                    }
                    if read_only {
                        sqlx::query("SET default_transaction_read_only = on")
                            .execute(&mut *conn)
                            .await?;
                    }
                    if durability == Durability::Process {
                        sqlx::query("SET synchronous_commit = off")
                            .execute(&mut *conn)
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options(false)?)
            .await?;
        return Ok(Pools {
            read: pool.clone(),
            write: pool,
        });
    }
    let busy_of = |busy: &Arc<AtomicU64>| match busy.load(Ordering::Relaxed) {
        0 => BUSY_MS,
        ms => ms,
    };
    if read_only {
        let busy = busy_ms.clone();
        let read = AnyPoolOptions::new()
            .max_connections(2)
            .after_connect(move |conn, _| {
                let busy = busy_of(&busy);
                Box::pin(async move { sqlite_settings(conn, &[("busy_timeout", busy)]).await })
            })
            .connect_with(options(true)?)
            .await?;
        return Ok(Pools {
            write: read.clone(),
            read,
        });
    }
    // A first connection of SQLite's own, which puts the file in WAL mode (which
    // stays with the file) and says plainly why it cannot be opened (a full disk, a
    // file that is not a database): errors in the pool's `after_connect` are only
    // retried until a time-out.
    if let Location::Sqlite(path) = location {
        use sqlx::ConnectOptions;
        let first = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .busy_timeout(Duration::from_millis(busy_of(busy_ms)))
            .connect()
            .await?;
        sqlx::Connection::close(first).await?;
    }
    // One writer connection: writes queue in the pool instead of fighting over
    // SQLite's lock.
    let write = AnyPoolOptions::new()
        .max_connections(1)
        .min_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
        .after_connect({
            let limit = page_limit.clone();
            let busy = busy_ms.clone();
            move |conn, _| {
                let pages = limit.load(Ordering::Relaxed);
                let busy = busy_of(&busy);
                Box::pin(async move {
                    let synchronous = match durability {
                        Durability::Process => 1,
                        Durability::Power => 2,
                    };
                    let mut settings = vec![
                        ("synchronous", synchronous),
                        ("foreign_keys", 1),
                        ("busy_timeout", busy),
                    ];
                    if pages > 0 {
                        settings.push(("max_page_count", pages.into()));
                    }
                    sqlite_settings(conn, &settings).await
                })
            }
        })
        // A failed COMMIT (a full disk) can leave sqlx counting a transaction that
        // SQLite already rolled back, and every later BEGIN then fails. A connection
        // that comes back still in a transaction is closed and a fresh one opened
        // (closing rolls back whatever SQLite still held). The query first lets the
        // dropped transaction's queued ROLLBACK run.
        .after_release(|conn, _| {
            Box::pin(async move {
                sqlx::query("SELECT 1").execute(&mut *conn).await?;
                Ok(!sqlx::Connection::is_in_transaction(conn))
            })
        })
        .connect_with(options(false)?)
        .await?;
    let busy = busy_ms.clone();
    let read = AnyPoolOptions::new()
        .max_connections(4)
        .after_connect(move |conn, _| {
            let busy = busy_of(&busy);
            Box::pin(async move { sqlite_settings(conn, &[("busy_timeout", busy)]).await })
        })
        .connect_with(options(true)?)
        .await;
    match read {
        Ok(read) => Ok(Pools { read, write }),
        Err(e) => {
            write.close().await;
            Err(e.into())
        }
    }
}

/// Sets SQLite PRAGMAs on a new connection.
async fn sqlite_settings(
    conn: &mut AnyConnection,
    settings: &[(&str, u64)],
) -> Result<(), sqlx::Error> {
    for &(name, value) in settings {
        sqlx::query(pragma(name, value)).execute(&mut *conn).await?;
    }
    Ok(())
}

/// `PRAGMA name = value` (PRAGMA takes no bound parameters; the value is a number).
pub(super) fn pragma(name: &str, value: u64) -> sqlx::AssertSqlSafe<String> {
    sqlx::AssertSqlSafe(format!("PRAGMA {name} = {value}"))
}

/// Below this much free space, an I/O error is taken to be the disk being full.
const NEARLY_FULL: u64 = 256 * 1024;

/// Whether the filesystem holding `path` (or the folder it would be created in) has
/// no room left for SQLite to grow its files.
pub(super) fn disk_full(path: &Path) -> bool {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match nix::sys::statvfs::statvfs(folder) {
        Ok(s) => {
            // The field types differ between systems (u32 or u64).
            #[allow(clippy::useless_conversion)]
            let (blocks, size) = (
                u64::try_from(s.blocks_available()).unwrap_or(u64::MAX),
                u64::try_from(s.fragment_size()).unwrap_or(u64::MAX),
            );
            blocks.saturating_mul(size) < NEARLY_FULL
        }
        Err(_) => false,
    }
}
