//! What a match's last event writes beside it, in the same transaction: its place in
//! the order of endings, its result, and the ratings or solo record it changes. The
//! append task calls [`record_end`] with an ending; a rebuild calls [`apply`] again on
//! every finished match. What a result does to a rating is `mondo_rules::ratings`.

use super::Backend;
use super::types::{MatchId, StoreError, to_i64};
use mondo_rules::ratings::{self, Entry, Method, Rating};
use mondo_rules::rules::{Finish, PlayerId};
use sqlx::{AnyConnection, Row};

/// The transaction-scoped PostgreSQL advisory lock that puts endings in one order
/// across processes (any number of Mondo's own; "MONDOEND" in ASCII).
const ENDINGS_LOCK: i64 = 0x4d4f_4e44_4f45_4e44;

/// Marks match `id` ended now (its place in the order of endings), and applies
/// `finish`, once: a match already ended is left as it is. Runs inside the caller's
/// transaction.
///
/// Endings are taken one at a time: on PostgreSQL several processes end matches at
/// once, and two that both read the last place (`MAX(finished_seq)`) would take the
/// same one (the unique index would then refuse the second match's last event), and
/// two that both read a player's rating would lose one update. The advisory lock,
/// held until the commit, makes the second wait and then read what the first wrote
/// (each statement of a READ COMMITTED transaction sees what committed before it).
/// SQLite has one writer: endings are one at a time already.
pub(super) async fn record_end(
    conn: &mut AnyConnection,
    backend: Backend,
    id: MatchId,
    finish: Option<&Finish>,
    period_ms: u64,
) -> Result<(), StoreError> {
    if backend == Backend::Postgres {
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(ENDINGS_LOCK)
            .execute(&mut *conn)
            .await?;
    }
    let ended = sqlx::query(
        "UPDATE matches SET finished = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), \
         finished_seq = (SELECT COALESCE(MAX(finished_seq), 0) + 1 FROM matches) \
         WHERE id = $1 AND finished_seq IS NULL",
    )
    .bind(id.0)
    .execute(&mut *conn)
    .await?;
    if ended.rows_affected() == 0 {
        return Ok(());
    }
    if let Some(finish) = finish {
        apply(conn, id, finish, period_ms).await?;
    }
    Ok(())
}

/// What a match's row says that a rating needs.
struct Ended {
    kind: String,
    server: i64,
    ms: i64,
    finished: String,
}

async fn ended(conn: &mut AnyConnection, id: MatchId) -> Result<Option<Ended>, StoreError> {
    let row = sqlx::query(
        "SELECT kind, COALESCE(guild_id, 0) AS server, last_at - created_at AS ms, \
         COALESCE(finished, created) AS finished FROM matches WHERE id = $1",
    )
    .bind(id.0)
    .fetch_optional(&mut *conn)
    .await?;
    row.map(|r| {
        Ok(Ended {
            kind: r.try_get("kind")?,
            server: r.try_get("server")?,
            ms: r.try_get("ms")?,
            finished: r.try_get("finished")?,
        })
    })
    .transpose()
}

/// Applies one finished match's result to the ratings or the solo record; a rating
/// first grows idle from its player's last rated game to this match's end, with rating
/// periods of `period_ms` (`ratings::idle`).
pub(super) async fn apply(
    conn: &mut AnyConnection,
    id: MatchId,
    finish: &Finish,
    period_ms: u64,
) -> Result<bool, StoreError> {
    let Some(m) = ended(conn, id).await? else {
        return Ok(false);
    };
    let counted = match finish {
        Finish::Unrated(_) => false,
        Finish::Placed { method, places } => rate(conn, id, &m, *method, places, period_ms).await?,
        Finish::Solo { .. } => solo(conn, &m, finish).await?,
    };
    // What it counted for, for history: rated, or why not (a result the ratings could
    // not take counts for nothing: no_result).
    let (rated, why, by) = match finish {
        Finish::Placed { .. } if counted => (1i64, None, None),
        Finish::Placed { .. } => (0, Some("no_result"), None),
        Finish::Unrated(why) => (0, Some(why.name()), why.by()),
        Finish::Solo { .. } => (0, Some(SOLO), None),
    };
    sqlx::query(
        "INSERT INTO match_outcomes (match_id, rated, why, by_player) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (match_id) DO NOTHING",
    )
    .bind(id.0)
    .bind(rated)
    .bind(why)
    .bind(by.map(|p| to_i64("player id", p.0)).transpose()?)
    .execute(&mut *conn)
    .await?;
    Ok(counted)
}

/// The `why` of a solo match's outcome: a record, never a rating.
pub const SOLO: &str = "solo";

/// A solo match's record.
async fn solo(conn: &mut AnyConnection, m: &Ended, finish: &Finish) -> Result<bool, StoreError> {
    match finish {
        Finish::Solo {
            player,
            solved,
            score,
        } => {
            sqlx::query(
                "INSERT INTO solo_records (server, game, player, played, solved, score_total, \
                 best_ms, total_ms, last_played) VALUES ($1, $2, $3, 1, $4, $5, \
                 CASE WHEN $4 = 1 THEN $6 END, $6, $7) \
                 ON CONFLICT (server, game, player) DO UPDATE SET \
                 played = solo_records.played + 1, solved = solo_records.solved + $4, \
                 score_total = solo_records.score_total + $5, \
                 best_ms = CASE WHEN $4 = 1 AND (solo_records.best_ms IS NULL \
                   OR $6 < solo_records.best_ms) THEN $6 ELSE solo_records.best_ms END, \
                 total_ms = solo_records.total_ms + $6, last_played = $7",
            )
            .bind(m.server)
            .bind(&m.kind)
            .bind(to_i64("player id", player.0)?)
            .bind(i64::from(*solved))
            .bind(i64::from(*score))
            .bind(m.ms.max(0))
            .bind(&m.finished)
            .execute(&mut *conn)
            .await?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

async fn rate(
    conn: &mut AnyConnection,
    id: MatchId,
    m: &Ended,
    method: Method,
    places: &[(PlayerId, u32)],
    period_ms: u64,
) -> Result<bool, StoreError> {
    let ended_ms = ratings::wall_ms(&m.finished);
    let mut entries = Vec::with_capacity(places.len());
    let mut counts = Vec::with_capacity(places.len());
    for &(player, place) in places {
        let row = sqlx::query(
            "SELECT rating, deviation, volatility, games, wins, losses, draws, last_played \
             FROM ratings WHERE server = $1 AND game = $2 AND player = $3",
        )
        .bind(m.server)
        .bind(&m.kind)
        .bind(to_i64("player id", player.0)?)
        .fetch_optional(&mut *conn)
        .await?;
        let (before, count) = match row {
            Some(r) => (
                {
                    let last: String = r.try_get("last_played")?;
                    let idle_ms = ended_ms
                        .zip(ratings::wall_ms(&last))
                        .map_or(0, |(end, last)| end.saturating_sub(last));
                    let stored = Rating {
                        rating: r.try_get("rating")?,
                        deviation: r.try_get("deviation")?,
                        volatility: r.try_get("volatility")?,
                    };
                    ratings::idle(stored, idle_ms, period_ms)
                },
                [
                    r.try_get::<i64, _>("games")?,
                    r.try_get("wins")?,
                    r.try_get("losses")?,
                    r.try_get("draws")?,
                ],
            ),
            None => (Rating::new(method), [0; 4]),
        };
        entries.push(Entry {
            player,
            place,
            before,
        });
        counts.push(count);
    }
    let after = match ratings::rate(method, &entries) {
        Ok(after) => after,
        Err(e) => {
            // A result the ratings cannot take is recorded as unrated rather than
            // holding up the match's last event.
            tracing::warn!(id = %id, error = %e, "a finished match was not rated");
            return Ok(false);
        }
    };
    let all: Vec<u32> = places.iter().map(|p| p.1).collect();
    for ((entry, new), [games, wins, losses, draws]) in entries.iter().zip(&after).zip(counts) {
        let result = ratings::result_of(entry.place, &all);
        let player = to_i64("player id", entry.player.0)?;
        sqlx::query(
            "INSERT INTO ratings (server, game, player, rating, deviation, volatility, games, \
             wins, losses, draws, last_match, last_played) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
             ON CONFLICT (server, game, player) DO UPDATE SET rating = excluded.rating, \
             deviation = excluded.deviation, volatility = excluded.volatility, \
             games = excluded.games, wins = excluded.wins, losses = excluded.losses, \
             draws = excluded.draws, last_match = excluded.last_match, \
             last_played = excluded.last_played",
        )
        .bind(m.server)
        .bind(&m.kind)
        .bind(player)
        .bind(new.rating)
        .bind(new.deviation)
        .bind(new.volatility)
        .bind(games + 1)
        .bind(wins + i64::from(result == ratings::Result::Win))
        .bind(losses + i64::from(result == ratings::Result::Loss))
        .bind(draws + i64::from(result == ratings::Result::Draw))
        .bind(id.0)
        .bind(&m.finished)
        .execute(&mut *conn)
        .await?;
        sqlx::query(
            "INSERT INTO match_results (match_id, player, place, result, rating_before, \
             deviation_before, rating_after, deviation_after) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(id.0)
        .bind(player)
        .bind(i64::from(entry.place))
        .bind(result.as_str())
        .bind(entry.before.rating)
        .bind(entry.before.deviation)
        .bind(new.rating)
        .bind(new.deviation)
        .execute(&mut *conn)
        .await?;
    }
    Ok(true)
}
