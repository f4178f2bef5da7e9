//! Logical Bluffs on Discord: each bluff read back to its player and waiting for its
//! *Submit this bluff*, so the button drawn before a restart submits exactly what it
//! read back. The store keeps the bluff's JSON; the front reads it back.

use super::Store;
use super::types::{MatchId, StoreError, to_i64, to_u64};

/// Drafts kept per player and match: a player who keeps refilling the form without
/// submitting cannot grow the table; an older read-back's button then says so.
const KEPT_DRAFTS: i64 = 10;

impl Store {
    /// Keeps `bluff` (JSON) read back to `user` in `id`; the draft's number, for the
    /// button that submits it.
    pub async fn put_bluff_draft(
        &self,
        id: MatchId,
        user: u64,
        bluff: &str,
    ) -> Result<u64, StoreError> {
        let user = to_i64("user id", user)?;
        let mut tx = self.begin_write().await?;
        let draft: i64 = sqlx::query_scalar(
            "INSERT INTO bluffs_drafts (match_id, user_id, bluff) VALUES ($1, $2, $3) \
             RETURNING id",
        )
        .bind(id.0)
        .bind(user)
        .bind(bluff)
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query(
            "DELETE FROM bluffs_drafts WHERE match_id = $1 AND user_id = $2 AND id NOT IN \
             (SELECT id FROM bluffs_drafts WHERE match_id = $1 AND user_id = $2 \
              ORDER BY id DESC LIMIT $3)",
        )
        .bind(id.0)
        .bind(user)
        .bind(KEPT_DRAFTS)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(to_u64(draft))
    }

    /// Draft `draft` of `user` in `id` (JSON), if it is still kept: another player's
    /// or another match's number finds nothing.
    pub async fn bluff_draft(
        &self,
        id: MatchId,
        user: u64,
        draft: u64,
    ) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT bluff FROM bluffs_drafts WHERE id = $1 AND match_id = $2 AND user_id = $3",
        )
        .bind(to_i64("draft", draft)?)
        .bind(id.0)
        .bind(to_i64("user id", user)?)
        .fetch_optional(&self.read().await?)
        .await?)
    }

    /// Forgets every draft of `user` in `id` (one of them was submitted).
    pub async fn forget_bluff_drafts(&self, id: MatchId, user: u64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM bluffs_drafts WHERE match_id = $1 AND user_id = $2")
            .bind(id.0)
            .bind(to_i64("user id", user)?)
            .execute(&self.write().await?)
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NewEvent, NewMatch};

    async fn a_match(store: &Store, players: &[u64]) -> MatchId {
        let new = NewMatch {
            kind: "logical-bluffs",
            guild: Some(1),
            channel: Some(2),
            seed: 7,
            settings: "{}",
            players,
        };
        let first = NewEvent {
            at: 0,
            body: "{}".into(),
        };
        store.create_match(&new, &first).await.expect("a match")
    }

    #[tokio::test]
    async fn a_matchs_drafts_are_forgotten_when_it_ends() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(&dir.path().join("m.db")).await.expect("open");
        let game = a_match(&store, &[10, 20]).await;
        let other = a_match(&store, &[10, 20]).await;
        let mine = store.put_bluff_draft(game, 10, "{}").await.expect("kept");
        let kept = store.put_bluff_draft(other, 10, "{}").await.expect("kept");
        let event = || NewEvent {
            at: 1,
            body: "{}".into(),
        };
        store
            .append(game, 1, vec![event()], false)
            .await
            .expect("a move");
        assert!(
            store.bluff_draft(game, 10, mine).await.unwrap().is_some(),
            "still live"
        );
        // A resignation or a time-out: the match is over with nothing submitted.
        store
            .append(game, 2, vec![event()], true)
            .await
            .expect("the end");
        assert_eq!(store.bluff_draft(game, 10, mine).await.unwrap(), None);
        assert!(
            store.bluff_draft(other, 10, kept).await.unwrap().is_some(),
            "another match's draft stays"
        );
    }

    #[tokio::test]
    async fn a_draft_reads_back_after_reopening_only_for_its_player_and_match() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("m.db");
        let store = Store::open(&path).await.expect("open");
        let game = a_match(&store, &[10, 20]).await;
        let other = a_match(&store, &[10, 20]).await;
        let first = store
            .put_bluff_draft(game, 10, r#"{"n":1}"#)
            .await
            .expect("kept");
        let second = store
            .put_bluff_draft(game, 10, r#"{"n":2}"#)
            .await
            .expect("kept");
        assert_ne!(first, second);
        store.close().await;

        let store = Store::open(&path).await.expect("reopened");
        let read = |user, draft| store.bluff_draft(game, user, draft);
        assert_eq!(
            read(10, first).await.unwrap().as_deref(),
            Some(r#"{"n":1}"#)
        );
        assert_eq!(
            read(10, second).await.unwrap().as_deref(),
            Some(r#"{"n":2}"#)
        );
        assert_eq!(
            read(20, first).await.unwrap(),
            None,
            "not the other player's"
        );
        assert_eq!(store.bluff_draft(other, 10, first).await.unwrap(), None);
        store.forget_bluff_drafts(game, 10).await.expect("forgot");
        assert_eq!(read(10, second).await.unwrap(), None, "gone once submitted");
        assert!(
            store.put_bluff_draft(game, 10, "not json").await.is_err(),
            "only JSON is kept"
        );
    }

    #[tokio::test]
    async fn only_the_newest_drafts_of_a_player_are_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path().join("m.db")).await.expect("open");
        let game = a_match(&store, &[10, 20]).await;
        let theirs = store.put_bluff_draft(game, 20, "[]").await.unwrap();
        let mut ids = Vec::new();
        for n in 0..KEPT_DRAFTS + 2 {
            ids.push(
                store
                    .put_bluff_draft(game, 10, &n.to_string())
                    .await
                    .unwrap(),
            );
        }
        let mut kept = 0;
        for (k, draft) in ids.iter().enumerate() {
            let found = store.bluff_draft(game, 10, *draft).await.unwrap();
            assert_eq!(found.is_some(), k >= 2, "draft {k}");
            kept += usize::from(found.is_some());
        }
        assert_eq!(kept as i64, KEPT_DRAFTS);
        assert!(store.bluff_draft(game, 20, theirs).await.unwrap().is_some());
    }
}
