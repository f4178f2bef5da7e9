//! What the Discord front keeps about a match besides its log: each player's DM
//! channel for private challenge answers (or none, when DMs failed at the start), and
//! the last event said in the match's channel, so a restarted bot says what was
//! committed but not yet said.

use super::{MatchId, Store, StoreError, to_i64, to_u64};
use sqlx::Row;
use std::collections::HashMap;

// Reads go through the read pool (WAL: they see every committed write), so a desk
// looking up DM channels never waits behind the event log's writer.
impl Store {
    /// Records where `user` answers challenges in `id`: a DM channel, or `None` when
    /// the bot cannot DM them.
    pub async fn set_dm_channel(
        &self,
        id: MatchId,
        user: u64,
        dm: Option<u64>,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO discord_players (match_id, user_id, dm_channel) VALUES ($1, $2, $3) \
             ON CONFLICT (match_id, user_id) DO UPDATE SET dm_channel = $3",
        )
        .bind(id.0)
        .bind(to_i64("user id", user)?)
        .bind(dm.map(|c| to_i64("channel id", c)).transpose()?)
        .execute(&self.write().await?)
        .await?;
        Ok(())
    }

    /// Each recorded player of `id` with their DM channel (`None`: no DMs).
    pub async fn dm_channels(&self, id: MatchId) -> Result<HashMap<u64, Option<u64>>, StoreError> {
        let rows =
            sqlx::query("SELECT user_id, dm_channel FROM discord_players WHERE match_id = $1")
                .bind(id.0)
                .fetch_all(&self.read().await?)
                .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    to_u64(r.try_get("user_id")?),
                    r.try_get::<Option<i64>, _>("dm_channel")?.map(to_u64),
                ))
            })
            .collect()
    }

    /// The last event of `id` said in its channel (0: none yet).
    pub async fn announced(&self, id: MatchId) -> Result<u64, StoreError> {
        let seq: Option<i64> =
            sqlx::query_scalar("SELECT seq FROM discord_announced WHERE match_id = $1")
                .bind(id.0)
                .fetch_optional(&self.read().await?)
                .await?;
        Ok(seq.map_or(0, to_u64))
    }

    /// Records that the events of `id` up to `seq` were said (it never goes back).
    pub async fn set_announced(&self, id: MatchId, seq: u64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO discord_announced (match_id, seq) VALUES ($1, $2) \
             ON CONFLICT (match_id) DO UPDATE SET seq = MAX(discord_announced.seq, $2)",
        )
        .bind(id.0)
        .bind(to_i64("event number", seq)?)
        .execute(&self.write().await?)
        .await?;
        Ok(())
    }
}
