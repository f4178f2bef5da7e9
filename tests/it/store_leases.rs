//! Leases and fencing tokens, on both databases: one process at a time runs a match;
//! a takeover after the lease runs out gives a higher token; and the DATABASE refuses
//! an append whose token is not the current one, writing nothing.

use crate::stores::{self, ev};
use mondo::store::{Store, StoreError};
use std::time::Duration;

/// A two-player race match, created with an empty first event.
pub(crate) async fn a_match(store: &Store) -> mondo::store::MatchId {
    stores::race_match(store, 1, &[1, 2], ev(0, "{}")).await
}

const LONG: Duration = Duration::from_secs(60);

#[tokio::test]
async fn a_stale_token_is_refused_by_the_database_and_nothing_is_written() {
    for db in stores::each() {
        let store = db.open().await;
        let id = a_match(&store).await;
        let a = store.take_lease(id, "process-a", LONG).await.unwrap();
        assert_eq!(a.token, 1, "{}: the first lease", db.name);
        store
            .append_fenced(
                id,
                Some(a.token),
                1,
                vec![ev(1, "{\"by\":\"a\"}")],
                false,
                None,
            )
            .await
            .unwrap();
        // B cannot take a live lease.
        let err = store.take_lease(id, "process-b", LONG).await.unwrap_err();
        assert!(
            matches!(&err, StoreError::Leased { owner, .. } if owner == "process-a"),
            "{}: {err}",
            db.name
        );
        // A's lease runs out (released at once here), B takes over with a new token.
        store.release_lease(&a).await.unwrap();
        let b = store.take_lease(id, "process-b", LONG).await.unwrap();
        assert_eq!(b.token, 2, "{}: a takeover bumps the token", db.name);
        // A wakes up and appends with its old token: refused, nothing written.
        let err = store
            .append_fenced(
                id,
                Some(a.token),
                2,
                vec![ev(2, "{\"by\":\"a\"}")],
                false,
                None,
            )
            .await
            .unwrap_err();
        let StoreError::Fenced { why, .. } = &err else {
            panic!("{}: a stale token is fenced, not {err}", db.name);
        };
        assert!(
            why.contains("token 1") && why.contains("process-b") && why.contains("token 2"),
            "{}: {err}",
            db.name
        );
        assert!(err.to_string().contains("nothing was recorded"), "{err}");
        assert_eq!(store.events(id).await.unwrap().len(), 2, "{}", db.name);
        let record = store.record(id).await.unwrap().unwrap();
        assert_eq!(record.last_seq, 2, "{}: the match did not move", db.name);
        // An append with no token while B holds a live lease: refused too.
        let err = store
            .append(id, 2, vec![ev(2, "{}")], false)
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::Fenced { .. }),
            "{}: {err}",
            db.name
        );
        // A's renewal is refused as well: the match is B's.
        let err = store.renew_lease(&a, LONG).await.unwrap_err();
        assert!(
            matches!(err, StoreError::Fenced { .. }),
            "{}: {err}",
            db.name
        );
        // B's append with the current token goes through.
        let last = store
            .append_fenced(
                id,
                Some(b.token),
                2,
                vec![ev(3, "{\"by\":\"b\"}")],
                false,
                None,
            )
            .await
            .unwrap();
        assert_eq!(last, 3);
        let bodies: Vec<String> = store
            .events(id)
            .await
            .unwrap()
            .into_iter()
            .map(|e| e.body)
            .collect();
        assert_eq!(
            bodies,
            ["{}", "{\"by\":\"a\"}", "{\"by\":\"b\"}"],
            "{}",
            db.name
        );
        store.close().await;
    }
}

#[tokio::test]
async fn a_takeover_after_expiry_on_the_databases_clock_bumps_the_token() {
    for db in stores::each() {
        let store = db.open().await;
        let id = a_match(&store).await;
        let a = store
            .take_lease(id, "process-a", Duration::from_millis(150))
            .await
            .unwrap();
        let now = store.database_now_ms().await.unwrap();
        assert!(
            a.expires_ms > now && a.expires_ms <= now + 150,
            "{}: the expiry is on the database's clock ({} against {now})",
            db.name,
            a.expires_ms
        );
        // Taken again by its owner while live: the same token, a later expiry.
        let again = store.take_lease(id, "process-a", LONG).await.unwrap();
        assert_eq!(again.token, a.token, "{}", db.name);
        let renewed = store
            .renew_lease(&again, Duration::from_millis(150))
            .await
            .unwrap();
        assert_eq!(renewed.token, a.token);
        // Renewed for no time, it runs out at once on the database's clock (which
        // never goes back): no waiting for a lease to run out.
        let ran_out = store.renew_lease(&renewed, Duration::ZERO).await.unwrap();
        assert!(ran_out.expires_ms <= store.database_now_ms().await.unwrap());
        let b = store.take_lease(id, "process-b", LONG).await.unwrap();
        assert_eq!(b.token, a.token + 1, "{}: the takeover's token", db.name);
        let seen = store.lease(id).await.unwrap().unwrap();
        assert_eq!((seen.owner.as_str(), seen.token), ("process-b", b.token));
        // The old owner, taking it back once B lets go, gets yet another token.
        store.release_lease(&b).await.unwrap();
        let c = store.take_lease(id, "process-a", LONG).await.unwrap();
        assert_eq!(c.token, b.token + 1, "{}: tokens are never reused", db.name);
        // A lease on no match is refused as such.
        let err = store
            .take_lease(mondo::store::MatchId(9_999), "process-a", LONG)
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::NoSuchMatch(_)),
            "{}: {err}",
            db.name
        );
        store.close().await;
    }
}

#[tokio::test]
async fn a_batch_with_one_fenced_append_commits_the_others() {
    for db in stores::each() {
        let store = db.open().await;
        let ids = [
            a_match(&store).await,
            a_match(&store).await,
            a_match(&store).await,
        ];
        let leases = [
            store.take_lease(ids[0], "p", LONG).await.unwrap(),
            store.take_lease(ids[1], "p", LONG).await.unwrap(),
        ];
        // Appends sent at once share the writer's transactions.
        let (ok, stale, unleased) = tokio::join!(
            store.append_fenced(
                ids[0],
                Some(leases[0].token),
                1,
                vec![ev(1, "{}")],
                false,
                None
            ),
            store.append_fenced(
                ids[1],
                Some(leases[1].token + 7),
                1,
                vec![ev(1, "{}")],
                false,
                None
            ),
            store.append(ids[2], 1, vec![ev(1, "{}")], false),
        );
        assert_eq!(ok.unwrap(), 2, "{}", db.name);
        assert!(
            matches!(stale, Err(StoreError::Fenced { .. })),
            "{}: {stale:?}",
            db.name
        );
        assert_eq!(
            unleased.unwrap(),
            2,
            "{}: a match nobody leases takes appends",
            db.name
        );
        assert_eq!(store.events(ids[1]).await.unwrap().len(), 1, "{}", db.name);
        store.close().await;
    }
}

/// SQLite's own settings (the page limit, the busy timeout) say plainly on PostgreSQL
/// that they are SQLite's, rather than doing nothing.
#[tokio::test]
async fn sqlite_settings_refuse_clearly_on_postgres() {
    for db in stores::each().into_iter().filter(|db| db.is_postgres()) {
        let store = db.open().await;
        let e = store.limit_pages(Some(10)).await.unwrap_err();
        assert_eq!(
            e.to_string(),
            "a page limit is a SQLite setting; PostgreSQL has no such thing"
        );
        let e = store
            .set_busy_timeout(Duration::from_millis(5))
            .await
            .unwrap_err();
        assert!(matches!(e, StoreError::SqliteOnly(_)), "{e}");
        store.close().await;
    }
}

/// One busy process holds 20,000 live matches: one renewal round renews every lease
/// it holds in ONE statement (a commit per match lost its own leases at 2,000-3,000),
/// and leaves alone the one another process took.
#[tokio::test]
async fn one_statement_renews_twenty_thousand_leases() {
    const N: i64 = 20_000;
    for db in stores::each() {
        let store = db.open().await;
        db.execute(&format!(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {N}) \
             INSERT INTO matches (kind, seed, created_at, last_at) SELECT 'race', i, 0, 0 FROM n"
        ))
        .await;
        // Held by the busy process since long ago (run out, taken by nobody), but one.
        db.execute("INSERT INTO leases (match_id, owner, expires_ms, token) SELECT id, 'busy', 1, 1 FROM matches")
            .await;
        db.execute("UPDATE leases SET owner = 'other', token = 2 WHERE match_id = 7")
            .await;
        let ids: Vec<_> = store
            .matches(&mondo::store::MatchFilter::default())
            .await
            .unwrap()
            .iter()
            .map(|m| m.id)
            .collect();
        assert_eq!(ids.len(), N as usize, "{}", db.name);
        let renewed = store.renew_leases("busy", &ids, LONG).await.unwrap();
        assert_eq!(renewed.len(), N as usize - 1, "{}", db.name);
        assert!(renewed.iter().all(|(id, token)| id.0 != 7 && *token == 1));
        let live = db
            .count("SELECT COUNT(*) FROM leases WHERE owner = 'busy' AND expires_ms > 1")
            .await;
        assert_eq!(live, N - 1, "{}: every lease renewed", db.name);
    }
}

/// Two processes edit one server's pool at once, each from what it read: the first
/// write lands, the second is refused (nothing of the first is overwritten) and,
/// made again on what is there now, lands too: both edits stay. A pool made by two
/// at once is made once.
#[tokio::test]
async fn two_processes_editing_a_pool_keep_both_edits() {
    for db in stores::each() {
        let (a, b) = (db.open().await, db.open().await);
        assert!(a.replace_pool(9, "p", None, "v0", Some(1)).await.unwrap());
        assert!(!b.replace_pool(9, "p", None, "w0", Some(2)).await.unwrap());
        let read_a = a.pool(9, "p").await.unwrap().unwrap().toml;
        let read_b = b.pool(9, "p").await.unwrap().unwrap().toml;
        let mine = |read: &str, edit: &str| format!("{read}+{edit}");
        assert!(
            a.replace_pool(9, "p", Some(&read_a), &mine(&read_a, "a"), Some(1))
                .await
                .unwrap()
        );
        assert!(
            !b.replace_pool(9, "p", Some(&read_b), &mine(&read_b, "b"), Some(2))
                .await
                .unwrap(),
            "{}: a stale edit overwrote another",
            db.name
        );
        let again = b.pool(9, "p").await.unwrap().unwrap().toml;
        assert!(
            b.replace_pool(9, "p", Some(&again), &mine(&again, "b"), Some(2))
                .await
                .unwrap()
        );
        assert_eq!(
            a.pool(9, "p").await.unwrap().unwrap().toml,
            "v0+a+b",
            "{}",
            db.name
        );
    }
}
