//! Ratings and records in the store: updated in the transaction that records a
//! match's last event ([`record_end`], called by the append task), made again from
//! the logs by a rebuild, and read for stats, leaderboards and history. What a result
//! does to a rating is `crate::ratings`; which result a match had is its game's
//! (`rules::Game::finish`), told by the runtime with the last events.

use super::{MatchId, MatchRecord, Store, StoreError, to_i64, to_u64};
use crate::ratings::{self, BoardSettings, Entry, Method, Rating};
use crate::rules::{Finish, GameKind, PlayerId};
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};

/// The server a match of `guild` counts on: its guild, or 0 for the terminal.
pub fn server_of(guild: Option<u64>) -> u64 {
    guild.unwrap_or(0)
}

/// A player's rating in one game on one server, with their rated results.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub server: u64,
    pub game: String,
    pub player: u64,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    pub last_match: MatchId,
    /// Wall time of the last rated match, ISO 8601 UTC.
    pub last_played: String,
}

impl RatingRow {
    pub fn is_provisional(&self) -> bool {
        ratings::is_provisional(self.deviation)
    }

    /// `1634` or `1634?`.
    pub fn shown(&self) -> String {
        ratings::shown(self.rating, self.deviation)
    }
}

/// A player's solo record in one game on one server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoloRecord {
    pub game: String,
    pub player: u64,
    pub played: u32,
    pub solved: u32,
    pub score_total: u64,
    pub best_ms: Option<u64>,
    pub total_ms: u64,
    pub last_played: String,
}

/// One finished match in a player's history.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryRow {
    pub id: MatchId,
    pub game: String,
    /// Everyone who played, in seat order.
    pub players: Vec<u64>,
    /// The player's rated result; `None` for a match that counted for nothing or a
    /// solo one.
    pub result: Option<ratings::Result>,
    pub rating_after: Option<f64>,
    pub deviation_after: Option<f64>,
    pub finished: String,
}

/// What a rebuild did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rebuilt {
    /// Finished matches read.
    pub matches: usize,
    /// Of which rated.
    pub rated: usize,
    /// Of which solo records.
    pub solo: usize,
}

/// Marks match `id` ended now (its place in the order of endings), and applies
/// `finish`, once: a match already ended is left as it is. Runs inside the caller's
/// transaction.
pub(super) async fn record_end(
    conn: &mut AnyConnection,
    id: MatchId,
    finish: Option<&Finish>,
) -> Result<(), StoreError> {
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
        apply(conn, id, finish).await?;
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

/// Applies one finished match's result to the ratings or the solo record.
async fn apply(conn: &mut AnyConnection, id: MatchId, finish: &Finish) -> Result<bool, StoreError> {
    let Some(m) = ended(conn, id).await? else {
        return Ok(false);
    };
    match finish {
        Finish::Void => Ok(false),
        Finish::Placed { method, places } => rate(conn, id, &m, *method, places).await,
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
    }
}

async fn rate(
    conn: &mut AnyConnection,
    id: MatchId,
    m: &Ended,
    method: Method,
    places: &[(PlayerId, u32)],
) -> Result<bool, StoreError> {
    let mut entries = Vec::with_capacity(places.len());
    let mut counts = Vec::with_capacity(places.len());
    for &(player, place) in places {
        let row = sqlx::query(
            "SELECT rating, deviation, volatility, games, wins, losses, draws FROM ratings \
             WHERE server = $1 AND game = $2 AND player = $3",
        )
        .bind(m.server)
        .bind(&m.kind)
        .bind(to_i64("player id", player.0)?)
        .fetch_optional(&mut *conn)
        .await?;
        let (before, count) = match row {
            Some(r) => (
                Rating {
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                    volatility: r.try_get("volatility")?,
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

fn rating_row(r: &AnyRow) -> Result<RatingRow, StoreError> {
    let count = |c: &str| -> Result<u32, StoreError> {
        Ok(u32::try_from(r.try_get::<i64, _>(c)?).unwrap_or(0))
    };
    Ok(RatingRow {
        server: to_u64(r.try_get("server")?),
        game: r.try_get("game")?,
        player: to_u64(r.try_get("player")?),
        rating: r.try_get("rating")?,
        deviation: r.try_get("deviation")?,
        volatility: r.try_get("volatility")?,
        games: count("games")?,
        wins: count("wins")?,
        losses: count("losses")?,
        draws: count("draws")?,
        last_match: MatchId(r.try_get("last_match")?),
        last_played: r.try_get("last_played")?,
    })
}

const RATING_COLUMNS: &str = "SELECT server, game, player, rating, deviation, volatility, games, \
     wins, losses, draws, last_match, last_played FROM ratings";

impl Store {
    /// The finished matches in the order they ended (the order ratings apply in).
    pub async fn finished_matches(&self) -> Result<Vec<MatchRecord>, StoreError> {
        let rows = sqlx::query(concat!(
            match_columns!(),
            " WHERE m.status = 'over' ORDER BY m.finished_seq, m.id"
        ))
        .fetch_all(&self.read().await?)
        .await?;
        rows.iter().map(super::match_record).collect()
    }

    /// Makes every rating and record again from `finishes` (each finished match's
    /// result, in the order they ended), in one transaction: until it commits, the
    /// ratings read as they were.
    pub async fn rebuild_ratings(
        &self,
        finishes: &[(MatchId, Finish)],
    ) -> Result<Rebuilt, StoreError> {
        let mut tx = self.begin_write().await?;
        for table in ["match_results", "ratings", "solo_records"] {
            sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {table}")))
                .execute(&mut *tx)
                .await?;
        }
        let mut done = Rebuilt::default();
        for (id, finish) in finishes {
            done.matches += 1;
            if apply(&mut tx, *id, finish).await? {
                match finish {
                    Finish::Solo { .. } => done.solo += 1,
                    _ => done.rated += 1,
                }
            }
        }
        tx.commit().await?;
        Ok(done)
    }

    /// A player's ratings on `server`, one per game (only `game` if given), in the
    /// order games are listed.
    pub async fn ratings_of(
        &self,
        server: u64,
        player: u64,
        game: Option<&str>,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "{RATING_COLUMNS} WHERE server = $1 AND player = $2 AND ($3 IS NULL OR game = $3)"
        )))
        .bind(to_i64("server", server)?)
        .bind(to_i64("player id", player)?)
        .bind(game)
        .fetch_all(&self.read().await?)
        .await?;
        let mut out = rows.iter().map(rating_row).collect::<Result<Vec<_>, _>>()?;
        out.sort_by_key(|r| game_order(&r.game));
        Ok(out)
    }

    /// A server's leaderboard: the players `settings` admit, best first, game by game
    /// (only `game` if given), at most `limit` per game.
    pub async fn leaderboard(
        &self,
        server: u64,
        game: Option<&str>,
        settings: &BoardSettings,
        limit: u32,
    ) -> Result<Vec<RatingRow>, StoreError> {
        // Every game (one never rated has no rows).
        let games: Vec<&str> = match game {
            Some(g) => vec![g],
            None => GameKind::names().collect(),
        };
        let read = self.read().await?;
        let mut out = Vec::new();
        for game in games {
            // The index (server, game, rating) walks the board from the top; the other
            // conditions only skip rows.
            let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                "{RATING_COLUMNS} WHERE server = $1 AND game = $2 AND games >= $3 \
                 AND deviation < $4 \
                 AND last_played >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', $5) \
                 ORDER BY rating DESC LIMIT $6"
            )))
            .bind(to_i64("server", server)?)
            .bind(game)
            .bind(i64::from(settings.min_games))
            .bind(settings.max_deviation)
            .bind(format!("-{} days", settings.recent_days))
            .bind(i64::from(limit))
            .fetch_all(&read)
            .await?;
            for r in &rows {
                out.push(rating_row(r)?);
            }
        }
        Ok(out)
    }

    /// A player's solo records on `server`.
    pub async fn solo_records(
        &self,
        server: u64,
        player: u64,
    ) -> Result<Vec<SoloRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT game, player, played, solved, score_total, best_ms, total_ms, last_played \
             FROM solo_records WHERE server = $1 AND player = $2 ORDER BY game",
        )
        .bind(to_i64("server", server)?)
        .bind(to_i64("player id", player)?)
        .fetch_all(&self.read().await?)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(SoloRecord {
                    game: r.try_get("game")?,
                    player: to_u64(r.try_get("player")?),
                    played: u32::try_from(r.try_get::<i64, _>("played")?).unwrap_or(0),
                    solved: u32::try_from(r.try_get::<i64, _>("solved")?).unwrap_or(0),
                    score_total: to_u64(r.try_get("score_total")?),
                    best_ms: r.try_get::<Option<i64>, _>("best_ms")?.map(to_u64),
                    total_ms: to_u64(r.try_get("total_ms")?),
                    last_played: r.try_get("last_played")?,
                })
            })
            .collect()
    }

    /// The finished matches `player` played on `server`, the last ended first, at
    /// most `limit`.
    pub async fn history(
        &self,
        server: u64,
        player: u64,
        limit: u32,
    ) -> Result<Vec<HistoryRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT m.id, m.kind, COALESCE(m.finished, m.created) AS finished, r.result, \
             r.rating_after, r.deviation_after, \
             (SELECT json_group_array(player_id) FROM (SELECT player_id FROM match_players q \
              WHERE q.match_id = m.id ORDER BY seat) AS seated) AS players \
             FROM match_players p JOIN matches m ON m.id = p.match_id \
             LEFT JOIN match_results r ON r.match_id = m.id AND r.player = p.player_id \
             WHERE p.player_id = $1 AND m.status = 'over' AND COALESCE(m.guild_id, 0) = $2 \
             ORDER BY m.finished_seq DESC, m.id DESC LIMIT $3",
        )
        .bind(to_i64("player id", player)?)
        .bind(to_i64("server", server)?)
        .bind(i64::from(limit))
        .fetch_all(&self.read().await?)
        .await?;
        rows.iter()
            .map(|r| {
                let id = MatchId(r.try_get("id")?);
                let players: String = r.try_get("players")?;
                let players: Vec<i64> =
                    serde_json::from_str(&players).map_err(|e| StoreError::Corrupt {
                        id,
                        seq: 0,
                        reason: format!("players: {e}"),
                    })?;
                Ok(HistoryRow {
                    id,
                    game: r.try_get("kind")?,
                    players: players.into_iter().map(to_u64).collect(),
                    result: r
                        .try_get::<Option<String>, _>("result")?
                        .and_then(|w| ratings::Result::parse(&w)),
                    rating_after: r.try_get("rating_after")?,
                    deviation_after: r.try_get("deviation_after")?,
                    finished: r.try_get("finished")?,
                })
            })
            .collect()
    }
}

/// Games in the order they are listed to players (unknown names last).
fn game_order(game: &str) -> usize {
    GameKind::ALL
        .iter()
        .position(|k| k.name() == game)
        .unwrap_or(usize::MAX)
}
