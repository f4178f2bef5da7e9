//! Mondo opens only its own databases: a new SQLite store carries Mondo's
//! `application_id` in its header ([`APPLICATION_ID`]), a PostgreSQL one a marker
//! table ([`MARKER`]). A file or database that has tables but is not Mondo's is
//! refused before anything is written to it; an empty one is welcome; a store of an
//! older Mondo (without the mark, known by its migrations and its `matches` table) is
//! stamped as it is brought up to date. See docs/developers.md, "Whose database".

use super::StoreError;
use super::location::Location;
use sqlx::AnyPool;

/// SQLite's `PRAGMA application_id` of a Mondo store: "MOND" in ASCII, big-endian
/// (0x4D4F4E44); `file` says "SQLite 3.x database, application id 1297043012".
pub const APPLICATION_ID: i32 = 0x4D4F_4E44;

/// The PostgreSQL table that marks a Mondo store (one row holding [`APPLICATION_ID`]).
pub const MARKER: &str = "mondo_store";

/// What a database is, as far as Mondo is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whose {
    /// No tables: a new store is made in it.
    Empty,
    /// Marked as Mondo's.
    Mondo,
    /// A Mondo store of a version before the mark: stamped when brought up to date.
    OlderMondo,
}

/// Whose a database is from its mark and its tables' names; `Err` says why it is
/// not Mondo's.
pub fn whose(mark: Option<i64>, tables: &[String]) -> Result<Whose, String> {
    let has = |name: &str| tables.iter().any(|t| t == name);
    match mark {
        Some(id) if id == i64::from(APPLICATION_ID) => return Ok(Whose::Mondo),
        Some(0) | None => {}
        Some(other) => {
            return Err(format!(
                "its application id is {other} ({other:#x}), another program's; Mondo's is {APPLICATION_ID}"
            ));
        }
    }
    // Only sqlx's migrations table: a store another process is making right now.
    if tables.iter().all(|t| t == "_sqlx_migrations") {
        Ok(Whose::Empty)
    } else if has("_sqlx_migrations") && has("matches") && has("events") {
        Ok(Whose::OlderMondo)
    } else {
        let mut some: Vec<&str> = tables.iter().map(String::as_str).take(5).collect();
        if tables.len() > 5 {
            some.push("...");
        }
        Err(format!(
            "it has tables ({}) but not Mondo's mark",
            some.join(", ")
        ))
    }
}

/// The error for a database that is not Mondo's: nothing in it was changed.
pub fn refused(location: &Location, why: String) -> StoreError {
    StoreError::NotOurs {
        path: location.to_string(),
        why,
    }
}

/// Whose the SQLite file at `location` is, read without writing anything (read only,
/// as the readers open it): a missing or empty file is [`Whose::Empty`].
pub async fn sqlite_file(location: &Location) -> Result<Whose, StoreError> {
    use sqlx::ConnectOptions;
    use std::str::FromStr;
    let Some(path) = location.sqlite_path() else {
        return Ok(Whose::Mondo);
    };
    if std::fs::metadata(path).map_or(true, |m| m.len() == 0) {
        return Ok(Whose::Empty);
    }
    let url = location.driver_url(true)?;
    let mut conn = sqlx::sqlite::SqliteConnectOptions::from_str(&url)?
        .connect()
        .await?;
    let mark: i64 = sqlx::query_scalar("PRAGMA application_id")
        .fetch_one(&mut conn)
        .await?;
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .fetch_all(&mut conn)
    .await?;
    sqlx::Connection::close(conn).await?;
    whose(Some(mark), &tables).map_err(|why| refused(location, why))
}

/// Whose the PostgreSQL database (its current schema) on `pool` is.
pub async fn postgres(location: &Location, pool: &AnyPool) -> Result<Whose, StoreError> {
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::TEXT FROM information_schema.tables \
         WHERE table_schema = current_schema() ORDER BY table_name",
    )
    .fetch_all(pool)
    .await?;
    let mark = if tables.iter().any(|t| t == MARKER) {
        let id: Option<i64> = sqlx::query_scalar("SELECT MAX(application_id) FROM mondo_store")
            .fetch_one(pool)
            .await?;
        Some(id.unwrap_or(0))
    } else {
        None
    };
    let tables: Vec<String> = tables.into_iter().filter(|t| t != MARKER).collect();
    whose(mark, &tables).map_err(|why| refused(location, why))
}

/// Marks a SQLite store as Mondo's (after its migrations ran). PostgreSQL's marker
/// table is a migration of its own (`migrations/postgres/*_mondo_store.sql`), so that
/// processes starting together on one database make it once.
pub async fn stamp(pool: &AnyPool) -> Result<(), StoreError> {
    // SQLite takes no bound value in a PRAGMA: APPLICATION_ID, written out.
    sqlx::query("PRAGMA application_id = 1297043012")
        .execute(pool)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_marks_written_are_the_constants() {
        assert_eq!(APPLICATION_ID, 1297043012);
        assert_eq!(&APPLICATION_ID.to_be_bytes(), b"MOND");
        assert_eq!(MARKER, "mondo_store");
    }

    #[test]
    fn a_database_is_mondos_by_its_mark_or_its_migrations() {
        let mondo = names(&["_sqlx_migrations", "events", "matches", "players"]);
        let ours = Some(i64::from(APPLICATION_ID));
        assert_eq!(whose(ours, &mondo), Ok(Whose::Mondo));
        assert_eq!(whose(ours, &[]), Ok(Whose::Mondo));
        assert_eq!(whose(Some(0), &[]), Ok(Whose::Empty));
        assert_eq!(whose(None, &[]), Ok(Whose::Empty));
        let making = names(&["_sqlx_migrations"]);
        assert_eq!(whose(None, &making), Ok(Whose::Empty), "being made");
        assert_eq!(whose(Some(0), &mondo), Ok(Whose::OlderMondo));
        assert_eq!(whose(None, &mondo), Ok(Whose::OlderMondo));
        let e = whose(Some(0x0f055112), &mondo).unwrap_err();
        assert!(e.contains("another program's"), "{e}");
        let e = whose(Some(0), &names(&["notes", "tags"])).unwrap_err();
        assert!(e.contains("(notes, tags) but not Mondo's mark"), "{e}");
        // Another program that uses sqlx's migrations too.
        let e = whose(Some(0), &names(&["_sqlx_migrations", "users"])).unwrap_err();
        assert!(e.contains("users"), "{e}");
        let many = names(&["a", "b", "c", "d", "e", "f"]);
        assert!(
            whose(None, &many)
                .unwrap_err()
                .contains("(a, b, c, d, e, ...)")
        );
    }
}
