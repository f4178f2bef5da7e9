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

use super::StoreError;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::RwLock;

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
}

/// The two pools: reads (many, read-only) and the one writer.
#[derive(Clone)]
pub(super) struct Pools {
    pub read: SqlitePool,
    pub write: SqlitePool,
}

pub(super) struct Db {
    pub path: PathBuf,
    options: SqliteConnectOptions,
    read_only: bool,
    /// `Err`: the last reopening failed (why); the next use tries again.
    pools: RwLock<Result<Pools, String>>,
    /// The page cap of `Store::limit_pages` (0: none).
    page_limit: Arc<AtomicU32>,
    /// The writer's busy timeout in ms, if a test set one (0: the options' own).
    busy_ms: Arc<AtomicU64>,
    faults: Mutex<VecDeque<Fault>>,
}

impl Db {
    pub async fn open(
        path: PathBuf,
        options: SqliteConnectOptions,
        read_only: bool,
    ) -> Result<Db, StoreError> {
        let page_limit = Arc::new(AtomicU32::new(0));
        let busy_ms = Arc::new(AtomicU64::new(0));
        let pools = connect(&options, read_only, &page_limit, &busy_ms).await?;
        Ok(Db {
            path,
            options,
            read_only,
            pools: RwLock::new(Ok(pools)),
            page_limit,
            busy_ms,
            faults: Mutex::new(VecDeque::new()),
        })
    }

    /// The pools as they are now (they change when the database is reopened). If the
    /// last reopening failed, it is tried again now.
    pub async fn pools(&self) -> Result<Pools, StoreError> {
        if let Ok(p) = &*self.pools.read().await {
            return Ok(p.clone());
        }
        let mut pools = self.pools.write().await;
        if pools.is_err() {
            *pools = connect(
                &self.options,
                self.read_only,
                &self.page_limit,
                &self.busy_ms,
            )
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
            old.read.close().await;
            old.write.close().await;
        }
        match connect(
            &self.options,
            self.read_only,
            &self.page_limit,
            &self.busy_ms,
        )
        .await
        {
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

    pub fn limit_pages(&self, pages: u32) {
        self.page_limit.store(pages, Ordering::Relaxed);
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
        if disk_full(&self.path) {
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

async fn connect(
    options: &SqliteConnectOptions,
    read_only: bool,
    page_limit: &Arc<AtomicU32>,
    busy_ms: &Arc<AtomicU64>,
) -> Result<Pools, StoreError> {
    if read_only {
        let read = SqlitePoolOptions::new()
            .max_connections(2)
            .connect_with(options.clone())
            .await?;
        return Ok(Pools {
            write: read.clone(),
            read,
        });
    }
    // One writer connection: writes queue in the pool instead of fighting over
    // SQLite's lock.
    let write = SqlitePoolOptions::new()
        .max_connections(1)
        .min_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
        .after_connect({
            let limit = page_limit.clone();
            let busy = busy_ms.clone();
            move |conn, _| {
                let pages = limit.load(Ordering::Relaxed);
                let busy = busy.load(Ordering::Relaxed);
                Box::pin(async move {
                    if pages > 0 {
                        sqlx::query(pragma("max_page_count", pages.into()))
                            .execute(&mut *conn)
                            .await?;
                    }
                    if busy > 0 {
                        sqlx::query(pragma("busy_timeout", busy))
                            .execute(&mut *conn)
                            .await?;
                    }
                    Ok(())
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
        .connect_with(options.clone())
        .await?;
    let read = SqlitePoolOptions::new()
        .max_connections(4)
        .connect_with(options.clone().read_only(true))
        .await;
    match read {
        Ok(read) => Ok(Pools { read, write }),
        Err(e) => {
            write.close().await;
            Err(e.into())
        }
    }
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
