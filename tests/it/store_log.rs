//! The store: a match is its append-only event log; appends are all-or-nothing,
//! numbered without gaps, refused when stale; the schema is created on first run.

use crate::stores;
use mondo::finder::Style;
use mondo::store::{
    MatchFilter, MatchId, NewEvent, NewMatch, ServerSettings, Status, Store, StoreError,
};

fn ev(at: u64, body: &str) -> NewEvent {
    NewEvent {
        at,
        body: body.to_string(),
    }
}

/// The match `new`, created with `first` as its first event.
async fn create(store: &Store, new: NewMatch<'_>, first: NewEvent) -> MatchId {
    store.create_match(&new, &first).await.unwrap()
}

/// A plain connection to the SQLite file at `path`, beside the store.
async fn sqlite(path: &std::path::Path) -> sqlx::SqliteConnection {
    use sqlx::Connection;
    sqlx::SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap()
}

fn new_match<'a>(kind: &'a str, players: &'a [u64]) -> NewMatch<'a> {
    NewMatch {
        kind,
        guild: Some(1_234_567_890_123_456_789),
        channel: Some(42),
        seed: u64::MAX - 5,
        settings: r#"{"turn_ms":180000}"#,
        players,
    }
}

#[tokio::test]
async fn first_run_creates_the_database_in_wal_mode_and_reopens_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub.db");
    assert!(!path.exists());
    let store = Store::open(&path).await.unwrap();
    let id = create(&store, new_match("race", &[1, 2]), ev(0, "{}")).await;
    store.close().await;
    assert!(path.exists());
    // WAL: sqlite's own pragma, read through a plain connection.
    let mode: String = {
        let mut c = sqlite(&path).await;
        sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(&mut c)
            .await
            .unwrap()
    };
    assert_eq!(mode, "wal");
    // Opening again runs no migration twice and finds the match.
    let store = Store::open(&path).await.unwrap();
    let record = store.record(id).await.unwrap().expect("the match survives");
    assert_eq!(record.kind, "race");
    assert_eq!(
        record.seed,
        u64::MAX - 5,
        "a u64 seed is stored bit for bit"
    );
    assert_eq!(record.guild, Some(1_234_567_890_123_456_789));
    assert_eq!(record.players, vec![1, 2]);
    assert_eq!(record.status, Status::Live);
}

#[tokio::test]
async fn appends_are_numbered_in_order_and_read_back() {
    for db in stores::each() {
        let store = db.open().await;
        let id = create(&store, new_match("race", &[1, 2]), ev(100, r#"{"n":1}"#)).await;
        let last = store
            .append(
                id,
                1,
                vec![ev(150, r#"{"n":2}"#), ev(150, r#"{"n":3}"#)],
                false,
            )
            .await
            .unwrap();
        assert_eq!(last, 3);
        let last = store
            .append(id, 3, vec![ev(900, r#"{"n":4}"#)], true)
            .await
            .unwrap();
        assert_eq!(last, 4);
        let events = store.events(id).await.unwrap();
        let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
        let ats: Vec<u64> = events.iter().map(|e| e.at).collect();
        assert_eq!(seqs, [1, 2, 3, 4]);
        assert_eq!(ats, [100, 150, 150, 900]);
        assert_eq!(events[3].body, r#"{"n":4}"#);
        let tail = store.events_after(id, 2).await.unwrap();
        assert_eq!(tail.iter().map(|e| e.seq).collect::<Vec<_>>(), [3, 4]);
        let record = store.record(id).await.unwrap().unwrap();
        assert_eq!((record.last_seq, record.last_at), (4, 900));
        assert_eq!(record.status, Status::Over);
    }
}

#[tokio::test]
async fn a_stale_append_is_refused_and_writes_nothing() {
    for db in stores::each() {
        let store = db.open().await;
        let id = create(&store, new_match("race", &[1, 2]), ev(0, "{}")).await;
        store.append(id, 1, vec![ev(1, "{}")], false).await.unwrap();
        // Someone who still thinks the log ends at 1.
        let err = store
            .append(id, 1, vec![ev(2, "{\"late\":1}"), ev(2, "{}")], false)
            .await
            .unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::Conflict {
                    expected: 2,
                    found: 2,
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(store.events(id).await.unwrap().len(), 2);
        let err = store
            .append(MatchId(999), 0, vec![ev(1, "{}")], false)
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::NoSuchMatch(MatchId(999))),
            "{err}"
        );
        assert!(matches!(
            store.events(MatchId(999)).await,
            Err(StoreError::NoSuchMatch(_))
        ));
    }
}

#[tokio::test]
async fn events_cannot_be_changed_or_deleted_even_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.db");
    let store = Store::open(&path).await.unwrap();
    let id = create(&store, new_match("race", &[1, 2]), ev(0, "{\"secret\":1}")).await;
    store.close().await;
    let mut c = sqlite(&path).await;
    for sql in [
        "UPDATE events SET body = '{}' WHERE match_id = ?1",
        "DELETE FROM events WHERE match_id = ?1",
    ] {
        let err = sqlx::query(sql)
            .bind(id.0)
            .execute(&mut c)
            .await
            .unwrap_err();
        assert!(err.to_string().contains("append-only"), "{err}");
    }
}

#[tokio::test]
async fn many_matches_appending_at_once_are_all_committed_without_gaps() {
    for db in stores::each() {
        let store = db.open().await;
        let mut ids = Vec::new();
        for p in 0..50u64 {
            ids.push(create(&store, new_match("race", &[p, p + 100]), ev(0, "{}")).await);
        }
        let mut tasks = Vec::new();
        for id in ids.clone() {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                let mut last = 1;
                for i in 0..40u64 {
                    last = store
                        .append(id, last, vec![ev(i, &format!("{{\"i\":{i}}}"))], false)
                        .await
                        .unwrap();
                }
                last
            }));
        }
        for t in tasks {
            assert_eq!(t.await.unwrap(), 41);
        }
        for id in ids {
            let events = store.events(id).await.unwrap();
            assert_eq!(events.len(), 41);
            for (i, e) in events.iter().enumerate().skip(1) {
                assert_eq!(e.seq, i as u64 + 1);
                assert_eq!(e.body, format!("{{\"i\":{}}}", i - 1));
            }
        }
    }
}

#[tokio::test]
async fn matches_are_listed_by_kind_status_player_and_channel() {
    for db in stores::each() {
        let store = db.open().await;
        let a = create(&store, new_match("race", &[1, 2]), ev(0, "{}")).await;
        let b = create(&store, new_match("race", &[2, 3]), ev(0, "{}")).await;
        let c = store
            .create_match(
                &NewMatch {
                    channel: None,
                    ..new_match("other", &[1])
                },
                &ev(0, "{}"),
            )
            .await
            .unwrap();
        store.append(b, 1, vec![ev(5, "{}")], true).await.unwrap();
        let ids =
            |v: Vec<mondo::store::MatchRecord>| v.into_iter().map(|r| r.id).collect::<Vec<_>>();
        let all = store.matches(&MatchFilter::default()).await.unwrap();
        assert_eq!(ids(all), [c, b, a], "newest first");
        let live_races = MatchFilter {
            kind: Some("race"),
            status: Some(Status::Live),
            ..MatchFilter::default()
        };
        assert_eq!(ids(store.matches(&live_races).await.unwrap()), [a]);
        let of_1 = MatchFilter {
            player: Some(1),
            ..MatchFilter::default()
        };
        assert_eq!(ids(store.matches(&of_1).await.unwrap()), [c, a]);
        let in_42 = MatchFilter {
            channel: Some(42),
            limit: Some(1),
            ..MatchFilter::default()
        };
        assert_eq!(ids(store.matches(&in_42).await.unwrap()), [b]);
    }
}

#[tokio::test]
async fn the_game_clock_resumes_from_the_later_of_its_save_and_the_last_event() {
    for db in stores::each() {
        let store = db.open().await;
        assert_eq!(store.game_clock().await.unwrap(), 0);
        store.save_game_clock(5_000).await.unwrap();
        store.save_game_clock(4_000).await.unwrap();
        assert_eq!(
            store.game_clock().await.unwrap(),
            5_000,
            "it never goes back"
        );
        let id = create(&store, new_match("race", &[1, 2]), ev(5_000, "{}")).await;
        // The process wrote an event at 7.5 s and died before saving the clock again.
        store
            .append(id, 1, vec![ev(7_500, "{}")], false)
            .await
            .unwrap();
        assert_eq!(store.game_clock().await.unwrap(), 7_500);
    }
}

#[tokio::test]
async fn server_settings_and_pools_round_trip() {
    for db in stores::each() {
        let store = db.open().await;
        let guild = 987_654_321_987_654_321;
        assert_eq!(
            store.server_settings(guild).await.unwrap(),
            ServerSettings::default()
        );
        let settings = ServerSettings {
            host_role: Some(1_100_000_000_000_000_001),
            pool: Some("hard".into()),
        };
        store.set_server_settings(guild, &settings).await.unwrap();
        assert_eq!(store.server_settings(guild).await.unwrap(), settings);
        let changed = ServerSettings {
            pool: None,
            ..settings
        };
        store.set_server_settings(guild, &changed).await.unwrap();
        assert_eq!(store.server_settings(guild).await.unwrap(), changed);
        // Each game's own settings, apart: JSON the store keeps without reading it.
        assert_eq!(
            store.game_settings(guild, "zendo-duel").await.unwrap(),
            "{}"
        );
        let duel = serde_json::json!({"turn_ms": 120_000, "style": Style::Varied}).to_string();
        store
            .set_game_settings(guild, "zendo-duel", &duel)
            .await
            .unwrap();
        assert_eq!(
            store.game_settings(guild, "zendo-duel").await.unwrap(),
            duel
        );
        assert_eq!(
            store.game_settings(guild, "other-game").await.unwrap(),
            "{}"
        );
        assert_eq!(
            store.game_settings(guild + 1, "zendo-duel").await.unwrap(),
            "{}"
        );
        // Text that is not JSON is refused by the schema, and nothing changes.
        assert!(
            store
                .set_game_settings(guild, "zendo-duel", "turn 0")
                .await
                .is_err()
        );
        assert_eq!(
            store.game_settings(guild, "zendo-duel").await.unwrap(),
            duel
        );
        assert_eq!(store.server_settings(guild).await.unwrap(), changed);

        let toml = "[[pattern]]\nid = \"up\"\n";
        store.put_pool(guild, "hard", toml, Some(5)).await.unwrap();
        store
            .put_pool(guild, "easy", "# empty", None)
            .await
            .unwrap();
        store.put_pool(guild + 1, "other", "x", None).await.unwrap();
        let pool = store.pool(guild, "hard").await.unwrap().unwrap();
        assert_eq!((pool.toml.as_str(), pool.updated_by), (toml, Some(5)));
        store
            .put_pool(guild, "hard", "# v2", Some(6))
            .await
            .unwrap();
        let names: Vec<String> = store
            .pools(guild)
            .await
            .unwrap()
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(names, ["easy", "hard"]);
        assert_eq!(
            store.pool(guild, "hard").await.unwrap().unwrap().toml,
            "# v2"
        );
        assert!(store.delete_pool(guild, "hard").await.unwrap());
        assert!(!store.delete_pool(guild, "hard").await.unwrap());
        assert!(store.pool(guild, "hard").await.unwrap().is_none());
    }
}

#[tokio::test]
async fn ids_too_large_for_sqlite_are_refused_clearly() {
    for db in stores::each() {
        let store = db.open().await;
        let err = store
            .create_match(&new_match("race", &[u64::MAX, 1]), &ev(0, "{}"))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("player id"), "{err}");
        assert!(
            store
                .matches(&MatchFilter::default())
                .await
                .unwrap()
                .is_empty()
        );
    }
}

#[tokio::test]
async fn terminal_players_keep_one_id_per_name_whatever_its_case() {
    for db in stores::each() {
        let store = db.open().await;
        let alice = store.local_player("Alice").await.unwrap();
        let bob = store.local_player("bob").await.unwrap();
        assert_ne!(alice, bob);
        assert_eq!(store.local_player("ALICE").await.unwrap(), alice);
        let names = store.local_names(&[alice, bob, 999]).await.unwrap();
        // The first spelling is kept; an id with no name is left out.
        assert_eq!(names.get(&alice).map(String::as_str), Some("Alice"));
        assert_eq!(names.get(&bob).map(String::as_str), Some("bob"));
        assert_eq!(names.len(), 2);
    }
}

/// A post that may be out but is not recorded as said (a process can die in between):
/// remembered, with the interaction whose first reply carries it, across a restart,
/// until what was said covers it.
#[tokio::test]
async fn a_post_that_may_be_out_is_remembered_until_it_is_recorded_as_said() {
    use mondo::store::Posting;
    for db in stores::each() {
        let store = db.open().await;
        let id = create(&store, new_match("zendo-duel", &[7, 8]), ev(0, "{}")).await;
        assert_eq!(store.posting(id).await.unwrap(), None, "{}", db.name);
        store.set_posting(id, 4).await.unwrap();
        // A reply to another batch than the one going out is not taken as its post.
        store.set_posting_reply(id, 3, "late").await.unwrap();
        let pending = |reply: Option<&str>| Posting {
            upto: 4,
            reply: reply.map(str::to_string),
        };
        assert_eq!(store.posting(id).await.unwrap(), Some(pending(None)));
        store.set_posting_reply(id, 4, "token-4").await.unwrap();
        store.close().await;
        let store = db.open().await;
        assert_eq!(
            store.posting(id).await.unwrap(),
            Some(pending(Some("token-4"))),
            "{}: it survives a restart",
            db.name
        );
        assert_eq!(store.announced(id).await.unwrap(), 0);
        // Said up to an earlier event: the post is still pending.
        store.set_announced(id, 3).await.unwrap();
        assert_eq!(
            store.posting(id).await.unwrap(),
            Some(pending(Some("token-4")))
        );
        store.set_announced(id, 4).await.unwrap();
        assert_eq!(store.posting(id).await.unwrap(), None, "{}", db.name);
        // The next post starts with no reply of its own.
        store.set_posting(id, 6).await.unwrap();
        assert_eq!(
            store.posting(id).await.unwrap(),
            Some(Posting {
                upto: 6,
                reply: None
            })
        );
        assert_eq!(store.announced(id).await.unwrap(), 4);
        store.close().await;
    }
}

#[tokio::test]
async fn the_discord_front_keeps_dm_channels_and_what_it_said_per_match() {
    for db in stores::each() {
        let store = db.open().await;
        let id = create(&store, new_match("zendo-duel", &[7, 8]), ev(0, "{}")).await;
        assert_eq!(store.announced(id).await.unwrap(), 0, "nothing said yet");
        store.set_dm_channel(id, 7, Some(700)).await.unwrap();
        store.set_dm_channel(id, 8, None).await.unwrap();
        store.set_announced(id, 3).await.unwrap();
        // What was said never goes back (a late writer cannot undo a later post).
        store.set_announced(id, 2).await.unwrap();
        store.close().await;
        // It survives a restart.
        let store = db.open().await;
        let dms = store.dm_channels(id).await.unwrap();
        assert_eq!(dms.get(&7), Some(&Some(700)));
        assert_eq!(dms.get(&8), Some(&None), "no DMs: answers in the channel");
        assert_eq!(store.announced(id).await.unwrap(), 3);
        // A DM that works later replaces the refusal.
        store.set_dm_channel(id, 8, Some(800)).await.unwrap();
        assert_eq!(
            store.dm_channels(id).await.unwrap().get(&8),
            Some(&Some(800))
        );
    }
}

/// A full disk (SQLite's SQLITE_FULL, provoked with a page limit on
/// the writer connection) fails the append with a message that says so and records
/// nothing; the next writes are not poisoned by it (they used to fail for good with
/// "begin_with at non-zero transaction depth"), and work again once there is space.
#[tokio::test]
async fn a_full_disk_fails_the_write_clearly_and_writes_work_again_once_there_is_space() {
    // SQLite's page limit; PostgreSQL has none (`limit_pages` refuses it there).
    for db in [stores::TestDb::sqlite()] {
        let store = db.open().await;
        let id = create(&store, new_match("race", &[1, 2]), ev(0, "{}")).await;
        let big = format!(r#"{{"pad":"{}"}}"#, "x".repeat(200_000));
        for attempt in 0..3 {
            store.limit_pages(Some(1)).await.unwrap();
            let e = store
                .append(id, 1, vec![ev(10, &big)], false)
                .await
                .expect_err("no room for the event");
            assert!(matches!(e, StoreError::Full), "attempt {attempt}: {e:?}");
            assert_eq!(
                e.to_string(),
                "the disk is full; nothing was recorded, try again"
            );
            let e = store
                .create_match(&new_match("race", &[3]), &ev(0, &big))
                .await
                .expect_err("no room for the match");
            assert!(matches!(e, StoreError::Full), "attempt {attempt}: {e:?}");
        }
        assert_eq!(store.events(id).await.unwrap().len(), 1, "nothing recorded");
        assert_eq!(store.record(id).await.unwrap().unwrap().last_seq, 1);
        // Space again: the same append goes through, numbered where it should be.
        store.limit_pages(None).await.unwrap();
        assert_eq!(
            store
                .append(id, 1, vec![ev(10, &big)], false)
                .await
                .unwrap(),
            2
        );
        let other = create(&store, new_match("race", &[3]), ev(0, "{}")).await;
        store.save_game_clock(99).await.unwrap();
        let events = store.events(id).await.unwrap();
        assert_eq!(events.iter().map(|e| e.seq).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(events[1].body, big);
        assert!(store.record(other).await.unwrap().is_some());
    }
}

/// A hole in a match's event numbers (made here by removing the
/// append-only trigger by hand) is refused on reading, naming the match and the
/// missing number, by the store and by `mondo replay`; it is never skipped.
#[tokio::test]
async fn a_gap_in_event_numbers_is_refused_naming_the_match_and_the_number() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.db");
    let store = Store::open(&path).await.unwrap();
    let id = create(&store, new_match("race", &[1, 2]), ev(0, "{}")).await;
    store
        .append(id, 1, vec![ev(1, "{}"), ev(2, "{}"), ev(3, "{}")], false)
        .await
        .unwrap();
    store.close().await;
    {
        let mut c = sqlite(&path).await;
        for sql in [
            "DROP TRIGGER events_no_delete",
            "DELETE FROM events WHERE seq = 3",
        ] {
            sqlx::query(sql).execute(&mut c).await.unwrap();
        }
        sqlx::Connection::close(c).await.unwrap();
    }
    let store = Store::open(&path).await.unwrap();
    let e = store.events(id).await.unwrap_err();
    assert!(
        matches!(
            e,
            StoreError::Gap {
                missing: 3,
                found: 4,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        format!(
            "match {id}: event 3 is missing from its log (it goes on at event 4); the log \
             was changed by hand"
        )
    );
    // Read from after the hole, the rest is whole; from before it, refused.
    assert_eq!(store.events_after(id, 3).await.unwrap().len(), 1);
    assert!(store.events_after(id, 1).await.is_err());
    store.close().await;
    let replay = std::process::Command::new(env!("CARGO_BIN_EXE_mondo"))
        .args(["replay", &id.to_string(), "--db"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(!replay.status.success());
    let said = String::from_utf8(replay.stderr).unwrap();
    assert!(said.contains("event 3 is missing"), "{said}");
}
