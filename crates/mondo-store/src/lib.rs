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

mod challenges;
mod commands;
mod db;
mod discord;
mod drafts;
mod ending;
mod fence;
mod leases;
mod lobbies;
mod location;
mod lock;
mod ours;
mod owners;
mod path;
mod players;
mod seed;
mod servers;
mod shard_runners;
mod tournaments;
mod types;
mod writer;

pub use challenges::ChallengeRecord;
pub use commands::Routed;
pub use db::{Backend, Fault, Timeouts};
pub use discord::Posting;
pub use fence::Lease;
pub use lobbies::LobbyRecord;
pub use location::Location;
pub use lock::{LockError, RunLock, lock_for_running};
pub use ours::{APPLICATION_ID, MARKER as POSTGRES_MARKER};
pub use owners::Unowned;
pub use path::check_writable;
pub use ratings::{HistoryRow, RatingChange, RatingRow, Rebuilt, SoloRecord, server_of};
pub use seed::{SeedMatch, SeedPart};
pub use servers::{PoolRecord, ServerSettings};
pub use shard_runners::ShardRunner;
pub use tournaments::TournamentRecord;
pub use types::{
    Durability, MAX_JSON_DEPTH, MatchFilter, MatchId, MatchRecord, Millis, NewEvent, NewMatch,
    Status, StoreError, StoredEvent, from_json,
};
pub(crate) use types::{match_record, sqlite_code, to_i64, to_u64};

use sqlx::{AnyConnection, AnyPool, Row};
use std::fmt;
use std::path::Path;
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
        Store::connect_tuned(location, durability, Timeouts::default()).await
    }

    /// [`Store::connect_with`], with PostgreSQL's per-connection limits set to
    /// `timeouts` (SQLite ignores them).
    pub async fn connect_tuned(
        location: &Location,
        durability: Durability,
        timeouts: Timeouts,
    ) -> Result<Store, StoreError> {
        if let Location::Sqlite(path) = location {
            check_writable(path)?;
        }
        let opened = async {
            // Another program's file is refused before anything (even WAL mode) is
            // written to it.
            ours::sqlite_file(location).await?;
            let db = db::Db::open(location.clone(), durability, timeouts, false).await?;
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
        let db = db::Db::open(
            location.clone(),
            Durability::default(),
            Timeouts::default(),
            true,
        )
        .await?;
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
        if db.backend == Backend::Sqlite {
            let mark: i64 = sqlx::query_scalar("PRAGMA application_id")
                .fetch_one(&read)
                .await?;
            // It has Mondo's tables (above): only another program's mark refuses it.
            let mondo = ["_sqlx_migrations", "events", "matches"].map(String::from);
            if let Err(why) = ours::whose(Some(mark), &mondo) {
                read.close().await;
                return Err(ours::refused(location, why));
            }
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
        self.create_match_with(new, std::slice::from_ref(first))
            .await
    }

    /// Creates a match with its first events (seq 1, 2, ...), in one transaction.
    pub async fn create_match_with(
        &self,
        new: &NewMatch<'_>,
        events: &[NewEvent],
    ) -> Result<MatchId, StoreError> {
        let Some(first) = events.first() else {
            return Err(StoreError::Injected(
                "a match is created with its first event",
            ));
        };
        let last_at = to_i64("time", events.last().map_or(first.at, |e| e.at))?;
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
             last_seq, last_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        )
        .bind(new.kind)
        .bind(guild)
        .bind(channel)
        // The seed is any u64: stored bit for bit.
        .bind(new.seed as i64)
        .bind(new.settings)
        .bind(at)
        .bind(events.len() as i64)
        .bind(last_at)
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
        for (i, event) in events.iter().enumerate() {
            insert_event(&mut tx, id, i as u64 + 1, event).await?;
        }
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
        finish: Option<mondo_rules::rules::Finish>,
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
        finish: Option<mondo_rules::rules::Finish>,
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

    /// Whether a transaction is held open by [`Fault::Hold`] (it changes once).
    #[doc(hidden)]
    pub fn holding(&self) -> tokio::sync::watch::Receiver<bool> {
        self.db.holding.subscribe()
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
        Backend::Sqlite => sqlx::migrate!("../../migrations/sqlite"),
        Backend::Postgres => sqlx::migrate!("../../migrations/postgres"),
    };
    // Another program's database is refused before any migration touches it.
    if db.backend == Backend::Postgres {
        ours::postgres(&db.location, &write).await?;
    }
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
    drop(conn);
    match probe {
        Ok(_) => ours::stamp(&write).await,
        // SQLITE_READONLY, whatever its extended code; anything else (a busy database)
        // is not a question of permissions.
        Err(e) if sqlite_code(&e).is_some_and(|c| c & 0xff == 8) => Err(StoreError::ReadOnly {
            path: db.location.to_string(),
            reason: e.to_string(),
        }),
        Err(e) => Err(e.into()),
    }
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
