//! Mondo opens only its own databases: a new store carries Mondo's mark (SQLite's
//! `application_id`, a PostgreSQL marker table), another program's database is
//! refused with nothing changed, an empty file is welcome, and a store of an older
//! Mondo (no mark) is recognised and stamped.

use crate::stores::TestDb;
use mondo::store::{APPLICATION_ID, Location, POSTGRES_MARKER, Store, StoreError};
use sqlx::ConnectOptions;
use std::path::Path;

/// The application id in a SQLite file's header (bytes 68-71, big-endian).
fn application_id(path: &Path) -> i32 {
    let bytes = std::fs::read(path).unwrap();
    i32::from_be_bytes(bytes[68..72].try_into().unwrap())
}

/// A folder's files and their contents.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// Runs `sql` on a new SQLite file at `path` (another program's).
async fn sqlite_of_another_program(path: &Path, sql: &[&str]) {
    let mut conn = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .connect()
        .await
        .unwrap();
    for statement in sql {
        sqlx::query(sqlx::AssertSqlSafe(*statement))
            .execute(&mut conn)
            .await
            .unwrap();
    }
    sqlx::Connection::close(conn).await.unwrap();
}

#[tokio::test]
async fn a_new_store_and_an_empty_file_carry_mondos_application_id() {
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("new.db");
    Store::open(&new).await.unwrap().close().await;
    assert_eq!(application_id(&new), APPLICATION_ID);
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    Store::open(&empty).await.unwrap().close().await;
    assert_eq!(application_id(&empty), APPLICATION_ID);
    // And it opens again as Mondo's, read-only too.
    Store::open(&new).await.unwrap().close().await;
    Store::open_read_only(&new).await.unwrap().close().await;
}

#[tokio::test]
async fn a_store_of_an_older_mondo_is_recognised_and_stamped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    std::fs::copy("tests/data/store-v0.db", &path).unwrap();
    assert_eq!(application_id(&path), 0, "the fixture predates the mark");
    // A reader takes it as it is, and changes nothing.
    Store::open_read_only(&path).await.unwrap().close().await;
    assert_eq!(application_id(&path), 0);
    Store::open(&path).await.unwrap().close().await;
    assert_eq!(application_id(&path), APPLICATION_ID);
}

/// Another program's SQLite file, by its tables or by its own application id, is
/// refused by the store, `mondo play` and `mondo replay` with a line saying so, and
/// is left byte for byte as it was, with nothing beside it.
#[tokio::test]
async fn another_programs_sqlite_file_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("notes.db");
    sqlite_of_another_program(
        &tables,
        &[
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)",
            "INSERT INTO notes (text) VALUES ('keep me')",
        ],
    )
    .await;
    let marked = dir.path().join("marked.db");
    sqlite_of_another_program(&marked, &["PRAGMA application_id = 42"]).await;
    let before = snapshot(dir.path());
    for (path, why) in [
        (&tables, "it has tables (notes) but not Mondo's mark"),
        (
            &marked,
            "its application id is 42 (0x2a), another program's",
        ),
    ] {
        match Store::open(path).await {
            Err(e @ StoreError::NotOurs { .. }) => {
                let text = e.to_string();
                assert!(text.contains("is not a Mondo database"), "{text}");
                assert!(text.contains(why), "{text}");
                assert!(text.contains("it was left as it was"), "{text}");
            }
            Err(e) => panic!("{}: another error: {e}", path.display()),
            Ok(_) => panic!("{}: opened", path.display()),
        }
        let play = std::process::Command::new(env!("CARGO_BIN_EXE_mondo"))
            .args(["play", "--db"])
            .arg(path)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&play.stderr);
        assert_eq!(play.status.code(), Some(2), "{err}");
        assert!(err.contains(why), "{err}");
        let replay = std::process::Command::new(env!("CARGO_BIN_EXE_mondo"))
            .args(["replay", "1", "--db"])
            .arg(path)
            .output()
            .unwrap();
        assert!(!replay.status.success());
        let err = String::from_utf8_lossy(&replay.stderr);
        assert!(err.contains("is not a Mondo database"), "{err}");
    }
    assert_eq!(snapshot(dir.path()), before, "a refused file was changed");
}

/// PostgreSQL: a new store gets the marker table; a database with another program's
/// tables is refused, its tables untouched (no migration ran).
#[tokio::test]
async fn postgres_is_marked_and_another_programs_database_refused() {
    let Some(db) = TestDb::postgres() else {
        return;
    };
    let Location::Postgres(url) = &db.location else {
        unreachable!()
    };
    let store = db.open().await;
    store.close().await;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let id: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT application_id FROM {POSTGRES_MARKER}"
    )))
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(id, i64::from(APPLICATION_ID));
    pool.close().await;

    let other = TestDb::postgres().unwrap();
    let Location::Postgres(url) = &other.location else {
        unreachable!()
    };
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    sqlx::query("CREATE TABLE invoices (id BIGINT PRIMARY KEY)")
        .execute(&pool)
        .await
        .unwrap();
    match Store::connect(&other.location).await {
        Err(StoreError::NotOurs { why, .. }) => assert!(why.contains("invoices"), "{why}"),
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("opened"),
    }
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::TEXT FROM information_schema.tables \
         WHERE table_schema = current_schema() ORDER BY table_name",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(tables, ["invoices"], "the refused database was changed");
    pool.close().await;
}
