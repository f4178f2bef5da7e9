//! Group commit: one task takes every match's appends, writes as many as are waiting
//! in one transaction, commits once, then answers each. A thousand live matches then
//! cost a handful of commits per second instead of one per event, and each caller still
//! learns about its events only after they are durable.

use super::{MatchId, NewEvent, StoreError, insert_event, to_i64, to_u64};
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

/// One transaction for the whole batch. An append whose match moved on is refused
/// without touching the others; a database error aborts the batch.
async fn commit_batch(
    write: &SqlitePool,
    batch: &[Append],
) -> Result<Vec<Result<u64, StoreError>>, StoreError> {
    let mut tx = write.begin_with("BEGIN IMMEDIATE").await?;
    let mut results = Vec::with_capacity(batch.len());
    for append in batch {
        match append_in(&mut tx, append).await {
            Err(StoreError::Db(e)) => return Err(StoreError::Db(e)),
            other => results.push(other),
        }
    }
    tx.commit().await?;
    Ok(results)
}

async fn commit_one(write: &SqlitePool, append: &Append) -> Result<u64, StoreError> {
    let mut tx = write.begin_with("BEGIN IMMEDIATE").await?;
    let last = append_in(&mut tx, append).await?;
    tx.commit().await?;
    Ok(last)
}

/// Claims the event numbers first (only if the match is where the caller thinks), so a
/// refused append writes nothing.
async fn append_in(conn: &mut SqliteConnection, append: &Append) -> Result<u64, StoreError> {
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
    for (i, event) in events.iter().enumerate() {
        insert_event(conn, id.0, after + 1 + i as u64, event).await?;
    }
    Ok(last)
}
