//! A server's records written in bulk, for `mondo bench leaderboard`: finished, rated
//! matches (their rows, players, results and outcomes, not their event logs) and the
//! ratings they left, many rows to a statement and many statements to a transaction,
//! so a million matches are stored in a minute rather than a day. Only into an empty
//! store ([`Store::has_matches`]): the rows take the ids they are given.

use super::Store;
use super::db::Backend;
use super::ratings::RatingRow;
use super::types::{StoreError, to_i64};
use mondo_rules::ratings::{self, Rating};
use std::fmt::Write;

/// One player's part in a seeded match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeedPart {
    pub player: u64,
    /// 0 first.
    pub place: u32,
    pub result: ratings::Result,
    pub before: Rating,
    pub after: Rating,
}

/// One finished, rated match to seed.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedMatch {
    /// Its id, and its place in the order of endings.
    pub id: i64,
    pub kind: &'static str,
    pub server: u64,
    /// Wall time it ended, ms since 1970.
    pub ended_ms: u64,
    pub parts: Vec<SeedPart>,
}

/// Rows per INSERT statement.
const ROWS: usize = 1000;

impl Store {
    /// Whether any match is stored.
    pub async fn has_matches(&self) -> Result<bool, StoreError> {
        let any: i64 = sqlx::query_scalar(
            "SELECT CAST(CASE WHEN EXISTS (SELECT 1 FROM matches) THEN 1 ELSE 0 END AS BIGINT)",
        )
        .fetch_one(&self.read().await?)
        .await?;
        Ok(any == 1)
    }

    /// Stores `matches` (ids not yet taken) as finished and rated, in one transaction.
    pub async fn seed_matches(&self, matches: &[SeedMatch]) -> Result<(), StoreError> {
        let mut tables: [(&str, Vec<String>); 4] = [
            (
                "matches (id, kind, guild_id, seed, status, created_at, last_seq, last_at, \
                 created, finished, finished_seq)",
                Vec::new(),
            ),
            ("match_players (match_id, seat, player_id)", Vec::new()),
            (
                "match_results (match_id, player, place, result, rating_before, \
                 deviation_before, rating_after, deviation_after)",
                Vec::new(),
            ),
            ("match_outcomes (match_id, rated)", Vec::new()),
        ];
        for m in matches {
            let ended = ratings::wall_text(m.ended_ms);
            let (id, server) = (m.id, to_i64("server", m.server)?);
            let game = check_name(m.kind)?;
            tables[0].1.push(format!(
                "({id}, '{game}', {server}, {id}, 'over', 0, 0, 0, '{ended}', '{ended}', {id})"
            ));
            for (seat, p) in m.parts.iter().enumerate() {
                let player = to_i64("player id", p.player)?;
                let (b, a) = (p.before, p.after);
                tables[1].1.push(format!("({id}, {seat}, {player})"));
                tables[2].1.push(format!(
                    "({id}, {player}, {}, '{}', {}, {}, {}, {})",
                    p.place,
                    p.result.as_str(),
                    number(b.rating)?,
                    number(b.deviation)?,
                    number(a.rating)?,
                    number(a.deviation)?
                ));
            }
            tables[3].1.push(format!("({id}, 1)"));
        }
        let mut tx = self.begin_write().await?;
        for (table, rows) in &tables {
            insert(&mut tx, table, rows).await?;
        }
        if self.backend() == Backend::Postgres {
            // The ids were given: the next match created takes one after them.
            sqlx::query(
                "SELECT setval(pg_get_serial_sequence('matches', 'id'), \
                 (SELECT MAX(id) FROM matches))",
            )
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Stores `rows` as the ratings (none of them stored yet), in one transaction, and
    /// has the database measure its tables for the planner (PostgreSQL's ANALYZE, as
    /// its autovacuum would after so many rows; SQLite's planner needs none).
    pub async fn seed_ratings(&self, rows: &[RatingRow]) -> Result<(), StoreError> {
        let mut values = Vec::with_capacity(rows.len());
        for r in rows {
            values.push(format!(
                "({}, '{}', {}, {}, {}, {}, {}, {}, {}, {}, {}, '{}')",
                to_i64("server", r.server)?,
                check_name(&r.game)?,
                to_i64("player id", r.player)?,
                number(r.rating)?,
                number(r.deviation)?,
                number(r.volatility)?,
                r.games,
                r.wins,
                r.losses,
                r.draws,
                r.last_match.0,
                check_name(&r.last_played)?,
            ));
        }
        let mut tx = self.begin_write().await?;
        insert(
            &mut tx,
            "ratings (server, game, player, rating, deviation, volatility, games, wins, \
             losses, draws, last_match, last_played)",
            &values,
        )
        .await?;
        tx.commit().await?;
        if self.backend() == Backend::Postgres {
            sqlx::query("VACUUM ANALYZE")
                .execute(&self.write().await?)
                .await?;
        }
        Ok(())
    }
}

/// `rows` into `table`, [`ROWS`] to a statement.
async fn insert(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    table: &str,
    rows: &[String],
) -> Result<(), StoreError> {
    for chunk in rows.chunks(ROWS) {
        let mut sql = format!("INSERT INTO {table} VALUES ");
        for (i, row) in chunk.iter().enumerate() {
            let _ = write!(sql, "{}{row}", if i == 0 { "" } else { ", " });
        }
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .persistent(false)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// A number written into SQL text (every seeded value is one, or a checked name).
fn number(x: f64) -> Result<String, StoreError> {
    if x.is_finite() {
        Ok(format!("{x:?}"))
    } else {
        Err(StoreError::Injected("a seeded rating is not a number"))
    }
}

/// A game's name or a wall time written into SQL text: letters, digits, `-:.TZ` only.
fn check_name(text: &str) -> Result<&str, StoreError> {
    if text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | ':' | '.'))
    {
        Ok(text)
    } else {
        Err(StoreError::Injected("a seeded name has other characters"))
    }
}
