//! Group commit: one task takes every match's appends, writes as many as are waiting
//! in one transaction, commits once, then answers each. A thousand live matches then
//! cost a handful of commits per second instead of one per event, and each caller still
//! learns about its events only after they are durable.

use super::{MatchId, NewEvent, StoreError, to_i64, to_u64};
use sqlx::SqliteConnection;
use sqlx::sqlite::SqlitePool;
use tokio::sync::{mpsc, oneshot};

/// Appends waiting at most; more wait for the next transaction.
const MAX_BATCH: usize = 512;

pub(super) struct Append {
    pub id: MatchId,
    pub after: u64,
    pub events: Vec<NewEvent>,
    pub over: bool,
    pub reply: oneshot::Sender<Result<u64, StoreError>>,
}

pub(super) fn spawn(write: SqlitePool) -> mpsc::Sender<Append> {
    let (tx, rx) = mpsc::channel(4 * MAX_BATCH);
    tokio::spawn(run(write, rx));
    tx
}

async fn run(write: SqlitePool, mut rx: mpsc::Receiver<Append>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        match commit_batch(&write, &batch).await {
            Ok(results) => {
                for (append, result) in batch.drain(..).zip(results) {
                    let _ = append.reply.send(result);
                }
            }
            // The batch as a whole failed (a database error in one append, or the
            // commit): retry each alone, so only the appends at fault fail.
            Err(_) => {
                for append in batch.drain(..) {
                    let result = commit_one(&write, &append).await;
                    let _ = append.reply.send(result);
                }
            }
        }
    }
}

/// One transaction for the whole batch: each append claims its event numbers (an
/// append whose match moved on is refused without touching the others), then one
/// multi-row INSERT writes the events of all the claimed ones (one statement rather
/// than one per event: each statement is a round trip to sqlx's SQLite thread). A
/// database error aborts the batch.
async fn commit_batch(
    write: &SqlitePool,
    batch: &[Append],
) -> Result<Vec<Result<u64, StoreError>>, StoreError> {
    let mut tx = write.begin_with("BEGIN IMMEDIATE").await?;
    let mut results = Vec::with_capacity(batch.len());
    let mut rows = Vec::new();
    for append in batch {
        match claim(&mut tx, append).await {
            Err(e @ (StoreError::Db(_) | StoreError::Full)) => return Err(e),
            Ok(last) => {
                push_rows(&mut rows, append)?;
                results.push(Ok(last));
            }
            refused => results.push(refused),
        }
    }
    insert_events(&mut tx, &rows).await?;
    tx.commit().await?;
    Ok(results)
}

async fn commit_one(write: &SqlitePool, append: &Append) -> Result<u64, StoreError> {
    let mut tx = write.begin_with("BEGIN IMMEDIATE").await?;
    let last = claim(&mut tx, append).await?;
    let mut rows = Vec::new();
    push_rows(&mut rows, append)?;
    insert_events(&mut tx, &rows).await?;
    tx.commit().await?;
    Ok(last)
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
    Ok(last)
}
