//! The databases the store, runtime and restart tests run on: a SQLite file in a
//! temporary folder, and a fresh PostgreSQL database in a throwaway cluster that this
//! test process starts itself (initdb and pg_ctl on 127.0.0.1, in a temporary folder,
//! stopped when the process ends). One cluster serves the whole test binary; each test
//! gets a database of its own (`CREATE DATABASE` with a unique name).
//!
//! `MONDO_SKIP_POSTGRES=1` leaves PostgreSQL out (said once on stderr). Without it, a
//! machine with no PostgreSQL binaries FAILS the tests, saying how to install them or
//! skip: a skip nobody asked for would hide that half the store went untested. The
//! binaries are looked for in `MONDO_POSTGRES_BIN`, then /usr/lib/postgresql/*/bin
//! (Debian's `postgresql` package), then PATH. Run as root, the cluster runs as the
//! `postgres` user (PostgreSQL refuses to run as root).

use mondo::store::Location;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

/// A database for one test; a SQLite one's folder goes with it.
pub struct TestDb {
    pub location: Location,
    /// "sqlite" or "postgres", for assertion messages.
    pub name: &'static str,
    _dir: Option<tempfile::TempDir>,
}

impl TestDb {
    pub fn is_postgres(&self) -> bool {
        self.location.is_postgres()
    }

    /// The store on it, opened (and migrated).
    pub async fn open(&self) -> mondo::store::Store {
        mondo::store::Store::connect(&self.location)
            .await
            .unwrap_or_else(|e| panic!("the {} store opens: {e}", self.name))
    }

    /// Runs `sql` on the database over a connection of its own, beside any store open
    /// on it: what another program does to it, or what time passing would.
    pub async fn execute(&self, sql: &str) {
        sqlx::any::install_default_drivers();
        let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&self.url())
            .await
            .unwrap_or_else(|e| panic!("the {} database opens: {e}", self.name));
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&mut conn)
            .await
            .unwrap_or_else(|e| panic!("{}: {sql}: {e}", self.name));
        sqlx::Connection::close(conn).await.unwrap();
    }

    /// The number `sql` answers, asked over a connection of its own.
    pub async fn count(&self, sql: &str) -> i64 {
        sqlx::any::install_default_drivers();
        let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&self.url())
            .await
            .unwrap_or_else(|e| panic!("the {} database opens: {e}", self.name));
        let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .fetch_one(&mut conn)
            .await
            .unwrap_or_else(|e| panic!("{}: {sql}: {e}", self.name));
        sqlx::Connection::close(conn).await.unwrap();
        n
    }

    /// The URL a connection of its own opens (a test cluster's has no password).
    pub fn url(&self) -> String {
        match &self.location {
            Location::Sqlite(path) => format!("sqlite:{}?mode=rw", path.display()),
            Location::Postgres(url) => url.clone(),
        }
    }

    /// A SQLite database in a fresh temporary folder.
    pub fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("a temporary directory");
        TestDb {
            location: Location::Sqlite(dir.path().join("mondo.db")),
            name: "sqlite",
            _dir: Some(dir),
        }
    }

    /// A fresh, empty PostgreSQL database, or `None` if `MONDO_SKIP_POSTGRES` is set.
    pub fn postgres() -> Option<TestDb> {
        let cluster = cluster()?;
        let n = NEXT_DB.fetch_add(1, Ordering::Relaxed);
        let name = format!("mondo_test_{}_{n}", std::process::id());
        cluster.psql(&format!("CREATE DATABASE {name}"));
        Some(TestDb {
            location: Location::Postgres(format!(
                "postgres://postgres@127.0.0.1:{}/{name}",
                cluster.port
            )),
            name: "postgres",
            _dir: None,
        })
    }
}

/// Both databases (SQLite first), PostgreSQL unless skipped.
pub fn each() -> Vec<TestDb> {
    let mut dbs = vec![TestDb::sqlite()];
    dbs.extend(TestDb::postgres());
    dbs
}

static NEXT_DB: AtomicU32 = AtomicU32::new(0);

struct Cluster {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    /// Run PostgreSQL's programs as the `postgres` user (this process is root).
    as_postgres: bool,
}

/// The cluster's folder, for the stop at exit.
static STARTED: Mutex<Option<(PathBuf, PathBuf, bool)>> = Mutex::new(None);

fn cluster() -> Option<&'static Cluster> {
    static CLUSTER: OnceLock<Option<Cluster>> = OnceLock::new();
    CLUSTER
        .get_or_init(|| {
            if std::env::var_os("MONDO_SKIP_POSTGRES").is_some_and(|v| !v.is_empty() && v != "0") {
                eprintln!(
                    "note: MONDO_SKIP_POSTGRES is set: the store, runtime and restart tests \
                     run on SQLite only, not on PostgreSQL"
                );
                return None;
            }
            Some(start())
        })
        .as_ref()
}

fn find_bin() -> PathBuf {
    if let Some(dir) = std::env::var_os("MONDO_POSTGRES_BIN") {
        return PathBuf::from(dir);
    }
    let mut debian: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|p| p.join("initdb").is_file())
        .collect();
    debian.sort();
    if let Some(newest) = debian.pop() {
        return newest;
    }
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .find(|d| d.join("initdb").is_file() && d.join("pg_ctl").is_file());
    on_path.unwrap_or_else(|| {
        panic!(
            "PostgreSQL's initdb and pg_ctl were not found (in MONDO_POSTGRES_BIN, \
             /usr/lib/postgresql/*/bin or PATH): the store tests run on PostgreSQL too. \
             Install it (Debian/Ubuntu: apt-get install postgresql) or set \
             MONDO_SKIP_POSTGRES=1 to run them on SQLite only"
        )
    })
}

fn id_of(flag: &str) -> u32 {
    let out = Command::new("id")
        .args([flag, "postgres"])
        .output()
        .expect("`id postgres` runs");
    assert!(
        out.status.success(),
        "running as root, the PostgreSQL tests need a `postgres` user to run the cluster \
         as (Debian's postgresql package makes one), or set MONDO_SKIP_POSTGRES=1"
    );
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("a numeric id")
}

/// A new cluster, started.
fn init() -> Cluster {
    let bin = find_bin();
    let dir = tempfile::Builder::new()
        .prefix("mondo-pg-")
        .tempdir()
        .expect("a temporary directory")
        .keep();
    // Root owns what it creates: PostgreSQL refuses to run as root.
    let as_postgres = std::fs::metadata(&dir).expect("the folder").uid() == 0;
    if as_postgres {
        std::os::unix::fs::chown(&dir, Some(id_of("-u")), Some(id_of("-g")))
            .expect("the cluster's folder given to postgres");
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let cluster = Cluster {
        bin,
        dir,
        port,
        as_postgres,
    };
    let data = cluster.dir.join("data");
    cluster.run(
        "initdb",
        &[
            "-D",
            path_str(&data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        ],
    );
    // No fsync: a throwaway cluster (the store's own durability is SQLite's and the
    // server's business, not these tests').
    let options = format!(
        "-h 127.0.0.1 -p {port} -k {} -F -c max_connections=300",
        cluster.dir.display()
    );
    std::fs::write(cluster.dir.join("options"), &options).expect("the options saved");
    cluster.pg_ctl(&["start"]);
    cluster
}

/// The cluster the whole test binary shares, stopped at exit.
fn start() -> Cluster {
    let cluster = init();
    let as_postgres = cluster.as_postgres;
    *STARTED.lock().unwrap_or_else(|p| p.into_inner()) =
        Some((cluster.bin.clone(), cluster.dir.clone(), as_postgres));
    unsafe extern "C" {
        fn atexit(callback: extern "C" fn()) -> i32;
    }
    // SAFETY: atexit only records the function; `stop` touches nothing that is gone at
    // exit (the mutex is a static).
    unsafe { atexit(stop) };
    cluster
}

/// Stops the cluster and removes its folder (at the test process's exit).
extern "C" fn stop() {
    let started = STARTED.lock().unwrap_or_else(|p| p.into_inner()).take();
    if let Some((bin, dir, as_postgres)) = started {
        let data = dir.join("data");
        let _ = command(&bin, "pg_ctl", as_postgres)
            .args(["-D", path_str(&data), "-m", "immediate", "-w", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&dir);
    }
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

fn command(bin: &Path, program: &str, as_postgres: bool) -> Command {
    let program = bin.join(program);
    if as_postgres {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

impl Cluster {
    fn run(&self, program: &str, args: &[&str]) {
        let out = command(&self.bin, program, self.as_postgres)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{program} could not be run: {e}"));
        assert!(
            out.status.success(),
            "{program} {args:?} failed: {}{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(self.dir.join("log")).unwrap_or_default()
        );
    }

    /// `pg_ctl ACTION` on the cluster; `start` with the options it was made with.
    fn pg_ctl(&self, action: &[&str]) {
        let data = self.dir.join("data");
        let log = self.dir.join("log");
        let options = std::fs::read_to_string(self.dir.join("options")).unwrap_or_default();
        let mut args = vec!["-D", path_str(&data)];
        if action == ["start"] {
            args.extend(["-o", options.trim(), "-l", path_str(&log), "-w"]);
        }
        args.extend_from_slice(action);
        self.run("pg_ctl", &args);
    }

    fn psql(&self, sql: &str) {
        let port = self.port.to_string();
        self.run(
            "psql",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &port,
                "-U",
                "postgres",
                "-d",
                "postgres",
                "-v",
                "ON_ERROR_STOP=1",
                "-q",
                "-c",
                sql,
            ],
        );
    }
}

/// A cluster of one test's own, which it may stop and start again (a PostgreSQL
/// restart) without touching the other tests' databases; stopped and removed when
/// dropped. `None` under `MONDO_SKIP_POSTGRES`.
pub struct OwnCluster(Cluster);

impl OwnCluster {
    pub fn start() -> Option<OwnCluster> {
        cluster()?;
        Some(OwnCluster(init()))
    }

    /// A fresh database on it.
    pub fn db(&self) -> TestDb {
        let name = format!("mondo_own_{}", NEXT_DB.fetch_add(1, Ordering::Relaxed));
        self.0.psql(&format!("CREATE DATABASE {name}"));
        TestDb {
            location: Location::Postgres(format!(
                "postgres://postgres@127.0.0.1:{}/{name}",
                self.0.port
            )),
            name: "postgres",
            _dir: None,
        }
    }

    /// Stops the server (`pg_ctl stop -m fast`: every connection is cut).
    pub fn stop(&self) {
        self.0.pg_ctl(&["-m", "fast", "-w", "stop"]);
    }

    /// Starts it again on the same port, with its data.
    pub fn restart(&self) {
        self.0.pg_ctl(&["start"]);
    }
}

impl Drop for OwnCluster {
    fn drop(&mut self) {
        let data = self.0.dir.join("data");
        let _ = command(&self.0.bin, "pg_ctl", self.0.as_postgres)
            .args(["-D", path_str(&data), "-m", "immediate", "-w", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.0.dir);
    }
}

/// An event to log: when it happened on the game clock, and its JSON.
pub fn ev(at: u64, body: &str) -> mondo::store::NewEvent {
    mondo::store::NewEvent {
        at,
        body: body.to_string(),
    }
}

/// A match of kind "race" (no server or channel, settings `{}`) whose log opens with
/// `first`.
pub async fn race_match(
    store: &mondo::store::Store,
    seed: u64,
    players: &[u64],
    first: mondo::store::NewEvent,
) -> mondo::store::MatchId {
    let new = mondo::store::NewMatch {
        kind: "race",
        guild: None,
        channel: None,
        seed,
        settings: "{}",
        players,
    };
    store.create_match(&new, &first).await.unwrap()
}
