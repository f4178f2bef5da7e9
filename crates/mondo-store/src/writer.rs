//! Group commit: one task takes every match's appends, writes as many as are waiting
//! in one transaction, commits once, then answers each. A thousand live matches then
//! cost a handful of commits per second instead of one per event, and each caller still
//! learns about its events only after they are durable.

use super::db::{Backend, Db, Fault};
use super::fence::{Lease, fenced_why, now_ms};
use super::types::{MatchId, NewEvent, StoreError, to_i64, to_u64};
use sqlx::AnyConnection;
use sqlx::Row as _;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

/// Appends waiting at most; more wait for the next transaction.
const MAX_BATCH: usize = 512;

pub(super) struct Append {
    pub id: MatchId,
    /// The fencing token of the lease the appending process holds (`None`: it holds
    /// none).
    pub token: Option<i64>,
    pub after: u64,
    pub events: Vec<NewEvent>,
    pub over: bool,
    /// What the match counts for, when `over`.
    pub finish: Option<mondo_rules::rules::Finish>,
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
    let reopened = match db.backend {
        Backend::Sqlite => {
            tracing::error!(error = %e, %reason, "a commit failed with an I/O error; reopening the database to read what it holds");
            db.reopen().await
        }
        // The connection to the server broke (it went down, or cut it): the pool
        // connects afresh by itself; the log is read on a new connection.
        Backend::Postgres => {
            tracing::error!(error = %e, %reason, "a commit's connection broke; reading what the database holds");
            Ok(())
        }
    };
    let mut results = Vec::with_capacity(batch.len());
    let mut unreadable = false;
    for append in batch {
        let found = match &reopened {
            // The log could not be read for an earlier append (on PostgreSQL: the
            // server is out of reach): not asked again for each, each a wait.
            Ok(()) if unreadable => Err(StoreError::Closed),
            Ok(()) => recorded(db, append).await,
            Err(e) => Err(StoreError::Unavailable(e.to_string())),
        };
        unreadable |= db.backend == Backend::Postgres
            && matches!(&found, Err(e) if !matches!(e, StoreError::Conflict { .. }));
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
        "SELECT seq, at, body FROM events WHERE match_id = $1 AND seq > $2 AND seq <= $3 \
         ORDER BY seq",
    )
    .bind(append.id.0)
    .bind(to_i64("event number", append.after)?)
    .bind(to_i64("event number", last)?)
    .fetch_all(&read)
    .await?;
    if rows.is_empty() {
        let found: Option<i64> = sqlx::query_scalar("SELECT last_seq FROM matches WHERE id = $1")
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
    let written = async {
        let mut tx = db.begin_write().await?;
        let mut results = Vec::with_capacity(batch.len());
        let mut rows = Vec::new();
        let together = claim_together(&mut tx, db, batch).await?;
        for (i, append) in batch.iter().enumerate() {
            let claimed = match together.get(&i) {
                Some(&last) => Ok(last),
                // Alone (and, if it was refused together, again alone: which says why).
                None => claim(&mut tx, db, append).await,
            };
            match claimed {
                Err(
                    e @ (StoreError::Db(_)
                    | StoreError::Full
                    | StoreError::Busy
                    | StoreError::Unreachable { .. }),
                ) => return Err(e),
                Ok(last) => {
                    push_rows(&mut rows, append)?;
                    results.push(Ok(last));
                }
                refused => results.push(refused),
            }
        }
        insert_events(&mut tx, db.backend, &rows).await?;
        Ok((tx, results))
    };
    let (tx, results) = written.await.map_err(|e| before_commit(db, e))?;
    commit(db, tx).await?;
    Ok(results)
}

/// An error before the COMMIT was sent: nothing was committed. On PostgreSQL a broken
/// connection is then the server out of reach (said so, and the whole batch meets
/// it), not an I/O error whose outcome must be read back.
fn before_commit(db: &Db, e: StoreError) -> StoreError {
    match db.backend {
        Backend::Postgres if e.is_io() => StoreError::Unreachable {
            reason: e.to_string(),
        },
        _ => e,
    }
}

/// One append in a transaction of its own.
async fn commit_one(db: &Db, append: &Append) -> Result<u64, StoreError> {
    commit_batch(db, std::slice::from_ref(append))
        .await?
        .pop()
        .unwrap_or(Err(StoreError::Closed))
}

/// Commits, or meets the I/O error a test asked for ([`Fault::Io`]).
async fn commit(db: &Db, tx: sqlx::Transaction<'_, sqlx::Any>) -> Result<(), StoreError> {
    match db.take_fault(|f| matches!(f, Fault::Io { .. } | Fault::Full | Fault::Hold)) {
        Some(Fault::Hold) => {
            db.holding.send_replace(true);
            std::future::pending::<()>().await;
            Err(StoreError::Closed)
        }
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
        // A connection cut during the COMMIT leaves it unknown whether the server
        // committed: said as an I/O error, which reads the log back (`settle`), never
        // as "unreachable" (which says nothing was recorded).
        None => tx.commit().await.map_err(|e| match StoreError::from(e) {
            StoreError::Unreachable { reason } => {
                StoreError::Db(sqlx::Error::Io(std::io::Error::other(reason)))
            }
            other => other,
        }),
    }
}

/// An event row to insert: match, number, time, body, and the appending owner's
/// fencing token.
type Row<'a> = (i64, i64, i64, &'a str, Option<i64>);

fn push_rows<'a>(rows: &mut Vec<Row<'a>>, append: &'a Append) -> Result<(), StoreError> {
    for (i, event) in append.events.iter().enumerate() {
        rows.push((
            append.id.0,
            to_i64("event number", append.after + 1 + i as u64)?,
            to_i64("time", event.at)?,
            &event.body,
            append.token,
        ));
    }
    Ok(())
}

/// Rows per INSERT: 5 parameters each, well under SQLite's and PostgreSQL's limits on
/// parameters.
const ROWS_PER_INSERT: usize = 1000;

/// Whether the appending owner may write to match `m` with token `t` (SQL over those
/// two expressions): its token is the lease's; or it holds none and nobody holds a
/// live lease.
fn fence(backend: Backend, m: &str, t: &str) -> String {
    format!(
        "CASE WHEN {t} IS NULL \
         THEN NOT EXISTS (SELECT 1 FROM leases l WHERE l.match_id = {m} AND l.expires_ms > {now}) \
         ELSE EXISTS (SELECT 1 FROM leases l WHERE l.match_id = {m} AND l.token = {t}) END",
        now = now_ms(backend)
    )
}

/// Inserts the claimed events, each row only if its owner's token still fences the
/// match ([`fence`]): the database itself refuses a stale owner's events, whatever
/// the code before did. A row refused here (which the claim would have refused
/// first) fails the whole transaction.
async fn insert_events(
    conn: &mut AnyConnection,
    backend: Backend,
    rows: &[Row<'_>],
) -> Result<(), StoreError> {
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        let mut sql = String::from(
            "INSERT INTO events (match_id, seq, at, body) \
             SELECT v.column1, v.column2, v.column3, v.column4 FROM (VALUES ",
        );
        for i in 0..chunk.len() {
            let n = 5 * i;
            if i > 0 {
                sql.push_str(", ");
            }
            sql.push_str(&format!(
                "(${}, ${}, ${}, ${}, ${})",
                n + 1,
                n + 2,
                n + 3,
                n + 4,
                n + 5
            ));
        }
        sql.push_str(") AS v WHERE ");
        sql.push_str(&fence(backend, "v.column1", "v.column5"));
        // Only placeholders and the fence's SQL are built into the text; every value
        // is bound.
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for &(id, seq, at, body, token) in chunk {
            query = query.bind(id).bind(seq).bind(at).bind(body).bind(token);
        }
        let written = query.execute(&mut *conn).await?.rows_affected();
        if written != chunk.len() as u64 {
            let (id, token) = chunk
                .iter()
                .map(|r| (MatchId(r.0), r.4))
                .next()
                .unwrap_or((MatchId(0), None));
            return Err(StoreError::Fenced {
                id,
                why: format!(
                    "the database refused {} of {} events (token {token:?})",
                    chunk.len() as u64 - written,
                    chunk.len()
                ),
            });
        }
    }
    Ok(())
}

/// On PostgreSQL, claims the plain appends of a batch (each match's first in it, with
/// events, not ending the match) together: one statement locks their leases' rows as
/// [`claim`] does, one moves their matches on with the same conditions, instead of two
/// round trips to the server per append. Returns the claimed ones (index in the batch:
/// last event number); the rest, refused ones included, are claimed one by one after
/// (in the batch's order, so a match's later appends follow its first).
async fn claim_together(
    conn: &mut AnyConnection,
    db: &Db,
    batch: &[Append],
) -> Result<HashMap<usize, u64>, StoreError> {
    let mut claimed = HashMap::new();
    if db.backend != Backend::Postgres {
        return Ok(claimed);
    }
    let mut seen = HashSet::new();
    let mut plain = Vec::new();
    // [match, token, after, last, last event's time] each, as one JSON array (numbers
    // only), bound as text: one statement whatever their number.
    let mut listed = Vec::new();
    for (i, a) in batch.iter().enumerate() {
        let Some(last_event) = a.events.last() else {
            continue;
        };
        if !seen.insert(a.id) || a.over {
            continue;
        }
        let last = a.after + a.events.len() as u64;
        let token = a.token.map_or("null".to_string(), |t| t.to_string());
        listed.push(format!(
            "[{},{token},{},{},{}]",
            a.id.0,
            to_i64("event number", a.after)?,
            to_i64("event number", last)?,
            to_i64("time", last_event.at)?
        ));
        plain.push((i, a.id, last));
    }
    if plain.len() < 2 {
        return Ok(claimed);
    }
    let listed = format!("[{}]", listed.join(","));
    const VALUES: &str = "(SELECT CAST(e->>0 AS BIGINT) AS id, CAST(e->>1 AS BIGINT) AS token, \
         CAST(e->>2 AS BIGINT) AS after, CAST(e->>3 AS BIGINT) AS last, \
         CAST(e->>4 AS BIGINT) AS at FROM json_array_elements(CAST($1 AS json)) e) v";
    // In one order (the matches'), so two batches never wait on each other crosswise.
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT l.match_id FROM leases l JOIN {VALUES} \
         ON l.match_id = v.id AND l.token = v.token ORDER BY l.match_id FOR UPDATE OF l"
    )))
    .bind(&listed)
    .execute(&mut *conn)
    .await?;
    let moved = sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE matches SET last_seq = v.last, last_at = MAX(matches.last_at, v.at) \
         FROM {VALUES} WHERE matches.id = v.id AND matches.last_seq = v.after AND {} \
         RETURNING matches.id",
        fence(db.backend, "v.id", "v.token")
    )))
    .bind(&listed)
    .fetch_all(&mut *conn)
    .await?;
    let moved: HashSet<i64> = moved
        .iter()
        .map(|r| r.try_get::<i64, _>("id"))
        .collect::<Result<_, _>>()?;
    for (i, id, last) in plain {
        if moved.contains(&id.0) {
            claimed.insert(i, last);
        }
    }
    Ok(claimed)
}

/// Claims the event numbers (only if the match is where the caller thinks), so a
/// refused append writes nothing; the caller inserts the events.
async fn claim(conn: &mut AnyConnection, db: &Db, append: &Append) -> Result<u64, StoreError> {
    let backend = db.backend;
    let Append {
        id,
        token,
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
    if let Some(token) = token {
        // Holds the lease's row until the commit (PostgreSQL; SQLite's one writer is
        // alone anyway): a takeover waits for this append, or this append sees it.
        // (A row lock, not a write: a takeover's look for a lease row then sees it at
        // once instead of waiting for this transaction; see `leases::take_lease`.)
        let lock = match backend {
            Backend::Sqlite => "UPDATE leases SET token = token WHERE match_id = $1 AND token = $2",
            Backend::Postgres => {
                "SELECT token FROM leases WHERE match_id = $1 AND token = $2 FOR UPDATE"
            }
        };
        sqlx::query(lock)
            .bind(id.0)
            .bind(*token)
            .execute(&mut *conn)
            .await?;
    }
    // Moves the match on only where it is (`last_seq`) and only for the lease's owner
    // (the fence): one statement, so the database decides both.
    let claimed = sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE matches SET last_seq = $1, last_at = MAX(last_at, $2), \
         status = CASE WHEN $3 THEN 'over' ELSE status END \
         WHERE id = $4 AND last_seq = $5 AND {}",
        fence(backend, "$4", "$6")
    )))
    .bind(to_i64("event number", last)?)
    .bind(to_i64("time", last_event.at)?)
    .bind(*over)
    .bind(id.0)
    .bind(to_i64("event number", *after)?)
    .bind(*token)
    .execute(&mut *conn)
    .await?;
    if claimed.rows_affected() == 0 {
        let found: Option<i64> = sqlx::query_scalar("SELECT last_seq FROM matches WHERE id = $1")
            .bind(id.0)
            .fetch_optional(&mut *conn)
            .await?;
        return Err(match found {
            None => StoreError::NoSuchMatch(*id),
            Some(found) if to_u64(found) != *after => StoreError::Conflict {
                id: *id,
                expected: after + 1,
                found: to_u64(found),
            },
            // Where the caller thought: the fence refused it.
            Some(_) => {
                let lease =
                    sqlx::query("SELECT owner, expires_ms, token FROM leases WHERE match_id = $1")
                        .bind(id.0)
                        .fetch_optional(&mut *conn)
                        .await?
                        .map(|r| {
                            Ok::<_, StoreError>(Lease {
                                id: *id,
                                owner: r.try_get("owner")?,
                                expires_ms: r.try_get("expires_ms")?,
                                token: r.try_get("token")?,
                            })
                        })
                        .transpose()?;
                StoreError::Fenced {
                    id: *id,
                    why: fenced_why(*token, lease.as_ref()),
                }
            }
        });
    }
    if *over {
        super::ending::record_end(conn, backend, *id, finish.as_ref(), db.rating_period_ms())
            .await?;
    }
    Ok(last)
}
