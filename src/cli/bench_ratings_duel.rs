//! `mondo bench leaderboard`: a server with 10,000 finished (rated) Zendo Duels among
//! 300 players; the leaderboard of one game and of every game, read as `/leaderboard`
//! and `mondo leaderboard` read it (target: at most 50 ms; indexes, not a scan of the
//! events), and a rebuild of every rating from the logs.

use mondo::koan::{Koan, PieceSet};
use mondo::ratings::{BoardOverrides, BoardSettings};
use mondo::rules::zendo::{Duel, DuelMove, DuelSetup, Initial, ZendoMove};
use mondo::rules::{Action, Actor, Game, PlayerId};
use mondo::runtime::{AnyMatch, rebuild_ratings};
use mondo::store::{Durability, NewEvent, NewMatch, Store};
use std::process::ExitCode;
use std::time::Instant;

const GUILD: u64 = 4242;

pub fn run(matches: usize, players: u64, runs: usize) -> ExitCode {
    let db = std::env::temp_dir().join(format!("mondo-bench-ratings-{}.db", std::process::id()));
    let code = super::kit::block_on(bench(db.clone(), matches, players.max(2), runs.max(1)));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    code
}

fn koan(text: &str) -> Result<Koan, String> {
    Koan::parse_as(text, PieceSet::Pyramids).map_err(|e| e.to_string())
}

/// One finished duel's log: created, the starter chosen, a resignation.
fn duel(
    a: PlayerId,
    b: PlayerId,
    loser: PlayerId,
    t: u64,
    setup: &DuelSetup,
) -> Result<(Duel, Vec<NewEvent>), String> {
    let setup = DuelSetup {
        players: [a, b],
        advantage: b,
        seed: t,
        ..setup.clone()
    };
    let (mut g, created) = <Duel as Game>::start(setup, t).map_err(|e| e.to_string())?;
    let mut events = vec![created];
    let choose = Action::Move(DuelMove::Zendo(ZendoMove::ChooseStarter { starter: a }));
    events.extend(
        g.play(&Actor::Player(b), &choose, t + 1)
            .map_err(|e| e.to_string())?,
    );
    events.extend(
        g.play(&Actor::Player(loser), &Action::Resign, t + 2)
            .map_err(|e| e.to_string())?,
    );
    let rows = events
        .iter()
        .map(|e| {
            Ok(NewEvent {
                at: e.at,
                body: serde_json::to_string(e).map_err(|e| e.to_string())?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok((g, rows))
}

async fn bench(
    db: std::path::PathBuf,
    matches: usize,
    players: u64,
    runs: usize,
) -> Result<ExitCode, String> {
    let store = Store::open_with(&db, Durability::Process)
        .await
        .map_err(|e| e.to_string())?;
    let base = DuelSetup {
        players: [PlayerId(1), PlayerId(2)],
        advantage: PlayerId(2),
        hidden: mondo::lang::parse("some piece points up").map_err(|e| e.to_string())?,
        initial: Initial {
            obeys: koan("1^")?,
            does_not: koan("1>")?,
        },
        settings: Default::default(),
        timing: Default::default(),
        seed: 0,
    };
    let start = Instant::now();
    // A fixed pseudo-random pairing (no rand needed): player i against i * 7 + k.
    let mut handles = Vec::new();
    for m in 0..matches as u64 {
        let a = PlayerId(1 + m % players);
        let b = PlayerId(1 + (m * 7 + 1 + m / players) % players);
        let b = if a == b {
            PlayerId(1 + (a.0 % players))
        } else {
            b
        };
        let loser = if (m * 2_654_435_761) % 5 < 2 { a } else { b };
        let (g, rows) = duel(a, b, loser, m * 10, &base)?;
        let store = store.clone();
        handles.push(tokio::spawn(async move {
            let ids: Vec<u64> = g.players().iter().map(|p| p.0).collect();
            let id = store
                .create_match(
                    &NewMatch {
                        kind: "zendo-duel",
                        guild: Some(GUILD),
                        channel: None,
                        seed: g.seed(),
                        settings: "{}",
                        players: &ids,
                    },
                    &rows[0],
                )
                .await?;
            store
                .append_ending(id, 1, rows[1..].to_vec(), true, g.finish())
                .await
        }));
        if handles.len() >= 256 {
            for h in handles.drain(..) {
                h.await
                    .map_err(|e| e.to_string())?
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    for h in handles.drain(..) {
        h.await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
    }
    println!(
        "{matches} finished duels among {players} players stored and rated in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    // The server's own listing rules, read with every board as `/leaderboard` and
    // `mondo leaderboard --guild` read them (the same numbers as the defaults).
    let defaults = BoardSettings::default();
    let own = BoardOverrides {
        min_games: Some(defaults.min_games),
        ..BoardOverrides::default()
    };
    store
        .set_leaderboard_settings(GUILD, &own, None)
        .await
        .map_err(|e| e.to_string())?;
    let mut worst: f64 = 0.0;
    for (what, game) in [("zendo-duel", Some("zendo-duel")), ("every game", None)] {
        let mut times = Vec::with_capacity(runs);
        let mut listed = 0;
        for _ in 0..runs {
            let t = Instant::now();
            let settings = store
                .leaderboard_settings(GUILD)
                .await
                .map_err(|e| e.to_string())?
                .over(&defaults);
            listed = store
                .leaderboard(GUILD, game, &settings, 20)
                .await
                .map_err(|e| e.to_string())?
                .len();
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let max = times[times.len() - 1];
        worst = worst.max(median);
        println!(
            "leaderboard ({what}): {listed} rows, median {median:.2} ms, max {max:.2} ms over {runs} runs"
        );
    }
    store.close().await;
    // What `mondo leaderboard` does: open the file read-only, read, close.
    let t = Instant::now();
    let reader = Store::open_read_only(&db)
        .await
        .map_err(|e| e.to_string())?;
    let settings = reader
        .leaderboard_settings(GUILD)
        .await
        .map_err(|e| e.to_string())?
        .over(&defaults);
    reader
        .leaderboard(GUILD, None, &settings, 20)
        .await
        .map_err(|e| e.to_string())?;
    reader.close().await;
    let cold = t.elapsed().as_secs_f64() * 1e3;
    worst = worst.max(cold);
    println!("open read-only + leaderboard (every game) + close: {cold:.2} ms");
    let store = Store::open_with(&db, Durability::Process)
        .await
        .map_err(|e| e.to_string())?;
    let t = Instant::now();
    let (done, _) = rebuild_ratings::<AnyMatch>(&store)
        .await
        .map_err(|e| e.to_string())?;
    println!(
        "ratings rebuild from {} logs: {:.2} s",
        done.matches,
        t.elapsed().as_secs_f64()
    );
    store.close().await;
    println!(
        "target: at most 50 ms -> {}",
        if worst <= 50.0 { "met" } else { "MISSED" }
    );
    Ok(if worst <= 50.0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
