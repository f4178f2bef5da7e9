//! Ratings and records in the store: updated in the transaction that records a
//! match's last event (`ending`, called by the append task), made again from
//! the logs by a rebuild, and read for stats, leaderboards and history. What a result
//! does to a rating is `mondo_rules::ratings`; which result a match had is its game's
//! (`rules::Game::finish`), told by the runtime with the last events.

use super::Store;
use super::ending::{SOLO, apply};
use super::types::{MatchId, MatchRecord, StoreError, to_i64, to_u64};
use mondo_rules::ratings::{self, BoardOverrides, BoardSettings};
use mondo_rules::rules::{Finish, GameKind, PlayerId, Why};
use sqlx::Row;
use sqlx::any::AnyRow;

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
    /// The rating as it stands at `now_ms` (wall time), its deviation grown by the
    /// rating periods of `period_ms` since the player's last rated game
    /// (`ratings::idle`): what every read shows. Stored, it stays as that game left it.
    pub fn as_of(mut self, now_ms: u64, period_ms: u64) -> RatingRow {
        let idle_ms = ratings::wall_ms(&self.last_played).map_or(0, |t| now_ms.saturating_sub(t));
        let grown = ratings::idle(
            ratings::Rating {
                rating: self.rating,
                deviation: self.deviation,
                volatility: self.volatility,
            },
            idle_ms,
            period_ms,
        );
        self.deviation = grown.deviation;
        self
    }

    pub fn is_provisional(&self) -> bool {
        ratings::is_provisional(self.deviation)
    }

    /// `1634` or `1634?`.
    pub fn shown(&self) -> String {
        ratings::shown(self.rating, self.deviation)
    }
}

/// A player's solo record in one game on one server (serialised as `mondo stats
/// --json` gives it: docs/ratings.md).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SoloRecord {
    pub game: String,
    #[serde(skip)]
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
    /// Whether it was rated (the player's result and ratings are then below).
    pub rated: bool,
    /// Why it was not: a [`Why`], or `None` for a rated or a solo match.
    pub why: Option<Why>,
    /// A solo match: a record, never a rating.
    pub solo: bool,
    /// The player's rated result; `None` for a match that counted for nothing or a
    /// solo one.
    pub result: Option<ratings::Result>,
    pub rating_before: Option<f64>,
    pub deviation_before: Option<f64>,
    pub rating_after: Option<f64>,
    pub deviation_after: Option<f64>,
    pub finished: String,
}

impl HistoryRow {
    /// Why it counted for nothing, by its stored name (`setup_chosen`, ..., `solo`),
    /// and as a front says it (`name` gives a player's name there); `None` when rated.
    pub fn why_said(&self, name: impl Fn(PlayerId) -> String) -> Option<(&'static str, String)> {
        if self.rated {
            return None;
        }
        if self.solo {
            return Some((SOLO, "solo: a record, never a rating".into()));
        }
        let why = self.why.unwrap_or(Why::NoResult);
        Some((why.name(), why.text(name)))
    }
}

/// What a rated match did to one player's rating (read once it is over, to say it
/// with the result).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub player: u64,
    pub result: ratings::Result,
    pub rating_before: f64,
    pub rating_after: f64,
    pub deviation_after: f64,
}

impl RatingChange {
    /// `1500 -> 1662? (+162)`.
    pub fn said(&self) -> String {
        ratings::change(self.rating_before, self.rating_after, self.deviation_after)
    }
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
        rows.iter().map(super::types::match_record).collect()
    }

    /// Makes every rating and record again from `finishes` (each finished match's
    /// result, in the order they ended), in one transaction: until it commits, the
    /// ratings read as they were.
    pub async fn rebuild_ratings(
        &self,
        finishes: &[(MatchId, Finish)],
    ) -> Result<Rebuilt, StoreError> {
        let mut tx = self.begin_write().await?;
        for table in ["match_results", "match_outcomes", "ratings", "solo_records"] {
            sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {table}")))
                .execute(&mut *tx)
                .await?;
        }
        let mut done = Rebuilt::default();
        for (id, finish) in finishes {
            done.matches += 1;
            if apply(&mut tx, *id, finish, self.db.rating_period_ms()).await? {
                match finish {
                    Finish::Solo { .. } => done.solo += 1,
                    _ => done.rated += 1,
                }
            }
        }
        tx.commit().await?;
        Ok(done)
    }

    /// Whether the ratings have never been made from this store's logs: finished
    /// matches, and no match's outcome recorded at all (a store written by a Mondo
    /// before ratings, or before each match's outcome was kept for its history).
    pub async fn ratings_missing(&self) -> Result<bool, StoreError> {
        // A number, not a boolean: SQLite has no boolean type, and through sqlx's Any
        // driver its answer reads back as an integer.
        let missing: i64 = sqlx::query_scalar(
            "SELECT CAST(CASE WHEN NOT EXISTS (SELECT 1 FROM match_outcomes) \
             AND EXISTS (SELECT 1 FROM matches WHERE status = 'over') THEN 1 ELSE 0 END AS BIGINT)",
        )
        .fetch_one(&self.read().await?)
        .await?;
        Ok(missing == 1)
    }

    /// A player's ratings on `server`, one per game (only `game` if given), in the
    /// order games are listed.
    pub async fn ratings_of(
        &self,
        server: u64,
        player: u64,
        game: Option<&str>,
    ) -> Result<Vec<RatingRow>, StoreError> {
        self.ratings_among(server, (player, player), game).await
    }

    /// The ratings of the umpire's AI seats on `server` (only `game` if given), game by
    /// game, then seat by seat. They are rated like anyone (their opponents' numbers
    /// need them) but never listed on a leaderboard: this is where they are read.
    pub async fn ai_ratings(
        &self,
        server: u64,
        game: Option<&str>,
    ) -> Result<Vec<RatingRow>, StoreError> {
        self.ratings_among(server, AI_IDS, game).await
    }

    /// The ratings on `server` of the players `first..=last` (only `game` if given), in
    /// the order games are listed, then by player.
    async fn ratings_among(
        &self,
        server: u64,
        (first, last): (u64, u64),
        game: Option<&str>,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "{RATING_COLUMNS} WHERE server = $1 AND player BETWEEN $2 AND $3 \
             AND ($4 IS NULL OR game = $4) ORDER BY player"
        )))
        .bind(to_i64("server", server)?)
        .bind(to_i64("player id", first)?)
        .bind(to_i64("player id", last)?)
        .bind(game)
        .fetch_all(&self.read().await?)
        .await?;
        let now = wall_now();
        let mut out = rows
            .iter()
            .map(|r| Ok(rating_row(r)?.as_of(now, self.db.rating_period_ms())))
            .collect::<Result<Vec<_>, StoreError>>()?;
        out.sort_by_key(|r| game_order(&r.game));
        Ok(out)
    }

    /// The leaderboard listing rules `guild` set for itself (none set: all `None`).
    pub async fn leaderboard_settings(&self, guild: u64) -> Result<BoardOverrides, StoreError> {
        let row = sqlx::query(
            "SELECT min_games, recent_days, max_deviation FROM leaderboard_settings \
             WHERE guild_id = $1",
        )
        .bind(to_i64("guild id", guild)?)
        .fetch_optional(&self.read().await?)
        .await?;
        let Some(r) = row else {
            return Ok(BoardOverrides::default());
        };
        let count = |c: &str| -> Result<Option<u32>, StoreError> {
            Ok(r.try_get::<Option<i64>, _>(c)?
                .map(|v| u32::try_from(v).unwrap_or(u32::MAX)))
        };
        Ok(BoardOverrides {
            min_games: count("min_games")?,
            recent_days: count("recent_days")?,
            max_deviation: r.try_get("max_deviation")?,
        })
    }

    /// Replaces the listing rules `guild` set for itself (`by`: who set them).
    pub async fn set_leaderboard_settings(
        &self,
        guild: u64,
        rules: &BoardOverrides,
        by: Option<u64>,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO leaderboard_settings \
             (guild_id, min_games, recent_days, max_deviation, updated_by) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (guild_id) DO UPDATE SET min_games = $2, recent_days = $3, \
             max_deviation = $4, updated_by = $5, \
             updated = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        )
        .bind(to_i64("guild id", guild)?)
        .bind(rules.min_games.map(i64::from))
        .bind(rules.recent_days.map(i64::from))
        .bind(rules.max_deviation)
        .bind(by.map(|b| to_i64("user id", b)).transpose()?)
        .execute(&self.write().await?)
        .await?;
        Ok(())
    }

    /// A server's leaderboard: the players `settings` admit, best first, game by game
    /// (only `game` if given), at most `limit` per game. The umpire's AI seats are
    /// rated but never listed (as Lichess keeps its bots off the human leaderboards).
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
        let (now, period) = (wall_now(), self.db.rating_period_ms());
        let board = Board {
            server: to_i64("server", server)?,
            settings,
            // Computed here, not by the database: one value for the whole read.
            since: ratings::wall_text(
                now.saturating_sub(u64::from(settings.recent_days) * ratings::DAY_MS),
            ),
            limit,
        };
        let mut out = Vec::new();
        for game in games {
            // A deviation only grows until the player's next game, so a row stored at
            // or over the rule's deviation is never listed. Few rows under it (a
            // server of mostly provisional players): read them all by that index.
            let settled: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM (SELECT 1 FROM ratings WHERE server = $1 \
                 AND game = $2 AND deviation < $3 LIMIT $4) AS settled",
            )
            .bind(board.server)
            .bind(game)
            .bind(settings.max_deviation)
            .bind(FEW_SETTLED)
            .fetch_one(&read)
            .await?;
            let mut listed = 0;
            // Otherwise walk the board from the top by (rating, player): the rows
            // the rules leave out are passed over in the index. A deviation grown
            // idle since it was stored ([`RatingRow::as_of`]) may leave a row out:
            // the next rows are read then, after the last one read.
            let mut after = (f64::MAX, -1i64);
            loop {
                let rows = board
                    .page(&read, game, settled < FEW_SETTLED, after)
                    .await?;
                for r in &rows {
                    let row = rating_row(r)?.as_of(now, period);
                    after = (row.rating, to_i64("player id", row.player)?);
                    if row.deviation < settings.max_deviation && listed < limit {
                        out.push(row);
                        listed += 1;
                    }
                }
                if settled < FEW_SETTLED || listed >= limit || rows.len() < limit as usize {
                    break;
                }
            }
        }
        Ok(out)
    }

    /// A rating period, in days (the setting `[ratings] period_days`; 7 by default):
    /// how fast an idle player's deviation grows, as ratings are read and as the next
    /// rated game moves them. Checked by the caller (`ratings::check_period_days`).
    pub fn set_rating_period_days(&self, days: u32) {
        self.db
            .set_rating_period_ms(u64::from(days) * ratings::DAY_MS);
    }

    /// A rating period, in days.
    pub fn rating_period_days(&self) -> u64 {
        self.db.rating_period_ms() / ratings::DAY_MS
    }

    /// What match `id` did to its players' ratings, in seat order: nothing (`[]`) for a
    /// match that is not over, or that counted for nothing.
    pub async fn rating_changes(&self, id: MatchId) -> Result<Vec<RatingChange>, StoreError> {
        let rows = sqlx::query(
            "SELECT r.player, r.result, r.rating_before, r.rating_after, r.deviation_after \
             FROM match_results r JOIN match_players p \
             ON p.match_id = r.match_id AND p.player_id = r.player \
             WHERE r.match_id = $1 ORDER BY p.seat",
        )
        .bind(id.0)
        .fetch_all(&self.read().await?)
        .await?;
        rows.iter()
            .map(|r| {
                let word: String = r.try_get("result")?;
                Ok(RatingChange {
                    player: to_u64(r.try_get("player")?),
                    result: ratings::Result::parse(&word).ok_or_else(|| StoreError::Corrupt {
                        id,
                        seq: 0,
                        reason: format!("a result `{word}`"),
                    })?,
                    rating_before: r.try_get("rating_before")?,
                    rating_after: r.try_get("rating_after")?,
                    deviation_after: r.try_get("deviation_after")?,
                })
            })
            .collect()
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
    /// most `limit`: what each counted for (rated, or why not), and the player's result
    /// and rating before and after it when rated.
    pub async fn history(
        &self,
        server: u64,
        player: u64,
        limit: u32,
    ) -> Result<Vec<HistoryRow>, StoreError> {
        self.history_of(server, player, None, limit).await
    }

    /// [`Store::history`] of one game only (`game` a stored name; `None`: every game).
    pub async fn history_of(
        &self,
        server: u64,
        player: u64,
        game: Option<&str>,
        limit: u32,
    ) -> Result<Vec<HistoryRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT m.id, m.kind, COALESCE(m.finished, m.created) AS finished, r.result, \
             r.rating_before, r.deviation_before, r.rating_after, r.deviation_after, \
             o.why, o.by_player, \
             (SELECT json_group_array(player_id) FROM (SELECT player_id FROM match_players q \
              WHERE q.match_id = m.id ORDER BY seat) AS seated) AS players \
             FROM match_players p JOIN matches m ON m.id = p.match_id \
             LEFT JOIN match_results r ON r.match_id = m.id AND r.player = p.player_id \
             LEFT JOIN match_outcomes o ON o.match_id = m.id \
             WHERE p.player_id = $1 AND m.status = 'over' AND COALESCE(m.guild_id, 0) = $2 \
             AND ($4 IS NULL OR m.kind = $4) \
             ORDER BY m.finished_seq DESC, m.id DESC LIMIT $3",
        )
        .bind(to_i64("player id", player)?)
        .bind(to_i64("server", server)?)
        .bind(i64::from(limit))
        .bind(game)
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
                let result = r
                    .try_get::<Option<String>, _>("result")?
                    .and_then(|w| ratings::Result::parse(&w));
                let why: Option<String> = r.try_get("why")?;
                let by = r.try_get::<Option<i64>, _>("by_player")?.map(to_u64);
                let solo = why.as_deref() == Some(SOLO);
                Ok(HistoryRow {
                    id,
                    game: r.try_get("kind")?,
                    players: players.into_iter().map(to_u64).collect(),
                    rated: result.is_some(),
                    why: why
                        .as_deref()
                        .and_then(|w| Why::from_name(w, by.map(PlayerId))),
                    solo,
                    result,
                    rating_before: r.try_get("rating_before")?,
                    deviation_before: r.try_get("deviation_before")?,
                    rating_after: r.try_get("rating_after")?,
                    deviation_after: r.try_get("deviation_after")?,
                    finished: r.try_get("finished")?,
                })
            })
            .collect()
    }
}

/// Under this many rows with a deviation under a leaderboard's rule, the board reads
/// them all (by the index on deviation) and sorts them; at this many or more, it walks
/// the index in board order, where one row in `FEW_SETTLED / 200,000` or more is
/// listable: a page of 20 reads a few thousand index entries at most.
const FEW_SETTLED: i64 = 1000;

/// One leaderboard read: a server's listing rules.
struct Board<'a> {
    server: i64,
    settings: &'a BoardSettings,
    /// The earliest last game listed (wall time).
    since: String,
    limit: u32,
}

impl Board<'_> {
    /// The rows of `game` the rules admit, best first: all of them (`few`: they were
    /// counted, fewer than [`FEW_SETTLED`]), by the index on deviation; or a page of
    /// `limit` after `after` (rating, player), by the index in board order. The unary
    /// `+` keeps a column's index out of a query's way, on SQLite and PostgreSQL alike.
    async fn page(
        &self,
        read: &sqlx::AnyPool,
        game: &str,
        few: bool,
        after: (f64, i64),
    ) -> Result<Vec<AnyRow>, StoreError> {
        // All the rows by deviation (no bound on the rating there: it would draw
        // SQLite to the board's index); or a page after `after`, in board order.
        let (deviation, after_sql, rating, limit) = if few {
            ("deviation", "", "+rating", "")
        } else {
            let after_sql = "AND rating <= $8 AND (rating < $8 OR player > $9)";
            ("+deviation", after_sql, "rating", "LIMIT $10")
        };
        let sql = format!(
            "{RATING_COLUMNS} WHERE server = $1 AND game = $2 AND games >= $3 \
             AND {deviation} < $4 AND last_played >= $5 AND player NOT BETWEEN $6 AND $7 \
             {after_sql} ORDER BY {rating} DESC, player {limit}"
        );
        let query = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(self.server)
            .bind(game)
            .bind(i64::from(self.settings.min_games))
            .bind(self.settings.max_deviation)
            .bind(&self.since)
            .bind(to_i64("player id", AI_IDS.0)?)
            .bind(to_i64("player id", AI_IDS.1)?);
        let query = if few {
            query
        } else {
            query
                .bind(after.0)
                .bind(after.1)
                .bind(i64::from(self.limit))
        };
        Ok(query.fetch_all(read).await?)
    }
}

/// The wall clock, ms since 1970 (what a read's ratings stand at).
fn wall_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The first and last id an AI seat can have (`PlayerId::ai`).
const AI_IDS: (u64, u64) = (PlayerId::ai(0, 0).0, PlayerId::ai(u8::MAX, u8::MAX).0);

/// Games in the order they are listed to players (unknown names last).
fn game_order(game: &str) -> usize {
    GameKind::ALL
        .iter()
        .position(|k| k.name() == game)
        .unwrap_or(usize::MAX)
}
