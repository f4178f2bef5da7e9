//! Group commit: one task takes every match's appends, writes as many as are waiting
//! in one transaction, commits once, then answers each. A thousand live matches then
//! cost a handful of commits per second instead of one per event, and each caller still
//! learns about its events only after they are durable.

use super::db::{Db, Fault};
use super::{MatchId, NewEvent, StoreError, to_i64, to_u64};
use sqlx::Row as _;
use sqlx::SqliteConnection;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

/// Appends waiting at most; more wait for the next transaction.
const MAX_BATCH: usize = 512;

pub(super) struct Append {
    pub id: MatchId,
    pub after: u64,
    pub events: Vec<NewEvent>,
    pub over: bool,
    /// What the match counts for, when `over`.
    pub finish: Option<crate::rules::Finish>,
    pub reply: oneshot::Sender<Result<u64, StoreError>>,
}

pub(super) fn spawn(db: Arc<Db>) -> (mpsc::Sender<Append>, JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(4 * MAX_BATCH);
    (tx, tokio::spawn(run(db, rx)))
}

async fn run(db: Arc<Db>, mut rx: mpsc::Receiver<Append>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let results = match commit_batch(&db, &batch).await {
            Ok(results) => results,
            // Committed or not, nobody knows: ask the log, freshly opened.
            Err(e) if e.is_io() => settle(&db, &batch, &e).await,
            // The database's own trouble (full, busy, closed): every append meets it.
            Err(e) if e.shared().is_some() => {
                batch.iter().filter_map(|_| e.shared()).map(Err).collect()
            }
            // A database error in one append: retry each alone, so only the appends at
            // fault fail.
            Err(_) => {
                let mut results = Vec::with_capacity(batch.len());
                for append in &batch {
                    results.push(match commit_one(&db, append).await {
                        Err(e) if e.is_io() => settle(&db, std::slice::from_ref(append), &e)
                            .await
                            .pop()
                            .unwrap_or(Err(StoreError::Closed)),
                        other => other,
                    });
                }
                results
            }
        };
        for (append, result) in batch.drain(..).zip(results) {
            let _ = append.reply.send(result);
        }
    }
}

/// After an I/O error at a commit: reopens the database and reads what its log holds
/// of each append. Recorded after all: its number; not there: `NotRecorded`; the log
/// unreadable: `MaybeRecorded` (it is said once it can be read).
async fn settle(db: &Db, batch: &[Append], e: &StoreError) -> Vec<Result<u64, StoreError>> {
    let reason = db.describe(e);
    tracing::error!(error = %e, %reason, "a commit failed with an I/O error; reopening the database to read what it holds");
    let reopened = db.reopen().await;
    let mut results = Vec::with_capacity(batch.len());
    for append in batch {
        let found = match &reopened {
            Ok(()) => recorded(db, append).await,
            Err(e) => Err(StoreError::Unavailable(e.to_string())),
        };
        results.push(match found {
            Ok(Some(last)) => {
                tracing::warn!(id = %append.id, last, "the events were recorded despite the error");
                Ok(last)
            }
            Ok(None) => Err(StoreError::NotRecorded {
                reason: reason.clone(),
            }),
            Err(StoreError::Conflict {
                id,
                expected,
                found,
            }) => Err(StoreError::Conflict {
                id,
                expected,
                found,
            }),
            Err(_) => Err(StoreError::MaybeRecorded {
                reason: reason.clone(),
            }),
        });
    }
    results
}

/// Whether `append`'s events are in the log as sent (`Some`: the last one's number),
/// not there (`None`), or the match moved on otherwise (`Conflict`).
async fn recorded(db: &Db, append: &Append) -> Result<Option<u64>, StoreError> {
    if db.take_fault(|f| *f == Fault::Unreadable).is_some() {
        return Err(StoreError::Injected(
            "the log cannot be read (a fault made on purpose)",
        ));
    }
    let read = db.pools().await?.read;
    let last = append.after + append.events.len() as u64;
    let rows = sqlx::query(
        "SELECT seq, at, body FROM events WHERE match_id = ?1 AND seq > ?2 AND seq <= ?3 \
         ORDER BY seq",
    )
    .bind(append.id.0)
    .bind(to_i64("event number", append.after)?)
    .bind(to_i64("event number", last)?)
    .fetch_all(&read)
    .await?;
    if rows.is_empty() {
        let found: Option<i64> = sqlx::query_scalar("SELECT last_seq FROM matches WHERE id = ?1")
            .bind(append.id.0)
            .fetch_optional(&read)
            .await?;
        return match found.map(to_u64) {
            Some(found) if found != append.after => Err(StoreError::Conflict {
                id: append.id,
                expected: append.after + 1,
                found,
            }),
            _ => Ok(None),
        };
    }
    let same = rows.len() == append.events.len()
        && rows.iter().zip(&append.events).all(|(r, e)| {
            r.try_get::<i64, _>("at").ok().map(to_u64) == Some(e.at)
                && r.try_get::<String, _>("body").ok().as_deref() == Some(e.body.as_str())
        });
    if same {
        Ok(Some(last))
    } else {
        Err(StoreError::Conflict {
            id: append.id,
            expected: append.after + 1,
            found: last,
        })
    }
}

/// One transaction for the whole batch: each append claims its event numbers (an
/// append whose match moved on is refused without touching the others), then one
/// multi-row INSERT writes the events of all the claimed ones (one statement rather
/// than one per event: each statement is a round trip to sqlx's SQLite thread). A
/// database error aborts the batch.
async fn commit_batch(
    db: &Db,
    batch: &[Append],
) -> Result<Vec<Result<u64, StoreError>>, StoreError> {
    let mut tx = db
        .pools()
        .await?
        .write
        .begin_with("BEGIN IMMEDIATE")
        .await?;
    let mut results = Vec::with_capacity(batch.len());
    let mut rows = Vec::new();
    for append in batch {
        match claim(&mut tx, append).await {
            Err(e @ (StoreError::Db(_) | StoreError::Full | StoreError::Busy)) => return Err(e),
            Ok(last) => {
                push_rows(&mut rows, append)?;
                results.push(Ok(last));
            }
            refused => results.push(refused),
        }
    }
    insert_events(&mut tx, &rows).await?;
    commit(db, tx).await?;
    Ok(results)
}

/// One append in a transaction of its own.
async fn commit_one(db: &Db, append: &Append) -> Result<u64, StoreError> {
    commit_batch(db, std::slice::from_ref(append))
        .await?
        .pop()
        .unwrap_or(Err(StoreError::Closed))
}

/// Commits, or meets the I/O error a test asked for ([`Fault::Io`]).
async fn commit(db: &Db, tx: sqlx::Transaction<'_, sqlx::Sqlite>) -> Result<(), StoreError> {
    match db.take_fault(|f| matches!(f, Fault::Io { .. } | Fault::Full)) {
        Some(Fault::Full) => {
            tx.rollback().await?;
            Err(StoreError::Full)
        }
        Some(Fault::Io { written: true }) => {
            tx.commit().await?;
            Err(StoreError::Injected(
                "disk I/O error (after writing; a fault made on purpose)",
            ))
        }
        Some(_) => {
            tx.rollback().await?;
            Err(StoreError::Injected(
                "disk I/O error (before writing; a fault made on purpose)",
            ))
        }
        None => Ok(tx.commit().await?),
    }
}

/// An event row to insert: match, number, time, body.
type Row<'a> = (i64, i64, i64, &'a str);

fn push_rows<'a>(rows: &mut Vec<Row<'a>>, append: &'a Append) -> Result<(), StoreError> {
    for (i, event) in append.events.iter().enumerate() {
        rows.push((
            append.id.0,
            to_i64("event number", append.after + 1 + i as u64)?,
            to_i64("time", event.at)?,
            &event.body,
        ));
    }
    Ok(())
}

/// Rows per INSERT: 4 parameters each, well under SQLite's limit on parameters.
const ROWS_PER_INSERT: usize = 1000;

async fn insert_events(conn: &mut SqliteConnection, rows: &[Row<'_>]) -> Result<(), StoreError> {
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        let mut sql = String::from("INSERT INTO events (match_id, seq, at, body) VALUES ");
        for i in 0..chunk.len() {
            sql.push_str(if i == 0 {
                "(?, ?, ?, ?)"
            } else {
                ", (?, ?, ?, ?)"
            });
        }
        // Only placeholders are built into the text; every value is bound.
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for &(id, seq, at, body) in chunk {
            query = query.bind(id).bind(seq).bind(at).bind(body);
        }
        query.execute(&mut *conn).await?;
    }
    Ok(())
}

/// Claims the event numbers (only if the match is where the caller thinks), so a
/// refused append writes nothing; the caller inserts the events.
async fn claim(conn: &mut SqliteConnection, append: &Append) -> Result<u64, StoreError> {
    let Append {
        id,
        after,
        events,
        over,
        finish,
        ..
    } = append;
    let last = after + events.len() as u64;
    let Some(last_event) = events.last() else {
        return Ok(*after);
    };
    let claimed = sqlx::query(
        "UPDATE matches SET last_seq = ?1, last_at = MAX(last_at, ?2), \
         status = CASE WHEN ?3 THEN 'over' ELSE status END \
         WHERE id = ?4 AND last_seq = ?5",
    )
    .bind(to_i64("event number", last)?)
    .bind(to_i64("time", last_event.at)?)
    .bind(*over)
    .bind(id.0)
    .bind(to_i64("event number", *after)?)
    .execute(&mut *conn)
    .await?;
    if claimed.rows_affected() == 0 {
        let found: Option<i64> = sqlx::query_scalar("SELECT last_seq FROM matches WHERE id = ?1")
            .bind(id.0)
            .fetch_optional(&mut *conn)
            .await?;
        return Err(match found {
            None => StoreError::NoSuchMatch(*id),
            Some(found) => StoreError::Conflict {
                id: *id,
                expected: after + 1,
                found: to_u64(found),
            },
        });
    }
    if *over {
        super::ratings::record_end(conn, *id, finish.as_ref()).await?;
    }
    Ok(last)
}
