//! What the Discord front keeps about a match besides its log: each player's DM
//! channel for private challenge answers (or none, when DMs failed at the start), and
//! the last event said in the match's channel, so a restarted bot says what was
//! committed but not yet said.

use super::Store;
use super::types::{MatchId, StoreError, to_i64, to_u64};
use sqlx::Row;
use std::collections::HashMap;

/// A post that may be out but is not recorded as said ([`Store::posting`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Posting {
    /// The post says the events after [`Store::announced`] up to this one.
    pub upto: u64,
    /// It went out as the first reply to the interaction with this token.
    pub reply: Option<String>,
}

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

    /// A post of `id` that may be out but is not recorded as said (see
    /// [`Store::set_posting`]), if any.
    pub async fn posting(&self, id: MatchId) -> Result<Option<Posting>, StoreError> {
        let row = sqlx::query(
            "SELECT posting, reply FROM discord_announced \
             WHERE match_id = $1 AND posting IS NOT NULL",
        )
        .bind(id.0)
        .fetch_optional(&self.read().await?)
        .await?;
        row.map(|r| {
            Ok(Posting {
                upto: to_u64(r.try_get("posting")?),
                reply: r.try_get("reply")?,
            })
        })
        .transpose()
    }

    /// Records, just before posting them, that the events of `id` up to `seq` may be
    /// out: should this process stop before [`Store::set_announced`], the next one
    /// posts that same range again under the same nonce, so Discord keeps one message.
    pub async fn set_posting(&self, id: MatchId, seq: u64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO discord_announced (match_id, seq, posting) VALUES ($1, 0, $2) \
             ON CONFLICT (match_id) DO UPDATE SET posting = $2, reply = NULL",
        )
        .bind(id.0)
        .bind(to_i64("event number", seq)?)
        .execute(&self.write().await?)
        .await?;
        Ok(())
    }

    /// Records, just before sending it, that the post of `id` up to `seq` goes out as
    /// the first reply to the interaction with `token` (no nonce there): the next
    /// process asks Discord for that reply instead of posting the range again.
    pub async fn set_posting_reply(
        &self,
        id: MatchId,
        seq: u64,
        token: &str,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE discord_announced SET reply = $3 WHERE match_id = $1 AND posting = $2")
            .bind(id.0)
            .bind(to_i64("event number", seq)?)
            .bind(token)
            .execute(&self.write().await?)
            .await?;
        Ok(())
    }

    /// Records that the events of `id` up to `seq` were said (it never goes back); a
    /// post they cover is no longer pending.
    pub async fn set_announced(&self, id: MatchId, seq: u64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO discord_announced (match_id, seq) VALUES ($1, $2) \
             ON CONFLICT (match_id) DO UPDATE SET seq = MAX(discord_announced.seq, $2), \
             posting = CASE WHEN discord_announced.posting <= $2 THEN NULL \
             ELSE discord_announced.posting END, \
             reply = CASE WHEN discord_announced.posting <= $2 THEN NULL \
             ELSE discord_announced.reply END",
        )
        .bind(id.0)
        .bind(to_i64("event number", seq)?)
        .execute(&self.write().await?)
        .await?;
        Ok(())
    }
}
