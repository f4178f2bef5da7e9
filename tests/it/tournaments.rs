//! Tournaments in the store and at the terminal (docs/tournaments.md): the log read
//! back after a restart on both databases, a writer that moved on refused, and the
//! `mondo tournament` commands with their JSON contracts.

use crate::stores;
use mondo::rules::PlayerId;
use mondo::store::{Store, StoreError};
use mondo::tournament::{Act, Event, Format, Outcome, Settings, Tournament};

const HOST: PlayerId = PlayerId(1);

fn settings() -> Settings {
    Settings {
        format: Format::Swiss { rounds: 3 },
        game: "pattern-assembly".into(),
        playoff_game: None,
        best_of: 1,
        round_ms: 3_600_000,
        signup_until: None,
        remind_ms: None,
        ai_fill: None,
        channel: None,
    }
}

fn json(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect()
}

/// Tournament `id` as `store` holds it now.
pub(crate) async fn read(store: &Store, id: i64) -> Tournament {
    let events: Vec<Event> = store
        .tournament_events(id)
        .await
        .unwrap()
        .iter()
        .map(|s| serde_json::from_str(s).unwrap())
        .collect();
    Tournament::from_events(&events).unwrap()
}

/// A tournament's log, appended act by act, reads back after a restart as the same
/// tournament, on SQLite and PostgreSQL; an append after a stale event number is
/// refused and writes nothing.
#[tokio::test]
async fn a_tournament_reads_back_after_a_restart() {
    for db in stores::each() {
        let created = Tournament::create("Winter Cup", HOST, settings(), 0).unwrap();
        let (id, expected) = {
            let store = db.open().await;
            let id = store
                .create_tournament(
                    Some(7),
                    "Winter Cup",
                    0,
                    &json(std::slice::from_ref(&created))[0],
                )
                .await
                .unwrap();
            let mut t = Tournament::from_events(&[created]).unwrap();
            let mut acts: Vec<Act> = (10..15)
                .map(|k| Act::Join {
                    player: PlayerId(k),
                    name: format!("p{k}"),
                })
                .collect();
            acts.push(Act::Start {
                by: HOST,
                ratings: vec![(PlayerId(12), 1600.0)],
                fill: Vec::new(),
            });
            acts.push(Act::Report {
                round: 1,
                table: 0,
                result: Outcome::Draw,
                score: Some([3, 3]),
                match_id: Some(42),
            });
            for (k, act) in acts.iter().enumerate() {
                let events = t.act(act, 10 + k as u64).unwrap();
                let after = t.log.len() as u64;
                store
                    .append_tournament(id, after, &json(&events))
                    .await
                    .unwrap();
                for e in &events {
                    t.apply(e);
                }
            }
            let stale = store
                .append_tournament(id, 3, &json(&[Event::Paused { at: 99 }]))
                .await;
            assert!(
                matches!(stale, Err(StoreError::TournamentMoved { found, .. }) if found == t.log.len() as u64),
                "{}: {stale:?}",
                db.name
            );
            store.close().await;
            (id, t)
        };
        let store = db.open().await;
        let back = read(&store, id).await;
        assert_eq!(back, expected, "{}", db.name);
        assert_eq!(
            back.seats[0].player,
            PlayerId(12),
            "{}: the rated seed first",
            db.name
        );
        let listed = store.tournaments(Some(7)).await.unwrap();
        assert_eq!(listed.len(), 1, "{}", db.name);
        assert_eq!(listed[0].last_seq, expected.log.len() as u64, "{}", db.name);
        assert!(
            store.tournaments(None).await.unwrap().is_empty(),
            "{}",
            db.name
        );
        assert!(matches!(
            store.tournament_events(id + 1).await,
            Err(StoreError::NoTournament(_))
        ));
        store.close().await;
    }
}

fn mondo(args: &[&str]) -> std::process::Output {
    crate::store_ratings::mondo(args)
}

/// `mondo tournament ARGS --db DB`, which must succeed; its standard output.
fn ok(db: &str, args: &[&str]) -> String {
    let out = mondo(&[&["tournament"], args, &["--db", db]].concat());
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// `mondo tournament ARGS --db DB`, which must be refused; its error.
fn refused(db: &str, args: &[&str]) -> String {
    let out = mondo(&[&["tournament"], args, &["--db", db]].concat());
    assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
    String::from_utf8(out.stderr).unwrap()
}

fn rows(db: &str, what: &str, id: &str) -> Vec<serde_json::Value> {
    serde_json::from_str(&ok(db, &[what, id, "--json"])).expect("a JSON array")
}

/// The keys of every row, sorted.
fn keys(rows: &[serde_json::Value]) -> Vec<String> {
    let mut k: Vec<String> = rows[0].as_object().unwrap().keys().cloned().collect();
    k.sort();
    assert!(rows.iter().all(|r| r.as_object().unwrap().len() == k.len()));
    k
}

/// A tournament made and played at the terminal: create, join, start, results
/// settled by the host, a withdrawal; standings and matches in JSON with exactly the
/// contract's fields; refusals said with what is allowed; the page escapes names.
#[test]
fn a_terminal_round_robin_from_sign_up_to_champion() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let db = db.to_str().unwrap();
    let made = ok(db, &["create", "Spring <Cup>", "--format", "roundrobin"]);
    assert!(
        made.starts_with("tournament 1: Spring <Cup> (round robin"),
        "{made}"
    );
    assert!(refused(db, &["create", "X", "--format", "swiss"]).contains("--rounds"));
    for p in ["alice", "bob", "carol", "dave"] {
        ok(db, &["join", "1", p]);
    }
    assert!(refused(db, &["join", "1", "bob"]).contains("bob has already joined"));
    assert!(refused(db, &["start", "1", "--host", "alice"]).contains("only the host"));
    let started = ok(db, &["start", "1"]);
    assert!(
        started.contains("round 1 (round-robin) opened"),
        "{started}"
    );
    assert!(refused(db, &["join", "1", "erin"]).contains("sign-up is closed"));
    // Round 1 (the circle): alice v dave, bob v carol.
    let m = rows(db, "matches", "1");
    assert_eq!(keys(&m), ["match", "players", "result", "round", "stage"]);
    assert_eq!(m[0]["players"], serde_json::json!(["alice", "dave"]));
    assert_eq!(m[0]["result"], serde_json::Value::Null);
    ok(
        db,
        &[
            "settle", "1", "--round", "1", "--table", "1", "--result", "alice",
        ],
    );
    assert!(
        refused(
            db,
            &[
                "settle", "1", "--round", "1", "--table", "2", "--result", "alice"
            ]
        )
        .contains("alice does not play at that table")
    );
    ok(
        db,
        &[
            "settle", "1", "--round", "1", "--table", "2", "--result", "draw",
        ],
    );
    let gone = ok(db, &["withdraw", "1", "dave"]);
    assert!(gone.contains("dave withdrew"), "{gone}");
    // Rounds 2 and 3: dave's matches are forfeited as they open; alice wins the rest.
    for round in ["2", "3"] {
        let m = rows(db, "matches", "1");
        for (k, row) in m
            .iter()
            .filter(|r| r["round"] == round.parse::<u32>().unwrap())
            .enumerate()
        {
            if row["result"].is_null() {
                let winner = row["players"][0].as_str().unwrap().to_string();
                ok(
                    db,
                    &[
                        "settle",
                        "1",
                        "--round",
                        round,
                        "--table",
                        &(k + 1).to_string(),
                        "--result",
                        &winner,
                    ],
                );
            } else {
                assert_eq!(row["result"], "forfeit");
            }
        }
    }
    let s = rows(db, "standings", "1");
    assert_eq!(
        keys(&s),
        ["played", "player", "points", "rank", "tiebreaks"]
    );
    assert_eq!(s[0]["player"], "alice");
    assert_eq!(s[0]["points"], 3.0);
    assert_eq!(s.last().unwrap()["player"], "dave");
    assert!(s[0]["tiebreaks"].get("game_score").is_some());
    let history = ok(db, &["history", "1"]);
    for said in [
        "alice joined",
        "started with 4 players",
        "round 1, table 2: a draw (settled by the host)",
        "dave withdrew",
        "forfeited by dave",
        "finished: alice is the champion",
    ] {
        assert!(history.contains(said), "{said}: {history}");
    }
    let text = ok(db, &["standings", "1"]);
    assert!(text.contains("champion alice"), "{text}");
    let page = dir.path().join("cup.html");
    ok(db, &["page", "1", "--html", page.to_str().unwrap()]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("Spring &lt;Cup&gt;") && !html.contains("<Cup>"));
    assert!(html.contains("Champion: <bdi>alice</bdi>"), "{html}");
    assert!(
        !html.contains("<script") && !html.contains("src="),
        "self-contained"
    );
    // As a person sees it on a phone: the champion, the standings' four rows, every
    // round told, and nothing past the screen's right edge but inside a box that
    // scrolls on its own (a wide table, the bracket).
    let Some(probe) = crate::browser::probe(
        dir.path(),
        &html,
        "const rows = [...document.querySelectorAll('table tr')].slice(1);\
         return {champion: document.querySelector('.champion').innerText, \
         standings: rows.map(r => r.cells[1].innerText), \
         rounds: document.querySelectorAll('h3').length, \
         wide: Math.max(...[...document.querySelectorAll('body *')] \
           .filter(e => !e.parentElement.closest('.wide, .bracket')) \
           .map(e => Math.ceil(e.getBoundingClientRect().right)))};",
    ) else {
        return;
    };
    assert_eq!(probe["champion"], "Champion: alice", "{probe}");
    assert_eq!(probe["standings"].as_array().unwrap().len(), 4, "{probe}");
    assert_eq!(probe["standings"][0], "alice", "{probe}");
    assert_eq!(probe["rounds"], 3, "{probe}");
    assert_eq!(probe["phone"]["viewport"], 360, "{probe}");
    assert!(probe["wide"].as_u64().unwrap() <= 360, "{probe}");
}

/// `create --ai-fill N` at the terminal, as `/tournament create ai_fill:N` on Discord:
/// at the start, terminal AI players take the seats left empty up to N, the levels in
/// turn (one already signed up passed over), joining as it starts and seeded after
/// the people; more than 64 is refused before anything is written; without it, nobody
/// is added.
#[test]
fn ai_players_fill_the_empty_seats_at_a_terminal_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fill.db");
    let db = path.to_str().unwrap();
    let over = refused(
        db,
        &["create", "X", "--format", "single", "--ai-fill", "80"],
    );
    assert!(over.contains("2 to 64 players, not 80"), "{over}");
    assert!(!path.exists(), "nothing written");
    let made = ok(
        db,
        &["create", "Fill Cup", "--format", "single", "--ai-fill", "6"],
    );
    assert!(
        made.contains("AI players fill the empty seats up to 6 players"),
        "{made}"
    );
    for p in ["alice", "ai-player", "bob"] {
        ok(db, &["join", "1", p]);
    }
    let started = ok(db, &["start", "1"]);
    assert!(started.contains("started with 6 players; seeds: alice, ai-player, bob, ai-beginner, ai-expert, ai-beginner-2"), "{started}");
    assert_eq!(started.matches(" joined").count(), 3, "{started}");
    let m = rows(db, "matches", "1");
    let seated: Vec<&str> = m
        .iter()
        .flat_map(|r| r["players"].as_array().unwrap())
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(seated.contains(&"ai-beginner-2"), "{m:?}");
    // Full already: nobody is added.
    ok(
        db,
        &[
            "create",
            "Full Cup",
            "--format",
            "roundrobin",
            "--ai-fill",
            "2",
        ],
    );
    ok(db, &["create", "People Cup", "--format", "roundrobin"]);
    for id in ["2", "3"] {
        for p in ["alice", "bob"] {
            ok(db, &["join", id, p]);
        }
        let started = ok(db, &["start", id]);
        assert!(
            started.contains("started with 2 players") && !started.contains(" joined"),
            "{started}"
        );
    }
}

/// `run --ai-fill`: a Swiss of AI players played out, each match umpired, stored
/// and rated; nobody meets twice; the points add up; the rows keep the contract.
#[test]
fn an_ai_swiss_plays_every_round_and_stores_every_match() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ai.db");
    let db = db.to_str().unwrap();
    let page = dir.path().join("swiss.html");
    let out = ok(
        db,
        &[
            "run",
            "--ai-fill",
            "--players",
            "9",
            "--format",
            "swiss",
            "--rounds",
            "4",
            "--html",
            page.to_str().unwrap(),
        ],
    );
    assert!(out.contains("round 4 (swiss): 4 matches"), "{out}");
    let m = rows(db, "matches", "1");
    assert_eq!(m.len(), 16, "four rounds of four matches (one bye each)");
    let mut met = std::collections::HashSet::new();
    for row in &m {
        let p: Vec<&str> = row["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        let mut pair = p.clone();
        pair.sort_unstable();
        assert!(met.insert(pair), "{p:?} met twice");
        let r = row["result"].as_str().unwrap();
        assert!(r == "draw" || p.contains(&r), "{row}");
        assert!(row["match"].as_i64().is_some(), "{row}");
    }
    let s = rows(db, "standings", "1");
    let total: f64 = s.iter().map(|r| r["points"].as_f64().unwrap()).sum();
    assert_eq!(total, 16.0 + 4.0, "a point a match and a point a bye");
    // The matches are stored: the replay reads the last one.
    let last = m.last().unwrap()["match"].as_i64().unwrap().to_string();
    let replay = mondo(&["replay", &last, "--db", db]);
    assert!(replay.status.success(), "{replay:?}");
    // ... and rated like any match.
    let stats = mondo(&["stats", "ai-expert", "--json", "--db", db]);
    assert!(
        String::from_utf8_lossy(&stats.stdout).contains("pattern-assembly"),
        "{stats:?}"
    );
    assert!(
        std::fs::read_to_string(&page)
            .unwrap()
            .contains("ai-expert")
    );
}

/// Groups then playoffs of Plus: the playoff matches are Plus; the bracket's
/// final winner is the champion and first in the standings.
#[test]
fn ai_groups_then_plus_playoffs_crown_the_final_winner() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let db = db.to_str().unwrap();
    ok(
        db,
        &[
            "run",
            "--ai-fill",
            "--players",
            "8",
            "--format",
            "groups",
            "--playoffs",
            "2",
            "--playoff-game",
            "pattern-assembly --plus",
            "--best-of",
            "3",
        ],
    );
    let m = rows(db, "matches", "1");
    let stages: Vec<&str> = m.iter().map(|r| r["stage"].as_str().unwrap()).collect();
    assert_eq!(stages.iter().filter(|s| **s == "groups").count(), 12);
    assert_eq!(stages.iter().filter(|s| **s == "playoffs").count(), 3);
    let last = m.last().unwrap();
    let s = rows(db, "standings", "1");
    assert_eq!(
        s[0]["player"], last["result"],
        "the final's winner is first"
    );
    // A no-show: the last seed never comes, and forfeits every match at its round's
    // deadline (the game clock jumps to it); a Swiss pairs them on regardless.
    ok(
        db,
        &[
            "run",
            "--ai-fill",
            "--players",
            "6",
            "--format",
            "swiss",
            "--rounds",
            "3",
            "--no-shows",
            "1",
        ],
    );
    let m = rows(db, "matches", "2");
    let forfeits: Vec<_> = m.iter().filter(|r| r["result"] == "forfeit").collect();
    assert_eq!(forfeits.len(), 3, "{m:?}");
    // The no-show is the one at every forfeited match.
    let absent = forfeits[0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .find(|p| {
            forfeits.iter().all(|r| {
                r["players"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|q| q == p.as_str())
            })
        })
        .expect("one player at every forfeit");
    assert_eq!(
        rows(db, "standings", "2").last().unwrap()["player"],
        absent.as_str()
    );
    let theirs: Vec<_> = m
        .iter()
        .filter(|r| {
            r["players"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p == absent.as_str())
        })
        .collect();
    assert_eq!(theirs.len(), 3, "{m:?}");
    assert!(
        theirs
            .iter()
            .all(|r| r["result"] == "forfeit" && r["match"].is_null()),
        "{theirs:?}"
    );
    let history = ok(db, &["history", "2"]);
    assert_eq!(
        history.matches(&format!("forfeited by {absent}")).count(),
        3,
        "{history}"
    );
    assert!(refused(db, &["run", "--players", "4", "--format", "single"]).contains("--ai-fill"));
    assert!(
        refused(
            db,
            &[
                "run",
                "--ai-fill",
                "--format",
                "single",
                "--game",
                "pattern-assembly --big"
            ]
        )
        .contains("--plus")
    );
}
